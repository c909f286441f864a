# The NoC and DRAM (docs/noc.md): NIUs driven by a core's program, a request to another tile
# (exit 3), a read never issued (deadlock, diagnosed), DRAM host operations and their config
# errors, and the whole add1 program (reader, three compute kernels, writer) on the real firmware:
# data moved DRAM -> CB0 and CB16 -> DRAM for N = 1, 8, 64 and 1000 tiles.
. test/sh/lib.sh
P=$FW/progs B=$FW/broken
FWD=$SHARED/firmware/blackhole-p100a K=$SHARED/firmware/kernels-add1

# ---- a core drives the NIUs ---------------------------------------------------------------------
run_ttemu run --brisc $P/noc_roundtrip_brisc.elf --quiet --report "$TMP/rt.json" --peek 0x9000:5 --peek 0x9100:2
R=$TMP/rt.json
expect_exit "roundtrip: halts (exit 0)" 0
expect_json "roundtrip: DRAM written over NOC1 and read back over NOC0 through another port; loopback read; atomics" $R \
    'r["peek"]["0x00009000"]' '[0, 0, 25, 20, 0]'
expect_json "roundtrip: NIU counters in the report" $R \
    '[r["noc"]["niu"][0]["counters"][k] for k in ("NIU_MST_RD_RESP_RECEIVED", "NIU_MST_ATOMIC_RESP_RECEIVED", "NIU_MST_CMD_ACCEPTED")] + [r["noc"]["niu"][1]["counters"]["NIU_MST_WR_ACK_RECEIVED"]]' \
    '[3, 3, 6, 1]'
expect_json "roundtrip: requests and bytes by kind" $R \
    '[r["noc"]["niu"][0]["requests"], r["noc"]["niu"][1]["bytes"]["write"], r["noc"]["niu"][0]["in_flight"]]' \
    '[{"read": 3, "write": 0, "inline_write": 0, "atomic": 3}, 1000, 0]'
expect_json "roundtrip: the read of never-written DRAM is counted" $R \
    '[r["noc"]["dram"][k] for k in ("unwritten_reads", "unwritten_bytes", "bytes_written", "bytes_read")]' \
    '[1, 64, 1000, 1064]'
run_ttemu run --brisc $P/noc_roundtrip_brisc.elf
expect_out "roundtrip: the summary has a NoC line" "^noc: NOC0 3 reads, 0 writes, 0 inline writes, 3 atomics; NOC1 0 reads, 1 writes.*; DRAM 1 pages, 1 reads of unwritten DRAM"
run_ttemu run --brisc $FW/demo/brisc.elf --quiet --report "$TMP/demo.json"
expect_json "a run that never used the NoC has no noc section" "$TMP/demo.json" '"noc" in r' False

# ---- another tile: a guest fault naming core, pc, NOC, coordinates, address -----------------------
run_ttemu run --ncrisc $P/noc_other_tile_ncrisc.elf --report "$TMP/ot.json"
expect_exit "read from another tile: guest fault (exit 3)" 3
expect_out "read from another tile: core, pc, NOC, coordinates and address named" \
    "guest fault on NCRISC at pc 0x[0-9a-f]{8} \(insn 0x[0-9a-f]{8}\): NOC0 read from x=5 y=7 addr 0x1000: another tile"
expect_json "read from another tile: the fault in the report, at the store to initiator 1's NOC_CMD_CTRL" "$TMP/ot.json" \
    '[r["cores"][1]["state"], hex(r["cores"][1]["fault"]["addr"]), "x=5 y=7" in r["cores"][1]["fault"]["message"]]' \
    '["faulted", "0xffb20840", true]'
# The host writes a request the model cannot do: refused, the run ends as a guest fault.
cat > "$TMP/hostreq.json" <<EOF
{"version": 1, "cores": {"brisc": "$(pwd)/$FW/demo/brisc.elf"},
 "host": [{"at": "before_boot", "write": {"addr": "0xFFB20008", "value": 453}},
          {"at": "before_boot", "write": {"addr": "0xFFB20020", "value": 64}},
          {"at": "before_boot", "write": {"addr": "0xFFB20040", "value": 1}}]}
