/* coproc/cp.c — the Tensix coprocessor of one tile: three thread frontends, their Wait Gates, the
 * Sync Unit and the backend (its timing model coproc/timing.c over the architectural state
 * coproc/state.c, with the datapath coproc/datapath.c), stepped together once per cycle; and the
 * read-only views of coproc/cp_views.h.
 *
 * Per-cycle model (docs/coprocessor.md has the long form). Before cp_cycle() the harts have run
 * their step of the same tile cycle: pushes (cp_push), semaphore-window stores, config and GPR
 * accesses happened then. cp_cycle() then runs, in this fixed order:
 *
 *   for t = 0, 1, 2:
 *     gate_step(t)       Wait Gate: evaluate the latched wait, pass at most one instruction
 *                        (tm_dispatch / Sync Unit), forget a wait found satisfied
 *     fe_replay_step(t)  replay expander: FIFO#2 → FIFO#3 (or from the replay buffer)
 *     fe_mop_step(t)     MOP expander: FIFO#1 → FIFO#2
 *   tm_cycle()           the clock moves (the timing model's, which is the coprocessor's
 *                        cycle count: cp_now), backend units advance one cycle (coproc/timing.c)
 *   (the Sync Unit's per-cycle slots are free again: each holds its cycle, sync_slot_taken)
 *
 * Stages run downstream first, so a word moves at most one stage per cycle and a slot freed
 * downstream can be refilled in the same cycle: a word pushed in cycle N reaches the gate at
 * N+2 at the earliest and, unblocked, leaves it then. Lower-numbered threads see the Sync Unit
 * first within a cycle (mutex races, the shared semaphore slot); that is the only cross-thread
 * ordering, and it is deterministic.
 */
#include "coproc/cp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(TT_UNIT_COUNT <= sizeof(((cp_stats_t *)0)->stall_unit) / sizeof(uint64_t),
               "one stall counter per backend unit");

/* cp_reset's work but the timing model's and the datapath's: cp_create's are new, and tm_create
 * and dp_create reset them. */
static void reset_own(cp_t *cp) {
    st_reset(&cp->st);
    for (unsigned t = 0; t < CP_THREADS; t++) {
        fe_reset(&cp->fe[t]);
        gate_reset(&cp->gate[t]);
    }
    sync_reset(&cp->sync);
    memset(cp->stats, 0, sizeof cp->stats);
    memset(cp->ilog_from, 0, sizeof cp->ilog_from);
    cp_go_idle(cp);
    cp->fifo_freed = (1u << 2 * CP_THREADS) - 1;
    cp->fe_awake = 0;
    cp_wake_all(cp);
}

cp_t *cp_create(const cp_env_t *env) {
    cp_t *cp = calloc(1, sizeof *cp + tm_size()); /* the timing model in tm_mem */
    if (!cp) return NULL;
    if (env) cp->env = *env;
    cp->dp = dp_create();
    if (!cp->dp) {
        cp_destroy(cp);
        return NULL;
    }
    cp->tm = tm_place(cp->tm_mem, &cp->st, cp->dp, &cp->env);
    unsigned nops;
    const tt_op_t *ops = tt_ops(&nops); /* (cp_t is calloc'd: the other opcodes stay NULL) */
    for (unsigned i = 0; i < nops; i++) {
        cp->op[ops[i].opcode] = &ops[i];
        cp->op_pass[ops[i].opcode] = ops[i].gate != TT_GATE_NEVER && ops[i].unit != TT_UNIT_SYNC;
        cp->op_sync[ops[i].opcode] = ops[i].gate != TT_GATE_NEVER && ops[i].unit == TT_UNIT_SYNC;
    }
    reset_own(cp); /* cp_reset's state, the timing model and the datapath reset once (their _create) */
    return cp;
}

void cp_destroy(cp_t *cp) {
    if (!cp) return;
    dp_destroy(cp->dp); /* (the timing model goes with cp: tm_place) */
    free(cp);
}

void cp_reset(cp_t *cp) {
    reset_own(cp);
    tm_reset(cp->tm); /* reads and writes nothing of cp_t's own state: after it or before */
    dp_reset(cp->dp); /* (nor does this) */
}

bool cp_push(cp_t *cp, unsigned t, uint32_t word, bool after_mop) {
    return cp_push_from(cp, t, word, after_mop, (cp_origin_t){.pc = 0, .core = -1});
}

