#!/usr/bin/python3
"""The samples' tensor data (docs/tensors.md): deterministic inputs and their expected outputs.

Usage: /usr/bin/python3 scripts/make_sample_data.py OUTDIR [--tiles N]

`make data` writes them to build/data, where the samples' configs read them. NumPy is Debian's
python3-numpy (scripts/deps.sh), hence /usr/bin/python3.

The tensors sample (firmware-samples/regress/tensors.json, firmware-samples/tensors/):
  tensors_a.npy         int32 (32, 64): random values and the extremes
  tensors_a_plus_1.npy  a + 1, wrapping at 2^31 as the RV32 program's add does
  tensors_b.npy         float32 (16, 48): numbers that bfloat16 must round, ±0, ±Inf, NaN, subnormals
  tensors_minus_b.npy   -b: the program flips the bfloat16 sign bit, and rounding to bfloat16 is
                        symmetric, so -b rounded is the negation of b rounded

The add1 kernels (firmware-samples/configs/add1-compute.json, ../shared/firmware/kernels-add1):
  add1_input.npy, add1_expected.npy: uint16 arrays of shape (32 * N, 32) (N tiles of 32 x 32,
  default 8) holding raw bfloat16 bit patterns, which ttemu puts into a bfloat16 tensor as they are.
  Raw bits, not float32, so that every pattern the input needs (signalling NaNs, NaN payloads,
  subnormals) reaches L1 exactly.

The input holds, in its first rows, negative numbers, values whose sum with 1.0 needs rounding
(ties included), subnormals, ±0, ±Inf, quiet and signalling NaNs of both signs with payloads, the
largest finite values and their neighbours; the rest is random bit patterns (every kind of
value) and random numbers in [-300, 300] from a fixed seed. No finite bfloat16 overflows when 1.0
is added: the largest, 0x7F7F (about 3.39e38), lies below float32's largest (about 3.40e38), and
1.0 is far below its unit in the last place; the largest values are there all the same.

The expectation is computed here from the ISA's arithmetic (../shared/docs/DATAPATH.md §0, §5.4,
§5.5, §6.4), independently of ttemu:
  SFPLOAD   bf16 -> fp32 exactly (bits << 16);
  SFPADDI   fp32 add of 1.0, round to nearest even; subnormal inputs read as zero; a NaN produced
            is the canonical 0x7FC00000; subnormal results flush to zero of the same sign;
  SFPSTORE  fp32 -> bf16 by truncation (after the flush);
  PACR      bf16 -> bf16: patterns whose magnitude is above 0x7F80 (NaNs) become 0x7F80 with the
            sign kept; magnitudes below 0x0080 (zeros, subnormals) become +0.
"""
import argparse
import os

import numpy as np

SPECIALS = [
    0x0000, 0x8000,                          # +0, -0
    0x0001, 0x007F, 0x0040, 0x8001, 0x807F,  # subnormals: read as zero
    0x0080, 0x8080, 0x0081,                  # the smallest normals
    0x7F80, 0xFF80,                          # +Inf, -Inf
    0x7FC0, 0xFFC0, 0x7FC1, 0x7FFF, 0xFFFF,  # quiet NaNs, with payloads
    0x7F81, 0xFF81, 0x7FA0,                  # signalling NaNs
    0x7F7F, 0xFF7F, 0x7F7E, 0xFF7E,          # the largest finite values and neighbours
    0x3F80, 0xBF80,                          # 1 (-> 2), -1 (-> +0)
    0xBF00, 0x3F00, 0xBF7F, 0xBF81,          # -0.5, 0.5, -(1 - 2^-8), -(1 + 2^-7)
    0x437F, 0x4380, 0x4381, 0xC380,          # 255 (-> 256), 256 (257 truncates to 256), 258, -256
    0x4B80, 0x4B81, 0x4BFF, 0xCB80,          # 2^24 and up: x + 1 is a tie in fp32 (even: x)
    0x4C00, 0x4C01,                          # 2^25: 1.0 is under half a unit
    0x3000, 0xB000, 0x2F80, 0x0100,          # tiny: 1 + x rounds to 1
    0x3B80, 0xBB80, 0x3C00,                  # 2^-8, -2^-8, 2^-7
    0x4049, 0xC049, 0x42F7, 0xC2F7,          # pi-ish, +-123.5
    0x3F7F, 0x3F81, 0x3FFF, 0xBFFF,          # around 1 and 2
]


