/* coproc/fma.c — Blackhole's FP32 multiply-add (coproc/fma.h).
 *
 * Written from the description in tt-isa-documentation's Miscellaneous/FMA (README and model):
 * how Blackhole's FMA departs from an IEEE754 fused multiply-add. Numbers are kept as integer
 * mantissa m (implicit bit included) and biased exponent e with value m * 2^(e - 150), then 3
 * guard bits are added below both. Where the hardware's datapath is narrower than an exact FMA —
 * the product is cut back to the addend's precision with a sticky bit; an operand aligned right
 * by its whole width becomes 0 rather than sticky; the final normalising shift's sticky bit looks
 * only at the bits (shift | 1) selects — this follows the hardware, as that model does. */
#include <float.h>
#include <stdbool.h>
#include <string.h>

#include "coproc/fma.h"

#define FMA_QNAN 0x7FC00000u
#define FMA_INF  0x7F800000u

/* Shift right by s; a nonzero result remembers lost bits in its lowest bit, a result of zero
 * stays zero (the hardware's alignment shifter). */
static uint64_t align_shift(uint64_t v, int s) {
    if (s >= 64) return 0;
    uint64_t r = v >> s;
    if (r && (r << s) != v) r |= 1;
    return r;
}

uint32_t fma_bh_model(uint32_t a, uint32_t b, uint32_t c) {
    int ea = (a >> 23) & 0xFF, eb = (b >> 23) & 0xFF, ec = (c >> 23) & 0xFF;
    /* Denormals (and zeros) have a zero mantissa: they read as signed zero. */
    uint64_t ma = ea ? (a & 0x7FFFFFu) | 0x800000u : 0;
    uint64_t mb = eb ? (b & 0x7FFFFFu) | 0x800000u : 0;
    uint64_t mc = ec ? (c & 0x7FFFFFu) | 0x800000u : 0;
    uint32_t sp = (a ^ b) & 0x80000000u, sc = c & 0x80000000u;

    /* The product, with 3 guard bits, brought back to the addend's 24 + 3 bits (sticky). */
    uint64_t mp = (ma * mb) << 3;
    int ep = ea + eb - 150 + 23;
    mp = (mp >> 23) | ((mp & 0x7FFFFFu) != 0);
    mc <<= 3;

    bool nan_a = ea == 255 && (a & 0x7FFFFFu), nan_b = eb == 255 && (b & 0x7FFFFFu);
    bool nan_c = ec == 255 && (c & 0x7FFFFFu);
    bool inf_a = ea == 255 && !nan_a, inf_b = eb == 255 && !nan_b, inf_c = ec == 255 && !nan_c;
    if (ea == 255 || eb == 255 || ec == 255 || ep >= 255) {
        if (nan_a || nan_b || nan_c || (inf_a && !mb) || (inf_b && !ma) || (inf_c && (inf_a || inf_b) && sc != sp))
            return FMA_QNAN;
        if (inf_c) return c;
        return sp | FMA_INF; /* the product is infinite, or overflows on its own */
    }
    /* A zero product, or one that underflows on its own, leaves the addend as it is (a
     * denormal addend reads as zero, and zero plus zero takes the sign both share). */
    if (!mp || ep < 0) return mc ? c : (sc & sp);

    int er = ep > ec ? ep : ec;
    mp = align_shift(mp, er - ep);
    mc = align_shift(mc, er - ec);
    uint32_t sr = mp >= mc ? sp : sc;
    uint32_t mr = (uint32_t)(sp == sc ? mp + mc : (mp >= mc ? mp - mc : mc - mp));
    if (!mr) return sc & sp;

    /* Normalise to a leading one at bit 26 (3 guard bits below 23 mantissa bits). */
    int n = 5 - __builtin_clz(mr);
    er += n;
    if (er >= 255) return sr | FMA_INF;
    if (er <= 0) { /* the denormal range: one more bit, then flushed below */
        n += 1;
        er = 0;
    }
    if (n <= 0)
        mr <<= -n;
    else
        mr = (mr >> n) | ((mr & (uint32_t)(n | 1)) != 0);

    uint32_t r = ((uint32_t)er << 23) + ((mr >> 3) & 0x7FFFFFu);
    uint32_t grs = mr & 7;
    if (grs > 4 || (grs == 4 && (r & 1))) r++; /* to nearest, ties to even */
    if (!(r >> 23)) r = 0;                     /* denormal results flush to signed zero */
    return sr | r;
}

