/* test/unit/test_cp_gate.c — the Wait Gate: STALLWAIT, SEMWAIT, STREAMWAIT latching, block
 * masks, the one-cycle release lag, and in-order holding (STALLWAIT.md, SEMWAIT.md,
 * STREAMWAIT.md; TENSIX.md §3.5, §4.3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test/unit/cp_test.h"

/* STALLWAIT.md: stall_res 0 latches block mask B6; wait_res 0 latches conditions 0x0F. */
static void stallwait_default_block_is_b6(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    /* C7 (SrcA not owned by the Matrix Unit) is busy out of reset: the wait stays latched. */
    push(cp, 0, TT_OP_STALLWAIT(0, 1u << 7));
    push(cp, 0, TT_OP_SEMPOST(1));               /* Sync Unit (B1): not blocked by B6 */
    push(cp, 0, TT_OP_SFPNOP);                   /* SFPU (B8): not blocked by B6 */
    push(cp, 0, TT_OP_SETRWC(0, 0, 0, 0, 0, 0)); /* FPU (B6): blocked */
    run(cp, 20);
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    assert_true(s.wait.active);
    assert_int_equal(s.wait.block_mask, 0x40);
    assert_int_equal(s.wait.cond_mask, 0x80);
    assert_int_equal(cp_sem_read(cp, 0), 1);
    assert_true(was_issued(cp, 0, TT_OP_SFPNOP));
    assert_false(was_issued(cp, 0, TT_OP_SETRWC(0, 0, 0, 0, 0, 0)));
    assert_true(s.held);
    assert_int_equal(s.held_word, TT_OP_SETRWC(0, 0, 0, 0, 0, 0));
    assert_int_equal(s.hold, CP_HOLD_WAIT_COND);
    assert_int_equal(s.hold_detail, 7);
    assert_true(cp_stats(cp, 0)->stall_cond[7] > 0);
    cp_destroy(cp);
}

static void stallwait_default_conditions_are_0x0f(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_STALLWAIT(1u << 8, 0));
    run(cp, 3); /* cycle 2: it passes and latches */
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    assert_true(s.wait.active);
    assert_int_equal(s.wait.opcode, 0xA2);
    assert_int_equal(s.wait.cond_mask, 0x0F);
    assert_int_equal(s.wait.block_mask, 0x100);
    /* C0..C3 are all idle: the wait is forgotten one cycle later. */
    run(cp, 1);
    cp_thread_state(cp, 0, &s);
    assert_false(s.wait.active);
    cp_destroy(cp);
}

/* A new wait never overtakes a latched one (waits are blocked by every block bit); once the old
 * one is forgotten, the new one becomes the latched wait. */
static void new_wait_replaces_latched_wait_after_release(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    uint32_t first = TT_OP_SEMWAIT(1u << 1, 1u << 0, 1); /* block B1, wait while sem0 == 0 */
    uint32_t second = TT_OP_STALLWAIT(1u << 7, 1u << 7); /* C7 stays busy */
    push(cp, 0, first);
    push(cp, 0, second);
    run(cp, 10);
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    assert_true(s.held);
    assert_int_equal(s.held_word, second);
    assert_int_equal(s.hold, CP_HOLD_WAIT_SEM);
    assert_int_equal(s.wait.word, first);
    cp_sem_write(cp, 0, 0, 0); /* post sem0 */
    run(cp, 3);
    cp_thread_state(cp, 0, &s);
    assert_true(was_issued(cp, 0, second));
    assert_true(s.wait.active);
    assert_int_equal(s.wait.word, second);
    assert_int_equal(s.wait.opcode, 0xA2);
    assert_int_equal(s.wait.block_mask, 0x80);
    cp_destroy(cp);
}

/* NOP is blocked only when all nine block bits are set. */
static void nop_blocked_only_by_all_bits(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_STALLWAIT(0x1FE, 1u << 7));
    push(cp, 0, TT_OP_NOP);
    push(cp, 1, TT_OP_STALLWAIT(0x1FF, 1u << 7));
    push(cp, 1, TT_OP_NOP);
    run(cp, 20);
    assert_true(was_issued(cp, 0, TT_OP_NOP));
    assert_false(was_issued(cp, 1, TT_OP_NOP));
    cp_thread_state_t s;
    cp_thread_state(cp, 1, &s);
    assert_int_equal(s.held_word, TT_OP_NOP);
    cp_destroy(cp);
}

