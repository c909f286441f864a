/* coproc/formats.h — the Tensix data formats as pure functions over bit patterns: the 4-bit format
 * codes, conversions between the host formats (fp32, bf16, fp16, tf32, integers) with their
 * rounding modes and special values, and the register files' internal layouts (the 19-bit Src
 * datum, Dst's 16-bit cells and 32-bit datums). No state, no clock; every function is tested on
 * its own (test/unit/test_formats.c). Facts: ../shared/docs/DATAPATH.md §2 (and the ISA pages it
 * cites); docs/datapath.md lists every choice.
 *
 * Values travel as bit patterns (uint32_t for fp32, uint16_t for bf16/fp16), never as C floats,
 * so no host rounding mode or x87 excess precision can touch them.
 */
#ifndef TTEMU_COPROC_FORMATS_H
#define TTEMU_COPROC_FORMATS_H

#include <stdbool.h>
#include <stdint.h>

/* The 4-bit data format codes every format field uses (DATAPATH.md §2.2; UNPACR_Regular.md). */
typedef enum {
    FMT_FP32 = 0,
    FMT_FP16 = 1,  /* "Float16" (a): 5-bit exponent */
    FMT_BFP8A = 2, /* block float, shared 5-bit-exponent family */
    FMT_BFP4A = 3,
    FMT_TF32 = 4,
    FMT_BF16 = 5, /* "Float16_b": 8-bit exponent */
    FMT_BFP8 = 6, /* block float, shared 8-bit exponent ("_b") */
    FMT_BFP4 = 7,
    FMT_INT32 = 8,
    FMT_INT16 = 9, /* also UInt16 */
    FMT_FP8 = 10,  /* LF8: E5M2, or E4M3 on Blackhole when the *_LF8_4b_exp bit is set */
    FMT_BFP2A = 11,
    FMT_INT8 = 14,
    FMT_BFP2 = 15,
} fmt_t;

typedef enum {
    FMT_RNE = 0,   /* round to nearest, ties to even */
    FMT_TRUNC = 1, /* round toward zero (drop the low bits) */
} fmt_round_t;

/* The name of a format code ("BF16", "FP32", ...), "?" for an unused code. */
const char *fmt_name(unsigned code);

/* IEEE conversions (host side and the units that use IEEE rules). NaN stays NaN (quietened, sign
 * kept, payload truncated); ±Inf stays ±Inf; overflow under FMT_RNE gives ±Inf, under FMT_TRUNC the
 * largest finite value; subnormal results are produced (no flush: the units flush where the ISA
 * says so, with fmt_fp32_flush below). */
uint16_t fmt_fp32_to_bf16(uint32_t f, fmt_round_t r);
uint32_t fmt_bf16_to_fp32(uint16_t b);
uint16_t fmt_fp32_to_fp16(uint32_t f, fmt_round_t r);
uint32_t fmt_fp16_to_fp32(uint16_t h);

#endif
