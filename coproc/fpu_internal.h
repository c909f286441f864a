/* coproc/fpu_internal.h — what the Matrix Unit's files share (coproc/fpu.c: moves, clears, Src
 * shuffles and the dispatch; fpu_elw.c: ELWADD/ELWSUB/ELWMUL; fpu_mm.c: MVMUL/DOTPV/GAPOOL/GMPOOL):
 * the formats an instruction works in, its Dst rows and fidelity phase, and Dst reads that honour
 * the row valid bits. Nothing outside those files includes it. */
#ifndef TTEMU_COPROC_FPU_INTERNAL_H
#define TTEMU_COPROC_FPU_INTERNAL_H

#include "coproc/dp_internal.h"
#include "coproc/fpu_num.h"

/* The SrcA / SrcB format the Matrix Unit assumes: ALU_FORMAT_SPEC_REG_Src*_val when overridden,
 * else ALU_FORMAT_SPEC_REG0_SrcA / REG1_SrcB; on Blackhole the bank's implied format (the
 * unpacker's Out_data_format) unless DISABLE_IMPLIED_SRC*_FMT_Base (MOVA2D.md, MOVD2A.md,
 * DATAPATH.md §2.1). implied = false: the configured format only (MOVB2D.md). */
static inline unsigned fpu_srca_fmt(const dp_ctx_t *x, bool implied) {
    unsigned f = CFG(x, ALU_FORMAT_SPEC_REG_SrcA_override) ? CFG(x, ALU_FORMAT_SPEC_REG_SrcA_val)
                                                           : CFG(x, ALU_FORMAT_SPEC_REG0_SrcA);
    if (implied && !THCFG(x, DISABLE_IMPLIED_SRCA_FMT_Base)) f = x->dp->srca.implied_fmt[dp_fpu_bank(x, 0)];
    return f;
}
static inline unsigned fpu_srcb_fmt(const dp_ctx_t *x) {
    unsigned f = CFG(x, ALU_FORMAT_SPEC_REG_SrcB_override) ? CFG(x, ALU_FORMAT_SPEC_REG_SrcB_val)
                                                           : CFG(x, ALU_FORMAT_SPEC_REG1_SrcB);
    if (!THCFG(x, DISABLE_IMPLIED_SRCB_FMT_Base)) f = x->dp->srcb.implied_fmt[dp_fpu_bank(x, 1)];
    return f;
}

/* The arithmetic's formats (ELWADD.md, MVMUL.md "Determine the data formats"): FP16A_FORCE makes
 * everything FP16 with a 16-bit Dst; INT8_math_enabled integer "8" operands into an integer "32"
 * Dst; otherwise SrcA's style decides the Dst type (FP32 when ALU_ACC_CTRL_Fp32_enabled, else BF16
 * or FP16). Each operand is read under its own format's style, as the data-type tables allow TF32
 * and BF16 on either side (ttsim masks each by its own format). */
typedef struct {
    bool int8;
    fmt_style_t a, b;
    fpu_acc_t acc;
} fpu_fmt_t;

/* Resolve them; false (and the run stops) for a combination no page lists: an FP16-family
 * operand with an 8-bit-exponent one. */
bool fpu_formats(dp_ctx_t *x, fpu_fmt_t *f);

/* Dst row of an instruction's DstRow field: + DEST_TARGET_REG_CFG_MATH_Offset + RWC Dst +
 * DEST_REGW_BASE_Base (the callers mask it to their block alignment): fpu_dst_row. fpu_dst_base is
 * its part that Config gives (MOVA2D's setup keeps it apart, fpu.c mova2d_plan_t: the math thread
 * writes MATH_Offset a few times a tile). */
static inline unsigned fpu_dst_base(const dp_ctx_t *x, unsigned imm) { return imm + CFG(x, DEST_REGW_BASE_Base); }
static inline unsigned fpu_dst_row(const dp_ctx_t *x, unsigned imm) {
    return fpu_dst_base(x, imm) + THCFG(x, DEST_TARGET_REG_CFG_MATH_Offset) + x->dp->rwc[x->t].dst;
}

/* The fidelity phase (RWCs.md FidelityPhase + FIDELITY_BASE_Phase, ELWMUL.md). */
static inline unsigned fpu_phase(const dp_ctx_t *x) {
    return (x->dp->rwc[x->t].fidelity + THCFG(x, FIDELITY_BASE_Phase)) & 3;
}

