/* test/unit/test_spin.c — the idle fast-forward (tile/spin.c spin_forward) and the lock-step group
 * runner (core/exec.c hart_run_lockstep) give the very state the reference path gives
 * (tile_opts_t.reference: hart_step, tile_cycle one cycle at a time), and the fast-forward engages
 * only when it may: cores spinning on pure loops are skipped; a loop whose registers change, a
 * loop that reads a counter CSR, a loop that stores, are stepped; a host write between runs, or
 * another core's store, ends a spin exactly where stepping ends it.
 *
 * Each scenario runs three ways: the reference, the fast path without the fast-forward
 * (tile_opts_t.no_spin) and the fast path; all three must agree on every core's registers, pc, state,
 * instret, mcycle and stall count, the tile cycle and L1. The guest programs are hand-assembled
 * (RISC-V unprivileged spec, "RV32I Base Instruction Set" and "Zicsr" encodings). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coproc/tt_fields.h"
#include "tile/tile.h"
#include "test/unit/rv_enc.h"

/* ---- a tiny assembler ----------------------------------------------------------------------- */
enum { ZERO = 0, T0 = 5, T1 = 6, T2 = 7, A0 = 10, A1 = 11, A2 = 12 };
#define FENCE  0x0ff0000fu
#define MCYCLE 0xb00u

#define FLAG0 0x200u /* mailbox words the loops poll */
#define FLAG1 0x204u
#define OUT   0x300u /* where a released core leaves a word */

static void put(tile_t *t, uint32_t addr, const uint32_t *w, size_t n) {
    for (size_t i = 0; i < n; i++)
        assert_true(tile_host_write(t, addr + 4 * (uint32_t)i, w[i]));
}

/* Way 0: reference; 1: fast, no idle fast-forward; 2: fast. */
static tile_t *new_tile(int way) {
    tile_t *t = tile_create(&(tile_opts_t){.reference = way == 0, .no_spin = way == 1});
    assert_non_null(t);
    assert_int_equal(t->reference, way == 0);
    assert_int_equal(t->spin.on, way == 2);
    return t;
}

/* n cycles in batches of at most `batch` (run_loop's progress checks cut batches so). */
static void run_for(tile_t *t, uint64_t n, uint64_t batch) {
    uint64_t end = t->cycle + n;
    while (t->cycle < end) {
        uint64_t k = end - t->cycle < batch ? end - t->cycle : batch;
        tile_run(t, k);
    }
}

static void assert_same(tile_t *const t[3]) {
    for (int way = 1; way < 3; way++) {
        assert_int_equal(t[way]->cycle, t[0]->cycle);
        assert_memory_equal(t[way]->l1, t[0]->l1, TILE_L1_SIZE);
        for (int c = 0; c < TILE_NCORES; c++) {
            const hart_t *a = &t[0]->hart[c], *b = &t[way]->hart[c];
            assert_memory_equal(a->x, b->x, sizeof a->x);
            assert_int_equal(a->pc, b->pc);
            assert_int_equal(a->state, b->state);
            assert_int_equal(a->instret, b->instret);
            assert_int_equal(a->cycle, b->cycle);
            assert_int_equal(a->stall_cycles, b->stall_cycles);
        }
    }
}

/* ---- programs ------------------------------------------------------------------------------- */

/* Spin on `flag` (a 2-word loop; with `extra`, 3 words through a fence), then store a0 + the
 * flag's value at OUT + 4 * id and stop. */
static void spinner(tile_t *t, int core, uint32_t at, uint32_t flag, int id, bool extra) {
    uint32_t p[16];
    size_t n = 0;
    p[n++] = addi(A0, ZERO, 100 * (id + 1));
    if (extra) p[n++] = FENCE;
    p[n++] = lw(T0, ZERO, (int32_t)flag);
    p[n++] = beq(T0, ZERO, extra ? -8 : -4);
    p[n++] = addi(A1, T0, 0);
    p[n++] = sw(A1, ZERO, (int32_t)(OUT + 4 * (uint32_t)id));
    p[n++] = EBREAK;
    put(t, at, p, n);
    tile_start_core(t, core, at);
}

/* A loop on local RAM too: reads its own local RAM (0xFFB00000) and the flag. */
static void ldm_spinner(tile_t *t, int core, uint32_t at, uint32_t flag, int id) {
    uint32_t p[16];
    size_t n = 0;
    p[n++] = lui(T1, 0xFFB00); /* t1 = local RAM */
    p[n++] = lw(T2, T1, 0);    /* loop: t2 = local word */
    p[n++] = addi(T2, T2, 3);  /* registers written, to the same values each time */
    p[n++] = lw(T0, ZERO, (int32_t)flag);
    p[n++] = beq(T0, ZERO, -12);
    p[n++] = sw(T2, ZERO, (int32_t)(OUT + 4 * (uint32_t)id));
    p[n++] = EBREAK;
    put(t, at, p, n);
    tile_start_core(t, core, at);
}

/* Four cores spin, with loops of 2, 3 and 4 instructions; the host releases them one flag at a
 * time, between runs. */
static void setup_spinners(tile_t *t) {
    spinner(t, CORE_BRISC, 0x1000, FLAG0, 0, false);
    spinner(t, CORE_NCRISC, 0x1100, FLAG0, 1, true);
    ldm_spinner(t, CORE_TRISC0, 0x1200, FLAG1, 2);
    spinner(t, CORE_TRISC2, 0x1300, FLAG1, 4, true);
}

static void host_release_between_runs(void **state) {
    (void)state;
    tile_t *t[3];
    for (int way = 0; way < 3; way++) {
        t[way] = new_tile(way);
        setup_spinners(t[way]);
        run_for(t[way], 200000, 1009);
    }
    assert_same(t);
    assert_true(t[2]->spin.skipped > 150000); /* the fast-forward did engage */
    assert_int_equal(t[1]->spin.skipped, 0);
    for (int way = 0; way < 3; way++) { /* the cores' state does not change: only memory does */
        assert_true(tile_host_write(t[way], FLAG0, 5));
        run_for(t[way], 50001, 1009);
    }
    assert_same(t);
    assert_int_equal(t[2]->hart[CORE_BRISC].state, HART_HALTED);
    assert_int_equal(t[2]->hart[CORE_TRISC0].state, HART_RUNNING);
    for (int way = 0; way < 3; way++) {
        assert_true(tile_host_write(t[way], FLAG1, 9));
        run_for(t[way], 777, 1009);
    }
    assert_same(t);
    uint32_t out;
    assert_true(tile_host_read(t[2], OUT + 8, &out));
    assert_int_equal(out, 3); /* TRISC0: local word 0 + 3 */
    assert_true(tile_host_read(t[2], OUT + 16, &out));
    assert_int_equal(out, 9);
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}

/* NCRISC counts down (its registers change: no period), then releases BRISC with a store: no
 * skip while it counts, and BRISC leaves its loop in the very cycle stepping would. */
static void core_store_releases(void **state) {
    (void)state;
    tile_t *t[3];
    for (int way = 0; way < 3; way++) {
        t[way] = new_tile(way);
        spinner(t[way], CORE_BRISC, 0x1000, FLAG0, 0, false);
        uint32_t nc[] = {lui(T2, 4),        addi(T2, T2, -1),    bne(T2, ZERO, -4),
                         addi(T1, ZERO, 1), sw(T1, ZERO, FLAG0), EBREAK};
        put(t[way], 0x2000, nc, 6);
        tile_start_core(t[way], CORE_NCRISC, 0x2000);
        run_for(t[way], 60000, 1009);
    }
    assert_same(t);
    assert_int_equal(t[2]->spin.skipped, 0);
    assert_int_equal(t[2]->hart[CORE_BRISC].state, HART_HALTED);
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}

/* A loop that reads mcycle, one that stores (the same value each time): never skipped. */
static void impure_loops_are_stepped(void **state) {
    (void)state;
    tile_t *t[3];
    for (int way = 0; way < 3; way++) {
        t[way] = new_tile(way);
        uint32_t b[] = {csrrs(T1, MCYCLE, ZERO), lw(T0, ZERO, FLAG0), beq(T0, ZERO, -8), EBREAK};
        put(t[way], 0x1000, b, 4);
        tile_start_core(t[way], CORE_BRISC, 0x1000);
        uint32_t nc[] = {addi(T1, ZERO, 0), sw(T1, ZERO, FLAG1), lw(T0, ZERO, FLAG0), beq(T0, ZERO, -8), EBREAK};
        put(t[way], 0x2000, nc, 5);
        tile_start_core(t[way], CORE_NCRISC, 0x2000);
        run_for(t[way], 30000, 1009);
    }
    assert_same(t);
    assert_int_equal(t[2]->spin.skipped, 0);
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}

