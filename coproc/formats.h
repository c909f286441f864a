/* coproc/formats.h — the Tensix data formats as pure functions over bit patterns: the 4-bit format
 * codes, conversions between the host formats (fp32, bf16, fp16, tf32, integers) with their
 * rounding modes and special values, the register files' internal layouts (the 19-bit Src datum,
 * Dst's 16-bit cells and 32-bit datums), and the conversion each unit performs on its way through
 * them (unpacker, MOVA2D/MOVB2D/MOVD2A/MOVD2B, SFPLOAD/SFPSTORE/SFPLOADI/SFPSTOCHRND/SFPCAST,
 * packer, the RISC-V window onto Dst), plus block floats. No state, no clock; every function is
 * tested on its own (test/unit/test_formats.c). Facts: ../shared/docs/DATAPATH.md §2 and the ISA
 * pages cited above each group; docs/datapath.md ("Formats") lists every rule and every choice.
 *
 * Values travel as bit patterns (uint32_t for fp32 and every 32-bit or 19-bit datum, uint16_t for
 * bf16/fp16 and Dst16b cells, uint8_t for 8-bit formats), never as C floats, so no host rounding
 * mode or x87 excess precision can touch them. "IEEE order" means sign | exponent | mantissa as
 * IEEE 754 lays them out; the register files use other orders (the *_encode/_decode pairs).
 *
 * The conversions the units apply to every datum also come as row forms (FMT_ROW datums:
 * fmt_unpack_rows, fmt_mova2d_dst16_rows, fmt_pack_row) and lane forms (the Vector Unit's FMT_LANES:
 * fmt_sfpload_lanes, fmt_sfpstore_lanes). Each is its per-datum function's rule (one inline
 * function in formats.c), looped with the common modes as constants so that the compiler can
 * vectorise the loop. Four BF16 cases are written out again in SSE2 lanes on a host that has them
 * (formats.c unpack_rows_bf16_src, mova2d_rows_bf16, sfpload_lanes_bf16, sfpstore_lanes_bf16;
 * their plain form is the rule's loop, fmt_simd_form): test/unit/test_dp_fast.c compares each
 * with the per-datum rule, in both builds (test_dp_fast_nosimd).
 */
#ifndef TTEMU_COPROC_FORMATS_H
#define TTEMU_COPROC_FORMATS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---- Format codes ----------------------------------------------------------------------------
 * The 4-bit data format codes every format field uses (DATAPATH.md §2.2; WH UNPACR_Regular.md,
 * WH Packers/FormatConversion.md "Configuring the conversions"). Codes 12 and 13 are unused. */
typedef enum {
    FMT_FP32 = 0,
    FMT_FP16 = 1,  /* "Float16" (a): 5-bit exponent */
    FMT_BFP8A = 2, /* block float, shared 5-bit-exponent family */
    FMT_BFP4A = 3,
    FMT_TF32 = 4,
    FMT_BF16 = 5, /* "Float16_b": 8-bit exponent */
    FMT_BFP8 = 6, /* block float, shared 8-bit exponent ("_b") */
    FMT_BFP4 = 7,
    FMT_INT32 = 8,
    FMT_INT16 = 9, /* also UInt16 */
    FMT_FP8 = 10,  /* LF8: E5M2, or E4M3 on Blackhole when the *_LF8_4b_exp bit is set */
    FMT_BFP2A = 11,
    FMT_INT8 = 14,
    FMT_BFP2 = 15,
} fmt_t;

typedef enum {
    FMT_RNE = 0,   /* round to nearest, ties to even */
    FMT_TRUNC = 1, /* round toward zero (drop the low bits) */
} fmt_round_t;

/* The name of a format code ("BF16", "FP32", ...), "?" for an unused code. */
const char *fmt_name(unsigned code);
/* Bits per datum in L1 (32, 16, 8, 4 or 2; BFP formats without their exponent section); 0 for an
 * unused code. */
unsigned fmt_datum_bits(unsigned code);
/* BFP8/4/2 and BFP8a/4a/2a: 16 datums share one exponent byte (FloatBitPatterns.md "BFP"). */
bool fmt_is_bfp(unsigned code);
/* The 8-bit-exponent family {FP32, TF32, BF16, BFP8, BFP4, BFP2, INT32, INT16}: MOVA2D/MOVB2D's
 * Use8bExponent and SFPLOAD/SFPSTORE's MOD0_FMT_SRCB test this set (WH MOVA2D.md `SrcAFmt in
 * {...}`, BH SFPLOAD.md); every other code takes the FP16 (5-bit exponent) path. Inline: every
 * SFPLOAD and SFPSTORE asks. */
