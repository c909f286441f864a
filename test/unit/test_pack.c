/* test/unit/test_pack.c — the packer's data path, exact bits: block-float outputs (BFP8, BFP4,
 * BFP2: the shared exponent per row of 16, rounding half away from zero, the carry saturating,
 * datums shifted out, special values, the exponent stream before the data, the BFP8 intermediate's
 * E8M6 rounding, from a 32-bit Dst), ReLU in its three modes through BF16, FP16, FP32 and INT32,
 * exponent thresholding, edge masking to -infinity ahead of ReLU, and format pairs: FP32 to FP16,
 * FP16 to FP8 as E5M2 and (Blackhole) E4M3, Round_10b_mant (Blackhole), BF16 to FP32, INT32.
 *
 * Sources: Packers/FormatConversion.md ("To BFP8": truncate to BF16, then round to BFP8 with one
 * shared 8-bit exponent per 16 datums, "round-to-nearest with ties away from zero"),
 * FloatBitPatterns.md (BFP: sign and a 7-bit magnitude m, value m / 64 x 2^(exp - 127)),
 * OutputAddressGenerator.md (the exponent stream at the address, the data Exp_section_size x 16
 * bytes later), ReLU.md, ExponentThresholding.md, EdgeMasking.md; the choices where the pages are
 * silent are ttsim's (docs/datapath.md). Every expected byte is worked out in the comment beside
 * it; Dst cells are written in Dst.md's layouts by the fixture's helpers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dp_fixture.h"

#define OUT 0x10000u

/* The packer reading Dst rows of 16 datums (`bytes` each in the In_data_format) through `dstacc`
 * into `out_fmt` at L1 OUT, the exponent section `exp_sec` x 16 bytes, no edge masking, every
 * PACR reading four rows (ReadIntfSel 0 = all four) and stepping Ysrc by 4 (ADDR_MOD_PACK 0). */
static void pk(fx_t *f, unsigned dstacc, unsigned in_fmt, unsigned out_fmt, bool read32, unsigned exp_sec) {
    unsigned bytes = read32 ? 4 : 2;
    FX_CFG(f, PCK0_ADDR_CTRL_XY_REG_0_Ystride, 16 * bytes);
    FX_CFG(f, PCK0_ADDR_CTRL_ZW_REG_0_Zstride, 256 * bytes);
    FX_CFG(f, ALU_FORMAT_SPEC_REG2_Dstacc, dstacc);
    FX_CFG(f, THCON_SEC0_REG1_Exp_section_size, exp_sec);
    FX_CFG(f, THCON_SEC0_REG1_Disable_zero_compress, 1);
    FX_CFG(f, THCON_SEC0_REG1_Out_data_format, out_fmt);
    FX_CFG(f, THCON_SEC0_REG1_In_data_format, in_fmt);
    FX_CFG(f, PCK_DEST_RD_CTRL_Read_32b_data, read32);
    FX_CFG(f, PACK_COUNTERS_SEC0_pack_reads_per_xy_plane, 16);
    FX_CFG(f, PCK_EDGE_OFFSET_SEC0_mask, 0xFFFF);
    FX_CFG(f, THCON_SEC0_REG1_L1_Dest_addr, (OUT >> 4) - 1);
    FX_THCFG(f, ADDR_MOD_PACK_SEC0_YsrcIncr, 4);
    fx_ex(f, TT_OP_SETADCXY(4, 0, 0, 0, 0, 0xF));
    fx_ex(f, TT_OP_SETADCZW(4, 0, 0, 0, 0, 0xF));
    fx_ex(f, TT_OP_SETADCXX(4, 15, 0)); /* X 0..15 (after SETADCXY, which zeroed Channel 1 X) */
}

#define PACR(last) TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (last))

/* Pack rows 0 .. 4 * n - 1, the last PACR closing the output (Last: buffers flushed). */
static void pack_rows(fx_t *f, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        fx_ex(f, PACR(i == n - 1));
}

static void bf16_row(fx_t *f, unsigned r, const uint16_t *v, unsigned n) {
    dst_regs_t *d = dp_dst_mut(f->dp);
    for (unsigned c = 0; c < 16; c++)
        d->bits[r][c] = c < n ? cell_bf16(v[c]) : 0;
}

static void expect_bytes(fx_t *f, uint32_t addr, const uint8_t *want, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        if (f->l1[addr + i] != want[i]) fail_msg("L1 0x%x: 0x%02x, want 0x%02x", addr + i, f->l1[addr + i], want[i]);
}

