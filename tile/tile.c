/* mmio/tile.c — creating a tile, soft reset, and the per-cycle schedule. */
#include <stdlib.h>
#include <string.h>

#include "mmio/tile.h"

const char *const tile_core_names[TILE_NCORES] = {"BRISC", "NCRISC", "TRISC0", "TRISC1", "TRISC2"};

/* Local data RAM sizes (dev_mem_map.h: MEM_BRISC/NCRISC_LOCAL_SIZE 8K, MEM_TRISC_LOCAL_SIZE 4K). */
static const uint32_t ldm_sizes[TILE_NCORES] = {0x2000, 0x2000, 0x1000, 0x1000, 0x1000};

/* SOFT_RESET_0 bit of each core (SoftReset.md). */
static const uint32_t reset_bits[TILE_NCORES] = {1u << 11, 1u << 18, 1u << 12, 1u << 13, 1u << 14};

/* The coprocessor reaches MMIO (STOREREG/LOADREG) as the host does. */
static bool cp_mmio_load(void *ctx, uint32_t addr, uint32_t *val) { return tile_host_read(ctx, addr, val); }
static bool cp_mmio_store(void *ctx, uint32_t addr, uint32_t val) { return tile_host_write(ctx, addr, val); }

tile_t *tile_create(void) {
    tile_t *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    /* docs/cli.md "Environment": TTEMU_REFERENCE=1 runs the reference path (hart_step, no decode
     * cache, no run-ahead), which test/sh/t_fastpath.sh compares against the fast one. Read
     * here once; the tile carries it. */
    const char *ref = getenv("TTEMU_REFERENCE");
    t->reference = ref && *ref && strcmp(ref, "0") != 0;
    /* TTEMU_SPIN=0 turns the idle fast-forward off (spin_forward; for measuring the rest). */
    const char *spin = getenv("TTEMU_SPIN");
    t->spin = !t->reference && !(spin && strcmp(spin, "0") == 0);
    t->l1 = calloc(1, TILE_L1_SIZE);
    /* calloc: the 6 MiB of records cost RSS only for the pages of L1 that hold code that ran. */
    if (!t->reference) t->pd = calloc(TILE_L1_SIZE / 4 + 1, sizeof(hart_pd_t)); /* + 1: see hart_t.pd */
    t->noc[0] = calloc(1, 0x10000);
    t->noc[1] = calloc(1, 0x10000);
    t->streams = calloc(1, 0x40000);
    cp_env_t env = {.ctx = t, .mmio_load = cp_mmio_load, .mmio_store = cp_mmio_store};
    t->cp = cp_create(&env);
    bool ok = t->l1 && t->noc[0] && t->noc[1] && t->streams && t->cp && (t->reference || t->pd);
    for (int c = 0; c < TILE_NCORES; c++) {
        t->ldm_size[c] = ldm_sizes[c];
        t->ldm[c] = calloc(1, ldm_sizes[c]);
        ok = ok && t->ldm[c];
        hart_t *h = &t->hart[c];
        h->id = c;
        h->name = tile_core_names[c];
        h->l1 = t->l1;
        h->l1_size = TILE_L1_SIZE;
        h->ldm = t->ldm[c];
        h->ldm_size = ldm_sizes[c];
        h->env = t;
        h->pd = t->pd;
        hart_reset(h);
    }
    if (!ok) {
        tile_destroy(t);
        return NULL;
    }
    t->ctl.regs[0x1B0 / 4] = SOFT_RESET_0_RESET_VALUE;
    /* Logical coordinates of a Tensix tile on a p100a (any worker tile would do). */
    t->noc_x = 1;
    t->noc_y = 2;
    return t;
}

void tile_destroy(tile_t *t) {
    if (!t) return;
    if (t->cp) cp_destroy(t->cp);
    for (int c = 0; c < TILE_NCORES; c++) free(t->ldm[c]);
    free(t->streams);
    free(t->noc[0]);
    free(t->noc[1]);
    free(t->pd);
    free(t->l1);
    free(t);
}

/* Hardware reset PCs (SoftReset.md): BRISC fixed 0; the others their RESET_PC register when the
 * override bit is set, else NCRISC 0x12000, TRISC0/1/2 0x6000/0xA000/0xE000. */
