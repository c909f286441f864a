/* tile/sched.c — time: one lock-step cycle of the tile (tile_cycle), and many at once with the
 * same results (tile_run): a lone hart running ahead, the group's lock-step in one call, and the
 * idle fast-forward (tile/spin.c). docs/architecture.md "The fast path". */
#include "tile/tile.h"

/* tile_blocks_check with harts waiting for a thread among the blocked (block_sync not 0). */
static __attribute__((noinline)) void blocks_check_all(tile_t *t, uint32_t freed) {
    /* A full FIFO has room again only after a cycle that took words out of it, and then has. */
    uint8_t keep = 0, wake = 0, sync = 0;
    for (uint32_t m = t->blocked_mask; m; m &= m - 1) {
        unsigned c = (unsigned)__builtin_ctz(m), th = t->block_thread[c];
        hart_t *h = &t->hart[c];
        uint8_t bit = t->block_bit[c]; /* (0 for a hart waiting for a thread) */
        bool still;
        if (freed & bit) /* a push into a full FIFO, freed since */
            /* Its bit alone: it names only frees since the push found the FIFO full
             * (cp_fifo_seen_full), and each was at the end of a cycle this check follows, with no
             * push since (a cycle that frees a FIFO leaves it with fewer words than the depth:
             * test_cp_shortcuts). Were it ever wrong, the hart would only retry, stall and block
             * again, as the reference path does every cycle. */
            still = false;
        else if (!h->blocked || h->state != HART_RUNNING) /* released another way */
            still = false;
        else if (bit)
            still = true;
        else if (t->block_kind[c] == TILE_BLOCK_SYNC)
            still = !cp_thread_idle(t->cp, th);
        else
            still = !cp_mop_idle(t->cp, th);
        if (!still) {
            h->blocked = false;
            continue;
        }
        keep |= (uint8_t)(1u << c);
        if (bit) {
            wake |= bit;
        } else {
            wake |= TILE_WAKE_ASK;
            sync |= t->block_kind[c] == TILE_BLOCK_SYNC ? (uint8_t)(1u << th) : TILE_SYNC_MOP;
        }
    }
    t->blocked_mask = keep;
    t->block_wake = wake;
    t->block_sync = sync;
}

/* (Out of line: inlined, it moved link-time inlining elsewhere, add1 16 x 32 lost time.) */
__attribute__((noinline)) void tile_blocks_check(tile_t *t, uint32_t freed) {
    if (t->block_sync) {
        blocks_check_all(t, freed);
        return;
    }
    /* Only blocked pushes (a hart that blocked waiting for a thread set block_sync, which only
     * blocks_check_all clears, and then without it among those it keeps): blocks_check_all's
     * rule for them, with no call in the loop (so no registers to save). Released: its FIFO
     * freed since, or released another way; a bit of 0 here (none) would be released too, to
     * retry, rather than kept with nothing to wake it. */
    uint8_t keep = 0, wake = 0;
    for (uint32_t m = t->blocked_mask; m; m &= m - 1) {
        unsigned c = (unsigned)__builtin_ctz(m);
        hart_t *h = &t->hart[c];
        uint8_t bit = t->block_bit[c];
        if ((bit & ~freed) && h->blocked && h->state == HART_RUNNING) {
            keep |= (uint8_t)(1u << c);
            wake |= bit;
        } else {
            h->blocked = false;
        }
    }
    t->blocked_mask = keep;
    t->block_wake = wake;
}

/* The rest of a tile cycle after the harts' turns (hart_run_lockstep's end_cycle for one cycle). */
static bool end_one_cycle(void *ctx) {
    tile_t *t = ctx;
    unsigned s = cp_cycle_fast(t->cp); /* (not the reference path: tile_cycle) */
    t->cycle++;
    tile_noc_tick(t);
    if (t->blocked_mask) tile_blocks_check(t, s >> CP_CYCLE_FREED_SHIFT);
    return false;
}

void tile_cycle(tile_t *t) {
    tile_spin_forget(t);
    if (!t->reference) { /* the same turns in one call (hart_step_fast each) */
        hart_run_lockstep(t->hart, TILE_NCORES, 1, end_one_cycle, NULL, t);
        return;
    }
    for (int c = 0; c < TILE_NCORES; c++) {
        hart_t *h = &t->hart[c];
        if (h->state != HART_RUNNING) continue;
        hart_step(h);
    }
    cp_cycle(t->cp);
    t->cycle++;
    tile_noc_tick(t);
}

/* ---- running fast -------------------------------------------------------------------------------
 * Lock-step (tile_cycle) is the model: in each cycle the harts step in core order, then the
 * coprocessor. tile_run keeps it exactly, three ways (and uses it as is on the reference path):
 *  - Alone: a hart may run many cycles in one go when nothing else can see or change what it
 *    touches in the meantime: it is the only running hart (the others cannot step, and only a
 *    running hart's MMIO store can start them), the coprocessor is idle (an idle coprocessor
 *    makes no STOREREG writes and changes no state a hart could read) and no NoC packet is in
 *    flight (a packet writes L1 and moves counters at cycles of its own). The hart then treats L1
 *    and its local RAM as private and yields before anything else (MMIO, CSRs: hart_run_alone),
 *    which runs in an ordinary lock-step cycle. The coprocessor's idle cycles run afterwards:
 *    with nothing queued, when they run changes nothing.
 *  - Otherwise the very lock-step schedule, but in one call for many cycles (hart_run_lockstep):
 *    the five harts' turns in core order, then end_cycle below, which is the rest of
 *    tile_cycle.
 *  - When the tile provably spins, the idle fast-forward (never with a NoC packet in flight).
 * Every path ends each cycle with tile_noc_tick after the clock moved on, as tile_cycle does. */

