/* test/unit/test_unpack.c — the unpackers' data path, exact bits (UNPACR_Regular.md's functional
 * model, FloatBitPatterns.md's BFP routines): block floats with their exponent section, across
 * blocks and faces, BFP4/BFP2 packing and NoBFPExpSection, a forced shared exponent, the _a
 * family and its undefined exponents, FP8 as E5M2 and Blackhole's E4M3, Integer "8" signed and
 * unsigned, INT16, INT32 and FP32 into the 32-bit Dst, transposition and tileize row strides.
 *
 * The unpacker runs outside thread sync here: one UNPACR at a time, its address side then its data
 * side (dp_fixture.h). Expected Src and Dst contents are written as IEEE patterns worked out by
 * hand in the comments, then placed in the register layouts (SrcASrcB.md, Dst.md) by the
 * fixture's helpers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dp_fixture.h"

/* Unpacker 0, one tile descriptor (not multi-context: OvrdThreadId = 0 in every UNPACR here):
 * format `fmt` in and out (UNPACR_Regular.md: "Exactly one conversion is permitted" but from
 * FP32), uncompressed, XDim x YDim 1 x ZDim, L1 data at `l1` (THCON_SEC0_REG3_Base_address is in
 * 16-byte units minus one), `count` datums from X = 0. The output address is UNP0_ADDR_BASE_REG_1
 * in bytes: 64 datums of `osize` bytes, so the first datum lands on SrcA row 0 (the unpacker drops
 * the first four rows) or Dst row 0 (rows - 4). The address is in datums for 32- and 16-bit out
 * formats and in bytes for the others (OutAddr >>= 2 or 1 only for FP32/TF32/INT32 and
 * FP16/BF16/INT16), so osize is 1 for BFP, FP8 and INT8 whatever they become in Src. */
static void unp0(fx_t *f, unsigned fmt, unsigned out_fmt, unsigned xdim, unsigned zdim, uint32_t l1, unsigned count,
                 unsigned osize) {
    fx_cfg_i(f, CFG_THCON_SEC0_REG0_TileDescriptor, 0, 0, fmt | 1u << 4 | xdim << 16); /* IsUncompressed */
    fx_cfg_i(f, CFG_THCON_SEC0_REG0_TileDescriptor, 1, 0, 1u | zdim << 16);            /* YDim 1, ZDim */
    FX_CFG(f, THCON_SEC0_REG2_Out_data_format, out_fmt);
    FX_CFG(f, THCON_SEC0_REG3_Base_address, (l1 >> 4) - 1);
    FX_CFG(f, UNP0_ADDR_BASE_REG_1_Base, 64 * osize);
    fx_ex(f, TT_OP_SETADCXY(1, 0, 0, 0, 0, 0xF));
    fx_ex(f, TT_OP_SETADCZW(1, 0, 0, 0, 0, 0xF));
    fx_ex(f, TT_OP_SETADCXX(1, count - 1, 0));
}

#define UNPACR0 TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

static uint32_t srca(fx_t *f, unsigned r, unsigned c) { return dp_srca(f->dp)->d[0][r][c]; }

/* BFP8 (FloatBitPatterns.md BFP8ToBF16: sign, 7-bit magnitude m, value m / 64 * 2^(exp - 127),
 * normalised to BF16 exactly) with its exponent section: XDim 256 x ZDim 4 = 1024 datums = 64
 * exponent bytes, a section of 64 bytes before the datums; datums 0..15 take exponent byte 0,
 * 16..31 byte 1; face Z = 1 starts at datum 256, exponent byte 16 (InAddr_Exponents +=
 * FirstDatum / 16). */
