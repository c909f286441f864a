/* coproc/sfpu.c — the Vector Unit's (SFPU's) values: SFPLOAD, SFPSTORE, SFPLOADI, SFPCONFIG,
 * SFPENCC, the multiply-add family (SFPMAD, SFPADD, SFPMUL, SFPADDI, SFPMULI: coproc/fma.c) and
 * SFPNOP, each as its Blackhole ISA page's functional model describes it (named above each). The
 * other SFPU instructions are refused as CP_ERR_UNIMPLEMENTED until the SFPU issue models them;
 * SFPLOADMACRO's configuration (SFPCONFIG destinations 0..8, and instruction templates written
 * through the "backdoor" of VD >= 12) likewise.
 *
 * Lanes (LReg.md): lane L of a 32-lane register; the 32 lanes are a 4 x 8 grid (row L / 8). */
#include <string.h>

#include "coproc/dp_internal.h"
#include "coproc/fma.h"
#include "coproc/tt_fields.h"
#include "coproc/tt_ops.h"

/* LaneConfig bits (SFPCONFIG.md). */
enum {
    LC_ENABLE_FP16A_INF = 1u << 0,
    LC_DISABLE_BACKDOOR_LOAD = 1u << 1,
    LC_ENABLE_DEST_INDEX = 1u << 2,
    LC_CAPTURE_DEFAULT_DEST_INDEX = 1u << 3,
    LC_BLOCK_DEST_WR_FROM_SFPU = 1u << 4,
    LC_BLOCK_SFPU_RD_FROM_DEST = 1u << 5,
    LC_DEST_RD_COL_EXCHANGE = 1u << 6,
    LC_DEST_WR_COL_EXCHANGE = 1u << 7,
    LC_ROW_MASK_SHIFT = 12,
};

/* VectorUnit.md IsLaneEnabled, for all 32 lanes at once: bit L of the result is lane L's. */
static uint32_t lanes_enabled(const lregs_t *s) {
    uint32_t dis = 0;
    for (unsigned c = 0; c < 8; c++) { /* LaneConfig[c].ROW_MASK bit r disables lane 8r + c */
        uint32_t rm = (s->lane_config[c] >> LC_ROW_MASK_SHIFT) & 0xF;
        dis |= ((rm & 1) | ((rm & 2) << 7) | ((rm & 4) << 14) | ((rm & 8) << 21)) << c;
    }
    /* UseLaneFlagsForLaneEnable && !LaneFlags, eight lanes (one byte, 0 or 1, each) at a time:
     * the multiply gathers bit 0 of byte k into bit 56 + k. */
    _Static_assert(sizeof(bool) == 1, "lane flags are bytes");
    for (unsigned g = 0; g < LANES / 8; g++) {
        uint64_t use, flag;
        memcpy(&use, s->use_lane_flags + 8 * g, 8);
        memcpy(&flag, s->lane_flags + 8 * g, 8);
        uint64_t off = use & ~flag & 0x0101010101010101ull;
        dis |= (uint32_t)((off * 0x0102040810204080ull) >> 56) << (8 * g);
    }
    return ~dis;
}

/* Instructions with VD >= 12 write their own bits to an SFPLOADMACRO instruction template unless
 * the lane's LaneConfig.DISABLE_BACKDOOR_LOAD is set (SFPCONFIG.md). Not modelled: refused. */
static bool backdoor(dp_ctx_t *x, unsigned vd) {
    if (vd < 12) return false;
    for (unsigned l = 0; l < LANES; l++) {
        if (!(x->dp->sfpu.lane_config[l] & LC_DISABLE_BACKDOOR_LOAD)) {
            dp_fail(x, CP_ERR_UNIMPLEMENTED,
                    "%s with VD %u writes an SFPLOADMACRO instruction template (backdoor load)", tt_mnemonic(x->word),
                    vd);
            return true;
        }
    }
    return false;
}

/* MOD0_FMT_SRCB resolution (SFPLOAD.md, SFPSTORE.md): Blackhole's ThreadConfig SFPU_DEST_FMT
 * replaces the SrcB format when enabled. */
