/* test/unit/test_sfpu_cc.c — the Vector Unit's conditional execution (coproc/sfpu_cc.c): SFPSETCC
 * every mode, SFPENCC, an if / else nested in an if / else as a compiler maps SIMT control flow onto
 * the flag stack (VectorUnit.md "Lane Predication Masks"), the stack's depth and its undefined
 * overflow and underflow, every SFPPUSHC and SFPPOPC mode against the pages' BooleanOp truth table,
 * SFPCOMPC, and SFPGT / SFPLE on FP32's total order. Expected masks are worked by hand from the pages
 * (bit L is lane L). */
#include "sfpu_test.h"

#define LO4 0xFu /* the four lanes that carry the (A, B) combinations below */

/* ---- SFPSETCC.md ------------------------------------------------------------------------------- */

static void test_setcc(void **state) {
    lregs_t *s = *state;
    const uint32_t v[4] = {(uint32_t)-3, 0, 7, F_N0}; /* lanes 0..3; -0 reads as a negative integer */
    for (unsigned l = 0; l < 4; l++)
        s->r[1][l] = v[l];
    for (unsigned l = 4; l < LANES; l++)
        s->r[1][l] = 1;
    s->use_flags = ALL_LANES, s->flags = ALL_LANES; /* every lane enabled */
    sfp(s, TT_OP_SFPSETCC(0, 1, 0, 0));             /* LT0 */
    assert_int_equal(s->flags, 0x9u);
    s->flags = ALL_LANES;
    sfp(s, TT_OP_SFPSETCC(0, 1, 0, 2)); /* NE0 */
    assert_int_equal(s->flags, 0xFFFFFFFDu);
    s->flags = ALL_LANES;
    sfp(s, TT_OP_SFPSETCC(0, 1, 0, 4)); /* GTE0 */
    assert_int_equal(s->flags, 0xFFFFFFF6u);
    s->flags = ALL_LANES;
    sfp(s, TT_OP_SFPSETCC(0, 1, 0, 6)); /* EQ0 */
    assert_int_equal(s->flags, 0x2u);
    s->flags = ALL_LANES;
    sfp(s, TT_OP_SFPSETCC(0, 1, 0, 1)); /* IMM_BIT0 with Imm1 = 0 */
    assert_int_equal(s->flags, 0);
    s->flags = 0x0000FFFFu;             /* only lanes 0..15 enabled: the others keep their flag */
    sfp(s, TT_OP_SFPSETCC(1, 1, 0, 1)); /* Imm1 = 1 */
    assert_int_equal(s->flags, 0x0000FFFFu);
    sfp(s, TT_OP_SFPSETCC(1, 1, 0, 8 | 1)); /* CLEAR wins over IMM */
    assert_int_equal(s->flags, 0);
    s->use_flags = 0x000000FFu, s->flags = ALL_LANES; /* lanes not using flags get false */
    sfp(s, TT_OP_SFPSETCC(0, 1, 0, 2));
    assert_int_equal(s->flags, 0x000000FDu);
    /* VD >= 12 with DISABLE_BACKDOOR_LOAD clear: no flags, a template write instead. */
    s->use_flags = ALL_LANES, s->flags = ALL_LANES;
    for (unsigned l = 0; l < LANES; l++)
        sfpu_lane_config_w(s, l, l < 16 ? LC_DISABLE_BACKDOOR_LOAD : 0);
    sfp_op_t o;
    sfpu_decode(TT_OP_SFPSETCC(0, 1, 13, 6), &o);
    sfpu_backdoor(s, &o);
    sfp_op(s, &o);
    assert_int_equal(s->flags, 0xFFFF0002u);
    assert_int_equal(s->lm_tmpl[16][1], TT_OP_SFPSETCC(0, 1, 13, 6));
    assert_int_equal(s->lm_tmpl[15][1], 0);
}

/* The backdoor's reach (SFPCONFIG.md; sfpu_ops.h sfpu_backdoor): VD 12..15 write template VD - 12
 * in every lane whose DISABLE_BACKDOOR_LOAD is clear; VD 0..11, SFPNOP, SFPCONFIG (its VD names
 * what it configures) and an SFPLOADMACRO-scheduled instruction write none. */
