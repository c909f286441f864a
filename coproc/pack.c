/* coproc/pack.c — the packer's values: PACR (Dst -> L1).
 *
 * Blackhole has one packer with four Dst read interfaces (BH PACR.md); the pipeline is
 * Wormhole's, packer 0 of it (Packers/InputAddressGenerator.md, EdgeMasking.md, Downsampling.md,
 * FormatConversion.md, OutputAddressGenerator.md), configured by the SEC0 fields.
 * Modelled: Dst as the source (16- and 32-bit reads), ReadIntfSel, the ADC X range within a row,
 * ZeroWrite, Flush and Last, edge masks with row-set mapping, downsampling masks, both format
 * conversions for every combination coproc/formats.c models (fmt_pack_check: FP32, TF32, BF16,
 * FP16, FP8, INT32, INT16 and UINT8 paths), block-float outputs (BFP8/4/2 and the _a family: one
 * shared exponent per row of 16 datums into the exponent stream, the datums into the data stream),
 * the 16-byte output buffers, and the ADC updates of ADDR_MOD_PACK.
 * ReLU and exponent thresholding between the two conversions (coproc/pack_stages.c), L1
 * accumulation into FP32, FP16 and BF16 outputs (coproc/pack_l1acc.c).
 * Concat is accepted where BH PACR.md gives it no effect (no compression, no RowPadZero).
 * Refused as unspecified (CP_ERR_UNSPECIFIED): compression ("The exact compression logic isn't
 * specified", Compression.md), the fields BH PACR.md leaves "not yet documented" (RowPadZero,
 * DstAccessMode — tt-llk's pack_untilize uses it — CtxtCtrl, AddrCntContext, CfgContext) and
 * Auto_set_last_pacr_intf_sel; not modelled (CP_ERR_UNIMPLEMENTED): L1 as the source,
 * OvrdThreadId, the INT8 intermediate (INT_DESCALE), L1 accumulation into other formats, block
 * floats with fewer than 16 datums a row, and edge-mask face sets.
 */
#include <string.h>

#include "coproc/dp_internal.h"
#include "coproc/pack_l1acc.h"
#include "coproc/pack_stages.h"
#include "coproc/tt_fields.h"

/* L1 accumulation (coproc/pack_l1acc.c): each datum of the 16 bytes added to L1's. The padding of
 * a forced flush is zeroes added too (L1 += 0) [INF: "padded with zeroes", "L1 += Datum"]. */
static void accumulate(const uint8_t *l1, uint8_t *buf, unsigned fmt) {
    if (fmt == FMT_FP32) {
        for (unsigned i = 0; i < 16; i += 4)
            fmt_le32_write(buf + i, pack_l1acc_fp32(fmt_le32_read(l1 + i), fmt_le32_read(buf + i)));
        return;
    }
    for (unsigned i = 0; i < 16; i += 2) {
        uint16_t a = (uint16_t)(l1[i] | l1[i + 1] << 8), b = (uint16_t)(buf[i] | buf[i + 1] << 8);
        b = fmt == FMT_BF16 ? pack_l1acc_bf16(a, b) : pack_l1acc_fp16(a, b);
        buf[i] = (uint8_t)b, buf[i + 1] = (uint8_t)(b >> 8);
    }
}

/* Report the L1 bytes written since the last report (packer_t.wr_addr). */
static void written_flush(dp_ctx_t *x) {
    packer_t *p = &x->dp->pack;
    if (p->wr_len) dp_env(x)->l1_written(dp_env(x)->ctx, p->wr_addr, p->wr_len);
    p->wr_len = 0;
}
static inline void written(dp_ctx_t *x, uint32_t addr, uint32_t len) {
    packer_t *p = &x->dp->pack;
    if (!dp_env(x)->l1_written) return;
    if (x->dp->reference) return dp_env(x)->l1_written(dp_env(x)->ctx, addr, len);
    if (p->wr_len && p->wr_addr + p->wr_len == addr) {
        p->wr_len += len;
        return;
    }
    written_flush(x);
    p->wr_addr = addr, p->wr_len = len;
}

/* One aligned 16-byte write of the data stream at its address (L1 accumulation adding to what is
 * there), then the next address. */
static void emit16(dp_ctx_t *x, const uint8_t *bytes) {
    packer_t *p = &x->dp->pack;
    if ((uint64_t)p->data_addr + 16 > dp_env(x)->l1_size) {
        dp_fail(x, CP_ERR_UNDEFINED, "PACR writes L1 0x%x, beyond L1", p->data_addr);
    } else {
        uint8_t *l1 = dp_env(x)->l1 + p->data_addr, sum[16];
        if (p->acc) {
            memcpy(sum, bytes, 16);
            accumulate(l1, sum, p->acc_fmt);
            bytes = sum;
        }
        memcpy(l1, bytes, 16);
        written(x, p->data_addr, 16);
    }
    p->data_addr += 16;
}

/* len bytes are already in L1 at the data stream's address (emit's copy, or PACR's four-row block
 * converted there): reported written, and the address moves past them. */
static void emitted(dp_ctx_t *x, uint32_t len) {
    packer_t *p = &x->dp->pack;
    written(x, p->data_addr, len);
    p->data_addr += len;
}

