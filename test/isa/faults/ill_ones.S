/* The all-ones word 0xFFFFFFFF (low bits 11, so not a .ttinsn): illegal instruction.
 * Built for the tile only; test/sh/t_faults.sh expects ttemu to stop with a guest fault at
 * the label "fault" (exit 3). */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    nop
fault:
    .word 0xFFFFFFFF
    ebreak                          /* not reached */

    .data
    .balign 4
buf:
    .word 0x11111111, 0x22222222
