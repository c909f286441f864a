/* test/unit/test_predecode.c — the decode cache (core/exec.c hart_step_fast, hart_pd_t) sees
 * every write into L1 at once: a hart rewriting its own code (with and without fence.i: ttemu has
 * no instruction cache), one core writing code another core then runs, the host writing over
 * decoded code, an AMO on a code word; and the fast path and run-ahead (tile_run) give the very
 * state the reference path (tile_opts_t.reference: hart_step, one cycle at a time) gives.
 *
 * The guest programs are hand-assembled here (RISC-V unprivileged spec, "RV32I Base Instruction
 * Set" encodings), so the words a program stores are visible in the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tile/tile.h"
#include "test/unit/rv_enc.h"

/* ---- a tiny assembler ----------------------------------------------------------------------- */
enum { ZERO = 0, RA = 1, T0 = 5, T1 = 6, T2 = 7, A0 = 10, A1 = 11, A2 = 12 };
#define FENCE_I 0x0000100fu

/* Loads an absolute 32-bit constant with lui+addi (2 words at p). */
static uint32_t *li(uint32_t *p, int rd, uint32_t v) {
    p[0] = lui(rd, (v + 0x800u) >> 12);
    p[1] = addi(rd, rd, (int32_t)(v << 20) >> 20);
    return p + 2;
}

static void put(tile_t *t, uint32_t addr, const uint32_t *w, size_t n) {
    for (size_t i = 0; i < n; i++)
        assert_true(tile_host_write(t, addr + 4 * (uint32_t)i, w[i]));
}

static tile_t *new_tile(bool reference) {
    tile_t *t = tile_create(&(tile_opts_t){.reference = reference});
    assert_non_null(t);
    assert_int_equal(t->reference, reference);
    assert_true(reference ? t->pd == NULL : t->pd != NULL);
    return t;
}

/* Run until every started core stopped (or a cycle limit): through tile_run when batch, else
 * tile_cycle, as run/run.c does. */
static void run_tile(tile_t *t, bool batch, uint64_t limit) {
    while (t->cycle < limit) {
        bool any = false;
        for (int c = 0; c < TILE_NCORES; c++)
            any = any || t->hart[c].state == HART_RUNNING;
        if (!any) return;
        if (batch)
            tile_run(t, limit - t->cycle);
        else
            tile_cycle(t);
    }
}

/* ---- programs ------------------------------------------------------------------------------- */

/* A hart calls a routine at 0x2000 (a0 += 1), overwrites its first word with `a0 += 100` and
 * calls it again: a0 must be 101, not 2. With fence.i between, or without. */
static void self_modifying(tile_t *t, bool with_fence) {
    uint32_t prog[32], *p = prog;
    *p++ = addi(A0, ZERO, 0);
    p = li(p, T0, 0x2000);
    *p++ = jalr(RA, T0, 0);           /* call 0x2000: a0 = 1 */
    p = li(p, T1, addi(A0, A0, 100)); /* the new instruction word */
    *p++ = sw(T1, T0, 0);             /* write it over 0x2000 */
    *p++ = with_fence ? FENCE_I : addi(ZERO, ZERO, 0);
    *p++ = jalr(RA, T0, 0); /* call again: a0 = 101 */
    *p++ = EBREAK;
    put(t, 0x1000, prog, (size_t)(p - prog));
    uint32_t routine[] = {addi(A0, A0, 1), jalr(ZERO, RA, 0)};
    put(t, 0x2000, routine, 2);
    tile_start_core(t, CORE_BRISC, 0x1000);
}

/* BRISC waits a while, then writes `a0 = 7` over the first word of NCRISC's loop and raises a
 * flag; NCRISC, which has been running that loop (so the old word is decoded), must leave it
 * with a0 = 7 (BRISC steps before NCRISC in a cycle, and the loop sets a0 before it reads the
 * flag). */
