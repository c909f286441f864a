/* coproc/timing.c — the backend units' timing model (coproc/timing.h): admission, latencies,
 * the unpackers' queues, the SrcA/SrcB hand-overs' timing, and the sources of STALLWAIT
 * conditions C0..C12.
 *
 * Model (docs/coprocessor-backend.md has the full story and every assumption):
 *  - A cycle counter `now`. An instruction dispatched at cycle N with latency L occupies its unit
 *    (for its issuing thread) while now < N + L, i.e. it is gone after L calls to tm_cycle.
 *  - Each instruction takes effect at dispatch, where this file hands it to the value side
 *    (thcon_exec, cfgu_exec, dp_exec); the unpackers' compute their addresses there, queue in
 *    their unpacker, and move their data when they retire (dp_unpack_data).
 *  - Latencies come from one table (tm_op_lat / tm_unit_lat below) built from the ISA pages
 *    (TensixCoprocessor README, MatrixUnit.md, ScalarUnit.md, ConfigurationUnit.md, VectorUnit.md);
 *    where the docs give none, a stated choice.
 */
#include "coproc/timing.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "coproc/tt_fields.h"
#include "coproc/units.h"

/* ---- constants --------------------------------------------------------------------------- */

/* Unpacker instruction queue depth (not documented; "the thread waits until accepted"). */
#define TM_UNPACK_QDEPTH 4
/* Extra cycles a ThCon memory request stays outstanding after the instruction leaves ThCon
 * (condition C0). LOADREG.md: "in most cases ... seven DMANOP instructions after LOADREG". */
#define TM_MEM_EXTRA 5
/* Cycles a RISC-V store to GPRs/config/TDMA-RISC stays "in flight" for condition C10. */
#define TM_LAT_RISCV_CFG 2

/* Per-thread occupancy trackers: the cycle at which thread t's last instruction in that class
 * is done. */
enum {
    TM_TR_THCON, /* Scalar Unit executing (the whole thread is frozen meanwhile) */
    TM_TR_MEM,   /* C0: ThCon memory request outstanding */
    TM_TR_PACK,  /* C3 */
    TM_TR_MATH,  /* C4 */
    TM_TR_SFPU,  /* C11 */
    TM_TR_CFG,   /* C12 (OR over threads) */
    TM_TR_MOVER, /* busy class only; C9 is global */
    TM_TR_MISC,
    TM_TR_RISCV_CFG, /* C10 */
    TM_TR_COUNT
};

/* ---- latency table ------------------------------------------------------------------------ */

/* Default latency of each unit (cycles). Sources: TensixCoprocessor README (WH) unit table,
 * TENSIX.md §6.1; UNPACK/PACK/MOVER have no documented figure: our choice, see docs. */
static const uint8_t tm_unit_lat[TT_UNIT_COUNT] = {
    [TT_UNIT_MOP] = 0,    [TT_UNIT_REPLAY] = 0, [TT_UNIT_TTSYNC] = 0, [TT_UNIT_SYNC] = 1,
    [TT_UNIT_UNPACK] = 8, [TT_UNIT_MATH] = 1,   [TT_UNIT_PACK] = 8,   [TT_UNIT_SFPU] = 1,
    [TT_UNIT_THCON] = 3,  [TT_UNIT_CONFIG] = 1, [TT_UNIT_MOVER] = 16, [TT_UNIT_MISC] = 1,
};

/* Per-opcode overrides (0 = the unit default). */
static const uint8_t tm_op_lat[256] = {
    /* MatrixUnit.md latency table. */
    [TT_OPC_MVMUL] = 5,
    [TT_OPC_DOTPV] = 5,
    [TT_OPC_GAPOOL] = 5,
    [TT_OPC_ELWMUL] = 5,
    [TT_OPC_GMPOOL] = 5,
    [TT_OPC_ELWADD] = 5,
    [TT_OPC_ELWSUB] = 5,
    [TT_OPC_SHIFTXB] = 2,
    [TT_OPC_MOVD2A] = 2,
    [TT_OPC_MOVA2D] = 4,
    [TT_OPC_MOVDBGA2D] = 4,
    [TT_OPC_MOVB2D] = 4,
    [TT_OPC_MOVB2A] = 4,
    /* Legacy conv/pool ops compute Dst += 0 (MatrixUnit.md); treated like MVMUL. */
    [TT_OPC_CONV3S1] = 5,
    [TT_OPC_CONV3S2] = 5,
    [TT_OPC_MPOOL3S1] = 5,
    [TT_OPC_APOOL3S1] = 5,
    [TT_OPC_MPOOL3S2] = 5,
    [TT_OPC_APOOL3S2] = 5,
    [TT_OPC_MFCONV3S1] = 5,
    /* ScalarUnit.md: SETDMAREG/DMANOP 1; *DMAREG 3 (4 when the two GPRs are in different
     * aligned groups of four: tm_thcon_lat); STOREREG/LOADREG/STOREIND/LOADIND/ATSWAP/ATINCGET
     * >= 3; REG2FLOP/FLUSHDMA >= 2; ATCAS/ATINCGETPTR >= 15. */
    [TT_OPC_SETDMAREG] = 1,
    [TT_OPC_DMANOP] = 1,
    [TT_OPC_RSTDMA] = 1, /* no figure; 1 */
    [TT_OPC_REG2FLOP] = 2,
    [TT_OPC_FLUSHDMA] = 2, /* at least; tm_thcon_lat waits for C0 */
    [TT_OPC_ATINCGETPTR] = 15,
    [TT_OPC_ATCAS] = 15,
    /* ConfigurationUnit.md: SETC16 1, WRCFG 2, RDCFG >= 2, RMWCIB 1, CFGSHIFTMASK 2,
     * STREAMWRCFG >= 5. */
    [TT_OPC_WRCFG] = 2,
    [TT_OPC_RDCFG] = 2,
    [TT_OPC_SETC16] = 1,
    [TT_OPC_RMWCIB0] = 1,
    [TT_OPC_RMWCIB1] = 1,
    [TT_OPC_RMWCIB2] = 1,
    [TT_OPC_RMWCIB3] = 1,
    [TT_OPC_STREAMWRCFG] = 5,
    [TT_OPC_CFGSHIFTMASK] = 2,
    /* VectorUnit.md: most SFPU ops 1 cycle; MAD/ADD/MUL/MUL24/LUT/LUTFP32/SWAP 2; SFPLOADMACRO
     * longer (no figure; 4). */
    [TT_OPC_SFPMAD] = 2,
    [TT_OPC_SFPADD] = 2,
    [TT_OPC_SFPMUL] = 2,
    [TT_OPC_SFPMUL24] = 2,
    [TT_OPC_SFPLUT] = 2,
    [TT_OPC_SFPLUTFP32] = 2,
    [TT_OPC_SFPSWAP] = 2,
    [TT_OPC_SFPLOADMACRO] = 4,
};

