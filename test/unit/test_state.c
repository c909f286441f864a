/* test/unit/test_state.c — the backend's architectural state (coproc/state.c) and the value side
 * without a clock: the named configuration fields of coproc/cfg_fields.def against Blackhole's
 * cfg_defines.h (the numbers copied here by hand), field writes, the SrcA/SrcB hand-overs, and
 * the Scalar and Configuration Units' semantics called directly (coproc/thcon.c,
 * coproc/cfgunit.c), with their errors' categories. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coproc/state.h"
#include "coproc/tt_fields.h"
#include "coproc/units.h"

/* tt-metal tt_metal/hw/inc/blackhole/cfg_defines.h: NAME_ADDR32, NAME_SHAMT, NAME_MASK. */
static void test_fields_as_cfg_defines(void **state) {
    (void)state;
    struct {
        const cp_field_t *f;
        unsigned word, shift;
        uint32_t mask;
    } want[] = {
        {&thcfg_fields[THCFG_CFG_STATE_ID_StateID], 0, 0, 0x1},
        {&thcfg_fields[THCFG_CLR_DVALID_SrcA_Disable], 7, 0, 0x1},
        {&thcfg_fields[THCFG_CLR_DVALID_SrcB_Disable], 7, 1, 0x2},
        {&thcfg_fields[THCFG_STREAMWAIT_PHASE_HI_Val], 57, 0, 0x3ff},
        {&thcfg_fields[THCFG_STREAMWAIT_NUM_MSGS_HI_Val], 58, 0, 0x7f},
        {&thcfg_fields[THCFG_STREAM_ID_SYNC_SEC0_BankSel], 59, 0, 0x3f},
        {&thcfg_fields[THCFG_STREAM_ID_SYNC_SEC3_BankSel], 62, 0, 0x3f},
        {&cfg_fields[CFG_SCRATCH_SEC0_val], 209, 0, 0xffffffffu},
        {&cfg_fields[CFG_SCRATCH_SEC2_val], 211, 0, 0xffffffffu},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const cp_field_t *f = want[i].f;
        if (f->word != want[i].word || f->shift != want[i].shift ||
            (st_field_mask(f->width) << f->shift) != want[i].mask)
            fail_msg("%s: word %u shift %u width %u", f->name, f->word, f->shift, f->width);
    }
    assert_string_equal(thcfg_fields[THCFG_CFG_STATE_ID_StateID].name, "CFG_STATE_ID_StateID");
}

static void test_field_get_set(void **state) {
    (void)state;
    cp_state_t *st = calloc(1, sizeof *st); /* (allocated: state.h) */
    assert_non_null(st);
    st_reset(st);
    /* A ThreadConfig field is its bits of its word; its neighbours are kept. */
    st_thdcfg_w(st, 1, 7, 0xFFFC);
    thcfg_set(st, 1, THCFG_CLR_DVALID_SrcB_Disable, 1);
    assert_int_equal(st->thdcfg[1][7], 0xFFFE);
    assert_int_equal(thcfg_get(st, 1, THCFG_CLR_DVALID_SrcB_Disable), 1);
    assert_int_equal(thcfg_get(st, 1, THCFG_CLR_DVALID_SrcA_Disable), 0);
    assert_int_equal(thcfg_get(st, 0, THCFG_CLR_DVALID_SrcB_Disable), 0);
    thcfg_set(st, 2, THCFG_STREAMWAIT_PHASE_HI_Val, 0xFFFF); /* truncated to 10 bits */
    assert_int_equal(st->thdcfg[2][57], 0x3FF);
    /* The state ID selects the bank. */
    thcfg_set(st, 2, THCFG_CFG_STATE_ID_StateID, 1);
    assert_int_equal(st_state_id(st, 2), 1);
    assert_int_equal(st_state_id(st, 1), 0);
    /* A global Config register (index >= 180) is written to both banks. */
    cfg_set(st, 1, CFG_SCRATCH_SEC1_val, 0xCAFEF00D);
    assert_int_equal(cfg_get(st, 0, CFG_SCRATCH_SEC1_val), 0xCAFEF00D);
    assert_int_equal(st->cfg[1][210], 0xCAFEF00D);
    st_cfg_store(st, 1, 10, 7); /* a per-bank one only to its bank */
    assert_int_equal(st->cfg[1][10], 7);
    assert_int_equal(st->cfg[0][10], 0);
    free(st);
}