static void cross_core(tile_t *t) {
    uint32_t b[32], *p = b;
    *p++ = addi(T2, ZERO, 200);
    *p++ = addi(T2, T2, -1); /* spin 200 iterations */
    *p++ = bne(T2, ZERO, -4);
    p = li(p, T1, addi(A0, ZERO, 7));
    p = li(p, T0, 0x3000);
    *p++ = sw(T1, T0, 0); /* new code for NCRISC */
    *p++ = addi(T1, ZERO, 1);
    *p++ = sw(T1, ZERO, 0x200); /* flag */
    *p++ = EBREAK;
    put(t, 0x1000, b, (size_t)(p - b));
    uint32_t nc[] = {addi(A0, ZERO, 1), lw(T0, ZERO, 0x200), beq(T0, ZERO, -8), EBREAK};
    put(t, 0x3000, nc, 4);
    tile_start_core(t, CORE_BRISC, 0x1000);
    tile_start_core(t, CORE_NCRISC, 0x3000);
}

/* A hart swaps a new instruction into a routine with amoswap.w, then calls it. */
static void amo_code(tile_t *t) {
    uint32_t prog[32], *p = prog;
    *p++ = addi(A0, ZERO, 0);
    p = li(p, T0, 0x2000);
    *p++ = jalr(RA, T0, 0);
    p = li(p, T1, addi(A0, A0, 40));
    *p++ = amoswap(A2, T0, T1);
    *p++ = jalr(RA, T0, 0);
    *p++ = EBREAK;
    put(t, 0x1000, prog, (size_t)(p - prog));
    uint32_t routine[] = {addi(A0, A0, 2), jalr(ZERO, RA, 0)};
    put(t, 0x2000, routine, 2);
    tile_start_core(t, CORE_BRISC, 0x1000);
}

static void self_modifying_without_fence(void **state) {
    (void)state;
    for (int batch = 0; batch < 2; batch++) {
        tile_t *t = new_tile(false);
        self_modifying(t, false);
        run_tile(t, batch, 10000);
        assert_int_equal(t->hart[CORE_BRISC].state, HART_HALTED);
        assert_int_equal(t->hart[CORE_BRISC].x[A0], 101);
        tile_destroy(t);
    }
}

static void self_modifying_with_fence_i(void **state) {
    (void)state;
    tile_t *t = new_tile(false);
    self_modifying(t, true);
    run_tile(t, true, 10000);
    assert_int_equal(t->hart[CORE_BRISC].x[A0], 101);
    tile_destroy(t);
}

static void one_core_writes_code_another_runs(void **state) {
    (void)state;
    tile_t *t = new_tile(false);
    cross_core(t);
    run_tile(t, true, 100000);
    assert_int_equal(t->hart[CORE_NCRISC].state, HART_HALTED);
    assert_int_equal(t->hart[CORE_NCRISC].x[A0], 7);
    assert_true(t->hart[CORE_NCRISC].instret > 30); /* it did loop on the old word first */
    tile_destroy(t);
}

static void amo_over_code(void **state) {
    (void)state;
    tile_t *t = new_tile(false);
    amo_code(t);
    run_tile(t, true, 10000);
    assert_int_equal(t->hart[CORE_BRISC].x[A0], 42);
    assert_int_equal(t->hart[CORE_BRISC].x[A2], addi(A0, A0, 2));
    tile_destroy(t);
}

/* The host (loader, STOREREG, a run config's host write) rewrites decoded code between runs. */
static void host_write_over_decoded_code(void **state) {
    (void)state;
    tile_t *t = new_tile(false);
    uint32_t prog[] = {addi(A0, ZERO, 5), EBREAK};
    put(t, 0x1000, prog, 2);
    tile_start_core(t, CORE_BRISC, 0x1000);
    run_tile(t, true, 100);
    assert_int_equal(t->hart[CORE_BRISC].x[A0], 5);
    assert_int_not_equal(t->pd[0x1000 / 4].handler, 0); /* decoded */
    assert_true(tile_host_write(t, 0x1000, addi(A0, ZERO, 9)));
    assert_int_equal(t->pd[0x1000 / 4].handler, 0); /* dropped */
    tile_start_core(t, CORE_BRISC, 0x1000);
    run_tile(t, true, 200);
    assert_int_equal(t->hart[CORE_BRISC].x[A0], 9);
    /* A loader-style bulk write: memcpy into L1, then env_l1_written over the range. */
    tile_start_core(t, CORE_BRISC, 0x1000);
    run_tile(t, false, 300);
    uint32_t w = addi(A0, ZERO, 11);
    memcpy(t->l1 + 0x1000, &w, 4);
    env_l1_written(t, 0x0FFE, 8); /* unaligned range covering the word */
    tile_start_core(t, CORE_BRISC, 0x1000);
    run_tile(t, false, 400);
    assert_int_equal(t->hart[CORE_BRISC].x[A0], 11);
    tile_destroy(t);
}

