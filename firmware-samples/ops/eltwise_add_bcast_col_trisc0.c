/* eltwise_add_bcast_col, unpack (TRISC0): out[r][c] = in0[r][c] + in1[r][0], in0 and out bf16
 * [64, 64] (2 x 2 tiles), in1 bf16 [64, 32] (one tile per row of tiles; only its first column is
 * used). tt-llk llk_unpack_AB with BroadcastType::COL: per row of faces, one face of in1's tile
 * (face 0, then face 2: the column's rows 0..15 and 16..31) into SrcB, the two faces of in0 beside
 * each other into SrcA. */
#include "ops.h"

#define TILE_ROWS 2
#define TILE_COLS 2

int main(void) {
    llk_state_t s = {0};
    llk_unpack_hw_configure(&s, LLK_BF16, LLK_BF16, LLK_BF16, LLK_BF16);
    llk_unpack_AB_init(LLK_BCAST_COL);
    for (unsigned i = 0; i < TILE_ROWS; i++)
        for (unsigned j = 0; j < TILE_COLS; j++)
            llk_unpack_AB(&s, ops_tile(OPS_IN0, i * TILE_COLS + j, LLK_BF16), ops_tile(OPS_IN1, i, LLK_BF16));
    tensix_sync();
    return 0;
}
