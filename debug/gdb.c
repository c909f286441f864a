/* debug/gdb.c — the GDB remote stub: the connection, the packets and run control (docs/gdb.md).
 * debug/gdb_target.c answers for the tile (registers, memory, threads, `monitor`);
 * debug/gdb_pkt.c frames the packets.
 *
 * Run control. The stub is a run observer (run/run.h): run_loop calls it between batches of
 * cycles, it answers how many cycles may run before it looks again, and it ends the run only when
 * gdb kills it or goes away. All-stop and lock-step: the tile only ever stops between two cycles,
 * every core together. While gdb holds the tile the stub serves packets inside its observer call;
 * a resume returns to run_loop. While a breakpoint, watchpoint or step is set the stub looks after
 * every cycle; otherwise after GDB_BATCH cycles (for Ctrl-C) and after any cycle in which a core's
 * state changed (run_observer_t.on_core_change: an ebreak stops gdb at its very cycle). Batches do
 * not change results (tile_run(n) is n cycles), so a run under gdb gives the report it gives
 * without, for the same gdb commands.
 *
 * What stops the tile, looked at between cycles in this order:
 *  - a watchpoint: a core retired a load/store/AMO that touches it (decoded from the core's pc and
 *    registers before the cycle), or, for write watchpoints on L1 and local RAM, the bytes changed
 *    by someone else (the coprocessor's STOREREG, the host model): SIGTRAP with watch/rwatch/awatch;
 *  - a core that halted (ebreak: SIGTRAP) or hung (SIGSTOP, its reason on the console);
 *  - the end of a step: the stepped core retired one instruction (the others ran as many cycles);
 *  - a breakpoint: a running core's pc at the start of its coming turn is on one, unless that core
 *    has not moved since gdb resumed it (gdb steps over the breakpoint it stopped at; a stalled
 *    core does not hit again). Several cores at once: one is reported, the others when gdb next
 *    resumes, before any cycle runs;
 *  - Ctrl-C (SIGINT).
 * The end of the run is reported when run_loop is over (gdb_end): a guest fault as SIGSEGV or
 * SIGILL with its message on gdb's console, a deadlock (SIGABRT) or the cycle limit (SIGXCPU)
 * with the diagnosis on the console, the last ebreak as SIGTRAP; resuming then, or any other
 * end, answers W with the exit code. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "debug/gdb_internal.h"

#define ALL_CORES ((1u << TILE_NCORES) - 1)
#define GDB_BATCH 65536u                    /* cycles between looks at the socket when nothing else asks */
static const uint64_t FAR = UINT64_MAX / 4; /* "not again": run_loop adds it to the cycle */

/* gdb's own signal numbers (gdb/signals.def), which the protocol carries. */
enum { SIG_INT = 2, SIG_ILL = 4, SIG_TRAP = 5, SIG_ABRT = 6, SIG_SEGV = 11, SIG_STOP = 17, SIG_XCPU = 24 };

/* ---- the address ------------------------------------------------------------------------------ */

bool gdb_parse_addr(const char *s, uint16_t *port, char *err, size_t errlen) {
    const char *colon = strrchr(s, ':'), *p = s;
    if (colon) {
        size_t n = (size_t)(colon - s);
        bool loopback = (n == 9 && !strncmp(s, "127.0.0.1", n)) || (n == 9 && !strncmp(s, "localhost", n));
        if (!loopback) {
            snprintf(err, errlen,
                     "--gdb %s: the stub listens on the loopback interface only (127.0.0.1 or localhost): whoever "
                     "connects can read and write the tile",
                     s);
            return false;
        }
        p = colon + 1;
    }
    uint64_t v;
    if (!run_parse_uint(p, 65535, &v)) {
        snprintf(err, errlen, "--gdb needs PORT or 127.0.0.1:PORT (0..65535; 0 takes a free port), got '%s'", s);
        return false;
    }
    *port = (uint16_t)v;
    return true;
}

/* ---- bytes on the wire ----------------------------------------------------------------------- */

static void close_client(gdb_t *g) {
    if (g->cfd >= 0) close(g->cfd);
    g->cfd = -1;
}

/* Read what the client sent, waiting up to timeout_ms (-1: until something comes). Returns the
 * bytes read, 0 when nothing came, -1 when the client is gone. */
static long fill(gdb_t *g, int timeout_ms) {
    if (g->cfd < 0) return -1;
    if (g->inlen == sizeof g->in) return 0; /* gdb_pkt_parse takes something before this */
    struct pollfd p = {.fd = g->cfd, .events = POLLIN};
    int k;
    do
        k = poll(&p, 1, timeout_ms);
    while (k < 0 && errno == EINTR);
    if (k < 0) return -1;
    if (k == 0) return 0;
    ssize_t n;
    do
        n = recv(g->cfd, g->in + g->inlen, sizeof g->in - g->inlen, 0);
    while (n < 0 && errno == EINTR);
    if (n <= 0) return -1;
    g->inlen += (size_t)n;
    return n;
}

static bool send_all(gdb_t *g, const void *buf, size_t n) {
    const uint8_t *p = buf;
    while (n && g->cfd >= 0) {
        ssize_t k = send(g->cfd, p, n, MSG_NOSIGNAL); /* a closed socket is an error, not SIGPIPE */
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= (size_t)k;
    }
    return n == 0;
}

static bool send_packet(gdb_t *g, const char *payload, size_t len) {
    size_t n = gdb_pkt_frame((const uint8_t *)payload, len, g->wire, sizeof g->wire);
    if (!n) n = gdb_pkt_frame((const uint8_t *)"E00", 3, g->wire, sizeof g->wire); /* cannot happen */
    g->wirelen = n;
    return send_all(g, g->wire, n);
}

static bool send_str(gdb_t *g, const char *s) { return send_packet(g, s, strlen(s)); }