/* cp_push_from's work; cp_push_trisc's with after_mop false, known when it is compiled. */
static inline __attribute__((always_inline)) bool push_word(cp_t *cp, unsigned t, uint32_t word, bool after_mop,
                                                            cp_origin_t origin) {
    if (t >= CP_THREADS) return false;
    fe_thread_t *fe = &cp->fe[t];
    /* A word behind others in FIFO#1 wakes nothing and ends no quiet stretch: with the thread's
     * expanders asleep (cp_t.fe_awake), the MOP expander's last step found FIFO#1's head unable
     * to move (a plain word or an expansion's next with FIFO#2 full: a MOP, a MOP_CFG or a bubble
     * always moves), which a word behind the head does not change, and nothing else of a cycle
     * reads more of FIFO#1 than whether it is empty (fe_idle). Awake, they are stepped anyway, and
     * then no stretch stands (a quiet cycle found every thread's expanders asleep). Its count and
     * the thread's active mark are the push's own (below). A push after the MOP expander goes
     * into FIFO#2, behind nothing of FIFO#1: it wakes as before (with the expanders asleep and
     * FIFO#1 not empty, FIFO#2 is full and such a push is refused anyway). */
    bool behind = !after_mop && !fifo_empty(&fe->fifo1);
    if (!fe_push(fe, word, after_mop, origin)) return false;
    if (!behind) {
        fe_moved(cp, t);
        cp->quiet_until = 0;
    }
    cp_stats_t *st = &cp->stats[t];
    cp->active = true;
    if (st->pushed < CP_FIRST_PUSHED) st->first_pushed[st->pushed] = word;
    st->last_pushed = word;
    st->pushed++;
    /* The FIFO it entered (the other one's count did not change). */
    if (!after_mop && fe->fifo1.count > st->fifo_high_water) st->fifo_high_water = fe->fifo1.count;
    if (after_mop && fe->fifo2.count > st->fifo2_high_water) st->fifo2_high_water = fe->fifo2.count;
    return true;
}

bool cp_push_from(cp_t *cp, unsigned t, uint32_t word, bool after_mop, cp_origin_t origin) {
    return push_word(cp, t, word, after_mop, origin);
}

bool cp_push_trisc(cp_t *cp, unsigned t, uint32_t word, uint32_t pc, int core) {
    /* One body per thread: its FIFO and statistics at offsets known when compiled. */
    cp_origin_t origin = {.pc = pc, .core = (int8_t)core};
    switch (t) {
    case 0: return push_word(cp, 0, word, false, origin);
    case 1: return push_word(cp, 1, word, false, origin);
    case 2: return push_word(cp, 2, word, false, origin);
    default: return false;
    }
}
_Static_assert(CP_THREADS == 3, "cp_push_trisc has a case per thread");

void cp_fifo_seen_full(cp_t *cp, uint32_t bits) { cp->fifo_freed &= ~bits; }

/* cp_thread_idle's rule (t < CP_THREADS). */
static inline __attribute__((always_inline)) bool thread_idle(const cp_t *cp, unsigned t) {
    return fe_idle(&cp->fe[t]) && !cp->gate[t].wait.active && !tm_thread_busy(cp->tm, t);
}

/* cp_idle_threads of the threads in mask whose frontends and gates are idle: the model's part. */
static __attribute__((noinline)) unsigned idle_threads_tm(const cp_t *cp, unsigned mask) {
    unsigned idle = 0;
    for (unsigned m = mask; m; m &= m - 1) {
        unsigned t = (unsigned)__builtin_ctz(m);
        if (!tm_thread_busy(cp->tm, t)) idle |= 1u << t;
    }
    return idle;
}

/* cp_idle_threads' first part for thread t: its frontend and gate idle (t a constant: no multiply). */
static inline __attribute__((always_inline)) unsigned idle_fe_gate(const cp_t *cp, unsigned mask, unsigned t) {
    return (mask & 1u << t) && fe_idle(&cp->fe[t]) && !cp->gate[t].wait.active ? 1u << t : 0;
}

unsigned cp_idle_threads(const cp_t *cp, unsigned mask) {
    /* thread_idle's frontend and gate first, for all (no call: the commonest answer, a thread
     * still with words queued, needs no registers saved), each thread's at its own offsets, then
     * the model's part */
    unsigned maybe = idle_fe_gate(cp, mask, 0) | idle_fe_gate(cp, mask, 1) | idle_fe_gate(cp, mask, 2);
    return maybe ? idle_threads_tm(cp, maybe) : 0;
}
_Static_assert(CP_THREADS == 3, "cp_idle_threads asks each thread");

static inline __attribute__((always_inline)) bool all_idle(const cp_t *cp) {
    /* cp_thread_idle of every thread, the frontends and gates of all first (no calls), threads 2
     * and 1 first: while kernels run, the pack and math threads' FIFOs are seldom empty, the
     * unpacker's often are (a full cycle's answer comes after one test, not after thread 0's five
     * and then one). */
    static const unsigned order[CP_THREADS] = {2, 1, 0};
    for (unsigned i = 0; i < CP_THREADS; i++)
        if (!fe_idle(&cp->fe[order[i]]) || cp->gate[order[i]].wait.active) return false;
    for (unsigned t = 0; t < CP_THREADS; t++)
        if (tm_thread_busy(cp->tm, t)) return false;
    return true;
}

/* n cycles of a quiet stretch (cp_t.quiet_until; n at most cp_quiet_left): what the full cycle
 * would do, as it did in the cycle before (a held gate repeats its hold: the clock counts them,
 * gate_t.repeat_from). */
