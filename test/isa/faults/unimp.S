/* `unimp` (csrrw x0, cycle, x0), what compilers emit for __builtin_trap: the user counters are
 * read-only (Zicntr), so it is an illegal instruction (issue 20, item 11). Built for the tile
 * only; test/sh/t_faults.sh expects a guest fault at the label "fault" (exit 3). */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    nop
fault:
    unimp
    ebreak                          /* not reached */
