/* core/disasm.c — one RV32 word as text, for fault reports and traces.
 *
 * The output follows GNU objdump's canonical (no-aliases) form with ABI register names, e.g.
 * "addi sp,sp,-16", "lw a0,8(sp)", "csrrs a0,mcycle,zero", so a trace can be compared with
 * objdump -M no-aliases. Branch and jump targets are printed as absolute addresses. Tensix
 * pushes print as ".ttinsn 0x<Tensix word>" (the word after the rotate), unknown words as
 * ".word 0x<raw>".
 */
#include <stdio.h>

#include "core/rv32.h"

const char *const rv_reg_name[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",  "a1",  "a2", "a3", "a4", "a5",
    "a6",   "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *const amo_order[4] = {"", ".rl", ".aq", ".aqrl"};

/* "iorw"-style set of a fence's predecessor or successor field. */
static void fence_set(char out[5], unsigned bits) {
    int n = 0;
    if (bits & 8) out[n++] = 'i';
    if (bits & 4) out[n++] = 'o';
    if (bits & 2) out[n++] = 'r';
    if (bits & 1) out[n++] = 'w';
    if (n == 0) out[n++] = '0'; /* an empty set (a reserved, do-nothing encoding) */
    out[n] = 0;
}

void rv_disasm(uint32_t word, uint32_t pc, char *buf, size_t len) {
    insn_t in;
    rv_decode(word, &in);
    const rv_op_info_t *op = &rv_op_info[in.op];
    const char *m = op->mnemonic;
    const char *rd = rv_reg_name[in.rd], *rs1 = rv_reg_name[in.rs1], *rs2 = rv_reg_name[in.rs2];
    uint32_t uimm = (uint32_t)in.imm;

    if (len == 0) return;
    switch ((rv_fmt_t)op->fmt) {
    case RV_FMT_NONE: snprintf(buf, len, "%s", m); break;
    case RV_FMT_R: snprintf(buf, len, "%s %s,%s,%s", m, rd, rs1, rs2); break;
    case RV_FMT_R1: snprintf(buf, len, "%s %s,%s", m, rd, rs1); break;
    case RV_FMT_I: snprintf(buf, len, "%s %s,%s,%d", m, rd, rs1, (int)in.imm); break;
    case RV_FMT_SHIFT: snprintf(buf, len, "%s %s,%s,0x%x", m, rd, rs1, uimm); break;
    case RV_FMT_LOAD: snprintf(buf, len, "%s %s,%d(%s)", m, rd, (int)in.imm, rs1); break;
    case RV_FMT_STORE: snprintf(buf, len, "%s %s,%d(%s)", m, rs2, (int)in.imm, rs1); break;
    case RV_FMT_B: snprintf(buf, len, "%s %s,%s,0x%x", m, rs1, rs2, pc + uimm); break;
    case RV_FMT_U: snprintf(buf, len, "%s %s,0x%x", m, rd, uimm >> 12); break;
    case RV_FMT_J: snprintf(buf, len, "%s %s,0x%x", m, rd, pc + uimm); break;
    case RV_FMT_CSR:
    case RV_FMT_CSRI: {
        char num[8];
        const char *csr = rv_csr_name(uimm);
        if (!csr) {
            snprintf(num, sizeof num, "0x%x", uimm);
            csr = num;
        }
        if (op->fmt == RV_FMT_CSR)
            snprintf(buf, len, "%s %s,%s,%s", m, rd, csr, rs1);
        else
            snprintf(buf, len, "%s %s,%s,%u", m, rd, csr, (unsigned)in.rs1);
        break;
    }
    /* aq/rl (word[26:25]) do nothing on Blackhole, but a trace should show what was written. */
    case RV_FMT_AMO: snprintf(buf, len, "%s%s %s,%s,(%s)", m, amo_order[(word >> 25) & 3], rd, rs2, rs1); break;
    case RV_FMT_LR: snprintf(buf, len, "%s%s %s,(%s)", m, amo_order[(word >> 25) & 3], rd, rs1); break;
    case RV_FMT_FENCE: {
        char pred[5], succ[5];
        fence_set(pred, uimm >> 4);
        fence_set(succ, uimm & 15);
        snprintf(buf, len, "%s %s,%s", m, pred, succ);
        break;
    }
    case RV_FMT_TT: snprintf(buf, len, "%s 0x%08x", m, uimm); break;
    case RV_FMT_RAW:
    default: snprintf(buf, len, in.op == RV_OP_ILLEGAL ? "%s 0x%08x" : "%s [0x%08x]", m, word);
    }
}
