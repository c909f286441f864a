/* mutex.h — the config read-modify-write contention sample: T0 and T2 share mutex 0. */
#ifndef MUTEX_SAMPLE_H
#define MUTEX_SAMPLE_H

#include "ttemu_fw.h"

#define ROUNDS 24
/* The config word both threads modify: Config[bank 0][RMW_CFG]. TRISC0 counts its rounds in the
 * low half, TRISC2 in the high half; each RMW rewrites the whole word, so without the mutex one
 * TRISC's store can undo the other's increment. */
#define RMW_CFG 100
/* Each thread posts RMW_DONE when its last round is over; TRISC2 waits for both. */
#define SEM_RMW_DONE 7u

#define RESULT(i) L1_WORD(0x9000u + 4u * (i))
enum { R_CFG_WORD, R_ROUNDS_T0, R_ROUNDS_T2, R_DONE };

/* t6_mutex_acquire: ATGETM waits at this thread's gate while the other thread holds the mutex;
 * tensix_sync() returns once it has passed, i.e. once this thread holds REG_RMW. Only then may
 * the RISC-V side read the config word. */
static inline void t6_mutex_acquire(void) {
    TTI(TT_OP_ATGETM(MUTEX_REG_RMW));
    tensix_sync();
}

static inline void t6_mutex_release(void) { TTI(TT_OP_ATRELM(MUTEX_REG_RMW)); }

/* cfg_rmw: Config[addr] = (old & ~mask) | ((old + inc) & mask), under REG_RMW. The spin between
 * the load and the store stands for the work a real RMW does there (field shifts and masks). */
static inline void cfg_rmw_add(uint32_t addr, uint32_t mask, uint32_t inc) {
    t6_mutex_acquire();
    uint32_t old = CFG_WORD(addr);
    spin_cycles(12);
    CFG_WORD(addr) = (old & ~mask) | ((old + inc) & mask);
    t6_mutex_release();
}

#endif
