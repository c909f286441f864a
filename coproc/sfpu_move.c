/* coproc/sfpu_move.c — the Vector Unit's moves, lane shuffles and configuration: SFPMOV, SFPSWAP,
 * SFPTRANSP, SFPSHFT2, SFPLOADI and SFPCONFIG (coproc/sfpu_ops.h). The cross-lane ones read a copy
 * of their source first, as their pages' models do (`auto vc = LReg[VC]`). */
#include <string.h>

#include "coproc/formats.h"
#include "coproc/sfpu_ops.h"
#include "coproc/tt_fields.h"

static inline bool writable(unsigned vd) { return vd < 8 || vd == 16; }
static inline bool bit(uint32_t m, unsigned l) { return (m >> l) & 1; }

/* SFPMOV.md (Wormhole page, identical on Blackhole): VD = VC (Mod1 1 NEGATE flips the sign bit), in
 * enabled lanes or with Mod1 == 2 ALL_LANES_ENABLED in all; with Mod1 8 FROM_SPECIAL the value is by
 * VC: 0..3 InstructionTemplate, 4..7 Sequence, 8 Misc, 9 AdvancePRNG(), 15 LaneConfig, else 0. */
sfp_res_t sfpu_mov(lregs_t *s, const sfp_op_t *o) {
    uint32_t ok = sfpu_backdoor_ok(s, o);
    uint32_t en = o->mod == 2 ? ok : sfpu_lanes_enabled(s) & ok;
    for (unsigned l = 0; l < LANES; l++) {
        if (!bit(en, l)) continue;
        uint32_t x;
        if (o->mod & 8) {
            unsigned c = o->vc;
            if (c < 4)
                x = s->lm_tmpl[l][c];
            else if (c < 8)
                x = s->lm_seq[l][c - 4];
            else if (c == 8)
                x = s->lm_misc[l];
            else if (c == 9)
                x = sfpu_prng_advance(s, l);
            else if (c == 15)
                x = s->lane_config[l];
            else
                x = 0;
        } else {
            x = s->r[o->vc][l] ^ ((o->mod & 1) ? 0x80000000u : 0);
        }
        if (writable(o->vd)) s->r[o->vd][l] = x;
    }
    return SFP_OK;
}

/* SFPSWAP.md. Mod1 0 swaps; 1..8 keep the minimum in VD and the maximum in VC in the lanes a mask
 * picks (0xFFFFFFFF, 0x0000FFFF, 0x00FF00FF, 0xFF0000FF, 0xFF, 0xFF00, 0xFF0000, 0xFF000000), the
 * opposite in the others; 9 and above (9 is unnamed; above, NonContractualBehavior): maximum in VD
 * everywhere. Ordering by sign-magnitude (FP32's total order); LaneConfig EXCHANGE_SRCB_SRCC inverts
 * the decision; ENABLE_DEST_INDEX also swaps LReg[4 + (VC & 3)] and LReg[4 + (VD & 3)] and writes
 * only LReg[0..3]. VC and VD themselves are written only below 8.
 *
 * The "VD" operand is read and written through VB, which is VD but when SFPLOADMACRO sets it [INF
 * from tt-llk's exp sanitising macro, ckernel_sfpu_exp.h: a template SFPSWAP with VD = 14 under
 * sequence bits that give VC the loaded register clamps that register against LReg[14], as it says,
 * only if the swap's second operand is the template's VD]. */
sfp_res_t sfpu_swap(lregs_t *s, const sfp_op_t *o) {
    static const uint32_t gets_min[9] = {
        0,           0xFFFFFFFFu, 0x0000FFFFu, 0x00FF00FFu, 0xFF0000FFu,
        0x000000FFu, 0x0000FF00u, 0x00FF0000u, 0xFF000000u}; /* lane masks (check_fields: not a field) */
    uint32_t min_mask = o->mod <= 8 ? gets_min[o->mod] : 0;
    uint32_t en = sfpu_lanes_enabled(s) & sfpu_backdoor_ok(s, o);
    unsigned vc = o->vc, vd = o->vb != SFP_NONE ? o->vb : o->vd;
    for (unsigned l = 0; l < LANES; l++) {
        if (!bit(en, l)) continue;
        uint32_t cv = s->r[vc][l], dv = s->r[vd][l], lc = s->lane_config[l];
        bool swap = true;
        if (o->mod != 0) {
            swap = bit(min_mask, l) ? sfpu_sm_smaller(cv, dv) : !sfpu_sm_smaller(cv, dv);
            if (lc & LC_EXCHANGE_SRCB_SRCC) swap = !swap;
        }
        if (!swap) continue;
        if (lc & LC_ENABLE_DEST_INDEX) {
            if (vc < 4) s->r[vc][l] = dv;
            if (vd < 4) s->r[vd][l] = cv;
            unsigned ca = 4 + (vc & 3), da = 4 + (vd & 3);
            uint32_t t = s->r[ca][l];
            s->r[ca][l] = s->r[da][l];
            s->r[da][l] = t;
        } else {
            if (vc < 8) s->r[vc][l] = dv;
            if (vd < 8) s->r[vd][l] = cv;
        }
    }
    return SFP_OK;
}

