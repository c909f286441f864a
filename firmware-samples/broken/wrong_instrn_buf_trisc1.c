/* Broken on purpose: TRISC1 pushes a SEMPOST for T2 by storing to INSTRN2_BUF (0xFFE60000), which
 * only BRISC may do; on silicon the TRISC hangs. TRISC2 (wrong_instrn_buf_trisc2.c) waits for the
 * post in vain. Expected: exit 1, TRISC1 hung naming INSTRN2_BUF, T2 held on semaphore 1. */
#include "ttemu_fw.h"

int main(void) {
    TTI(TT_OP_SEMINIT(1, 0, T6_SEM(SEM_MATH_PACK)));
    tensix_sync();
    L1_WORD(0xFFE60000u) = TT_OP_SEMPOST(T6_SEM(SEM_MATH_PACK));
    return 0;
}
