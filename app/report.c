/* app/report.c — the JSON report (format: docs/report-format.md, versioned) and the
 * one-screen summary. Both are functions of the tile's final state only, so two runs of the same
 * inputs give byte-identical reports. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/report.h"
#include "coproc/cp_views.h"
#include "coproc/tt_fields.h"
#include "coproc/tt_ops.h"
#include "loader/tensor.h"
#include "run/utf8.h"
#include "run/run.h"

#define REPORT_VERSION 1

static const char *const state_names[] = {
    [HART_RESET] = "reset", [HART_RUNNING] = "running", [HART_HALTED] = "halted",
    [HART_HUNG] = "hung",   [HART_FAULTED] = "faulted",
};

static cJSON *core_json(const run_t *r, int c) {
    const hart_t *h = &r->tile->hart[c];
    cJSON *o = cJSON_CreateObject();
    char sym[128];
    run_symbol(r, c, h->pc, sym, sizeof sym);
    cJSON_AddStringToObject(o, "name", h->name);
    cJSON_AddStringToObject(o, "state", state_names[h->state]);
    cJSON_AddNumberToObject(o, "pc", h->pc);
    cJSON_AddStringToObject(o, "symbol", sym);
    cJSON_AddNumberToObject(o, "instret", (double)h->instret);
    cJSON_AddNumberToObject(o, "stall_cycles", (double)h->stall_cycles);
    if (r->images.images[c].path) cJSON_AddStringToObject(o, "image", r->images.images[c].path);
    if (h->state == HART_FAULTED) {
        cJSON *f = cJSON_AddObjectToObject(o, "fault");
        cJSON_AddNumberToObject(f, "pc", h->fault.pc);
        cJSON_AddNumberToObject(f, "insn", h->fault.insn);
        if (h->fault.has_addr) cJSON_AddNumberToObject(f, "addr", h->fault.addr);
        cJSON_AddStringToObject(f, "message", h->fault.msg);
    }
    if (h->state == HART_HUNG) cJSON_AddStringToObject(o, "hang_reason", h->hang_reason);
    return o;
}

/* A Tensix instruction word in the report: "word", "disasm", then who pushed it ("pushed_by",
 * "push_pc", "push_symbol"; pushed_by null for the host or a test). */
static void add_pushed_word(const run_t *r, cJSON *o, uint32_t word, cp_origin_t origin) {
    char buf[128];
    cJSON_AddNumberToObject(o, "word", word);
    tt_disasm(word, buf, sizeof buf);
    cJSON_AddStringToObject(o, "disasm", buf);
    if (origin.core >= 0 && origin.core < TILE_NCORES) {
        cJSON_AddStringToObject(o, "pushed_by", tile_core_names[origin.core]);
        cJSON_AddNumberToObject(o, "push_pc", origin.pc);
        run_symbol(r, origin.core, origin.pc, buf, sizeof buf);
        cJSON_AddStringToObject(o, "push_symbol", buf);
    } else {
        cJSON_AddNullToObject(o, "pushed_by");
    }
}

/* threads[].stalls.longest: the top stalls with the pushing core's pc and symbol. */
static void add_longest_stalls(const run_t *r, cJSON *threads) {
    for (unsigned t = 0; t < CP_THREADS; t++) {
        cJSON *stalls = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(threads, (int)t), "stalls");
        if (!stalls) continue;
        cp_stall_t top[CP_LONGEST_STALLS];
        unsigned n = cp_longest_stalls(r->tile->cp, t, top);
        cJSON *arr = cJSON_AddArrayToObject(stalls, "longest");
        for (unsigned i = 0; i < n; i++) {
            const cp_stall_t *s = &top[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(arr, o);
            char buf[128];
            cJSON_AddNumberToObject(o, "start_cycle", (double)s->start);
            cJSON_AddNumberToObject(o, "cycles", (double)s->cycles);
            cJSON_AddBoolToObject(o, "ongoing", s->ongoing);
            cJSON_AddStringToObject(o, "cause", cp_hold_name(s->cause));
            cp_hold_label(s->cause, s->detail, buf, sizeof buf);
            cJSON_AddStringToObject(o, "on", buf);
            add_pushed_word(r, o, s->word, s->origin);
        }
    }
}

