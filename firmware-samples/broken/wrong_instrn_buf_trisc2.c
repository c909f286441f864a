/* Broken on purpose: waits on semaphore 1 for the post TRISC1 sends to the wrong INSTRN_BUF. */
#include "ttemu_fw.h"

int main(void) {
    spin_cycles(50);
    TTI(TT_OP_SEMWAIT(STALL_PACK, T6_SEM(SEM_MATH_PACK), STALL_ON_ZERO));
    TTI(TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    tensix_sync();
    return 0;
}
