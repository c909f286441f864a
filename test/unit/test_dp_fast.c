/* test/unit/test_dp_fast.c — the datapath's fast paths against its general path. The fast paths
 * (the unit files of coproc/: whole Dst rows, Src rows and the Vector Unit's 32 lanes at once, the conversions of
 * coproc/formats.c over a row, Blackhole's FMA over 32 lanes) must give exactly what the
 * datum-by-datum path gives. Two ways:
 *  - the row and lane forms of the conversions against their per-datum functions, for every mode,
 *    on random and edge inputs (NaN, infinities, denormals, signed zeros, rounding ties);
 *  - twin datapaths, one with dp_set_reference (every instruction through its general path), given
 *    the same register files, L1 and configuration, random where a fast path's conditions allow it
 *    and sometimes where they do not; every instruction word run on both must leave the same
 *    register files, counters, L1 and error.
 * Breaking a fast path (a wrong rule, a missed condition) fails these; see the commit messages. */
#include <float.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coproc/datapath.h"
/* (White box for test_setup_keys: the kept setups' keys, dp_key_t.) */
#include "coproc/dp_internal.h"
#include "coproc/fma.h"
#include "coproc/formats.h"
#include "coproc/fpu_num.h"
#include "coproc/state.h"
#include "coproc/tt_fields.h"
#include "dp_events.h"

/* ---- random inputs -------------------------------------------------------------------------- */

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint32_t rnd(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}
static uint32_t rnd_below(uint32_t n) { return rnd() % n; }

/* FP32 patterns worth a test: zeros, denormals, the normal range's ends, infinities, NaNs (quiet,
 * signalling, negative), one and its neighbours, and values whose sums tie (2^-24, 3 * 2^-25). */
static const uint32_t edge32[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x807FFFFFu, 0x00400000u, 0x00800000u, 0x80800000u, 0x7F7FFFFFu, 0xFF7FFFFFu,
    0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFBFFFFFu, 0x3F800000u, 0xBF800000u, 0x3F800001u,
    0x3F7FFFFFu, 0x33800000u, 0x33C00000u, 0xB3800000u, 0x4B000000u, 0x4B7FFFFFu, /* check_fields: not a field */
    0x3F808000u, 0x3F818000u, 0x477FE000u, 0x38800000u, 0x387FE000u, 0x37800000u, 0xC7800000u, 0x3FFFFFFFu,
};

/* A 32-bit datum: an edge value, a bf16-like pattern (kernels load those), one near 1.0, or any bits. */
static uint32_t rnd32(void) {
    switch (rnd_below(5)) {
    case 0: return edge32[rnd_below(sizeof edge32 / sizeof edge32[0])] ^ (rnd_below(4) == 0 ? rnd() & 0x80000000u : 0);
    case 1: return rnd() & 0xFFFF0000u;
    case 2: return (rnd() & 0x807FFFFFu) | ((118u + rnd_below(20)) << 23);
    default: return rnd();
    }
}

/* ---- MVMUL's sums: fpu_dot16 and its row form against the reference model ------------------ */

/* fpu_dot16 as it was before its operands were decomposed once per instruction (fpu_mop_a,
 * fpu_mop_b): the rule of coproc/fpu_num.h written out product by product, the model the fast
 * form must match bit for bit. */
static uint32_t ref_dot16(const uint32_t a[16], const uint32_t b[16], uint32_t dst, fpu_acc_t acc, unsigned phase) {
    int32_t adj = acc.exp8 ? -127 : acc.fp32 ? 127 - 30 : -15;
    if (phase & 1) adj -= 5;
    if (phase & 2) adj -= 7;
    int32_t zexp = adj > 0 ? adj : 0, exps[16];
    uint32_t mans[16], signs[16];
    for (unsigned k = 0; k < 16; k++) {
        bool zero = (a[k] & 0x3FC00u) == 0 || (b[k] & 0x3FC00u) == 0;
        uint32_t ma = (a[k] & 0x3FFu) | 0x400u, mb = (b[k] & 0x3FFu) | 0x400u;
        ma = (phase & 1) ? (ma >> 1) & 31u : ma >> 6;
        mb = (phase & 2) ? (mb & 15u) << 3 : mb >> 4;
        exps[k] = zero ? zexp : (int32_t)((a[k] >> 10) & 0xFFu) + (int32_t)((b[k] >> 10) & 0xFFu) + adj;
        mans[k] = zero ? 0 : ma * mb;
        signs[k] = zero ? 0 : ((a[k] ^ b[k]) >> 18) & 1;
    }
    fpu_term_t t[2] = {{0, 0, 0}, {0, 0, 0}};
    for (unsigned g = 0; g < 2; g++) {
        int32_t e = exps[8 * g];
        for (unsigned k = 8 * g; k < 8 * g + 8; k++)
            e = exps[k] > e ? exps[k] : e;
        if (e <= 0) continue;
        int64_t sum = 0;
        for (unsigned k = 8 * g; k < 8 * g + 8; k++) {
            unsigned d = (unsigned)(e - exps[k]);
            uint32_t m = d == 0 ? mans[k] : d > 30 ? 0 : (mans[k] + (1u << (d - 1))) >> d; /* half up */
            sum += signs[k] ? -(int64_t)m : (int64_t)m;
        }
        t[g].exp = e;
        if (sum < 0) t[g].sign = 1, sum = -sum;
        t[g].man = (uint32_t)sum << 13;
    }
    return fpu_accumulate(t, 2, dst, acc);
}

/* A 19-bit Src operand (sign, exponent, 10-bit mantissa) worth a test: near a given exponent (so
 * that the products of a group are aligned by every distance, ties included), an edge exponent
 * (0 with and without a mantissa, 1, 254, 255) or any bits; 5-bit exponents for FP16 style. */
static uint32_t rnd_src19(int32_t near, bool exp5) {
    uint32_t s = rnd() & 0x40000u, m = rnd() & 0x3FFu, e;
    switch (rnd_below(6)) {
    case 0: e = (uint32_t[]){0, 0, 1, 254, 255, 31, 30, 127}[rnd_below(8)]; break;
    case 1: e = rnd() & 0xFFu; break;
    case 2: m &= rnd_below(2) ? 0x3C0u : 0x3E0u, e = (uint32_t)(near + (int32_t)rnd_below(12)); break;
    default: e = (uint32_t)(near + (int32_t)rnd_below(6)); break;
    }
    if (exp5) e &= 31u;
    return s | (e & 0xFFu) << 10 | m;
}

/* Built twice (Makefile): as test_dp_fast, with the vector forms (the products' sums, the lane
 * conversions, masks and blend, the FMA's four-lane rule) where the host has SSE2 and the
 * little-endian forms (L1's rows and Dst's pairs of cells as host words), and as
 * test_dp_fast_nosimd with the plain and portable forms (-DTTEMU_NO_SIMD); each must have linked the forms it
 * was built for, or one of them would go untested. */
static void test_dot16_form(void **state) {
    (void)state;
#if defined(__SSE2__) && !defined(TTEMU_NO_SIMD)
    assert_string_equal(fpu_dot16_form(), "sse2");
    assert_string_equal(fpu_elwadd_form(), "sse2");
    assert_string_equal(fpu_elwmul_form(), "sse2");
    assert_string_equal(fmt_simd_form(), "sse2");
    assert_string_equal(fma_lanes_form(), "sse2");
#else
    assert_string_equal(fpu_dot16_form(), "plain");
    assert_string_equal(fpu_elwadd_form(), "plain");
    assert_string_equal(fpu_elwmul_form(), "plain");
    assert_string_equal(fmt_simd_form(), "plain");
    assert_string_equal(fma_lanes_form(), "plain");
#endif
    /* The byte-order forms (formats.h FMT_HOST_LE): the host's words in place on this host, the
     * portable byte-by-byte forms under -DTTEMU_NO_SIMD (or on a big-endian host). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !defined(TTEMU_NO_SIMD)
    const char *bo = "le";
#else
    const char *bo = "portable";
#endif
    assert_string_equal(fmt_byte_order_form(), bo);
    assert_string_equal(dp_pack_byte_order_form(), bo);
    assert_string_equal(dp_sfpu_byte_order_form(), bo);
    assert_string_equal(dp_unpack_byte_order_form(), bo);
}

static void test_dot16(void **state) {
    (void)state;
    for (unsigned iter = 0; iter < 40000; iter++) {
        fpu_acc_t acc = {.fp32 = rnd_below(4) != 0, .exp8 = rnd_below(4) != 0};
        unsigned phase = rnd_below(4);
        int32_t near = acc.exp8 ? (int32_t)rnd_below(250) : (int32_t)rnd_below(28);
        /* Operands read as zero: few, half, or most (whole groups of zero products). */
        unsigned zeros = (unsigned[]){1, 8, 15}[rnd_below(3)];
        uint32_t a[16][16], b[16], dst[16], ref[16];
        fpu_mops_t am[16], bm; /* am[k]: row k of the block (column j's operand k at j) */
        for (unsigned k = 0; k < 16; k++) {
            b[k] = rnd_below(16) >= zeros ? rnd_src19(near, !acc.exp8) : rnd() & 0x403FFu;
            fpu_mop_b(&bm, k, b[k], phase, fpu_prod_adj(acc, phase));
        }
        for (unsigned j = 0; j < 16; j++) {
            for (unsigned k = 0; k < 16; k++)
                a[j][k] = rnd_below(16) >= zeros ? rnd_src19(near, !acc.exp8) : rnd() & 0x403FFu,
                fpu_mop_a(&am[k], j, a[j][k], phase);
            dst[j] = rnd32();
            if (!acc.fp32) dst[j] &= acc.exp8 ? 0xFFFF0000u : 0x8FFFE000u;
            ref[j] = ref_dot16(a[j], b, dst[j], acc, phase);
            uint32_t got = fpu_dot16(a[j], b, dst[j], acc, phase);
            if (got != ref[j])
                fail_msg("fpu_dot16 phase %u fp32 %d exp8 %d col %u: 0x%08x, model 0x%08x", phase, acc.fp32, acc.exp8,
                         j, got, ref[j]);
        }
        fpu_dot16_rows(am, &bm, dst, acc, phase);
        for (unsigned j = 0; j < 16; j++)
            if (dst[j] != ref[j])
                fail_msg("fpu_dot16_rows phase %u fp32 %d exp8 %d col %u: 0x%08x, model 0x%08x", phase, acc.fp32,
                         acc.exp8, j, dst[j], ref[j]);
    }
}

/* ---- ELWADD / ELWSUB: fpu_elwadd_row against fpu_elwadd datum by datum --------------------- */

/* A Src datum (sign << 18 | mantissa << 8 | exponent) with exponent e, or an edge one. */
static uint32_t rnd_src_datum(uint32_t e, uint32_t man) {
    return (rnd() & 0x40000u) | (man & 0x3FFu) << 8 | (e & 0xFFu);
}
static void test_elwadd_row(void **state) {
    (void)state;
    static const fmt_style_t styles[] = {FMT_STYLE_BF16, FMT_STYLE_FP16, FMT_STYLE_TF32};
    static const unsigned scales[] = {0, 5, 7, 12};
    for (unsigned iter = 0; iter < 200000; iter++) {
        fmt_style_t sa = styles[rnd_below(3)], sb = rnd_below(2) ? sa : styles[rnd_below(3)];
        fpu_acc_t acc = {.fp32 = rnd_below(2) != 0, .exp8 = rnd_below(3) != 0};
        bool sub = rnd_below(2), flush_b = rnd_below(4) != 0;
        unsigned scale = scales[rnd_below(4)];
        uint32_t emax = sa == FMT_STYLE_FP16 ? 31 : 255;
        uint32_t a[16], b[16], out[16];
        for (unsigned j = 0; j < 16; j++) {
            uint32_t ea =
                rnd_below(8) == 0 ? (uint32_t[]){0, 1, 2, 30, 31, 32, 254, 255}[rnd_below(8)] : rnd_below(emax + 1);
            a[j] = rnd_src_datum(ea, rnd());
            uint32_t eb, mb = rnd();
            switch (rnd_below(8)) {
            case 0: eb = (uint32_t[]){0, 0, 1, 31, 255}[rnd_below(5)]; break; /* zeros, denormals, inf/NaN */
            case 1: eb = rnd_below(256); break;
            case 2: /* the same magnitude (cancellation for a difference of signs) */
                b[j] = (a[j] & 0x3FFFFu) | (rnd() & 0x40000u);
                continue;
            case 3: /* a tie at the alignment: mantissa bits below the distance exactly half */
                eb = ea - rnd_below(13);
                mb = (rnd() & 0x3FFu & ~((1u << (ea - eb)) - 1)) | ((ea - eb) ? 1u << (ea - eb - 1) : 0);
                break;
            default: eb = ea + 2 - rnd_below(17); break; /* distances around the width (11 / 12) */
            }
            b[j] = rnd_src_datum(eb, mb);
            if (rnd_below(32) == 0) b[j] &= 0x40000u; /* +-0 */
            if (rnd_below(32) == 0) a[j] &= 0x40000u;
        }
        fpu_elwadd_row(a, b, out, sa, sb, sub, flush_b, acc, scale);
        for (unsigned j = 0; j < 16; j++) {
            uint32_t ao = fpu_operand(a[j], sa), bo = fpu_operand(b[j], sb) ^ (sub ? 0x40000u : 0);
            if (fpu_operand_zero(ao)) ao = 0;
            if (flush_b && fpu_operand_zero(bo)) bo = 0;
            uint32_t want = fpu_elwadd(ao, bo, 0, acc, scale);
            if (out[j] != want)
                fail_msg("fpu_elwadd_row styles %d %d fp32 %d exp8 %d sub %d flush %d scale %u: a 0x%05x b 0x%05x: "
                         "0x%08x, fpu_elwadd 0x%08x",
                         sa, sb, acc.fp32, acc.exp8, sub, flush_b, scale, a[j], b[j], out[j], want);
        }
    }
}

/* ---- ELWMUL: fpu_elwmul_row against fpu_elwmul datum by datum ------------------------------ */

static void test_elwmul_row(void **state) {
    (void)state;
    static const fmt_style_t styles[] = {FMT_STYLE_BF16, FMT_STYLE_FP16, FMT_STYLE_TF32};
    for (unsigned iter = 0; iter < 200000; iter++) {
        fmt_style_t sa = styles[rnd_below(3)], sb = rnd_below(2) ? sa : styles[rnd_below(3)];
        fpu_acc_t acc = {.fp32 = rnd_below(3) == 0, .exp8 = rnd_below(3) != 0};
        bool flush_b = rnd_below(4) != 0;
        unsigned phase = rnd_below(4);
        int32_t adj = fpu_prod_adj(acc, phase);
        uint32_t emax = sa == FMT_STYLE_FP16 ? 31 : 255;
        uint32_t a[16], b[16], dst[16], want[16];
        for (unsigned j = 0; j < 16; j++) {
            uint32_t ea =
                rnd_below(8) == 0 ? (uint32_t[]){0, 1, 2, 30, 31, 32, 254, 255}[rnd_below(8)] : rnd_below(emax + 1);
            uint32_t eb = rnd_below(8) == 0 ? (uint32_t[]){0, 0, 1, 31, 127, 255}[rnd_below(6)] : rnd_below(emax + 1);
            if (rnd_below(2)) /* the product near exponent 1 (underflow) or near the top (overflow) */
                eb = (uint32_t)((rnd_below(2) ? 1 : (acc.fp32 || acc.exp8 ? 254 : 31)) - adj - (int32_t)ea +
                                (int32_t)rnd_below(9) - 4) &
                     0xFFu;
            a[j] = rnd_src_datum(ea, rnd());
            b[j] = rnd_src_datum(eb, rnd());
            if (rnd_below(32) == 0) b[j] &= 0x40000u; /* +-0 */
            if (rnd_below(32) == 0) a[j] &= 0x40000u;
            /* Dst: 0, -0, or an exponent around the product's (the alignment's ties and distances) */
            int32_t te = (int32_t)(ea & (sa == FMT_STYLE_FP16 ? 31 : 255)) +
                         (int32_t)(eb & (sb == FMT_STYLE_FP16 ? 31 : 255)) + adj;
            uint32_t dexp;
            switch (rnd_below(6)) {
            case 0: dexp = 0; break;
            case 1: dexp = rnd_below(256); break;
            default: dexp = (uint32_t)(te + (int32_t)rnd_below(31) - 15) & 0xFFu; break;
            }
            dst[j] = (rnd() & 0x80000000u) | dexp << 23 | (rnd32() & 0x7FFFFFu);
            if (rnd_below(4) == 0) dst[j] &= rnd_below(2) ? 0x80000000u : 0;
            if (!acc.fp32) dst[j] &= acc.exp8 ? 0xFFFF0000u : 0x8FFFE000u;
            uint32_t ao = fpu_operand(a[j], sa), bo = fpu_operand(b[j], sb);
            bool zero = fpu_operand_zero(ao) || (flush_b && fpu_operand_zero(bo));
            want[j] = fpu_elwmul(ao, bo, zero, dst[j], acc, phase);
        }
        uint32_t d0[16];
        memcpy(d0, dst, sizeof d0);
        fpu_elwmul_row(a, b, dst, sa, sb, flush_b, acc, phase);
        for (unsigned j = 0; j < 16; j++)
            if (dst[j] != want[j])
                fail_msg("fpu_elwmul_row styles %d %d fp32 %d exp8 %d flush %d phase %u: a 0x%05x b 0x%05x dst "
                         "0x%08x: 0x%08x, fpu_elwmul 0x%08x",
                         sa, sb, acc.fp32, acc.exp8, flush_b, phase, a[j], b[j], d0[j], dst[j], want[j]);
    }
}

/* ---- the conversions' lane forms against their per-datum functions ------------------------- */

static void test_sfpload_lanes(void **state) {
    (void)state;
    for (unsigned iter = 0; iter < 4000; iter++) {
        unsigned mod0 = iter % 16;
        bool inf = (iter / 16) & 1;
        unsigned shift = (iter / 32) & 1 ? 16 : 0; /* a cell in the high half of a pair (sfpu.c) */
        /* The pairs where SFPLOAD has them, in 16-bit cells (sfpu.c), and here off a 4-byte boundary. */
        uint16_t cells[2 * FMT_LANES + 1];
        uint32_t dst[FMT_LANES], old[FMT_LANES], out[FMT_LANES];
        for (unsigned l = 0; l < FMT_LANES; l++) {
            dst[l] = rnd32(), out[l] = old[l] = rnd32();
            cells[1 + 2 * l] = (uint16_t)dst[l], cells[2 + 2 * l] = (uint16_t)(dst[l] >> 16);
        }
        fmt_sfpload_lanes(mod0, (const fmt_pair_t *)(cells + 1), shift, inf, out);
        for (unsigned l = 0; l < FMT_LANES; l++)
            if (out[l] != fmt_sfpload(mod0, dst[l] >> shift, old[l], inf))
                fail_msg("fmt_sfpload_lanes mod0 %u shift %u lane %u: 0x%08x -> 0x%08x, fmt_sfpload 0x%08x", mod0,
                         shift, l, dst[l], out[l], fmt_sfpload(mod0, dst[l] >> shift, old[l], inf));
    }
}

static void test_sfpstore_lanes(void **state) {
    (void)state;
    for (unsigned iter = 0; iter < 4000; iter++) {
        unsigned mod0 = iter % 16;
        /* The datums (keep 0), or cells into the low or the high half of pairs of cells (sfpu.c). */
        unsigned half = (iter / 16) % 3, shift = half == 2 ? 16 : 0;
        uint32_t keep = half == 0 ? 0 : 0xFFFF0000u >> shift;
        /* Written where SFPSTORE has them, in 16-bit cells (sfpu.c), and here off a 4-byte boundary. */
        uint16_t cells[2 * FMT_LANES + 1];
        uint32_t in[FMT_LANES], was[FMT_LANES], out[FMT_LANES];
        for (unsigned l = 0; l < FMT_LANES; l++) {
            in[l] = rnd32(), was[l] = rnd32();
            cells[1 + 2 * l] = (uint16_t)was[l], cells[2 + 2 * l] = (uint16_t)(was[l] >> 16);
        }
        fmt_sfpstore_lanes(mod0, in, keep, shift, (fmt_pair_t *)(cells + 1));
        for (unsigned l = 0; l < FMT_LANES; l++) {
            out[l] = cells[1 + 2 * l] | (uint32_t)cells[2 + 2 * l] << 16;
            uint32_t want = (was[l] & keep) | fmt_sfpstore(mod0, in[l]) << shift;
            if (out[l] != want)
                fail_msg("fmt_sfpstore_lanes mod0 %u keep 0x%08x lane %u: 0x%08x -> 0x%08x, fmt_sfpstore 0x%08x", mod0,
                         keep, l, in[l], out[l], want);
        }
    }
}

