/* test/unit/test_formats.c — coproc/formats.c against the rules of the ISA pages it cites, bit for
 * bit. Every expected value is written out by hand from the page's rule (the reasoning beside the
 * non-obvious ones), never computed by the function under test. The brute-force checks compare
 * with references written here in another way: values computed as doubles (ldexp) and rounding
 * by searching the ordered list of representable values, instead of the library's bit tricks. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "coproc/formats.h"

#define EQ(got, want) assert_int_equal((uint64_t)(got), (uint64_t)(want))

/* ---- codes ------------------------------------------------------------------------------------ */

static void test_names_and_sizes(void **state) {
    (void)state;
    static const char *const names[16] = {"FP32",  "FP16",  "BFP8A", "BFP4A", "TF32", "BF16", "BFP8", "BFP4",
                                          "INT32", "INT16", "FP8",   "BFP2A", "?",    "?",    "INT8", "BFP2"};
    static const unsigned bits[16] = {32, 16, 8, 4, 32, 16, 8, 4, 32, 16, 8, 2, 0, 0, 8, 2};
    for (unsigned c = 0; c < 16; c++) {
        assert_string_equal(fmt_name(c), names[c]);
        EQ(fmt_datum_bits(c), bits[c]);
    }
    assert_string_equal(fmt_name(16), "?");
    EQ(fmt_datum_bits(99), 0);
    /* BFP: codes 2, 3, 6, 7, 11, 15 */
    for (unsigned c = 0; c < 16; c++)
        EQ(fmt_is_bfp(c), c == 2 || c == 3 || c == 6 || c == 7 || c == 11 || c == 15);
    /* MOVA2D.md's 8-bit-exponent set: FP32 0, TF32 4, BF16 5, BFP8 6, BFP4 7, BFP2 15, INT32 8, INT16 9 */
    for (unsigned c = 0; c < 16; c++)
        EQ(fmt_exp8_family(c), c == 0 || c == 4 || c == 5 || c == 6 || c == 7 || c == 15 || c == 8 || c == 9);
}

/* ---- classification --------------------------------------------------------------------------- */

static void test_classify_and_flush(void **state) {
    (void)state;
    EQ(fmt_fp32_class(0x00000000u), FMT_CLASS_ZERO);
    EQ(fmt_fp32_class(0x80000000u), FMT_CLASS_ZERO);
    EQ(fmt_fp32_class(0x00000001u), FMT_CLASS_DENORMAL);
    EQ(fmt_fp32_class(0x807FFFFFu), FMT_CLASS_DENORMAL);
    EQ(fmt_fp32_class(0x00800000u), FMT_CLASS_NORMAL);
    EQ(fmt_fp32_class(0x7F7FFFFFu), FMT_CLASS_NORMAL);
    EQ(fmt_fp32_class(0xFF800000u), FMT_CLASS_INF);
    EQ(fmt_fp32_class(0x7F800001u), FMT_CLASS_NAN);
    EQ(fmt_fp32_class(0xFFC00000u), FMT_CLASS_NAN);
    EQ(fmt_bf16_class(0x8000), FMT_CLASS_ZERO);
    EQ(fmt_bf16_class(0x007F), FMT_CLASS_DENORMAL);
    EQ(fmt_bf16_class(0x0080), FMT_CLASS_NORMAL);
    EQ(fmt_bf16_class(0x7F80), FMT_CLASS_INF);
    EQ(fmt_bf16_class(0xFF81), FMT_CLASS_NAN);
    EQ(fmt_fp16_class(0x0000), FMT_CLASS_ZERO);
    EQ(fmt_fp16_class(0x83FF), FMT_CLASS_DENORMAL);
    EQ(fmt_fp16_class(0x0400), FMT_CLASS_NORMAL);
    EQ(fmt_fp16_class(0xFC00), FMT_CLASS_INF);
    EQ(fmt_fp16_class(0x7C01), FMT_CLASS_NAN);

    EQ(fmt_fp32_flush(0x807FFFFFu), 0x80000000u); /* signed zero */
    EQ(fmt_fp32_flush(0x00000001u), 0x00000000u);
    EQ(fmt_fp32_flush(0x00800000u), 0x00800000u);
    EQ(fmt_fp32_flush(0x7FC00001u), 0x7FC00001u);
    EQ(fmt_bf16_flush(0x807F), 0x8000);
    EQ(fmt_bf16_flush(0x0080), 0x0080);
    EQ(fmt_fp16_flush(0x83FF), 0x8000);
    EQ(fmt_fp16_flush(0x0400), 0x0400);
}

/* ---- IEEE: fp32 -> bf16 --------------------------------------------------------------------- */

static void test_fp32_to_bf16(void **state) {
    (void)state;
    EQ(fmt_fp32_to_bf16(0x3F800000u, FMT_RNE), 0x3F80);
    /* Ties: the dropped half is exactly 0x8000. Kept 0x3F80 is even -> stays; 0x3F81 is odd -> up. */
    EQ(fmt_fp32_to_bf16(0x3F808000u, FMT_RNE), 0x3F80);
    EQ(fmt_fp32_to_bf16(0x3F818000u, FMT_RNE), 0x3F82);
    EQ(fmt_fp32_to_bf16(0xBF818000u, FMT_RNE), 0xBF82);
    EQ(fmt_fp32_to_bf16(0x3F808001u, FMT_RNE), 0x3F81); /* above half */
    EQ(fmt_fp32_to_bf16(0x3F807FFFu, FMT_RNE), 0x3F80); /* below half */
    /* A carry out of the mantissa moves to the next binade: 1.99999 -> 2.0 */
    EQ(fmt_fp32_to_bf16(0x3FFFFFFFu, FMT_RNE), 0x4000);
    /* Largest finite: rounds up to Inf under RNE (remainder 0xFFFF > half), stays under TRUNC. */
    EQ(fmt_fp32_to_bf16(0x7F7FFFFFu, FMT_RNE), 0x7F80);
    EQ(fmt_fp32_to_bf16(0x7F7FFFFFu, FMT_TRUNC), 0x7F7F);
    EQ(fmt_fp32_to_bf16(0x7F7F7FFFu, FMT_RNE), 0x7F7F);
    EQ(fmt_fp32_to_bf16(0x7F7F8000u, FMT_RNE), 0x7F80); /* tie, 0x7F7F odd -> up -> overflow */
    EQ(fmt_fp32_to_bf16(0xFF7FFFFFu, FMT_RNE), 0xFF80);
    /* Zeros and infinities */
    EQ(fmt_fp32_to_bf16(0x00000000u, FMT_RNE), 0x0000);
    EQ(fmt_fp32_to_bf16(0x80000000u, FMT_RNE), 0x8000);
    EQ(fmt_fp32_to_bf16(0x7F800000u, FMT_RNE), 0x7F80);
    EQ(fmt_fp32_to_bf16(0xFF800000u, FMT_TRUNC), 0xFF80);
    /* NaN: sign kept, payload's top 7 bits kept, quiet bit 0x40 set. 0x7F800001 has its payload
     * only in the dropped bits: truncation alone would give Inf, the quiet bit keeps it NaN. */
    EQ(fmt_fp32_to_bf16(0x7FC00000u, FMT_RNE), 0x7FC0);
    EQ(fmt_fp32_to_bf16(0x7F800001u, FMT_RNE), 0x7FC0);
    EQ(fmt_fp32_to_bf16(0x7F800001u, FMT_TRUNC), 0x7FC0);
    EQ(fmt_fp32_to_bf16(0xFFA00000u, FMT_RNE), 0xFFE0); /* sNaN payload 0x20 -> 0x60 */
    EQ(fmt_fp32_to_bf16(0x7FBFFFFFu, FMT_RNE), 0x7FFF); /* no rounding carry into the sign */
    EQ(fmt_fp32_to_bf16(0xFFC12345u, FMT_RNE), 0xFFC1);
    /* Subnormals in and out (bf16 shares fp32's exponent, so they map to bf16 subnormals) */
    EQ(fmt_fp32_to_bf16(0x00010000u, FMT_RNE), 0x0001);
    EQ(fmt_fp32_to_bf16(0x00018000u, FMT_RNE), 0x0002); /* tie, odd -> up */
    EQ(fmt_fp32_to_bf16(0x00008000u, FMT_RNE), 0x0000); /* tie, even (0) -> down */
    EQ(fmt_fp32_to_bf16(0x00008001u, FMT_RNE), 0x0001);
    EQ(fmt_fp32_to_bf16(0x80008001u, FMT_RNE), 0x8001);
    EQ(fmt_fp32_to_bf16(0x007FFFFFu, FMT_RNE), 0x0080); /* largest subnormal -> smallest normal */
    EQ(fmt_fp32_to_bf16(0x007FFFFFu, FMT_TRUNC), 0x007F);
    /* Truncation */
    EQ(fmt_fp32_to_bf16(0x3F80FFFFu, FMT_TRUNC), 0x3F80);
    EQ(fmt_fp32_to_bf16(0xBF80FFFFu, FMT_TRUNC), 0xBF80);
    EQ(fmt_fp32_to_bf16(0x3FFFFFFFu, FMT_TRUNC), 0x3FFF);
    EQ(fmt_bf16_to_fp32(0xC055), 0xC0550000u);
    EQ(fmt_bf16_to_fp32(0x7F81), 0x7F810000u); /* sNaN kept bit for bit */
}

/* ---- IEEE: fp32 <-> fp16 -------------------------------------------------------------------- */

