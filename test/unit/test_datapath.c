/* test/unit/test_datapath.c — the datapath's instructions (coproc/datapath.c and its units), each
 * fed its instruction word directly through dp_exec, with the register files, counters and L1
 * checked bit for bit against values derived by hand from the ISA pages named in each test.
 * Unpacker instructions get both their events back to back (dp_exec, then dp_unpack_data), as for
 * an idle unpacker; test_unpacr_two_events separates them. The Src bank hand-over is the timing
 * model's; where a test needs it, it flips the bank pointers as coproc/timing.c does. The last test runs the add1
 * kernels' datapath words for a whole tile (../shared/docs/DATAPATH.md §1) and compares the packed tile with a
 * reference written from the ISA's arithmetic (the host's IEEE single-precision add, with the FTZ, NaN and truncation
 * rules of SFPLOAD/SFPADDI/SFPSTORE/the packer applied by hand). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coproc/datapath.h"
#include "coproc/tt_fields.h"
#include "dp_events.h"

#define L1_SIZE 0x180000u
/* IEEE single-precision bit patterns the SFPU tests use: 2.0, 8.0, 1/512. */
#define F32_2     (128u << 23)
#define F32_8     (130u << 23)
#define F32_1_512 (118u << 23)

typedef struct {
    dp_t *dp;
    cp_state_t st;
    cp_env_t env;
    cp_error_t err;
    uint8_t *l1;
    uint32_t written_lo, written_hi;
} fx_t;

static void on_written(void *ctx, uint32_t addr, uint32_t len) {
    fx_t *f = ctx;
    if (addr < f->written_lo) f->written_lo = addr;
    if (addr + len > f->written_hi) f->written_hi = addr + len;
}

static int setup(void **state) {
    fx_t *f = calloc(1, sizeof *f);
    f->dp = dp_create();
    f->l1 = calloc(1, L1_SIZE);
    st_reset(&f->st);
    f->env = (cp_env_t){.ctx = f, .l1 = f->l1, .l1_size = L1_SIZE, .l1_written = on_written};
    f->written_lo = UINT32_MAX;
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fx_t *f = *state;
    dp_destroy(f->dp);
    free(f->l1);
    free(f);
    return 0;
}

static cp_insn_t insn(fx_t *f, unsigned t, uint32_t w) { return dpt_insn(&f->st, &f->env, &f->err, t, w, 0); }

/* Run word as thread t's instruction at its datapath events (what coproc/timing.c does: dispatch,
 * and for an unpacker instruction its retire straight after, as from an idle unpacker). */
static cp_err_cat_t run(fx_t *f, unsigned t, uint32_t w) {
    if (dpt_events(f->dp, &f->st, &f->env, &f->err, t, w) != CP_ERR_NONE) assert_true(f->err.what[0] != 0);
    return f->err.cat;
}

static void ex(fx_t *f, unsigned t, uint32_t w) {
    if (run(f, t, w) != CP_ERR_NONE) fail_msg("0x%08x: %s", w, f->err.what);
}

static cp_err_cat_t ex_err(fx_t *f, unsigned t, uint32_t w) { return run(f, t, w); }

/* Config bits as a RISC-V store or RMWCIB would leave them (word, shift, width, value). */
static void cfgbits(fx_t *f, unsigned word, unsigned shift, unsigned width, uint32_t v) {
    uint32_t m = (width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1u) << shift;
    st_cfg_w(&f->st, 0, word, (f->st.cfg[0][word] & ~m) | ((v << shift) & m));
}

/* ---- ADCs and RWCs (ADCs.md, SETADC*.md, INCADC*.md, ADDRCR*.md, SETRWC.md, INCRWC.md) ------ */

static void test_adc(void **state) {
    fx_t *f = *state;
    /* SETADCXX CntSetMask=1 (unpacker 0), x_start 3, x_end 255 (word 0x5E23FC03). */
    ex(f, 0, 0x5E23FC03u);
    const adc_t *a = dp_adc(f->dp, 0, 0);
    assert_int_equal(a->ch[0].x, 3);
    assert_int_equal(a->ch[0].x_cr, 3);
    assert_int_equal(a->ch[1].x, 255);
    assert_int_equal(dp_adc(f->dp, 0, 1)->ch[0].x, 0); /* unpacker 1 untouched */
    /* SETADCXY packer (CntSetMask 4 = bit 23): X0=1 Y0=2 X1=3 Y1=4, all four enabled. */
    ex(f, 1, TT_OP_SETADCXY(4, 4, 3, 2, 1, 0xF));
    a = dp_adc(f->dp, 1, 2);
    assert_int_equal(a->ch[0].x, 1);
    assert_int_equal(a->ch[0].y, 2);
    assert_int_equal(a->ch[1].x, 3);
    assert_int_equal(a->ch[1].y, 4);
    /* INCADCXY adds without touching the _Cr shadows; ADDRCRXY adds to the shadow and copies. */
    ex(f, 1, TT_OP_INCADCXY(4, 0, 0, 1, 2)); /* X0 += 2, Y0 += 1 */
    assert_int_equal(a->ch[0].x, 3);
    assert_int_equal(a->ch[0].x_cr, 1);
    assert_int_equal(a->ch[0].y, 3);
    ex(f, 1, TT_OP_ADDRCRXY(4, 0, 0, 0, 5, 1)); /* X0_Cr += 5, X0 = X0_Cr (enable bit 0 only) */
    assert_int_equal(a->ch[0].x_cr, 6);
    assert_int_equal(a->ch[0].x, 6);
    assert_int_equal(a->ch[0].y, 3); /* Y0 not enabled */
    /* SETADCZW / INCADCZW on Z and W; ThreadOverride 2 writes thread 1's counters from thread 0. */
    ex(f, 0, TT_OP_SETADCZW(4, 2u << 3, 0, 7, 5, 3)); /* Z0 = 5, W0 = 7 */
    assert_int_equal(a->ch[0].z, 5);
    assert_int_equal(a->ch[0].w, 7);
    ex(f, 1, TT_OP_INCADCZW(4, 0, 0, 0, 1)); /* Z0 += 1 */
    assert_int_equal(a->ch[0].z, 6);
    /* SETADC: one counter; NewValue's top two bits are the thread override. */
    ex(f, 2, TT_OP_SETADC(1, 1, 1, 0x1234)); /* unp0 ch1 Y := 0x1234 */
    assert_int_equal(dp_adc(f->dp, 2, 0)->ch[1].y, 0x1234);
    /* NewValue's top two bits pick thread 0, and X takes all 18 bits of NewValue (SETADC.md:
     * "Ch.X = NewValue"). */
    ex(f, 2, TT_OP_SETADC(1, 0, 0, 1u << 16 | 9u));
    assert_int_equal(dp_adc(f->dp, 0, 0)->ch[0].x, 0x10009);
    assert_int_equal(dp_adc(f->dp, 2, 0)->ch[0].x, 0);
}

