/* coproc/sfpu_macro.c — SFPLOADMACRO: the Vector Unit's sub-units over time (SFPLOADMACRO.md,
 * VectorUnit.md "Sub-units").
 *
 * Software issues one Vector Unit instruction per cycle at most; SFPLOADMACRO is an SFPLOAD that also
 * schedules up to four instructions, one per sub-unit (simple, MAD, round, store), for later cycles,
 * built from LoadMacroConfig (SFPCONFIG destinations 0..8, or the "backdoor" of an instruction with
 * VD >= 12). ttemu's values take effect at dispatch, so this file keeps the Vector Unit's own clock
 * for what is scheduled:
 *  - Each SFPU instruction is issued at the cycle the timing model dispatches it (cp_insn_t.cycle),
 *    or the next cycle not yet used (one instruction per cycle; the unit tests, which give no cycle,
 *    get one cycle per instruction). Before it, every cycle since the last one is stepped: scheduled
 *    instructions due then execute, delays count down.
 *  - A scheduled instruction with delay d executes on the (d + 1)th cycle after its SFPLOADMACRO.
 *    Delays count cycles, or — while any scheduled instruction's sub-unit has UnitDelayKind set —
 *    only cycles on which a Vector Unit instruction is issued (WaitForElapsedInstructions).
 *  - All instructions of one cycle (the issued one and the scheduled ones due) read the registers as
 *    they were at the cycle's start and write at its end [INF from tt-llk's software pipelines, e.g.
 *    ckernel_sfpu_exp.h, which load an LReg on the cycle a scheduled instruction reads its previous
 *    value]; SFPLOAD's read of Dst comes before SFPSTORE's write. A MAD-family result is thus
 *    visible a cycle early (hardware: two cycles; SFPMAD.md asks software for the gap).
 *  - A scheduled instruction arriving at a sub-unit on the cycle software issues one to it wins; the
 *    issued one is discarded (SFPLOADMACRO.md).
 *  - Any other datapath instruction (a PACR reading Dst, an FPU write) first lets everything due by
 *    its cycle take effect. Nothing else observes the registers, so evaluating lazily is exact; the
 *    RISC-V window onto Dst does not trigger it (docs/datapath.md).
 * LoadMacroConfig must be the same in every lane for the sequence used (per-lane sequences are
 * refused as unimplemented). */
#include <string.h>

#include "coproc/dp_internal.h"
#include "coproc/tt_fields.h"
#include "coproc/tt_ops.h"

static sfp_op_t nop_op(void) {
    sfp_op_t o;
    sfpu_decode(TT_OP_SFPNOP, &o);
    return o;
}

/* The context of a scheduled instruction: its SFPLOADMACRO's thread and config bank. */
static void ctx_for(const dp_ctx_t *x, unsigned t, dp_ctx_t *y) {
    *y = *x;
    if (t == x->t) return;
    dp_ctx_thread(y, t, st_state_id(x->st, t));
}

/* One instruction of a cycle, on registers s. */
static void run_one(dp_ctx_t *x, lregs_t *s, const sfp_op_t *o, const sfp_pending_t *p, unsigned *load_addr) {
    if (!p) return dp_sfpu_run(x, s, o, -1, load_addr);
    dp_ctx_t y;
    ctx_for(x, p->thread, &y);
    dp_sfpu_run(&y, s, o, o->opc == TT_OPC_SFPSTORE ? (int)p->addr : -1, NULL);
    if (y.failed) x->failed = true;
}

/* Copy into d every byte in which after differs from before (one instruction's writes). */
static void merge(lregs_t *d, const lregs_t *before, const lregs_t *after) {
    uint8_t *dp = (uint8_t *)d;
    const uint8_t *b = (const uint8_t *)before, *a = (const uint8_t *)after;
    size_t i = 0;
    for (; i + 8 <= sizeof *d; i += 8) {
        uint64_t u, v;
        memcpy(&u, b + i, 8);
        memcpy(&v, a + i, 8);
        if (u == v) continue;
        for (size_t k = i; k < i + 8; k++)
            if (a[k] != b[k]) dp[k] = a[k];
    }
    for (; i < sizeof *d; i++)
        if (a[i] != b[i]) dp[i] = a[i];
}

/* Execute one cycle's instructions: issued (may be NULL) and the due ones, in sub-unit order (load,
 * simple, MAD, round, store), all reading the registers as they were when the cycle began. */
