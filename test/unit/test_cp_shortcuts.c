/* test/unit/test_cp_shortcuts.c — the coprocessor's shortcuts against its plain cycle: a held
 * instruction's repeated cycles counted in bulk (gate_settle), the latched waits asked again only
 * when what they read changed, the expanders left alone while stuck (MOPs and REPLAYs among the
 * words), the quiet stretches (cp_t.quiet_until; their cycles also owed and run at once,
 * cp_quiet_left and cp_advance_idle, as the tile runs them) and the timing model's clock moved without a
 * call while nothing is due (unpacker_due_clock). Two coprocessors get the same random pushes,
 * semaphore writes, RISC-V config stores and stream register values, cycle by cycle; one steps every cycle in full
 * (cp_set_stepwise, the reference path's, with the timing model's plain forms: tm_set_reference), the other takes its
 * shortcuts. Their visible state must match after every cycle, their statistics whenever asked and at the end; and the
 * timing model's condition bookkeeping, which the shortcuts trust, must match the plain conditions every cycle
 * (conds_match); the fast twin is sometimes a used coprocessor reset (cp_reset). And cp_create's datapath
 * reset once (dp_create's), cp_reset's resetting it, seen through a PACR of Dst
 * (datapath_reset_by_create_and_reset). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test/unit/cp_test.h"
/* (White box: the timing model of a coprocessor, cp_t.tm, for the conditions' bookkeeping.) */
#include "coproc/cp_internal.h"
#include "coproc/formats.h"
#include "coproc/state.h"

static uint32_t rng_state;

static uint32_t rnd(void) { return xorshift32(&rng_state); }

static unsigned pick(unsigned n) { return rnd() % n; }

/* A word of the vocabulary: the Sync Unit's instructions, waits on every kind of condition, and
 * instructions that keep units busy or move the Src banks, so that holds start, repeat and end
 * for every reason the gate has. */
static uint32_t random_word(void) {
    static const uint32_t fixed[] = {
        TT_OP_NOP,
        TT_OP_SFPNOP,
        TT_OP_DMANOP,
        TT_OP_SETADC(0, 0, 0, 1),
        TT_OP_ADDDMAREG(0, 9, 5, 1), /* 4 cycles in the Scalar Unit (operands in two groups) */
        TT_OP_ADDDMAREG(0, 2, 1, 0), /* 3 cycles (one group): it can end before the thread's ELWADD */
        TT_OP_SFPADD(0, 0, 0, 1, 0),
        TT_OP_SETDVALID(1),
        TT_OP_SETDVALID(2),
        TT_OP_SETDVALID(3),
        TT_OP_ELWADD(0, 0, 0, 0, 0),
        TT_OP_ELWADD(3, 0, 0, 0, 0),
        TT_OP_CLEARDVALID(3, 0),
        TT_OP_UNPACR_NOP(0, 0, 0, 1, 0, 0, 0, 0, 0), /* SrcA to the Matrix Unit at retire (waits for its bank) */
        TT_OP_UNPACR_NOP(1, 0, 0, 1, 0, 0, 0, 0, 0), /* SrcB likewise */
        TT_OP_UNPACR_NOP(1, 0, 0, 0, 0, 0, 0, 0, 0), /* through unpacker 1's queue, no bank */
        TT_OP_ATGETM(0),
        TT_OP_ATRELM(0),
        TT_OP_ATGETM(2),
        TT_OP_ATRELM(2),
        TT_OP_XMOV(0, 0),   /* the other units a dormant thread's wait may read: the Mover, */
        TT_OP_SETC16(2, 5), /* the Configuration Unit, */
        TT_OP_RMWCIB0(0xFF, 3, 10),
        TT_OP_LOADREG(1, 0x10000 + 29), /* ThCon's load (of a stream register: the fake environment's) */
        TT_WORD(0x06, 0),               /* no opcode 0x06 on Blackhole: held for good (rarely drawn; last) */
    };
    switch (pick(9)) {
    case 6: /* the expanders: a MOP of either template (MopCfg: mop_cfg_random), MaskHi, a REPLAY
             * that records the next words (passing them on or not) or replays recorded ones */
        switch (pick(4)) {
        case 0: return TT_OP_MOP(0, pick(4), rnd() & 0xFFFF);
        case 1: return TT_OP_MOP(1, 0, 0);
        case 2: return TT_OP_MOP_CFG(rnd() & 0xFFFF);
        default: {
            unsigned start = pick(8);
            return TT_OP_REPLAY(start, 1 + pick(8 - start), pick(2), pick(2));
        }
        }
    case 0: return TT_OP_SEMPOST(1u << pick(3));
    case 1: return TT_OP_SEMGET(1u << pick(3));
    case 2: return TT_OP_SEMWAIT(1u << pick(9), 1u << pick(3), 1 + pick(2));
    case 3: return TT_OP_STALLWAIT(1u << pick(9), rnd() & 0x1FFF);
    case 4: return TT_OP_STREAMWAIT(1u << pick(9), pick(4), pick(2), 0);
    case 5: return TT_OP_SEMINIT(1 + pick(3), pick(2), 1u << pick(3));
    default: {
        unsigned i = pick(sizeof fixed / sizeof fixed[0]);
        if (i == sizeof fixed / sizeof fixed[0] - 1 && pick(8)) i = 0;
        return fixed[i];
    }
    }
}

static void same_state(const cp_t *a, const cp_t *b, uint64_t cycle) {
    assert_int_equal(cp_cycles(a), cp_cycles(b));
    assert_int_equal(cp_is_idle(a), cp_is_idle(b));
    /* the threads' idleness asked of several at once (the tile's blocked tensix_sync loads) */
    unsigned idle = 0, mask = (unsigned)cycle % 8;
    for (unsigned t = 0; t < CP_THREADS; t++)
        idle |= (unsigned)cp_thread_idle(b, t) << t;
    assert_int_equal(cp_idle_threads(a, mask), idle & mask);
    assert_int_equal(cp_idle_threads(b, mask), idle & mask);
    for (unsigned i = 0; i < CP_NUM_SEMS; i++)
        assert_int_equal(cp_sem_read(a, i), cp_sem_read(b, i));
    for (unsigned t = 0; t < CP_THREADS; t++) {
        cp_thread_state_t x, y;
        cp_thread_state(a, t, &x);
        cp_thread_state(b, t, &y);
        if (x.held != y.held || x.hold != y.hold || x.hold_detail != y.hold_detail || x.hold_mask != y.hold_mask ||
            x.held_word != y.held_word || (x.held && x.held_since != y.held_since) ||
            (x.held && (x.held_origin.pc != y.held_origin.pc || x.held_origin.core != y.held_origin.core)) ||
            x.wait.active != y.wait.active || x.fifo1 != y.fifo1 || x.fifo2 != y.fifo2 || x.fifo3 != y.fifo3 ||
            cp_thread_idle(a, t) != cp_thread_idle(b, t) || cp_mop_idle(a, t) != cp_mop_idle(b, t))
            fail_msg("cycle %llu, thread %u: the shortcuts' state differs", (unsigned long long)cycle, t);
    }
}

static void same_stats(const cp_t *a, const cp_t *b) {
    cp_issue_t la[CP_ISSUE_LOG], lb[CP_ISSUE_LOG]; /* the issue log, which the fast gate writes itself */
    unsigned nl = cp_issue_log(a, la, CP_ISSUE_LOG);
    assert_int_equal(nl, cp_issue_log(b, lb, CP_ISSUE_LOG));
    for (unsigned i = 0; i < nl; i++) {
        assert_int_equal(la[i].cycle, lb[i].cycle);
        assert_int_equal(la[i].word, lb[i].word);
        assert_int_equal(la[i].thread, lb[i].thread);
    }
    for (unsigned t = 0; t < CP_THREADS; t++) {
        const cp_stats_t *x = cp_stats(a, t), *y = cp_stats(b, t);
        assert_int_equal(x->issued, y->issued);
        assert_int_equal(x->last_issue_cycle, y->last_issue_cycle);
        assert_int_equal(x->pushed, y->pushed);
        assert_int_equal(x->stall_total, y->stall_total);
        assert_memory_equal(x->stall_cause, y->stall_cause, sizeof x->stall_cause);
        assert_memory_equal(x->stall_cond, y->stall_cond, sizeof x->stall_cond);
        assert_memory_equal(x->stall_sem, y->stall_sem, sizeof x->stall_sem);
        assert_memory_equal(x->stall_mutex, y->stall_mutex, sizeof x->stall_mutex);
        assert_memory_equal(x->stall_unit, y->stall_unit, sizeof x->stall_unit);
        assert_int_equal(x->stall_lag, y->stall_lag);
        assert_int_equal(x->stall_stream, y->stall_stream);
        assert_int_equal(x->stall_sync_slot, y->stall_sync_slot);
        assert_int_equal(x->stall_undefined, y->stall_undefined);
        assert_int_equal(x->stall_mutex_invalid, y->stall_mutex_invalid);
        assert_int_equal(x->fifo_high_water, y->fifo_high_water);
        assert_int_equal(x->fifo2_high_water, y->fifo2_high_water);
        assert_int_equal(x->nwaits, y->nwaits);
        for (unsigned i = 0; i < x->nwaits; i++) {
            assert_int_equal(x->waits[i].latched, y->waits[i].latched);
            assert_int_equal(x->waits[i].held_cycles, y->waits[i].held_cycles);
        }
        cp_stall_t sx[CP_LONGEST_STALLS], sy[CP_LONGEST_STALLS];
        unsigned n = cp_longest_stalls(a, t, sx);
        assert_int_equal(n, cp_longest_stalls(b, t, sy));
        for (unsigned i = 0; i < n; i++) {
            assert_int_equal(sx[i].start, sy[i].start);
            assert_int_equal(sx[i].cycles, sy[i].cycles);
            assert_int_equal(sx[i].word, sy[i].word);
            assert_int_equal(sx[i].cause, sy[i].cause);
            assert_int_equal(sx[i].detail, sy[i].detail);
            assert_int_equal(sx[i].ongoing, sy[i].ongoing);
            assert_int_equal(sx[i].origin.pc, sy[i].origin.pc);
            assert_int_equal(sx[i].origin.core, sy[i].origin.core);
        }
    }
}