/* A bulk write over many pages (a packer's output, a NoC write, a loaded image) drops the records
 * of the pages that hold decoded code and skips the rest (tile_t.pd_pages): code across a page
 * boundary, written over by one range that starts and ends in pages without code. */
static void bulk_write_across_pages(void **state) {
    (void)state;
    tile_t *t = new_tile(false);
    uint32_t prog[] = {addi(A0, ZERO, 1), addi(A0, A0, 2), addi(A0, A0, 4), EBREAK};
    put(t, 0x1FF8, prog, 4); /* two words in each of two pages */
    tile_start_core(t, CORE_BRISC, 0x1FF8);
    run_tile(t, true, 100);
    assert_int_equal(t->hart[CORE_BRISC].x[A0], 7);
    for (uint32_t a = 0x1FF8; a < 0x2008; a += 4)
        assert_int_not_equal(t->pd[a / 4].handler, 0);
    uint32_t w[] = {addi(A0, ZERO, 8), addi(A0, A0, 16)};
    memcpy(t->l1 + 0x1FFC, w, sizeof w); /* one word each side of the boundary */
    env_l1_written(t, 0x0800, 0x3000);
    for (uint32_t a = 0x1FF8; a < 0x2008; a += 4)
        assert_int_equal(t->pd[a / 4].handler, 0);
    tile_start_core(t, CORE_BRISC, 0x1FF8);
    run_tile(t, true, 200);
    assert_int_equal(t->hart[CORE_BRISC].x[A0], 8 + 16);
    tile_destroy(t);
}

/* Every program above, three ways (reference; fast lock-step; fast with run-ahead): the same
 * registers, pcs, states, instret, mcycle and stall counts, the same tile cycle and L1. */
static void same_both_ways(void **state) {
    (void)state;
    static void (*const setups[])(tile_t *) = {cross_core, amo_code};
    for (size_t s = 0; s < 3; s++) {
        tile_t *t[3];
        for (int way = 0; way < 3; way++) {
            t[way] = new_tile(way == 0);
            if (s < 2)
                setups[s](t[way]);
            else
                self_modifying(t[way], false);
            run_tile(t[way], way == 2, 100000);
        }
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
        for (int way = 0; way < 3; way++)
            tile_destroy(t[way]);
    }
}

/* Leaving L1: a core that runs off its last word, one that jumps far above it, one that branches
 * below address 0: the jump or the last instruction retires, the next fetch faults, the same way
 * on every path (the fast path has no per-instruction bound check: a record past L1's end and a
 * check in its jumps stand in for it). With two cores running, tile_run takes its lock-step
 * group path; with one, the run-ahead path. */
static void off_the_end(tile_t *t, int core) {
    uint32_t end[] = {addi(A0, A0, 1), addi(A0, A0, 2), addi(A0, A0, 3), addi(A0, A0, 4)};
    put(t, TILE_L1_SIZE - 16, end, 4);
    tile_start_core(t, core, TILE_L1_SIZE - 16);
}
static void far_jump(tile_t *t, int core) {
    uint32_t p[] = {lui(T0, 0x200), jalr(RA, T0, 0)};
    put(t, 0x1000, p, 2);
    tile_start_core(t, core, 0x1000);
}
static void below_zero(tile_t *t, int core) {
    uint32_t p[] = {addi(A0, ZERO, 1), beq(ZERO, ZERO, -8)};
    put(t, 0x0, p, 2);
    tile_start_core(t, core, 0x0);
}

