# Gate policies (docs/gate-policies.md): `ttemu run --gate-policy exact|whole-thread` (and the run
# config's "gate_policy"), and `ttemu compare-policies`. On every firmware sample and the tt-metal
# boot and add1 runs, whole-thread never finishes sooner than exact; on the overlap sample the
# block mask saves exactly the cycles docs/gate-policies.md derives from the latency model; the
# request sample deadlocks under whole-thread only, and the diagnosis says the policy holds it.
. test/sh/lib.sh
R=firmware-samples/regress

# --- `ttemu run --gate-policy` ------------------------------------------------------------------
run_ttemu run --config $R/policy_overlap.json --quiet --report "$TMP/ov-ex.json"
expect_exit "overlap, default policy: halts" 0
expect_json "the report records the default policy" "$TMP/ov-ex.json" "r['gate_policy']" exact
run_ttemu run --config $R/policy_overlap.json --gate-policy whole-thread --report "$TMP/ov-wt.json"
expect_exit "overlap, whole-thread: halts" 0
expect_json "the report records whole-thread" "$TMP/ov-wt.json" "r['gate_policy']" whole-thread
expect_out "the summary names a policy other than the default" "^  gate policy: whole-thread"
# The same results either way (values do not depend on the policy): the peeked GPRs.
# (GPR 40..43 = the SETDMAREG halves of overlap_trisc0.c, high << 16 | low)
GPRS="[0x22221111, 0x44443333, 0x66665555, 0x88887777, 1]"
expect_json "overlap: the SETDMAREGs' values, exact" "$TMP/ov-ex.json" "r['peek']['0x00009000'] == $GPRS" True
expect_json "overlap: the same values under whole-thread" "$TMP/ov-wt.json" "r['peek']['0x00009000'] == $GPRS" True
# The figures docs/gate-policies.md derives: exact holds the second XMOV from its arrival (X+10)
# through X+16: 6 cycles on C9 and the lag; whole-thread holds the first SETDMAREG from X+2: 14
# on C9 and the lag; everything after issues 8 cycles later.
expect_json "overlap, exact: 7 stall cycles" "$TMP/ov-ex.json" "r['threads'][0]['stalls']['total']" 7
expect_json "overlap, exact: 6 of them on C9, 1 the release lag" "$TMP/ov-ex.json" \
    "(r['threads'][0]['stalls']['cond']['C9'], r['threads'][0]['stalls']['by_cause']['stallwait'], r['threads'][0]['stalls']['by_cause']['wait_release_lag'])" \
    "(6, 6, 1)"
expect_json "overlap, whole-thread: 15 stall cycles" "$TMP/ov-wt.json" "r['threads'][0]['stalls']['total']" 15
expect_json "overlap, whole-thread: 14 on C9, 1 lag" "$TMP/ov-wt.json" \
    "(r['threads'][0]['stalls']['cond']['C9'], r['threads'][0]['stalls']['by_cause']['wait_release_lag'])" "(14, 1)"
check "overlap: whole-thread takes exactly 8 cycles more, its last issue 8 later" python3 -c '
import json, sys
e, w = (json.load(open(f)) for f in sys.argv[1:3])
assert w["cycles"] - e["cycles"] == 8, (e["cycles"], w["cycles"])
assert w["threads"][0]["last_issue_cycle"] - e["threads"][0]["last_issue_cycle"] == 8
' "$TMP/ov-ex.json" "$TMP/ov-wt.json"
expect_json "overlap: the STALLWAIT's site held T0 7 cycles under exact" "$TMP/ov-ex.json" \
    "[(x['disasm'], x['latched'], x['held_cycles'], x['pushed_by']) for x in r['threads'][0]['waits']]" \
    '[["STALLWAIT wait_res=0x200 stall_res=0x10", 1, 7, "TRISC0"]]'
expect_json "overlap: ... and 15 under whole-thread" "$TMP/ov-wt.json" \
    "[(x['latched'], x['held_cycles']) for x in r['threads'][0]['waits']]" '[[1, 15]]'
expect_json "overlap: the latched wait's masks at the end (none latched)" "$TMP/ov-wt.json" "r['threads'][0]['latched_wait']" None

# The config's key, the flag over it, bad values.
run_ttemu run --config $R/policy_request_whole_thread.json --quiet --report "$TMP/rq-wt.json"
expect_exit "request, the config's whole-thread: deadlock (exit 1)" 1
expect_out "request, whole-thread: the diagnosis says only the policy holds the SEMPOST" \
    "the gate policy is whole-thread: the wait holds every instruction of T1; under exact its block mask would let this one pass"
expect_json "request, whole-thread: held_by_policy in the diagnosis" "$TMP/rq-wt.json" \
    "[(t['thread'], t['held']['mnemonic'], t['wait']['block_mask'], t['wait']['gate_mask'], t['wait']['held_by_policy']) for t in r['diagnosis']['threads']]" \
    '[[1, "SEMPOST", 64, 511, true], [2, "SEMGET", 2, 511, false]]'
