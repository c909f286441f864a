/* eltwise_mul, math (TRISC1): ELWMUL SrcA * SrcB into a 16-bit (BF16) Dst with HiFi4: each face is
 * four ELWMUL passes, one per fidelity phase (SrcA's top and low mantissa bits times SrcB's top and
 * low bits), accumulated in Dst (tt-llk llk_math_eltwise_binary, ELWMUL, MathFidelity::HiFi4). The
 * packer's ZEROACC of the previous tile leaves the half reading as zero. */
#include "ops.h"

#define TILES  4
#define PHASES 4 /* HiFi4 */

int main(void) {
    llk_state_t s = {0};
    llk_math_hw_configure(&s, false, false);
    llk_math_pack_sync_init(&s);
    llk_math_eltwise_binary_init(LLK_ELWMUL, LLK_BCAST_NONE, PHASES);
    for (unsigned t = 0; t < TILES; t++) {
        llk_math_wait_for_dest_available();
        llk_math_eltwise_binary(&s, LLK_ELWMUL, LLK_BCAST_NONE, PHASES, 0);
        llk_math_dest_section_done(&s);
    }
    tensix_sync();
    return 0;
}
