/* coproc/gate.c — the Wait Gate of one Tensix thread (STALLWAIT.md, SEMWAIT.md, STREAMWAIT.md;
 * TENSIX.md §3.5).
 *
 * Each cycle, for thread t:
 *   1. If a wait was latched in an earlier cycle, evaluate its conditions (all must be met).
 *   2. The head of FIFO#3 passes if the latched block mask does not block it (NOP: only a mask of
 *      all nine bits blocks it; STALLWAIT/SEMWAIT/STREAMWAIT: any bit; under the whole-thread
 *      gate policy the mask is all nine bits, docs/gate-policies.md), the Sync Unit admits it
 *      (mutexes, throughput) and its backend unit accepts it (tm_can_accept). At most one
 *      instruction per thread per cycle; a held instruction holds everything behind it.
 *   3. A wait found satisfied in step 1 is forgotten at the end of the cycle: "there is a one
 *      cycle lag between the condition(s) being met and the block mask being removed", and the
 *      instruction right after a wait meets its block mask at least once (STALLWAIT.md).
 */
#include "coproc/cp_internal.h"

#include <string.h>

/* Overlay stream register indices on Blackhole (tt-metal blackhole noc_overlay_parameters.h;
 * consistent with the CB counters at indices 8 and 10, TENSIX.md §2.8). */
enum { STREAM_CURR_PHASE_REG_INDEX = 29, STREAM_NUM_MSGS_RECEIVED_REG_INDEX = 259 };
#define NOC_OVERLAY_START_ADDR    0xFFB40000u
#define NOC_STREAM_REG_SPACE_SIZE 0x1000u

void gate_reset(gate_t *g) {
    memset(g, 0, sizeof *g);
    g->waiting_mutex = -1;
}

static unsigned lowest_bit(uint32_t m) { return m ? (unsigned)__builtin_ctz(m) : 0; }

/* wait_busy's STALLWAIT on the reference path, which asks each condition on its own, every cycle
 * (tm_cond_busy). Out of line, as wait_stream_busy: wait_busy's common ways make no call. */
static __attribute__((noinline)) uint32_t wait_conds_busy(cp_t *cp, unsigned t, uint32_t sel) {
    uint32_t busy = 0;
    for (uint32_t m = sel; m; m &= m - 1)
        if (tm_cond_busy(cp->tm, t, (unsigned)__builtin_ctz(m))) busy |= m & -m;
    return busy;
}

/* STREAMWAIT.md: keep waiting while the stream's CURR_PHASE (C0) or NUM_MSGS_RECEIVED (C1) <
 * TargetValue. Read through the tile's MMIO; an unreadable register (no such device) counts as
 * satisfied rather than hanging the thread. */
static __attribute__((noinline)) uint32_t wait_stream_busy(cp_t *cp, unsigned t, const cp_wait_t *w) {
    unsigned reg = (w->cond_mask & 2) ? STREAM_NUM_MSGS_RECEIVED_REG_INDEX : STREAM_CURR_PHASE_REG_INDEX;
    unsigned s = sync_stream_index(cp, t, w->stream_sel);
    uint32_t v = 0;
    if (!cp->env.mmio_load ||
        !cp->env.mmio_load(cp->env.ctx, NOC_OVERLAY_START_ADDR + NOC_STREAM_REG_SPACE_SIZE * s + 4 * reg, &v))
        return 0;
    if (reg == STREAM_CURR_PHASE_REG_INDEX) v &= 0xFFFFF; /* 20-bit phase */
    return v < w->target;
}

/* What keeps the latched wait waiting: its selected conditions (a STALLWAIT) or semaphores (a
 * SEMWAIT) that say so, 1 for a STREAMWAIT not reached; 0 when all are met. Notes until when the
 * answer stands if nothing it reads changes (wait_unchanged). */
