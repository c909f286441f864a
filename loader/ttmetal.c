/* loader/ttmetal.c — the tt-metal host model: boot and kernel launch through the firmware's own
 * mailboxes. ../shared/firmware/README.md and TENSIX.md §7 describe the protocol: what tt-metal's
 * host (MetalContext::initialize_and_launch_firmware, the slow-dispatch launch path) does. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/config.h"
#include "loader/dram_ops.h"
#include "loader/elf.h"
#include "loader/hostio.h"
#include "loader/ttmetal.h"

const uint32_t ttm_init_scratch[TILE_NCORES] = {0x82B0, 0xA2B0, 0xC2B0, 0xD2B0, 0xE2B0};

/* launch_msg_t (kernel_config_msg_t) byte offsets in this build (../shared/firmware/README.md). */
enum {
    LM_KERNEL_CONFIG_BASE = 0,  /* u32[3] */
    LM_SEM_OFFSET = 12,         /* u16[3] */
    LM_LOCAL_CB_OFFSET = 18,    /* u16 */
    LM_REMOTE_CB_OFFSET = 20,   /* u16 */
    LM_RTA_OFFSET = 22,         /* {u16 rta, u16 crta}[5] */
    LM_MODE = 42,               /* u8 */
    LM_KERNEL_TEXT_OFFSET = 44, /* u32[5] */
    LM_LOCAL_CB_MASK = 64,      /* u32 */
    LM_MIN_REMOTE_CB_START_INDEX = 70,
    LM_HOST_ASSIGNED_ID = 72, /* u32 */
    LM_ENABLES = 76,          /* u32: bit0 BRISC, bit1 NCRISC, bit2 the TRISCs */
};

/* How the host lays out the kernel config buffer at MEM_MAP_END: runtime args, CB records,
 * semaphores, then the kernel texts (16-byte aligned). */
enum {
    KC_RTA = 0x000,      /* 64 words per core */
    KC_LOCAL_CB = 0x500, /* 32 records of 16 bytes */
    KC_SEM = 0x700,
    KC_REMOTE_CB = 0x740,
    KC_TEXT = 0x800,
};

#define NUM_CIRCULAR_BUFFERS 32

uint32_t ttm_jal(uint32_t target) {
    /* J-type: imm[20|10:1|11|19:12] rd opcode; rd = x0, opcode JAL (0x6F). */
    return 0x6Fu | (target & 0xFF000u) | ((target >> 11) & 1u) << 20 | ((target >> 1) & 0x3FFu) << 21 |
           ((target >> 20) & 1u) << 31;
}

static void l1_write(tile_t *t, uint32_t addr, const void *src, uint32_t n) {
    memcpy(t->l1 + addr, src, n);
    env_l1_written(t, addr, n);
}
static void l1_u8(tile_t *t, uint32_t a, uint8_t v) { l1_write(t, a, &v, 1); }
static void l1_u16(tile_t *t, uint32_t a, uint16_t v) { l1_write(t, a, &v, 2); }
static void l1_u32(tile_t *t, uint32_t a, uint32_t v) { l1_write(t, a, &v, 4); }

void ttm_write_bank_tables(tile_t *t) {
    /* One buffer, one write: dram_bank_to_noc_xy[2][7], l1_bank_to_noc_xy[2][110] (u16 each),
     * bank_to_dram_offset[7], bank_to_l1_offset[110] (i32, all 0). */
    uint8_t tab[4 * TTM_DRAM_BANKS + 4 * TTM_L1_BANKS + 4 * (TTM_DRAM_BANKS + TTM_L1_BANKS)] = {0};
    size_t o = 0;
    for (int noc = 0; noc < 2; noc++)
        for (unsigned b = 0; b < TTM_DRAM_BANKS; b++, o += 2) {
            unsigned x, y;
            dram_port_xy(b, 0, &x, &y);
            uint16_t v = (uint16_t)(y << 6 | x);
            memcpy(tab + o, &v, 2);
        }
    for (int noc = 0; noc < 2; noc++)
        for (unsigned b = 0; b < TTM_L1_BANKS; b++, o += 2) {
            uint16_t v = (uint16_t)((2 + b % 10) << 6 | (1 + b / 10));
            memcpy(tab + o, &v, 2);
        }
    l1_write(t, MEM_BANK_TO_NOC_SCRATCH, tab, sizeof tab);
    uint8_t lv[32]; /* worker logical column c -> virtual c + 1 (20), row r -> r + 2 (12) */
    for (unsigned c = 0; c < 20; c++)
        lv[c] = (uint8_t)(c + 1);
    for (unsigned y = 0; y < 12; y++)
        lv[20 + y] = (uint8_t)(y + 2);
    l1_write(t, MEM_LOGICAL_TO_VIRTUAL_SCRATCH, lv, sizeof lv);
}

