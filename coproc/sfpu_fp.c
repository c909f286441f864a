/* coproc/sfpu_fp.c — the Vector Unit's MAD sub-unit and its approximations: SFPMAD, SFPADD,
 * SFPMUL, SFPADDI, SFPMULI, SFPLUT, SFPLUTFP32, SFPMUL24 and SFPARECIP (coproc/sfpu_ops.h). Every
 * multiply-add is Blackhole's FMA (coproc/fma.c, SFPMAD.md "IEEE754 conformance"). */
#include <string.h>

#include "coproc/fma.h"
#include "coproc/formats.h"
#include "coproc/sfpu_ops.h"
#include "coproc/tt_fields.h"

_Static_assert(LANES == FMA_LANES, "the Vector Unit's lanes are fma_bh_lanes's");

#define SIGN      0x80000000u
#define F32_ONE   0x3F800000u
#define F32_HALF  0x3F000000u /* 0.5 (check_fields: not a field) */
#define F32_1_5   0x3FC00000u /* 1.5 (check_fields: not a field) */
#define F32_TWO   0x40000000u /* 2.0 (check_fields: not a field) */
#define F32_THREE 0x40400000u /* 3.0 (check_fields: not a field) */
#define F32_FOUR  0x40800000u /* 4.0 (check_fields: not a field) */

/* The result register of a lane: VD, or with Mod1 bit 3 (SFPMAD_MOD1_INDIRECT_VD and its siblings)
 * the low four bits of LReg[7] — unless VD is 16 (SFPLOADMACRO's LReg[16]). */
static inline unsigned vd_of(const lregs_t *s, const sfp_op_t *o, unsigned lane, bool indirect) {
    return (indirect && o->vd != 16) ? (s->r[7][lane] & 15) : o->vd;
}
static inline bool writable(unsigned vd) { return vd < 8 || vd == 16; }

/* SFPMAD.md (SFPADD.md and SFPMUL.md: "as per SFPMAD"); SFPADDI.md: VD = Imm16 * 1.0 ± VD; SFPMULI.md:
 * VD = Imm16 * ±VD + 0.0. Mod1: 1 NEGATE_VA, 2 NEGATE_VC, 4 INDIRECT_VA, 8 INDIRECT_VD (SFPADDI and
 * SFPMULI: 2 and 8 only). */
sfp_res_t sfpu_mad(lregs_t *s, const sfp_op_t *o) {
    uint32_t en = sfpu_lanes_enabled(s) & sfpu_backdoor_ok(s, o);
    bool imm = o->opc == TT_OPC_SFPADDI || o->opc == TT_OPC_SFPMULI;
    bool ind_d = (o->mod & 8) != 0, ind_a = !imm && (o->mod & 4);
    if (!en || (!(ind_d && o->vd != 16) && !writable(o->vd))) return SFP_OK; /* nothing to write */
    unsigned vc = o->vc != SFP_NONE ? o->vc : o->vd;                         /* SFPADDI/SFPMULI: VC = VD */
    uint32_t neg_a = (!imm && (o->mod & 1)) ? SIGN : 0, neg_c = (o->mod & 2) ? SIGN : 0;
    uint32_t k = (uint32_t)o->imm << 16; /* BF16ToFP32(Imm16) */
    /* Without indirection, all 32 lanes at once (fma_bh_lanes; the same rules as fma_bh), then the
     * enabled lanes written. */
    if (!ind_d && !ind_a && !o->general) {
        uint32_t a[LANES], b[LANES], c[LANES], d[LANES];
        if (o->opc == TT_OPC_SFPADDI) {
            fma_bh_lanes_add_k(k, s->r[vc], neg_c, d);
        } else if (o->opc == TT_OPC_SFPMULI) {
            for (unsigned l = 0; l < LANES; l++)
                a[l] = k, b[l] = s->r[vc][l] ^ neg_c, c[l] = 0;
        } else {
            for (unsigned l = 0; l < LANES; l++)
                a[l] = s->r[o->va][l] ^ neg_a, b[l] = s->r[o->vb][l], c[l] = s->r[vc][l] ^ neg_c;
        }
        if (o->opc != TT_OPC_SFPADDI) fma_bh_lanes(a, b, c, d);
        if (en == 0xFFFFFFFFu)
            memcpy(s->r[o->vd], d, sizeof d);
        else
            fmt_lanes_merge(s->r[o->vd], d, en);
        return SFP_OK;
    }
    /* One loop per form, so the lanes do not branch on the opcode. */
    if (o->opc == TT_OPC_SFPADDI || o->opc == TT_OPC_SFPMULI) {
        bool add = o->opc == TT_OPC_SFPADDI;
        for (unsigned l = 0; l < LANES; l++) {
            if (!((en >> l) & 1)) continue;
            uint32_t c = s->r[vc][l] ^ neg_c;
            uint32_t d = add ? fma_bh(k, F32_ONE, c) : fma_bh(k, c, 0);
            unsigned vd = vd_of(s, o, l, ind_d);
            if (writable(vd)) s->r[vd][l] = d;
        }
        return SFP_OK;
    }
    for (unsigned l = 0; l < LANES; l++) {
        if (!((en >> l) & 1)) continue;
        uint32_t d = fma_bh(s->r[ind_a ? (s->r[7][l] & 15) : o->va][l] ^ neg_a, s->r[o->vb][l], s->r[vc][l] ^ neg_c);
        unsigned vd = vd_of(s, o, l, ind_d);
        if (writable(vd)) s->r[vd][l] = d;
    }
    return SFP_OK;
}

