/* Zba: sh1add/sh2add/sh3add = (rs1 << n) + rs2, wrapping at 32 bits. See isa.h. */
#include "isa.h"

    TEST_BEGIN
    TEST_RR sh1add, 5, 3, 13
    TEST_RR sh1add, 0x80000000, 1, 1                  /* shifted-out bit is lost */
    TEST_RR sh1add, 0xFFFFFFFF, 0, 0xFFFFFFFE
    TEST_RR sh1add, 0x40000000, 0x80000000, 0         /* sum wraps */
    TEST_RR sh1add, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFD
    TEST_RR sh1add, 0, 0, 0
    TEST_RR sh2add, 5, 3, 23
    TEST_RR sh2add, 0x40000000, 7, 7
    TEST_RR sh2add, 0xFFFFFFFF, 0, 0xFFFFFFFC
    TEST_RR sh2add, 0x12345678, 0x11111111, 0x59E26AF1
    TEST_RR sh2add, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFB
    TEST_RR sh3add, 5, 3, 43
    TEST_RR sh3add, 0x20000000, 5, 5
    TEST_RR sh3add, 0xFFFFFFFF, 0, 0xFFFFFFF8
    TEST_RR sh3add, 0x12345678, 1, 0x91A2B3C1
    TEST_RR sh3add, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFF7
    li a1, 3
    sh3add a1, a1, a1               /* rd == rs1 == rs2: 24 + 3 */
    CHECK a1, 27
    sh1add x0, a1, a1
    CHECK x0, 0
    TEST_END