/* MOP, MOP_CFG, REPLAY and RESOURCEDECL never reach the gate: they are processed even while a
 * wait blocks every instruction. */
static void frontend_ops_never_gated(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    cp_mopcfg_write(cp, 0, 0, 0); /* template 1 with OuterCount 0: expands to nothing */
    push(cp, 0, TT_OP_STALLWAIT(0x1FF, 1u << 7));
    push(cp, 0, TT_OP_MOP_CFG(0x1234));
    push(cp, 0, TT_OP_MOP(1, 0, 0));
    push(cp, 0, TT_OP_REPLAY(0, 1, 0, 1)); /* record the next word, don't execute it */
    push(cp, 0, TT_OP_SFPNOP);
    push(cp, 0, TT_OP_RESOURCEDECL(0, 0, 0));
    run(cp, 30);
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    assert_int_equal(s.fifo1, 0);
    assert_int_equal(s.fifo2, 0);
    assert_int_equal(s.fifo3, 0);
    assert_false(s.mop_busy);
    assert_false(s.replay_busy);
    assert_false(s.held);
    assert_true(s.wait.active);
    assert_int_equal(cp_stats(cp, 0)->issued, 1);
    assert_int_equal(cp_stats(cp, 0)->consumed, 1); /* RESOURCEDECL */
    cp_destroy(cp);
}

/* STALLWAIT, SEMWAIT and STREAMWAIT are blocked by any block bit of a latched wait. */
static void waits_blocked_by_any_bit(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    /* Each thread latches a wait that blocks only SFPU work (B8) and never releases. */
    push(cp, 0, TT_OP_SEMWAIT(1u << 8, 1u << 0, 1));
    push(cp, 1, TT_OP_SEMWAIT(1u << 8, 1u << 1, 1));
    push(cp, 2, TT_OP_STALLWAIT(1u << 8, 1u << 7));
    for (unsigned t = 0; t < 3; t++)
        push(cp, t, TT_OP_NOP); /* not blocked */
    push(cp, 0, TT_OP_STALLWAIT(1u << 6, 0x0F));
    push(cp, 1, TT_OP_SEMWAIT(1u << 6, 1u << 2, 2));
    push(cp, 2, TT_OP_STREAMWAIT(1u << 6, 0, 0, 0));
    run(cp, 20);
    for (unsigned t = 0; t < 3; t++) {
        cp_thread_state_t s;
        cp_thread_state(cp, t, &s);
        assert_true(was_issued(cp, t, TT_OP_NOP));
        assert_true(s.held);
        assert_int_equal(cp_stats(cp, t)->issued, 2);
        /* held by the first, never-released wait: SEMWAIT on T0 and T1, STALLWAIT (C7) on T2 */
        assert_int_equal(s.hold, t < 2 ? CP_HOLD_WAIT_SEM : CP_HOLD_WAIT_COND);
    }
    cp_destroy(cp);
}

/* The block mask lifts one cycle after the conditions are met. */
static void release_lag_one_cycle(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    uint32_t wait = TT_OP_SEMWAIT(1u << 8, 1u << 0, 1);
    push(cp, 0, wait);
    push(cp, 0, TT_OP_SFPNOP);
    run_until_held(cp, 0, 10);
    run(cp, 5);
    assert_false(was_issued(cp, 0, TT_OP_SFPNOP));
    uint64_t c = cp_cycles(cp);
    cp_sem_write(cp, 0, 0, 0); /* condition met from cycle c on */
    cp_cycle(cp);              /* cycle c: met, but the block mask still applies */
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    assert_false(was_issued(cp, 0, TT_OP_SFPNOP));
    assert_true(s.held);
    assert_int_equal(s.hold, CP_HOLD_WAIT_LAG);
    assert_false(s.wait.active);
    cp_cycle(cp); /* cycle c+1: passes */
    assert_int_equal(issue_cycle(cp, 0, TT_OP_SFPNOP), c + 1);
    assert_int_equal(cp_stats(cp, 0)->stall_lag, 1);
    cp_destroy(cp);
}