/* The shortcuts below compute with the host's float and double arithmetic, which must round each
 * operation once, to its own type (C's FLT_EVAL_METHOD 0: SSE on x86-64, AArch64). Elsewhere
 * (x87) they are off and every operation goes through the model. */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define FMA_HOST_EXACT 1
#else
#define FMA_HOST_EXACT 0
#endif

/* A rule shared by fma_bh and fma_bh_lanes: always inlined, so each is the same code. */
#define FMA_RULE static inline __attribute__((always_inline))

FMA_RULE float f32_of(uint32_t v) {
    float f;
    memcpy(&f, &v, sizeof f);
    return f;
}
FMA_RULE uint32_t bits_of(float f) {
    uint32_t v;
    memcpy(&v, &f, sizeof v);
    return v;
}
/* An 8-bit exponent field neither 0 nor 255 (in a form SSE2 compares directly). */
FMA_RULE uint32_t is_normal(uint32_t e) { return ((e + 1) & 0xFE) != 0; }

/* The model's result is the IEEE single-precision fused multiply-add (the exact a * b + c rounded
 * once to nearest even) also where the product is inexact, for normal factors and a normal addend
 * under the conditions below, each with the reason it is needed. The model cuts the product
 * (24 x 24 bits, 3 guard bits added) to 27 or 28 bits, its lowest ORed with the bits cut (a sticky
 * bit), aligns the operand of the smaller exponent with a sticky bit too, adds, normalises and
 * rounds the 3 bits below the mantissa. Call an integer in that frame faithful when, if odd, the
 * exact value lies strictly between its two even neighbours, and if even, is the exact value: a
 * faithful value rounds as the exact one does (no rounding point, an even number, lies strictly
 * between two even neighbours), and shifting one right with a sticky bit keeps it faithful. The
 * product as cut is faithful, and so is it aligned right (a product shifted out entirely becomes
 * 0, not sticky: it is below 1/8 of c's ulp, which rounding to nearest drops as well).
 *  - The product's exponent ep = ea + eb - 127 (the model's) in 1..254: below it the model returns
 *    c, above it Inf (0 would do; it is left to the model). er = max(ep, ec) >= 2, so that a sum
 *    normalised one place left is still normal before rounding (er = 1 is left to the model).
 *  - The addend aligned to the product (ep - ec places right of its 3 guard bits) loses no bit
 *    and its lowest bit is 0: ep - ec <= 2 + the trailing zeros of c's 24-bit mantissa. Then the
 *    sum or difference of a faithful product and an even exact addend is faithful (two sticky
 *    bits could carry into bit 1).
 *  - |a * b + c| >= 2^(er - 128), i.e. the sum in the frame >= 2^25: the normalisation is right by
 *    n <= 2 (a sum below 2^29), whose mask n | 1 takes every bit lost, or left by one place (a
 *    faithful odd v becomes 2v, the exact value strictly between 2v - 2 and 2v + 2, an interval of
 *    4 holding no rounding point); left by two could make a sticky bit a tie. s, the sum rounded
 *    to double, is above that power of two only if the exact sum is at least it.
 *  - s converts to the same float as the exact sum: s is exact (TwoSum's remainder err is 0), or
 *    is not a float's midpoint (a midpoint is a double, so the exact sum cannot lie past one that
 *    s, the double nearest to it, does not sit on).
 * With a normal result, that is fma_exact's float of s. test_fma.c's test_wide_vs_model draws
 * operands at the edge of each condition (each one loosened fails it). */
FMA_RULE bool inexact_ok(uint32_t ea, uint32_t eb, uint32_t ec, uint32_t c, double s, double err) {
    int ep = (int)(ea + eb) - 127, er = ep > (int)ec ? ep : (int)ec;
    uint64_t sb;
    memcpy(&sb, &s, sizeof sb);
    uint64_t mag = sb & 0x7FFFFFFFFFFFFFFFull, floor = (uint64_t)(er - 128 + 1023) << 52;
    return ep >= 1 && ep <= 254 && er >= 2 && ep - (int)ec <= 2 + __builtin_ctz(c | 0x800000u) && mag > floor &&
           (err == 0 || (sb & 0x1FFFFFFFu) != 0x10000000u);
}

