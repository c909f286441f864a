# What ttemu writes (issue 20): the report, the traces and the JUnit XML are valid UTF-8 whatever
# bytes the file names and ELF symbols hold (U+FFFD stands in: docs/report-format.md, "Text"),
# and no output lands on another output or on an input (exit 4 before anything is written).
. test/sh/lib.sh
D=$FW/demo P=$FW/progs
RV_OBJCOPY=${RV_PREFIX:-riscv64-unknown-elf-}objcopy

# utf8_json NAME FILE EXPR VALUE: FILE decodes as strict UTF-8 JSON and EXPR on it prints VALUE.
utf8_json() {
    local got
    got=$(python3 -c "import json,sys; r=json.loads(open(sys.argv[1],'rb').read().decode('utf-8')); print($3)" "$2" 2>&1)
    if [ "$got" = "$4" ]; then ok "$1"; else nok "$1" "got: $got" "expected: $4"; fi
}

# ---- item 7: a file named with bytes 0xFF 0xFE, symbols with such bytes ------------------------
BADNAME=$TMP/$'\xff\xfe'prog.elf
cp "$P/storeloop_brisc.elf" "$BADNAME"
run_ttemu run --brisc "$BADNAME" --max-cycles 3000 --quiet --report "$TMP/u.json" --trace "$TMP/u.trace.json"
expect_exit "image named with bytes 0xFF 0xFE: runs (exit 2)" 2
utf8_json "report with a non-UTF-8 image path: valid UTF-8, U+FFFD for each bad byte" "$TMP/u.json" \
    'r["cores"][0]["image"].endswith("/\ufffd\ufffdprog.elf")' True
if command -v "$RV_OBJCOPY" >/dev/null; then
    "$RV_OBJCOPY" --redefine-sym main=$'\xff\xfe\xc0\x80main' "$P/storeloop_brisc.elf" "$TMP/sym.elf"
    run_ttemu run --brisc "$TMP/sym.elf" --max-cycles 3000 --quiet --report "$TMP/s.json" --trace "$TMP/s.trace.json"
    utf8_json "report with non-UTF-8 symbol names: valid UTF-8" "$TMP/s.json" \
        'r["diagnosis"]["cores"][0]["symbol"].startswith("\ufffd\ufffd\ufffd\ufffdmain+")' True
    utf8_json "trace with non-UTF-8 symbol names: valid UTF-8" "$TMP/s.trace.json" 'len(r["traceEvents"]) > 0' True
else
    skip "non-UTF-8 symbol names" "no $RV_OBJCOPY"
fi
# JUnit: a case whose file name is not UTF-8, whose run fails and prints that name.
mkdir -p "$TMP/jcases" "$TMP/jgold"
printf '{"version": 1, "cores": {"brisc": "missing\xfe.elf"}}\n' >"$TMP/jcases/"$'bad\xff\x01'".json"
run_ttemu regress "$TMP/jcases" --golden "$TMP/jgold" --junit "$TMP/j.xml"
expect_exit "regress with a non-UTF-8 case name: the case fails (exit 1), the XML is written" 1
check "JUnit with a non-UTF-8 case name and output parses as XML, U+FFFD in the name" python3 -c "
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]).getroot()
c = t.find('testsuite/testcase')
assert c.get('name') == 'bad\ufffd\ufffd', c.get('name')
assert 'missing\ufffd.elf: cannot open' in c.find('system-err').text, c.find('system-err').text
" "$TMP/j.xml"

# ---- item 10: outputs that collide are refused before anything is written (exit 4) ------------
cp "$D/brisc.elf" "$TMP/prog.elf"
sum_before=$(cksum <"$TMP/prog.elf")
collide() { # NAME REGEX ARGS...
    local n=$1 re=$2; shift 2
    run_ttemu run --brisc "$TMP/prog.elf" --quiet "$@"
    if [ "$RC" -eq 4 ] && grep -qE -- "$re" <<<"$OUT"; then ok "outputs: $n"; else nok "outputs: $n" "exit $RC" "$OUT"; fi
}
collide "--report and --trace on one file" "--trace $TMP/x.json is the same file as --report $TMP/x.json" \
    --report "$TMP/x.json" --trace "$TMP/x.json"
[ -e "$TMP/x.json" ] && nok "outputs: nothing written when refused" || ok "outputs: nothing written when refused"
collide "--trace and --trace-vcd on one file (./ spelling)" "--trace-vcd $TMP/./t is the same file as --trace $TMP/t" \
    --trace "$TMP/t" --trace-vcd "$TMP/./t"
