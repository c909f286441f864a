/* app/policy.c — `ttemu compare-policies` (docs/gate-policies.md): one run config run under each
 * gate policy, in this process, one after the other, and what the difference cost: cycles to
 * completion, stall cycles by cause per thread and in total, which wait instructions held their
 * thread longer, and a run that ends differently (a deadlock only one policy produces) said so,
 * with its diagnosis. A table on stdout and, with --json, the same as JSON.
 *
 * The two runs are ordinary runs of the config (the same images, inputs, host writes and stop
 * condition) but for the policy; nothing is written back: no outputs, no saved host reads, no
 * tensor comparisons (values do not depend on the policy; timing does). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/policy.h"
#include "app/report.h"
#include "app/runcfg.h"
#include "coproc/cp_views.h"
#include "coproc/tt_ops.h"
#include "debug/diag.h"
#include "loader/hostio.h"
#include "loader/ttmetal.h"
#include "run/utf8.h"

#define POLICY_JSON_VERSION 1
#define NPOL                CP_GATE_POLICIES

typedef struct {
    run_t r;
    cfg_t cfg;
    bool loaded; /* cfg holds something to free */
} pol_run_t;

static int pol_bad(const char *fmt, const char *arg) {
    fprintf(stderr, "ttemu compare-policies: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(try ttemu compare-policies --help)\n");
    return EXIT_BAD_INPUT;
}

/* One run of the config under policy p, as `ttemu run --config CONFIG --gate-policy P` runs it up
 * to the end of the cycle loop (peeks taken). 0, or -1 with err (bad input: nothing ran). */
static int pol_run(pol_run_t *pr, const char *config, cp_gate_policy_t p, const uint64_t *max_cycles, uint64_t window,
                   char *err, size_t errlen) {
    if (cfg_load(config, &pr->cfg, err, errlen) != 0) return -1;
    pr->loaded = true;
    if (hio_prepare(&pr->cfg, err, errlen) != 0) return -1;
    run_t *r = &pr->r;
    r->progress.window = window;
    r->explain = diag_build;
    tile_opts_t topts = runcfg_tile_opts();
    if (!(r->tile = tile_create(&topts))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    cp_set_gate_policy(r->tile->cp, p);
    if (runcfg_load_cores(r, &pr->cfg, err, errlen) != 0 ||
        run_add_peeks(r, pr->cfg.peeks, pr->cfg.npeeks, err, errlen) != 0)
        return -1;
    uint64_t mc = max_cycles ? *max_cycles : pr->cfg.max_cycles_set ? pr->cfg.max_cycles : RUN_DEFAULT_MAX_CYCLES;
    int rc = pr->cfg.firmware[0] ? ttm_run(r, &pr->cfg, mc, err, errlen) : ttm_run_bare(r, &pr->cfg, mc, err, errlen);
    if (rc != 0) return -1;
    run_take_peeks(r);
    return 0;
}

static void pol_free(pol_run_t *pr) {
    if (pr->r.tile) run_free(&pr->r);
    if (pr->loaded) cfg_free(&pr->cfg);
}

/* ---- the comparison, as JSON (the table prints from it) ------------------------------------- */

static uint64_t stall_sum(const cp_t *cp) {
    uint64_t s = 0;
    for (unsigned t = 0; t < CP_THREADS; t++)
        s += cp_stats(cp, t)->stall_total;
    return s;
}

static cJSON *by_cause_json(const uint64_t *cause) {
    cJSON *o = cJSON_CreateObject();
    for (unsigned h = CP_HOLD_NONE + 1; h < CP_HOLD_COUNT; h++)
        cJSON_AddNumberToObject(o, cp_hold_name((cp_hold_t)h), (double)cause[h]);
    return o;
}

static cJSON *run_json(const pol_run_t *pr) {
    const run_t *r = &pr->r;
    const cp_t *cp = r->tile->cp;
    cJSON *o = cJSON_CreateObject();
    cJSON *ex = cJSON_AddObjectToObject(o, "exit");
    cJSON_AddNumberToObject(ex, "code", r->exit.code);
    cJSON_AddStringToObject(ex, "reason", r->exit.reason);
    cJSON_AddStringToObject(ex, "message", r->exit.message);
    cJSON_AddNumberToObject(o, "cycles", (double)r->tile->cycle);
    if (r->ttmetal) {
        cJSON *lc = cJSON_AddArrayToObject(o, "launch_cycles");
        for (int i = 0; i < r->nlaunches; i++)
            cJSON_AddItemToArray(lc, r->launch_cycles[i] >= 0 ? cJSON_CreateNumber((double)r->launch_cycles[i])
                                                              : cJSON_CreateNull());
    }
    cJSON_AddNumberToObject(o, "stall_cycles", (double)stall_sum(cp));
    uint64_t cause[CP_HOLD_COUNT] = {0};
    for (unsigned t = 0; t < CP_THREADS; t++)
        for (unsigned h = 0; h < CP_HOLD_COUNT; h++)
            cause[h] += cp_stats(cp, t)->stall_cause[h];
    cJSON_AddItemToObject(o, "by_cause", by_cause_json(cause));
    if (r->diag_json) cJSON_AddItemToObject(o, "diagnosis", cJSON_Duplicate(r->diag_json, true));
    return o;
}

static cJSON *thread_json(const cp_stats_t *st) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "issued", (double)st->issued);
    if (st->issued)
        cJSON_AddNumberToObject(o, "last_issue_cycle", (double)st->last_issue_cycle);
    else
        cJSON_AddNullToObject(o, "last_issue_cycle");
    cJSON_AddNumberToObject(o, "stall_cycles", (double)st->stall_total);
    cJSON_AddItemToObject(o, "by_cause", by_cause_json(st->stall_cause));
    return o;
}

