/* coproc/dp_internal.h — what the datapath's unit files share (coproc/datapath.c, dp_addr.c,
 * unpack.c, fpu.c, sfpu.c, pack.c): the datapath's state, the context of one instruction, and the
 * configuration field accessors. Nothing outside those files includes it.
 *
 * Values only: no clock, no stalls. The timing model (coproc/backend.c) calls dp_exec at exactly
 * one event per datapath instruction and owns when; these files own what. */
#ifndef TTEMU_COPROC_DP_INTERNAL_H
#define TTEMU_COPROC_DP_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "coproc/datapath.h"
#include "coproc/dp_regs.h"
#include "coproc/formats.h"

/* Configuration fields by name (coproc/dp_cfg.def). */
typedef enum {
#define DP_CFG(name, word, shift, width, stride) CF_##name,
#define DP_THCFG(name, word, shift, width, stride)
#include "coproc/dp_cfg.def"
#undef DP_CFG
#undef DP_THCFG
    CF_COUNT
} dp_cfg_field_t;
typedef enum {
#define DP_CFG(name, word, shift, width, stride)
#define DP_THCFG(name, word, shift, width, stride) TF_##name,
#include "coproc/dp_cfg.def"
#undef DP_CFG
#undef DP_THCFG
    TF_COUNT
} dp_thcfg_field_t;

/* Unpacker 1's THCON_SEC1 block is unpacker 0's THCON_SEC0 block + 48 words (cfg_defines.h). */
#define UNP_SEC_WORDS 48

/* Per-unpacker state the UNPACR functional model keeps (UNPACR_Regular.md `Unpackers[]`):
 * SrcRow and ContextCounter per thread. The bank pointer and AllowedClient belong to the
 * hand-over between units and live with the architectural state (dp_arch_t). */
typedef struct {
    uint8_t src_row[DP_THREADS];
    uint8_t ctx_counter[DP_THREADS];
} unpacker_t;

/* The packer's output streams (Packers/OutputAddressGenerator.md): the L1 byte address the next
 * datum goes to, whether the next PACR takes a fresh address, and the partly filled 16-byte
 * output buffer (the packer writes L1 in aligned 16-byte units). */
typedef struct {
    bool needs_new_addr;
    uint32_t data_addr;
    uint8_t buf[16];
    unsigned buf_n;
    bool exp_needs_new_addr;
    uint32_t exp_addr;
    uint8_t tile_pos; /* edge masking's tile row position (BH PACR.md) */
} packer_t;

struct dp {
    src_regs_t srca, srcb;
    dst_regs_t dst;
    lregs_t sfpu;
    rwc_t rwc[DP_THREADS];
    adc_t adc[DP_THREADS][ADC_UNITS];
    unpacker_t unp[2];
    packer_t pack;
};

/* One instruction's context: the datapath, the architectural state it reads, the thread, its
 * config bank (ThreadConfig CFG_STATE_ID_StateID), L1, and where an error goes. */
typedef struct {
    dp_t *dp;
    const dp_arch_t *arch;
    const dp_mem_t *mem;
    unsigned t;
    unsigned bank;
    uint32_t word;
    dp_error_t *err;
} dp_ctx_t;

typedef struct {
    uint16_t word;
    uint8_t shift, width;
    uint8_t stride; /* bits between array elements; 0: not an array */
} dp_field_t;
extern const dp_field_t dp_cfg_fields[CF_COUNT];
extern const dp_field_t dp_thcfg_fields[TF_COUNT];

/* Element i of a field of Config[bank] (word_off: extra words, e.g. UNP_SEC_WORDS for unpacker 1). */
static inline uint32_t dp_cfg_i(const dp_ctx_t *x, dp_cfg_field_t f, unsigned i, unsigned word_off) {
    const dp_field_t *d = &dp_cfg_fields[f];
    unsigned bit = (unsigned)d->shift + i * d->stride;
    uint32_t v = x->arch->cfg[x->bank][d->word + word_off + bit / 32] >> (bit % 32);
    return d->width >= 32 ? v : v & ((1u << d->width) - 1u);
}
#define CFG(x, name)             dp_cfg_i((x), CF_##name, 0, 0)
#define CFG_I(x, name, i)        dp_cfg_i((x), CF_##name, (i), 0)
#define CFG_UNP(x, name, u)      dp_cfg_i((x), CF_##name, 0, (u)*UNP_SEC_WORDS)
#define CFG_UNP_I(x, name, u, i) dp_cfg_i((x), CF_##name, (i), (u)*UNP_SEC_WORDS)

static inline uint32_t dp_thcfg_i(const dp_ctx_t *x, dp_thcfg_field_t f, unsigned i) {
    const dp_field_t *d = &dp_thcfg_fields[f];
    unsigned bit = (unsigned)d->shift + i * d->stride;
    uint32_t v = (uint32_t)x->arch->thdcfg[x->t][d->word + bit / 16] >> (bit % 16);
    return v & ((1u << d->width) - 1u);
}
#define THCFG(x, name)      dp_thcfg_i((x), TF_##name, 0)
#define THCFG_I(x, name, i) dp_thcfg_i((x), TF_##name, (i))

/* Errors (the first one of an instruction is kept). */
void dp_fail(dp_ctx_t *x, dp_err_kind_t kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline bool dp_failed(const dp_ctx_t *x) { return x->err->kind != DP_OK; }

/* RWC address modifiers (RWCs.md ApplyAddrMod; Blackhole: AddrMod is 3 bits and indexes
 * ADDR_MOD_*_SEC0..7 directly). update_fidelity: false for SFPLOAD/SFPSTORE/SFPLOADMACRO. */
void dp_apply_addr_mod(dp_ctx_t *x, unsigned addr_mod, bool update_fidelity);

/* Dst row mapping (BH Dst.md Adj16/Adj32) and the 32-bit view. */
unsigned dp_adj16(const dp_ctx_t *x, unsigned row);
unsigned dp_adj32(const dp_ctx_t *x, unsigned row);
uint32_t dp_dst32_read(const dp_ctx_t *x, unsigned row, unsigned col);
void dp_dst32_write(dp_ctx_t *x, unsigned row, unsigned col, uint32_t v);
static inline uint16_t dp_dst16_read(const dp_ctx_t *x, unsigned row, unsigned col) {
    return x->dp->dst.bits[dp_adj16(x, row)][col];
}
void dp_dst16_write(dp_ctx_t *x, unsigned row, unsigned col, uint16_t v);

/* The units (one file each). Each returns nothing; errors go to x->err. */
void dp_adc_exec(dp_ctx_t *x);    /* dp_addr.c: SETADC*, INCADC*, ADDRCR* */
void dp_rwc_exec(dp_ctx_t *x);    /* dp_addr.c: SETRWC, INCRWC */
void dp_unpack_exec(dp_ctx_t *x); /* unpack.c: UNPACR, UNPACR_NOP */
void dp_fpu_exec(dp_ctx_t *x);    /* fpu.c: MOV*, ZEROACC, ZEROSRC, CLEARDVALID */
void dp_sfpu_exec(dp_ctx_t *x);   /* sfpu.c: SFP* */
void dp_pack_exec(dp_ctx_t *x);   /* pack.c: PACR */

#endif
