/* test/unit/test_fma.c — Blackhole's FP32 multiply-add (coproc/fma.c) on vectors whose results
 * are derived by hand from SFPMAD.md's rules and the FMA model's description (denormals in read as
 * zero; one rounding to nearest even; denormals out flushed to signed zero; canonical NaN; a
 * product overflowing or underflowing on its own), and on random additions against the host's
 * IEEE single-precision add where no denormal or overflow is involved (x * 1.0 + c is exactly an
 * IEEE add then). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "coproc/fma.h"

#define ONE 0x3F800000u

static void test_exact(void **state) {
    (void)state;
    assert_int_equal(fma_bh(ONE, ONE, ONE), 0x40000000u);                 /* 1 * 1 + 1 = 2 */
    assert_int_equal(fma_bh(0x3FC00000u, 0x40000000u, 0), 0x40400000u);   /* 1.5 * 2 + 0 = 3 */
    assert_int_equal(fma_bh(0x40400000u, ONE, 0xC0400000u), 0x00000000u); /* 3 - 3 = +0 */
    assert_int_equal(fma_bh(0x80000000u, ONE, 0x80000000u), 0x80000000u); /* -0 + -0 = -0 */
    assert_int_equal(fma_bh(0x80000000u, ONE, 0x00000000u), 0x00000000u); /* -0 + +0 = +0 */
    assert_int_equal(fma_bh(0xBF800000u, ONE, ONE), 0x00000000u);         /* -1 + 1 = +0 */
}

static void test_rounding(void **state) {
    (void)state;
    /* 1 + 2^-24 is halfway between 1 and 1 + 2^-23: ties to even keeps 1. */
    assert_int_equal(fma_bh(0x33800000u, ONE, ONE), ONE);
    /* (1 + 2^-23) + 2^-24 is halfway: the even neighbour is 1 + 2^-22. */
    assert_int_equal(fma_bh(0x33800000u, ONE, 0x3F800001u), 0x3F800002u);
    /* 1 + 3 * 2^-25 is above halfway: rounds up to 1 + 2^-23. */
    assert_int_equal(fma_bh(0x33C00000u, ONE, ONE), 0x3F800001u);
    /* The largest finite plus half an ulp rounds (to even) up to infinity. */
    assert_int_equal(fma_bh(0x73000000u, ONE, 0x7F7FFFFFu), 0x7F800000u);
}

static void test_denormals(void **state) {
    (void)state;
    assert_int_equal(fma_bh(0x00000001u, ONE, ONE), ONE);               /* a denormal reads as zero */
    assert_int_equal(fma_bh(ONE, ONE, 0x007FFFFFu), ONE);               /* ... as addend too */
    assert_int_equal(fma_bh(0x00800000u, 0x3F000000u, 0), 0x00000000u); /* 2^-127 flushes to +0 */
    assert_int_equal(fma_bh(0x80800000u, 0x3F000000u, 0), 0x80000000u); /* ... signed */
    /* -2^-100 * 2^-100 underflows on its own: as if exactly -0, and -0 + +0 = +0. */
    assert_int_equal(fma_bh(0x8D800000u, 0x0D800000u, 0), 0x00000000u);
}

static void test_specials(void **state) {
    (void)state;
    assert_int_equal(fma_bh(0x7F800000u, 0, ONE), 0x7FC00000u);           /* inf * 0 */
    assert_int_equal(fma_bh(0x7F800000u, 0x00000001u, ONE), 0x7FC00000u); /* inf * denormal (= 0) */
    assert_int_equal(fma_bh(0x7F800001u, ONE, ONE), 0x7FC00000u);         /* NaN in */
    assert_int_equal(fma_bh(ONE, ONE, 0xFFC12345u), 0x7FC00000u);         /* NaN addend, canonical out */
    assert_int_equal(fma_bh(0x7F800000u, ONE, 0xFF800000u), 0x7FC00000u); /* inf - inf */
    assert_int_equal(fma_bh(0x7F800000u, ONE, ONE), 0x7F800000u);         /* inf + 1 */
    assert_int_equal(fma_bh(ONE, ONE, 0xFF800000u), 0xFF800000u);         /* 1 - inf */
    assert_int_equal(fma_bh(0x7F7FFFFFu, 0x40000000u, 0), 0x7F800000u);   /* overflow */
    /* max * 2 overflows on its own, so - max cannot bring it back (a fused IEEE FMA gives max). */
    assert_int_equal(fma_bh(0x7F7FFFFFu, 0x40000000u, 0xFF7FFFFFu), 0x7F800000u);
}

