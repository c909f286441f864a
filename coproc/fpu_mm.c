/* coproc/fpu_mm.c — the Matrix Unit's reductions over SrcA rows: MVMUL, DOTPV and GAPOOL
 * (Dst += SrcB @ SrcA; WH MVMUL.md, DOTPV.md, GAPOOL.md) and GMPOOL (column max; WH GMPOOL.md),
 * as Blackhole shares them (BH MatrixUnit.md). The sums' floating-point arithmetic is
 * coproc/fpu_num.c's; integer "8" products and GMPOOL follow the pages' exact models. The Src
 * bank flips (clear_dvalid) are the timing model's (coproc/timing.c). */
#include "coproc/fpu_internal.h"
#include "coproc/tt_fields.h"
#include "coproc/tt_ops.h"

/* MVMUL.md, with DOTPV.md (BroadcastSrcBRow always false) and GAPOOL.md (four rows, and Dst
 * aligned to four). GAPOOL's and DOTPV's other fields are fixed by their pages' syntax and not
 * read by their functional models (ttsim ignores GAPOOL's instr_mod19 too); GAPOOL's
 * max_pool_index_en has no model and is refused. */
void dp_fpu_matmul(dp_ctx_t *x) {
    uint32_t w = x->word;
    unsigned op = TT_OPCODE(w), dst, addr_mode, nrows = 8;
    bool bcast = false;
    if (op == TT_OPC_MVMUL) {
        dst = TT_MVMUL_DST(w), addr_mode = TT_MVMUL_ADDR_MODE(w), bcast = TT_MVMUL_INSTR_MOD19(w) & 1;
        if (bcast) nrows = 7;
    } else if (op == TT_OPC_DOTPV) {
        dst = TT_DOTPV_DST(w), addr_mode = TT_DOTPV_ADDR_MODE(w);
    } else {
        if (TT_GAPOOL_MAX_POOL_INDEX_EN(w))
            return dp_fail(x, CP_ERR_UNSPECIFIED, "GAPOOL with max_pool_index_en (GAPOOL.md has no index mode)");
        dst = TT_GAPOOL_DST(w), addr_mode = TT_GAPOOL_POOL_ADDR_MODE(w), nrows = 4;
    }
    fpu_fmt_t f;
    if (!fpu_formats(x, &f)) return;
    if (!f.int8 && CFG(x, ALU_ACC_CTRL_Zero_Flag_disabled_src))
        return dp_fail(x, CP_ERR_UNSPECIFIED,
                       "%s with ALU_ACC_CTRL_Zero_Flag_disabled_src (the pages flush denormals; no model keeps them)",
                       tt_mnemonic(w));
    const rwc_t *r = &x->dp->rwc[x->t];
    unsigned arow = r->srca & 0x38, brow = r->srcb & (bcast ? 0x3F : 0x38);
    unsigned drow = fpu_dst_row(x, dst) & (0x400 - nrows), phase = fpu_phase(x);
    const uint32_t(*a)[SRC_COLS] = x->dp->srca.d[dp_fpu_bank(x, 0)];
    const uint32_t(*b)[SRC_COLS] = x->dp->srcb.d[dp_fpu_bank(x, 1)];
    fpu_note_srca_row(x, arow);
    bool d32 = f.acc.fp32;

    if (f.int8) {
        /* Integer "8": each fidelity phase feeds its magnitude bits (MVMUL.md masks, Src layout);
         * the sum of 16 products is exact, then added to Dst saturating. */
        int32_t am[16][16];
        for (unsigned k = 0; k < 16; k++)
            for (unsigned j = 0; j < 16; j++)
                am[k][j] = fpu_int8(a[(arow + k) & 63][j] & ((phase & 1) ? 0x41FFFu : 0x4E0FFu));
        for (unsigned i = 0; i < nrows; i += bcast ? 2 : 1) {
            const uint32_t *bi = b[(brow + (bcast ? 0 : i)) & 63];
            bool valid = fpu_row_valid(x, drow + i, true);
            for (unsigned j = 0; j < 16; j++) {
                int32_t s = 0;
                for (unsigned k = 0; k < 16; k++)
                    s += fpu_int8(bi[k] & ((phase & 2) ? 0x40FFFu : 0x7F0FFu)) * am[k][j];
                s = fpu_sat_add(s, fpu_dst_int32(fpu_dst_get(x, drow + i, j, true, valid, 0)));
                dp_dst32_write(x, drow + i, j, fpu_dst_from_int32(s));
            }
        }
        dp_apply_addr_mod(x, addr_mode, true);
        return;
    }
    if (!x->dp->reference) {
        /* SrcA's 16x16 block by rows and each SrcB row decomposed once for the multipliers,
         * then a row of 16 sums at once (fpu_dot16_rows, fpu_dot16's rule), each Dst row's
         * physical place found once. */
        fpu_mops_t am[16], bm;
        int32_t adj = fpu_prod_adj(f.acc, phase);
        const uint32_t *arows[16];
        for (unsigned k = 0; k < 16; k++)
            arows[k] = a[(arow + k) & 63];
        fpu_mop_a_rows(am, arows, f.a, phase);
        for (unsigned i = 0; i < nrows; i += bcast ? 2 : 1) {
            const uint32_t *bi = b[(brow + (bcast ? 0 : i)) & 63];
            fpu_mop_b_row(&bm, bi, f.b, phase, adj);
            /* fpu_dst_get and fpu_dst_put over the row. */
            dp_dst_row_t r = dp_dst_row(x, drow + i, d32);
            uint32_t dv[16];
            fpu_dst_row_in(r, f.acc, dv);
            fpu_dot16_rows(am, &bm, dv, f.acc, phase);
            fpu_dst_row_out(r, f.acc, dv);
        }
        dp_apply_addr_mod(x, addr_mode, true);
        return;
    }
    /* SrcA's 16x16 block by columns, each operand read under its format's style. */
    uint32_t acol[16][16], bop[16];
    for (unsigned k = 0; k < 16; k++)
        for (unsigned j = 0; j < 16; j++)
            acol[j][k] = fpu_operand(a[(arow + k) & 63][j], f.a);
    for (unsigned i = 0; i < nrows; i += bcast ? 2 : 1) {
        const uint32_t *bi = b[(brow + (bcast ? 0 : i)) & 63];
        for (unsigned k = 0; k < 16; k++)
            bop[k] = fpu_operand(bi[k], f.b);
        bool valid = fpu_row_valid(x, drow + i, d32);
        for (unsigned j = 0; j < 16; j++) {
            uint32_t dv = fpu_dst_in(fpu_dst_get(x, drow + i, j, d32, valid, 0), f.acc);
            fpu_dst_put(x, drow + i, j, d32, fpu_dst_out(fpu_dot16(acol[j], bop, dv, f.acc, phase), f.acc));
        }
    }
    dp_apply_addr_mod(x, addr_mode, true);
}