static unsigned resolve_mod0(const dp_ctx_t *x, unsigned mod0) {
    unsigned f = CFG(x, ALU_FORMAT_SPEC_REG_SrcB_override) ? CFG(x, ALU_FORMAT_SPEC_REG_SrcB_val)
                                                           : CFG(x, ALU_FORMAT_SPEC_REG1_SrcB);
    if (THCFG(x, SFPU_DEST_FMT_Enable)) f = THCFG(x, SFPU_DEST_FMT_Base);
    return fmt_mod0_resolve(mod0, CFG(x, ALU_ACC_CTRL_SFPU_Fp32_enabled), f);
}

/* The Dst address of an SFPLOAD/SFPSTORE (the functional models' "Apply various Dst address
 * adjustments"). store: SFPSTORE's INT32_ALL post-increments Sp; SFPLOAD's pre-decrements it. */
static unsigned sfp_addr(dp_ctx_t *x, unsigned imm, unsigned mod0, bool store) {
    rwc_t *r = &x->dp->rwc[x->t];
    unsigned addr = imm + THCFG(x, DEST_TARGET_REG_CFG_MATH_Offset);
    unsigned dst_off = r->dst + CFG(x, DEST_REGW_BASE_Base);
    if (mod0 == FMT_MOD0_INT32_ALL) {
        if (!store && r->sp) r->sp = (uint16_t)((r->sp - THCFG(x, SFPU_STACK_Incr)) & 1023);
        addr += r->sp + CFG(x, DEST_SP_BASE_Base) + (dst_off & 3);
        if (store) r->sp = (uint16_t)((r->sp + THCFG(x, SFPU_STACK_Incr)) & 1023);
    } else {
        addr += dst_off + ((r->sp + CFG(x, DEST_SP_BASE_Base)) & 3);
    }
    return addr & 1023;
}

static void sfpload(dp_ctx_t *x) {
    uint32_t w = x->word;
    lregs_t *s = &x->dp->sfpu;
    unsigned vd = TT_SFPLOAD_LREG_IND(w), mod0 = resolve_mod0(x, TT_SFPLOAD_INSTR_MOD0(w));
    unsigned addr = sfp_addr(x, TT_SFPLOAD_DEST_REG_ADDR(w), mod0, false);
    if (vd < 8) {
        uint32_t en = mod0 == FMT_MOD0_INT32_ALL ? 0xFFFFFFFFu : lanes_enabled(s);
        bool dst32 = fmt_sfpload_reads_dst32(mod0);
        for (unsigned l = 0; l < LANES; l++) {
            uint32_t lc = s->lane_config[l];
            if ((lc & LC_BLOCK_SFPU_RD_FROM_DEST) || !((en >> l) & 1)) continue;
            unsigned row = (addr & ~3u) + l / 8, col = (l & 7) * 2;
            if ((addr & 2) || (s->lane_config[l & 7] & LC_DEST_RD_COL_EXCHANGE)) col++;
            uint32_t cell = dst32 ? dp_dst32_read(x, row, col) : dp_dst16_read(x, row, col);
            s->r[vd][l] = fmt_sfpload(mod0, cell, s->r[vd][l], lc & LC_ENABLE_FP16A_INF);
            if (vd < 4 && (lc & LC_ENABLE_DEST_INDEX) && (lc & LC_CAPTURE_DEFAULT_DEST_INDEX))
                s->r[vd + 4][l] = row << 4 | col;
        }
    }
    dp_apply_addr_mod(x, TT_SFPLOAD_SFPU_ADDR_MODE(w), false);
}

static void sfpstore(dp_ctx_t *x) {
    uint32_t w = x->word;
    lregs_t *s = &x->dp->sfpu;
    unsigned vd = TT_SFPSTORE_LREG_IND(w), mod0 = resolve_mod0(x, TT_SFPSTORE_INSTR_MOD0(w));
    if (backdoor(x, vd)) return;
    unsigned addr = sfp_addr(x, TT_SFPSTORE_DEST_REG_ADDR(w), mod0, true);
    uint32_t en = mod0 == FMT_MOD0_INT32_ALL ? 0xFFFFFFFFu : lanes_enabled(s);
    bool dst32 = fmt_sfpstore_writes_dst32(mod0);
    for (unsigned l = 0; l < LANES; l++) {
        uint32_t lc = s->lane_config[l];
        if ((lc & LC_BLOCK_DEST_WR_FROM_SFPU) || !((en >> l) & 1)) continue;
        unsigned row = (addr & ~3u) + l / 8, col = (l & 7) * 2;
        if ((addr & 2) || (s->lane_config[l & 7] & LC_DEST_WR_COL_EXCHANGE)) col++;
        uint32_t v = fmt_sfpstore(mod0, s->r[vd][l]);
        if (dst32)
            dp_dst32_write(x, row, col, v);
        else
            dp_dst16_write(x, row, col, (uint16_t)v);
    }
    dp_apply_addr_mod(x, TT_SFPSTORE_SFPU_ADDR_MODE(w), false);
}