/* Sometimes a short sequence instead of one word: the Src banks handed to the Matrix Unit and an
 * ELWADD that runs 5 cycles and hands them back, so that a thread is busy only in the backend
 * while nothing else happens (the end of a quiet stretch that a thread's end of work ends). */
static unsigned random_words(uint32_t *w) {
    if (pick(6) == 0) {
        w[0] = TT_OP_SETDVALID(3);
        w[1] = TT_OP_ELWADD(3, 0, 0, 0, 0);
        return 2;
    }
    w[0] = random_word();
    return 1;
}

/* Thread t's MopCfg, the same in both: small loop counts, words of the vocabulary's kind. */
static void mop_cfg_random(cp_t *a, cp_t *b, unsigned t) {
    static const uint32_t words[] = {
        TT_OP_NOP,        TT_OP_SFPNOP,      TT_OP_DMANOP, TT_OP_SETADC(0, 0, 0, 1), TT_OP_SFPADD(0, 0, 0, 1, 0),
        TT_OP_SEMPOST(1), TT_OP_SETDVALID(1)};
    for (unsigned i = 0; i < 9; i++) {
        /* MopCfg[0]: template 1's outer count; [1]: template 0's flags, template 1's inner count */
        uint32_t v = i == 0 ? 1 + pick(3) : i == 1 ? pick(4) : words[pick(sizeof words / sizeof words[0])];
        cp_mopcfg_write(a, t, i, v);
        cp_mopcfg_write(b, t, i, v);
    }
}

enum { NCONDS = 13 }; /* STALLWAIT's conditions C0..C12 */

/* What tm_cond_eval said of each condition of each thread in the cycle before. */
typedef struct {
    bool valid;
    bool busy[CP_THREADS][NCONDS];
    uint64_t next[CP_THREADS][NCONDS];
} cond_seen_t;

/* The conditions' bookkeeping, which the fast twin's gates trust to skip asking again
 * (gate_wait_unchanged): tm_cond_eval's answer must be tm_cond_busy's, and an answer must stand
 * while the condition is not marked changed (the head's chg) and its *next has not come.
 * Checked on the reference twin, whose gates ask tm_cond_busy afresh every cycle and leave the
 * marks and tm_cond_eval to this check; called where the gates ask, before a cycle, after the
 * harts' part of it. */
static void conds_match(cp_t *ref, cond_seen_t *seen, uint64_t cycle) {
    tm_t *tm = ref->tm;
    uint64_t now = cp_cycles(ref);
    for (unsigned t = 0; t < CP_THREADS; t++)
        for (unsigned n = 0; n < NCONDS; n++) {
            bool busy = tm_cond_busy(tm, t, n);
            if (seen->valid && !(tm_head(tm)->chg[t] & (1u << n)) && now < seen->next[t][n] && busy != seen->busy[t][n])
                fail_msg("cycle %llu, thread %u: C%u went %s unmarked (the head's chg, *next)",
                         (unsigned long long)cycle, t, n, busy ? "busy" : "free");
            uint64_t next;
            uint32_t b = tm_cond_eval(tm, t, 1u << n, &next);
            if (b != (busy ? 1u << n : 0))
                fail_msg("cycle %llu, thread %u: tm_cond_eval says 0x%x of C%u, tm_cond_busy %d",
                         (unsigned long long)cycle, t, b, n, busy);
            seen->busy[t][n] = busy;
            seen->next[t][n] = next;
        }
    seen->valid = true;
}

/* What tm_refuses_until_moved said of each thread's held head in the cycle before, and the
 * cycles in which the fast twin's gates let such a refusal stand (GATE_REPEAT_UNIT). */
typedef struct {
    bool refused[CP_THREADS];
    uint32_t word[CP_THREADS];
    uint64_t moves[CP_THREADS];
    uint64_t stood[2]; /* by the unit: [0] the Matrix Unit's Src banks, [1] an unpacker's queue */
} refusal_seen_t;

/* The refusals the fast twin's gates let stand (gate_t.repeat GATE_REPEAT_UNIT): a head that
 * tm_refuses_until_moved names must be refused by tm_can_accept, and refused again in every
 * later cycle while the head's unit_moves has not moved. Checked on the reference twin, whose
 * gates ask tm_can_accept afresh every cycle, where conds_match is. */
static void refusals_match(cp_t *ref, const cp_t *fast, refusal_seen_t *seen, uint64_t cycle) {
    const tm_t *tm = ref->tm;
    uint64_t moves = tm_head(tm)->unit_moves;
    for (unsigned t = 0; t < CP_THREADS; t++) {
        cp_thread_state_t x;
        cp_thread_state(ref, t, &x);
        const tt_op_t *op = x.held ? ref->op[TT_OPCODE(x.held_word)] : NULL;
        bool accepts = op && tm_can_accept(tm, t, op, x.held_word);
        if (seen->refused[t] && x.held && x.held_word == seen->word[t] && moves == seen->moves[t] && accepts)
            fail_msg("cycle %llu, thread %u: 0x%08x accepted with nothing moved (unit_moves)",
                     (unsigned long long)cycle, t, x.held_word);
        bool refused = op && tm_refuses_until_moved(tm, op, x.held_word);
        if (refused && accepts)
            fail_msg("cycle %llu, thread %u: 0x%08x both accepted and refused until moved", (unsigned long long)cycle,
                     t, x.held_word);
        seen->refused[t] = refused;
        seen->word[t] = x.held_word;
        seen->moves[t] = moves;
        const gate_t *g = &fast->gate[t];
        if (g->held && g->repeat == GATE_REPEAT_UNIT) seen->stood[g->held_op->unit == TT_UNIT_UNPACK]++;
    }
}

/* gate_pass's take leaves the expanders' stuck mark as it is (cp_t.fe_awake, fe_moved); see
 * gate.c. Its premise, checked before every cycle of the fast twin: a gate that may pass its head
 * through gate_pass (nothing held, nothing latched, a word at the head) while its thread's
 * expanders are taken as stuck leaves them stuck when it takes the word: with one word fewer in
 * FIFO#3 they still do nothing (fe_step). *seen counts the cycles it was asked. And such a gate
 * of a replaying thread (gate_pass's fed take, which cp_thread_step follows with the expanders'
 * step without asking cp_t.fe_awake) finds them awake; replay_passes counts those. */
static uint64_t replay_passes; /* (over the tests that ask) */
static void pass_leaves_stuck(const cp_t *fast, uint64_t *seen, uint64_t cycle) {
    for (unsigned t = 0; t < CP_THREADS; t++) {
        const gate_t *g = &fast->gate[t];
        const fe_thread_t *fe = &fast->fe[t];
        if (g->held || g->wait.active || fifo_empty(&fe->fifo3)) continue;
        if (fe->rp.mode == RP_REPLAY) {
            if (!(fast->fe_awake & (1u << t)))
                fail_msg("cycle %llu, thread %u: a replaying thread's gate may pass its head, its expanders asleep",
                         (unsigned long long)cycle, t);
            replay_passes++;
        }
        if (fast->fe_awake & (1u << t)) continue;
        fe_thread_t after = *fe;
        fifo_pop(&after.fifo3);
        if (fe_step(&after))
            fail_msg("cycle %llu, thread %u: the gate's take would wake the stuck expanders", (unsigned long long)cycle,
                     t);
        (*seen)++;
    }
}

/* The MOP expander's stuck mark (fe_mop_t.stuck, which fe_step_fed trusts instead of stepping
 * it): checked before every cycle of the fast twin: while a thread's mark stands, its MOP
 * expander's step would do nothing (fe_mop_step on a copy). *seen counts the marks it found. */
static void mop_stuck_holds(const cp_t *fast, uint64_t *seen, uint64_t cycle) {
    for (unsigned t = 0; t < CP_THREADS; t++) {
        if (!fast->fe[t].mop.stuck) continue;
        fe_thread_t copy = fast->fe[t];
        if (fe_mop_step(&copy))
            fail_msg("cycle %llu, thread %u: marked stuck, the MOP expander would move", (unsigned long long)cycle, t);
        (*seen)++;
    }
}

/* A dormant thread (tm_head_t.dormant, which the full cycle skips: cp.c cp_doze): checked before
 * every cycle of the fast twin: its expanders asleep, and its gate idle (nothing held or latched,
 * FIFO#3 empty) or holding as it did, by the question gate_step would ask (gate_hold_unchanged),
 * unless a STALLWAIT's recheck time has come, which wakes every thread first (dormant_until, never
 * later than a dormant STALLWAIT's recheck_at). *seen counts the dormant threads it found. */
