/* app/report.c — the JSON report (format: docs/report-format.md, versioned) and the
 * one-screen summary. Both are functions of the tile's final state only, so two runs of the same
 * inputs give byte-identical reports. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "coproc/tt_ops.h"
#include "app/report.h"
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
    cJSON *cores = cJSON_AddArrayToObject(root, "cores");
    for (int c = 0; c < TILE_NCORES; c++)
        cJSON_AddItemToArray(cores, core_json(r, c));
    cp_report(r->tile->cp, root);
    add_longest_stalls(r, cJSON_GetObjectItemCaseSensitive(root, "threads"));
    add_noc(r->tile, root);
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
    cp_summary(t->cp, f);
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
