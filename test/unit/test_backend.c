/* test/unit/test_backend.c — the backend occupancy model (coproc/backend.c) driven directly:
 * ThCon arithmetic, STOREREG/LOADREG through a fake tile, the Configuration Unit on config
 * storage, conditions C0..C12, SrcA/SrcB ownership, admission rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "coproc/backend.h"

/* Proposed for coproc/backend.h: the first error since reset (undefined behaviour, unmapped
 * MMIO, unimplemented instruction), or NULL. */
const char *be_error(const be_t *be);

/* ---- a fake tile for STOREREG/LOADREG ---- */

typedef struct {
    uint32_t last_addr, last_val, load_val;
    unsigned stores, loads;
} fake_tile_t;

static bool fake_load(void *ctx, uint32_t addr, uint32_t *val) {
    fake_tile_t *f = ctx;
    if (addr < 0xFFB11000u) return false;
    f->loads++;
    f->last_addr = addr;
    *val = f->load_val;
    return true;
}

static bool fake_store(void *ctx, uint32_t addr, uint32_t val) {
    fake_tile_t *f = ctx;
    if (addr >= 0xFFC00000u) return false;
    f->stores++;
    f->last_addr = addr;
    f->last_val = val;
    return true;
}

typedef struct {
    fake_tile_t tile;
    cp_env_t env;
    be_t *be;
} fixture_t;

static int setup(void **state) {
    static fixture_t fx; /* test-local; cmocka runs tests one at a time */
    memset(&fx, 0, sizeof fx);
    fx.env = (cp_env_t){&fx.tile, fake_load, fake_store};
    fx.be = be_create(&fx.env);
    *state = &fx;
    return fx.be ? 0 : -1;
}

static int teardown(void **state) {
    fixture_t *fx = *state;
    be_destroy(fx->be);
    return 0;
}

static be_t *BE(void **state) { return ((fixture_t *)*state)->be; }

/* ---- word builders (field positions from TENSIX.md §5) ---- */

static uint32_t w_setdmareg(unsigned half, uint32_t v16) { return 0x45u << 24 | (v16 & 0xFFFFu) << 8 | half; }

static uint32_t w_dmareg(uint8_t opc, unsigned r, unsigned a, unsigned b, unsigned mode, bool is_const) {
    return (uint32_t)opc << 24 | (uint32_t)is_const << 23 | mode << 18 | r << 12 | b << 6 | a;
}

static uint32_t w_wrcfg(unsigned gpr, bool wide, unsigned idx) {
    return 0xB0u << 24 | gpr << 16 | (uint32_t)wide << 15 | idx;
}

static uint32_t w_rdcfg(unsigned gpr, unsigned idx) { return 0xB1u << 24 | gpr << 16 | idx; }

static uint32_t w_setc16(unsigned reg, unsigned val) { return 0xB2u << 24 | reg << 16 | val; }

static uint32_t w_rmwcib(unsigned n, unsigned idx, unsigned data, unsigned mask) {
    return (0xB3u + n) << 24 | mask << 16 | data << 8 | idx;
}

static uint32_t w_cfgshiftmask(bool keep_old, unsigned alu, unsigned width, unsigned rot, unsigned sel, unsigned idx) {
    return 0xB8u << 24 | (uint32_t)keep_old << 23 | alu << 20 | width << 15 | rot << 10 | sel << 8 | idx;
}

static uint32_t w_unpacr(unsigned unpacker, bool set_dvalid) {
    return 0x42u << 24 | unpacker << 23 | (uint32_t)set_dvalid << 6;
}

static uint32_t w_elwadd(unsigned clear_dvalid) { return 0x28u << 24 | clear_dvalid << 22; }

/* Dispatch, asserting the unit accepts it. */
static void go(be_t *be, unsigned t, uint32_t w) {
    const tt_op_t *op = tt_op((uint8_t)(w >> 24));
    assert_non_null(op);
    assert_true(be_can_accept(be, t, op, w));
    be_dispatch(be, t, op, w);
}

static bool accepts(const be_t *be, unsigned t, uint32_t w) {
    return be_can_accept(be, t, tt_op((uint8_t)(w >> 24)), w);
}

static void run(be_t *be, unsigned n) {
    while (n--)
        be_cycle(be);
}

