#!/usr/bin/env bash
# test/sh/t_faults.sh — guest faults, ttemu's gaps and bad input. Each test/isa/faults/NAME.S
# (built by `make fw` into $FW/isa-faults/NAME.elf) executes one faulting instruction at its
# global label "fault"; ttemu must exit 3 with a line
#   guest fault on BRISC at pc 0x%08x (insn 0x%08x): REASON
# or, where Blackhole has the instruction or device and ttemu does not model it, exit 6 with
#   not modelled by ttemu on BRISC at pc 0x%08x (insn 0x%08x): REASON
# naming that pc and instruction word, a REASON matching the case's keyword, and a report whose
# exit.reason is "guest_fault" (or "unimplemented") and exit.category the case's category. Bad
# input (not an ELF, an RV64 ELF, a missing file, an unknown option) must exit 4 without running
# anything.
. test/sh/lib.sh
NM=${RV_PREFIX:-riscv64-unknown-elf-}nm
OBJDUMP=${RV_PREFIX:-riscv64-unknown-elf-}objdump

# NAME;REASON (extended regex, case-insensitive; BUF+N = the address of the program's buf + N);
# ALTERNATIVE PC (8 hex digits, or empty); EXIT (3 guest fault, 6 ttemu's gap); exit.category
cases=(
    "ill_bset;illegal;;3;illegal"
    "ill_lrw;illegal;;3;illegal"
    "ill_scw;illegal;;3;illegal"
    "ill_fadd_s;F/Zfh.*ttemu does not model;;6;unimplemented"
    "ill_flw;F/Zfh \\(flw\\).*ttemu does not model;;6;unimplemented"
    "ill_fdiv_s;illegal.*not on Blackhole;;3;illegal"
    "ill_fadd_d;illegal.*not on Blackhole;;3;illegal"
    "ill_packh;illegal;;3;illegal"
    "ill_ones;illegal;;3;illegal"
    "mret;mret.*ttemu does not model;;6;unimplemented"
    "wfi;illegal.*wfi;;3;illegal"
    "pcbuf_brisc;PC_BUF 0xffe80000.*ttemu does not model;;6;unimplemented"
    "ecall;ecall;;3;ecall"
    "load_unmapped;load.*0x40000000;;3;unmapped"
    "store_unmapped;store.*0x40000000;;3;unmapped"
    "misaligned_lw;misaligned.*BUF+2;;3;misaligned"
    "misaligned_sh;misaligned.*BUF+1;;3;misaligned"
    "amo_mmio;0xffb121f0;;3;amo"
    "csr_unknown;csr|illegal;;3;csr"
    "jump_nonl1;0xffb00000;ffb00000;3;fetch"
    "sb_instrn;1-byte store to INSTRN_BUF.*address 0xffe40000;;3;access"
    "lw_instrn;load from INSTRN_BUF.*address 0xffe40004;;3;access"
    "sw_mopcfg;MOP config.*address 0xffb80008;;3;unmapped"
    "sh_tilectl;2-byte store.*address 0xffb12008;;3;access"
    "unimp;write to read-only CSR cycle \\(0xc00\\).*Zicntr.*unimp;;3;csr"
    "csrw_instreth;write to read-only CSR instreth \\(0xc82\\).*write minstreth;;3;csr"
)

if [ ! -x "$TTEMU" ]; then nok "ttemu built" "$TTEMU missing"; exit 0; fi

