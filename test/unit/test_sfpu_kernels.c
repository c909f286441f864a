/* test/unit/test_sfpu_kernels.c — the SFPU kernels of firmware-samples/include/ttemu_sfpu.h (tt-llk's
 * Blackhole SFPU functions as instruction sequences) run on one BF16 tile in Dst through dp_exec,
 * the same words the sample kernels push. Each result is checked against the exact function
 * (computed here in doubles) within the tolerance its algorithm gives (docs/ops-sfpu.md), on seeded
 * random inputs over the function's useful range, and the special values against what the
 * algorithm does with them, worked out from the instruction pages. */
#include <math.h>

#include "sfpu_dp_test.h"

/* The kernels' words go to this fixture's datapath, one cycle each. */
typedef struct {
    dpf_t *f;
    uint64_t cycle;
} emit_t;
static void emit(emit_t *e, uint32_t w) {
    if (dpf_run(e->f, 1, w, e->cycle++) != CP_ERR_NONE) fail_msg("0x%08x: %s", w, e->f->err.what);
}
#define SFPU_I(w) emit(E, (w))
#include "firmware-samples/include/ttemu_sfpu.h"

static double bf2d(uint16_t b) { return (double)u2f((uint32_t)b << 16); }

/* A tile's 1024 inputs into Dst rows 0..63 (BF16 cells). */
static void tile_in(dpf_t *f, const uint16_t in[1024]) {
    dst_regs_t *d = dp_dst_mut(f->dp);
    for (unsigned i = 0; i < 1024; i++)
        d->bits[i / 16][i % 16] = dst_bf16(in[i]);
}
static uint16_t tile_out(const dpf_t *f, unsigned i) {
    uint16_t c = dp_dst(f->dp)->bits[i / 16][i % 16];
    return (uint16_t)((c & 0x8000) | (c & 0xFF) << 7 | ((c >> 8) & 0x7F)); /* Dst.md DstDecodeBF16 */
}

/* Seeded bf16 inputs, uniform in [lo, hi]. */
static void random_in(uint16_t in[1024], double lo, double hi, uint64_t seed) {
    for (unsigned i = 0; i < 1024; i++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        double v = lo + (hi - lo) * (double)(seed >> 11) / 9007199254740992.0;
        in[i] = (uint16_t)(f2u((float)v) >> 16);
    }
}

/* The error of out against exact, in units of BF16's ulp at exact (2^(e - 7)). */
static double ulps(double out, double exact) {
    int e;
    frexp(exact, &e);
    return fabs(out - exact) / ldexp(1.0, e - 8);
}

typedef enum { K_RELU, K_RECIP, K_SQRT, K_EXP, K_TANH, K_SIGMOID, K_GELU } kernel_t;

static void run_kernel(dpf_t *f, kernel_t k) {
    emit_t e = {.f = f, .cycle = 0}, *E = &e;
    switch (k) {
    case K_RELU:
        SFPU_RELU_INIT();
        SFPU_TILE(SFPU_RELU_ITER());
        break;
    case K_RECIP:
        SFPU_RECIP_INIT();
        SFPU_TILE(SFPU_RECIP_ITER());
        break;
    case K_SQRT:
        SFPU_SQRT_INIT();
        SFPU_TILE(SFPU_SQRT_ITER());
        break;
    case K_EXP:
        SFPU_EXP_INIT();
        SFPU_TILE(SFPU_EXP_ITER());
        break;
    case K_TANH:
        SFPU_TANH_INIT();
        SFPU_TILE(SFPU_TANH_ITER());
        break;
    case K_SIGMOID:
        SFPU_SIGMOID_INIT();
        SFPU_TILE(SFPU_SIGMOID_ITER());
        break;
    case K_GELU:
        SFPU_GELU_INIT();
        SFPU_TILE(SFPU_GELU_ITER());
        break;
    }
}

static double fexact(kernel_t k, double x) {
    switch (k) {
    case K_RELU: return x < 0 ? 0 : x;
    case K_RECIP: return 1 / x;
    case K_SQRT: return sqrt(x);
    case K_EXP: return exp(x);
    case K_TANH: return tanh(x);
    case K_SIGMOID: return 1 / (1 + exp(-x));
    default: return x * 0.5 * (1 + erf(x / sqrt(2.0)));
    }
}

/* _sfpu_exp_'s relative error: the quadratic on [0, 0.5) is within 1.33%, on [0.5, 1) within 0.80%
 * of e^v; squaring k times multiplies that many; then BF16 truncation (2^-7) and, for x < 0, the
 * reciprocal's last Newton step (an ulp of BF16 at most). k = exponent(|x|) + 1 for |x| >= 1. */
