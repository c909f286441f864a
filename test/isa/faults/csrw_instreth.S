/* A write to the user counter instreth (0xC82): read-only (Zicntr), an illegal instruction
 * (issue 20, item 11). Built for the tile only; test/sh/t_faults.sh expects a guest fault at
 * the label "fault" (exit 3). */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    li a1, 5
fault:
    csrw instreth, a1
    ebreak                          /* not reached */
