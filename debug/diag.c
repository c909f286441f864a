/* debug/diag.c — stall diagnosis on deadlock or timeout (docs/debugging-stalls.md).
 *
 * From the final state of the tile: per Tensix thread held at its gate, the held instruction, the
 * latched wait or mutex that holds it (decoded), who could release it (from the Sync Unit's
 * history) and for how long it has waited; per core that has not halted, why it does not
 * advance (hung, blocked on a full FIFO or tensix_sync, or spinning: its PC range and the word
 * it polls). Then the wait-for graph, with any cycle in it named. Text on stderr, JSON under
 * "diagnosis" in the report. */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coproc/cp_views.h"
#include "coproc/tt_fields.h"
#include "coproc/tt_ops.h"
#include "debug/diag.h"

/* Wait-for graph nodes: cores 0..4, threads 5..7. */
enum { N_THREAD0 = TILE_NCORES, N_NODES = TILE_NCORES + CP_THREADS };
#define NONE (-1)

typedef struct {
    FILE *f;
    char *buf;
    size_t len;
    cJSON *root;
    int edge[N_NODES][N_NODES];
    bool blocked[N_NODES];
    char why[N_NODES][160]; /* short wait-for label: "waits on sem 1 >= Max" */
} diag_t;

static const char *node_name(int n) {
    static const char *const names[N_NODES] = {"BRISC", "NCRISC", "TRISC0", "TRISC1", "TRISC2", "T0", "T1", "T2"};
    return names[n];
}