/* emit16 of `units` consecutive 16-byte units: without L1 accumulation and within L1, one copy
 * (the reference path: one unit at a time). */
static void emit(dp_ctx_t *x, const uint8_t *bytes, unsigned units) {
    packer_t *p = &x->dp->pack;
    uint32_t len = 16 * units;
    if (!units) return;
    if (x->dp->reference || p->acc || (uint64_t)p->data_addr + len > dp_env(x)->l1_size) {
        for (unsigned i = 0; i < units; i++)
            emit16(x, bytes + 16 * i);
        return;
    }
    memcpy(dp_env(x)->l1 + p->data_addr, bytes, len);
    emitted(x, len);
}

static void flush_buf(dp_ctx_t *x) {
    packer_t *p = &x->dp->pack;
    if (!p->buf_n) return;
    if (p->buf_n < 16) memset(p->buf + p->buf_n, 0, 16 - p->buf_n); /* a forced flush pads with zeroes */
    emit16(x, p->buf);
    p->buf_n = 0;
}

/* The exponent stream's buffer (OutputAddressGenerator.md: every stream writes aligned 16 bytes). */
static void flush_ebuf(dp_ctx_t *x) {
    packer_t *p = &x->dp->pack;
    if (!p->ebuf_n) return;
    memset(p->ebuf + p->ebuf_n, 0, 16 - p->ebuf_n);
    if ((uint64_t)p->exp_addr + 16 > dp_env(x)->l1_size) {
        dp_fail(x, CP_ERR_UNDEFINED, "PACR writes exponents to L1 0x%x, beyond L1", p->exp_addr);
    } else {
        memcpy(dp_env(x)->l1 + p->exp_addr, p->ebuf, 16);
        written(x, p->exp_addr, 16);
    }
    p->exp_addr += 16;
    p->ebuf_n = 0;
}

/* One row of 16 late-converted datums as a block (FormatConversion.md "To BFP8", "To BFP4 or
 * BFP2"; coproc/formats.c fmt_bfp_pack): the shared exponent to the exponent stream, the datums
 * to the data stream, sub-byte datums from the low bits of each byte up (UNPACR_Regular.md's
 * ReadL1Bytes reads them so; ttsim packs them so). */
static void put_block(dp_ctx_t *x, unsigned fmt, const uint16_t v[FMT_BFP_BLOCK]) {
    packer_t *p = &x->dp->pack;
    fmt_bfp_block_t b;
    fmt_bfp_pack(fmt, v, &b);
    p->ebuf[p->ebuf_n++] = b.exp;
    if (p->ebuf_n == 16) flush_ebuf(x);
    unsigned bits = fmt_datum_bits(fmt), per = 8 / bits;
    for (unsigned j = 0; j < FMT_BFP_BLOCK; j += per) {
        uint32_t byte = 0;
        for (unsigned k = 0; k < per; k++)
            byte |= (uint32_t)b.datum[j + k] << (k * bits);
        p->buf[p->buf_n++] = (uint8_t)byte;
        if (p->buf_n == 16) flush_buf(x);
    }
}

static void put_bytes(dp_ctx_t *x, uint32_t v, unsigned n) {
    packer_t *p = &x->dp->pack;
    for (unsigned i = 0; i < n; i++) {
        p->buf[p->buf_n++] = (uint8_t)(v >> (8 * i));
        if (p->buf_n == 16) flush_buf(x);
    }
}

/* A row's bytes out (len of them): whole 16-byte units straight to L1 while the output buffer is
 * empty, the rest through the buffer, flushing each 16 bytes as put_bytes does. */
static void put_row_bytes(dp_ctx_t *x, const uint8_t *b, unsigned len) {
    packer_t *p = &x->dp->pack;
    unsigned at = 0;
    if (!p->buf_n) {
        emit(x, b, len / 16);
        at = len / 16 * 16;
    }
    while (at < len) {
        unsigned take = 16 - p->buf_n < len - at ? 16 - p->buf_n : len - at;
        memcpy(p->buf + p->buf_n, b + at, take);
        p->buf_n += take, at += take;
        if (p->buf_n == 16) flush_buf(x);
    }
}

/* A row's converted datums out, out_bytes each (little-endian in L1). */
static void put_row(dp_ctx_t *x, const uint32_t v[FMT_ROW], unsigned out_bytes) {
    uint8_t b[4 * FMT_ROW];
#if FMT_HOST_LE
    if (out_bytes == 2) {
        uint16_t h[FMT_ROW];
        for (unsigned k = 0; k < FMT_ROW; k++)
            h[k] = (uint16_t)v[k];
        memcpy(b, h, sizeof h);
    } else if (out_bytes == 4) {
        memcpy(b, v, 4 * FMT_ROW);
    } else
#endif
    {
        for (unsigned k = 0; k < FMT_ROW; k++)
            for (unsigned i = 0; i < out_bytes; i++)
                b[out_bytes * k + i] = (uint8_t)(v[k] >> (8 * i));
    }
    /* out_bytes is 1, 2 or 4 (fmt_datum_bits / 8): the bound says so to gcc, whose inlining fed by
     * the build's profile (Makefile PGO) otherwise sees a row longer than b. */
    put_row_bytes(x, b, out_bytes <= 4 ? out_bytes * FMT_ROW : sizeof b);
}

