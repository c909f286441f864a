/* pack_bfp8, unpack (TRISC0): out = in0 as bfloat8_b, float32 in0 [64, 64] (four tiles) ->
 * bfloat8_b out. Each tile's faces into SrcA, FP32 in L1 read as TF32 (tt-llk's unpack formats
 * for a Float32 input with a 32-bit Dst: the unpacker's out format Tf32), SrcB zeroed beside them
 * (llk_unpack_A). */
#include "ops.h"

#define TILES 4

int main(void) {
    llk_state_t s = {0};
    llk_unpack_hw_configure(&s, LLK_FP32, LLK_TF32, LLK_FP32, LLK_TF32);
    llk_unpack_A_init(false);
    for (unsigned t = 0; t < TILES; t++)
        llk_unpack_A(&s, ops_tile(OPS_IN0, t, LLK_FP32));
    tensix_sync();
    return 0;
}
