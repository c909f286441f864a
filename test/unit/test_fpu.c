/* test/unit/test_fpu.c — the Matrix Unit's arithmetic, instruction by instruction, exact bits:
 * ELWADD, ELWSUB, ELWMUL (accumulate, broadcasts, fidelity phases, integer "8"), MVMUL, DOTPV,
 * GAPOOL (the two groups of eight products, fidelity phases, FP32 accumulation, integer "8"),
 * GMPOOL (scaling, -inf identity, argmax), TRNSPSRCB, SHIFTXA, SHIFTXB, and the refusals.
 *
 * Every expected value is worked out by hand in the comment beside it from the rules
 * coproc/fpu_num.h states (the ISA pages' models, with ttsim's documented arithmetic where the
 * pages say theirs is a rough guide): operands are sign, exponent, 11-bit mantissa; a product of
 * the multipliers' 5 x 7 bits (or a sum of 12 bits) enters the accumulator as man << 13 with 1.0 =
 * 1 << 23; alignment rounds half up; a 16-bit Dst keeps 11 bits of each term and rounds the result
 * to 8 (BF16) bits half away from zero. Dst cells are written out in Dst.md's layouts here, not
 * through the formats library. Two tests are not by hand: MVMUL's fast forms (fpu_mop_a_rows,
 * fpu_mop_b_row, fpu_dot16_rows) against the general ones (fpu_mop_a, fpu_mop_b, fpu_dot16) on
 * random operands. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "coproc/fpu_num.h"
#include "dp_fixture.h"

/* SrcA and SrcB banks 0 (the Matrix Unit's after reset) in format fmt. */
static void formats(fx_t *f, unsigned fmt) {
    dp_srca_mut(f->dp)->implied_fmt[0] = (uint8_t)fmt;
    dp_srcb_mut(f->dp)->implied_fmt[0] = (uint8_t)fmt;
}
static uint32_t *A(fx_t *f, unsigned r) { return dp_src_rows_w(dp_srca_mut(f->dp), 0)[r]; }
static uint32_t *B(fx_t *f, unsigned r) { return dp_src_rows_w(dp_srcb_mut(f->dp), 0)[r]; }

/* ---- ELWADD / ELWSUB --------------------------------------------------------------------------- */

/* BF16 operands into a BF16 Dst (ELWADD.md): sums rounded half away from zero, special values as
 * numbers of the largest exponent, exponent-0 operands as zero. */
static void test_elwadd_bf16(void **state) {
    fx_t *f = *state;
    formats(f, FMT_BF16);
    static const uint16_t a[] = {0x3F80, 0x3F80, 0xBF80, 0x7F80, 0x7FC0, 0x0001, 0x8000, 0x7F7F, 0x3F80, 0xBF80};
    static const uint16_t b[] = {0x4000, 0x3B80, 0x3B80, 0x3F80, 0x3F80, 0x3F80, 0x8000, 0x7F7F, 0xBF80, 0xBB80};
    /* 1 + 2 = 3: 2.0 aligns 1.0 by one bit: 0x400 + 0x200 = 0x600, << 13 = 0xC00000 at exponent 128;
     * rounded to 8 bits: 0xC0 -> 0x40400000.
     * 1 + 2^-8: 0x400 + ((0x400 + 0x80) >> 8 = 4) = 0x404 -> 0x808000, rounded (+0x8000) >> 16 = 0x81:
     *   the tie goes away from zero, 0x3F81 (IEEE's nearest-even would give 0x3F80).
     * -1 + 2^-8: 0x400 - 4 = 0x3FC -> 0x7F8000, one bit of normalisation (exponent 126), 8 bits
     *   0xFF: -(1 - 2^-8) = 0xBF7F, exact.
     * Inf + 1: exponent 255, 1.0 shifted out: 255 -> +Inf. NaN (0x7FC0) + 1: a number of exponent
     *   255 -> +Inf. A denormal is zero: 0 + 1 = 1. -0 + -0 = +0 (cancellation and zero give +0).
     * max + max = 0xFF0 << 13, exponent 255 after normalising -> +Inf. 1 + -1 = +0.
     * -1 + -2^-8 = -(1 + 2^-8) -> the tie away from zero: 0xBF81. */
    static const uint16_t want[] = {0x4040, 0x3F81, 0xBF7F, 0x7F80, 0x7F80, 0x3F80, 0x0000, 0x7F80, 0x0000, 0xBF81};
    for (unsigned j = 0; j < 10; j++) {
        A(f, 0)[j] = src_bf16(a[j]);
        B(f, 0)[j] = src_bf16(b[j]);
    }
    dst_regs_t *d = dp_dst_mut(f->dp);
    d->bits[0][0] = 0x1234;                  /* ELWADD without AddDst overwrites */
    st_thdcfg_w(&f->st, 0, 12, 8 | 8u << 8); /* ADDR_MOD_AB_SEC0: SrcA += 8, SrcB += 8 */
    st_thdcfg_w(&f->st, 0, 28, 8);           /* ADDR_MOD_DST_SEC0: Dst += 8 */
    fx_ex(f, TT_OP_ELWADD(0, 0, 0, 0, 0));
    for (unsigned j = 0; j < 10; j++)
        assert_int_equal(dst16(f, 0, j), cell_bf16(want[j]));
    assert_int_equal(dst16(f, 1, 0), 0); /* rows 1..7: 0 + 0 */
    const rwc_t *r = dp_rwc(f->dp, 0);
    assert_int_equal(r->srca, 8);
    assert_int_equal(r->srcb, 8);
    assert_int_equal(r->dst, 8);
    /* AddDst: Dst += SrcA + SrcB, on rows 8..15 of both and Dst (the RWCs). 0.5 + 0.25 + 3.0: the
     * sum 0.75 (0x600 << 13 at exponent 126) and Dst 3.0 (0xC00000 at 128): aligned by 2 ->
     * 0x300000, + 0xC00000 = 0xF00000 -> 3.75 = 0x4070. */
    A(f, 8)[3] = src_bf16(0x3F00);
    B(f, 8)[3] = src_bf16(0x3E80);
    d->bits[8][3] = cell_bf16(0x4040);
    fx_ex(f, TT_OP_ELWADD(0, 1, 0, 0, 0));
    assert_int_equal(dst16(f, 8, 3), cell_bf16(0x4070));
    /* A Dst row ZEROACC left invalid reads as zero: 0.5 + 0.25 + (0) = 0.75 = 0x3F40. */
    fx_ex(f, TT_OP_SETRWC(0, 0, 0, 0, 0, 7));
    fx_ex(f, TT_OP_ZEROACC(0, 0, 0, 0, 8)); /* row 8; its AddrMod 0 moves the RWCs to 8 */
    d->bits[8][3] = cell_bf16(0x4040);      /* contents of an invalid row: not read */
    fx_ex(f, TT_OP_ELWADD(0, 1, 0, 0, 0));
    assert_int_equal(dst16(f, 8, 3), cell_bf16(0x3F40));
}

