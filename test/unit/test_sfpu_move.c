/* test/unit/test_sfpu_move.c — the Vector Unit's moves, lane shuffles and configuration
 * (coproc/sfpu_move.c): SFPMOV (every Mod1, the special sources), SFPSWAP (every Mod1, argmin/argmax,
 * the exchange bit), SFPTRANSP, every SFPSHFT2 mode, SFPLOADI every Mod0 and SFPCONFIG every
 * destination and Mod1. Expected values from the pages, worked by hand; lane-pattern expectations
 * are computed here from the pages' cross-lane diagrams' rules (lane L is row L / 8, column L % 8). */
#include "sfpu_test.h"

/* LReg[r] lane l = r << 8 | l, a pattern that names where each value came from. */
static void pattern(lregs_t *s, unsigned r) {
    for (unsigned l = 0; l < LANES; l++)
        s->r[r][l] = r << 8 | l;
}

/* ---- SFPMOV.md ---------------------------------------------------------------------------------- */

static void test_mov(void **state) {
    lregs_t *s = *state;
    pattern(s, 1);
    s->r[1][3] = 0;
    sfp(s, TT_OP_SFPMOV(0, 1, 2, 0));
    for (unsigned l = 0; l < LANES; l++)
        assert_int_equal(s->r[2][l], s->r[1][l]);
    sfp(s, TT_OP_SFPMOV(0, 1, 2, 1)); /* NEGATE: the sign bit flips, zero included */
    assert_int_equal(s->r[2][3], 0x80000000u);
    assert_int_equal(s->r[2][5], 0x80000105u);
    predicate(s, 0x0000FFFFu);
    fill(s, 2, 7);
    sfp(s, TT_OP_SFPMOV(0, 1, 2, 0));
    assert_int_equal(s->r[2][20], 7);
    sfp(s, TT_OP_SFPMOV(0, 1, 2, 2)); /* ALL_LANES_ENABLED */
    assert_int_equal(s->r[2][20], 0x114u);
    fill(s, 2, 7);
    sfp(s, TT_OP_SFPMOV(0, 1, 2, 3)); /* 3 is not 2: predicated, negated */
    assert_int_equal(s->r[2][20], 7);
    assert_int_equal(s->r[2][4], 0x80000104u);
    s->use_flags = 0;
    /* FROM_SPECIAL (Mod1 8): by VC. */
    for (unsigned l = 0; l < LANES; l++) {
        s->lm_tmpl[l][2] = 0xA0000000u + l; /* markers, not instructions (check_fields: not a field) */
        s->lm_seq[l][1] = 0xB0000000u + l;  /* check_fields: not a field */
        s->lm_misc[l] = (uint16_t)(0xC00 + l);
        sfpu_lane_config_w(s, l, 0x100u + l);
        s->prng[l] = 0xDEAD0000u + l;
    }
    sfp(s, TT_OP_SFPMOV(0, 2, 3, 8));
    assert_int_equal(s->r[3][9], 0xA0000009u);
    sfp(s, TT_OP_SFPMOV(0, 5, 3, 8));
    assert_int_equal(s->r[3][9], 0xB0000009u);
    sfp(s, TT_OP_SFPMOV(0, 8, 3, 8));
    assert_int_equal(s->r[3][9], 0xC09u);
    sfp(s, TT_OP_SFPMOV(0, 15, 3, 8));
    assert_int_equal(s->r[3][9], 0x109u);
    sfp(s, TT_OP_SFPMOV(0, 10, 3, 8)); /* other VC: 0 */
    assert_int_equal(s->r[3][9], 0);
    sfp(s, TT_OP_SFPMOV(0, 9, 3, 8)); /* AdvancePRNG(): the state, then the next */
    assert_int_equal(s->r[3][9], 0xDEAD0009u);
    assert_int_equal(s->prng[9], ref_prng_next(0xDEAD0009u));
    sfp(s, TT_OP_SFPMOV(0, 9, 8, 8)); /* VD 8: not written, the PRNG advances anyway */
    assert_int_equal(s->prng[9], ref_prng_next(ref_prng_next(0xDEAD0009u)));
}

/* ---- SFPSWAP.md -------------------------------------------------------------------------------- */

