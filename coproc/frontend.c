/* coproc/frontend.c — one Tensix thread's frontend up to the Wait Gate: FIFO#1, the MOP
 * expander, FIFO#2, the replay expander and FIFO#3 (TENSIX.md §3.1–3.4).
 *
 * Each expander handles at most one word in and one word out per cycle, and only moves a word
 * downstream when the next FIFO has room (back-pressure). cp_cycle() calls the replay expander
 * before the MOP expander, so a slot freed downstream is usable upstream in the same cycle and a
 * word advances at most one stage per cycle.
 */
#include "coproc/cp_internal.h"

#include <string.h>

void fe_reset(fe_thread_t *fe) {
    memset(fe, 0, sizeof *fe);
    fe->fifo1.cap = FE_FIFO1_DEPTH;
    fe->fifo2.cap = FE_FIFO2_DEPTH;
    fe->fifo3.cap = FE_FIFO3_DEPTH;
    /* MopCfg, MaskHi and the replay buffer power up as zero words (no reset value is
     * documented; a zero word is not a valid instruction, so software must program them). */
}

/* ---- MOP expander (MOPExpander.md) ----------------------------------------------------------- */

/* MOPExpander.md IsNop: plain NOP only (opcode 0x02), not DMANOP nor SFPNOP. */
static bool mop_is_nop(uint32_t w) { return TT_OPCODE(w) == TT_OPC_NOP; }

/* ExpandTemplate0: Count1+1 iterations, one mask bit each (LSB first). Bit clear: InsnA0
 * [, A1, A2, A3 if HasA123][, InsnB if HasB]; bit set: SkipA0 [, SkipB if HasB]. */
static bool mop_t0_next(fe_mop_t *m, uint32_t *out) {
    while (m->slot >= m->nslots) {
        if (m->iter >= m->iters) return false;
        const uint32_t *c = m->snap;
        bool has_b = c[1] & 1, has_a123 = c[1] & 2;
        m->nslots = 0;
        m->slot = 0;
        if ((m->mask & 1) == 0) {
            m->slots[m->nslots++] = c[3]; /* InsnA0 */
            if (has_a123) {
                m->slots[m->nslots++] = c[4];
                m->slots[m->nslots++] = c[5];
                m->slots[m->nslots++] = c[6];
            }
            if (has_b) m->slots[m->nslots++] = c[2]; /* InsnB */
        } else {
            m->slots[m->nslots++] = c[7];            /* SkipA0 */
            if (has_b) m->slots[m->nslots++] = c[8]; /* SkipB */
        }
        m->mask >>= 1; /* past bit 31 the mask is 0: later iterations take the A path */
        m->iter++;
    }
    *out = m->slots[m->slot++];
    return true;
}

/* ExpandTemplate1, the doc's loop nest unrolled into phases:
 *   for j < Outer: [Start] ; for i < Inner: Loop (toggling with Loop1), the last one replaced by
 *   Loop1Last (j not last) or Loop0Last (j last) ; [End0 [End1]]
 * LoopOp toggles in place and is never reset between outer iterations, as in the doc. */
static bool mop_t1_next(fe_mop_t *m, uint32_t *out) {
    const uint32_t *c = m->snap;
    for (;;) {
        if (m->j >= m->outer) return false;
        switch (m->phase) {
        case T1_START:
            m->phase = T1_INNER;
            m->i = 0;
            if (!mop_is_nop(c[2])) { /* StartOp, skipped if NOP */
                *out = c[2];
                return true;
            }
            break;
        case T1_INNER:
            if (m->i < m->inner) {
                if (m->i != m->inner - 1)
                    *out = m->loop_op;
                else if (m->j != m->outer - 1)
                    *out = c[8]; /* Loop1Last: last inner iteration, not last outer */
                else
                    *out = c[7]; /* Loop0Last: last inner iteration of the last outer */
                m->loop_op ^= m->flip;
                m->i++;
                return true;
            }
            m->phase = T1_END0;
            break;
        case T1_END0:
            if (mop_is_nop(c[3])) { /* EndOp0 NOP: EndOp1 is not used either */
                m->j++;
                m->phase = T1_START;
                break;
            }
            m->phase = T1_END1;
            *out = c[3];
            return true;
        case T1_END1:
            m->j++;
            m->phase = T1_START;
            if (!mop_is_nop(c[4])) {
                *out = c[4];
                return true;
            }
            break;
        }
    }
}

static bool mop_next(fe_mop_t *m, uint32_t *out) {
    return m->kind == MOP_TEMPLATE0 ? mop_t0_next(m, out) : mop_t1_next(m, out);
}

