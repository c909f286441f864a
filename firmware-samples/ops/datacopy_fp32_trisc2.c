/* datacopy_fp32, pack (TRISC2): each tile from the FP32 Dst to L1 as float32 (the packer reads
 * 32-bit Dst, Read_32b_data, and writes FP32 unchanged). */
#include "ops.h"

#define TILES 4

int main(void) {
    llk_state_t s = {0};
    llk_pack_hw_configure(&s, LLK_FP32, LLK_FP32, true);
    llk_pack_init();
    llk_pack_dest_init(&s);
    for (unsigned t = 0; t < TILES; t++) {
        llk_packer_wait_for_math_done();
        llk_pack(&s, 0, ops_tile(OPS_OUT, t, LLK_FP32));
        llk_pack_dest_section_done(&s);
    }
    tensix_sync();
    return 0;
}
