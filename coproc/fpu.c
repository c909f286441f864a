/* coproc/fpu.c — the Matrix Unit (FPU): its dispatch, the data-movement and clearing instructions
 * (MOVA2D, MOVB2D, MOVD2A, MOVD2B, MOVB2A, ZEROACC, ZEROSRC, CLEARDVALID), the Src shuffles
 * (TRNSPSRCB, SHIFTXA, SHIFTXB) and the instructions without values (CLREXPHIST, GATESRCRST),
 * each as its ISA page's functional model describes it (the pages are named above each function).
 * The arithmetic is in fpu_elw.c (ELWADD, ELWSUB, ELWMUL) and fpu_mm.c (MVMUL, DOTPV, GAPOOL,
 * GMPOOL); SETRWC and INCRWC are in dp_addr.c. The legacy CONV/POOL3 instructions are refused
 * (MatrixUnit.md describes them only loosely). The Src bank hand-over (AllowedClient, the bank
 * pointers) is the timing model's; these functions only read the bank pointers.
 */
#include <string.h>

#include "coproc/fpu_internal.h"
#include "coproc/tt_fields.h"
#include "coproc/tt_ops.h"

/* LaneConfig[col / 2].BLOCK_DEST_MOV.Bit[col & 1] (SFPCONFIG.md LaneConfig bits 9..10). */
static bool col_blocked(const dp_ctx_t *x, unsigned col) {
    return (x->dp->sfpu.lane_config[col / 2] >> (9 + (col & 1))) & 1;
}

/* One datum SrcA/SrcB -> Dst, shared by MOVA2D and MOVB2D (their pages give the same body); the
 * conversions are coproc/formats.c's. lo: UseDst32bLo. */
static void src_to_dst(dp_ctx_t *x, uint32_t v, fmt_style_t style, bool zero_flag, bool lo, unsigned row,
                       unsigned col) {
    if (style == FMT_STYLE_TF32) {
        if (lo) {
            dp_fail(x, CP_ERR_UNDEFINED, "%s with dest_32b_lo and a TF32 source (HW erratum TEN-4245)",
                    tt_mnemonic(x->word));
            return;
        }
        dp_dst32_write(x, row, col, fmt_mova2d_dst32(v, zero_flag));
    } else if (lo) {
        dp_dst32_write(x, row, col, (dp_dst32_read(x, row, col) & 0xFFFF0000u) | fmt_mova2d_dst16(v, style, zero_flag));
    } else {
        dp_dst16_write(x, row, col, fmt_mova2d_dst16(v, style, zero_flag));
    }
}

static unsigned dst_row_base(const dp_ctx_t *x, unsigned imm) { return fpu_dst_row(x, imm); }

/* MOVA2D/MOVB2D's whole rows at once (the common case: no column blocked, a 16-bit Dst cell per
 * datum): fmt_mova2d_dst16_rows into the physical rows, which become valid, as src_to_dst does
 * datum by datum. */
static bool rows_at_once(const dp_ctx_t *x, fmt_style_t style, bool lo) {
    if (x->dp->reference || lo || style == FMT_STYLE_TF32) return false;
    _Static_assert(SRC_COLS / 2 == 8, "LaneConfig[0..7]: lc_or8");
    return !((x->dp->sfpu.lc_or8 >> 9) & 3); /* BLOCK_DEST_MOV */
}
/* n Src rows from src (the first; the rest after it) into the physical Dst rows p .. p + n - 1,
 * which become valid. */
static inline void src_rows_to_dst(dp_t *dp, const uint32_t *src, fmt_style_t style, bool zero_flag, unsigned p,
                                   unsigned n) {
    fmt_mova2d_dst16_rows(src, style, zero_flag, dp->dst.bits[p], n);
    memset(&dp->dst.valid[p], true, n * sizeof *dp->dst.valid);
}
static void src_row_to_dst(dp_ctx_t *x, const uint32_t src[SRC_COLS], fmt_style_t style, bool zero_flag, unsigned row) {
    src_rows_to_dst(x->dp, src, style, zero_flag, dp_adj16(x, row), 1);
}

