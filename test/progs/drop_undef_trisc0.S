/* Issue 20, item 1: TRISC0 pushes a word with no Blackhole opcode (0x06) and halts on the very
 * next instruction. The word can never issue, so the run must end as a deadlock that names it,
 * not as "halted" with the word still in the FIFO. */
    .text
    .globl main
main:
    li t0, 0xFFE40000      /* INSTRN_BUF: this TRISC's thread */
    li t1, 0x06000000      /* opcode 0x06: undefined on Blackhole */
    sw t1, 0(t0)
    ebreak
