/* loader/run.c — the cycle loop and its end conditions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/run.h"

void run_free(run_t *r) {
    for (int i = 0; i < r->nreads; i++) free(r->reads[i].val);
    ldr_set_free(&r->images);
    tile_destroy(r->tile);
    r->tile = NULL;
}

static void set_exit(run_t *r, int code, const char *reason) {
    r->exit.code = code;
    r->exit.reason = reason;
}

/* "guest fault on BRISC at pc 0x00010024 (insn 0x00000073): ecall; in main+0x14 of x.elf" */
static void describe_fault(run_t *r, int c) {
    const hart_t *h = &r->tile->hart[c];
    char sym[128];
    report_symbol(r, c, h->fault.pc, sym, sizeof sym);
    const char *img = r->images.images[c].path;
    int n = snprintf(r->exit.message, sizeof r->exit.message, "guest fault on %s at pc 0x%08x (insn 0x%08x): %s",
                     h->name, h->fault.pc, h->fault.insn, h->fault.msg);
    if (img && n > 0 && (size_t)n < sizeof r->exit.message)
        snprintf(r->exit.message + n, sizeof r->exit.message - (size_t)n, "; in %s%s%s", sym, *sym ? " of " : "", img);
}

/* Returns true when the run is over. */
static bool check_end(run_t *r) {
    tile_t *t = r->tile;
    int started = 0, halted = 0, hung = 0;
    for (int c = 0; c < TILE_NCORES; c++) {
        const hart_t *h = &t->hart[c];
        if (h->state == HART_FAULTED) {
            set_exit(r, EXIT_GUEST_FAULT, "guest_fault");
            describe_fault(r, c);
            return true;
        }
        if (!t->started[c] || h->state == HART_RESET) continue;
        started++;
        halted += h->state == HART_HALTED;
        hung += h->state == HART_HUNG;
    }
    const char *cperr = cp_error(t->cp);
    if (cperr) {
        set_exit(r, EXIT_GUEST_FAULT, "guest_fault");
        snprintf(r->exit.message, sizeof r->exit.message, "guest fault in the Tensix coprocessor: %s", cperr);
        return true;
    }
    if (started == 0) return false;
    if (halted == started) {
        set_exit(r, EXIT_HALTED, "halted");
        snprintf(r->exit.message, sizeof r->exit.message, "all %d started cores halted", started);
        return true;
    }
    if (halted + hung == started) {
        /* Every core is stopped for good and at least one hangs: nothing can change any more
         * (the coprocessor cannot wake a hung core). */
        bool idle = true;
        for (unsigned th = 0; th < CP_THREADS; th++) idle = idle && cp_thread_idle(t->cp, th);
        if (idle) {
            set_exit(r, EXIT_DEADLOCK, "deadlock");
            int n = snprintf(r->exit.message, sizeof r->exit.message, "no core can make progress:");
            for (int c = 0; c < TILE_NCORES && n > 0 && (size_t)n < sizeof r->exit.message; c++)
                if (t->hart[c].state == HART_HUNG)
                    n += snprintf(r->exit.message + n, sizeof r->exit.message - (size_t)n, " %s hung (%s);",
                                  t->hart[c].name, t->hart[c].hang_reason);
            return true;
        }
    }
    return false;
}

void run_loop(run_t *r, uint64_t max_cycles, run_hook_t hook, void *ctx) {
    tile_t *t = r->tile;
    if (check_end(r) || (hook && hook(r, ctx))) return;
    while (t->cycle < max_cycles) {
        tile_cycle(t);
        if (check_end(r) || (hook && hook(r, ctx))) return;
    }
    set_exit(r, EXIT_MAX_CYCLES, "max_cycles");
    snprintf(r->exit.message, sizeof r->exit.message, "stopped at --max-cycles %llu", (unsigned long long)max_cycles);
}