/* A core spinning alone (the run-ahead path is not taken while the proof holds), then released
 * by the host mid-way through a batch size that is not a multiple of its loop. */
static void alone_spinner(void **state) {
    (void)state;
    tile_t *t[3];
    for (int way = 0; way < 3; way++) {
        t[way] = new_tile(way);
        spinner(t[way], CORE_TRISC1, 0x1000, FLAG0, 3, true);
        run_for(t[way], 100003, 997);
        assert_true(tile_host_write(t[way], FLAG0, 1));
        run_for(t[way], 1000, 997);
    }
    assert_same(t);
    assert_true(t[2]->spin.skipped > 90000);
    assert_int_equal(t[2]->hart[CORE_TRISC1].state, HART_HALTED);
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}

/* One long batch (no progress checks cutting it): the core stores first (the first probes fail),
 * then spins; the run-ahead and group paths stop when the next probe is due, so the spin is
 * still found and skipped. Alone, and with a second core counting down and then spinning too. */
static void settles_into_spin(void **state) {
    (void)state;
    for (int pair = 0; pair < 2; pair++) {
        tile_t *t[3];
        for (int way = 0; way < 3; way++) {
            t[way] = new_tile(way);
            uint32_t b[] = {addi(T1, ZERO, 3),   sw(T1, ZERO, OUT), sw(T1, ZERO, OUT + 4),
                            addi(T2, ZERO, 500), addi(T2, T2, -1),  sw(T2, ZERO, OUT + 8),
                            bne(T2, ZERO, -8), /* 500 stores */
                            lw(T0, ZERO, FLAG0), beq(T0, ZERO, -4), EBREAK};
            put(t[way], 0x1000, b, 10);
            tile_start_core(t[way], CORE_BRISC, 0x1000);
            if (pair) {
                uint32_t nc[] = {lui(T2, 2),          addi(T2, T2, -1),  bne(T2, ZERO, -4),
                                 lw(T0, ZERO, FLAG1), beq(T0, ZERO, -4), EBREAK};
                put(t[way], 0x2000, nc, 6);
                tile_start_core(t[way], CORE_NCRISC, 0x2000);
            }
            run_for(t[way], 600000, 600000);
        }
        assert_same(t);
        assert_true(t[2]->spin.skipped > 400000);
        for (int way = 0; way < 3; way++)
            tile_destroy(t[way]);
    }
}

/* hart_step_pure runs a pure instruction as hart_step_fast would, and refuses (changing nothing:
 * no cycle counted, no memory written) a store, an AMO, an MMIO load and a CSR access. */
static void pure_step_refuses_writes(void **state) {
    (void)state;
    tile_t *t = new_tile(2);
    uint32_t p[] = {addi(T1, ZERO, 7),       lw(T0, ZERO, FLAG0), sw(T1, ZERO, FLAG0), amoswap(T2, ZERO, T1) /* to 0 */,
                    csrrs(T2, MCYCLE, ZERO), lui(A0, 0xFFB12),    lw(A1, A0, 0x1F0)};
    put(t, 0x1000, p, 7);
    tile_start_core(t, CORE_BRISC, 0x1000);
    hart_t *h = &t->hart[CORE_BRISC];
    assert_true(hart_step_pure(h)); /* addi */
    assert_true(hart_step_pure(h)); /* lw from L1 */
    assert_int_equal(h->pc, 0x1008);
    assert_int_equal(h->cycle, 2);
    assert_int_equal(h->instret, 2);
    for (int i = 0; i < 2; i++) { /* sw to FLAG0, then (skipped by hand) amoswap.w to address 0 */
        assert_false(hart_step_pure(h));
        uint32_t v;
        assert_true(tile_host_read(t, i == 0 ? FLAG0 : 0, &v));
        assert_int_equal(v, 0);
        assert_int_equal(h->cycle, 2);
        assert_int_equal(h->instret, 2);
        assert_int_equal(h->state, HART_RUNNING);
        h->pc += 4;
    }
    assert_false(hart_step_pure(h)); /* csrr */
    assert_int_equal(h->x[T2], 0);
    h->pc += 4;
    assert_true(hart_step_pure(h));  /* lui */
    assert_false(hart_step_pure(h)); /* lw from a tile register */
    assert_int_equal(h->pc, 0x1018);
    assert_true(hart_step_fast(h)); /* which lock-step runs */
    tile_destroy(t);
}

/* tile_t.touches (run/run.c's progress check keeps its fingerprint while it holds): a lone
 * core that computes and stores to L1 leaves it be, whatever the batches; the core halting, the
 * host writing, a second core starting each move it. */
static void touches_only_by_others(void **state) {
    (void)state;
    tile_t *t = new_tile(1); /* the run-ahead path (no fast-forward) */
    uint32_t prog[] = {addi(T0, ZERO, 1000), addi(A0, A0, 1), sw(A0, ZERO, OUT), bne(A0, T0, -8), EBREAK};
    put(t, 0x1000, prog, 5);
    tile_start_core(t, CORE_BRISC, 0x1000);
    uint64_t before = t->touches;
    run_for(t, 2000, 97);
    assert_int_equal(t->hart[CORE_BRISC].state, HART_RUNNING);
    assert_int_equal(t->hart[CORE_BRISC].x[A0], 667); /* 1 + 3 per pass: it ran */
    assert_int_equal(t->touches, before);
    run_for(t, 2000, 97);
    assert_int_equal(t->hart[CORE_BRISC].state, HART_HALTED);
    assert_true(t->touches > before);
    before = t->touches;
    assert_true(tile_host_write(t, FLAG0, 1));
    assert_true(t->touches > before);
    before = t->touches;
    put(t, 0x2000, (uint32_t[]){EBREAK}, 1);
    assert_true(t->touches > before);
    before = t->touches;
    tile_start_core(t, CORE_NCRISC, 0x2000);
    assert_true(t->touches > before);
    tile_destroy(t);
}

/* hart_run_lockstep returns the cycles it ran, the last one included when it stops early: after a
 * cycle whose end_cycle said to stop, and after one in which a hart stopped (tile_run adds the
 * counts up to run exactly the cycles it was asked for). */
static bool stop_at_three(void *ctx) { return ++*(unsigned *)ctx == 3; }
static bool never_stop(void *ctx) {
    ++*(unsigned *)ctx;
    return false;
}
static void lockstep_counts_its_last_cycle(void **state) {
    (void)state;
    tile_t *t = new_tile(1);
    put(t, 0x1000, (uint32_t[]){beq(ZERO, ZERO, 0)}, 1); /* a loop of one instruction */
    tile_start_core(t, CORE_BRISC, 0x1000);
    unsigned ends = 0;
    assert_int_equal(hart_run_lockstep(t->hart, TILE_NCORES, 100, stop_at_three, NULL, &ends), 3);
    assert_int_equal(ends, 3);
    assert_int_equal(t->hart[CORE_BRISC].instret, 3);
    put(t, 0x2000, (uint32_t[]){addi(A0, A0, 1), addi(A0, A0, 1), EBREAK}, 3);
    tile_start_core(t, CORE_NCRISC, 0x2000);
    ends = 0;
    assert_int_equal(hart_run_lockstep(t->hart, TILE_NCORES, 100, never_stop, NULL, &ends), 3); /* halts in the third */
    assert_int_equal(ends, 3);
    assert_int_equal(t->hart[CORE_NCRISC].state, HART_HALTED);
    assert_int_equal(t->hart[CORE_BRISC].instret, 6);
    tile_destroy(t);
}

/* hart_run_lockstep's asleep is asked only after a cycle in which no hart ran, and after it said
 * 0 not before 1, 2, 4 ... 64 such cycles more; after it finished k cycles, at the next such
 * cycle again. */