static uint32_t reset_pc(const tile_t *t, int c) {
    const uint32_t *r = t->ctl.regs;
    switch (c) {
    case CORE_NCRISC: return (r[0x23C / 4] & 1) ? r[0x238 / 4] : 0x12000u;
    case CORE_TRISC0:
    case CORE_TRISC1:
    case CORE_TRISC2: {
        int i = c - CORE_TRISC0;
        static const uint32_t dflt[3] = {0x6000u, 0xA000u, 0xE000u};
        return ((r[0x234 / 4] >> i) & 1) ? r[(0x228 + 4 * i) / 4] : dflt[i];
    }
    default: return 0;
    }
}

void tile_start_core(tile_t *t, int c, uint32_t pc) {
    tile_spin_forget(t);
    t->ctl.regs[0x1B0 / 4] &= ~reset_bits[c];
    hart_start(&t->hart[c], pc);
    t->started[c] = true;
}

void tile_soft_reset_write(tile_t *t, uint32_t val) {
    tile_spin_forget(t);
    uint32_t old = t->ctl.regs[0x1B0 / 4];
    t->ctl.regs[0x1B0 / 4] = val;
    for (int c = 0; c < TILE_NCORES; c++) {
        uint32_t b = reset_bits[c];
        if ((old & b) && !(val & b)) {
            hart_start(&t->hart[c], reset_pc(t, c));
            t->started[c] = true;
            t->harts_changed = true;
        } else if (!(old & b) && (val & b)) {
            hart_reset(&t->hart[c]);
            t->harts_changed = true;
        }
    }
}

/* The rest of a tile cycle after the harts' turns (hart_run_lockstep's end_cycle for one cycle). */
static bool end_one_cycle(void *ctx) {
    tile_t *t = ctx;
    cp_cycle(t->cp);
    t->cycle++;
    return false;
}

void tile_cycle(tile_t *t) {
    tile_spin_forget(t);
    if (!t->reference) { /* the same turns in one call (hart_step_fast each) */
        hart_run_lockstep(t->hart, TILE_NCORES, 1, end_one_cycle, t);
        return;
    }
    for (int c = 0; c < TILE_NCORES; c++) {
        hart_t *h = &t->hart[c];
        if (h->state != HART_RUNNING) continue;
        hart_step(h);
    }
    cp_cycle(t->cp);
    t->cycle++;
}

/* ---- running fast -------------------------------------------------------------------------------
 * Lock-step (tile_cycle) is the model: in each cycle the harts step in core order, then the
 * coprocessor. tile_run keeps it exactly, three ways (and uses it as is on the reference path):
 *  - Alone: a hart may run many cycles in one go when nothing else can see or change what it
 *    touches in the meantime: it is the only running hart (the others cannot step, and only a
 *    running hart's MMIO store can start them) and the coprocessor is idle (an idle coprocessor
 *    makes no STOREREG writes and changes no state a hart could read). The hart then treats L1
 *    and its local RAM as private and yields before anything else (MMIO, CSRs: hart_run_alone),
 *    which runs in an ordinary lock-step cycle. The coprocessor's idle cycles run afterwards:
 *    with nothing queued, when they run changes nothing.
 *  - Otherwise the very lock-step schedule, but in one call for many cycles (hart_run_lockstep):
 *    the five harts' turns in core order, then end_cycle below, which is the rest of
 *    tile_cycle.
 *  - When the tile provably spins, the idle fast-forward. */

/* ---- idle fast-forward -------------------------------------------------------------------------
 * Idle firmware spins: each core loops on a few instructions that load a mailbox word from L1 and
 * branch back while it holds the same value. Such a tile repeats itself exactly, so its future can
 * be computed rather than stepped, under conditions that make it provable:
 *   - the coprocessor is idle (it stays so: only a core's push can wake it);
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
#define SPIN_PROBE 512           /* cycles a probe looks for every core's period */
#define SPIN_MIN_BATCH 256       /* a batch shorter than this is not worth a probe */
#define SPIN_BACKOFF_MAX 1048576 /* cycles */

/* Finish the current cycle from core c on, in lock-step (after a probe step that did not run or
 * that stopped a core), and the coprocessor's cycle. */
static void finish_cycle(tile_t *t, int c) {
    tile_spin_forget(t);
    for (; c < TILE_NCORES; c++)
        if (t->hart[c].state == HART_RUNNING) hart_step_fast(&t->hart[c]);
    cp_cycle(t->cp);
    t->cycle++;
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
    cp_cycle(t->cp); /* idle, and nothing pure can wake it */
    t->cycle++;
    return true;
}

static void spin_remember(tile_t *t) {
    for (int c = 0; c < TILE_NCORES; c++) {
        const hart_t *h = &t->hart[c];
        t->spin_state[c] = h->state;
        t->spin_pc[c] = h->pc;
        memcpy(t->spin_x[c], h->x, sizeof t->spin_x[c]);
    }
}