static uint32_t wait_busy(cp_t *cp, unsigned t) {
    gate_t *g = &cp->gate[t];
    const cp_wait_t *w = &g->wait;
    switch (w->opcode) {
    case TT_OPC_STALLWAIT:
        /* STALLWAIT.md: keep waiting while any selected Cn says so (sources: the backend). */
        if (cp->stepwise) return wait_conds_busy(cp, t, w->cond_mask & 0x1FFFu);
        return tm_cond_eval(cp->tm, t, w->cond_mask & 0x1FFFu, &g->recheck_at); /* the selected ones only */
    case TT_OPC_SEMWAIT: {
        /* SEMWAIT.md: C0 — any selected Value == 0; C1 — any selected Value >= Max. */
        uint32_t busy = 0;
        g->sem_seen = cp->sync.sem_gen;
        for (uint32_t m = w->sem_mask & ((1u << CP_NUM_SEMS) - 1); m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctz(m);
            const sync_sem_t *s = &cp->sync.sem[i];
            if (((w->cond_mask & 1) && s->value == 0) || ((w->cond_mask & 2) && s->value >= s->max)) busy |= 1u << i;
        }
        return busy;
    }
    case TT_OPC_STREAMWAIT: return wait_stream_busy(cp, t, w);
    default: return 0;
    }
}

/* The hold of a head blocked by the latched wait, busy what keeps it waiting (wait_busy, not 0):
 * the wait's cause, and as its detail the lowest busy condition or semaphore, or a STREAMWAIT's
 * stream. */
static cp_hold_t wait_hold(cp_t *cp, unsigned t, uint32_t busy, unsigned *detail) {
    const cp_wait_t *w = &cp->gate[t].wait;
    *detail = lowest_bit(busy);
    switch (w->opcode) {
    case TT_OPC_STALLWAIT: return CP_HOLD_WAIT_COND;
    case TT_OPC_SEMWAIT: return CP_HOLD_WAIT_SEM;
    default: *detail = sync_stream_index(cp, t, w->stream_sel); return CP_HOLD_WAIT_STREAM;
    }
}

/* n more held cycles of one hold, counted where stats says (cp_stats_t). */
static void count_stall(cp_stats_t *st, cp_hold_t hold, unsigned detail, uint32_t mask, uint64_t n) {
    st->stall_total += n;
    st->stall_cause[hold] += n;
    switch (hold) {
    case CP_HOLD_WAIT_COND:
        for (uint32_t m = mask & 0x1FFFu; m; m &= m - 1)
            st->stall_cond[__builtin_ctz(m)] += n;
        break;
    case CP_HOLD_WAIT_SEM:
        for (uint32_t m = mask & ((1u << CP_NUM_SEMS) - 1); m; m &= m - 1)
            st->stall_sem[__builtin_ctz(m)] += n;
        break;
    case CP_HOLD_WAIT_STREAM: st->stall_stream += n; break;
    case CP_HOLD_WAIT_LAG: st->stall_lag += n; break;
    case CP_HOLD_MUTEX:
        if (detail < SYNC_MUTEXES) st->stall_mutex[detail] += n;
        break;
    case CP_HOLD_MUTEX_INVALID: st->stall_mutex_invalid += n; break;
    case CP_HOLD_SYNC_SLOT: st->stall_sync_slot += n; break;
    case CP_HOLD_UNIT:
        if (detail < sizeof st->stall_unit / sizeof st->stall_unit[0]) st->stall_unit[detail] += n;
        break;
    case CP_HOLD_UNDEFINED: st->stall_undefined += n; break;
    default: break;
    }
}

/* Count the repeated held cycles that gate_step let pass uncounted (gate_t.repeat_from): each was
 * held exactly as the cycle before it, so each adds what that cycle added. */
void gate_settle(cp_t *cp, unsigned t) {
    gate_t *g = &cp->gate[t];
    if (!gate_unsettled(cp, t)) return;
    uint64_t n = cp_now(cp) - g->repeat_from;
    g->repeat_from = cp_now(cp);
    count_stall(&cp->stats[t], g->hold, g->hold_detail, g->hold_mask, n);
    if (g->held_by_wait) g->site->held_cycles += n;
    g->stall.cycles += n;
}

/* One more held cycle of the instruction at the head (a stall starts with its first). */
static void note_stall(gate_t *g, cp_hold_t hold, unsigned detail, uint32_t w, cp_origin_t org, uint64_t cycle) {
    cp_stall_t *s = &g->stall;
    if (!s->ongoing) {
        *s = (cp_stall_t){.start = cycle, .word = w, .cause = hold, .detail = detail, .origin = org, .ongoing = true};
    } else if (s->cause == CP_HOLD_WAIT_LAG && hold != CP_HOLD_WAIT_LAG) {
        s->cause = hold;
        s->detail = detail;
    }
    s->cycles++;
}

/* Word w leaves thread t's gate: the issue log and the thread's count (its last issue cycle is
 * the log's, cp_stats). */
