/* packh (Zbkb) is not in Blackhole's Zbkb subset (only pack, brev8): illegal instruction.
 * Built for the tile only; test/sh/t_faults.sh expects ttemu to stop with a guest fault at
 * the label "fault" (exit 3). */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    li a0, 1
    li a1, 2
fault:
    .option push
    .option arch, +zbkb
    packh a0, a0, a1
    .option pop
    ebreak                          /* not reached */

    .data
    .balign 4
buf:
    .word 0x11111111, 0x22222222