typedef struct {
    uint64_t cycles;   /* the call's cycles so far: its ends and the cycles asleep finished */
    uint64_t at[16];   /* the cycles after which asleep was asked */
    uint64_t give[16]; /* what it answers each time */
    unsigned asked;
} asleep_log_t;
static bool log_end(void *ctx) {
    ((asleep_log_t *)ctx)->cycles++;
    return false;
}
static uint64_t log_asleep(void *ctx, uint64_t m) {
    asleep_log_t *l = ctx;
    uint64_t k = l->asked < 16 ? l->give[l->asked] : 0;
    if (k > m) k = m;
    if (l->asked < 16) l->at[l->asked] = l->cycles;
    l->asked++;
    l->cycles += k;
    return k;
}
static void lockstep_asks_asleep(void **state) {
    (void)state;
    tile_t *t = new_tile(1);
    /* No hart running: every cycle is asleep; 0 three times, then 10 cycles, then 0 again. */
    asleep_log_t l = {.give = {0, 0, 0, 10}};
    assert_int_equal(hart_run_lockstep(t->hart, TILE_NCORES, 200, log_end, log_asleep, &l), 200);
    assert_int_equal(l.cycles, 200);
    const uint64_t want[] = {1, 2, 4, 8, 19, 20, 22, 26, 34, 50, 82, 146};
    assert_int_equal(l.asked, sizeof want / sizeof want[0]);
    for (unsigned i = 0; i < l.asked; i++)
        assert_int_equal(l.at[i], want[i]);
    /* A hart on a loop of one instruction runs until it parks: asleep is asked only after. */
    put(t, 0x1000, (uint32_t[]){beq(ZERO, ZERO, 0)}, 1);
    tile_start_core(t, CORE_BRISC, 0x1000);
    l = (asleep_log_t){0};
    assert_int_equal(hart_run_lockstep(t->hart, TILE_NCORES, 1000, log_end, log_asleep, &l), 1000);
    assert_true(l.asked > 0);
    assert_true(l.at[0] >= 2); /* (its first cycles ran) */
    assert_int_equal(t->hart[CORE_BRISC].instret, 1000);
    tile_destroy(t);
}

/* A coprocessor error ends the batch after the cycle that raised it, as the reference path's
 * tile_run returns after it (cp_error): TRISC0 pushes (a store to INSTRN_BUF) a BITWOPDMAREG with
 * an undefined OpSel, which fails when its thread's gate issues it, while BRISC spins beside it (a
 * group: the tile's end of a full cycle asks cp_failed, its status leaving the bit out). */
static void cp_error_ends_the_batch(void **state) {
    (void)state;
    tile_t *t[3];
    uint64_t done[3];
    for (int way = 0; way < 3; way++) {
        t[way] = new_tile(way);
        put(t[way], 0x1000, (uint32_t[]){beq(ZERO, ZERO, 0)}, 1);
        tile_start_core(t[way], CORE_BRISC, 0x1000);
        uint32_t tr[] = {lui(T1, 0xFFE40), lui(T2, 0x5B0C0), sw(T2, T1, 0), beq(ZERO, ZERO, 0)};
        put(t[way], 0x2000, tr, sizeof tr / sizeof tr[0]);
        tile_start_core(t[way], CORE_TRISC0, 0x2000);
        done[way] = tile_run(t[way], 1009);
        assert_non_null(cp_error(t[way]->cp));
    }
    assert_true(done[0] < 20); /* (the word is pushed in the third cycle) */
    assert_int_equal(done[1], done[0]);
    assert_int_equal(done[2], done[0]);
    /* Run again, the error still there: the first cycle ends the batch again (its end's look). */
    for (int way = 0; way < 3; way++)
        assert_int_equal(tile_run(t[way], 1009), 1);
    assert_same(t);
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}

/* A core started or stopped by a SOFT_RESET_0 store ends the batch after that cycle, as the
 * reference path's tile_run returns after it (a hart's state changed): BRISC starts TRISC0, whose
 * reset pc holds a loop of one instruction, and some cycles later stops it again, while NCRISC
 * loops beside them, none writing L1 (the tile's end of a cycle asks harts_changed only after
 * tile_t.l1_writes moved, which the SOFT_RESET_0 write bumps: tile/sched.c tile_end_looks). */
static void soft_reset_ends_the_batch(void **state) {
    (void)state;
    tile_t *t[3];
    uint64_t done[3][2];
    for (int way = 0; way < 3; way++) {
        t[way] = new_tile(way);
        uint32_t br[] = {lui(T1, 0xFFB12),    lw(T2, T1, 0x1B0),  addi(T2, T2, -2048),
                         addi(T2, T2, -2048), /* TRISC0's bit (1 << 12) cleared */
                         sw(T2, T1, 0x1B0),   addi(A0, ZERO, 30), addi(A0, A0, -1),
                         bne(A0, ZERO, -4),   addi(T2, T2, 2047), addi(T2, T2, 2047),
                         addi(T2, T2, 2), /* and set again */
                         sw(T2, T1, 0x1B0),   beq(ZERO, ZERO, 0)};
        put(t[way], 0x1000, br, sizeof br / sizeof br[0]);
        put(t[way], 0x6000, (uint32_t[]){beq(ZERO, ZERO, 0)}, 1); /* TRISC0's reset pc */
        put(t[way], 0x2000, (uint32_t[]){beq(ZERO, ZERO, 0)}, 1);
        tile_start_core(t[way], CORE_BRISC, 0x1000);
        tile_start_core(t[way], CORE_NCRISC, 0x2000); /* (two running: the cycles in lock-step) */
        done[way][0] = tile_run(t[way], 1009);
        assert_int_equal(t[way]->hart[CORE_TRISC0].state, HART_RUNNING);
        done[way][1] = tile_run(t[way], 1009);
        assert_int_equal(t[way]->hart[CORE_TRISC0].state, HART_RESET);
    }
    assert_true(done[0][0] < 20 && done[0][1] < 200);
    for (int way = 1; way < 3; way++) {
        assert_int_equal(done[way][0], done[0][0]);
        assert_int_equal(done[way][1], done[0][1]);
    }
    assert_same(t);
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}

/* A watched L1 word (tile_watch_arm) is seen to change at the end of the very cycle in which
 * each kind of writer changed it, as the reference path (which compares every cycle) sees it: a
 * core's store and AMO in lock-step (core/exec.c counts them in tile_t.l1_writes), the reference
 * core's stores (mem_store), the host (env_l1_written, as every other writer). A store of the
 * value the word holds, and a store to another word, are no change. Once changed, the word stays
 * "changed" until re-armed, written or not. */
#define WATCH 0x400u
static void watch_sees_every_writer(void **state) {
    (void)state;
    uint64_t seen[3][8];
    unsigned nseen[3] = {0};
    tile_t *t[3];
    for (int way = 0; way < 3; way++) {
        t[way] = new_tile(way);
        put(t[way], 0x1000, (uint32_t[]){beq(ZERO, ZERO, 0)}, 1); /* BRISC spins: a group runs */
        tile_start_core(t[way], CORE_BRISC, 0x1000);
        uint32_t nc[] = {
            addi(A1, ZERO, WATCH),
            addi(T1, ZERO, 7),
            lui(T2, 1),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4),
            sw(T1, A1, 0), /* 7: a change */
            lui(T2, 1),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4),
            sw(T1, A1, 4), /* another word */
            sw(T1, A1, 0), /* the same value */
            addi(T1, ZERO, 9),
            lui(T2, 1),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4),
            amoswap(T0, A1, T1), /* 9: a change */
            lui(T2, 1),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4),
            EBREAK,
        };
        put(t[way], 0x2000, nc, sizeof nc / sizeof nc[0]);
        tile_start_core(t[way], CORE_NCRISC, 0x2000);
        uint32_t at = WATCH;
        tile_watch_arm(t[way], &at, 1);
        while (t[way]->cycle < 40000 && nseen[way] < 8) {
            tile_run(t[way], 1009);
            if (!t[way]->watch_hit) continue;
            seen[way][nseen[way]++] = t[way]->cycle;
            assert_int_equal(tile_run(t[way], 1009), 1); /* still changed */
            assert_true(t[way]->watch_hit);
            tile_watch_arm(t[way], &at, 1);
        }
        assert_int_equal(t[way]->hart[CORE_NCRISC].state, HART_HALTED);
        assert_int_equal(tile_run(t[way], 1009), 1009); /* nothing changes it */
        assert_false(t[way]->watch_hit);
        assert_true(tile_host_write(t[way], WATCH, 5));
        assert_int_equal(tile_run(t[way], 1009), 1); /* (the fast-forward once ran the batch) */
        assert_true(t[way]->watch_hit);
        tile_watch_disarm(t[way]);
        /* Disarmed, a changed word ends no batch, though the cycle's end asks without asking
         * nwatch first (tile_watch_changed): NCRISC again, storing a new value each turn of its
         * loop beside the spinning BRISC (a group: every cycle's end asks). */
        uint32_t again[] = {addi(A1, ZERO, WATCH), addi(T1, T1, 1), sw(T1, A1, 0), beq(ZERO, ZERO, -8)};
        put(t[way], 0x3000, again, sizeof again / sizeof again[0]);
        tile_start_core(t[way], CORE_NCRISC, 0x3000);
        t[way]->watch_hit = false;
        uint64_t writes = t[way]->l1_writes;
        for (uint64_t done = 0; done < 3000;)
            done += tile_run(t[way], 3000 - done);
        assert_false(t[way]->watch_hit);
        assert_true(t[way]->l1_writes > writes + 300 || t[way]->reference); /* (counted in groups) */
    }
    assert_int_equal(nseen[0], 2);
    for (int way = 1; way < 3; way++) {
        assert_int_equal(nseen[way], nseen[0]);
        assert_memory_equal(seen[way], seen[0], nseen[0] * sizeof seen[0][0]);
    }
    assert_same(t);
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}