/* Text for gdb's console: O packets, hex, in pieces that fit. */
static bool console(gdb_t *g, const char *text) {
    size_t n = strlen(text);
    char buf[1 + 2 * 1024];
    for (size_t i = 0; i < n;) {
        size_t k = n - i < 1024 ? n - i : 1024;
        buf[0] = 'O';
        gdb_hex_encode((const uint8_t *)text + i, k, buf + 1);
        if (!send_packet(g, buf, 1 + 2 * k)) return false;
        i += k;
    }
    return true;
}

static void consume(gdb_t *g, size_t n) {
    memmove(g->in, g->in + n, g->inlen - n);
    g->inlen -= n;
}

/* Take what gdb sends outside packets: acks, '-' (resend), Ctrl-C, junk, and answer a packet that
 * came damaged with '-'. Stops before a whole good packet (returns true) or when more bytes are
 * needed (false). False with *gone when the client is gone. */
static bool take_between(gdb_t *g) {
    for (;;) {
        gdb_pkt_t p;
        size_t n = gdb_pkt_parse(g->in, g->inlen, &p);
        if (n == 0) return false;
        if (p.kind == GDB_PKT_PACKET) return true;
        consume(g, n);
        switch (p.kind) {
        case GDB_PKT_NACK:
            if (g->wirelen) send_all(g, g->wire, g->wirelen);
            break;
        case GDB_PKT_INTERRUPT: g->interrupt = true; break;
        case GDB_PKT_BAD_CHECKSUM:
        case GDB_PKT_OVERSIZE:
            if (!g->noack) send_all(g, "-", 1);
            break;
        default: break;
        }
    }
}

/* The next packet into g->cmd: 1, or 0 when none came within timeout_ms, or -1 when the client is
 * gone. */
static int next_packet(gdb_t *g, int timeout_ms) {
    while (!take_between(g)) {
        long k = fill(g, timeout_ms);
        if (k < 0) return -1;
        if (k == 0) return 0;
    }
    gdb_pkt_t p;
    size_t n = gdb_pkt_parse(g->in, g->inlen, &p);
    memcpy(g->cmd, p.data, p.len);
    g->cmd[p.len] = 0;
    g->cmdlen = p.len;
    consume(g, n);
    if (!g->noack && !send_all(g, "+", 1)) return -1;
    return 1;
}

/* ---- building a reply ------------------------------------------------------------------------- */

static void rb_reset(gdb_t *g) {
    g->rlen = 0;
    g->rb_full = false;
}

static void rb_put(gdb_t *g, const void *s, size_t n) {
    if (n > sizeof g->rb - g->rlen) {
        g->rb_full = true;
        return;
    }
    memcpy(g->rb + g->rlen, s, n);
    g->rlen += n;
}