/* The site of thread t in run pr equal to w (same word, pushed from the same place), or NULL. */
static const cp_wait_site_t *find_site(const pol_run_t *pr, unsigned t, const cp_wait_site_t *w) {
    const cp_stats_t *st = cp_stats(pr->r.tile->cp, t);
    for (unsigned i = 0; i < st->nwaits; i++)
        if (st->waits[i].word == w->word && st->waits[i].origin.core == w->origin.core &&
            st->waits[i].origin.pc == w->origin.pc)
            return &st->waits[i];
    return NULL;
}

static cJSON *site_counts(const cp_wait_site_t *w) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "latched", w ? (double)w->latched : 0);
    cJSON_AddNumberToObject(o, "held_cycles", w ? (double)w->held_cycles : 0);
    return o;
}

static double held_of(const cp_wait_site_t *w) { return w ? (double)w->held_cycles : 0; }

/* Every wait site of either run, once: the exact run's in order, then those only the other run
 * latched; sorted by how many more cycles whole-thread held than exact, most first (stable). */
static void add_waits(cJSON *root, const pol_run_t *pr) {
    cJSON *arr = cJSON_AddArrayToObject(root, "waits");
    typedef struct {
        unsigned t;
        const cp_wait_site_t *site, *by[NPOL];
        double delta;
    } row_t;
    row_t rows[NPOL * CP_THREADS * CP_WAIT_SITES];
    int n = 0;
    for (int p = 0; p < NPOL; p++)
        for (unsigned t = 0; t < CP_THREADS; t++) {
            const cp_stats_t *st = cp_stats(pr[p].r.tile->cp, t);
            for (unsigned i = 0; i < st->nwaits; i++) {
                const cp_wait_site_t *w = &st->waits[i];
                bool seen = false;
                for (int q = 0; q < p && !seen; q++)
                    seen = find_site(&pr[q], t, w) != NULL;
                if (seen) continue;
                row_t *rw = &rows[n++];
                rw->t = t;
                rw->site = w;
                for (int q = 0; q < NPOL; q++)
                    rw->by[q] = find_site(&pr[q], t, w);
                rw->delta = held_of(rw->by[CP_GATE_WHOLE_THREAD]) - held_of(rw->by[CP_GATE_EXACT]);
            }
        }
    for (int i = 1; i < n; i++) /* insertion sort: stable, n is small */
        for (int j = i; j > 0 && rows[j].delta > rows[j - 1].delta; j--) {
            row_t tmp = rows[j];
            rows[j] = rows[j - 1];
            rows[j - 1] = tmp;
        }
    const run_t *r0 = &pr[CP_GATE_EXACT].r;
    for (int i = 0; i < n; i++) {
        const row_t *rw = &rows[i];
        cJSON *o = cJSON_CreateObject();
        char buf[128];
        cJSON_AddNumberToObject(o, "thread", rw->t);
        cJSON_AddNumberToObject(o, "word", rw->site->word);
        tt_disasm(rw->site->word, buf, sizeof buf);
        cJSON_AddStringToObject(o, "disasm", buf);
        int core = rw->site->origin.core;
        if (core >= 0 && core < TILE_NCORES) {
            cJSON_AddStringToObject(o, "pushed_by", tile_core_names[core]);
            cJSON_AddNumberToObject(o, "push_pc", rw->site->origin.pc);
            run_symbol(r0, core, rw->site->origin.pc, buf, sizeof buf);
            cJSON_AddStringToObject(o, "push_symbol", buf);
        } else {
            cJSON_AddNullToObject(o, "pushed_by");
        }
        for (int p = 0; p < NPOL; p++)
            cJSON_AddItemToObject(o, cp_gate_policy_name((cp_gate_policy_t)p), site_counts(rw->by[p]));
        cJSON_AddNumberToObject(o, "held_delta", rw->delta);
        cJSON_AddStringToObject(o, "held_longer_under",
                                rw->delta > 0   ? cp_gate_policy_name(CP_GATE_WHOLE_THREAD)
                                : rw->delta < 0 ? cp_gate_policy_name(CP_GATE_EXACT)
                                                : "neither");
        cJSON_AddItemToArray(arr, o);
    }
}

