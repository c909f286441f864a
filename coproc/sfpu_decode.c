/* coproc/sfpu_decode.c — the Vector Unit's instruction words decoded into the operands their ISA
 * pages name (coproc/sfpu_ops.h sfp_op_t), the sub-unit each runs on, and the dispatch of the
 * decoded instruction to its function. Fields only through the generated accessors
 * (coproc/tt_fields.h); the operand layouts are the pages' Syntax sections (and the encoding
 * diagrams' sources, Diagrams/Src/Bits32.lua, for the _BH variants). */
#include <string.h>

#include "coproc/sfpu_ops.h"
#include "coproc/tt_fields.h"

/* The four-field layout most simple instructions share: Mod1, VD, VC, Imm12. */
#define IMM12_OP(OP)                                                                                                   \
    do {                                                                                                               \
        o->mod = (uint8_t)TT_##OP##_INSTR_MOD1(w);                                                                     \
        o->vd = (uint8_t)TT_##OP##_LREG_DEST(w);                                                                       \
        o->vc = (uint8_t)TT_##OP##_LREG_C(w);                                                                          \
        o->imm = (uint16_t)TT_##OP##_IMM12_MATH(w);                                                                    \
    } while (0)

/* The multiply-add layout: Mod1, VD, VC, VB, VA. */
#define MAD_OP(OP)                                                                                                     \
    do {                                                                                                               \
        o->mod = (uint8_t)TT_##OP##_INSTR_MOD1(w);                                                                     \
        o->vd = (uint8_t)TT_##OP##_LREG_DEST(w);                                                                       \
        o->vc = (uint8_t)TT_##OP##_LREG_SRC_C(w);                                                                      \
        o->vb = (uint8_t)TT_##OP##_LREG_SRC_B(w);                                                                      \
        o->va = (uint8_t)TT_##OP##_VA(w);                                                                              \
    } while (0)