/* Ingest a MOP word: sample MopCfg (the functional model samples at the start; silicon samples
 * lazily, so software must not rewrite MopCfg mid-expansion — MOPExpanderDoneCheck). */
static void mop_begin(fe_mop_t *m, uint32_t w) {
    memcpy(m->snap, m->cfg, sizeof m->snap);
    if (TT_MOP_MOP_TYPE(w) == 0) {
        /* MOP.md: Template 0, Count1 = loop_count [22:16], MaskLo = bits [15:0]. */
        m->kind = MOP_TEMPLATE0;
        m->mask = ((uint32_t)m->mask_hi << 16) | TT_MOP_ZMASK_LO16_OR_LOOP_COUNT(w);
        m->iters = TT_MOP_LOOP_COUNT(w) + 1;
        m->iter = 0;
        m->nslots = m->slot = 0;
        return;
    }
    /* Template 1. Its instruction fields are ignored: tt-llk's yaml hints that non-zero fields
     * override the loop counts on Blackhole, but no ISA page says so (TENSIX.md §3.3). */
    m->kind = MOP_TEMPLATE1;
    m->outer = m->snap[0] & 127;
    m->inner = m->snap[1] & 127;
    m->loop_op = m->snap[5];
    m->flip = 0;
    if (!mop_is_nop(m->snap[6])) { /* alternate LoopOp, LoopOp1 over twice the iterations */
        m->flip = m->snap[5] ^ m->snap[6];
        m->inner *= 2;
    }
    /* MOPExpander.md: documented hardware bug. */
    if (m->outer == 1 && mop_is_nop(m->snap[2]) && m->inner == 0 && !mop_is_nop(m->snap[3])) m->outer += 128;
    m->j = m->i = 0;
    m->phase = T1_START;
}

/* The MOP expander's two ways that call (mop_next) take what the step did so far (did) and give
 * it back with their own: called last, as tail calls, they leave fe_step without a frame for its
 * commonest steps (a word passing through, nothing to do). */

/* The MOP expander's push into FIFO#2 (which has room), its high water noted (fe_thread_t). */
static inline void mop_push2(fe_thread_t *fe, uint32_t w, cp_origin_t org) {
    fifo_push(&fe->fifo2, w, org);
    if (fe->fifo2.count > fe->fifo2_high) fe->fifo2_high = fe->fifo2.count;
}

/* The expansion's next words into the list (fe_mop_t.list), from its first: up to FE_MOP_LIST,
 * fewer when the generators end. */
static void mop_fill(fe_mop_t *m) {
    unsigned n = 0;
    while (n < FE_MOP_LIST && mop_next(m, &m->list[n]))
        n++;
    m->n = (uint8_t)n;
    m->at = 0;
    m->more = n == FE_MOP_LIST; /* (perhaps none: the next fill then finds the end) */
}

/* Emit the next expanded word if FIFO#2 has room; ends the expansion when nothing is left (the
 * expander resolves control flow for free, so the end is known when the last word goes). */
static __attribute__((noinline)) unsigned mop_emit(fe_thread_t *fe, unsigned did) {
    fe_mop_t *m = &fe->mop;
    if (fifo_full(&fe->fifo2)) return did; /* (stuck: mop_step notes it) */
    mop_push2(fe, m->list[m->at], m->org);
    if (++m->at == m->n) {
        if (m->more) mop_fill(m); /* the words after it, generated ahead */
        if (m->at == m->n) {
            m->kind = MOP_IDLE;
            m->bubble = true;
        }
    }
    return (did & ~FE_POP2) | FE_MOVED; /* (FIFO#2 got back what the replay expander took) */
}

/* Is the list the whole expansion of MOP w with this MaskHi and MopCfg (fe_mop_t.cached)? */
static bool mop_cached(const fe_mop_t *m, uint32_t w) {
    return m->cached && m->key.w == w && m->key.mask_hi == m->mask_hi && !memcmp(m->key.cfg, m->cfg, sizeof m->cfg);
}

/* Ingest the MOP w at the head of FIFO#1; cache: the expansion may come from the list's cache
 * (the fast path's expander, fe_step). */
