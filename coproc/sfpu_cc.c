/* coproc/sfpu_cc.c — the Vector Unit's conditional execution: the lane flags, the flag stack and
 * the instructions that set them: SFPSETCC, SFPENCC, SFPPUSHC, SFPPOPC, SFPCOMPC, SFPGT and SFPLE
 * (coproc/sfpu_ops.h; VectorUnit.md "Lane Predication Masks").
 *
 * State (coproc/dp_regs.h): LaneFlags and UseLaneFlagsForLaneEnable as masks, and per lane a stack
 * of at most eight {LaneFlags, UseLaneFlagsForLaneEnable} entries: lane L's depth stack_n[L], its
 * entry k bit L of stack_flags[k] / stack_use[k]. Lanes keep their own depths, as the pages' lanewise
 * models have them (all lanes push and pop together unless VD >= 12 splits them by
 * DISABLE_BACKDOOR_LOAD). */
#include "coproc/formats.h"
#include "coproc/sfpu_ops.h"
#include "coproc/tt_fields.h"

static inline uint32_t set_bit(uint32_t m, unsigned l, bool v) { return v ? m | 1u << l : m & ~(1u << l); }
static inline bool bit(uint32_t m, unsigned l) { return (m >> l) & 1; }

/* SFPSETCC.md (Wormhole page, identical on Blackhole), in enabled lanes: LaneFlags = false when
 * UseLaneFlagsForLaneEnable is false or with Mod1 8 CLEAR; = Imm1 with Mod1 1 IMM_BIT0; else by
 * VC as a two's complement integer: Mod1 0 VC < 0, 2 VC != 0, 4 VC >= 0, 6 VC == 0. */
/* The comparison of VC (a two's complement integer) with Mod1 0, 2, 4, 6. */
static inline bool setcc_cond(unsigned mod, int32_t c) {
    switch (mod & 6) {
    case 0: return c < 0;
    case 2: return c != 0;
    case 4: return c >= 0;
    default: return c == 0;
    }
}

sfp_res_t sfpu_setcc(lregs_t *s, const sfp_op_t *o) {
    uint32_t en = sfpu_lanes_enabled(s) & sfpu_backdoor_ok(s, o);
    if (!o->general) { /* the 32 lanes as masks */
        uint32_t f = 0;
        if (!(o->mod & 8)) {
            if (o->mod & 1) {
                f = (o->imm & 1) ? 0xFFFFFFFFu : 0;
            } else {
                /* setcc_cond over the lanes: VC < 0 its sign bit, >= 0 not; == 0 and != 0 */
                const uint32_t *c = s->r[o->vc];
                uint32_t m = (o->mod & 2) ? fmt_lanes_zero_mask(c) : fmt_lanes_sign_mask(c);
                f = (o->mod & 6) == 0 || (o->mod & 6) == 6 ? m : ~m;
            }
            f &= s->use_flags;
        }
        s->flags = (s->flags & ~en) | (f & en);
        return SFP_OK;
    }
    for (unsigned l = 0; l < LANES; l++) {
        if (!bit(en, l)) continue;
        bool f;
        if (!bit(s->use_flags, l) || (o->mod & 8)) {
            f = false;
        } else if (o->mod & 1) {
            f = o->imm & 1;
        } else {
            f = setcc_cond(o->mod, (int32_t)s->r[o->vc][l]);
        }
        s->flags = set_bit(s->flags, l, f);
    }
    return SFP_OK;
}

/* SFPENCC.md, in every lane (not only the enabled ones): UseLaneFlagsForLaneEnable = Imm2 bit 0 with
 * Mod1 2 EI, inverted with Mod1 1 EC, else kept; LaneFlags = Imm2 bit 1 with Mod1 8 RI, else true. */
sfp_res_t sfpu_encc(lregs_t *s, const sfp_op_t *o) {
    uint32_t ok = sfpu_backdoor_ok(s, o);
    uint32_t use = s->use_flags;
    if (o->mod & 2)
        use = (o->imm & 1) ? 0xFFFFFFFFu : 0;
    else if (o->mod & 1)
        use = ~use;
    uint32_t fl = (o->mod & 8) ? ((o->imm & 2) ? 0xFFFFFFFFu : 0) : 0xFFFFFFFFu;
    s->use_flags = (s->use_flags & ~ok) | (use & ok);
    s->flags = (s->flags & ~ok) | (fl & ok);
    return SFP_OK;
}

/* SFPPUSHC.md / SFPPOPC.md BooleanOp(Mod1, A, B) for Mod1 1..12, on each bit of two masks (a lane
 * per bit, or one lane in bit 0). */
static inline uint32_t boolean_op(unsigned m, uint32_t a, uint32_t b) {
    switch (m) {
    case 1: return b;
    case 2: return ~b;
    case 3: return a & b;
    case 4: return a | b;
    case 5: return a & ~b;
    case 6: return a | ~b;
    case 7: return ~a & b;
    case 8: return ~a | b;
    case 9: return ~a & ~b;
    case 10: return ~a | ~b;
    case 11: return a ^ b;
    default: return ~(a ^ b); /* 12 */
    }
}