/* BFP8 from a BF16 Dst through a BF16 intermediate: exponent bytes at OUT, one per row, the
 * datums 16 bytes later (Exp_section_size 1). */
static void test_bfp8(void **state) {
    fx_t *f = *state;
    pk(f, FMT_BF16, FMT_BF16, FMT_BFP8, false, 1);
    /* Row 0, exponent 127: 1.0 = 64/64; -0.5; 0.25 = 16/64; 2^-7 = 0.5/64 rounds away to 1. */
    bf16_row(f, 0, (const uint16_t[]){0x3F80, 0xBF00, 0x3E80, 0x3C00}, 4);
    /* Row 1, exponent 127: 0x3FFF = 1.1111111b, 8 bits 0xFF round to 128: saturated to 127;
     * 0x3F81 = 0x81 rounds (half up) to 0x41, its negative to 0xC1; 1.5 = 0x60. */
    bf16_row(f, 1, (const uint16_t[]){0x3FFF, 0x3F81, 0xBF81, 0x3FC0}, 4);
    /* Row 2, exponent 135 (256): 1.0 is 8 places down, rounded away entirely; 3.0 (exponent 128,
     * significand 0xC0) 7 places down: (0xC0 + 0x80) >> 8 = 1; -2^-120 gives 0 and no sign. */
    bf16_row(f, 2, (const uint16_t[]){0x4380, 0x3F80, 0x4040, 0x8380}, 4);
    /* Row 3: -0 and a denormal become +0 (early conversion), NaN becomes Inf; Inf's exponent 255
     * is shared and its significand 0x80 gives 64 (ttsim: 255 is a number here). */
    bf16_row(f, 3, (const uint16_t[]){0x8000, 0x0001, 0x7F80, 0x7FC1}, 4);
    for (unsigned r = 4; r < 16; r++)
        bf16_row(f, r, NULL, 0);
    pack_rows(f, 4);
    expect_bytes(f, OUT, (const uint8_t[]){127, 127, 135, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 16);
    expect_bytes(f, OUT + 16, (const uint8_t[]){0x40, 0xA0, 0x10, 0x01, 0}, 5);
    expect_bytes(f, OUT + 32, (const uint8_t[]){0x7F, 0x41, 0xC1, 0x60, 0}, 5);
    expect_bytes(f, OUT + 48, (const uint8_t[]){0x40, 0x00, 0x01, 0x00, 0}, 5);
    expect_bytes(f, OUT + 64, (const uint8_t[]){0x00, 0x00, 0x40, 0x40, 0}, 5);
    for (unsigned i = 80; i < 16 + 256; i++)
        assert_int_equal(f->l1[OUT + i], 0);
    assert_int_equal(f->l1[OUT + 16 + 256], 0); /* nothing past the 16 rows */
}

/* Through a BFP8 intermediate the early conversion first rounds BF16 to 6 mantissa bits (E8M6, half
 * up; ttsim): in a block of exponent 128, 0x3F81 (significand 0x81, one place down) becomes 0x3F82
 * first, then (0x82 + 2) >> 2 = 0x21; through BF16 it is (0x81 + 2) >> 2 = 0x20. */
static void test_bfp8_intermediate(void **state) {
    fx_t *f = *state;
    pk(f, FMT_BFP8, FMT_BFP8, FMT_BFP8, false, 1);
    bf16_row(f, 0, (const uint16_t[]){0x4000, 0x3F81}, 2);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)); /* one row (ReadIntfSel 1), Last */
    assert_int_equal(f->l1[OUT], 128);
    expect_bytes(f, OUT + 16, (const uint8_t[]){0x40, 0x21}, 2);
    memset(f->l1 + OUT, 0, 64);
    pk(f, FMT_BF16, FMT_BF16, FMT_BFP8, false, 1);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    expect_bytes(f, OUT + 16, (const uint8_t[]){0x40, 0x20}, 2);
}

/* BFP4 and BFP2: the BFP8 datum truncated to its top 4 or 2 bits (FormatConversion.md), two or
 * four a byte from the low bits up. Row [1.0, -0.5, 0.75, 0.125]: BFP8 0x40, 0xA0, 0x30, 0x08 ->
 * BFP4 0x4, 0xA, 0x3, 0x0 (the sign is kept only with a magnitude): bytes 0xA4, 0x03.
 * Row [1.0, -1.0, 0.5, 0]: BFP8 0x40, 0xC0, 0x20, 0 -> BFP2 01, 11, 00, 00: byte 0x0D. */
