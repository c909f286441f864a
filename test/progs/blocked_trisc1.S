/* blocked_brisc.S's release: after 1500 loop turns post semaphore 0 through the PCBuf window
 * (thread 1's SEMWAIT lets its NOPs go), then a tensix_sync load that stalls until thread 1 has
 * drained (a blocked hart waiting on its own thread). */
    .text
    .globl main
main:
    li t2, 1500
1:  addi t2, t2, -1
    bnez t2, 1b
    li t0, 0xFFE80000      /* PC_BUF */
    sw zero, 0x20(t0)      /* semaphore 0: post */
    lw t1, 4(t0)           /* TTSYNC: CoprocessorDoneCheck of thread 1 */
    ebreak
