/* core/rv32.h — what the core's own files share (decode, exec, csr, disasm); not for the tile.
 *
 * The per-op tables here are generated from core/rv32_ops.def, so adding an instruction is one
 * line there (plus a body in core/rv32_exec.inc if Blackhole implements it).
 */
#ifndef TTEMU_CORE_RV32_H
#define TTEMU_CORE_RV32_H

#include "core/hart.h"

/* Extensions named in the op table. Which ones Blackhole implements, and the fault text for the
 * ones it does not, is rv_ext_info[] (TENSIX.md §1.2). */
typedef enum {
    RV_EXT_NONE,     /* the "illegal" pseudo-entry: no extension knows the word */
    RV_EXT_I,        /* RV32I base */
    RV_EXT_M,        /* multiply/divide */
    RV_EXT_ZICSR,    /* csrr* */
    RV_EXT_ZIFENCEI, /* fence.i */
    RV_EXT_ZBA,      /* sh1add/sh2add/sh3add */
    RV_EXT_ZBB,      /* basic bit manipulation, full */
    RV_EXT_ZBKB,     /* pack, brev8 (the part Blackhole has) */
    RV_EXT_ZAAMO,    /* amo*.w */
    RV_EXT_GREV,     /* grevi, Bitmanip draft 0.94 */
    RV_EXT_TT,       /* .ttinsn: push a Tensix instruction (TENSIX.md §1.5) */
    /* not on Blackhole (or not modelled): decoding them is only for a clear fault message */
    RV_EXT_ZBS,
    RV_EXT_ZALRSC,
    RV_EXT_ZBKB_NO, /* packh, zip, unzip */
    RV_EXT_ZBC,
    RV_EXT_ZBKX,
    RV_EXT_F, /* F, D, Zfh: every FP opcode */
    RV_EXT_V,
    RV_EXT_PRIV, /* mret, wfi: privileged architecture and interrupts are not modelled */
    RV_EXT_COUNT
} rv_ext_t;

/* Operand layout of an entry: which insn_t fields rv_decode fills, and how rv_disasm prints it. */
typedef enum {
    RV_FMT_NONE,  /* no operands (ecall, fence.i) */
    RV_FMT_R,     /* rd, rs1, rs2 */
    RV_FMT_R1,    /* rd, rs1 (unary bit-manipulation ops) */
    RV_FMT_I,     /* rd, rs1, imm[11:0] sign-extended */
    RV_FMT_SHIFT, /* rd, rs1, shamt (imm = 0..31) */
    RV_FMT_LOAD,  /* rd, imm(rs1): loads, and jalr (objdump prints it so) */
    RV_FMT_STORE, /* rs2, imm(rs1) */
    RV_FMT_B,     /* rs1, rs2, branch offset (even, sign-extended) */
    RV_FMT_U,     /* rd, imm = upper 20 bits in place (low 12 zero) */
    RV_FMT_J,     /* rd, jump offset (even, sign-extended) */
    RV_FMT_CSR,   /* rd, csr (imm), rs1 */
    RV_FMT_CSRI,  /* rd, csr (imm), uimm[4:0] (kept in rs1) */
    RV_FMT_AMO,   /* rd, rs2, (rs1) */
    RV_FMT_LR,    /* rd, (rs1) */
    RV_FMT_FENCE, /* pred/succ sets (imm = word[27:20]) */
    RV_FMT_TT,    /* imm = the Tensix instruction word */
    RV_FMT_RAW,   /* fields not decoded (unimplemented FP/vector): printed as the raw word */
} rv_fmt_t;

typedef struct {
    const char *mnemonic;
    uint32_t match, mask;
    uint8_t ext; /* rv_ext_t */
    uint8_t fmt; /* rv_fmt_t */
} rv_op_info_t;

typedef struct {
    const char *name; /* as the ISA documents spell it: "Zbs" */
    bool implemented;
    const char *why; /* completes "illegal instruction: <name> (<mnemonic>) ..." */
} rv_ext_info_t;

extern const rv_op_info_t rv_op_info[RV_OP_COUNT];
extern const rv_ext_info_t rv_ext_info[RV_EXT_COUNT];

/* Does Blackhole's core hart_id (the tile's order: BRISC 0, NCRISC 1, TRISC0..2 2..4) have this
 * instruction, which ttemu does not model? Then executing it is ttemu's gap, not the guest's
 * fault: the partial F/Zfh on every core, V on TRISC2, mret on BRISC and NCRISC (TENSIX.md §1.2). */
bool rv_is_gap(unsigned op, uint32_t word, unsigned hart_id);

/* ---- CSRs (core/csr.c) -----------------------------------------------------------------------
 * On failure they fill h->fault.kind and h->fault.msg and return false; the caller stops the hart
 * (fills pc/insn/state), as for an environment fault. */
bool hart_csr_read(hart_t *h, unsigned csr, uint32_t *val);
bool hart_csr_write(hart_t *h, unsigned csr, uint32_t val);
/* Name for disassembly ("mstatus"), or NULL if the CSR is unknown. */
const char *rv_csr_name(unsigned csr);

/* ABI register names, x0..x31 ("zero", "ra", ...). */
extern const char *const rv_reg_name[32];

#endif