/* ELWSUB: SrcA - SrcB (the sign of SrcB flipped first); column and row broadcasts of SrcB. */
static void test_elwsub_bcast(void **state) {
    fx_t *f = *state;
    formats(f, FMT_BF16);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 16; j++) {
            A(f, i)[j] = src_bf16(0x4040); /* 3.0 */
            B(f, i)[j] = src_bf16(0x3F80); /* 1.0 */
        }
    B(f, 0)[0] = src_bf16(0x4040); /* 3.0 in SrcB[0][0] */
    /* Column 0 broadcast (instr_mod19 = 1): every datum subtracts SrcB[row][0]: row 0 3 - 3 = +0,
     * rows 1..7 3 - 1 = 2. */
    fx_ex(f, TT_OP_ELWSUB(0, 0, 1, 0, 0));
    for (unsigned j = 0; j < 16; j++) {
        assert_int_equal(dst16(f, 0, j), 0);
        assert_int_equal(dst16(f, 5, j), cell_bf16(0x4000));
    }
    /* Row broadcast (instr_mod19 = 2) of SrcB row 1 (SrcB RWC 1: BroadcastSrcBRow takes any row):
     * every row 3 - 1 = 2, into Dst rows 16..23 (DstRow field 16). */
    fx_ex(f, TT_OP_SETRWC(0, 0, 0, 1, 0, 2));
    fx_ex(f, TT_OP_ELWSUB(0, 0, 2, 0, 16));
    for (unsigned i = 16; i < 24; i++)
        assert_int_equal(dst16(f, i, 0), cell_bf16(0x4000));
    /* Both (3): SrcB[1][0] = 1.0 everywhere. */
    fx_ex(f, TT_OP_ELWSUB(0, 0, 3, 0, 32));
    assert_int_equal(dst16(f, 39, 15), cell_bf16(0x4000));
}

/* FP32 Dst (ALU_ACC_CTRL_Fp32_enabled): no 11-bit cut, full FP32 results; FP16 operands into FP16
 * and FP32 Dst. */
static void test_elwadd_fp32_fp16(void **state) {
    fx_t *f = *state;
    formats(f, FMT_BF16);
    FX_CFG(f, ALU_ACC_CTRL_Fp32_enabled, 1);
    A(f, 0)[0] = src_bf16(0x3F80), B(f, 0)[0] = src_bf16(0x3F80);
    A(f, 0)[1] = src_bf16(0x3F80), B(f, 0)[1] = 0;
    put_dst32(f, 0, 0, 0x3F800000u);
    put_dst32(f, 0, 1, 0x3F800008u);
    /* Col 0: 1 + 1 = 0x800 << 13 = 0x1000000 at 127, + Dst 0x800000 = 0x1800000, one bit right:
     * (0x1800000 + 1) >> 1 = 0xC00000 at 128 -> 3.0.
     * Col 1: 1 + 0 = 0x800000 + Dst (1 + 2^-20) 0x800008 = 0x1000008 -> 0x800004 at 128:
     * 2 + 2^-20 = 0x40000004, every bit kept. */
    fx_ex(f, TT_OP_ELWADD(0, 1, 0, 0, 0));
    assert_int_equal(dst32(f, 0, 0), 0x40400000u);
    assert_int_equal(dst32(f, 0, 1), 0x40000004u);

    /* FP16 style: 1 + 2 in a 16-bit FP16 Dst: exponent 16, 0x600 << 13 kept to 11 bits -> fp16
     * 3.0 (0x4200). */
    FX_CFG(f, ALU_ACC_CTRL_Fp32_enabled, 0);
    formats(f, FMT_FP16);
    A(f, 0)[2] = src_fp16(0x3C00), B(f, 0)[2] = src_fp16(0x4000);
    fx_ex(f, TT_OP_ELWADD(0, 0, 0, 0, 8));
    assert_int_equal(dst16(f, 8, 2), cell_fp16(0x4200));
    /* ... into an FP32 Dst the exponent is rebiased by 112: 3.0 = 0x40400000. */
    FX_CFG(f, ALU_ACC_CTRL_Fp32_enabled, 1);
    fx_ex(f, TT_OP_ELWADD(0, 0, 0, 0, 16));
    assert_int_equal(dst32(f, 16, 2), 0x40400000u);
    /* An FP16 SrcA with a BF16 SrcB is no listed combination. */
    dp_srcb_mut(f->dp)->implied_fmt[0] = FMT_BF16;
    assert_int_equal(fx_run(f, 0, TT_OP_ELWADD(0, 0, 0, 0, 0)), CP_ERR_UNSUPPORTED);
}

/* ELWMUL with the four fidelity phases (SrcASrcB.md): a = b = 1 + 2^-7 (mantissa bit 3 of 10).
 * Phase 0: a's top five bits 16 x b's top seven 64 = 1024 << 13 = 0x800000 at 127: 1.0.
 * Phase 1: a's next five (0x408 >> 1) & 31 = 4, x 64 = 256 -> 0x200000 at 127 - 5: 2^-7.
 * Phase 2: 16 x b's low four (8 << 3 = 64) = 1024 -> 0x800000 at 127 - 7: 2^-7.
 * Phase 3: 4 x 64 = 256 -> 0x200000 at 127 - 12: 2^-14.
 * BF16 Dst: 1.0, then 1 + 2^-7 (0x200000 aligned by 5 = 0x10000), then 1 + 2^-6, then the 2^-14
 * term aligned by 12 is 0x200, which the 11-bit cut drops: 0x3F82.
 * FP32 Dst keeps it: 0x3F820200 = 1 + 2^-6 + 2^-14, the exact square. */