/* 16-bit Dst to a 16-bit output on a little-endian host: the row's cells straight to its L1 bytes
 * (fmt_pack_row16), nothing widened to 32 bits on the way. */
const char *dp_pack_byte_order_form(void) { return FMT_HOST_LE ? "le" : "portable"; }
/* n rows of 16-bit outputs (fmt_pack_row16's), one after the other, out as one run of bytes. */
static void put_rows16(dp_ctx_t *x, const uint16_t (*rows)[FMT_ROW], unsigned n) {
    put_row_bytes(x, (const uint8_t *)rows, n * sizeof *rows);
}
static void put_row16(dp_ctx_t *x, const fmt_pack_mode_t *c, const uint16_t *cells) {
    uint16_t h[1][FMT_ROW];
    fmt_pack_row16(c, cells, h[0]);
    put_rows16(x, h, 1);
}

/* The most a PACR's data stream can write past its address: four rows of 16 datums of at most 4
 * bytes, after up to 15 bytes already in the output buffer, in whole 16-byte units. */
#define PACR_DATA_REACH (16 * ((15 + 4 * FMT_ROW * 4 + 15) / 16))

/* ---- PACR's Config (pack_setup_t) ------------------------------------------------------------ */

/* What PACR's setup reads of the words kernels write once a tile (coproc/state.h
 * st_cfg_tile_word): the input address generator's Dst offset and the output's L1 address (with
 * s->dest_hdr, the tile header's 16 bytes skipped or not, read before). Only x->cfg is read. */
static void pack_setup_tile(const dp_ctx_t *x, pack_setup_t *s) {
    s->dest_offset = CFG_I(x, DEST_TARGET_REG_CFG_PACK_SEC0_Offset, 0);
    s->dest = CFG(x, THCON_SEC0_REG1_L1_Dest_addr) + s->dest_hdr;
}

/* PACR's Config decoded into *s, with the refusals it can meet (dp_fail; false), in the order the
 * instruction meets them. p->acc is set where it was before the refusal of its format. */
