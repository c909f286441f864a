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

/* The end of fpu_accumulate's rule: a sum's magnitude v (not 0) and sign at exponent e, normalised
 * to a leading one at bit 23 (FP32), or rounded to 8 (BF16) / 11 (FP16) significant bits first,
 * half away from zero, and encoded. */
static inline __attribute__((always_inline)) uint32_t normalise(uint32_t v, unsigned sign, int32_t e, fpu_acc_t acc) {
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

/* Dst's value as the accumulator reads it: its magnitude with the implicit one (*man) and its
 * exponent field (the returned value). */
static inline __attribute__((always_inline)) int32_t dst_term(uint32_t dst, uint32_t *man) {
    int32_t dexp = (int32_t)((dst >> 23) & 0xFFu);
    *man = dexp ? (dst & 0x7FFFFFu) | 0x800000u : 0;
    return dexp;
}

/* fpu_accumulate's rule, inlined where the number of terms and the Dst width are constants. */
static inline __attribute__((always_inline)) uint32_t accumulate(const fpu_term_t *t, unsigned n, uint32_t dst,
                                                                 fpu_acc_t acc) {
    unsigned dsign = dst >> 31;
    uint32_t dman;
    int32_t dexp = dst_term(dst, &dman), e = dexp;
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
        /* Added as a 32-bit signed integer (ttsim's accumulator): a term made by a subtraction that
         * went below zero (an unflushed -0 against 0, test_fpu test_elwsub_zeros_unflushed) is
         * negative, not a wrapped magnitude. */
        sum += t[i].sign == dsign ? (int64_t)(int32_t)tm : -(int64_t)(int32_t)tm;
    }
    unsigned sign = dsign;
    if (sum < 0) sum = -sum, sign ^= 1;
    if (sum == 0) return 0; /* exact cancellation gives +0 */
    return normalise((uint32_t)sum, sign, e, acc);
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
 * distances are cut at 30 here (the plain form) and at 15 in the vector form (group_sums8) alike. */
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

/* accumulate's rule for fpu_dot16's two groups, with each group's sum signed (a group whose
 * largest exponent e[g] is <= 0 has sum 0 and adds nothing, whatever e[g]). A signed sum is
 * aligned as it is, with an arithmetic shift: floor((v + 2^(d-1)) / 2^d) is -((|v| + 2^(d-1) - 1)
 * >> d) for a negative v, the rule's rounding of a negative term's magnitude (its ties toward
 * zero), and likewise the 11 bits a 16-bit Dst keeps; written (2v + 2^d) >> (d + 1), which is v for
 * d = 0. The sums' terms stay below 2^28, so distances of 29 and more leave nothing either way
 * (cut at 30), and the whole sum fits 32 bits with Dst's (below 2^24). */
static inline __attribute__((always_inline)) uint32_t two_groups(const int32_t e[2], const int32_t sum[2], uint32_t dst,
                                                                 fpu_acc_t acc) {
    uint32_t dman;
    int32_t dexp = dst_term(dst, &dman), emax = dexp;
    for (unsigned g = 0; g < 2; g++)
        emax = e[g] > emax ? e[g] : emax;
    if (emax <= 0) return 0; /* everything underflows before it is added */
    uint32_t m = dexp < emax ? align(dman, (unsigned)(emax - dexp), 0) : dman;
    if (!acc.fp32) m = (m + 0x1000u) & ~0x1FFFu;
    int32_t s = (dst >> 31) ? -(int32_t)m : (int32_t)m;
    for (unsigned g = 0; g < 2; g++) {
        /* (2v + 2^d) >> (d + 1), the same without a branch for d = 0 */
        unsigned d = (unsigned)(emax - e[g]);
        d = d > 30 ? 30 : d;
        int32_t v = (sum[g] * 16384 + (1 << d)) >> (d + 1); /* the magnitude scaled so that 1.0 is 1 << 23 */
        if (!acc.fp32) v = (v + 0x1000) & ~0x1FFF;
        s += v;
    }
    if (s == 0) return 0; /* exact cancellation gives +0 */
    return s < 0 ? normalise((uint32_t)-s, 1, emax, acc) : normalise((uint32_t)s, 0, emax, acc);
}

/* fpu_dot16 over decomposed operands, a by column (a->exp[k]). */
static inline __attribute__((always_inline)) uint32_t dot16(const fpu_mops_t *a, const fpu_mops_t *b, uint32_t dst,
                                                            fpu_acc_t acc, int32_t zexp) {
    int32_t e[2], sum[2];
    for (unsigned g = 0; g < 2; g++)
        sum[g] = group_sum(a, b, 8 * g, zexp, &e[g]);
    return two_groups(e, sum, dst, acc);
}

uint32_t fpu_dot16(const uint32_t a[16], const uint32_t b[16], uint32_t dst, fpu_acc_t acc, unsigned phase) {
    int32_t adj = fpu_prod_adj(acc, phase);
    fpu_mops_t ma, mb;
    for (unsigned k = 0; k < 16; k++)
        fpu_mop_a(&ma, k, a[k], phase), fpu_mop_b(&mb, k, b[k], phase, adj);
    return dot16(&ma, &mb, dst, acc, adj > 0 ? adj : 0);
}

/* fpu_elwmul_row datum by datum (the plain form, and an FP32 Dst in the vector one). */
static inline __attribute__((always_inline)) void elwmul_row_plain(const uint32_t a[16], const uint32_t b[16],
                                                                   uint32_t dst[16], fmt_style_t sa, fmt_style_t sb,
                                                                   bool flush_b, fpu_acc_t acc, unsigned phase) {
    for (unsigned j = 0; j < 16; j++) {
        uint32_t ao, bo;
        bool zero = fpu_elw_operands(a[j], b[j], sa, sb, false, flush_b, &ao, &bo);
        dst[j] = fpu_elwmul(ao, bo, zero, dst[j], acc, phase);
    }
}

#if defined(__SSE2__) && !defined(TTEMU_NO_SIMD)
#include <emmintrin.h>
/* b's operand k in all eight 16-bit lanes, from the doubled halves of its eight (lo: k0..k0+3,
 * hi: k0+4..k0+7, each 16-bit field twice in a 32-bit lane): one pshufd (i a constant once the
 * loops below are unrolled). */
static inline __attribute__((always_inline)) __m128i bcast_k(__m128i lo, __m128i hi, unsigned i) {
    switch (i) {
    case 0: return _mm_shuffle_epi32(lo, 0x00);
    case 1: return _mm_shuffle_epi32(lo, 0x55);
    case 2: return _mm_shuffle_epi32(lo, 0xAA);
    case 3: return _mm_shuffle_epi32(lo, 0xFF);
    case 4: return _mm_shuffle_epi32(hi, 0x00);
    case 5: return _mm_shuffle_epi32(hi, 0x55);
    case 6: return _mm_shuffle_epi32(hi, 0xAA);
    default: return _mm_shuffle_epi32(hi, 0xFF);
    }
}
/* group_sum for eight columns at once (j0..j0+7), a by row (a[k].exp[j]) and b's operands k
 * broadcast (bcast_k: exp, man, sign), in the host's 16-bit vector lanes: the largest exponent
 * e is a lane-wise maximum, and the alignment m = round(p / 2^d) the high half of (4p) * 2^(14 -
 * d) plus the top bit of its low half (the half that rounds up), with 2^(14 - d) made as a
 * float's exponent field, 127 + 14 - d = max(x + 141 - e, 126): d = 15 gives 2^-1, truncated to
 * 0. The sum of eight aligned products (each below 2^12) fits a lane. A lane whose largest
 * exponent is <= 0 gets an unused sum. */
static inline __attribute__((always_inline)) void group_sums8(const fpu_mops_t a[16], const fpu_mops_t *b, unsigned k0,
                                                              unsigned j0, __m128i zexp, int32_t e_out[8],
                                                              int32_t s_out[8]) {
    __m128i we = _mm_load_si128((const __m128i *)&b->exp[k0]), wm = _mm_load_si128((const __m128i *)&b->man[k0]);
    __m128i ws = _mm_load_si128((const __m128i *)&b->sign[k0]);
    __m128i el = _mm_unpacklo_epi16(we, we), eh = _mm_unpackhi_epi16(we, we);
    __m128i ml = _mm_unpacklo_epi16(wm, wm), mh = _mm_unpackhi_epi16(wm, wm);
    __m128i sl = _mm_unpacklo_epi16(ws, ws), sh = _mm_unpackhi_epi16(ws, ws);
    __m128i e = zexp;
#pragma GCC unroll 8
    for (unsigned i = 0; i < 8; i++)
        e = _mm_max_epi16(e, _mm_adds_epi16(_mm_load_si128((const __m128i *)&a[k0 + i].exp[j0]), bcast_k(el, eh, i)));
    __m128i zero = _mm_setzero_si128(), c = _mm_sub_epi16(_mm_set1_epi16(141), e), sum = zero;
#pragma GCC unroll 8
    for (unsigned i = 0; i < 8; i++) {
        unsigned k = k0 + i;
        __m128i x = _mm_adds_epi16(_mm_load_si128((const __m128i *)&a[k].exp[j0]), bcast_k(el, eh, i));
        __m128i h = _mm_slli_epi16(_mm_max_epi16(_mm_adds_epi16(x, c), _mm_set1_epi16(126)), 7);
        __m128i mult = _mm_packs_epi32(_mm_cvttps_epi32(_mm_castsi128_ps(_mm_unpacklo_epi16(zero, h))),
                                       _mm_cvttps_epi32(_mm_castsi128_ps(_mm_unpackhi_epi16(zero, h))));
        __m128i p4 =
            _mm_slli_epi16(_mm_mullo_epi16(_mm_load_si128((const __m128i *)&a[k].man[j0]), bcast_k(ml, mh, i)), 2);
        __m128i m = _mm_add_epi16(_mm_mulhi_epu16(p4, mult), _mm_srli_epi16(_mm_mullo_epi16(p4, mult), 15));
        __m128i sg = _mm_xor_si128(_mm_load_si128((const __m128i *)&a[k].sign[j0]), bcast_k(sl, sh, i));
        sum = _mm_add_epi16(sum, _mm_sub_epi16(_mm_xor_si128(m, sg), sg)); /* -m for a negative product */
    }
    sum = _mm_and_si128(sum, _mm_cmpgt_epi16(e, zero)); /* e >= zexp >= 0: no sum where e is 0 */
    /* Widened to 32 bits, with their signs. */
    _mm_storeu_si128((__m128i *)&e_out[0], _mm_srai_epi32(_mm_unpacklo_epi16(zero, e), 16));
    _mm_storeu_si128((__m128i *)&e_out[4], _mm_srai_epi32(_mm_unpackhi_epi16(zero, e), 16));
    _mm_storeu_si128((__m128i *)&s_out[0], _mm_srai_epi32(_mm_unpacklo_epi16(zero, sum), 16));
    _mm_storeu_si128((__m128i *)&s_out[4], _mm_srai_epi32(_mm_unpackhi_epi16(zero, sum), 16));
}
/* two_groups for an FP32 Dst, four columns at a time in the host's 32-bit vector lanes (SSE2 has
 * no per-lane shifts, no 32-bit multiply and no count of leading zeros: each is built from what
 * it has, exactly). round_shift4(x2, d) is the rule's (x2 + 2^d) >> (d + 1) with an arithmetic
 * shift, d in 0..30 and x2 + 2^d within 32 bits signed: biased by 2^31 into an unsigned word u,
 * floor(u / 2^(d+1)) is the high word of u * 2^(31 - d) (two lanes a multiply), less the bias's
 * 2^(30 - d). 2^n (n <= 31) is made as a float's exponent field, converted: 2^31 converts to
 * 0x80000000, which is 2^31 as the unsigned word wanted. */
static inline __attribute__((always_inline)) __m128i pow2_4(__m128i n) {
    return _mm_cvttps_epi32(_mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(n, _mm_set1_epi32(127)), 23)));
}
/* The low (lo) or high (hi) words of the four products a[l] * b[l] (unsigned, 64 bits). */
static inline __attribute__((always_inline)) __m128i mul_hi4(__m128i a, __m128i b) {
    __m128i even = _mm_mul_epu32(a, b), odd = _mm_mul_epu32(_mm_srli_epi64(a, 32), _mm_srli_epi64(b, 32));
    return _mm_or_si128(_mm_srli_epi64(even, 32), _mm_and_si128(odd, _mm_set_epi32(-1, 0, -1, 0)));
}
static inline __attribute__((always_inline)) __m128i mul_lo4(__m128i a, __m128i b) {
    __m128i even = _mm_mul_epu32(a, b), odd = _mm_mul_epu32(_mm_srli_epi64(a, 32), _mm_srli_epi64(b, 32));
    return _mm_or_si128(_mm_and_si128(even, _mm_set_epi32(0, -1, 0, -1)), _mm_slli_epi64(odd, 32));
}
static inline __attribute__((always_inline)) __m128i round_shift4(__m128i x2, __m128i d) {
    __m128i thirty = _mm_set1_epi32(30);
    __m128i u = _mm_add_epi32(_mm_add_epi32(x2, pow2_4(d)), _mm_set1_epi32((int)0x80000000u));
    __m128i q = mul_hi4(u, pow2_4(_mm_sub_epi32(_mm_set1_epi32(31), d)));
    return _mm_sub_epi32(q, pow2_4(_mm_sub_epi32(thirty, d)));
}
static inline __attribute__((always_inline)) __m128i max4(__m128i a, __m128i b) {
    __m128i gt = _mm_cmpgt_epi32(a, b);
    return _mm_or_si128(_mm_and_si128(gt, a), _mm_andnot_si128(gt, b));
}
static inline __attribute__((always_inline)) __m128i min30(__m128i d) {
    __m128i thirty = _mm_set1_epi32(30), gt = _mm_cmpgt_epi32(d, thirty);
    return _mm_or_si128(_mm_and_si128(gt, thirty), _mm_andnot_si128(gt, d));
}
static inline __attribute__((always_inline)) void
two_groups4_fp32(const int32_t *e0, const int32_t *e1, const int32_t *s0, const int32_t *s1, uint32_t *dst) {
    const __m128i zero = _mm_setzero_si128();
    __m128i dv = _mm_loadu_si128((const __m128i *)dst);
    __m128i ge0 = _mm_loadu_si128((const __m128i *)e0), ge1 = _mm_loadu_si128((const __m128i *)e1);
    /* Dst's term (dst_term): exponent field, magnitude with its implicit one (none for exponent 0) */
    __m128i dexp = _mm_and_si128(_mm_srli_epi32(dv, 23), _mm_set1_epi32(0xFF));
    __m128i dz = _mm_cmpeq_epi32(dexp, zero);
    __m128i dman =
        _mm_andnot_si128(dz, _mm_or_si128(_mm_and_si128(dv, _mm_set1_epi32(0x7FFFFF)), _mm_set1_epi32(0x800000)));
    __m128i emax = max4(max4(dexp, ge0), ge1);
    /* align(dman, emax - dexp, 0) is (2 dman + 2^d) >> (d + 1), dman for d = 0, nothing left from
     * d = 25 (2 dman < 2^25), so d cut at 30 as the groups' */
    __m128i m = round_shift4(_mm_add_epi32(dman, dman), min30(_mm_sub_epi32(emax, dexp)));
    __m128i dsg = _mm_srai_epi32(dv, 31);
    __m128i s = _mm_sub_epi32(_mm_xor_si128(m, dsg), dsg);
    s = _mm_add_epi32(
        s, round_shift4(_mm_slli_epi32(_mm_loadu_si128((const __m128i *)s0), 14), min30(_mm_sub_epi32(emax, ge0))));
    s = _mm_add_epi32(
        s, round_shift4(_mm_slli_epi32(_mm_loadu_si128((const __m128i *)s1), 14), min30(_mm_sub_epi32(emax, ge1))));
    /* normalise: |s| = a (below 2^30) with its leading one at bit 23, rounded half up from E = 24
     * (E its top bit: (a + 2^(k-1)) >> k, k = E - 23). E is taken from a converted to a float (to
     * nearest, ties to even: the host's mode, which nothing changes), and that conversion rounds
     * up into the next power of two exactly where the rule's rounding carries into a new leading
     * bit, a >= 2^(E+1) - 2^(E-24): then (a + 2^k) >> (k + 1) at E + 1 is 2^23, the exponent and
     * mantissa of the rule's carried 2^24. So the rule's carry is the conversion's, and no other
     * rounding here carries. */
    __m128i sg = _mm_srai_epi32(s, 31), a = _mm_sub_epi32(_mm_xor_si128(s, sg), sg);
    __m128i ea = _mm_sub_epi32(_mm_srli_epi32(_mm_castps_si128(_mm_cvtepi32_ps(a)), 23), _mm_set1_epi32(127));
    __m128i right = _mm_cmpgt_epi32(ea, _mm_set1_epi32(23)); /* E in 24..29: rounded, half up */
    __m128i kr = _mm_and_si128(right, _mm_sub_epi32(ea, _mm_set1_epi32(23)));
    __m128i kl = _mm_andnot_si128(right, _mm_sub_epi32(_mm_set1_epi32(23), ea));
    __m128i ar = round_shift4(_mm_add_epi32(a, a), kr); /* (a + 2^(k-1)) >> k; a for k = 0 */
    __m128i al = mul_lo4(a, pow2_4(kl));                /* a << (23 - E), below 2^24 */
    __m128i v = _mm_or_si128(_mm_and_si128(right, ar), _mm_andnot_si128(right, al));
    __m128i exp = _mm_add_epi32(_mm_sub_epi32(emax, _mm_set1_epi32(23)), ea);
    __m128i man = _mm_and_si128(v, _mm_set1_epi32(0x7FFFFF)), sbit = _mm_slli_epi32(sg, 31);
    __m128i inf = _mm_cmpgt_epi32(exp, _mm_set1_epi32(254));
    __m128i r = _mm_or_si128(sbit, _mm_or_si128(_mm_and_si128(inf, _mm_set1_epi32(0x7F800000)),
                                                _mm_andnot_si128(inf, _mm_or_si128(_mm_slli_epi32(exp, 23), man))));
    /* nothing where the sum is 0 (cancelled exactly, or everything underflowed: emax <= 0 leaves Dst's
     * exponent 0, its magnitude 0, and both groups' sums 0) or the exponent is <= 0 */
    __m128i none = _mm_or_si128(_mm_cmpeq_epi32(s, zero), _mm_cmpgt_epi32(_mm_set1_epi32(1), exp));
    _mm_storeu_si128((__m128i *)dst, _mm_andnot_si128(none, r));
}
static inline __attribute__((always_inline)) void dot16_rows(const fpu_mops_t a[16], const fpu_mops_t *b,
                                                             uint32_t dst[16], fpu_acc_t acc, int32_t zexp) {
    int32_t e[2][16], sum[2][16];
    for (unsigned g = 0; g < 2; g++)
        for (unsigned j0 = 0; j0 < 16; j0 += 8)
            group_sums8(a, b, 8 * g, j0, _mm_set1_epi16((int16_t)zexp), &e[g][j0], &sum[g][j0]);
    if (acc.fp32) {
        for (unsigned j = 0; j < 16; j += 4)
            two_groups4_fp32(&e[0][j], &e[1][j], &sum[0][j], &sum[1][j], &dst[j]);
        return;
    }
    for (unsigned j = 0; j < 16; j++)
        dst[j] =
            two_groups((const int32_t[2]){e[0][j], e[1][j]}, (const int32_t[2]){sum[0][j], sum[1][j]}, dst[j], acc);
}
/* Four Src datums as the Matrix Unit reads them under their format's style (fpu_operand), in
 * 32-bit lanes: the exponent field (FP16's 5 bits, else 8), the mantissa field (BF16's top seven
 * bits, else ten; without the implicit one), and zero, all ones where the operand is read as zero
 * (fpu_operand_zero: its exponent field is 0) when flush is true (SrcA always, SrcB under the
 * zero flag), else none. The one decoding of a Src operand in the lanes: mop8, elwadd4, elwmul4.
 * The sign is the datum's bit 18 in every style. */