static uint64_t dormant_seen; /* (over the tests that ask) */
static void dormant_holds(const cp_t *fast, uint64_t *seen, uint64_t cycle) {
    for (unsigned t = 0; t < CP_THREADS; t++) {
        if (!(cp_tmh(fast)->dormant & (1u << t))) continue;
        const gate_t *g = &fast->gate[t];
        bool ok = !(fast->fe_awake & (1u << t));
        if (!g->held)
            ok &= !g->wait.active && fifo_empty(&fast->fe[t].fifo3);
        else if (g->repeat == GATE_REPEAT_STALLWAIT)
            ok &= fast->dormant_until <= g->recheck_at &&
                  (cp_now(fast) >= fast->dormant_until || gate_hold_unchanged(fast, t, g));
        else
            ok &=
                (g->repeat == GATE_REPEAT_SEMWAIT || g->repeat == GATE_REPEAT_UNIT) && gate_hold_unchanged(fast, t, g);
        if (!ok)
            fail_msg("cycle %llu, thread %u: dormant, but its step would not repeat (held %d repeat %d wait %d op %x "
                     "now %llu until %llu recheck %llu chg %x mask %x awake %x semseen %llu gen %llu)",
                     (unsigned long long)cycle, t, g->held, g->repeat, g->wait.active, g->wait.opcode,
                     (unsigned long long)cp_now(fast), (unsigned long long)fast->dormant_until,
                     (unsigned long long)g->recheck_at, cp_tmh(fast)->chg[t], g->wait.cond_mask, fast->fe_awake,
                     (unsigned long long)g->sem_seen, (unsigned long long)fast->sync.sem_gen);
        (*seen)++;
    }
}

/* A coprocessor used (random words pushed to every thread for 200 cycles, 300 cycles run: units
 * busy, waits latched, FIFOs part full) and then reset: cp_reset's timing model, frontends, gates,
 * Sync Unit and counters must be a new coprocessor's, which one_run compares it with. */
static void used_then_reset(cp_t *cp) {
    for (unsigned c = 0; c < 300; c++) {
        for (unsigned t = 0; c < 200 && t < CP_THREADS; t++)
            cp_push(cp, t, random_word(), false); /* (refused when the FIFO is full) */
        cp_cycle(cp);
    }
    cp_reset(cp);
}

/* One random run of `cycles` cycles; busy: how often (in 1/64) a thread pushes. The fast twin is
 * sometimes a used one reset (used_then_reset). */
/* owed: counts the cycles run as a quiet stretch's at once; stuck: pass_leaves_stuck's. */
static void one_run(uint32_t seed, unsigned cycles, unsigned busy, cp_gate_policy_t policy, uint64_t *owed,
                    refusal_seen_t *refusals, uint64_t *stuck) {
    rng_state = seed;
    cp_t *ref = cp_new(), *fast = cp_new();
    if (pick(2)) used_then_reset(fast);
    cp_set_stepwise(ref, true);
    cp_set_gate_policy(ref, policy);
    cp_set_gate_policy(fast, policy);
    uint32_t pending[CP_THREADS][2];
    unsigned npending[CP_THREADS] = {0};
    cond_seen_t seen = {.valid = false};
    uint64_t marks = 0;
    memset(refusals->refused, 0, sizeof refusals->refused);
    /* Every thread starts with its MopCfg set and eight words recorded for the REPLAYs to
     * replay. */
    for (unsigned t = 0; t < CP_THREADS; t++) {
        mop_cfg_random(ref, fast, t);
        uint32_t w = TT_OP_REPLAY(0, 8, 0, 1);
        for (unsigned i = 0; i < 9; i++, w = pick(2) ? TT_OP_SFPNOP : TT_OP_SETADC(0, 0, 0, 1)) {
            push(ref, t, w);
            push(fast, t, w);
        }
    }
    for (uint64_t c = 0; c < cycles; c++) {
        /* The harts' part of the cycle: pushes (retried while the FIFO is full), semaphore
         * writes, config stores in flight (C10), a stream register moving on. */
        for (unsigned t = 0; t < CP_THREADS; t++) {
            if (!npending[t] && pick(64) < busy) {
                uint32_t w[2];
                unsigned n = random_words(w);
                for (unsigned i = 0; i < n; i++) /* pushed last word first */
                    pending[t][n - 1 - i] = w[i];
                npending[t] = n;
            }
            if (npending[t]) {
                bool after_mop = t == 0 && pick(4) == 0;
                uint32_t w = pending[t][npending[t] - 1];
                bool a = cp_push(ref, t, w, after_mop), b = cp_push(fast, t, w, after_mop);
                assert_int_equal(a, b);
                if (a) npending[t]--;
            }
        }
        if (pick(40) == 0) {
            unsigned t = pick(CP_THREADS), i = pick(3);
            uint32_t v = pick(2);
            cp_sem_write(ref, t, i, v);
            cp_sem_write(fast, t, i, v);
        }
        if (pick(200) == 0) mop_cfg_random(ref, fast, pick(CP_THREADS));
        if (pick(50) == 0) {
            unsigned t = pick(CP_THREADS);
            cp_note_riscv_write(ref, t);
            cp_note_riscv_write(fast, t);
        }
        if (pick(100) == 0) g_fake.stream[0][29] = pick(4); /* stream 0's CURR_PHASE */
        conds_match(ref, &seen, c);
        refusals_match(ref, fast, refusals, c);
        pass_leaves_stuck(fast, stuck, c);
        mop_stuck_holds(fast, &marks, c);
        dormant_holds(fast, &dormant_seen, c);
        /* (the fast twin as the tile's fast path steps it too, cp_cycle_fast and cp_cycle_busy, each
         * a third of the cycles) */
        unsigned rr = cp_cycle(ref), rf = c % 3 == 1 ? cp_cycle_fast(fast)
                                          : c % 3    ? cp_cycle_busy(fast)
                                                     : cp_cycle(fast);
        /* what the tile reads after each cycle: idle, failed (after cp_cycle_busy, cp_failed: its
         * full cycle's status leaves it out), and the FIFOs freed (a blocked push is looked at
         * only after one) */
        assert_int_equal(rr & CP_CYCLE_IDLE, rf & CP_CYCLE_IDLE);
        assert_int_equal((rr & CP_CYCLE_FAILED) != 0, c % 3 == 2 ? cp_failed(fast) : (rf & CP_CYCLE_FAILED) != 0);
        assert_int_equal((rr & CP_CYCLE_FAILED) != 0, cp_failed(ref));
        uint32_t freed = (rr & CP_CYCLE_FREED) >> CP_CYCLE_FREED_SHIFT;
        assert_int_equal(freed, (rf & CP_CYCLE_FREED) >> CP_CYCLE_FREED_SHIFT);
        /* Every FIFO then forgotten as if seen full (cp_fifo_seen_full, the tile's way), so that
         * the next status names only the frees of the cycles after this one. */
        cp_fifo_seen_full(ref, CP_CYCLE_FREED >> CP_CYCLE_FREED_SHIFT);
        cp_fifo_seen_full(fast, CP_CYCLE_FREED >> CP_CYCLE_FREED_SHIFT);
        /* A FIFO the cycle freed has room (tile_blocks_check releases a push on the bit alone). */
        for (uint32_t m = freed; m; m &= m - 1) {
            unsigned b = (unsigned)__builtin_ctz(m);
            const fe_thread_t *fe = &fast->fe[b % CP_THREADS];
            assert_false(fifo_full(b >= CP_THREADS ? &fe->fifo2 : &fe->fifo1));
        }
        same_state(ref, fast, c);
        if (pick(256) == 0) same_stats(ref, fast); /* a view settles the bulk counts midway */
        /* A quiet stretch's cycles owed, as the tile owes them while nothing reaches the
         * coprocessor, and run at once (cp_advance_idle): the stepwise twin steps them one by
         * one, with nothing pushed or written meanwhile. */
        uint64_t left = cp_quiet_left(fast);
        assert_int_equal(left != 0, (rf & CP_CYCLE_QUIET) != 0);
        if (left && pick(2)) {
            uint64_t k = 1 + pick((unsigned)(left < 64 ? left : 64));
            for (uint64_t i = 0; i < k; i++)
                cp_cycle(ref);
            cp_advance_idle(fast, k);
            (*owed) += k;
            c += k;
            /* (what the k cycles freed, none by cp_quiet_left's word, in the next status of each) */
            same_state(ref, fast, c);
        }
    }
    same_stats(ref, fast);
    cp_destroy(ref);
    cp_destroy(fast);
}

static void random_runs_match(void **state) {
    (void)state;
    uint64_t owed = 0, stuck = 0;
    refusal_seen_t refusals = {0};
    for (uint32_t seed = 1; seed <= 40; seed++)
        one_run(seed * 2654435761u, 4000, seed % 4 == 0 ? 2 : 8 + seed % 24, CP_GATE_EXACT, &owed, &refusals, &stuck);
    assert_true(owed > 1000);             /* the quiet stretches were run at once often */
    assert_true(refusals.stood[0] > 100); /* (an unpacker's queue fills in unpacker_queue_full) */
    assert_true(stuck > 10); /* gates passed heads with their expanders stuck (rare: FIFO#3 holds two words) */
    assert_true(dormant_seen > 10000); /* threads skipped as dormant (dormant_holds) */
    assert_true(replay_passes > 10);   /* replaying threads' heads passable (pass_leaves_stuck) */
}

static void random_runs_match_whole_thread(void **state) {
    (void)state;
    for (uint32_t seed = 1; seed <= 10; seed++)
        one_run(seed * 40503u + 7, 4000, 12, CP_GATE_WHOLE_THREAD, &(uint64_t){0}, &(refusal_seen_t){0},
                &(uint64_t){0});
}

/* A stepwise twin and a fast one, thread 0 of each given a SEMWAIT on semaphore 0 (Value 0) that
 * blocks every instruction behind it until a post. */
static void semwait_twins(cp_t **ref, cp_t **fast) {
    *ref = cp_new();
    *fast = cp_new();
    cp_set_stepwise(*ref, true);
    push(*ref, 0, TT_OP_SEMWAIT(0x1FF, 1u << 0, 1));
    push(*fast, 0, TT_OP_SEMWAIT(0x1FF, 1u << 0, 1));
}

