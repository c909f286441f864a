/* test/unit/sfpu_test.h — what the Vector Unit's unit tests (test_sfpu_*.c) share: a register file
 * to run decoded instructions on (coproc/sfpu_ops.h), FP32 bit patterns written out, and reference
 * helpers written for the tests from the ISA pages (never from ttemu's code). Each test file is its
 * own program, so the helpers are static. */
#ifndef TTEMU_TEST_SFPU_TEST_H
#define TTEMU_TEST_SFPU_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coproc/sfpu_ops.h"
#include "coproc/tt_fields.h"

/* FP32 bit patterns (IEEE order), named by value. */
#define F_0       0x00000000u
#define F_N0      0x80000000u
#define F_1       0x3F800000u
#define F_N1      0xBF800000u
#define F_HALF    0x3F000000u /* check_fields: not a field */
#define F_1_5     0x3FC00000u
#define F_2       0x40000000u /* check_fields: not a field */
#define F_3       0x40400000u
#define F_4       0x40800000u
#define F_INF     0x7F800000u
#define F_NINF    0xFF800000u
#define F_QNAN    0x7FC00000u
#define F_NQNAN   0xFFC00000u
#define ALL_LANES 0xFFFFFFFFu

static inline uint32_t f2u(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static inline float u2f(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* A Vector Unit at power-on (sfpu_reset), on the heap for cmocka's state. */
static inline int sfpu_setup(void **state) {
    lregs_t *s = calloc(1, sizeof *s);
    sfpu_reset(s);
    *state = s;
    return 0;
}
static inline int sfpu_teardown(void **state) {
    free(*state);
    return 0;
}

/* Decode and run one instruction word; the result category (CP_ERR_NONE on success). */
static inline cp_err_cat_t sfp_try(lregs_t *s, uint32_t word) {
    sfp_op_t o;
    assert_true(sfpu_decode(word, &o));
    return sfpu_exec(s, &o).cat;
}
static inline void sfp(lregs_t *s, uint32_t word) {
    sfp_op_t o;
    assert_true(sfpu_decode(word, &o));
    sfp_res_t r = sfpu_exec(s, &o);
    if (r.cat != CP_ERR_NONE) fail_msg("0x%08x: %s", word, r.what);
}
/* Run as SFPLOADMACRO would: operands rewritten (the caller's fields win), backdoor off. */
static inline void sfp_op(lregs_t *s, const sfp_op_t *o) {
    sfp_res_t r = sfpu_exec(s, o);
    if (r.cat != CP_ERR_NONE) fail_msg("0x%08x: %s", o->word, r.what);
}

/* Every lane of LReg[r] = v. */
static inline void fill(lregs_t *s, unsigned r, uint32_t v) {
    for (unsigned l = 0; l < LANES; l++)
        s->r[r][l] = v;
}
/* Lane l of LReg[r] must be want for every lane in mask, and untouched (old) elsewhere. */
static inline void expect_lanes(const lregs_t *s, unsigned r, uint32_t mask, uint32_t want, uint32_t old) {
    for (unsigned l = 0; l < LANES; l++) {
        uint32_t w = ((mask >> l) & 1) ? want : old;
        if (s->r[r][l] != w) fail_msg("LReg[%u] lane %u: 0x%08x, want 0x%08x", r, l, s->r[r][l], w);
    }
}

/* VectorUnit.md AdvancePRNG, written for the tests: the next state of one lane. */
static inline uint32_t ref_prng_next(uint32_t x) {
    unsigned taps = 0;
    for (unsigned b = 0; b < 32; b++)
        if (((0x80200003u >> b) & 1) && ((x >> b) & 1)) taps++;
    return ((taps & 1) ? 0u : 0x80000000u) | (x >> 1);
}

/* Predication on, lane flags from a mask (SFPENCC.md: the state, set directly). */
static inline void predicate(lregs_t *s, uint32_t flags) {
    s->use_flags = ALL_LANES;
    s->flags = flags;
}

#endif