typedef struct {
    __m128i exp, man, zero;
} operand4_t;
static inline __attribute__((always_inline)) operand4_t operand4(__m128i v, fmt_style_t style, bool flush) {
    operand4_t o;
    o.exp = _mm_and_si128(v, _mm_set1_epi32(style == FMT_STYLE_FP16 ? 0x1F : 0xFF));
    o.man = _mm_and_si128(_mm_srli_epi32(v, 8), _mm_set1_epi32(style == FMT_STYLE_BF16 ? 0x3F8 : 0x3FF));
    o.zero = flush ? _mm_cmpeq_epi32(o.exp, _mm_setzero_si128()) : _mm_setzero_si128();
    return o;
}
/* fpu_mop_a and fpu_mop_b of fpu_operand, four datums at a time in 32-bit lanes, then narrowed
 * (every field fits 16 bits signed: exponents with SrcB's adjustment or the sentinel, multiplier
 * bits below 128, signs 0 or -1). bits: the multiplier half, 0/1 SrcA's even/odd phases
 * (fpu_a_bits), 2/3 SrcB's phases 0-1/2-3 (fpu_b_bits). */
static inline __attribute__((always_inline)) void mop8(const uint32_t *src, fmt_style_t style, unsigned bits,
                                                       int32_t adj, fpu_mops_t *m, unsigned j) {
    __m128i out[2][3];
    for (unsigned h = 0; h < 2; h++) {
        __m128i v = _mm_loadu_si128((const __m128i *)&src[4 * h]);
        operand4_t o = operand4(v, style, true);
        __m128i mb = _mm_or_si128(o.man, _mm_set1_epi32(0x400));
        switch (bits) {
        case 0: mb = _mm_srli_epi32(mb, 6); break;
        case 1: mb = _mm_and_si128(_mm_srli_epi32(mb, 1), _mm_set1_epi32(31)); break;
        case 2: mb = _mm_srli_epi32(mb, 4); break;
        default: mb = _mm_slli_epi32(_mm_and_si128(mb, _mm_set1_epi32(15)), 3); break;
        }
        __m128i e = _mm_add_epi32(o.exp, _mm_set1_epi32(adj));
        out[h][0] = _mm_or_si128(_mm_andnot_si128(o.zero, e), _mm_and_si128(o.zero, _mm_set1_epi32(FPU_MOP_ZERO_EXP)));
        out[h][1] = _mm_andnot_si128(o.zero, mb);
        out[h][2] = _mm_srai_epi32(_mm_slli_epi32(v, 13), 31);
    }
    _mm_store_si128((__m128i *)&m->exp[j], _mm_packs_epi32(out[0][0], out[1][0]));
    _mm_store_si128((__m128i *)&m->man[j], _mm_packs_epi32(out[0][1], out[1][1]));
    _mm_store_si128((__m128i *)&m->sign[j], _mm_packs_epi32(out[0][2], out[1][2]));
}
void fpu_mop_a_rows(fpu_mops_t am[16], const uint32_t *const rows[16], fmt_style_t style, unsigned phase) {
    for (unsigned k = 0; k < 16; k++)
        for (unsigned j = 0; j < 16; j += 8)
            mop8(&rows[k][j], style, phase & 1, 0, &am[k], j);
}
void fpu_mop_b_row(fpu_mops_t *bm, const uint32_t *row, fmt_style_t style, unsigned phase, int32_t adj) {
    for (unsigned k = 0; k < 16; k += 8)
        mop8(&row[k], style, 2 + ((phase >> 1) & 1), adj, bm, k);
}
const char *fpu_dot16_form(void) { return "sse2"; }

