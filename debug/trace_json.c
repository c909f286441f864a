/* debug/trace_json.c — the recording as a Chrome/Perfetto trace-event JSON file (the "JSON
 * Object Format" of the Trace Event Format: {"traceEvents": [...], ...}). One cycle is shown as
 * one nanosecond (ts is in microseconds, so ts = cycle / 1000).
 *
 * Processes and tracks:
 *   pid 1 "RISC-V cores"   tid = core: slices per state; while running, one per function
 *   pid 2 "Tensix threads" tid = thread: a slice per stall at the gate (name "held: sem 1"...),
 *                          tid 10 + thread: a slice per latched wait; counters per thread's
 *                          FIFO fills and expanders; instants for pushes and Sync Unit issues
 *   pid 3 "Sync Unit"      tid = mutex index: a slice per holder; a counter per semaphore
 *   pid 4 "NoC"            tid = NIU: a counter of packets in flight (reads, writes, atomics);
 *                          instants for requests issued
 * Events are serialised one by one with cJSON and streamed, so a long trace never sits in
 * memory as a JSON tree. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coproc/cp_views.h"
#include "coproc/tt_ops.h"
#include "debug/trace.h"
#include "run/utf8.h"

enum { PID_CORES = 1, PID_THREADS = 2, PID_SYNC = 3, PID_NOC = 4, TID_WAIT = 10 };

/* A slice being built on one track: open since start, identified by key. */
typedef struct {
    bool open;
    uint64_t start;
    uint32_t key[3];
} slice_t;

/* Close s at end; true when the slice is worth an event (it lasted at least a cycle). */
static bool slice_end(slice_t *s, uint64_t end) {
    if (!s->open) return false;
    s->open = false;
    return end > s->start;
}

static void slice_begin(slice_t *s, uint64_t start, const uint32_t key[3]) {
    s->open = true;
    s->start = start;
    memcpy(s->key, key, sizeof s->key);
}

typedef struct {
    FILE *f;
    bool first, ok;
    const tr_rec_t *rec;
    uint32_t cur[TRC_NSIGS];
    /* open slices: one per core, per thread (held, wait), per mutex */
    slice_t core[TILE_NCORES], held[CP_THREADS], wait[CP_THREADS], mutex[TRC_MUTEXES];
} jw_t;

static double ts(uint64_t cycle) { return (double)cycle / 1000.0; }

/* Write one event object and free it. */
static void emit(jw_t *w, cJSON *ev) {
    char *raw = cJSON_PrintUnformatted(ev);
    cJSON_Delete(ev);
    /* Symbol names are bytes from the ELF: U+FFFD for what is not UTF-8 (run/utf8.h). */
    char *s = raw ? utf8_clean(raw, false) : NULL;
    free(raw);
    if (!s) {
        w->ok = false;
        return;
    }
    if (fputs(w->first ? "\n" : ",\n", w->f) < 0 || fputs(s, w->f) < 0) w->ok = false;
    w->first = false;
    free(s);
}

static cJSON *event(const char *name, const char *ph, int pid, int tid, uint64_t cycle) {
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", name);
    cJSON_AddStringToObject(e, "ph", ph);
    cJSON_AddNumberToObject(e, "ts", ts(cycle));
    cJSON_AddNumberToObject(e, "pid", pid);
    cJSON_AddNumberToObject(e, "tid", tid);
    return e;
}

static void meta(jw_t *w, const char *what, int pid, int tid, const char *name) {
    cJSON *e = event(what, "M", pid, tid, 0);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(e, "args"), "name", name);
    emit(w, e);
}

/* ---- slices ------------------------------------------------------------------------------ */

static const char *core_func(const jw_t *w, int c, uint32_t pc) {
    uint32_t off;
    return img_symbolize(&w->rec->run->images, c, pc, &off);
}

/* The slice a core is in: its state, and while running the function of its pc. */
static void core_key(const jw_t *w, int c, uint32_t key[3]) {
    uint32_t st = w->cur[TRC_SIG_CORE(c, TRC_CORE_STATE)], pc = w->cur[TRC_SIG_CORE(c, TRC_CORE_PC)];
    uint32_t off = 0;
    key[0] = st;
    key[1] = 0;
    key[2] = 0;
    if (st == TRC_RUNNING && img_symbolize(&w->rec->run->images, c, pc, &off)) key[1] = pc - off;
    if (st != TRC_RUNNING && st != TRC_RESET) key[1] = pc;
}