static void test_backdoor_reach(void **state) {
    lregs_t *s = *state;
    uint32_t none[LANES][SFPU_MACROS] = {{0}};
    for (unsigned vd = 0; vd < 16; vd++) {
        for (unsigned k = 0; k < 3; k++) {
            /* k: an instruction issued, SFPCONFIG, the instruction as SFPLOADMACRO scheduled it */
            uint32_t w = k == 1 ? TT_OP_SFPCONFIG(0, vd, 0) : TT_OP_SFPSETCC(0, 1, vd, 6);
            sfp_op_t o;
            sfpu_decode(w, &o);
            o.macro = k == 2;
            memset(s->lm_tmpl, 0, sizeof s->lm_tmpl);
            for (unsigned lc = 0; lc < LANES; lc++)
                sfpu_lane_config_w(s, lc, 0);
            sfpu_lane_config_w(s, 5, LC_DISABLE_BACKDOOR_LOAD);
            sfpu_backdoor(s, &o);
            for (unsigned l = 0; l < LANES; l++)
                for (unsigned i = 0; i < SFPU_MACROS; i++) {
                    uint32_t want = k == 0 && vd == 12 + i && l != 5 ? w : 0;
                    if (s->lm_tmpl[l][i] != want)
                        fail_msg("word 0x%08x (macro %d) lane %u template %u: 0x%08x, want 0x%08x", w, o.macro, l, i,
                                 s->lm_tmpl[l][i], want);
                }
        }
    }
    sfp_op_t nop;
    sfpu_decode(TT_OP_SFPNOP, &nop);
    sfpu_backdoor(s, &nop);
    assert_memory_equal(s->lm_tmpl, none, sizeof none);
}

/* ---- SFPENCC.md -------------------------------------------------------------------------------- */

static void test_encc(void **state) {
    lregs_t *s = *state;
    s->flags = 0x1234u, s->use_flags = 0x00FF00FFu;
    sfp(s, TT_OP_SFPENCC(0, 0, 0, 0)); /* use kept, flags := true */
    assert_int_equal(s->use_flags, 0x00FF00FFu);
    assert_int_equal(s->flags, ALL_LANES);
    sfp(s, TT_OP_SFPENCC(0, 0, 0, 1)); /* EC: use inverted */
    assert_int_equal(s->use_flags, 0xFF00FF00u);
    sfp(s, TT_OP_SFPENCC(3, 0, 0, 2 | 8)); /* EI: use := Imm2 bit 0; RI: flags := Imm2 bit 1 */
    assert_int_equal(s->use_flags, ALL_LANES);
    assert_int_equal(s->flags, ALL_LANES);
    sfp(s, TT_OP_SFPENCC(1, 0, 0, 2 | 8)); /* use on, flags false: every lane off */
    assert_int_equal(s->flags, 0);
    assert_int_equal(sfpu_lanes_enabled(s), 0);
    sfp(s, TT_OP_SFPENCC(0, 0, 0, 2 | 1)); /* EI wins over EC: use := 0 */
    assert_int_equal(s->use_flags, 0);
    assert_int_equal(sfpu_lanes_enabled(s), ALL_LANES);
    /* LaneConfig ROW_MASK disables a row of eight whatever the flags. */
    sfpu_lane_config_w(s, 3, 0x4u << LC_ROW_MASK_SHIFT); /* column 3, row 2: lane 19 */
    assert_int_equal(sfpu_lanes_enabled(s), ~(1u << 19));
}

/* ---- if / else, nested (VectorUnit.md: "Compilers are encouraged to map SIMT if / else onto this
 * stack"): the sequence SFPI emits for
 *     if (x < 0) { if (y != 0) r = 1; else r = 2; } else { r = 3; }
 * with lanes 0..3 holding (x, y) = (-1, 0), (-1, 5), (2, 0), (2, 5) and the rest (0, 0). */
