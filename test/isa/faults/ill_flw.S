/* F load flw (valid L1 address): Blackhole has it, ttemu does not model it yet (see
 * ill_fadd_s.S). Built for the tile only; test/sh/t_faults.sh expects ttemu to stop at the label
 * "fault" with exit 6 `unimplemented`. */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    lui a1, %hi(buf)
    addi a1, a1, %lo(buf)
fault:
    .option push
    .option arch, +f
    flw f0, 0(a1)
    .option pop
    ebreak                          /* not reached */

    .data
    .balign 4
buf:
    .word 0x11111111, 0x22222222
