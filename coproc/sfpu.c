/* coproc/sfpu.c — the Vector Unit (SFPU) as the datapath sees it: each SFP* word decoded
 * (coproc/sfpu_decode.c), the PRNG's seed and the "backdoor" template writes, then the instruction
 * issued to the SFPLOADMACRO scheduler (coproc/sfpu_macro.c), which runs it here. This file owns the
 * instructions that touch Dst — SFPLOAD, SFPSTORE and SFPLOADMACRO's load — with their addressing
 * and format conversions (coproc/formats.c); every other instruction is a pure function over the
 * registers (coproc/sfpu_ops.h and the files named there).
 *
 * Lanes (LReg.md): lane L of a 32-lane register; the 32 lanes are a 4 x 8 grid (row L / 8). */
#include <string.h>

#include "coproc/dp_internal.h"
#include "coproc/fma.h"
#include "coproc/tt_fields.h"
#include "coproc/tt_ops.h"

/* What SFPLOAD and SFPSTORE read of Config and ThreadConfig (dp_internal.h sfp_cfg_t), read anew. */
static __attribute__((noinline)) void sfp_cfg_read(const dp_ctx_t *x, sfp_cfg_t *c) {
    /* MOD0_FMT_SRCB resolution (SFPLOAD.md, SFPSTORE.md): Blackhole's ThreadConfig SFPU_DEST_FMT
     * replaces the SrcB format when enabled. */
    unsigned f = CFG(x, ALU_FORMAT_SPEC_REG_SrcB_override) ? CFG(x, ALU_FORMAT_SPEC_REG_SrcB_val)
                                                           : CFG(x, ALU_FORMAT_SPEC_REG1_SrcB);
    if (THCFG(x, SFPU_DEST_FMT_Enable)) f = THCFG(x, SFPU_DEST_FMT_Base);
    c->srcb_mod0 = (uint8_t)fmt_mod0_resolve(FMT_MOD0_SRCB, CFG(x, ALU_ACC_CTRL_SFPU_Fp32_enabled), f);
    c->math_off = THCFG(x, DEST_TARGET_REG_CFG_MATH_Offset);
    c->regw_base = CFG(x, DEST_REGW_BASE_Base);
    c->sp_base = CFG(x, DEST_SP_BASE_Base);
    c->stack_incr = THCFG(x, SFPU_STACK_Incr);
    c->remap = x->remap, c->swizzle = x->swizzle;
    c->amod_zero = 0;
    for (unsigned i = 0; i < 8; i++)
        c->amod_zero |= (uint8_t)(dp_addr_mod_zero(x, i) << i);
    dp_key_set(x, DP_KEY_SFP, 0);
    x->dp->sfp_cfg_reads++;
}
/* Whether a and b give every plan the same (sfp_plan_make: all but MATH_Offset, which the light
 * way adds at each issue, sfp_light_mem). */
static bool sfp_cfg_same(const sfp_cfg_t *a, const sfp_cfg_t *b) {
    /* (Not SFPU_STACK_Incr: only INT32_ALL reads it, and INT32_ALL is never planned.) */
    return a->srcb_mod0 == b->srcb_mod0 && a->regw_base == b->regw_base && a->sp_base == b->sp_base &&
           a->remap == b->remap && a->swizzle == b->swizzle && a->amod_zero == b->amod_zero;
}
/* sfp_cfg_t read anew into the datapath's c: the plans made for what c held (sfp_plan_t) are
 * dropped (the epoch bumped) unless they still hold, which is where what was read gives every plan
 * what c gave it (sfp_cfg_same): everything a plan took from Config, ThreadConfig and the word is
 * then as it was, for whichever thread issues it (its RWCs and MATH_Offset are taken at each
 * issue). Kernels write Config between tiles (the unpacker's and the packer's threads), and the
 * math thread MATH_Offset (its half of Dst), far more often than anything else a plan reads. */
static __attribute__((noinline)) void sfp_cfg_renew(dp_ctx_t *x, sfp_cfg_t *c) {
    sfp_cfg_t n;
    sfp_cfg_read(x, &n);
    bool same = sfp_cfg_same(&n, c);
    *c = n;
    if (same) return;
    if (++x->dp->sfp_epoch == 0) { /* wrapped: no plan may be taken for a new one */
        for (unsigned i = 0; i < SFP_DECODED; i++)
            x->dp->sfp_decoded.plan[i].epoch = 0;
        x->dp->sfp_epoch = 1;
    }
}
/* Where the dp's copy's key is near thread t's (dp_key_near_at: only a tile's words written since,
 * which sfp_cfg_t reads none of but MATH_Offset), MATH_Offset read again and the key made
 * current: true. (Plans take nothing of MATH_Offset: their epoch stands.) */
