/* reduce_sum_row, unpack (TRISC0): out[r][0] = sum over c of in0[r][c], bf16 in0 [64, 64] (2 x 2
 * tiles) -> out [64, 32] (one tile per row of tiles, column 0 holding the sums, the rest 0), as
 * tt-metal's reduce_tile<SUM, REDUCE_ROW>. TRISC0 first writes the scaler tile (1.0 in the first
 * row of each face, tt-metal's generate_reduce_scaler), then unpacks each tile's faces transposed
 * into SrcA with a scaler row into SrcB (tt-llk llk_unpack_AB_reduce). */
#include "ops.h"

#define TILE_ROWS 2
#define TILE_COLS 2

int main(void) {
    llk_state_t s = {0};
    llk_reduce_scaler_fill(OPS_SCRATCH, 0x3F80);
    llk_unpack_hw_configure(&s, LLK_BF16, LLK_BF16, LLK_BF16, LLK_BF16);
    llk_unpack_AB_reduce_init(LLK_REDUCE_ROW);
    for (unsigned i = 0; i < TILE_ROWS; i++)
        for (unsigned j = 0; j < TILE_COLS; j++)
            llk_unpack_AB_reduce(&s, ops_tile(OPS_IN0, i * TILE_COLS + j, LLK_BF16), OPS_SCRATCH);
    tensix_sync();
    return 0;
}