/* A 16- or 32-bit Dst value in four lanes from a non-negative integer magnitude n (exact in a
 * float): rounded half up on the float's pattern to the Dst's significant bits (BF16 8, FP16 11;
 * FP32 exact, a carry running into the exponent as the rule's does), its float exponent field
 * moved by ebias to the rule's exponent (*exp, for the caller's zero test: <= 0 gives +0 there),
 * the limits (BF16, FP32 from 255: infinity; FP16 from 32: the largest pattern), the sign bit
 * sign. The normalisation that fpu_elwadd_row's and fpu_elwmul_row's lanes share. */
static inline __attribute__((always_inline)) __m128i dst_norm4(__m128i n, __m128i ebias, __m128i sign, fpu_acc_t acc,
                                                               __m128i *exp) {
    __m128i nf = _mm_castps_si128(_mm_cvtepi32_ps(n));
    if (!acc.fp32) {
        uint32_t half = acc.exp8 ? 0x8000u : 0x1000u;
        nf = _mm_and_si128(_mm_add_epi32(nf, _mm_set1_epi32((int)half)), _mm_set1_epi32((int)~(2 * half - 1)));
    }
    *exp = _mm_add_epi32(_mm_srli_epi32(nf, 23), ebias);
    bool fp16 = !acc.fp32 && !acc.exp8;
    __m128i over = _mm_cmpgt_epi32(*exp, _mm_set1_epi32(fp16 ? 31 : 254));
    __m128i big = _mm_set1_epi32(fp16 ? 0x0FFFE000 : 0x7F800000);
    __m128i r = _mm_or_si128(_mm_slli_epi32(*exp, 23), _mm_and_si128(nf, _mm_set1_epi32(0x7FFFFF)));
    return _mm_or_si128(sign, _mm_or_si128(_mm_and_si128(over, big), _mm_andnot_si128(over, r)));
}
/* fpu_elwadd with dst = 0, four datums in the host's 32-bit lanes. Where the larger operand X
 * (by its 18 magnitude bits) has an exponent field ex >= 1, the rule is: the smaller one's
 * magnitude my (0 for an operand 0, else its implicit one and mantissa) aligned by d = ex - ey,
 * rounded half up, floor(my / 2^d + 1/2), which is exact in a float (my below 2^11, d cut at 13,
 * where my / 2^d + 1/2 < 1 gives 0 as any d >= 12 does: at most 14 significant bits), truncated;
 * n = mx +- that, 0 <= n < 2^12 (mx >= the aligned my); the term n << 13 at exponent et = ex (+
 * 112 for FP16 operands into FP32) - scale, which accumulate's rule (no Dst term, no alignment,
 * the 11-bit rounding of a 16-bit Dst leaving a multiple of 2^13 as it is) normalises: +0 for et
 * <= 0 or n = 0, else n rounded half up to 8 (BF16 Dst), 11 (FP16) or 24 (FP32: exact)
 * significant bits. That is n converted to a float (exact), its low 16 / 13 / 0 bits rounded half
 * up on the pattern (a carry runs into the exponent as the rule's does), and its exponent moved
 * from 137 (n in [2^10, 2^11): the rule's leading bit 23 at exponent et) to et; then the rule's
 * limits (<= 0: +0; BF16, FP32 >= 255: infinity; FP16 >= 32: the largest pattern). The sign is
 * X's. Where ex = 0 and both operands are 0, n = 0 (+0); ex = 0 otherwise (an operand with
 * exponent 0 that the zero flag let through, flush_b false, -0 included): fpu_elwadd. */
