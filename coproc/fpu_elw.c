/* coproc/fpu_elw.c — the Matrix Unit's element-wise arithmetic: ELWADD, ELWSUB, ELWMUL (WH
 * ELWADD.md, ELWSUB.md, ELWMUL.md, which Blackhole shares: BH MatrixUnit.md). An aligned 8x16
 * block of SrcA with one of SrcB (optionally a broadcast row and/or column 0) into an aligned 8x16
 * block of Dst. The floating-point arithmetic is coproc/fpu_num.c's; integer "8" operands (with
 * ALU_ACC_CTRL_INT8_math_enabled) follow the pages' exact integer model. The Src bank flips
 * (clear_dvalid) are the timing model's (coproc/timing.c). */
#include "coproc/fpu_internal.h"
#include "coproc/tt_fields.h"
#include "coproc/tt_ops.h"

enum { ELW_ADD, ELW_SUB, ELW_MUL };

/* The pages' fields, one accessor set per opcode (same layout). */
typedef struct {
    unsigned kind, dst, addr_mode, bcast, accum;
} elw_args_t;

static elw_args_t elw_args(uint32_t w) {
    switch (TT_OPCODE(w)) {
    case TT_OPC_ELWADD:
        return (elw_args_t){ELW_ADD, TT_ELWADD_DST(w), TT_ELWADD_ADDR_MODE(w), TT_ELWADD_INSTR_MOD19(w),
                            TT_ELWADD_DEST_ACCUM_EN(w)};
    case TT_OPC_ELWSUB:
        return (elw_args_t){ELW_SUB, TT_ELWSUB_DST(w), TT_ELWSUB_ADDR_MODE(w), TT_ELWSUB_INSTR_MOD19(w),
                            TT_ELWSUB_DEST_ACCUM_EN(w)};
    default: /* ELWMUL always accumulates: its page's syntax fixes that field to true */
        return (elw_args_t){ELW_MUL, TT_ELWMUL_DST(w), TT_ELWMUL_ADDR_MODE(w), TT_ELWMUL_INSTR_MOD19(w), 1};
    }
}

/* The row forms' SrcB row for Dst row i: row brow + i, or row brow for every i when broadcast by
 * rows; with column 0 broadcast, that column copied across bcol. */
static inline const uint32_t *b_row(const uint32_t (*b)[SRC_COLS], unsigned brow, unsigned i, bool bcast_row,
                                    bool bcast_col0, uint32_t bcol[16]) {
    const uint32_t *r = b[(brow + (bcast_row ? 0 : i)) & 63];
    if (!bcast_col0) return r;
    for (unsigned j = 0; j < 16; j++)
        bcol[j] = r[0];
    return bcol;
}