static bool sfp_cfg_near(dp_t *dp, const cp_state_t *st, unsigned t) {
    if (!dp_key_near_at(dp, st, t, DP_KEY_SFP, 0)) return false;
    dp->sfp_cfg.math_off = dp_math_off(st, t);
    dp_key_renew(dp, st, t, DP_KEY_SFP);
    return true;
}
/* The dp's copy while its key is this instruction's (dp_key_hit) or near it (sfp_cfg_near), else
 * read anew (sfp_cfg_renew; into scratch under dp_set_reference). */
static inline const sfp_cfg_t *sfp_cfg_of(dp_ctx_t *x, sfp_cfg_t *scratch) {
    sfp_cfg_t *c = &x->dp->sfp_cfg;
    if (dp_key_hit(x, DP_KEY_SFP, 0) || sfp_cfg_near(x->dp, x->st, x->t)) return c;
    if (x->dp->reference) {
        sfp_cfg_read(x, scratch);
        return scratch;
    }
    sfp_cfg_renew(x, c);
    return c;
}

static inline unsigned resolve_mod0(const sfp_cfg_t *c, unsigned mod0) {
    return mod0 == FMT_MOD0_SRCB ? c->srcb_mod0 : mod0;
}

/* The Dst address of an SFPLOAD/SFPSTORE (the functional models' "Apply various Dst address
 * adjustments"). store: SFPSTORE's INT32_ALL post-increments Sp; SFPLOAD's pre-decrements it. */
static unsigned sfp_addr(dp_ctx_t *x, const sfp_cfg_t *c, unsigned imm, unsigned mod0, bool store) {
    rwc_t *r = &x->dp->rwc[x->t];
    unsigned addr = imm + c->math_off;
    unsigned dst_off = r->dst + c->regw_base;
    if (mod0 == FMT_MOD0_INT32_ALL) {
        if (!store && r->sp) r->sp = (uint16_t)((r->sp - c->stack_incr) & 1023);
        addr += r->sp + c->sp_base + (dst_off & 3);
        if (store) r->sp = (uint16_t)((r->sp + c->stack_incr) & 1023);
    } else {
        addr += dst_off + ((r->sp + c->sp_base) & 3);
    }
    return addr & 1023;
}

/* The plan of a kept SFPLOAD or SFPSTORE word (dp_internal.h sfp_plan_t), made where its general
 * way has just read or found sfp_cfg_t in the datapath (c) for it; none for the forms the light
 * way does not take (INT32_ALL's Sp steps, VD >= 8, an address modifier section that is not all
 * zeros: its counters' steps need the context). */
static void sfp_plan_make(const dp_ctx_t *x, sfp_plan_t *p, const sfp_cfg_t *c, const sfp_op_t *o, unsigned mod0,
                          bool dst32) {
    if (mod0 == FMT_MOD0_INT32_ALL || o->vd >= 8 || !dp_addr_mod_zero(x, o->addr_mod)) {
        p->epoch = 0;
        return;
    }
    *p = (sfp_plan_t){.epoch = x->dp->sfp_epoch,
                      .base = (uint16_t)((o->imm + c->regw_base) & 1023),
                      .mod0 = (uint8_t)mod0,
                      .sp_lo = (uint8_t)(c->sp_base & 3),
                      .dst32 = dst32,
                      .remap = x->remap,
                      .swizzle = x->swizzle,
                      .vd = (uint8_t)o->vd,
                      .flat16 = mod0 == FMT_MOD0_BF16 && !x->remap};
}
/* sfp_addr for a planned word (not INT32_ALL): the same sum, the word's and Config's constant part
 * added up once; math_off: MATH_Offset (sfp_cfg_t's, whose key holds). */
static inline unsigned sfp_plan_addr(const sfp_plan_t *p, const rwc_t *r, unsigned math_off) {
    return (p->base + math_off + r->dst + ((r->sp + p->sp_lo) & 3)) & 1023;
}

