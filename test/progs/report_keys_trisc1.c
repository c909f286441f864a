/* Leaves Tensix state behind for the report-format checks (t_stallwait.sh): thread 1 holds
 * mutex 2 and ends with a SEMWAIT on semaphore 6 latched and an SFPNOP held behind it. */
#include "ttemu_fw.h"

int main(void) {
    TTI(TT_OP_ATGETM(2));
    TTI(TT_OP_SEMWAIT(STALL_SFPU, T6_SEM(6), STALL_ON_ZERO));
    TTI(TT_OP_SFPNOP);
    spin_cycles(100);
    return 0;
}