static void test_rwc(void **state) {
    fx_t *f = *state;
    /* SETRWC SrcA := 5, SrcB := 6, Dst := 9 (BitMask 7). */
    ex(f, 0, TT_OP_SETRWC(0, 0, 9, 6, 5, 7));
    const rwc_t *r = dp_rwc(f->dp, 0);
    assert_int_equal(r->srca, 5);
    assert_int_equal(r->srcb, 6);
    assert_int_equal(r->dst, 9);
    assert_int_equal(r->dst_cr, 9);
    /* INCRWC Dst += 2 (add1's 38008000): Dst_Cr stays. */
    ex(f, 0, 0x38008000u);
    assert_int_equal(r->dst, 11);
    assert_int_equal(r->dst_cr, 9);
    /* add1's 37120004: Dst := Dst_Cr + 8, twice: 17, then 25. */
    ex(f, 0, 0x37120004u);
    assert_int_equal(r->dst, 17);
    ex(f, 0, 0x37120004u);
    assert_int_equal(r->dst, 25);
    /* SETRWC with rwc_cr bit 3: Dst := current + value. */
    ex(f, 0, TT_OP_SETRWC(0, 8, 3, 0, 0, 0));
    assert_int_equal(r->dst, 28);
    /* Dst wraps at 10 bits. */
    ex(f, 0, TT_OP_SETRWC(0, 4, 0xF, 0, 0, 4)); /* Dst := Dst_Cr (28) + 15 = 43 */
    assert_int_equal(r->dst, 43);
    assert_int_equal(dp_rwc(f->dp, 1)->dst, 0); /* per thread */
}

/* ApplyAddrMod (RWCs.md; Blackhole: the 3-bit AddrMod indexes sections 0..7): MOVA2D with
 * AddrMod 5 applies ADDR_MOD_AB_SEC5 and ADDR_MOD_DST_SEC5. */
static void test_addr_mod(void **state) {
    fx_t *f = *state;
    st_thdcfg_w(&f->st, 0, 12 + 5, 3 | 2u << 8);   /* SrcA += 3, SrcB += 2 */
    st_thdcfg_w(&f->st, 0, 28 + 5, 16 | 1u << 13); /* Dst += 16, fidelity += 1 */
    ex(f, 0, TT_OP_MOVA2D(0, 0, 5, 0, 0));         /* MOVA2D one row, AddrMod 5 */
    const rwc_t *r = dp_rwc(f->dp, 0);
    assert_int_equal(r->srca, 3);
    assert_int_equal(r->srcb, 2);
    assert_int_equal(r->dst, 16);
    assert_int_equal(r->fidelity, 1);
    st_thdcfg_w(&f->st, 0, 12 + 6, 1u << 7 | 1u << 15); /* SEC6: clear SrcA and SrcB */
    st_thdcfg_w(&f->st, 0, 28 + 6, 4 | 1u << 10);       /* Dst_Cr += 4, Dst = Dst_Cr */
    ex(f, 0, TT_OP_MOVA2D(0, 0, 6, 0, 0));
    assert_int_equal(r->srca, 0);
    assert_int_equal(r->srcb, 0);
    assert_int_equal(r->dst, 4);
    assert_int_equal(r->dst_cr, 4);
    /* SFPLOAD does not step the fidelity phase. */
    st_thdcfg_w(&f->st, 0, 28 + 1, 1u << 13);
    ex(f, 0, TT_OP_SFPLOAD(0, 2, 1, 0)); /* SFPLOAD BF16, AddrMod 1 */
    assert_int_equal(r->fidelity, 1);
}

/* ---- unpackers (UNPACR_Regular.md, UNPACR_NOP pages) ------------------------------------------ */

static void put16(fx_t *f, uint32_t addr, uint16_t v) {
    f->l1[addr] = (uint8_t)v;
    f->l1[addr + 1] = (uint8_t)(v >> 8);
}
static uint16_t get16(const fx_t *f, uint32_t addr) { return (uint16_t)(f->l1[addr] | f->l1[addr + 1] << 8); }

/* Unpacker 0 as add1 configures it (DATAPATH.md §1.1), base address context 0 at L1 `base`. */
static void unpack_cfg_add1(fx_t *f, uint32_t base) {
    st_cfg_w(&f->st, 0, 57, 0x200);       /* UNP0_ADDR_CTRL_ZW_REG_1_Zstride */
    st_cfg_w(&f->st, 0, 59, 0x200);       /* UNP1_... */
    st_cfg_w(&f->st, 0, 64, 0x15);        /* TileDescriptor: BF16, uncompressed */
    st_cfg_w(&f->st, 0, 65, 0x00040001);  /* YDim 1, ZDim 4 */
    st_cfg_w(&f->st, 0, 112, 0x01000015); /* unpacker 1: BF16, XDim 256 */
    st_cfg_w(&f->st, 0, 113, 0x00040001);
    st_cfg_w(&f->st, 0, 72, 0x25); /* Out_data_format BF16, Throttle 2 */
    st_cfg_w(&f->st, 0, 120, 0x25);
    st_cfg_w(&f->st, 0, 73, 0x000F000F); /* contexts uncompressed, to Src */
    st_cfg_w(&f->st, 0, 121, 0x000F000F);
    st_cfg_w(&f->st, 0, 84, 0x00400040);      /* Dest_cntx0/1_address = 0x40 */
    st_cfg_w(&f->st, 0, 86, 0x01000100);      /* Tile_x_dim_cntx0/1 = 256 */
    st_cfg_w(&f->st, 0, 50, 0x100);           /* UNP0_ADD_DEST_ADDR_CNTR_add_dest_addr_cntr */
    st_thdcfg_w(&f->st, 0, 5, 4);             /* SRCA_SET_SetOvrdWithAddr */
    st_cfg_w(&f->st, 0, 76, (base >> 4) - 1); /* THCON_SEC0_REG3_Base_address */
    ex(f, 0, 0x5160000Bu);                    /* SETADCXY unpackers 0/1 := 0 */
    ex(f, 0, 0x5460000Fu);                    /* SETADCZW */
    ex(f, 0, 0x5E23FC00u);                    /* SETADCXX unpacker 0: X 0..255 */
    ex(f, 0, 0x5E43FC00u);                    /* unpacker 1 */
}

/* add1's UNPACR (420080C1): one 16x16 face of BF16 from L1 to SrcA rows 0..15 of the unpacker's
 * bank (DATAPATH.md §3.2: row = (dst + i) / 16 - 4 with dst = 0x40), ADC Z += 1, and the bank's
 * implied format recorded on the hand-over. BF16 in Src: sign | mantissa(7) 000 | exponent. */
static void test_unpacr_face(void **state) {
    fx_t *f = *state;
    unpack_cfg_add1(f, 0x20000);
    for (unsigned i = 0; i < 1024; i++)
        put16(f, 0x20000 + 2 * i, (uint16_t)(0x3F80 + i)); /* 4 faces */
    ex(f, 0, 0x420080C1u);
    const src_regs_t *a = dp_srca(f->dp);
    /* Datum i of face 0: bf16 0x3F80 + i. Src layout of bf16 b: (b & 0x8000) << 3 | (b & 0x7F) << 11 | (b >> 7) & 0xFF.
     */
    for (unsigned i = 0; i < 256; i++) {
        uint16_t b = (uint16_t)(0x3F80 + i);
        uint32_t want = (uint32_t)(b & 0x8000) << 3 | (uint32_t)(b & 0x7F) << 11 | ((b >> 7) & 0xFF);
        assert_int_equal(a->d[0][i / 16][i % 16], want);
    }
    assert_int_equal(a->d[0][16][0], 0); /* nothing past the face */
    assert_int_equal(dp_adc(f->dp, 0, 0)->ch[0].z, 1);
    assert_int_equal(a->implied_fmt[0], 5);
    /* The timing model flips the bank; the next UNPACR takes face 1 (Z = 1) into bank 1. */
    f->st.src.unp_bank[0] = 1;
    ex(f, 0, 0x420080C1u);
    uint16_t b = 0x3F80 + 256;
    assert_int_equal(a->d[1][0][0], (uint32_t)(b & 0x7F) << 11 | ((b >> 7) & 0xFF));
    assert_int_equal(dp_adc(f->dp, 0, 0)->ch[0].z, 2);
}

