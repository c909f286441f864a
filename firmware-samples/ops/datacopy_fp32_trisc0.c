/* datacopy_fp32, unpack (TRISC0): out = in0 as float32, bf16 in0 [64, 64] (four tiles) -> float32
 * out. Each tile's faces into SrcA as bf16, SrcB zeroed beside them (tt-llk llk_unpack_A). */
#include "ops.h"

#define TILES 4

int main(void) {
    llk_state_t s = {0};
    llk_unpack_hw_configure(&s, LLK_BF16, LLK_BF16, LLK_BF16, LLK_BF16);
    llk_unpack_A_init(false);
    for (unsigned t = 0; t < TILES; t++)
        llk_unpack_A(&s, ops_tile(OPS_IN0, t, LLK_BF16));
    tensix_sync();
    return 0;
}