/* Cycles another path may run before the next probe is due (so that a run that settles into a
 * spin is noticed), at most m. */
static uint64_t until_probe(const tile_t *t, uint64_t m) {
    if (t->spin.on && t->spin.retry_at > t->cycle && t->spin.retry_at - t->cycle < m)
        return t->spin.retry_at - t->cycle;
    return m;
}

/* The end of a cycle's last questions, once the count says one may have a new answer: a watched
 * word changed, a core started or stopped (harts_changed), and after a cycle not owed, the
 * coprocessor's error. (Only a coprocessor cycle raises its errors, at the units' dispatch and
 * retire; one raised earlier already ended the batch. An owed cycle raises none, and does not
 * answer for one: it leaves the count unseen for the next cycle's end; no test reaches that
 * line, kept so that the count never hides an error.) Out of line: rare. */
static __attribute__((noinline)) bool tile_end_look(tile_t *t, bool owed) {
    if (tile_watch_changed(t) || t->harts_changed) return true;
    if (!cp_failed(t->cp)) return false;
    if (owed) t->watch_seen = UINT64_MAX;
    return !owed;
}
/* Every writer of what tile_end_look asks bumps the count (tile_t.l1_writes): with it where the
 * last look left it, each answer is that look's, no (add1 16 x 32: ~5 host instructions less a
 * full cycle than asking all three). */
static inline __attribute__((always_inline)) bool tile_end_looks(tile_t *t, bool owed) {
    return t->l1_writes != t->watch_seen && tile_end_look(t, owed);
}

/* end_cycle after the coprocessor's part of the cycle; s: what cp_cycle said, or 0 for an owed
 * cycle (owed: an idle or quiet cycle frees no FIFO and idles no thread, so it releases no
 * blocked hart). */
static inline __attribute__((always_inline)) bool end_cycle_rest(tile_t *t, unsigned s, bool owed) {
    tile_noc_tick(t); /* may pay the owed cycles (a NoC write to a register syncs the coprocessor) */
    /* With none of the FIFOs the blocked pushes wait for freed (cp_cycle says which, its bits
     * kept until a push finds the FIFO full: cp_fifo_seen_full), none of the threads harts wait
     * for idle (asked of all in one call) and no hart waiting for a MOP expander,
     * tile_blocks_check would release nobody. */
    unsigned freed = s >> CP_CYCLE_FREED_SHIFT;
    /* (block_wake's TILE_WAKE_ASK: some hart waits for a thread. Neither that nor a freed FIFO
     * that a hart waits for, and the end of the cycle asks nothing.) */
    unsigned wake = t->block_wake & (freed | TILE_WAKE_ASK);
    if (!owed && wake &&
        ((wake & ~TILE_WAKE_ASK) || (t->block_sync & TILE_SYNC_MOP) || cp_idle_threads(t->cp, t->block_sync)))
        tile_blocks_check(t, freed);
    /* (The coprocessor's error asked there, not in the cycle's status: cp_cycle_busy leaves it out.) */
    return tile_end_looks(t, owed);
}

/* Out of line, both: end_cycle's commonest cycles stay small. An owed cycle with the NoC due: */
static __attribute__((noinline)) bool end_cycle_owed(tile_t *t) {
    t->cycle++;
    t->end_slow_at = t->cycle;
    return end_cycle_rest(t, 0, true);
}

/* A cycle not owed: */
static __attribute__((noinline)) bool end_cycle_full(tile_t *t) {
    tile_cp_sync(t); /* the owed cycles end: pay them before this one runs (tile_cp_lag) */
    t->cycle++;
    unsigned s = cp_cycle_busy(t->cp); /* (the reference path never comes here: tile_cycle) */
    /* The cycles the coprocessor lets the tile owe from the next on. */
    if (s & (CP_CYCLE_IDLE | CP_CYCLE_QUIET)) {
        t->cp_owe_until = s & CP_CYCLE_IDLE ? UINT64_MAX : t->cycle + cp_quiet_left(t->cp);
        t->end_slow_at = t->cycle; /* (else the next cycle is not owed: end_cycles_asleep sees it) */
    }
    return end_cycle_rest(t, s, false);
}

/* Out of line: inlined into the harts' group turns (core/exec.c, through the function pointer
 * link-time optimisation resolves), it made their loop keep more in registers (add1 16 x 32:
 * +0.7M host instructions there). */
