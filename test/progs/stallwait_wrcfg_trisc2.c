/* STALLWAIT pattern 1: "before WRCFG". tt-llk updates a packer config word from a GPR the Scalar
 * Unit just wrote (llk_pack.h L1 address update: ADDDMAREG ...; TTI_STALLWAIT(p_stall::STALL_CFG,
 * p_stall::THCON); TTI_WRCFG(...)). Here the GPR is filled by LOADREG, whose memory request keeps
 * C0 (THCON) busy after the instruction leaves ThCon (LOADREG.md: wait on C0 before using the
 * GPR); the wait blocks B7 (Config) so the WRCFG cannot copy the GPR before the load lands.
 *
 * The observer (TRISC0) checks the config word never changes while ThCon is busy; three LOADREGs
 * keep C0 busy long enough for it to sample. Results (L1 0x9000): [0] Config[0][60] after the
 * run, [1] GPR 20. */
#include "stallwait_observer.h"

#define CFG_IDX  60
#define GPR_DATA 20

int main(void) {
    observe_start(0xFFEF0000u + 4u * CFG_IDX, 0xFFFFFFFFu, BST_THCON);
    TTI(TT_OP_LOADREG(GPR_DATA + 1, TT_REGADDR(WALL_CLOCK_L)));
    TTI(TT_OP_LOADREG(GPR_DATA + 2, TT_REGADDR(WALL_CLOCK_L)));
    TTI(TT_OP_LOADREG(GPR_DATA, TT_REGADDR(WALL_CLOCK_L))); /* GPR 20 = the wall clock (never 0) */
    TTI(TT_OP_STALLWAIT(STALL_CFG, P_THCON));
    TTI(TT_OP_WRCFG(GPR_DATA, 0, CFG_IDX));
    observe_stop();
    L1_WORD(0x9000) = CFG_WORD(CFG_IDX);
    L1_WORD(0x9004) = GPR(GPR_DATA);
    return 0;
}
