/* FIFO back-pressure on the pushing core (PushTensixInstruction.md: a push to a full FIFO stalls
 * the store). TRISC0 latches SEMWAIT(STALL_SFPU, semaphore 0, STALL_ON_ZERO) and pushes 48
 * SFPNOPs behind it: FIFO#3 (2) + FIFO#2 (8) + FIFO#1 (32) take 42, so the 43rd push stalls the
 * core until TRISC1 posts semaphore 0 through its window. TRISC1 sets L1 0x9100 just before it
 * posts. Results (L1 0x9100): [1] the flag as TRISC0 saw it after its last push (1: it could not
 * finish pushing before the post), [2] wall-clock cycles the 48 pushes took. */
#include "ttemu_fw.h"

int main(void) {
    TTI(TT_OP_SEMWAIT(STALL_SFPU, T6_SEM(0), STALL_ON_ZERO));
    uint32_t t0 = wall_clock();
#define P4                                                                                                             \
    TTI(TT_OP_SFPNOP);                                                                                                 \
    TTI(TT_OP_SFPNOP);                                                                                                 \
    TTI(TT_OP_SFPNOP);                                                                                                 \
    TTI(TT_OP_SFPNOP);
    P4 P4 P4 P4 P4 P4 P4 P4 P4 P4 P4 P4 /* 48 */
        uint32_t t1 = wall_clock();
    L1_WORD(0x9104) = L1_WORD(0x9100);
    L1_WORD(0x9108) = t1 - t0;
    tensix_sync();
    return 0;
}
