/* The producer side (TRISC2 / T2) of the request/ready handshake of request_trisc1.c. Per tile:
 *
 *   SEMWAIT(STALL_SYNC, TILE_REQUEST, STALL_ON_ZERO)  wait for a request
 *   SEMGET(TILE_REQUEST)                              take it
 *   SETDMAREG                                         "produce" (a Scalar Unit write: the tile
 *                                                     count so far, in GPR 8)
 *   SEMPOST(TILE_READY)                               the tile is ready
 *
 * It makes a tile only when asked, so it never runs ahead of the consumer. */
#include "request.h"

int main(void) {
    for (uint32_t i = 0; i < NUM_TILES; i++) {
        TTI(TT_OP_SEMWAIT(STALL_SYNC, T6_SEM(SEM_TILE_REQUEST), STALL_ON_ZERO));
        TTI(TT_OP_SEMGET(T6_SEM(SEM_TILE_REQUEST)));
        tt_push(TT_OP_SETDMAREG(0, i + 1, 0, LO_16(8)));
        TTI(TT_OP_SEMPOST(T6_SEM(SEM_TILE_READY)));
    }
    tensix_sync();
    RESULT(R_PRODUCED) = GPR(8);
    return 0;
}
