/* F load flw: illegal under ttemu's model (valid L1 address; see ill_fadd_s.S on partial F).
 * Built for the tile only; test/sh/t_faults.sh expects ttemu to stop with a guest fault at
 * the label "fault" (exit 3). */
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
