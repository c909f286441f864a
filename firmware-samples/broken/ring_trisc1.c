/* Broken on purpose: a wait-for ring between T1 and T2 (ring_trisc2.c is the other half).
 * T1 takes mutex 0, then waits for semaphore 1 to drop below Max before packing. T2 fills
 * semaphore 1 and then wants mutex 0 before its SEMGET, the one that would make room. Each
 * waits on the other: T1 on sem 1 >= Max, to be lowered by T2's SEMGET that is queued behind
 * T2's ATGETM; T2 on mutex 0, held by T1. Expected: exit 1 and the cycle T1 -> T2 -> T1.
 * TRISC1 reads semaphore 1 through the PCBuf window until T2 has filled it, so the SEMWAIT
 * finds it full whatever the timing. */
#include "ttemu_fw.h"

int main(void) {
    TTI(TT_OP_ATGETM(0));
    while (SEMAPHORE(SEM_MATH_PACK) == 0) {
    }
    TTI(TT_OP_SEMWAIT(STALL_PACK, T6_SEM(SEM_MATH_PACK), STALL_ON_MAX));
    TTI(TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    TTI(TT_OP_ATRELM(0));
    tensix_sync();
    return 0;
}