/* Which Src row each output row lands in (UNPACR_Regular.md; coproc/unpack.c src_row_of): SrcA
 * drops output rows 0..3; with SetOvrdWithAddr the address is taken as it is and wraps at 64;
 * without it rows 0..15 + SrcRow (the unpacker's SRCA_SET_Base << 4 from the last hand-over), and
 * a row beyond 15 is an error; SrcB takes row + SrcRow. */
static uint32_t src_bf16(uint16_t b) {
    return (uint32_t)(b & 0x8000) << 3 | (uint32_t)(b & 0x7F) << 11 | ((b >> 7) & 0xFF);
}
static void test_unpacr_src_rows(void **state) {
    fx_t *f = *state;
    unpack_cfg_add1(f, 0x20000);
    st_cfg_w(&f->st, 0, 124, (0x20000 >> 4) - 1); /* unpacker 1's Base_address */
    for (unsigned i = 0; i < 1024; i++)
        put16(f, 0x20000 + 2 * i, (uint16_t)(0x3F80 + i));
    const src_regs_t *a = dp_srca(f->dp), *b = dp_srcb(f->dp);
    st_cfg_w(&f->st, 0, 84, 0x00400400); /* Dest_cntx0_address 0x400: output row 64, SrcA row 60 */
    ex(f, 0, 0x420080C1u);               /* face 0, SetOvrdWithAddr on */
    assert_int_equal(a->d[0][60][0], src_bf16(0x3F80));
    assert_int_equal(a->d[0][63][15], src_bf16(0x3F80 + 63));
    assert_int_equal(a->d[0][0][0], src_bf16(0x3F80 + 64)); /* wrapped */
    assert_int_equal(a->d[0][11][15], src_bf16(0x3F80 + 255));
    st_thdcfg_w(&f->st, 0, 5, 2);        /* SetOvrdWithAddr off, SRCA_SET_Base 2 */
    st_cfg_w(&f->st, 0, 84, 0x00400040); /* output row 4: SrcA row 0 + SrcRow */
    ex(f, 0, 0x420080C1u);               /* face 1, SrcRow 0 (the last hand-over's Base 0); hands over */
    assert_int_equal(a->d[0][0][0], src_bf16(0x3F80 + 256));
    ex(f, 0, 0x420080C1u); /* face 2, SrcRow 32 */
    assert_int_equal(a->d[0][32][0], src_bf16(0x3F80 + 512));
    assert_int_equal(a->d[0][47][15], src_bf16(0x3F80 + 767));
    assert_int_equal(a->d[0][48][0], 0);
    st_thdcfg_w(&f->st, 0, 5, 4);        /* SetOvrdWithAddr on again */
    st_cfg_w(&f->st, 0, 84, 0x00400030); /* output row 3, dropped; rows 4..18 to SrcA rows 0..14 */
    ex(f, 0, 0x420080C1u);               /* face 3 */
    assert_int_equal(a->d[0][0][0], src_bf16(0x3F80 + 768 + 16));
    assert_int_equal(a->d[0][63][0], src_bf16(0x3F80 + 48)); /* as face 0 left it */
    st_thdcfg_w(&f->st, 0, 5, 2);
    /* SrcB: output row 0 is row 0 + SrcRow (SRCB_SET_Base 1: 16 after the first hand-over). */
    st_thdcfg_w(&f->st, 0, 6, 1);
    ex(f, 0, 0x420080C1u | 1u << 23);
    assert_int_equal(b->d[0][0][0], src_bf16(0x3F80));
    assert_int_equal(b->d[0][15][15], src_bf16(0x3F80 + 255));
    ex(f, 0, 0x420080C1u | 1u << 23);
    assert_int_equal(b->d[0][16][0], src_bf16(0x3F80 + 256));
    /* SrcA rows beyond 15 without SetOvrdWithAddr: output rows 5..20 reach row 16. */
    st_cfg_w(&f->st, 0, 84, 0x00400050);
    assert_int_equal(ex_err(f, 0, 0x420080C1u), CP_ERR_UNDEFINED);
}

/* Multi-context: context 1 takes THCON_SEC0_REG3_Base_cntx1_address (add1's odd tiles, through
 * UNPACK_MISC_CFG_CfgContextOffset_0 = 1). */
static void test_unpacr_context(void **state) {
    fx_t *f = *state;
    unpack_cfg_add1(f, 0x20000);
    st_cfg_w(&f->st, 0, 77, (0x20800 >> 4) - 1); /* Base_cntx1_address */
    st_thdcfg_w(&f->st, 0, 41, 1);               /* CfgContextOffset_0 = 1 */
    put16(f, 0x20000, 0x1111);
    put16(f, 0x20800, 0x4040); /* 3.0 */
    ex(f, 0, 0x420080C1u);
    assert_int_equal(dp_srca(f->dp)->d[0][0][0], (0x40u << 11) | 0x80); /* 0x4040: man 0x40, exp 0x80 */
}

/* The two events of UNPACR (UNPACR_Regular.md "Performance"): the address comes from the
 * configuration and counters at dispatch, the data goes into the bank the unpacker owns at retire.
 * add1 changes CfgContextOffset between two queued UNPACRs; the first must still read context 1. */
static void test_unpacr_two_events(void **state) {
    fx_t *f = *state;
    unpack_cfg_add1(f, 0x20000);
    st_cfg_w(&f->st, 0, 77, (0x20800 >> 4) - 1); /* Base_cntx1_address */
    st_thdcfg_w(&f->st, 0, 41, 1);               /* CfgContextOffset_0 = 1 */
    put16(f, 0x20000, 0x1111);
    put16(f, 0x20800, 0x4040); /* 3.0 */
    cp_insn_t a = insn(f, 0, 0x420080C1u), b = insn(f, 0, 0x420080C1u);
    dp_exec(f->dp, &a); /* dispatch: context 1, Z = 0 */
    assert_int_equal(dp_adc(f->dp, 0, 0)->ch[0].z, 1);
    st_thdcfg_w(&f->st, 0, 41, 0);                   /* SETC16: back to context 0 */
    dp_exec(f->dp, &b);                              /* dispatch: context 0, Z = 1 */
    assert_int_equal(dp_srca(f->dp)->d[0][0][0], 0); /* no data yet */
    dp_unpack_data(f->dp, &a);
    assert_int_equal(dp_srca(f->dp)->d[0][0][0], (0x40u << 11) | 0x80); /* context 1's 3.0 */
    f->st.src.unp_bank[0] = 1;                                          /* the hand-over between the two retires */
    put16(f, 0x20000 + 512, 0x3F80);                                    /* context 0, face Z = 1: 1.0 */
    dp_unpack_data(f->dp, &b);
    assert_int_equal(dp_srca(f->dp)->d[1][0][0], 0x7F);                 /* 1.0 into bank 1 */
    assert_int_equal(dp_srca(f->dp)->d[0][0][0], (0x40u << 11) | 0x80); /* bank 0 untouched */
    assert_int_equal(f->err.cat, CP_ERR_NONE);
}