def add1_reference(bits):
    """bf16 patterns (uint16) -> the patterns the add1 kernels leave in CB16."""
    bits = bits.astype(np.uint32)
    exp = (bits >> 7) & 0xFF
    mant = bits & 0x7F
    x = bits << 16
    x = np.where(exp == 0, x & 0x80000000, x)  # subnormal inputs read as (signed) zero
    f = x.astype(np.uint32).view(np.float32)
    with np.errstate(all="ignore"):
        s = (f + np.float32(1.0)).astype(np.float32)  # IEEE binary32 add, round to nearest even
    s32 = s.view(np.uint32).copy()
    nan_in = (exp == 0xFF) & (mant != 0)
    s32 = np.where(nan_in | np.isnan(s), np.uint32(0x7FC00000), s32)  # the canonical NaN
    s32 = np.where(((s32 >> 23) & 0xFF) == 0, s32 & 0x80000000, s32)  # flush subnormal results
    out = (s32 >> 16).astype(np.uint32)  # SFPSTORE: truncate to bf16
    mag = out & 0x7FFF
    out = np.where(mag > 0x7F80, (out & 0x8000) | 0x7F80, out)  # the packer's NaN clamp
    out = np.where(mag < 0x0080, 0, out)  # and its flush of zeros and subnormals to +0
    return out.astype(np.uint16)


def make_input(tiles):
    n = 32 * 32 * tiles
    rng = np.random.default_rng(13)
    values = np.empty(n, dtype=np.uint16)
    k = min(len(SPECIALS), n)
    values[:k] = SPECIALS[:k]
    rest = n - k
    half = rest // 2
    values[k:k + half] = rng.integers(0, 1 << 16, size=half, dtype=np.uint32).astype(np.uint16)
    numbers = rng.uniform(-300, 300, size=rest - half).astype(np.float32)
    values[k + half:] = (numbers.view(np.uint32) >> 16).astype(np.uint16)
    return values.reshape(32 * tiles, 32)


def tensors_sample(rng):
    """The tensors sample's a, a + 1, b and -b."""
    a = rng.integers(-(1 << 31), 1 << 31, size=(32, 64), dtype=np.int64)
    a.flat[:6] = [0, -1, 1, (1 << 31) - 1, -(1 << 31), 12345]
    a = a.astype(np.int32)
    a_plus_1 = ((a.astype(np.int64) + 1 + (1 << 31)) % (1 << 32) - (1 << 31)).astype(np.int32)
    b = rng.uniform(-1000, 1000, size=(16, 48)).astype(np.float32)
    special = np.array([0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001,
                        0x3F808000, 0x3F818000, 0x7F7FFFFF, 0x3F800001], dtype=np.uint32)
    b.flat[:len(special)] = special.view(np.float32)
    return a, a_plus_1, b, -b


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--tiles", type=int, default=8)
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    a, a1, b, mb = tensors_sample(np.random.default_rng(7))
    for name, arr in (("a", a), ("a_plus_1", a1), ("b", b), ("minus_b", mb)):
        np.save(os.path.join(args.outdir, "tensors_%s.npy" % name), arr)
    x = make_input(args.tiles)
    np.save(os.path.join(args.outdir, "add1_input.npy"), x)
    np.save(os.path.join(args.outdir, "add1_expected.npy"), add1_reference(x))


if __name__ == "__main__":
    main()
