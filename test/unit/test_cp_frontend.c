/* test/unit/test_cp_frontend.c — FIFOs and back-pressure, the MOP expander and the replay
 * expander: the exact sequence of instructions that leave the gate (PushTensixInstruction.md,
 * MOPExpander.md, REPLAY.md; TENSIX.md §3.2–3.4), plus the TTSync and qstatus views. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test/unit/cp_test.h"

/* Distinct markers (Misc unit, one per cycle, no side effects the tests depend on). */
enum {
    A0 = TT_OP_SETADC(0, 0, 0, 1),
    A1 = TT_OP_SETADC(0, 0, 0, 2),
    A2 = TT_OP_SETADC(0, 0, 0, 3),
    A3 = TT_OP_SETADC(0, 0, 0, 4),
    B = TT_OP_SETADC(0, 0, 0, 5),
    SKA = TT_OP_SETADC(0, 0, 0, 6),
    SKB = TT_OP_SETADC(0, 0, 0, 7)
};

/* ---- FIFO back-pressure ----------------------------------------------------------------------- */

/* FIFO#1 holds 32 words; the 33rd push fails until the MOP expander takes one. */
static void fifo_backpressure_at_32(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    for (unsigned i = 0; i < 32; i++)
        assert_true(cp_push(cp, 0, TT_OP_SETADC(0, 0, 0, i), false));
    assert_false(cp_push(cp, 0, TT_OP_SETADC(0, 0, 0, 32), false));
    assert_int_equal(cp_stats(cp, 0)->fifo_high_water, 32);
    cp_cycle(cp); /* the MOP expander takes one word */
    assert_true(cp_push(cp, 0, TT_OP_SETADC(0, 0, 0, 32), false));
    assert_false(cp_push(cp, 0, TT_OP_SETADC(0, 0, 0, 33), false));
    /* Other threads have their own FIFOs. */
    assert_true(cp_push(cp, 1, TT_OP_NOP, false));
    /* Everything comes out, in order. */
    run(cp, 40);
    uint32_t want[33];
    for (unsigned i = 0; i < 33; i++)
        want[i] = TT_OP_SETADC(0, 0, 0, i);
    expect_seq(cp, 0, want, 33);
    cp_destroy(cp);
}

/* cp_push_trisc is cp_push_from before the MOP expander: drawn pushes (bursts that fill FIFO#1,
 * cycles that drain it) into two coprocessors, one through each, answer and count alike. */
static void push_trisc_is_push_from_before_mop(void **state) {
    (void)state;
    cp_t *a = cp_new(), *b = cp_new();
    uint32_t x = 12345;
    for (unsigned step = 0; step < 3000; step++) {
        x = x * 1103515245u + 12345u;
        unsigned t = (x >> 16) % 4; /* 3: no such thread, refused by both */
        if ((x >> 21) % 8 == 0) {   /* rarer than a thread's pushes: FIFO#1 fills */
            cp_cycle(a);
            cp_cycle(b);
            continue;
        }
        uint32_t w = TT_OP_SETADC(0, 0, 0, step & 0x3FFFF);
        cp_origin_t org = {.pc = 4 * step, .core = (int8_t)(2 + t % 3)};
        assert_int_equal(cp_push_trisc(a, t, w, org.pc, org.core), cp_push_from(b, t, w, false, org));
    }
    for (unsigned t = 0; t < CP_THREADS; t++) {
        const cp_stats_t *x1 = cp_stats(a, t), *y1 = cp_stats(b, t);
        assert_int_equal(x1->pushed, y1->pushed);
        assert_int_equal(x1->last_pushed, y1->last_pushed);
        assert_memory_equal(x1->first_pushed, y1->first_pushed, sizeof x1->first_pushed);
        assert_int_equal(x1->fifo_high_water, y1->fifo_high_water);
        assert_int_equal(x1->fifo_high_water, 32); /* the bursts did fill it */
        assert_int_equal(x1->fifo2_high_water, y1->fifo2_high_water);
        assert_int_equal(x1->issued, y1->issued);
    }
    cp_destroy(a);
    cp_destroy(b);
}