/* UNPACR into Dst (Unpack_If_Sel) in 16-bit BF16: Dst cells hold sign | mantissa << 8 | exponent. */
static void test_unpacr_to_dst(void **state) {
    fx_t *f = *state;
    st_cfg_w(&f->st, 0, 64, 0x00100015); /* BF16, uncompressed, XDim 16 */
    st_cfg_w(&f->st, 0, 65, 0x00010001);
    st_cfg_w(&f->st, 0, 72, 0x5 | 1u << 11); /* Out BF16, Unpack_If_Sel */
    st_cfg_w(&f->st, 0, 76, (0x1000 >> 4) - 1);
    st_cfg_w(&f->st, 0, 49, 0x40 * 2);  /* UNP0_ADDR_BASE_REG_1_Base in bytes: datum 0x40 = row 4 - 4 = row 0 */
    ex(f, 0, TT_OP_SETADCXX(1, 15, 0)); /* X 0..15 */
    put16(f, 0x1000, 0xC0A0);           /* -5.0 */
    put16(f, 0x1002, 0x0001);           /* a denormal passes unchanged */
    ex(f, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    assert_int_equal(dp_dst(f->dp)->bits[0][0], 0x8000 | 0x20 << 8 | 0x81);
    assert_int_equal(dp_dst(f->dp)->bits[0][1], 0x0100);
}

/* UNPACR_NOP 43800101 (add1): zero unpacker 1's bank and hand it over (the format recorded). */
static void test_unpacr_nop(void **state) {
    fx_t *f = *state;
    dp_src_rows_w(dp_srcb_mut(f->dp), 0)[5][5] = 0x12345;
    st_cfg_w(&f->st, 0, 120, 5);
    ex(f, 0, 0x43800101u);
    assert_int_equal(dp_srcb(f->dp)->d[0][5][5], 0);
    assert_int_equal(dp_srcb(f->dp)->implied_fmt[0], 5);
    /* Src_ClrVal_Ctrl = 1 on unpacker 0 fills SrcA with all ones (negative infinity to the FPU). */
    ex(f, 0, 0x43000005u);
    assert_int_equal(dp_srca(f->dp)->d[0][63][15], 0x7FFFF);
    /* Modes ttemu does not model are refused, not ignored. */
    assert_int_equal(ex_err(f, 0, 0x43000002u), CP_ERR_UNSPECIFIED); /* Unpack_Pop 2: no page */
    /* Each job slot of unpacker 0 held an UNPACR's job first (its UNPACR_NOP job sets only what its
     * retire reads, coproc/unpack.c): every UNPACR_NOP still clears, to zeros, and hands over. */
    unpack_cfg_add1(f, 0x20000);
    for (unsigned i = 0; i < 9 * 256; i++) /* nine faces (each UNPACR takes the next: Z += 1) */
        put16(f, 0x20000 + 2 * i, 0x3F80);
    for (unsigned k = 0; k < 9; k++) /* more than the unpacker's slots (UNP_JOBS, 8) */
        ex(f, 0, 0x420080C1u);
    assert_int_equal(dp_srca(f->dp)->d[0][3][3], src_bf16(0x3F80));
    for (unsigned k = 0; k < 9; k++) {
        dp_src_rows_w(dp_srca_mut(f->dp), 0)[3][3] = 0x12345;
        dp_srca_mut(f->dp)->implied_fmt[0] = 0;
        ex(f, 0, 0x43000101u); /* Unpack_Pop 1, Set_Dvalid */
        assert_int_equal(dp_srca(f->dp)->d[0][3][3], 0);
        assert_int_equal(dp_srca(f->dp)->implied_fmt[0], 5);
    }
}

static void test_unpacr_refused(void **state) {
    fx_t *f = *state;
    unpack_cfg_add1(f, 0x20000);
    st_cfg_w(&f->st, 0, 64, 0x15);
    assert_int_equal(ex_err(f, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0)),
                     CP_ERR_UNIMPLEMENTED); /* RowSearch */
    st_cfg_w(&f->st, 0, 72, 0x0);           /* BF16 in, FP32 out: undefined (UNPACR_Regular.md) */
    assert_int_equal(ex_err(f, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), CP_ERR_UNDEFINED);
}

/* ---- Matrix Unit moves and clears -------------------------------------------------------------- */

/* MOVA2D 8 rows (add1's 1200A000 with ADDR_MOD 2 = SrcA +8, Dst +8), BF16 implied format: Dst
 * gets sign | top 7 mantissa bits | exponent; with Zero_Flag_disabled_src = 0 an exponent of 0
 * becomes 0 (MOVA2D.md). */
static void test_mova2d(void **state) {
    fx_t *f = *state;
    src_regs_t *a = dp_srca_mut(f->dp);
    a->implied_fmt[0] = 5;
    dp_src_rows_w(a, 0)[0][0] = (0x40u << 11) | 0x80;          /* 3.0 */
    dp_src_rows_w(a, 0)[7][15] = 1u << 18 | 0x7F << 11 | 0xFE; /* -max bf16 */
    dp_src_rows_w(a, 0)[1][1] = 0x7F << 11;                    /* exponent 0: flushed */
    st_thdcfg_w(&f->st, 0, 12 + 2, 8);
    st_thdcfg_w(&f->st, 0, 28 + 2, 8);
    ex(f, 0, 0x1200A000u);
    const dst_regs_t *d = dp_dst(f->dp);
    assert_int_equal(d->bits[0][0], 0x40 << 8 | 0x80);
    assert_int_equal(d->bits[7][15], 0x8000 | 0x7F << 8 | 0xFE);
    assert_int_equal(d->bits[1][1], 0);
    assert_int_equal(dp_rwc(f->dp, 0)->srca, 8);
    assert_int_equal(dp_rwc(f->dp, 0)->dst, 8);
    /* With the flag disabled, the denormal-like datum passes. */
    st_cfg_w(&f->st, 0, 2, 1);
    ex(f, 0, TT_OP_MOVA2D(0, 1, 0, 0, 0)); /* one row, src row 1 (+ SrcA RWC 8 = 9): empty; then row 1 */
    dp_src_rows_w(a, 0)[1][1] = 0x7F << 11;
    ex(f, 0, 0x37000003u);                   /* SETRWC SrcA, SrcB := 0 */
    ex(f, 0, TT_OP_MOVA2D(0, 1, 0, 0, 100)); /* one row: src 1 -> dst 100 + Dst RWC (8) */
    assert_int_equal(d->bits[108][1], 0x7F << 8);
    /* The math offset (ThreadConfig DEST_TARGET_REG_CFG_MATH_Offset) moves the destination. */
    st_thdcfg_w(&f->st, 0, 1, 0x200);
    ex(f, 0, 0x37000004u); /* Dst := 0 */
    ex(f, 0, 0x1200A000u);
    assert_int_equal(d->bits[0x200][0], 0x40 << 8 | 0x80);
}

/* MOVB2D 4 rows and row broadcast; MOVD2A / MOVD2B back; MOVB2A (MOVB2D.md, MOVD2A.md, MOVD2B.md,
 * MOVB2A.md). */
