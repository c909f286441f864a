/* coproc/unpack.c — the unpackers' values: UNPACR (L1 -> SrcA / SrcB / Dst) and UNPACR_NOP.
 *
 * UNPACR follows the functional model of UNPACR_Regular.md (the Wormhole page Blackhole shares,
 * with its Blackhole conditionals), field for field; the Blackhole encoding names its fields
 * differently (DATAPATH.md §3.1): Unpack_block_selection = WhichUnpacker, OvrdThreadId =
 * MultiContextMode, AutoIncContextID = UseContextCounter, CfgContextId = ContextNumber,
 * AddrCntContextId = ContextADC, SetDatValid = FlipSrc, ZeroWrite2 = AllDatumsAreZero, AddrMode =
 * Ch0ZInc | Ch0YInc << 2 | Ch1ZInc << 4 | Ch1YInc << 6.
 * Modelled: input in every format, block floats (BFP8/4/2 and the _a family) with their
 * exponent section or a forced shared exponent, zero-compressed input (its data path in
 * coproc/unpack_z.c), to SrcA (row offset, column shift, transpose), SrcB and Dst (16- and
 * 32-bit), contexts and the context counter, tileize row strides, upsampling, the L1 FIFO wrap,
 * the ADC increments and the bank flip's bookkeeping.
 * Refused with a message: RowSearch (CP_ERR_UNIMPLEMENTED), srcb_bcast and CfgContextCntInc
 * (CP_ERR_UNSPECIFIED: no Blackhole page). Datum conversions are coproc/formats.c's. The wait for
 * the bank and its hand-over are the timing model's (coproc/timing.c); the datapath runs once the
 * unpacker owns the bank.
 */
#include <string.h>

#include "coproc/dp_internal.h"
#include "coproc/unpack_internal.h"
#include "coproc/tt_fields.h"
#include "coproc/tt_ops.h"

/* A field of context ctx whose contexts 4..7 sit in a second group of bits (cfg_defines.h:
 * Disable_zero_compress_cntx4 at bit 16, Unpack_if_sel_cntx4 at bit 20 of the same word). */
static unsigned ctx_bit(const dp_ctx_t *x, cfg_field_t f, unsigned u, unsigned ctx) {
    return ctx < 4 ? dp_cfg_i(x, f, ctx, u * UNP_SEC_WORDS) : dp_cfg_i(x, f, ctx + 12, u * UNP_SEC_WORDS);
}
/* Unpack_(out_)data_format_cntx: contexts 0..3 in words 92..95 at their field's bit, contexts
 * 4..7 in the same four words 8 bits higher (cfg_defines.h). */
static unsigned ctx_fmt(const dp_ctx_t *x, cfg_field_t f, unsigned u, unsigned ctx) {
    const cp_field_t *d = &cfg_fields[f];
    uint32_t word = x->cfg[d->word + (ctx & 3) + u * UNP_SEC_WORDS];
    return (word >> (d->shift + (ctx >= 4 ? 8 : 0))) & 0xF;
}

static inline uint32_t read_l1(const cp_env_t *m, uint32_t addr, unsigned n) {
    const uint8_t *p = m->l1 + addr;
    switch (n) {
    case 1: return p[0];
    case 2: return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    default: return fmt_le32_read(p); /* L1 is little-endian */
    }
}
const char *dp_unpack_byte_order_form(void) { return FMT_HOST_LE ? "le" : "portable"; }

enum { UNP_LATE_NONE, UNP_LATE_TILEIZE, UNP_LATE_OVRD, UNP_LATE_DST_SHIFT };

/* UNPACR's reads of Config[bank] and ThreadConfig[t] for unpacker u, context mode multi and context
 * ctx, decoded into *s (unp_setup_t): a function of those alone. */