/* Even a wait satisfied at once holds the next blocked instruction for one cycle. */
static void release_lag_when_met_immediately(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    cp_sem_write(cp, 0, 1, 0); /* sem1 = 1 */
    uint32_t wait = TT_OP_SEMWAIT(1u << 8, 1u << 1, 1);
    push(cp, 0, wait);
    push(cp, 0, TT_OP_SFPNOP);
    push(cp, 1, TT_OP_NOP);
    push(cp, 1, TT_OP_SFPNOP);
    run(cp, 10);
    assert_int_equal(issue_cycle(cp, 0, TT_OP_SFPNOP), issue_cycle(cp, 0, wait) + 2);
    assert_int_equal(issue_cycle(cp, 1, TT_OP_SFPNOP), issue_cycle(cp, 1, TT_OP_NOP) + 1);
    cp_destroy(cp);
}

/* Once an instruction is held, nothing behind it in that thread passes, blocked or not. */
static void nothing_passes_behind_held(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_SEMWAIT(1u << 8, 1u << 0, 1));
    push(cp, 0, TT_OP_SFPNOP);     /* blocked */
    push(cp, 0, TT_OP_NOP);        /* would pass */
    push(cp, 0, TT_OP_SEMPOST(2)); /* would pass */
    run(cp, 30);
    assert_int_equal(cp_stats(cp, 0)->issued, 1);
    assert_int_equal(cp_sem_read(cp, 1), 0);
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    assert_int_equal(s.held_word, TT_OP_SFPNOP);
    assert_int_equal(s.fifo3 + s.fifo2, 3);
    assert_int_equal(cp_stats(cp, 0)->stall_sem[0], cp_stats(cp, 0)->stall_total);
    /* Another thread is not affected. */
    push(cp, 1, TT_OP_SEMPOST(2));
    run(cp, 5);
    assert_int_equal(cp_sem_read(cp, 1), 1);
    cp_destroy(cp);
}

/* SEMWAIT.md C0 (STALL_ON_ZERO): wait while a selected Value == 0. */
static void semwait_stall_on_zero(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_SEMWAIT(1u << 8, 1u << 4, 1));
    push(cp, 0, TT_OP_SFPNOP);
    run(cp, 10);
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    assert_int_equal(s.hold, CP_HOLD_WAIT_SEM);
    assert_int_equal(s.hold_detail, 4);
    assert_int_equal(s.wait.sem_mask, 1u << 4);
    assert_int_equal(s.wait.cond_mask, 1);
    push(cp, 1, TT_OP_SEMPOST(1u << 4)); /* another thread posts */
    run(cp, 10);
    assert_true(was_issued(cp, 0, TT_OP_SFPNOP));
    assert_int_equal(cp_sem_read(cp, 4), 1); /* SEMWAIT does not consume */
    cp_destroy(cp);
}

/* SEMWAIT.md C1 (STALL_ON_MAX): wait while a selected Value >= Max. */
static void semwait_stall_on_max(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_SEMINIT(2, 2, 1u << 3));
    push(cp, 0, TT_OP_SEMWAIT(1u << 8, 1u << 3, 2));
    push(cp, 0, TT_OP_SFPNOP);
    run(cp, 10);
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    assert_int_equal(s.hold, CP_HOLD_WAIT_SEM);
    assert_int_equal(s.hold_detail, 3);
    cp_sem_write(cp, 0, 3, 1); /* get: 2 -> 1 < Max */
    run(cp, 3);
    assert_true(was_issued(cp, 0, TT_OP_SFPNOP));
    cp_destroy(cp);
}

/* Several semaphores: keep waiting while any selected one fails its condition. */
static void semwait_multi_semaphore_mask(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    cp_sem_write(cp, 0, 0, 0); /* sem0 = 1, sem1 = 0 */
    push(cp, 0, TT_OP_SEMWAIT(1u << 8, 0x3, 1));
    push(cp, 0, TT_OP_SFPNOP);
    run(cp, 10);
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    assert_int_equal(s.hold, CP_HOLD_WAIT_SEM);
    assert_int_equal(s.hold_mask, 0x2);
    assert_int_equal(s.hold_detail, 1);
    cp_sem_write(cp, 0, 1, 0); /* sem1 = 1: both non-zero */
    run(cp, 3);
    assert_true(was_issued(cp, 0, TT_OP_SFPNOP));
    cp_destroy(cp);
}