static inline bool pack_adc_plain(uint32_t am);
static bool pack_setup(dp_ctx_t *x, pack_setup_t *s) {
    packer_t *p = &x->dp->pack;
    if (CFG(x, THCON_SEC0_REG1_Auto_set_last_pacr_intf_sel)) {
        dp_fail(x, CP_ERR_UNSPECIFIED,
                "PACR with Auto_set_last_pacr_intf_sel (BH PACR.md names its effect, not which PACR is the "
                "final one of an xy plane)");
        return false;
    }
    if (CFG(x, THCON_SEC0_REG1_Source_interface_selection)) {
        dp_fail(x, CP_ERR_UNIMPLEMENTED, "PACR with L1 as the source (Source_interface_selection)");
        return false;
    }
    if (!CFG(x, THCON_SEC0_REG1_Disable_zero_compress) || CFG(x, THCON_SEC0_REG1_All_pack_disable_zero_compress_ovrd)) {
        dp_fail(x, CP_ERR_UNSPECIFIED,
                "PACR with compression (Disable_zero_compress = 0: Compression.md leaves its logic unspecified)");
        return false;
    }
    if (CFG(x, PCK_EDGE_TILE_FACE_SET_SELECT_enable)) {
        dp_fail(x, CP_ERR_UNIMPLEMENTED, "PACR with edge-mask face sets (PCK_EDGE_TILE_FACE_SET_SELECT_enable)");
        return false;
    }
    if (CFG(x, THCON_SEC0_REG1_Add_l1_dest_addr_offset)) {
        dp_fail(x, CP_ERR_UNIMPLEMENTED, "PACR with Add_l1_dest_addr_offset");
        return false;
    }

    /* The two format conversions (FormatConversion.md; coproc/formats.c). */
    fmt_pack_mode_t c = {.read_32b = CFG(x, PCK_DEST_RD_CTRL_Read_32b_data),
                         .read_raw = CFG(x, PCK_DEST_RD_CTRL_Read_int8),
                         .read_unsigned = CFG(x, PCK_DEST_RD_CTRL_Read_unsigned),
                         .round_10b_mant = CFG(x, PCK_DEST_RD_CTRL_Round_10b_mant),
                         .fp8_e4m3 = CFG(x, THCON_SEC0_REG1_Pac_LF8_4b_exp),
                         .out_fmt = (uint8_t)CFG(x, THCON_SEC0_REG1_Out_data_format)};
    c.intermediate = (uint8_t)(CFG(x, ALU_FORMAT_SPEC_REG_Dstacc_override) ? CFG(x, ALU_FORMAT_SPEC_REG_Dstacc_val)
                                                                           : CFG(x, ALU_FORMAT_SPEC_REG2_Dstacc));
    if (c.intermediate == FMT_INT8) {
        dp_fail(x, CP_ERR_UNIMPLEMENTED, "PACR through INT8 (INT_DESCALE shifts are not modelled)");
        return false;
    }
    if (!fmt_pack_check(&c)) {
        dp_fail(x, CP_ERR_UNIMPLEMENTED, "PACR from %s Dst through %s to %s", c.read_32b ? "32-bit" : "16-bit",
                fmt_name(c.intermediate), fmt_name(c.out_fmt));
        return false;
    }
    s->c = c;
    /* L1 accumulation: the datums still buffered add to L1 as they are written. */
    s->acc = p->acc = CFG(x, THCON_SEC0_REG1_Pack_L1_Acc);
    if (s->acc) {
        if (!pack_l1acc_supported(c.out_fmt)) {
            dp_fail(x, CP_ERR_UNIMPLEMENTED, "PACR with L1 accumulation into %s (FP32, FP16 and BF16 are modelled)",
                    fmt_name(c.out_fmt));
            return false;
        }
        p->acc_fmt = (uint8_t)c.out_fmt;
    }
    if (!pack_stages_init(x, c.intermediate, &s->stages)) return false;
    s->out_bytes = (uint8_t)(fmt_datum_bits(c.out_fmt) / 8);
    s->bfp = fmt_is_bfp(c.out_fmt);
    /* Masked datums in edge mode 1 are -infinity (EdgeMasking.md): in the intermediate's order. */
    bool exp8 = c.intermediate == FMT_FP32 || c.intermediate == FMT_TF32 || c.intermediate == FMT_BF16;
    s->neg_inf = c.intermediate == FMT_BF16 ? 0xFF80u : 0xFF800000u;
    s->edge_mode = CFG(x, PCK_EDGE_MODE_mode);
    if (s->edge_mode && !exp8) {
        dp_fail(x, CP_ERR_UNIMPLEMENTED, "PACR edge mode -infinity through %s", fmt_name(c.intermediate));
        return false;
    }

    /* The input address generator's fields (packer 0): bytes a datum (4, 2 or 1: as a shift, so that
     * pack_in_addr divides by them without a division) and the X bits within them. */
    switch (CFG(x, THCON_SEC0_REG1_In_data_format) & 3) {
    case 0: s->bpd_log2 = 2, s->xmask = 3; break;
    case 1: s->bpd_log2 = 1, s->xmask = 7; break;
    default: s->bpd_log2 = 0, s->xmask = 15; break;
    }
    s->base0 = CFG(x, PCK0_ADDR_BASE_REG_0_Base);
    s->xstride0 = CFG(x, PCK0_ADDR_CTRL_XY_REG_0_Xstride) & 15;
    s->ystride0 = CFG(x, PCK0_ADDR_CTRL_XY_REG_0_Ystride);
    s->zstride0 = CFG(x, PCK0_ADDR_CTRL_ZW_REG_0_Zstride);
    s->wstride0 = CFG(x, PCK0_ADDR_CTRL_ZW_REG_0_Wstride);
    s->ds = (uint16_t)CFG(x, THCON_SEC0_REG1_Downsample_mask);
    if (!s->ds) s->ds = 0xFFFF;
    /* The output address generator's (BH: YZW in bytes). */
    s->dest_hdr = !CFG(x, THCON_SEC0_REG1_Sub_l1_tile_header_size);
    pack_setup_tile(x, s);
    s->base1 = CFG(x, PCK0_ADDR_BASE_REG_1_Base);
    s->ystride1 = CFG(x, PCK0_ADDR_CTRL_XY_REG_1_Ystride);
    s->zstride1 = CFG(x, PCK0_ADDR_CTRL_ZW_REG_1_Zstride);
    s->wstride1 = CFG(x, PCK0_ADDR_CTRL_ZW_REG_1_Wstride);
    s->exp_section = CFG(x, THCON_SEC0_REG1_Exp_section_size);
    /* Edge masks by tile row position (EdgeMasking.md, BH PACR.md). */
    s->per_plane = (uint8_t)CFG(x, PACK_COUNTERS_SEC0_pack_reads_per_xy_plane);
    unsigned rowset = CFG(x, PCK_EDGE_TILE_ROW_SET_SELECT_select) & 3;
    s->edge_full = true;
    for (unsigned pos = 0; pos < 16; pos++) {
        unsigned map = CFG_I(x, TILE_ROW_SET_MAPPING_0_row_set_mapping_0, rowset * 16 + pos);
        s->edge[pos] = (uint16_t)CFG_I(x, PCK_EDGE_OFFSET_SEC0_mask, map);
        s->edge_full &= s->edge[pos] == 0xFFFF;
    }
    s->remap = x->remap;
    /* What dp_pack_light needs of the setup: every datum of a row kept and nothing between the
     * conversions (pack_exec's row_at_once; no block float has 16-bit datums), 16-bit cells to
     * 16-bit outputs on a little-endian host (row16), nothing masked at any tile row position, no
     * L1 accumulation (gather). */
    s->light = FMT_HOST_LE && !s->stages.active && s->ds == 0xFFFF && !c.read_32b && s->out_bytes == 2 &&
               s->edge_full && !s->acc;
    /* The thread's ADDR_MOD_PACK sections (ThreadConfig: the key's thdcfg_gen covers them, and none
     * is a tile's word) that only increment. */
    s->adc_plain = 0;
    for (unsigned i = 0; i < 4; i++)
        s->adc_plain |= (uint8_t)(pack_adc_plain(x->thcfg[ST_TW_ADDR_MOD_PACK_SEC0_YsrcIncr + i]) << i);
    return true;
}