static void unp_setup(const dp_ctx_t *x, unsigned u, bool multi, unsigned ctx, unp_setup_t *s) {
    /* The tile descriptor: 128 bits at THCON_SEC<u>_REG0 (UNPACR_Regular.md "Configuration"). */
    uint32_t d0 = CFG_UNP_I(x, THCON_SEC0_REG0_TileDescriptor, u, 0);
    uint32_t d1 = CFG_UNP_I(x, THCON_SEC0_REG0_TileDescriptor, u, 1);
    uint32_t d2 = CFG_UNP_I(x, THCON_SEC0_REG0_TileDescriptor, u, 2);
    uint32_t d3 = CFG_UNP_I(x, THCON_SEC0_REG0_TileDescriptor, u, 3);
    bool uncompressed = multi ? ctx_bit(x, CFG_THCON_SEC0_REG2_Disable_zero_compress_cntx0, u, ctx) : (d0 >> 4) & 1;
    uint32_t xdim = (multi && u == 0) ? CFG_I(x, THCON_SEC0_REG5_Tile_x_dim_cntx0, ctx & 3) : d0 >> 16;
    uint32_t ydim = d1 & 0xFF, zdim = (d1 >> 16) & 0xFF, wdim = d2 & 0xFF;
    uint32_t digest = d3 >> 24; /* DigestSize, the descriptor's top byte (check_fields: not a field) */
    if (!zdim) zdim = 1;
    if (!wdim) wdim = 1;
    unsigned in_fmt, out_fmt;
    if (multi && CFG_UNP(x, THCON_SEC0_REG2_Ovrd_data_format, u)) {
        in_fmt = ctx_fmt(x, CFG_THCON_SEC0_REG7_Unpack_data_format_cntx0, u, ctx);
        out_fmt = ctx_fmt(x, CFG_THCON_SEC0_REG7_Unpack_out_data_format_cntx0, u, ctx);
    } else {
        in_fmt = d0 & 0xF;
        out_fmt = CFG_UNP(x, THCON_SEC0_REG2_Out_data_format, u);
    }
    bool bfp = fmt_is_bfp(in_fmt);
    unsigned bits = fmt_datum_bits(in_fmt);

    /* Base_address (of context ctx, or 0), a tile's word (unp_setup_near), the only one read here:
     * the three addresses below are its 16 times plus what the other words give. */
    unsigned base_i = multi ? ctx : 0;
    uint32_t base = CFG_UNP_I(x, THCON_SEC0_REG3_Base_address, u, base_i);
    uint32_t in_addr = base + (CFG_UNP_I(x, THCON_SEC0_REG7_Offset_address, u, base_i & 3) & 0xFFFF);
    in_addr = (in_addr + 1 + digest) * 16;
    /* Compressed input (Packers/Compression.md's layout): the row start indices first, 16 bits
     * each, one more than the rows (or blobs), rounded up to 16 bytes. */
    uint32_t rs_addr = in_addr;
    if (!uncompressed) {
        unsigned blobs = (d0 >> 8) & 7; /* BlobsPerXYPlane (check_fields: not a field) */
        uint64_t n = blobs ? (uint64_t)blobs * zdim * wdim : (uint64_t)ydim * zdim * wdim;
        in_addr += (uint32_t)(((n + 1) * 2 + 15) / 16 * 16);
    }
    /* Block floats: the exponent section comes first, one byte per 16 datums of the whole
     * descriptor (XDim YDim ZDim WDim) rounded up to 16 bytes; BFP4/BFP2 may have none
     * (NoBFPExpSection). Force_shared_exp takes the exponent from the config instead. */
    bool force_exp = bfp && CFG_UNP(x, THCON_SEC0_REG2_Force_shared_exp, u);
    uint32_t exp_addr = in_addr;
    if (bfp && !force_exp && (in_fmt == FMT_BFP8 || in_fmt == FMT_BFP8A || !((d0 >> 5) & 1))) { /* NoBFPExpSection */
        uint64_t nexp = ((uint64_t)xdim * ydim * zdim * wdim + 15) / 16;
        in_addr += (uint32_t)(((nexp + 15) / 16) * 16);
    }

    bool tileize = CFG_UNP(x, THCON_SEC0_REG2_Tileize_mode, u);
    uint32_t row_stride = bits * 2; /* 16 datums */
    if (tileize)
        row_stride = CFG_UNP_I(x, THCON_SEC0_REG2_Shift_amount_cntx0, u, 0) << 4 |
                     CFG_UNP_I(x, THCON_SEC0_REG2_Shift_amount_cntx0, u, 1) << 8 |
                     CFG_UNP_I(x, THCON_SEC0_REG2_Shift_amount_cntx0, u, 2) << 12;

    bool to_dst = false, transpose = false;
    if (u == 0) {
        to_dst =
            multi ? ctx_bit(x, CFG_THCON_SEC0_REG2_Unpack_if_sel_cntx0, 0, ctx) : CFG(x, THCON_SEC0_REG2_Unpack_If_Sel);
        transpose = CFG(x, THCON_SEC0_REG2_Haloize_mode);
    } /* unpacker 1 ignores Haloize_mode on current silicon (UNPACR_Regular.md, non-contractual) */

    /* The format conversion (UNPACR_Regular.md FormatConversion; coproc/formats.c). */
    fmt_unpack_mode_t conv = {.in_fmt = (uint8_t)in_fmt,
                              .out_fmt = (uint8_t)out_fmt,
                              .to_dst = to_dst,
                              .int8_unsigned = u ? CFG(x, ALU_FORMAT_SPEC_REG0_SrcBUnsigned)
                                                 : CFG(x, ALU_FORMAT_SPEC_REG0_SrcAUnsigned),
                              .fp8_e4m3 = CFG_UNP(x, THCON_SEC0_REG1_Unp_LF8_4b_exp, u)};

    unsigned up_zeros = (1u << CFG_UNP(x, THCON_SEC0_REG2_Upsample_rate, u)) - 1;
    unsigned col_shift = (tileize || u == 1) ? 0 : CFG_UNP_I(x, THCON_SEC0_REG2_Shift_amount_cntx0, u, ctx & 3);
    bool ovrd = THCFG(x, SRCA_SET_SetOvrdWithAddr);
    unsigned late = UNP_LATE_NONE;
    if (tileize && (up_zeros || !uncompressed))
        late = UNP_LATE_TILEIZE;
    else if (to_dst && ovrd)
        late = UNP_LATE_OVRD;
    else if (to_dst && (col_shift || transpose))
        late = UNP_LATE_DST_SHIFT;

    *s = (unp_setup_t){
        .base = base,
        .base_word = (uint16_t)(DPC_W_THCON_SEC0_REG3_Base_address + u * UNP_SEC_WORDS + base_i),
        .conv = conv,
        .conv_bad = !fmt_unpack_check(&conv),
        .uncompressed = uncompressed,
        .bfp = bfp,
        .bfp_a = bfp && (in_fmt == FMT_BFP8A || in_fmt == FMT_BFP4A || in_fmt == FMT_BFP2A),
        .force_exp = force_exp,
        .tileize = tileize,
        .to_dst = to_dst,
        .transpose = transpose,
        .interleave = CFG_UNP(x, THCON_SEC0_REG2_Upsample_and_interleave, u),
        .ovrd = ovrd,
        .src_upd = CFG_UNP(x, THCON_SEC0_REG2_Unpack_Src_Reg_Set_Upd, u),
        .dst_cntx = multi && u == 0,
        .dst_add = to_dst || CFG(x, UNP0_ADD_DEST_ADDR_CNTR_add_dest_addr_cntr),
        .late_fail = (uint8_t)late,
        .bits = (uint8_t)bits,
        .size = (uint8_t)(bits / 8),
        .osize_log2 = (out_fmt == FMT_FP32 || out_fmt == FMT_TF32 || out_fmt == FMT_INT32)   ? 2
                      : (out_fmt == FMT_FP16 || out_fmt == FMT_BF16 || out_fmt == FMT_INT16) ? 1
                                                                                             : 0,
        .up_zeros = (uint8_t)up_zeros,
        .col_shift = (uint8_t)col_shift,
        .forced_exp =
            (uint8_t)(u ? CFG(x, UNP1_FORCED_SHARED_EXP_shared_exp) : CFG(x, UNP0_FORCED_SHARED_EXP_shared_exp)),
        .ctx_count = (uint8_t)CFG_UNP(x, THCON_SEC0_REG2_Context_count, u),
        .xdim = xdim,
        .ydim = ydim,
        .zdim = zdim,
        .in_addr = in_addr,
        .rs_addr = rs_addr,
        .exp_addr = exp_addr,
        .row_stride = row_stride,
        .out_base = u ? CFG(x, UNP1_ADDR_BASE_REG_1_Base) : CFG(x, UNP0_ADDR_BASE_REG_1_Base),
        .ystride = u ? CFG(x, UNP1_ADDR_CTRL_XY_REG_1_Ystride) : CFG(x, UNP0_ADDR_CTRL_XY_REG_1_Ystride),
        .zstride = u ? CFG(x, UNP1_ADDR_CTRL_ZW_REG_1_Zstride) : CFG(x, UNP0_ADDR_CTRL_ZW_REG_1_Zstride),
        .wstride = u ? CFG(x, UNP1_ADDR_CTRL_ZW_REG_1_Wstride) : CFG(x, UNP0_ADDR_CTRL_ZW_REG_1_Wstride),
        .dst_c = (multi && u == 0) ? CFG_I(x, THCON_SEC0_REG5_Dest_cntx0_address, ctx & 3) : 0,
        .src_base = (u ? THCFG(x, SRCB_SET_Base) : THCFG(x, SRCA_SET_Base)) << 4,
        .limit = (uint64_t)CFG_UNP(x, THCON_SEC0_REG2_Unpack_limit_address, u) * 16,
        .fifo = (uint64_t)CFG_UNP(x, THCON_SEC0_REG2_Unpack_fifo_size, u) * 16,
    };
    s->light = !s->conv_bad && uncompressed && !bfp && !tileize && !up_zeros && !to_dst && !transpose && !col_shift;
}

