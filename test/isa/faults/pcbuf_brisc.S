/* BRISC pushes to PCBuf[0] at 0xFFE80000 (PCBufs.md): Blackhole has the FIFO, ttemu does not
 * model it: test/sh/t_faults.sh expects exit 6 `unimplemented` at the label "fault". */
    .section .text.start, "ax"
    .globl _start, fault
_start:
    li a1, 0xFFE80000
fault:
    sw zero, 0(a1)
    ebreak                          /* not reached */
