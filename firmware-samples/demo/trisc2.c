/* Demo, TRISC2: drives its Tensix thread. SEMINIT semaphore 3 to {Value 0, Max 4} with a
 * `.ttinsn`, three SEMPOSTs pushed with `sw` to INSTRN_BUF, then tensix_sync() and a read of the
 * semaphore through the PCBuf window: 3 into L1 0x8010. Also popcount of 0xF0F0F0F0 with Zbb's
 * cpop (16) into 0x8014. */
#include "ttemu_fw.h"

int main(void) {
    volatile uint32_t *instrn = (volatile uint32_t *)(uintptr_t)0xFFE40000u;
    TTI(TT_OP_SEMINIT(4, 0, 1u << 3));
    for (int i = 0; i < 3; i++)
        *instrn = TT_OP_SEMPOST(1u << 3);
    tensix_sync();
    L1_WORD(0x8010) = SEMAPHORE(3);
    uint32_t x = 0xF0F0F0F0u, c;
    __asm__("cpop %0, %1" : "=r"(c) : "r"(x));
    L1_WORD(0x8014) = c;
    return 0;
}