static void test_elwmul_fidelity(void **state) {
    fx_t *f = *state;
    formats(f, FMT_BF16);
    A(f, 0)[0] = src_bf16(0x3F81), B(f, 0)[0] = src_bf16(0x3F81);
    st_thdcfg_w(&f->st, 0, 28, 1u << 13); /* ADDR_MOD_DST_SEC0: fidelity += 1 */
    static const uint16_t bf16_after[4] = {0x3F80, 0x3F81, 0x3F82, 0x3F82};
    for (unsigned p = 0; p < 4; p++) {
        fx_ex(f, TT_OP_ELWMUL(0, 0, 0, 0, 0)); /* dest_accum_en 0: ELWMUL accumulates anyway */
        assert_int_equal(dst16(f, 0, 0), cell_bf16(bf16_after[p]));
    }
    assert_int_equal(dp_rwc(f->dp, 0)->fidelity, 0); /* 4 phases wrap */
    FX_CFG(f, ALU_ACC_CTRL_Fp32_enabled, 1);
    static const uint32_t fp32_after[4] = {0x3F800000u, 0x3F810000u, 0x3F820000u, 0x3F820200u};
    for (unsigned p = 0; p < 4; p++) {
        fx_ex(f, TT_OP_ELWMUL(0, 0, 0, 0, 8));
        assert_int_equal(dst32(f, 8, 0), fp32_after[p]);
    }
    /* FIDELITY_BASE_Phase is added to the counter: base 3 with counter 0 is phase 3 alone. */
    st_thdcfg_w(&f->st, 0, 28, 0);
    FX_THCFG(f, FIDELITY_BASE_Phase, 3);
    fx_ex(f, TT_OP_ELWMUL(0, 0, 0, 0, 16));
    assert_int_equal(dst32(f, 16, 0), 0x38800000u); /* 2^-14 */
    FX_THCFG(f, FIDELITY_BASE_Phase, 0);
    /* FP16 operands into FP32: 1.5 x 1.5: 24 x 96 = 2304 << 13 = 0x1200000 at 15 + 15 + 97 = 127,
     * normalised one bit right: 0x900000 at 128 = 2.25. */
    formats(f, FMT_FP16);
    A(f, 0)[1] = src_fp16(0x3E00), B(f, 0)[1] = src_fp16(0x3E00);
    fx_ex(f, TT_OP_ZEROACC(3, 0, 0, 0, 0));
    fx_ex(f, TT_OP_ELWMUL(0, 0, 0, 0, 24));
    assert_int_equal(dst32(f, 24, 1), 0x40100000u);
    /* Underflow: 2^-126 x 0.5 (BF16): exponent 1 + 126 - 127 = 0 -> a zero term: +0. */
    formats(f, FMT_BF16);
    FX_CFG(f, ALU_ACC_CTRL_Fp32_enabled, 0);
    A(f, 0)[2] = src_bf16(0x0080), B(f, 0)[2] = src_bf16(0x3F00);
    fx_ex(f, TT_OP_ELWMUL(0, 0, 0, 0, 32));
    assert_int_equal(dst16(f, 32, 2), 0);
}

/* Integer "8" operands, integer "32" Dst (ALU_ACC_CTRL_INT8_math_enabled; ELWADD.md, ELWMUL.md). */
static void test_elw_int8(void **state) {
    fx_t *f = *state;
    FX_CFG(f, ALU_ACC_CTRL_INT8_math_enabled, 1);
    A(f, 0)[0] = src_int8(-5), B(f, 0)[0] = src_int8(3);
    A(f, 0)[1] = src_int8(100), B(f, 0)[1] = src_int8(100);
    fx_ex(f, TT_OP_ELWADD(0, 0, 0, 0, 0));         /* -5 + 3 = -2; 200 */
    assert_int_equal(dst32(f, 0, 0), 0x80000002u); /* sign-magnitude */
    assert_int_equal(dst32(f, 0, 1), 200u);
    fx_ex(f, TT_OP_ELWSUB(0, 1, 0, 0, 0)); /* += -5 - 3: -10; 200 + 0 */
    assert_int_equal(dst32(f, 0, 0), 0x8000000Au);
    /* Saturation at 2^31 - 1. */
    put_dst32(f, 0, 1, 0x7FFFFFF0u);
    fx_ex(f, TT_OP_ELWADD(0, 1, 0, 0, 0));
    assert_int_equal(dst32(f, 0, 1), 0x7FFFFFFFu);
    /* ELWMUL 100 x 100 over four phases (the pages' masks): A's bits 5..7 (96) or 0..4 (4), B's
     * bits 4..9 (96) or 0..3 (4): 9216 + 384 + 384 + 16 = 10000. */
    st_thdcfg_w(&f->st, 0, 28, 1u << 13);
    static const uint32_t after[4] = {9216, 9600, 9984, 10000};
    for (unsigned p = 0; p < 4; p++) {
        fx_ex(f, TT_OP_ELWMUL(0, 0, 0, 0, 8));
        assert_int_equal(dst32(f, 8, 1), after[p]);
    }
}

/* ---- MVMUL / DOTPV / GAPOOL -------------------------------------------------------------------- */