expect_json "request, whole-thread: a wait-for cycle T1 -> T2" "$TMP/rq-wt.json" "r['diagnosis']['cycle_nodes']" '["T1", "T2"]'
expect_json "request, whole-thread: the latched wait reports both masks" "$TMP/rq-wt.json" \
    "(r['threads'][1]['latched_wait']['block_mask'], r['threads'][1]['latched_wait']['gate_mask'])" "(64, 511)"
run_ttemu run --config $R/policy_request_whole_thread.json --gate-policy exact --quiet --report "$TMP/rq-ex.json"
expect_exit "request: --gate-policy exact overrides the config: halts" 0
expect_json "request, exact: both sides handled 8 tiles" "$TMP/rq-ex.json" "r['peek']['0x00009000']" "[8, 8]"
expect_json "request, exact: no policy-only hold to report" "$TMP/rq-ex.json" "r['gate_policy']" exact
for bad in "" whole_thread WHOLE-THREAD all; do
    run_ttemu run --config $R/policy_overlap.json --gate-policy "$bad"
    expect_exit "--gate-policy '$bad': exit 4" 4
done
expect_out "--gate-policy: the message names the choices" "--gate-policy needs exact or whole-thread"
run_ttemu run --config $R/policy_overlap.json --gate-policy
expect_exit "--gate-policy without a value: exit 4" 4
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); c["cores"]["trisc0"]=sys.argv[3]; c["gate_policy"]="coarse"; json.dump(c, open(sys.argv[2],"w"))' \
    $R/policy_overlap.json "$TMP/badpol.json" "$PWD/$FW/policy/overlap_trisc0.elf"
run_ttemu run --config "$TMP/badpol.json"
expect_exit "config gate_policy \"coarse\": exit 4" 4
expect_out "config gate_policy: the error names the file and key" "badpol.json: key 'gate_policy': expected \"exact\" or \"whole-thread\""

# --- `ttemu compare-policies` --------------------------------------------------------------------
run_ttemu compare-policies $R/policy_overlap.json --json "$TMP/cmp-ov.json" --reports "$TMP/cmp-ov"
expect_exit "compare overlap: both halt (exit 0)" 0
expect_out "compare overlap: the cycles row" "^  cycles +[0-9]+ +[0-9]+ +\+8$"
expect_out "compare overlap: the stall row" "^  stall cycles, all threads +7 +15 +\+8$"
expect_out "compare overlap: the wait row" "^  T0 +STALLWAIT wait_res=0x200 stall_res=0x10 +TRISC0 main\+0x4 +7 +15 +\+8$"
expect_out "compare overlap: the verdict" "^verdict: whole-thread takes 8 more cycles"
expect_json "compare overlap JSON: verdict" "$TMP/cmp-ov.json" \
    "(r['version'], r['verdict']['same_exit'], r['verdict']['deadlock_only_under'], r['verdict']['cycles_delta'], r['verdict']['stall_delta'], r['verdict']['whole_thread_sooner'])" \
    "(1, True, None, 8, 8, False)"
expect_json "compare overlap JSON: T0 by cause" "$TMP/cmp-ov.json" \
    "[(r['threads'][0][p]['stall_cycles'], r['threads'][0][p]['by_cause']['stallwait'], r['threads'][0][p]['by_cause']['wait_release_lag']) for p in r['policies']]" \
    "[[7, 6, 1], [15, 14, 1]]"
expect_json "compare overlap JSON: which wait stalled more" "$TMP/cmp-ov.json" \
    "[(w['thread'], w['exact']['held_cycles'], w['whole-thread']['held_cycles'], w['held_delta'], w['held_longer_under']) for w in r['waits']]" \
    '[[0, 7, 15, 8, "whole-thread"]]'
for p in exact whole-thread; do
    "$TTEMU" run --config $R/policy_overlap.json --gate-policy $p --quiet --report "$TMP/run-$p.json"
    check "compare --reports: the $p report is ttemu run's" cmp "$TMP/cmp-ov/$p.json" "$TMP/run-$p.json"
done

run_ttemu compare-policies $R/policy_request.json --json "$TMP/cmp-rq.json"
expect_exit "compare request: the runs end differently (exit 1)" 1
expect_out "compare request: a deadlock only whole-thread produces, with its cycle" \
    "^verdict: deadlock under whole-thread only: T1 waits on sem 7 == 0, .*T2 waits on sem 6 == 0"
expect_json "compare request JSON" "$TMP/cmp-rq.json" \
    "(r['verdict']['deadlock_only_under'], r['runs']['exact']['exit']['code'], r['runs']['whole-thread']['exit']['reason'], r['runs']['whole-thread']['diagnosis']['cycle_nodes'], 'diagnosis' in r['runs']['exact'])" \
    "('whole-thread', 0, 'deadlock', ['T1', 'T2'], False)"
