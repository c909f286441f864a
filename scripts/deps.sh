#!/usr/bin/env bash
# Installs the Debian packages ttemu needs to build, test and demo.
# As root: runs `apt-get update` once and installs only what is missing.
# Otherwise: prints the exact install line and fails.
# Usage: scripts/deps.sh [--check]   (--check: only report, exit 1 if anything is missing)
set -euo pipefail

PKGS=(
  make gcc pkg-config
  clang-format                                           # make format-check (.ci/run runs it)
  gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf   # firmware samples and ISA tests
  libelf-dev                                             # loader/: ELF images
  libcjson-dev                                           # loader/: run configs; app/, debug/: reports, traces
  libxml2-dev                                            # app/junit.c: JUnit XML
  libsdl2-dev                                            # ui/: the live panel (optional at build)
  libsdl2-ttf-dev fonts-dejavu-core                      # ui/: its text (DejaVu Sans Mono)
  libsdl2-image-dev                                      # ui/: PNG screenshots (IMG_SavePNG)
  libcmocka-dev                                          # test/: C unit tests
  qemu-system-misc                                       # test/: differential ISA tests
  python3                                                # test/: JSON checks in shell tests
  clang libclang-rt-dev                                  # fuzz/: libFuzzer targets (make fuzz, t_fuzz.sh)
  python3-numpy                                          # scripts/make_add1_data.py, test/sh/t_tensors.sh (/usr/bin/python3)
  gtkwave                                                # test/: vcd2fst checks the VCD traces load
  man-db                                                 # test/: man -l renders docs/ttemu.1 (make install)
  gdb-multiarch                                          # test/: drives the GDB remote stub (--gdb)
  time                                                   # bench/run.sh: ttemu's own peak RSS (/usr/bin/time -f %M)
  python3-clang-14                                       # scripts/check_const_members.py (make format-check): libclang
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "${1:-}" = "--check" ]; then
  echo "deps: missing: ${missing[*]}" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "deps: missing Debian packages. Run as root:" >&2
  echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
