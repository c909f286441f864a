/* test/unit/test_sfpu_macro.c — SFPLOADMACRO (coproc/sfpu_macro.c) through dp_exec with explicit
 * cycles: LoadMacroConfig written as software does it (templates through the VD >= 12 "backdoor",
 * sequences and Misc through SFPCONFIG), the scheduled instructions' operand rewriting, their delays
 * in cycles and in issued instructions, LReg[16], the store's address, the forget and discard rules,
 * a software pipeline that reuses each LReg four cycles later (all instructions of a cycle read the
 * registers as they were when it began), the refused configurations — and the PRNG's seed register.
 * Expected values: each element x becomes -|2x + 1| (exact for the small integers used), computed
 * here; the timing facts are SFPLOADMACRO.md's. */
#include "sfpu_dp_test.h"

/* (White box for test_kept_pacr_after_store: the packer's light runs, packer_t.light_runs.) */
#include "coproc/dp_internal.h"
#include "coproc/formats.h"

#define IDLE                 TT_OP_SETADCXX(1, 0, 0) /* a datapath instruction of another unit: time passes */
#define MACRO_MISC_LOAD_MOD0 0x010u                  /* Misc.UsesLoadMod0ForStore for macro 0 */

/* LReg[0] lanes 0..7 := v (SFPLOADI upper then lower), as tt-llk writes SFPCONFIG's source. */
static void lreg0(dpf_t *f, uint32_t v, uint64_t *c) {
    dpf_ex(f, TT_OP_SFPLOADI(0, 8, v >> 16), (*c)++);
    dpf_ex(f, TT_OP_SFPLOADI(0, 10, v & 0xFFFF), (*c)++);
}

/* The configuration every test starts from: LReg[12] = 2.0, LReg[13] = 1.0; template 0 =
 * SFPMAD(LReg[12] * VB + LReg[13]), template 1 = SFPSETSGN(Imm1 = 1) of VC, both written through the
 * backdoor (VD 12 and 13); sequence 0 = seq; Misc = misc. Cycles from *c on. */
static void config(dpf_t *f, uint32_t seq, uint32_t misc, uint64_t *c) {
    lreg0(f, F_2, c);
    dpf_ex(f, TT_OP_SFPCONFIG(0, 12, 0), (*c)++);
    lreg0(f, F_1, c);
    dpf_ex(f, TT_OP_SFPCONFIG(0, 13, 0), (*c)++);
    dpf_ex(f, TT_OP_SFPMAD(12, 0, 13, 12, 0), (*c)++); /* backdoor: template 0 */
    dpf_ex(f, TT_OP_SFPSETSGN(1, 0, 13, 1), (*c)++);   /* backdoor: template 1 */
    lreg0(f, seq, c);
    dpf_ex(f, TT_OP_SFPCONFIG(0, 4, 0), (*c)++);
    dpf_ex(f, TT_OP_SFPCONFIG(misc, 8, 1), (*c)++);
}

/* Dst (FP32) rows 4k..4k+3, even columns, element x = 32k + lane + 1 for k < n. */
static void dst_elements(dpf_t *f, unsigned n) {
    dst_regs_t *d = dp_dst_mut(f->dp);
    for (unsigned k = 0; k < n; k++)
        for (unsigned l = 0; l < LANES; l++)
            dst32_put(d, 4 * k + l / 8, 2 * (l % 8), f2u((float)(32 * k + l + 1)));
}
static float element(unsigned k, unsigned l) { return (float)(32 * k + l + 1); }

/* SFPLOADMACRO of macro mi into LReg[vd] (0..7), FP32, Imm10 = imm (even), AddrMod am. */
static uint32_t loadmacro(unsigned mi, unsigned vd, unsigned imm, unsigned am) {
    return TT_OP_SFPLOADMACRO(mi << 2 | (vd & 3), 3, am, (imm & ~1u) | (vd >> 2));
}

/* ---- the backdoor and SFPCONFIG wrote what the tests rely on ----------------------------------- */

