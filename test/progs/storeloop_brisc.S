/* Issue 20, item 9: a loop that stores a counter to L1 every 3 cycles. At --max-cycles the
 * diagnosis must not say it spins "with no store". */
    .text
    .globl main
main:
    li a0, 0x9000
1:  sw a1, 0(a0)
    addi a1, a1, 1
    j 1b
