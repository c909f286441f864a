/* M: mul/mulh/mulhsu/mulhu/div/divu/rem/remu, including the signed/unsigned high halves of
 * extreme products, division by zero (quotient all ones, remainder = dividend) and the
 * INT_MIN / -1 overflow (quotient INT_MIN, remainder 0). See isa.h for the protocol. */
#include "isa.h"

    TEST_BEGIN

    /* ---- mul: low 32 bits (same for signed and unsigned) -------------------------------- */
    TEST_RR mul, 6, 7, 42
    TEST_RR mul, 0x12345678, 0x9ABCDEF0, 0x242D2080
    TEST_RR mul, 0x80000000, 0xFFFFFFFF, 0x80000000
    TEST_RR mul, 0xFFFFFFFF, 0xFFFFFFFF, 1
    TEST_RR mul, 0x7FFFFFFF, 0x7FFFFFFF, 1
    TEST_RR mul, 3, 0xFFFFFFFB, 0xFFFFFFF1
    TEST_RR mul, 0, 0xFFFFFFFF, 0
    /* ---- mulh: signed x signed, high half ------------------------------------------------ */
    TEST_RR mulh, 0x12345678, 0x9ABCDEF0, 0xF8CC93D6
    TEST_RR mulh, 0x80000000, 0xFFFFFFFF, 0             /* -2^31 * -1 = 2^31 */
    TEST_RR mulh, 0xFFFFFFFF, 0xFFFFFFFF, 0
    TEST_RR mulh, 0x7FFFFFFF, 0x7FFFFFFF, 0x3FFFFFFF
    TEST_RR mulh, 0x80000000, 0x80000000, 0x40000000
    TEST_RR mulh, 0x80000000, 1, 0xFFFFFFFF
    TEST_RR mulh, 3, 0xFFFFFFFB, 0xFFFFFFFF
    /* ---- mulhsu: signed rs1 x unsigned rs2, high half ----------------------------------- */
    TEST_RR mulhsu, 0x12345678, 0x9ABCDEF0, 0x0B00EA4E
    TEST_RR mulhsu, 0x80000000, 0xFFFFFFFF, 0x80000000
    TEST_RR mulhsu, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF  /* -1 * (2^32-1) */
    TEST_RR mulhsu, 0x80000000, 0x80000000, 0xC0000000
    TEST_RR mulhsu, 3, 0xFFFFFFFB, 2
    TEST_RR mulhsu, 0xFFFFFFFF, 1, 0xFFFFFFFF
    /* ---- mulhu: unsigned x unsigned, high half ------------------------------------------ */
    TEST_RR mulhu, 0x12345678, 0x9ABCDEF0, 0x0B00EA4E
    TEST_RR mulhu, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFE
    TEST_RR mulhu, 0x80000000, 0xFFFFFFFF, 0x7FFFFFFF
    TEST_RR mulhu, 0x80000000, 0x80000000, 0x40000000
    TEST_RR mulhu, 3, 0xFFFFFFFB, 2
    TEST_RR mulhu, 0xFFFFFFFF, 1, 0
    /* ---- div: signed, rounds toward zero ------------------------------------------------ */
    TEST_RR div, 7, 2, 3
    TEST_RR div, 0xFFFFFFF9, 2, 0xFFFFFFFD              /* -7 / 2 = -3 */
    TEST_RR div, 7, 0xFFFFFFFE, 0xFFFFFFFD              /* 7 / -2 = -3 */
    TEST_RR div, 0xFFFFFFF9, 0xFFFFFFFE, 3              /* -7 / -2 = 3 */
    TEST_RR div, 0x80000000, 0xFFFFFFFF, 0x80000000     /* INT_MIN / -1 overflows */
    TEST_RR div, 0x80000000, 1, 0x80000000
    TEST_RR div, 0x80000000, 2, 0xC0000000
    TEST_RR div, 5, 0, 0xFFFFFFFF                       /* / 0 = -1 */
    TEST_RR div, 0xFFFFFFFB, 0, 0xFFFFFFFF
    TEST_RR div, 0, 0, 0xFFFFFFFF
    TEST_RR div, 1, 0xFFFFFFFF, 0xFFFFFFFF
    /* ---- divu ---------------------------------------------------------------------------- */
    TEST_RR divu, 7, 2, 3
    TEST_RR divu, 0xFFFFFFF9, 2, 0x7FFFFFFC
    TEST_RR divu, 0x80000000, 0xFFFFFFFF, 0
    TEST_RR divu, 0xFFFFFFFF, 1, 0xFFFFFFFF
    TEST_RR divu, 0xFFFFFFFF, 0xFFFFFFFF, 1
    TEST_RR divu, 5, 0, 0xFFFFFFFF                      /* / 0 = all ones */
    TEST_RR divu, 0, 0, 0xFFFFFFFF
    /* ---- rem: sign follows the dividend ------------------------------------------------- */
    TEST_RR rem, 7, 2, 1
    TEST_RR rem, 0xFFFFFFF9, 2, 0xFFFFFFFF              /* -7 % 2 = -1 */
    TEST_RR rem, 7, 0xFFFFFFFE, 1                       /* 7 % -2 = 1 */
    TEST_RR rem, 0xFFFFFFF9, 0xFFFFFFFE, 0xFFFFFFFF     /* -7 % -2 = -1 */
    TEST_RR rem, 0x80000000, 0xFFFFFFFF, 0              /* INT_MIN % -1 = 0 */
    TEST_RR rem, 0x80000000, 3, 0xFFFFFFFE              /* -2147483648 % 3 = -2 */
    TEST_RR rem, 5, 0, 5                                /* % 0 = dividend */
    TEST_RR rem, 0xFFFFFFFB, 0, 0xFFFFFFFB
    TEST_RR rem, 0x80000000, 0, 0x80000000
    /* ---- remu ---------------------------------------------------------------------------- */
    TEST_RR remu, 7, 2, 1
    TEST_RR remu, 0xFFFFFFF9, 2, 1
    TEST_RR remu, 0x80000000, 0xFFFFFFFF, 0x80000000
    TEST_RR remu, 0xFFFFFFFF, 0x10, 0xF
    TEST_RR remu, 5, 0, 5
    TEST_RR remu, 0xFFFFFFFF, 0, 0xFFFFFFFF
    /* ---- aliasing and x0 ---------------------------------------------------------------- */
    li a1, 0xFFFF
    mul a1, a1, a1                  /* rd == rs1 == rs2 */
    CHECK a1, 0xFFFE0001
    li a1, 100
    li a2, 7
    div a1, a1, a2
    CHECK a1, 14
    mul x0, a2, a2
    CHECK x0, 0
    divu x0, a2, a2
    CHECK x0, 0

    TEST_END
