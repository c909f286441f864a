/* test/unit/test_timing.c — the backend's timing model (coproc/timing.c) driven directly, with the
 * value side it calls: ThCon arithmetic (coproc/thcon.c), STOREREG/LOADREG through a fake tile,
 * the Configuration Unit (coproc/cfgunit.c) on config storage (coproc/state.c), conditions
 * C0..C12, SrcA/SrcB ownership, admission rules, and the datapath seam's events. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coproc/formats.h"
#include "coproc/timing.h"
#include "coproc/tt_fields.h"

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
    cp_state_t *st; /* the architectural state the timing model works on (allocated: state.h) */
    dp_t *dp;
    tm_t *tm;
} fixture_t;

static fixture_t fx; /* test-local; cmocka runs tests one at a time */
static const cp_origin_t no_origin = {.pc = 0, .core = -1};

static int setup(void **state) {
    memset(&fx, 0, sizeof fx);
    static uint8_t l1[4096]; /* enough L1 for the seam test's one-datum UNPACR */
    memset(l1, 0, sizeof l1);
    fx.env =
        (cp_env_t){.ctx = &fx.tile, .mmio_load = fake_load, .mmio_store = fake_store, .l1 = l1, .l1_size = sizeof l1};
    fx.st = calloc(1, sizeof *fx.st);
    if (!fx.st) return -1;
    st_reset(fx.st);
    fx.dp = dp_create();
    fx.tm = fx.dp ? tm_create(fx.st, fx.dp, &fx.env) : NULL;
    *state = &fx;
    return fx.tm ? 0 : -1;
}

static int teardown(void **state) {
    fixture_t *f = *state;
    tm_destroy(f->tm);
    dp_destroy(f->dp);
    free(f->st);
    return 0;
}

static tm_t *TM(void **state) { return ((fixture_t *)*state)->tm; }

/* The state's GPRs and the RISC-V view of its configuration space. */
static uint32_t gpr_read(unsigned t, unsigned i) { return fx.st->gpr[t][i]; }
static void gpr_write(unsigned t, unsigned i, uint32_t v) { fx.st->gpr[t][i] = v; }

/* Dispatch, asserting the unit accepts it. */
static void go(tm_t *tm, unsigned t, uint32_t w) {
    const tt_op_t *op = tt_op((uint8_t)TT_OPCODE(w));
    assert_non_null(op);
    assert_true(tm_can_accept(tm, t, op, w));
    tm_dispatch(tm, t, op, w, no_origin);
}

static bool accepts(const tm_t *tm, unsigned t, uint32_t w) {
    return tm_can_accept(tm, t, tt_op((uint8_t)TT_OPCODE(w)), w);
}

static void run(tm_t *tm, unsigned n) {
    while (n--)
        tm_cycle(tm);
}

/* Condition c of thread t is busy for exactly `cycles` cycles from now. */
static void expect_busy_for(tm_t *tm, unsigned t, unsigned c, unsigned cycles) {
    for (unsigned i = 0; i < cycles; i++) {
        assert_true(tm_cond_busy(tm, t, c));
        tm_cycle(tm);
    }
    assert_false(tm_cond_busy(tm, t, c));
}

/* ---- Scalar Unit ---- */

static void test_setdmareg_halves(void **state) {
    tm_t *tm = TM(state);
    go(tm, 0, TT_OP_SETDMAREG(0, 0xBEEF, 0, 2 * 5)); /* LO_16(5) */
    run(tm, 1);
    go(tm, 0, TT_OP_SETDMAREG(0, 0xDEAD, 0, 2 * 5 + 1)); /* HI_16(5) */
    run(tm, 1);
    assert_int_equal(gpr_read(0, 5), 0xDEADBEEF);
    assert_int_equal(gpr_read(1, 5), 0); /* per-thread GPRs */
    /* SetSignalsMode=1, ResultSize 2: four GPRs zeroed (SETDMAREG_Special.md). */
    for (unsigned i = 8; i < 12; i++)
        gpr_write(0, i, 0x1234);
    go(tm, 0, TT_OP_SETDMAREG(2, 0, 1, 2 * 8));
    run(tm, 1);
    for (unsigned i = 8; i < 12; i++)
        assert_int_equal(gpr_read(0, i), 0);
    assert_null(tm_error(tm));
}

static void test_dmareg_arith(void **state) {
    tm_t *tm = TM(state);
    gpr_write(1, 0, 0x00012345);
    gpr_write(1, 1, 0x00000010);
    gpr_write(1, 2, 0xFFFF0003);
    gpr_write(1, 3, 36);
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
        go(tm, 1, cases[i].word);
        run(tm, 4);
        assert_int_equal(gpr_read(1, 10), cases[i].expect);
    }
    assert_null(tm_error(tm));
    /* An undefined mode is reported, not silently computed. */
    go(tm, 1, TT_OP_BITWOPDMAREG(0, 3, 10, 1, 0));
    assert_non_null(tm_error(tm));
}