/* Condition c of thread t is busy for exactly `cycles` cycles from now. */
static void expect_busy_for(be_t *be, unsigned t, unsigned c, unsigned cycles) {
    for (unsigned i = 0; i < cycles; i++) {
        assert_true(be_cond_busy(be, t, c));
        be_cycle(be);
    }
    assert_false(be_cond_busy(be, t, c));
}

/* ---- Scalar Unit ---- */

static void test_setdmareg_halves(void **state) {
    be_t *be = BE(state);
    go(be, 0, w_setdmareg(2 * 5, 0xBEEF)); /* LO_16(5) */
    run(be, 1);
    go(be, 0, w_setdmareg(2 * 5 + 1, 0xDEAD)); /* HI_16(5) */
    run(be, 1);
    assert_int_equal(be_gpr_read(be, 0, 5), 0xDEADBEEF);
    assert_int_equal(be_gpr_read(be, 1, 5), 0); /* per-thread GPRs */
    /* SetSignalsMode=1, ResultSize 2: four GPRs zeroed (SETDMAREG_Special.md). */
    for (unsigned i = 8; i < 12; i++)
        be_gpr_write(be, 0, i, 0x1234);
    go(be, 0, 0x45u << 24 | 2u << 22 | 1u << 7 | (2 * 8));
    run(be, 1);
    for (unsigned i = 8; i < 12; i++)
        assert_int_equal(be_gpr_read(be, 0, i), 0);
    assert_null(be_error(be));
}

static void test_dmareg_arith(void **state) {
    be_t *be = BE(state);
    be_gpr_write(be, 1, 0, 0x00012345);
    be_gpr_write(be, 1, 1, 0x00000010);
    be_gpr_write(be, 1, 2, 0xFFFF0003);
    be_gpr_write(be, 1, 3, 36);
    struct {
        uint32_t word, expect;
    } cases[] = {
        {w_dmareg(0x58, 10, 0, 1, 0, false), 0x00012355},       /* ADD reg */
        {w_dmareg(0x58, 10, 0, 63, 0, true), 0x00012384},       /* ADD imm 63 */
        {w_dmareg(0x59, 10, 1, 0, 0, false), 0x10u - 0x12345u}, /* SUB wraps */
        {w_dmareg(0x5A, 10, 2, 1, 0, false), 3u * 0x10u},       /* MUL: low 16 bits only */
        {w_dmareg(0x5A, 10, 0, 2, 0, true), 0x2345u * 2u},      /* MUL imm */
        {w_dmareg(0x5B, 10, 0, 2, 0, false), 0x00010001},       /* AND */
        {w_dmareg(0x5B, 10, 0, 1, 1, false), 0x00012355},       /* OR */
        {w_dmareg(0x5B, 10, 0, 0x3F, 2, true), 0x0001237A},     /* XOR imm */
        {w_dmareg(0x5C, 10, 1, 3, 0, false), 0x10u << 4},       /* SHL by GPR & 0x1F (36->4) */
        {w_dmareg(0x5C, 10, 0, 4, 1, true), 0x1234},            /* SHR imm */
        {w_dmareg(0x5D, 10, 0, 1, 0, false), 1},                /* GT */
        {w_dmareg(0x5D, 10, 0, 1, 1, false), 0},                /* LT */
        {w_dmareg(0x5D, 10, 1, 0x10, 2, true), 1},              /* EQ imm */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        go(be, 1, cases[i].word);
        run(be, 4);
        assert_int_equal(be_gpr_read(be, 1, 10), cases[i].expect);
    }
    assert_null(be_error(be));
    /* An undefined mode is reported, not silently computed. */
    go(be, 1, w_dmareg(0x5B, 10, 0, 1, 3, false));
    assert_non_null(be_error(be));
}

