/* test/unit/test_sfpu_dst.c — SFPLOAD and SFPSTORE (coproc/sfpu.c) through dp_exec: every Mod0
 * format both ways, MOD0_FMT_SRCB's three resolutions (Blackhole's SFPU_DEST_FMT included), the Dst
 * address (Imm10, the math offset, the Dst RWC, DEST_REGW_BASE, the stack pointer's low bits, the
 * address modifier), the INT32_ALL stack addressing (Sp pre-decrement / post-increment, lanes
 * regardless of predication), and LaneConfig's column exchange, blocking and Dst-index capture.
 * Expected cells from BH SFPLOAD.md / SFPSTORE.md's conversion functions and Dst.md's layouts,
 * written out in sfpu_dp_test.h and below. */
#include "sfpu_dp_test.h"

/* ---- SFPLOAD.md: every Mod0 from a Dst16b cell (lane 0 reads row 0, column 0) ------------------- */

static uint32_t load16(dpf_t *f, unsigned mod0, uint16_t cell, uint32_t old) {
    dp_dst_mut(f->dp)->bits[0][0] = cell;
    dp_lregs_mut(f->dp)->r[1][0] = old;
    dpf_ex(f, TT_OP_SFPLOAD(1, mod0, 0, 0), 0);
    return dp_lregs(f->dp)->r[1][0];
}

static void test_load_formats(void **state) {
    dpf_t *f = *state;
    /* FP16 (1): exponent + 112 unless 0 (a denormal pattern stays one); the all-ones exponent and
     * mantissa is a large number, or with ENABLE_FP16A_INF infinity. */
    assert_int_equal(load16(f, 1, dst_fp16(0x3C00), 0), F_1);
    assert_int_equal(load16(f, 1, dst_fp16(0xC500), 0), 0xC0A00000u); /* -5 */
    assert_int_equal(load16(f, 1, dst_fp16(0x0001), 0), 0x00002000u);
    assert_int_equal(load16(f, 1, dst_fp16(0x7FFF), 0), 0x47FFE000u);
    for (unsigned l = 0; l < LANES; l++)
        sfpu_lane_config_w(dp_lregs_mut(f->dp), l, LC_ENABLE_FP16A_INF);
    assert_int_equal(load16(f, 1, dst_fp16(0xFFFF), 0), F_NINF);
    assert_int_equal(load16(f, 1, dst_fp16(0x7BFF), 0), 0x477FE000u); /* only the all-ones pattern */
    for (unsigned l = 0; l < LANES; l++)
        sfpu_lane_config_w(dp_lregs_mut(f->dp), l, 0);
    assert_int_equal(load16(f, 2, dst_bf16(0x3FC0), 0), F_1_5);               /* BF16 */
    assert_int_equal(load16(f, 5, 0x8000 | 200 << 5 | 0x1F, 0), 0x800000C8u); /* INT8: sign, 8 bits at 5 */
    assert_int_equal(load16(f, 5, 0x7FFF, 0), 0x000000FFu);                   /* Blackhole: up to 255 */
    assert_int_equal(load16(f, 13, 0xFFFF, 0), 0x800003FFu);                  /* INT8_COMP: 10 bits */
    assert_int_equal(load16(f, 14, 0xABCD, 0x12345678u), 0x1234ABCDu);        /* LO16_ONLY */
    assert_int_equal(load16(f, 15, 0xABCD, 0x12345678u), 0xABCD5678u);        /* HI16_ONLY */
    assert_int_equal(load16(f, 8, 0x8005, 0), 0x80000005u);                   /* INT16: sign-magnitude */
    assert_int_equal(load16(f, 6, 0x8005, 0xFFFFFFFFu), 0x00008005u);         /* UINT16 */
    assert_int_equal(load16(f, 9, 0x8005, 0xFFFFFFFFu), 0x00008005u);         /* LO16 */
    assert_int_equal(load16(f, 7, 0x8005, 0xFFFFFFFFu), 0x80050000u);         /* HI16 */
    assert_int_equal(load16(f, 11, 0x8005, 0xFFFFFFFFu), 0);                  /* ZERO */
    /* FP32, INT32 and the deprecated INT32_SM (3, 4, 12): the Dst32b datum as it is (no
     * sign-magnitude conversion on Blackhole). */
    dst_regs_t *d = dp_dst_mut(f->dp);
    dst32_put(d, 4, 0, 0xC0490FDBu);
    dst32_put(d, 4, 2, 0x80000007u);
    for (unsigned m = 3; m <= 12; m += (m == 4 ? 8 : 1)) {
        dpf_ex(f, TT_OP_SFPLOAD(2, m, 0, 4), 0);
        assert_int_equal(dp_lregs(f->dp)->r[2][0], 0xC0490FDBu);
        assert_int_equal(dp_lregs(f->dp)->r[2][1], 0x80000007u);
    }
}

