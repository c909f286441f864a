/* STALLWAIT pattern 6: SFPU drain before a dest flip. tt-llk's math thread moves its Dst base
 * to the other half only once the FPU and the SFPU are done with the current one (cmath_common.h
 * dest_section_flip: TTI_STALLWAIT(p_stall::STALL_CFG, p_stall::MATH | p_stall::SFPU1);
 * TT_OP_SETC16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, base)). A MOVB2D keeps C4 busy, SFPU work
 * (SFPMAD, SFPLOADMACRO) C11; the SETC16 (Config, B7) waits for both.
 *
 * The observer (TRISC0) samples ThreadConfig[1][THD_DEST_OFFSET] against the SFPU and FPU
 * classes. Results (L1 0x9000): [0] the ThreadConfig entry after the run. */
#include "stallwait_observer.h"

/* Stands for DEST_TARGET_REG_CFG_MATH_Offset; the Blackhole index is not taken from
 * cfg_defines.h here (ttemu gives this entry no meaning), only the ordering matters. */
#define THD_DEST_OFFSET 12
#define DEST_HALF       0x200

int main(void) {
    observe_start(0xFFEF0A80u + 0x110u * 1 + 4u * THD_DEST_OFFSET, 0xFFFFu, BST_SFPU | BST_FPU);
    TTI(TT_OP_SETDVALID(3)); /* stands for the unpacker's data valid on SrcA and SrcB */
    TTI(TT_OP_SFPMAD(0, 1, 2, 3, 0));
    TTI(TT_OP_MOVB2D(0, 0, 0, 0, 0));    /* FPU, 4 cycles: C4 */
    TTI(TT_OP_SFPLOADMACRO(0, 0, 0, 0)); /* SFPU, 4 cycles: C11 */
    TTI(TT_OP_STALLWAIT(STALL_CFG, P_MATH | P_WAIT_SFPU));
    TTI(TT_OP_SETC16(THD_DEST_OFFSET, DEST_HALF));
    observe_stop();
    L1_WORD(0x9000) = THDCFG_WORD(1, THD_DEST_OFFSET);
    return 0;
}