static inline __attribute__((always_inline)) void issue_note(cp_t *cp, unsigned t, uint32_t w) {
    uint64_t k = cp->stats[t].issued++;
    cp->ilog[t][k % CP_ISSUE_LOG].cycle = cp_now(cp);
    cp->ilog[t][k % CP_ISSUE_LOG].word = w;
}

/* Would this cycle hold the head exactly as the last one did, with nothing else to do? Only for
 * the holds that stay put until what they depend on changes (gate_t.repeat), and only after
 * asking that again: the latched wait's conditions (not met; asked again only when something
 * they read changed, gate_wait_unchanged), and the unit's admission when the wait's mask does
 * not block the head. A false answer leaves the cycle to the full step (which asks again). A
 * STREAMWAIT reads the tile's MMIO, and the Sync Unit's instructions depend on this cycle's use
 * of the Sync Unit: neither is repeatable. */
static bool gate_repeat(cp_t *cp, unsigned t, const gate_t *g) {
    if (g->wait.active && !gate_wait_unchanged(cp, t, g)) {
        if (g->wait.since >= cp_now(cp)) return false;
        /* Held by the wait, the hold is the wait's (COND or SEM, its detail the mask's lowest
         * bit: wait_hold): the same hold is the same mask. */
        uint32_t busy = wait_busy(cp, t);
        if (!busy || (g->held_by_wait && busy != g->hold_mask)) return false;
    }
    if (g->held_by_wait) return true;
    /* Not blocked by a wait: still refused by its unit (the hold's detail is the unit), or an
     * undefined opcode (held forever). */
    return g->hold == CP_HOLD_UNDEFINED || !tm_can_accept(cp->tm, t, g->held_op, g->held_word);
}

/* The full step, out of line (one copy per thread, gate_full(cp, t)): the cycles of gate_pass
 * and gate_step_slow, below, are the common ones and stay small. */
