/* app/report.c — the JSON report (format: docs/report-format.md, versioned) and the
 * one-screen summary. Both are functions of the tile's final state only, so two runs of the same
 * inputs give byte-identical reports. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "coproc/tt_ops.h"
#include "app/report.h"
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
        cJSON_AddNumberToObject(o, "addr", ts->addr);
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
