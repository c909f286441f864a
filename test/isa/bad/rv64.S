/* An RV64 program: ttemu must refuse the ELF (exit 4), it never runs. */
    .section .text.start, "ax"
    .globl _start
_start:
    ld a0, 0(sp)
    ebreak