/* Expanders stuck behind a held head with FIFO#3 full (the case gate_pass's missing mark would
 * get wrong, gate.c), then draining: a SEMWAIT on semaphore 0 (Value 0) that blocks every
 * instruction, SFPNOPs behind it until thread 0's FIFOs are full; after a post the gate takes
 * the words one a cycle (the first by the full step), the expanders refill FIFO#3 behind it, and
 * at the end gate_pass takes the last words with the expanders stuck again. */
static void drain_behind_a_held_head(void **state) {
    (void)state;
    cp_t *ref, *fast;
    semwait_twins(&ref, &fast);
    bool stuck_full = false;
    uint64_t passes = 0;
    for (uint64_t c = 0; c < 80; c++) {
        if (c < 20) { /* (FIFO#3 and FIFO#2 fill, the rest waits in FIFO#1; then nothing moves) */
            push(ref, 0, TT_OP_SFPNOP);
            push(fast, 0, TT_OP_SFPNOP);
        }
        if (c == 30) {
            cp_sem_write(ref, 0, 0, 0);
            cp_sem_write(fast, 0, 0, 0);
        }
        stuck_full |= !(fast->fe_awake & 1u) && fifo_full(&fast->fe[0].fifo3) && fast->gate[0].held;
        pass_leaves_stuck(fast, &passes, c);
        cp_cycle(ref);
        cp_cycle(fast);
        same_state(ref, fast, c);
    }
    assert_true(stuck_full);
    assert_true(passes > 0);
    assert_int_equal(cp_stats(fast, 0)->issued, 21); /* the post released them all */
    same_stats(ref, fast);
    cp_destroy(ref);
    cp_destroy(fast);
}

/* A TRISC's push into a FIFO#1 that holds words (cp.c push_word): its expanders, asleep, found
 * the head unable to move (FIFO#2 full behind a held head), and a word behind it changes nothing
 * they or the gate read, so the push neither wakes them nor ends a quiet stretch; a push into an
 * empty FIFO#1 does both. Thread 0 held by a SEMWAIT (semaphore 0 at 0) with its FIFOs filled
 * behind it, the twins quiet; then SFPNOPs pushed behind one every few cycles (kept: pushes
 * after which the stretch went on), a SETADC into thread 1's empty FIFO#1 (woken, the stretch
 * ended, the word issued) and a post that releases thread 0. Every cycle as the reference's,
 * with every word issued so far. */
static void push_behind_keeps_quiet(void **state) {
    (void)state;
    cp_t *ref, *fast;
    semwait_twins(&ref, &fast);
    unsigned kept = 0, pushed = 1;
    for (uint64_t c = 0; c < 220; c++) {
        if (c < 12 || (c >= 40 && c < 120 && c % 5 == 0)) {
            bool quiet = cp_quiet_left(fast) > 0;
            assert_true(c < 12 || !fifo_empty(&fast->fe[0].fifo1));
            push(ref, 0, TT_OP_SFPNOP);
            push(fast, 0, TT_OP_SFPNOP);
            pushed++;
            if (quiet) { /* (the stretch stands from the first cycles on: nothing is due) */
                assert_true(cp_quiet_left(fast) > 0);
                assert_false(fast->fe_awake & 1u);
                kept++;
            }
        }
        if (c == 130) {
            assert_true(cp_quiet_left(fast) > 0);
            push(ref, 1, TT_OP_SETADC(0, 0, 0, 1));
            push(fast, 1, TT_OP_SETADC(0, 0, 0, 1));
            assert_true(fast->fe_awake & 2u);
            assert_int_equal(cp_quiet_left(fast), 0);
        }
        if (c == 160) {
            cp_sem_write(ref, 0, 0, 0);
            cp_sem_write(fast, 0, 0, 0);
        }
        cp_cycle(ref);
        cp_cycle(fast);
        same_state(ref, fast, c);
        same_stats(ref, fast); /* every word issued so far */
    }
    assert_int_equal(kept, 16);
    assert_true(cp_is_idle(fast));
    assert_int_equal(cp_stats(fast, 0)->issued, pushed);
    assert_int_equal(cp_stats(fast, 1)->issued, 1);
    cp_destroy(ref);
    cp_destroy(fast);
}

/* The MOP expander's list of an expansion kept as a cache (fe_mop_t.cached): the fast twin's
 * expander (fe_step) emits a MOP ingested with the same word, MaskHi and MopCfg as the last
 * whole expansion from its list, the reference's (fe_mop_step) generates every one. Thread 0 gets
 * the same template-1 MOP again (the list again), then with one MopCfg word changed (Loop0Last:
 * only the last word differs), a template-0 MOP twice with MaskHi changed in between (bits 16 and
 * up of its mask: iterations 17 to 20), an expansion longer than the list twice (refilled as it
 * goes, not kept) and the first MOP once more. Every cycle as the reference's, and every step's
 * words (its issue log); hits and near count the fast twin's ingests that found their key (and
 * that found the word but not the rest). */
static void mop_cached_expansion(void **state) {
    (void)state;
    cp_t *ref = cp_new(), *fast = cp_new();
    cp_set_stepwise(ref, true);
    const uint32_t L0 = TT_OP_SETADC(0, 0, 0, 1), L1 = TT_OP_SETADC(0, 0, 0, 2), Z0 = TT_OP_SETADC(0, 0, 0, 3),
                   Z1 = TT_OP_SETADC(0, 0, 0, 4), E0 = TT_OP_SETADC(0, 0, 0, 5), A = TT_OP_SETADC(0, 0, 0, 6),
                   B = TT_OP_SETADC(0, 0, 0, 7);
    const uint32_t short1[9] = {2, 3, TT_OP_SFPNOP, E0, TT_OP_NOP, L0, L1, Z0, Z1};
    const uint32_t short2[9] = {2, 3, TT_OP_SFPNOP, E0, TT_OP_NOP, L0, L1, B, Z1}; /* Loop0Last */
    /* (template 0: flags 1, HasB: A0 and InsnB, or SkipA0 and SkipB, 20 times) */
    const uint32_t t0[9] = {0, 1, B, A, A, A, A, Z0, Z1};
    const uint32_t long1[9] = {6, 7, TT_OP_SFPNOP, E0, TT_OP_NOP, L0, L1, Z0, Z1}; /* 6 x (1 + 14 + 1) */
    struct {
        const uint32_t *cfg; /* (NULL: as it is) */
        uint32_t pre;        /* a MOP_CFG first, or 0 */
        uint32_t mop;
    } steps[] = {
        {short1, 0, TT_OP_MOP(1, 0, 0)},
        {NULL, 0, TT_OP_MOP(1, 0, 0)},
        {NULL, 0, TT_OP_MOP(1, 0, 0)},
        {short2, 0, TT_OP_MOP(1, 0, 0)},
        {t0, TT_OP_MOP_CFG(0x0), TT_OP_MOP(0, 19, 0x5)},
        {NULL, TT_OP_MOP_CFG(0xA), TT_OP_MOP(0, 19, 0x5)},
        {NULL, 0, TT_OP_MOP(0, 19, 0x5)},
        {long1, 0, TT_OP_MOP(1, 0, 0)},
        {NULL, 0, TT_OP_MOP(1, 0, 0)},
        {short1, 0, TT_OP_MOP(1, 0, 0)},
    };
    unsigned hits = 0, near = 0;
    uint64_t c = 0;
    for (unsigned i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        for (unsigned k = 0; steps[i].cfg && k < 9; k++) {
            cp_mopcfg_write(ref, 0, k, steps[i].cfg[k]);
            cp_mopcfg_write(fast, 0, k, steps[i].cfg[k]);
        }
        if (steps[i].pre) {
            push(ref, 0, steps[i].pre);
            push(fast, 0, steps[i].pre);
        }
        push(ref, 0, steps[i].mop);
        push(fast, 0, steps[i].mop);
        for (unsigned n = 0; n < 150; n++, c++) {
            const fe_thread_t *fe = &fast->fe[0];
            const fe_mop_t *m = &fe->mop;
            if (m->kind == MOP_IDLE && !m->bubble && !fifo_empty(&fe->fifo1) &&
                TT_OPCODE(fifo_peek(&fe->fifo1)) == TT_OPC_MOP && m->cached && m->key.w == fifo_peek(&fe->fifo1)) {
                if (m->key.mask_hi == m->mask_hi && !memcmp(m->key.cfg, m->cfg, sizeof m->cfg))
                    hits++;
                else
                    near++;
            }
            cp_cycle(ref);
            cp_cycle(fast);
            same_state(ref, fast, c);
        }
        same_stats(ref, fast); /* the words issued (the log holds the step's) */
    }
    assert_int_equal(hits, 3); /* the second and third MOP, the third template-0 one */
    assert_int_equal(near, 2); /* Loop0Last, MaskHi (the long one is not kept: the last is a miss) */
    same_stats(ref, fast);
    cp_destroy(ref);
    cp_destroy(fast);
}

/* A MOP's expansion recorded into the replay buffer without Exec: each cycle the MOP expander
 * gives FIFO#2 a word and the replay expander takes one, so no FIFO count changes while both
 * move on (the expanders were once left alone as stuck there), then the recording replays. */