static void test_swap(void **state) {
    lregs_t *s = *state;
    pattern(s, 1), pattern(s, 2);
    sfp(s, TT_OP_SFPSWAP(0, 1, 2, 0)); /* unconditional */
    assert_int_equal(s->r[1][4], 0x204u);
    assert_int_equal(s->r[2][4], 0x104u);
    /* VEC_MIN_MAX (1): VD = min, VC = max, in FP32's total order. */
    const uint32_t c[6] = {F_1, F_N0, F_QNAN, F_NINF, F_NQNAN, 0x80000005u};
    const uint32_t d[6] = {F_2, F_0, F_INF, F_N1, F_NINF, 0x80000003u};
    for (unsigned l = 0; l < 6; l++)
        s->r[1][l] = c[l], s->r[2][l] = d[l];
    sfp(s, TT_OP_SFPSWAP(0, 1, 2, 1));
    const uint32_t want_min[6] = {F_1, F_N0, F_INF, F_NINF, F_NQNAN, 0x80000005u};
    const uint32_t want_max[6] = {F_2, F_0, F_QNAN, F_N1, F_NINF, 0x80000003u};
    for (unsigned l = 0; l < 6; l++) {
        assert_int_equal(s->r[2][l], want_min[l]);
        assert_int_equal(s->r[1][l], want_max[l]);
    }
    /* The sub-vector modes: rows (of eight lanes) where VD gets the minimum, the others the maximum:
     * 2: rows 0-1, 3: rows 0 and 2, 4: rows 0 and 3, 5..8: row 0, 1, 2 or 3 alone; 9: none. */
    const uint8_t rows_min[10] = {0, 0xF, 0x3, 0x5, 0x9, 0x1, 0x2, 0x4, 0x8, 0x0};
    for (unsigned m = 2; m <= 10; m++) {
        for (unsigned l = 0; l < LANES; l++)
            s->r[1][l] = F_1, s->r[2][l] = F_2; /* VC smaller */
        sfp(s, TT_OP_SFPSWAP(0, 1, 2, m));
        unsigned rm = m <= 9 ? rows_min[m] : 0; /* 10 and above: NonContractualBehavior, as 9 */
        for (unsigned l = 0; l < LANES; l++) {
            bool min = (rm >> (l / 8)) & 1;
            assert_int_equal(s->r[2][l], min ? F_1 : F_2);
            assert_int_equal(s->r[1][l], min ? F_2 : F_1);
        }
    }
    /* EXCHANGE_SRCB_SRCC inverts the decision in its lane. */
    fill(s, 1, F_1), fill(s, 2, F_2);
    sfpu_lane_config_w(s, 6, LC_EXCHANGE_SRCB_SRCC);
    sfp(s, TT_OP_SFPSWAP(0, 1, 2, 1));
    assert_int_equal(s->r[2][5], F_1);
    assert_int_equal(s->r[2][6], F_2);
    /* ENABLE_DEST_INDEX: VC and VD written only below 4, and LReg[4 + (VC & 3)] swaps with
     * LReg[4 + (VD & 3)] where the values would swap. */
    sfpu_lane_config_w(s, 6, 0);
    for (unsigned l = 0; l < LANES; l++)
        sfpu_lane_config_w(s, l, s->lane_config[l] | LC_ENABLE_DEST_INDEX);
    fill(s, 1, F_1), fill(s, 2, F_2), fill(s, 5, 55), fill(s, 6, 66);
    s->r[2][7] = F_HALF; /* lane 7 already ordered: nothing moves */
    sfp(s, TT_OP_SFPSWAP(0, 1, 2, 1));
    assert_int_equal(s->r[2][0], F_1);
    assert_int_equal(s->r[1][0], F_2);
    assert_int_equal(s->r[5][0], 66);
    assert_int_equal(s->r[6][0], 55);
    assert_int_equal(s->r[5][7], 55);
    assert_int_equal(s->r[2][7], F_HALF);
    for (unsigned l = 0; l < LANES; l++)
        sfpu_lane_config_w(s, l, 0);
    /* A constant register as VC: read, never written (VC < 8 only). */
    fill(s, 1, F_2);
    sfp(s, TT_OP_SFPSWAP(0, 10, 1, 1)); /* LReg[1] = min(2, LReg[10] = 1) */
    expect_lanes(s, 1, ALL_LANES, F_1, 0);
    assert_int_equal(s->r[10][0], F_1);
    /* Under SFPLOADMACRO the second operand is VB (here LReg[14], -0.34484843): VC = max. */
    sfp_op_t o;
    sfpu_decode(TT_OP_SFPSWAP(0, 0, 14, 1), &o);
    o.vc = 0, o.vb = 14, o.vd = 0, o.macro = true;
    s->r[0][0] = 0xC2C80000u; /* -100 */
    s->r[0][1] = F_HALF;
    sfp_op(s, &o);
    assert_int_equal(s->r[0][0], 0xBEB08FF9u);
    assert_int_equal(s->r[0][1], F_HALF);
    assert_int_equal(s->r[14][0], 0xBEB08FF9u);
}