/* SFPTRANSP.md (Wormhole page, identical on Blackhole): within each of the 8 columns of the 4 x 8 lane
 * grid, transpose the 4 x 4 block of rows of LReg[0..3], and of LReg[4..7]; a lane takes its new value
 * only if enabled. Cross-lane, so the backdoor condition is taken for all lanes at once: every lane
 * needs DISABLE_BACKDOOR_LOAD when VD >= 12 [CHOICE; the page tests one LaneConfig]. */
sfp_res_t sfpu_transp(lregs_t *s, const sfp_op_t *o) {
    if (sfpu_backdoor_ok(s, o) != 0xFFFFFFFFu) return SFP_OK;
    uint32_t en = sfpu_lanes_enabled(s);
    for (unsigned base = 0; base < 8; base += 4)
        for (unsigned col = 0; col < 8; col++)
            for (unsigned i = 0; i < 4; i++)
                for (unsigned j = 0; j < i; j++) {
                    unsigned li = i * 8 + col, lj = j * 8 + col;
                    uint32_t ij = s->r[base + i][lj], ji = s->r[base + j][li];
                    if (bit(en, lj)) s->r[base + i][lj] = ji;
                    if (bit(en, li)) s->r[base + j][li] = ij;
                }
    return SFP_OK;
}

/* LReg[0..2] = LReg[1..3] and LReg[3] = v, in one lane. */
static void copy4(lregs_t *s, unsigned l, uint32_t v) {
    s->r[0][l] = s->r[1][l];
    s->r[1][l] = s->r[2][l];
    s->r[2][l] = s->r[3][l];
    s->r[3][l] = v;
}

/* SFPSHFT2.md (Blackhole), by Mod1: 0 COPY4 (LReg[3] = 0); 1 SUBVEC_CHAINED_COPY4 (LReg[3] = the old
 * LReg[0] eight lanes on, zero for the last row); 2 SUBVEC_SHFLROR1_AND_COPY4 (LReg[3] = VC rotated
 * right by one lane within each row of eight); 3 SUBVEC_SHFLROR1 (VD = that rotation); 4
 * SUBVEC_SHFLSHR1 (VD = VC shifted right one lane within each row, zero in; Blackhole's fix of the
 * Wormhole bug); 5 SHFT_LREG (VD = VB shifted left by VC, or right by -VC, modulo 32); 6 SHFT_IMM
 * (VD = LReg[Imm12 & 15] shifted by the signed Imm12). Mod1 7..15 have no model on the page:
 * UndefinedBehavior. */
sfp_res_t sfpu_shft2(lregs_t *s, const sfp_op_t *o) {
    uint32_t en = sfpu_lanes_enabled(s), ok = sfpu_backdoor_ok(s, o);
    uint32_t v[LANES];
    switch (o->mod) {
    case 0:
        for (unsigned l = 0; l < LANES; l++)
            if (bit(en & ok, l)) copy4(s, l, 0);
        return SFP_OK;
    case 1:
        memcpy(v, s->r[0], sizeof v);
        for (unsigned l = 0; l < LANES; l++)
            if (bit(en & ok, l)) copy4(s, l, l < 24 ? v[l + 8] : 0);
        return SFP_OK;
    case 2:
    case 3:
        if (ok != 0xFFFFFFFFu) return SFP_OK; /* cross-lane: as SFPTRANSP */
        memcpy(v, s->r[o->vc], sizeof v);
        if (o->mod == 3 && !writable(o->vd)) return SFP_OK;
        for (unsigned l = 0; l < LANES; l++) {
            if (!bit(en, l)) continue;
            uint32_t x = (l & 7) ? v[l - 1] : v[l + 7];
            if (o->mod == 2)
                copy4(s, l, x);
            else
                s->r[o->vd][l] = x;
        }
        return SFP_OK;
    case 4:
        if (!writable(o->vd)) return SFP_OK;
        memcpy(v, s->r[o->vc], sizeof v);
        for (unsigned l = 0; l < LANES; l++)
            if (bit(en, l)) s->r[o->vd][l] = (l & 7) ? v[l - 1] : 0;
        return SFP_OK;
    case 5:
    case 6: {
        if (!writable(o->vd)) return SFP_OK;
        int32_t k = (int32_t)((uint32_t)o->imm << 20) >> 20; /* Imm12, signed */
        for (unsigned l = 0; l < LANES; l++) {
            if (!bit(en, l)) continue;
            int32_t n = o->mod == 5 ? (int32_t)s->r[o->vc][l] : k;
            uint32_t b = s->r[o->vb][l];
            s->r[o->vd][l] = n >= 0 ? b << (n & 31) : b >> ((0u - (uint32_t)n) & 31); /* (-n overflows at INT32_MIN) */
        }
        return SFP_OK;
    }
    default: return (sfp_res_t){CP_ERR_UNDEFINED, "SFPSHFT2 with a Mod1 its page does not define (7..15)"};
    }
}