/* Where unpacker u's setup's key is near thread t's with extra (dp_key_near_at: only a tile's words
 * written since, of which the setup reads its Base_address alone), the three addresses moved by
 * that word's change and the key made current: true. */
static bool unp_setup_near(dp_t *dp, const cp_state_t *st, unsigned t, unsigned u, unsigned ctx, unsigned extra) {
    if (!dp_key_near_at(dp, st, t, unp_key(u, ctx), extra)) return false;
    unp_setup_t *s = &dp->unp[u].setup[ctx & 1];
    /* (The bank is the setup's: the StateID is not a tile's word.) */
    uint32_t base = st->cfg[st_state_id(st, t)][s->base_word], d = (base - s->base) * 16;
    s->base = base;
    s->in_addr += d, s->rs_addr += d, s->exp_addr += d;
    dp_key_renew(dp, st, t, unp_key(u, ctx));
    return true;
}

/* This UNPACR's setup: the unpacker's copy while its key is this UNPACR's (dp_key_hit, the context
 * mode and context as extra) or near it (unp_setup_near), else decoded anew and kept (dp_key_set). */
static const unp_setup_t *unp_setup_of(dp_ctx_t *x, unpacker_t *up, unsigned u, bool multi, unsigned ctx) {
    unsigned extra = ctx | (multi ? 8u : 0u);
    unp_setup_t *s = &up->setup[ctx & 1];
    if (dp_key_hit(x, unp_key(u, ctx), extra) || unp_setup_near(x->dp, x->st, x->t, u, ctx, extra)) return s;
    unp_setup(x, u, multi, ctx, s);
    dp_key_set(x, unp_key(u, ctx), extra);
    return s;
}

/* UNPACR's context (0 without OvrdThreadId) and, in *which_adc, the thread whose ADCs give X and Y
 * (ContextADC), both ways (unpacr, dp_unpack_light; each refuses ContextADC 3 and unpacker 1's
 * context past 1 itself); c: a context with thread t's ThreadConfig. */
static inline unsigned unp_context(const unpacker_t *up, const dp_ctx_t *c, uint32_t w, unsigned t, unsigned u,
                                   unsigned *which_adc) {
    *which_adc = t;
    if (!TT_UNPACR_OVRDTHREADID(w)) return 0;
    unsigned ctx = TT_UNPACR_AUTOINCCONTEXTID(w) ? up->ctx_counter[t] : TT_UNPACR_CFGCONTEXTID(w);
    *which_adc = TT_UNPACR_ADDRCNTCONTEXTID(w);
    return (ctx + THCFG_I(c, UNPACK_MISC_CFG_CfgContextOffset_0, u)) & 7;
}

/* The first datum's index ((W ZDim + Z) YDim + Y) XDim + X (UNPACR_Regular.md), X and Y from
 * ContextADC's Channel0, Z and W from the thread's. */
static inline uint64_t unp_first(const unp_setup_t *s, const adc_ch_t *xy, const adc_ch_t *zw) {
    return (((uint64_t)zw->w * s->zdim + zw->z) * s->ydim + xy->y) * s->xdim + xy->x;
}

/* The output position from the thread's Channel1, both ways: false, with *out the byte address,
 * where that is not aligned to the output datum; else *out in datums, with the Dst context. The
 * datum's bytes (4, 2 or 1) as a shift: no division. */
static inline bool unp_out_of(const unp_setup_t *s, const adc_ch_t *oc, uint32_t *out) {
    uint32_t a = s->out_base + oc->y * s->ystride + oc->z * s->zstride + oc->w * s->wstride;
    *out = a;
    if (a & ((1u << s->osize_log2) - 1)) return false;
    a >>= s->osize_log2;
    if (s->dst_cntx) a = s->dst_add ? a + s->dst_c : s->dst_c;
    *out = a;
    return true;
}

/* The counters for the next instruction, after UNPACR (both ways): the ContextCounter (ctx_next
 * the context used where it counts, else -1), the ADCs' Y and Z by AddrMode, SrcRow. */