static void cp_quiet_run(cp_t *cp, uint64_t n) {
    cp_tmh(cp)->now += n; /* tm_advance_idle's clock: nothing is due before quiet_until */
    cp->quiet_cycles += n;
}

uint64_t cp_quiet_left(const cp_t *cp) { return cp_next_cycle(cp) == CP_NEXT_QUIET ? cp->quiet_until - cp_now(cp) : 0; }

uint64_t cp_quiet_cycles(const cp_t *cp) { return cp->quiet_cycles; }

/* When the quiet stretch that starts now ends (cp_t.quiet_until): the first cycle at which a time
 * the timing model or a latched STALLWAIT's answer compares with is reached (every gate that
 * holds something in a quiet cycle asks its latched wait, if any, again then). */
static uint64_t cp_quiet_end(const cp_t *cp) {
    uint64_t end = tm_next_change(cp->tm);
    for (unsigned t = 0; t < CP_THREADS; t++) {
        const gate_t *g = &cp->gate[t];
        if (g->held && g->wait.active && g->wait.opcode == TT_OPC_STALLWAIT && g->recheck_at < end) end = g->recheck_at;
    }
    return end;
}

/* What a cycle's status says of the coprocessor: idle, failed. */
static inline unsigned cp_status_of(const cp_t *cp, bool idle) {
    return (idle ? CP_CYCLE_IDLE : 0) | (cp_tmh(cp)->err.cat != CP_ERR_NONE ? CP_CYCLE_FAILED : 0);
}
static unsigned cp_cycle_status(const cp_t *cp) { return cp_status_of(cp, !cp->active); }

/* The reference path's cycle (cp_t.stepwise): every gate and expander stepped in full, as
 * before any of the shortcuts, for test/sh/t_fastpath.sh to compare them with. */
static __attribute__((noinline)) unsigned cp_cycle_plain(cp_t *cp) {
    for (unsigned t = 0; t < CP_THREADS; t++) {
        fe_thread_t *fe = &cp->fe[t];
        gate_step_full(cp, t);
        uint32_t counts = fe_counts(fe);
        fe_replay_step(fe);
        fe_mop_step(fe);
        uint32_t after = fe_counts(fe);
        if ((after & 0xFFu) < (counts & 0xFFu)) cp->fifo_freed |= 1u << t;
        if ((after & 0xFF00u) < (counts & 0xFF00u)) cp->fifo_freed |= 1u << (CP_THREADS + t);
        /* FIFO#2's high water measured at the cycle's end (after the MOP expander's push, the
         * thread's last step), not by the expander's note (cp_stats) */
        if (fe->fifo2.count > cp->stats[t].fifo2_high_water) cp->stats[t].fifo2_high_water = fe->fifo2.count;
    }
    tm_cycle(cp->tm); /* (and the clock, cp_now) */
    if (all_idle(cp))
        cp_go_idle(cp);
    else
        cp->active = true;
    return cp_cycle_status(cp) | cp->fifo_freed << CP_CYCLE_FREED_SHIFT;
}

/* Thread t's step found its gate quiet and its expanders asleep: is it dormant, its next steps
 * the same until something it reads changes (tm_head_t.dormant)? Its gate idle (nothing held or
 * latched, FIFO#3 empty: only its expanders fill it, and a push or a move wakes them, fe_moved),
 * or a hold that repeats while what it reads stands: a latched SEMWAIT's (the semaphores:
 * sync_exec, cp_sem_write's cp_quiet_stop), a latched STALLWAIT's (its conditions' inputs:
 * tm_changed_all, tm_unp_retire, a RISC-V write's cp_quiet_stop; its recheck_at: dormant_until,
 * asked before the threads' steps) or a unit's refusal
 * (unit_moves: tm_changed_all, tm_unp_retire). Those wake only the threads whose hold reads what
 * they change (tm_head_t.wake_on, set here); every call from outside wakes them all
 * (cp_quiet_stop). */
static inline __attribute__((always_inline)) void cp_doze(cp_t *cp, unsigned t) {
    const gate_t *g = &cp->gate[t];
    uint32_t wake_on = 0; /* (an idle gate: of the targeted wakes, only fe_moved) */
    if (g->held) {
        /* Only a hold that the next cycle would find unchanged by gate_step's own question: one
         * that repeated by asking again (gate_repeat) may be held for another reason now (a
         * unit's refusal after its unit_moves moved: its unit_seen is the old one). */
        if (!gate_hold_unchanged(cp, t, g)) return;
        /* What that question reads (gate_hold_unchanged), besides the clock: */
        if (g->repeat == GATE_REPEAT_STALLWAIT) {
            if (g->recheck_at < cp->dormant_until) cp->dormant_until = g->recheck_at;
            wake_on = g->wait.cond_mask & TM_WAKE_CONDS;
        } else {
            wake_on = g->repeat == GATE_REPEAT_SEMWAIT ? TM_WAKE_SEM : TM_WAKE_MOVES;
        }
    }
    cp_tmh(cp)->wake_on[t] = wake_on;
    cp_tmh(cp)->dormant |= (uint8_t)(1u << t);
}

