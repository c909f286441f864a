/* coproc/cp_internal.h — state shared by the coprocessor's control files (cp.c, frontend.c,
 * gate.c, sync.c). Nothing outside coproc/ includes it but a white-box unit test: the tile sees
 * coproc/cp.h, whoever explains a run coproc/cp_views.h.
 *
 * One thread of the Tensix frontend (TensixCoprocessor/README.md; TENSIX.md §3.1):
 *
 *   TRISC t push ─► FIFO#1 (32) ─► MOP expander ─┐
 *   BRISC push (after_mop) ──────────────────────┴► FIFO#2 (8) ─► replay expander ─► FIFO#3 (2)
 *                                                                  ─► Wait Gate ─► backend unit
 *
 * docs/coprocessor.md explains the per-cycle model and why the FIFOs have these depths.
 */
#ifndef TTEMU_COPROC_CP_INTERNAL_H
#define TTEMU_COPROC_CP_INTERNAL_H

#include "coproc/cp.h"
#include "coproc/datapath.h"
#include "coproc/per_thread.h"
#include "coproc/state.h"
#include "coproc/timing.h"
#include "coproc/tt_fields.h"
#include "coproc/tt_ops.h"

#include <string.h>

/* FIFO depths. FIFO#1: PushTensixInstruction.md (BH: 32). FIFO#2 and FIFO#3: the Wormhole
 * frontend diagram (TensixFrontend.svg: 8 and 2); Blackhole's are undocumented (TENSIX.md §9). */
#define FE_FIFO1_DEPTH  CP_FIFO_DEPTH
#define FE_FIFO2_DEPTH  8
#define FE_FIFO3_DEPTH  2
#define FE_FIFO_MAX     32
#define FE_REPLAY_DEPTH 32 /* REPLAY.md: ReplayBuffer[32] per thread */
#define FE_MOPCFG_WORDS 9  /* MOPExpander.md: MopCfg[9] per thread */
#define FE_MOP_LIST     64 /* an expansion's words generated ahead at a time (fe_mop_t.list) */

_Static_assert(FE_FIFO1_DEPTH <= FE_FIFO_MAX && FE_FIFO2_DEPTH <= FE_FIFO_MAX, "ring storage");

typedef struct {
    uint32_t slot[FE_FIFO_MAX];
    /* Who pushed each word (stall statistics): its cp_origin_t's bytes, padding and all, so that a
     * word's way through the FIFOs copies its origin in one load and one store (a cp_origin_t
     * member is stored field by field). */
    uint64_t org[FE_FIFO_MAX];
    uint8_t head, count, cap;
} fe_fifo_t;

_Static_assert(sizeof(cp_origin_t) == sizeof(uint64_t), "an origin in one word");

static inline bool fifo_full(const fe_fifo_t *f) { return f->count >= f->cap; }
static inline bool fifo_empty(const fe_fifo_t *f) { return f->count == 0; }
static inline uint32_t fifo_peek(const fe_fifo_t *f) { return f->slot[f->head]; }
static inline cp_origin_t fifo_peek_org(const fe_fifo_t *f) {
    cp_origin_t org;
    memcpy(&org, &f->org[f->head], sizeof org);
    return org;
}
static inline uint32_t fifo_at(const fe_fifo_t *f, unsigned i) { return f->slot[(f->head + i) % FE_FIFO_MAX]; }
static inline void fifo_push(fe_fifo_t *f, uint32_t w, cp_origin_t org) {
    f->slot[(f->head + f->count) % FE_FIFO_MAX] = w;
    memcpy(&f->org[(f->head + f->count) % FE_FIFO_MAX], &org, sizeof org);
    f->count++;
}
static inline uint32_t fifo_pop(fe_fifo_t *f) {
    uint32_t w = f->slot[f->head];
    f->head = (uint8_t)((f->head + 1) % FE_FIFO_MAX);
    f->count--;
    return w;
}