/* Dst[i][j] += sum_k SrcB[i][k] * SrcA[k][j] (MVMUL.md). */
static void test_mvmul(void **state) {
    fx_t *f = *state;
    formats(f, FMT_BF16);
    FX_CFG(f, ALU_ACC_CTRL_Fp32_enabled, 1);
    /* SrcA = the identity: Dst = SrcB (every product but one is zero; one group holds it). Phase 0
     * multiplies SrcB's implicit one and top six mantissa bits: SrcB values whose seventh bit is 0
     * (1.0 + n 2^-6, n = 16 i + k, over two exponents) come through exactly: 16 x b7. */
    for (unsigned k = 0; k < 16; k++)
        A(f, k)[k] = src_bf16(0x3F80);
    uint16_t bv[8][16];
    for (unsigned i = 0; i < 8; i++)
        for (unsigned k = 0; k < 16; k++) {
            unsigned n = 16 * i + k;
            bv[i][k] = (uint16_t)(0x3F80 + (n >> 6) * 0x80 + (n & 63) * 2);
            B(f, i)[k] = src_bf16(bv[i][k]);
        }
    fx_ex(f, TT_OP_MVMUL(0, 0, 0, 0));
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 16; j++)
            assert_int_equal(dst32(f, i, j), (uint32_t)bv[i][j] << 16);
    /* ... and the seventh bit is phase 2's (SrcB's low four bits): 1 + 2^-7 reads as 1.0. */
    B(f, 0)[0] = src_bf16(0x3F81);
    /* Accumulating: again, 2 x the value (exact). */
    fx_ex(f, TT_OP_MVMUL(0, 0, 0, 0));
    assert_int_equal(dst32(f, 0, 0), 0x40000000u);                                /* check_fields: not a field */
    assert_int_equal(dst32(f, 7, 15), ((uint32_t)bv[7][15] << 16) + 0x00800000u); /* x 2: exponent + 1 */
    /* The eight products of a group align to the largest, rounding half up: 1.0 (1024 at e) with
     * 1.5 x 2^-10 (24 x 64 = 1536 at e - 10: ((1536 << 1) + 2^10) >> 11 = 2) in column 0, row 0:
     * 1026 << 13 = 0x804000 -> 1 + 2^-9 = 0x3F804000 (the exact sum is 0x3F803000). */
    fx_ex(f, TT_OP_ZEROACC(3, 0, 0, 0, 0));
    memset(dp_src_rows_w(dp_srca_mut(f->dp), 0), 0, sizeof dp_srca_mut(f->dp)->d[0]);
    memset(dp_src_rows_w(dp_srcb_mut(f->dp), 0), 0, sizeof dp_srcb_mut(f->dp)->d[0]);
    A(f, 0)[0] = src_bf16(0x3F80), B(f, 0)[0] = src_bf16(0x3F80);
    A(f, 1)[0] = src_bf16(0x3FC0), B(f, 0)[1] = src_bf16(0x3A80); /* 1.5, 2^-10 */
    /* Column 1: the same pair split over the two groups (k = 0 and k = 8): each group exact, the
     * accumulator aligns 0xC00000 at 117 to 127 by 10: (0xC00000 + 2^9) >> 10 = 0x3000:
     * 0x803000 = 0x3F803000 exactly. */
    A(f, 0)[1] = src_bf16(0x3F80), A(f, 8)[1] = src_bf16(0x3FC0);
    B(f, 0)[8] = src_bf16(0x3A80);
    fx_ex(f, TT_OP_MVMUL(0, 0, 0, 0));
    assert_int_equal(dst32(f, 0, 0), 0x3F804000u);
    assert_int_equal(dst32(f, 0, 1), 0x3F803000u);
    /* A BF16 Dst: all-ones SrcA and SrcB rows of 1.0 sum to 16. */
    FX_CFG(f, ALU_ACC_CTRL_Fp32_enabled, 0);
    for (unsigned k = 0; k < 16; k++)
        for (unsigned j = 0; j < 16; j++)
            A(f, k)[j] = src_bf16(0x3F80);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned k = 0; k < 16; k++)
            B(f, 8 + i)[k] = src_bf16(0x3F80);
    fx_ex(f, TT_OP_SETRWC(0, 0, 0, 8, 0, 3)); /* SrcA rows 0..15, SrcB rows 8..15 */
    fx_ex(f, TT_OP_MVMUL(0, 0, 0, 64));
    assert_int_equal(dst16(f, 64, 0), cell_bf16(0x4180));
    assert_int_equal(dst16(f, 71, 15), cell_bf16(0x4180));
    /* DOTPV is MVMUL without the broadcast; GAPOOL writes four rows, Dst aligned to four. */
    fx_ex(f, TT_OP_DOTPV(0, 0, 0, 0, 80));
    assert_int_equal(dst16(f, 87, 3), cell_bf16(0x4180));
    fx_ex(f, TT_OP_GAPOOL(0, 1, 0, 0, 100)); /* 100 & 0x3FC = 100: rows 100..103 */
    assert_int_equal(dst16(f, 100, 0), cell_bf16(0x4180));
    assert_int_equal(dst16(f, 103, 15), cell_bf16(0x4180));
    assert_int_equal(dst16(f, 104, 0), 0);
    /* MVMUL's row broadcast: SrcB row (RWC 8 + 0) for rows 0, 2, 4, 6 of a block aligned by the
     * mask 0x3F9 (0x400 - 7): DstRow 128 -> rows 128, 130, 132, 134; 129 untouched. */
    B(f, 8)[0] = src_bf16(0x4000); /* 2 + 15 = 17 */
    dp_dst_mut(f->dp)->bits[129][0] = 0x1234;
    fx_ex(f, TT_OP_MVMUL(0, 1, 0, 128));
    assert_int_equal(dst16(f, 128, 0), cell_bf16(0x4188));
    assert_int_equal(dst16(f, 134, 0), cell_bf16(0x4188));
    assert_int_equal(dst16(f, 129, 0), 0x1234);
}

/* MVMUL fidelity phases: a = 1 + 2^-7 (SrcA), b = 1 + 2^-7 (SrcB) at k = 0, everything else zero;
 * the four phases as for ELWMUL: FP32 Dst 1.0, 1 + 2^-7, 1 + 2^-6, 1 + 2^-6 + 2^-14. */
