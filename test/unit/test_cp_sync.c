/* test/unit/test_cp_sync.c — the Sync Unit: SEMINIT/SEMPOST/SEMGET, the RISC-V semaphore
 * window, ATGETM/ATRELM and the Sync Unit's throughput limits (SyncUnit.md, SEMINIT.md,
 * SEMPOST.md, SEMGET.md, ATGETM.md, ATRELM.md; TENSIX.md §4). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "app/report.h"
#include "test/unit/cp_test.h"

/* SEMINIT.md: Value and Max of every selected semaphore; the others untouched. */
static void seminit_sets_selected(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_SEMINIT(5, 3, 0x05)); /* sems 0 and 2 */
    run(cp, 5);
    assert_int_equal(cp_sem_read(cp, 0), 3);
    assert_int_equal(cp_sem_max(cp, 0), 5);
    assert_int_equal(cp_sem_read(cp, 2), 3);
    assert_int_equal(cp_sem_max(cp, 2), 5);
    assert_int_equal(cp_sem_read(cp, 1), 0);
    assert_int_equal(cp_sem_max(cp, 1), 0);
    cp_destroy(cp);
}

/* SEMPOST.md: saturates at 15, not at Max. */
static void sempost_saturates_at_15_not_max(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_SEMINIT(2, 1, 0x01));
    for (unsigned i = 0; i < 20; i++)
        push(cp, 0, TT_OP_SEMPOST(0x01));
    run(cp, 40);
    assert_int_equal(cp_sem_read(cp, 0), 15);
    assert_int_equal(cp_sem_max(cp, 0), 2);
    cp_destroy(cp);
}

/* SEMGET.md: floors at 0. */
static void semget_floors_at_0(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_SEMINIT(4, 2, 0x01));
    for (unsigned i = 0; i < 5; i++)
        push(cp, 0, TT_OP_SEMGET(0x01));
    run(cp, 20);
    assert_int_equal(cp_sem_read(cp, 0), 0);
    assert_int_equal(cp_sem_max(cp, 0), 4);
    cp_destroy(cp);
}

/* SEMPOST/SEMGET act on every selected semaphore. */
static void sempost_semget_multi_mask(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_SEMINIT(15, 14, 0xFF));
    push(cp, 0, TT_OP_SEMPOST(0xF0));
    push(cp, 0, TT_OP_SEMPOST(0xC0));
    push(cp, 0, TT_OP_SEMGET(0x03));
    run(cp, 10);
    for (unsigned i = 0; i < 8; i++) {
        unsigned want = i < 2 ? 13 : i < 4 ? 14 : 15;
        assert_int_equal(cp_sem_read(cp, i), want);
    }
    cp_destroy(cp);
}

/* SyncUnit.md: window store bit0 = 0 posts (saturating at 15, Max untouched), bit0 = 1 gets
 * (floor 0); load returns Value. */
static void window_post_get(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_SEMINIT(3, 2, 1u << 6));
    run(cp, 5);
    cp_sem_write(cp, 1, 6, 0x100); /* bit0 clear: post */
    assert_int_equal(cp_sem_read(cp, 6), 3);
    for (unsigned i = 0; i < 20; i++)
        cp_sem_write(cp, 1, 6, 2);
    assert_int_equal(cp_sem_read(cp, 6), 15);
    assert_int_equal(cp_sem_max(cp, 6), 3);
    cp_sem_write(cp, 2, 6, 0xFFFFFFFFu); /* bit0 set: get */
    assert_int_equal(cp_sem_read(cp, 6), 14);
    for (unsigned i = 0; i < 20; i++)
        cp_sem_write(cp, 2, 6, 1);
    assert_int_equal(cp_sem_read(cp, 6), 0);
    assert_int_equal(cp_sem_max(cp, 6), 3);
    assert_int_equal(cp_stats(cp, 1)->sem_writes, 21);
    cp_destroy(cp);
}

/* ATGETM.md / ATRELM.md: index 1 or > 4 waits forever, and the report names it. */
static void invalid_mutex_waits_forever(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_ATGETM(1));
    push(cp, 1, TT_OP_ATGETM(5));
    push(cp, 2, TT_OP_ATRELM(7));
    run(cp, 200);
    const unsigned want[3] = {1, 5, 7};
    for (unsigned t = 0; t < 3; t++) {
        cp_thread_state_t s;
        cp_thread_state(cp, t, &s);
        assert_true(s.held);
        assert_int_equal(s.hold, CP_HOLD_MUTEX_INVALID);
        assert_int_equal(s.hold_detail, want[t]);
        assert_int_equal(cp_stats(cp, t)->issued, 0);
        assert_false(cp_thread_idle(cp, t));
    }
    cJSON *obj = cJSON_CreateObject();
    report_coproc(cp, obj);
    cJSON *th = cJSON_GetArrayItem(cJSON_GetObjectItem(obj, "threads"), 1);
    cJSON *held = cJSON_GetObjectItem(th, "held");
    assert_string_equal(cJSON_GetObjectItem(held, "cause")->valuestring, "mutex_invalid");
    assert_non_null(strstr(cJSON_GetObjectItem(held, "why")->valuestring, "invalid mutex index 5"));
    cJSON_Delete(obj);
    cp_destroy(cp);
}

