/* test/unit/dp_fixture.h — the fixture test_fpu.c, test_unpack.c and test_pack.c share: a
 * datapath with its architectural state and 1.5 MiB of L1, instructions fed straight to dp_exec
 * (and, for unpacker instructions, dp_unpack_data right after, as from an idle unpacker), Config
 * and ThreadConfig fields set by name through coproc/cfg_fields.def. Include after cmocka.h. */
#ifndef TTEMU_TEST_DP_FIXTURE_H
#define TTEMU_TEST_DP_FIXTURE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coproc/datapath.h"
#include "dp_events.h"
#include "coproc/formats.h"
#include "coproc/state.h"
#include "coproc/tt_fields.h"

#define FX_L1_SIZE 0x180000u

typedef struct {
    dp_t *dp;
    cp_state_t st;
    cp_env_t env;
    cp_error_t err;
    uint8_t *l1;
} fx_t;

static int fx_setup(void **state) {
    fx_t *f = calloc(1, sizeof *f);
    f->dp = dp_create();
    f->l1 = calloc(1, FX_L1_SIZE);
    st_reset(&f->st);
    f->env = (cp_env_t){.ctx = f, .l1 = f->l1, .l1_size = FX_L1_SIZE};
    *state = f;
    return 0;
}

static int fx_teardown(void **state) {
    fx_t *f = *state;
    dp_destroy(f->dp);
    free(f->l1);
    free(f);
    return 0;
}

/* Thread t's instruction w at its datapath events; the error category (CP_ERR_NONE: none). */
static cp_err_cat_t fx_run(fx_t *f, unsigned t, uint32_t w) {
    if (dpt_events(f->dp, &f->st, &f->env, &f->err, t, w) != CP_ERR_NONE) assert_true(f->err.what[0] != 0);
    return f->err.cat;
}
static void fx_ex(fx_t *f, uint32_t w) {
    if (fx_run(f, 0, w) != CP_ERR_NONE) fail_msg("0x%08x: %s", w, f->err.what);
}

/* Config / ThreadConfig fields by their cfg_defines.h names (bank 0, thread 0). */
#define FX_CFG(f, name, v)   cfg_set(&(f)->st, 0, CFG_##name, (v))
#define FX_THCFG(f, name, v) thcfg_set(&(f)->st, 0, THCFG_##name, (v))

/* Dst.md layouts written out: a BF16 cell is sign | mantissa(7) << 8 | exponent(8); an FP16 cell
 * sign | mantissa(10) << 5 | exponent(5); a Dst32b datum the BF16 cell of its high half over its
 * low 16 bits, at physical rows Adj32(r) and Adj32(r) + 8. */
static inline uint16_t cell_bf16(uint16_t b) { return (uint16_t)((b & 0x8000) | (b & 0x7F) << 8 | ((b >> 7) & 0xFF)); }
static inline uint16_t cell_fp16(uint16_t h) {
    return (uint16_t)((h & 0x8000) | (h & 0x3FF) << 5 | ((h >> 10) & 0x1F));
}
static inline unsigned adj32(unsigned r) { return ((r & 0x1F8) << 1) | (r & 0x207); }
static inline uint32_t dst32(fx_t *f, unsigned row, unsigned col) {
    const dst_regs_t *d = dp_dst(f->dp);
    uint16_t hi = d->bits[adj32(row)][col], lo = d->bits[adj32(row) + 8][col];
    /* back to IEEE order: the high half is a BF16 cell */
    uint16_t b = (uint16_t)((hi & 0x8000) | (hi & 0xFF) << 7 | ((hi >> 8) & 0x7F));
    return (uint32_t)b << 16 | lo;
}
static inline void put_dst32(fx_t *f, unsigned row, unsigned col, uint32_t v) {
    dst_regs_t *d = dp_dst_mut(f->dp);
    d->bits[adj32(row)][col] = cell_bf16((uint16_t)(v >> 16));
    d->bits[adj32(row) + 8][col] = (uint16_t)v;
}
static inline uint16_t dst16(fx_t *f, unsigned row, unsigned col) { return dp_dst(f->dp)->bits[row][col]; }

/* Element i of a Config field (coproc/cfg_fields.def), word_off words further (48 for unpacker
 * 1's copy of an unpacker 0 field), in bank 0; the other bits of the word kept. */
static inline void fx_cfg_i(fx_t *f, cfg_field_t fld, unsigned i, unsigned word_off, uint32_t v) {
    const cp_field_t *d = &cfg_fields[fld];
    unsigned bit = (unsigned)d->shift + i * d->stride, w = d->word + word_off + bit / 32;
    uint32_t m = st_field_mask(d->width) << (bit % 32);
    st_cfg_w(&f->st, 0, w, (f->st.cfg[0][w] & ~m) | ((v << (bit % 32)) & m));
}

/* Src datums of IEEE patterns (formats.h layouts). */
static inline uint32_t src_bf16(uint16_t b) { return fmt_src_encode_bf16(b); }
static inline uint32_t src_fp16(uint16_t h) { return fmt_src_encode_fp16(h); }
static inline uint32_t src_tf32(uint32_t f32) { return fmt_src_encode_tf32(f32); }
/* Integer "8": sign << 18 | magnitude << 8 | exponent 16 (0 for magnitude 0) (SrcASrcB.md). */
static inline uint32_t src_int8(int v) {
    uint32_t m = (uint32_t)(v < 0 ? -v : v);
    return (v < 0 ? 1u << 18 : 0) | m << 8 | (m ? 16u : 0);
}

#endif