static void test_bfp4_bfp2(void **state) {
    fx_t *f = *state;
    pk(f, FMT_BF16, FMT_BF16, FMT_BFP4, false, 1);
    bf16_row(f, 0, (const uint16_t[]){0x3F80, 0xBF00, 0x3F40, 0x3E00}, 4);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    assert_int_equal(f->l1[OUT], 127);
    expect_bytes(f, OUT + 16, (const uint8_t[]){0xA4, 0x03, 0, 0, 0, 0, 0, 0, 0}, 9);
    pk(f, FMT_BF16, FMT_BF16, FMT_BFP2, false, 1);
    bf16_row(f, 0, (const uint16_t[]){0x3F80, 0xBF80, 0x3F00, 0x0000}, 4);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    expect_bytes(f, OUT + 16, (const uint8_t[]){0x0D, 0, 0, 0, 0}, 5);
}

/* BFP8 from a 32-bit Dst (Read_32b_data, FP32 intermediate): the late conversion truncates to
 * BF16 first ("Converted to BF16 (as per first row)": truncate), so 0x3F80FFFF is 1.0 = 0x40 and
 * 0x3FFFFFFF is 0x3FFF, saturated to 0x7F; the stream addresses as before. */
static void test_bfp8_from_fp32(void **state) {
    fx_t *f = *state;
    pk(f, FMT_FP32, FMT_FP32, FMT_BFP8, true, 4);
    put_dst32(f, 0, 0, 0x3F80FFFFu);
    put_dst32(f, 0, 1, 0x3FFFFFFFu);
    for (unsigned c = 2; c < 16; c++)
        put_dst32(f, 0, c, 0);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    assert_int_equal(f->l1[OUT], 127);
    expect_bytes(f, OUT + 64, (const uint8_t[]){0x40, 0x7F, 0}, 3);
    /* A block is a whole row: fewer datums a row are refused, not guessed. */
    fx_ex(f, TT_OP_SETADCXX(4, 7, 0));
    assert_int_equal(fx_run(f, 0, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)), CP_ERR_UNIMPLEMENTED);
}

/* ReLU (ReLU.md) through BF16: row [-1, -0, 0.5, 2, 3, Inf, -Inf, 1.5]. ZERO_RELU: x <= 0 to 0.
 * MIN_THRESHOLD_RELU with T = 2.0 (0x4000): x <= 2 to 0. MAX_THRESHOLD_RELU: x <= 0 to 0, x > 2
 * to 2. A threshold with its sign bit set is undefined. */
static void test_relu_bf16(void **state) {
    fx_t *f = *state;
    static const uint16_t row[8] = {0xBF80, 0x8000, 0x3F00, 0x4000, 0x4040, 0x7F80, 0xFF80, 0x3FC0};
    static const uint16_t want[3][8] = {
        {0, 0, 0x3F00, 0x4000, 0x4040, 0x7F80, 0, 0x3FC0},
        {0, 0, 0, 0, 0x4040, 0x7F80, 0, 0},
        {0, 0, 0x3F00, 0x4000, 0x4000, 0x4000, 0, 0x3FC0},
    };
    for (unsigned mode = 1; mode <= 3; mode++) {
        pk(f, FMT_BF16, FMT_BF16, FMT_BF16, false, 0);
        FX_CFG(f, STACC_RELU_ApplyRelu, mode);
        FX_CFG(f, STACC_RELU_ReluThreshold, 0x4000);
        bf16_row(f, 0, row, 8);
        fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
        for (unsigned c = 0; c < 8; c++)
            assert_int_equal(f->l1[OUT + 2 * c] | f->l1[OUT + 2 * c + 1] << 8, want[mode - 1][c]);
    }
    FX_CFG(f, STACC_RELU_ReluThreshold, 0xC000);
    assert_int_equal(fx_run(f, 0, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)), CP_ERR_UNDEFINED);
}

/* ReLU through FP16 (the threshold read as FP16; exponent 31 is a number, FloatBitPatterns.md),
 * FP32 (the threshold as its top 16 bits) and INT32 (ZERO_RELU only: sign-magnitude negatives to
 * 0; the threshold modes are undefined for integers). */
