/* ops.h — what the sample kernels of firmware-samples/ops/ share (docs/ops.md): where their
 * tensors live in L1. Each NAME.json declares the same addresses as tensors in0, in1 and out
 * (layout "tiles": 32x32 tiles one after another, row-major order of tiles). The programs sit at
 * 0x30000 (TRISC0), 0x40000 (TRISC1) and 0x50000 (TRISC2), below these. */
#ifndef OPS_H
#define OPS_H

#include "ttemu_llk.h"

#define OPS_IN0 0x80000u /* up to 128 KiB each */
#define OPS_IN1 0xA0000u
#define OPS_OUT 0xC0000u
/* A tile the kernels build themselves (a reduction's scaler), not a tensor. */
#define OPS_SCRATCH 0xE0000u

/* L1 address of tile t of a tensor at base in format fmt. */
static inline uint32_t ops_tile(uint32_t base, unsigned t, unsigned fmt) { return base + t * llk_tile_bytes(fmt); }

#endif