static void test_moves(void **state) {
    fx_t *f = *state;
    src_regs_t *b = dp_srcb_mut(f->dp);
    st_cfg_w(&f->st, 0, 1, 5u << 17); /* ALU_FORMAT_SPEC_REG0_SrcA = BF16 (MOVB2D reads the configured format) */
    for (unsigned r = 0; r < 4; r++)
        dp_src_rows_w(b, 0)[r][3] = (r + 1) << 11 | 0x7F; /* 1.x values */
    ex(f, 0, TT_OP_MOVB2D(0, 0, 0, 4, 8));                /* MOVB2D 4 rows to Dst row 8 */
    const dst_regs_t *d = dp_dst(f->dp);
    for (unsigned r = 0; r < 4; r++)
        assert_int_equal(d->bits[8 + r][3], (r + 1) << 8 | 0x7F);
    ex(f, 0, TT_OP_MOVB2D(0, 2, 0, 2, 16)); /* broadcast SrcB row 2 to Dst 16..23 */
    for (unsigned r = 16; r < 24; r++)
        assert_int_equal(d->bits[r][3], 3u << 8 | 0x7F);
    ex(f, 0, TT_OP_MOVB2D(0, 0, 0, 1, 40)); /* column 0 broadcast: row 0 col 0 (zero) */
    assert_int_equal(d->bits[40][3], 0);
    /* MOVD2A 4 rows Dst 8..11 -> SrcA rows 4..7 (implied SrcA format BF16). */
    dp_srca_mut(f->dp)->implied_fmt[0] = 5;
    ex(f, 0, TT_OP_MOVD2A(0, 4, 0, 2, 8));
    for (unsigned r = 0; r < 4; r++)
        assert_int_equal(dp_srca(f->dp)->d[0][4 + r][3], (r + 1) << 11 | 0x7F);
    /* MOVD2B one row Dst 9 -> SrcB row 40 (implied SrcB format BF16). */
    b->implied_fmt[0] = 5;
    ex(f, 0, TT_OP_MOVD2B(0, 40, 0, 0, 9));
    assert_int_equal(b->d[0][40][3], 2u << 11 | 0x7F);
    /* MOVB2A SrcB row 40 -> SrcA row 50. */
    ex(f, 0, TT_OP_MOVB2A(50, 0, 0, 40));
    assert_int_equal(dp_srca(f->dp)->d[0][50][3], 2u << 11 | 0x7F);
}

/* ZEROACC (ZEROACC.md): one row, 16 rows, half, all; Revert (clear_zero_flags) sets instead. */
static void test_zeroacc(void **state) {
    fx_t *f = *state;
    const dst_regs_t *d = dp_dst(f->dp);
    assert_true(d->valid[0] && d->valid[1023]); /* power-on: valid (Dst.md) */
    ex(f, 0, TT_OP_ZEROACC(0, 0, 0, 0, 5));     /* one row: row 5 */
    assert_false(d->valid[5]);
    assert_true(d->valid[4]);
    ex(f, 0, TT_OP_ZEROACC(1, 0, 0, 0, 2)); /* 16 rows: block 2 = rows 32..47 */
    assert_false(d->valid[32]);
    assert_false(d->valid[47]);
    assert_true(d->valid[48]);
    ex(f, 0, 0x10104001u); /* add1: half, high half */
    assert_false(d->valid[512]);
    assert_false(d->valid[1023]);
    assert_true(d->valid[511]);
    ex(f, 0, TT_OP_ZEROACC(1, 1, 0, 0, 1)); /* 32-bit 16 rows, block 1: rows 32..39, 48..55 */
    ex(f, 0, TT_OP_ZEROACC(3, 0, 1, 0, 0)); /* Revert, all: valid again */
    assert_true(d->valid[5] && d->valid[512]);
    ex(f, 0, 0x10184000u); /* add1: all */
    assert_false(d->valid[0] || d->valid[700]);
    /* A write makes a row valid again. */
    dp_srca_mut(f->dp)->implied_fmt[0] = 5;
    ex(f, 0, TT_OP_MOVA2D(0, 0, 0, 0, 3));
    assert_true(d->valid[3]);
    assert_int_equal(ex_err(f, 0, TT_OP_ZEROACC(4, 0, 0, 0, 0)), CP_ERR_UNSPECIFIED);
}

static void test_zerosrc(void **state) {
    fx_t *f = *state;
    src_regs_t *a = dp_srca_mut(f->dp), *b = dp_srcb_mut(f->dp);
    dp_src_rows_w(a, 0)[1][1] = dp_src_rows_w(a, 1)[1][1] = dp_src_rows_w(b, 0)[2][2] = dp_src_rows_w(b, 1)[2][2] = 7;
    f->st.src.fpu_bank_a = 1;
    ex(f, 0, TT_OP_ZEROSRC(0, 1, 0, 1)); /* SrcA, the FPU-side bank (1) only */
    assert_int_equal(a->d[1][1][1], 0);
    assert_int_equal(a->d[0][1][1], 7);
    ex(f, 0, 0x11000007u); /* add1: both banks of both */
    assert_int_equal(a->d[0][1][1], 0);
    assert_int_equal(b->d[1][2][2], 0);
    ex(f, 0, TT_OP_ZEROSRC(1, 0, 0, 1)); /* SrcA to -inf (all ones), unpacker-side bank 0 */
    assert_int_equal(a->d[0][0][0], 0x7FFFF);
    assert_int_equal(ex_err(f, 0, TT_OP_ZEROSRC(2, 0, 0, 1)), CP_ERR_UNSPECIFIED);
}

/* The legacy Matrix Unit ops: refused, never a silent no-op. (The SFPU's modes: test_sfpu*.c.) */
static void test_fpu_refused(void **state) {
    fx_t *f = *state;
    assert_int_equal(ex_err(f, 0, TT_OP_CONV3S1(0, 0, 0, 0)), CP_ERR_UNSPECIFIED); /* legacy (MatrixUnit.md) */
    assert_true(dp_handles(tt_op(TT_OPC_ELWADD)));
    assert_false(dp_handles(tt_op(TT_OPC_SEMPOST))); /* Sync Unit */
}

/* ---- Vector Unit -------------------------------------------------------------------------------- */

static uint16_t dst_bf16(uint16_t b) { /* Dst.md DstEncodeBF16, written out */
    return (uint16_t)((b & 0x8000) | (b & 0x7F) << 8 | ((b >> 7) & 0xFF));
}

/* SFPLOAD / SFPSTORE lanes (SFPLOAD.md): lane L reads row (Addr & ~3) + L / 8, column
 * 2 * (L % 8), + 1 when Addr bit 1 is set. BF16 loads exactly; the store truncates (SFPSTORE.md). */
static void test_sfpload_store(void **state) {
    fx_t *f = *state;
    dst_regs_t *d = dp_dst_mut(f->dp);
    for (unsigned r = 0; r < 8; r++)
        for (unsigned c = 0; c < 16; c++)
            d->bits[r][c] = dst_bf16((uint16_t)(0x4000 + r * 16 + c));
    ex(f, 0, TT_OP_SFPLOAD(0, 2, 0, 0)); /* SFPLOAD LReg0, BF16, Imm 0 */
    ex(f, 0, TT_OP_SFPLOAD(1, 2, 0, 6)); /* LReg1, Imm 6: rows 4..7, odd columns */
    const lregs_t *l = dp_lregs(f->dp);
    for (unsigned L = 0; L < 32; L++) {
        assert_int_equal(l->r[0][L], (uint32_t)(0x4000 + (L / 8) * 16 + 2 * (L % 8)) << 16);
        assert_int_equal(l->r[1][L], (uint32_t)(0x4000 + (4 + L / 8) * 16 + 2 * (L % 8) + 1) << 16);
    }
    lregs_t *lm = dp_lregs_mut(f->dp);
    lm->r[2][0] = 0x3F80FFFFu;            /* truncates to 0x3F80 */
    lm->r[2][1] = 0x807FFFFFu;            /* a denormal flushes to -0 */
    lm->r[2][2] = 0x7FC00000u;            /* the canonical NaN keeps its pattern */
    ex(f, 0, TT_OP_SFPSTORE(2, 2, 0, 0)); /* SFPSTORE LReg2, BF16, Imm 0 */
    assert_int_equal(d->bits[0][0], dst_bf16(0x3F80));
    assert_int_equal(d->bits[0][2], dst_bf16(0x8000));
    assert_int_equal(d->bits[0][4], dst_bf16(0x7FC0));
    /* FP32: Dst32b row r is physical rows p and p + 8 (Dst.md Adj32): FP32 store flushes
     * denormals (Blackhole), INT32 stores the bits as they are. */
    lm->r[3][0] = 0x00000001u;
    lm->r[3][1] = 0x40490FDBu;
    ex(f, 0, TT_OP_SFPSTORE(3, 3, 0, 16)); /* FP32, Imm 16 */
    assert_int_equal(d->bits[32][0], 0);
    assert_int_equal(d->bits[32][2], dst_bf16(0x4049));
    assert_int_equal(d->bits[40][2], 0x0FDB);
    ex(f, 0, TT_OP_SFPSTORE(3, 4, 0, 20)); /* INT32, Imm 20: rows 20..23 -> physical 40.. */
    ex(f, 0, TT_OP_SFPLOAD(4, 4, 0, 20));
    assert_int_equal(l->r[4][0], 0x00000001u);
    assert_int_equal(l->r[4][1], 0x40490FDBu);
    /* MOD0_FMT_SRCB resolves through ALU_ACC_CTRL_SFPU_Fp32_enabled to FP32. */
    st_cfg_w(&f->st, 0, 1, 1u << 30);
    ex(f, 0, TT_OP_SFPLOAD(5, 0, 0, 16));
    assert_int_equal(l->r[5][1], 0x40490FDBu);
}

