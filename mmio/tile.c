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
    t->l1 = calloc(1, TILE_L1_SIZE);
    /* calloc: the 6 MiB of records cost RSS only for the pages of L1 that hold code that ran. */
    if (!t->reference) t->pd = calloc(TILE_L1_SIZE / 4, sizeof(hart_pd_t));
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
    t->ctl.regs[0x1B0 / 4] &= ~reset_bits[c];
    hart_start(&t->hart[c], pc);
    t->started[c] = true;
}

void tile_soft_reset_write(tile_t *t, uint32_t val) {
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

void tile_cycle(tile_t *t) {
    for (int c = 0; c < TILE_NCORES; c++) {
        hart_t *h = &t->hart[c];
        if (h->state != HART_RUNNING) continue;
        if (t->reference)
            hart_step(h);
        else
            hart_step_fast(h);
    }
    cp_cycle(t->cp);
    t->cycle++;
}

/* ---- running fast -------------------------------------------------------------------------------
 * Lock-step (tile_cycle) is the model: in each cycle the harts step in core order, then the
 * coprocessor. tile_run keeps it exactly, two ways:
 *  - Alone: a hart may run many cycles in one go when nothing else can see or change what it
 *    touches in the meantime: it is the only running hart (the others cannot step, and only a
 *    running hart's MMIO store can start them) and the coprocessor is idle (an idle coprocessor
 *    makes no STOREREG writes and changes no state a hart could read). The hart then treats L1
 *    and its local RAM as private and yields before anything else (MMIO, CSRs: hart_run_alone),
 *    which runs in an ordinary lock-step cycle. The coprocessor's idle cycles run afterwards:
 *    with nothing queued, when they run changes nothing.
 *  - Otherwise the very lock-step schedule, but in one call for many cycles (hart_run_lockstep):
 *    the five harts' turns in core order, then end_cycle below, which is the rest of
 *    tile_cycle. */

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
        if (running == 1 && !t->reference && cp_is_idle(t->cp)) {
            uint64_t k = hart_run_alone(&t->hart[alone], n - done);
            cp_advance_idle(t->cp, k);
            t->cycle += k;
            done += k;
            if (t->hart[alone].state != HART_RUNNING) return done;
            if (done == n) return done;
            /* It yielded before an access to the tile: that cycle runs in lock-step below. */
        } else if (running > 0 && !t->reference) {
            /* Returns after a cycle in which a hart stopped (the group sees it), a core was
             * started or reset (harts_changed) or the coprocessor failed: as below, the caller
             * then sees that cycle's state. */
            t->harts_changed = false;
            t->cp_lazy = cp_is_idle(t->cp);
            done += hart_run_lockstep(t->hart, TILE_NCORES, n - done, end_cycle, t);
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