/* ---- state -------------------------------------------------------------------------------- */

typedef struct {
    uint8_t thread;
    uint32_t word;
    cp_origin_t origin;
} tm_unp_entry_t;

/* One unpacker: an in-order queue; the head executes once the SrcA/SrcB bank it writes is owned
 * by the unpackers (UNPACR_Regular.md, UNPACR_NOP_*.md: the wait happens in the unpacker). */
typedef struct {
    tm_unp_entry_t q[TM_UNPACK_QDEPTH];
    unsigned head, count;
    bool running;     /* q[head] is executing */
    uint64_t done_at; /* ... until this cycle */
    /* q[head] could not start for want of its bank when the Src banks had moved this many times
     * (tm_t.src_moves); UINT64_MAX: not waiting for a bank. Until they move again it cannot. */
    uint64_t bank_wait;
} tm_unpacker_t;

struct tm {
    /* The clock, the due time, the changed conditions, the moves and the error: first, where the
     * coprocessor reads them without a call (timing.h tm_head_t); tm_reset clears them. */
    tm_head_t h;
    cp_state_t *st; /* the architectural state (owned by the coprocessor) */
    dp_t *dp;       /* the datapath, or NULL */
    cp_env_t env;
    /* Of each opcode, asked once (they depend on the opcode alone): its latency (tm_latency),
     * whether the datapath handles it (dp_handles) and the Src banks a Matrix Unit instruction
     * needs to be admitted (tm_fpu_src_needs). Four bytes an entry: an opcode's index is a scale,
     * not a multiply. */
    struct {
        _Alignas(4) uint8_t lat;
        bool dp;
        uint8_t src;
        uint8_t unit; /* its tt_op_t's unit: tm_issue asks it by the word's opcode (tm_unit_issue) */
    } opi[256];
    /* The instruction as the value side receives it (tm_insn): the state, the tile and the error
     * record set once (tm_create), the rest at each event. */
    cp_insn_t in;
    /* The plain forms (tm_set_reference): unp_due (left 0), bank_wait and busy_until not
     * trusted. */
    bool reference;
    /* tm_reset clears everything from here on (and the head, h). */
    uint64_t until[CP_THREADS][TM_TR_COUNT];
    uint64_t busy_until[CP_THREADS]; /* the latest of until[t][], RISC-V stores aside (tm_thread_busy) */
    uint64_t thcon_until;            /* Scalar Unit busy (not pipelined, shared by all threads) */
    unsigned thcon_thread;           /* ... with an instruction of this thread */
    uint64_t fpu_start;              /* cycle + 1 of the last FPU start (0 = never) */
    uint64_t cfg_entry_at;           /* earliest cycle a Config-group instruction may enter */
    uint64_t pack_until;             /* packers, serialised across threads */
    uint64_t mover_until;            /* C9 */
    tm_unpacker_t unp[2];
    uint8_t unp_n[2][CP_THREADS]; /* entries of thread t in unpacker u's queue (conditions C1, C2) */
    uint64_t src_moves;           /* SrcA/SrcB hand-overs so far (an unpacker waiting for its bank asks again) */

    int8_t last_unit[CP_THREADS]; /* tt_unit_t that took thread t's last dispatch, -1 none */
};
_Static_assert(offsetof(tm_t, h) == 0, "the head first (a tm_place'd model's head is at its start)");

/* ---- helpers ------------------------------------------------------------------------------ */

/* Conditions whose inputs every thread shares: C5..C8 (who owns SrcA/SrcB), C9 (the mover) and C12
 * (the Configuration Unit, any thread). */
enum { TM_C_SRC = 0x1E0u, TM_C_XMOV = 1u << 9, TM_C_CFGEXU = 1u << 12, TM_C_ALL = 0x1FFFu };
_Static_assert(CP_THREADS == DP_THREADS, "tm_unit_issue tells dp_exec_in its SFPU words' thread is the datapath's");
_Static_assert((unsigned)TM_WAKE_CONDS == (unsigned)TM_C_ALL && ((TM_WAKE_MOVES | TM_WAKE_SEM) & TM_C_ALL) == 0,
               "wake_on's conditions, and its marks apart from them");

static void tm_changed_all(tm_t *tm, uint32_t conds) {
    /* (the dormant threads whose STALLWAIT selects one of them, and with a Src hand-over those
     * a unit refused: unit_moves below) */
    tm_wake(&tm->h, conds & TM_C_SRC ? conds | TM_WAKE_MOVES : conds);
    for (unsigned t = 0; t < CP_THREADS; t++)
        tm->h.chg[t] |= conds;
    if (conds & TM_C_SRC) {
        tm->src_moves++;
        tm->h.unit_moves++;
        tm->h.unp_due = 0; /* a head waiting for its bank may go */
    }
}

static uint64_t tm_max(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* A unit's tracker of thread t moves on (they only move forward: each instruction ends after
 * the one before it in that class). */
static void tm_set_until(tm_t *tm, unsigned t, unsigned k, uint64_t at) {
    tm->until[t][k] = at;
    if (at > tm->busy_until[t]) tm->busy_until[t] = at;
}

static unsigned tm_latency(const tt_op_t *op) {
    unsigned l = tm_op_lat[op->opcode];
    return l ? l : tm_unit_lat[op->unit];
}

