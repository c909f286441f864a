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
            cJSON_AddNumberToObject(o, "word", s->word);
            tt_disasm(s->word, buf, sizeof buf);
            cJSON_AddStringToObject(o, "disasm", buf);
            if (s->origin.core >= 0 && s->origin.core < TILE_NCORES) {
                cJSON_AddStringToObject(o, "pushed_by", tile_core_names[s->origin.core]);
                cJSON_AddNumberToObject(o, "push_pc", s->origin.pc);
                run_symbol(r, s->origin.core, s->origin.pc, buf, sizeof buf);
                cJSON_AddStringToObject(o, "push_symbol", buf);
            } else {
                cJSON_AddNullToObject(o, "pushed_by");
            }
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
        cJSON_AddNumberToObject(o, "fifo_high_water", st->fifo_high_water);
        cJSON_AddNumberToObject(o, "fifo2_high_water", st->fifo2_high_water);
        cJSON *fp = cJSON_AddArrayToObject(o, "first_pushed");
        for (uint64_t i = 0; i < st->pushed && i < CP_FIRST_PUSHED; i++)
            cJSON_AddItemToArray(fp, cJSON_CreateNumber(st->first_pushed[i]));
        cJSON_AddNumberToObject(o, "sem_writes", (double)st->sem_writes);
        cJSON_AddBoolToObject(o, "idle", cp_thread_idle(cp, t));

        cJSON *stalls = cJSON_AddObjectToObject(o, "stalls");
        cJSON_AddNumberToObject(stalls, "total", (double)st->stall_total);
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
    char buf[128];
    cJSON_AddStringToObject(o, "source", "coprocessor");
    cJSON_AddStringToObject(o, "category", cp_err_cat_name(e->cat));
    cJSON_AddStringToObject(o, "unit", tt_unit_name((tt_unit_t)e->unit));
    cJSON_AddNumberToObject(o, "thread", e->thread);
    cJSON_AddNumberToObject(o, "word", e->word);
    tt_disasm(e->word, buf, sizeof buf);
    cJSON_AddStringToObject(o, "disasm", buf);
    if (e->origin.core >= 0 && e->origin.core < TILE_NCORES) {
        cJSON_AddStringToObject(o, "pushed_by", tile_core_names[e->origin.core]);
        cJSON_AddNumberToObject(o, "push_pc", e->origin.pc);
        run_symbol(r, e->origin.core, e->origin.pc, buf, sizeof buf);
        cJSON_AddStringToObject(o, "push_symbol", buf);
    } else {
        cJSON_AddNullToObject(o, "pushed_by");
    }
    cJSON_AddStringToObject(o, "what", e->what);
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
    if (r->diag_json) cJSON_AddItemToObject(root, "diagnosis", cJSON_Duplicate(r->diag_json, true));
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
            cJSON *arr = cJSON_AddArrayToObject(hr, rd->name);
            for (uint32_t w = 0; w < rd->words; w++)
                cJSON_AddItemToArray(arr, cJSON_CreateNumber(rd->val[w]));
        }
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
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
    for (int i = 0; i < r->npeeks; i++) {
        fprintf(f, "  peek %s:", r->peeks[i].name);
        for (uint32_t w = 0; w < r->peeks[i].words; w++)
            fprintf(f, "%s 0x%08x", (w && w % 8 == 0) ? "\n                  " : "", r->peeks[i].val[w]);
        fputc('\n', f);
    }
}
