/* coproc/formats.c — the Tensix data formats (coproc/formats.h): pure functions over bit patterns.
 *
 * Every rule below is restated from the page cited above its group ("WH x.md" / "BH x.md" are
 * tt-isa-documentation's WormholeB0 / BlackholeA0 TensixTile/TensixCoprocessor pages; BH pages
 * that say "shared with the Wormhole tree" send us to the WH page). Where the pages are silent we
 * follow ttsim v1.10.0 (src/tensix.cpp, its Blackhole branches) and say so with [SIM]; a choice of
 * our own is marked [CHOICE]. docs/datapath.md ("Formats") collects them. No C float arithmetic:
 * every conversion is integer work on the bits.
 */
#include "coproc/formats.h"

#include <stddef.h>
#include <string.h>

/* A conversion rule shared by a per-datum function and its row (or lanes) form: always inlined, so
 * the row form's loop, given a constant mode, compiles to that mode's rule alone (and the compiler
 * may vectorise it). The per-datum function is the rule with the mode as it comes. */
#define FMT_RULE static inline __attribute__((always_inline))

/* ---- Format codes (DATAPATH.md §2.2; WH Packers/FormatConversion.md encoding table) ---------- */

static const char *const fmt_names[16] = {
    "FP32",  "FP16",  "BFP8A", "BFP4A", "TF32", "BF16", "BFP8", "BFP4",
    "INT32", "INT16", "FP8",   "BFP2A", NULL,   NULL,   "INT8", "BFP2",
};

/* The low two bits give 32/16/8 bits for the plain formats; BFP4* and BFP2* are 4 and 2 bits per
 * datum in L1 (FormatConversion.md "For all BFP4 formats, two datums are packed into each byte"). */
static const uint8_t fmt_bits[16] = {32, 16, 8, 4, 32, 16, 8, 4, 32, 16, 8, 2, 0, 0, 8, 2};

static bool fmt_valid(unsigned code) { return code < 16 && fmt_names[code] != NULL; }

const char *fmt_name(unsigned code) { return fmt_valid(code) ? fmt_names[code] : "?"; }

unsigned fmt_datum_bits(unsigned code) { return code < 16 ? fmt_bits[code] : 0; }

bool fmt_is_bfp(unsigned code) {
    switch (code) {
    case FMT_BFP8:
    case FMT_BFP4:
    case FMT_BFP2:
    case FMT_BFP8A:
    case FMT_BFP4A:
    case FMT_BFP2A: return true;
    default: return false;
    }
}

static bool fmt_is_bfp_a(unsigned code) { return code == FMT_BFP8A || code == FMT_BFP4A || code == FMT_BFP2A; }

/* ---- Classification and flushing ------------------------------------------------------------- */

static fmt_class_t classify(uint32_t exp, uint32_t exp_max, uint32_t man) {
    if (exp == 0) return man ? FMT_CLASS_DENORMAL : FMT_CLASS_ZERO;
    if (exp == exp_max) return man ? FMT_CLASS_NAN : FMT_CLASS_INF;
    return FMT_CLASS_NORMAL;
}

fmt_class_t fmt_fp32_class(uint32_t f) { return classify((f >> 23) & 0xFF, 0xFF, f & 0x7FFFFF); }
fmt_class_t fmt_bf16_class(uint16_t b) { return classify((b >> 7) & 0xFF, 0xFF, b & 0x7F); }
fmt_class_t fmt_fp16_class(uint16_t h) { return classify((h >> 10) & 0x1F, 0x1F, h & 0x3FF); }

/* ---- IEEE conversions -------------------------------------------------------------------------
 * fp32 -> bf16 / tf32 keep the exponent and drop `drop` mantissa bits. Because the IEEE encoding
 * of a magnitude is monotonic in its bits, round-to-nearest-even is one integer add: half - 1,
 * plus 1 when the kept LSB is odd, then truncate. A carry out of the mantissa bumps the exponent,
 * which turns the largest finite value into Inf exactly as IEEE overflow does, and rounds the
 * largest subnormal up to the smallest normal. Inf (mantissa 0) is unchanged by the add. */
static uint32_t fp32_narrow(uint32_t f, unsigned drop, fmt_round_t r) {
    uint32_t mask = (1u << drop) - 1;
    if ((f & 0x7FFFFFFFu) > 0x7F800000u) return (f | 0x00400000u) & ~mask; /* NaN: quiet, truncated payload */
    if (r == FMT_TRUNC) return f & ~mask;
    return (f + (mask >> 1) + ((f >> drop) & 1)) & ~mask;
}

uint16_t fmt_fp32_to_bf16(uint32_t f, fmt_round_t r) { return (uint16_t)(fp32_narrow(f, 16, r) >> 16); }
uint32_t fmt_fp32_to_tf32(uint32_t f, fmt_round_t r) { return fp32_narrow(f, 13, r); }

/* Round q (the kept bits) given the dropped bits rem out of 2^shift, to nearest even. */
static uint32_t rne_step(uint32_t q, uint32_t rem, unsigned shift) {
    uint32_t half = 1u << (shift - 1);
    return q + (rem > half || (rem == half && (q & 1)));
}

uint16_t fmt_fp32_to_fp16(uint32_t f, fmt_round_t r) {
    uint16_t s = (uint16_t)((f >> 16) & 0x8000);
    uint32_t e = (f >> 23) & 0xFF, m = f & 0x7FFFFF;
    if (e == 0xFF) return (uint16_t)(m ? s | 0x7E00 | (m >> 13) : s | 0x7C00);
    if (e == 0) return s;         /* fp32 denormal or zero: below 2^-126, far under half of fp16's 2^-24 */
    int32_t E = (int32_t)e - 112; /* fp16 biased exponent (127 - 15) */
    if (E >= 31) return (uint16_t)(s | (r == FMT_TRUNC ? 0x7BFF : 0x7C00));
    if (E >= 1) {
        uint32_t q = ((uint32_t)E << 10) | (m >> 13);
        if (r != FMT_TRUNC) q = rne_step(q, m & 0x1FFF, 13); /* a carry to exponent 31 is Inf */
        return (uint16_t)(s | q);
    }
    /* fp16 subnormal: the result counts units of 2^-24; the significand (24 bits, value
     * sig * 2^(e-150)) shifts right by 126 - e >= 14. A shift past 24 leaves less than half a
     * unit (sig < 2^24), which rounds to zero either way. */
    uint32_t sig = m | 0x800000, shift = 126 - e;
    if (shift > 24) return s;
    uint32_t q = sig >> shift;
    if (r != FMT_TRUNC) q = rne_step(q, sig & ((1u << shift) - 1), shift); /* 0x400: smallest normal */
    return (uint16_t)(s | q);
}

uint32_t fmt_fp16_to_fp32(uint16_t h) {
    uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1F, m = h & 0x3FF;
    if (e == 0x1F) return s | 0x7F800000u | (m << 13); /* Inf, or NaN with its bits kept */
    if (e != 0) return s | ((e + 112) << 23) | (m << 13);
    if (m == 0) return s;
    /* Subnormal m * 2^-24: normalise so the leading 1 is at bit 10. */
    uint32_t p = 9; /* position of the leading 1 of m */
    while (!(m >> p))
        p--;
    return s | ((p + 103) << 23) | ((m << (23 - p)) & 0x7FFFFF);
}

/* ---- Integers ---------------------------------------------------------------------------------
 * Sign-magnitude with saturation of the most negative two's complement value (BH Dst.md Store32 /
 * Store16: "clamping -2**31 to -(2**31-1)"). */

uint32_t fmt_int32_to_sm32(int32_t v) {
    if (v >= 0) return (uint32_t)v;
    if (v == INT32_MIN) return 0xFFFFFFFFu;
    return 0x80000000u | (uint32_t)-v;
}

int32_t fmt_sm32_to_int32(uint32_t sm) {
    int32_t mag = (int32_t)(sm & 0x7FFFFFFFu);
    return (sm >> 31) ? -mag : mag;
}

uint16_t fmt_int16_to_sm16(int16_t v) {
    if (v >= 0) return (uint16_t)v;
    if (v == INT16_MIN) return 0xFFFF;
    return (uint16_t)(0x8000 | -v);
}

int16_t fmt_sm16_to_int16(uint16_t sm) {
    int16_t mag = (int16_t)(sm & 0x7FFF);
    return (int16_t)((sm >> 15) ? -mag : mag);
}

uint8_t fmt_int8_to_sm8(int8_t v) {
    if (v >= 0) return (uint8_t)v;
    if (v == INT8_MIN) return 0xFF;
    return (uint8_t)(0x80 | -v);
}

int8_t fmt_sm8_to_int8(uint8_t sm) {
    int8_t mag = (int8_t)(sm & 0x7F);
    return (int8_t)((sm >> 7) ? -mag : mag);
}

