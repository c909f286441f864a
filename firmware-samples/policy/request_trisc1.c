/* A deadlock only the whole-thread gate policy produces (docs/gate-policies.md): the consumer side
 * (TRISC1 / T1) of a request/ready handshake. Per tile:
 *
 *   SEMWAIT(STALL_MATH, TILE_READY, STALL_ON_ZERO)   fence the math until a tile is ready
 *   SEMPOST(TILE_REQUEST)                            ask the producer for it (a Sync Unit
 *                                                    instruction: block bit B1, not B6)
 *   SETRWC                                           the math (Matrix Unit, B6): fenced
 *   STALLWAIT(STALL_SYNC, P_MATH)                    consume only after the math ...
 *   SEMGET(TILE_READY)                               ... took the tile
 *
 * The request is pushed after the fence, in program order. Under the exact policy the SEMWAIT's
 * block mask (B6) lets the SEMPOST pass, the producer answers and the math runs. Under whole-thread
 * the latched SEMWAIT holds the SEMPOST too: T1 waits for a tile T2 will only make once asked, and
 * T2 waits for a request that sits behind T1's wait — a cycle, T1 -> T2 -> T1. */
#include "request.h"

int main(void) {
    for (int i = 0; i < NUM_TILES; i++) {
        TTI(TT_OP_SEMWAIT(STALL_MATH, T6_SEM(SEM_TILE_READY), STALL_ON_ZERO));
        TTI(TT_OP_SEMPOST(T6_SEM(SEM_TILE_REQUEST)));
        TTI(TT_OP_SETRWC(0, 0, 0, 0, 0, 0));
        TTI(TT_OP_STALLWAIT(STALL_SYNC, P_MATH));
        TTI(TT_OP_SEMGET(T6_SEM(SEM_TILE_READY)));
    }
    tensix_sync();
    RESULT(R_CONSUMED) = NUM_TILES;
    return 0;
}