int ttm_boot_stage(run_t *r, char *const fw[TILE_NCORES], char *err, size_t errlen) {
    tile_t *t = r->tile;
    tile_soft_reset_write(t, TTM_SOFT_RESET_ALL);
    for (int c = 0; c < TILE_NCORES; c++)
        if (ldr_elf_load(&r->images, t, c, fw[c], ttm_init_scratch[c], err, errlen) != 0) return -1;
    l1_u32(t, 0, ttm_jal(r->images.images[CORE_BRISC].entry)); /* BRISC always starts at pc 0 */
    l1_u8(t, MEM_GO_MESSAGE_SIGNAL, RUN_MSG_INIT);
    l1_u8(t, MEM_CORE_INFO_LOGICAL_X, t->noc_x);
    l1_u8(t, MEM_CORE_INFO_LOGICAL_Y, t->noc_y);
    ttm_write_bank_tables(t);
    return 0;
}

void ttm_boot_release(run_t *r) { tile_soft_reset_write(r->tile, TTM_SOFT_RESET_BRISC_ONLY); }

int ttm_go_signal(const run_t *r) { return r->tile->l1[MEM_GO_MESSAGE_SIGNAL]; }

static int trisc0_sync(const run_t *r) { return r->tile->l1[MEM_SUBORDINATE_SYNC + 1]; }

/* The kernel images a run has read, by path: a launch reads a file at its first use and every
 * later launch of the same path takes that image (each launch of add1 16 x 32 read its three
 * files again: ~2.4 us of system calls each). Freed at the run's end. */
#define KIMG_MAX (CFG_MAX_LAUNCHES * TILE_NCORES) /* a launch adds at most one a core: never full */
typedef struct {
    struct {
        const char *path; /* the config's string */
        uint8_t *img;
        size_t len;
    } e[KIMG_MAX];
    int n;
} kimg_cache_t;

/* path's image, read at its first use (-1 with err). */
static int kimg_get(kimg_cache_t *kc, const char *path, const uint8_t **img, size_t *len, char *err, size_t errlen) {
    for (int i = 0; i < kc->n; i++)
        if (!strcmp(kc->e[i].path, path)) {
            *img = kc->e[i].img;
            *len = kc->e[i].len;
            return 0;
        }
    uint8_t *m;
    if (ldr_kernel_image(path, &m, len, err, errlen) != 0) return -1;
    kc->e[kc->n].path = path;
    kc->e[kc->n].img = m;
    kc->e[kc->n].len = *len;
    kc->n++;
    *img = m;
    return 0;
}

static void kimg_free(kimg_cache_t *kc) {
    for (int i = 0; i < kc->n; i++)
        free(kc->e[i].img);
    kc->n = 0;
}

