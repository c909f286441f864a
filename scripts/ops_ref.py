#!/usr/bin/python3
"""References for the sample kernels of firmware-samples/ops/ (docs/ops.md), written from the ISA's
arithmetic with NumPy, never from ttemu's output.

  /usr/bin/python3 scripts/ops_ref.py data OUTDIR            default inputs and expectations
  /usr/bin/python3 scripts/ops_ref.py gen NAME OUTDIR --seed S   random inputs (and the expectation)
  /usr/bin/python3 scripts/ops_ref.py check NAME --in0 A [--in1 B] --out C [--perturb]
  /usr/bin/python3 scripts/ops_ref.py runtol NAME --in0 A [--in1 B]
  /usr/bin/python3 scripts/ops_ref.py list

`make data` runs the first into build/data/ops (NAME.in0.npy, NAME.in1.npy, NAME.out.npy); the
samples' run configs read them. `check` recomputes the reference from the inputs, compares it
with a kernel's output within the sample's tolerance and prints the largest error; it exits 1 on
a mismatch. `--perturb` moves one output element by twice the tolerance first: test/sh/t_ops.sh
uses it to prove each comparison can fail. `runtol` prints the `--expect` suffix (":rtol=R" or
":atol=A") that covers the tolerance for these inputs in the run's own comparison, which knows
only atol and rtol.

Each sample is an `Op` in OPS: its inputs' shapes and generators, the reference, the output format
and the tolerance, with the reason for it (docs/ops.md repeats them). Another module adds its own
samples without editing this one: every scripts/ops_ref_*.py is imported and may call
`register(Op(...))` (ops_ref_sfpu.py, for the SFPU samples).

Conventions (the datapath's, ../shared/docs/DATAPATH.md and docs/datapath.md):
  - Inputs are float32 arrays whose values are exact in the input format (bf16), so the host's
    conversion into L1 is exact; the generators round with round-to-nearest-even.
    Integer tensors take integer arrays (a generator returns its own dtype).
  - The Matrix Unit reads denormal inputs as zero (MatrixUnit.md: "Denormals will be flushed to
    zero"); the packer writes a bf16 whose magnitude is below 2^-126 as +0 and an fp32 denormal
    as zero (FormatConversion.md; DATAPATH.md §6.4).
  - Tolerances are in units in the last place of the output format (ulp: neighbouring values 1
    apart, -0 = +0, Inf one step past the largest finite) or relative to a bound computed from
    the inputs; NaN matches only NaN.
"""
import argparse
import glob
import importlib.util
import os
import sys

import numpy as np

# ---- formats ------------------------------------------------------------------------------------


def bf16_round(x):
    """float32 -> the nearest bfloat16 (ties to even), as float32. NaN stays NaN."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    r = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    out = (r << 16).astype(np.uint32)
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    out = np.where(nan, np.uint32(0x7FC00000), out)
    return out.view(np.float32)


def bf16_trunc(x):
    """float32 -> bfloat16 by dropping the low 16 bits, as float32."""
    return (np.asarray(x, dtype=np.float32).view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)


def flush(x):
    """Denormals (and -0) of float32 to +0: what the Matrix Unit reads and the packer writes."""
    x = np.asarray(x, dtype=np.float32)
    return np.where(np.abs(x) < np.float32(2.0 ** -126), np.float32(0.0), x).astype(np.float32)


INT_FORMATS = ("int32", "uint32", "int16", "uint16", "int8", "uint8")


def ordered(x, fmt):
    """Bit patterns on the format's number line (neighbours 1 apart, -0 = +0), as int64; integer
    formats are their values."""
    if fmt in INT_FORMATS:
        return np.asarray(x).astype(np.int64)
    x = np.asarray(x, dtype=np.float32)
    if fmt == "bfloat16":
        u = (x.view(np.uint32) >> 16).astype(np.int64)
        mag, sign = u & 0x7FFF, u >> 15
    else:
        u = x.view(np.uint32).astype(np.int64)
        mag, sign = u & 0x7FFFFFFF, u >> 31
    return np.where(sign == 1, -mag, mag)


# ---- tolerances ---------------------------------------------------------------------------------


class Ulp:
    """|got - want| <= n units in the last place of fmt."""

    def __init__(self, n, fmt, why):
        self.n, self.fmt, self.why = n, fmt, why

    def errors(self, got, want, inputs):
        return np.abs(ordered(got, self.fmt) - ordered(want, self.fmt)).astype(np.float64), float(self.n)

    def describe(self):
        return "within %d ulp of %s" % (self.n, self.fmt)

    def runtol(self, inputs):
        """n ulp is at most n 2^-7 (bf16) or n 2^-23 (fp32) relative to the expectation; n for an
        integer format."""
        if self.fmt in INT_FORMATS:
            return ":atol=%d" % self.n
        return ":rtol=%r" % (self.n * 2.0 ** (-7 if self.fmt == "bfloat16" else -23))


class Bound:
    """|got - want| <= bound(inputs) element by element (a bound derived from the arithmetic)."""

    def __init__(self, bound, text, why):
        self.bound, self.text, self.why = bound, text, why

    def errors(self, got, want, inputs):
        b = np.asarray(self.bound(*inputs), dtype=np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            err = np.abs(got.astype(np.float64) - want.astype(np.float64))
            ratio = np.where(b > 0, err / np.where(b > 0, b, 1.0), np.where(err > 0, np.inf, 0.0))
        return ratio, 1.0

    def describe(self):
        return self.text

    def runtol(self, inputs):
        """The largest element's bound, as an absolute tolerance."""
        return ":atol=%r" % float(np.max(self.bound(*inputs)))


