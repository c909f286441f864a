/* Software semaphores, producer (BRISC): initialises FREE = SLOTS and FULL = 0, raises READY,
 * then fills ITEMS slots: sem_wait(FREE), write item i*i + 1 into slot i % SLOTS, sem_post(FULL).
 * It waits for the consumer's done flag and records FREE and FULL at the end (SLOTS and 0 when
 * every slot came back). */
#include "softsem.h"

int main(void) {
    L1_WORD(SEM_FREE) = SLOTS;
    L1_WORD(SEM_FULL) = 0;
    L1_WORD(READY) = 1;
    for (uint32_t i = 0; i < ITEMS; i++) {
        sem_wait(SEM_FREE);
        SLOT(i % SLOTS) = i * i + 1;
        sem_post(SEM_FULL);
    }
    RESULT(R_PRODUCED) = ITEMS;
    while (RESULT(R_DONE) != 1) {
    }
    RESULT(R_FREE_END) = L1_WORD(SEM_FREE);
    RESULT(R_FULL_END) = L1_WORD(SEM_FULL);
    return 0;
}
