/* tile/spin.c — the idle fast-forward: a tile whose cores provably spin skips whole loops. */
#include <string.h>

#include "tile/tile.h"

/* ---- idle fast-forward -------------------------------------------------------------------------
 * Idle firmware spins: each core loops on a few instructions that load a mailbox word from L1 and
 * branch back while it holds the same value. Such a tile repeats itself exactly, so its future can
 * be computed rather than stepped, under conditions that make it provable:
 *   - the coprocessor is idle (it stays so: only a core's push can wake it), and no NoC packet is
 *     in flight (only a core's NIU store can issue one; a packet in flight writes memory and moves
 *     the counters a core may poll, at cycles of its own, so the tile is not idle until it lands);
 *   - for a probe of at most SPIN_PROBE cycles the running cores execute only pure instructions
 *     (hart_step_pure: registers and pc change, L1 and local RAM are only read; no store, AMO,
 *     MMIO, CSR), so memory and every device stay unchanged and nothing can start or stop a core;
 *   - every running core k comes back to the state (pc, x1..x31) it had when the probe began,
 *     after p_k cycles.
 * A core's next state is then a function of its (pc, registers) alone (memory is constant and
 * the instructions it runs read nothing else, not even the cycle counters), so each core repeats
 * its p_k-cycle loop for as long as nothing else writes memory or a device: tile_run's caller
 * (host writes, the loader) between calls, or a core's impure instruction. Skipping a multiple K
 * of p_k cycles therefore leaves every pc and register where stepping would, and adds exactly
 * K to the tile's cycle and to each running core's cycle and instret (every cycle of the loop
 * retired one instruction: pure instructions never stall); the coprocessor's K idle cycles are
 * cp_advance_idle(K). As the cores do not interact, each can skip by its own p_k: spin_skip.
 *
 * The proof is kept (spin_cert) with the state it holds for, so the next call (run_loop calls
 * tile_run every ~1000 cycles) skips at once: it holds while the cores are in exactly that state
 * and nothing else touched the tile since. Everything else that can change memory, a device or a
 * core drops it (tile_spin_forget): the host's writes (env_l1_written, tile_host_*), starting or
 * resetting a core, and every cycle run any other way (tile_cycle, run-ahead, group runs).
 *
 * Probes are ordinary lock-step cycles: a probe that fails (an impure instruction, a state that
 * does not come back in time) has only run cycles as tile_cycle would, and postpones the next
 * probe (spin_retry_at, doubling up to SPIN_BACKOFF_MAX). */
#define SPIN_PROBE       512     /* cycles a probe looks for every core's period */
#define SPIN_BACKOFF_MAX 1048576 /* cycles */

/* Finish the current cycle from core c on, in lock-step (after a probe step that did not run or
 * that stopped a core), and the coprocessor's cycle. */
static void finish_cycle(tile_t *t, int c) {
    tile_spin_forget(t);
    for (; c < TILE_NCORES; c++)
        if (t->hart[c].state == HART_RUNNING) hart_step_fast(&t->hart[c]);
    cp_cycle_fast(t->cp); /* (the idle fast-forward is the fast path's: spin_t.on) */
    t->cycle++;
    tile_noc_tick(t); /* the impure instruction may have issued a NoC request */
}

/* One cycle of pure steps (the coprocessor idle). False if a core's instruction was not pure or
 * stopped it: the cycle was then finished in lock-step and the proof dropped. */
static bool pure_cycle(tile_t *t) {
    for (int c = 0; c < TILE_NCORES; c++) {
        hart_t *h = &t->hart[c];
        if (h->state != HART_RUNNING) continue;
        if (!hart_step_pure(h)) {
            finish_cycle(t, c);
            return false;
        }
        if (h->state != HART_RUNNING) {
            finish_cycle(t, c + 1);
            return false;
        }
    }
    cp_advance_idle(t->cp, 1); /* idle, and nothing pure can wake it: cp_cycle's idle cycle */
    t->cycle++;
    tile_noc_tick(t); /* idle (the probe starts only then), and nothing pure can issue */
    return true;
}