EOF
run_ttemu run --config "$TMP/hostreq.json"
expect_exit "a request the host writes for another tile: guest fault (exit 3)" 3
expect_out "... named, not dropped" "host write of 0x00000001 to 0xffb20040 \(NoC 0 registers\) refused: NOC0 read from x=5 y=7"

# ---- a read never issued: deadlock, diagnosed ------------------------------------------------------
run_ttemu run --ncrisc $B/noc_read_never_issued_ncrisc.elf --report "$TMP/dl.json"
expect_exit "read never issued: deadlock (exit 1)" 1
expect_out "read never issued: the diagnosis names the counter and the value awaited" \
    "NCRISC waits for NIU_MST_RD_RESP_RECEIVED of NOC0 to reach 1 \(now 0\) at pc 0x[0-9a-f]{8} \(main\+0x[0-9a-f]+\), but no read is in flight on NOC0"
expect_out "read never issued: ... and the missing request" \
    "the read it waits for was never issued \(NOC_CMD_CTRL not written\): NOC0 has issued 0 reads"
expect_out "read never issued: the wait-for chain" "wait-for: NCRISC waits on NIU_MST_RD_RESP_RECEIVED of NOC0 for a read never issued"
expect_json "read never issued: the diagnosis in the report" "$TMP/dl.json" \
    '[(c["state"], c["noc"]["counter"], c["noc"]["value"], c["noc"]["awaits"], c["noc"]["in_flight"], c["noc"]["request"]) for c in r["diagnosis"]["cores"]]' \
    '[["noc_never_issued", "NIU_MST_RD_RESP_RECEIVED", 0, 1, 0, "read"]]'
# The same loop with the request issued: no deadlock (the diagnosis' words are about the missing store).
sed 's|    /\* missing: NIU_REG(0, 1, NOC_CMD_CTRL) = 1; \*/|    NIU_REG(0, 1, NOC_CMD_CTRL) = 1;|' \
    firmware-samples/broken/noc_read_never_issued_ncrisc.c > "$TMP/noc_read_issued_ncrisc.c"
if grep -q 'NIU_REG(0, 1, NOC_CMD_CTRL) = 1;$' "$TMP/noc_read_issued_ncrisc.c" &&
    make --no-print-directory -s fw-one SRC="$TMP/noc_read_issued_ncrisc.c" OUT="$TMP/issued.elf" >/dev/null 2>&1; then
    run_ttemu run --ncrisc "$TMP/issued.elf" --quiet --peek 0x9004
    expect_exit "the same reader with NOC_CMD_CTRL written: halts (exit 0)" 0
else
    nok "the same reader with NOC_CMD_CTRL written" "could not make the fixed copy"
fi
# A timeout while a read is in flight: the core waits on the NoC, it does not spin.
run_ttemu run --ncrisc "$TMP/issued.elf" --max-cycles 300 --report "$TMP/to.json"
expect_exit "timeout with a read in flight (exit 2)" 2
expect_out "timeout with a read in flight: waiting on the NoC" "NCRISC waiting on NOC0 read \(1 outstanding\): polls NIU_MST_RD_RESP_RECEIVED"

# ---- DRAM host operations: config errors (exit 4, file and key named) ------------------------------
bad() { # NAME REGEX HOSTOP
    printf '{"version": 1, "cores": {"brisc": "x.elf"}, "host": [{"at": "before_boot", %s}]}\n' "$3" > "$TMP/bad.json"
    run_ttemu run --config "$TMP/bad.json"
    if [ "$RC" -eq 4 ] && grep -qE -- "$2" <<<"$OUT"; then ok "DRAM config error: $1"; else nok "DRAM config error: $1" "exit $RC" "$OUT"; fi
}
bad "bank out of range" "host\[0\].dram_write.bank': expected an integer from 0 to 6" \
    '"dram_write": {"bank": 7, "addr": 0, "words": [1]}'
bad "coordinates of no DRAM port" "host\[0\].dram_read.noc_xy': \(1, 2\) is no DRAM port" \
    '"dram_read": {"noc_xy": [1, 2], "addr": 0}'
bad "two places" "host\[0\].dram_write': expected exactly one of \"bank\", \"noc_xy\" or \"interleaved\"" \
    '"dram_write": {"bank": 0, "interleaved": 2048, "addr": 0, "words": [1]}'
bad "no data" "host\[0\].dram_write': expected exactly one of \"words\", \"ramp\" or \"file\"" \
    '"dram_write": {"bank": 0, "addr": 0}'