static void test_relu_fp16_fp32_int32(void **state) {
    fx_t *f = *state;
    pk(f, FMT_FP16, FMT_FP16, FMT_FP16, false, 0);
    FX_CFG(f, STACC_RELU_ApplyRelu, 3);
    FX_CFG(f, STACC_RELU_ReluThreshold, 0x4000); /* FP16 2.0 */
    dst_regs_t *d = dp_dst_mut(f->dp);
    static const uint16_t h[4] = {0xBC00, 0x3800, 0x4200, 0x7C00}; /* -1, 0.5, 3, 65536 */
    for (unsigned c = 0; c < 16; c++)
        d->bits[0][c] = c < 4 ? cell_fp16(h[c]) : 0;
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    static const uint16_t hw[4] = {0, 0x3800, 0x4000, 0x4000};
    for (unsigned c = 0; c < 4; c++)
        assert_int_equal(f->l1[OUT + 2 * c] | f->l1[OUT + 2 * c + 1] << 8, hw[c]);

    pk(f, FMT_FP32, FMT_FP32, FMT_FP32, true, 0);
    FX_CFG(f, STACC_RELU_ApplyRelu, 3);
    FX_CFG(f, STACC_RELU_ReluThreshold, 0x4000); /* BF16 2.0 */
    static const uint32_t s[4] = {0x40200000u, 0x3FFFFFFFu, 0xBF800000u, 0x40000001u};
    for (unsigned c = 0; c < 16; c++)
        put_dst32(f, 0, c, c < 4 ? s[c] : 0);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    static const uint32_t sw[4] = {0x40000000u, 0x3FFFFFFFu, 0, 0x40000000u}; /* check_fields: not a field */
    for (unsigned c = 0; c < 4; c++) {
        uint32_t got;
        memcpy(&got, f->l1 + OUT + 4 * c, 4);
        assert_int_equal(got, sw[c]);
    }

    pk(f, FMT_INT32, FMT_INT32, FMT_INT32, true, 0);
    FX_CFG(f, STACC_RELU_ApplyRelu, 1);
    put_dst32(f, 0, 0, 0x80000005u);
    put_dst32(f, 0, 1, 7);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    uint32_t i0, i1;
    memcpy(&i0, f->l1 + OUT, 4);
    memcpy(&i1, f->l1 + OUT + 4, 4);
    assert_int_equal(i0, 0);
    assert_int_equal(i1, 7);
    FX_CFG(f, STACC_RELU_ApplyRelu, 2);
    assert_int_equal(fx_run(f, 0, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)), CP_ERR_UNDEFINED);
}

/* Exponent thresholding (ExponentThresholding.md): exponent field < Exp_threshold becomes 0.
 * Threshold 127 on [1.0 (127), 0.5 (126), -0.75 (126), 2.0, -3.0]. Then edge masking (mask 0x00FF:
 * columns 8..15 masked) in edge mode 1 gives -infinity, which ReLU (after it in the pipeline) makes
 * 0; without ReLU it stays -infinity. */
static void test_threshold_edge(void **state) {
    fx_t *f = *state;
    pk(f, FMT_BF16, FMT_BF16, FMT_BF16, false, 0);
    FX_CFG(f, THCON_SEC0_REG1_Exp_threshold_en, 1);
    FX_CFG(f, THCON_SEC0_REG1_Exp_threshold, 127);
    bf16_row(f, 0, (const uint16_t[]){0x3F80, 0x3F00, 0xBF40, 0x4000, 0xC040}, 5);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    static const uint16_t tw[5] = {0x3F80, 0, 0, 0x4000, 0xC040};
    for (unsigned c = 0; c < 5; c++)
        assert_int_equal(f->l1[OUT + 2 * c] | f->l1[OUT + 2 * c + 1] << 8, tw[c]);

    pk(f, FMT_BF16, FMT_BF16, FMT_BF16, false, 0);
    FX_CFG(f, THCON_SEC0_REG1_Exp_threshold_en, 0);
    FX_CFG(f, PCK_EDGE_OFFSET_SEC0_mask, 0x00FF);
    FX_CFG(f, PCK_EDGE_MODE_mode, 1);
    bf16_row(f, 0, (const uint16_t[]){0x3F80, 0x3F80, 0x3F80, 0x3F80, 0x3F80, 0x3F80, 0x3F80, 0x3F80, 0x3F80}, 9);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    assert_int_equal(f->l1[OUT + 14] | f->l1[OUT + 15] << 8, 0x3F80); /* column 7 */
    assert_int_equal(f->l1[OUT + 16] | f->l1[OUT + 17] << 8, 0xFF80); /* column 8: -infinity */
    pk(f, FMT_BF16, FMT_BF16, FMT_BF16, false, 0);
    FX_CFG(f, PCK_EDGE_OFFSET_SEC0_mask, 0x00FF);
    FX_CFG(f, STACC_RELU_ApplyRelu, 1);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    assert_int_equal(f->l1[OUT + 14] | f->l1[OUT + 15] << 8, 0x3F80);
    assert_int_equal(f->l1[OUT + 16] | f->l1[OUT + 17] << 8, 0);
}