/* Write kernel images, runtime args, CB records and launch[0]; then GO. */
static int launch(run_t *r, const cfg_t *c, int index, kimg_cache_t *kc, char *err, size_t errlen) {
    const cfg_launch_t *l = &c->launches[index];
    tile_t *t = r->tile;
    const uint32_t base = l->kernel_config_base;
    uint32_t text = base + KC_TEXT, enables = 0, text_off[TILE_NCORES] = {0};
    /* The config buffer and the kernels must not cover the mailboxes or the firmware text. */
    if (base < MEM_MAP_END) {
        snprintf(err, errlen,
                 "%s: key 'launches[%d].kernel_config_base': 0x%08x..0x%08x overlaps the firmware "
                 "(L1 below 0x%x holds the mailboxes and firmware text)",
                 c->path, index, base, text, MEM_MAP_END);
        return -1;
    }
    for (int k = 0; k < TILE_NCORES; k++) {
        if (!l->kernel[k]) continue;
        size_t len;
        const uint8_t *img;
        if (kimg_get(kc, l->kernel[k], &img, &len, err, errlen) != 0) return -1;
        uint32_t end = text + (uint32_t)len;
        for (int i = 0; i < l->ncbs; i++)
            if (text < l->cbs[i].addr + l->cbs[i].size && l->cbs[i].addr < end) {
                snprintf(err, errlen,
                         "%s: key 'launches[%d].circular_buffers': buffer %d overlaps kernel %s (0x%08x..0x%08x)",
                         c->path, index, l->cbs[i].id, l->kernel[k], text, end);
                return -1;
            }
        if (len > TILE_L1_SIZE || end > TILE_L1_SIZE) {
            snprintf(err, errlen, "%s: kernel does not fit in L1", l->kernel[k]);
            return -1;
        }
        l1_write(t, text, img, (uint32_t)len);
        text_off[k] = text - base;
        text = (end + 15) & ~15u;
        enables |= k == CORE_BRISC ? 1u : k == CORE_NCRISC ? 2u : 4u;
    }
    /* Circular buffers live in free L1: past the kernel texts, clear of the mailboxes and firmware. */
    for (int i = 0; i < l->ncbs; i++) {
        const cfg_cb_t *cb = &l->cbs[i];
        if (cb->addr < MEM_MAP_END) {
            snprintf(err, errlen,
                     "%s: key 'launches[%d].circular_buffers[%d]': overlaps the firmware (L1 below 0x%x holds "
                     "the mailboxes and firmware text)",
                     c->path, index, i, MEM_MAP_END);
            return -1;
        }
        /* The config buffer (runtime args, CB records) is read by the firmware at launch: a
         * buffer over it would be overwritten by its own kernel's data. */
        if (cb->addr < base + KC_TEXT && base < cb->addr + cb->size) {
            snprintf(err, errlen,
                     "%s: key 'launches[%d].circular_buffers[%d]': 0x%08x..0x%08x overlaps the kernel config buffer "
                     "(0x%08x..0x%08x: runtime args and circular buffer records)",
                     c->path, index, i, cb->addr, cb->addr + cb->size, base, base + KC_TEXT);
            return -1;
        }
    }
    /* Runtime args per core; no common runtime args (crta points just past the rtas). */
    for (int k = 0; k < TILE_NCORES; k++)
        for (int i = 0; i < l->nrta[k]; i++)
            l1_u32(t, base + KC_RTA + 0x100u * (uint32_t)k + 4u * (uint32_t)i, l->rta[k][i]);
    /* CB records {addr, size, num_pages, page_size} in bytes; the TRISC firmware converts. */
    uint32_t cb_mask = 0;
    for (int i = 0; i < NUM_CIRCULAR_BUFFERS * 4; i++)
        l1_u32(t, base + KC_LOCAL_CB + 4u * (uint32_t)i, 0);
    for (int i = 0; i < l->ncbs; i++) {
        const cfg_cb_t *cb = &l->cbs[i];
        uint32_t rec = base + KC_LOCAL_CB + 16u * (uint32_t)cb->id;
        l1_u32(t, rec, cb->addr);
        l1_u32(t, rec + 4, cb->size);
        l1_u32(t, rec + 8, cb->num_pages);
        l1_u32(t, rec + 12, cb->page_size);
        cb_mask |= 1u << cb->id;
    }
    /* launch[0]: host-dispatch mode always reads entry 0. */
    const uint32_t lm = MEM_LAUNCH;
    static const uint8_t zero[MEM_LAUNCH_SIZE];
    l1_write(t, lm, zero, MEM_LAUNCH_SIZE);
    for (int i = 0; i < 3; i++) {
        l1_u32(t, lm + LM_KERNEL_CONFIG_BASE + 4u * (uint32_t)i, base);
        l1_u16(t, lm + LM_SEM_OFFSET + 2u * (uint32_t)i, KC_SEM);
    }
    l1_u16(t, lm + LM_LOCAL_CB_OFFSET, KC_LOCAL_CB);
    l1_u16(t, lm + LM_REMOTE_CB_OFFSET, KC_REMOTE_CB);
    for (int k = 0; k < TILE_NCORES; k++) {
        uint16_t rta = (uint16_t)(KC_RTA + 0x100 * k);
        l1_u16(t, lm + LM_RTA_OFFSET + 4u * (uint32_t)k, rta);
        l1_u16(t, lm + LM_RTA_OFFSET + 4u * (uint32_t)k + 2, (uint16_t)(rta + 4 * l->nrta[k]));
        l1_u32(t, lm + LM_KERNEL_TEXT_OFFSET + 4u * (uint32_t)k, text_off[k]);
    }
    l1_u8(t, lm + LM_MODE, DISPATCH_MODE_HOST);
    l1_u32(t, lm + LM_LOCAL_CB_MASK, cb_mask);
    l1_u8(t, lm + LM_MIN_REMOTE_CB_START_INDEX, NUM_CIRCULAR_BUFFERS);
    l1_u32(t, lm + LM_HOST_ASSIGNED_ID, (uint32_t)index);
    l1_u32(t, lm + LM_ENABLES, enables);
    l1_u8(t, MEM_GO_MESSAGE_SIGNAL, RUN_MSG_GO); /* only after the launch message */
    return 0;
}