static __attribute__((noinline)) unsigned mop_ingest(fe_thread_t *fe, uint32_t w, unsigned did, bool cache) {
    fe_mop_t *m = &fe->mop;
    m->org = fifo_peek_org(&fe->fifo1);
    fifo_pop(&fe->fifo1);
    did |= FE_MOVED | FE_POP1;
    if (cache && mop_cached(m, w)) {
        /* mop_begin's kind; the generators' state is not read again (no more words) */
        m->kind = TT_MOP_MOP_TYPE(w) == 0 ? MOP_TEMPLATE0 : MOP_TEMPLATE1;
        m->at = 0;
    } else {
        mop_begin(m, w);
        mop_fill(m);
        m->cached = !m->more;
        if (m->cached) {
            m->key.w = w;
            m->key.mask_hi = m->mask_hi;
            memcpy(m->key.cfg, m->cfg, sizeof m->cfg);
        }
    }
    if (m->n == 0) {
        /* An expansion with no words at all still ends with the transition cycle. */
        m->kind = MOP_IDLE;
        m->bubble = true;
        return did;
    }
    /* the first word leaves in the cycle the MOP is ingested */
    return mop_emit(fe, did);
}

/* cache: a MOP may come from the list's cache (fe_mop_t.cached); mark: note a stuck step
 * (fe_mop_t.stuck; fe_step_fed's). */
static inline unsigned mop_step(fe_thread_t *fe, unsigned did, bool cache, bool mark) {
    fe_mop_t *m = &fe->mop;
    if (m->kind != MOP_IDLE) {
        if (mark && fifo_full(&fe->fifo2)) {
            m->stuck = true;
            return did;
        }
        return mop_emit(fe, did);
    }
    if (fifo_empty(&fe->fifo1)) {
        bool ended = m->bubble;
        m->bubble = false; /* the transition cycle passes while nothing is queued */
        return ended ? did | FE_MOVED : did;
    }
    uint32_t w = fifo_peek(&fe->fifo1);
    uint8_t opc = TT_OPCODE(w);
    if (m->bubble) {
        /* MOPExpander.md Performance: after a MOP, a next instruction that is not a MOP costs a
         * cycle in which the expander neither ingests nor emits. */
        m->bubble = false;
        if (opc != TT_OPC_MOP) return did | FE_MOVED;
    }
    switch (opc) {
    case TT_OPC_MOP_CFG: /* MOP_CFG.md: MaskHi for the next template-0 MOP */
        fifo_pop(&fe->fifo1);
        m->mask_hi = (uint16_t)TT_MOP_CFG_ZMASK_HI16(w);
        return did | FE_MOVED | FE_POP1;
    case TT_OPC_MOP: return mop_ingest(fe, w, did, cache);
    default: /* everything else passes through */
        if (fifo_full(&fe->fifo2)) {
            if (mark) m->stuck = true;
            return did;
        }
        cp_origin_t org = fifo_peek_org(&fe->fifo1);
        fifo_pop(&fe->fifo1);
        mop_push2(fe, w, org);
        return (did & ~FE_POP2) | FE_MOVED | FE_POP1;
    }
}

/* ---- Replay expander (REPLAY.md) -------------------------------------------------------------- */

/* The replay expander takes FIFO#2's head: the MOP expander may move again (fe_mop_t.stuck). */
static inline void replay_take2(fe_thread_t *fe) {
    fifo_pop(&fe->fifo2);
    fe->mop.stuck = false;
}

static inline unsigned replay_step(fe_thread_t *fe) {
    fe_replay_t *r = &fe->rp;
    if (r->mode == RP_REPLAY) {
        /* Replaying: emit one buffered word per cycle, ingest nothing (FIFO#2 fills up). */
        if (fifo_full(&fe->fifo3)) return 0;
        fifo_push(&fe->fifo3, fe_replay_next(r), r->org);
        return FE_MOVED;
    }
    if (fifo_empty(&fe->fifo2)) return 0;
    uint32_t w = fifo_peek(&fe->fifo2);
    if (r->mode == RP_LOAD) {
        /* Recording: the next Len arriving words, whatever they are (a REPLAY included), go to
         * ReplayBuffer[(Index + i) % 32]; with Exec they also go downstream. */
        if (r->exec && fifo_full(&fe->fifo3)) return 0;
        cp_origin_t org = fifo_peek_org(&fe->fifo2);
        replay_take2(fe);
        r->buf[(r->start + r->k) % FE_REPLAY_DEPTH] = w;
        if (r->exec) fifo_push(&fe->fifo3, w, org);
        if (++r->k == r->len) r->mode = RP_PASS;
        return FE_MOVED | FE_POP2;
    }
    if (TT_OPCODE(w) == TT_OPC_REPLAY) {
        /* REPLAY.md: StartIdx, Len, Exec, Load. Hardware uses the five low bits of StartIdx and
         * Len (the buffer's 32 entries); Len 0 means 32 (the functional model). */
        r->start = TT_REPLAY_START_IDX(w) % FE_REPLAY_DEPTH;
        r->len = TT_REPLAY_LEN(w) % FE_REPLAY_DEPTH;
        if (r->len == 0) r->len = FE_REPLAY_DEPTH;
        r->k = 0;
        if (TT_REPLAY_LOAD_MODE(w)) { /* Load: ingest the REPLAY, emit nothing */
            replay_take2(fe);
            r->exec = TT_REPLAY_EXECUTE_WHILE_LOADING(w);
            r->mode = RP_LOAD;
            return FE_MOVED | FE_POP2;
        }
        /* Replay: the REPLAY is ingested and the first buffered word emitted in one cycle. */
        if (fifo_full(&fe->fifo3)) return 0;
        r->org = fifo_peek_org(&fe->fifo2);
        replay_take2(fe);
        r->mode = RP_REPLAY;
        fifo_push(&fe->fifo3, fe_replay_next(r), r->org);
        return FE_MOVED | FE_POP2;
    }
    if (fifo_full(&fe->fifo3)) return 0;
    cp_origin_t org = fifo_peek_org(&fe->fifo2);
    replay_take2(fe);
    fifo_push(&fe->fifo3, w, org);
    return FE_MOVED | FE_POP2;
}

