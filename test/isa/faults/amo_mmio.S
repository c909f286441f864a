/* amoadd.w on an MMIO register (0xFFB121F0): Blackhole atomics work only on L1/local RAM.
 * Built for the tile only; test/sh/t_faults.sh expects ttemu to stop with a guest fault at
 * the label "fault" (exit 3). */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    li a1, 0xFFB121F0
    li a2, 1
fault:
    amoadd.w a0, a2, (a1)
    ebreak                          /* not reached */

    .data
    .balign 4
buf:
    .word 0x11111111, 0x22222222