static void rb_printf(gdb_t *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rb_printf(gdb_t *g, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(g->rb + g->rlen, sizeof g->rb - g->rlen, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof g->rb - g->rlen)
        g->rb_full = true;
    else
        g->rlen += (size_t)n;
}

static void rb_hex(gdb_t *g, const uint8_t *b, size_t n) {
    if (2 * n > sizeof g->rb - g->rlen) {
        g->rb_full = true;
        return;
    }
    gdb_hex_encode(b, n, g->rb + g->rlen);
    g->rlen += 2 * n;
}

/* A 32-bit register in target byte order (little-endian). */
static void rb_reg(gdb_t *g, uint32_t v) {
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    rb_hex(g, b, 4);
}

static bool parse_reg(const char *s, uint32_t *v) {
    uint8_t b[4];
    if (strlen(s) < 8 || !gdb_hex_decode(s, 4, b)) return false;
    *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return true;
}

/* ---- stops ------------------------------------------------------------------------------------ */

static void set_stop(gdb_t *g, int sig, int core, const char *why) {
    snprintf(g->stop, sizeof g->stop, "T%02xthread:%x;%s", sig, core + 1, why ? why : "");
    g->event_core = core;
    g->g_core = core;
}

static bool is_running(const gdb_t *g, int c) { return g->t->hart[c].state == HART_RUNNING; }

static bool resumed(const gdb_t *g, int c) { return (g->resumed >> c) & 1u; }

/* The thread a stop that belongs to no core is reported on (Ctrl-C, the coprocessor): one gdb
 * resumed, running if one is. */
static int some_core(const gdb_t *g) {
    int c0 = g->c_core >= 0 ? g->c_core : g->event_core;
    if (resumed(g, c0) && is_running(g, c0)) return c0;
    for (int pass = 0; pass < 2; pass++)
        for (int c = 0; c < TILE_NCORES; c++)
            if (resumed(g, c) && (pass || is_running(g, c))) return c;
    return c0;
}

/* The breakpoint a core at pc hits, or -1. */
static int bp_at(const gdb_t *g, uint32_t pc) {
    for (int i = 0; i < g->nbp; i++)
        if (g->bp_pc[i] == pc) return i;
    return -1;
}

/* The reason a stop at breakpoint i gives: swbreak/hwbreak tell gdb the pc is its breakpoint's;
 * a breakpoint moved to the next aligned word is not at that pc, so it stops as a plain SIGTRAP
 * (which ends the step gdb was making). */
static const char *bp_why(const gdb_t *g, int i) {
    if (g->bp[i] != g->bp_pc[i]) return "";
    return g->bp_hw[i] ? "hwbreak:;" : "swbreak:;";
}

/* Before resuming (or running a cycle): what each core is about to do. */
static void look_ahead(gdb_t *g) {
    tile_t *t = g->t;
    for (int c = 0; c < TILE_NCORES; c++) {
        g->seen[c] = t->hart[c].state;
        if (g->nwp) {
            g->acc[c] = gt_next_access(t, c);
            g->acc_instret[c] = t->hart[c].instret;
        }
    }
    g->acc_cycle = t->cycle;
}

static void resume(gdb_t *g, int step_core) {
    tile_t *t = g->t;
    g->step_core = step_core;
    for (int c = 0; c < TILE_NCORES; c++) {
        g->res_pc[c] = t->hart[c].pc;
        g->res_instret[c] = t->hart[c].instret;
        g->res_running[c] = is_running(g, c);
    }
    if (step_core >= 0) {
        g->step_instret = t->hart[step_core].instret;
        g->step_running = is_running(g, step_core);
    }
    g->interrupt = false;
    g->poll_at = t->cycle + GDB_BATCH;
    g->st = GS_RUNNING;
    for (int i = 0; i < g->nwp; i++) { /* gdb may have written memory since */
        int who;
        gt_wp_changed(t, &g->wp[i], &who);
    }
    look_ahead(g);
}

/* Cycles the tile may run before the stub must look again. */
static uint64_t batch(const gdb_t *g) {
    if (g->nbp || g->nwp || g->step_core >= 0) return 1;
    uint64_t n = GDB_BATCH, now = g->t->cycle;
    if (g->rcmd && g->rcmd_until - now < n) n = g->rcmd_until - now;
    if (g->poll_at > now && g->poll_at - now < n) n = g->poll_at - now;
    return n ? n : 1;
}

/* One reason to stop, found for one core. Lower prio wins when several cores have one. */
enum { EV_NONE, EV_WATCH, EV_STOPPED, EV_STEP, EV_BP, EV_INT };

static void ev_set(gdb_ev_t *e, int prio, int sig, const char *why, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void ev_set(gdb_ev_t *e, int prio, int sig, const char *why, const char *fmt, ...) {
    if (e->prio) return; /* a core's first (strongest) reason stands */
    e->prio = prio;
    e->sig = sig;
    snprintf(e->why, sizeof e->why, "%s", why);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->desc, sizeof e->desc, fmt, ap);
    va_end(ap);
}

/* A stop gdb cannot be told of now: told when gdb next resumes that core (do_resume). */
static void defer(gdb_t *g, int c, const gdb_ev_t *e) {
    gdb_pending_t *p = &g->pend[c];
    if (p->ev.prio) return; /* the first one stands */
    p->ev = *e;
    p->pc = g->t->hart[c].pc;
    p->instret = g->t->hart[c].instret;
    p->cycle = g->t->cycle;
}

typedef enum { LOOK_RUN, LOOK_STOP, LOOK_GONE } look_t;

/* Running, between two cycles: does anything stop the tile here? The stop is reported on a core
 * gdb resumed (gdb believes the others stopped: it steps one thread over its breakpoint alone);
 * the others' reasons wait for gdb to resume them. Fills g->stop and *ev (its console note). */
static look_t look(gdb_t *g, gdb_ev_t *out) {
    tile_t *t = g->t;
    gdb_ev_t ev[TILE_NCORES];
    memset(ev, 0, sizeof ev);
    memset(out, 0, sizeof *out);

    /* Watchpoints: the cycle just run (one: batch() is 1 while any is set). */
    if (g->nwp && t->cycle == g->acc_cycle + 1) {
        for (int c = 0; c < TILE_NCORES; c++) {
            const gdb_access_t *a = &g->acc[c];
            if (!a->valid || t->hart[c].instret == g->acc_instret[c]) continue; /* stalled or faulted */
            for (int i = 0; i < g->nwp; i++) {
                const gdb_wp_t *w = &g->wp[i];
                if (!gt_access_hits(t, c, a, w)) continue;
                char why[48];
                snprintf(why, sizeof why, "%s:%x;",
                         w->type == 2   ? "watch"
                         : w->type == 3 ? "rwatch"
                                        : "awatch",
                         w->addr);
                ev_set(&ev[c], EV_WATCH, SIG_TRAP, why, "%s touched watched 0x%08x", t->hart[c].name, w->addr);
            }
        }
        for (int i = 0; i < g->nwp; i++) { /* every shadow follows memory, whoever wrote */
            int who;
            gdb_wp_t *w = &g->wp[i];
            if (!gt_wp_changed(t, w, &who) || w->type != 2) continue;
            int c = who >= 0 ? who : some_core(g);
            bool by_core = false; /* a core's store was seen above: that is the report */
            for (int k = 0; k < TILE_NCORES; k++)
                by_core = by_core || (ev[k].prio == EV_WATCH && gt_access_hits(t, k, &g->acc[k], w));
            if (by_core) continue;
            char why[48];
            snprintf(why, sizeof why, "watch:%x;", w->addr);
            ev_set(&ev[c], EV_WATCH, SIG_TRAP, why, "watched 0x%08x changed", w->addr);
            snprintf(ev[c].note, sizeof ev[c].note,
                     "ttemu: 0x%08x was written by none of the cores (the coprocessor or the host)\n", w->addr);
        }
    }
    /* Cores that stopped by themselves. */
    for (int c = 0; c < TILE_NCORES; c++) {
        const hart_t *h = &t->hart[c];
        if (g->seen[c] != HART_RUNNING) continue;
        if (h->state == HART_HALTED) {
            ev_set(&ev[c], EV_STOPPED, SIG_TRAP, "", "%s halted (ebreak) at 0x%08x", h->name, h->pc);
        } else if (h->state == HART_HUNG) {
            ev_set(&ev[c], EV_STOPPED, SIG_STOP, "", "%s hung at 0x%08x", h->name, h->pc);
            snprintf(ev[c].note, sizeof ev[c].note, "ttemu: %s hung at pc 0x%08x: %s\n", h->name, h->pc,
                     h->hang_reason);
        }
    }
    /* The step. */
    if (g->step_core >= 0) {
        const hart_t *h = &t->hart[g->step_core];
        if (!g->step_running || h->instret != g->step_instret || h->state != HART_RUNNING)
            ev_set(&ev[g->step_core], EV_STEP, SIG_TRAP, "", "%s stepped to 0x%08x", h->name, h->pc);
    }
    /* Breakpoints at the coming turns; not for a core still where gdb resumed it (gdb steps it
     * over the breakpoint it stopped at; a stalled core does not hit again). */
    for (int c = 0; c < TILE_NCORES && g->nbp; c++) {
        const hart_t *h = &t->hart[c];
        int i = h->state == HART_RUNNING ? bp_at(g, h->pc) : -1;
        if (i < 0 || (g->res_running[c] && h->pc == g->res_pc[c] && h->instret == g->res_instret[c])) continue;
        ev_set(&ev[c], EV_BP, SIG_TRAP, bp_why(g, i), "%s at the breakpoint at 0x%08x", h->name, h->pc);
    }
    int best = -1;
    for (int c = 0; c < TILE_NCORES; c++)
        if (ev[c].prio && resumed(g, c) && (best < 0 || ev[c].prio < ev[best].prio)) best = c;
    for (int c = 0; c < TILE_NCORES; c++)
        if (ev[c].prio && c != best) defer(g, c, &ev[c]);
    /* Ctrl-C, or a client that went away. */
    if (best < 0 && t->cycle >= g->poll_at) {
        g->poll_at = t->cycle + GDB_BATCH;
        if (fill(g, 0) < 0) return LOOK_GONE;
        take_between(g);
        if (g->interrupt) {
            best = some_core(g);
            ev_set(&ev[best], EV_INT, SIG_INT, "", "interrupted (Ctrl-C)");
        }
    }
    if (best < 0) return LOOK_RUN;
    *out = ev[best];
    set_stop(g, out->sig, best, out->why);
    return LOOK_STOP;
}

/* `monitor step-cycles` is over (or was cut short by a stop): its answer ends the qRcmd. */
static bool finish_rcmd(gdb_t *g, const char *why) {
    char b[700]; /* the longest why (600) and the rest */
    const tile_t *t = g->t;
    uint64_t ran = t->cycle - g->rcmd_from;
    snprintf(b, sizeof b, "ran %llu cycle%s, now at cycle %llu%s%s\n", (unsigned long long)ran, ran == 1 ? "" : "s",
             (unsigned long long)t->cycle, why ? ": " : "", why ? why : "");
    g->rcmd = false;
    g->st = GS_STOPPED;
    return console(g, b) && send_str(g, "OK");
}

/* ---- the end of the session -------------------------------------------------------------------- */

/* Ends the run because of gdb (exit 2, "stopped", as when the panel is closed: docs/cli.md). */
static uint64_t stop_run(gdb_t *g, const char *what) {
    run_t *r = g->r;
    close_client(g);
    g->st = GS_GONE;
    if (g->run_over) return 0;
    r->exit.code = EXIT_MAX_CYCLES;
    r->exit.reason = "stopped";
    snprintf(r->exit.message, sizeof r->exit.message, "stopped at cycle %llu: %s", (unsigned long long)g->t->cycle,
             what);
    fprintf(stderr, "ttemu: gdb: %s at cycle %llu: the run stops (exit 2, stopped)\n", what,
            (unsigned long long)g->t->cycle);
    return 0;
}

static uint64_t gone(gdb_t *g) { return stop_run(g, "the debugger disconnected"); }

static void detach(gdb_t *g) {
    close_client(g);
    g->st = GS_DETACHED;
    g->nbp = 0;
    for (int i = 0; i < g->nwp; i++)
        free(g->wp[i].shadow);
    g->nwp = 0;
    if (!g->run_over)
        fprintf(stderr, "ttemu: gdb: the debugger detached at cycle %llu; the run goes on\n",
                (unsigned long long)g->t->cycle);
}

/* The run is over: its stop, or its exit (W), into g->stop, and what the console is told. */
static void end_stop(gdb_t *g) {
    run_t *r = g->r;
    tile_t *t = g->t;
    const char *reason = r->exit.reason ? r->exit.reason : "";
    char *note = NULL;
    size_t nlen = 0;
    FILE *f = open_memstream(&note, &nlen);
    int sig = 0, core = -1;
    if (!strcmp(reason, "guest_fault")) {
        for (int c = 0; c < TILE_NCORES && core < 0; c++)
            if (t->hart[c].state == HART_FAULTED) core = c;
        fault_kind_t k = core >= 0 ? t->hart[core].fault.kind : FAULT_ILLEGAL;
        bool mem =
            k == FAULT_FETCH || k == FAULT_UNMAPPED || k == FAULT_ACCESS || k == FAULT_MISALIGNED || k == FAULT_AMO;
        sig = mem ? SIG_SEGV : SIG_ILL;
        if (core < 0) core = some_core(g); /* the coprocessor's */
        if (f) fprintf(f, "ttemu: %s\n", r->exit.message);
    } else if (!strcmp(reason, "halted")) {
        for (int c = 0; c < TILE_NCORES && core < 0; c++)
            if (g->seen[c] == HART_RUNNING && t->hart[c].state == HART_HALTED) core = c;
        if (core >= 0) sig = SIG_TRAP;
    } else if (!strcmp(reason, "deadlock") || !strcmp(reason, "max_cycles")) {
        sig = !strcmp(reason, "deadlock") ? SIG_ABRT : SIG_XCPU;
        core = some_core(g);
        if (f) fprintf(f, "ttemu: %s: %s\n%s", reason, r->exit.message, r->diag_text ? r->diag_text : "");
    }
    if (sig) {
        /* gdb was stepping one core alone (it believes the others stopped): the stop is told on
         * that core, the console says which core it was. */
        if (!resumed(g, core)) {
            if (f) fprintf(f, "ttemu: (it happened on %s; gdb had resumed only other cores)\n", t->hart[core].name);
            core = some_core(g);
        }
        set_stop(g, sig, core, "");
    } else {
        snprintf(g->stop, sizeof g->stop, "W%02x", (unsigned)r->exit.code & 0xffu);
        if (f) fprintf(f, "ttemu: the run ended (%s): %s\n", reason, r->exit.message);
    }
    if (f && fclose(f) != 0) note = NULL;
    free(g->end_note);
    g->end_note = note;
}

/* Tell gdb how the run ended (console, then the stop or W). False when the session is over. */
static bool report_end(gdb_t *g) {
    g->end_reported = true;
    if (g->end_note && !console(g, g->end_note)) return false;
    if (!send_str(g, g->stop)) return false;
    if (g->stop[0] == 'W') {
        close_client(g);
        g->st = GS_GONE;
        return false;
    }
    g->st = GS_STOPPED;
    return true;
}

/* ---- packets ----------------------------------------------------------------------------------- */

typedef enum { ACT_REPLY, ACT_RESUME, ACT_DETACH, ACT_KILL, ACT_NONE } act_t;

/* A thread id: "-1" (all), "0" (any) or a core's 1..5. */
static bool parse_tid(const char *s, int *core, const char **end) {
    if (s[0] == '-' && s[1] == '1') {
        *core = -1;
        *end = s + 2;
        return true;
    }
    uint32_t v;
    const char *p = s;
    if (!gdb_hex_u32(&p, &v) || v > TILE_NCORES) return false;
    *core = (int)v - 1;
    *end = p;
    return true;
}

/* The core a packet addresses: Hg's, or the stopped one. */
static int g_core(const gdb_t *g) { return g->g_core >= 0 ? g->g_core : g->event_core; }

static act_t reply_err(gdb_t *g, int n) {
    rb_reset(g);
    rb_printf(g, "E%02x", n);
    return ACT_REPLY;
}

static act_t reply_ok(gdb_t *g) {
    rb_reset(g);
    rb_put(g, "OK", 2);
    return ACT_REPLY;
}

/* "ADDR,LEN" then what follows at *end. */
static bool parse_addr_len(const char *s, uint32_t *addr, uint32_t *len, const char **end) {
    if (!gdb_hex_u32(&s, addr) || *s++ != ',' || !gdb_hex_u32(&s, len)) return false;
    *end = s;
    return true;
}

/* A resume of the cores in mask (one of them stepping, or -1). A stop found earlier for one of
 * them and not told yet is told now, without running a cycle. A breakpoint gdb has removed since
 * is forgotten; a core that ran on from its breakpoint meanwhile (gdb believed it stopped, but the
 * cores run in lock-step: docs/gdb.md) is told as a plain SIGTRAP where it is now. */
static act_t do_resume(gdb_t *g, int step_core, uint32_t mask) {
    g->resumed = mask;
    for (int c = 0; c < TILE_NCORES; c++) {
        gdb_pending_t *p = &g->pend[c];
        if (!resumed(g, c) || !p->ev.prio) continue;
        gdb_ev_t e = p->ev;
        p->ev.prio = EV_NONE;
        const hart_t *h = &g->t->hart[c];
        bool moved = h->pc != p->pc || h->instret != p->instret || h->state != HART_RUNNING;
        if (e.prio == EV_BP) {
            int i = bp_at(g, p->pc);
            if (i < 0) continue;
            if (moved) {
                snprintf(e.why, sizeof e.why, "%s", "");
                snprintf(e.note, sizeof e.note,
                         "ttemu: %s reached the breakpoint at 0x%08x at cycle %llu, while gdb held it as stopped; "
                         "the cores run in lock-step, so it ran on to here\n",
                         h->name, p->pc, (unsigned long long)p->cycle);
            } else {
                snprintf(e.why, sizeof e.why, "%s", bp_why(g, i));
            }
        }
        if (e.note[0] && !console(g, e.note)) return ACT_REPLY; /* the reply fails too: gone */
        set_stop(g, e.sig, c, e.why);
        rb_reset(g);
        rb_put(g, g->stop, strlen(g->stop));
        return ACT_REPLY;
    }
    resume(g, step_core);
    return ACT_RESUME;
}

/* c/s/C/S with an optional address: the thread Hc chose, or the stopped one. */
static act_t cmd_cont(gdb_t *g, bool step) {
    const char *s = g->cmd + 1;
    int core = g->c_core >= 0 ? g->c_core : g->event_core;
    if (g->cmd[0] == 'C' || g->cmd[0] == 'S') { /* the signal is dropped: the tile has none */
        uint32_t sig;
        if (!gdb_hex_u32(&s, &sig)) return reply_err(g, 1);
        if (*s == ';') s++;
    }
    if (*s) {
        uint32_t addr;
        if (!gdb_hex_u32(&s, &addr) || *s) return reply_err(g, 1);
        gt_reg_write(g, core, 32, addr);
    }
    return do_resume(g, step ? core : -1, ALL_CORES);
}

/* vCont;ACTION[:TID]...: all-stop and lock-step, so the only choice is whether one core steps.
 * The cores gdb leaves out (it steps one over a breakpoint alone) run too, as the tile's cores
 * never run apart; their stops are told when gdb resumes them (docs/gdb.md). */
static act_t cmd_vcont(gdb_t *g) {
    const char *s = g->cmd + 5;
    int step = -2; /* -2: none; -1: step without a thread */
    uint32_t mask = 0;
    while (*s == ';') {
        char a = *++s;
        s++;
        if (a == 'C' || a == 'S') {
            uint32_t sig;
            if (!gdb_hex_u32(&s, &sig)) return reply_err(g, 1);
        } else if (a != 'c' && a != 's') {
            return reply_err(g, 1); /* 't' and 'r' are not offered (vCont?) */
        }
        int core = -1;
        if (*s == ':') {
            if (!parse_tid(s + 1, &core, &s)) return reply_err(g, 1);
        }
        mask |= core >= 0 ? 1u << core : ALL_CORES;
        if ((a == 's' || a == 'S') && step == -2) step = core;
    }
    if (*s || !mask) return reply_err(g, 1);
    if (step == -1) step = g->c_core >= 0 ? g->c_core : g->event_core;
    return do_resume(g, step >= 0 ? step : -1, mask);
}

static act_t cmd_regs_read(gdb_t *g) {
    int c = g_core(g);
    rb_reset(g);
    for (unsigned i = 0; i <= 32; i++) {
        uint32_t v = 0;
        gt_reg_read(g, c, i, &v);
        rb_reg(g, v);
    }
    return ACT_REPLY;
}

static act_t cmd_regs_write(gdb_t *g) {
    int c = g_core(g);
    const char *s = g->cmd + 1;
    if (strlen(s) < 33 * 8) return reply_err(g, 1);
    for (unsigned i = 0; i <= 32; i++) {
        uint32_t v;
        if (!parse_reg(s + 8 * i, &v)) return reply_err(g, 1);
        gt_reg_write(g, c, i, v);
    }
    return reply_ok(g);
}

static act_t cmd_reg(gdb_t *g, bool write) {
    const char *s = g->cmd + 1;
    uint32_t n, v = 0;
    if (!gdb_hex_u32(&s, &n)) return reply_err(g, 1);
    if (write) {
        if (*s++ != '=' || !parse_reg(s, &v) || s[8]) return reply_err(g, 1);
        return gt_reg_write(g, g_core(g), n, v) ? reply_ok(g) : reply_err(g, 1);
    }
    if (*s || !gt_reg_read(g, g_core(g), n, &v)) return reply_err(g, 1);
    rb_reset(g);
    rb_reg(g, v);
    return ACT_REPLY;
}

static act_t cmd_mem_read(gdb_t *g) {
    uint32_t addr, len, got;
    const char *s;
    if (!parse_addr_len(g->cmd + 1, &addr, &len, &s) || *s) return reply_err(g, 1);
    if (len > GDB_MEM_CHUNK) len = GDB_MEM_CHUNK;
    uint8_t buf[GDB_MEM_CHUNK];
    if (!gt_mem_read(g, g_core(g), addr, len, buf, &got)) return reply_err(g, 1);
    rb_reset(g);
    rb_hex(g, buf, got);
    return ACT_REPLY;
}

static act_t cmd_mem_write(gdb_t *g, bool binary) {
    uint32_t addr, len;
    const char *s;
    if (!parse_addr_len(g->cmd + 1, &addr, &len, &s) || *s++ != ':' || len > GDB_PKT_MAX) return reply_err(g, 1);
    uint8_t buf[GDB_PKT_MAX];
    size_t have = g->cmdlen - (size_t)(s - g->cmd);
    if (binary) {
        long n = gdb_unescape((const uint8_t *)s, have, buf);
        if (n != (long)len) return reply_err(g, 1);
    } else if (have != 2 * (size_t)len || !gdb_hex_decode(s, len, buf)) {
        return reply_err(g, 1);
    }
    return gt_mem_write(g, g_core(g), addr, len, buf) ? reply_ok(g) : reply_err(g, 1);
}

static act_t cmd_point(gdb_t *g, bool insert) {
    const char *s = g->cmd + 1;
    uint32_t type, addr, kind;
    if (!gdb_hex_u32(&s, &type) || *s++ != ',' || !gdb_hex_u32(&s, &addr) || *s++ != ',' || !gdb_hex_u32(&s, &kind))
        return reply_err(g, 1);
    if (*s && *s != ';') return reply_err(g, 1); /* ";cond" lists: gdb evaluates conditions itself */
    if (type <= 1) {
        if (insert) {
            if (g->nbp == GDB_MAX_BP) return reply_err(g, 0x0e);
            g->bp_hw[g->nbp] = type == 1;
            g->bp_pc[g->nbp] = (addr & 3u) == 2 ? addr + 2 : addr;
            g->bp[g->nbp++] = addr;
            return reply_ok(g);
        }
        for (int i = 0; i < g->nbp; i++)
            if (g->bp[i] == addr && g->bp_hw[i] == (type == 1)) {
                --g->nbp;
                g->bp[i] = g->bp[g->nbp], g->bp_pc[i] = g->bp_pc[g->nbp], g->bp_hw[i] = g->bp_hw[g->nbp];
                break;
            }
        return reply_ok(g);
    }
    if (type > 4) {
        rb_reset(g); /* unknown kind of point: the empty reply */
        return ACT_REPLY;
    }
    if (!insert) {
        for (int i = 0; i < g->nwp; i++)
            if (g->wp[i].addr == addr && g->wp[i].len == kind && g->wp[i].type == type) {
                free(g->wp[i].shadow);
                g->wp[i] = g->wp[--g->nwp];
                break;
            }
        return reply_ok(g);
    }
    if (g->nwp == GDB_MAX_WP || kind == 0 || kind > GDB_WP_MAX_LEN) return reply_err(g, 0x0e);
    gdb_wp_t w = {.addr = addr, .len = kind, .type = (uint8_t)type, .at = gt_place(g->t, -1, addr)};
    if ((w.at.space == GDB_SPACE_L1 && w.at.off + w.len > TILE_L1_SIZE) ||
        (w.at.space != GDB_SPACE_DEV && w.at.space != GDB_SPACE_L1 && w.at.off + w.len > TILE_LDM_MAX))
        return reply_err(g, 0x16);
    size_t n = gt_wp_shadow_size(&w);
    if (n && type == 2) {
        w.shadow = calloc(1, n);
        if (!w.shadow) return reply_err(g, 0x0c);
        int who;
        gt_wp_changed(g->t, &w, &who);
    }
    g->wp[g->nwp++] = w;
    return reply_ok(g);
}

/* qXfer reads: "m" or "l" (last) and the escaped bytes of data[off .. off+len). */
static act_t xfer_reply(gdb_t *g, const char *data, size_t size, const char *range) {
    uint32_t off, len;
    const char *s;
    if (!data) return reply_err(g, 0x0c);
    if (!parse_addr_len(range, &off, &len, &s) || *s) return reply_err(g, 0);
    rb_reset(g);
    if (off >= size) {
        rb_put(g, "l", 1);
        return ACT_REPLY;
    }
    size_t n = size - off < len ? size - off : len;
    if (n > GDB_PKT_MAX / 2) n = GDB_PKT_MAX / 2; /* escaped, it may double */
    rb_put(g, off + n < size ? "m" : "l", 1);
    g->rlen += gdb_escape((const uint8_t *)data + off, n, (uint8_t *)g->rb + g->rlen, sizeof g->rb - g->rlen);
    return ACT_REPLY;
}

static act_t cmd_monitor(gdb_t *g) {
    const char *hex = g->cmd + 6;
    size_t n = strlen(hex) / 2;
    char line[512];
    if (n >= sizeof line || strlen(hex) % 2 || !gdb_hex_decode(hex, n, (uint8_t *)line)) return reply_err(g, 1);
    line[n] = 0;
    char *p = line;
    while (*p == ' ')
        p++;
    for (size_t k = strlen(p); k && p[k - 1] == ' ';)
        p[--k] = 0;
    if (!strncmp(p, "step-cycles", 11) && (!p[11] || p[11] == ' ')) {
        const char *a = p + 11;
        while (*a == ' ')
            a++;
        uint64_t cycles;
        if (!run_parse_uint(a, UINT64_MAX / 8, &cycles) || !cycles) {
            console(g, "ttemu: monitor step-cycles N: N is a number of cycles (1 or more; decimal or 0x hex)\n");
            return reply_err(g, 1);
        }
        if (g->run_over) {
            console(g, "ttemu: the run is over: no cycle can run\n");
            return reply_err(g, 1);
        }
        g->rcmd = true;
        g->rcmd_from = g->t->cycle;
        g->rcmd_until = g->t->cycle + cycles;
        g->resumed = ALL_CORES;
        resume(g, -1);
        return ACT_RESUME;
    }
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    if (!f) return reply_err(g, 0x0c);
    bool ok = gt_monitor(g, p, f);
    if (fclose(f) == 0) console(g, text);
    free(text);
    return ok ? reply_ok(g) : reply_err(g, 1);
}

static act_t cmd_query(gdb_t *g) {
    const char *q = g->cmd;
    rb_reset(g);
    if (!strncmp(q, "qSupported", 10)) {
        rb_printf(g,
                  "PacketSize=%x;QStartNoAckMode+;qXfer:features:read+;qXfer:threads:read+;swbreak+;hwbreak+;"
                  "vContSupported+",
                  GDB_PKT_MAX);
    } else if (!strncmp(q, "qXfer:features:read:target.xml:", 31)) {
        size_t n;
        const char *xml = gt_target_xml(g, &n);
        return xfer_reply(g, xml, n, q + 31);
    } else if (!strncmp(q, "qXfer:features:read:", 20)) {
        return reply_err(g, 0);
    } else if (!strncmp(q, "qXfer:threads:read::", 20)) {
        if (!strncmp(q + 20, "0,", 2) || !g->threads) { /* a new read: build it for this moment */
            free(g->threads);
            g->threads = gt_threads_xml(g, &g->threadslen);
        }
        return xfer_reply(g, g->threads, g->threadslen, q + 20);
    } else if (!strcmp(q, "qfThreadInfo")) {
        rb_put(g, "m1,2,3,4,5", 10);
    } else if (!strcmp(q, "qsThreadInfo")) {
        rb_put(g, "l", 1);
    } else if (!strncmp(q, "qThreadExtraInfo,", 17)) {
        int c;
        const char *e;
        if (!parse_tid(q + 17, &c, &e) || c < 0 || *e) return reply_err(g, 1);
        char st[300], both[320];
        gt_thread_state(g, c, st, sizeof st);
        snprintf(both, sizeof both, "%s: %s", tile_core_names[c], st);
        rb_hex(g, (const uint8_t *)both, strlen(both));
    } else if (!strcmp(q, "qC")) {
        rb_printf(g, "QC%x", g->event_core + 1);
    } else if (!strncmp(q, "qAttached", 9)) {
        rb_put(g, "1", 1); /* the run was there first: gdb detaches on quit, the run goes on */
    } else if (!strncmp(q, "qRcmd,", 6)) {
        return cmd_monitor(g);
    } else if (!strncmp(q, "qSymbol:", 8)) {
        rb_put(g, "OK", 2);
    }
    return ACT_REPLY; /* anything else: the empty reply (not supported) */
}

static act_t handle(gdb_t *g) {
    const char *c = g->cmd;
    rb_reset(g);
    switch (c[0]) {
    case '?': rb_put(g, g->stop, strlen(g->stop)); return ACT_REPLY;
    case 'g': return cmd_regs_read(g);
    case 'G': return cmd_regs_write(g);
    case 'p': return cmd_reg(g, false);
    case 'P': return cmd_reg(g, true);
    case 'm': return cmd_mem_read(g);
    case 'M': return cmd_mem_write(g, false);
    case 'X': return cmd_mem_write(g, true);
    case 'c':
    case 'C': return cmd_cont(g, false);
    case 's':
    case 'S': return cmd_cont(g, true);
    case 'Z': return cmd_point(g, true);
    case 'z': return cmd_point(g, false);
    case 'H': {
        int core;
        const char *e;
        if ((c[1] != 'g' && c[1] != 'c') || !parse_tid(c + 2, &core, &e) || *e) return reply_err(g, 1);
        *(c[1] == 'g' ? &g->g_core : &g->c_core) = core;
        return reply_ok(g);
    }
    case 'T': {
        int core;
        const char *e;
        return parse_tid(c + 1, &core, &e) && core >= 0 && !*e ? reply_ok(g) : reply_err(g, 1);
    }
    case 'D': return ACT_DETACH;
    case 'k': return ACT_KILL;
    case 'q': return cmd_query(g);
    case 'Q':
        if (!strcmp(c, "QStartNoAckMode")) return reply_ok(g);
        return ACT_REPLY;
    case 'v':
        if (!strcmp(c, "vCont?")) {
            rb_put(g, "vCont;c;C;s;S", 13);
            return ACT_REPLY;
        }
        if (!strncmp(c, "vCont;", 6)) return cmd_vcont(g);
        if (!strncmp(c, "vKill", 5)) return ACT_KILL;
        return ACT_REPLY; /* vMustReplyEmpty and every other v packet: not supported */
    default: return ACT_REPLY;
    }
}

/* Serve gdb while the tile is stopped, until it resumes, detaches, kills or goes away: the
 * cycles to run, FAR or 0 (end the run), as the observer returns them. */
static uint64_t serve(gdb_t *g) {
    for (;;) {
        if (next_packet(g, -1) <= 0) return gone(g); /* 0: a full buffer with no packet, cannot happen */
        act_t a = handle(g);
        switch (a) {
        case ACT_REPLY:
            if (g->rb_full) {
                rb_reset(g);
                rb_put(g, "E0e", 3);
            }
            if (!send_packet(g, g->rb, g->rlen)) return gone(g);
            if (!strcmp(g->cmd, "QStartNoAckMode")) g->noack = true;
            break;
        case ACT_RESUME:
            if (!g->run_over) return batch(g);
            g->st = GS_STOPPED;
            g->rcmd = false;
            if (!g->end_reported) {
                if (!report_end(g)) return 0;
            } else {
                snprintf(g->stop, sizeof g->stop, "W%02x", (unsigned)g->r->exit.code & 0xffu);
                send_str(g, g->stop);
                close_client(g);
                g->st = GS_GONE;
                return 0;
            }
            break;
        case ACT_DETACH:
            send_str(g, "OK");
            detach(g);
            return FAR;
        case ACT_KILL:
            if (!strncmp(g->cmd, "vKill", 5)) send_str(g, "OK");
            return stop_run(g, "killed by the debugger");
        case ACT_NONE: break;
        }
    }
}

/* ---- the observer ---------------------------------------------------------------------------- */

static bool accept_client(gdb_t *g, int timeout_ms) {
    struct pollfd p = {.fd = g->lfd, .events = POLLIN};
    int k;
    do
        k = poll(&p, 1, timeout_ms);
    while (k < 0 && errno == EINTR);
    if (k <= 0) return false;
    int fd = accept(g->lfd, NULL, NULL);
    if (fd < 0) return false;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    close(g->lfd); /* one session per run */
    g->lfd = -1;
    g->cfd = fd;
    g->st = GS_STOPPED;
    fprintf(stderr, "ttemu: gdb: a debugger attached at cycle %llu\n", (unsigned long long)g->t->cycle);
    return true;
}

static uint64_t gdb_after(run_t *r, void *ctx) {
    (void)r;
    gdb_t *g = ctx;
    gdb_ev_t ev;
    switch (g->st) {
    case GS_DETACHED:
    case GS_GONE: return FAR;
    case GS_LISTEN:
        if (!accept_client(g, g->wait ? -1 : 0)) {
            if (!g->wait) return GDB_BATCH;
            fprintf(stderr, "ttemu: gdb: no debugger could attach (%s); the run goes on without one\n",
                    strerror(errno));
            g->st = GS_DETACHED;
            return FAR;
        }
        set_stop(g, SIG_TRAP, some_core(g), "");
        break;
    case GS_RUNNING:
        switch (look(g, &ev)) {
        case LOOK_RUN:
            if (g->rcmd && g->t->cycle >= g->rcmd_until) {
                if (!finish_rcmd(g, NULL)) return gone(g);
                return serve(g);
            }
            look_ahead(g);
            return batch(g);
        case LOOK_GONE: return gone(g);
        case LOOK_STOP: break;
        }
        if (g->rcmd) {
            char why[200];
            snprintf(why, sizeof why, "stopped early: %s", ev.desc);
            if (!finish_rcmd(g, why)) return gone(g);
        } else {
            g->st = GS_STOPPED;
            if ((ev.note[0] && !console(g, ev.note)) || !send_str(g, g->stop)) return gone(g);
        }
        break;
    case GS_STOPPED: break;
    }
    return serve(g);
}

static void gdb_end(run_t *r, void *ctx) {
    (void)r;
    gdb_t *g = ctx;
    g->run_over = true;
    if (g->st == GS_LISTEN && g->wait && !accept_client(g, -1)) return; /* ended before its first cycle */
    if (g->st != GS_RUNNING && g->st != GS_STOPPED) return;
    end_stop(g);
    if (g->st == GS_RUNNING && !g->rcmd) {
        if (!report_end(g)) return;
    } else if (g->rcmd) {
        char why[600];
        snprintf(why, sizeof why, "the run ended (%s); continue to see how", r->exit.reason ? r->exit.reason : "");
        if (!finish_rcmd(g, why)) return;
    }
    g->st = GS_STOPPED;
    serve(g);
    close_client(g);
}

gdb_t *gdb_start(run_t *r, const gdb_opts_t *o, char *err, size_t errlen) {
    gdb_t *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "--gdb: out of memory");
        return NULL;
    }
    g->r = r;
    g->t = r->tile;
    g->cfd = -1;
    g->wait = o->wait;
    g->st = GS_LISTEN;
    g->g_core = g->c_core = -1;
    g->step_core = -1;
    g->resumed = ALL_CORES;
    g->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(o->port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t alen = sizeof a;
    if (g->lfd < 0 || setsockopt(g->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(g->lfd, (struct sockaddr *)&a, sizeof a) != 0 || listen(g->lfd, 1) != 0 ||
        getsockname(g->lfd, (struct sockaddr *)&a, &alen) != 0) {
        snprintf(err, errlen, "--gdb: cannot listen on 127.0.0.1:%u: %s", o->port, strerror(errno));
        gdb_free(g);
        return NULL;
    }
    g->port = ntohs(a.sin_port);
    run_observer_t *ob = run_observe(r, gdb_after, gdb_end, g);
    if (!ob) {
        snprintf(err, errlen, "--gdb: too many run observers");
        gdb_free(g);
        return NULL;
    }
    ob->on_core_change = true;
    fprintf(stderr, "ttemu: gdb: listening on 127.0.0.1:%u%s\n", g->port,
            g->wait ? " (--gdb-wait: the run starts when a debugger attaches)" : "");
    fflush(stderr);
    return g;
}

void gdb_free(gdb_t *g) {
    if (!g) return;
    close_client(g);
    if (g->lfd >= 0) close(g->lfd);
    for (int i = 0; i < g->nwp; i++)
        free(g->wp[i].shadow);
    free(g->end_note);
    free(g->xml);
    free(g->threads);
    free(g);
}
