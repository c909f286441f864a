/* ttemu_llk.h — tt-llk-style helpers for RV32 sample kernels (firmware-samples/ops/, docs/ops.md):
 * the Blackhole LLK sequences of tenstorrent/tt-llk tt_llk_blackhole/ (llk_unpack_A, llk_unpack_AB,
 * llk_unpack_AB_matmul, llk_unpack_AB_reduce, llk_math_eltwise_unary_datacopy,
 * llk_math_eltwise_binary, llk_math_matmul, llk_math_reduce, llk_pack, llk_pack_common and the
 * common/inc headers they use), restated in C for one tile at a time with the project's Tensix
 * encoders (coproc/tt_fields.h) and config field names (coproc/cfg_fields.def). Written from
 * reading tt-llk, not copied: the same instructions in the same order, the same configuration.
 *
 * A sample is three programs, one per TRISC, that share nothing but L1 and the Tensix state:
 *   TRISC0 (T0, unpack): llk_unpack_hw_configure, an llk_unpack_*_init, then per tile an
 *       llk_unpack_* with the tile's L1 address; unpacker config contexts 0/1 alternate per tile,
 *       guarded by semaphore UNPACK_SYNC (wait_for_next_context, semaphore_post; SEMGET).
 *   TRISC1 (T1, math): llk_math_hw_configure, llk_math_pack_sync_init, an llk_math_*_init, then
 *       per tile llk_math_wait_for_dest_available, the math, llk_math_dest_section_done. Dst is
 *       used in halves (DstSync::SyncHalf): semaphore MATH_PACK (max 2) counts the halves math
 *       has filled and the packer has not yet emptied.
 *   TRISC2 (T2, pack): llk_pack_hw_configure, llk_pack_init, llk_pack_dest_init, then per tile
 *       llk_packer_wait_for_math_done, llk_pack (Dst -> the tile's L1 address),
 *       llk_pack_dest_section_done (ZEROACC of the half, SEMGET MATH_PACK, flip the half).
 * Unpack and math meet through the Src banks' data-valid handshake (the hardware's), math and
 * pack through MATH_PACK. Nothing here polls L1: the inputs are in place before the cores start.
 *
 * Addresses are L1 byte addresses of 32x32 tiles in tt-metal's tile layout (docs/tensors.md),
 * 16-byte aligned. Each helper takes a `llk_state_t` the thread keeps (no globals). */
#ifndef TTEMU_LLK_H
#define TTEMU_LLK_H

#include <stdbool.h>
#include <stdint.h>

#include "ttemu_fw.h"

/* ---- data formats (coproc/formats.h codes) and tile geometry ------------------------------- */
enum {
    LLK_FP32 = 0,
    LLK_FP16 = 1,
    LLK_BFP8A = 2,
    LLK_TF32 = 4,
    LLK_BF16 = 5,
    LLK_BFP8 = 6,
    LLK_BFP4 = 7,
    LLK_INT32 = 8,
    LLK_UINT16 = 9,
    LLK_FP8 = 10,
    LLK_INT8 = 14,
    /* tt-llk's DataFormat::UInt8: the hardware code INT8 (low four bits) with the Src register's
     * unsigned flag (ALU_FORMAT_SPEC_REG0_SrcAUnsigned / SrcBUnsigned) and the packer's
     * Read_unsigned. */
    LLK_UINT8 = 30,
};
/* The hardware's 4-bit format code of an LLK format. */
static inline unsigned llk_hw_fmt(unsigned fmt) { return fmt & 0xFu; }
#define LLK_FACE_DATUMS 256u
#define LLK_TILE_DATUMS 1024u
/* Bytes of one tile in L1 (no header): datums, plus a BFP format's 64-byte exponent section. */
static inline uint32_t llk_tile_bytes(unsigned fmt) {
    switch (fmt) {
    case LLK_FP32:
    case LLK_TF32:
    case LLK_INT32: return 4096;
    case LLK_BFP8:
    case LLK_BFP8A: return 1024 + 64;
    case LLK_BFP4: return 512 + 64;
    case LLK_FP8:
    case LLK_INT8:
    case LLK_UINT8: return 1024;
    default: return 2048;
    }
}
/* A Dst/Src datum's bytes for a register-side format (tt-llk's x_stride: 4, 2 or 1). */
static inline unsigned llk_datum_bytes(unsigned fmt) { return (fmt & 3) == 0 ? 4 : (fmt & 3) == 1 ? 2 : 1; }
/* The 16-byte units minus one that the unpacker base and packer destination registers take. */
static inline uint32_t llk_addr16(uint32_t addr) { return (addr >> 4) - 1; }

/* ThreadConfig fields by their cfg_defines.h names (ttemu_fw.h has the Config ones): NAME_ADDR32
 * (the SETC16 register index), NAME_SHAMT, NAME_WIDTH. */
enum {
#define CFG_FIELD(name, word, shift, width, stride)
#define THCFG_FIELD(name, word, shift, width, stride)                                                                  \
    name##_ADDR32 = (word), name##_SHAMT = (shift), name##_WIDTH = (width),
#include "coproc/cfg_fields.def"
#undef CFG_FIELD
#undef THCFG_FIELD
};

/* ---- pushing instructions ------------------------------------------------------------------- */
/* Words built at run time go through INSTRN_BUF (tt-llk's TT_ form); constant ones may use TTI. */
#define llk_push tt_push

/* cfg_reg_rmw_tensix: a Config field written by the Configuration Unit, in order with this
 * thread's other instructions: one RMWCIB per byte the field touches (RMWCIB.md). */
