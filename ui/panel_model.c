/* ui/panel_model.c — the panel's snapshot of a tile (ui/panel_model.h, docs/ui.md). Reads only
 * the read-only views of coproc/cp.h, the harts and the stall diagnosis. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "coproc/cp_views.h"
#include "coproc/tt_ops.h"
#include "debug/diag.h"
#include "ui/panel_model.h"

/* Blackhole's mutexes (SyncUnit.md: 0, 2, 3, 4); tt-llk `struct mutex` names 0 REG_RMW. */

static const char *const hart_states[] = {
    [HART_RESET] = "reset", [HART_RUNNING] = "running", [HART_HALTED] = "halted",
    [HART_HUNG] = "hung",   [HART_FAULTED] = "faulted",
};

const char *ui_tstate_name(ui_tstate_t s) {
    static const char *const n[UI_ST_COUNT] = {"idle", "busy", "issuing", "held_cond", "held_sem", "held_mutex"};
    return s < UI_ST_COUNT ? n[s] : "?";
}

/* Hold causes by strip colour: semaphores and mutexes apart, every other hold is a condition. */
static ui_tstate_t held_state(cp_hold_t h) {
    switch (h) {
    case CP_HOLD_WAIT_SEM: return UI_ST_SEM;
    case CP_HOLD_MUTEX:
    case CP_HOLD_MUTEX_INVALID: return UI_ST_MUTEX;
    default: return UI_ST_COND;
    }
}

ui_tstate_t ui_thread_now(const run_t *r, unsigned t, uint64_t issued_before) {
    const cp_t *cp = r->tile->cp;
    cp_thread_state_t s;
    cp_thread_state(cp, t, &s);
    if (s.held) return held_state(s.hold);
    if (cp_stats(cp, t)->issued != issued_before) return UI_ST_ISSUE;
    return cp_thread_idle(cp, t) ? UI_ST_IDLE : UI_ST_BUSY;
}

void ui_strip_init(ui_strip_t *s) { memset(s, 0, sizeof *s); }

void ui_strip_sample(ui_strip_t *s, const run_t *r) {
    uint64_t now = r->tile->cycle;
    if (s->any && now == s->last_cycle) return;
    unsigned i = s->head;
    s->cycle[i] = now;
    for (unsigned t = 0; t < CP_THREADS; t++) {
        s->st[i][t] = (uint8_t)ui_thread_now(r, t, s->last_issued[t]);
        s->last_issued[t] = cp_stats(r->tile->cp, t)->issued;
    }
    s->head = (i + 1) % UI_STRIP;
    if (s->n < UI_STRIP) s->n++;
    s->last_cycle = now;
    s->any = true;
}

/* One line on what holds thread t, in the words of the diagnosis (debug/diag.c). */
static void why_held(const cp_t *cp, const cp_thread_state_t *s, char *b, size_t len) {
    switch (s->hold) {
    case CP_HOLD_WAIT_SEM: {
        unsigned i = s->hold_detail;
        bool c0 = (s->wait.cond_mask & 1) && cp_sem_read(cp, i) == 0;
        snprintf(b, len, "SEMWAIT: sem %u %s %s", i, cp_sem_llk_name(i), c0 ? "Value == 0" : "Value >= Max");
        break;
    }
    case CP_HOLD_WAIT_COND:
        snprintf(b, len, "STALLWAIT: condition C%u busy (mask 0x%x)", s->hold_detail, s->hold_mask);
        break;
    case CP_HOLD_WAIT_STREAM: snprintf(b, len, "STREAMWAIT: stream %u below %u", s->hold_detail, s->wait.target); break;
    case CP_HOLD_MUTEX: {
        int h = cp_mutex_holder(cp, s->hold_detail);
        if (h >= 0)
            snprintf(b, len, "mutex %u held by T%d", s->hold_detail, h);
        else
            snprintf(b, len, "mutex %u being handed over", s->hold_detail);
        break;
    }
    case CP_HOLD_MUTEX_INVALID: snprintf(b, len, "mutex %u does not exist: waits forever", s->hold_detail); break;
    case CP_HOLD_UNDEFINED: snprintf(b, len, "opcode 0x%02x undefined: held forever", s->hold_detail); break;
    case CP_HOLD_UNIT: snprintf(b, len, "backend unit %s busy", tt_unit_name((tt_unit_t)s->hold_detail)); break;
    default: snprintf(b, len, "%s", cp_hold_name(s->hold)); break;
    }
}