static void test_nested_if_else(void **state) {
    lregs_t *s = *state;
    const int32_t x[4] = {-1, -1, 2, 2}, y[4] = {0, 5, 0, 5};
    for (unsigned l = 0; l < 4; l++)
        s->r[1][l] = (uint32_t)x[l], s->r[2][l] = (uint32_t)y[l];
    sfp(s, TT_OP_SFPENCC(1, 0, 0, 2)); /* conditional execution on, every lane's flag true */
    assert_int_equal(sfpu_lanes_enabled(s), ALL_LANES);
    sfp(s, TT_OP_SFPPUSHC(0, 0, 0, 0)); /* if (x < 0) */
    sfp(s, TT_OP_SFPSETCC(0, 1, 0, 0));
    assert_int_equal(sfpu_lanes_enabled(s), 0x3u);
    sfp(s, TT_OP_SFPPUSHC(0, 0, 0, 0)); /*   if (y != 0) */
    sfp(s, TT_OP_SFPSETCC(0, 2, 0, 2));
    assert_int_equal(sfpu_lanes_enabled(s), 0x2u);
    assert_int_equal(s->stack_n[0], 2);
    sfp(s, TT_OP_SFPLOADI(5, 2, 1));    /*     r = 1 */
    sfp(s, TT_OP_SFPCOMPC(0, 0, 0, 0)); /*   else */
    assert_int_equal(sfpu_lanes_enabled(s), 0x1u);
    sfp(s, TT_OP_SFPLOADI(5, 2, 2));   /*     r = 2 */
    sfp(s, TT_OP_SFPPOPC(0, 0, 0, 0)); /*   endif */
    assert_int_equal(sfpu_lanes_enabled(s), 0x3u);
    sfp(s, TT_OP_SFPCOMPC(0, 0, 0, 0)); /* else */
    assert_int_equal(sfpu_lanes_enabled(s), ~0x3u);
    sfp(s, TT_OP_SFPLOADI(5, 2, 3));   /*   r = 3 */
    sfp(s, TT_OP_SFPPOPC(0, 0, 0, 0)); /* endif */
    assert_int_equal(sfpu_lanes_enabled(s), ALL_LANES);
    assert_int_equal(s->stack_n[31], 0);
    assert_int_equal(s->r[5][0], 2);
    assert_int_equal(s->r[5][1], 1);
    for (unsigned l = 2; l < LANES; l++)
        assert_int_equal(s->r[5][l], 3);
}

/* ---- the stack's depth (SFPPUSHC.md: eight entries; pushing a full stack or popping an empty one is
 * UndefinedBehavior, which ttemu reports as a guest fault) ----------------------------------------- */

static void test_stack_depth(void **state) {
    lregs_t *s = *state;
    for (unsigned i = 0; i < 8; i++) {
        s->flags = 1u << i; /* remember which push this was */
        sfp(s, TT_OP_SFPPUSHC(0, 0, 0, 0));
    }
    assert_int_equal(s->stack_n[7], 8);
    assert_int_equal(sfp_try(s, TT_OP_SFPPUSHC(0, 0, 0, 0)), CP_ERR_UNDEFINED);
    assert_int_equal(s->stack_n[7], 8);
    for (int i = 7; i >= 0; i--) {
        sfp(s, TT_OP_SFPPOPC(0, 0, 0, 0));
        assert_int_equal(s->flags, 1u << i);
    }
    assert_int_equal(sfp_try(s, TT_OP_SFPPOPC(0, 0, 0, 0)), CP_ERR_UNDEFINED);
    assert_int_equal(sfp_try(s, TT_OP_SFPPUSHC(0, 0, 0, 1)), CP_ERR_UNDEFINED); /* mutate an empty top */
    /* Peeking (SFPPOPC Mod1 != 0) is defined on an empty stack: the top reads {false, false}. */
    s->flags = ALL_LANES, s->use_flags = ALL_LANES;
    sfp(s, TT_OP_SFPPOPC(0, 0, 0, 1)); /* flags := top's = false, use := false */
    assert_int_equal(s->flags, 0);
    assert_int_equal(s->use_flags, 0);
    /* Blackhole fixed Wormhole's bug with Mod1 != 0 on a full stack: a peek there is plain. */
    for (unsigned i = 0; i < 8; i++) {
        s->flags = i == 7 ? 0x5u : 0;
        sfp(s, TT_OP_SFPPUSHC(0, 0, 0, 0));
    }
    s->flags = 0;
    sfp(s, TT_OP_SFPPOPC(0, 0, 0, 1));
    assert_int_equal(s->flags, 0x5u);
    assert_int_equal(s->stack_n[0], 8);
}

/* The pages' BooleanOp(Mod1, A, B) for the lanes 0..3 with (A, B) = (0, 0), (0, 1), (1, 0), (1, 1),
 * as four bits, Mod1 1..12: B, !B, A&&B, A||B, A&&!B, A||!B, !A&&B, !A||B, !A&&!B, !A||!B, A!=B, A==B. */
