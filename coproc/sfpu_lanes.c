/* coproc/sfpu_lanes.c — the Vector Unit's per-lane state outside the instructions themselves:
 * which lanes are enabled, the "backdoor" that turns an instruction with VD >= 12 into an
 * SFPLOADMACRO template write, the PRNG's seeding, and the power-on state (coproc/sfpu_ops.h). */
#include <string.h>

#include "coproc/sfpu_ops.h"
#include "coproc/tt_fields.h"

/* sfpu_lanes_enabled where some ROW_MASK bit is set (coproc/sfpu_ops.h). */
uint32_t sfpu_lanes_row_masked(const lregs_t *s) {
    uint32_t dis = 0;
    for (unsigned c = 0; c < 8; c++) { /* ROW_MASK bit r of column c is lane 8r + c: spread 4 bits */
        uint32_t rm = (s->lane_config[c] >> LC_ROW_MASK_SHIFT) & 0xF;
        dis |= ((rm & 1) | (rm & 2) << 7 | (rm & 4) << 14 | (rm & 8) << 21) << c;
    }
    return ~dis & ~(s->use_flags & ~s->flags);
}

/* sfpu_backdoor_ok where VD names a template (coproc/sfpu_ops.h): the lanes that refuse the write. */
uint32_t sfpu_backdoor_lanes(const lregs_t *s) {
    uint32_t ok = 0;
    for (unsigned l = 0; l < LANES; l++)
        if (s->lane_config[l] & LC_DISABLE_BACKDOOR_LOAD) ok |= 1u << l;
    return ok;
}

/* SFPCONFIG.md (LaneConfig DISABLE_BACKDOOR_LOAD; "executing an instruction with VD set to 12+i will
 * write the instruction bits to InstructionTemplate[i]"). Which instructions: every Vector Unit
 * instruction with a VD operand [INF: the page says "instructions with VD >= 12"]; not SFPCONFIG
 * (its VD names what it configures, LReg[12..14] among them), SFPNOP (no VD) nor SFPLOADMACRO (a
 * 3-bit VD). */
void sfpu_backdoor_write(lregs_t *s, const sfp_op_t *o) {
    if (o->opc == TT_OPC_SFPCONFIG || o->opc == TT_OPC_SFPNOP || o->opc == TT_OPC_SFPLOADMACRO) return;
    for (unsigned l = 0; l < LANES; l++)
        if (!(s->lane_config[l] & LC_DISABLE_BACKDOOR_LOAD)) s->lm_tmpl[l][o->vd - 12] = o->word;
}

/* The seed register (cfg_defines.h PRNG_SEED_Seed_Val) is not described by the ISA pages; this is
 * ttsim's seeding [SIM src/tensix.cpp seed_prng]: advance the seed 32 times as a PRNG state, then
 * give the lanes from 31 down to 0 every second state after it. */
void sfpu_prng_seed(lregs_t *s, uint32_t seed) {
    for (unsigned i = 0; i < 32; i++)
        seed = sfpu_prng_next(seed);
    for (unsigned i = 0; i < 32; i++) {
        seed = sfpu_prng_next(sfpu_prng_next(seed));
        s->prng[31 - i] = seed;
    }
}

void sfpu_reset(lregs_t *s) {
    /* The ISA gives no power-on contents for LReg[0..7] (ttemu: zero) nor the PRNG (VectorUnit.md's
     * `static uint32_t State[32]`: zero), nor LReg[11..14], which ttsim starts at SFPCONFIG's four
     * defaults [SIM tensix_init]; LReg.md's constants are LReg[8] = 0.8373 (the FP32 nearest),
     * LReg[9] = 0, LReg[10] = 1.0, LReg[15] lane i = 2i. Predication off, the flag stack empty,
     * LaneConfig and LoadMacroConfig zero (DISABLE_BACKDOOR_LOAD clear: SFPCONFIG.md "the default"). */
    memset(s, 0, sizeof *s);
    for (unsigned l = 0; l < LANES; l++) {
        s->r[8][l] = 0x3F56594Bu;
        s->r[10][l] = 0x3F800000u;
        s->r[11][l] = 0xBF800000u; /* -1.0 */
        s->r[12][l] = 0x3B000000u; /* 1/512 (check_fields: not a field) */
        s->r[13][l] = 0xBF2CC4C7u; /* -0.67487759 */
        s->r[14][l] = 0xBEB08FF9u; /* -0.34484843 */
        s->r[15][l] = 2 * l;
    }
}
