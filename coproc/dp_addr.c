/* coproc/dp_addr.c — the address counters: the unpackers' and packers' ADCs (ADCs.md; SETADC.md,
 * SETADCXX.md, SETADCXY.md, SETADCZW.md, INCADCXY.md, INCADCZW.md, ADDRCRXY.md, ADDRCRZW.md) and
 * the Matrix/Vector units' RWCs (RWCs.md; SETRWC.md, INCRWC.md). Counters wrap at their widths
 * (ADCs.md: X 18 bits, Y 13, Z 8, W 8; RWCs.md: Dst 10, SrcA/SrcB 6, fidelity 2). */
#include "coproc/dp_internal.h"
#include "coproc/tt_fields.h"

#define ADC_X(v) ((uint32_t)(v)&0x3FFFFu)
#define ADC_Y(v) ((uint16_t)((v)&0x1FFFu))
#define ADC_Z(v) ((uint8_t)(v))

/* The ADCs an ADC instruction applies to: CntSetMask bit0 unpacker 0, bit1 unpacker 1, bit2 the
 * packers, of the current thread or, when ThreadOverride is not 0, of thread ThreadOverride - 1. */
static unsigned adc_thread(const dp_ctx_t *x, unsigned override) {
    return override ? (override - 1) % DP_THREADS : x->t;
}

/* SETADCXY / SETADCZW / ADDRCRXY / ADDRCRZW / INCADCXY / INCADCZW share one field layout: four
 * 3-bit values (channel 0 first, then channel 1; X/Y or Z/W) and, except for INCADC*, four
 * enable bits. The enable bits of INCADC* are implicitly all set. */
typedef enum { ADC_SET, ADC_INC, ADC_CR } adc_op_t;

static void adc_apply(adc_ch_t ch[2], bool zw, adc_op_t op, unsigned en, const unsigned val[4]) {
    for (unsigned c = 0; c < 2; c++) {
        adc_ch_t *k = &ch[c];
        for (unsigned d = 0; d < 2; d++) { /* d = 0: X or Z, d = 1: Y or W */
            if (!(en & (1u << (2 * c + d)))) continue;
            unsigned v = val[2 * c + d];
            if (!zw && d == 0) {
                if (op == ADC_SET)
                    k->x = k->x_cr = ADC_X(v);
                else if (op == ADC_INC)
                    k->x = ADC_X(k->x + v);
                else
                    k->x = k->x_cr = ADC_X(k->x_cr + v);
            } else if (!zw) {
                if (op == ADC_SET)
                    k->y = k->y_cr = ADC_Y(v);
                else if (op == ADC_INC)
                    k->y = ADC_Y(k->y + v);
                else
                    k->y = k->y_cr = ADC_Y(k->y_cr + v);
            } else if (d == 0) {
                if (op == ADC_SET)
                    k->z = k->z_cr = ADC_Z(v);
                else if (op == ADC_INC)
                    k->z = ADC_Z(k->z + v);
                else
                    k->z = k->z_cr = ADC_Z(k->z_cr + v);
            } else {
                if (op == ADC_SET)
                    k->w = k->w_cr = ADC_Z(v);
                else if (op == ADC_INC)
                    k->w = ADC_Z(k->w + v);
                else
                    k->w = k->w_cr = ADC_Z(k->w_cr + v);
            }
        }
    }
}

/* The four values and ThreadOverride of the XY / ZW forms (their pages' names). */
#define ADC_FIELDS(w, OP, A, B, S)                                                                                     \
    do {                                                                                                               \
        val[0] = TT_##OP##_##A##0##S(w), val[1] = TT_##OP##_##B##0##S(w);                                              \
        val[2] = TT_##OP##_##A##1##S(w), val[3] = TT_##OP##_##B##1##S(w);                                              \
        units = TT_##OP##_CNTSETMASK(w), override = TT_##OP##_THREADOVERRIDE(w);                                       \
    } while (0)

