/* test/progs/stallwait_observer.h — the body of the observer TRISC used by the STALLWAIT
 * pattern programs (stallwait_*.c). It runs on a TRISC that pushes no Tensix work and samples,
 * as fast as it can, one RISC-V-visible effect of a guarded instruction (a config word, a
 * ThreadConfig entry, a semaphore) together with tt_cfg_bstatus bits [21:11] (CSRs.md: the
 * classes every thread has queued or executing). A wait that held means the effect is never
 * seen while the classes it waited on were still busy.
 *
 * Protocol (L1 0x9F00, words): the worker writes [2] effect address, [3] effect mask, [4] busy
 * class mask, then [0] go = 1; when its work is done it writes [1] stop = 1. The observer then
 * writes [5] violations (effect seen while busy), [6] window (busy seen before the effect),
 * [7] the largest masked effect value seen, [8] samples, and halts. */
#ifndef STALLWAIT_OBSERVER_H
#define STALLWAIT_OBSERVER_H

#include "ttemu_fw.h"

#define OBS(i) L1_WORD(0x9F00u + 4u * (i))
enum { OBS_GO, OBS_STOP, OBS_ADDR, OBS_MASK, OBS_BUSY, OBS_VIOL, OBS_WINDOW, OBS_MAX, OBS_SAMPLES };

/* Worker side: describe the effect and the busy classes, then let the observer run. */
static inline void observe_start(uint32_t addr, uint32_t mask, uint32_t busy) {
    OBS(OBS_ADDR) = addr;
    OBS(OBS_MASK) = mask;
    OBS(OBS_BUSY) = busy;
    OBS(OBS_GO) = 1;
    spin_cycles(40); /* the observer is in its loop before the first push */
}

static inline void observe_stop(void) {
    tensix_sync();
    OBS(OBS_STOP) = 1;
}

static inline int observer_main(void) {
    while (!OBS(OBS_GO)) {
    }
    volatile uint32_t *effect = (volatile uint32_t *)(uintptr_t)OBS(OBS_ADDR);
    uint32_t mask = OBS(OBS_MASK), busy = OBS(OBS_BUSY);
    uint32_t viol = 0, window = 0, max = 0, samples = 0;
    while (!OBS(OBS_STOP)) {
        uint32_t v = *effect & mask;              /* the effect first ...                    */
        uint32_t b = (tt_bstatus() >> 11) & busy; /* ... then what it must not overlap with */
        if (v > max) max = v;
        if (v && b) viol++;
        if (!v && b) window++;
        samples++;
    }
    OBS(OBS_VIOL) = viol;
    OBS(OBS_WINDOW) = window;
    OBS(OBS_MAX) = max;
    OBS(OBS_SAMPLES) = samples;
    return 0;
}

#endif