static inline void unp_step(dp_t *dp, const unp_setup_t *s, unsigned t, unsigned u, unsigned which_adc, unsigned am,
                            int ctx_next, bool flip) {
    unpacker_t *up = &dp->unp[u];
    if (ctx_next >= 0) {
        unsigned next = (unsigned)ctx_next + 1;
        up->ctx_counter[t] = (uint8_t)(next >= (1u << s->ctx_count) ? 0 : next);
    }
    for (unsigned th = 0; th < DP_THREADS; th++) {
        if (th != t && th != which_adc) continue;
        adc_ch_t *c0 = &dp->adc[th][u].ch[0], *c1 = &dp->adc[th][u].ch[1];
        c0->z = (uint8_t)(c0->z + (am & 3));
        c0->y = (uint16_t)((c0->y + ((am >> 2) & 3)) & 0x1FFF);
        c1->z = (uint8_t)(c1->z + ((am >> 4) & 3));
        c1->y = (uint16_t)((c1->y + ((am >> 6) & 3)) & 0x1FFF);
    }
    if (flip) {
        up->src_row[t] = (uint8_t)s->src_base;
    } else if (s->src_upd) {
        up->src_row[t] = (uint8_t)((up->src_row[t] + 16 + s->src_base) & 63);
    }
}

static void unpacr(dp_ctx_t *x) {
    uint32_t w = x->word;
    dp_t *dp = x->dp;
    unsigned t = x->t, u = TT_UNPACR_UNPACK_BLOCK_SELECTION(w);
    bool multi = TT_UNPACR_OVRDTHREADID(w), use_cnt = TT_UNPACR_AUTOINCCONTEXTID(w);
    bool flip = TT_UNPACR_SETDATVALID(w), all_zero = TT_UNPACR_ZEROWRITE2(w);
    unsigned am = TT_UNPACR_ADDRMODE(w);
    unpacker_t *up = &dp->unp[u];

    if (TT_UNPACR_ROWSEARCH(w)) return dp_fail(x, CP_ERR_UNIMPLEMENTED, "UNPACR with RowSearch");
    if (TT_UNPACR_SRCB_BCAST(w))
        return dp_fail(x, CP_ERR_UNSPECIFIED, "UNPACR with srcb_bcast (no Blackhole page says what it does)");
    if (TT_UNPACR_CFGCONTEXTCNTINC(w))
        return dp_fail(x, CP_ERR_UNSPECIFIED, "UNPACR with CfgContextCntInc (no Blackhole page says what it does)");

    unsigned which_adc, ctx = unp_context(up, x, w, t, u, &which_adc);
    if (multi) {
        if (u == 1 && ctx >= 2) return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR: unpacker 1 with context %u", ctx);
        if (which_adc == 3) return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR: ContextADC 3");
    }
    const unp_setup_t *s = unp_setup_of(x, up, u, multi, ctx);
    uint32_t xdim = s->xdim, ydim = s->ydim, zdim = s->zdim, size = s->size;

    const adc_ch_t *xy = &dp->adc[which_adc][u].ch[0], *zw = &dp->adc[t][u].ch[0];
    uint32_t xend = dp->adc[which_adc][u].ch[1].x + 1;
    if (xend < xy->x)
        return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR: ADC Channel1.X + 1 (%u) below Channel0.X (%u)", xend, xy->x);
    uint64_t first = unp_first(s, xy, zw);
    uint32_t count = xend - xy->x;
    /* Compressed: the first datum is row start index (W ZDim + Z) YDim + Y, read from L1 when the
     * data moves; a whole row (X from 0 to XDim - 1) ends at the next index, otherwise X datums
     * are dropped and Channel1.X + 1 - X kept (UNPACR_Regular.md). */
    uint32_t rs_index = (uint32_t)(((uint64_t)zw->w * zdim + zw->z) * ydim + (xy->y & 0xFF));
    bool whole_row = xy->x == 0 && xend - 1 == xdim - 1;

    uint64_t limit = s->limit, fifo = s->fifo;
#define WRAP(a) ((a) > limit ? (a)-fifo : (a))
    /* Block floats: datums addressed in bits, exponents in 1/16 bytes (InAddr_Exponents +=
     * FirstDatum / 16). */
    uint64_t datums = WRAP(s->in_addr + first * size), exps = 0;
    if (s->bfp) {
        datums = (uint64_t)s->in_addr * 8 + (uint64_t)first * s->bits;
        if (datums > limit * 8) datums -= fifo * 8;
        exps = (uint64_t)s->exp_addr * 16 + first;
        if (exps > limit * 16) exps -= fifo * 16;
    }
#undef WRAP

    if (s->conv_bad)
        return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR from %s to %s %s (UNPACR_Regular.md: undefined)",
                       fmt_name(s->conv.in_fmt), fmt_name(s->conv.out_fmt), s->to_dst ? "in Dst" : "in Src");

    uint32_t out;
    if (!unp_out_of(s, &dp->adc[t][u].ch[1], &out))
        return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR output byte address 0x%x not aligned to its datum", out);

    if (s->uncompressed && (s->transpose || s->tileize) && (s->bfp ? datums % 128 : datums % 16))
        return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR transpose/tileize from L1 0x%llx, not 16-byte aligned",
                       (unsigned long long)datums);
    switch (s->late_fail) {
    case UNP_LATE_TILEIZE: return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR tileize with upsampling or compressed input");
    case UNP_LATE_OVRD:
        return dp_fail(x, CP_ERR_UNDEFINED,
                       "UNPACR to Dst with SRCA_SET_SetOvrdWithAddr (UNPACR_Regular.md: undefined; tt-llk clears it)");
    case UNP_LATE_DST_SHIFT: return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR to Dst with column shift or transpose");
    default: break;
    }

    /* What the data side needs, fixed now (the address calculation happens when the unpacker
     * takes the instruction; UNPACR_Regular.md "Performance"). */
    unp_job_t *j = dp_unp_job_push(x, u);
    if (!j) return;
    /* Field by field, every one but `ones` (an UNPACR_NOP's alone): a compound literal would zero
     * the job first (gcc's `rep stos`, slow to start), then write the fields over it. */
    j->kind = UNP_JOB_UNPACR;
    j->thread = (uint8_t)t;
    j->cfg_bank = (uint8_t)x->bank;
    j->src_row = up->src_row[t];
    j->all_zero = all_zero;
    j->flip = flip;
    j->datums = datums;
    j->count = count;
    j->out = out;
    j->exps = exps;
    j->whole_row = whole_row;
    j->rs_index = rs_index;
    j->drop = xy->x;
    j->s = *s;
    unp_step(dp, s, t, u, which_adc, am, multi && use_cnt ? (int)ctx : -1, flip);
}

