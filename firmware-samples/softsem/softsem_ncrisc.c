/* Software semaphores, consumer (NCRISC): waits for READY, then takes ITEMS items in order:
 * sem_wait(FULL), read slot i % SLOTS, sem_post(FREE). The sum of the items (sum of i*i + 1)
 * shows that none was lost or read twice. */
#include "softsem.h"

int main(void) {
    while (L1_WORD(READY) != 1) {
    }
    uint32_t sum = 0, n = 0;
    for (; n < ITEMS; n++) {
        sem_wait(SEM_FULL);
        sum += SLOT(n % SLOTS);
        sem_post(SEM_FREE);
    }
    RESULT(R_CONSUMED) = n;
    RESULT(R_SUM) = sum;
    RESULT(R_DONE) = 1;
    return 0;
}