static void test_bfp8(void **state) {
    fx_t *f = *state;
    unp0(f, FMT_BFP8, FMT_BFP8, 256, 4, 0x1000, 32, 1);
    f->l1[0x1000] = 127;
    f->l1[0x1001] = 100;
    f->l1[0x1000 + 16] = 130;
    static const uint8_t d[8] = {0x40, 0xA0, 0x01, 0x80, 0x7F, 0x00, 0x3F, 0xC1};
    memcpy(f->l1 + 0x1040, d, sizeof d);
    f->l1[0x1040 + 16] = 0x40;
    f->l1[0x1040 + 256] = 0x60;
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), src_bf16(0x3F80)); /* 64/64 = 1.0 */
    assert_int_equal(srca(f, 0, 1), src_bf16(0xBF00)); /* -32/64 = -0.5 */
    assert_int_equal(srca(f, 0, 2), src_bf16(0x3C80)); /* 1/64 = 2^-6 */
    assert_int_equal(srca(f, 0, 3), src_bf16(0xFF80)); /* sign with magnitude 0: -Inf */
    assert_int_equal(srca(f, 0, 4), src_bf16(0x3FFE)); /* 127/64 = 1.1111110b */
    assert_int_equal(srca(f, 0, 5), 0);
    assert_int_equal(srca(f, 0, 6), src_bf16(0x3F7C)); /* 63/64 = 1.1111100b x 2^-1 */
    assert_int_equal(srca(f, 0, 7), src_bf16(0xBF82)); /* -65/64 = -1.0000010b */
    assert_int_equal(srca(f, 1, 0), src_bf16(0x3200)); /* 2^(100 - 127) */
    assert_int_equal(srca(f, 2, 0), 0);                /* 32 datums only */
    /* Face 1 (ADC Z = 1): datum 256 and exponent byte 16. */
    fx_ex(f, TT_OP_SETADC(1, 0, 2, 1));
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), src_bf16(0x4140)); /* 96/64 x 2^3 = 12 */
}

/* BFP4 and BFP2: two or four datums a byte from the lowest bits up (ReadL1Bytes), each the top of
 * a BFP8 datum (BFP4ToBF16: DatumBits << 4). Their exponent section is there unless
 * NoBFPExpSection (tile descriptor bit 5); without it the exponents are read from the same
 * address as the datums (InAddr_Exponents = InAddr). */
static void test_bfp4_bfp2(void **state) {
    fx_t *f = *state;
    /* BFP4, XDim 32: 2 exponents, a 16-byte section. */
    unp0(f, FMT_BFP4, FMT_BFP4, 32, 1, 0x2000, 32, 1);
    f->l1[0x2000] = 127;
    f->l1[0x2001] = 128;
    f->l1[0x2010] = 0x4C; /* datum 0 = 0xC: sign, magnitude 100b; datum 1 = 0x4 */
    f->l1[0x2011] = 0x72; /* datum 2 = 0x2 (010b = 0.5), datum 3 = 0x7 (111b = 1.75) */
    f->l1[0x2018] = 0x04; /* datum 16 = 0x4, exponent byte 1 */
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), src_bf16(0xBF80));
    assert_int_equal(srca(f, 0, 1), src_bf16(0x3F80));
    assert_int_equal(srca(f, 0, 2), src_bf16(0x3F00));
    assert_int_equal(srca(f, 0, 3), src_bf16(0x3FE0));
    assert_int_equal(srca(f, 1, 0), src_bf16(0x4000)); /* 2.0 */
    /* NoBFPExpSection: exponent byte 0 is datum byte 0 itself (0x4C = 76). */
    fx_cfg_i(f, CFG_THCON_SEC0_REG0_TileDescriptor, 0, 0, FMT_BFP4 | 1u << 4 | 1u << 5 | 32u << 16);
    f->l1[0x3000] = 0x4C;
    FX_CFG(f, THCON_SEC0_REG3_Base_address, (0x3000 >> 4) - 1);
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), src_bf16(0x8000 | 76 << 7)); /* -1.0 x 2^(76 - 127) */
    assert_int_equal(srca(f, 0, 1), src_bf16(76 << 7));
    /* BFP2, XDim 16: one exponent, a 16-byte section; 0xE4 = 11 10 01 00b. */
    unp0(f, FMT_BFP2, FMT_BFP2, 16, 1, 0x4000, 16, 1);
    f->l1[0x4000] = 127;
    f->l1[0x4010] = 0xE4;
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), 0);                /* 00 */
    assert_int_equal(srca(f, 0, 1), src_bf16(0x3F80)); /* 01: 1.0 */
    assert_int_equal(srca(f, 0, 2), src_bf16(0xFF80)); /* 10: sign, magnitude 0: -Inf */
    assert_int_equal(srca(f, 0, 3), src_bf16(0xBF80)); /* 11: -1.0 */
}

/* Force_shared_exp: every datum takes UNP0_FORCED_SHARED_EXP_shared_exp and there is no exponent
 * section to skip (InAddr_Exponents is only used without it). */
