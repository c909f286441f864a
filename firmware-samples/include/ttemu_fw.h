/* ttemu_fw.h — small helpers for ttemu's RV32 firmware samples. */
#ifndef TTEMU_FW_H
#define TTEMU_FW_H

#include <stdint.h>

/* A word in L1 at a fixed address, for results the host reads with --peek. */
#define L1_WORD(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* Push a constant Tensix instruction as `.ttinsn`: the word rotated left by 2 in the RISC-V
 * stream (PushTensixInstruction.md). */
#define TT_ROTL2(w) ((((uint32_t)(w)) << 2) | (((uint32_t)(w)) >> 30))
#define TTI(w)      __asm__ volatile(".word %0" ::"i"(TT_ROTL2(w)) : "memory")

/* Tensix instructions: the generated encoders TT_OP_<MNEMONIC>(fields...) of coproc/tt_fields.h
 * (from coproc/tt_ops.def; the build puts it on the include path). Arguments highest field first,
 * as tt-llk's TT_OP_* macros take them, e.g. TT_OP_SEMPOST(sem_sel), TT_OP_STALLWAIT(stall_res,
 * wait_res); an opcode without fields is a constant (TT_OP_NOP). */
#include "coproc/tt_fields.h"

/* SETDMAREG writes a 16-bit half of a GPR: tt-llk's LO_16(r) = 2r, HI_16(r) = 2r+1. */
#define LO_16(r) (2u * (r))
#define HI_16(r) (2u * (r) + 1u)
/* LOADREG/STOREREG's RegAddr of an MMIO address: 0xFFB00000 + 4 * RegAddr (LOADREG.md). */
#define TT_REGADDR(mmio) ((((uint32_t)(mmio)) - 0xFFB00000u) >> 2)
/* UNPACR_NOP's Set_Dvalid mode (tt-llk p_unpacr_nop::SET_DVALID): hand the bank to the Matrix Unit. */
#define P_UNPACR_NOP_SET_DVALID 1u
/* UNPACR_NOP's Unpack_Pop mode 1: clear the unpacker's bank (UNPACR_NOP_ZEROSRC.md), the mode
 * tt-llk's unpack-to-SrcA/SrcB NOPs use and the one ttemu models (docs/datapath.md). */
#define P_UNPACR_NOP_ZEROSRC 1u

/* tt-llk p_stall (Blackhole): what a wait blocks (B0..B8) ... */
#define STALL_TDMA   0x001u
#define STALL_SYNC   0x002u
#define STALL_PACK   0x004u
#define STALL_UNPACK 0x008u
#define STALL_XMOV   0x010u
#define STALL_THCON  0x020u
#define STALL_MATH   0x040u
#define STALL_CFG    0x080u
#define STALL_SFPU   0x100u
/* ... and what it waits on (C0..C12; STALLWAIT.md BH, TENSIX.md §6.2). */
#define P_THCON     0x001u
#define P_UNPACK0   0x002u
#define P_UNPACK1   0x004u
#define P_PACK      0x008u
#define P_MATH      0x010u
#define P_SRCA_CLR  0x020u
#define P_SRCB_CLR  0x040u
#define P_SRCA_VLD  0x080u
#define P_SRCB_VLD  0x100u
#define P_XMOV      0x200u
#define P_TRISC_CFG 0x400u
#define P_WAIT_SFPU 0x800u
#define P_CFGEXU    0x1000u
/* SEMWAIT conditions. */
#define STALL_ON_ZERO 1u
#define STALL_ON_MAX  2u
/* tt-llk semaphore indices (ckernel_structs.h, struct semaphore) and the mask of one. */
#define SEM_MATH_PACK           1u /* math <-> pack: Dst sections ready for the packer */
#define SEM_UNPACK_TO_DEST      2u /* unpack <-> math: tiles unpacked straight into Dst */
#define SEM_UNPACK_OPERAND_SYNC 3u /* unpack <-> pack, math: operand get/release */
#define SEM_PACK_DONE           4u /* pack iterations begun/ended */
#define SEM_UNPACK_SYNC         5u /* TRISC <-> unpacker: configuration contexts in use */
#define T6_SEM(i)               (1u << (i))
/* tt-llk mutex indices (ckernel_structs.h, struct mutex): REG_RMW guards config read-modify-writes. */
#define MUTEX_REG_RMW 0u

/* tt-llk's t6_semaphore_post<WaitRes>: the thread posts once the units in wait_res are done. */
#define T6_SEMAPHORE_POST(wait_res, sem)                                                                               \
    do {                                                                                                               \
        TTI(TT_OP_STALLWAIT(STALL_SYNC, (wait_res)));                                                                  \
        TTI(TT_OP_SEMPOST(T6_SEM(sem)));                                                                               \
    } while (0)