static void line(diag_t *d, cJSON *lines, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void line(diag_t *d, cJSON *lines, const char *fmt, ...) {
    char b[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    fprintf(d->f, "  %s\n", b);
    if (lines) cJSON_AddItemToArray(lines, cJSON_CreateString(b));
}

static void block_names(uint16_t mask, char *b, size_t len, cJSON *arr) {
    static const char *const n[9] = {"B0 TDMA",  "B1 SYNC", "B2 PACK", "B3 UNPACK", "B4 XMOV",
                                     "B5 THCON", "B6 MATH", "B7 CFG",  "B8 SFPU"};
    size_t o = 0;
    b[0] = 0;
    for (unsigned i = 0; i < 9; i++)
        if ((mask >> i) & 1) {
            o += (size_t)snprintf(b + o, len > o ? len - o : 0, "%s%s", o ? ", " : "", n[i]);
            cJSON_AddItemToArray(arr, cJSON_CreateString(n[i]));
        }
}

/* A thread other than th whose held or queued words include the SEMPOST (need_post) or SEMGET
 * that would release a wait on semaphore i: the first such thread, its word and the held word
 * it is stuck behind. That thread will release the wait once it itself moves on. */
static int queued_release(const cp_t *cp, unsigned th, unsigned i, bool need_post, uint32_t *word, uint32_t *behind) {
    uint32_t want = need_post ? TT_OPC_SEMPOST : TT_OPC_SEMGET;
    for (unsigned u = 0; u < CP_THREADS; u++) {
        if (u == th) continue;
        cp_thread_state_t s;
        cp_thread_state(cp, u, &s);
        if (!s.held) continue;
        uint32_t q[64 + 1];
        q[0] = s.held_word;
        unsigned n = 1 + cp_thread_queued(cp, u, q + 1, 64);
        for (unsigned k = 0; k < n; k++) {
            uint32_t sems = need_post ? TT_SEMPOST_SEM_SEL(q[k]) : TT_SEMGET_SEM_SEL(q[k]);
            if (TT_OPCODE(q[k]) == want && (sems >> i & 1)) {
                *word = q[k];
                *behind = s.held_word;
                return (int)u;
            }
        }
    }
    return -1;
}

/* Threads that could release a wait on semaphore i: posters (C0, Value == 0) or getters (C1,
 * Value >= Max), from the history, and a thread holding the releasing word in its queue. */
static void sem_release(diag_t *d, const cp_t *cp, unsigned th, unsigned i, bool need_post, cJSON *o, cJSON *lines) {
    cp_sem_history_t h;
    cp_sem_history(cp, i, &h);
    const uint64_t *cnt = need_post ? h.posts : h.gets;
    const char *what = need_post ? "posted" : "decremented (SEMGET)";
    cJSON *by = cJSON_AddArrayToObject(o, "released_by");
    bool any = false;
    for (unsigned t = 0; t < CP_THREADS; t++) {
        if (!cnt[t] || t == th) continue;
        char nm[4];
        snprintf(nm, sizeof nm, "T%u", t);
        cJSON_AddItemToArray(by, cJSON_CreateString(nm));
        d->edge[N_THREAD0 + th][N_THREAD0 + t] = 1;
        any = true;
    }
    int last = need_post ? h.last_post_thread : h.last_get_thread;
    uint64_t lastc = need_post ? h.last_post_cycle : h.last_get_cycle;
    if (last >= 0) {
        cJSON_AddNumberToObject(o, need_post ? "last_post_cycle" : "last_get_cycle", (double)lastc);
        cJSON_AddNumberToObject(o, need_post ? "last_post_thread" : "last_get_thread", last);
    }
    char hist[200] = "";
    size_t n = 0;
    for (unsigned t = 0; t < CP_THREADS; t++)
        if (cnt[t])
            n += (size_t)snprintf(hist + n, sizeof hist - n, "%sT%u %llu time%s", n ? ", " : "", t,
                                  (unsigned long long)cnt[t], cnt[t] == 1 ? "" : "s");
    uint64_t since = last >= 0 ? lastc : h.last_init_thread >= 0 ? h.last_init_cycle : 0;
    char txt[400];
    if (last < 0)
        snprintf(txt, sizeof txt, "nobody has %s semaphore %u since %s%s", what, i,
                 h.last_init_thread >= 0 ? "its SEMINIT at cycle " : "reset", h.last_init_thread >= 0 ? "" : "");
    else
        snprintf(txt, sizeof txt, "nobody has %s semaphore %u since cycle %llu (history: %s)", what, i,
                 (unsigned long long)lastc, hist);
    if (last < 0 && h.last_init_thread >= 0) {
        size_t k = strlen(txt);
        snprintf(txt + k, sizeof txt - k, "%llu by T%d", (unsigned long long)h.last_init_cycle, h.last_init_thread);
    }
    cJSON_AddNumberToObject(o, "no_release_since", (double)since);
    cJSON_AddStringToObject(o, "release", txt);
    line(d, lines, "    release: %s%s", txt, any ? "" : "; no other thread ever did");

    uint32_t qw, behind;
    int u = queued_release(cp, th, i, need_post, &qw, &behind);
    if (u < 0) return;
    int node = N_THREAD0 + (int)th;
    d->edge[node][N_THREAD0 + u] = 1;
    cJSON *qj = cJSON_AddObjectToObject(o, "queued_release");
    cJSON_AddNumberToObject(qj, "thread", u);
    cJSON_AddStringToObject(qj, "mnemonic", tt_mnemonic(qw));
    cJSON_AddNumberToObject(qj, "word", qw);
    cJSON_AddStringToObject(qj, "behind", tt_mnemonic(behind));
    if (qw == behind)
        line(d, lines, "    T%d's %s of semaphore %u would release it, but it is held at T%d's gate", u,
             tt_mnemonic(qw), i, u);
    else
        line(d, lines, "    T%d's %s of semaphore %u would release it, but it is queued behind T%d's held %s", u,
             tt_mnemonic(qw), i, u, tt_mnemonic(behind));
    size_t k = strlen(d->why[node]);
    snprintf(d->why[node] + k, sizeof d->why[node] - k, ", released by T%d's %s %s %s", u, tt_mnemonic(qw),
             qw == behind ? "held at its gate" : "queued behind its", qw == behind ? "" : tt_mnemonic(behind));
}

static void thread_diag(diag_t *d, const run_t *r, unsigned th, cJSON *arr) {
    const cp_t *cp = r->tile->cp;
    cp_thread_state_t s;
    cp_thread_state(cp, th, &s);
    int node = N_THREAD0 + th;
    if (!s.held) return;
    d->blocked[node] = true;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToArray(arr, o);
    cJSON *lines = cJSON_CreateArray();
    char dis[128];
    tt_disasm(s.held_word, dis, sizeof dis);
    cJSON_AddNumberToObject(o, "thread", th);
    cJSON *hj = cJSON_AddObjectToObject(o, "held");
    cJSON_AddStringToObject(hj, "mnemonic", tt_mnemonic(s.held_word));
    cJSON_AddNumberToObject(hj, "word", s.held_word);
    cJSON_AddStringToObject(hj, "disasm", dis);
    cJSON_AddStringToObject(o, "cause", cp_hold_name(s.hold));
    uint64_t now = cp_cycles(cp);
    /* This stall only (the per-cause counters are totals over the run); a latched wait counts
     * from when it latched, below. */
    uint64_t waited = now - s.held_since;
    line(d, lines, "T%u (TRISC%u's Tensix thread) holds %s at its Wait Gate", th, th, dis);
    switch (s.hold) {
    case CP_HOLD_WAIT_COND:
    case CP_HOLD_WAIT_SEM:
    case CP_HOLD_WAIT_STREAM:
    case CP_HOLD_WAIT_LAG: {
        const cp_wait_t *w = &s.wait;
        char wd[128], bl[160];
        tt_disasm(w->word, wd, sizeof wd);
        waited = now - w->since;
        cJSON *wj = cJSON_AddObjectToObject(o, "wait");
        cJSON_AddStringToObject(wj, "mnemonic", tt_mnemonic(w->word));
        cJSON_AddNumberToObject(wj, "word", w->word);
        cJSON_AddStringToObject(wj, "disasm", wd);
        cJSON_AddNumberToObject(wj, "since_cycle", (double)w->since);
        cJSON_AddNumberToObject(wj, "block_mask", w->block_mask);
        block_names(w->block_mask, bl, sizeof bl, cJSON_AddArrayToObject(wj, "blocks"));
        cJSON_AddNumberToObject(wj, "cond_mask", w->cond_mask);
        line(d, lines, "    latched %s since cycle %llu blocks %s", wd, (unsigned long long)w->since, bl);
        if (w->gate_mask != w->block_mask) {
            /* The whole-thread gate policy (docs/gate-policies.md): the gate applies all nine
             * bits. Say whether the wait's own mask would have let the held word pass. */
            const tt_op_t *op = tt_op(TT_OPCODE(s.held_word));
            bool own = op && (op->gate == TT_GATE_NOP ? w->block_mask == TT_B_ALL : (w->block_mask & op->block) != 0);
            cJSON_AddNumberToObject(wj, "gate_mask", w->gate_mask);
            cJSON_AddBoolToObject(wj, "held_by_policy", !own);
            line(d, lines, "    the gate policy is whole-thread: the wait holds every instruction of T%u%s", th,
                 own ? "" : "; under exact its block mask would let this one pass");
        }
        cJSON *still = cJSON_AddArrayToObject(wj, "conditions_true");
        if (s.hold == CP_HOLD_WAIT_SEM) {
            cJSON *sems = cJSON_AddArrayToObject(wj, "semaphores");
            for (unsigned i = 0; i < CP_NUM_SEMS; i++) {
                if (!((s.hold_mask >> i) & 1)) continue;
                unsigned v = cp_sem_read(cp, i), mx = cp_sem_max(cp, i);
                bool c0 = (w->cond_mask & 1) && v == 0;
                cJSON *sj = cJSON_CreateObject();
                cJSON_AddItemToArray(sems, sj);
                cJSON_AddNumberToObject(sj, "index", i);
                cJSON_AddNumberToObject(sj, "value", v);
                cJSON_AddNumberToObject(sj, "max", mx);
                cJSON_AddStringToObject(sj, "condition", c0 ? "C0 Value == 0" : "C1 Value >= Max");
                cJSON_AddItemToArray(still, cJSON_CreateString(c0 ? "C0" : "C1"));
                line(d, lines, "    still true: %s on semaphore %u (Value %u, Max %u)",
                     c0 ? "C0 Value == 0" : "C1 Value >= Max", i, v, mx);
                if (!d->why[node][0])
                    snprintf(d->why[node], sizeof d->why[node], "waits on sem %u %s", i, c0 ? "== 0" : ">= Max");
                sem_release(d, cp, th, i, c0, sj, lines);
            }
        } else if (s.hold == CP_HOLD_WAIT_COND) {
            for (unsigned c = 0; c < 13; c++)
                if ((s.hold_mask >> c) & 1) {
                    char cn[8];
                    snprintf(cn, sizeof cn, "C%u", c);
                    cJSON_AddItemToArray(still, cJSON_CreateString(cn));
                }
            line(d, lines, "    still true: conditions mask 0x%x (lowest C%u busy)", s.hold_mask, s.hold_detail);
            snprintf(d->why[node], sizeof d->why[node], "waits on STALLWAIT condition C%u", s.hold_detail);
        } else if (s.hold == CP_HOLD_WAIT_STREAM) {
            line(d, lines, "    still true: stream %u below target %u", s.hold_detail, w->target);
            snprintf(d->why[node], sizeof d->why[node], "waits on stream %u", s.hold_detail);
        }
        break;
    }
    case CP_HOLD_MUTEX: {
        int holder = cp_mutex_holder(cp, s.hold_detail);
        cJSON *mj = cJSON_AddObjectToObject(o, "mutex");
        cJSON_AddNumberToObject(mj, "index", s.hold_detail);
        if (holder >= 0) {
            cJSON_AddNumberToObject(mj, "holder", holder);
            cJSON_AddNumberToObject(mj, "held_since", (double)cp_mutex_since(cp, s.hold_detail));
            d->edge[node][N_THREAD0 + holder] = 1;
            line(d, lines, "    mutex %u is held by T%d since cycle %llu; it never released it (ATRELM)", s.hold_detail,
                 holder, (unsigned long long)cp_mutex_since(cp, s.hold_detail));
        } else {
            cJSON_AddNullToObject(mj, "holder");
            line(d, lines, "    mutex %u is being handed to another thread", s.hold_detail);
        }
        snprintf(d->why[node], sizeof d->why[node], "waits on mutex %u held by T%d", s.hold_detail, holder);
        break;
    }
    case CP_HOLD_MUTEX_INVALID:
        cJSON_AddNumberToObject(cJSON_AddObjectToObject(o, "mutex"), "index", s.hold_detail);
        line(d, lines, "    %s names mutex %u, which does not exist on Blackhole (0, 2, 3, 4): it waits forever",
             tt_mnemonic(s.held_word), s.hold_detail);
        snprintf(d->why[node], sizeof d->why[node], "waits forever on invalid mutex %u", s.hold_detail);
        break;
    case CP_HOLD_UNDEFINED:
        line(d, lines, "    opcode 0x%02x does not exist on Blackhole: held forever", s.hold_detail);
        snprintf(d->why[node], sizeof d->why[node], "holds undefined opcode 0x%02x", s.hold_detail);
        break;
    default:
        line(d, lines, "    %s", cp_hold_name(s.hold));
        snprintf(d->why[node], sizeof d->why[node], "held (%s)", cp_hold_name(s.hold));
        break;
    }
    cJSON_AddNumberToObject(o, "waited_cycles", (double)waited);
    line(d, lines, "    waited %llu cycles", (unsigned long long)waited);
    cJSON_AddItemToObject(o, "text", lines);
}

/* A load in the loop [lo, hi] of core c, with its address computed from the current registers;
 * *rd is the register it loads. */
static bool polled_word(const run_t *r, int c, uint32_t lo, uint32_t hi, uint32_t *addr, uint32_t *pc, int *rd) {
    const tile_t *t = r->tile;
    const hart_t *h = &t->hart[c];
    for (uint32_t a = lo; a <= hi && a + 4 <= TILE_L1_SIZE; a += 4) {
        uint32_t w;
        memcpy(&w, t->l1 + a, 4);
        insn_t in;
        rv_decode(w, &in);
        const char *m = rv_mnemonic(in.op);
        if (!m || (strcmp(m, "lw") && strcmp(m, "lh") && strcmp(m, "lhu") && strcmp(m, "lb") && strcmp(m, "lbu")))
            continue;
        *addr = h->x[in.rs1] + (uint32_t)in.imm;
        *pc = a;
        *rd = in.rd;
        return true;
    }
    return false;
}

/* The value a polling loop waits for: a `bne` in [lo, hi] (a `beq`: the value it waits to leave)
 * comparing the loaded register rd with another, whose current value that is. */
static bool awaited_value(const run_t *r, int c, uint32_t lo, uint32_t hi, int rd, uint32_t *val, bool *leave) {
    const tile_t *t = r->tile;
    for (uint32_t a = lo; a <= hi && a + 4 <= TILE_L1_SIZE; a += 4) {
        uint32_t w;
        memcpy(&w, t->l1 + a, 4);
        insn_t in;
        rv_decode(w, &in);
        if ((in.op != RV_OP_bne && in.op != RV_OP_beq) || (in.rs1 != rd && in.rs2 != rd) || !rd) continue;
        *val = t->hart[c].x[in.rs1 == rd ? in.rs2 : in.rs1];
        *leave = in.op == RV_OP_beq;
        return true;
    }
    return false;
}

/* What a counter counts, as the request it waits on: "read", "non-posted write", ... */
static const char *counter_request(unsigned counter, char *buf, size_t len) {
    switch (counter) {
    case NIU_MST_RD_RESP_RECEIVED:
    case NIU_MST_RD_DATA_WORD_RECEIVED:
    case NIU_MST_RD_REQ_SENT:
    case NIU_MST_RD_REQ_STARTED: return "read";
    case NIU_MST_WR_ACK_RECEIVED:
    case NIU_MST_NONPOSTED_WR_REQ_SENT:
    case NIU_MST_NONPOSTED_WR_DATA_WORD_SENT:
    case NIU_MST_NONPOSTED_WR_REQ_STARTED: return "non-posted write";
    case NIU_MST_POSTED_WR_REQ_SENT:
    case NIU_MST_POSTED_WR_DATA_WORD_SENT:
    case NIU_MST_POSTED_WR_REQ_STARTED: return "posted write";
    case NIU_MST_ATOMIC_RESP_RECEIVED:
    case NIU_MST_NONPOSTED_ATOMIC_SENT:
    case NIU_MST_NONPOSTED_ATOMIC_STARTED: return "atomic";
    case NIU_MST_POSTED_ATOMIC_SENT: return "posted atomic";
    default:
        if (counter >= NIU_MST_REQS_OUTSTANDING_ID0 && counter < NIU_MST_REQS_OUTSTANDING_ID0 + 32) {
            snprintf(buf, len, "%s with transaction ID %u",
                     counter < NIU_MST_WRITE_REQS_OUTGOING_ID0 ? "request" : "write", counter % 16);
            return buf;
        }
        return "request";
    }
}

/* Core c polls NIU counter `counter` of NOC n, the load at lpc: explain it. Waiting on packets in
 * flight (noc_wait), or, with none that would move it, waiting for a request never issued. */
static void noc_core_diag(diag_t *d, const run_t *r, int c, int n, unsigned counter, uint32_t lpc, bool loop_known,
                          uint32_t lo, uint32_t hi, int rd, bool deadlock, cJSON *o, cJSON *lines) {
    const tile_t *t = r->tile;
    const hart_t *h = &t->hart[c];
    const noc_niu_t *u = &t->noc.niu[n];
    const char *cname = noc_counter_name(counter);
    char rb[64];
    const char *req = counter_request(counter, rb, sizeof rb);
    unsigned k = noc_pending_for(&t->noc, n, counter);
    uint32_t now = u->counter[counter], want = 0;
    bool leave = false, known = loop_known && awaited_value(r, c, lo, hi, rd, &want, &leave);
    char sym[128], at[160], aw[96] = "";
    run_symbol(r, c, lpc, sym, sizeof sym);
    snprintf(at, sizeof at, "pc 0x%08x%s%s%s", lpc, *sym ? " (" : "", sym, *sym ? ")" : "");
    if (known)
        snprintf(aw, sizeof aw, " to %s %u (now %u)", leave ? "change from" : "reach", want, now);
    else
        snprintf(aw, sizeof aw, " (now %u)", now);
    cJSON *nj = cJSON_AddObjectToObject(o, "noc");
    cJSON_AddNumberToObject(nj, "noc", n);
    cJSON_AddStringToObject(nj, "counter", cname);
    cJSON_AddNumberToObject(nj, "addr", 0xFFB20200u + 0x10000u * (uint32_t)n + 4 * counter);
    cJSON_AddNumberToObject(nj, "pc", lpc);
    cJSON_AddNumberToObject(nj, "value", now);
    if (known) cJSON_AddNumberToObject(nj, leave ? "leaves" : "awaits", want);
    cJSON_AddNumberToObject(nj, "in_flight", k);
    cJSON_AddStringToObject(nj, "request", req);
    if (k) {
        cJSON_AddStringToObject(o, "state", "noc_wait");
        line(d, lines, "%s waiting on NOC%d %s (%u outstanding): polls %s at %s%s", h->name, n, req, k, cname, at, aw);
        snprintf(d->why[c], sizeof d->why[c], "waits on NOC%d %s (%u outstanding)", n, req, k);
        return;
    }
    uint64_t issued = 0;
    for (unsigned kind = 0; kind < NOC_KINDS; kind++)
        issued += u->requests[kind];
    cJSON_AddStringToObject(o, "state", "noc_never_issued");
    cJSON_AddNumberToObject(nj, "requests_issued", (double)issued);
    line(d, lines, "%s waits for %s of NOC%d%s at %s, but no %s is in flight on NOC%d", h->name, cname, n, aw, at, req,
         n);
    line(d, lines,
         "    the %s it waits for was never issued (NOC_CMD_CTRL not written): NOC%d has issued %llu reads, %llu "
         "writes, %llu inline writes, %llu atomics, all answered%s",
         req, n, (unsigned long long)u->requests[NOC_READ], (unsigned long long)u->requests[NOC_WRITE],
         (unsigned long long)u->requests[NOC_WRITE_INLINE], (unsigned long long)u->requests[NOC_ATOMIC],
         deadlock ? "; nothing else can move the counter" : "");
    snprintf(d->why[c], sizeof d->why[c], "waits on %s of NOC%d for a %s never issued", cname, n, req);
}

const char *diag_core_wait_name(core_wait_t w) {
    static const char *const names[] = {"", "fifo_full", "tensix_sync", "mop_sync", "noc_wait"};
    return (unsigned)w < sizeof names / sizeof names[0] ? names[w] : "";
}

bool diag_core_noc_wait(const tile_t *t, int c, int *niu, unsigned *counter, unsigned *in_flight) {
    if (t->hart[c].state != HART_RUNNING || noc_idle(&t->noc)) return false;
    for (int n = 0; n < NOC_NIUS; n++) {
        const noc_niu_t *u = &t->noc.niu[n];
        if (u->poll[c].counter < 0 || t->cycle - u->poll[c].cycle > DIAG_NOC_POLL_RECENT) continue;
        unsigned k = noc_pending_for(&t->noc, n, (unsigned)u->poll[c].counter);
        if (!k) continue;
        *niu = n;
        *counter = (unsigned)u->poll[c].counter;
        *in_flight = k;
        return true;
    }
    return false;
}

core_wait_t diag_core_wait(const tile_t *t, int c, int *thread) {
    const hart_t *h = &t->hart[c];
    int th = c >= CORE_TRISC0 ? c - CORE_TRISC0 : -1;
    *thread = -1;
    int niu;
    unsigned counter, k;
    if (h->state == HART_RUNNING && h->wait != HART_WAIT_MEM && diag_core_noc_wait(t, c, &niu, &counter, &k))
        return CORE_WAIT_NOC;
    if (h->state != HART_RUNNING || h->wait != HART_WAIT_MEM) return CORE_WAIT_NONE;
    /* tensix_sync / MOPExpanderDoneCheck: a TRISC's load of its own TTSync word (ManualTTSync.md) */
    if (h->wait_addr - 0xFFE80000u < 0x10u && th >= 0) {
        *thread = th;
        return h->wait_addr == 0xFFE80008u ? CORE_WAIT_MOP_SYNC : CORE_WAIT_TENSIX_SYNC;
    }
    /* a push to a full INSTRN_BUF: a TRISC's own thread, BRISC's by address */
    if (h->wait_addr - 0xFFE40000u < 0x30000u) {
        *thread = th >= 0 ? th : (int)((h->wait_addr - 0xFFE40000u) / 0x10000u);
        return CORE_WAIT_FIFO_FULL;
    }
    return CORE_WAIT_NONE;
}

static void core_diag(diag_t *d, const run_t *r, int c, bool deadlock, cJSON *arr) {
    const tile_t *t = r->tile;
    const hart_t *h = &t->hart[c];
    const run_progress_t *p = &r->progress;
    if (!t->started[c] || h->state == HART_HALTED || h->state == HART_RESET || h->state == HART_FAULTED) return;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToArray(arr, o);
    cJSON *lines = cJSON_CreateArray();
    char sym[128];
    run_symbol(r, c, h->pc, sym, sizeof sym);
    cJSON_AddStringToObject(o, "name", h->name);
    cJSON_AddNumberToObject(o, "pc", h->pc);
    cJSON_AddStringToObject(o, "symbol", sym);
    int th = c >= CORE_TRISC0 ? c - CORE_TRISC0 : -1, to;
    core_wait_t blk = diag_core_wait(t, c, &to);
    if (h->state == HART_HUNG) {
        d->blocked[c] = true;
        cJSON_AddStringToObject(o, "state", "hung");
        cJSON_AddStringToObject(o, "reason", h->hang_reason);
        line(d, lines, "%s hung at pc 0x%08x (%s): %s", h->name, h->pc, sym, h->hang_reason);
        snprintf(d->why[c], sizeof d->why[c], "hung");
    } else if (blk == CORE_WAIT_TENSIX_SYNC || blk == CORE_WAIT_MOP_SYNC) {
        d->blocked[c] = true;
        bool mop = blk == CORE_WAIT_MOP_SYNC;
        cJSON_AddStringToObject(o, "state", diag_core_wait_name(blk));
        cJSON_AddNumberToObject(o, "waits_for_thread", th);
        cJSON_AddNumberToObject(o, "stall_cycles", (double)h->stall_cycles);
        line(d, lines, "%s blocked in %s (load of 0x%08x) at pc 0x%08x (%s) for %llu cycles: waits for T%d to drain",
             h->name, mop ? "MOPExpanderDoneCheck" : "tensix_sync", h->wait_addr, h->pc, sym,
             (unsigned long long)h->stall_cycles, th);
        d->edge[c][N_THREAD0 + th] = 1;
        snprintf(d->why[c], sizeof d->why[c], "waits in tensix_sync for T%d", th);
    } else if (blk == CORE_WAIT_FIFO_FULL) {
        d->blocked[c] = true;
        cJSON_AddStringToObject(o, "state", diag_core_wait_name(blk));
        cJSON_AddNumberToObject(o, "waits_for_thread", to);
        line(d, lines, "%s blocked pushing to the full instruction FIFO of T%d at pc 0x%08x (%s)", h->name, to, h->pc,
             sym);
        d->edge[c][N_THREAD0 + to] = 1;
        snprintf(d->why[c], sizeof d->why[c], "waits for room in T%d's FIFO", to);
    } else if (blk == CORE_WAIT_NOC) { /* polling a counter that a packet in flight will move */
        /* All three set by diag_core_noc_wait (-O3 cannot tell). */
        int n = 0;
        unsigned counter = 0, k;
        diag_core_noc_wait(t, c, &n, &counter, &k);
        noc_core_diag(d, r, c, n, counter, h->pc, false, 0, 0, 0, deadlock, o, lines);
    } else {
        uint32_t lo = p->pc_valid[c] ? p->pc_lo[c] : h->pc, hi = p->pc_valid[c] ? p->pc_hi[c] : h->pc;
        uint32_t a, lpc;
        int rd, niu, counter;
        if (polled_word(r, c, lo, hi, &a, &lpc, &rd) && (counter = noc_counter_at(a, &niu)) >= 0) {
            noc_core_diag(d, r, c, niu, (unsigned)counter, lpc, true, lo, hi, rd, deadlock, o, lines);
            d->blocked[c] = deadlock;
            cJSON_AddItemToObject(o, "text", lines);
            return;
        }
        cJSON_AddStringToObject(o, "state", "spinning");
        char slo[128], shi[128];
        run_symbol(r, c, lo, slo, sizeof slo);
        run_symbol(r, c, hi, shi, sizeof shi);
        cJSON *lj = cJSON_AddObjectToObject(o, "loop");
        cJSON_AddNumberToObject(lj, "lo", lo);
        cJSON_AddNumberToObject(lj, "hi", hi);
        cJSON_AddStringToObject(lj, "symbol", slo);
        uint64_t quiet = t->cycle - p->quiet_since;
        cJSON_AddNumberToObject(o, "quiet_cycles", (double)quiet);
        /* Not a spin when the quiet period began with this core's registers changing at a pc it
         * had been at (run_progress_t.regs_changed_at): it computes, in registers only. Never so
         * on deadlock, which needs a whole window without that. */
        bool computes = p->regs_changed_at[c] && p->regs_changed_at[c] >= p->quiet_since;
        if (computes) {
            cJSON_AddBoolToObject(o, "computes", true);
            /* No claim about stores: memory is compared only on the way to a deadlock (issue 20). */
            if (lo == hi)
                line(d, lines, "%s computes at 0x%08x (%s): its registers change", h->name, lo, slo);
            else
                line(d, lines, "%s computes in 0x%08x..0x%08x (%s..%s): its registers change", h->name, lo, hi, slo,
                     shi);
            snprintf(d->why[c], sizeof d->why[c], "computes at 0x%08x", h->pc);
        } else if (!p->quiet_since) { /* no progress check ran: nothing is known of its stores */
            line(d, lines,
                 "%s runs at 0x%08x (%s); progress was not sampled (--deadlock-window 0, or a run shorter "
                 "than %d cycles)",
                 h->name, h->pc, slo, RUN_PROGRESS_PERIOD);
        } else if (deadlock) {
            line(d, lines, "%s spins in 0x%08x..0x%08x (%s..%s) with no store for %llu cycles", h->name, lo, hi, slo,
                 shi, (unsigned long long)quiet);
        } else {
            /* "No store" is known only on deadlock, where progress detection compared memory over
             * the window; at the cycle limit the loop may well store (issue 20). */
            line(d, lines, "%s was running in 0x%08x..0x%08x (%s..%s) when the run stopped", h->name, lo, hi, slo, shi);
        }
        if (computes) {
            /* what it computes is its own business: no polled word */
        } else if (polled_word(r, c, lo, hi, &a, &lpc, &rd)) {
            uint32_t v = 0;
            bool rd = tile_host_read((tile_t *)t, a & ~3u, &v);
            cJSON *pj = cJSON_AddObjectToObject(o, "polls");
            cJSON_AddNumberToObject(pj, "addr", a);
            cJSON_AddNumberToObject(pj, "pc", lpc);
            cJSON_AddStringToObject(pj, "region", tile_region_name(a));
            if (rd) cJSON_AddNumberToObject(pj, "value", v);
            line(d, lines, "    polls %s 0x%08x (now 0x%08x)%s", tile_region_name(a), a, v,
                 deadlock ? ": nobody has written it, and nothing else can change" : "");
            snprintf(d->why[c], sizeof d->why[c], "spins on %s 0x%08x that nobody writes", tile_region_name(a), a);
        } else {
            snprintf(d->why[c], sizeof d->why[c], "spins at 0x%08x", h->pc);
        }
        d->blocked[c] = deadlock;
    }
    cJSON_AddItemToObject(o, "text", lines);
}

/* Threads with nothing queued are fed by their TRISC: an idle releaser waits on its core. */
static void add_feed_edges(diag_t *d, const run_t *r) {
    for (unsigned th = 0; th < CP_THREADS; th++) {
        cp_thread_state_t s;
        cp_thread_state(r->tile->cp, th, &s);
        if (!s.held) d->edge[N_THREAD0 + th][CORE_TRISC0 + (int)th] = 2;
    }
}

static bool find_cycle(const diag_t *d, int n, int *stack, int depth, bool *on, int *out, int *outlen) {
    stack[depth] = n;
    on[n] = true;
    for (int m = 0; m < N_NODES; m++) {
        if (d->edge[n][m] != 1 || !d->blocked[m]) continue;
        if (on[m]) {
            int k = 0;
            while (stack[k] != m)
                k++;
            *outlen = 0;
            for (; k <= depth; k++)
                out[(*outlen)++] = stack[k];
            return true;
        }
        if (find_cycle(d, m, stack, depth + 1, on, out, outlen)) return true;
    }
    on[n] = false;
    return false;
}

void diag_build(run_t *r) {
    diag_t d = {0};
    d.f = open_memstream(&d.buf, &d.len);
    if (!d.f) return;
    bool deadlock = r->exit.code == EXIT_DEADLOCK;
    cJSON *root = cJSON_CreateObject();
    /* "deadlock", "max_cycles", or "stopped" (the panel ended the run: docs/ui.md) */
    cJSON_AddStringToObject(root, "kind", deadlock ? "deadlock" : r->exit.reason);
    cJSON_AddNumberToObject(root, "cycle", (double)r->tile->cycle);
    cJSON_AddNumberToObject(root, "window", (double)r->progress.window);
    if (r->progress.quiet_since) cJSON_AddNumberToObject(root, "quiet_since", (double)r->progress.quiet_since);
    fprintf(d.f, "ttemu: %s diagnosis at cycle %llu:\n",
            deadlock                            ? "deadlock"
            : strcmp(r->exit.reason, "stopped") ? "timeout"
                                                : "stop",
            (unsigned long long)r->tile->cycle);
    cJSON *threads = cJSON_AddArrayToObject(root, "threads");
    for (unsigned th = 0; th < CP_THREADS; th++)
        thread_diag(&d, r, th, threads);
    cJSON *cores = cJSON_AddArrayToObject(root, "cores");
    for (int c = 0; c < TILE_NCORES; c++)
        core_diag(&d, r, c, deadlock, cores);
    /* Threads: idle ones that a blocked thread relies on are fed by their (blocked or halted) TRISC. */
    add_feed_edges(&d, r);

    /* Chains: from each blocked node, follow the first edge. */
    cJSON *chains = cJSON_AddArrayToObject(root, "chains");
    for (int n = 0; n < N_NODES; n++) {
        if (!d.blocked[n]) continue;
        char b[512];
        size_t o = (size_t)snprintf(b, sizeof b, "%s %s", node_name(n), d.why[n]);
        bool seen[N_NODES] = {false};
        int cur = n;
        seen[n] = true;
        for (;;) {
            int nx = NONE;
            for (int m = 0; m < N_NODES && nx == NONE; m++)
                if (d.edge[cur][m] == 1) nx = m;
            if (nx == NONE && cur >= N_THREAD0 && d.edge[cur][cur - N_THREAD0 + CORE_TRISC0] == 2 && cur != n) {
                /* an idle thread: whatever would release must come from its core */
                int core = cur - N_THREAD0 + CORE_TRISC0;
                const hart_t *h = &r->tile->hart[core];
                o += (size_t)snprintf(b + o, o < sizeof b ? sizeof b - o : 0, " (idle; its %s is %s)", h->name,
                                      h->state == HART_HALTED   ? "halted"
                                      : !r->tile->started[core] ? "in reset"
                                                                : "running");
                break;
            }
            if (nx == NONE) {
                if (cur == n && n >= N_THREAD0 && !strncmp(d.why[n], "waits on sem", 12))
                    o += (size_t)snprintf(b + o, o < sizeof b ? sizeof b - o : 0, " -> nobody");
                break;
            }
            if (seen[nx]) {
                o += (size_t)snprintf(b + o, o < sizeof b ? sizeof b - o : 0, " -> %s (cycle)", node_name(nx));
                break;
            }
            seen[nx] = true;
            o += (size_t)snprintf(b + o, o < sizeof b ? sizeof b - o : 0, " -> %s", node_name(nx));
            if (d.blocked[nx] && d.why[nx][0] && nx != n)
                o += (size_t)snprintf(b + o, o < sizeof b ? sizeof b - o : 0, " (%s)", d.why[nx]);
            cur = nx;
        }
        cJSON_AddItemToArray(chains, cJSON_CreateString(b));
        fprintf(d.f, "  wait-for: %s\n", b);
    }

    /* A cycle in the graph (first found). */
    int stack[N_NODES], cyc[N_NODES], clen = 0;
    bool on[N_NODES] = {false};
    bool found = false;
    for (int n = 0; n < N_NODES && !found; n++) {
        memset(on, 0, sizeof on);
        if (d.blocked[n]) found = find_cycle(&d, n, stack, 0, on, cyc, &clen);
    }
    if (found) {
        char b[512];
        size_t o = 0;
        cJSON *cj = cJSON_AddArrayToObject(root, "cycle_nodes");
        for (int i = 0; i < clen; i++) {
            cJSON_AddItemToArray(cj, cJSON_CreateString(node_name(cyc[i])));
            o += (size_t)snprintf(b + o, o < sizeof b ? sizeof b - o : 0, "%s%s %s", i ? "; " : "", node_name(cyc[i]),
                                  d.why[cyc[i]]);
        }
        cJSON_AddStringToObject(root, "cycle_text", b);
        fprintf(d.f, "  wait-for cycle: %s\n", b);
    } else {
        cJSON_AddNullToObject(root, "cycle_nodes");
    }
    fclose(d.f);
    r->diag_json = root;
    r->diag_text = d.buf;
}
