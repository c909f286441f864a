/* coproc/state.h — the architectural state of the Tensix backend: what its instructions read and
 * write, kept apart from when they do (the timing model, coproc/timing.c) and from how the
 * frontends deliver them.
 *
 *   GPRs[3][64]                 ScalarUnit.md; the TRISCs' window at 0xFFE00000
 *   Config[2][224]              BackendConfiguration.md; selected per thread by CFG_STATE_ID_StateID
 *   ThreadConfig[3][68]         16-bit entries, written by SETC16 only
 *   SrcA/SrcB ownership         SrcASrcB.md: AllowedClient per bank, and the bank pointers of the
 *                               unpackers and of the Matrix Unit
 *
 * Named configuration fields come from one table, coproc/cfg_fields.def (names as Blackhole's
 * cfg_defines.h spells them): cfg_get(st, bank, CFG_SCRATCH_SEC0_val), thcfg_get(st, t,
 * THCFG_CFG_STATE_ID_StateID). The next issue's datapath adds its fields to the same table.
 * Nothing here has a clock.
 */
#ifndef TTEMU_COPROC_STATE_H
#define TTEMU_COPROC_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "coproc/cp_views.h"

/* BackendConfiguration.md / cfg_defines.h (BH) GLOBAL_CFGREG_BASE_ADDR32: Config words at or above
 * this index are thread-agnostic "global" registers, written to both banks. */
#define CP_GLOBAL_CFG_BASE 180

/* SrcASrcB.md AllowedClient of a SrcA/SrcB bank. */
typedef enum { CP_SRC_UNPACKERS = 0, CP_SRC_MATRIX = 1 } cp_src_client_t;

/* SrcASrcB.md: who may use each bank, and which bank each side uses next. Reset: every bank the
 * Unpackers', every pointer 0. */
typedef struct {
    uint8_t srca[2], srcb[2];       /* SrcA[bank].AllowedClient, SrcB[bank].AllowedClient */
    uint8_t unp_bank[2];            /* Unpackers[0].SrcBank (SrcA), Unpackers[1].SrcBank (SrcB) */
    uint8_t fpu_bank_a, fpu_bank_b; /* MatrixUnit.SrcABank, MatrixUnit.SrcBBank */
} cp_src_t;

typedef struct {
    uint32_t gpr[CP_THREADS][CP_NUM_GPRS];
    /* Config, const to its readers: nothing writes a word except through st_cfg_w below, which
     * counts the write in cfg_gen and in every thread's thdcfg_gen (its cast of the const is defined only for allocated
     * storage: every cp_state_t, and every struct holding one, is allocated, never a defined object, as
     * scripts/check_const_members.py checks in make format-check), so that whoever keeps something decoded from Config
     * (PACR's, UNPACR's, SFPLOAD/SFPSTORE's and MOVA2D's setups: pack.c, unpack.c, sfpu.c, fpu.c) knows it current
     * while its thread's thdcfg_gen is unchanged (below). */
    const uint32_t cfg[2][CP_CFG_WORDS];
    /* Config's generation: bumped by every word written (changed or not) and by st_reset, never
     * set back; 64 bits, so it does not wrap in any run. */
    uint64_t cfg_gen;
    /* ThreadConfig, const to its readers the same way: st_thdcfg_w below is its one writer, and
     * counts the write in thread t's thdcfg_gen (below). */
    const uint16_t thdcfg[CP_THREADS][CP_THDCFG_WORDS];
    /* Thread t's generation of what it reads of the configuration: bumped by every word of
     * ThreadConfig[t] written, by every word of Config written (st_cfg_w bumps every thread's, as
     * it bumps cfg_gen), and by st_reset and st_copy, never set back. So where it is unchanged,
     * cfg_gen is too: a kept setup's key compares this one number (coproc/dp_internal.h
     * dp_key_hit_at). */
    uint64_t thdcfg_gen[CP_THREADS];
    /* The same two generations less the words kernels write once a tile to move their buffers
     * (st_cfg_tile_word, st_thdcfg_tile_word), of which the kept setups (MOVA2D's,
     * SFPLOAD/SFPSTORE's, PACR's) read at most a few and read them again where only those were
     * written (coproc/dp_internal.h dp_key_near_at): what their keys hold, so that a tile's writes
     * of the packer's and unpackers' addresses, of MATH_Offset and of the unpackers' context offsets
     * keep them. */
    uint64_t cfg_gen_m;
    uint64_t thdcfg_gen_m[CP_THREADS];
    cp_src_t src;
    /* Writes of Config's PRNG_SEED_Seed_Val so far: the Vector Unit reseeds its PRNG from the
     * register once per write (coproc/sfpu.c), even when the value does not change. */
    uint32_t prng_seed_writes;
} cp_state_t;

/* Power-on state: everything zero (but the generations, bumped), every Src bank the Unpackers'. */
void st_reset(cp_state_t *st);
/* *dst made a copy of *src (cfg's const forbids the assignment), dst's generations bumped rather
 * than copied: a new generation of dst's Config and ThreadConfig. */