static void run_cycle(dp_ctx_t *x, const sfp_op_t *issued, const sfp_pending_t *due, unsigned ndue,
                      unsigned *load_addr) {
    sfpu_sched_t *q = &x->dp->sched;
    lregs_t *s = &x->dp->sfpu;
    unsigned total = (issued ? 1 : 0) + ndue;
    if (total == 0) return;
    if (total == 1) {
        if (issued)
            run_one(x, s, issued, NULL, load_addr);
        else
            run_one(x, s, &due[0].op, &due[0], NULL);
        return;
    }
    static const uint8_t order[5] = {SFP_UNIT_LOAD, SFP_UNIT_SIMPLE, SFP_UNIT_MAD, SFP_UNIT_ROUND, SFP_UNIT_STORE};
    unsigned iu = issued ? sfpu_unit_of(issued->opc) : SFP_UNIT_ANY; /* SFPNOP: no effect anywhere */
    memcpy(&q->pre, s, sizeof q->pre);
    bool first = true;
    for (unsigned k = 0; k < 5 && !x->failed; k++) {
        const sfp_op_t *o = NULL;
        const sfp_pending_t *p = NULL;
        for (unsigned i = 0; i < ndue; i++)
            if (due[i].unit == order[k]) o = &due[i].op, p = &due[i];
        if (!o && iu == order[k]) o = issued;
        if (!o) continue;
        if (first) {
            run_one(x, s, o, p, load_addr);
            first = false;
        } else {
            memcpy(&q->scratch, &q->pre, sizeof q->scratch);
            run_one(x, &q->scratch, o, p, load_addr);
            merge(s, &q->pre, &q->scratch);
        }
    }
}

/* Step cycle c: what is due executes with the issued instruction (if any); then the delays count
 * down — every cycle, or only cycles with an issued instruction while any scheduled instruction
 * waits for instructions. Returns the issued instruction's Dst address (SFPLOADMACRO). */
static unsigned step(dp_ctx_t *x, const sfp_op_t *issued) {
    sfpu_sched_t *q = &x->dp->sched;
    sfp_pending_t due[4];
    unsigned ndue = 0, load_addr = 0;
    for (unsigned i = 0; i < q->n;) {
        if (q->q[i].delay == 0 && ndue < 4) {
            due[ndue++] = q->q[i];
            q->q[i] = q->q[--q->n];
        } else {
            i++;
        }
    }
    /* A scheduled instruction takes its sub-unit; software's instruction for it is discarded. */
    if (issued) {
        unsigned iu = sfpu_unit_of(issued->opc);
        for (unsigned i = 0; i < ndue; i++)
            if (due[i].unit == iu) issued = NULL;
    }
    run_cycle(x, issued, due, ndue, &load_addr);
    bool by_insn = false;
    for (unsigned i = 0; i < q->n; i++)
        by_insn |= q->q[i].by_insn;
    if (issued || !by_insn)
        for (unsigned i = 0; i < q->n; i++)
            q->q[i].delay--;
    return load_addr;
}

/* Step every cycle before `until` (no instruction issued on them). */
static void step_until(dp_ctx_t *x, uint64_t until) {
    sfpu_sched_t *q = &x->dp->sched;
    while (q->next < until && !x->failed) {
        bool due = false, by_insn = false;
        for (unsigned i = 0; i < q->n; i++) {
            due |= q->q[i].delay == 0;
            by_insn |= q->q[i].by_insn;
        }
        if (q->n == 0 || (!due && by_insn)) { /* nothing can happen until an instruction is issued */
            q->next = until;
            break;
        }
        step(x, NULL);
        q->next++;
    }
}