static void test_thcon_occupancy(void **state) {
    be_t *be = BE(state);
    uint32_t add_same = w_dmareg(0x58, 4, 0, 1, 0, false); /* GPRs 0 and 1: same group: 3 */
    uint32_t add_far = w_dmareg(0x58, 4, 0, 8, 0, false);  /* different groups: 4 */
    uint32_t nop = 0x02000000u, sfp = 0x8F000000u;
    go(be, 0, add_same);
    /* Nothing of thread 0 passes; other threads' ThCon ops wait; their other ops pass. */
    for (unsigned i = 0; i < 3; i++) {
        assert_true(be_thread_busy(be, 0));
        assert_false(accepts(be, 0, nop));
        assert_false(accepts(be, 0, sfp));
        assert_false(accepts(be, 1, add_same));
        assert_true(accepts(be, 1, sfp));
        be_cycle(be);
    }
    assert_true(accepts(be, 0, nop));
    assert_true(accepts(be, 1, add_same));
    assert_false(be_thread_busy(be, 0));
    go(be, 2, add_far);
    run(be, 3);
    assert_false(accepts(be, 2, nop));
    run(be, 1);
    assert_true(accepts(be, 2, nop));
}

static void test_storereg_loadreg(void **state) {
    fixture_t *fx = *state;
    be_t *be = fx->be;
    /* Stream register 0xFFB40028 -> AddrLo = (0xFFB40028 - 0xFFB00000) >> 2 = 0x1000A. */
    be_gpr_write(be, 2, 7, 0xCAFEF00D);
    go(be, 2, 0x67u << 24 | 7u << 18 | 0x1000Au);
    assert_int_equal(fx->tile.stores, 1);
    assert_int_equal(fx->tile.last_addr, 0xFFB40028u);
    assert_int_equal(fx->tile.last_val, 0xCAFEF00D);
    /* C0 (memory request outstanding) for 3 + 5 cycles. */
    expect_busy_for(be, 2, 0, 8);

    fx->tile.load_val = 0x600DD00D;
    go(be, 2, 0x68u << 24 | 9u << 18 | 0x1000Au);
    assert_int_equal(fx->tile.loads, 1);
    assert_int_equal(be_gpr_read(be, 2, 9), 0x600DD00D);
    assert_false(be_cond_busy(be, 1, 0)); /* per thread */
    expect_busy_for(be, 2, 0, 8);
    assert_null(be_error(be));

    /* Below 0xFFB11000: undefined behaviour, reported. */
    go(be, 2, 0x67u << 24 | 0x100u);
    assert_int_equal(fx->tile.stores, 1);
    assert_non_null(be_error(be));
}

static void test_unimplemented_reported(void **state) {
    be_t *be = BE(state);
    go(be, 0, 0x49000000u); /* LOADIND */
    assert_non_null(be_error(be));
    be_reset(be);
    assert_null(be_error(be));
}

/* ---- Configuration Unit ---- */

static uint32_t cfg_word(const be_t *be, unsigned bank, unsigned idx) {
    uint32_t v = 0;
    assert_true(be_cfg_read(be, bank * 0x380u + 4u * idx, &v));
    return v;
}

static void test_wrcfg_rdcfg_banks(void **state) {
    be_t *be = BE(state);
    be_gpr_write(be, 0, 3, 0x11111111);
    go(be, 0, w_wrcfg(3, false, 76));
    run(be, 2);
    assert_int_equal(cfg_word(be, 0, 76), 0x11111111);
    assert_int_equal(cfg_word(be, 1, 76), 0);

    /* SETC16 CFG_STATE_ID_StateID = 1: thread 1's WRCFG/RDCFG use bank 1. */
    go(be, 1, w_setc16(0, 1));
    run(be, 1);
    be_gpr_write(be, 1, 3, 0x22222222);
    go(be, 1, w_wrcfg(3, false, 76));
    run(be, 2);
    assert_int_equal(cfg_word(be, 0, 76), 0x11111111);
    assert_int_equal(cfg_word(be, 1, 76), 0x22222222);
    go(be, 1, w_rdcfg(20, 76));
    run(be, 2);
    assert_int_equal(be_gpr_read(be, 1, 20), 0x22222222);

    /* wr128b: GPRs 4..7 (InputReg & ~3) to words 72..75 (CfgIndex & ~3). */
    for (unsigned i = 0; i < 4; i++)
        be_gpr_write(be, 0, 4 + i, 0xA0 + i);
    go(be, 0, w_wrcfg(6, true, 74));
    run(be, 2);
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(cfg_word(be, 0, 72 + i), 0xA0 + i);

    /* Index >= 180: global, written to both banks whatever the state ID. */
    be_gpr_write(be, 1, 3, 0x33333333);
    go(be, 1, w_wrcfg(3, false, 209));
    run(be, 2);
    assert_int_equal(cfg_word(be, 0, 209), 0x33333333);
    assert_int_equal(cfg_word(be, 1, 209), 0x33333333);
    assert_null(be_error(be));
}

