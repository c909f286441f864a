/* typecast_int32, pack (TRISC2): each tile from the 32-bit Dst to L1 as INT32 (Read_32b_data;
 * FormatConversion.md: INT32 to INT32 is the identity). */
#include "ops.h"

#define TILES 4

int main(void) {
    llk_state_t s = {0};
    llk_pack_hw_configure(&s, LLK_INT32, LLK_INT32, true);
    llk_pack_init();
    llk_pack_dest_init(&s);
    for (unsigned t = 0; t < TILES; t++) {
        llk_packer_wait_for_math_done();
        llk_pack(&s, 0, ops_tile(OPS_OUT, t, LLK_INT32));
        llk_pack_dest_section_done(&s);
    }
    tensix_sync();
    return 0;
}