/* The model's result where it is exact, a product alone, or an inexact product with a normal
 * addend under inexact_ok's conditions, faster: *ok = 0 where this rule does
 * not know it.
 *
 * A zero or denormal factor makes the product zero, and a normal addend then comes out as it is.
 * Normal finite factors whose product is exactly a normal FP32 value, with a normal or zero addend,
 * whose exact sum is a normal FP32 value too: then no bit is lost anywhere in the model — the
 * product keeps all its bits, an alignment that drops nonzero bits of the smaller operand cannot
 * end in an exact 24-bit sum (that would need cancellation, which needs exponents at most one
 * apart: a shift within the 3 guard bits), and rounding has nothing to do — so the result is the
 * exact value, which the host's doubles give (a 24 x 24-bit product is exact in a double; the
 * sum's exactness is checked with TwoSum).
 *
 * Normal factors with a zero or denormal addend (SFPMUL's c is LReg[9] = 0) whose product,
 * rounded to FP32, is normal: the model's product keeps 3 guard bits and a sticky bit, adding zero
 * shifts nothing, normalising moves it at most one place right with its sticky mask (n | 1 = 1)
 * taking exactly the bit lost, and it rounds once to nearest even: IEEE's multiply, which the
 * exact double product rounded once to float gives, exact or not. test_fma.c checks this against
 * the model on millions of products. */
FMA_RULE uint32_t fma_exact(uint32_t a, uint32_t b, uint32_t c, uint32_t *ok) {
    uint32_t ea = (a >> 23) & 0xFF, eb = (b >> 23) & 0xFF, ec = (c >> 23) & 0xFF;
    bool c_normal = is_normal(ec);
    *ok = 0;
    if (!FMA_HOST_EXACT || ea == 255 || eb == 255 || !(c_normal || ec == 0)) return 0;
    if (!ea || !eb) {
        *ok = c_normal;
        return c;
    }
    /* A zero or denormal addend reads as zero. */
    double p = (double)f32_of(a) * (double)f32_of(b), cd = c_normal ? (double)f32_of(c) : 0.0;
    float pf = (float)p;
    uint32_t pb = bits_of(pf);
    if (!c_normal) { /* the product alone, rounded once */
        *ok = is_normal((pb >> 23) & 0xFF);
        return pb;
    }
    double s = p + cd, bb = s - p, err = (p - (s - bb)) + (cd - bb);
    float sf = (float)s;
    uint32_t r = bits_of(sf);
    /* An exact sum of a product exact in FP32 (above), else the rule for an inexact one. */
    *ok = is_normal((r >> 23) & 0xFF) &&
          ((err == 0 && (double)sf == s && (double)pf == p && is_normal((pb >> 23) & 0xFF)) ||
           inexact_ok(ea, eb, ec, c, s, err));
    return r;
}

/* The rule for b = 1.0 (SFPADD, SFPADDI), in single precision and without branches, so that the
 * compiler can do four lanes in one instruction. For a normal a and a normal or zero c whose sum
 * is a normal number, Blackhole's result is the IEEE single-precision sum rounded to nearest even,
 * which the host's float add gives, exact or not: the product a * 1.0 is a itself, unrounded; the
 * smaller operand is aligned keeping 3 guard bits and a sticky bit, and one shifted out entirely
 * (27 places or more) is below a quarter of an ulp of the other, which IEEE rounding also
 * returns unchanged; after the add the normalising shift is one place right (its sticky mask,
 * n | 1 = 1, takes exactly the bit lost) or, for a cancellation, left by one place with guard,
 * round and sticky bits enough, or more places only when the exponents are at most one apart and
 * the difference is exact; then one rounding to nearest even, as IEEE's. A zero or denormal a
 * (a zero product) with a normal c: the model returns c, and so does the host's +0 + c. Where the
 * sum is zero, denormal or infinite (flushes, signs, overflow) or an operand is infinite or NaN,
 * the model decides. test_fma.c checks this against the model on millions of sums: every exponent
 * difference, near cancellation, constructed ties. A zero or denormal operand is replaced by +0
 * before the add (the host may add denormals slowly, and the model reads them as zero).
 *
 * The exponent tests as one signed compare each, which SSE2's pcmpgtd gives: with E the exponent
 * field, (v & E) + 2^23 is 2^23 for a zero exponent, negative (2^31) for 255, and above 2^23 for
 * every normal one. fma_add_scalar_a is the same rule with a's part worked out once. */