/* The words a tile's writes move only cfg_gen / thdcfg_gen in (state.h st_cfg_tile_word,
 * st_thdcfg_tile_word) are the named fields' words, and MATH_Offset's and CfgContextOffset's words
 * hold no other field;
 * every other word moves both generations, and reset and copy bump all. A Config write moves every
 * thread's thdcfg_gen too. */
static void test_tile_words(void **state) {
    (void)state;
    assert_int_equal(ST_CFG_PACK_L1_WORD, cfg_fields[CFG_THCON_SEC0_REG1_L1_Dest_addr].word);
    assert_int_equal(ST_CFG_UNP_BASE_WORD, cfg_fields[CFG_THCON_SEC0_REG3_Base_address].word);
    assert_int_equal(cfg_fields[CFG_THCON_SEC0_REG3_Base_address].stride, 32);
    assert_int_equal(ST_CFG_UNP1_BASE_WORD, ST_CFG_UNP_BASE_WORD + 48);
    assert_int_equal(ST_CFG_PACK_OFF_WORD, cfg_fields[CFG_DEST_TARGET_REG_CFG_PACK_SEC0_Offset].word);
    assert_int_equal(cfg_fields[CFG_DEST_TARGET_REG_CFG_PACK_SEC0_Offset].stride, 32);
    assert_int_equal(ST_THDCFG_MATH_OFF_WORD, thcfg_fields[THCFG_DEST_TARGET_REG_CFG_MATH_Offset].word);
    assert_int_equal(ST_THDCFG_UNP_CTX_WORD, thcfg_fields[THCFG_UNPACK_MISC_CFG_CfgContextOffset_0].word);
    for (unsigned f = 0; f < THCFG_FIELD_COUNT; f++) {
        if (f != THCFG_DEST_TARGET_REG_CFG_MATH_Offset && thcfg_fields[f].word == ST_THDCFG_MATH_OFF_WORD)
            fail_msg("%s shares MATH_Offset's word", thcfg_fields[f].name);
        if (f != THCFG_UNPACK_MISC_CFG_CfgContextOffset_0 && thcfg_fields[f].word == ST_THDCFG_UNP_CTX_WORD)
            fail_msg("%s shares CfgContextOffset's word", thcfg_fields[f].name);
    }
    /* No other Config field in a tile's word: a setup that read one would miss its write on the
     * near path (coproc/dp_internal.h dp_key_near_at). */
    for (unsigned f = 0; f < CFG_FIELD_COUNT; f++)
        if (st_cfg_tile_word(cfg_fields[f].word) && f != CFG_THCON_SEC0_REG1_L1_Dest_addr &&
            f != CFG_THCON_SEC0_REG3_Base_address && f != CFG_DEST_TARGET_REG_CFG_PACK_SEC0_Offset)
            fail_msg("%s in a tile's word (%u)", cfg_fields[f].name, cfg_fields[f].word);
    cp_state_t *st = calloc(1, sizeof *st); /* (allocated: state.h) */
    assert_non_null(st);
    st_reset(st);
    unsigned tile = 0;
    for (unsigned i = 0; i < CP_CFG_WORDS; i++) {
        uint64_t g = st->cfg_gen, m = st->cfg_gen_m, tg[CP_THREADS];
        memcpy(tg, st->thdcfg_gen, sizeof tg);
        st_cfg_w(st, i % 2, i, 1);
        assert_int_equal(st->cfg_gen, g + 1);
        for (unsigned t = 0; t < CP_THREADS; t++) /* (the kept setups' keys compare thdcfg_gen alone) */
            assert_int_equal(st->thdcfg_gen[t], tg[t] + 1);
        bool t = i == 69 || (i >= 76 && i < 84) || (i >= 124 && i < 132) || (i >= 180 && i < 184);
        assert_int_equal(st->cfg_gen_m, m + !t);
        tile += t;
    }
    assert_int_equal(tile, 21);
    for (unsigned i = 0; i < CP_THDCFG_WORDS; i++) {
        uint64_t g = st->thdcfg_gen[2], m = st->thdcfg_gen_m[2], o = st->thdcfg_gen_m[1];
        st_thdcfg_w(st, 2, i, 1);
        assert_int_equal(st->thdcfg_gen[2], g + 1);
        assert_int_equal(st->thdcfg_gen_m[2], m + (i != 1 && i != 41));
        assert_int_equal(st->thdcfg_gen_m[1], o);
    }
    uint64_t m = st->cfg_gen_m, tm = st->thdcfg_gen_m[0];
    st_reset(st);
    assert_true(st->cfg_gen_m == m + 1 && st->thdcfg_gen_m[0] == tm + 1);
    cp_state_t *c = calloc(1, sizeof *c);
    assert_non_null(c);
    st_copy(c, st);
    assert_true(c->cfg_gen_m == 1 && c->thdcfg_gen_m[0] == 1 && c->thdcfg_gen_m[2] == 1);
    free(c);
    free(st);
}