/* SFPLOADMACRO.md's scheduling, for macro o->va, after its load computed addr. */
static void schedule(dp_ctx_t *x, const sfp_op_t *lm, unsigned addr) {
    lregs_t *s = &x->dp->sfpu;
    sfpu_sched_t *q = &x->dp->sched;
    unsigned mi = lm->va;
    for (unsigned l = 1; l < LANES; l++)
        if (s->lm_seq[l][mi] != s->lm_seq[0][mi] || s->lm_misc[l] != s->lm_misc[0] ||
            memcmp(s->lm_tmpl[l], s->lm_tmpl[0], sizeof s->lm_tmpl[0]))
            return dp_fail(x, CP_ERR_UNIMPLEMENTED,
                           "SFPLOADMACRO with a LoadMacroConfig that differs between lanes (macro %u)", mi);
    uint32_t seq = s->lm_seq[0][mi], misc = s->lm_misc[0];
    for (unsigned u = 0; u < 4; u++) {
        unsigned bits = (seq >> (8 * u)) & 0xFF, delay = (bits >> 3) & 7;
        if (delay != 7) /* forget what would execute at the same time on this sub-unit */
            for (unsigned i = 0; i < q->n;) {
                if (q->q[i].unit == u && q->q[i].delay == delay)
                    q->q[i] = q->q[--q->n];
                else
                    i++;
            }
        sfp_op_t o;
        switch (bits & 7) {
        case 0: continue;
        case 1:
            return dp_fail(
                x, CP_ERR_UNDEFINED,
                "SFPLOADMACRO sequence %u asks sub-unit %u for instruction 1 (SFPLOADMACRO.md: UndefinedBehavior)", mi,
                u);
        case 2: o = nop_op(); break;
        case 3: sfpu_decode(TT_OP_SFPSTORE(0, 0, 0, 0), &o); break;
        default:
            if (!sfpu_decode(s->lm_tmpl[0][(bits & 7) - 4], &o)) o = nop_op();
            break;
        }
        if (!sfpu_unit_can(u, o.opc)) {
            if (u == SFP_UNIT_STORE)
                return dp_fail(
                    x, CP_ERR_UNDEFINED,
                    "SFPLOADMACRO sequence %u gives the store sub-unit a %s (SFPLOADMACRO.md: UndefinedBehavior)", mi,
                    tt_mnemonic(o.word));
            o = nop_op();
        }
        if (u != SFP_UNIT_STORE) {
            if (bits & 0x80) {
                o.vb = lm->vd;
                if (o.vc == SFP_NONE) o.vc = o.vd;
            } else {
                o.vc = lm->vd;
                if (o.vb == SFP_NONE) o.vb = o.vd;
            }
            o.vd = (bits & 0x40) ? 16 : lm->vd;
        } else {
            if (bits & 0x40)
                o.vd = 16;
            else if (!(bits & 0x80))
                o.vd = lm->vd;
            o.mod = (uint8_t)(((misc >> (4 + mi)) & 1) ? lm->mod : (misc & 0xF));
            o.imm = lm->imm;
        }
        o.macro = true;
        if (q->n >= SFP_PENDING_MAX)
            return dp_fail(x, CP_ERR_UNIMPLEMENTED, "SFPLOADMACRO: more than %d scheduled instructions",
                           SFP_PENDING_MAX);
        q->q[q->n++] = (sfp_pending_t){.op = o,
                                       .unit = (uint8_t)u,
                                       .delay = (uint8_t)delay,
                                       .thread = (uint8_t)x->t,
                                       .by_insn = ((misc >> (8 + u)) & 1) != 0,
                                       .addr = (uint16_t)addr};
    }
}

void dp_sfpu_issue_scheduled(dp_ctx_t *x, const sfp_op_t *o) {
    sfpu_sched_t *q = &x->dp->sched;
    uint64_t c = x->in->cycle > q->next ? x->in->cycle : q->next;
    step_until(x, c);
    if (x->failed) return;
    unsigned addr = step(x, o);
    q->next = c + 1;
    if (o->opc == TT_OPC_SFPLOADMACRO && !x->failed) schedule(x, o, addr);
}

void dp_sfpu_catch_up(dp_ctx_t *x) {
    sfpu_sched_t *q = &x->dp->sched;
    if (q->n == 0 || x->in->cycle < q->next) return;
    dp_sfpu_prng_follow(x);
    step_until(x, x->in->cycle);
    /* what is due on this very cycle too, ahead of the instruction (the cycle stays open for an SFPU
     * instruction; the delays count down when it is stepped) */
    sfp_pending_t due[4];
    unsigned ndue = 0;
    for (unsigned i = 0; i < q->n;) {
        if (q->q[i].delay == 0 && ndue < 4) {
            due[ndue++] = q->q[i];
            q->q[i] = q->q[--q->n];
        } else {
            i++;
        }
    }
    run_cycle(x, NULL, due, ndue, NULL);
}