/* Format pairs: FP32 -> FP16 late (saturate the exponent, truncate the mantissa; ttsim: e - 112,
 * < 0 a signed zero, > 31 the largest pattern): 1.0 + 2^-11 -> 0x3C00, 2^17 -> 0x7FFF, 2^-20 ->
 * 0, -2.0 -> 0xC000. Round_10b_mant (Blackhole) from the same Dst: rounded to TF32 first (+0x1000),
 * 1.0 + 2^-11 -> 0x3C01. */
static void test_fp32_to_fp16(void **state) {
    fx_t *f = *state;
    static const uint32_t s[4] = {0x3F801000u, 0x48000000u, 0x35800000u, 0xC0000000u}; /* check_fields: not a field */
    pk(f, FMT_FP32, FMT_FP32, FMT_FP16, true, 0);
    for (unsigned c = 0; c < 16; c++)
        put_dst32(f, 0, c, c < 4 ? s[c] : 0);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    static const uint16_t w[4] = {0x3C00, 0x7FFF, 0x0000, 0xC000};
    for (unsigned c = 0; c < 4; c++)
        assert_int_equal(f->l1[OUT + 2 * c] | f->l1[OUT + 2 * c + 1] << 8, w[c]);
    pk(f, FMT_FP16, FMT_FP16, FMT_FP16, true, 0);
    FX_CFG(f, PCK_DEST_RD_CTRL_Round_10b_mant, 1);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    assert_int_equal(f->l1[OUT] | f->l1[OUT + 1] << 8, 0x3C01);
}

/* FP16 -> FP8: E5M2 keeps the top byte (truncation); E4M3 with Pac_LF8_4b_exp (Blackhole; ttsim):
 * exponent - 8 with 3 mantissa bits, exponents <= 8 to a signed zero, >= 24 to 0x7F. FP8 leaves
 * room for an exponent section it does not write (OutputAddressGenerator.md): Exp_section_size 1
 * puts the datums 16 bytes on. */
static void test_fp16_to_fp8(void **state) {
    fx_t *f = *state;
    static const uint16_t h[5] = {0x3C00, 0x3DFF, 0x3E00, 0xA000, 0x6000};
    pk(f, FMT_FP16, FMT_FP16, FMT_FP8, false, 1);
    dst_regs_t *d = dp_dst_mut(f->dp);
    for (unsigned c = 0; c < 16; c++)
        d->bits[0][c] = c < 5 ? cell_fp16(h[c]) : 0;
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    expect_bytes(f, OUT + 16, (const uint8_t[]){0x3C, 0x3D, 0x3E, 0xA0, 0x60}, 5);
    assert_int_equal(f->l1[OUT], 0); /* no exponents */
    pk(f, FMT_FP16, FMT_FP16, FMT_FP8, false, 0);
    FX_CFG(f, THCON_SEC0_REG1_Pac_LF8_4b_exp, 1);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    /* 1.0: (15 - 8) << 3 = 0x38; 0x3DFF: m >> 7 = 3 -> 0x3B; 1.5: 0x3C; -2^-7 (exponent 8): 0x80;
     * 512 (exponent 24): 0x7F. */
    expect_bytes(f, OUT, (const uint8_t[]){0x38, 0x3B, 0x3C, 0x80, 0x7F}, 5);
}

/* BF16 -> FP32 late (the 16 bits on top) and INT32 -> INT32 (identity; the Dst's sign-magnitude
 * as it is). */