/* MOVA2D's eight-row form without UseDst32bLo, kept (mova2d_plan_t): every Config and ThreadConfig
 * field mova2d below reads for it, keyed by the thread and its thdcfg_gen (dp_key_t: Config's writes
 * move it too, and it covers the thread's Config bank; where only a tile's words were written since, dp_key_near_at,
 * the light way reads MATH_Offset again) and the word. Not under dp_set_reference (dp_key_set keeps no
 * key there). */
static void mova2d_plan_make(dp_ctx_t *x) {
    uint32_t w = x->word;
    unsigned i = TT_MOVA2D_ADDR_MODE(w) & 7;
    uint32_t base0 = fpu_dst_base(x, TT_MOVA2D_DST(w));
    x->dp->mova2d = (mova2d_plan_t){
        .word = w,
        .base0 = base0,
        .base = base0 + THCFG(x, DEST_TARGET_REG_CFG_MATH_Offset),
        .ab = x->thcfg[ST_TW_ADDR_MOD_AB_SEC0_SrcAIncr + i],
        .ds = x->thcfg[ST_TW_ADDR_MOD_DST_SEC0_DestIncr + i],
        .bs = x->thcfg[ST_TW_ADDR_MOD_BIAS_SEC0_BiasIncr + i],
        .src = (uint8_t)TT_MOVA2D_SRC(w),
        .fmt = (uint8_t)fpu_srca_fmt(x, false),
        .implied = !THCFG(x, DISABLE_IMPLIED_SRCA_FMT_Base),
        .force = THCFG(x, FP16A_FORCE_Enable),
        .flush = !CFG(x, ALU_ACC_CTRL_Zero_Flag_disabled_src),
        .remap = x->remap,
    };
    x->dp->mova2d.plain = dp_addr_mod_plain(x->dp->mova2d.ab, x->dp->mova2d.ds, x->dp->mova2d.bs);
    x->dp->mova2d_made++;
    dp_key_set(x, DP_KEY_MOVA2D, 0);
}

bool dp_mova2d_light(dp_t *dp, const cp_insn_t *in) {
    const mova2d_plan_t *m = &dp->mova2d;
    unsigned t = in->thread;
    if (in->word != m->word || dp->sched.n || dp->reference) return false;
    if (!dp_key_hit_at(dp, in->st, t, DP_KEY_MOVA2D, 0)) {
        if (dp_key_near_at(dp, in->st, t, DP_KEY_MOVA2D, 0)) {
            /* Only a tile's words written since (kernels' other threads move their buffers once a
             * tile, the math thread its half of Dst): MATH_Offset read again. */
            dp->mova2d.base = m->base0 + dp_math_off(in->st, t);
            dp_key_renew(dp, in->st, t, DP_KEY_MOVA2D);
        } else {
            /* The plan made again for this thread, without the general way's other work. */
            dp_ctx_t x;
            dp_ctx_init(&x, dp, in, t, st_state_id(in->st, t));
            mova2d_plan_make(&x);
        }
    }
    if ((dp->sfpu.lc_or8 >> 9) & 3) return false; /* BLOCK_DEST_MOV: column by column (mova2d) */
    unsigned bank = in->st->src.fpu_bank_a;
    fmt_style_t style = fmt_src_style(m->implied ? dp->srca.implied_fmt[bank] : m->fmt, m->force);
    if (style == FMT_STYLE_TF32) return false;
    rwc_t *r = &dp->rwc[t];
    unsigned srow = (m->src + r->srca) & 0x38, p = dp_adj16_of(m->remap, (m->base + r->dst) & 0x3F8);
    dp->fpu_srca_row = (uint8_t)srow;
    src_rows_to_dst(dp, dp->srca.d[bank][srow], style, m->flush, p, 8);
    if (m->plain)
        dp_addr_mod_incr(r, m->ab, m->ds, m->bs, true);
    else
        dp_addr_mod_words(r, m->ab, m->ds, m->bs, true);
    return true;
}