/* The Src row that row `row` of the output (out / 16) of job j lands in (UNPACR_Regular.md's main
 * loop), before SrcA's transpose: SrcB row + SrcRow; SrcA drops the first four rows (UNP_ROW_DROP),
 * then row - 4 + SrcRow for rows 0..15 (beyond them UNP_ROW_BEYOND, an error) or, with
 * SetOvrdWithAddr, the address as is (Blackhole wraps it at 64 [SIM]). The one place of the rule:
 * the datum-by-datum path and the row form both ask here. */
enum { UNP_ROW_DROP = -1, UNP_ROW_BEYOND = -2 };
static inline int src_row_at(unsigned u, unsigned src_row, bool ovrd, unsigned row) {
    if (u == 1) return (int)((row + src_row) & 63);
    if (row < 4) return UNP_ROW_DROP;
    row -= 4;
    if (ovrd) return (int)(row & 63);
    if (row >= 16) return UNP_ROW_BEYOND;
    return (int)((row + src_row) & 63);
}
static inline int src_row_of(const unp_job_t *j, unsigned u, unsigned row) {
    return src_row_at(u, j->src_row, j->s.ovrd, row);
}

/* Write one converted datum at output position `out`: Src as src_row_of says, SrcA dropping the
 * shifted columns and transposed within 16 rows; Dst rows - 4. False after a failure. */
static inline bool put_datum(dp_ctx_t *x, const unp_job_t *j, unsigned u, unsigned bank, bool out32, uint32_t out,
                             uint32_t datum) {
    dp_t *dp = x->dp;
    unsigned row = out / 16, col = out & 15;
    if (u == 0 && j->s.to_dst) {
        row = (row - 4) & 1023;
        if (out32)
            dp_dst32_write(x, row, col, datum);
        else
            dp_dst16_write(x, row, col, (uint16_t)datum);
        return true;
    }
    if (u == 0 && col < j->s.col_shift) return true;
    int r = src_row_of(j, u, row);
    if (r == UNP_ROW_DROP) return true;
    if (r == UNP_ROW_BEYOND) {
        dp_fail(x, CP_ERR_UNDEFINED, "UNPACR to SrcA row %u >= 16 (SetOvrdWithAddr off)", row - 4);
        return false;
    }
    if (u == 1) {
        dp_src_rows_w(&dp->srcb, bank)[r][col] = datum;
        return true;
    }
    col -= j->s.col_shift;
    if (j->s.transpose) {
        unsigned lo = (unsigned)r & 15;
        r = (int)(((unsigned)r & ~15u) | col), col = lo;
    }
    dp_src_rows_w(&dp->srca, bank)[r][col] = datum;
    return true;
}

bool unp_put_datum(dp_ctx_t *x, const unp_job_t *j, unsigned u, unsigned bank, bool out32, uint32_t out,
                   uint32_t datum) {
    return put_datum(x, j, u, bank, out32, out, datum);
}

/* The data side of a block-float UNPACR (UNPACR_Regular.md): datums read bit by bit from the
 * bottom of each byte up (ReadL1Bytes), the exponent byte of each 16 (its stream wraps at the FIFO
 * limit on 16-byte boundaries), then the format conversion and the output as for any datum. */
static void unpacr_data_bfp(dp_ctx_t *x, const unp_job_t *j, unsigned u, unsigned bank) {
    const cp_env_t *env = dp_env(x);
    uint64_t bitpos = j->datums, exps = j->exps, limit = j->s.limit * 8, fifo = j->s.fifo * 8;
    uint32_t out = j->out, mask = (1u << j->s.bits) - 1;
    bool out32 = fmt_unpack_writes_dst32(&j->s.conv);
    for (uint32_t i = 0; i < j->count;) {
        if (bitpos / 8 >= env->l1_size)
            return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR reads L1 0x%llx, beyond L1", (unsigned long long)(bitpos / 8));
        uint32_t datum = (env->l1[bitpos / 8] >> (bitpos % 8)) & mask;
        bitpos += j->s.bits;
        if ((++i % 16) == 0) {
            bitpos = bitpos - j->s.bits * 16u + (uint64_t)j->s.row_stride * 8;
            if (bitpos > limit) bitpos -= fifo;
        }
        uint8_t e = j->s.forced_exp;
        if (!j->s.force_exp) {
            if (exps / 16 >= env->l1_size)
                return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR reads exponents at L1 0x%llx, beyond L1",
                               (unsigned long long)(exps / 16));
            e = env->l1[exps / 16];
            if ((++exps % 256) == 0 && exps / 16 > j->s.limit) exps -= j->s.fifo * 16;
        }
        if (j->s.bfp_a && !j->all_zero && !fmt_bfp_unpack_defined(j->s.conv.in_fmt, (uint8_t)datum, e))
            return dp_fail(x, CP_ERR_UNDEFINED,
                           "UNPACR of %s datum 0x%x with exponent %u: the FP16 exponent leaves 5 bits "
                           "(FloatBitPatterns.md BFP8aToFP16: undefined)",
                           fmt_name(j->s.conv.in_fmt), datum, e);
        uint32_t v = j->all_zero ? 0 : fmt_unpack(&j->s.conv, datum, e);
        for (unsigned k = 0; k <= j->s.up_zeros; k++, v = 0, out++) {
            if (j->s.interleave && k) continue;
            if (!unp_put_datum(x, j, u, bank, out32, out, v)) return;
        }
    }
    if (j->flip) (u ? &x->dp->srcb : &x->dp->srca)->implied_fmt[bank] = j->s.conv.out_fmt;
}

