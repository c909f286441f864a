/* test/unit/test_cp_ttinsn.c — a hart's .ttinsn (env_ttinsn, core/exec.c's direct way to the push)
 * is its store of the word to INSTRN_BUF (env_store at 0xFFE40000, through the address map and
 * the device's write): two tiles get the same drawn pushes by every core, one through each, with
 * idle cycles owed to their coprocessors (tile_t.cp_owe_until) and cycles between; the answers, the
 * faults, the blocked harts, the tiles' progress and the coprocessors must stay alike. And a
 * hart's access to a device that does not reach the coprocessor (mmio_dev_t.reaches_cp) leaves
 * its owed cycles owed: the coprocessor must come out of it as if they had been paid first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/hart.h"
#include "test/unit/cp_test.h"
#include "tile/tile.h"
/* (White box: a coprocessor's frontends, Sync Unit, state and timing model, compared whole.) */
#include "coproc/cp_internal.h"

static uint32_t rng_state;

static uint32_t rnd(void) { return xorshift32(&rng_state); }
static unsigned pick(unsigned n) { return rnd() % n; }

static void same_tiles(tile_t *a, tile_t *b, unsigned step) {
    if (a->progress != b->progress || a->blocked_mask != b->blocked_mask || a->block_wake != b->block_wake ||
        a->cp_owe_until != b->cp_owe_until || a->cycle != b->cycle || cp_cycles(a->cp) != cp_cycles(b->cp) ||
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
            case 0: { /* a cycle: the coprocessors move on, blocked harts may be let go */
                unsigned sa = cp_cycle(a->cp), sb = cp_cycle(b->cp);
                a->cycle++, b->cycle++;
                tile_blocks_check(a, sa >> CP_CYCLE_FREED_SHIFT), tile_blocks_check(b, sb >> CP_CYCLE_FREED_SHIFT);
                break;
            }
            case 1: /* idle cycles owed to the coprocessor, paid before the push reaches it */
                if (cp_is_idle(a->cp)) {
                    uint64_t n = 1 + pick(5);
                    a->cp_owe_until = b->cp_owe_until = UINT64_MAX;
                    a->cycle += n, b->cycle += n; /* (tile_cp_lag) */
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

/* Everything of the coprocessor an access could have changed, a and b alike: the frontends, the
 * Sync Unit, the architectural state, the clock, the quiet stretch and the timing model's
 * conditions with the times they run out (a RISC-V store's condition C10 is timed from the cycle
 * it is noted at). */
static void same_cp(const cp_t *a, const cp_t *b, const char *what) {
    sync_t sa; /* a's Sync Unit but for the count it bumps (each tile's own: cp_count_sem_moves) */
    memcpy(&sa, &a->sync, sizeof sa);
    sa.moves = b->sync.moves;
    bool same = !memcmp(a->fe, b->fe, sizeof a->fe) && !memcmp(&sa, &b->sync, sizeof sa) &&
                !memcmp(&a->st, &b->st, sizeof a->st) && cp_cycles(a) == cp_cycles(b) && a->active == b->active &&
                a->quiet_until == b->quiet_until && a->quiet_cycles == b->quiet_cycles &&
                a->fifo_freed == b->fifo_freed && cp_tmh(a)->now == cp_tmh(b)->now;
    for (unsigned t = 0; t < CP_THREADS && same; t++)
        for (unsigned n = 0; n < 13 && same; n++) {
            uint64_t x = 0, y = 0;
            same = tm_cond_eval(a->tm, t, 1u << n, &x) == tm_cond_eval(b->tm, t, 1u << n, &y) && x == y;
        }
    if (!same) fail_msg("%s: the coprocessor differs from the one synced first", what);
}

static void devices_that_reach_the_coprocessor_sync_it(void **state) {
    (void)state;
    rng_state = 0x3c6ef372u;
    unsigned owed_kept = 0, synced = 0;
    for (uint32_t page = TILE_MMIO_PAGE_BASE; page - TILE_MMIO_PAGE_BASE < TILE_MMIO_PAGES << 12; page += 0x1000u) {
        const mmio_dev_t *d = mmio_find(page);
        if (!d || d->base != page) continue; /* once per device */
        for (unsigned i = 0; i < 96; i++) {
            /* Two alike tiles whose thread 1 holds an undefined opcode for good: a quiet
             * stretch. a owes 5 of its cycles, b ran them. */
            tile_t *a = tile_create(&(tile_opts_t){0}), *b = tile_create(&(tile_opts_t){0});
            assert_non_null(a);
            assert_non_null(b);
            tile_t *both[2] = {a, b};
            for (unsigned k = 0; k < 2; k++) {
                assert_true(cp_push(both[k]->cp, 1, TT_WORD(0x06, 0), false));
                unsigned s = 0;
                for (unsigned c = 0; c < 8 && !(s & CP_CYCLE_QUIET); c++)
                    s = cp_cycle(both[k]->cp);
                assert_true(s & CP_CYCLE_QUIET);
            }
            assert_true(cp_quiet_left(a->cp) >= 5);
            /* owed in a quiet stretch (tile_cp_lag 5); the tiles' clocks count the cycles run */
            a->cycle = b->cycle = cp_cycles(a->cp) + 5;
            a->cp_owe_until = a->cycle + cp_quiet_left(a->cp) - 5;
            cp_advance_idle(b->cp, 5);
            /* The same access by a drawn core at a drawn offset: low offsets often (the MOP
             * config's nine words, the semaphores at 0x20, the first GPRs), then anywhere in the device. */
            unsigned core = pick(2) ? CORE_TRISC0 + pick(3) : pick(2);
            uint32_t off = (pick(2) ? 4 * pick(16) : rnd()) % d->size & ~3u, v = rnd(), x = 0, y = 0;
            mem_res_t r, q;
            if (pick(2)) {
                r = env_store(a, &a->hart[core], d->base + off, 4, v);
                q = env_store(b, &b->hart[core], d->base + off, 4, v);
            } else {
                r = env_load(a, &a->hart[core], d->base + off, 4, &x);
                q = env_load(b, &b->hart[core], d->base + off, 4, &y);
            }
            assert_int_equal(r, q);
            assert_int_equal(x, y);
            if (d->reaches_cp) assert_int_equal(tile_cp_lag(a), 0); /* synced before the device acted */
            owed_kept += tile_cp_lag(a) != 0;
            synced += d->reaches_cp; /* (its lag asserted 0 above) */
            tile_cp_sync(a);
            same_cp(a->cp, b->cp, d->name);
            tile_destroy(a);
            tile_destroy(b);
        }
    }
    assert_true(owed_kept > 0 && synced > 0); /* both kinds of device were drawn, with cycles owed */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ttinsn_is_a_store_to_instrn_buf),
        cmocka_unit_test(devices_that_reach_the_coprocessor_sync_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