static inline __attribute__((always_inline)) bool gate_full_as(cp_t *cp, unsigned t) {
    gate_t *g = &cp->gate[t];
    fe_fifo_t *in = &cp->fe[t].fifo3;
    if (g->repeat != GATE_REPEAT_NO) gate_settle(cp, t);
    g->repeat = GATE_REPEAT_NO;

    /* 1. The latched wait, from the cycle after it latched on. */
    bool met = false;
    uint32_t wbusy = 0;
    uint64_t latched_at = g->wait.since;
    bool evaluated = g->wait.active && latched_at < cp_now(cp);
    if (evaluated) met = (wbusy = wait_busy(cp, t)) == 0;

    /* 2. The head of FIFO#3. */
    g->held = false;
    g->hold = CP_HOLD_NONE;
    g->hold_detail = 0;
    g->hold_mask = 0;
    g->waiting_mutex = -1;
    if (!fifo_empty(in)) {
        uint32_t w = fifo_peek(in);
        const tt_op_t *op = cp->op[TT_OPCODE(w)];
        cp_hold_t hold = CP_HOLD_NONE;
        unsigned detail = 0;
        uint32_t hmask = 0;
        bool blocked = false;
        if (!op) {
            /* Not a Blackhole opcode: UndefinedBehavior. Hold it so the report names it. */
            hold = CP_HOLD_UNDEFINED;
            detail = TT_OPCODE(w);
        } else if (op->gate == TT_GATE_NEVER) {
            /* RESOURCEDECL is consumed by Auto TTSync (AutoTTSync.md; ttemu does not track
             * resources); a MOP/MOP_CFG pushed after the MOP expander or a REPLAY recorded into
             * the replay buffer has no unit to go to. None of them reaches a backend unit. */
            fifo_pop(in);
            fe_moved(cp, t);
            cp->stats[t].consumed++;
        } else {
            uint16_t mask = g->wait.active ? g->wait.gate_mask : 0;
            blocked = op->gate == TT_GATE_NOP ? mask == TT_B_ALL : (mask & op->block) != 0;
            if (blocked) {
                /* Held by the latched wait (its conditions or its release lag): count it on the
                 * wait's site. A mask is non-zero only while a wait is latched, and a latched
                 * wait always has its site (sync_exec). */
                g->site->held_cycles++;
                if (met || !evaluated) {
                    hold = CP_HOLD_WAIT_LAG;
                } else {
                    hold = wait_hold(cp, t, wbusy, &detail);
                    hmask = wbusy;
                }
            } else if (op->unit == TT_UNIT_SYNC) {
                /* gate_sync's take */
                cp_origin_t org = fifo_peek_org(in);
                if (!sync_admit(cp, t, w, &hold, &detail)) {
                    /* hold set by sync_admit */
                } else if (!tm_sync_issue(cp->tm, t, op, w, org)) {
                    hold = CP_HOLD_UNIT;
                    detail = op->unit;
                } else {
                    issue_note(cp, t, w);
                    fifo_pop(in);
                    fe_moved(cp, t);
                    sync_exec(cp, t, w, org);
                }
            } else if (!tm_can_accept(cp->tm, t, op, w)) {
                hold = CP_HOLD_UNIT;
                detail = op->unit;
            } else {
                cp_origin_t org = fifo_peek_org(in);
                fifo_pop(in);
                fe_moved(cp, t);
                issue_note(cp, t, w);
                tm_dispatch(cp->tm, t, op, w, org); /* (not the Sync Unit's: above) */
            }
        }
        if (hold != CP_HOLD_NONE) {
            g->held = true;
            g->held_word = w;
            g->held_op = op;
            g->held_by_wait = blocked;
            g->hold = hold;
            g->hold_detail = detail;
            g->hold_mask = hmask;
            count_stall(&cp->stats[t], hold, detail, hmask, 1);
            note_stall(g, hold, detail, w, fifo_peek_org(in), cp_now(cp));
            /* gate_repeat may stand in for the next cycles (a met wait is forgotten below). */
            bool stream = g->wait.active && g->wait.opcode == TT_OPC_STREAMWAIT;
            bool repeatable =
                !met && !stream && !cp->stepwise &&
                (blocked ? hold == CP_HOLD_WAIT_COND || hold == CP_HOLD_WAIT_SEM
                         : hold == CP_HOLD_UNDEFINED || (hold == CP_HOLD_UNIT && op->unit != TT_UNIT_SYNC));
            /* (held by the wait: a STALLWAIT or a SEMWAIT, not a STREAMWAIT) */
            g->repeat = !repeatable                          ? GATE_REPEAT_NO
                        : !blocked                           ? GATE_REPEAT_OTHER
                        : g->wait.opcode == TT_OPC_STALLWAIT ? GATE_REPEAT_STALLWAIT
                                                             : GATE_REPEAT_SEMWAIT;
            /* Refused for want of a Src bank or of room in an unpacker's queue, nothing latched
             * (nothing latches while the head is held: only this thread's Sync Unit
             * instructions do): the next full steps would find the same head, no wait, and the
             * same refusal until a bank moves or an unpacker retires (whatever the unit's other
             * reasons), so the same hold. */
            if (repeatable && !blocked && !g->wait.active && tm_refuses_until_moved(cp->tm, op, w)) {
                g->repeat = GATE_REPEAT_UNIT;
                g->unit_seen = cp_tmh(cp)->unit_moves;
            }
            g->repeat_from = cp_now(cp) + 1; /* (this cycle is counted: the next may repeat it) */
        }
    }
    if (!g->held && g->stall.ongoing) {
        /* The held instruction passed (or was consumed): the stall is over. */
        g->stall.ongoing = false;
        /* (cp_stall_rank's answer for a list already full and a stall not longer than its last,
         * that nothing changes, asked here first: most stalls are short) */
        cp_stats_t *st = &cp->stats[t];
        if (st->nlongest < CP_LONGEST_STALLS || st->longest[CP_LONGEST_STALLS - 1].cycles < g->stall.cycles)
            cp_stall_rank(st->longest, &st->nlongest, &g->stall);
    }

    /* 3. Forget a satisfied wait (unless a new one latched this cycle, which cannot happen while
     * one is latched, but keep the check local). */
    if (met && g->wait.since == latched_at) g->wait.active = false;
    return false;
}

CP_PER_THREAD_STATIC(__attribute__((noinline)), bool, gate_full, (cp_t * cp), (cp))

/* A Sync Unit instruction at the head with nothing held or latched (gate_pass's premise, which
 * leaves the full step nothing to settle, undo or end): the full step's way for it, the mask
 * blocking nothing, without the rest of the full step. Admitted by the Sync Unit and not frozen
 * by a ThCon instruction, it passes as the full step passes it; otherwise the full step decides
 * (sync_admit's only mark, waiting_mutex, is cleared and set again there). */
