/* test/unit/test_tt_ops.c — the Blackhole Tensix opcode table against ../shared/docs/TENSIX.md §5
 * (tt-llk assembly.yaml, BH STALLWAIT.md) and §4.2 (Sync encodings). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "coproc/tt_ops.h"

static void test_count_sorted_unique(void **state) {
    (void)state;
    unsigned n = 0;
    const tt_op_t *ops = tt_ops(&n);
    assert_int_equal(n, 137);
    for (unsigned i = 1; i < n; i++)
        assert_true(ops[i - 1].opcode < ops[i].opcode);
    /* Every entry is reachable through the index, and nothing else is. */
    unsigned found = 0;
    for (unsigned o = 0; o < 256; o++) {
        const tt_op_t *op = tt_op((uint8_t)o);
        if (op) {
            assert_int_equal(op->opcode, o);
            found++;
        }
    }
    assert_int_equal(found, 137);
}

static void test_fields_well_formed(void **state) {
    (void)state;
    unsigned n = 0;
    const tt_op_t *ops = tt_ops(&n);
    for (unsigned i = 0; i < n; i++) {
        const tt_op_t *op = &ops[i];
        assert_true(op->nfields <= TT_MAX_FIELDS);
        assert_non_null(op->mnemonic);
        assert_true(op->unit < TT_UNIT_COUNT);
        assert_true((op->block & ~TT_B_ALL) == 0);
        if (op->gate == TT_GATE_MASK) assert_true(op->block != 0);
        for (unsigned f = 0; f < op->nfields; f++) {
            assert_non_null(op->fields[f].name);
            assert_true(op->fields[f].width >= 1);
            assert_true(op->fields[f].lo + op->fields[f].width <= 24);
            if (f) assert_true(op->fields[f - 1].lo + op->fields[f - 1].width <= op->fields[f].lo);
        }
    }
}

static void test_unknown(void **state) {
    (void)state;
    assert_null(tt_op(0x00));
    assert_null(tt_op(0x06));
    assert_null(tt_op(0x47));
    assert_null(tt_op(0xB9));
    assert_null(tt_op(0xFF));
}

typedef struct {
    uint8_t opcode;
    const char *mnemonic;
    tt_unit_t unit;
    tt_gate_t gate;
    uint16_t block;
    uint8_t inferred;
} spot_t;

