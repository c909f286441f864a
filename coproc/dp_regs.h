/* coproc/dp_regs.h — the Tensix register files and counters the datapath computes on, one struct
 * each (values only: no clock). Owned by the datapath (coproc/datapath.c), reset with the
 * coprocessor. Layouts as the ISA documents them:
 *   SrcA/SrcB: SrcASrcB.md — 2 banks x 64 rows x 16 columns of 19-bit datums;
 *   Dst:       BH Dst.md — DstBits[1024][16] of 16 bits plus DstRowValid[1024];
 *   LReg:      LReg.md — 17 x 32 lanes x 32 bits, lane flags and the flag stack (VectorUnit.md);
 *   RWCs:      RWCs.md — per thread Dst/SrcA/SrcB/fidelity counters (+ BH's SFPU stack pointer);
 *   ADCs:      ADCs.md — per thread, for unpacker 0, unpacker 1 and the packers, two channels of
 *              X/Y/Z/W with a _Cr shadow each.
 */
#ifndef TTEMU_COPROC_DP_REGS_H
#define TTEMU_COPROC_DP_REGS_H

#include <stdbool.h>
#include <stdint.h>

#define SRC_BANKS  2
#define SRC_ROWS   64
#define SRC_COLS   16
#define DST_ROWS   1024
#define DST_COLS   16
#define LREG_N     17
#define LANES      32
#define DP_THREADS 3

/* SrcA or SrcB. Datums are 19 bits in the register's own layout (formats.h: sign | mantissa(10) |
 * exponent(8)). implied_fmt: Blackhole's ImpliedSrc{A,B}Fmt per bank, the Out_data_format of the
 * unpack that handed the bank over (UNPACR_NOP_SETDVALID.md, MOVA2D.md).
 *
 * zero[b]: bank b is known to hold only zeros (false: not known; always safe), so that clearing it
 * to zero again can be skipped (dp_internal.h dp_src_clear: UNPACR_NOP, ZEROSRC). d is const so
 * that nothing writes a bank except through dp_src_rows_w below, which forgets the bank's zero
 * first: a writer that does not go through it does not compile. A copy of the whole struct
 * carries the flag with the data, and zeroing the whole struct leaves it false. */
typedef struct {
    const uint32_t d[SRC_BANKS][SRC_ROWS][SRC_COLS];
    uint8_t implied_fmt[SRC_BANKS];
    bool zero[SRC_BANKS];
} src_regs_t;

/* Bank b of s to write: the one way to (it casts d's const away, defined for allocated storage
 * only: every src_regs_t is inside a dp_t from calloc, and no object holding one is defined,
 * scripts/check_const_members.py), and it forgets that the bank holds only zeros first. */
static inline uint32_t (*dp_src_rows_w(src_regs_t *s, unsigned b))[SRC_COLS] {
    s->zero[b] = false;
    return (uint32_t(*)[SRC_COLS])s->d[b];
}

/* Dst: the 16-bit physical cells and the per-row valid bits (ZEROACC clears them). */
typedef struct {
    uint16_t bits[DST_ROWS][DST_COLS];
    bool valid[DST_ROWS];
} dst_regs_t;

/* The Vector Unit's registers and lane state (LReg.md, VectorUnit.md "Lane Predication Masks" and
 * "PRNG", SFPCONFIG.md LaneConfig, SFPLOADMACRO.md LoadMacroConfig). A per-lane boolean is a bit
 * mask: bit L is lane L's. The flag stack (SFPPUSHC.md: at most eight entries) keeps each lane's
 * depth, and entry k of every lane as bit L of stack_flags[k] / stack_use[k]. */
#define SFPU_FLAG_STACK 8
#define SFPU_MACROS     4 /* SFPLOADMACRO.md: four sequences, four instruction templates */
typedef struct {
    uint32_t r[LREG_N][LANES];
    uint32_t flags;     /* LaneFlags */
    uint32_t use_flags; /* UseLaneFlagsForLaneEnable */
    uint8_t stack_n[LANES];
    uint32_t stack_flags[SFPU_FLAG_STACK]; /* FlagStackEntry.LaneFlags */
    uint32_t stack_use[SFPU_FLAG_STACK];   /* FlagStackEntry.UseLaneFlagsForLaneEnable */
    /* LaneConfig, 18 bits each (SFPCONFIG.md), const to its readers: nothing writes a lane's but
     * sfpu_lane_config_w below, which keeps lc_or and lc_or8 (the OR of all 32 lanes' words and of
     * lanes 0..7's, which the common cases' tests read instead of the words). A copy or a zeroing
     * of the whole lregs_t keeps them true: they travel with the words. */
    const uint32_t lane_config[LANES];
    uint32_t lc_or, lc_or8;
    uint32_t prng[LANES]; /* AdvancePRNG's State[Lane] (VectorUnit.md) */
    uint32_t prng_seeds;  /* the Config seed writes this state follows (sfpu.c) */
    /* LoadMacroConfig[Lane] (SFPLOADMACRO.md): Misc (12 bits), Sequence[4], InstructionTemplate[4]. */
    uint16_t lm_misc[LANES];
    uint32_t lm_seq[LANES][SFPU_MACROS];
    uint32_t lm_tmpl[LANES][SFPU_MACROS];
} lregs_t;

/* LaneConfig[l] = v: the one way to write it (it casts lane_config's const away, defined for
 * allocated storage only: no object holding an lregs_t is defined, scripts/check_const_members.py),
 * lc_or and lc_or8 made again from the 32 words. */
static inline void sfpu_lane_config_w(lregs_t *s, unsigned l, uint32_t v) {
    ((uint32_t *)s->lane_config)[l] = v;
    uint32_t o = 0;
    for (unsigned c = 0; c < 8; c++)
        o |= s->lane_config[c];
    s->lc_or8 = o;
    for (unsigned c = 8; c < LANES; c++)
        o |= s->lane_config[c];
    s->lc_or = o;
}

/* Register-window counters of one thread (RWCs.md; BH adds Sp, SFPLOAD.md). */
typedef struct {
    uint16_t dst, dst_cr;                 /* 10 bits */
    uint8_t srca, srca_cr, srcb, srcb_cr; /* 6 bits */
    uint8_t fidelity;                     /* 2 bits */
    uint8_t bias;                         /* ExtraAddrModBit */
    uint16_t sp;                          /* 10 bits */
} rwc_t;

/* One channel of an address counter (ADCs.md: X 18 bits, Y 13, Z 8, W 8). */
typedef struct {
    uint32_t x, x_cr;
    uint16_t y, y_cr;
    uint8_t z, z_cr, w, w_cr;
} adc_ch_t;

enum { ADC_UNP0 = 0, ADC_UNP1 = 1, ADC_PACK = 2, ADC_UNITS = 3 };
typedef struct {
    adc_ch_t ch[2];
} adc_t;

#endif
