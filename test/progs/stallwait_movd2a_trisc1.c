/* STALLWAIT pattern 2: before MOVD2A / MOVD2B (math thread). tt-llk moves a face from Dst into
 * SrcA/SrcB only once the unpacker has handed the bank over with a dummy data-valid
 * (cmath_common.h move_d2a_fixed_face / move_d2b_fixed_face: TTI_STALLWAIT(p_stall::STALL_MATH,
 * p_stall::SRCA_VLD) before the MOVD2As, ... SRCB_VLD before the MOVD2Bs). C7/C8 stay busy until
 * the unpack thread (stallwait_movd2a_trisc0.c) issues UNPACR_NOP with SET_DVALID; semaphore 3
 * is posted behind the moves, so it shows when they passed. */
#include "ttemu_fw.h"

int main(void) {
    TTI(TT_OP_STALLWAIT(STALL_MATH, P_SRCA_VLD));
    TTI(TT_OP_MOVD2A(0, 0, 0, 2, 0));
    TTI(TT_OP_MOVD2A(0, 4, 0, 2, 4));
    TTI(TT_OP_MOVD2A(0, 8, 0, 2, 8));
    TTI(TT_OP_MOVD2A(0, 12, 0, 2, 12));
    TTI(TT_OP_STALLWAIT(STALL_MATH, P_SRCB_VLD));
    TTI(TT_OP_MOVD2B(0, 0, 0, 2, 0));
    TTI(TT_OP_MOVD2B(0, 4, 0, 2, 4));
    TTI(TT_OP_MOVD2B(0, 8, 0, 2, 8));
    TTI(TT_OP_MOVD2B(0, 12, 0, 2, 12));
    TTI(TT_OP_SEMPOST(T6_SEM(3)));
    tensix_sync();
    return 0;
}
