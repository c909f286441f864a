/* jalr to 0xFFB00000 (local data RAM): cores fetch instructions only from L1. ttemu may report
 * the fault at the jalr or at the target; the test accepts either pc.
 * Built for the tile only; test/sh/t_faults.sh expects ttemu to stop with a guest fault at
 * the label "fault" (exit 3). */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    li a1, 0xFFB00000
fault:
    jalr ra, 0(a1)
    ebreak                          /* not reached */

    .data
    .balign 4
buf:
    .word 0x11111111, 0x22222222
