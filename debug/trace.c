/* debug/trace.c — recording the event trace (debug/trace.h, docs/tracing.md).
 *
 * The observer samples every signal after each traced cycle and keeps only what changed, so a
 * recording costs memory in proportion to activity, not to time. With --trace-window N, changes
 * older than the last N cycles are folded into the starting values as the run goes on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coproc/cp_views.h"
#include "coproc/tt_fields.h"
#include "coproc/tt_ops.h"
#include "debug/diag.h"
#include "debug/trace.h"

/* Beyond this many changes or instants the recording stops (and says so): a bound on memory
 * for a trace of a long run without a window. 16 bytes each: 8 M changes are 128 MiB. */
#define TRACE_MAX_CHANGES  (8u << 20)
#define TRACE_MAX_INSTANTS (4u << 20)
/* With a window, fold old changes once this many have accumulated past it. */
#define TRACE_FOLD_AT (1u << 16)

const char *const trace_core_state_names[TRC_STATE_COUNT] = {
    [TRC_RESET] = "reset",         [TRC_RUNNING] = "running",
    [TRC_FIFO_FULL] = "fifo_full", [TRC_TENSIX_SYNC] = "tensix_sync",
    [TRC_MOP_SYNC] = "mop_sync",   [TRC_STALLED] = "stalled",
    [TRC_HALTED] = "halted",       [TRC_HUNG] = "hung",
    [TRC_FAULTED] = "faulted",     [TRC_NOC_WAIT] = "noc_wait",
};

struct trace {
    trace_opts_t o;
    run_t *run;
    FILE *json, *vcd;
    bool recording, done, ok, truncated;
    uint64_t lo, hi;
    uint32_t base[TRC_NSIGS]; /* values at lo */
    uint32_t cur[TRC_NSIGS];  /* values at the last sample */
    tr_change_t *chg;
    size_t nchg, cap;
    tr_instant_t *ins;
    size_t nins, icap;
    /* counters at the last sample, for instants */
    uint64_t pushed[CP_THREADS], issued, sem_writes[CP_THREADS], noc_requests[NOC_NIUS][NOC_KINDS];
    size_t fold_mark; /* changes + instants kept by the last fold */
};

void trace_sig_info(unsigned sig, const char **scope, const char **name, unsigned *width) {
    static const char *const core_sig[TRC_CORE_N] = {"state", "pc"};
    static const unsigned core_w[TRC_CORE_N] = {4, 32};
    static const char *const th_sig[TRC_TH_N] = {"hold",  "hold_detail", "held_word", "wait_op",    "fifo1",
                                                 "fifo2", "fifo3",       "mop_busy",  "replay_busy"};
    static const unsigned th_w[TRC_TH_N] = {4, 16, 32, 8, 6, 6, 6, 1, 1}; /* a mutex index detail is 16 bits */
    static const char *const thread_names[CP_THREADS] = {"T0", "T1", "T2"};
    static const char *const sem_sig[CP_NUM_SEMS][2] = {
        {"sem0_value", "sem0_max"}, {"sem1_value", "sem1_max"}, {"sem2_value", "sem2_max"}, {"sem3_value", "sem3_max"},
        {"sem4_value", "sem4_max"}, {"sem5_value", "sem5_max"}, {"sem6_value", "sem6_max"}, {"sem7_value", "sem7_max"},
    };
    static const char *const mutex_sig[TRC_MUTEXES] = {"mutex0_owner", "mutex2_owner", "mutex3_owner", "mutex4_owner"};
    static const char *const noc_sig[TRC_NOC_N] = {"reads_in_flight", "writes_in_flight", "atomics_in_flight"};
    static const char *const noc_names[NOC_NIUS] = {"NOC0", "NOC1"};
    if (sig < (unsigned)TRC_SIG_TH(0, 0)) {
        *scope = tile_core_names[sig / TRC_CORE_N];
        *name = core_sig[sig % TRC_CORE_N];
        *width = core_w[sig % TRC_CORE_N];
    } else if (sig < (unsigned)TRC_SIG_SEM_VAL(0)) {
        unsigned k = sig - TRC_SIG_TH(0, 0);
        *scope = thread_names[k / TRC_TH_N];
        *name = th_sig[k % TRC_TH_N];
        *width = th_w[k % TRC_TH_N];
    } else if (sig < (unsigned)TRC_SIG_MUTEX(0)) {
        unsigned k = sig - TRC_SIG_SEM_VAL(0);
        *scope = "sync";
        *name = sem_sig[k / 2][k % 2];
        *width = 4;
    } else if (sig < (unsigned)TRC_SIG_NOC(0, 0)) {
        *scope = "sync";
        *name = mutex_sig[sig - TRC_SIG_MUTEX(0)];
        *width = 2;
    } else {
        unsigned k = sig - TRC_SIG_NOC(0, 0);
        *scope = noc_names[k / TRC_NOC_N];
        *name = noc_sig[k % TRC_NOC_N];
        *width = 8;
    }
}