static void test_mvmul_fidelity(void **state) {
    fx_t *f = *state;
    formats(f, FMT_BF16);
    FX_CFG(f, ALU_ACC_CTRL_Fp32_enabled, 1);
    A(f, 0)[0] = src_bf16(0x3F81), B(f, 0)[0] = src_bf16(0x3F81);
    st_thdcfg_w(&f->st, 0, 28, 1u << 13);
    static const uint32_t after[4] = {0x3F800000u, 0x3F810000u, 0x3F820000u, 0x3F820200u};
    for (unsigned p = 0; p < 4; p++) {
        fx_ex(f, TT_OP_MVMUL(0, 0, 0, 0));
        assert_int_equal(dst32(f, 0, 0), after[p]);
    }
    /* TF32 operands keep all ten mantissa bits: SrcA 1 + 2^-10 in phase 1 gives a's bits 5..1 =
     * (0x401 >> 1) & 31 = 0: the last bit is in no phase (MVMUL.md (†)): 1.0 after phase 0 and 1. */
    formats(f, FMT_TF32);
    st_thdcfg_w(&f->st, 0, 28, 1u << 13);
    fx_ex(f, TT_OP_SETRWC(0, 0, 0, 0, 0, 8)); /* fidelity := 0 */
    A(f, 0)[1] = src_tf32(0x3F802000u), B(f, 0)[0] = src_tf32(0x3F800000u);
    fx_ex(f, TT_OP_MVMUL(0, 0, 0, 8));
    fx_ex(f, TT_OP_MVMUL(0, 0, 0, 8));
    assert_int_equal(dst32(f, 8, 1), 0x3F800000u);
}

/* Integer "8" MVMUL (MVMUL.md masks): a row of SrcB [1, 2, ..., 16] by an all-3 SrcA column:
 * 3 x 136 = 408 in phase 0 (magnitudes below 16 and 32: phase 0 uses SrcA bits 5..7 = 0...).
 * So: phase 3 alone (low bits of both) gives 408; phase 0 gives 0. */
static void test_mvmul_int8(void **state) {
    fx_t *f = *state;
    FX_CFG(f, ALU_ACC_CTRL_INT8_math_enabled, 1);
    for (unsigned k = 0; k < 16; k++) {
        B(f, 0)[k] = src_int8((int)k + 1);
        for (unsigned j = 0; j < 16; j++)
            A(f, k)[j] = src_int8(j == 5 ? -3 : 3);
    }
    fx_ex(f, TT_OP_MVMUL(0, 0, 0, 0)); /* phase 0: A bits 5..7 (0), B bits 4..9 (16 -> 16): 0 */
    assert_int_equal(dst32(f, 0, 0), 0);
    FX_THCFG(f, FIDELITY_BASE_Phase, 3); /* A bits 0..4 (3), B bits 0..3 (1..15, 16 -> 0): 3 x 120 */
    fx_ex(f, TT_OP_MVMUL(0, 0, 0, 0));
    assert_int_equal(dst32(f, 0, 0), 360u);
    assert_int_equal(dst32(f, 0, 5), 0x80000000u | 360u);
    FX_THCFG(f, FIDELITY_BASE_Phase, 1); /* A bits 0..4 (3), B bits 4..9 (16): + 48 */
    fx_ex(f, TT_OP_MVMUL(0, 0, 0, 0));
    assert_int_equal(dst32(f, 0, 0), 408u);
}

/* fpu_mop_a_rows and fpu_mop_b_row (MVMUL's SrcA block and SrcB rows, four datums at a time in
 * the vector form) against fpu_mop_a and fpu_mop_b of fpu_operand datum by datum: random 19-bit
 * datums, a quarter with exponent 0 (read as zero, with and without a mantissa), every style,
 * fidelity phase and product adjustment. */
static void test_mop_rows(void **state) {
    (void)state;
    uint32_t seed = 0x9E3779B9u;
    for (unsigned iter = 0; iter < 400; iter++) {
        fmt_style_t style = (fmt_style_t)(iter % 3);
        unsigned phase = (iter / 3) % 4;
        uint32_t data[16][16];
        const uint32_t *rows[16];
        fpu_mops_t got[16], want[16];
        for (unsigned k = 0; k < 16; k++) {
            for (unsigned j = 0; j < 16; j++) {
                seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
                data[k][j] = seed & 0x7FFFFu;
                if ((seed >> 30) == 0) data[k][j] &= (seed >> 29) & 1 ? 0x7FF00u : 0x7FFE0u; /* exponent 0 */
                fpu_mop_a(&want[k], j, fpu_operand(data[k][j], style), phase);
            }
            rows[k] = data[k];
        }
        fpu_mop_a_rows(got, rows, style, phase);
        int32_t adj = fpu_prod_adj((fpu_acc_t){.fp32 = (iter / 12) & 1, .exp8 = (iter / 24) & 1}, phase);
        for (unsigned k = 0; k < 16; k++) {
            fpu_mops_t gb, wb;
            fpu_mop_b_row(&gb, data[k], style, phase, adj);
            for (unsigned j = 0; j < 16; j++) {
                fpu_mop_b(&wb, j, fpu_operand(data[k][j], style), phase, adj);
                if (got[k].exp[j] != want[k].exp[j] || got[k].man[j] != want[k].man[j] ||
                    got[k].sign[j] != want[k].sign[j])
                    fail_msg("fpu_mop_a_rows style %d phase %u datum 0x%05x: %d/%u/%d, fpu_mop_a %d/%u/%d", style,
                             phase, data[k][j], got[k].exp[j], got[k].man[j], got[k].sign[j], want[k].exp[j],
                             want[k].man[j], want[k].sign[j]);
                if (gb.exp[j] != wb.exp[j] || gb.man[j] != wb.man[j] || gb.sign[j] != wb.sign[j])
                    fail_msg("fpu_mop_b_row style %d phase %u adj %d datum 0x%05x: %d/%u/%d, fpu_mop_b %d/%u/%d", style,
                             phase, adj, data[k][j], gb.exp[j], gb.man[j], gb.sign[j], wb.exp[j], wb.man[j],
                             wb.sign[j]);
            }
        }
    }
}

/* fpu_dot16_rows (MVMUL's fast form: SrcA's block by rows, eight columns in the host's vector
 * lanes where it has them) against fpu_dot16 on each column, the general path: random 19-bit
 * operands near a common exponent (every alignment distance, ties; a third of the time products
 * near exponent 0), a few of them read as zero, random Dst values, every accumulator and fidelity
 * phase. */