/* Only what reaches L1 is counted (tile_t.l1_writes): a lock-step store into the hart's own local
 * RAM or into another core's through its view (a device: ldm_alias.c) writes no L1 word, so the
 * watch's look is not asked for at the cycle's end (core/exec.c STORE). NCRISC stores 2 x 200
 * times so beside a spinning BRISC with a word watched (a group: no hart runs alone), then once
 * into L1 (another word than the watched one): the count moves by that one store alone. */
static void watch_counts_l1_stores_only(void **state) {
    (void)state;
    tile_t *t[3];
    for (int way = 0; way < 3; way++) {
        t[way] = new_tile(way);
        put(t[way], 0x1000, (uint32_t[]){beq(ZERO, ZERO, 0)}, 1);
        tile_start_core(t[way], CORE_BRISC, 0x1000);
        uint32_t nc[] = {
            lui(A1, 0xFFB00), /* NCRISC's local RAM */
            lui(A2, 0xFFB14), /* BRISC's local RAM, through its view */
            addi(T2, ZERO, 200),
            sw(T2, A1, 0x40),
            sw(T2, A2, 0x40),
            addi(T2, T2, -1),
            bne(T2, ZERO, -12),
            addi(A1, ZERO, WATCH),
            sw(A1, A1, 4), /* L1, not the watched word */
            EBREAK,
        };
        put(t[way], 0x2000, nc, sizeof nc / sizeof nc[0]);
        uint32_t at = WATCH;
        tile_watch_arm(t[way], &at, 1);
        uint64_t writes = t[way]->l1_writes;
        tile_start_core(t[way], CORE_NCRISC, 0x2000);
        run_for(t[way], 3000, 1009);
        assert_int_equal(t[way]->hart[CORE_NCRISC].state, HART_HALTED);
        assert_false(t[way]->watch_hit);
        assert_int_equal(t[way]->l1_writes, writes + 1);
    }
    assert_same(t);
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}

/* A blocked hart (hart_t.blocked: BRISC's push into thread 1's full FIFO#2, which nothing ever
 * drains) whose stalled instruction is rewritten: BRISC must run the new word at its next turn
 * (then ebreak), as the reference path does (core/exec.c block_holds). Two ways to get it wrong:
 *   - decoded: TRISC1 stores the new word over the push and TRISC2 runs it in the same cycle,
 *     after TRISC1, so a record is at BRISC's pc again at its next turn, of the new word;
 *   - same first: TRISC1 first stores the push's own word over it (its record dropped, the
 *     instruction unchanged: BRISC stalls on), and the new word 300 cycles later. */
#define SITE 0x524u /* right after BRISC's first words at 0x500 */
static void rewritten_block(bool same_first) {
    tile_t *t[3];
    const uint32_t push = sw(T1, T0, 0), repl = addi(A1, ZERO, 0x55);
#define LI(rd, v) lui(rd, ((v) + 0x800u) >> 12), addi(rd, rd, (int32_t)((v) << 20) >> 20)
    for (int way = 0; way < 3; way++) {
        t[way] = new_tile(way);
        uint32_t br[] = {
            lui(T0, 0xFFE50),   /* INSTRN1_BUF: thread 1, after the MOP expander */
            LI(T1, 0xA6FF8005), /* SEMWAIT stall_res 0x1FF, semaphore 0, STALL_ON_ZERO: held forever */
            sw(T1, T0, 0),      /* */
            lui(T1, 0x02000),   /* NOP */
            addi(T2, ZERO, 10), /* */
            sw(T1, T0, 0),      /* ten NOPs fill FIFO#3 and FIFO#2 */
            addi(T2, T2, -1),   /* */
            bne(T2, ZERO, -8),  /* */
        };
        _Static_assert(sizeof br == SITE - 0x500, "SITE follows");
        put(t[way], 0x500, br, sizeof br / sizeof br[0]);
        put(t[way], SITE, (uint32_t[]){push, EBREAK}, 2); /* the push that blocks */
        /* TRISC1: after a count-down (and with same_first, the push's word and a second one), the
         * new word over the push; TRISC2: the same count-down, then to SITE, which it reaches in
         * the cycle of TRISC1's store. */
        uint32_t t1[] = {
            addi(A0, ZERO, (int32_t)SITE),
            LI(A1, repl),
            LI(A2, push),
            addi(T2, ZERO, 300),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4),
            sw(A2, A0, 0),
            addi(T2, ZERO, 300),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4),
            sw(A1, A0, 0),
            EBREAK,
        };
        if (!same_first) /* straight to the new word: its store in cycle 607 */
            memcpy(&t1[8], &t1[12], 2 * sizeof t1[0]);
        uint32_t t2[] = {
            addi(A0, ZERO, (int32_t)SITE),
            addi(ZERO, ZERO, 0),
            addi(ZERO, ZERO, 0),
            addi(ZERO, ZERO, 0),
            addi(T2, ZERO, 300),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4),
            jalr(ZERO, A0, 0), /* SITE in 607 */
        };
        put(t[way], 0x600, t1, sizeof t1 / sizeof t1[0]);
        put(t[way], 0x700, t2, sizeof t2 / sizeof t2[0]);
        tile_start_core(t[way], CORE_BRISC, 0x500);
        tile_start_core(t[way], CORE_TRISC1, 0x600);
        if (!same_first) tile_start_core(t[way], CORE_TRISC2, 0x700);
        run_for(t[way], 2000, 97);
    }
#undef LI
    assert_same(t);
    for (int way = 0; way < 3; way++) {
        const hart_t *b = &t[way]->hart[CORE_BRISC];
        assert_int_equal(b->state, HART_HALTED);
        assert_int_equal(b->pc, SITE + 4);
        assert_int_equal(b->x[A1], 0x55);
        assert_true(b->stall_cycles > (same_first ? 500u : 200u)); /* blocked long before the new word */
        if (!same_first) {
            assert_int_equal(t[way]->hart[CORE_TRISC2].state, HART_HALTED);
            assert_int_equal(t[way]->hart[CORE_TRISC2].pc, SITE + 4);
        }
    }
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}
static void rewritten_block_decoded(void **state) {
    (void)state;
    rewritten_block(false);
}
static void rewritten_block_same_first(void **state) {
    (void)state;
    rewritten_block(true);
}

/* A parked hart's loop rewritten at the end of a cycle by a writer that is not a hart (the
 * coprocessor's packer, a NoC packet: env_l1_written, here through tile_host_write from the
 * group's end_cycle): its next turn runs the new word, as the reference path's does. BRISC polls
 * FLAG0 (it parks); at the end of cycle 150 its branch back becomes `addi a0, zero, 7`, so it
 * falls through to the ebreak after it. */
#define REWRITE_AT 150u
static bool end_rewrite(void *ctx) {
    tile_t *t = ctx;
    if (++t->cycle == REWRITE_AT) assert_true(tile_host_write(t, 0x1004, addi(A0, ZERO, 7)));
    return false;
}
static void parked_code_written_at_cycle_end(void **state) {
    (void)state;
    tile_t *t[2];
    for (int way = 0; way < 2; way++) {
        t[way] = new_tile(way);
        put(t[way], 0x1000, (uint32_t[]){lw(T0, ZERO, FLAG0), beq(T0, ZERO, -4), EBREAK}, 3);
        tile_start_core(t[way], CORE_BRISC, 0x1000);
    }
    for (unsigned c = 0; c < 300; c++) { /* the reference: cycle by cycle, the write between */
        tile_cycle(t[0]);
        if (t[0]->cycle == REWRITE_AT) assert_true(tile_host_write(t[0], 0x1004, addi(A0, ZERO, 7)));
    }
    uint64_t ran = hart_run_lockstep(t[1]->hart, TILE_NCORES, 300, end_rewrite, NULL, t[1]);
    assert_true(ran > REWRITE_AT && ran < 300); /* it returns after the cycle of the halt */
    for (int way = 0; way < 2; way++) {
        const hart_t *h = &t[way]->hart[CORE_BRISC];
        assert_int_equal(h->state, HART_HALTED);
        assert_int_equal(h->x[A0], 7);
    }
    const hart_t *a = &t[0]->hart[CORE_BRISC], *b = &t[1]->hart[CORE_BRISC];
    assert_int_equal(a->pc, b->pc);
    assert_int_equal(a->instret, b->instret);
    assert_int_equal(a->cycle, b->cycle);
    assert_memory_equal(a->x, b->x, sizeof a->x);
    assert_true(b->parked_turns > 100); /* it was parked when its code was written */
    for (int way = 0; way < 2; way++)
        tile_destroy(t[way]);
}

