/* softsem.h — software semaphores in L1 between BRISC (producer) and NCRISC (consumer).
 *
 * tt-metal's data-movement cores have no Sync Unit semaphores: they synchronise through L1
 * words (noc_semaphore_wait / noc_semaphore_inc on the local tile). Here a bounded buffer of
 * SLOTS words is guarded by two counting semaphores in L1: FREE (slots the producer may fill,
 * initially SLOTS) and FULL (slots the consumer may empty, initially 0). sem_wait spins until
 * the value is non-zero and takes one with an atomic add; sem_post adds one — atomics (amoadd.w),
 * because both cores update both words. */
#ifndef SOFTSEM_H
#define SOFTSEM_H

#include "ttemu_fw.h"

#define ITEMS 40
#define SLOTS 4 /* FREE's initial count: the buffer's depth */

#define SEM_FREE 0x9100u
#define SEM_FULL 0x9104u
#define READY    0x9108u /* BRISC has initialised the semaphores */
#define SLOT(i)  L1_WORD(0x9200u + 4u * (i))

#define RESULT(i) L1_WORD(0x9000u + 4u * (i))
enum { R_PRODUCED, R_CONSUMED, R_SUM, R_FREE_END, R_FULL_END, R_DONE };

static inline uint32_t amo_add(uint32_t addr, int32_t v) {
    uint32_t old;
    __asm__ volatile("amoadd.w %0, %2, (%1)" : "=r"(old) : "r"(addr), "r"(v) : "memory");
    return old;
}

static inline void sem_wait(uint32_t sem) {
    for (;;) {
        while (L1_WORD(sem) == 0) {
        }
        /* Another taker could have raced us to it; here each semaphore has one taker, but the
         * atomic keeps the poster's concurrent add intact. */
        if ((int32_t)amo_add(sem, -1) > 0) return;
        amo_add(sem, 1);
    }
}

static inline void sem_post(uint32_t sem) { amo_add(sem, 1); }

#endif