static inline bool fmt_exp8_family(unsigned code) {
    switch (code) {
    case FMT_FP32:
    case FMT_TF32:
    case FMT_BF16:
    case FMT_BFP8:
    case FMT_BFP4:
    case FMT_BFP2:
    case FMT_INT32:
    case FMT_INT16: return true;
    default: return false;
    }
}

/* ---- Classification and flushing (IEEE interpretation of the bits) --------------------------- */
typedef enum {
    FMT_CLASS_ZERO,
    FMT_CLASS_DENORMAL, /* exponent field 0, mantissa non-zero */
    FMT_CLASS_NORMAL,
    FMT_CLASS_INF,
    FMT_CLASS_NAN,
} fmt_class_t;

fmt_class_t fmt_fp32_class(uint32_t f);
fmt_class_t fmt_bf16_class(uint16_t b);
fmt_class_t fmt_fp16_class(uint16_t h); /* IEEE fp16; the coprocessor has no fp16 Inf/NaN */
/* A denormal becomes zero of the same sign; every other pattern is returned unchanged. */
static inline uint32_t fmt_fp32_flush(uint32_t f) { return (f & 0x7F800000u) ? f : (f & 0x80000000u); }
static inline uint16_t fmt_bf16_flush(uint16_t b) { return (b & 0x7F80) ? b : (uint16_t)(b & 0x8000); }
static inline uint16_t fmt_fp16_flush(uint16_t h) { return (h & 0x7C00) ? h : (uint16_t)(h & 0x8000); }

/* ---- IEEE conversions (host side: tensors in and out) -----------------------------------------
 * Narrowing (to bf16, fp16, tf32) under FMT_RNE rounds to nearest, ties to even; under FMT_TRUNC
 * drops the low bits. NaN stays NaN: sign kept, payload truncated to the narrower mantissa, quiet
 * bit set (so a signalling NaN is quietened, as IEEE 754 §7.2 asks of a conversion). ±Inf stays
 * ±Inf. Overflow gives ±Inf under FMT_RNE and the largest finite value under FMT_TRUNC. Subnormal
 * results are produced (no flush: the units flush where the ISA says so, in their own functions
 * below). Widening (bf16/fp16 to fp32) is exact for every pattern, NaN bits included, so
 * narrow(widen(x)) == x for every non-NaN x and for every quiet NaN. */
uint16_t fmt_fp32_to_bf16(uint32_t f, fmt_round_t r);
static inline uint32_t fmt_bf16_to_fp32(uint16_t b) { return (uint32_t)b << 16; }
uint16_t fmt_fp32_to_fp16(uint32_t f, fmt_round_t r);
uint32_t fmt_fp16_to_fp32(uint16_t h);
/* TF32 (8-bit exponent, 10-bit mantissa) in an fp32 container: the low 13 bits of the result are
 * zero (WH Packers/FormatConversion.md "Final L1 output format"). */
uint32_t fmt_fp32_to_tf32(uint32_t f, fmt_round_t r);

/* ---- Integers ---------------------------------------------------------------------------------
 * The coprocessor's INT32/INT16/INT8 are sign-magnitude (WH Packers/FormatConversion.md "Final L1
 * output format"; BH Dst.md "Data types"); UINT8 and UINT16 are plain unsigned (INT8 with the
 * *Unsigned flags, INT16 used for opaque bits). Host two's complement to sign-magnitude saturates
 * the one value with no counterpart (-2^31 -> -(2^31-1), as Dst.md's RISC-V Store32 does);
 * sign-magnitude -0 reads back as 0. */
uint32_t fmt_int32_to_sm32(int32_t v);
int32_t fmt_sm32_to_int32(uint32_t sm);
uint16_t fmt_int16_to_sm16(int16_t v);
int16_t fmt_sm16_to_int16(uint16_t sm);
uint8_t fmt_int8_to_sm8(int8_t v);
int8_t fmt_sm8_to_int8(uint8_t sm);

