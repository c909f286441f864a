/* Broken on purpose: the second user of mutex 2 in mutex_leak_trisc0.c. Starts a little later so
 * T0 wins the mutex, then waits for it forever. */
#include "ttemu_fw.h"

int main(void) {
    spin_cycles(50);
    TTI(TT_OP_ATGETM(2));
    TTI(TT_OP_NOP);
    TTI(TT_OP_ATRELM(2));
    tensix_sync();
    return 0;
}
