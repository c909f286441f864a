/* Unpack -> math -> pack over NUM_TILES tiles, unpack side (TRISC0 / T0), all `.ttinsn`.
 *
 * Each tile is unpacked straight into Dst (tt-llk's unpack-to-dest flow, cunpack_common.h):
 *   wait_for_dest_available:  SEMWAIT(STALL_UNPACK, UNPACK_TO_DEST, STALL_ON_MAX) — math has not
 *                             taken the previous tile yet, so Dst is not ours;
 *   UNPACR into Dst;
 *   unpack_to_dest_tile_done: t6_semaphore_post<UNPACK0>(UNPACK_TO_DEST) — STALLWAIT until
 *                             unpacker 0 is done, then SEMPOST, so math sees only a finished tile.
 * T0 initialises UNPACK_TO_DEST {Value 0, Max 1} before its first wait. */
#include "pipeline.h"

int main(void) {
    tt_dp_configure_bf16();
    CFG_SET(THCON_SEC0_REG2_Unpack_If_Sel, 1); /* unpacker 0 writes Dst */
    TTI(TT_OP_SEMINIT(UNPACK_TO_DEST_MAX, 0, T6_SEM(SEM_UNPACK_TO_DEST)));
    for (int i = 0; i < NUM_TILES; i++) {
        TTI(TT_OP_SEMWAIT(STALL_UNPACK, T6_SEM(SEM_UNPACK_TO_DEST), STALL_ON_MAX));
        TTI(TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        T6_SEMAPHORE_POST(P_UNPACK0, SEM_UNPACK_TO_DEST);
        TTI(TT_OP_SEMPOST(T6_SEM(SEM_UNPACK_SYNC))); /* count the tile */
    }
    tensix_sync();
    RESULT(R_UNPACKED) = semaphore_read(SEM_UNPACK_SYNC);
    RESULT(R_DONE_T0) = 1;
    return 0;
}