static void test_fp32_to_fp16(void **state) {
    (void)state;
    EQ(fmt_fp32_to_fp16(0x3F800000u, FMT_RNE), 0x3C00); /* 1.0 */
    EQ(fmt_fp32_to_fp16(0xC0000000u, FMT_RNE), 0xC000); /* -2.0 */
    EQ(fmt_fp32_to_fp16(0x477FE000u, FMT_RNE), 0x7BFF); /* 65504, the largest finite */
    EQ(fmt_fp32_to_fp16(0x477FEFFFu, FMT_RNE), 0x7BFF); /* just below 65520 */
    EQ(fmt_fp32_to_fp16(0x477FF000u, FMT_RNE), 0x7C00); /* 65520: tie, 0x7BFF odd -> Inf */
    EQ(fmt_fp32_to_fp16(0x477FF000u, FMT_TRUNC), 0x7BFF);
    EQ(fmt_fp32_to_fp16(0x47800000u, FMT_RNE), 0x7C00);   /* 65536 overflows */
    EQ(fmt_fp32_to_fp16(0xC7800000u, FMT_TRUNC), 0xFBFF); /* ...to the largest finite under TRUNC */
    EQ(fmt_fp32_to_fp16(0x501502F9u, FMT_RNE), 0x7C00);   /* 1e10 */
    /* Normal ties: 1 + 2^-11 is half an fp16 ulp above 1.0 (even -> stays); 1 + 3*2^-11 -> up. */
    EQ(fmt_fp32_to_fp16(0x3F801000u, FMT_RNE), 0x3C00);
    EQ(fmt_fp32_to_fp16(0x3F803000u, FMT_RNE), 0x3C02);
    EQ(fmt_fp32_to_fp16(0x3F801001u, FMT_RNE), 0x3C01);
    EQ(fmt_fp32_to_fp16(0x3F801FFFu, FMT_TRUNC), 0x3C00);
    /* Subnormal outputs. 2^-14 = 0x38800000 is the smallest normal; 1023 * 2^-24 = 2^-15 * 1.998046875
     * = 0x387FC000 the largest subnormal; 2^-24 = 0x33800000 the smallest. */
    EQ(fmt_fp32_to_fp16(0x38800000u, FMT_RNE), 0x0400);
    EQ(fmt_fp32_to_fp16(0x387FC000u, FMT_RNE), 0x03FF);
    EQ(fmt_fp32_to_fp16(0x33800000u, FMT_RNE), 0x0001);
    EQ(fmt_fp32_to_fp16(0x33000000u, FMT_RNE), 0x0000);   /* 2^-25: tie between 0 and 1 unit -> 0 */
    EQ(fmt_fp32_to_fp16(0x33000001u, FMT_RNE), 0x0001);   /* just above the tie */
    EQ(fmt_fp32_to_fp16(0x33400000u, FMT_TRUNC), 0x0000); /* 1.5 * 2^-25 */
    EQ(fmt_fp32_to_fp16(0x33C00000u, FMT_RNE), 0x0002);   /* 1.5 units: tie, 1 odd -> 2 */
    EQ(fmt_fp32_to_fp16(0x34200000u, FMT_RNE), 0x0002);   /* 2.5 units: tie, 2 even -> 2 */
    EQ(fmt_fp32_to_fp16(0x387FE000u, FMT_RNE), 0x0400);   /* 1023.5 units: tie, odd -> 1024 = normal */
    EQ(fmt_fp32_to_fp16(0x387FE000u, FMT_TRUNC), 0x03FF);
    EQ(fmt_fp32_to_fp16(0xB3800000u, FMT_RNE), 0x8001);
    EQ(fmt_fp32_to_fp16(0x00000001u, FMT_RNE), 0x0000); /* fp32 denormal: far below */
    EQ(fmt_fp32_to_fp16(0x80400000u, FMT_RNE), 0x8000);
    EQ(fmt_fp32_to_fp16(0x80000000u, FMT_RNE), 0x8000);
    /* Inf and NaN: payload's top 10 bits, quiet bit 0x200 */
    EQ(fmt_fp32_to_fp16(0x7F800000u, FMT_RNE), 0x7C00);
    EQ(fmt_fp32_to_fp16(0xFF800000u, FMT_TRUNC), 0xFC00);
    EQ(fmt_fp32_to_fp16(0x7FC00000u, FMT_RNE), 0x7E00);
    EQ(fmt_fp32_to_fp16(0x7F800001u, FMT_RNE), 0x7E00);
    EQ(fmt_fp32_to_fp16(0xFF802000u, FMT_RNE), 0xFE01); /* sNaN payload 1 (after >>13) -> quiet */
}

static void test_fp16_to_fp32(void **state) {
    (void)state;
    EQ(fmt_fp16_to_fp32(0x3C00), 0x3F800000u);
    EQ(fmt_fp16_to_fp32(0x0001), 0x33800000u); /* 2^-24 */
    EQ(fmt_fp16_to_fp32(0x8001), 0xB3800000u);
    EQ(fmt_fp16_to_fp32(0x0002), 0x34000000u); /* 2^-23 */
    EQ(fmt_fp16_to_fp32(0x0003), 0x34400000u); /* 1.5 * 2^-23 */
    EQ(fmt_fp16_to_fp32(0x03FF), 0x387FC000u);
    EQ(fmt_fp16_to_fp32(0x0200), 0x38000000u); /* 2^-15 */
    EQ(fmt_fp16_to_fp32(0x0400), 0x38800000u);
    EQ(fmt_fp16_to_fp32(0x7BFF), 0x477FE000u);
    EQ(fmt_fp16_to_fp32(0x8000), 0x80000000u);
    EQ(fmt_fp16_to_fp32(0x7C00), 0x7F800000u);
    EQ(fmt_fp16_to_fp32(0xFC00), 0xFF800000u);
    EQ(fmt_fp16_to_fp32(0x7E00), 0x7FC00000u);
    EQ(fmt_fp16_to_fp32(0x7C01), 0x7F802000u); /* sNaN kept */
}

static void test_fp32_to_tf32(void **state) {
    (void)state;
    EQ(fmt_fp32_to_tf32(0x3F801000u, FMT_RNE), 0x3F800000u); /* tie, kept LSB (bit 13) 0 */
    EQ(fmt_fp32_to_tf32(0x3F803000u, FMT_RNE), 0x3F804000u); /* tie, kept LSB 1 -> up */
    EQ(fmt_fp32_to_tf32(0x3F801FFFu, FMT_RNE), 0x3F802000u);
    EQ(fmt_fp32_to_tf32(0x3F801FFFu, FMT_TRUNC), 0x3F800000u);
    EQ(fmt_fp32_to_tf32(0x7F7FFFFFu, FMT_RNE), 0x7F800000u);
    EQ(fmt_fp32_to_tf32(0x7F7FFFFFu, FMT_TRUNC), 0x7F7FE000u);
    EQ(fmt_fp32_to_tf32(0x80001000u, FMT_RNE), 0x80000000u); /* subnormal tie -> -0 */
    EQ(fmt_fp32_to_tf32(0x80003000u, FMT_RNE), 0x80004000u);
    EQ(fmt_fp32_to_tf32(0x7F800001u, FMT_RNE), 0x7FC00000u);
    EQ(fmt_fp32_to_tf32(0xFF801FFFu, FMT_TRUNC), 0xFFC00000u);
    EQ(fmt_fp32_to_tf32(0xFFC0A000u, FMT_RNE), 0xFFC0A000u);
}

/* ---- brute force against independent references ---------------------------------------------- */

static uint32_t float_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* The value of a finite pattern, from its fields by ldexp (exact in double). */
static double bf16_value(uint16_t b) {
    int e = (b >> 7) & 0xFF, m = b & 0x7F;
    double v = e ? ldexp(128 + m, e - 134) : ldexp(m, -133);
    return (b & 0x8000) ? -v : v;
}

static double fp16_value(uint16_t h) {
    int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return (h & 0x8000) ? -v : v;
}

static double fp32_value(uint32_t f) {
    int e = (f >> 23) & 0xFF;
    long m = (long)(f & 0x7FFFFF);
    double v = e ? ldexp((double)(0x800000 + m), e - 150) : ldexp((double)m, -149);
    return (f >> 31) ? -v : v;
}

static void test_brute_force_widening(void **state) {
    (void)state;
    for (uint32_t i = 0; i < 0x10000; i++) {
        uint16_t b = (uint16_t)i;
        uint32_t w = fmt_bf16_to_fp32(b);
        if (fmt_bf16_class(b) == FMT_CLASS_NAN) {
            assert_true(fmt_fp32_class(w) == FMT_CLASS_NAN);
            EQ(w, (uint32_t)b << 16); /* NaN bits kept */
        } else if (fmt_bf16_class(b) == FMT_CLASS_INF) {
            EQ(w, (b & 0x8000) ? float_bits(-INFINITY) : float_bits(INFINITY));
        } else {
            EQ(w, float_bits((float)bf16_value(b))); /* the value, exactly, with its sign */
        }
        uint16_t h = (uint16_t)i;
        w = fmt_fp16_to_fp32(h);
        if (fmt_fp16_class(h) == FMT_CLASS_NAN) {
            assert_true(fmt_fp32_class(w) == FMT_CLASS_NAN);
            EQ(w >> 31, h >> 15);
            EQ(w & 0x7FFFFF, (uint32_t)(h & 0x3FF) << 13);
        } else if (fmt_fp16_class(h) == FMT_CLASS_INF) {
            EQ(w, (h & 0x8000) ? float_bits(-INFINITY) : float_bits(INFINITY));
        } else {
            EQ(w, float_bits((float)fp16_value(h)));
        }
    }
}

static void test_brute_force_round_trips(void **state) {
    (void)state;
    for (uint32_t i = 0; i < 0x10000; i++) {
        uint16_t x = (uint16_t)i;
        /* bf16 -> fp32 -> bf16 is exact for every non-NaN and every quiet NaN under both modes; a
         * signalling NaN comes back with the quiet bit set, the rest kept. */
        uint16_t want = x;
        if (fmt_bf16_class(x) == FMT_CLASS_NAN) want = x | 0x0040;
        EQ(fmt_fp32_to_bf16(fmt_bf16_to_fp32(x), FMT_RNE), want);
        EQ(fmt_fp32_to_bf16(fmt_bf16_to_fp32(x), FMT_TRUNC), want);
        want = x;
        if (fmt_fp16_class(x) == FMT_CLASS_NAN) want = x | 0x0200;
        EQ(fmt_fp32_to_fp16(fmt_fp16_to_fp32(x), FMT_RNE), want);
        EQ(fmt_fp32_to_fp16(fmt_fp16_to_fp32(x), FMT_TRUNC), want);
        /* tf32 of a widened bf16 is the same fp32 (bf16 has fewer mantissa bits) */
        if (fmt_bf16_class(x) != FMT_CLASS_NAN) EQ(fmt_fp32_to_tf32(fmt_bf16_to_fp32(x), FMT_RNE), (uint32_t)x << 16);
    }
}

/* Reference rounding: the largest pattern p (0..top) whose value is <= |x|, by binary search
 * over the ordered positive patterns; `top` is the Inf pattern, valued as the next power of two
 * (IEEE overflow: a value that rounds, with an unbounded exponent, to 2^emax+1 becomes Inf). */
typedef double (*value_fn)(uint16_t);

static uint16_t ref_narrow(double x, value_fn val, uint16_t top, double top_value, fmt_round_t r) {
    uint16_t sign = 0;
    if (signbit(x)) sign = 0x8000, x = -x;
    uint32_t lo = 0, hi = top; /* val(lo) <= x < val(hi), with val(top) = top_value */
    if (x >= top_value) {
        lo = top;
    } else {
        while (hi - lo > 1) {
            uint32_t mid = (lo + hi) / 2;
            if (val((uint16_t)mid) <= x)
                lo = mid;
            else
                hi = mid;
        }
    }
    uint32_t p = lo;
    if (r == FMT_TRUNC) {
        if (p == top) p = top - 1u; /* finite inputs truncate to the largest finite */
    } else if (p < top && val((uint16_t)p) != x) {
        double up = (p + 1 == top) ? top_value : val((uint16_t)(p + 1));
        double dlo = x - val((uint16_t)p), dhi = up - x;
        if (dhi < dlo || (dhi == dlo && (p & 1))) p++;
    }
    return (uint16_t)(sign | p);
}

static uint64_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 32;
}

static void check_narrow_one(uint32_t f) {
    if (fmt_fp32_class(f) == FMT_CLASS_NAN || fmt_fp32_class(f) == FMT_CLASS_INF) return;
    double x = fp32_value(f);
    if (f == 0x80000000u) x = -0.0;
    for (int r = 0; r < 2; r++) {
        fmt_round_t rm = r ? FMT_TRUNC : FMT_RNE;
        EQ(fmt_fp32_to_bf16(f, rm), ref_narrow(x, bf16_value, 0x7F80, ldexp(1, 128), rm));
        EQ(fmt_fp32_to_fp16(f, rm), ref_narrow(x, fp16_value, 0x7C00, 65536.0, rm));
    }
}

