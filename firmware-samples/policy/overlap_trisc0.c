/* The block mask at work (docs/gate-policies.md): a wait that fences one unit while other work of
 * the same thread flows past it. One thread (TRISC0 / T0), straight-line `.ttinsn` pushes, one a
 * cycle:
 *
 *   XMOV                             start a mover copy (16 cycles, C9 busy meanwhile)
 *   STALLWAIT(STALL_XMOV, P_XMOV)    the next XMOV must wait until the mover is idle ...
 *   SETDMAREG x 8                    ... but these Scalar Unit writes (block bit B5) need not
 *   XMOV                             held until the first copy is done
 *
 * Under the exact policy (Blackhole's) the eight SETDMAREGs issue while the wait is latched and
 * only the second XMOV is held; under whole-thread (ttsim's, A2/A3's) the first SETDMAREG is held
 * for the whole wait and the other seven queue behind it. The figures, from the latency model of
 * docs/coprocessor-backend.md (XMOV 16 cycles, SETDMAREG 1, a wait evaluated from the cycle after
 * it latches, a one-cycle release lag), are derived in docs/gate-policies.md: exact holds T0 for
 * 7 cycles (6 on C9, 1 lag), whole-thread for 15 (14 on C9, 1 lag), and the run takes 8 cycles
 * longer under whole-thread.
 *
 * Results at 0x9000: GPRs 40..43 (the SETDMAREGs' values), then 1 when done. */
#include "ttemu_fw.h"

#define SET16(half, v) TTI(TT_OP_SETDMAREG(0, (v), 0, (half)))

int main(void) {
    TTI(TT_OP_XMOV(0, 0));
    TTI(TT_OP_STALLWAIT(STALL_XMOV, P_XMOV));
    SET16(LO_16(40), 0x1111);
    SET16(HI_16(40), 0x2222);
    SET16(LO_16(41), 0x3333);
    SET16(HI_16(41), 0x4444);
    SET16(LO_16(42), 0x5555);
    SET16(HI_16(42), 0x6666);
    SET16(LO_16(43), 0x7777);
    SET16(HI_16(43), 0x8888);
    TTI(TT_OP_XMOV(0, 0));
    tensix_sync();
    for (uint32_t i = 0; i < 4; i++)
        L1_WORD(0x9000u + 4u * i) = GPR(40 + i);
    L1_WORD(0x9010u) = 1;
    return 0;
}