static __attribute__((noinline)) bool end_cycle(void *ctx) {
    tile_t *t = ctx;
    /* The commonest cycles of harts that poll or wait while the coprocessor is idle or quiet:
     * the tile owes its cycle, and with nothing due on the NoC the rest is the watch. */
    if (t->cycle < t->cp_owe_until) {
        if (t->noc.next_at <= t->cycle + 1) return end_cycle_owed(t);
        t->cycle++;
        return tile_end_looks(t, true);
    }
    return end_cycle_full(t);
}

/* hart_run_lockstep's asleep: after a cycle in which no hart ran, whose end was end_cycle's own
 * lines (owed, nothing due on the NoC: they change nothing but the clock, and the watch, with
 * nothing written, answers as before), the next cycles are that cycle again for as long as their
 * ends would take those lines too: the clock moves on over up to m of them. */
static uint64_t end_cycles_asleep(void *ctx, uint64_t m) {
    tile_t *t = ctx;
    uint64_t c = t->cycle; /* the next cycle's number */
    if (t->end_slow_at == c || c >= t->cp_owe_until || t->noc.next_at <= c + 1) return 0;
    uint64_t k = m;
    if (t->cp_owe_until - c < k) k = t->cp_owe_until - c;       /* each ends owed: c + i < cp_owe_until */
    if (t->noc.next_at - c - 1 < k) k = t->noc.next_at - c - 1; /* and with the NoC not due: next_at > c + i + 1 */
    t->cycle += k;
    return k;
}

void tile_watch_arm(tile_t *t, const uint32_t *addr, unsigned n) {
    t->nwatch = n < TILE_MAX_WATCH ? n : TILE_MAX_WATCH;
    t->watch_hit = false;
    t->watch_seen = t->l1_writes; /* compared below: L1 as it is now */
    for (unsigned i = 0; i < t->nwatch; i++) {
        t->watch_addr[i] = (addr[i] & ~3u) % TILE_L1_SIZE;
        memcpy(&t->watch_val[i], t->l1 + t->watch_addr[i], 4);
    }
}

uint64_t tile_run(tile_t *t, uint64_t n) {
    uint64_t done = 0;
    while (done < n) {
        hart_state_t before[TILE_NCORES];
        int running = 0, alone = -1;
        for (int c = 0; c < TILE_NCORES; c++) {
            before[c] = t->hart[c].state;
            if (before[c] == HART_RUNNING) running++, alone = c;
        }
        bool quiet = cp_is_idle(t->cp) && noc_idle(&t->noc); /* nothing but the harts can change the tile */
        /* (Not with a watched word changed already, by the host between runs: the next cycle's
         * end sees it, the batch the fast-forward would run only at its end.) */
        if (running > 0 && t->spin.on && quiet &&
            (spin_holds(t) || (n - done >= SPIN_MIN_BATCH && t->cycle >= t->spin.retry_at)) &&
            !(t->nwatch && tile_watch_changed(t))) {
            t->touches++;
            done += spin_forward(t, n - done);
            if (done == n || cp_error(t->cp) || (t->nwatch && tile_watch_changed(t))) return done;
            for (int c = 0; c < TILE_NCORES; c++)
                if (t->hart[c].state != before[c]) return done;
            continue;
        } else if (running == 1 && !t->reference && quiet && !t->nwatch) {
            /* Not tile_spin_forget: as long as the core keeps running, only L1, its local RAM and
             * its registers change, and the idle coprocessor's clock (t->touches holds). */
            t->spin.cert = false;
            uint64_t m = until_probe(t, n - done);
            uint64_t k = hart_run_alone(&t->hart[alone], m);
            cp_advance_idle(t->cp, k);
            t->cycle += k;
            done += k;
            if (t->hart[alone].state != HART_RUNNING) {
                t->touches++;
                return done;
            }
            if (done == n) return done;
            if (k == m) continue; /* the next probe is due */
            /* It yielded before an access to the tile: that cycle runs in lock-step below. */
        } else if (running > 0 && !t->reference) {
            /* Returns after a cycle in which a hart stopped (the group sees it), a core was
             * started or reset (harts_changed) or the coprocessor failed: as below, the caller
             * then sees that cycle's state. */
            tile_spin_forget(t);
            t->harts_changed = false;
            /* (An error counted before, its count seen by a look outside this batch: the first
             * end looks again, and stops on it as before.) */
            if (cp_failed(t->cp)) t->watch_seen = UINT64_MAX;
            t->cp_owe_until = cp_is_idle(t->cp) ? UINT64_MAX : 0;
            done += hart_run_lockstep(t->hart, TILE_NCORES, until_probe(t, n - done), end_cycle, end_cycles_asleep, t);
            tile_cp_sync(t);
            if (done == n || cp_error(t->cp) || t->watch_hit) return done;
            for (int c = 0; c < TILE_NCORES; c++)
                if (t->hart[c].state != before[c]) return done;
            continue; /* a core was reset and restarted within one cycle: no visible change */
        }
        tile_cycle(t);
        done++;
        if (running == 0 || cp_error(t->cp) || (t->nwatch && tile_watch_changed(t))) return done;
        for (int c = 0; c < TILE_NCORES; c++)
            if (t->hart[c].state != before[c]) return done;
    }
    return done;
}
