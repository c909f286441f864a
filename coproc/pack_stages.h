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

/* pst_class_t and pack_stages_t live in coproc/dp_internal.h (the packer keeps a decoded copy). */

/* From the Config of this PACR and its intermediate format; false (after dp_fail) when the
 * combination is undefined (a negative threshold, BFP2a thresholding) or not modelled. */
bool pack_stages_init(dp_ctx_t *x, unsigned intermediate, pack_stages_t *s);
/* One datum (intermediate bits) through ReLU, then exponent thresholding. */
uint32_t pack_stages_apply(const pack_stages_t *s, uint32_t v);

#endif
