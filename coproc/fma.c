/* coproc/fma.c — Blackhole's FP32 multiply-add (coproc/fma.h).
 *
 * Written from the description in tt-isa-documentation's Miscellaneous/FMA (README and model):
 * how Blackhole's FMA departs from an IEEE754 fused multiply-add. Numbers are kept as integer
 * mantissa m (implicit bit included) and biased exponent e with value m * 2^(e - 150), then 3
 * guard bits are added below both. Where the hardware's datapath is narrower than an exact FMA —
 * the product is cut back to the addend's precision with a sticky bit; an operand aligned right
 * by its whole width becomes 0 rather than sticky; the final normalising shift's sticky bit looks
 * only at the bits (shift | 1) selects — this follows the hardware, as that model does. */
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

static inline double f32_to_double(uint32_t v) {
    float f;
    memcpy(&f, &v, sizeof f);
    return f;
}

/* The common cases, faster: a zero product (a zero or denormal factor) with a normal addend,
 * which the model returns as it is; and normal finite factors whose product is exactly a normal
 * FP32 value, with a normal or zero addend, whose exact sum is a normal FP32 value too. Then no bit is lost anywhere in
 * the model — the product keeps all its bits, an alignment that drops nonzero bits of the smaller operand cannot end in
 * an exact 24-bit sum (that would need cancellation, which needs exponents at most one apart: a shift within the 3
 * guard bits), and rounding has nothing to do — so the result is the exact value, which the host's doubles give (a 24 x
 * 24-bit product is exact in a double; the sum's exactness is checked with TwoSum). Everything else goes to the model.
 * test/unit/test_fma.c checks fma_bh against fma_bh_model on millions of operands. */
uint32_t fma_bh(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t ea = (a >> 23) & 0xFF, eb = (b >> 23) & 0xFF, ec = (c >> 23) & 0xFF;
    bool c_normal = ec - 1u < 254u;
    if (ea < 255 && eb < 255 && (c_normal || ec == 0)) {
        /* A zero or denormal factor makes the product zero: a normal addend comes out as it is. */
        if (!ea || !eb) {
            if (c_normal) return c;
        } else {
            /* A zero or denormal addend reads as zero. */
            double p = f32_to_double(a) * f32_to_double(b), cd = c_normal ? f32_to_double(c) : 0.0;
            float pf = (float)p;
            uint32_t pb;
            memcpy(&pb, &pf, sizeof pb);
            if ((double)pf == p && ((pb >> 23) & 0xFF) - 1u < 254u) {
                double s = p + cd, bb = s - p, err = (p - (s - bb)) + (cd - bb);
                float sf = (float)s;
                if (err == 0 && (double)sf == s) {
                    uint32_t r;
                    memcpy(&r, &sf, sizeof r);
                    if (((r >> 23) & 0xFF) - 1u < 254u) return r;
                }
            }
        }
    }
    return fma_bh_model(a, b, c);
}