/* The lane masks (SFPSETCC, SFPIADD) and fmt_lanes_merge (SFPMAD) against their lanes one by one, in this build's form
 * (test_dp_fast_nosimd runs the plain one): words from edge values (0, the sign alone, ...) and
 * random bits, a fifth of them 0. */
static void test_lane_masks(void **state) {
    (void)state;
    for (unsigned iter = 0; iter < 20000; iter++) {
        uint32_t v[FMT_LANES], sign = 0, zero = 0;
        for (unsigned l = 0; l < FMT_LANES; l++) {
            v[l] = rnd_below(5) == 0 ? 0 : rnd32();
            sign |= (v[l] >> 31) << l, zero |= (uint32_t)(v[l] == 0) << l;
        }
        if (fmt_lanes_sign_mask(v) != sign || fmt_lanes_zero_mask(v) != zero)
            fail_msg("fmt_lanes_sign_mask 0x%08x (0x%08x), fmt_lanes_zero_mask 0x%08x (0x%08x)", fmt_lanes_sign_mask(v),
                     sign, fmt_lanes_zero_mask(v), zero);
        /* fmt_lanes_merge under any lanes enabled, none and all included */
        uint32_t was[FMT_LANES], out[FMT_LANES], en = rnd_below(8) == 0 ? (rnd_below(2) ? 0 : 0xFFFFFFFFu) : rnd();
        for (unsigned l = 0; l < FMT_LANES; l++)
            out[l] = was[l] = rnd();
        fmt_lanes_merge(out, v, en);
        for (unsigned l = 0; l < FMT_LANES; l++)
            if (out[l] != (((en >> l) & 1) ? v[l] : was[l]))
                fail_msg("fmt_lanes_merge en 0x%08x lane %u: 0x%08x", en, l, out[l]);
    }
}

/* fmt_pack_row against fmt_pack_late(fmt_pack_early()) for every mode fmt_pack_check accepts. */
static void test_pack_row(void **state) {
    (void)state;
    unsigned modes = 0;
    for (unsigned iter = 0; iter < 200000; iter++) {
        fmt_pack_mode_t m = {.intermediate = (uint8_t)rnd_below(16),
                             .out_fmt = (uint8_t)rnd_below(16),
                             .read_32b = rnd_below(2),
                             .read_raw = rnd_below(4) == 0,
                             .read_unsigned = rnd_below(4) == 0,
                             .round_10b_mant = rnd_below(4) == 0,
                             .fp8_e4m3 = rnd_below(2),
                             .int_shift = (uint8_t)(rnd_below(2) ? 0 : rnd_below(32))};
        if (iter % 4 == 0) m.intermediate = m.out_fmt = FMT_BF16, m.read_32b = m.read_raw = false; /* add1's */
        if (!fmt_pack_check(&m)) continue;
        modes++;
        uint32_t d[FMT_ROW], out[FMT_ROW];
        for (unsigned k = 0; k < FMT_ROW; k++)
            d[k] = m.read_32b ? rnd32() : (rnd32() >> (rnd_below(2) ? 16 : 0)) & 0xFFFF;
        fmt_pack_row(&m, d, out);
        uint16_t cells[FMT_ROW], out16[FMT_ROW];
        for (unsigned k = 0; k < FMT_ROW; k++)
            cells[k] = (uint16_t)d[k];
        if (!m.read_32b) fmt_pack_row16(&m, cells, out16);
        for (unsigned k = 0; k < FMT_ROW; k++) {
            uint32_t want = fmt_pack_late(&m, fmt_pack_early(&m, d[k]));
            if (out[k] != want)
                fail_msg("fmt_pack_row %s -> %s -> %s (32b %d raw %d r10 %d): 0x%08x -> 0x%08x, per datum 0x%08x",
                         m.read_32b ? "Dst32" : "Dst16", fmt_name(m.intermediate), fmt_name(m.out_fmt), m.read_32b,
                         m.read_raw, m.round_10b_mant, d[k], out[k], want);
            if (!m.read_32b && out16[k] != (uint16_t)want)
                fail_msg("fmt_pack_row16 %s -> %s (raw %d r10 %d): 0x%04x -> 0x%04x, per datum 0x%04x",
                         fmt_name(m.intermediate), fmt_name(m.out_fmt), m.read_raw, m.round_10b_mant, cells[k],
                         out16[k], (uint16_t)want);
        }
    }
    assert_true(modes > 20000);
}

/* formats.h's L1 words (PACR's FP32 L1 accumulation, UNPACR's 32-bit datums one by one): byte i of
 * L1 is bits 8i..8i+7 of the word, both ways, in the form this build has (test_dot16_form). */
static void test_le32(void **state) {
    (void)state;
    for (unsigned iter = 0; iter < 10000; iter++) {
        uint8_t b[4], out[4];
        for (unsigned i = 0; i < 4; i++)
            b[i] = (uint8_t)rnd32();
        uint32_t want = 0; /* L1's bytes, byte 0 lowest */
        for (unsigned i = 0; i < 4; i++)
            want |= (uint32_t)b[i] << (8 * i);
        assert_int_equal(fmt_le32_read(b), want);
        fmt_le32_write(out, want);
        assert_memory_equal(out, b, 4);
    }
}

/* fmt_unpack_rows (one to four rows) against fmt_unpack for every mode fmt_unpack_check accepts (block floats aside:
 * they have their own path). */
static void test_unpack_row(void **state) {
    (void)state;
    unsigned modes = 0;
    for (unsigned iter = 0; iter < 200000; iter++) {
        fmt_unpack_mode_t m = {.in_fmt = (uint8_t)rnd_below(16),
                               .out_fmt = (uint8_t)rnd_below(16),
                               .to_dst = rnd_below(2),
                               .int8_unsigned = rnd_below(2),
                               .fp8_e4m3 = rnd_below(2)};
        if (iter % 4 == 0) m.in_fmt = m.out_fmt = FMT_BF16; /* add1's */
        if (!fmt_unpack_check(&m) || fmt_is_bfp(m.in_fmt)) continue;
        modes++;
        unsigned size = fmt_datum_bits(m.in_fmt) / 8, n = 1 + rnd_below(4);
        uint8_t l1[4 * 4 * FMT_ROW];
        uint32_t out[4 * FMT_ROW];
        for (unsigned k = 0; k < n * FMT_ROW; k++) {
            uint32_t v = size == 2 && rnd_below(2) ? rnd32() >> 16 : rnd32();
            for (unsigned i = 0; i < 4; i++)
                l1[4 * k + i] = (uint8_t)(v >> (8 * i));
        }
        fmt_unpack_rows(&m, l1, out, n);
        for (unsigned k = 0; k < n * FMT_ROW; k++) {
            uint32_t d = 0;
            for (unsigned i = 0; i < size; i++)
                d |= (uint32_t)l1[size * k + i] << (8 * i);
            uint32_t want = fmt_unpack(&m, d, 0);
            if (out[k] != want)
                fail_msg("fmt_unpack_rows %s -> %s %s: datum %u of %u rows 0x%08x -> 0x%08x, fmt_unpack 0x%08x",
                         fmt_name(m.in_fmt), fmt_name(m.out_fmt), m.to_dst ? "Dst" : "Src", k, n, d, out[k], want);
        }
    }
    assert_true(modes > 20000);
}

/* fmt_mova2d_dst16_rows (one to four rows) against fmt_mova2d_dst16, every style, with and without
 * the zero flag. */
static void test_mova2d_row(void **state) {
    (void)state;
    for (unsigned iter = 0; iter < 30000; iter++) {
        fmt_style_t style = (fmt_style_t)(iter % 3);
        bool zf = (iter / 3) & 1;
        unsigned n = 1 + rnd_below(4);
        uint32_t src[4 * FMT_ROW];
        uint16_t out[4 * FMT_ROW];
        for (unsigned k = 0; k < n * FMT_ROW; k++)
            src[k] = rnd_below(4) ? rnd32() & 0x7FFFF : (rnd32() & 0x7FF00); /* 19 bits; exponent 0 */
        fmt_mova2d_dst16_rows(src, style, zf, out, n);
        for (unsigned k = 0; k < n * FMT_ROW; k++)
            if (out[k] != fmt_mova2d_dst16(src[k], style, zf))
                fail_msg("fmt_mova2d_dst16_rows style %d zf %d: datum %u of %u rows 0x%05x -> 0x%04x, per datum "
                         "0x%04x",
                         style, zf, k, n, src[k], out[k], fmt_mova2d_dst16(src[k], style, zf));
    }
}

/* ---- twin datapaths ------------------------------------------------------------------------- */

#define TW_L1 0x40000u

typedef struct {
    dp_t *dp;
    cp_state_t st;
    cp_env_t env;
    cp_error_t err;
    uint8_t *l1;
    uint8_t *told; /* the L1 bytes the datapath reported written (cp_env_t.l1_written) */
} side_t;

/* s[0] takes the fast paths, s[1] the general path. */
typedef struct {
    side_t s[2];
} tw_t;

static void tw_l1_written(void *ctx, uint32_t addr, uint32_t len) {
    side_t *s = ctx;
    assert_true(addr <= TW_L1 && len <= TW_L1 - addr);
    memset(s->told + addr, 1, len);
}

static int tw_setup(void **state) {
    tw_t *w = calloc(1, sizeof *w);
    for (unsigned i = 0; i < 2; i++) {
        side_t *s = &w->s[i];
        s->dp = dp_create();
        dp_set_reference(s->dp, i == 1);
        s->l1 = calloc(1, TW_L1);
        s->told = calloc(1, TW_L1);
        st_reset(&s->st);
        s->env = (cp_env_t){.ctx = s, .l1 = s->l1, .l1_size = TW_L1, .l1_written = tw_l1_written};
    }
    *state = w;
    return 0;
}

static int tw_teardown(void **state) {
    tw_t *w = *state;
    for (unsigned i = 0; i < 2; i++) {
        dp_destroy(w->s[i].dp);
        free(w->s[i].l1);
        free(w->s[i].told);
    }
    free(w);
    return 0;
}

/* The fast side's state copied to the general side: both start from the same. */
static void tw_sync(tw_t *w) {
    side_t *a = &w->s[0], *b = &w->s[1];
    memcpy(dp_srca_mut(b->dp), dp_srca(a->dp), sizeof(src_regs_t));
    memcpy(dp_srcb_mut(b->dp), dp_srcb(a->dp), sizeof(src_regs_t));
    *dp_dst_mut(b->dp) = *dp_dst(a->dp);
    memcpy(dp_lregs_mut(b->dp), dp_lregs(a->dp), sizeof(lregs_t));
    st_copy(&b->st, &a->st);
    memcpy(b->l1, a->l1, TW_L1);
    memcpy(b->told, a->told, TW_L1);
}

/* The architectural states differ, the generations aside (st_copy bumps the general side's). */
static bool st_differs(const cp_state_t *a, const cp_state_t *b) {
    cp_state_t *c = malloc(sizeof *c); /* (allocated: state.h) */
    assert_non_null(c);
    memcpy(c, b, sizeof *c);
    c->cfg_gen = a->cfg_gen;
    c->cfg_gen_m = a->cfg_gen_m;
    memcpy(c->thdcfg_gen, a->thdcfg_gen, sizeof c->thdcfg_gen);
    memcpy(c->thdcfg_gen_m, a->thdcfg_gen_m, sizeof c->thdcfg_gen_m);
    bool differ = memcmp(a, c, sizeof *c) != 0;

    free(c);
    return differ;
}

/* Compare everything either side could have changed. */
static void tw_compare(tw_t *w, uint32_t word) {
    side_t *a = &w->s[0], *b = &w->s[1];
    if (a->err.cat != b->err.cat || strcmp(a->err.what, b->err.what) != 0)
        fail_msg("0x%08x: error %d \"%s\" fast, %d \"%s\" general", word, a->err.cat, a->err.what, b->err.cat,
                 b->err.what);
    if (memcmp(dp_srca(a->dp), dp_srca(b->dp), sizeof(src_regs_t))) fail_msg("0x%08x: SrcA differs", word);
    if (memcmp(dp_srcb(a->dp), dp_srcb(b->dp), sizeof(src_regs_t))) fail_msg("0x%08x: SrcB differs", word);
    const dst_regs_t *da = dp_dst(a->dp), *db = dp_dst(b->dp);
    for (unsigned r = 0; r < DST_ROWS; r++) {
        if (da->valid[r] != db->valid[r])
            fail_msg("0x%08x: Dst row %u valid %d fast, %d general", word, r, da->valid[r], db->valid[r]);
        for (unsigned c = 0; c < DST_COLS; c++)
            if (da->bits[r][c] != db->bits[r][c])
                fail_msg("0x%08x: Dst[%u][%u] 0x%04x fast, 0x%04x general", word, r, c, da->bits[r][c], db->bits[r][c]);
    }
    const lregs_t *la = dp_lregs(a->dp), *lb = dp_lregs(b->dp);
    for (unsigned i = 0; i < LREG_N; i++)
        for (unsigned l = 0; l < LANES; l++)
            if (la->r[i][l] != lb->r[i][l])
                fail_msg("0x%08x: LReg[%u] lane %u 0x%08x fast, 0x%08x general", word, i, l, la->r[i][l], lb->r[i][l]);
    if (memcmp(la, lb, sizeof *la)) fail_msg("0x%08x: Vector Unit state differs", word);
    for (unsigned t = 0; t < DP_THREADS; t++) {
        if (memcmp(dp_rwc(a->dp, t), dp_rwc(b->dp, t), sizeof(rwc_t))) fail_msg("0x%08x: RWCs differ", word);
        /* Every writer keeps the counters within their widths (the shortcuts that skip the masks:
         * dp_rwc_apply's INCRWC of Dst, SFPLOAD/SFPSTORE's light way after a section of zeros). */
        const rwc_t *r = dp_rwc(b->dp, t);
        if ((r->srca | r->srca_cr | r->srcb | r->srcb_cr) > 63 || (r->dst | r->dst_cr) > 1023 || r->fidelity > 3)
            fail_msg("0x%08x: thread %u's RWCs past their widths", word, t);
        for (unsigned u = 0; u < ADC_UNITS; u++)
            if (memcmp(dp_adc(a->dp, t, u), dp_adc(b->dp, t, u), sizeof(adc_t))) fail_msg("0x%08x: ADCs differ", word);
    }
    /* The Vector Unit's next free cycle: every way of a word takes its cycle (sfpu_take_cycle). */
    if (a->dp->sched.next != b->dp->sched.next)
        fail_msg("0x%08x: the Vector Unit's next cycle %llu fast, %llu general", word,
                 (unsigned long long)a->dp->sched.next, (unsigned long long)b->dp->sched.next);
    if (a->dp->fpu_srca_row != b->dp->fpu_srca_row)
        fail_msg("0x%08x: SHIFTXA's SrcA row %u fast, %u general", word, a->dp->fpu_srca_row, b->dp->fpu_srca_row);
    if (st_differs(&a->st, &b->st)) fail_msg("0x%08x: architectural state differs", word);
    if (memcmp(a->l1, b->l1, TW_L1)) fail_msg("0x%08x: L1 differs", word);
    if (memcmp(a->told, b->told, TW_L1)) fail_msg("0x%08x: the L1 bytes reported written differ", word);
}

/* Run word as thread t's instruction on both sides (unpacker instructions: both events), compare. */
static void tw_run(tw_t *w, unsigned t, uint32_t word) {
    for (unsigned i = 0; i < 2; i++) {
        side_t *s = &w->s[i];
        dpt_events(s->dp, &s->st, &s->env, &s->err, t, word);
    }
    tw_compare(w, word);
}

/* Config (both banks) and thread t's ThreadConfig on the fast side (tw_sync copies them). */
static void tw_cfg(tw_t *w, cfg_field_t f, uint32_t v) {
    cfg_set(&w->s[0].st, 0, f, v);
    cfg_set(&w->s[0].st, 1, f, v);
}
static void tw_thcfg(tw_t *w, unsigned t, thcfg_field_t f, uint32_t v) { thcfg_set(&w->s[0].st, t, f, v); }

/* Between two runs, one input changed on both sides (each twin's generations bumped as its own
 * writes bump them): Config field f in both banks, or thread 1's ThreadConfig field tf, flipped by
 * v | 1 (never 0). Each bank's value is read before either is written: a global register's write
 * goes to both banks (st_cfg_store), so flipping bank 1 after bank 0 would flip it back (dp33:
 * Dst's remap and swizzle, DEST_ACCESS_CFG, are global, and were never flipped here before). */
static void tw_flip_cfg(tw_t *w, cfg_field_t f, uint32_t v) {
    for (unsigned i = 0; i < 2; i++) {
        uint32_t old[2] = {cfg_get(&w->s[i].st, 0, f), cfg_get(&w->s[i].st, 1, f)};
        for (unsigned b = 0; b < 2; b++)
            cfg_set(&w->s[i].st, b, f, old[b] ^ (v | 1u));
    }
}
static void tw_flip_thcfg1(tw_t *w, thcfg_field_t tf, uint32_t v) {
    for (unsigned i = 0; i < 2; i++)
        thcfg_set(&w->s[i].st, 1, tf, thcfg_get(&w->s[i].st, 1, tf) ^ (v | 1u));
}

/* Threads a's and b's ThreadConfig generations made the same numbers on the fast side (words
 * written with the value they hold: word 0 moves both, MATH_Offset's word thdcfg_gen alone), so
 * that a key without the thread would take one's for the other's. */
static void tw_same_tgen(tw_t *w, unsigned a, unsigned b) {
    cp_state_t *st = &w->s[0].st;
    while (st->thdcfg_gen_m[a] < st->thdcfg_gen_m[b])
        st_thdcfg_w(st, a, 0, st->thdcfg[a][0]);
    while (st->thdcfg_gen_m[b] < st->thdcfg_gen_m[a])
        st_thdcfg_w(st, b, 0, st->thdcfg[b][0]);
    while (st->thdcfg_gen[a] < st->thdcfg_gen[b])
        st_thdcfg_w(st, a, ST_THDCFG_MATH_OFF_WORD, st->thdcfg[a][ST_THDCFG_MATH_OFF_WORD]);
    while (st->thdcfg_gen[b] < st->thdcfg_gen[a])
        st_thdcfg_w(st, b, ST_THDCFG_MATH_OFF_WORD, st->thdcfg[b][ST_THDCFG_MATH_OFF_WORD]);
}

/* One of the words kernels write once a tile (state.h st_cfg_tile_word: the packer's L1 address,
 * either unpacker's Base_address of a context, a packer's Dst offset) in a random bank, or a random
 * thread's MATH_Offset or CfgContextOffset word, written with a random value on both sides: the kept setups near their
 * key (MOVA2D's, SFPLOAD/SFPSTORE's, PACR's: dp_key_near_at) are kept across it, reading again what they read of it. */
static void tw_tile_word(tw_t *w) {
    unsigned k = rnd_below(6), bank = rnd_below(2), word = 0, t = rnd_below(CP_THREADS);
    uint32_t v = rnd_below(2) ? rnd() : rnd_below(1024);
    if (k == 0) word = cfg_fields[CFG_THCON_SEC0_REG1_L1_Dest_addr].word;
    if (k == 1 || k == 2) word = cfg_fields[CFG_THCON_SEC0_REG3_Base_address].word + (k - 1) * 48 + rnd_below(8);
    if (k == 3) word = cfg_fields[CFG_DEST_TARGET_REG_CFG_PACK_SEC0_Offset].word + rnd_below(4);
    for (unsigned i = 0; i < 2; i++) {
        if (k == 4)
            thcfg_set(&w->s[i].st, t, THCFG_DEST_TARGET_REG_CFG_MATH_Offset, v);
        else if (k == 5)
            st_thdcfg_w(&w->s[i].st, t, ST_THDCFG_UNP_CTX_WORD, (uint16_t)v);
        else
            st_cfg_store(&w->s[i].st, bank, word, v);
    }
}

