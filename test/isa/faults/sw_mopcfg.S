/* BRISC stores to MOP config (0xFFB80008): mapped only for the TRISCs. Built for the tile only; test/sh/t_faults.sh expects a guest fault at the label "fault"
 * (exit 3) whose message names the data address (issue 20, item 8). */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    li a1, 0xFFB80000
    li a2, 1
fault:
    sw a2, 8(a1)
    ebreak                          /* not reached */
