/* Broken on purpose: the pack side of missing_sempost_trisc1.c. Waits for semaphore 1 to be
 * non-zero, packs, and gives the slot back with SEMGET. The SEMWAIT never releases. */
#include "ttemu_fw.h"

int main(void) {
    TTI(TT_OP_SEMWAIT(STALL_PACK, T6_SEM(SEM_MATH_PACK), STALL_ON_ZERO));
    TTI(TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    TTI(TT_OP_SEMGET(T6_SEM(SEM_MATH_PACK)));
    tensix_sync();
    return 0;
}
