/* test/unit/sfpu_dp_test.h — a datapath to feed Vector Unit words through dp_exec (for the
 * instructions that touch Dst, SFPLOADMACRO's schedule and the seed register), with the Dst cell
 * layouts written out from BH Dst.md for the expectations (independently of coproc/formats.c). */
#ifndef TTEMU_TEST_SFPU_DP_TEST_H
#define TTEMU_TEST_SFPU_DP_TEST_H

#include "sfpu_test.h"

#include "coproc/datapath.h"
#include "dp_events.h"

typedef struct {
    dp_t *dp;
    cp_state_t st;
    cp_env_t env;
    cp_error_t err;
    uint8_t l1[1024]; /* (room for a few PACRs' reach: coproc/pack.c PACR_DATA_REACH) */
} dpf_t;

static inline int dpf_setup(void **state) {
    dpf_t *f = calloc(1, sizeof *f);
    f->dp = dp_create();
    st_reset(&f->st);
    f->env = (cp_env_t){.ctx = f, .l1 = f->l1, .l1_size = sizeof f->l1};
    *state = f;
    return 0;
}
static inline int dpf_teardown(void **state) {
    dpf_t *f = *state;
    dp_destroy(f->dp);
    free(f);
    return 0;
}

/* Dispatch word as thread t's instruction at cycle `cycle`; the error category. */
static inline cp_err_cat_t dpf_run(dpf_t *f, unsigned t, uint32_t w, uint64_t cycle) {
    memset(&f->err, 0, sizeof f->err);
    cp_insn_t in = dpt_insn(&f->st, &f->env, &f->err, t, w, cycle);
    dp_exec(f->dp, &in);
    return f->err.cat;
}
static inline void dpf_ex(dpf_t *f, uint32_t w, uint64_t cycle) {
    if (dpf_run(f, 1, w, cycle) != CP_ERR_NONE) fail_msg("0x%08x: %s", w, f->err.what);
}

/* BH Dst.md DstEncodeBF16 of a BF16 pattern, and of an FP16 one (Integer "8" too): the exponent at
 * the bottom, the mantissa above it, the sign on top. */
static inline uint16_t dst_bf16(uint16_t b) { return (uint16_t)((b & 0x8000) | (b & 0x7F) << 8 | ((b >> 7) & 0xFF)); }
static inline uint16_t dst_fp16(uint16_t h) { return (uint16_t)((h & 0x8000) | (h & 0x3FF) << 5 | ((h >> 10) & 0x1F)); }
/* Dst32b (BH Dst.md): logical row r is physical rows p (the high half, arranged as BF16) and p + 8
 * (the low half as it is), p = ((r & 0x1F8) << 1) | (r & 0x207). */
static inline unsigned dst32_row(unsigned r) { return ((r & 0x1F8u) << 1) | (r & 0x207u); }
static inline void dst32_put(dst_regs_t *d, unsigned r, unsigned c, uint32_t v) {
    unsigned p = dst32_row(r);
    d->bits[p][c] = dst_bf16((uint16_t)(v >> 16));
    d->bits[p + 8][c] = (uint16_t)v;
}
static inline uint32_t dst32_get(const dst_regs_t *d, unsigned r, unsigned c) {
    unsigned p = dst32_row(r);
    uint16_t h = d->bits[p][c];
    uint16_t b = (uint16_t)((h & 0x8000) | (h & 0xFF) << 7 | ((h >> 8) & 0x7F));
    return (uint32_t)b << 16 | d->bits[p + 8][c];
}

#endif
