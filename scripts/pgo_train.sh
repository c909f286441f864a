#!/bin/sh
# Profile feedback's training run (Makefile, PGO=1; README "Profile feedback").
# usage: scripts/pgo_train.sh TTEMU OBJ_DIR [CONFIG.json...]    (from the repository's top directory)
# TTEMU is the instrumented program ($(BUILD)/pgo/ttemu, -fprofile-generate). Its objects were
# compiled under the names of the optimised ones (-dumpdir/-dumpbase), so each run adds its counts
# to OBJ_DIR/X.gcda, beside the object X.o that -fprofile-use then builds from them: gcc names a
# static function's profile after the object, and only the same name finds it. The set, in order:
#   - the run configs of firmware-samples/ops (every sample kernel) and firmware-samples/configs
#     (the tt-metal boot and add1 programs at a sample's size);
#   - scripts/pgo/*.json, the tt-metal programs at a user's sizes: the add1 compute kernels on 4
#     launches of 32 tiles, the whole add1 program on 64 tiles (DRAM, NoC), the boot and 100,000
#     idle cycles, the last once more with TTEMU_SPIN=0 (idle loops stepped cycle by cycle);
#   - bench/progs/compute.c on BRISC for 2 M cycles (the RV32 interpreter alone);
#   - the CONFIG.json given (make PGO_TRAIN="...", paths from the top directory): the user's own
#     kernels.
# Left out on purpose: the samples of firmware-samples/regress and broken (their deadlocks, 800,000
# idle cycles, outweighed the kernels: with them compute ran 3% and the whole add1 program 5%
# slower). Code that no run reaches is laid out as cold: a kernel using what the set never does can
# run slower than a PGO=0 build (the matmul sample left out: +20% host instructions, +11% time).
# The tt-metal programs need ../shared's firmware: without it their runs refuse the config (exit 4)
# and count only that (the Makefile's PGO_TT_METAL records which set the build saw).
# A run's exit code is its own (compute.elf ends at its cycle limit, a tt-metal config without its
# firmware is refused): only a run killed by a signal (a crash) fails the training.
set -eu
ttemu=$1 obj=$2
shift 2
[ -x "$ttemu" ] || { echo "pgo_train: no instrumented $ttemu" >&2; exit 1; }
for c; do [ -f "$c" ] || { echo "pgo_train: PGO_TRAIN names $c: no such file" >&2; exit 1; }; done
# The set is what this script says whatever the caller's environment: no reference path
# (TTEMU_REFERENCE), no idle fast-forward switched off (TTEMU_SPIN) or stats (TTEMU_STATS) from a
# shell that happened to have them (docs/cli.md "Environment").
unset TTEMU_REFERENCE TTEMU_SPIN TTEMU_STATS
mkdir -p "$obj"
find "$obj" -name '*.gcda' -exec rm -f {} +

run() { # run [VAR=value] PROGRAM ARGS...: env execs it, so a crash stays a signal
	rc=0
	env "$@" >/dev/null 2>&1 || rc=$?
	if [ "$rc" -ge 128 ]; then
		echo "pgo_train: $* was killed by signal $((rc - 128))" >&2
		exit 1
	fi
}

configs=$(find firmware-samples/ops firmware-samples/configs scripts/pgo -name '*.json' ! -name '*.golden.json' | LC_ALL=C sort)
for c in $configs; do run "$ttemu" run --config "$c" --quiet; done
run TTEMU_SPIN=0 "$ttemu" run --config scripts/pgo/boot_idle.json --quiet
run "$ttemu" run --brisc build/fw/bench/compute.elf --max-cycles 2000000 --quiet
for c; do run "$ttemu" run --config "$c" --quiet; done

[ -n "$(find "$obj" -name '*.gcda' | head -1)" ] || { echo "pgo_train: the training wrote no profile under $obj" >&2; exit 1; }
