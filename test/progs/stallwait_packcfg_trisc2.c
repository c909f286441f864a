/* STALLWAIT pattern 5: packer reconfiguration. tt-llk waits for the packers to finish before it
 * rewrites their configuration (llk_pack_common.h _llk_pack_reduce_mask_config_: SETDMAREG ...;
 * TTI_STALLWAIT(p_stall::STALL_CFG, p_stall::PACK); TTI_WRCFG ...; TTI_NOP; TTI_NOP). Two PACRs
 * keep C3 (PACK) busy; the wait blocks B7 so neither WRCFG lands while a pack is in flight.
 *
 * The observer (TRISC0) samples Config[0][61] against the packer class of tt_cfg_bstatus.
 * Results (L1 0x9000): [0] Config[0][61], [1] Config[0][62]. */
#include "stallwait_observer.h"

#define CFG_A    61
#define CFG_B    62
#define GPR_TMP0 28

int main(void) {
    tt_dp_configure_bf16();
    observe_start(0xFFEF0000u + 4u * CFG_A, 0xFFFFFFFFu, BST_PACK);
    TTI(TT_OP_SETDMAREG(0, 0x5678, 0, LO_16(GPR_TMP0)));
    TTI(TT_OP_SETDMAREG(0, 0x1234, 0, HI_16(GPR_TMP0)));
    TTI(TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    TTI(TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1));
    TTI(TT_OP_STALLWAIT(STALL_CFG, P_PACK)); /* wait for the packers before touching their config */
    TTI(TT_OP_WRCFG(GPR_TMP0, 0, CFG_A));
    TTI(TT_OP_WRCFG(GPR_TMP0, 0, CFG_B));
    TTI(TT_OP_NOP);
    TTI(TT_OP_NOP);
    observe_stop();
    L1_WORD(0x9000) = CFG_WORD(CFG_A);
    L1_WORD(0x9004) = CFG_WORD(CFG_B);
    return 0;
}