/* ---- SFPSTORE.md: every Mod0 to a Dst cell ---------------------------------------------------- */

static uint16_t store16(dpf_t *f, unsigned mod0, uint32_t v) {
    dp_lregs_mut(f->dp)->r[1][0] = v;
    dpf_ex(f, TT_OP_SFPSTORE(1, mod0, 0, 0), 0);
    return dp_dst(f->dp)->bits[0][0];
}

static void test_store_formats(void **state) {
    dpf_t *f = *state;
    /* FP16 (1): exponent - 112, flushed to signed zero at <= 0, saturated above 31 (NaN and Inf too),
     * mantissa truncated. */
    assert_int_equal(store16(f, 1, F_1), dst_fp16(0x3C00));
    assert_int_equal(store16(f, 1, 0x3F801FFFu), dst_fp16(0x3C00));
    const uint32_t tiny = 0xB8000000u; /* -2^-15: exponent 112 -> 0 (check_fields: not a field) */
    assert_int_equal(store16(f, 1, tiny), dst_fp16(0x8000));
    assert_int_equal(store16(f, 1, 0x501502F9u), dst_fp16(0x7FFF)); /* 1e10 */
    assert_int_equal(store16(f, 1, F_NQNAN), dst_fp16(0xFFFF));
    /* BF16 (2): flush, then truncate. */
    assert_int_equal(store16(f, 2, 0x3F80FFFFu), dst_bf16(0x3F80));
    assert_int_equal(store16(f, 2, 0x807FFFFFu), dst_bf16(0x8000));
    assert_int_equal(store16(f, 2, 0x7F800001u), dst_bf16(0x7F80)); /* a NaN with only low bits */
    /* INT8 and INT8_COMP (5, 13): SignMag11ToFP16, the fixed exponent 16. */
    assert_int_equal(store16(f, 5, 0x8000007Fu), dst_fp16(0x8000 | 16 << 10 | 0x7F));
    assert_int_equal(store16(f, 13, 0x000003FFu), dst_fp16(16 << 10 | 0x3FF));
    assert_int_equal(store16(f, 5, 0), dst_fp16(16 << 10));
    assert_int_equal(store16(f, 14, 0x1234ABCDu), 0xABCD); /* LO16_ONLY */
    assert_int_equal(store16(f, 6, 0x1234ABCDu), 0xABCD);  /* UINT16 */
    assert_int_equal(store16(f, 15, 0x1234ABCDu), 0x1234); /* HI16_ONLY */
    assert_int_equal(store16(f, 8, 0x80012345u), 0xA345);  /* INT16: sign and 15 magnitude bits */
    assert_int_equal(store16(f, 11, 0x1234ABCDu), 0);      /* ZERO */
    /* The 32-bit stores: FP32 flushes denormals (Blackhole), INT32 / INT32_SM as they are — all
     * through DstEncodeFP32 — while LO16 (rotated) and HI16 write opaque bits, the high half to the
     * first physical row as it is. */
    const dst_regs_t *d = dp_dst(f->dp);
    const struct {
        unsigned mod0;
        uint32_t in, out;
    } w32[] = {
        {3, 0x00000001u, 0},           {3, 0x807FFFFFu, F_N0},         {3, 0xC0490FDBu, 0xC0490FDBu},
        {4, 0x00000001u, 0x00000001u}, {12, 0x80000005u, 0x80000005u},
    };
    for (unsigned i = 0; i < sizeof w32 / sizeof w32[0]; i++) {
        dp_lregs_mut(f->dp)->r[1][0] = w32[i].in;
        dpf_ex(f, TT_OP_SFPSTORE(1, w32[i].mod0, 0, 8), 0);
        if (dst32_get(d, 8, 0) != w32[i].out)
            fail_msg("Mod0 %u: 0x%08x -> 0x%08x, want 0x%08x", w32[i].mod0, w32[i].in, dst32_get(d, 8, 0), w32[i].out);
    }
    unsigned p = dst32_row(8);
    dp_lregs_mut(f->dp)->r[1][0] = 0x1234ABCDu;
    dpf_ex(f, TT_OP_SFPSTORE(1, 9, 0, 8), 0); /* LO16 */
    assert_int_equal(d->bits[p][0], 0xABCD);
    assert_int_equal(d->bits[p + 8][0], 0x1234);
    dpf_ex(f, TT_OP_SFPSTORE(1, 7, 0, 8), 0); /* HI16 */
    assert_int_equal(d->bits[p][0], 0x1234);
    assert_int_equal(d->bits[p + 8][0], 0xABCD);
}