/* ... t6_semaphore_get<WaitRes>: the same for SEMGET. */
#define T6_SEMAPHORE_GET(wait_res, sem)                                                                                \
    do {                                                                                                               \
        TTI(TT_OP_STALLWAIT(STALL_SYNC, (wait_res)));                                                                  \
        TTI(TT_OP_SEMGET(T6_SEM(sem)));                                                                                \
    } while (0)

/* PC_BUF window of a TRISC (ManualTTSync.md, SyncUnit.md). */
#define PCBUF_BASE   0xFFE80000u
#define SEMAPHORE(i) L1_WORD(PCBUF_BASE + 0x20u + 4u * (i))
/* The RISC-V side of the Sync Unit's semaphores, as tt-llk's ckernel.h names it: a store with
 * bit 0 clear posts (Value + 1, saturating at 15), with bit 0 set gets (Value - 1, floor 0); a
 * load reads Value. */
static inline void semaphore_post(uint32_t i) { SEMAPHORE(i) = 0; }
static inline void semaphore_get(uint32_t i) { SEMAPHORE(i) = 1; }
static inline uint32_t semaphore_read(uint32_t i) { return SEMAPHORE(i); }

/* INSTRN_BUF: a TRISC's `sw` here pushes to its own thread (before the MOP expander); BRISC's
 * pushes to T0, T1, T2 through INSTRN_BUF, INSTRN1_BUF, INSTRN2_BUF (after it). tt-llk's TT_
 * macros push this way (instrn_buffer[0] = word) when the word is only known at run time; TTI_
 * ones are `.ttinsn`. */
#define INSTRN_BUF(t) ((volatile uint32_t *)(uintptr_t)(0xFFE40000u + 0x10000u * (t)))
static inline void tt_push(uint32_t word) { *INSTRN_BUF(0) = word; }

/* MOP config of this TRISC's thread (MOPExpander.md): nine write-only words. */
#define MOP_CFG(i) L1_WORD(0xFFB80000u + 4u * (i))

/* Reset control (SoftReset.md): SOFT_RESET_0 bit 11 BRISC, 12..14 TRISC0..2, 18 NCRISC; a core
 * leaves reset when its bit goes 1 -> 0. The reset PCs apply where the override bit is set. */
#define SOFT_RESET_0            L1_WORD(0xFFB121B0u)
#define SOFT_RESET_TRISC(i)     (1u << (12 + (i)))
#define TRISC_RESET_PC(i)       L1_WORD(0xFFB12228u + 4u * (i))
#define TRISC_RESET_PC_OVERRIDE L1_WORD(0xFFB12234u)

/* Backend configuration as RISC-V sees it (BackendConfiguration.md): Config[bank 0] words, and
 * ThreadConfig[t] (read-only for RISC-V; value in the low 16 bits). */
#define CFG_WORD(i)       L1_WORD(0xFFEF0000u + 4u * (i))
#define THDCFG_WORD(t, i) L1_WORD(0xFFEF0A80u + 0x110u * (t) + 4u * (i))
/* Config fields by their cfg_defines.h names, from ttemu's one table of them
 * (coproc/cfg_fields.def): NAME_ADDR32 (the word), NAME_SHAMT (its first bit), NAME_WIDTH. */
enum {
#define CFG_FIELD(name, word, shift, width, stride)                                                                    \
    name##_ADDR32 = (word), name##_SHAMT = (shift), name##_WIDTH = (width),
#define THCFG_FIELD(name, word, shift, width, stride)
#include "coproc/cfg_fields.def"
#undef CFG_FIELD
#undef THCFG_FIELD
};
#define CFG_FIELD_MASK(name) ((((2u << (name##_WIDTH - 1)) - 1u)) << name##_SHAMT)
/* Set field NAME of Config word NAME_ADDR32 + off (off = 48: unpacker 1's copy of an unpacker 0
 * field) to v, keeping the word's other bits. */
