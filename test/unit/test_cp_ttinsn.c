/* test/unit/test_cp_ttinsn.c — a hart's .ttinsn (env_ttinsn, core/exec.c's direct way to the push)
 * is its store of the word to INSTRN_BUF (env_store at 0xFFE40000, through the address map and
 * the device's write): two tiles get the same drawn pushes by every core, one through each, with
 * idle cycles owed to their coprocessors (tile_t.cp_owe_until) and cycles between; the answers, the
 * faults, the blocked harts, the tiles' progress and the coprocessors must stay alike. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/hart.h"
#include "test/unit/cp_test.h"
#include "tile/tile.h"

static uint32_t rng_state;

static uint32_t rnd(void) { return xorshift32(&rng_state); }
static unsigned pick(unsigned n) { return rnd() % n; }

static void same_tiles(tile_t *a, tile_t *b, unsigned step) {
    if (a->progress != b->progress || a->blocked_mask != b->blocked_mask || a->block_wake != b->block_wake ||
        a->cp_owe_until != b->cp_owe_until || a->cp_lag != b->cp_lag || cp_cycles(a->cp) != cp_cycles(b->cp) ||
        cp_is_idle(a->cp) != cp_is_idle(b->cp))
        fail_msg("step %u: the tiles differ", step);
    for (unsigned c = 0; c < TILE_NCORES; c++) {
        const hart_t *x = &a->hart[c], *y = &b->hart[c];
        if (x->blocked != y->blocked || x->fault.kind != y->fault.kind || strcmp(x->fault.msg, y->fault.msg) ||
            strcmp(x->hang_reason, y->hang_reason) || a->block_kind[c] != b->block_kind[c] ||
            a->block_thread[c] != b->block_thread[c])
            fail_msg("step %u, core %u: the harts differ", step, c);
    }
    for (unsigned t = 0; t < CP_THREADS; t++) {
        cp_thread_state_t x, y;
        cp_thread_state(a->cp, t, &x);
        cp_thread_state(b->cp, t, &y);
        const cp_stats_t *sx = cp_stats(a->cp, t), *sy = cp_stats(b->cp, t);
        if (x.fifo1 != y.fifo1 || x.fifo2 != y.fifo2 || x.fifo3 != y.fifo3 || x.held != y.held ||
            x.held_origin.pc != y.held_origin.pc || x.held_origin.core != y.held_origin.core ||
            sx->pushed != sy->pushed || sx->last_pushed != sy->last_pushed ||
            sx->fifo_high_water != sy->fifo_high_water || sx->fifo2_high_water != sy->fifo2_high_water)
            fail_msg("step %u, thread %u: the coprocessors differ", step, t);
    }
}

static void ttinsn_is_a_store_to_instrn_buf(void **state) {
    (void)state;
    /* ATGETM(1): no mutex 1 on Blackhole, held for good: its thread's FIFOs fill and pushes stall. */
    static const uint32_t words[] = {TT_OP_NOP, TT_OP_SETADC(0, 0, 0, 1), TT_OP_SFPNOP, TT_OP_ATGETM(1)};
    rng_state = 0x7751u;
    unsigned stalls = 0, faults = 0;
    for (unsigned run_i = 0; run_i < 20; run_i++) {
        tile_t *a = tile_create(&(tile_opts_t){0}), *b = tile_create(&(tile_opts_t){0});
        assert_non_null(a);
        assert_non_null(b);
        for (unsigned step = 0; step < 400; step++) {
            switch (pick(8)) {
            case 0: /* a cycle: the coprocessors move on, blocked harts may be let go */
                cp_cycle(a->cp), cp_cycle(b->cp);
                tile_blocks_check(a), tile_blocks_check(b);
                break;
            case 1: /* idle cycles owed to the coprocessor, paid before the push reaches it */
                if (cp_is_idle(a->cp)) {
                    uint64_t n = 1 + pick(5);
                    a->cp_owe_until = b->cp_owe_until = UINT64_MAX;
                    a->cp_lag += n, b->cp_lag += n;
                }
                break;
            default: { /* a push by a drawn core (NCRISC's faults), unless it is blocked */
                unsigned c = pick(TILE_NCORES);
                hart_t *x = &a->hart[c], *y = &b->hart[c];
                if (x->blocked) break;
                x->pc = y->pc = rnd() & ~3u;
                uint32_t w = words[pick(sizeof words / sizeof words[0] - (pick(16) != 0))];
                mem_res_t r = env_ttinsn(a, x, w), s = env_store(b, y, 0xFFE40000u, 4, w);
                assert_int_equal(r, s);
                stalls += r == MEM_STALL;
                faults += r == MEM_FAULT;
                break;
            }
            }
            same_tiles(a, b, step);
        }
        tile_destroy(a);
        tile_destroy(b);
    }
    assert_true(stalls > 0 && faults > 0); /* both ways of a refused push were drawn */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ttinsn_is_a_store_to_instrn_buf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