/* The instruction as the value side receives it (tm_t.in: valid until the next event). */
static inline const cp_insn_t *tm_insn(tm_t *tm, unsigned t, const tt_op_t *op, uint32_t word, cp_origin_t origin) {
    cp_insn_t *in = &tm->in;
    in->op = op;
    in->word = word;
    in->thread = t;
    /* One store of the eight bytes the origin came in (padding and all): an assignment stores pc
     * and core apart, the core shifted out of its register first. */
    memcpy(&in->origin, &origin, sizeof origin);
    in->cycle = tm->h.now; /* SFPLOADMACRO's scheduled instructions count cycles (coproc/sfpu_macro.c) */
    return in;
}

/* Which unpacker (0 = SrcA, 1 = SrcB) an UNPACR/UNPACR_NOP targets: Unpack_block_selection /
 * Unpacker_Select. */
static unsigned tm_unpacker_of(uint32_t word) {
    return TT_OPCODE(word) == TT_OPC_UNPACR ? TT_UNPACR_UNPACK_BLOCK_SELECTION(word)
                                            : TT_UNPACR_NOP_UNPACKER_SELECT(word);
}

/* Does this unpacker instruction hand its bank to the Matrix Unit when it retires?
 * UNPACR: SetDatValid. UNPACR_NOP: Set_Dvalid nonzero — tt-llk's
 * TT_OP_UNPACR_NOP(..., p_unpacr_nop::SET_DVALID, ...) usage [INF]. */
static bool tm_unp_sets_dvalid(uint32_t word) {
    switch (TT_OPCODE(word)) {
    case TT_OPC_UNPACR: return TT_UNPACR_SETDATVALID(word);
    case TT_OPC_UNPACR_NOP: return TT_UNPACR_NOP_SET_DVALID(word) != 0;
    default: return false;
    }
}

/* Does it need the unpacker-side bank owned by the Unpackers before it executes?
 * UNPACR always (it writes SrcA/SrcB); UNPACR_NOP only when it hands over the bank (otherwise a
 * hand-over could be lost) — the other UNPACR_NOP modes are accepted unconditionally. */
static bool tm_unp_needs_bank(uint32_t word) { return TT_OPCODE(word) == TT_OPC_UNPACR || tm_unp_sets_dvalid(word); }

/* Matrix Unit instructions that wait at the Wait Gate for SrcA / SrcB to be owned by the Matrix
 * Unit (MatrixUnit.md table; ELWADD.md, MOVA2D.md "spend time waiting at the Wait Gate").
 * Bit 0 = needs SrcA, bit 1 = needs SrcB. Legacy CONV/POOL3 ops and Src writers (MOVD2A,
 * MOVD2B, ZEROSRC, SHIFTX*, TRNSPSRC*) are accepted without a check (docs unclear). */
static unsigned tm_fpu_src_needs(uint8_t opc) {
    switch (opc) {
    case TT_OPC_MVMUL:
    case TT_OPC_DOTPV:
    case TT_OPC_GAPOOL:
    case TT_OPC_GMPOOL:
    case TT_OPC_ELWMUL:
    case TT_OPC_ELWADD:
    case TT_OPC_ELWSUB: return 3;
    case TT_OPC_MOVA2D:
    case TT_OPC_MOVDBGA2D: return 1;
    case TT_OPC_MOVB2D:
    case TT_OPC_MOVB2A: return 2;
    default: return 0;
    }
}

/* ---- lifecycle ---------------------------------------------------------------------------- */

size_t tm_size(void) { return sizeof(tm_t); }

tm_t *tm_create(cp_state_t *st, dp_t *dp, const cp_env_t *env) {
    void *mem = calloc(1, sizeof(tm_t));
    return mem ? tm_place(mem, st, dp, env) : NULL;
}

tm_t *tm_place(void *mem, cp_state_t *st, dp_t *dp, const cp_env_t *env) {
    tm_t *tm = mem;
    tm->st = st;
    tm->dp = dp;
    if (env) tm->env = *env;
    unsigned nops;
    const tt_op_t *ops = tt_ops(&nops); /* (undefined opcodes: 0 and false, as calloc left them) */
    for (unsigned i = 0; i < nops; i++) {
        tm->opi[ops[i].opcode].lat = (uint8_t)tm_latency(&ops[i]);
        tm->opi[ops[i].opcode].dp = dp && dp_handles(&ops[i]);
        tm->opi[ops[i].opcode].src = (uint8_t)tm_fpu_src_needs(ops[i].opcode);
        tm->opi[ops[i].opcode].unit = (uint8_t)ops[i].unit;
    }
    tm->in = (cp_insn_t){.st = st, .env = &tm->env, .err = &tm->h.err};
    tm_reset(tm);
    return tm;
}

void tm_destroy(tm_t *tm) { free(tm); }

void tm_count_errors(tm_t *tm, uint64_t *count) { tm->in.failed = count; }

void tm_reset(tm_t *tm) {
    /* (What tm_create set and the reference switch stay.) */
    memset(&tm->h, 0, sizeof tm->h);
    memset(&tm->until, 0, sizeof *tm - offsetof(tm_t, until));
    for (unsigned t = 0; t < CP_THREADS; t++)
        tm->last_unit[t] = -1;
    for (unsigned u = 0; u < 2; u++)
        tm->unp[u].bank_wait = UINT64_MAX;
    tm_changed_all(tm, TM_C_ALL);
}

void tm_set_reference(tm_t *tm, bool on) {
    tm->reference = on;
    /* Back on the fast forms: the due time and the bank waits were not kept meanwhile (the
     * next tm_cycle looks at both unpackers again); busy_until and opi always are. */
    tm->h.unp_due = 0;
    for (unsigned u = 0; u < 2; u++)
        tm->unp[u].bank_wait = UINT64_MAX;
}

const cp_error_t *tm_error(const tm_t *tm) { return tm->h.err.cat != CP_ERR_NONE ? &tm->h.err : NULL; }

/* ---- admission ---------------------------------------------------------------------------- */

/* tm_can_accept's rule in two parts: nothing of thread t passes while its ThCon instruction
 * executes (ScalarUnit.md), and each unit's own (tm_thcon_accepts, tm_math_accepts,
 * tm_unpack_accepts, tm_config_accepts; tm_issue asks each unit's part
 * in the one switch that also dispatches, tm_unit_issue). */