static void test_dot16_rows(void **state) {
    (void)state;
    uint32_t seed = 0x2545F491u;
    for (unsigned iter = 0; iter < 4000; iter++) {
        fpu_acc_t acc = {.fp32 = iter & 1, .exp8 = (iter >> 1) & 1};
        unsigned phase = (iter >> 2) & 3;
        int32_t adj = fpu_prod_adj(acc, phase);
        /* Products mostly in range, or around exponent 0 (groups that underflow whole). */
        uint32_t base = (iter >> 4) % 3 ? (acc.exp8 ? 120u : 12u) : (acc.exp8 ? 60u : 4u);
        uint32_t a[16][16], b[16], dst[16], got[16];
        fpu_mops_t rows[16], bm;
        for (unsigned n = 0; n < 16 * 17 + 16; n++) {
            seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
            uint32_t e = base + (seed >> 8) % 8, v = (seed & 0x40000u) | e << 10 | (seed >> 20);
            if ((seed >> 29) == 0) v &= 0x403FFu; /* read as zero */
            if (n < 256)
                a[n / 16][n % 16] = v;
            else if (n < 272)
                b[n - 256] = v;
            else
                dst[n - 272] = acc.fp32 ? seed : acc.exp8 ? seed & 0xFFFF0000u : seed & 0x8FFFE000u;
        }
        for (unsigned k = 0; k < 16; k++) {
            fpu_mop_b(&bm, k, b[k], phase, adj);
            for (unsigned j = 0; j < 16; j++)
                fpu_mop_a(&rows[k], j, a[k][j], phase);
        }
        for (unsigned j = 0; j < 16; j++)
            got[j] = dst[j];
        fpu_dot16_rows(rows, &bm, got, acc, phase);
        for (unsigned j = 0; j < 16; j++) {
            uint32_t col[16];
            for (unsigned k = 0; k < 16; k++)
                col[k] = a[k][j];
            uint32_t want = fpu_dot16(col, b, dst[j], acc, phase);
            if (got[j] != want)
                fail_msg("fpu_dot16_rows phase %u fp32 %d exp8 %d col %u: 0x%08x, fpu_dot16 0x%08x", phase, acc.fp32,
                         acc.exp8, j, got[j], want);
        }
    }
}

/* ---- GMPOOL -------------------------------------------------------------------------------------- */

/* GMPOOL.md: column max of a 16x16 SrcA block, scaled by SrcB row 0's exponents, with Dst's row;
 * rows 1..3 of the Dst block zeroed. */
static void test_gmpool(void **state) {
    fx_t *f = *state;
    formats(f, FMT_BF16);
    for (unsigned i = 0; i < 16; i++) {
        B(f, 0)[i] = src_bf16(0x3F80); /* no scaling */
        for (unsigned j = 0; j < 16; j++)
            A(f, i)[j] = src_bf16((uint16_t)(0xC000 + i)); /* negative: the max is row 0's -2.0 */
    }
    A(f, 9)[1] = src_bf16(0x4100);          /* 8.0 */
    A(f, 3)[2] = src_bf16(0x0001);          /* a denormal reads as 0: the max of column 2 */
    A(f, 12)[3] = src_bf16(0x7F80);         /* +Inf */
    fx_ex(f, TT_OP_ZEROACC(3, 0, 0, 0, 0)); /* invalid Dst: minus infinity */
    dp_dst_mut(f->dp)->bits[1][0] = 0x5555;
    fx_ex(f, TT_OP_GMPOOL(0, 1, 0, 0, 2)); /* DstRow 2 & 0x3FC = 0 */
    assert_int_equal(dst16(f, 0, 0), cell_bf16(0xC000));
    assert_int_equal(dst16(f, 0, 1), cell_bf16(0x4100));
    assert_int_equal(dst16(f, 0, 2), 0);
    assert_int_equal(dst16(f, 0, 3), cell_bf16(0x7F80));
    assert_int_equal(dst16(f, 1, 0), 0); /* zeroed */
    /* Dst takes part: a valid Dst row holding 1.0 beats the negatives. */
    dp_dst_mut(f->dp)->bits[4][0] = cell_bf16(0x3F80);
    dp_dst_mut(f->dp)->valid[4] = true;
    fx_ex(f, TT_OP_GMPOOL(0, 1, 0, 0, 4));
    assert_int_equal(dst16(f, 4, 0), cell_bf16(0x3F80));
    assert_int_equal(dst16(f, 4, 1), cell_bf16(0x4100));
    /* SrcB scaling: an exponent of 0 makes that row minus infinity; 2.0 adds one to the exponent
     * (column 1's 8.0 in row 9 becomes 16.0). */
    B(f, 0)[0] = 0;
    B(f, 0)[9] = src_bf16(0x4000);
    fx_ex(f, TT_OP_ZEROACC(3, 0, 0, 0, 0));
    fx_ex(f, TT_OP_GMPOOL(0, 1, 0, 0, 8));
    assert_int_equal(dst16(f, 8, 0), cell_bf16(0xC001)); /* row 0 excluded: row 1's -2.0078 */
    assert_int_equal(dst16(f, 8, 1), cell_bf16(0x4180));
    /* ArgMax with an FP32 Dst (BF16 style): the value in the high half, IndexPhase | MaxIndex in the
     * low bits. Column 1's max is row 9 (not among the first eight: the index stays that of the
     * first eight's max, row 0 -> index 0); Dst invalid: all ones -> IndexPhase (0xFFFFFFFF +
     * 0x100) & 0xF00 = 0; column 4 (all -2.0 - i) picks row 0 first (visit order 4,5,6,7,0,...
     * with >=: the last equal... values differ: row 0's -2.0 is the max): index transform[0] = 0. */
    B(f, 0)[0] = src_bf16(0x3F80);
    B(f, 0)[9] = src_bf16(0x3F80);
    FX_CFG(f, ALU_ACC_CTRL_Fp32_enabled, 1);
    A(f, 6)[5] = src_bf16(0x4000); /* column 5's max: row 6 -> transform[6] = 2 */
    fx_ex(f, TT_OP_ZEROACC(3, 0, 0, 0, 0));
    fx_ex(f, TT_OP_GMPOOL(0, 1, 0, 1, 12));
    assert_int_equal(dst32(f, 12, 5), 0x40000000u | 2u); /* check_fields: not a field */
    assert_int_equal(dst32(f, 12, 4), 0xC0000000u | 0u); /* check_fields: not a field */
    assert_int_equal(dst32(f, 13, 4), 0);                /* (all ones + 0x100) & 0xF00 */
}