static inline __attribute__((always_inline)) __m128i elwadd4(__m128i av, __m128i bv, fmt_style_t sa, fmt_style_t sb,
                                                             bool sub, bool flush_b, fpu_acc_t acc, unsigned scale,
                                                             int *fallback, __m128i *ao, __m128i *bo) {
    const __m128i zero = _mm_setzero_si128(), sbit = _mm_set1_epi32(0x40000);
    operand4_t oa = operand4(av, sa, true), ob = operand4(bv, sb, flush_b);
    __m128i A = _mm_or_si128(_mm_or_si128(_mm_and_si128(av, sbit), _mm_slli_epi32(oa.exp, 10)), oa.man);
    __m128i B = _mm_or_si128(_mm_or_si128(_mm_and_si128(bv, sbit), _mm_slli_epi32(ob.exp, 10)), ob.man);
    if (sub) B = _mm_xor_si128(B, sbit);
    A = _mm_andnot_si128(oa.zero, A);
    if (flush_b) B = _mm_andnot_si128(ob.zero, B); /* ob.zero is none otherwise: the test spares a select */
    *ao = A, *bo = B;
    /* |X| >= |Y| */
    __m128i mag = _mm_set1_epi32(0x3FFFF), lt = _mm_cmpgt_epi32(_mm_and_si128(B, mag), _mm_and_si128(A, mag));
    __m128i X = _mm_or_si128(_mm_and_si128(lt, B), _mm_andnot_si128(lt, A));
    __m128i Y = _mm_or_si128(_mm_and_si128(lt, A), _mm_andnot_si128(lt, B));
    __m128i ex = _mm_and_si128(_mm_srli_epi32(X, 10), _mm_set1_epi32(0xFF));
    __m128i ey = _mm_and_si128(_mm_srli_epi32(Y, 10), _mm_set1_epi32(0xFF));
    __m128i exz = _mm_cmpeq_epi32(ex, zero), lead = _mm_set1_epi32(0x400), m10 = _mm_set1_epi32(0x3FF);
    *fallback = _mm_movemask_ps(_mm_castsi128_ps(_mm_andnot_si128(_mm_cmpeq_epi32(_mm_or_si128(X, Y), zero), exz)));
    __m128i mx = _mm_andnot_si128(exz, _mm_or_si128(_mm_and_si128(X, m10), lead));
    __m128i my = _mm_andnot_si128(_mm_cmpeq_epi32(Y, zero), _mm_or_si128(_mm_and_si128(Y, m10), lead));
    /* d in 0..255 (ex >= ey), in the low 16 bits of its lane: cut at 13 with a 16-bit minimum */
    __m128i d = _mm_min_epi16(_mm_sub_epi32(ex, ey), _mm_set1_epi32(13));
    __m128 scl = _mm_castsi128_ps(_mm_slli_epi32(_mm_sub_epi32(_mm_set1_epi32(127), d), 23)); /* 2^-d */
    __m128i myr = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(my), scl), _mm_set1_ps(0.5f)));
    __m128i neg = _mm_srai_epi32(_mm_slli_epi32(_mm_xor_si128(X, Y), 13), 31);
    __m128i n = _mm_add_epi32(mx, _mm_sub_epi32(_mm_xor_si128(myr, neg), neg));
    int32_t et0 = (acc.fp32 && !acc.exp8 ? 127 - 15 : 0) - (int32_t)scale;
    __m128i et = _mm_add_epi32(ex, _mm_set1_epi32(et0));
    __m128i exp, sign = _mm_slli_epi32(_mm_srli_epi32(X, 18), 31);
    __m128i r = dst_norm4(n, _mm_sub_epi32(et, _mm_set1_epi32(137)), sign, acc, &exp);
    __m128i one = _mm_set1_epi32(1);
    __m128i none =
        _mm_or_si128(_mm_cmpeq_epi32(n, zero), _mm_or_si128(_mm_cmpgt_epi32(one, exp), _mm_cmpgt_epi32(one, et)));
    return _mm_andnot_si128(none, r);
}
static inline __attribute__((always_inline)) void elwadd_row(const uint32_t a[16], const uint32_t b[16],
                                                             uint32_t out[16], fmt_style_t sa, fmt_style_t sb, bool sub,
                                                             bool flush_b, fpu_acc_t acc, unsigned scale) {
    for (unsigned j = 0; j < 16; j += 4) {
        int fb;
        __m128i ao, bo;
        __m128i r = elwadd4(_mm_loadu_si128((const __m128i *)&a[j]), _mm_loadu_si128((const __m128i *)&b[j]), sa, sb,
                            sub, flush_b, acc, scale, &fb, &ao, &bo);
        _mm_storeu_si128((__m128i *)&out[j], r);
        if (__builtin_expect(fb != 0, 0)) {
            uint32_t av[4], bv[4];
            _mm_storeu_si128((__m128i *)av, ao);
            _mm_storeu_si128((__m128i *)bv, bo);
            for (unsigned l = 0; l < 4; l++)
                if (fb >> l & 1) out[j + l] = fpu_elwadd(av[l], bv[l], 0, acc, scale);
        }
    }
}
const char *fpu_elwadd_form(void) { return "sse2"; }
/* fpu_elwmul into a 16-bit Dst (acc.fp32 false), four datums in the host's 32-bit lanes, every
 * datum covered. The product term: p = fpu_a_bits * fpu_b_bits (below 2^12, a 16-bit multiply)
 * << 13 at te = ea + eb + adj, its sign a's ^ b's; where the zero flags or te <= 0 make it zero, the
 * rule's zero term is magnitude 0 at exponent max(adj, 0) = 0 (adj < 0 for a 16-bit Dst). Then
 * accumulate's rule with Dst's term: e = max(dexp, te); each magnitude aligned to e as align does,
 * with round_shift4 ((2 man + 2^d) >> (d + 1) is (man + 2^(d-1)) >> d, and man at d = 0; d cut at
 * 30: the magnitudes are below 2^25, so from d = 26 nothing is left either way), then rounded to
 * 11 bits (+ 2^12 (- the term's sign), low 13 bits cleared); their signed sum s. align's "- sign"
 * for a negative term is left out: it changes a tie only, and the term p << 13 has a tie at d >=
 * 14 only, where the aligned magnitude is below 2^11 and the 11-bit rounding leaves 0 either way.
 * The sum s (|s| < 2^26, a multiple of 2^13: at most
 * 13 significant bits, so exact in a float); normalise as elwadd4 does on the float's pattern
 * (rounded half up to 8 or 11 significant bits, the carry the rule's), the exponent e + L - 23
 * for the leading bit L (the float's field - 150 + e), +0 for s = 0 or an exponent <= 0 (e <= 0
 * leaves both magnitudes 0), the BF16 Dst's infinity from 255, the FP16 Dst's largest pattern
 * from 32. */