/* SFPLOADI.md (shared with Wormhole). */
static void sfploadi(dp_ctx_t *x) {
    uint32_t w = x->word;
    lregs_t *s = &x->dp->sfpu;
    unsigned vd = TT_SFPLOADI_LREG_IND(w), mod0 = TT_SFPLOADI_INSTR_MOD0(w);
    uint32_t imm = TT_SFPLOADI_IMM16(w);
    if (backdoor(x, vd)) return;
    if (vd >= 8) return; /* LReg[8..] are not writable this way (SFPLOADI.md) */
    uint32_t probe;
    if (!fmt_sfploadi(mod0, (uint16_t)imm, 0, &probe))
        return dp_fail(x, CP_ERR_UNDEFINED, "SFPLOADI with Mod0 %u (SFPLOADI.md: undefined)", mod0);
    uint32_t en = lanes_enabled(s);
    for (unsigned l = 0; l < LANES; l++)
        if ((en >> l) & 1) fmt_sfploadi(mod0, (uint16_t)imm, s->r[vd][l], &s->r[vd][l]);
}

/* SFPCONFIG.md. Destinations 0..8 configure SFPLOADMACRO (not modelled: refused). */
static void sfpconfig(dp_ctx_t *x) {
    uint32_t w = x->word;
    lregs_t *s = &x->dp->sfpu;
    unsigned vd = TT_SFPCONFIG_CONFIG_DEST(w), mod1 = TT_SFPCONFIG_INSTR_MOD1(w);
    uint32_t imm = TT_SFPCONFIG_IMM16_MATH(w);
    if (vd <= 8)
        return dp_fail(x, CP_ERR_UNIMPLEMENTED, "SFPCONFIG of SFPLOADMACRO configuration (destination %u)", vd);
    if (vd == 9 || vd == 10) return; /* does nothing on current silicon (non-contractual) */
    /* The 8-lane source is LReg[0] lanes 0..7, read before any write of this instruction. */
    uint32_t src[8];
    memcpy(src, s->r[0], sizeof src);
    static const uint32_t preset[4] = {
        0xBF800000u, /* LReg11: -1.0f */
        0x3B000000u, /* LReg12: 1/512 (check_fields: not a field) */
        0xBF2CC4C7u, /* LReg13: -0.67487759f */
        0xBEB08FF9u, /* LReg14: -0.34484843f */
    };
    for (unsigned l = 0; l < LANES; l++) {
        if ((mod1 & 8) && !((imm >> ((l & 7) * 2)) & 1)) continue;
        if (s->use_lane_flags[l & 7] && !s->lane_flags[l & 7]) continue;
        if (vd <= 14) {
            s->r[vd][l] = (mod1 & 1) ? preset[vd - 11] : src[l & 7];
        } else {
            uint32_t orig = s->lane_config[l], v = (mod1 & 1) ? imm : src[l & 7];
            uint32_t n;
            switch (mod1 & 6) {
            case 0: n = v; break;
            case 2: n = orig | v; break;
            case 4: n = orig & v; break;
            default: n = orig ^ v; break;
            }
            if (mod1 & 1) n |= orig & ~0xFFFFu;
            s->lane_config[l] = n & 0x3FFFFu;
        }
    }
}

/* SFPENCC.md. */
static void sfpencc(dp_ctx_t *x) {
    uint32_t w = x->word;
    lregs_t *s = &x->dp->sfpu;
    unsigned vd = TT_SFPENCC_LREG_DEST(w), mod1 = TT_SFPENCC_INSTR_MOD1(w), imm2 = TT_SFPENCC_IMM12_MATH(w) & 3;
    if (backdoor(x, vd)) return;
    for (unsigned l = 0; l < LANES; l++) {
        if (mod1 & 2)
            s->use_lane_flags[l] = imm2 & 1;
        else if (mod1 & 1)
            s->use_lane_flags[l] = !s->use_lane_flags[l];
        s->lane_flags[l] = (mod1 & 8) ? (imm2 & 2) != 0 : true;
    }
}

