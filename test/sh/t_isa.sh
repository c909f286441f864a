#!/usr/bin/env bash
# test/sh/t_isa.sh — the self-checking ISA programs (test/isa/*.S, built by `make fw` into
# $FW/isa/*.elf and, for qemu, $FW/isa-qemu/*.elf). For each program:
#   - under ttemu on BRISC: exit 0, BRISC halted at the final ebreak (isa_end), status word
#     0x600D600D and the check count as assembled (NCHECKS), read back with --peek of the whole
#     signature; then alone on each of the other four cores: exit 0 and status pass;
#   - under qemu-system-riscv32 (when installed): the qemu build prints its signature ("SIG
#     xxxxxxxx" lines on the UART); status pass, and every word equal to ttemu's.
# Signature layout (test/isa/isa.h): [status, count, one word per check].
. test/sh/lib.sh
NM=${RV_PREFIX:-riscv64-unknown-elf-}nm
QEMU=${QEMU:-qemu-system-riscv32}
QEMU_CPU=rv32,zba=true,zbb=true,zbkb=true
PASS_WORD=600d600d

# sym ELF NAME: the symbol's value as 8 lowercase hex digits (empty if absent).
sym() { "$NM" "$1" | awk -v s="$2" '$3 == s { print $1 }'; }

# peek_words REPORT ADDR: the report's peek words at ADDR, one 8-digit hex word a line.
peek_words() {
    python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
for w in r["peek"][sys.argv[2]]: print("%08x" % (w & 0xffffffff))' "$1" "$2"
}

# check_line ELF INDEX: source file:line of check INDEX (1-based), from the .isa_checks table of
# check addresses that isa.h's CHECK leaves in the ELF (not loaded) and the debug line info.
check_line() {
    local addr
    addr=$("${RV_PREFIX:-riscv64-unknown-elf-}readelf" -x .isa_checks "$1" 2>/dev/null |
        awk '/^ +0x[0-9a-f]+ / { for (i = 2; i <= 5 && length($i) == 8; i++) print $i }' |
        sed -n "${2}p" | sed -E 's/(..)(..)(..)(..)/0x\4\3\2\1/') && [ -n "$addr" ] &&
        "${RV_PREFIX:-riscv64-unknown-elf-}addr2line" -e "$1" "$addr" 2>/dev/null | sed 's|.*/test/isa/|test/isa/|'
}

# explain ELF WORDS-FILE: a readable line for a failing status word.
explain() {
    local st n idx got
    st=$(sed -n 1p "$2"); n=$(sed -n 2p "$2")
    case $st in
    bad*) idx=$((0x${st#bad}))
          got=$(sed -n "$((idx + 2))p" "$2")
          echo "check $idx of $((0x$n)) failed, got 0x$got, at $(check_line "$1" "$idx")" ;;
    ffffffff) echo "the program never reached TEST_END" ;;
    *) echo "status word 0x$st" ;;
    esac
}