static void test_brute_force_narrowing(void **state) {
    (void)state;
    uint64_t s = 12345;
    for (int i = 0; i < 300000; i++) {
        uint32_t f = (uint32_t)lcg(&s);
        check_narrow_one(f);
        /* exponents 97..144: fp16's subnormals through overflow */
        check_narrow_one((f & 0x807FFFFFu) | ((97u + (uint32_t)(lcg(&s) % 48)) << 23));
        /* ties and near-ties: low 13 / 16 bits forced to the half-way patterns */
        check_narrow_one((f & ~0x1FFFu) | 0x1000u);
        check_narrow_one((f & ~0xFFFFu) | 0x8000u);
    }
    /* every fp16 and bf16 boundary: the exact midpoints between neighbouring patterns */
    for (uint32_t h = 0; h < 0x7C00; h++) {
        uint32_t a = fmt_fp16_to_fp32((uint16_t)h), b = fmt_fp16_to_fp32((uint16_t)(h + 1));
        if (h + 1 == 0x7C00) b = 0x47800000u;
        check_narrow_one((a + b) / 2); /* same binade or adjacent: the midpoint's pattern */
        check_narrow_one((a + b) / 2 + 1);
        check_narrow_one((a + b) / 2 - 1);
    }
}

/* ---- integers --------------------------------------------------------------------------------- */

static void test_integers(void **state) {
    (void)state;
    EQ(fmt_int32_to_sm32(0), 0);
    EQ(fmt_int32_to_sm32(-5), 0x80000005u);
    EQ(fmt_int32_to_sm32(INT32_MAX), 0x7FFFFFFFu);
    EQ(fmt_int32_to_sm32(INT32_MIN), 0xFFFFFFFFu); /* saturates to -(2^31-1) */
    EQ((uint32_t)fmt_sm32_to_int32(0x80000005u), (uint32_t)-5);
    EQ((uint32_t)fmt_sm32_to_int32(0x80000000u), 0); /* -0 */
    EQ((uint32_t)fmt_sm32_to_int32(0xFFFFFFFFu), (uint32_t)(-INT32_MAX));
    EQ(fmt_int16_to_sm16(-1), 0x8001);
    EQ(fmt_int16_to_sm16(INT16_MIN), 0xFFFF);
    EQ((uint16_t)fmt_sm16_to_int16(0x8001), (uint16_t)-1);
    EQ((uint16_t)fmt_sm16_to_int16(0x8000), 0);
    EQ(fmt_int8_to_sm8(-127), 0xFF);
    EQ(fmt_int8_to_sm8(INT8_MIN), 0xFF);
    EQ(fmt_int8_to_sm8(5), 0x05);
    EQ((uint8_t)fmt_sm8_to_int8(0x85), (uint8_t)-5);
    EQ((uint8_t)fmt_sm8_to_int8(0x80), 0);
    for (int v = -127; v <= 127; v++)
        EQ(fmt_sm8_to_int8(fmt_int8_to_sm8((int8_t)v)), (uint64_t)(int64_t)v);
}

/* ---- layouts ---------------------------------------------------------------------------------- */

static void test_src_layout(void **state) {
    (void)state;
    /* 0xC0555555: sign 1, exponent 0x80, mantissa 0x555555 whose top 10 bits are 0x2AA.
     * Src = 1 << 18 | 0x2AA << 8 | 0x80 = 0x6AA80; decoding keeps 10 mantissa bits. */
    EQ(fmt_src_encode_tf32(0xC0555555u), 0x6AA80);
    EQ(fmt_src_decode_tf32(0x6AA80), 0xC0554000u);
    /* BF16 0xC055: mantissa 0x55 << 3 = 0x2A8 in the 10-bit field */
    EQ(fmt_src_encode_bf16(0xC055), 0x6A880);
    EQ(fmt_src_decode_bf16(0x6A880), 0xC055);
    EQ(fmt_src_decode_bf16(0x6AA80), 0xC055); /* the low 3 mantissa bits are dropped */
    EQ(fmt_src_encode_bf16(0x3F80), 0x0007F);
    /* FP16 0xBC01: sign 1, exponent 15 in bits 0..4, mantissa 1 at bit 8 */
    EQ(fmt_src_encode_fp16(0xBC01), 0x4010F);
    EQ(fmt_src_decode_fp16(0x4010F), 0xBC01);
    EQ(fmt_src_decode_fp16(0x401EF), 0xBC01); /* the high 3 exponent bits are dropped */
    /* INT16 raw 0xABCD: low byte in bits 0..7, high byte from bit 11 */
    EQ(fmt_src_encode_int16(0xABCD), 0x558CD);
    EQ(fmt_src_decode_int16(0x558CD), 0xABCD);
    /* Every 19-bit pattern decodes and re-encodes to itself (tf32), and every 16-bit pattern
     * round-trips through bf16 / fp16 / int16 encodings. */
    for (uint32_t s = 0; s < (1u << 19); s++)
        EQ(fmt_src_encode_tf32(fmt_src_decode_tf32(s)), s);
    for (uint32_t v = 0; v < 0x10000; v++) {
        EQ(fmt_src_decode_bf16(fmt_src_encode_bf16((uint16_t)v)), v);
        EQ(fmt_src_decode_fp16(fmt_src_encode_fp16((uint16_t)v)), v);
        EQ(fmt_src_decode_int16(fmt_src_encode_int16((uint16_t)v)), v);
        EQ(fmt_src_encode_bf16((uint16_t)v) & 0x700, 0);  /* low 3 mantissa bits zero */
        EQ(fmt_src_encode_fp16((uint16_t)v) & 0xE0, 0);   /* high 3 exponent bits zero */
        EQ(fmt_src_encode_int16((uint16_t)v) & 0x700, 0); /* BF16-shaped */
    }
}

static void test_dst_layout(void **state) {
    (void)state;
    /* BF16 0xC055 (sign 1, exponent 0x80, mantissa 0x55): 0x8000 | 0x55 << 8 | 0x80 */
    EQ(fmt_dst_encode_bf16(0xC055), 0xD580);
    EQ(fmt_dst_decode_bf16(0xD580), 0xC055);
    EQ(fmt_dst_encode_bf16(0x3F80), 0x007F); /* 1.0: exponent 0x7F in the low byte */
    EQ(fmt_dst_encode_bf16(0x7FC0), 0x40FF);
    /* FP16 0xBC01 (sign 1, exponent 15, mantissa 1): 0x8000 | 1 << 5 | 15 */
    EQ(fmt_dst_encode_fp16(0xBC01), 0x802F);
    EQ(fmt_dst_decode_fp16(0x802F), 0xBC01);
    EQ(fmt_dst_encode_fp16(0x3C00), 0x000F);
    /* FP32: the high half as BF16, the low half kept */
    EQ(fmt_dst_encode_fp32(0x3F800001u), 0x007F0001u);
    EQ(fmt_dst_encode_fp32(0xC0555555u), 0xD5805555u);
    EQ(fmt_dst_decode_fp32(0xD5805555u), 0xC0555555u);
    /* INT32 sign-magnitude 0x12345678 uses the same shuffle: high half 0x1234 -> exponent field
     * 0x24 (bits 7..14 of 0x1234), mantissa field 0x34 -> 0x3424 */
    EQ(fmt_dst_encode_fp32(0x12345678u), 0x34245678u);
    for (uint32_t v = 0; v < 0x10000; v++) {
        EQ(fmt_dst_decode_bf16(fmt_dst_encode_bf16((uint16_t)v)), v);
        EQ(fmt_dst_encode_bf16(fmt_dst_decode_bf16((uint16_t)v)), v);
        EQ(fmt_dst_decode_fp16(fmt_dst_encode_fp16((uint16_t)v)), v);
        EQ(fmt_dst_encode_fp16(fmt_dst_decode_fp16((uint16_t)v)), v);
        uint32_t w = (v << 16) | (v ^ 0xA5A5);
        EQ(fmt_dst_decode_fp32(fmt_dst_encode_fp32(w)), w);
    }
}

/* ---- unpacker --------------------------------------------------------------------------------- */

static uint32_t unpack(unsigned in, unsigned out, bool to_dst, uint32_t d) {
    fmt_unpack_mode_t m = {.in_fmt = (uint8_t)in, .out_fmt = (uint8_t)out, .to_dst = to_dst};
    assert_true(fmt_unpack_check(&m));
    return fmt_unpack(&m, d, 0);
}

static void test_unpack_float(void **state) {
    (void)state;
    /* BF16 -> BF16 is exact: Src 0x7F for 1.0, the Dst cell 0x007F */
    EQ(unpack(FMT_BF16, FMT_BF16, false, 0x3F80), 0x0007F);
    EQ(unpack(FMT_BF16, FMT_BF16, false, 0xC055), 0x6A880);
    EQ(unpack(FMT_BF16, FMT_BF16, true, 0x3F80), 0x007F);
    EQ(unpack(FMT_BF16, FMT_BF16, false, 0x8001), 0x40800); /* denormal passes unchanged */
    /* FP32 -> BF16: flush denormals to signed zero, then truncate */
    EQ(unpack(FMT_FP32, FMT_BF16, false, 0x3F80FFFFu), 0x0007F);
    EQ(unpack(FMT_FP32, FMT_BF16, false, 0x807FFFFFu), 0x40000);
    EQ(unpack(FMT_FP32, FMT_BF16, false, 0x7F800001u), 0x000FF); /* NaN truncates to Inf */
    /* FP32 -> TF32: keep 10 mantissa bits (truncation); to Dst, TF32 means FP32 */
    EQ(unpack(FMT_FP32, FMT_TF32, false, 0x3F801FFFu), 0x0007F);
    EQ(unpack(FMT_FP32, FMT_TF32, false, 0x3F802000u), 0x0017F);
    EQ(unpack(FMT_FP32, FMT_TF32, true, 0x3F801FFFu), 0x007F1FFFu);
    EQ(unpack(FMT_FP32, FMT_FP32, true, 0x3F800001u), 0x007F0001u);
    EQ(unpack(FMT_TF32, FMT_TF32, true, 0x3F800001u), 0x007F0001u);
    EQ(unpack(FMT_INT32, FMT_INT32, true, 0x12345678u), 0x34245678u);
    /* FP32 -> FP16 [SIM]: exponent - 112; < 0 signed zero; > 31 the all-ones pattern; 0 keeps
     * the mantissa (1.5 * 2^-15: exponent 112, mantissa 0x400000 -> fp16 0x0200 -> Src 0x20000). */
    EQ(unpack(FMT_FP32, FMT_FP16, false, 0x3F800000u), 0x0000F);
    EQ(unpack(FMT_FP32, FMT_FP16, false, 0x38400000u), 0x20000);
    EQ(unpack(FMT_FP32, FMT_FP16, false, 0x37800000u), 0x00000); /* 2^-16 */
    EQ(unpack(FMT_FP32, FMT_FP16, false, 0xB7800000u), 0x40000); /* -2^-16 -> -0 */
    EQ(unpack(FMT_FP32, FMT_FP16, false, 0x47800000u), 0x0001F); /* 65536: exponent 31, kept */
    EQ(unpack(FMT_FP32, FMT_FP16, false, 0x48000000u), 0x3FF1F); /* 131072: saturates */
    EQ(unpack(FMT_FP32, FMT_FP16, false, 0xFFC00000u), 0x7FF1F); /* NaN saturates, sign kept */
    EQ(unpack(FMT_FP32, FMT_FP16, false, 0x3F801FFFu), 0x0000F); /* truncation */
    EQ(unpack(FMT_FP32, FMT_FP16, true, 0x3F800000u), 0x000F);
    /* FP16 identity */
    EQ(unpack(FMT_FP16, FMT_FP16, false, 0xBC01), 0x4010F);
    EQ(unpack(FMT_FP16, FMT_FP16, true, 0xBC01), 0x802F);
}