/* Whether SFPLOAD's and SFPSTORE's 32-lane forms apply as far as the lanes go: no lane has a
 * LaneConfig bit of `slow`, and every lane is enabled (VectorUnit.md IsLaneEnabled, what
 * sfpu_lanes_enabled computes) unless `all` (INT32_ALL ignores LaneEnabled). Both from the OR of
 * every lane's LaneConfig the Vector Unit keeps (lregs_t.lc_or): a ROW_MASK bit in any lane sends
 * the instruction the general way (only lanes 0..7's count there, which decides). */
static bool lanes_plain(const lregs_t *s, uint32_t slow, bool all) {
    uint32_t any = s->lc_or;
    if (all) return !(any & slow);
    return !(any & (slow | 0xFu << LC_ROW_MASK_SHIFT)) && !(s->use_flags & ~s->flags);
}

_Static_assert(LANES == FMT_LANES, "the Vector Unit's lanes are formats.h's");

/* The Dst cells of the 32 lanes of an SFPLOAD/SFPSTORE at addr (see sfp_load): lane L is row
 * (addr & ~3) + L / 8, column 2 (L % 8) + odd. */
static inline unsigned lane_row(unsigned addr, unsigned l) { return (addr & ~3u) + l / 8; }

/* The 32 lanes' cells at once: the four rows are consecutive physical rows (dp_dst_block4), 64
 * cells in a line, and lane L's is cell 2L + odd of them: the block is read and written as 32
 * pairs, pair L holding cell 2L in its low half and 2L + 1 in its high half (on a little-endian
 * host, the block's own bytes), so lane L's cell is pair L's half at bit 16 odd. The conversions
 * work on the pairs directly (fmt_sfpload_lanes, fmt_sfpstore_lanes), four at a time, where they
 * lie: on a little-endian host the block itself (fmt_pair_t may alias the cells), otherwise the
 * pairs assembled in buf and, once written, put back (block_pairs_put). */
#if FMT_HOST_LE
static inline fmt_pair_t *block_pairs(uint16_t *block, uint32_t buf[LANES]) {
    (void)buf;
    return (fmt_pair_t *)block;
}
static inline void block_pairs_put(uint16_t *block, const uint32_t buf[LANES]) { (void)block, (void)buf; }
#else
static inline fmt_pair_t *block_pairs(uint16_t *block, uint32_t buf[LANES]) {
    for (unsigned i = 0; i < LANES; i++)
        buf[i] = block[2 * i] | (uint32_t)block[2 * i + 1] << 16;
    return buf;
}
static inline void block_pairs_put(uint16_t *block, const uint32_t buf[LANES]) {
    for (unsigned i = 0; i < LANES; i++)
        block[2 * i] = (uint16_t)buf[i], block[2 * i + 1] = (uint16_t)(buf[i] >> 16);
}
#endif
_Static_assert(4 * DST_COLS == 2 * LANES, "four Dst rows are the 32 lanes' pairs of cells");
const char *dp_sfpu_byte_order_form(void) { return FMT_HOST_LE ? "le" : "portable"; }

/* The LaneConfig bits that send SFPLOAD's and SFPSTORE's lanes the general way (lanes_plain). */
#define SFP_LOAD_SLOW                                                                                                  \
    (LC_BLOCK_SFPU_RD_FROM_DEST | LC_DEST_RD_COL_EXCHANGE | LC_ENABLE_DEST_INDEX | LC_ENABLE_FP16A_INF)
#define SFP_STORE_SLOW (LC_BLOCK_DEST_WR_FROM_SFPU | LC_DEST_WR_COL_EXCHANGE)

/* SFPLOAD's 32 lanes where lanes_plain holds: one block of four Dst rows (dp_dst_block4), the
 * conversion over the 32 lanes at once (fmt_sfpload_lanes: the same rule as fmt_sfpload). */
static inline void sfp_load_block(dp_dst_row_t d, lregs_t *s, unsigned vd, unsigned mod0, unsigned addr) {
    uint32_t hb[LANES], lb[LANES], w[LANES];
    unsigned sh = 16 * ((addr >> 1) & 1);
    const fmt_pair_t *restrict pairs = block_pairs(d.hi, hb);
    if (d.lo) { /* Dst32b: lane L's datum is its hi cell << 16 | its lo cell */
        const fmt_pair_t *restrict lo = block_pairs(d.lo, lb);
        for (unsigned l = 0; l < LANES; l++)
            w[l] = (pairs[l] >> sh) << 16 | ((lo[l] >> sh) & 0xFFFF);
        pairs = w, sh = 0;
    }
    fmt_sfpload_lanes(mod0, pairs, sh, false, s->r[vd]);
}