static double exp_rtol(double x) {
    int e;
    frexp(fabs(x), &e); /* |x| in [2^(e-1), 2^e) */
    int k = e >= 1 ? e : 0;
    return (k == 0 ? 0.0133 : pow(1.0080, ldexp(1, k)) - 1) + 3 * ldexp(1, -7);
}

/* The tolerance of each kernel against the exact function (docs/ops-sfpu.md derives them): in BF16 ulps
 * at the exact value (relu, recip, sqrt), relative (exp, exp_rtol above) or absolute plus relative
 * (the LUT kernels: the segments' worst error, found over every BF16 input, plus BF16's truncation). */
typedef struct {
    double atol, rtol, ulp;
} tol_t;

static bool within(kernel_t k, double x, double out, double exact) {
    static const tol_t tol[] = {
        [K_RELU] = {0, 0, 0},
        [K_RECIP] = {0, 0, 1},
        [K_SQRT] = {0, 0, 1},
        [K_EXP] = {0, 0, 0},
        [K_TANH] = {0.1447 + 0.0079, 0, 0},
        [K_SIGMOID] = {0.0178 + 0.0079, 0, 0},
        [K_GELU] = {0.0235, 0.0079, 0},
    };
    tol_t t = tol[k];
    if (t.ulp) return ulps(out, exact) <= t.ulp;
    if (k == K_EXP) return fabs(out - exact) <= exp_rtol(x) * exact;
    return fabs(out - exact) <= t.atol + t.rtol * fabs(exact);
}

/* Seeded random tiles over each function's useful range, every datum within tolerance. */
static void check_random(void **state, kernel_t k, double lo, double hi) {
    uint16_t in[1024];
    for (unsigned rep = 0; rep < 4; rep++) {
        dpf_teardown(state);
        dpf_setup(state);
        dpf_t *f = *state;
        random_in(in, lo, hi, 0xC0FFEEull * (rep + 1) + k);
        tile_in(f, in);
        run_kernel(f, k);
        for (unsigned i = 0; i < 1024; i++) {
            double x = bf2d(in[i]), y = bf2d(tile_out(f, i)), t = fexact(k, x);
            if (!within(k, x, y, t)) fail_msg("kernel %d: f(%.6g) = %.6g, exact %.6g", k, x, y, t);
        }
    }
}

/* Special inputs and the BF16 patterns the algorithm leaves in Dst for them, worked from the pages
 * (docs/ops-sfpu.md explains each). */
static void check_special(void **state, kernel_t k, const uint16_t *in, const uint16_t *want, unsigned n) {
    dpf_t *f = *state;
    uint16_t tile[1024] = {0};
    memcpy(tile, in, n * sizeof in[0]);
    tile_in(f, tile);
    run_kernel(f, k);
    for (unsigned i = 0; i < n; i++)
        if (tile_out(f, i) != want[i])
            fail_msg("kernel %d: 0x%04x -> 0x%04x, want 0x%04x", k, in[i], tile_out(f, i), want[i]);
}

#define B_P0   0x0000
#define B_N0   0x8000
#define B_INF  0x7F80
#define B_NINF 0xFF80
#define B_NAN  0x7FC0
#define B_NNAN 0xFFC0
#define B_HUGE 0x7F7F /* the largest finite */
#define B_TINY 0x0080 /* 2^-126 */
#define B_DEN  0x0001 /* a denormal */

static void test_relu(void **state) {
    check_random(state, K_RELU, -100, 100);
    const uint16_t in[] = {B_P0, B_N0, B_INF, B_NINF, B_NAN, B_NNAN, 0xBF80, 0x3F80, B_DEN, 0x8001};
    const uint16_t want[] = {B_P0, B_P0, B_INF,  B_P0, B_NAN,
                             B_P0, B_P0, 0x3F80, B_P0, B_P0}; /* sign set: 0; denormals flush */
    check_special(state, K_RELU, in, want, 10);
}

static void test_recip(void **state) {
    check_random(state, K_RECIP, 1.0 / 1024, 1024);
    check_random(state, K_RECIP, -1024, -1.0 / 1024);
    /* 0 -> Inf; -0 -> -Inf; Inf -> 0; NaN -> 0 (SFPARECIP of a NaN is 0); denormal -> Inf; the
     * largest finite -> 0 (ApproxRecip is 0 from 2^126). */
    const uint16_t in[] = {B_P0, B_N0, B_INF, B_NINF, B_NAN, B_DEN, B_HUGE, B_TINY, 0x3F80, 0xC000};
    const uint16_t want[] = {B_INF, B_NINF, B_P0, B_N0, B_P0, B_INF, B_P0, 0x7E80, 0x3F80, 0xBF00};
    check_special(state, K_RECIP, in, want, 10);
}