/* Rows of TENSIX.md §5, copied by hand. */
static const spot_t spots[] = {
    {0x01, "MOP", TT_UNIT_MOP, TT_GATE_NEVER, 0, 0},
    {0x02, "NOP", TT_UNIT_MISC, TT_GATE_NOP, TT_B_ALL, 0},
    {0x03, "MOP_CFG", TT_UNIT_MOP, TT_GATE_NEVER, 0, 0},
    {0x04, "REPLAY", TT_UNIT_REPLAY, TT_GATE_NEVER, 0, 0},
    {0x05, "RESOURCEDECL", TT_UNIT_TTSYNC, TT_GATE_NEVER, 0, 0},
    {0x0C, "MOVDBGB2D", TT_UNIT_MATH, TT_GATE_MASK, TT_B6_MATH, 1},
    {0x10, "ZEROACC", TT_UNIT_MATH, TT_GATE_MASK, TT_B6_MATH, 0},
    {0x26, "MVMUL", TT_UNIT_MATH, TT_GATE_MASK, TT_B6_MATH, 0},
    {0x36, "CLEARDVALID", TT_UNIT_MATH, TT_GATE_MASK, TT_B6_MATH, 0},
    {0x40, "XMOV", TT_UNIT_MOVER, TT_GATE_MASK, TT_B0_TDMA | TT_B4_XMOV, 0},
    {0x41, "PACR", TT_UNIT_PACK, TT_GATE_MASK, TT_B0_TDMA | TT_B2_PACK, 0},
    {0x42, "UNPACR", TT_UNIT_UNPACK, TT_GATE_MASK, TT_B0_TDMA | TT_B3_UNPACK, 0},
    {0x44, "RSTDMA", TT_UNIT_THCON, TT_GATE_MASK, TT_B0_TDMA, 0},
    {0x45, "SETDMAREG", TT_UNIT_THCON, TT_GATE_MASK, TT_B0_TDMA | TT_B5_THCON, 0},
    {0x4B, "TBUFCMD", TT_UNIT_PACK, TT_GATE_MASK, TT_B0_TDMA | TT_B2_PACK, 1},
    {0x50, "SETADC", TT_UNIT_MISC, TT_GATE_MASK, TT_B0_TDMA, 0},
    {0x57, "SETDVALID", TT_UNIT_MISC, TT_GATE_MASK, TT_B0_TDMA, 0},
    {0x58, "ADDDMAREG", TT_UNIT_THCON, TT_GATE_MASK, TT_B0_TDMA | TT_B5_THCON, 0},
    {0x60, "DMANOP", TT_UNIT_THCON, TT_GATE_MASK, TT_B0_TDMA | TT_B5_THCON, 0},
    {0x67, "STOREREG", TT_UNIT_THCON, TT_GATE_MASK, TT_B0_TDMA | TT_B5_THCON, 0},
    {0x68, "LOADREG", TT_UNIT_THCON, TT_GATE_MASK, TT_B0_TDMA | TT_B5_THCON, 0},
    {0x70, "SFPLOAD", TT_UNIT_SFPU, TT_GATE_MASK, TT_B8_SFPU, 0},
    {0x8E, "SFP_STOCH_RND", TT_UNIT_SFPU, TT_GATE_MASK, TT_B8_SFPU, 0},
    {0x99, "SFPARECIP", TT_UNIT_SFPU, TT_GATE_MASK, TT_B8_SFPU, 0},
    {0xA0, "ATGETM", TT_UNIT_SYNC, TT_GATE_MASK, TT_B1_SYNC, 0},
    {0xA2, "STALLWAIT", TT_UNIT_SYNC, TT_GATE_MASK, TT_B_ALL, 0},
    {0xA3, "SEMINIT", TT_UNIT_SYNC, TT_GATE_MASK, TT_B1_SYNC, 0},
    {0xA6, "SEMWAIT", TT_UNIT_SYNC, TT_GATE_MASK, TT_B_ALL, 0},
    {0xA7, "STREAMWAIT", TT_UNIT_SYNC, TT_GATE_MASK, TT_B_ALL, 0},
    {0xB0, "WRCFG", TT_UNIT_CONFIG, TT_GATE_MASK, TT_B7_CFG, 0},
    {0xB2, "SETC16", TT_UNIT_CONFIG, TT_GATE_MASK, TT_B7_CFG, 0},
    {0xB6, "RMWCIB3", TT_UNIT_CONFIG, TT_GATE_MASK, TT_B7_CFG, 0},
    {0xB8, "CFGSHIFTMASK", TT_UNIT_CONFIG, TT_GATE_MASK, TT_B7_CFG, 0},
};

static void test_spot_rows(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof spots / sizeof spots[0]; i++) {
        const spot_t *s = &spots[i];
        const tt_op_t *op = tt_op(s->opcode);
        assert_non_null(op);
        assert_string_equal(op->mnemonic, s->mnemonic);
        assert_int_equal(op->unit, s->unit);
        assert_int_equal(op->gate, s->gate);
        if (s->gate != TT_GATE_NEVER) assert_int_equal(op->block, s->block);
        assert_int_equal(op->inferred, s->inferred);
    }
    /* Every SFP* mnemonic is an SFPU op held by B8 only. */
    unsigned n = 0, sfp = 0;
    const tt_op_t *ops = tt_ops(&n);
    for (unsigned i = 0; i < n; i++) {
        if (strncmp(ops[i].mnemonic, "SFP", 3) == 0) {
            assert_int_equal(ops[i].unit, TT_UNIT_SFPU);
            assert_int_equal(ops[i].block, TT_B8_SFPU);
            sfp++;
        }
    }
    assert_int_equal(sfp, 42);
}

