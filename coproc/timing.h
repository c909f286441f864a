/* coproc/timing.h — the backend units' timing model: whether a unit accepts an instruction this
 * cycle (admission), how long it then occupies its unit for its issuing thread (latencies),
 * the unpackers' queues, when SrcA/SrcB banks change hands, and the sources of the STALLWAIT
 * conditions C0..C12 (docs/coprocessor-backend.md).
 *
 * It decides *when*; the value side decides *what*: at exactly one event per instruction it hands
 * the instruction (coproc/insn.h) to the Scalar Unit (thcon_exec), the Configuration Unit
 * (cfgu_exec) or the datapath (dp_exec), and it moves the Src banks through coproc/state.h. The
 * Sync Unit (semaphores, mutexes, latched waits) is not here: it lives with the gates
 * (coproc/sync.c); its instructions only pass through tm_dispatch to be recorded.
 */
#ifndef TTEMU_COPROC_TIMING_H
#define TTEMU_COPROC_TIMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coproc/cp.h"
#include "coproc/datapath.h"
#include "coproc/per_thread.h"
#include "coproc/state.h"
#include "coproc/tt_ops.h"

typedef struct tm tm_t;

/* The head of every tm_t (its first member): what the coprocessor's full cycle reads, and the
 * clock it moves, every cycle without a call. Public so that a model placed in the coprocessor's
 * own allocation (tm_place) has them at offsets known where the coprocessor is compiled: one load
 * from its state, not a pointer and then the field. The head stays where it is for the model's
 * life; a reset clears it with the rest. */
typedef struct {
    uint64_t now; /* the clock */
    /* No unpacker has anything to do before the clock reaches this (0: look at them in the next
     * tm_cycle): a running head's end, or at once for a waiting head whose bank may have moved. */
    uint64_t unp_due;
    /* Hand-overs and unpacker retires so far: what ends a refusal tm_refuses_until_moved names. */
    uint64_t unit_moves;
    /* Conditions of thread t whose inputs changed since tm_cond_eval last looked at them (bit n:
     * Cn): until one of the selected ones shows up here or tm_cond_eval's *next comes, it would
     * answer the same. Time passing is not a change. */
    uint32_t chg[CP_THREADS];
    /* The coprocessor's dormant threads (bit t; cp.c cp_doze): cleared here for the threads
     * whose repeated hold reads what the model changes (a thread's condition inputs, unit_moves:
     * tm_changed_all, tm_unp_retire, by wake_on below) and by sync_exec for a SEMWAIT's
     * semaphores; in cp.c by fe_moved (its own pushes and moves) and dormant_until (a recheck
     * time); a RISC-V write's C10 comes with the coprocessor's cp_quiet_stop, which clears them
     * all. */
    uint8_t dormant;
    /* What wakes dormant thread t (cp.c cp_doze, which sets it as it dozes): the conditions Cn
     * (bit n) a latched STALLWAIT selects, TM_WAKE_MOVES for a unit's refusal (unit_moves),
     * TM_WAKE_SEM for a latched SEMWAIT (any Sync Unit instruction, sync_exec); 0 for an idle
     * gate, which of the targeted wakes only its own pushes and moves wake (fe_moved). Stale
     * while t is awake: only a dormant thread's bit is cleared by it (tm_wake). (Of the
     * conditions, those of t's own instructions, C0, C3, C4, C10 and C11, are never asked: t is
     * awake when they change, or cp_quiet_stop wakes all.) */
    uint32_t wake_on[CP_THREADS];
    cp_error_t err; /* the first error since reset (cat CP_ERR_NONE: none) */
} tm_head_t;
/* wake_on's bits: the conditions C0..C12 (TM_WAKE_CONDS, in chg's places; timing.c asserts it is
 * its TM_C_ALL), and above them the marks for a refusal and for a SEMWAIT. */
enum { TM_WAKE_CONDS = 0x1FFFu, TM_WAKE_MOVES = 1u << 13, TM_WAKE_SEM = 1u << 14 };
/* Wake dormant thread t if its wake_on has any of what's bits (what changed). */
static inline void tm_wake_thread(tm_head_t *h, unsigned t, uint32_t what) {
    if (h->wake_on[t] & what) h->dormant &= (uint8_t) ~(1u << t);
}
/* Wake the dormant threads whose wake_on has any of what's bits (what changed). */
static inline void tm_wake(tm_head_t *h, uint32_t what) {
    _Static_assert(CP_THREADS == 3, "tm_wake asks the threads one by one");
    unsigned w = (h->wake_on[0] & what ? 1u : 0) | (h->wake_on[1] & what ? 2u : 0) | (h->wake_on[2] & what ? 4u : 0);
    h->dormant &= (uint8_t)~w;
}
/* The model's head, for a reader without the coprocessor's fixed offset (cp_tmh): the tests. */
static inline const tm_head_t *tm_head(const tm_t *tm) { return (const tm_head_t *)(const void *)tm; }

/* The timing model of the backend whose architectural state is st and whose datapath is dp (may
 * be NULL: no datapath events). env: the tile (copied). */
tm_t *tm_create(cp_state_t *st, dp_t *dp, const cp_env_t *env);
void tm_destroy(tm_t *tm); /* (tm_create's only) */
/* tm_create's model in memory the caller owns: tm_size() zeroed bytes, aligned as malloc aligns.
 * Never passed to tm_destroy: it goes with its memory. */
size_t tm_size(void);
tm_t *tm_place(void *mem, cp_state_t *st, dp_t *dp, const cp_env_t *env);
/* Empty units and queues, clock 0, no error. (The state is st_reset's, the datapath's
 * dp_reset's.) */
void tm_reset(tm_t *tm);

