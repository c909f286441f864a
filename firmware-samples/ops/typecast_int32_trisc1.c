/* typecast_int32, math (TRISC1): integer math (ALU_ACC_CTRL_INT8_math_enabled, tt-llk's
 * int8_math_enabled for an Int8-family Src) into the 32-bit Dst: the datacopy is ELWADD of SrcA
 * and the zeroed SrcB (llk_math_eltwise_unary_datacopy A2D, which uses ELWADD for UInt8), each
 * sum an Integer "32". */
#include "ops.h"

#define TILES 4

int main(void) {
    llk_state_t s = {0};
    llk_math_hw_configure(&s, true, true);
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