static void test_config_written(void **state) {
    dpf_t *f = *state;
    uint64_t c = 0;
    config(f, 0x13008400u, MACRO_MISC_LOAD_MOD0, &c);
    const lregs_t *l = dp_lregs(f->dp);
    for (unsigned L = 0; L < LANES; L++) {
        assert_int_equal(l->lm_tmpl[L][0], TT_OP_SFPMAD(12, 0, 13, 12, 0));
        assert_int_equal(l->lm_tmpl[L][1], TT_OP_SFPSETSGN(1, 0, 13, 1));
        assert_int_equal(l->lm_seq[L][0], 0x13008400u);
        assert_int_equal(l->lm_misc[L], MACRO_MISC_LOAD_MOD0);
    }
    assert_int_equal(l->r[12][9], F_2);
    assert_int_equal(l->r[13][9], F_1); /* the backdoor SFPMAD / SFPSETSGN computed nothing */
    /* With DISABLE_BACKDOOR_LOAD set, VD >= 12 means the register: SFPSTORE stores LReg[12]. */
    dpf_ex(f, TT_OP_SFPCONFIG(LC_DISABLE_BACKDOOR_LOAD, 15, 1 | 2), c++);
    dpf_ex(f, TT_OP_SFPSTORE(12, 3, 0, 0), c++);
    assert_int_equal(dst32_get(dp_dst(f->dp), 0, 0), F_2);
    assert_int_equal(l->lm_tmpl[0][0], TT_OP_SFPMAD(12, 0, 13, 12, 0));
}

/* ---- an SFPLOADMACRO with an all-zero configuration is an SFPLOAD -------------------------------- */

static void test_zero_config(void **state) {
    dpf_t *f = *state;
    dst_elements(f, 1);
    dpf_ex(f, loadmacro(0, 5, 0, 0), 0);
    assert_int_equal(dp_lregs(f->dp)->r[5][3], f2u(element(0, 3)));
    dpf_ex(f, IDLE, 100);
    assert_int_equal(dp_lregs(f->dp)->r[5][3], f2u(element(0, 3)));
}

/* ---- delays in cycles: MAD on the next cycle, SFPSTORE two later, at SFPLOADMACRO's address ------ */

static void test_delays(void **state) {
    dpf_t *f = *state;
    uint64_t c = 0;
    /* MAD sub-unit: template 0 (4), delay 0, VB := VD (0x80); store: SFPSTORE (3), delay 2. */
    config(f, 0x13008400u, MACRO_MISC_LOAD_MOD0, &c);
    dst_elements(f, 2);
    const lregs_t *l = dp_lregs(f->dp);
    const dst_regs_t *d = dp_dst(f->dp);
    thcfg_set(&f->st, 1, THCFG_ADDR_MOD_DST_SEC0_DestIncr, 4); /* AddrMod 0 moves the Dst RWC on */
    dpf_ex(f, loadmacro(0, 2, 0, 0), 100);
    assert_int_equal(l->r[2][7], f2u(element(0, 7)));
    assert_int_equal(dp_rwc(f->dp, 1)->dst, 4);
    dpf_ex(f, IDLE, 101); /* the MAD's cycle */
    assert_int_equal(l->r[2][7], f2u(2 * element(0, 7) + 1));
    assert_int_equal(dst32_get(d, 0, 14), f2u(element(0, 7)));
    dpf_ex(f, IDLE, 102);
    assert_int_equal(dst32_get(d, 0, 14), f2u(element(0, 7)));
    dpf_ex(f, IDLE, 103); /* the store's: SFPLOADMACRO's address (rows 0..3), not the RWC's now */
    assert_int_equal(dst32_get(d, 0, 14), f2u(2 * element(0, 7) + 1));
    assert_int_equal(dst32_get(d, 4, 14), f2u(element(1, 7)));
    /* A regular instruction issued on the MAD's cycle reads the registers as they were. */
    dpf_ex(f, loadmacro(0, 3, 0, 1), 200); /* Imm10 0 + the Dst RWC's 4: element 1 */
    dpf_ex(f, TT_OP_SFPMOV(0, 3, 4, 0), 201);
    dpf_ex(f, TT_OP_SFPMOV(0, 3, 5, 0), 202);
    assert_int_equal(l->r[4][0], f2u(element(1, 0)));
    assert_int_equal(l->r[5][0], f2u(2 * element(1, 0) + 1));
}