/* A thread's instructions read the Config bank its CFG_STATE_ID_StateID names: SFPLOAD's Dst base
 * (DEST_REGW_BASE_Base) is 0 in bank 0 and 8 in bank 1. */
static void test_state_id_bank(void **state) {
    fx_t *f = *state;
    dst_regs_t *d = dp_dst_mut(f->dp);
    for (unsigned r = 0; r < 16; r++)
        d->bits[r][0] = dst_bf16((uint16_t)(0x4000 + r));
    cfg_set(&f->st, 1, CFG_DEST_REGW_BASE_Base, 8);
    ex(f, 2, TT_OP_SFPLOAD(0, 2, 0, 0)); /* thread 2, bank 0: row 0 */
    assert_int_equal(dp_lregs(f->dp)->r[0][0], 0x4000u << 16);
    thcfg_set(&f->st, 2, THCFG_CFG_STATE_ID_StateID, 1);
    ex(f, 2, TT_OP_SFPLOAD(0, 2, 0, 0)); /* bank 1: row 8 */
    assert_int_equal(dp_lregs(f->dp)->r[0][0], 0x4008u << 16);
    ex(f, 1, TT_OP_SFPLOAD(0, 2, 0, 0)); /* thread 1 is still on bank 0 */
    assert_int_equal(dp_lregs(f->dp)->r[0][0], 0x4000u << 16);
}

static void test_sfploadi_config_encc(void **state) {
    fx_t *f = *state;
    const lregs_t *l = dp_lregs(f->dp);
    ex(f, 0, TT_OP_SFPLOADI(0, 0, 0xBF80)); /* FLOATB -1.0 into LReg0 */
    assert_int_equal(l->r[0][31], 0xBF800000u);
    ex(f, 0, TT_OP_SFPLOADI(1, 1, 0x3C00)); /* FLOATA 1.0 (exponent 15 + 112) */
    assert_int_equal(l->r[1][0], 0x3F800000u);
    ex(f, 0, TT_OP_SFPLOADI(1, 4, 0x8001)); /* SHORT: sign-extended */
    assert_int_equal(l->r[1][0], 0xFFFF8001u);
    ex(f, 0, TT_OP_SFPLOADI(1, 8, 0x1234)); /* UPPER */
    assert_int_equal(l->r[1][0], 0x12348001u);
    ex(f, 0, TT_OP_SFPLOADI(1, 10, 0x5678)); /* LOWER */
    assert_int_equal(l->r[1][0], 0x12345678u);
    assert_int_equal(ex_err(f, 0, TT_OP_SFPLOADI(0, 3, 0)), CP_ERR_UNDEFINED);
    /* SFPCONFIG dest 11 from LReg0 lanes 0..7 broadcast (the boot's -1.0), dest 12 preset. */
    dp_lregs_mut(f->dp)->r[0][3] = F32_2;
    ex(f, 0, TT_OP_SFPCONFIG(0, 11, 0));
    assert_int_equal(l->r[11][0], 0xBF800000u);
    assert_int_equal(l->r[11][3 + 8], F32_2);
    ex(f, 0, TT_OP_SFPCONFIG(0, 12, 1));
    assert_int_equal(l->r[12][5], F32_1_512);
    /* LaneConfig from Imm16 (MOD1_IMM16_IS_VALUE): ROW_MASK bit 1 disables lanes 8..15. */
    ex(f, 0, TT_OP_SFPCONFIG(1u << 13, 15, 1));
    ex(f, 0, TT_OP_SFPLOADI(2, 2, 7));
    assert_int_equal(l->r[2][0], 7);
    assert_int_equal(l->r[2][8], 0);
    assert_int_equal(l->r[2][16], 7);
    ex(f, 0, TT_OP_SFPCONFIG(0, 15, 1)); /* LaneConfig := 0 */
    /* SFPENCC (boot word 8A00300A): lane flags predicate, all set. Then flags off: no writes. */
    ex(f, 0, 0x8A00300Au);
    ex(f, 0, TT_OP_SFPLOADI(3, 2, 1));
    assert_int_equal(l->r[3][9], 1);
    ex(f, 0, TT_OP_SFPENCC(1, 0, 0, 0xA)); /* EI with E = 1, RI with R = 0: flags false */
    ex(f, 0, TT_OP_SFPLOADI(3, 2, 2));
    assert_int_equal(l->r[3][9], 1);
    ex(f, 0, TT_OP_SFPENCC(0, 0, 0, 2)); /* EI with E = 0: predication off */
    ex(f, 0, TT_OP_SFPLOADI(3, 2, 2));
    assert_int_equal(l->r[3][9], 2);
    /* SFPSTORE with VD 12 and DISABLE_BACKDOOR_LOAD clear writes SFPLOADMACRO's instruction template 0
     * (SFPCONFIG.md LaneConfig) instead of Dst. */
    dst_regs_t *d = dp_dst_mut(f->dp);
    d->bits[0][0] = 0x1234;
    ex(f, 0, TT_OP_SFPSTORE(12, 2, 0, 0));
    assert_int_equal(l->lm_tmpl[5][0], TT_OP_SFPSTORE(12, 2, 0, 0));
    assert_int_equal(d->bits[0][0], 0x1234);
}

