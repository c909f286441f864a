/* wfi: not in Blackhole's instruction set (TENSIX.md §1.2; invalid instructions are
 * UndefinedBehavior): test/sh/t_faults.sh expects a guest fault (exit 3) at the label "fault". */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    nop
fault:
    wfi
    ebreak                          /* not reached */
