/* coproc/fpu_num.c — the Matrix Unit's arithmetic (coproc/fpu_num.h has the rules and their
 * sources). Integer arithmetic on the bit patterns only. */
#include "coproc/fpu_num.h"

/* Move a magnitude right by d bits, rounding half up; a negative term's ties go toward zero
 * (ttsim `fpu_accum_normalize_encode`: "+ (1 << (d - 1)) - sign"). Shifts of 31 and more leave
 * nothing. */
static uint32_t align(uint32_t man, unsigned d, unsigned sign) {
    if (d == 0) return man;
    if (d >= 31) return 0;
    return (man + (1u << (d - 1)) - sign) >> d;
}

/* fpu_accumulate's rule, inlined where the number of terms and the Dst width are constants. */
static inline __attribute__((always_inline)) uint32_t accumulate(const fpu_term_t *t, unsigned n, uint32_t dst,
                                                                 fpu_acc_t acc) {
    unsigned dsign = dst >> 31;
    int32_t dexp = (int32_t)((dst >> 23) & 0xFFu);
    uint32_t dman = dexp ? (dst & 0x7FFFFFu) | 0x800000u : 0;
    int32_t e = dexp;
#pragma GCC unroll 2
    for (unsigned i = 0; i < n; i++)
        if (t[i].exp > e) e = t[i].exp;
    if (e <= 0) return 0; /* everything underflows before it is added */

    /* Align to the largest exponent; a 16-bit Dst keeps 11 significant bits of each. */
    uint32_t m = dexp < e ? align(dman, (unsigned)(e - dexp), 0) : dman;
    if (!acc.fp32) m = (m + 0x1000u) & ~0x1FFFu;
    int64_t sum = m;
#pragma GCC unroll 2
    for (unsigned i = 0; i < n; i++) {
        uint32_t tm = t[i].exp < e ? align(t[i].man, (unsigned)(e - t[i].exp), t[i].sign) : t[i].man;
        if (!acc.fp32) tm = (tm + 0x1000u - t[i].sign) & ~0x1FFFu;
        sum += t[i].sign == dsign ? (int64_t)tm : -(int64_t)tm;
    }
    unsigned sign = dsign;
    if (sum < 0) sum = -sum, sign ^= 1;
    if (sum == 0) return 0; /* exact cancellation gives +0 */

    /* Normalise to a leading one at bit 23 (FP32), or round to 8 (BF16) / 11 (FP16) significant
     * bits first, half away from zero. */
    uint32_t v = (uint32_t)sum;
    int32_t shift = __builtin_clz(v) - 8, exp = e - shift;
    int32_t keep = acc.fp32 ? 0 : acc.exp8 ? 16 : 13;
    shift -= keep;
    if (shift < 0)
        v = (v + (1u << (-shift - 1))) >> -shift;
    else
        v <<= shift;
    v <<= keep;
    if (v & 0x1000000u) exp++; /* the rounding carried into a new leading bit */
    uint32_t man = v & 0x7FFFFFu;
    uint32_t s = (uint32_t)sign << 31;
    if (exp <= 0) return 0;
    if (acc.fp32 || acc.exp8) return exp >= 255 ? s | 0x7F800000u : s | (uint32_t)exp << 23 | man;
    return exp >= 32 ? s | 31u << 23 | 0x3FFu << 13 : s | (uint32_t)exp << 23 | man;
}

uint32_t fpu_accumulate(const fpu_term_t *t, unsigned n, uint32_t dst, fpu_acc_t acc) {
    return accumulate(t, n, dst, acc);
}

uint32_t fpu_elwadd(uint32_t a, uint32_t b, uint32_t dst, fpu_acc_t acc, unsigned scale) {
    if ((a & 0x3FFFFu) < (b & 0x3FFFFu)) { /* |a| >= |b| */
        uint32_t t = a;
        a = b, b = t;
    }
    int32_t ea = (int32_t)((a >> 10) & 0xFFu), eb = (int32_t)((b >> 10) & 0xFFu);
    uint32_t ma = a ? (a & 0x3FFu) | 0x400u : 0, mb = b ? (b & 0x3FFu) | 0x400u : 0;
    if (eb < ea) { /* align b, rounding half up; 12 and more bits leave nothing */
        unsigned d = (unsigned)(ea - eb);
        mb = d < 12 ? (mb + (1u << (d - 1))) >> d : 0;
    }
    fpu_term_t t = {.sign = a >> 18, .exp = ea};
    t.man = ((a >> 18) == (b >> 18) ? ma + mb : ma - mb) << 13;
    /* FP16 operands into an FP32 Dst: rebias 15 -> 127 (a zero sum at the smallest exponent). */
    if (acc.fp32 && !acc.exp8) t.exp = t.exp ? t.exp + 127 - 15 : 127 - 30;
    t.exp -= (int32_t)scale;
    return fpu_accumulate(&t, 1, dst, acc);
}