/* ---- SFPTRANSP.md ------------------------------------------------------------------------------ */

static void test_transp(void **state) {
    lregs_t *s = *state;
    for (unsigned r = 0; r < 8; r++)
        pattern(s, r);
    predicate(s, ~(1u << 9)); /* lane 9 (row 1, column 1) keeps its values */
    sfp(s, TT_OP_SFPTRANSP(0, 0, 0, 0));
    for (unsigned base = 0; base < 8; base += 4)
        for (unsigned i = 0; i < 4; i++)
            for (unsigned l = 0; l < LANES; l++) {
                unsigned row = l / 8, col = l % 8;
                /* LReg[base + i] row j takes LReg[base + j] row i (same column). */
                uint32_t want = l == 9 ? (base + i) << 8 | l : (base + row) << 8 | (i * 8 + col);
                assert_int_equal(s->r[base + i][l], want);
            }
}

/* ---- SFPSHFT2.md (Blackhole) ------------------------------------------------------------------- */

static void test_shft2(void **state) {
    lregs_t *s = *state;
    for (unsigned r = 0; r < 8; r++)
        pattern(s, r);
    sfp(s, TT_OP_SFPSHFT2(0, 0, 0, 0)); /* COPY4: L0..L2 = L1..L3, L3 = 0 */
    assert_int_equal(s->r[0][5], 0x105u);
    assert_int_equal(s->r[2][5], 0x305u);
    assert_int_equal(s->r[3][5], 0);
    for (unsigned r = 0; r < 4; r++)
        pattern(s, r);
    sfp(s, TT_OP_SFPSHFT2(0, 0, 0, 1)); /* CHAINED_COPY4: L3 = old L0 eight lanes on, 0 in the last row */
    for (unsigned l = 0; l < LANES; l++)
        assert_int_equal(s->r[3][l], l < 24 ? (uint32_t)(l + 8) : 0);
    assert_int_equal(s->r[0][2], 0x102u);
    for (unsigned r = 0; r < 8; r++)
        pattern(s, r);
    sfp(s, TT_OP_SFPSHFT2(0, 6, 0, 2)); /* SHFLROR1_AND_COPY4: L3 = L6 rotated right within rows */
    for (unsigned l = 0; l < LANES; l++)
        assert_int_equal(s->r[3][l], 0x600u | ((l & 7) ? l - 1 : l + 7));
    assert_int_equal(s->r[2][4], 0x304u);
    sfp(s, TT_OP_SFPSHFT2(0, 6, 5, 3)); /* SHFLROR1: VD = the rotation */
    for (unsigned l = 0; l < LANES; l++)
        assert_int_equal(s->r[5][l], 0x600u | ((l & 7) ? l - 1 : l + 7));
    sfp(s, TT_OP_SFPSHFT2(0, 6, 5, 4)); /* SHFLSHR1: shifted right, zero into column 0 */
    for (unsigned l = 0; l < LANES; l++)
        assert_int_equal(s->r[5][l], (l & 7) ? (0x600u | (l - 1)) : 0);
    predicate(s, 0xFFFFFFFEu); /* a disabled lane keeps its value, and still feeds its neighbour */
    sfp(s, TT_OP_SFPSHFT2(0, 6, 5, 3));
    assert_int_equal(s->r[5][0], 0);
    assert_int_equal(s->r[5][1], 0x600u);
    s->use_flags = 0;
    /* SHFT_LREG (5): VD = VB << VC, or >> -VC, modulo 32. */
    fill(s, 1, 0x80000001u);
    s->r[2][0] = 4, s->r[2][1] = (uint32_t)-4, s->r[2][2] = 36, s->r[2][3] = 0x80000000u;
    sfp(s, TT_OP_SFPSHFT2(1, 2, 3, 5));
    assert_int_equal(s->r[3][0], 0x00000010u);
    assert_int_equal(s->r[3][1], 0x08000000u); /* logical (check_fields: not a field) */
    assert_int_equal(s->r[3][2], 0x00000010u);
    assert_int_equal(s->r[3][3], 0x80000001u); /* -2^31: >> 0 (its negation mod 32; no overflow) */
    /* SHFT_IMM (6): VB = Imm12 & 15, shifted by the signed Imm12. */
    sfp(s, TT_OP_SFPSHFT2(0x011, 0, 3, 6)); /* LReg[1] << 17 */
    expect_lanes(s, 3, ALL_LANES, 0x00020000u, 0);
    sfp(s, TT_OP_SFPSHFT2(0xFF1, 0, 3, 6)); /* -15: LReg[1] >> 15 */
    expect_lanes(s, 3, ALL_LANES, 0x00010000u, 0);
    assert_int_equal(sfp_try(s, TT_OP_SFPSHFT2(0, 0, 3, 7)), CP_ERR_UNDEFINED);
}

