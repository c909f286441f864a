/* test/unit/test_tt_ops.c — the Blackhole Tensix opcode table against ../shared/docs/TENSIX.md §5
 * (tt-llk assembly.yaml, BH STALLWAIT.md) and §4.2 (Sync encodings). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "coproc/tt_fields.h"
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
    assert_int_equal(TT_OPCODE(0xA3200008u), TT_OPC_SEMINIT);
    assert_int_equal(TT_SEMINIT_SEM_SEL(0xA3200008u), 2);
    assert_int_equal(TT_SEMINIT_INIT_VALUE(0xA3200008u), 0);
    assert_int_equal(TT_SEMINIT_MAX_VALUE(0xA3200008u), 2);
    assert_int_equal(TT_SEMINIT_INIT_VALUE(0xA3170008u), 7);
    assert_int_equal(TT_SEMINIT_MAX_VALUE(0xA3170008u), 1);
    assert_int_equal(TT_OP_SEMINIT(2, 0, 2), 0xA3200008u);

    /* SEMWAIT wait_sem_cond [1:0], sem_sel [9:2], stall_res [23:15]; encoder arguments highest
     * field first, as tt-llk's TT_OP_SEMWAIT(stall_res, sem_sel, wait_sem_cond). */
    uint32_t w = TT_OP_SEMWAIT(0x40, 0x80, 2);
    assert_int_equal(w, 0xA6200202u); /* by hand: 0xA6 | 0x40 << 15 | 0x80 << 2 | 2 */
    assert_int_equal(TT_SEMWAIT_WAIT_SEM_COND(w), 2);
    assert_int_equal(TT_SEMWAIT_SEM_SEL(w), 0x80);
    assert_int_equal(TT_SEMWAIT_STALL_RES(w), 0x40);

    /* STALLWAIT ConditionMask [12:0] (bits 13-14 unused: reserved), BlockMask [23:15]. */
    w = TT_OP_STALLWAIT(0x1FF, 0x1FFF) | (3u << 13);
    assert_int_equal(TT_STALLWAIT_WAIT_RES(w), 0x1FFF);
    assert_int_equal(TT_STALLWAIT_STALL_RES(w), 0x1FF);
    assert_int_equal(TT_STALLWAIT_RESERVED, 3u << 13);
    assert_int_equal(TT_SEMPOST_RESERVED, 0xFFFFFFu & ~(0xFFu << 2));

    /* SETDMAREG: RegIndex16b [6:0], Payload_SigSel [21:8], Payload_SigSelSize [23:22]; the
     * immediate form's 16-bit NewValue spans the last two (SETDMAREG.md), and the encoder lets it
     * (unmasked, as tt-llk's). */
    w = TT_OP_SETDMAREG(0, 0xBEEF, 0, 0x13);
    assert_int_equal(TT_SETDMAREG_REGINDEX16B(w), 0x13);
    assert_int_equal(TT_SETDMAREG_PAYLOAD_SIGSEL(w), 0xBEEF & 0x3FFF);
    assert_int_equal(TT_SETDMAREG_PAYLOAD_SIGSELSIZE(w), 0xBEEF >> 14);
    assert_int_equal(TT_SETDMAREG_NEWVALUE(w), 0xBEEF);
    /* SETDMAREG_Special.md: ((WhichPackers << 7) + (InputSource << 3) + InputHalfReg). */
    w = TT_OP_SETDMAREG(2, (5u << 7) + (9u << 3) + 6u, 1, 0x13);
    assert_int_equal(TT_SETDMAREG_WHICHPACKERS(w), 5);
    assert_int_equal(TT_SETDMAREG_INPUTSOURCE(w), 9);
    assert_int_equal(TT_SETDMAREG_INPUTHALFREG(w), 6);
    assert_int_equal(TT_SETDMAREG_SETSIGNALSMODE(w), 1);

    /* ELWADD clear_dvalid @22 (two bits: FlipSrcA, FlipSrcB). */
    assert_int_equal(TT_ELWADD_CLEAR_DVALID(TT_OP_ELWADD(3, 0, 0, 0, 0)), 3);
    assert_int_equal(TT_OP_ELWADD(3, 0, 0, 0, 0), 0x28C00000u);
    /* WRCFG CfgReg [10:0] wr128b [15] GprAddress [21:16] (WRCFG.md: u11, bool, u6). */
    w = TT_OP_WRCFG(0x21, 1, 0xAB);
    assert_int_equal(w, 0xB02180ABu); /* 0xB0 | 0x21 << 16 | 1 << 15 | 0xAB */
    assert_int_equal(TT_WRCFG_CFGREG(w), 0xAB);
    assert_int_equal(TT_WRCFG_WR128B(w), 1);
    assert_int_equal(TT_WRCFG_GPRADDRESS(w), 0x21);
    assert_int_equal(TT_WRCFG_RESERVED, 0xC07800u);
    /* Field names with spaces become identifiers: "Mov block selection". */
    assert_int_equal(TT_XMOV_MOV_BLOCK_SELECTION(TT_OP_XMOV(1, 0)), 1);
    assert_int_equal(TT_OP_XMOV(1, 0), 0x40800000u);
    /* An opcode without fields is a constant; TT_WORD builds any word. */
    assert_int_equal(TT_OP_NOP, TT_WORD(TT_OPC_NOP, 0));
    assert_int_equal(TT_OPCODE(TT_WORD(0x06, 0x123456)), 0x06);
}