/* ---- the phased run ------------------------------------------------------------------------- */

typedef enum { PH_BOOT, PH_SETTLE_WAIT3, PH_SETTLE_WAIT0, PH_KERNELS, PH_DONE_WAIT, PH_LAUNCH_SETTLE, PH_IDLE } phase_t;

typedef struct {
    const cfg_t *c;
    phase_t phase;
    int launch;        /* current launch index */
    uint64_t go_cycle; /* when GO was written */
    uint64_t stop_at;  /* >0: end the run at this cycle */
    char *err;
    size_t errlen;
    int failed;
    kimg_cache_t kimg;
} drv_t;

/* The host's operations at a point, in config order, then the tensors due there (hio_at). False
 * when a device refused a write (a NoC request the model cannot do, written by the host): the run
 * ends as a guest fault, saying why. */
static bool host_ops(run_t *r, const cfg_t *c, cfg_at_t at, int launch_index) {
    for (int i = 0; i < c->nhost; i++) {
        const cfg_host_op_t *op = &c->host[i];
        if (op->at != at || (op->launch >= 0 && op->launch != launch_index)) continue;
        if (op->dram && op->is_write) {
            ldr_dram_op(r->tile, op, NULL);
        } else if (op->is_write) {
            uint32_t a = op->addr;
            if (op->file) {
                hio_write_bytes(r->tile, a, op->data, op->bytes); /* placed by hio_prepare */
            } else if (a < TILE_L1_SIZE) {
                l1_write(r->tile, a, &op->value, op->size);
            } else if (!tile_host_write(r->tile, a, op->value)) { /* the address was validated before the run */
                r->exit.code = EXIT_GUEST_FAULT;
                r->exit.reason = "guest_fault";
                bool niu = a - 0xFFB20000u < 0x20000u; /* the NIUs say why (mmio/noc.c) */
                snprintf(r->exit.message, sizeof r->exit.message, "host write of 0x%08x to 0x%08x (%s) refused: %s",
                         op->value, a, tile_region_name(a), niu ? r->tile->noc.error : "the device refused it");
                return false;
            }
        } else {
            for (int k = 0; k < r->nreads; k++) {
                run_read_t *rd = &r->reads[k];
                if (strcmp(rd->name, op->name) != 0 || rd->taken) continue;
                if (op->dram)
                    ldr_dram_op(r->tile, op, rd->val);
                else
                    for (uint32_t w = 0; w < rd->words; w++)
                        tile_host_read(r->tile, rd->addr + 4 * w, &rd->val[w]);
                rd->taken = true;
                break;
            }
        }
    }
    hio_at(r, c, at, launch_index);
    return true;
}

static bool stop_now(run_t *r, const char *why) {
    r->exit.code = EXIT_HALTED;
    r->exit.reason = "completed";
    snprintf(r->exit.message, sizeof r->exit.message, "%s", why);
    return true;
}

/* Arms the end of the run `extra` cycles from now (0: now). */
static bool stop_after(run_t *r, drv_t *d, const char *why) {
    if (!d->c->stop.cycles) return stop_now(r, why);
    d->stop_at = r->tile->cycle + d->c->stop.cycles;
    r->progress.suspended = true; /* the run ends at the stop point, idle firmware or not */
    snprintf(r->exit.message, sizeof r->exit.message, "%s, then %llu more cycles", why,
             (unsigned long long)d->c->stop.cycles);
    d->phase = PH_IDLE;
    return false;
}