/* A hart woken by its word learns how long it stays awake (core/exec.c park_try, hart_park_t.awake):
 * before one is learned it is probed at once (and fails: the hart is past its loop); once one is,
 * its first probe after a wake waits until a quarter of the cycles the hart last ran between a
 * wake and parking again have passed, with no probe at the wake, so that it parks sooner after
 * going back to its loop than doubling waits alone would let it. BRISC polls FLAG0, clears it,
 * stores W times (a loop no probe can park: it stores) and polls again; FLAG0 is set at the end of
 * a cycle early in each of three runs (by the group's end of a cycle, as test
 * parked_code_written_at_cycle_end writes). The reference steps cycle by cycle with the same
 * writes; the group must end each run in the same state, leave the hart unparked for fewer turns
 * after the third wake than after the first, and probe it at the third wake's run only where it
 * parks at the run's start (park_probes), its next probe set a learned quarter span on. */
#define WAKE_AT 10u /* a run's cycle after which FLAG0 is set */
typedef struct {
    tile_t *t;
    uint64_t wake_at;
} wake_ctx_t;
static bool end_wake(void *ctx) {
    wake_ctx_t *w = ctx;
    if (++w->t->cycle == w->wake_at) assert_true(tile_host_write(w->t, FLAG0, 1));
    return false;
}
static void wake_learns_awake_span(void **state) {
    (void)state;
    enum { W = 100, RUN = 3000, PART = 16 };
    const uint32_t p[] = {lw(T0, ZERO, FLAG0), beq(T0, ZERO, -4), sw(ZERO, ZERO, FLAG0), addi(T1, ZERO, W),
                          sw(T1, ZERO, OUT),   addi(T1, T1, -1),  bne(T1, ZERO, -8),     beq(ZERO, ZERO, -28)};
    tile_t *t[2];
    for (int way = 0; way < 2; way++) {
        t[way] = new_tile(way);
        put(t[way], 0x1000, p, sizeof p / sizeof p[0]);
        tile_start_core(t[way], CORE_BRISC, 0x1000);
    }
    const hart_t *a = &t[0]->hart[CORE_BRISC], *b = &t[1]->hart[CORE_BRISC];
    uint64_t unparked[3];
    for (int k = -1; k < 3; k++) { /* (k = -1: the hart parks on its first poll, nothing written) */
        uint64_t wake_at = k >= 0 ? t[0]->cycle + WAKE_AT : UINT64_MAX;
        for (unsigned c = 0; c < RUN; c++) {
            tile_cycle(t[0]);
            if (t[0]->cycle == wake_at) assert_true(tile_host_write(t[0], FLAG0, 1));
        }
        uint64_t before = b->parked_turns;
        wake_ctx_t w = {.t = t[1], .wake_at = wake_at};
        if (k == 2) { /* up to just past the wake's turn (a call of 16 cycles or more parks), then the rest */
            uint64_t probes = b->park_probes, awake = b->park.awake;
            assert_true(awake > 0);
            assert_int_equal(hart_run_lockstep(t[1]->hart, TILE_NCORES, PART, end_wake, NULL, &w), PART);
            assert_int_equal(b->park_probes - probes, 1); /* the run's first turn, none at the wake */
            assert_true(b->park.woke);
            assert_int_equal(b->park.try_at, b->park.woke_at + awake);
            assert_int_equal(hart_run_lockstep(t[1]->hart, TILE_NCORES, RUN - PART, end_wake, NULL, &w), RUN - PART);
        } else {
            assert_int_equal(hart_run_lockstep(t[1]->hart, TILE_NCORES, RUN, end_wake, NULL, &w), RUN);
        }
        if (k >= 0) unparked[k] = RUN - (b->parked_turns - before);
        assert_int_equal(a->pc, b->pc);
        assert_int_equal(a->instret, b->instret);
        assert_int_equal(a->cycle, b->cycle);
        assert_memory_equal(a->x, b->x, sizeof a->x);
        assert_memory_equal(t[0]->l1, t[1]->l1, TILE_L1_SIZE);
    }
    /* the first wake: probes 1, 32, 64, ... cycles apart, the last well after the ~3W cycles of
     * stores; the third: the first probe a quarter of the second's span after the wake */
    assert_true(unparked[0] > 3 * W);
    assert_true(unparked[1] < unparked[0] && unparked[2] <= unparked[1]);
    assert_int_equal(b->park.awake, unparked[2] / 4); /* learned from the third wake */
    for (int way = 0; way < 2; way++)
        tile_destroy(t[way]);
}

/* A loop polls L1 with each width of load (lb, lh, lw, lbu, lhu: the probe watches the word it
 * reads, park_try's load_bytes) while NCRISC counts down and then stores the word: the poller
 * parks, and wakes at the turn the reference path's load first sees the store. A load the probe
 * took for another op would park the hart on no word at all, and it would never wake. */
static void every_load_width_parks(void **state) {
    (void)state;
    static const struct {
        uint32_t f3, off; /* funct3 (RISC-V "Load and Store Instructions"), byte in FLAG0 */
    } ld[] = {{0, 1}, {1, 2}, {2, 0}, {4, 3}, {5, 2}};
    for (size_t k = 0; k < sizeof ld / sizeof ld[0]; k++) {
        tile_t *t[3];
        for (int way = 0; way < 3; way++) {
            t[way] = new_tile(way);
            const uint32_t b[] = {i_type(0x03, ld[k].f3, T0, ZERO, (int32_t)(FLAG0 + ld[k].off)), beq(T0, ZERO, -4),
                                  sw(T0, ZERO, OUT), EBREAK};
            put(t[way], 0x1000, b, 4);
            tile_start_core(t[way], CORE_BRISC, 0x1000);
            /* NCRISC: 16,384 turns of a countdown, then 0x80808080 into FLAG0 (every byte non-zero) */
            const uint32_t nc[] = {lui(T2, 4),
                                   addi(T2, T2, -1),
                                   bne(T2, ZERO, -4),
                                   lui(T1, 0x80808),
                                   addi(T1, T1, 0x80),
                                   sw(T1, ZERO, FLAG0),
                                   EBREAK};
            put(t[way], 0x2000, nc, 7);
            tile_start_core(t[way], CORE_NCRISC, 0x2000);
            run_for(t[way], 40000, 40000);
        }
        assert_same(t);
        assert_int_equal(t[0]->hart[CORE_BRISC].state, HART_HALTED);
        assert_true(t[2]->hart[CORE_BRISC].parked_turns > 16000); /* it parked on the word */
        for (int way = 0; way < 3; way++)
            tile_destroy(t[way]);
    }
}

/* Parked harts at the front of the order whose word is a device's counted storage (here the
 * stream registers) are skipped: their turns are counted from the group's cycles, not visited
 * (core/exec.c "skipped harts"). Every writer must still reach them at the turn the reference
 * path's does, and every way of settling one must count the same turns:
 *   - the end of a cycle (a host write of BRISC's stream word from end_cycle: cycle 300);
 *   - a later hart's store (TRISC0 into NCRISC's word, in its turn: NCRISC sees it next cycle);
 *   - a later hart's read of a skipped hart's PC snapshot (settles it mid-cycle: the pc depends
 *     on the turns counted), and its soft reset of a skipped hart (NCRISC, which TRISC0 then lets
 *     run again: it must not stay skipped);
 *   - a dropped record (BRISC's second loop rewritten from end_cycle at cycle 1100, while both
 *     BRISC and NCRISC are skipped and no other hart parks to wake).
 * Three ways: the reference cycle by cycle, one group call with those writes in its end_cycle, the
 * tile's fast path in batches with the writes between them; the harts' state and L1 must agree. */
