/* coproc/sfpu_int.c — the Vector Unit's integer, bitwise and field instructions and its
 * conversions: SFPIADD, SFPSHFT, SFPAND, SFPOR, SFPXOR, SFPNOT, SFPLZ, SFPABS, SFPEXEXP, SFPEXMAN,
 * SFPSETEXP, SFPSETMAN, SFPSETSGN, SFPDIVP2, SFPCAST and SFPSTOCHRND (coproc/sfpu_ops.h). The
 * conversions' arithmetic is the formats library's (coproc/formats.c), which has its own tests. */
#include "coproc/formats.h"
#include "coproc/sfpu_ops.h"
#include "coproc/tt_fields.h"

#define SIGN 0x80000000u

static inline bool writable(unsigned vd) { return vd < 8 || vd == 16; }
/* The second operand of the instructions whose page says `unsigned VB = VD;` (SFPLOADMACRO sets it). */
static inline unsigned vb_of(const sfp_op_t *o) { return o->vb != SFP_NONE ? o->vb : o->vd; }
static inline uint32_t set_bit(uint32_t m, unsigned l, bool v) { return v ? m | 1u << l : m & ~(1u << l); }
static inline int32_t imm12(const sfp_op_t *o) { return (int32_t)((uint32_t)o->imm << 20) >> 20; }

/* SFPIADD.md (Wormhole page, identical on Blackhole). Mod1: 1 ARG_IMM (VC + Imm12 sign-extended), 2
 * ARG_2SCOMP_LREG_DST (VC - VB), else VC + VB; flags (VD < 8 only): LaneFlags = VD < 0 unless 4
 * CC_NONE, then 8 CC_GTE0 inverts LaneFlags. */
sfp_res_t sfpu_iadd(lregs_t *s, const sfp_op_t *o) {
    if (!writable(o->vd)) return SFP_OK;
    uint32_t en = sfpu_lanes_enabled(s), neg = 0;
    const uint32_t *vc = s->r[o->vc], *vb = s->r[vb_of(o)];
    uint32_t *vd = s->r[o->vd];
    uint32_t k = (uint32_t)imm12(o);
    /* The operation chosen once, a loop each; the lanes' signs gathered as a mask (every lane
     * enabled, the common case: the sums in one loop, their signs after, fmt_lanes_sign_mask; not
     * under dp_set_reference). */
#define LANES_ADD(expr)                                                                                                \
    if (en == 0xFFFFFFFFu && !o->general) {                                                                            \
        for (unsigned l = 0; l < LANES; l++)                                                                           \
            vd[l] = (expr);                                                                                            \
        neg = fmt_lanes_sign_mask(vd);                                                                                 \
    } else {                                                                                                           \
        for (unsigned l = 0; l < LANES; l++) {                                                                         \
            uint32_t d = (expr);                                                                                       \
            if ((en >> l) & 1) vd[l] = d, neg |= (d >> 31) << l;                                                       \
        }                                                                                                              \
    }
    if (o->mod & 1)
        LANES_ADD(vc[l] + k)
    else if (o->mod & 2)
        LANES_ADD(vc[l] - vb[l])
    else
        LANES_ADD(vc[l] + vb[l])
#undef LANES_ADD
    if (o->vd < 8) { /* each enabled lane's flag: VD < 0, then inverted by CC_GTE0 */
        if (!(o->mod & 4)) s->flags = (s->flags & ~en) | neg;
        if (o->mod & 8) s->flags ^= en;
    }
    return SFP_OK;
}

/* SFPSHFT.md (Blackhole). Mod1: 1 ARG_IMM (shift by Imm12; with 4 ARG_IMM_USE_VC the value shifted is
 * VC), 2 ARITHMETIC right shifts; else VD shifted by VC. Positive amounts shift left, negative right,
 * modulo 32. Reserved Mod1 values behave as current silicon does (NonContractualBehavior): 4 and 6
 * lose bit 2, 8 and up keep their low 3 bits. */
sfp_res_t sfpu_shft(lregs_t *s, const sfp_op_t *o) {
    unsigned m = o->mod;
    if (m == 4 || m == 6)
        m &= ~4u;
    else if (m > 7)
        m &= 7;
    if (!writable(o->vd)) return SFP_OK;
    uint32_t en = sfpu_lanes_enabled(s);
    unsigned vb = vb_of(o);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((en >> l) & 1)) continue;
        uint32_t x = s->r[vb][l];
        int32_t n = (int32_t)s->r[o->vc][l];
        if (m & 1) {
            if (m & 4) x = (uint32_t)n;
            n = imm12(o);
        }
        uint32_t d;
        if (n >= 0)
            d = x << (n & 31);
        else if (m & 2) /* (the amount negated as unsigned: -n overflows for n = INT32_MIN) */
            d = (uint32_t)((int32_t)x >> ((0u - (uint32_t)n) & 31));
        else
            d = x >> ((0u - (uint32_t)n) & 31);
        s->r[o->vd][l] = d;
    }
    return SFP_OK;
}