static void test_src_handover(void **state) {
    (void)state;
    cp_state_t *st = calloc(1, sizeof *st); /* (allocated: state.h) */
    assert_non_null(st);
    st_reset(st);
    assert_true(st_src_unpacker_owns(st, 0) && st_src_unpacker_owns(st, 1));
    assert_false(st_src_matrix_owns_a(st) || st_src_matrix_owns_b(st));
    st_src_to_matrix(st, 0); /* SrcA bank 0 to the Matrix Unit, unpacker 0 on to bank 1 */
    assert_true(st_src_matrix_owns_a(st));
    assert_int_equal(st->src.unp_bank[0], 1);
    assert_true(st_src_unpacker_owns(st, 0));
    /* With CLR_DVALID_SrcA_Disable the pointer moves but ownership stays (ELWADD.md). */
    thcfg_set(st, 0, THCFG_CLR_DVALID_SrcA_Disable, 1);
    st_src_to_unpackers(st, 0, 1, true, false);
    assert_int_equal(st->src.fpu_bank_a, 1);
    assert_int_equal(st->src.srca[0], CP_SRC_MATRIX);
    st_src_reset(st);
    assert_int_equal(st->src.srca[0], CP_SRC_UNPACKERS);
    assert_int_equal(st->src.fpu_bank_a, 0);
    free(st);
}

/* ---- the units' semantics, no clock ---- */

static cp_error_t err;

static cp_insn_t insn(cp_state_t *st, const cp_env_t *env, unsigned t, uint32_t word) {
    return (cp_insn_t){.st = st,
                       .env = env,
                       .op = tt_op((uint8_t)TT_OPCODE(word)),
                       .word = word,
                       .thread = t,
                       .origin = {.pc = 0x30010, .core = 2},
                       .err = &err};
}

static bool no_mmio_load(void *ctx, uint32_t addr, uint32_t *val) {
    (void)ctx, (void)addr, (void)val;
    return false;
}