static void test_thcon_occupancy(void **state) {
    tm_t *tm = TM(state);
    uint32_t add_same = TT_OP_ADDDMAREG(0, 4, 1, 0); /* GPRs 0 and 1: same group: 3 */
    uint32_t add_far = TT_OP_ADDDMAREG(0, 4, 8, 0);  /* different groups: 4 */
    uint32_t nop = TT_OP_NOP, sfp = TT_OP_SFPNOP;
    go(tm, 0, add_same);
    /* Nothing of thread 0 passes; other threads' ThCon ops wait; their other ops pass. */
    for (unsigned i = 0; i < 3; i++) {
        assert_true(tm_thread_busy(tm, 0));
        assert_false(accepts(tm, 0, nop));
        assert_false(accepts(tm, 0, sfp));
        assert_false(accepts(tm, 1, add_same));
        assert_true(accepts(tm, 1, sfp));
        tm_cycle(tm);
    }
    assert_true(accepts(tm, 0, nop));
    assert_true(accepts(tm, 1, add_same));
    assert_false(tm_thread_busy(tm, 0));
    go(tm, 2, add_far);
    run(tm, 3);
    assert_false(accepts(tm, 2, nop));
    run(tm, 1);
    assert_true(accepts(tm, 2, nop));
}

static void test_storereg_loadreg(void **state) {
    fixture_t *fx = *state;
    tm_t *tm = fx->tm;
    /* Stream register 0xFFB40028 -> AddrLo = (0xFFB40028 - 0xFFB00000) >> 2 = 0x1000A. */
    gpr_write(2, 7, 0xCAFEF00D);
    go(tm, 2, TT_OP_STOREREG(7, 0x1000A));
    assert_int_equal(fx->tile.stores, 1);
    assert_int_equal(fx->tile.last_addr, 0xFFB40028u);
    assert_int_equal(fx->tile.last_val, 0xCAFEF00D);
    /* C0 (memory request outstanding) for 3 + 5 cycles. */
    expect_busy_for(tm, 2, 0, 8);

    fx->tile.load_val = 0x600DD00D;
    go(tm, 2, TT_OP_LOADREG(9, 0x1000A));
    assert_int_equal(fx->tile.loads, 1);
    assert_int_equal(gpr_read(2, 9), 0x600DD00D);
    assert_false(tm_cond_busy(tm, 1, 0)); /* per thread */
    expect_busy_for(tm, 2, 0, 8);
    assert_null(tm_error(tm));

    /* Below 0xFFB11000: undefined behaviour, reported. */
    go(tm, 2, TT_OP_STOREREG(0, 0x100));
    assert_int_equal(fx->tile.stores, 1);
    assert_non_null(tm_error(tm));
}

static void test_unimplemented_reported(void **state) {
    tm_t *tm = TM(state);
    go(tm, 0, TT_OP_LOADIND(0, 0, 0, 0, 0)); /* LOADIND */
    assert_non_null(tm_error(tm));
    tm_reset(tm);
    assert_null(tm_error(tm));
}

/* ---- Configuration Unit ---- */

static uint32_t cfg_word(unsigned bank, unsigned idx) {
    uint32_t v = 0;
    assert_true(st_cfg_read(fx.st, bank * 0x380u + 4u * idx, &v));
    return v;
}

static void test_wrcfg_rdcfg_banks(void **state) {
    tm_t *tm = TM(state);
    gpr_write(0, 3, 0x11111111);
    go(tm, 0, TT_OP_WRCFG(3, 0, 76));
    run(tm, 2);
    assert_int_equal(cfg_word(0, 76), 0x11111111);
    assert_int_equal(cfg_word(1, 76), 0);

    /* SETC16 CFG_STATE_ID_StateID = 1: thread 1's WRCFG/RDCFG use bank 1. */
    go(tm, 1, TT_OP_SETC16(0, 1));
    run(tm, 1);
    gpr_write(1, 3, 0x22222222);
    go(tm, 1, TT_OP_WRCFG(3, 0, 76));
    run(tm, 2);
    assert_int_equal(cfg_word(0, 76), 0x11111111);
    assert_int_equal(cfg_word(1, 76), 0x22222222);
    go(tm, 1, TT_OP_RDCFG(20, 76));
    run(tm, 2);
    assert_int_equal(gpr_read(1, 20), 0x22222222);

    /* wr128b: GPRs 4..7 (InputReg & ~3) to words 72..75 (CfgIndex & ~3). */
    for (unsigned i = 0; i < 4; i++)
        gpr_write(0, 4 + i, 0xA0 + i);
    go(tm, 0, TT_OP_WRCFG(6, 1, 74));
    run(tm, 2);
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(cfg_word(0, 72 + i), 0xA0 + i);

    /* Index >= 180: global, written to both banks whatever the state ID. */
    gpr_write(1, 3, 0x33333333);
    go(tm, 1, TT_OP_WRCFG(3, 0, 209));
    run(tm, 2);
    assert_int_equal(cfg_word(0, 209), 0x33333333);
    assert_int_equal(cfg_word(1, 209), 0x33333333);
    assert_null(tm_error(tm));
}

