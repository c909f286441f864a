# ttemu run: the demo's results, the report, determinism, exit codes, loader errors, soft reset.
. test/sh/lib.sh
D=$FW/demo P=$FW/progs

run_ttemu run --brisc $D/brisc.elf --ncrisc $D/ncrisc.elf --trisc0 $D/trisc0.elf --trisc1 $D/trisc1.elf \
    --trisc2 $D/trisc2.elf --peek 0x8000:6 --report "$TMP/demo.json"
expect_exit "demo: all five cores halt (exit 0)" 0
expect_json "demo: BRISC sum 1..100" "$TMP/demo.json" 'r["peek"]["0x00008000"][0]' 5050
expect_json "demo: NCRISC fib(30)" "$TMP/demo.json" 'r["peek"]["0x00008000"][1]' 832040
expect_json "demo: TRISC0 primes below 1000" "$TMP/demo.json" 'r["peek"]["0x00008000"][2]' 168
expect_json "demo: TRISC1 CRC-32 check value" "$TMP/demo.json" 'hex(r["peek"]["0x00008000"][3])' 0xcbf43926
expect_json "demo: TRISC2 semaphore 3 after SEMINIT + 3 SEMPOST" "$TMP/demo.json" 'r["peek"]["0x00008000"][4]' 3
expect_json "demo: TRISC2 cpop" "$TMP/demo.json" 'r["peek"]["0x00008000"][5]' 16
expect_json "report: version 1" "$TMP/demo.json" 'r["version"]' 1
expect_json "report: exit block" "$TMP/demo.json" '[r["exit"]["code"], r["exit"]["reason"]]' '[0, "halted"]'
expect_json "report: five cores in order" "$TMP/demo.json" '[c["name"] for c in r["cores"]]' \
    '["BRISC", "NCRISC", "TRISC0", "TRISC1", "TRISC2"]'
expect_json "report: every core halted" "$TMP/demo.json" '{c["state"] for c in r["cores"]}' '{'"'"'halted'"'"'}'
expect_json "report: pc symbolized" "$TMP/demo.json" 'r["cores"][0]["symbol"].startswith("_start+")' True
expect_json "report: instret counted" "$TMP/demo.json" 'all(c["instret"] > 10 for c in r["cores"])' True
expect_out "summary lists the cores" "BRISC +halted"

"$TTEMU" run --quiet --brisc $D/brisc.elf --trisc2 $D/trisc2.elf --report "$TMP/a.json" >/dev/null
"$TTEMU" run --quiet --brisc $D/brisc.elf --trisc2 $D/trisc2.elf --report "$TMP/b.json" >/dev/null
check "two runs give byte-identical reports" cmp "$TMP/a.json" "$TMP/b.json"
expect_json "cores not given an image stay in reset" "$TMP/a.json" 'r["cores"][1]["state"]' reset

run_ttemu run --brisc $P/spin_brisc.elf --max-cycles 1000 --report "$TMP/spin.json" --quiet
expect_exit "--max-cycles ends the run with exit 2" 2
expect_json "--max-cycles: reason and cycle count" "$TMP/spin.json" '[r["exit"]["reason"], r["cycles"]]' '["max_cycles", 1000]'

run_ttemu run --trisc0 $P/hang_trisc0.elf --max-cycles 100000 --report "$TMP/hang.json"
expect_exit "TRISC store to INSTRN1_BUF hangs the core; run ends as deadlock" 1
expect_json "hung core state" "$TMP/hang.json" 'r["cores"][2]["state"]' hung
expect_out "hang reason names INSTRN1_BUF" "TRISC0 hung \(TRISC0 stored to INSTRN1_BUF"

run_ttemu run --brisc $P/reset_brisc.elf --peek 0x9100:4 --report "$TMP/reset.json" --max-cycles 100000
expect_exit "BRISC releases TRISC1 via SOFT_RESET_0 and holds it again" 0
expect_json "SOFT_RESET_0 after bare-mode start of BRISC reads 0x47000" "$TMP/reset.json" 'hex(r["peek"]["0x00009100"][1])' 0x47000
expect_json "TRISC1 ran from its reset-PC override" "$TMP/reset.json" 'hex(r["peek"]["0x00009100"][0])' 0x7a11
expect_json "TRISC1 back in reset" "$TMP/reset.json" '[r["cores"][3]["state"], hex(r["peek"]["0x00009100"][2])]' '["reset", "0x47000"]'
expect_json "wall clock advances between two reads" "$TMP/reset.json" '0 < r["peek"]["0x00009100"][3] < 10' True

# Loader and command-line errors: exit 4 with a message naming the file.
run_ttemu run --brisc $P/overlap_ncrisc.elf --ncrisc $D/ncrisc.elf
expect_exit "overlapping images are refused (exit 4)" 4
expect_out "overlap message names both images" "overlaps BRISC's image .*overlap_ncrisc.elf"
python3 - "$D/brisc.elf" "$TMP/far.elf" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
phoff, = struct.unpack_from('<I', b, 28); phentsize, phnum = struct.unpack_from('<HH', b, 42)
for i in range(phnum):
    o = phoff + i * phentsize
    if struct.unpack_from('<I', b, o)[0] == 1:          # PT_LOAD: move it to 0x40000000
        struct.pack_into('<II', b, o + 8, 0x40000000, 0x40000000); break
open(sys.argv[2], 'wb').write(b)
PY
run_ttemu run --brisc "$TMP/far.elf"
expect_exit "a segment outside every memory is refused (exit 4)" 4
expect_out "outside-memory message names file, segment and address" "far.elf: segment [0-9]+ \(0x40000000\.\..*outside every memory"
head -c 100 $D/brisc.elf > "$TMP/short.elf"
run_ttemu run --brisc "$TMP/short.elf"
expect_exit "a truncated ELF is refused (exit 4)" 4
run_ttemu run --brisc $D/brisc.elf --peek 0x40000000
expect_exit "an unreadable peek address is refused (exit 4)" 4
expect_out "peek message names the address" "0x40000000.*unmapped"
run_ttemu run --brisc $D/brisc.elf --peek 0x8002
expect_exit "a misaligned peek is refused (exit 4)" 4
run_ttemu run --brisc $D/brisc.elf --max-cycles -5
expect_exit "a negative --max-cycles is refused (exit 4)" 4
run_ttemu run --brisc $D/brisc.elf --max-cycles " -5"
expect_exit "a blank before a sign is refused too (it used to wrap to 2^64-5)" 4
run_ttemu run --brisc $D/brisc.elf --max-cycles 010 --quiet --report "$TMP/dec.json"
expect_json "numbers are decimal or 0x hex: 010 is ten, not octal eight" "$TMP/dec.json" 'r["cycles"]' 10
run_ttemu run --brisc $D/brisc.elf --peek 0x
expect_exit "0x without digits is refused (exit 4)" 4
run_ttemu run
expect_exit "nothing to run (exit 4)" 4
run_ttemu run --brisc $D/brisc.elf --brisc $D/brisc.elf
expect_exit "a core given twice (exit 4)" 4
run_ttemu frobnicate
expect_exit "unknown command (exit 4)" 4
run_ttemu run --brisc $D/brisc.elf --report /nonexistent/dir/r.json --quiet
expect_exit "an unwritable report (exit 4)" 4