/* MOP expander (MOPExpander.md). The doc's generators ExpandTemplate0/1 become resumable state
 * machines: mop_next (frontend.c) produces the next word of the current expansion. */
typedef enum { MOP_IDLE = 0, MOP_TEMPLATE0, MOP_TEMPLATE1 } fe_mop_kind_t;
typedef enum { T1_START = 0, T1_INNER, T1_END0, T1_END1 } fe_t1_phase_t;

typedef struct {
    uint32_t cfg[FE_MOPCFG_WORDS];  /* MopCfg as the TRISC last wrote it */
    uint16_t mask_hi;               /* MaskHi, set by MOP_CFG */
    fe_mop_kind_t kind;             /* expansion in progress */
    bool bubble;                    /* an expansion just ended: a following non-MOP costs a cycle */
    uint32_t snap[FE_MOPCFG_WORDS]; /* MopCfg sampled when the MOP was ingested */
    /* template 0 */
    uint32_t mask;
    unsigned iter, iters;
    uint32_t slots[5];
    unsigned nslots, slot;
    /* template 1 */
    unsigned outer, inner, j, i;
    fe_t1_phase_t phase;
    uint32_t loop_op, flip;
    cp_origin_t org; /* of the MOP being expanded */
    /* The expansion's words, generated ahead of their emission (mop_fill: the generators above
     * run up to FE_MOP_LIST words at a time), list[at] the next to leave; more: the generators may
     * have words after list[n - 1]. So the expander knows its end as the last word leaves. */
    uint8_t n, at;
    bool more;
    /* The list holds a whole expansion (not more) of the MOP key.w ingested with MaskHi
     * key.mask_hi and MopCfg key.cfg: mop_begin and the generators read nothing else, so a MOP
     * ingested with the same three expands to the same words, which the fast path's expander
     * (fe_step) emits again from the list without generating them (the reference path's,
     * fe_mop_step, generates every expansion). */
    bool cached;
    /* Stuck: the expander's last step found FIFO#2 full with a word to give it (a plain word at
     * FIFO#1's head, or an expansion's next word), and no word left FIFO#2 since (the replay
     * expander's takes clear it, replay_step). Only such a take can change that answer (FIFO#1's
     * head and the expansion move only by this expander's own step; a push into FIFO#1 goes
     * behind its head, one into FIFO#2 fills it more), so its step does nothing until then. Set
     * and read by fe_step_fed only, whose replay expander took nothing from FIFO#2. */
    bool stuck;
    struct {
        uint32_t w;
        uint16_t mask_hi;
        uint32_t cfg[FE_MOPCFG_WORDS];
    } key;
    uint32_t list[FE_MOP_LIST];
} fe_mop_t;

/* Replay expander (REPLAY.md). */
typedef enum { RP_PASS = 0, RP_LOAD, RP_REPLAY } fe_rp_mode_t;

typedef struct {
    uint32_t buf[FE_REPLAY_DEPTH];
    fe_rp_mode_t mode;
    bool exec; /* RP_LOAD: also pass the recorded words downstream */
    unsigned start, len, k;
    cp_origin_t org; /* of the REPLAY being replayed */
} fe_replay_t;

typedef struct {
    fe_fifo_t fifo1, fifo2, fifo3;
    fe_mop_t mop;
    fe_replay_t rp;
    /* FIFO#2's most words after a push of the MOP expander's, since the reset: noted where it
     * pushes, so that a cycle need not ask (cp_stats folds it into fifo2_high_water on the fast
     * path; the reference path measures its own, cp_cycle_plain). */
    uint8_t fifo2_high;
} fe_thread_t;

static inline uint32_t fe_counts(const fe_thread_t *fe) {
    return fe->fifo1.count | (uint32_t)fe->fifo2.count << 8 | (uint32_t)fe->fifo3.count << 16;
}

