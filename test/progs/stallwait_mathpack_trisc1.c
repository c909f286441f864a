/* STALLWAIT pattern 4: the MATH_PACK handshake, math side (cmath_common.h). Semaphore 1
 * (MATH_PACK) counts Dst sections ready for the packer, Max 2 (two halves of Dst, SyncHalf:
 * _llk_math_pack_sync_init_ → SEMINIT(max 2, value 0)). Per section: wait_math_semaphores
 * (SEMWAIT(STALL_MATH | STALL_SFPU, MATH_PACK, STALL_ON_MAX): no free half → no math), the math,
 * then set_math_semaphores (STALLWAIT(STALL_SYNC, MATH | WAIT_SFPU) + SEMPOST). The math thread
 * starts late so that the packer first waits on zero; then it outruns the packer and waits on
 * Max. L1 0x9004 = 1 when done. */
#include "ttemu_fw.h"

#define SECTIONS 6

int main(void) {
    TTI(TT_OP_SEMINIT(2, 0, T6_SEM(SEM_MATH_PACK)));
    spin_cycles(150);
    for (int i = 0; i < SECTIONS; i++) {
        TTI(TT_OP_SEMWAIT(STALL_MATH | STALL_SFPU, T6_SEM(SEM_MATH_PACK), STALL_ON_MAX));
        TTI(TT_OP_MOVD2A(0, 0, 0, 2, 0));
        TTI(TT_OP_SFPMAD(0, 1, 2, 3, 0));
        TTI(TT_OP_STALLWAIT(STALL_SYNC, P_MATH | P_WAIT_SFPU));
        TTI(TT_OP_SEMPOST(T6_SEM(SEM_MATH_PACK)));
    }
    tensix_sync();
    L1_WORD(0x9004) = 1;
    return 0;
}