/* SFPADDI in place (SFPADDI.md: VD = Imm16 * 1.0 + ±VD) on all 32 lanes of VD in LReg[0..7], from
 * VD itself (fma_bh_lanes_add_k_in, the rule fma_bh_lanes_add_k is). It checks nothing: its callers
 * take it only where it is SFPADDI.md's result, the word's part holding (sfpu_addi_word_in_place:
 * no indirection, not the backdoor, VC = VD, which SFPLOADMACRO can make two, test_sfpu_macro's
 * test_addi_template), every lane enabled and not under dp_set_reference (sfpu_addi here, the
 * light way's SFP_LIGHT_ADDI in sfpu.c). */
void sfpu_addi_in_place(lregs_t *s, const sfp_op_t *o) {
    fma_bh_lanes_add_k_in((uint32_t)o->imm << 16, s->r[o->vd], (o->mod & 2) ? SIGN : 0);
}
void sfpu_addi_in_place_k(lregs_t *s, const sfp_op_t *o, float fa) {
    fma_bh_lanes_add_fk_in((uint32_t)o->imm << 16, fa, s->r[o->vd], (o->mod & 2) ? SIGN : 0);
}
sfp_res_t sfpu_addi(lregs_t *s, const sfp_op_t *o) {
    if (o->general || !sfpu_addi_word_in_place(o) || sfpu_lanes_enabled(s) != 0xFFFFFFFFu) return sfpu_mad(s, o);
    sfpu_addi_in_place(s, o);
    return SFP_OK;
}

/* SFPLUT.md Lut8ToFp32: sign, a 3-bit exponent below 127 and 4 mantissa bits; 0xFF is zero. */
static uint32_t lut8(uint32_t x) {
    x &= 0xFF;
    if (x == 0xFF) return 0;
    return (x >> 7) << 31 | (127 - ((x >> 4) & 7)) << 23 | (x & 15) << 19;
}

/* SFPLUT.md: a * |LReg[3]| + c, the pair of 8-bit coefficients from LReg[0] (|x| < 1), LReg[1]
 * (|x| < 2) or LReg[2]. Mod0: 4 SGN_RETAIN, 8 INDIRECT_VD. The |x| comparisons are on the bits, so
 * NaN selects LReg[2]. */
sfp_res_t sfpu_lut(lregs_t *s, const sfp_op_t *o) {
    uint32_t en = sfpu_lanes_enabled(s) & sfpu_backdoor_ok(s, o);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((en >> l) & 1)) continue;
        uint32_t l3 = s->r[3][l], b = l3 & ~SIGN;
        uint32_t k = s->r[b < F32_ONE ? 0 : b < F32_TWO ? 1 : 2][l];
        uint32_t d = fma_bh(lut8(k >> 8), b, lut8(k));
        if (o->mod & 4) d = (d & ~SIGN) | (l3 & SIGN);
        unsigned vd = vd_of(s, o, l, (o->mod & 8) != 0);
        if (writable(vd)) s->r[vd][l] = d;
    }
    return SFP_OK;
}