/* ---- MOD0_FMT_SRCB (SFPLOAD.md, SFPSTORE.md) ---------------------------------------------------- */

static void test_srcb(void **state) {
    dpf_t *f = *state;
    dst_regs_t *d = dp_dst_mut(f->dp);
    d->bits[0][0] = dst_bf16(0x3FC0); /* BF16 1.5 */
    d->bits[0][2] = dst_fp16(0x3E00); /* FP16 1.5 */
    dst32_put(d, 0, 4, 0x3FC00001u);
    const lregs_t *l = dp_lregs(f->dp);
    /* SrcB format FP32 (0, the reset value): BF16 mode. */
    dpf_ex(f, TT_OP_SFPLOAD(1, 0, 0, 0), 0);
    assert_int_equal(l->r[1][0], F_1_5);
    /* SrcB FP16 (1) by ALU_FORMAT_SPEC_REG1_SrcB: FP16 mode. */
    cfg_set(&f->st, 0, CFG_ALU_FORMAT_SPEC_REG1_SrcB, 1);
    dpf_ex(f, TT_OP_SFPLOAD(1, 0, 0, 0), 0);
    assert_int_equal(l->r[1][1], F_1_5);
    /* The override (SrcB_val = BF16) wins over REG1; Blackhole's SFPU_DEST_FMT wins over both. */
    cfg_set(&f->st, 0, CFG_ALU_FORMAT_SPEC_REG_SrcB_override, 1);
    cfg_set(&f->st, 0, CFG_ALU_FORMAT_SPEC_REG_SrcB_val, 5);
    dpf_ex(f, TT_OP_SFPLOAD(1, 0, 0, 0), 0);
    assert_int_equal(l->r[1][0], F_1_5);
    thcfg_set(&f->st, 1, THCFG_SFPU_DEST_FMT_Enable, 1);
    thcfg_set(&f->st, 1, THCFG_SFPU_DEST_FMT_Base, 10); /* FP8: not the 8-bit-exponent family: FP16 */
    dpf_ex(f, TT_OP_SFPLOAD(1, 0, 0, 0), 0);
    assert_int_equal(l->r[1][1], F_1_5);
    /* ALU_ACC_CTRL_SFPU_Fp32_enabled: FP32 whatever the format. */
    cfg_set(&f->st, 0, CFG_ALU_ACC_CTRL_SFPU_Fp32_enabled, 1);
    dpf_ex(f, TT_OP_SFPLOAD(1, 0, 0, 0), 0);
    assert_int_equal(l->r[1][2], 0x3FC00001u);
    dp_lregs_mut(f->dp)->r[2][0] = 0x00000001u; /* and the store: FP32, flushing */
    dpf_ex(f, TT_OP_SFPSTORE(2, 0, 0, 0), 0);
    assert_int_equal(dst32_get(d, 0, 0), 0);
}

/* ---- addressing ------------------------------------------------------------------------------- */