void st_copy(cp_state_t *dst, const cp_state_t *src);

/* The Config words kernels write once a tile to move their buffers: the packer's L1 address
 * (THCON_SEC0_REG1_L1_Dest_addr), the unpackers' input addresses (THCON_SEC0/SEC1_REG3's
 * Base_address, eight contexts each) and the packers' Dst offsets (DEST_TARGET_REG_CFG_PACK_SEC0..3
 * _Offset). A write of one moves cfg_gen but not cfg_gen_m. Words as cfg_fields.def places them
 * (test_state checks them against cfg_fields[]). */
#define ST_CFG_PACK_L1_WORD   69  /* THCON_SEC0_REG1_L1_Dest_addr */
#define ST_CFG_UNP_BASE_WORD  76  /* THCON_SEC0_REG3_Base_address (cntx0; cntx1..7 follow) */
#define ST_CFG_UNP1_BASE_WORD 124 /* THCON_SEC1_REG3_Base_address: unpacker 0's + 48 words */
#define ST_CFG_PACK_OFF_WORD  180 /* DEST_TARGET_REG_CFG_PACK_SEC0_Offset (SEC1..3 follow) */
static inline bool st_cfg_tile_word(unsigned idx) {
    return idx == ST_CFG_PACK_L1_WORD || idx - ST_CFG_UNP_BASE_WORD < 8u || idx - ST_CFG_UNP1_BASE_WORD < 8u ||
           idx - ST_CFG_PACK_OFF_WORD < 4u;
}
/* The ThreadConfig words kernels write a few times a tile: the math thread's
 * DEST_TARGET_REG_CFG_MATH_Offset (its half of Dst), alone in word 1, and the unpack thread's
 * UNPACK_MISC_CFG_CfgContextOffset_0 (both unpackers' context offsets), alone in word 41, which no
 * kept setup reads (UNPACR reads it for its context, the key's extra). A write of one moves
 * thdcfg_gen[t] but not thdcfg_gen_m[t]. */
#define ST_THDCFG_MATH_OFF_WORD 1
#define ST_THDCFG_UNP_CTX_WORD  41
static inline bool st_thdcfg_tile_word(unsigned idx) {
    return idx == ST_THDCFG_MATH_OFF_WORD || idx == ST_THDCFG_UNP_CTX_WORD;
}

/* Config word idx (< CP_CFG_WORDS) of bank (0 or 1) to val: the one way to write Config (it casts
 * cfg's const away; every cp_state_t is allocated, see cfg), counted in cfg_gen and every thread's
 * thdcfg_gen (and, but for a tile's word, cfg_gen_m) first. A raw store, no global-register
 * mirroring: st_cfg_store below is the Tensix-side write. */
static inline void st_cfg_w(cp_state_t *st, unsigned bank, unsigned idx, uint32_t val) {
    st->cfg_gen++;
    for (unsigned t = 0; t < CP_THREADS; t++)
        st->thdcfg_gen[t]++;
    st->cfg_gen_m += !st_cfg_tile_word(idx);
    ((uint32_t *)st->cfg[bank & 1u])[idx] = val;
}

/* ThreadConfig[t] word idx (< CP_THDCFG_WORDS) to val: the one way to write ThreadConfig (SETC16,
 * thcfg_set, the tests; it casts thdcfg's const away as st_cfg_w does cfg's), counted in
 * thdcfg_gen[t] (and, but for a tile's word, thdcfg_gen_m[t]) first. */
static inline void st_thdcfg_w(cp_state_t *st, unsigned t, unsigned idx, uint16_t val) {
    st->thdcfg_gen[t]++;
    st->thdcfg_gen_m[t] += !st_thdcfg_tile_word(idx);
    ((uint16_t *)st->thdcfg[t])[idx] = val;
}

/* ---- named configuration fields (coproc/cfg_fields.def) ----------------------------------- */

typedef enum {
#define CFG_FIELD(name, word, shift, width, stride) CFG_##name,
#define THCFG_FIELD(name, word, shift, width, stride)
#include "coproc/cfg_fields.def"
#undef CFG_FIELD
#undef THCFG_FIELD
    CFG_FIELD_COUNT
} cfg_field_t;

typedef enum {
#define CFG_FIELD(name, word, shift, width, stride)
#define THCFG_FIELD(name, word, shift, width, stride) THCFG_##name,
#include "coproc/cfg_fields.def"
#undef CFG_FIELD
#undef THCFG_FIELD
    THCFG_FIELD_COUNT
} thcfg_field_t;

/* Each ThreadConfig field's place as compile-time constants from the same table: ST_TW_name its
 * word, ST_TS_name its first bit, ST_TN_name its width, ST_TT_name its stride, for the readers of a
 * named field that run for every instruction (st_state_id below, the datapath's THCFG in
 * coproc/dp_internal.h), which thcfg_fields[] would cost a look-up each time. */