/* SFPLOAD.md, and the load of SFPLOADMACRO.md (VD < 8 always). Lane L reads row (Addr & ~3) + L / 8,
 * column 2 (L % 8), + 1 for Addr bit 1 or DEST_RD_COL_EXCHANGE; INT32_ALL ignores LaneEnabled.
 * The common case, every lane enabled and no LaneConfig bit that changes a lane's read, is done
 * as one block (sfp_load_block); test_dp_fast.c compares it with the lane-by-lane loop. p: the
 * word's plan (dp_sfpu_exec's kept words, not under dp_set_reference), else NULL: (re)made here,
 * for the light way (dp_sfpu_light) to run the word's next issues. */
static unsigned sfp_load(dp_ctx_t *x, lregs_t *s, const sfp_op_t *o, sfp_plan_t *p) {
    sfp_cfg_t scratch;
    const sfp_cfg_t *c = sfp_cfg_of(x, &scratch);
    unsigned vd = o->vd, mod0 = resolve_mod0(c, o->mod);
    bool all = mod0 == FMT_MOD0_INT32_ALL, dst32 = fmt_sfpload_reads_dst32(mod0);
    if (p) sfp_plan_make(x, p, c, o, mod0, dst32);
    unsigned addr = sfp_addr(x, c, o->imm, mod0, false);
    if (vd < 8) {
        if (!x->dp->reference && lanes_plain(s, SFP_LOAD_SLOW, all)) {
            sfp_load_block(dp_dst_block4(x, addr, dst32), s, vd, mod0, addr);
        } else {
            uint32_t en = all ? 0xFFFFFFFFu : sfpu_lanes_enabled(s);
            for (unsigned l = 0; l < LANES; l++) {
                uint32_t lc = s->lane_config[l];
                if ((lc & LC_BLOCK_SFPU_RD_FROM_DEST) || !((en >> l) & 1)) continue;
                unsigned row = lane_row(addr, l), col = (l & 7) * 2;
                if ((addr & 2) || (s->lane_config[l & 7] & LC_DEST_RD_COL_EXCHANGE)) col++;
                uint32_t cell = dst32 ? dp_dst32_read(x, row, col) : dp_dst16_read(x, row, col);
                s->r[vd][l] = fmt_sfpload(mod0, cell, s->r[vd][l], lc & LC_ENABLE_FP16A_INF);
                if (vd < 4 && (lc & LC_ENABLE_DEST_INDEX) && (lc & LC_CAPTURE_DEFAULT_DEST_INDEX))
                    s->r[vd + 4][l] = row << 4 | col;
            }
        }
    }
    dp_apply_addr_mod(x, o->addr_mod, false);
    return addr;
}

/* SFPSTORE's 32 lanes where lanes_plain holds and no lane is kept from it (sfpu_backdoor_ok): the
 * block of SFPLOAD's, written (fmt_sfpstore_lanes), its rows made valid. */
static inline void sfp_store_block(dp_dst_row_t d, const lregs_t *s, unsigned vd, unsigned mod0, unsigned addr) {
    uint32_t hb[LANES], lb[LANES];
    unsigned sh = 16 * ((addr >> 1) & 1);
    uint32_t keep = 0xFFFF0000u >> sh;
    fmt_pair_t *restrict pairs = block_pairs(d.hi, hb);
    if (d.lo) { /* Dst32b: lane L's datum split into its hi and lo cells */
        uint32_t out[LANES];
        fmt_sfpstore_lanes(mod0, s->r[vd], 0, 0, out);
        fmt_pair_t *restrict lo = block_pairs(d.lo, lb);
        for (unsigned l = 0; l < LANES; l++) {
            pairs[l] = (pairs[l] & keep) | (out[l] >> 16) << sh;
            lo[l] = (lo[l] & keep) | (out[l] & 0xFFFF) << sh;
        }
        block_pairs_put(d.lo, lb);
    } else {
        fmt_sfpstore_lanes(mod0, s->r[vd], keep, sh, pairs);
    }
    block_pairs_put(d.hi, hb);
    for (unsigned r = 0; r < 4; r++)
        d.valid[r] = true;
}

