/* Broken on purpose: ATGETM with mutex index 1, which is not a mutex on Blackhole (0, 2, 3, 4).
 * The instruction waits at T0's gate forever; TRISC0 waits for it in tensix_sync. Expected:
 * exit 1, T0 held on ATGETM, mutex_invalid 1. */
#include "ttemu_fw.h"

int main(void) {
    TTI(TT_OP_ATGETM(1));
    TTI(TT_OP_NOP);
    TTI(TT_OP_ATRELM(1));
    tensix_sync();
    return 0;
}
