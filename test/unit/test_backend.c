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
#include "coproc/tt_fields.h"

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

/* Dispatch, asserting the unit accepts it. */
static void go(be_t *be, unsigned t, uint32_t w) {
    const tt_op_t *op = tt_op((uint8_t)TT_OPCODE(w));
    assert_non_null(op);
    assert_true(be_can_accept(be, t, op, w));
    be_dispatch(be, t, op, w);
}

static bool accepts(const be_t *be, unsigned t, uint32_t w) {
    return be_can_accept(be, t, tt_op((uint8_t)TT_OPCODE(w)), w);
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
    go(be, 0, TT_OP_SETDMAREG(0, 0xBEEF, 0, 2 * 5)); /* LO_16(5) */
    run(be, 1);
    go(be, 0, TT_OP_SETDMAREG(0, 0xDEAD, 0, 2 * 5 + 1)); /* HI_16(5) */
    run(be, 1);
    assert_int_equal(be_gpr_read(be, 0, 5), 0xDEADBEEF);
    assert_int_equal(be_gpr_read(be, 1, 5), 0); /* per-thread GPRs */
    /* SetSignalsMode=1, ResultSize 2: four GPRs zeroed (SETDMAREG_Special.md). */
    for (unsigned i = 8; i < 12; i++)
        be_gpr_write(be, 0, i, 0x1234);
    go(be, 0, TT_OP_SETDMAREG(2, 0, 1, 2 * 8));
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
        {TT_OP_ADDDMAREG(0, 10, 1, 0), 0x00012355},          /* ADD reg */
        {TT_OP_ADDDMAREG(1, 10, 63, 0), 0x00012384},         /* ADD imm 63 */
        {TT_OP_SUBDMAREG(0, 10, 0, 1), 0x10u - 0x12345u},    /* SUB wraps */
        {TT_OP_MULDMAREG(0, 10, 1, 2), 3u * 0x10u},          /* MUL: low 16 bits only */
        {TT_OP_MULDMAREG(1, 10, 2, 0), 0x2345u * 2u},        /* MUL imm */
        {TT_OP_BITWOPDMAREG(0, 0, 10, 2, 0), 0x00010001},    /* AND */
        {TT_OP_BITWOPDMAREG(0, 1, 10, 1, 0), 0x00012355},    /* OR */
        {TT_OP_BITWOPDMAREG(1, 2, 10, 0x3F, 0), 0x0001237A}, /* XOR imm */
        {TT_OP_SHIFTDMAREG(0, 0, 10, 3, 1), 0x10u << 4},     /* SHL by GPR & 0x1F (36->4) */
        {TT_OP_SHIFTDMAREG(1, 1, 10, 4, 0), 0x1234},         /* SHR imm */
        {TT_OP_CMPDMAREG(0, 0, 10, 1, 0), 1},                /* GT */
        {TT_OP_CMPDMAREG(0, 1, 10, 1, 0), 0},                /* LT */
        {TT_OP_CMPDMAREG(1, 2, 10, 0x10, 1), 1},             /* EQ imm */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        go(be, 1, cases[i].word);
        run(be, 4);
        assert_int_equal(be_gpr_read(be, 1, 10), cases[i].expect);
    }
    assert_null(be_error(be));
    /* An undefined mode is reported, not silently computed. */
    go(be, 1, TT_OP_BITWOPDMAREG(0, 3, 10, 1, 0));
    assert_non_null(be_error(be));
}