shopt -s nullglob
elfs=("$FW"/isa/*.elf)
if [ ${#elfs[@]} -eq 0 ]; then nok "isa programs built" "no $FW/isa/*.elf (run make fw)"; exit 0; fi
have_ttemu=1
if [ ! -x "$TTEMU" ]; then have_ttemu=0; nok "ttemu built" "$TTEMU missing"; fi
have_qemu=1
command -v "$QEMU" >/dev/null 2>&1 || have_qemu=0

for elf in "${elfs[@]}"; do
    name=$(basename "$elf" .elf)
    base=$(sym "$elf" sig_base)
    nchk=$((0x$(sym "$elf" NCHECKS)))
    end=$(sym "$elf" isa_end)
    words=$((nchk + 2))
    tw="$TMP/$name.ttemu" qw="$TMP/$name.qemu"
    : >"$tw"
    if [ $have_ttemu -eq 1 ]; then
        rep="$TMP/$name.json"
        run_ttemu run --brisc "$elf" --max-cycles 2000000 --report "$rep" --peek "0x$base:$words" --quiet
        expect_exit "isa $name: ttemu exits 0" 0
        if [ -f "$rep" ] && peek_words "$rep" "0x$base" >"$tw" 2>"$TMP/err"; then
            st=$(sed -n 1p "$tw")
            if [ "$st" = $PASS_WORD ]; then ok "isa $name: ttemu status pass ($nchk checks)"
            else nok "isa $name: ttemu status pass ($nchk checks)" "$(explain "$elf" "$tw")"; fi
            if [ "$(sed -n 2p "$tw")" = "$(printf %08x "$nchk")" ]; then ok "isa $name: ttemu check count"
            else nok "isa $name: ttemu check count" "count word 0x$(sed -n 2p "$tw"), expected $nchk"; fi
            expect_json "isa $name: BRISC halted" "$rep" \
                "[c['state'] for c in r['cores'] if c['name'].upper() == 'BRISC'][0]" halted
            expect_json "isa $name: BRISC stopped at the final ebreak" "$rep" \
                "'%08x' % [c['pc'] for c in r['cores'] if c['name'].upper() == 'BRISC'][0]" "$end"
        else
            : >"$tw"
            nok "isa $name: ttemu signature readable" "no peek 0x$base in the report" "$(cat "$TMP/err")" "$OUT"
        fi
        # Every core has the same ISA: the program alone on each other core (its own local RAM).
        for core in NCRISC TRISC0 TRISC1 TRISC2; do
            rep="$TMP/$name.$core.json"
            run_ttemu run "--${core,,}" "$elf" --max-cycles 2000000 --report "$rep" --peek "0x$base:$words" --quiet
            got=$(peek_words "$rep" "0x$base" 2>/dev/null | head -1)
            if [ "$RC" -eq 0 ] && [ "$got" = $PASS_WORD ]; then ok "isa $name: on $core"
            else
                peek_words "$rep" "0x$base" >"$TMP/words" 2>/dev/null
                nok "isa $name: on $core" "exit $RC, $(explain "$elf" "$TMP/words")" "$OUT"
            fi
        done
    fi

    qelf="$FW/isa-qemu/$name.elf"
    if [ $have_qemu -eq 0 ]; then skip "isa $name: qemu differential" "$QEMU not installed"; continue; fi
    if [ ! -f "$qelf" ]; then skip "isa $name: qemu differential" "Blackhole-only program"; continue; fi
    timeout 10 "$QEMU" -M virt -bios none -cpu "$QEMU_CPU" -display none -serial stdio \
        -monitor none -kernel "$qelf" </dev/null 2>"$TMP/qerr" | tr -d '\r' | sed -n 's/^SIG \([0-9a-f]\{8\}\)$/\1/p' >"$qw"
    st=$(sed -n 1p "$qw")
    if [ "$st" = $PASS_WORD ] && [ "$(wc -l <"$qw")" -eq "$words" ]; then ok "isa $name: qemu status pass"
    else nok "isa $name: qemu status pass" "$(explain "$qelf" "$qw")" "$(wc -l <"$qw") of $words words" "$(head -c 500 "$TMP/qerr")"; fi
    if [ ! -s "$tw" ]; then skip "isa $name: ttemu and qemu signatures equal" "no ttemu signature"; continue; fi
    if cmp -s "$tw" "$qw"; then ok "isa $name: ttemu and qemu signatures equal ($words words)"
    else
        i=$(paste "$tw" "$qw" | awk '$1 != $2 { print NR; exit }')
        i=${i:-1}
        case $i in 1) what="status word" ;; 2) what="count word" ;;
            *) what="check $((i - 2)) at $(check_line "$elf" $((i - 2)))" ;; esac
        nok "isa $name: ttemu and qemu signatures equal ($words words)" \
            "first difference: $what: ttemu 0x$(sed -n "${i}p" "$tw"), qemu 0x$(sed -n "${i}p" "$qw")"
    fi
done