/* ---- GMPOOL (GMPOOL.md: exact, integer comparisons on a 1 + 9 + 10-bit datum) ----------------- */

enum { ST_BF16, ST_FP16, ST_TF32, ST_INT8, ST_INT32 };
typedef struct {
    unsigned sign, exp, man; /* 1, 9 and 10 bits */
} gm_datum_t;

static gm_datum_t gm_read_dst(uint32_t v, unsigned style) {
    gm_datum_t d = {.sign = v >> 31};
    switch (style) {
    case ST_INT32: /* Sign, MagMiddle(7), MagHi(8), MagLo(16): low 10 bits, then the next 9 */
        d.man = v & 0x3FFu;
        d.exp = ((v >> 10) & 0x3Fu) + (((v >> 24) & 7u) << 6); /* check_fields: not a field */
        break;
    case ST_FP16:
        d.exp = ((v >> 16) & 0x1Fu) + 15;
        d.man = (v >> 21) & 0x3FFu;
        break;
    default: /* BF16, TF32 */
        d.exp = ((v >> 16) & 0xFFu) + 127;
        d.man = ((v >> 24) & 0x7Fu) << 3; /* check_fields: not a field */
        if (style == ST_TF32) d.man += (v >> 13) & 7u;
        break;
    }
    d.exp &= 0x1FFu;
    return d;
}

static uint32_t gm_write_dst(gm_datum_t d, unsigned style) {
    uint32_t s = (uint32_t)d.sign << 31;
    switch (style) {
    case ST_INT32: return s | (d.exp & 7u) << 10 | d.man;
    case ST_FP16:
        if ((d.exp & 0x3Fu) == 0) return 0;
        return s | d.man << 21 | ((d.exp - 15) & 0x1Fu) << 16; /* wraps if SrcB was not 1.0 */
    default:
        if (d.exp == 0) return 0;
        return s | (d.man & 0x3F8u) << 21 | ((d.exp - 127) & 0xFFu) << 16 | (style == ST_TF32 ? (d.man & 7u) << 13 : 0);
    }
}

