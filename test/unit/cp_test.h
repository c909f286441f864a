/* test/unit/cp_test.h — helpers shared by the coprocessor unit tests (test_cp_*.c):
 * a fake tile environment with overlay stream registers and readers of the issued-instruction log.
 * Words are built with the generated encoders (coproc/tt_fields.h, TT_OP_*). Include after
 * cmocka.h. */
#ifndef TTEMU_TEST_CP_TEST_H
#define TTEMU_TEST_CP_TEST_H

#include <stdint.h>
#include <string.h>

#include "coproc/cp.h"
#include "coproc/tt_fields.h"

/* xorshift32: the drawn inputs of the randomized tests, from the caller's state (nonzero). */
static inline uint32_t xorshift32(uint32_t *state) {
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* ---- fake tile: 64 overlay streams × 512 registers at 0xFFB40000 ---------------------------- */
typedef struct {
    uint32_t stream[64][512];
} fake_tile_t;

static bool fake_load(void *ctx, uint32_t addr, uint32_t *val) {
    fake_tile_t *ft = ctx;
    if (addr >= 0xFFB40000u && addr < 0xFFB80000u) {
        uint32_t off = addr - 0xFFB40000u;
        *val = ft->stream[off / 0x1000][(off % 0x1000) / 4];
        return true;
    }
    return false;
}

static bool fake_store(void *ctx, uint32_t addr, uint32_t val) {
    (void)ctx, (void)addr, (void)val;
    return false;
}

static fake_tile_t g_fake; /* per test binary; tests reset it in setup */

static inline cp_t *cp_new(void) {
    memset(&g_fake, 0, sizeof g_fake);
    cp_env_t env = {.ctx = &g_fake, .mmio_load = fake_load, .mmio_store = fake_store};
    cp_t *cp = cp_create(&env);
    assert_non_null(cp);
    return cp;
}

static inline void run(cp_t *cp, unsigned n) {
    while (n--)
        cp_cycle(cp);
}

static inline void push(cp_t *cp, unsigned t, uint32_t w) { assert_true(cp_push(cp, t, w, false)); }

static inline void push_n(cp_t *cp, unsigned t, const uint32_t *w, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        push(cp, t, w[i]);
}

/* Words thread t issued (left its gate), oldest first, from the last CP_ISSUE_LOG issues. */
static inline unsigned issued(const cp_t *cp, unsigned t, uint32_t *out, unsigned max) {
    cp_issue_t log[CP_ISSUE_LOG];
    unsigned n = cp_issue_log(cp, log, CP_ISSUE_LOG), k = 0;
    for (unsigned i = 0; i < n && k < max; i++)
        if (log[i].thread == t) out[k++] = log[i].word;
    return k;
}

/* The cycle at which thread t issued word w (the last time), or UINT64_MAX. */
static inline uint64_t issue_cycle(const cp_t *cp, unsigned t, uint32_t w) {
    cp_issue_t log[CP_ISSUE_LOG];
    unsigned n = cp_issue_log(cp, log, CP_ISSUE_LOG);
    uint64_t c = UINT64_MAX;
    for (unsigned i = 0; i < n; i++)
        if (log[i].thread == t && log[i].word == w) c = log[i].cycle;
    return c;
}

static inline bool was_issued(const cp_t *cp, unsigned t, uint32_t w) { return issue_cycle(cp, t, w) != UINT64_MAX; }

/* Run until thread t is held at its gate (at most limit cycles). */
static inline void run_until_held(cp_t *cp, unsigned t, unsigned limit) {
    cp_thread_state_t s;
    for (unsigned i = 0; i < limit; i++) {
        cp_cycle(cp);
        cp_thread_state(cp, t, &s);
        if (s.held) return;
    }
    fail_msg("thread %u never held", t);
}

static inline void expect_seq(const cp_t *cp, unsigned t, const uint32_t *want, unsigned n) {
    uint32_t got[CP_ISSUE_LOG];
    unsigned k = issued(cp, t, got, CP_ISSUE_LOG);
    for (unsigned i = 0; i < n && i < k; i++)
        if (got[i] != want[i]) fail_msg("thread %u issue #%u: got 0x%08x, want 0x%08x", t, i, got[i], want[i]);
    assert_int_equal(k, n);
}

#endif