static const uint8_t bool_table[13] = {0, 0xA, 0x5, 0x8, 0xE, 0x4, 0xD, 0x2, 0xB, 0x1, 0x7, 0x6, 0x9};

/* ---- SFPPUSHC.md (Blackhole): Mod1 1..12 combine into the top, 13..15 replace it -------------- */

static void test_pushc_modes(void **state) {
    lregs_t *s = *state;
    for (unsigned m = 1; m <= 15; m++) {
        memset(s->stack_n, 0, sizeof s->stack_n);
        s->flags = 0xC, s->use_flags = 0; /* A (the top's flags): lanes 2, 3 */
        sfp(s, TT_OP_SFPPUSHC(0, 0, 0, 0));
        s->flags = 0xA, s->use_flags = 0x00F0u; /* B (current): lanes 1, 3; a use pattern to copy */
        sfp(s, TT_OP_SFPPUSHC(0, 0, 0, m));
        assert_int_equal(s->stack_n[0], 1); /* replaced, not pushed */
        uint32_t top = s->stack_flags[0] & LO4, use = s->stack_use[0];
        if (m <= 12) {
            assert_int_equal(top, bool_table[m]);
            assert_int_equal(use, 0x00F0u);
            assert_int_equal(s->flags, 0xA);
        } else if (m == 13) { /* LaneFlags inverted, then written to the top */
            assert_int_equal(s->flags, ~0xAu);
            assert_int_equal(top, 0x5);
            assert_int_equal(use, 0x00F0u);
        } else { /* {true, true} or {false, true} */
            assert_int_equal(top, m == 14 ? LO4 : 0);
            assert_int_equal(use, ALL_LANES);
            assert_int_equal(s->flags, 0xA);
        }
    }
}

/* ---- SFPPOPC.md (Blackhole): Mod1 1..12 combine the top into the current flags, 13..15 ----------- */

static void test_popc_modes(void **state) {
    lregs_t *s = *state;
    for (unsigned m = 1; m <= 15; m++) {
        memset(s->stack_n, 0, sizeof s->stack_n);
        s->flags = 0xA, s->use_flags = 0x0F00u; /* B (the top's flags): lanes 1, 3 */
        sfp(s, TT_OP_SFPPUSHC(0, 0, 0, 0));
        s->flags = 0xC, s->use_flags = 0x00F0u; /* A (current): lanes 2, 3 */
        sfp(s, TT_OP_SFPPOPC(0, 0, 0, m));
        assert_int_equal(s->stack_n[0], 1); /* a peek */
        if (m <= 12) {
            assert_int_equal(s->flags & LO4, bool_table[m]);
            assert_int_equal(s->use_flags, 0x0F00u);
        } else if (m == 13) {
            assert_int_equal(s->flags, ~0xCu);
            assert_int_equal(s->use_flags, 0x00F0u);
        } else {
            assert_int_equal(s->flags, m == 14 ? ALL_LANES : 0);
            assert_int_equal(s->use_flags, ALL_LANES);
        }
    }
}

/* ---- SFPCOMPC.md ------------------------------------------------------------------------------- */

static void test_compc(void **state) {
    lregs_t *s = *state;
    /* Empty stack: the top reads {true, true}: flags := use && !flags. */
    s->flags = 0x3, s->use_flags = 0x5;
    sfp(s, TT_OP_SFPCOMPC(0, 0, 0, 0));
    assert_int_equal(s->flags, 0x4);
    /* With a top: flags := top.use && use && top.flags && !flags. */
    s->flags = 0x0F, s->use_flags = 0x33;
    sfp(s, TT_OP_SFPPUSHC(0, 0, 0, 0)); /* top {0x0F, 0x33} */
    s->flags = 0x05, s->use_flags = 0xFF;
    sfp(s, TT_OP_SFPCOMPC(0, 0, 0, 0));
    assert_int_equal(s->flags, 0x0F & 0x33 & ~0x05u);
    assert_int_equal(s->use_flags, 0xFF); /* untouched */
}

/* ---- SFPGT.md, SFPLE.md (new in Blackhole) ------------------------------------------------------ */