static void test_setc16_threadconfig(void **state) {
    be_t *be = BE(state);
    go(be, 2, w_setc16(57, 0x3FF));
    uint32_t v = 0;
    assert_true(be_cfg_read(be, 0xA80 + 0x110 * 2 + 4 * 57, &v));
    assert_int_equal(v, 0x3FF);
    assert_true(be_cfg_read(be, 0xA80 + 0x110 * 1 + 4 * 57, &v));
    assert_int_equal(v, 0);
    /* RISC-V may read ThreadConfig but not write it. */
    assert_false(be_cfg_write(be, 0xA80 + 4 * 57, 1));
    go(be, 2, w_setc16(68, 1)); /* out of range: reported */
    assert_non_null(be_error(be));
}

static void test_rmwcib(void **state) {
    be_t *be = BE(state);
    assert_true(be_cfg_write(be, 4 * 41, 0x12345678));
    go(be, 0, w_rmwcib(0, 41, 0xAB, 0x0F)); /* byte 0, low nibble */
    run(be, 1);
    assert_int_equal(cfg_word(be, 0, 41), 0x1234567B);
    go(be, 0, w_rmwcib(3, 41, 0xCD, 0xFF)); /* byte 3 */
    run(be, 1);
    assert_int_equal(cfg_word(be, 0, 41), 0xCD34567B);
    go(be, 0, w_rmwcib(1, 41, 0x00, 0xF0)); /* byte 1, high nibble cleared */
    run(be, 1);
    assert_int_equal(cfg_word(be, 0, 41), 0xCD34067B);
    go(be, 0, w_rmwcib(2, 41, 0xFF, 0x00)); /* mask 0: no change */
    run(be, 1);
    assert_int_equal(cfg_word(be, 0, 41), 0xCD34067B);
    assert_int_equal(cfg_word(be, 1, 41), 0);
}

static void test_cfgshiftmask(void **state) {
    be_t *be = BE(state);
    /* CFG += SCRATCH_SEC0 (tt-llk: CFGSHIFTMASK(1, 0b011, 32 - 1, 0, 0, reg)). */
    assert_true(be_cfg_write(be, 4 * 209, 0x100));
    assert_true(be_cfg_write(be, 4 * 76, 0x8000));
    go(be, 0, w_cfgshiftmask(true, 3, 31, 0, 0, 76));
    assert_int_equal(cfg_word(be, 0, 76), 0x8100);
    /* Not pipelined: the next Config-group instruction waits a cycle (SETC16 does not). */
    assert_false(accepts(be, 1, w_rdcfg(0, 76)));
    assert_true(accepts(be, 1, w_setc16(1, 1)));
    run(be, 1);
    assert_false(accepts(be, 1, w_rdcfg(0, 76)));
    run(be, 1);
    assert_true(accepts(be, 1, w_rdcfg(0, 76)));
    /* Scratch index 3 = the current thread's: thread 2 reads SCRATCH_SEC2 (211). Mask mode 0,
     * 8-bit mask rotated right by 8: replace byte 3 with scratch's byte 0. */
    assert_true(be_cfg_write(be, 4 * 211, 0x5A));
    assert_true(be_cfg_write(be, 4 * 77, 0xFFFFFFFF));
    go(be, 2, w_cfgshiftmask(false, 0, 7, 8, 3, 77));
    assert_int_equal(cfg_word(be, 0, 77), 0x5AFFFFFF);
    run(be, 2);
    /* AluMode 7: subtract. */
    go(be, 2, w_cfgshiftmask(true, 7, 31, 0, 3, 77));
    assert_int_equal(cfg_word(be, 0, 77), 0x5AFFFFFFu - 0x5Au);
}