/* The verdict: how the runs ended, relative to each other. */
static void add_verdict(cJSON *root, const pol_run_t *pr) {
    const run_t *ex = &pr[CP_GATE_EXACT].r, *wt = &pr[CP_GATE_WHOLE_THREAD].r;
    cJSON *v = cJSON_AddObjectToObject(root, "verdict");
    bool same = ex->exit.code == wt->exit.code;
    cJSON_AddBoolToObject(v, "same_exit", same);
    bool dl_ex = ex->exit.code == EXIT_DEADLOCK, dl_wt = wt->exit.code == EXIT_DEADLOCK;
    if (dl_ex != dl_wt)
        cJSON_AddStringToObject(v, "deadlock_only_under",
                                cp_gate_policy_name(dl_ex ? CP_GATE_EXACT : CP_GATE_WHOLE_THREAD));
    else
        cJSON_AddNullToObject(v, "deadlock_only_under");
    double dc = (double)wt->tile->cycle - (double)ex->tile->cycle;
    cJSON_AddNumberToObject(v, "cycles_delta", dc);
    cJSON_AddNumberToObject(v, "stall_delta", (double)stall_sum(wt->tile->cp) - (double)stall_sum(ex->tile->cp));
    cJSON_AddBoolToObject(v, "whole_thread_sooner", same && dc < 0);
}

