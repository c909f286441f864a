/* debug/diag.h — the stall diagnosis: who waits on what, and why (docs/debugging-stalls.md). */
#ifndef TTEMU_DEBUG_DIAG_H
#define TTEMU_DEBUG_DIAG_H

#include "run/run.h"

/* Fills r->diag_json and r->diag_text from the final state (a run that ended in deadlock or at
 * its cycle limit). The command sets it as the run's run_t.explain. */
void diag_build(run_t *r);

/* Why core c does not retire (the one rule the diagnosis, the trace and the panel use): a TRISC's
 * TTSync load (tensix_sync, mop_sync) or a push to a full INSTRN_BUF (fifo_full); *thread is the
 * thread it waits for, -1 for CORE_WAIT_NONE. Or it polls an NIU counter that a NoC packet in
 * flight will still advance (noc_wait: it retires its loop, but waits on the NoC; *thread -1). */
typedef enum {
    CORE_WAIT_NONE = 0,
    CORE_WAIT_FIFO_FULL,
    CORE_WAIT_TENSIX_SYNC,
    CORE_WAIT_MOP_SYNC,
    CORE_WAIT_NOC
} core_wait_t;
core_wait_t diag_core_wait(const tile_t *t, int c, int *thread);
/* A core waiting on the NoC: the NIU, the counter it polled last (within DIAG_NOC_POLL_RECENT
 * cycles) and the packets in flight that will advance it (> 0). False if it does not. */
#define DIAG_NOC_POLL_RECENT 32
bool diag_core_noc_wait(const tile_t *t, int c, int *niu, unsigned *counter, unsigned *in_flight);
/* "", "fifo_full", "tensix_sync", "mop_sync", "noc_wait" (the names in reports, traces and the
 * panel). */
const char *diag_core_wait_name(core_wait_t w);

#endif
