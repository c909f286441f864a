/* sh to an odd address (in L1).
 * Built for the tile only; test/sh/t_faults.sh expects ttemu to stop with a guest fault at
 * the label "fault" (exit 3). */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    lui a1, %hi(buf + 1)
    addi a1, a1, %lo(buf + 1)
    li a2, 0x1234
fault:
    sh a2, 0(a1)
    ebreak                          /* not reached */

    .data
    .balign 4
buf:
    .word 0x11111111, 0x22222222
