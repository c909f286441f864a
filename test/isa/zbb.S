/* Zbb: every instruction, each on 0 and all-ones as well as ordinary values; rol/ror use only
 * rs2[4:0]. See isa.h for the protocol. */
#include "isa.h"

    TEST_BEGIN
    /* ---- andn / orn / xnor -------------------------------------------------------------- */
    TEST_RR andn, 0xFF00FF00, 0x0FF00FF0, 0xF000F000
    TEST_RR andn, 0, 0xFFFFFFFF, 0
    TEST_RR andn, 0xFFFFFFFF, 0, 0xFFFFFFFF
    TEST_RR andn, 0xFFFFFFFF, 0xFFFFFFFF, 0
    TEST_RR orn, 0xFF00FF00, 0x0FF00FF0, 0xFF0FFF0F
    TEST_RR orn, 0, 0, 0xFFFFFFFF
    TEST_RR orn, 0, 0xFFFFFFFF, 0
    TEST_RR orn, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF
    TEST_RR xnor, 0xFF00FF00, 0x0FF00FF0, 0x0F0F0F0F
    TEST_RR xnor, 0, 0, 0xFFFFFFFF
    TEST_RR xnor, 0, 0xFFFFFFFF, 0
    TEST_RR xnor, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF
    /* ---- clz / ctz / cpop --------------------------------------------------------------- */
    TEST_R1 clz, 0, 32
    TEST_R1 clz, 0xFFFFFFFF, 0
    TEST_R1 clz, 1, 31
    TEST_R1 clz, 0x80000000, 0
    TEST_R1 clz, 0x00010000, 15
    TEST_R1 clz, 0x0000FFFF, 16
    TEST_R1 ctz, 0, 32
    TEST_R1 ctz, 0xFFFFFFFF, 0
    TEST_R1 ctz, 0x80000000, 31
    TEST_R1 ctz, 1, 0
    TEST_R1 ctz, 0x00010000, 16
    TEST_R1 ctz, 0xFFFF0000, 16
    TEST_R1 cpop, 0, 0
    TEST_R1 cpop, 0xFFFFFFFF, 32
    TEST_R1 cpop, 0x80000001, 2
    TEST_R1 cpop, 0x12345678, 13
    TEST_R1 cpop, 0xF0F0F0F0, 16
    /* ---- max / maxu / min / minu -------------------------------------------------------- */
    TEST_RR max, 0xFFFFFFFF, 1, 1
    TEST_RR max, 0x80000000, 0x7FFFFFFF, 0x7FFFFFFF
    TEST_RR max, 0, 0xFFFFFFFF, 0
    TEST_RR max, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF
    TEST_RR maxu, 0xFFFFFFFF, 1, 0xFFFFFFFF
    TEST_RR maxu, 0x80000000, 0x7FFFFFFF, 0x80000000
    TEST_RR maxu, 0, 0, 0
    TEST_RR maxu, 0, 0xFFFFFFFF, 0xFFFFFFFF
    TEST_RR min, 0xFFFFFFFF, 1, 0xFFFFFFFF
    TEST_RR min, 0x80000000, 0x7FFFFFFF, 0x80000000
    TEST_RR min, 0, 0xFFFFFFFF, 0xFFFFFFFF
    TEST_RR min, 0, 0, 0
    TEST_RR minu, 0xFFFFFFFF, 1, 1
    TEST_RR minu, 0, 0xFFFFFFFF, 0
    TEST_RR minu, 0x80000000, 0x7FFFFFFF, 0x7FFFFFFF
    TEST_RR minu, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF
    /* ---- sext.b / sext.h / zext.h ------------------------------------------------------- */
    TEST_R1 sext.b, 0x80, 0xFFFFFF80
    TEST_R1 sext.b, 0x7F, 0x7F
    TEST_R1 sext.b, 0xFFFFFF00, 0
    TEST_R1 sext.b, 0, 0
    TEST_R1 sext.b, 0xFFFFFFFF, 0xFFFFFFFF
    TEST_R1 sext.b, 0x12345678, 0x78
    TEST_R1 sext.h, 0x8000, 0xFFFF8000
    TEST_R1 sext.h, 0x12347FFF, 0x7FFF
    TEST_R1 sext.h, 0xFFFFFFFF, 0xFFFFFFFF
    TEST_R1 sext.h, 0, 0
    TEST_R1 sext.h, 0xFFFF0000, 0
    TEST_R1 zext.h, 0xFFFFFFFF, 0xFFFF
    TEST_R1 zext.h, 0x12348765, 0x8765
    TEST_R1 zext.h, 0, 0
    /* ---- rol / ror / rori --------------------------------------------------------------- */
    TEST_RR rol, 0x80000001, 1, 3
    TEST_RR rol, 0x12345678, 4, 0x23456781
    TEST_RR rol, 0x12345678, 32, 0x12345678
    TEST_RR rol, 0x12345678, 36, 0x23456781
    TEST_RR rol, 0x12345678, 0xFFFFFFFC, 0x81234567   /* by 28 */
    TEST_RR rol, 0xFFFFFFFF, 13, 0xFFFFFFFF
    TEST_RR rol, 0, 5, 0
    TEST_RR ror, 0x80000001, 1, 0xC0000000
    TEST_RR ror, 0x12345678, 4, 0x81234567
    TEST_RR ror, 0x12345678, 32, 0x12345678
    TEST_RR ror, 0x12345678, 0x44, 0x81234567
    TEST_RR ror, 0x12345678, 0xFFFFFFF8, 0x34567812   /* by 24 */
    TEST_RR ror, 0xFFFFFFFF, 7, 0xFFFFFFFF
    TEST_RR ror, 0, 9, 0
    TEST_RI rori, 0x12345678, 4, 0x81234567
    TEST_RI rori, 0x12345678, 0, 0x12345678
    TEST_RI rori, 0x80000001, 31, 3
    TEST_RI rori, 0xFFFFFFFF, 16, 0xFFFFFFFF
    TEST_RI rori, 0, 3, 0
    /* ---- orc.b / rev8 ------------------------------------------------------------------- */
    TEST_R1 orc.b, 0x00010200, 0x00FFFF00
    TEST_R1 orc.b, 0, 0
    TEST_R1 orc.b, 0xFFFFFFFF, 0xFFFFFFFF
    TEST_R1 orc.b, 0x80000001, 0xFF0000FF
    TEST_R1 orc.b, 0x01020304, 0xFFFFFFFF
    TEST_R1 rev8, 0x12345678, 0x78563412
    TEST_R1 rev8, 0, 0
    TEST_R1 rev8, 0xFFFFFFFF, 0xFFFFFFFF
    TEST_R1 rev8, 0x000000FF, 0xFF000000
    /* ---- aliasing and x0 ---------------------------------------------------------------- */
    li a1, 0x00F0
    clz a1, a1
    CHECK a1, 24
    li a1, 0x12345678
    rev8 a1, a1
    CHECK a1, 0x78563412
    li a1, 0xFFFFFFFF
    cpop x0, a1
    CHECK x0, 0
    TEST_END