static void test_riscv_cfg_window(void **state) {
    be_t *be = BE(state);
    uint32_t v;
    /* Bank writes. */
    assert_true(be_cfg_write(be, 0x000 + 4 * 10, 1));
    assert_true(be_cfg_write(be, 0x380 + 4 * 10, 2));
    assert_int_equal(cfg_word(be, 0, 10), 1);
    assert_int_equal(cfg_word(be, 1, 10), 2);
    /* ConfigDualWrite: both banks; reads bank 0. */
    assert_true(be_cfg_write(be, 0x700 + 4 * 11, 0x77));
    assert_int_equal(cfg_word(be, 0, 11), 0x77);
    assert_int_equal(cfg_word(be, 1, 11), 0x77);
    assert_true(be_cfg_write(be, 0x000 + 4 * 11, 0x66));
    assert_true(be_cfg_read(be, 0x700 + 4 * 11, &v));
    assert_int_equal(v, 0x66);
    /* Global registers (>= 180) through one bank reach both. */
    assert_true(be_cfg_write(be, 0x380 + 4 * 186, 0xABC));
    assert_int_equal(cfg_word(be, 0, 186), 0xABC);
    assert_int_equal(cfg_word(be, 1, 186), 0xABC);
    assert_true(be_cfg_write(be, 4 * 179, 5));
    assert_int_equal(cfg_word(be, 1, 179), 0);
    /* Misaligned or past the end. */
    assert_false(be_cfg_write(be, 2, 1));
    assert_false(be_cfg_read(be, 0xDB0, &v));
    assert_true(be_cfg_read(be, 0xDAC, &v));
    /* GPR window. */
    be_gpr_write(be, 2, 63, 0x1234);
    assert_int_equal(be_gpr_read(be, 2, 63), 0x1234);
    assert_int_equal(be_gpr_read(be, 2, 64), 0);
}

/* ---- conditions ---- */

static void test_cond_unpack(void **state) {
    be_t *be = BE(state);
    go(be, 0, w_unpacr(0, false));
    assert_false(be_cond_busy(be, 0, 2));
    assert_false(be_cond_busy(be, 1, 1));
    assert_true(be_thread_busy(be, 0));
    assert_int_equal(be_busy_classes(be, 0), (1u << 4) | (1u << 8));
    expect_busy_for(be, 0, 1, 8); /* C1 */
    go(be, 1, w_unpacr(1, false));
    expect_busy_for(be, 1, 2, 8); /* C2 */
    /* Two queued on one unpacker run back to back. */
    go(be, 0, w_unpacr(0, false));
    go(be, 0, w_unpacr(0, false));
    expect_busy_for(be, 0, 1, 16);
}

static void test_unpacker_queue_full(void **state) {
    be_t *be = BE(state);
    uint32_t w = w_unpacr(1, false);
    for (unsigned i = 0; i < 4; i++)
        go(be, 0, w);
    assert_false(accepts(be, 0, w));
    assert_false(accepts(be, 1, w));
    assert_true(accepts(be, 1, w_unpacr(0, false)));
    run(be, 8);
    assert_true(accepts(be, 0, w));
}

static void test_cond_pack_math_sfpu(void **state) {
    be_t *be = BE(state);
    go(be, 1, 0x41000000u); /* PACR */
    assert_int_equal(be_busy_classes(be, 1), (1u << 5) | (1u << 8));
    expect_busy_for(be, 1, 3, 8); /* C3 */
    go(be, 0, 0x41000000u);
    go(be, 1, 0x41000000u); /* queued behind thread 0's */
    expect_busy_for(be, 1, 3, 16);

    go(be, 2, 0x10000000u); /* ZEROACC, 1 cycle */
    assert_int_equal(be_busy_classes(be, 2), 1u << 10);
    expect_busy_for(be, 2, 4, 1); /* C4 */
    go(be, 2, 0x57000003u);       /* SETDVALID: both banks to the FPU */
    run(be, 1);
    go(be, 2, w_elwadd(0));
    expect_busy_for(be, 2, 4, 5);

    go(be, 0, 0x84000000u); /* SFPMAD, 2 cycles */
    assert_int_equal(be_busy_classes(be, 0), 1u << 9);
    expect_busy_for(be, 0, 11, 2); /* C11 */
    go(be, 0, 0x8F000000u);        /* SFPNOP, 1 */
    expect_busy_for(be, 0, 11, 1);
}