#define FMA_EXP      0x7F800000u
#define FMA_EXP_STEP 0x00800000u
FMA_RULE uint32_t exp_key(uint32_t v) { return (v & FMA_EXP) + FMA_EXP_STEP; }
FMA_RULE uint32_t normal_mask(uint32_t key) { return -(uint32_t)((int32_t)key > (int32_t)FMA_EXP_STEP); }
FMA_RULE uint32_t finite_mask(uint32_t key) { return -(uint32_t)((int32_t)key >= 0); }

FMA_RULE uint32_t fma_add_lane(float fa, uint32_t c, uint32_t *ok) {
    uint32_t kc = exp_key(c);
    uint32_t r = bits_of(fa + f32_of(c & normal_mask(kc)));
    *ok = FMA_HOST_EXACT & finite_mask(kc) & normal_mask(exp_key(r)) & 1;
    return r;
}
FMA_RULE uint32_t fma_add_rule(uint32_t a, uint32_t c, uint32_t *ok) {
    uint32_t ka = exp_key(a), r = fma_add_lane(f32_of(a & normal_mask(ka)), c, ok);
    *ok &= finite_mask(ka);
    return r;
}

#define FMA_ONE 0x3F800000u

/* The shortcuts' result, *ok = 0 where they do not know it. */
FMA_RULE uint32_t fma_shortcut(uint32_t a, uint32_t b, uint32_t c, uint32_t *ok) {
    return b == FMA_ONE ? fma_add_rule(a, c, ok) : fma_exact(a, b, c, ok);
}

/* The common cases through the rules above, everything else through the model.
 * test/unit/test_fma.c checks fma_bh against fma_bh_model on millions of operands. */
uint32_t fma_bh(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t ok, r = fma_shortcut(a, b, c, &ok);
    return ok ? r : fma_bh_model(a, b, c);
}

bool fma_bh_known(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t ok;
    (void)fma_shortcut(a, b, c, &ok);
    return ok;
}

/* The lanes the rules above do not know, through the model. */
static void lanes_model(const uint32_t *a, const uint32_t *b, uint32_t bv, const uint32_t *c, uint32_t *d,
                        const uint32_t *ok) {
    for (unsigned l = 0; l < FMA_LANES; l++)
        if (!ok[l]) d[l] = fma_bh_model(a[l], b ? b[l] : bv, c[l]);
}

/* fma_bh_lanes where every b is 1.0: fma_add_rule four lanes at a time. */
static inline void add_lanes(const uint32_t *restrict a, const uint32_t *restrict c, uint32_t *restrict d,
                             uint32_t *restrict ok) {
    uint32_t all_ok = 1;
    for (unsigned l = 0; l < FMA_LANES; l++) {
        d[l] = fma_add_rule(a[l], c[l], &ok[l]);
        all_ok &= ok[l];
    }
    if (!all_ok) lanes_model(a, NULL, FMA_ONE, c, d, ok);
}

#if defined(__SSE2__) && !defined(TTEMU_NO_SIMD) && FMA_HOST_EXACT
/* fma_exact's rule on four lanes whose a and b are normal and c normal or of exponent 0 (read as
 * zero: the product alone, rounded once, in those lanes), in SSE2 doubles: the same
 * operations, each rounded once to its own type as the scalar ones are (cvtpd2ps rounds as C's
 * (float) does, under the same rounding mode), and inexact_ok's conditions as lane masks. The
 * trailing zeros of c's 24-bit mantissa come from its lowest set bit (m & -m, a power of two up to
 * 2^23) converted to float, whose exponent is its position. inexact_ok compares s's magnitude with
 * 2^(er - 128) as 64-bit patterns; both are finite non-negative doubles here, whose patterns order
 * as their values, so the doubles' own compare gives the same answer. Lane masks (all ones where
 * known) go to ok; *d gets the float of s. test_fma.c's check_lanes compares fma_bh_lanes with
 * the model and with fma_bh (fma_exact) on test_wide_vs_model's and test_mul_vs_model's draws,
 * all-normal lanes at the edges of each condition. */
