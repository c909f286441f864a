/* tile/tile.h — one Blackhole Tensix tile: five harts, L1, their local data RAMs, the Tensix
 * coprocessor and the memory-mapped devices, all owned by one tile_t (no globals, so two tiles can
 * live in one process).
 *
 * Time: one global cycle counter. In each cycle every running hart retires at most one
 * instruction, in the fixed order BRISC, NCRISC, TRISC0, TRISC1, TRISC2, and then the coprocessor
 * advances one cycle. Every run is therefore deterministic.
 */
#ifndef TTEMU_TILE_TILE_H
#define TTEMU_TILE_TILE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/hart.h"
#include "coproc/cp.h"
#include "mmio/dram.h"
#include "mmio/noc.h"
#include "tile/spin.h"

enum { CORE_BRISC = 0, CORE_NCRISC, CORE_TRISC0, CORE_TRISC1, CORE_TRISC2, TILE_NCORES };
_Static_assert(TILE_NCORES == SPIN_CORES, "tile/spin.h sizes its state for five cores");

#define TILE_L1_SIZE   0x180000u /* 1536 KiB, shared by all cores (BabyRISCV/README.md) */
#define TILE_LDM_MAX   0x2000u   /* BRISC/NCRISC 8 KiB; TRISCs 4 KiB */
#define TILE_MAX_WATCH 4         /* L1 words tile_run can watch (tile_watch_arm) */
/* The MMIO devices lie in 0xFFB00000..0xFFEFFFFF, in whole 4 KiB pages (mmio/bus.c). */
#define TILE_MMIO_PAGE_BASE 0xFFB00000u
#define TILE_MMIO_PAGES     0x400u

/* SOFT_RESET_0 (SoftReset.md): bit 11 BRISC, 12..14 TRISC0..2, 18 NCRISC; reset value 0x47800. */
#define SOFT_RESET_0_RESET_VALUE 0x47800u

/* One device on the address map. off is relative to base; size is 1, 2 or 4. h is the accessing
 * hart, or NULL for the coprocessor (STOREREG/LOADREG) and the host (loader, peeks), which see
 * the map as BRISC does but without per-core restrictions. */
typedef struct tile tile_t;
typedef struct {
    const char *name;
    uint32_t base, size;
    mem_res_t (*read)(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t *val);
    mem_res_t (*write)(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t val);
    /* For a hart that may park on a load from the device (env_pure_word): the word an aligned
     * 4-byte load by h at off returns exactly, changing nothing but a note of the read (then
     * *noted is set and polled, given the cycle of the last such read, leaves the note when the
     * hart settles), or NULL. NULL hooks: no load from the device is such a word. */
    const uint32_t *(*pure_word)(tile_t *t, const hart_t *h, uint32_t off, bool *noted);
    void (*polled)(tile_t *t, const hart_t *h, uint32_t off, uint64_t cycle);
    /* Every write of the storage pure_word's words are kept in bumps tile_t.dev_writes. */
    bool counted;
    /* The device reads or changes the coprocessor (its pushes, registers, semaphores, config): a
     * hart's access brings the coprocessor up to the tile's cycle first (tile_cp_sync). The others
     * (the NIUs, the stream registers, the tile's own registers, the local RAMs) are not read or
     * written by the coprocessor's owed cycles: those are idle or quiet, which issue nothing
     * (no LOADREG or STOREREG) and hold no latched STREAMWAIT (gate.c: a stream wait is never a
     * repeatable hold, so no quiet stretch begins under one). So a hart's access to them leaves
     * the owed cycles owed; what the NoC does to a register reaches the coprocessor as the host's
     * access does (tile_host_write), which syncs it. */
    bool reaches_cp;
} mmio_dev_t;

/* Tile control / debug registers (0xFFB12000) and PIC page (0xFFB13000): mmio/tilectl.c. */
typedef struct {
    uint32_t regs[0x1000 / 4]; /* plain storage for the registers without side effects */
    uint32_t pic[0x1000 / 4];
    uint32_t wall_clock_hi_latch;
} tilectl_t;