/* The flag stack's depth when every lane has the same one (the lanes push and pop together unless
 * the backdoor splits them), else -1: then the 32 lanes are one stack of masks. */
static int uniform_depth(const lregs_t *s) {
    unsigned diff = 0, n = s->stack_n[0];
    for (unsigned l = 0; l < LANES; l++)
        diff |= s->stack_n[l] ^ n;
    return diff ? -1 : (int)n;
}

/* SFPPUSHC.md (Blackhole), every lane: Mod1 0 pushes {LaneFlags, UseLaneFlagsForLaneEnable}
 * (UndefinedBehavior on a full stack); 1..12 replace the top's UseLaneFlagsForLaneEnable with the
 * current one and its LaneFlags with BooleanOp(Mod1, top, current); 13 inverts LaneFlags and writes
 * both to the top; 14 / 15 make the top {true, true} / {false, true} (UndefinedBehavior on an empty
 * stack). */
sfp_res_t sfpu_pushc(lregs_t *s, const sfp_op_t *o) {
    uint32_t ok = sfpu_backdoor_ok(s, o);
    unsigned m = o->mod;
    int depth = ok == 0xFFFFFFFFu && !o->general ? uniform_depth(s) : -1;
    if (depth >= 0) { /* every lane, one depth: the stack as masks */
        unsigned n = (unsigned)depth;
        if (m == 0 && n >= SFPU_FLAG_STACK)
            return (sfp_res_t){CP_ERR_UNDEFINED, "SFPPUSHC pushes onto a full flag stack (SFPPUSHC.md: eight entries)"};
        if (m != 0 && n == 0) return (sfp_res_t){CP_ERR_UNDEFINED, "SFPPUSHC with Mod1 != 0 on an empty flag stack"};
        if (m == 0) {
            s->stack_flags[n] = s->flags, s->stack_use[n] = s->use_flags;
            for (unsigned l = 0; l < LANES; l++)
                s->stack_n[l] = (uint8_t)(n + 1);
            return SFP_OK;
        }
        unsigned t = n - 1;
        if (m <= 12) {
            s->stack_flags[t] = boolean_op(m, s->stack_flags[t], s->flags), s->stack_use[t] = s->use_flags;
        } else if (m == 13) {
            s->flags = ~s->flags;
            s->stack_flags[t] = s->flags, s->stack_use[t] = s->use_flags;
        } else {
            s->stack_flags[t] = m == 14 ? 0xFFFFFFFFu : 0, s->stack_use[t] = 0xFFFFFFFFu;
        }
        return SFP_OK;
    }
    for (unsigned l = 0; l < LANES; l++) {
        if (!bit(ok, l)) continue;
        unsigned n = s->stack_n[l];
        if (m == 0 && n >= SFPU_FLAG_STACK)
            return (sfp_res_t){CP_ERR_UNDEFINED, "SFPPUSHC pushes onto a full flag stack (SFPPUSHC.md: eight entries)"};
        if (m != 0 && n == 0) return (sfp_res_t){CP_ERR_UNDEFINED, "SFPPUSHC with Mod1 != 0 on an empty flag stack"};
    }
    for (unsigned l = 0; l < LANES; l++) {
        if (!bit(ok, l)) continue;
        bool fl = bit(s->flags, l), use = bit(s->use_flags, l);
        if (m == 0) {
            unsigned n = s->stack_n[l]++;
            s->stack_flags[n] = set_bit(s->stack_flags[n], l, fl);
            s->stack_use[n] = set_bit(s->stack_use[n], l, use);
            continue;
        }
        unsigned t = s->stack_n[l] - 1u;
        bool top_fl = bit(s->stack_flags[t], l), top_use;
        if (m <= 12) {
            top_use = use, top_fl = boolean_op(m, top_fl, fl) & 1;
        } else if (m == 13) {
            fl = !fl;
            s->flags = set_bit(s->flags, l, fl);
            top_use = use, top_fl = fl;
        } else {
            top_use = true, top_fl = m == 14;
        }
        s->stack_flags[t] = set_bit(s->stack_flags[t], l, top_fl);
        s->stack_use[t] = set_bit(s->stack_use[t], l, top_use);
    }
    return SFP_OK;
}

/* SFPPOPC.md (Blackhole), every lane; the top reads {false, false} on an empty stack. Mod1 0 pops
 * and takes both from the top (UndefinedBehavior on an empty stack); 1..12 peek: take the top's
 * UseLaneFlagsForLaneEnable and LaneFlags = BooleanOp(Mod1, LaneFlags, top); 13 inverts LaneFlags;
 * 14 / 15 set {LaneFlags, Use} to {true, true} / {false, true}. */
