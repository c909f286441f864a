/* eltwise_sub, unpack (TRISC0): out = in0 - in1, bf16 [64, 64] (four tiles). Each tile of in0 and
 * in1 is unpacked face by face into SrcA and SrcB (tt-llk llk_unpack_AB, no broadcast). */
#include "ops.h"

#define TILES 4

int main(void) {
    llk_state_t s = {0};
    llk_unpack_hw_configure(&s, LLK_BF16, LLK_BF16, LLK_BF16, LLK_BF16);
    llk_unpack_AB_init(LLK_BCAST_NONE);
    for (unsigned t = 0; t < TILES; t++)
        llk_unpack_AB(&s, ops_tile(OPS_IN0, t, LLK_BF16), ops_tile(OPS_IN1, t, LLK_BF16));
    tensix_sync();
    return 0;
}