static bool start_launch(run_t *r, drv_t *d) {
    if (launch(r, d->c, d->launch, &d->kimg, d->err, d->errlen) != 0) {
        d->failed = 1;
        r->exit.code = EXIT_BAD_INPUT;
        r->exit.reason = "bad_input";
        snprintf(r->exit.message, sizeof r->exit.message, "%s", d->err);
        return true;
    }
    d->go_cycle = r->tile->cycle;
    d->phase = PH_KERNELS;
    return false;
}

static bool drive_phase(run_t *r, drv_t *d);

/* The driver reacts to the mailbox words (the go signal, TRISC0's sync byte) and to cycle counts
 * only, and acts only when it changes phase: a call that leaves its phase, launch and stop point
 * as they were would do the same nothing at every later cycle until one of those words changes
 * or a stop cycle comes. So it tells run_loop to run the tile in batches until then
 * (hook_quiet_until, hook_watch) rather than call it after every cycle; a call that moved on is
 * followed by one at the next cycle, as before. An L1 stop condition is watched every cycle
 * (stop_after re-arms while it matches). */
static bool drive(run_t *r, void *ctx) {
    drv_t *d = ctx;
    phase_t phase = d->phase;
    int launch = d->launch;
    uint64_t stop_at = d->stop_at;
    if (drive_phase(r, d)) return true;
    if (d->phase == phase && d->launch == launch && d->stop_at == stop_at && d->c->stop.kind != STOP_L1 &&
        d->phase != PH_IDLE) {
        uint64_t quiet = UINT64_MAX;
        if (d->c->stop.kind == STOP_CYCLES) quiet = d->c->stop.cycles;
        if (d->stop_at && d->stop_at < quiet) quiet = d->stop_at;
        r->hook_quiet_until = quiet;
        r->hook_watch[0] = MEM_GO_MESSAGE_SIGNAL & ~3u;
        r->hook_watch[1] = (MEM_SUBORDINATE_SYNC + 1) & ~3u;
        r->hook_nwatch = 2;
    }
    return false;
}

static bool drive_phase(run_t *r, drv_t *d) {
    const cfg_t *c = d->c;
    tile_t *t = r->tile;
    switch (c->stop.kind) {
    case STOP_CYCLES:
        if (t->cycle >= c->stop.cycles) return stop_now(r, "stop condition: cycle count reached");
        break;
    case STOP_L1: {
        uint32_t v;
        memcpy(&v, t->l1 + c->stop.addr, 4);
        if ((v & c->stop.mask) == c->stop.value) return stop_after(r, d, "stop condition: L1 word matched");
        break;
    }
    default: break;
    }
    if (d->stop_at && t->cycle >= d->stop_at) {
        r->exit.code = EXIT_HALTED;
        r->exit.reason = "completed";
        return true;
    }
    switch (d->phase) {
    case PH_BOOT: /* BRISC writes the go signal DONE when every subordinate reported ready */
        if (ttm_go_signal(r) == RUN_MSG_DONE) d->phase = PH_SETTLE_WAIT3;
        break;
    case PH_SETTLE_WAIT3: /* then asks TRISC0 to clear the CB stream registers ... */
        if (trisc0_sync(r) == RUN_SYNC_MSG_INIT_SYNC_REGISTERS) d->phase = PH_SETTLE_WAIT0;
        break;
    case PH_SETTLE_WAIT0: /* ... and TRISC0 answers DONE: boot complete and settled */
        if (trisc0_sync(r) != RUN_SYNC_MSG_DONE) break;
        r->boot_cycles = (int64_t)t->cycle;
        if (!host_ops(r, c, AT_AFTER_BOOT, -1)) return true;
        if (c->stop.kind == STOP_BOOT) return stop_after(r, d, "stop condition: boot complete");
        if (c->nlaunches) return start_launch(r, d);
        d->phase = PH_IDLE;
        break;
    case PH_KERNELS: /* all kernels returned: BRISC asks TRISC0 to clear the streams again */
        if (trisc0_sync(r) != RUN_SYNC_MSG_INIT_SYNC_REGISTERS) break;
        if (!host_ops(r, c, AT_KERNELS_DONE, d->launch)) return true;
        d->phase = PH_DONE_WAIT;
        __attribute__((fallthrough)); /* the go signal may already be DONE */
    case PH_DONE_WAIT:
        if (ttm_go_signal(r) != RUN_MSG_DONE) break;
        r->launch_cycles[d->launch] = (int64_t)(t->cycle - d->go_cycle);
        d->phase = PH_LAUNCH_SETTLE;
        __attribute__((fallthrough));
    case PH_LAUNCH_SETTLE: /* TRISC0 has cleared the CB stream registers: host writes now stick */
        if (trisc0_sync(r) != RUN_SYNC_MSG_DONE) break;
        if (!host_ops(r, c, AT_AFTER_LAUNCH, d->launch)) return true;
        if (++d->launch < c->nlaunches) return start_launch(r, d);
        if (c->stop.kind == STOP_LAUNCHES) return stop_after(r, d, "stop condition: every launch complete");
        d->phase = PH_IDLE;
        break;
    default: break;
    }
    /* Idle, only the cycle conditions above can end the run: nothing to watch before them
     * (run_loop then runs the tile in batches). An L1 stop condition is watched every cycle. */
    if (d->phase == PH_IDLE && c->stop.kind != STOP_L1) {
        uint64_t quiet = UINT64_MAX;
        if (c->stop.kind == STOP_CYCLES) quiet = c->stop.cycles;
        if (d->stop_at && d->stop_at < quiet) quiet = d->stop_at;
        r->hook_quiet_until = quiet;
    }
    return false;
}