static void test_cond_mover_cfg_riscv(void **state) {
    be_t *be = BE(state);
    go(be, 1, 0x40000000u); /* XMOV: C9 is global */
    assert_true(be_cond_busy(be, 0, 9));
    expect_busy_for(be, 2, 9, 16);

    go(be, 0, w_wrcfg(0, false, 10)); /* C12: any thread in the Config unit */
    assert_true(be_cond_busy(be, 1, 12));
    assert_int_equal(be_busy_classes(be, 0), 1u << 6);
    assert_int_equal(be_busy_classes(be, 1), 0);
    expect_busy_for(be, 2, 12, 2);

    be_note_riscv_cfg_write(be, 1); /* C10: this thread only */
    assert_false(be_cond_busy(be, 0, 10));
    assert_false(be_thread_busy(be, 1));
    expect_busy_for(be, 1, 10, 2);
    assert_false(be_cond_busy(be, 0, 13));
}

/* ---- SrcA / SrcB ownership ---- */

static void test_src_banks_unpack_to_fpu(void **state) {
    be_t *be = BE(state);
    /* Reset: all banks to the Unpackers. C5/C6 clear, C7/C8 busy. */
    assert_false(be_cond_busy(be, 0, 5));
    assert_false(be_cond_busy(be, 0, 6));
    assert_true(be_cond_busy(be, 0, 7));
    assert_true(be_cond_busy(be, 0, 8));
    /* An FPU op reading SrcA/SrcB is held at the gate; one that reads neither passes. */
    assert_false(accepts(be, 1, w_elwadd(3)));
    assert_false(accepts(be, 1, 0x12000000u)); /* MOVA2D */
    assert_true(accepts(be, 1, 0x37000000u));  /* SETRWC */

    /* UNPACR with SetDatValid: SrcA bank 0 to the FPU when it retires. */
    go(be, 0, w_unpacr(0, true));
    run(be, 7);
    assert_true(be_cond_busy(be, 1, 7));
    run(be, 1);
    assert_false(be_cond_busy(be, 1, 7)); /* C7: FPU-side SrcA valid */
    assert_false(be_cond_busy(be, 1, 5)); /* unpacker now on bank 1, still its own */
    assert_true(accepts(be, 1, 0x12000000u));
    assert_false(accepts(be, 1, w_elwadd(3))); /* SrcB not yet */

    /* SrcB the same way; then fill SrcA bank 1 too. */
    go(be, 0, w_unpacr(1, true));
    go(be, 0, w_unpacr(0, true));
    run(be, 8);
    assert_false(be_cond_busy(be, 1, 8));
    assert_true(be_cond_busy(be, 0, 5)); /* both SrcA banks with the FPU: C5 busy */
    assert_false(be_cond_busy(be, 0, 6));

    /* A third SrcA unpack is accepted but waits inside the unpacker for bank 0. */
    go(be, 0, w_unpacr(0, true));
    run(be, 20);
    assert_true(be_cond_busy(be, 0, 1));

    /* ELWADD with clear_dvalid = 3 hands both FPU-side banks back and flips the FPU pointers. */
    go(be, 1, w_elwadd(3));
    assert_false(be_cond_busy(be, 0, 5));
    assert_false(be_cond_busy(be, 1, 7)); /* FPU now on SrcA bank 1, still valid */
    assert_true(be_cond_busy(be, 1, 8));  /* FPU on SrcB bank 1: not valid */
    /* The waiting unpack starts next cycle and completes 8 later. */
    expect_busy_for(be, 0, 1, 9);
    assert_true(be_cond_busy(be, 0, 5)); /* it handed bank 0 over again */
}

