/* Broken on purpose (docs/debugging-stalls.md): the math side of a math→pack handshake on
 * semaphore 1 (SEM_MATH_PACK) forgets its SEMPOST. T1 initialises the semaphore {Value 0, Max 1}
 * and "produces" a tile, but never posts; T2 (missing_sempost_trisc2.c) waits for Value > 0 with
 * SEMWAIT before its pack and never gets past it. Expected: exit 1, T2 held on semaphore 1. */
#include "ttemu_fw.h"

int main(void) {
    TTI(TT_OP_SEMINIT(1, 0, T6_SEM(SEM_MATH_PACK)));
    TTI(TT_OP_SEMWAIT(STALL_MATH, T6_SEM(SEM_MATH_PACK), STALL_ON_MAX)); /* room for one tile */
    TTI(TT_OP_NOP);                                                      /* "math" */
    /* TTI(TT_OP_SEMPOST(T6_SEM(SEM_MATH_PACK)));   <- the missing post */
    tensix_sync();
    return 0;
}
