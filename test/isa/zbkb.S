/* Zbkb subset on Blackhole: pack (rs2[15:0] << 16 | rs1[15:0]) and brev8 (bit order reversed
 * within each byte). packh/zip/unzip are not implemented (see faults/). See isa.h. */
#include "isa.h"

    TEST_BEGIN
    TEST_RR pack, 0x12345678, 0x9ABCDEF0, 0xDEF05678
    TEST_RR pack, 0, 0, 0
    TEST_RR pack, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF
    TEST_RR pack, 0xFFFF0000, 0x0000FFFF, 0xFFFF0000
    TEST_RR pack, 0xFFFFFFFF, 0, 0x0000FFFF
    TEST_RR pack, 0, 0xFFFFFFFF, 0xFFFF0000
    TEST_R1 brev8, 0x01020380, 0x8040C001
    TEST_R1 brev8, 0, 0
    TEST_R1 brev8, 0xFFFFFFFF, 0xFFFFFFFF
    TEST_R1 brev8, 0x12345678, 0x482C6A1E
    TEST_R1 brev8, 0x0F0F0F0F, 0xF0F0F0F0
    li a1, 0xABCD
    pack a1, a1, a1                 /* rd == rs1 == rs2 */
    CHECK a1, 0xABCDABCD
    brev8 x0, a1
    CHECK x0, 0
    TEST_END