typedef struct tile {
    uint8_t *l1;
    uint8_t *ldm[TILE_NCORES];
    uint32_t ldm_size[TILE_NCORES];
    hart_t hart[TILE_NCORES];
    hart_pd_t *pd;                        /* L1 decode cache shared by the harts; NULL on the reference path */
    uint8_t pd_pages[TILE_L1_SIZE >> 12]; /* its pages that ever held a record (hart_t.pd_pages) */
    bool reference;                       /* the reference path: hart_step only, one cycle at a time */
    bool started[TILE_NCORES];            /* has left reset at least once */
    cp_t *cp;
    uint64_t cycle;
    uint64_t progress;  /* MMIO stores that completed and non-hart L1 writes (deadlock detection) */
    bool harts_changed; /* a SOFT_RESET_0 write started or stopped a core (tile_run returns) */
    /* Lazy coprocessor (tile_run): its cycles at the ends of the tile's cycles before cp_owe_until
     * change nothing anyone else could see before the next access to it (an idle coprocessor's,
     * a quiet stretch's: cp_quiet_left), so they are owed rather than run: those so far are the
     * tile's cycles the coprocessor has not run (cycle - cp_cycles, tile_cp_lag; both clocks count
     * every cycle of the tile from 0, and only owing keeps them apart). tile_cp_sync pays them
     * (cp_advance_to) before anything can look at it; 0: nothing owed (the clocks alike), and
     * none of the next cycles may be. */
    uint64_t cp_owe_until;
    uint64_t cp_owed_idle, cp_owed_quiet; /* cycles owed and paid so far, over the run (TTEMU_STATS) */
    /* Bumped by everything that may change the tile other than a lone core's run that leaves it
     * running (tile_run): with it unchanged, run/run.c's progress check knows its fingerprint
     * (hart states, MMIO stores, the coprocessor) is too and need not recompute it. */
    uint64_t touches;
    tile_spin_t spin; /* the idle fast-forward (tile/spin.c) */
    /* Watched L1 words (tile_watch_arm): tile_run returns after a cycle at the end of which one
     * of them holds another value than when armed (watch_hit). Lets a caller that only reacts
     * to those words (the tt-metal host's mailboxes) run the tile in batches. */
    unsigned nwatch;
    uint32_t watch_addr[TILE_MAX_WATCH], watch_val[TILE_MAX_WATCH];
    bool watch_hit;
    /* Bumped by every write into L1 but a lone core's (hart_t.l1_writes; env_l1_written for
     * everything but the harts): with it at watch_seen, L1 is as at the last look, which found
     * no watched word changed (or watched none), so tile_watch_changed answers no without a
     * compare. A look that found one changed leaves watch_seen at UINT64_MAX, which the count
     * never reaches: the next look compares again (and finds the same while L1 is unwritten).
     * Bumped too when harts_changed is set and when the coprocessor records its error
     * (cp_count_errors): the end of a cycle asks those two only when it looks (tile/sched.c
     * tile_end_looks). */
    uint64_t l1_writes, watch_seen;
    /* Bumped by every write of the NIUs' counters and the stream registers and every move of a
     * semaphore (the coprocessor's sync_t.moves) (hart_t.dev_writes). */
    uint64_t dev_writes;
    /* t->cycle after the last end of a cycle that was not end_cycle's own lines and left the
     * next cycle owed (tile/sched.c end_cycle_owed, end_cycle_full): end_cycles_asleep needs the
     * last end to have been those lines. */
    uint64_t end_slow_at;
    /* Harts whose stalled access waits for the coprocessor (hart_t.blocked, tile_block): what
     * each waits for, checked again at the end of a cycle that may have lifted it
     * (tile_blocks_check). */
    uint8_t blocked_mask;
    uint8_t block_kind[TILE_NCORES], block_thread[TILE_NCORES];
    /* What can release them: the FIFO each push waits for (block_bit: CP_CYCLE_FREED's bit; 0 for
     * a hart waiting for a thread), all of them (block_wake, with TILE_WAKE_ASK while block_sync
     * is not 0: one test of it with the cycle's freed FIFOs finds the commonest end of a cycle,
     * nothing to ask), and the harts waiting for a thread (block_sync, asked after every cycle:
     * bit t, one waits for thread t to go idle, all of those asked in one call, cp_idle_threads;
     * TILE_SYNC_MOP, one waits for a MOP expander). Left over from a hart released another way,
     * a bit only costs a look. */
    uint8_t block_bit[TILE_NCORES];
    uint8_t block_wake;
    uint8_t block_sync;

    uint8_t mmio_page[TILE_MMIO_PAGES]; /* the device map by 4 KiB page (mmio_pages_fill) */
    tilectl_t ctl;
    noc_t noc;                 /* the NIUs of NOC0 and NOC1, packets in flight (mmio/noc.c) */
    dram_t *dram;              /* the DRAM channels, the NoC's other endpoint (mmio/dram.c) */
    uint32_t *streams;         /* 64 overlay stream blocks of 4 KiB (mmio/stream.c) */
    uint32_t tdma[0x1000 / 4]; /* TDMA-RISC registers (mmio/tdma.c) */
    uint8_t noc_x, noc_y;      /* this tile's NoC coordinates (NOC_NODE_ID) */
} tile_t;