/* SFPAND.md, SFPOR.md (Blackhole: VB with Mod1 1 USE_VB, else VD), SFPXOR.md (VB = VD), SFPNOT.md. */
sfp_res_t sfpu_bitwise(lregs_t *s, const sfp_op_t *o) {
    if (!writable(o->vd)) return SFP_OK;
    uint32_t en = sfpu_lanes_enabled(s);
    unsigned vb = vb_of(o);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((en >> l) & 1)) continue;
        uint32_t b = s->r[vb][l], c = s->r[o->vc][l], d;
        switch (o->opc) {
        case TT_OPC_SFPAND: d = b & c; break;
        case TT_OPC_SFPOR: d = b | c; break;
        case TT_OPC_SFPXOR: d = b ^ c; break;
        default: d = ~c; break; /* SFPNOT */
        }
        s->r[o->vd][l] = d;
    }
    return SFP_OK;
}

/* SFPLZ.md (Blackhole): leading zeros of VC (32 for 0), with Mod1 4 NOSGN_MASK of its low 31 bits.
 * Flags (VD < 8 only): 2 CC_NE0 sets LaneFlags = VC != 0, then 8 CC_COMP inverts LaneFlags. */
sfp_res_t sfpu_lz(lregs_t *s, const sfp_op_t *o) {
    if (!writable(o->vd)) return SFP_OK;
    uint32_t en = sfpu_lanes_enabled(s);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((en >> l) & 1)) continue;
        uint32_t c = s->r[o->vc][l];
        if (o->mod & 4) c &= ~SIGN;
        s->r[o->vd][l] = c ? (uint32_t)__builtin_clz(c) : 32;
        if (o->vd < 8) {
            if (o->mod & 2) s->flags = set_bit(s->flags, l, c != 0);
            if (o->mod & 8) s->flags ^= 1u << l;
        }
    }
    return SFP_OK;
}

/* SFPABS.md (Wormhole page): Mod1 1 FLOAT clears the sign bit, but leaves -NaN as it is; else
 * two's complement negation of negative values (-2^31 stays). */
sfp_res_t sfpu_abs(lregs_t *s, const sfp_op_t *o) {
    if (!writable(o->vd)) return SFP_OK;
    uint32_t en = sfpu_lanes_enabled(s);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((en >> l) & 1)) continue;
        uint32_t x = s->r[o->vc][l];
        if (x & SIGN) {
            if (!(o->mod & 1))
                x = 0u - x;
            else if (x < 0xFF800001u) /* not -NaN */
                x &= ~SIGN;
        }
        s->r[o->vd][l] = x;
    }
    return SFP_OK;
}

/* SFPEXEXP.md (Wormhole page): VD = the exponent field of VC, less 127 unless Mod1 1 NODEBIAS. Flags
 * (VD < 8 only): 2 SET_CC_SGN_EXP sets LaneFlags = VD < 0, then 8 SET_CC_COMP_EXP inverts them. */
sfp_res_t sfpu_exexp(lregs_t *s, const sfp_op_t *o) {
    if (!writable(o->vd)) return SFP_OK;
    uint32_t en = sfpu_lanes_enabled(s);
    int32_t bias = (o->mod & 1) ? 0 : 127;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((en >> l) & 1)) continue;
        int32_t e = (int32_t)((s->r[o->vc][l] >> 23) & 0xFF) - bias;
        s->r[o->vd][l] = (uint32_t)e;
        if (o->vd < 8) {
            if (o->mod & 2) s->flags = set_bit(s->flags, l, e < 0);
            if (o->mod & 8) s->flags ^= 1u << l;
        }
    }
    return SFP_OK;
}

/* SFPEXMAN.md (Wormhole page): VD = VC's 23 mantissa bits, with the hidden bit (1 << 23) unless
 * Mod1 1 PAD9. */
sfp_res_t sfpu_exman(lregs_t *s, const sfp_op_t *o) {
    if (!writable(o->vd)) return SFP_OK;
    uint32_t en = sfpu_lanes_enabled(s), hidden = (o->mod & 1) ? 0 : 1u << 23;
    for (unsigned l = 0; l < LANES; l++)
        if ((en >> l) & 1) s->r[o->vd][l] = hidden + (s->r[o->vc][l] & 0x7FFFFF);
    return SFP_OK;
}

/* The FP32 field setters, VC's other fields kept (Wormhole pages, identical on Blackhole):
 *   SFPSETEXP.md  exponent from Mod1 1 Imm8, 2 VB's exponent field, else VB's low 8 bits;
 *   SFPSETMAN.md  mantissa from Mod1 1 Imm12 << 11, else VB's low 23 bits;
 *   SFPSETSGN.md  sign from Mod1 1 Imm1, else VB's sign;
 *   SFPDIVP2.md   exponent Imm8, or with Mod1 1 ADD the exponent + Imm8 (8-bit wrap; Inf and NaN kept).
 * VB = VD. */