/* ---- Register-file layouts --------------------------------------------------------------------
 * Src (WH SrcASrcB.md "Data type bit layout", diagrams Src_TF32/BF16/FP16/INT8/INT16): a 19-bit
 * datum, bit 18 sign, bits 8..17 a 10-bit mantissa, bits 0..7 an 8-bit exponent. BF16 fills the
 * top 7 mantissa bits (low 3 zero); FP16 puts its 5-bit exponent in bits 0..4 (bits 5..7 zero);
 * Integer "8" overlays FP16; Integer "16" keeps its low byte in bits 0..7 and bits 8..14 in bits
 * 11..17 (the BF16 arrangement of the raw 16 bits). The ISA describes the layout directly (it is
 * the bit pattern MOVA2D and the FPU read), so encode = IEEE order -> Src, decode = the inverse.
 * Encoders take IEEE-order inputs; tf32 travels in an fp32 container (low 13 bits ignored). */
/* Inline: the unpackers and the Matrix Unit apply them to every datum. */
static inline uint32_t fmt_src_encode_tf32(uint32_t f) {
    return ((f >> 31) << 18) | (((f >> 13) & 0x3FF) << 8) | ((f >> 23) & 0xFF);
}

static inline uint32_t fmt_src_decode_tf32(uint32_t s) {
    return (((s >> 18) & 1) << 31) | ((s & 0xFF) << 23) | (((s >> 8) & 0x3FF) << 13);
}

/* BF16 is TF32 with the 3 low mantissa bits zero (SrcASrcB.md "overlaid onto TF32"). */
static inline uint32_t fmt_src_encode_bf16(uint16_t b) { return fmt_src_encode_tf32((uint32_t)b << 16); }
static inline uint16_t fmt_src_decode_bf16(uint32_t s) { return (uint16_t)(fmt_src_decode_tf32(s) >> 16); }

/* FP16: the 5-bit exponent sits in the low 5 exponent bits, the high 3 are zero. */
static inline uint32_t fmt_src_encode_fp16(uint16_t h) {
    return ((uint32_t)(h >> 15) << 18) | ((uint32_t)(h & 0x3FF) << 8) | ((h >> 10) & 0x1F);
}

static inline uint16_t fmt_src_decode_fp16(uint32_t s) {
    return (uint16_t)((((s >> 18) & 1) << 15) | ((s & 0x1F) << 10) | ((s >> 8) & 0x3FF));
}

/* Integer "16": raw bits 0..7 in the exponent field, bits 8..15 (sign included) from bit 11. */
static inline uint32_t fmt_src_encode_int16(uint16_t raw) { return ((uint32_t)(raw & 0xFF00) << 3) | (raw & 0xFF); }
static inline uint16_t fmt_src_decode_int16(uint32_t s) { return (uint16_t)(((s >> 3) & 0xFF00) | (s & 0xFF)); }

/* Dst (BH Dst.md "Data type bit layout" and its DstEncode/DstDecode helpers): a Dst16b cell
 * holds BF16 as sign | mantissa(7) << 8 | exponent(8) and FP16 (and Integer "8") as sign |
 * mantissa(10) << 5 | exponent(5); Integer "16" is stored raw. A Dst32b datum holds FP32 with its
 * high 16 bits in the BF16 arrangement and the low 16 mantissa bits as they are; Integer "32"
 * (sign-magnitude) uses the same arrangement. The ISA names both directions: encode = IEEE order
 * -> Dst (DstEncodeBF16/FP16/FP32), decode = Dst -> IEEE order. */
static inline uint16_t fmt_dst_encode_bf16(uint16_t b) {
    return (uint16_t)((b & 0x8000) | ((b & 0x7F) << 8) | ((b >> 7) & 0xFF));
}

static inline uint16_t fmt_dst_decode_bf16(uint16_t c) {
    return (uint16_t)((c & 0x8000) | ((c & 0xFF) << 7) | ((c >> 8) & 0x7F));
}

static inline uint16_t fmt_dst_encode_fp16(uint16_t h) {
    return (uint16_t)((h & 0x8000) | ((h & 0x3FF) << 5) | ((h >> 10) & 0x1F));
}

static inline uint16_t fmt_dst_decode_fp16(uint16_t c) {
    return (uint16_t)((c & 0x8000) | ((c & 0x1F) << 10) | ((c >> 5) & 0x3FF));
}

