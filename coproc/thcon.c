/* coproc/thcon.c — the Scalar Unit (ThCon) semantics (ScalarUnit.md): the GPRs, SETDMAREG, the
 * *DMAREG arithmetic, and STOREREG/LOADREG through the tile's MMIO. When ThCon is busy and for how
 * long is the timing model's (coproc/timing.c); this file only changes state. */
#include <stdarg.h>
#include <string.h>

#include "coproc/tt_fields.h"
#include "coproc/units.h"

/* STOREREG.md / LOADREG.md: Addr = 0xFFB00000 + (RegAddr << 2); below 0xFFB11000 is UB. */
#define THCON_REGWIN_BASE 0xFFB00000u
#define THCON_REGWIN_MIN  0xFFB11000u

thcon_dmareg_t thcon_dmareg(uint32_t w) {
#define THCON_DMAREG(OP, MODE)                                                                                         \
    case TT_OPC_##OP:                                                                                                  \
        return (thcon_dmareg_t) {                                                                                      \
            TT_##OP##_OPAREGINDEX(w), TT_##OP##_OPBREGINDEX(w), TT_##OP##_RESULTREGINDEX(w), (MODE),                   \
                TT_##OP##_OPBISCONST(w)                                                                                \
        }
    switch (TT_OPCODE(w)) {
        THCON_DMAREG(ADDDMAREG, 0);
        THCON_DMAREG(SUBDMAREG, 0);
        THCON_DMAREG(MULDMAREG, 0);
        THCON_DMAREG(BITWOPDMAREG, TT_BITWOPDMAREG_OPSEL(w));
        THCON_DMAREG(SHIFTDMAREG, TT_SHIFTDMAREG_OPSEL(w));
        THCON_DMAREG(CMPDMAREG, TT_CMPDMAREG_OPSEL(w));
    default: return (thcon_dmareg_t){0, 0, 0, 0, false};
    }
#undef THCON_DMAREG
}

/* *DMAREG operand B: a GPR, or the 6-bit immediate when OpBisConst. */
static uint32_t opb(const uint32_t *g, const thcon_dmareg_t *d) { return d->b_const ? d->b : g[d->b]; }

/* SETDMAREG with SetSignalsMode=1 (SETDMAREG_Special.md) reads packer state, which this model
 * does not have: every Value reads as 0, except the tile-header TileSize (sources 2..5), which
 * is LastTileSize + 1 = 1. ResultSize 2 therefore zeroes four GPRs, as the page notes. */
static void setdmareg_special(uint32_t *g, uint32_t word) {
    unsigned half = TT_SETDMAREG_REGINDEX16B(word); /* ResultHalfReg */
    unsigned in_half = TT_SETDMAREG_INPUTHALFREG(word);
    unsigned source = TT_SETDMAREG_INPUTSOURCE(word);
    unsigned size = TT_SETDMAREG_PAYLOAD_SIGSELSIZE(word); /* ResultSize */
    uint32_t values[4] = {0, 0, 0, 0};
    if (source >= 2 && source <= 5) values[0] = 1; /* TileSize */
    switch (size) {
    case 0: { /* 16 bits: any half of any value to any half of any GPR */
        uint16_t v = (uint16_t)(values[in_half >> 1] >> (16 * (in_half & 1)));
        unsigned sh = 16 * (half & 1);
        g[half >> 1] = (g[half >> 1] & ~(0xFFFFu << sh)) | ((uint32_t)v << sh);
        break;
    }
    case 1: g[half >> 1] = values[in_half >> 1]; break;
    case 2: memcpy(&g[(half >> 1) & 0x3C], values, sizeof values); break;
    default: { /* 3: tile header, reserved fields kept */
        uint32_t *r = &g[(half >> 1) & 0x3C];
        r[0] = (r[0] & 0xFFFF0000u) | (values[0] & 0xFFFFu);
        r[1] = (r[1] & ~0x00FF0000u) | (values[1] & 0x00FF0000u);
        r[2] = values[2];
        break;
    }
    }
}

/* STOREREG.md / LOADREG.md: the two share one layout. */
static void storereg_loadreg(const cp_insn_t *in, uint32_t *g) {
    uint32_t word = in->word;
    bool store = in->op->opcode == TT_OPC_STOREREG;
    uint32_t addr = THCON_REGWIN_BASE + ((store ? TT_STOREREG_REGADDR(word) : TT_LOADREG_REGADDR(word)) << 2);
    unsigned gi = store ? TT_STOREREG_TDMADATAREGINDEX(word) : TT_LOADREG_TDMADATAREGINDEX(word);
    const cp_env_t *env = in->env;
    if (addr < THCON_REGWIN_MIN) {
        cp_fail(in, CP_ERR_UNDEFINED, "%s to 0x%08x (below 0xFFB11000) is undefined", in->op->mnemonic, addr);
        return;
    }
    if (store) {
        if (!env->mmio_store || !env->mmio_store(env->ctx, addr, g[gi]))
            cp_fail(in, CP_ERR_UNMAPPED, "STOREREG to unmapped 0x%08x", addr);
        return;
    }
    /* The GPR is written at once rather than when the read returns: a functional choice; the
     * timing model still reports the request outstanding (C0). */
    uint32_t v = 0;
    if (!env->mmio_load || !env->mmio_load(env->ctx, addr, &v))
        cp_fail(in, CP_ERR_UNMAPPED, "LOADREG from unmapped 0x%08x", addr);
    else
        g[gi] = v;
}

