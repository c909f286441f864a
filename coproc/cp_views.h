/* coproc/cp_views.h — read-only views of the Tensix coprocessor, for whoever explains a run
 * (the report, the stall diagnosis, the traces, the panel): its sizes, where a word came from,
 * what holds each thread, statistics, the Sync Unit's state and history, the last issues, and
 * the error that stopped it. Every function takes a const cp_t and changes nothing; the model's
 * API (pushing, stepping, the RISC-V windows) is coproc/cp.h. The coprocessor writes no JSON:
 * app/report.c builds the report's coprocessor part from these views.
 */
#ifndef TTEMU_COPROC_CP_VIEWS_H
#define TTEMU_COPROC_CP_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CP_THREADS      3
#define CP_NUM_SEMS     8
#define CP_NUM_GPRS     64
#define CP_FIFO_DEPTH   32
#define CP_CFG_WORDS    224 /* Config[2][224] (BackendConfiguration.md) */
#define CP_THDCFG_WORDS 68  /* ThreadConfig[3][68] */
#define CP_FIRST_PUSHED 16  /* words kept per thread for the report (e.g. the firmware boot pushes) */
#define CP_MUTEXES      4   /* Blackhole's mutexes are 0, 2, 3, 4 (SyncUnit.md): cp_mutex_index */

typedef struct cp cp_t;

/* Where an instruction word came from: the core that pushed it (or pushed the MOP or REPLAY that
 * produced it) and the pc of that push. core is -1 for the host or a test. */
typedef struct {
    uint32_t pc;
    int8_t core;
} cp_origin_t;

/* How a latched wait holds its thread (docs/gate-policies.md). EXACT: the instruction classes in
 * its block mask, as Blackhole does (STALLWAIT.md, SEMWAIT.md, STREAMWAIT.md). WHOLE_THREAD: every
 * instruction of the thread, as if all nine block bits were set — the coarser wait of simpler
 * simulators (ttsim's STALLWAIT and SEMWAIT ignore stall_res) and of older designs. */
typedef enum { CP_GATE_EXACT = 0, CP_GATE_WHOLE_THREAD, CP_GATE_POLICIES } cp_gate_policy_t;
cp_gate_policy_t cp_gate_policy(const cp_t *cp);
/* "exact", "whole-thread" (the names of --gate-policy and the report). */
const char *cp_gate_policy_name(cp_gate_policy_t p);
/* The policy named s, or -1 when s names none. */
int cp_gate_policy_parse(const char *s);

/* TTSync (ManualTTSync.md): CoprocessorDoneCheck — nothing of thread t left anywhere;
 * MOPExpanderDoneCheck — nothing queued before thread t's MOP expander and the expander idle. */
bool cp_thread_idle(const cp_t *cp, unsigned t);
bool cp_mop_idle(const cp_t *cp, unsigned t);
/* True when nothing is queued, latched or executing in any thread: cycles change nothing but
 * the clocks until the next push. */
bool cp_is_idle(const cp_t *cp);

/* ---- errors ------------------------------------------------------------------------------------
 * The coprocessor stops the run at its first error (docs/coprocessor.md, "Errors"). Each has a
 * category, as ttsim's: the guest's fault (exit 3) or ttemu's gap (exit 6). */
typedef enum {
    CP_ERR_NONE = 0,
    CP_ERR_UNDEFINED,     /* the ISA says UndefinedBehavior (an index out of range, an undefined mode) */
    CP_ERR_UNMAPPED,      /* an access the tile refuses (STOREREG/LOADREG/STREAMWRCFG) */
    CP_ERR_UNSUPPORTED,   /* the ISA says UnsupportedFunctionality, or an unsupported configuration */
    CP_ERR_UNIMPLEMENTED, /* Blackhole has it; ttemu does not model it (yet) */
    CP_ERR_UNSPECIFIED,   /* the documents do not say what it does: ttemu cannot model it */
    CP_ERR_COUNT
} cp_err_cat_t;

