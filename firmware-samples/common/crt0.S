/* Start-up for ttemu's RV32 samples: stack at the top of local data RAM, zero .bss, call main,
 * leave main's return value in a0 and halt with ebreak (ttemu: core state "halted"). */
    .section .text.start, "ax"
    .globl _start
_start:
    la sp, __stack_top
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 1b
2:  call main
    ebreak
3:  j 3b
