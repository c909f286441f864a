/* matmul, math (TRISC1): for each output tile, K = 4 MVMUL sequences accumulate into one Dst tile,
 * FP32 Dst (is_fp32_dest_acc_en), HiFi4: every product is made of four fidelity phases (tt-llk
 * llk_math_matmul, MathFidelity::HiFi4). */
#include "ops.h"

#define TILES  4 /* output tiles */
#define KT     4
#define PHASES 4

int main(void) {
    llk_state_t s = {0};
    llk_math_hw_configure(&s, true, false);
    llk_math_pack_sync_init(&s);
    llk_math_matmul_init(PHASES);
    for (unsigned t = 0; t < TILES; t++) {
        llk_math_wait_for_dest_available();
        for (unsigned k = 0; k < KT; k++)
            llk_math_matmul(&s, 0);
        llk_math_dest_section_done(&s);
    }
    tensix_sync();
    return 0;
}
