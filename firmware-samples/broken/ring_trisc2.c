/* Broken on purpose: the other half of ring_trisc1.c. Fills semaphore 1 (Max 1), then takes
 * mutex 0 — held by T1 — before the SEMGET that T1 is waiting for. The fix is to SEMGET first
 * (or to take the mutex in both threads before touching the semaphore). */
#include "ttemu_fw.h"

int main(void) {
    TTI(TT_OP_SEMINIT(1, 0, T6_SEM(SEM_MATH_PACK)));
    TTI(TT_OP_SEMPOST(T6_SEM(SEM_MATH_PACK)));
    TTI(TT_OP_ATGETM(0));
    TTI(TT_OP_SEMGET(T6_SEM(SEM_MATH_PACK)));
    TTI(TT_OP_ATRELM(0));
    tensix_sync();
    return 0;
}
