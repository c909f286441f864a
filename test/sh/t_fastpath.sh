# The fast path (decode cache, computed goto, run-ahead, lock-step group runs, idle fast-forward)
# against the reference path (TTEMU_REFERENCE=1: hart_step, one cycle at a time): every workload
# run three ways (reference; fast with TTEMU_SPIN=0, no idle fast-forward; fast) must give
# byte-identical reports (exit, cycles, per-core pc/instret/stall counts, coprocessor state, peeks
# of the memory the programs write). test/unit/test_predecode.c covers code written at run time,
# test/unit/test_spin.c the idle fast-forward.
. test/sh/lib.sh
D=$FW/demo P=$FW/progs
FWD=$SHARED/firmware/blackhole-p100a K=$SHARED/firmware/kernels-add1

# same NAME ARGS...: runs ttemu both ways with ARGS and compares the reports.
same() {
    local name=$1; shift
    rm -f "$TMP/ref.json" "$TMP/fast.json" "$TMP/nospin.json"
    TTEMU_REFERENCE=1 TTEMU_STATS=1 "$TTEMU" run --quiet --report "$TMP/ref.json" "$@" >/dev/null 2>"$TMP/ref.all"
    local rc_ref=$?
    grep -v '^ttemu: stats: ' "$TMP/ref.all" >"$TMP/ref.err"
    grep '^ttemu: stats: ' "$TMP/ref.all" >"$TMP/ref.stats"
    TTEMU_SPIN=0 "$TTEMU" run --quiet --report "$TMP/nospin.json" "$@" >/dev/null 2>/dev/null
    local rc_nospin=$?
    TTEMU_STATS=1 "$TTEMU" run --quiet --report "$TMP/fast.json" "$@" >/dev/null 2>"$TMP/fast.all"
    local rc_fast=$?
    grep -v '^ttemu: stats: ' "$TMP/fast.all" >"$TMP/fast.err"
    grep '^ttemu: stats: ' "$TMP/fast.all" >"$TMP/fast.stats"
    if [ "$rc_ref" -ne "$rc_nospin" ]; then
        nok "fast = reference: $name" "exit $rc_nospin with TTEMU_SPIN=0, reference $rc_ref"
    elif [ "$rc_ref" -ne 4 ] && ! cmp -s "$TMP/ref.json" "$TMP/nospin.json"; then
        nok "fast = reference: $name" "TTEMU_SPIN=0:" "$(diff "$TMP/ref.json" "$TMP/nospin.json" | head -20)"
    elif [ "$rc_ref" -ne "$rc_fast" ]; then
        nok "fast = reference: $name" "exit $rc_fast, reference $rc_ref"
    elif [ "$rc_ref" -eq 4 ]; then # refused before running: the same message both ways
        if cmp -s "$TMP/ref.err" "$TMP/fast.err"; then ok "fast = reference: $name (refused)"
        else nok "fast = reference: $name" "$(diff "$TMP/ref.err" "$TMP/fast.err" | head -5)"; fi
    elif ! grep -q "ran the reference path" "$TMP/ref.err" || grep -q "ran the reference path" "$TMP/fast.err"; then
        # Without this, an ignored TTEMU_REFERENCE would compare the fast path with itself.
        nok "fast = reference: $name" "TTEMU_REFERENCE did not select the reference path (or leaked into the fast run)"
    elif cmp -s "$TMP/ref.json" "$TMP/fast.json"; then
        ok "fast = reference: $name"
    else
        nok "fast = reference: $name" "$(diff "$TMP/ref.json" "$TMP/fast.json" | head -20)"
    fi
}

# stat_of FILE KEY: the figure KEY of the TTEMU_STATS line in FILE (nothing if it has none).
stat_of() { grep -oE "(^| )$2[= ][0-9]+" "$1" | grep -oE '[0-9]+$'; }