/* Random Dst contents and row valid bits (mostly valid). */
static void rnd_dst(tw_t *w) {
    dst_regs_t *d = dp_dst_mut(w->s[0].dp);
    for (unsigned r = 0; r < DST_ROWS; r++) {
        d->valid[r] = rnd_below(8) != 0;
        for (unsigned c = 0; c < DST_COLS; c++)
            d->bits[r][c] = (uint16_t)(c & 1 ? rnd32() : rnd32() >> 16);
    }
}

/* Random LRegs; LaneConfig and the lane flags clear (the fast paths' case) or, with `odd`, random
 * bits in a few lanes. */
static void rnd_lregs(tw_t *w, bool odd) {
    lregs_t *s = dp_lregs_mut(w->s[0].dp);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned l = 0; l < LANES; l++)
            s->r[i][l] = rnd32();
    for (unsigned lc = 0; lc < LANES; lc++)
        sfpu_lane_config_w(s, lc, 0);
    s->use_flags = s->flags = 0;
    if (!odd) return;
    switch (rnd_below(3)) {
    case 0: sfpu_lane_config_w(s, rnd_below(LANES), 1u << rnd_below(16)); break;
    case 1: s->use_flags = rnd(), s->flags = rnd(); break;
    default:
        for (unsigned l = 0; l < LANES; l++)
            sfpu_lane_config_w(s, l, rnd() & rnd() & 0x3FFFFu);
        break;
    }
}

/* The address modifiers of thread 1: random words for the eight AB, DST and BIAS sections, each
 * zero half the time (dp_apply_addr_mod's shortcut for a section of zeros, and not). */
static void rnd_addr_mods(tw_t *w) {
    static const thcfg_field_t sec0[] = {THCFG_ADDR_MOD_AB_SEC0_SrcAIncr, THCFG_ADDR_MOD_DST_SEC0_DestIncr,
                                         THCFG_ADDR_MOD_BIAS_SEC0_BiasIncr};
    for (unsigned i = 0; i < 8; i++)
        for (unsigned k = 0; k < 3; k++)
            st_thdcfg_w(&w->s[0].st, 1, thcfg_fields[sec0[k]].word + i, (uint16_t)(rnd_below(2) ? rnd() : 0));
}

/* A random configuration of what the SFPU's Dst instructions read. */
static void rnd_sfpu_cfg(tw_t *w) {
    tw_cfg(w, CFG_ALU_ACC_CTRL_SFPU_Fp32_enabled, rnd_below(3) == 0);
    tw_cfg(w, CFG_ALU_FORMAT_SPEC_REG1_SrcB, rnd_below(16));
    tw_cfg(w, CFG_ALU_FORMAT_SPEC_REG_SrcB_override, rnd_below(4) == 0);
    tw_cfg(w, CFG_ALU_FORMAT_SPEC_REG_SrcB_val, rnd_below(16));
    tw_cfg(w, CFG_DEST_ACCESS_CFG_remap_addrs, rnd_below(3) == 0);
    tw_cfg(w, CFG_DEST_ACCESS_CFG_swizzle_32b, rnd_below(3) == 0);
    tw_cfg(w, CFG_DEST_REGW_BASE_Base, rnd_below(4) == 0 ? rnd_below(1024) : 0);
    tw_thcfg(w, 1, THCFG_DEST_TARGET_REG_CFG_MATH_Offset, rnd_below(2) ? 0x200 : rnd_below(1024));
    tw_thcfg(w, 1, THCFG_SFPU_DEST_FMT_Enable, rnd_below(4) == 0);
    tw_thcfg(w, 1, THCFG_SFPU_DEST_FMT_Base, rnd_below(16));
    rnd_addr_mods(w);
}

static void test_twin_sfpu_dst(void **state) {
    tw_t *w = *state;
    for (unsigned iter = 0; iter < 3000; iter++) {
        rnd_sfpu_cfg(w);
        rnd_dst(w);
        rnd_lregs(w, rnd_below(4) == 0);
        tw_sync(w);
        for (unsigned k = 0; k < 8; k++) {
            unsigned vd = rnd_below(4) ? rnd_below(8) : rnd_below(16), mod0 = rnd_below(16), am = rnd_below(8);
            unsigned addr = rnd_below(4) ? rnd_below(1024) : rnd_below(0x2000);
            tw_run(w, 1, rnd_below(2) ? TT_OP_SFPLOAD(vd, mod0, am, addr) : TT_OP_SFPSTORE(vd, mod0, am, addr));
        }
    }
}

/* What SFPLOAD and SFPSTORE read of Config and ThreadConfig (sfpu.c sfp_cfg_of): the fast side
 * keeps it while its key is the same: Config's cfg_gen, the thread and its ThreadConfig's
 * thdcfg_gen. Each round: a random configuration (rnd_sfpu_cfg, and threads 0 and 2's
 * ThreadConfig fields drawn too), an SFPLOAD or SFPSTORE of thread 1, then one input of the key
 * changed alone (a Config field they read, through cfg_set; a ThreadConfig field of thread 1's,
 * through thcfg_set; or the next instruction from thread 0 or 2, nothing written, the two
 * threads' generations made the same number) and two more (Mod0 SRCB and INT32_ALL among them).
 * A key without that input leaves the fast side reading the old values. */
static void test_twin_sfpu_key(void **state) {
    tw_t *w = *state;
    static const cfg_field_t cfgs[] = {CFG_DEST_REGW_BASE_Base,          CFG_DEST_SP_BASE_Base,
                                       CFG_ALU_FORMAT_SPEC_REG1_SrcB,    CFG_ALU_FORMAT_SPEC_REG_SrcB_override,
                                       CFG_ALU_FORMAT_SPEC_REG_SrcB_val, CFG_ALU_ACC_CTRL_SFPU_Fp32_enabled};
    static const thcfg_field_t thcfgs[] = {THCFG_DEST_TARGET_REG_CFG_MATH_Offset, THCFG_SFPU_DEST_FMT_Enable,
                                           THCFG_SFPU_DEST_FMT_Base, THCFG_SFPU_STACK_Incr};
    for (unsigned iter = 0; iter < 3000; iter++) {
        rnd_sfpu_cfg(w);
        for (unsigned th = 0; th < 3; th += 2) {
            tw_thcfg(w, th, THCFG_DEST_TARGET_REG_CFG_MATH_Offset, rnd_below(1024));
            tw_thcfg(w, th, THCFG_SFPU_DEST_FMT_Enable, rnd_below(2));
            tw_thcfg(w, th, THCFG_SFPU_DEST_FMT_Base, rnd_below(16));
            tw_thcfg(w, th, THCFG_SFPU_STACK_Incr, rnd_below(1024));
        }
        tw_thcfg(w, 1, THCFG_SFPU_STACK_Incr, rnd_below(1024));
        rnd_dst(w);
        rnd_lregs(w, false);
        tw_sync(w);
        unsigned kind = rnd_below(3), t = 1, vd = rnd_below(8), t2 = rnd_below(2) ? 2 : 0;
        if (kind == 2) tw_same_tgen(w, 1, t2);
        tw_run(w, 1,
               rnd_below(2) ? TT_OP_SFPLOAD(vd, rnd_below(16), 0, rnd_below(1024))
                            : TT_OP_SFPSTORE(vd, rnd_below(16), 0, rnd_below(1024)));
        cfg_field_t f = cfgs[rnd_below(sizeof cfgs / sizeof cfgs[0])];
        thcfg_field_t tf = thcfgs[rnd_below(sizeof thcfgs / sizeof thcfgs[0])];
        uint32_t v = rnd();
        if (kind == 0)
            tw_flip_cfg(w, f, v);
        else if (kind == 1)
            tw_flip_thcfg1(w, tf, v);
        else
            t = t2;
        for (unsigned k = 0; k < 2; k++) {
            unsigned mod0 = rnd_below(3) ? FMT_MOD0_SRCB : rnd_below(2) ? FMT_MOD0_INT32_ALL : rnd_below(16);
            tw_run(w, t,
                   k ? TT_OP_SFPSTORE(vd, mod0, 0, rnd_below(1024)) : TT_OP_SFPLOAD(vd, mod0, 0, rnd_below(1024)));
        }
    }
}

/* The plans of kept SFPLOAD and SFPSTORE words (dp_internal.h sfp_plan_t: the Dst address's
 * constant part, the resolved format; made only for a section of zeros): a few hot
 * words replayed, now and then one of 96 others (which evict them from the decoded words), and
 * between runs one input of a plan changed on both sides: a Config field SFPLOAD/SFPSTORE read
 * (the Dst mapping's among them), one of thread 1's ThreadConfig fields or address modifier
 * sections, the issuing thread, a tile's word (tw_tile_word; white box: the key kept), or nothing. Planned words run
 * dp_exec's light way (dp_sfpu_light), the others dp_sfpu_exec's. A plan taken after its inputs changed (its epoch or
 * the key not compared), one of an evicted word, one made for a section that is not zeros, or one
 * missing an input leaves the fast side's Dst, LRegs or RWCs apart. */
static void test_twin_sfpu_plan(void **state) {
    tw_t *w = *state;
    static const cfg_field_t cfgs[] = {CFG_DEST_REGW_BASE_Base,          CFG_DEST_SP_BASE_Base,
                                       CFG_ALU_FORMAT_SPEC_REG1_SrcB,    CFG_ALU_FORMAT_SPEC_REG_SrcB_override,
                                       CFG_ALU_FORMAT_SPEC_REG_SrcB_val, CFG_ALU_ACC_CTRL_SFPU_Fp32_enabled,
                                       CFG_DEST_ACCESS_CFG_remap_addrs,  CFG_DEST_ACCESS_CFG_swizzle_32b};
    static const thcfg_field_t thcfgs[] = {
        THCFG_DEST_TARGET_REG_CFG_MATH_Offset, THCFG_SFPU_DEST_FMT_Enable,       THCFG_SFPU_DEST_FMT_Base,
        THCFG_ADDR_MOD_AB_SEC0_SrcAIncr,       THCFG_ADDR_MOD_DST_SEC0_DestIncr, THCFG_ADDR_MOD_BIAS_SEC0_BiasIncr};
    static const unsigned mod0s[] = {FMT_MOD0_SRCB, FMT_MOD0_SRCB, FMT_MOD0_FP16,     FMT_MOD0_BF16,
                                     FMT_MOD0_FP32, FMT_MOD0_LO16, FMT_MOD0_INT32_ALL};
    uint32_t words[100];
    for (unsigned i = 0; i < 100; i++) {
        unsigned vd = rnd_below(8) ? rnd_below(8) : rnd_below(16), mod0 = mod0s[rnd_below(7)];
        unsigned am = rnd_below(2) ? 0 : rnd_below(8), addr = rnd_below(1024);
        words[i] = rnd_below(2) ? TT_OP_SFPLOAD(vd, mod0, am, addr) : TT_OP_SFPSTORE(vd, mod0, am, addr);
    }
    unsigned kept = 0; /* runs after a tile's word written with the key held */
    bool near = false;
    for (unsigned iter = 0; iter < 300; iter++) {
        rnd_sfpu_cfg(w);
        tw_cfg(w, CFG_DEST_SP_BASE_Base, rnd_below(1024));
        rnd_dst(w);
        rnd_lregs(w, rnd_below(8) == 0);
        tw_sync(w);
        for (unsigned k = 0; k < 24; k++) {
            unsigned t = 1;
            cfg_field_t f = cfgs[rnd_below(sizeof cfgs / sizeof cfgs[0])];
            thcfg_field_t tf = thcfgs[rnd_below(sizeof thcfgs / sizeof thcfgs[0])];
            unsigned kind = rnd_below(5), sec = rnd_below(8);
            uint32_t v = rnd_below(2) ? 0 : rnd();
            bool amod = tf == THCFG_ADDR_MOD_AB_SEC0_SrcAIncr || tf == THCFG_ADDR_MOD_DST_SEC0_DestIncr ||
                        tf == THCFG_ADDR_MOD_BIAS_SEC0_BiasIncr;
            if (kind == 0) {
                tw_flip_cfg(w, f, v);
            } else if (kind == 1 && amod) { /* a whole section's word, zero or not */
                for (unsigned i = 0; i < 2; i++)
                    st_thdcfg_w(&w->s[i].st, 1, thcfg_fields[tf].word + sec, (uint16_t)v);
            } else if (kind == 1) {
                tw_flip_thcfg1(w, tf, v);
            } else if (kind == 2) {
                t = 2;
            } else if (kind == 3) { /* a tile's word, then thread 1 or thread 2 issuing */
                t = rnd_below(3) ? 1 : 2;
                near = dp_key_hit_at(w->s[0].dp, &w->s[0].st, t, DP_KEY_SFP, 0);
                tw_tile_word(w);
            }
            unsigned reads = w->s[0].dp->sfp_cfg_reads;
            uint32_t word = words[rnd_below(6) ? rnd_below(6) : 6 + rnd_below(94)];
            tw_run(w, t, word);
            if (near) { /* sfp_cfg_t not read anew: MATH_Offset alone (white box) */
                assert_int_equal(w->s[0].dp->sfp_cfg_reads, reads);
                kept++;
            }
            near = false;
        }
    }
    assert_true(kept > 500);
}

/* A plan kept across a new read of what SFPLOAD and SFPSTORE read (sfpu.c sfp_cfg_renew): eight
 * plannable words (VD < 8, Mod0 BF16, FP16, FP32, LO16 or SRCB, address modifier section 0, all
 * zeros), all hot, replayed with a write between runs that moves the key without changing what a
 * plan took (a Config field no plan reads; MATH_Offset, which the light way adds at each issue),
 * or one that changes it (Dst remap or swizzle, DEST_REGW_BASE, DEST_SP_BASE, the SrcB format,
 * thread 1's section 0 made zeros or not), or the issuing thread. A plan kept where it no longer
 * holds (an input sfp_cfg_same does not compare) or MATH_Offset taken from the plan leaves the
 * fast side's Dst or LRegs apart. */
static void test_twin_sfpu_renew(void **state) {
    tw_t *w = *state;
    static const unsigned mod0s[] = {FMT_MOD0_BF16, FMT_MOD0_FP16, FMT_MOD0_FP32, FMT_MOD0_LO16, FMT_MOD0_SRCB};
    static const cfg_field_t planned[] = {CFG_DEST_ACCESS_CFG_remap_addrs, CFG_DEST_ACCESS_CFG_swizzle_32b,
                                          CFG_DEST_REGW_BASE_Base,         CFG_DEST_SP_BASE_Base,
                                          CFG_ALU_FORMAT_SPEC_REG1_SrcB,   CFG_ALU_ACC_CTRL_SFPU_Fp32_enabled};
    static const thcfg_field_t sec0[] = {THCFG_ADDR_MOD_AB_SEC0_SrcAIncr, THCFG_ADDR_MOD_DST_SEC0_DestIncr,
                                         THCFG_ADDR_MOD_BIAS_SEC0_BiasIncr};
    uint32_t words[8];
    /* White box: a write that keeps the plans, between two runs of thread 1, leaves the fast side's
     * epoch as it was (dp_internal.h sfp_plan_t): the plans are kept, not made again. */
    const uint32_t *epoch = &w->s[0].dp->sfp_epoch;
    unsigned kept = 0;
    for (unsigned iter = 0; iter < 300; iter++) {
        for (unsigned i = 0; i < 8; i++) {
            unsigned vd = rnd_below(8), mod0 = mod0s[rnd_below(5)], addr = rnd_below(1024);
            words[i] = (i & 1) ? TT_OP_SFPLOAD(vd, mod0, 0, addr) : TT_OP_SFPSTORE(vd, mod0, 0, addr);
        }
        rnd_sfpu_cfg(w);
        for (unsigned t = 1; t < 3; t++)
            for (unsigned j = 0; j < 3; j++)
                st_thdcfg_w(&w->s[0].st, t, thcfg_fields[sec0[j]].word, 0);
        rnd_dst(w);
        rnd_lregs(w, false);
        tw_sync(w);
        unsigned prev_t = 0;
        for (unsigned k = 0; k < 64; k++) {
            /* mostly writes that keep the plans, so that a plan kept wrongly is run again */
            unsigned kind = rnd_below(32), t = 1;
            uint32_t before = *epoch;
            if (kind < 8) {
                tw_flip_cfg(w, CFG_ALU_FORMAT_SPEC_REG0_SrcA, rnd());
            } else if (kind < 16) {
                tw_flip_thcfg1(w, THCFG_DEST_TARGET_REG_CFG_MATH_Offset, rnd());
            } else if (kind < 18) {
                tw_flip_cfg(w, planned[rnd_below(sizeof planned / sizeof planned[0])], rnd());
            } else if (kind == 18) {
                unsigned word = thcfg_fields[sec0[rnd_below(3)]].word;
                uint16_t v = rnd_below(2) ? 0 : (uint16_t)rnd();
                for (unsigned i = 0; i < 2; i++)
                    st_thdcfg_w(&w->s[i].st, 1, word, v);
            } else if (kind == 19) {
                t = 2;
            }
            tw_run(w, t, words[rnd_below(8)]);
            if (kind < 16 && prev_t == 1) {
                assert_int_equal(*epoch, before);
                kept++;
            }
            prev_t = t;
        }
    }
    assert_true(kept > 1000);
}

/* The light way's Vector Unit words that read only its registers (sfpu.c sfp_light_regs): random
 * operands of every such opcode, each among the kept words twice, and fresh ones, SFPADDIs of the
 * in-place form (SFP_LIGHT_ADDI) too, VD 12..15 (the template
 * writes, sfpu_backdoor) among them, refused operands (the error and its message compared), the
 * PRNG's seed written between runs, LaneConfig and flags random. A word run without its template
 * write, a refusal not reported, or a word taken while the PRNG must be reseeded leaves the fast
 * side's registers or error apart. */
static void test_twin_sfpu_light(void **state) {
    tw_t *w = *state;
    static const uint8_t opcs[] = {
        TT_OPC_SFPMAD,        TT_OPC_SFPADD,    TT_OPC_SFPMUL,    TT_OPC_SFPMULI,   TT_OPC_SFPADDI,   TT_OPC_SFPLUT,
        TT_OPC_SFPLUTFP32,    TT_OPC_SFPMUL24,  TT_OPC_SFPARECIP, TT_OPC_SFPIADD,   TT_OPC_SFPSHFT,   TT_OPC_SFPAND,
        TT_OPC_SFPOR,         TT_OPC_SFPXOR,    TT_OPC_SFPNOT,    TT_OPC_SFPLZ,     TT_OPC_SFPABS,    TT_OPC_SFPEXEXP,
        TT_OPC_SFPEXMAN,      TT_OPC_SFPSETEXP, TT_OPC_SFPSETMAN, TT_OPC_SFPSETSGN, TT_OPC_SFPDIVP2,  TT_OPC_SFPCAST,
        TT_OPC_SFP_STOCH_RND, TT_OPC_SFPSETCC,  TT_OPC_SFPENCC,   TT_OPC_SFPPUSHC,  TT_OPC_SFPPOPC,   TT_OPC_SFPCOMPC,
        TT_OPC_SFPGT,         TT_OPC_SFPLE,     TT_OPC_SFPMOV,    TT_OPC_SFPSWAP,   TT_OPC_SFPTRANSP, TT_OPC_SFPSHFT2,
        TT_OPC_SFPLOADI,      TT_OPC_SFPCONFIG};
    /* Every opcode twice among the kept words, and SFPADDIs of the in-place form (no indirection,
     * VD < 8, VC = VD: sfpu_addi_word_in_place) besides: the first three with an Imm16 of Inf, NaN
     * (the light way leaves them to the model: decode_new) and a denormal (read as zero:
     * fma_add_k_of), the sign drawn. */
    enum { NOPC = sizeof opcs, NKEPT = 2 * NOPC + 8 };
    uint32_t words[NKEPT];
    for (unsigned i = 0; i < 2 * NOPC; i++)
        words[i] = TT_WORD(opcs[i % NOPC], rnd() & 0xFFFFFFu);
    for (unsigned i = 2 * NOPC; i < NKEPT; i++) {
        unsigned imm = rnd() & 0xFFFFu, sign = rnd() & 0x8000u;
        if (i == 2 * NOPC) imm = sign | 0x7F80u;
        if (i == 2 * NOPC + 1) imm = sign | 0x7F80u | (1u + rnd_below(0x7F));
        if (i == 2 * NOPC + 2) imm = sign | (1u + rnd_below(0x7F));
        words[i] = TT_OP_SFPADDI(imm, rnd_below(8), rnd_below(8) & ~1u);
    }
    unsigned backdoor = 0, refused = 0, in_place = 0;
    for (unsigned iter = 0; iter < 400; iter++) {
        rnd_sfpu_cfg(w);
        rnd_lregs(w, rnd_below(3) == 0);
        tw_sync(w);
        for (unsigned k = 0; k < 24; k++) {
            if (rnd_below(8) == 0) tw_flip_cfg(w, CFG_PRNG_SEED_Seed_Val, rnd());
            uint32_t word =
                rnd_below(8) ? words[rnd_below(NKEPT)] : TT_WORD(opcs[rnd_below(sizeof opcs)], rnd() & 0xFFFFFFu);
            sfp_op_t o;
            assert_true(sfpu_decode(word, &o));
            backdoor += o.vd >= 12 && o.vd <= 15;
            in_place += o.opc == TT_OPC_SFPADDI && sfpu_addi_word_in_place(&o);
            tw_run(w, 1, word);
            refused += w->s[0].err.cat != CP_ERR_NONE;
        }
    }
    /* Each reached, many times. */
    assert_true(backdoor > 200);
    assert_true(refused > 100);
    assert_true(in_place > 200);
}