bool sfpu_decode(uint32_t w, sfp_op_t *o) {
    *o = (sfp_op_t){
        .word = w, .opc = (uint8_t)TT_OPCODE(w), .vd = SFP_NONE, .vc = SFP_NONE, .vb = SFP_NONE, .va = SFP_NONE};
    switch (o->opc) {
    case TT_OPC_SFPLOAD:
        o->vd = (uint8_t)TT_SFPLOAD_LREG_IND(w);
        o->mod = (uint8_t)TT_SFPLOAD_INSTR_MOD0(w);
        o->addr_mod = (uint8_t)TT_SFPLOAD_SFPU_ADDR_MODE(w);
        o->imm = (uint16_t)TT_SFPLOAD_DEST_REG_ADDR(w);
        break;
    case TT_OPC_SFPSTORE:
        o->vd = (uint8_t)TT_SFPSTORE_LREG_IND(w);
        o->mod = (uint8_t)TT_SFPSTORE_INSTR_MOD0(w);
        o->addr_mod = (uint8_t)TT_SFPSTORE_SFPU_ADDR_MODE(w);
        o->imm = (uint16_t)TT_SFPSTORE_DEST_REG_ADDR(w);
        break;
    case TT_OPC_SFPLOADMACRO: /* SFPLOADMACRO.md: VD = VDHi:VDLo, Imm10 = Imm9:VDHi */
        o->vd = (uint8_t)(TT_SFPLOADMACRO_VDHI(w) << 2 | TT_SFPLOADMACRO_VDLO(w));
        o->mod = (uint8_t)TT_SFPLOADMACRO_INSTR_MOD0(w);
        o->addr_mod = (uint8_t)TT_SFPLOADMACRO_SFPU_ADDR_MODE(w);
        o->imm = (uint16_t)TT_SFPLOADMACRO_IMM10(w);
        o->va = (uint8_t)TT_SFPLOADMACRO_MACROINDEX(w); /* the macro, carried in the unused VA */
        break;
    case TT_OPC_SFPLOADI:
        o->vd = (uint8_t)TT_SFPLOADI_LREG_IND(w);
        o->mod = (uint8_t)TT_SFPLOADI_INSTR_MOD0(w);
        o->imm = (uint16_t)TT_SFPLOADI_IMM16(w);
        break;
    case TT_OPC_SFPLUT:
        o->vd = (uint8_t)TT_SFPLUT_LREG_IND(w);
        o->mod = (uint8_t)TT_SFPLUT_INSTR_MOD0(w);
        break;
    case TT_OPC_SFPMULI: /* VC = VD (SFPMULI.md) */
        o->mod = (uint8_t)TT_SFPMULI_INSTR_MOD1(w);
        o->vd = (uint8_t)TT_SFPMULI_LREG_DEST(w);
        o->imm = (uint16_t)TT_SFPMULI_IMM16_MATH(w);
        break;
    case TT_OPC_SFPADDI: /* VC = VD (SFPADDI.md) */
        o->mod = (uint8_t)TT_SFPADDI_INSTR_MOD1(w);
        o->vd = (uint8_t)TT_SFPADDI_LREG_DEST(w);
        o->imm = (uint16_t)TT_SFPADDI_IMM16_MATH(w);
        break;
    case TT_OPC_SFPDIVP2:
        IMM12_OP(SFPDIVP2);
        o->imm = (uint16_t)TT_SFPDIVP2_IMM8(w);
        break;
    case TT_OPC_SFPEXEXP: IMM12_OP(SFPEXEXP); break;
    case TT_OPC_SFPEXMAN: IMM12_OP(SFPEXMAN); break;
    case TT_OPC_SFPIADD: IMM12_OP(SFPIADD); break; /* VB = VD */
    case TT_OPC_SFPSHFT: IMM12_OP(SFPSHFT); break; /* VB = VD */
    case TT_OPC_SFPSETCC:
        IMM12_OP(SFPSETCC);
        o->imm = (uint16_t)TT_SFPSETCC_IMM1(w);
        break;
    case TT_OPC_SFPMOV: IMM12_OP(SFPMOV); break;
    case TT_OPC_SFPABS: IMM12_OP(SFPABS); break;
    case TT_OPC_SFPAND: /* BH: VB from the encoding only with SFPAND_MOD1_USE_VB, else VD */
        IMM12_OP(SFPAND);
        if (o->mod & 1) o->vb = (uint8_t)TT_SFPAND_VB(w);
        break;
    case TT_OPC_SFPOR:
        IMM12_OP(SFPOR);
        if (o->mod & 1) o->vb = (uint8_t)TT_SFPOR_VB(w);
        break;
    case TT_OPC_SFPNOT: IMM12_OP(SFPNOT); break;
    case TT_OPC_SFPLZ: IMM12_OP(SFPLZ); break;
    case TT_OPC_SFPSETEXP:
        IMM12_OP(SFPSETEXP);
        o->imm = (uint16_t)TT_SFPSETEXP_IMM8(w);
        break;
    case TT_OPC_SFPSETMAN: IMM12_OP(SFPSETMAN); break;
    case TT_OPC_SFPMAD: MAD_OP(SFPMAD); break;
    case TT_OPC_SFPADD: MAD_OP(SFPADD); break;
    case TT_OPC_SFPMUL: MAD_OP(SFPMUL); break;
    case TT_OPC_SFPMUL24: MAD_OP(SFPMUL24); break;
    case TT_OPC_SFPPUSHC: /* no VC: the lreg_c bits are not an operand */
        IMM12_OP(SFPPUSHC);
        o->vc = SFP_NONE;
        break;
    case TT_OPC_SFPPOPC:
        IMM12_OP(SFPPOPC);
        o->vc = SFP_NONE;
        break;
    case TT_OPC_SFPSETSGN:
        IMM12_OP(SFPSETSGN);
        o->imm = (uint16_t)TT_SFPSETSGN_IMM1(w);
        break;
    case TT_OPC_SFPENCC:
        IMM12_OP(SFPENCC);
        o->vc = SFP_NONE;
        o->imm = (uint16_t)TT_SFPENCC_IMM2(w);
        break;
    case TT_OPC_SFPCOMPC:
        IMM12_OP(SFPCOMPC);
        o->vc = SFP_NONE;
        break;
    case TT_OPC_SFPTRANSP:
        IMM12_OP(SFPTRANSP);
        o->vc = SFP_NONE;
        break;
    case TT_OPC_SFPXOR: IMM12_OP(SFPXOR); break; /* VB = VD */
    case TT_OPC_SFP_STOCH_RND:
        o->mod = (uint8_t)TT_SFP_STOCH_RND_MOD1(w);
        o->use_imm5 = TT_SFP_STOCH_RND_USEIMM5(w) != 0;
        o->vd = (uint8_t)TT_SFP_STOCH_RND_LREG_DEST(w);
        o->vc = (uint8_t)TT_SFP_STOCH_RND_LREG_SRC_C(w);
        o->vb = (uint8_t)TT_SFP_STOCH_RND_LREG_SRC_B(w);
        o->imm = (uint16_t)TT_SFP_STOCH_RND_IMM8_MATH(w);
        o->rnd = (uint8_t)TT_SFP_STOCH_RND_ROUNDINGMODE(w);
        break;
    case TT_OPC_SFPNOP: break;
    case TT_OPC_SFPCAST:
        o->mod = (uint8_t)TT_SFPCAST_INSTR_MOD1(w);
        o->vd = (uint8_t)TT_SFPCAST_LREG_DEST(w);
        o->vc = (uint8_t)TT_SFPCAST_VC(w);
        break;
    case TT_OPC_SFPCONFIG:
        o->mod = (uint8_t)TT_SFPCONFIG_INSTR_MOD1(w);
        o->vd = (uint8_t)TT_SFPCONFIG_CONFIG_DEST(w);
        o->imm = (uint16_t)TT_SFPCONFIG_IMM16_MATH(w);
        break;
    case TT_OPC_SFPSWAP: /* SFPSWAP.md: VC and VD; the second operand is read through VB (= VD) */
        o->mod = (uint8_t)TT_SFPSWAP_INSTR_MOD1(w);
        o->vd = (uint8_t)TT_SFPSWAP_LREG_DEST(w);
        o->vc = (uint8_t)TT_SFPSWAP_LREG_SRC_C(w);
        break;
    case TT_OPC_SFPSHFT2: /* VB, or in SFPSHFT2_MOD1_SHFT_IMM the low 4 bits of Imm12: the same bits */
        o->mod = (uint8_t)TT_SFPSHFT2_INSTR_MOD1(w);
        o->vd = (uint8_t)TT_SFPSHFT2_LREG_DEST(w);
        o->vc = (uint8_t)TT_SFPSHFT2_LREG_SRC_C(w);
        o->vb = (uint8_t)TT_SFPSHFT2_VB(w);
        o->imm = (uint16_t)TT_SFPSHFT2_IMM12_MATH(w);
        break;
    case TT_OPC_SFPLUTFP32: /* the Mod1Mirror bits (16..19) only steer the stalling logic */
        o->mod = (uint8_t)TT_SFPLUTFP32_INSTR_MOD1(w);
        o->vd = (uint8_t)TT_SFPLUTFP32_VD(w);
        break;
    case TT_OPC_SFPLE: IMM12_OP(SFPLE); break; /* VB = VD */
    case TT_OPC_SFPGT: IMM12_OP(SFPGT); break; /* VB = VD */
    case TT_OPC_SFPARECIP:
        IMM12_OP(SFPARECIP);
        o->vb = (uint8_t)TT_SFPARECIP_VB(w);
        break;
    default: return false;
    }
    return true;
}

