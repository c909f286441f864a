/* pack_bfp8, math (TRISC1): SrcA (TF32) into an FP32 Dst, tt-llk's datacopy for a 32-bit Dst
 * (ELWADD of SrcA and the zeroed SrcB, llk_math_eltwise_unary_datacopy A2D). */
#include "ops.h"

#define TILES 4

int main(void) {
    llk_state_t s = {0};
    llk_math_hw_configure(&s, true, false);
    llk_math_pack_sync_init(&s);
    llk_math_datacopy_init(&s);
    for (unsigned t = 0; t < TILES; t++) {
        llk_math_wait_for_dest_available();
        llk_math_datacopy(&s, 0);
        llk_math_dest_section_done(&s);
    }
    tensix_sync();
    return 0;
}
