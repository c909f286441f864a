/* Mutex contention, TRISC0 / T0: ROUNDS config read-modify-writes of the low half of
 * Config[RMW_CFG] under mutex 0 (tt-llk's mutex::REG_RMW), racing TRISC2 for the same word.
 * Then it posts RMW_DONE from its thread. */
#include "mutex.h"

int main(void) {
    uint32_t n = 0;
    for (; n < ROUNDS; n++)
        cfg_rmw_add(RMW_CFG, 0x0000FFFFu, 1);
    TTI(TT_OP_SEMPOST(T6_SEM(SEM_RMW_DONE)));
    tensix_sync();
    RESULT(R_ROUNDS_T0) = n;
    return 0;
}
