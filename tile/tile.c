/* tile/tile.c — creating a tile, and starting and stopping its cores (SOFT_RESET_0). */
#include <stdlib.h>
#include <string.h>

#include "tile/tile.h"

const char *const tile_core_names[TILE_NCORES] = {"BRISC", "NCRISC", "TRISC0", "TRISC1", "TRISC2"};

/* Local data RAM sizes (dev_mem_map.h: MEM_BRISC/NCRISC_LOCAL_SIZE 8K, MEM_TRISC_LOCAL_SIZE 4K). */
static const uint32_t ldm_sizes[TILE_NCORES] = {0x2000, 0x2000, 0x1000, 0x1000, 0x1000};

/* SOFT_RESET_0 bit of each core (SoftReset.md). */
static const uint32_t reset_bits[TILE_NCORES] = {1u << 11, 1u << 18, 1u << 12, 1u << 13, 1u << 14};

/* The coprocessor reaches MMIO (STOREREG/LOADREG) as the host does, and L1 directly (its datapath):
 * its writes there drop decoded code and the idle fast-forward's proof, as the host's do. */
static bool cp_mmio_load(void *ctx, uint32_t addr, uint32_t *val) { return tile_host_read(ctx, addr, val); }
static bool cp_mmio_store(void *ctx, uint32_t addr, uint32_t val) { return tile_host_write(ctx, addr, val); }
static void cp_l1_written(void *ctx, uint32_t addr, uint32_t len) { env_l1_written(ctx, addr, len); }

tile_t *tile_create(const tile_opts_t *o) {
    tile_t *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->reference = o && o->reference;
    t->spin.on = !t->reference && !(o && o->no_spin);
    t->l1 = calloc(1, TILE_L1_SIZE);
    /* calloc: the 6 MiB of records cost RSS only for the pages of L1 that hold code that ran. */
    if (!t->reference) t->pd = calloc(TILE_L1_SIZE / 4 + 1, sizeof(hart_pd_t)); /* + 1: see hart_t.pd */
    bool noc_ok = noc_init(&t->noc);
    for (int i = 0; i < NOC_NIUS; i++)
        t->noc.niu[i].writes = &t->dev_writes; /* hart_t.dev_writes */
    t->dram = dram_create();
    t->streams = calloc(1, 0x40000);
    cp_env_t env = {.ctx = t,
                    .mmio_load = cp_mmio_load,
                    .mmio_store = cp_mmio_store,
                    .l1 = t->l1,
                    .l1_size = TILE_L1_SIZE,
                    .l1_written = cp_l1_written};
    t->cp = cp_create(&env);
    if (t->cp) cp_set_stepwise(t->cp, t->reference);
    if (t->cp) cp_count_sem_moves(t->cp, &t->dev_writes); /* a TRISC parked on a semaphore (hart_t.dev_writes) */
    if (t->cp) cp_count_errors(t->cp, &t->l1_writes);     /* the end of a cycle looks (tile_end_looks) */
    mmio_pages_fill(t->mmio_page);
    bool ok = t->l1 && noc_ok && t->dram && t->streams && t->cp && (t->reference || t->pd);
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
        h->pd_pages = t->pd ? t->pd_pages : NULL;
        h->peers = t->pd ? t->hart : NULL; /* told of every dropped record (hart_pd_dropped) */
        h->npeers = t->pd ? TILE_NCORES : 0;
        h->l1_writes = &t->l1_writes;
        h->dev_writes = &t->dev_writes;
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
    for (int c = 0; c < TILE_NCORES; c++)
        free(t->ldm[c]);
    free(t->streams);
    noc_free(&t->noc);
    dram_destroy(t->dram);
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
            t->l1_writes++; /* (the end of the cycle looks: tile_end_looks) */
        } else if (!(old & b) && (val & b)) {
            hart_reset(&t->hart[c]);
            t->harts_changed = true;
            t->l1_writes++;
        }
    }
}