/* A scheduled instruction runs in its SFPLOADMACRO's thread's context, whatever thread's instruction
 * lets it happen. The store's Mod0 is SRCB (Misc 0): FP16 for thread 1 (its SFPU_DEST_FMT, FP16; its
 * Config bank 0 without SFPU_Fp32_enabled); thread 2, whose instruction brings the store's cycle,
 * would make it BF16 (no SFPU_DEST_FMT) and its bank 1 FP32. */
static void test_other_thread(void **state) {
    dpf_t *f = *state;
    uint64_t c = 0;
    config(f, 0x13008400u, 0, &c);
    dst_elements(f, 1);
    thcfg_set(&f->st, 1, THCFG_SFPU_DEST_FMT_Enable, 1);
    thcfg_set(&f->st, 1, THCFG_SFPU_DEST_FMT_Base, 1); /* FP16 */
    cfg_set(&f->st, 1, CFG_ALU_ACC_CTRL_SFPU_Fp32_enabled, 1);
    thcfg_set(&f->st, 2, THCFG_CFG_STATE_ID_StateID, 1);
    dpf_ex(f, loadmacro(0, 2, 0, 0), 100);
    dpf_ex(f, IDLE, 101);
    assert_int_equal(dpf_run(f, 2, IDLE, 103), CP_ERR_NONE);        /* thread 2: the store's cycle */
    assert_int_equal(dp_dst(f->dp)->bits[0][14], dst_fp16(0x4C40)); /* 17.0 = 2 * 8 + 1 in FP16 */
}

/* ---- an SFPADDI template: VB := VD leaves VC the template's VD ---------------------------------- */

/* SFPADDI(1.0) written to template 0 through the backdoor (VD 12), sequence 0 its MAD sub-unit,
 * delay 0, VB := VD (0x80): VC stays the template's VD, LReg[12] (2.0), and the sum goes to the
 * SFPLOADMACRO's VD, 3.0 in every lane whatever was loaded there (coproc/sfpu_fp.c sfpu_addi works
 * VD in place only where VC is VD). */
static void test_addi_template(void **state) {
    dpf_t *f = *state;
    uint64_t c = 0;
    config(f, 0x00008400u, MACRO_MISC_LOAD_MOD0, &c);
    dpf_ex(f, TT_OP_SFPADDI(0x3F80, 12, 0), c++); /* backdoor: template 0 */
    dst_elements(f, 1);
    dpf_ex(f, loadmacro(0, 2, 0, 0), 100);
    assert_int_equal(dp_lregs(f->dp)->r[2][5], f2u(element(0, 5)));
    dpf_ex(f, IDLE, 101); /* the MAD's cycle */
    for (unsigned l = 0; l < LANES; l++)
        assert_int_equal(dp_lregs(f->dp)->r[2][l], f2u(3.0f));
    assert_int_equal(dp_lregs(f->dp)->r[12][0], F_2);
}

/* ---- the discard rule: a scheduled instruction takes its sub-unit from software's ------------- */