static void test_bfp_forced_exp(void **state) {
    fx_t *f = *state;
    unp0(f, FMT_BFP8, FMT_BFP8, 256, 4, 0x5000, 16, 1);
    FX_CFG(f, THCON_SEC0_REG2_Force_shared_exp, 1);
    FX_CFG(f, UNP0_FORCED_SHARED_EXP_shared_exp, 128);
    f->l1[0x5000] = 0x40;
    f->l1[0x5001] = 0xE0; /* sign, magnitude 0x60 = 1.5 */
    f->l1[0x5010] = 0x11; /* the 17th byte: not read */
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), src_bf16(0x4000)); /* 2.0 */
    assert_int_equal(srca(f, 0, 1), src_bf16(0xC040)); /* -3.0 */
    assert_int_equal(srca(f, 1, 0), 0);
}

/* The _a family: a 5-bit exponent, to FP16 (BFP8aToFP16); a normalised exponent that leaves 5 bits
 * is undefined behaviour on the page, refused. */
static void test_bfp_a(void **state) {
    fx_t *f = *state;
    unp0(f, FMT_BFP8A, FMT_BFP8A, 16, 1, 0x6000, 16, 1);
    f->l1[0x6000] = 15;
    f->l1[0x6010] = 0x40; /* 1.0 */
    f->l1[0x6011] = 0x21; /* 33/64 = 1.03125 x 2^-1: exponent 14, mantissa 32 */
    f->l1[0x6012] = 0x80; /* -0: the FP16 pattern 0xFC00 */
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), src_fp16(0x3C00));
    assert_int_equal(srca(f, 0, 1), src_fp16(0x3820));
    assert_int_equal(srca(f, 0, 2), src_fp16(0xFC00));
    f->l1[0x6000] = 2;
    f->l1[0x6010] = 0x01; /* 1/64: exponent 2 - 6 wraps */
    assert_int_equal(fx_run(f, 0, UNPACR0), CP_ERR_UNDEFINED);
    f->l1[0x6000] = 40; /* 40 & 0xE0 */
    f->l1[0x6010] = 0x40;
    assert_int_equal(fx_run(f, 0, UNPACR0), CP_ERR_UNDEFINED);
}

/* FP8: E5M2 is the top byte of an FP16 (FormatConversion: DatumBits <<= 8), Blackhole making
 * 0x7F/0xFF the all-ones FP16 (ttsim); E4M3 with THCON_SEC0_REG1_Unp_LF8_4b_exp (Blackhole only,
 * DATAPATH.md §9; ttsim): exponent + 8 unless 0, mantissa << 7, exponent 15 mantissa 7 padded with
 * ones. */
static void test_fp8(void **state) {
    fx_t *f = *state;
    unp0(f, FMT_FP8, FMT_FP8, 16, 1, 0x7000, 16, 1);
    static const uint8_t e5m2[5] = {0x3C, 0xBC, 0x7F, 0x7C, 0x01};
    memcpy(f->l1 + 0x7000, e5m2, sizeof e5m2);
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), src_fp16(0x3C00)); /* 1.0 */
    assert_int_equal(srca(f, 0, 1), src_fp16(0xBC00));
    assert_int_equal(srca(f, 0, 2), src_fp16(0x7FFF));
    assert_int_equal(srca(f, 0, 3), src_fp16(0x7C00));
    assert_int_equal(srca(f, 0, 4), src_fp16(0x0100));
    FX_CFG(f, THCON_SEC0_REG1_Unp_LF8_4b_exp, 1);
    static const uint8_t e4m3[5] = {0x38, 0xB8, 0x7F, 0x01, 0x7E};
    memcpy(f->l1 + 0x7000, e4m3, sizeof e4m3);
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), src_fp16(0x3C00)); /* 2^(7 - 7) = 1.0: exponent 15 */
    assert_int_equal(srca(f, 0, 1), src_fp16(0xBC00));
    assert_int_equal(srca(f, 0, 2), src_fp16(0x5FFF)); /* 23 << 10 | 7 << 7 | 0x7F */
    assert_int_equal(srca(f, 0, 3), src_fp16(0x0080)); /* exponent 0 stays 0 */
    assert_int_equal(srca(f, 0, 4), src_fp16(0x5F00)); /* 1.75 x 2^8 = 448 */
}

/* Integer "8" (FormatConversion INT8): sign-magnitude, or 0..255 with SrcAUnsigned, overlaid on
 * FP16 with the dummy exponent 16 unless the magnitude is 0; INT16's raw bits. */