/* threads[].waits: each wait instruction (by word and place pushed) with how often it latched and
 * how many cycles it held its thread (docs/report-format.md). */
static cJSON *wait_site_json(const run_t *r, const cp_wait_site_t *w) {
    cJSON *o = cJSON_CreateObject();
    add_pushed_word(r, o, w->word, w->origin);
    cJSON_AddNumberToObject(o, "latched", (double)w->latched);
    cJSON_AddNumberToObject(o, "held_cycles", (double)w->held_cycles);
    return o;
}

static void add_wait_sites(const run_t *r, cJSON *threads) {
    for (unsigned t = 0; t < CP_THREADS; t++) {
        cJSON *th = cJSON_GetArrayItem(threads, (int)t);
        if (!th) continue;
        const cp_stats_t *st = cp_stats(r->tile->cp, t);
        cJSON *arr = cJSON_AddArrayToObject(th, "waits");
        for (unsigned i = 0; i < st->nwaits; i++)
            cJSON_AddItemToArray(arr, wait_site_json(r, &st->waits[i]));
        if (st->waits_other.latched) {
            cJSON *o = cJSON_AddObjectToObject(th, "waits_other");
            cJSON_AddNumberToObject(o, "latched", (double)st->waits_other.latched);
            cJSON_AddNumberToObject(o, "held_cycles", (double)st->waits_other.held_cycles);
        }
    }
}

/* ---- the coprocessor's part: "threads", "semaphores", "mutexes" (docs/coprocessor.md) --------- */

static cJSON *wait_json(const cp_wait_t *w) {
    if (!w->active) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    char dis[96];
    cJSON_AddStringToObject(o, "opcode", cp_wait_name(w));
    cJSON_AddNumberToObject(o, "word", w->word);
    tt_disasm(w->word, dis, sizeof dis);
    cJSON_AddStringToObject(o, "disasm", dis);
    cJSON_AddNumberToObject(o, "cond_mask", w->cond_mask);
    cJSON_AddNumberToObject(o, "block_mask", w->block_mask);
    cJSON_AddNumberToObject(o, "gate_mask", w->gate_mask);
    if (w->opcode == TT_OPC_SEMWAIT) cJSON_AddNumberToObject(o, "sem_mask", w->sem_mask);
    if (w->opcode == TT_OPC_STREAMWAIT) {
        cJSON_AddNumberToObject(o, "stream_sel", w->stream_sel);
        cJSON_AddNumberToObject(o, "target", w->target);
    }
    cJSON_AddNumberToObject(o, "since_cycle", (double)w->since);
    return o;
}

static void add_counts(cJSON *parent, const char *key, const uint64_t *v, unsigned n, const char *prefix) {
    cJSON *o = cJSON_AddObjectToObject(parent, key);
    char name[24];
    for (unsigned i = 0; i < n; i++) {
        snprintf(name, sizeof name, "%s%u", prefix, i);
        cJSON_AddNumberToObject(o, name, (double)v[i]);
    }
}