def compare(got, want, tol, inputs):
    """(ok, message): NaN matches NaN, an infinity only itself, the rest within tol. Integers are
    compared as float64 (exact for 32 bits)."""
    exact = np.float64 if np.asarray(want).dtype.kind in "iu" else np.float32
    got = np.asarray(got).astype(exact)
    want = np.asarray(want).astype(exact)
    if got.shape != want.shape:
        return False, "shape %s, expected %s" % (got.shape, want.shape)
    gn, wn = np.isnan(got), np.isnan(want)
    special = gn | wn | np.isinf(got) | np.isinf(want)
    bad = (gn != wn) | (special & ~gn & ~wn & (got != want))
    err, limit = tol.errors(np.where(special, 0, got), np.where(special, 0, want), inputs)
    err = np.where(special, 0, err)
    bad |= err > limit
    worst = float(err.max()) if err.size else 0.0
    n = int(bad.sum())
    if n == 0:
        return True, "%d elements %s (largest error %.3g of %g)" % (got.size, tol.describe(), worst, limit)
    i = np.unravel_index(int(np.argmax(bad)), bad.shape)
    return False, "%d of %d elements not %s; first at %s: got %r, want %r" % (
        n, got.size, tol.describe(), list(i), float(got[i]), float(want[i]))


# ---- input generators ---------------------------------------------------------------------------


def bf16_values(rng, shape, lo=-20, hi=20):
    """bf16-exact float32: random signs, exponents 2^lo..2^hi, full mantissas."""
    mant = 1.0 + rng.integers(0, 128, size=shape) / 128.0  # the 7 stored bits: no rounding up to 2
    exp = rng.integers(lo, hi + 1, size=shape)
    sign = rng.choice([-1.0, 1.0], size=shape)
    return bf16_round((sign * mant * np.exp2(exp)).astype(np.float32))


def bf16_specials(x, rng):
    """Put zeros of both signs, denormals (read as zero), the smallest normals, values that
    cancel and bf16 ties in the first rows."""
    x = x.copy()
    flat = x.reshape(-1)
    special = np.array([0.0, -0.0, 1e-39, -1e-39, 2.0 ** -126, -2.0 ** -126, 1.0, -1.0, 3.0, 0.5,
                        1.0 + 2 ** -7, 2.0 ** 20, -(2.0 ** 20), 255.0, 0.1, -7.5], dtype=np.float32)
    n = min(len(special), flat.size)
    flat[:n] = bf16_round(special[:n])
    return x


# ---- the samples --------------------------------------------------------------------------------


class Op:
    """A sample: name, {input: (shape, generator(rng, default))}, reference(*inputs) -> output,
    the output's format and tolerance."""

    def __init__(self, name, inputs, ref, out_format, tol, note=""):
        self.name, self.inputs, self.ref, self.out_format, self.tol, self.note = (
            name, inputs, ref, out_format, tol, note)

    def generate(self, rng, default):
        """Inputs as float32 arrays, or in their integer type when the generator gives one (an
        integer tensor takes only integer arrays)."""
        ins = {}
        for k, (shape, gen) in self.inputs.items():
            ins[k] = as_input(gen(rng, shape, default, ins))
        return ins

    def reference(self, ins):
        dtype = np.dtype(self.out_format) if self.out_format in INT_FORMATS else np.float32
        return np.asarray(self.ref(*[ins[k] for k in self.inputs])).astype(dtype)