static void test_integers_to_src(void **state) {
    fx_t *f = *state;
    unp0(f, FMT_INT8, FMT_INT8, 16, 1, 0x8000, 16, 1);
    static const uint8_t b[4] = {0x05, 0x85, 0x00, 0x80};
    memcpy(f->l1 + 0x8000, b, sizeof b);
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), 5u << 8 | 16); /* +5: magnitude 5, dummy exponent 16 */
    assert_int_equal(srca(f, 0, 1), 1u << 18 | 5u << 8 | 16);
    assert_int_equal(srca(f, 0, 2), 0);
    assert_int_equal(srca(f, 0, 3), 1u << 18); /* -0: the sign alone */
    FX_CFG(f, ALU_FORMAT_SPEC_REG0_SrcAUnsigned, 1);
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 1), 133u << 8 | 16); /* 0x85 = 133 */
    assert_int_equal(srca(f, 0, 3), 128u << 8 | 16);
    /* INT16: bits 0..7 in the exponent field, bits 8..15 from bit 11 (SrcASrcB.md). */
    unp0(f, FMT_INT16, FMT_INT16, 16, 1, 0x8100, 16, 2);
    f->l1[0x8100] = 0xCD;
    f->l1[0x8101] = 0xAB;
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), 0xABu << 11 | 0xCD);
}

/* Into the 32-bit Dst (Unpack_If_Sel): INT32 and FP32 (out TF32: "When unpacking to Dst, TF32
 * means FP32") keep all 32 bits, in Dst.md's FP32 arrangement. */
static void test_to_dst32(void **state) {
    fx_t *f = *state;
    unp0(f, FMT_INT32, FMT_INT32, 16, 1, 0x9000, 16, 4);
    FX_CFG(f, THCON_SEC0_REG2_Unpack_If_Sel, 1);
    static const uint32_t v[3] = {0x80000005u, 0x12345678u, 0x7FFFFFFFu};
    memcpy(f->l1 + 0x9000, v, sizeof v);
    fx_ex(f, UNPACR0);
    assert_int_equal(dst32(f, 0, 0), 0x80000005u);
    assert_int_equal(dst32(f, 0, 1), 0x12345678u);
    assert_int_equal(dst32(f, 0, 2), 0x7FFFFFFFu);
    unp0(f, FMT_FP32, FMT_TF32, 16, 1, 0x9000, 16, 4);
    static const uint32_t g[2] = {0x3F800001u, 0x80000001u}; /* a denormal kept as is */
    memcpy(f->l1 + 0x9000, g, sizeof g);
    fx_ex(f, UNPACR0);
    assert_int_equal(dst32(f, 0, 0), 0x3F800001u);
    assert_int_equal(dst32(f, 0, 1), 0x80000001u);
    /* FP32 into SrcA as TF32: the low 13 mantissa bits dropped. */
    FX_CFG(f, THCON_SEC0_REG2_Unpack_If_Sel, 0);
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), src_tf32(0x3F800000u));
}

/* The output address (UNP0_ADDR_BASE_REG_1 and Channel1's strides, in bytes) must be a whole number
 * of output datums: 4 bytes for FP32/TF32/INT32, 2 for FP16/BF16/INT16, 1 for the rest; else UNPACR
 * refuses it (unpack.c unp_out_of, where the division by the datum's bytes is a shift since dp43).
 * Each misaligned by one byte and by two, then one datum on: the row lands one datum further. */
static void test_out_alignment(void **state) {
    fx_t *f = *state;
    static const unsigned fmts[3] = {FMT_FP32, FMT_BF16, FMT_INT8}, outs[3] = {FMT_TF32, FMT_BF16, FMT_INT8};
    static const unsigned osize[3] = {4, 2, 1};
    for (unsigned i = 0; i < 3; i++) {
        for (unsigned off = 1; off < osize[i]; off++) {
            unp0(f, fmts[i], outs[i], 16, 1, 0x9000, 16, osize[i]);
            FX_CFG(f, UNP0_ADDR_BASE_REG_1_Base, 64 * osize[i] + off);
            f->err = (cp_error_t){0};
            assert_int_equal(fx_run(f, 0, UNPACR0), CP_ERR_UNDEFINED);
            if (!strstr(f->err.what, "not aligned")) fail_msg("%u, +%u: %s", fmts[i], off, f->err.what);
        }
        f->err = (cp_error_t){0};
        unp0(f, fmts[i], outs[i], 16, 1, 0x9000, 16, osize[i]);
        FX_CFG(f, UNP0_ADDR_BASE_REG_1_Base, 64 * osize[i] + osize[i]);
        memset(f->l1 + 0x9000, 0, 64);
        f->l1[0x9000] = 0x40; /* datum 0's top byte (its last byte for the wider formats) */
        if (osize[i] > 1) f->l1[0x9000] = 0, f->l1[0x9000 + osize[i] - 1] = 0x40;
        fx_ex(f, UNPACR0);
        assert_int_not_equal(srca(f, 0, 1), 0); /* datum 0 at column 1 */
        assert_int_equal(srca(f, 0, 2), 0);
    }
}