static void test_discard(void **state) {
    dpf_t *f = *state;
    uint64_t c = 0;
    config(f, 0x00008400u, 0, &c);
    dst_elements(f, 1);
    lregs_t *l = dp_lregs_mut(f->dp);
    fill(l, 6, F_0);
    dpf_ex(f, loadmacro(0, 2, 0, 0), 100);
    dpf_ex(f, TT_OP_SFPADDI(0x3F80, 6, 0), 101); /* a MAD-sub-unit instruction on the MAD's cycle */
    assert_int_equal(l->r[6][0], F_0);           /* discarded */
    assert_int_equal(l->r[2][0], f2u(2 * element(0, 0) + 1));
    dpf_ex(f, TT_OP_SFPADDI(0x3F80, 6, 0), 102); /* the next cycle: it runs */
    assert_int_equal(l->r[6][0], F_1);
    dpf_ex(f, loadmacro(0, 2, 0, 0), 200);
    dpf_ex(f, TT_OP_SFPMOV(0, 2, 7, 0), 201); /* the simple sub-unit is free: it runs */
    assert_int_equal(l->r[7][0], f2u(element(0, 0)));
}

/* ---- the forget rule: a new instruction for the same sub-unit and time replaces the older ------- */

static void test_forget(void **state) {
    dpf_t *f = *state;
    uint64_t c = 0;
    config(f, 0x00009400u, 0, &c); /* macro 0: MAD with delay 2 */
    lreg0(f, 0x00008C00u, &c);     /* macro 1: MAD with delay 1 */
    dpf_ex(f, TT_OP_SFPCONFIG(0, 5, 0), c++);
    dst_elements(f, 2);
    const lregs_t *l = dp_lregs(f->dp);
    dpf_ex(f, loadmacro(0, 0, 0, 1), 100); /* its MAD due at 103 */
    dpf_ex(f, loadmacro(1, 1, 4, 1), 101); /* its MAD due at 103 too: the first one is forgotten */
    dpf_ex(f, IDLE, 110);
    assert_int_equal(l->r[0][0], f2u(element(0, 0)));
    assert_int_equal(l->r[1][0], f2u(2 * element(1, 0) + 1));
    /* Delay 7 forgets nothing. */
    dpf_ex(f, TT_OP_SFPLOADI(0, 8, 0), c++);
    dpf_ex(f, TT_OP_SFPLOADI(0, 10, 0xBC00), c++);
    dpf_ex(f, TT_OP_SFPCONFIG(0, 4, 0), 120); /* macro 0: MAD, delay 7 */
    dpf_ex(f, loadmacro(0, 2, 0, 1), 200);
    dpf_ex(f, loadmacro(0, 3, 4, 1), 201);
    dpf_ex(f, IDLE, 220);
    assert_int_equal(l->r[2][0], f2u(2 * element(0, 0) + 1));
    assert_int_equal(l->r[3][0], f2u(2 * element(1, 0) + 1));
}

/* ---- a software pipeline (the shape of tt-llk's exp macros): eight SFPLOADMACROs on consecutive
 * cycles over LReg[0..3] in turn; MAD (delay 0, VB := VD) y = 2x + 1; SFPSETSGN (delay 3, VC := VD)
 * writes -|y| to LReg[16]; SFPSTORE (delay 4) stores LReg[16]. Element k's SFPSETSGN reads LReg[k % 4]
 * on the cycle element k + 4 loads it, and its SFPSTORE reads LReg[16] on the cycle element k + 1's
 * SFPSETSGN writes it: correct only if a cycle's instructions all read before any writes. ------- */

static void pipeline(dpf_t *f, uint32_t misc, const uint64_t *at, unsigned nops_after) {
    uint64_t c = 0;
    config(f, 0x6300845Du, misc | MACRO_MISC_LOAD_MOD0, &c);
    dst_elements(f, 8);
    for (unsigned k = 0; k < 8; k++)
        dpf_ex(f, loadmacro(0, k & 3, 4 * k, 1), at[k]);
    uint64_t t = at[7] + 1;
    for (unsigned i = 0; i < nops_after; i++)
        dpf_ex(f, TT_OP_SFPNOP, t++);
    dpf_ex(f, IDLE, t + 50);
    const dst_regs_t *d = dp_dst(f->dp);
    for (unsigned k = 0; k < 8; k++)
        for (unsigned l = 0; l < LANES; l++) {
            uint32_t got = dst32_get(d, 4 * k + l / 8, 2 * (l % 8)), want = f2u(-(2 * element(k, l) + 1));
            if (got != want) fail_msg("element %u lane %u: 0x%08x, want 0x%08x", k, l, got, want);
        }
}

