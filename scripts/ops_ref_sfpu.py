"""References for the SFPU samples of firmware-samples/ops/ (sfpu_relu, sfpu_exp, sfpu_recip,
sfpu_sqrt, sfpu_sigmoid, sfpu_gelu, sfpu_tanh; docs/ops-sfpu.md), loaded by
scripts/ops_ref.py. Each reference is the exact function (float64), never ttemu's output; the
tolerance is what the algorithm tt-llk's Blackhole function uses can be away from it
(firmware-samples/include/ttemu_sfpu.h; test/unit/test_sfpu_kernels.c checks the same bounds on the
kernels alone).

The path around the SFPU is part of the reference:
  - MOVA2D copies the unpacked tile into Dst with ALU_ACC_CTRL_Zero_Flag_disabled_src off: a datum
    whose exponent is 0 becomes +0 (MOVA2D.md, `if (FlushDenormals && !(SrcAVal & 0xff))`), so
    denormals and -0 reach the SFPU as +0;
  - the packer writes a NaN of the BF16 Dst as an infinity of its sign, and a magnitude below 2^-126
    (and -0) as +0 (Packers/FormatConversion.md; docs/datapath.md `fmt_pack_early`).
Where the algorithm's answer for a non-finite input is not the exact function's, the reference says
what the algorithm does (`specials`), worked from the instruction pages as in test_sfpu_kernels.c.
"""
import sys

import numpy as np

# The loading scripts/ops_ref.py: imported as ops_ref, or run as the script (__main__), whose
# register() must receive the samples.
R = sys.modules.get("ops_ref") or sys.modules["__main__"]

TINY = np.float32(2.0 ** -126)


def to_bf16(a):
    """The host's conversion of a float32 input to bf16: to nearest even; a NaN keeps its sign."""
    a = np.asarray(a, dtype=np.float32)
    return np.where(np.isnan(a), np.copysign(np.float32(np.nan), a), R.bf16_round(a)).astype(np.float32)


def mova2d(x):
    """Denormals and -0 to +0 (MOVA2D's zero flag on the exponent)."""
    x = np.asarray(x, dtype=np.float32)
    return np.where(np.abs(x) < TINY, np.float32(0.0), x).astype(np.float32)


def packer(y):
    """BF16 Dst -> bf16 in L1: NaN -> Inf with its sign, |y| < 2^-126 and -0 -> +0."""
    y = np.asarray(y, dtype=np.float32)
    neg = np.signbit(y)
    y = np.where(np.isnan(y), np.where(neg, np.float32(-np.inf), np.float32(np.inf)), y)
    return np.where(np.abs(y) < TINY, np.float32(0.0), y).astype(np.float32)


def sign_inf(x):
    return np.where(np.signbit(x), np.float32(-np.inf), np.float32(np.inf))


def gelu_exact(x):
    erf = np.vectorize(__import__("math").erf, otypes=[np.float64])
    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


# name: (exact function on float64, specials(x) -> (mask, value), useful range for random inputs)
def _relu_specials(x):
    # v_if (x < 0) x = 0 tests the sign: -NaN becomes 0; +NaN stays NaN (the packer: +Inf).
    return np.isnan(x) & np.signbit(x), np.float32(0.0)


def _recip_specials(x):
    # SFPARECIP of a NaN is 0 (SFPARECIP.md), and the Newton step keeps it (0 x - 1 = -1, top
    # half added to 0's bits: the sign bit set and cleared again by the carry: 0).
    return np.isnan(x), np.float32(0.0)


def _exp_specials(x):
    # -NaN: |x| is a NaN of exponent 128, squared to Inf, then the x < 0 branch: 1 / Inf = 0.
    return np.isnan(x) & np.signbit(x), np.float32(0.0)


def _tanh_specials(x):
    # SFPLUT reads Inf and NaN as |x| >= 2: 0 |x| + 1, and 0 Inf is NaN, with x's sign kept.
    return ~np.isfinite(x), sign_inf(x)