#define CFG_SET_AT(name, off, v)                                                                                       \
    (CFG_WORD(name##_ADDR32 + (off)) = (CFG_WORD(name##_ADDR32 + (off)) & ~CFG_FIELD_MASK(name)) |                     \
                                       (((uint32_t)(v) << name##_SHAMT) & CFG_FIELD_MASK(name)))
#define CFG_SET(name, v) CFG_SET_AT(name, 0, v)
/* Field NAME holding v, in its place in its word (for whole-word stores). */
#define CFG_VAL(name, v) (((uint32_t)(v) << name##_SHAMT) & CFG_FIELD_MASK(name))

/* Where the samples whose subject is synchronisation, not numbers, let their unpackers read and
 * their packer write: two scratch buffers in L1, clear of every sample's code (fw.mk). */
#define TT_DP_SCRATCH_IN  0x100000u
#define TT_DP_SCRATCH_OUT 0x110000u
#define TT_FMT_BF16       5u
/* The least configuration under which the unpackers and the packer move data (what tt-llk's
 * hw_configure does, cut to one format): both unpackers read uncompressed bf16 from
 * TT_DP_SCRATCH_IN into bf16, the packer reads 16-bit Dst and writes bf16 to TT_DP_SCRATCH_OUT.
 * Without it, UNPACR and PACR meet an all-zero configuration, which asks for compressed data, a
 * mode ttemu refuses (exit 6). Each core that pushes them calls it before it does. Whole-word
 * stores, one per word (the other fields of these words keep their reset value, 0). */
static inline void tt_dp_configure_bf16(void) {
    for (unsigned u = 0; u < 2; u++) {
        /* Unpacker u (its words 48 apart): the tile descriptor (format, uncompressed, XDim 16),
         * the output format, the L1 base address (16-byte units, minus one). */
        CFG_WORD(THCON_SEC0_REG0_TileDescriptor_ADDR32 + 48 * u) = TT_FMT_BF16 | 1u << 4 | 16u << 16;
        CFG_WORD(THCON_SEC0_REG2_Out_data_format_ADDR32 + 48 * u) =
            CFG_VAL(THCON_SEC0_REG2_Out_data_format, TT_FMT_BF16);
        CFG_WORD(THCON_SEC0_REG3_Base_address_ADDR32 + 48 * u) = (TT_DP_SCRATCH_IN >> 4) - 1;
    }
    CFG_WORD(THCON_SEC0_REG1_Disable_zero_compress_ADDR32) = CFG_VAL(THCON_SEC0_REG1_Disable_zero_compress, 1) |
                                                             CFG_VAL(THCON_SEC0_REG1_In_data_format, TT_FMT_BF16) |
                                                             CFG_VAL(THCON_SEC0_REG1_Out_data_format, TT_FMT_BF16);
    CFG_WORD(ALU_FORMAT_SPEC_REG2_Dstacc_ADDR32) = CFG_VAL(ALU_FORMAT_SPEC_REG2_Dstacc, TT_FMT_BF16);
    CFG_WORD(THCON_SEC0_REG1_L1_Dest_addr_ADDR32) = (TT_DP_SCRATCH_OUT >> 4) - 1;
}
_Static_assert(THCON_SEC0_REG1_In_data_format_ADDR32 == THCON_SEC0_REG1_Disable_zero_compress_ADDR32 &&
                   THCON_SEC0_REG1_Out_data_format_ADDR32 == THCON_SEC0_REG1_Disable_zero_compress_ADDR32,
               "the packer's three fields share one word");

/* This TRISC's Tensix GPRs (ScalarUnit.md). */
#define GPR(i) L1_WORD(0xFFE00000u + 4u * (i))
/* RISCV_DEBUG_REG_WALL_CLOCK_L. */
#define WALL_CLOCK_L 0xFFB121F0u
static inline uint32_t wall_clock(void) { return L1_WORD(WALL_CLOCK_L); }
static inline void spin_cycles(uint32_t n) {
    uint32_t t0 = wall_clock();
    while (wall_clock() - t0 < n) {
    }
}

/* tt_cfg_bstatus (CSR 0xBC1, CSRs.md): bits [10:0] the classes this thread has queued or
 * executing; [21:11] the OR over the three threads. Class bits: */
#define BST_THCON  (1u << 2)
#define BST_UNPACK (1u << 4)
#define BST_PACK   (1u << 5)
#define BST_CFG    (1u << 6)
#define BST_SFPU   (1u << 9)
#define BST_FPU    (1u << 10)
static inline uint32_t tt_bstatus(void) {
    uint32_t v;
    __asm__ volatile("csrr %0, 0xbc1" : "=r"(v));
    return v;
}

/* tensix_sync(): a load from CoprocessorDoneCheck returns once this thread's Tensix work is done. */
static inline void tensix_sync(void) {
    volatile uint32_t *p = (volatile uint32_t *)(uintptr_t)(PCBUF_BASE + 4u);
    *p = 0;
    (void)*p;
}

/* mop_sync(): a load from MOPExpanderDoneCheck returns once this thread's MOP expander is idle,
 * so MopCfg may be rewritten for the next MOP. */
static inline void mop_sync(void) {
    volatile uint32_t *p = (volatile uint32_t *)(uintptr_t)(PCBUF_BASE + 8u);
    (void)*p;
}

#endif
