/* reduce_sum_row, pack (TRISC2): each row of tiles' Dst tile to bf16, through the reduction's edge
 * masks (column 0 only; tt-llk llk_pack_reduce_mask_config<REDUCE_ROW>). */
#include "ops.h"

#define TILES 2

int main(void) {
    llk_state_t s = {0};
    llk_pack_hw_configure(&s, LLK_BF16, LLK_BF16, false);
    llk_pack_init();
    llk_pack_reduce_mask_config(LLK_REDUCE_ROW);
    llk_pack_dest_init(&s);
    for (unsigned t = 0; t < TILES; t++) {
        llk_packer_wait_for_math_done();
        llk_pack(&s, 0, ops_tile(OPS_OUT, t, LLK_BF16));
        llk_pack_dest_section_done(&s);
    }
    tensix_sync();
    return 0;
}
