/* coproc/pack.c — the packer's values: PACR (Dst -> L1).
 *
 * Blackhole has one packer with four Dst read interfaces (BH PACR.md); the pipeline is
 * Wormhole's, packer 0 of it (Packers/InputAddressGenerator.md, EdgeMasking.md, Downsampling.md,
 * FormatConversion.md, OutputAddressGenerator.md), configured by the SEC0 fields.
 * Modelled: Dst as the source (16- and 32-bit reads), ReadIntfSel, the ADC X range within a row,
 * ZeroWrite, Flush and Last, edge masks with row-set mapping, downsampling masks, the early format
 * conversion for BF16, FP16, FP32 and TF32 intermediates and the late one to FP32, TF32, BF16 and
 * FP16 (from FP16) outputs, the 16-byte output buffer, and the ADC updates of ADDR_MOD_PACK.
 * Refused (DP_UNIMPLEMENTED, tier 2): L1 as the source, compression, block-float, 8-bit and
 * integer-8 outputs, ReLU, L1 accumulation, exponent thresholding, narrowing an 8-bit exponent to
 * FP16 and widening FP16 to FP32 (FloatBitPatterns.md's FP16 rules are tier 2), the fields PACR.md leaves undocumented
 * (Concat, RowPadZero, DstAccessMode, CtxtCtrl, AddrCntContext, CfgContext, OvrdThreadId), and edge-mask face sets.
 */
#include <string.h>

#include "coproc/dp_fmt_tmp.h"
#include "coproc/dp_internal.h"
#include "coproc/tt_fields.h"

static void flush_buf(dp_ctx_t *x) {
    packer_t *p = &x->dp->pack;
    if (!p->buf_n) return;
    memset(p->buf + p->buf_n, 0, 16 - p->buf_n); /* a forced flush pads with zeroes */
    if ((uint64_t)p->data_addr + 16 > x->mem->l1_size) {
        dp_fail(x, DP_UNDEFINED, "PACR writes L1 0x%x, beyond L1", p->data_addr);
    } else {
        memcpy(x->mem->l1 + p->data_addr, p->buf, 16);
        if (x->mem->l1_written) x->mem->l1_written(x->mem->ctx, p->data_addr, 16);
    }
    p->data_addr += 16;
    p->buf_n = 0;
}

static void put_bytes(dp_ctx_t *x, uint32_t v, unsigned n) {
    packer_t *p = &x->dp->pack;
    for (unsigned i = 0; i < n; i++) {
        p->buf[p->buf_n++] = (uint8_t)(v >> (8 * i));
        if (p->buf_n == 16) flush_buf(x);
    }
}

typedef struct {
    unsigned inter, out; /* intermediate (Dstacc) and output formats */
    bool read32, raw, round10;
} conv_t;

/* The early conversion (FormatConversion.md), Dst datum -> intermediate, as an FP32 bit pattern
 * for the float formats. Rounding is to nearest, ties away from zero; it flushes denormals to
 * zero, turns -0 into +0 and (8-bit exponent) NaN into infinity. */
static uint32_t early(const conv_t *c, uint32_t d, bool is32) {
    uint32_t f;
    if (is32) {
        f = tmp_dst_dec_fp32(d);
    } else if (c->inter == FMT_FP16) {
        uint16_t h = tmp_dst_dec_fp16((uint16_t)d);
        if (c->raw) return h; /* FP16 kept as its own bits */
        if (!(h & 0x7C00)) h = 0;
        return h;
    } else {
        f = (uint32_t)tmp_dst_dec_bf16((uint16_t)d) << 16;
    }
    if (c->raw) {
        if (c->inter == FMT_BF16) return f & 0xFFFF0000u; /* truncation */
        return f;
    }
    unsigned keep = c->inter == FMT_BF16 ? 7 : c->inter == FMT_TF32 || c->round10 ? 10 : 23;
    if (keep == 23) return f;
    uint32_t e = (f >> 23) & 0xFF;
    if (e == 0) return 0;                                 /* denormals and -0 to +0 */
    if (e == 255) return (f & 0x80000000u) | 0x7F800000u; /* NaN (and Inf) to infinity */
    uint32_t drop = 23 - keep, half = 1u << (drop - 1);
    uint32_t r = f + half; /* to nearest, ties away from zero: add half an ulp of magnitude */
    return r & ~((1u << drop) - 1);
}