static inline void llk_cfg_rmw(unsigned addr32, unsigned shamt, unsigned width, uint32_t v) {
    uint32_t mask = (width >= 32 ? 0xFFFFFFFFu : ((1u << width) - 1u)) << shamt, data = v << shamt;
    if (mask & 0xFFu) llk_push(TT_OP_RMWCIB0(mask & 0xFFu, data & 0xFFu, addr32));
    if (mask & 0xFF00u) llk_push(TT_OP_RMWCIB1((mask >> 8) & 0xFFu, (data >> 8) & 0xFFu, addr32));
    if (mask & 0xFF0000u) llk_push(TT_OP_RMWCIB2((mask >> 16) & 0xFFu, (data >> 16) & 0xFFu, addr32));
    if (mask >> 24) /* check_fields: not a field (a Config byte) */
        llk_push(TT_OP_RMWCIB3((mask >> 24) & 0xFFu, (data >> 24) & 0xFFu, addr32)); /* check_fields: not a field */
}
#define LLK_CFG_RMW(name, v) llk_cfg_rmw(name##_ADDR32, name##_SHAMT, name##_WIDTH, (v))
static inline void llk_setc16(unsigned reg, unsigned v) { llk_push(TT_OP_SETC16(reg, v & 0xFFFFu)); }
static inline void llk_stallwait(unsigned stall, unsigned wait) { llk_push(TT_OP_STALLWAIT(stall, wait)); }
/* SETDMAREG: a 32-bit value into this thread's GPR r, in two halves (SETDMAREG_Immediate.md). */
static inline void llk_gpr_set(unsigned r, uint32_t v) {
    llk_push(TT_OP_SETDMAREG(0, v & 0xFFFFu, 0, LO_16(r)));
    llk_push(TT_OP_SETDMAREG(0, v >> 16, 0, HI_16(r)));
}
/* WRCFG of GPR r (32 bits) into Config word cfg, after the Scalar Unit has written the GPR. */
static inline void llk_wrcfg(unsigned r, unsigned cfg) {
    llk_stallwait(STALL_CFG, P_THCON);
    llk_push(TT_OP_WRCFG(r, 0, cfg));
    llk_push(TT_OP_DMANOP);
    llk_push(TT_OP_DMANOP);
}

/* ---- address modifiers (ckernel_addrmod.h: addr_mod_t, addr_mod_pack_t) -------------------- */
#define LLK_AM_SRC(incr, cr, clr)          (((incr)&0x3Fu) | ((cr)&1u) << 6 | ((clr)&1u) << 7)
#define LLK_AM_DST(incr, cr, clr, c_to_cr) (((incr)&0x3FFu) | ((cr)&1u) << 10 | ((clr)&1u) << 11 | ((c_to_cr)&1u) << 12)
#define LLK_AM_FID(incr, clr)              ((((incr)&3u) | ((clr)&1u) << 2) << 13)
/* addr_mod_t::set(i): ADDR_MOD_AB_SEC<i>, ADDR_MOD_DST_SEC<i> (with the fidelity bits), BIAS 0. */
static inline void llk_addr_mod(unsigned i, unsigned srca, unsigned srcb, unsigned dst_fid) {
    llk_setc16(ADDR_MOD_AB_SEC0_SrcAIncr_ADDR32 + i, srca | srcb << 8);
    llk_setc16(ADDR_MOD_DST_SEC0_DestIncr_ADDR32 + i, dst_fid);
    llk_setc16(ADDR_MOD_BIAS_SEC0_BiasIncr_ADDR32 + i, 0);
}
/* addr_mod_pack_t: Y source/destination (incr, cr, clr) and Z source/destination (incr, clr). */
#define LLK_AM_PACK(ys_incr, ys_clr, yd_incr, yd_clr, zs_incr, zs_clr, zd_incr, zd_clr)                                \
    (((ys_incr)&0xFu) | ((ys_clr)&1u) << 5 | ((yd_incr)&0xFu) << 6 | ((yd_clr)&1u) << 11 | ((zs_incr)&1u) << 12 |      \
     ((zs_clr)&1u) << 13 | ((zd_incr)&1u) << 14 | ((zd_clr)&1u) << 15)
static inline void llk_addr_mod_pack(unsigned i, unsigned v) { llk_setc16(ADDR_MOD_PACK_SEC0_YsrcIncr_ADDR32 + i, v); }

/* ---- the MOP expander's double-loop template (ckernel_template.h) ---------------------------- */
typedef struct {
    uint32_t outer, inner, start, end0, end1, loop0, loop1, last_outer, last_inner;
} llk_mop_t;
/* ckernel_template(outer, inner, loop0[, loop1]): the last instructions default to the last loop
 * op (loop1 if given, else loop0); start and end ops to NOP. */
static inline llk_mop_t llk_mop(uint32_t outer, uint32_t inner, uint32_t loop0, uint32_t loop1) {
    uint32_t last = loop1 != TT_OP_NOP ? loop1 : loop0;
    return (llk_mop_t){outer, inner, TT_OP_NOP, TT_OP_NOP, TT_OP_NOP, loop0, loop1, last, last};
}
/* ckernel_template::program: wait until the expander is idle, then write MOP_CFG[0..8]. */
static inline void llk_mop_program(const llk_mop_t *m) {
    mop_sync();
    MOP_CFG(0) = m->outer, MOP_CFG(1) = m->inner, MOP_CFG(2) = m->start;
    MOP_CFG(3) = m->end0, MOP_CFG(4) = m->end1, MOP_CFG(5) = m->loop0, MOP_CFG(6) = m->loop1;
    MOP_CFG(7) = m->last_outer, MOP_CFG(8) = m->last_inner;
}
static inline void llk_mop_run(void) { llk_push(TT_OP_MOP(1, 0, 0)); }

/* ---- per-thread state ---------------------------------------------------------------------- */
typedef struct {
    unsigned unp_ctx;        /* unpack: the config context (0/1) the next tile uses */
    unsigned dest_id;        /* math, pack: the Dst half (0/1) */
    bool fp32;               /* math, pack: 32-bit Dst (is_fp32_dest_acc_en) */
    unsigned pack_src_bytes; /* pack: bytes of a Dst datum the packer reads */
} llk_state_t;
#define LLK_DEST_HALF 512u /* DEST_REGISTER_HALF_SIZE, rows */

/* ---- unpack (T0) ---------------------------------------------------------------------------- */
/* configure_unpack_AB (cunpack_common.h) for both unpackers: formats (L1 in, register out), the
 * tile descriptors (uncompressed, 4 faces, unpacker 1 XDim 256), the Zstrides of a face, SrcA's
 * row offset 4 rows per context (Dest_cntx*_address), 16 rows per face (Tile_x_dim_cntx*), the
 * ALU format fields cleared (Blackhole takes the Src formats implied by the unpacks), and
 * context 0. Called once, before any UNPACR, with the unpackers idle. */
