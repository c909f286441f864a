/* matmul, unpack (TRISC0): out = in0 @ in1, bf16 in0 [64, 128] (2 x 4 tiles) and in1 [128, 64]
 * (4 x 2 tiles), out [64, 64] (2 x 2 tiles). For each output tile (i, j), the K = 4 pairs of
 * in0's tile (i, k) and in1's tile (k, j), a whole tile per UNPACR (tt-llk llk_unpack_AB_matmul). */
#include "ops.h"

#define MT 2 /* output tile rows */
#define NT 2 /* output tile columns */
#define KT 4 /* tiles along K */

int main(void) {
    llk_state_t s = {0};
    llk_unpack_hw_configure(&s, LLK_BF16, LLK_BF16, LLK_BF16, LLK_BF16);
    llk_unpack_AB_matmul_init(LLK_BF16);
    for (unsigned i = 0; i < MT; i++)
        for (unsigned j = 0; j < NT; j++)
            for (unsigned k = 0; k < KT; k++)
                llk_unpack_AB_matmul(&s, ops_tile(OPS_IN0, i * KT + k, LLK_BF16),
                                     ops_tile(OPS_IN1, k * NT + j, LLK_BF16));
    tensix_sync();
    return 0;
}
