/* loader/formats_tmp.c — TEMPORARY: delete this file when coproc/formats.c (the formats library,
 * written in parallel on another branch) is merged; its symbols then clash with these, which is the
 * reminder. It implements only the four IEEE conversions of coproc/formats.h that the host's tensor
 * code (loader/tensor.c) calls, as that header specifies them: round to nearest even or truncate,
 * NaN stays NaN (quietened, sign kept, payload truncated), ±Inf stays ±Inf, overflow under FMT_RNE
 * gives ±Inf and under FMT_TRUNC the largest finite value, subnormal results are produced. */
#include "coproc/formats.h"

uint16_t fmt_fp32_to_bf16(uint32_t f, fmt_round_t r) {
    if ((f & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((f >> 16) | 0x0040u); /* NaN: quiet it */
    if (r == FMT_TRUNC) return (uint16_t)(f >> 16); /* same exponent range: cannot overflow */
    /* Round to nearest, ties to even; a carry out of the mantissa bumps the exponent, up to Inf. */
    return (uint16_t)((f + 0x7FFFu + ((f >> 16) & 1u)) >> 16);
}

uint32_t fmt_bf16_to_fp32(uint16_t b) { return (uint32_t)b << 16; }

uint16_t fmt_fp32_to_fp16(uint32_t f, fmt_round_t r) {
    uint16_t sign = (uint16_t)((f >> 16) & 0x8000u);
    uint32_t a = f & 0x7FFFFFFFu;
    if (a > 0x7F800000u) return (uint16_t)(sign | 0x7E00u | ((a >> 13) & 0x3FFu));
    if (a == 0x7F800000u) return (uint16_t)(sign | 0x7C00u);
    int e = (int)(a >> 23) - 127 + 15; /* the fp16 biased exponent */
    uint32_t m = (a & 0x7FFFFFu) | 0x800000u;
    if (a < 0x00800000u) return sign; /* fp32 subnormals are far below fp16's smallest subnormal */
    if (e >= 31) return (uint16_t)(sign | (r == FMT_RNE ? 0x7C00u : 0x7BFFu));
    unsigned shift = e <= 0 ? (unsigned)(14 - e) : 13u; /* subnormal results lose more bits */
    if (shift > 24) return sign;                        /* below half the smallest subnormal */
    uint32_t q = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1);
    if (e > 0) q = ((uint32_t)e << 10) | (q & 0x3FFu);
    if (r == FMT_RNE && (rem > half || (rem == half && (q & 1u)))) q++; /* a carry may give Inf: right */
    return (uint16_t)(sign | q);
}

uint32_t fmt_fp16_to_fp32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    if (e == 0x1F) return sign | 0x7F800000u | (m << 13) | (m ? 0x400000u : 0); /* Inf, NaN (quiet) */
    if (e == 0) {
        if (!m) return sign;
        int sh = 0; /* subnormal: normalise */
        while (!(m & 0x400u)) {
            m <<= 1;
            sh++;
        }
        return sign | (uint32_t)(127 - 15 + 1 - sh) << 23 | ((m & 0x3FFu) << 13);
    }
    return sign | (e + 127 - 15) << 23 | (m << 13);
}