static cJSON *policy_compare_json(const char *config, const pol_run_t pr[NPOL]) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "version", POLICY_JSON_VERSION);
    cJSON_AddStringToObject(root, "config", config);
    cJSON *pols = cJSON_AddArrayToObject(root, "policies");
    cJSON *runs = cJSON_AddObjectToObject(root, "runs");
    for (int p = 0; p < NPOL; p++) {
        const char *name = cp_gate_policy_name((cp_gate_policy_t)p);
        cJSON_AddItemToArray(pols, cJSON_CreateString(name));
        cJSON_AddItemToObject(runs, name, run_json(&pr[p]));
    }
    cJSON *threads = cJSON_AddArrayToObject(root, "threads");
    for (unsigned t = 0; t < CP_THREADS; t++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "thread", t);
        for (int p = 0; p < NPOL; p++)
            cJSON_AddItemToObject(o, cp_gate_policy_name((cp_gate_policy_t)p),
                                  thread_json(cp_stats(pr[p].r.tile->cp, t)));
        cJSON_AddNumberToObject(o, "stall_delta",
                                (double)cp_stats(pr[CP_GATE_WHOLE_THREAD].r.tile->cp, t)->stall_total -
                                    (double)cp_stats(pr[CP_GATE_EXACT].r.tile->cp, t)->stall_total);
        cJSON_AddItemToArray(threads, o);
    }
    add_waits(root, pr);
    add_verdict(root, pr);
    return root;
}

/* ---- the table ------------------------------------------------------------------------------ */

static double num(const cJSON *o, const char *k) {
    return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, k));
}
static const cJSON *at(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }

/* One row: a label, the value under each policy, and the difference (whole-thread − exact). */
static void row(FILE *f, const char *label, double a, double b) {
    char d[32];
    if (a == b)
        snprintf(d, sizeof d, "0");
    else
        snprintf(d, sizeof d, "%+.0f", b - a);
    fprintf(f, "  %-28s %14.0f %14.0f %10s\n", label, a, b, d);
}

/* The causes under which either run stalled, indented under a stall row. */
static void cause_rows(FILE *f, const cJSON *a, const cJSON *b) {
    for (const cJSON *k = a ? a->child : NULL; k; k = k->next) {
        double x = k->valuedouble, y = num(b, k->string);
        if (!x && !y) continue;
        char label[40];
        snprintf(label, sizeof label, "  %s", k->string);
        row(f, label, x, y);
    }
}

