# Errors by category (docs/cli.md, docs/coprocessor-backend.md "Errors"): a Tensix instruction
# ttemu does not model ends the run with exit 6 `unimplemented`, a coprocessor guest fault with
# exit 3, each naming the thread, the pushing core and pc, and the word, in the message and in
# the report's `error`; RV32 instructions Blackhole has on one core only are ttemu's gap there and
# the guest's fault elsewhere. Programs: test/progs/unimpl_*, cpfault_*, vector_trisc2.S.
. test/sh/lib.sh
P=$FW/progs
NM=${RV_PREFIX:-riscv64-unknown-elf-}nm
sym() { "$NM" "$1" | awk -v s="$2" '$3 == s { print $1 }'; }

# 1. REG2FLOP pushed by TRISC0: ttemu's gap.
elf=$P/unimpl_reg2flop_trisc0.elf
pc=$(sym "$elf" reg2flop_push)
rep=$TMP/reg2flop.json
run_ttemu run --trisc0 "$elf" --max-cycles 100000 --report "$rep" --peek 0x9000:2
expect_exit "REG2FLOP (not modelled): exit 6" 6
expect_out "REG2FLOP: the message says it is ttemu's gap" \
    "ttemu: not modelled by ttemu in the Tensix coprocessor, thread T0 \(THCON\): ttemu does not model REG2FLOP yet \[unimplemented\]"
expect_out "REG2FLOP: the message names the word, TRISC0 and the pc of the push" \
    "word 0x48000005 \(REG2FLOP RegIndex=0x5\) pushed by TRISC0 at pc 0x$pc; in reg2flop_push of "
expect_json "REG2FLOP: exit.reason" "$rep" "r['exit']['reason']" unimplemented
expect_json "REG2FLOP: exit.category" "$rep" "r['exit']['category']" unimplemented
expect_json "REG2FLOP: error" "$rep" \
    "[r['error'][k] for k in ('source', 'category', 'unit', 'thread', 'word', 'disasm', 'pushed_by', 'push_symbol')]" \
    '["coprocessor", "unimplemented", "THCON", 0, 1207959557, "REG2FLOP RegIndex=0x5", "TRISC0", "reg2flop_push"]'
expect_json "REG2FLOP: error.push_pc is the push" "$rep" "'%08x' % r['error']['push_pc']" "$pc"
expect_json "REG2FLOP: the program reached the push, and stopped there" "$rep" "r['peek']['0x00009000']" "[1, 0]"

# 2. LOADREG from an unmapped address, pushed by TRISC1: the guest's fault.
elf=$P/cpfault_loadreg_trisc1.elf
pc=$(sym "$elf" loadreg_push)
rep=$TMP/loadreg.json
run_ttemu run --trisc1 "$elf" --max-cycles 100000 --report "$rep"
expect_exit "LOADREG from unmapped: exit 3" 3
expect_out "LOADREG: the message names thread, address and category" \
    "ttemu: guest fault in the Tensix coprocessor, thread T1 \(THCON\): LOADREG from unmapped 0xffb90b88 \[unmapped\]"
expect_out "LOADREG: the message names the word, TRISC1 and the pc of the push" \
    "word 0x681e42e2 \(LOADREG RegAddr=0x242e2 TdmaDataRegIndex=0x7\) pushed by TRISC1 at pc 0x$pc"
expect_json "LOADREG: exit.reason" "$rep" "r['exit']['reason']" guest_fault
expect_json "LOADREG: exit.category" "$rep" "r['exit']['category']" unmapped
expect_json "LOADREG: error" "$rep" "[r['error'][k] for k in ('category', 'unit', 'thread', 'pushed_by')]" \
    '["unmapped", "THCON", 1, "TRISC1"]'
expect_json "LOADREG: error.push_pc is the push" "$rep" "'%08x' % r['error']['push_pc']" "$pc"

# 3. A vector instruction: Blackhole has V on TRISC2 only.
elf=$P/vector_trisc2.elf
pc=$(sym "$elf" vector)
rep=$TMP/vector.json
run_ttemu run --trisc2 "$elf" --max-cycles 100000 --report "$rep"
expect_exit "V on TRISC2 (not modelled): exit 6" 6
expect_out "V on TRISC2: ttemu's gap, at its pc" "not modelled by ttemu on TRISC2 at pc 0x$pc .*ttemu does not model it"
expect_json "V on TRISC2: exit.category" "$rep" "r['exit']['category']" unimplemented
expect_json "V on TRISC2: no coprocessor error" "$rep" "'error' in r" False
run_ttemu run --brisc "$elf" --max-cycles 100000 --report "$rep"
expect_exit "V on BRISC (not on Blackhole there): exit 3" 3
expect_out "V on BRISC: an illegal instruction" "guest fault on BRISC at pc 0x$pc .*illegal instruction: V .*TRISC2 only"
expect_json "V on BRISC: exit.category" "$rep" "r['exit']['category']" illegal

# 4. A run without an error has neither key (reports stay as they were).
run_ttemu run --trisc0 "$FW/progs/hang_trisc0.elf" --max-cycles 2000 --report "$rep"
expect_json "no error: no exit.category" "$rep" "'category' in r['exit']" False
expect_json "no error: no error object" "$rep" "'error' in r" False
