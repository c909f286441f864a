/* debug/trace.h — the event trace of a run (docs/tracing.md): a run observer samples the tile
 * after every cycle of the traced window and records what changed; at the end of the run the
 * recording is written as a Chrome/Perfetto trace-event JSON file and/or a VCD for GTKWave.
 *
 * Signals, one value each per cycle:
 *   per core:      state (running, stalled on a full FIFO / tensix_sync / other, halted...), pc
 *   per thread:    gate hold cause, its detail and the held word, the latched wait's opcode,
 *                  FIFO#1..#3 fill, MOP expander busy, replay expander busy
 *   per semaphore: Value, Max
 *   per mutex:     owner (thread, or free)
 *   per NIU:       NoC packets in flight: reads, writes (plain and inline), atomics
 * and instant events: words pushed into a thread, Sync Unit instructions leaving a gate
 * (SEMINIT/SEMPOST/SEMGET/SEMWAIT/STALLWAIT/ATGETM/ATRELM), RISC-V semaphore-window stores, NoC
 * requests issued. */
#ifndef TTEMU_DEBUG_TRACE_H
#define TTEMU_DEBUG_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "run/run.h"

typedef struct {
    const char *json_path; /* --trace: Perfetto/Chrome trace-event JSON, or NULL */
    const char *vcd_path;  /* --trace-vcd: value change dump, or NULL */
    uint64_t start;        /* --trace-start: first cycle traced (default 0) */
    uint64_t stop;         /* --trace-stop: no cycle at or after it is traced (0: the end of the run) */
    uint64_t window;       /* --trace-window: only the last N cycles before the end (0: all) */
} trace_opts_t;

typedef struct trace trace_t;

/* Open the output files (so a bad path fails before the run) and add the observer to r. NULL with
 * a message in err on failure. The files are written when the run ends. */
trace_t *trace_start(run_t *r, const trace_opts_t *o, char *err, size_t errlen);
/* After the run: did writing the files succeed? (A message went to stderr if not.) */
bool trace_ok(const trace_t *tr);
void trace_free(trace_t *tr);

/* ---- shared by debug/trace.c and the writers (debug/trace_json.c, debug/trace_vcd.c) ---- */

enum {
    TRC_CORE_STATE, /* tr_core_state_t */
    TRC_CORE_PC,
    TRC_CORE_N,
};
enum {
    TRC_TH_HOLD,   /* cp_hold_t */
    TRC_TH_DETAIL, /* hold detail */
    TRC_TH_WORD,   /* held word (0 when not held) */
    TRC_TH_WAIT,   /* opcode of the latched wait (0 none) */
    TRC_TH_FIFO1,
    TRC_TH_FIFO2,
    TRC_TH_FIFO3,
    TRC_TH_MOP,    /* MOP expander busy */
    TRC_TH_REPLAY, /* replay expander busy */
    TRC_TH_N,
};
enum {
    TRC_NOC_READS, /* packets in flight, by kind */
    TRC_NOC_WRITES,
    TRC_NOC_ATOMICS,
    TRC_NOC_N,
};
#define TRC_MUTEXES        CP_MUTEXES /* in cp_mutex_index order */
#define TRC_SIG_CORE(c, k) ((c)*TRC_CORE_N + (k))
#define TRC_SIG_TH(t, k)   (TILE_NCORES * TRC_CORE_N + (t)*TRC_TH_N + (k))
#define TRC_SIG_SEM_VAL(i) (TRC_SIG_TH(CP_THREADS, 0) + 2 * (i))
#define TRC_SIG_SEM_MAX(i) (TRC_SIG_TH(CP_THREADS, 0) + 2 * (i) + 1)
#define TRC_SIG_MUTEX(m)   (TRC_SIG_SEM_VAL(CP_NUM_SEMS) + (m))
#define TRC_SIG_NOC(n, k)  (TRC_SIG_MUTEX(TRC_MUTEXES) + (n)*TRC_NOC_N + (k))
#define TRC_NSIGS          TRC_SIG_NOC(NOC_NIUS, 0)
#define TRC_MUTEX_FREE     3 /* owner value of a free mutex */

typedef enum {
    TRC_RESET = 0,
    TRC_RUNNING,
    TRC_FIFO_FULL,   /* retrying a push into a full FIFO */
    TRC_TENSIX_SYNC, /* retrying a load of CoprocessorDoneCheck */
    TRC_MOP_SYNC,    /* retrying a load of MOPExpanderDoneCheck */
    TRC_STALLED,     /* retrying another access */
    TRC_HALTED,
    TRC_HUNG,
    TRC_FAULTED,
    TRC_NOC_WAIT, /* polling an NIU counter that a packet in flight will advance */
    TRC_STATE_COUNT
} tr_core_state_t;

extern const char *const trace_core_state_names[TRC_STATE_COUNT];

typedef struct {
    uint64_t cycle;
    uint32_t val;
    uint16_t sig;
} tr_change_t;

typedef enum { TRI_PUSH, TRI_ISSUE, TRI_SEM_WINDOW, TRI_NOC_ISSUE } tr_instant_kind_t;
typedef struct {
    uint64_t cycle;
    uint32_t word;  /* pushed or issued word; semaphore index for TRI_SEM_WINDOW; noc_kind_t */
    uint8_t kind;   /* tr_instant_kind_t */
    uint8_t who;    /* thread (push, issue), core (semaphore window) or NIU (NoC request) */
    uint16_t count; /* pushes in this cycle (word is the last) */
} tr_instant_t;

/* The recording, as the writers see it: values at cycle lo, then changes in cycle order, over
 * the traced cycles [lo, hi). */
typedef struct {
    const run_t *run;
    uint64_t lo, hi;
    uint32_t base[TRC_NSIGS];
    const tr_change_t *chg;
    size_t nchg;
    const tr_instant_t *ins;
    size_t nins;
    bool truncated; /* the event limit was reached: nothing after the last change is recorded */
} tr_rec_t;

/* Name and width in bits of a signal; scope is "BRISC", "T0", "sync". */
void trace_sig_info(unsigned sig, const char **scope, const char **name, unsigned *width);
bool trace_write_json(const tr_rec_t *rec, FILE *f);
bool trace_write_vcd(const tr_rec_t *rec, FILE *f);

#endif