/* ReadAndScaleSrc: SrcA scaled by the exponent of SrcB (an exponent of 0 makes -infinity). */
static gm_datum_t gm_read_src(uint32_t av, unsigned style, uint32_t bv) {
    unsigned ae = av & 0xFFu, be = bv & 0xFFu;
    if (be == 0) return (gm_datum_t){1, 0x1FF, 0x3FF};
    if (ae == 0) return (gm_datum_t){0, 0, 0};
    gm_datum_t d = {.sign = (av >> 18) & 1, .man = (av >> 8) & 0x3FFu};
    switch (style) {
    case ST_INT8: d.exp = 0; break;
    case ST_FP16: d.exp = (ae & 0x1Fu) + (be & 0x1Fu); break;
    case ST_BF16: d.exp = ae + be, d.man &= 0x3F8u; break;
    default: d.exp = ae + be; break;
    }
    d.exp &= 0x1FFu;
    return d;
}

static int32_t gm_cmp(gm_datum_t d) {
    int32_t v = (int32_t)(d.exp << 10) + (int32_t)d.man;
    return d.sign ? -v : v;
}

void dp_fpu_gmpool(dp_ctx_t *x) {
    uint32_t w = x->word;
    bool argmax = TT_GMPOOL_MAX_POOL_INDEX_EN(w);
    unsigned astyle, dstyle;
    bool d32;
    if (THCFG(x, FP16A_FORCE_Enable)) {
        astyle = ST_FP16, dstyle = ST_FP16, d32 = false;
    } else if (CFG(x, ALU_ACC_CTRL_INT8_math_enabled)) {
        astyle = ST_INT8, dstyle = ST_INT32, d32 = true;
    } else {
        d32 = CFG(x, ALU_ACC_CTRL_Fp32_enabled);
        fmt_style_t st = fmt_src_style(fpu_srca_fmt(x, true), false);
        if (st == FMT_STYLE_BF16) {
            astyle = ST_BF16, dstyle = (argmax && d32) ? ST_BF16 : d32 ? ST_TF32 : ST_BF16;
        } else if (st == FMT_STYLE_FP16) {
            astyle = ST_FP16, dstyle = (argmax && d32) ? ST_FP16 : d32 ? ST_TF32 : ST_FP16;
        } else {
            astyle = ST_TF32, dstyle = argmax ? ST_INT32 : d32 ? ST_TF32 : ST_BF16;
        }
    }
    const rwc_t *r = &x->dp->rwc[x->t];
    unsigned arow = r->srca & 0x30, brow = r->srcb & 0x38, drow = fpu_dst_row(x, TT_GMPOOL_DST(w)) & 0x3FC;
    const uint32_t(*a)[SRC_COLS] = x->dp->srca.d[dp_fpu_bank(x, 0)];
    const uint32_t *b = x->dp->srcb.d[dp_fpu_bank(x, 1)][brow];
    static const uint8_t index_map[8] = {0, 3, 6, 1, 4, 7, 2, 5}; /* NONLINEAR_I_TRANSFORM */
    fpu_note_srca_row(x, arow);
    bool valid[4];
    for (unsigned i = 0; i < 4; i++)
        valid[i] = fpu_row_valid(x, drow + i, d32);

    for (unsigned j = 0; j < 16; j++) {
        /* Rows ZEROACC left invalid read as minus infinity (all bits set). */
        uint32_t dv = fpu_dst_get(x, drow, j, d32, valid[0], 0xFFFFFFFFu) << (d32 ? 0 : 16);
        gm_datum_t max = gm_read_dst(dv, dstyle);
        uint32_t max_index = dv & 0xFFu, index_phase = (dv + 0x100u) & 0xF00u;
        for (unsigned i_ = 0; i_ < 16; i_++) {
            unsigned i = i_ < 8 ? i_ ^ 4 : i_; /* the page's visitation order (ties in ArgMax) */
            gm_datum_t v = gm_read_src(a[arow + i][j], astyle, b[i]);
            if (gm_cmp(v) >= gm_cmp(max)) {
                max = v;
                if (i < 8) max_index = ((index_phase >> 4) + index_map[i]) & 0xFFu;
            }
        }
        uint32_t out = gm_write_dst(max, dstyle);
        if (argmax) out = dstyle == ST_INT32 ? (index_phase | max_index) : (out | index_phase | max_index);
        if (d32) {
            dp_dst32_write(x, drow, j, out);
            for (unsigned i = 1; i < 4; i++) {
                uint32_t g = argmax ? (fpu_dst_get(x, drow + i, j, true, valid[i], 0xFFFFFFFFu) + 0x100u) & 0xF00u : 0;
                dp_dst32_write(x, drow + i, j, g);
            }
        } else {
            dp_dst16_write(x, drow, j, (uint16_t)(out >> 16));
            for (unsigned i = 1; i < 4; i++)
                dp_dst16_write(x, drow + i, j, 0);
        }
    }
    dp_apply_addr_mod(x, TT_GMPOOL_POOL_ADDR_MODE(w), true);
}