void report_coproc(const cp_t *cp, cJSON *obj) {
    cJSON *threads = cJSON_AddArrayToObject(obj, "threads");
    for (unsigned t = 0; t < CP_THREADS; t++) {
        const cp_stats_t *st = cp_stats(cp, t);
        cp_thread_state_t s;
        cp_thread_state(cp, t, &s);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(threads, o);
        cJSON_AddNumberToObject(o, "thread", t);
        cJSON_AddNumberToObject(o, "pushed", (double)st->pushed);
        cJSON_AddNumberToObject(o, "issued", (double)st->issued);
        cJSON_AddNumberToObject(o, "consumed", (double)st->consumed);
        if (st->issued)
            cJSON_AddNumberToObject(o, "last_issue_cycle", (double)st->last_issue_cycle);
        else
            cJSON_AddNullToObject(o, "last_issue_cycle");
        cJSON_AddNumberToObject(o, "fifo_high_water", st->fifo_high_water);
        cJSON_AddNumberToObject(o, "fifo2_high_water", st->fifo2_high_water);
        cJSON *fp = cJSON_AddArrayToObject(o, "first_pushed");
        for (uint64_t i = 0; i < st->pushed && i < CP_FIRST_PUSHED; i++)
            cJSON_AddItemToArray(fp, cJSON_CreateNumber(st->first_pushed[i]));
        cJSON_AddNumberToObject(o, "sem_writes", (double)st->sem_writes);
        cJSON_AddBoolToObject(o, "idle", cp_thread_idle(cp, t));

        cJSON *stalls = cJSON_AddObjectToObject(o, "stalls");
        cJSON_AddNumberToObject(stalls, "total", (double)st->stall_total);
        cJSON *bc = cJSON_AddObjectToObject(stalls, "by_cause");
        for (unsigned h = CP_HOLD_NONE + 1; h < CP_HOLD_COUNT; h++)
            cJSON_AddNumberToObject(bc, cp_hold_name((cp_hold_t)h), (double)st->stall_cause[h]);
        add_counts(stalls, "cond", st->stall_cond, 13, "C");
        add_counts(stalls, "sem", st->stall_sem, CP_NUM_SEMS, "");
        cJSON *mx = cJSON_AddObjectToObject(stalls, "mutex");
        for (unsigned k = 0; k < CP_MUTEXES; k++) {
            char name[4];
            snprintf(name, sizeof name, "%u", cp_mutex_index[k]);
            cJSON_AddNumberToObject(mx, name, (double)st->stall_mutex[cp_mutex_index[k]]);
        }
        cJSON_AddNumberToObject(stalls, "mutex_invalid", (double)st->stall_mutex_invalid);
        cJSON_AddNumberToObject(stalls, "stream", (double)st->stall_stream);
        cJSON_AddNumberToObject(stalls, "wait_release_lag", (double)st->stall_lag);
        cJSON_AddNumberToObject(stalls, "sync_slot", (double)st->stall_sync_slot);
        cJSON *un = cJSON_AddObjectToObject(stalls, "unit");
        for (unsigned u = 0; u < TT_UNIT_COUNT; u++)
            if (st->stall_unit[u]) cJSON_AddNumberToObject(un, tt_unit_name((tt_unit_t)u), (double)st->stall_unit[u]);
        cJSON_AddNumberToObject(stalls, "undefined_opcode", (double)st->stall_undefined);

        cJSON_AddItemToObject(o, "latched_wait", wait_json(&s.wait));
        if (s.held) {
            cJSON *h = cJSON_AddObjectToObject(o, "held");
            char buf[160];
            cJSON_AddNumberToObject(h, "word", s.held_word);
            tt_disasm(s.held_word, buf, sizeof buf);
            cJSON_AddStringToObject(h, "disasm", buf);
            cJSON_AddStringToObject(h, "cause", cp_hold_name(s.hold));
            cJSON_AddNumberToObject(h, "detail", s.hold_detail);
            cp_hold_why(&s, buf, sizeof buf);
            cJSON_AddStringToObject(h, "why", buf);
        } else {
            cJSON_AddNullToObject(o, "held");
        }
        cJSON *fifo = cJSON_AddObjectToObject(o, "frontend");
        cJSON_AddNumberToObject(fifo, "fifo1", s.fifo1);
        cJSON_AddNumberToObject(fifo, "fifo2", s.fifo2);
        cJSON_AddNumberToObject(fifo, "fifo3", s.fifo3);
        cJSON_AddBoolToObject(fifo, "mop_busy", s.mop_busy);
        cJSON_AddBoolToObject(fifo, "replay_busy", s.replay_busy);
    }

    cJSON *sems = cJSON_AddArrayToObject(obj, "semaphores");
    for (unsigned i = 0; i < CP_NUM_SEMS; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "value", cp_sem_read(cp, i));
        cJSON_AddNumberToObject(o, "max", cp_sem_max(cp, i));
        cJSON_AddItemToArray(sems, o);
    }
    cJSON *mutexes = cJSON_AddObjectToObject(obj, "mutexes");
    for (unsigned k = 0; k < CP_MUTEXES; k++) {
        char name[4];
        int holder = cp_mutex_holder(cp, cp_mutex_index[k]);
        snprintf(name, sizeof name, "%u", cp_mutex_index[k]);
        if (holder < 0)
            cJSON_AddNullToObject(mutexes, name);
        else
            cJSON_AddNumberToObject(mutexes, name, holder);
    }
}