/* dp_set_reference drops every decoded Vector Unit word (datapath.c), and that alone keeps the
 * light way (dp_sfpu_light, which does not test the reference path but for SFPNOP) from taking a
 * kept word under it: a word kept on the fast side, then the reference path on: the light way
 * refuses it and an SFPNOP, before and after the word runs there (the general path keeps none);
 * off again, it takes both once the word is decoded anew. */
static void test_sfpu_reference_keeps_none(void **state) {
    tw_t *w = *state;
    side_t *s = &w->s[0];
    const uint32_t word = TT_OP_SFPADDI(0x3F80, 1, 2), words[] = {word, TT_OP_SFPNOP};
    dpt_events(s->dp, &s->st, &s->env, &s->err, 1, word);
    for (unsigned i = 0; i < 2; i++) {
        cp_insn_t in = dpt_insn(&s->st, &s->env, &s->err, 1, words[i], 0);
        assert_true(dp_sfpu_light(s->dp, &in));
        dp_set_reference(s->dp, true);
        assert_false(dp_sfpu_light(s->dp, &in));
        dpt_events(s->dp, &s->st, &s->env, &s->err, 1, word);
        assert_false(dp_sfpu_light(s->dp, &in));
        dp_set_reference(s->dp, false);
        dpt_events(s->dp, &s->st, &s->env, &s->err, 1, word);
        assert_true(dp_sfpu_light(s->dp, &in));
    }
}

/* SETRWC and INCRWC, which dp_exec runs without a context outside the reference path
 * (dp_rwc_apply): random words of random threads among SFPLOAD/SFPSTOREs that use the RWCs, a
 * quarter of the INCRWCs of Dst alone (its shortcut) and a quarter a bit from it; the RWCs of every
 * thread compared after each. Run as another thread's, or not at all, they leave the fast side's
 * RWCs (or Dst and LRegs) apart. */
static void test_twin_rwc(void **state) {
    tw_t *w = *state;
    for (unsigned iter = 0; iter < 300; iter++) {
        rnd_sfpu_cfg(w);
        rnd_dst(w);
        rnd_lregs(w, false);
        tw_sync(w);
        for (unsigned k = 0; k < 24; k++) {
            unsigned t = rnd_below(3), d = rnd_below(16), b = rnd_below(16), a = rnd_below(16), cr = rnd_below(16);
            uint32_t word;
            switch (rnd_below(3)) {
            case 0: word = TT_OP_SETRWC(0, cr, d, b, a, rnd_below(16)); break;
            case 1: /* a quarter of them Dst's alone (dp_rwc_apply's shortcut; CR's unused bit 3 now and then),
                     * a quarter one bit of A, B or CR's three from it */
                switch (rnd_below(4)) {
                case 0: word = TT_OP_INCRWC(rnd_below(2) * 8, d, 0, 0); break;
                case 1: {
                    unsigned bit = rnd_below(11);
                    word = TT_OP_INCRWC(bit >= 8 ? 1u << (bit - 8) : 0, d, bit >= 4 && bit < 8 ? 1u << (bit - 4) : 0,
                                        bit < 4 ? 1u << bit : 0);
                    break;
                }
                default: word = TT_OP_INCRWC(cr, d, b, a); break;
                }
                break;
            default:
                word = rnd_below(2) ? TT_OP_SFPLOAD(rnd_below(8), 0, 0, rnd_below(64))
                                    : TT_OP_SFPSTORE(rnd_below(8), 0, 0, rnd_below(64));
                t = 1;
                break;
            }
            tw_run(w, t, word);
        }
    }
}

/* The MAD family (SFPMAD, SFPADD, SFPMUL, SFPADDI, SFPMULI: fma_bh_lanes over the 32 lanes) on
 * random operands, modifiers (negations, indirection) and enabled lanes. */
static void test_twin_sfpu_mad(void **state) {
    tw_t *w = *state;
    for (unsigned iter = 0; iter < 3000; iter++) {
        rnd_dst(w);
        rnd_lregs(w, rnd_below(4) == 0);
        tw_sync(w);
        for (unsigned k = 0; k < 8; k++) {
            unsigned va = rnd_below(16), vb = rnd_below(16), vc = rnd_below(16),
                     vd = rnd_below(4) ? rnd_below(8) : rnd_below(16);
            unsigned mod = rnd_below(3) ? 0 : rnd_below(16), imm = rnd_below(2) ? 0x3F80 : rnd32() >> 16;
            uint32_t word;
            switch (rnd_below(5)) {
            case 0: word = TT_OP_SFPMAD(va, vb, vc, vd, mod); break;
            case 1: word = TT_OP_SFPADD(va, vb, vc, vd, mod); break;
            case 2: word = TT_OP_SFPMUL(va, vb, vc, vd, mod); break;
            case 3: word = TT_OP_SFPADDI(imm, vd, mod); break;
            default: word = TT_OP_SFPMULI(imm, vd, mod); break;
            }
            tw_run(w, 1, word);
        }
    }
}

/* The decoded Vector Unit words a datapath keeps (dp_sfpu_exec): a kernel's replay of a few words,
 * here 160 random ones (more than the 64 kept, so that words evict each other and come back) run
 * in random order, with the SFPLOAD/SFPSTORE pairs and MAD-family words of a kernel and words that
 * differ from each other in one operand field. A word run as another word's decoding fails here. */
static void test_twin_sfpu_replay(void **state) {
    tw_t *w = *state;
    uint32_t words[160];
    for (unsigned i = 0; i < 160; i++) {
        unsigned vd = rnd_below(8), mod = rnd_below(16), am = rnd_below(8), addr = rnd_below(1024);
        switch (i < 16 ? 5 : rnd_below(5)) {
        case 0: words[i] = TT_OP_SFPLOAD(vd, rnd_below(2) ? 0 : mod, am, addr); break;
        case 1: words[i] = TT_OP_SFPSTORE(vd, rnd_below(2) ? 0 : mod, am, addr); break;
        case 2: words[i] = TT_OP_SFPMAD(rnd_below(16), rnd_below(16), rnd_below(16), vd, 0); break;
        case 3: words[i] = TT_OP_SFPADDI(rnd32() >> 16, vd, 0); break;
        case 4: words[i] = TT_OP_SFPNOP; break;
        default: words[i] = TT_OP_SFPADDI(0x3F80, i & 7, 0); break; /* eight words apart in VD alone */
        }
    }
    for (unsigned iter = 0; iter < 500; iter++) {
        rnd_sfpu_cfg(w);
        rnd_dst(w);
        rnd_lregs(w, false);
        tw_sync(w);
        for (unsigned k = 0; k < 16; k++)
            tw_run(w, 1, words[rnd_below(160)]);
    }
}

/* A PACR setup of the twins: rows of 16 datums (`bytes` each in the In_data_format) from Dst row 0
 * to L1 0x10000, one exponent section, no zero compression, four rows a PACR (ADDR_MOD_PACK 0
 * steps Ysrc by 4); the rest as given. Synced to both twins. */
typedef struct {
    uint8_t dstacc, in, out, read32, bytes;
    bool int8, round10, relu, l1acc, remap, swizzle;
    uint32_t edge, downsample, offset;
} pack_cfg_t;
static void tw_pack_cfg(tw_t *w, const pack_cfg_t *c) {
    tw_cfg(w, CFG_PCK0_ADDR_CTRL_XY_REG_0_Ystride, 16 * c->bytes);
    tw_cfg(w, CFG_PCK0_ADDR_CTRL_ZW_REG_0_Zstride, 256 * c->bytes);
    tw_cfg(w, CFG_ALU_FORMAT_SPEC_REG2_Dstacc, c->dstacc);
    tw_cfg(w, CFG_THCON_SEC0_REG1_In_data_format, c->in);
    tw_cfg(w, CFG_THCON_SEC0_REG1_Out_data_format, c->out);
    tw_cfg(w, CFG_PCK_DEST_RD_CTRL_Read_32b_data, c->read32);
    tw_cfg(w, CFG_PCK_DEST_RD_CTRL_Read_int8, c->int8);
    tw_cfg(w, CFG_PCK_DEST_RD_CTRL_Round_10b_mant, c->round10);
    tw_cfg(w, CFG_THCON_SEC0_REG1_Exp_section_size, 1);
    tw_cfg(w, CFG_THCON_SEC0_REG1_Disable_zero_compress, 1);
    tw_cfg(w, CFG_PACK_COUNTERS_SEC0_pack_reads_per_xy_plane, 16);
    tw_cfg(w, CFG_PCK_EDGE_OFFSET_SEC0_mask, c->edge);
    tw_cfg(w, CFG_THCON_SEC0_REG1_Downsample_mask, c->downsample);
    tw_cfg(w, CFG_STACC_RELU_ApplyRelu, c->relu);
    tw_cfg(w, CFG_THCON_SEC0_REG1_Pack_L1_Acc, c->l1acc);
    tw_cfg(w, CFG_DEST_ACCESS_CFG_remap_addrs, c->remap);
    tw_cfg(w, CFG_DEST_ACCESS_CFG_swizzle_32b, c->swizzle);
    cfg_set(&w->s[0].st, 0, CFG_DEST_TARGET_REG_CFG_PACK_SEC0_Offset, c->offset);
    tw_cfg(w, CFG_THCON_SEC0_REG1_L1_Dest_addr, (0x10000 >> 4) - 1);
    tw_thcfg(w, 2, THCFG_ADDR_MOD_PACK_SEC0_YsrcIncr, 4);
    tw_sync(w);
}

/* PACR: a format pair (the fast path's and others), Dst rows valid or not, edge masks, downsampling,
 * ReLU, L1 accumulation, ZeroWrite, partial X ranges, read interfaces, Dst remapping, the pack offset; a run of
 * PACRs, the last one flushing (L1 compared after each). */
static void test_twin_pack(void **state) {
    tw_t *w = *state;
    /* intermediate (Dstacc), In_data_format, Out_data_format, Read_32b_data */
    static const uint8_t pairs[][4] = {
        {FMT_BF16, FMT_BF16, FMT_BF16, 0}, {FMT_FP16, FMT_FP16, FMT_FP16, 0},    {FMT_FP32, FMT_FP32, FMT_FP32, 1},
        {FMT_FP32, FMT_FP32, FMT_BF16, 1}, {FMT_BF16, FMT_BF16, FMT_BF16, 1},    {FMT_FP32, FMT_FP32, FMT_FP16, 1},
        {FMT_BF16, FMT_BF16, FMT_FP32, 0}, {FMT_FP16, FMT_FP16, FMT_FP32, 0},    {FMT_FP16, FMT_FP16, FMT_BF16, 0},
        {FMT_FP16, FMT_FP16, FMT_FP8, 0},  {FMT_INT32, FMT_INT32, FMT_INT32, 1}, {FMT_INT16, FMT_INT16, FMT_INT16, 0},
        {FMT_TF32, FMT_TF32, FMT_TF32, 1}, {FMT_BF16, FMT_BF16, FMT_BFP8, 0},    {FMT_FP8, FMT_FP8, FMT_FP8, 0},
        {FMT_BFP8, FMT_BFP8, FMT_BF16, 0}, {FMT_FP16, FMT_FP16, FMT_FP16, 1},
    };
    for (unsigned iter = 0; iter < 1500; iter++) {
        const uint8_t *pr = pairs[rnd_below(3) ? rnd_below(5) : rnd_below(sizeof pairs / sizeof pairs[0])];
        unsigned bytes = (pr[1] & 3) == 0 ? 4 : (pr[1] & 3) == 1 ? 2 : 1;
        bool odd = rnd_below(3) == 0;
        for (unsigned i = 0x10000; i < 0x12000; i++) /* what L1 accumulation adds to */
            w->s[0].l1[i] = (uint8_t)rnd32();
        rnd_dst(w);
        pack_cfg_t c = {.dstacc = pr[0], .in = pr[1], .out = pr[2], .read32 = pr[3], .bytes = bytes};
        c.int8 = odd && rnd_below(3) == 0;
        c.round10 = (odd && rnd_below(3) == 0) || (pr[3] && pr[0] == FMT_FP16);
        c.edge = odd && rnd_below(2) ? rnd() & 0xFFFF : 0xFFFF;
        c.downsample = odd && rnd_below(3) == 0 ? rnd() & 0xFFFF : 0;
        c.relu = odd && rnd_below(3) == 0;
        c.l1acc = rnd_below(4) == 0;
        c.remap = rnd_below(3) == 0;
        c.swizzle = rnd_below(3) == 0;
        c.offset = rnd_below(2) ? 0 : rnd_below(64);
        tw_pack_cfg(w, &c);
        unsigned x0 = odd && rnd_below(2) ? rnd_below(16) : 0,
                 x1 = x0 + (odd && rnd_below(2) ? rnd_below(16 - x0) : 15 - x0);
        tw_run(w, 2, TT_OP_SETADCXY(4, 0, 0, 0, 0, 0xF));
        tw_run(w, 2, TT_OP_SETADCZW(4, 0, 0, 0, 0, 0xF));
        tw_run(w, 2, TT_OP_SETADCXX(4, x1, x0));
        for (unsigned k = 0, n = 1 + rnd_below(12); k < n; k++) {
            unsigned sel = rnd_below(3) ? 0 : rnd_below(16), zero = odd && rnd_below(4) == 0;
            tw_run(w, 2, TT_OP_PACR(0, 0, 0, 0, 0, zero, sel, 0, 0, 0, 0, k == n - 1 || rnd_below(8) == 0));
        }
    }
}

/* A normal FP32 number (exponent field 100..154, so that a sum of two is neither a denormal nor
 * an infinity) whose four bytes all differ (a byte swapped with any other changes the number). */
static uint32_t acc_operand(void) {
    for (;;) {
        uint32_t v = (rnd32() & 0x807FFFFFu) | (100 + rnd_below(55)) << 23;
        unsigned same = 0;
        for (unsigned i = 0; i < 4; i++)
            for (unsigned k = i + 1; k < 4; k++)
                same += (uint8_t)(v >> (8 * i)) == (uint8_t)(v >> (8 * k));
        if (!same) return v;
    }
}

/* The IEEE 754 single-precision sum a + b on the host (binary32, round to nearest even, C's default
 * rounding; FLT_EVAL_METHOD 0, so no wider intermediate): what pack_l1acc_fp32 must give for normal
 * operands whose sum is normal. */
static uint32_t ieee_add32(uint32_t a, uint32_t b) {
    _Static_assert(FLT_EVAL_METHOD == 0, "float sums rounded to binary32");
    float fa, fb, fs;
    memcpy(&fa, &a, 4);
    memcpy(&fb, &b, 4);
    fs = fa + fb;
    uint32_t s;
    memcpy(&s, &fs, 4);
    return s;
}

/* PACR's FP32 L1 accumulation reads and writes L1's words little-endian (formats.h fmt_le32_read
 * and fmt_le32_write, in the byte-order form this build has). Every Dst datum is D, every FP32
 * word of L1 a number L; each L1 word the packer reports written must then hold the IEEE sum L + D
 * (ieee_add32), its bytes little-endian. The first round is 1.0 + 1.0 = 2.0 (0x40000000, written
 * out); the others draw D and each L (acc_operand), so that a byte order wrong on any of the three
 * ways (L1's read, the datum's read, the sum's write) gives another sum or other bytes. The twins
 * share the accumulation, so the check is against IEEE arithmetic, not the other twin. */
static void test_pack_acc32_bytes(void **state) {
    tw_t *w = *state;
    for (unsigned iter = 0; iter < 20; iter++) {
        uint32_t dv = iter ? acc_operand() : 0x3F800000u, l1w[0x2000 / 4], want[0x2000 / 4];
        uint8_t was[0x2000];
        for (unsigned i = 0; i < sizeof was; i += 4) {
            uint32_t v = l1w[i / 4] = iter ? acc_operand() : 0x3F800000u;
            want[i / 4] = iter ? ieee_add32(v, dv) : 0x40000000u; /* 2.0 (check_fields: not a field) */
            for (unsigned k = 0; k < 4; k++)
                was[i + k] = (uint8_t)(v >> (8 * k));
        }
        memcpy(w->s[0].l1 + 0x10000, was, sizeof was);
        memset(w->s[0].told, 0, TW_L1);
        /* Dst32b datum D in every row, in Dst's FP32 arrangement (BH Dst.md: the high half sign |
         * mantissa's high 7 bits << 8 | exponent, the low half the mantissa's low 16 bits): high
         * halves in the physical rows with bit 3 clear, low halves in those with it set
         * (dp_internal.h dp_dst_row; no remap or swizzle below) */
        uint16_t hi = (uint16_t)((dv >> 16 & 0x8000) | (dv >> 16 & 0x7F) << 8 | (dv >> 23 & 0xFF));
        dst_regs_t *d = dp_dst_mut(w->s[0].dp);
        for (unsigned r = 0; r < DST_ROWS; r++) {
            d->valid[r] = true;
            for (unsigned c = 0; c < DST_COLS; c++)
                d->bits[r][c] = r & 8 ? (uint16_t)dv : hi;
        }
        tw_pack_cfg(w, &(pack_cfg_t){.dstacc = FMT_FP32,
                                     .in = FMT_FP32,
                                     .out = FMT_FP32,
                                     .read32 = 1,
                                     .bytes = 4,
                                     .edge = 0xFFFF,
                                     .l1acc = 1});
        tw_run(w, 2, TT_OP_SETADCXY(4, 0, 0, 0, 0, 0xF));
        tw_run(w, 2, TT_OP_SETADCZW(4, 0, 0, 0, 0, 0xF));
        tw_run(w, 2, TT_OP_SETADCXX(4, 15, 0));
        for (unsigned k = 0, n = 1 + rnd_below(8); k < n; k++)
            tw_run(w, 2, TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, k == n - 1));
        assert_int_equal(w->s[0].err.cat, CP_ERR_NONE);
        unsigned n = 0;
        for (unsigned i = 0; i < sizeof was; i += 4) {
            const uint8_t *p = w->s[0].l1 + 0x10000 + i;
            unsigned told = 0;
            for (unsigned k = 0; k < 4; k++)
                told += w->s[0].told[0x10000 + i + k];
            if (!told) continue;
            if (told != 4) fail_msg("L1 0x%x: %u of the word's 4 bytes reported written", 0x10000 + i, told);
            n++;
            for (unsigned k = 0; k < 4; k++)
                if (p[k] != (uint8_t)(want[i / 4] >> (8 * k)))
                    fail_msg("L1 0x%x: bytes %02x %02x %02x %02x after L1 0x%08x += Dst 0x%08x, want 0x%08x (IEEE, "
                             "little-endian)",
                             0x10000 + i, p[0], p[1], p[2], p[3], l1w[i / 4], dv, want[i / 4]);
        }
        assert_true(n >= 16); /* at least a row of 16 FP32 datums */
    }
}

