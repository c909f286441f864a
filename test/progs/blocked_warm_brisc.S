/* blocked_brisc.S with the code after the stalled push decoded beforehand (t_fastpath.sh: a
 * blocked hart whose stalled instruction is rewritten runs as if it were not blocked). BRISC first
 * runs `after` once (so its words have decoded records), then pushes SEMWAIT and ten NOPs into
 * thread 1 after the MOP expander, so that the push at `site` stalls on the full FIFO; NCRISC
 * (blocked_ncrisc.S) overwrites that push with a store to L1 0x9300. BRISC then runs the store
 * and goes on through `after` at once, while the FIFO is still full: no turn of it may count as
 * the stalled push's retry. Results: L1 0x9300 = 0x5A5A (the replacement ran), 0x9304 = 2 (two
 * passes through `after`). */
    .text
    .globl main
main:
    li t0, 0xFFE50000      /* INSTRN1_BUF: thread 1, after the MOP expander */
    li t4, 0x9300
    li a2, 0x9200
    li s0, 0
    li s1, 0
    j after                /* decode `after` first */
resume:
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
after:
    addi s1, s1, 1
    addi s1, s1, 0
    addi s1, s1, 0
    bnez s0, finish
    li s0, 1
    j resume
finish:
    sw s1, 4(t4)
    ebreak
replacement:
    sw t2, 0(t4)