static void test_bf16_fp32_int32(void **state) {
    fx_t *f = *state;
    pk(f, FMT_BF16, FMT_BF16, FMT_FP32, false, 0);
    bf16_row(f, 0, (const uint16_t[]){0x3F81, 0xC000}, 2);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    uint32_t a, b;
    memcpy(&a, f->l1 + OUT, 4);
    memcpy(&b, f->l1 + OUT + 4, 4);
    assert_int_equal(a, 0x3F810000u);
    assert_int_equal(b, 0xC0000000u); /* check_fields: not a field */
    pk(f, FMT_INT32, FMT_INT32, FMT_INT32, true, 0);
    put_dst32(f, 0, 0, 0x80000005u);
    put_dst32(f, 0, 1, 0x7FFFFFFFu);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    memcpy(&a, f->l1 + OUT, 4);
    memcpy(&b, f->l1 + OUT + 4, 4);
    assert_int_equal(a, 0x80000005u);
    assert_int_equal(b, 0x7FFFFFFFu);
}

/* L1 accumulation (Pack_L1_Acc; the arithmetic ttsim's, coproc/pack_l1acc.h): L1 holds the first
 * operand, the packer's datum the second, both in the output format. */
static void put32(fx_t *f, uint32_t addr, uint32_t v) { memcpy(f->l1 + addr, &v, 4); }
static uint32_t get32(fx_t *f, uint32_t addr) {
    uint32_t v;
    memcpy(&v, f->l1 + addr, 4);
    return v;
}
static void put16(fx_t *f, uint32_t addr, uint16_t v) { f->l1[addr] = (uint8_t)v, f->l1[addr + 1] = (uint8_t)(v >> 8); }
static uint16_t get16(fx_t *f, uint32_t addr) { return (uint16_t)(f->l1[addr] | f->l1[addr + 1] << 8); }

#define FP32_TWO 0x40000000u /* 2.0 (check_fields: not a field) */