/* Where the packer's setup's key is near thread t's (dp_key_near_at: only a tile's words written
 * since, of which the setup reads the two pack_setup_tile reads), those read again and the key
 * made current: true. */
static bool pack_setup_near(dp_t *dp, const cp_state_t *st, unsigned t) {
    if (!dp_key_near_at(dp, st, t, DP_KEY_PACK, 0)) return false;
    /* (The bank is the setup's: the StateID is not a tile's word.) */
    pack_setup_tile(&(dp_ctx_t){.cfg = st->cfg[st_state_id(st, t)]}, &dp->pack.setup);
    dp_key_renew(dp, st, t, DP_KEY_PACK);
    return true;
}

/* This PACR's setup: the packer's copy while its key is this PACR's (dp_key_hit) or near it
 * (pack_setup_near), else decoded anew and kept (dp_key_set); NULL after a refusal. */
static const pack_setup_t *pack_setup_of(dp_ctx_t *x) {
    packer_t *p = &x->dp->pack;
    if (dp_key_hit(x, DP_KEY_PACK, 0) || pack_setup_near(x->dp, x->st, x->t)) {
        p->acc = p->setup.acc;
        if (p->acc) p->acc_fmt = p->setup.c.out_fmt;
        return &p->setup;
    }
    pack_setup_t s;
    dp_key_drop(x, DP_KEY_PACK); /* (nothing kept after a refusal) */
    if (!pack_setup(x, &s)) return NULL;
    p->setup = s;
    dp_key_set(x, DP_KEY_PACK, 0);
    return &p->setup;
}

/* The input address generator's Dst address (packer 0; ADC adc of the PACR's thread): the datum
 * address within Dst's 16 x 1024 (its row: >> 4, its column: & 15). */
static inline uint32_t pack_in_addr(const pack_setup_t *cs, const adc_t *adc) {
    const adc_ch_t *a0 = &adc->ch[0];
    uint32_t addr =
        cs->base0 + a0->x * cs->xstride0 + a0->y * cs->ystride0 + a0->z * cs->zstride0 + a0->w * cs->wstride0;
    addr = ((addr >> cs->bpd_log2) & ~cs->xmask) + (a0->x & cs->xmask);
    return (addr + (cs->dest_offset << 4)) & 0x3FFF;
}

/* The output address generator: a fresh address after reset, Last or Flush (BH: YZW in bytes). */
static inline void pack_out_addr(packer_t *p, const pack_setup_t *cs, const adc_ch_t *a1) {
    if (!p->needs_new_addr) return;
    uint32_t o = cs->dest;
    uint32_t yzw = cs->base1 + a1->y * cs->ystride1 + a1->z * cs->zstride1 + a1->w * cs->wstride1;
    o += yzw >> 4;
    /* Out formats under 16 bits (BFP*, FP8, INT8) have an exponent section first; only the
     * block floats write to it. */
    if (cs->c.out_fmt & 2) {
        if (p->exp_needs_new_addr) {
            p->exp_addr = (o & 0x1FFFF) << 4;
            p->exp_needs_new_addr = false;
        }
        o += cs->exp_section;
    }
    p->data_addr = (o & 0x1FFFF) << 4; /* bit 31 of L1_Dest_addr (tt-llk sets it) falls out here */
    p->needs_new_addr = false;
}

/* A channel's Y: cleared (its CR copy too), or Incr added to the CR copy (both set), or to Y itself
 * (13 bits); its Z: cleared (and the copy), or Incr added. */
static inline void pack_y_step(adc_ch_t *ch, bool clear, bool cr, unsigned incr) {
    if (clear)
        ch->y = ch->y_cr = 0;
    else if (cr)
        ch->y = ch->y_cr = (uint16_t)((ch->y_cr + incr) & 0x1FFF);
    else
        ch->y = (uint16_t)((ch->y + incr) & 0x1FFF);
}
static inline void pack_z_step(adc_ch_t *ch, bool clear, unsigned incr) {
    if (clear)
        ch->z = ch->z_cr = 0;
    else
        ch->z = (uint8_t)(ch->z + incr);
}
/* ADC updates of ADDR_MOD_PACK[AddrMode] (InputAddressGenerator.md, OutputAddressGenerator.md), the
 * section's ThreadConfig word am: channel 0's Ysrc and Zsrc, channel 1's Ydst and Zdst. A
 * section's fields are one ThreadConfig word, read once (PAF): gcc would otherwise read it again
 * after each counter write, which it cannot tell from ThreadConfig. */
static inline void pack_adc_step(adc_t *adc, uint32_t am) {
#define PAF(name) ((am >> ST_TS_ADDR_MOD_PACK_SEC0_##name) & st_field_mask(ST_TN_ADDR_MOD_PACK_SEC0_##name))
    pack_y_step(&adc->ch[0], PAF(YsrcClear), PAF(YsrcCR), PAF(YsrcIncr));
    pack_z_step(&adc->ch[0], PAF(ZsrcClear), PAF(ZsrcIncr));
    pack_y_step(&adc->ch[1], PAF(YdstClear), PAF(YdstCR), PAF(YdstIncr));
    pack_z_step(&adc->ch[1], PAF(ZdstClear), PAF(ZdstIncr));
}
/* Whether section word am asks for increments alone (no Clear or CR field): then pack_adc_incr does
 * what pack_adc_step does. Decided once a setup, for each of the four sections (pack_setup_t.adc_plain). */