static void test_setc16_threadconfig(void **state) {
    tm_t *tm = TM(state);
    go(tm, 2, TT_OP_SETC16(57, 0x3FF));
    uint32_t v = 0;
    assert_true(st_cfg_read(fx.st, 0xA80 + 0x110 * 2 + 4 * 57, &v));
    assert_int_equal(v, 0x3FF);
    assert_true(st_cfg_read(fx.st, 0xA80 + 0x110 * 1 + 4 * 57, &v));
    assert_int_equal(v, 0);
    /* RISC-V may read ThreadConfig but not write it. */
    assert_false(st_cfg_write(fx.st, 0xA80 + 4 * 57, 1));
    go(tm, 2, TT_OP_SETC16(68, 1)); /* out of range: reported */
    assert_non_null(tm_error(tm));
}

static void test_rmwcib(void **state) {
    tm_t *tm = TM(state);
    assert_true(st_cfg_write(fx.st, 4 * 41, 0x12345678));
    go(tm, 0, TT_OP_RMWCIB0(0x0F, 0xAB, 41)); /* byte 0, low nibble */
    run(tm, 1);
    assert_int_equal(cfg_word(0, 41), 0x1234567B);
    go(tm, 0, TT_OP_RMWCIB3(0xFF, 0xCD, 41)); /* byte 3 */
    run(tm, 1);
    assert_int_equal(cfg_word(0, 41), 0xCD34567B);
    go(tm, 0, TT_OP_RMWCIB1(0xF0, 0x00, 41)); /* byte 1, high nibble cleared */
    run(tm, 1);
    assert_int_equal(cfg_word(0, 41), 0xCD34067B);
    go(tm, 0, TT_OP_RMWCIB2(0x00, 0xFF, 41)); /* mask 0: no change */
    run(tm, 1);
    assert_int_equal(cfg_word(0, 41), 0xCD34067B);
    assert_int_equal(cfg_word(1, 41), 0);
}

static void test_cfgshiftmask(void **state) {
    tm_t *tm = TM(state);
    /* CFG += SCRATCH_SEC0 (tt-llk: CFGSHIFTMASK(1, 0b011, 32 - 1, 0, 0, reg)). */
    assert_true(st_cfg_write(fx.st, 4 * 209, 0x100));
    assert_true(st_cfg_write(fx.st, 4 * 76, 0x8000));
    go(tm, 0, TT_OP_CFGSHIFTMASK(1, 3, 31, 0, 0, 76));
    assert_int_equal(cfg_word(0, 76), 0x8100);
    /* Not pipelined: the next Config-group instruction waits a cycle (SETC16 does not). */
    assert_false(accepts(tm, 1, TT_OP_RDCFG(0, 76)));
    assert_true(accepts(tm, 1, TT_OP_SETC16(1, 1)));
    run(tm, 1);
    assert_false(accepts(tm, 1, TT_OP_RDCFG(0, 76)));
    run(tm, 1);
    assert_true(accepts(tm, 1, TT_OP_RDCFG(0, 76)));
    /* Scratch index 3 = the current thread's: thread 2 reads SCRATCH_SEC2 (211). Mask mode 0,
     * 8-bit mask rotated right by 8: replace byte 3 with scratch's byte 0. */
    assert_true(st_cfg_write(fx.st, 4 * 211, 0x5A));
    assert_true(st_cfg_write(fx.st, 4 * 77, 0xFFFFFFFF));
    go(tm, 2, TT_OP_CFGSHIFTMASK(0, 0, 7, 8, 3, 77));
    assert_int_equal(cfg_word(0, 77), 0x5AFFFFFF);
    run(tm, 2);
    /* AluMode 7: subtract. */
    go(tm, 2, TT_OP_CFGSHIFTMASK(1, 7, 31, 0, 3, 77));
    assert_int_equal(cfg_word(0, 77), 0x5AFFFFFFu - 0x5Au);
}