sfp_res_t sfpu_setfield(lregs_t *s, const sfp_op_t *o) {
    if (!writable(o->vd)) return SFP_OK;
    uint32_t en = sfpu_lanes_enabled(s);
    const uint32_t *vc = s->r[o->vc], *vb = s->r[vb_of(o)];
    uint32_t *vd = s->r[o->vd];
    /* Which field and where its bits come from is the instruction's, not the lane's: chosen once,
     * each choice a loop of its own (c: VC's lane, b: VB's). */
#define EXP 0x7F800000u
#define MAN 0x007FFFFFu
#define LANES_SET(expr)                                                                                                \
    for (unsigned l = 0; l < LANES; l++) {                                                                             \
        uint32_t c = vc[l], b = vb[l];                                                                                 \
        (void)b;                                                                                                       \
        if ((en >> l) & 1) vd[l] = (expr);                                                                             \
    }
    bool imm = o->mod & 1;
    switch (o->opc) {
    case TT_OPC_SFPSETEXP: {
        uint32_t k = (uint32_t)(o->imm & 0xFFu) << 23;
        if (imm)
            LANES_SET((c & ~EXP) | k)
        else if (o->mod & 2)
            LANES_SET((c & ~EXP) | (b & EXP))
        else
            LANES_SET((c & ~EXP) | (b & 0xFF) << 23)
        break;
    }
    case TT_OPC_SFPSETMAN: {
        uint32_t k = ((uint32_t)o->imm << 11) & MAN;
        if (imm)
            LANES_SET((c & ~MAN) | k)
        else
            LANES_SET((c & ~MAN) | (b & MAN))
        break;
    }
    case TT_OPC_SFPSETSGN: {
        uint32_t k = (uint32_t)(o->imm & 1) << 31;
        if (imm)
            LANES_SET((c & ~SIGN) | k)
        else
            LANES_SET((c & ~SIGN) | (b & SIGN))
        break;
    }
    default: { /* SFPDIVP2 */
        uint32_t k = (uint32_t)(o->imm & 0xFFu) << 23;
        if (!imm)
            LANES_SET((c & ~EXP) | k)
        else
            LANES_SET((c & EXP) == EXP ? c : (c & ~EXP) | ((c + k) & EXP))
        break;
    }
    }
#undef LANES_SET
#undef EXP
#undef MAN
    return SFP_OK;
}

/* SFPCAST.md's three pages, by Mod1 (above 3: its low two bits, NonContractualBehavior):
 *   0, 1  SFPCAST_IntFloat.md: sign-magnitude int32 to FP32, to nearest even, or (1) stochastically
 *         with seven PRNG bits (one PRNG step per enabled lane);
 *   2     SFPCAST_IntAbs.md: two's complement absolute value (-2^31 stays);
 *   3     SFPCAST_IntInt.md: two's complement <-> sign-magnitude (-2^31 <-> -0). */
sfp_res_t sfpu_cast(lregs_t *s, const sfp_op_t *o) {
    unsigned m = o->mod & 3;
    uint32_t en = sfpu_lanes_enabled(s);
    if (m <= 1)
        en &= sfpu_backdoor_ok(s, o);
    else if (!writable(o->vd))
        return SFP_OK;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((en >> l) & 1)) continue;
        uint32_t c = s->r[o->vc][l], d;
        if (m <= 1)
            d = fmt_sfpcast_sm32_to_fp32(c, m == 1, m == 1 ? sfpu_prng_advance(s, l) : 0);
        else if (m == 2)
            d = (c & SIGN) ? 0u - c : c;
        else
            d = fmt_sfpcast_int_sm(c);
        if (writable(o->vd)) s->r[o->vd][l] = d;
    }
    return SFP_OK;
}

/* SFPSTOCHRND's three pages, by the 3-bit Mod1: 0, 1 FloatFloat (to 10 or 7 mantissa bits); 2, 3,
 * 6, 7 FloatInt (to 0..255, ±127, 0..65535, ±32767); 4, 5 IntInt (a sign-magnitude magnitude shifted
 * right by Imm5 when UseImm5, else by VB's low five bits, to 0..255 or ±127). RoundingMode 0 nearest
 * (ties away from zero), 2 toward zero, else stochastic; every enabled lane advances its PRNG,
 * whatever the mode. The documented hardware bugs (the >= comparisons) are the formats library's. */
sfp_res_t sfpu_stochrnd(lregs_t *s, const sfp_op_t *o) {
    uint32_t en = sfpu_lanes_enabled(s) & sfpu_backdoor_ok(s, o);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((en >> l) & 1)) continue;
        uint32_t prng = sfpu_prng_advance(s, l);
        unsigned shift = o->use_imm5 ? o->imm & 31u : s->r[o->vb][l] & 31u;
        uint32_t d;
        fmt_sfpstochrnd(o->mod & 7u, o->rnd, s->r[o->vc][l], shift, prng, &d);
        if (writable(o->vd)) s->r[o->vd][l] = d;
    }
    return SFP_OK;
}