extern const char *const tile_core_names[TILE_NCORES];

/* How a tile runs; results are the same either way (test/sh/t_fastpath.sh). NULL: the fast path
 * with the idle fast-forward. The command sets these from TTEMU_REFERENCE / TTEMU_SPIN (docs/cli.md). */
typedef struct {
    bool reference; /* hart_step, one cycle at a time: no decode cache, no run-ahead */
    bool no_spin;   /* the fast path without the idle fast-forward */
} tile_opts_t;

tile_t *tile_create(const tile_opts_t *o);
void tile_destroy(tile_t *t);
/* One cycle of the whole tile: each running hart executes (at most) one instruction, in core
 * order, then the coprocessor advances one cycle. */
void tile_cycle(tile_t *t);
/* Up to n (>= 1) cycles, with results identical to n calls of tile_cycle. Returns the cycles
 * run: fewer than n when, after some cycle, a hart's state changed (it halted, faulted, hung,
 * left or entered reset) or no hart is running, so a caller that checks the end of the run
 * between calls sees every state it would see checking after every cycle. While exactly one
 * hart runs and the coprocessor is idle, that hart runs ahead many cycles in one call. */
uint64_t tile_run(tile_t *t, uint64_t n);
/* Watch the n (<= TILE_MAX_WATCH) aligned L1 words at addr[]: until tile_watch_disarm, tile_run
 * also returns after any cycle at the end of which one of them differs from its value now (and
 * sets t->watch_hit). While armed, no hart runs ahead alone (its stores would be seen late); the
 * idle fast-forward is kept (it proves memory unchanged). n = 0 disarms. */
void tile_watch_arm(tile_t *t, const uint32_t *addr, unsigned n);
static inline void tile_watch_disarm(tile_t *t) { t->nwatch = 0; }
/* Has a watched word changed (at the end of a cycle)? Only compared when L1 was written since
 * the last look or that look found one changed (l1_writes, watch_seen): no hart runs alone while
 * armed, so every writer counted. Disarmed (nwatch 0), the answer is no, also without a look
 * while L1 is unwritten: the cycle's end asks without asking nwatch first. */
static inline bool tile_watch_changed(tile_t *t) {
    if (t->l1_writes == t->watch_seen) return false;
    t->watch_seen = t->l1_writes;
    for (unsigned i = 0; i < t->nwatch; i++) {
        uint32_t v;
        memcpy(&v, t->l1 + t->watch_addr[i], 4);
        if (v != t->watch_val[i]) {
            t->watch_seen = UINT64_MAX;
            return t->watch_hit = true;
        }
    }
    return false;
}
/* Take core c out of reset at pc (clears its SOFT_RESET_0 bit). */
void tile_start_core(tile_t *t, int c, uint32_t pc);
/* SOFT_RESET_0 written: start or stop cores on its 1→0 / 0→1 transitions (mmio/tilectl.c). */
void tile_soft_reset_write(tile_t *t, uint32_t val);

/* The device map (mmio/bus.c). */
const mmio_dev_t *mmio_find(uint32_t addr);
/* The tile's page table of that map (tile_t.mmio_page): device index + 1 per 4 KiB page from
 * TILE_MMIO_PAGE_BASE, 0 where none. */
void mmio_pages_fill(uint8_t page[TILE_MMIO_PAGES]);
/* Host access (loader, peeks, STOREREG): L1, the local-RAM aliases and MMIO, no core checks.
 * Return false on an address nothing claims. */
bool tile_host_read(tile_t *t, uint32_t addr, uint32_t *val);
bool tile_host_write(tile_t *t, uint32_t addr, uint32_t val);
/* Describe addr for messages: "L1", "BRISC local RAM", a device name, or "unmapped". */
const char *tile_region_name(uint32_t addr);