void dp_pack_exec(dp_ctx_t *x) {
    uint32_t w = x->word;
    dp_t *dp = x->dp;
    packer_t *p = &dp->pack;
    if ((w >> 24) != TT_OPC_PACR) return dp_fail(x, DP_UNIMPLEMENTED, "PACR_SETREG is not modelled");
    bool last = TT_PACR_LAST(w), flush = TT_PACR_FLUSH(w), zero = TT_PACR_ZEROWRITE(w);
    if (TT_PACR_CONCAT(w) || TT_PACR_ROWPADZERO(w) || TT_PACR_DSTACCESSMODE(w) || TT_PACR_CTXTCTRL(w) ||
        TT_PACR_ADDRCNTCONTEXT(w) || TT_PACR_CFGCONTEXT(w) || TT_PACR_OVRDTHREADID(w))
        return dp_fail(x, DP_UNIMPLEMENTED,
                       "PACR with Concat, RowPadZero, DstAccessMode, CtxtCtrl, AddrCntContext, "
                       "CfgContext or OvrdThreadId (not documented for Blackhole)");
    if (CFG(x, THCON_SEC0_REG1_Source_interface_selection))
        return dp_fail(x, DP_UNIMPLEMENTED, "PACR with L1 as the source (Source_interface_selection)");
    if (!CFG(x, THCON_SEC0_REG1_Disable_zero_compress) || CFG(x, THCON_SEC0_REG1_All_pack_disable_zero_compress_ovrd))
        return dp_fail(x, DP_UNIMPLEMENTED, "PACR with compression (Disable_zero_compress = 0)");
    if (CFG(x, STACC_RELU_ApplyRelu) || CFG(x, THCON_SEC0_REG1_Pack_L1_Acc) || CFG(x, THCON_SEC0_REG1_Exp_threshold_en))
        return dp_fail(x, DP_UNIMPLEMENTED, "PACR with ReLU, L1 accumulation or exponent thresholding");
    if (CFG(x, PCK_EDGE_TILE_FACE_SET_SELECT_enable))
        return dp_fail(x, DP_UNIMPLEMENTED, "PACR with edge-mask face sets (PCK_EDGE_TILE_FACE_SET_SELECT_enable)");
    if (CFG(x, THCON_SEC0_REG1_Add_l1_dest_addr_offset))
        return dp_fail(x, DP_UNIMPLEMENTED, "PACR with Add_l1_dest_addr_offset");

    conv_t c = {.read32 = CFG(x, PCK_DEST_RD_CTRL_Read_32b_data),
                .raw = CFG(x, PCK_DEST_RD_CTRL_Read_int8),
                .round10 = CFG(x, PCK_DEST_RD_CTRL_Round_10b_mant),
                .out = CFG(x, THCON_SEC0_REG1_Out_data_format)};
    c.inter = CFG(x, ALU_FORMAT_SPEC_REG_Dstacc_override) ? CFG(x, ALU_FORMAT_SPEC_REG_Dstacc_val)
                                                          : CFG(x, ALU_FORMAT_SPEC_REG2_Dstacc);
    bool inter_ok = c.read32 ? (c.inter == FMT_FP32 || c.inter == FMT_TF32 || c.inter == FMT_BF16)
                             : (c.inter == FMT_BF16 || c.inter == FMT_FP16 || c.inter == FMT_TF32);
    bool inter16 = c.inter == FMT_FP16;
    bool out_ok = inter16 ? c.out == FMT_FP16 : (c.out == FMT_FP32 || c.out == FMT_TF32 || c.out == FMT_BF16);
    if (!inter_ok || !out_ok)
        return dp_fail(x, DP_UNIMPLEMENTED, "PACR from %s Dst through %s to %s", c.read32 ? "32-bit" : "16-bit",
                       fmt_name(c.inter), fmt_name(c.out));
    unsigned out_bytes = (c.out == FMT_FP32 || c.out == FMT_TF32) ? 4 : 2;

    /* Input address generator (packer 0; ADC of the current thread). */
    adc_t *adc = &dp->adc[x->t][ADC_PACK];
    const adc_ch_t *a0 = &adc->ch[0];
    unsigned in_fmt = CFG(x, THCON_SEC0_REG1_In_data_format), bpd, xmask;
    switch (in_fmt & 3) {
    case 0: bpd = 4, xmask = 3; break;
    case 1: bpd = 2, xmask = 7; break;
    default: bpd = 1, xmask = 15; break;
    }
    uint32_t addr = CFG(x, PCK0_ADDR_BASE_REG_0_Base) + a0->x * (CFG(x, PCK0_ADDR_CTRL_XY_REG_0_Xstride) & 15) +
                    a0->y * CFG(x, PCK0_ADDR_CTRL_XY_REG_0_Ystride) + a0->z * CFG(x, PCK0_ADDR_CTRL_ZW_REG_0_Zstride) +
                    a0->w * CFG(x, PCK0_ADDR_CTRL_ZW_REG_0_Wstride);
    uint32_t n = flush ? 0 : adc->ch[1].x - a0->x + 1;
    addr = ((addr / bpd) & ~xmask) + (a0->x & xmask);
    addr = (addr + (CFG_I(x, DEST_TARGET_REG_CFG_PACK_SEC0_Offset, 0) << 4)) & 0x3FFF;
    unsigned start_row = addr >> 4, col0 = addr & 15;
    if (n && col0 + n > 16)
        return dp_fail(x, DP_UNIMPLEMENTED, "PACR with an ADC X range (%u datums from column %u) beyond one Dst row", n,
                       col0);

    /* Output address generator: a fresh address after reset, Last or Flush (BH: YZW in bytes). */
    const adc_ch_t *a1 = &adc->ch[1];
    if (p->needs_new_addr) {
        uint32_t o = CFG(x, THCON_SEC0_REG1_L1_Dest_addr) + !CFG(x, THCON_SEC0_REG1_Sub_l1_tile_header_size);
        uint32_t yzw = CFG(x, PCK0_ADDR_BASE_REG_1_Base) + a1->y * CFG(x, PCK0_ADDR_CTRL_XY_REG_1_Ystride) +
                       a1->z * CFG(x, PCK0_ADDR_CTRL_ZW_REG_1_Zstride) +
                       a1->w * CFG(x, PCK0_ADDR_CTRL_ZW_REG_1_Wstride);
        o += yzw >> 4;
        p->data_addr = (o & 0x1FFFF) << 4; /* bit 31 of L1_Dest_addr (tt-llk sets it) falls out here */
        p->needs_new_addr = false;
    }

    /* The read interfaces, downsampling and edge masks (BH PACR.md, Downsampling.md, EdgeMasking.md). */
    unsigned sel = TT_PACR_READINTFSEL(w) ? TT_PACR_READINTFSEL(w) : 15;
    if ((sel << (start_row & 3)) > 15)
        return dp_fail(x, DP_UNDEFINED, "PACR ReadIntfSel 0x%x from Dst row %u leaves its group of four", sel,
                       start_row);
    uint16_t ds = (uint16_t)CFG(x, THCON_SEC0_REG1_Downsample_mask);
    if (!ds) ds = 0xFFFF;
    unsigned per_plane = CFG(x, PACK_COUNTERS_SEC0_pack_reads_per_xy_plane);
    unsigned rowset = CFG(x, PCK_EDGE_TILE_ROW_SET_SELECT_select) & 3;
    for (unsigned i = 0; i < 4 && !dp_failed(x); i++) {
        if (!(sel & (1u << i))) continue;
        unsigned row = ((start_row & ~3u) | i) & 1023;
        unsigned map = CFG_I(x, TILE_ROW_SET_MAPPING_0_row_set_mapping_0, rowset * 16 + (p->tile_pos & 15));
        uint16_t edge = (uint16_t)CFG_I(x, PCK_EDGE_OFFSET_SEC0_mask, map);
        uint16_t dsm = ds;
        for (unsigned k = 0; k < n; k++, dsm = (uint16_t)((dsm << 15) | (dsm >> 1))) {
            unsigned col = col0 + k;
            uint32_t v = 0;
            if (!(dsm & 1)) continue;
            if (!zero && (edge >> col) & 1) {
                bool is32 = c.read32;
                unsigned phys = is32 ? dp_adj32(x, row) : dp_adj16(x, row);
                if (!dp->dst.valid[phys])
                    v = 0; /* ZEROACC'd rows read as zero (ZEROACC.md) */
                else
                    v = early(&c, is32 ? dp_dst32_read(x, row, col) : dp_dst16_read(x, row, col), is32);
            } else if (!zero && CFG(x, PCK_EDGE_MODE_mode)) {
                v = inter16 ? 0xFC00u : 0xFF800000u; /* masked datums as -infinity */
            }
            /* The late conversion: truncation where the mantissa narrows (FormatConversion.md). */
            if (inter16) {
                /* FP16 -> FP16: as is. */
            } else if (c.out == FMT_BF16) {
                v >>= 16;
            } else if (c.out == FMT_TF32) {
                v &= 0xFFFFE000u;
            }
            put_bytes(x, v, out_bytes);
        }
        /* The tile row position steps per enabled interface and wraps only when it lands on
         * pack_reads_per_xy_plane (BH PACR.md). */
        p->tile_pos = (uint8_t)(p->tile_pos + 1);
        if (p->tile_pos == per_plane) p->tile_pos = 0;
    }
    if (dp_failed(x)) return;
    if (last || flush) {
        flush_buf(x);
        p->needs_new_addr = true;
    }

    /* ADC updates of ADDR_MOD_PACK[AddrMode] (InputAddressGenerator.md, OutputAddressGenerator.md). */
    unsigned m = TT_PACR_ADDRMODE(w);
    adc_ch_t *s0 = &adc->ch[0], *s1 = &adc->ch[1];
    if (THCFG_I(x, ADDR_MOD_PACK_SEC0_YsrcClear, m))
        s0->y = s0->y_cr = 0;
    else if (THCFG_I(x, ADDR_MOD_PACK_SEC0_YsrcCR, m))
        s0->y = s0->y_cr = (uint16_t)((s0->y_cr + THCFG_I(x, ADDR_MOD_PACK_SEC0_YsrcIncr, m)) & 0x1FFF);
    else
        s0->y = (uint16_t)((s0->y + THCFG_I(x, ADDR_MOD_PACK_SEC0_YsrcIncr, m)) & 0x1FFF);
    if (THCFG_I(x, ADDR_MOD_PACK_SEC0_ZsrcClear, m))
        s0->z = s0->z_cr = 0;
    else
        s0->z = (uint8_t)(s0->z + THCFG_I(x, ADDR_MOD_PACK_SEC0_ZsrcIncr, m));
    if (THCFG_I(x, ADDR_MOD_PACK_SEC0_YdstClear, m))
        s1->y = s1->y_cr = 0;
    else if (THCFG_I(x, ADDR_MOD_PACK_SEC0_YdstCR, m))
        s1->y = s1->y_cr = (uint16_t)((s1->y_cr + THCFG_I(x, ADDR_MOD_PACK_SEC0_YdstIncr, m)) & 0x1FFF);
    else
        s1->y = (uint16_t)((s1->y + THCFG_I(x, ADDR_MOD_PACK_SEC0_YdstIncr, m)) & 0x1FFF);
    if (THCFG_I(x, ADDR_MOD_PACK_SEC0_ZdstClear, m))
        s1->z = s1->z_cr = 0;
    else
        s1->z = (uint8_t)(s1->z + THCFG_I(x, ADDR_MOD_PACK_SEC0_ZdstIncr, m));
}