static void test_thcon_occupancy(void **state) {
    be_t *be = BE(state);
    uint32_t add_same = TT_OP_ADDDMAREG(0, 4, 1, 0); /* GPRs 0 and 1: same group: 3 */
    uint32_t add_far = TT_OP_ADDDMAREG(0, 4, 8, 0);  /* different groups: 4 */
    uint32_t nop = TT_OP_NOP, sfp = TT_OP_SFPNOP;
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
    go(be, 2, TT_OP_STOREREG(7, 0x1000A));
    assert_int_equal(fx->tile.stores, 1);
    assert_int_equal(fx->tile.last_addr, 0xFFB40028u);
    assert_int_equal(fx->tile.last_val, 0xCAFEF00D);
    /* C0 (memory request outstanding) for 3 + 5 cycles. */
    expect_busy_for(be, 2, 0, 8);

    fx->tile.load_val = 0x600DD00D;
    go(be, 2, TT_OP_LOADREG(9, 0x1000A));
    assert_int_equal(fx->tile.loads, 1);
    assert_int_equal(be_gpr_read(be, 2, 9), 0x600DD00D);
    assert_false(be_cond_busy(be, 1, 0)); /* per thread */
    expect_busy_for(be, 2, 0, 8);
    assert_null(be_error(be));

    /* Below 0xFFB11000: undefined behaviour, reported. */
    go(be, 2, TT_OP_STOREREG(0, 0x100));
    assert_int_equal(fx->tile.stores, 1);
    assert_non_null(be_error(be));
}

static void test_unimplemented_reported(void **state) {
    be_t *be = BE(state);
    go(be, 0, TT_OP_LOADIND(0, 0, 0, 0, 0)); /* LOADIND */
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
    go(be, 0, TT_OP_WRCFG(3, 0, 76));
    run(be, 2);
    assert_int_equal(cfg_word(be, 0, 76), 0x11111111);
    assert_int_equal(cfg_word(be, 1, 76), 0);

    /* SETC16 CFG_STATE_ID_StateID = 1: thread 1's WRCFG/RDCFG use bank 1. */
    go(be, 1, TT_OP_SETC16(0, 1));
    run(be, 1);
    be_gpr_write(be, 1, 3, 0x22222222);
    go(be, 1, TT_OP_WRCFG(3, 0, 76));
    run(be, 2);
    assert_int_equal(cfg_word(be, 0, 76), 0x11111111);
    assert_int_equal(cfg_word(be, 1, 76), 0x22222222);
    go(be, 1, TT_OP_RDCFG(20, 76));
    run(be, 2);
    assert_int_equal(be_gpr_read(be, 1, 20), 0x22222222);

    /* wr128b: GPRs 4..7 (InputReg & ~3) to words 72..75 (CfgIndex & ~3). */
    for (unsigned i = 0; i < 4; i++)
        be_gpr_write(be, 0, 4 + i, 0xA0 + i);
    go(be, 0, TT_OP_WRCFG(6, 1, 74));
    run(be, 2);
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(cfg_word(be, 0, 72 + i), 0xA0 + i);

    /* Index >= 180: global, written to both banks whatever the state ID. */
    be_gpr_write(be, 1, 3, 0x33333333);
    go(be, 1, TT_OP_WRCFG(3, 0, 209));
    run(be, 2);
    assert_int_equal(cfg_word(be, 0, 209), 0x33333333);
    assert_int_equal(cfg_word(be, 1, 209), 0x33333333);
    assert_null(be_error(be));
}

static void test_setc16_threadconfig(void **state) {
    be_t *be = BE(state);
    go(be, 2, TT_OP_SETC16(57, 0x3FF));
    uint32_t v = 0;
    assert_true(be_cfg_read(be, 0xA80 + 0x110 * 2 + 4 * 57, &v));
    assert_int_equal(v, 0x3FF);
    assert_true(be_cfg_read(be, 0xA80 + 0x110 * 1 + 4 * 57, &v));
    assert_int_equal(v, 0);
    /* RISC-V may read ThreadConfig but not write it. */
    assert_false(be_cfg_write(be, 0xA80 + 4 * 57, 1));
    go(be, 2, TT_OP_SETC16(68, 1)); /* out of range: reported */
    assert_non_null(be_error(be));
}