static inline __attribute__((always_inline)) __m128i elwmul4(__m128i av, __m128i bv, __m128i dv, fmt_style_t sa,
                                                             fmt_style_t sb, bool flush_b, fpu_acc_t acc,
                                                             unsigned phase) {
    const __m128i zero = _mm_setzero_si128();
    operand4_t oa = operand4(av, sa, true), ob = operand4(bv, sb, flush_b);
    __m128i ma = _mm_or_si128(oa.man, _mm_set1_epi32(0x400)), mb = _mm_or_si128(ob.man, _mm_set1_epi32(0x400));
    ma = (phase & 1) ? _mm_and_si128(_mm_srli_epi32(ma, 1), _mm_set1_epi32(31)) : _mm_srli_epi32(ma, 6);
    mb = (phase & 2) ? _mm_slli_epi32(_mm_and_si128(mb, _mm_set1_epi32(15)), 3) : _mm_srli_epi32(mb, 4);
    __m128i te = _mm_add_epi32(_mm_add_epi32(oa.exp, ob.exp), _mm_set1_epi32(fpu_prod_adj(acc, phase)));
    __m128i z = _mm_or_si128(_mm_or_si128(oa.zero, ob.zero), _mm_cmpgt_epi32(_mm_set1_epi32(1), te));
    __m128i tman = _mm_andnot_si128(z, _mm_slli_epi32(_mm_mullo_epi16(ma, mb), 13));
    __m128i tsg = _mm_andnot_si128(z, _mm_srai_epi32(_mm_slli_epi32(_mm_xor_si128(av, bv), 13), 31)); /* 0 / -1 */
    te = _mm_andnot_si128(z, te);
    __m128i dexp = _mm_and_si128(_mm_srli_epi32(dv, 23), _mm_set1_epi32(0xFF));
    __m128i dman =
        _mm_andnot_si128(_mm_cmpeq_epi32(dexp, zero),
                         _mm_or_si128(_mm_and_si128(dv, _mm_set1_epi32(0x7FFFFF)), _mm_set1_epi32(0x800000)));
    __m128i e = max4(dexp, te);
    __m128i dd = min30(_mm_sub_epi32(e, dexp)), dt = min30(_mm_sub_epi32(e, te));
    __m128i m = round_shift4(_mm_add_epi32(dman, dman), dd); /* dman itself for dd = 0 */
    __m128i tm = round_shift4(_mm_add_epi32(tman, tman), dt);
    __m128i clr = _mm_set1_epi32(~0x1FFF), h = _mm_set1_epi32(0x1000);
    m = _mm_and_si128(_mm_add_epi32(m, h), clr);
    tm = _mm_and_si128(_mm_add_epi32(_mm_add_epi32(tm, h), tsg), clr);
    __m128i dsg = _mm_srai_epi32(dv, 31);
    __m128i s = _mm_add_epi32(_mm_sub_epi32(_mm_xor_si128(m, dsg), dsg), _mm_sub_epi32(_mm_xor_si128(tm, tsg), tsg));
    __m128i sg = _mm_srai_epi32(s, 31), v = _mm_sub_epi32(_mm_xor_si128(s, sg), sg);
    __m128i exp, r = dst_norm4(v, _mm_sub_epi32(e, _mm_set1_epi32(150)), _mm_slli_epi32(sg, 31), acc, &exp);
    __m128i none = _mm_or_si128(_mm_cmpeq_epi32(s, zero), _mm_cmpgt_epi32(_mm_set1_epi32(1), exp));
    return _mm_andnot_si128(none, r);
}
static inline __attribute__((always_inline)) void elwmul_row(const uint32_t a[16], const uint32_t b[16],
                                                             uint32_t dst[16], fmt_style_t sa, fmt_style_t sb,
                                                             bool flush_b, fpu_acc_t acc, unsigned phase) {
    if (acc.fp32) {
        elwmul_row_plain(a, b, dst, sa, sb, flush_b, acc, phase);
        return;
    }
    for (unsigned j = 0; j < 16; j += 4)
        _mm_storeu_si128((__m128i *)&dst[j],
                         elwmul4(_mm_loadu_si128((const __m128i *)&a[j]), _mm_loadu_si128((const __m128i *)&b[j]),
                                 _mm_loadu_si128((const __m128i *)&dst[j]), sa, sb, flush_b, acc, phase));
}
const char *fpu_elwmul_form(void) { return "sse2"; }
#else
/* Column by column, each gathered for group_sum. */
static inline __attribute__((always_inline)) void dot16_rows(const fpu_mops_t a[16], const fpu_mops_t *b,
                                                             uint32_t dst[16], fpu_acc_t acc, int32_t zexp) {
    for (unsigned j = 0; j < 16; j++) {
        fpu_mops_t c;
        for (unsigned k = 0; k < 16; k++)
            c.exp[k] = a[k].exp[j], c.man[k] = a[k].man[j], c.sign[k] = a[k].sign[j];
        dst[j] = dot16(&c, b, dst[j], acc, zexp);
    }
}
/* The style and the phase's SrcA half (fpu_a_bits) constants in each loop. */
#define A_ROWS(style, odd)                                                                                             \
    for (unsigned k = 0; k < 16; k++)                                                                                  \
        for (unsigned j = 0; j < 16; j++)                                                                              \
            fpu_mop_a(&am[k], j, fpu_operand(rows[k][j], style), odd);
