/* coproc/sync.c — the Sync Unit (SyncUnit.md; TENSIX.md §4): eight semaphores {Value, Max} of
 * four bits, the mutexes 0, 2, 3, 4, and the execution of ATGETM, ATRELM, SEMINIT, SEMPOST,
 * SEMGET, STALLWAIT, SEMWAIT, STREAMWAIT once they pass a Wait Gate.
 *
 * Throughput (SyncUnit.md table): SEMINIT/SEMPOST/SEMGET, STALLWAIT/SEMWAIT/STREAMWAIT and RISC-V
 * semaphore writes share one slot per cycle; ATGETM/ATRELM issue up to three per cycle provided
 * they name different mutexes. A RISC-V semaphore write always completes (a store cannot be
 * refused here), so it takes the slot first and a Tensix instruction needing it waits a cycle.
 */
#include "coproc/cp_internal.h"

#include <string.h>

/* Every change of a semaphore's Value or Max: sem_gen, and the tile's count (sync_t.moves). */
static inline void sem_moved(sync_t *s) {
    s->sem_gen++;
    if (s->moves) ++*s->moves;
}

void sync_reset(sync_t *s) {
    uint64_t *moves = s->moves; /* (the tile's, kept) */
    memset(s, 0, sizeof *s);
    s->moves = moves;
    if (moves) ++*moves; /* (every Value back to 0) */
    for (unsigned i = 0; i < CP_NUM_SEMS; i++)
        s->hist[i].last_post_thread = s->hist[i].last_get_thread = s->hist[i].last_init_thread = -1;
    for (unsigned i = 0; i < SYNC_MUTEXES; i++) {
        s->holder[i] = -1;
        s->prefer[i] = -1;
    }
}

void sync_sem_note(sync_t *s, unsigned t, uint8_t mask, bool post, bool riscv, uint64_t cycle) {
    if (t >= CP_THREADS) return;
    for (unsigned i = 0; i < CP_NUM_SEMS; i++) {
        if (!((mask >> i) & 1)) continue;
        cp_sem_history_t *h = &s->hist[i];
        if (post) {
            h->posts[t]++;
            h->riscv_posts[t] += riscv;
            h->last_post_cycle = cycle;
            h->last_post_thread = (int8_t)t;
        } else {
            h->gets[t]++;
            h->riscv_gets[t] += riscv;
            h->last_get_cycle = cycle;
            h->last_get_thread = (int8_t)t;
        }
    }
}

void cp_sem_history(const cp_t *cp, unsigned i, cp_sem_history_t *out) {
    if (i < CP_NUM_SEMS)
        *out = cp->sync.hist[i];
    else
        memset(out, 0, sizeof *out);
}

uint64_t cp_mutex_since(const cp_t *cp, unsigned idx) { return idx < SYNC_MUTEXES ? cp->sync.mutex_since[idx] : 0; }

/* SEMPOST.md: every selected semaphore with Value < 15 is incremented — the limit is 15, not
 * Max. */
void sync_sem_post(sync_t *s, uint8_t mask) {
    sem_moved(s);
    for (unsigned i = 0; i < CP_NUM_SEMS; i++)
        if ((mask >> i) & 1 && s->sem[i].value < 15) s->sem[i].value++;
}

/* SEMGET.md: every selected semaphore with Value > 0 is decremented. */
void sync_sem_get(sync_t *s, uint8_t mask) {
    sem_moved(s);
    for (unsigned i = 0; i < CP_NUM_SEMS; i++)
        if ((mask >> i) & 1 && s->sem[i].value > 0) s->sem[i].value--;
}

/* SEMINIT.md: Value = NewValue, Max = NewMax on every selected semaphore. */
void sync_sem_init(sync_t *s, uint8_t mask, unsigned value, unsigned max) {
    sem_moved(s);
    for (unsigned i = 0; i < CP_NUM_SEMS; i++)
        if ((mask >> i) & 1) {
            s->sem[i].value = (uint8_t)(value & 15);
            s->sem[i].max = (uint8_t)(max & 15);
        }
}

/* The semaphore mask sem_sel of SEMINIT/SEMPOST/SEMGET/SEMWAIT (TENSIX.md §4.2). */
static uint8_t sem_sel(uint32_t w) {
    switch (TT_OPCODE(w)) {
    case TT_OPC_SEMINIT: return (uint8_t)TT_SEMINIT_SEM_SEL(w);
    case TT_OPC_SEMPOST: return (uint8_t)TT_SEMPOST_SEM_SEL(w);
    case TT_OPC_SEMGET: return (uint8_t)TT_SEMGET_SEM_SEL(w);
    case TT_OPC_SEMWAIT: return (uint8_t)TT_SEMWAIT_SEM_SEL(w);
    default: return 0;
    }
}

