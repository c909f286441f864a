/* F instruction fadd.s: Blackhole's cores have it (a partial F, TENSIX.md 1.2), ttemu does not
 * model it yet: ttemu's gap. Built for the tile only; test/sh/t_faults.sh expects ttemu to stop
 * at the label "fault" with exit 6 `unimplemented` (drop this test when ttemu adds F). */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    nop
fault:
    .option push
    .option arch, +f
    fadd.s f0, f1, f2
    .option pop
    ebreak                          /* not reached */

    .data
    .balign 4
buf:
    .word 0x11111111, 0x22222222