/* ---- Src shuffles -------------------------------------------------------------------------------- */

/* MOVB2A truncates under SrcB's format as the Matrix Unit takes it (fpu_srcb_fmt): the bank's
 * implied format, else ALU_FORMAT_SPEC_REG1_SrcB, overridden by ALU_FORMAT_SPEC_REG_SrcB_val. An
 * 8-bit-exponent format other than TF32 drops the mantissa's low three bits; TF32 keeps them. */
static void test_movb2a_format(void **state) {
    fx_t *f = *state;
    static const struct {
        unsigned implied, disable, reg1, override, val;
        uint32_t out;
    } c[] = {
        {FMT_TF32, 0, FMT_BF16, 0, 0, 0x3FF7Fu},        /* the implied format */
        {FMT_BF16, 0, FMT_TF32, 0, 0, 0x3F87Fu},        /* the implied format over REG1 */
        {FMT_BF16, 1, FMT_TF32, 0, 0, 0x3FF7Fu},        /* implied disabled: REG1 */
        {FMT_BF16, 1, FMT_TF32, 1, FMT_BF16, 0x3F87Fu}, /* REG1 overridden */
        {FMT_TF32, 0, FMT_BF16, 1, FMT_BF16, 0x3FF7Fu}, /* the implied format over the override */
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        dp_srcb_mut(f->dp)->implied_fmt[0] = (uint8_t)c[i].implied;
        FX_THCFG(f, DISABLE_IMPLIED_SRCB_FMT_Base, c[i].disable);
        FX_CFG(f, ALU_FORMAT_SPEC_REG1_SrcB, c[i].reg1);
        FX_CFG(f, ALU_FORMAT_SPEC_REG_SrcB_override, c[i].override);
        FX_CFG(f, ALU_FORMAT_SPEC_REG_SrcB_val, c[i].val);
        B(f, 3)[5] = 0x3FF7Fu; /* mantissa all ones, exponent 127 */
        fx_ex(f, TT_OP_MOVB2A(9, 0, 0, 3));
        assert_int_equal(A(f, 9)[5], c[i].out);
    }
}

static void test_src_shuffles(void **state) {
    fx_t *f = *state;
    for (unsigned i = 0; i < 64; i++)
        for (unsigned j = 0; j < 16; j++) {
            A(f, i)[j] = i * 16 + j;
            B(f, i)[j] = i * 16 + j;
        }
    /* TRNSPSRCB.md: rows 16..31 transposed, others untouched. */
    fx_ex(f, TT_OP_TRNSPSRCB);
    assert_int_equal(B(f, 16)[3], (16 + 3) * 16 + 0);
    assert_int_equal(B(f, 19)[0], 16 * 16 + 3);
    assert_int_equal(B(f, 0)[3], 3);
    /* SHIFTXB.md: row (SrcRow 2 + SrcB RWC 0) one lane left; rotate, then shift in zero. */
    fx_ex(f, TT_OP_SHIFTXB(0, 0, 2));
    assert_int_equal(B(f, 2)[0], 33);
    assert_int_equal(B(f, 2)[14], 47);
    assert_int_equal(B(f, 2)[15], 32);
    fx_ex(f, TT_OP_SHIFTXB(0, 1, 2));
    assert_int_equal(B(f, 2)[15], 0);
    assert_int_equal(B(f, 2)[14], 32);
    /* SHIFTXA.md: the rows at the last FPU SrcA row address (a MOVA2D from row 37: block 32..47),
     * one lane right (Direction 2), into rows 0..15. */
    dp_srca_mut(f->dp)->implied_fmt[0] = FMT_BF16;
    fx_ex(f, TT_OP_MOVA2D(0, 37, 0, 0, 0));
    fx_ex(f, TT_OP_SHIFTXA(0, 2));
    assert_int_equal(A(f, 0)[0], 0);
    assert_int_equal(A(f, 0)[1], 32 * 16 + 0);
    assert_int_equal(A(f, 15)[15], 47 * 16 + 14);
    fx_ex(f, TT_OP_SHIFTXA(0, 3)); /* left, from rows 32..47 again */
    assert_int_equal(A(f, 0)[0], 32 * 16 + 1);
    assert_int_equal(A(f, 0)[15], 0);
    assert_int_equal(fx_run(f, 0, TT_OP_SHIFTXA(0, 1)), CP_ERR_UNDEFINED);
}

/* ELWADD.md: "if (FidelityPhase & 1) Result /= 32.f; if (FidelityPhase & 2) Result /= 128.f;".
 * BF16 1 + 2 = 3 = 1.5 x 2^1 in each phase (FIDELITY_BASE_Phase): phase 0 3.0 (0x4040), phase 1
 * 3 / 32 = 1.5 x 2^-4 (0x3DC0), phase 2 3 / 128 = 1.5 x 2^-6 (0x3CC0), phase 3 3 / 4096 =
 * 1.5 x 2^-11 (0x3A40). */
static void test_elwadd_fidelity_scale(void **state) {
    fx_t *f = *state;
    formats(f, FMT_BF16);
    A(f, 0)[0] = src_bf16(0x3F80), B(f, 0)[0] = src_bf16(0x4000);
    static const uint16_t want[4] = {0x4040, 0x3DC0, 0x3CC0, 0x3A40};
    for (unsigned p = 0; p < 4; p++) {
        FX_THCFG(f, FIDELITY_BASE_Phase, p);
        fx_ex(f, TT_OP_ELWADD(0, 0, 0, 0, 8 * p));
        assert_int_equal(dst16(f, 8 * p, 0), cell_bf16(want[p]));
    }
    FX_THCFG(f, FIDELITY_BASE_Phase, 0);
}

