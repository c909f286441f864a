/* A blocked hart whose stalled instruction is rewritten (t_fastpath.sh: the fast path's blocked
 * harts, tile_block). BRISC pushes SEMWAIT (all of stall_res, semaphore 0, while zero) and ten
 * NOPs into thread 1 after the MOP expander: FIFO#3 (2) and FIFO#2 (8) fill with held NOPs, so the
 * push at `site` stalls. It tells NCRISC where `site` is and what to put there (L1 0x9200, 0x9204);
 * NCRISC overwrites the stalled push with a store to L1 0x9300, which BRISC then runs at once, long
 * before TRISC1 posts semaphore 0 and thread 1 drains. Results: L1 0x9300 = 0x5A5A (the
 * replacement ran), 0x9304 = 0x5A5A (BRISC went on).
 * With BLOCKED_WARM (blocked_warm_brisc.S) BRISC first runs the code after `site` once, so that
 * its words are decoded when it goes on there, the FIFO still full: it must run them at once too,
 * not count them as the stalled push's retries. 0x9304 is then 2 (two passes through `after`).
 * With BLOCKED_T0 (blocked_t0_brisc.S) the pushes go into thread 0 (INSTRN_BUF) instead: each
 * thread's FIFO#2 has its own freed bit (tile_blocks_check). */
    .text
    .globl main
main:
#ifdef BLOCKED_T0
    li t0, 0xFFE40000      /* INSTRN_BUF: thread 0, after the MOP expander */
#else
    li t0, 0xFFE50000      /* INSTRN1_BUF: thread 1, after the MOP expander */
#endif
    li t4, 0x9300
    li a2, 0x9200
#ifdef BLOCKED_WARM
    li s0, 0
    li s1, 0
    j after                /* decode `after` first */
resume:
#endif
    la a0, site
    lw a1, replacement
    sw a1, 4(a2)
    sw a0, 0(a2)
    li t1, 0xA6FF8005      /* SEMWAIT stall_res 0x1FF, semaphore 0, STALL_ON_ZERO */
    sw t1, 0(t0)
    li t1, 0x02000000      /* NOP */
    li t3, 10
1:  sw t1, 0(t0)
    addi t3, t3, -1
    bnez t3, 1b
    li t2, 0x5A5A
site:
    sw t1, 0(t0)           /* FIFO#2 and #3 full: stalls */
#ifdef BLOCKED_WARM
after:
    addi s1, s1, 1
    addi s1, s1, 0
    addi s1, s1, 0
    bnez s0, finish
    li s0, 1
    j resume
finish:
    sw s1, 4(t4)
#else
    sw t2, 4(t4)
#endif
    ebreak
replacement:
    sw t2, 0(t4)