/* "Note that the "FP32" encoding is also used for INT32" (Dst.md): the BF16 shuffle of the high
 * half, the low half as is. */
static inline uint32_t fmt_dst_encode_fp32(uint32_t f) {
    return ((uint32_t)fmt_dst_encode_bf16((uint16_t)(f >> 16)) << 16) | (f & 0xFFFF);
}
static inline uint32_t fmt_dst_decode_fp32(uint32_t d) {
    return ((uint32_t)fmt_dst_decode_bf16((uint16_t)(d >> 16)) << 16) | (d & 0xFFFF);
}

/* ---- Unpacker: L1 datum -> Src datum or Dst cell ----------------------------------------------
 * WH UNPACR_Regular.md FormatConversion (BH shares the page), FloatBitPatterns.md BFP routines;
 * FP32 -> FP16 and FP8 from ttsim (the page leaves FP32ToFP16 undefined; FP8 details are BH). */
typedef struct {
    uint8_t in_fmt;     /* TileDescriptor InDataFormat */
    uint8_t out_fmt;    /* THCON_SEC<u>_REG2_Out_data_format */
    bool to_dst;        /* unpacking to Dst (Unpack_if_sel), else to SrcA/SrcB */
    bool int8_unsigned; /* ALU_FORMAT_SPEC_REG0_SrcAUnsigned (unpacker 0) / SrcBUnsigned (1) */
    bool fp8_e4m3;      /* THCON_SEC<u>_REG1_Unp_LF8_4b_exp (BH): FP8 is E4M3, else E5M2 */
} fmt_unpack_mode_t;

/* True if the ISA defines this in/out/destination combination (check once per instruction). */
bool fmt_unpack_check(const fmt_unpack_mode_t *m);
/* True if the result is a Dst32b datum (to Dst with out format FP32, TF32 or INT32); otherwise it
 * is a 19-bit Src datum or a Dst16b cell. */
bool fmt_unpack_writes_dst32(const fmt_unpack_mode_t *m);
/* Convert one datum: datum holds the L1 bits right-aligned (32, 16, 8, 4 or 2 of them), exp the
 * shared exponent for BFP formats (ignored otherwise). The combination must pass the check. */
uint32_t fmt_unpack(const fmt_unpack_mode_t *m, uint32_t datum, uint8_t exp);
/* The same for n rows of 16 datums of 8, 16 or 32 bits (not a block float) in L1 order
 * (little-endian), one after the other from l1: out[k] = fmt_unpack(m, datum k, 0), k < 16 n (one
 * rule; test_dp_fast.c compares them). The mode is looked at once for the n rows. */
#define FMT_ROW 16
void fmt_unpack_rows(const fmt_unpack_mode_t *m, const uint8_t *restrict l1, uint32_t *restrict out, unsigned n);
/* An L1 INT8 byte as Integer "8" (IEEE-order FP16 overlay: sign | 16 << 10 | magnitude, exponent
 * 0 when the magnitude is 0), signed sign-magnitude or, with is_unsigned, 0..255. */
uint16_t fmt_unpack_int8(uint8_t byte, bool is_unsigned);

/* ---- Matrix Unit moves between Src and Dst ----------------------------------------------------
 * The Src "style" of a format code (WH MOVD2A.md SrcAStyle; MOVA2D.md's Use8bExponent is style !=
 * FP16). fp16a_force: ThreadConfig FP16A_FORCE_Enable, which forces the FP16 style. */
typedef enum {
    FMT_STYLE_BF16,
    FMT_STYLE_FP16,
    FMT_STYLE_TF32,
} fmt_style_t;
fmt_style_t fmt_src_style(unsigned code, bool fp16a_force);

/* MOVA2D and MOVB2D (WH MOVA2D.md, MOVB2D.md): one Src datum -> one Dst16b cell. zero_flag is
 * !ALU_ACC_CTRL_Zero_Flag_disabled_src: a datum whose 8 exponent bits are 0 becomes +0 first
 * (for Integer "16" that zeroes any value whose low byte is 0, as SrcASrcB.md warns). The FP16
 * style keeps 10 mantissa bits and the low 5 exponent bits, the others 7 mantissa bits and 8
 * exponent bits. */
uint16_t fmt_mova2d_dst16(uint32_t src, fmt_style_t style, bool zero_flag);
/* The same for n rows of FMT_ROW one after the other: out[k] = fmt_mova2d_dst16(src[k], style,
 * zero_flag), k < 16 n. */
