/* coproc/dp_internal.h — what the datapath's unit files share (coproc/datapath.c, dp_addr.c,
 * unpack.c, fpu.c, sfpu.c, pack.c): the datapath's state, the context of one instruction, and the
 * configuration field accessors. Nothing outside those files includes it.
 *
 * Values only: no clock, no stalls. The timing model (coproc/timing.c) calls dp_exec at exactly
 * one event per datapath instruction and owns when; these files own what. */
#ifndef TTEMU_COPROC_DP_INTERNAL_H
#define TTEMU_COPROC_DP_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "coproc/datapath.h"
#include "coproc/dp_regs.h"
#include "coproc/formats.h"
#include "coproc/insn.h"
#include "coproc/sfpu_ops.h"
#include "coproc/state.h"
#include "coproc/tt_fields.h"

/* Unpacker 1's THCON_SEC1 block is unpacker 0's THCON_SEC0 block + 48 words (cfg_defines.h). */
#define UNP_SEC_WORDS 48

/* The key of a setup decoded from Config and ThreadConfig and kept (PACR's, UNPACR's, SFPLOAD's
 * and SFPSTORE's, MOVA2D's): every input such a decoding can read, the same for each, so that a kept setup
 * cannot miss one. The thread and its generation (thdcfg_gen[t]: bumped by every write of its
 * ThreadConfig, st_thdcfg_w, and of Config, st_cfg_w, so that it covers Config's cfg_gen too), and
 * what of the instruction word the setup depends on (`extra`, the caller's, below 256; 0 for none). The
 * Config bank read is the thread's StateID (dp_exec, sfpu_macro.c: st_state_id), a word of its
 * ThreadConfig, so the thread and thdcfg_gen cover it. dp_key_set keeps it, dp_key_hit compares
 * (dp_ctx_t's, below). The keys live together in dp_t.keys, one for each cache (dp_key_id_t), so
 * that dp_set_reference drops them all: the reference path neither keeps nor finds a setup. The
 * key also holds the two generations less the words kernels write once a tile (cfg_gen_m,
 * thdcfg_gen_m[t]), so that a setup missing its key can tell that it holds still but for those
 * words, and read again what it reads of them (dp_key_near_at). */
typedef struct {
    uint64_t tgen;          /* thdcfg_gen[t] (which moves with cfg_gen: coproc/state.h) */
    uint64_t gen_m, tgen_m; /* cfg_gen_m, thdcfg_gen_m[t] (dp_key_near_at) */
    uint32_t tag;           /* DP_KEY_KEPT | extra << 8 | thread; 0: nothing kept */
} dp_key_t;
#define DP_KEY_KEPT (1u << 16)
/* The unpackers' keys two each (unp_key: unpacker u's setups for even and odd contexts). */
typedef enum {
    DP_KEY_PACK,
    DP_KEY_UNP0,
    DP_KEY_UNP0_ODD,
    DP_KEY_UNP1,
    DP_KEY_UNP1_ODD,
    DP_KEY_SFP,
    DP_KEY_MOVA2D,
    DP_KEYS
} dp_key_id_t;
static inline dp_key_id_t unp_key(unsigned u, unsigned ctx) { return (dp_key_id_t)(DP_KEY_UNP0 + 2 * u + (ctx & 1)); }

/* UNP_JOB_LIGHT: dp_unpack_light's, whole rows at once (its datums the first L1 byte, count the
 * rows, out the first Src row, s.conv alone of the setup). */
typedef enum { UNP_JOB_UNPACR = 1, UNP_JOB_NOP, UNP_JOB_LIGHT } unp_job_kind_t;

/* What UNPACR reads of Config[bank] and ThreadConfig[t], for one unpacker, context mode and
 * context, decoded (coproc/unpack.c unp_setup): the tile descriptor, formats and conversion, the
 * input's addresses and FIFO, the output's base and strides, and the refusals that depend on
 * nothing else (checked where the instruction meets them). No counter (ADC, SrcRow,
 * ContextCounter) and no other field of the instruction word. */
typedef struct {
    uint32_t base;      /* the Base_address read (unpack.c unp_setup_near) */
    uint16_t base_word; /* and its word in Config */
    fmt_unpack_mode_t conv;
    bool conv_bad; /* fmt_unpack_check refused conv */
    bool uncompressed, bfp, bfp_a, force_exp, tileize, to_dst, transpose, interleave, ovrd, src_upd;
    bool dst_cntx, dst_add; /* Dest_cntx_address: used (multi on unpacker 0), added rather than set */
    uint8_t late_fail;      /* unp_late_fail_t: the refusal after the L1 alignment check, if any */
    /* What dp_unpack_light needs of the setup: a plain conversion of uncompressed, byte-sized
     * datums, rows as they lie in L1 (no tileize, no upsampling), into Src as they are (no Dst, no
     * column shift, no transpose), nothing refused. */
    bool light;
    uint8_t bits, size, osize_log2, up_zeros, col_shift, forced_exp,
        ctx_count; /* osize_log2: of the output's bytes a datum */
    uint32_t xdim, ydim, zdim, in_addr, rs_addr, exp_addr, row_stride;
    uint32_t out_base, ystride, zstride, wstride, dst_c, src_base;
    uint64_t limit, fifo;
} unp_setup_t;