/* A TRISC's push keeps who pushed the word and from where (cp_push_trisc takes the origin as its
 * two fields): the held word's stall names them. */
static void push_trisc_keeps_origin(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    assert_true(cp_push_trisc(cp, 1, TT_OP_STALLWAIT(0x1FF, 1u << 7), 0x100, 3));
    assert_true(cp_push_trisc(cp, 1, TT_OP_SETADC(0, 0, 0, 1), 0x1234, 3));
    for (unsigned i = 0; i < 10; i++)
        cp_cycle(cp);
    cp_thread_state_t s;
    cp_thread_state(cp, 1, &s);
    assert_true(s.held);
    assert_int_equal(s.held_word, TT_OP_SETADC(0, 0, 0, 1));
    assert_int_equal(s.held_origin.pc, 0x1234);
    assert_int_equal(s.held_origin.core, 3);
    cp_destroy(cp);
}

/* With the gate blocked, every FIFO fills and the pushing core stays refused. */
static void fifo_backpressure_when_gate_blocked(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_STALLWAIT(0x1FF, 1u << 7));
    unsigned pushed = 1;
    for (unsigned c = 0; c < 100; c++) {
        while (cp_push(cp, 0, TT_OP_NOP, false))
            pushed++;
        cp_cycle(cp);
    }
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    assert_int_equal(s.fifo1, 32);
    assert_int_equal(s.fifo2, 8);
    assert_int_equal(s.fifo3, 2);
    assert_int_equal(pushed, 1 + 32 + 8 + 2);
    assert_false(cp_push(cp, 0, TT_OP_NOP, false));
    assert_int_equal(cp_stats(cp, 0)->fifo2_high_water, 8);
    cp_destroy(cp);
}

/* FIFO#2's high water is the most words it held at the end of a cycle or after a BRISC push,
 * whoever filled it (the MOP expander notes its own pushes: fe_thread_t.fifo2_high), on the fast
 * path and the reference path alike: drawn pushes through both ways in, drawn cycles, thread 2's
 * gate now and then held for good (ATGETM(1): no mutex 1 on Blackhole), measured from outside. */
static void fifo2_high_water_as_measured(void **state) {
    (void)state;
    uint32_t x = 0x2545F491u;
    unsigned highs = 0;
    for (unsigned run_i = 0; run_i < 24; run_i++) {
        cp_t *cp = cp_new();
        cp_set_stepwise(cp, run_i % 2);
        unsigned most[CP_THREADS] = {0};
        for (unsigned step = 0; step < 600; step++) {
            xorshift32(&x);
            unsigned t = x % CP_THREADS;
            if ((x >> 8) % 3 == 0) {
                cp_cycle(cp);
            } else {
                uint32_t w = t == 2 && (x >> 12) % 64 == 0 ? TT_OP_ATGETM(1) : TT_OP_SETADC(0, 0, 0, step);
                (void)cp_push(cp, t, w, (x >> 16) % 4 == 0);
            }
            for (unsigned u = 0; u < CP_THREADS; u++) {
                cp_thread_state_t s;
                cp_thread_state(cp, u, &s);
                if (s.fifo2 > most[u]) most[u] = s.fifo2;
            }
            if ((x >> 20) % 50 == 0 || step == 599)
                for (unsigned u = 0; u < CP_THREADS; u++)
                    assert_int_equal(cp_stats(cp, u)->fifo2_high_water, most[u]);
        }
        highs += most[2] == 8;
        cp_destroy(cp);
    }
    assert_true(highs > 0 && highs < 24); /* thread 2's FIFO#2 filled in some runs, not all */
}