/* ATGETM.md: the holder may acquire again. */
static void owner_reacquires(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_ATGETM(3));
    push(cp, 0, TT_OP_ATGETM(3));
    push(cp, 0, TT_OP_NOP);
    run(cp, 10);
    assert_int_equal(cp_stats(cp, 0)->issued, 3);
    assert_int_equal(cp_mutex_holder(cp, 3), 0);
    cp_destroy(cp);
}

/* ATRELM.md: a release by a thread that does not hold the mutex has no effect. */
static void release_by_non_owner_no_effect(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_ATGETM(4));
    run(cp, 5);
    push(cp, 1, TT_OP_ATRELM(4));
    push(cp, 1, TT_OP_NOP);
    run(cp, 5);
    assert_true(was_issued(cp, 1, TT_OP_ATRELM(4)));
    assert_int_equal(cp_mutex_holder(cp, 4), 0);
    /* ... and another thread still cannot take it. */
    push(cp, 2, TT_OP_ATGETM(4));
    run(cp, 5);
    cp_thread_state_t s;
    cp_thread_state(cp, 2, &s);
    assert_int_equal(s.hold, CP_HOLD_MUTEX);
    assert_int_equal(s.hold_detail, 4);
    assert_true(cp_stats(cp, 2)->stall_mutex[4] > 0);
    push(cp, 0, TT_OP_ATRELM(4));
    run(cp, 5);
    assert_int_equal(cp_mutex_holder(cp, 4), 2);
    cp_destroy(cp);
}

/* ATGETM waits at the gate while another thread holds the mutex; it is free again after the
 * holder's ATRELM. */
static void atgetm_waits_for_holder(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    assert_int_equal(cp_mutex_holder(cp, 0), -1);
    push(cp, 0, TT_OP_ATGETM(0));
    run(cp, 5);
    push(cp, 1, TT_OP_ATGETM(0));
    push(cp, 1, TT_OP_NOP);
    run(cp, 20);
    assert_false(was_issued(cp, 1, TT_OP_NOP));
    push(cp, 0, TT_OP_ATRELM(0));
    run(cp, 6);
    assert_true(was_issued(cp, 1, TT_OP_NOP));
    assert_int_equal(cp_mutex_holder(cp, 0), 1);
    cp_destroy(cp);
}

/* ATRELM.md fairness: when thread i releases and both others wait, (i+1) % 3 gets it — also
 * when that thread comes later in the per-cycle order than the other waiter. */
static void mutex_handover_order(void **state) {
    (void)state;
    for (unsigned first = 0; first < 3; first++) {
        cp_t *cp = cp_new();
        unsigned a = (first + 1) % 3, b = (first + 2) % 3;
        push(cp, first, TT_OP_ATGETM(2));
        run(cp, 5);
        push(cp, a, TT_OP_ATGETM(2));
        push(cp, b, TT_OP_ATGETM(2));
        run(cp, 10);
        assert_int_equal(cp_mutex_holder(cp, 2), (int)first);
        push(cp, first, TT_OP_ATRELM(2));
        run(cp, 6);
        assert_int_equal(cp_mutex_holder(cp, 2), (int)a);
        cp_thread_state_t s;
        cp_thread_state(cp, b, &s);
        assert_int_equal(s.hold, CP_HOLD_MUTEX);
        /* a releases; only b waits now: b gets it. */
        push(cp, a, TT_OP_ATRELM(2));
        run(cp, 6);
        assert_int_equal(cp_mutex_holder(cp, 2), (int)b);
        cp_destroy(cp);
    }
}

/* ScalarUnit.md: nothing of a thread passes while its ThCon instruction executes, the Sync Unit's
 * instructions neither: a SEMPOST, a SEMGET and an ATGETM behind ADDDMAREG issue as late as a
 * SETADC behind it does, both on the gate's first try (nothing held before) and on its later
 * ones (the head held by the freeze). */
static void sync_frozen_by_thcon(void **state) {
    (void)state;
    static const uint32_t behind[] = {TT_OP_SEMPOST(0x01), TT_OP_SEMGET(0x01), TT_OP_ATGETM(0)};
    cp_t *ref = cp_new();
    push(ref, 0, TT_OP_ADDDMAREG(0, 9, 5, 1));
    push(ref, 0, TT_OP_SETADC(0, 0, 0, 1));
    run(ref, 20);
    uint64_t frozen = issue_cycle(ref, 0, TT_OP_SETADC(0, 0, 0, 1)) - issue_cycle(ref, 0, TT_OP_ADDDMAREG(0, 9, 5, 1));
    assert_true(frozen > 2); /* (held more than once) */
    for (unsigned i = 0; i < sizeof behind / sizeof behind[0]; i++) {
        cp_t *cp = cp_new();
        push(cp, 0, TT_OP_ADDDMAREG(0, 9, 5, 1));
        push(cp, 0, behind[i]);
        run(cp, 20);
        assert_int_equal(issue_cycle(cp, 0, behind[i]) - issue_cycle(cp, 0, TT_OP_ADDDMAREG(0, 9, 5, 1)), frozen);
        cp_destroy(cp);
    }
    cp_destroy(ref);
}

