/* park_sem_trisc0.c's other half: after delays long enough for TRISC0 to park, post semaphore 2
 * by a store to the semaphore window, then semaphore 3 by a SEMPOST instruction of thread T1. */
#include "ttemu_fw.h"

#define SEM(i) (*(volatile uint32_t *)(0xFFE80020u + 4u * (i)))

static void delay(void) {
    for (volatile int i = 0; i < 300; i++) {
    }
}

int main(void) {
    delay();
    SEM(2) = 0; /* bit0 clear: a post */
    delay();
    TTI(TT_OP_SEMPOST(1u << 3));
    return 0;
}