static void test_pipeline_cycles(void **state) {
    const uint64_t back_to_back[8] = {100, 101, 102, 103, 104, 105, 106, 107};
    pipeline(*state, 0, back_to_back, 0);
}

static void test_pipeline_gaps(void **state) {
    const uint64_t gaps[8] = {100, 110, 120, 130, 140, 150, 160, 170};
    pipeline(*state, 0, gaps, 0);
}

static void test_pipeline_instructions(void **state) {
    /* UnitDelayKind set for every sub-unit: delays count issued Vector Unit instructions, so the
     * gaps do not matter; the last ones wait for the SFPNOPs after. */
    const uint64_t gaps[8] = {100, 110, 120, 130, 140, 150, 160, 170};
    pipeline(*state, 0xF00u, gaps, 6);
}

/* ---- an SFPNOP takes its cycle: one Vector Unit instruction a cycle, each issued at its cycle or
 * the next one not yet used, so two SFPNOPs given cycle 100 take 100 and 101, and an SFPLOADMACRO
 * given 100 too is issued on 102, its MAD (delay 0) due on 103 --------------------------------- */

/* Two words w given cycle 100, then an SFPLOADMACRO given 100 too: issued on 102, its MAD due
 * on 103. */
static void two_then_macro(dpf_t *f, uint32_t w) {
    const lregs_t *l = dp_lregs(f->dp);
    dpf_ex(f, w, 100);
    dpf_ex(f, w, 100);
    dpf_ex(f, loadmacro(0, 2, 0, 0), 100);
    dpf_ex(f, IDLE, 102);
    assert_int_equal(l->r[2][7], f2u(element(0, 7)));
    dpf_ex(f, IDLE, 103);
    assert_int_equal(l->r[2][7], f2u(2 * element(0, 7) + 1));
}

static void test_nop_cycles(void **state) {
    dpf_t *f = *state;
    uint64_t c = 0;
    config(f, 0x13008400u, MACRO_MISC_LOAD_MOD0, &c);
    dst_elements(f, 1);
    two_then_macro(f, TT_OP_SFPNOP);
}

/* The same with a kept register word (decoded once before, so the datapath's light way runs it
 * without a context: dp_sfpu_light, sfp_light_regs) in place of the SFPNOPs: it takes its cycle
 * just as dp_sfpu_exec would. */
static void test_kept_word_cycles(void **state) {
    dpf_t *f = *state;
    uint64_t c = 0;
    config(f, 0x13008400u, MACRO_MISC_LOAD_MOD0, &c);
    dst_elements(f, 1);
    const uint32_t mov = TT_OP_SFPMOV(0, 5, 5, 0); /* LReg[5] = LReg[5]: nothing the macro reads */
    dpf_ex(f, mov, 50);                            /* decoded and kept */
    two_then_macro(f, mov);
}

/* The same with a kept SFPLOAD, then a kept SFPSTORE (planned on their first run, then run by the
 * light way's sfp_light_load and sfp_light_store) in place of the SFPNOPs: each takes its cycle. */
static void kept_mem_cycles(dpf_t *f, uint32_t w) {
    uint64_t c = 0;
    config(f, 0x13008400u, MACRO_MISC_LOAD_MOD0, &c);
    dst_elements(f, 1);
    dpf_ex(f, w, 50); /* decoded, kept and planned */
    two_then_macro(f, w);
}
static void test_kept_load_cycles(void **state) {
    kept_mem_cycles(*state,
                    TT_OP_SFPLOAD(5, 2, 0, 8)); /* LReg[5] from Dst rows 8..11 (BF16): nothing the macro reads */
}
static void test_kept_store_cycles(void **state) {
    kept_mem_cycles(*state, TT_OP_SFPSTORE(5, 2, 0, 8)); /* LReg[5] to Dst rows 8..11 */
}
/* The same with the plan dropped after it was made: thread 1's address modifier section 3 (which
 * the word does not use) written non-zero, so that the light way's key misses, sfp_light_renew
 * finds what a plan takes changed and refuses, and the general way runs the word (planning it
 * again): it too takes one cycle, not one more for the refused attempt. */
