/* STALLWAIT pattern 4: the MATH_PACK handshake, pack side (llk_pack_common.h). Per section:
 * _llk_packer_wait_for_math_done_ (SEMWAIT(STALL_TDMA, MATH_PACK, STALL_ON_ZERO)), the PACR,
 * then _llk_pack_dest_section_done_: STALLWAIT(STALL_MATH, PACK) so the Dst clear (ZEROACC) waits
 * for the packer, and SEMGET to give the half back to math. It stops the observer (TRISC0, which
 * records the largest semaphore 1 value: never above Max 2) once both threads are done. */
#include "stallwait_observer.h"

#define SECTIONS 6

int main(void) {
    tt_dp_configure_bf16();
    observe_start(PCBUF_BASE + 0x20u + 4u * SEM_MATH_PACK, 0xF, 0);
    for (int i = 0; i < SECTIONS; i++) {
        TTI(TT_OP_SEMWAIT(STALL_TDMA, T6_SEM(SEM_MATH_PACK), STALL_ON_ZERO));
        TTI(TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1));
        TTI(TT_OP_STALLWAIT(STALL_MATH, P_PACK));
        TTI(TT_OP_ZEROACC(1, 0, 0, 1, 0)); /* CLR_HALF of the section just packed */
        TTI(TT_OP_SEMGET(T6_SEM(SEM_MATH_PACK)));
    }
    tensix_sync();
    while (L1_WORD(0x9004) != 1) {
    }
    observe_stop();
    return 0;
}