/* One "name count" item of the summary's stall causes, skipped when the count is 0. */
static void summary_cause(FILE *f, unsigned *n, const char *name, unsigned idx, bool indexed, uint64_t count) {
    if (!count) return;
    fprintf(f, *n ? ", " : " (");
    if (indexed)
        fprintf(f, "%s%u %llu", name, idx, (unsigned long long)count);
    else
        fprintf(f, "%s %llu", name, (unsigned long long)count);
    ++*n;
}

/* The non-zero stall causes of one thread, briefly: " (C3 13, sem1 105, lag 12)". */
static void summary_causes(const cp_stats_t *st, FILE *f) {
    unsigned n = 0;
    for (unsigned c = 0; c < 13; c++)
        summary_cause(f, &n, "C", c, true, st->stall_cond[c]);
    for (unsigned i = 0; i < CP_NUM_SEMS; i++)
        summary_cause(f, &n, "sem", i, true, st->stall_sem[i]);
    for (unsigned i = 0; i < sizeof st->stall_mutex / sizeof st->stall_mutex[0]; i++)
        summary_cause(f, &n, "mutex", i, true, st->stall_mutex[i]);
    summary_cause(f, &n, "mutex_invalid", 0, false, st->stall_mutex_invalid);
    summary_cause(f, &n, "stream", 0, false, st->stall_stream);
    summary_cause(f, &n, "lag", 0, false, st->stall_lag);
    summary_cause(f, &n, "sync_slot", 0, false, st->stall_sync_slot);
    summary_cause(f, &n, "undefined", 0, false, st->stall_undefined);
    for (unsigned u = 0; u < TT_UNIT_COUNT; u++)
        summary_cause(f, &n, tt_unit_name((tt_unit_t)u), 0, false, st->stall_unit[u]);
    if (n) fputc(')', f);
}

void report_coproc_summary(const cp_t *cp, FILE *f) {
    for (unsigned t = 0; t < CP_THREADS; t++) {
        const cp_stats_t *st = cp_stats(cp, t);
        cp_thread_state_t s;
        cp_thread_state(cp, t, &s);
        fprintf(f, "tensix T%u: pushed %llu, issued %llu, fifo high water %u, stalled %llu cycles", t,
                (unsigned long long)st->pushed, (unsigned long long)st->issued, st->fifo_high_water,
                (unsigned long long)st->stall_total);
        summary_causes(st, f);
        if (s.held) {
            char dis[96], why[160];
            tt_disasm(s.held_word, dis, sizeof dis);
            cp_hold_why(&s, why, sizeof why);
            fprintf(f, "; held: %s — %s", dis, why);
        } else if (s.wait.active) {
            fprintf(f, "; latched %s (block 0x%x)", cp_wait_name(&s.wait), s.wait.block_mask);
        }
        fputc('\n', f);
    }
    fprintf(f, "semaphores:");
    for (unsigned i = 0; i < CP_NUM_SEMS; i++)
        fprintf(f, " %u/%u", cp_sem_read(cp, i), cp_sem_max(cp, i));
    fprintf(f, "  (value/max)\nmutexes:");
    for (unsigned k = 0; k < CP_MUTEXES; k++) {
        unsigned i = cp_mutex_index[k];
        int holder = cp_mutex_holder(cp, i);
        if (holder < 0)
            fprintf(f, " %u:free", i);
        else
            fprintf(f, " %u:T%d", i, holder);
    }
    fputc('\n', f);
}

/* ---- the run -------------------------------------------------------------------------------- */

/* "error": the coprocessor's error that ended the run (exit 3 or 6), in full: category, unit,
 * thread, the word and its disassembly, who pushed it (docs/report-format.md). */