/* The block mask stall_res of a wait; 0 means B6 (STALLWAIT.md, SEMWAIT.md, STREAMWAIT.md). */
static uint16_t block_mask(uint32_t w) {
    uint16_t b;
    switch (TT_OPCODE(w)) {
    case TT_OPC_SEMWAIT: b = (uint16_t)TT_SEMWAIT_STALL_RES(w); break;
    case TT_OPC_STREAMWAIT: b = (uint16_t)TT_STREAMWAIT_STALL_RES(w); break;
    default: b = (uint16_t)TT_STALLWAIT_STALL_RES(w); break;
    }
    return b ? b : TT_B6_MATH;
}

/* The mutex index of ATGETM/ATRELM (ATGETM.md, ATRELM.md). */
static unsigned mutex_index(uint32_t w) {
    return TT_OPCODE(w) == TT_OPC_ATRELM ? TT_ATRELM_MUTEX_INDEX(w) : TT_ATGETM_MUTEX_INDEX(w);
}

bool sync_admit(cp_t *cp, unsigned t, uint32_t word, cp_hold_t *hold, unsigned *detail) {
    sync_t *s = &cp->sync;
    uint8_t opc = TT_OPCODE(word);
    switch (opc) {
    case TT_OPC_ATGETM:
    case TT_OPC_ATRELM: {
        /* ATGETM.md / ATRELM.md: index 1 or > 4 waits forever. */
        unsigned idx = mutex_index(word);
        *detail = idx;
        if (!sync_mutex_valid(idx)) {
            *hold = CP_HOLD_MUTEX_INVALID;
            return false;
        }
        if (opc == TT_OPC_ATGETM) {
            int h = s->holder[idx], p = s->prefer[idx];
            bool taken = (h >= 0 && h != (int)t) || (h < 0 && p >= 0 && p != (int)t);
            if (taken) {
                /* Held by another thread, or being handed to one (ATRELM fairness). */
                cp->gate[t].waiting_mutex = (int)idx;
                *hold = CP_HOLD_MUTEX;
                return false;
            }
        }
        if (sync_mutexes_used(cp) & (1u << idx)) { /* another ATGETM/ATRELM on it this cycle */
            if (opc == TT_OPC_ATGETM) cp->gate[t].waiting_mutex = (int)idx;
            *hold = CP_HOLD_MUTEX;
            return false;
        }
        return true;
    }
    case TT_OPC_SEMINIT:
    case TT_OPC_SEMPOST:
    case TT_OPC_SEMGET:
    case TT_OPC_STALLWAIT:
    case TT_OPC_SEMWAIT:
    case TT_OPC_STREAMWAIT:
        if (sync_slot_taken(cp)) {
            *hold = CP_HOLD_SYNC_SLOT;
            *detail = 0;
            return false;
        }
        return true;
    default: return true;
    }
}

/* STREAMWAIT.md: ThreadConfig[t].STREAM_ID_SYNC_SEC[StreamSelect].BankSel. */
unsigned sync_stream_index(const cp_t *cp, unsigned t, unsigned sel) {
    return thcfg_get(&cp->st, t, THCFG_STREAM_ID_SYNC_SEC0_BankSel + (sel & 3));
}

/* The statistics entry of a wait instruction of thread t: the site with this word pushed from
 * this place, a new one while there is room, else the shared overflow entry. A linear search:
 * waits latch at most once per cycle per thread, and a kernel has a handful of wait sites, met
 * again in the order they were first met: the search starts after the last one found (*from)
 * and goes round. */
static cp_wait_site_t *wait_site(cp_stats_t *st, unsigned *from, uint32_t word, cp_origin_t org) {
    unsigned n = st->nwaits, i = *from < n ? *from : 0;
    for (unsigned k = 0; k < n; k++, i = i + 1 < n ? i + 1 : 0) {
        cp_wait_site_t *w = &st->waits[i];
        if (w->word == word && w->origin.core == org.core && w->origin.pc == org.pc) {
            *from = i + 1;
            return w;
        }
    }
    if (st->nwaits == CP_WAIT_SITES) return &st->waits_other;
    cp_wait_site_t *w = &st->waits[st->nwaits++];
    *from = st->nwaits;
    *w = (cp_wait_site_t){.word = word, .origin = org};
    return w;
}

/* A wait instruction latches into its thread's Wait Gate: the part every wait shares (its
 * opcode and conditions are the caller's). A new one can reach here only when no wait is latched
 * (they are blocked by every block bit), so it never replaces an unsatisfied wait
 * (STALLWAIT.md). */
static inline __attribute__((always_inline)) cp_wait_t *wait_latch(cp_t *cp, unsigned t, uint32_t word,
                                                                   cp_origin_t origin) {
    gate_t *g = &cp->gate[t];
    cp_wait_t *w = &g->wait;
    memset(w, 0, sizeof *w);
    w->active = true;
    w->word = word;
    w->since = cp_now(cp);
    w->block_mask = block_mask(word);
    /* The gate policy (docs/gate-policies.md): whole-thread holds every instruction of the
     * thread, NOP included, as a mask of all nine bits does (STALLWAIT.md). */
    w->gate_mask = cp->policy == CP_GATE_WHOLE_THREAD ? TT_B_ALL : w->block_mask;
    g->site = wait_site(&cp->stats[t], &g->site_from, word, origin);
    g->site->latched++;
    return w;
}