/* ---- Src layout (WH SrcASrcB.md bit-layout diagrams; WH UNPACR_Regular.md WriteSrcTF32 /
 * WriteSrcBF16 / WriteSrcFP16 and the INT16 case; WH MOVA2D.md RemoveLowMantissa /
 * RemoveHighExponent): sign at 18, mantissa(10) at 8..17, exponent(8) at 0..7. -------------- */

/* ---- Dst layout (BH Dst.md DstEncodeBF16 / DstDecodeBF16 / ...FP16 / ...FP32) -------------- */

/* ---- Shared narrowing rules of the units ------------------------------------------------------ */

/* FP32 -> FP16 by rebias, flush and saturation, mantissa truncated: the unpacker's FP32ToFP16 and
 * the packer's late FP32 -> FP16 [SIM] (WH UNPACR_Regular.md calls FP32ToFP16 without defining
 * it). A rebiased exponent of 0 keeps its mantissa bits: WH FormatConversion.md says that inputs
 * in 2^-15 < |x| < 2^-14 are "mishandled" while |x| <= 2^-15 flush, which is exactly this rule.
 * NaN and Inf saturate to the largest pattern, which Dst/FPU treat as infinity
 * (FloatBitPatterns.md FP16). */
FMT_RULE uint16_t fp32_to_fp16_sat(uint32_t f) {
    uint16_t s = (uint16_t)((f >> 16) & 0x8000);
    int32_t e = (int32_t)((f >> 23) & 0xFF) - 112;
    if (e < 0) return s;
    if (e > 31) return (uint16_t)(s | 0x7FFF);
    return (uint16_t)(s | ((uint32_t)e << 10) | ((f >> 13) & 0x3FF));
}

/* ---- Unpacker (WH UNPACR_Regular.md FormatConversion) ----------------------------------------- */

FMT_RULE uint16_t unpack_int8_rule(uint8_t byte, bool is_unsigned) {
    unsigned sign = is_unsigned ? 0 : (byte & 0x80u);
    unsigned mag = byte - sign;
    unsigned v = mag ? (mag | (16u << 10)) : 0; /* dummy exponent 16; 0 when the magnitude is 0 */
    return (uint16_t)(v | (sign << 8));
}

uint16_t fmt_unpack_int8(uint8_t byte, bool is_unsigned) { return unpack_int8_rule(byte, is_unsigned); }

/* FP8 -> FP16 [SIM]: E5M2 is the top byte of an FP16; Blackhole maps the all-ones exponent and
 * mantissa (0x7F / 0xFF) to the all-ones FP16 (the "infinity" pattern). E4M3 (Unp_LF8_4b_exp)
 * rebiases by +8 and pads exponent 15, mantissa 7 with ones below (0x7F -> 0x5FFF). */
FMT_RULE uint16_t fp8_to_fp16(uint32_t d, bool e4m3) {
    d &= 0xFF;
    if (e4m3) {
        uint32_t s = d & 0x80, e = (d >> 3) & 15, m = d & 7;
        uint32_t pad = (e == 15 && m == 7) ? 0x7F : 0;
        e = e ? e + 8 : 0;
        return (uint16_t)((s << 8) | (e << 10) | (m << 7) | pad);
    }
    if ((d & 0x7F) == 0x7F) return (uint16_t)((d << 8) | 0xFF);
    return (uint16_t)(d << 8);
}

bool fmt_unpack_check(const fmt_unpack_mode_t *m) {
    unsigned in = m->in_fmt, out = m->out_fmt;
    if (!fmt_valid(in) || !fmt_valid(out)) return false;
    if (in == FMT_FP32) {
        switch (out) {
        case FMT_FP32: return m->to_dst; /* Src cannot hold FP32 */
        case FMT_TF32:
        case FMT_BF16:
        case FMT_FP16: return true;
        default: return false;
        }
    }
    if (in != out) return false; /* "Exactly one conversion is permitted for all other input types" */
    switch (in) {
    case FMT_INT32:
    case FMT_TF32: return m->to_dst; /* "When unpacking to Dst, TF32 means FP32" */
    default: return true;
    }
}

bool fmt_unpack_writes_dst32(const fmt_unpack_mode_t *m) {
    return m->to_dst && (m->out_fmt == FMT_FP32 || m->out_fmt == FMT_TF32 || m->out_fmt == FMT_INT32);
}

FMT_RULE uint32_t unpack_rule(const fmt_unpack_mode_t *m, uint32_t d, uint8_t exp) {
    uint16_t v; /* the datum normalised to IEEE-order BF16 or FP16 */
    bool exp8;
    switch (m->in_fmt) {
    case FMT_FP32:
        switch (m->out_fmt) {
        case FMT_FP32: return fmt_dst_encode_fp32(d);
        case FMT_TF32: return m->to_dst ? fmt_dst_encode_fp32(d) : fmt_src_encode_tf32(d); /* truncation */
        case FMT_BF16: v = (uint16_t)(fmt_fp32_flush(d) >> 16), exp8 = true; break;        /* flush, truncate */
        default: v = fp32_to_fp16_sat(d), exp8 = false; break;
        }
        break;
    case FMT_TF32:
    case FMT_INT32: return fmt_dst_encode_fp32(d);
    case FMT_INT16: return m->to_dst ? (d & 0xFFFF) : fmt_src_encode_int16((uint16_t)d);
    case FMT_BF16: v = (uint16_t)d, exp8 = true; break;
    case FMT_BFP8:
    case FMT_BFP4:
    case FMT_BFP2: v = fmt_bfp_unpack(m->in_fmt, (uint8_t)d, exp), exp8 = true; break;
    case FMT_BFP8A:
    case FMT_BFP4A:
    case FMT_BFP2A: v = fmt_bfp_unpack(m->in_fmt, (uint8_t)d, exp), exp8 = false; break;
    case FMT_FP8: v = fp8_to_fp16(d, m->fp8_e4m3), exp8 = false; break;
    case FMT_INT8: v = unpack_int8_rule((uint8_t)d, m->int8_unsigned), exp8 = false; break;
    default: v = (uint16_t)d, exp8 = false; break; /* FP16 */
    }
    if (exp8) return m->to_dst ? fmt_dst_encode_bf16(v) : fmt_src_encode_bf16(v);
    return m->to_dst ? fmt_dst_encode_fp16(v) : fmt_src_encode_fp16(v);
}

uint32_t fmt_unpack(const fmt_unpack_mode_t *m, uint32_t d, uint8_t exp) { return unpack_rule(m, d, exp); }

const char *fmt_byte_order_form(void) { return FMT_HOST_LE ? "le" : "portable"; }

/* The datums of a row, little-endian in L1, 1, 2 or 4 bytes each. */
FMT_RULE uint32_t l1_datum(const uint8_t *p, unsigned size, unsigned k) {
    if (size == 1) return p[k];
    if (size == 2) return (uint32_t)p[2 * k] | (uint32_t)p[2 * k + 1] << 8;
    return (uint32_t)p[4 * k] | (uint32_t)p[4 * k + 1] << 8 | (uint32_t)p[4 * k + 2] << 16 |
           (uint32_t)p[4 * k + 3] << 24;
}

#if defined(__SSE2__) && !defined(TTEMU_NO_SIMD)
#include <emmintrin.h>
/* unpack_rule's BF16 to Src (fmt_src_encode_bf16) on eight datums at a time in the host's 16-bit
 * vector lanes (gcc makes of the C loop one in 32-bit lanes): the 19-bit datum's low 16 bits,
 * (b & 0x1F) << 11 | (b >> 7) & 0xFF (b << 11 in a 16-bit lane drops all but the low five bits
 * itself), and its high three, (b >> 13) & 4 | (b >> 5) & 3 (the
 * mantissa's top two bits and the sign), made apart and interleaved into 32-bit lanes. */
static inline __attribute__((always_inline)) void unpack_bf16_src8(const uint8_t *restrict l1, uint32_t *restrict out) {
    const __m128i mff = _mm_set1_epi16(0xFF), m4 = _mm_set1_epi16(4), m3 = _mm_set1_epi16(3);
    __m128i b = _mm_loadu_si128((const __m128i *)l1);
    __m128i lo = _mm_or_si128(_mm_slli_epi16(b, 11), _mm_and_si128(_mm_srli_epi16(b, 7), mff));
    __m128i hi = _mm_or_si128(_mm_and_si128(_mm_srli_epi16(b, 13), m4), _mm_and_si128(_mm_srli_epi16(b, 5), m3));
    _mm_storeu_si128((__m128i *)out, _mm_unpacklo_epi16(lo, hi));
    _mm_storeu_si128((__m128i *)(out + 4), _mm_unpackhi_epi16(lo, hi));
}
/* A row's sixteen datums (two groups of eight) a step of the loop: half the loop's own steps of
 * one group a step. */