static void add_cp_error(const run_t *r, cJSON *root) {
    const cp_error_t *e = cp_fault(r->tile->cp);
    if (!e || (r->exit.code != EXIT_GUEST_FAULT && r->exit.code != EXIT_UNIMPLEMENTED)) return;
    cJSON *o = cJSON_AddObjectToObject(root, "error");
    cJSON_AddStringToObject(o, "source", "coprocessor");
    cJSON_AddStringToObject(o, "category", cp_err_cat_name(e->cat));
    cJSON_AddStringToObject(o, "unit", tt_unit_name((tt_unit_t)e->unit));
    cJSON_AddNumberToObject(o, "thread", e->thread);
    add_pushed_word(r, o, e->word, e->origin);
    cJSON_AddStringToObject(o, "what", e->what);
}

/* "noc": per NIU its requests, bytes, packets in flight and non-zero counters; "dram": what the
 * DRAM channels hold and how they were read. Only in runs that used the NoC or DRAM, so reports of
 * runs that never did keep their shape (docs/report-format.md). */
static void add_noc(const tile_t *t, cJSON *root) {
    dram_stats_t ds;
    dram_stats(t->dram, &ds);
    if (!t->noc.used && !ds.pages) return;
    cJSON *o = cJSON_AddObjectToObject(root, "noc");
    cJSON *nius = cJSON_AddArrayToObject(o, "niu");
    static const char *const kinds[NOC_KINDS] = {"read", "write", "inline_write", "atomic"};
    for (int n = 0; n < NOC_NIUS; n++) {
        const noc_niu_t *u = &t->noc.niu[n];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddItemToArray(nius, j);
        cJSON_AddNumberToObject(j, "noc", n);
        cJSON *req = cJSON_AddObjectToObject(j, "requests"), *by = cJSON_AddObjectToObject(j, "bytes");
        for (unsigned k = 0; k < NOC_KINDS; k++) {
            cJSON_AddNumberToObject(req, kinds[k], (double)u->requests[k]);
            cJSON_AddNumberToObject(by, kinds[k], (double)u->bytes[k]);
        }
        cJSON_AddNumberToObject(j, "in_flight", noc_in_flight(&t->noc, n, NOC_KINDS));
        cJSON *cs = cJSON_AddObjectToObject(j, "counters");
        for (unsigned c = 0; c < NOC_COUNTERS; c++)
            if (u->counter[c] && noc_counter_name(c)) cJSON_AddNumberToObject(cs, noc_counter_name(c), u->counter[c]);
    }
    cJSON *d = cJSON_AddObjectToObject(o, "dram");
    cJSON_AddNumberToObject(d, "pages", (double)ds.pages);
    cJSON_AddNumberToObject(d, "bytes_written", (double)ds.bytes_written);
    cJSON_AddNumberToObject(d, "bytes_read", (double)ds.bytes_read);
    cJSON_AddNumberToObject(d, "unwritten_reads", (double)ds.unwritten_reads);
    cJSON_AddNumberToObject(d, "unwritten_bytes", (double)ds.unwritten_bytes);
}