/* SFPSTORE.md. addr >= 0: an SFPSTORE SFPLOADMACRO scheduled, whose address is the one SFPLOADMACRO
 * computed and which advances no counter (SFPLOADMACRO.md "extra considerations"). The common case
 * (every lane enabled, no LaneConfig bit that changes a lane's write) as SFPLOAD's, and its plan p
 * as SFPLOAD's (a planned word has VD < 8: no lane kept from it). */
static void sfp_store(dp_ctx_t *x, lregs_t *s, const sfp_op_t *o, int addr_in, sfp_plan_t *p) {
    sfp_cfg_t scratch;
    const sfp_cfg_t *c = sfp_cfg_of(x, &scratch);
    unsigned vd = o->vd, mod0 = resolve_mod0(c, o->mod);
    bool all = mod0 == FMT_MOD0_INT32_ALL, dst32 = fmt_sfpstore_writes_dst32(mod0);
    if (p) sfp_plan_make(x, p, c, o, mod0, dst32);
    unsigned addr = addr_in >= 0 ? (unsigned)addr_in : sfp_addr(x, c, o->imm, mod0, true);
    uint32_t ok = sfpu_backdoor_ok(s, o);
    if (!x->dp->reference && ok == 0xFFFFFFFFu && lanes_plain(s, SFP_STORE_SLOW, all)) {
        sfp_store_block(dp_dst_block4(x, addr, dst32), s, vd, mod0, addr);
    } else {
        uint32_t en = (all ? 0xFFFFFFFFu : sfpu_lanes_enabled(s)) & ok;
        for (unsigned l = 0; l < LANES; l++) {
            uint32_t lc = s->lane_config[l];
            if ((lc & LC_BLOCK_DEST_WR_FROM_SFPU) || !((en >> l) & 1)) continue;
            unsigned row = lane_row(addr, l), col = (l & 7) * 2;
            if ((addr & 2) || (s->lane_config[l & 7] & LC_DEST_WR_COL_EXCHANGE)) col++;
            uint32_t v = fmt_sfpstore(mod0, s->r[vd][l]);
            if (dst32)
                dp_dst32_write(x, row, col, v);
            else
                dp_dst16_write(x, row, col, (uint16_t)v);
        }
    }
    if (addr_in < 0) dp_apply_addr_mod(x, o->addr_mod, false);
}

/* Under dp_set_reference: the instruction lane by lane, none of its 32-lane shortcuts. Apart, so
 * that the copy of the decoded form is not in every instruction's frame. */
static __attribute__((noinline)) sfp_res_t sfpu_exec_general(lregs_t *s, const sfp_op_t *o) {
    sfp_op_t g = *o;
    g.general = true;
    return sfpu_exec(s, &g);
}

static __attribute__((noinline, cold)) void sfpu_failed(dp_ctx_t *x, const sfp_op_t *o, sfp_res_t r) {
    dp_fail(x, r.cat, "%s%s: %s", o->macro ? "SFPLOADMACRO-scheduled " : "", tt_mnemonic(o->word), r.what);
}

/* dp_sfpu_run's body, inlined in it and in dp_sfpu_exec's common case (no call between them). */
static inline __attribute__((always_inline)) void sfpu_run(dp_ctx_t *x, lregs_t *s, const sfp_op_t *o, int addr,
                                                           unsigned *load_addr, sfp_plan_t *p) {
    switch (o->opc) {
    case TT_OPC_SFPLOAD:
    case TT_OPC_SFPLOADMACRO: {
        unsigned a = sfp_load(x, s, o, p);
        if (load_addr) *load_addr = a;
        return;
    }
    case TT_OPC_SFPSTORE: sfp_store(x, s, o, addr, p); return;
    case TT_OPC_SFPADDI: /* sfpu_exec's SFPADDI, without its dispatch (add1 runs one for each SFPLOAD) */
        if (!x->dp->reference) {
            sfp_res_t r = sfpu_addi(s, o);
            if (r.cat != CP_ERR_NONE) sfpu_failed(x, o, r);
            return;
        }
        /* fall through */
    default: {
        sfp_res_t r = x->dp->reference ? sfpu_exec_general(s, o) : sfpu_exec(s, o);
        if (r.cat != CP_ERR_NONE) sfpu_failed(x, o, r);
        return;
    }
    }
}

void dp_sfpu_run(dp_ctx_t *x, lregs_t *s, const sfp_op_t *o, int addr, unsigned *load_addr) {
    sfpu_run(x, s, o, addr, load_addr, NULL);
}

