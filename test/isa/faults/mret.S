/* mret: Blackhole's BRISC has it (TENSIX.md §1.2: mret on BRISC and NCRISC only), ttemu does not
 * model it: test/sh/t_faults.sh expects exit 6 `unimplemented` at the label "fault" on BRISC. */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    nop
fault:
    mret
    ebreak                          /* not reached */