static inline bool pack_adc_plain(uint32_t am) {
    return !(PAF(YsrcClear) | PAF(YsrcCR) | PAF(ZsrcClear) | PAF(YdstClear) | PAF(YdstCR) | PAF(ZdstClear));
}
static inline void pack_adc_incr(adc_t *adc, uint32_t am) {
    adc->ch[0].y = (uint16_t)((adc->ch[0].y + PAF(YsrcIncr)) & 0x1FFF);
    adc->ch[0].z = (uint8_t)(adc->ch[0].z + PAF(ZsrcIncr));
    adc->ch[1].y = (uint16_t)((adc->ch[1].y + PAF(YdstIncr)) & 0x1FFF);
    adc->ch[1].z = (uint8_t)(adc->ch[1].z + PAF(ZdstIncr));
}
#undef PAF
_Static_assert((int)ST_TW_ADDR_MOD_PACK_SEC0_YsrcIncr == (int)ST_TW_ADDR_MOD_PACK_SEC0_ZdstClear &&
                   (int)ST_TT_ADDR_MOD_PACK_SEC0_YsrcIncr == 16 && (int)ST_TT_ADDR_MOD_PACK_SEC0_ZdstClear == 16,
               "one ThreadConfig word per ADDR_MOD_PACK section");

static void pack_exec(dp_ctx_t *x);
/* The tile row position steps once a row of an enabled interface and wraps only when it lands on
 * pack_reads_per_xy_plane (BH PACR.md). */
static inline void tile_pos_step(packer_t *p, unsigned per_plane) {
    p->tile_pos = (uint8_t)(p->tile_pos + 1);
    if (p->tile_pos == per_plane) p->tile_pos = 0;
}
/* Four rows' steps at once (a light PACR's): the sum where none of them lands on per_plane, 0
 * where the fourth does and none before (per_plane and the position are 8 bits: the sum below 256
 * there), else step by step. */
static inline void tile_pos_step4(packer_t *p, unsigned per_plane) {
    unsigned to = p->tile_pos + 4u;
    if (to < per_plane) {
        p->tile_pos = (uint8_t)to;
    } else if (to == per_plane) {
        p->tile_pos = 0;
    } else {
        for (unsigned i = 0; i < 4; i++)
            tile_pos_step(p, per_plane);
    }
}
void dp_pack_exec(dp_ctx_t *x) {
    pack_exec(x);
    if (dp_env(x)->l1_written) written_flush(x);
}