void fpu_mop_a_rows(fpu_mops_t am[16], const uint32_t *const rows[16], fmt_style_t style, unsigned phase) {
    switch (style * 2 + (phase & 1)) {
    case FMT_STYLE_BF16 * 2: A_ROWS(FMT_STYLE_BF16, 0) break;
    case FMT_STYLE_BF16 * 2 + 1: A_ROWS(FMT_STYLE_BF16, 1) break;
    case FMT_STYLE_FP16 * 2: A_ROWS(FMT_STYLE_FP16, 0) break;
    case FMT_STYLE_FP16 * 2 + 1: A_ROWS(FMT_STYLE_FP16, 1) break;
    default: A_ROWS(style, phase) break;
    }
}
#undef A_ROWS
void fpu_mop_b_row(fpu_mops_t *bm, const uint32_t *row, fmt_style_t style, unsigned phase, int32_t adj) {
    for (unsigned k = 0; k < 16; k++)
        fpu_mop_b(bm, k, fpu_operand(row[k], style), phase, adj);
}
const char *fpu_dot16_form(void) { return "plain"; }
static inline __attribute__((always_inline)) void elwadd_row(const uint32_t a[16], const uint32_t b[16],
                                                             uint32_t out[16], fmt_style_t sa, fmt_style_t sb, bool sub,
                                                             bool flush_b, fpu_acc_t acc, unsigned scale) {
    for (unsigned j = 0; j < 16; j++) {
        uint32_t ao, bo;
        fpu_elw_operands(a[j], b[j], sa, sb, sub, flush_b, &ao, &bo);
        out[j] = fpu_elwadd(ao, bo, 0, acc, scale);
    }
}
const char *fpu_elwadd_form(void) { return "plain"; }
static inline __attribute__((always_inline)) void elwmul_row(const uint32_t a[16], const uint32_t b[16],
                                                             uint32_t dst[16], fmt_style_t sa, fmt_style_t sb,
                                                             bool flush_b, fpu_acc_t acc, unsigned phase) {
    elwmul_row_plain(a, b, dst, sa, sb, flush_b, acc, phase);
}
const char *fpu_elwmul_form(void) { return "plain"; }
#endif