/* The PRNG follows the seed register: reseeded once per Config write of PRNG_SEED_Seed_Val
 * (coproc/state.h counts them; the seeding is ttsim's, sfpu_prng_seed), before any instruction that
 * could use it. The hardware needs time after a seed write (tt-llk's init_prng_seed waits 600
 * SFPNOPs); ttemu's seeding is immediate. */
void dp_sfpu_prng_follow(dp_ctx_t *x) {
    lregs_t *s = &x->dp->sfpu;
    if (s->prng_seeds == x->st->prng_seed_writes) return;
    sfpu_prng_seed(s, CFG(x, PRNG_SEED_Seed_Val));
    s->prng_seeds = x->st->prng_seed_writes;
}

/* The slot of word w among dp's decoded words: a hash's top bits. */
static inline unsigned sfp_slot(uint32_t w) {
    _Static_assert(SFP_DECODED == 64, "the hash's top 6 bits index the decoded words");
    return (w * 0x9E3779B1u) >> 26;
}

/* The light way's form of decoded word o (dp_internal.h sfp_light_t). */
static sfp_light_t sfp_light_of(const sfp_op_t *o) {
    switch (o->opc) {
    case TT_OPC_SFPADDI: return sfpu_addi_word_in_place(o) ? SFP_LIGHT_ADDI : SFP_LIGHT_REGS;
    case TT_OPC_SFPLOAD: return SFP_LIGHT_LOAD;
    case TT_OPC_SFPSTORE: return SFP_LIGHT_STORE;
    case TT_OPC_SFPLOADMACRO: return SFP_LIGHT_NONE;
    default: return SFP_LIGHT_REGS;
    }
}

/* A word not among dp's decoded words (dp_internal.h sfp_decoded_t): decoded into its entry i. */
static __attribute__((noinline)) const sfp_op_t *decode_new(sfp_decoded_t *d, unsigned i, uint32_t w) {
    sfp_op_t o;
    if (!sfpu_decode(w, &o)) return NULL;
    d->op[i] = o;
    d->plan[i].epoch = 0; /* the word's plan is made on its first run */
    d->light[i] = (uint8_t)sfp_light_of(&o);
    if (d->light[i] == SFP_LIGHT_ADDI && !fma_add_k_of((uint32_t)o.imm << 16, &d->addi_fa[i]))
        d->light[i] = SFP_LIGHT_REGS; /* an Inf or NaN Imm16: sfpu_exec's way to the model */
    return &d->op[i];
}

/* The decoded form of Vector Unit word w (sfpu_decode), from dp's decoded words unless under
 * dp_set_reference (then into scratch, and *plan NULL); NULL if w is not a Vector Unit
 * instruction. *plan: the entry's plan (sfp_plan_t). */
static inline const sfp_op_t *sfpu_decoded(dp_t *dp, uint32_t w, sfp_op_t *scratch, sfp_plan_t **plan) {
    *plan = NULL;
    if (dp->reference) return sfpu_decode(w, scratch) ? scratch : NULL;
    unsigned i = sfp_slot(w);
    sfp_op_t *e = &dp->sfp_decoded.op[i];
    *plan = &dp->sfp_decoded.plan[i];
    return e->word == w ? e : decode_new(&dp->sfp_decoded, i, w);
}

void dp_sfpu_exec(dp_ctx_t *x) {
    lregs_t *s = &x->dp->sfpu;
    sfp_op_t scratch;
    sfp_plan_t *p;
    const sfp_op_t *o = sfpu_decoded(x->dp, x->word, &scratch, &p);
    if (!o) return dp_fail(x, CP_ERR_UNDEFINED, "%s is not a Vector Unit instruction", tt_mnemonic(x->word));
    dp_sfpu_prng_follow(x);
    sfpu_backdoor(s, o);
    /* Issued now (dp_sfpu_issue_scheduled otherwise): where nothing is scheduled and the instruction
     * schedules nothing (every SFPU instruction of a kernel without SFPLOADMACRO), it just runs and
     * takes its cycle. */
    sfpu_sched_t *q = &x->dp->sched;
    if (q->n || o->opc == TT_OPC_SFPLOADMACRO) return dp_sfpu_issue_scheduled(x, o);
    sfpu_run(x, s, o, -1, NULL, p);
    sfpu_take_cycle(q, x->in->cycle);
}