#include <emmintrin.h>
_Static_assert(FMA_LANES % 4 == 0, "exact4 takes the lanes four at a time");
static inline __m128i ok_of_pd(__m128d lo, __m128d hi) {
    return _mm_castps_si128(_mm_shuffle_ps(_mm_castpd_ps(lo), _mm_castpd_ps(hi), _MM_SHUFFLE(2, 0, 2, 0)));
}
static inline __m128i normal4(__m128i v) {
    __m128i key = _mm_add_epi32(_mm_and_si128(v, _mm_set1_epi32((int)FMA_EXP)), _mm_set1_epi32(FMA_EXP_STEP));
    return _mm_cmpgt_epi32(key, _mm_set1_epi32(FMA_EXP_STEP));
}
static inline __m128i exact4(__m128i va, __m128i vb, __m128i vc, __m128i c_normal, uint32_t *d) {
    __m128 fa = _mm_castsi128_ps(va), fb = _mm_castsi128_ps(vb), fc = _mm_castsi128_ps(_mm_and_si128(vc, c_normal));
    __m128d p_lo = _mm_mul_pd(_mm_cvtps_pd(fa), _mm_cvtps_pd(fb));
    __m128d p_hi = _mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(fa, fa)), _mm_cvtps_pd(_mm_movehl_ps(fb, fb)));
    __m128d c_lo = _mm_cvtps_pd(fc), c_hi = _mm_cvtps_pd(_mm_movehl_ps(fc, fc));
    __m128d s_lo = _mm_add_pd(p_lo, c_lo), s_hi = _mm_add_pd(p_hi, c_hi);
    __m128d bb_lo = _mm_sub_pd(s_lo, p_lo), bb_hi = _mm_sub_pd(s_hi, p_hi);
    __m128d err_lo = _mm_add_pd(_mm_sub_pd(p_lo, _mm_sub_pd(s_lo, bb_lo)), _mm_sub_pd(c_lo, bb_lo));
    __m128d err_hi = _mm_add_pd(_mm_sub_pd(p_hi, _mm_sub_pd(s_hi, bb_hi)), _mm_sub_pd(c_hi, bb_hi));
    __m128 sf = _mm_movelh_ps(_mm_cvtpd_ps(s_lo), _mm_cvtpd_ps(s_hi));
    __m128 pf = _mm_movelh_ps(_mm_cvtpd_ps(p_lo), _mm_cvtpd_ps(p_hi));
    __m128i r = _mm_castps_si128(sf), pb = _mm_castps_si128(pf);
    _mm_storeu_si128((__m128i *)d, _mm_or_si128(_mm_and_si128(c_normal, r), _mm_andnot_si128(c_normal, pb)));

    __m128d zero = _mm_setzero_pd();
    __m128i err0 = ok_of_pd(_mm_cmpeq_pd(err_lo, zero), _mm_cmpeq_pd(err_hi, zero));
    __m128i s_eq =
        ok_of_pd(_mm_cmpeq_pd(_mm_cvtps_pd(sf), s_lo), _mm_cmpeq_pd(_mm_cvtps_pd(_mm_movehl_ps(sf, sf)), s_hi));
    __m128i p_eq =
        ok_of_pd(_mm_cmpeq_pd(_mm_cvtps_pd(pf), p_lo), _mm_cmpeq_pd(_mm_cvtps_pd(_mm_movehl_ps(pf, pf)), p_hi));
    __m128i exact = _mm_and_si128(_mm_and_si128(err0, s_eq), _mm_and_si128(p_eq, normal4(pb)));

    /* inexact_ok: ep = ea + eb - 127 in 1..254, er = max(ep, ec) >= 2, ep - ec <= 2 + ctz. */
    __m128i m8 = _mm_set1_epi32(0xFF);
    __m128i ea = _mm_and_si128(_mm_srli_epi32(va, 23), m8), eb = _mm_and_si128(_mm_srli_epi32(vb, 23), m8);
    __m128i ec = _mm_and_si128(_mm_srli_epi32(vc, 23), m8);
    __m128i ep = _mm_sub_epi32(_mm_add_epi32(ea, eb), _mm_set1_epi32(127));
    __m128i ep_gt = _mm_cmpgt_epi32(ep, ec);
    __m128i er = _mm_or_si128(_mm_and_si128(ep_gt, ep), _mm_andnot_si128(ep_gt, ec));
    __m128i mant = _mm_or_si128(_mm_and_si128(vc, _mm_set1_epi32(0x7FFFFF)), _mm_set1_epi32(0x800000));
    __m128i low = _mm_and_si128(mant, _mm_sub_epi32(_mm_setzero_si128(), mant));
    __m128i ctz = _mm_sub_epi32(_mm_srli_epi32(_mm_castps_si128(_mm_cvtepi32_ps(low)), 23), _mm_set1_epi32(127));
    __m128i cond = _mm_and_si128(_mm_cmpgt_epi32(ep, _mm_setzero_si128()), _mm_cmpgt_epi32(_mm_set1_epi32(255), ep));
    cond = _mm_and_si128(cond, _mm_cmpgt_epi32(er, _mm_set1_epi32(1)));
    cond = _mm_and_si128(cond, _mm_cmpgt_epi32(_mm_add_epi32(ctz, _mm_set1_epi32(3)), _mm_sub_epi32(ep, ec)));
    /* |s| > 2^(er - 128): er + 895 (positive: er >= ec >= 1) as a double's exponent field. */
    __m128i fe = _mm_add_epi32(er, _mm_set1_epi32(1023 - 128));
    __m128d floor_lo = _mm_castsi128_pd(_mm_slli_epi64(_mm_unpacklo_epi32(fe, _mm_setzero_si128()), 52));
    __m128d floor_hi = _mm_castsi128_pd(_mm_slli_epi64(_mm_unpackhi_epi32(fe, _mm_setzero_si128()), 52));
    __m128d sign = _mm_set1_pd(-0.0);
    cond = _mm_and_si128(cond, ok_of_pd(_mm_cmpgt_pd(_mm_andnot_pd(sign, s_lo), floor_lo),
                                        _mm_cmpgt_pd(_mm_andnot_pd(sign, s_hi), floor_hi)));
    /* Not a float's midpoint unless exact: s's low 29 bits (in its low 32) are not 0x10000000. */
    __m128i s_low = ok_of_pd(s_lo, s_hi);
    __m128i mid = _mm_cmpeq_epi32(_mm_and_si128(s_low, _mm_set1_epi32(0x1FFFFFFF)), _mm_set1_epi32(0x10000000));
    cond = _mm_and_si128(cond, _mm_or_si128(err0, _mm_xor_si128(mid, _mm_set1_epi32(-1))));
    __m128i ok = _mm_and_si128(normal4(r), _mm_or_si128(exact, cond));
    return _mm_or_si128(_mm_and_si128(c_normal, ok), _mm_andnot_si128(c_normal, normal4(pb)));
}
#endif

