/* MOP-heavy stream (TRISC1 / T1). tt-llk programs a MOP template once per operation
 * (ckernel_template / ckernel_unpack_template) and then issues one MOP word per tile; the MOP
 * expander turns it into the instruction sequence. Here each expanded instruction is a Scalar
 * Unit add on a GPR, so the GPR counts what the expander produced:
 *   1. template 1, OUTER x INNER: LoopOp = Loop0Last = Loop1Last = "GPR_LOOP += 1", EndOp0 =
 *      SEMPOST(MOP_OUTER_SEM) once per outer iteration. Issued MOP_REPEATS times.
 *   2. template 0 over 8 mask bits 0xAA (LSB first): a clear bit emits InsnA0 "GPR_MASK += 1" and
 *      InsnB "GPR_MASK += 0x100", a set bit SkipA0 "GPR_MASK += 0x10000" and SkipB (NOP).
 * MopCfg is rewritten only after mop_sync() (the expander samples it when a MOP starts).
 * Results (L1, --peek 0x9000:4): GPR_LOOP = MOP_REPEATS*OUTER*INNER, GPR_MASK = 0x00040404,
 * MOP_OUTER_SEM's Value = MOP_REPEATS*OUTER, done = 1. */
#include "ttemu_fw.h"

#define OUTER         5
#define INNER         20
#define MOP_REPEATS   2
#define MOP_OUTER_SEM 6u
#define GPR_LOOP      20
#define GPR_MASK      21
#define GPR_ADD(r, k) TT_OP_ADDDMAREG(1, (r), (k), (r)) /* GPR r += k (6-bit constant) */

#define RESULT(i) L1_WORD(0x9000u + 4u * (i))

static void gpr_zero(uint32_t r) {
    TTI(TT_OP_SETDMAREG(0, 0, 0, LO_16(r)));
    TTI(TT_OP_SETDMAREG(0, 0, 0, HI_16(r)));
}

int main(void) {
    TTI(TT_OP_SEMINIT(15, 0, T6_SEM(MOP_OUTER_SEM)));
    gpr_zero(GPR_LOOP);
    gpr_zero(GPR_MASK);
    tensix_sync();

    /* Template 1: the loop nest. */
    MOP_CFG(0) = OUTER;
    MOP_CFG(1) = INNER;
    MOP_CFG(2) = TT_OP_NOP;                            /* StartOp */
    MOP_CFG(3) = TT_OP_SEMPOST(T6_SEM(MOP_OUTER_SEM)); /* EndOp0 */
    MOP_CFG(4) = TT_OP_NOP;                            /* EndOp1 */
    MOP_CFG(5) = GPR_ADD(GPR_LOOP, 1);                 /* LoopOp */
    MOP_CFG(6) = TT_OP_NOP;                            /* LoopOp1: NOP, no alternation */
    MOP_CFG(7) = GPR_ADD(GPR_LOOP, 1);                 /* Loop0Last */
    MOP_CFG(8) = GPR_ADD(GPR_LOOP, 1);                 /* Loop1Last */
    for (int i = 0; i < MOP_REPEATS; i++)
        TTI(TT_OP_MOP(1, 0, 0));
    mop_sync();

    /* Template 0: the mask walk. MopCfg[1] bit 0 = HasB. */
    MOP_CFG(1) = 1;
    MOP_CFG(2) = TT_OP_ADDDMAREG(0, GPR_MASK, GPR_MASK + 1, GPR_MASK); /* InsnB: += GPR 22 (0x100) */
    MOP_CFG(3) = GPR_ADD(GPR_MASK, 1);                                 /* InsnA0 */
    MOP_CFG(7) = TT_OP_ADDDMAREG(0, GPR_MASK, GPR_MASK + 2, GPR_MASK); /* SkipA0: += GPR 23 (0x10000) */
    MOP_CFG(8) = TT_OP_NOP;                                            /* SkipB */
    TTI(TT_OP_SETDMAREG(0, 0x100, 0, LO_16(GPR_MASK + 1)));
    TTI(TT_OP_SETDMAREG(0, 0, 0, HI_16(GPR_MASK + 1)));
    TTI(TT_OP_SETDMAREG(0, 0, 0, LO_16(GPR_MASK + 2)));
    TTI(TT_OP_SETDMAREG(0, 1, 0, HI_16(GPR_MASK + 2)));
    TTI(TT_OP_MOP_CFG(0));
    TTI(TT_OP_MOP(0, 7, 0xAA));
    tensix_sync();

    RESULT(0) = GPR(GPR_LOOP);
    RESULT(1) = GPR(GPR_MASK);
    RESULT(2) = semaphore_read(MOP_OUTER_SEM);
    RESULT(3) = 1;
    return 0;
}