static inline void llk_unpack_hw_configure(llk_state_t *s, unsigned a_in, unsigned a_out, unsigned b_in,
                                           unsigned b_out) {
    llk_push(TT_OP_SETADCXY(3, 0, 0, 0, 0, 0xB)); /* unpacker_addr_counter_init */
    llk_push(TT_OP_SETADCZW(3, 0, 0, 0, 0, 0xF));
    CFG_WORD(UNP0_ADDR_CTRL_ZW_REG_1_Zstride_ADDR32) =
        CFG_VAL(UNP0_ADDR_CTRL_ZW_REG_1_Zstride, 256 * llk_datum_bytes(a_out));
    CFG_WORD(UNP1_ADDR_CTRL_ZW_REG_1_Zstride_ADDR32) =
        CFG_VAL(UNP1_ADDR_CTRL_ZW_REG_1_Zstride, 256 * llk_datum_bytes(b_out));
    llk_push(TT_OP_ATGETM(MUTEX_REG_RMW));
    llk_cfg_rmw(ALU_FORMAT_SPEC_REG_SrcA_val_ADDR32, 0, 15, 0); /* SrcA/SrcB/Dstacc val and override */
    LLK_CFG_RMW(ALU_FORMAT_SPEC_REG0_SrcAUnsigned, a_in == LLK_UINT8);
    LLK_CFG_RMW(ALU_FORMAT_SPEC_REG0_SrcBUnsigned, b_in == LLK_UINT8);
    llk_cfg_rmw(ALU_FORMAT_SPEC_REG0_SrcA_ADDR32, 0, 3, 0); /* stochastic rounding off everywhere */
    LLK_CFG_RMW(ALU_ACC_CTRL_Zero_Flag_disabled_src, a_out == LLK_UINT16 || b_out == LLK_UINT16);
    LLK_CFG_RMW(THCON_SEC0_REG1_Unp_LF8_4b_exp, 0);
    llk_cfg_rmw(THCON_SEC0_REG1_Unp_LF8_4b_exp_ADDR32 + 48, THCON_SEC0_REG1_Unp_LF8_4b_exp_SHAMT, 1, 0);
    llk_push(TT_OP_ATRELM(MUTEX_REG_RMW));
    /* Tile descriptors: format, uncompressed, XDim (unpacker 1: a face), YDim 1, ZDim 4. */
    CFG_WORD(THCON_SEC0_REG0_TileDescriptor_ADDR32) = llk_hw_fmt(a_in) | 1u << 4;
    CFG_WORD(THCON_SEC0_REG0_TileDescriptor_ADDR32 + 1) = 1u | 4u << 16;
    CFG_WORD(THCON_SEC0_REG0_TileDescriptor_ADDR32 + 48) = llk_hw_fmt(b_in) | 1u << 4 | LLK_FACE_DATUMS << 16;
    CFG_WORD(THCON_SEC0_REG0_TileDescriptor_ADDR32 + 48 + 1) = 1u | 4u << 16;
    /* Unpack config: out format, throttle mode 2, every context uncompressed and to Src. */
    CFG_WORD(THCON_SEC0_REG2_Out_data_format_ADDR32) = llk_hw_fmt(a_out) | 2u << 4;
    CFG_WORD(THCON_SEC0_REG2_Out_data_format_ADDR32 + 1) = 0xFu | 0xFu << 16;
    CFG_WORD(THCON_SEC0_REG2_Out_data_format_ADDR32 + 48) = llk_hw_fmt(b_out) | 2u << 4;
    CFG_WORD(THCON_SEC0_REG2_Out_data_format_ADDR32 + 48 + 1) = 0xFu | 0xFu << 16;
    llk_push(TT_OP_SETADCXX(1, LLK_FACE_DATUMS - 1, 0));
    llk_push(TT_OP_SETADCXX(2, LLK_FACE_DATUMS - 1, 0));
    CFG_WORD(THCON_SEC0_REG5_Dest_cntx0_address_ADDR32) = (4 * 16) | (4 * 16) << 16;
    CFG_WORD(THCON_SEC0_REG5_Tile_x_dim_cntx0_ADDR32) = LLK_FACE_DATUMS | LLK_FACE_DATUMS << 16;
    llk_setc16(SRCA_SET_Base_ADDR32, 4); /* SRCA_SET_SetOvrdWithAddr */
    CFG_WORD(UNP0_ADD_DEST_ADDR_CNTR_add_dest_addr_cntr_ADDR32) =
        CFG_VAL(UNP0_ADD_DEST_ADDR_CNTR_add_dest_addr_cntr, 1);
    s->unp_ctx = 0; /* reset_config_context */
    llk_setc16(UNPACK_MISC_CFG_CfgContextOffset_0_ADDR32, 0);
}

/* The UNPACR words the LLK MOPs use (one face each, Z += 1, multi-context, hand the bank over). */
#define LLK_UNPACR_A     TT_OP_UNPACR(0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1)
#define LLK_UNPACR_B     TT_OP_UNPACR(1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1)
#define LLK_UNPACR_B_Z0  TT_OP_UNPACR(1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1) /* Z stays */
#define LLK_UNPACR_NOP_B TT_OP_UNPACR_NOP(1, 0, 0, P_UNPACR_NOP_SET_DVALID, 0, 0, 0, 0, P_UNPACR_NOP_ZEROSRC)

/* _llk_unpack_A_init_ (no broadcast): per face, UNPACR to SrcA and an UNPACR_NOP that zeroes and
 * hands over SrcB (the datacopy's unused operand). transpose: within-face transpose (Haloize). */
static inline void llk_unpack_A_init(bool transpose) {
    LLK_CFG_RMW(THCON_SEC0_REG2_Haloize_mode, transpose);
    llk_push(TT_OP_SETADCXX(1, LLK_FACE_DATUMS - 1, 0));
    llk_mop_t m = llk_mop(4, 1, LLK_UNPACR_NOP_B, TT_OP_NOP);
    m.start = LLK_UNPACR_A;
    llk_mop_program(&m);
}

/* _llk_unpack_AB_init_: NONE pairs faces of A and B; COL unpacks one face of B per row of faces
 * and its first column is broadcast by the math (face 0 for faces 0/1 of A, face 2 for 2/3). */
enum { LLK_BCAST_NONE, LLK_BCAST_COL, LLK_BCAST_ROW, LLK_BCAST_SCALAR };
static inline void llk_unpack_AB_init(unsigned bcast) {
    LLK_CFG_RMW(THCON_SEC0_REG2_Haloize_mode, 0);
    llk_push(TT_OP_SETADCXX(3, LLK_FACE_DATUMS - 1, 0));
    llk_mop_t m;
    if (bcast == LLK_BCAST_COL) {
        m = llk_mop(2, 2, LLK_UNPACR_A, TT_OP_NOP);
        m.start = LLK_UNPACR_B;
        m.end0 = TT_OP_SETADCZW(2, 0, 0, 0, 2, 1); /* unpacker 1: Ch0 Z := 2 (face 2) */
    } else {
        m = llk_mop(2, 2, LLK_UNPACR_A, LLK_UNPACR_B);
    }
    llk_mop_program(&m);
}

/* The context guard of every _llk_unpack_*_: wait until a context is free, program its base
 * address(es) (THCON_SEC<u>_REG3_Base_address / Base_cntx1_address), take the context,
 * make the unpacker wait for the config writes, run the MOP, release the context at its end and
 * switch to the other one. */