static void close_core(jw_t *w, int c, uint64_t end) {
    if (!slice_end(&w->core[c], end)) return;
    uint64_t start = w->core[c].start;
    uint32_t st = w->core[c].key[0], at = w->core[c].key[1];
    const char *fn = st == TRC_RUNNING && at ? core_func(w, c, at) : NULL;
    cJSON *e = event(fn ? fn : trace_core_state_names[st], "X", PID_CORES, c, start);
    cJSON_AddNumberToObject(e, "dur", ts(end - start));
    cJSON *a = cJSON_AddObjectToObject(e, "args");
    cJSON_AddStringToObject(a, "state", trace_core_state_names[st]);
    if (st != TRC_RUNNING && at) {
        char sym[128];
        run_symbol(w->rec->run, c, at, sym, sizeof sym);
        cJSON_AddNumberToObject(a, "pc", at);
        cJSON_AddStringToObject(a, "symbol", sym);
    }
    emit(w, e);
}

static void close_held(jw_t *w, unsigned t, uint64_t end) {
    if (!slice_end(&w->held[t], end)) return;
    uint64_t start = w->held[t].start;
    char label[64], name[80], dis[128];
    cp_hold_label((cp_hold_t)w->held[t].key[0], w->held[t].key[1], label, sizeof label);
    snprintf(name, sizeof name, "held: %s", label);
    cJSON *e = event(name, "X", PID_THREADS, (int)t, start);
    cJSON_AddNumberToObject(e, "dur", ts(end - start));
    cJSON *a = cJSON_AddObjectToObject(e, "args");
    cJSON_AddStringToObject(a, "cause", cp_hold_name((cp_hold_t)w->held[t].key[0]));
    tt_disasm(w->held[t].key[2], dis, sizeof dis);
    cJSON_AddStringToObject(a, "held", dis);
    cJSON_AddNumberToObject(a, "word", w->held[t].key[2]);
    cJSON_AddNumberToObject(a, "cycles", (double)(end - start));
    emit(w, e);
}

static void close_wait(jw_t *w, unsigned t, uint64_t end) {
    if (!slice_end(&w->wait[t], end)) return;
    uint64_t start = w->wait[t].start;
    char name[48];
    const tt_op_t *op = tt_op((uint8_t)w->wait[t].key[0]); /* the wait's opcode */
    snprintf(name, sizeof name, "latched %s", op ? op->mnemonic : "?");
    cJSON *e = event(name, "X", PID_THREADS, TID_WAIT + (int)t, start);
    cJSON_AddNumberToObject(e, "dur", ts(end - start));
    emit(w, e);
}

static void close_mutex(jw_t *w, unsigned m, uint64_t end) {
    if (!slice_end(&w->mutex[m], end)) return;
    uint64_t start = w->mutex[m].start;
    char name[16];
    snprintf(name, sizeof name, "T%u", w->mutex[m].key[0]);
    cJSON *e = event(name, "X", PID_SYNC, (int)cp_mutex_index[m], start);
    cJSON_AddNumberToObject(e, "dur", ts(end - start));
    emit(w, e);
}

/* Re-evaluate every slice track at cycle: close what changed, open what starts. */
static void update_slices(jw_t *w, uint64_t cycle) {
    for (int c = 0; c < TILE_NCORES; c++) {
        uint32_t k[3];
        core_key(w, c, k);
        if (w->core[c].open && !memcmp(k, w->core[c].key, sizeof k)) continue;
        close_core(w, c, cycle);
        if (k[0] != TRC_RESET) slice_begin(&w->core[c], cycle, k);
    }
    for (unsigned t = 0; t < CP_THREADS; t++) {
        uint32_t k[3] = {w->cur[TRC_SIG_TH(t, TRC_TH_HOLD)], w->cur[TRC_SIG_TH(t, TRC_TH_DETAIL)],
                         w->cur[TRC_SIG_TH(t, TRC_TH_WORD)]};
        if (!(w->held[t].open && !memcmp(k, w->held[t].key, sizeof k))) {
            close_held(w, t, cycle);
            if (k[0]) slice_begin(&w->held[t], cycle, k);
        }
        uint32_t wk[3] = {w->cur[TRC_SIG_TH(t, TRC_TH_WAIT)], 0, 0};
        if (!(w->wait[t].open && w->wait[t].key[0] == wk[0])) {
            close_wait(w, t, cycle);
            if (wk[0]) slice_begin(&w->wait[t], cycle, wk);
        }
    }
    for (unsigned m = 0; m < TRC_MUTEXES; m++) {
        uint32_t mk[3] = {w->cur[TRC_SIG_MUTEX(m)], 0, 0};
        if (w->mutex[m].open && w->mutex[m].key[0] == mk[0]) continue;
        close_mutex(w, m, cycle);
        if (mk[0] != TRC_MUTEX_FREE) slice_begin(&w->mutex[m], cycle, mk);
    }
}