/* ---- SFPLOADI.md ------------------------------------------------------------------------------- */

static void test_loadi(void **state) {
    lregs_t *s = *state;
    sfp(s, TT_OP_SFPLOADI(1, 0, 0xC0A0));
    expect_lanes(s, 1, ALL_LANES, 0xC0A00000u, 0); /* BF16 -5 */
    sfp(s, TT_OP_SFPLOADI(1, 1, 0xC500));
    expect_lanes(s, 1, ALL_LANES, 0xC0A00000u, 0); /* FP16 -5: exponent 17 + 112 */
    sfp(s, TT_OP_SFPLOADI(1, 1, 0x0001));
    expect_lanes(s, 1, ALL_LANES, 0x38002000u, 0); /* FP16 exponent 0: rebiased all the same */
    sfp(s, TT_OP_SFPLOADI(1, 2, 0x8001));
    expect_lanes(s, 1, ALL_LANES, 0x00008001u, 0);
    sfp(s, TT_OP_SFPLOADI(1, 4, 0x8001));
    expect_lanes(s, 1, ALL_LANES, 0xFFFF8001u, 0);
    sfp(s, TT_OP_SFPLOADI(1, 8, 0x1234));
    expect_lanes(s, 1, ALL_LANES, 0x12348001u, 0);
    sfp(s, TT_OP_SFPLOADI(1, 10, 0x5678));
    expect_lanes(s, 1, ALL_LANES, 0x12345678u, 0);
    for (unsigned m = 0; m < 16; m++)
        if (m != 0 && m != 1 && m != 2 && m != 4 && m != 8 && m != 10)
            assert_int_equal(sfp_try(s, TT_OP_SFPLOADI(1, m, 0)), CP_ERR_UNDEFINED);
    predicate(s, 0xF0u);
    sfp(s, TT_OP_SFPLOADI(1, 2, 9));
    expect_lanes(s, 1, 0xF0u, 9, 0x12345678u);
    sfp(s, TT_OP_SFPLOADI(11, 2, 9)); /* LReg[11..14] are SFPCONFIG's */
    assert_int_equal(s->r[11][4], F_N1);
}

/* ---- SFPCONFIG.md ------------------------------------------------------------------------------ */