/* (VD, VC) per lane, in the total order -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN. */
static const uint32_t cmp_d[8] = {F_1, F_2, F_0, F_N0, F_QNAN, F_NQNAN, F_N1, 5};
static const uint32_t cmp_c[8] = {F_2, F_1, F_N0, F_0, F_INF, F_NINF, 0xC0000000u, 5}; /* check_fields: not a field */
#define CMP_GT 0x56u /* lanes where VD > VC: 1, 2 (+0 > -0), 4, 6 */

static void cmp_setup(lregs_t *s) {
    for (unsigned l = 0; l < 8; l++)
        s->r[3][l] = cmp_d[l], s->r[1][l] = cmp_c[l];
    for (unsigned l = 8; l < LANES; l++)
        s->r[3][l] = 1, s->r[1][l] = 1; /* equal */
}

static void test_gt_le(void **state) {
    lregs_t *s = *state;
    cmp_setup(s);
    sfp(s, TT_OP_SFPGT(0, 1, 3, 1)); /* SET_CC: flags := VD > VC */
    assert_int_equal(s->flags, CMP_GT);
    assert_int_equal(s->r[3][0], F_1); /* VD untouched without SET_VD */
    sfp(s, TT_OP_SFPLE(0, 1, 3, 1));   /* flags := VD <= VC */
    assert_int_equal(s->flags, ~CMP_GT);
    sfp(s, TT_OP_SFPGT(0, 1, 3, 8)); /* SET_VD: -1 or 0 */
    for (unsigned l = 0; l < LANES; l++)
        assert_int_equal(s->r[3][l], ((CMP_GT >> l) & 1) ? 0xFFFFFFFFu : 0);
    cmp_setup(s);
    sfp(s, TT_OP_SFPLE(0, 1, 3, 8));
    for (unsigned l = 0; l < LANES; l++)
        assert_int_equal(s->r[3][l], ((CMP_GT >> l) & 1) ? 0 : 0xFFFFFFFFu);
    /* Disabled lanes keep VD and flags; MUTATE_STACK works in every lane: AND, or with 4 OR. */
    cmp_setup(s);
    s->use_flags = ALL_LANES, s->flags = 0x0F;
    sfp(s, TT_OP_SFPPUSHC(0, 0, 0, 0)); /* top flags 0x0F */
    sfp(s, TT_OP_SFPGT(0, 1, 3, 8 | 1 | 2));
    assert_int_equal(s->r[3][4], F_QNAN); /* lane 4 disabled */
    assert_int_equal(s->r[3][1], 0xFFFFFFFFu);
    assert_int_equal(s->flags, CMP_GT & 0x0F);
    assert_int_equal(s->stack_flags[0], 0x0Fu & CMP_GT);
    cmp_setup(s);
    s->stack_flags[0] = 0x0F;
    sfp(s, TT_OP_SFPGT(0, 1, 3, 2 | 4)); /* OR into the top */
    assert_int_equal(s->stack_flags[0], 0x0Fu | CMP_GT);
    /* Sign-magnitude integers: -0 (0x80000000) < +0, -5 < -3 < 3. */
    s->use_flags = 0;
    s->r[3][0] = 0x80000003u, s->r[1][0] = 0x80000005u; /* -3 > -5 */
    s->r[3][1] = 0x80000000u, s->r[1][1] = 0;           /* -0 > +0: no */
    sfp(s, TT_OP_SFPGT(0, 1, 3, 1));
    assert_int_equal(s->flags & 3, 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_setcc, sfpu_setup, sfpu_teardown),
        cmocka_unit_test_setup_teardown(test_backdoor_reach, sfpu_setup, sfpu_teardown),
        cmocka_unit_test_setup_teardown(test_encc, sfpu_setup, sfpu_teardown),
        cmocka_unit_test_setup_teardown(test_nested_if_else, sfpu_setup, sfpu_teardown),
        cmocka_unit_test_setup_teardown(test_stack_depth, sfpu_setup, sfpu_teardown),
        cmocka_unit_test_setup_teardown(test_pushc_modes, sfpu_setup, sfpu_teardown),
        cmocka_unit_test_setup_teardown(test_popc_modes, sfpu_setup, sfpu_teardown),
        cmocka_unit_test_setup_teardown(test_compc, sfpu_setup, sfpu_teardown),
        cmocka_unit_test_setup_teardown(test_gt_le, sfpu_setup, sfpu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