static void test_riscv_cfg_window(void **state) {
    (void)state;
    uint32_t v;
    /* Bank writes. */
    assert_true(st_cfg_write(fx.st, 0x000 + 4 * 10, 1));
    assert_true(st_cfg_write(fx.st, 0x380 + 4 * 10, 2));
    assert_int_equal(cfg_word(0, 10), 1);
    assert_int_equal(cfg_word(1, 10), 2);
    /* ConfigDualWrite: both banks; reads bank 0. */
    assert_true(st_cfg_write(fx.st, 0x700 + 4 * 11, 0x77));
    assert_int_equal(cfg_word(0, 11), 0x77);
    assert_int_equal(cfg_word(1, 11), 0x77);
    assert_true(st_cfg_write(fx.st, 0x000 + 4 * 11, 0x66));
    assert_true(st_cfg_read(fx.st, 0x700 + 4 * 11, &v));
    assert_int_equal(v, 0x66);
    /* Global registers (>= 180) through one bank reach both. */
    assert_true(st_cfg_write(fx.st, 0x380 + 4 * 186, 0xABC));
    assert_int_equal(cfg_word(0, 186), 0xABC);
    assert_int_equal(cfg_word(1, 186), 0xABC);
    assert_true(st_cfg_write(fx.st, 4 * 179, 5));
    assert_int_equal(cfg_word(1, 179), 0);
    /* Misaligned or past the end. */
    assert_false(st_cfg_write(fx.st, 2, 1));
    assert_false(st_cfg_read(fx.st, 0xDB0, &v));
    assert_true(st_cfg_read(fx.st, 0xDAC, &v));
    /* GPR window (the coprocessor's, bounds-checked). */
    cp_t *cp = cp_create(NULL);
    assert_non_null(cp);
    cp_gpr_write(cp, 2, 63, 0x1234);
    cp_gpr_write(cp, 2, 64, 0x5678); /* ignored */
    assert_int_equal(cp_gpr_read(cp, 2, 63), 0x1234);
    assert_int_equal(cp_gpr_read(cp, 2, 64), 0);
    assert_int_equal(cp_gpr_read(cp, 3, 0), 0);
    cp_destroy(cp);
}

/* ---- conditions ---- */

