/* coproc/fpu_num.h — the Matrix Unit's (FPU's) floating-point arithmetic, bit for bit, as pure
 * functions over bit patterns (no state, no C float arithmetic): the adder of ELWADD/ELWSUB, the
 * multipliers of ELWMUL/MVMUL/DOTPV/GAPOOL with their fidelity phases, and the accumulation into
 * Dst with its rounding. The units (coproc/fpu_elw.c, fpu_mm.c) read Src and Dst, call these,
 * and write Dst.
 *
 * Sources. The ISA pages give each instruction's functional model (WH ELWADD.md, ELWMUL.md,
 * MVMUL.md; Blackhole shares them, BH MatrixUnit.md) but say of it "the functional model should
 * be taken as a rough guide rather than an exact description: operations might be performed in a
 * different order [...] precision could be either lower or higher than what is shown. Denormals
 * will be flushed to zero, and handling of NaN/infinity does not conform to IEEE754." What the
 * pages fix exactly is kept from them: which mantissa bits each fidelity phase feeds to the
 * multipliers (SrcASrcB.md "Fidelity phases"), that ELWMUL and the matrix products accumulate
 * into Dst, the data types of each operand and of Dst. Where they are silent — the width of the
 * sums, where and how each term is rounded — the arithmetic is ttsim's (v1.10.0 src/tensix.cpp,
 * `elwadd`, `elwmul`, `mvmul`, `fpu_accum_normalize_encode`), restated here from its description
 * (docs/datapath.md "The Matrix Unit's arithmetic"):
 *
 *  - A product or a sum enters the accumulator as a term: sign, exponent, magnitude scaled so that
 *    1.0 is 1 << 23 (the products of the multipliers' 5 x 7 bits, shifted up by 13).
 *  - The accumulator aligns the terms and Dst's value to the largest exponent, rounding each
 *    shifted magnitude half up (a negative term's ties round toward zero), adds them with Dst's
 *    sign as the reference, and normalises once, rounding half away from zero. With a 16-bit Dst
 *    the terms are first rounded to 11 significant bits, and the result to 8 (BF16 Dst) or 11
 *    (FP16 Dst) bits. An exponent at or below 0 gives +0; above the range, infinity (255) for an
 *    8-bit-exponent Dst, the largest pattern for an FP16 Dst. Inf and NaN are numbers with the
 *    largest exponent (so a NaN in Dst comes out as an infinity).
 *  - Inputs whose exponent field is 0 are zero (SrcA always; SrcB when the zero flag is enabled).
 *
 * Values travel as follows. A Src operand is a 19-bit "number" sign << 18 | exponent << 10 |
 * mantissa(10), exponent the Src's 8 bits (or FP16's 5), mantissa already cut to what its format
 * holds (fpu_operand). Dst values are IEEE-ordered 32-bit patterns in the accumulator's own
 * exponent range: FP32 for a 32-bit Dst, a bf16 pattern << 16 for a BF16 Dst, and for an FP16 Dst
 * sign << 31 | exponent(5) << 23 | mantissa(10) << 13 (fpu_dst_in / fpu_dst_out convert). */
#ifndef TTEMU_COPROC_FPU_NUM_H
#define TTEMU_COPROC_FPU_NUM_H

#include <stdbool.h>
#include <stdint.h>

#include "coproc/formats.h"

/* How the accumulator works (per instruction). */
typedef struct {
    bool fp32; /* Dst is 32-bit (ALU_ACC_CTRL_Fp32_enabled): FP32 accumulation */
    bool exp8; /* SrcA's style has an 8-bit exponent (BF16 or TF32 style), else FP16 style */
} fpu_acc_t;

/* One term of a sum: the magnitude is scaled so that 1.0 is 1 << 23. */
typedef struct {
    unsigned sign;
    int32_t exp;
    uint32_t man;
} fpu_term_t;

/* A Src datum (the register file's layout, formats.h) as the Matrix Unit reads it under its
 * format's style: BF16 keeps the top 7 mantissa bits, FP16 the 5-bit exponent, TF32 everything. */