static void unpack_rows_bf16_src(const uint8_t *restrict l1, uint32_t *restrict out, unsigned n) {
    _Static_assert(FMT_ROW == 16, "two groups of eight datums a row");
    for (unsigned r = 0; r < n; r++, l1 += 2 * FMT_ROW, out += FMT_ROW) {
        unpack_bf16_src8(l1, out);
        unpack_bf16_src8(l1 + 16, out + 8);
    }
}
#define UNPACK_BF16_SRC() ((void)bf16_src, unpack_rows_bf16_src(l1, out, n));
#else
#define UNPACK_BF16_SRC() UNPACK_ROW16(&bf16_src)
#endif

/* The modes kernels use, each with a constant mode (its loop is that mode's rule alone); the
 * condition before each names every field its rule reads. */
void fmt_unpack_rows(const fmt_unpack_mode_t *m, const uint8_t *restrict l1, uint32_t *restrict out, unsigned n) {
    static const fmt_unpack_mode_t bf16_src = {.in_fmt = FMT_BF16, .out_fmt = FMT_BF16};
    static const fmt_unpack_mode_t bf16_dst = {.in_fmt = FMT_BF16, .out_fmt = FMT_BF16, .to_dst = true};
    static const fmt_unpack_mode_t fp16_src = {.in_fmt = FMT_FP16, .out_fmt = FMT_FP16};
    static const fmt_unpack_mode_t fp32_dst = {.in_fmt = FMT_FP32, .out_fmt = FMT_FP32, .to_dst = true};
    static const fmt_unpack_mode_t fp32_tf32 = {.in_fmt = FMT_FP32, .out_fmt = FMT_TF32};
    static const fmt_unpack_mode_t fp32_bf16 = {.in_fmt = FMT_FP32, .out_fmt = FMT_BF16};
#define UNPACK_ROW(mode, size)                                                                                         \
    for (unsigned k = 0; k < n * FMT_ROW; k++)                                                                         \
        out[k] = unpack_rule((mode), l1_datum(l1, (size), k), 0);
    /* 16-bit datums on a little-endian host: the row's 32 bytes as the host's uint16_t, which
     * the compiler widens eight at a time (l1_datum's bytes one by one keep the loop scalar). */
#if FMT_HOST_LE
    uint16_t h[FMT_ROW];
#define UNPACK_ROW16(mode)                                                                                             \
    for (unsigned r = 0; r < n; r++) {                                                                                 \
        memcpy(h, l1 + r * sizeof h, sizeof h);                                                                        \
        for (unsigned k = 0; k < FMT_ROW; k++)                                                                         \
            out[r * FMT_ROW + k] = unpack_rule((mode), h[k], 0);                                                       \
    }
#else
#define UNPACK_ROW16(mode) UNPACK_ROW((mode), 2)
#endif
    unsigned in = m->in_fmt, o = m->out_fmt;
    if (in == FMT_BF16 && o == FMT_BF16) {
        if (m->to_dst) {
            UNPACK_ROW16(&bf16_dst)
        } else {
            UNPACK_BF16_SRC()
        }
    } else if (in == FMT_FP16 && o == FMT_FP16 && !m->to_dst) {
        UNPACK_ROW16(&fp16_src)
    } else if (in == FMT_FP32 && o == FMT_FP32 && m->to_dst) {
        UNPACK_ROW(&fp32_dst, 4)
    } else if (in == FMT_FP32 && o == FMT_TF32 && !m->to_dst) {
        UNPACK_ROW(&fp32_tf32, 4)
    } else if (in == FMT_FP32 && o == FMT_BF16 && !m->to_dst) {
        UNPACK_ROW(&fp32_bf16, 4)
    } else {
        unsigned size = fmt_datum_bits(in) / 8;
        UNPACK_ROW(m, size)
    }
#undef UNPACK_ROW
#undef UNPACK_ROW16
}
#undef UNPACK_BF16_SRC

/* ---- Matrix Unit moves (WH MOVA2D.md, MOVB2D.md, MOVD2A.md, MOVD2B.md) ------------------------ */

fmt_style_t fmt_src_style(unsigned code, bool fp16a_force) {
    if (fp16a_force) return FMT_STYLE_FP16;
    if (code == FMT_TF32) return FMT_STYLE_TF32;
    return fmt_exp8_family(code) ? FMT_STYLE_BF16 : FMT_STYLE_FP16;
}

/* `if (FlushDenormals && !(SrcAVal & 0xff)) SrcAVal = 0;` — the whole datum, sign included. */
FMT_RULE uint32_t zero_flag_rule(uint32_t src, bool zero_flag) { return (zero_flag && !(src & 0xFF)) ? 0 : src; }

FMT_RULE uint16_t mova2d_dst16_rule(uint32_t src, fmt_style_t style, bool zero_flag) {
    src = zero_flag_rule(src, zero_flag);
    uint32_t sign = (src >> 3) & 0x8000;
    if (style == FMT_STYLE_FP16)
        return (uint16_t)(sign | ((src >> 3) & 0x7FE0) | (src & 0x1F)); /* RemoveHighExponent */
    return (uint16_t)(sign | ((src >> 3) & 0x7F00) | (src & 0xFF));     /* RemoveLowMantissa */
}

uint16_t fmt_mova2d_dst16(uint32_t src, fmt_style_t style, bool zero_flag) {
    return mova2d_dst16_rule(src, style, zero_flag);
}

#if defined(__SSE2__) && !defined(TTEMU_NO_SIMD)
/* mova2d_dst16_rule's BF16 style (RemoveLowMantissa) on eight datums at a time in SSE2: a Src
 * datum's cell is (src >> 11) & 0xFF above src & 0xFF (the sign and the mantissa's top seven bits
 * above the exponent), zero with the zero flag where src & 0xFF is. Both bytes are made in 32-bit
 * lanes ((src << 13) >> 24 the high one), narrowed by packssdw (bytes: it keeps them exactly) and
 * put together in 16-bit lanes. */
static inline __attribute__((always_inline)) void mova2d_rows_bf16(const uint32_t *restrict src, bool zero_flag,
                                                                   uint16_t *restrict out, unsigned n) {
    const __m128i mff = _mm_set1_epi32(0xFF), zero = _mm_setzero_si128();
    for (unsigned k = 0; k < n * FMT_ROW; k += 8) {
        __m128i v0 = _mm_loadu_si128((const __m128i *)(src + k)), v1 = _mm_loadu_si128((const __m128i *)(src + k + 4));
        __m128i e = _mm_packs_epi32(_mm_and_si128(v0, mff), _mm_and_si128(v1, mff));
        __m128i h =
            _mm_packs_epi32(_mm_srli_epi32(_mm_slli_epi32(v0, 13), 24), _mm_srli_epi32(_mm_slli_epi32(v1, 13), 24));
        __m128i cell = _mm_or_si128(_mm_slli_epi16(h, 8), e);
        if (zero_flag) cell = _mm_andnot_si128(_mm_cmpeq_epi16(e, zero), cell);
        _mm_storeu_si128((__m128i *)(out + k), cell);
    }
}
#define MOVA2D_ROWS_BF16(zf) mova2d_rows_bf16(src, (zf), out, n);
#else
#define MOVA2D_ROWS_BF16(zf) MOVA2D_ROW(FMT_STYLE_BF16, (zf))
#endif

/* Each style and zero flag a loop of its own (the rule with constants). */
void fmt_mova2d_dst16_rows(const uint32_t *restrict src, fmt_style_t style, bool zero_flag, uint16_t *restrict out,
                           unsigned n) {
#define MOVA2D_ROW(st, zf)                                                                                             \
    for (unsigned k = 0; k < n * FMT_ROW; k++)                                                                         \
        out[k] = mova2d_dst16_rule(src[k], (st), (zf));
    if (style == FMT_STYLE_FP16) {
        if (zero_flag) {
            MOVA2D_ROW(FMT_STYLE_FP16, true)
        } else {
            MOVA2D_ROW(FMT_STYLE_FP16, false)
        }
    } else if (style == FMT_STYLE_BF16) {
        if (zero_flag) {
            MOVA2D_ROWS_BF16(true)
        } else {
            MOVA2D_ROWS_BF16(false)
        }
    } else {
        MOVA2D_ROW(style, zero_flag)
    }
#undef MOVA2D_ROW
}
#undef MOVA2D_ROWS_BF16

uint32_t fmt_mova2d_dst32(uint32_t src, bool zero_flag) {
    src = zero_flag_rule(src, zero_flag);
    uint32_t hi = mova2d_dst16_rule(src, FMT_STYLE_TF32, false);
    return (hi << 16) | (((src >> 8) & 7) << 13); /* the 3 bits RemoveLowMantissa dropped */
}