/* fma_bh_lanes's general rule (b not 1.0 in every lane) on the 32 lanes: d[l] where ok[l] is not
 * zero; 0 when some lane is not known. */
FMA_RULE uint32_t general_lanes(const uint32_t *restrict a, const uint32_t *restrict b, const uint32_t *restrict c,
                                uint32_t *restrict d, uint32_t *restrict ok) {
    uint32_t all_ok = 1;
    /* Four lanes at a time (on an SSE2 host: exact4 where its conditions hold in all four), else
     * fma_exact lane by lane. */
    for (unsigned l = 0; l < FMA_LANES; l += 4) {
#if defined(__SSE2__) && !defined(TTEMU_NO_SIMD) && FMA_HOST_EXACT
        __m128i va = _mm_loadu_si128((const __m128i *)(a + l)), vb = _mm_loadu_si128((const __m128i *)(b + l));
        __m128i vc = _mm_loadu_si128((const __m128i *)(c + l));
        __m128i c_normal = normal4(vc);
        __m128i c_zero = _mm_cmpeq_epi32(_mm_and_si128(vc, _mm_set1_epi32((int)FMA_EXP)), _mm_setzero_si128());
        __m128i known = _mm_and_si128(_mm_and_si128(normal4(va), normal4(vb)), _mm_or_si128(c_normal, c_zero));
        if (_mm_movemask_epi8(known) == 0xFFFF) {
            __m128i k = exact4(va, vb, vc, c_normal, d + l);
            _mm_storeu_si128((__m128i *)(ok + l), k);
            all_ok &= _mm_movemask_epi8(k) == 0xFFFF;
            continue;
        }
#endif
        for (unsigned j = l; j < l + 4; j++) {
            d[j] = fma_exact(a[j], b[j], c[j], &ok[j]);
            all_ok &= ok[j];
        }
    }
    return all_ok;
}