void fmt_mova2d_dst16_rows(const uint32_t *restrict src, fmt_style_t style, bool zero_flag, uint16_t *restrict out,
                           unsigned n);
/* MOVA2D/MOVB2D with a TF32 Src format: the Dst32b datum (the 3 low Src mantissa bits land in bits
 * 13..15 of the low half). UseDst32bLo variants are the caller's (see MOVA2D.md). */
uint32_t fmt_mova2d_dst32(uint32_t src, bool zero_flag);
/* MOVD2A and MOVD2B (WH MOVD2A.md, MOVD2B.md): a Dst16b cell (BF16 or FP16 style) or a Dst32b
 * datum (any style; BF16/FP16 take its high half, TF32 truncates the fp32 to 10 mantissa bits) ->
 * one Src datum. A Dst16b cell with the TF32 style is undefined (the caller refuses it). */
uint32_t fmt_movd2src_dst16(uint16_t cell, fmt_style_t style);
uint32_t fmt_movd2src_dst32(uint32_t datum, fmt_style_t style);

/* ---- Vector Unit (SFPU) -----------------------------------------------------------------------
 * SFPLOAD/SFPSTORE Mod0 values (BH SFPLOAD.md, SFPSTORE.md "Supporting definitions"). */
typedef enum {
    FMT_MOD0_SRCB = 0,
    FMT_MOD0_FP16 = 1,
    FMT_MOD0_BF16 = 2,
    FMT_MOD0_FP32 = 3,
    FMT_MOD0_INT32 = 4,
    FMT_MOD0_INT8 = 5,
    FMT_MOD0_UINT16 = 6,
    FMT_MOD0_HI16 = 7,
    FMT_MOD0_INT16 = 8,
    FMT_MOD0_LO16 = 9,
    FMT_MOD0_INT32_ALL = 10,
    FMT_MOD0_ZERO = 11,
    FMT_MOD0_INT32_SM = 12,  /* deprecated on BH: no conversion */
    FMT_MOD0_INT8_COMP = 13, /* deprecated on BH: no conversion */
    FMT_MOD0_LO16_ONLY = 14,
    FMT_MOD0_HI16_ONLY = 15,
} fmt_mod0_t;

/* MOD0_FMT_SRCB resolved (BH SFPLOAD.md/SFPSTORE.md): FP32 if ALU_ACC_CTRL_SFPU_Fp32_enabled, else
 * BF16 for a format code in the 8-bit-exponent family, FP16 otherwise. srcb_fmt is the code the
 * caller already chose (ALU_FORMAT_SPEC_REG_SrcB_val if overridden, else ..._REG1_SrcB, replaced
 * on BH by SFPU_DEST_FMT_Base when SFPU_DEST_FMT_Enable). Any other mod0 is returned unchanged. */
static inline unsigned fmt_mod0_resolve(unsigned mod0, bool sfpu_fp32_enabled, unsigned srcb_fmt) {
    if (mod0 != FMT_MOD0_SRCB) return mod0;
    if (sfpu_fp32_enabled) return FMT_MOD0_FP32;
    return fmt_exp8_family(srcb_fmt) ? FMT_MOD0_BF16 : FMT_MOD0_FP16;
}

/* SFPLOAD: true if this (resolved) Mod0 reads a Dst32b datum, else it reads a Dst16b cell. Inline,
 * as the two above and below: every SFPLOAD and SFPSTORE asks. */
static inline bool fmt_sfpload_reads_dst32(unsigned mod0) {
    return mod0 == FMT_MOD0_FP32 || mod0 == FMT_MOD0_INT32 || mod0 == FMT_MOD0_INT32_ALL || mod0 == FMT_MOD0_INT32_SM;
}
/* SFPLOAD: the LReg value from the Dst cell/datum. old is the LReg's previous value (the _ONLY
 * modes keep half of it); fp16a_inf is LaneConfig ENABLE_FP16A_INF (FP16: the largest pattern
 * becomes ±Inf). MOD0_SRCB must be resolved first (it yields 0 here). */
