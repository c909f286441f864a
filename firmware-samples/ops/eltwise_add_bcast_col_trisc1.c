/* eltwise_add_bcast_col, math (TRISC1): ELWADD with SrcB's column 0 broadcast across each row
 * (instr_mod19 = 1), BF16 Dst; one SrcB face serves a row of two SrcA faces (tt-llk
 * llk_math_eltwise_binary, ELWADD, BroadcastType::COL, LoFi). */
#include "ops.h"

#define TILES 4

int main(void) {
    llk_state_t s = {0};
    llk_math_hw_configure(&s, false, false);
    llk_math_pack_sync_init(&s);
    llk_math_eltwise_binary_init(LLK_ELWADD, LLK_BCAST_COL, 1);
    for (unsigned t = 0; t < TILES; t++) {
        llk_math_wait_for_dest_available();
        llk_math_eltwise_binary(&s, LLK_ELWADD, LLK_BCAST_COL, 1, 0);
        llk_math_dest_section_done(&s);
    }
    tensix_sync();
    return 0;
}
