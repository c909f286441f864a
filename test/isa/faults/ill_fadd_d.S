/* D is not implemented on Blackhole: fadd.d is an illegal instruction.
 * Built for the tile only; test/sh/t_faults.sh expects ttemu to stop with a guest fault at
 * the label "fault" (exit 3). */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    nop
fault:
    .option push
    .option arch, +d
    fadd.d f0, f1, f2
    .option pop
    ebreak                          /* not reached */

    .data
    .balign 4
buf:
    .word 0x11111111, 0x22222222