/* The multiply-add family (SFPMAD.md; SFPADD.md and SFPMUL.md are SFPMAD; SFPADDI.md is
 * imm * 1.0 + VD; SFPMULI.md is imm * VD + 0). Mod1: 1 negate VA (SFPMAD family only), 2 negate
 * VC, 4 VA from LReg[7], 8 VD from LReg[7]. */
static void sfpmad(dp_ctx_t *x) {
    uint32_t w = x->word;
    lregs_t *s = &x->dp->sfpu;
    unsigned opc = TT_OPCODE(w), vd, mod1, va = 0, vb = 0, vc = 0;
    uint32_t imm = 0;
    switch (opc) {
    case TT_OPC_SFPADDI:
        vd = TT_SFPADDI_LREG_DEST(w), mod1 = TT_SFPADDI_INSTR_MOD1(w), imm = TT_SFPADDI_IMM16_MATH(w) << 16, vc = vd;
        break;
    case TT_OPC_SFPMULI:
        vd = TT_SFPMULI_LREG_DEST(w), mod1 = TT_SFPMULI_INSTR_MOD1(w), imm = TT_SFPMULI_IMM16_MATH(w) << 16, vc = vd;
        break;
    default: /* SFPMAD, SFPADD, SFPMUL share one encoding */
        vd = TT_SFPMAD_LREG_DEST(w), mod1 = TT_SFPMAD_INSTR_MOD1(w);
        va = TT_SFPMAD_LREG_SRC_A(w), vb = TT_SFPMAD_LREG_SRC_B(w), vc = TT_SFPMAD_LREG_SRC_C(w);
        if (va >= LREG_N) return dp_fail(x, CP_ERR_UNDEFINED, "%s with VA %u", tt_mnemonic(w), va);
        break;
    }
    if (backdoor(x, vd)) return;
    uint32_t en = lanes_enabled(s), neg_c = (mod1 & 2) ? 0x80000000u : 0;
    bool indirect_d = (mod1 & 8) && vd != 16;
    if (!indirect_d && !(vd < 8 || vd == 16)) return; /* the write is dropped in every lane */
    for (unsigned l = 0; l < LANES; l++) {
        if (!((en >> l) & 1)) continue;
        uint32_t c = s->r[vc][l] ^ neg_c, d;
        if (opc == TT_OPC_SFPADDI) {
            d = fma_bh(imm, 0x3F800000u, c);
        } else if (opc == TT_OPC_SFPMULI) {
            d = fma_bh(imm, c, 0);
        } else {
            uint32_t a = s->r[(mod1 & 4) ? (s->r[7][l] & 15) : va][l], b = s->r[vb][l];
            if (mod1 & 1) a ^= 0x80000000u;
            d = fma_bh(a, b, c);
        }
        unsigned dst = indirect_d ? (s->r[7][l] & 15) : vd;
        if (dst < 8 || dst == 16) s->r[dst][l] = d;
    }
}

void dp_sfpu_exec(dp_ctx_t *x) {
    switch (TT_OPCODE(x->word)) {
    case TT_OPC_SFPLOAD: sfpload(x); break;
    case TT_OPC_SFPSTORE: sfpstore(x); break;
    case TT_OPC_SFPLOADI: sfploadi(x); break;
    case TT_OPC_SFPCONFIG: sfpconfig(x); break;
    case TT_OPC_SFPENCC: sfpencc(x); break;
    case TT_OPC_SFPMAD:
    case TT_OPC_SFPADD:
    case TT_OPC_SFPMUL:
    case TT_OPC_SFPADDI:
    case TT_OPC_SFPMULI: sfpmad(x); break;
    case TT_OPC_SFPNOP: break;
    default:
        dp_fail(x, CP_ERR_UNIMPLEMENTED, "%s is not modelled yet (Vector Unit: tier 3)", tt_mnemonic(x->word));
        break;
    }
}
