/* coproc/sfpu_ops.h — the Vector Unit's (SFPU's) instructions as pure functions over its registers
 * (lregs_t, coproc/dp_regs.h): what coproc/sfpu.c runs at dispatch, what SFPLOADMACRO schedules
 * (coproc/sfpu_macro.c), and what the unit tests call directly (test/unit/test_sfpu*.c).
 *
 * An instruction is first decoded (sfpu_decode, from the generated field accessors) into an
 * sfp_op_t: the operands its Blackhole ISA page names. SFPLOADMACRO rewrites some of them (its
 * templates' VB, VC and VD), which is why they live in a struct rather than being read from the
 * word. The functions here touch nothing but the lregs_t they are given; the instructions that read
 * or write Dst (SFPLOAD, SFPSTORE, SFPLOADMACRO) are coproc/sfpu.c's.
 *
 * Sources: each function names its page (BlackholeA0/TensixTile/TensixCoprocessor/, or the
 * WormholeB0 page a Blackhole page defers to); docs/datapath.md "The Vector Unit" lists them with
 * the choices made where a page is silent. */
#ifndef TTEMU_COPROC_SFPU_OPS_H
#define TTEMU_COPROC_SFPU_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "coproc/cp_views.h"
#include "coproc/dp_regs.h"

/* An operand the encoding does not carry: the page derives it (VB = VD, VC = VD, ...). */
#define SFP_NONE 0xFFu

/* One decoded SFPU instruction. */
typedef struct {
    uint32_t word; /* as issued: the "backdoor" stores it as an SFPLOADMACRO template */
    uint8_t opc;   /* TT_OPC_SFP* */
    uint8_t mod;   /* Mod0 (SFPLOAD/SFPLOADI/SFPSTORE/SFPLUT/SFPLOADMACRO) or Mod1 */
    uint8_t vd, vc, vb, va;
    uint8_t rnd;      /* SFPSTOCHRND RoundingMode */
    uint8_t addr_mod; /* SFPLOAD, SFPSTORE, SFPLOADMACRO */
    uint16_t imm;     /* Imm16, Imm12 (raw 12 bits), Imm10, Imm5, as the page names it */
    bool use_imm5;    /* SFPSTOCHRND IntInt */
    bool macro;       /* scheduled by SFPLOADMACRO: DISABLE_BACKDOOR_LOAD reads as true */
    bool general;     /* lane by lane, none of the 32-lane shortcuts (dp_set_reference) */
} sfp_op_t;

/* What an instruction did wrong, if anything: a category and a static sentence. */
typedef struct {
    cp_err_cat_t cat;
    const char *what;
} sfp_res_t;

#define SFP_OK ((sfp_res_t){CP_ERR_NONE, 0})

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
    LC_EXCHANGE_SRCB_SRCC = 1u << 8,
    LC_ROW_MASK_SHIFT = 12,
};

/* The sub-units (VectorUnit.md "Sub-units"; SFPLOADMACRO.md's four columns, then load). */
enum { SFP_UNIT_SIMPLE = 0, SFP_UNIT_MAD, SFP_UNIT_ROUND, SFP_UNIT_STORE, SFP_UNIT_LOAD, SFP_UNIT_ANY };

/* ---- decoding ------------------------------------------------------------------------------ */

/* Decode an SFPU word (opcode 0x70..0x99). False if the opcode is not the Vector Unit's. */
bool sfpu_decode(uint32_t word, sfp_op_t *o);
/* The sub-unit that executes opc when software issues it (SFP_UNIT_ANY for SFPNOP). */
unsigned sfpu_unit_of(unsigned opc);
/* May SFPLOADMACRO schedule opc on this sub-unit (SFPLOADMACRO.md's table)? */
bool sfpu_unit_can(unsigned unit, unsigned opc);

/* ---- lanes --------------------------------------------------------------------------------- */

/* VectorUnit.md IsLaneEnabled for all 32 lanes: bit L is lane L's. Most instructions ask, and
 * mostly no ROW_MASK bit is set: that test inline, the ROW_MASK lanes out of line. */
uint32_t sfpu_lanes_row_masked(const lregs_t *s);
static inline uint32_t sfpu_lanes_enabled(const lregs_t *s) {
    /* LaneConfig[Lane & 7].ROW_MASK bit Lane / 8 disables a lane; else UseLaneFlagsForLaneEnable
     * && !LaneFlags does. */
    if ((s->lc_or8 >> LC_ROW_MASK_SHIFT) & 0xF) return sfpu_lanes_row_masked(s);
    return ~(s->use_flags & ~s->flags);
}
/* The lanes where `VD < 12 || LaneConfig.DISABLE_BACKDOOR_LOAD` holds (all, for SFPLOADMACRO's):
 * the test of VD inline, the lanes' bits out of line. */