/* Does the proof hold for the tile as it is? */
static bool spin_holds(const tile_t *t) {
    if (!t->spin_cert || !cp_is_idle(t->cp)) return false;
    for (int c = 0; c < TILE_NCORES; c++) {
        const hart_t *h = &t->hart[c];
        if (h->state != t->spin_state[c]) return false;
        if (h->state == HART_RUNNING && (h->pc != t->spin_pc[c] || memcmp(h->x, t->spin_x[c], sizeof h->x)))
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
    for (int c = 0; c < TILE_NCORES; c++) nrun += t->hart[c].state == HART_RUNNING;
    uint64_t ran = 0, limit = n / 2 < SPIN_PROBE ? n / 2 : SPIN_PROBE;
    while (found < nrun && ran < limit) {
        if (!pure_cycle(t)) return ran + 1;
        ran++;
        for (int c = 0; c < TILE_NCORES; c++) {
            const hart_t *h = &t->hart[c];
            if (h->state == HART_RUNNING && !period[c] && h->pc == t->spin_pc[c] &&
                !memcmp(h->x, t->spin_x[c], sizeof h->x)) {
                period[c] = ran;
                found++;
            }
        }
    }
    if (found < nrun || nrun == 0) return ran;
    t->spin_cert = true;
    memcpy(t->spin_period, period, sizeof period);
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
        uint64_t q = n - n % t->spin_period[c];
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
    t->spin_skipped += n;
    spin_remember(t);
    return n;
}

/* Up to n cycles through the idle fast-forward (tile_run). Returns the cycles run. */
static uint64_t spin_forward(tile_t *t, uint64_t n) {
    uint64_t ran = 0;
    if (!spin_holds(t)) {
        t->spin_cert = false;
        ran = spin_probe(t, n);
        if (!t->spin_cert) {
            t->spin_backoff = t->spin_backoff ? t->spin_backoff * 2 : SPIN_MIN_BATCH;
            if (t->spin_backoff > SPIN_BACKOFF_MAX) t->spin_backoff = SPIN_BACKOFF_MAX;
            t->spin_retry_at = t->cycle + t->spin_backoff;
            return ran;
        }
        t->spin_backoff = 0;
    }
    return ran + spin_skip(t, n - ran);
}

/* Cycles another path may run before the next probe is due (so that a run that settles into a
 * spin is noticed), at most m. */
static uint64_t until_probe(const tile_t *t, uint64_t m) {
    if (t->spin && t->spin_retry_at > t->cycle && t->spin_retry_at - t->cycle < m) return t->spin_retry_at - t->cycle;
    return m;
}

static bool end_cycle(void *ctx) {
    tile_t *t = ctx;
    t->cycle++;
    if (t->cp_lazy) { /* idle, and no hart has reached the tile since: owe the cycle */
        t->cp_lag++;
        return t->harts_changed;
    }
    cp_cycle(t->cp);
    if (cp_error(t->cp)) return true;
    t->cp_lazy = cp_is_idle(t->cp);
    return t->harts_changed;
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
        if (running > 0 && t->spin && cp_is_idle(t->cp) &&
            (spin_holds(t) || (n - done >= SPIN_MIN_BATCH && t->cycle >= t->spin_retry_at))) {
            t->touches++;
            done += spin_forward(t, n - done);
            if (done == n || cp_error(t->cp)) return done;
            for (int c = 0; c < TILE_NCORES; c++)
                if (t->hart[c].state != before[c]) return done;
            continue;
        } else if (running == 1 && !t->reference && cp_is_idle(t->cp)) {
            /* Not tile_spin_forget: as long as the core keeps running, only L1, its local RAM and
             * its registers change, and the idle coprocessor's clock (t->touches holds). */
            t->spin_cert = false;
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
            t->cp_lazy = cp_is_idle(t->cp);
            done += hart_run_lockstep(t->hart, TILE_NCORES, until_probe(t, n - done), end_cycle, t);
            tile_cp_sync(t);
            if (done == n || cp_error(t->cp)) return done;
            for (int c = 0; c < TILE_NCORES; c++)
                if (t->hart[c].state != before[c]) return done;
            continue; /* a core was reset and restarted within one cycle: no visible change */
        }
        tile_cycle(t);
        done++;
        if (running == 0 || cp_error(t->cp)) return done;
        for (int c = 0; c < TILE_NCORES; c++)
            if (t->hart[c].state != before[c]) return done;
    }
    return done;
}