void fe_reset(fe_thread_t *fe);
/* Ring capacity per stage is set by fe_reset; returns false when the target FIFO is full.
 * PushTensixInstruction.md: TRISC t pushes into FIFO#1 (before the MOP expander); BRISC's
 * INSTRN(t)_BUF pushes enter the mux after the MOP expander, i.e. FIFO#2. On silicon a BRISC word
 * and a MOP-expander word arriving in the same cycle drop the TRISC one; here the two are
 * serialised instead (the push happens during the RISC-V step, the expander's in cp_cycle). */
static inline bool fe_push(fe_thread_t *fe, uint32_t word, bool after_mop, cp_origin_t org) {
    fe_fifo_t *f = after_mop ? &fe->fifo2 : &fe->fifo1;
    if (fifo_full(f)) return false;
    fifo_push(f, word, org);
    return true;
}
/* One cycle of each expander (call the replay expander before the MOP expander). Each says what
 * it did: 0 when nothing changed (the same state would do nothing again), else FE_MOVED with the
 * FIFOs it took a word from or gave one to, those the FIFO counts cannot show (a MOP expansion
 * recorded into the replay buffer changes no count). FE_POP1 and FE_POP2 sit where
 * cp_t.fifo_freed has thread 0's FIFO#1 and FIFO#2: shifted by t, they are thread t's freed FIFOs. */
enum { FE_POP1 = 1u << 0, FE_POP2 = 1u << CP_THREADS, FE_MOVED = 1u << 6 };
unsigned fe_replay_step(fe_thread_t *fe);
unsigned fe_mop_step(fe_thread_t *fe);
/* Both, in that order, in one call: what they did, but FE_POP2 only when FIFO#2 lost a word net
 * (the MOP expander's word after the replay expander's take leaves it as it was). The fast path's:
 * a MOP ingested as the last whole expansion was (fe_mop_t.cached) is emitted from its list
 * without generating it again; fe_mop_step, the reference path's, generates every expansion. */
unsigned fe_step(fe_thread_t *fe);
/* fe_step for a cycle whose replay expander's step the gate did with its take (fe_take_replayed):
 * the MOP expander's step, with what the replay expander did (FE_MOVED); none while its stuck
 * mark stands (fe_mop_t.stuck: this cycle's replay expander took nothing from FIFO#2). */
unsigned fe_step_fed(fe_thread_t *fe);
/* The gate takes FIFO#3's head in a cycle whose expanders are stepped after it (cp_t.fe_awake)
 * while the replay expander replays (RP_REPLAY): the take and that step's push, one word from
 * the replay buffer, in one. The split way's take leaves head + 1 and count - 1, and its push,
 * into a FIFO#3 with room (the take made some), writes at head + 1 + count - 1: here the count
 * stays and the word goes where the push would put it, so FIFO#3 holds the same words at the
 * same places after the thread's step, and no observer looks between the gate and the
 * expanders (fe_step_fed does the rest of their step). */
/* The replaying expander's next word (RP_REPLAY): ReplayBuffer[(Index + k) % 32], its replay
 * ending with the Len-th (REPLAY.md). Both ways of emitting it (replay_step's push, the fed take
 * below) take it here. */
static inline uint32_t fe_replay_next(fe_replay_t *r) {
    uint32_t w = r->buf[(r->start + r->k) % FE_REPLAY_DEPTH];
    if (++r->k == r->len) r->mode = RP_PASS;
    return w;
}
static inline void fe_take_replayed(fe_thread_t *fe) {
    fe_fifo_t *f = &fe->fifo3;
    fe_replay_t *r = &fe->rp;
    unsigned at = (f->head + f->count) % FE_FIFO_MAX;
    memcpy(&f->org[at], &r->org, sizeof r->org);
    f->slot[at] = fe_replay_next(r);
    f->head = (uint8_t)((f->head + 1) % FE_FIFO_MAX);
}
/* Every FIFO empty, both expanders idle. A replay expander still waiting for words to record
 * holds nothing in flight. */