static void pack_exec(dp_ctx_t *x) {
    uint32_t w = x->word;
    dp_t *dp = x->dp;
    packer_t *p = &dp->pack;
    if (TT_OPCODE(w) != TT_OPC_PACR) return dp_fail(x, CP_ERR_UNIMPLEMENTED, "PACR_SETREG is not modelled");
    bool last = TT_PACR_LAST(w), flush = TT_PACR_FLUSH(w), zero = TT_PACR_ZEROWRITE(w);
    /* BH PACR.md: Concat only matters with compression (refused below) or through RowPadZero. */
    if (TT_PACR_ROWPADZERO(w) || TT_PACR_DSTACCESSMODE(w) || TT_PACR_CTXTCTRL(w) || TT_PACR_ADDRCNTCONTEXT(w) ||
        TT_PACR_CFGCONTEXT(w))
        return dp_fail(x, CP_ERR_UNSPECIFIED,
                       "PACR with RowPadZero, DstAccessMode, CtxtCtrl, AddrCntContext or CfgContext "
                       "(BH PACR.md: not yet documented)");
    if (TT_PACR_OVRDTHREADID(w)) return dp_fail(x, CP_ERR_UNIMPLEMENTED, "PACR with OvrdThreadId");
    const pack_setup_t *cs = pack_setup_of(x);
    if (!cs) return;
    const fmt_pack_mode_t c = cs->c;
    const pack_stages_t stages = cs->stages;
    unsigned out_bytes = cs->out_bytes;
    bool bfp = cs->bfp, edge_mode = cs->edge_mode;
    uint32_t neg_inf = cs->neg_inf;

    /* Input address generator (packer 0; ADC of the current thread). */
    adc_t *adc = &dp->adc[x->t][ADC_PACK];
    uint32_t n = flush ? 0 : adc->ch[1].x - adc->ch[0].x + 1;
    uint32_t addr = pack_in_addr(cs, adc);
    unsigned start_row = addr >> 4, col0 = addr & 15;
    if (n && col0 + n > 16)
        return dp_fail(x, CP_ERR_UNIMPLEMENTED,
                       "PACR with an ADC X range (%u datums from column %u) beyond one Dst row", n, col0);
    uint16_t ds = cs->ds;
    /* A block is one row's 16 datums (ttsim requires whole blocks per PACR too). */
    if (bfp && n && (n != 16 || ds != 0xFFFF))
        return dp_fail(x, CP_ERR_UNIMPLEMENTED, "PACR to %s with %u datums a row%s (blocks of 16 across rows)",
                       fmt_name(c.out_fmt), n, ds != 0xFFFF ? " and downsampling" : "");

    pack_out_addr(p, cs, &adc->ch[1]);

    /* The read interfaces, downsampling and edge masks (BH PACR.md, Downsampling.md, EdgeMasking.md). */
    unsigned sel = TT_PACR_READINTFSEL(w) ? TT_PACR_READINTFSEL(w) : 15;
    if ((sel << (start_row & 3)) > 15)
        return dp_fail(x, CP_ERR_UNDEFINED, "PACR ReadIntfSel 0x%x from Dst row %u leaves its group of four", sel,
                       start_row);
    unsigned per_plane = cs->per_plane;
    /* A whole row of 16 with nothing between the conversions and every datum kept goes through
     * fmt_pack_row and out at once (the same rules; test_dp_fast.c compares the two paths). */
    bool row_at_once = !x->dp->reference && n == FMT_ROW && !stages.active && !bfp && !zero && ds == 0xFFFF;
    bool row16 = FMT_HOST_LE && !c.read_32b && out_bytes == 2;
    /* Such rows of 16-bit cells to 16-bit outputs are gathered and go out together, before any
     * other row's bytes and at the end: the same bytes to the same places in the same order, one
     * write of L1 instead of one a row. Only where none of this PACR's writes can fail (no L1
     * accumulation, the data stream's reach within L1), so that no row after a failed one is
     * converted and counted (tile_pos) that the row-by-row way would not have. */
    bool gather = row_at_once && row16 && !p->acc && (uint64_t)p->data_addr + PACR_DATA_REACH <= dp_env(x)->l1_size;
    uint16_t rows16[4][FMT_ROW];
    unsigned n16 = 0;
    /* The group's four rows (ReadIntfSel 0 or 15, from the group's first row), each gathered as below
     * (no edge mask at any position, every row valid): the four are one block of consecutive
     * physical rows (dp_dst_block4), converted in one call (fmt_pack_rows16, the same rule) and
     * out as one run, the tile row position stepped four times; the loop then has no row to do
     * and stops at once (it ends after the last row ReadIntfSel selects). With the output buffer
     * empty, the block is converted straight into L1, where put_rows16's one copy would have put
     * it (emit: gather means inside L1, no accumulation, not the reference path).
     * test_dp_fast.c's test_twin_pack compares it with the reference path, test_pack.c's
     * test_tile_pos_rows_at_once the tile row position it leaves. */
    if (gather && sel == 15 && cs->edge_full) {
        dp_dst_row_t b = dp_dst_block4(x, start_row, false);
        if (b.valid[0] && b.valid[1] && b.valid[2] && b.valid[3]) {
            if (!p->buf_n) {
                fmt_pack_rows16(&c, b.hi, (fmt_cell16_t *)(dp_env(x)->l1 + p->data_addr), 4);
                emitted(x, sizeof rows16);
            } else {
                fmt_pack_rows16(&c, b.hi, rows16[0], 4);
                put_rows16(x, rows16, 4);
            }
            for (unsigned i = 0; i < 4; i++)
                tile_pos_step(p, per_plane);
            sel = 0;
        }
    }
    for (unsigned i = 0; sel >> i && !dp_failed(x); i++) {
        if (!(sel & (1u << i))) continue;
        unsigned row = ((start_row & ~3u) | i) & 1023;
        uint16_t edge = cs->edge[p->tile_pos & 15];
        uint16_t dsm = ds;
        /* The row's physical Dst row and whether it holds data: ZEROACC'd rows read as zero
         * (ZEROACC.md); Dst32b consults the first physical row's valid bit (Dst.md). */
        dp_dst_row_t dr = dp_dst_row(x, row, c.read_32b);
        bool valid = *dr.valid;
        uint32_t masked = zero ? 0 : edge_mode ? neg_inf : 0;
        uint16_t block[FMT_BFP_BLOCK];
        unsigned todo = n; /* datums left for the datum-by-datum loop */
        bool gathered = gather && edge == 0xFFFF && valid;
        if (!gathered && n16) {
            put_rows16(x, rows16, n16);
            n16 = 0;
        }
        if (gathered) {
            fmt_pack_row16(&c, dr.hi, rows16[n16++]);
            todo = 0;
        } else if (row_at_once && edge == 0xFFFF && valid && row16) {
            put_row16(x, &c, dr.hi);
            todo = 0;
        } else if (row_at_once && edge == 0xFFFF) {
            uint32_t d[FMT_ROW], v[FMT_ROW];
            if (valid) {
                dp_dst_row_read(dr, d);
                fmt_pack_row(&c, d, v);
            } else {
                uint32_t undef = fmt_pack_late(&c, 0);
                for (unsigned k = 0; k < FMT_ROW; k++)
                    v[k] = undef;
            }
            put_row(x, v, out_bytes);
            todo = 0;
        }
        for (unsigned k = 0; k < todo; k++, dsm = (uint16_t)((dsm << 15) | (dsm >> 1))) {
            unsigned col = col0 + k;
            if (!(dsm & 1)) continue;
            uint32_t v = masked;
            if (!zero && (edge >> col) & 1) {
                v = 0;
                if (valid) v = fmt_pack_early(&c, dp_dst_row_get(dr, col));
            }
            if (stages.active) v = pack_stages_apply(&stages, v);
            v = fmt_pack_late(&c, v);
            if (bfp) {
                block[k] = (uint16_t)v;
                continue;
            }
            if (out_bytes == 2 && p->buf_n <= 14) { /* the common case: room for the datum */
                p->buf[p->buf_n++] = (uint8_t)v;
                p->buf[p->buf_n++] = (uint8_t)(v >> 8);
                if (p->buf_n == 16) flush_buf(x);
            } else {
                put_bytes(x, v, out_bytes);
            }
        }
        if (bfp && n) put_block(x, c.out_fmt, block);
        tile_pos_step(p, per_plane);
    }
    if (n16) put_rows16(x, rows16, n16);
    if (dp_failed(x)) return;
    if (last || flush) {
        flush_buf(x);
        flush_ebuf(x);
        p->needs_new_addr = true;
        p->exp_needs_new_addr = true;
    }

    pack_adc_step(adc, x->thcfg[ST_TW_ADDR_MOD_PACK_SEC0_YsrcIncr + TT_PACR_ADDRMODE(w)]);
}

