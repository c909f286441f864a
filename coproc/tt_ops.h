/* coproc/tt_ops.h — the Blackhole Tensix opcode table (one entry per opcode, data only).
 *
 * Every Tensix instruction word is opcode<<24 | 24-bit argument field. The table lists, for each
 * of the 137 Blackhole opcodes: mnemonic, backend unit, which Wait Gate block bits (B0..B8) hold
 * it, and its argument fields. Sources: tt-llk tt_llk_blackhole/instructions/assembly.yaml
 * (fields, ex_resource), BlackholeA0 STALLWAIT.md (block bits), ../shared/docs/TENSIX.md §5.
 * The entries themselves live in coproc/tt_ops.def (an X-macro); this header derives the rest.
 * Code that reads or builds a particular instruction uses the macros generated from the same .def,
 * coproc/tt_fields.h (TT_OPC_*, TT_<OP>_<FIELD>(w), TT_OP_<OP>(...)); this table is for what walks
 * every opcode alike (the Wait Gate's block bits, units, the disassembler).
 */
#ifndef TTEMU_COPROC_TT_OPS_H
#define TTEMU_COPROC_TT_OPS_H

#include <stdint.h>

typedef enum {
    TT_UNIT_MOP = 0, /* consumed by the MOP expander (MOP, MOP_CFG) */
    TT_UNIT_REPLAY,  /* consumed by the replay expander (REPLAY) */
    TT_UNIT_TTSYNC,  /* consumed by Auto TTSync (RESOURCEDECL) */
    TT_UNIT_SYNC,    /* Sync Unit: ATGETM/ATRELM, SEM*, STALLWAIT, SEMWAIT, STREAMWAIT */
    TT_UNIT_UNPACK,  /* Unpackers 0/1 */
    TT_UNIT_MATH,    /* Matrix unit (FPU) */
    TT_UNIT_PACK,    /* Packers */
    TT_UNIT_SFPU,    /* Vector unit */
    TT_UNIT_THCON,   /* Scalar unit (ThCon) */
    TT_UNIT_CONFIG,  /* Configuration unit */
    TT_UNIT_MOVER,   /* Mover (XMOV) */
    TT_UNIT_MISC,    /* Miscellaneous unit: ADC family, SETDVALID, NOP */
    TT_UNIT_COUNT
} tt_unit_t;

/* Block-mask bits of a latched STALLWAIT/SEMWAIT/STREAMWAIT (STALLWAIT.md; tt-llk p_stall). */
enum {
    TT_B0_TDMA = 1u << 0,
    TT_B1_SYNC = 1u << 1,
    TT_B2_PACK = 1u << 2,
    TT_B3_UNPACK = 1u << 3,
    TT_B4_XMOV = 1u << 4,
    TT_B5_THCON = 1u << 5,
    TT_B6_MATH = 1u << 6,
    TT_B7_CFG = 1u << 7,
    TT_B8_SFPU = 1u << 8,
    TT_B_ALL = 0x1FF,
};

/* How the Wait Gate treats the opcode. */
typedef enum {
    TT_GATE_MASK = 0, /* held while (latched block mask & block) != 0 */
    TT_GATE_NOP,      /* NOP: held only when the latched block mask is exactly 0x1FF */
    TT_GATE_NEVER,    /* never reaches the gate (MOP, MOP_CFG, REPLAY, RESOURCEDECL) */
} tt_gate_t;

typedef struct {
    const char *name; /* as tt-llk's assembly.yaml spells it */
    uint8_t lo;       /* first bit in the 24-bit argument field */
    uint8_t width;
} tt_field_t;

#define TT_MAX_FIELDS 14

typedef struct {
    uint8_t opcode;
    const char *mnemonic;
    tt_unit_t unit;
    tt_gate_t gate;
    uint16_t block;   /* block bits that hold it (TT_GATE_MASK); B0..B8 */
    uint8_t inferred; /* 1 if the block bits are inferred (opcode absent from the doc table) */
    uint8_t nfields;
    tt_field_t fields[TT_MAX_FIELDS];
} tt_op_t;

/* The entry for an opcode, or NULL if Blackhole has no such opcode. */
const tt_op_t *tt_op(uint8_t opcode);
/* All entries, in opcode order. */
const tt_op_t *tt_ops(unsigned *count);
const char *tt_unit_name(tt_unit_t u);
/* The mnemonic of word's opcode, or "?" for an opcode Blackhole does not have. */
const char *tt_mnemonic(uint32_t word);
/* "SEMWAIT wait_sem_cond=1 sem_sel=0x2 stall_res=0x40" into buf. */
void tt_disasm(uint32_t word, char *buf, unsigned len);

#endif
