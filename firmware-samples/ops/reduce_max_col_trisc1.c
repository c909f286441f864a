/* reduce_max_col, math (TRISC1): per column of tiles, both tiles into one Dst tile: GMPOOL (the
 * column max of a face and of Dst's row; rows ZEROACC cleared read as minus infinity), faces 0 and 2
 * into Dst face 0's row 0, 1 and 3 into face 1's (tt-llk llk_math_reduce<MAX, REDUCE_COL>). */
#include "ops.h"

#define TILE_ROWS 2
#define TILE_COLS 2

int main(void) {
    llk_state_t s = {0};
    llk_math_hw_configure(&s, false, false);
    llk_math_pack_sync_init(&s);
    llk_math_reduce_init(1);
    for (unsigned j = 0; j < TILE_COLS; j++) {
        llk_math_wait_for_dest_available();
        for (unsigned i = 0; i < TILE_ROWS; i++)
            llk_math_reduce(&s, LLK_POOL_MAX, LLK_REDUCE_COL, 1, 0);
        llk_math_dest_section_done(&s);
    }
    tensix_sync();
    return 0;
}
