/* test/unit/test_cp_optable.c — every entry of the Blackhole opcode table (coproc/tt_ops.def)
 * exercised against the Wait Gate and the backend: for each of the 137 opcodes, a word with
 * harmless argument fields is pushed behind a latched wait that never releases on its own (a
 * SEMWAIT on semaphore 7, which stays 0), and the test checks
 *   - TT_GATE_MASK: held by a block mask of exactly the entry's block bits and by each of those
 *     bits alone; passes (while the wait stays latched) with the complementary bits; released by
 *     posting the semaphore; and taken by the backend unit the table names (cp_last_unit);
 *   - STALLWAIT/SEMWAIT/STREAMWAIT (block bits = all nine): held by each single bit;
 *   - NOP: held only by the full mask 0x1FF (STALLWAIT.md block-mask table);
 *   - TT_GATE_NEVER (MOP, MOP_CFG, REPLAY, RESOURCEDECL): never reach the gate, even behind a
 *     0x1FF block mask.
 * Sources: BH STALLWAIT.md (block bits), TENSIX.md §3.5, §5. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "coproc/datapath.h"
#include "coproc/tt_ops.h"
#include "test/unit/cp_test.h"

#define SEM_HELD    7                  /* semaphore 7: 0 from reset, nothing posts it unless we do */
#define W_SETDVALID TT_OP_SETDVALID(3) /* SrcA and SrcB to the Matrix Unit, so MVMUL, ELWADD, MOVA2D... may pass */

/* A word for the entry whose side effects are harmless and whose admission rules can be met:
 * zero argument fields, except where zero would not be a valid instruction. */
static uint32_t entry_word(const tt_op_t *op) {
    /* STOREREG / LOADREG: RegAddr at 0xFFB12000, the first address that is not undefined
     * behaviour (>= 0xFFB11000). */
    const uint32_t regaddr = (0xFFB12000u - 0xFFB00000u) / 4;
    switch (op->opcode) {
    case TT_OPC_MOP: return TT_OP_MOP(1, 0, 0);          /* template 1; MopCfg all 0 (OuterCount 0): no words */
    case TT_OPC_REPLAY: return TT_OP_REPLAY(0, 1, 0, 1); /* load the next word, do not execute it */
    case TT_OPC_STOREREG: return TT_OP_STOREREG(0, regaddr);
    case TT_OPC_LOADREG: return TT_OP_LOADREG(0, regaddr);
    default: return TT_WORD(op->opcode, 0);
    }
}

static uint32_t wait_word(unsigned block) { return TT_OP_SEMWAIT(block, 1u << SEM_HELD, 1); }

/* A fresh coprocessor with the wait (block mask `block`) latched in thread 0 and the entry's
 * word behind it; run `cycles`. */
static cp_t *setup(const tt_op_t *op, unsigned block, unsigned cycles) {
    cp_t *cp = cp_new();
    push(cp, 0, W_SETDVALID);
    push(cp, 0, wait_word(block));
    push(cp, 0, entry_word(op));
    if (op->opcode == TT_OPC_REPLAY) push(cp, 0, TT_OP_NOP); /* the word the REPLAY records */
    run(cp, cycles);
    return cp;
}

static void expect_held(const tt_op_t *op, unsigned block) {
    uint32_t w = entry_word(op);
    cp_t *cp = setup(op, block, 16);
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    if (!s.held || s.held_word != w || s.hold != CP_HOLD_WAIT_SEM || was_issued(cp, 0, w))
        fail_msg("%s (0x%02x): not held by block mask 0x%03x (held %d, word 0x%08x, cause %s)", op->mnemonic,
                 op->opcode, block, s.held, s.held_word, cp_hold_name(s.hold));
    if (cp_stats(cp, 0)->stall_sem[SEM_HELD] == 0)
        fail_msg("%s: no stall counted on semaphore %d", op->mnemonic, SEM_HELD);
    if (cp_last_unit(cp, 0) != TT_UNIT_SYNC) fail_msg("%s: something behind the wait was dispatched", op->mnemonic);
    /* The wait releases once the semaphore is posted: then the entry issues to its unit. */
    cp_sem_write(cp, 1, SEM_HELD, 0);
    run(cp, 40);
    if (!was_issued(cp, 0, w)) fail_msg("%s: not issued after the wait released", op->mnemonic);
    if (cp_last_unit(cp, 0) != (int)op->unit)
        fail_msg("%s: went to unit %d, table says %s", op->mnemonic, cp_last_unit(cp, 0), tt_unit_name(op->unit));
    cp_destroy(cp);
}

static void expect_passes(const tt_op_t *op, unsigned block) {
    uint32_t w = entry_word(op);
    cp_t *cp = setup(op, block, 40);
    cp_thread_state_t s;
    cp_thread_state(cp, 0, &s);
    if (!was_issued(cp, 0, w))
        fail_msg("%s (0x%02x): held by block mask 0x%03x (cause %s)", op->mnemonic, op->opcode, block,
                 cp_hold_name(s.hold));
    /* ... while the wait was still latched (nothing posted semaphore 7). */
    if (!s.wait.active || s.wait.word != wait_word(block)) fail_msg("%s: the wait was not latched", op->mnemonic);
    if (cp_last_unit(cp, 0) != (int)op->unit)
        fail_msg("%s: went to unit %d, table says %s", op->mnemonic, cp_last_unit(cp, 0), tt_unit_name(op->unit));
    cp_destroy(cp);
}

static const tt_op_t *ops(unsigned *n) {
    const tt_op_t *o = tt_ops(n);
    assert_int_equal(*n, 137);
    return o;
}

/* Every TT_GATE_MASK entry other than the waits: held by its block bits (all, and each alone),
 * passes with the others, and reaches the unit the table names. */