/* An unpacker instruction between its two events (coproc/datapath.h): everything its address
 * side fixed at dispatch that the data side, at retire, needs. */
typedef struct {
    uint8_t kind; /* unp_job_kind_t */
    uint8_t thread, cfg_bank, src_row;
    bool all_zero, flip, ones; /* ZeroWrite2; the bank handed over at retire; UNPACR_NOP's clear to 1
                                * (not set for an UNPACR, whose retire does not read it) */
    uint64_t datums;           /* first L1 byte (block floats: bit) */
    uint32_t count, out;
    /* Block-float input: the exponent stream's position in 1/16 byte (16 datums share a byte). */
    uint64_t exps;
    /* Compressed input (UNPACR_Regular.md, Packers/Compression.md): the index of this row in the
     * row start index array, whether the whole row is read (else `drop` datums first, then count);
     * addresses from the row start index are worked out when the data moves (coproc/unpack_z.c). */
    bool whole_row;
    uint32_t rs_index, drop;
    /* The setup it was dispatched with, whole. An UNPACR_NOP's job sets kind, thread, cfg_bank, ones, flip
     * and s.conv.out_fmt alone (what its retire reads); its other fields keep an older job's. */
    unp_setup_t s;
} unp_job_t;

/* More than the timing model's queue depth (coproc/timing.c TM_UNPACK_QDEPTH). */
#define UNP_JOBS 8

/* Per-unpacker state the UNPACR functional model keeps (UNPACR_Regular.md `Unpackers[]`):
 * SrcRow and ContextCounter per thread. The bank pointer and AllowedClient belong to the
 * hand-over between units and live with the architectural state (coproc/state.h cp_src_t). */
typedef struct {
    uint8_t src_row[DP_THREADS];
    uint8_t ctx_counter[DP_THREADS];
    unp_job_t jobs[UNP_JOBS]; /* dispatched, not yet retired, oldest first */
    unsigned jobs_head, jobs_n;
    /* The last setups decoded for an even and an odd context (kernels alternate two; their keys:
     * dp_t.keys[unp_key(u, ctx)], extra the context, | 8 with OvrdThreadId). */
    unp_setup_t setup[2];
    unsigned light_runs, nop_light_runs; /* UNPACRs, UNPACR_NOPs dp_unpack_light ran (test_dp_fast's white box) */
} unpacker_t;

/* The packer's stages between its conversions (coproc/pack_stages.h: ReLU, exponent thresholding).
 * How an intermediate's datums are held: FP32 bits (FP32, TF32), a 16-bit pattern with an 8-bit
 * exponent (BF16, BFP8), a 16-bit pattern with a 5-bit exponent and no Inf or NaN (FP16, FP8,
 * BFP8a: FloatBitPatterns.md "FP16"), or an integer with its sign at bit 31 / 15. */
typedef enum { PST_F32, PST_B16, PST_H16, PST_I32, PST_I16 } pst_class_t;

/* The stages as one PACR's Config sets them (pack_stages_init). */
typedef struct {
    bool active;       /* anything to do */
    uint8_t cls;       /* pst_class_t of the intermediate */
    uint8_t relu;      /* STACC_RELU_ApplyRelu & 3 */
    bool exp_thr;      /* Exp_threshold_en */
    uint8_t exp_min;   /* Exp_threshold */
    uint32_t thr_bits; /* the ReLU threshold in the intermediate's bits */
    double thr;        /* and its value */
} pack_stages_t;

/* What PACR reads of Config, decoded (coproc/pack.c pack_setup): the two conversions, L1
 * accumulation, the stages between the conversions, the address generators' Config fields, the
 * downsampling mask, and each tile row position's edge mask. */
typedef struct {
    fmt_pack_mode_t c;
    pack_stages_t stages;
    bool acc, bfp, edge_mode;
    uint8_t out_bytes, bpd_log2, xmask, per_plane; /* bpd_log2: log2 of the input's bytes a datum */
    uint16_t ds;
    uint16_t edge[16]; /* PCK_EDGE_OFFSET_SEC0_mask of the row set mapping at tile_pos & 15 */
    bool edge_full;    /* every one of them 0xFFFF (nothing masked at any position) */
    uint32_t neg_inf;
    uint32_t base0, xstride0, ystride0, zstride0, wstride0, dest_offset;
    uint32_t dest, base1, ystride1, zstride1, wstride1, exp_section;
    bool dest_hdr;     /* !THCON_SEC0_REG1_Sub_l1_tile_header_size (dest: L1_Dest_addr + dest_hdr) */
    bool remap;        /* the Config bank's DEST_ACCESS_CFG remap_addrs (dp_ctx_t's) */
    bool light;        /* dp_pack_light may take a PACR of this setup (coproc/pack.c pack_setup) */
    uint8_t adc_plain; /* bit i: the thread's ADDR_MOD_PACK section i only increments (pack.c pack_adc_plain) */
} pack_setup_t;

/* The packer's output streams (Packers/OutputAddressGenerator.md): the L1 byte address the next
 * datum goes to, whether the next PACR takes a fresh address, and the partly filled 16-byte
 * output buffer (the packer writes L1 in aligned 16-byte units). */