for c in "${cases[@]}"; do
    IFS=';' read -r name reason altpc code category <<<"$c"
    if [ "$code" = 6 ]; then lead="not modelled by ttemu" want_reason=unimplemented
    else lead="guest fault" want_reason=guest_fault; fi
    elf="$FW/isa-faults/$name.elf"
    if [ ! -f "$elf" ]; then nok "fault $name: built" "$elf missing (run make fw)"; continue; fi
    pc=$("$NM" "$elf" | awk '$3 == "fault" { print $1 }')
    insn=$("$OBJDUMP" -d --start-address="0x$pc" --stop-address=$((0x$pc + 4)) "$elf" |
        awk -F'\t' '/^ *[0-9a-f]+:\t/ { gsub(/ /, "", $2); print $2; exit }')
    if [[ $reason =~ BUF\+([0-9]+) ]]; then
        buf=$("$NM" "$elf" | awk '$3 == "buf" { print $1 }')
        reason=${reason/BUF+${BASH_REMATCH[1]}/$(printf '0x%08x' $((0x$buf + BASH_REMATCH[1])))}
    fi
    rep="$TMP/$name.json"
    run_ttemu run --brisc "$elf" --max-cycles 100000 --report "$rep"
    expect_exit "fault $name: exit $code" "$code"
    if [ -n "$altpc" ]; then
        pcre="(0x$pc \(insn 0x[0-9a-f]{8}\)|0x$altpc \(insn 0x[0-9a-f]{8}\))"
    else
        pcre="0x$pc \(insn 0x$insn\)"
    fi
    expect_out "fault $name: names BRISC, pc and insn" "$lead on BRISC at pc $pcre: "
    # the reason: after "(insn ...): ", before the optional "; in SYMBOL of FILE"
    why=$(grep -m1 -- "$lead on" <<<"$OUT" | sed -e "s/.*$lead on [^)]*): //" -e 's/; in .*//')
    if grep -qiE -- "$reason" <<<"$why"; then ok "fault $name: reason /$reason/"
    else nok "fault $name: reason /$reason/" "reason: '$why'" "$OUT"; fi
    if [ -f "$rep" ]; then
        expect_json "fault $name: report exit.reason" "$rep" "r['exit']['reason']" "$want_reason"
        expect_json "fault $name: report exit.code" "$rep" "r['exit']['code']" "$code"
        expect_json "fault $name: report exit.category" "$rep" "r['exit']['category']" "$category"
        expect_json "fault $name: no coprocessor error in the report" "$rep" "'error' in r" False
        expect_json "fault $name: report BRISC state" "$rep" "r['cores'][0]['state']" faulted
        if [ -z "$altpc" ]; then
            expect_json "fault $name: report fault pc and insn" "$rep" \
                "'%08x %08x' % (r['cores'][0]['fault']['pc'], r['cores'][0]['fault']['insn'])" "$pc $insn"
        fi
    else
        nok "fault $name: report written" "no $rep"
    fi
done

# ---- bad input: exit 4, nothing runs ---------------------------------------------------------
printf 'this is not an ELF file\n' >"$TMP/not_an_elf.elf"
run_ttemu run --brisc "$TMP/not_an_elf.elf"
expect_exit "bad input: non-ELF file exits 4" 4
expect_out "bad input: non-ELF message names the file" "not_an_elf\.elf"

if [ -f "$FW/isa-faults/rv64.elf" ]; then
    run_ttemu run --brisc "$FW/isa-faults/rv64.elf"
    expect_exit "bad input: RV64 ELF exits 4" 4
    expect_out "bad input: RV64 message names the file" "rv64\.elf"
else
    nok "bad input: RV64 ELF built" "$FW/isa-faults/rv64.elf missing (run make fw)"
fi

run_ttemu run --brisc "$TMP/does_not_exist.elf"
expect_exit "bad input: missing file exits 4" 4
expect_out "bad input: missing-file message names the file" "does_not_exist\.elf"

run_ttemu run --brisc "$FW/isa/rv32i.elf" --no-such-option
expect_exit "bad input: unknown option exits 4" 4
expect_out "bad input: unknown option named" "no-such-option"

# Issue 20, item 11: the machine counters stay writable (Blackhole CSRs.md); the user aliases
# read them. mcycle and minstret set to 0x100000 read back just above it.
run_ttemu run --brisc "$FW/progs/mcycle_write_brisc.elf" --peek 0x9000:4 --quiet --report "$TMP/mcw.json"
expect_exit "mcycle/minstret writes: halted (exit 0)" 0
expect_json "mcycle/minstret writable, cycle/instret read them" "$TMP/mcw.json" \
    'all(0x100000 < v < 0x100010 for v in r["peek"]["0x00009000"])' True