static void mop_recorded_by_replay(void **state) {
    (void)state;
    cp_t *ref = cp_new(), *fast = cp_new();
    cp_set_stepwise(ref, true);
    /* Template 1: one outer loop of eight SFPNOPs, no start or end words. */
    static const uint32_t cfg[9] = {
        1, 8, TT_OP_NOP, TT_OP_NOP, TT_OP_NOP, TT_OP_SFPNOP, TT_OP_NOP, TT_OP_SFPNOP, TT_OP_SFPNOP};
    for (unsigned i = 0; i < 9; i++) {
        cp_mopcfg_write(ref, 0, i, cfg[i]);
        cp_mopcfg_write(fast, 0, i, cfg[i]);
    }
    static const uint32_t words[] = {TT_OP_REPLAY(0, 8, 0, 1), TT_OP_MOP(1, 0, 0), TT_OP_REPLAY(0, 8, 0, 0)};
    for (unsigned c = 0; c < 60; c++) {
        if (c % 5 == 0 && c / 5 < 3) {
            push(ref, 0, words[c / 5]);
            push(fast, 0, words[c / 5]);
        }
        cp_cycle(ref);
        cp_cycle(fast);
        same_state(ref, fast, c);
    }
    assert_true(cp_is_idle(fast));
    assert_int_equal(cp_stats(fast, 0)->issued, 8); /* the eight SFPNOPs, replayed */
    same_stats(ref, fast);
    cp_destroy(ref);
    cp_destroy(fast);
}

/* The gate's take of a replayed word with the replay expander's push of the next (GATE_FED,
 * fe_take_replayed): the fast twin's gate refills FIFO#3 as it takes, the reference's takes, then
 * its replay expander pushes. A recording of eight words replayed twice, the second of them a
 * ThCon instruction that freezes its thread for four cycles, so that FIFO#3 fills up behind the
 * next word (the take then with two words in FIFO#3, not one). Every cycle as the reference's,
 * and every cycle's issued words (the issue log), and the held words' and stalls' origins (each
 * word pushed from a pc of its own: a fed slot keeps the REPLAY's origin). fed counts the fast
 * twin's cycles in which the way applies (a replayed head issued; the expanders awake then,
 * which pass_leaves_stuck checks before every cycle: the frozen head is held, then taken by the
 * full step), by the number of words in FIFO#3 before the take: whether the gate took it is not
 * seen here (with the way off, mop_stuck_until_replay_takes' count of marks fails). */
static void replay_take_refills(void **state) {
    (void)state;
    cp_t *ref = cp_new(), *fast = cp_new();
    cp_set_stepwise(ref, true);
    static const uint32_t rec[] = {TT_OP_REPLAY(0, 8, 0, 1), TT_OP_SETADC(0, 0, 0, 1), TT_OP_ADDDMAREG(0, 9, 5, 1),
                                   TT_OP_SETADC(0, 0, 0, 2), TT_OP_SETADC(0, 0, 0, 3), TT_OP_SETADC(0, 0, 0, 4),
                                   TT_OP_SETADC(0, 0, 0, 5), TT_OP_SETADC(0, 0, 0, 6), TT_OP_SETADC(0, 0, 0, 7),
                                   TT_OP_REPLAY(0, 8, 0, 0), TT_OP_REPLAY(0, 8, 0, 0)};
    for (unsigned i = 0; i < sizeof rec / sizeof rec[0]; i++) { /* each from a pc of its own */
        assert_true(cp_push_from(ref, 0, rec[i], false, (cp_origin_t){.pc = 0x100 + 4 * i, .core = 3}));
        assert_true(cp_push_from(fast, 0, rec[i], false, (cp_origin_t){.pc = 0x100 + 4 * i, .core = 3}));
    }
    unsigned fed[3] = {0};
    uint64_t passes = 0;
    for (unsigned c = 0; c < 60; c++) {
        const fe_thread_t *fe = &fast->fe[0];
        const gate_t *g = &fast->gate[0];
        pass_leaves_stuck(fast, &passes, c);
        bool may = !g->held && !g->wait.active && fe->rp.mode == RP_REPLAY;
        unsigned n = fe->fifo3.count, issued = (unsigned)cp_stats(fast, 0)->issued;
        cp_cycle(ref);
        cp_cycle(fast);
        if (may && cp_stats(fast, 0)->issued > issued) fed[n]++;
        same_state(ref, fast, c);
        same_stats(ref, fast); /* every word issued so far */
    }
    assert_true(cp_is_idle(fast));
    assert_int_equal(cp_stats(fast, 0)->issued, 16);
    assert_true(fed[1] > 0);
    assert_true(fed[2] > 0);
    cp_destroy(ref);
    cp_destroy(fast);
}

/* The MOP expander stuck behind a full FIFO#2 while the replay expander replays (add1's math
 * thread: TRISC pushes REPLAYs until FIFO#1 is full): fe_step_fed, in the cycles whose gate took
 * a replayed word (GATE_FED), does not step it while its mark stands (fe_mop_t.stuck), and the
 * replay expander's next take from FIFO#2 clears it: a REPLAY ingested, a plain word passed on,
 * a recording's word. The words come in random bursts (as a TRISC pushes: the next once there is
 * room) with random pauses, some long enough for FIFO#1 and then FIFO#2 to drain, so that a mark
 * left standing would meet a word it must not hold back; among them MOP_CFGs and MOPs, which the
 * expander takes with FIFO#2 full. Every cycle as the reference's, and every cycle's issued
 * words; marks counts the cycles begun with the mark standing. */
static void mop_stuck_until_replay_takes(void **state) {
    (void)state;
    const uint32_t A = TT_OP_SETADC(0, 0, 0, 7), B = TT_OP_SETADC(0, 0, 0, 8);
    const uint32_t cfg[9] = {1, 2, TT_OP_NOP, TT_OP_NOP, TT_OP_NOP, A, TT_OP_NOP, B, B}; /* template 1: A, B */
    static const uint32_t rec[] = {TT_OP_REPLAY(0, 5, 0, 1), TT_OP_SETADC(0, 0, 0, 1), TT_OP_SETADC(0, 0, 0, 2),
                                   TT_OP_SETADC(0, 0, 0, 3), TT_OP_SETADC(0, 0, 0, 4), TT_OP_SETADC(0, 0, 0, 5)};
    const uint32_t R = TT_OP_REPLAY(0, 5, 0, 0);
    const uint32_t words[] = {R,
                              R,
                              R,
                              R,
                              TT_OP_MOP_CFG(0),
                              TT_OP_SETADC(0, 0, 0, 6),
                              TT_OP_REPLAY(0, 3, 0, 0),
                              TT_OP_MOP(1, 0, 0),
                              TT_OP_REPLAY(2, 2, 0, 1)};
    uint64_t marks = 0, passes = 0;
    /* First REPLAYs alone until FIFO#1 is empty behind a full FIFO#2 during a replay (fed), then a
     * MOP_CFG and a MOP, which the expander takes though FIFO#2 is still full; then the seeds. */
    for (uint32_t seed = 0; seed <= 24; seed++) {
        rng_state = seed * 2654435761u;
        cp_t *ref = cp_new(), *fast = cp_new();
        cp_set_stepwise(ref, true);
        for (unsigned k = 0; k < 9; k++) {
            cp_mopcfg_write(ref, 0, k, cfg[k]);
            cp_mopcfg_write(fast, 0, k, cfg[k]);
        }
        push_n(ref, 0, rec, sizeof rec / sizeof rec[0]);
        push_n(fast, 0, rec, sizeof rec / sizeof rec[0]);
        unsigned left = 0, pause = 0, fed = 0;
        uint64_t seen = 0;
        for (uint64_t c = 0; c < 600; c++) {
            const fe_thread_t *fe = &fast->fe[0];
            if (!seed) {
                if (!fed && fe->rp.mode == RP_REPLAY && fifo_full(&fe->fifo2) && fifo_empty(&fe->fifo1)) {
                    fed = 1;
                    seen = c;
                }
                uint32_t w = !fed ? (c < 12 ? R : 0) : fed == 1 ? TT_OP_MOP_CFG(0) : TT_OP_MOP(1, 0, 0);
                if (w && fed < 3 && (!fed || c >= seen + 2)) { /* (after a fed cycle or two like that) */
                    bool x = cp_push(ref, 0, w, false), y = cp_push(fast, 0, w, false);
                    assert_int_equal(x, y);
                    fed += fed && x;
                }
            } else if (!left && !pause) { /* the next burst, and the pause after it */
                left = c < 500 ? 1 + pick(pick(2) ? 12 : 48) : 0;
                pause = pick(4) ? pick(4) : pick(60);
            }
            if (left) {
                uint32_t w = words[pick(sizeof words / sizeof words[0])];
                if (w == TT_OP_REPLAY(2, 2, 0, 1)) w = pick(2) ? w : TT_OP_SETADC(0, 0, 0, 9);
                bool x = cp_push(ref, 0, w, false), y = cp_push(fast, 0, w, false);
                assert_int_equal(x, y);
                left -= x;
            } else if (pause) {
                pause--;
            }
            mop_stuck_holds(fast, &marks, c);
            dormant_holds(fast, &dormant_seen, c);
            pass_leaves_stuck(fast, &passes, c);
            cp_cycle(ref);
            cp_cycle(fast);
            same_state(ref, fast, c);
            same_stats(ref, fast); /* every word issued so far */
        }
        same_stats(ref, fast);
        assert_true(seed || fed == 3);
        cp_destroy(ref);
        cp_destroy(fast);
    }
    assert_true(marks > 1000);
}

/* Unpacker instructions of eight cycles each: SrcA (unpacker 0) or SrcB (unpacker 1) handed to
 * the Matrix Unit at retire (each waits for its bank first), or through unpacker 1's queue
 * without a bank. */
#define UNP_SRCA   TT_OP_UNPACR_NOP(0, 0, 0, 1, 0, 0, 0, 0, 0)
#define UNP_SRCB   TT_OP_UNPACR_NOP(1, 0, 0, 1, 0, 0, 0, 0, 0)
#define UNP_NOBANK TT_OP_UNPACR_NOP(1, 0, 0, 0, 0, 0, 0, 0, 0)