static inline bool tm_thcon_frozen(const tm_t *tm, unsigned t) {
    return tm->h.now < tm->thcon_until && tm->thcon_thread == t;
}

/* ThCon: not pipelined, one instruction at a time across threads. */
static inline bool tm_thcon_accepts(const tm_t *tm) { return tm->h.now >= tm->thcon_until; }

/* Does the Matrix Unit own the Src banks the instruction needs? (Their owner is the state's,
 * which only the hand-overs below change: each counts in src_moves.) Always inlined: left to
 * gcc, its two users made the tm_issueN bodies ~1 host instruction an issue longer. */
static inline __attribute__((always_inline)) bool tm_src_owned(const tm_t *tm, const tt_op_t *op) {
    unsigned need = tm->opi[op->opcode].src;
    if ((need & 1) && !st_src_matrix_owns_a(tm->st)) return false;
    if ((need & 2) && !st_src_matrix_owns_b(tm->st)) return false;
    return true;
}

static inline bool tm_math_accepts(const tm_t *tm, const tt_op_t *op) {
    /* TensixCoprocessor README: at most one FPU instruction starts per cycle. */
    if (tm->fpu_start == tm->h.now + 1) return false;
    return tm_src_owned(tm, op);
}

/* The thread waits until the unpacker accepts the instruction into its queue. */
static inline bool tm_unpack_accepts(const tm_t *tm, uint32_t word) {
    return tm->unp[tm_unpacker_of(word)].count < TM_UNPACK_QDEPTH;
}

/* ConfigurationUnit.md: SETC16 has its own IPC group (3/cycle, one per thread); the rest share one
 * pipeline entry per cycle (CFGSHIFTMASK: one per two cycles). Simplification: one Config-group
 * instruction per cycle across threads. */
static inline bool tm_config_accepts(const tm_t *tm, const tt_op_t *op) {
    return op->opcode == TT_OPC_SETC16 || tm->h.now >= tm->cfg_entry_at;
}

/* tm_can_accept's rule, for a thread and an opcode already checked. */
static inline __attribute__((always_inline)) bool tm_accepts(const tm_t *tm, unsigned t, const tt_op_t *op,
                                                             uint32_t word) {
    if (tm_thcon_frozen(tm, t)) return false;
    switch (op->unit) {
    case TT_UNIT_THCON: return tm_thcon_accepts(tm);
    case TT_UNIT_MATH: return tm_math_accepts(tm, op);
    case TT_UNIT_UNPACK: return tm_unpack_accepts(tm, word);
    case TT_UNIT_CONFIG: return tm_config_accepts(tm, op);
    default: return true;
    }
}

bool tm_can_accept(const tm_t *tm, unsigned t, const tt_op_t *op, uint32_t word) {
    return t < CP_THREADS && op && tm_accepts(tm, t, op, word);
}

bool tm_refuses_until_moved(const tm_t *tm, const tt_op_t *op, uint32_t word) {
    if (!op) return false;
    switch (op->unit) {
    case TT_UNIT_MATH: return !tm_src_owned(tm, op);
    case TT_UNIT_UNPACK: return !tm_unpack_accepts(tm, word);
    default: return false;
    }
}

/* ---- Scalar Unit (ThCon) and Configuration Unit: occupancy -------------------------------- */

/* ScalarUnit.md / *DMAREG.md: 3 cycles, 4 when the two GPR operands are in different aligned
 * groups of four; FLUSHDMA waits for this thread's outstanding memory requests (C0). */
static unsigned tm_thcon_lat(const tm_t *tm, unsigned t, const tt_op_t *op, uint32_t word) {
    unsigned lat = tm_latency(op);
    switch (op->opcode) {
    case TT_OPC_ADDDMAREG:
    case TT_OPC_SUBDMAREG:
    case TT_OPC_MULDMAREG:
    case TT_OPC_BITWOPDMAREG:
    case TT_OPC_SHIFTDMAREG:
    case TT_OPC_CMPDMAREG: {
        thcon_dmareg_t d = thcon_dmareg(word);
        if (!d.b_const && d.a / 4 != d.b / 4) lat = 4;
        break;
    }
    case TT_OPC_FLUSHDMA:
        if (tm->until[t][TM_TR_MEM] > tm->h.now + lat) lat = (unsigned)(tm->until[t][TM_TR_MEM] - tm->h.now);
        break;
    default: break;
    }
    return lat;
}

/* ThCon instructions that send a request to memory, outstanding (C0) until it returns: STOREREG,
 * LOADREG (STOREREG.md, LOADREG.md) and those ttemu does not model beyond their timing. */
static bool tm_thcon_mem(uint8_t opc) {
    switch (opc) {
    case TT_OPC_STOREREG:
    case TT_OPC_LOADREG:
    case TT_OPC_LOADIND:
    case TT_OPC_STOREIND:
    case TT_OPC_ATINCGET:
    case TT_OPC_ATINCGETPTR:
    case TT_OPC_ATSWAP:
    case TT_OPC_ATCAS: return true;
    default: return false;
    }
}

/* A ThCon instruction: its occupancy, then its values (thcon_exec). */
static __attribute__((noinline)) void tm_dispatch_thcon(tm_t *tm, unsigned t, const tt_op_t *op, uint32_t word,
                                                        const cp_insn_t *in) {
    tm->last_unit[t] = TT_UNIT_THCON;
    unsigned lat = tm_thcon_lat(tm, t, op, word);
    tm->thcon_until = tm->h.now + lat;
    tm->thcon_thread = t;
    tm_set_until(tm, t, TM_TR_THCON, tm->thcon_until);
    if (tm_thcon_mem(op->opcode))
        tm_set_until(tm, t, TM_TR_MEM, tm_max(tm->until[t][TM_TR_MEM], tm->h.now + lat + TM_MEM_EXTRA));
    tm->h.chg[t] |= 1u << 0; /* C0: its memory request */
    thcon_exec(in);
}

