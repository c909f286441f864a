/* reduce_sum_row, math (TRISC1): per row of tiles, both tiles reduced into one Dst tile: GAPOOL
 * (the scaler row times each transposed face: the rows' sums) in four fidelity phases (HiFi4, so
 * every mantissa bit of the input counts), BF16 Dst, then the sums moved into column 0 (tt-llk
 * llk_math_reduce<SUM, REDUCE_ROW>). */
#include "ops.h"

#define TILE_ROWS 2
#define TILE_COLS 2
#define PHASES    4

int main(void) {
    llk_state_t s = {0};
    llk_math_hw_configure(&s, false, false);
    llk_math_pack_sync_init(&s);
    llk_math_reduce_init(PHASES);
    for (unsigned i = 0; i < TILE_ROWS; i++) {
        llk_math_wait_for_dest_available();
        for (unsigned j = 0; j < TILE_COLS; j++)
            llk_math_reduce(&s, LLK_POOL_SUM, LLK_REDUCE_ROW, PHASES, 0);
        llk_math_dest_section_done(&s);
    }
    tensix_sync();
    return 0;
}