/* ---- both expanders ------------------------------------------------------------------------ */

unsigned fe_replay_step(fe_thread_t *fe) { return replay_step(fe); }
unsigned fe_mop_step(fe_thread_t *fe) { return mop_step(fe, 0, false, false); }

unsigned fe_step(fe_thread_t *fe) { return mop_step(fe, replay_step(fe), true, false); }
unsigned fe_step_fed(fe_thread_t *fe) { return fe->mop.stuck ? FE_MOVED : mop_step(fe, FE_MOVED, true, true); }

/* ---- status ----------------------------------------------------------------------------------- */

/* ManualTTSync.md MOPExpanderDoneCheck: no MOP queued before the expander, expander idle. */
bool fe_mop_idle(const fe_thread_t *fe) {
    if (fe->mop.kind != MOP_IDLE) return false;
    for (unsigned i = 0; i < fe->fifo1.count; i++)
        if (TT_OPCODE(fifo_at(&fe->fifo1, i)) == TT_OPC_MOP) return false;
    return true;
}

uint32_t cp_unit_classes(tt_unit_t u) {
    enum {
        C_REPLAY = 1u << 0,
        C_MOP = 1u << 1,
        C_THCON = 1u << 2,
        C_MOVER = 1u << 3,
        C_UNPACK = 1u << 4,
        C_PACK = 1u << 5,
        C_CFG = 1u << 6,
        C_SYNC = 1u << 7,
        C_TDMA = 1u << 8,
        C_SFPU = 1u << 9,
        C_FPU = 1u << 10
    };
    switch (u) {
    case TT_UNIT_MOP: return C_MOP;
    case TT_UNIT_REPLAY: return C_REPLAY;
    case TT_UNIT_TTSYNC: return 0;
    case TT_UNIT_SYNC: return C_SYNC;
    case TT_UNIT_UNPACK: return C_UNPACK | C_TDMA;
    case TT_UNIT_MATH: return C_FPU;
    case TT_UNIT_PACK: return C_PACK | C_TDMA;
    case TT_UNIT_SFPU: return C_SFPU;
    case TT_UNIT_THCON: return C_THCON | C_TDMA;
    case TT_UNIT_CONFIG: return C_CFG;
    case TT_UNIT_MOVER: return C_MOVER | C_TDMA;
    case TT_UNIT_MISC: return C_TDMA;
    default: return 0;
    }
}

static uint32_t fifo_classes(const fe_fifo_t *f) {
    uint32_t bits = 0;
    for (unsigned i = 0; i < f->count; i++) {
        const tt_op_t *op = tt_op(TT_OPCODE(fifo_at(f, i)));
        if (op) bits |= cp_unit_classes(op->unit);
    }
    return bits;
}

uint32_t fe_classes(const fe_thread_t *fe) {
    uint32_t bits = fifo_classes(&fe->fifo1) | fifo_classes(&fe->fifo2) | fifo_classes(&fe->fifo3);
    if (fe->mop.kind != MOP_IDLE) bits |= cp_unit_classes(TT_UNIT_MOP);
    /* CSRs.md: the REPLAY class means a replay that emits (replay, or load with exec). */
    if (fe->rp.mode == RP_REPLAY || (fe->rp.mode == RP_LOAD && fe->rp.exec)) bits |= cp_unit_classes(TT_UNIT_REPLAY);
    return bits;
}