def as_input(a):
    a = np.asarray(a)
    return a if a.dtype.kind in "iu" else a.astype(np.float32)


OPS = {}


def register(op):
    OPS[op.name] = op


def gen_bf16(rng, shape, default, ins):
    x = bf16_values(rng, shape)
    return bf16_specials(x, rng) if default else x


def gen_bf16_near(other):
    """An elementwise op's second input: random, but every fourth element is the first input's
    negation or the first input itself nudged by a few ulp (cancellation, exact halves)."""
    def gen(rng, shape, default, ins):
        x = gen_bf16(rng, shape, default, ins)
        a = ins[other]
        pick = (np.arange(x.size) % 4 == 3).reshape(shape)
        nudge = np.exp2(rng.integers(-9, -6, size=shape)).astype(np.float32)
        near = bf16_round(a * rng.choice([-1.0, 1.0], size=shape).astype(np.float32) * (1 + nudge))
        return np.where(pick, near, x)
    return gen


def ref_elw(fn):
    """Eltwise binary into a BF16 Dst (ELWADD.md/ELWSUB.md: "= SrcA op SrcB"; ELWMUL.md):
    denormal inputs read as zero, the float32 result rounded to bf16, the packer's flush."""
    def ref(a, b):
        a, b = flush(a), flush(b)
        with np.errstate(over="ignore", invalid="ignore"):
            r = fn(a.astype(np.float32), b.astype(np.float32)).astype(np.float32)
        return flush(bf16_round(r))
    return ref


ELW_WHY = ("the adder aligns the smaller operand to 11 significant bits and rounds the sum to "
           "bf16 half away from zero where the reference rounds to nearest even: at most one "
           "rounding step apart")
MUL_WHY = ("HiFi4 is four ELWMULs (SrcA 5 x SrcB 7 bits each) accumulated into the 16-bit Dst, "
           "which rounds to bf16 after each of the four phases; the last three partial products "
           "are below 2^-4 of the first, so the four roundings stay within two ulp of the "
           "correctly rounded product")

register(Op("eltwise_add", {"in0": ((64, 64), gen_bf16), "in1": ((64, 64), gen_bf16_near("in0"))},
            ref_elw(np.add), "bfloat16", Ulp(1, "bfloat16", ELW_WHY)))
register(Op("eltwise_sub", {"in0": ((64, 64), gen_bf16), "in1": ((64, 64), gen_bf16_near("in0"))},
            ref_elw(np.subtract), "bfloat16", Ulp(1, "bfloat16", ELW_WHY)))
register(Op("eltwise_mul", {"in0": ((64, 64), gen_bf16), "in1": ((64, 64), gen_bf16)},
            ref_elw(np.multiply), "bfloat16", Ulp(2, "bfloat16", MUL_WHY)))


def ref_add_bcast_col(a, b):
    """out[r][c] = in0[r][c] + in1[r][0] (tt-metal's column broadcast: in1's first column)."""
    return ref_elw(np.add)(a, np.repeat(b[:, :1], a.shape[1], axis=1))


register(Op("eltwise_add_bcast_col", {"in0": ((64, 64), gen_bf16), "in1": ((64, 32), gen_bf16)},
            ref_add_bcast_col, "bfloat16", Ulp(1, "bfloat16", ELW_WHY)))


def ulp_bf16(x):
    """The spacing of bfloat16 at |x| (2^-133 below the normals)."""
    x = np.abs(np.asarray(x, dtype=np.float64))
    e = np.floor(np.log2(np.maximum(x, 2.0 ** -126)))
    return np.exp2(e - 7)


def gen_matmul(rng, shape, default, ins):
    """A matmul operand in bf16. Default: magnitudes in [1, 2) with random signs and mantissas, so
    every product of a fidelity phase has the same exponent and MVMUL aligns nothing (the
    comparison is then as tight as FP32 accumulation). Random: magnitudes 2^-3..2^4, so products
    are aligned and rounded within their groups of eight."""
    return bf16_values(rng, shape, 0, 0) if default else bf16_values(rng, shape, -3, 3)