/* BRISC's path enters after the MOP expander, into FIFO#2 (8 words). */
static void brisc_push_after_mop(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    for (unsigned i = 0; i < 8; i++)
        assert_true(cp_push(cp, 2, TT_OP_SETADC(0, 0, 0, i), true));
    assert_false(cp_push(cp, 2, TT_OP_SETADC(0, 0, 0, 8), true));
    cp_cycle(cp); /* the replay expander takes one */
    assert_true(cp_push(cp, 2, TT_OP_SETADC(0, 0, 0, 8), true));
    assert_true(cp_push(cp, 2, TT_OP_SETADC(0, 0, 0, 100), false)); /* FIFO#1 is separate */
    run(cp, 30);
    uint32_t got[16];
    unsigned n = issued(cp, 2, got, 16);
    assert_int_equal(n, 10);
    for (unsigned i = 0; i < 9; i++)
        assert_int_equal(got[i], TT_OP_SETADC(0, 0, 0, i));
    assert_int_equal(got[9], TT_OP_SETADC(0, 0, 0, 100));
    cp_destroy(cp);
}

/* ---- MOP expander ---------------------------------------------------------------------------- */

static void mopcfg(cp_t *cp, unsigned t, const uint32_t cfg[9]) {
    for (unsigned i = 0; i < 9; i++)
        cp_mopcfg_write(cp, t, i, cfg[i]);
}

/* Template 0 with HasB and HasA123: clear mask bit → A0 A1 A2 A3 B; set → SkipA0 SkipB. */
static void mop_template0_zmask_all_flags(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    const uint32_t cfg[9] = {0, 3, B, A0, A1, A2, A3, SKA, SKB};
    mopcfg(cp, 0, cfg);
    push(cp, 0, TT_OP_MOP(0, 3, 0x5)); /* 4 iterations, mask 0101 */
    run(cp, 30);
    const uint32_t want[] = {SKA, SKB, A0, A1, A2, A3, B, SKA, SKB, A0, A1, A2, A3, B};
    expect_seq(cp, 0, want, sizeof want / sizeof want[0]);
    cp_destroy(cp);
}

/* Template 0 without flags; MaskHi from MOP_CFG; past bit 31 the mask reads 0. */
static void mop_template0_maskhi_no_flags(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    const uint32_t cfg[9] = {0, 0, B, A0, A1, A2, A3, SKA, SKB};
    mopcfg(cp, 0, cfg);
    push(cp, 0, TT_OP_MOP_CFG(0x8000));    /* mask bit 31 */
    push(cp, 0, TT_OP_MOP(0, 33, 0x0002)); /* 34 iterations, mask bit 1 */
    run(cp, 60);
    uint32_t want[34];
    for (unsigned i = 0; i < 34; i++)
        want[i] = (i == 1 || i == 31) ? SKA : A0;
    expect_seq(cp, 0, want, 34);
    cp_destroy(cp);
}

/* Template 0, HasB only. */
static void mop_template0_hasb_only(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    const uint32_t cfg[9] = {0, 1, B, A0, A1, A2, A3, SKA, SKB};
    mopcfg(cp, 0, cfg);
    push(cp, 0, TT_OP_MOP(0, 1, 0x2));
    run(cp, 20);
    const uint32_t want[] = {A0, B, SKA, SKB};
    expect_seq(cp, 0, want, 4);
    cp_destroy(cp);
}

enum {
    S = TT_OP_SETADC(0, 0, 0, 0x10),
    E0 = TT_OP_SETADC(0, 0, 0, 0x11),
    E1 = TT_OP_SETADC(0, 0, 0, 0x12),
    L0 = TT_OP_SETADC(0, 0, 0, 0x13),
    L1 = TT_OP_SETADC(0, 0, 0, 0x14),
    Z0 = TT_OP_SETADC(0, 0, 0, 0x15),
    Z1 = TT_OP_SETADC(0, 0, 0, 0x16)
};

/* Template 1: Loop/Loop1 alternation, Start/End0/End1, Loop1Last on the last inner iteration of
 * an outer iteration that is not the last, Loop0Last on the very last. */