/* MOVA2D.md */
static void mova2d(dp_ctx_t *x) {
    uint32_t w = x->word;
    fmt_style_t style = fmt_src_style(fpu_srca_fmt(x, true), THCFG(x, FP16A_FORCE_Enable));
    bool flush = !CFG(x, ALU_ACC_CTRL_Zero_Flag_disabled_src), lo = TT_MOVA2D_DEST_32B_LO(w);
    unsigned drow = dst_row_base(x, TT_MOVA2D_DST(w)), srow = TT_MOVA2D_SRC(w) + x->dp->rwc[x->t].srca, n = 1;
    if (TT_MOVA2D_INSTR_MOD(w) & 2) {
        n = 8, drow &= 0x3F8, srow &= 0x38;
    } else {
        drow &= 0x3FF, srow &= 0x3F;
    }
    fpu_note_srca_row(x, srow);
    const uint32_t(*bank)[SRC_COLS] = x->dp->srca.d[dp_fpu_bank(x, 0)];
    if (rows_at_once(x, style, lo)) {
        /* The n rows in one call: Adj16 moves a row's bits 3..5 only, so eight rows from a multiple
         * of 8 are physical rows p .. p + 7 (and Src rows srow .. srow + 7 <= 63). */
        src_rows_to_dst(x->dp, bank[srow], style, flush, dp_adj16(x, drow), n);
        if (n == 8) mova2d_plan_make(x);
        n = 0;
    }
    for (; n && !dp_failed(x); n--, drow++, srow++)
        for (unsigned c = 0; c < SRC_COLS; c++)
            if (!col_blocked(x, c)) src_to_dst(x, bank[srow][c], style, flush, lo, drow, c);
    dp_apply_addr_mod(x, TT_MOVA2D_ADDR_MODE(w), true);
}

/* MOVB2D.md (the page uses the configured SrcA format, not an implied one: "not a typo"). */
static void movb2d(dp_ctx_t *x) {
    uint32_t w = x->word;
    unsigned mod = TT_MOVB2D_MOVB2D_INSTR_MOD(w);
    fmt_style_t style = fmt_src_style(fpu_srca_fmt(x, false), THCFG(x, FP16A_FORCE_Enable));
    bool flush = !CFG(x, ALU_ACC_CTRL_Zero_Flag_disabled_src), lo = TT_MOVB2D_DEST_32B_LO(w);
    bool bcast_col0 = mod & 1, bcast_row = mod & 2;
    unsigned drow = dst_row_base(x, TT_MOVB2D_DST(w)), srow = TT_MOVB2D_SRC(w) + x->dp->rwc[x->t].srcb, n = 1;
    if (bcast_row) {
        n = 8, drow &= 0x3F8, srow &= 0x3F;
    } else if (mod & 4) {
        n = 4, drow &= 0x3FC, srow &= 0x3C;
    } else {
        drow &= 0x3FF, srow &= 0x3F;
    }
    fpu_note_srca_row(x, x->dp->rwc[x->t].srca); /* [INF]: no SrcA operand; its RWC */
    const uint32_t(*bank)[SRC_COLS] = x->dp->srcb.d[dp_fpu_bank(x, 1)];
    if (rows_at_once(x, style, lo)) {
        for (; n; n--, drow++, srow += !bcast_row) {
            uint32_t col0[SRC_COLS];
            if (bcast_col0)
                for (unsigned c = 0; c < SRC_COLS; c++)
                    col0[c] = bank[srow][0];
            src_row_to_dst(x, bcast_col0 ? col0 : bank[srow], style, flush, drow);
        }
    }
    for (; n && !dp_failed(x); n--, drow++, srow += !bcast_row)
        for (unsigned c = 0; c < SRC_COLS; c++)
            if (!col_blocked(x, c)) src_to_dst(x, bank[srow][bcast_col0 ? 0 : c], style, flush, lo, drow, c);
    dp_apply_addr_mod(x, TT_MOVB2D_ADDR_MODE(w), true);
}

/* MOVD2A.md / MOVD2B.md: Dst -> SrcA / SrcB. On Blackhole both take their style from the
 * destination bank's implied format (MOVD2B: "SrcAFmt really is used", then ImpliedSrcBFmt). */