# takes NAME KEY...: the last `same` run's fast path took each shortcut KEY (a figure of its
# TTEMU_STATS line, docs/cli.md: BRISC..TRISC2 parked turns, spin_skipped, cp_quiet, owed_idle,
# owed_quiet, park_skipped) at least once. Equal reports alone would also pass with a shortcut never taken.
takes() {
    local name=$1 key v; shift
    for key in "$@"; do
        v=$(stat_of "$TMP/fast.stats" "$key")
        if [ -z "$v" ]; then nok "fast path takes $key: $name" "no $key in: $(cat "$TMP/fast.stats")"; return; fi
        if [ "$v" -eq 0 ]; then nok "fast path takes $key: $name" "$(cat "$TMP/fast.stats")"; return; fi
    done
    ok "fast path takes $*: $name"
}

# ref_takes_none NAME KEY...: the last `same` run's reference path took none of the shortcuts KEY
# (its TTEMU_STATS figures all 0): its coprocessor is stepwise (tile_create), which cp_cycle_fast
# does not ask, so that only the fast path's tiles take it. (Owed cycles need no such check: the
# reference path's tile_run never owes any.)
ref_takes_none() {
    local name=$1 key v; shift
    for key in "$@"; do
        v=$(stat_of "$TMP/ref.stats" "$key")
        if [ "${v:-x}" != 0 ]; then nok "reference path takes no $key: $name" "$(cat "$TMP/ref.stats")"; return; fi
    done
    ok "reference path takes none of $*: $name"
}

same "demo, five cores" --brisc $D/brisc.elf --ncrisc $D/ncrisc.elf --trisc0 $D/trisc0.elf \
    --trisc1 $D/trisc1.elf --trisc2 $D/trisc2.elf --peek 0x8000:8
same "demo, BRISC alone (run-ahead)" --brisc $D/brisc.elf --peek 0x8000:8
same "demo, TRISC2 alone (Tensix pushes)" --trisc2 $D/trisc2.elf --peek 0x8000:8
if [ -f $FW/bench/compute.elf ]; then
    same "bench compute, 3M cycles" --brisc $FW/bench/compute.elf --max-cycles 3000000 --peek 0x8000
else
    nok "fast = reference: bench compute" "$FW/bench/compute.elf missing (make fw)"