bool report_write(const run_t *r, const char *path) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "version", REPORT_VERSION);
    cJSON *ex = cJSON_AddObjectToObject(root, "exit");
    cJSON_AddNumberToObject(ex, "code", r->exit.code);
    cJSON_AddStringToObject(ex, "reason", r->exit.reason);
    if (r->exit.category) cJSON_AddStringToObject(ex, "category", r->exit.category);
    cJSON_AddStringToObject(ex, "message", r->exit.message);
    cJSON_AddNumberToObject(root, "cycles", (double)r->tile->cycle);
    cJSON_AddStringToObject(root, "gate_policy", cp_gate_policy_name(cp_gate_policy(r->tile->cp)));
    if (r->ttmetal) {
        if (r->boot_cycles >= 0)
            cJSON_AddNumberToObject(root, "boot_cycles", (double)r->boot_cycles);
        else
            cJSON_AddNullToObject(root, "boot_cycles");
        cJSON *lc = cJSON_AddArrayToObject(root, "launch_cycles");
        for (int i = 0; i < r->nlaunches; i++)
            cJSON_AddItemToArray(lc, r->launch_cycles[i] >= 0 ? cJSON_CreateNumber((double)r->launch_cycles[i])
                                                              : cJSON_CreateNull());
    }
    add_cp_error(r, root);
    cJSON *cores = cJSON_AddArrayToObject(root, "cores");
    for (int c = 0; c < TILE_NCORES; c++)
        cJSON_AddItemToArray(cores, core_json(r, c));
    report_coproc(r->tile->cp, root);
    add_longest_stalls(r, cJSON_GetObjectItemCaseSensitive(root, "threads"));
    add_wait_sites(r, cJSON_GetObjectItemCaseSensitive(root, "threads"));
    add_noc(r->tile, root);
    if (r->diag_json) cJSON_AddItemToObject(root, "diagnosis", cJSON_Duplicate(r->diag_json, true));
    if (r->tensors_json) cJSON_AddItemToObject(root, "tensors", cJSON_Duplicate(r->tensors_json, true));
    cJSON *peek = cJSON_AddObjectToObject(root, "peek");
    for (int i = 0; i < r->npeeks; i++) {
        cJSON *arr = cJSON_AddArrayToObject(peek, r->peeks[i].name);
        for (uint32_t w = 0; w < r->peeks[i].words; w++)
            cJSON_AddItemToArray(arr, cJSON_CreateNumber(r->peeks[i].val[w]));
    }
    if (r->nreads) {
        cJSON *hr = cJSON_AddObjectToObject(root, "host_reads");
        for (int i = 0; i < r->nreads; i++) {
            const run_read_t *rd = &r->reads[i];
            if (!rd->taken) {
                cJSON_AddNullToObject(hr, rd->name);
                continue;
            }
            if (rd->file) { /* saved to a file: say where, not the bytes */
                cJSON *o = cJSON_AddObjectToObject(hr, rd->name);
                cJSON_AddStringToObject(o, "file", rd->file);
                cJSON_AddNumberToObject(o, "bytes", rd->bytes);
                continue;
            }
            cJSON *arr = cJSON_AddArrayToObject(hr, rd->name);
            for (uint32_t w = 0; w < rd->words; w++)
                cJSON_AddItemToArray(arr, cJSON_CreateNumber(rd->val[w]));
        }
    }
    char *raw = cJSON_Print(root);
    cJSON_Delete(root);
    /* Paths and symbol names are bytes from files: U+FFFD for what is not UTF-8 (run/utf8.h). */
    char *text = raw ? utf8_clean(raw, false) : NULL;
    free(raw);
    if (!text) return false;
    FILE *f = fopen(path, "w");
    bool ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) fprintf(stderr, "ttemu: cannot write report %s\n", path);
    free(text);
    return ok;
}

