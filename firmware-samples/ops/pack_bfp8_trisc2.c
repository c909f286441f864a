/* pack_bfp8, pack (TRISC2): each tile from the FP32 Dst to L1 as bfloat8_b (tt-llk
 * set_packer_config for Bfp8_b out with a 32-bit Dst: In_data_format Float32, an exponent
 * section of 4 x 16 bytes before the datums). Each Dst row of 16 becomes a block: its exponents
 * go to the exponent stream, its datums to the data stream (FormatConversion.md "To BFP8"). */
#include "ops.h"

#define TILES 4

int main(void) {
    llk_state_t s = {0};
    llk_pack_hw_configure(&s, LLK_FP32, LLK_BFP8, true);
    llk_pack_init();
    llk_pack_dest_init(&s);
    for (unsigned t = 0; t < TILES; t++) {
        llk_packer_wait_for_math_done();
        llk_pack(&s, 0, ops_tile(OPS_OUT, t, LLK_BFP8));
        llk_pack_dest_section_done(&s);
    }
    tensix_sync();
    return 0;
}