void dp_adc_exec(dp_ctx_t *x) {
    uint32_t w = x->word;
    unsigned val[4] = {0}, units = 0, override = 0, en = 0xF;
    bool zw = false;
    adc_op_t op = ADC_SET;
    switch (TT_OPCODE(w)) {
    case TT_OPC_SETADC: {
        /* SETADC.md: one counter of one channel; NewValue's top two bits are ThreadOverride. */
        uint32_t v = TT_SETADC_VALUE(w);
        unsigned th = adc_thread(x, v >> 16), dim = TT_SETADC_DIMENSIONINDEX(w);
        unsigned chn = TT_SETADC_CHANNELINDEX(w), mask = TT_SETADC_CNTSETMASK(w);
        for (unsigned u = 0; u < ADC_UNITS; u++) {
            if (!(mask & (1u << u))) continue;
            adc_ch_t *k = &x->dp->adc[th][u].ch[chn];
            switch (dim) {
            case 0: k->x = k->x_cr = ADC_X(v); break;
            case 1: k->y = k->y_cr = ADC_Y(v); break;
            case 2: k->z = k->z_cr = ADC_Z(v); break;
            default: k->w = k->w_cr = ADC_Z(v); break;
            }
        }
        return;
    }
    case TT_OPC_SETADCXX: {
        /* SETADCXX.md: Channel0.X and Channel1.X of the current thread's counters. */
        unsigned x0 = TT_SETADCXX_X_START(w), x1 = TT_SETADCXX_X_END2(w) & 0x3FF;
        for (unsigned u = 0; u < ADC_UNITS; u++) {
            if (!(TT_SETADCXX_CNTSETMASK(w) & (1u << u))) continue;
            adc_t *a = &x->dp->adc[x->t][u];
            a->ch[0].x = a->ch[0].x_cr = x0;
            a->ch[1].x = a->ch[1].x_cr = x1;
        }
        return;
    }
    /* BitMask: bit 0 X0 (or Z0), 1 Y0 (W0), 2 X1 (Z1), 3 Y1 (W1); its bits 4..5 are unused. */
    case TT_OPC_SETADCXY:
        ADC_FIELDS(w, SETADCXY, X, Y, VAL);
        en = TT_SETADCXY_BITMASK(w) & 0xF;
        break;
    case TT_OPC_SETADCZW:
        ADC_FIELDS(w, SETADCZW, Z, W, VAL);
        en = TT_SETADCZW_BITMASK(w) & 0xF, zw = true;
        break;
    case TT_OPC_ADDRCRXY:
        ADC_FIELDS(w, ADDRCRXY, X, Y, INC);
        en = TT_ADDRCRXY_BITMASK(w) & 0xF, op = ADC_CR;
        break;
    case TT_OPC_ADDRCRZW:
        ADC_FIELDS(w, ADDRCRZW, Z, W, INC);
        en = TT_ADDRCRZW_BITMASK(w) & 0xF, op = ADC_CR, zw = true;
        break;
    case TT_OPC_INCADCXY:
        ADC_FIELDS(w, INCADCXY, X, Y, INC);
        op = ADC_INC;
        break;
    case TT_OPC_INCADCZW:
        ADC_FIELDS(w, INCADCZW, Z, W, INC);
        op = ADC_INC, zw = true;
        break;
    default: return;
    }
    unsigned th = adc_thread(x, override);
    for (unsigned u = 0; u < ADC_UNITS; u++)
        if (units & (1u << u)) adc_apply(x->dp->adc[th][u].ch, zw, op, en, val);
}

/* SETRWC or INCRWC word w on its thread's counters r: the rule (dp_rwc_exec's; dp_rwc_apply's but
 * for its shortcut). */
static inline __attribute__((always_inline)) void rwc_rule(rwc_t *r, uint32_t w) {
    if (TT_OPCODE(w) == TT_OPC_SETRWC) {
        /* SETRWC.md. The Src bank hand-over (clear_ab_vld) is the timing model's. */
        unsigned mask = TT_SETRWC_BITMASK(w), cr = TT_SETRWC_RWC_CR(w);
        if (mask & 1) r->srca = r->srca_cr = (uint8_t)((TT_SETRWC_RWC_A(w) + ((cr & 1) ? r->srca_cr : 0)) & 63);
        if (mask & 2) r->srcb = r->srcb_cr = (uint8_t)((TT_SETRWC_RWC_B(w) + ((cr & 2) ? r->srcb_cr : 0)) & 63);
        if ((mask & 4) || (cr & 8)) {
            unsigned v = TT_SETRWC_RWC_D(w);
            if (cr & 8)
                v += r->dst;
            else if (cr & 4)
                v += r->dst_cr;
            r->dst = r->dst_cr = (uint16_t)(v & 1023);
        }
        if (mask & 8) r->fidelity = 0;
        return;
    }
    /* INCRWC.md: cr bit 0 SrcA, 1 SrcB, 2 Dst. */
    unsigned cr = TT_INCRWC_RWC_CR(w);
    if (cr & 1)
        r->srca = r->srca_cr = (uint8_t)((r->srca_cr + TT_INCRWC_RWC_A(w)) & 63);
    else
        r->srca = (uint8_t)((r->srca + TT_INCRWC_RWC_A(w)) & 63);
    if (cr & 2)
        r->srcb = r->srcb_cr = (uint8_t)((r->srcb_cr + TT_INCRWC_RWC_B(w)) & 63);
    else
        r->srcb = (uint8_t)((r->srcb + TT_INCRWC_RWC_B(w)) & 63);
    if (cr & 4)
        r->dst = r->dst_cr = (uint16_t)((r->dst_cr + TT_INCRWC_RWC_D(w)) & 1023);
    else
        r->dst = (uint16_t)((r->dst + TT_INCRWC_RWC_D(w)) & 1023);
}

void dp_rwc_exec(dp_ctx_t *x) { rwc_rule(&x->dp->rwc[x->t], x->word); }

/* INCRWC's A, B and CR's three bits (INCRWC.md; one test: gcc does not join the field macros'). */
#define INCRWC_AB_CR (TT_OP_INCRWC(7, 0, 15, 15) - TT_OP_INCRWC(0, 0, 0, 0))
void dp_rwc_apply(dp_t *dp, unsigned t, uint32_t w) {
    rwc_t *r = &dp->rwc[t];
    /* An INCRWC of Dst alone (kernels' SFPU loops: add1's Dst += 2): A, B and CR's three bits 0
     * (INCRWC.md) leave SrcA and SrcB as they are (the rule's masks change nothing: every writer of
     * the counters keeps them within their widths, 6 and 10 bits), and Dst incremented from itself. */
    if (TT_OPCODE(w) == TT_OPC_INCRWC && !(w & INCRWC_AB_CR)) {
        r->dst = (uint16_t)((r->dst + TT_INCRWC_RWC_D(w)) & 1023);
        return;
    }
    rwc_rule(r, w);
}