/* SFPLOADMACRO.md's table: what each of the simple, MAD and round sub-units can execute (the store
 * sub-unit: SFPSTORE alone). SFPNOP runs anywhere. */
unsigned sfpu_unit_of(unsigned opc) {
    switch (opc) {
    case TT_OPC_SFPLOAD:
    case TT_OPC_SFPLOADI:
    case TT_OPC_SFPLOADMACRO: return SFP_UNIT_LOAD;
    case TT_OPC_SFPSTORE: return SFP_UNIT_STORE;
    case TT_OPC_SFPADD:
    case TT_OPC_SFPADDI:
    case TT_OPC_SFPLUT:
    case TT_OPC_SFPLUTFP32:
    case TT_OPC_SFPMAD:
    case TT_OPC_SFPMUL:
    case TT_OPC_SFPMULI:
    case TT_OPC_SFPMUL24: return SFP_UNIT_MAD;
    case TT_OPC_SFPSHFT2:
    case TT_OPC_SFP_STOCH_RND: return SFP_UNIT_ROUND;
    case TT_OPC_SFPNOP: return SFP_UNIT_ANY;
    default: return SFP_UNIT_SIMPLE; /* the rest of the Vector Unit's opcodes */
    }
}

bool sfpu_unit_can(unsigned unit, unsigned opc) {
    if (opc < TT_OPC_SFPLOAD || opc > TT_OPC_SFPARECIP) return false;
    if (opc == TT_OPC_SFPNOP) return unit != SFP_UNIT_STORE;
    unsigned u = sfpu_unit_of(opc);
    if (u == SFP_UNIT_LOAD) return false;
    return u == unit;
}

