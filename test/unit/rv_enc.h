/* test/unit/rv_enc.h — RV32 instruction encoders for the unit tests that assemble programs in
 * memory (test_predecode.c, test_spin.c): the RISC-V base formats (I, S, B, U, R/AMO). Each
 * returns the 32-bit word. Unused ones are fine: they are static inline. */
#ifndef TTEMU_TEST_RV_ENC_H
#define TTEMU_TEST_RV_ENC_H

#include <stdint.h>

static inline uint32_t i_type(uint32_t op, uint32_t f3, int rd, int rs1, int32_t imm) {
    return ((uint32_t)imm & 0xfffu) << 20 | (uint32_t)rs1 << 15 | f3 << 12 | (uint32_t)rd << 7 | op;
}
static inline uint32_t addi(int rd, int rs1, int32_t imm) { return i_type(0x13, 0, rd, rs1, imm); }
static inline uint32_t lw(int rd, int rs1, int32_t imm) { return i_type(0x03, 2, rd, rs1, imm); }
static inline uint32_t jalr(int rd, int rs1, int32_t imm) { return i_type(0x67, 0, rd, rs1, imm); }
static inline uint32_t csrrs(int rd, unsigned csr, int rs1) { return i_type(0x73, 2, rd, rs1, (int32_t)csr); }
static inline uint32_t sw(int rs2, int rs1, int32_t imm) {
    uint32_t u = (uint32_t)imm;
    return (u >> 5 & 0x7fu) << 25 | (uint32_t)rs2 << 20 | (uint32_t)rs1 << 15 | 2u << 12 | (u & 31u) << 7 | 0x23u;
}
static inline uint32_t lui(int rd, uint32_t imm20) { return imm20 << 12 | (uint32_t)rd << 7 | 0x37u; }
static inline uint32_t b_type(uint32_t f3, int rs1, int rs2, int32_t off) {
    uint32_t u = (uint32_t)off;
    return (u >> 12 & 1u) << 31 | (u >> 5 & 0x3fu) << 25 | (uint32_t)rs2 << 20 | (uint32_t)rs1 << 15 | f3 << 12 |
           (u >> 1 & 0xfu) << 8 | (u >> 11 & 1u) << 7 | 0x63u;
}
static inline uint32_t beq(int rs1, int rs2, int32_t off) { return b_type(0, rs1, rs2, off); }
static inline uint32_t bne(int rs1, int rs2, int32_t off) { return b_type(1, rs1, rs2, off); }
static inline uint32_t amoswap(int rd, int rs1, int rs2) {
    return 0x01u << 27 | (uint32_t)rs2 << 20 | (uint32_t)rs1 << 15 | 2u << 12 | (uint32_t)rd << 7 | 0x2fu;
}
#define EBREAK 0x00100073u

#endif