static void movd2src(dp_ctx_t *x, bool to_b) {
    uint32_t w = x->word;
    bool lo = to_b ? TT_MOVD2B_DEST_32B_LO(w) : TT_MOVD2A_DEST_32B_LO(w);
    bool use32 = false;
    fmt_style_t style = FMT_STYLE_FP16;
    if (!THCFG(x, FP16A_FORCE_Enable)) {
        unsigned f = fpu_srca_fmt(x, false);
        if (to_b ? !THCFG(x, DISABLE_IMPLIED_SRCB_FMT_Base) : !THCFG(x, DISABLE_IMPLIED_SRCA_FMT_Base))
            f = (to_b ? x->dp->srcb.implied_fmt[dp_fpu_bank(x, 1)] : x->dp->srca.implied_fmt[dp_fpu_bank(x, 0)]);
        use32 = CFG(x, ALU_ACC_CTRL_Fp32_enabled) || CFG(x, ALU_ACC_CTRL_INT8_math_enabled);
        style = fmt_src_style(f, false);
    }
    unsigned drow = dst_row_base(x, to_b ? TT_MOVD2B_DST(w) : TT_MOVD2A_DST(w));
    unsigned srow = (to_b ? TT_MOVD2B_SRC(w) + x->dp->rwc[x->t].srcb : TT_MOVD2A_SRC(w) + x->dp->rwc[x->t].srca), n = 1;
    if ((to_b ? TT_MOVD2B_INSTR_MOD(w) : TT_MOVD2A_INSTR_MOD(w)) & 2) {
        n = 4, drow &= 0x3FC, srow &= 0x3C;
    } else {
        drow &= 0x3FF, srow &= 0x3F;
    }
    if (!use32 && (lo || style == FMT_STYLE_TF32))
        return dp_fail(x, CP_ERR_UNDEFINED, "%s of 32-bit data from a 16-bit Dst view", tt_mnemonic(w));
    fpu_note_srca_row(x, to_b ? x->dp->rwc[x->t].srca : srow); /* MOVD2B [INF]: its SrcA RWC */
    uint32_t(*bank)[SRC_COLS] =
        to_b ? dp_src_rows_w(&x->dp->srcb, dp_fpu_bank(x, 1)) : dp_src_rows_w(&x->dp->srca, dp_fpu_bank(x, 0));
    for (; n; n--, drow++, srow++) {
        for (unsigned c = 0; c < SRC_COLS; c++) {
            if (col_blocked(x, c)) continue;
            if (!use32) {
                bank[srow][c] = fmt_movd2src_dst16(dp_dst16_read(x, drow, c), style);
                continue;
            }
            uint32_t d = dp_dst32_read(x, drow, c);
            if (lo && style == FMT_STYLE_TF32)
                bank[srow][c] = d & 0x1FFFu; /* the 13 bits the TF32 truncation drops (MOVD2A.md) */
            else
                bank[srow][c] = fmt_movd2src_dst32(lo ? (d << 16) | (d & 0xFFFFu) : d, style);
        }
    }
    dp_apply_addr_mod(x, to_b ? TT_MOVD2B_ADDR_MODE(w) : TT_MOVD2A_ADDR_MODE(w), true);
}

/* MOVB2A.md. The page applies TruncateSrc(value, SrcBFmt) without defining it; ttemu reads it as
 * dropping the mantissa bits the format does not have (the low three of the 8-bit-exponent
 * formats other than TF32), which leaves data an unpacker wrote unchanged [INF, docs/datapath.md]. */
static void movb2a(dp_ctx_t *x) {
    uint32_t w = x->word;
    unsigned f = fpu_srcb_fmt(x);
    bool flush = !CFG(x, ALU_ACC_CTRL_Zero_Flag_disabled_src);
    uint32_t keep = (f != FMT_TF32 && fmt_exp8_family(f)) ? ~(7u << 8) : ~0u;
    unsigned arow = TT_MOVB2A_SRCA(w) + x->dp->rwc[x->t].srca, brow = TT_MOVB2A_SRCB(w) + x->dp->rwc[x->t].srcb, n = 1;
    if (TT_MOVB2A_INSTR_MOD(w) & 2) {
        n = 4, arow &= 0x3C, brow &= 0x3C;
    } else {
        arow &= 0x3F, brow &= 0x3F;
    }
    fpu_note_srca_row(x, arow);
    uint32_t(*a)[SRC_COLS] = dp_src_rows_w(&x->dp->srca, dp_fpu_bank(x, 0));
    const uint32_t(*b)[SRC_COLS] = x->dp->srcb.d[dp_fpu_bank(x, 1)];
    for (; n; n--, arow++, brow++)
        for (unsigned c = 0; c < SRC_COLS; c++) {
            if (col_blocked(x, c)) continue;
            uint32_t v = b[brow][c];
            if (flush && !(v & 0xFF)) v = 0;
            a[arow][c] = v & keep;
        }
    dp_apply_addr_mod(x, TT_MOVB2A_ADDR_MODE(w), true);
}