#define SKIP_END  1500u
#define S8        0xFFB48028u /* stream 8, register 10 (BRISC's word), then register 11 */
#define S9        0xFFB49028u /* NCRISC's, in stream 9 */
#define BR_LOOP2  0x1018u     /* BRISC's second loop */
#define LI(rd, v) lui(rd, ((v) + 0x800u) >> 12), addi(rd, rd, (int32_t)((v) << 20) >> 20)
static void skip_write(tile_t *t) {
    if (t->cycle == 300) assert_true(tile_host_write(t, S8, 1));
    if (t->cycle == 1100) assert_true(tile_host_write(t, BR_LOOP2 + 4, addi(A0, ZERO, 7)));
}
static void (*skip_writer)(tile_t *t); /* what end_skip writes: skip_ways's write */
static bool end_skip(void *ctx) {
    tile_t *t = ctx;
    ++t->cycle;
    skip_writer(t);
    return false;
}
/* The three ways to cycle `end`: the reference cycle by cycle with write() after each, one group
 * call with write() in its end_cycle (end_skip), the fast path in batches with write() at cycles cut1 and
 * cut2 (where write acts); then every way must agree. */
static void skip_ways(tile_t *const t[3], uint64_t end, void (*write)(tile_t *), uint64_t cut1, uint64_t cut2) {
    while (t[0]->cycle < end) {
        tile_cycle(t[0]);
        write(t[0]);
    }
    skip_writer = write;
    assert_int_equal(hart_run_lockstep(t[1]->hart, TILE_NCORES, end, end_skip, NULL, t[1]), end);
    run_for(t[2], cut1, 97);
    write(t[2]);
    run_for(t[2], cut2 - cut1, 89);
    write(t[2]);
    run_for(t[2], end - cut2, 101);
    t[1]->cycle = t[2]->cycle; /* (the group call counted the tile's cycles, not its other state) */
    assert_same(t);
}
static void skipped_harts_see_every_writer(void **state) {
    (void)state;
    tile_t *t[3];
    for (int way = 0; way < 3; way++) {
        t[way] = new_tile(way);
        /* Poll a word; once set, leave mcycle at OUT + 4 * id and poll the next stream's. */
        uint32_t poll[] = {
            LI(A1, S8),
            lw(T0, A1, 0),
            beq(T0, ZERO, -4),
            csrrs(A2, MCYCLE, ZERO),
            sw(A2, ZERO, OUT),
            lw(T0, A1, 4),     /* BR_LOOP2: the next register, never written */
            beq(T0, ZERO, -4), /* rewritten at cycle 1100 */
            csrrs(A2, MCYCLE, ZERO),
            sw(A2, ZERO, OUT + 12),
            beq(ZERO, ZERO, 0),
        };
        put(t[way], 0x1000, poll, sizeof poll / sizeof poll[0]);
        poll[0] = lui(A1, (S9 + 0x800u) >> 12), poll[1] = addi(A1, A1, (int32_t)(S9 << 20) >> 20);
        poll[5] = sw(A2, ZERO, OUT + 4);
        poll[9] = sw(A2, ZERO, OUT + 16);
        put(t[way], 0x2000, poll, sizeof poll / sizeof poll[0]);
        uint32_t t0[] = {
            addi(T2, ZERO, 200),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4),
            LI(A0, 0xFFB13000u),
            lw(A1, A0, 0x13C), /* NCRISC's PC snapshot */
            sw(A1, ZERO, OUT + 8),
            LI(A0, S9),
            addi(T1, ZERO, 1),
            sw(T1, A0, 0), /* NCRISC's word */
            addi(T2, ZERO, 200),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4),
            LI(A0, 0xFFB12000u),
            lw(T0, A0, 0x1B0),
            lui(T1, 0x40),           /* NCRISC's reset bit */
            0x00628233u | (T0 << 7), /* add t0, t0, t1 (the bit is clear) */
            sw(T0, A0, 0x1B0),       /* NCRISC into reset, while it polls its second word */
            addi(T2, ZERO, 100),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4),
            0x40628233u | (T0 << 7), /* sub t0, t0, t1 */
            sw(T0, A0, 0x1B0),       /* NCRISC out of reset (at 0x12000) */
            lui(T2, 1),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4), /* running past the end (no park to wake at cycle 1100) */
        };
        put(t[way], 0x3000, t0, sizeof t0 / sizeof t0[0]);
        put(t[way], 0x12000, (uint32_t[]){csrrs(A2, MCYCLE, ZERO), sw(A2, ZERO, OUT + 20), beq(ZERO, ZERO, 0)}, 3);
        tile_start_core(t[way], CORE_BRISC, 0x1000);
        tile_start_core(t[way], CORE_NCRISC, 0x2000);
        tile_start_core(t[way], CORE_TRISC0, 0x3000);
    }
    skip_ways(t, SKIP_END, skip_write, 300, 1100);
    for (int way = 0; way < 3; way++) {
        const hart_t *b = &t[way]->hart[CORE_BRISC];
        uint32_t out[6];
        memcpy(out, t[way]->l1 + OUT, sizeof out);
        assert_int_equal(out[0], 303);             /* BRISC read the end of cycle 300's write in 301 */
        assert_true(out[1] > 400 && out[1] < 500); /* NCRISC saw TRISC0's store */
        assert_true(out[2] == 0x2004 || out[2] == 0x2008);
        assert_true(out[3] > 1100 && out[3] < 1110); /* BRISC ran its rewritten loop */
        assert_int_equal(b->x[A0], 7);
        assert_true(out[5] > 0); /* NCRISC ran again after its reset */
        assert_int_equal(t[way]->hart[CORE_NCRISC].pc, 0x12008);
        if (way) assert_true(b->skipped_turns > 900 && t[way]->hart[CORE_NCRISC].skipped_turns > 600);
    }
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}
#undef LI

/* Harts parked on L1 words are skipped too (core/exec.c park_mark): their words get a decoded
 * record, and every kind of write into L1 drops it and wakes them in the cycle the reference path
 * sees the write. BRISC polls FLAG0, then FLAG1; NCRISC polls FLAG2, then FLAG3 (mailbox words,
 * no code there); each leaves mcycle at OUT + 4 * k when a word is set. TRISC0 (after them in
 * the turns) writes a byte of FLAG0 (sb), the same value 0 into FLAG1 (a wake with nothing
 * changed), FLAG2 with an AMO; the host writes FLAG3 and then FLAG1 at cycles' ends (env_l1_written).
 * Three ways as above; on the fast ways both harts must have been skipped for most of it. */
#define L1_SKIP_END 1500u
#define FLAG2       0x208u
#define FLAG3       0x20Cu
static void l1_skip_write(tile_t *t) {
    if (t->cycle == 1100) assert_true(tile_host_write(t, FLAG3, 3));
    if (t->cycle == 1300) assert_true(tile_host_write(t, FLAG1, 5));
}
static void skipped_harts_see_l1_writers(void **state) {
    (void)state;
    tile_t *t[3];
    for (int way = 0; way < 3; way++) {
        t[way] = new_tile(way);
        for (int k = 0; k < 2; k++) {
            uint32_t first = k ? FLAG2 : FLAG0, out = OUT + 8 * (uint32_t)k;
            uint32_t poll[] = {
                lw(T0, ZERO, (int32_t)first),
                beq(T0, ZERO, -4),
                csrrs(A2, MCYCLE, ZERO),
                sw(A2, ZERO, (int32_t)out),
                lw(T0, ZERO, (int32_t)first + 4),
                beq(T0, ZERO, -4),
                csrrs(A2, MCYCLE, ZERO),
                sw(A2, ZERO, (int32_t)out + 4),
                beq(ZERO, ZERO, 0),
            };
            put(t[way], k ? 0x2000 : 0x1000, poll, sizeof poll / sizeof poll[0]);
        }
        uint32_t t0[] = {
            addi(T1, ZERO, 1),
            addi(T2, ZERO, 150),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4),
            sw(T1, ZERO, FLAG0 + 1) & ~(7u << 12), /* sb: FLAG0's second byte */
            addi(T2, ZERO, 150),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4),
            sw(ZERO, ZERO, FLAG1), /* the value it holds */
            addi(T2, ZERO, 150),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4),
            addi(A1, ZERO, FLAG2),
            amoswap(T0, A1, T1),
            lui(T2, 1),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4), /* running past the end */
        };
        put(t[way], 0x3000, t0, sizeof t0 / sizeof t0[0]);
        tile_start_core(t[way], CORE_BRISC, 0x1000);
        tile_start_core(t[way], CORE_NCRISC, 0x2000);
        tile_start_core(t[way], CORE_TRISC0, 0x3000);
    }
    skip_ways(t, L1_SKIP_END, l1_skip_write, 1100, 1300);
    for (int way = 0; way < 3; way++) {
        uint32_t out[4];
        memcpy(out, t[way]->l1 + OUT, sizeof out);
        assert_true(out[0] > 300 && out[0] < 400);   /* BRISC saw the sb */
        assert_true(out[1] > 1300 && out[1] < 1310); /* and the host's FLAG1, not the same-value store */
        assert_true(out[2] > 900 && out[2] < 1000);  /* NCRISC saw the AMO */
        assert_true(out[3] > 1100 && out[3] < 1110); /* and the host's FLAG3 */
        if (way)
            assert_true(t[way]->hart[CORE_BRISC].skipped_turns > 1000 && t[way]->hart[CORE_NCRISC].skipped_turns > 800);
    }
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}

