/* eltwise_mul, pack (TRISC2): each Dst half (one tile, BF16) to its tile of out, bf16 (tt-llk
 * llk_pack), then the half is cleared and given back to math. */
#include "ops.h"

#define TILES 4

int main(void) {
    llk_state_t s = {0};
    llk_pack_hw_configure(&s, LLK_BF16, LLK_BF16, false);
    llk_pack_init();
    llk_pack_dest_init(&s);
    for (unsigned t = 0; t < TILES; t++) {
        llk_packer_wait_for_math_done();
        llk_pack(&s, 0, ops_tile(OPS_OUT, t, LLK_BF16));
        llk_pack_dest_section_done(&s);
    }
    tensix_sync();
    return 0;
}
