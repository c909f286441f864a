/* STALLWAIT pattern 2, unpack side: sets the dummy data-valid the math thread waits for, SrcA
 * first, SrcB later (tt-llk TT_OP_UNPACR_NOP(..., p_unpacr_nop::SET_DVALID, ...)), and records
 * semaphore 3 — posted by the math thread behind its moves — at each step.
 * Results (L1 0x9000): [0] semaphore 3 before SrcA is valid, [1] after SrcA but before SrcB,
 * [2] after both. Only 0, 0, 1 is right: the moves waited for each bank. */
#include "ttemu_fw.h"

int main(void) {
    spin_cycles(200);
    L1_WORD(0x9000) = SEMAPHORE(3);
    TTI(TT_OP_UNPACR_NOP(0, 0, 0, P_UNPACR_NOP_SET_DVALID, 0, 0, 0, 0,
                         P_UNPACR_NOP_ZEROSRC)); /* SrcA bank, zeroed, to the Matrix Unit: C7 clears */
    spin_cycles(200);
    L1_WORD(0x9004) = SEMAPHORE(3);
    TTI(TT_OP_UNPACR_NOP(1, 0, 0, P_UNPACR_NOP_SET_DVALID, 0, 0, 0, 0, P_UNPACR_NOP_ZEROSRC)); /* SrcB: C8 clears */
    while (SEMAPHORE(3) == 0) {
    }
    L1_WORD(0x9008) = SEMAPHORE(3);
    return 0;
}