/* The data side of one UNPACR: L1 -> SrcA / SrcB / Dst, into the bank the unpacker owns now. */
static void unpacr_data(dp_ctx_t *x, const unp_job_t *j, unsigned u) {
    dp_t *dp = x->dp;
    unsigned bank = dp_unp_bank(x, u);
    const cp_env_t *env = dp_env(x);
    uint64_t datums = j->datums, limit = j->s.limit, fifo = j->s.fifo;
    uint32_t out = j->out;
    bool out32 = fmt_unpack_writes_dst32(&j->s.conv);
#define WRAP(a) ((a) > limit ? (a)-fifo : (a))
    if (!j->s.uncompressed) return unp_data_compressed(x, j, u, bank);
    if (j->s.bfp) return unpacr_data_bfp(x, j, u, bank);
    if (j->s.up_zeros == 0 && (u == 1 || !j->s.to_dst)) {
        /* Without upsampling each datum goes to the next position (the common case, faster):
         * the same addresses and conversions as the general loop below, per destination. */
        /* Whole rows at once where a row of 16 L1 datums lands in one Src row as it is (no
         * column shift, no transpose): fmt_unpack_rows, the same rule as fmt_unpack. */
        uint32_t i = 0;
        if (!x->dp->reference && !j->s.col_shift && !j->s.transpose && (out & 15) == 0) {
            /* Row by row while each row lies in L1 and lands in a Src row; datums then stands where
             * the loop below expects it at the start of row i (before its wrap). A row that follows
             * the previous one in L1 and in the Src bank joins its run, and each run is converted
             * in one call: later, but nothing between reads the Src rows or writes L1. */
            unsigned size = j->s.size, count = j->count, run_n = 0;
            const uint8_t *run_l1 = NULL;
            uint32_t *run_to = NULL;
            /* Every whole row at once where the loop below would make them one run: rows one after
             * the other in L1 (the row stride a row's bytes) with no FIFO wrap before the last, in
             * L1, and landing in consecutive Src rows (none dropped; the first and last Src rows as
             * far apart as the rows, so no wrap between them). test_dp_fast.c's
             * test_twin_unpack (FIFOs that wrap within a tile among its draws) compares it with the
             * reference path. */
            uint32_t rows = count / FMT_ROW;
            if (rows && !j->all_zero && j->s.row_stride == FMT_ROW * size) {
                uint64_t end = datums + (uint64_t)rows * FMT_ROW * size;
                int r0 = src_row_of(j, u, out / 16), rl = src_row_of(j, u, out / 16 + rows - 1);
                if (r0 >= 0 && rl == r0 + (int)rows - 1 && end <= env->l1_size &&
                    (!fifo || end - FMT_ROW * size <= limit)) {
                    uint32_t(*to)[SRC_COLS] = dp_src_rows_w(u == 1 ? &dp->srcb : &dp->srca, bank);
                    fmt_unpack_rows(&j->s.conv, env->l1 + datums, to[r0], rows);
                    i = rows * FMT_ROW, out += rows * FMT_ROW, datums = end;
                }
            }
            for (; count - i >= FMT_ROW; i += FMT_ROW, out += FMT_ROW) {
                uint64_t at = i ? WRAP(datums - size * 16 + j->s.row_stride) : datums;
                int r = src_row_of(j, u, out / 16);
                if (at + FMT_ROW * size > env->l1_size || r == UNP_ROW_BEYOND) break;
                /* SrcA rows 0..3 of the output are dropped */
                uint32_t *to = r < 0 ? NULL : dp_src_rows_w(u == 1 ? &dp->srcb : &dp->srca, bank)[r];
                if (to && j->all_zero) {
                    memset(to, 0, FMT_ROW * sizeof *to);
                } else if (to && run_n && env->l1 + at == run_l1 + run_n * FMT_ROW * size &&
                           to == run_to + run_n * FMT_ROW) {
                    run_n++;
                } else if (to) {
                    if (run_n) fmt_unpack_rows(&j->s.conv, run_l1, run_to, run_n);
                    run_l1 = env->l1 + at, run_to = to, run_n = 1;
                }
                datums = at + FMT_ROW * size;
            }
            if (run_n) fmt_unpack_rows(&j->s.conv, run_l1, run_to, run_n);
        }
        for (; i < j->count; i++, out++) {
            if (i && (i % 16) == 0) datums = WRAP(datums - j->s.size * 16 + j->s.row_stride);
            if (datums + j->s.size > env->l1_size)
                return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR reads L1 0x%llx, beyond L1", (unsigned long long)datums);
            uint32_t datum = j->all_zero ? 0 : fmt_unpack(&j->s.conv, read_l1(env, (uint32_t)datums, j->s.size), 0);
            datums += j->s.size;
            if (!put_datum(x, j, u, bank, out32, out, datum)) return;
        }
        if (j->flip) (u ? &dp->srcb : &dp->srca)->implied_fmt[bank] = j->s.conv.out_fmt;
        return;
    }
    for (uint32_t i = 0; i < j->count;) {
        if (datums + j->s.size > env->l1_size)
            return dp_fail(x, CP_ERR_UNDEFINED, "UNPACR reads L1 0x%llx, beyond L1", (unsigned long long)datums);
        uint32_t datum = fmt_unpack(&j->s.conv, read_l1(env, (uint32_t)datums, j->s.size), 0);
        datums += j->s.size;
        if ((++i % 16) == 0) datums = WRAP(datums - j->s.size * 16 + j->s.row_stride);
        if (j->all_zero) datum = 0;
        for (unsigned k = 0; k <= j->s.up_zeros; k++, datum = 0, out++) {
            if (j->s.interleave && k) continue;
            if (!put_datum(x, j, u, bank, out32, out, datum)) return;
        }
    }
#undef WRAP
    /* Blackhole records the format of the bank it hands over (ImpliedSrc{A,B}Fmt). */
    if (j->flip) (u ? &dp->srcb : &dp->srca)->implied_fmt[bank] = j->s.conv.out_fmt;
}