/* Thread t's part of a full cycle: its gate, then its expanders. True when it changed nothing but
 * the count of a repeated hold. */
static inline __attribute__((always_inline)) bool cp_thread_step(cp_t *cp, unsigned t) {
    if (cp_tmh(cp)->dormant & (1u << t)) return true; /* (cp_doze) */
    fe_thread_t *fe = &cp->fe[t];
    unsigned gate = gate_step(cp, t);
    bool quiet = gate == GATE_QUIET;
    /* The expanders, unless they would do again what they did last cycle: nothing. After a cycle
     * in which neither changed anything (fe_replay_step, fe_mop_step), only a push or the gate
     * can give them something else to do (cp_t.fe_awake). The replay expander's step may be
     * done already, with the gate's take (GATE_FED): then they are stepped without a look at
     * cp_t.fe_awake (their step as the reference path's; they are awake then anyway, gate.c). */
    if (gate == GATE_FED || (cp->fe_awake & (1u << t))) {
        unsigned did = gate == GATE_FED ? fe_step_fed(fe) : fe_step(fe);
        quiet = false;
        /* A FIFO with fewer words than before: FIFO#1 only loses words here, FIFO#2 nets the
         * replay expander's take against the MOP expander's word (fe_step). */
        cp->fifo_freed |= (did & (FE_POP1 | FE_POP2)) << t;
        if (!did) cp->fe_awake &= (uint8_t) ~(1u << t);
        /* (FIFO#2's high water: the MOP expander notes its own, BRISC's push its own.) */
    } else if (quiet) {
        cp_doze(cp, t);
    }
    return quiet;
}

_Static_assert(CP_THREADS == 3, "cp_cycle_step steps the threads one by one");

/* A full cycle of the fast path. The threads in order, unrolled (their state at fixed offsets, no
 * loop to keep). err: the status says CP_CYCLE_FAILED (else the caller asks cp_failed). */
static inline __attribute__((always_inline)) unsigned cp_cycle_step_as(cp_t *cp, bool err) {
    if (cp_now(cp) >= cp->dormant_until) cp_wake_all(cp); /* a dormant STALLWAIT's time (cp_doze) */
    bool quiet = cp_thread_step(cp, 0);
    quiet &= cp_thread_step(cp, 1);
    quiet &= cp_thread_step(cp, 2);
    /* tm_cycle, its commonest cycle (nothing due: only the clock moves) without a call */
    if (cp_tm_due_at(cp, ++cp_tmh(cp)->now) && tm_cycle_due(cp->tm)) quiet = false;
    /* (A full cycle runs only while active, cp_next_fast, and nothing in it clears that: only an
     * idle end does, with no store otherwise.) */
    bool idle = all_idle(cp);
    if (idle) cp_go_idle(cp);
    /* Nothing changed but the counts: the cycles until a time is reached will do the same. The
     * FIFOs' bits read as the byte they fit in (cp.h): the caller's test of the marks above them
     * (CP_CYCLE_IDLE, CP_CYCLE_QUIET) is then known false on the way that sets neither. */
    unsigned freed = (uint8_t)cp->fifo_freed;
    unsigned s = (err ? cp_status_of(cp, idle) : idle ? CP_CYCLE_IDLE : 0) | freed << CP_CYCLE_FREED_SHIFT;
    if (quiet && !idle) {
        cp->quiet_until = cp_quiet_end(cp);
        if (cp_now(cp) < cp->quiet_until) s |= CP_CYCLE_QUIET;
    }
    return s;
}

/* Out of line: an idle or a quiet cycle (cp_cycle) stays small. */
static __attribute__((noinline)) unsigned cp_cycle_step(cp_t *cp) { return cp_cycle_step_as(cp, true); }

/* cp_cycle's idle and quiet cycles, out of line: cp_cycle only picks the way (tail calls, no
 * frame to set up). */
static inline void idle_cycles(cp_t *cp, uint64_t n) { /* (nothing to step, only time passes) */
    tm_advance_idle(cp->tm, n);                        /* (the clock, cp_now) */
}
static __attribute__((noinline)) unsigned cp_cycle_idle(cp_t *cp) {
    idle_cycles(cp, 1);
    return cp_cycle_status(cp);
}
static __attribute__((noinline)) unsigned cp_cycle_quiet(cp_t *cp) {
    cp_quiet_run(cp, 1);
    return cp_cycle_status(cp) | (cp_now(cp) < cp->quiet_until ? CP_CYCLE_QUIET : 0);
}

static inline unsigned cycle_by(cp_t *cp, cp_next_t way) {
    switch (way) {
    case CP_NEXT_IDLE: return cp_cycle_idle(cp);
    case CP_NEXT_PLAIN: return cp_cycle_plain(cp);
    case CP_NEXT_QUIET: return cp_cycle_quiet(cp);
    default: return cp_cycle_step(cp);
    }
}

unsigned cp_cycle(cp_t *cp) { return cycle_by(cp, cp_next_cycle(cp)); }

