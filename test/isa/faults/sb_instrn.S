/* A 1-byte store to INSTRN_BUF (0xFFE40000): pushes are 32-bit only. Built for the tile only; test/sh/t_faults.sh expects a guest fault at the label "fault"
 * (exit 3) whose message names the data address (issue 20, item 8). */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    li a1, 0xFFE40000
    li a2, 1
fault:
    sb a2, 0(a1)
    ebreak                          /* not reached */