typedef struct {
    bool needs_new_addr;
    uint32_t data_addr;
    uint8_t buf[16];
    unsigned buf_n;
    bool exp_needs_new_addr;
    uint32_t exp_addr;
    uint8_t ebuf[16]; /* the exponent stream's partly filled 16 bytes (block-float outputs) */
    unsigned ebuf_n;
    uint8_t tile_pos; /* edge masking's tile row position (BH PACR.md) */
    bool acc;         /* L1 accumulation of the buffered datums */
    uint8_t acc_fmt;  /* and their format */
    /* The L1 bytes this PACR wrote and has not reported yet (cp_env_t.l1_written): consecutive
     * 16-byte writes as one range, reported when the next write is elsewhere and at the end of the
     * instruction (nothing else runs in between). The reference path reports each write. */
    uint32_t wr_addr, wr_len;
    /* The last setup decoded without refusal (its key: dp_t.keys[DP_KEY_PACK], no extra). */
    pack_setup_t setup;
    unsigned light_runs; /* PACRs dp_pack_light ran since reset (the light way's test counts them) */
} packer_t;

/* An instruction SFPLOADMACRO scheduled on one of the Vector Unit's sub-units (SFPLOADMACRO.md):
 * the instruction with its operands rewritten, its sub-unit, its remaining delay (0: it executes on
 * the next cycle stepped), whether that delay counts Vector Unit instructions rather than cycles
 * (UnitDelayKind), the thread that issued the SFPLOADMACRO (an SFPSTORE's configuration) and, for
 * an SFPSTORE, the Dst address SFPLOADMACRO computed. */
typedef struct {
    sfp_op_t op;
    uint8_t unit, delay, thread;
    bool by_insn;
    uint16_t addr;
} sfp_pending_t;

/* Four sub-units, each with at most one instruction per remaining delay 0..7. */
#define SFP_PENDING_MAX 32

/* The Vector Unit's cycle-level state, kept only for SFPLOADMACRO (coproc/sfpu_macro.c): what is
 * scheduled, the first cycle not yet stepped, and the copies a cycle with several instructions
 * executes from (all read the registers as they were at the cycle's start). */
typedef struct {
    sfp_pending_t q[SFP_PENDING_MAX];
    unsigned n;
    uint64_t next;
    lregs_t pre, scratch;
} sfpu_sched_t;
/* An instruction issued at `cycle` with nothing scheduled takes the Vector Unit's next free cycle:
 * its own, or the one after the last taken (one Vector Unit instruction a cycle). */
static inline void sfpu_take_cycle(sfpu_sched_t *q, uint64_t cycle) {
    q->next = (cycle > q->next ? cycle : q->next) + 1;
}

/* Decoded Vector Unit words (dp_sfpu_exec): a kernel replays the same few SFPU words, and their
 * decoding reads nothing but the word (sfpu_decode), so a word once decoded is kept, direct-mapped
 * by a hash of the word. An entry whose op.word is not the word looked up is empty or another's
 * (no SFPU word is 0: its opcode is 0x70..0x99). Off under dp_set_reference. */
#define SFP_DECODED 64
/* An SFPLOAD's or SFPSTORE's plan (coproc/sfpu.c sfp_plan_make): what its Dst address, format and
 * address modifier take from the word and from what sfp_cfg_t keeps, worked out once, for the form
 * that needs no more (a Mod0 other than INT32_ALL, VD < 8, an address modifier section of zeros,
 * which the key's thread's ThreadConfig holds): made by the instruction's first run
 * after its decoding or a new sfp_cfg_t, valid while epoch is the datapath's sfp_epoch (bumped by
 * a read of sfp_cfg_t into the datapath that finds something a plan takes changed: sfp_cfg_renew;
 * 1 after a reset, 0 meaning none). */
typedef struct {
    uint32_t epoch;      /* dp_t.sfp_epoch when made; 0: none */
    uint16_t base;       /* (Imm10 + DEST_REGW_BASE) & 1023 (MATH_Offset added at each issue) */
    uint8_t mod0;        /* Mod0, MOD0_FMT_SRCB resolved */
    uint8_t sp_lo;       /* DEST_SP_BASE & 3 */
    bool dst32;          /* the Dst32b view */
    bool remap, swizzle; /* DEST_ACCESS_CFG of the key's thread's Config bank (dp_ctx_t's) */
    uint8_t vd;          /* the word's VD (its sfp_op_t's, beside the rest) */
    bool flat16;         /* Mod0 BF16 without remap: the 16-bit Dst rows as they are (the light way's inline form) */
} sfp_plan_t;
/* The light way's form of a kept word (coproc/sfpu.c dp_sfpu_light), from its decoding alone: an
 * SFPADDI whose operands allow the in-place form (sfpu_addi_word_in_place) and whose Imm16 is
 * finite (fma_add_k_of), an SFPLOAD, an
 * SFPSTORE, any other word that reads only the Vector Unit's registers, or none (SFPLOADMACRO). */
typedef enum { SFP_LIGHT_NONE, SFP_LIGHT_ADDI, SFP_LIGHT_LOAD, SFP_LIGHT_STORE, SFP_LIGHT_REGS } sfp_light_t;
typedef struct {
    sfp_op_t op[SFP_DECODED];
    sfp_plan_t plan[SFP_DECODED]; /* op[i]'s, when it is an SFPLOAD or SFPSTORE */
    uint8_t light[SFP_DECODED];   /* op[i]'s sfp_light_t */
    float addi_fa[SFP_DECODED];   /* op[i]'s Imm16 as SFP_LIGHT_ADDI adds it (fma_add_k_of) */
} sfp_decoded_t;