/* ZEROACC.md: mark Dst rows invalid. Blackhole encoding: where = Imm10, clear_mode = Mode,
 * use_32_bit_mode = UseDst32b, clear_zero_flags = Revert. Revert is UndefinedBehavior on the
 * page, yet tt-llk uses it (with the 32-bit 16-row mode, as ttsim notes: a hardware-bug
 * workaround); ttemu does what the page describes that branch doing: set the bits instead. The
 * 16-row modes move by 32 (16-bit) / 16 (32-bit) blocks when the math offset is in the upper
 * half unless DEST_ACCESS_CFG_zeroacc_absolute_tile_mode (ttsim, Blackhole; DATAPATH.md §4.4). */
static void zeroacc(dp_ctx_t *x) {
    uint32_t w = x->word;
    unsigned imm = TT_ZEROACC_WHERE(w), mode = TT_ZEROACC_CLEAR_MODE(w);
    bool d32 = TT_ZEROACC_USE_32_BIT_MODE(w), val = TT_ZEROACC_CLEAR_ZERO_FLAGS(w);
    bool *valid = x->dp->dst.valid;
    if (mode > 3) return dp_fail(x, CP_ERR_UNSPECIFIED, "ZEROACC clear_mode %u (ZEROACC.md has modes 0..3)", mode);
    switch (mode) {
    case 0: { /* one row */
        unsigned row = dst_row_base(x, imm) & 1023;
        if (CFG(x, ALU_ACC_CTRL_Fp32_enabled) || CFG(x, ALU_ACC_CTRL_INT8_math_enabled))
            valid[dp_adj32(x, row)] = val;
        else
            valid[row] = val;
        break;
    }
    case 1: { /* 16 rows */
        unsigned off = THCFG(x, DEST_TARGET_REG_CFG_MATH_Offset) + x->dp->rwc[x->t].dst;
        imm &= 0xFF; /* current silicon uses the low 8 bits (ZEROACC.md, non-contractual) */
        bool absolute = CFG(x, DEST_ACCESS_CFG_zeroacc_absolute_tile_mode);
        if (d32) {
            if (!absolute && (off & 768)) imm += 16;
            if (imm < 32)
                for (unsigned i = 0; i < 16; i++)
                    valid[imm * 32 + (i & 8) * 2 + (i & 7)] = val;
        } else {
            if (!absolute && (off & 512)) imm += 32;
            if (imm < 64)
                for (unsigned i = 0; i < 16; i++)
                    valid[imm * 16 + i] = val;
        }
        break;
    }
    case 2: /* half of Dst */ memset(valid + ((imm & 1) ? 512 : 0), val, 512 * sizeof *valid); break;
    default: /* all of Dst */ memset(valid, val, DST_ROWS * sizeof *valid); break;
    }
    if (mode <= 1) dp_apply_addr_mod(x, TT_ZEROACC_ADDR_MODE(w), true);
}

/* ZEROSRC.md. Blackhole encoding: src_mask = ClearSrcA | ClearSrcB << 1, bank_mask = BothBanks,
 * write_mode = SingleBankMatrixUnit, zero_val = a wider clear-value field whose bit 0 is
 * NegativeInfSrcA (UNPACR_NOP_ZEROSRC.md); other clear values are not documented. */