static void leaving_l1(void **state) {
    (void)state;
    static void (*const setups[])(tile_t *, int) = {off_the_end, far_jump, below_zero};
    static const uint32_t fault_pc[] = {TILE_L1_SIZE, 0x200000, 0xFFFFFFFCu};
    for (size_t s = 0; s < 3; s++)
        for (int pair = 0; pair < 2; pair++) {
            tile_t *t[3];
            for (int way = 0; way < 3; way++) {
                t[way] = new_tile(way == 0);
                setups[s](t[way], CORE_TRISC1);
                if (pair) far_jump(t[way], CORE_BRISC); /* a second core: the group path */
                run_tile(t[way], way == 2, 1000);
            }
            for (int way = 0; way < 3; way++) {
                const hart_t *a = &t[0]->hart[CORE_TRISC1], *b = &t[way]->hart[CORE_TRISC1];
                assert_int_equal(b->state, HART_FAULTED);
                assert_int_equal(b->fault.kind, FAULT_FETCH);
                assert_int_equal(b->fault.pc, fault_pc[s]);
                assert_int_equal(b->pc, fault_pc[s]);
                if (way == 0) continue; /* the reference: the other ways must equal it */
                assert_memory_equal(a->x, b->x, sizeof a->x);
                assert_int_equal(a->instret, b->instret);
                assert_int_equal(a->cycle, b->cycle);
                assert_int_equal(t[way]->cycle, t[0]->cycle);
                assert_int_equal(t[way]->hart[CORE_BRISC].state, t[0]->hart[CORE_BRISC].state);
                assert_int_equal(t[way]->hart[CORE_BRISC].instret, t[0]->hart[CORE_BRISC].instret);
            }
            assert_int_equal(t[0]->hart[CORE_TRISC1].instret, s == 0 ? 4 : 2);
            for (int way = 0; way < 3; way++)
                tile_destroy(t[way]);
        }
}

/* x0 stays zero whatever writes it: lui, addi, a load and a jump with rd = x0 (the fast path sends
 * those writes to a sink rather than re-zeroing x0), each followed by a read of x0. Alone
 * (run-ahead), in a group (a second core spinning), and on the reference path. */
static void writes_to_x0(void **state) {
    (void)state;
    for (int pair = 0; pair < 2; pair++) {
        tile_t *t[3];
        for (int way = 0; way < 3; way++) {
            t[way] = new_tile(way == 0);
            uint32_t prog[16], *p = prog;
            p = li(p, T0, 0x1000 + 4 * 12); /* 2 words: where the jump goes */
            *p++ = lui(ZERO, 0x12345);      /* 2 */
            *p++ = addi(A0, ZERO, 1);       /* 3: a0 = 1 */
            *p++ = addi(ZERO, ZERO, 7);     /* 4 */
            *p++ = addi(A1, ZERO, 2);       /* 5: a1 = 2 */
            *p++ = lw(ZERO, T0, 0);         /* 6: the word at 0x1030 */
            *p++ = addi(A2, ZERO, 3);       /* 7: a2 = 3 */
            *p++ = jalr(ZERO, T0, 0);       /* 8: to 12 */
            *p++ = EBREAK;                  /* 9..11: skipped */
            *p++ = EBREAK;
            *p++ = EBREAK;
            *p++ = addi(T1, ZERO, 4); /* 12: t1 = 4 */
            *p++ = EBREAK;
            put(t[way], 0x1000, prog, (size_t)(p - prog));
            tile_start_core(t[way], CORE_BRISC, 0x1000);
            if (pair) { /* a second core spinning on itself: the group path */
                uint32_t spin[] = {beq(ZERO, ZERO, 0)};
                put(t[way], 0x3000, spin, 1);
                tile_start_core(t[way], CORE_NCRISC, 0x3000);
            }
            run_tile(t[way], way == 2, 200);
            const hart_t *h = &t[way]->hart[CORE_BRISC];
            assert_int_equal(h->state, HART_HALTED);
            assert_int_equal(h->x[ZERO], 0);
            assert_int_equal(h->x[A0], 1);
            assert_int_equal(h->x[A1], 2);
            assert_int_equal(h->x[A2], 3);
            assert_int_equal(h->x[T1], 4);
            assert_int_equal(h->instret, t[0]->hart[CORE_BRISC].instret);
        }
        for (int way = 0; way < 3; way++)
            tile_destroy(t[way]);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(writes_to_x0),
        cmocka_unit_test(self_modifying_without_fence),
        cmocka_unit_test(self_modifying_with_fence_i),
        cmocka_unit_test(one_core_writes_code_another_runs),
        cmocka_unit_test(amo_over_code),
        cmocka_unit_test(host_write_over_decoded_code),
        cmocka_unit_test(bulk_write_across_pages),
        cmocka_unit_test(same_both_ways),
        cmocka_unit_test(leaving_l1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