/* sync_exec for all but a STALLWAIT or a SEMWAIT. Out of line: the waits' way makes no call, so
 * it saves no registers. */
static __attribute__((noinline)) void sync_exec_other(cp_t *cp, unsigned t, uint32_t word, cp_origin_t origin) {
    sync_t *s = &cp->sync;
    switch (TT_OPCODE(word)) {
    case TT_OPC_ATGETM: { /* ATGETM.md: HeldBy = CurrentThread */
        unsigned idx = mutex_index(word);
        if (s->holder[idx] != (int8_t)t) s->mutex_since[idx] = cp_now(cp);
        s->holder[idx] = (int8_t)t;
        s->prefer[idx] = -1;
        sync_use_mutex(cp, idx);
        break;
    }
    case TT_OPC_ATRELM: { /* ATRELM.md: released only by its holder */
        unsigned idx = mutex_index(word);
        sync_use_mutex(cp, idx);
        if (s->holder[idx] != (int8_t)t) break;
        s->holder[idx] = -1;
        /* Fairness: when both other threads wait for it, thread (t+1) mod 3 gets it next. */
        unsigned a = (t + 1) % 3, b = (t + 2) % 3;
        if (cp->gate[a].waiting_mutex == (int)idx && cp->gate[b].waiting_mutex == (int)idx) s->prefer[idx] = (int8_t)a;
        break;
    }
    case TT_OPC_SEMINIT: /* SEMINIT.md: Value = init_value, Max = max_value */
        sync_sem_init(s, sem_sel(word), TT_SEMINIT_INIT_VALUE(word), TT_SEMINIT_MAX_VALUE(word));
        for (unsigned i = 0; i < CP_NUM_SEMS; i++)
            if ((sem_sel(word) >> i) & 1) {
                s->hist[i].last_init_cycle = cp_now(cp);
                s->hist[i].last_init_thread = (int8_t)t;
            }
        sync_take_slot(cp);
        break;
    case TT_OPC_SEMPOST:
        sync_sem_post(s, sem_sel(word));
        sync_sem_note(s, t, sem_sel(word), true, false, cp_now(cp));
        sync_take_slot(cp);
        break;
    case TT_OPC_SEMGET:
        sync_sem_get(s, sem_sel(word));
        sync_sem_note(s, t, sem_sel(word), false, false, cp_now(cp));
        sync_take_slot(cp);
        break;
    case TT_OPC_STREAMWAIT: {
        cp_wait_t *w = wait_latch(cp, t, word, origin);
        /* STREAMWAIT.md: StreamSelect wait_stream_sel, ConditionIndex target_sel,
         * TargetValueLo target_value; the high target bits come from this thread's
         * ThreadConfig. */
        unsigned cond = TT_STREAMWAIT_TARGET_SEL(word);
        uint32_t hi = cond ? thcfg_get(&cp->st, t, THCFG_STREAMWAIT_NUM_MSGS_HI_Val)
                           : thcfg_get(&cp->st, t, THCFG_STREAMWAIT_PHASE_HI_Val);
        w->opcode = TT_OPC_STREAMWAIT;
        w->cond_mask = (uint16_t)(1u << cond);
        w->stream_sel = (uint8_t)TT_STREAMWAIT_WAIT_STREAM_SEL(word);
        w->target = (hi << 10) | TT_STREAMWAIT_TARGET_VALUE(word);
        sync_take_slot(cp);
        break;
    }
    default: break;
    }
}

void sync_exec(cp_t *cp, unsigned t, uint32_t word, cp_origin_t origin) {
    tm_wake(cp_tmh(cp), TM_WAKE_SEM); /* (the semaphores a SEMWAIT reads may change: cp_doze) */
    uint8_t opc = TT_OPCODE(word);
    if (opc != TT_OPC_STALLWAIT && opc != TT_OPC_SEMWAIT) {
        sync_exec_other(cp, t, word, origin);
        return;
    }
    /* The wait instructions only latch into their thread's Wait Gate. */
    cp_wait_t *w = wait_latch(cp, t, word, origin);
    if (opc == TT_OPC_STALLWAIT) {
        /* STALLWAIT.md: ConditionMask wait_res, 0 means 0x0F (C0..C3). */
        w->opcode = TT_OPC_STALLWAIT;
        w->cond_mask = (uint16_t)TT_STALLWAIT_WAIT_RES(word);
        if (!w->cond_mask) w->cond_mask = 0x0F;
    } else {
        /* SEMWAIT.md: C0 = wait while Value == 0, C1 = wait while Value >= Max. A zero
         * condition mask is UndefinedBehavior there; TENSIX.md §4.3 reads it as STALLWAIT
         * with conditions 0x0F, which ttemu follows. */
        w->cond_mask = (uint16_t)TT_SEMWAIT_WAIT_SEM_COND(word);
        if (w->cond_mask) {
            w->opcode = TT_OPC_SEMWAIT;
            w->sem_mask = sem_sel(word);
        } else {
            w->opcode = TT_OPC_STALLWAIT;
            w->cond_mask = 0x0F;
        }
    }
    sync_take_slot(cp);
}