uint32_t fmt_movd2src_dst16(uint16_t c, fmt_style_t style) {
    if (style == FMT_STYLE_FP16) return ((uint32_t)(c & 0xFFE0) << 3) | (c & 0x1F); /* ShuffleFP16 */
    return ((uint32_t)(c & 0xFF00) << 3) | (c & 0xFF);                              /* ShuffleBF16 */
}

/* TF32 style: "Treat DstVal as fp32 or tf32, truncate to tf32". The page's ShuffleTF32 masks
 * (0x3fc000 for sign and high mantissa of a 19-bit value) cannot be meant literally; we implement
 * the stated intent, which is decode to fp32 and keep sign, exponent and 10 mantissa bits. */
uint32_t fmt_movd2src_dst32(uint32_t d, fmt_style_t style) {
    if (style == FMT_STYLE_TF32) return fmt_src_encode_tf32(fmt_dst_decode_fp32(d));
    return fmt_movd2src_dst16((uint16_t)(d >> 16), style);
}

/* ---- Vector Unit (BH SFPLOAD.md, SFPSTORE.md, WH SFPLOADI.md, BH SFPSTOCHRND_*.md, SFPCAST_*.md) */

/* ReadFP16: rebias a non-zero exponent by +112; exponent 0 keeps its mantissa bits (an fp32
 * denormal that later arithmetic reads as zero); optionally the largest pattern is ±Inf. */
FMT_RULE uint32_t sfp_read_fp16(uint16_t c, bool fp16a_inf) {
    uint32_t s = c >> 15, m = (c >> 5) & 0x3FF, e = c & 0x1F;
    if (fp16a_inf && e == 0x1F && m == 0x3FF) {
        e = 255, m = 0;
    } else if (e != 0) {
        e += 112;
    }
    return (s << 31) | (e << 23) | (m << 13);
}

FMT_RULE uint32_t sfpload_rule(unsigned mod0, uint32_t dst, uint32_t old, bool fp16a_inf) {
    uint16_t c = (uint16_t)dst;
    uint32_t sign = (uint32_t)(c >> 15) << 31;
    switch (mod0) {
    case FMT_MOD0_FP16: return sfp_read_fp16(c, fp16a_inf);
    case FMT_MOD0_BF16: return (uint32_t)fmt_dst_decode_bf16(c) << 16;
    /* INT32_SM is deprecated on BH and converts nothing (SFPLOAD.md "Compared to Wormhole") */
    case FMT_MOD0_FP32:
    case FMT_MOD0_INT32:
    case FMT_MOD0_INT32_ALL:
    case FMT_MOD0_INT32_SM: return fmt_dst_decode_fp32(dst);
    case FMT_MOD0_INT8: return sign | ((c >> 5) & 0xFF);       /* BH SignMag9ToSignMag32: ±255 */
    case FMT_MOD0_INT8_COMP: return sign | ((c >> 5) & 0x3FF); /* BH: deprecated, SignMag11ToSignMag32 */
    case FMT_MOD0_LO16_ONLY: return (old & 0xFFFF0000u) | c;
    case FMT_MOD0_HI16_ONLY: return ((uint32_t)c << 16) | (old & 0xFFFF);
    case FMT_MOD0_INT16: return sign | (c & 0x7FFF);
    case FMT_MOD0_UINT16:
    case FMT_MOD0_LO16: return c;
    case FMT_MOD0_HI16: return (uint32_t)c << 16;
    default: return 0; /* ZERO, and an unresolved SRCB */
    }
}

uint32_t fmt_sfpload(unsigned mod0, uint32_t dst, uint32_t old, bool fp16a_inf) {
    return sfpload_rule(mod0, dst, old, fp16a_inf);
}

#if defined(__SSE2__) && !defined(TTEMU_NO_SIMD)
#include <emmintrin.h>
/* sfpload_rule's BF16 on four lanes at a time in SSE2's 32-bit lanes, where the pairs lie: each
 * pair shifted so that the lane's cell is its high half (the low half's by 16, the high half's by
 * 0), then fmt_dst_decode_bf16 there, which leaves the lane's FP32 with its low half zero: the
 * sign and the mantissa (the cell's bits 15 and 14..8) by an arithmetic shift right of 8 (the sign
 * copied down to bit 23, masked away), the exponent (bits 7..0) by a shift left of 7. (Narrowed to
 * 16-bit lanes and widened back, as before, it took three host instructions more per eight lanes.) */
static void sfpload_lanes_bf16(const fmt_pair_t *restrict dst, unsigned shift, uint32_t *restrict lreg) {
    const __m128i sm = _mm_set1_epi32((int)0x807F0000u), ex = _mm_set1_epi32(0x7F800000);
    const __m128i up = _mm_cvtsi32_si128((int)(16 - shift));
    for (unsigned l = 0; l < FMT_LANES; l += 4) {
        __m128i c = _mm_sll_epi32(_mm_loadu_si128((const __m128i *)(dst + l)), up);
        __m128i f = _mm_or_si128(_mm_and_si128(_mm_srai_epi32(c, 8), sm), _mm_and_si128(_mm_slli_epi32(c, 7), ex));
        _mm_storeu_si128((__m128i *)(lreg + l), f);
    }
}
#define SFPLOAD_LANES_BF16() sfpload_lanes_bf16(dst, shift, lreg);
#else
#define SFPLOAD_LANES_BF16() SFPLOAD_LANES(FMT_MOD0_BF16)
#endif

/* The modes kernels use get a loop of their own (the rule with a constant mode); the others share
 * one. */
void fmt_sfpload_lanes(unsigned mod0, const fmt_pair_t *restrict dst, unsigned shift, bool fp16a_inf,
                       uint32_t *restrict lreg) {
#define SFPLOAD_LANES(mode)                                                                                            \
    for (unsigned l = 0; l < FMT_LANES; l++)                                                                           \
        lreg[l] = sfpload_rule((mode), dst[l] >> shift, lreg[l], fp16a_inf);
    switch (mod0) {
    case FMT_MOD0_BF16: SFPLOAD_LANES_BF16() break;
    case FMT_MOD0_FP16: SFPLOAD_LANES(FMT_MOD0_FP16) break;
    case FMT_MOD0_FP32: SFPLOAD_LANES(FMT_MOD0_FP32) break;
    default: SFPLOAD_LANES(mod0) break;
    }
#undef SFPLOAD_LANES
}
#undef SFPLOAD_LANES_BF16

/* SFPSTORE.md ToFP16: exponent -112; <= 0 flushes to signed zero, > 31 saturates (NaN and Inf
 * included) to the largest pattern; the mantissa is truncated. */
FMT_RULE uint16_t sfp_to_fp16(uint32_t x) {
    uint32_t s = x >> 31, m = x & 0x7FFFFF;
    int32_t e = (int32_t)((x >> 23) & 0xFF) - 112;
    if (e <= 0) {
        e = 0, m = 0;
    } else if (e > 31) {
        e = 31, m = 0x7FFFFF;
    }
    return (uint16_t)((s << 15) | ((uint32_t)e << 10) | (m >> 13));
}

FMT_RULE uint32_t sfpstore_rule(unsigned mod0, uint32_t x) {
    switch (mod0) {
    case FMT_MOD0_FP16: return fmt_dst_encode_fp16(sfp_to_fp16(x));
    case FMT_MOD0_BF16: return fmt_dst_encode_bf16((uint16_t)(fmt_fp32_flush(x) >> 16)); /* ToBF16 */
    case FMT_MOD0_FP32:
        return fmt_dst_encode_fp32(fmt_fp32_flush(x)); /* BH: ToFP32 flushes */
    /* INT32_SM and INT8_COMP are deprecated on BH and convert nothing (SFPSTORE.md) */
    case FMT_MOD0_INT32:
    case FMT_MOD0_INT32_ALL:
    case FMT_MOD0_INT32_SM: return fmt_dst_encode_fp32(x);
    /* SignMag11ToFP16: Integer "8" with the fixed exponent 16, even for magnitude 0 */
    case FMT_MOD0_INT8:
    case FMT_MOD0_INT8_COMP: return fmt_dst_encode_fp16((uint16_t)(((x >> 31) << 15) | (16u << 10) | (x & 0x3FF)));
    case FMT_MOD0_LO16_ONLY:
    case FMT_MOD0_UINT16: return x & 0xFFFF;
    case FMT_MOD0_HI16_ONLY: return x >> 16;
    case FMT_MOD0_INT16: return ((x >> 31) << 15) | (x & 0x7FFF);
    case FMT_MOD0_LO16: return (x << 16) | (x >> 16);
    case FMT_MOD0_HI16: return x;
    default: return 0; /* ZERO, and an unresolved SRCB */
    }
}

uint32_t fmt_sfpstore(unsigned mod0, uint32_t x) { return sfpstore_rule(mod0, x); }