/* SFPLOADI.md (Wormhole page, identical on Blackhole): VD < 8 only, enabled lanes; Mod0 0 BF16, 1 FP16
 * (rebias only), 2 UINT16, 4 INT16, 8 upper half, 10 lower half; others UndefinedBehaviour. */
sfp_res_t sfpu_loadi(lregs_t *s, const sfp_op_t *o) {
    uint32_t probe;
    if (!fmt_sfploadi(o->mod, o->imm, 0, &probe))
        return (sfp_res_t){CP_ERR_UNDEFINED, "SFPLOADI with a Mod0 its page does not define"};
    if (o->vd >= 8) return SFP_OK; /* "Cannot write directly to LReg[11] through LReg[14]" */
    uint32_t en = sfpu_lanes_enabled(s);
    for (unsigned l = 0; l < LANES; l++)
        if (bit(en, l)) fmt_sfploadi(o->mod, o->imm, s->r[o->vd][l], &s->r[o->vd][l]);
    return SFP_OK;
}

/* SFPCONFIG.md. The source is LReg[0]'s lanes 0..7 broadcast down the rows (read before any write),
 * or with Mod1 1 IMM16_IS_VALUE the immediate; Mod1 8 IMM16_IS_LANE_MASK skips the columns whose Imm16
 * bit 2 * column is clear; a column whose lane (0..7) has UseLaneFlagsForLaneEnable && !LaneFlags is
 * skipped. VD: 0..3 InstructionTemplate (always LReg[0]), 4..7 Sequence, 8 Misc (12 bits; Mod1 2/4/6
 * OR, AND, XOR), 9..10 nothing (NonContractualBehavior), 11..14 LReg[VD] (with Mod1 1 the defaults
 * -1.0, 1/512, -0.67487759, -0.34484843), 15 LaneConfig (18 bits; Mod1 2/4/6 OR, AND, XOR; with
 * Mod1 1 the bits above 15 are kept). LReg[12]'s default: the current Blackhole page and ttsim say
 * 1/512 (0x3B000000); older revisions of the page said 1/65536. */
sfp_res_t sfpu_config(lregs_t *s, const sfp_op_t *o) {
    /* -1.0, 1/512, -0.67487759, -0.34484843 (check_fields: not a field) */
    static const uint32_t dflt[4] = {
        0xBF800000u, /* check_fields: not a field */
        0x3B000000u, /* check_fields: not a field */
        0xBF2CC4C7u,
        0xBEB08FF9u,
    };
    uint32_t src[8];
    memcpy(src, s->r[0], sizeof src);
    unsigned vd = o->vd, m = o->mod;
    if (vd > 15) return SFP_OK; /* an SFPLOADMACRO-scheduled SFPCONFIG with VD 16: no destination */
    for (unsigned l = 0; l < LANES; l++) {
        unsigned c = l & 7;
        if ((m & 8) && !((o->imm >> (2 * c)) & 1)) continue;
        if (bit(s->use_flags, c) && !bit(s->flags, c)) continue;
        uint32_t v = (m & 1) ? o->imm : src[c];
        if (vd < 4) {
            s->lm_tmpl[l][vd] = src[c];
        } else if (vd < 8) {
            s->lm_seq[l][vd - 4] = v;
        } else if (vd == 8 || vd == 15) {
            uint32_t old = vd == 8 ? s->lm_misc[l] : s->lane_config[l], n;
            switch (m & 6) {
            case 0: n = v; break;
            case 2: n = old | v; break;
            case 4: n = old & v; break;
            default: n = old ^ v; break;
            }
            if (vd == 8) {
                s->lm_misc[l] = (uint16_t)(n & 0xFFF);
            } else {
                if (m & 1) n |= old & ~0xFFFFu;
                sfpu_lane_config_w(s, l, n & 0x3FFFFu);
            }
        } else if (vd >= 11) {
            s->r[vd][l] = (m & 1) ? dflt[vd - 11] : src[c];
        }
    }
    return SFP_OK;
}