/* A planned SFPLOAD's (load) or SFPSTORE's block at addr in Mod0 mod0, Dst seen as its plan says
 * (remap, swizzle; dst32: the Dst32b view). Inlined with constants for the light way's form of
 * BF16 without remap (sfp_plan_t.flat16), and out of line for the others (sfp_light_block), so
 * that sfp_light_mem's frame stays small. */
static inline __attribute__((always_inline)) void sfp_plan_block(dp_t *dp, bool remap, bool swizzle, unsigned mod0,
                                                                 bool dst32, unsigned vd, unsigned addr, bool load) {
    dp_dst_row_t d = dp_dst_row_of(&dp->dst, remap, swizzle, addr & ~3u, dst32);
    if (load)
        sfp_load_block(d, &dp->sfpu, vd, mod0, addr);
    else
        sfp_store_block(d, &dp->sfpu, vd, mod0, addr);
}
/* The out of line form also takes the Vector Unit's cycle (at cycle) and answers sfp_light_mem's
 * true, so that sfp_light_mem calls it in tail position and its common way keeps nothing across a
 * call (no frame). */
static __attribute__((noinline)) bool sfp_light_block(dp_t *dp, const sfp_plan_t *p, unsigned addr, bool load,
                                                      uint64_t cycle) {
    sfp_plan_block(dp, p->remap, p->swizzle, p->mod0, p->dst32, p->vd, addr, load);
    sfpu_take_cycle(&dp->sched, cycle);
    return true;
}

static bool sfp_light_load(dp_t *dp, const cp_insn_t *in, unsigned i);
static bool sfp_light_store(dp_t *dp, const cp_insn_t *in, unsigned i);
/* The light way's key missed for the planned word at entry i: sfp_cfg_t brought up to date as the
 * general way would (sfp_cfg_of: its MATH_Offset alone where the key is near, else read anew in a
 * context made for it), and where the plan still holds (sfp_cfg_renew kept the epoch), the word
 * again, its key now this instruction's. A call in tail position of sfp_light_load /
 * sfp_light_store, so that their common path keeps nothing across a call. */
static __attribute__((noinline)) bool sfp_light_renew(dp_t *dp, const cp_insn_t *in, unsigned i, bool load) {
    if (!sfp_cfg_near(dp, in->st, in->thread)) {
        dp_ctx_t x;
        dp_ctx_init(&x, dp, in, in->thread, st_state_id(in->st, in->thread));
        sfp_cfg_renew(&x, &dp->sfp_cfg);
    }
    if (dp->sfp_decoded.plan[i].epoch != dp->sfp_epoch) return false;
    return load ? sfp_light_load(dp, in, i) : sfp_light_store(dp, in, i);
}

/* A kept SFPLOAD (load) or SFPSTORE at entry i of dp's decoded words on the light way
 * (dp_sfpu_light): false if its plan does not hold (made for what sfp_cfg_t holds: its epoch; with
 * sfp_cfg_t's key missing on thread t, sfp_light_renew reads it anew first) or a lane is not plain
 * (lanes_plain); else its block at its address (BF16 without remap, the kernels' form, here: its
 * Dst view is 16-bit, its rows as they are; the others in sfp_light_block), its section of zeros
 * and its cycle. One for each, apart from dp_sfpu_light's tests (as sfp_light_regs), given
 * only the entry's index: the plan is read here. */
static inline __attribute__((always_inline)) bool sfp_light_mem(dp_t *dp, const cp_insn_t *in, unsigned i, bool load) {
    const sfp_plan_t *p = &dp->sfp_decoded.plan[i];
    lregs_t *s = &dp->sfpu;
    unsigned t = in->thread;
    if (p->epoch != dp->sfp_epoch || !lanes_plain(s, load ? SFP_LOAD_SLOW : SFP_STORE_SLOW, false)) return false;
    if (!dp_key_hit_at(dp, in->st, t, DP_KEY_SFP, 0)) return sfp_light_renew(dp, in, i, load);
    rwc_t *r = &dp->rwc[t];
    unsigned addr = sfp_plan_addr(p, r, dp->sfp_cfg.math_off);
    if (!p->flat16) return sfp_light_block(dp, p, addr, load, in->cycle);
    /* Not the Dst32b view (fmt_sfpload_reads_dst32, fmt_sfpstore_writes_dst32): */
    sfp_plan_block(dp, false, false, FMT_MOD0_BF16, false, p->vd, addr, load);
    /* The plan's section of zeros (dp_apply_addr_mod_zero) would only mask the counters to their
     * widths, which every writer of them keeps (test_dp_fast's twins check it after every word):
     * nothing to do. */
    sfpu_take_cycle(&dp->sched, in->cycle);
    return true;
}
static __attribute__((noinline)) bool sfp_light_load(dp_t *dp, const cp_insn_t *in, unsigned i) {
    return sfp_light_mem(dp, in, i, true);
}
static __attribute__((noinline)) bool sfp_light_store(dp_t *dp, const cp_insn_t *in, unsigned i) {
    return sfp_light_mem(dp, in, i, false);
}