/* The fields the light way takes only as zeros: CfgContext, RowPadZero, DstAccessMode,
 * AddrCntContext, ZeroWrite, OvrdThreadId, CtxtCtrl, Flush (one test: gcc does not join the field
 * macros' tests into one). */
#define PACR_LIGHT_ZEROS                                                                                               \
    (TT_OP_PACR(7, 7, 1, 0, 3, 1, 0, 1, 0, 3, 1, 0) - TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

/* PACR's light way (dp_internal.h dp_pack_light): before dp_exec makes a context, a PACR whose
 * setup is kept (its key this PACR's, or near it: pack_setup_near) and allows it (pack_setup_t.light), whose word reads
 * all four rows of a group (ReadIntfSel 0 or 15) without ZeroWrite, Flush or any field pack_exec refuses, and whose
 * counters give whole rows (an X range of 16 from column 0, a group's first row): what pack_exec does for it when the
 * four rows are valid, the output buffer empty (and, for Last, the exponent stream's) and the four rows' 128 bytes
 * inside L1, done here with the same helpers: the four rows converted straight into L1 (pack_exec's gathered block,
 * which pack_exec writes row by row where its data stream's reach is past L1's end: the same bytes, one range
 * reported). Any other case returns false before anything pack_exec would not do first itself (the output address made
 * fresh: pack_out_addr, which pack_exec then finds done), and pack_exec runs it. Nothing here can fail. Not while
 * SFPLOADMACRO has anything scheduled (dp_exec's catch-up); under dp_set_reference no setup is kept (dp_key_set), so
 * the key misses. */
bool dp_pack_light(dp_t *dp, const cp_insn_t *in) {
    uint32_t w = in->word;
    packer_t *p = &dp->pack;
    const pack_setup_t *cs = &p->setup;
    unsigned t = in->thread;
    if (TT_OPCODE(w) != TT_OPC_PACR || (w & PACR_LIGHT_ZEROS) || ((TT_PACR_READINTFSEL(w) + 1) & 14) || dp->sched.n ||
        !cs->light || !(dp_key_hit_at(dp, in->st, t, DP_KEY_PACK, 0) || pack_setup_near(dp, in->st, t)))
        return false;
    adc_t *adc = &dp->adc[t][ADC_PACK];
    if (adc->ch[1].x - adc->ch[0].x + 1 != FMT_ROW) return false;
    uint32_t addr = pack_in_addr(cs, adc);
    if (addr & 15) return false; /* (pack_exec refuses it: 16 datums from a column other than 0) */
    pack_out_addr(p, cs, &adc->ch[1]);
    const cp_env_t *env = in->env;
    unsigned start_row = addr >> 4;
    bool last = TT_PACR_LAST(w);
    uint32_t at = p->data_addr, len = 4 * FMT_ROW * 2;
    if ((start_row & 3) || p->buf_n || (last && p->ebuf_n) || (uint64_t)at + len > env->l1_size) return false;
    dp_dst_row_t b = dp_dst_row_of(&dp->dst, cs->remap, false, start_row, false);
    _Static_assert(sizeof(bool) == 1, "a row's valid bit a byte");
    uint32_t valid4; /* the four rows' valid bytes (bool: 0 or 1) as one word */
    memcpy(&valid4, b.valid, sizeof valid4);
    if (valid4 != 0x01010101u) return false;
    fmt_pack_rows16(&cs->c, b.hi, (fmt_cell16_t *)(env->l1 + at), 4);
    p->data_addr = at + len;
    tile_pos_step4(p, cs->per_plane);
    if (last) p->needs_new_addr = p->exp_needs_new_addr = true;
    unsigned am = TT_PACR_ADDRMODE(w);
    if ((cs->adc_plain >> am) & 1)
        pack_adc_incr(adc, in->st->thdcfg[t][ST_TW_ADDR_MOD_PACK_SEC0_YsrcIncr + am]);
    else
        pack_adc_step(adc, in->st->thdcfg[t][ST_TW_ADDR_MOD_PACK_SEC0_YsrcIncr + am]);
    if (env->l1_written) env->l1_written(env->ctx, at, len);
    p->light_runs++;
    return true;
}