static void test_l1_acc(void **state) {
    fx_t *f = *state;
    /* FP32: 1.0 + 2^-24 is a tie, to even: 1.0; (1 + 2^-23) + 2^-24 a tie to 1 + 2^-22; a denormal
     * in L1 reads as 0; NaN in L1 gives 0x7FC00000, so does Inf + -Inf; -1 + 1 = +0. */
    static const uint32_t l1[6] = {0x3F800000u, 0x3F800001u, 0x00000001u, 0x7FC12345u, 0x7F800000u, 0xBF800000u};
    static const uint32_t dv[6] = {0x33800000u, 0x33800000u, 0x3F800000u, 0x3F800000u, 0xFF800000u, 0x3F800000u};
    static const uint32_t w32[6] = {0x3F800000u, 0x3F800002u, 0x3F800000u, 0x7FC00000u, 0x7FC00000u, 0};
    pk(f, FMT_FP32, FMT_FP32, FMT_FP32, true, 0);
    FX_CFG(f, THCON_SEC0_REG1_Pack_L1_Acc, 1);
    for (unsigned c = 0; c < 16; c++) {
        put_dst32(f, 0, c, c < 6 ? dv[c] : 0);
        put32(f, OUT + 4 * c, c < 6 ? l1[c] : FP32_TWO);
    }
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    for (unsigned c = 0; c < 6; c++)
        assert_int_equal(get32(f, OUT + 4 * c), w32[c]);
    assert_int_equal(get32(f, OUT + 4 * 15), FP32_TWO); /* 2 + 0 */

    /* BF16: 1 + 2^-8 a tie to even, 1.0; 0x3F81 + 2^-8 to 0x3F82; Inf + -Inf = 0x7FC0; a NaN in
     * L1 is the largest double: + 1 overflows to Inf; a NaN datum is a number of exponent 255:
     * Inf; -1 + 1 = +0. */
    static const uint16_t b1[6] = {0x3F80, 0x3F81, 0x7F80, 0x7FC0, 0x3F80, 0xBF80};
    static const uint16_t bv[6] = {0x3B80, 0x3B80, 0xFF80, 0x3F80, 0x7FC1, 0x3F80};
    static const uint16_t wb[6] = {0x3F80, 0x3F82, 0x7FC0, 0x7F80, 0x7F80, 0x0000};
    pk(f, FMT_BF16, FMT_BF16, FMT_BF16, false, 0);
    FX_CFG(f, THCON_SEC0_REG1_Pack_L1_Acc, 1);
    bf16_row(f, 0, bv, 6);
    for (unsigned c = 0; c < 16; c++)
        put16(f, OUT + 2 * c, c < 6 ? b1[c] : 0x4000);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    for (unsigned c = 0; c < 6; c++)
        assert_int_equal(get16(f, OUT + 2 * c), wb[c]);
    assert_int_equal(get16(f, OUT + 30), 0x4000);

    /* FP16: 1 + 1 = 2; 65504 + 65504 = 131008 (exponent 31, all mantissa ones: 0x7FFF); exponent
     * 31 is a number, 65536 + 65536 = 2^17 saturates to 0x7FFF; an exact cancellation with L1's
     * exponent 30 gives 0x7FFF, with exponent 15 +0; 2^-14 - (2^-14 + 2^-24) = -2^-24, under the
     * normals: 0xFFFF. */
    static const uint16_t h1[6] = {0x3C00, 0x7BFF, 0x7C00, 0x7800, 0x3C00, 0x0400};
    static const uint16_t hv[6] = {0x3C00, 0x7BFF, 0x7C00, 0xF800, 0xBC00, 0x8401};
    static const uint16_t wh[6] = {0x4000, 0x7FFF, 0x7FFF, 0x7FFF, 0x0000, 0xFFFF};
    pk(f, FMT_FP16, FMT_FP16, FMT_FP16, false, 0);
    FX_CFG(f, THCON_SEC0_REG1_Pack_L1_Acc, 1);
    dst_regs_t *d = dp_dst_mut(f->dp);
    for (unsigned c = 0; c < 16; c++) {
        d->bits[0][c] = c < 6 ? cell_fp16(hv[c]) : 0;
        put16(f, OUT + 2 * c, c < 6 ? h1[c] : 0);
    }
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    for (unsigned c = 0; c < 6; c++)
        assert_int_equal(get16(f, OUT + 2 * c), wh[c]);

    /* Other outputs are not modelled: refused. */
    pk(f, FMT_BF16, FMT_BF16, FMT_BFP8, false, 1);
    FX_CFG(f, THCON_SEC0_REG1_Pack_L1_Acc, 1);
    assert_int_equal(fx_run(f, 0, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)), CP_ERR_UNIMPLEMENTED);
    /* BH PACR.md: Concat has no effect without compression and RowPadZero; DstAccessMode (the
     * strided read tt-llk's pack_untilize uses) and Auto_set_last_pacr_intf_sel are not specified
     * closely enough to model. */
    pk(f, FMT_BF16, FMT_BF16, FMT_BF16, false, 0);
    FX_CFG(f, THCON_SEC0_REG1_Pack_L1_Acc, 0);
    bf16_row(f, 0, (const uint16_t[]){0x3F80}, 1);
    fx_ex(f, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1)); /* Concat */
    assert_int_equal(get16(f, OUT), 0x3F80);
    assert_int_equal(fx_run(f, 0, TT_OP_PACR(0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1)), CP_ERR_UNSPECIFIED);
    FX_CFG(f, THCON_SEC0_REG1_Auto_set_last_pacr_intf_sel, 1);
    assert_int_equal(fx_run(f, 0, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)), CP_ERR_UNSPECIFIED);
    /* Compression: "The exact compression logic isn't specified" (Compression.md). */
    pk(f, FMT_BF16, FMT_BF16, FMT_BF16, false, 0);
    FX_CFG(f, THCON_SEC0_REG1_Disable_zero_compress, 0);
    assert_int_equal(fx_run(f, 0, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)), CP_ERR_UNSPECIFIED);
}

/* The tile row position (edge masking's, BH PACR.md) steps once a row also where a PACR's four rows
 * go out at once (pack.c: no edge mask at any position, every row valid). pack_reads_per_xy_plane
 * 5: three such PACRs (rows 0..11 at positions 0..4, 0..4, 0, 1), then position 2 alone mapped to
 * an edge mask of nothing (edge mode 0: masked datums are 0) and a fourth PACR (rows 12..15 at
 * positions 2, 3, 4, 0): row 12 out as zeros, rows 13..15 as they are. Both ways, the datapath as
 * it is and under dp_set_reference. */