/* "undefined_behavior", "unmapped", "unsupported", "unimplemented", "missing_specification". */
const char *cp_err_cat_name(cp_err_cat_t c);
/* Is it ttemu's gap (unimplemented, missing specification) rather than the guest's fault? */
bool cp_err_is_gap(cp_err_cat_t c);

typedef struct {
    cp_err_cat_t cat;   /* CP_ERR_NONE: no error */
    uint8_t thread;     /* the Tensix thread that issued the instruction */
    uint8_t unit;       /* tt_unit_t that executed it */
    uint32_t word;      /* the instruction */
    cp_origin_t origin; /* who pushed it (core -1: the host or a test) */
    char what[160];     /* one line, without the where: "STOREREG to unmapped 0xffb90b88" */
} cp_error_t;

/* The error that stopped the coprocessor (the first since reset), or NULL. */
const cp_error_t *cp_fault(const cp_t *cp);
/* Its one-line what, or NULL when there is none. */
const char *cp_error(const cp_t *cp);

/* Why the instruction at the head of a thread's Wait Gate did not pass this cycle: one cause
 * plus one detail number (meaning given per cause). */
typedef enum {
    CP_HOLD_NONE = 0,      /* nothing waiting at the gate, or the head passed */
    CP_HOLD_WAIT_COND,     /* block mask of a latched STALLWAIT; detail = lowest busy Cn */
    CP_HOLD_WAIT_SEM,      /* block mask of a latched SEMWAIT; detail = lowest blocking semaphore */
    CP_HOLD_WAIT_STREAM,   /* block mask of a latched STREAMWAIT; detail = overlay stream index */
    CP_HOLD_WAIT_LAG,      /* latched wait satisfied this cycle; its block mask lifts next cycle */
    CP_HOLD_MUTEX,         /* ATGETM/ATRELM: mutex held by (or handed to) another thread, or its
                            * port already used this cycle; detail = mutex index */
    CP_HOLD_MUTEX_INVALID, /* ATGETM/ATRELM with index 1 or > 4: waits forever; detail = index */
    CP_HOLD_SYNC_SLOT,     /* the Sync Unit's one-per-cycle semaphore/wait slot was taken; detail 0 */
    CP_HOLD_UNIT,          /* backend admission refused (tm_can_accept); detail = tt_unit_t */
    CP_HOLD_UNDEFINED,     /* no such opcode on Blackhole: held forever; detail = opcode */
    CP_HOLD_COUNT
} cp_hold_t;

const char *cp_hold_name(cp_hold_t h);
/* A short label of a hold and its detail: "sem 1", "C4", "mutex 0", "unit PACK", "lag"... */
void cp_hold_label(cp_hold_t h, unsigned detail, char *buf, size_t len);

/* The latched wait of one thread's Wait Gate (STALLWAIT.md / SEMWAIT.md / STREAMWAIT.md). */
typedef struct {
    bool active;
    uint8_t opcode;      /* 0xA2 STALLWAIT, 0xA6 SEMWAIT, 0xA7 STREAMWAIT */
    uint16_t cond_mask;  /* STALLWAIT C0..C12; SEMWAIT C0 (Value==0) / C1 (Value>=Max);
                          * STREAMWAIT 1 << ConditionIndex */
    uint16_t block_mask; /* B0..B8 as the instruction encodes them, never 0 (0 latches as B6) */
    uint16_t gate_mask;  /* what the gate applies: block_mask under the exact policy, all nine
                          * bits (0x1FF) under whole-thread (cp_gate_policy_t) */
    uint8_t sem_mask;    /* SEMWAIT only */
    uint8_t stream_sel;  /* STREAMWAIT only */
    uint32_t target;     /* STREAMWAIT only: TargetValue */
    uint32_t word;       /* the instruction word that latched it */
    uint64_t since;      /* cycle it was latched */
} cp_wait_t;