static inline __attribute__((always_inline)) bool gate_sync_as(cp_t *cp, unsigned t) {
    fe_fifo_t *in = &cp->fe[t].fifo3;
    uint32_t w = fifo_peek(in);
    const tt_op_t *op = cp->op[TT_OPCODE(w)];
    cp_hold_t hold;
    unsigned detail;
    cp_origin_t org = fifo_peek_org(in);
    if (!sync_admit(cp, t, w, &hold, &detail) || !tm_sync_issue(cp->tm, t, op, w, org)) return gate_full(cp, t);
    /* the unit's part first (tm_sync_issue), as gate_pass's take */
    issue_note(cp, t, w);
    fifo_pop(in);
    sync_exec(cp, t, w, org); /* (no fe_moved: as gate_pass's take, below, it cannot wake them) */
    return false;
}

CP_PER_THREAD_STATIC(__attribute__((noinline)), bool, gate_sync, (cp_t * cp), (cp))

/* Nothing held or latched before (so nothing to settle or undo), nothing latched now, a word at
 * the head: it passes if its unit takes it (tm_issue), which is the full step's answer too for
 * everything but the Sync Unit's instructions (gate_sync) and those that never pass. */
static inline __attribute__((always_inline)) unsigned gate_pass_as(cp_t *cp, unsigned t) {
    fe_fifo_t *in = &cp->fe[t].fifo3;
    uint32_t w = fifo_peek(in);
    const tt_op_t *op = cp->op[TT_OPCODE(w)];
    if (!cp->op_pass[TT_OPCODE(w)]) return cp->op_sync[TT_OPCODE(w)] ? gate_sync(cp, t) : gate_full(cp, t);
    if (!tm_issue(cp->tm, op, w, fifo_peek_org(in), t)) return gate_full(cp, t);
    /* the issue's note, after the unit took it (nothing there reads it) */
    issue_note(cp, t, w);
    if (cp->fe[t].rp.mode == RP_REPLAY) {
        /* The replay expander's step of this cycle (cp_thread_step, after this) would refill the
         * slot: in one with the take (fe_take_replayed). cp_thread_step then steps the expanders
         * without asking cp_t.fe_awake, as the reference path steps them. They are awake here
         * anyway: asleep, the replay expander found FIFO#3 full in the cycle they were last
         * stepped (replaying, it pushes whenever there is room), so the gate held its head then
         * (as below), and a held head is taken only by the full step, which wakes them
         * (test_cp_shortcuts' pass_leaves_stuck checks it). */
        fe_take_replayed(&cp->fe[t]);
        return GATE_FED;
    }
    fifo_pop(in);
    /* No fe_moved: this take never gives sleeping expanders (their bit of cp_t.fe_awake clear;
     * not fe_mop_t.stuck, the MOP expander's own mark) something to do. They read FIFO#3 only
     * to ask whether it is full (frontend.c replay_step). Asleep means they did nothing in the
     * cycle they were last stepped (cp_thread_step), after this gate's step of that cycle; only
     * they add to FIFO#3, and they are not stepped again until marked. Not full then, FIFO#3 is
     * not full now either, and one word fewer changes nothing they read. Full then, the gate
     * took no word in that cycle, so it held its head (a head not taken is held: gate_full); a
     * held gate never comes here (gate_step) but to the full step, whose every take marks.
     * test_cp_shortcuts' pass_leaves_stuck checks this before every cycle of its random runs
     * and of drain_behind_a_held_head, which makes the second case. */
    return GATE_BUSY;
}

CP_PER_THREAD_DEFINE(unsigned, gate_pass, (cp_t * cp), (cp))

/* A held head or a latched wait: a repeated hold (gate_repeat), else the Wait Gate's cycle as the
 * header of this file says. */
static inline __attribute__((always_inline)) bool gate_step_slow_as(cp_t *cp, unsigned t) {
    gate_t *g = &cp->gate[t];
    if (g->held && g->repeat != GATE_REPEAT_NO && gate_repeat(cp, t, g))
        return true; /* A held head that stays held as it was: counted later, in bulk (gate_settle). */
    return gate_full(cp, t);
}

CP_PER_THREAD_DEFINE(bool, gate_step_slow, (cp_t * cp), (cp))

bool gate_step_full(cp_t *cp, unsigned t) { return gate_full(cp, t); }
