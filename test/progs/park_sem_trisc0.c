/* TRISC0 polls semaphores through its PC_BUF window, as tt-metal's unpack kernel polls
 * semaphore 5: it parks on the semaphore's Value (core/exec.c "Parked harts") and must wake, at
 * the very cycle a load would have seen the change, when TRISC1 posts semaphore 2 by a store to
 * its window, then when T1's SEMPOST instruction posts semaphore 3 (park_sem_trisc1.c). Each
 * wake's mcycle is kept at 0x9800 and 0x9804. */
#include "ttemu_fw.h"

#define SEM(i) (*(volatile uint32_t *)(0xFFE80020u + 4u * (i)))

static uint32_t mcycle(void) {
    uint32_t c;
    __asm__ volatile("csrr %0, mcycle" : "=r"(c));
    return c;
}

int main(void) {
    while (!SEM(2)) {
    }
    L1_WORD(0x9800) = mcycle();
    while (!SEM(3)) {
    }
    L1_WORD(0x9804) = mcycle();
    SEM(2) = 1; /* a get: back to 0 */
    L1_WORD(0x9808) = SEM(2) | SEM(3) << 8;
    return 0;
}