def ref_matmul(a, b):
    """out = in0 @ in1 (MVMUL.md: Dst += SrcB @ SrcA into an FP32 Dst, packed as FP32): the exact
    product of the flushed bf16 operands, rounded to float32."""
    return np.matmul(flush(a).astype(np.float64), flush(b).astype(np.float64)).astype(np.float32)


def bound_matmul(a, b):
    """What the hardware's arithmetic may add to the exact result (docs/datapath.md "The Matrix
    Unit's arithmetic"; docs/ops.md). In each fidelity phase MVMUL aligns the eight products of a
    group to the group's largest exponent E with 10 bits below it, rounding: a product of a smaller
    exponent is off by at most half of 2^(E - 10) (times 2^-5, 2^-7, 2^-12 in phases 1..3, which
    share the alignment) and at most by itself. The FP32 accumulations (8 faces of K times 4
    phases, two group terms and Dst each) round by at most 2^-24 of their operands. Plus half an
    ulp of float32 for the reference's own rounding."""
    a, b = flush(a).astype(np.float64), flush(b).astype(np.float64)
    ea = np.where(a != 0, np.floor(np.log2(np.where(a != 0, np.abs(a), 1.0))), -np.inf)
    eb = np.where(b != 0, np.floor(np.log2(np.where(b != 0, np.abs(b), 1.0))), -np.inf)
    m, k, n = a.shape[0], a.shape[1], b.shape[1]
    e = (ea[:, :, None] + eb[None, :, :]).reshape(m, k // 8, 8, n)
    p = (np.abs(a)[:, :, None] * np.abs(b)[None, :, :]).reshape(m, k // 8, 8, n)
    eg = e.max(axis=2, keepdims=True)
    half_unit = 0.5 * np.exp2(np.where(np.isfinite(eg), eg, 0) - 10) * (1 + 2.0 ** -5 + 2.0 ** -7 + 2.0 ** -12)
    align = np.where(e < eg, np.minimum(half_unit, p), 0.0).sum(axis=(1, 2))
    accum = 2.0 ** -17 * p.sum(axis=(1, 2))
    want = np.abs(np.matmul(a, b))
    return align + accum + 2.0 ** -24 * want


MATMUL_WHY = ("MVMUL aligns each group of eight products to its largest exponent with 10 bits "
              "below it (all of a fidelity phase's products share the shifts), and the FP32 Dst "
              "rounds each accumulation to 24 bits: the bound is computed per element from in0 "
              "and in1; with the default inputs (all products of one exponent) only the FP32 "
              "accumulation remains")
register(Op("matmul", {"in0": ((64, 128), gen_matmul), "in1": ((128, 64), gen_matmul)},
            ref_matmul, "float32",
            Bound(bound_matmul, "within the bound of MVMUL's group alignment and FP32 accumulation",
                  MATMUL_WHY)))


def gen_reduce(rng, shape, default, ins):
    """A sum's input in bf16. Default: positive, magnitudes in [1, 2) (one exponent: GAPOOL aligns
    nothing); random: both signs, 2^-3..2^4."""
    return np.abs(bf16_values(rng, shape, 0, 0)) if default else bf16_values(rng, shape, -3, 3)


def ref_reduce_sum_row(a):
    """tt-metal's reduce<SUM, REDUCE_ROW> with a 1.0 scaler: out[r][0] = sum over c of in0[r][c]
    (exact, rounded to bf16), every other element 0 (the packer's edge mask)."""
    out = np.zeros((a.shape[0], 32), dtype=np.float32)
    out[:, 0] = flush(bf16_round(flush(a).astype(np.float64).sum(axis=1).astype(np.float32)))
    return out


def bound_reduce_sum_row(a):
    """GAPOOL (MVMUL.md's model on four rows) with the scaler 1.0: in phases 0 and 1 the input's
    top five and next five mantissa bits (phases 2 and 3 multiply by the scaler's zero low bits).
    Each group of eight is aligned to its largest exponent (half of 2^(E - 10), at most the value
    itself); each of the 8 GAPOOLs that change Dst (2 tiles x 2 faces x 2 phases) cuts its two
    terms and Dst to 11 bits (2^-11 of the row's sum of magnitudes S each) and rounds to bf16
    (2^-8 S); half an ulp for the reference's own rounding."""
    a = flush(a).astype(np.float64)
    m, n = a.shape
    e = np.where(a != 0, np.floor(np.log2(np.where(a != 0, np.abs(a), 1.0))), -np.inf).reshape(m, n // 8, 8)
    p = np.abs(a).reshape(m, n // 8, 8)
    eg = e.max(axis=2, keepdims=True)
    half_unit = 0.5 * np.exp2(np.where(np.isfinite(eg), eg, 0) - 10) * (1 + 2.0 ** -5)
    align = np.where(e < eg, np.minimum(half_unit, p), 0.0).sum(axis=(1, 2))
    S = np.abs(a).sum(axis=1)
    total = align + 8 * (3 * 2.0 ** -11 + 2.0 ** -8) * S + 0.5 * ulp_bf16(np.abs(a.sum(axis=1)))
    out = np.zeros((m, 32))
    out[:, 0] = total
    return out


REDUCE_WHY = ("the sums are accumulated in the 16-bit Dst, rounded to bf16 by every GAPOOL, "
              "after MVMUL's group alignment; the bound is computed per row from the input's "
              "magnitudes")
register(Op("reduce_sum_row", {"in0": ((64, 64), gen_reduce)}, ref_reduce_sum_row, "bfloat16",
            Bound(bound_reduce_sum_row, "within the bound of GAPOOL's alignment and the bf16 Dst's "
                  "roundings (other columns exactly 0)", REDUCE_WHY)))


def ref_reduce_max_col(a):
    """tt-metal's reduce<MAX, REDUCE_COL>: out[0][c] = max over r of in0[r][c] (GMPOOL.md: exact,
    denormals read as 0), every other element 0."""
    out = np.zeros((32, a.shape[1]), dtype=np.float32)
    out[0, :] = flush(flush(a).max(axis=0))
    return out


register(Op("reduce_max_col", {"in0": ((64, 64), gen_bf16)}, ref_reduce_max_col, "bfloat16",
            Ulp(0, "bfloat16", "GMPOOL compares exactly (GMPOOL.md's integer model)")))


def ref_datacopy_fp32(a):
    """bf16 -> float32 through SrcA and an FP32 Dst: every bf16 value exactly, denormals read as
    zero (ELWADD of SrcA and a zero SrcB: "Denormals will be flushed to zero"; the packer writes
    FP32 denormals as zero and -0 as it is)."""
    x = np.asarray(a, dtype=np.float32)
    return np.where(np.abs(x) < np.float32(2.0 ** -126), np.float32(0.0), x).astype(np.float32)


register(Op("datacopy_fp32", {"in0": ((64, 64), gen_bf16)}, ref_datacopy_fp32, "float32",
            Ulp(0, "float32", "every bf16 value is a float32 one: the copy is exact")))


def bfp8_blocks(t):
    """bf16 values (float32, a multiple of 16 along the last axis) -> their BFP8 blocks' values,
    16 consecutive elements a block (FormatConversion.md "To BFP8": one shared 8-bit exponent per
    16 datums, rounded to nearest, ties away from zero; FloatBitPatterns.md "BFP": sign, 7-bit
    magnitude m, value m / 64 * 2^(exp - 127)). The shared exponent is the block's largest; each
    8-bit significand (implicit one included) is shifted right to it and rounded to 7 bits, a
    carry out of 7 bits saturating to 127 (ttsim's choice where the page is silent; docs/ops.md)."""
    u = np.asarray(t, dtype=np.float32).view(np.uint32) >> 16
    shape = u.shape
    u = u.reshape(-1, 16).astype(np.int64)
    e = (u >> 7) & 0xFF
    sig = (u & 0x7F) | np.where(e > 0, 0x80, 0)
    emax = e.max(axis=1, keepdims=True)
    shift = emax - e
    m = np.where(shift >= 8, 0, (sig + (1 << np.minimum(shift, 7))) >> (np.minimum(shift, 7) + 1))
    m = np.minimum(m, 127)
    sign = np.where((u >> 15) == 1, -1.0, 1.0)
    v = sign * m / 64.0 * np.exp2((emax - 127).astype(np.float64))
    return np.where(m == 0, 0.0, v).reshape(shape).astype(np.float32)


def gen_pack_bfp8(rng, shape, default, ins):
    """float32 with full 23-bit mantissas, random signs, exponents 2^-6..2^6 (so blocks hold
    shifts of 0 to 12: rounding, ties and whole datums rounded away). Default inputs also carry,
    in their first rows, zeros, denormals, a block of one exponent, significands of all ones that
    round up past 7 bits, and exact ties."""
    mant = 1.0 + rng.integers(0, 1 << 23, size=shape) / float(1 << 23)
    x = (rng.choice([-1.0, 1.0], size=shape) * mant * np.exp2(rng.integers(-6, 7, size=shape))).astype(np.float32)
    if default:
        f = x.reshape(-1)
        f[:16] = [0.0, -0.0, 1e-39, -1e-39, 1.0, -1.5, 1.9921875, 1.99999988, 0.75, -1.25, 1.0078125, 1.5,
                  1.0, 1.0, 1.0, 1.0]  # one exponent: 1.9921875 = 0xFF significand rounds to 127
        f[16:32] = np.float32(4.0) * np.float32(2.0) ** -np.arange(16, dtype=np.float32)  # shifts 0..15
        f[32:48] = [8.0, 3.0, -3.0, 1.5, 0.75, 0.375, 5.0, -5.0, 0.1875, 2.5, -2.5, 6.0, 7.0, 1.75, 3.5, 0.0625]
    return x


def ref_pack_bfp8(a):
    """float32 -> bfloat8_b through a TF32 SrcA, an FP32 Dst and the packer: the unpacker keeps
    TF32's 10 mantissa bits (truncation), the datacopy ELWADD adds zero exactly, denormals become
    zero, and the packer truncates to bf16 (FormatConversion.md, "To BFP8") before the blocks;
    out is the blocks' values."""
    t = bf16_trunc(a)
    t = np.where(np.abs(t) < np.float32(2.0 ** -126), np.float32(0.0), t).astype(np.float32)
    # A face row of a tile is 16 consecutive columns of one row: blocks along the last axis.
    return bfp8_blocks(t)


register(Op("pack_bfp8", {"in0": ((64, 64), gen_pack_bfp8)}, ref_pack_bfp8, "bfloat8_b",
            Ulp(0, "float32", "the packer's rounding to BFP8 is deterministic and the path before "
                "it exact (truncations): the values match exactly")))


def bfp8_exact(gen):
    """Inputs for a bfloat8_b tensor: the generator's values (exponents 2^-3..2^3, so blocks keep
    most of their bits) made exact in their blocks, so the host's conversion keeps them."""
    def g(rng, shape, default, ins):
        x = gen(rng, shape, default, ins)
        return bfp8_blocks(bf16_round(x))
    return g


def gen_bf16_narrow(rng, shape, default, ins):
    return bf16_values(rng, shape, -3, 3)


def gen_bf16_narrow_near(other):
    near = gen_bf16_near(other)

    def g(rng, shape, default, ins):
        x = near(rng, shape, False, ins)
        far = np.abs(np.log2(np.maximum(np.abs(x), 2.0 ** -126))) > 4
        return np.where(far, bf16_values(rng, shape, -3, 3), x)
    return g


def ref_add_bfp8(a, b):
    """in0 + in1 from bfloat8_b tensors: each input is what the host stores (bf16, then blocks by
    the packer's rule, bfp8_blocks) and the unpacker reads back exactly (BFP8ToBF16); then as
    eltwise_add."""
    return ref_elw(np.add)(bfp8_blocks(bf16_round(a)), bfp8_blocks(bf16_round(b)))


register(Op("eltwise_add_bfp8", {"in0": ((64, 64), bfp8_exact(gen_bf16_narrow)),
                                 "in1": ((64, 64), bfp8_exact(gen_bf16_narrow_near("in0")))},
            ref_add_bfp8, "bfloat16", Ulp(1, "bfloat16", "as eltwise_add: the BFP8 inputs reach SrcA and "
                                          "SrcB exactly (BFP8ToBF16)")))


def gen_uint8(rng, shape, default, ins):
    """uint8 values, every one of 0..255 in the default inputs (twice over, then random)."""
    if default:
        return (np.arange(np.prod(shape)) % 256).astype(np.uint8).reshape(shape)
    return rng.integers(0, 256, size=shape, dtype=np.uint8)


def ref_typecast_int32(a):
    """uint8 -> int32: Integer "8" with SrcAUnsigned is the magnitude 0..255 (UNPACR_Regular.md's
    conversion to Integer "8"), ELWADD with integer math adds a zero SrcB exactly into an Integer
    "32" (ELWADD.md), and the packer writes INT32 as it is (FormatConversion.md: identity)."""
    return np.asarray(a).astype(np.int32)


register(Op("typecast_int32", {"in0": ((64, 64), gen_uint8)}, ref_typecast_int32, "int32",
            Ulp(0, "int32", "integer arithmetic: exact")))


# ---- command line -------------------------------------------------------------------------------


def load_plugins():
    here = os.path.dirname(os.path.abspath(__file__))
    for path in sorted(glob.glob(os.path.join(here, "ops_ref_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)


def write_case(op, ins, outdir, stem):
    os.makedirs(outdir, exist_ok=True)
    for k, v in ins.items():
        np.save(os.path.join(outdir, "%s.%s.npy" % (stem, k)), v)
    np.save(os.path.join(outdir, "%s.out.npy" % stem), op.reference(ins))


def seed_of(name, seed):
    """A per-sample seed: the same inputs whatever other samples exist."""
    return [seed] + [ord(c) for c in name]


def main(argv=None):
    load_plugins()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("data", help="default inputs and expectations of every sample")
    d.add_argument("outdir")
    g = sub.add_parser("gen", help="random inputs with a fixed seed, and their expectation")
    g.add_argument("name")
    g.add_argument("outdir")
    g.add_argument("--seed", type=int, default=1)
    c = sub.add_parser("check", help="compare a kernel's output with the reference")
    c.add_argument("name")
    c.add_argument("--in0")
    c.add_argument("--in1")
    c.add_argument("--out", required=True)
    c.add_argument("--perturb", action="store_true", help="move one element by twice the tolerance")
    r = sub.add_parser("runtol", help="an --expect tolerance suffix covering the sample's tolerance")
    r.add_argument("name")
    r.add_argument("--in0")
    r.add_argument("--in1")
    sub.add_parser("list", help="the samples and their tolerances")
    a = ap.parse_args(argv)

    if a.cmd == "list":
        for op in OPS.values():
            print("%-24s %-10s %s" % (op.name, op.out_format, op.tol.describe()))
        return 0
    if a.cmd == "data":
        for op in OPS.values():
            write_case(op, op.generate(np.random.default_rng(seed_of(op.name, 0)), True), a.outdir, op.name)
        return 0
    op = OPS.get(a.name)
    if op is None:
        print("ops_ref: no sample %r (have: %s)" % (a.name, ", ".join(OPS)), file=sys.stderr)
        return 2
    if a.cmd == "gen":
        write_case(op, op.generate(np.random.default_rng(seed_of(op.name, a.seed)), False), a.outdir,
                   "%s.seed%d" % (op.name, a.seed))
        return 0
    ins = {}
    for k in op.inputs:
        path = getattr(a, k, None)
        if path is None:
            print("ops_ref: %s needs --%s" % (op.name, k), file=sys.stderr)
            return 2
        ins[k] = as_input(np.load(path))
    if a.cmd == "runtol":
        print(op.tol.runtol([ins[k] for k in op.inputs]))
        return 0
    got = np.load(a.out)
    want = op.reference(ins)
    if a.perturb:
        got = perturb(got, want, op)
    ok, msg = compare(got, want, op.tol, [ins[k] for k in op.inputs])
    print("%s: %s" % (op.name, msg))
    return 0 if ok else 1


def perturb(got, want, op):
    """Move the first finite element away from the expectation by twice the tolerance."""
    got = got.copy()
    flat, w = got.reshape(-1), want.reshape(-1)
    i = int(np.argmax(np.isfinite(w) & (w != 0)))
    if isinstance(op.tol, Ulp):
        step = 2 * op.tol.n + 1
        if op.tol.fmt in INT_FORMATS:
            flat[i] = w[i] + step
        elif op.tol.fmt == "bfloat16":
            bits = (np.float32(w[i]).view(np.uint32) >> 16) + step
            flat[i] = np.uint32(bits << 16).view(np.float32)
        else:
            flat[i] = (np.float32(w[i]).view(np.uint32) + np.uint32(step)).view(np.float32)
    else:
        flat[i] = w[i] * np.float32(1.5) + np.float32(1.0)
    return got


if __name__ == "__main__":
    sys.exit(main())