#if defined(__SSE2__) && !defined(TTEMU_NO_SIMD)
#include <emmintrin.h>
/* sfpstore_rule's BF16 (ToBF16 of the flushed value, then the Dst cell's shuffle) over the lanes,
 * eight at a time in the host's 16-bit vector lanes, merged as fmt_sfpstore_lanes does: the bf16
 * b = f >> 16 of each lane (narrowed by packssdw from f >> 16 sign-extended, which it keeps
 * exactly) becomes the cell (b & 0x8000) | (b & 0x7F) << 8 | e, e = (b >> 7) & 0xFF, without its
 * mantissa where e is 0 (the flush: the sign alone, as the flushed f's high half): the sign and e
 * at once, b >> 7 arithmetic (the sign copied down to bit 8, masked away), and goes into
 * the pairs' low (shift 0) or high (16) half, interleaved there with zeros. (gcc -O2 makes of the
 * C rule a loop that narrows to 16-bit lanes and back.) */
static inline __attribute__((always_inline)) void sfpstore_lanes_bf16_half(const uint32_t *restrict lreg, uint32_t keep,
                                                                           bool high, fmt_pair_t *restrict out) {
    const __m128i se8 = _mm_set1_epi16(-0x7F01), man = _mm_set1_epi16(0x7F00); /* 0x80FF, 0x7F00 */
    const __m128i k = _mm_set1_epi32((int)keep), zero = _mm_setzero_si128();
    for (unsigned l = 0; l < FMT_LANES; l += 8) {
        __m128i b = _mm_packs_epi32(_mm_srai_epi32(_mm_loadu_si128((const __m128i *)(lreg + l)), 16),
                                    _mm_srai_epi32(_mm_loadu_si128((const __m128i *)(lreg + l + 4)), 16));
        __m128i se = _mm_and_si128(_mm_srai_epi16(b, 7), se8);    /* the sign kept at bit 15 (psraw), e below */
        __m128i z = _mm_cmpeq_epi16(_mm_slli_epi16(se, 1), zero); /* e == 0: the sign shifted out */
        __m128i cell = _mm_or_si128(se, _mm_andnot_si128(z, _mm_and_si128(_mm_slli_epi16(b, 8), man)));
        __m128i c0 = high ? _mm_unpacklo_epi16(zero, cell) : _mm_unpacklo_epi16(cell, zero);
        __m128i c1 = high ? _mm_unpackhi_epi16(zero, cell) : _mm_unpackhi_epi16(cell, zero);
        __m128i w0 = _mm_loadu_si128((const __m128i *)(out + l)), w1 = _mm_loadu_si128((const __m128i *)(out + l + 4));
        _mm_storeu_si128((__m128i *)(out + l), _mm_or_si128(_mm_and_si128(w0, k), c0));
        _mm_storeu_si128((__m128i *)(out + l + 4), _mm_or_si128(_mm_and_si128(w1, k), c1));
    }
}
#define SFPSTORE_LANES_BF16() sfpstore_lanes_bf16_half(lreg, keep, shift == 16, out);
const char *fmt_simd_form(void) { return "sse2"; }
/* Four lanes' sign bits at a time (movmskps); gcc -O2 makes of the C loop a shift and an OR a lane. */
uint32_t fmt_lanes_sign_mask(const uint32_t *v) {
    uint32_t m = 0;
    for (unsigned l = 0; l < FMT_LANES; l += 4)
        m |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(v + l)))) << l;
    return m;
}
uint32_t fmt_lanes_zero_mask(const uint32_t *v) {
    uint32_t m = 0;
    for (unsigned l = 0; l < FMT_LANES; l += 4) {
        __m128i z = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(v + l)), _mm_setzero_si128());
        m |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(z)) << l;
    }
    return m;
}
/* Four lanes at a time: each lane's bit of en spread to the whole lane (AND with its own bit,
 * compare), the two sources blended by it. */
void fmt_lanes_merge(uint32_t *restrict dst, const uint32_t *restrict src, uint32_t en) {
    const __m128i bits = _mm_set_epi32(8, 4, 2, 1);
    for (unsigned l = 0; l < FMT_LANES; l += 4) {
        __m128i m = _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)(en >> l)), bits), bits);
        __m128i d = _mm_loadu_si128((const __m128i *)(dst + l)), s = _mm_loadu_si128((const __m128i *)(src + l));
        _mm_storeu_si128((__m128i *)(dst + l), _mm_or_si128(_mm_and_si128(m, s), _mm_andnot_si128(m, d)));
    }
}
#else
#define SFPSTORE_LANES_BF16() SFPSTORE_LANES(FMT_MOD0_BF16)
void fmt_lanes_merge(uint32_t *restrict dst, const uint32_t *restrict src, uint32_t en) {
    for (unsigned l = 0; l < FMT_LANES; l++)
        if ((en >> l) & 1) dst[l] = src[l];
}
const char *fmt_simd_form(void) { return "plain"; }
uint32_t fmt_lanes_sign_mask(const uint32_t *v) {
    uint32_t m = 0;
    for (unsigned l = 0; l < FMT_LANES; l++)
        m |= (v[l] >> 31) << l;
    return m;
}
uint32_t fmt_lanes_zero_mask(const uint32_t *v) {
    uint32_t m = 0;
    for (unsigned l = 0; l < FMT_LANES; l++)
        m |= (uint32_t)(v[l] == 0) << l;
    return m;
}
#endif

void fmt_sfpstore_lanes(unsigned mod0, const uint32_t *restrict lreg, uint32_t keep, unsigned shift,
                        fmt_pair_t *restrict out) {
#define SFPSTORE_LANES(mode)                                                                                           \
    for (unsigned l = 0; l < FMT_LANES; l++)                                                                           \
        out[l] = (out[l] & keep) | sfpstore_rule((mode), lreg[l]) << shift;
    switch (mod0) {
    case FMT_MOD0_BF16: SFPSTORE_LANES_BF16() break;
    case FMT_MOD0_FP16: SFPSTORE_LANES(FMT_MOD0_FP16) break;
    case FMT_MOD0_FP32: SFPSTORE_LANES(FMT_MOD0_FP32) break;
    default: SFPSTORE_LANES(mod0) break;
    }
#undef SFPSTORE_LANES
}
#undef SFPSTORE_LANES_BF16

bool fmt_sfploadi(unsigned mod0, uint16_t imm, uint32_t old, uint32_t *out) {
    switch (mod0) {
    case 0: *out = (uint32_t)imm << 16; return true;
    case 1: /* FP16toFP32: "no handling of denormals or NaNs or infinities" — +112 even for exponent 0 */
        *out = ((uint32_t)(imm >> 15) << 31) | ((((imm >> 10) & 0x1Fu) + 112) << 23) | ((uint32_t)(imm & 0x3FF) << 13);
        return true;
    case 2: *out = imm; return true;
    case 4: *out = (uint32_t)(int32_t)(int16_t)imm; return true;
    case 8: *out = ((uint32_t)imm << 16) | (old & 0xFFFF); return true;
    case 10: *out = (old & 0xFFFF0000u) | imm; return true;
    default: return false;
    }
}

/* SFPSTOCHRND. PRNGBits is 23 random bits, or 0x400000 (nearest: ties away from zero) or 0x7FFFFF
 * (toward zero); a value rounds up when its discarded bits are >= the threshold — the ">=" is the
 * documented hardware bug (bias away from zero; "toward zero" rounds up an all-ones remainder). */