/* SyncUnit.md: SEMINIT/SEMPOST/SEMGET and the waits share one slot per cycle, RISC-V semaphore writes included. */
static void sem_slot_one_per_cycle(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_SEMPOST(1));
    push(cp, 1, TT_OP_SEMPOST(2));
    push(cp, 2, TT_OP_SEMPOST(4));
    run(cp, 10);
    uint64_t c0 = issue_cycle(cp, 0, TT_OP_SEMPOST(1));
    uint64_t c1 = issue_cycle(cp, 1, TT_OP_SEMPOST(2));
    uint64_t c2 = issue_cycle(cp, 2, TT_OP_SEMPOST(4));
    assert_int_equal(c1, c0 + 1);
    assert_int_equal(c2, c0 + 2);
    assert_int_equal(cp_stats(cp, 1)->stall_sync_slot, 1);
    /* A RISC-V semaphore write in the cycle takes the slot first. */
    push(cp, 0, TT_OP_SEMPOST(8));
    run(cp, 2); /* the word reaches the gate in the next cycle */
    uint64_t c = cp_cycles(cp);
    cp_sem_write(cp, 0, 5, 0);
    cp_cycle(cp);
    assert_false(was_issued(cp, 0, TT_OP_SEMPOST(8)));
    cp_cycle(cp);
    assert_int_equal(issue_cycle(cp, 0, TT_OP_SEMPOST(8)), c + 1);
    /* ATGETM/ATRELM on different mutexes go together. */
    push(cp, 0, TT_OP_ATGETM(0));
    push(cp, 1, TT_OP_ATGETM(2));
    push(cp, 2, TT_OP_ATGETM(3));
    run(cp, 5);
    uint64_t m0 = issue_cycle(cp, 0, TT_OP_ATGETM(0));
    assert_int_equal(issue_cycle(cp, 1, TT_OP_ATGETM(2)), m0);
    assert_int_equal(issue_cycle(cp, 2, TT_OP_ATGETM(3)), m0);
    cp_destroy(cp);
}

static void report_and_summary(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 0, TT_OP_SEMINIT(7, 3, 1u << 5));
    push(cp, 0, TT_OP_ATGETM(2));
    push(cp, 1, TT_OP_SEMWAIT(1u << 8, 1u << 0, 1));
    push(cp, 1, TT_OP_SFPNOP);
    run(cp, 10);
    cJSON *obj = cJSON_CreateObject();
    report_coproc(cp, obj);
    cJSON *sems = cJSON_GetObjectItem(obj, "semaphores");
    assert_int_equal(cJSON_GetArraySize(sems), 8);
    cJSON *s5 = cJSON_GetArrayItem(sems, 5);
    assert_int_equal(cJSON_GetObjectItem(s5, "value")->valueint, 3);
    assert_int_equal(cJSON_GetObjectItem(s5, "max")->valueint, 7);
    cJSON *mx = cJSON_GetObjectItem(obj, "mutexes");
    assert_int_equal(cJSON_GetObjectItem(mx, "2")->valueint, 0);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(mx, "0")));
    assert_null(cJSON_GetObjectItem(mx, "1"));
    cJSON *t1 = cJSON_GetArrayItem(cJSON_GetObjectItem(obj, "threads"), 1);
    assert_int_equal(cJSON_GetObjectItem(t1, "pushed")->valueint, 2);
    assert_int_equal(cJSON_GetObjectItem(t1, "issued")->valueint, 1);
    cJSON *lw = cJSON_GetObjectItem(t1, "latched_wait");
    assert_string_equal(cJSON_GetObjectItem(lw, "opcode")->valuestring, "SEMWAIT");
    cJSON *stalls = cJSON_GetObjectItem(t1, "stalls");
    assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(stalls, "sem"), "0")->valueint > 0);
    cJSON_Delete(obj);

    char buf[1024] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    report_coproc_summary(cp, f);
    fclose(f);
    assert_non_null(strstr(buf, "tensix T1"));
    assert_non_null(strstr(buf, "2:T0"));
    cp_destroy(cp);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seminit_sets_selected),   cmocka_unit_test(sempost_saturates_at_15_not_max),
        cmocka_unit_test(semget_floors_at_0),      cmocka_unit_test(sempost_semget_multi_mask),
        cmocka_unit_test(window_post_get),         cmocka_unit_test(invalid_mutex_waits_forever),
        cmocka_unit_test(owner_reacquires),        cmocka_unit_test(release_by_non_owner_no_effect),
        cmocka_unit_test(atgetm_waits_for_holder), cmocka_unit_test(mutex_handover_order),
        cmocka_unit_test(sem_slot_one_per_cycle),  cmocka_unit_test(sync_frozen_by_thcon),
        cmocka_unit_test(report_and_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
