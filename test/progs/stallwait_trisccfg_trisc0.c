/* STALLWAIT pattern 7: TRISC_CFG before unpack (llk_unpack_A.h _llk_unpack_A_): the TRISC
 * writes the unpacker's L1 base address into Config with a plain store, posts UNPACK_SYNC
 * (semaphore 5) through its PCBuf window, and pushes TTI_STALLWAIT(p_stall::STALL_UNPACK,
 * p_stall::TRISC_CFG) before the unpack so the unpacker never runs on a configuration the RISC-V
 * is still writing (C10: a store of this TRISC to GPRs/config in flight); t6_semaphore_get
 * (SEMGET) releases the context after the unpack. wait_for_next_context spins while
 * UNPACK_SYNC >= 2 (two config contexts).
 *
 * The loop is software-pipelined: the next tile's configuration (its context's base address,
 * THCON_SEC0_REG3_Base_address / Base_cntx1_address, and offset word) is written right after this tile's UNPACR is
 * pushed, so those stores are in flight when the UNPACR reaches the gate, and C10 holds it until they have landed. (A
 * store made before the push is already done by then in ttemu: a RISC-V store stays in flight for 2 cycles, the push
 * needs 2 to reach the gate — docs/coprocessor-backend.md.) Results (L1 0x9000): [0], [1] the two contexts' base
 * address fields at the end (in 16-byte units, minus one: the unpacker reads from (Base + 1) * 16). */
#include "ttemu_fw.h"

#define TILES       4
#define BASE(ctx)   CFG_WORD(THCON_SEC0_REG3_Base_address_ADDR32 + (ctx))
#define OFFSET(ctx) CFG_WORD(THCON_SEC0_REG7_Offset_address_ADDR32 + (ctx))

int main(void) {
    tt_dp_configure_bf16();
    BASE(0) = (0x20000 >> 4) - 1;
    OFFSET(0) = 0;
    for (unsigned k = 0; k < TILES; k++) {
        while (SEMAPHORE(SEM_UNPACK_SYNC) >= 2) { /* wait_for_next_context(2) */
        }
        SEMAPHORE(SEM_UNPACK_SYNC) = 0; /* semaphore_post(UNPACK_SYNC) */
        /* The next tile's context, computed before the pushes so its stores follow them at once. */
        unsigned next = k + 1;
        volatile uint32_t *w = &BASE(next & 1), *o = &OFFSET(next & 1);
        uint32_t addr = ((0x20000 + 0x1000 * next) >> 4) - 1;
        __asm__ volatile("" : "+r"(w), "+r"(o), "+r"(addr));
        TTI(TT_OP_STALLWAIT(STALL_UNPACK, P_TRISC_CFG));
        TTI(TT_OP_UNPACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        if (next < TILES) {
            *w = addr;
            *o = 0;
        }
        TTI(TT_OP_SEMGET(T6_SEM(SEM_UNPACK_SYNC)));
    }
    tensix_sync();
    L1_WORD(0x9000) = BASE(0);
    L1_WORD(0x9004) = BASE(1);
    return 0;
}
