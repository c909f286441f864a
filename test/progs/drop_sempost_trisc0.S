/* Issue 20, item 1: TRISC0 pushes SEMINIT (Max 2, Value 0) of semaphore 1 and one SEMPOST of it,
 * then halts on the very next instruction. The run must end only once the thread has drained:
 * semaphore 1 ends at Value 1 and the thread shows nothing pending. */
    .text
    .globl main
main:
    li t0, 0xFFE40000      /* INSTRN_BUF */
    li t1, 0xA3200008      /* SEMINIT Max 2, Value 0, semaphore 1 */
    sw t1, 0(t0)
    li t1, 0xA4000008      /* SEMPOST semaphore 1 */
    sw t1, 0(t0)
    ebreak
