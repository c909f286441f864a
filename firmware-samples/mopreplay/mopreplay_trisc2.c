/* REPLAY-heavy stream (TRISC2 / T2). tt-llk records a short instruction sequence once with
 * REPLAY (load mode, executing while loading — lltt::record<lltt::ExecRecord>) and then replays
 * it per face or tile with a single REPLAY word (lltt::replay), which keeps the instruction FIFO
 * nearly empty. The recorded body: "GPR_REPLAY += 1", an SFPU op, the wait for it, and a SEMPOST
 * of REPLAY_SEM; so each execution of the body shows in GPR_REPLAY and in REPLAY_SEM.
 * Executions: 1 while loading + REPLAYS replays. Results (L1, --peek 0x9010:3): GPR_REPLAY, the
 * semaphore's Value (both 1 + REPLAYS), done = 1. */
#include "ttemu_fw.h"

#define REPLAYS      9
#define REPLAY_SEM   3u
#define REPLAY_START 4
#define REPLAY_LEN   4
#define GPR_REPLAY   30

#define RESULT(i) L1_WORD(0x9010u + 4u * (i))

int main(void) {
    TTI(TT_OP_SEMINIT(15, 0, T6_SEM(REPLAY_SEM)));
    TTI(TT_OP_SETDMAREG(0, 0, 0, LO_16(GPR_REPLAY)));
    TTI(TT_OP_SETDMAREG(0, 0, 0, HI_16(GPR_REPLAY)));
    /* Record (and run) the body. */
    TTI(TT_OP_REPLAY(REPLAY_START, REPLAY_LEN, 1, 1));
    TTI(TT_OP_ADDDMAREG(1, GPR_REPLAY, 1, GPR_REPLAY));
    TTI(TT_OP_SFPMAD(0, 1, 2, 3, 0));
    TTI(TT_OP_STALLWAIT(STALL_SYNC, P_WAIT_SFPU));
    TTI(TT_OP_SEMPOST(T6_SEM(REPLAY_SEM)));
    for (int i = 0; i < REPLAYS; i++)
        TTI(TT_OP_REPLAY(REPLAY_START, REPLAY_LEN, 0, 0));
    tensix_sync();
    RESULT(0) = GPR(GPR_REPLAY);
    RESULT(1) = semaphore_read(REPLAY_SEM);
    RESULT(2) = 1;
    return 0;
}