/* A core's state; a running core that did not retire is classified as the stall diagnosis and
 * the panel classify it (diag_core_wait). */
static uint32_t core_state(const tile_t *t, int c) {
    const hart_t *h = &t->hart[c];
    switch (h->state) {
    case HART_RESET: return TRC_RESET;
    case HART_HALTED: return TRC_HALTED;
    case HART_HUNG: return TRC_HUNG;
    case HART_FAULTED: return TRC_FAULTED;
    case HART_RUNNING: break;
    }
    int th;
    switch (diag_core_wait(t, c, &th)) {
    case CORE_WAIT_TENSIX_SYNC: return TRC_TENSIX_SYNC;
    case CORE_WAIT_MOP_SYNC: return TRC_MOP_SYNC;
    case CORE_WAIT_FIFO_FULL: return TRC_FIFO_FULL;
    case CORE_WAIT_NOC: return TRC_NOC_WAIT;
    default: return h->wait == HART_WAIT_MEM ? TRC_STALLED : TRC_RUNNING;
    }
}

static void sample(const tile_t *t, uint32_t *v) {
    for (int c = 0; c < TILE_NCORES; c++) {
        v[TRC_SIG_CORE(c, TRC_CORE_STATE)] = core_state(t, c);
        v[TRC_SIG_CORE(c, TRC_CORE_PC)] = t->hart[c].pc;
    }
    for (unsigned th = 0; th < CP_THREADS; th++) {
        cp_thread_state_t s;
        cp_thread_state(t->cp, th, &s);
        v[TRC_SIG_TH(th, TRC_TH_HOLD)] = s.held ? (uint32_t)s.hold : 0;
        v[TRC_SIG_TH(th, TRC_TH_DETAIL)] = s.held ? s.hold_detail : 0;
        v[TRC_SIG_TH(th, TRC_TH_WORD)] = s.held ? s.held_word : 0;
        v[TRC_SIG_TH(th, TRC_TH_WAIT)] = s.wait.active ? s.wait.opcode : 0;
        v[TRC_SIG_TH(th, TRC_TH_FIFO1)] = s.fifo1;
        v[TRC_SIG_TH(th, TRC_TH_FIFO2)] = s.fifo2;
        v[TRC_SIG_TH(th, TRC_TH_FIFO3)] = s.fifo3;
        v[TRC_SIG_TH(th, TRC_TH_MOP)] = s.mop_busy;
        v[TRC_SIG_TH(th, TRC_TH_REPLAY)] = s.replay_busy;
    }
    for (unsigned i = 0; i < CP_NUM_SEMS; i++) {
        v[TRC_SIG_SEM_VAL(i)] = cp_sem_read(t->cp, i);
        v[TRC_SIG_SEM_MAX(i)] = cp_sem_max(t->cp, i);
    }
    for (unsigned m = 0; m < TRC_MUTEXES; m++) {
        int h = cp_mutex_holder(t->cp, cp_mutex_index[m]);
        v[TRC_SIG_MUTEX(m)] = h < 0 ? TRC_MUTEX_FREE : (uint32_t)h;
    }
    for (int n = 0; n < NOC_NIUS; n++) {
        v[TRC_SIG_NOC(n, TRC_NOC_READS)] = noc_in_flight(&t->noc, n, NOC_READ);
        v[TRC_SIG_NOC(n, TRC_NOC_WRITES)] =
            noc_in_flight(&t->noc, n, NOC_WRITE) + noc_in_flight(&t->noc, n, NOC_WRITE_INLINE);
        v[TRC_SIG_NOC(n, TRC_NOC_ATOMICS)] = noc_in_flight(&t->noc, n, NOC_ATOMIC);
    }
}

static void counters(trace_t *tr) {
    const cp_t *cp = tr->run->tile->cp;
    tr->issued = 0;
    for (unsigned th = 0; th < CP_THREADS; th++) {
        const cp_stats_t *st = cp_stats(cp, th);
        tr->pushed[th] = st->pushed;
        tr->issued += st->issued;
        tr->sem_writes[th] = st->sem_writes;
    }
    for (int n = 0; n < NOC_NIUS; n++)
        memcpy(tr->noc_requests[n], tr->run->tile->noc.niu[n].requests, sizeof tr->noc_requests[n]);
}

static void stop_recording(trace_t *tr, uint64_t at, bool truncated) {
    tr->recording = false;
    tr->done = true;
    tr->hi = at;
    if (truncated) {
        tr->truncated = true;
        fprintf(stderr,
                "ttemu: trace: event limit reached at cycle %llu; the trace ends there (use --trace-window or "
                "--trace-start/--trace-stop)\n",
                (unsigned long long)at);
    }
}