static inline uint32_t fpu_operand(uint32_t src, fmt_style_t style) {
    uint32_t man = (src >> 8) & 0x3FFu, exp = src & 0xFFu;
    if (style == FMT_STYLE_BF16) man &= 0x3F8u;
    if (style == FMT_STYLE_FP16) exp &= 0x1Fu;
    return (src & 0x40000u) | exp << 10 | man;
}
/* Its exponent field is zero (a zero or a denormal: "Denormals will be flushed to zero"). */
static inline bool fpu_operand_zero(uint32_t v) { return (v & 0x3FC00u) == 0; }

/* The element-wise operands (ELWADD, ELWSUB, ELWMUL) of Src datums a and b: each read under its
 * style (fpu_operand), b's sign flipped when sub (ELWSUB: SrcA + (-SrcB), the sign flipped
 * first), and an operand read as zero made 0: A where its exponent field is 0, B too when flush_b
 * (the zero flag on). Returns whether either is read as zero (ELWMUL's `zero`; fpu_elwmul takes
 * nothing else of an operand then). The one set-up of a datum's operands for the scalar rules:
 * fpu_elw.c's datum-by-datum path and the rows' plain forms. */
static inline bool fpu_elw_operands(uint32_t a, uint32_t b, fmt_style_t sa, fmt_style_t sb, bool sub, bool flush_b,
                                    uint32_t *ao, uint32_t *bo) {
    uint32_t x = fpu_operand(a, sa), y = fpu_operand(b, sb) ^ (sub ? 0x40000u : 0);
    bool za = fpu_operand_zero(x), zb = flush_b && fpu_operand_zero(y);
    *ao = za ? 0 : x;
    *bo = zb ? 0 : y;
    return za || zb;
}

/* Sum the terms (at most two) and the Dst value, round and encode (see above). */
uint32_t fpu_accumulate(const fpu_term_t *t, unsigned n, uint32_t dst, fpu_acc_t acc);

/* ELWADD / ELWSUB (ELWSUB: b's sign flipped by the caller): a + b (+ dst when accumulating; pass
 * dst = 0 otherwise), scaled by 2^-scale (the page's /32 and /128 in fidelity phases 1..3). An
 * operand the zero flags make zero is passed as 0. */
uint32_t fpu_elwadd(uint32_t a, uint32_t b, uint32_t dst, fpu_acc_t acc, unsigned scale);
/* fpu_elwadd over a row of 16 datums, without accumulation (dst = 0): out[j] = fpu_elwadd(A, B, 0,
 * acc, scale) with A = fpu_operand(a[j], sa) and B = fpu_operand(b[j], sb), B's sign flipped when
 * sub (ELWSUB), A read as 0 where its exponent field is 0, and B too when flush_b (the zero flag).
 * a and b are Src datums. The vector form (fpu_elwadd_form) takes four datums at once and hands a
 * datum whose larger operand has exponent field 0 but is not 0 to fpu_elwadd. */
void fpu_elwadd_row(const uint32_t a[16], const uint32_t b[16], uint32_t out[16], fmt_style_t sa, fmt_style_t sb,
                    bool sub, bool flush_b, fpu_acc_t acc, unsigned scale);
/* "sse2" or "plain" (datum by datum through fpu_elwadd), as fpu_dot16_form. */
const char *fpu_elwadd_form(void);
/* ELWMUL: dst + the partial product of a and b that fidelity phase `phase` computes; zero: an
 * operand is zero (the caller's zero flags). */
uint32_t fpu_elwmul(uint32_t a, uint32_t b, bool zero, uint32_t dst, fpu_acc_t acc, unsigned phase);
/* fpu_elwmul over a row of 16 datums: dst[j] = fpu_elwmul(A, B, zero, dst[j], acc, phase) with
 * A = fpu_operand(a[j], sa), B = fpu_operand(b[j], sb), zero where A's exponent field is 0 or, when
 * flush_b, B's; a and b are Src datums, dst holds accumulator values (fpu_dst_in) and gets the
 * results (before fpu_dst_out). The vector form (fpu_elwmul_form) takes four datums at once into
 * a 16-bit Dst and an FP32 Dst datum by datum. */