static void test_units_without_a_clock(void **state) {
    (void)state;
    cp_state_t *st = calloc(1, sizeof *st); /* (allocated: state.h) */
    assert_non_null(st);
    cp_env_t env = {.mmio_load = no_mmio_load};
    st_reset(st);
    memset(&err, 0, sizeof err);
    cp_insn_t in = insn(st, &env, 1, TT_OP_SETDMAREG(0, 0xBEEF, 0, 2 * 4 + 1));
    thcon_exec(&in);
    assert_int_equal(st->gpr[1][4], 0xBEEF0000u);
    in = insn(st, &env, 1, TT_OP_ADDDMAREG(1, 5, 17, 4)); /* GPR 5 = GPR 4 + 17 */
    thcon_exec(&in);
    assert_int_equal(st->gpr[1][5], 0xBEEF0011u);
    in = insn(st, &env, 1, TT_OP_WRCFG(5, 0, 33));
    cfgu_exec(&in);
    assert_int_equal(st->cfg[0][33], 0xBEEF0011u);
    in = insn(st, &env, 0, TT_OP_SETC16(0, 1)); /* thread 0 to bank 1 */
    cfgu_exec(&in);
    in = insn(st, &env, 0, TT_OP_RMWCIB1(0xFF, 0x12, 33));
    cfgu_exec(&in);
    assert_int_equal(st->cfg[1][33], 0x1200u);
    assert_int_equal(st->cfg[0][33], 0xBEEF0011u);
    assert_int_equal(err.cat, CP_ERR_NONE);

    /* Errors carry their category, thread, unit, word and origin; the first one stays. */
    uint32_t bad = TT_OP_CMPDMAREG(0, 5, 1, 2, 3);
    in = insn(st, &env, 2, bad);
    thcon_exec(&in);
    assert_int_equal(err.cat, CP_ERR_UNDEFINED);
    assert_int_equal(err.thread, 2);
    assert_int_equal(err.unit, TT_UNIT_THCON);
    assert_int_equal(err.word, bad);
    assert_int_equal(err.origin.core, 2);
    assert_int_equal(err.origin.pc, 0x30010);
    assert_string_equal(err.what, "CMPDMAREG mode 5 is undefined");
    in = insn(st, &env, 0, TT_OP_REG2FLOP(0, 0, 0, 0, 0, 0));
    thcon_exec(&in);
    assert_int_equal(err.cat, CP_ERR_UNDEFINED); /* still the first */

    memset(&err, 0, sizeof err);
    in = insn(st, &env, 0, TT_OP_REG2FLOP(0, 0, 0, 0, 0, 0));
    thcon_exec(&in);
    assert_int_equal(err.cat, CP_ERR_UNIMPLEMENTED);
    assert_true(cp_err_is_gap(err.cat));
    assert_string_equal(err.what, "ttemu does not model REG2FLOP yet");

    memset(&err, 0, sizeof err);
    in = insn(st, &env, 0, TT_OP_LOADREG(3, (0xFFB90B88u - 0xFFB00000u) / 4));
    thcon_exec(&in);
    assert_int_equal(err.cat, CP_ERR_UNMAPPED);
    assert_false(cp_err_is_gap(err.cat));
    assert_string_equal(err.what, "LOADREG from unmapped 0xffb90b88");

    memset(&err, 0, sizeof err);
    in = insn(st, &env, 0, TT_OP_STREAMWRCFG(0, 0, 300));
    cfgu_exec(&in);
    assert_int_equal(err.cat, CP_ERR_UNDEFINED);
    assert_string_equal(err.what, "STREAMWRCFG CfgIndex 300 out of range");
    free(st);
}

static void test_category_names(void **state) {
    (void)state;
    assert_string_equal(cp_err_cat_name(CP_ERR_UNDEFINED), "undefined_behavior");
    assert_string_equal(cp_err_cat_name(CP_ERR_UNMAPPED), "unmapped");
    assert_string_equal(cp_err_cat_name(CP_ERR_UNSUPPORTED), "unsupported");
    assert_string_equal(cp_err_cat_name(CP_ERR_UNIMPLEMENTED), "unimplemented");
    assert_string_equal(cp_err_cat_name(CP_ERR_UNSPECIFIED), "missing_specification");
    assert_string_equal(cp_err_cat_name(CP_ERR_COUNT), "?");
    assert_true(cp_err_is_gap(CP_ERR_UNSPECIFIED));
    assert_false(cp_err_is_gap(CP_ERR_UNSUPPORTED));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields_as_cfg_defines), cmocka_unit_test(test_field_get_set),
        cmocka_unit_test(test_src_handover),          cmocka_unit_test(test_units_without_a_clock),
        cmocka_unit_test(test_category_names),        cmocka_unit_test(test_tile_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
