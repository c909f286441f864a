/* run/run.h — one run of a tile: options, the cycle loop, its end conditions (progress detection
 * included), observers, host reads and peeks, and its outcome. */
#ifndef TTEMU_RUN_RUN_H
#define TTEMU_RUN_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "run/images.h"
#include "tile/tile.h"

/* Exit codes (docs/cli.md). Scripts depend on them: never renumber. */
enum {
    EXIT_HALTED = 0,        /* every started core halted */
    EXIT_DEADLOCK = 1,      /* nothing can make progress any more */
    EXIT_MAX_CYCLES = 2,    /* --max-cycles reached */
    EXIT_GUEST_FAULT = 3,   /* the guest did something the tile does not allow */
    EXIT_BAD_INPUT = 4,     /* bad command line, file or config */
    EXIT_MISMATCH = 5,      /* the run succeeded but a tensor differs from its expectation (docs/tensors.md) */
    EXIT_UNIMPLEMENTED = 6, /* the guest used something Blackhole has and ttemu does not model yet */
};

#define RUN_MAX_PEEKS               64
#define RUN_DEFAULT_MAX_CYCLES      100000000ull
#define RUN_DEFAULT_DEADLOCK_WINDOW 100000ull

typedef struct {
    uint32_t addr, words;
} run_peek_t;

typedef struct {
    const char *elf[TILE_NCORES];
    uint64_t max_cycles;
    const char *report_path;
    run_peek_t peeks[RUN_MAX_PEEKS];
    int npeeks;
    bool quiet;
    uint64_t deadlock_window; /* --deadlock-window; 0 disables progress detection */
} run_opts_t;

typedef struct {
    int code;
    /* "halted", "completed", "deadlock", "max_cycles", "stopped" (the panel or the debugger ended the run:
     * docs/ui.md, docs/gdb.md), "guest_fault", "bad_input", "mismatch", "unimplemented" */
    const char *reason;
    /* On "guest_fault" and "unimplemented": what kind of error (a core's fault kind, "illegal",
     * "unmapped", ..., or the coprocessor's category, "undefined_behavior", "unimplemented", ...);
     * NULL otherwise. */
    const char *category;
    char message[512];
} run_exit_t;

/* The category name of a core's fault kind: "illegal", "ecall", "fetch", "unmapped", "access",
 * "misaligned", "amo", "csr", "unimplemented". */
const char *run_fault_category(fault_kind_t kind);

/* A host read taken at a point of the run (run configs' "host" reads). */
typedef struct {
    char name[48];
    uint32_t addr, words;
    uint32_t *val;
    bool taken;
    const char *file; /* saved to this file after the run (the first `bytes` bytes): reported as such */
    uint32_t bytes;
} run_read_t;

#define RUN_MAX_LAUNCHES 16

/* Progress detection (run/run.c; docs/debugging-stalls.md). Sampled every RUN_PROGRESS_PERIOD
 * cycles: a cheap fingerprint of everything but memory (MMIO stores, hart states, coprocessor
 * pushes/issues/semaphores/mutexes); once it has not changed for half the window, L1 and the
 * local RAMs are snapshotted and compared when the window is over. */
#define RUN_PROGRESS_PERIOD 1009 /* prime: PC samples of a spin loop do not alias */
#define RUN_REG_SAMPLES     8
typedef struct {
    uint64_t window; /* 0: off */
    bool suspended;  /* a run config's stop point is armed: the run ends there, not in deadlock */
    uint64_t next_check;
    uint64_t fp;         /* fingerprint at the last check */
    uint64_t fp_touches; /* tile_t.touches then (fp_valid: still fp while it holds) */
    bool fp_valid;
    bool hooked;          /* run_loop has a hook: it may change the tile between checks */
    uint64_t quiet_since; /* first check with the current fingerprint */
    uint64_t mem_since;   /* cycle of the memory snapshot; 0 none */
    uint8_t *snap;        /* L1 then each core's local RAM */
    size_t snap_size;
    /* PCs sampled while quiet, per core */
    uint32_t pc_lo[TILE_NCORES], pc_hi[TILE_NCORES];
    bool pc_valid[TILE_NCORES];
    /* Register file hashes seen at sampled PCs while quiet: the same pc with other register
     * values means the core computes (progress) rather than spins. */
    uint32_t rh_pc[TILE_NCORES][RUN_REG_SAMPLES];
    uint64_t rh_hash[TILE_NCORES][RUN_REG_SAMPLES];
    uint8_t rh_n[TILE_NCORES], rh_next[TILE_NCORES];
    /* Per core, the cycle of the last check that found its registers changed at such a pc (0
     * never): the diagnosis says a core computes, not spins, when the quiet period began there. */
    uint64_t regs_changed_at[TILE_NCORES];
} run_progress_t;

