/* eltwise_add_bfp8, unpack (TRISC0): out = in0 + in1, in0 and in1 bfloat8_b [64, 64] (four tiles), out bf16.
 * Each tile of in0 and in1 is unpacked face by face into SrcA and SrcB (tt-llk llk_unpack_AB, no
 * broadcast) with Bfp8_b in and out (UNPACR_Regular.md: one conversion, out = in; the tile descriptor
 * of 4 faces of 256 datums has a 64-byte exponent section before the datums), so the Src banks hold
 * BF16 values and carry the implied format BFP8. */
#include "ops.h"

#define TILES 4

int main(void) {
    llk_state_t s = {0};
    llk_unpack_hw_configure(&s, LLK_BFP8, LLK_BFP8, LLK_BFP8, LLK_BFP8);
    llk_unpack_AB_init(LLK_BCAST_NONE);
    for (unsigned t = 0; t < TILES; t++)
        llk_unpack_AB(&s, ops_tile(OPS_IN0, t, LLK_BFP8), ops_tile(OPS_IN1, t, LLK_BFP8));
    tensix_sync();
    return 0;
}