/* SEMWAIT with condition mask 0 latches as STALLWAIT with conditions 0x0F (TENSIX.md §4.3). */
static void semwait_cond_zero_is_stallwait(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_SEMWAIT(1u << 8, 0x1, 0));
    run(cp, 3);
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    assert_true(s.wait.active);
    assert_int_equal(s.wait.opcode, 0xA2);
    assert_int_equal(s.wait.cond_mask, 0x0F);
    assert_int_equal(s.wait.sem_mask, 0);
    cp_destroy(cp);
}

/* STREAMWAIT.md: wait while the overlay stream's CURR_PHASE < target (stream from
 * ThreadConfig STREAM_ID_SYNC_SEC[sel], 0 out of reset; register index 29). */
static void streamwait_on_stream_phase(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_STREAMWAIT(1u << 8, 5, 0, 0));
    push(cp, 0, TT_OP_SFPNOP);
    run(cp, 10);
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    assert_int_equal(s.wait.opcode, 0xA7);
    assert_int_equal(s.wait.target, 5);
    assert_int_equal(s.hold, CP_HOLD_WAIT_STREAM);
    g_fake.stream[0][29] = 4;
    run(cp, 5);
    assert_false(was_issued(cp, 0, TT_OP_SFPNOP));
    g_fake.stream[0][29] = 5;
    run(cp, 3);
    assert_true(was_issued(cp, 0, TT_OP_SFPNOP));
    /* C1: NUM_MSGS_RECEIVED (index 259). */
    push(cp, 0, TT_OP_STREAMWAIT(1u << 8, 2, 1, 0));
    push(cp, 0, TT_OP_SFPNOP | 1);
    run(cp, 10);
    assert_false(was_issued(cp, 0, TT_OP_SFPNOP | 1));
    g_fake.stream[0][259] = 2;
    run(cp, 3);
    assert_true(was_issued(cp, 0, TT_OP_SFPNOP | 1));
    /* The hold's detail is the stream (ThreadConfig STREAM_ID_SYNC_SEC0, index 59, set to 3). */
    push(cp, 0, TT_OP_SETC16(59, 3));
    push(cp, 0, TT_OP_STREAMWAIT(1u << 8, 7, 0, 0));
    push(cp, 0, TT_OP_SFPNOP | 2);
    run(cp, 10);
    cp_thread_state(cp, 0, &s);
    assert_int_equal(s.hold, CP_HOLD_WAIT_STREAM);
    assert_int_equal(s.hold_detail, 3);
    assert_false(was_issued(cp, 0, TT_OP_SFPNOP | 2));
    g_fake.stream[3][29] = 7;
    run(cp, 3);
    assert_true(was_issued(cp, 0, TT_OP_SFPNOP | 2));
    cp_destroy(cp);
}

/* A STALLWAIT condition from the backend: C7 releases once SETDVALID hands SrcA over. */
static void stallwait_backend_condition_release(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_STALLWAIT(1u << 8, 1u << 7));
    push(cp, 0, TT_OP_SFPNOP);
    run(cp, 10);
    assert_false(was_issued(cp, 0, TT_OP_SFPNOP));
    push(cp, 1, TT_OP_SETDVALID(1));
    run(cp, 6);
    assert_true(was_issued(cp, 0, TT_OP_SFPNOP));
    cp_destroy(cp);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stallwait_default_block_is_b6),
        cmocka_unit_test(stallwait_default_conditions_are_0x0f),
        cmocka_unit_test(new_wait_replaces_latched_wait_after_release),
        cmocka_unit_test(nop_blocked_only_by_all_bits),
        cmocka_unit_test(frontend_ops_never_gated),
        cmocka_unit_test(waits_blocked_by_any_bit),
        cmocka_unit_test(release_lag_one_cycle),
        cmocka_unit_test(release_lag_when_met_immediately),
        cmocka_unit_test(nothing_passes_behind_held),
        cmocka_unit_test(semwait_stall_on_zero),
        cmocka_unit_test(semwait_stall_on_max),
        cmocka_unit_test(semwait_multi_semaphore_mask),
        cmocka_unit_test(semwait_cond_zero_is_stallwait),
        cmocka_unit_test(streamwait_on_stream_phase),
        cmocka_unit_test(stallwait_backend_condition_release),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