static void test_unpack_int_fp8_bfp(void **state) {
    (void)state;
    fmt_unpack_mode_t m = {.in_fmt = FMT_INT8, .out_fmt = FMT_INT8};
    /* signed 0x85 = -5: FP16 overlay 0x8000 | 16 << 10 | 5 = 0xC005 -> Src 1<<18 | 5<<8 | 16 */
    EQ(fmt_unpack_int8(0x85, false), 0xC005);
    EQ(fmt_unpack(&m, 0x85, 0), 0x40510);
    EQ(fmt_unpack_int8(0x80, false), 0x8000); /* -0: exponent 0 when the magnitude is 0 */
    EQ(fmt_unpack_int8(0x00, false), 0x0000);
    EQ(fmt_unpack_int8(0x7F, false), 0x407F);
    m.int8_unsigned = true; /* 0x85 = 133 */
    EQ(fmt_unpack_int8(0x85, true), 0x4085);
    EQ(fmt_unpack(&m, 0x85, 0), 0x08510);
    m.to_dst = true;
    EQ(fmt_unpack(&m, 0x85, 0), 0x10B0); /* Dst: 133 << 5 | 16 */
    /* INT16: Src in the BF16 arrangement, Dst raw */
    EQ(unpack(FMT_INT16, FMT_INT16, false, 0x1234), 0x09034);
    EQ(unpack(FMT_INT16, FMT_INT16, true, 0x1234), 0x1234);
    /* FP8 E5M2 is the top byte of an FP16: 0x3C = 1.0; BH maps 0x7F/0xFF to the all-ones FP16 */
    EQ(unpack(FMT_FP8, FMT_FP8, false, 0x3C), 0x0000F);
    EQ(unpack(FMT_FP8, FMT_FP8, false, 0x7E), 0x2001F); /* exponent 31, mantissa 0x200 */
    EQ(unpack(FMT_FP8, FMT_FP8, false, 0x7F), 0x3FF1F);
    EQ(unpack(FMT_FP8, FMT_FP8, false, 0xFF), 0x7FF1F);
    /* E4M3: 0x38 = exponent 7 (bias 7), i.e. 1.0 -> fp16 exponent 15; 0x7F (exponent 15, mantissa
     * 7) -> exponent 23, mantissa 7 << 7 | 0x7F = 0x3FF; a zero exponent stays 0. */
    m = (fmt_unpack_mode_t){.in_fmt = FMT_FP8, .out_fmt = FMT_FP8, .fp8_e4m3 = true};
    EQ(fmt_unpack(&m, 0x38, 0), 0x0000F);
    EQ(fmt_unpack(&m, 0x7F, 0), 0x3FF17);
    EQ(fmt_unpack(&m, 0x7E, 0), 0x30017); /* mantissa 6 << 7 = 0x300 */
    EQ(fmt_unpack(&m, 0x81, 0), 0x48000); /* -(1/8) * 2^-6: exponent 0, mantissa 1 << 7 */
    /* BFP8 with exponent 127: datum 0x40 = 64/64 = 1.0 -> bf16 0x3F80 -> Src 0x7F */
    m = (fmt_unpack_mode_t){.in_fmt = FMT_BFP8, .out_fmt = FMT_BFP8};
    EQ(fmt_unpack(&m, 0x40, 127), 0x0007F);
    EQ(fmt_unpack(&m, 0x80, 127), 0x400FF); /* -0 datum = -Inf 0xFF80 */
    m = (fmt_unpack_mode_t){.in_fmt = FMT_BFP8A, .out_fmt = FMT_BFP8A};
    EQ(fmt_unpack(&m, 0x40, 15), 0x0000F); /* fp16 1.0 */
    EQ(fmt_unpack(&m, 0x80, 15), 0x4001F); /* -0 datum = fp16 0xFC00 */
}

static void test_unpack_check(void **state) {
    (void)state;
    fmt_unpack_mode_t m = {.in_fmt = FMT_FP32, .out_fmt = FMT_FP32};
    assert_false(fmt_unpack_check(&m)); /* Src cannot hold FP32 */
    m.to_dst = true;
    assert_true(fmt_unpack_check(&m));
    assert_true(fmt_unpack_writes_dst32(&m));
    m = (fmt_unpack_mode_t){.in_fmt = FMT_FP32, .out_fmt = FMT_INT8};
    assert_false(fmt_unpack_check(&m));
    m = (fmt_unpack_mode_t){.in_fmt = FMT_BF16, .out_fmt = FMT_FP16};
    assert_false(fmt_unpack_check(&m)); /* only FP32 input converts */
    m = (fmt_unpack_mode_t){.in_fmt = FMT_TF32, .out_fmt = FMT_TF32};
    assert_false(fmt_unpack_check(&m));
    m = (fmt_unpack_mode_t){.in_fmt = FMT_INT32, .out_fmt = FMT_INT32, .to_dst = true};
    assert_true(fmt_unpack_check(&m));
    m = (fmt_unpack_mode_t){.in_fmt = 12, .out_fmt = 12};
    assert_false(fmt_unpack_check(&m));
    m = (fmt_unpack_mode_t){.in_fmt = FMT_BF16, .out_fmt = FMT_BF16, .to_dst = true};
    assert_true(fmt_unpack_check(&m));
    assert_false(fmt_unpack_writes_dst32(&m));
    m = (fmt_unpack_mode_t){.in_fmt = FMT_FP32, .out_fmt = FMT_TF32, .to_dst = false};
    assert_false(fmt_unpack_writes_dst32(&m));
}

/* ---- Matrix Unit moves ------------------------------------------------------------------------ */

static void test_mova2d(void **state) {
    (void)state;
    EQ(fmt_src_style(FMT_BF16, false), FMT_STYLE_BF16);
    EQ(fmt_src_style(FMT_INT16, false), FMT_STYLE_BF16);
    EQ(fmt_src_style(FMT_TF32, false), FMT_STYLE_TF32);
    EQ(fmt_src_style(FMT_FP8, false), FMT_STYLE_FP16);
    EQ(fmt_src_style(FMT_INT8, false), FMT_STYLE_FP16);
    EQ(fmt_src_style(FMT_BF16, true), FMT_STYLE_FP16);
    /* BF16 passes through: Src 0x6A880 (0xC055) -> Dst cell 0xD580 */
    EQ(fmt_mova2d_dst16(0x6A880, FMT_STYLE_BF16, true), 0xD580);
    EQ(fmt_mova2d_dst16(0x0007F, FMT_STYLE_BF16, true), 0x007F);
    /* Zero_Flag: bf16 denormal 0x8001 (Src 0x40800, exponent 0) -> +0 when the flag is on */
    EQ(fmt_mova2d_dst16(0x40800, FMT_STYLE_BF16, true), 0x0000);
    EQ(fmt_mova2d_dst16(0x40800, FMT_STYLE_BF16, false), 0x8100);
    EQ(fmt_mova2d_dst16(0x40000, FMT_STYLE_BF16, true), 0x0000); /* -0 -> +0 */
    /* TF32 Src 0x6AA80 (0xC0554000): 16-bit keeps the top 7 mantissa bits; 32-bit puts the low 3
     * (0x2AA & 7 = 2) at bits 13..15 -> 0xD5804000, which decodes to 0xC0554000. */
    EQ(fmt_mova2d_dst16(0x6AA80, FMT_STYLE_TF32, true), 0xD580);
    EQ(fmt_mova2d_dst32(0x6AA80, true), 0xD5804000u);
    EQ(fmt_dst_decode_fp32(0xD5804000u), 0xC0554000u);
    EQ(fmt_mova2d_dst32(0x6AA00, true), 0); /* exponent 0: zeroed */
    /* FP16 keeps 10 mantissa bits and 5 exponent bits */
    EQ(fmt_mova2d_dst16(0x4010F, FMT_STYLE_FP16, true), 0x802F);
    EQ(fmt_mova2d_dst16(0x40510, FMT_STYLE_FP16, true), 0x80B0); /* Integer "8" -5 */
    /* INT16 raw 0xAB00: the low byte is 0, so the zero flag clears it (SrcASrcB.md warning) */
    EQ(fmt_mova2d_dst16(0x55800, FMT_STYLE_BF16, true), 0x0000);
    EQ(fmt_mova2d_dst16(0x55800, FMT_STYLE_BF16, false), 0xAB00);
    EQ(fmt_mova2d_dst16(0x558CD, FMT_STYLE_BF16, true), 0xABCD);
}

static void test_movd2src(void **state) {
    (void)state;
    EQ(fmt_movd2src_dst16(0xD580, FMT_STYLE_BF16), 0x6A880);
    EQ(fmt_movd2src_dst16(0x802F, FMT_STYLE_FP16), 0x4010F);
    EQ(fmt_movd2src_dst32(0xD5805555u, FMT_STYLE_TF32), 0x6AA80); /* truncated to tf32 */
    EQ(fmt_movd2src_dst32(0xD5805555u, FMT_STYLE_BF16), 0x6A880); /* the high half */
    EQ(fmt_movd2src_dst32(0x802F1234u, FMT_STYLE_FP16), 0x4010F);
    for (uint32_t c = 0; c < 0x10000; c++) { /* MOVA2D undoes MOVD2A for 16-bit cells */
        EQ(fmt_mova2d_dst16(fmt_movd2src_dst16((uint16_t)c, FMT_STYLE_BF16), FMT_STYLE_BF16, false), c);
        EQ(fmt_mova2d_dst16(fmt_movd2src_dst16((uint16_t)c, FMT_STYLE_FP16), FMT_STYLE_FP16, false), c);
    }
}

/* ---- SFPU ------------------------------------------------------------------------------------- */

static void test_sfp_mod0(void **state) {
    (void)state;
    EQ(fmt_mod0_resolve(FMT_MOD0_SRCB, true, FMT_FP16), FMT_MOD0_FP32);
    EQ(fmt_mod0_resolve(FMT_MOD0_SRCB, false, FMT_FP32), FMT_MOD0_BF16); /* add1's case */
    EQ(fmt_mod0_resolve(FMT_MOD0_SRCB, false, FMT_BF16), FMT_MOD0_BF16);
    EQ(fmt_mod0_resolve(FMT_MOD0_SRCB, false, FMT_INT16), FMT_MOD0_BF16);
    EQ(fmt_mod0_resolve(FMT_MOD0_SRCB, false, FMT_FP16), FMT_MOD0_FP16);
    EQ(fmt_mod0_resolve(FMT_MOD0_SRCB, false, FMT_INT8), FMT_MOD0_FP16);
    EQ(fmt_mod0_resolve(FMT_MOD0_SRCB, false, FMT_BFP8A), FMT_MOD0_FP16);
    EQ(fmt_mod0_resolve(FMT_MOD0_INT16, true, FMT_FP32), FMT_MOD0_INT16);
    for (unsigned m = 0; m < 16; m++) {
        EQ(fmt_sfpload_reads_dst32(m), m == 3 || m == 4 || m == 10 || m == 12);
        EQ(fmt_sfpstore_writes_dst32(m), m == 3 || m == 4 || m == 10 || m == 12 || m == 9 || m == 7);
    }
}