void fma_bh_lanes(const uint32_t *restrict a, const uint32_t *restrict b, const uint32_t *restrict c,
                  uint32_t *restrict d) {
    uint32_t ok[FMA_LANES], ones = 0;
    for (unsigned l = 0; l < FMA_LANES; l++)
        ones |= b[l] ^ FMA_ONE;
    if (!ones) return add_lanes(a, c, d, ok);
    if (!general_lanes(a, b, c, d, ok)) lanes_model(a, b, 0, c, d, ok);
}

unsigned fma_bh_lanes_known(const uint32_t *a, const uint32_t *b, const uint32_t *c) {
    uint32_t ok[FMA_LANES], d[FMA_LANES];
    unsigned n = 0;
    (void)general_lanes(a, b, c, d, ok);
    for (unsigned l = 0; l < FMA_LANES; l++)
        n += ok[l] != 0;
    return n;
}

#if defined(__SSE2__) && !defined(TTEMU_NO_SIMD) && FMA_HOST_EXACT
const char *fma_lanes_form(void) { return "sse2"; }
#else
const char *fma_lanes_form(void) { return "plain"; }
#endif

/* fma_bh_lanes_add_k in place: v[l] = fma_bh(a, 1.0, v[l] ^ c_sign). On an SSE2 host sixteen lanes
 * at a time, fma_add_lane's rule in four vectors of four, their sums kept in the host's registers
 * and written over their inputs once all sixteen are known (gcc makes of the C loop one that
 * stores the sums on the stack, to copy them afterwards); where one is not, the sixteen go lane by
 * lane, each from its own input, still there. */
#if defined(__SSE2__) && !defined(TTEMU_NO_SIMD) && FMA_HOST_EXACT
/* fma_add_lane's rule on four lanes with c's finite test taken from the sum: c of exponent 0 is
 * read as +0 as there, but an Inf or NaN c is added as it is, and a finite fa plus Inf or NaN is
 * Inf or NaN, which the sum's normal test refuses as the rule's finite test of c would have. */
static inline __m128i add_lanes4(__m128 fa, __m128i c, __m128i *ok) {
    const __m128i e = _mm_set1_epi32((int)FMA_EXP), step = _mm_set1_epi32(FMA_EXP_STEP);
    __m128 cn = _mm_castsi128_ps(_mm_andnot_si128(_mm_cmpeq_epi32(_mm_and_si128(c, e), _mm_setzero_si128()), c));
    __m128i r = _mm_castps_si128(_mm_add_ps(fa, cn));
    *ok = _mm_cmpgt_epi32(_mm_add_epi32(_mm_and_si128(r, e), step), step); /* normal_mask(exp_key(r)) */
    return r;
}
#endif
static __attribute__((noinline)) void add_k_lane_by_lane(float fa, uint32_t a, uint32_t *v, unsigned n,
                                                         uint32_t c_sign) {
    for (unsigned l = 0; l < n; l++) {
        uint32_t ok, r = fma_add_lane(fa, v[l] ^ c_sign, &ok);
        v[l] = ok ? r : fma_bh_model(a, FMA_ONE, v[l] ^ c_sign);
    }
}
#if defined(__SSE2__) && !defined(TTEMU_NO_SIMD) && FMA_HOST_EXACT
/* A group of sixteen lanes at v: true where all their sums are known, which are then written;
 * else v is left as it was. c's sign flipped (xor) only where c_sign is not 0: a constant where
 * add_k_in_groups is inlined (a form for each), a value in add_k_in_slow. */