static void print_table(FILE *f, const cJSON *j) {
    const char *E = cp_gate_policy_name(CP_GATE_EXACT), *W = cp_gate_policy_name(CP_GATE_WHOLE_THREAD);
    const cJSON *re = at(at(j, "runs"), E), *rw = at(at(j, "runs"), W);
    fprintf(f, "gate policies compared on %s\n", cJSON_GetStringValue(at(j, "config")));
    fprintf(f, "  %-28s %14s %14s %10s\n", "", E, W, "delta");
    char a[40], b[40];
    snprintf(a, sizeof a, "%.0f %s", num(at(re, "exit"), "code"), cJSON_GetStringValue(at(at(re, "exit"), "reason")));
    snprintf(b, sizeof b, "%.0f %s", num(at(rw, "exit"), "code"), cJSON_GetStringValue(at(at(rw, "exit"), "reason")));
    fprintf(f, "  %-28s %14s %14s\n", "exit", a, b);
    row(f, "cycles", num(re, "cycles"), num(rw, "cycles"));
    const cJSON *la = at(re, "launch_cycles"), *lb = at(rw, "launch_cycles");
    for (int i = 0; i < cJSON_GetArraySize(la); i++) {
        const cJSON *x = cJSON_GetArrayItem(la, i), *y = cJSON_GetArrayItem(lb, i);
        if (!cJSON_IsNumber(x) || !cJSON_IsNumber(y)) continue;
        char label[40];
        snprintf(label, sizeof label, "launch %d cycles", i);
        row(f, label, x->valuedouble, y->valuedouble);
    }
    row(f, "stall cycles, all threads", num(re, "stall_cycles"), num(rw, "stall_cycles"));
    cause_rows(f, at(re, "by_cause"), at(rw, "by_cause"));
    const cJSON *t;
    cJSON_ArrayForEach(t, at(j, "threads")) {
        const cJSON *te = at(t, E), *tw = at(t, W);
        if (!num(te, "issued") && !num(tw, "issued")) continue;
        int th = (int)num(t, "thread");
        char label[40];
        snprintf(label, sizeof label, "T%d issued", th);
        row(f, label, num(te, "issued"), num(tw, "issued"));
        const cJSON *le = at(te, "last_issue_cycle"), *lw = at(tw, "last_issue_cycle");
        if (cJSON_IsNumber(le) && cJSON_IsNumber(lw)) {
            snprintf(label, sizeof label, "T%d last issue (cycle)", th);
            row(f, label, le->valuedouble, lw->valuedouble);
        }
        snprintf(label, sizeof label, "T%d stall cycles", th);
        row(f, label, num(te, "stall_cycles"), num(tw, "stall_cycles"));
        cause_rows(f, at(te, "by_cause"), at(tw, "by_cause"));
    }
    const cJSON *waits = at(j, "waits");
    if (cJSON_GetArraySize(waits)) {
        /* Columns as wide as their longest entry: disassembly and "CORE symbol" vary a lot. */
        char(*by)[96] = calloc((size_t)cJSON_GetArraySize(waits), sizeof *by);
        int wd = 4, wb = 9, i = 0;
        const cJSON *w;
        cJSON_ArrayForEach(w, waits) {
            const cJSON *pb = at(w, "pushed_by");
            const char *sym = cJSON_GetStringValue(at(w, "push_symbol"));
            if (!by) break;
            if (!cJSON_IsString(pb))
                snprintf(by[i], sizeof by[i], "the host");
            else if (sym && *sym)
                snprintf(by[i], sizeof by[i], "%s %s", pb->valuestring, sym);
            else
                snprintf(by[i], sizeof by[i], "%s 0x%08x", pb->valuestring, (unsigned)num(w, "push_pc"));
            int l = (int)strlen(cJSON_GetStringValue(at(w, "disasm")));
            if (l > wd) wd = l;
            if ((int)strlen(by[i]) > wb) wb = (int)strlen(by[i]);
            i++;
        }
        fprintf(f, "waits, by the cycles they held their thread (most more under %s first):\n", W);
        fprintf(f, "  %-3s %-*s  %-*s %8s %12s %9s\n", "", wd, "wait", wb, "pushed by", E, W, "delta");
        i = 0;
        cJSON_ArrayForEach(w, waits) {
            char d[24];
            double dh = num(w, "held_delta");
            if (dh)
                snprintf(d, sizeof d, "%+.0f", dh);
            else
                snprintf(d, sizeof d, "0");
            fprintf(f, "  T%-2.0f %-*s  %-*s %8.0f %12.0f %9s\n", num(w, "thread"), wd,
                    cJSON_GetStringValue(at(w, "disasm")), wb, by ? by[i] : "?", num(at(w, E), "held_cycles"),
                    num(at(w, W), "held_cycles"), d);
            i++;
        }
        free(by);
    }
    const cJSON *v = at(j, "verdict");
    const char *only = cJSON_GetStringValue(at(v, "deadlock_only_under"));
    if (only) {
        const cJSON *dj = at(at(at(j, "runs"), only), "diagnosis");
        const char *why = cJSON_GetStringValue(at(dj, "cycle_text"));
        if (!why) why = cJSON_GetStringValue(cJSON_GetArrayItem(at(dj, "chains"), 0));
        fprintf(f, "verdict: deadlock under %s only%s%s\n", only, why ? ": " : "", why ? why : "");
    } else if (!cJSON_IsTrue(at(v, "same_exit"))) {
        fprintf(f, "verdict: the runs end differently (%s: %s; %s: %s)\n", E, a, W, b);
    } else {
        double dc = num(v, "cycles_delta"), ds = num(v, "stall_delta"), c0 = num(re, "cycles");
        if (dc > 0)
            fprintf(f, "verdict: %s takes %.0f more cycles (+%.1f%%)", W, dc, c0 ? 100.0 * dc / c0 : 0.0);
        else if (dc < 0)
            fprintf(f, "verdict: %s takes %.0f fewer cycles", W, -dc);
        else
            fprintf(f, "verdict: both take the same number of cycles");
        fprintf(f, "; its threads stall %.0f cycles %s\n", ds < 0 ? -ds : ds, ds < 0 ? "less" : "more");
    }
}