static void test_sfpload(void **state) {
    (void)state;
    EQ(fmt_sfpload(FMT_MOD0_BF16, 0x007F, 0, false), 0x3F800000u);
    EQ(fmt_sfpload(FMT_MOD0_BF16, 0x40FF, 0, false), 0x7FC00000u);
    /* FP16: exponent + 112 */
    EQ(fmt_sfpload(FMT_MOD0_FP16, 0x000F, 0, false), 0x3F800000u);
    EQ(fmt_sfpload(FMT_MOD0_FP16, 0x7FFF, 0, false), 0x47FFE000u); /* exponent 143, mantissa 0x3FF */
    EQ(fmt_sfpload(FMT_MOD0_FP16, 0x7FFF, 0, true), 0x7F800000u);  /* ENABLE_FP16A_INF */
    EQ(fmt_sfpload(FMT_MOD0_FP16, 0xFFFF, 0, true), 0xFF800000u);
    EQ(fmt_sfpload(FMT_MOD0_FP16, 0x7FDF, 0, true), 0x47FFC000u);  /* exponent 31, mantissa 0x3FE: finite */
    EQ(fmt_sfpload(FMT_MOD0_FP16, 0x0020, 0, false), 0x00002000u); /* exponent 0: an fp32 denormal */
    EQ(fmt_sfpload(FMT_MOD0_FP16, 0x8000, 0, false), 0x80000000u);
    EQ(fmt_sfpload(FMT_MOD0_FP32, 0x007F0001u, 0, false), 0x3F800001u);
    EQ(fmt_sfpload(FMT_MOD0_INT32, 0x34245678u, 0, false), 0x12345678u);
    EQ(fmt_sfpload(FMT_MOD0_INT32_SM, 0x80000005u, 0, false), 0x80000005u); /* BH: no conversion */
    /* INT8 (BH): sign and 8 magnitude bits; 300 (0x12C) is out of range and keeps 0x2C */
    EQ(fmt_sfpload(FMT_MOD0_INT8, 0x80B0, 0, false), 0x80000005u);
    EQ(fmt_sfpload(FMT_MOD0_INT8, 0x2590, 0, false), 0x2C);
    EQ(fmt_sfpload(FMT_MOD0_INT8, 0x1FF0, 0, false), 0xFF); /* 255: the BH range */
    EQ(fmt_sfpload(FMT_MOD0_INT8_COMP, 0x2590, 0, false), 0x12C);
    EQ(fmt_sfpload(FMT_MOD0_INT16, 0x9234, 0, false), 0x80001234u);
    EQ(fmt_sfpload(FMT_MOD0_UINT16, 0xFFFF, 0, false), 0xFFFF);
    EQ(fmt_sfpload(FMT_MOD0_LO16, 0xBBBB, 0xFFFFFFFFu, false), 0xBBBB);
    EQ(fmt_sfpload(FMT_MOD0_HI16, 0xBBBB, 0xFFFFFFFFu, false), 0xBBBB0000u);
    EQ(fmt_sfpload(FMT_MOD0_LO16_ONLY, 0xABCD, 0x12345678u, false), 0x1234ABCDu);
    EQ(fmt_sfpload(FMT_MOD0_HI16_ONLY, 0xABCD, 0x12345678u, false), 0xABCD5678u);
    EQ(fmt_sfpload(FMT_MOD0_ZERO, 0xABCD, 0x12345678u, false), 0);
}

static void test_sfpstore(void **state) {
    (void)state;
    /* BF16: flush denormals to signed zero, then truncate */
    EQ(fmt_sfpstore(FMT_MOD0_BF16, 0x3F80FFFFu), 0x007F); /* 0x3F80 */
    EQ(fmt_sfpstore(FMT_MOD0_BF16, 0x40000000u), 0x0080);
    EQ(fmt_sfpstore(FMT_MOD0_BF16, 0x807FFFFFu), 0x8000);
    EQ(fmt_sfpstore(FMT_MOD0_BF16, 0x7FC00000u), 0x40FF); /* canonical NaN 0x7FC0 survives */
    EQ(fmt_sfpstore(FMT_MOD0_BF16, 0x7F800001u), 0x00FF); /* this NaN truncates to Inf 0x7F80 */
    EQ(fmt_sfpstore(FMT_MOD0_BF16, 0xFF7FFFFFu), 0xFFFE); /* -0xFF7F: no rounding up to -Inf */
    /* FP16: exponent - 112, <= 0 -> signed zero, > 31 -> all ones; mantissa truncated */
    EQ(fmt_sfpstore(FMT_MOD0_FP16, 0x3F800000u), 0x000F);
    EQ(fmt_sfpstore(FMT_MOD0_FP16, 0x3F802000u), 0x002F); /* fp16 0x3C01 */
    EQ(fmt_sfpstore(FMT_MOD0_FP16, 0x3F801FFFu), 0x000F);
    EQ(fmt_sfpstore(FMT_MOD0_FP16, 0x38000000u), 0x0000); /* 2^-15: exponent 0 -> flushed */
    EQ(fmt_sfpstore(FMT_MOD0_FP16, 0xB8400000u), 0x8000); /* 1.5 * -2^-15: flushed, sign kept */
    EQ(fmt_sfpstore(FMT_MOD0_FP16, 0x38800000u), 0x0001); /* 2^-14: exponent 1 */
    EQ(fmt_sfpstore(FMT_MOD0_FP16, 0x47800000u), 0x001F); /* 65536: exponent 31 kept */
    EQ(fmt_sfpstore(FMT_MOD0_FP16, 0x48000000u), 0x7FFF); /* saturates */
    EQ(fmt_sfpstore(FMT_MOD0_FP16, 0xFFC00000u), 0xFFFF); /* NaN -> -max */
    EQ(fmt_sfpstore(FMT_MOD0_FP16, 0x7F800000u), 0x7FFF); /* Inf -> max */
    /* FP32 (BH): denormals flushed */
    EQ(fmt_sfpstore(FMT_MOD0_FP32, 0x00000001u), 0);
    EQ(fmt_sfpstore(FMT_MOD0_FP32, 0x80000001u), 0x80000000u);
    EQ(fmt_sfpstore(FMT_MOD0_FP32, 0x3F800001u), 0x007F0001u);
    EQ(fmt_sfpstore(FMT_MOD0_FP32, 0x7FC00001u), 0x40FF0001u);
    /* INT32 keeps every bit (no flush even where the bits look like a denormal) */
    EQ(fmt_sfpstore(FMT_MOD0_INT32, 0x00000001u), 0x00000001u);
    EQ(fmt_sfpstore(FMT_MOD0_INT32, 0x12345678u), 0x34245678u);
    EQ(fmt_sfpstore(FMT_MOD0_INT32_SM, 0xFFFFFFFBu), fmt_dst_encode_fp32(0xFFFFFFFBu)); /* BH: no conversion */
    /* INT8: Integer "8" with the fixed exponent 16; -5 -> 0x8000 | 5 << 5 | 16 */
    EQ(fmt_sfpstore(FMT_MOD0_INT8, 0x80000005u), 0x80B0);
    EQ(fmt_sfpstore(FMT_MOD0_INT8, 0x0000012Cu), 0x2590);
    EQ(fmt_sfpstore(FMT_MOD0_INT8, 0x00000000u), 0x0010); /* exponent 16 even for 0 */
    EQ(fmt_sfpstore(FMT_MOD0_INT16, 0x80001234u), 0x9234);
    EQ(fmt_sfpstore(FMT_MOD0_UINT16, 0xABCD1234u), 0x1234);
    EQ(fmt_sfpstore(FMT_MOD0_LO16_ONLY, 0xABCD1234u), 0x1234);
    EQ(fmt_sfpstore(FMT_MOD0_HI16_ONLY, 0xABCD1234u), 0xABCD);
    EQ(fmt_sfpstore(FMT_MOD0_LO16, 0xAAAABBBBu), 0xBBBBAAAAu);
    EQ(fmt_sfpstore(FMT_MOD0_HI16, 0xAAAABBBBu), 0xAAAABBBBu);
    EQ(fmt_sfpstore(FMT_MOD0_ZERO, 0xAAAABBBBu), 0);
    /* Store then load: BF16 loses the low 16 bits, INT32/FP32 normals are exact */
    EQ(fmt_sfpload(FMT_MOD0_BF16, fmt_sfpstore(FMT_MOD0_BF16, 0xC0555555u), 0, false), 0xC0550000u);
    EQ(fmt_sfpload(FMT_MOD0_INT32, fmt_sfpstore(FMT_MOD0_INT32, 0x80000005u), 0, false), 0x80000005u);
}

static void test_sfploadi(void **state) {
    (void)state;
    uint32_t v = 0;
    assert_true(fmt_sfploadi(0, 0x3F80, 0, &v));
    EQ(v, 0x3F800000u);
    assert_true(fmt_sfploadi(1, 0x3C00, 0, &v));
    EQ(v, 0x3F800000u);
    assert_true(fmt_sfploadi(1, 0x0000, 0, &v)); /* no special case: exponent 0 + 112 = 2^-15 */
    EQ(v, 0x38000000u);
    assert_true(fmt_sfploadi(1, 0xFC00, 0, &v)); /* nor for 31: -1.0 * 2^16 */
    EQ(v, 0xC7800000u);
    assert_true(fmt_sfploadi(2, 0x8000, 0, &v));
    EQ(v, 0x00008000u);
    assert_true(fmt_sfploadi(4, 0x8000, 0, &v));
    EQ(v, 0xFFFF8000u);
    assert_true(fmt_sfploadi(8, 0xABCD, 0x12345678u, &v));
    EQ(v, 0xABCD5678u);
    assert_true(fmt_sfploadi(10, 0xABCD, 0x12345678u, &v));
    EQ(v, 0x1234ABCDu);
    assert_false(fmt_sfploadi(3, 0, 0, &v));
    assert_false(fmt_sfploadi(11, 0, 0, &v));
}

static uint32_t sr(unsigned mod1, unsigned rnd, uint32_t x, unsigned shift, uint32_t prng) {
    uint32_t out = 0xDEADBEEFu;
    assert_true(fmt_sfpstochrnd(mod1, rnd, x, shift, prng, &out));
    return out;
}