uint32_t fpu_elwmul(uint32_t a, uint32_t b, bool zero, uint32_t dst, fpu_acc_t acc, unsigned phase) {
    int32_t adj = fpu_prod_adj(acc, phase);
    fpu_term_t t = {.sign = (a ^ b) >> 18 & 1,
                    .exp = (int32_t)((a >> 10) & 0xFFu) + (int32_t)((b >> 10) & 0xFFu) + adj};
    t.man = (fpu_a_bits(a, phase) * fpu_b_bits(b, phase)) << 13;
    if (zero || t.exp <= 0) t = (fpu_term_t){.sign = 0, .exp = adj > 0 ? adj : 0, .man = 0};
    return fpu_accumulate(&t, 1, dst, acc);
}

/* The rule of fpu_dot16 over decomposed operands (fpu_mop_a, fpu_mop_b), one group of eight
 * products k0..k0+7: their largest exponent (*e) and the sum of the products aligned to it, each
 * rounded half up (a negative one's magnitude rounded the same way). A product whose operand is
 * zero is a zero magnitude at exponent zexp (0, or the rebias of FP16 products into FP32 when that
 * is positive); its sentinel exponent (FPU_MOP_ZERO_EXP) leaves it out of the maximum, which
 * therefore starts at zexp: with zexp > 0 every other product's exponent is above it (at least
 * 2 + adj), and with zexp = 0 a group whose largest exponent is <= 0 adds nothing either way.
 * An alignment by 13 places or more leaves nothing of a product (at most 12 bits), so the
 * distances are cut at 15 (the vector form) or 30 (the plain one) alike. */
#if defined(__SSE2__) && !defined(TTEMU_NO_SIMD)
#include <emmintrin.h>
/* The eight products as the host's 16-bit vector lanes: the alignment m = round(p / 2^d) as the
 * high half of (4p) * 2^(14 - d) plus the top bit of its low half (the half that rounds up), with
 * 2^(14 - d) made as a float's exponent field; d = 15 gives 2^-1, truncated to 0. */