/* The reference path's timing model (cp_set_stepwise turns it on with the coprocessor's): none of
 * its own shortcuts — both unpackers looked at every cycle (no due time), a head waiting for its
 * Src bank asks every cycle (no bank_wait), a thread's end of work found over every unit (no
 * busy_until) — so that the reports of test/sh/t_fastpath.sh compare them end to end. Answers are
 * the same either way. A reset keeps it. */
void tm_set_reference(tm_t *tm, bool on);
/* cp_count_errors (the value side's record, tm_t.in: a reset keeps it). */
void tm_count_errors(tm_t *tm, uint64_t *count);

/* Unit-specific admission at the gate (beyond block masks and mutexes): may thread t's
 * instruction enter its unit this cycle? E.g. false while a ThCon instruction of thread t is
 * executing (nothing of t passes then), while the Config unit pipeline refuses entry, while the
 * SrcA/SrcB bank an FPU op needs is not owned by the Matrix Unit, while the unpacker's queue is
 * full. */
bool tm_can_accept(const tm_t *tm, unsigned t, const tt_op_t *op, uint32_t word);
/* Does tm_can_accept refuse op with word (any thread) for a reason that only a hand-over of the
 * SrcA/SrcB banks or an unpacker's retire can end: a Matrix Unit instruction needing a bank the
 * Matrix Unit does not own, or an unpacker instruction whose unpacker's queue is full? Then it
 * refuses it (whatever its other reasons) until the head's unit_moves moves: every hand-over and
 * every retire counts there (and a reset, which resets the gates too). */
bool tm_refuses_until_moved(const tm_t *tm, const tt_op_t *op, uint32_t word);
/* The instruction leaves thread t's gate and starts executing; origin: who pushed it. */
void tm_dispatch(tm_t *tm, unsigned t, const tt_op_t *op, uint32_t word, cp_origin_t origin);
/* tm_issue(tm, op, word, origin, t): tm_can_accept, and when it says yes tm_dispatch, in one call
 * (the gate's commonest cycle; one copy per thread, CP_PER_THREAD_DECLARE). Returns false, having done nothing, when
 * the unit refuses the instruction. Unlike them it takes only a thread (t < CP_THREADS) and an opcode (op not NULL) its
 * caller has checked, op the entry of word's own opcode (tt_op(TT_OPCODE(word))): the gate asks it for every
 * instruction it issues. */
CP_PER_THREAD_DECLARE(bool, tm_issue, (tm_t * tm, const tt_op_t *op, uint32_t word, cp_origin_t origin),
                      (tm, op, word, origin))
/* tm_issue for a Sync Unit instruction (op->unit TT_UNIT_SYNC, op word's own entry, t <
 * CP_THREADS: the caller's): its unit takes it unless a ThCon instruction of thread t executes,
 * and dispatching it only records it. Returns false, having done nothing, when refused. */
bool tm_sync_issue(tm_t *tm, unsigned t, const tt_op_t *op, uint32_t word, cp_origin_t origin);
/* Advance one cycle. Returns false if nothing happened but the clock moving (no unpacker
 * instruction started or retired). */
bool tm_cycle(tm_t *tm);
/* tm_cycle in two halves, for a caller that moves the head's clock itself: while the clock, moved
 * on, is below the head's unp_due a cycle only moves the clock; from then on tm_cycle_due does the
 * rest of tm_cycle (the clock already moved). The reference path's due time stays 0: every cycle
 * calls tm_cycle_due. */
bool tm_cycle_due(tm_t *tm);
/* The first cycle >= now (the clock as it is) in which a comparison of the clock with a time the
 * model holds may answer differently than in the cycle before, made before tm_cycle or after
 * it: until then, with nothing dispatched, every answer of the model (but the STALLWAIT
 * conditions, whose tm_cond_eval says when they can change) stays as it was in the cycle before.
 * UINT64_MAX: none. */
uint64_t tm_next_change(const tm_t *tm);
/* Advance n cycles with nothing executing in any unit (only the clock moves). */
void tm_advance_idle(tm_t *tm, uint64_t n);

/* STALLWAIT condition Cn (0..12, STALLWAIT.md) for thread t: true = "keep waiting". The plain
 * form, which the reference path's gates ask. */
bool tm_cond_busy(const tm_t *tm, unsigned t, unsigned cond);
/* The busy ones among the conditions sel (bit n = Cn) for thread t: tm_cond_busy's answers (the
 * same rule), in one call. *next: the first cycle at which one of them can change without
 * anything else changing (a busy one running out; UINT64_MAX: none). Marks them looked at (the
 * head's chg). */
uint32_t tm_cond_eval(tm_t *tm, unsigned t, uint32_t sel, uint64_t *next);
/* Anything of thread t still executing in any unit. */
bool tm_thread_busy(const tm_t *tm, unsigned t);
/* tt_cfg_bstatus class bits (CSRs.md) of what thread t has executing in the backend. */
uint32_t tm_busy_classes(const tm_t *tm, unsigned t);
/* The unit (tt_unit_t) whose dispatch path took thread t's last instruction, -1 if none since
 * reset: TT_UNIT_SYNC for Sync Unit instructions. For tests and diagnosis. */
int tm_last_unit(const tm_t *tm, unsigned t);

/* A RISC-V store to GPRs / config / TDMA-RISC from TRISC t is in flight (condition C10). It wakes
 * no dormant thread (tm_head_t.dormant): its callers (cp_note_riscv_write, cp_cfg_write) end the
 * quiet stretch first, cp_quiet_stop, which wakes them all. */
void tm_note_riscv_cfg_write(tm_t *tm, unsigned t);

/* The first error since reset (coproc/cp_views.h), or NULL. */
const cp_error_t *tm_error(const tm_t *tm);

#endif