/* An observer watches a run from outside it (the event trace, the panel, the gdb stub). after() is
 * called once before the first cycle and then whenever the cycles it asked for have run; it
 * returns how many cycles may run before its next call (>= 1), or 0 to end the run (having set
 * r->exit). end() is called once when the run is over, after the diagnosis. Observers only read
 * the tile (a debugger's writes are its user's inputs), and tile_run(n) equals n single cycles, so
 * a run's results never depend on its observers. */
typedef struct run run_t;
typedef struct {
    uint64_t (*after)(run_t *r, void *ctx);
    void (*end)(run_t *r, void *ctx);
    void *ctx;
    /* Also call after() at the end of any cycle in which a core's state changed (it halted, hung,
     * faulted, left or entered reset), whatever it asked for: a debugger reports an ebreak at
     * the very cycle. tile_run already returns after such a cycle, so batches stay as long. */
    bool on_core_change;
    uint64_t next; /* cycle of the next after() call (run_loop's bookkeeping) */
    uint32_t seen; /* the cores' states after the last call (run_loop's bookkeeping) */
} run_observer_t;
#define RUN_MAX_OBSERVERS 4

struct run {
    tile_t *tile;
    img_set_t images;
    run_exit_t exit;
    /* tt-metal mode (run configs with "firmware"); -1 where not reached */
    bool ttmetal;
    int64_t boot_cycles;                     /* cycle at which boot completed and settled */
    int64_t launch_cycles[RUN_MAX_LAUNCHES]; /* cycles from GO to the go signal back at DONE */
    int nlaunches;                           /* launches configured */
    run_read_t *reads;                       /* as many as the config asks for */
    int nreads;
    /* --peek / "peek": read once when the run ends (run_take_peeks), then reported */
    run_read_t peeks[RUN_MAX_PEEKS];
    int npeeks;
    run_progress_t progress;
    struct cJSON *diag_json;    /* the diagnosis on deadlock or timeout (debug/diag.c), or NULL */
    struct cJSON *tensors_json; /* the named tensors and their comparisons (app/report.c), or NULL */
    char *diag_text;
    /* Called once when the run ends in deadlock or at its cycle limit, before the observers'
     * end(): the command sets it to the stall diagnosis (debug/diag.c diag_build), which fills
     * diag_json and diag_text. NULL: no diagnosis. */
    void (*explain)(run_t *r);
    run_observer_t obs[RUN_MAX_OBSERVERS];
    int nobs;
    /* Set by the run hook during a call: calls at any cycle below this would do nothing and
     * return false, so run_loop may run the tile in batches up to it instead of calling the
     * hook after every cycle. Cleared before each call (0: call after every cycle). */
    uint64_t hook_quiet_until;
    /* Also set by the hook during a call, with hook_quiet_until: the calls before it would do
     * nothing as long as these L1 words keep their values, so run_loop runs the tile in batches
     * that end after any cycle that changes one (tile_watch_arm). Cleared before each call. */
    uint32_t hook_watch[TILE_MAX_WATCH];
    unsigned hook_nwatch;
};

/* Called after every cycle (or, when it set r->hook_quiet_until, at least at that cycle and
 * after any cycle that changes a word of r->hook_watch);
 * returns true to end the run (having set r->exit). */
typedef bool (*run_hook_t)(run_t *r, void *ctx);

/* Parse "ADDR[:WORDS]" (decimal or 0x hex; ADDR 4-byte aligned, 1..4096 words, default 1).
 * Shared by --peek and run configs' "peek". */
bool run_parse_peek(const char *s, run_peek_t *p);
/* The one number syntax of flags and configs: decimal or 0x hex, the whole string, no blanks or
 * sign, at most max. */
bool run_parse_uint(const char *s, uint64_t max, uint64_t *out);
/* Can the host read words 32-bit words from addr? If not, *bad is the first address it cannot. */
bool run_host_readable(tile_t *t, uint32_t addr, uint32_t words, uint32_t *bad);
/* Declare the peeks (validated: 0, or -1 with err naming the first unreadable address). */
int run_add_peeks(run_t *r, const run_peek_t *peeks, int n, char *err, size_t errlen);
/* Take the peeks' words from the tile, once, at the end of the run. */
void run_take_peeks(run_t *r);

/* Add an observer (before run_loop): returns it (to set on_core_change), or NULL when
 * RUN_MAX_OBSERVERS are already set. */
run_observer_t *run_observe(run_t *r, uint64_t (*after)(run_t *, void *), void (*end)(run_t *, void *), void *ctx);

/* Run the tile until an end condition (or the hook says so); fills r->exit. */
void run_loop(run_t *r, uint64_t max_cycles, run_hook_t hook, void *ctx);
void run_free(run_t *r);

/* "main+0x14" or "" for core c's pc (its image's symbols). */
void run_symbol(const run_t *r, int c, uint32_t pc, char *buf, size_t len);

#endif