/* A Configuration Unit instruction: its occupancy (C12 for every thread), then its values. */
static __attribute__((noinline)) void tm_dispatch_config(tm_t *tm, unsigned t, const tt_op_t *op, const cp_insn_t *in) {
    tm->last_unit[t] = TT_UNIT_CONFIG;
    tm_set_until(tm, t, TM_TR_CFG, tm_max(tm->until[t][TM_TR_CFG], tm->h.now + tm_latency(op)));
    if (op->opcode != TT_OPC_SETC16) tm->cfg_entry_at = tm->h.now + (op->opcode == TT_OPC_CFGSHIFTMASK ? 2 : 1);
    tm_changed_all(tm, TM_C_CFGEXU);
    cfgu_exec(in);
}

/* ---- Matrix Unit: SrcA/SrcB hand-back at dispatch ------------------------------------------ */

/* The clear_dvalid flips ((FlipSrcB << 1) + FlipSrcA, ELWADD.md) of the Matrix Unit
 * instructions that have the field; 0 for the others. */
static unsigned tm_clear_dvalid(uint32_t w) {
#define TM_CLEAR_DVALID(OP)                                                                                            \
    case TT_OPC_##OP: return TT_##OP##_CLEAR_DVALID(w)
    switch (TT_OPCODE(w)) {
        TM_CLEAR_DVALID(CONV3S1);
        TM_CLEAR_DVALID(CONV3S2);
        TM_CLEAR_DVALID(MPOOL3S1);
        TM_CLEAR_DVALID(APOOL3S1);
        TM_CLEAR_DVALID(MVMUL);
        TM_CLEAR_DVALID(ELWMUL);
        TM_CLEAR_DVALID(ELWADD);
        TM_CLEAR_DVALID(DOTPV);
        TM_CLEAR_DVALID(ELWSUB);
        TM_CLEAR_DVALID(MPOOL3S2);
        TM_CLEAR_DVALID(APOOL3S2);
        TM_CLEAR_DVALID(GMPOOL);
        TM_CLEAR_DVALID(GAPOOL);
        TM_CLEAR_DVALID(MFCONV3S1);
    default: return 0;
    }
#undef TM_CLEAR_DVALID
}

/* CLEARDVALID.md's reset argument: (KeepReadingSameSrc << 1) + Reset. */
enum { TM_CLEARDVALID_RESET = 1u << 0, TM_CLEARDVALID_KEEP_READING_SAME_SRC = 1u << 1 };

/* The Matrix Unit instruction's bank hand-back, which happens as it is dispatched. */
static void tm_math_handback(tm_t *tm, unsigned t, const tt_op_t *op, uint32_t word) {
    /* Only a hand-over moves the banks (the conditions C5..C8, an unpacker waiting for its bank):
     * no flips, no change (st_src_to_unpackers would do nothing either). */
    unsigned flips;
    bool honour_disable = true, keep_bank = false;
    switch (op->opcode) {
    case TT_OPC_CLEARDVALID: { /* CLEARDVALID.md: flips (cleardvalid), or a full reset */
        unsigned reset = TT_CLEARDVALID_RESET(word);
        if (reset & TM_CLEARDVALID_RESET) {
            tm_changed_all(tm, TM_C_SRC);
            st_src_reset(tm->st);
            return;
        }
        flips = TT_CLEARDVALID_CLEARDVALID(word);
        honour_disable = false;
        keep_bank = (reset & TM_CLEARDVALID_KEEP_READING_SAME_SRC) != 0;
        break;
    }
    /* SETRWC clear_ab_vld: the same hand-over [INF] */
    case TT_OPC_SETRWC: flips = TT_SETRWC_CLEAR_AB_VLD(word); break;
    default: flips = tm_clear_dvalid(word); break;
    }
    if (!flips) return;
    tm_changed_all(tm, TM_C_SRC);
    st_src_to_unpackers(tm->st, t, flips, honour_disable, keep_bank);
}

/* ---- unpackers ---------------------------------------------------------------------------- */

/* Start the head of unpacker u's queue if it can go. */
static void tm_unp_try_start(tm_t *tm, unsigned u) {
    tm_unpacker_t *up = &tm->unp[u];
    if (up->running || up->count == 0 || (up->bank_wait == tm->src_moves && !tm->reference)) return;
    uint32_t word = up->q[up->head].word;
    if (tm_unp_needs_bank(word) && !st_src_unpacker_owns(tm->st, u)) {
        up->bank_wait = tm->src_moves; /* (the reference asks again every cycle) */
        return;
    }
    up->bank_wait = UINT64_MAX;
    const tt_op_t *op = tt_op((uint8_t)TT_OPCODE(word));
    up->running = true;
    up->done_at = tm->h.now + (op ? tm_latency(op) : 1);
}

/* The head retires: this is where an unpacker instruction's data moves (the datapath writes
 * SrcA/SrcB or Dst, its address computed at dispatch), and then, with SetDatValid / Set_Dvalid, hands its bank over. */
static void tm_unp_retire(tm_t *tm, unsigned u) {
    tm_unpacker_t *up = &tm->unp[u];
    if (!up->running || tm->h.now < up->done_at) return;
    const tm_unp_entry_t *e = &up->q[up->head];
    const tt_op_t *op = tt_op((uint8_t)TT_OPCODE(e->word));
    if (tm->dp && op) {
        dp_unpack_data(tm->dp, tm_insn(tm, e->thread, op, e->word, e->origin));
    }
    if (tm_unp_sets_dvalid(e->word)) {
        st_src_to_matrix(tm->st, u);
        tm_changed_all(tm, TM_C_SRC);
    }
    tm->unp_n[u][e->thread]--;
    tm->h.chg[e->thread] |= 1u << (1 + u); /* C1 / C2 */
    /* (that thread if its STALLWAIT selects it, and those a unit refused: unit_moves below) */
    tm_wake_thread(&tm->h, e->thread, 1u << (1 + u));
    tm_wake(&tm->h, TM_WAKE_MOVES);
    up->running = false;
    up->bank_wait = UINT64_MAX; /* a new head */
    up->head = (up->head + 1) % TM_UNPACK_QDEPTH;
    up->count--;
    tm->h.unit_moves++; /* room in the queue */
}

static bool tm_unp_has_thread(const tm_t *tm, unsigned u, unsigned t) { return tm->unp_n[u][t] != 0; }

/* ---- dispatch and time -------------------------------------------------------------------- */

