/* tile/spin.h — the idle fast-forward's state and its entry points (tile/spin.c), for the
 * scheduler (tile/sched.c). The state lives in tile_t.spin. */
#ifndef TTEMU_TILE_SPIN_H
#define TTEMU_TILE_SPIN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/hart.h"

#define SPIN_CORES     5   /* TILE_NCORES (tile/tile.h includes this header) */
#define SPIN_MIN_BATCH 256 /* a batch shorter than this is not worth a probe */

/* The proof that the tile spins (cert), valid for the cores' state it holds (state/pc/x), each
 * running core's loop taking period cycles; no probe before retry_at (the wait doubles after each
 * failed probe); skipped: cycles skipped so far. on: the fast-forward is allowed at all (the fast
 * path, unless tile_opts_t.no_spin). */
typedef struct {
    bool on;
    bool cert;
    uint64_t period[SPIN_CORES], retry_at, backoff, skipped;
    hart_state_t state[SPIN_CORES];
    uint32_t pc[SPIN_CORES], x[SPIN_CORES][32];
} tile_spin_t;

typedef struct tile tile_t;
/* Does the proof hold for the tile as it is? */
bool spin_holds(const tile_t *t);
/* Up to n cycles through the idle fast-forward (probing first when the proof does not hold).
 * Returns the cycles run. */
uint64_t spin_forward(tile_t *t, uint64_t n);

#endif