/* The multiply-add family on lane 0 (SFPMAD.md, SFPADDI.md, SFPMULI.md). */
static void test_sfpmad(void **state) {
    fx_t *f = *state;
    lregs_t *l = dp_lregs_mut(f->dp);
    l->r[0][0] = 0x40400000u; /* 3 */
    l->r[1][0] = F32_2;
    l->r[2][0] = 0x3F800000u;              /* 1 */
    ex(f, 0, TT_OP_SFPMAD(0, 1, 2, 3, 0)); /* LReg3 = 3 * 2 + 1 = 7 */
    assert_int_equal(l->r[3][0], 0x40E00000u);
    ex(f, 0, TT_OP_SFPMAD(0, 1, 2, 3, 3)); /* -(3*2) - 1 = -7 */
    assert_int_equal(l->r[3][0], 0xC0E00000u);
    ex(f, 0, TT_OP_SFPADD(10, 0, 1, 4, 0)); /* SFPADD 1.0 * 3 + 2 = 5 */
    assert_int_equal(l->r[4][0], 0x40A00000u);
    ex(f, 0, TT_OP_SFPMUL(0, 1, 9, 5, 0)); /* SFPMUL 3 * 2 + LReg9 (0) */
    assert_int_equal(l->r[5][0], 0x40C00000u);
    ex(f, 0, TT_OP_SFPADDI(0x3F80, 0, 0)); /* SFPADDI LReg0 += 1.0: 4 */
    assert_int_equal(l->r[0][0], 0x40800000u);
    ex(f, 0, TT_OP_SFPMULI(0x4000, 0, 0)); /* SFPMULI LReg0 *= 2.0: 8 */
    assert_int_equal(l->r[0][0], F32_8);
    l->r[7][0] = 6;                        /* indirect VD: LReg7's low 4 bits */
    ex(f, 0, TT_OP_SFPADDI(0x3F80, 2, 8)); /* LReg6 = 1.0 + LReg2 (1) = 2 */
    assert_int_equal(l->r[6][0], F32_2);
    /* Writes above LReg7 are dropped (other than 16). */
    ex(f, 0, TT_OP_SFPMAD(0, 1, 2, 9, 0));
    assert_int_equal(l->r[9][0], 0);
}

/* ---- packer ------------------------------------------------------------------------------------ */

/* The packer as add1 configures it (DATAPATH.md §1.5), writing to L1 `out`, thread 2. */
static void pack_cfg_add1(fx_t *f, uint32_t out) {
    st_cfg_w(&f->st, 0, 12, 0x00200000); /* PCK0_ADDR_CTRL_XY_REG_0_Ystride = 32 bytes */
    st_cfg_w(&f->st, 0, 13, 0x08000200); /* Zstride 0x200, Wstride 0x800 */
    cfgbits(f, 1, 25, 4, 5);             /* ALU_FORMAT_SPEC_REG2_Dstacc = BF16 */
    st_cfg_w(&f->st, 0, 68, 0x00040000); /* Exp_section_size 4 */
    st_cfg_w(&f->st, 0, 70, 0x551);      /* no compression, Out/In BF16 */
    st_cfg_w(&f->st, 0, 18, 0);
    for (unsigned i = 28; i < 32; i++)
        st_cfg_w(&f->st, 0, i, 0x1000); /* 16 reads per xy plane */
    st_cfg_w(&f->st, 0, 24, 0xFFFF);    /* edge mask: all columns */
    st_cfg_w(&f->st, 0, 20, 0);
    st_thdcfg_w(&f->st, 2, 37, 0x104);                       /* ADDR_MOD_PACK_SEC0: Ysrc +4, Ydst +4 */
    st_thdcfg_w(&f->st, 2, 38, 0x2820);                      /* SEC1: clear Ysrc, Ydst, Zsrc */
    st_thdcfg_w(&f->st, 2, 39, 0x1120);                      /* SEC2: clear Ysrc, Ydst +4, Zsrc +1 */
    ex(f, 2, TT_OP_SETADCXX(4, 15, 0));                      /* SETADCXX packer X 0..15 */
    ex(f, 2, 0x5180000Bu);                                   /* SETADCXY packer X0, Y0, Y1 := 0 (not X1) */
    ex(f, 2, 0x5480000Fu);                                   /* SETADCZW packer := 0 */
    st_cfg_w(&f->st, 0, 69, 0x80000000u | ((out >> 4) - 1)); /* L1_Dest_addr, bit 31 set as tt-llk does */
}

/* add1's 16 PACR words as DATAPATH.md §1.3 lists them. */
/* clang-format off */
static const uint32_t add1_pacrs[16] = {
    0x41000000, 0x41000000, 0x41000000, 0x41010000, /* check_fields: not a field */
    0x41000000, 0x41000000, 0x41000000, 0x41010000, /* check_fields: not a field */
    0x41000000, 0x41000000, 0x41000000, 0x41010000, /* check_fields: not a field */
    0x41000000, 0x41000000, 0x41000000, 0x41008001, /* check_fields: not a field */
};
/* clang-format on */

/* 16 PACRs of 4 rows x 16 datums: Dst rows 0..63 in order to L1, BF16 through the rounding early
 * conversion: NaN patterns become infinity (sign kept), zero and denormal patterns +0
 * (FormatConversion.md "Rounding"; DATAPATH.md §6.4). Invalid (ZEROACC'd) rows read as zero. */
static void test_pacr_tile(void **state) {
    fx_t *f = *state;
    pack_cfg_add1(f, 0x30000);
    dst_regs_t *d = dp_dst_mut(f->dp);
    for (unsigned r = 0; r < 64; r++)
        for (unsigned c = 0; c < 16; c++)
            d->bits[r][c] = dst_bf16((uint16_t)(0x3C00 + r * 16 + c));
    d->bits[0][1] = dst_bf16(0x7FC1); /* NaN -> +inf */
    d->bits[0][2] = dst_bf16(0xFF81); /* -NaN -> -inf */
    d->bits[0][3] = dst_bf16(0x8000); /* -0 -> +0 */
    d->bits[0][4] = dst_bf16(0x807F); /* denormal -> +0 */
    d->bits[0][5] = dst_bf16(0xFF80); /* -inf stays */
    d->valid[17] = false;             /* row 17 reads as zero */
    for (unsigned i = 0; i < 16; i++)
        ex(f, 2, add1_pacrs[i]);
    for (unsigned i = 0; i < 1024; i++) {
        uint16_t want = (uint16_t)(0x3C00 + i);
        if (i == 1) want = 0x7F80;
        if (i == 2) want = 0xFF80;
        if (i == 3 || i == 4) want = 0;
        if (i == 5) want = 0xFF80;
        if (i / 16 == 17) want = 0;
        assert_int_equal(get16(f, 0x30000 + 2 * i), want);
    }
    assert_int_equal(get16(f, 0x30000 + 2048), 0); /* nothing past the tile */
    assert_int_equal(f->written_lo, 0x30000);
    assert_int_equal(f->written_hi, 0x30800);
    /* Last cleared the packer ADCs (ADDR_MOD_PACK_SEC1) and the next PACR starts afresh. */
    assert_int_equal(dp_adc(f->dp, 2, 2)->ch[0].y, 0);
    assert_int_equal(dp_adc(f->dp, 2, 2)->ch[0].z, 0);
}

/* FP32 Dst to BF16 by rounding (to nearest, ties away from zero), and by truncation with
 * Read_raw (PCK_DEST_RD_CTRL_Read_int8); FP32 Dst to FP32 as is (FormatConversion.md). */