typedef struct {
    bool held; /* an instruction is at the head of the gate and did not pass */
    uint32_t held_word;
    cp_origin_t held_origin; /* who pushed the held word */
    uint64_t held_since;     /* first cycle of the current stall (meaningful when held) */
    cp_hold_t hold;
    unsigned hold_detail;
    uint32_t hold_mask;           /* all busy conditions (WAIT_COND) / semaphores (WAIT_SEM) */
    cp_wait_t wait;               /* the latched wait, decoded */
    unsigned fifo1, fifo2, fifo3; /* words before the MOP expander / replay expander / gate */
    bool mop_busy;                /* MOP expander in the middle of an expansion */
    bool replay_busy;             /* replay expander replaying or loading */
    unsigned replay_left;
} cp_thread_state_t;

void cp_thread_state(const cp_t *cp, unsigned t, cp_thread_state_t *out);
/* The name of a latched wait's opcode: "STALLWAIT", "SEMWAIT", "STREAMWAIT". */
const char *cp_wait_name(const cp_wait_t *w);
/* One line saying why the held instruction of s waits, e.g. "blocked by latched SEMWAIT:
 * semaphore 0 (mask 0x1)" ("-" when nothing is held). */
void cp_hold_why(const cp_thread_state_t *s, char *buf, size_t len);

/* One stall: an instruction held at the head of a thread's gate for consecutive cycles. cause
 * is the first cause other than CP_HOLD_WAIT_LAG that held it (the lag alone if nothing else). */
#define CP_LONGEST_STALLS 3
typedef struct {
    uint64_t start, cycles; /* first held cycle; cycles held */
    uint32_t word;
    cp_hold_t cause;
    unsigned detail;
    cp_origin_t origin; /* who pushed the held word */
    bool ongoing;       /* still held (cp_longest_stalls only) */
} cp_stall_t;

/* A wait instruction of one thread, told apart by its word and where it was pushed (the same
 * SEMWAIT pushed from two places is two sites): how often it latched and how many cycles it held
 * an instruction of its thread at the gate (its release lag included). The first CP_WAIT_SITES
 * sites of a thread are kept; later ones are counted together in cp_stats_t.waits_other. */
#define CP_WAIT_SITES 16
typedef struct {
    uint32_t word;
    cp_origin_t origin;
    uint64_t latched, held_cycles;
} cp_wait_site_t;

/* Per-thread statistics. Stall cycles are counted per cycle an instruction sits at the head of
 * the gate, once in stall_total, once in stall_cause (the cause that held it: they add up to
 * stall_total) and once under each condition, semaphore, mutex or unit that holds it. */
typedef struct {
    uint64_t pushed, issued;                /* pushed into the thread; left the gate */
    uint64_t consumed;                      /* reached the gate but never reach a unit (RESOURCEDECL, stray
                                             * MOP/MOP_CFG/REPLAY pushed after the MOP expander) */
    unsigned fifo_high_water;               /* FIFO#1 (before the MOP expander) */
    unsigned fifo2_high_water;              /* FIFO#2 (before the replay expander; BRISC pushes here) */
    uint32_t first_pushed[CP_FIRST_PUSHED]; /* the first words pushed (min(pushed, 16) valid) */
    uint64_t stall_total;
    uint64_t stall_cause[CP_HOLD_COUNT]; /* by cp_hold_t; [CP_HOLD_NONE] stays 0 */
    uint64_t stall_cond[13];             /* latched STALLWAIT, per busy condition C0..C12 */
    uint64_t stall_sem[CP_NUM_SEMS];     /* latched SEMWAIT, per blocking semaphore */
    uint64_t stall_stream;               /* latched STREAMWAIT */
    uint64_t stall_lag;                  /* the cycle between a wait's release and its block mask lifting */
    uint64_t stall_mutex[5];             /* ATGETM/ATRELM per mutex index (1 unused) */
    uint64_t stall_mutex_invalid;
    uint64_t stall_sync_slot;
    uint64_t stall_unit[16]; /* tm_can_accept refusals, by tt_unit_t */
    uint64_t stall_undefined;
    uint64_t sem_writes;       /* RISC-V semaphore-window stores by this TRISC */
    uint32_t last_pushed;      /* the last word pushed (valid when pushed > 0) */
    uint64_t last_issue_cycle; /* cycle the last instruction left the gate (valid when issued > 0) */
    cp_wait_site_t waits[CP_WAIT_SITES];
    unsigned nwaits;
    cp_wait_site_t waits_other; /* the sites beyond the first CP_WAIT_SITES, summed (word 0) */
    /* The longest finished stalls, longest first (ties: the earlier first). */
    cp_stall_t longest[CP_LONGEST_STALLS];
    unsigned nlongest;
} cp_stats_t;

