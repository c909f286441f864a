/* typecast_int32, unpack (TRISC0): out = in0 as int32, uint8 in0 [64, 64] (four tiles) -> int32
 * out. Each tile's faces into SrcA as Integer "8" with SrcAUnsigned (tt-llk's UInt8: the INT8 code
 * and the unsigned flag), SrcB zeroed beside them (llk_unpack_A). */
#include "ops.h"

#define TILES 4

int main(void) {
    llk_state_t s = {0};
    llk_unpack_hw_configure(&s, LLK_UINT8, LLK_UINT8, LLK_UINT8, LLK_UINT8);
    llk_unpack_A_init(false);
    for (unsigned t = 0; t < TILES; t++)
        llk_unpack_A(&s, ops_tile(OPS_IN0, t, LLK_UINT8));
    tensix_sync();
    return 0;
}
