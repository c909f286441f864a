/* Mutex contention, TRISC2 / T2: ROUNDS read-modify-writes of the high half of Config[RMW_CFG]
 * under mutex 0, racing TRISC0. T2 initialises RMW_DONE {Value 0, Max 2} first; when its own
 * rounds are done it posts RMW_DONE too and TRISC2 waits, through the PCBuf window, until both
 * threads have posted — then the config word is final and goes to L1 (ROUNDS in each half). */
#include "mutex.h"

int main(void) {
    TTI(TT_OP_SEMINIT(2, 0, T6_SEM(SEM_RMW_DONE)));
    uint32_t n = 0;
    for (; n < ROUNDS; n++)
        cfg_rmw_add(RMW_CFG, 0xFFFF0000u, 1u << 16);
    TTI(TT_OP_SEMPOST(T6_SEM(SEM_RMW_DONE)));
    while (semaphore_read(SEM_RMW_DONE) < 2) {
    }
    RESULT(R_ROUNDS_T2) = n;
    RESULT(R_CFG_WORD) = CFG_WORD(RMW_CFG);
    RESULT(R_DONE) = 1;
    return 0;
}