void ui_snap_take(ui_snap_t *o, const run_t *r, const ui_strip_t *s) {
    const tile_t *t = r->tile;
    const cp_t *cp = t->cp;
    memset(o, 0, sizeof *o);
    o->cycle = t->cycle;
    o->exit_reason = r->exit.reason; /* set only once the run is over */
    if (o->exit_reason) {            /* cut to the panel's line */
        memcpy(o->exit_message, r->exit.message, sizeof o->exit_message - 1);
        o->exit_message[sizeof o->exit_message - 1] = 0;
    }

    for (unsigned i = 0; i < CP_NUM_SEMS; i++)
        o->sem[i] = (ui_sem_t){.name = cp_sem_llk_name(i), .value = cp_sem_read(cp, i), .max = cp_sem_max(cp, i)};
    for (unsigned m = 0; m < UI_MUTEXES; m++) {
        unsigned idx = cp_mutex_index[m];
        int h = cp_mutex_holder(cp, idx);
        o->mutex[m] = (ui_mutex_t){.index = idx, .name = idx == 0 ? "REG_RMW" : "", .holder = h};
        if (h >= 0) o->mutex[m].since = cp_mutex_since(cp, idx);
    }

    for (unsigned th = 0; th < CP_THREADS; th++) {
        ui_thread_t *u = &o->th[th];
        cp_thread_state_t st;
        cp_thread_state(cp, th, &st);
        const cp_stats_t *stats = cp_stats(cp, th);
        uint64_t before = s && s->any ? s->last_issued[th] : stats->issued;
        if (s && s->any && s->last_cycle == t->cycle)
            u->state = (ui_tstate_t)s->st[(s->head + UI_STRIP - 1) % UI_STRIP][th];
        else
            u->state = ui_thread_now(r, th, before);
        u->held = st.held;
        u->hold = cp_hold_name(st.hold);
        u->hold_detail = st.hold_detail;
        if (st.held) {
            u->held_word = st.held_word;
            tt_disasm(st.held_word, u->held_dis, sizeof u->held_dis);
            why_held(cp, &st, u->why, sizeof u->why);
            if (st.hold == CP_HOLD_WAIT_SEM)
                for (unsigned i = 0; i < CP_NUM_SEMS; i++)
                    if ((st.hold_mask >> i) & 1) o->sem[i].waiters |= (uint8_t)(1u << th);
            if (st.hold == CP_HOLD_MUTEX)
                for (unsigned m = 0; m < UI_MUTEXES; m++)
                    if (cp_mutex_index[m] == st.hold_detail) o->mutex[m].waiters |= (uint8_t)(1u << th);
        }
        u->wait_active = st.wait.active;
        if (st.wait.active) {
            u->wait_word = st.wait.word;
            tt_disasm(st.wait.word, u->wait_dis, sizeof u->wait_dis);
            u->wait_since = st.wait.since;
        }
        u->fifo1 = st.fifo1;
        u->fifo2 = st.fifo2;
        u->fifo3 = st.fifo3;
        u->mop_busy = st.mop_busy;
        u->replay_busy = st.replay_busy;
        u->replay_left = st.replay_left;
        u->pushed = stats->pushed;
        u->issued = stats->issued;
        u->stall_total = stats->stall_total;
    }

    for (int c = 0; c < TILE_NCORES; c++) {
        const hart_t *h = &t->hart[c];
        ui_core_t *u = &o->core[c];
        u->name = h->name;
        u->started = t->started[c];
        u->state = hart_states[h->state];
        u->pc = h->pc;
        run_symbol(r, c, h->pc, u->sym, sizeof u->sym);
        u->instret = h->instret;
        u->stall_cycles = h->stall_cycles;
        core_wait_t w = diag_core_wait(t, c, &u->blocked_thread);
        u->blocked = diag_core_wait_name(w);
        int niu;
        unsigned counter, k;
        u->waits_on[0] = 0;
        if (w == CORE_WAIT_NOC && diag_core_noc_wait(t, c, &niu, &counter, &k))
            snprintf(u->waits_on, sizeof u->waits_on, "NOC%d %s (%u in flight)", niu,
                     noc_kind_name(noc_counter_kind(counter)), k);
        else if (w != CORE_WAIT_NONE)
            snprintf(u->waits_on, sizeof u->waits_on, "T%d", u->blocked_thread);
    }

    for (int n = 0; n < NOC_NIUS; n++) {
        ui_noc_t *u = &o->noc[n];
        u->reads = noc_in_flight(&t->noc, n, NOC_READ);
        u->writes = noc_in_flight(&t->noc, n, NOC_WRITE) + noc_in_flight(&t->noc, n, NOC_WRITE_INLINE);
        u->atomics = noc_in_flight(&t->noc, n, NOC_ATOMIC);
        u->requests = 0;
        for (unsigned k = 0; k < NOC_KINDS; k++)
            u->requests += t->noc.niu[n].requests[k];
    }

    /* The stall diagnosis exists once a run has ended in deadlock, timeout or a stop. */
    const cJSON *chains = r->diag_json ? cJSON_GetObjectItemCaseSensitive(r->diag_json, "chains") : NULL;
    const cJSON *ch;
    cJSON_ArrayForEach(ch, chains) {
        if (o->nchains == UI_CHAINS || !cJSON_IsString(ch)) break;
        snprintf(o->chains[o->nchains++], sizeof o->chains[0], "%s", ch->valuestring);
    }

    if (s) {
        o->strip_n = s->n;
        o->strip_exact = true;
        unsigned first = (s->head + UI_STRIP - s->n) % UI_STRIP;
        for (unsigned k = 0; k < s->n; k++) {
            unsigned i = (first + k) % UI_STRIP;
            o->strip_cycle[k] = s->cycle[i];
            for (unsigned th = 0; th < CP_THREADS; th++)
                o->strip[th][k] = s->st[i][th];
            if (k && o->strip_cycle[k] != o->strip_cycle[k - 1] + 1) o->strip_exact = false;
        }
    }
}