/* Room for one more element in a growing array (doubling from first, at most max); false when
 * the limit is reached or memory runs out. */
static bool grow(void **arr, size_t *cap, size_t n, size_t elem, size_t first, size_t max) {
    if (n < *cap) return true;
    if (*cap >= max) return false;
    size_t c = *cap ? 2 * *cap : first;
    void *p = realloc(*arr, c * elem);
    if (!p) return false;
    *arr = p;
    *cap = c;
    return true;
}

static bool add_change(trace_t *tr, uint64_t cycle, unsigned sig, uint32_t val) {
    void *a = tr->chg;
    bool ok = grow(&a, &tr->cap, tr->nchg, sizeof *tr->chg, 4096, TRACE_MAX_CHANGES);
    tr->chg = a;
    if (!ok) return false;
    tr->chg[tr->nchg++] = (tr_change_t){.cycle = cycle, .val = val, .sig = (uint16_t)sig};
    return true;
}

static bool add_instant(trace_t *tr, tr_instant_t in) {
    void *a = tr->ins;
    bool ok = grow(&a, &tr->icap, tr->nins, sizeof *tr->ins, 1024, TRACE_MAX_INSTANTS);
    tr->ins = a;
    if (!ok) return false;
    tr->ins[tr->nins++] = in;
    return true;
}

/* Start the recording at cycle upto instead: fold the changes of the cycles before it into the
 * starting values and drop the older instants (the same recording --trace-start upto makes). */
static void fold(trace_t *tr, uint64_t upto) {
    if (upto <= tr->lo) return;
    size_t k = 0;
    while (k < tr->nchg && tr->chg[k].cycle < upto) {
        tr->base[tr->chg[k].sig] = tr->chg[k].val;
        k++;
    }
    if (k) memmove(tr->chg, tr->chg + k, (tr->nchg - k) * sizeof *tr->chg);
    tr->nchg -= k;
    size_t j = 0;
    while (j < tr->nins && tr->ins[j].cycle < upto)
        j++;
    if (j) memmove(tr->ins, tr->ins + j, (tr->nins - j) * sizeof *tr->ins);
    tr->nins -= j;
    tr->lo = upto;
}

/* Record the cycle that just ran (t->cycle - 1): changes since the last sample, and instants.
 * Stamped with that cycle's number, so a stall that the report says starts at cycle N starts at
 * N in the trace too. */
static bool record(trace_t *tr) {
    const tile_t *t = tr->run->tile;
    uint64_t now = t->cycle ? t->cycle - 1 : 0;
    uint32_t v[TRC_NSIGS];
    sample(t, v);
    for (unsigned s = 0; s < TRC_NSIGS; s++)
        if (v[s] != tr->cur[s]) {
            if (!add_change(tr, now, s, v[s])) return false;
            tr->cur[s] = v[s];
        }
    const cp_t *cp = t->cp;
    uint64_t issued = 0;
    for (unsigned th = 0; th < CP_THREADS; th++) {
        const cp_stats_t *st = cp_stats(cp, th);
        issued += st->issued;
        if (st->pushed != tr->pushed[th]) {
            uint64_t n = st->pushed - tr->pushed[th];
            tr_instant_t in = {.cycle = now,
                               .word = st->last_pushed,
                               .kind = TRI_PUSH,
                               .who = (uint8_t)th,
                               .count = (uint16_t)(n > 0xFFFF ? 0xFFFF : n)};
            if (!add_instant(tr, in)) return false;
        }
        if (st->sem_writes != tr->sem_writes[th]) {
            tr_instant_t in = {.cycle = now, .kind = TRI_SEM_WINDOW, .who = (uint8_t)(CORE_TRISC0 + th), .count = 1};
            if (!add_instant(tr, in)) return false;
        }
    }
    for (int n = 0; n < NOC_NIUS; n++)
        for (unsigned k = 0; k < NOC_KINDS; k++) {
            uint64_t d = t->noc.niu[n].requests[k] - tr->noc_requests[n][k];
            if (!d) continue;
            tr_instant_t in = {.cycle = now,
                               .word = k,
                               .kind = TRI_NOC_ISSUE,
                               .who = (uint8_t)n,
                               .count = (uint16_t)(d > 0xFFFF ? 0xFFFF : d)};
            if (!add_instant(tr, in)) return false;
        }
    if (issued > tr->issued) {
        /* The issue log holds the last CP_ISSUE_LOG words; at most three leave the gates a cycle. */
        cp_issue_t log[CP_ISSUE_LOG];
        uint64_t n = issued - tr->issued;
        unsigned got = cp_issue_log(cp, log, n < CP_ISSUE_LOG ? (unsigned)n : CP_ISSUE_LOG);
        for (unsigned k = 0; k < got; k++) {
            const tt_op_t *op = tt_op((uint8_t)TT_OPCODE(log[k].word));
            if (!op || op->unit != TT_UNIT_SYNC) continue;
            tr_instant_t in = {.cycle = now, .word = log[k].word, .kind = TRI_ISSUE, .who = log[k].thread, .count = 1};
            if (!add_instant(tr, in)) return false;
        }
    }
    counters(tr);
    return true;
}

