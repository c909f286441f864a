# Progress detection and stall diagnosis (docs/debugging-stalls.md): five broken firmware samples
# end as deadlock (exit 1) with a diagnosis naming the right thread, instruction, semaphore or
# mutex; healthy and long-but-progressing runs never report deadlock.
. test/sh/lib.sh
B=$FW/broken D=$FW/demo P=$FW/progs

run_ttemu run --trisc1 $B/missing_sempost_trisc1.elf --trisc2 $B/missing_sempost_trisc2.elf --quiet --report "$TMP/ms.json"
expect_exit "missing SEMPOST: deadlock (exit 1)" 1
expect_out "missing SEMPOST: T2 holds PACR" "T2 \(TRISC2's Tensix thread\) holds PACR"
expect_out "missing SEMPOST: semaphore 1 Value 0 Max 1" "still true: C0 Value == 0 on semaphore 1 \(Value 0, Max 1\)"
expect_out "missing SEMPOST: nobody posted" "nobody has posted semaphore 1 since its SEMINIT at cycle [0-9]+ by T1"
expect_out "missing SEMPOST: TRISC2 in tensix_sync" "TRISC2 blocked in tensix_sync .*waits for T2"
expect_json "missing SEMPOST: JSON thread, cause, wait" "$TMP/ms.json" \
    '[(t["thread"], t["cause"], t["held"]["mnemonic"], t["wait"]["mnemonic"], t["wait"]["semaphores"][0]["index"], t["wait"]["semaphores"][0]["value"], t["wait"]["semaphores"][0]["max"]) for t in r["diagnosis"]["threads"]]' \
    '[[2, "semwait", "PACR", "SEMWAIT", 1, 0, 1]]'
expect_json "missing SEMPOST: JSON nobody posted" "$TMP/ms.json" \
    '[r["exit"]["reason"], r["diagnosis"]["kind"], r["diagnosis"]["threads"][0]["wait"]["semaphores"][0]["released_by"]]' \
    '["deadlock", "deadlock", []]'

run_ttemu run --trisc0 $B/bad_atgetm_trisc0.elf --quiet --report "$TMP/ag.json"
expect_exit "ATGETM invalid index: deadlock (exit 1)" 1
expect_out "ATGETM invalid index: named" "T0 .*holds ATGETM mutex_index=1"
expect_out "ATGETM invalid index: why" "names mutex 1, which does not exist on Blackhole"
expect_json "ATGETM invalid index: JSON" "$TMP/ag.json" \
    '[(t["thread"], t["cause"], t["held"]["mnemonic"], t["mutex"]["index"]) for t in r["diagnosis"]["threads"]]' \
    '[[0, "mutex_invalid", "ATGETM", 1]]'

run_ttemu run --trisc0 $B/mutex_leak_trisc0.elf --trisc1 $B/mutex_leak_trisc1.elf --quiet --report "$TMP/ml.json"
expect_exit "mutex never released: deadlock (exit 1)" 1
expect_out "mutex never released: T1 waits on T0's mutex 2" "mutex 2 is held by T0 since cycle [0-9]+"
expect_out "mutex never released: chain" "T1 waits on mutex 2 held by T0 -> T0 \(idle; its TRISC0 is halted\)"
expect_json "mutex never released: JSON" "$TMP/ml.json" \
    '[(t["thread"], t["cause"], t["held"]["mnemonic"], t["mutex"]["index"], t["mutex"]["holder"]) for t in r["diagnosis"]["threads"]]' \
    '[[1, "mutex", "ATGETM", 2, 0]]'

run_ttemu run --trisc1 $B/ring_trisc1.elf --trisc2 $B/ring_trisc2.elf --quiet --report "$TMP/ring.json"
expect_exit "wait-for ring (mutex vs semaphore): deadlock (exit 1)" 1
expect_out "ring: the queued SEMGET is named" "T2's SEMGET of semaphore 1 would release it, but it is queued behind T2's held ATGETM"
expect_out "ring: the cycle is named as such" \
    "wait-for cycle: T1 waits on sem 1 >= Max, released by T2's SEMGET queued behind its ATGETM; T2 waits on mutex 0 held by T1"