bool fmt_sfpstochrnd(unsigned mod1, unsigned rnd, uint32_t x, unsigned shift, uint32_t prng, uint32_t *out) {
    uint32_t bits = prng & 0x7FFFFF;
    if (rnd == 0) bits = 0x400000;
    if (rnd == 2) bits = 0x7FFFFF;
    switch (mod1) {
    case 0:
    case 1: { /* FloatFloat: FP32 -> 10 (FP16A) or 7 (FP16B) mantissa bits */
        uint32_t e = (x >> 23) & 0xFF;
        if (e == 0) {
            x = 0; /* denormals and -0 become +0 */
        } else if (e == 255) {
            x &= 0xFF800000u; /* NaN becomes Inf of its sign */
        } else {
            unsigned drop = mod1 == 0 ? 13 : 16;
            uint32_t lost = x & ((1u << drop) - 1);
            x -= lost;
            if (lost >= (bits >> (23 - drop))) x += 1u << drop; /* may carry up to Inf */
        }
        *out = x;
        return true;
    }
    case 2:
    case 3:
    case 6:
    case 7: { /* FloatInt: FP32 -> bounded sign-magnitude integer */
        bool keep_sign = mod1 == 3 || mod1 == 7;
        uint64_t max = mod1 == 2 ? 255 : mod1 == 3 ? 127 : mod1 == 6 ? 65535 : 32767;
        uint32_t sign = keep_sign ? (x & 0x80000000u) : 0;
        int32_t e = (int32_t)((x >> 23) & 0xFF) - 127;
        uint64_t mag;
        if (e < -1) { /* |x| < 0.5 is always 0, even when stochastic (documented bug) */
            mag = 0, sign = 0;
        } else if (e >= 16) { /* |x| >= 2^16, Inf and NaN */
            mag = max;
        } else {
            mag = 0x800000u | (x & 0x7FFFFF);
            mag = e >= 0 ? mag << e : mag >> 1;
            mag = (mag >> 23) + ((mag & 0x7FFFFF) >= bits);
            if (mag > max) mag = max;
            if (mag == 0) sign = 0;
        }
        *out = sign + (uint32_t)mag;
        return true;
    }
    case 4:
    case 5: { /* IntInt: sign-magnitude int32, magnitude >> shift, rounded, clamped */
        uint32_t sign = x & 0x80000000u;
        uint64_t mag = ((uint64_t)(x & 0x7FFFFFFFu) << 23) >> (shift & 31);
        mag = (mag >> 23) + ((mag & 0x7FFFFF) >= bits);
        if (mod1 == 4) {
            if (mag > 255) mag = 255;
            sign = 0;
        } else {
            if (mag > 127) mag = 127;
            if (mag == 0) sign = 0;
        }
        *out = sign + (uint32_t)mag;
        return true;
    }
    default: return false;
    }
}

static unsigned clz32(uint32_t v) {
    unsigned n = 0;
    while (!(v & 0x80000000u))
        v <<= 1, n++;
    return n;
}

/* SFPCAST_IntFloat.md: normalise the magnitude so its leading 1 is bit 31; exponent 157 - lz (the
 * leading 1, added through Norm >> 8, brings it to the biased 158 - lz). */
uint32_t fmt_sfpcast_sm32_to_fp32(uint32_t x, bool stochastic, uint32_t prng) {
    uint32_t sign = x & 0x80000000u, mag = x & 0x7FFFFFFFu;
    if (mag == 0) return sign;
    unsigned lz = clz32(mag);
    uint32_t norm = mag << lz;
    uint32_t d = sign + ((157u - lz) << 23) + (norm >> 8);
    if (stochastic) {
        if ((norm & 0xFE) > ((prng >> 9) & 0xFE)) d += 1;
    } else if ((norm & 0x80) && (norm & 0x17F)) { /* guard set, and sticky or odd */
        d += 1;
    }
    return d;
}

uint32_t fmt_sfpcast_int_sm(uint32_t x) {
    uint32_t sign = x & 0x80000000u;
    return sign | (sign ? (uint32_t)-x : x);
}

/* ---- Packer (WH Packers/FormatConversion.md; [SIM] ttsim PACR) -------------------------------- */

/* Which intermediate -> out pairs the late conversion models, by whether Dst is read 32-bit. */
static bool pack_pair_ok(const fmt_pack_mode_t *m) {
    unsigned o = m->out_fmt;
    bool bfp_b = o == FMT_BFP8 || o == FMT_BFP4 || o == FMT_BFP2;
    switch (m->intermediate) {
    case FMT_FP32: return m->read_32b && (o == FMT_FP32 || o == FMT_FP16 || o == FMT_BF16 || bfp_b);
    case FMT_TF32: return m->read_32b && (o == FMT_TF32 || o == FMT_FP32);
    case FMT_INT32: return m->read_32b && o == FMT_INT32;
    case FMT_INT8: return m->read_32b && o == FMT_INT8;
    case FMT_INT16: return o == FMT_INT16;
    case FMT_BF16: return o == FMT_BF16 || o == FMT_FP32 || o == FMT_TF32 || bfp_b;
    case FMT_BFP8: return o == FMT_BFP8 || o == FMT_FP32 || o == FMT_BF16 || bfp_b;
    case FMT_FP16:
        /* From Dst32b only through Round_10b_mant (BH) [SIM] */
        if (m->read_32b) return m->round_10b_mant && (o == FMT_FP16 || o == FMT_FP8);
        return o == FMT_FP16 || o == FMT_FP32 || o == FMT_BF16 || o == FMT_FP8;
    case FMT_BFP8A: return !m->read_32b && (o == FMT_BFP8 || fmt_is_bfp_a(o));
    case FMT_FP8: return !m->read_32b && o == FMT_FP8;
    default: return false;
    }
}

bool fmt_pack_check(const fmt_pack_mode_t *m) {
    return fmt_valid(m->intermediate) && fmt_valid(m->out_fmt) && m->int_shift < 32 && pack_pair_ok(m);
}

/* NaN -> Inf of the same sign (FormatConversion.md: rounding with an 8-bit exponent). */
FMT_RULE uint32_t nan_to_inf(uint32_t f) {
    return (f & 0x7FFFFFFFu) > 0x7F800000u ? (f & 0x80000000u) | 0x7F800000u : f;
}

/* Early rounding of an fp32 to TF32 / BF16: NaN -> Inf, add half (ties away from zero, on the
 * magnitude), then denormals and -0 become +0 ("Minus zero converted to positive zero"). The
 * arithmetic is ttsim's (value + 0x1000 >> 13, value + 0x8000 >> 16). */
FMT_RULE uint32_t pack_round_tf32(uint32_t f) {
    uint32_t v = (nan_to_inf(f) + 0x1000) & 0xFFFFE000u;
    return (v & 0x7FFFFFFFu) < 0x00800000u ? 0 : v;
}

FMT_RULE uint16_t pack_round_bf16(uint32_t f) {
    uint32_t v = (nan_to_inf(f) + 0x8000) >> 16;
    return (uint16_t)((v & 0x7FFF) < 0x80 ? 0 : v);
}

/* The FP16 intermediate from a TF32 (19 meaningful bits) or a BF16: rebias by -112, < 0 -> signed
 * zero, > 31 -> the largest pattern, else keep the mantissa [SIM]. */
FMT_RULE uint16_t pack_to_fp16(uint32_t f) { return fp32_to_fp16_sat(f); }

/* INT8 from a sign-magnitude Integer "32": raw takes the low bits; otherwise shift the magnitude
 * right with rounding to nearest, ties away from zero (FormatConversion.md "The shifted-out bits
 * (if any) are used for rounding"), then saturate. A negative value that rounds to 0 keeps its
 * sign bit (0x80) [SIM]; UINT8 clamps negatives to 0 [SIM]. */
FMT_RULE uint32_t pack_int8(const fmt_pack_mode_t *m, uint32_t sm) {
    uint32_t sign = sm >> 31;
    uint64_t mag = sm & 0x7FFFFFFFu;
    if (m->read_raw) return m->read_unsigned ? (uint32_t)(mag & 0xFF) : (sign << 7) | (uint32_t)(mag & 0x7F);
    if (m->int_shift) mag = (mag + (1ull << (m->int_shift - 1))) >> m->int_shift;
    if (m->read_unsigned) return sign ? 0 : (uint32_t)(mag > 255 ? 255 : mag);
    return (sign << 7) | (uint32_t)(mag > 127 ? 127 : mag);
}

FMT_RULE uint32_t pack_early_rule(const fmt_pack_mode_t *m, uint32_t dst) {
    if (m->read_32b) {
        if (m->intermediate == FMT_INT16) return dst >> 16; /* raw high half [SIM] */
        uint32_t f = fmt_dst_decode_fp32(dst);
        switch (m->intermediate) {
        case FMT_FP32: return (m->round_10b_mant && !m->read_raw) ? pack_round_tf32(f) : f;
        case FMT_TF32: return m->read_raw ? f : pack_round_tf32(f);
        case FMT_BF16: return m->read_raw ? f >> 16 : pack_round_bf16(f);
        case FMT_BFP8: {
            if (m->read_raw) return f >> 16;
            /* E8M6 [SIM]: truncate to BF16, then round the 7th mantissa bit away (half up) */
            uint32_t v = (((nan_to_inf(f) >> 16) + 1) & ~1u);
            return (v & 0x7FFF) < 0x80 ? 0 : v;
        }
        case FMT_FP16: return pack_to_fp16(pack_round_tf32(f));
        case FMT_INT8: return pack_int8(m, f);
        default: return f; /* INT32: bitcast */
        }
    }
    uint16_t c = (uint16_t)dst;
    switch (m->intermediate) {
    case FMT_FP16: {
        if (m->round_10b_mant) return pack_to_fp16((uint32_t)fmt_dst_decode_bf16(c) << 16); /* BH [SIM] */
        uint16_t h = fmt_dst_decode_fp16(c);
        if (m->read_raw) return h;           /* identity: denormals kept */
        return (h & 0x7FFF) < 0x400 ? 0 : h; /* flush denormals and -0 to +0 */
    }
    case FMT_BFP8A: {
        uint16_t h = fmt_dst_decode_fp16(c);
        if (m->read_raw) return h & ~7u;                                  /* E5M7: truncation [CHOICE] */
        if ((h & 0x7FFF) > 0x7FF7) h = (uint16_t)((h & 0x8000) | 0x7FF0); /* E5M6 rounding [SIM] */
        h = (uint16_t)((h + 8) & ~15u);
        return (h & 0x7FFF) < 0x400 ? 0 : h;
    }
    case FMT_FP8: return fmt_dst_decode_fp16(c) & 0xFF00u; /* E5M2: truncation */
    case FMT_BF16:
    case FMT_BFP8: {
        uint32_t b = fmt_dst_decode_bf16(c), mag = b & 0x7FFF;
        if (m->read_raw) return b; /* identity: denormals and NaN kept */
        /* selects rather than branches, so that a row's 16 vectorise (fmt_pack_row) */
        b = mag > 0x7F80 ? (b & 0x8000) | 0x7F80 : b;       /* NaN -> Inf */
        b = mag < 0x80 ? 0 : b;                             /* denormals and -0 -> +0 */
        if (m->intermediate == FMT_BFP8) b = (b + 1) & ~1u; /* E8M6 [SIM] */
        return b;
    }
    default: return c; /* INT16 */
    }
}