sfp_res_t sfpu_popc(lregs_t *s, const sfp_op_t *o) {
    uint32_t ok = sfpu_backdoor_ok(s, o);
    unsigned m = o->mod;
    int depth = ok == 0xFFFFFFFFu && !o->general ? uniform_depth(s) : -1;
    if (depth >= 0) { /* every lane, one depth: the stack as masks */
        unsigned n = (unsigned)depth;
        if (m == 0 && n == 0) return (sfp_res_t){CP_ERR_UNDEFINED, "SFPPOPC pops an empty flag stack"};
        uint32_t top_fl = n ? s->stack_flags[n - 1] : 0, top_use = n ? s->stack_use[n - 1] : 0;
        if (m == 0) {
            for (unsigned l = 0; l < LANES; l++)
                s->stack_n[l] = (uint8_t)(n - 1);
            s->use_flags = top_use, s->flags = top_fl;
        } else if (m <= 12) {
            s->use_flags = top_use, s->flags = boolean_op(m, s->flags, top_fl);
        } else if (m == 13) {
            s->flags = ~s->flags;
        } else {
            s->use_flags = 0xFFFFFFFFu, s->flags = m == 14 ? 0xFFFFFFFFu : 0;
        }
        return SFP_OK;
    }
    if (m == 0)
        for (unsigned l = 0; l < LANES; l++)
            if (bit(ok, l) && s->stack_n[l] == 0)
                return (sfp_res_t){CP_ERR_UNDEFINED, "SFPPOPC pops an empty flag stack"};
    for (unsigned l = 0; l < LANES; l++) {
        if (!bit(ok, l)) continue;
        unsigned n = s->stack_n[l];
        bool top_fl = n && bit(s->stack_flags[n - 1], l), top_use = n && bit(s->stack_use[n - 1], l);
        bool fl = bit(s->flags, l), use = bit(s->use_flags, l);
        if (m == 0) {
            s->stack_n[l] = (uint8_t)(n - 1);
            use = top_use, fl = top_fl;
        } else if (m <= 12) {
            use = top_use, fl = boolean_op(m, fl, top_fl) & 1;
        } else if (m == 13) {
            fl = !fl;
        } else {
            use = true, fl = m == 14;
        }
        s->flags = set_bit(s->flags, l, fl);
        s->use_flags = set_bit(s->use_flags, l, use);
    }
    return SFP_OK;
}

/* SFPCOMPC.md (Wormhole page, identical on Blackhole), every lane: with the top ({true, true} on an
 * empty stack), LaneFlags = top.LaneFlags && !LaneFlags where both UseLaneFlagsForLaneEnable hold,
 * else false. */
sfp_res_t sfpu_compc(lregs_t *s, const sfp_op_t *o) {
    uint32_t ok = sfpu_backdoor_ok(s, o);
    for (unsigned l = 0; l < LANES; l++) {
        if (!bit(ok, l)) continue;
        unsigned n = s->stack_n[l];
        bool top_fl = !n || bit(s->stack_flags[n - 1], l), top_use = !n || bit(s->stack_use[n - 1], l);
        bool f = top_use && bit(s->use_flags, l) && top_fl && !bit(s->flags, l);
        s->flags = set_bit(s->flags, l, f);
    }
    return SFP_OK;
}

/* SFPGT.md / SFPLE.md (new in Blackhole): VD > VC, or VD <= VC, as sign-magnitude integers (FP32's
 * total order); VB = VD. Mod1: 8 SET_VD writes -1 or 0 to VD (VD < 8 or 16), 1 SET_CC writes
 * LaneFlags — both in enabled lanes only; 2 MUTATE_STACK ANDs (or with 4 MUTATE_OR, ORs) the result
 * into the top entry's LaneFlags in every lane with a non-empty stack. */
sfp_res_t sfpu_cmp(lregs_t *s, const sfp_op_t *o) {
    uint32_t ok = sfpu_backdoor_ok(s, o), en = sfpu_lanes_enabled(s) & ok;
    unsigned vb = o->vb != SFP_NONE ? o->vb : o->vd;
    bool gt = o->opc == TT_OPC_SFPGT;
    for (unsigned l = 0; l < LANES; l++) {
        if (!bit(ok, l)) continue;
        bool smaller = sfpu_sm_smaller(s->r[o->vc][l], s->r[vb][l]);
        bool r = gt ? smaller : !smaller;
        if (bit(en, l)) {
            if ((o->mod & 8) && (o->vd < 8 || o->vd == 16)) s->r[o->vd][l] = r ? 0xFFFFFFFFu : 0;
            if (o->mod & 1) s->flags = set_bit(s->flags, l, r);
        }
        if ((o->mod & 2) && s->stack_n[l]) {
            unsigned t = s->stack_n[l] - 1u;
            bool top = bit(s->stack_flags[t], l);
            s->stack_flags[t] = set_bit(s->stack_flags[t], l, (o->mod & 4) ? (top || r) : (top && r));
        }
    }
    return SFP_OK;
}