uint32_t fmt_sfpload(unsigned mod0, uint32_t dst, uint32_t old, bool fp16a_inf);
/* A 32-bit word of the lane forms read or written where it lies, which may be a pair of Dst's
 * 16-bit cells (coproc/sfpu.c hands the lane forms its block of four Dst rows itself, not a copy):
 * it may alias the cells (may_alias) and needs only their alignment. A plain uint32_t array
 * converts to it. */
typedef uint32_t fmt_pair_t __attribute__((may_alias, aligned(2)));
/* The same for the Vector Unit's 32 lanes at once, in place: lreg[l] = fmt_sfpload(mod0, dst[l]
 * >> shift, lreg[l], fp16a_inf) (one rule; test_dp_fast.c compares them). shift 16 reads 16-bit
 * cells from the high halves of pairs of cells (coproc/sfpu.c), else 0. dst may not overlap lreg. */
#define FMT_LANES 32
void fmt_sfpload_lanes(unsigned mod0, const fmt_pair_t *restrict dst, unsigned shift, bool fp16a_inf,
                       uint32_t *restrict lreg);
/* SFPSTORE: true if this (resolved) Mod0 writes a Dst32b datum, else a Dst16b cell. */
static inline bool fmt_sfpstore_writes_dst32(unsigned mod0) {
    return fmt_sfpload_reads_dst32(mod0) || mod0 == FMT_MOD0_LO16 || mod0 == FMT_MOD0_HI16;
}
/* SFPSTORE: the Dst cell/datum from the LReg value. BF16/FP16/FP32 flush denormals to signed zero
 * and truncate; FP16 saturates large magnitudes (and NaN) to the largest pattern. */
uint32_t fmt_sfpstore(unsigned mod0, uint32_t lreg);
/* The same for 32 lanes, merged into words: out[l] = (out[l] & keep) | fmt_sfpstore(mod0, lreg[l])
 * << shift, shift 0 or 16. keep 0 and shift 0 give the datums; a mode writing 16-bit cells can put
 * them in one half of pairs of cells (keep the other half's mask, shift 0 or 16: coproc/sfpu.c). */
void fmt_sfpstore_lanes(unsigned mod0, const uint32_t *restrict lreg, uint32_t keep, unsigned shift,
                        fmt_pair_t *restrict out);
/* The Vector Unit's 32 lanes of words as masks, lane L at bit L: the lanes whose bit 31 is set
 * (SFPSETCC's VC < 0, SFPIADD's VD < 0), and the lanes whose word is 0 (SFPSETCC's VC == 0). */
uint32_t fmt_lanes_sign_mask(const uint32_t *v);
uint32_t fmt_lanes_zero_mask(const uint32_t *v);
/* dst[l] = src[l] in the lanes whose bit of en is set (the enabled lanes' results written). */
void fmt_lanes_merge(uint32_t *restrict dst, const uint32_t *restrict src, uint32_t en);
/* Which form of the four BF16 row and lane cases above, the lane masks and fmt_lanes_merge this build has: "sse2" (host
 * vector lanes) or "plain" (-DTTEMU_NO_SIMD or no SSE2). The tests run both (Makefile,
 * test_dp_fast_nosimd). */
const char *fmt_simd_form(void);
/* 1 where the host's own byte order is the datapath's (little-endian: L1's datums and the pairs of
 * Dst cells read as host words), so that the fast forms may read and write them in place;
 * -DTTEMU_NO_SIMD selects the portable forms (byte by byte, pairs assembled) even here, so that
 * test_dp_fast_nosimd runs them (formats.c, pack.c, sfpu.c). Which form a file was built with:
 * fmt_byte_order_form here, dp_pack_byte_order_form and dp_sfpu_byte_order_form (datapath.h),
 * "le" or "portable". */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !defined(TTEMU_NO_SIMD)
#define FMT_HOST_LE 1
#else
#define FMT_HOST_LE 0
#endif
const char *fmt_byte_order_form(void);

/* A little-endian 32-bit word of L1 (or of bytes bound for it) at p, read and written: one host
 * word where FMT_HOST_LE, else byte by byte. */
static inline uint32_t fmt_le32_read(const uint8_t *p) {
#if FMT_HOST_LE
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
#else
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
}
static inline void fmt_le32_write(uint8_t *p, uint32_t v) {
#if FMT_HOST_LE
    memcpy(p, &v, 4);
#else
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
#endif
}