static cJSON *thread_mask(uint8_t m) {
    cJSON *a = cJSON_CreateArray();
    for (unsigned t = 0; t < CP_THREADS; t++)
        if ((m >> t) & 1) cJSON_AddItemToArray(a, cJSON_CreateNumber(t));
    return a;
}

cJSON *ui_snap_json(const ui_snap_t *s) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddNumberToObject(root, "cycle", (double)s->cycle);
    if (s->exit_reason) {
        cJSON *ex = cJSON_AddObjectToObject(root, "exit");
        cJSON_AddStringToObject(ex, "reason", s->exit_reason);
        cJSON_AddStringToObject(ex, "message", s->exit_message);
    } else {
        cJSON_AddNullToObject(root, "exit");
    }
    cJSON *sems = cJSON_AddArrayToObject(root, "semaphores");
    for (unsigned i = 0; i < CP_NUM_SEMS; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", i);
        cJSON_AddStringToObject(o, "name", s->sem[i].name);
        cJSON_AddNumberToObject(o, "value", s->sem[i].value);
        cJSON_AddNumberToObject(o, "max", s->sem[i].max);
        cJSON_AddItemToObject(o, "waiters", thread_mask(s->sem[i].waiters));
        cJSON_AddItemToArray(sems, o);
    }
    cJSON *mx = cJSON_AddArrayToObject(root, "mutexes");
    for (unsigned m = 0; m < UI_MUTEXES; m++) {
        const ui_mutex_t *u = &s->mutex[m];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", u->index);
        cJSON_AddStringToObject(o, "name", u->name);
        if (u->holder >= 0) {
            cJSON_AddNumberToObject(o, "holder", u->holder);
            cJSON_AddNumberToObject(o, "since", (double)u->since);
        } else {
            cJSON_AddNullToObject(o, "holder");
        }
        cJSON_AddItemToObject(o, "waiters", thread_mask(u->waiters));
        cJSON_AddItemToArray(mx, o);
    }
    cJSON *ths = cJSON_AddArrayToObject(root, "threads");
    for (unsigned t = 0; t < CP_THREADS; t++) {
        const ui_thread_t *u = &s->th[t];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "thread", t);
        cJSON_AddStringToObject(o, "state", ui_tstate_name(u->state));
        cJSON_AddBoolToObject(o, "held", u->held);
        if (u->held) {
            cJSON_AddStringToObject(o, "held_mnemonic", tt_mnemonic(u->held_word));
            cJSON_AddStringToObject(o, "held_disasm", u->held_dis);
            cJSON_AddStringToObject(o, "cause", u->hold);
            cJSON_AddNumberToObject(o, "detail", u->hold_detail);
            cJSON_AddStringToObject(o, "why", u->why);
        }
        if (u->wait_active) {
            cJSON *w = cJSON_AddObjectToObject(o, "latched_wait");
            cJSON_AddStringToObject(w, "mnemonic", tt_mnemonic(u->wait_word));
            cJSON_AddStringToObject(w, "disasm", u->wait_dis);
            cJSON_AddNumberToObject(w, "since", (double)u->wait_since);
        } else {
            cJSON_AddNullToObject(o, "latched_wait");
        }
        cJSON *f = cJSON_AddArrayToObject(o, "fifo");
        cJSON_AddItemToArray(f, cJSON_CreateNumber(u->fifo1));
        cJSON_AddItemToArray(f, cJSON_CreateNumber(u->fifo2));
        cJSON_AddItemToArray(f, cJSON_CreateNumber(u->fifo3));
        cJSON_AddBoolToObject(o, "mop_busy", u->mop_busy);
        cJSON_AddBoolToObject(o, "replay_busy", u->replay_busy);
        cJSON_AddNumberToObject(o, "pushed", (double)u->pushed);
        cJSON_AddNumberToObject(o, "issued", (double)u->issued);
        cJSON_AddItemToArray(ths, o);
    }
    cJSON *cores = cJSON_AddArrayToObject(root, "cores");
    for (int c = 0; c < TILE_NCORES; c++) {
        const ui_core_t *u = &s->core[c];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", u->name);
        cJSON_AddBoolToObject(o, "started", u->started);
        cJSON_AddStringToObject(o, "state", u->state);
        cJSON_AddNumberToObject(o, "pc", u->pc);
        cJSON_AddStringToObject(o, "symbol", u->sym);
        cJSON_AddNumberToObject(o, "instret", (double)u->instret);
        cJSON_AddStringToObject(o, "blocked", u->blocked);
        cJSON_AddStringToObject(o, "waits_on", u->waits_on);
        cJSON_AddItemToArray(cores, o);
    }
    cJSON *noc = cJSON_AddArrayToObject(root, "noc");
    for (int n = 0; n < NOC_NIUS; n++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "noc", n);
        cJSON_AddNumberToObject(o, "reads_in_flight", s->noc[n].reads);
        cJSON_AddNumberToObject(o, "writes_in_flight", s->noc[n].writes);
        cJSON_AddNumberToObject(o, "atomics_in_flight", s->noc[n].atomics);
        cJSON_AddNumberToObject(o, "requests", (double)s->noc[n].requests);
        cJSON_AddItemToArray(noc, o);
    }
    cJSON *ch = cJSON_AddArrayToObject(root, "chains");
    for (int i = 0; i < s->nchains; i++)
        cJSON_AddItemToArray(ch, cJSON_CreateString(s->chains[i]));
    cJSON *st = cJSON_AddObjectToObject(root, "strip");
    cJSON_AddNumberToObject(st, "samples", s->strip_n);
    cJSON_AddBoolToObject(st, "exact", s->strip_exact);
    if (s->strip_n) {
        cJSON_AddNumberToObject(st, "first_cycle", (double)s->strip_cycle[0]);
        cJSON_AddNumberToObject(st, "last_cycle", (double)s->strip_cycle[s->strip_n - 1]);
    }
    /* Per thread, the strip as one letter per sample (oldest first): i idle, b busy, I issuing,
     * c condition, s semaphore, m mutex. */
    cJSON *rows = cJSON_AddArrayToObject(st, "states");
    for (unsigned t = 0; t < CP_THREADS; t++) {
        static const char letter[UI_ST_COUNT] = {'i', 'b', 'I', 'c', 's', 'm'};
        char buf[UI_STRIP + 1];
        for (unsigned k = 0; k < s->strip_n; k++)
            buf[k] = letter[s->strip[t][k] % UI_ST_COUNT];
        buf[s->strip_n] = 0;
        cJSON_AddItemToArray(rows, cJSON_CreateString(buf));
    }
    return root;
}