/* ---- counters and instants ----------------------------------------------------------------- */

/* One counter event: the current values of n signals under their keys; only when one of them
 * changed at this cycle (dirty), or always when dirty is NULL (the starting values). */
static void counter(jw_t *w, const bool *dirty, uint64_t cycle, const char *name, int pid, int tid,
                    const char *const *keys, const unsigned *sigs, unsigned n) {
    bool changed = !dirty;
    for (unsigned k = 0; k < n && !changed; k++)
        changed = dirty[sigs[k]];
    if (!changed) return;
    cJSON *e = event(name, "C", pid, tid, cycle);
    cJSON *a = cJSON_AddObjectToObject(e, "args");
    for (unsigned k = 0; k < n; k++)
        cJSON_AddNumberToObject(a, keys[k], w->cur[sigs[k]]);
    emit(w, e);
}

static void counters(jw_t *w, uint64_t cycle, const bool *dirty) {
    static const char *const sem_keys[2] = {"value", "max"};
    static const char *const fifo_keys[3] = {"fifo1", "fifo2", "fifo3"};
    static const char *const exp_keys[2] = {"mop", "replay"};
    char name[48];
    for (unsigned i = 0; i < CP_NUM_SEMS; i++) {
        const char *ln = cp_sem_llk_name(i);
        snprintf(name, sizeof name, *ln ? "sem %u %s" : "sem %u", i, ln);
        const unsigned sigs[2] = {TRC_SIG_SEM_VAL(i), TRC_SIG_SEM_MAX(i)};
        counter(w, dirty, cycle, name, PID_SYNC, 0, sem_keys, sigs, 2);
    }
    for (unsigned t = 0; t < CP_THREADS; t++) {
        const unsigned fifo[3] = {TRC_SIG_TH(t, TRC_TH_FIFO1), TRC_SIG_TH(t, TRC_TH_FIFO2),
                                  TRC_SIG_TH(t, TRC_TH_FIFO3)};
        const unsigned exp[2] = {TRC_SIG_TH(t, TRC_TH_MOP), TRC_SIG_TH(t, TRC_TH_REPLAY)};
        snprintf(name, sizeof name, "T%u FIFO", t);
        counter(w, dirty, cycle, name, PID_THREADS, (int)t, fifo_keys, fifo, 3);
        snprintf(name, sizeof name, "T%u expanders", t);
        counter(w, dirty, cycle, name, PID_THREADS, (int)t, exp_keys, exp, 2);
    }
    static const char *const noc_keys[TRC_NOC_N] = {"reads", "writes", "atomics"};
    for (int n = 0; n < NOC_NIUS; n++) {
        const unsigned sigs[TRC_NOC_N] = {TRC_SIG_NOC(n, TRC_NOC_READS), TRC_SIG_NOC(n, TRC_NOC_WRITES),
                                          TRC_SIG_NOC(n, TRC_NOC_ATOMICS)};
        snprintf(name, sizeof name, "NOC%d in flight", n);
        counter(w, dirty, cycle, name, PID_NOC, n, noc_keys, sigs, TRC_NOC_N);
    }
}

static void instant(jw_t *w, const tr_instant_t *in) {
    char dis[128];
    cJSON *e;
    switch (in->kind) {
    case TRI_PUSH:
        e = event("push", "i", PID_THREADS, in->who, in->cycle);
        cJSON_AddStringToObject(e, "s", "t");
        tt_disasm(in->word, dis, sizeof dis);
        cJSON *a = cJSON_AddObjectToObject(e, "args");
        cJSON_AddNumberToObject(a, "word", in->word);
        cJSON_AddStringToObject(a, "disasm", dis);
        if (in->count > 1) cJSON_AddNumberToObject(a, "count", in->count);
        break;
    case TRI_ISSUE: {
        e = event(tt_mnemonic(in->word), "i", PID_THREADS, in->who, in->cycle);
        cJSON_AddStringToObject(e, "s", "t");
        tt_disasm(in->word, dis, sizeof dis);
        cJSON_AddStringToObject(cJSON_AddObjectToObject(e, "args"), "disasm", dis);
        break;
    }
    case TRI_NOC_ISSUE: {
        char name[48];
        snprintf(name, sizeof name, "NOC%u %s", in->who, noc_kind_name(in->word));
        e = event(name, "i", PID_NOC, in->who, in->cycle);
        cJSON_AddStringToObject(e, "s", "t");
        if (in->count > 1) cJSON_AddNumberToObject(cJSON_AddObjectToObject(e, "args"), "count", in->count);
        break;
    }
    default:
        e = event("semaphore window store", "i", PID_CORES, in->who, in->cycle);
        cJSON_AddStringToObject(e, "s", "t");
        break;
    }
    emit(w, e);
}