static void test_sync_encodings(void **state) {
    (void)state;
    /* §4.2: SEMINIT SemMask [9:2] · NewValue [19:16] · NewMax [23:20]. The seed's
     * `ttseminit 0x8c800022` rotated right by 2 is 0xA3200008. */
    const tt_op_t *seminit = tt_op(0xA3);
    assert_int_equal(tt_field(seminit, 0xA3200008u, "sem_sel"), 2);
    assert_int_equal(tt_field(seminit, 0xA3200008u, "init_value"), 0);
    assert_int_equal(tt_field(seminit, 0xA3200008u, "max_value"), 2);
    assert_int_equal(tt_field(seminit, 0xA3170008u, "init_value"), 7);
    assert_int_equal(tt_field(seminit, 0xA3170008u, "max_value"), 1);
    assert_int_equal(tt_field(seminit, 0xA3170008u, "NewMax"), -1);

    /* SEMWAIT wait_sem_cond [1:0], sem_sel [9:2], stall_res [23:15]. */
    const tt_op_t *semwait = tt_op(0xA6);
    uint32_t w = 0xA6000000u | (0x40u << 15) | (0x80u << 2) | 2u;
    assert_int_equal(tt_field(semwait, w, "wait_sem_cond"), 2);
    assert_int_equal(tt_field(semwait, w, "sem_sel"), 0x80);
    assert_int_equal(tt_field(semwait, w, "stall_res"), 0x40);

    /* STALLWAIT ConditionMask [12:0] (bits 13-14 unused), BlockMask [23:15]. */
    const tt_op_t *stallwait = tt_op(0xA2);
    w = 0xA2000000u | (0x1FFu << 15) | (3u << 13) | 0x1FFFu;
    assert_int_equal(tt_field(stallwait, w, "wait_res"), 0x1FFF);
    assert_int_equal(tt_field(stallwait, w, "stall_res"), 0x1FF);

    /* SETDMAREG: RegIndex16b [6:0], Payload_SigSel [21:8], Payload_SigSelSize [23:22]. */
    const tt_op_t *setdmareg = tt_op(0x45);
    w = 0x45000000u | (0xBEEFu << 8) | 0x13u;
    assert_int_equal(tt_field(setdmareg, w, "RegIndex16b"), 0x13);
    assert_int_equal(tt_field(setdmareg, w, "Payload_SigSel"), 0xBEEF & 0x3FFF);
    assert_int_equal(tt_field(setdmareg, w, "Payload_SigSelSize"), 0xBEEF >> 14);

    /* ELWADD clear_dvalid @22 (two bits: FlipSrcA, FlipSrcB). */
    assert_int_equal(tt_field(tt_op(0x28), 0x28C00000u, "clear_dvalid"), 3);
    /* WRCFG CfgReg@0 wr128b@15 GprAddress@16. */
    w = 0xB0000000u | (0x21u << 16) | (1u << 15) | 0x0ABu;
    assert_int_equal(tt_field(tt_op(0xB0), w, "CfgReg"), 0xAB);
    assert_int_equal(tt_field(tt_op(0xB0), w, "wr128b"), 1);
    assert_int_equal(tt_field(tt_op(0xB0), w, "GprAddress"), 0x21);
    /* Field names with spaces are kept as assembly.yaml spells them. */
    assert_int_equal(tt_field(tt_op(0x40), 0x40800000u, "Mov block selection"), 1);
    assert_int_equal(tt_field(NULL, 0, "x"), -1);
}

static void test_disasm(void **state) {
    (void)state;
    char buf[128];
    uint32_t w = 0xA6000000u | (0x40u << 15) | (2u << 2) | 1u; /* sem_sel=2, cond=1 */
    tt_disasm(w, buf, sizeof buf);
    assert_string_equal(buf, "SEMWAIT wait_sem_cond=1 sem_sel=0x2 stall_res=0x40");
    tt_disasm(0x02000000u, buf, sizeof buf);
    assert_string_equal(buf, "NOP");
    tt_disasm(0x00000000u, buf, sizeof buf);
    assert_string_equal(buf, ".word 0x00000000");
    tt_disasm(0xA3200008u, buf, 8); /* truncates, stays terminated */
    assert_int_equal(strlen(buf), 7);
}

static void test_unit_names(void **state) {
    (void)state;
    assert_string_equal(tt_unit_name(TT_UNIT_THCON), "THCON");
    assert_string_equal(tt_unit_name(TT_UNIT_MISC), "MISC");
    assert_string_equal(tt_unit_name(TT_UNIT_COUNT), "?");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_sorted_unique),
        cmocka_unit_test(test_fields_well_formed),
        cmocka_unit_test(test_unknown),
        cmocka_unit_test(test_spot_rows),
        cmocka_unit_test(test_sync_encodings),
        cmocka_unit_test(test_disasm),
        cmocka_unit_test(test_unit_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