static inline void llk_unpack_begin(llk_state_t *s, uint32_t addr_a, uint32_t addr_b) {
    llk_push(TT_OP_SETADCZW(3, 0, 0, 0, 0, 0xF));
    while (semaphore_read(SEM_UNPACK_SYNC) >= 2) {
    }
    unsigned w = s->unp_ctx ? THCON_SEC0_REG3_Base_address_ADDR32 + 1 : THCON_SEC0_REG3_Base_address_ADDR32;
    if (addr_a) CFG_WORD(w) = llk_addr16(addr_a);
    if (addr_b) CFG_WORD(w + 48) = llk_addr16(addr_b);
    semaphore_post(SEM_UNPACK_SYNC);
    llk_stallwait(STALL_UNPACK, P_TRISC_CFG);
}
static inline void llk_unpack_end(llk_state_t *s) {
    llk_push(TT_OP_SEMGET(T6_SEM(SEM_UNPACK_SYNC)));
    s->unp_ctx ^= 1;
    llk_setc16(UNPACK_MISC_CFG_CfgContextOffset_0_ADDR32, s->unp_ctx ? 0x0101 : 0);
}
/* _llk_unpack_A_ / _llk_unpack_AB_: one tile (the MOP of the last init). */
static inline void llk_unpack_A(llk_state_t *s, uint32_t addr) {
    llk_unpack_begin(s, addr, 0);
    llk_mop_run();
    llk_unpack_end(s);
}
static inline void llk_unpack_AB(llk_state_t *s, uint32_t addr_a, uint32_t addr_b) {
    llk_unpack_begin(s, addr_a, addr_b);
    llk_mop_run();
    llk_unpack_end(s);
}

/* _llk_unpack_AB_matmul_init_ (ct_dim = rt_dim = 1, full 32x32 tiles): each unpacker takes a whole
 * tile in one UNPACR (X 0..1023: four faces in Src rows 0..63). A replay buffer holds, per config
 * context, the SrcA UNPACR and the bump of that context's base address by a tile (for the next
 * tile of a reused row: RDCFG, ADDDMAREG of the tile size in GPR TILE_SIZE_A, WRCFG); a template-0
 * MOP replays context 0's half (mask bit 0 clear) or context 1's (set). */
#define LLK_GPR_UNP_TMP0        12u /* p_gpr_unpack::TMP0 */
#define LLK_GPR_UNP_TILE_SIZE_A 36u /* p_gpr_unpack::TILE_SIZE_A: a tile, 16-byte units */
static inline void llk_unpack_matmul_replay_half(unsigned base_cfg) {
    llk_push(TT_OP_UNPACR(0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1));
    llk_push(TT_OP_RDCFG(LLK_GPR_UNP_TMP0, base_cfg));
    llk_push(TT_OP_ADDDMAREG(0, LLK_GPR_UNP_TMP0, LLK_GPR_UNP_TMP0, LLK_GPR_UNP_TILE_SIZE_A));
    llk_stallwait(STALL_CFG, P_THCON);
    llk_push(TT_OP_WRCFG(LLK_GPR_UNP_TMP0, 0, base_cfg));
    llk_push(TT_OP_NOP);
}
static inline void llk_unpack_AB_matmul_init(unsigned a_fmt) {
    LLK_CFG_RMW(THCON_SEC0_REG2_Haloize_mode, 0);
    llk_push(TT_OP_SETADCZW(3, 0, 0, 0, 0, 0xF));
    llk_push(TT_OP_SETADCXX(1, 4 * LLK_FACE_DATUMS - 1, 0));
    llk_push(TT_OP_SETADCXX(2, 4 * LLK_FACE_DATUMS - 1, 0));
    llk_push(TT_OP_SETDMAREG(0, llk_tile_bytes(a_fmt) >> 4, 0, LO_16(LLK_GPR_UNP_TILE_SIZE_A)));
    llk_push(TT_OP_REPLAY(0, 12, 0, 1)); /* load 12 words at 0 */
    llk_unpack_matmul_replay_half(THCON_SEC0_REG3_Base_address_ADDR32);
    llk_unpack_matmul_replay_half(THCON_SEC0_REG3_Base_address_ADDR32 + 1);
    mop_sync(); /* ckernel_unpack_template(false, false, replay ctx 0, 0, 0, 0, replay ctx 1, 0, 0) */
    MOP_CFG(1) = 0, MOP_CFG(2) = 0, MOP_CFG(3) = TT_OP_REPLAY(0, 6, 0, 0);
    MOP_CFG(4) = 0, MOP_CFG(5) = 0, MOP_CFG(6) = 0, MOP_CFG(7) = TT_OP_REPLAY(6, 6, 0, 0), MOP_CFG(8) = 0;
}
/* _llk_unpack_AB_matmul_: out = in0 @ in1 takes Dst += SrcB @ SrcA, so in0's tile goes to
 * unpacker 1 (SrcB) and in1's to unpacker 0 (SrcA). */
static inline void llk_unpack_AB_matmul(llk_state_t *s, uint32_t addr_in0, uint32_t addr_in1) {
    llk_unpack_begin(s, addr_in1, addr_in0);
    llk_push(TT_OP_UNPACR(1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1)); /* SrcB: the whole tile */
    llk_push(TT_OP_MOP(0, 0, s->unp_ctx ? 0xFF : 0));              /* SrcA through the replay */
    llk_unpack_end(s);
}

/* ---- reductions (tt-llk llk_unpack_AB_reduce, llk_math_reduce, llk_pack_reduce_mask_config) --- */
enum { LLK_REDUCE_ROW, LLK_REDUCE_COL };
enum { LLK_POOL_SUM, LLK_POOL_MAX };
/* The scaler tile tt-metal's reduce reads as its second operand (generate_reduce_scaler): zeros
 * but the first row of each face, which holds the scaler (a bf16 pattern), e.g. 1.0 (0x3F80) for a
 * sum or a max. Written by the RISC-V, before the unpacker reads it. */
static inline void llk_reduce_scaler_fill(uint32_t addr, uint16_t bf16) {
    for (unsigned i = 0; i < 512; i++)
        L1_WORD(addr + 4 * i) = ((i % 128) < 8) ? ((uint32_t)bf16 | (uint32_t)bf16 << 16) : 0;
}
/* _llk_unpack_AB_reduce_init_: SrcA face by face (transposed within the face for a row
 * reduction), SrcB one row of the scaler tile per face (X 0..15); the pair sits in the replay
 * buffer and the MOP replays it once per face. */
