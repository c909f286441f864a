/* blocked_brisc.S's other half: once BRISC published where its stalled push is (L1 0x9200), wait
 * 200 loop turns and write the replacement word (L1 0x9204) over it. */
    .text
    .globl main
main:
    li a2, 0x9200
1:  lw a0, 0(a2)
    beqz a0, 1b
    li t2, 200
2:  addi t2, t2, -1
    bnez t2, 2b
    lw a1, 4(a2)
    sw a1, 0(a0)
    ebreak
