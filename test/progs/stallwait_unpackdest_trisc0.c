/* STALLWAIT pattern 3: UNPACK_TO_DEST, unpack side. tt-llk's unpack-to-Dst flow (cunpack_common.h
 * wait_for_dest_available / unpack_to_dest_tile_done): SEMWAIT on UNPACK_TO_DEST (semaphore 2)
 * while Value >= Max before unpacking into Dst, and after the unpack t6_semaphore_post<
 * p_stall::UNPACK0>: TTI_STALLWAIT(p_stall::STALL_SYNC, p_stall::UNPACK0) + TTI_SEMPOST, so the
 * math thread is told only once unpacker 0 is done. Semaphore 2 is initialised as in tt-llk's
 * device setup: SEMINIT(max 1, value 0). Three tiles; L1 0x9004 = 1 when its work is done. */
#include "stallwait_observer.h"

#define TILES 3

int main(void) {
    tt_dp_configure_bf16();
    TTI(TT_OP_SEMINIT(1, 0, T6_SEM(SEM_UNPACK_TO_DEST)));
    /* The observer (TRISC2) records the largest value of semaphore 2: never above Max 1. (The
     * unpacker class of tt_cfg_bstatus also covers UNPACRs merely queued, so it cannot tell a
     * running unpack here.) */
    observe_start(PCBUF_BASE + 0x20u + 4u * SEM_UNPACK_TO_DEST, 0xF, 0);
    for (int i = 0; i < TILES; i++) {
        TTI(TT_OP_SEMWAIT(STALL_UNPACK, T6_SEM(SEM_UNPACK_TO_DEST), STALL_ON_MAX));
        TTI(TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        TTI(TT_OP_STALLWAIT(STALL_SYNC, P_UNPACK0));
        TTI(TT_OP_SEMPOST(T6_SEM(SEM_UNPACK_TO_DEST)));
    }
    tensix_sync();
    L1_WORD(0x9004) = 1;
    return 0;
}