static inline void llk_unpack_AB_reduce_init(unsigned dim) {
    LLK_CFG_RMW(THCON_SEC0_REG2_Haloize_mode, dim == LLK_REDUCE_ROW);
    llk_push(TT_OP_SETADCXX(1, LLK_FACE_DATUMS - 1, 0));
    llk_push(TT_OP_SETADCXX(2, 15, 0));
    llk_push(TT_OP_REPLAY(0, 2, 0, 1));
    llk_push(LLK_UNPACR_A);
    llk_push(LLK_UNPACR_B);
    llk_mop_t m = llk_mop(1, 4, TT_OP_REPLAY(0, 2, 0, 0), TT_OP_NOP);
    llk_mop_program(&m);
}
static inline void llk_unpack_AB_reduce(llk_state_t *s, uint32_t addr, uint32_t scaler) {
    llk_unpack_AB(s, addr, scaler);
}

/* ---- math (T1) ------------------------------------------------------------------------------ */
/* _llk_math_hw_configure_: Dst accumulation in 32 bits or 16 (FPU and SFPU), integer math off
 * (int8: on), zeroacc in relative tile mode. */
static inline void llk_math_hw_configure(llk_state_t *s, bool fp32, bool int8) {
    s->fp32 = fp32;
    LLK_CFG_RMW(DEST_ACCESS_CFG_zeroacc_absolute_tile_mode, 0);
    llk_stallwait(STALL_CFG, P_MATH);
    LLK_CFG_RMW(ALU_ACC_CTRL_INT8_math_enabled, int8);
    LLK_CFG_RMW(ALU_ACC_CTRL_Fp32_enabled, fp32);
    LLK_CFG_RMW(ALU_ACC_CTRL_SFPU_Fp32_enabled, fp32);
}
/* _llk_math_pack_sync_init_ (SyncHalf): MATH_PACK {0, max 2}, Dst half 0. */
static inline void llk_math_pack_sync_init(llk_state_t *s) {
    tensix_sync();
    while (semaphore_read(SEM_MATH_PACK) > 0) {
    }
    llk_push(TT_OP_SEMINIT(2, 0, T6_SEM(SEM_MATH_PACK)));
    s->dest_id = 0;
    llk_setc16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, 0);
}
/* _llk_math_wait_for_dest_available_: stall math and SFPU while both halves are full. */
static inline void llk_math_wait_for_dest_available(void) {
    llk_push(TT_OP_SEMWAIT(STALL_MATH | STALL_SFPU | STALL_SYNC, T6_SEM(SEM_MATH_PACK), STALL_ON_MAX));
}
/* _llk_math_dest_section_done_: once math and SFPU are done, one more half for the packer; the
 * next tile goes to the other half. */
static inline void llk_math_dest_section_done(llk_state_t *s) {
    llk_stallwait(STALL_SYNC, P_MATH | P_WAIT_SFPU);
    llk_push(TT_OP_SEMPOST(T6_SEM(SEM_MATH_PACK)));
    s->dest_id ^= 1;
    llk_stallwait(STALL_CFG, P_MATH | P_WAIT_SFPU);
    llk_setc16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, s->dest_id ? LLK_DEST_HALF : 0);
}
/* math::set_dst_write_addr (tile `index` of the current half, 64 rows a tile) and
 * clear_dst_reg_addr (Dst RWC := 0). */
static inline void llk_math_set_dst(const llk_state_t *s, unsigned index) {
    llk_setc16(DEST_TARGET_REG_CFG_MATH_Offset_ADDR32, (index << 6) + (s->dest_id ? LLK_DEST_HALF : 0));
}
static inline void llk_math_clear_dst_rwc(void) { llk_push(TT_OP_SETRWC(0, 0, 0, 0, 0, 4)); }

/* _llk_math_eltwise_unary_datacopy_init_ (A2D): SrcA -> Dst, 8 rows a MOVA2D; with a 32-bit Dst
 * an ELWADD of SrcA and the zeroed SrcB instead (tt-llk's choice for FP32 Dst). */
static inline void llk_math_datacopy_init(const llk_state_t *s) {
    llk_addr_mod(3, 0, 0, 0);
    llk_addr_mod(0, LLK_AM_SRC(1, 0, 0), 0, LLK_AM_DST(1, 0, 0, 0));
    llk_addr_mod(2, LLK_AM_SRC(8, 0, 0), 0, LLK_AM_DST(8, 0, 0, 0));
    uint32_t op = s->fp32 ? TT_OP_ELWADD(0, 0, 0, 2, 0) : TT_OP_MOVA2D(0, 0, 2, 2, 0);
    llk_mop_t m = llk_mop(4, 2, op, TT_OP_NOP);
    m.end0 = TT_OP_SETRWC(3, 0, 0, 0, 0, 3); /* give both banks back, SrcA/SrcB := 0 */
    llk_mop_program(&m);
    llk_setc16(CLR_DVALID_SrcA_Disable_ADDR32, 0);
    llk_push(TT_OP_SETRWC(0, 0, 0, 0, 0, 0xF)); /* reset_counters(SET_ABD_F) */
}
static inline void llk_math_datacopy(const llk_state_t *s, unsigned index) {
    llk_math_set_dst(s, index);
    llk_mop_run();
    llk_math_clear_dst_rwc();
}

/* _llk_math_eltwise_binary_standard_init_ (ELWADD, ELWSUB, ELWMUL): 8 rows an instruction, two per
 * face; fidelity phases (1..4; ELWMUL only) repeat each face with the fidelity counter stepping
 * (ADDR_MOD_2) and cleared on the face's last phase (ADDR_MOD_3). COL broadcast reuses one SrcB
 * face for a row of two SrcA faces. */
