/* sfpu_unary.h — the SFPU samples of firmware-samples/ops/ (sfpu_relu, sfpu_exp, sfpu_recip,
 * sfpu_sqrt, sfpu_sigmoid, sfpu_gelu, sfpu_tanh; docs/ops-sfpu.md): out = f(in0), bf16 [64, 64] (four
 * tiles), as tt-metal's eltwise unary SFPU ops run. TRISC0 unpacks each tile into SrcA
 * (llk_unpack_A); TRISC1 copies it into a 16-bit (BF16) Dst with MOVA2D (llk_math_eltwise_unary_
 * datacopy), then runs the SFPU function over the tile (llk_math_eltwise_unary_sfpu: the SFPU waits
 * for the copy, four faces of eight iterations, ttemu_sfpu.h); TRISC2 packs the tile to bf16
 * (llk_pack). Each NAME_trisc{0,1,2}.c is one line: the program of its core below. */
#ifndef SFPU_UNARY_H
#define SFPU_UNARY_H

#include "ops.h"
#include "ttemu_sfpu.h"

#define SFPU_UNARY_TILES 4

/* TRISC0: each tile of in0 into SrcA, face by face (SrcB zeroed beside it). */
static inline int sfpu_unary_unpack(void) {
    llk_state_t s = {0};
    llk_unpack_hw_configure(&s, LLK_BF16, LLK_BF16, LLK_BF16, LLK_BF16);
    llk_unpack_A_init(false);
    for (unsigned t = 0; t < SFPU_UNARY_TILES; t++)
        llk_unpack_A(&s, ops_tile(OPS_IN0, t, LLK_BF16));
    tensix_sync();
    return 0;
}

/* _llk_math_eltwise_unary_sfpu_init_: LaneConfig to its default (_init_sfpu_config_reg: SFPCONFIG
 * of 0 into LReg[15]'s slot, Mod1 1), ADDR_MOD_7 with no increments (the SFPU's loads and stores),
 * every RWC back to 0 (reset_counters(SET_ABD_F)). */
static inline void sfpu_unary_init(void) {
    llk_push(TT_OP_SFPCONFIG(0, 15, 1));
    llk_addr_mod(7, 0, 0, 0);
    llk_push(TT_OP_SETRWC(0, 0, 0, 0, 0, 0xF));
}

/* TRISC1: copy each tile into Dst, then INIT once and ITER over the tile (the SFPU stalls until the
 * copy is done: STALLWAIT(STALL_SFPU, MATH), _llk_math_eltwise_unary_sfpu_start_), then give the half
 * to the packer once the SFPU is done too. */
#define SFPU_UNARY_MATH(INIT, ITER)                                                                                    \
    do {                                                                                                               \
        llk_state_t s = {0};                                                                                           \
        llk_math_hw_configure(&s, false, false);                                                                       \
        llk_math_pack_sync_init(&s);                                                                                   \
        llk_math_datacopy_init(&s);                                                                                    \
        sfpu_unary_init();                                                                                             \
        INIT;                                                                                                          \
        for (unsigned t = 0; t < SFPU_UNARY_TILES; t++) {                                                              \
            llk_math_wait_for_dest_available();                                                                        \
            llk_math_datacopy(&s, 0);                                                                                  \
            llk_math_set_dst(&s, 0);                                                                                   \
            llk_stallwait(STALL_SFPU, P_MATH);                                                                         \
            SFPU_TILE(ITER);                                                                                           \
            llk_math_dest_section_done(&s);                                                                            \
        }                                                                                                              \
        tensix_sync();                                                                                                 \
        return 0;                                                                                                      \
    } while (0)

/* TRISC2: each Dst half (one tile, BF16) to its tile of out, bf16; the half cleared and given back. */
static inline int sfpu_unary_pack(void) {
    llk_state_t s = {0};
    llk_pack_hw_configure(&s, LLK_BF16, LLK_BF16, false);
    llk_pack_init();
    llk_pack_dest_init(&s);
    for (unsigned t = 0; t < SFPU_UNARY_TILES; t++) {
        llk_packer_wait_for_math_done();
        llk_pack(&s, 0, ops_tile(OPS_OUT, t, LLK_BF16));
        llk_pack_dest_section_done(&s);
    }
    tensix_sync();
    return 0;
}

#endif