static inline bool fe_idle(const fe_thread_t *fe) {
    return fifo_empty(&fe->fifo1) && fifo_empty(&fe->fifo2) && fifo_empty(&fe->fifo3) && fe->mop.kind == MOP_IDLE &&
           fe->rp.mode != RP_REPLAY;
}
bool fe_mop_idle(const fe_thread_t *fe); /* no MOP in FIFO#1 and the MOP expander idle */
/* tt_cfg_qstatus class bits (CSRs.md) of what the frontend of this thread holds. */
uint32_t fe_classes(const fe_thread_t *fe);
/* CSRs.md class bit(s) of a backend unit: 0 REPLAY, 1 MOP, 2 ThCon, 3 Mover, 4 Unpacker,
 * 5 Packer, 6 Config, 7 Sync, 8 Misc/Mover/ThCon/Packer/Unpacker, 9 SFPU, 10 FPU. */
uint32_t cp_unit_classes(tt_unit_t u);

/* Sync Unit (SyncUnit.md): eight 4-bit semaphores, mutexes 0, 2, 3, 4. */
#define SYNC_MUTEXES 5 /* indices 0..4; 1 is not a mutex on Blackhole */

typedef struct {
    uint32_t value; /* a whole word: a TRISC's loop polling it may park on it (cp_sem_word) */
    uint8_t max;
} sync_sem_t;

typedef struct {
    sync_sem_t sem[CP_NUM_SEMS];
    int8_t holder[SYNC_MUTEXES]; /* -1 free, else thread */
    int8_t prefer[SYNC_MUTEXES]; /* ATRELM hand-over: only this thread may take it next */
    uint8_t mutex_used;          /* the mutexes touched in cycle mutex_at - 1 (bit per index) */
    uint64_t sem_gen;            /* counts the changes of any semaphore (a latched SEMWAIT asks again) */
    /* This cycle's semaphore slot (SEM* / *WAIT / a RISC-V semaphore write) and mutex ports
     * (ATGETM/ATRELM), each taken in the cycle whose number + 1 it holds (sync_slot_taken,
     * sync_mutexes_used): free again in the next cycle without a write. */
    uint64_t sem_slot_at;
    uint64_t mutex_at;
    /* Bumped with sem_gen, and kept by sync_reset: the tile's count of the writes a parked hart's
     * word may see (cp_count_sem_moves, hart_t.dev_writes); NULL: none. (In the place mutex_used's
     * padding left: sync_t, and cp_t after it, keep their size and offsets.) */
    uint64_t *moves;
    /* History for stall diagnosis (cp_sem_history, cp_mutex_since). */
    cp_sem_history_t hist[CP_NUM_SEMS];
    uint64_t mutex_since[SYNC_MUTEXES]; /* cycle the holder took it */
} sync_t;

void sync_reset(sync_t *s);
static inline bool sync_mutex_valid(unsigned idx) { return idx == 0 || (idx >= 2 && idx <= 4); }
void sync_sem_post(sync_t *s, uint8_t mask);
void sync_sem_get(sync_t *s, uint8_t mask);
void sync_sem_init(sync_t *s, uint8_t mask, unsigned value, unsigned max);
/* Record a post (post) or get of the semaphores in mask by thread t at cycle (history only). */
void sync_sem_note(sync_t *s, unsigned t, uint8_t mask, bool post, bool riscv, uint64_t cycle);

/* Wait Gate of one thread. */
/* What holds a head whose hold may repeat unchanged (gate_t.repeat; gate_repeat decides):
 * GATE_REPEAT_STALLWAIT / _SEMWAIT, the latched wait of that kind, whose answer stands while
 * nothing it reads changed (gate_wait_unchanged); GATE_REPEAT_UNIT, a refusal by its unit for
 * want of a Src bank or of room in an unpacker's queue with no wait latched
 * (tm_refuses_until_moved), which stands while neither moved (gate_t.unit_seen);
 * GATE_REPEAT_OTHER, any other (gate_repeat asks again). */