void fpu_elwadd_row(const uint32_t a[16], const uint32_t b[16], uint32_t out[16], fmt_style_t sa, fmt_style_t sb,
                    bool sub, bool flush_b, fpu_acc_t acc, unsigned scale) {
    if (sa == FMT_STYLE_BF16 && sb == FMT_STYLE_BF16 && !acc.fp32 && acc.exp8) /* the samples' case, constants */
        elwadd_row(a, b, out, FMT_STYLE_BF16, FMT_STYLE_BF16, sub, flush_b, (fpu_acc_t){.exp8 = true}, scale);
    else
        elwadd_row(a, b, out, sa, sb, sub, flush_b, acc, scale);
}

void fpu_elwmul_row(const uint32_t a[16], const uint32_t b[16], uint32_t dst[16], fmt_style_t sa, fmt_style_t sb,
                    bool flush_b, fpu_acc_t acc, unsigned phase) {
    if (sa == FMT_STYLE_BF16 && sb == FMT_STYLE_BF16 && !acc.fp32 && acc.exp8 && flush_b) /* the samples', constants */
        elwmul_row(a, b, dst, FMT_STYLE_BF16, FMT_STYLE_BF16, true, (fpu_acc_t){.exp8 = true}, phase);
    else
        elwmul_row(a, b, dst, sa, sb, flush_b, acc, phase);
}

void fpu_dot16_rows(const fpu_mops_t a[16], const fpu_mops_t *b, uint32_t dst[16], fpu_acc_t acc, unsigned phase) {
    int32_t adj = fpu_prod_adj(acc, phase), zexp = adj > 0 ? adj : 0;
    if (acc.fp32) /* the common case, with the accumulator's width a constant */
        dot16_rows(a, b, dst, (fpu_acc_t){.fp32 = true, .exp8 = acc.exp8}, zexp);
    else
        dot16_rows(a, b, dst, acc, zexp);
}

int32_t fpu_dst_int32(uint32_t datum) { return fmt_sm32_to_int32(fmt_dst_decode_fp32(datum)); }
uint32_t fpu_dst_from_int32(int32_t v) { return fmt_dst_encode_fp32(fmt_int32_to_sm32(v)); }
int32_t fpu_sat_add(int32_t a, int32_t b) {
    int64_t r = (int64_t)a + b;
    return r > INT32_MAX ? INT32_MAX : r < -INT32_MAX ? -INT32_MAX : (int32_t)r;
}