static void test_renewed_mem_cycles(void **state) {
    dpf_t *f = *state;
    uint64_t c = 0;
    config(f, 0x13008400u, MACRO_MISC_LOAD_MOD0, &c);
    dst_elements(f, 1);
    const uint32_t w = TT_OP_SFPLOAD(5, 2, 0, 8);
    dpf_ex(f, w, 50);
    st_thdcfg_w(&f->st, 1, thcfg_fields[THCFG_ADDR_MOD_DST_SEC0_DestIncr].word + 3, 4);
    two_then_macro(f, w);
}

/* A kept MOVA2D (its setup planned on its first run, then the light way's: dp_mova2d_light) issued
 * on the cycle a scheduled SFPSTORE is due to the same Dst rows: the store happens first, so
 * MOVA2D's rows (SrcA's zeros) are what Dst holds after both. */
static void test_kept_mova2d_after_store(void **state) {
    dpf_t *f = *state;
    uint64_t c = 0;
    config(f, 0x13008400u, MACRO_MISC_LOAD_MOD0, &c); /* MAD delay 0; SFPSTORE delay 2 */
    const uint32_t mov = TT_OP_MOVA2D(0, 0, 0, 2, 0); /* SrcA rows 0..7 to Dst rows 0..7 */
    dpf_ex(f, mov, 50);                               /* planned */
    dst_elements(f, 1);
    dpf_ex(f, loadmacro(0, 2, 0, 0), 100);
    dpf_ex(f, IDLE, 101);                            /* the MAD's cycle */
    dpf_ex(f, mov, 103);                             /* the store's cycle */
    assert_int_equal(dp_dst(f->dp)->bits[0][14], 0); /* MOVA2D's, over the store's */
    dpf_ex(f, IDLE, 104);
    assert_int_equal(dp_dst(f->dp)->bits[0][14], 0);
}

/* A kept PACR (its setup kept on its first run, which the light way takes then: dp_pack_light)
 * issued on the cycle a scheduled SFPSTORE is due to the Dst rows it reads: the store happens
 * first, so PACR packs the stored datum (the light way leaves it to pack_exec, after the catch-up).
 * The same PACR once nothing is scheduled goes the light way. */
static void test_kept_pacr_after_store(void **state) {
    dpf_t *f = *state;
    uint64_t c = 0;
    config(f, 0x13008400u, MACRO_MISC_LOAD_MOD0, &c); /* MAD delay 0; SFPSTORE delay 2 */
    /* PACR: Dst's 16-bit rows (an FP32 datum's high half, arranged as BF16) to BF16, four rows a PACR */
    cfg_set(&f->st, 0, CFG_ALU_FORMAT_SPEC_REG2_Dstacc, FMT_BF16);
    cfg_set(&f->st, 0, CFG_THCON_SEC0_REG1_In_data_format, FMT_BF16);
    cfg_set(&f->st, 0, CFG_THCON_SEC0_REG1_Out_data_format, FMT_BF16);
    cfg_set(&f->st, 0, CFG_THCON_SEC0_REG1_Disable_zero_compress, 1);
    cfg_set(&f->st, 0, CFG_PCK0_ADDR_CTRL_XY_REG_0_Ystride, 32);
    cfg_set(&f->st, 0, CFG_PACK_COUNTERS_SEC0_pack_reads_per_xy_plane, 16);
    cfg_set(&f->st, 0, CFG_PCK_EDGE_OFFSET_SEC0_mask, 0xFFFF);
    dpf_ex(f, TT_OP_SETADCXX(4, 15, 0), c++);
    const uint32_t pacr = TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0); /* Dst rows 0..3, AddrMode 0: no step */
    dst_elements(f, 1);
    dpf_ex(f, pacr, 50); /* its setup kept: L1 16..143 */
    dpf_ex(f, loadmacro(0, 2, 0, 0), 100);
    dpf_ex(f, IDLE, 101);                                         /* the MAD's cycle */
    dpf_ex(f, pacr, 103);                                         /* the store's cycle: L1 144..271 */
    uint16_t want = (uint16_t)(f2u(2 * element(0, 7) + 1) >> 16); /* (the MAD and the store: no SETSGN) */
    assert_int_equal(dp_dst(f->dp)->bits[0][14], dst_bf16(want)); /* the store's */
    assert_int_equal(f->l1[144 + 28] | f->l1[144 + 29] << 8, want);
    unsigned runs = f->dp->pack.light_runs;
    dpf_ex(f, pacr, 105); /* L1 272..399 */
    assert_int_equal(f->dp->pack.light_runs, runs + 1);
    assert_int_equal(f->l1[272 + 28] | f->l1[272 + 29] << 8, want);
}