unsigned cp_cycle_fast(cp_t *cp) { return cycle_by(cp, cp_next_fast(cp)); }

__attribute__((always_inline)) inline unsigned cp_cycle_busy(cp_t *cp) {
    cp_next_t way = cp_next_fast(cp);
    if (__builtin_expect(way == CP_NEXT_FULL, 1)) return cp_cycle_step_as(cp, false);
    return cycle_by(cp, way);
}

__attribute__((always_inline)) inline bool cp_failed(const cp_t *cp) { return cp_tmh(cp)->err.cat != CP_ERR_NONE; }

void cp_advance_idle(cp_t *cp, uint64_t n) {
    if (cp->active) { /* not idle: a quiet stretch's cycles at once, the others stepped */
        while (n) {
            uint64_t q = cp_quiet_left(cp);
            if (q) {
                q = q < n ? q : n;
                cp_quiet_run(cp, q);
                n -= q;
            } else {
                cp_cycle(cp);
                n--;
            }
        }
        return;
    }
    idle_cycles(cp, n);
}

uint64_t cp_advance_to(cp_t *cp, uint64_t cycle) {
    uint64_t n = cycle - cp_now(cp);
    cp_advance_idle(cp, n);
    return n;
}

bool cp_is_idle(const cp_t *cp) { return !cp->active; }

void cp_set_gate_policy(cp_t *cp, cp_gate_policy_t p) {
    if ((unsigned)p < CP_GATE_POLICIES) cp->policy = p;
    cp_quiet_stop(cp);
}

cp_gate_policy_t cp_gate_policy(const cp_t *cp) { return cp->policy; }

void cp_count_sem_moves(cp_t *cp, uint64_t *count) { cp->sync.moves = count; /* (sync_reset keeps it) */ }

void cp_count_errors(cp_t *cp, uint64_t *count) { tm_count_errors(cp->tm, count); }

void cp_set_stepwise(cp_t *cp, bool on) {
    /* The plain cycle does not keep the expanders' stuck mark (cp_thread_step): not known to be
     * stuck when the fast path takes over. */
    if (cp->stepwise && !on) cp->fe_awake = (1u << CP_THREADS) - 1;
    /* The fast path's FIFO#2 high water so far kept (cp_stats folds it in on the fast path only). */
    for (unsigned t = 0; !cp->stepwise && on && t < CP_THREADS; t++)
        if (cp->fe[t].fifo2_high > cp->stats[t].fifo2_high_water) cp->stats[t].fifo2_high_water = cp->fe[t].fifo2_high;
    cp->stepwise = on;
    cp_quiet_stop(cp);
    tm_set_reference(cp->tm, on);
    dp_set_reference(cp->dp, on);
}

static const char *const gate_policy_names[CP_GATE_POLICIES] = {
    [CP_GATE_EXACT] = "exact", [CP_GATE_WHOLE_THREAD] = "whole-thread"};

const char *cp_gate_policy_name(cp_gate_policy_t p) {
    return (unsigned)p < CP_GATE_POLICIES ? gate_policy_names[p] : "?";
}

int cp_gate_policy_parse(const char *s) {
    for (int p = 0; s && p < CP_GATE_POLICIES; p++)
        if (!strcmp(s, gate_policy_names[p])) return p;
    return -1;
}

/* CoprocessorDoneCheck (ManualTTSync.md): nothing of thread t in a FIFO, an expander, the gate
 * (a latched wait counts: it may still hold back what the thread pushes next) or the backend. */
bool cp_thread_idle(const cp_t *cp, unsigned t) { return t >= CP_THREADS || thread_idle(cp, t); }

bool cp_mop_idle(const cp_t *cp, unsigned t) { return t >= CP_THREADS || fe_mop_idle(&cp->fe[t]); }

/* ---- RISC-V windows ------------------------------------------------------------------------- */

uint32_t cp_sem_read(const cp_t *cp, unsigned i) { return i < CP_NUM_SEMS ? cp->sync.sem[i].value : 0; }
const uint32_t *cp_sem_word(const cp_t *cp, unsigned i) { return &cp->sync.sem[i].value; }

/* SyncUnit.md "RISCV access to semaphores": bit0 set → like SEMGET (floor 0), clear → like
 * SEMPOST (saturates at 15; Max untouched). The write takes this cycle's semaphore slot. */
void cp_sem_write(cp_t *cp, unsigned t, unsigned i, uint32_t val) {
    if (i >= CP_NUM_SEMS) return;
    cp_quiet_stop(cp);
    if (val & 1)
        sync_sem_get(&cp->sync, (uint8_t)(1u << i));
    else
        sync_sem_post(&cp->sync, (uint8_t)(1u << i));
    sync_take_slot(cp);
    sync_sem_note(&cp->sync, t, (uint8_t)(1u << i), !(val & 1), true, cp_now(cp));
    if (t < CP_THREADS) cp->stats[t].sem_writes++;
}