/* SFPLOADI (WH SFPLOADI.md, identical on BH): the LReg value from Imm16 for Mod0 0 (BF16), 1 (FP16
 * with the exponent rebiased by +112 always), 2 (UINT16), 4 (INT16 sign-extended), 8 (upper half,
 * keep low), 10 (lower half, keep high). Returns false for any other Mod0 (undefined). */
bool fmt_sfploadi(unsigned mod0, uint16_t imm, uint32_t old, uint32_t *out);

/* SFPSTOCHRND (BH SFPSTOCHRND_FloatFloat.md, _FloatInt.md, _IntInt.md), every flavour, hardware
 * bugs included. Mod1: 0 fp32 -> 10 mantissa bits, 1 -> 7 mantissa bits, 2 -> uint8, 3 -> int8,
 * 4 sign-magnitude int32 >> shift -> uint8, 5 -> int8, 6 fp32 -> uint16, 7 -> int16. rnd: 0 round
 * to nearest (ties away from zero), 2 toward zero (buggy), 1 or 3 stochastic. prng: the lane's
 * AdvancePRNG() value (the caller owns the PRNG; only its low 23 bits are used). shift: the
 * IntInt descale amount (Imm5 or LReg[VB] & 31). Returns false for an undefined Mod1. */
bool fmt_sfpstochrnd(unsigned mod1, unsigned rnd, uint32_t x, unsigned shift, uint32_t prng, uint32_t *out);
/* SFPCAST sign-magnitude int32 -> fp32 (BH SFPCAST_IntFloat.md): ties-to-even, or with stochastic
 * the comparison against 7 bits of prng (the lane's AdvancePRNG() value). */
uint32_t fmt_sfpcast_sm32_to_fp32(uint32_t x, bool stochastic, uint32_t prng);
/* SFPCAST between two's complement and sign-magnitude (BH SFPCAST_IntInt.md): one involution,
 * -2^31 <-> -0. */
uint32_t fmt_sfpcast_int_sm(uint32_t x);

/* ---- Packer: Dst -> L1 ------------------------------------------------------------------------
 * WH Packers/FormatConversion.md (BH PACR.md defers to it) for the rules, ttsim's PACR for the
 * Blackhole paths the page does not cover and for the exact rounding arithmetic. Two stages: the
 * early conversion (Dst -> the intermediate format) and the late one (intermediate -> L1). The
 * intermediate value is in IEEE order of the intermediate format: 32 bits for FP32/TF32/INT32,
 * a bf16 pattern for BF16/BFP8 (E8M6), an fp16 pattern for FP16/BFP8a/FP8, 16 raw bits for
 * INT16, a byte for INT8. ReLU (between the stages) and L1 accumulation are not here. */
typedef struct {
    uint8_t intermediate; /* ALU_FORMAT_SPEC_REG2_Dstacc (or _REG_Dstacc_val); must equal the
                             packer's In_data_format (the late stage's input) */
    uint8_t out_fmt;      /* THCON_SEC0_REG1_Out_data_format */
    bool read_32b;        /* PCK_DEST_RD_CTRL_Read_32b_data: Dst32b datums, else Dst16b cells */
    bool read_raw;        /* PCK_DEST_RD_CTRL_Read_int8 ("Read_raw"): identity/truncation */
    bool read_unsigned;   /* PCK_DEST_RD_CTRL_Read_unsigned (INT8 intermediate: UINT8) */
    bool round_10b_mant;  /* PCK_DEST_RD_CTRL_Round_10b_mant */
    bool fp8_e4m3;        /* THCON_SEC0_REG1_Pac_LF8_4b_exp (BH): FP8 out is E4M3 */
    uint8_t int_shift;    /* INT8 intermediate: right shift of the magnitude (INT_DESCALE), 0..31 */
} fmt_pack_mode_t;

/* True if the combination is one this library models (docs/datapath.md lists them). */
bool fmt_pack_check(const fmt_pack_mode_t *m);
/* Early conversion of one Dst16b cell or Dst32b datum (per read_32b). */
uint32_t fmt_pack_early(const fmt_pack_mode_t *m, uint32_t dst);
/* Late conversion: the L1 bits (right-aligned). For a BFP out format the result is the bf16
 * (or, for the _a family, fp16) pattern that fmt_bfp_pack takes, 16 at a time. */