const cp_stats_t *cp_stats(const cp_t *cp, unsigned t);
/* The longest stalls of thread t so far, the current one (ongoing) included; returns how many
 * (<= CP_LONGEST_STALLS). */
unsigned cp_longest_stalls(const cp_t *cp, unsigned t, cp_stall_t out[CP_LONGEST_STALLS]);
/* Words queued in thread t behind the head of its gate, nearest first: FIFO#3, the rest of a
 * replay in progress, FIFO#2, FIFO#1 (not words a MOP expansion has yet to produce). */
unsigned cp_thread_queued(const cp_t *cp, unsigned t, uint32_t *out, unsigned max);
uint64_t cp_cycles(const cp_t *cp);

/* Sync Unit state: semaphore i's Value (also what a TRISC's load from its window returns) and Max.
 * Mutex holder: 0..2, or -1 when free or the index is not a mutex. */
uint32_t cp_sem_read(const cp_t *cp, unsigned i);
unsigned cp_sem_max(const cp_t *cp, unsigned i);
/* The name tt-llk gives semaphore i (ckernel_structs.h `struct semaphore`: MATH_PACK,
 * UNPACK_TO_DEST, ...); "" for 0, which it leaves unnamed. A software convention, not hardware. */
const char *cp_sem_llk_name(unsigned i);
int cp_mutex_holder(const cp_t *cp, unsigned idx);
/* The mutex indices, in order: {0, 2, 3, 4}. */
extern const unsigned cp_mutex_index[CP_MUTEXES];

/* Semaphore history since reset, for stall diagnosis ("who could release it"). Posts and gets
 * count SEMPOST/SEMGET and RISC-V window writes, per thread; a count is 0 when never. */
typedef struct {
    uint64_t posts[CP_THREADS], gets[CP_THREADS];
    uint64_t riscv_posts[CP_THREADS], riscv_gets[CP_THREADS]; /* of which through the RISC-V window */
    uint64_t last_post_cycle, last_get_cycle, last_init_cycle;
    int8_t last_post_thread, last_get_thread, last_init_thread; /* -1: never */
} cp_sem_history_t;
void cp_sem_history(const cp_t *cp, unsigned i, cp_sem_history_t *out);
/* Cycle the current holder of mutex idx took it (meaningful when cp_mutex_holder >= 0). */
uint64_t cp_mutex_since(const cp_t *cp, unsigned idx);

/* The last CP_ISSUE_LOG instructions that left the Wait Gates (all threads, in order). */
#define CP_ISSUE_LOG 256
typedef struct {
    uint64_t cycle;
    uint32_t word;
    uint8_t thread;
} cp_issue_t;
/* Copies the most recent min(max, held) entries, oldest first; returns how many. */
unsigned cp_issue_log(const cp_t *cp, cp_issue_t *out, unsigned max);
/* The backend unit (tt_unit_t) that executed the last instruction thread t issued, as the
 * backend's dispatch saw it (TT_UNIT_SYNC for Sync Unit instructions); -1 if none since reset.
 * Words consumed before a unit (MOP, MOP_CFG, REPLAY, RESOURCEDECL) never change it. */
int cp_last_unit(const cp_t *cp, unsigned t);

#endif
