/* eltwise_sub, math (TRISC1): ELWSUB SrcA - SrcB into a 16-bit (BF16) Dst, 8 rows an instruction
 * (tt-llk llk_math_eltwise_binary, ELWSUB, no broadcast, LoFi), one tile per Dst half. */
#include "ops.h"

#define TILES 4

int main(void) {
    llk_state_t s = {0};
    llk_math_hw_configure(&s, false, false);
    llk_math_pack_sync_init(&s);
    llk_math_eltwise_binary_init(LLK_ELWSUB, LLK_BCAST_NONE, 1);
    for (unsigned t = 0; t < TILES; t++) {
        llk_math_wait_for_dest_available();
        llk_math_eltwise_binary(&s, LLK_ELWSUB, LLK_BCAST_NONE, 1, 0);
        llk_math_dest_section_done(&s);
    }
    tensix_sync();
    return 0;
}