/* Element i of a Config field word_off words further (unpacker 1's copy: + 48), both banks, on side
 * s; tw_cfg_i: on the fast side (tw_sync copies it). */
static void side_cfg_i(side_t *s, cfg_field_t fld, unsigned i, unsigned word_off, uint32_t v) {
    const cp_field_t *d = &cfg_fields[fld];
    unsigned bit = (unsigned)d->shift + i * d->stride, wd = d->word + word_off + bit / 32;
    uint32_t m = st_field_mask(d->width) << (bit % 32);
    for (unsigned b = 0; b < 2; b++)
        st_cfg_w(&s->st, b, wd, (s->st.cfg[b][wd] & ~m) | ((v << (bit % 32)) & m));
}
static void tw_cfg_i(tw_t *w, cfg_field_t fld, unsigned i, unsigned word_off, uint32_t v) {
    side_cfg_i(&w->s[0], fld, i, word_off, v);
}

/* Whether thread t's next instruction on side s would find cache id's kept setup (white box:
 * dp_key_hit in the context dp_exec gives it, the Config bank the thread's StateID). */
static bool key_hit(side_t *s, unsigned t, dp_key_id_t id, unsigned extra) {
    cp_insn_t in = dpt_insn(&s->st, &s->env, &s->err, t, TT_OP_NOP, 0);
    dp_ctx_t x;
    dp_ctx_init(&x, s->dp, &in, t, st_state_id(&s->st, t));
    return dp_key_hit(&x, id, extra);
}

/* The three kept setups (dp_internal.h dp_key_t: PACR's, UNPACR's, SFPLOAD's and SFPSTORE's), each
 * after an instruction that keeps it: current on the fast side, nothing kept on the reference
 * side; stale after a write of any Config word (either bank), found again after the next such
 * instruction; stale after a write of any ThreadConfig word of its thread, current after one of
 * another thread's; near (dp_key_near_at) after a write of a tile's word only (a quarter of the
 * draws: Base_address, MATH_Offset's word); and dropped when the reference path is turned on, also once it is off
 * again. Each write writes the value the word holds: a write, not a change, is what a key must see (the twins' key
 * tests change what the setups read). */
static void test_setup_keys(void **state) {
    tw_t *w = *state;
    side_t *s = &w->s[0];
    for (unsigned iter = 0; iter < 300; iter++) {
        unsigned kind = iter % 3, t = kind == 0 ? 2 : kind == 1 ? 0 : 1;
        dp_key_id_t id = kind == 0 ? DP_KEY_PACK : kind == 1 ? unp_key(0, 0) : DP_KEY_SFP;
        uint32_t word;
        if (kind == 0) { /* PACR: FP32 rows from Dst to L1 0x10000 */
            tw_pack_cfg(
                w, &(pack_cfg_t){
                       .dstacc = FMT_FP32, .in = FMT_FP32, .out = FMT_FP32, .read32 = 1, .bytes = 4, .edge = 0xFFFF});
            tw_run(w, 2, TT_OP_SETADCXY(4, 0, 0, 0, 0, 0xF));
            tw_run(w, 2, TT_OP_SETADCZW(4, 0, 0, 0, 0, 0xF));
            tw_run(w, 2, TT_OP_SETADCXX(4, 15, 0));
            word = TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
        } else if (kind == 1) { /* UNPACR: one row of BF16 from L1 0x1000 to SrcA */
            for (unsigned i = 0; i < 2; i++)
                dp_reset(w->s[i].dp);
            tw_cfg_i(w, CFG_THCON_SEC0_REG0_TileDescriptor, 0, 0, FMT_BF16 | 1u << 4 | 16u << 16);
            tw_cfg_i(w, CFG_THCON_SEC0_REG0_TileDescriptor, 1, 0, 1u | 1u << 16);
            tw_cfg(w, CFG_THCON_SEC0_REG2_Out_data_format, FMT_BF16);
            tw_cfg(w, CFG_THCON_SEC0_REG3_Base_address, 0x100 - 1);
            tw_sync(w);
            tw_run(w, 0, TT_OP_SETADCXY(1, 0, 0, 0, 0, 0xF));
            tw_run(w, 0, TT_OP_SETADCZW(1, 0, 0, 0, 0, 0xF));
            tw_run(w, 0, TT_OP_SETADCXX(1, 15, 0));
            word = TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        } else { /* SFPLOAD from Dst */
            rnd_sfpu_cfg(w);
            tw_sync(w);
            word = TT_OP_SFPLOAD(rnd_below(8), 0, 0, rnd_below(1024));
        }
        tw_run(w, t, word);
        assert_int_equal(s->err.cat, CP_ERR_NONE);
        assert_true(key_hit(s, t, id, 0));
        assert_false(key_hit(&w->s[1], t, id, 0)); /* (the reference side keeps nothing) */
        /* Config, any word of either bank */
        unsigned b = rnd_below(2), cw = rnd_below(4) ? rnd_below(CP_CFG_WORDS) : ST_CFG_UNP_BASE_WORD + rnd_below(8);
        st_cfg_w(&s->st, b, cw, s->st.cfg[b][cw]);
        assert_false(key_hit(s, t, id, 0));
        assert_int_equal(dp_key_near_at(s->dp, &s->st, t, id, 0), st_cfg_tile_word(cw));
        tw_run(w, t, word);
        assert_true(key_hit(s, t, id, 0));
        /* ThreadConfig: another thread's word, then any word of the thread's */
        unsigned tw = rnd_below(4)   ? rnd_below(CP_THDCFG_WORDS)
                      : rnd_below(2) ? ST_THDCFG_MATH_OFF_WORD
                                     : ST_THDCFG_UNP_CTX_WORD;
        unsigned other = (t + 1 + rnd_below(2)) % 3;
        st_thdcfg_w(&s->st, other, tw, s->st.thdcfg[other][tw]);
        assert_true(key_hit(s, t, id, 0));
        st_thdcfg_w(&s->st, t, tw, s->st.thdcfg[t][tw]);
        assert_false(key_hit(s, t, id, 0));
        assert_int_equal(dp_key_near_at(s->dp, &s->st, t, id, 0), st_thdcfg_tile_word(tw));
        tw_run(w, t, word);
        assert_true(key_hit(s, t, id, 0));
        /* the reference path on and off again */
        dp_set_reference(s->dp, true);
        assert_false(key_hit(s, t, id, 0));
        assert_false(dp_key_near_at(s->dp, &s->st, t, id, 0));
        dp_set_reference(s->dp, false);
        assert_false(key_hit(s, t, id, 0));
        tw_run(w, t, word);
        assert_true(key_hit(s, t, id, 0));
    }
}

/* PACR's setup (pack.c pack_setup_of): the fast side decodes Config once and keeps it while no
 * Config word is written (cp_state_t.cfg_gen unchanged) and the bank is the same. Each round: a
 * random PACR configuration (BF16 or FP32 through, random row set mappings, edge masks and rows a
 * plane, so that each matters), one PACR, then random bits of one Config word (any of the 224,
 * either bank) flipped through st_cfg_w and another PACR: a write that left cfg_gen as it was
 * would leave the fast side with the old setup. */
static void test_twin_pack_key(void **state) {
    tw_t *w = *state;
    unsigned packed = 0, swapped = 0;
    for (unsigned iter = 0; iter < 4000; iter++) {
        bool f32 = rnd_below(2);
        for (unsigned i = 0; i < 2; i++) /* the packer's streams afresh (a refused PACR leaves them) */
            dp_reset(w->s[i].dp);
        rnd_dst(w);
        tw_cfg(w, CFG_PCK0_ADDR_CTRL_XY_REG_0_Ystride, f32 ? 64 : 32);
        tw_cfg(w, CFG_PCK0_ADDR_CTRL_ZW_REG_0_Zstride, f32 ? 1024 : 512);
        tw_cfg(w, CFG_ALU_FORMAT_SPEC_REG2_Dstacc, f32 ? FMT_FP32 : FMT_BF16);
        tw_cfg(w, CFG_THCON_SEC0_REG1_In_data_format, f32 ? FMT_FP32 : FMT_BF16);
        tw_cfg(w, CFG_THCON_SEC0_REG1_Out_data_format, f32 && rnd_below(2) ? FMT_FP32 : FMT_BF16);
        tw_cfg(w, CFG_PCK_DEST_RD_CTRL_Read_32b_data, f32);
        tw_cfg(w, CFG_THCON_SEC0_REG1_Exp_section_size, 1);
        tw_cfg(w, CFG_THCON_SEC0_REG1_Disable_zero_compress, 1);
        tw_cfg(w, CFG_THCON_SEC0_REG1_Sub_l1_tile_header_size, rnd_below(2)); /* (the header skipped or not) */
        tw_cfg(w, CFG_PACK_COUNTERS_SEC0_pack_reads_per_xy_plane, 1 + rnd_below(4));
        for (unsigned i = 0; i < 4; i++)
            tw_cfg_i(w, CFG_PCK_EDGE_OFFSET_SEC0_mask, i, 0, rnd_below(2) ? 0xFFFF : rnd() & 0xFFFF);
        for (unsigned i = 0; i < 64; i++)
            tw_cfg_i(w, CFG_TILE_ROW_SET_MAPPING_0_row_set_mapping_0, i, 0, rnd_below(4));
        tw_cfg(w, CFG_PCK_EDGE_TILE_ROW_SET_SELECT_select, rnd_below(4));
        tw_cfg(w, CFG_PCK_EDGE_MODE_mode, rnd_below(2));
        tw_cfg(w, CFG_THCON_SEC0_REG1_L1_Dest_addr, (0x10000 >> 4) - 1);
        tw_thcfg(w, 2, THCFG_ADDR_MOD_PACK_SEC0_YsrcIncr, 4);
        tw_sync(w);
        /* mostly where the packer's and the ALU's registers are (words 0..31, THCON from 64, the
         * global registers from 176) */
        static const unsigned regions[] = {0, 64, 176};
        unsigned r = rnd_below(4), word = r ? regions[r - 1] + rnd_below(32) : rnd_below(CP_CFG_WORDS);
        unsigned bank = rnd_below(2);
        uint32_t flip = (rnd() & rnd()) | 1u << rnd_below(32);
        /* or, one round in four, bank 1's word flipped first, and the second PACR reading bank 1
         * (thread 2's StateID switched, no Config written in between) */
        bool swap = rnd_below(4) == 0;
        if (swap) {
            bank = 1;
            for (unsigned i = 0; i < 2; i++)
                st_cfg_w(&w->s[i].st, bank, word, w->s[i].st.cfg[bank][word] ^ flip);
        }
        /* Z, W and the output's Y not zero, so that their strides count */
        tw_run(w, 2, TT_OP_SETADCXY(4, rnd_below(4), 0, 0, 0, 0xF));
        tw_run(w, 2, TT_OP_SETADCZW(4, rnd_below(4), rnd_below(4), rnd_below(4), rnd_below(4), 0xF));
        tw_run(w, 2, TT_OP_SETADCXX(4, 15, 0));
        tw_run(w, 2, TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, rnd_below(2))); /* Last: a fresh address next */
        packed += w->s[0].err.cat == CP_ERR_NONE;
        swapped += swap && w->s[0].err.cat == CP_ERR_NONE;
        for (unsigned i = 0; i < 2; i++) {
            if (swap)
                thcfg_set(&w->s[i].st, 2, THCFG_CFG_STATE_ID_StateID, 1);
            else
                st_cfg_w(&w->s[i].st, bank, word, w->s[i].st.cfg[bank][word] ^ flip);
        }
        tw_run(w, 2, TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1));
        for (unsigned i = 0; i < 2; i++) { /* undone: the next round starts from a configuration that packs */
            thcfg_set(&w->s[i].st, 2, THCFG_CFG_STATE_ID_StateID, 0);
            st_cfg_w(&w->s[i].st, bank, word, w->s[i].st.cfg[bank][word] ^ flip);
        }
    }
    assert_true(packed > 3000); /* the first PACR of a round packs (its setup kept) */
    assert_true(swapped > 600); /* rounds whose two PACRs read different banks */
}

/* Config field f (element i) set on both twins, both banks, mid-run (the packer's state kept). */
static void tw_cfg_both(tw_t *w, cfg_field_t f, unsigned i, uint32_t v) {
    for (unsigned k = 0; k < 2; k++)
        side_cfg_i(&w->s[k], f, i, 0, v);
}

/* PACR's light way (pack.c dp_pack_light): runs of PACRs by thread 2 as add1's packer issues them
 * (16-bit Dst to BF16 or FP16, four rows from a group's first, AddrMode 0..3 over random
 * ADDR_MOD_PACK sections, Last now and then), with between them what the light way must see or
 * leave to pack_exec: a Dst row made invalid, the edge masks' row set switched to one that masks
 * some tile row positions (the tile row position the light way leaves is then read), a partial X
 * range (bytes left in the output buffer), a block-float PACR (an exponent byte left for Last to
 * flush), a read from a row not first of its group (refused), a PACR of another thread or with
 * ZeroWrite, Flush or a partial ReadIntfSel, the StateID switched, a tile's word written (the
 * output's L1 address, the Dst offset, or an unpacker's address: the setup kept, pack_setup_near);
 * and setups it must not take (L1 accumulation, ReLU, the data stream's end near L1's). White box:
 * the fast side's light runs are counted (packer_t.light_runs; those right after a tile's word
 * too), the reference side makes none. */
static void test_twin_pack_light(void **state) {
    tw_t *w = *state;
    unsigned light = 0, near = 0; /* light runs; of them, right after a tile's word written */
    bool tile = false;
    for (unsigned iter = 0; iter < 400; iter++) {
        for (unsigned i = 0; i < 2; i++)
            dp_reset(w->s[i].dp);
        rnd_dst(w);
        for (unsigned r = 0; r < DST_ROWS; r++) /* (mostly valid: a group of four whole) */
            dp_dst_mut(w->s[0].dp)->valid[r] = rnd_below(32) != 0;
        bool f16 = rnd_below(4) == 0;
        pack_cfg_t c = {.dstacc = f16 ? FMT_FP16 : FMT_BF16,
                        .in = f16 ? FMT_FP16 : FMT_BF16,
                        .out = f16 ? FMT_FP16 : FMT_BF16,
                        .bytes = 2,
                        .edge = 0xFFFF};
        c.remap = rnd_below(3) == 0;
        c.swizzle = rnd_below(3) == 0;
        c.offset = rnd_below(2) ? 0 : 4 * rnd_below(16);
        c.l1acc = rnd_below(10) == 0;
        c.relu = rnd_below(10) == 0;
        tw_pack_cfg(w, &c);
        tw_cfg(w, CFG_THCON_SEC0_REG1_Sub_l1_tile_header_size, rnd_below(2)); /* (the header skipped or not) */
        tw_cfg(w, CFG_PACK_COUNTERS_SEC0_pack_reads_per_xy_plane, rnd_below(2) ? 16 : 1 + rnd_below(20));
        tw_cfg_i(w, CFG_PCK_EDGE_OFFSET_SEC0_mask, 1, 0, rnd() & 0x7FFF);
        for (unsigned pos = 0; pos < 16; pos++)
            tw_cfg_i(w, CFG_TILE_ROW_SET_MAPPING_0_row_set_mapping_0, 16 + pos, 0, rnd_below(2));
        if (rnd_below(8) == 0) tw_cfg(w, CFG_THCON_SEC0_REG1_L1_Dest_addr, ((TW_L1 - 0x100) >> 4) - 1);
        for (unsigned sec = 0; sec < 4; sec++)
            st_thdcfg_w(&w->s[0].st, 2, thcfg_fields[THCFG_ADDR_MOD_PACK_SEC0_YsrcIncr].word + sec,
                        (uint16_t)(rnd() & (rnd_below(4) ? 0x50D4 : 0xFFFF)));
        tw_sync(w);
        tw_run(w, 2, TT_OP_SETADCXY(4, 0, 0, 0, 0, 0xF));
        tw_run(w, 2, TT_OP_SETADCZW(4, 0, 0, 0, 0, 0xF));
        tw_run(w, 2, TT_OP_SETADCXX(4, 15, 0));
        for (unsigned k = 0; k < 32; k++) {
            unsigned t = 2, kind = rnd_below(24);
            if (kind == 0) { /* a Dst row invalid */
                unsigned r = rnd_below(DST_ROWS);
                for (unsigned i = 0; i < 2; i++)
                    dp_dst_mut(w->s[i].dp)->valid[r] = false;
            } else if (kind == 1) { /* a PACR through the row set with masked positions, then back */
                tw_cfg_both(w, CFG_PCK_EDGE_TILE_ROW_SET_SELECT_select, 0, 1);
                tw_run(w, 2, TT_OP_PACR(0, 0, 0, rnd_below(4), 0, 0, 0, 0, 0, 0, 0, rnd_below(4) == 0));
                tw_cfg_both(w, CFG_PCK_EDGE_TILE_ROW_SET_SELECT_select, 0, 0);
            } else if (kind == 2) { /* a partial X range, or 16 datums from a column other than 0, then whole rows */
                unsigned x0 = rnd_below(16), x1 = x0 + rnd_below(16 - x0);
                if (rnd_below(4) == 0) x0 = 1 + rnd_below(8), x1 = x0 + 15;
                tw_run(w, 2, TT_OP_SETADCXX(4, x1, x0));
                tw_run(w, 2, TT_OP_PACR(0, 0, 0, rnd_below(4), 0, 0, 0, 0, 0, 0, 0, 0));
                tw_run(w, 2, TT_OP_SETADCXX(4, 15, 0));
            } else if (kind == 3) { /* a block-float PACR (an exponent byte buffered), then 16-bit again */
                tw_cfg_both(w, CFG_THCON_SEC0_REG1_Out_data_format, 0, FMT_BFP8);
                tw_run(w, 2, TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
                tw_cfg_both(w, CFG_THCON_SEC0_REG1_Out_data_format, 0, c.out);
            } else if (kind == 4) { /* the source row moved, off a group's first now and then */
                tw_run(w, 2, TT_OP_SETADCXY(4, 0, 0, rnd_below(4) ? 4 * rnd_below(4) : rnd_below(16), 0, 0x2));
            } else if (kind == 5) { /* thread 2's Config bank switched (the banks alike) */
                for (unsigned i = 0; i < 2; i++)
                    thcfg_set(&w->s[i].st, 2, THCFG_CFG_STATE_ID_StateID,
                              thcfg_get(&w->s[i].st, 2, THCFG_CFG_STATE_ID_StateID) ^ 1);
            } else if (kind == 6) {
                t = 0;
            } else if (kind < 10) { /* a tile's word: the output's L1 address, the Dst offset, an unpacker's */
                unsigned word = kind == 7   ? cfg_fields[CFG_THCON_SEC0_REG1_L1_Dest_addr].word
                                : kind == 8 ? cfg_fields[CFG_DEST_TARGET_REG_CFG_PACK_SEC0_Offset].word
                                            : cfg_fields[CFG_THCON_SEC0_REG3_Base_address].word + rnd_below(8);
                uint32_t v = kind == 7 ? rnd_below((TW_L1 - 0x200) >> 4) : kind == 8 ? 4 * rnd_below(16) : rnd();
                unsigned bank = st_state_id(&w->s[0].st, 2);
                for (unsigned i = 0; i < 2; i++)
                    st_cfg_store(&w->s[i].st, bank, word, v);
                tile = true;
            }
            unsigned sel = rnd_below(8) ? (rnd_below(2) ? 0 : 15) : rnd_below(16);
            bool zero = rnd_below(16) == 0, flush = rnd_below(16) == 0, last = rnd_below(4) == 0;
            /* now and then one field pack_exec refuses (CfgContext, RowPadZero, DstAccessMode, AddrCntContext,
             * OvrdThreadId, CtxtCtrl), or Concat, which it takes */
            unsigned odd[7] = {0}, f = rnd_below(16) == 0 ? rnd_below(7) : 7;
            if (f < 7) odd[f] = f == 2 || f == 4 ? 1 : 1 + rnd_below(f < 2 || f == 6 ? 7 : 3);
            unsigned before = w->s[0].dp->pack.light_runs;
            tw_run(w, t,
                   TT_OP_PACR(odd[0], odd[1], odd[2], rnd_below(4), odd[3], zero, sel, odd[4], odd[6], odd[5], flush,
                              last));
            light += w->s[0].dp->pack.light_runs - before;
            near += tile ? w->s[0].dp->pack.light_runs - before : 0;
            tile = false;
        }
    }
    if (strcmp(dp_pack_byte_order_form(), "le") == 0)
        assert_true(light > 2000 && near > 200); /* (near: the setup kept across a tile's word, pack_setup_near) */
    else
        assert_int_equal(light, 0); /* (test_dp_fast_nosimd: no 16-bit rows at once, pack_setup_t.light) */
    assert_int_equal(w->s[1].dp->pack.light_runs, 0);
}

/* UNPACR (not multi-context) from random L1: formats with and without a conversion (and a block
 * float), either unpacker, SrcA row offsets and SetOvrdWithAddr, transpose, column shift, tileize,
 * upsampling, ZeroWrite2, to Dst, partial X ranges and faces, address counters stepping. */
static void test_twin_unpack(void **state) {
    tw_t *w = *state;
    /* in, out */
    static const uint8_t fmts[][2] = {
        {FMT_BF16, FMT_BF16}, {FMT_FP16, FMT_FP16}, {FMT_FP32, FMT_TF32},   {FMT_FP32, FMT_BF16}, {FMT_FP32, FMT_FP16},
        {FMT_INT8, FMT_INT8}, {FMT_FP8, FMT_FP8},   {FMT_INT16, FMT_INT16}, {FMT_FP32, FMT_FP32}, {FMT_BFP8, FMT_BFP8},
    };
    for (unsigned i = 0; i < TW_L1; i++)
        w->s[0].l1[i] = (uint8_t)rnd32();
    for (unsigned iter = 0; iter < 1500; iter++) {
        unsigned u = rnd_below(4) == 0, off = u * 48;
        const uint8_t *fm = fmts[rnd_below(3) ? 0 : rnd_below(sizeof fmts / sizeof fmts[0])];
        bool odd = rnd_below(3) == 0;
        unsigned size = fmt_datum_bits(fm[1]) / 8, osize = size == 4 ? 4 : size == 2 ? 2 : 1;
        unsigned xdim = odd && rnd_below(2) ? 1 + rnd_below(300) : 256, zdim = 1 + rnd_below(4);
        tw_cfg_i(w, CFG_THCON_SEC0_REG0_TileDescriptor, 0, off, fm[0] | 1u << 4 | xdim << 16);
        tw_cfg_i(w, CFG_THCON_SEC0_REG0_TileDescriptor, 1, off, 1u | zdim << 16);
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Out_data_format, 0, off, fm[1]);
        unsigned base = rnd_below(TW_L1 / 16 - 1024);
        tw_cfg_i(w, CFG_THCON_SEC0_REG3_Base_address, 0, off, base);
        /* sometimes an L1 FIFO that wraps within the tile (back to within L1) */
        bool wraps = odd && rnd_below(2);
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Unpack_limit_address, 0, off, wraps ? base + 1 + rnd_below(64) : 0);
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Unpack_fifo_size, 0, off, wraps ? 1 + rnd_below(base + 1) : 0);
        tw_cfg(w, u ? CFG_UNP1_ADDR_BASE_REG_1_Base : CFG_UNP0_ADDR_BASE_REG_1_Base,
               odd && rnd_below(2) ? rnd_below(256) * osize : 64 * osize);
        tw_cfg(w, u ? CFG_UNP1_ADDR_CTRL_ZW_REG_1_Zstride : CFG_UNP0_ADDR_CTRL_ZW_REG_1_Zstride,
               rnd_below(2) ? 0 : 256 * osize);
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Haloize_mode, 0, off, odd && rnd_below(4) == 0);
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Tileize_mode, 0, off, odd && rnd_below(4) == 0);
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Shift_amount_cntx0, 0, off, odd && rnd_below(4) == 0 ? rnd_below(16) : 0);
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Shift_amount_cntx0, 1, off, rnd_below(2));
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Upsample_rate, 0, off, odd && rnd_below(4) == 0 ? rnd_below(4) : 0);
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Upsample_and_interleave, 0, off, rnd_below(2));
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Unpack_Src_Reg_Set_Upd, 0, off, rnd_below(2));
        tw_cfg(w, CFG_THCON_SEC0_REG2_Unpack_If_Sel, odd && rnd_below(3) == 0);
        tw_cfg(w, CFG_DEST_ACCESS_CFG_remap_addrs, rnd_below(3) == 0);
        tw_thcfg(w, 0, THCFG_SRCA_SET_SetOvrdWithAddr, rnd_below(3) == 0);
        tw_thcfg(w, 0, THCFG_SRCA_SET_Base, rnd_below(4));
        tw_thcfg(w, 0, THCFG_SRCB_SET_Base, rnd_below(4));
        tw_sync(w);
        unsigned x0 = odd && rnd_below(2) ? rnd_below(64) : 0, x1 = odd && rnd_below(2) ? x0 + rnd_below(256) : 255;
        tw_run(w, 0, TT_OP_SETADCXY(u ? 2 : 1, 0, 0, 0, 0, 0xF));
        tw_run(w, 0, TT_OP_SETADCZW(u ? 2 : 1, 0, 0, 0, rnd_below(zdim), 0xF));
        tw_run(w, 0, TT_OP_SETADCXX(u ? 2 : 1, x1, x0));
        for (unsigned k = 0, n = 1 + rnd_below(4); k < n; k++) {
            unsigned flip = rnd_below(2), zero = odd && rnd_below(4) == 0;
            tw_run(w, 0, TT_OP_UNPACR(u, rnd_below(2), 0, 0, 0, 0, flip, 0, zero, 0, 0, 0, 0));
        }
    }
}