/* An unpacker instruction: its address side (the datapath), then into its unpacker's queue. */
static __attribute__((noinline)) void tm_dispatch_unpack(tm_t *tm, unsigned t, const tt_op_t *op, uint32_t word,
                                                         cp_origin_t origin, const cp_insn_t *in) {
    tm->last_unit[t] = TT_UNIT_UNPACK;
    if (tm->opi[op->opcode].dp) dp_exec(tm->dp, in);
    unsigned u = tm_unpacker_of(word);
    tm_unpacker_t *up = &tm->unp[u];
    if (up->count >= TM_UNPACK_QDEPTH) {
        /* tm_can_accept refuses this: only a caller that skipped it gets here. */
        cp_fail(in, CP_ERR_UNIMPLEMENTED, "ttemu's unpacker %u queue (%u deep) is full", u, TM_UNPACK_QDEPTH);
        return;
    }
    up->q[(up->head + up->count) % TM_UNPACK_QDEPTH] = (tm_unp_entry_t){(uint8_t)t, word, origin};
    up->count++;
    tm->unp_n[u][t]++;
    tm_unp_try_start(tm, u);
    tm->h.unp_due = 0;
    tm->h.chg[t] |= 1u << (1 + u); /* C1 / C2 */
}

/* SETDVALID.md: (FlipSrcB << 1) + FlipSrcA hand the unpackers' banks to the Matrix Unit. */
static __attribute__((noinline)) void tm_setdvalid(tm_t *tm, uint32_t word) {
    unsigned flips = TT_SETDVALID_SETVALID(word);
    if (flips & 3u) tm_changed_all(tm, TM_C_SRC);
    if (flips & 1u) st_src_to_matrix(tm->st, 0);
    if (flips & 2u) st_src_to_matrix(tm->st, 1);
}

/* A Matrix Unit instruction's values, then its bank hand-back: the datapath reads the banks it
 * hands back. Inlined (unlike tm_unit_issue's other calls: see there): the gate's issue
 * (gate_pass) saves the registers the datapath's inlined SFPU way needs anyway, and out of line
 * this saved its own again (add1 16 x 32: -0.18% host instructions inlined). */
static inline __attribute__((always_inline)) void tm_math_exec(tm_t *tm, unsigned t, const tt_op_t *op, uint32_t word,
                                                               const cp_insn_t *in) {
    if (tm->opi[op->opcode].dp) dp_exec(tm->dp, in);
    tm_math_handback(tm, t, op, word);
}

/* tm_dispatch's work, for a thread and an opcode already checked, and with admit tm_issue's: the
 * unit's admission first (tm_accepts' part of that unit; the caller asked tm_thcon_frozen), in
 * the one switch on the unit. True when dispatched. Every call is the last thing its way does
 * (the unit's bookkeeping first, then the value side), so that no value lives across a call and
 * tm_issue's frame stays small. That order is the old one in effect: the bookkeeping reads only
 * the model and the word, the value side (dp_exec, thcon_exec, cfgu_exec) never the model, and
 * of the architectural state the bookkeeping writes (the Src banks' owners) only the Matrix
 * Unit's values read anything (tm_math_exec keeps the values first). (tm_t.in is written before
 * the admission: nothing reads it between events.) */
static inline __attribute__((always_inline)) bool tm_unit_issue(tm_t *tm, unsigned t, const tt_op_t *op, uint32_t word,
                                                                cp_origin_t origin, bool admit) {
    /* The opcode's table entry by the word's opcode where the caller vouches that op is that
     * opcode's entry (tm_issue: the gate's cp_t.op[TT_OPCODE(word)]): its latency and its unit
     * without waiting for op's own fields (the word is at hand, op one load further away). */
    unsigned opc = admit ? TT_OPCODE(word) : op->opcode;
    unsigned lat = tm->opi[opc].lat, unit = admit ? tm->opi[opc].unit : op->unit;
    const cp_insn_t *in = tm_insn(tm, t, op, word, origin);
    /* Each case says which conditions' inputs it moves (tm_cond_eval): thread t's tracker of
     * its unit, or a shared one for every thread. */
    /* ThCon, Config and SETDVALID return before the datapath's call below: none has a datapath
     * body (test_cp_optable no_datapath_body_where_dispatch_skips_it). The Vector and Matrix
     * Units' instructions, the commonest issues (add1's math thread, the SFPU and FPU kernels),
     * are asked for first, apart: a compare each rather than the switch's table and indirect
     * jump (add1: -0.25% host instructions, ~-0.9% time). */
    if (unit == TT_UNIT_SFPU) {
        tm->last_unit[t] = TT_UNIT_SFPU;
        tm_set_until(tm, t, TM_TR_SFPU, tm_max(tm->until[t][TM_TR_SFPU], tm->h.now + lat));
        tm->h.chg[t] |= 1u << 11; /* C11 */
    } else if (unit == TT_UNIT_MATH) {
        if (admit && !tm_math_accepts(tm, op)) return false;
        tm->last_unit[t] = TT_UNIT_MATH;
        tm_set_until(tm, t, TM_TR_MATH, tm_max(tm->until[t][TM_TR_MATH], tm->h.now + lat));
        tm->fpu_start = tm->h.now + 1;
        tm->h.chg[t] |= 1u << 4; /* C4 */
        tm_math_exec(tm, t, op, word, in);
        return true;
    } else
        switch (unit) {
        case TT_UNIT_THCON:
            if (admit && !tm_thcon_accepts(tm)) return false;
            tm_dispatch_thcon(tm, t, op, word, in);
            return true;
        case TT_UNIT_CONFIG:
            if (admit && !tm_config_accepts(tm, op)) return false;
            tm_dispatch_config(tm, t, op, in);
            return true;
        case TT_UNIT_UNPACK:
            if (admit && !tm_unpack_accepts(tm, word)) return false;
            tm_dispatch_unpack(tm, t, op, word, origin, in);
            return true;
        case TT_UNIT_PACK:
            tm->last_unit[t] = TT_UNIT_PACK;
            /* Packers: serialised across threads; completion = written to L1 (C3). */
            tm->pack_until = tm_max(tm->pack_until, tm->h.now) + lat;
            tm_set_until(tm, t, TM_TR_PACK, tm->pack_until);
            tm->h.chg[t] |= 1u << 3; /* C3 */
            break;
        case TT_UNIT_MOVER:
            tm->last_unit[t] = TT_UNIT_MOVER;
            /* XMOV: asynchronous, one mover shared by all threads (C9). */
            tm->mover_until = tm_max(tm->mover_until, tm->h.now) + lat;
            tm_changed_all(tm, TM_C_XMOV);
            tm_set_until(tm, t, TM_TR_MOVER, tm->mover_until);
            break;
        case TT_UNIT_MISC:
            tm->last_unit[t] = TT_UNIT_MISC;
            /* NOP, SETDVALID and the ADC family (values: the datapath, below): one cycle. */
            tm_set_until(tm, t, TM_TR_MISC, tm_max(tm->until[t][TM_TR_MISC], tm->h.now + lat));
            if (op->opcode == TT_OPC_SETDVALID) {
                tm_setdvalid(tm, word);
                return true; /* (not the datapath's) */
            }
            break;
        default:
            /* Sync Unit, MOP/replay expanders, Auto TTSync: handled before the backend. Only the
             * Sync Unit's instructions are dispatched at all (gate.c consumes the others). */
            if (unit == TT_UNIT_SYNC) tm->last_unit[t] = TT_UNIT_SYNC;
            break;
        }
    /* The datapath's instructions take effect here; the unpackers' address side only (their data
     * moves at retire, tm_unp_retire). */
    if (tm->opi[opc].dp) dp_exec_in(tm->dp, in, unit == TT_UNIT_SFPU); /* (t < CP_THREADS = DP_THREADS) */
    return true;
}