static void mop_template1_double_loop(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    const uint32_t cfg[9] = {2, 2, S, E0, E1, L0, L1, Z0, Z1};
    mopcfg(cp, 1, cfg);
    push(cp, 1, TT_OP_MOP(1, 0, 0));
    run(cp, 30);
    const uint32_t want[] = {S, L0, L1, L0, Z1, E0, E1, S, L0, L1, L0, Z0, E0, E1};
    expect_seq(cp, 1, want, sizeof want / sizeof want[0]);
    cp_destroy(cp);
}

/* NOP skip rule: Start/End0/End1 that are NOP are not emitted, End1 is not used when End0 is a
 * NOP, Loop1 == NOP means no alternation; only opcode 0x02 counts (SFPNOP is emitted). */
static void mop_template1_nop_skip(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    const uint32_t cfg[9] = {2, 3, TT_OP_NOP, TT_OP_NOP, E1, L0, TT_OP_NOP, Z0, Z1};
    mopcfg(cp, 0, cfg);
    push(cp, 0, TT_OP_MOP(1, 0, 0));
    run(cp, 30);
    const uint32_t want[] = {L0, L0, Z1, L0, L0, Z0};
    expect_seq(cp, 0, want, 6);
    cp_destroy(cp);

    cp = cp_new();
    const uint32_t cfg2[9] = {1, 1, TT_OP_SFPNOP, E0, TT_OP_NOP | 5, L0, TT_OP_NOP, Z0, Z1};
    mopcfg(cp, 0, cfg2);
    push(cp, 0, TT_OP_MOP(1, 0, 0));
    run(cp, 30);
    const uint32_t want2[] = {TT_OP_SFPNOP, Z0, E0};
    expect_seq(cp, 0, want2, 3);
    cp_destroy(cp);
}

/* MOPExpander.md hardware bug: Outer 1, Start NOP, Inner 0 (after doubling), End0 not NOP →
 * 129 outer iterations. */
static void mop_template1_hw_bug(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    const uint32_t cfg[9] = {1, 0, TT_OP_NOP, E0, TT_OP_NOP, L0, L1, Z0, Z1};
    mopcfg(cp, 2, cfg);
    push(cp, 2, TT_OP_MOP(1, 0, 0));
    run(cp, 300);
    uint32_t want[129];
    for (unsigned i = 0; i < 129; i++)
        want[i] = E0;
    expect_seq(cp, 2, want, 129);
    cp_destroy(cp);

    /* Not triggered with a non-NOP Start: one iteration. */
    cp = cp_new();
    const uint32_t cfg2[9] = {1, 0, S, E0, TT_OP_NOP, L0, L1, Z0, Z1};
    mopcfg(cp, 2, cfg2);
    push(cp, 2, TT_OP_MOP(1, 0, 0));
    run(cp, 30);
    const uint32_t want2[] = {S, E0};
    expect_seq(cp, 2, want2, 2);
    cp_destroy(cp);
}

/* One word per cycle from the expander; one transition cycle after a MOP when the next word is
 * not a MOP; MOPExpanderDoneCheck (cp_mop_idle) and the MOP class of tt_cfg_qstatus. */
static void mop_timing_and_done_check(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    const uint32_t cfg[9] = {1, 3, TT_OP_NOP, TT_OP_NOP, TT_OP_NOP, L0, TT_OP_NOP, Z0, Z1};
    mopcfg(cp, 0, cfg);
    push(cp, 0, TT_OP_MOP(1, 0, 0)); /* L0 L0 Z0 */
    push(cp, 0, A0);
    assert_false(cp_mop_idle(cp, 0));
    assert_true(cp_qstatus(cp, 0) & (1u << 1) << 13);
    cp_cycle(cp); /* cycle 0: MOP ingested, L0 emitted */
    assert_false(cp_mop_idle(cp, 0));
    assert_true(cp_qstatus(cp, 0) & (1u << 1));
    run(cp, 20);
    assert_true(cp_mop_idle(cp, 0));
    uint64_t l = issue_cycle(cp, 0, Z0), a = issue_cycle(cp, 0, A0);
    assert_int_equal(issue_cycle(cp, 0, L0), l - 1);
    assert_int_equal(a, l + 2); /* the transition cycle */
    const uint32_t want[] = {L0, L0, Z0, A0};
    expect_seq(cp, 0, want, 4);
    cp_destroy(cp);
}