static uint64_t observe(run_t *r, void *ctx) {
    trace_t *tr = ctx;
    uint64_t now = r->tile->cycle;
    const uint64_t far = UINT64_MAX / 4; /* "not again": run_loop adds it to the cycle */
    if (tr->done) return far;
    if (!tr->recording) {
        if (now < tr->o.start) return tr->o.start - now;
        tr->recording = true;
        tr->lo = now;
        sample(r->tile, tr->base);
        memcpy(tr->cur, tr->base, sizeof tr->cur);
        counters(tr);
        return 1;
    }
    if (tr->o.stop && now >= tr->o.stop) {
        stop_recording(tr, now, false);
        return far;
    }
    if (!record(tr)) {
        stop_recording(tr, now, true);
        return far;
    }
    /* Fold when the recording has doubled since the last fold (amortised constant time). */
    if (tr->o.window && now > tr->o.window && tr->nchg + tr->nins > 2 * tr->fold_mark + TRACE_FOLD_AT) {
        fold(tr, now - tr->o.window);
        tr->fold_mark = tr->nchg + tr->nins;
    }
    return 1;
}

static bool write_file(FILE **f, const char *path, bool (*w)(const tr_rec_t *, FILE *), const tr_rec_t *rec) {
    if (!*f) return true;
    bool ok = w(rec, *f);
    if (fclose(*f) != 0) ok = false;
    *f = NULL;
    if (!ok) fprintf(stderr, "ttemu: cannot write trace %s\n", path);
    return ok;
}

static void finish(run_t *r, void *ctx) {
    trace_t *tr = ctx;
    uint64_t now = r->tile->cycle;
    if (tr->recording) {
        /* The loop's last cycle ended the run before the observer saw it. */
        if (!record(tr))
            stop_recording(tr, now, true);
        else
            stop_recording(tr, now, false);
    } else if (!tr->done) {
        /* The run ended before --trace-start: an empty window at the end. */
        tr->lo = tr->hi = now;
        sample(r->tile, tr->base);
    }
    if (tr->o.window && tr->hi > tr->o.window && tr->hi - tr->o.window > tr->lo) fold(tr, tr->hi - tr->o.window);
    tr_rec_t rec = {.run = r,
                    .lo = tr->lo,
                    .hi = tr->hi,
                    .chg = tr->chg,
                    .nchg = tr->nchg,
                    .ins = tr->ins,
                    .nins = tr->nins,
                    .truncated = tr->truncated};
    memcpy(rec.base, tr->base, sizeof rec.base);
    tr->ok = write_file(&tr->json, tr->o.json_path, trace_write_json, &rec);
    tr->ok = write_file(&tr->vcd, tr->o.vcd_path, trace_write_vcd, &rec) && tr->ok;
}

trace_t *trace_start(run_t *r, const trace_opts_t *o, char *err, size_t errlen) {
    if (o->stop && o->stop <= o->start) {
        snprintf(err, errlen, "--trace-stop %llu must be after --trace-start %llu", (unsigned long long)o->stop,
                 (unsigned long long)o->start);
        return NULL;
    }
    trace_t *tr = calloc(1, sizeof *tr);
    if (!tr) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    tr->o = *o;
    tr->run = r;
    tr->ok = true;
    const char *paths[2] = {o->json_path, o->vcd_path};
    FILE **files[2] = {&tr->json, &tr->vcd};
    for (int i = 0; i < 2; i++) {
        if (!paths[i]) continue;
        *files[i] = fopen(paths[i], "w");
        if (!*files[i]) {
            snprintf(err, errlen, "cannot open trace file %s for writing", paths[i]);
            trace_free(tr);
            return NULL;
        }
    }
    if (!run_observe(r, observe, finish, tr)) {
        snprintf(err, errlen, "too many run observers");
        trace_free(tr);
        return NULL;
    }
    return tr;
}

bool trace_ok(const trace_t *tr) { return !tr || tr->ok; }

void trace_free(trace_t *tr) {
    if (!tr) return;
    if (tr->json) fclose(tr->json);
    if (tr->vcd) fclose(tr->vcd);
    free(tr->chg);
    free(tr->ins);
    free(tr);
}