expect_json "ring: JSON cycle" "$TMP/ring.json" '[r["diagnosis"]["cycle_nodes"], r["diagnosis"]["cycle_text"].count(";")]' '[["T1", "T2"], 1]'
expect_json "ring: JSON queued release" "$TMP/ring.json" \
    '[(t["thread"], t["cause"], t.get("mutex", {}).get("holder"), [s.get("queued_release") for s in t.get("wait", {}).get("semaphores", [])]) for t in r["diagnosis"]["threads"]]' \
    '[[1, "semwait", null, [{"thread": 2, "mnemonic": "SEMGET", "word": 2768240648, "behind": "ATGETM"}]], [2, "mutex", 1, []]]'
run_ttemu run --trisc0 $B/mutex_leak_trisc0.elf --trisc1 $B/mutex_leak_trisc1.elf --quiet --report "$TMP/ml2.json"
expect_json "no ring where there is none" "$TMP/ml2.json" 'r["diagnosis"]["cycle_nodes"]' 'None'

run_ttemu run --trisc1 $B/wrong_instrn_buf_trisc1.elf --trisc2 $B/wrong_instrn_buf_trisc2.elf --quiet --report "$TMP/wi.json"
expect_exit "TRISC push to another thread's INSTRN_BUF: deadlock (exit 1)" 1
expect_out "wrong INSTRN_BUF: TRISC1 hung" "TRISC1 hung at pc 0x[0-9a-f]+ \(main\+0x[0-9a-f]+\): TRISC1 stored to INSTRN2_BUF"
expect_out "wrong INSTRN_BUF: T2 waits on semaphore 1" "T2 waits on sem 1 == 0"
expect_json "wrong INSTRN_BUF: JSON" "$TMP/wi.json" \
    '[(c["name"], c["state"]) for c in r["diagnosis"]["cores"]]' '[["TRISC1", "hung"], ["TRISC2", "tensix_sync"]]'

run_ttemu run --brisc $B/soft_sem_spin_brisc.elf --quiet --report "$TMP/sp.json"
expect_exit "spin on a software semaphore: deadlock (exit 1)" 1
expect_out "spin: loop and polled word named" "BRISC spins in 0x[0-9a-f]+\.\.0x[0-9a-f]+ \(main\+0x[0-9a-f]+\.\.main\+0x[0-9a-f]+\)"
expect_out "spin: polled word" "polls L1 0x00009000 \(now 0x00000000\)"
expect_json "spin: JSON" "$TMP/sp.json" \
    '[(c["name"], c["state"], c["polls"]["addr"], c["loop"]["symbol"].startswith("main+")) for c in r["diagnosis"]["cores"]]' \
    '[["BRISC", "spinning", 36864, true]]'
run_ttemu run --brisc $B/soft_sem_spin_brisc.elf --quiet --deadlock-window 20000
expect_exit "--deadlock-window shortens the window" 1
expect_out "--deadlock-window: detected within the window" "deadlock diagnosis at cycle [23][0-9]{4}:"
run_ttemu run --brisc $B/soft_sem_spin_brisc.elf --quiet --deadlock-window 0 --max-cycles 300000 --report "$TMP/sp0.json"
expect_exit "--deadlock-window 0 disables detection (exit 2)" 2
expect_json "timeout diagnosis names the spin" "$TMP/sp0.json" '[r["diagnosis"]["kind"], r["diagnosis"]["cores"][0]["state"]]' '["max_cycles", "spinning"]'
run_ttemu run --brisc $B/soft_sem_spin_brisc.elf --deadlock-window x
expect_exit "--deadlock-window needs a number (exit 4)" 4

# Healthy runs.
run_ttemu run --brisc $D/brisc.elf --ncrisc $D/ncrisc.elf --trisc0 $D/trisc0.elf --trisc1 $D/trisc1.elf \
    --trisc2 $D/trisc2.elf --quiet --report "$TMP/demo.json"
expect_exit "demo: no deadlock (exit 0)" 0
expect_json "demo: no diagnosis" "$TMP/demo.json" '"diagnosis" in r' False
run_ttemu run --brisc $P/spin_brisc.elf --max-cycles 500000 --quiet --deadlock-window 10000
expect_exit "a long progressing run is not cut short (exit 2)" 2
if [ -d "$SHARED/firmware/blackhole-p100a" ]; then
    run_ttemu run --config firmware-samples/configs/tt-metal-boot.json --quiet --deadlock-window 5000
    expect_exit "tt-metal boot: stops at its stop condition, idle firmware is not a deadlock" 0
else
    skip "tt-metal boot: no deadlock" "no $SHARED/firmware"