void report_summary(const run_t *r, FILE *f) {
    const tile_t *t = r->tile;
    fprintf(f, "ttemu: exit %d (%s) after %llu cycles: %s\n", r->exit.code, r->exit.reason,
            (unsigned long long)t->cycle, r->exit.message);
    if (cp_gate_policy(t->cp) != CP_GATE_EXACT) /* the default goes unsaid */
        fprintf(f, "  gate policy: %s (docs/gate-policies.md)\n", cp_gate_policy_name(cp_gate_policy(t->cp)));
    fprintf(f, "  %-7s %-8s %-10s %12s %10s  %s\n", "core", "state", "pc", "instret", "stalled", "symbol");
    for (int c = 0; c < TILE_NCORES; c++) {
        const hart_t *h = &t->hart[c];
        if (!t->started[c]) continue;
        char sym[128];
        run_symbol(r, c, h->pc, sym, sizeof sym);
        fprintf(f, "  %-7s %-8s 0x%08x %12llu %10llu  %s\n", h->name, state_names[h->state], h->pc,
                (unsigned long long)h->instret, (unsigned long long)h->stall_cycles, sym);
    }
    if (r->ttmetal) {
        fprintf(f, "  tt-metal: boot ");
        if (r->boot_cycles >= 0)
            fprintf(f, "complete at cycle %lld", (long long)r->boot_cycles);
        else
            fprintf(f, "not complete");
        for (int i = 0; i < r->nlaunches; i++) {
            if (r->launch_cycles[i] >= 0)
                fprintf(f, "; launch %d took %lld cycles", i, (long long)r->launch_cycles[i]);
            else
                fprintf(f, "; launch %d not complete", i);
        }
        fputc('\n', f);
    }
    report_coproc_summary(t->cp, f);
    dram_stats_t ds;
    dram_stats(t->dram, &ds);
    if (t->noc.used || ds.pages) {
        fprintf(f, "noc:");
        for (int n = 0; n < NOC_NIUS; n++) {
            const noc_niu_t *u = &t->noc.niu[n];
            fprintf(f, "%s NOC%d %llu reads, %llu writes, %llu inline writes, %llu atomics", n ? ";" : "", n,
                    (unsigned long long)u->requests[NOC_READ], (unsigned long long)u->requests[NOC_WRITE],
                    (unsigned long long)u->requests[NOC_WRITE_INLINE], (unsigned long long)u->requests[NOC_ATOMIC]);
        }
        fprintf(f, "; DRAM %llu pages, %llu reads of unwritten DRAM\n", (unsigned long long)ds.pages,
                (unsigned long long)ds.unwritten_reads);
    }
    for (int i = 0; i < r->npeeks; i++) {
        fprintf(f, "  peek %s:", r->peeks[i].name);
        for (uint32_t w = 0; w < r->peeks[i].words; w++)
            fprintf(f, "%s 0x%08x", (w && w % 8 == 0) ? "\n                  " : "", r->peeks[i].val[w]);
        fputc('\n', f);
    }
}

/* ---- tensors (docs/tensors.md) --------------------------------------------------------------- */

/* A value as JSON: a number, or "nan", "inf", "-inf" (JSON has no such numbers). */
static cJSON *value_json(tns_format_t f, uint32_t bits) {
    double v = tns_value(f, bits);
    if (v != v) return cJSON_CreateString("nan");
    if (v > 1e308 || v < -1e308) return cJSON_CreateString(v > 0 ? "inf" : "-inf");
    return cJSON_CreateNumber(v);
}

static cJSON *compare_json(const cfg_t *c, const cfg_tio_t *io) {
    const tns_desc_t *d = &c->tensors[io->tensor].desc;
    const tns_cmp_t *k = &io->cmp;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "expect", io->file);
    cJSON_AddNumberToObject(o, "atol", k->atol);
    cJSON_AddNumberToObject(o, "rtol", k->rtol);
    cJSON_AddNumberToObject(o, "elements", (double)k->elements);
    cJSON_AddNumberToObject(o, "mismatches", (double)k->mismatches);
    cJSON_AddNumberToObject(o, "max_abs_err", k->max_abs_err);
    cJSON_AddNumberToObject(o, "max_rel_err", k->max_rel_err);
    cJSON_AddNumberToObject(o, "max_ulp", (double)k->max_ulp);
    if (!k->has_first) {
        cJSON_AddNullToObject(o, "first_mismatch");
        return o;
    }
    cJSON *fm = cJSON_AddObjectToObject(o, "first_mismatch");
    uint64_t idx[TNS_MAX_DIMS];
    tns_unravel(d, k->first_index, idx);
    cJSON *ia = cJSON_AddArrayToObject(fm, "index");
    for (int i = 0; i < d->ndim; i++)
        cJSON_AddItemToArray(ia, cJSON_CreateNumber((double)idx[i]));
    cJSON_AddItemToObject(fm, "got", value_json(d->format, k->first_got));
    cJSON_AddItemToObject(fm, "want", value_json(d->format, k->first_want));
    cJSON_AddNumberToObject(fm, "got_bits", k->first_got);
    cJSON_AddNumberToObject(fm, "want_bits", k->first_want);
    return o;
}

