/* run/run.c — the cycle loop and its end conditions. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "coproc/cp_views.h"
#include "coproc/tt_ops.h"
#include "run/run.h"

bool run_parse_uint(const char *s, uint64_t max, uint64_t *out) {
    if (!s) return false;
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *digits = hex ? s + 2 : s;
    /* strtoull alone would skip blanks, take a sign (and wrap it) and read "010" as octal */
    if (!(hex ? isxdigit((unsigned char)digits[0]) : isdigit((unsigned char)digits[0]))) return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(digits, &end, hex ? 16 : 10);
    if (errno || *end || v > max) return false;
    *out = v;
    return true;
}

static bool parse_u32(const char *s, uint32_t *out) {
    uint64_t v;
    if (!run_parse_uint(s, 0xFFFFFFFFull, &v)) return false;
    *out = (uint32_t)v;
    return true;
}

bool run_parse_peek(const char *s, run_peek_t *p) {
    char buf[64];
    if (snprintf(buf, sizeof buf, "%s", s) >= (int)sizeof buf) return false;
    char *colon = strchr(buf, ':');
    uint32_t addr, words = 1;
    if (colon) {
        *colon = 0;
        if (!parse_u32(colon + 1, &words) || words == 0 || words > 4096) return false;
    }
    if (!parse_u32(buf, &addr) || (addr & 3)) return false;
    p->addr = addr;
    p->words = words;
    return true;
}

bool run_host_readable(tile_t *t, uint32_t addr, uint32_t words, uint32_t *bad) {
    for (uint32_t w = 0; w < words; w++) {
        uint32_t v;
        if (!tile_host_read(t, addr + 4 * w, &v)) {
            *bad = addr + 4 * w;
            return false;
        }
    }
    return true;
}