/* ELWSUB 0 - 0 with the zero flag off (ALU_ACC_CTRL_Zero_Flag_disabled_src: no operand flushed),
 * FP16 operands into an FP32 Dst. SrcB's +0 negated is the pattern -0, which is not the pattern 0,
 * so it keeps its implied bit (0x400 at exponent 0) while SrcA's 0 has none: the sum is
 * 0 - 0x400, and that term's magnitude is 0x400 << 13 = 2^23, negative. The accumulator adds in a
 * 32-bit signed integer (ttsim's fpu_accum_normalize_encode: `int32_t man`, the ISA pages giving
 * only the float sum), so the difference is -2^23, not an unsigned wrap. At the FP16-into-FP32
 * exponent of a zero sum, 127 - 30 = 97: -1.0 x 2^-30 = 0xB0800000. With the zero flag on, -0 is
 * flushed and the result is +0. */
static void test_elwsub_zeros_unflushed(void **state) {
    fx_t *f = *state;
    formats(f, FMT_FP16);
    FX_CFG(f, ALU_ACC_CTRL_Fp32_enabled, 1);
    FX_CFG(f, ALU_ACC_CTRL_Zero_Flag_disabled_src, 1);
    A(f, 0)[0] = src_fp16(0x0000), B(f, 0)[0] = src_fp16(0x0000);
    fx_ex(f, TT_OP_ELWSUB(0, 0, 0, 0, 0));
    assert_int_equal(dst32(f, 0, 0), 0xB0800000u);
    FX_CFG(f, ALU_ACC_CTRL_Zero_Flag_disabled_src, 0);
    fx_ex(f, TT_OP_ELWSUB(0, 0, 0, 0, 8));
    assert_int_equal(dst32(f, 8, 0), 0x00000000u);
}

/* Refusals: the legacy instructions, GAPOOL's index mode, a matrix product without the zero flag;
 * CLREXPHIST and GATESRCRST change no value. */
static void test_fpu_refusals(void **state) {
    fx_t *f = *state;
    formats(f, FMT_BF16);
    assert_int_equal(fx_run(f, 0, TT_OP_CONV3S2(0, 0, 0, 0)), CP_ERR_UNSPECIFIED);
    assert_int_equal(fx_run(f, 0, TT_OP_MPOOL3S1(0, 0, 0, 0)), CP_ERR_UNSPECIFIED);
    assert_int_equal(fx_run(f, 0, TT_OP_APOOL3S2(0, 0, 0, 0)), CP_ERR_UNSPECIFIED);
    assert_int_equal(fx_run(f, 0, TT_OP_MFCONV3S1(0, 0, 0, 0)), CP_ERR_UNSPECIFIED);
    assert_int_equal(fx_run(f, 0, TT_OP_GAPOOL(0, 1, 0, 1, 0)), CP_ERR_UNSPECIFIED);
    FX_CFG(f, ALU_ACC_CTRL_Zero_Flag_disabled_src, 1);
    assert_int_equal(fx_run(f, 0, TT_OP_MVMUL(0, 0, 0, 0)), CP_ERR_UNSPECIFIED);
    dst_regs_t before = *dp_dst(f->dp);
    fx_ex(f, TT_OP_CLREXPHIST);
    fx_ex(f, TT_OP_GATESRCRST(1, 1));
    assert_memory_equal(&before, dp_dst(f->dp), sizeof before);
}

/* Blackhole: each Src bank carries the format its unpacker wrote (implied_fmt, DATAPATH.md §9;
 * MOVA2D.md's SrcAFmt), so one datum reads differently from bank to bank. The pattern
 * src_fp16(0x3E00) (1.5 as FP16: exponent 15 in the low exponent bits, mantissa 0x200) is, read as
 * BF16, exponent 15 with the mantissa's top seven bits 0x40: 1.5 x 2^-112 = 0x07C0. ELWADD with a
 * zero SrcB copies it: bank 0 (implied BF16) gives the BF16 cell of 0x07C0, bank 1 (implied FP16)
 * the FP16 cell of 0x3E00 (the Dst type follows SrcA's style). DISABLE_IMPLIED_SRCA_FMT_Base falls
 * back to ALU_FORMAT_SPEC_REG0_SrcA. */
static void test_implied_formats(void **state) {
    fx_t *f = *state;
    src_regs_t *a = dp_srca_mut(f->dp), *b = dp_srcb_mut(f->dp);
    for (unsigned k = 0; k < 2; k++) {
        dp_src_rows_w(a, k)[0][0] = src_fp16(0x3E00);
        dp_src_rows_w(b, k)[0][0] = 0;
    }
    a->implied_fmt[0] = FMT_BF16, b->implied_fmt[0] = FMT_BF16;
    a->implied_fmt[1] = FMT_FP16, b->implied_fmt[1] = FMT_FP16;
    fx_ex(f, TT_OP_ELWADD(0, 0, 0, 0, 0));
    assert_int_equal(dst16(f, 0, 0), cell_bf16(0x07C0));
    f->st.src.fpu_bank_a = f->st.src.fpu_bank_b = 1;
    fx_ex(f, TT_OP_ELWADD(0, 0, 0, 0, 0));
    assert_int_equal(dst16(f, 0, 0), cell_fp16(0x3E00));
    f->st.src.fpu_bank_a = f->st.src.fpu_bank_b = 0;
    FX_THCFG(f, DISABLE_IMPLIED_SRCA_FMT_Base, 1);
    FX_THCFG(f, DISABLE_IMPLIED_SRCB_FMT_Base, 1);
    FX_CFG(f, ALU_FORMAT_SPEC_REG0_SrcA, FMT_FP16);
    FX_CFG(f, ALU_FORMAT_SPEC_REG1_SrcB, FMT_FP16);
    fx_ex(f, TT_OP_ELWADD(0, 0, 0, 0, 0));
    assert_int_equal(dst16(f, 0, 0), cell_fp16(0x3E00));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_elwadd_bf16, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_elwsub_bcast, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_elwadd_fp32_fp16, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_elwsub_zeros_unflushed, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_elwadd_fidelity_scale, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_elwmul_fidelity, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_elw_int8, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_mvmul, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_mvmul_fidelity, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_mvmul_int8, fx_setup, fx_teardown),
        cmocka_unit_test(test_dot16_rows),
        cmocka_unit_test(test_mop_rows),
        cmocka_unit_test_setup_teardown(test_gmpool, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_movb2a_format, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_src_shuffles, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_fpu_refusals, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_implied_formats, fx_setup, fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
