/* Zicsr: csrrw/csrrs/csrrc/csrrwi/csrrsi/csrrci on Blackhole's read/write scratch CSRs
 * 0x7C1..0x7C6 (CSR_S1..CSR_S6 in isa.h; qemu substitutes its own full-width scratch CSRs):
 * old value returned, new value stored, rs1 = x0 / uimm = 0 do not write, rd = x0 still writes,
 * uimm is zero-extended. Also mhartid = 0 and mcycle/minstret/cycle/instret counting up (only the
 * comparison is recorded, so the signature does not depend on timing). The Blackhole-only fixed
 * values (misa, mstatus, cfg0) are in csr_tile.S. See isa.h for the protocol. */
#include "isa.h"

/* CSR_DELTA_OK csr: reads csr twice around a few instructions and records (1, 0) when the
 * difference is in 1..0x7FFFFFFF. */
.macro CSR_DELTA_OK csr
    csrr a1, \csr
    nop
    nop
    nop
    nop
    csrr a2, \csr
    sub a0, a2, a1
    snez a3, a0
    CHECK a3, 1
    srli a3, a0, 31
    CHECK a3, 0
.endm

    TEST_BEGIN

    /* ---- csrrw -------------------------------------------------------------------------- */
    li a1, 0xA5A5A5A5
    csrw CSR_S1, a1                 /* csrrw x0: writes */
    li a1, 0x12345678
    csrrw a0, CSR_S1, a1
    CHECK a0, 0xA5A5A5A5
    csrr a0, CSR_S1
    CHECK a0, 0x12345678
    csrrw a0, CSR_S1, x0
    CHECK a0, 0x12345678
    csrr a0, CSR_S1
    CHECK a0, 0
    li a0, 0x0F0F0F0F
    csrrw a0, CSR_S1, a0            /* rd == rs1: swap */
    CHECK a0, 0
    csrr a0, CSR_S1
    CHECK a0, 0x0F0F0F0F
    li a1, 0xFFFFFFFF
    csrrw x0, CSR_S1, a1
    csrr x0, CSR_S1                 /* read into x0 is discarded */
    CHECK x0, 0
    csrr a0, CSR_S1
    CHECK a0, 0xFFFFFFFF

    /* ---- csrrs -------------------------------------------------------------------------- */
    li a1, 0xF0F0F0F0
    csrw CSR_S2, a1
    li a1, 0x0000FFFF
    csrrs a0, CSR_S2, a1
    CHECK a0, 0xF0F0F0F0
    csrr a0, CSR_S2
    CHECK a0, 0xF0F0FFFF
    csrrs a0, CSR_S2, x0            /* rs1 = x0: read only */
    CHECK a0, 0xF0F0FFFF
    li a2, 0x0F000000
    csrrs x0, CSR_S2, a2            /* rd = x0: still sets */
    csrr a0, CSR_S2
    CHECK a0, 0xFFF0FFFF
    li a2, 0
    csrrs a0, CSR_S2, a2            /* rs1 != x0 but zero: no change */
    CHECK a0, 0xFFF0FFFF
    csrr a0, CSR_S2
    CHECK a0, 0xFFF0FFFF

    /* ---- csrrc -------------------------------------------------------------------------- */
    li a1, 0xFFFFFFFF
    csrw CSR_S3, a1
    li a1, 0x0F0F0F0F
    csrrc a0, CSR_S3, a1
    CHECK a0, 0xFFFFFFFF
    csrr a0, CSR_S3
    CHECK a0, 0xF0F0F0F0
    csrrc a0, CSR_S3, x0
    CHECK a0, 0xF0F0F0F0
    li a2, 0xF0000000
    csrrc x0, CSR_S3, a2
    csrr a0, CSR_S3
    CHECK a0, 0x00F0F0F0

    /* ---- csrrwi (uimm zero-extended) ---------------------------------------------------- */
    li a1, 0xFFFFFFFF
    csrw CSR_S4, a1
    csrrwi a0, CSR_S4, 31
    CHECK a0, 0xFFFFFFFF
    csrr a0, CSR_S4
    CHECK a0, 0x1F
    csrrwi a0, CSR_S4, 0            /* uimm = 0 still writes */
    CHECK a0, 0x1F
    csrr a0, CSR_S4
    CHECK a0, 0
    csrrwi x0, CSR_S4, 0x10
    csrr a0, CSR_S4
    CHECK a0, 0x10

    /* ---- csrrsi -------------------------------------------------------------------------- */
    li a1, 0x80000000
    csrw CSR_S5, a1
    csrrsi a0, CSR_S5, 0x11
    CHECK a0, 0x80000000
    csrr a0, CSR_S5
    CHECK a0, 0x80000010 | 0x1
    csrrsi a0, CSR_S5, 0            /* uimm = 0: read only */
    CHECK a0, 0x80000011
    csrrsi x0, CSR_S5, 0x1E
    csrr a0, CSR_S5
    CHECK a0, 0x8000001F

    /* ---- csrrci -------------------------------------------------------------------------- */
    li a1, 0xFFFFFFFF
    csrw CSR_S6, a1
    csrrci a0, CSR_S6, 0x15
    CHECK a0, 0xFFFFFFFF
    csrr a0, CSR_S6
    CHECK a0, 0xFFFFFFEA
    csrrci a0, CSR_S6, 0
    CHECK a0, 0xFFFFFFEA
    csrrci x0, CSR_S6, 0x1F
    csrr a0, CSR_S6
    CHECK a0, 0xFFFFFFE0

    /* ---- the six scratch CSRs are distinct registers ------------------------------------ */
    li a1, 0x11111111
    csrw CSR_S1, a1
    li a1, 0x22222222
    csrw CSR_S2, a1
    li a1, 0x33333333
    csrw CSR_S3, a1
    li a1, 0x44444444
    csrw CSR_S4, a1
    li a1, 0x55555554
    csrw CSR_S5, a1
    li a1, 0x66666666
    csrw CSR_S6, a1
    csrr a0, CSR_S1
    CHECK a0, 0x11111111
    csrr a0, CSR_S2
    CHECK a0, 0x22222222
    csrr a0, CSR_S3
    CHECK a0, 0x33333333
    csrr a0, CSR_S4
    CHECK a0, 0x44444444
    csrr a0, CSR_S5
    CHECK a0, 0x55555554
    csrr a0, CSR_S6
    CHECK a0, 0x66666666

    /* ---- mhartid and the counters ------------------------------------------------------- */
    li a0, 0x5A5A
    csrr a0, mhartid
    CHECK a0, 0
    CSR_DELTA_OK mcycle
    CSR_DELTA_OK minstret
    CSR_DELTA_OK cycle
    CSR_DELTA_OK instret

    TEST_END