static void test_config(void **state) {
    lregs_t *s = *state;
    pattern(s, 0);
    sfp(s, TT_OP_SFPCONFIG(0, 2, 1)); /* InstructionTemplate[2]: LReg[0] lanes 0..7 down the rows; never Imm16 */
    for (unsigned l = 0; l < LANES; l++)
        assert_int_equal(s->lm_tmpl[l][2], l & 7);
    sfp(s, TT_OP_SFPCONFIG(0xBEEF, 5, 1)); /* Sequence[1] = Imm16 */
    assert_int_equal(s->lm_seq[17][1], 0xBEEF);
    sfp(s, TT_OP_SFPCONFIG(0, 6, 0)); /* Sequence[2] = LReg[0] */
    assert_int_equal(s->lm_seq[17][2], 1);
    sfp(s, TT_OP_SFPCONFIG(0xF123, 8, 1)); /* Misc: 12 bits */
    assert_int_equal(s->lm_misc[3], 0x123);
    sfp(s, TT_OP_SFPCONFIG(0x0F0, 8, 1 | 2)); /* OR */
    assert_int_equal(s->lm_misc[3], 0x1F3);
    sfp(s, TT_OP_SFPCONFIG(0x0F1, 8, 1 | 4)); /* AND */
    assert_int_equal(s->lm_misc[3], 0x0F1);
    sfp(s, TT_OP_SFPCONFIG(0x0FF, 8, 1 | 6)); /* XOR */
    assert_int_equal(s->lm_misc[3], 0x00E);
    sfp(s, TT_OP_SFPCONFIG(0xFFFF, 9, 1)); /* 9, 10: nothing */
    sfp(s, TT_OP_SFPCONFIG(0xFFFF, 10, 0));
    /* LReg[11..14] from LReg[0] lanes 0..7, or the defaults. */
    sfp(s, TT_OP_SFPCONFIG(0, 13, 0));
    for (unsigned l = 0; l < LANES; l++)
        assert_int_equal(s->r[13][l], l & 7);
    sfp(s, TT_OP_SFPCONFIG(0, 13, 1));
    expect_lanes(s, 13, ALL_LANES, 0xBF2CC4C7u, 0);
    sfp(s, TT_OP_SFPCONFIG(0, 11, 1));
    expect_lanes(s, 11, ALL_LANES, F_N1, 0);
    sfp(s, TT_OP_SFPCONFIG(0, 14, 1));
    expect_lanes(s, 14, ALL_LANES, 0xBEB08FF9u, 0);
    /* LaneConfig (18 bits): Imm16 keeps the bits above 15; LReg[0] may set them. */
    fill(s, 0, 0x3FFFFu);
    sfp(s, TT_OP_SFPCONFIG(0, 15, 0));
    assert_int_equal(s->lane_config[9], 0x3FFFFu);
    sfp(s, TT_OP_SFPCONFIG(0x00F0, 15, 1 | 4)); /* AND with 0x00F0, high bits put back */
    assert_int_equal(s->lane_config[9], 0x300F0u);
    sfp(s, TT_OP_SFPCONFIG(0x0003, 15, 1 | 6)); /* XOR */
    assert_int_equal(s->lane_config[9], 0x300F3u);
    sfp(s, TT_OP_SFPCONFIG(0x0000, 15, 1)); /* set: 0, high bits kept */
    assert_int_equal(s->lane_config[9], 0x30000u);
    /* IMM16_IS_LANE_MASK: only the columns whose Imm16 bit 2c is set. */
    pattern(s, 0);
    sfp(s, TT_OP_SFPCONFIG(0x0005, 12, 8)); /* columns 0 and 1 */
    assert_int_equal(s->r[12][8], 0);
    assert_int_equal(s->r[12][9], 1);
    assert_int_equal(s->r[12][10], 0x3B000000u); /* its power-on value (check_fields: not a field) */
    /* A column whose lane (0..7) is predicated off is skipped, whatever the row. */
    s->use_flags = 0x000000FFu, s->flags = 0x000000FEu;
    sfp(s, TT_OP_SFPCONFIG(0, 12, 0));
    assert_int_equal(s->r[12][8], 0);
    assert_int_equal(s->r[12][18], 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mov, sfpu_setup, sfpu_teardown),
        cmocka_unit_test_setup_teardown(test_swap, sfpu_setup, sfpu_teardown),
        cmocka_unit_test_setup_teardown(test_transp, sfpu_setup, sfpu_teardown),
        cmocka_unit_test_setup_teardown(test_shft2, sfpu_setup, sfpu_teardown),
        cmocka_unit_test_setup_teardown(test_loadi, sfpu_setup, sfpu_teardown),
        cmocka_unit_test_setup_teardown(test_config, sfpu_setup, sfpu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