bool trace_write_json(const tr_rec_t *rec, FILE *f) {
    jw_t w = {.f = f, .first = true, .ok = true, .rec = rec};
    memcpy(w.cur, rec->base, sizeof w.cur);
    cJSON *od = cJSON_CreateObject();
    cJSON_AddStringToObject(od, "generator", "ttemu");
    cJSON_AddNumberToObject(od, "ttemu_trace_version", 1);
    cJSON_AddStringToObject(od, "time_unit", "1 ns = 1 cycle");
    cJSON_AddNumberToObject(od, "first_cycle", (double)rec->lo);
    cJSON_AddNumberToObject(od, "end_cycle", (double)rec->hi);
    cJSON_AddBoolToObject(od, "truncated", rec->truncated);
    char *ods = cJSON_PrintUnformatted(od);
    cJSON_Delete(od);
    if (!ods) return false;
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":%s,\"traceEvents\":[", ods);
    free(ods);

    meta(&w, "process_name", PID_CORES, 0, "RISC-V cores");
    meta(&w, "process_name", PID_THREADS, 0, "Tensix threads");
    meta(&w, "process_name", PID_SYNC, 0, "Sync Unit");
    meta(&w, "process_name", PID_NOC, 0, "NoC");
    meta(&w, "thread_name", PID_NOC, 0, "NOC0");
    meta(&w, "thread_name", PID_NOC, 1, "NOC1");
    for (int c = 0; c < TILE_NCORES; c++)
        meta(&w, "thread_name", PID_CORES, c, tile_core_names[c]);
    for (unsigned t = 0; t < CP_THREADS; t++) {
        char n[32];
        snprintf(n, sizeof n, "T%u gate", t);
        meta(&w, "thread_name", PID_THREADS, (int)t, n);
        snprintf(n, sizeof n, "T%u latched wait", t);
        meta(&w, "thread_name", PID_THREADS, TID_WAIT + (int)t, n);
    }
    for (unsigned m = 0; m < TRC_MUTEXES; m++) {
        char n[16];
        snprintf(n, sizeof n, "mutex %u", cp_mutex_index[m]);
        meta(&w, "thread_name", PID_SYNC, (int)cp_mutex_index[m], n);
    }

    update_slices(&w, rec->lo);
    counters(&w, rec->lo, NULL);
    size_t i = 0, k = 0;
    bool dirty[TRC_NSIGS];
    while (i < rec->nchg || k < rec->nins) {
        uint64_t cyc = i < rec->nchg ? rec->chg[i].cycle : UINT64_MAX;
        if (k < rec->nins && rec->ins[k].cycle < cyc) cyc = rec->ins[k].cycle;
        if (cyc >= rec->hi) break;
        memset(dirty, 0, sizeof dirty);
        bool any = false;
        for (; i < rec->nchg && rec->chg[i].cycle == cyc; i++) {
            w.cur[rec->chg[i].sig] = rec->chg[i].val;
            dirty[rec->chg[i].sig] = any = true;
        }
        if (any) {
            update_slices(&w, cyc);
            counters(&w, cyc, dirty);
        }
        for (; k < rec->nins && rec->ins[k].cycle == cyc; k++)
            instant(&w, &rec->ins[k]);
    }
    for (int c = 0; c < TILE_NCORES; c++)
        close_core(&w, c, rec->hi);
    for (unsigned t = 0; t < CP_THREADS; t++) {
        close_held(&w, t, rec->hi);
        close_wait(&w, t, rec->hi);
    }
    for (unsigned m = 0; m < TRC_MUTEXES; m++)
        close_mutex(&w, m, rec->hi);
    if (fputs("\n]}\n", f) < 0) w.ok = false;
    return w.ok && !ferror(f);
}