/* Random normal a + c (b = 1.0) against the host's IEEE add; both are round-to-nearest-even with
 * one rounding when no denormal, infinity or NaN is involved. */
static uint32_t f2u(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float u2f(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}
/* The tests' random bits: one xorshift64 step. */
static void xorshift(uint64_t *s) { *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17; }
static void test_adds_vs_ieee(void **state) {
    (void)state;
    uint64_t s = 0x9E3779B97F4A7C15ull;
    unsigned checked = 0;
    for (unsigned i = 0; i < 2000000; i++) {
        xorshift(&s);
        uint32_t a = (uint32_t)s, c = (uint32_t)(s >> 32);
        /* Keep exponents near each other so the add is interesting, and away from the edges. */
        a = (a & 0x807FFFFFu) | ((100u + (a >> 24) % 50) << 23);
        c = (c & 0x807FFFFFu) | ((100u + (c >> 24) % 50) << 23);
        uint32_t want = f2u(u2f(a) + u2f(c));
        if (((want >> 23) & 0xFF) == 0) want &= 0x80000000u; /* the hardware flushes denormal sums */
        assert_int_equal(fma_bh(a, ONE, c), want);
        checked++;
    }
    assert_int_equal(checked, 2000000);
}

/* fma_bh's shortcut for exact results against the model itself, on operand mixes that reach it
 * and its edges: bf16-like values (as kernels load them), b = 1.0 (SFPADDI), near cancellation
 * (c close to -a*b), and random bit patterns (denormals, NaN, infinities, overflow). */
static void test_shortcut_vs_model(void **state) {
    (void)state;
    uint64_t s = 0xD1B54A32D192ED03ull;
    for (unsigned i = 0; i < 6000000; i++) {
        xorshift(&s);
        uint32_t a = (uint32_t)s, b = (uint32_t)(s >> 32), c = (uint32_t)(s * 0x9E3779B97F4A7C15ull >> 17);
        switch (i % 6) {
        case 0: a &= 0xFFFF0000u, b = ONE, c &= 0xFFFF0000u; break;          /* bf16 + bf16 */
        case 1: a &= 0xFFFF0000u, b &= 0xFFFF0000u, c &= 0xFFFF0000u; break; /* bf16 triples */
        case 2: c = f2u(-(u2f(a) * u2f(b))) ^ (c & 7); break;                /* cancellation */
        case 3: a = (a & 0x83FFFFFFu) | 0x3C000000u, c = (c & 0x83FFFFFFu) | 0x3C000000u, b = ONE; break;
        case 4: /* zero or denormal operands */
            if (s & 1)
                a &= 0x807FFFFFu;
            else
                c &= 0x807FFFFFu;
            break;
        default: break; /* any bits */
        }
        uint32_t got = fma_bh(a, b, c), want = fma_bh_model(a, b, c);
        if (got != want) fail_msg("fma_bh(0x%08x, 0x%08x, 0x%08x) = 0x%08x, model 0x%08x", a, b, c, got, want);
    }
}

/* fma_bh_lanes (32 lanes at once: SFPMAD, SFPADDI, ...) against the model lane by lane: b = 1.0
 * in every lane (its single-precision shortcut), b = 1.0 but for one lane, and any b; operands from
 * edge values (zeros, denormals, infinities, NaNs, one and its neighbours, ties) and random bits. */
static const uint32_t edge[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x807FFFFFu, 0x00800000u, 0x80800000u, 0x7F7FFFFFu, 0xFF7FFFFFu,
    0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7F800001u, ONE,         0xBF800000u, 0x3F800001u,
    0x3F7FFFFFu, 0x33800000u, 0x33C00000u, 0xB3800000u, 0x4B000000u, 0x4B7FFFFFu, 0xCB800000u, 0x00FFFFFFu,
}; /* check_fields: not a field */
static uint32_t pick(uint64_t *s) {
    xorshift(s);
    uint32_t r = (uint32_t)(*s >> 11);
    switch (*s % 5) {
    case 0: return edge[r % (sizeof edge / sizeof edge[0])];
    case 1: return r & 0xFFFF0000u;                                     /* bf16 */
    case 2: return (r & 0x807FFFFFu) | ((120u + (r >> 24) % 16) << 23); /* near 1.0 */
    case 3: return (r & 0x807FFFFFu) | ((1u + (r >> 23) % 3) << 23);    /* near the denormals */
    default: return r;
    }
}
static void test_lanes_vs_model(void **state) {
    (void)state;
    uint64_t s = 0x6A09E667F3BCC909ull;
    for (unsigned iter = 0; iter < 200000; iter++) {
        uint32_t a[FMA_LANES], b[FMA_LANES], c[FMA_LANES], d[FMA_LANES];
        unsigned kind = iter % 3;
        for (unsigned l = 0; l < FMA_LANES; l++) {
            a[l] = pick(&s), c[l] = pick(&s);
            b[l] = kind == 2 ? pick(&s) : ONE;
            if (iter % 7 == 0) c[l] = f2u(-u2f(a[l])) ^ (uint32_t)(s & 3); /* cancellation */
        }
        if (kind == 1) b[s % FMA_LANES] = pick(&s);
        fma_bh_lanes(a, b, c, d);
        for (unsigned l = 0; l < FMA_LANES; l++)
            if (d[l] != fma_bh_model(a[l], b[l], c[l]))
                fail_msg("fma_bh_lanes lane %u (0x%08x, 0x%08x, 0x%08x) = 0x%08x, model 0x%08x", l, a[l], b[l], c[l],
                         d[l], fma_bh_model(a[l], b[l], c[l]));
        /* One a for every lane (SFPADDI), any of the edge values too, c's signs flipped or not. */
        uint32_t k = a[iter % FMA_LANES], sign = (iter & 8) ? 0x80000000u : 0;
        fma_bh_lanes_add_k(k, c, sign, d);
        for (unsigned l = 0; l < FMA_LANES; l++)
            if (d[l] != fma_bh_model(k, ONE, c[l] ^ sign))
                fail_msg("fma_bh_lanes_add_k lane %u (0x%08x + 0x%08x) = 0x%08x, model 0x%08x", l, k, c[l] ^ sign, d[l],
                         fma_bh_model(k, ONE, c[l] ^ sign));
        /* The same in place (fma_bh_lanes_add_k_in): over a copy of c. */
        memcpy(d, c, sizeof d);
        fma_bh_lanes_add_k_in(k, d, sign);
        for (unsigned l = 0; l < FMA_LANES; l++)
            if (d[l] != fma_bh_model(k, ONE, c[l] ^ sign))
                fail_msg("fma_bh_lanes_add_k_in lane %u (0x%08x + 0x%08x) = 0x%08x, model 0x%08x", l, k, c[l] ^ sign,
                         d[l], fma_bh_model(k, ONE, c[l] ^ sign));
    }
}

/* b = 1.0 (SFPADD, SFPADDI), where fma_bh takes the host's IEEE sum whenever it is normal, exact
 * or not (fma_bh, fma_bh_lanes and fma_bh_lanes_add_k): against the model on sums of every exponent difference (both
 * signs, random and short mantissas), near cancellation, and constructed ties (c an odd multiple of half an ulp of a,
 * or of a finer power of two). */
static void test_add_vs_model(void **state) {
    (void)state;
    uint64_t s = 0xBB67AE8584CAA73Bull;
    uint32_t a[FMA_LANES], b[FMA_LANES], c[FMA_LANES], d[FMA_LANES];
    for (unsigned l = 0; l < FMA_LANES; l++)
        b[l] = ONE;
    for (unsigned iter = 0; iter < 150000; iter++) {
        for (unsigned l = 0; l < FMA_LANES; l++) {
            xorshift(&s);
            uint32_t r = (uint32_t)(s >> 11), q = (uint32_t)(s >> 32);
            int ea = 1 + (int)(r % 254), ec = ea + (int)(q % 64) - 32;
            ec = ec < 1 ? 1 : ec > 254 ? 254 : ec;
            a[l] = (q & 0x807FFFFFu) | (uint32_t)ea << 23;
            c[l] = ((r * 0x9E3779B9u) & 0x807FFFFFu) | (uint32_t)ec << 23;
            switch (iter % 5) {
            case 0: c[l] = (a[l] ^ 0x80000000u) + (r & 7) - 3; break; /* near cancellation */
            case 1: a[l] &= 0xFFFF0000u, c[l] &= 0xFFFF0000u; break;  /* bf16 */
            case 2: {                                                 /* a tie, or a finer multiple */
                int e = ea - 24 - (int)(q % 4) + 6;                   /* c = m * 2^(e - 6), m odd < 64 */
                if (e < 1 || e > 254) break;
                c[l] = (r & 0x80000000u) | (uint32_t)e << 23 | ((q >> 8) & 0x7E0000u);
                break;
            }
            default: break;
            }
        }
        fma_bh_lanes(a, b, c, d);
        uint32_t d_k[FMA_LANES];
        for (unsigned l = 0; l < FMA_LANES; l++) {
            uint32_t want = fma_bh_model(a[l], ONE, c[l]);
            if (d[l] != want || fma_bh(a[l], ONE, c[l]) != want)
                fail_msg("(0x%08x + 0x%08x): fma_bh_lanes 0x%08x, fma_bh 0x%08x, model 0x%08x", a[l], c[l], d[l],
                         fma_bh(a[l], ONE, c[l]), want);
        }
        /* The same sums with one a for every lane (fma_bh_lanes_add_k): each lane's c against lane 0's a
         * is a sum of another exponent difference, and near cancellation for case 0's lane 0. */
        fma_bh_lanes_add_k(a[0], c, 0, d_k);
        for (unsigned l = 0; l < FMA_LANES; l++)
            if (d_k[l] != fma_bh_model(a[0], ONE, c[l]))
                fail_msg("(0x%08x + 0x%08x): fma_bh_lanes_add_k 0x%08x, model 0x%08x", a[0], c[l], d_k[l],
                         fma_bh_model(a[0], ONE, c[l]));
        memcpy(d_k, c, sizeof d_k); /* and in place (fma_bh_lanes_add_k_in) */
        fma_bh_lanes_add_k_in(a[0], d_k, 0);
        for (unsigned l = 0; l < FMA_LANES; l++)
            if (d_k[l] != fma_bh_model(a[0], ONE, c[l]))
                fail_msg("(0x%08x + 0x%08x): fma_bh_lanes_add_k_in 0x%08x, model 0x%08x", a[0], c[l], d_k[l],
                         fma_bh_model(a[0], ONE, c[l]));
    }
}

/* fma_bh_lanes and fma_bh on 32 triples against the model. */
static void check_lanes(const uint32_t *a, const uint32_t *b, const uint32_t *c) {
    uint32_t d[FMA_LANES];
    fma_bh_lanes(a, b, c, d);
    for (unsigned l = 0; l < FMA_LANES; l++) {
        uint32_t want = fma_bh_model(a[l], b[l], c[l]);
        if (d[l] != want || fma_bh(a[l], b[l], c[l]) != want)
            fail_msg("(0x%08x * 0x%08x + 0x%08x): fma_bh_lanes 0x%08x, fma_bh 0x%08x, model 0x%08x", a[l], b[l], c[l],
                     d[l], fma_bh(a[l], b[l], c[l]), want);
    }
}

/* A zero or denormal addend (SFPMUL: c = LReg[9] = 0), where fma_bh takes the host's product
 * rounded once whenever it is normal: against the model on products of normal factors (random,
 * bf16, short mantissas) with +0, -0 and denormal addends. */
static void test_mul_vs_model(void **state) {
    (void)state;
    uint64_t s = 0x3C6EF372FE94F82Bull;
    uint32_t a[FMA_LANES], b[FMA_LANES], c[FMA_LANES];
    unsigned scalar = 0, lanes = 0, b1 = 0;
    for (unsigned iter = 0; iter < 150000; iter++) {
        for (unsigned l = 0; l < FMA_LANES; l++) {
            xorshift(&s);
            uint32_t r = (uint32_t)(s >> 11), q = (uint32_t)(s >> 32);
            a[l] = (q & 0x807FFFFFu) | (1u + r % 254) << 23;
            b[l] = ((r * 0x9E3779B9u) & 0x807FFFFFu) | (1u + (q >> 3) % 254) << 23;
            c[l] = (iter & 1) ? (r & 0x80000000u) : (q & 0x807FFFFFu);
            if (iter % 3 == 0) a[l] &= 0xFFFF0000u, b[l] &= 0xFFFF0000u;
            if (iter % 5 == 0) b[l] &= 0xFF80FFFFu;
        }
        if (iter % 7 == 0) b[0] = ONE; /* not every b 1.0: the general rule */
        check_lanes(a, b, c);
        for (unsigned l = 0; l < FMA_LANES; l++) {
            scalar += fma_bh_known(a[l], b[l], c[l]);
            b1 += b[l] == ONE && fma_bh_known(a[l], b[l], c[l]);
        }
        lanes += fma_bh_lanes_known(a, b, c);
    }
    /* The lanes' general rule (exact4 on an SSE2 host) takes the products the scalar rule takes, but
     * for lanes whose b is 1.0, which fma_bh takes by the sum's rule (fma_bh_lanes only where every
     * b is): a rule that never accepted would pass the comparisons, only slower. */
    print_message("known without the model: fma_bh %u, fma_bh_lanes %u of %u lanes (%s)\n", scalar, lanes,
                  150000u * FMA_LANES, fma_lanes_form());
    assert_true(scalar > 150000u * FMA_LANES / 2);
    assert_true(lanes + b1 >= scalar);
}

/* An inexact product with a normal addend, where fma_bh takes the IEEE fused multiply-add when
 * fma.c's inexact_ok allows it: against the model on operands drawn at the edges of its conditions
 * — the addend's exponent from 40 below the product's to 40 above, its mantissa's trailing zeros
 * at the limit of an exact aligned addend, cancellation (the normalisation's left shifts), both
 * ends of the exponent range (products and results near FLT_MIN and FLT_MAX), sums that are a
 * float's midpoint or one ulp of c from it (ties, sticky bits), sums within half a double's ulp
 * of a midpoint (the double sum is the midpoint, the exact one is not), and bf16 operands. */
static uint32_t normal_bits(uint32_t mant_sign, int e) {
    return (mant_sign & 0x807FFFFFu) | (uint32_t)(e < 1 ? 1 : e > 254 ? 254 : e) << 23;
}
static void test_wide_vs_model(void **state) {
    (void)state;
    uint64_t s = 0xA54FF53A5F1D36F1ull;
    uint32_t a[FMA_LANES], b[FMA_LANES], c[FMA_LANES];
    unsigned inexact = 0, known = 0, draws = 0, scalar_all = 0, lanes_all = 0, b1_all = 0;
    for (unsigned iter = 0; iter < 120000; iter++) {
        for (unsigned l = 0; l < FMA_LANES; l++) {
            xorshift(&s);
            uint32_t r = (uint32_t)(s >> 11), q = (uint32_t)(s >> 32), w = (uint32_t)(s * 0x9E3779B97F4A7C15ull >> 20);
            int ep = 1 + (int)(r % 254);
            if (iter % 6 == 3) ep = (q & 1) ? -3 + (int)(r % 8) : 250 + (int)(r % 8); /* the range's ends, and past */
            int ea = 1 + (int)(q % 254), eb = ep + 127 - ea;
            if (eb < 1 || eb > 254) ea = (ep + 127) / 2, eb = ep + 127 - ea;
            int ec = ep + (int)(w % 81) - 40;
            a[l] = normal_bits(q, ea), b[l] = normal_bits(r * 0x9E3779B9u, eb), c[l] = normal_bits(w, ec);
            double p = (double)u2f(a[l]) * (double)u2f(b[l]);
            switch (iter % 6) {
            case 1: { /* c's trailing zeros at the limit: ep - ec - 2 of them, or one fewer */
                int z = ep - ec - 2 - (int)(r & 1);
                if (z > 0 && z < 24) c[l] &= ~((1u << z) - 1);
                break;
            }
            case 2: /* cancellation: -p rounded, scaled by 1/2, 1 or 2, its low bits disturbed */
                c[l] = f2u(-(float)(p * (double)(1 << (q % 3)) / 2)) ^ (w & 7);
                break;
            case 4: { /* the sum at a float's midpoint (c = M - p where that is a float), or an ulp of c off */
                float pf = (float)p;
                double m = ((double)pf + (double)u2f(f2u(pf) + 1)) / 2;
                if (m - p != 0) c[l] = f2u((float)(m - p)) + (w & 3) - 1;
                break;
            }
            case 5: a[l] &= 0xFFFF0000u, b[l] &= 0xFFFF0000u, c[l] &= 0xFFFF0000u; break; /* bf16 */
            case 0: { /* a sum just below a midpoint, within half a double's ulp: s is the midpoint */
                if (w & 1) break;
                /* (1 + k 2^-23)(1 - k 2^-23) = 1 - k^2 2^-46, scaled to half an ulp of an odd c: the
                 * sum is M - k^2 2^-70 (relative), below M, whose tie would round up to even. */
                unsigned k = 1 + r % 300;
                ec = 30 + (int)(w % 190);
                c[l] = normal_bits((q & 0x80000000u) | w | 1, ec);
                a[l] = normal_bits((c[l] & 0x80000000u) | k, ec - 24);
                b[l] = f2u((float)(1.0 - k / 8388608.0));
                break;
            }
            default: break;
            }
            uint32_t ec_f = (c[l] >> 23) & 0xFF;
            p = (double)u2f(a[l]) * (double)u2f(b[l]);
            draws++;
            bool for_rule = (double)(float)p != p && ec_f != 0 && ec_f != 255;
            inexact += for_rule;
            known += for_rule && fma_bh_known(a[l], b[l], c[l]);
            scalar_all += fma_bh_known(a[l], b[l], c[l]);
            b1_all += b[l] == ONE && fma_bh_known(a[l], b[l], c[l]);
        }
        lanes_all += fma_bh_lanes_known(a, b, c);
        check_lanes(a, b, c);
    }

    /* Most draws are what the rule is for: an inexact product and a normal addend; and the rule
     * takes many of them (a rule that never accepted would pass the comparisons). */
    print_message("inexact %u of %u draws, %u of them known without the model\n", inexact, draws, known);
    assert_true(inexact > draws / 2);
    assert_true(known > inexact / 4);
    /* And fma_bh_lanes's general rule (exact4 on an SSE2 host) takes what fma_bh takes, but for
     * lanes whose b is 1.0, which fma_bh takes by the sum's rule (fma_bh_lanes only where every b
     * is). */
    print_message("known without the model, every lane: fma_bh %u, fma_bh_lanes %u (%s)\n", scalar_all, lanes_all,
                  fma_lanes_form());
    assert_true(lanes_all + b1_all >= scalar_all);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact),          cmocka_unit_test(test_rounding),
        cmocka_unit_test(test_denormals),      cmocka_unit_test(test_specials),
        cmocka_unit_test(test_adds_vs_ieee),   cmocka_unit_test(test_shortcut_vs_model),
        cmocka_unit_test(test_lanes_vs_model), cmocka_unit_test(test_add_vs_model),
        cmocka_unit_test(test_mul_vs_model),   cmocka_unit_test(test_wide_vs_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