/* SFPLUTFP32.md Lut16ToFp32: an FP16 pattern rebiased by 112; exponent 31 becomes 0 (the result is
 * then a denormal, which the FMA reads as zero). */
static uint32_t lut16(uint32_t x) {
    x &= 0xFFFF;
    uint32_t e = (x >> 10) & 0x1F;
    return (x >> 15) << 31 | (e == 31 ? 0 : 112 + e) << 23 | (x & 0x3FF) << 13;
}

/* SFPLUTFP32.md. Mod1: 0 FP32_3ENTRY_TABLE (a = LReg[i], c = LReg[4 + i]); 2 FP16_6ENTRY_TABLE1 and 3
 * TABLE2 (the halves of LReg[i] and LReg[4 + i], split again at 0.5, 1.5 and 3.0 or 4.0); 10
 * FP16_3ENTRY_TABLE (both halves of LReg[i]) — whose bit 3 is also INDIRECT_VD, the documented bug;
 * 4 SGN_RETAIN. i is 0 for |x| < 1, 1 for |x| < 2, else 2 (the comparisons on bits: NaN is large). */
sfp_res_t sfpu_lutfp32(lregs_t *s, const sfp_op_t *o) {
    uint32_t en = sfpu_lanes_enabled(s) & sfpu_backdoor_ok(s, o);
    unsigned m = o->mod;
    bool fp16 = (m & 2) != 0, three = (m & 10) == 10;
    uint32_t cut = (m & 3) == 3 ? F32_FOUR : F32_THREE;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((en >> l) & 1)) continue;
        uint32_t l3 = s->r[3][l], b = l3 & ~SIGN, a, c;
        unsigned i = b < F32_ONE ? 0 : b < F32_TWO ? 1 : 2;
        if (!fp16) {
            a = s->r[i][l], c = s->r[4 + i][l];
        } else if (three) {
            a = lut16(s->r[i][l] >> 16), c = lut16(s->r[i][l]);
        } else {
            /* the upper half above 0.5, 1.5 and the cut */
            uint32_t split = i == 0 ? F32_HALF : i == 1 ? F32_1_5 : cut;
            unsigned j = b < split ? 0 : 16;
            a = lut16(s->r[i][l] >> j), c = lut16(s->r[4 + i][l] >> j);
        }
        uint32_t d = fma_bh(a, b, c);
        if (m & 4) d = (d & ~SIGN) | (l3 & SIGN);
        unsigned vd = vd_of(s, o, l, (m & 8) != 0);
        if (writable(vd)) s->r[vd][l] = d;
    }
    return SFP_OK;
}

/* SFPMUL24.md Mul24ShiftAdd (NonContractualBehavior, current silicon): the floating-point datapath's
 * add stage, fed the 23-bit product as a mantissa of exponent 129 and a nonzero VC. */
static uint32_t mul24_shift_add(uint32_t p, uint32_t z) {
    unsigned ze = (z >> 23) & 0xFF;
    if (!ze) return p;
    unsigned re = ze > 129 ? ze : 129, sh = (re - ze) & 31;
    uint32_t zg = (0x800000u | (z & 0x7FFFFF)) << 3; /* with three guard bits */
    uint32_t za = zg >> sh;
    p >>= (re - 129) & 31;
    if (za) {
        p += za;
        if (((za << sh) ^ zg) > 0xFFFF) p += 1u << 16;
        p &= 0x7FFFFF;
    }
    return p;
}

/* SFPMUL24.md: the low (or with Mod1 1 UPPER, the high) 23 bits of a 23 x 23-bit product. Mod1: 4
 * INDIRECT_VA, 8 INDIRECT_VD. A nonzero VC adds the shift-add above. */
sfp_res_t sfpu_mul24(lregs_t *s, const sfp_op_t *o) {
    uint32_t en = sfpu_lanes_enabled(s) & sfpu_backdoor_ok(s, o);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((en >> l) & 1)) continue;
        uint32_t a = s->r[(o->mod & 4) ? (s->r[7][l] & 15) : o->va][l], b = s->r[o->vb][l], c = s->r[o->vc][l];
        uint32_t d = (o->mod & 1) ? (uint32_t)(((uint64_t)(a & 0x7FFFFF) * (b & 0x7FFFFF)) >> 23) : (a * b) & 0x7FFFFF;
        if (c) d = mul24_shift_add(d, c);
        unsigned vd = vd_of(s, o, l, (o->mod & 8) != 0);
        if (writable(vd)) s->r[vd][l] = d;
    }
    return SFP_OK;
}