/* ---- WaitForElapsedInstructions: nothing moves while no instruction is issued ------------------ */

static void test_wait_instructions(void **state) {
    dpf_t *f = *state;
    uint64_t c = 0;
    config(f, 0x00009400u, 0x200u, &c); /* MAD, delay 2, counted in instructions */
    dst_elements(f, 1);
    const lregs_t *l = dp_lregs(f->dp);
    dpf_ex(f, loadmacro(0, 0, 0, 1), 100);
    dpf_ex(f, IDLE, 150);
    assert_int_equal(l->r[0][0], f2u(element(0, 0)));
    dpf_ex(f, TT_OP_SFPNOP, 151);
    dpf_ex(f, TT_OP_SFPNOP, 152); /* counted down to 0: executes on the next cycle */
    assert_int_equal(l->r[0][0], f2u(element(0, 0)));
    dpf_ex(f, IDLE, 200);
    assert_int_equal(l->r[0][0], f2u(2 * element(0, 0) + 1));
}

/* ---- what SFPLOADMACRO.md leaves undefined, and what ttemu does not model ----------------------- */

static void test_refused(void **state) {
    dpf_t *f = *state;
    uint64_t c = 0;
    config(f, 0x00000001u, 0, &c); /* simple sub-unit: instruction 1 */
    assert_int_equal(dpf_run(f, 1, loadmacro(0, 0, 0, 1), c++), CP_ERR_UNDEFINED);
    lreg0(f, 0x04000000u, &c); /* store sub-unit: template 0, an SFPMAD (check_fields: not a field) */
    dpf_ex(f, TT_OP_SFPCONFIG(0, 4, 0), c++);
    assert_int_equal(dpf_run(f, 1, loadmacro(0, 0, 0, 1), c++), CP_ERR_UNDEFINED);
    lreg0(f, 0x00008400u, &c);
    dpf_ex(f, TT_OP_SFPCONFIG(0, 4, 0), c++);
    dpf_ex(f, TT_OP_SFPCONFIG(0x0004, 4, 1 | 8), c++); /* column 1 only: Sequence differs between lanes */
    assert_int_equal(dpf_run(f, 1, loadmacro(0, 0, 0, 1), c++), CP_ERR_UNIMPLEMENTED);
}

/* ---- the PRNG's seed register (PRNG_SEED_Seed_Val, Config word 186 on Blackhole) ---------------- */

/* ttsim's seeding, written again for the test: 32 steps, then lanes 31..0 every second state. */
static void ref_seed(uint32_t seed, uint32_t lanes[LANES]) {
    for (unsigned i = 0; i < 32; i++)
        seed = ref_prng_next(seed);
    for (unsigned i = 0; i < 32; i++) {
        seed = ref_prng_next(ref_prng_next(seed));
        lanes[31 - i] = seed;
    }
}