/* The full cycle moves the timing model's clock itself and calls tm_cycle_due only from the
 * unpackers' due cycle on (cp_tmh's now and unp_due; the stepwise twin's due time stays 0): a
 * thread's unpacker instructions run eight cycles each and hand their banks to the Matrix Unit
 * as they retire, an ELWADD waits for both banks and hands them back. The fast twin must skip the
 * call in some of its full cycles and still retire each one when the stepwise twin does. */
static void unpacker_due_clock(void **state) {
    (void)state;
    cp_t *ref = cp_new(), *fast = cp_new();
    cp_set_stepwise(ref, true);
    static const uint32_t words[] = {
        UNP_SRCA, UNP_NOBANK, UNP_SRCB, TT_OP_ELWADD(3, 0, 0, 0, 0), /* waits for both, hands both back */
    };
    unsigned skipped = 0;
    for (unsigned c = 0; c < 400; c++) {
        if (c % 3 == 0 && cp_push(ref, 0, words[(c / 3) % 4], false)) push(fast, 0, words[(c / 3) % 4]);
        /* a full cycle of the fast twin next, with nothing due in it (as cp_cycle decides) */
        if (cp_next_cycle(fast) == CP_NEXT_FULL && !cp_tm_due_at(fast, cp_tmh(fast)->now + 1)) skipped++;
        cp_cycle(ref);
        cp_cycle(fast);
        same_state(ref, fast, c);
        assert_int_equal(tm_busy_classes(ref->tm, 0), tm_busy_classes(fast->tm, 0));
    }
    assert_true(skipped > 0);
    same_stats(ref, fast);
    cp_destroy(ref);
    cp_destroy(fast);
}

/* An unpacker's queue full (four deep): thread 0 pushes unpacker 1's instructions faster than
 * they retire and those that wait for a bank, while thread 1's ELWADDs (words1) wait for both
 * banks and hand them back. Both refusals tm_refuses_until_moved names must stand in the fast
 * twin (GATE_REPEAT_UNIT) exactly while the stepwise twin's gates find them again. */
static void unpacker_queue_full(void **state) {
    (void)state;
    cp_t *ref = cp_new(), *fast = cp_new();
    cp_set_stepwise(ref, true);
    static const uint32_t words[] = {UNP_SRCA, UNP_NOBANK, UNP_NOBANK, UNP_NOBANK, UNP_SRCB, UNP_NOBANK, UNP_NOBANK};
    /* Thread 1: ELWADDs, one behind a STALLWAIT on the ELWADD before it (C4) that blocks only
     * the Scalar Unit: a head refused for want of a bank while a wait that does not block it is
     * latched (and met meanwhile: then forgotten, which only a full step does). */
    static const uint32_t words1[] = {TT_OP_ELWADD(3, 0, 0, 0, 0), TT_OP_STALLWAIT(TT_B5_THCON, 1u << 4),
                                      TT_OP_ELWADD(3, 0, 0, 0, 0), TT_OP_ELWADD(3, 0, 0, 0, 0)};
    refusal_seen_t refusals = {0};
    unsigned n0 = 0, n1 = 0;
    for (unsigned c = 0; c < 600; c++) {
        uint32_t w = words[n0 % (sizeof words / sizeof words[0])];
        if (cp_push(ref, 0, w, false)) push(fast, 0, w), n0++;
        w = words1[n1 % (sizeof words1 / sizeof words1[0])];
        if (c % 3 == 0 && cp_push(ref, 1, w, false)) push(fast, 1, w), n1++;
        refusals_match(ref, fast, &refusals, c);
        cp_cycle(ref);
        cp_cycle(fast);
        same_state(ref, fast, c);
    }
    assert_true(refusals.stood[0] > 0);
    assert_true(refusals.stood[1] > 0);
    same_stats(ref, fast);
    cp_destroy(ref);
    cp_destroy(fast);
}

/* Thread t of both twins, for the dormant threads' wakes below: hands both banks of SrcA and SrcB
 * to the Matrix Unit (unpacker 0's SrcA, unpacker 1's SrcB, twice), queues a fifth UNPACR on
 * unpacker u that waits for its bank, and a STALLWAIT of the conditions conds (C(1 + u) among
 * them: unpacker u has its instructions) holding an SFPNOP. The thread dozes with no recheck time
 * (the waiting head's end is not known) until another thread hands the banks back and the head
 * retires. */
static void hold_behind_unpacker(cp_t *ref, cp_t *fast, unsigned t, unsigned u, uint32_t conds) {
    const uint32_t words[] = {
        UNP_SRCA,    UNP_SRCB, UNP_SRCA, UNP_SRCB, u ? UNP_SRCB : UNP_SRCA, TT_OP_STALLWAIT(TT_B_ALL, conds),
        TT_OP_SFPNOP};
    const unsigned n = sizeof words / sizeof words[0];
    push_n(ref, t, words, n);
    push_n(fast, t, words, n);
}

/* A dormant thread wakes only for what its hold reads (cp.c cp_doze, tm_head_t.wake_on). Thread
 * t holds on C(1 + u) behind unpacker u (hold_behind_unpacker). Another thread's ELWADD then takes
 * both banks and hands them back: that Src hand-over wakes nobody (C(1 + u) is not a Src
 * condition and nothing is refused), and thread t stays asleep on every cycle while the head runs;
 * the head's retire changes C(1 + u), which wakes thread t alone. Every cycle as the stepwise
 * twin's. */
static void retire_wake_run(unsigned t, unsigned u) {
    cp_t *ref = cp_new(), *fast = cp_new();
    cp_set_stepwise(ref, true);
    hold_behind_unpacker(ref, fast, t, u, 1u << (1 + u));
    const unsigned other = t == 0 ? 1 : 0;
    uint64_t seen = 0, moves = 0, asleep_after_moves = 0;
    for (unsigned c = 0; c < 300; c++) {
        if (c == 100) {
            push(ref, other, TT_OP_ELWADD(3, 0, 0, 0, 0));
            push(fast, other, TT_OP_ELWADD(3, 0, 0, 0, 0));
            moves = cp_tmh(fast)->unit_moves;
        }
        dormant_holds(fast, &seen, c);
        /* (after the hand-over, before the head's retire: unit_moves moved once) */
        if (c > 100 && cp_tmh(fast)->unit_moves == moves + 1) {
            assert_true(cp_tmh(fast)->dormant & (1u << t));
            asleep_after_moves++;
        }
        cp_cycle(ref);
        cp_cycle(fast);
        same_state(ref, fast, c);
    }
    assert_true(seen > 50);
    assert_true(asleep_after_moves > 0);
    assert_int_equal(cp_stats(fast, t)->issued, 7);
    same_stats(ref, fast);
    cp_destroy(ref);
    cp_destroy(fast);
}

/* A dormant thread's STALLWAIT that selects the Mover's C9 or the Configuration Unit's C12 beside
 * unpacker 0's C1 (thread 0 held by C1: hold_behind_unpacker) wakes when thread 1's XMOV or SETC16
 * (`word`) makes that condition true: the hold's answer changes (its reasons and their stall
 * counts), which only a woken thread records. Thread 1's ELWADD then frees the banks, and the
 * head's retire ends the wait. Every cycle as the stepwise twin's, and the stats as the stepwise
 * twin's at the end. */
static void unit_wake_run(unsigned cond, uint32_t word) {
    cp_t *ref = cp_new(), *fast = cp_new();
    cp_set_stepwise(ref, true);
    hold_behind_unpacker(ref, fast, 0, 0, 1u << 1 | 1u << cond);
    uint64_t seen = 0, asleep_before = 0;
    for (unsigned c = 0; c < 400; c++) {
        if (c == 100 || c == 200) {
            push(ref, 1, c == 100 ? word : TT_OP_ELWADD(3, 0, 0, 0, 0));
            push(fast, 1, c == 100 ? word : TT_OP_ELWADD(3, 0, 0, 0, 0));
        }
        dormant_holds(fast, &seen, c);
        if (c == 99) asleep_before += cp_tmh(fast)->dormant & 1u;
        cp_cycle(ref);
        cp_cycle(fast);
        same_state(ref, fast, c);
    }
    assert_true(asleep_before > 0);
    assert_int_equal(cp_stats(fast, 0)->issued, 7);
    same_stats(ref, fast);
    cp_destroy(ref);
    cp_destroy(fast);
}

static void unit_wakes_its_stallwait(void **state) {
    (void)state;
    unit_wake_run(9, TT_OP_XMOV(0, 0));    /* the Mover */
    unit_wake_run(12, TT_OP_SETC16(2, 5)); /* the Configuration Unit */
}

static void retire_wakes_its_stallwait(void **state) {
    (void)state;
    retire_wake_run(0, 0); /* unpacker 0, C1 */
    retire_wake_run(2, 1); /* unpacker 1, C2, a thread but the first */
}

/* A push that finds its FIFO full forgets that FIFO's earlier frees (cp_fifo_seen_full), and only
 * that FIFO's: the tile releases a blocked push on its FIFO's bit alone (tile_blocks_check), which
 * a free from before the push would make it do in vain. */