enum { LLK_ELWADD, LLK_ELWSUB, LLK_ELWMUL };
static inline uint32_t llk_elw_op(unsigned op, unsigned clr, unsigned bcast, unsigned am) {
    unsigned mod = bcast == LLK_BCAST_COL ? 1 : bcast == LLK_BCAST_ROW ? 2 : bcast == LLK_BCAST_SCALAR ? 3 : 0;
    return op == LLK_ELWADD   ? TT_OP_ELWADD(clr, 0, mod, am, 0)
           : op == LLK_ELWSUB ? TT_OP_ELWSUB(clr, 0, mod, am, 0)
                              : TT_OP_ELWMUL(clr, 0, mod, am, 0);
}
static inline void llk_math_eltwise_binary_init(unsigned op, unsigned bcast, unsigned phases) {
    bool hifi = phases > 1;
    unsigned srcb_incr = (bcast == LLK_BCAST_NONE || bcast == LLK_BCAST_COL) ? 8 : 0;
    llk_addr_mod(0, LLK_AM_SRC(8, 0, 0), LLK_AM_SRC(srcb_incr, 0, 0), LLK_AM_DST(8, 0, 0, 0));
    llk_addr_mod(1, 0, 0, 0);
    llk_addr_mod(2, LLK_AM_SRC(0, 0, 1), LLK_AM_SRC(0, 0, 1), LLK_AM_DST(0, 1, 0, 0) | LLK_AM_FID(hifi, 0));
    llk_addr_mod(3, LLK_AM_SRC(0, 0, 1), LLK_AM_SRC(0, 0, 1), LLK_AM_DST(8, 0, 0, 1) | LLK_AM_FID(0, 1));
    unsigned clr = (bcast == LLK_BCAST_COL || bcast == LLK_BCAST_SCALAR) ? 1 : 3;
    llk_mop_t m;
    if (op == LLK_ELWMUL && hifi) {
        m = llk_mop(phases, 2, llk_elw_op(op, 0, bcast, 0), TT_OP_NOP);
        m.last_inner = llk_elw_op(op, 0, bcast, 2);
        m.last_outer = llk_elw_op(op, clr, bcast, 3);
    } else {
        m = llk_mop(bcast == LLK_BCAST_COL ? 2 : 4, 2, llk_elw_op(op, 0, bcast, 0), TT_OP_NOP);
        m.end0 = TT_OP_SETRWC(clr, 3, 0, 0, 0, 3);
    }
    llk_mop_program(&m);
    llk_setc16(CLR_DVALID_SrcA_Disable_ADDR32, 0);
    llk_push(TT_OP_SETRWC(0, 0, 0, 0, 0, 0xF));
}
/* _llk_math_eltwise_binary_standard_: one tile into Dst tile `index` of the current half. */
static inline void llk_math_eltwise_binary(const llk_state_t *s, unsigned op, unsigned bcast, unsigned phases,
                                           unsigned index) {
    llk_math_set_dst(s, index);
    if (op == LLK_ELWMUL && phases > 1) {
        unsigned rows = bcast == LLK_BCAST_COL ? 2 : 1, faces = bcast == LLK_BCAST_COL ? 2 : 4;
        for (unsigned r = 0; r < rows; r++) {
            for (unsigned f = 0; f < faces; f++)
                llk_mop_run();
            if (bcast == LLK_BCAST_COL) llk_push(TT_OP_SETRWC(2, 0, 0, 0, 0, 0)); /* give SrcB back */
        }
    } else if (bcast == LLK_BCAST_COL) {
        for (unsigned r = 0; r < 2; r++) {
            llk_mop_run();
            llk_push(TT_OP_SETRWC(2, 0, 0, 0, 0, 0));
        }
    } else {
        llk_mop_run();
    }
    llk_math_clear_dst_rwc();
}

/* _llk_math_matmul_init_ (32x32 by 32x32, no transpose, ct_dim = rt_dim = 1): sixteen MVMULs (8
 * rows of SrcB by a 16x16 face of SrcA each) cover out faces 0..3 = B0A0 + B1A2, B0A1 + B1A3,
 * B2A0 + B3A2, B2A1 + B3A3 (Bn: in0's face n in SrcB, An: in1's in SrcA), walked by the address
 * modifiers; they sit in the replay buffer at 16 and the MOP replays them once per fidelity phase,
 * ADDR_MOD_5 on the last one clearing the counters and stepping the phase. */
static inline void llk_math_matmul_init(unsigned phases) {
    bool hifi = phases > 1;
    llk_addr_mod(0, 0, LLK_AM_SRC(8, 0, 0), LLK_AM_DST(8, 0, 0, 0));
    llk_addr_mod(5, LLK_AM_SRC(0, 1, 1), LLK_AM_SRC(0, 1, 1), LLK_AM_DST(0, 1, 1, 0) | LLK_AM_FID(hifi, 0));
    llk_addr_mod(1, LLK_AM_SRC(16, 0, 0), LLK_AM_SRC(0, 1, 0), LLK_AM_DST(8, 0, 0, 0));
    llk_addr_mod(2, LLK_AM_SRC(0, 1, 0), LLK_AM_SRC(32, 1, 0), LLK_AM_DST(8, 0, 0, 0));
    llk_addr_mod(4, LLK_AM_SRC(32, 1, 0), LLK_AM_SRC(48, 1, 0), LLK_AM_DST(0, 1, 0, 0));
    static const uint8_t am[15] = {0, 1, 0, 2, 0, 1, 0, 4, 0, 1, 0, 2, 0, 1, 0};
    llk_push(TT_OP_REPLAY(16, 16, 0, 1));
    for (unsigned i = 0; i < 15; i++)
        llk_push(TT_OP_MVMUL(0, 0, am[i], 0));
    llk_push(TT_OP_MVMUL(hifi ? 0 : 1, 0, 5, 0)); /* LoFi: the last one gives SrcA back */
    llk_mop_t m = llk_mop(1, hifi ? phases : 1, TT_OP_REPLAY(16, 16, 0, 0), TT_OP_NOP);
    if (hifi) m.end0 = TT_OP_SETRWC(1, 0, 0, 0, 0, 0xF);
    llk_mop_program(&m);
    llk_push(TT_OP_SETRWC(0, 0, 0, 0, 0, 0xF));
}
/* _llk_math_matmul_: Dst tile `index` += in0's tile @ in1's tile; then SrcB goes back. */
static inline void llk_math_matmul(const llk_state_t *s, unsigned index) {
    llk_math_set_dst(s, index);
    llk_mop_run();
    llk_push(TT_OP_SETRWC(2, 0, 0, 0, 0, 0xF));
}

/* _llk_math_reduce_init_: ADDR_MOD 0 changes nothing but clears the fidelity phase, 2 steps SrcB
 * and Dst by 8 (the transposition's ELWADDs), 3 steps the phase; for a sum in several phases a
 * MOP of GAPOOLs, one per phase. */
static inline void llk_math_reduce_init(unsigned phases) {
    bool hifi = phases > 1;
    llk_addr_mod(0, 0, 0, LLK_AM_FID(0, 1));
    llk_addr_mod(1, 0, LLK_AM_SRC(1, 0, 0), LLK_AM_DST(1, 0, 0, 0));
    llk_addr_mod(2, 0, LLK_AM_SRC(8, 0, 0), LLK_AM_DST(8, 0, 0, 0));
    if (hifi) {
        llk_addr_mod(3, 0, 0, LLK_AM_FID(1, 0));
        llk_mop_t m = llk_mop(1, phases, TT_OP_GAPOOL(0, 1, 3, 0, 0), TT_OP_NOP);
        m.last_inner = m.last_outer = TT_OP_GAPOOL(0, 1, 0, 0, 0);
        llk_mop_program(&m);
    }
    llk_setc16(CLR_DVALID_SrcA_Disable_ADDR32, 0);
    llk_push(TT_OP_SETRWC(0, 0, 0, 0, 0, 0xF));
}
/* reduce_pool_op: one face. MAX: GMPOOL (column max of SrcA into Dst's row, with Dst's). SUM:
 * GAPOOL (SrcB's scaler row @ SrcA: column sums), once per phase; `clr` gives the banks back. */