typedef enum {
    GATE_REPEAT_NO,
    GATE_REPEAT_STALLWAIT,
    GATE_REPEAT_SEMWAIT,
    GATE_REPEAT_UNIT,
    GATE_REPEAT_OTHER
} gate_repeat_t;
typedef struct {
    cp_wait_t wait;
    bool held;
    uint32_t held_word;
    cp_hold_t hold;
    unsigned hold_detail;
    uint32_t hold_mask;
    int waiting_mutex;    /* ATGETM at the head waiting for this mutex, or -1 */
    cp_stall_t stall;     /* the current stall while held (ongoing) */
    cp_wait_site_t *site; /* the latched wait's entry in the thread's statistics (stats.waits) */
    unsigned site_from;   /* where the next search for a wait's entry starts (sync.c wait_site) */
    /* The held cycles that repeat the last counted one, counted in bulk (gate_settle): a held
     * instruction costs a re-check per cycle, not its bookkeeping. */
    const tt_op_t *held_op; /* the held word's opcode entry (NULL: undefined) */
    bool held_by_wait;      /* held by the latched wait's block mask (counted on its site) */
    /* The hold may repeat unchanged (gate_repeat_t; GATE_REPEAT_NO: it may not): gate_step asks
     * the question of its kind without looking at held_by_wait and the wait. */
    uint8_t repeat;
    /* While repeat says the hold may repeat: the first held cycle not counted yet. Every cycle
     * from it to the clock (cp_now) held the head exactly as the last counted one (a cycle that
     * did not takes the full step, which counts them first), so the count is the clock less this:
     * a repeated cycle writes nothing. */
    uint64_t repeat_from;
    uint64_t recheck_at; /* a latched STALLWAIT's answer stands until this cycle (tm_cond_eval) ... */
    uint64_t sem_seen;   /* ... a SEMWAIT's while the semaphores' sync_t.sem_gen is this */
    uint64_t unit_seen;  /* GATE_REPEAT_UNIT's refusal stands while cp_tmh(cp)->unit_moves is this */
} gate_t;