/* A Dst row's valid bit (Dst32b consults its first physical row: Dst.md). Rows ZEROACC left
 * invalid read as `undef`: 0 for the sums, all ones for GMPOOL (ZEROACC.md, GMPOOL.md). An
 * instruction takes the bit before it writes the row: a write makes the whole row valid once its
 * last column is written (ttsim write_dst16b/32b<set_valid_on_last_column_only>), so the row's
 * other columns still read as they were. */
static inline bool fpu_row_valid(const dp_ctx_t *x, unsigned row, bool d32) {
    return x->dp->dst.valid[d32 ? dp_adj32(x, row) : dp_adj16(x, row)];
}
static inline uint32_t fpu_dst_get(const dp_ctx_t *x, unsigned row, unsigned col, bool d32, bool valid,
                                   uint32_t undef) {
    if (!valid) return d32 ? undef : undef & 0xFFFFu;
    return d32 ? dp_dst32_read(x, row, col) : x->dp->dst.bits[dp_adj16(x, row)][col];
}
static inline void fpu_dst_put(dp_ctx_t *x, unsigned row, unsigned col, bool d32, uint32_t v) {
    if (d32)
        dp_dst32_write(x, row, col, v);
    else
        dp_dst16_write(x, row, col, (uint16_t)v);
}

/* A Dst row's 16 values as the accumulator reads them (fpu_dst_in) and their write (fpu_dst_out,
 * which makes the row valid), through its physical place r found once (dp_dst_row): the Dst side
 * of the row forms (fpu_elw.c's ELWADD/ELWSUB and ELWMUL, fpu_mm.c's MVMUL). r is a Dst32b row
 * exactly when acc.fp32 (these instructions' Dst is as wide as their accumulator). A row ZEROACC
 * left invalid reads as 0, as fpu_dst_get has it. Each loop knows whether the row holds data, its
 * width and so the accumulator's form: loops of shifts and masks without branches, which the
 * compiler vectorises (a Dst32b row's results encoded into one array, then split into halves). */
static inline __attribute__((always_inline)) void fpu_dst_row_in(dp_dst_row_t r, fpu_acc_t acc, uint32_t dv[16]) {
    if (!*r.valid) {
        for (unsigned j = 0; j < 16; j++)
            dv[j] = fpu_dst_in(0, acc);
    } else if (r.lo) {
        for (unsigned j = 0; j < 16; j++)
            dv[j] = fpu_dst_in((uint32_t)r.hi[j] << 16 | r.lo[j], (fpu_acc_t){.fp32 = true});
    } else {
        for (unsigned j = 0; j < 16; j++)
            dv[j] = fpu_dst_in(r.hi[j], (fpu_acc_t){.exp8 = acc.exp8});
    }
}
static inline __attribute__((always_inline)) void fpu_dst_row_out(dp_dst_row_t r, fpu_acc_t acc,
                                                                  const uint32_t dv[16]) {
    if (r.lo) {
        uint32_t e[16];
        for (unsigned j = 0; j < 16; j++)
            e[j] = fpu_dst_out(dv[j], (fpu_acc_t){.fp32 = true});
        for (unsigned j = 0; j < 16; j++)
            r.hi[j] = (uint16_t)(e[j] >> 16);
        for (unsigned j = 0; j < 16; j++)
            r.lo[j] = (uint16_t)e[j];
    } else {
        for (unsigned j = 0; j < 16; j++)
            r.hi[j] = (uint16_t)fpu_dst_out(dv[j], (fpu_acc_t){.exp8 = acc.exp8});
    }
    *r.valid = true;
}

/* SHIFTXA's input row (SHIFTXA.md: "whatever the most recent [...] instruction computed as its
 * (starting) SrcA row address"): every SrcA-reading instruction records it. */
static inline void fpu_note_srca_row(dp_ctx_t *x, unsigned row) { x->dp->fpu_srca_row = (uint8_t)(row & 63); }

void dp_fpu_elw(dp_ctx_t *x);    /* fpu_elw.c: ELWADD, ELWSUB, ELWMUL */
void dp_fpu_matmul(dp_ctx_t *x); /* fpu_mm.c: MVMUL, DOTPV, GAPOOL */
void dp_fpu_gmpool(dp_ctx_t *x); /* fpu_mm.c: GMPOOL */

#endif