/* The generated macros agree with the table the disassembler walks (two readings of the one
 * .def: scripts/gen_tt_fields.py and the X-macro expansion in coproc/tt_ops.c). */
static unsigned reserved_checked;

static void check_reserved(uint8_t opcode, const char *mnemonic, uint32_t reserved) {
    const tt_op_t *op = tt_op(opcode);
    assert_non_null(op);
    assert_string_equal(op->mnemonic, mnemonic);
    uint32_t covered = 0;
    for (unsigned f = 0; f < op->nfields; f++)
        covered |= ((1u << op->fields[f].width) - 1u) << op->fields[f].lo;
    if (reserved != (0xFFFFFFu & ~covered))
        fail_msg("%s: TT_%s_RESERVED 0x%06x, table leaves 0x%06x", mnemonic, mnemonic, reserved, 0xFFFFFFu & ~covered);
    reserved_checked++;
}

static void test_fields_match_table(void **state) {
    (void)state;
#define CHECK_RESERVED(M) check_reserved(TT_OPC_##M, #M, TT_##M##_RESERVED);
    TT_FOR_EACH_OPCODE(CHECK_RESERVED)
#undef CHECK_RESERVED
    assert_int_equal(reserved_checked, 137);
    /* An encoder puts every field where the table says: all-ones fields fill the argument. */
    const tt_op_t *op = tt_op(TT_OPC_CFGSHIFTMASK);
    assert_int_equal(op->nfields, 6);
    assert_int_equal(TT_OP_CFGSHIFTMASK(1, 7, 31, 31, 3, 255), 0xB8FFFFFFu);
    assert_int_equal(TT_OP_UNPACR(1, 0xFF, 3, 7, 3, 1, 1, 1, 1, 1, 1, 1, 1), 0x42FFFFFFu);
}

static void test_disasm(void **state) {
    (void)state;
    char buf[128];
    uint32_t w = TT_OP_SEMWAIT(0x40, 2, 1); /* sem_sel=2, cond=1 */
    tt_disasm(w, buf, sizeof buf);
    assert_string_equal(buf, "SEMWAIT wait_sem_cond=1 sem_sel=0x2 stall_res=0x40");
    tt_disasm(TT_OP_NOP, buf, sizeof buf);
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
        cmocka_unit_test(test_fields_match_table),
        cmocka_unit_test(test_disasm),
        cmocka_unit_test(test_unit_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
