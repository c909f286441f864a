/* Blackhole-only CSR values (no qemu counterpart: the name contains "tile"): misa, mstatus and
 * mhartid read their fixed values, cfg0 (0x7C0) comes out of reset as 0x00020000 (StMergeTimer
 * = 16) and keeps bits written with csrrs/csrrc, and the scratch CSRs 0x7C1..0x7C6 hold all 32
 * bits. See isa.h for the protocol; TENSIX.md §1.3 for the values. */
#include "isa.h"

    TEST_BEGIN

    csrr a0, 0x7C0                  /* cfg0 at reset, before anything touches it */
    CHECK a0, 0x00020000
    csrr a0, misa
    CHECK a0, 0x40201123
    csrr a0, mstatus
    CHECK a0, 0x80006600
    csrr a0, mhartid
    CHECK a0, 0
    csrrsi a0, 0x7C0, 8             /* DisLowCash, as the firmware does */
    CHECK a0, 0x00020000
    csrr a0, 0x7C0
    CHECK a0, 0x00020008
    li a1, 1 << 18                  /* DisTriscCache */
    csrrs a0, 0x7C0, a1
    CHECK a0, 0x00020008
    csrrc a0, 0x7C0, a1
    CHECK a0, 0x00060008
    csrrci a0, 0x7C0, 8
    CHECK a0, 0x00020008
    csrr a0, 0x7C0
    CHECK a0, 0x00020000

    li a1, 0xFFFFFFFF
    csrw 0x7C1, a1
    csrr a0, 0x7C1
    CHECK a0, 0xFFFFFFFF
    csrw 0x7C2, a1
    csrr a0, 0x7C2
    CHECK a0, 0xFFFFFFFF
    csrw 0x7C3, a1
    csrr a0, 0x7C3
    CHECK a0, 0xFFFFFFFF
    csrw 0x7C4, a1
    csrr a0, 0x7C4
    CHECK a0, 0xFFFFFFFF
    csrw 0x7C5, a1
    csrr a0, 0x7C5
    CHECK a0, 0xFFFFFFFF
    csrw 0x7C6, a1
    csrr a0, 0x7C6
    CHECK a0, 0xFFFFFFFF
    csrw 0x7C1, zero                /* back to zero: pmacfg0/1 bit 0 only adds fences */
    csrr a0, 0x7C1
    CHECK a0, 0
    csrw 0x7C2, zero
    csrr a0, 0x7C2
    CHECK a0, 0

    TEST_END
