/* STALLWAIT pattern 3: UNPACK_TO_DEST, math side (cmath_common.h math_unpack_to_dest_tile_ready:
 * t6_semaphore_wait_on_zero<p_stall::STALL_SYNC>(UNPACK_TO_DEST) then t6_semaphore_get<
 * p_stall::MATH | p_stall::WAIT_SFPU>(UNPACK_TO_DEST)). Each tile it then runs SFPU work and
 * counts the tile on semaphore 4. It stops the observer (TRISC2) once both threads are done.
 * Results: L1 0x9000 = semaphore 4 (tiles the math thread took). */
#include "stallwait_observer.h"

#define TILES 3

int main(void) {
    for (int i = 0; i < TILES; i++) {
        TTI(TT_OP_SEMWAIT(STALL_SYNC, T6_SEM(SEM_UNPACK_TO_DEST), STALL_ON_ZERO));
        TTI(TT_OP_STALLWAIT(STALL_SYNC, P_MATH | P_WAIT_SFPU));
        TTI(TT_OP_SEMGET(T6_SEM(SEM_UNPACK_TO_DEST)));
        TTI(TT_OP_SFPMAD(0, 1, 2, 3, 0));
        TTI(TT_OP_SEMPOST(T6_SEM(4)));
    }
    tensix_sync();
    while (L1_WORD(0x9004) != 1) {
    }
    observe_stop();
    L1_WORD(0x9000) = SEMAPHORE(4);
    return 0;
}