static inline void llk_math_reduce_pool(unsigned type, unsigned phases, unsigned clr) {
    if (type == LLK_POOL_MAX) {
        llk_push(TT_OP_GMPOOL(clr, 1, 0, 0, 0));
    } else if (phases > 1) {
        llk_mop_run();
        if (clr) llk_push(TT_OP_CLEARDVALID(clr, 0));
    } else {
        llk_push(TT_OP_GAPOOL(clr, 1, 0, 0, 0));
    }
}
/* reduce_row_perform_transpose (16-bit Dst): the face's row of column sums of the transposed
 * SrcA — the input's row sums — goes to Dst column 0 through SrcB: MOVD2B to SrcB row 16,
 * TRNSPSRCB, the row put back, then two ELWADDs of a zeroed SrcA and SrcB rows 16..31 write the
 * face's 16 Dst rows (column 0: the sums; row 0 keeps them all for the next tile's GAPOOLs). */
static inline void llk_math_reduce_row_transpose(void) {
    llk_push(TT_OP_SETRWC(0, 4, 0, 0, 0, 3));
    llk_push(TT_OP_MOVD2B(0, 16, 0, 0, 0));
    llk_push(TT_OP_TRNSPSRCB);
    llk_push(TT_OP_MOVD2B(0, 16, 0, 0, 0));
    llk_push(TT_OP_SETRWC(0, 2, 0, 8, 0, 2));
    llk_push(TT_OP_SETRWC(0, 2, 0, 8, 0, 2));
    llk_push(TT_OP_ZEROSRC(0, 1, 0, 1)); /* SrcA, the Matrix Unit's bank */
    llk_push(TT_OP_ELWADD(0, 0, 0, 2, 0));
    llk_push(TT_OP_ELWADD(0, 0, 0, 2, 0));
}
/* _llk_math_reduce_ (32x32 tile into Dst tile `index`): ROW sums the faces of each face row into
 * that face row's first Dst face, column 0; COL takes the max of faces 0 and 2 into Dst face 0's
 * row 0 and of faces 1 and 3 into face 1's. Repeated tiles accumulate (another tile of the same
 * rows or columns). */
static inline void llk_math_reduce(const llk_state_t *s, unsigned type, unsigned dim, unsigned phases, unsigned index) {
    llk_math_set_dst(s, index);
    if (dim == LLK_REDUCE_ROW) {
        llk_math_reduce_pool(type, phases, 3);
        llk_math_reduce_pool(type, phases, 0);
        llk_math_reduce_row_transpose();
        llk_push(TT_OP_SETRWC(0, 4, 8, 0, 0, 4));
        llk_push(TT_OP_SETRWC(0, 4, 8, 0, 0, 4));
        llk_push(TT_OP_SETRWC(0, 4, 8, 0, 0, 4));
        llk_push(TT_OP_SETRWC(3, 4, 8, 0, 0, 6));
        llk_math_reduce_pool(type, phases, 3);
        llk_math_reduce_pool(type, phases, 0);
        llk_math_reduce_row_transpose();
        llk_push(TT_OP_SETRWC(3, 0, 0, 0, 0, 6));
    } else {
        for (unsigned r = 0; r < 2; r++) {
            llk_math_reduce_pool(type, phases, 0);
            llk_push(TT_OP_SETRWC(0, 4, 8, 0, 0, 4));
            llk_push(TT_OP_SETRWC(3, 4, 8, 0, 0, 4));
            llk_math_reduce_pool(type, phases, 0);
            llk_push(TT_OP_SETRWC(3, 0, 0, 0, 0, 5));
        }
    }
}

/* ---- pack (T2) ------------------------------------------------------------------------------ */
/* configure_pack + set_packer_config: the packer reads `src` (the Dst format: FP32 for a 32-bit
 * Dst) and writes `dst` to L1; the strides of a row (16 datums), a face and a tile in Dst bytes;
 * uncompressed; 16 rows a face; no edge masking, no ReLU, no L1 accumulation. */
static inline void llk_pack_hw_configure(llk_state_t *s, unsigned src, unsigned dst, bool fp32) {
    unsigned xs = llk_datum_bytes(src);
    s->fp32 = fp32, s->pack_src_bytes = xs;
    llk_gpr_set(28, CFG_VAL(PCK0_ADDR_CTRL_XY_REG_0_Ystride, 16 * xs));
    llk_gpr_set(29, CFG_VAL(PCK0_ADDR_CTRL_ZW_REG_0_Zstride, 256 * xs) |
                        CFG_VAL(PCK0_ADDR_CTRL_ZW_REG_0_Wstride, 1024 * xs));
    llk_wrcfg(28, PCK0_ADDR_CTRL_XY_REG_0_Xstride_ADDR32);
    llk_wrcfg(29, PCK0_ADDR_CTRL_ZW_REG_0_Zstride_ADDR32);
    llk_push(TT_OP_ATGETM(MUTEX_REG_RMW));
    LLK_CFG_RMW(THCON_SEC0_REG1_Pac_LF8_4b_exp, 0);
    LLK_CFG_RMW(ALU_FORMAT_SPEC_REG2_Dstacc, src);
    llk_cfg_rmw(STACC_RELU_ApplyRelu_ADDR32, STACC_RELU_ApplyRelu_SHAMT, 20, 0); /* ApplyRelu, ReluThreshold */
    llk_push(TT_OP_ATRELM(MUTEX_REG_RMW));
    /* Exponent section size (a BFP tile's 4 faces), uncompressed, formats. */
    unsigned exp_section = (dst == LLK_FP8 || dst == LLK_INT8) ? 0 : 4;
    CFG_WORD(THCON_SEC0_REG1_Exp_section_size_ADDR32) = CFG_VAL(THCON_SEC0_REG1_Exp_section_size, exp_section);
    CFG_WORD(THCON_SEC0_REG1_Disable_zero_compress_ADDR32) = CFG_VAL(THCON_SEC0_REG1_Disable_zero_compress, 1) |
                                                             CFG_VAL(THCON_SEC0_REG1_Out_data_format, dst) |
                                                             CFG_VAL(THCON_SEC0_REG1_In_data_format, src);
    LLK_CFG_RMW(THCON_SEC0_REG1_Exp_threshold_en, 0);
    LLK_CFG_RMW(THCON_SEC0_REG1_Exp_threshold, 0);
    llk_stallwait(STALL_CFG, P_PACK);
    LLK_CFG_RMW(THCON_SEC0_REG1_Pack_L1_Acc, 0);
    bool read32 = fp32 || src == LLK_FP32 || src == LLK_INT32;
    CFG_WORD(PCK_DEST_RD_CTRL_Read_32b_data_ADDR32) = CFG_VAL(PCK_DEST_RD_CTRL_Read_32b_data, read32) |
                                                      CFG_VAL(PCK_DEST_RD_CTRL_Round_10b_mant, fp32 && src == LLK_FP16);
    CFG_WORD(PACK_COUNTERS_SEC0_pack_reads_per_xy_plane_ADDR32) =
        CFG_VAL(PACK_COUNTERS_SEC0_pack_reads_per_xy_plane, 16);
    CFG_WORD(PCK_EDGE_OFFSET_SEC0_mask_ADDR32) = CFG_VAL(PCK_EDGE_OFFSET_SEC0_mask, 0xFFFF);
    CFG_WORD(TILE_ROW_SET_MAPPING_0_row_set_mapping_0_ADDR32) = 0;
    llk_push(TT_OP_SETADCXX(4, 15, 0));
}
/* _llk_pack_init_ (not untilize): ADDR_MOD 0 steps 4 rows; 2 moves to the next face (Z + 1); 1
 * clears for the next tile. MOP: 4 faces x 4 PACRs of 4 rows (all four read interfaces), the
 * tile's last one closing it (Last). */