# The config's own gate_policy does not matter: both are run.
run_ttemu compare-policies $R/policy_request_whole_thread.json --json "$TMP/cmp-rq2.json" --quiet
expect_exit "compare: the config's gate_policy is overridden (same verdict)" 1
if [ -z "$OUT" ]; then ok "compare --quiet prints nothing"; else nok "compare --quiet prints nothing" "$OUT"; fi
check "compare: the same comparison whatever the config's policy" python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
a.pop("config"); b.pop("config")
assert a == b' "$TMP/cmp-rq.json" "$TMP/cmp-rq2.json"

# Whole-thread never finishes sooner: every sample, and the tt-metal boot and add1 runs.
sooner() { # CONFIG: compare, and check the verdict
    local c=$1 n; n=$(basename "$c" .json)
    "$TTEMU" compare-policies "$c" --quiet --json "$TMP/c-$n.json" >/dev/null 2>"$TMP/c-$n.err"
    local rc=$?
    if [ $rc -gt 1 ]; then nok "$n: compare-policies ran (exit $rc)" "$(cat "$TMP/c-$n.err")"; return; fi
    local allow=0; case $n in policy_request*) allow=1 ;; esac
    check "$n: whole-thread never finishes sooner than exact" python3 -c '
import json, sys
r = json.load(open(sys.argv[1])); v = r["verdict"]; e, w = r["runs"]["exact"], r["runs"]["whole-thread"]
if v["same_exit"]:
    assert v["cycles_delta"] >= 0 and not v["whole_thread_sooner"], v
    for a, b in zip(e.get("launch_cycles", []), w.get("launch_cycles", [])):
        assert a is None or (b is not None and b >= a), (a, b)
else:  # only the request sample may end differently: whole-thread deadlocks there
    assert sys.argv[2] == "1" and v["deadlock_only_under"] == "whole-thread", v' "$TMP/c-$n.json" $allow
}
for c in $R/*.json; do
    case $c in *.golden.json) continue ;; esac
    sooner "$c"
done
if [ -d ../shared/firmware/blackhole-p100a ] && [ -f build/data/add1_input.npy ]; then
    for c in firmware-samples/configs/*.json; do
        case $c in *.golden.json) continue ;; esac
        sooner "$c"
    done
    # The figures docs/gate-policies.md quotes for add1 (8 tiles): whole-thread is slower.
    check "add1: whole-thread takes longer per launch" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["runs"]["whole-thread"]["launch_cycles"][0] > r["runs"]["exact"]["launch_cycles"][0], r["runs"]' "$TMP/c-add1-compute.json"
else
    skip "tt-metal boot and add1 under both policies" "../shared/firmware (or build/data) is absent"
fi

# The comparison is the same on every interpreter path (docs/cli.md "Environment").
for c in policy_overlap policy_request; do
    TTEMU_REFERENCE=1 "$TTEMU" compare-policies $R/$c.json --quiet --json "$TMP/ref-$c.json" 2>/dev/null
    TTEMU_SPIN=0 "$TTEMU" compare-policies $R/$c.json --quiet --json "$TMP/nospin-$c.json"
    "$TTEMU" compare-policies $R/$c.json --quiet --json "$TMP/fast-$c.json"
    if cmp -s "$TMP/ref-$c.json" "$TMP/fast-$c.json" && cmp -s "$TMP/nospin-$c.json" "$TMP/fast-$c.json"; then
        ok "$c: compare-policies JSON byte-identical on the reference, no-spin and fast paths"
    else
        nok "$c: compare-policies JSON byte-identical on every path" "$(diff "$TMP/ref-$c.json" "$TMP/fast-$c.json" | head)"
    fi
done

# Bad input: exit 4.
run_ttemu compare-policies
expect_exit "compare-policies without a config: exit 4" 4
run_ttemu compare-policies $R/boot.json $R/demo.json
expect_exit "compare-policies with two configs: exit 4" 4
run_ttemu compare-policies $R/boot.json --frobnicate
expect_exit "compare-policies with an unknown option: exit 4" 4
run_ttemu compare-policies "$TMP/nonexistent.json"
expect_exit "compare-policies of a missing file: exit 4" 4
expect_out "compare-policies of a missing file: names it" "nonexistent.json"
run_ttemu compare-policies $R/boot.json --json "$TMP/no/such/dir.json"
expect_exit "compare-policies --json to an unwritable path: exit 4" 4
run_ttemu compare-policies $R/boot.json --max-cycles 0
expect_exit "compare-policies --max-cycles 0: exit 4" 4
run_ttemu compare-policies --help
expect_exit "compare-policies --help: exit 0" 0
expect_out "compare-policies --help: usage" "^usage: ttemu compare-policies RUN.json"
