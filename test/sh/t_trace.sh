# Event trace (docs/debugging-stalls.md, "Tracing"): --trace writes Chrome/Perfetto trace-event
# JSON, --trace-vcd a VCD; both bounded by --trace-window or --trace-start/--trace-stop. Stall
# statistics in the report (threads[].stalls.longest). Tracing never changes a run's results.
. test/sh/lib.sh
B=$FW/broken D=$FW/demo
CHECK=test/tools/trace_event_check.py
RING="--trisc1 $B/ring_trisc1.elf --trisc2 $B/ring_trisc2.elf"

# summary NAME EXPR VALUE: EXPR on the trace summary `r` (trace_event_check.py --summary).
summary() { python3 $CHECK "$TMP/$1.trace.json" --summary >"$TMP/$1.sum" 2>&1 && expect_json "$2" "$TMP/$1.sum" "$3" "$4" || nok "$2" "$(cat "$TMP/$1.sum")"; }

run_ttemu run $RING --quiet --report "$TMP/ring.json" --trace "$TMP/ring.trace.json" --trace-vcd "$TMP/ring.vcd"
expect_exit "ring with --trace: still a deadlock (exit 1)" 1
check "trace JSON has the trace-event format's required fields" python3 $CHECK "$TMP/ring.trace.json"
summary ring "trace: the stall slices at the gates, with cause and length" \
    '[(s["track"], s["name"], s["start"], s["end"], s["args"]["cause"]) for s in r["slices"] if s["track"].endswith("gate")]' \
    '[["T1 gate", "held: sem 1", 17, 101909, "semwait"], ["T2 gate", "held: mutex 0", 12, 101909, "mutex"]]'
summary ring "trace: mutex 0 held by T1 from cycle 10 (the diagnosis' held_since)" \
    '[(s["name"], s["start"]) for s in r["slices"] if s["track"] == "mutex 0"]' '[["T1", 10]]'
summary ring "trace: semaphore 1 counter: SEMINIT then SEMPOST" \
    '[[c, a["value"], a["max"]] for c, a in r["counters"]["sem 1 MATH_PACK"]]' '[[0, 0, 0], [10, 0, 1], [11, 1, 1]]'
summary ring "trace: instants for pushes and Sync Unit issues" \
    '[i for i in r["instants"] if i[1] != "push"]' \
    '[["T1 gate", "ATGETM", 10], ["T2 gate", "SEMINIT", 10], ["T2 gate", "SEMPOST", 11], ["T1 gate", "SEMWAIT", 16]]'
summary ring "trace: cores' tracks: functions, then tensix_sync with its pc" \
    '[(s["track"], s["name"], s["args"].get("symbol")) for s in r["slices"] if s["track"] == "TRISC1"]' \
    '[["TRISC1", "_start", null], ["TRISC1", "main", null], ["TRISC1", "tensix_sync", "main+0x20"]]'
summary ring "trace: FIFO fill counters" 'max(a["fifo3"] for c, a in r["counters"]["T1 FIFO"])' 2

run_ttemu run $RING --quiet --report "$TMP/ring-plain.json"
check "tracing does not change the report" cmp "$TMP/ring.json" "$TMP/ring-plain.json"

TTEMU_REFERENCE=1 run_ttemu run $RING --quiet --trace "$TMP/ring-ref.trace.json" --trace-vcd "$TMP/ring-ref.vcd"
check "the reference path records the same trace (JSON)" cmp "$TMP/ring.trace.json" "$TMP/ring-ref.trace.json"
check "the reference path records the same trace (VCD)" cmp "$TMP/ring.vcd" "$TMP/ring-ref.vcd"

# The VCD: every signal declared, the final values right; GTKWave's vcd2fst converts it.
python3 - "$TMP/ring.vcd" >"$TMP/vcd.out" 2>&1 <<'PY'
import re, sys
text = open(sys.argv[1]).read()
head, body = text.split("$enddefinitions $end", 1)
ids = {}
for scope, block in re.findall(r"\$scope module (\w+) \$end\n((?:\$var wire \d+ \S+ \w+ \$end\n)+)", head):
    for line in block.splitlines():
        _, _, width, ident, name, _ = line.split()
        ids[ident] = scope + "." + name