uint32_t cp_gpr_read(const cp_t *cp, unsigned t, unsigned i) {
    return t < CP_THREADS && i < CP_NUM_GPRS ? cp->st.gpr[t][i] : 0;
}

void cp_gpr_write(cp_t *cp, unsigned t, unsigned i, uint32_t val) {
    cp_quiet_stop(cp);
    if (t < CP_THREADS && i < CP_NUM_GPRS) cp->st.gpr[t][i] = val;
}

void cp_note_riscv_write(cp_t *cp, unsigned t) {
    cp_quiet_stop(cp);
    if (t < CP_THREADS) tm_note_riscv_cfg_write(cp->tm, t);
}

void cp_mopcfg_write(cp_t *cp, unsigned t, unsigned idx, uint32_t val) {
    cp_quiet_stop(cp);
    if (t < CP_THREADS && idx < FE_MOPCFG_WORDS) cp->fe[t].mop.cfg[idx] = val;
}

bool cp_cfg_read(const cp_t *cp, uint32_t byte_off, uint32_t *val) { return st_cfg_read(&cp->st, byte_off, val); }

/* BackendConfiguration.md: RISC-V may write Config (and ConfigDualWrite) with sw, never
 * ThreadConfig (that takes SETC16). A TRISC's write feeds condition C10. */
bool cp_cfg_write(cp_t *cp, int from_thread, uint32_t byte_off, uint32_t val) {
    cp_quiet_stop(cp);
    if (st_cfg_is_thdcfg(byte_off)) return false;
    if (from_thread >= 0 && from_thread < CP_THREADS) tm_note_riscv_cfg_write(cp->tm, (unsigned)from_thread);
    return st_cfg_write(&cp->st, byte_off, val);
}

/* CSRs.md tt_cfg_qstatus: [10:0] classes still in the frontend for T_t (elsewhere the OR over
 * threads), [11] sfpu_cc, [23:13] OR over threads, [24] copy of bit 11. sfpu_cc needs the SFPU's
 * lane flags, which ttemu's backend does not expose: it reads 0. */
uint32_t cp_qstatus(const cp_t *cp, int t) {
    uint32_t all = 0, own = 0;
    for (unsigned i = 0; i < CP_THREADS; i++) {
        uint32_t c = fe_classes(&cp->fe[i]);
        all |= c;
        if ((int)i == t) own = c;
    }
    if (t < 0 || t >= CP_THREADS) own = all;
    return own | (all << 13);
}

/* CSRs.md tt_cfg_bstatus: [10:0] classes queued in the frontend or executing in the backend for
 * T_t (elsewhere the OR), [21:11] OR over threads. */
uint32_t cp_bstatus(const cp_t *cp, int t) {
    uint32_t all = 0, own = 0;
    for (unsigned i = 0; i < CP_THREADS; i++) {
        uint32_t c = (fe_classes(&cp->fe[i]) | tm_busy_classes(cp->tm, i)) & 0x7FF;
        all |= c;
        if ((int)i == t) own = c;
    }
    if (t < 0 || t >= CP_THREADS) own = all;
    return own | (all << 11);
}

/* ---- read-only views -------------------------------------------------------------------------- */

const unsigned cp_mutex_index[CP_MUTEXES] = {0, 2, 3, 4};

const char *cp_sem_llk_name(unsigned i) {
    static const char *const names[CP_NUM_SEMS] = {
        "",          "MATH_PACK",   "UNPACK_TO_DEST",   "UNPACK_OPERAND_SYNC",
        "PACK_DONE", "UNPACK_SYNC", "UNPACK_MATH_DONE", "MATH_DONE"};
    return i < CP_NUM_SEMS ? names[i] : "";
}

void cp_hold_label(cp_hold_t h, unsigned detail, char *buf, size_t len) {
    switch (h) {
    case CP_HOLD_WAIT_COND: snprintf(buf, len, "C%u", detail); break;
    case CP_HOLD_WAIT_SEM: snprintf(buf, len, "sem %u", detail); break;
    case CP_HOLD_WAIT_STREAM: snprintf(buf, len, "stream %u", detail); break;
    case CP_HOLD_WAIT_LAG: snprintf(buf, len, "lag"); break;
    case CP_HOLD_MUTEX: snprintf(buf, len, "mutex %u", detail); break;
    case CP_HOLD_MUTEX_INVALID: snprintf(buf, len, "mutex_invalid %u", detail); break;
    case CP_HOLD_SYNC_SLOT: snprintf(buf, len, "sync_slot"); break;
    case CP_HOLD_UNIT: snprintf(buf, len, "unit %s", tt_unit_name((tt_unit_t)detail)); break;
    case CP_HOLD_UNDEFINED: snprintf(buf, len, "undefined 0x%02x", detail); break;
    default: snprintf(buf, len, "none"); break;
    }
}