/* UNPACR_NOP on Blackhole (its own encoding; DATAPATH.md §3.3): Unpack_Pop = 1 clears the
 * unpacker-side bank (UNPACR_NOP_ZEROSRC.md: to zero, or SrcA to all ones when Src_ClrVal_Ctrl =
 * 1), then a nonzero Set_Dvalid hands it to the Matrix Unit (UNPACR_NOP_SETDVALID.md), recording
 * REG2_Out_data_format as the bank's implied format. ttsim accepts only Unpack_Pop = 1 on
 * Blackhole; the other modes are refused here too. unp_nop_ok: what unpacr_nop does not refuse;
 * unp_nop_push: what it does then (both ways: unpacr_nop and dp_unpack_light). */
static inline bool unp_nop_ok(uint32_t w) {
    unsigned clr = TT_UNPACR_NOP_SRC_CLRVAL_CTRL(w);
    return TT_UNPACR_NOP_UNPACK_POP(w) == 1 && !TT_UNPACR_NOP_BANK_CLR_CTRL(w) && !TT_UNPACR_NOP_CLR_TO1_FMT_CTRL(w) &&
           !TT_UNPACR_NOP_MSG_CLR_CNT(w) && !TT_UNPACR_NOP_STREAM_ID(w) && clr <= 1 &&
           !(clr && TT_UNPACR_NOP_UNPACKER_SELECT(w) == 1);
}
/* Only what dp_unpack_data and unpacr_nop_data read (nothing zeroed first: see unpacr), and thread
 * t's SrcRow where the bank is handed over; c: a context whose cfg is Config bank `bank` and whose
 * thcfg is t's ThreadConfig. */
static inline void unp_nop_push(dp_t *dp, unp_job_t *j, uint32_t w, unsigned t, unsigned bank, const dp_ctx_t *c) {
    unsigned u = TT_UNPACR_NOP_UNPACKER_SELECT(w);
    bool flip = TT_UNPACR_NOP_SET_DVALID(w) != 0;
    j->kind = UNP_JOB_NOP;
    j->thread = (uint8_t)t;
    j->cfg_bank = (uint8_t)bank;
    j->ones = TT_UNPACR_NOP_SRC_CLRVAL_CTRL(w) != 0;
    j->flip = flip;
    j->s.conv.out_fmt = (uint8_t)CFG_UNP(c, THCON_SEC0_REG2_Out_data_format, u);
    if (flip) dp->unp[u].src_row[t] = (uint8_t)((u ? THCFG(c, SRCB_SET_Base) : THCFG(c, SRCA_SET_Base)) << 4);
}

static void unpacr_nop(dp_ctx_t *x) {
    uint32_t w = x->word;
    unsigned u = TT_UNPACR_NOP_UNPACKER_SELECT(w);
    if (TT_UNPACR_NOP_UNPACK_POP(w) != 1)
        return dp_fail(x, CP_ERR_UNSPECIFIED, "UNPACR_NOP with Unpack_Pop %u", TT_UNPACR_NOP_UNPACK_POP(w));
    if (TT_UNPACR_NOP_BANK_CLR_CTRL(w)) return dp_fail(x, CP_ERR_UNSUPPORTED, "UNPACR_NOP clearing both banks");
    if (TT_UNPACR_NOP_CLR_TO1_FMT_CTRL(w) || TT_UNPACR_NOP_MSG_CLR_CNT(w) || TT_UNPACR_NOP_STREAM_ID(w))
        return dp_fail(x, CP_ERR_UNSPECIFIED, "UNPACR_NOP with Clr_to1_fmt_Ctrl, Msg_Clr_Cnt or Stream_Id");
    unsigned clr = TT_UNPACR_NOP_SRC_CLRVAL_CTRL(w);
    if (clr > 1 || (clr && u == 1))
        return dp_fail(x, CP_ERR_UNSPECIFIED, "UNPACR_NOP clear value %u on unpacker %u", clr, u);
    unp_job_t *j = dp_unp_job_push(x, u);
    if (j) unp_nop_push(x->dp, j, w, x->t, x->bank, x);
}

/* Its data side, at retire: no context (nothing here can fail). */
static void unpacr_nop_data(dp_t *dp, const cp_state_t *st, const unp_job_t *j, unsigned u) {
    unsigned bank = st->src.unp_bank[u & 1];
    src_regs_t *s = u ? &dp->srcb : &dp->srca;
    dp_src_clear_at(dp, s, bank, j->ones);
    if (j->flip) s->implied_fmt[bank] = j->s.conv.out_fmt;
}

/* UNPACR's light way (dp_internal.h dp_unpack_light): before dp_exec makes a context, an UNPACR
 * whose setup is kept (its key this UNPACR's, or near it: unp_setup_near) and allows it
 * (unp_setup_t.light), whose word has none of RowSearch, srcb_bcast, CfgContextCntInc and
 * ZeroWrite2, and whose counters give whole rows (a multiple of 16 datums from an output row's
 * column 0) lying one after the other in L1 and landing in consecutive Src rows (unpacr_data's
 * rows at once): its address side as unpacr's, with a job of kind UNP_JOB_LIGHT, which
 * dp_unpack_data converts in one call. An UNPACR_NOP that unpacr_nop would not refuse: its job as
 * unpacr_nop pushes it (not under dp_set_reference). Any other case returns false having changed
 * nothing but what unpacr would do first itself (a near setup brought up to date), and
 * dp_unpack_exec runs it. Not while SFPLOADMACRO has anything scheduled (dp_exec's catch-up);
 * under dp_set_reference no setup is kept, so an UNPACR's key misses. */