static inline __attribute__((always_inline)) bool add_k_group(__m128 fa4, uint32_t *v, uint32_t c_sign) {
    const __m128i sg = _mm_set1_epi32((int)c_sign);
    __m128i *p = (__m128i *)v, ok0, ok1, ok2, ok3;
#define ADD_K_C(i) (c_sign ? _mm_xor_si128(_mm_loadu_si128(p + (i)), sg) : _mm_loadu_si128(p + (i)))
    __m128i r0 = add_lanes4(fa4, ADD_K_C(0), &ok0), r1 = add_lanes4(fa4, ADD_K_C(1), &ok1);
    __m128i r2 = add_lanes4(fa4, ADD_K_C(2), &ok2), r3 = add_lanes4(fa4, ADD_K_C(3), &ok3);
#undef ADD_K_C
    __m128i ok = _mm_and_si128(_mm_and_si128(ok0, ok1), _mm_and_si128(ok2, ok3));
    if (_mm_movemask_ps(_mm_castsi128_ps(ok)) != 0xF) return false;
    _mm_storeu_si128(p, r0), _mm_storeu_si128(p + 1, r1);
    _mm_storeu_si128(p + 2, r2), _mm_storeu_si128(p + 3, r3);
    return true;
}
/* The first group not known: it lane by lane, then the second. */
static __attribute__((noinline)) void add_k_in_slow(float fa, uint32_t a, uint32_t *v, uint32_t c_sign) {
    _Static_assert(FMA_LANES == 32, "two groups of sixteen lanes");
    add_k_lane_by_lane(fa, a, v, 16, c_sign);
    if (!add_k_group(_mm_set1_ps(fa), v + 16, c_sign)) add_k_lane_by_lane(fa, a, v + 16, 16, c_sign);
}
/* The two groups; where one is not known, the rest goes by a call in tail position (add_k_in_slow,
 * add_k_lane_by_lane), so that the common path keeps nothing across a call and has no frame. */
static inline __attribute__((always_inline)) void add_k_in_groups(float fa, uint32_t a, uint32_t *v, uint32_t c_sign) {
    const __m128 fa4 = _mm_set1_ps(fa);
    if (!add_k_group(fa4, v, c_sign)) return add_k_in_slow(fa, a, v, c_sign);
    if (!add_k_group(fa4, v + 16, c_sign)) return add_k_lane_by_lane(fa, a, v + 16, 16, c_sign);
}
#endif
static __attribute__((noinline)) void add_k_in_model(uint32_t a, uint32_t *v, uint32_t c_sign) {
    for (unsigned l = 0; l < FMA_LANES; l++)
        v[l] = fma_bh_model(a, FMA_ONE, v[l] ^ c_sign);
}
bool fma_add_k_of(uint32_t a, float *fa) {
    *fa = f32_of(a & normal_mask(exp_key(a)));
    return finite_mask(exp_key(a)) != 0;
}
void fma_bh_lanes_add_fk_in(uint32_t a, float fa, uint32_t *v, uint32_t c_sign) {
#if defined(__SSE2__) && !defined(TTEMU_NO_SIMD) && FMA_HOST_EXACT
    if (c_sign)
        add_k_in_groups(fa, a, v, c_sign);
    else
        add_k_in_groups(fa, a, v, 0);
#else
    add_k_lane_by_lane(fa, a, v, FMA_LANES, c_sign);
#endif
}
void fma_bh_lanes_add_k_in(uint32_t a, uint32_t *v, uint32_t c_sign) {
    float fa;
    if (!fma_add_k_of(a, &fa)) return add_k_in_model(a, v, c_sign);
    fma_bh_lanes_add_fk_in(a, fa, v, c_sign);
}

/* The lanes' verdicts are only AND'ed on the way (no array of them to store): where one lane is not
 * known, the rare case, the rule runs again lane by lane to find which. */
void fma_bh_lanes_add_k(uint32_t a, const uint32_t *restrict c, uint32_t c_sign, uint32_t *restrict d) {
    uint32_t all_ok = 1;
    float fa = f32_of(a & normal_mask(exp_key(a)));
    if (!finite_mask(exp_key(a))) {
        for (unsigned l = 0; l < FMA_LANES; l++)
            d[l] = fma_bh_model(a, FMA_ONE, c[l] ^ c_sign);
        return;
    }
    for (unsigned l = 0; l < FMA_LANES; l++) {
        uint32_t ok;
        d[l] = fma_add_lane(fa, c[l] ^ c_sign, &ok);
        all_ok &= ok;
    }
    if (all_ok) return;
    for (unsigned l = 0; l < FMA_LANES; l++) {
        uint32_t ok;
        fma_add_lane(fa, c[l] ^ c_sign, &ok);
        if (!ok) d[l] = fma_bh_model(a, FMA_ONE, c[l] ^ c_sign);
    }
}