/* Disable_zero_compress_cntx<c>'s bit of each context (contexts 4..7 16 bits up: unpack.c ctx_bit). */
static const unsigned unp_ctx_bits[] = {0, 1, 2, 3, 16, 17, 18, 19};

/* The unpacker's contexts (unpacker 0's fields `off` words further): every one uncompressed, its
 * Base_address below base_below, Offset_address below 16; unpacker 0's Tile_x_dim xdim and
 * Dest_cntx_address 16 times dest_min..7. */
static void tw_unp_contexts(tw_t *w, unsigned off, uint32_t base_below, unsigned xdim, unsigned dest_min) {
    for (unsigned c = 0; c < 8; c++) {
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Disable_zero_compress_cntx0, unp_ctx_bits[c], off, 1);
        tw_cfg_i(w, CFG_THCON_SEC0_REG3_Base_address, c, off, rnd_below(base_below));
    }
    for (unsigned c = 0; c < 4; c++) {
        tw_cfg_i(w, CFG_THCON_SEC0_REG7_Offset_address, c, off, rnd_below(16));
        tw_cfg_i(w, CFG_THCON_SEC0_REG5_Tile_x_dim_cntx0, c, 0, xdim);
        tw_cfg_i(w, CFG_THCON_SEC0_REG5_Dest_cntx0_address, c, 0, 16 * (dest_min + rnd_below(8 - dest_min)));
    }
}

/* UNPACR's setup (unpack.c unp_setup_of): the fast side decodes what UNPACR reads of Config and of
 * the thread's ThreadConfig once and keeps it while its key is the same: Config's cfg_gen, the
 * thread, its ThreadConfig's thdcfg_gen, the context mode and context. Each round: a random
 * configuration of one row of BF16 in every context (bases, offsets, Dst context addresses and
 * each thread's SrcA/SrcB base, SetOvrdWithAddr and context offset drawn), one UNPACR, then one of
 * the key's inputs changed alone and two more UNPACRs (the second shows a SrcRow the first set):
 * a Config word of the unpackers' (flipped bits, through st_cfg_w), a ThreadConfig word of the
 * thread's (thcfg_set; or its StateID switched to a bank whose word differs), the other thread
 * (nothing written, the two threads' generations made the same number), the context, or every
 * context's Base_address (a tile's word: the setup near its key, unp_setup_near; with BF16, BFP8
 * or compressed input, whose exponent and row start addresses move with it). A key without that
 * input leaves the fast side with the old setup; `changed` counts the rounds of each kind whose
 * first UNPACR ran. */
static void test_twin_unpack_key(void **state) {
    tw_t *w = *state;
    unsigned changed[6] = {0};
    for (unsigned i = 0; i < TW_L1; i++)
        w->s[0].l1[i] = (uint8_t)rnd32();
    for (unsigned iter = 0; iter < 3000; iter++) {
        unsigned u = rnd_below(2), off = u * 48, t = rnd_below(2), kind = rnd_below(6), form = 0;
        bool multi = kind == 4 || rnd_below(2);
        for (unsigned i = 0; i < 2; i++)
            dp_reset(w->s[i].dp);
        tw_cfg_i(w, CFG_THCON_SEC0_REG0_TileDescriptor, 0, off, FMT_BF16 | 1u << 4 | 16u << 16);
        tw_cfg_i(w, CFG_THCON_SEC0_REG0_TileDescriptor, 1, off, 1u | 1u << 16);
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Out_data_format, 0, off, FMT_BF16);
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Unpack_Src_Reg_Set_Upd, 0, off, 1);
        tw_unp_contexts(w, off, TW_L1 / 16 - 64, 16, 0);
        if (kind == 5) form = rnd_below(3); /* BF16 as above, BFP8, or compressed BF16 */
        if (form == 1) {
            tw_cfg_i(w, CFG_THCON_SEC0_REG0_TileDescriptor, 0, off, FMT_BFP8 | 1u << 4 | 16u << 16);
            tw_cfg_i(w, CFG_THCON_SEC0_REG2_Out_data_format, 0, off, FMT_BFP8);
        }
        if (form == 2) {
            tw_cfg_i(w, CFG_THCON_SEC0_REG0_TileDescriptor, 0, off, FMT_BF16 | 16u << 16);
            for (unsigned c = 0; c < 8; c++)
                tw_cfg_i(w, CFG_THCON_SEC0_REG2_Disable_zero_compress_cntx0, unp_ctx_bits[c], off, 0);
        }
        tw_cfg(w, CFG_UNP0_ADD_DEST_ADDR_CNTR_add_dest_addr_cntr, 1);
        tw_cfg(w, u ? CFG_UNP1_ADDR_BASE_REG_1_Base : CFG_UNP0_ADDR_BASE_REG_1_Base, 64 * 2);
        for (unsigned th = 0; th < 2; th++) {
            tw_thcfg(w, th, THCFG_CFG_STATE_ID_StateID, 0);
            tw_thcfg(w, th, THCFG_SRCA_SET_SetOvrdWithAddr, rnd_below(2));
            tw_thcfg(w, th, THCFG_SRCA_SET_Base, rnd_below(4));
            tw_thcfg(w, th, THCFG_SRCB_SET_Base, rnd_below(4));
            /* CfgContextOffset of unpacker 0 (bits 0..3), unpacker 1's 0 (bits 8..11: its contexts 0, 1) */
            st_thdcfg_w(&w->s[0].st, th, thcfg_fields[THCFG_UNPACK_MISC_CFG_CfgContextOffset_0].word,
                        (uint16_t)rnd_below(8));
        }
        /* bank 1: bank 0's words of the unpacker but one, for a StateID switch */
        unsigned word = 64 + rnd_below(96), bank = 0;
        uint32_t flip = (rnd() & rnd()) | 1u << rnd_below(32);
        bool swap = kind == 1 && rnd_below(2);
        if (swap) st_cfg_w(&w->s[0].st, 1, word, w->s[0].st.cfg[1][word] ^ flip), bank = 1;
        tw_sync(w);
        for (unsigned th = 0; th < 2; th++) {
            tw_run(w, th, TT_OP_SETADCXY(u ? 2 : 1, 0, 0, 0, 0, 0xF));
            tw_run(w, th, TT_OP_SETADCZW(u ? 2 : 1, 0, 0, 0, 0, 0xF));
            tw_run(w, th, TT_OP_SETADCXX(u ? 2 : 1, 15, 0));
        }
        unsigned c0 = rnd_below(u ? 2 : 8), c1 = kind == 4 ? (c0 + 1 + rnd_below(u ? 1 : 7)) % (u ? 2 : 8) : c0;
        if (kind == 3) tw_same_tgen(w, t, 1 - t);
        tw_run(w, t, TT_OP_UNPACR(u, 0, 0, c0, 0, multi, rnd_below(2), 0, 0, 0, 0, 0, 0));
        bool ran = w->s[0].err.cat == CP_ERR_NONE;
        unsigned t2 = t, base_v = rnd_below(4);
        thcfg_field_t base_f = rnd_below(2) ? THCFG_SRCA_SET_Base : THCFG_SRCB_SET_Base;
        uint32_t bases[8];
        for (unsigned c = 0; c < 8; c++)
            bases[c] = rnd_below(TW_L1 / 16 - 64);
        for (unsigned i = 0; i < 2; i++) {
            cp_state_t *st = &w->s[i].st;
            switch (kind) {
            case 0: st_cfg_w(st, bank, word, st->cfg[bank][word] ^ flip); break;
            case 1:
                if (swap)
                    thcfg_set(st, t, THCFG_CFG_STATE_ID_StateID, 1);
                else
                    thcfg_set(st, t, base_f, base_v);
                break;
            case 2:
                thcfg_set(st, t, THCFG_SRCA_SET_SetOvrdWithAddr, !thcfg_get(st, t, THCFG_SRCA_SET_SetOvrdWithAddr));
                break;
            case 3: t2 = 1 - t; break;
            case 5:
                for (unsigned c = 0; c < 8; c++)
                    st_cfg_w(st, 0, cfg_fields[CFG_THCON_SEC0_REG3_Base_address].word + off + c, bases[c]);
                break;
            default: break;
            }
        }
        for (unsigned k = 0; k < 2; k++)
            tw_run(w, t2, TT_OP_UNPACR(u, 0, 0, c1, 0, multi, k == 0, 0, 0, 0, 0, 0, 0));
        changed[kind] += ran;
        for (unsigned i = 0; i < 2; i++) { /* undone: the next round starts from bank 0 as drawn */
            for (unsigned th = 0; th < 2; th++)
                thcfg_set(&w->s[i].st, th, THCFG_CFG_STATE_ID_StateID, 0);
            if (kind == 0 || swap) st_cfg_w(&w->s[i].st, bank, word, w->s[i].st.cfg[bank][word] ^ flip);
        }
    }
    for (unsigned k = 0; k < 6; k++) /* (compressed input from random L1 often fails: both sides alike) */
        assert_true(changed[k] > (k == 5 ? 150u : 300u));
}

/* Thread t's word dispatched n times on both sides before any retires (an unpacker's queue filled
 * past UNP_JOBS: the general way refuses the ninth), then the jobs retired, and compared. */
static void tw_queue(tw_t *w, unsigned t, uint32_t word, unsigned n) {
    for (unsigned i = 0; i < 2; i++) {
        side_t *s = &w->s[i];
        memset(&s->err, 0, sizeof s->err);
        cp_insn_t in = dpt_insn(&s->st, &s->env, &s->err, t, word, 0);
        for (unsigned k = 0; k < n && s->err.cat == CP_ERR_NONE; k++)
            dp_exec(s->dp, &in);
        for (unsigned k = 0; k < n; k++)
            dp_unpack_data(s->dp, &in);
    }
    tw_compare(w, word);
}

/* UNPACR's light way (unpack.c dp_unpack_light): runs of UNPACRs as add1's unpackers issue them
 * (whole rows of BF16, or another conversion fmt_unpack_rows takes, from L1 into SrcA or SrcB,
 * with or without contexts, AddrMode stepping Y and Z), with between them what the light way must
 * see or leave to unpacr: a partial X range or one from another column, the output address off a
 * row's start or off its datum, the rows' end past L1's, a FIFO that wraps within them, Src rows
 * that wrap (SrcB) or run past SrcA's 16, ZeroWrite2, RowSearch, srcb_bcast, CfgContextCntInc, a
 * context out of range or ContextADC 3, another thread, the queue filled past UNP_JOBS, the context
 * offsets changed (a tile's word: the kept setups near their keys); and setups
 * it must not take (compressed, block float, transpose, column shift, tileize, upsampling, to Dst,
 * a conversion refused), each written on both sides and then undone. White box: the fast side's
 * light runs are counted (unpacker_t.light_runs), the reference side makes none. */