static void spin_remember(tile_t *t) {
    for (int c = 0; c < TILE_NCORES; c++) {
        const hart_t *h = &t->hart[c];
        t->spin.state[c] = h->state;
        t->spin.pc[c] = h->pc;
        memcpy(t->spin.x[c], h->x, sizeof t->spin.x[c]);
    }
}

/* Does the proof hold for the tile as it is? */
bool spin_holds(const tile_t *t) {
    if (!t->spin.cert || !cp_is_idle(t->cp) || !noc_idle(&t->noc)) return false;
    for (int c = 0; c < TILE_NCORES; c++) {
        const hart_t *h = &t->hart[c];
        if (h->state != t->spin.state[c]) return false;
        if (h->state == HART_RUNNING && (h->pc != t->spin.pc[c] || memcmp(h->x, t->spin.x[c], sizeof h->x)))
            return false;
    }
    return true;
}

/* Look for every running core's period: up to SPIN_PROBE (and n/2) cycles of pure steps. On
 * success the proof is set (for the state the tile is in now). Returns the cycles run. */
static uint64_t spin_probe(tile_t *t, uint64_t n) {
    uint64_t period[TILE_NCORES] = {0};
    int nrun = 0, found = 0;
    spin_remember(t); /* the state every core must come back to */
    for (int c = 0; c < TILE_NCORES; c++)
        nrun += t->hart[c].state == HART_RUNNING;
    uint64_t ran = 0, limit = n / 2 < SPIN_PROBE ? n / 2 : SPIN_PROBE;
    while (found < nrun && ran < limit) {
        if (!pure_cycle(t)) return ran + 1;
        ran++;
        for (int c = 0; c < TILE_NCORES; c++) {
            const hart_t *h = &t->hart[c];
            if (h->state == HART_RUNNING && !period[c] && h->pc == t->spin.pc[c] &&
                !memcmp(h->x, t->spin.x[c], sizeof h->x)) {
                period[c] = ran;
                found++;
            }
        }
    }
    if (found < nrun || nrun == 0) return ran;
    t->spin.cert = true;
    memcpy(t->spin.period, period, sizeof period);
    spin_remember(t);
    return ran;
}

/* n cycles while the proof holds. The cores do not interact (pure instructions over constant
 * memory), so each one moves on by itself: q = n - n % p cycles skipped (a whole number of its
 * loops: state unchanged, cycle and instret + q), then n % p pure steps. The steps run on copies
 * of the harts, committed only when every one of them was pure, as the proof says they are;
 * should one not be (it cannot), nothing has changed and the proof is dropped. Returns n, or 0. */
static uint64_t spin_skip(tile_t *t, uint64_t n) {
    hart_t next[TILE_NCORES];
    for (int c = 0; c < TILE_NCORES; c++) {
        if (t->hart[c].state != HART_RUNNING) continue;
        next[c] = t->hart[c];
        uint64_t q = n - n % t->spin.period[c];
        next[c].cycle += q;
        next[c].instret += q;
        for (uint64_t i = q; i < n; i++)
            if (!hart_step_pure(&next[c]) || next[c].state != HART_RUNNING) {
                tile_spin_forget(t);
                return 0;
            }
    }
    for (int c = 0; c < TILE_NCORES; c++)
        if (t->hart[c].state == HART_RUNNING) t->hart[c] = next[c];
    cp_advance_idle(t->cp, n);
    t->cycle += n;
    t->spin.skipped += n;
    spin_remember(t);
    return n;
}

/* Up to n cycles through the idle fast-forward (tile_run). Returns the cycles run. */
uint64_t spin_forward(tile_t *t, uint64_t n) {
    uint64_t ran = 0;
    if (!spin_holds(t)) {
        t->spin.cert = false;
        ran = spin_probe(t, n);
        if (!t->spin.cert) {
            t->spin.backoff = t->spin.backoff ? t->spin.backoff * 2 : SPIN_MIN_BATCH;
            if (t->spin.backoff > SPIN_BACKOFF_MAX) t->spin.backoff = SPIN_BACKOFF_MAX;
            t->spin.retry_at = t->cycle + t->spin.backoff;
            return ran;
        }
        t->spin.backoff = 0;
    }
    return ran + spin_skip(t, n - ran);
}