static void test_setdvalid_cleardvalid(void **state) {
    be_t *be = BE(state);
    go(be, 0, 0x57000001u); /* SETDVALID FlipSrcA */
    assert_false(be_cond_busy(be, 0, 7));
    assert_true(be_cond_busy(be, 0, 8));
    go(be, 0, 0x57000002u); /* FlipSrcB */
    assert_false(be_cond_busy(be, 0, 8));
    run(be, 1);
    /* CLEARDVALID cleardvalid=1 (SrcA), KeepReadingSameSrc: bank back, FPU stays on it. */
    go(be, 1, 0x36000000u | 1u << 22 | 2u);
    assert_true(be_cond_busy(be, 1, 7));
    run(be, 1);
    /* SETDVALID again gives unpacker bank 1; the FPU still looks at bank 0: C7 busy. */
    go(be, 0, 0x57000001u);
    assert_true(be_cond_busy(be, 1, 7));
    run(be, 1);
    /* CLEARDVALID reset: everything to the Unpackers, pointers 0. */
    go(be, 1, 0x36000001u);
    for (unsigned c = 5; c <= 6; c++)
        assert_false(be_cond_busy(be, 0, c));
    for (unsigned c = 7; c <= 8; c++)
        assert_true(be_cond_busy(be, 0, c));
    run(be, 1);
    /* CLR_DVALID_SrcA_Disable (ThreadConfig 7 bit 0): ownership kept, pointer still flips. */
    go(be, 2, w_setc16(7, 1));
    go(be, 0, 0x57000003u);
    go(be, 0, 0x57000003u); /* both banks of both to the FPU */
    run(be, 1);
    go(be, 2, w_elwadd(3));
    assert_true(be_cond_busy(be, 0, 5));  /* SrcA bank 0 still the FPU's */
    assert_false(be_cond_busy(be, 0, 6)); /* SrcB bank 0 handed back */
}

static void test_unpacr_nop_set_dvalid(void **state) {
    be_t *be = BE(state);
    /* UNPACR_NOP(SrcB, ..., Set_Dvalid=1, ...): hands SrcB over when it retires. */
    go(be, 0, 0x43000000u | 1u << 23 | 1u << 8 | 1u);
    assert_true(be_cond_busy(be, 0, 8));
    run(be, 8);
    assert_false(be_cond_busy(be, 0, 8));
    assert_false(be_cond_busy(be, 0, 6));
}

/* ---- admission across threads ---- */

static void test_fpu_one_per_cycle(void **state) {
    be_t *be = BE(state);
    uint32_t zeroacc = 0x10000000u;
    go(be, 0, zeroacc);
    assert_false(accepts(be, 1, zeroacc));
    assert_false(accepts(be, 0, zeroacc));
    assert_true(accepts(be, 1, 0x8F000000u));
    run(be, 1);
    assert_true(accepts(be, 1, zeroacc));
}

static void test_config_one_per_cycle(void **state) {
    be_t *be = BE(state);
    go(be, 0, w_wrcfg(0, false, 1));
    assert_false(accepts(be, 1, w_wrcfg(0, false, 2)));
    assert_false(accepts(be, 2, w_rmwcib(0, 3, 0, 0)));
    assert_true(accepts(be, 2, w_setc16(3, 0)));
    run(be, 1);
    assert_true(accepts(be, 1, w_wrcfg(0, false, 2)));
}

static void test_sync_ops_ignored(void **state) {
    be_t *be = BE(state);
    uint32_t sempost = 0xA4000004u;
    assert_true(accepts(be, 0, sempost));
    be_dispatch(be, 0, tt_op(0xA4), sempost);
    assert_false(be_thread_busy(be, 0));
    assert_int_equal(be_busy_classes(be, 0), 0);
    /* ...but a ThCon instruction of the thread still freezes it. */
    go(be, 0, w_setdmareg(0, 1));
    assert_false(accepts(be, 0, sempost));
}

int main(void) {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_setdmareg_halves),
        T(test_dmareg_arith),
        T(test_thcon_occupancy),
        T(test_storereg_loadreg),
        T(test_unimplemented_reported),
        T(test_wrcfg_rdcfg_banks),
        T(test_setc16_threadconfig),
        T(test_rmwcib),
        T(test_cfgshiftmask),
        T(test_riscv_cfg_window),
        T(test_cond_unpack),
        T(test_unpacker_queue_full),
        T(test_cond_pack_math_sfpu),
        T(test_cond_mover_cfg_riscv),
        T(test_src_banks_unpack_to_fpu),
        T(test_setdvalid_cleardvalid),
        T(test_unpacr_nop_set_dvalid),
        T(test_fpu_one_per_cycle),
        T(test_config_one_per_cycle),
        T(test_sync_ops_ignored),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
