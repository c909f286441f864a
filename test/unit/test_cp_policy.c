/* test/unit/test_cp_policy.c — the gate policies (docs/gate-policies.md) and the statistics that
 * compare them: stall cycles by cause, each wait instruction's held cycles, the last issue.
 *
 * Cycle arithmetic used below (docs/coprocessor.md): words pushed before run() reach the gate from
 * cycle 2, one a cycle; a wait that passes at cycle N latches at N and is first evaluated at N+1;
 * the cycle its conditions are found met still holds (the release lag), the next one passes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test/unit/cp_test.h"

#define SETRWC0 TT_OP_SETRWC(0, 0, 0, 0, 0, 0)

/* The same words under both policies: STALLWAIT(block B6, C7) with C7 busy out of reset (SrcA not
 * owned by the Matrix Unit), then a SEMPOST (B1), an SFPNOP (B8), a NOP and an FPU SETRWC (B6).
 * Exact: only SETRWC is held. Whole-thread: the SEMPOST, and everything behind it, is. */
static void whole_thread_holds_every_class(void **state) {
    (void)state;
    const uint32_t w[] = {TT_OP_STALLWAIT(0, 1u << 7), TT_OP_SEMPOST(1), TT_OP_SFPNOP, TT_OP_NOP, SETRWC0};
    for (int p = CP_GATE_EXACT; p <= CP_GATE_WHOLE_THREAD; p++) {
        cp_t *cp = cp_new();
        assert_int_equal(cp_gate_policy(cp), CP_GATE_EXACT); /* the default */
        cp_set_gate_policy(cp, (cp_gate_policy_t)p);
        push_n(cp, 0, w, 5);
        run(cp, 20);
        cp_thread_state_t s;
        cp_thread_state(cp, 0, &s);
        assert_true(s.wait.active);
        assert_int_equal(s.wait.block_mask, 0x40); /* what the word says, under either policy */
        assert_true(s.held);
        if (p == CP_GATE_EXACT) {
            assert_int_equal(s.wait.gate_mask, 0x40);
            assert_int_equal(cp_sem_read(cp, 0), 1);
            assert_true(was_issued(cp, 0, TT_OP_SFPNOP));
            assert_true(was_issued(cp, 0, TT_OP_NOP));
            assert_int_equal(s.held_word, SETRWC0);
        } else {
            assert_int_equal(s.wait.gate_mask, 0x1FF);
            assert_int_equal(cp_sem_read(cp, 0), 0);
            assert_false(was_issued(cp, 0, TT_OP_SFPNOP));
            assert_false(was_issued(cp, 0, TT_OP_NOP));
            assert_int_equal(s.held_word, TT_OP_SEMPOST(1));
        }
        assert_int_equal(s.hold, CP_HOLD_WAIT_COND);
        cp_destroy(cp);
    }
}

/* The policy is the model's setting: a reset keeps it, and waits latched after it use it. Names
 * round-trip; anything else is refused. */
static void policy_survives_reset_and_parses(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    cp_set_gate_policy(cp, CP_GATE_WHOLE_THREAD);
    cp_reset(cp);
    assert_int_equal(cp_gate_policy(cp), CP_GATE_WHOLE_THREAD);
    push(cp, 1, TT_OP_STALLWAIT(1u << 2, 1u << 7));
    run(cp, 4);
    cp_thread_state_t s;
    cp_thread_state(cp, 1, &s);
    assert_int_equal(s.wait.gate_mask, 0x1FF);
    cp_set_gate_policy(cp, (cp_gate_policy_t)7); /* not a policy: ignored */
    assert_int_equal(cp_gate_policy(cp), CP_GATE_WHOLE_THREAD);
    assert_int_equal(cp_gate_policy_parse("exact"), CP_GATE_EXACT);
    assert_int_equal(cp_gate_policy_parse("whole-thread"), CP_GATE_WHOLE_THREAD);
    assert_int_equal(cp_gate_policy_parse("whole_thread"), -1);
    assert_int_equal(cp_gate_policy_parse(""), -1);
    assert_int_equal(cp_gate_policy_parse(NULL), -1);
    assert_string_equal(cp_gate_policy_name(CP_GATE_WHOLE_THREAD), "whole-thread");
    assert_string_equal(cp_gate_policy_name(CP_GATE_EXACT), "exact");
    cp_destroy(cp);
}

/* A SEMWAIT (block B1, semaphore 0 == 0) passes at cycle 2; the STALLWAIT behind it reaches the
 * gate at 3 and is held on the semaphore through cycle 9 (7 cycles: run(10) ran cycles 0..9). The
 * post lands before cycle 10, which finds the wait met and still holds (the lag: 1 cycle); the
 * STALLWAIT passes at 11. So the SEMWAIT's site: latched once, held 8 cycles; the causes 7 + 1. */