void fpu_elwmul_row(const uint32_t a[16], const uint32_t b[16], uint32_t dst[16], fmt_style_t sa, fmt_style_t sb,
                    bool flush_b, fpu_acc_t acc, unsigned phase);
/* "sse2" or "plain" (datum by datum through fpu_elwmul), as fpu_dot16_form. */
const char *fpu_elwmul_form(void);
/* MVMUL / DOTPV / GAPOOL: dst + sum over k of b[k] * a[k] (one row of SrcB times one column of
 * SrcA), in fidelity phase `phase`. The 16 products are summed in two groups of eight. */
uint32_t fpu_dot16(const uint32_t a[16], const uint32_t b[16], uint32_t dst, fpu_acc_t acc, unsigned phase);

/* The exponent adjustment of a product: rebias (two 8-bit exponents, two 5-bit ones, or 5-bit ones
 * into FP32), and the weight of the lower mantissa bits fidelity phases 1..3 use. */
static inline int32_t fpu_prod_adj(fpu_acc_t acc, unsigned phase) {
    int32_t adj = acc.exp8 ? -127 : acc.fp32 ? 127 - 30 : -15;
    if (phase & 1) adj -= 5;
    if (phase & 2) adj -= 7;
    return adj;
}
/* The multipliers' operand bits: SrcA's implicit one and top four mantissa bits in even phases,
 * its next five in odd ones; SrcB's implicit one and top six in phases 0/1, its low four (<< 3) in
 * phases 2/3. */
static inline uint32_t fpu_a_bits(uint32_t a, unsigned phase) {
    uint32_t m = (a & 0x3FFu) | 0x400u;
    return (phase & 1) ? (m >> 1) & 31u : m >> 6;
}
static inline uint32_t fpu_b_bits(uint32_t b, unsigned phase) {
    uint32_t m = (b & 0x3FFu) | 0x400u;
    return (phase & 2) ? (m & 15u) << 3 : m >> 4;
}

/* The 16 multiplier operands of one SrcA column or one SrcB row as fidelity phase `phase` feeds
 * them (SrcASrcB.md "Fidelity phases"), decomposed once: each operand's bits for the multiplier,
 * its sign (all ones if negative), and its exponent field (for SrcB with the product's exponent
 * adjustment added, fpu_prod_adj), or FPU_MOP_ZERO_EXP for an operand read as zero (its bits are
 * then 0). MVMUL decomposes SrcA's 16 x 16 block and each SrcB row once (fpu_mop_a, fpu_mop_b),
 * not once per product; fpu_dot16 decomposes its operands with the same functions. 16-bit fields,
 * so that the host's vector unit can take eight columns' products at once (fpu_dot16_rows). */
typedef struct {
    _Alignas(16) int16_t exp[16]; /* aligned for the vector form's loads */
    uint16_t man[16];
    int16_t sign[16];
} fpu_mops_t;
#define FPU_MOP_ZERO_EXP (-16384) /* far below any product's exponent: aligned to nothing */

/* Operand v (fpu_operand) as multiplier operand k: its exponent field + adj and its bits for the
 * multiplier, or the sentinel and 0 where it is read as zero (every matrix operand: the products'
 * zero flag cannot be turned off, fpu_mm.c), and its sign. */
