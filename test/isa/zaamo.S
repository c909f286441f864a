/* Zaamo: the nine amo*.w, each returning the old memory word and storing the result, on a word
 * in L1 and on one in the core's local data RAM (LOCAL_RAM; qemu: ordinary RAM). Also rd = x0,
 * rd == rs2, the .aqrl forms and the untouched neighbour word. See isa.h for the protocol. */
#include "isa.h"

/* TEST_AMO op, base, init, operand, new: mem[base] = init; a0 = op(operand); checks a0 == init
 * and mem[base] == new. */
.macro TEST_AMO op, base, init, operand, new
    li a2, \init
    sw a2, 0(\base)
    li a3, \operand
    \op a0, a3, (\base)
    CHECK a0, \init
    lw a0, 0(\base)
    CHECK a0, \new
.endm

.macro AMO_ALL base
    TEST_AMO amoswap.w, \base, 0x11111111, 0xCAFEBABE, 0xCAFEBABE
    TEST_AMO amoswap.w, \base, 0xFFFFFFFF, 0, 0
    TEST_AMO amoadd.w, \base, 0x7FFFFFFF, 1, 0x80000000
    TEST_AMO amoadd.w, \base, 0xFFFFFFFF, 2, 1
    TEST_AMO amoxor.w, \base, 0xFF00FF00, 0x0FF00FF0, 0xF0F0F0F0
    TEST_AMO amoxor.w, \base, 0xFFFFFFFF, 0xFFFFFFFF, 0
    TEST_AMO amoand.w, \base, 0xFF00FF00, 0x0FF00FF0, 0x0F000F00
    TEST_AMO amoand.w, \base, 0xFFFFFFFF, 0, 0
    TEST_AMO amoor.w, \base, 0xFF00FF00, 0x0FF00FF0, 0xFFF0FFF0
    TEST_AMO amoor.w, \base, 0, 0, 0
    TEST_AMO amomin.w, \base, 0xFFFFFFFF, 1, 0xFFFFFFFF
    TEST_AMO amomin.w, \base, 1, 0x80000000, 0x80000000
    TEST_AMO amomax.w, \base, 0xFFFFFFFF, 1, 1
    TEST_AMO amomax.w, \base, 0x80000000, 0x7FFFFFFF, 0x7FFFFFFF
    TEST_AMO amominu.w, \base, 0xFFFFFFFF, 1, 1
    TEST_AMO amominu.w, \base, 0, 0xFFFFFFFF, 0
    TEST_AMO amomaxu.w, \base, 1, 0xFFFFFFFF, 0xFFFFFFFF
    TEST_AMO amomaxu.w, \base, 0x80000000, 0x7FFFFFFF, 0x80000000
    TEST_AMO amoadd.w.aqrl, \base, 40, 2, 42
    TEST_AMO amoor.w.aq, \base, 0x0F, 0xF0, 0xFF
    TEST_AMO amoand.w.rl, \base, 0x0F, 0xFC, 0x0C
    li a2, 100                      /* rd = x0: memory still updated */
    sw a2, 0(\base)
    li a3, 23
    amoadd.w x0, a3, (\base)
    CHECK x0, 0
    lw a0, 0(\base)
    CHECK a0, 123
    li a3, 0x5A5A5A5A               /* rd == rs2: rd gets the old value */
    amoswap.w a3, a3, (\base)
    CHECK a3, 123
    lw a0, 0(\base)
    CHECK a0, 0x5A5A5A5A
    lw a0, 4(\base)                 /* neighbour untouched */
    CHECK a0, 0x77777777
    lw a0, -4(\base)
    CHECK a0, 0x66666666
.endm

    TEST_BEGIN
    LA_ABS s1, amo_l1
    li a2, 0x66666666
    sw a2, -4(s1)
    li a2, 0x77777777
    sw a2, 4(s1)
    AMO_ALL s1
    li s1, LOCAL_RAM + 0x200
    li a2, 0x66666666
    sw a2, -4(s1)
    li a2, 0x77777777
    sw a2, 4(s1)
    AMO_ALL s1
    TEST_END

    .data
    .balign 16
    .word 0
amo_l1:
    .word 0, 0