void dp_fpu_elw(dp_ctx_t *x) {
    elw_args_t e = elw_args(x->word);
    fpu_fmt_t f;
    if (!fpu_formats(x, &f)) return;
    const rwc_t *r = &x->dp->rwc[x->t];
    bool bcast_col0 = e.bcast & 1, bcast_row = e.bcast & 2;
    unsigned arow = r->srca & 0x38, brow = r->srcb & (bcast_row ? 0x3F : 0x38);
    unsigned drow = fpu_dst_row(x, e.dst) & 0x3F8, phase = fpu_phase(x);
    bool flush_b = !CFG(x, ALU_ACC_CTRL_Zero_Flag_disabled_src), d32 = f.acc.fp32;
    /* ELWADD.md: "if (FidelityPhase & 1) Result /= 32.f; if (FidelityPhase & 2) Result /= 128.f;"
     * — powers of two, applied to the exact sum as an exponent change. */
    unsigned scale = ((phase & 1) ? 5 : 0) + ((phase & 2) ? 7 : 0);
    const uint32_t(*a)[SRC_COLS] = x->dp->srca.d[dp_fpu_bank(x, 0)];
    const uint32_t(*b)[SRC_COLS] = x->dp->srcb.d[dp_fpu_bank(x, 1)];
    fpu_note_srca_row(x, arow);

    if (!f.int8 && e.kind != ELW_MUL && !e.accum && !x->dp->reference) {
        /* ELWADD / ELWSUB without accumulation: a row of 16 at once (fpu_elwadd_row, fpu_elwadd's
         * rule), each Dst row's physical place found once; nothing of Dst is read. */
        for (unsigned i = 0; i < 8; i++) {
            uint32_t bcol[16], res[16];
            const uint32_t *arow_i = a[arow + i], *brow_i = b_row(b, brow, i, bcast_row, bcast_col0, bcol);
            fpu_elwadd_row(arow_i, brow_i, res, f.a, f.b, e.kind == ELW_SUB, flush_b, f.acc, scale);
            fpu_dst_row_out(dp_dst_row(x, drow + i, d32), f.acc, res);
        }
        dp_apply_addr_mod(x, e.addr_mode, true);
        return;
    }
    if (!f.int8 && e.kind == ELW_MUL && !x->dp->reference) {
        /* ELWMUL: a row of 16 at once (fpu_elwmul_row, fpu_elwmul's rule: four datums at a time
         * into a 16-bit Dst, datum by datum into an FP32 one), each Dst row read and written
         * through its physical place, found once. */
        for (unsigned i = 0; i < 8; i++) {
            uint32_t bcol[16], dv[16];
            const uint32_t *arow_i = a[arow + i], *brow_i = b_row(b, brow, i, bcast_row, bcast_col0, bcol);
            dp_dst_row_t r = dp_dst_row(x, drow + i, d32);
            fpu_dst_row_in(r, f.acc, dv);
            fpu_elwmul_row(arow_i, brow_i, dv, f.a, f.b, flush_b, f.acc, phase);
            fpu_dst_row_out(r, f.acc, dv);
        }
        dp_apply_addr_mod(x, e.addr_mode, true);
        return;
    }
    for (unsigned i = 0; i < 8; i++) {
        const uint32_t *arow_i = a[arow + i], *brow_i = b[(brow + (bcast_row ? 0 : i)) & 63];
        unsigned d = drow + i;
        bool valid = fpu_row_valid(x, d, d32 || f.int8);
        for (unsigned j = 0; j < 16; j++) {
            uint32_t av = arow_i[j], bv = brow_i[bcast_col0 ? 0 : j];
            if (f.int8) {
                /* Integer "8" into integer "32", saturating at +-(2^31 - 1). ELWMUL feeds the
                 * magnitude bits of this fidelity phase (ELWMUL.md masks, Src layout). */
                int32_t res;
                if (e.kind == ELW_MUL) {
                    int32_t ai = fpu_int8(av & ((phase & 1) ? 0x41FFFu : 0x4E0FFu));
                    int32_t bi = fpu_int8(bv & ((phase & 2) ? 0x40FFFu : 0x7F0FFu));
                    res = ai * bi;
                } else {
                    res = e.kind == ELW_ADD ? fpu_int8(av) + fpu_int8(bv) : fpu_int8(av) - fpu_int8(bv);
                }
                if (e.accum) res = fpu_sat_add(res, fpu_dst_int32(fpu_dst_get(x, d, j, true, valid, 0)));
                dp_dst32_write(x, d, j, fpu_dst_from_int32(res));
                continue;
            }
            uint32_t ao, bo;
            bool zero = fpu_elw_operands(av, bv, f.a, f.b, e.kind == ELW_SUB, flush_b, &ao, &bo);
            uint32_t dv = e.accum ? fpu_dst_in(fpu_dst_get(x, d, j, d32, valid, 0), f.acc) : 0;
            uint32_t res =
                e.kind == ELW_MUL ? fpu_elwmul(ao, bo, zero, dv, f.acc, phase) : fpu_elwadd(ao, bo, dv, f.acc, scale);
            fpu_dst_put(x, d, j, d32, fpu_dst_out(res, f.acc));
        }
    }
    dp_apply_addr_mod(x, e.addr_mode, true);
}