static void masked_entries_held_by_own_bits_only(void **state) {
    (void)state;
    unsigned n, done = 0;
    const tt_op_t *o = ops(&n);
    for (unsigned i = 0; i < n; i++) {
        const tt_op_t *op = &o[i];
        if (op->gate != TT_GATE_MASK || op->block == TT_B_ALL) continue;
        assert_true(op->block != 0 && (op->block & ~TT_B_ALL) == 0);
        expect_held(op, op->block);
        for (unsigned b = 0; b < 9; b++)
            if ((op->block >> b) & 1) expect_held(op, 1u << b);
        expect_passes(op, ~op->block & TT_B_ALL);
        done++;
    }
    print_message("# %u masked entries exercised\n", done);
    assert_int_equal(done, 137 - 4 - 1 - 3); /* all but NEVER (4), NOP, the three waits */
}

/* STALLWAIT, SEMWAIT, STREAMWAIT: blocked by any bit of a latched wait, so a new wait never
 * overtakes an unsatisfied one (STALLWAIT.md). */
static void waits_held_by_every_bit(void **state) {
    (void)state;
    unsigned n, done = 0;
    const tt_op_t *o = ops(&n);
    for (unsigned i = 0; i < n; i++) {
        const tt_op_t *op = &o[i];
        if (op->gate != TT_GATE_MASK || op->block != TT_B_ALL) continue;
        assert_int_equal(op->unit, TT_UNIT_SYNC);
        for (unsigned b = 0; b < 9; b++)
            expect_held(op, 1u << b);
        expect_held(op, TT_B_ALL);
        done++;
    }
    assert_int_equal(done, 3);
}

/* NOP: held only when the block mask is exactly 0x1FF. */
static void nop_held_only_by_full_mask(void **state) {
    (void)state;
    const tt_op_t *op = tt_op(TT_OPC_NOP);
    assert_non_null(op);
    assert_int_equal(op->gate, TT_GATE_NOP);
    expect_held(op, TT_B_ALL);
    for (unsigned b = 0; b < 9; b++)
        expect_passes(op, 1u << b);
    expect_passes(op, TT_B_ALL & ~1u);
    expect_passes(op, TT_B_ALL & ~(1u << 8));
}

/* MOP, MOP_CFG, REPLAY, RESOURCEDECL never reach the gate: behind a 0x1FF mask they are still
 * taken by their expander (or Auto TTSync) and nothing is held or dispatched. */
static void never_entries_never_reach_the_gate(void **state) {
    (void)state;
    unsigned n, done = 0;
    const tt_op_t *o = ops(&n);
    for (unsigned i = 0; i < n; i++) {
        const tt_op_t *op = &o[i];
        if (op->gate != TT_GATE_NEVER) continue;
        cp_t *cp = setup(op, TT_B_ALL, 30);
        cp_thread_state_t s;
        cp_thread_state(cp, 0, &s);
        if (s.held || s.fifo1 || s.fifo2 || s.fifo3 || s.mop_busy || s.replay_busy)
            fail_msg("%s: not taken before the gate (held %d, fifos %u/%u/%u, mop %d, replay %d)", op->mnemonic, s.held,
                     s.fifo1, s.fifo2, s.fifo3, s.mop_busy, s.replay_busy);
        assert_int_equal(cp_stats(cp, 0)->issued, 2); /* SETDVALID and the wait only */
        assert_int_equal(cp_stats(cp, 0)->consumed, op->opcode == TT_OPC_RESOURCEDECL ? 1 : 0);
        assert_int_equal(cp_last_unit(cp, 0), TT_UNIT_SYNC);
        assert_true(s.wait.active);
        cp_destroy(cp);
        done++;
    }
    assert_int_equal(done, 4);
}

/* Every entry is covered by exactly one of the tests above, with the counts they check: none is
 * left out and none changed class unnoticed. */
static void every_entry_classified(void **state) {
    (void)state;
    unsigned n, masked = 0, waits = 0, nop = 0, never = 0;
    const tt_op_t *o = ops(&n);
    for (unsigned i = 0; i < n; i++) {
        if (o[i].gate == TT_GATE_NEVER)
            never++;
        else if (o[i].gate == TT_GATE_NOP)
            nop++;
        else if (o[i].block == TT_B_ALL)
            waits++;
        else
            masked++;
    }
    assert_int_equal(masked, 137 - 4 - 1 - 3);
    assert_int_equal(waits, 3);
    assert_int_equal(nop, 1);
    assert_int_equal(never, 4);
}

/* The timing model's dispatch of the ThCon and Config units and of SETDVALID returns before the
 * datapath's call (coproc/timing.c tm_unit_issue): none of them may have a datapath body, or it
 * would never run. And the datapath does handle some opcodes (the check is not empty). */
static void no_datapath_body_where_dispatch_skips_it(void **state) {
    (void)state;
    unsigned n, handled = 0;
    const tt_op_t *o = ops(&n);
    for (unsigned i = 0; i < n; i++) {
        if (!dp_handles(&o[i])) continue;
        handled++;
        assert_true(o[i].unit != TT_UNIT_THCON && o[i].unit != TT_UNIT_CONFIG && o[i].opcode != TT_OPC_SETDVALID);
    }
    assert_true(handled > 20);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(masked_entries_held_by_own_bits_only),
        cmocka_unit_test(waits_held_by_every_bit),
        cmocka_unit_test(nop_held_only_by_full_mask),
        cmocka_unit_test(never_entries_never_reach_the_gate),
        cmocka_unit_test(every_entry_classified),
        cmocka_unit_test(no_datapath_body_where_dispatch_skips_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