/* FP16 -> FP32 widening [SIM]: a non-zero exponent is rebiased; exponent 0 only widens the
 * mantissa, giving fp32 zero or a (wrong) denormal, which FormatConversion.md calls "Denormals
 * mishandled" for this widening. */
FMT_RULE uint32_t pack_fp16_to_fp32(uint32_t h) {
    uint32_t s = (h & 0x8000) << 16;
    if (h & 0x7C00) return s | (((h & 0x7FFF) + (112u << 10)) << 13);
    return s | ((h & 0x3FF) << 13);
}

/* FP16 -> BF16 [SIM]: exponent 0 -> +0, else rebias and truncate the mantissa to 7 bits. */
FMT_RULE uint32_t pack_fp16_to_bf16(uint32_t h) {
    uint32_t e = (h >> 10) & 0x1F;
    if (e == 0) return 0;
    return (h & 0x8000) | ((e + 112) << 7) | ((h & 0x3FF) >> 3);
}

/* FP16 -> FP8: E5M2 truncates the mantissa (FormatConversion.md late conversion); E4M3 (BH
 * Pac_LF8_4b_exp) flushes exponents <= 8 to signed zero and saturates >= 24 [SIM]. */
FMT_RULE uint32_t pack_fp16_to_fp8(uint32_t h, bool e4m3) {
    if (!e4m3) return (h >> 8) & 0xFF;
    uint32_t s = (h >> 15) & 1, e = (h >> 10) & 0x1F, mm = h & 0x3FF;
    if (e <= 8) return s << 7;
    if (e >= 24) return (s << 7) | 0x7F;
    return (s << 7) | ((e - 8) << 3) | (mm >> 7);
}

FMT_RULE uint32_t pack_late_rule(const fmt_pack_mode_t *m, uint32_t v) {
    unsigned o = m->out_fmt;
    switch (m->intermediate) {
    case FMT_FP32:
        if (o == FMT_FP32) return v;
        if (o == FMT_FP16) return fp32_to_fp16_sat(v);
        /* BF16 and BFP*: truncate to BF16, flush denormals (and -0) to +0 [SIM for BFP; the same
         * rule for BF16, which FormatConversion.md gives as "truncate", "denormals flushed"] */
        v >>= 16;
        return (v & 0x7FFF) < 0x80 ? 0 : v;
    case FMT_BF16:
    case FMT_BFP8: return (o == FMT_FP32 || o == FMT_TF32) ? v << 16 : v;
    case FMT_FP16:
        if (o == FMT_FP32) return pack_fp16_to_fp32(v);
        if (o == FMT_BF16) return pack_fp16_to_bf16(v);
        if (o == FMT_FP8) return pack_fp16_to_fp8(v, m->fp8_e4m3);
        return v;
    case FMT_BFP8A: return o == FMT_BFP8 ? pack_fp16_to_bf16(v) : v;
    case FMT_FP8: return (v >> 8) & 0xFF;
    default: return v; /* identities: TF32, INT32, INT16, INT8 */
    }
}

uint32_t fmt_pack_early(const fmt_pack_mode_t *m, uint32_t dst) { return pack_early_rule(m, dst); }
uint32_t fmt_pack_late(const fmt_pack_mode_t *m, uint32_t v) { return pack_late_rule(m, v); }

/* The modes kernels use, each with a constant mode (so its loop is that mode's rule alone); the
 * condition before each names every field its two rules read. */
void fmt_pack_row(const fmt_pack_mode_t *m, const uint32_t *restrict dst, uint32_t *restrict out) {
    static const fmt_pack_mode_t bf16 = {.intermediate = FMT_BF16, .out_fmt = FMT_BF16};
    static const fmt_pack_mode_t fp16 = {.intermediate = FMT_FP16, .out_fmt = FMT_FP16};
    static const fmt_pack_mode_t fp32 = {.intermediate = FMT_FP32, .out_fmt = FMT_FP32, .read_32b = true};
    static const fmt_pack_mode_t fp32_bf16 = {.intermediate = FMT_FP32, .out_fmt = FMT_BF16, .read_32b = true};
    static const fmt_pack_mode_t bf16_32 = {.intermediate = FMT_BF16, .out_fmt = FMT_BF16, .read_32b = true};
#define PACK_ROW(mode)                                                                                                 \
    for (unsigned k = 0; k < FMT_ROW; k++)                                                                             \
        out[k] = pack_late_rule((mode), pack_early_rule((mode), dst[k]));
    unsigned in = m->intermediate, o = m->out_fmt;
    if (!m->read_32b && !m->read_raw && in == FMT_BF16 && o == FMT_BF16) {
        PACK_ROW(&bf16)
    } else if (!m->read_32b && !m->read_raw && !m->round_10b_mant && in == FMT_FP16 && o == FMT_FP16) {
        PACK_ROW(&fp16)
    } else if (m->read_32b && !m->round_10b_mant && in == FMT_FP32 && o == FMT_FP32) {
        PACK_ROW(&fp32)
    } else if (m->read_32b && !m->round_10b_mant && in == FMT_FP32 && o == FMT_BF16) {
        PACK_ROW(&fp32_bf16)
    } else if (m->read_32b && !m->read_raw && in == FMT_BF16 && o == FMT_BF16) {
        PACK_ROW(&bf16_32)
    } else {
        PACK_ROW(m)
    }
#undef PACK_ROW
}

/* The same from 16-bit Dst cells to 16-bit outputs, without widening either side: the kernels'
 * 16-bit modes (BF16, FP16) each a loop of their own, eight datums to a host vector; n rows of
 * FMT_ROW one after the other (a PACR's four rows in one call: pack.c). */
#if defined(__SSE2__) && !defined(TTEMU_NO_SIMD)
#include <emmintrin.h>
/* pack_early_rule's BF16 (pack_late_rule's BF16 -> BF16 is the identity) on eight cells at a time
 * in the host's 16-bit vector lanes: the cell's exponent e = c & 0xFF and the magnitude
 * e << 7 | (c >> 8) & 0x7F; a NaN (magnitude above 0x7F80, exponent all ones) loses its mantissa
 * (Inf of its sign): the magnitude's minimum with 0x7F80 (pminsw: at most 0x7FFF, a magnitude is
 * positive as a signed 16-bit lane), an exponent of 0 (zero, denormal, -0) gives +0. gcc makes of
 * the C loop one with a copy and a select more per eight cells. */
static inline __attribute__((always_inline)) void pack_rows16_bf16(const uint16_t *restrict cells,
                                                                   fmt_cell16_t *restrict out, unsigned n) {
    const __m128i mff = _mm_set1_epi16(0xFF), m7f = _mm_set1_epi16(0x7F), sign = _mm_set1_epi16(-0x8000);
    const __m128i inf = _mm_set1_epi16(0x7F80), zero = _mm_setzero_si128();
    for (unsigned k = 0; k < n * FMT_ROW; k += 8) {
        __m128i c = _mm_loadu_si128((const __m128i *)(cells + k)), e = _mm_and_si128(c, mff);
        __m128i mag = _mm_or_si128(_mm_slli_epi16(e, 7), _mm_and_si128(_mm_srli_epi16(c, 8), m7f));
        mag = _mm_min_epi16(mag, inf);
        __m128i b = _mm_andnot_si128(_mm_cmpeq_epi16(e, zero), _mm_or_si128(_mm_and_si128(c, sign), mag));
        _mm_storeu_si128((__m128i *)(out + k), b);
    }
}
#define PACK_BF16_SSE2 1
#else
#define PACK_BF16_SSE2 0
#endif