struct cp {
    cp_env_t env;
    cp_state_t st;          /* the backend's architectural state (coproc/state.h) */
    tm_t *tm;               /* the backend's timing model (coproc/timing.h), in tm_mem */
    const tt_op_t *op[256]; /* tt_op of each opcode, asked once */
    /* The opcodes gate_pass may issue: a backend unit's (neither the Sync Unit's nor one the
     * gate never passes). */
    bool op_pass[256];
    bool op_sync[256]; /* ... and the Sync Unit's that the gate passes (gate_sync) */
    dp_t *dp;          /* the datapath (coproc/datapath.h) */
    fe_thread_t fe[CP_THREADS];
    gate_t gate[CP_THREADS];
    sync_t sync;
    cp_stats_t stats[CP_THREADS];
    cp_gate_policy_t policy; /* how latched waits hold their thread (kept by cp_reset) */
    bool stepwise;           /* no shortcuts: every cycle stepped and counted on its own (kept by cp_reset) */
    /* The issue log (cp_issue_log), a ring per thread: thread t's k-th issue since the reset
     * (cp_stats_t.issued counts them) is ilog[t][k % CP_ISSUE_LOG], so that an issue writes its
     * cycle and word and one count, and the thread's last issue cycle is its ring's last entry.
     * The view merges the rings in issue order: by cycle, then by thread (a cycle's gates issue
     * in thread order). */
    struct {
        uint64_t cycle;
        uint32_t word;
    } ilog[CP_THREADS][CP_ISSUE_LOG];
    uint64_t ilog_from[CP_THREADS]; /* each thread's issued count at the last cp_issue_log_clear */
    /* Something may still happen: set by a push, cleared at the end of a cycle after which every
     * thread is idle (nothing queued, latched or executing). While clear, a cycle only advances
     * the clocks (cp_cycle's fast path, cp_advance_idle). */
    bool active;
    /* A quiet stretch: the last full cycle only counted repeated holds (every gate idle or
     * repeating, the expanders stuck, no unpacker due), so every cycle before quiet_until does
     * the same, unless something from outside changes the coprocessor: every call that does
     * ends the stretch (cp_quiet_stop: 0). quiet_until: the first cycle at which a time the
     * model compares with can give another answer (tm_next_change, the latched waits'
     * recheck_at). While the coprocessor is idle (not active) it is UINT64_MAX, every way it goes
     * idle and every cp_quiet_stop keeping it so, so that cp_next_fast tells a full cycle from
     * the others by one compare of the clock. */
    uint64_t quiet_until;
    uint64_t quiet_cycles; /* cycles run as quiet-stretch cycles so far (cp_quiet_cycles) */
    uint32_t fifo_freed;   /* the FIFOs freed since seen full (cp_cycle's CP_CYCLE_FREED) */
    /* Bit t: thread t's expanders may have something to do. Cleared after a cycle in which they
     * did nothing (both steps said so: no word moved, no bubble ended), when the same state
     * gives the same nothing until a push or the gate's full step moves a word (fe_moved sets
     * it again; gate_pass's take cannot wake them, gate.c, nor can a TRISC's push behind words
     * in FIFO#1, cp.c push_word); clear after a reset too, when they have nothing to do either. */
    uint8_t fe_awake;
    /* The first cycle at which a dormant thread's latched STALLWAIT may answer otherwise (the
     * least recheck_at of those that dozed: cp_doze), or UINT64_MAX. */
    uint64_t dormant_until;
    /* The timing model (tm_place, cp_create; cp_t.tm points here): its head (tm_head_t, cp_tmh) at an
     * offset known here. The gates read its changed conditions and moves every cycle, the full
     * cycle moves its clock, asks its due time (cp_tm_due_at) and its error (cp_cycle's answer). */
    _Alignas(16) unsigned char tm_mem[];
};
/* The timing model's head at its fixed offset (cp_t.tm_mem). */
static inline tm_head_t *cp_tmh(const cp_t *cp) { return (tm_head_t *)(uintptr_t)cp->tm_mem; }
/* The coprocessor's cycle: the timing model's clock (cp_cycles), the one count of the cycles run.
 * A full cycle moves it after the gates and before the unpackers' due step (tm_cycle_due), which
 * reads only the model's own. */
static inline uint64_t cp_now(const cp_t *cp) { return cp_tmh(cp)->now; }
/* The Sync Unit's slots of this cycle (sync_t.sem_slot_at, mutex_at): the clock reads N in
 * cycle N's gates and in the harts' turns before it. */
static inline bool sync_slot_taken(const cp_t *cp) { return cp->sync.sem_slot_at == cp_now(cp) + 1; }
static inline void sync_take_slot(cp_t *cp) { cp->sync.sem_slot_at = cp_now(cp) + 1; }
static inline uint8_t sync_mutexes_used(const cp_t *cp) {
    return cp->sync.mutex_at == cp_now(cp) + 1 ? cp->sync.mutex_used : 0;
}
static inline void sync_use_mutex(cp_t *cp, unsigned idx) {
    cp->sync.mutex_used = (uint8_t)(sync_mutexes_used(cp) | 1u << idx);
    cp->sync.mutex_at = cp_now(cp) + 1;
}
/* A word was pushed into thread t or taken or consumed by its gate's full step: its expanders
 * may move again. */
static inline void fe_moved(cp_t *cp, unsigned t) {
    cp->fe_awake |= (uint8_t)(1u << t);
    cp_tmh(cp)->dormant &= (uint8_t) ~(1u << t);
}

/* How cp_cycle runs the next cycle: idle (only time passes), the reference path's plain cycle, a
 * quiet stretch's cycle or a full cycle of the fast path. One home for the choice, which the
 * tests that watch the shortcuts ask too; cp_next_fast is the choice without the plain cycle, for
 * cp_cycle_fast, whose caller knows the coprocessor is not on the reference path. */