/* A kept word whose semantics read and write the Vector Unit's registers alone (sfpu_exec: every
 * opcode but SFPLOAD, SFPSTORE and SFPLOADMACRO, which reach Dst and Config or the schedule), run
 * as dp_sfpu_exec's common case runs it, with no context: its template write (sfpu_backdoor), then
 * sfpu_exec. The context is made only for a refusal, to report it as dp_sfpu_exec does (it reads
 * nothing sfpu_exec writes). Apart from dp_sfpu_light's tests, as sfp_light_block. */
static __attribute__((noinline)) void sfp_light_regs(dp_t *dp, const cp_insn_t *in, const sfp_op_t *o) {
    lregs_t *s = &dp->sfpu;
    sfpu_backdoor(s, o);
    sfp_res_t r = sfpu_exec(s, o);
    if (r.cat != CP_ERR_NONE) {
        dp_ctx_t x;
        dp_ctx_init(&x, dp, in, in->thread, st_state_id(in->st, in->thread));
        sfpu_failed(&x, o, r);
    }
}

/* The light way (dp_internal.h dp_sfpu_light): nothing scheduled, the PRNG following its seed
 * (dp_sfpu_exec's first steps then do nothing), an SFPNOP or the word among the kept ones, and for SFPLOAD and
 * SFPSTORE a plan that holds (made for what sfp_cfg_t holds, read anew where its key misses on
 * the instruction's thread: sfp_light_mem; a plan implies a section of zeros for its address modifier, whose
 * application changes nothing there); any kept word but SFPLOAD, SFPSTORE and SFPLOADMACRO taken
 * too (sfp_light_regs). What it runs is what dp_sfpu_exec would run for the word (sfpu_addi_in_place,
 * sfp_load_block, sfp_store_block at sfp_plan_addr, sfpu_exec), and it takes the Vector Unit's
 * cycle as dp_sfpu_exec does. */
bool dp_sfpu_light(dp_t *dp, const cp_insn_t *in) {
    if (dp->sfp_gate != in->st->prng_seed_writes) return false; /* (sched.n, prng_seeds: dp_t.sfp_gate) */
    uint32_t w = in->word;
    /* SFPNOP (SFPNOP.md: no effect): all dp_sfpu_exec would do is take the Vector Unit's cycle,
     * kept or not. (Among scheduled instructions it takes part in their cycle, it can count their
     * delays, and after a seed write it reseeds the PRNG: dp_sfpu_exec, as the test above says.) */
    if (TT_OPCODE(w) == TT_OPC_SFPNOP) {
        if (dp->reference) return false;
        sfpu_take_cycle(&dp->sched, in->cycle);
        return true;
    }
    unsigned i = sfp_slot(w);
    const sfp_op_t *o = &dp->sfp_decoded.op[i];
    if (o->word != w) return false; /* (always under dp_set_reference, which keeps none) */
    lregs_t *s = &dp->sfpu;
    unsigned light = dp->sfp_decoded.light[i];
    switch (light) {
    case SFP_LIGHT_ADDI: /* sfpu_addi_in_place, its word's part known at decoding; else sfpu_exec's (sfpu_addi) */
        if (sfpu_lanes_enabled(s) == 0xFFFFFFFFu) {
            sfpu_addi_in_place_k(s, o, dp->sfp_decoded.addi_fa[i]);
            break;
        }
        /* fall through */
    case SFP_LIGHT_REGS: sfp_light_regs(dp, in, o); break;
    case SFP_LIGHT_LOAD: return sfp_light_load(dp, in, i);
    case SFP_LIGHT_STORE: return sfp_light_store(dp, in, i);
    default: return false;
    }
    sfpu_take_cycle(&dp->sched, in->cycle);
    return true;
}