static void test_addressing(void **state) {
    dpf_t *f = *state;
    dst_regs_t *d = dp_dst_mut(f->dp);
    for (unsigned r = 0; r < 64; r++)
        for (unsigned c = 0; c < 16; c++)
            d->bits[r][c] = (uint16_t)(r << 8 | c);
    const lregs_t *l = dp_lregs(f->dp);
    /* Addr = Imm10 + MATH_Offset + RWC.Dst + DEST_REGW_BASE (+ (Sp + DEST_SP_BASE) & 3); lane L reads
     * row (Addr & ~3) + L / 8, column 2 (L % 8), + 1 when Addr bit 1 is set. UINT16 keeps the cell. */
    thcfg_set(&f->st, 1, THCFG_DEST_TARGET_REG_CFG_MATH_Offset, 8);
    cfg_set(&f->st, 0, CFG_DEST_REGW_BASE_Base, 4);
    thcfg_set(&f->st, 1, THCFG_ADDR_MOD_DST_SEC0_DestIncr, 6); /* AddrMod 0: Dst += 6 */
    dpf_ex(f, TT_OP_SFPLOAD(1, 6, 0, 2), 0);                   /* Addr 14: rows 12..15, odd columns */
    for (unsigned L = 0; L < LANES; L++)
        assert_int_equal(l->r[1][L], (12 + L / 8) << 8 | (2 * (L % 8) + 1));
    assert_int_equal(dp_rwc(f->dp, 1)->dst, 6);
    assert_int_equal(dp_rwc(f->dp, 1)->fidelity, 0);
    dpf_ex(f, TT_OP_SFPLOAD(1, 6, 1, 0), 0); /* Addr 8 + 6 + 4 = 18: rows 16..19, odd; AddrMod 1: nothing */
    assert_int_equal(l->r[1][9], 17 << 8 | 3);
    assert_int_equal(dp_rwc(f->dp, 1)->dst, 6);
    /* The stack pointer's low two bits add in (DEST_SP_BASE here). */
    cfg_set(&f->st, 0, CFG_DEST_SP_BASE_Base, 2);
    dpf_ex(f, TT_OP_SFPLOAD(1, 6, 1, 0), 0); /* Addr 20: rows 20..23, even */
    assert_int_equal(l->r[1][0], 20 << 8 | 0);
    cfg_set(&f->st, 0, CFG_DEST_SP_BASE_Base, 0);
    thcfg_set(&f->st, 1, THCFG_DEST_TARGET_REG_CFG_MATH_Offset, 0);
    cfg_set(&f->st, 0, CFG_DEST_REGW_BASE_Base, 0);
    /* LaneConfig: DEST_RD_COL_EXCHANGE (of lane & 7) forces odd columns; BLOCK_SFPU_RD_FROM_DEST
     * keeps a lane's LReg; ENABLE_DEST_INDEX + CAPTURE_DEFAULT_DEST_INDEX write row << 4 | column to
     * LReg[VD + 4] (VD < 4). */
    lregs_t *lm = dp_lregs_mut(f->dp);
    sfpu_lane_config_w(lm, 1, LC_DEST_RD_COL_EXCHANGE);
    sfpu_lane_config_w(lm, 2, LC_BLOCK_SFPU_RD_FROM_DEST);
    for (unsigned L = 0; L < LANES; L++)
        sfpu_lane_config_w(lm, L, lm->lane_config[L] | LC_ENABLE_DEST_INDEX | LC_CAPTURE_DEFAULT_DEST_INDEX);
    lm->r[1][2] = 0xDEAD;
    dpf_ex(f, TT_OP_SETRWC(0, 0, 0, 0, 0, 4), 0); /* Dst RWC := 0 */
    dpf_ex(f, TT_OP_SFPLOAD(1, 6, 1, 4), 0);      /* Addr 4: rows 4..7, even */
    assert_int_equal(l->r[1][0], 4 << 8 | 0);
    assert_int_equal(l->r[1][1], 4 << 8 | 3); /* exchanged: odd */
    assert_int_equal(l->r[1][9], 5 << 8 | 3); /* lane 9's column is 1: LaneConfig[1] */
    assert_int_equal(l->r[1][2], 0xDEAD);     /* blocked */
    assert_int_equal(l->r[5][0], 4 << 4 | 0); /* the index */
    assert_int_equal(l->r[5][9], 5 << 4 | 3);
    for (unsigned L = 0; L < LANES; L++)
        sfpu_lane_config_w(lm, L, 0);
    /* The store's side: DEST_WR_COL_EXCHANGE, BLOCK_DEST_WR_FROM_SFPU; predication. */
    sfpu_lane_config_w(lm, 0, LC_DEST_WR_COL_EXCHANGE);
    sfpu_lane_config_w(lm, 3, LC_BLOCK_DEST_WR_FROM_SFPU);
    fill(lm, 2, 0xBEEF);
    predicate(lm, ~(1u << 4));
    dpf_ex(f, TT_OP_SFPSTORE(2, 6, 1, 32), 0);     /* rows 32..35, even */
    assert_int_equal(d->bits[32][0], 32 << 8 | 0); /* lane 0 went to column 1 */
    assert_int_equal(d->bits[32][1], 0xBEEF);
    assert_int_equal(d->bits[32][2], 0xBEEF);
    assert_int_equal(d->bits[32][6], 32 << 8 | 6); /* lane 3 blocked */
    assert_int_equal(d->bits[32][8], 32 << 8 | 8); /* lane 4 disabled */
    assert_int_equal(d->bits[33][1], 0xBEEF);      /* lane 8: column 0 -> exchanged too */
}

/* ---- INT32_ALL (10): the Blackhole stack addressing (SFPLOAD.md, SFPSTORE.md) ------------------- */