#define CFG_FIELD(name, word, shift, width, stride)
#define THCFG_FIELD(name, word, shift, width, stride)                                                                  \
    enum { ST_TW_##name = (word), ST_TS_##name = (shift), ST_TN_##name = (width), ST_TT_##name = (stride) };
#include "coproc/cfg_fields.def"
#undef CFG_FIELD
#undef THCFG_FIELD

/* Where a field lives: word index (ADDR32), first bit (SHAMT), width in bits, and for an array
 * the bits between its elements (0: not an array). */
typedef struct {
    const char *name;
    uint8_t word, shift, width, stride;
} cp_field_t;

extern const cp_field_t cfg_fields[CFG_FIELD_COUNT];
extern const cp_field_t thcfg_fields[THCFG_FIELD_COUNT];

static inline uint32_t st_field_mask(unsigned width) { return width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1u; }

/* Field f of Config[bank]. */
static inline uint32_t cfg_get(const cp_state_t *st, unsigned bank, cfg_field_t f) {
    const cp_field_t *d = &cfg_fields[f];
    return (st->cfg[bank & 1u][d->word] >> d->shift) & st_field_mask(d->width);
}
/* Field f of ThreadConfig[t]. */
static inline uint32_t thcfg_get(const cp_state_t *st, unsigned t, thcfg_field_t f) {
    const cp_field_t *d = &thcfg_fields[f];
    return ((uint32_t)st->thdcfg[t][d->word] >> d->shift) & st_field_mask(d->width);
}
/* Write field f (the other bits of its word kept). A Config field of a global register goes to
 * both banks, as every Tensix-side write does (st_cfg_store). */
void cfg_set(cp_state_t *st, unsigned bank, cfg_field_t f, uint32_t val);
void thcfg_set(cp_state_t *st, unsigned t, thcfg_field_t f, uint32_t val);

/* The Config bank thread t's configuration instructions use: CFG_STATE_ID_StateID. */
static inline unsigned st_state_id(const cp_state_t *st, unsigned t) {
    return ((uint32_t)st->thdcfg[t][ST_TW_CFG_STATE_ID_StateID] >> ST_TS_CFG_STATE_ID_StateID) &
           st_field_mask(ST_TN_CFG_STATE_ID_StateID);
}

/* A Tensix-side write of Config word idx (< CP_CFG_WORDS) of bank: a global register (idx >=
 * CP_GLOBAL_CFG_BASE) is written to both banks (BackendConfiguration.md). */
void st_cfg_store(cp_state_t *st, unsigned bank, unsigned idx, uint32_t val);

/* ---- the RISC-V view (BackendConfiguration.md, at 0xFFEF0000) -----------------------------
 * byte offsets 0x000 Config[0], 0x380 Config[1], 0x700 ConfigDualWrite (writes both banks, reads
 * bank 0), 0xA80 + 0x110·t ThreadConfig[t] (the value in the low 16 bits). false for an offset
 * not 4-aligned or beyond 0xDB0, and for a ThreadConfig write (RISC-V must push SETC16). */
bool st_cfg_read(const cp_state_t *st, uint32_t byte_off, uint32_t *val);
bool st_cfg_write(cp_state_t *st, uint32_t byte_off, uint32_t val);
/* Is byte_off in the ThreadConfig part of that view? */
bool st_cfg_is_thdcfg(uint32_t byte_off);

/* ---- SrcA/SrcB ownership (SrcASrcB.md) -----------------------------------------------------
 * What changes hands; when is the timing model's business (coproc/timing.c). */

/* Does the side that uses it next own it? Unpacker u (0: SrcA, 1: SrcB) its bank; the Matrix
 * Unit its SrcA / SrcB bank. */
static inline bool st_src_unpacker_owns(const cp_state_t *st, unsigned u) {
    const cp_src_t *s = &st->src;
    return (u == 0 ? s->srca[s->unp_bank[0]] : s->srcb[s->unp_bank[1]]) == CP_SRC_UNPACKERS;
}
static inline bool st_src_matrix_owns_a(const cp_state_t *st) {
    return st->src.srca[st->src.fpu_bank_a] == CP_SRC_MATRIX;
}
static inline bool st_src_matrix_owns_b(const cp_state_t *st) {
    return st->src.srcb[st->src.fpu_bank_b] == CP_SRC_MATRIX;
}
/* Unpacker u gives its bank to the Matrix Unit and moves to the other bank (UNPACR SetDatValid,
 * UNPACR_NOP Set_Dvalid, SETDVALID). */
void st_src_to_matrix(cp_state_t *st, unsigned u);
/* The Matrix Unit gives its SrcA (flips bit 0) and/or SrcB (bit 1) bank back to the Unpackers
 * and moves to the other bank (FPU clear_dvalid, SETRWC clear_ab_vld, CLEARDVALID). With
 * honour_disable, thread t's CLR_DVALID_Src*_Disable keeps the ownership (the pointer still
 * moves: ELWADD.md); keep_bank (CLEARDVALID KeepReadingSameSrc) keeps the pointer. */
void st_src_to_unpackers(cp_state_t *st, unsigned t, unsigned flips, bool honour_disable, bool keep_bank);
/* CLEARDVALID Reset: every bank the Unpackers', every pointer 0. */
void st_src_reset(cp_state_t *st);

#endif