static inline void fpu_mop(fpu_mops_t *m, unsigned k, uint32_t v, int32_t adj, uint32_t bits) {
    bool zero = fpu_operand_zero(v);
    m->exp[k] = (int16_t)(zero ? FPU_MOP_ZERO_EXP : (int32_t)((v >> 10) & 0xFFu) + adj);
    m->man[k] = (uint16_t)(zero ? 0 : bits);
    m->sign[k] = (int16_t) - (int32_t)((v >> 18) & 1);
}
static inline void fpu_mop_a(fpu_mops_t *m, unsigned k, uint32_t a, unsigned phase) {
    fpu_mop(m, k, a, 0, fpu_a_bits(a, phase));
}
static inline void fpu_mop_b(fpu_mops_t *m, unsigned k, uint32_t b, unsigned phase, int32_t adj) {
    fpu_mop(m, k, b, adj, fpu_b_bits(b, phase));
}
/* SrcA's 16 x 16 block decomposed by rows: fpu_mop_a(&am[k], j, fpu_operand(rows[k][j], style),
 * phase) for every k and j (rows[k]: the block's row k, Src datums). */
void fpu_mop_a_rows(fpu_mops_t am[16], const uint32_t *const rows[16], fmt_style_t style, unsigned phase);
/* A SrcB row the same way: fpu_mop_b(bm, k, fpu_operand(row[k], style), phase, adj) for every k. */
void fpu_mop_b_row(fpu_mops_t *bm, const uint32_t *row, fmt_style_t style, unsigned phase, int32_t adj);
/* fpu_dot16 over the 16 columns of a row at once: dst[j] = fpu_dot16(column j of SrcA's block,
 * the SrcB row, dst[j]), with a[k] row k of the block (fpu_mop_a(&a[k], j, ...): column j's
 * operand k) and b the row's operands (fpu_mop_b); dst holds accumulator values (fpu_dst_in) and
 * gets the results (before fpu_dst_out). MVMUL's form: the rows decompose with contiguous
 * writes, and the vector form takes eight columns in its lanes. */
void fpu_dot16_rows(const fpu_mops_t a[16], const fpu_mops_t *b, uint32_t dst[16], fpu_acc_t acc, unsigned phase);
/* The form this build sums fpu_dot16_rows's products in: "sse2" (eight columns in the host's
 * vector lanes, and with an FP32 Dst the sums into Dst four columns at once) or "plain" (column by column with
 * fpu_dot16's sums: without SSE2, or built with -DTTEMU_NO_SIMD). The tests run both forms (Makefile,
 * test_dp_fast_nosimd) and check which one they got. */
const char *fpu_dot16_form(void);

/* Dst <-> the accumulator's value (see above). cell: the Dst16b cell (Dst.md layout) or the
 * Dst32b datum; a 32-bit Dst holds FP32 whatever the Src style. */
static inline uint32_t fpu_dst_in(uint32_t cell, fpu_acc_t acc) {
    if (acc.fp32) return fmt_dst_decode_fp32(cell);
    if (acc.exp8) return (uint32_t)fmt_dst_decode_bf16((uint16_t)cell) << 16;
    uint32_t h = fmt_dst_decode_fp16((uint16_t)cell);
    return (h & 0x8000u) << 16 | (h & 0x7FFFu) << 13;
}
static inline uint32_t fpu_dst_out(uint32_t v, fpu_acc_t acc) {
    if (acc.fp32) return fmt_dst_encode_fp32(v);
    if (acc.exp8) return fmt_dst_encode_bf16((uint16_t)(v >> 16));
    return fmt_dst_encode_fp16((uint16_t)((v >> 16 & 0x8000u) | (v & 0x0FFFE000u) >> 13));
}

/* Integer "8" (SrcASrcB.md): sign and the 10-bit magnitude of a Src datum (ReadSrcInt8). */
static inline int32_t fpu_int8(uint32_t src) {
    int32_t mag = (int32_t)((src >> 8) & 0x3FFu);
    return (src & 0x40000u) ? -mag : mag;
}
/* Integer "32" in Dst (a sign-magnitude datum in the FP32 arrangement) and SaturateAddInt32,
 * which clamps at +-(2^31 - 1) (ELWADD.md, ELWMUL.md). */
int32_t fpu_dst_int32(uint32_t datum);
uint32_t fpu_dst_from_int32(int32_t v);
int32_t fpu_sat_add(int32_t a, int32_t b);

#endif