static void zerosrc(dp_ctx_t *x) {
    uint32_t w = x->word;
    unsigned mask = TT_ZEROSRC_SRC_MASK(w), zv = TT_ZEROSRC_ZERO_VAL(w);
    bool both = TT_ZEROSRC_BANK_MASK(w), fpu_side = TT_ZEROSRC_WRITE_MODE(w);
    if (zv > 1 || (zv && (mask & 2)))
        return dp_fail(x, CP_ERR_UNSPECIFIED, "ZEROSRC with zero_val 0x%x (only 0 and -inf for SrcA are documented)",
                       zv);
    for (unsigned s = 0; s < 2; s++) {
        if (!(mask & (1u << s))) continue;
        src_regs_t *r = s ? &x->dp->srcb : &x->dp->srca;
        unsigned pick = fpu_side ? dp_fpu_bank(x, s) : dp_unp_bank(x, s);
        for (unsigned b = 0; b < SRC_BANKS; b++) {
            if (!both && b != pick) continue;
            dp_src_clear(x, r, b, zv);
        }
    }
}

/* ---- the arithmetic's formats (fpu_internal.h) --------------------------------------------- */

bool fpu_formats(dp_ctx_t *x, fpu_fmt_t *f) {
    *f = (fpu_fmt_t){.a = FMT_STYLE_FP16, .b = FMT_STYLE_FP16};
    if (THCFG(x, FP16A_FORCE_Enable)) return true; /* FP16 operands, 16-bit FP16 Dst */
    if (CFG(x, ALU_ACC_CTRL_INT8_math_enabled)) {
        f->int8 = true, f->acc.fp32 = true;
        return true;
    }
    unsigned af = fpu_srca_fmt(x, true), bf = fpu_srcb_fmt(x);
    f->a = fmt_src_style(af, false), f->b = fmt_src_style(bf, false);
    f->acc.fp32 = CFG(x, ALU_ACC_CTRL_Fp32_enabled);
    f->acc.exp8 = f->a != FMT_STYLE_FP16;
    if ((f->a == FMT_STYLE_FP16) != (f->b == FMT_STYLE_FP16)) {
        dp_fail(x, CP_ERR_UNSUPPORTED, "%s with SrcA %s and SrcB %s (no page lists a 5-bit with an 8-bit exponent)",
                tt_mnemonic(x->word), fmt_name(af), fmt_name(bf));
        return false;
    }
    return true;
}

/* ---- Src shuffles ---------------------------------------------------------------------------- */

/* TRNSPSRCB.md: transpose the 16x16 block in rows 16..31 of the Matrix Unit's SrcB bank. */
static void trnspsrcb(dp_ctx_t *x) {
    uint32_t(*b)[SRC_COLS] = dp_src_rows_w(&x->dp->srcb, dp_fpu_bank(x, 1)) + 16;
    for (unsigned i = 0; i < 16; i++)
        for (unsigned j = 0; j < i; j++) {
            uint32_t t = b[i][j];
            b[i][j] = b[j][i], b[j][i] = t;
        }
}

/* SHIFTXA.md: the 16 rows that start at the last SrcA row address an FPU instruction computed (the
 * page's HardwareBug()), aligned to 16, shifted one lane right (Direction 2) or left (3) with a zero
 * shifted in, into rows 0..15. Blackhole's encoding: shift_mode = Direction, log2_amount2 must be
 * 0 ("allowed only shift by 1", tt-llk assembly.yaml). */
static void shiftxa(dp_ctx_t *x) {
    uint32_t w = x->word;
    unsigned dir = TT_SHIFTXA_SHIFT_MODE(w);
    if (dir < 2 || TT_SHIFTXA_LOG2_AMOUNT2(w))
        return dp_fail(x, CP_ERR_UNDEFINED, "SHIFTXA with shift_mode %u, log2_amount2 %u (reserved)", dir,
                       TT_SHIFTXA_LOG2_AMOUNT2(w));
    uint32_t(*a)[SRC_COLS] = dp_src_rows_w(&x->dp->srca, dp_fpu_bank(x, 0));
    unsigned in = x->dp->fpu_srca_row & 0x30;
    uint32_t tmp[16][SRC_COLS];
    memcpy(tmp, a[in], sizeof tmp);
    for (unsigned i = 0; i < 16; i++)
        for (unsigned c = 0; c < 16; c++)
            a[i][c] = dir == 2 ? (c ? tmp[i][c - 1] : 0) : (c < 15 ? tmp[i][c + 1] : 0);
}