static void fifo_seen_full_forgets(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    const uint32_t all = CP_CYCLE_FREED >> CP_CYCLE_FREED_SHIFT;
    cp_fifo_seen_full(cp, all); /* (all of them freed after a reset) */
    unsigned n = 0;
    for (unsigned t = 0; t < 2; t++)
        while (cp_push(cp, t, TT_OP_NOP, false))
            n++;
    assert_true(n > 2);
    /* both FIFOs lose a NOP: bits 0 and 1, kept until seen full */
    assert_int_equal((cp_cycle(cp) & CP_CYCLE_FREED) >> CP_CYCLE_FREED_SHIFT, 3u);
    push(cp, 0, TT_OP_NOP);
    assert_false(cp_push(cp, 0, TT_OP_NOP, false)); /* full again */
    cp_fifo_seen_full(cp, 1u << 0);
    assert_int_equal(cp->fifo_freed, 1u << 1); /* (white box: what the next status starts from) */
    /* the next free of thread 0's FIFO#1 names it again */
    uint32_t freed = 0;
    for (unsigned c = 0; c < 64 && !(freed & 1u); c++)
        freed |= (cp_cycle(cp) & CP_CYCLE_FREED) >> CP_CYCLE_FREED_SHIFT;
    assert_true(freed & 1u);
    push(cp, 0, TT_OP_NOP); /* room */
    cp_destroy(cp);
}

/* An idle coprocessor's cycle through cp_cycle (cp_cycle_idle) is cp_advance_idle's: the same
 * clocks, the timing model's included, and the same answer, after some work and between drawn
 * pushes. */
static void idle_cycle_is_advance_idle(void **state) {
    (void)state;
    cp_t *a = cp_new(), *b = cp_new();
    uint32_t x = 0x9E3779B9u;
    unsigned idle_steps = 0;
    for (unsigned step = 0; step < 400; step++) {
        xorshift32(&x);
        if (x % 8 == 0) {
            uint32_t w = (x >> 8) % 2 ? TT_OP_NOP : TT_OP_SETADC(0, 0, 0, step);
            push(a, (x >> 4) % CP_THREADS, w);
            push(b, (x >> 4) % CP_THREADS, w);
        }
        bool idle = cp_is_idle(a);
        assert_int_equal(idle, cp_is_idle(b));
        unsigned sa = cp_cycle(a), sb = 0;
        if (idle) {
            cp_advance_idle(b, 1);
            sb = CP_CYCLE_IDLE; /* (what an idle cycle says: no error in these runs) */
            idle_steps++;
        } else {
            sb = cp_cycle(b);
        }
        assert_int_equal(sa & (CP_CYCLE_IDLE | CP_CYCLE_FAILED), sb & (CP_CYCLE_IDLE | CP_CYCLE_FAILED));
        assert_int_equal(cp_cycles(a), cp_cycles(b));
        assert_int_equal(cp_tmh(a)->now, cp_tmh(b)->now);
    }
    assert_true(idle_steps > 50);
    cp_destroy(a);
    cp_destroy(b);
}

/* An idle coprocessor's quiet_until stays UINT64_MAX (cp_quiet_stop), so that cp_next_fast tells
 * a full cycle by one compare: every way the coprocessor goes idle (a reset, the full cycle's
 * idle end, the reference path's) and every call from outside that ends a quiet stretch leaves an
 * idle coprocessor's next cycle an idle one (idle_keeps_a_pending_bubble: what a full cycle
 * instead would change). */
/* An empty MOP expansion (template 1 with MopCfg[0] = 0, as after a reset) leaves the coprocessor
 * idle with the expander's bubble pending: an idle cycle keeps it, a full cycle would use it up.
 * So an idle coprocessor must stay idle after a call from outside (cp_quiet_stop): of two twins,
 * the one given a semaphore write while idle issues its next word at the cycle the other does. */
static void idle_keeps_a_pending_bubble(void **state) {
    (void)state;
    for (unsigned stepwise = 0; stepwise < 2; stepwise++) {
        cp_t *a = cp_new(), *b = cp_new();
        cp_set_stepwise(a, stepwise);
        cp_set_stepwise(b, stepwise);
        push(a, 0, TT_OP_MOP(1, 0, 0));
        push(b, 0, TT_OP_MOP(1, 0, 0));
        for (unsigned n = 0; n < 40 && !(cp_is_idle(a) && cp_is_idle(b)); n++) {
            cp_cycle(a);
            cp_cycle(b);
        }
        assert_true(cp_is_idle(a) && cp_is_idle(b));
        cp_sem_write(a, 0, 1, 0); /* a only */
        for (unsigned n = 0; n < 2; n++) {
            cp_cycle(a);
            cp_cycle(b);
        }
        push(a, 0, TT_OP_SETADC(0, 0, 0, 1));
        push(b, 0, TT_OP_SETADC(0, 0, 0, 1));
        for (unsigned n = 0; n < 40 && !(cp_is_idle(a) && cp_is_idle(b)); n++) {
            cp_cycle(a);
            cp_cycle(b);
        }
        cp_issue_t la[CP_ISSUE_LOG], lb[CP_ISSUE_LOG];
        unsigned na = cp_issue_log(a, la, CP_ISSUE_LOG);
        assert_int_equal(na, cp_issue_log(b, lb, CP_ISSUE_LOG));
        assert_int_equal(na, 1);
        assert_int_equal(la[0].word, TT_OP_SETADC(0, 0, 0, 1));
        assert_int_equal(la[0].cycle, lb[0].cycle);
        cp_destroy(a);
        cp_destroy(b);
    }
}

static void idle_stays_idle_after_outside_calls(void **state) {
    (void)state;
    for (unsigned stepwise = 0; stepwise < 2; stepwise++) {
        cp_t *cp = cp_new();
        cp_set_stepwise(cp, stepwise);
        assert_int_equal(cp_next_fast(cp), CP_NEXT_IDLE); /* (a reset's) */
        for (unsigned k = 0; k < 18; k++) {
            if (k % 9 == 8) { /* busy again, then idle by its own cycles */
                push(cp, k % CP_THREADS, TT_OP_SETADC(0, 0, 0, k));
                assert_int_not_equal(cp_next_fast(cp), CP_NEXT_IDLE);
                for (unsigned n = 0; n < 40 && !cp_is_idle(cp); n++)
                    cp_cycle(cp);
            }
            assert_true(cp_is_idle(cp));
            switch (k % 9) {
            case 0: cp_sem_write(cp, 0, 1, 0); break;
            case 1: cp_gpr_write(cp, 1, 2, 5); break;
            case 2: cp_note_riscv_write(cp, 2); break;
            case 3: cp_mopcfg_write(cp, 0, 1, 7); break;
            case 4: cp_cfg_write(cp, 0, 0, 1); break;
            case 5: cp_set_gate_policy(cp, CP_GATE_EXACT); break;
            case 6: cp_set_stepwise(cp, !stepwise); break;
            case 7: cp_set_stepwise(cp, stepwise); break;
            default: break;
            }
            assert_int_equal(cp_next_fast(cp), CP_NEXT_IDLE);
            assert_int_equal(cp_quiet_left(cp), 0);
            cp_cycle(cp);
        }
        cp_reset(cp);
        assert_int_equal(cp_next_fast(cp), CP_NEXT_IDLE);
        cp_destroy(cp);
    }
}

/* The timing model in the coprocessor's allocation (tm_place): cp_tmh, which the full cycle and
 * the gates read without a call, is the model's own head (tm_head: its clock, due time, moves,
 * changed conditions and error); and a used coprocessor's reset clears the
 * head as a new model's is (tm_reset: clock 0, due 0, no error, every condition marked changed). */
static void timing_head_in_place(void **state) {
    (void)state;
    cp_t *cp = cp_new(), *fresh = cp_new();
    assert_ptr_equal((void *)cp_tmh(cp), (void *)cp->tm);
    assert_ptr_equal(&tm_head(cp->tm)->now, &cp_tmh(cp)->now);
    assert_ptr_equal(&tm_head(cp->tm)->unp_due, &cp_tmh(cp)->unp_due);
    assert_ptr_equal(&tm_head(cp->tm)->unit_moves, &cp_tmh(cp)->unit_moves);
    assert_ptr_equal(tm_head(cp->tm)->chg, cp_tmh(cp)->chg);
    assert_ptr_equal(&tm_head(cp->tm)->err, &cp_tmh(cp)->err);
    rng_state = 7;
    used_then_reset(cp);
    assert_memory_equal(cp_tmh(cp), cp_tmh(fresh), sizeof(tm_head_t));
    assert_int_equal(cp_tmh(cp)->now, 0);
    assert_int_equal(cp_tmh(cp)->chg[0], 0x1FFF);
    /* and the clock the full cycle moves is the model's: a hundred cycles later both say 100 */
    for (unsigned c = 0; c < 100; c++)
        cp_cycle(cp);
    assert_int_equal(cp_tmh(cp)->now, 100);
    assert_int_equal(tm_head(cp->tm)->now, 100);
    cp_destroy(cp);
    cp_destroy(fresh);
}

/* The coprocessor's one clock (cp_now: the timing model's): every way of a cycle moves it by one,
 * and what a cycle records (an issue's cycle in the log and the statistics, a latched wait's
 * since) is the cycle's number before it moves, on the fast path as on the reference path. A NOP
 * pushed at cycle 5 leaves its gate at 7 (two stages: docs/coprocessor.md); a SEMWAIT on a
 * semaphore at 0 holds the instruction behind it through a quiet stretch until a RISC-V post. */
