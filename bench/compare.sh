#!/usr/bin/env bash
# bench/compare.sh — are two builds' results the same? Runs the bench workloads with an old and a
# new ttemu and compares their JSON reports byte for byte (cycles, instruction counts, stalls,
# peeks, tensors' comparisons: everything a report holds), and each new report with the new
# build's reference path (TTEMU_REFERENCE=1: no shortcut). What a speed round must leave as it
# was (bench/README.md); test/sh/t_fastpath.sh checks the reference path in `make test`.
#
#   bench/compare.sh OLD_TTEMU [NEW_TTEMU]      (NEW_TTEMU: build/ttemu)
#
# Workloads: the add1 compute kernels (4 x 32 and 16 x 32 tiles), the whole add1 program on 64
# and 1000 tiles (scripts/add1_config.py), the same with .npy tensors and --output (when Debian's
# NumPy is there: scripts/make_sample_data.py), boot + 100k idle cycles, every sample kernel
# firmware-samples/ops/*.json, and bench/progs/compute.c on BRISC. The firmware ones need
# ../shared/firmware (skipped with a message without it). Prints a line per difference and
# "N same, M differ"; exit 0 when nothing differs, 1 when something does, 2 on bad arguments.
set -uo pipefail
cd "$(dirname "$0")/.."
OLD=${1:-} NEW=${2:-build/ttemu} SHARED=${SHARED:-../shared}
if [ -z "$OLD" ] || [ ! -x "$OLD" ] || [ ! -x "$NEW" ]; then
    echo "usage: bench/compare.sh OLD_TTEMU [NEW_TTEMU] (both executables; NEW defaults to build/ttemu)" >&2
    exit 2
fi
OLD=$(realpath "$OLD") NEW=$(realpath "$NEW")
TMP=$(mktemp -d /tmp/ttemu-compare.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# name and arguments, one workload a line (tab-separated)
{
    printf 'compute\t--brisc %s --max-cycles 2000000\n' "$PWD/build/fw/bench/compute.elf"
    for f in firmware-samples/ops/*.json; do
        case $f in *.golden.json) continue ;; esac
        printf 'ops_%s\t--config %s\n' "$(basename "$f" .json)" "$PWD/$f"
    done
    if [ -d "$SHARED/firmware/blackhole-p100a" ] && [ -d "$SHARED/firmware/kernels-add1" ]; then
        gen() { python3 scripts/add1_config.py --shared "$SHARED" "${@:2}" > "$TMP/$1.json" && echo "$TMP/$1.json"; }
        printf 'add1_4x32\t--config %s\n' "$(gen add1_4x32 -n 32 --launches 4 --cb16 0x60000)"
        printf 'add1_16x32\t--config %s\n' "$(gen add1_16x32 -n 32 --launches 16 --cb16 0x60000)"
        printf 'add1_full_64\t--config %s\n' "$(gen add1_full_64 --whole -n 64 --ramp)"
        printf 'add1_full_1000\t--config %s\n' "$(gen add1_full_1000 --whole -n 1000 --ramp)"
        printf '{"version": 1, "firmware": "%s", "stop": {"at": "boot", "cycles": 100000}, "max_cycles": 1000000}\n' \
            "$(realpath "$SHARED/firmware/blackhole-p100a")" > "$TMP/boot.json"
        printf 'boot_idle\t--config %s\n' "$TMP/boot.json"
        if [ -d /usr/lib/python3/dist-packages/numpy ]; then
            /usr/bin/python3 scripts/make_sample_data.py "$TMP/data" --tiles 1000 > /dev/null
            printf 'add1_tensors\t--config %s --input in=%s --expect out=%s --output out=out.npy\n' \
                "$(gen add1_tensors --whole -n 1000 --dram-tensors)" "$TMP/data/add1_input.npy" \
                "$TMP/data/add1_expected.npy"
        else
            echo "bench/compare.sh: no Debian python3-numpy (scripts/deps.sh): add1_tensors skipped" >&2
        fi
    else
        echo "bench/compare.sh: no $SHARED/firmware: the add1 and boot workloads skipped" >&2
    fi
} > "$TMP/workloads"

same=0 differ=0
# run WHICH NAME ENV ARGS...: one run in its own directory (a relative --output lands there, and
# the report names it the same way in both), report WHICH.json, exit status WHICH.rc
run() {
    local which=$1 name=$2 env=$3 bin=$NEW
    shift 3
    [ "$which" = old ] && bin=$OLD
    mkdir -p "$TMP/$name/$which"
    (cd "$TMP/$name/$which" && env $env "$bin" run --quiet --report report.json "$@" > /dev/null 2> err.txt
     echo $? > rc)
}
compare() { # compare NAME A B WHAT
    if cmp -s "$TMP/$1/$2/report.json" "$TMP/$1/$3/report.json" && cmp -s "$TMP/$1/$2/rc" "$TMP/$1/$3/rc" &&
        { [ ! -e "$TMP/$1/$2/out.npy" ] || cmp -s "$TMP/$1/$2/out.npy" "$TMP/$1/$3/out.npy"; }; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        echo "differ: $1 ($4; exit $(cat "$TMP/$1/$2/rc") and $(cat "$TMP/$1/$3/rc"))"
    fi
}
while IFS=$'\t' read -r name args; do # (args unquoted: split into words, none with a space)
    run old "$name" "" $args
    run new "$name" "" $args
    run ref "$name" TTEMU_REFERENCE=1 $args
    compare "$name" old new "old and new"
    compare "$name" new ref "new and its reference path"
done < "$TMP/workloads"
echo "$same same, $differ differ"
[ "$differ" = 0 ]