vals, times = {}, []
for line in body.splitlines():
    if line.startswith("#"):
        times.append(int(line[1:]))
    elif line.startswith("b"):
        bits, ident = line[1:].split()
        vals[ids[ident]] = int(bits, 2)
    elif line and line[0] in "01":
        vals[ids[line[1:]]] = int(line[0])
print([len(ids), vals["sync.mutex0_owner"], vals["sync.sem1_value"], vals["sync.sem1_max"], vals["T2.hold"],
       vals["T1.wait_op"], vals["TRISC1.state"], times == sorted(times), times[-1]])
PY
if grep -qx "\[63, 1, 1, 1, 5, 166, 3, True, 101909\]" "$TMP/vcd.out"; then ok "VCD: 63 signals (6 of them the NIUs' packets in flight); final mutex 0 owner T1, sem 1 1/1, T2 held on a mutex, T1 latched SEMWAIT, TRISC1 in tensix_sync"
else nok "VCD: final values" "$(cat "$TMP/vcd.out")"; fi
if command -v vcd2fst >/dev/null; then
    check "VCD: GTKWave's vcd2fst converts it" vcd2fst "$TMP/ring.vcd" "$TMP/ring.fst"
    if fst2vcd "$TMP/ring.fst" 2>/dev/null | grep -q "mutex0_owner"; then ok "VCD: the FST converts back with the signals"; else nok "VCD: fst2vcd round trip"; fi
else
    skip "VCD: GTKWave's vcd2fst converts it" "gtkwave is not installed (scripts/deps.sh installs it)"
    skip "VCD: the FST converts back with the signals" "gtkwave is not installed"
fi

# Windows: the last N cycles; a start/stop range.
run_ttemu run $RING --quiet --trace "$TMP/win.trace.json" --trace-window 1000
expect_exit "--trace-window: the run is unchanged (exit 1)" 1
check "--trace-window: valid trace" python3 $CHECK "$TMP/win.trace.json"
summary win "--trace-window 1000: the last 1000 cycles, slices clipped to the window, initial counters" \
    '[r["first"], r["end"], r["min_ts"], [(s["name"], s["start"]) for s in r["slices"] if s["track"] == "T2 gate"], r["counters"]["sem 1 MATH_PACK"][0]]' \
    '[100909, 101909, 100909, [["held: mutex 0", 100909]], [100909, {"value": 1, "max": 1}]]'
run_ttemu run $RING --quiet --trace "$TMP/ss.trace.json" --trace-vcd "$TMP/ss.vcd" --trace-start 11 --trace-stop 14
summary ss "--trace-start 11 --trace-stop 14: only those cycles" \
    '[r["first"], r["end"], r["min_ts"] >= 11, r["max_ts"] <= 14, [i[1] for i in r["instants"] if i[1] != "push"]]' \
    '[11, 14, true, true, ["SEMPOST"]]'
if head -1 "$TMP/ss.vcd" | grep -q "cycles 11 to 14" && grep -q "^#11$" "$TMP/ss.vcd" && ! grep -qE "^#(1[5-9]|[2-9][0-9]|[0-9]{3,})$" "$TMP/ss.vcd"; then
    ok "--trace-start/--trace-stop bound the VCD too"; else nok "--trace-start/--trace-stop bound the VCD too" "$(grep '^#' "$TMP/ss.vcd" | head)"; fi

# A long run (1.8 M cycles, a pc change every cycle): the window folds old changes as the run
# goes, and gives exactly the recording that starting the trace at the window's first cycle does.
P=$FW/progs
run_ttemu run --brisc $P/longcompute_brisc.elf --quiet --trace "$TMP/lw.trace.json" --trace-vcd "$TMP/lw.vcd" --trace-window 5000
expect_exit "long run with --trace-window: halted (exit 0)" 0
END=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['otherData']['end_cycle'])" "$TMP/lw.trace.json")
run_ttemu run --brisc $P/longcompute_brisc.elf --quiet --trace "$TMP/ls.trace.json" --trace-vcd "$TMP/ls.vcd" --trace-start $((END - 5000))
check "--trace-window N equals --trace-start END-N (JSON)" cmp "$TMP/lw.trace.json" "$TMP/ls.trace.json"
check "--trace-window N equals --trace-start END-N (VCD)" cmp "$TMP/lw.vcd" "$TMP/ls.vcd"
summary lw "--trace-window on a long run: 5000 cycles" '[r["end"] - r["first"], r["end"] > 1000000]' '[5000, true]'