/* Helpers for the device files in mmio/: fail an access with a message in h->fault. */
mem_res_t mmio_fault(hart_t *h, fault_kind_t kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
mem_res_t mmio_hang(hart_t *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Plain word storage, the word a device keeps for the register accessed: 32-bit accesses only
 * (another size faults, naming dev). */
mem_res_t mmio_storage_read(uint32_t *word, hart_t *h, const char *dev, unsigned size, uint32_t *val);
mem_res_t mmio_storage_write(uint32_t *word, hart_t *h, const char *dev, unsigned size, uint32_t val);

/* Bring the coprocessor up to the tile's cycle, before any access that reaches it (env_*, host
 * accesses) and whenever tile_run returns: its owed cycles change nothing a hart could see until
 * then, and paying them (cp_advance_to) is exactly that many cp_cycle calls. The access may change what the next
 * cycles do: none is owed until the coprocessor says so again. */
static inline void tile_cp_sync(tile_t *t) {
    if (!t->cp_owe_until) return;
    uint64_t paid = cp_advance_to(t->cp, t->cycle);
    *(t->cp_owe_until == UINT64_MAX ? &t->cp_owed_idle : &t->cp_owed_quiet) += paid;
    t->cp_owe_until = 0;
}
/* The cycles the tile owes its coprocessor now (tile_t.cp_owe_until). */
static inline uint64_t tile_cp_lag(const tile_t *t) { return t->cycle - cp_cycles(t->cp); }

/* Drop the idle fast-forward's proof: memory, a device or a core may have changed. Everything
 * that writes the tile other than a core's pure instruction must call it (tile/, mmio/bus.c). */
static inline void tile_spin_forget(tile_t *t) {
    t->spin.cert = false;
    t->touches++;
}

/* The end of a cycle, after the cycle counter moved on: the NoC's stages due by now (mmio/noc.c).
 * Every way of running cycles calls it at the same point, so all of them see each packet's
 * effects at the same cycle; a packet in flight keeps the tile from being idle. */
static inline void tile_noc_tick(tile_t *t) {
    if (t->noc.next_at <= t->cycle) noc_tick(t);
}

/* A hart's access stalled on what only the coprocessor's cycles can lift (mmio/instrn.c,
 * mmio/pcbuf.c): its FIFO full, or a tensix_sync read while thread th (or its MOP expander) is
 * busy. Other harts' turns in the next cycle can only push more (the coprocessor is never reset
 * but with the tile), so if it still holds after this cycle's end, the retry in the next cycle
 * would stall again: the group's turn skips it (hart_t.blocked). */
typedef enum { TILE_BLOCK_PUSH = 1, TILE_BLOCK_PUSH_AFTER_MOP, TILE_BLOCK_SYNC, TILE_BLOCK_SYNC_MOP } tile_block_t;
enum { TILE_SYNC_MOP = 1u << CP_THREADS }; /* tile_t.block_sync: a hart waits for a MOP expander */
/* tile_t.block_wake: block_sync is not 0 (above the FIFOs' bits, CP_CYCLE_FREED's). */
enum { TILE_WAKE_ASK = 1u << 7 };
_Static_assert(2 * CP_THREADS <= 7, "TILE_WAKE_ASK above the FIFOs' bits");
static inline void tile_block(tile_t *t, hart_t *h, tile_block_t kind, unsigned th) {
    /* (A hart's id indexes tile_t.hart: the bound says so to gcc, whose link-time inlining (Makefile
     * LTO) otherwise sees a store past block_kind.) */
    if (!h || (unsigned)h->id >= TILE_NCORES) return;
    t->block_kind[h->id] = (uint8_t)kind;
    t->block_thread[h->id] = (uint8_t)th;
    t->blocked_mask |= (uint8_t)(1u << h->id);
    /* (what wakes it: its FIFO's bit, or TILE_WAKE_ASK for a hart waiting for a thread) */
    uint8_t wake = kind == TILE_BLOCK_PUSH             ? (uint8_t)(1u << th)
                   : kind == TILE_BLOCK_PUSH_AFTER_MOP ? (uint8_t)(1u << (CP_THREADS + th))
                                                       : (uint8_t)TILE_WAKE_ASK;
    uint8_t bit = (uint8_t)(wake & ~TILE_WAKE_ASK);
    t->block_bit[h->id] = bit;
    t->block_wake |= wake;
    /* Its FIFO is full now: a free from before would only make tile_blocks_check look in vain. */
    if (bit) cp_fifo_seen_full(t->cp, bit);
    if (kind == TILE_BLOCK_SYNC) t->block_sync |= (uint8_t)(1u << th);
    if (kind == TILE_BLOCK_SYNC_MOP) t->block_sync |= TILE_SYNC_MOP;
    /* The stalled instruction, fetched from L1 (a unit test's push may come from a pc elsewhere:
     * such a hart never runs in a group, which alone reads the word, block_holds). */
    if (h->pc < h->l1_size) memcpy(&h->block_word, h->l1 + h->pc, 4);
    h->blocked = true;
}
/* At the end of a cycle: unblock the harts whose condition no longer holds (tile/sched.c).
 * freed: the FIFOs cp_cycle's status says were freed (CP_CYCLE_FREED, shifted down). */
void tile_blocks_check(tile_t *t, uint32_t freed);

/* Thread (0..2) of a TRISC hart, or -1. */
static inline int tile_trisc_thread(const hart_t *h) { return (h && h->id >= CORE_TRISC0) ? h->id - CORE_TRISC0 : -1; }

#endif