def _nonfinite_to_inf(x):
    # sigmoid: the top segment's slope 0 times Inf is NaN (+0.5 keeps it); gelu: x/2 + |x|/2 is
    # Inf, -Inf + Inf or NaN: NaN. The packer writes the FMA's NaN (0x7FC00000) as +Inf.
    return ~np.isfinite(x), np.float32(np.inf)


def _none(x):
    return np.zeros(x.shape, dtype=bool), np.float32(0.0)


FUNCS = {
    "sfpu_relu": (lambda x: np.maximum(x, 0.0), _relu_specials, (-100.0, 100.0)),
    "sfpu_recip": (lambda x: 1.0 / x, _recip_specials, (-1024.0, 1024.0)),
    "sfpu_sqrt": (np.sqrt, _none, (0.0, 65536.0)),
    "sfpu_exp": (np.exp, _exp_specials, (-8.0, 8.0)),
    "sfpu_tanh": (np.tanh, _tanh_specials, (-4.0, 4.0)),
    "sfpu_sigmoid": (lambda x: 1.0 / (1.0 + np.exp(-x)), _nonfinite_to_inf, (-8.0, 8.0)),
    "sfpu_gelu": (gelu_exact, _nonfinite_to_inf, (-4.0, 4.0)),
}

# In front of the default inputs: ±0, ±Inf, ±NaN, ±1, denormals, the smallest normal, huge values
# (the largest finite bf16 and 1e38), tiny ones, 100 and -100.
SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0, 1e-39, -1e-39, 2.0 ** -126,
                     -(2.0 ** -126), 3.3895314e38, -3.3895314e38, 1e38, -1e38, 1e-30, -1e-30, 100.0, -100.0,
                     0.5, -0.5, 2.0, -2.0, 4.0, -4.0],
                    dtype=np.float32)
SPECIALS[5] = np.copysign(np.float32(np.nan), np.float32(-1))  # a NaN with the sign bit set


def reference(name, rounded):
    exact, specials, _ = FUNCS[name]

    def ref(a):
        x = mova2d(to_bf16(a))
        with np.errstate(all="ignore"):
            y = np.asarray(exact(x.astype(np.float64)), dtype=np.float64).astype(np.float32)
        mask, value = specials(x)
        y = np.where(mask, value, y).astype(np.float32)
        return packer(R.bf16_round(y) if rounded else y)
    return ref


def gen(name):
    lo, hi = FUNCS[name][2]

    def g(rng, shape, default, ins):
        x = R.bf16_round(rng.uniform(lo, hi, size=shape).astype(np.float32))
        if default:
            f = x.reshape(-1)
            f[:len(SPECIALS)] = to_bf16(SPECIALS)
        return x
    return g


def exp_bound(a):
    """_sfpu_exp_: for |x| >= 1, |x| is scaled into [0.5, 1) (exponent 126) and the quadratic's
    value squared k = exponent(|x|) + 1 times; the quadratic v (0.8373 v + 0.859375) + 1 is within
    1.33% of e^v on [0, 0.5) and 0.80% on [0.5, 1) (on a dense grid of v: docs/ops-sfpu.md),
    and squaring multiplies the error 2^k times. Then the truncations to BF16 (SFPSTORE, and the
    reciprocal's BF16 input for x < 0: one ulp of BF16 each, 2^-7) and the reciprocal's last Newton
    step (at most one more): 3 2^-7. Relative to e^x; exact where the reference is not finite."""
    x = np.abs(mova2d(to_bf16(a)).astype(np.float64))
    with np.errstate(all="ignore"):
        k = np.where(x >= 1, np.floor(np.log2(np.where(x >= 1, x, 1.0))) + 1, 0)
        rel = np.where(k == 0, 0.0133, np.power(1.0080, np.exp2(k)) - 1) + 3 * 2.0 ** -7
        return rel * np.exp(mova2d(to_bf16(a)).astype(np.float64)) * (1 + 2.0 ** -23)