static void test_sfpstochrnd(void **state) {
    (void)state;
    /* FloatFloat, 7 bits (Mod1 1), round to nearest = threshold 0x400000 >> 7 = 0x8000: ties
     * go away from zero (an RNE tie would have stayed at 0x3F80). */
    EQ(sr(1, 0, 0x3F808000u, 0, 0), 0x3F810000u);
    EQ(sr(1, 0, 0x3F807FFFu, 0, 0), 0x3F800000u);
    EQ(sr(1, 0, 0xBF808000u, 0, 0), 0xBF810000u);
    EQ(sr(1, 0, 0x7F7FFFFFu, 0, 0), 0x7F800000u); /* carries into Inf */
    EQ(sr(1, 0, 0x807FFFFFu, 0, 0), 0x00000000u); /* denormal -> +0 */
    EQ(sr(1, 0, 0x80000000u, 0, 0), 0x00000000u); /* -0 -> +0 */
    EQ(sr(1, 0, 0xFFC00001u, 0, 0), 0xFF800000u); /* -NaN -> -Inf */
    EQ(sr(0, 0, 0x3F801000u, 0, 0), 0x3F802000u); /* 10 bits: threshold 0x1000 */
    EQ(sr(0, 0, 0x3F800FFFu, 0, 0), 0x3F800000u);
    /* Toward zero (2): threshold 0xFFFF; the all-ones remainder still rounds up (documented bug) */
    EQ(sr(1, 2, 0x3F80FFFFu, 0, 0), 0x3F810000u);
    EQ(sr(1, 2, 0x3F80FFFEu, 0, 0), 0x3F800000u);
    EQ(sr(0, 2, 0x3F801FFFu, 0, 0), 0x3F802000u);
    /* Stochastic (1 or 3): threshold = (prng & 0x7FFFFF) >> 7. A zero threshold rounds up even
     * an exact value (documented bug); 0x123456 >> 7 = 0x2468. High prng bits are ignored. */
    EQ(sr(1, 1, 0x3F800000u, 0, 0), 0x3F810000u);
    EQ(sr(1, 1, 0x3F802468u, 0, 0x00123456u), 0x3F810000u);
    EQ(sr(1, 3, 0x3F802467u, 0, 0xFF923456u), 0x3F800000u);
    EQ(sr(0, 1, 0x3F80048Cu, 0, 0x00123456u), 0x3F800000u); /* 10 bits: threshold 0x48D */
    EQ(sr(0, 1, 0x3F80048Du, 0, 0x00123456u), 0x3F802000u);
    /* FloatInt INT8 (3), nearest: 2.5 -> 3, -2.5 -> -3 (sign-magnitude), 0.5 -> 1, below -> 0 */
    EQ(sr(3, 0, 0x40200000u, 0, 0), 3);
    EQ(sr(3, 0, 0xC0200000u, 0, 0), 0x80000003u);
    EQ(sr(3, 0, 0x3F000000u, 0, 0), 1);
    EQ(sr(3, 0, 0x3EFFFFFFu, 0, 0), 0);
    EQ(sr(3, 0, 0xBEFFFFFFu, 0, 0), 0);           /* -0.49: 0 without sign */
    EQ(sr(3, 1, 0x3EFFFFFFu, 0, 0), 0);           /* |x| < 0.5 is 0 even when stochastic */
    EQ(sr(3, 0, 0x43480000u, 0, 0), 127);         /* 200 clamps */
    EQ(sr(3, 0, 0xC3480000u, 0, 0), 0x8000007Fu); /* -200 */
    EQ(sr(3, 0, 0x47887000u, 0, 0), 127);         /* 70000: exponent >= 16 */
    EQ(sr(3, 0, 0xFFC00000u, 0, 0), 0x8000007Fu); /* NaN: the maximum, sign kept */
    EQ(sr(2, 0, 0xC0400000u, 0, 0), 3);           /* UINT8: absolute value */
    EQ(sr(2, 0, 0x43800000u, 0, 0), 255);         /* 256 */
    EQ(sr(6, 0, 0x477FFF80u, 0, 0), 65535);       /* 65535.5 rounds to 65536, clamps */
    EQ(sr(7, 0, 0xC71C4000u, 0, 0), 0x80007FFFu); /* -40000 */
    /* Toward zero on the three values the BH page lists as rounding away */
    EQ(sr(3, 2, 0x3F7FFFFEu, 0, 0), 1); /* 0.9999998807907 */
    EQ(sr(3, 2, 0x3F7FFFFFu, 0, 0), 1); /* 0.9999999403954 */
    EQ(sr(3, 2, 0x3FFFFFFFu, 0, 0), 2); /* 1.999999880791 */
    EQ(sr(3, 2, 0x3FFFFFFEu, 0, 0), 1);
    /* IntInt: -100 >> 2 = -25; -100 >> 3 = -12.5 -> -13 (ties away); UINT8 drops the sign */
    EQ(sr(5, 0, 0x80000064u, 2, 0), 0x80000019u);
    EQ(sr(5, 0, 0x80000064u, 3, 0), 0x8000000Du);
    EQ(sr(5, 0, 0x80000064u, 34, 0), 0x80000019u); /* only the low 5 bits of the shift */
    EQ(sr(5, 0, 0x00001000u, 0, 0), 127);
    EQ(sr(4, 0, 0x80000400u, 0, 0), 255);
    EQ(sr(5, 0, 0x80000001u, 2, 0), 0); /* -0.25 -> 0 without sign */
    uint32_t out;
    assert_false(fmt_sfpstochrnd(8, 0, 0, 0, 0, &out));
}

static void test_sfpcast(void **state) {
    (void)state;
    EQ(fmt_sfpcast_sm32_to_fp32(0x00000001u, false, 0), 0x3F800000u);
    EQ(fmt_sfpcast_sm32_to_fp32(0x80000003u, false, 0), 0xC0400000u);
    EQ(fmt_sfpcast_sm32_to_fp32(0x00000000u, false, 0), 0x00000000u);
    EQ(fmt_sfpcast_sm32_to_fp32(0x80000000u, false, 0), 0x80000000u);
    /* 2^24 + 1 is a tie between 2^24 (even) and 2^24 + 2: stays; 2^24 + 3 ties up to + 4 */
    EQ(fmt_sfpcast_sm32_to_fp32(0x01000001u, false, 0), 0x4B800000u);
    EQ(fmt_sfpcast_sm32_to_fp32(0x01000003u, false, 0), 0x4B800002u);
    EQ(fmt_sfpcast_sm32_to_fp32(0x7FFFFFFFu, false, 0), 0x4F000000u); /* rounds to 2^31 */
    /* Stochastic: 2^24 + 1 normalises to 0x80000080, whose bits 1..7 are 0x80; it rounds up when
     * (prng >> 9) & 0xFE is below that: 0x7E yes, 0x80 no. */
    EQ(fmt_sfpcast_sm32_to_fp32(0x01000001u, true, 0x7Eu << 9), 0x4B800001u);
    EQ(fmt_sfpcast_sm32_to_fp32(0x01000001u, true, 0x80u << 9), 0x4B800000u);
    EQ(fmt_sfpcast_sm32_to_fp32(0x00000005u, true, 0), 0x40A00000u); /* exact: bits 1..7 zero */
    EQ(fmt_sfpcast_int_sm(0xFFFFFFFBu), 0x80000005u);
    EQ(fmt_sfpcast_int_sm(0x80000005u), 0xFFFFFFFBu);
    EQ(fmt_sfpcast_int_sm(0x80000000u), 0x80000000u); /* -2^31 <-> -0 */
    EQ(fmt_sfpcast_int_sm(0x00000005u), 0x00000005u);
}

/* ---- packer ----------------------------------------------------------------------------------- */

static fmt_pack_mode_t pmode(unsigned inter, unsigned out, bool r32) {
    fmt_pack_mode_t m = {.intermediate = (uint8_t)inter, .out_fmt = (uint8_t)out, .read_32b = r32};
    return m;
}

static uint32_t pack(const fmt_pack_mode_t *m, uint32_t dst) {
    assert_true(fmt_pack_check(m));
    return fmt_pack_late(m, fmt_pack_early(m, dst));
}

static void test_pack_bf16(void **state) {
    (void)state;
    /* add1: 16-bit BF16 Dst -> BF16 L1, Read_raw = 0 */
    fmt_pack_mode_t m = pmode(FMT_BF16, FMT_BF16, false);
    EQ(pack(&m, 0x007F), 0x3F80);
    EQ(pack(&m, 0x80FF), 0xFF80); /* -Inf */
    EQ(pack(&m, 0x40FF), 0x7F80); /* NaN 0x7FC0 -> Inf */
    EQ(pack(&m, 0xC1FF), 0xFF80); /* NaN 0xFFC1 -> -Inf */
    EQ(pack(&m, 0x7FFE), 0x7F7F); /* largest finite stays */
    EQ(pack(&m, 0x8100), 0x0000); /* denormal -0x0001 -> +0 */
    EQ(pack(&m, 0x8000), 0x0000); /* -0 -> +0 */
    EQ(pack(&m, 0x0001), 0x0080); /* smallest normal stays */
    /* the bounds of both flushes (BF16 order in, the Dst cell packed) */
    EQ(pack(&m, fmt_dst_encode_bf16(0x007F)), 0x0000); /* largest denormal -> +0 */
    EQ(pack(&m, fmt_dst_encode_bf16(0x807F)), 0x0000);
    EQ(pack(&m, fmt_dst_encode_bf16(0x7F80)), 0x7F80); /* Inf stays */
    EQ(pack(&m, fmt_dst_encode_bf16(0xFF81)), 0xFF80); /* smallest NaN -> -Inf */
    m.read_raw = true;                                 /* identity */
    EQ(pack(&m, 0x40FF), 0x7FC0);
    EQ(pack(&m, 0x8100), 0x8001);
    /* FP32 Dst -> BF16: NaN -> Inf, add 0x8000 (ties away from zero), then small -> +0 */
    m = pmode(FMT_BF16, FMT_BF16, true);
    EQ(pack(&m, fmt_dst_encode_fp32(0x3F808000u)), 0x3F81); /* tie: up (RNE would keep 0x3F80) */
    EQ(pack(&m, fmt_dst_encode_fp32(0xBF808000u)), 0xBF81);
    EQ(pack(&m, fmt_dst_encode_fp32(0x3F807FFFu)), 0x3F80);
    EQ(pack(&m, fmt_dst_encode_fp32(0x7F7FFFFFu)), 0x7F80); /* rounds to Inf */
    EQ(pack(&m, fmt_dst_encode_fp32(0x7FC00000u)), 0x7F80);
    EQ(pack(&m, fmt_dst_encode_fp32(0xFFFFFFFFu)), 0xFF80);
    EQ(pack(&m, fmt_dst_encode_fp32(0x007FFFFFu)), 0x0080); /* rounds up into the normals first */
    EQ(pack(&m, fmt_dst_encode_fp32(0x007F7FFFu)), 0x0000);
    EQ(pack(&m, fmt_dst_encode_fp32(0x80000000u)), 0x0000);
    m.read_raw = true; /* truncation */
    EQ(pack(&m, fmt_dst_encode_fp32(0x3F80FFFFu)), 0x3F80);
    EQ(pack(&m, fmt_dst_encode_fp32(0x7F800001u)), 0x7F80);
    /* FP32 -> FP32, and FP32 -> BF16 by the late conversion (truncate, flush) */
    m = pmode(FMT_FP32, FMT_FP32, true);
    EQ(pack(&m, 0x007F0001u), 0x3F800001u);
    m = pmode(FMT_FP32, FMT_BF16, true);
    EQ(pack(&m, fmt_dst_encode_fp32(0x3F80FFFFu)), 0x3F80);
    EQ(pack(&m, fmt_dst_encode_fp32(0x807FFFFFu)), 0x0000);
    /* BF16 -> FP32 / TF32 widen */
    m = pmode(FMT_BF16, FMT_FP32, false);
    EQ(pack(&m, 0x007F), 0x3F800000u);
    m = pmode(FMT_BF16, FMT_TF32, false);
    EQ(pack(&m, 0x007F), 0x3F800000u);
    /* TF32: rounding (ties away, flush) or raw identity */
    m = pmode(FMT_TF32, FMT_TF32, true);
    EQ(pack(&m, fmt_dst_encode_fp32(0x3F801000u)), 0x3F802000u);
    EQ(pack(&m, fmt_dst_encode_fp32(0x3F800FFFu)), 0x3F800000u);
    EQ(pack(&m, fmt_dst_encode_fp32(0x80001000u)), 0x00000000u);
    m.read_raw = true;
    EQ(pack(&m, fmt_dst_encode_fp32(0x3F800FFFu)), 0x3F800FFFu);
    m = pmode(FMT_FP32, FMT_FP32, true); /* FP32 with Round_10b_mant: TF32 rounding */
    m.round_10b_mant = true;
    EQ(pack(&m, fmt_dst_encode_fp32(0x3F801000u)), 0x3F802000u);
}