bad "unknown key" "host\[0\].dram_write.size': unknown key" '"dram_write": {"bank": 0, "addr": 0, "words": [1], "size": 4}'
bad "past 4 GiB" "host\[0\].dram_write': 8 bytes at 0xfffffffc run past a channel's 4 GiB" \
    '"dram_write": {"bank": 0, "addr": "0xfffffffc", "words": [1, 2]}'
bad "too many words to read" "host\[0\].dram_read.words': expected an integer from 0 to 4096" \
    '"dram_read": {"bank": 0, "addr": 0, "words": 5000}'
bad "a write and a DRAM write in one op" "host\[0\]': expected exactly one of \"write\", \"read\", \"dram_write\" or \"dram_read\"" \
    '"write": {"addr": 0, "value": 1}, "dram_write": {"bank": 0, "addr": 0, "words": [1]}'
printf '{"version": 1, "cores": {"brisc": "%s"}, "host": [{"at": "before_boot", "dram_write": {"bank": 0, "addr": 0, "file": "nope.bin"}}]}\n' \
    "$(pwd)/$FW/demo/brisc.elf" > "$TMP/bad.json"
run_ttemu run --config "$TMP/bad.json"
expect_exit "DRAM config error: a missing file (exit 4)" 4
expect_out "DRAM config error: the missing file named" "nope.bin: cannot open"