fi
same "spin until --max-cycles" --brisc $P/spin_brisc.elf --max-cycles 5000
# A pure spin (loads only: the idle fast-forward skips it) until the deadlock window ends it, and
# with detection off until --max-cycles; the diagnosis (pc range sampled) must match too.
same "pure spin until the deadlock window" --brisc $FW/broken/soft_sem_spin_brisc.elf
same "pure spin, --deadlock-window 20000" --brisc $FW/broken/soft_sem_spin_brisc.elf --deadlock-window 20000
same "pure spin until --max-cycles" --brisc $FW/broken/soft_sem_spin_brisc.elf --deadlock-window 0 --max-cycles 300001
same "hang on INSTRN1_BUF (deadlock)" --trisc0 $P/hang_trisc0.elf --max-cycles 100000
# The NoC: requests in flight land at the end of a cycle on every path and keep the tile from
# being idle (no run-ahead, no fast-forward while one is in flight).
same "NoC round trip (DRAM, loopback, atomics)" --brisc $P/noc_roundtrip_brisc.elf --peek 0x9000:5 --peek 0x24000:256
same "NoC round trip, cut short with reads in flight" --brisc $P/noc_roundtrip_brisc.elf --max-cycles 7001 --peek 0x24000:256
same "NoC read never issued (deadlock diagnosis)" --ncrisc $FW/broken/noc_read_never_issued_ncrisc.elf
same "NoC request to another tile (fault)" --ncrisc $P/noc_other_tile_ncrisc.elf
same "soft reset of another core" --brisc $P/reset_brisc.elf --peek 0x9100:4 --max-cycles 100000
for elf in $FW/isa/*.elf; do
    [ -f "$elf" ] || continue
    same "isa $(basename "$elf" .elf)" --brisc "$elf" --max-cycles 2000000 --peek 0x8000:64
done
for elf in $FW/isa-faults/*.elf; do
    [ -f "$elf" ] || continue
    same "fault $(basename "$elf" .elf)" --brisc "$elf" --max-cycles 100000
done

# Blocked harts (tile_block: the lock-step turn counts a stalled access's retry without running
# it while the tile proves it would stall again): a TRISC pushing into its full FIFO#1 and its
# tensix_sync (backpressure); BRISC pushing into a full FIFO#2 after the MOP expander, released by
# a semaphore post, and the same with its stalled push rewritten by NCRISC meanwhile (the retry
# must run the new instruction at once), with a tensix_sync of the releasing TRISC.
same "blocked: TRISC0 on its full FIFO#1, then tensix_sync" --trisc0 $P/backpressure_trisc0.elf \
    --trisc1 $P/backpressure_trisc1.elf --peek 0x9100:3
same "blocked: BRISC on a full FIFO#2, released" --brisc $P/blocked_brisc.elf --trisc1 $P/blocked_trisc1.elf \
    --peek 0x9300:2
same "blocked: BRISC on thread 0's full FIFO#2, released" --brisc $P/blocked_t0_brisc.elf \
    --trisc1 $P/blocked_trisc1.elf --peek 0x9300:2
same "blocked: BRISC's stalled push rewritten" --brisc $P/blocked_brisc.elf --ncrisc $P/blocked_ncrisc.elf \
    --trisc1 $P/blocked_trisc1.elf --peek 0x9300:2 --peek 0x9200:2
same "blocked: BRISC's stalled push rewritten, the code after it decoded" --brisc $P/blocked_warm_brisc.elf \
    --ncrisc $P/blocked_ncrisc.elf --trisc1 $P/blocked_trisc1.elf --peek 0x9300:2 --peek 0x9200:2
# Parked harts (core/exec.c: a group turn counts a provable spin's steps while the one word it
# reads and its code stay unchanged): BRISC parked on an L1 word woken by NCRISC's store (later
# in core order), on a stream register (a device's storage) by NCRISC's MMIO store, on an L1 word
# by a NoC write, and on a word that never changes by a store over its loop's branch; NCRISC
# parked and woken by BRISC's store (earlier in core order), and its PC snapshot read by BRISC
# while parked (settled mid-cycle, every phase of its loop); a cycle-count stop while BRISC is
# parked. The add1 workloads below park BRISC, NCRISC and TRISC0 (on its stream register, written
# by the host's hook) with the host's reads and stops in between.
same "parked: woken by each kind of write, PC snapshots" --brisc $P/park_brisc.elf --ncrisc $P/park_ncrisc.elf \
    --peek 0x9600:45 --peek 0x9400:8 --peek 0x9700
takes "park_brisc/park_ncrisc" BRISC NCRISC
same "parked: a cycle-count stop while parked" --brisc $P/park_brisc.elf --ncrisc $P/park_ncrisc.elf \
    --peek 0x9600:44 --max-cycles 2503
# BRISC and NCRISC parked on NIU counters (their reads' poll notes replayed when they settle):
# the report, and a trace that starts while BRISC waits for its reads (its cycles classified as
# noc_wait only after a recent poll), must match; then the deadlock diagnosis.
same "parked on NIU counters (deadlock diagnosis)" --brisc $P/park_noc_brisc.elf \
    --ncrisc $FW/broken/noc_read_never_issued_ncrisc.elf
takes "park_noc_brisc" BRISC
# TRISC0 parked on semaphores (PC_BUF window), woken by TRISC1's store to its window and by T1's
# SEMPOST; the wake cycles are peeked.
same "parked on semaphores" --trisc0 $P/park_sem_trisc0.elf --trisc1 $P/park_sem_trisc1.elf --peek 0x9800:3
takes "park_sem_trisc0" TRISC0
for path in reference fast; do
    env $([ $path = reference ] && echo TTEMU_REFERENCE=1) "$TTEMU" run --quiet --report "$TMP/$path.json" \
        --brisc $P/park_noc_brisc.elf --ncrisc $FW/broken/noc_read_never_issued_ncrisc.elf \
        --trace "$TMP/$path.trace.json" --trace-start 500 --trace-stop 560 >/dev/null 2>&1
done
if ! grep -q '"state":"noc_wait"' "$TMP/reference.trace.json"; then
    nok "fast = reference: trace of a core parked on a NIU counter" "the reference trace has no noc_wait"
elif cmp -s "$TMP/reference.trace.json" "$TMP/fast.trace.json"; then
    ok "fast = reference: trace of a core parked on a NIU counter"
else
    nok "fast = reference: trace of a core parked on a NIU counter" \
        "$(diff "$TMP/reference.trace.json" "$TMP/fast.trace.json" | head -10)"
fi
# Every regression sample (deadlocks and their diagnoses included).
for cfg in firmware-samples/regress/*.json; do
    case $cfg in *.golden.json) continue ;; esac
    same "regress $(basename "$cfg" .json)" --config "$cfg"
done

# The sample kernels (firmware-samples/ops/: unpack, Matrix Unit, packer on real data).
for cfg in firmware-samples/ops/*.json; do
    case $cfg in *.golden.json) continue ;; esac
    same "ops $(basename "$cfg" .json)" --config "$cfg"
done

if [ ! -d "$FWD" ] || [ ! -d "$K" ]; then
    skip "fast = reference: tt-metal boot and add1" "../shared/firmware is absent"
elif ! "$TTEMU" --help | grep -q -- --config; then
    skip "fast = reference: tt-metal boot and add1" "this ttemu has no run --config"
else
    FWA=$(cd "$FWD" && pwd) KA=$(cd "$K" && pwd)
    cat > "$TMP/boot.json" <<EOF
{"version": 1, "firmware": "$FWA", "stop": {"at": "boot", "cycles": 50000}, "max_cycles": 200000,
 "peek": ["0x0:1024"]}
EOF
    same "tt-metal boot + 50k idle cycles" --config "$TMP/boot.json"
    # Long enough for the idle fast-forward to skip most of it, with the progress checks and the
    # run-config hook cutting the run into batches.
    cat > "$TMP/boot_idle.json" <<EOF
{"version": 1, "firmware": "$FWA", "stop": {"at": "boot", "cycles": 1000003}, "max_cycles": 2000000,
 "peek": ["0x0:1024"]}
EOF
    same "tt-metal boot + 1M idle cycles (idle fast-forward)" --config "$TMP/boot_idle.json"
    takes "boot + 1M idle" spin_skipped
    # add1 [OPTION...]: the compute kernels on 4 tiles (scripts/add1_config.py), L1 0x0 and CB16 peeked.
    add1() {
        python3 scripts/add1_config.py --shared "$SHARED" -n 4 --peek 0x0:1024 --peek 0x30000:256 --max-cycles 5000000 "$@"
    }
    add1 > "$TMP/add1.json"
    same "add1 launch, 4 tiles" --config "$TMP/add1.json"
    takes "add1 launch" BRISC NCRISC TRISC1 cp_quiet owed_idle owed_quiet
    ref_takes_none "add1 launch" cp_quiet
    # Two launches with idle stretches around them (the fast-forward proven, then dropped by the
    # host's launch writes), then a cycle-count stop.
    add1 --launches 2 --stop-cycles 400009 > "$TMP/add1_idle.json"
    same "add1 twice, then idle to a cycle-count stop" --config "$TMP/add1_idle.json"
    # The whole add1 program: reader (NOC0 reads of DRAM), compute, writer (NOC1 writes to DRAM),
    # then idle to a cycle-count stop; and 64 tiles.
    sed -e "s|\.\./\.\./\.\./shared/firmware/blackhole-p100a|$FWA|; s|\.\./\.\./\.\./shared/firmware/kernels-add1|$KA|g; s|\.\./\.\./build/data|$PWD/build/data|g" \
        firmware-samples/configs/add1-full.json > "$TMP/full.json"
    same "add1 full program, 8 tiles" --config "$TMP/full.json" --peek 0x20000:4096 --peek 0x30000:64
    python3 - "$TMP/full.json" "$TMP/full_idle.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["stop"] = {"at": "launches", "cycles": 300007}
json.dump(c, open(sys.argv[2], "w"))
PY
    # 64 tiles: the sample's tensors hold 8, so a ramp input instead
    python3 scripts/add1_config.py --shared "$SHARED" --whole -n 64 --ramp --max-cycles 5000000 > "$TMP/full64.json"
    same "add1 full program, then 300k idle cycles" --config "$TMP/full_idle.json" --peek 0x0:1024
    same "add1 full program, 64 tiles" --config "$TMP/full64.json" --peek 0x20000:4096
    takes "add1 full program" TRISC0 cp_quiet owed_idle owed_quiet park_skipped
    ref_takes_none "add1 full program" cp_quiet park_skipped
    same "add1 launch, 4 tiles, whole-thread gate policy" --config "$TMP/add1.json" --gate-policy whole-thread
    # The host model sleeps on its mailbox words between calls (run_t.hook_watch): stops at a
    # cycle count inside the boot, inside a launch and right after GO, and a launch whose
    # kernels-done read and next launch follow within cycles of each other (three launches).
    add1 --stop-cycles 3001 > "$TMP/add1_stop_boot.json"
    add1 --stop-cycles 9001 > "$TMP/add1_stop_mid.json"
    add1 --stop-cycles 4470 > "$TMP/add1_stop_go.json"
    add1 --launches 3 --done-read 0xFFB48020:acked > "$TMP/add1_three.json"
    for s in boot mid go; do
        same "add1, cycle-count stop ($s)" --config "$TMP/add1_stop_$s.json"
    done
    same "add1, three launches with a kernels-done read" --config "$TMP/add1_three.json"
fi
# Under both gate policies (docs/gate-policies.md): the samples where the policy matters, and one
# where it deadlocks.
for pol in exact whole-thread; do
    for c in policy_overlap policy_request pipeline mop_replay; do
        same "$c, $pol gate policy" --config firmware-samples/regress/$c.json --gate-policy $pol
    done
done
# Issue 20, item 1: the run waits for the coprocessor to drain after every core halted.
same "halt right after a SEMPOST push (drain)" --trisc0 $P/drop_sempost_trisc0.elf
same "halt right after an undefined word (deadlock)" --trisc0 $P/drop_undef_trisc0.elf --deadlock-window 20000
# bench/compare.sh, what a speed round's "reports unchanged" rests on: one build against itself
# and its reference path, then against a wrapper that runs it with a cycle limit (every report
# differs), which it must report and fail.
printf '#!/bin/sh\nexec "%s" "$@" --max-cycles 3000\n' "$(realpath "$TTEMU")" > "$TMP/limited"
chmod +x "$TMP/limited"
OUT=$(bench/compare.sh "$TTEMU" "$TTEMU" 2>&1); RC=$?
expect_exit "bench/compare.sh: a build against itself and its reference path (exit 0)" 0
expect_out "bench/compare.sh: nothing differs" "^[1-9][0-9]* same, 0 differ$"
OUT=$(bench/compare.sh "$TMP/limited" "$TTEMU" 2>&1); RC=$?
expect_exit "bench/compare.sh: a run that differs fails it (exit 1)" 1
expect_out "bench/compare.sh: names what differs" "^differ: ops_sfpu_exp \(old and new; exit 2 and 0\)$"