bool dp_unpack_light(dp_t *dp, const cp_insn_t *in) {
    uint32_t w = in->word;
    if (dp->sched.n) return false;
    if (TT_OPCODE(w) == TT_OPC_UNPACR_NOP) {
        unpacker_t *up = &dp->unp[TT_UNPACR_NOP_UNPACKER_SELECT(w)];
        if (dp->reference || !unp_nop_ok(w) || up->jobs_n == UNP_JOBS) return false;
        unsigned t = in->thread, bank = st_state_id(in->st, t);
        unp_nop_push(dp, &up->jobs[(up->jobs_head + up->jobs_n++) % UNP_JOBS], w, t, bank,
                     &(dp_ctx_t){.cfg = in->st->cfg[bank], .thcfg = in->st->thdcfg[t]});
        up->nop_light_runs++;
        return true;
    }
    if (TT_OPCODE(w) != TT_OPC_UNPACR) return false;
    if (TT_UNPACR_ROWSEARCH(w) || TT_UNPACR_SRCB_BCAST(w) || TT_UNPACR_CFGCONTEXTCNTINC(w) || TT_UNPACR_ZEROWRITE2(w))
        return false;
    unsigned t = in->thread, u = TT_UNPACR_UNPACK_BLOCK_SELECTION(w);
    unpacker_t *up = &dp->unp[u];
    if (up->jobs_n == UNP_JOBS) return false;
    bool multi = TT_UNPACR_OVRDTHREADID(w), use_cnt = TT_UNPACR_AUTOINCCONTEXTID(w);
    unsigned which_adc, ctx = unp_context(up, &(dp_ctx_t){.thcfg = in->st->thdcfg[t]}, w, t, u, &which_adc);
    if (which_adc == 3) return false;
    /* (The kept setup first: where it does not allow the light way, whatever the key, no more.) */
    const unp_setup_t *s = &up->setup[ctx & 1];
    if (!s->light) return false;
    /* (No key is kept for a context unpacr refuses: unpacker 1's past 1.) */
    unsigned extra = ctx | (multi ? 8u : 0u);
    if (!dp_key_hit_at(dp, in->st, t, unp_key(u, ctx), extra) && !unp_setup_near(dp, in->st, t, u, ctx, extra))
        return false;

    const adc_ch_t *xy = &dp->adc[which_adc][u].ch[0], *zw = &dp->adc[t][u].ch[0];
    /* (An X range that ends before it starts gives rows past L1's end, below.) */
    uint32_t xend = dp->adc[which_adc][u].ch[1].x + 1;
    if ((xend - xy->x) % FMT_ROW) return false;
    uint32_t rows = (xend - xy->x) / FMT_ROW;
    /* (unpacr's FIFO wrap of the first datum left out: a wrapped one is past the limit, refused
     * below.) */
    uint64_t datums = s->in_addr + unp_first(s, xy, zw) * s->size;
    uint32_t out;
    if (!unp_out_of(s, &dp->adc[t][u].ch[1], &out) || !rows || (out & 15)) return false;
    /* unpacr_data's rows at once: in L1, no FIFO wrap before the last row, consecutive Src rows. */
    uint64_t end = datums + (uint64_t)rows * FMT_ROW * s->size;
    int r0 = src_row_at(u, up->src_row[t], s->ovrd, out / 16);
    int rl = src_row_at(u, up->src_row[t], s->ovrd, out / 16 + rows - 1);
    if (r0 < 0 || rl != r0 + (int)rows - 1 || end > in->env->l1_size || (s->fifo && end - FMT_ROW * s->size > s->limit))
        return false;

    unp_job_t *j = &up->jobs[(up->jobs_head + up->jobs_n++) % UNP_JOBS];
    bool flip = TT_UNPACR_SETDATVALID(w);
    j->kind = UNP_JOB_LIGHT;
    j->flip = flip;
    j->datums = datums;
    j->count = rows;
    j->out = (uint32_t)r0;
    j->s.conv = s->conv;
    up->light_runs++;
    unp_step(dp, s, t, u, which_adc, TT_UNPACR_ADDRMODE(w), multi && use_cnt ? (int)ctx : -1, flip);
    return true;
}

unp_job_t *dp_unp_job_push(dp_ctx_t *x, unsigned u) {
    unpacker_t *up = &x->dp->unp[u & 1];
    if (up->jobs_n == UNP_JOBS) {
        dp_fail(x, CP_ERR_UNIMPLEMENTED, "unpacker %u has %u instructions in flight, more than ttemu holds", u,
                UNP_JOBS);
        return NULL;
    }
    unp_job_t *j = &up->jobs[(up->jobs_head + up->jobs_n) % UNP_JOBS];
    up->jobs_n++;
    return j;
}

void dp_unpack_exec(dp_ctx_t *x) {
    switch (TT_OPCODE(x->word)) {
    case TT_OPC_UNPACR: unpacr(x); break;
    case TT_OPC_UNPACR_NOP: unpacr_nop(x); break;
    default: dp_fail(x, CP_ERR_UNIMPLEMENTED, "%s is not modelled", tt_mnemonic(x->word)); break;
    }
}

void dp_unpack_data(dp_t *dp, const cp_insn_t *in) {
    if (!in->op || in->op->unit != TT_UNIT_UNPACK) return;
    dp->retired++;
    unsigned u = TT_OPCODE(in->word) == TT_OPC_UNPACR ? TT_UNPACR_UNPACK_BLOCK_SELECTION(in->word)
                                                      : TT_UNPACR_NOP_UNPACKER_SELECT(in->word);
    unpacker_t *up = &dp->unp[u & 1];
    /* No job: its address side failed at dispatch, and the run is stopping on that error. */
    if (up->jobs_n == 0) return;
    /* The job read where it lies: its slot is free once taken, but nothing below pushes one. */
    const unp_job_t *j = &up->jobs[up->jobs_head];
    up->jobs_head = (up->jobs_head + 1) % UNP_JOBS;
    up->jobs_n--;
    if (j->kind == UNP_JOB_LIGHT) { /* dp_unpack_light's: whole rows into the unpacker's bank */
        unsigned bank = in->st->src.unp_bank[u & 1];
        src_regs_t *sr = u & 1 ? &dp->srcb : &dp->srca;
        fmt_unpack_rows(&j->s.conv, in->env->l1 + j->datums, dp_src_rows_w(sr, bank)[j->out], j->count);
        if (j->flip) sr->implied_fmt[bank] = j->s.conv.out_fmt;
        return;
    }
    if (j->kind == UNP_JOB_NOP) return unpacr_nop_data(dp, in->st, j, u & 1);
    dp_ctx_t x;
    dp_ctx_init(&x, dp, in, j->thread, j->cfg_bank);
    unpacr_data(&x, j, u & 1);
}