uint32_t fmt_pack_late(const fmt_pack_mode_t *m, uint32_t v);
/* Both conversions over a row of FMT_ROW with nothing between them: out[k] = fmt_pack_late(m,
 * fmt_pack_early(m, dst[k])) (the same rules; test_dp_fast.c compares them). */
void fmt_pack_row(const fmt_pack_mode_t *m, const uint32_t *restrict dst, uint32_t *restrict out);
/* The same for a 16-bit Dst (!m->read_32b) and a 16-bit output: out[k] = the low 16 bits of
 * fmt_pack_late(m, fmt_pack_early(m, cells[k])). */
void fmt_pack_row16(const fmt_pack_mode_t *m, const uint16_t *restrict cells, uint16_t *restrict out);
/* n such rows, one after the other in cells and in out (fmt_pack_row16 is n = 1). out may be L1's
 * bytes themselves on a little-endian host (PACR's four-row block, coproc/pack.c): fmt_cell16_t
 * may alias them and needs no alignment. */
typedef uint16_t fmt_cell16_t __attribute__((may_alias, aligned(1)));
void fmt_pack_rows16(const fmt_pack_mode_t *m, const uint16_t *restrict cells, fmt_cell16_t *restrict out, unsigned n);

/* ---- Block floats -----------------------------------------------------------------------------
 * 16 datums share one exponent byte (FloatBitPatterns.md "BFP"). Each datum is sign | magnitude,
 * right-aligned in 8, 4 or 2 bits; the magnitude has no implicit 1 (BFP8: value = mag / 2^6 *
 * 2^(exp-127); the _a family uses 2^(exp-15) and only the low 5 exponent bits). In L1 the
 * exponents form their own section, one byte per block, and BFP4/BFP2 pack 2/4 datums per byte. */
#define FMT_BFP_BLOCK 16
typedef struct {
    uint8_t exp;                  /* shared exponent byte as stored in L1 */
    uint8_t datum[FMT_BFP_BLOCK]; /* sign | magnitude, fmt_datum_bits(fmt) bits each */
} fmt_bfp_block_t;

/* Packer: 16 values -> one block (the late conversion's "round to BFP8 with one shared exponent",
 * ties away from zero, then truncation to BFP4/BFP2). in[] holds bf16 patterns for BFP8/4/2 and
 * fp16 patterns for BFP8a/4a/2a, as fmt_pack_late returns them. fmt must be a BFP code. */
void fmt_bfp_pack(unsigned fmt, const uint16_t in[FMT_BFP_BLOCK], fmt_bfp_block_t *out);
/* Unpacker: one datum and its block's exponent -> bf16 (BFP8/4/2) or fp16 (BFP8a/4a/2a), exact
 * (FloatBitPatterns.md BFP8ToBF16 / BFP8aToFP16). A negative zero datum is -Inf (bf16 0xFF80) or
 * -2^16 (fp16 0xFC00). For the _a family an exponent that leaves 5 bits keeps its low 5 bits;
 * fmt_bfp_unpack_defined says when the page calls that undefined behaviour. */
uint16_t fmt_bfp_unpack(unsigned fmt, uint8_t datum, uint8_t exp);
/* False where BFP8aToFP16 (and BFP4a/BFP2a) is undefined: the normalised exponent leaves 5 bits
 * (`if (ExpBits & 0xe0) UndefinedBehaviour()`). Always true for BFP8/4/2. */
bool fmt_bfp_unpack_defined(unsigned fmt, uint8_t datum, uint8_t exp);

/* ---- RISC-V window onto Dst (BH Dst.md "RISCV access to Dst") ---------------------------------
 * A load or store of size 4, 2 or 1 bytes through 0xFFBD8000 with RISC_DEST_ACCESS_CTRL_SEC[t]
 * .fmt / .no_swizzle / .unsigned_int. cell is the Dst32b datum (size 4) or the Dst16b cell (sizes
 * 2 and 1). Returns false where the page says UndefinedBehavior (a size that does not fit fmt, or
 * fmt >= 6). The 8-bit store reproduces the page's documented wrong negative conversion. */
bool fmt_rvdst_load(unsigned fmt, unsigned size, bool no_swizzle, bool unsigned_int, uint32_t cell, uint32_t *out);
bool fmt_rvdst_store(unsigned fmt, unsigned size, bool no_swizzle, bool unsigned_int, uint32_t value, uint32_t *cell);

#endif