# A healthy run traces too, and ends the same.
run_ttemu run --brisc $D/brisc.elf --ncrisc $D/ncrisc.elf --trisc0 $D/trisc0.elf --trisc1 $D/trisc1.elf \
    --trisc2 $D/trisc2.elf --quiet --report "$TMP/demo-t.json" --trace "$TMP/demo.trace.json"
expect_exit "demo with --trace: halted (exit 0)" 0
check "demo trace: valid" python3 $CHECK "$TMP/demo.trace.json"
run_ttemu run --brisc $D/brisc.elf --ncrisc $D/ncrisc.elf --trisc0 $D/trisc0.elf --trisc1 $D/trisc1.elf \
    --trisc2 $D/trisc2.elf --quiet --report "$TMP/demo.json"
check "demo: tracing does not change the report" cmp "$TMP/demo.json" "$TMP/demo-t.json"

# The validator itself rejects what the format forbids.
echo '{"traceEvents":[{"name":"x","ph":"X","ts":1,"pid":1,"tid":1}]}' >"$TMP/bad1.json"
echo '{"traceEvents":[{"name":"x","ph":"C","ts":1,"pid":1}]}' >"$TMP/bad2.json"
for b in bad1 bad2; do
    if python3 $CHECK "$TMP/$b.json" >/dev/null; then nok "validator rejects $b"; else ok "validator rejects $b"; fi
done

# Bad trace options: exit 4 before running.
run_ttemu run $RING --trace-window 100
expect_exit "--trace-window without --trace (exit 4)" 4
run_ttemu run $RING --trace "$TMP/x.json" --trace-start 50 --trace-stop 50
expect_exit "--trace-stop not after --trace-start (exit 4)" 4
expect_out "--trace-stop: says why" "must be after --trace-start"
run_ttemu run $RING --trace "$TMP/x.json" --trace-window 10 --trace-start 5
expect_exit "--trace-window with --trace-start (exit 4)" 4
run_ttemu run $RING --trace /nonexistent/dir/t.json
expect_exit "unwritable trace file (exit 4)" 4
expect_out "unwritable trace file: named" "cannot open trace file /nonexistent/dir/t.json"
run_ttemu run $RING --trace-window 0 --trace "$TMP/x.json"
expect_exit "--trace-window 0 (exit 4)" 4

# Stall statistics in the report: the top stalls per thread with the pushing core's pc.
expect_json "stall statistics: T2's longest stall is the ATGETM on mutex 0, pushed by TRISC2 from main" "$TMP/ring.json" \
    '[(s["cause"], s["on"], s["disasm"], s["start_cycle"], s["ongoing"], s["pushed_by"], s["push_symbol"].startswith("main+")) for s in r["threads"][2]["stalls"]["longest"][:1]]' \
    '[["mutex", "mutex 0", "ATGETM", 12, true, "TRISC2", true]]'
expect_json "stall statistics: the longest stall's cycles are within the thread's total" "$TMP/ring.json" \
    '[sum(s["cycles"] for s in t["stalls"]["longest"]) <= t["stalls"]["total"] and len(t["stalls"]["longest"]) <= 3 for t in r["threads"]]' \
    '[true, true, true]'
expect_json "the diagnosis' waited_cycles is the current stall's length (stall statistics)" "$TMP/ring.json" \
    '[(t["thread"], t["waited_cycles"] == r["threads"][t["thread"]]["stalls"]["longest"][0]["cycles"]) for t in r["diagnosis"]["threads"] if t["cause"] == "mutex"]' \
    '[[2, true]]'