static void test_prng_seed(void **state) {
    dpf_t *f = *state;
    uint32_t want[LANES];
    assert_true(st_cfg_write(&f->st, 186 * 4, 0x1234567u));
    dpf_ex(f, TT_OP_SFPMOV(0, 9, 1, 8), 0); /* LReg[1] = AdvancePRNG() */
    ref_seed(0x1234567u, want);
    for (unsigned l = 0; l < LANES; l++) {
        assert_int_equal(dp_lregs(f->dp)->r[1][l], want[l]);
        assert_int_equal(dp_lregs(f->dp)->prng[l], ref_prng_next(want[l]));
    }
    /* Writing the same seed again starts over. */
    assert_true(st_cfg_write(&f->st, 186 * 4, 0x1234567u));
    dpf_ex(f, TT_OP_SFPMOV(0, 9, 2, 8), 1);
    assert_int_equal(dp_lregs(f->dp)->r[2][17], want[17]);
}

/* SFPNOPs between a seed write and the instruction that reads the PRNG change nothing: it is seeded
 * from the value written, and an SFPNOP does not advance it. */
static void test_prng_seed_nop(void **state) {
    dpf_t *f = *state;
    uint32_t want[LANES];
    assert_true(st_cfg_write(&f->st, 186 * 4, 0x1234567u));
    dpf_ex(f, TT_OP_SFPNOP, 0);
    dpf_ex(f, TT_OP_SFPNOP, 1);
    dpf_ex(f, TT_OP_SFPMOV(0, 9, 1, 8), 2);
    ref_seed(0x1234567u, want);
    for (unsigned l = 0; l < LANES; l++)
        assert_int_equal(dp_lregs(f->dp)->r[1][l], want[l]);
    dpf_ex(f, TT_OP_SFPNOP, 3);
    dpf_ex(f, TT_OP_SFPMOV(0, 9, 2, 8), 4);
    for (unsigned l = 0; l < LANES; l++)
        assert_int_equal(dp_lregs(f->dp)->r[2][l], ref_prng_next(want[l]));
}

/* A Vector Unit state written from outside (dp_lregs_mut) goes the general way at its next word,
 * which follows the seed register again: an SFPNOP's light way (dp_sfpu_light, which tests the
 * PRNG's seed count in dp_t.sfp_gate) does not take it. Here the state's count put back before the
 * seed write: the SFPNOP reseeds, and LReg[2] reads the PRNG as seeded afresh. */
static void test_prng_seed_lregs_mut(void **state) {
    dpf_t *f = *state;
    uint32_t want[LANES];
    assert_true(st_cfg_write(&f->st, 186 * 4, 0x1234567u));
    dpf_ex(f, TT_OP_SFPNOP, 0);
    dpf_ex(f, TT_OP_SFPMOV(0, 9, 1, 8), 1);
    ref_seed(0x1234567u, want);
    assert_int_equal(dp_lregs(f->dp)->r[1][5], want[5]);
    dp_lregs_mut(f->dp)->prng_seeds--;
    dpf_ex(f, TT_OP_SFPNOP, 2);
    assert_int_equal(dp_lregs(f->dp)->prng_seeds, f->st.prng_seed_writes);
    for (unsigned l = 0; l < LANES; l++)
        assert_int_equal(dp_lregs(f->dp)->prng[l], want[l]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_config_written, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_zero_config, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_delays, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_other_thread, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_addi_template, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_discard, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_forget, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline_cycles, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline_gaps, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline_instructions, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_nop_cycles, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_kept_load_cycles, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_kept_store_cycles, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_renewed_mem_cycles, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_kept_mova2d_after_store, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_kept_pacr_after_store, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_kept_word_cycles, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_wait_instructions, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_refused, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_prng_seed, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_prng_seed_nop, dpf_setup, dpf_teardown),
        cmocka_unit_test_setup_teardown(test_prng_seed_lregs_mut, dpf_setup, dpf_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