/* Haloize_mode transposes within 16 rows (Row and Col swapped); Tileize_mode takes 16 datums a
 * row from RowStride = Shift_amount_cntx[0] << 4 | [1] << 8 | [2] << 12 bytes apart, and needs a
 * 16-byte aligned start (as transposition does). */
static void test_transpose_tileize(void **state) {
    fx_t *f = *state;
    unp0(f, FMT_BF16, FMT_BF16, 256, 1, 0xA000, 256, 2);
    for (unsigned i = 0; i < 256; i++) {
        f->l1[0xA000 + 2 * i] = (uint8_t)i;
        f->l1[0xA000 + 2 * i + 1] = 0x3F;
    }
    FX_CFG(f, THCON_SEC0_REG2_Haloize_mode, 1);
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 3, 5), src_bf16(0x3F00 | (5 * 16 + 3))); /* datum row 5, column 3 */
    assert_int_equal(srca(f, 15, 0), src_bf16(0x3F00 | 15));
    FX_CFG(f, THCON_SEC0_REG2_Haloize_mode, 0);
    FX_CFG(f, THCON_SEC0_REG2_Tileize_mode, 1);
    fx_cfg_i(f, CFG_THCON_SEC0_REG2_Shift_amount_cntx0, 1, 0, 1); /* 256 bytes a row */
    unp0(f, FMT_BF16, FMT_BF16, 256, 1, 0xA000, 32, 2);
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 15), src_bf16(0x3F0F));
    assert_int_equal(srca(f, 1, 0), src_bf16(0x3F80)); /* datum 16 from 0xA000 + 256: i = 128 */
    assert_int_equal(srca(f, 1, 1), src_bf16(0x3F81));
    FX_CFG(f, UNP0_ADDR_BASE_REG_1_Base, 64 * 2);
    fx_ex(f, TT_OP_SETADCXY(1, 0, 0, 0, 3, 0x1)); /* Channel 0 X = 3: datum 3, 6 bytes in */
    assert_int_equal(fx_run(f, 0, UNPACR0), CP_ERR_UNDEFINED);
}

/* SrcA rows (UNPACR_Regular.md): without SRCA_SET_SetOvrdWithAddr the row (0..15) is offset by
 * the unpacker's SrcRow, which Unpack_Src_Reg_Set_Upd steps by 16 after each UNPACR; with it the
 * address is used as is. Unpacking to Dst with it set is undefined. */
static void test_src_rows(void **state) {
    fx_t *f = *state;
    unp0(f, FMT_BF16, FMT_BF16, 16, 1, 0xC000, 16, 2);
    FX_CFG(f, THCON_SEC0_REG2_Unpack_Src_Reg_Set_Upd, 1);
    f->l1[0xC000] = 0x80, f->l1[0xC001] = 0x3F; /* 1.0 */
    fx_ex(f, UNPACR0);
    f->l1[0xC000] = 0x00, f->l1[0xC001] = 0x40; /* 2.0 */
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), src_bf16(0x3F80));
    assert_int_equal(srca(f, 16, 0), src_bf16(0x4000)); /* SrcRow 16 */
    FX_THCFG(f, SRCA_SET_SetOvrdWithAddr, 1);
    f->l1[0xC001] = 0x40, f->l1[0xC000] = 0x40; /* 3.0 */
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), src_bf16(0x4040)); /* row 0 whatever SrcRow */
    FX_CFG(f, THCON_SEC0_REG2_Unpack_If_Sel, 1);
    assert_int_equal(fx_run(f, 0, UNPACR0), CP_ERR_UNDEFINED);
}

/* Zero-compressed input (Packers/Compression.md; UNPACR_Regular.md): row start indices [0, 3, 30,
 * 33] (16 bits each, 4 of them, a 16-byte section), then groups of 32 BF16 datums (64 bytes) each
 * followed by 32 four-bit counts of the zeroes after each datum (16 bytes). Row 0 is 1.0 (2
 * zeroes), 2.0, 3.0 (1 zero): 1 0 0 2 3 0. Row 1 starts at augmented datum 3: 4.0, 5.0 (3 zeroes).
 * Row 2 is datums 30, 31 of group 0 (6.0; 7.0 with 1 zero) and 32, the first of group 1 (8.0). */
