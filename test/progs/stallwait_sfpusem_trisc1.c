/* STALLWAIT pattern 8: SFPU then SEMPOST. tt-llk tells the packer a Dst section is ready only
 * once the SFPU has finished writing it (cmath_common.h set_math_semaphores:
 * t6_semaphore_post<p_stall::MATH | p_stall::WAIT_SFPU>(semaphore::MATH_PACK), i.e.
 * TTI_STALLWAIT(p_stall::STALL_SYNC, ...) then TTI_SEMPOST). The wait blocks B1 (Sync) while C11
 * is busy.
 *
 * The observer (TRISC0) samples semaphore 1 against the SFPU class. Results (L1 0x9000): [0] the
 * semaphore as this TRISC reads it at the end. */
#include "stallwait_observer.h"

int main(void) {
    observe_start(PCBUF_BASE + 0x20u + 4u * SEM_MATH_PACK, 0xF, BST_SFPU);
    for (int i = 0; i < 4; i++) {
        TTI(TT_OP_SFPMAD(0, 1, 2, 3, 0));
        TTI(TT_OP_SFPMAD(1, 2, 3, 4, 0));
    }
    TTI(TT_OP_SFPLOADMACRO(0, 0, 0, 0)); /* the longest SFPU instruction: C11 busy 4 cycles */
    TTI(TT_OP_STALLWAIT(STALL_SYNC, P_MATH | P_WAIT_SFPU));
    TTI(TT_OP_SEMPOST(T6_SEM(SEM_MATH_PACK)));
    observe_stop();
    L1_WORD(0x9000) = SEMAPHORE(SEM_MATH_PACK);
    return 0;
}