void tm_dispatch(tm_t *tm, unsigned t, const tt_op_t *op, uint32_t word, cp_origin_t origin) {
    if (t < CP_THREADS && op) tm_unit_issue(tm, t, op, word, origin, false);
}

/* (t and op: the caller's, see timing.h) One copy per thread (CP_PER_THREAD_DEFINE). The body is a
 * macro, not an always_inline function: gcc takes the origin, a struct passed by value, apart and
 * builds it again at one more level of inlining (+124K Ir on add1 4 x 32). */
#define tm_issue_as(tm, op, word, origin, t) (!tm_thcon_frozen(tm, t) && tm_unit_issue(tm, t, op, word, origin, true))
CP_PER_THREAD_DEFINE(bool, tm_issue, (tm_t * tm, const tt_op_t *op, uint32_t word, cp_origin_t origin),
                     (tm, op, word, origin))

bool tm_sync_issue(tm_t *tm, unsigned t, const tt_op_t *op, uint32_t word, cp_origin_t origin) {
    if (tm_thcon_frozen(tm, t)) return false; /* (tm_accepts: the Sync Unit's own rule is yes) */
    /* tm_unit_issue's way for the Sync Unit: the record, the unit (no tracker, no condition) */
    const cp_insn_t *in = tm_insn(tm, t, op, word, origin);
    tm->last_unit[t] = TT_UNIT_SYNC;
    if (tm->opi[op->opcode].dp) dp_exec(tm->dp, in);
    return true;
}

void tm_advance_idle(tm_t *tm, uint64_t n) {
    /* With no instruction in any unit, tm_cycle only moves the clock: every busy interval is a
     * timestamp compared with now. */
    tm->h.now += n;
}

/* Out of line: most cycles have nothing due, and their tm_cycle stays small. */
__attribute__((noinline)) static void tm_unp_step(tm_t *tm, unsigned u) {
    tm_unp_retire(tm, u);
    tm_unp_try_start(tm, u);
}

/* The reference's cycle: both unpackers looked at, whatever is due (its unp_due stays 0). Out of
 * line, like tm_unp_step, to keep the fast path's early exit small. */
__attribute__((noinline)) static bool tm_cycle_plain(tm_t *tm) {
    bool did = false;
    for (unsigned u = 0; u < 2; u++) {
        const tm_unpacker_t *up = &tm->unp[u];
        bool running = up->running;
        unsigned count = up->count;
        tm_unp_step(tm, u);
        did |= up->running != running || up->count != count;
    }
    return did;
}

bool tm_cycle(tm_t *tm) {
    tm->h.now++;
    if (tm->h.now < tm->h.unp_due) return false;
    return tm_cycle_due(tm);
}

bool tm_cycle_due(tm_t *tm) {
    if (tm->reference) return tm_cycle_plain(tm);
    bool did = false;
    uint64_t due = UINT64_MAX;
    for (unsigned u = 0; u < 2; u++) {
        const tm_unpacker_t *up = &tm->unp[u];
        /* Nothing due: the head runs on, or the queue is empty, or its head still waits for a
         * bank (tm_unp_try_start). */
        if (up->running ? tm->h.now < up->done_at : up->count == 0 || up->bank_wait == tm->src_moves) {
            if (up->running && up->done_at < due) due = up->done_at;
            continue;
        }
        tm_unp_step(tm, u);
        did = true;
        /* What it did may be due again (a retired head's successor): look next cycle. */
        due = 0;
    }
    tm->h.unp_due = due;
    return did;
}

uint64_t tm_next_change(const tm_t *tm) {
    /* A time x is compared with the clock before it moves in a cycle (the gates: now < x first
     * differs in cycle x) and after (tm_cycle's unpackers, whether a thread is busy at the end of
     * the cycle: in cycle x - 1). */
    uint64_t now = tm->h.now, next = UINT64_MAX;
#define TM_AT(x)                                                                                                       \
    do {                                                                                                               \
        uint64_t x_ = (x);                                                                                             \
        if (x_ > now) x_--;                                                                                            \
        if (x_ >= now && x_ < next) next = x_;                                                                         \
    } while (0)
    /* With nothing dispatched, the model compares the clock with: when each thread's work ends
     * (whether it is busy: tm_thread_busy), the admission times (tm_can_accept) and the
     * unpackers' ends (tm_cycle). The STALLWAIT conditions' times are the caller's to add: their
     * evaluation says when the next one runs out (tm_cond_eval). */
    for (unsigned t = 0; t < CP_THREADS; t++)
        TM_AT(tm->busy_until[t]);
    TM_AT(tm->thcon_until);
    TM_AT(tm->fpu_start);
    TM_AT(tm->cfg_entry_at);
    for (unsigned u = 0; u < 2; u++)
        if (tm->unp[u].running) TM_AT(tm->unp[u].done_at);
#undef TM_AT
    return next;
}

