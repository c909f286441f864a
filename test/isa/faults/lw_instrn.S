/* A load from INSTRN_BUF (0xFFE40004): the push window is write-only. Built for the tile only; test/sh/t_faults.sh expects a guest fault at the label "fault"
 * (exit 3) whose message names the data address (issue 20, item 8). */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    li a1, 0xFFE40000
    li a2, 1
fault:
    lw a0, 4(a1)
    ebreak                          /* not reached */