FMT_RULE void pack_rows16(const fmt_pack_mode_t *m, const uint16_t *restrict cells, fmt_cell16_t *restrict out,
                          unsigned n) {
    static const fmt_pack_mode_t fp16 = {.intermediate = FMT_FP16, .out_fmt = FMT_FP16};
#define PACK_ROW16(mode)                                                                                               \
    for (unsigned k = 0; k < n * FMT_ROW; k++)                                                                         \
        out[k] = (uint16_t)pack_late_rule((mode), pack_early_rule((mode), cells[k]));
    unsigned in = m->intermediate, o = m->out_fmt;
    if (!m->read_raw && in == FMT_BF16 && o == FMT_BF16) {
#if PACK_BF16_SSE2
        pack_rows16_bf16(cells, out, n);
#else
        static const fmt_pack_mode_t bf16 = {.intermediate = FMT_BF16, .out_fmt = FMT_BF16};
        PACK_ROW16(&bf16)
#endif
    } else if (!m->read_raw && !m->round_10b_mant && in == FMT_FP16 && o == FMT_FP16) {
        PACK_ROW16(&fp16)
    } else {
        PACK_ROW16(m)
    }
#undef PACK_ROW16
}
#undef PACK_BF16_SSE2
/* Two entry points to one rule: the one-row form with its count a constant (PACR's row-by-row
 * gather calls it per row), the n-row form for a group of four rows. */
void fmt_pack_row16(const fmt_pack_mode_t *m, const uint16_t *restrict cells, uint16_t *restrict out) {
    pack_rows16(m, cells, out, 1);
}
void fmt_pack_rows16(const fmt_pack_mode_t *m, const uint16_t *restrict cells, fmt_cell16_t *restrict out, unsigned n) {
    if (n == 4) /* a PACR's four rows (every caller's): the loops with their count a constant, unrolled */
        pack_rows16(m, cells, out, 4);
    else
        pack_rows16(m, cells, out, n);
}

/* ---- Block floats (FloatBitPatterns.md "BFP"; packing rounding [SIM]) ------------------------ */

void fmt_bfp_pack(unsigned fmt, const uint16_t in[FMT_BFP_BLOCK], fmt_bfp_block_t *out) {
    bool a = fmt_is_bfp_a(fmt);
    unsigned bits = fmt_datum_bits(fmt);
    uint32_t e[FMT_BFP_BLOCK], mant[FMT_BFP_BLOCK], max_e = 0;
    for (unsigned j = 0; j < FMT_BFP_BLOCK; j++) {
        /* The _a family first becomes E5M7 by truncation (FormatConversion.md "To BFP8a"). */
        e[j] = a ? (in[j] >> 10) & 0x1F : (in[j] >> 7) & 0xFF;
        mant[j] = a ? (in[j] >> 3) & 0x7F : in[j] & 0x7F;
        if (e[j] > max_e) max_e = e[j]; /* exponent 255 counts as a normal here [SIM] */
    }
    for (unsigned j = 0; j < FMT_BFP_BLOCK; j++) {
        uint32_t m = mant[j] | (e[j] ? 0x80 : 0), shift = max_e - e[j];
        /* Align to the shared exponent and round to 7 magnitude bits, half up (ties away from
         * zero); a carry out of 7 bits clamps to 127. Then BFP4/BFP2 truncate. */
        if (shift >= 8) {
            m = 0;
        } else {
            m = (m + (1u << shift)) >> (shift + 1);
            if (m == 128) m = 127;
        }
        m >>= 8 - bits;
        if (m) m |= (uint32_t)(in[j] >> 15) << (bits - 1); /* -0 would mean -Inf: only for m != 0 */
        out->datum[j] = (uint8_t)m;
    }
    out->exp = (uint8_t)max_e;
}

/* BFP8ToBF16 / BFP8aToFP16: normalise the 7-bit magnitude, lowering the exponent by the shift.
 * BFP4 and BFP2 are BFP8 with their bits at the top of the byte. The exponent arithmetic wraps in
 * 8 bits as the page's uint8_t does; for the _a family a result outside 5 bits is undefined
 * behaviour on the page (fmt_bfp_unpack_defined; the unpacker refuses it), and we keep its low 5
 * bits. */
uint16_t fmt_bfp_unpack(unsigned fmt, uint8_t datum, uint8_t exp) {
    unsigned bits = fmt_datum_bits(fmt);
    bool a = fmt_is_bfp_a(fmt);
    uint8_t d8 = (uint8_t)((datum & ((1u << bits) - 1)) << (8 - bits));
    uint16_t sign = (uint16_t)((d8 >> 7) << 15);
    uint8_t mag = (uint8_t)(d8 << 1);
    if (mag == 0) return sign ? (a ? 0xFC00 : 0xFF80) : 0;
    while (!(mag & 0x80))
        mag = (uint8_t)(mag << 1), exp--;
    if (a) return (uint16_t)(sign | ((exp & 0x1Fu) << 10) | ((mag & 0x7Eu) << 3));
    return (uint16_t)(sign | ((uint16_t)exp << 7) | (mag & 0x7E));
}

bool fmt_bfp_unpack_defined(unsigned fmt, uint8_t datum, uint8_t exp) {
    if (!fmt_is_bfp_a(fmt)) return true;
    unsigned bits = fmt_datum_bits(fmt);
    uint8_t mag = (uint8_t)(((datum & ((1u << bits) - 1)) << (8 - bits)) << 1);
    if (mag == 0) return true;
    while (!(mag & 0x80))
        mag = (uint8_t)(mag << 1), exp--;
    return !(exp & 0xE0);
}

/* ---- RISC-V window onto Dst (BH Dst.md Load32/Load16/Load8/Store32/Store16/Store8) ----------- */

bool fmt_rvdst_load(unsigned fmt, unsigned size, bool no_swizzle, bool unsigned_int, uint32_t cell, uint32_t *out) {
    uint16_t c = (uint16_t)cell;
    switch (size) {
    case 4: {
        if (fmt > 1) return false;
        uint32_t v = no_swizzle ? cell : fmt_dst_decode_fp32(cell);
        if (fmt == 1 && !no_swizzle && v >= 0x80000000u) v = -(v & 0x7FFFFFFFu); /* -0 becomes +0 */
        *out = v;
        return true;
    }
    case 2:
        if (fmt == 2) {
            *out = no_swizzle ? c : fmt_dst_decode_fp16(c);
        } else if (fmt == 3) {
            *out = no_swizzle ? c : fmt_dst_decode_bf16(c);
        } else if (fmt == 4) {
            *out = (no_swizzle || unsigned_int || c < 0x8000) ? c : (uint16_t) - (c & 0x7FFF);
        } else {
            return false;
        }
        return true;
    case 1:
        if (fmt != 5) return false;
        if (no_swizzle || unsigned_int) {
            *out = (c >> 5) & 0xFF; /* the low 8 magnitude bits of Integer "8" */
        } else {
            uint8_t mag = (c >> 5) & 0x7F;
            *out = (uint8_t)((c & 0x8000) ? -mag : mag);
        }
        return true;
    default: return false;
    }
}

bool fmt_rvdst_store(unsigned fmt, unsigned size, bool no_swizzle, bool unsigned_int, uint32_t v, uint32_t *cell) {
    switch (size) {
    case 4:
        if (fmt > 1) return false;
        if (fmt == 1 && !no_swizzle && v >= 0x80000000u) v = 0x80000000u | -(v + (v == 0x80000000u));
        *cell = no_swizzle ? v : fmt_dst_encode_fp32(v);
        return true;
    case 2: {
        uint16_t h = (uint16_t)v;
        if (fmt == 2) {
            *cell = no_swizzle ? h : fmt_dst_encode_fp16(h);
        } else if (fmt == 3) {
            *cell = no_swizzle ? h : fmt_dst_encode_bf16(h);
        } else if (fmt == 4) {
            /* two's complement -> sign-magnitude, -2^15 clamped to -(2^15-1) */
            *cell = (no_swizzle || unsigned_int || h < 0x8000) ? h : (uint16_t)(0x8000 | -(h + (h == 0x8000)));
        } else {
            return false;
        }
        return true;
    }
    case 1: {
        if (fmt != 5) return false;
        uint8_t b = (uint8_t)v;
        if (no_swizzle || unsigned_int || b < 0x80) {
            *cell = ((uint32_t)b << 5) | (b ? 16 : 0);
        } else {
            /* "Meant to be conversion from two's complement to sign-magnitude, but isn't." */
            uint8_t mag = (uint8_t)(0x180 - b - (b == 0x80));
            *cell = 0x8000u | ((uint32_t)mag << 5) | 16;
        }
        return true;
    }
    default: return false;
    }
}