/* A MOP may emit REPLAY, which the replay expander then expands. */
static void mop_emits_replay(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_REPLAY(0, 2, 0, 1));
    push(cp, 0, A0);
    push(cp, 0, A1);
    const uint32_t cfg[9] = {2,
                             1,
                             TT_OP_NOP,
                             TT_OP_NOP,
                             TT_OP_NOP,
                             TT_OP_NOP,
                             TT_OP_NOP,
                             TT_OP_REPLAY(0, 2, 0, 0),
                             TT_OP_REPLAY(0, 2, 0, 0)};
    mopcfg(cp, 0, cfg);
    push(cp, 0, TT_OP_MOP(1, 0, 0));
    run(cp, 30);
    const uint32_t want[] = {A0, A1, A0, A1};
    expect_seq(cp, 0, want, 4);
    cp_destroy(cp);
}

/* ---- replay expander ------------------------------------------------------------------------- */

/* Load without exec: the recorded words are swallowed; a later REPLAY plays them. */
static void replay_load_without_exec(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    const uint32_t words[] = {TT_OP_REPLAY(4, 3, 0, 1), A0, A1, A2, B, TT_OP_REPLAY(4, 3, 0, 0), SKA};
    push_n(cp, 0, words, 7);
    run(cp, 30);
    const uint32_t want[] = {B, A0, A1, A2, SKA};
    expect_seq(cp, 0, want, 5);
    cp_destroy(cp);
}

/* Load with exec: recorded and executed. */
static void replay_load_with_exec(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    const uint32_t words[] = {TT_OP_REPLAY(10, 2, 1, 1), A0, A1, B, TT_OP_REPLAY(10, 2, 0, 0),
                              TT_OP_REPLAY(11, 1, 0, 0)};
    push_n(cp, 0, words, 6);
    run(cp, 30);
    const uint32_t want[] = {A0, A1, B, A0, A1, A1};
    expect_seq(cp, 0, want, 6);
    cp_destroy(cp);
}

/* Len 0 means 32. */
static void replay_len0_is_32(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 1, TT_OP_REPLAY(0, 0, 0, 1));
    for (unsigned i = 0; i < 32; i++) {
        while (!cp_push(cp, 1, TT_OP_SETADC(0, 0, 0, 0x100 + i), false))
            cp_cycle(cp);
    }
    while (!cp_push(cp, 1, B, false))
        cp_cycle(cp);
    while (!cp_push(cp, 1, TT_OP_REPLAY(0, 0, 0, 0), false))
        cp_cycle(cp);
    run(cp, 120);
    uint32_t want[33];
    want[0] = B;
    for (unsigned i = 0; i < 32; i++)
        want[1 + i] = TT_OP_SETADC(0, 0, 0, 0x100 + i);
    expect_seq(cp, 1, want, 33);
    cp_destroy(cp);
}

/* Indices wrap modulo 32. */
static void replay_wraparound(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    const uint32_t words[] = {TT_OP_REPLAY(30, 4, 0, 1), A0, A1, A2, A3, TT_OP_REPLAY(0, 2, 0, 0),
                              TT_OP_REPLAY(30, 4, 0, 0)};
    push_n(cp, 0, words, 7);
    run(cp, 30);
    const uint32_t want[] = {A2, A3, A0, A1, A2, A3};
    expect_seq(cp, 0, want, 6);
    cp_destroy(cp);
}