typedef enum { CP_NEXT_IDLE, CP_NEXT_PLAIN, CP_NEXT_QUIET, CP_NEXT_FULL } cp_next_t;
static inline cp_next_t cp_next_fast(const cp_t *cp) { /* (not on the reference path: cp_cycle_fast) */
    /* An idle coprocessor's quiet_until is UINT64_MAX (cp_quiet_stop): a full cycle is told by one
     * compare. */
    if (__builtin_expect(cp_now(cp) >= cp->quiet_until, 1)) return CP_NEXT_FULL;
    return cp->active ? CP_NEXT_QUIET : CP_NEXT_IDLE;
}
/* Every dormant thread woken (cp.c cp_doze), none waiting for a recheck time. */
static inline void cp_wake_all(cp_t *cp) {
    cp_tmh(cp)->dormant = 0;
    cp->dormant_until = UINT64_MAX;
}
/* Something from outside changed the coprocessor: a quiet stretch ends (cp_t.quiet_until), and an
 * idle coprocessor stays marked idle there too (UINT64_MAX, cp_next_fast); every dormant thread
 * wakes. */
static inline void cp_quiet_stop(cp_t *cp) {
    cp->quiet_until = cp->active ? 0 : UINT64_MAX;
    cp_wake_all(cp);
}
/* The coprocessor goes idle (every way it does: a reset, a cycle's idle end on either path): no
 * longer active, and marked idle in quiet_until for cp_next_fast. Needed for the cycles, not only
 * for speed: a full cycle of an idle coprocessor may still use up a pending MOP bubble, which an
 * idle cycle keeps. */
static inline void cp_go_idle(cp_t *cp) {
    cp->active = false;
    cp->quiet_until = UINT64_MAX;
}
static inline cp_next_t cp_next_cycle(const cp_t *cp) {
    return cp->stepwise && cp->active ? CP_NEXT_PLAIN : cp_next_fast(cp);
}
/* Does a full cycle that moves the timing model's clock to `clock` call tm_cycle_due? The full
 * cycle moves the clock itself (one more than cp_tmh(cp)->now) and calls only once it reaches
 * the due time (cp_tmh(cp)->unp_due, the unpackers' next). */
static inline bool cp_tm_due_at(const cp_t *cp, uint64_t clock) { return clock >= cp_tmh(cp)->unp_due; }

/* The Wait Gate of thread t for one cycle (gate.c): evaluate the latched wait, try to pass the
 * head of FIFO#3, then forget a satisfied wait. gate_step decides the two commonest cycles
 * itself, gate_pass a head with nothing held or latched, gate_step_slow the rest (each one copy
 * per thread, CP_PER_THREAD_DECLARE; t a constant where gate_step is inlined: the unrolled
 * cp_cycle_step). */
/* What gate_step says of its cycle: GATE_QUIET, it changed nothing but the count of a repeated
 * hold (an idle gate, or a held head held as it was: then the same happens again until
 * something the hold depends on changes, cp_cycle's quiet stretch); GATE_FED, gate_pass took
 * the head and did the replay expander's step of the cycle with it (fe_take_replayed: the
 * thread's step goes on with fe_step_fed); GATE_BUSY, anything else. */
enum { GATE_BUSY = 0, GATE_QUIET = 1, GATE_FED = 2 };
/* gate_pass_as answers with gate_full's and gate_sync's bool (true: quiet) as they are. */
_Static_assert(GATE_BUSY == false && GATE_QUIET == true, "a gate step's bool is its answer");
CP_PER_THREAD_DECLARE(unsigned, gate_pass, (cp_t * cp), (cp))
CP_PER_THREAD_DECLARE(bool, gate_step_slow, (cp_t * cp), (cp))
/* The Wait Gate's cycle in full, without any shortcut (the reference path's: cp_t.stepwise). */
bool gate_step_full(cp_t *cp, unsigned t);

/* Would the latched wait's conditions be answered as they were last time (gate.c wait_busy)? Yes
 * while nothing they read has changed: for a STALLWAIT, none of its conditions' inputs
 * (the timing model's head, chg) and no busy one ran out; for a SEMWAIT, no semaphore. A STREAMWAIT reads the
 * tile's MMIO: always ask again. */
