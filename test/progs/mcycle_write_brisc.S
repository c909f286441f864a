/* The machine counters stay writable (Blackhole CSRs.md; issue 20, item 11): BRISC sets mcycle
 * and minstret to 0x100000 and stores what it reads back a few instructions later to L1 0x9000
 * (each just above 0x100000), then reads cycle/instret through the user aliases (reads are
 * fine) to 0x9008. */
    .text
    .globl main
main:
    li a0, 0x9000
    li a1, 0x100000
    csrw mcycle, a1
    csrw minstret, a1
    csrr a2, mcycle
    csrr a3, minstret
    sw a2, 0(a0)
    sw a3, 4(a0)
    csrr a2, cycle
    csrr a3, instret
    sw a2, 8(a0)
    sw a3, 12(a0)
    li a0, 0
    ret