/* The NoC tests' run, on every way: BRISC runs poll (at 0x1000; it leaves the cycle it got out of
 * its loop at OUT), TRISC0 runs other (at 0x3000); at cycle 200 the host issues a 64-byte read of
 * DRAM bank 0 through NIU 0, then `after` cycles more. Every way must end alike, BRISC out of its
 * loop between cycles lo and hi and, on the fast ways, skipped for more than `skipped` turns. */
static void noc_read_run(const uint32_t *poll, size_t npoll, const uint32_t *other, size_t nother, uint64_t after,
                         uint32_t lo, uint32_t hi, uint64_t skipped) {
    tile_t *t[3];
    for (int way = 0; way < 3; way++) {
        t[way] = new_tile(way);
        put(t[way], 0x1000, poll, npoll);
        put(t[way], 0x3000, other, nother);
        tile_start_core(t[way], CORE_BRISC, 0x1000);
        tile_start_core(t[way], CORE_TRISC0, 0x3000);
        run_for(t[way], 200, 97);
        const uint32_t q[][2] = {{0x00, 0x100000}, {0x04, 0},  {0x08, 12u << 6 | 17u}, /* DRAM bank 0 */
                                 {0x0C, 0x20000},  {0x10, 0},  {0x14, 2u << 6 | 1u},   /* this tile */
                                 {0x1C, 0x10},     {0x20, 64}, {0x40, 1}};             /* read, 64 bytes; go */
        for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
            assert_true(tile_host_write(t[way], 0xFFB20000u + q[i][0], q[i][1]));
        run_for(t[way], after, 89);
    }
    assert_same(t);
    for (int way = 0; way < 3; way++) {
        uint32_t out;
        memcpy(&out, t[way]->l1 + OUT, 4);
        assert_true(out > lo && out < hi);
        if (way) assert_true(t[way]->hart[CORE_BRISC].skipped_turns > skipped);
    }
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}

/* The same for a NIU's counter, which the NoC moves at the end of a cycle (mmio/noc.c count: each
 * move counted in tile_t.dev_writes): BRISC, skipped while it polls a counter of NIU 0 (TRISC0
 * runs), must see it move in the cycle the reference path sees it, for a DRAM read the host issues
 * at cycle 200: RD_RESP_RECEIVED (its response, in the tick that also counts REQS_OUTSTANDING
 * down) and RD_REQ_SENT (the request sent, moved by count() alone). */
static void skipped_hart_sees_noc_counter(void **state) {
    (void)state;
    for (unsigned k = 0; k < 2; k++) {
        const uint32_t poll[] = {
            lui(A1, 0xFFB20),        addi(A1, A1, k ? 0x214 : 0x208), /* NIU 0's counter */
            lw(T0, A1, 0),           beq(T0, ZERO, -4),
            csrrs(A2, MCYCLE, ZERO), sw(A2, ZERO, OUT),
            beq(ZERO, ZERO, 0),
        };
        const uint32_t spin[] = {lui(T2, 1), addi(T2, T2, -1), bne(T2, ZERO, -4)};
        noc_read_run(poll, sizeof poll / sizeof poll[0], spin, 3, 800, 200, 1000, 100);
    }
}

/* A hart's store clearing the NIU's outstanding-request counts (NOC_CLEAR_OUTSTANDING_REQ_CNT,
 * counted in tile_t.dev_writes like the NoC's own moves): BRISC waits for NIU 0's
 * REQS_OUTSTANDING of ID 0 to leave 0 (the host's DRAM read at cycle 200 is issued) and then to
 * come back to 0, skipped while it waits; TRISC0, after a delay, clears it at about cycle 400,
 * long before the read's response (a DRAM tile answers after 300 cycles, docs/noc.md). BRISC must
 * leave its loop in the cycle after the clear on every way: between 300 and 500, the clear's
 * cycle, not the response's. */
static void skipped_hart_sees_outstanding_cleared(void **state) {
    (void)state;
    const uint32_t poll[] = {
        lui(A1, 0xFFB20),        addi(A1, A1, 0x240), /* NIU 0, REQS_OUTSTANDING_ID0 */
        lw(T0, A1, 0),           beq(T0, ZERO, -4),   /* issued */
        lw(T0, A1, 0),           bne(T0, ZERO, -4),   /* cleared */
        csrrs(A2, MCYCLE, ZERO), sw(A2, ZERO, OUT),   beq(ZERO, ZERO, 0),
    };
    const uint32_t clear[] = {
        addi(T2, ZERO, 200), addi(T2, T2, -1),  bne(T2, ZERO, -4), /* ~400 cycles */
        lui(A1, 0xFFB20),    addi(T1, ZERO, 1), sw(T1, A1, 0x60),  /* clear ID 0's count */
        beq(ZERO, ZERO, 0),
    };
    noc_read_run(poll, sizeof poll / sizeof poll[0], clear, sizeof clear / sizeof clear[0], 400, 300, 500, 50);
}

/* A TRISC parked on a semaphore (PC_BUF, SyncUnit.md) is skipped too, behind BRISC and NCRISC
 * parked on L1 words nobody writes: every move of a semaphore (coprocessor/sync.c, sync_t.moves) is
 * counted in tile_t.dev_writes. TRISC0 polls semaphore 5 (0xFFE80034) until it is set, then clear,
 * set and clear again, leaving mcycle at OUT + 4 * k each time; TRISC1 (after it in the turns)
 * moves it every ~300 cycles four ways: its own store to the semaphore (a post, cp_sem_write),
 * then a pushed SEMGET, SEMPOST and SEMINIT (value 0), which the coprocessor carries out cycles
 * later. Three ways (the reference cycle by cycle, the fast path in batches without and with the
 * idle fast-forward); each must see every move in the cycle the reference path sees it, and on the
 * fast ways TRISC0 must have been skipped for most of it. */
#define SEM_END   1700u
#define LI(rd, v) lui(rd, ((v) + 0x800u) >> 12), addi(rd, rd, (int32_t)((v) << 20) >> 20)
#define DELAY     addi(T2, ZERO, 150), addi(T2, T2, -1), bne(T2, ZERO, -4) /* ~300 cycles */
static void skipped_trisc_sees_semaphores(void **state) {
    (void)state;
    tile_t *t[3];
    for (int way = 0; way < 3; way++) {
        t[way] = new_tile(way);
        put(t[way], 0x1000, (uint32_t[]){lw(T0, ZERO, FLAG0), beq(T0, ZERO, -4), beq(ZERO, ZERO, 0)}, 3);
        put(t[way], 0x2000, (uint32_t[]){lw(T0, ZERO, FLAG1), beq(T0, ZERO, -4), beq(ZERO, ZERO, 0)}, 3);
        const uint32_t t0[] = {
            LI(A1, 0xFFE80034u),    lw(T0, A1, 0),      beq(T0, ZERO, -4), csrrs(A2, MCYCLE, ZERO),
            sw(A2, ZERO, OUT),      lw(T0, A1, 0),      bne(T0, ZERO, -4), csrrs(A2, MCYCLE, ZERO),
            sw(A2, ZERO, OUT + 4),  lw(T0, A1, 0),      beq(T0, ZERO, -4), csrrs(A2, MCYCLE, ZERO),
            sw(A2, ZERO, OUT + 8),  lw(T0, A1, 0),      bne(T0, ZERO, -4), csrrs(A2, MCYCLE, ZERO),
            sw(A2, ZERO, OUT + 12), beq(ZERO, ZERO, 0),
        };
        put(t[way], 0x3000, t0, sizeof t0 / sizeof t0[0]);
        const uint32_t t1[] = {
            LI(A1, 0xFFE80034u),
            LI(A0, 0xFFE40000u), /* INSTRN_BUF: thread 1's pushes */
            DELAY,
            sw(ZERO, A1, 0), /* a post: bit 0 clear */
            DELAY,
            LI(T1, 0xA5000080u), /* SEMGET, sem_sel 1 << 5 */
            sw(T1, A0, 0),
            DELAY,
            LI(T1, 0xA4000080u), /* SEMPOST */
            sw(T1, A0, 0),
            DELAY,
            LI(T1, 0xA3200080u), /* SEMINIT: Value 0, Max 2 */
            sw(T1, A0, 0),
            lui(T2, 1),
            addi(T2, T2, -1),
            bne(T2, ZERO, -4), /* running past the end */
        };
        put(t[way], 0x4000, t1, sizeof t1 / sizeof t1[0]);
        for (int c = CORE_BRISC; c <= CORE_TRISC1; c++) /* BRISC at 0x1000 ... TRISC1 at 0x4000 */
            tile_start_core(t[way], c, 0x1000 * (uint32_t)(c + 1));
    }
    while (t[0]->cycle < SEM_END) /* (not skip_ways: a bare group call runs no coprocessor) */
        tile_cycle(t[0]);
    run_for(t[1], SEM_END, 97);
    run_for(t[2], SEM_END, 89);
    assert_same(t);
    for (int way = 0; way < 3; way++) {
        uint32_t out[4];
        memcpy(out, t[way]->l1 + OUT, sizeof out);
        for (int k = 0; k < 4; k++) /* each move about 300 cycles after the last */
            assert_true(out[k] > 300u * (uint32_t)(k + 1) && out[k] < 300u * (uint32_t)(k + 1) + 100);
        assert_int_equal(t[way]->hart[CORE_TRISC0].pc, 0x3000 + 4 * 18);
        if (way) assert_true(t[way]->hart[CORE_TRISC0].skipped_turns > 1000);
    }
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}
#undef LI
#undef DELAY