static inline __attribute__((always_inline)) int32_t group_sum(const fpu_mops_t *a, const fpu_mops_t *b, unsigned k0,
                                                               int32_t zexp, int32_t *e_out) {
    __m128i x =
        _mm_adds_epi16(_mm_loadu_si128((const __m128i *)&a->exp[k0]), _mm_loadu_si128((const __m128i *)&b->exp[k0]));
    __m128i t = _mm_max_epi16(x, _mm_shuffle_epi32(x, 0x4E));
    t = _mm_max_epi16(t, _mm_shuffle_epi32(t, 0xB1));
    t = _mm_max_epi16(t, _mm_shufflelo_epi16(t, 0xB1));
    int32_t e = (int16_t)_mm_cvtsi128_si32(t);
    e = e > zexp ? e : zexp;
    *e_out = e;
    if (e <= 0) return 0;
    __m128i d = _mm_min_epi16(_mm_subs_epi16(_mm_set1_epi16((int16_t)e), x), _mm_set1_epi16(15));
    __m128i zero = _mm_setzero_si128(), bias = _mm_set1_epi32(127 + 14);
    __m128i plo =
        _mm_cvttps_epi32(_mm_castsi128_ps(_mm_slli_epi32(_mm_sub_epi32(bias, _mm_unpacklo_epi16(d, zero)), 23)));
    __m128i phi =
        _mm_cvttps_epi32(_mm_castsi128_ps(_mm_slli_epi32(_mm_sub_epi32(bias, _mm_unpackhi_epi16(d, zero)), 23)));
    __m128i mult = _mm_packs_epi32(plo, phi);
    __m128i p4 = _mm_slli_epi16(
        _mm_mullo_epi16(_mm_loadu_si128((const __m128i *)&a->man[k0]), _mm_loadu_si128((const __m128i *)&b->man[k0])),
        2);
    __m128i m = _mm_add_epi16(_mm_mulhi_epu16(p4, mult), _mm_srli_epi16(_mm_mullo_epi16(p4, mult), 15));
    __m128i sg =
        _mm_xor_si128(_mm_loadu_si128((const __m128i *)&a->sign[k0]), _mm_loadu_si128((const __m128i *)&b->sign[k0]));
    m = _mm_sub_epi16(_mm_xor_si128(m, sg), sg); /* -m for a negative product */
    __m128i s = _mm_madd_epi16(m, _mm_set1_epi16(1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}
const char *fpu_dot16_form(void) { return "sse2"; }
#else
static inline __attribute__((always_inline)) int32_t group_sum(const fpu_mops_t *a, const fpu_mops_t *b, unsigned k0,
                                                               int32_t zexp, int32_t *e_out) {
    int32_t x[8], e = zexp;
#pragma GCC unroll 8
    for (unsigned k = 0; k < 8; k++) {
        x[k] = a->exp[k0 + k] + b->exp[k0 + k];
        e = x[k] > e ? x[k] : e;
    }
    *e_out = e;
    if (e <= 0) return 0;
    int32_t sum = 0;
#pragma GCC unroll 8
    for (unsigned k = 0; k < 8; k++) {
        unsigned d = (unsigned)(e - x[k]);
        d = d > 30 ? 30 : d;
        uint32_t m = (((uint32_t)a->man[k0 + k] * b->man[k0 + k] << 1) + (1u << d)) >> (d + 1);
        uint32_t s = (uint32_t)(int32_t)(a->sign[k0 + k] ^ b->sign[k0 + k]); /* all ones if negative */
        sum += (int32_t)((m ^ s) - s);
    }
    return sum;
}
const char *fpu_dot16_form(void) { return "plain"; }
#endif

/* The two groups' sums as terms, into the accumulator. */
static inline __attribute__((always_inline)) uint32_t dot16(const fpu_mops_t *a, const fpu_mops_t *b, uint32_t dst,
                                                            fpu_acc_t acc, int32_t zexp) {
    fpu_term_t t[2] = {{0, 0, 0}, {0, 0, 0}};
    for (unsigned g = 0; g < 2; g++) {
        int32_t e, sum = group_sum(a, b, 8 * g, zexp, &e);
        if (e <= 0) continue;
        t[g].exp = e;
        if (sum < 0) t[g].sign = 1, sum = -sum;
        t[g].man = (uint32_t)sum << 13;
    }
    return accumulate(t, 2, dst, acc);
}

uint32_t fpu_dot16(const uint32_t a[16], const uint32_t b[16], uint32_t dst, fpu_acc_t acc, unsigned phase) {
    int32_t adj = fpu_prod_adj(acc, phase);
    fpu_mops_t ma, mb;
    for (unsigned k = 0; k < 16; k++)
        fpu_mop_a(&ma, k, a[k], phase), fpu_mop_b(&mb, k, b[k], phase, adj);
    return dot16(&ma, &mb, dst, acc, adj > 0 ? adj : 0);
}

void fpu_dot16_row(const fpu_mops_t a[16], const fpu_mops_t *b, uint32_t dst[16], fpu_acc_t acc, unsigned phase) {
    int32_t adj = fpu_prod_adj(acc, phase), zexp = adj > 0 ? adj : 0;
    if (acc.fp32) { /* the common case, with the accumulator's width a constant */
        for (unsigned j = 0; j < 16; j++)
            dst[j] = dot16(&a[j], b, dst[j], (fpu_acc_t){.fp32 = true, .exp8 = acc.exp8}, zexp);
    } else {
        for (unsigned j = 0; j < 16; j++)
            dst[j] = dot16(&a[j], b, dst[j], acc, zexp);
    }
}

int32_t fpu_dst_int32(uint32_t datum) { return fmt_sm32_to_int32(fmt_dst_decode_fp32(datum)); }
uint32_t fpu_dst_from_int32(int32_t v) { return fmt_dst_encode_fp32(fmt_int32_to_sm32(v)); }
int32_t fpu_sat_add(int32_t a, int32_t b) {
    int64_t r = (int64_t)a + b;
    return r > INT32_MAX ? INT32_MAX : r < -INT32_MAX ? -INT32_MAX : (int32_t)r;
}