/* SFPARECIP.md ApproxRecip: exponent 253 - e and a 7-bit mantissa from a 128-entry table indexed by
 * the top 7 mantissa bits. The page lists the table; each entry is the reciprocal of its interval's
 * midpoint, 1 / (1 + (i + 0.5) / 128), as a mantissa 1 + m / 128 of the binade above, rounded to
 * nearest: m = round(65536 / (257 + 2i)) - 128. (Checked against the page's 128 entries when this
 * was written; test/unit/test_sfpu_fp.c checks the page's values and accuracy bounds.) */
uint32_t sfpu_approx_recip(uint32_t x) {
    if (x < 0x00800000u) return 0x7F800000u; /* below 2^-126 (zero, denormals): +Inf */
    if (x >= 0x7E800000u) return 0;          /* 2^126 and above, Inf, NaN: 0 */
    uint32_t i = (x >> 16) & 0x7F, d = 257 + 2 * i;
    uint32_t m = (2 * 65536 + d) / (2 * d) - 128;
    return (253 - (x >> 23)) << 23 | m << 16;
}

/* SFPARECIP.md ApproxExp, for 2^-126 <= x < 2: the high half is e^t truncated to BF16, where t is x
 * truncated to BF16 (the page's 896-entry table, indexed by x's top 16 bits from 2^-6 up to 2, is
 * exactly that: checked against every entry when this was written, with at least 0.13% of a BF16
 * step between e^t and the nearest truncation boundary, far beyond the error of the series below); the low
 * half is x's own low 16 bits. Below 2^-6 the high half is 1 + 2^-7; from 2 up, 4.0 with x's low
 * bits; below 2^-126, 1.0. */
uint32_t sfpu_approx_exp(uint32_t x) {
    if (x < 0x00800000u) return F32_ONE;
    if (x < 0x3C800000u) return 0x3F810000u | (x & 0xFFFF);
    if (x >= F32_TWO) return F32_FOUR | (x & 0xFFFF);
    uint32_t tb = x & 0xFFFF0000u;
    float t;
    memcpy(&t, &tb, sizeof t);
    /* e^t by its Taylor series in doubles: for t < 2, 30 terms leave an error near 1e-16, some 1e11
     * times below the margin above (and no host libm is involved). */
    double e = 1, term = 1;
    for (int n = 1; n <= 30; n++) {
        term *= t / n;
        e += term;
    }
    uint64_t eb;
    memcpy(&eb, &e, sizeof eb);
    uint32_t hi = (uint32_t)((((eb >> 52) & 0x7FF) - 1023 + 127) << 7 | ((eb >> 45) & 0x7F));
    return hi << 16 | (x & 0xFFFF);
}

/* SFPARECIP.md: Mod1 0 RECIP: sign and ApproxRecip(|VC|); 1 COND_RECIP: ApproxRecip(|VC|) without the
 * sign where LReg[VB] is negative (as a two's complement integer), else VC as it is; 2 EXP (and any
 * other Mod1): sign and ApproxExp(|VC|). */
sfp_res_t sfpu_arecip(lregs_t *s, const sfp_op_t *o) {
    if (!writable(o->vd)) return SFP_OK;
    uint32_t en = sfpu_lanes_enabled(s);
    for (unsigned l = 0; l < LANES; l++) {
        if (!((en >> l) & 1)) continue;
        uint32_t x = s->r[o->vc][l], sign = x & SIGN;
        switch (o->mod) {
        case 0: x = sign | sfpu_approx_recip(x & ~SIGN); break;
        case 1:
            if ((int32_t)s->r[o->vb][l] < 0) x = sfpu_approx_recip(x & ~SIGN);
            break;
        default: x = sign | sfpu_approx_exp(x & ~SIGN); break;
        }
        s->r[o->vd][l] = x;
    }
    return SFP_OK;
}