cJSON *report_tensors(const cfg_t *c) {
    static const char *const io_names[] = {"input", "output", NULL};
    if (!c->ntensors) return NULL;
    cJSON *root = cJSON_CreateObject();
    for (int t = 0; t < c->ntensors; t++) {
        const cfg_tensor_t *ts = &c->tensors[t];
        cJSON *o = cJSON_AddObjectToObject(root, ts->name);
        cJSON *sh = cJSON_AddArrayToObject(o, "shape");
        for (int i = 0; i < ts->desc.ndim; i++)
            cJSON_AddItemToArray(sh, cJSON_CreateNumber(ts->desc.shape[i]));
        cJSON_AddStringToObject(o, "format", tns_format_name(ts->desc.format));
        cJSON_AddStringToObject(o, "layout", ts->desc.tiles ? "tiles" : "rows");
        if (ts->in_dram) {
            cJSON *dj = cJSON_AddObjectToObject(o, "dram");
            cJSON_AddNumberToObject(dj, "base", (double)ts->dram_base);
            cJSON_AddNumberToObject(dj, "page_size", ts->page_size);
            cJSON_AddBoolToObject(dj, "interleaved", ts->interleaved);
            if (!ts->interleaved) cJSON_AddNumberToObject(dj, "bank", ts->bank);
        } else {
            cJSON_AddNumberToObject(o, "addr", ts->addr);
        }
        for (int i = 0; i < c->ntio; i++) {
            const cfg_tio_t *io = &c->tio[i];
            if (io->tensor != t) continue;
            if (io->kind != TIO_EXPECT)
                cJSON_AddStringToObject(o, io_names[io->kind], io->file);
            else if (io->taken)
                cJSON_AddItemToObject(o, "compare", compare_json(c, io));
            else
                cJSON_AddNullToObject(o, "compare");
        }
    }
    return root;
}

/* "2 (0x4000)": a value and its bit pattern. */
static void value_text(tns_format_t f, uint32_t bits, char *buf, size_t n) {
    unsigned digits = 2 * tns_format_size(f);
    if (tns_format_is_float(f))
        snprintf(buf, n, "%.9g (0x%0*x)", tns_value(f, bits), digits, bits);
    else
        snprintf(buf, n, "%.0f", tns_value(f, bits));
}

static void first_mismatch_text(const cfg_t *c, const cfg_tio_t *io, char *buf, size_t n) {
    const tns_desc_t *d = &c->tensors[io->tensor].desc;
    char idx[80], g[64], w[64];
    tns_index_str(d, io->cmp.first_index, idx, sizeof idx);
    value_text(d->format, io->cmp.first_got, g, sizeof g);
    value_text(d->format, io->cmp.first_want, w, sizeof w);
    snprintf(buf, n, "%llu of %llu elements differ from %s; first at %s: got %s, want %s",
             (unsigned long long)io->cmp.mismatches, (unsigned long long)io->cmp.elements, io->file, idx, g, w);
}

void report_tensor_summary(const cfg_t *c, FILE *f) {
    for (int i = 0; i < c->ntio; i++) {
        const cfg_tio_t *io = &c->tio[i];
        if (io->kind != TIO_EXPECT) continue;
        const char *name = c->tensors[io->tensor].name;
        char line[512];
        if (!io->taken)
            fprintf(f, "  tensor %s: never read (its point was not reached)\n", name);
        else if (!io->cmp.mismatches)
            fprintf(f, "  tensor %s: %llu elements match %s (max ulp %llu)\n", name,
                    (unsigned long long)io->cmp.elements, io->file, (unsigned long long)io->cmp.max_ulp);
        else {
            first_mismatch_text(c, io, line, sizeof line);
            fprintf(f, "  tensor %s: %s\n", name, line);
        }
    }
}

void report_mismatch_message(const cfg_t *c, char *buf, size_t n) {
    int failed = 0;
    const cfg_tio_t *first = NULL;
    for (int i = 0; i < c->ntio; i++) {
        const cfg_tio_t *io = &c->tio[i];
        if (io->kind != TIO_EXPECT || !io->taken || !io->cmp.mismatches) continue;
        failed++;
        if (!first) first = io;
    }
    if (!first) {
        snprintf(buf, n, "a tensor was never read");
        return;
    }
    char line[400];
    first_mismatch_text(c, first, line, sizeof line);
    snprintf(buf, n, "tensor '%s': %s%s", c->tensors[first->tensor].name, line,
             failed > 1 ? " (and more tensors differ: see the report's tensors)" : "");
}