static void test_twin_unpack_light(void **state) {
    tw_t *w = *state;
    static const uint8_t fmts[][2] = {
        {FMT_BF16, FMT_BF16}, {FMT_FP16, FMT_FP16}, {FMT_FP32, FMT_TF32}, {FMT_FP32, FMT_BF16}, {FMT_INT8, FMT_INT8},
    };
    static const cfg_field_t refused[] = {
        CFG_THCON_SEC0_REG2_Haloize_mode,          CFG_THCON_SEC0_REG2_Shift_amount_cntx0,
        CFG_THCON_SEC0_REG2_Tileize_mode,          CFG_THCON_SEC0_REG2_Upsample_rate,
        CFG_THCON_SEC0_REG2_Unpack_If_Sel,         CFG_THCON_SEC0_REG2_Disable_zero_compress_cntx0,
        CFG_THCON_SEC0_REG0_TileDescriptor,        CFG_THCON_SEC0_REG2_Out_data_format,
        CFG_THCON_SEC0_REG2_Unpack_Src_Reg_Set_Upd};
    unsigned light = 0;
    for (unsigned i = 0; i < TW_L1; i++)
        w->s[0].l1[i] = (uint8_t)rnd32();
    for (unsigned iter = 0; iter < 300; iter++) {
        for (unsigned i = 0; i < 2; i++)
            dp_reset(w->s[i].dp);
        unsigned u = rnd_below(2), off = u * 48, adc = u ? 2 : 1;
        bool multi = rnd_below(2), multi0 = multi;
        unsigned ctx0 = rnd_below(u ? 2 : 8); /* (most UNPACRs' context: their setup kept) */
        const uint8_t *fm = fmts[rnd_below(2) ? 0 : rnd_below(sizeof fmts / sizeof fmts[0])];
        unsigned size = fmt_datum_bits(fm[0]) / 8, osize = fmt_datum_bits(fm[1]) / 8, rows = 1 + rnd_below(4);
        uint32_t d0 = fm[0] | 1u << 4 | 64u << 16;
        tw_cfg_i(w, CFG_THCON_SEC0_REG0_TileDescriptor, 0, off, d0);
        tw_cfg_i(w, CFG_THCON_SEC0_REG0_TileDescriptor, 1, off, 1u | 4u << 16);
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Out_data_format, 0, off, fm[1]);
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Unpack_Src_Reg_Set_Upd, 0, off, rnd_below(2));
        tw_unp_contexts(w, off, TW_L1 / 16 - 1024, 64, 4);
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Context_count, 0, off, rnd_below(3));
        tw_cfg(w, CFG_UNP0_ADD_DEST_ADDR_CNTR_add_dest_addr_cntr, rnd_below(2));
        tw_cfg(w, u ? CFG_UNP1_ADDR_BASE_REG_1_Base : CFG_UNP0_ADDR_BASE_REG_1_Base, 64 * osize);
        tw_cfg(w, u ? CFG_UNP1_ADDR_CTRL_XY_REG_1_Ystride : CFG_UNP0_ADDR_CTRL_XY_REG_1_Ystride,
               rnd_below(4) ? 16 * osize * rows : 16 * osize * rnd_below(3) + osize * rnd_below(2) + rnd_below(2));
        tw_cfg(w, u ? CFG_UNP1_ADDR_CTRL_ZW_REG_1_Zstride : CFG_UNP0_ADDR_CTRL_ZW_REG_1_Zstride,
               rnd_below(2) ? 0 : 64 * osize);
        for (unsigned th = 0; th < 2; th++) {
            tw_thcfg(w, th, THCFG_CFG_STATE_ID_StateID, 0);
            tw_thcfg(w, th, THCFG_SRCA_SET_SetOvrdWithAddr, rnd_below(4) == 0);
            tw_thcfg(w, th, THCFG_SRCA_SET_Base, rnd_below(4));
            tw_thcfg(w, th, THCFG_SRCB_SET_Base, rnd_below(4));
            st_thdcfg_w(&w->s[0].st, th, thcfg_fields[THCFG_UNPACK_MISC_CFG_CfgContextOffset_0].word,
                        (uint16_t)rnd_below(8));
        }
        tw_sync(w);
        for (unsigned th = 0; th < 3; th++) {
            tw_run(w, th, TT_OP_SETADCXY(adc, 0, 0, 0, 0, 0xF));
            tw_run(w, th, TT_OP_SETADCZW(adc, 0, 0, 0, 0, 0xF));
            tw_run(w, th, TT_OP_SETADCXX(adc, 16 * rows - 1, 0));
        }
        for (unsigned k = 0; k < 40; k++) {
            unsigned t = 0, kind = rnd_below(40), am = rnd_below(4) ? 0 : rnd_below(256);
            unsigned ctx = rnd_below(4) ? ctx0 : rnd_below(u ? 2 : 8), inc = rnd_below(4) == 0;
            unsigned wf[4] = {0}, adc_ctx = 0; /* CfgContextCntInc, srcb_bcast, ZeroWrite2, RowSearch */
            cfg_field_t undo = CFG_FIELD_COUNT;
            unsigned undo_i = 0, undo_off = 0;
            uint32_t undo_v = 0, bases[8];
            if (kind == 0) { /* a partial X range, or one from another column, then whole rows again */
                unsigned x0 = rnd_below(2) ? 0 : 1 + rnd_below(15);
                unsigned x1 = x0 + 16 * rows - 1 - rnd_below(2) * rnd_below(16);
                if (x0 && rnd_below(3) == 0) x1 = x0 - 1 - rnd_below(2) * rnd_below(x0); /* none, or less */
                tw_run(w, t, TT_OP_SETADCXX(adc, x1, x0));
                tw_run(w, t, TT_OP_UNPACR(u, am, 0, ctx, 0, multi, rnd_below(2), 0, 0, 0, 0, 0, 0));
                tw_run(w, t, TT_OP_SETADCXX(adc, 16 * rows - 1, 0));
            } else if (kind == 1) { /* Y and Z moved, the output's too */
                tw_run(w, t, TT_OP_SETADCXY(adc, 0, 0, rnd_below(64), 0, 0xA));
                tw_run(w, t, TT_OP_SETADCZW(adc, 0, 0, 0, rnd_below(4), 0xA));
            } else if (kind == 2) { /* the output's base off a row's start, or off its datum */
                undo = u ? CFG_UNP1_ADDR_BASE_REG_1_Base : CFG_UNP0_ADDR_BASE_REG_1_Base, undo_v = 64 * osize;
                tw_cfg_both(w, undo, 0, 64 * osize + (rnd_below(2) ? osize * (1 + rnd_below(15)) : 1));
            } else if (kind == 3) { /* the rows' end past L1's (or just inside), every context's */
                for (unsigned c = 0; c < 8; c++) {
                    bases[c] = w->s[0].st.cfg[0][cfg_fields[CFG_THCON_SEC0_REG3_Base_address].word + off + c];
                    uint32_t v = TW_L1 / 16 - 1 - rows * size - rnd_below(24);
                    for (unsigned i = 0; i < 2; i++)
                        side_cfg_i(&w->s[i], CFG_THCON_SEC0_REG3_Base_address, c, off, v);
                }
            } else if (kind == 4) { /* a FIFO that wraps within the rows (or just after), context 0's */
                const uint32_t *cw = w->s[0].st.cfg[0];
                unsigned base = cw[cfg_fields[CFG_THCON_SEC0_REG3_Base_address].word + off];
                unsigned at = base + (cw[cfg_fields[CFG_THCON_SEC0_REG7_Offset_address].word + off] & 0xFFFF) + 1;
                const adc_ch_t *a = &dp_adc(w->s[0].dp, 0, u)->ch[0];
                at += (unsigned)(((a->w * 4u + a->z) + a->y) * 64u + a->x) * size / 16;
                uint32_t limit = at + rnd_below(rows * size + 1), fifo = 1 + rnd_below(base + 1);
                multi = false;
                for (unsigned i = 0; i < 2; i++) {
                    side_cfg_i(&w->s[i], CFG_THCON_SEC0_REG2_Unpack_limit_address, 0, off, limit);
                    side_cfg_i(&w->s[i], CFG_THCON_SEC0_REG2_Unpack_fifo_size, 0, off, fifo);
                }
            } else if (kind == 5) { /* Src rows from near the bank's end */
                for (unsigned i = 0; i < 2; i++)
                    thcfg_set(&w->s[i].st, 0, u ? THCFG_SRCB_SET_Base : THCFG_SRCA_SET_Base, 3);
            } else if (kind < 10) { /* a field of the word that the light way leaves to unpacr */
                wf[kind - 6] = kind == 6 ? 1 + rnd_below(3) : 1;
            } else if (kind == 10) { /* ContextADC 3, or a context past unpacker 1's */
                adc_ctx = rnd_below(2) ? 3 : 0, ctx = u ? 2 + rnd_below(6) : ctx;
            } else if (kind == 11) {
                t = 1;
            } else if (kind == 22) { /* the context offsets changed (a tile's word: the setups near) */
                uint16_t v = (uint16_t)rnd_below(0x10000);
                for (unsigned i = 0; i < 2; i++)
                    st_thdcfg_w(&w->s[i].st, 0, ST_THDCFG_UNP_CTX_WORD, v);
            } else if (kind == 12) { /* the queue filled */
                tw_queue(w, t, TT_OP_UNPACR(u, am, 0, ctx, 0, multi, 0, 0, 0, 0, 0, 0, 0), 6 + rnd_below(4));
            } else if (kind < 22) { /* a setup the light way must not take for one UNPACR, then back */
                cfg_field_t f = refused[kind - 13];
                bool global = f == CFG_THCON_SEC0_REG2_Unpack_If_Sel || f == CFG_THCON_SEC0_REG2_Haloize_mode;
                unsigned fo = global ? 0 : off, fi = f == CFG_THCON_SEC0_REG2_Shift_amount_cntx0 ? ctx & 3 : 0;
                const cp_field_t *d = &cfg_fields[f];
                unsigned bit = (unsigned)d->shift + fi * d->stride;
                uint32_t old = (w->s[0].st.cfg[0][d->word + fo + bit / 32] >> (bit % 32)) & st_field_mask(d->width);
                uint32_t v = f == CFG_THCON_SEC0_REG0_TileDescriptor ? (old & ~0xFu) | (rnd_below(2) ? FMT_BFP8 : fm[0])
                             : f == CFG_THCON_SEC0_REG2_Out_data_format ? (rnd_below(2) ? FMT_INT8 : FMT_FP8)
                                                                        : old ^ (1 + rnd_below(3));
                if (f == CFG_THCON_SEC0_REG2_Disable_zero_compress_cntx0) { /* compressed, every context */
                    for (unsigned i = 0; i < 2; i++) {
                        for (unsigned c = 0; c < 8; c++)
                            side_cfg_i(&w->s[i], f, unp_ctx_bits[c], off, 0);
                        side_cfg_i(&w->s[i], CFG_THCON_SEC0_REG0_TileDescriptor, 0, off, d0 & ~(1u << 4));
                    }
                } else {
                    for (unsigned i = 0; i < 2; i++)
                        side_cfg_i(&w->s[i], f, fi, fo, v);
                }
                for (unsigned n = 0; n < 2; n++) /* (the second finds it kept) */
                    tw_run(w, t, TT_OP_UNPACR(u, am, 0, ctx, 0, multi, rnd_below(2), 0, 0, 0, 0, 0, 0));
                if (f == CFG_THCON_SEC0_REG2_Disable_zero_compress_cntx0) {
                    for (unsigned i = 0; i < 2; i++) {
                        for (unsigned c = 0; c < 8; c++)
                            side_cfg_i(&w->s[i], f, unp_ctx_bits[c], off, 1);
                        side_cfg_i(&w->s[i], CFG_THCON_SEC0_REG0_TileDescriptor, 0, off, d0);
                    }
                } else {
                    for (unsigned i = 0; i < 2; i++)
                        side_cfg_i(&w->s[i], f, fi, fo, old);
                }
            }
            unsigned before = w->s[0].dp->unp[u].light_runs;
            tw_run(w, t, TT_OP_UNPACR(u, am, wf[0], ctx, adc_ctx, multi, rnd_below(2), wf[1], wf[2], inc, wf[3], 0, 0));
            light += w->s[0].dp->unp[u].light_runs - before;
            if (undo != CFG_FIELD_COUNT)
                for (unsigned i = 0; i < 2; i++)
                    side_cfg_i(&w->s[i], undo, undo_i, undo_off, undo_v);
            if (kind == 4) {
                for (unsigned i = 0; i < 2; i++)
                    side_cfg_i(&w->s[i], CFG_THCON_SEC0_REG2_Unpack_fifo_size, 0, off, 0);
                multi = multi0;
            }
            if (kind == 3)
                for (unsigned c = 0; c < 8; c++)
                    for (unsigned i = 0; i < 2; i++)
                        side_cfg_i(&w->s[i], CFG_THCON_SEC0_REG3_Base_address, c, off, bases[c]);
        }
    }
    assert_true(light > 2000);
    assert_int_equal(w->s[1].dp->unp[0].light_runs + w->s[1].dp->unp[1].light_runs, 0);
}

/* Random 19-bit Src contents in both banks, random implied formats. */
static void rnd_src(tw_t *w) {
    src_regs_t *s[2] = {dp_srca_mut(w->s[0].dp), dp_srcb_mut(w->s[0].dp)};
    for (unsigned i = 0; i < 2; i++) {
        for (unsigned b = 0; b < SRC_BANKS; b++) {
            s[i]->implied_fmt[b] = (uint8_t)(rnd_below(2) ? FMT_BF16 : rnd_below(16));
            for (unsigned r = 0; r < SRC_ROWS; r++)
                for (unsigned c = 0; c < SRC_COLS; c++)
                    dp_src_rows_w(s[i], b)[r][c] = rnd_below(8) ? rnd32() & 0x7FFFF : rnd32() & 0x7FF00;
        }
    }
}

/* UNPACR_NOP's light way (unpack.c dp_unpack_light) and its retire without a context: words with
 * each field unpacr_nop refuses now and then (Unpack_Pop other than 1, Bank_Clr_Ctrl,
 * Clr_to1_fmt_Ctrl, Msg_Clr_Cnt, Stream_Id, a clear value past 1 or to ones on unpacker 1), either
 * unpacker, Set_Dvalid or not, from any thread (each with its own Config bank, SrcA/SrcB base),
 * Out_data_format different in each bank, the banks' owners drawn, and the queue filled past
 * UNP_JOBS; every SrcRow and ContextCounter compared after each word (tw_compare does not).
 * White box: the fast side's light runs are counted (unpacker_t.nop_light_runs), the reference
 * side makes none. */
static void test_twin_unpack_nop(void **state) {
    tw_t *w = *state;
    unsigned light = 0;
    for (unsigned iter = 0; iter < 150; iter++) {
        rnd_src(w);
        const cp_field_t *of = &cfg_fields[CFG_THCON_SEC0_REG2_Out_data_format];
        for (unsigned b = 0; b < 2; b++) {
            for (unsigned u = 0; u < 2; u++) {
                unsigned word = of->word + u * 48;
                uint32_t v = w->s[0].st.cfg[b][word] & ~(0xFu << of->shift);
                st_cfg_w(&w->s[0].st, b, word, v | (uint32_t)rnd_below(16) << of->shift);
            }
        }
        for (unsigned t = 0; t < CP_THREADS; t++) {
            tw_thcfg(w, t, THCFG_CFG_STATE_ID_StateID, rnd_below(2));
            tw_thcfg(w, t, THCFG_SRCA_SET_Base, rnd_below(4));
            tw_thcfg(w, t, THCFG_SRCB_SET_Base, rnd_below(4));
        }
        tw_sync(w);
        for (unsigned i = 0; i < 2; i++)
            for (unsigned u = 0; u < 2; u++)
                for (unsigned t = 0; t < DP_THREADS; t++)
                    w->s[i].dp->unp[u].src_row[t] = (uint8_t)(17 + t + u);
        for (unsigned k = 0; k < 24; k++) {
            for (unsigned i = 0; i < 2; i++) { /* the banks' owners, as the timing model hands them over */
                cp_src_t *o = &w->s[i].st.src;
                if (i == 0 && rnd_below(4) == 0)
                    o->unp_bank[0] = (uint8_t)rnd_below(2), o->unp_bank[1] = (uint8_t)rnd_below(2);
                if (i == 1) *o = w->s[0].st.src;
            }
            unsigned u = rnd_below(2), t = rnd_below(DP_THREADS), odd = rnd_below(20);
            unsigned clr = odd == 5 ? 1 + rnd_below(3) : u == 0 && rnd_below(4) == 0;
            uint32_t word = TT_OP_UNPACR_NOP(u, odd == 0 ? 1 + rnd_below(127) : 0, odd == 1 ? 1 + rnd_below(15) : 0,
                                             rnd_below(2) ? 0 : 1 + rnd_below(15), odd == 2 ? 1 + rnd_below(3) : 0,
                                             rnd_below(2), odd == 3, clr, odd == 4 ? (1 + rnd_below(3)) % 4 : 1);
            unsigned before = w->s[0].dp->unp[u].nop_light_runs;
            if (rnd_below(16) == 0)
                tw_queue(w, t, word, 6 + rnd_below(4));
            else
                tw_run(w, t, word);
            light += w->s[0].dp->unp[u].nop_light_runs - before;
            for (unsigned v = 0; v < 2; v++) {
                const unpacker_t *a = &w->s[0].dp->unp[v], *b = &w->s[1].dp->unp[v];
                if (memcmp(a->src_row, b->src_row, sizeof a->src_row) ||
                    memcmp(a->ctx_counter, b->ctx_counter, sizeof a->ctx_counter) || a->jobs_n != b->jobs_n)
                    fail_msg("0x%08x: unpacker %u's SrcRow, ContextCounter or queue differs", word, v);
            }
        }
    }
    assert_true(light > 2500);
    assert_int_equal(w->s[1].dp->unp[0].nop_light_runs + w->s[1].dp->unp[1].nop_light_runs, 0);
}

/* The skipped clear of a bank known to be zero (src_regs_t.zero): runs of clears to zero
 * (UNPACR_NOP, ZEROSRC: either side's bank, one or both), clears to ones, and every other Src
 * writer (UNPACR, MOVD2A, MOVD2B, MOVB2A, SHIFTXA, SHIFTXB, TRNSPSRCB) between them, on banks that
 * start random, the banks' owners drawn as well. A writer that left the flag set would leave its
 * data behind the next clear on the fast side only. clears_skipped counts the clears the fast side
 * could skip, so that the test fails if its draws stop reaching the shortcut. */
static void test_twin_src_clear(void **state) {
    tw_t *w = *state;
    unsigned clears_skipped = 0;
    for (unsigned i = 0; i < TW_L1; i++)
        w->s[0].l1[i] = (uint8_t)rnd32();
    for (unsigned u = 0; u < 2; u++) { /* one row of 16 bf16 datums from L1 */
        tw_cfg_i(w, CFG_THCON_SEC0_REG0_TileDescriptor, 0, u * 48, FMT_BF16 | 1u << 4 | 16u << 16);
        tw_cfg_i(w, CFG_THCON_SEC0_REG0_TileDescriptor, 1, u * 48, 1u | 1u << 16);
        tw_cfg_i(w, CFG_THCON_SEC0_REG2_Out_data_format, 0, u * 48, FMT_BF16);
        tw_cfg_i(w, CFG_THCON_SEC0_REG3_Base_address, 0, u * 48, 64);
    }
    tw_thcfg(w, 0, THCFG_SRCA_SET_SetOvrdWithAddr, 1);
    for (unsigned iter = 0; iter < 300; iter++) {
        rnd_dst(w);
        rnd_src(w);
        tw_sync(w);
        for (unsigned k = 0; k < 24; k++) {
            for (unsigned i = 0; i < 2; i++) { /* the banks' owners, as the timing model hands them over */
                cp_src_t *o = &w->s[i].st.src;
                if (i == 0 && rnd_below(4) == 0)
                    o->unp_bank[0] = (uint8_t)rnd_below(2), o->unp_bank[1] = (uint8_t)rnd_below(2),
                    o->fpu_bank_a = (uint8_t)rnd_below(2), o->fpu_bank_b = (uint8_t)rnd_below(2);
                if (i == 1) *o = w->s[0].st.src;
            }
            unsigned u = rnd_below(2), pick = rnd_below(12);
            const src_regs_t *s = u ? dp_srcb(w->s[0].dp) : dp_srca(w->s[0].dp);
            uint32_t word;
            if (pick < 4) {
                bool ones = u == 0 && pick == 3;
                clears_skipped += !ones && s->zero[w->s[0].st.src.unp_bank[u]];
                word = TT_OP_UNPACR_NOP(u, 0, 0, rnd_below(2), 0, 0, 0, ones, 1);
            } else if (pick < 7) {
                unsigned mask = 1 + rnd_below(3), zv = mask == 1 && pick == 6, both = rnd_below(2);
                word = TT_OP_ZEROSRC(zv, rnd_below(2), both, mask);
            } else if (pick == 7) {
                tw_run(w, 0, TT_OP_SETADCXY(u ? 2 : 1, 0, 0, 0, 0, 0xF));
                tw_run(w, 0, TT_OP_SETADCXX(u ? 2 : 1, 15, 0));
                word = TT_OP_UNPACR(u, 0, 0, 0, 0, 0, 0, 0, rnd_below(2), 0, 0, 0, 0);
            } else if (pick == 8) {
                word = rnd_below(2) ? TT_OP_MOVD2A(0, rnd_below(64), 0, 0, rnd_below(1024))
                                    : TT_OP_MOVD2B(0, rnd_below(64), 0, 0, rnd_below(1024));
            } else if (pick == 9) {
                word = TT_OP_MOVB2A(rnd_below(64), 0, 0, rnd_below(64));
            } else if (pick == 10) {
                word =
                    rnd_below(2) ? TT_OP_SHIFTXA(0, 2 + rnd_below(2)) : TT_OP_SHIFTXB(0, rnd_below(2), rnd_below(64));
            } else {
                word = TT_OP_TRNSPSRCB;
            }
            tw_run(w, 0, word);
        }
    }
    if (clears_skipped < 500) fail_msg("only %u clears of a bank known to be zero drawn", clears_skipped);
}

/* MOVA2D and MOVB2D: every instruction mode, Src formats (configured, implied, FP16A_FORCE), the
 * zero flag, dest_32b_lo, Dst remapping, the math offset, columns blocked by LaneConfig. */