static void test_rmwcib(void **state) {
    be_t *be = BE(state);
    assert_true(be_cfg_write(be, 4 * 41, 0x12345678));
    go(be, 0, TT_OP_RMWCIB0(0x0F, 0xAB, 41)); /* byte 0, low nibble */
    run(be, 1);
    assert_int_equal(cfg_word(be, 0, 41), 0x1234567B);
    go(be, 0, TT_OP_RMWCIB3(0xFF, 0xCD, 41)); /* byte 3 */
    run(be, 1);
    assert_int_equal(cfg_word(be, 0, 41), 0xCD34567B);
    go(be, 0, TT_OP_RMWCIB1(0xF0, 0x00, 41)); /* byte 1, high nibble cleared */
    run(be, 1);
    assert_int_equal(cfg_word(be, 0, 41), 0xCD34067B);
    go(be, 0, TT_OP_RMWCIB2(0x00, 0xFF, 41)); /* mask 0: no change */
    run(be, 1);
    assert_int_equal(cfg_word(be, 0, 41), 0xCD34067B);
    assert_int_equal(cfg_word(be, 1, 41), 0);
}

static void test_cfgshiftmask(void **state) {
    be_t *be = BE(state);
    /* CFG += SCRATCH_SEC0 (tt-llk: CFGSHIFTMASK(1, 0b011, 32 - 1, 0, 0, reg)). */
    assert_true(be_cfg_write(be, 4 * 209, 0x100));
    assert_true(be_cfg_write(be, 4 * 76, 0x8000));
    go(be, 0, TT_OP_CFGSHIFTMASK(1, 3, 31, 0, 0, 76));
    assert_int_equal(cfg_word(be, 0, 76), 0x8100);
    /* Not pipelined: the next Config-group instruction waits a cycle (SETC16 does not). */
    assert_false(accepts(be, 1, TT_OP_RDCFG(0, 76)));
    assert_true(accepts(be, 1, TT_OP_SETC16(1, 1)));
    run(be, 1);
    assert_false(accepts(be, 1, TT_OP_RDCFG(0, 76)));
    run(be, 1);
    assert_true(accepts(be, 1, TT_OP_RDCFG(0, 76)));
    /* Scratch index 3 = the current thread's: thread 2 reads SCRATCH_SEC2 (211). Mask mode 0,
     * 8-bit mask rotated right by 8: replace byte 3 with scratch's byte 0. */
    assert_true(be_cfg_write(be, 4 * 211, 0x5A));
    assert_true(be_cfg_write(be, 4 * 77, 0xFFFFFFFF));
    go(be, 2, TT_OP_CFGSHIFTMASK(0, 0, 7, 8, 3, 77));
    assert_int_equal(cfg_word(be, 0, 77), 0x5AFFFFFF);
    run(be, 2);
    /* AluMode 7: subtract. */
    go(be, 2, TT_OP_CFGSHIFTMASK(1, 7, 31, 0, 3, 77));
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
    go(be, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    assert_false(be_cond_busy(be, 0, 2));
    assert_false(be_cond_busy(be, 1, 1));
    assert_true(be_thread_busy(be, 0));
    assert_int_equal(be_busy_classes(be, 0), (1u << 4) | (1u << 8));
    expect_busy_for(be, 0, 1, 8); /* C1 */
    go(be, 1, TT_OP_UNPACR(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    expect_busy_for(be, 1, 2, 8); /* C2 */
    /* Two queued on one unpacker run back to back. */
    go(be, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    go(be, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    expect_busy_for(be, 0, 1, 16);
}

static void test_unpacker_queue_full(void **state) {
    be_t *be = BE(state);
    uint32_t w = TT_OP_UNPACR(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    for (unsigned i = 0; i < 4; i++)
        go(be, 0, w);
    assert_false(accepts(be, 0, w));
    assert_false(accepts(be, 1, w));
    assert_true(accepts(be, 1, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)));
    run(be, 8);
    assert_true(accepts(be, 0, w));
}

static void test_cond_pack_math_sfpu(void **state) {
    be_t *be = BE(state);
    go(be, 1, TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)); /* PACR */
    assert_int_equal(be_busy_classes(be, 1), (1u << 5) | (1u << 8));
    expect_busy_for(be, 1, 3, 8); /* C3 */
    go(be, 0, TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    go(be, 1, TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)); /* queued behind thread 0's */
    expect_busy_for(be, 1, 3, 16);

    go(be, 2, TT_OP_ZEROACC(0, 0, 0, 0, 0)); /* ZEROACC, 1 cycle */
    assert_int_equal(be_busy_classes(be, 2), 1u << 10);
    expect_busy_for(be, 2, 4, 1);  /* C4 */
    go(be, 2, TT_OP_SETDVALID(3)); /* SETDVALID: both banks to the FPU */
    run(be, 1);
    go(be, 2, TT_OP_ELWADD(0, 0, 0, 0, 0));
    expect_busy_for(be, 2, 4, 5);

    go(be, 0, TT_OP_SFPMAD(0, 0, 0, 0, 0)); /* SFPMAD, 2 cycles */
    assert_int_equal(be_busy_classes(be, 0), 1u << 9);
    expect_busy_for(be, 0, 11, 2); /* C11 */
    go(be, 0, TT_OP_SFPNOP);       /* SFPNOP, 1 */
    expect_busy_for(be, 0, 11, 1);
}

static void test_cond_mover_cfg_riscv(void **state) {
    be_t *be = BE(state);
    go(be, 1, TT_OP_XMOV(0, 0)); /* XMOV: C9 is global */
    assert_true(be_cond_busy(be, 0, 9));
    expect_busy_for(be, 2, 9, 16);

    go(be, 0, TT_OP_WRCFG(0, 0, 10)); /* C12: any thread in the Config unit */
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
    assert_false(accepts(be, 1, TT_OP_ELWADD(3, 0, 0, 0, 0)));
    assert_false(accepts(be, 1, TT_OP_MOVA2D(0, 0, 0, 0, 0)));   /* MOVA2D */
    assert_true(accepts(be, 1, TT_OP_SETRWC(0, 0, 0, 0, 0, 0))); /* SETRWC */

    /* UNPACR with SetDatValid: SrcA bank 0 to the FPU when it retires. */
    go(be, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0));
    run(be, 7);
    assert_true(be_cond_busy(be, 1, 7));
    run(be, 1);
    assert_false(be_cond_busy(be, 1, 7)); /* C7: FPU-side SrcA valid */
    assert_false(be_cond_busy(be, 1, 5)); /* unpacker now on bank 1, still its own */
    assert_true(accepts(be, 1, TT_OP_MOVA2D(0, 0, 0, 0, 0)));
    assert_false(accepts(be, 1, TT_OP_ELWADD(3, 0, 0, 0, 0))); /* SrcB not yet */

    /* SrcB the same way; then fill SrcA bank 1 too. */
    go(be, 0, TT_OP_UNPACR(1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0));
    go(be, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0));
    run(be, 8);
    assert_false(be_cond_busy(be, 1, 8));
    assert_true(be_cond_busy(be, 0, 5)); /* both SrcA banks with the FPU: C5 busy */
    assert_false(be_cond_busy(be, 0, 6));

    /* A third SrcA unpack is accepted but waits inside the unpacker for bank 0. */
    go(be, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0));
    run(be, 20);
    assert_true(be_cond_busy(be, 0, 1));

    /* ELWADD with clear_dvalid = 3 hands both FPU-side banks back and flips the FPU pointers. */
    go(be, 1, TT_OP_ELWADD(3, 0, 0, 0, 0));
    assert_false(be_cond_busy(be, 0, 5));
    assert_false(be_cond_busy(be, 1, 7)); /* FPU now on SrcA bank 1, still valid */
    assert_true(be_cond_busy(be, 1, 8));  /* FPU on SrcB bank 1: not valid */
    /* The waiting unpack starts next cycle and completes 8 later. */
    expect_busy_for(be, 0, 1, 9);
    assert_true(be_cond_busy(be, 0, 5)); /* it handed bank 0 over again */
}

static void test_setdvalid_cleardvalid(void **state) {
    be_t *be = BE(state);
    go(be, 0, TT_OP_SETDVALID(1)); /* SETDVALID FlipSrcA */
    assert_false(be_cond_busy(be, 0, 7));
    assert_true(be_cond_busy(be, 0, 8));
    go(be, 0, TT_OP_SETDVALID(2)); /* FlipSrcB */
    assert_false(be_cond_busy(be, 0, 8));
    run(be, 1);
    /* CLEARDVALID cleardvalid=1 (SrcA), KeepReadingSameSrc: bank back, FPU stays on it. */
    go(be, 1, TT_OP_CLEARDVALID(1, 2));
    assert_true(be_cond_busy(be, 1, 7));
    run(be, 1);
    /* SETDVALID again gives unpacker bank 1; the FPU still looks at bank 0: C7 busy. */
    go(be, 0, TT_OP_SETDVALID(1));
    assert_true(be_cond_busy(be, 1, 7));
    run(be, 1);
    /* CLEARDVALID reset: everything to the Unpackers, pointers 0. */
    go(be, 1, TT_OP_CLEARDVALID(0, 1));
    for (unsigned c = 5; c <= 6; c++)
        assert_false(be_cond_busy(be, 0, c));
    for (unsigned c = 7; c <= 8; c++)
        assert_true(be_cond_busy(be, 0, c));
    run(be, 1);
    /* CLR_DVALID_SrcA_Disable (ThreadConfig 7 bit 0): ownership kept, pointer still flips. */
    go(be, 2, TT_OP_SETC16(7, 1));
    go(be, 0, TT_OP_SETDVALID(3));
    go(be, 0, TT_OP_SETDVALID(3)); /* both banks of both to the FPU */
    run(be, 1);
    go(be, 2, TT_OP_ELWADD(3, 0, 0, 0, 0));
    assert_true(be_cond_busy(be, 0, 5));  /* SrcA bank 0 still the FPU's */
    assert_false(be_cond_busy(be, 0, 6)); /* SrcB bank 0 handed back */
}

static void test_unpacr_nop_set_dvalid(void **state) {
    be_t *be = BE(state);
    /* UNPACR_NOP(SrcB, ..., Set_Dvalid=1, ...): hands SrcB over when it retires. */
    go(be, 0, TT_OP_UNPACR_NOP(1, 0, 0, 1, 0, 0, 0, 0, 1));
    assert_true(be_cond_busy(be, 0, 8));
    run(be, 8);
    assert_false(be_cond_busy(be, 0, 8));
    assert_false(be_cond_busy(be, 0, 6));
}

/* ---- admission across threads ---- */

static void test_fpu_one_per_cycle(void **state) {
    be_t *be = BE(state);
    uint32_t zeroacc = TT_OP_ZEROACC(0, 0, 0, 0, 0);
    go(be, 0, zeroacc);
    assert_false(accepts(be, 1, zeroacc));
    assert_false(accepts(be, 0, zeroacc));
    assert_true(accepts(be, 1, TT_OP_SFPNOP));
    run(be, 1);
    assert_true(accepts(be, 1, zeroacc));
}

static void test_config_one_per_cycle(void **state) {
    be_t *be = BE(state);
    go(be, 0, TT_OP_WRCFG(0, 0, 1));
    assert_false(accepts(be, 1, TT_OP_WRCFG(0, 0, 2)));
    assert_false(accepts(be, 2, TT_OP_RMWCIB0(0, 0, 3)));
    assert_true(accepts(be, 2, TT_OP_SETC16(3, 0)));
    run(be, 1);
    assert_true(accepts(be, 1, TT_OP_WRCFG(0, 0, 2)));
}

static void test_sync_ops_ignored(void **state) {
    be_t *be = BE(state);
    uint32_t sempost = TT_OP_SEMPOST(1);
    assert_true(accepts(be, 0, sempost));
    be_dispatch(be, 0, tt_op(TT_OPC_SEMPOST), sempost);
    assert_false(be_thread_busy(be, 0));
    assert_int_equal(be_busy_classes(be, 0), 0);
    /* ...but a ThCon instruction of the thread still freezes it. */
    go(be, 0, TT_OP_SETDMAREG(0, 1, 0, 0));
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