uint32_t sfpu_backdoor_lanes(const lregs_t *s);
static inline uint32_t sfpu_backdoor_ok(const lregs_t *s, const sfp_op_t *o) {
    if (o->vd < 12 || o->vd == SFP_NONE || o->macro) return 0xFFFFFFFFu;
    return sfpu_backdoor_lanes(s);
}
/* The instruction-template writes of an instruction with VD 12..15 (SFPCONFIG.md LaneConfig
 * DISABLE_BACKDOOR_LOAD): lanes whose DISABLE_BACKDOOR_LOAD is clear store the word as
 * InstructionTemplate[VD - 12]. The test of VD inline (every Vector Unit instruction asks), the
 * rest out of line. */
void sfpu_backdoor_write(lregs_t *s, const sfp_op_t *o);
static inline void sfpu_backdoor(lregs_t *s, const sfp_op_t *o) {
    if (o->vd >= 12 && o->vd <= 15 && !o->macro) sfpu_backdoor_write(s, o);
}

/* AdvancePRNG(Lane) (VectorUnit.md "PRNG"). */
static inline uint32_t sfpu_prng_next(uint32_t state) {
    /* Shift right; the new top bit is the inverse of the parity of bits 31, 21, 1 and 0. */
    uint32_t taps = (uint32_t)__builtin_popcount(state & 0x80200003u);
    return (~taps << 31) | (state >> 1);
}
static inline uint32_t sfpu_prng_advance(lregs_t *s, unsigned lane) {
    uint32_t r = s->prng[lane];
    s->prng[lane] = sfpu_prng_next(r);
    return r;
}
/* A write of the seed register: every lane's state from one 32-bit seed [SIM]. */
void sfpu_prng_seed(lregs_t *s, uint32_t seed);

/* Power-on state of the Vector Unit (LReg.md constants; docs/datapath.md for the rest). */
void sfpu_reset(lregs_t *s);

/* ---- execution ----------------------------------------------------------------------------- */

/* Run one lanewise or cross-lane instruction (everything but SFPLOAD, SFPSTORE, SFPLOADMACRO,
 * which need Dst: coproc/sfpu.c). */
sfp_res_t sfpu_exec(lregs_t *s, const sfp_op_t *o);

/* One function per page (or family sharing a functional model). */
sfp_res_t sfpu_mad(lregs_t *s, const sfp_op_t *o);  /* SFPMAD, SFPADD, SFPMUL, SFPADDI, SFPMULI */
sfp_res_t sfpu_addi(lregs_t *s, const sfp_op_t *o); /* SFPADDI (sfpu_mad where not in place) */
/* What of an SFPADDI's word its in-place form needs (sfpu_addi_in_place): no indirection, VD in
 * LReg[0..7], VC = VD or none; every lane enabled and not under dp_set_reference are the rest
 * (sfpu_addi; sfpu.c's light way). sfpu_addi_in_place: that form, where all of it holds. */
static inline bool sfpu_addi_word_in_place(const sfp_op_t *o) {
    return !(o->mod & 8) && o->vd < 8 && (o->vc == SFP_NONE || o->vc == o->vd);
}
void sfpu_addi_in_place(lregs_t *s, const sfp_op_t *o);
/* The same with its Imm16's part made once at decoding (fma_add_k_of: fa; only where Imm16 is
 * finite: sfpu.c's light way). */
void sfpu_addi_in_place_k(lregs_t *s, const sfp_op_t *o, float fa);
sfp_res_t sfpu_lut(lregs_t *s, const sfp_op_t *o); /* SFPLUT */
sfp_res_t sfpu_lutfp32(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_mul24(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_arecip(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_iadd(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_shft(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_bitwise(lregs_t *s, const sfp_op_t *o); /* SFPAND, SFPOR, SFPXOR, SFPNOT */
sfp_res_t sfpu_lz(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_abs(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_exexp(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_exman(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_setfield(lregs_t *s, const sfp_op_t *o); /* SFPSETEXP, SFPSETMAN, SFPSETSGN, SFPDIVP2 */
sfp_res_t sfpu_cast(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_stochrnd(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_setcc(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_encc(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_pushc(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_popc(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_compc(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_cmp(lregs_t *s, const sfp_op_t *o); /* SFPGT, SFPLE */
sfp_res_t sfpu_mov(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_swap(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_transp(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_shft2(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_loadi(lregs_t *s, const sfp_op_t *o);
sfp_res_t sfpu_config(lregs_t *s, const sfp_op_t *o);

/* SFPARECIP's approximations (SFPARECIP.md ApproxRecip, ApproxExp), on a non-negative FP32. */
uint32_t sfpu_approx_recip(uint32_t x);
uint32_t sfpu_approx_exp(uint32_t x);
/* SignMagIsSmaller (SFPGT.md, SFPLE.md, SFPSWAP.md): c < d as sign-magnitude integers, which is
 * also FP32's total order -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN. */
static inline bool sfpu_sm_smaller(uint32_t c, uint32_t d) {
    /* A negative magnitude m maps to the two's complement -1 - m, then compare signed. */
    if (c >> 31) c ^= 0x7FFFFFFFu;
    if (d >> 31) d ^= 0x7FFFFFFFu;
    return (int32_t)c < (int32_t)d;
}

#endif