/* What SFPLOAD's and SFPSTORE's Dst addresses and MOD0_FMT_SRCB read of Config and of the thread's
 * ThreadConfig (coproc/sfpu.c sfp_cfg_of; its key: dp_t.keys[DP_KEY_SFP], no extra). Where only a
 * tile's words were written since (dp_key_near_at), MATH_Offset alone is read again (sfp_cfg_near). */
typedef struct {
    uint8_t srcb_mod0;                                 /* what MOD0_FMT_SRCB resolves to (fmt_mod0_resolve) */
    uint32_t math_off, regw_base, sp_base, stack_incr; /* MATH_Offset, DEST_REGW_BASE, DEST_SP_BASE, SFPU_STACK_Incr */
    bool remap, swizzle; /* the Config bank's DEST_ACCESS_CFG (dp_ctx_t's), which the plans take */
    uint8_t amod_zero;   /* bit i: the thread's address modifier section i is all zeros (dp_addr_mod_zero) */
} sfp_cfg_t;

/* An eight-row MOVA2D's setup (coproc/fpu.c mova2d_plan_make; its key: dp_t.keys[DP_KEY_MOVA2D], no
 * extra, and the word): what it reads of the word, Config and the thread's ThreadConfig, for the
 * form that needs no more (UseDst32bLo clear). Kept for the light way (dp_mova2d_light), which
 * still reads what changes without a Config or ThreadConfig write: the Matrix Unit's SrcA bank
 * and its implied format, LaneConfig's BLOCK_DEST_MOV, the RWCs. */
typedef struct {
    uint32_t word;
    uint32_t base0;      /* DstRow + DEST_REGW_BASE (fpu_dst_base) */
    uint32_t base;       /* base0 + MATH_Offset (the RWC added at each issue) */
    uint16_t ab, ds, bs; /* the address modifier section's three words */
    uint8_t src, fmt;    /* SrcRow; the configured SrcA format (fpu_srca_fmt's, not implied) */
    bool implied, force; /* !DISABLE_IMPLIED_SRCA_FMT_Base, FP16A_FORCE_Enable */
    bool flush, remap;   /* !ALU_ACC_CTRL_Zero_Flag_disabled_src; DEST_ACCESS_CFG remap_addrs */
    bool plain;          /* dp_addr_mod_plain(ab, ds, bs): the light way's counters by dp_addr_mod_incr */
} mova2d_plan_t;

struct dp {
    /* Every instruction through its general, datum-by-datum path: the fast paths (whole rows and
     * lanes at once, taken where their conditions hold) off. Kept across dp_reset. The unit tests
     * run both ways and compare (test/unit/test_dp_fast.c). */
    bool reference;
    unsigned executed; /* instructions dp_exec saw since reset */
    unsigned retired;  /* unpacker instructions dp_unpack_data saw since reset */
    src_regs_t srca, srcb;
    dst_regs_t dst;
    lregs_t sfpu;
    sfpu_sched_t sched;
    sfp_decoded_t sfp_decoded;
    sfp_cfg_t sfp_cfg;
    uint32_t sfp_epoch;     /* changes of what the plans take (sfp_plan_t.epoch; from 1) */
    unsigned sfp_cfg_reads; /* sfp_cfg_t read anew since reset (the near key's test counts them) */
    dp_key_t keys[DP_KEYS]; /* the kept setups' keys (dp_key_t) */
    mova2d_plan_t mova2d;   /* (dp_key_t: keys[DP_KEY_MOVA2D]) */
    unsigned mova2d_made;   /* plans made since reset (the light way's test counts them) */
    rwc_t rwc[DP_THREADS];
    adc_t adc[DP_THREADS][ADC_UNITS];
    unpacker_t unp[2];
    packer_t pack;
    uint8_t fpu_srca_row; /* the last SrcA row an FPU instruction started at (SHIFTXA.md) */
    /* dp_sfpu_light's first test (nothing scheduled, the PRNG following its seed) as one compare
     * with the state's count of seed writes: sfpu.prng_seeds where sched.n is 0, else SFP_GATE_SHUT,
     * which no 32-bit count equals. Renewed (sfp_gate_renew) where either may change: after
     * dp_exec's general way (dp_sfpu_exec, dp_sfpu_catch_up run there alone; at power-on its zero
     * is sfpu_reset's prng_seeds), and shut by dp_lregs_mut (a writer from outside: the next Vector
     * Unit word goes the general way). */
    uint64_t sfp_gate;
};

#define SFP_GATE_SHUT ((uint64_t)1 << 32)
static inline void sfp_gate_renew(dp_t *dp) { dp->sfp_gate = dp->sched.n ? SFP_GATE_SHUT : dp->sfpu.prng_seeds; }

/* One instruction's context: the datapath, the instruction as the timing model hands it over
 * (coproc/insn.h: the architectural state, the tile, the word, the thread, where errors go), and
 * the thread's config bank (ThreadConfig CFG_STATE_ID_StateID). */
typedef struct {
    dp_t *dp;
    const cp_insn_t *in;
    const cp_state_t *st;
    unsigned t;
    unsigned bank;
    uint32_t word;
    bool failed;
    bool remap, swizzle; /* DEST_ACCESS_CFG remap_addrs, swizzle_32b of the bank (dp_ctx_init) */
    /* st's Config[bank] and ThreadConfig[t], which the CFG and THCFG macros read (dozens of times an
     * instruction): found once, by dp_ctx_thread. */
    const uint32_t *cfg;
    const uint16_t *thcfg;
} dp_ctx_t;