fi

# A computation in registers only, far longer than the deadlock window, is progress.
run_ttemu run --brisc $FW/progs/longcompute_brisc.elf --peek 0x9200 --report "$TMP/long.json" --quiet
expect_exit "a long store-free computation is not cut short as a deadlock" 0
expect_json "the long computation finishes with its result" "$TMP/long.json" \
    'r["cycles"] > 300000 and r["peek"]["0x00009200"][0] == 7974459' True
# Stopped by --max-cycles, it is described as computing (its registers change), not spinning.
run_ttemu run --brisc $FW/progs/longcompute_brisc.elf --max-cycles 100000 --report "$TMP/longmax.json" --quiet
expect_exit "a computation stopped by --max-cycles (exit 2)" 2
expect_out "--max-cycles: the computing core computes" \
    "BRISC computes (at|in) 0x[0-9a-f]+.* \(main\+0x[0-9a-f]+.*\): its registers change$"
if grep -q "spins" <<<"$OUT"; then nok "--max-cycles: the computing core is not said to spin" "$OUT"; else
    ok "--max-cycles: the computing core is not said to spin"; fi
expect_json "--max-cycles: JSON says it computes" "$TMP/longmax.json" \
    '[(c["name"], c["state"], c.get("computes")) for c in r["diagnosis"]["cores"]]' '[["BRISC", "spinning", true]]'
# A spin stopped by --max-cycles is said to be running there (no claim about its stores: memory
# is compared only on the way to a deadlock); unsampled, nothing is claimed.
run_ttemu run --brisc $B/soft_sem_spin_brisc.elf --max-cycles 50000 --report "$TMP/spinmax.json" --quiet
expect_out "--max-cycles: a spinning core was running" "BRISC was running in 0x[0-9a-f]+\.\.0x[0-9a-f]+ .* when the run stopped"
expect_json "--max-cycles: a spinning core does not compute" "$TMP/spinmax.json" 'r["diagnosis"]["cores"][0].get("computes")' None
run_ttemu run --brisc $FW/progs/longcompute_brisc.elf --max-cycles 500 --quiet
expect_out "a run shorter than a progress check claims neither" "BRISC runs at 0x[0-9a-f]+ \(main\+0x[0-9a-f]+\); progress was not sampled"

# Issue 20, item 1: no work dropped at the end of a run. A TRISC that pushes and halts on the very
# next instruction must not end the run while its thread still holds work.
run_ttemu run --trisc0 $P/drop_sempost_trisc0.elf --quiet --report "$TMP/dsp.json"
expect_exit "SEMPOST pushed just before ebreak: halted (exit 0)" 0
expect_json "SEMPOST pushed just before ebreak reaches the semaphore" "$TMP/dsp.json" \
    '[r["semaphores"][1], [(t["pushed"], t["issued"], t["idle"], t["frontend"]) for t in r["threads"]][0]]' \
    '[{"value": 1, "max": 2}, [2, 2, true, {"fifo1": 0, "fifo2": 0, "fifo3": 0, "mop_busy": false, "replay_busy": false}]]'
run_ttemu run --trisc0 $P/drop_undef_trisc0.elf --quiet --report "$TMP/dun.json" --deadlock-window 20000
expect_exit "undefined word pushed just before ebreak: deadlock (exit 1), not halted" 1
expect_out "undefined word pushed just before ebreak: diagnosed" "T0 \(TRISC0's Tensix thread\) holds \.word 0x06000000"
expect_json "undefined word pushed just before ebreak: JSON" "$TMP/dun.json" \
    '[r["diagnosis"]["threads"][0]["cause"], r["threads"][0]["pushed"], r["threads"][0]["issued"]]' '["undefined_opcode", 1, 0]'
# Every exit-0 report of the samples shows its threads drained.
for f in firmware-samples/regress/*.json; do
    n=$(basename "$f" .json)
    "$TTEMU" run --config "$f" --quiet --report "$TMP/s_$n.json" >/dev/null 2>&1
    [ "$(json_get "$TMP/s_$n.json" 'r["exit"]["code"]')" = 0 ] || continue
    expect_json "$n: exit 0 leaves no thread work pending" "$TMP/s_$n.json" \
        'all(t["idle"] and not any(t["frontend"][k] for k in ("fifo1", "fifo2", "fifo3")) for t in r["threads"])' True
done