static inline void llk_pack_init(void) {
    llk_addr_mod_pack(0, LLK_AM_PACK(4, 0, 4, 0, 0, 0, 0, 0));
    llk_addr_mod_pack(1, LLK_AM_PACK(0, 1, 0, 1, 0, 1, 0, 0));
    llk_addr_mod_pack(2, LLK_AM_PACK(0, 1, 4, 0, 1, 0, 0, 0));
    llk_mop_t m = llk_mop(4, 4, TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), TT_OP_NOP);
    m.last_inner = TT_OP_PACR(0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0);
    m.last_outer = TT_OP_PACR(0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1);
    llk_mop_program(&m);
    llk_push(TT_OP_SETADCXX(4, 15, 0));
}
/* select_packer_dest_registers: DEST_TARGET_REG_CFG_PACK_SEC0_Offset := the half's first row. */
static inline void llk_pack_select_half(const llk_state_t *s) {
    llk_gpr_set(4, s->dest_id ? LLK_DEST_HALF : 0);
    llk_wrcfg(4, DEST_TARGET_REG_CFG_PACK_SEC0_Offset_ADDR32);
}
/* _llk_pack_dest_init_: half 0, packer counters 0. */
static inline void llk_pack_dest_init(llk_state_t *s) {
    tensix_sync();
    s->dest_id = 0;
    llk_stallwait(STALL_TDMA | STALL_THCON, P_PACK);
    llk_pack_select_half(s);
    llk_push(TT_OP_SETADCXY(4, 0, 0, 0, 0, 0xB));
    llk_push(TT_OP_SETADCZW(4, 0, 0, 0, 0, 0xF));
}
/* _llk_packer_wait_for_math_done_: the packer (TDMA) waits while MATH_PACK is 0. */
static inline void llk_packer_wait_for_math_done(void) {
    llk_push(TT_OP_SEMWAIT(STALL_TDMA, T6_SEM(SEM_MATH_PACK), STALL_ON_ZERO));
}
/* _llk_pack_: Dst tile `index` of the current half (ADC W) to L1 `addr` (L1_Dest_addr, through a
 * GPR and WRCFG; bit 31 set as tt-llk does), the MOP, Z counters back to 0. */
static inline void llk_pack(const llk_state_t *s, unsigned index, uint32_t addr) {
    (void)s;
    llk_push(TT_OP_SETADC(4, 0, 3, index));
    llk_gpr_set(12, 1u << 31 | llk_addr16(addr));
    llk_wrcfg(12, THCON_SEC0_REG1_L1_Dest_addr_ADDR32);
    llk_mop_run();
    llk_push(TT_OP_SETADCZW(4, 0, 0, 0, 0, 5));
}
/* _llk_pack_dest_section_done_: once packed, clear the half (ZEROACC, 16- or 32-bit), give it back
 * to math (SEMGET MATH_PACK) and move to the other half. */
static inline void llk_pack_dest_section_done(llk_state_t *s) {
    llk_stallwait(STALL_MATH, P_PACK);
    llk_push(TT_OP_ZEROACC(2, s->fp32, 0, 1, s->dest_id));
    llk_push(TT_OP_SEMGET(T6_SEM(SEM_MATH_PACK)));
    s->dest_id ^= 1;
    llk_pack_select_half(s);
}

/* _llk_pack_reduce_mask_config_ (not untilize): edge masks that keep only what the reduction
 * wrote. ROW: every row through edge mask SEC1 = column 0 (row-set mapping 1 all ones). COL: row 0
 * of each face through SEC1 = all columns, the other rows through SEC0 = none. Written through GPRs
 * and WRCFG after the packer is idle, in order with the PACRs. */
static inline void llk_pack_reduce_mask_config(unsigned dim) {
    uint32_t sec0 = dim == LLK_REDUCE_ROW ? 0x55u << PCK_EDGE_TILE_ROW_SET_SELECT_select_SHAMT
                                          : 0x05u << PCK_EDGE_TILE_ROW_SET_SELECT_select_SHAMT;
    uint32_t sec1 = dim == LLK_REDUCE_ROW ? 0x0001 : 0xFFFF;
    uint32_t map1 = dim == LLK_REDUCE_ROW ? 0x55555555u : 0x00000001u;
    llk_gpr_set(28, sec0);
    llk_gpr_set(30, sec1);
    llk_gpr_set(29, map1);
    llk_stallwait(STALL_CFG, P_PACK);
    llk_push(TT_OP_WRCFG(28, 0, PCK_EDGE_OFFSET_SEC0_mask_ADDR32));
    llk_push(TT_OP_WRCFG(30, 0, PCK_EDGE_OFFSET_SEC0_mask_ADDR32 + 1));
    llk_push(TT_OP_WRCFG(29, 0, TILE_ROW_SET_MAPPING_0_row_set_mapping_0_ADDR32 + 1));
    llk_push(TT_OP_NOP);
    llk_push(TT_OP_NOP);
}

#endif