static void test_tile_pos_rows_at_once(void **state) {
    fx_t *f = *state;
    for (unsigned ref = 0; ref < 2; ref++) {
        dp_reset(f->dp);
        dp_set_reference(f->dp, ref);
        memset(f->l1 + OUT, 0xAA, 16 * 32);
        dst_regs_t *d = dp_dst_mut(f->dp);
        for (unsigned r = 0; r < 16; r++)
            for (unsigned c = 0; c < 16; c++)
                d->bits[r][c] = cell_bf16((uint16_t)(0x3F80 + 16 * r + c));
        pk(f, FMT_BF16, FMT_BF16, FMT_BF16, false, 0);
        FX_CFG(f, PACK_COUNTERS_SEC0_pack_reads_per_xy_plane, 5);
        fx_cfg_i(f, CFG_TILE_ROW_SET_MAPPING_0_row_set_mapping_0, 2, 0, 0);
        for (unsigned i = 0; i < 3; i++)
            fx_ex(f, PACR(0));
        fx_cfg_i(f, CFG_PCK_EDGE_OFFSET_SEC0_mask, 1, 0, 0);
        fx_cfg_i(f, CFG_TILE_ROW_SET_MAPPING_0_row_set_mapping_0, 2, 0, 1);
        fx_ex(f, PACR(1));
        for (unsigned r = 0; r < 16; r++)
            for (unsigned c = 0; c < 16; c++) {
                uint16_t want = r == 12 ? 0 : (uint16_t)(0x3F80 + 16 * r + c);
                if (get16(f, OUT + 32 * r + 2 * c) != want)
                    fail_msg("%s: row %u column %u: 0x%04x, want 0x%04x", ref ? "reference" : "fast", r, c,
                             get16(f, OUT + 32 * r + 2 * c), want);
            }
    }
}

/* ADDR_MOD_PACK (InputAddressGenerator.md, OutputAddressGenerator.md): each PACR's AddrMode picks
 * one of four sections, whose fields step, set from the counter's CR or clear the packer's
 * Ysrc, Zsrc (channel 0), Ydst and Zdst (channel 1). Sections 1..3 written with distinct fields
 * (section 0 is pk's: Ysrc + 4); a run of PACRs (ReadIntfSel 1: one row, so that any Ysrc is a
 * valid start) and the counters after each, worked out beside it. */
static void test_addr_mod_pack(void **state) {
    fx_t *f = *state;
    pk(f, FMT_BF16, FMT_BF16, FMT_BF16, false, 0);
    unsigned w0 = thcfg_fields[THCFG_ADDR_MOD_PACK_SEC0_YsrcIncr].word;
    /* 1: Ysrc + 3, Ydst + 5, Zsrc + 1, Zdst + 1. 2: Ysrc = Ysrc_CR + 2, Ydst = Ydst_CR + 6 (both CRs
     * too), Zsrc cleared. 3: Ysrc, Ydst and Zdst cleared. */
    st_thdcfg_w(&f->st, 0, w0 + 1, 3 | 5u << 6 | 1u << 12 | 1u << 14);
    st_thdcfg_w(&f->st, 0, w0 + 2, 2 | 1u << 4 | 6u << 6 | 1u << 10 | 1u << 13);
    st_thdcfg_w(&f->st, 0, w0 + 3, 1u << 5 | 1u << 11 | 1u << 15);
    static const struct {
        unsigned am, ysrc, ysrc_cr, zsrc, ydst, ydst_cr, zdst;
    } steps[] = {
        {1, 3, 0, 1, 5, 0, 1},   {1, 6, 0, 2, 10, 0, 2},  {2, 2, 2, 0, 6, 6, 2},
        {2, 4, 4, 0, 12, 12, 2}, {0, 8, 4, 0, 12, 12, 2}, {3, 0, 0, 0, 0, 0, 0},
    };
    for (unsigned i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        fx_ex(f, TT_OP_PACR(0, 0, 0, steps[i].am, 0, 0, 1, 0, 0, 0, 0, 0));
        const adc_t *a = dp_adc(f->dp, 0, ADC_PACK);
        unsigned got[6] = {a->ch[0].y, a->ch[0].y_cr, a->ch[0].z, a->ch[1].y, a->ch[1].y_cr, a->ch[1].z};
        unsigned want[6] = {steps[i].ysrc, steps[i].ysrc_cr, steps[i].zsrc,
                            steps[i].ydst, steps[i].ydst_cr, steps[i].zdst};
        for (unsigned k = 0; k < 6; k++)
            if (got[k] != want[k])
                fail_msg("PACR %u (AddrMode %u): counter %u is %u, want %u (Ysrc, its CR, Zsrc, Ydst, its CR, Zdst)", i,
                         steps[i].am, k, got[k], want[k]);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_bfp8, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_bfp8_intermediate, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_bfp4_bfp2, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_bfp8_from_fp32, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_relu_bf16, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_relu_fp16_fp32_int32, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_threshold_edge, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_fp32_to_fp16, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_fp16_to_fp8, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_bf16_fp32_int32, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_l1_acc, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_tile_pos_rows_at_once, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_addr_mod_pack, fx_setup, fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