int run_add_peeks(run_t *r, const run_peek_t *peeks, int n, char *err, size_t errlen) {
    for (int i = 0; i < n; i++) {
        uint32_t bad;
        /* A peek's address is its key in the report: two at one address would write it twice. */
        for (int j = 0; j < r->npeeks; j++)
            if (r->peeks[j].addr == peeks[i].addr) {
                snprintf(err, errlen, "--peek 0x%08x given twice (give it once, with the most words)", peeks[i].addr);
                return -1;
            }
        if (r->npeeks == RUN_MAX_PEEKS) {
            snprintf(err, errlen, "more than %d peeks", RUN_MAX_PEEKS);
            return -1;
        }
        if (!run_host_readable(r->tile, peeks[i].addr, peeks[i].words, &bad)) {
            snprintf(err, errlen, "--peek 0x%08x: address 0x%08x is not readable by the host (%s)", peeks[i].addr, bad,
                     tile_region_name(bad));
            return -1;
        }
        run_read_t *p = &r->peeks[r->npeeks++];
        snprintf(p->name, sizeof p->name, "0x%08x", peeks[i].addr);
        p->addr = peeks[i].addr;
        p->words = peeks[i].words;
        p->val = calloc(p->words, sizeof *p->val);
        if (!p->val) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

void run_take_peeks(run_t *r) {
    for (int i = 0; i < r->npeeks; i++) {
        run_read_t *p = &r->peeks[i];
        for (uint32_t w = 0; w < p->words; w++)
            tile_host_read(r->tile, p->addr + 4 * w, &p->val[w]);
        p->taken = true;
    }
}

void run_symbol(const run_t *r, int c, uint32_t pc, char *buf, size_t len) { img_symbol(&r->images, c, pc, buf, len); }

void run_free(run_t *r) {
    for (int i = 0; i < r->npeeks; i++)
        free(r->peeks[i].val);
    free(r->progress.snap);
    r->progress.snap = NULL;
    cJSON_Delete(r->diag_json);
    r->diag_json = NULL;
    free(r->diag_text);
    r->diag_text = NULL;
    cJSON_Delete(r->tensors_json);
    r->tensors_json = NULL;
    for (int i = 0; i < r->nreads; i++)
        free(r->reads[i].val);
    free(r->reads);
    r->reads = NULL;
    img_set_free(&r->images);
    tile_destroy(r->tile);
    r->tile = NULL;
}

static void set_exit(run_t *r, int code, const char *reason) {
    r->exit.code = code;
    r->exit.reason = reason;
    r->exit.category = NULL;
}

const char *run_fault_category(fault_kind_t kind) {
    static const char *const names[] = {
        [FAULT_NONE] = "none",
        [FAULT_ILLEGAL] = "illegal",
        [FAULT_ECALL] = "ecall",
        [FAULT_FETCH] = "fetch",
        [FAULT_UNMAPPED] = "unmapped",
        [FAULT_ACCESS] = "access",
        [FAULT_MISALIGNED] = "misaligned",
        [FAULT_AMO] = "amo",
        [FAULT_CSR] = "csr",
        [FAULT_UNIMPLEMENTED] = "unimplemented",
    };
    return (unsigned)kind < sizeof names / sizeof names[0] && names[kind] ? names[kind] : "?";
}

/* "; in main+0x14 of x.elf" (or "; in x.elf" without symbols), appended to buf's first n bytes. */
static void append_where(const run_t *r, int c, uint32_t pc, char *buf, size_t len, int n) {
    const char *img = c >= 0 && c < TILE_NCORES ? r->images.images[c].path : NULL;
    if (!img || n < 0 || (size_t)n >= len) return;
    char sym[128];
    run_symbol(r, c, pc, sym, sizeof sym);
    snprintf(buf + n, len - (size_t)n, "; in %s%s%s", sym, *sym ? " of " : "", img);
}

/* "guest fault on BRISC at pc 0x00010024 (insn 0x00000073): ecall; in main+0x14 of x.elf", or for
 * ttemu's gap "not modelled by ttemu on BRISC at pc ...: F/Zfh (op-fp) is on Blackhole's BRISC,
 * but ttemu does not model it yet; in ..." (exit 6). */
static void describe_fault(run_t *r, int c) {
    const hart_t *h = &r->tile->hart[c];
    bool gap = h->fault.kind == FAULT_UNIMPLEMENTED;
    int n = snprintf(r->exit.message, sizeof r->exit.message, "%s on %s at pc 0x%08x (insn 0x%08x): %s",
                     gap ? "not modelled by ttemu" : "guest fault", h->name, h->fault.pc, h->fault.insn, h->fault.msg);
    append_where(r, c, h->fault.pc, r->exit.message, sizeof r->exit.message, n);
}

/* "guest fault in the Tensix coprocessor, thread T1 (THCON): LOADREG from unmapped 0xffb90b88
 * [unmapped]; word 0x68... (LOADREG ...) pushed by TRISC1 at pc 0x00040010; in main+0x10 of x.elf"
 * — or "not modelled by ttemu in the Tensix coprocessor, ..." for ttemu's gap (exit 6). */
static void describe_cp_error(run_t *r, const cp_error_t *e) {
    char dis[96];
    tt_disasm(e->word, dis, sizeof dis);
    int n = snprintf(r->exit.message, sizeof r->exit.message,
                     "%s in the Tensix coprocessor, thread T%u (%s): %s [%s]; word 0x%08x (%s) pushed by ",
                     cp_err_is_gap(e->cat) ? "not modelled by ttemu" : "guest fault", e->thread,
                     tt_unit_name((tt_unit_t)e->unit), e->what, cp_err_cat_name(e->cat), e->word, dis);
    if (n < 0 || (size_t)n >= sizeof r->exit.message) return;
    int c = e->origin.core;
    if (c < 0 || c >= TILE_NCORES) {
        snprintf(r->exit.message + n, sizeof r->exit.message - (size_t)n, "the host");
        return;
    }
    n += snprintf(r->exit.message + n, sizeof r->exit.message - (size_t)n, "%s at pc 0x%08x", tile_core_names[c],
                  e->origin.pc);
    append_where(r, c, e->origin.pc, r->exit.message, sizeof r->exit.message, n);
}

/* Returns true when the run is over. */
static bool check_end(run_t *r) {
    tile_t *t = r->tile;
    int started = 0, halted = 0, hung = 0;
    for (int c = 0; c < TILE_NCORES; c++) {
        const hart_t *h = &t->hart[c];
        if (h->state == HART_FAULTED) {
            if (h->fault.kind == FAULT_UNIMPLEMENTED)
                set_exit(r, EXIT_UNIMPLEMENTED, "unimplemented");
            else
                set_exit(r, EXIT_GUEST_FAULT, "guest_fault");
            r->exit.category = run_fault_category(h->fault.kind);
            describe_fault(r, c);
            return true;
        }
        if (!t->started[c] || h->state == HART_RESET) continue;
        started++;
        halted += h->state == HART_HALTED;
        hung += h->state == HART_HUNG;
    }
    const cp_error_t *cperr = cp_fault(t->cp);
    if (cperr) {
        if (cp_err_is_gap(cperr->cat))
            set_exit(r, EXIT_UNIMPLEMENTED, "unimplemented");
        else
            set_exit(r, EXIT_GUEST_FAULT, "guest_fault");
        r->exit.category = cp_err_cat_name(cperr->cat);
        describe_cp_error(r, cperr);
        return true;
    }
    if (started == 0) return false;
    /* Packets in flight still land (DRAM, L1, counters): the run goes on until they have. */
    if (!noc_idle(&t->noc)) return false;
    if (halted == started) {
        /* The coprocessor may still be working off what the cores pushed: a word in a FIFO, an
         * expansion, a held instruction or a unit still executing keeps the run going until every
         * thread has drained (CoprocessorDoneCheck), so an exit 0 never leaves work behind. A word
         * that can never issue makes no progress, and progress detection ends the run as a
         * deadlock with the diagnosis naming it (issue 20). */
        for (unsigned th = 0; th < CP_THREADS; th++)
            if (!cp_thread_idle(t->cp, th)) return false;
        set_exit(r, EXIT_HALTED, "halted");
        snprintf(r->exit.message, sizeof r->exit.message, "all %d started cores halted", started);
        return true;
    }
    if (halted + hung == started) {
        /* Every core is stopped for good and at least one hangs: nothing can change any more
         * (the coprocessor cannot wake a hung core). */
        bool idle = true;
        for (unsigned th = 0; th < CP_THREADS; th++)
            idle = idle && cp_thread_idle(t->cp, th);
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

/* ---- progress detection ----------------------------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h;
}

/* Everything but memory that changes when anything makes progress. Not instret or stall
 * counters: a spinning core retires instructions, a held instruction counts stall cycles. */
static uint64_t fingerprint(const tile_t *t) {
    uint64_t h = mix(0, t->progress);
    for (int c = 0; c < TILE_NCORES; c++)
        h = mix(h, (uint64_t)t->hart[c].state << 1 | t->started[c]);
    for (unsigned th = 0; th < CP_THREADS; th++) {
        const cp_stats_t *st = cp_stats(t->cp, th);
        h = mix(h, st->pushed);
        h = mix(h, st->issued);
        h = mix(h, st->consumed);
        h = mix(h, st->sem_writes);
        h = mix(h, cp_thread_idle(t->cp, th));
    }
    for (unsigned i = 0; i < CP_NUM_SEMS; i++)
        h = mix(h, cp_sem_read(t->cp, i) << 4 | cp_sem_max(t->cp, i));
    for (unsigned i = 0; i < 5; i++)
        h = mix(h, (uint64_t)(cp_mutex_holder(t->cp, i) + 1));
    return h;
}

static size_t mem_size(const tile_t *t) {
    size_t n = TILE_L1_SIZE;
    for (int c = 0; c < TILE_NCORES; c++)
        n += t->ldm_size[c];
    return n;
}

/* Copies memory into the snapshot (copy) or compares it (returns true when it differs). */
static bool mem_pass(run_progress_t *p, const tile_t *t, bool copy) {
    uint8_t *s = p->snap;
    bool differs = false;
    if (copy)
        memcpy(s, t->l1, TILE_L1_SIZE);
    else
        differs = memcmp(s, t->l1, TILE_L1_SIZE) != 0;
    s += TILE_L1_SIZE;
    for (int c = 0; c < TILE_NCORES && !differs; c++) {
        if (copy)
            memcpy(s, t->ldm[c], t->ldm_size[c]);
        else
            differs = memcmp(s, t->ldm[c], t->ldm_size[c]) != 0;
        s += t->ldm_size[c];
    }
    return differs;
}

static void pcs_reset(run_progress_t *p) {
    for (int c = 0; c < TILE_NCORES; c++)
        p->pc_valid[c] = false;
}

static void pcs_sample(run_progress_t *p, const tile_t *t) {
    for (int c = 0; c < TILE_NCORES; c++) {
        const hart_t *h = &t->hart[c];
        if (h->state != HART_RUNNING) continue;
        if (!p->pc_valid[c]) {
            p->pc_lo[c] = p->pc_hi[c] = h->pc;
            p->pc_valid[c] = true;
        }
        if (h->pc < p->pc_lo[c]) p->pc_lo[c] = h->pc;
        if (h->pc > p->pc_hi[c]) p->pc_hi[c] = h->pc;
    }
}

/* Returns true when nothing has changed for the whole window: the run is deadlocked. */
/* True if a running core is at a pc sampled before during this quiet period with different
 * register values: it computes, it does not spin (noted in regs_changed_at for the diagnosis).
 * Otherwise remembers (pc, registers). */
static bool regs_progress(run_progress_t *p, const tile_t *t) {
    for (int c = 0; c < TILE_NCORES; c++) {
        const hart_t *h = &t->hart[c];
        if (h->state != HART_RUNNING) continue;
        uint64_t hash = 1469598103934665603ull; /* FNV-1a over x1..x31 */
        for (int i = 1; i < 32; i++)
            hash = (hash ^ h->x[i]) * 1099511628211ull;
        for (int k = 0; k < p->rh_n[c]; k++)
            if (p->rh_pc[c][k] == h->pc) {
                if (p->rh_hash[c][k] != hash) {
                    p->regs_changed_at[c] = t->cycle ? t->cycle : 1;
                    return true;
                }
                goto next;
            }
        {
            int k = p->rh_n[c] < RUN_REG_SAMPLES ? p->rh_n[c]++ : p->rh_next[c]++ % RUN_REG_SAMPLES;
            p->rh_pc[c][k] = h->pc;
            p->rh_hash[c][k] = hash;
        }
    next:;
    }
    return false;
}

static void regs_reset(run_progress_t *p) {
    memset(p->rh_n, 0, sizeof p->rh_n);
    memset(p->rh_next, 0, sizeof p->rh_next);
}

static bool progress_check(run_t *r) {
    run_progress_t *p = &r->progress;
    tile_t *t = r->tile;
    p->next_check = t->cycle + RUN_PROGRESS_PERIOD;
    /* Between two checks run_loop only calls tile_run unless a hook or an observer runs; if the
     * tile was not touched but by a lone core that kept running (tile_t.touches), nothing the
     * fingerprint covers changed: it is the last check's, p->fp. */
    uint64_t fp = p->fp_valid && t->touches == p->fp_touches ? p->fp : fingerprint(t);
    p->fp_touches = t->touches;
    p->fp_valid = !r->nobs && !p->hooked;
    if (fp != p->fp || p->quiet_since == 0 || regs_progress(p, t)) {
        p->fp = fp;
        p->quiet_since = t->cycle ? t->cycle : 1;
        p->mem_since = 0;
        pcs_reset(p);
        regs_reset(p);
        return false;
    }
    pcs_sample(p, t);
    if (p->suspended) return false;
    uint64_t quiet = t->cycle - p->quiet_since;
    if (!p->mem_since) {
        /* Memory is compared over the second half of the window only: a snapshot costs a copy of
         * L1, so it is not taken each time the cheap signals go quiet for a moment. */
        if (quiet < p->window / 2) return false;
        if (!p->snap) {
            p->snap_size = mem_size(t);
            p->snap = malloc(p->snap_size);
            if (!p->snap) return false;
        }
        mem_pass(p, t, true);
        p->mem_since = t->cycle;
        return false;
    }
    if (quiet < p->window || t->cycle - p->mem_since < p->window / 2) return false;
    if (mem_pass(p, t, false)) { /* a store changed memory: progress; look again */
        mem_pass(p, t, true);
        p->mem_since = t->cycle;
        p->quiet_since = t->cycle;
        pcs_reset(p);
        regs_reset(p);
        return false;
    }
    return true;
}

static void set_deadlock(run_t *r) {
    run_progress_t *p = &r->progress;
    set_exit(r, EXIT_DEADLOCK, "deadlock");
    snprintf(r->exit.message, sizeof r->exit.message,
             "no progress for %llu cycles (no store, push, issue or semaphore change since cycle %llu)",
             (unsigned long long)(r->tile->cycle - p->quiet_since), (unsigned long long)p->quiet_since);
}

run_observer_t *run_observe(run_t *r, uint64_t (*after)(run_t *, void *), void (*end)(run_t *, void *), void *ctx) {
    if (r->nobs == RUN_MAX_OBSERVERS) return NULL;
    r->obs[r->nobs] = (run_observer_t){.after = after, .end = end, .ctx = ctx};
    return &r->obs[r->nobs++];
}

/* The five cores' states in one word (run_observer_t.on_core_change). */
static uint32_t core_states(const tile_t *t) {
    uint32_t s = 0;
    for (int c = 0; c < TILE_NCORES; c++)
        s |= (uint32_t)t->hart[c].state << (4 * c);
    return s;
}

/* Call the observers whose cycle has come; true when one ends the run. */
static bool observe(run_t *r) {
    uint32_t states = core_states(r->tile);
    for (int i = 0; i < r->nobs; i++) {
        run_observer_t *o = &r->obs[i];
        bool changed = o->on_core_change && states != o->seen;
        if (!o->after || (r->tile->cycle < o->next && !changed)) continue;
        uint64_t n = o->after(r, o->ctx);
        o->seen = states = core_states(r->tile);
        if (!n) return true;
        o->next = r->tile->cycle + n;
    }
    return false;
}

static bool call_hook(run_t *r, run_hook_t hook, void *ctx) {
    if (!hook) return false;
    r->hook_quiet_until = 0;
    r->hook_nwatch = 0;
    return hook(r, ctx);
}

void run_loop(run_t *r, uint64_t max_cycles, run_hook_t hook, void *ctx) {
    tile_t *t = r->tile;
    run_progress_t *p = &r->progress;
    p->next_check = p->window ? t->cycle + RUN_PROGRESS_PERIOD : UINT64_MAX;
    p->fp_valid = false; /* the caller may have changed the tile since */
    p->hooked = hook != NULL;
    for (int i = 0; i < r->nobs; i++)
        r->obs[i].next = 0;
    if (check_end(r) || call_hook(r, hook, ctx) || observe(r)) goto done;
    while (t->cycle < max_cycles) {
        if (hook && (t->reference || r->hook_quiet_until <= t->cycle + 1)) {
            tile_cycle(t); /* the hook watches every cycle */
        } else {
            /* tile_run returns after any cycle in which a core's state changed (or the
             * coprocessor reported an error), so check_end sees every state it would see cycle
             * by cycle; batches stop at the next progress check and the next observer call. */
            uint64_t until = p->next_check < max_cycles ? p->next_check : max_cycles;
            if (hook && r->hook_quiet_until < until) until = r->hook_quiet_until;
            for (int i = 0; i < r->nobs; i++)
                if (r->obs[i].after && r->obs[i].next < until) until = r->obs[i].next;
            /* The hook reacts to its words only: the batch ends after a cycle that changes one. */
            if (hook && r->hook_nwatch) tile_watch_arm(t, r->hook_watch, r->hook_nwatch);
            tile_run(t, until > t->cycle ? until - t->cycle : 1);
            tile_watch_disarm(t);
        }
        if (check_end(r) || call_hook(r, hook, ctx) || observe(r)) goto done;
        if (t->cycle >= p->next_check && progress_check(r)) {
            set_deadlock(r);
            goto done;
        }
    }
    set_exit(r, EXIT_MAX_CYCLES, "max_cycles");
    snprintf(r->exit.message, sizeof r->exit.message, "stopped at --max-cycles %llu", (unsigned long long)max_cycles);
done:
    if ((r->exit.code == EXIT_DEADLOCK || r->exit.code == EXIT_MAX_CYCLES) && r->explain) r->explain(r);
    for (int i = 0; i < r->nobs; i++)
        if (r->obs[i].end) r->obs[i].end(r, r->obs[i].ctx);
}
