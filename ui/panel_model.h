/* ui/panel_model.h — what the live panel shows, as plain data (docs/ui.md).
 *
 * The panel never draws from the tile directly: between batches of cycles it takes a snapshot
 * (ui_snap_t) of the Sync Unit, the three Tensix threads and the five cores, plus the strip of
 * recent per-thread states it has sampled. The drawing (ui/panel_draw.c) and the JSON the
 * headless screenshot writes beside its image are both made from that one snapshot, so a test
 * can assert what the picture shows. Needs no SDL. */
#ifndef TTEMU_UI_PANEL_MODEL_H
#define TTEMU_UI_PANEL_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "run/run.h"

#define UI_STRIP   2048       /* samples kept per thread */
#define UI_MUTEXES CP_MUTEXES /* cp_mutex_index */
#define UI_CHAINS  6          /* wait-for chains shown from the stall diagnosis */

/* A thread's state in one strip sample, in order of precedence when several apply. */
typedef enum {
    UI_ST_IDLE = 0, /* nothing queued, latched or executing */
    UI_ST_BUSY,     /* words queued or expanding (FIFO, MOP, replay), nothing issued or held */
    UI_ST_ISSUE,    /* issued at least one instruction since the previous sample */
    UI_ST_COND,     /* held by a STALLWAIT/STREAMWAIT condition (or its one-cycle lag, a busy unit) */
    UI_ST_SEM,      /* held by a SEMWAIT */
    UI_ST_MUTEX,    /* held at ATGETM/ATRELM (mutex owned by another thread, or no such mutex) */
    UI_ST_COUNT
} ui_tstate_t;

const char *ui_tstate_name(ui_tstate_t s);

typedef struct {
    const char *name; /* tt-llk ckernel_structs.h `struct semaphore`, or "" */
    unsigned value, max;
    uint8_t waiters; /* bit t: thread t is held at a SEMWAIT on this semaphore */
} ui_sem_t;

typedef struct {
    unsigned index;   /* 0, 2, 3, 4 */
    const char *name; /* tt-llk `struct mutex` (REG_RMW) or "" */
    int holder;       /* thread 0..2, -1 free */
    uint64_t since;
    uint8_t waiters; /* bit t: thread t is held at ATGETM/ATRELM on it */
} ui_mutex_t;

typedef struct {
    ui_tstate_t state;
    bool held;
    uint32_t held_word;
    char held_dis[112];
    const char *hold; /* cp_hold_name */
    unsigned hold_detail;
    char why[128]; /* one line: what holds it, decoded */
    bool wait_active;
    uint32_t wait_word;
    char wait_dis[112];
    uint64_t wait_since;
    unsigned fifo1, fifo2, fifo3;
    bool mop_busy, replay_busy;
    unsigned replay_left;
    uint64_t pushed, issued, stall_total;
} ui_thread_t;

typedef struct {
    const char *name;
    bool started;
    const char *state; /* reset, running, halted, hung, faulted */
    uint32_t pc;
    char sym[96];
    uint64_t instret, stall_cycles;
    const char *blocked; /* "fifo_full", "tensix_sync", "mop_sync", "noc_wait", or "" */
    int blocked_thread;  /* the thread it waits for, or -1 */
    char waits_on[40];   /* "T1", "NOC0 read (1 in flight)", or "" */
} ui_core_t;

/* One NIU: its NoC packets in flight, by kind, and the requests it issued so far. */
typedef struct {
    unsigned reads, writes, atomics;
    uint64_t requests;
} ui_noc_t;

/* The strip: a ring of samples, each the state of the three threads at one cycle. */
typedef struct {
    uint64_t cycle[UI_STRIP];
    uint8_t st[UI_STRIP][CP_THREADS];
    unsigned head, n;
    uint64_t last_issued[CP_THREADS];
    uint64_t last_cycle;
    bool any;
} ui_strip_t;

typedef struct {
    uint64_t cycle;
    const char *exit_reason; /* NULL while the run goes on */
    char exit_message[160];
    ui_sem_t sem[CP_NUM_SEMS];
    ui_mutex_t mutex[UI_MUTEXES];
    ui_thread_t th[CP_THREADS];
    ui_core_t core[TILE_NCORES];
    ui_noc_t noc[NOC_NIUS];
    char chains[UI_CHAINS][200]; /* from r->diag_json once the diagnosis exists */
    int nchains;
    /* the strip, oldest first */
    unsigned strip_n;
    uint64_t strip_cycle[UI_STRIP];
    uint8_t strip[CP_THREADS][UI_STRIP];
    bool strip_exact; /* consecutive samples are one cycle apart */
} ui_snap_t;

void ui_strip_init(ui_strip_t *s);
/* Record the threads' states now (called between batches; sampling twice at one cycle keeps one). */
void ui_strip_sample(ui_strip_t *s, const run_t *r);
/* The state of thread t now; issued_before is its issue count at the previous sample. */
ui_tstate_t ui_thread_now(const run_t *r, unsigned t, uint64_t issued_before);
void ui_snap_take(ui_snap_t *out, const run_t *r, const ui_strip_t *s);
/* The snapshot as JSON (docs/ui.md); a cJSON object the caller deletes. */
struct cJSON *ui_snap_json(const ui_snap_t *s);

#endif
