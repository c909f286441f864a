/* reduce_max_col, unpack (TRISC0): out[0][c] = max over r of in0[r][c], bf16 in0 [64, 64] (2 x 2
 * tiles) -> out [32, 64] (one tile per column of tiles, row 0 holding the maxima, the rest 0), as
 * tt-metal's reduce_tile<MAX, REDUCE_COL>. The scaler tile (1.0: no scaling) is written first;
 * each tile's faces go to SrcA as they are, with a scaler row in SrcB (llk_unpack_AB_reduce). */
#include "ops.h"

#define TILE_ROWS 2
#define TILE_COLS 2

int main(void) {
    llk_state_t s = {0};
    llk_reduce_scaler_fill(OPS_SCRATCH, 0x3F80);
    llk_unpack_hw_configure(&s, LLK_BF16, LLK_BF16, LLK_BF16, LLK_BF16);
    llk_unpack_AB_reduce_init(LLK_REDUCE_COL);
    for (unsigned j = 0; j < TILE_COLS; j++)
        for (unsigned i = 0; i < TILE_ROWS; i++)
            llk_unpack_AB_reduce(&s, ops_tile(OPS_IN0, i * TILE_COLS + j, LLK_BF16), OPS_SCRATCH);
    tensix_sync();
    return 0;
}
