/* test/unit/cp_test.h — helpers shared by the coprocessor unit tests (test_cp_*.c): instruction
 * encoders (TENSIX.md §4.2, §3.3, §3.4), a fake tile environment with overlay stream registers,
 * and readers of the issued-instruction log. Include after cmocka.h. */
#ifndef TTEMU_TEST_CP_TEST_H
#define TTEMU_TEST_CP_TEST_H

#include <stdint.h>
#include <string.h>

#include "coproc/cp.h"

/* ---- encoders ------------------------------------------------------------------------------ */
#define W_NOP          0x02000000u
#define W_SFPNOP       0x8F000000u /* SFPU, blocked by B8 */
#define W_SETRWC       0x37000000u /* FPU, blocked by B6; no Src flips */
#define W_SETDVALID_A  0x57000001u /* hands SrcA to the Matrix Unit (C7) */
#define W_RESOURCEDECL 0x05000000u
#define W_SETADC(k)    (0x50000000u | (uint32_t)(k)) /* Misc unit, B0: distinct markers */

static inline uint32_t w_stallwait(unsigned block, unsigned cond) { return 0xA2000000u | (uint32_t)block << 15 | cond; }
static inline uint32_t w_semwait(unsigned block, unsigned sems, unsigned cond) {
    return 0xA6000000u | (uint32_t)block << 15 | sems << 2 | cond;
}
static inline uint32_t w_streamwait(unsigned block, unsigned target_lo, unsigned cond, unsigned sel) {
    return 0xA7000000u | (uint32_t)block << 15 | target_lo << 4 | cond << 3 | sel;
}
static inline uint32_t w_seminit(unsigned max, unsigned val, unsigned sems) {
    return 0xA3000000u | (uint32_t)max << 20 | val << 16 | sems << 2;
}
static inline uint32_t w_sempost(unsigned sems) { return 0xA4000000u | sems << 2; }
static inline uint32_t w_semget(unsigned sems) { return 0xA5000000u | sems << 2; }
static inline uint32_t w_atgetm(unsigned i) { return 0xA0000000u | i; }
static inline uint32_t w_atrelm(unsigned i) { return 0xA1000000u | i; }
static inline uint32_t w_mop(unsigned tmpl, unsigned count1, unsigned mask_lo) {
    return 0x01000000u | (uint32_t)tmpl << 23 | count1 << 16 | mask_lo;
}
static inline uint32_t w_mop_cfg(unsigned mask_hi) { return 0x03000000u | mask_hi; }
static inline uint32_t w_replay(unsigned start, unsigned len, unsigned exec, unsigned load) {
    return 0x04000000u | (uint32_t)start << 14 | len << 4 | exec << 1 | load;
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