static void test_sqrt(void **state) {
    check_random(state, K_SQRT, 0, 65536);
    check_random(state, K_SQRT, 0, 1.0 / 64);
    /* 0 -> 0; -0 -> NaN (the sign test) -> Inf (the BF16 rounding); Inf -> Inf; NaN -> Inf; -1 ->
     * Inf; 4 -> 2; the largest finite 2^128 - 2^120: 2^64 sqrt(1 - 2^-8) = 2^63 (2 - 2^-8 - ..), just
     * under the midpoint of 0x5F7F and 0x5F80, so 0x5F7F. */
    const uint16_t in[] = {B_P0, B_N0, B_INF, B_NAN, 0xBF80, 0x4080, 0x3F80, B_HUGE};
    const uint16_t want[] = {B_P0, B_INF, B_INF, B_INF, B_INF, 0x4000, 0x3F80, 0x5F7F};
    check_special(state, K_SQRT, in, want, 8);
}

static void test_exp(void **state) {
    check_random(state, K_EXP, -8, 8);
    check_random(state, K_EXP, -1, 1);
    /* exp(0) = 1 (v = 0: 0 tmp + 1); exp(-0): 1 then the reciprocal path: 0x3F80; +Inf and NaN: the
     * exponent 128 squares 8 times from 2.6967: Inf; -Inf: 1 / Inf = 0. */
    const uint16_t in[] = {B_P0, B_INF, B_NINF, 0x42C8 /* 100 */, 0xC2C8 /* -100 */};
    const uint16_t want[] = {0x3F80, B_INF, B_P0, B_INF, B_P0};
    check_special(state, K_EXP, in, want, 5);
}

static void test_tanh(void **state) {
    check_random(state, K_TANH, -6, 6);
    /* 0.90625 |x| below 1, 0.09375 |x| + 0.8125 below 2, then 1, with x's sign: Inf -> 1, -Inf -> -1,
     * NaN (|x| read as >= 2) -> 1 with the NaN's sign... the multiply by 0 of a NaN is NaN. */
    const uint16_t in[] = {B_P0, B_N0, 0x3F80, 0xBF80, B_INF, B_NINF, 0x4040};
    const uint16_t want[] = {B_P0, B_N0, 0x3F68, 0xBF68, B_NAN, B_NNAN, 0x3F80};
    check_special(state, K_TANH, in, want, 7);
}

static void test_sigmoid(void **state) {
    check_random(state, K_SIGMOID, -10, 10);
    /* |x| >= 4 takes the high halves of LReg[2] and LReg[6]: a = FP16 0x7C00 (exponent 31: 0), c =
     * FP16 0x37FF = 0.5 - 2^-12; with the sign kept and 0.5 added: 10 -> 1 - 2^-12, stored truncated
     * to BF16 0x3F7F; -10 -> 2^-12 = 0x3980; 0 -> 0x3F00; Inf: 0 * Inf is NaN. */
    const uint16_t in[] = {B_P0, 0x4120 /* 10 */, 0xC120, B_INF};
    const uint16_t want[] = {0x3F00, 0x3F7F, 0x3980, B_NAN};
    check_special(state, K_SIGMOID, in, want, 4);
}

static void test_gelu(void **state) {
    check_random(state, K_GELU, -6, 6);
    /* |x| < 0.5 takes the low halves of LReg[0] and LReg[4]: c = FP16 0x86D8 = -1.7109375 2^-14, so
     * gelu(0) = 0 + c = BF16 0xB8DB (exact in BF16). |x| >= 3 takes the high halves of LReg[2] and
     * LReg[6]: a = 0.5, c = FP16 0x7C00 = 0: 10 -> 5 + 5 = 10; -10 -> 5 - 5 = +0. */
    const uint16_t in[] = {B_P0, 0x4120 /* 10 */, 0xC120 /* -10 */};
    const uint16_t want[] = {0xB8DB, 0x4120, 0x0000};
    check_special(state, K_GELU, in, want, 3);
}

/* The checks can fail: an output moved past its tolerance is caught. */
static void test_tolerance_can_fail(void **state) {
    (void)state;
    assert_true(within(K_RECIP, 3, 1.0 / 3, 1.0 / 3));
    assert_false(within(K_RECIP, 3, 1.0 / 3 * (1 + 2 * ldexp(1, -7)), 1.0 / 3));
    assert_false(within(K_TANH, 1, 0.7616 + 0.2, tanh(1.0)));
    assert_false(within(K_EXP, 2, exp(2.0) * 1.2, exp(2.0)));
    assert_false(within(K_RELU, -1, -1, 0));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_relu, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_recip, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_sqrt, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_exp, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_tanh, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_sigmoid, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_gelu, dpf_setup, dpf_teardown),
        cmocka_unit_test(test_tolerance_can_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