/* ---- conditions and status ---------------------------------------------------------------- */

/* The one rule of the conditions (the table of docs/coprocessor-backend.md): is Cn (0..12) of
 * thread t busy? A busy one that only the clock can end ("now < until") runs out at *until, set
 * only then; the others change with their inputs only, which the model marks (chg). */
static inline bool tm_cond_at(const tm_t *tm, unsigned t, unsigned cond, uint64_t *until) {
    const uint64_t *tr = tm->until[t];
    uint64_t u;
    switch (cond) {
    case 0: /* THCON: memory requests outstanding for this thread */ u = tr[TM_TR_MEM]; break;
    case 1: /* UNPACK0 */ return tm_unp_has_thread(tm, 0, t);
    case 2: /* UNPACK1 */ return tm_unp_has_thread(tm, 1, t);
    case 3: /* PACK */ u = tr[TM_TR_PACK]; break;
    case 4: /* MATH */ u = tr[TM_TR_MATH]; break;
    case 5: /* SRCA_CLR: SrcA[Unpackers[0].SrcBank].AllowedClient != Unpackers */
        return !st_src_unpacker_owns(tm->st, 0);
    case 6: /* SRCB_CLR */ return !st_src_unpacker_owns(tm->st, 1);
    case 7: /* SRCA_VLD: SrcA[MatrixUnit.SrcABank].AllowedClient != MatrixUnit */ return !st_src_matrix_owns_a(tm->st);
    case 8: /* SRCB_VLD */ return !st_src_matrix_owns_b(tm->st);
    case 9: /* XMOV: mover busy for any thread */ u = tm->mover_until; break;
    case 10: /* TRISC_CFG: this thread's RISC-V store to GPRs/config still in flight */ u = tr[TM_TR_RISCV_CFG]; break;
    case 11: /* SFPU */ u = tr[TM_TR_SFPU]; break;
    case 12: /* CFGEXU: any thread in the Configuration Unit, until the last one is done */
        u = 0;
        for (unsigned x = 0; x < CP_THREADS; x++)
            u = tm_max(u, tm->until[x][TM_TR_CFG]);
        break;
    default: return false;
    }
    if (tm->h.now >= u) return false;
    *until = u;
    return true;
}

bool tm_cond_busy(const tm_t *tm, unsigned t, unsigned cond) {
    uint64_t until;
    return t < CP_THREADS && tm_cond_at(tm, t, cond, &until);
}

uint32_t tm_cond_eval(tm_t *tm, unsigned t, uint32_t sel, uint64_t *next) {
    *next = UINT64_MAX;
    if (t >= CP_THREADS) return 0;
    /* tm_cond_busy's rule, on the selected ones (a latched STALLWAIT asks again whenever one of
     * its inputs changed or a busy one ran out). */
    uint32_t b = 0;
    tm->h.chg[t] &= ~sel;
    for (uint32_t m = sel & TM_C_ALL; m; m &= m - 1) {
        unsigned n = (unsigned)__builtin_ctz(m);
        uint64_t until = UINT64_MAX;
        if (tm_cond_at(tm, t, n, &until)) {
            b |= 1u << n;
            if (until < *next) *next = until;
        }
    }
    return b;
}

/* tm_thread_busy's plain form: every unit's tracker instead of busy_until (RISC-V stores aside). */
static bool tm_thread_busy_plain(const tm_t *tm, unsigned t) {
    for (unsigned k = 0; k < TM_TR_COUNT; k++)
        if (k != TM_TR_RISCV_CFG && tm->h.now < tm->until[t][k]) return true;
    return tm_unp_has_thread(tm, 0, t) || tm_unp_has_thread(tm, 1, t);
}

bool tm_thread_busy(const tm_t *tm, unsigned t) {
    if (t >= CP_THREADS) return false;
    if (tm->reference) return tm_thread_busy_plain(tm, t);
    return tm->h.now < tm->busy_until[t] || tm_unp_has_thread(tm, 0, t) || tm_unp_has_thread(tm, 1, t);
}

/* CSRs.md tt_cfg_bstatus class bits: 2 ThCon, 3 Mover, 4 Unpacker, 5 Packer, 6 Config, 7 Sync,
 * 8 Misc/Mover/ThCon/Packer/Unpacker, 9 SFPU, 10 FPU. (0 REPLAY, 1 MOP and 7 Sync are the
 * frontend's and the Sync Unit's to report.) */
uint32_t tm_busy_classes(const tm_t *tm, unsigned t) {
    if (t >= CP_THREADS) return 0;
    const uint64_t *u = tm->until[t];
    uint64_t now = tm->h.now;
    uint32_t m = 0;
    if (now < u[TM_TR_THCON] || now < u[TM_TR_MEM]) m |= 1u << 2;
    if (now < u[TM_TR_MOVER]) m |= 1u << 3;
    if (tm_unp_has_thread(tm, 0, t) || tm_unp_has_thread(tm, 1, t)) m |= 1u << 4;
    if (now < u[TM_TR_PACK]) m |= 1u << 5;
    if (now < u[TM_TR_CFG]) m |= 1u << 6;
    if ((m & 0x3Cu) || now < u[TM_TR_MISC]) m |= 1u << 8;
    if (now < u[TM_TR_SFPU]) m |= 1u << 9;
    if (now < u[TM_TR_MATH]) m |= 1u << 10;
    return m;
}

int tm_last_unit(const tm_t *tm, unsigned t) { return t < CP_THREADS ? tm->last_unit[t] : -1; }

void tm_note_riscv_cfg_write(tm_t *tm, unsigned t) {
    if (t < CP_THREADS) {
        tm->until[t][TM_TR_RISCV_CFG] = tm_max(tm->until[t][TM_TR_RISCV_CFG], tm->h.now + TM_LAT_RISCV_CFG);
        tm->h.chg[t] |= 1u << 10; /* C10 */
    }
}