static void test_compressed(void **state) {
    fx_t *f = *state;
    const uint32_t l1 = 0xB000, grp0 = l1 + 16, grp1 = grp0 + 64 + 16;
    unp0(f, FMT_BF16, FMT_BF16, 16, 1, l1, 16, 2);
    fx_cfg_i(f, CFG_THCON_SEC0_REG0_TileDescriptor, 0, 0, FMT_BF16 | 16u << 16); /* IsUncompressed 0 */
    fx_cfg_i(f, CFG_THCON_SEC0_REG0_TileDescriptor, 1, 0, 3u | 1u << 16);        /* YDim 3 */
    static const uint16_t rs[4] = {0, 3, 30, 33};
    memcpy(f->l1 + l1, rs, sizeof rs);
    static const uint16_t vals[5] = {0x3F80, 0x4000, 0x4040, 0x4080, 0x40A0}; /* 1 .. 5 */
    memcpy(f->l1 + grp0, vals, sizeof vals);
    f->l1[grp0 + 64] = 0x02;                          /* counts 2, 0 */
    f->l1[grp0 + 65] = 0x01;                          /* 1, 0 */
    f->l1[grp0 + 66] = 0x03;                          /* 3 (datum 4) */
    f->l1[grp0 + 60] = 0xC0, f->l1[grp0 + 61] = 0x40; /* datum 30: 6.0 */
    f->l1[grp0 + 62] = 0xE0, f->l1[grp0 + 63] = 0x40; /* datum 31: 7.0 */
    f->l1[grp0 + 64 + 15] = 0x10;                     /* counts of 30, 31: 0, 1 */
    f->l1[grp1] = 0x00, f->l1[grp1 + 1] = 0x41;       /* datum 32: 8.0, count 0 */
    src_regs_t *a = dp_srca_mut(f->dp);
    for (unsigned c = 0; c < 16; c++)
        dp_src_rows_w(a, 0)[0][c] = 0x12345;
    fx_ex(f, UNPACR0); /* row 0, whole (X 0..15 = XDim - 1) */
    static const uint16_t row0[7] = {0x3F80, 0, 0, 0x4000, 0x4040, 0, 0};
    for (unsigned c = 0; c < 6; c++)
        assert_int_equal(srca(f, 0, c), row0[c] ? src_bf16(row0[c]) : 0);
    assert_int_equal(srca(f, 0, 6), 0x12345); /* the row's 6 datums only */
    /* Row 2 whole: across the group boundary. */
    fx_ex(f, TT_OP_SETADC(1, 0, 1, 2)); /* Channel 0 Y = 2 */
    fx_ex(f, UNPACR0);
    static const uint16_t row2[4] = {0x40C0, 0x40E0, 0, 0x4100};
    for (unsigned c = 0; c < 4; c++)
        assert_int_equal(srca(f, 0, c), row2[c] ? src_bf16(row2[c]) : 0);
    /* Row 1, X 1..2: the first output datum (4.0) dropped, then two kept (5.0 and a zero). */
    for (unsigned c = 0; c < 16; c++)
        dp_src_rows_w(a, 0)[0][c] = 0x12345;
    fx_ex(f, TT_OP_SETADC(1, 0, 1, 1));
    fx_ex(f, TT_OP_SETADC(1, 0, 0, 1)); /* Channel 0 X = 1 */
    fx_ex(f, TT_OP_SETADCXX(1, 2, 1));  /* Channel 1 X = 2 */
    fx_ex(f, UNPACR0);
    assert_int_equal(srca(f, 0, 0), src_bf16(0x40A0));
    assert_int_equal(srca(f, 0, 1), 0);
    assert_int_equal(srca(f, 0, 2), 0x12345);
    /* Tileize with compressed input is undefined. */
    FX_CFG(f, THCON_SEC0_REG2_Tileize_mode, 1);
    assert_int_equal(fx_run(f, 0, UNPACR0), CP_ERR_UNDEFINED);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_bfp8, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_bfp4_bfp2, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_bfp_forced_exp, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_bfp_a, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_fp8, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_integers_to_src, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_to_dst32, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_out_alignment, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_transpose_tileize, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_src_rows, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_compressed, fx_setup, fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