static void wait_site_counts_held_cycles(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    uint32_t first = TT_OP_SEMWAIT(1u << 1, 1u << 0, 1), second = TT_OP_STALLWAIT(1u << 1, 1u << 2);
    push(cp, 0, first);
    push(cp, 0, second);
    run(cp, 10);
    cp_sem_write(cp, 0, 0, 0);
    run(cp, 10);
    const cp_stats_t *st = cp_stats(cp, 0);
    assert_int_equal(issue_cycle(cp, 0, first), 2);
    assert_int_equal(issue_cycle(cp, 0, second), 11);
    assert_int_equal(st->nwaits, 2);
    assert_int_equal(st->waits[0].word, first);
    assert_int_equal(st->waits[0].latched, 1);
    assert_int_equal(st->waits[0].held_cycles, 8);
    assert_int_equal(st->waits[1].word, second);
    assert_int_equal(st->waits[1].latched, 1);
    assert_int_equal(st->waits[1].held_cycles, 0); /* nothing behind it */
    assert_int_equal(st->stall_cause[CP_HOLD_WAIT_SEM], 7);
    assert_int_equal(st->stall_cause[CP_HOLD_WAIT_LAG], 1);
    assert_int_equal(st->stall_total, 8);
    assert_int_equal(st->last_issue_cycle, 11);
    cp_destroy(cp);
}

/* Sites are told apart by where the word was pushed; past CP_WAIT_SITES they are summed. Each
 * SEMWAIT (block B1, wait while semaphore 0 == 0, which was posted: never) latches once. */
static void wait_sites_by_origin_and_overflow(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    uint32_t w = TT_OP_SEMWAIT(1u << 1, 1u << 0, 1);
    cp_sem_write(cp, 2, 0, 0);
    for (unsigned i = 0; i < CP_WAIT_SITES + 3; i++) {
        assert_true(cp_push_from(cp, 2, w, false, (cp_origin_t){.pc = 0x1000 + 4 * i, .core = 4}));
        run(cp, 4); /* one latch at a time, each released before the next arrives */
    }
    assert_true(cp_push_from(cp, 2, w, false, (cp_origin_t){.pc = 0x1000, .core = 4})); /* the first again */
    run(cp, 4);
    const cp_stats_t *st = cp_stats(cp, 2);
    assert_int_equal(st->nwaits, CP_WAIT_SITES);
    assert_int_equal(st->waits[0].latched, 2);
    assert_int_equal(st->waits[1].latched, 1);
    assert_int_equal(st->waits[1].origin.pc, 0x1004);
    assert_int_equal(st->waits[CP_WAIT_SITES - 1].origin.pc, 0x1000 + 4 * (CP_WAIT_SITES - 1));
    assert_int_equal(st->waits_other.latched, 3);
    cp_destroy(cp);
}

/* The search for a wait's site starts after the last one found and goes round (sync.c
 * wait_site): sites met again in any order, the same one twice, the next, an earlier one, one
 * before the start (the search wraps), each still counted on its own entry, none twice. */
static void wait_sites_met_in_any_order(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    uint32_t w = TT_OP_SEMWAIT(1u << 1, 1u << 0, 1);
    cp_sem_write(cp, 1, 0, 0);
    static const unsigned order[] = {0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 4, 2, 0, 3, 1, 1, 4, 0, 2, 2, 3, 0, 4, 1};
    unsigned latched[5] = {0}, sites = 0;
    for (unsigned k = 0; k < sizeof order / sizeof order[0]; k++) {
        unsigned i = order[k];
        assert_true(cp_push_from(cp, 1, w, false, (cp_origin_t){.pc = 0x2000 + 4 * i, .core = 3}));
        run(cp, 4);
        latched[i]++;
        if (i >= sites) sites = i + 1;
        const cp_stats_t *st = cp_stats(cp, 1);
        assert_int_equal(st->nwaits, sites);
        for (unsigned j = 0; j < sites; j++) {
            assert_int_equal(st->waits[j].origin.pc, 0x2000 + 4 * j); /* in the order first met */
            assert_int_equal(st->waits[j].latched, latched[j]);
        }
    }
    assert_int_equal(cp_stats(cp, 1)->waits_other.latched, 0);
    cp_destroy(cp);
}

/* Every stalled cycle has exactly one cause: stall_cause adds up to stall_total, here with a
 * mutex hold (T1 waits for mutex 0 that T0 holds) next to a wait hold. */
static void causes_partition_the_stalls(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_ATGETM(0));
    run(cp, 3);
    push(cp, 1, TT_OP_ATGETM(0));
    push(cp, 2, TT_OP_STALLWAIT(1u << 6, 1u << 7));
    push(cp, 2, SETRWC0);
    run(cp, 30);
    for (unsigned t = 0; t < 3; t++) {
        const cp_stats_t *st = cp_stats(cp, t);
        uint64_t sum = 0;
        for (unsigned h = 0; h < CP_HOLD_COUNT; h++)
            sum += st->stall_cause[h];
        assert_int_equal(sum, st->stall_total);
    }
    assert_true(cp_stats(cp, 1)->stall_cause[CP_HOLD_MUTEX] > 0);
    assert_true(cp_stats(cp, 2)->stall_cause[CP_HOLD_WAIT_COND] > 0);
    assert_int_equal(cp_stats(cp, 0)->stall_total, 0);
    cp_destroy(cp);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(whole_thread_holds_every_class), cmocka_unit_test(policy_survives_reset_and_parses),
        cmocka_unit_test(wait_site_counts_held_cycles),   cmocka_unit_test(wait_sites_by_origin_and_overflow),
        cmocka_unit_test(wait_sites_met_in_any_order),    cmocka_unit_test(causes_partition_the_stalls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