const char *cp_hold_name(cp_hold_t h) {
    static const char *const names[CP_HOLD_COUNT] = {
        [CP_HOLD_NONE] = "none",
        [CP_HOLD_WAIT_COND] = "stallwait",
        [CP_HOLD_WAIT_SEM] = "semwait",
        [CP_HOLD_WAIT_STREAM] = "streamwait",
        [CP_HOLD_WAIT_LAG] = "wait_release_lag",
        [CP_HOLD_MUTEX] = "mutex",
        [CP_HOLD_MUTEX_INVALID] = "mutex_invalid",
        [CP_HOLD_SYNC_SLOT] = "sync_slot",
        [CP_HOLD_UNIT] = "unit_busy",
        [CP_HOLD_UNDEFINED] = "undefined_opcode",
    };
    return (unsigned)h < CP_HOLD_COUNT ? names[h] : "?";
}

void cp_thread_state(const cp_t *cp, unsigned t, cp_thread_state_t *out) {
    memset(out, 0, sizeof *out);
    if (t >= CP_THREADS) return;
    const gate_t *g = &cp->gate[t];
    const fe_thread_t *fe = &cp->fe[t];
    out->held = g->held;
    out->held_word = g->held_word;
    out->held_origin = g->stall.origin;
    out->held_since = g->stall.start;
    out->hold = g->hold;
    out->hold_detail = g->hold_detail;
    out->hold_mask = g->hold_mask;
    out->wait = g->wait;
    out->fifo1 = fe->fifo1.count;
    out->fifo2 = fe->fifo2.count;
    out->fifo3 = fe->fifo3.count;
    out->mop_busy = fe->mop.kind != MOP_IDLE;
    out->replay_busy = fe->rp.mode != RP_PASS;
    out->replay_left = fe->rp.mode != RP_PASS ? fe->rp.len - fe->rp.k : 0;
}

/* The views settle the repeated held cycles first (gate_settle): that changes how the counts are
 * kept, not what they are, so the view stays a view of a const cp_t (never a const object: cp_create
 * allocates it). */
const cp_stats_t *cp_stats(const cp_t *cp, unsigned t) {
    if (t >= CP_THREADS) return NULL;
    if (gate_unsettled(cp, t)) gate_settle((cp_t *)cp, t); /* (no call when there is nothing to settle) */
    cp_stats_t *st = (cp_stats_t *)&cp->stats[t];
    /* FIFO#2's high water: the fast path's MOP expander notes its own (fe_thread_t.fifo2_high);
     * the reference path measures it its own way, at each cycle's end (cp_cycle_plain), so that
     * t_fastpath compares the two measures. */
    if (!cp->stepwise && cp->fe[t].fifo2_high > st->fifo2_high_water) st->fifo2_high_water = cp->fe[t].fifo2_high;
    /* The last issue's cycle: its log entry (cp_t.ilog; 0 before the first, as reset). */
    if (st->issued) st->last_issue_cycle = cp->ilog[t][(st->issued - 1) % CP_ISSUE_LOG].cycle;
    return st;
}

uint64_t cp_cycles(const cp_t *cp) { return cp_now(cp); }

const cp_error_t *cp_fault(const cp_t *cp) { return tm_error(cp->tm); }

const char *cp_error(const cp_t *cp) {
    const cp_error_t *e = tm_error(cp->tm);
    return e ? e->what : NULL;
}

unsigned cp_sem_max(const cp_t *cp, unsigned i) { return i < CP_NUM_SEMS ? cp->sync.sem[i].max : 0; }

int cp_mutex_holder(const cp_t *cp, unsigned idx) { return sync_mutex_valid(idx) ? cp->sync.holder[idx] : -1; }

unsigned cp_issue_log(const cp_t *cp, cp_issue_t *out, unsigned max) {
    /* The last min(max, CP_ISSUE_LOG) issues since the clear, newest first from the three rings
     * (each of them is among its thread's last CP_ISSUE_LOG), then turned oldest first. */
    uint64_t next[CP_THREADS], from[CP_THREADS]; /* each ring's next entry back, and its oldest */
    for (unsigned t = 0; t < CP_THREADS; t++) {
        next[t] = cp->stats[t].issued;
        from[t] = cp->ilog_from[t];
        if (next[t] - from[t] > CP_ISSUE_LOG) from[t] = next[t] - CP_ISSUE_LOG;
    }
    if (max > CP_ISSUE_LOG) max = CP_ISSUE_LOG;
    unsigned n = 0;
    for (; n < max; n++) {
        int pick = -1; /* the latest: the larger cycle, in a tie the later thread */
        for (unsigned t = 0; t < CP_THREADS; t++)
            if (next[t] > from[t] && (pick < 0 || cp->ilog[t][(next[t] - 1) % CP_ISSUE_LOG].cycle >=
                                                      cp->ilog[pick][(next[pick] - 1) % CP_ISSUE_LOG].cycle))
                pick = (int)t;
        if (pick < 0) break;
        next[pick]--;
        out[n] = (cp_issue_t){.cycle = cp->ilog[pick][next[pick] % CP_ISSUE_LOG].cycle,
                              .word = cp->ilog[pick][next[pick] % CP_ISSUE_LOG].word,
                              .thread = (uint8_t)pick};
    }
    for (unsigned i = 0; i < n / 2; i++) {
        cp_issue_t x = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = x;
    }
    return n;
}