static void test_int32_all(void **state) {
    dpf_t *f = *state;
    lregs_t *lm = dp_lregs_mut(f->dp);
    thcfg_set(&f->st, 1, THCFG_SFPU_STACK_Incr, 4);
    cfg_set(&f->st, 0, CFG_DEST_SP_BASE_Base, 40);
    predicate(lm, 0); /* INT32_ALL ignores LaneEnabled */
    for (unsigned i = 0; i < 3; i++) {
        fill(lm, 1, 0x100u + i);
        dpf_ex(f, TT_OP_SFPSTORE(1, 10, 1, 0), 0); /* Addr = Sp + 40 (+ Dst & 3); then Sp += 4 */
        assert_int_equal(dp_rwc(f->dp, 1)->sp, 4 * (i + 1));
    }
    const dst_regs_t *d = dp_dst(f->dp);
    assert_int_equal(dst32_get(d, 40, 0), 0x100u);
    assert_int_equal(dst32_get(d, 44, 0), 0x101u);
    assert_int_equal(dst32_get(d, 48, 14), 0x102u);
    /* Loads pop: Sp -= 4 first (when nonzero), then Addr = Sp + 40. */
    dpf_ex(f, TT_OP_SFPLOAD(2, 10, 1, 0), 0);
    assert_int_equal(lm->r[2][31], 0x102u);
    dpf_ex(f, TT_OP_SFPLOAD(2, 10, 1, 0), 0);
    dpf_ex(f, TT_OP_SFPLOAD(2, 10, 1, 0), 0);
    assert_int_equal(lm->r[2][0], 0x100u);
    assert_int_equal(dp_rwc(f->dp, 1)->sp, 0);
    dpf_ex(f, TT_OP_SFPLOAD(2, 10, 1, 0), 0); /* Sp 0: not decremented */
    assert_int_equal(dp_rwc(f->dp, 1)->sp, 0);
    assert_int_equal(lm->r[2][0], 0x100u);
    /* The other modes see Sp's low two bits only: a Dst RWC of 1 adds to INT32_ALL's address. */
    cfg_set(&f->st, 0, CFG_DEST_SP_BASE_Base, 0);
    lm->use_flags = 0;
    fill(lm, 1, 0x777u);
    dpf_ex(f, TT_OP_SFPSTORE(1, 4, 1, 60), 0);    /* INT32 at 60 */
    dpf_ex(f, TT_OP_SETRWC(0, 0, 1, 0, 0, 4), 0); /* Dst RWC := 1 */
    thcfg_set(&f->st, 1, THCFG_SFPU_STACK_Incr, 0);
    dpf_ex(f, TT_OP_SFPLOAD(3, 10, 1, 60), 0); /* 60 + Sp 0 + (Dst & 3 = 1): the same rows, bit 0 unused */
    assert_int_equal(lm->r[3][0], 0x777u);
}

/* ---- the address modifier after SFPLOAD and SFPSTORE (RWCs.md ApplyAddrMod, no Fidelity): each of
 * the eight sections with one word set (ThreadConfig words 12 + i AB, 28 + i DST, 47 + i BIAS), the
 * others all zeros; written after a first SFPLOAD with every section zero --------------------- */

static void test_addr_mod_sections(void **state) {
    dpf_t *f = *state;
    const rwc_t *r = dp_rwc(f->dp, 1);
    unsigned a = 0, b = 0, d = 0, bias = 0;
    dpf_ex(f, TT_OP_SFPLOAD(1, 6, 0, 0), 0);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned k = 0; k < 3; k++) {
            const unsigned word[3] = {12, 28, 47}, val[3] = {5 | 3u << 8, 7, 1}; /* SrcA 5, SrcB 3; Dst 7; Bias 1 */
            st_thdcfg_w(&f->st, 1, word[k] + i, (uint16_t)val[k]);
            for (unsigned n = 0; n < 2; n++) {
                dpf_ex(f, n ? TT_OP_SFPSTORE(1, 6, i, 0) : TT_OP_SFPLOAD(1, 6, i, 0), 0);
                if (k == 0) a = (a + 5) & 63, b = (b + 3) & 63;
                if (k == 1) d = (d + 7) & 1023;
                if (k == 2) bias ^= 1;
                dpf_ex(f, TT_OP_SFPLOAD(1, 6, (i + 1) & 7, 0), 0); /* a section of zeros: nothing */
                assert_int_equal(r->srca, a);
                assert_int_equal(r->srcb, b);
                assert_int_equal(r->dst, d);
                assert_int_equal(r->bias, bias);
                assert_int_equal(r->fidelity, 0);
            }
            st_thdcfg_w(&f->st, 1, word[k] + i, 0);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_load_formats, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_store_formats, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_srcb, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_addressing, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_int32_all, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_addr_mod_sections, dpf_setup, dpf_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
