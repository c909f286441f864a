/* Unpack -> math -> pack, math side (TRISC1 / T1). Its words are pushed with `sw` to INSTRN_BUF
 * (tt-llk's TT_ form, for words built at run time: here the SFPMAD's destination register
 * alternates with the Dst half), where the other two threads use `.ttinsn`.
 *
 * Per tile (cmath_common.h):
 *   math_unpack_to_dest_tile_ready: SEMWAIT(STALL_SYNC, UNPACK_TO_DEST, STALL_ON_ZERO), then
 *       t6_semaphore_get<MATH | WAIT_SFPU>(UNPACK_TO_DEST): the tile is in Dst, give the slot back;
 *   math_wait_for_dest_available: SEMWAIT(STALL_MATH | STALL_SFPU, MATH_PACK, STALL_ON_MAX) — both
 *       Dst halves wait for the packer;
 *   the math (MOVD2A, SFPMAD);
 *   math_dest_section_done / set_math_semaphores: t6_semaphore_post<MATH | WAIT_SFPU>(MATH_PACK).
 * T1 initialises MATH_PACK {Value 0, Max MATH_PACK_MAX} (_llk_math_pack_sync_init_). It counts
 * its tiles on UNPACK_OPERAND_SYNC (otherwise unused here), posted once per tile. */
#include "pipeline.h"

static void math_unpack_to_dest_tile_ready(void) {
    tt_push(TT_OP_SEMWAIT(STALL_SYNC, T6_SEM(SEM_UNPACK_TO_DEST), STALL_ON_ZERO));
    tt_push(TT_OP_STALLWAIT(STALL_SYNC, P_MATH | P_WAIT_SFPU));
    tt_push(TT_OP_SEMGET(T6_SEM(SEM_UNPACK_TO_DEST)));
}

static void math_wait_for_dest_available(void) {
    tt_push(TT_OP_SEMWAIT(STALL_MATH | STALL_SFPU, T6_SEM(SEM_MATH_PACK), STALL_ON_MAX));
}

static void math_dest_section_done(void) {
    tt_push(TT_OP_STALLWAIT(STALL_SYNC, P_MATH | P_WAIT_SFPU));
    tt_push(TT_OP_SEMPOST(T6_SEM(SEM_MATH_PACK)));
}

int main(void) {
    tt_push(TT_OP_SEMINIT(MATH_PACK_MAX, 0, T6_SEM(SEM_MATH_PACK)));
    for (uint32_t i = 0; i < NUM_TILES; i++) {
        math_unpack_to_dest_tile_ready();
        math_wait_for_dest_available();
        tt_push(TT_OP_MOVD2A(0, 0, 0, 2, 0));
        tt_push(TT_OP_SFPMAD(0, 1, 2, i & 1, 0)); /* the half this tile is in */
        math_dest_section_done();
        tt_push(TT_OP_SEMPOST(T6_SEM(SEM_UNPACK_OPERAND_SYNC)));
    }
    tensix_sync();
    RESULT(R_MATH_TILES) = semaphore_read(SEM_UNPACK_OPERAND_SYNC);
    RESULT(R_DONE_T1) = 1;
    return 0;
}
