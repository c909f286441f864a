/* coproc/pack_l1acc.c — the packer's L1 accumulation (coproc/pack_l1acc.h). The FP32 and FP16
 * sums are IEEE single-precision additions, computed by coproc/fma.c's a * 1 + c (one rounding to
 * nearest even, denormal inputs as zero, denormal results flushed, NaN canonical); the BF16 sum is
 * an IEEE double addition as ttsim's, on the host (binary64, round to nearest even, which C
 * guarantees by default). */
#include "coproc/pack_l1acc.h"

#include <string.h>

#include "coproc/fma.h"
#include "coproc/formats.h"

#define FP32_ONE 0x3F800000u

bool pack_l1acc_supported(unsigned out_fmt) {
    return out_fmt == FMT_FP32 || out_fmt == FMT_FP16 || out_fmt == FMT_BF16;
}

uint32_t pack_l1acc_fp32(uint32_t l1, uint32_t v) { return fma_bh(v, FP32_ONE, l1); }

static double bf16_operand(uint16_t b, bool in_l1) {
    uint64_t sign = (uint64_t)(b >> 15) << 63, u;
    unsigned e = (b >> 7) & 0xFF, m = b & 0x7F;
    if (e == 0) {
        u = sign; /* zero and denormals: a signed zero */
    } else if (e == 0xFF && m) {
        /* NaN: in L1 the largest finite double; as the datum, exponent 255 taken as a number */
        u = in_l1 ? sign | 0x7FEFFFFFFFFFFFFFull : sign | (uint64_t)(255 - 127 + 1023) << 52 | (uint64_t)m << 45;
    } else if (e == 0xFF) {
        u = sign | 0x7FF0000000000000ull;
    } else {
        u = sign | (uint64_t)(e - 127 + 1023) << 52 | (uint64_t)m << 45;
    }
    double d;
    memcpy(&d, &u, 8);
    return d;
}

uint16_t pack_l1acc_bf16(uint16_t l1, uint16_t v) {
    if ((l1 == 0x7F80 && v == 0xFF80) || (l1 == 0xFF80 && v == 0x7F80)) return 0x7FC0;
    double sum = bf16_operand(l1, true) + bf16_operand(v, false);
    uint64_t u;
    memcpy(&u, &sum, 8);
    uint16_t sign = (uint16_t)((u >> 63) << 15);
    int e = (int)((u >> 52) & 0x7FF) - 1023 + 127;
    uint64_t m = u & ((1ull << 52) - 1);
    if (e <= 0) return sign;
    if (e >= 255) return (uint16_t)(sign | 0x7F80);
    /* round the 52-bit fraction to 7 bits, to nearest even; a carry moves into the exponent */
    uint64_t r = (m + (1ull << 44) - 1 + ((m >> 45) & 1)) >> 45;
    return (uint16_t)(sign | (((uint32_t)e << 7) + (uint32_t)r));
}

static uint32_t fp16_operand(uint16_t h) {
    uint32_t f = (uint32_t)(h & 0x8000) << 16;
    if ((h & 0x7FFF) >= 0x400) f |= ((uint32_t)(h & 0x7FFF) << 13) + (112u << 23);
    return f;
}

uint16_t pack_l1acc_fp16(uint16_t l1, uint16_t v) {
    uint32_t s = fma_bh(fp16_operand(v), FP32_ONE, fp16_operand(l1));
    uint16_t sign = (uint16_t)((s >> 16) & 0x8000);
    if (!(s & 0x7FFFFFFFu)) return (uint16_t)(sign | (((l1 >> 10) & 31) >= 30 ? 0x7FFF : 0));
    int e = (int)((s >> 23) & 0xFF) - 112;
    if (e <= 0) return (uint16_t)(sign | (e < 0 ? 0x7FFF : 0));
    uint32_t m = s & 0x7FFFFF;
    uint32_t packed = ((uint32_t)e << 10) + ((m + (1u << 12) - 1 + ((m >> 13) & 1)) >> 13);
    return (uint16_t)(sign | (packed < 0x8000 ? packed : 0x7FFF));
}