/* A hart's `sw` of a Tensix instruction to INSTRN_BUF (0xFFE40000 exactly) takes the .ttinsn's way
 * in the fast dispatcher (core/exec.c STORE: env_ttinsn, not the device map); every other store
 * to the push windows goes through the map (mem_store). TRISC1 and TRISC2 loop pushing SEMWAIT
 * (held while their semaphore is zero), 40 NOPs (their FIFOs fill: the pushes block) and SEMGET
 * (at INSTRN_BUF + 4: the map's way); BRISC pushes NOPs after the MOP expanders of threads 1
 * and 2 (INSTRN1_BUF, INSTRN2_BUF), blocking on their full FIFO#2; TRISC0 posts the semaphores
 * every ~300 cycles. Three ways (the reference cycle by cycle, the fast path in batches without
 * and with the idle fast-forward) must agree on the harts, L1 (each round's mcycle) and every
 * thread's pushes (count, last word, high waters). */
#define PUSH_END  2000u
#define LI(rd, v) lui(rd, ((v) + 0x800u) >> 12), addi(rd, rd, (int32_t)((v) << 20) >> 20)
#define DELAY     addi(T2, ZERO, 150), addi(T2, T2, -1), bne(T2, ZERO, -4) /* ~300 cycles */
static void stored_pusher(tile_t *t, uint32_t at, uint32_t sem_sel, uint32_t out) {
    const uint32_t p[] = {
        LI(A0, 0xFFE40000u), /* INSTRN_BUF: its own thread */
        LI(T0, TT_OP_SEMINIT(2, 0, sem_sel)),
        sw(T0, A0, 0),
        LI(T0, TT_OP_SEMWAIT(0x1FF, sem_sel, 1)), /* STALL_ON_ZERO */
        LI(T1, TT_OP_SEMGET(sem_sel)),
        lui(A2, 0x02000), /* NOP */
        csrrs(A1, MCYCLE, ZERO),
        sw(A1, ZERO, (int32_t)out), /* when each round began */
        sw(T0, A0, 0),              /* SEMWAIT: holds the NOPs */
        addi(T2, ZERO, 40),
        sw(A2, A0, 0), /* blocks once the FIFO is full */
        addi(T2, T2, -1),
        bne(T2, ZERO, -8),
        sw(T1, A0, 4), /* SEMGET, through the map */
        beq(ZERO, ZERO, -32),
    };
    put(t, at, p, sizeof p / sizeof p[0]);
}
static void stored_pushes_are_ttinsn_pushes(void **state) {
    (void)state;
    tile_t *t[3];
    for (int way = 0; way < 3; way++) {
        t[way] = new_tile(way);
        const uint32_t br[] = {
            LI(A0, 0xFFE50000u), /* INSTRN1_BUF */
            LI(A1, 0xFFE60000u), /* INSTRN2_BUF */
            lui(A2, 0x02000),    /* NOP */
            addi(T2, ZERO, 60),  sw(A2, A0, 0), sw(A2, A1, 0), addi(T2, T2, -1), bne(T2, ZERO, -12), beq(ZERO, ZERO, 0),
        };
        put(t[way], 0x1000, br, sizeof br / sizeof br[0]);
        const uint32_t t0[] = {
            LI(A1, 0xFFE80034u), /* semaphore 5's window word */
            LI(A2, 0xFFE80038u), /* semaphore 6's */
            DELAY,
            sw(ZERO, A1, 0), /* posts */
            sw(ZERO, A2, 0),
            DELAY,
            sw(ZERO, A2, 0),
            sw(ZERO, A1, 0),
            DELAY,
            sw(ZERO, A1, 0),
            sw(ZERO, A2, 0),
            beq(ZERO, ZERO, 0),
        };
        put(t[way], 0x3000, t0, sizeof t0 / sizeof t0[0]);
        stored_pusher(t[way], 0x4000, 1u << 5, OUT);
        stored_pusher(t[way], 0x5000, 1u << 6, OUT + 4);
        tile_start_core(t[way], CORE_BRISC, 0x1000);
        tile_start_core(t[way], CORE_TRISC0, 0x3000);
        tile_start_core(t[way], CORE_TRISC1, 0x4000);
        tile_start_core(t[way], CORE_TRISC2, 0x5000);
    }
    while (t[0]->cycle < PUSH_END)
        tile_cycle(t[0]);
    run_for(t[1], PUSH_END, 97);
    run_for(t[2], PUSH_END, 89);
    assert_same(t);
    for (int way = 1; way < 3; way++)
        for (unsigned th = 0; th < CP_THREADS; th++) {
            const cp_stats_t *a = cp_stats(t[0]->cp, th), *b = cp_stats(t[way]->cp, th);
            assert_int_equal(a->pushed, b->pushed);
            assert_int_equal(a->last_pushed, b->last_pushed);
            assert_int_equal(a->fifo_high_water, b->fifo_high_water);
            assert_int_equal(a->fifo2_high_water, b->fifo2_high_water);
        }
    for (int way = 0; way < 3; way++) {
        for (int c = CORE_TRISC1; c <= CORE_TRISC2; c++) {
            assert_true(t[way]->hart[c].stall_cycles > 1000); /* its pushes blocked, every round */
            assert_true(t[way]->hart[c].instret > 4 * 40 * 3);
        }
        const hart_t *br = &t[way]->hart[CORE_BRISC];
        assert_int_equal(br->pc, 0x1000 + 4 * 6); /* blocked on a full FIFO#2, some of its pushes in */
        assert_true(br->instret > 6 + 4 * 4 && br->stall_cycles > 1000);
        assert_int_equal(cp_stats(t[way]->cp, 0)->pushed, 0);
        for (unsigned th = 1; th < CP_THREADS; th++) /* four rounds of 42 pushes and more */
            assert_true(cp_stats(t[way]->cp, th)->pushed > 4 * 42);
    }
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}
#undef LI
#undef DELAY

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(touches_only_by_others),
        cmocka_unit_test(host_release_between_runs),
        cmocka_unit_test(core_store_releases),
        cmocka_unit_test(impure_loops_are_stepped),
        cmocka_unit_test(alone_spinner),
        cmocka_unit_test(settles_into_spin),
        cmocka_unit_test(pure_step_refuses_writes),
        cmocka_unit_test(lockstep_counts_its_last_cycle),
        cmocka_unit_test(lockstep_asks_asleep),
        cmocka_unit_test(watch_sees_every_writer),
        cmocka_unit_test(watch_counts_l1_stores_only),
        cmocka_unit_test(cp_error_ends_the_batch),
        cmocka_unit_test(soft_reset_ends_the_batch),
        cmocka_unit_test(rewritten_block_decoded),
        cmocka_unit_test(rewritten_block_same_first),
        cmocka_unit_test(parked_code_written_at_cycle_end),
        cmocka_unit_test(wake_learns_awake_span),
        cmocka_unit_test(every_load_width_parks),
        cmocka_unit_test(skipped_harts_see_every_writer),
        cmocka_unit_test(skipped_harts_see_l1_writers),
        cmocka_unit_test(skipped_hart_sees_noc_counter),
        cmocka_unit_test(skipped_hart_sees_outstanding_cleared),
        cmocka_unit_test(skipped_trisc_sees_semaphores),
        cmocka_unit_test(stored_pushes_are_ttinsn_pushes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