/* ---- the command ---------------------------------------------------------------------------- */

static const char usage[] =
    "usage: ttemu compare-policies RUN.json [--max-cycles N] [--deadlock-window N] [--json FILE]\n"
    "                              [--reports DIR] [--quiet]\n"
    "Runs the run config under each gate policy (exact: a latched STALLWAIT/SEMWAIT holds only the\n"
    "instruction classes of its block mask, as Blackhole does; whole-thread: every instruction of its\n"
    "thread) and compares them: cycles, stall cycles by cause per thread, which waits held their\n"
    "thread longer, and a deadlock only one policy produces. Exit: 0 both runs end the same way,\n"
    "1 they do not, 4 bad input. See docs/gate-policies.md.\n";

static bool write_text(const char *path, char *text) {
    FILE *f = fopen(path, "w");
    bool ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0) ok = false;
    return ok;
}

int policy_main(int argc, char **argv) {
    const char *config = NULL, *json = NULL, *reports = NULL;
    uint64_t max_cycles = 0, window = RUN_DEFAULT_DEADLOCK_WINDOW;
    bool mc_given = false, quiet = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--max-cycles")) {
            if (!run_parse_uint(v, UINT64_MAX, &max_cycles) || !max_cycles)
                return pol_bad("--max-cycles needs a positive number, got '%s'", v ? v : "");
            mc_given = true;
            i++;
        } else if (!strcmp(a, "--deadlock-window")) {
            if (!run_parse_uint(v, UINT64_MAX, &window))
                return pol_bad("--deadlock-window needs a number of cycles (0 disables), got '%s'", v ? v : "");
            i++;
        } else if (!strcmp(a, "--json") || !strcmp(a, "--reports")) {
            if (!v) return pol_bad("%s needs a path", a);
            *(a[2] == 'j' ? &json : &reports) = v;
            i++;
        } else if (!strcmp(a, "--quiet")) {
            quiet = true;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (a[0] == '-') {
            return pol_bad("unknown option '%s'", a);
        } else if (config) {
            return pol_bad("one run config at a time (got a second: '%s')", a);
        } else {
            config = a;
        }
    }
    if (!config) return pol_bad("%s", "give a run config (RUN.json)");
    if (reports && mkdir(reports, 0755) != 0 && errno != EEXIST)
        return pol_bad("cannot create the reports directory %s", reports);

    pol_run_t pr[NPOL];
    memset(pr, 0, sizeof pr);
    char err[600];
    int rc = EXIT_BAD_INPUT;
    for (int p = 0; p < NPOL; p++)
        if (pol_run(&pr[p], config, (cp_gate_policy_t)p, mc_given ? &max_cycles : NULL, window, err, sizeof err) != 0) {
            fprintf(stderr, "ttemu compare-policies: %s\n", err);
            goto out;
        }
    rc = pr[CP_GATE_EXACT].r.exit.code == pr[CP_GATE_WHOLE_THREAD].r.exit.code ? 0 : 1;
    for (int p = 0; reports && p < NPOL; p++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.json", reports, cp_gate_policy_name((cp_gate_policy_t)p));
        if (!report_write(&pr[p].r, path)) rc = EXIT_BAD_INPUT;
    }
    cJSON *j = policy_compare_json(config, pr);
    if (!quiet) print_table(stdout, j);
    if (json) {
        char *raw = cJSON_Print(j);
        char *text = raw ? utf8_clean(raw, false) : NULL; /* paths and symbols are bytes (run/utf8.h) */
        if (!text || !write_text(json, text)) {
            fprintf(stderr, "ttemu compare-policies: cannot write %s\n", json);
            rc = EXIT_BAD_INPUT;
        }
        free(raw);
        free(text);
    }
    cJSON_Delete(j);
out:
    for (int p = 0; p < NPOL; p++)
        pol_free(&pr[p]);
    return rc;
}