/* SHIFTXB.md: one SrcB row (SrcRow + RWC SrcB) shifted one lane left, column 15 getting column 0
 * (rotate) or zero. The page's loop stops at column 13, which would leave column 14 unchanged and
 * lose column 15; its own cross-lane diagrams (Diagrams/Src/CrossLane.lua SHIFTXB0/1) move every
 * lane c + 1 -> c, which ttemu follows [INF]. Blackhole's encoding (tt-llk assembly.yaml):
 * shift_row = SrcRow, rot_shift = ShiftInZero, addr_mode a 3-bit AddrMod at bit 14. */
static void shiftxb(dp_ctx_t *x) {
    uint32_t w = x->word;
    unsigned row = (TT_SHIFTXB_SHIFT_ROW(w) + x->dp->rwc[x->t].srcb) & 63;
    uint32_t *b = dp_src_rows_w(&x->dp->srcb, dp_fpu_bank(x, 1))[row], c0 = b[0];
    for (unsigned c = 0; c < 15; c++)
        b[c] = b[c + 1];
    b[15] = (TT_SHIFTXB_ROT_SHIFT(w) & 1) ? 0 : c0;
    dp_apply_addr_mod(x, TT_SHIFTXB_ADDR_MODE(w) & 7, true);
}

void dp_fpu_exec(dp_ctx_t *x) {
    switch (TT_OPCODE(x->word)) {
    case TT_OPC_MOVA2D: mova2d(x); break;
    case TT_OPC_MOVB2D: movb2d(x); break;
    case TT_OPC_MOVD2A: movd2src(x, false); break;
    case TT_OPC_MOVD2B: movd2src(x, true); break;
    case TT_OPC_MOVB2A: movb2a(x); break;
    case TT_OPC_ZEROACC: zeroacc(x); break;
    case TT_OPC_ZEROSRC: zerosrc(x); break;
    case TT_OPC_CLEARDVALID:
        /* CLEARDVALID.md: with Reset, Blackhole also forgets the implied formats. The bank
         * pointers and AllowedClient are the timing model's. */
        if (TT_CLEARDVALID_RESET(x->word) & 1) {
            memset(x->dp->srca.implied_fmt, 0, sizeof x->dp->srca.implied_fmt);
            memset(x->dp->srcb.implied_fmt, 0, sizeof x->dp->srcb.implied_fmt);
        }
        break;
    case TT_OPC_ELWADD:
    case TT_OPC_ELWSUB:
    case TT_OPC_ELWMUL: dp_fpu_elw(x); break;
    case TT_OPC_MVMUL:
    case TT_OPC_DOTPV:
    case TT_OPC_GAPOOL: dp_fpu_matmul(x); break;
    case TT_OPC_GMPOOL: dp_fpu_gmpool(x); break;
    case TT_OPC_TRNSPSRCB: trnspsrcb(x); break;
    case TT_OPC_SHIFTXA: shiftxa(x); break;
    case TT_OPC_SHIFTXB: shiftxb(x); break;
    /* CLREXPHIST.md resets the packers' exponent histograms, which no value ttemu computes reads
     * (only SETDMAREG's histogram modes would); GATESRCRST.md invalidates an operand cache that
     * holds no value of its own. Nothing to compute. */
    case TT_OPC_CLREXPHIST:
    case TT_OPC_GATESRCRST: break;
    case TT_OPC_CONV3S1:
    case TT_OPC_CONV3S2:
    case TT_OPC_MFCONV3S1:
    case TT_OPC_APOOL3S1:
    case TT_OPC_APOOL3S2:
    case TT_OPC_MPOOL3S1:
    case TT_OPC_MPOOL3S2:
        /* MatrixUnit.md "Legacy instructions": they compute "Dst += 0" (MPOOL3*: "something
         * similar to" GMPOOL on a zero SrcA) on rows no page gives. */
        dp_fail(x, CP_ERR_UNSPECIFIED, "%s: a legacy instruction whose Dst rows no page describes (MatrixUnit.md)",
                tt_mnemonic(x->word));
        break;
    default: dp_fail(x, CP_ERR_UNIMPLEMENTED, "%s is not modelled", tt_mnemonic(x->word)); break;
    }
}