/* fmt_pack_rows16 (a row form: the SSE2 loop on an SSE2 host for BF16 -> BF16, gcc's loop of the
 * rule otherwise) against the per-datum conversions on every 16-bit Dst cell, four rows a call,
 * the modes with a loop of their own and two without (Read_raw, FP16 with Round_10b_mant). */
static void test_pack_rows16(void **state) {
    (void)state;
    fmt_pack_mode_t modes[4] = {pmode(FMT_BF16, FMT_BF16, false), pmode(FMT_FP16, FMT_FP16, false),
                                pmode(FMT_BF16, FMT_BF16, false), pmode(FMT_FP16, FMT_FP16, false)};
    modes[2].read_raw = true;
    modes[3].round_10b_mant = true;
    for (unsigned i = 0; i < 4; i++) {
        const fmt_pack_mode_t *m = &modes[i];
        for (unsigned base = 0; base < 0x10000; base += 4 * FMT_ROW) {
            uint16_t cells[4 * FMT_ROW], out[4 * FMT_ROW];
            for (unsigned k = 0; k < 4 * FMT_ROW; k++)
                cells[k] = (uint16_t)(base + k);
            fmt_pack_rows16(m, cells, out, 4);
            for (unsigned k = 0; k < 4 * FMT_ROW; k++) {
                uint16_t want = (uint16_t)fmt_pack_late(m, fmt_pack_early(m, cells[k]));
                if (out[k] != want)
                    fail_msg("mode %u: cell 0x%04x -> 0x%04x, per datum 0x%04x", i, cells[k], out[k], want);
            }
        }
    }
}

static void test_pack_fp16(void **state) {
    (void)state;
    fmt_pack_mode_t m = pmode(FMT_FP16, FMT_FP16, false);
    EQ(pack(&m, 0x000F), 0x3C00);
    EQ(pack(&m, 0x0020), 0x0000); /* denormal 0x0001 flushed */
    EQ(pack(&m, 0x8000), 0x0000); /* -0 -> +0 */
    EQ(pack(&m, 0x7FFF), 0x7FFF);
    m.read_raw = true;
    EQ(pack(&m, 0x0020), 0x0001);
    /* FP16 -> FP32: rebias; exponent 0 only widens (mishandled denormal) */
    m = pmode(FMT_FP16, FMT_FP32, false);
    EQ(pack(&m, 0x000F), 0x3F800000u);
    EQ(pack(&m, 0x7FFF), 0x47FFE000u);
    m.read_raw = true;
    EQ(pack(&m, 0x0020), 0x00002000u);
    /* FP16 -> BF16: rebias, truncate to 7 mantissa bits (0x3C08 -> mantissa 8 >> 3 = 1) */
    m = pmode(FMT_FP16, FMT_BF16, false);
    EQ(pack(&m, fmt_dst_encode_fp16(0x3C00)), 0x3F80);
    EQ(pack(&m, fmt_dst_encode_fp16(0x3C07)), 0x3F80);
    EQ(pack(&m, fmt_dst_encode_fp16(0xBC08)), 0xBF81);
    /* FP16 -> FP8: E5M2 truncates to the top byte; E4M3 rebias -8, <= 8 -> 0, >= 24 -> max */
    m = pmode(FMT_FP16, FMT_FP8, false);
    EQ(pack(&m, fmt_dst_encode_fp16(0x3CFF)), 0x3C);
    m.fp8_e4m3 = true;
    EQ(pack(&m, fmt_dst_encode_fp16(0x3C00)), 0x38); /* exponent 15 - 8 = 7 */
    EQ(pack(&m, fmt_dst_encode_fp16(0x3DFF)), 0x3B); /* mantissa 0x1FF >> 7 = 3 */
    EQ(pack(&m, fmt_dst_encode_fp16(0xA3FF)), 0x80); /* exponent 8 -> -0 */
    EQ(pack(&m, fmt_dst_encode_fp16(0x6000)), 0x7F); /* exponent 24 -> max */
    /* BH: FP32 Dst -> FP16 through TF32 rounding (Round_10b_mant) */
    m = pmode(FMT_FP16, FMT_FP16, true);
    assert_false(fmt_pack_check(&m));
    m.round_10b_mant = true;
    EQ(pack(&m, fmt_dst_encode_fp32(0x3F800000u)), 0x3C00);
    EQ(pack(&m, fmt_dst_encode_fp32(0x3F801000u)), 0x3C01); /* tie: away from zero */
    EQ(pack(&m, fmt_dst_encode_fp32(0x38400000u)), 0x0200); /* exponent 112: mishandled */
    EQ(pack(&m, fmt_dst_encode_fp32(0xB7800000u)), 0x8000); /* 2^-16: signed zero */
    EQ(pack(&m, fmt_dst_encode_fp32(0x7FC00000u)), 0x7FFF); /* NaN -> Inf -> max */
    /* BH: BF16 Dst -> FP16 intermediate with Round_10b_mant */
    m = pmode(FMT_FP16, FMT_FP16, false);
    m.round_10b_mant = true;
    EQ(pack(&m, fmt_dst_encode_bf16(0x3F81)), 0x3C08);
    EQ(pack(&m, fmt_dst_encode_bf16(0x7F80)), 0x7FFF);
    /* FP32 -> FP16 late conversion (BH) */
    m = pmode(FMT_FP32, FMT_FP16, true);
    EQ(pack(&m, fmt_dst_encode_fp32(0x3F801FFFu)), 0x3C00);
    EQ(pack(&m, fmt_dst_encode_fp32(0xC8000000u)), 0xFFFF);
}

static void test_pack_int_and_e6(void **state) {
    (void)state;
    /* INT32 Dst -> INT8: raw low bits, or shift + round (ties away) + saturate */
    fmt_pack_mode_t m = pmode(FMT_INT8, FMT_INT8, true);
    EQ(pack(&m, fmt_dst_encode_fp32(0x00000005u)), 0x05);
    EQ(pack(&m, fmt_dst_encode_fp32(0x8000012Cu)), 0xFF); /* -300 -> -127 */
    EQ(pack(&m, fmt_dst_encode_fp32(0x0000012Cu)), 0x7F);
    m.int_shift = 1;
    EQ(pack(&m, fmt_dst_encode_fp32(0x80000005u)), 0x83); /* -2.5 -> -3 */
    EQ(pack(&m, fmt_dst_encode_fp32(0x80000001u)), 0x81); /* -0.5 -> -1 */
    m.int_shift = 2;
    EQ(pack(&m, fmt_dst_encode_fp32(0x80000001u)), 0x80); /* -0.25 -> 0, sign kept [SIM] */
    m.int_shift = 31;
    EQ(pack(&m, fmt_dst_encode_fp32(0x7FFFFFFFu)), 0x01);
    m.read_unsigned = true, m.int_shift = 0;
    EQ(pack(&m, fmt_dst_encode_fp32(0x0000012Cu)), 0xFF);
    EQ(pack(&m, fmt_dst_encode_fp32(0x80000005u)), 0x00); /* negative -> 0 */
    m.read_raw = true;
    EQ(pack(&m, fmt_dst_encode_fp32(0x8000012Cu)), 0x2C); /* low 8 bits of magnitude */
    m.read_unsigned = false;
    EQ(pack(&m, fmt_dst_encode_fp32(0x800001ACu)), 0xAC); /* sign and low 7 bits */
    m = pmode(FMT_INT32, FMT_INT32, true);
    EQ(pack(&m, 0x34245678u), 0x12345678u);
    m = pmode(FMT_INT16, FMT_INT16, false);
    EQ(pack(&m, 0x9234), 0x9234);
    m = pmode(FMT_INT16, FMT_INT16, true);
    EQ(pack(&m, 0x9234ABCDu), 0x9234); /* raw high half [SIM] */
    /* E8M6 (BFP8 intermediate): round the 7th mantissa bit away, half up */
    m = pmode(FMT_BFP8, FMT_BF16, false);
    EQ(pack(&m, fmt_dst_encode_bf16(0x3F81)), 0x3F82);
    EQ(pack(&m, fmt_dst_encode_bf16(0x3F82)), 0x3F82);
    EQ(pack(&m, fmt_dst_encode_bf16(0x3F83)), 0x3F84);
    m = pmode(FMT_BFP8, FMT_BFP8, true);
    EQ(pack(&m, fmt_dst_encode_fp32(0x3F81FFFFu)), 0x3F82);
    EQ(pack(&m, fmt_dst_encode_fp32(0x3F80FFFFu)), 0x3F80);
    /* E5M6 (BFP8a intermediate): +8, clear 4 bits; the top saturates first */
    m = pmode(FMT_BFP8A, FMT_BFP8A, false);
    EQ(pack(&m, fmt_dst_encode_fp16(0x3C07)), 0x3C00);
    EQ(pack(&m, fmt_dst_encode_fp16(0x3C08)), 0x3C10);
    EQ(pack(&m, fmt_dst_encode_fp16(0x7FF8)), 0x7FF0);
    m = pmode(FMT_BFP8A, FMT_BFP8, false); /* late: fp16 -> bf16 pattern */
    EQ(pack(&m, fmt_dst_encode_fp16(0x3C08)), 0x3F82);
    /* checks */
    m = pmode(FMT_INT8, FMT_INT8, false);
    assert_false(fmt_pack_check(&m));
    m = pmode(FMT_BF16, FMT_INT8, false);
    assert_false(fmt_pack_check(&m));
    m = pmode(12, 12, false);
    assert_false(fmt_pack_check(&m));
    m = pmode(FMT_INT8, FMT_INT8, true);
    m.int_shift = 32;
    assert_false(fmt_pack_check(&m));
}

/* ---- block floats ----------------------------------------------------------------------------- */