static void test_cond_unpack(void **state) {
    tm_t *tm = TM(state);
    go(tm, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    assert_false(tm_cond_busy(tm, 0, 2));
    assert_false(tm_cond_busy(tm, 1, 1));
    assert_true(tm_thread_busy(tm, 0));
    assert_int_equal(tm_busy_classes(tm, 0), (1u << 4) | (1u << 8));
    expect_busy_for(tm, 0, 1, 8); /* C1 */
    go(tm, 1, TT_OP_UNPACR(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    expect_busy_for(tm, 1, 2, 8); /* C2 */
    /* Two queued on one unpacker run back to back. */
    go(tm, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    go(tm, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    expect_busy_for(tm, 0, 1, 16);
}

static void test_unpacker_queue_full(void **state) {
    tm_t *tm = TM(state);
    uint32_t w = TT_OP_UNPACR(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    for (unsigned i = 0; i < 4; i++)
        go(tm, 0, w);
    assert_false(accepts(tm, 0, w));
    assert_false(accepts(tm, 1, w));
    assert_true(accepts(tm, 1, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)));
    run(tm, 8);
    assert_true(accepts(tm, 0, w));
}

static void test_cond_pack_math_sfpu(void **state) {
    tm_t *tm = TM(state);
    go(tm, 1, TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)); /* PACR */
    assert_int_equal(tm_busy_classes(tm, 1), (1u << 5) | (1u << 8));
    expect_busy_for(tm, 1, 3, 8); /* C3 */
    go(tm, 0, TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    go(tm, 1, TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)); /* queued behind thread 0's */
    expect_busy_for(tm, 1, 3, 16);

    go(tm, 2, TT_OP_ZEROACC(0, 0, 0, 0, 0)); /* ZEROACC, 1 cycle */
    assert_int_equal(tm_busy_classes(tm, 2), 1u << 10);
    expect_busy_for(tm, 2, 4, 1);  /* C4 */
    go(tm, 2, TT_OP_SETDVALID(3)); /* SETDVALID: both banks to the FPU */
    run(tm, 1);
    go(tm, 2, TT_OP_ELWADD(0, 0, 0, 0, 0));
    expect_busy_for(tm, 2, 4, 5);

    go(tm, 0, TT_OP_SFPMAD(0, 0, 0, 0, 0)); /* SFPMAD, 2 cycles */
    assert_int_equal(tm_busy_classes(tm, 0), 1u << 9);
    expect_busy_for(tm, 0, 11, 2); /* C11 */
    go(tm, 0, TT_OP_SFPNOP);       /* SFPNOP, 1 */
    expect_busy_for(tm, 0, 11, 1);
}

static void test_cond_mover_cfg_riscv(void **state) {
    tm_t *tm = TM(state);
    go(tm, 1, TT_OP_XMOV(0, 0)); /* XMOV: C9 is global */
    assert_true(tm_cond_busy(tm, 0, 9));
    expect_busy_for(tm, 2, 9, 16);

    go(tm, 0, TT_OP_WRCFG(0, 0, 10)); /* C12: any thread in the Config unit */
    assert_true(tm_cond_busy(tm, 1, 12));
    assert_int_equal(tm_busy_classes(tm, 0), 1u << 6);
    assert_int_equal(tm_busy_classes(tm, 1), 0);
    expect_busy_for(tm, 2, 12, 2);

    tm_note_riscv_cfg_write(tm, 1); /* C10: this thread only */
    assert_false(tm_cond_busy(tm, 0, 10));
    assert_false(tm_thread_busy(tm, 1));
    expect_busy_for(tm, 1, 10, 2);
    assert_false(tm_cond_busy(tm, 0, 13));
}

/* ---- SrcA / SrcB ownership ---- */

static void test_src_banks_unpack_to_fpu(void **state) {
    tm_t *tm = TM(state);
    /* Reset: all banks to the Unpackers. C5/C6 clear, C7/C8 busy. */
    assert_false(tm_cond_busy(tm, 0, 5));
    assert_false(tm_cond_busy(tm, 0, 6));
    assert_true(tm_cond_busy(tm, 0, 7));
    assert_true(tm_cond_busy(tm, 0, 8));
    /* An FPU op reading SrcA/SrcB is held at the gate; one that reads neither passes. */
    assert_false(accepts(tm, 1, TT_OP_ELWADD(3, 0, 0, 0, 0)));
    assert_false(accepts(tm, 1, TT_OP_MOVA2D(0, 0, 0, 0, 0)));   /* MOVA2D */
    assert_true(accepts(tm, 1, TT_OP_SETRWC(0, 0, 0, 0, 0, 0))); /* SETRWC */

    /* UNPACR with SetDatValid: SrcA bank 0 to the FPU when it retires. */
    go(tm, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0));
    run(tm, 7);
    assert_true(tm_cond_busy(tm, 1, 7));
    run(tm, 1);
    assert_false(tm_cond_busy(tm, 1, 7)); /* C7: FPU-side SrcA valid */
    assert_false(tm_cond_busy(tm, 1, 5)); /* unpacker now on bank 1, still its own */
    assert_true(accepts(tm, 1, TT_OP_MOVA2D(0, 0, 0, 0, 0)));
    assert_false(accepts(tm, 1, TT_OP_ELWADD(3, 0, 0, 0, 0))); /* SrcB not yet */

    /* SrcB the same way; then fill SrcA bank 1 too. */
    go(tm, 0, TT_OP_UNPACR(1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0));
    go(tm, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0));
    run(tm, 8);
    assert_false(tm_cond_busy(tm, 1, 8));
    assert_true(tm_cond_busy(tm, 0, 5)); /* both SrcA banks with the FPU: C5 busy */
    assert_false(tm_cond_busy(tm, 0, 6));

    /* A third SrcA unpack is accepted but waits inside the unpacker for bank 0. */
    go(tm, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0));
    run(tm, 20);
    assert_true(tm_cond_busy(tm, 0, 1));

    /* ELWADD with clear_dvalid = 3 hands both FPU-side banks back and flips the FPU pointers. */
    go(tm, 1, TT_OP_ELWADD(3, 0, 0, 0, 0));
    assert_false(tm_cond_busy(tm, 0, 5));
    assert_false(tm_cond_busy(tm, 1, 7)); /* FPU now on SrcA bank 1, still valid */
    assert_true(tm_cond_busy(tm, 1, 8));  /* FPU on SrcB bank 1: not valid */
    /* The waiting unpack starts next cycle and completes 8 later. */
    expect_busy_for(tm, 0, 1, 9);
    assert_true(tm_cond_busy(tm, 0, 5)); /* it handed bank 0 over again */
}

static void test_setdvalid_cleardvalid(void **state) {
    tm_t *tm = TM(state);
    go(tm, 0, TT_OP_SETDVALID(1)); /* SETDVALID FlipSrcA */
    assert_false(tm_cond_busy(tm, 0, 7));
    assert_true(tm_cond_busy(tm, 0, 8));
    go(tm, 0, TT_OP_SETDVALID(2)); /* FlipSrcB */
    assert_false(tm_cond_busy(tm, 0, 8));
    run(tm, 1);
    /* CLEARDVALID cleardvalid=1 (SrcA), KeepReadingSameSrc: bank back, FPU stays on it. */
    go(tm, 1, TT_OP_CLEARDVALID(1, 2));
    assert_true(tm_cond_busy(tm, 1, 7));
    run(tm, 1);
    /* SETDVALID again gives unpacker bank 1; the FPU still looks at bank 0: C7 busy. */
    go(tm, 0, TT_OP_SETDVALID(1));
    assert_true(tm_cond_busy(tm, 1, 7));
    run(tm, 1);
    /* CLEARDVALID reset: everything to the Unpackers, pointers 0. */
    go(tm, 1, TT_OP_CLEARDVALID(0, 1));
    for (unsigned c = 5; c <= 6; c++)
        assert_false(tm_cond_busy(tm, 0, c));
    for (unsigned c = 7; c <= 8; c++)
        assert_true(tm_cond_busy(tm, 0, c));
    run(tm, 1);
    /* CLR_DVALID_SrcA_Disable (ThreadConfig 7 bit 0): ownership kept, pointer still flips. */
    go(tm, 2, TT_OP_SETC16(7, 1));
    go(tm, 0, TT_OP_SETDVALID(3));
    go(tm, 0, TT_OP_SETDVALID(3)); /* both banks of both to the FPU */
    run(tm, 1);
    go(tm, 2, TT_OP_ELWADD(3, 0, 0, 0, 0));
    assert_true(tm_cond_busy(tm, 0, 5));  /* SrcA bank 0 still the FPU's */
    assert_false(tm_cond_busy(tm, 0, 6)); /* SrcB bank 0 handed back */
}

static void test_unpacr_nop_set_dvalid(void **state) {
    tm_t *tm = TM(state);
    /* UNPACR_NOP(SrcB, ..., Set_Dvalid=1, ...): hands SrcB over when it retires. */
    go(tm, 0, TT_OP_UNPACR_NOP(1, 0, 0, 1, 0, 0, 0, 0, 1));
    assert_true(tm_cond_busy(tm, 0, 8));
    run(tm, 8);
    assert_false(tm_cond_busy(tm, 0, 8));
    assert_false(tm_cond_busy(tm, 0, 6));
}

/* ---- admission across threads ---- */

static void test_fpu_one_per_cycle(void **state) {
    tm_t *tm = TM(state);
    uint32_t zeroacc = TT_OP_ZEROACC(0, 0, 0, 0, 0);
    go(tm, 0, zeroacc);
    assert_false(accepts(tm, 1, zeroacc));
    assert_false(accepts(tm, 0, zeroacc));
    assert_true(accepts(tm, 1, TT_OP_SFPNOP));
    run(tm, 1);
    assert_true(accepts(tm, 1, zeroacc));
}

static void test_config_one_per_cycle(void **state) {
    tm_t *tm = TM(state);
    go(tm, 0, TT_OP_WRCFG(0, 0, 1));
    assert_false(accepts(tm, 1, TT_OP_WRCFG(0, 0, 2)));
    assert_false(accepts(tm, 2, TT_OP_RMWCIB0(0, 0, 3)));
    assert_true(accepts(tm, 2, TT_OP_SETC16(3, 0)));
    run(tm, 1);
    assert_true(accepts(tm, 1, TT_OP_WRCFG(0, 0, 2)));
}

static void test_sync_ops_ignored(void **state) {
    tm_t *tm = TM(state);
    uint32_t sempost = TT_OP_SEMPOST(1);
    assert_true(accepts(tm, 0, sempost));
    tm_dispatch(tm, 0, tt_op(TT_OPC_SEMPOST), sempost, no_origin);
    assert_false(tm_thread_busy(tm, 0));
    assert_int_equal(tm_busy_classes(tm, 0), 0);
    /* ...but a ThCon instruction of the thread still freezes it. */
    go(tm, 0, TT_OP_SETDMAREG(0, 1, 0, 0));
    assert_false(accepts(tm, 0, sempost));
}

/* Two timing models, each with a state of its own and no datapath. */
typedef struct {
    cp_state_t *s[2];
    tm_t *m[2];
} tm_pair_t;

static tm_pair_t pair_new(void) {
    tm_pair_t p;
    for (int k = 0; k < 2; k++) {
        p.s[k] = calloc(1, sizeof *p.s[k]);
        assert_non_null(p.s[k]);
        st_reset(p.s[k]);
        p.m[k] = tm_create(p.s[k], NULL, &fx.env);
        assert_non_null(p.m[k]);
    }
    return p;
}

static void pair_free(tm_pair_t *p) {
    for (int k = 0; k < 2; k++) {
        tm_destroy(p->m[k]);
        free(p->s[k]);
    }
}

/* Models a and b, after the same instruction issued to thread t each its own way, show the same
 * unit, busy classes, conditions and marks, then and after every latency. */
static void same_after_issue(tm_t *a, tm_t *b, unsigned t) {
    for (unsigned c = 0; c < 20; c++) { /* (long enough for every latency) */
        assert_int_equal(tm_last_unit(a, t), tm_last_unit(b, t));
        assert_int_equal(tm_busy_classes(a, t), tm_busy_classes(b, t));
        assert_int_equal(tm_thread_busy(a, t), tm_thread_busy(b, t));
        for (unsigned n = 0; n < 13; n++)
            assert_int_equal(tm_cond_busy(a, t, n), tm_cond_busy(b, t, n));
        for (unsigned x = 0; x < CP_THREADS; x++)
            assert_int_equal(tm_head(a)->chg[x], tm_head(b)->chg[x]);
        tm_cycle(a);
        tm_cycle(b);
    }
}

/* tm_issue (the gate's way: one copy per thread, which takes an opcode's latency and unit from its
 * own table by the word's opcode) against tm_can_accept and tm_dispatch (the reference path's way,
 * through the opcode's entry): every opcode, on every thread, in a model and state of its own
 * each, with no datapath. Both accept or refuse alike; an accepted one leaves the same unit, the
 * same busy classes and conditions, the same marks, and the same ones after its latency. */
static void test_issue_routes_as_dispatch(void **state) {
    (void)state;
    unsigned nops;
    const tt_op_t *ops = tt_ops(&nops);
    unsigned issued = 0, sfpu = 0;
    for (unsigned i = 0; i < nops; i++)
        for (unsigned t = 0; t < CP_THREADS; t++) {
            tm_pair_t p = pair_new();
            tm_t *a = p.m[0], *b = p.m[1];
            const tt_op_t *op = &ops[i];
            uint32_t w = TT_WORD(op->opcode, 0);
            bool acc = tm_can_accept(a, t, op, w);
            if (acc) tm_dispatch(a, t, op, w, no_origin);
            assert_int_equal(tm_issue(b, op, w, no_origin, t), acc);
            same_after_issue(a, b, t);
            issued += acc;
            sfpu += acc && op->unit == TT_UNIT_SFPU;
            pair_free(&p);
        }
    assert_true(issued > 3 * 100);
    assert_true(sfpu > 3 * 20);
}

/* tm_sync_issue (the gates' way for a Sync Unit instruction) against tm_can_accept and
 * tm_dispatch (the reference path's): every Sync Unit opcode on every thread, with no ThCon
 * instruction executing, with one of the same thread (which freezes it) and with one of another
 * thread (which does not), each in a model of its own: both accept or refuse alike, and leave the
 * same unit, busy classes, conditions and marks, then and after every latency. */
static void test_sync_issue_routes_as_dispatch(void **state) {
    (void)state;
    unsigned nops;
    const tt_op_t *ops = tt_ops(&nops);
    unsigned syncs = 0, taken = 0, refused = 0;
    for (unsigned i = 0; i < nops; i++) {
        const tt_op_t *op = &ops[i];
        if (op->unit != TT_UNIT_SYNC) continue;
        syncs++;
        for (unsigned t = 0; t < CP_THREADS; t++)
            for (unsigned thcon = 0; thcon <= CP_THREADS; thcon++) { /* CP_THREADS: none */
                tm_pair_t p = pair_new();
                tm_t *a = p.m[0], *b = p.m[1];
                if (thcon < CP_THREADS) {
                    go(a, thcon, TT_OP_SETDMAREG(0, 1, 0, 0));
                    go(b, thcon, TT_OP_SETDMAREG(0, 1, 0, 0));
                }
                uint32_t w = TT_WORD(op->opcode, 0);
                bool acc = tm_can_accept(a, t, op, w);
                if (acc) tm_dispatch(a, t, op, w, no_origin);
                assert_int_equal(tm_sync_issue(b, t, op, w, no_origin), acc);
                assert_int_equal(acc, thcon != t);
                same_after_issue(a, b, t);
                taken += acc;
                refused += !acc;
                pair_free(&p);
            }
    }
    assert_true(syncs >= 8); /* the semaphores', mutexes' and waits' opcodes */
    assert_int_equal(refused, syncs * CP_THREADS);
    assert_int_equal(taken, syncs * CP_THREADS * CP_THREADS);
}

/* ---- the datapath seam (coproc/datapath.h) ---- */

/* dp_exec runs once per datapath instruction, at dispatch; never for other units. An unpacker
 * instruction's second event, dp_unpack_data, comes when it retires from its unpacker. */
static void test_datapath_seam_events(void **state) {
    tm_t *tm = TM(state);
    const dp_t *dp = fx.dp;
    assert_int_equal(dp_executed(dp), 0);
    go(tm, 0, TT_OP_SFPNOP);
    assert_int_equal(dp_executed(dp), 1);
    go(tm, 1, TT_OP_ZEROACC(0, 0, 0, 0, 0));
    assert_int_equal(dp_executed(dp), 2);
    cfg_set(fx.st, 0, CFG_THCON_SEC0_REG1_Disable_zero_compress, 1); /* a PACR ttemu models: */
    cfg_set(fx.st, 0, CFG_PCK_DEST_RD_CTRL_Read_32b_data, 1);        /* FP32 Dst to FP32 */
    go(tm, 2, TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1));
    assert_int_equal(dp_executed(dp), 3);
    go(tm, 2, TT_OP_SETADCXY(7, 0, 0, 0, 0, 0));
    assert_int_equal(dp_executed(dp), 4);
    run(tm, 10);
    /* Not the datapath's: NOP, SETDVALID (a hand-over), ThCon, Config, Mover, Sync. */
    go(tm, 0, TT_OP_NOP);
    go(tm, 1, TT_OP_SETDVALID(0));
    go(tm, 2, TT_OP_SETC16(1, 0));
    run(tm, 3);
    go(tm, 0, TT_OP_DMANOP);
    go(tm, 1, TT_OP_XMOV(0, 0));
    tm_dispatch(tm, 2, tt_op(TT_OPC_SEMPOST), TT_OP_SEMPOST(1), no_origin);
    run(tm, 20);
    assert_int_equal(dp_executed(dp), 4);
    /* An unpack computes its address at dispatch and moves its data when it retires (one FP32
     * datum, uncompressed: the tile descriptor's IsUncompressed bit). */
    assert_int_equal(dp_unpacks_retired(dp), 0);
    cfg_set(fx.st, 0, CFG_THCON_SEC0_REG0_TileDescriptor, 0x10);      /* FP32 in L1 */
    cfg_set(fx.st, 0, CFG_THCON_SEC0_REG2_Out_data_format, FMT_TF32); /* to TF32 in SrcA */
    go(tm, 0, TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    go(tm, 0, TT_OP_UNPACR_NOP(1, 0, 0, 0, 0, 0, 0, 0, 1)); /* unpacker 1: zero its bank */
    assert_int_equal(dp_executed(dp), 6);
    assert_int_equal(dp_unpacks_retired(dp), 0);
    run(tm, 7);
    assert_int_equal(dp_unpacks_retired(dp), 0);
    run(tm, 1); /* 8 cycles: both unpackers retire their instruction */
    assert_int_equal(dp_unpacks_retired(dp), 2);
    run(tm, 20);
    assert_int_equal(dp_executed(dp), 6);
    assert_int_equal(dp_unpacks_retired(dp), 2);
    if (tm_error(tm)) fail_msg("%s", tm_error(tm)->what);
}

/* Which opcodes reach the datapath: every unpacker, Matrix Unit, SFPU and packer instruction, and
 * of the Miscellaneous Unit exactly the ADC family (SETADC*, INCADC*, ADDRCR*). */
static void test_datapath_routes(void **state) {
    (void)state;
    unsigned n = 0, adc = 0, routed = 0;
    const tt_op_t *ops = tt_ops(&n);
    for (unsigned i = 0; i < n; i++) {
        const tt_op_t *op = &ops[i];
        bool is_adc = strncmp(op->mnemonic, "SETADC", 6) == 0 || strncmp(op->mnemonic, "INCADC", 6) == 0 ||
                      strncmp(op->mnemonic, "ADDRCR", 6) == 0;
        bool want = op->unit == TT_UNIT_UNPACK || op->unit == TT_UNIT_MATH || op->unit == TT_UNIT_SFPU ||
                    op->unit == TT_UNIT_PACK || (op->unit == TT_UNIT_MISC && is_adc);
        if (dp_handles(op) != want) fail_msg("%s: dp_handles %d, expected %d", op->mnemonic, dp_handles(op), want);
        adc += is_adc;
        routed += want;
    }
    assert_int_equal(adc, 8);
    assert_true(routed > 80);
    assert_false(dp_handles(NULL));
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
        T(test_issue_routes_as_dispatch),
        T(test_sync_issue_routes_as_dispatch),
        T(test_datapath_seam_events),
        cmocka_unit_test(test_datapath_routes),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