static void one_clock_every_way(void **state) {
    (void)state;
    cp_t *cp[2] = {cp_new(), cp_new()};
    cp_set_stepwise(cp[1], true);
    for (unsigned i = 0; i < 2; i++) {
        cp_t *c = cp[i];
        run(c, 3); /* idle cycles */
        cp_advance_idle(c, 2);
        assert_int_equal(cp_cycles(c), 5);
        push(c, 0, TT_OP_NOP);
        run(c, 3);
        cp_issue_t e[4];
        assert_int_equal(cp_issue_log(c, e, 4), 1);
        assert_int_equal(e[0].cycle, 7);
        assert_int_equal(cp_stats(c, 0)->last_issue_cycle, 7);
        assert_int_equal(cp_cycles(c), 8);
        push(c, 1, TT_OP_SEMINIT(2, 0, 0x02));       /* semaphore 1: value 0 */
        push(c, 1, TT_OP_SEMWAIT(1u << 0, 0x02, 1)); /* C0: wait while it is 0; blocks B0 */
        push(c, 1, TT_OP_SETADC(0, 0, 0, 1));        /* (a B0 instruction) */
        run(c, 40);
        assert_int_equal(cp_cycles(c), 48);
        cp_thread_state_t ts;
        cp_thread_state(c, 1, &ts);
        assert_true(ts.held);
        if (i == 0) assert_true(cp_quiet_cycles(c) > 20); /* (the fast path's stretch ran) */
        cp_advance_idle(c, 10);                           /* (a quiet stretch at once) */
        assert_int_equal(cp_cycles(c), 58);
        cp_sem_write(c, 1, 1, 0); /* a post: value 1 */
        run(c, 6);
        assert_int_equal(cp_cycles(c), 64);
        assert_int_equal(cp_tmh(c)->now, 64);
    }
    cp_issue_t a[8], b[8];
    unsigned n = cp_issue_log(cp[0], a, 8);
    assert_int_equal(n, 4);
    assert_int_equal(cp_issue_log(cp[1], b, 8), n);
    for (unsigned k = 0; k < n; k++) {
        assert_int_equal(a[k].cycle, b[k].cycle);
        assert_int_equal(a[k].word, b[k].word);
    }
    assert_int_equal(a[3].word, TT_OP_SETADC(0, 0, 0, 1));
    assert_true(a[3].cycle > 58);
    for (unsigned t = 0; t < CP_THREADS; t++)
        assert_int_equal(cp_stats(cp[0], t)->last_issue_cycle, cp_stats(cp[1], t)->last_issue_cycle);
    cp_destroy(cp[0]);
    cp_destroy(cp[1]);
}

/* The issue log in issue order (cp_t.ilog: a ring a thread, merged by the view): the three
 * threads issue in the same cycles, more than the log holds; the log is the last CP_ISSUE_LOG of
 * them, by cycle and in a cycle by thread, each thread's share its last ones, each thread's last
 * issue its last_issue_cycle; a clear empties it, later issues fill it again. */
static void issue_log_in_issue_order(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    static cp_issue_t log[CP_ISSUE_LOG + 8];
    uint64_t pushed = 0;
    for (unsigned round = 0; round < 4; round++) {
        if (round == 3) {
            cp_issue_log_clear(cp);
            assert_int_equal(cp_issue_log(cp, log, CP_ISSUE_LOG), 0);
        }
        for (unsigned i = 0; i < 30; i++)
            for (unsigned t = 0; t < CP_THREADS; t++) {
                push(cp, t, (t == 1 && i % 3 == 0) ? TT_OP_SETADC(0, 0, 0, i) : TT_OP_NOP);
                pushed++;
            }
        run(cp, 60);
        uint64_t issued = 0;
        for (unsigned t = 0; t < CP_THREADS; t++)
            issued += cp_stats(cp, t)->issued;
        assert_int_equal(issued, pushed);
        unsigned want = round == 3 ? 90 : issued < CP_ISSUE_LOG ? (unsigned)issued : CP_ISSUE_LOG;
        unsigned n = cp_issue_log(cp, log, CP_ISSUE_LOG + 8);
        assert_int_equal(n, want);
        unsigned per[CP_THREADS] = {0};
        for (unsigned k = 0; k < n; k++) {
            per[log[k].thread]++;
            if (k) /* strictly later: a later cycle, or a later thread in the same cycle */
                assert_true(log[k].cycle > log[k - 1].cycle ||
                            (log[k].cycle == log[k - 1].cycle && log[k].thread > log[k - 1].thread));
        }
        assert_int_equal(log[n - 1].cycle, cp_stats(cp, log[n - 1].thread)->last_issue_cycle);
        for (unsigned t = 0; t < CP_THREADS; t++) {
            /* (30 a round each; in round 2 the log holds 256 of 270: at least 256 - 2 * 90 each) */
            unsigned hi = round == 3 ? 30 : 30 * (round + 1), lo = round == 2 ? CP_ISSUE_LOG - 2 * 90 : hi;
            assert_true(per[t] >= lo && per[t] <= hi);
            for (int k = (int)n - 1; k >= 0; k--) /* its latest entry is its last issue */
                if (log[k].thread == t) {
                    assert_int_equal(log[k].cycle, cp_stats(cp, t)->last_issue_cycle);
                    break;
                }
        }
        /* a shorter view is the longer one's tail */
        cp_issue_t tail[5];
        assert_int_equal(cp_issue_log(cp, tail, 5), 5);
        for (unsigned k = 0; k < 5; k++) {
            assert_int_equal(tail[k].cycle, log[n - 5 + k].cycle);
            assert_int_equal(tail[k].word, log[n - 5 + k].word);
            assert_int_equal(tail[k].thread, log[n - 5 + k].thread);
        }
    }
    cp_destroy(cp);
}

/* ---- the datapath's reset ------------------------------------------------------------------ */

/* A Config field written as RISC-V writes it (cp_cfg_write, bank 0), the word's other bits kept. */
static void cfg_field_w(cp_t *cp, cfg_field_t f, uint32_t val) {
    const cp_field_t *d = &cfg_fields[f];
    uint32_t v, m = st_field_mask(d->width) << d->shift;
    assert_true(cp_cfg_read(cp, 4u * d->word, &v));
    assert_true(cp_cfg_write(cp, -1, 4u * d->word, (v & ~m) | ((val << d->shift) & m)));
}

/* One PACR of Dst row 0 as BF16 to L1 0x1000 (first filled with 0xFF, so that written zeros show):
 * the first two bytes written, little-endian. */
#define RESET_L1 0x1000u
static uint16_t pack_dst_row0(cp_t *cp, uint8_t *l1) {
    memset(l1 + RESET_L1, 0xFF, 32);
    cfg_field_w(cp, CFG_ALU_FORMAT_SPEC_REG2_Dstacc, FMT_BF16);
    cfg_field_w(cp, CFG_THCON_SEC0_REG1_In_data_format, FMT_BF16);
    cfg_field_w(cp, CFG_THCON_SEC0_REG1_Out_data_format, FMT_BF16);
    cfg_field_w(cp, CFG_THCON_SEC0_REG1_Exp_section_size, 1);
    cfg_field_w(cp, CFG_THCON_SEC0_REG1_Disable_zero_compress, 1);
    cfg_field_w(cp, CFG_PACK_COUNTERS_SEC0_pack_reads_per_xy_plane, 16);
    cfg_field_w(cp, CFG_PCK_EDGE_OFFSET_SEC0_mask, 0xFFFF);
    cfg_field_w(cp, CFG_PCK0_ADDR_CTRL_XY_REG_0_Ystride, 32);
    cfg_field_w(cp, CFG_THCON_SEC0_REG1_L1_Dest_addr, (RESET_L1 >> 4) - 1);
    push(cp, 0, TT_OP_PACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    run(cp, 200);
    assert_null(cp_fault(cp));
    return (uint16_t)(l1[RESET_L1] | l1[RESET_L1 + 1] << 8);
}

/* cp_create's datapath starts reset (dp_create's reset; cp_create no longer repeats it) and
 * cp_reset resets it: Dst is zeros after either (ttemu's power-on choice, docs/datapath.md), so
 * row 0 packs to BF16 +0; between them SFPLOADI of BF16 1.0 (0x3F80) and its SFPSTORE to Dst row
 * 0 make it pack to 0x3F80. */
static void datapath_reset_by_create_and_reset(void **state) {
    (void)state;
    static uint8_t l1[0x2000];
    memset(&g_fake, 0, sizeof g_fake);
    memset(l1, 0, sizeof l1);
    cp_env_t env = {.ctx = &g_fake, .mmio_load = fake_load, .mmio_store = fake_store, .l1 = l1, .l1_size = sizeof l1};
    cp_t *cp = cp_create(&env);
    assert_non_null(cp);
    assert_int_equal(pack_dst_row0(cp, l1), 0x0000);
    push(cp, 0, TT_OP_SFPLOADI(0, 0, 0x3F80)); /* Mod0 0: BF16 */
    push(cp, 0, TT_OP_SFPSTORE(0, 2, 0, 0));   /* Mod0 2: FP16B (BF16) to Dst row 0 */
    run(cp, 40);
    assert_int_equal(pack_dst_row0(cp, l1), 0x3F80);
    cp_reset(cp);
    assert_int_equal(pack_dst_row0(cp, l1), 0x0000);
    cp_destroy(cp);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(datapath_reset_by_create_and_reset),
        cmocka_unit_test(timing_head_in_place),
        cmocka_unit_test(random_runs_match),
        cmocka_unit_test(random_runs_match_whole_thread),
        cmocka_unit_test(mop_recorded_by_replay),
        cmocka_unit_test(replay_take_refills),
        cmocka_unit_test(mop_stuck_until_replay_takes),
        cmocka_unit_test(drain_behind_a_held_head),
        cmocka_unit_test(push_behind_keeps_quiet),
        cmocka_unit_test(mop_cached_expansion),
        cmocka_unit_test(unpacker_due_clock),
        cmocka_unit_test(unpacker_queue_full),
        cmocka_unit_test(retire_wakes_its_stallwait),
        cmocka_unit_test(unit_wakes_its_stallwait),
        cmocka_unit_test(fifo_seen_full_forgets),
        cmocka_unit_test(idle_cycle_is_advance_idle),
        cmocka_unit_test(idle_stays_idle_after_outside_calls),
        cmocka_unit_test(idle_keeps_a_pending_bubble),
        cmocka_unit_test(one_clock_every_way),
        cmocka_unit_test(issue_log_in_issue_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
