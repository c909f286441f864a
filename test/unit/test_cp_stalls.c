/* test/unit/test_cp_stalls.c — stall statistics: each stall of a thread's gate (an instruction
 * held for consecutive cycles), the longest three kept with start cycle, cause and the pushing
 * core's pc (cp_longest_stalls); words queued behind the gate (cp_thread_queued); and the origin
 * of an instruction the value side fails (cp_fault). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test/unit/cp_test.h"

static void push_at(cp_t *cp, unsigned t, uint32_t w, uint32_t pc) {
    assert_true(cp_push_from(cp, t, w, false, (cp_origin_t){.pc = pc, .core = (int8_t)(2 + t)}));
}

/* T0 waits on semaphore 0 (C0, Value == 0) four times; T1 posts after 30, 5, 60 and 15 cycles.
 * The three longest stalls come back longest first, each naming the held word, the semaphore
 * and the pc that pushed it; their lengths follow the posting delays. */
static void longest_three_ranked(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    static const unsigned delay[4] = {30, 5, 60, 15};
    push_at(cp, 0, TT_OP_SEMINIT(15, 0, 0x01), 0x100);
    run(cp, 5);
    uint64_t start[4];
    for (unsigned k = 0; k < 4; k++) {
        push_at(cp, 0, TT_OP_SEMWAIT(1, 0x01, 1), 0x200 + 8 * k); /* B0, sem 0, C0 */
        push_at(cp, 0, TT_OP_SETADC(0, 0, 0, k), 0x204 + 8 * k);
        run(cp, 4);
        cp_thread_state_t s;
        cp_thread_state(cp, 0, &s);
        assert_true(s.held);
        assert_int_equal(s.held_word, TT_OP_SETADC(0, 0, 0, k));
        start[k] = s.held_since;
        run(cp, delay[k]);
        push_at(cp, 1, TT_OP_SEMPOST(0x01), 0x300);
        push_at(cp, 0, TT_OP_SEMGET(0x01), 0x208 + 8 * k);
        run(cp, 8);
        cp_thread_state(cp, 0, &s);
        assert_false(s.held);
    }
    cp_stall_t top[CP_LONGEST_STALLS];
    unsigned n = cp_longest_stalls(cp, 0, top);
    assert_int_equal(n, 3);
    static const unsigned order[3] = {2, 0, 3}; /* delays 60, 30, 15 */
    for (unsigned i = 0; i < 3; i++) {
        unsigned k = order[i];
        assert_false(top[i].ongoing);
        assert_int_equal(top[i].word, TT_OP_SETADC(0, 0, 0, k));
        assert_int_equal(top[i].cause, CP_HOLD_WAIT_SEM);
        assert_int_equal(top[i].detail, 0);
        assert_int_equal(top[i].start, start[k]);
        assert_int_equal(top[i].origin.core, 2);
        assert_int_equal(top[i].origin.pc, 0x204 + 8 * k);
    }
    /* Equal posting delays give equal stall lengths: the difference is the delay difference. */
    assert_int_equal(top[0].cycles - top[1].cycles, 30);
    assert_int_equal(top[1].cycles - top[2].cycles, 15);
    /* Every held cycle of every stall is in the total. */
    const cp_stats_t *st = cp_stats(cp, 0);
    uint64_t shortest = top[2].cycles - 10; /* the delay-5 stall */
    assert_int_equal(st->stall_total, top[0].cycles + top[1].cycles + top[2].cycles + shortest);
    cp_destroy(cp);
}

/* A stall still going on ranks among the finished ones, marked ongoing. */
static void ongoing_stall_ranked(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push_at(cp, 1, TT_OP_SEMINIT(15, 0, 0x02), 0x400);
    push_at(cp, 1, TT_OP_SEMWAIT(1, 0x02, 1), 0x404);
    push_at(cp, 1, TT_OP_SETADC(0, 0, 0, 7), 0x408);
    run(cp, 100);
    cp_stall_t top[CP_LONGEST_STALLS];
    assert_int_equal(cp_longest_stalls(cp, 1, top), 1);
    assert_true(top[0].ongoing);
    assert_int_equal(top[0].word, TT_OP_SETADC(0, 0, 0, 7));
    assert_int_equal(top[0].origin.core, 3);
    assert_int_equal(top[0].origin.pc, 0x408);
    assert_int_equal(top[0].cycles, cp_stats(cp, 1)->stall_total);
    assert_int_equal(cp_stats(cp, 1)->nlongest, 0);
    char label[32];
    cp_hold_label(top[0].cause, top[0].detail, label, sizeof label);
    assert_string_equal(label, "sem 1");
    cp_destroy(cp);
}