collide "--report onto the input ELF" "--report $TMP/prog.elf would overwrite the input --brisc $TMP/prog.elf" \
    --report "$TMP/prog.elf"
ln -s prog.elf "$TMP/link.elf"
collide "--trace onto the input through a symlink" "--trace $TMP/link.elf would overwrite the input --brisc" \
    --trace "$TMP/link.elf"
ln "$TMP/prog.elf" "$TMP/hard.elf"
collide "--report onto the input through a hard link (same inode)" "would overwrite the input --brisc" \
    --report "$TMP/hard.elf"
[ "$(cksum <"$TMP/prog.elf")" = "$sum_before" ] && ok "outputs: the input ELF is untouched" || nok "outputs: the input ELF is untouched"
printf '{"version": 1, "cores": {"brisc": "prog.elf"}}\n' >"$TMP/run.json"
run_ttemu run --config "$TMP/run.json" --quiet --report "$TMP/run.json"
expect_exit "--report onto the --config file: exit 4" 4
expect_out "--report onto the --config file: named" "would overwrite the input --config"
run_ttemu run --config "$TMP/run.json" --quiet --trace-vcd "$TMP/prog.elf"
expect_out "--trace-vcd onto the config's ELF: named" "--trace-vcd $TMP/prog.elf would overwrite the input cores.brisc"
run_ttemu run --brisc "$TMP/prog.elf" --quiet --report "$TMP/r.json" --trace "$TMP/r.trace.json" --trace-vcd "$TMP/r.vcd"
expect_exit "distinct outputs are fine" 0
# Tensor outputs and saved host reads are outputs too; tensor inputs and host write files inputs.
cp "$D/brisc.elf" "$TMP/tprog.elf"
printf '{"version": 1, "cores": {"brisc": "tprog.elf"}, "tensors": {"t": {"addr": "0x9000", "format": "int32", "shape": [4], "layout": "rows"}}}\n' >"$TMP/tens.json"
run_ttemu run --config "$TMP/tens.json" --quiet --output "t=$TMP/tprog.elf"
expect_exit "--output onto the program: exit 4" 4
expect_out "--output onto the program: named" "--output t $TMP/tprog.elf would overwrite the input cores.brisc"
run_ttemu run --config "$TMP/tens.json" --quiet --output "t=$TMP/o.npy" --report "$TMP/o.npy"
expect_out "--report onto a tensor output: named" "--output t $TMP/o.npy is the same file as --report $TMP/o.npy"
# A kernel is named by its launch and core (app/main.c kernel_name: one digit and two).
printf 'k' >"$TMP/k.bin"; printf 'k2' >"$TMP/k2.bin"; printf 'k3' >"$TMP/k3.bin"
L=$(printf '{"kernels": {"brisc": "k.bin"}}, %.0s' $(seq 3))
printf '{"version": 1, "firmware": "/x", "launches": [%s{"kernels": {"ncrisc": "k2.bin"}}, %s%s{"kernels": {"brisc": "k.bin", "trisc0": "k.bin", "trisc1": "k.bin", "trisc2": "k3.bin"}}]}\n' "$L" "$L" "$L" >"$TMP/kl.json"
run_ttemu run --config "$TMP/kl.json" --quiet --report "$TMP/k2.bin"
expect_out "--report onto launch 3's kernel: named" "--report $TMP/k2.bin would overwrite the input launches\[3\]\.kernels\.ncrisc $TMP/k2.bin"
run_ttemu run --config "$TMP/kl.json" --quiet --trace "$TMP/k.bin"
expect_out "--trace onto launch 0's kernel: named" "--trace $TMP/k.bin would overwrite the input launches\[0\]\.kernels\.brisc $TMP/k.bin"
run_ttemu run --config "$TMP/kl.json" --quiet --report "$TMP/o2.json" --trace-vcd "$TMP/./k3.bin"
expect_out "--trace-vcd onto launch 10's kernel: named" "--trace-vcd $TMP/\./k3.bin would overwrite the input launches\[10\]\.kernels\.trisc2 $TMP/k3.bin"
printf '{"version": 1, "cores": {"brisc": "tprog.elf"}, "host": [{"at": "before_boot", "read": {"addr": "0x8000", "file": "hr.json"}}]}\n' >"$TMP/hr.json"
run_ttemu run --config "$TMP/hr.json" --quiet
expect_exit "a saved host read onto the config: exit 4" 4
expect_out "a saved host read onto the config: named" "host\[0\]\.read\.file $TMP/hr.json would overwrite the input --config $TMP/hr.json"