/* Host reads are declared up front so the report lists them even when a point is never reached. */
static int prepare_reads(run_t *r, const cfg_t *c, char *err, size_t errlen) {
    r->reads = calloc(c->nhost ? (size_t)c->nhost : 1, sizeof *r->reads);
    if (!r->reads) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < c->nhost; i++) {
        const cfg_host_op_t *op = &c->host[i];
        if (op->is_write && op->file) continue; /* checked by hio_prepare */
        uint32_t bad = op->addr;
        bool ok = op->dram || (op->is_write ? (op->addr < TILE_L1_SIZE || mmio_find(op->addr) != NULL)
                                            : run_host_readable(r->tile, op->addr, op->words, &bad));
        if (!ok) {
            snprintf(err, errlen, "%s: key 'host[%d]': address 0x%08x is not reachable by the host (%s)", c->path, i,
                     bad, tile_region_name(bad));
            return -1;
        }
        if (op->is_write) continue;
        run_read_t *rd = &r->reads[r->nreads++];
        snprintf(rd->name, sizeof rd->name, "%s", op->name);
        rd->addr = op->addr;
        rd->words = op->words;
        rd->file = op->file;
        rd->bytes = op->bytes;
        rd->val = calloc(op->words, sizeof *rd->val);
        if (!rd->val) return -1;
    }
    return 0;
}

int ttm_run(run_t *r, const cfg_t *c, uint64_t max_cycles, char *err, size_t errlen) {
    r->ttmetal = true;
    r->boot_cycles = -1;
    r->nlaunches = c->nlaunches;
    for (int i = 0; i < RUN_MAX_LAUNCHES; i++)
        r->launch_cycles[i] = -1;
    if (ttm_boot_stage(r, c->firmware, err, errlen) != 0 || prepare_reads(r, c, err, errlen) != 0 ||
        ldr_dram_prepare(c, err, errlen) != 0)
        return -1;
    if (!host_ops(r, c, AT_BEFORE_BOOT, -1)) return 0;
    ttm_boot_release(r);
    drv_t d = {.c = c, .phase = PH_BOOT, .err = err, .errlen = errlen};
    if (c->stop.kind == STOP_CYCLES) r->progress.suspended = true;
    run_loop(r, max_cycles, drive, &d);
    kimg_free(&d.kimg);
    hio_end(r, c);
    return d.failed ? -1 : 0;
}

int ttm_run_bare(run_t *r, const cfg_t *c, uint64_t max_cycles, char *err, size_t errlen) {
    r->boot_cycles = -1;
    if (prepare_reads(r, c, err, errlen) != 0 || ldr_dram_prepare(c, err, errlen) != 0) return -1;
    if (!host_ops(r, c, AT_BEFORE_BOOT, -1)) return 0;
    for (int i = 0; i < TILE_NCORES; i++)
        if (c->cores[i]) tile_start_core(r->tile, i, r->images.images[i].entry);
    drv_t d = {.c = c, .phase = PH_IDLE, .err = err, .errlen = errlen};
    if (c->stop.kind == STOP_CYCLES) r->progress.suspended = true;
    run_loop(r, max_cycles, c->stop.kind == STOP_HALTED ? NULL : drive, &d);
    hio_end(r, c);
    return 0;
}
