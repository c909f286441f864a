/* coproc/datapath.c — the datapath's state, its dispatch by opcode, and what the units share:
 * configuration field access, address modifiers, Dst row mapping (coproc/datapath.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "coproc/dp_internal.h"
#include "coproc/tt_fields.h"
#include "coproc/tt_ops.h"

/* What dp_reset sets beyond zeros (dp_create's state is a fresh mapping: zeros already). */
static void power_on(dp_t *dp);

/* A fresh anonymous mapping rather than calloc: the kernel's zeroed pages, each touched only when a
 * run first uses it (most of Dst and the Src banks are never touched by a small run; calloc from a
 * heap that reused memory, and dp_reset's memset, cleared all ~17 pages: a page fault each). */
dp_t *dp_create(void) {
    void *m = mmap(NULL, sizeof(dp_t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    dp_t *dp = m;
    power_on(dp);
    return dp;
}

void dp_destroy(dp_t *dp) {
    if (dp) munmap(dp, sizeof *dp);
}

void dp_reset(dp_t *dp) {
    bool reference = dp->reference;
    memset(dp, 0, sizeof *dp);
    dp->reference = reference;
    power_on(dp);
}

static void power_on(dp_t *dp) {
    /* The ISA gives no power-on values for SrcA/SrcB/Dst/LReg contents (Dst.md: UnpredictableValue);
     * ttemu's choice is zero, so runs are deterministic. DstRowValid starts true (Dst.md). */
    for (unsigned r = 0; r < DST_ROWS; r++)
        dp->dst.valid[r] = true;
    for (unsigned b = 0; b < SRC_BANKS; b++) /* zeros, and known to be (src_regs_t.zero) */
        dp->srca.zero[b] = dp->srcb.zero[b] = true;
    sfpu_reset(&dp->sfpu); /* the Vector Unit's constants and power-on state (coproc/sfpu_lanes.c) */
    dp->pack.needs_new_addr = true;
    dp->pack.exp_needs_new_addr = true;
    dp->sfp_epoch = 1; /* no plan yet (sfp_plan_t.epoch 0), whatever the first sfp_cfg_t read finds */
}

void dp_fail(dp_ctx_t *x, cp_err_cat_t cat, const char *fmt, ...) {
    if (x->failed) return;
    x->failed = true;
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    cp_fail(x->in, cat, "%s", what);
}

/* ---- address modifiers (RWCs.md) ----------------------------------------------------------- */

/* The ADDR_MOD_* fields' places are compile-time constants (coproc/state.h ST_T*_):
 * dp_apply_addr_mod runs for most datapath instructions and reads a dozen fields of three
 * ThreadConfig words; each section i is one 16-bit word further (stride 16). */
_Static_assert((int)ST_TT_ADDR_MOD_AB_SEC0_SrcAIncr == 16 && (int)ST_TT_ADDR_MOD_DST_SEC0_DestIncr == 16 &&
                   (int)ST_TT_ADDR_MOD_BIAS_SEC0_BiasIncr == 16,
               "one ThreadConfig word per address modifier section");

/* Blackhole: the 3-bit AddrMod indexes the eight sections directly; WH's ExtraAddrModBit /
 * ADDR_MOD_SET_Base reach of sections 4..7 is gone (ttsim math_update_counters, BH branch). */
bool dp_addr_mod_zero(const dp_ctx_t *x, unsigned addr_mod) {
    unsigned i = addr_mod & 7;
    const uint16_t *tc = x->thcfg;
    return !(tc[ST_TW_ADDR_MOD_AB_SEC0_SrcAIncr + i] | tc[ST_TW_ADDR_MOD_DST_SEC0_DestIncr + i] |
             tc[ST_TW_ADDR_MOD_BIAS_SEC0_BiasIncr + i]);
}

void dp_apply_addr_mod(dp_ctx_t *x, unsigned addr_mod, bool update_fidelity) {
    rwc_t *r = &x->dp->rwc[x->t];
    unsigned i = addr_mod & 7;
    const uint16_t *tc = x->thcfg;
    _Static_assert((int)ST_TW_ADDR_MOD_AB_SEC0_SrcAIncr == (int)ST_TW_ADDR_MOD_AB_SEC0_SrcBClear &&
                       (int)ST_TW_ADDR_MOD_DST_SEC0_DestIncr == (int)ST_TW_ADDR_MOD_DST_SEC0_FidelityClear &&
                       (int)ST_TW_ADDR_MOD_BIAS_SEC0_BiasIncr == (int)ST_TW_ADDR_MOD_BIAS_SEC0_BiasClear,
                   "each section's fields share one word");
    uint32_t ab = tc[ST_TW_ADDR_MOD_AB_SEC0_SrcAIncr + i], ds = tc[ST_TW_ADDR_MOD_DST_SEC0_DestIncr + i],
             bs = tc[ST_TW_ADDR_MOD_BIAS_SEC0_BiasIncr + i];
    /* A section of zeros (most of a kernel's SFPLOADs and SFPSTOREs) adds 0 to every counter:
     * what the general way below leaves is each counter masked to its width, and bias unchanged.
     * test_dp_fast.c's twin tests draw sections of zeros and not. */
    if (!(ab | ds | bs) && !x->dp->reference) return dp_apply_addr_mod_zero(r, update_fidelity);
    dp_addr_mod_words(r, ab, ds, bs, update_fidelity);
}

bool dp_addr_mod_plain(uint32_t ab, uint32_t ds, uint32_t bs) {
    return !(AMF(ab, ADDR_MOD_AB_SEC0_SrcAClear) | AMF(ab, ADDR_MOD_AB_SEC0_SrcACR) |
             AMF(ab, ADDR_MOD_AB_SEC0_SrcBClear) | AMF(ab, ADDR_MOD_AB_SEC0_SrcBCR) |
             AMF(ds, ADDR_MOD_DST_SEC0_DestClear) | AMF(ds, ADDR_MOD_DST_SEC0_DestCToCR) |
             AMF(ds, ADDR_MOD_DST_SEC0_DestCR) | AMF(ds, ADDR_MOD_DST_SEC0_FidelityClear) |
             AMF(bs, ADDR_MOD_BIAS_SEC0_BiasClear));
}

void dp_addr_mod_words(rwc_t *r, uint32_t ab, uint32_t ds, uint32_t bs, bool update_fidelity) {
    if (AMF(ab, ADDR_MOD_AB_SEC0_SrcAClear))
        r->srca = r->srca_cr = 0;
    else if (AMF(ab, ADDR_MOD_AB_SEC0_SrcACR))
        r->srca = r->srca_cr = (uint8_t)((r->srca_cr + AMF(ab, ADDR_MOD_AB_SEC0_SrcAIncr)) & 63);
    else
        r->srca = (uint8_t)((r->srca + AMF(ab, ADDR_MOD_AB_SEC0_SrcAIncr)) & 63);
    if (AMF(ab, ADDR_MOD_AB_SEC0_SrcBClear))
        r->srcb = r->srcb_cr = 0;
    else if (AMF(ab, ADDR_MOD_AB_SEC0_SrcBCR))
        r->srcb = r->srcb_cr = (uint8_t)((r->srcb_cr + AMF(ab, ADDR_MOD_AB_SEC0_SrcBIncr)) & 63);
    else
        r->srcb = (uint8_t)((r->srcb + AMF(ab, ADDR_MOD_AB_SEC0_SrcBIncr)) & 63);
    unsigned dincr = AMF(ds, ADDR_MOD_DST_SEC0_DestIncr);
    if (AMF(ds, ADDR_MOD_DST_SEC0_DestClear)) {
        r->dst = r->dst_cr = 0;
    } else if (AMF(ds, ADDR_MOD_DST_SEC0_DestCToCR)) {
        r->dst = (uint16_t)((r->dst + dincr) & 1023);
        r->dst_cr = r->dst;
    } else if (AMF(ds, ADDR_MOD_DST_SEC0_DestCR)) {
        r->dst = r->dst_cr = (uint16_t)((r->dst_cr + dincr) & 1023);
    } else {
        r->dst = (uint16_t)((r->dst + dincr) & 1023);
    }
    if (update_fidelity) {
        if (AMF(ds, ADDR_MOD_DST_SEC0_FidelityClear))
            r->fidelity = 0;
        else
            r->fidelity = (uint8_t)((r->fidelity + AMF(ds, ADDR_MOD_DST_SEC0_FidelityIncr)) & 3);
    }
    if (AMF(bs, ADDR_MOD_BIAS_SEC0_BiasClear))
        r->bias = 0;
    else if (AMF(bs, ADDR_MOD_BIAS_SEC0_BiasIncr) & 3)
        r->bias ^= 1;
}

/* ---- the context of one instruction ------------------------------------------------------- */

void dp_ctx_init(dp_ctx_t *x, dp_t *dp, const cp_insn_t *in, unsigned t, unsigned bank) {
    /* Every field set once (not a compound literal and then the thread's): dp_exec runs per instruction. */
    x->dp = dp, x->in = in, x->st = in->st, x->word = in->word, x->failed = false;
    dp_ctx_thread(x, t, bank);
}

/* ---- dispatch ------------------------------------------------------------------------------- */

typedef void (*dp_unit_fn)(dp_ctx_t *x);

/* The file that computes an opcode: the ADC and RWC families, then by unit. Opcodes of a datapath
 * unit that the unit's file does not model are refused there (CP_ERR_UNIMPLEMENTED), never a
 * silent no-op. A kind (a byte) by opcode, built by the compiler from the opcode table
 * (coproc/tt_ops.def), and a function by kind: dp_exec looks every instruction up by its word's
 * opcode byte (the same entry as in->op's: an opcode tt_ops.def has not is DP_K_NONE) and takes
 * its light ways on the kind (byte compares, no chain of loads from in->op). */
typedef enum { DP_K_NONE, DP_K_ADC, DP_K_RWC, DP_K_UNPACK, DP_K_FPU, DP_K_SFPU, DP_K_PACK, DP_KINDS } dp_kind_t;
#define DP_ADC_OPC(o)                                                                                                  \
    ((o) == TT_OPC_SETADC || (o) == TT_OPC_SETADCXX || (o) == TT_OPC_SETADCXY || (o) == TT_OPC_SETADCZW ||             \
     (o) == TT_OPC_INCADCXY || (o) == TT_OPC_INCADCZW || (o) == TT_OPC_ADDRCRXY || (o) == TT_OPC_ADDRCRZW)
#define DP_KIND(o, unit)                                                                                               \
    (DP_ADC_OPC(o)                                  ? DP_K_ADC                                                         \
     : (o) == TT_OPC_SETRWC || (o) == TT_OPC_INCRWC ? DP_K_RWC                                                         \
     : TT_UNIT_##unit == TT_UNIT_UNPACK             ? DP_K_UNPACK                                                      \
     : TT_UNIT_##unit == TT_UNIT_MATH               ? DP_K_FPU                                                         \
     : TT_UNIT_##unit == TT_UNIT_SFPU               ? DP_K_SFPU                                                        \
     : TT_UNIT_##unit == TT_UNIT_PACK               ? DP_K_PACK                                                        \
                                                    : DP_K_NONE)
static const uint8_t dp_kind_of[256] = {
#define TT_VIEW(...)
#define TT_F(...)
#define TT_NOF
#define TT_OP(opc, mnem, unit, ...) [opc] = DP_KIND(opc, unit),
#include "coproc/tt_ops.def"
#undef TT_OP
#undef TT_NOF
#undef TT_F
#undef TT_VIEW
};
/* dp_exec_in's sfpu: the timing model passes its unit, so every Vector Unit opcode the datapath
 * takes must be of kind DP_K_SFPU (a compile error names one that is not). */
#define TT_VIEW(...)
#define TT_F(...)
#define TT_NOF
#define TT_OP(opc, mnem, unit, ...)                                                                                    \
    _Static_assert(TT_UNIT_##unit != TT_UNIT_SFPU || DP_KIND(opc, unit) == DP_K_SFPU,                                  \
                   "dp_exec_in: " #mnem " is the Vector Unit's but not of kind DP_K_SFPU");
#include "coproc/tt_ops.def"
#undef TT_OP
#undef TT_NOF
#undef TT_F
#undef TT_VIEW
#undef DP_KIND
#undef DP_ADC_OPC
static const dp_unit_fn dp_kind_fn[DP_KINDS] = {
    [DP_K_ADC] = dp_adc_exec, [DP_K_RWC] = dp_rwc_exec,   [DP_K_UNPACK] = dp_unpack_exec,
    [DP_K_FPU] = dp_fpu_exec, [DP_K_SFPU] = dp_sfpu_exec, [DP_K_PACK] = dp_pack_exec};

bool dp_handles(const tt_op_t *op) { return op && dp_kind_of[op->opcode] != DP_K_NONE; }

void dp_exec(dp_t *dp, const cp_insn_t *in) { dp_exec_in(dp, in, false); }

/* dp_exec_in's general way: the instruction's context made, what SFPLOADMACRO scheduled for the
 * cycles up to this one first (coproc/sfpu_macro.c), then its kind's function. Out of line, called
 * in tail position: dp_exec_in's frame holds no context. */
static __attribute__((noinline)) void dp_exec_ctx(dp_t *dp, const cp_insn_t *in, unsigned k) {
    dp_ctx_t x;
    dp_ctx_init(&x, dp, in, in->thread, st_state_id(in->st, in->thread));
    if (dp->sched.n && k != DP_K_SFPU) dp_sfpu_catch_up(&x);
    dp_kind_fn[k](&x);
    sfp_gate_renew(dp);
}

void dp_exec_in(dp_t *dp, const cp_insn_t *in, bool sfpu) {
    dp->executed++;
    unsigned k = sfpu ? DP_K_SFPU : dp_kind_of[TT_OPCODE(in->word)];
    if (!sfpu && (k == DP_K_NONE || in->thread >= DP_THREADS)) return;
    /* SETRWC and INCRWC read their word and their thread's RWCs, nothing else: no context made
     * for them, where nothing SFPLOADMACRO scheduled is due first (not under dp_set_reference). */
    if (k == DP_K_RWC && !dp->sched.n && !dp->reference) return dp_rwc_apply(dp, in->thread, in->word);
    if (k == DP_K_SFPU && dp_sfpu_light(dp, in)) return;
    /* An eight-row MOVA2D whose setup is kept (coproc/fpu.c): no context made for it here either
     * (the light way makes one only to make a plan again; the word tested here first, so that the
     * Matrix Unit's other instructions make no call). */
    if (k == DP_K_FPU && in->word == dp->mova2d.word && dp_mova2d_light(dp, in)) return;
    /* A PACR whose setup is kept and whose four rows go out as one block (coproc/pack.c): none here
     * either, and none made for it. */
    if (k == DP_K_PACK && dp_pack_light(dp, in)) return;
    /* An UNPACR whose setup is kept and whose rows go to Src at once, an UNPACR_NOP
     * (coproc/unpack.c): likewise. */
    if (k == DP_K_UNPACK && dp_unpack_light(dp, in)) return;
    dp_exec_ctx(dp, in, k);
}

void dp_set_reference(dp_t *dp, bool on) {
    dp->reference = on;
    memset(dp->keys, 0, sizeof dp->keys); /* every kept setup dropped (dp_key_t) */
    /* and every decoded Vector Unit word (none is 0; under the reference path sfpu.c decodes each
     * anew and keeps none): dp_sfpu_light finds none kept, with no test of its own. */
    memset(&dp->sfp_decoded, 0, sizeof dp->sfp_decoded);
}

unsigned dp_executed(const dp_t *dp) { return dp->executed; }
unsigned dp_unpacks_retired(const dp_t *dp) { return dp->retired; }

const src_regs_t *dp_srca(const dp_t *dp) { return &dp->srca; }
const src_regs_t *dp_srcb(const dp_t *dp) { return &dp->srcb; }
const dst_regs_t *dp_dst(const dp_t *dp) { return &dp->dst; }
const lregs_t *dp_lregs(const dp_t *dp) { return &dp->sfpu; }
const rwc_t *dp_rwc(const dp_t *dp, unsigned t) { return &dp->rwc[t % DP_THREADS]; }
const adc_t *dp_adc(const dp_t *dp, unsigned t, unsigned unit) { return &dp->adc[t % DP_THREADS][unit % ADC_UNITS]; }
src_regs_t *dp_srca_mut(dp_t *dp) { return &dp->srca; }
src_regs_t *dp_srcb_mut(dp_t *dp) { return &dp->srcb; }
dst_regs_t *dp_dst_mut(dp_t *dp) { return &dp->dst; }
lregs_t *dp_lregs_mut(dp_t *dp) {
    dp->sfp_gate = SFP_GATE_SHUT;
    return &dp->sfpu;
}
