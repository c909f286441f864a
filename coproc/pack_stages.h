/* coproc/pack_stages.h — the packer's stages between its two format conversions (the pipeline
 * of Packers/README.md: early conversion, edge masking, ReLU, exponent thresholding, ..., late
 * conversion): ReLU (Packers/ReLU.md) and exponent thresholding (Packers/ExponentThresholding.md),
 * on datums in the intermediate format as coproc/formats.c's fmt_pack_early returns them.
 * Configured once per PACR (pack_stages_init), then applied per datum. Used by coproc/pack.c. */
#ifndef TTEMU_COPROC_PACK_STAGES_H
#define TTEMU_COPROC_PACK_STAGES_H

#include <stdbool.h>
#include <stdint.h>

#include "coproc/dp_internal.h"

/* How an intermediate's datums are held: FP32 bits (FP32, TF32), a 16-bit pattern with an 8-bit
 * exponent (BF16, BFP8), a 16-bit pattern with a 5-bit exponent and no Inf or NaN (FP16, FP8,
 * BFP8a: FloatBitPatterns.md "FP16"), or an integer with its sign at bit 31 / 15. */
typedef enum { PST_F32, PST_B16, PST_H16, PST_I32, PST_I16 } pst_class_t;

typedef struct {
    bool active;       /* anything to do */
    uint8_t cls;       /* pst_class_t of the intermediate */
    uint8_t relu;      /* STACC_RELU_ApplyRelu & 3 */
    bool exp_thr;      /* Exp_threshold_en */
    uint8_t exp_min;   /* Exp_threshold */
    uint32_t thr_bits; /* the ReLU threshold in the intermediate's bits */
    double thr;        /* and its value */
} pack_stages_t;

/* From the Config of this PACR and its intermediate format; false (after dp_fail) when the
 * combination is undefined (a negative threshold, BFP2a thresholding) or not modelled. */
bool pack_stages_init(dp_ctx_t *x, unsigned intermediate, pack_stages_t *s);
/* One datum (intermediate bits) through ReLU, then exponent thresholding. */
uint32_t pack_stages_apply(const pack_stages_t *s, uint32_t v);

#endif