/* The *DMAREG arithmetic (thcon_exec's six opcodes of it): its operands and result GPR from the
 * word (thcon_dmareg), decoded here only, not for the Scalar Unit's other instructions. */
static void dmareg_exec(const cp_insn_t *in, uint32_t *g) {
    thcon_dmareg_t d = thcon_dmareg(in->word);
    uint32_t av = g[d.a];
    switch (in->op->opcode) {
    case TT_OPC_ADDDMAREG: g[d.r] = av + opb(g, &d); break;
    case TT_OPC_SUBDMAREG: g[d.r] = av - opb(g, &d); break;
    case TT_OPC_MULDMAREG: /* MULDMAREG.md: 16b x 16b -> 32b unsigned */
        g[d.r] = (av & 0xFFFFu) * (opb(g, &d) & 0xFFFFu);
        break;
    case TT_OPC_BITWOPDMAREG: { /* BITWOPDMAREG.md: 0 AND, 1 OR, 2 XOR */
        uint32_t b = opb(g, &d);
        if (d.mode == 0)
            g[d.r] = av & b;
        else if (d.mode == 1)
            g[d.r] = av | b;
        else if (d.mode == 2)
            g[d.r] = av ^ b;
        else
            cp_fail(in, CP_ERR_UNDEFINED, "BITWOPDMAREG mode %u is undefined", d.mode);
        break;
    }
    case TT_OPC_SHIFTDMAREG: { /* SHIFTDMAREG.md: 0 left, 1 right, amount & 0x1F */
        uint32_t b = opb(g, &d) & 0x1Fu;
        if (d.mode == 0)
            g[d.r] = av << b;
        else if (d.mode == 1)
            g[d.r] = av >> b;
        else
            cp_fail(in, CP_ERR_UNDEFINED, "SHIFTDMAREG mode %u is undefined", d.mode);
        break;
    }
    case TT_OPC_CMPDMAREG: { /* CMPDMAREG.md: 0 GT, 1 LT, 2 EQ, unsigned; result 0/1 */
        uint32_t b = opb(g, &d);
        if (d.mode == 0)
            g[d.r] = av > b;
        else if (d.mode == 1)
            g[d.r] = av < b;
        else if (d.mode == 2)
            g[d.r] = av == b;
        else
            cp_fail(in, CP_ERR_UNDEFINED, "CMPDMAREG mode %u is undefined", d.mode);
        break;
    }
    default: break; /* (thcon_exec sends the six alone) */
    }
}

void thcon_exec(const cp_insn_t *in) {
    uint32_t word = in->word, *g = in->st->gpr[in->thread];
    switch (in->op->opcode) {
    case TT_OPC_SETDMAREG:
        if (TT_SETDMAREG_SETSIGNALSMODE(word)) {
            setdmareg_special(g, word);
        } else {
            /* SETDMAREG.md (immediate): the 16-bit NewValue goes to 16-bit half ResultHalfReg
             * of the GPR file: GPR ResultHalfReg>>1, high half if odd. */
            unsigned half = TT_SETDMAREG_REGINDEX16B(word), sh = 16 * (half & 1);
            uint32_t v = TT_SETDMAREG_NEWVALUE(word);
            g[half >> 1] = (g[half >> 1] & ~(0xFFFFu << sh)) | (v << sh);
        }
        break;
    case TT_OPC_ADDDMAREG:
    case TT_OPC_SUBDMAREG:
    case TT_OPC_MULDMAREG:
    case TT_OPC_BITWOPDMAREG:
    case TT_OPC_SHIFTDMAREG:
    case TT_OPC_CMPDMAREG: dmareg_exec(in, g); break;
    case TT_OPC_STOREREG:
    case TT_OPC_LOADREG: storereg_loadreg(in, g); break;
    case TT_OPC_DMANOP:
    case TT_OPC_RSTDMA: /* resets TDMA state this model does not keep */
    case TT_OPC_FLUSHDMA: /* only waits (the timing model) */ break;
    default:
        /* REG2FLOP, LOADIND, STOREIND, ATINCGET, ATINCGETPTR, ATSWAP, ATCAS: the ISA pages describe
         * them; ttemu does not model them yet (their timing is modelled, their effect is not). */
        cp_fail(in, CP_ERR_UNIMPLEMENTED, "ttemu does not model %s yet", in->op->mnemonic);
        break;
    }
}