/* The Config fields' places as compile-time constants, from the same table (cfg_fields.def; the
 * ThreadConfig fields' are coproc/state.h's ST_T*_): the CFG and THCFG macros below read a named
 * field in a few instructions, without looking it up in cfg_fields[] (the datapath reads dozens of
 * fields per instruction). */
#define CFG_FIELD(name, word, shift, width, stride)                                                                    \
    enum { DPC_W_##name = (word), DPC_S_##name = (shift), DPC_N_##name = (width), DPC_T_##name = (stride) };
#define THCFG_FIELD(name, word, shift, width, stride)
#include "coproc/cfg_fields.def"
#undef CFG_FIELD
#undef THCFG_FIELD

static inline __attribute__((always_inline)) uint32_t dp_cfg_at(const dp_ctx_t *x, unsigned word, unsigned shift,
                                                                unsigned width, unsigned stride, unsigned i,
                                                                unsigned word_off) {
    unsigned bit = shift + i * stride;
    return (x->cfg[word + word_off + bit / 32] >> (bit % 32)) & st_field_mask(width);
}

/* Element i of a Config field looked up by its cfg_fields[] entry (coproc/cfg_fields.def),
 * word_off words further (UNP_SEC_WORDS for unpacker 1's copy of an unpacker 0 field). */
static inline uint32_t dp_cfg_i(const dp_ctx_t *x, cfg_field_t f, unsigned i, unsigned word_off) {
    const cp_field_t *d = &cfg_fields[f];
    return dp_cfg_at(x, d->word, d->shift, d->width, d->stride, i, word_off);
}
#define DPC_AT(x, name, i, off)  dp_cfg_at((x), DPC_W_##name, DPC_S_##name, DPC_N_##name, DPC_T_##name, (i), (off))
#define CFG(x, name)             DPC_AT((x), name, 0, 0)
#define CFG_I(x, name, i)        DPC_AT((x), name, (i), 0)
#define CFG_UNP(x, name, u)      DPC_AT((x), name, 0, (u)*UNP_SEC_WORDS)
#define CFG_UNP_I(x, name, u, i) DPC_AT((x), name, (i), (u)*UNP_SEC_WORDS)

static inline __attribute__((always_inline)) uint32_t dp_thcfg_at(const dp_ctx_t *x, unsigned word, unsigned shift,
                                                                  unsigned width, unsigned stride, unsigned i) {
    unsigned bit = shift + i * stride;
    return ((uint32_t)x->thcfg[word + bit / 16] >> (bit % 16)) & st_field_mask(width);
}
#define THCFG(x, name)      dp_thcfg_at((x), ST_TW_##name, ST_TS_##name, ST_TN_##name, ST_TT_##name, 0)
#define THCFG_I(x, name, i) dp_thcfg_at((x), ST_TW_##name, ST_TS_##name, ST_TN_##name, ST_TT_##name, (i))

/* The context's thread t and Config bank: the Config it reads, and Dst.md's Adj16/Adj32 settings
 * (dp_internal.h dp_adj*), which every datum reads, once. dp_ctx_init sets them; an SFPLOADMACRO-
 * scheduled instruction switches to its SFPLOADMACRO's thread (coproc/sfpu_macro.c). */
static inline void dp_ctx_thread(dp_ctx_t *x, unsigned t, unsigned bank) {
    x->t = t;
    x->bank = bank;
    x->cfg = x->st->cfg[bank];
    x->thcfg = x->st->thdcfg[t];
    x->remap = CFG(x, DEST_ACCESS_CFG_remap_addrs);
    x->swizzle = CFG(x, DEST_ACCESS_CFG_swizzle_32b);
}

/* Cache id's setup kept with this instruction's inputs and extra as its key (nothing kept under
 * dp_set_reference: tag 0). */
static inline void dp_key_set(const dp_ctx_t *x, dp_key_id_t id, unsigned extra) {
    x->dp->keys[id] = (dp_key_t){.tgen = x->st->thdcfg_gen[x->t],
                                 .gen_m = x->st->cfg_gen_m,
                                 .tgen_m = x->st->thdcfg_gen_m[x->t],
                                 .tag = x->dp->reference ? 0 : DP_KEY_KEPT | extra << 8 | x->t};
}
/* Thread t's MATH_Offset (ThreadConfig DEST_TARGET_REG_CFG_MATH_Offset), read again where a kept
 * setup's key is near (dp_key_near_at). */
static inline unsigned dp_math_off(const cp_state_t *st, unsigned t) {
    return ((unsigned)st->thdcfg[t][ST_TW_DEST_TARGET_REG_CFG_MATH_Offset] >> ST_TS_DEST_TARGET_REG_CFG_MATH_Offset) &
           st_field_mask(ST_TN_DEST_TARGET_REG_CFG_MATH_Offset);
}
_Static_assert(ST_TW_DEST_TARGET_REG_CFG_MATH_Offset == ST_THDCFG_MATH_OFF_WORD, "MATH_Offset's word");
_Static_assert(DPC_W_THCON_SEC0_REG1_L1_Dest_addr == ST_CFG_PACK_L1_WORD, "the packer's L1 address's word");
_Static_assert(DPC_W_THCON_SEC0_REG3_Base_address == ST_CFG_UNP_BASE_WORD, "unpacker 0's Base_address's word");
_Static_assert(DPC_W_DEST_TARGET_REG_CFG_PACK_SEC0_Offset == ST_CFG_PACK_OFF_WORD, "the packers' Dst offsets' word");
/* Cache id's setup dropped (after a refusal). */
static inline void dp_key_drop(const dp_ctx_t *x, dp_key_id_t id) { x->dp->keys[id].tag = 0; }
/* Whether cache id's kept setup is this instruction's: every input of its key the same. */
static inline bool dp_key_hit_at(const dp_t *dp, const cp_state_t *st, unsigned t, dp_key_id_t id, unsigned extra) {
    const dp_key_t *k = &dp->keys[id];
    return k->tag == (DP_KEY_KEPT | extra << 8 | t) && k->tgen == st->thdcfg_gen[t];
}
/* Whether cache id's kept setup is this instruction's but for the words kernels write once a tile
 * (coproc/state.h st_cfg_tile_word, st_thdcfg_tile_word: no Config or ThreadConfig word else was
 * written since it was kept, the _m generations the same). Its owner reads again what its setup
 * reads of those words (MOVA2D's and SFPLOAD/SFPSTORE's MATH_Offset; PACR's the L1 address and the
 * Dst offset, pack_setup_tile) and takes the key as this instruction's (dp_key_renew). */
static inline bool dp_key_near_at(const dp_t *dp, const cp_state_t *st, unsigned t, dp_key_id_t id, unsigned extra) {
    const dp_key_t *k = &dp->keys[id];
    return k->tag == (DP_KEY_KEPT | extra << 8 | t) && k->gen_m == st->cfg_gen_m && k->tgen_m == st->thdcfg_gen_m[t];
}
/* Cache id's key, near (dp_key_near_at), made this instruction's: its setup brought up to date. */
static inline void dp_key_renew(dp_t *dp, const cp_state_t *st, unsigned t, dp_key_id_t id) {
    dp->keys[id].tgen = st->thdcfg_gen[t];
}
static inline bool dp_key_hit(const dp_ctx_t *x, dp_key_id_t id, unsigned extra) {
    return dp_key_hit_at(x->dp, x->st, x->t, id, extra);
}

/* The Src banks the instruction uses (SrcASrcB.md): unpacker u's, the Matrix Unit's SrcA (0) and
 * SrcB (1). Read only: the hand-overs are the timing model's. */
static inline unsigned dp_unp_bank(const dp_ctx_t *x, unsigned u) { return x->st->src.unp_bank[u & 1]; }
static inline unsigned dp_fpu_bank(const dp_ctx_t *x, unsigned s) {
    return s ? x->st->src.fpu_bank_b : x->st->src.fpu_bank_a;
}

/* Bank b of s cleared to zero (UNPACR_NOP, ZEROSRC), or to 0x7FFFF (~0 in 19 bits) for ones. A
 * bank known to hold only zeros (src_regs_t.zero) is not cleared to zero again: kernels clear a
 * bank no unpacker writes once a tile (off under dp_set_reference, which still keeps the flag). */
static inline void dp_src_clear_at(const dp_t *dp, src_regs_t *s, unsigned b, bool ones) {
    if (!ones && s->zero[b] && !dp->reference) return;
    uint32_t(*rows)[SRC_COLS] = dp_src_rows_w(s, b);
    if (ones) {
        for (unsigned r = 0; r < SRC_ROWS; r++)
            for (unsigned c = 0; c < SRC_COLS; c++)
                rows[r][c] = 0x7FFFF;
    } else {
        memset(rows, 0, sizeof s->d[b]);
        s->zero[b] = true;
    }
}
static inline void dp_src_clear(const dp_ctx_t *x, src_regs_t *s, unsigned b, bool ones) {
    dp_src_clear_at(x->dp, s, b, ones);
}

/* L1, as the unpackers read it and the packer writes it (cp_env_t; every write reported). */
static inline const cp_env_t *dp_env(const dp_ctx_t *x) { return x->in->env; }

/* Stop on this instruction (cp_fail: the category, what, and the where the timing model gave). */
void dp_fail(dp_ctx_t *x, cp_err_cat_t cat, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline bool dp_failed(const dp_ctx_t *x) { return x->failed; }

/* RWC address modifiers (RWCs.md ApplyAddrMod; Blackhole: AddrMod is 3 bits and indexes
 * ADDR_MOD_*_SEC0..7 directly). update_fidelity: false for SFPLOAD/SFPSTORE/SFPLOADMACRO. */
void dp_apply_addr_mod(dp_ctx_t *x, unsigned addr_mod, bool update_fidelity);
/* Its general way (no shortcut for a section of zeros), given the section's three words. */
void dp_addr_mod_words(rwc_t *r, uint32_t ab, uint32_t ds, uint32_t bs, bool update_fidelity);
/* Field `name` of an address modifier section's word v (ADDR_MOD_*_SEC0's fields; section i is
 * the word i words further). */
#define AMF(v, name) (((uint32_t)(v) >> ST_TS_##name) & ((1u << ST_TN_##name) - 1u))
/* Whether a section's words ask for nothing but increments (no Clear, CR or CToCR field set):
 * then dp_addr_mod_incr does what dp_addr_mod_words does. Decided once where the words are kept
 * (MOVA2D's plan). */
bool dp_addr_mod_plain(uint32_t ab, uint32_t ds, uint32_t bs);
static inline void dp_addr_mod_incr(rwc_t *r, uint32_t ab, uint32_t ds, uint32_t bs, bool update_fidelity) {
    r->srca = (uint8_t)((r->srca + AMF(ab, ADDR_MOD_AB_SEC0_SrcAIncr)) & 63);
    r->srcb = (uint8_t)((r->srcb + AMF(ab, ADDR_MOD_AB_SEC0_SrcBIncr)) & 63);
    r->dst = (uint16_t)((r->dst + AMF(ds, ADDR_MOD_DST_SEC0_DestIncr)) & 1023);
    if (update_fidelity) r->fidelity = (uint8_t)((r->fidelity + AMF(ds, ADDR_MOD_DST_SEC0_FidelityIncr)) & 3);
    if (AMF(bs, ADDR_MOD_BIAS_SEC0_BiasIncr) & 3) r->bias ^= 1;
}
/* Whether the thread's address modifier section addr_mod is all zeros (AB, DST and BIAS words);
 * and what applying such a section does: each counter masked to its width, bias unchanged. */
bool dp_addr_mod_zero(const dp_ctx_t *x, unsigned addr_mod);
static inline void dp_apply_addr_mod_zero(rwc_t *r, bool update_fidelity) {
    r->srca &= 63, r->srcb &= 63, r->dst &= 1023;
    if (update_fidelity) r->fidelity &= 3;
}

/* Dst row mapping (BH Dst.md Adj16/Adj32) and the 32-bit view. Inline: every datum of every
 * Dst access goes through them. */
static inline unsigned dp_adj16_of(bool remap, unsigned r) {
    r &= 1023;
    if (remap) r = (r & 0x3c7) ^ ((r & 0x030) >> 1) ^ ((r & 0x008) << 2);
    return r;
}
static inline unsigned dp_adj32_of(bool remap, bool swizzle, unsigned r) {
    r = dp_adj16_of(remap, r);
    if (swizzle) r = (r & 0x3f3) ^ ((r & 0x018) >> 1) ^ ((r & 0x004) << 1);
    return ((r & 0x1f8) << 1) | (r & 0x207);
}
static inline unsigned dp_adj16(const dp_ctx_t *x, unsigned r) { return dp_adj16_of(x->remap, r); }
static inline unsigned dp_adj32(const dp_ctx_t *x, unsigned r) { return dp_adj32_of(x->remap, x->swizzle, r); }
/* A Dst row as an instruction sees it (Dst.md): 16-bit cells, physical row Adj16(row) (hi; lo is
 * NULL), or Dst32b datums, whose high halves are physical row p = Adj32(row) and low halves row
 * p + 8 (hi, lo); valid is the row's valid bit, which for Dst32b is p's. The one place of that
 * layout: the datum accessors below and the row forms (fpu_mm.c, pack.c, sfpu.c) use it. */
typedef struct {
    uint16_t *hi, *lo;
    bool *valid;
} dp_dst_row_t;
static inline dp_dst_row_t dp_dst_row_of(dst_regs_t *d, bool remap, bool swizzle, unsigned row, bool d32) {
    unsigned p = d32 ? dp_adj32_of(remap, swizzle, row) : dp_adj16_of(remap, row);
    return (dp_dst_row_t){d->bits[p], d32 ? d->bits[p + 8] : NULL, &d->valid[p]};
}
static inline dp_dst_row_t dp_dst_row(const dp_ctx_t *x, unsigned row, bool d32) {
    return dp_dst_row_of(&x->dp->dst, x->remap, x->swizzle, row, d32);
}
/* Rows row & ~3 .. (row & ~3) + 3 at once (an SFPLOAD's or SFPSTORE's 32 lanes): Adj16 and Adj32
 * pass a row's two low bits through unchanged (the remap and swizzle move bits 2..5 only, the
 * 32-bit layout bits 3..8), so the four rows are physical rows p..p + 3 (and p + 8..p + 11), and
 * the block's pointers reach 4 x DST_COLS cells and four valid bits. */
static inline dp_dst_row_t dp_dst_block4(const dp_ctx_t *x, unsigned row, bool d32) {
    return dp_dst_row(x, row & ~3u, d32);
}
/* Datum col of a row: the cell, or the Dst32b datum hi << 16 | lo; and its write. */
static inline uint32_t dp_dst_row_get(dp_dst_row_t r, unsigned col) {
    return r.lo ? (uint32_t)r.hi[col] << 16 | r.lo[col] : r.hi[col];
}
static inline void dp_dst_row_put(dp_dst_row_t r, unsigned col, uint32_t v) {
    if (r.lo) {
        r.hi[col] = (uint16_t)(v >> 16);
        r.lo[col] = (uint16_t)v;
    } else {
        r.hi[col] = (uint16_t)v;
    }
}
/* The row's 16 datums at once (the test of lo outside the loop, so that each loop knows it). */
static inline void dp_dst_row_read(dp_dst_row_t r, uint32_t d[DST_COLS]) {
    if (r.lo) {
        for (unsigned c = 0; c < DST_COLS; c++)
            d[c] = dp_dst_row_get(r, c);
    } else {
        for (unsigned c = 0; c < DST_COLS; c++)
            d[c] = dp_dst_row_get(r, c);
    }
}
static inline uint32_t dp_dst32_read(const dp_ctx_t *x, unsigned row, unsigned col) {
    return dp_dst_row_get(dp_dst_row(x, row, true), col);
}
/* A write makes the row valid again: ZEROACC only marks rows, and "the write performed by these
 * instructions will then cause the row contents to become well defined" (ZEROACC.md). Dst32b
 * consults the valid bit of the first physical row only (Dst.md). */
static inline void dp_dst32_write(dp_ctx_t *x, unsigned row, unsigned col, uint32_t v) {
    dp_dst_row_t r = dp_dst_row(x, row, true);
    dp_dst_row_put(r, col, v);
    *r.valid = true;
}
static inline uint16_t dp_dst16_read(const dp_ctx_t *x, unsigned row, unsigned col) {
    return (uint16_t)dp_dst_row_get(dp_dst_row(x, row, false), col);
}
static inline void dp_dst16_write(dp_ctx_t *x, unsigned row, unsigned col, uint16_t v) {
    dp_dst_row_t r = dp_dst_row(x, row, false);
    dp_dst_row_put(r, col, v);
    *r.valid = true;
}

/* The context of one instruction of thread t, config bank bank. */
void dp_ctx_init(dp_ctx_t *x, dp_t *dp, const cp_insn_t *in, unsigned t, unsigned bank);

/* The units (one file each). Each returns nothing; errors go through dp_fail. */
void dp_adc_exec(dp_ctx_t *x); /* dp_addr.c: SETADC*, INCADC*, ADDRCR* */
void dp_rwc_exec(dp_ctx_t *x); /* dp_addr.c: SETRWC, INCRWC */
/* dp_addr.c: SETRWC or INCRWC word w of thread t, all it reads (dp_rwc_exec's rule, which dp_exec
 * runs without a context outside the reference path; an INCRWC of Dst alone by a shortcut). */
void dp_rwc_apply(dp_t *dp, unsigned t, uint32_t w);
void dp_unpack_exec(dp_ctx_t *x); /* unpack.c: UNPACR, UNPACR_NOP (address side) */
unp_job_t *dp_unp_job_push(dp_ctx_t *x, unsigned u);
/* unpack.c: dp_exec's way, before any context is made, for an UNPACR whose setup is kept and
 * allows it (unp_setup_t.light) and whose rows go to Src at once, and for an UNPACR_NOP it does
 * not refuse; false for any other instruction, which then goes through dp_unpack_exec. */
bool dp_unpack_light(dp_t *dp, const cp_insn_t *in);
void dp_fpu_exec(dp_ctx_t *x); /* fpu.c: MOV*, ZEROACC, ZEROSRC, CLEARDVALID */
/* fpu.c: dp_exec's way, before dp_exec makes a context, for an eight-row MOVA2D whose setup is
 * kept (mova2d_plan_t) and whose rows go at once; false for any other instruction, having done
 * nothing but, where its key missed, make the plan again (in a context of its own). */
bool dp_mova2d_light(dp_t *dp, const cp_insn_t *in);
void dp_sfpu_exec(dp_ctx_t *x); /* sfpu.c: SFP* */
/* sfpu.c: dp_exec's way, before any context is made, for a Vector Unit word that needs none (an
 * SFPNOP, a planned SFPLOAD or SFPSTORE in its 32-lane form, any other kept word but SFPLOADMACRO,
 * whose semantics read only the Vector Unit's registers); false (nothing done) for any other,
 * which then goes through dp_sfpu_exec. */
bool dp_sfpu_light(dp_t *dp, const cp_insn_t *in);
/* sfpu.c: run one decoded SFPU instruction on registers s (the Vector Unit's own, or a cycle's copy:
 * sfpu_macro.c). addr: an SFPLOADMACRO-scheduled SFPSTORE's address, else -1; *load_addr receives
 * the Dst address an SFPLOAD or SFPLOADMACRO used. */
void dp_sfpu_run(dp_ctx_t *x, lregs_t *s, const sfp_op_t *o, int addr, unsigned *load_addr);
/* sfpu_macro.c: a Vector Unit instruction issued now (the cycle dp_exec was given, or the next free
 * one): step the SFPLOADMACRO schedule to it, run it with whatever is due then, schedule what an
 * SFPLOADMACRO asks for. */
void dp_sfpu_issue_scheduled(dp_ctx_t *x, const sfp_op_t *o);
/* sfpu_macro.c: another datapath instruction at this cycle: let the scheduled instructions due by
 * then take effect first (datapath.c calls it while anything is scheduled). */
void dp_sfpu_catch_up(dp_ctx_t *x);
/* sfpu.c: reseed the Vector Unit's PRNG if the seed register was written since it last looked. */
void dp_sfpu_prng_follow(dp_ctx_t *x);
void dp_pack_exec(dp_ctx_t *x); /* pack.c: PACR */
/* pack.c: dp_exec's way, before any context is made, for a PACR whose setup is kept and whose four
 * rows go to L1 as one gathered block (pack_exec's common case); false for any other instruction,
 * which then goes through dp_pack_exec. */
bool dp_pack_light(dp_t *dp, const cp_insn_t *in);

#endif