sfp_res_t sfpu_exec(lregs_t *s, const sfp_op_t *o) {
    switch (o->opc) {
    case TT_OPC_SFPADDI: return sfpu_addi(s, o);
    case TT_OPC_SFPMAD:
    case TT_OPC_SFPADD:
    case TT_OPC_SFPMUL:
    case TT_OPC_SFPMULI: return sfpu_mad(s, o);
    case TT_OPC_SFPLUT: return sfpu_lut(s, o);
    case TT_OPC_SFPLUTFP32: return sfpu_lutfp32(s, o);
    case TT_OPC_SFPMUL24: return sfpu_mul24(s, o);
    case TT_OPC_SFPARECIP: return sfpu_arecip(s, o);
    case TT_OPC_SFPIADD: return sfpu_iadd(s, o);
    case TT_OPC_SFPSHFT: return sfpu_shft(s, o);
    case TT_OPC_SFPAND:
    case TT_OPC_SFPOR:
    case TT_OPC_SFPXOR:
    case TT_OPC_SFPNOT: return sfpu_bitwise(s, o);
    case TT_OPC_SFPLZ: return sfpu_lz(s, o);
    case TT_OPC_SFPABS: return sfpu_abs(s, o);
    case TT_OPC_SFPEXEXP: return sfpu_exexp(s, o);
    case TT_OPC_SFPEXMAN: return sfpu_exman(s, o);
    case TT_OPC_SFPSETEXP:
    case TT_OPC_SFPSETMAN:
    case TT_OPC_SFPSETSGN:
    case TT_OPC_SFPDIVP2: return sfpu_setfield(s, o);
    case TT_OPC_SFPCAST: return sfpu_cast(s, o);
    case TT_OPC_SFP_STOCH_RND: return sfpu_stochrnd(s, o);
    case TT_OPC_SFPSETCC: return sfpu_setcc(s, o);
    case TT_OPC_SFPENCC: return sfpu_encc(s, o);
    case TT_OPC_SFPPUSHC: return sfpu_pushc(s, o);
    case TT_OPC_SFPPOPC: return sfpu_popc(s, o);
    case TT_OPC_SFPCOMPC: return sfpu_compc(s, o);
    case TT_OPC_SFPGT:
    case TT_OPC_SFPLE: return sfpu_cmp(s, o);
    case TT_OPC_SFPMOV: return sfpu_mov(s, o);
    case TT_OPC_SFPSWAP: return sfpu_swap(s, o);
    case TT_OPC_SFPTRANSP: return sfpu_transp(s, o);
    case TT_OPC_SFPSHFT2: return sfpu_shft2(s, o);
    case TT_OPC_SFPLOADI: return sfpu_loadi(s, o);
    case TT_OPC_SFPCONFIG: return sfpu_config(s, o);
    case TT_OPC_SFPNOP: return SFP_OK; /* SFPNOP.md: causes no effects */
    default: return (sfp_res_t){CP_ERR_UNDEFINED, "not a lanewise Vector Unit instruction"};
    }
}