static void test_twin_mova2d(void **state) {
    tw_t *w = *state;
    for (unsigned iter = 0; iter < 3000; iter++) {
        bool odd = rnd_below(3) == 0;
        rnd_dst(w);
        rnd_src(w);
        rnd_lregs(w, false);
        if (odd && rnd_below(2)) sfpu_lane_config_w(dp_lregs_mut(w->s[0].dp), rnd_below(8), (1u + rnd_below(3)) << 9);
        tw_cfg(w, CFG_ALU_FORMAT_SPEC_REG0_SrcA, rnd_below(2) ? FMT_BF16 : rnd_below(16));
        tw_cfg(w, CFG_ALU_FORMAT_SPEC_REG_SrcA_override, rnd_below(4) == 0);
        tw_cfg(w, CFG_ALU_FORMAT_SPEC_REG_SrcA_val, rnd_below(16));
        tw_cfg(w, CFG_ALU_ACC_CTRL_Zero_Flag_disabled_src, rnd_below(2));
        tw_cfg(w, CFG_DEST_ACCESS_CFG_remap_addrs, rnd_below(3) == 0);
        tw_cfg(w, CFG_DEST_ACCESS_CFG_swizzle_32b, rnd_below(3) == 0);
        tw_thcfg(w, 1, THCFG_FP16A_FORCE_Enable, odd && rnd_below(3) == 0);
        tw_thcfg(w, 1, THCFG_DISABLE_IMPLIED_SRCA_FMT_Base, rnd_below(2));
        tw_thcfg(w, 1, THCFG_DEST_TARGET_REG_CFG_MATH_Offset, rnd_below(2) ? 0x200 : rnd_below(1024));
        rnd_addr_mods(w);
        tw_sync(w);
        for (unsigned k = 0; k < 4; k++) {
            unsigned lo = odd && rnd_below(3) == 0, src = rnd_below(64), am = rnd_below(8), dst = rnd_below(1024);
            if (rnd_below(2))
                tw_run(w, 1, TT_OP_MOVA2D(lo, src, am, rnd_below(4), dst));
            else
                tw_run(w, 1, TT_OP_MOVB2D(lo, src, am, rnd_below(8), dst));
        }
    }
}

/* Whether thread 1's eight-row MOVA2D (UseDst32bLo clear) takes its rows at once on the fast side
 * now (fpu.c rows_at_once): its SrcA style is not TF32 and LaneConfig blocks no column. */
static bool tw_mova2d_rows(tw_t *w) {
    const cp_state_t *st = &w->s[0].st;
    unsigned b = st_state_id(st, 1);
    unsigned f = cfg_get(st, b, CFG_ALU_FORMAT_SPEC_REG_SrcA_override)
                     ? cfg_get(st, b, CFG_ALU_FORMAT_SPEC_REG_SrcA_val)
                     : cfg_get(st, b, CFG_ALU_FORMAT_SPEC_REG0_SrcA);
    if (!thcfg_get(st, 1, THCFG_DISABLE_IMPLIED_SRCA_FMT_Base))
        f = dp_srca(w->s[0].dp)->implied_fmt[st->src.fpu_bank_a];
    return fmt_src_style(f, thcfg_get(st, 1, THCFG_FP16A_FORCE_Enable)) != FMT_STYLE_TF32 &&
           !((dp_lregs(w->s[0].dp)->lc_or8 >> 9) & 3);
}

/* MOVA2D's kept setup (fpu.c mova2d_plan_t, dp_mova2d_light): a few words, mostly eight-row ones,
 * run again and again by thread 1, with one input changed between runs: a Config or ThreadConfig
 * field the plan takes (the SrcA formats and override, the zero flag, DEST_REGW_BASE, Dst's remap,
 * DISABLE_IMPLIED_SRCA_FMT, FP16A_FORCE, an address modifier section, the StateID: the two Config
 * banks differ), or what the light way reads at each issue (the Matrix Unit's SrcA bank and its
 * implied format, TF32 among them, LaneConfig's BLOCK_DEST_MOV, the RWCs, the Src data,
 * MATH_Offset), or a tile's Config word (tw_tile_word: the plan kept), or thread 2 issuing. A plan kept where it no
 * longer holds, or an input taken from it that changes without a Config or ThreadConfig write, leaves the fast side
 * apart. White box: a run of the word thread 1 ran last, with only the second kind of change between, makes no plan
 * (dp_t.mova2d_made as it was): the setup is kept, not made again. */
static void test_twin_mova2d_kept(void **state) {
    tw_t *w = *state;
    static const cfg_field_t planned[] = {CFG_ALU_FORMAT_SPEC_REG0_SrcA,    CFG_ALU_FORMAT_SPEC_REG_SrcA_override,
                                          CFG_ALU_FORMAT_SPEC_REG_SrcA_val, CFG_ALU_ACC_CTRL_Zero_Flag_disabled_src,
                                          CFG_DEST_REGW_BASE_Base,          CFG_DEST_ACCESS_CFG_remap_addrs};
    static const thcfg_field_t tplanned[] = {THCFG_DISABLE_IMPLIED_SRCA_FMT_Base, THCFG_FP16A_FORCE_Enable,
                                             THCFG_CFG_STATE_ID_StateID};
    const unsigned *made = &w->s[0].dp->mova2d_made;
    unsigned kept = 0;
    for (unsigned iter = 0; iter < 300; iter++) {
        uint32_t words[4];
        for (unsigned i = 0; i < 4; i++)
            words[i] = TT_OP_MOVA2D(rnd_below(8) == 0, rnd_below(64), rnd_below(8), i ? 2 + rnd_below(2) : rnd_below(4),
                                    rnd_below(1024));
        rnd_dst(w);
        rnd_src(w);
        rnd_lregs(w, false);
        tw_cfg(w, CFG_ALU_FORMAT_SPEC_REG0_SrcA, rnd_below(2) ? FMT_BF16 : rnd_below(16));
        tw_cfg(w, CFG_ALU_FORMAT_SPEC_REG_SrcA_override, rnd_below(4) == 0);
        tw_cfg(w, CFG_ALU_FORMAT_SPEC_REG_SrcA_val, rnd_below(16));
        tw_cfg(w, CFG_DEST_ACCESS_CFG_remap_addrs, rnd_below(3) == 0);
        tw_cfg(w, CFG_DEST_REGW_BASE_Base, rnd_below(4) == 0 ? rnd_below(1024) : 0);
        for (unsigned b = 0; b < 2; b++) /* the banks apart: the StateID matters */
            cfg_set(&w->s[0].st, b, CFG_ALU_ACC_CTRL_Zero_Flag_disabled_src, rnd_below(2));
        tw_thcfg(w, 1, THCFG_FP16A_FORCE_Enable, rnd_below(4) == 0);
        tw_thcfg(w, 1, THCFG_DISABLE_IMPLIED_SRCA_FMT_Base, rnd_below(2));
        tw_thcfg(w, 1, THCFG_DEST_TARGET_REG_CFG_MATH_Offset, rnd_below(2) ? 0x200 : rnd_below(1024));
        rnd_addr_mods(w);
        tw_sync(w);
        uint32_t last = 0; /* thread 1's last word, when it took its rows at once and nothing it keeps changed since */
        for (unsigned k = 0; k < 64; k++) {
            unsigned kind = rnd_below(32), t = 1;
            bool keeps = true;
            if (kind < 4) {
                unsigned b = rnd_below(SRC_BANKS), f = rnd_below(3) ? rnd_below(16) : FMT_TF32;
                for (unsigned i = 0; i < 2; i++)
                    dp_srca_mut(w->s[i].dp)->implied_fmt[b] = (uint8_t)f;
            } else if (kind < 6) {
                for (unsigned i = 0; i < 2; i++)
                    w->s[i].st.src.fpu_bank_a ^= 1;
            } else if (kind < 8) {
                unsigned lane = rnd_below(8), v = rnd_below(3) ? 0 : (1u + rnd_below(3)) << 9;
                for (unsigned i = 0; i < 2; i++)
                    sfpu_lane_config_w(dp_lregs_mut(w->s[i].dp), lane, v);
            } else if (kind < 10) {
                uint16_t dst = (uint16_t)rnd_below(1024);
                uint8_t srca = (uint8_t)rnd_below(64), cr = (uint8_t)rnd_below(64);
                for (unsigned i = 0; i < 2; i++) {
                    rwc_t *r = &w->s[i].dp->rwc[1];
                    r->dst = dst, r->srca = srca, r->srca_cr = cr;
                }
            } else if (kind < 12) {
                unsigned b = rnd_below(SRC_BANKS), row = rnd_below(SRC_ROWS), c = rnd_below(SRC_COLS);
                uint32_t v = rnd32() & 0x7FFFF;
                for (unsigned i = 0; i < 2; i++)
                    dp_src_rows_w(dp_srca_mut(w->s[i].dp), b)[row][c] = v;
            } else if (kind < 16) {
                tw_flip_cfg(w, planned[rnd_below(sizeof planned / sizeof planned[0])], rnd());
                keeps = false;
            } else if (kind < 20) {
                tw_flip_thcfg1(w, tplanned[rnd_below(sizeof tplanned / sizeof tplanned[0])], 1);
                keeps = false;
            } else if (kind < 22) {
                static const thcfg_field_t sec0[] = {THCFG_ADDR_MOD_AB_SEC0_SrcAIncr, THCFG_ADDR_MOD_DST_SEC0_DestIncr,
                                                     THCFG_ADDR_MOD_BIAS_SEC0_BiasIncr};
                unsigned word = thcfg_fields[sec0[rnd_below(3)]].word + rnd_below(8);
                uint16_t v = rnd_below(2) ? 0 : (uint16_t)rnd();
                for (unsigned i = 0; i < 2; i++)
                    st_thdcfg_w(&w->s[i].st, 1, word, v);
                keeps = false;
            } else if (kind == 22) {
                t = 2;
            } else if (kind < 27) { /* a tile's word or MATH_Offset: the plan kept (MATH_Offset read at each issue) */
                tw_tile_word(w);
            } else if (kind == 27) { /* the same, thread 2 issuing (its plan near after its own run) */
                tw_tile_word(w);
                t = 2;
            }
            uint32_t word = rnd_below(4) && last ? last : words[rnd_below(4)];
            unsigned before = *made;
            bool rows = tw_mova2d_rows(w);
            tw_run(w, t, word);
            if (t == 1 && keeps && rows && word == last) {
                assert_int_equal(*made, before);
                kept++;
            }
            if (t == 1) last = rows && (TT_MOVA2D_INSTR_MOD(word) & 2) && !TT_MOVA2D_DEST_32B_LO(word) ? word : 0;
            if (!keeps || t != 1) last = 0; /* (thread 2's run may make its own plan, the one kept) */
        }
    }
    assert_true(kept > 2000);
    /* Under dp_set_reference the plan is neither taken nor made again. */
    uint32_t word = w->s[0].dp->mova2d.word;
    assert_true(word != 0);
    dp_set_reference(w->s[0].dp, true);
    unsigned before = *made;
    tw_run(w, 1, word);
    assert_int_equal(*made, before);
}

/* The conditional-execution instructions' mask forms (SFPSETCC, SFPPUSHC, SFPPOPC, SFPIADD's
 * flags; SFPENCC and SFPCOMPC between them): random flags and flag stacks of one depth in every lane (the mask forms'
 * case, empty and full included) or of depths differing by lane, VC values with every comparison's
 * edges, every Mod1, the backdoor (VD >= 12), lanes disabled by LaneConfig. The runs go on from
 * one instruction's state to the next, errors included. */
/* Whether SFPPUSHC/SFPPOPC with VD vd would take the mask form on the fast side now (every lane
 * takes part: VD < 12; one flag stack depth in every lane): what test_twin_sfpu_cc counts, so
 * that it fails if its draws stop reaching that form. */
static bool tw_cc_masks(tw_t *w, unsigned vd) {
    const lregs_t *s = dp_lregs_mut(w->s[0].dp);
    for (unsigned l = 1; l < LANES; l++)
        if (s->stack_n[l] != s->stack_n[0]) return false;
    return vd < 12;
}

static void test_twin_sfpu_cc(void **state) {
    tw_t *w = *state;
    static const uint32_t vals[] = {0, 1, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0x3F800000u, 0xBF800000u};
    unsigned stack_ops = 0, mask_form = 0; /* SFPPUSHC/SFPPOPC run, and of them in the mask form */
    for (unsigned iter = 0; iter < 3000; iter++) {
        rnd_sfpu_cfg(w);
        rnd_lregs(w, rnd_below(4) == 0);
        lregs_t *s = dp_lregs_mut(w->s[0].dp);
        for (unsigned i = 0; i < 8; i++)
            for (unsigned l = 0; l < LANES; l++)
                if (rnd_below(3) == 0) s->r[i][l] = vals[rnd_below(sizeof vals / sizeof vals[0])];
        s->flags = rnd_below(4) ? rnd() : rnd_below(2) ? 0 : 0xFFFFFFFFu;
        s->use_flags = rnd_below(4) ? rnd() : rnd_below(2) ? 0 : 0xFFFFFFFFu;
        /* Mostly one depth in every lane (the lanes push and pop together: the mask form), else
         * a few lanes apart (the lane-by-lane form). */
        unsigned depth = rnd_below(SFPU_FLAG_STACK + 1);
        bool apart = rnd_below(4) == 0;
        for (unsigned l = 0; l < LANES; l++)
            s->stack_n[l] = (uint8_t)(!apart || rnd_below(8) ? depth : rnd_below(SFPU_FLAG_STACK + 1));
        for (unsigned k = 0; k < SFPU_FLAG_STACK; k++)
            s->stack_flags[k] = rnd(), s->stack_use[k] = rnd();
        tw_sync(w);
        for (unsigned k = 0; k < 12; k++) {
            unsigned vd = rnd_below(6) ? rnd_below(8) : rnd_below(16), vc = rnd_below(8), mod = rnd_below(16);
            unsigned imm = rnd_below(4096);
            unsigned op = rnd_below(9);
            if (op >= 2 && op <= 5) stack_ops++, mask_form += tw_cc_masks(w, vd);
            switch (op) {
            case 0:
            case 1: tw_run(w, 1, TT_OP_SFPSETCC(imm, vc, vd, mod)); break;
            case 2:
            case 3: tw_run(w, 1, TT_OP_SFPPUSHC(imm, vc, vd, rnd_below(3) ? mod : 0)); break;
            case 4:
            case 5: tw_run(w, 1, TT_OP_SFPPOPC(imm, vc, vd, rnd_below(3) ? mod : 0)); break;
            case 6: tw_run(w, 1, TT_OP_SFPENCC(imm, vc, vd, mod)); break;
            case 7: tw_run(w, 1, TT_OP_SFPCOMPC(imm, vc, vd, mod)); break;
            default: tw_run(w, 1, TT_OP_SFPIADD(imm, vc, vd, mod)); break; /* the flags from VD's signs */
            }
        }
    }
    /* Both forms reached often, each many times. */
    if (mask_form * 4 < stack_ops || (stack_ops - mask_form) * 10 < stack_ops)
        fail_msg("SFPPUSHC/SFPPOPC: %u of %u in the mask form", mask_form, stack_ops);
}

/* A twin test's random Matrix Unit set-up: Dst and Src contents, Src formats (SrcB's another
 * one time in four), FP32 Dst but one time in fp32_in, integer "8", the zero flag off one time in
 * zflag_in, FP16A_FORCE, the fidelity phase and the Dst offset. */
static void twin_fpu_setup(tw_t *w, unsigned fp32_in, unsigned zflag_in) {
    static const uint8_t fmts[] = {FMT_BF16, FMT_BF16, FMT_TF32, FMT_FP16, FMT_FP32};
    rnd_dst(w);
    rnd_src(w);
    unsigned fa = fmts[rnd_below(5)], fb = rnd_below(4) ? fa : fmts[rnd_below(5)];
    for (unsigned b = 0; b < SRC_BANKS; b++)
        dp_srca_mut(w->s[0].dp)->implied_fmt[b] = (uint8_t)fa, dp_srcb_mut(w->s[0].dp)->implied_fmt[b] = (uint8_t)fb;
    tw_cfg(w, CFG_ALU_FORMAT_SPEC_REG0_SrcA, fa);
    tw_cfg(w, CFG_ALU_FORMAT_SPEC_REG1_SrcB, fb);
    tw_cfg(w, CFG_ALU_ACC_CTRL_Fp32_enabled, rnd_below(fp32_in) != 0);
    tw_cfg(w, CFG_ALU_ACC_CTRL_INT8_math_enabled, rnd_below(8) == 0);
    tw_cfg(w, CFG_ALU_ACC_CTRL_Zero_Flag_disabled_src, rnd_below(zflag_in) == 0);
    tw_thcfg(w, 1, THCFG_FP16A_FORCE_Enable, rnd_below(8) == 0);
    tw_thcfg(w, 1, THCFG_FIDELITY_BASE_Phase, rnd_below(4));
    tw_thcfg(w, 1, THCFG_DEST_TARGET_REG_CFG_MATH_Offset, rnd_below(2) ? 0 : rnd_below(1024));
    tw_sync(w);
}

/* MVMUL, DOTPV and GAPOOL: Src formats (BF16, TF32, FP16 styles; FP16A_FORCE), FP32 or 16-bit
 * Dst, integer "8", every fidelity phase, row broadcast, the zero flags, invalid Dst rows. */
static void test_twin_mvmul(void **state) {
    tw_t *w = *state;
    for (unsigned iter = 0; iter < 1500; iter++) {
        twin_fpu_setup(w, 4, 8);
        for (unsigned k = 0; k < 4; k++) {
            unsigned am = rnd_below(8), dst = rnd_below(1024);
            switch (rnd_below(4)) {
            case 0: tw_run(w, 1, TT_OP_DOTPV(0, 0, 0, am, dst)); break;
            case 1: tw_run(w, 1, TT_OP_GAPOOL(0, 0, am, 0, dst)); break;
            default: tw_run(w, 1, TT_OP_MVMUL(0, rnd_below(2), am, dst)); break;
            }
        }
    }
}

/* ELWADD / ELWSUB (the row form without accumulation, fpu_elw.c; with dest_accum_en the
 * datum-by-datum path) and ELWMUL (the row form into either Dst width), both twins: broadcasts,
 * Dst16b and Dst32b rows, fidelity phases, the zero flag, integer operands (datum by datum). */
static void test_twin_elw(void **state) {
    tw_t *w = *state;
    for (unsigned iter = 0; iter < 1500; iter++) {
        twin_fpu_setup(w, 2, 4);
        for (unsigned k = 0; k < 4; k++) {
            unsigned am = rnd_below(8), dst = rnd_below(1024), mod = rnd_below(4), accum = rnd_below(4) == 0;
            switch (rnd_below(5)) {
            case 0: tw_run(w, 1, TT_OP_ELWMUL(0, 0, mod, am, dst)); break;
            case 1: tw_run(w, 1, TT_OP_ELWSUB(0, accum, mod, am, dst)); break;
            default: tw_run(w, 1, TT_OP_ELWADD(0, accum, mod, am, dst)); break;
            }
        }
    }
}

/* dp_create's datapath (a fresh mapping: zeros, then only the power-on values set) is byte for
 * byte the state dp_reset makes (it clears all of dp_t first), and stays it after a reset. */
static void test_create_is_reset(void **state) {
    (void)state;
    dp_t *dp = dp_create();
    assert_non_null(dp);
    dp_t *made = malloc(sizeof *made);
    assert_non_null(made);
    memcpy(made, dp, sizeof *made);
    memset(dp, 0xA5, sizeof *dp); /* dirty everything but the reference switch, which a reset keeps */
    dp->reference = made->reference;
    dp_reset(dp);
    assert_memory_equal(dp, made, sizeof *made);
    free(made);
    dp_destroy(dp);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_is_reset),
        cmocka_unit_test(test_dot16_form),
        cmocka_unit_test(test_dot16),
        cmocka_unit_test(test_elwadd_row),
        cmocka_unit_test(test_elwmul_row),
        cmocka_unit_test(test_sfpload_lanes),
        cmocka_unit_test(test_sfpstore_lanes),
        cmocka_unit_test(test_lane_masks),
        cmocka_unit_test_setup_teardown(test_twin_sfpu_dst, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_sfpu_key, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_sfpu_mad, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_sfpu_cc, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_sfpu_replay, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_sfpu_plan, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_sfpu_renew, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_sfpu_light, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_sfpu_reference_keeps_none, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_rwc, tw_setup, tw_teardown),
        cmocka_unit_test(test_mova2d_row),
        cmocka_unit_test_setup_teardown(test_twin_mova2d, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_mova2d_kept, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_mvmul, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_elw, tw_setup, tw_teardown),
        cmocka_unit_test(test_pack_row),
        cmocka_unit_test(test_unpack_row),
        cmocka_unit_test(test_le32),
        cmocka_unit_test_setup_teardown(test_twin_unpack, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_unpack_key, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_unpack_light, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_unpack_nop, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_src_clear, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_pack, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_pack_light, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_pack_acc32_bytes, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_twin_pack_key, tw_setup, tw_teardown),
        cmocka_unit_test_setup_teardown(test_setup_keys, tw_setup, tw_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