static inline bool gate_stallwait_unchanged(const cp_t *cp, unsigned t, const gate_t *g) {
    return cp_now(cp) < g->recheck_at && !(cp_tmh(cp)->chg[t] & g->wait.cond_mask & 0x1FFFu);
}
static inline bool gate_semwait_unchanged(const cp_t *cp, const gate_t *g) { return g->sem_seen == cp->sync.sem_gen; }
static inline bool gate_wait_unchanged(const cp_t *cp, unsigned t, const gate_t *g) {
    switch (g->wait.opcode) {
    case TT_OPC_STALLWAIT: return gate_stallwait_unchanged(cp, t, g);
    case TT_OPC_SEMWAIT: return gate_semwait_unchanged(cp, g);
    default: return false;
    }
}
/* Would a repeatable hold (gate_t.repeat) stand as it did? The question of its kind: the latched
 * wait's (as gate_wait_unchanged), or for a unit's refusal that stands until something moves, no
 * bank moved and no unpacker retired. */
static inline bool gate_hold_unchanged(const cp_t *cp, unsigned t, const gate_t *g) {
    /* (in this order: the cheapest measured, add1 and the whole program) */
    if (g->repeat == GATE_REPEAT_STALLWAIT) return gate_stallwait_unchanged(cp, t, g);
    if (g->repeat == GATE_REPEAT_SEMWAIT) return gate_semwait_unchanged(cp, g);
    return g->repeat == GATE_REPEAT_UNIT && g->unit_seen == cp_tmh(cp)->unit_moves;
}

/* gate_step says GATE_QUIET, GATE_FED or GATE_BUSY (above); gate_step_slow returns true for
 * GATE_QUIET's cycle. */
static inline unsigned gate_step(cp_t *cp, unsigned t) {
    gate_t *g = &cp->gate[t];
    if (!g->held) {
        /* Nothing latched, nothing at the head: the full step would find nothing to do (and
         * nothing to undo: a cycle that held nothing cleared the hold and ended the stall). */
        if (!g->wait.active) return fifo_empty(&cp->fe[t].fifo3) ? GATE_QUIET : gate_pass(cp, t);
    } else if (gate_hold_unchanged(cp, t, g)) {
        /* Held as it was (the latched wait, or a unit's refusal that only a Src hand-over or an
         * unpacker's retire can end: gate_t.repeat): counted later, in bulk (gate_settle, from
         * gate_t.repeat_from). */
        return GATE_QUIET;
    }
    return gate_step_slow(cp, t) ? GATE_QUIET : GATE_BUSY;
}
void gate_reset(gate_t *g);
/* Count thread t's repeated held cycles into its statistics and stall record. Every view of them
 * (cp_stats, cp_longest_stalls) settles first; nothing else reads them. */
void gate_settle(cp_t *cp, unsigned t);
/* Has thread t repeated held cycles not counted yet (gate_t.repeat_from)? */
static inline bool gate_unsettled(const cp_t *cp, unsigned t) {
    return cp->gate[t].repeat != GATE_REPEAT_NO && cp->gate[t].repeat_from < cp_now(cp);
}
/* Rank a finished stall among a thread's longest (cp.c). */
void cp_stall_rank(cp_stall_t *list, unsigned *n, const cp_stall_t *s);
/* Sync Unit side of the gate (sync.c): may word (a TT_UNIT_SYNC op) pass this cycle, and what it
 * does when it passes. */
bool sync_admit(cp_t *cp, unsigned t, uint32_t word, cp_hold_t *hold, unsigned *detail);
void sync_exec(cp_t *cp, unsigned t, uint32_t word, cp_origin_t origin);
/* Overlay stream a STREAMWAIT of thread t with StreamSelect sel watches (STREAMWAIT.md). */
unsigned sync_stream_index(const cp_t *cp, unsigned t, unsigned sel);

#endif