/* Replay emits one word per cycle and ingests nothing meanwhile. */
static void replay_timing(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    const uint32_t words[] = {TT_OP_REPLAY(0, 3, 0, 1), A0, A1, A2, TT_OP_REPLAY(0, 3, 0, 0), B};
    push_n(cp, 0, words, 6);
    run(cp, 30);
    uint64_t c = issue_cycle(cp, 0, A0);
    assert_int_equal(issue_cycle(cp, 0, A1), c + 1);
    assert_int_equal(issue_cycle(cp, 0, A2), c + 2);
    assert_int_equal(issue_cycle(cp, 0, B), c + 3);
    cp_destroy(cp);
}

/* ---- TTSync and status views ----------------------------------------------------------------- */

static void thread_idle_and_qstatus(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    for (unsigned t = 0; t < 3; t++)
        assert_true(cp_thread_idle(cp, t));
    assert_int_equal(cp_qstatus(cp, 0), 0);
    assert_int_equal(cp_bstatus(cp, -1), 0);
    push(cp, 1, TT_OP_NOP);
    push(cp, 1, TT_OP_SFPNOP);
    assert_false(cp_thread_idle(cp, 1));
    assert_true(cp_thread_idle(cp, 0));
    uint32_t q1 = cp_qstatus(cp, 1), q0 = cp_qstatus(cp, 0), qb = cp_qstatus(cp, -1);
    assert_int_equal(q1 & 0x7FF, (1u << 8) | (1u << 9)); /* Misc, SFPU */
    assert_int_equal(q0 & 0x7FF, 0);
    assert_int_equal((q0 >> 13) & 0x7FF, (1u << 8) | (1u << 9));
    assert_int_equal(qb & 0x7FF, (1u << 8) | (1u << 9));
    assert_int_equal(cp_bstatus(cp, 1) & 0x7FF, (1u << 8) | (1u << 9));
    assert_int_equal((cp_bstatus(cp, 2) >> 11) & 0x7FF, (1u << 8) | (1u << 9));
    run(cp, 10);
    assert_true(cp_thread_idle(cp, 1));
    assert_int_equal(cp_qstatus(cp, 1), 0);
    /* A latched wait keeps the thread from being idle. */
    push(cp, 2, TT_OP_STALLWAIT(1u << 8, 1u << 7));
    run(cp, 10);
    assert_false(cp_thread_idle(cp, 2));
    cp_destroy(cp);
}

/* Unknown opcodes are held forever at the gate, named in the state. */
static void undefined_opcode_held(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_WORD(0x06, 0)); /* no opcode 0x06 on Blackhole */
    run(cp, 10);
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    assert_true(s.held);
    assert_int_equal(s.hold, CP_HOLD_UNDEFINED);
    assert_int_equal(s.hold_detail, 0x06);
    assert_string_equal(cp_hold_name(s.hold), "undefined_opcode");
    cp_destroy(cp);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fifo_backpressure_at_32),
        cmocka_unit_test(push_trisc_is_push_from_before_mop),
        cmocka_unit_test(push_trisc_keeps_origin),
        cmocka_unit_test(fifo_backpressure_when_gate_blocked),
        cmocka_unit_test(fifo2_high_water_as_measured),
        cmocka_unit_test(brisc_push_after_mop),
        cmocka_unit_test(mop_template0_zmask_all_flags),
        cmocka_unit_test(mop_template0_maskhi_no_flags),
        cmocka_unit_test(mop_template0_hasb_only),
        cmocka_unit_test(mop_template1_double_loop),
        cmocka_unit_test(mop_template1_nop_skip),
        cmocka_unit_test(mop_template1_hw_bug),
        cmocka_unit_test(mop_timing_and_done_check),
        cmocka_unit_test(mop_emits_replay),
        cmocka_unit_test(replay_load_without_exec),
        cmocka_unit_test(replay_load_with_exec),
        cmocka_unit_test(replay_len0_is_32),
        cmocka_unit_test(replay_wraparound),
        cmocka_unit_test(replay_timing),
        cmocka_unit_test(thread_idle_and_qstatus),
        cmocka_unit_test(undefined_opcode_held),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
