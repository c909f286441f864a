/* Broken on purpose: T0 takes mutex 2 and never releases it (the ATRELM is missing). T1
 * (mutex_leak_trisc1.c) then waits for the mutex forever. Expected: exit 1, T1 held on ATGETM
 * of mutex 2, holder T0. */
#include "ttemu_fw.h"

int main(void) {
    TTI(TT_OP_ATGETM(2));
    TTI(TT_OP_NOP);
    /* TTI(TT_OP_ATRELM(2));   <- the missing release */
    tensix_sync();
    return 0;
}