static void test_pacr_fp32(void **state) {
    fx_t *f = *state;
    pack_cfg_add1(f, 0x30000);
    st_cfg_w(&f->st, 0, 18, 1); /* Read_32b_data */
    dst_regs_t *d = dp_dst_mut(f->dp);
    /* Dst32b row 0 column c = physical rows 0 (high half, BF16 arrangement) and 8 (low half). */
    uint32_t vals[4] = {0x3F808000u, 0xBF808000u, 0x3F807FFFu, 0x3F818000u};
    for (unsigned c = 0; c < 4; c++) {
        d->bits[0][c] = dst_bf16((uint16_t)(vals[c] >> 16));
        d->bits[8][c] = (uint16_t)vals[c];
    }
    st_cfg_w(&f->st, 0, 16, 0);
    ex(f, 2, 0x41000101u);                       /* ReadIntfSel 1 (one row), Last */
    assert_int_equal(get16(f, 0x30000), 0x3F81); /* tie, away from zero */
    assert_int_equal(get16(f, 0x30002), 0xBF81);
    assert_int_equal(get16(f, 0x30004), 0x3F80);
    assert_int_equal(get16(f, 0x30006), 0x3F82);
    st_cfg_w(&f->st, 0, 18, 1 | 1u << 2); /* Read_raw: truncation */
    ex(f, 2, 0x5180000Bu);                /* back to Dst row 0 (the PACR stepped Ysrc by 4) */
    ex(f, 2, 0x41000101u);
    assert_int_equal(get16(f, 0x30000), 0x3F80);
    /* FP32 intermediate and output: the 32 bits as they are. */
    cfgbits(f, 1, 25, 4, 0);
    st_cfg_w(&f->st, 0, 70, 0x001); /* Out FP32, In FP32 */
    st_cfg_w(&f->st, 0, 18, 1);
    ex(f, 2, 0x5180000Bu);
    ex(f, 2, 0x41000101u);
    assert_int_equal(get16(f, 0x30000) | (uint32_t)get16(f, 0x30002) << 16, 0x3F808000u);
    /* Not modelled: refused. */
    cfgbits(f, 19, 8, 1, 1); /* PCK_EDGE_TILE_FACE_SET_SELECT_enable */
    assert_int_equal(ex_err(f, 2, 0x41000101u), CP_ERR_UNIMPLEMENTED);
}

/* ---- the add1 datapath, one tile -------------------------------------------------------------- */

static uint32_t bits_of(float x) {
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}
static float float_of(uint32_t u) {
    float x;
    memcpy(&x, &u, 4);
    return x;
}

/* out = bf16(in + 1.0) as the hardware computes it, written from the pages: SFPLOAD BF16 is exact;
 * SFPADDI reads a denormal as zero, adds in FP32 rounding to nearest even, gives 0x7FC00000 for a
 * NaN; SFPSTORE BF16 truncates; the packer's rounding conversion turns NaN into infinity and a
 * zero or denormal into +0. */
static uint16_t add1_ref(uint16_t in) {
    uint32_t x = (uint32_t)in << 16, r;
    if (((x >> 23) & 0xFF) == 0) x &= 0x80000000u;
    if (((x >> 23) & 0xFF) == 0xFF && (x & 0x7FFFFFu))
        r = 0x7FC00000u;
    else
        r = bits_of(float_of(x) + 1.0f);
    uint16_t b = (uint16_t)(r >> 16);
    unsigned e = (b >> 7) & 0xFF;
    if (e == 0) return 0;
    if (e == 0xFF) return (uint16_t)((b & 0x8000) | 0x7F80);
    return b;
}

static void test_add1_tile(void **state) {
    fx_t *f = *state;
    /* Input: every 16th BF16 pattern plus the special ones, 1024 values. */
    uint16_t in[1024];
    static const uint16_t special[] = {0x0000, 0x8000, 0x0001, 0x807F, 0x7F80, 0xFF80, 0x7FC0, 0xFFC1, 0x7F7F,
                                       0xFF7F, 0xBF80, 0xBF81, 0x3F80, 0x3B80, 0x4B80, 0xCB80, 0x3381, 0xC000};
    for (unsigned i = 0; i < 1024; i++)
        in[i] = (uint16_t)(i * 64 + 3);
    memcpy(in, special, sizeof special);
    for (unsigned i = 0; i < 1024; i++)
        put16(f, 0x20000 + 2 * i, in[i]);

    /* T0: unpacker init and one tile (DATAPATH.md §1.1, §1.2). */
    ex(f, 0, 0x11000007u);
    unpack_cfg_add1(f, 0x20000);
    ex(f, 0, 0x5460000Fu);
    for (unsigned face = 0; face < 4; face++) {
        ex(f, 0, 0x420080C1u);
        f->st.src.unp_bank[0] ^= 1; /* the timing model's hand-over */
        ex(f, 0, 0x43800101u);
        f->st.src.unp_bank[1] ^= 1;
        /* T1: two 8-row MOVA2Ds per face, then SETRWC 37C00003 (and the hand-back). */
        st_thdcfg_w(&f->st, 1, 12 + 2, 8);
        st_thdcfg_w(&f->st, 1, 28 + 2, 8);
        if (face == 0) {
            ex(f, 1, 0x10184000u); /* ZEROACC all */
            ex(f, 1, 0x3700000Fu); /* SETRWC all := 0 */
            st_cfg_w(&f->st, 0, 220, f->st.cfg[0][220] | 1u << 3);
        }
        ex(f, 1, 0x1200A000u);
        ex(f, 1, 0x1200A000u);
        ex(f, 1, 0x37C00003u);
        f->st.src.fpu_bank_a ^= 1, f->st.src.fpu_bank_b ^= 1;
    }
    /* T1: the SFPU pass (boot's SFPENCC; SFPLOADI/SFPCONFIG LaneConfig := 0; 4 faces x 8). */
    ex(f, 0, 0x8A00300Au);
    ex(f, 1, 0x710A0000u);
    ex(f, 1, 0x71080000u);
    ex(f, 1, 0x910000F0u);
    ex(f, 1, 0x37000004u);
    for (unsigned face = 0; face < 4; face++) {
        for (unsigned k = 0; k < 8; k++) {
            ex(f, 1, 0x7000E000u); /* SFPLOAD LReg0, SRCB format, AddrMod 7 */
            ex(f, 1, 0x753F8000u); /* SFPADDI +1.0 */
            ex(f, 1, TT_OP_SFPNOP);
            ex(f, 1, 0x7200E000u); /* SFPSTORE */
            ex(f, 1, 0x38008000u); /* INCRWC Dst += 2 */
        }
        ex(f, 1, 0x37120004u);
        ex(f, 1, 0x37120004u);
    }
    /* T2: pack the 64 rows to 0x30000. */
    pack_cfg_add1(f, 0x30000);
    ex(f, 2, 0x508C0000u);
    for (unsigned i = 0; i < 16; i++)
        ex(f, 2, add1_pacrs[i]);
    ex(f, 2, 0x54800005u);
    ex(f, 2, 0x10104000u);

    unsigned bad = 0;
    for (unsigned i = 0; i < 1024; i++) {
        uint16_t got = get16(f, 0x30000 + 2 * i), want = add1_ref(in[i]);
        if (got != want && bad++ < 8)
            print_error("element %u: in 0x%04x got 0x%04x want 0x%04x\n", i, in[i], got, want);
    }
    assert_int_equal(bad, 0);
    /* The reference is not vacuous: it differs from the identity on every special value. */
    assert_int_equal(add1_ref(0x7FC0), 0x7F80);
    assert_int_equal(add1_ref(0xBF80), 0x0000);
    assert_int_equal(add1_ref(0x0001), 0x3F80);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_adc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rwc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_addr_mod, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unpacr_face, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unpacr_src_rows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unpacr_context, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unpacr_two_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unpacr_to_dst, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unpacr_nop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unpacr_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mova2d, setup, teardown),
        cmocka_unit_test_setup_teardown(test_moves, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zeroacc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zerosrc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fpu_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sfpload_store, setup, teardown),
        cmocka_unit_test_setup_teardown(test_state_id_bank, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sfploadi_config_encc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sfpmad, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pacr_tile, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pacr_fp32, setup, teardown),
        cmocka_unit_test_setup_teardown(test_add1_tile, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