/* Insert s into a longest-first list of at most CP_LONGEST_STALLS; ties keep the earlier first. */
void cp_stall_rank(cp_stall_t *list, unsigned *n, const cp_stall_t *s) {
    unsigned pos = *n;
    while (pos > 0 && list[pos - 1].cycles < s->cycles)
        pos--;
    if (pos >= CP_LONGEST_STALLS) return;
    unsigned last = *n < CP_LONGEST_STALLS ? *n : CP_LONGEST_STALLS - 1;
    for (unsigned k = last; k > pos; k--)
        list[k] = list[k - 1];
    list[pos] = *s;
    if (*n < CP_LONGEST_STALLS) (*n)++;
}

unsigned cp_longest_stalls(const cp_t *cp, unsigned t, cp_stall_t out[CP_LONGEST_STALLS]) {
    if (t >= CP_THREADS) return 0;
    const cp_stats_t *st = cp_stats(cp, t);
    unsigned n = st->nlongest;
    memcpy(out, st->longest, n * sizeof *out);
    if (cp->gate[t].stall.ongoing) cp_stall_rank(out, &n, &cp->gate[t].stall);
    return n;
}

unsigned cp_thread_queued(const cp_t *cp, unsigned t, uint32_t *out, unsigned max) {
    if (t >= CP_THREADS) return 0;
    const fe_thread_t *fe = &cp->fe[t];
    unsigned n = 0;
    for (unsigned i = 1; i < fe->fifo3.count && n < max; i++)
        out[n++] = fifo_at(&fe->fifo3, i);
    if (fe->rp.mode == RP_REPLAY)
        for (unsigned k = fe->rp.k; k < fe->rp.len && n < max; k++)
            out[n++] = fe->rp.buf[(fe->rp.start + k) % FE_REPLAY_DEPTH];
    for (unsigned i = 0; i < fe->fifo2.count && n < max; i++)
        out[n++] = fifo_at(&fe->fifo2, i);
    for (unsigned i = 0; i < fe->fifo1.count && n < max; i++)
        out[n++] = fifo_at(&fe->fifo1, i);
    return n;
}

void cp_issue_log_clear(cp_t *cp) {
    for (unsigned t = 0; t < CP_THREADS; t++)
        cp->ilog_from[t] = cp->stats[t].issued;
}

int cp_last_unit(const cp_t *cp, unsigned t) { return tm_last_unit(cp->tm, t); }

/* ---- descriptions of a hold (the report, the summary, the panel) ------------------------------ */

static const char *cp_wait_opcode_name(uint8_t opc) {
    return opc == TT_OPC_SEMWAIT ? "SEMWAIT" : opc == TT_OPC_STREAMWAIT ? "STREAMWAIT" : "STALLWAIT";
}

const char *cp_wait_name(const cp_wait_t *w) { return cp_wait_opcode_name(w->opcode); }

/* "why": one line naming the cause, e.g. "ATGETM with invalid mutex index 5 waits forever". */
void cp_hold_why(const cp_thread_state_t *s, char *buf, size_t len) {
    switch (s->hold) {
    case CP_HOLD_WAIT_COND:
        snprintf(buf, len, "blocked by latched %s: condition C%u busy (mask 0x%x)", cp_wait_opcode_name(s->wait.opcode),
                 s->hold_detail, s->hold_mask);
        break;
    case CP_HOLD_WAIT_SEM:
        snprintf(buf, len, "blocked by latched SEMWAIT: semaphore %u (mask 0x%x)", s->hold_detail, s->hold_mask);
        break;
    case CP_HOLD_WAIT_STREAM:
        snprintf(buf, len, "blocked by latched STREAMWAIT on stream %u (target %u)", s->hold_detail, s->wait.target);
        break;
    case CP_HOLD_WAIT_LAG: snprintf(buf, len, "latched wait satisfied; block mask lifts next cycle"); break;
    case CP_HOLD_MUTEX: snprintf(buf, len, "mutex %u is held by or handed to another thread", s->hold_detail); break;
    case CP_HOLD_MUTEX_INVALID:
        snprintf(buf, len, "%s with invalid mutex index %u waits forever (Blackhole has 0, 2, 3, 4)",
                 TT_OPCODE(s->held_word) == TT_OPC_ATRELM ? "ATRELM" : "ATGETM", s->hold_detail);
        break;
    case CP_HOLD_SYNC_SLOT: snprintf(buf, len, "Sync Unit semaphore/wait slot already used this cycle"); break;
    case CP_HOLD_UNIT:
        snprintf(buf, len, "%s unit does not accept it yet", tt_unit_name((tt_unit_t)s->hold_detail));
        break;
    case CP_HOLD_UNDEFINED:
        snprintf(buf, len, "opcode 0x%02x does not exist on Blackhole (held forever)", s->hold_detail);
        break;
    default: snprintf(buf, len, "-"); break;
    }
}
