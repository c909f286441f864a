/* Unpack -> math -> pack, pack side (TRISC2 / T2), `.ttinsn`. Per tile (llk_pack_common.h):
 *   _llk_packer_wait_for_math_done_: SEMWAIT(STALL_TDMA, MATH_PACK, STALL_ON_ZERO);
 *   a PACR per face (four: the packer is the slow stage here, so math fills both Dst halves and
 *   then waits on MATH_PACK's Max — the double buffering at work);
 *   _llk_pack_dest_section_done_: STALLWAIT(STALL_MATH, PACK) so the Dst clear waits for the
 *       packer, ZEROACC of the half just packed, then SEMGET(MATH_PACK): the half goes back to math.
 * It counts the tiles packed on PACK_DONE. */
#include "pipeline.h"

int main(void) {
    tt_dp_configure_bf16();
    for (int i = 0; i < NUM_TILES; i++) {
        TTI(TT_OP_SEMWAIT(STALL_TDMA, T6_SEM(SEM_MATH_PACK), STALL_ON_ZERO));
        for (int face = 0; face < 4; face++)
            TTI(TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, face == 3));
        TTI(TT_OP_STALLWAIT(STALL_MATH, P_PACK));
        TTI(TT_OP_ZEROACC(1, 0, 0, 1, 0));
        TTI(TT_OP_SEMGET(T6_SEM(SEM_MATH_PACK)));
        TTI(TT_OP_SEMPOST(T6_SEM(SEM_PACK_DONE)));
    }
    tensix_sync();
    RESULT(R_PACKED) = semaphore_read(SEM_PACK_DONE);
    RESULT(R_DONE_T2) = 1;
    return 0;
}