static void test_bfp(void **state) {
    (void)state;
    /* Unpack (BFP8ToBF16): datum 0x40 = 64/64 = 1.0 at exponent 127; 0x01 = 2^-6 (exponent 121);
     * 0x80 is -0 = -Inf; BFP4 0x5 = 5/4 -> 1.25 (0x3FA0); BFP2 0x3 = -1 at exponent 130 = -8. */
    EQ(fmt_bfp_unpack(FMT_BFP8, 0x40, 127), 0x3F80);
    EQ(fmt_bfp_unpack(FMT_BFP8, 0x01, 127), 0x3C80);
    EQ(fmt_bfp_unpack(FMT_BFP8, 0x7F, 127), 0x3FFE); /* 127/64 = 1.984375 */
    EQ(fmt_bfp_unpack(FMT_BFP8, 0x80, 127), 0xFF80);
    EQ(fmt_bfp_unpack(FMT_BFP8, 0x00, 127), 0x0000);
    EQ(fmt_bfp_unpack(FMT_BFP4, 0x5, 127), 0x3FA0);
    EQ(fmt_bfp_unpack(FMT_BFP2, 0x3, 130), 0xC100);
    EQ(fmt_bfp_unpack(FMT_BFP8A, 0x40, 15), 0x3C00);
    EQ(fmt_bfp_unpack(FMT_BFP8A, 0x80, 15), 0xFC00);
    EQ(fmt_bfp_unpack(FMT_BFP4A, 0xD, 16), 0xC100); /* -5/4 * 2 = -2.5 */
    EQ(fmt_bfp_unpack(FMT_BFP8, 0x01, 2), 0x7E00);  /* exponent 2 - 6 wraps to 252 (uint8) */

    /* Pack: max exponent 128 (2.0). Mantissas with the implicit bit: 2.0 0x80 (shift 0) ->
     * (0x80+1)>>1 = 0x40; 1.0 0x80 (shift 1) -> (0x80+2)>>2 = 0x20; 1.5 0xC0 -> 0x30; -0.75
     * 0xC0 (shift 2) -> (0xC0+4)>>3 = 0x18 | sign; 0x3F82 (1.015625, shift 1) -> (0x82+2)>>2 = 0x21
     * (32.5 ties away); 0x3F81 -> 0x20; 0x407F (0xFF, shift 0) -> 0x80, clamped to 0x7F; 2^-10
     * (shift 11) -> 0; 0 -> 0; -0 stays 0 (no sign without magnitude). */
    uint16_t in[16] = {0x4000, 0x3F80, 0x3FC0, 0xBF40, 0x3F82, 0x3F81, 0x407F, 0x3A80,
                       0x0000, 0x8000, 0x4000, 0x4000, 0x4000, 0x4000, 0x4000, 0x4000};
    static const uint8_t want8[16] = {0x40, 0x20, 0x30, 0x98, 0x21, 0x20, 0x7F, 0x00,
                                      0x00, 0x00, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40};
    static const uint8_t want4[16] = {0x4, 0x2, 0x3, 0x9, 0x2, 0x2, 0x7, 0x0, 0x0, 0x0, 0x4, 0x4, 0x4, 0x4, 0x4, 0x4};
    static const uint8_t want2[16] = {0x1, 0x0, 0x0, 0x0, 0x0, 0x0, 0x1, 0x0, 0x0, 0x0, 0x1, 0x1, 0x1, 0x1, 0x1, 0x1};
    fmt_bfp_block_t blk;
    fmt_bfp_pack(FMT_BFP8, in, &blk);
    EQ(blk.exp, 128);
    for (int j = 0; j < 16; j++)
        EQ(blk.datum[j], want8[j]);
    fmt_bfp_pack(FMT_BFP4, in, &blk);
    EQ(blk.exp, 128);
    for (int j = 0; j < 16; j++)
        EQ(blk.datum[j], want4[j]);
    fmt_bfp_pack(FMT_BFP2, in, &blk);
    for (int j = 0; j < 16; j++)
        EQ(blk.datum[j], want2[j]);

    /* _a family: fp16 1.0 (exponent 15) x16 -> exponent 15, datums 0x40 */
    uint16_t ones[16];
    for (int j = 0; j < 16; j++)
        ones[j] = 0x3C00;
    ones[3] = 0xBA00; /* -0.75: exponent 14, E5M7 mantissa 0x40 -> (0xC0+2)>>2 = 0x30 | sign */
    fmt_bfp_pack(FMT_BFP8A, ones, &blk);
    EQ(blk.exp, 15);
    EQ(blk.datum[0], 0x40);
    EQ(blk.datum[3], 0xB0);
    EQ(fmt_bfp_unpack(FMT_BFP8A, blk.datum[3], blk.exp), 0xBA00);

    /* Round trip: values with at most 6 mantissa bits below the leading 1, all in one binade,
     * pack and unpack exactly (BFP8 holds 1.xxxxxx). */
    uint16_t v[16];
    for (int j = 0; j < 16; j++)
        v[j] = (uint16_t)(((j & 1) << 15) | (130 << 7) | ((j * 4) & 0x7E));
    fmt_bfp_pack(FMT_BFP8, v, &blk);
    for (int j = 0; j < 16; j++)
        EQ(fmt_bfp_unpack(FMT_BFP8, blk.datum[j], blk.exp), v[j]);
}

/* ---- RISC-V window onto Dst -------------------------------------------------------------------- */

static uint32_t rvl(unsigned fmt, unsigned size, bool nosw, bool uns, uint32_t cell) {
    uint32_t out = 0xDEADBEEFu;
    assert_true(fmt_rvdst_load(fmt, size, nosw, uns, cell, &out));
    return out;
}

static uint32_t rvs(unsigned fmt, unsigned size, bool nosw, bool uns, uint32_t v) {
    uint32_t cell = 0xDEADBEEFu;
    assert_true(fmt_rvdst_store(fmt, size, nosw, uns, v, &cell));
    return cell;
}

static void test_rvdst(void **state) {
    (void)state;
    EQ(rvl(0, 4, false, false, 0x007F0001u), 0x3F800001u);
    EQ(rvl(0, 4, true, false, 0x007F0001u), 0x007F0001u);
    EQ(rvl(1, 4, false, false, 0x80000005u), 0xFFFFFFFBu); /* -5 */
    EQ(rvl(1, 4, false, false, 0x80000000u), 0x00000000u); /* -0 -> +0 */
    EQ(rvl(1, 4, false, false, 0x34245678u), 0x12345678u);
    EQ(rvs(1, 4, false, false, 0xFFFFFFFBu), 0x80000005u);
    EQ(rvs(1, 4, false, false, 0x80000000u), 0xFFFFFFFFu); /* -2^31 -> -(2^31-1), shuffled */
    EQ(rvs(0, 4, false, false, 0x3F800001u), 0x007F0001u);
    EQ(rvl(2, 2, false, false, 0x000F), 0x3C00);
    EQ(rvl(3, 2, false, false, 0x007F), 0x3F80);
    EQ(rvl(3, 2, true, false, 0x007F), 0x007F);
    EQ(rvl(4, 2, false, false, 0x8005), 0xFFFB);
    EQ(rvl(4, 2, false, true, 0x8005), 0x8005);
    EQ(rvl(4, 2, false, false, 0x8000), 0x0000);
    EQ(rvs(2, 2, false, false, 0x3C00), 0x000F);
    EQ(rvs(3, 2, false, false, 0x3F80), 0x007F);
    EQ(rvs(4, 2, false, false, 0xFFFB), 0x8005);
    EQ(rvs(4, 2, false, false, 0x8000), 0xFFFF); /* -2^15 clamps */
    EQ(rvs(4, 2, false, true, 0xFFFB), 0xFFFB);
    /* 8-bit: Integer "8" cells */
    EQ(rvl(5, 1, false, false, 0x80B0), 0xFB); /* -5 */
    EQ(rvl(5, 1, false, true, 0x80B0), 0x05);
    EQ(rvl(5, 1, false, true, 0x1910), 0xC8);  /* 200 */
    EQ(rvl(5, 1, false, false, 0x1910), 0x48); /* 7 magnitude bits: 200 & 0x7F */
    EQ(rvs(5, 1, false, false, 0x05), 0x00B0);
    EQ(rvs(5, 1, false, false, 0x00), 0x0000); /* exponent 0 for zero */
    EQ(rvs(5, 1, false, true, 0xC8), 0x1910);
    /* The page's wrong conversion: -5 (0xFB) -> magnitude (0x180 - 0xFB) & 0xFF = 0x85;
     * -128 -> 0x180 - 0x80 - 1 = 0xFF. Loading back -5 still gives -5 (7 magnitude bits). */
    EQ(rvs(5, 1, false, false, 0xFB), 0x90B0);
    EQ(rvs(5, 1, false, false, 0x80), 0x9FF0);
    EQ(rvl(5, 1, false, false, 0x90B0), 0xFB);
    uint32_t x;
    assert_false(fmt_rvdst_load(2, 4, false, false, 0, &x));
    assert_false(fmt_rvdst_load(5, 2, false, false, 0, &x));
    assert_false(fmt_rvdst_load(6, 2, false, false, 0, &x));
    assert_false(fmt_rvdst_load(0, 3, false, false, 0, &x));
    assert_false(fmt_rvdst_store(1, 2, false, false, 0, &x));
    assert_false(fmt_rvdst_store(4, 1, false, false, 0, &x));
    assert_false(fmt_rvdst_store(7, 4, false, false, 0, &x));
}

/* ---- add1 end to end (DATAPATH.md §0): bf16 in L1 -> Src -> Dst -> LReg -> +1 -> Dst -> L1 ----- */

static void test_add1_path(void **state) {
    (void)state;
    fmt_unpack_mode_t um = {.in_fmt = FMT_BF16, .out_fmt = FMT_BF16};
    fmt_pack_mode_t pm = pmode(FMT_BF16, FMT_BF16, false);
    /* Without arithmetic (the +1 is the SFPU's): the path is the identity on normal bf16, and the
     * packer's clamps on the rest: NaN -> ±Inf, denormals and -0 -> +0 (SFPSTORE flushes to -0
     * first, the packer then to +0). */
    for (uint32_t b = 0; b < 0x10000; b++) {
        uint32_t src = fmt_unpack(&um, b, 0);
        uint16_t cell = fmt_mova2d_dst16(src, FMT_STYLE_BF16, false);
        uint32_t lreg = fmt_sfpload(FMT_MOD0_BF16, cell, 0, false);
        uint16_t back = (uint16_t)fmt_sfpstore(FMT_MOD0_BF16, lreg);
        uint32_t out = pack(&pm, back);
        uint32_t want = b;
        if ((b & 0x7FFF) > 0x7F80)
            want = (b & 0x8000) | 0x7F80;
        else if ((b & 0x7FFF) < 0x80)
            want = 0;
        EQ(out, want);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_sizes),
        cmocka_unit_test(test_classify_and_flush),
        cmocka_unit_test(test_fp32_to_bf16),
        cmocka_unit_test(test_fp32_to_fp16),
        cmocka_unit_test(test_fp16_to_fp32),
        cmocka_unit_test(test_fp32_to_tf32),
        cmocka_unit_test(test_brute_force_widening),
        cmocka_unit_test(test_brute_force_round_trips),
        cmocka_unit_test(test_brute_force_narrowing),
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_src_layout),
        cmocka_unit_test(test_dst_layout),
        cmocka_unit_test(test_unpack_float),
        cmocka_unit_test(test_unpack_int_fp8_bfp),
        cmocka_unit_test(test_unpack_check),
        cmocka_unit_test(test_mova2d),
        cmocka_unit_test(test_movd2src),
        cmocka_unit_test(test_sfp_mod0),
        cmocka_unit_test(test_sfpload),
        cmocka_unit_test(test_sfpstore),
        cmocka_unit_test(test_sfploadi),
        cmocka_unit_test(test_sfpstochrnd),
        cmocka_unit_test(test_sfpcast),
        cmocka_unit_test(test_pack_bf16),
        cmocka_unit_test(test_pack_rows16),
        cmocka_unit_test(test_pack_fp16),
        cmocka_unit_test(test_pack_int_and_e6),
        cmocka_unit_test(test_bfp),
        cmocka_unit_test(test_rvdst),
        cmocka_unit_test(test_add1_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