/* A MOP's expansion carries the MOP's origin to the gate. */
static void mop_words_carry_the_mop_origin(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push_at(cp, 0, TT_OP_SEMINIT(15, 0, 0x01), 0x10);
    push_at(cp, 0, TT_OP_SEMWAIT(1, 0x01, 1), 0x14);
    cp_mopcfg_write(cp, 0, 3, TT_OP_SETADC(0, 0, 0, 1)); /* template 0: InsnA0 = SETADC (MopCfg[3]) */
    push_at(cp, 0, TT_OP_MOP(0, 0, 0), 0x18);
    run(cp, 20);
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    assert_true(s.held);
    assert_int_equal(s.held_origin.pc, 0x18);
    assert_int_equal(s.held_origin.core, 2);
    cp_destroy(cp);
}

static uint32_t rng_state;

static uint32_t rnd(void) { return xorshift32(&rng_state); }

static unsigned pick(unsigned n) { return rnd() % n; }

/* The value side's instruction names its origin (cp_insn_t.origin): the error that stops the
 * coprocessor says which core and pc pushed the failing word. Drawn runs: a few words that pass
 * without error, each pushed by a drawn core, then one that fails in a drawn unit, pushed by
 * another core than the word before it (a core left from an earlier instruction shows), directly
 * or as the only word of a MOP's expansion (the MOP's origin). */
static void errors_name_the_pushing_core(void **state) {
    (void)state;
    static const uint32_t fine[] = {TT_OP_NOP, TT_OP_SFPNOP, TT_OP_DMANOP, TT_OP_SETADC(0, 0, 0, 1),
                                    TT_OP_ZEROACC(0, 0, 0, 0, 0)};
    static const uint32_t failing[] = {
        TT_OP_STOREREG(0, 0x4400),                   /* the Scalar Unit: 0xFFB11000, unmapped in the fake tile */
        TT_OP_WRCFG(0, 0, CP_CFG_WORDS),             /* the Configuration Unit: CfgIndex out of range */
        TT_OP_ZEROACC(4, 0, 0, 0, 0),                /* the Matrix Unit: clear_mode 4 */
        TT_OP_UNPACR_NOP(0, 0, 0, 0, 0, 0, 0, 0, 0), /* an unpacker: Unpack_Pop 0 */
    };
    rng_state = 0x5eed0001u;
    for (unsigned run_i = 0; run_i < 200; run_i++) {
        cp_t *cp = cp_new();
        unsigned t = pick(CP_THREADS), n = 1 + pick(4);
        int8_t core = 0;
        for (unsigned i = 0; i < n; i++) {
            core = (int8_t)pick(5);
            uint32_t w = fine[pick(sizeof fine / sizeof fine[0])];
            assert_true(cp_push_from(cp, t, w, false, (cp_origin_t){.pc = rnd() & ~3u, .core = core}));
        }
        cp_origin_t org = {.pc = rnd() & ~3u, .core = (int8_t)((core + 1 + pick(4)) % 5)};
        uint32_t bad = failing[pick(sizeof failing / sizeof failing[0])];
        if (pick(2)) {
            cp_mopcfg_write(cp, t, 3, bad); /* template 0: InsnA0 (MopCfg[3]), once */
            assert_true(cp_push_from(cp, t, TT_OP_MOP(0, 0, 0), false, org));
        } else {
            assert_true(cp_push_from(cp, t, bad, false, org));
        }
        for (unsigned c = 0; c < 100 && !cp_fault(cp); c++)
            cp_cycle(cp);
        const cp_error_t *e = cp_fault(cp);
        assert_non_null(e);
        assert_int_equal(e->word, bad);
        assert_int_equal(e->origin.core, org.core);
        assert_int_equal(e->origin.pc, org.pc);
        cp_destroy(cp);
    }
}

/* cp_thread_queued: the words behind the held head, nearest first. */
static void queued_behind_the_gate(void **state) {
    (void)state;
    cp_t *cp = cp_new();
    push(cp, 2, TT_OP_ATGETM(1)); /* invalid index: held forever */
    push(cp, 2, TT_OP_SEMGET(0x02));
    push(cp, 2, TT_OP_SETADC(0, 0, 0, 2));
    push(cp, 2, TT_OP_SETADC(0, 0, 0, 3));
    run(cp, 10);
    uint32_t q[8];
    unsigned n = cp_thread_queued(cp, 2, q, 8);
    assert_int_equal(n, 3);
    assert_int_equal(q[0], TT_OP_SEMGET(0x02));
    assert_int_equal(q[1], TT_OP_SETADC(0, 0, 0, 2));
    assert_int_equal(q[2], TT_OP_SETADC(0, 0, 0, 3));
    assert_int_equal(cp_thread_queued(cp, 2, q, 2), 2);
    assert_int_equal(cp_thread_queued(cp, 0, q, 8), 0);
    cp_destroy(cp);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(longest_three_ranked),           cmocka_unit_test(ongoing_stall_ranked),
        cmocka_unit_test(mop_words_carry_the_mop_origin), cmocka_unit_test(errors_name_the_pushing_core),
        cmocka_unit_test(queued_behind_the_gate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