# A long "words" array lands word for word (read back at its first, middle and last words; the
# array is walked once, not item by item from its head: 100,000 words took 17 s that way).
python3 - "$(pwd)/$FW/demo/brisc.elf" > "$TMP/words.json" <<'PY'
import json, sys
n = 60000
words = [(i * 2654435761) % 2**32 for i in range(n)]
reads = [{"at": "before_boot", "dram_read": {"bank": 2, "addr": 0x1000 + 4 * i, "words": 2, "name": "at%d" % i}}
         for i in (0, n // 2, n - 2)]
print(json.dumps({"version": 1, "cores": {"brisc": sys.argv[1]}, "max_cycles": 10,
                  "host": [{"at": "before_boot", "dram_write": {"bank": 2, "addr": 0x1000, "words": words}}] + reads}))
PY
run_ttemu run --config "$TMP/words.json" --report "$TMP/words_r.json" --quiet
expect_json "dram_write of 60,000 words: each word where it belongs" "$TMP/words_r.json" \
    '[r["host_reads"]["at%d" % i] == [(j * 2654435761) % 2**32 for j in (i, i + 1)] for i in (0, 30000, 59998)]' \
    '[true, true, true]'

# An interleaved ramp across page boundaries in the middle of its pages (docs/run-config.md "DRAM":
# page i in bank i mod 7 at addr + (i div 7) * page_size, word i = start + i * step): 2048-byte
# pages from 1 KiB into a 2 KiB slot of each bank, 4396 words (the last 300 in page 8, bank 1, so
# the ramp ends part-way into a page; DRAM's 4 KiB pages cut every second row in two); and
# 1536-byte pages, where the ramp's 16 KiB pieces begin and end part-way into a page. Read back
# bank by bank, 4 words more either side, against words worked out here from the definition.
RAMPS="2048:0x100400:4396:0xfffff000:0x10001 1536:0x300000:5000:7:0x9e3779b9"
python3 - "$(pwd)/$FW/demo/brisc.elf" $RAMPS > "$TMP/straddle.json" <<'PY'
import json, sys
host, reads = [], []
for r in sys.argv[2:]:
    ps, base, words, start, step = (int(x, 0) for x in r.split(":"))
    host.append({"at": "before_boot", "dram_write": {"interleaved": ps, "addr": base,
                                                     "ramp": {"words": words, "start": start, "step": step}}})
    rows = -(-words // (ps // 4)) // 7 + 1  # enough rows of every bank
    for b in range(7):
        reads.append({"at": "before_boot", "dram_read": {"bank": b, "addr": base - 16, "words": rows * ps // 4 + 8,
                                                         "name": "%d_%d" % (ps, b)}})
print(json.dumps({"version": 1, "cores": {"brisc": sys.argv[1]}, "max_cycles": 10, "host": host + reads}))
PY
run_ttemu run --config "$TMP/straddle.json" --report "$TMP/straddle_r.json" --quiet
check "dram_write of interleaved ramps across pages: every word in its bank and place, nothing around them" \
    python3 - "$TMP/straddle_r.json" $RAMPS <<'PY'
import json, sys
got = json.load(open(sys.argv[1]))["host_reads"]
for r in sys.argv[2:]:
    ps, base, words, start, step = (int(x, 0) for x in r.split(":"))
    for b in range(7):
        for j, v in enumerate(got["%d_%d" % (ps, b)]):
            off = base - 16 + 4 * j - base
            row, at = divmod(off, ps)
            i = (7 * row + b) * (ps // 4) + at // 4  # the ramp's word at this place, if any
            want = (start + i * step) % 2**32 if 0 <= off and i < words else 0
            assert v == want, "page size %d, bank %d, addr %#x: %#x, expected %#x" % (ps, b, base + off, v, want)
PY

# ---- the whole add1 program ------------------------------------------------------------------------
if [ ! -d "$FWD" ] || [ ! -d "$K" ]; then
    skip "the whole add1 program" "../shared/firmware is absent (the real firmware corpus)"
    exit 0
fi
run_ttemu run --config firmware-samples/configs/add1-full.json --report "$TMP/sample.json" --peek 0x30000:4096 --quiet
expect_exit "add1-full.json: the sample runs to completion (exit 0)" 0
expect_json "add1-full.json: the writer's 8 pages in DRAM are CB16's pages" "$TMP/sample.json" \
    'r["host_reads"]["out"] == r["peek"]["0x00030000"]' True

# full N MODE OUT: writes OUT, the program on N tiles (scripts/add1_config.py --whole: CB0 and CB16
# of 8 pages). MODE ramp: input page i = a ramp of words from 0x3f803f80 + 512 * i * 0x10001, the
# output preset to 0xdeadbeef, dram_reads of sampled output pages, CB0 and CB16 peeked. MODE
# tensors: "in" and "out" as DRAM tensors (the data comes with --input / --expect).
full() {
    local a=(--shared "$SHARED" --whole -n "$1")
    if [ "$2" = ramp ]; then # pages 0..N-1, or 0, 1, N/2, N-9 and the last 8
        a+=(--ramp --preset-out 0xdeadbeef --peek 0x20000:4096 --peek 0x30000:4096 --out-pages "$(python3 -c "n = $1
print(','.join(map(str, sorted(set(range(n)) if n <= 8 else {0, 1, n // 2, n - 9, n - 2, n - 1} | set(range(n - 8, n))))))")")
    else
        a+=(--dram-tensors)
    fi
    python3 scripts/add1_config.py "${a[@]}" > "$3"
}
# check_full N REPORT: CB0's slots hold the last input pages read; every sampled output page was
# written (no 0xdeadbeef left), and the last 8 equal CB16's slots they were sent from.
check_full() {
    python3 - "$1" "$2" <<'PY'
import json, sys
n, r = int(sys.argv[1]), json.load(open(sys.argv[2]))
cb0, cb16 = r["peek"]["0x00020000"], r["peek"]["0x00030000"]
def page_in(i):
    return [(0x3f803f80 + (512 * i + w) * 0x10001) & 0xFFFFFFFF for w in range(512)]
for s in range(min(n, 8)):
    last = max(i for i in range(n) if i % 8 == s)
    assert cb0[512 * s:512 * (s + 1)] == page_in(last), "CB0 slot %d is not input page %d" % (s, last)
outs = {int(k[3:]): v for k, v in r["host_reads"].items()}
assert outs, "no output pages read"
for p, v in outs.items():
    assert v is not None, "out%d not taken" % p
    assert 0xdeadbeef not in v, "output page %d was never written" % p
    if p >= n - 8:
        assert v == cb16[512 * (p % 8):512 * (p % 8 + 1)], "output page %d is not CB16 slot %d" % (p, p % 8)
PY
}
for n in 1 8 64 1000; do
    full $n ramp "$TMP/full_$n.json"
    run_ttemu run --config "$TMP/full_$n.json" --report "$TMP/f$n.json" --quiet
    R=$TMP/f$n.json
    expect_exit "add1 full N=$n: completes (exit 0)" 0
    expect_json "add1 full N=$n: NOC0 read N pages (all answered), NOC1 wrote N pages (all acknowledged)" $R \
        '[r["noc"]["niu"][0]["requests"]["read"], r["noc"]["niu"][0]["counters"]["NIU_MST_RD_RESP_RECEIVED"], r["noc"]["niu"][1]["requests"]["write"], r["noc"]["niu"][1]["counters"]["NIU_MST_WR_ACK_RECEIVED"], r["noc"]["niu"][0]["bytes"]["read"], r["noc"]["niu"][0]["in_flight"] + r["noc"]["niu"][1]["in_flight"]]' \
        "[$n, $n, $n, $n, $((2048 * n)), 0]"
    expect_json "add1 full N=$n: every DRAM read was of written DRAM" $R 'r["noc"]["dram"]["unwritten_reads"]' 0
    check "add1 full N=$n: CB0 holds the input pages the reader brought; the writer's output pages in DRAM" \
        check_full $n "$R"
done
# The numbers: tensors "in" and "out" in DRAM (tt-metal's interleaved pages), the input from
# scripts/make_sample_data.py (special values included) through --input, CB16's values back through
# the writer and compared with the reference written from the ISA's arithmetic (exit 5 if any differ).
for n in 1 8 64 1000; do
    /usr/bin/python3 scripts/make_sample_data.py "$TMP/x$n" --tiles $n >/dev/null
    full $n tensors "$TMP/x$n.json"
    run_ttemu run --config "$TMP/x$n.json" --quiet --input in="$TMP/x$n/add1_input.npy" \
        --expect out="$TMP/x$n/add1_expected.npy" --report "$TMP/x$n.rep.json"
    expect_exit "add1 full N=$n, tensors in DRAM: out = bf16(in + 1.0) bit for bit (exit 0)" 0
done
expect_json "add1 full N=1000: every element compared, none differs" "$TMP/x1000.rep.json" \
    '[r["tensors"]["out"]["compare"][k] for k in ("elements", "mismatches")] + [r["tensors"]["out"]["dram"]["interleaved"]]' \
    '[1024000, 0, true]'
/usr/bin/python3 -c "
import numpy as np
e = np.load('$TMP/x8/add1_expected.npy'); e[200, 31] ^= 0x40; np.save('$TMP/x8/wrong.npy', e)"
run_ttemu run --config "$TMP/x8.json" --quiet --input in="$TMP/x8/add1_input.npy" --expect out="$TMP/x8/wrong.npy"
expect_exit "add1 full N=8: a wrong expectation fails (exit 5)" 5
expect_out "... naming the tensor and the element" "tensor 'out': 1 of 8192 elements differ .* first at \\[200, 31\\]"
# A DRAM tensor's bytes are its pages: the input, read back at the end (the reader leaves it), is
# the input file's values.
run_ttemu run --config "$TMP/x8.json" --quiet --input in="$TMP/x8/add1_input.npy" --output in="$TMP/x8/in_back.npy"
check "add1 full N=8: the input read back from DRAM is the input" /usr/bin/python3 -c "
import numpy as np
a, b = np.load('$TMP/x8/add1_input.npy'), np.load('$TMP/x8/in_back.npy')
assert (a.view(np.uint16) == b.astype(np.float32).view(np.uint32).__rshift__(16).astype(np.uint16)).all()"

check "add1 full: N=1000 takes more cycles than N=64" python3 -c "
import json; a = json.load(open('$TMP/f64.json')); b = json.load(open('$TMP/f1000.json'))
assert b['launch_cycles'][0] > 10 * a['launch_cycles'][0], (a['launch_cycles'], b['launch_cycles'])"
# A wrong bank table would send the reader elsewhere: with the tables' DRAM coordinates zeroed the
# reader's first read goes to x=0 y=0, another tile (the test of the host's tables can fail).
python3 - "$TMP/full_8.json" "$TMP/badtab.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["host"].append({"at": "before_boot", "write": {"addr": "0x112B0", "value": 0}})
json.dump(c, open(sys.argv[2], "w"))
PY
run_ttemu run --config "$TMP/badtab.json" --quiet
expect_exit "add1 full with bank 0's coordinates zeroed: guest fault (exit 3)" 3
expect_out "... the reader's read of DRAM bank 0 goes to x=0 y=0" "NCRISC at pc .*NOC0 read from x=0 y=0 addr 0x100000: another tile"
