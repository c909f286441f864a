/* A 2-byte store to a tile control register (0xFFB12008): 32-bit only. Built for the tile only; test/sh/t_faults.sh expects a guest fault at the label "fault"
 * (exit 3) whose message names the data address (issue 20, item 8). */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    li a1, 0xFFB12000
    li a2, 1
fault:
    sh a2, 8(a1)
    ebreak                          /* not reached */