def abs_rel_bound(atol, rtol, name):
    exact = FUNCS[name][0]

    def bound(a):
        with np.errstate(all="ignore"):
            y = np.abs(np.asarray(exact(mova2d(to_bf16(a)).astype(np.float64)), dtype=np.float64))
        return atol + rtol * np.where(np.isfinite(y), y, 0.0)
    return bound


R.register(R.Op("sfpu_relu", {"in0": ((64, 64), gen("sfpu_relu"))}, reference("sfpu_relu", True), "bfloat16",
                R.Ulp(0, "bfloat16", "v_if (x < 0) x = 0 moves values and never rounds: exact")))
R.register(R.Op("sfpu_recip", {"in0": ((64, 64), gen("sfpu_recip"))}, reference("sfpu_recip", True), "bfloat16",
                R.Ulp(1, "bfloat16", "_calculate_reciprocal_fast_8b_3c_: SFPARECIP's 7-bit estimate at its "
                      "interval's midpoint and one integer Newton step on the top half of x y - 1 give the "
                      "reciprocal rounded to bf16 (the error is within half an ulp on every bf16 input: "
                      "test_sfpu_kernels), against the reference's rounding: one ulp")))
R.register(R.Op("sfpu_sqrt", {"in0": ((64, 64), gen("sfpu_sqrt"))}, reference("sfpu_sqrt", True), "bfloat16",
                R.Ulp(1, "bfloat16", "_calculate_sqrt_body_: the 0x5f1110a0 inverse square root seed, a "
                      "polynomial step and one Newton step in FP32 are far within an ulp of bf16; the result "
                      "is rounded to bf16 (to nearest, ties away): one ulp against the reference's rounding")))
R.register(R.Op("sfpu_exp", {"in0": ((64, 64), gen("sfpu_exp"))}, reference("sfpu_exp", False), "bfloat16",
                R.Bound(exp_bound, "within _sfpu_exp_'s relative bound (1.33% below |x| = 1, (1.008^(2^k) - 1) "
                        "for k squarings above; plus 3 2^-7)",
                        "the quadratic's error is squared with the value (docs/ops-sfpu.md)")))
# The LUT kernels: the segments' largest distance from the function over every normal bf16 input
# (docs/ops-sfpu.md), rounded up; SFPSTORE's truncation to bf16 loses less than 2^-7 of the output, at
# most 2^-7 for tanh and sigmoid (|out| <= 1, 0.0079 absolute) and 2^-7 (|gelu x| + 0.0235) for gelu.
R.register(R.Op("sfpu_tanh", {"in0": ((64, 64), gen("sfpu_tanh"))}, reference("sfpu_tanh", False), "bfloat16",
                R.Bound(abs_rel_bound(0.1447 + 0.0079, 0.0, "sfpu_tanh"),
                        "within 0.1526 of tanh (SFPLUT's three segments 0.1447, bf16 truncation 0.0079)",
                        "the three line segments (0.90625 |x|, 0.09375 |x| + 0.8125, 1) are at most 0.14466 "
                        "from tanh (at |x| = 2)")))
R.register(R.Op("sfpu_sigmoid", {"in0": ((64, 64), gen("sfpu_sigmoid"))}, reference("sfpu_sigmoid", False),
                "bfloat16",
                R.Bound(abs_rel_bound(0.0178 + 0.0079, 0.0, "sfpu_sigmoid"),
                        "within 0.0257 of sigmoid (SFPLUTFP32's six FP16 segments 0.0178, bf16 truncation 0.0079)",
                        "the six segments for sigmoid(x) - 0.5, odd in x, are at most 0.017743 from it")))
R.register(R.Op("sfpu_gelu", {"in0": ((64, 64), gen("sfpu_gelu"))}, reference("sfpu_gelu", False), "bfloat16",
                R.Bound(abs_rel_bound(0.0235, 0.0079, "sfpu_gelu"),
                        "within 0.0235 + 0.0079 |gelu(x)| (x / 2 plus SFPLUTFP32's six FP16 segments, bf16 "
                        "truncation)",
                        "x / 2 plus six segments for x erf(x / sqrt 2) / 2, even in x, are at most 0.023411 "
                        "from gelu")))
