/* coproc/backend.c — the backend units' occupancy model, the Scalar Unit (ThCon) and the
 * Configuration Unit, and the sources of STALLWAIT conditions C0..C12.
 *
 * Model (docs/coprocessor-backend.md has the full story and every assumption):
 *  - A cycle counter `now`. An instruction dispatched at cycle N with latency L occupies its unit
 *    (for its issuing thread) while now < N + L, i.e. it is gone after L calls to be_cycle.
 *  - Functional effects (GPRs, config, SrcA/SrcB ownership) happen at dispatch, except the
 *    unpackers, whose instructions queue in the unpacker and take effect when they retire.
 *  - Latencies come from one table (be_op_lat / be_unit_lat below) built from the ISA pages
 *    (TensixCoprocessor README, MatrixUnit.md, ScalarUnit.md, ConfigurationUnit.md, VectorUnit.md);
 *    where the docs give none, a stated choice.
 */
#include "coproc/backend.h"

#include "coproc/tt_fields.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- constants --------------------------------------------------------------------------- */

/* BackendConfiguration.md / cfg_defines.h (BH): Config[i] words at or above this index are the
 * "global" registers, written to both banks. */
#define BE_GLOBAL_CFG_BASE 180
/* cfg_defines.h (BH) via ttsim data/bh/tensix_regs.json: SCRATCH_SEC0..2_val (CFGSHIFTMASK). */
#define BE_SCRATCH_SEC0_ADDR32 209
/* ThreadConfig indices (BH cfg_defines.h, "Registers for THREAD"). */
#define BE_THD_CFG_STATE_ID   0  /* CFG_STATE_ID_StateID, bit 0 */
#define BE_THD_CLR_DVALID     7  /* CLR_DVALID_SrcA_Disable bit 0, _SrcB_Disable bit 1 */
#define BE_THD_STREAM_ID_SYNC 59 /* STREAM_ID_SYNC_SEC0..3_BankSel, 6 bits each */

/* RISC-V view of the config space (BackendConfiguration.md, TENSIX.md §2.6). */
#define BE_CFG_BANK_BYTES (CP_CFG_WORDS * 4u)                            /* 0x380 */
#define BE_CFG_DUAL_OFF   (2u * BE_CFG_BANK_BYTES)                       /* 0x700 */
#define BE_THDCFG_OFF     (3u * BE_CFG_BANK_BYTES)                       /* 0xA80 */
#define BE_THDCFG_BYTES   (CP_THDCFG_WORDS * 4u)                         /* 0x110 */
#define BE_CFG_END        (BE_THDCFG_OFF + CP_THREADS * BE_THDCFG_BYTES) /* 0xDB0 */
_Static_assert(BE_CFG_DUAL_OFF == 0x700 && BE_THDCFG_OFF == 0xA80 && BE_CFG_END == 0xDB0,
               "BackendConfiguration.md layout");

/* STOREREG.md / LOADREG.md: Addr = 0xFFB00000 + (AddrLo << 2); below 0xFFB11000 is UB. */
#define BE_REGWIN_BASE 0xFFB00000u
#define BE_REGWIN_MIN  0xFFB11000u
/* NoC overlay streams, 0x1000 per stream (TENSIX.md §2.1). */
#define BE_OVERLAY_BASE 0xFFB40000u

/* Unpacker instruction queue depth (not documented; "the thread waits until accepted"). */
#define BE_UNPACK_QDEPTH 4
/* Extra cycles a ThCon memory request stays outstanding after the instruction leaves ThCon
 * (condition C0). LOADREG.md: "in most cases ... seven DMANOP instructions after LOADREG". */
#define BE_MEM_EXTRA 5
/* Cycles a RISC-V store to GPRs/config/TDMA-RISC stays "in flight" for condition C10. */
#define BE_LAT_RISCV_CFG 2

/* SrcA/SrcB AllowedClient (SrcASrcB.md). */
enum { BE_OWN_UNPACKERS = 0, BE_OWN_MATRIX = 1 };

/* Per-thread occupancy trackers: the cycle at which thread t's last instruction in that class
 * is done. */
enum {
    BE_TR_THCON, /* Scalar Unit executing (the whole thread is frozen meanwhile) */
    BE_TR_MEM,   /* C0: ThCon memory request outstanding */
    BE_TR_PACK,  /* C3 */
    BE_TR_MATH,  /* C4 */
    BE_TR_SFPU,  /* C11 */
    BE_TR_CFG,   /* C12 (OR over threads) */
    BE_TR_MOVER, /* busy class only; C9 is global */
    BE_TR_MISC,
    BE_TR_RISCV_CFG, /* C10 */
    BE_TR_COUNT
};

/* ---- latency table ------------------------------------------------------------------------ */

/* Default latency of each unit (cycles). Sources: TensixCoprocessor README (WH) unit table,
 * TENSIX.md §6.1; UNPACK/PACK/MOVER have no documented figure: our choice, see docs. */
static const uint8_t be_unit_lat[TT_UNIT_COUNT] = {
    [TT_UNIT_MOP] = 0,    [TT_UNIT_REPLAY] = 0, [TT_UNIT_TTSYNC] = 0, [TT_UNIT_SYNC] = 1,
    [TT_UNIT_UNPACK] = 8, [TT_UNIT_MATH] = 1,   [TT_UNIT_PACK] = 8,   [TT_UNIT_SFPU] = 1,
    [TT_UNIT_THCON] = 3,  [TT_UNIT_CONFIG] = 1, [TT_UNIT_MOVER] = 16, [TT_UNIT_MISC] = 1,
};

/* Per-opcode overrides (0 = the unit default). */
static const uint8_t be_op_lat[256] = {
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
     * aligned groups of four: be_thcon_lat); STOREREG/LOADREG/STOREIND/LOADIND/ATSWAP/ATINCGET
     * >= 3; REG2FLOP/FLUSHDMA >= 2; ATCAS/ATINCGETPTR >= 15. */
    [TT_OPC_SETDMAREG] = 1,
    [TT_OPC_DMANOP] = 1,
    [TT_OPC_RSTDMA] = 1, /* no figure; 1 */
    [TT_OPC_REG2FLOP] = 2,
    [TT_OPC_FLUSHDMA] = 2, /* at least; be_thcon_lat waits for C0 */
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
} be_unp_entry_t;

/* One unpacker: an in-order queue; the head executes once the SrcA/SrcB bank it writes is owned
 * by the unpackers (UNPACR_Regular.md, UNPACR_NOP_*.md: the wait happens in the unpacker). */
typedef struct {
    be_unp_entry_t q[BE_UNPACK_QDEPTH];
    unsigned head, count;
    bool running;     /* q[head] is executing */
    uint64_t done_at; /* ... until this cycle */
} be_unpacker_t;

struct be {
    cp_env_t env;
    uint64_t now;

    uint64_t until[CP_THREADS][BE_TR_COUNT];
    uint64_t thcon_until;  /* Scalar Unit busy (not pipelined, shared by all threads) */
    unsigned thcon_thread; /* ... with an instruction of this thread */
    uint64_t fpu_start;    /* cycle + 1 of the last FPU start (0 = never) */
    uint64_t cfg_entry_at; /* earliest cycle a Config-group instruction may enter */
    uint64_t pack_until;   /* packers, serialised across threads */
    uint64_t mover_until;  /* C9 */

    /* SrcA/SrcB (SrcASrcB.md): AllowedClient per bank and each side's bank pointer. */
    uint8_t srca_owner[2], srcb_owner[2];
    uint8_t unp_bank[2]; /* Unpackers[0].SrcBank (SrcA), Unpackers[1].SrcBank (SrcB) */
    uint8_t fpu_bank_a, fpu_bank_b;
    be_unpacker_t unp[2];

    uint32_t gpr[CP_THREADS][CP_NUM_GPRS];
    uint32_t cfg[2][CP_CFG_WORDS];
    uint16_t thdcfg[CP_THREADS][CP_THDCFG_WORDS];

    int8_t last_unit[CP_THREADS]; /* tt_unit_t that took thread t's last dispatch, -1 none */

    char error[160]; /* first error since reset ("" = none) */
};

/* ---- helpers ------------------------------------------------------------------------------ */

static uint64_t be_max(uint64_t a, uint64_t b) { return a > b ? a : b; }

static void be_fail(be_t *be, const char *fmt, ...) {
    if (be->error[0]) return; /* keep the first */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(be->error, sizeof be->error, fmt, ap);
    va_end(ap);
}

static unsigned be_state_id(const be_t *be, unsigned t) { return be->thdcfg[t][BE_THD_CFG_STATE_ID] & 1u; }

/* A Tensix-side config write: BackendConfiguration.md — the global registers (index >= 180)
 * are written to both banks. */
static void be_cfg_store(be_t *be, unsigned bank, unsigned idx, uint32_t val) {
    if (idx >= BE_GLOBAL_CFG_BASE) {
        be->cfg[0][idx] = val;
        be->cfg[1][idx] = val;
    } else {
        be->cfg[bank][idx] = val;
    }
}

static unsigned be_latency(const tt_op_t *op) {
    unsigned l = be_op_lat[op->opcode];
    return l ? l : be_unit_lat[op->unit];
}

/* Which unpacker (0 = SrcA, 1 = SrcB) an UNPACR/UNPACR_NOP targets: Unpack_block_selection /
 * Unpacker_Select. */
static unsigned be_unpacker_of(uint32_t word) {
    return TT_OPCODE(word) == TT_OPC_UNPACR ? TT_UNPACR_UNPACK_BLOCK_SELECTION(word)
                                            : TT_UNPACR_NOP_UNPACKER_SELECT(word);
}

/* Does this unpacker instruction hand its bank to the Matrix Unit when it retires?
 * UNPACR: SetDatValid. UNPACR_NOP: Set_Dvalid nonzero — tt-llk's
 * TT_OP_UNPACR_NOP(..., p_unpacr_nop::SET_DVALID, ...) usage [INF]. */
static bool be_unp_sets_dvalid(uint32_t word) {
    switch (TT_OPCODE(word)) {
    case TT_OPC_UNPACR: return TT_UNPACR_SETDATVALID(word);
    case TT_OPC_UNPACR_NOP: return TT_UNPACR_NOP_SET_DVALID(word) != 0;
    default: return false;
    }
}

/* Does it need the unpacker-side bank owned by the Unpackers before it executes?
 * UNPACR always (it writes SrcA/SrcB); UNPACR_NOP only when it hands over the bank (otherwise a
 * hand-over could be lost) — the other UNPACR_NOP modes are accepted unconditionally. */
static bool be_unp_needs_bank(uint32_t word) { return TT_OPCODE(word) == TT_OPC_UNPACR || be_unp_sets_dvalid(word); }

static uint8_t *be_unp_owner(be_t *be, unsigned u) {
    return u == 0 ? &be->srca_owner[be->unp_bank[0]] : &be->srcb_owner[be->unp_bank[1]];
}

/* Matrix Unit instructions that wait at the Wait Gate for SrcA / SrcB to be owned by the Matrix
 * Unit (MatrixUnit.md table; ELWADD.md, MOVA2D.md "spend time waiting at the Wait Gate").
 * Bit 0 = needs SrcA, bit 1 = needs SrcB. Legacy CONV/POOL3 ops and Src writers (MOVD2A,
 * MOVD2B, ZEROSRC, SHIFTX*, TRNSPSRC*) are accepted without a check (docs unclear). */
static unsigned be_fpu_src_needs(uint8_t opc) {
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

be_t *be_create(const cp_env_t *env) {
    be_t *be = calloc(1, sizeof *be);
    if (!be) return NULL;
    if (env) be->env = *env;
    be_reset(be);
    return be;
}

void be_destroy(be_t *be) { free(be); }

void be_reset(be_t *be) {
    cp_env_t env = be->env;
    memset(be, 0, sizeof *be);
    be->env = env;
    /* SrcASrcB.md: all banks owned by the Unpackers, all bank pointers 0 (the memset). */
    _Static_assert(BE_OWN_UNPACKERS == 0, "reset state is all-zero");
    for (unsigned t = 0; t < CP_THREADS; t++)
        be->last_unit[t] = -1;
}

const char *be_error(const be_t *be) { return be->error[0] ? be->error : NULL; }

/* ---- admission ---------------------------------------------------------------------------- */

bool be_can_accept(const be_t *be, unsigned t, const tt_op_t *op, uint32_t word) {
    if (t >= CP_THREADS || !op) return false;
    /* ScalarUnit.md: while a ThCon instruction of thread t executes, nothing of t passes. */
    if (be->now < be->thcon_until && be->thcon_thread == t) return false;

    switch (op->unit) {
    case TT_UNIT_THCON:
        /* Not pipelined, one instruction at a time across threads. */
        return be->now >= be->thcon_until;
    case TT_UNIT_MATH: {
        /* TensixCoprocessor README: at most one FPU instruction starts per cycle. */
        if (be->fpu_start == be->now + 1) return false;
        unsigned need = be_fpu_src_needs(op->opcode);
        if ((need & 1) && be->srca_owner[be->fpu_bank_a] != BE_OWN_MATRIX) return false;
        if ((need & 2) && be->srcb_owner[be->fpu_bank_b] != BE_OWN_MATRIX) return false;
        return true;
    }
    case TT_UNIT_UNPACK:
        /* The thread waits until the unpacker accepts the instruction into its queue. */
        return be->unp[be_unpacker_of(word)].count < BE_UNPACK_QDEPTH;
    case TT_UNIT_CONFIG:
        /* ConfigurationUnit.md: SETC16 has its own IPC group (3/cycle, one per thread); the
         * rest share one pipeline entry per cycle (CFGSHIFTMASK: one per two cycles).
         * Simplification: one Config-group instruction per cycle across threads. */
        if (op->opcode == TT_OPC_SETC16) return true;
        return be->now >= be->cfg_entry_at;
    default: return true;
    }
}

/* ---- Scalar Unit (ThCon) ------------------------------------------------------------------ */

/* The operands of ADDDMAREG, SUBDMAREG, MULDMAREG, BITWOPDMAREG, SHIFTDMAREG, CMPDMAREG
 * (*DMAREG.md): the same layout in all six; mode is OpSel (0 for the three without one). */
typedef struct {
    unsigned a, b, r, mode;
    bool b_const; /* OpBRegIndex is a 6-bit immediate, not a GPR */
} be_dmareg_t;

static be_dmareg_t be_dmareg(uint32_t w) {
#define BE_DMAREG(OP, MODE)                                                                                            \
    case TT_OPC_##OP:                                                                                                  \
        return (be_dmareg_t) {                                                                                         \
            TT_##OP##_OPAREGINDEX(w), TT_##OP##_OPBREGINDEX(w), TT_##OP##_RESULTREGINDEX(w), (MODE),                   \
                TT_##OP##_OPBISCONST(w)                                                                                \
        }
    switch (TT_OPCODE(w)) {
        BE_DMAREG(ADDDMAREG, 0);
        BE_DMAREG(SUBDMAREG, 0);
        BE_DMAREG(MULDMAREG, 0);
        BE_DMAREG(BITWOPDMAREG, TT_BITWOPDMAREG_OPSEL(w));
        BE_DMAREG(SHIFTDMAREG, TT_SHIFTDMAREG_OPSEL(w));
        BE_DMAREG(CMPDMAREG, TT_CMPDMAREG_OPSEL(w));
    default: return (be_dmareg_t){0, 0, 0, 0, false};
    }
#undef BE_DMAREG
}

/* *DMAREG operand B: a GPR, or the 6-bit immediate when OpBisConst. */
static uint32_t be_opb(const be_t *be, unsigned t, const be_dmareg_t *d) {
    return d->b_const ? d->b : be->gpr[t][d->b];
}

/* ScalarUnit.md / *DMAREG.md: 3 cycles, 4 when the two GPR operands are in different aligned
 * groups of four; FLUSHDMA waits for this thread's outstanding memory requests (C0). */
static unsigned be_thcon_lat(const be_t *be, unsigned t, const tt_op_t *op, uint32_t word) {
    unsigned lat = be_latency(op);
    switch (op->opcode) {
    case TT_OPC_ADDDMAREG:
    case TT_OPC_SUBDMAREG:
    case TT_OPC_MULDMAREG:
    case TT_OPC_BITWOPDMAREG:
    case TT_OPC_SHIFTDMAREG:
    case TT_OPC_CMPDMAREG: {
        be_dmareg_t d = be_dmareg(word);
        if (!d.b_const && d.a / 4 != d.b / 4) lat = 4;
        break;
    }
    case TT_OPC_FLUSHDMA:
        if (be->until[t][BE_TR_MEM] > be->now + lat) lat = (unsigned)(be->until[t][BE_TR_MEM] - be->now);
        break;
    default: break;
    }
    return lat;
}

/* SETDMAREG with SetSignalsMode=1 (SETDMAREG_Special.md) reads packer state, which this model
 * does not have: every Value reads as 0, except the tile-header TileSize (sources 2..5), which
 * is LastTileSize + 1 = 1. ResultSize 2 therefore zeroes four GPRs, as the page notes. */
static void be_setdmareg_special(be_t *be, unsigned t, uint32_t word) {
    unsigned half = TT_SETDMAREG_REGINDEX16B(word); /* ResultHalfReg */
    unsigned in_half = TT_SETDMAREG_INPUTHALFREG(word);
    unsigned source = TT_SETDMAREG_INPUTSOURCE(word);
    unsigned size = TT_SETDMAREG_PAYLOAD_SIGSELSIZE(word); /* ResultSize */
    uint32_t values[4] = {0, 0, 0, 0};
    if (source >= 2 && source <= 5) values[0] = 1; /* TileSize */
    uint32_t *g = be->gpr[t];
    switch (size) {
    case 0: { /* 16 bits: any half of any value to any half of any GPR */
        uint16_t v = (uint16_t)(values[in_half >> 1] >> (16 * (in_half & 1)));
        unsigned sh = 16 * (half & 1);
        g[half >> 1] = (g[half >> 1] & ~(0xFFFFu << sh)) | ((uint32_t)v << sh);
        break;
    }
    case 1: g[half >> 1] = values[in_half >> 1]; break;
    case 2: memcpy(&g[(half >> 1) & 0x3C], values, sizeof values); break;
    default: { /* 3: tile header, reserved fields kept */
        uint32_t *r = &g[(half >> 1) & 0x3C];
        r[0] = (r[0] & 0xFFFF0000u) | (values[0] & 0xFFFFu);
        r[1] = (r[1] & ~0x00FF0000u) | (values[1] & 0x00FF0000u);
        r[2] = values[2];
        break;
    }
    }
}

static void be_exec_thcon(be_t *be, unsigned t, const tt_op_t *op, uint32_t word) {
    uint32_t *g = be->gpr[t];
    be_dmareg_t d = be_dmareg(word);
    uint32_t av = g[d.a];
    bool mem = false;

    switch (op->opcode) {
    case TT_OPC_SETDMAREG:
        if (TT_SETDMAREG_SETSIGNALSMODE(word)) {
            be_setdmareg_special(be, t, word);
        } else {
            /* SETDMAREG.md (immediate): the 16-bit NewValue goes to 16-bit half ResultHalfReg
             * of the GPR file: GPR ResultHalfReg>>1, high half if odd. */
            unsigned half = TT_SETDMAREG_REGINDEX16B(word), sh = 16 * (half & 1);
            uint32_t v = TT_SETDMAREG_NEWVALUE(word);
            g[half >> 1] = (g[half >> 1] & ~(0xFFFFu << sh)) | (v << sh);
        }
        break;
    case TT_OPC_ADDDMAREG: g[d.r] = av + be_opb(be, t, &d); break;
    case TT_OPC_SUBDMAREG: g[d.r] = av - be_opb(be, t, &d); break;
    case TT_OPC_MULDMAREG: /* MULDMAREG.md: 16b x 16b -> 32b unsigned */
        g[d.r] = (av & 0xFFFFu) * (be_opb(be, t, &d) & 0xFFFFu);
        break;
    case TT_OPC_BITWOPDMAREG: { /* BITWOPDMAREG.md: 0 AND, 1 OR, 2 XOR */
        uint32_t b = be_opb(be, t, &d);
        if (d.mode == 0)
            g[d.r] = av & b;
        else if (d.mode == 1)
            g[d.r] = av | b;
        else if (d.mode == 2)
            g[d.r] = av ^ b;
        else
            be_fail(be, "BITWOPDMAREG mode %u is undefined (thread %u, word 0x%08x)", d.mode, t, word);
        break;
    }
    case TT_OPC_SHIFTDMAREG: { /* SHIFTDMAREG.md: 0 left, 1 right, amount & 0x1F */
        uint32_t b = be_opb(be, t, &d) & 0x1Fu;
        if (d.mode == 0)
            g[d.r] = av << b;
        else if (d.mode == 1)
            g[d.r] = av >> b;
        else
            be_fail(be, "SHIFTDMAREG mode %u is undefined (thread %u, word 0x%08x)", d.mode, t, word);
        break;
    }
    case TT_OPC_CMPDMAREG: { /* CMPDMAREG.md: 0 GT, 1 LT, 2 EQ, unsigned; result 0/1 */
        uint32_t b = be_opb(be, t, &d);
        if (d.mode == 0)
            g[d.r] = av > b;
        else if (d.mode == 1)
            g[d.r] = av < b;
        else if (d.mode == 2)
            g[d.r] = av == b;
        else
            be_fail(be, "CMPDMAREG mode %u is undefined (thread %u, word 0x%08x)", d.mode, t, word);
        break;
    }
    case TT_OPC_STOREREG:
    case TT_OPC_LOADREG: {
        /* STOREREG.md / LOADREG.md: Addr = 0xFFB00000 + (RegAddr << 2), GPR = TdmaDataRegIndex;
         * Addr < 0xFFB11000 is undefined behaviour. The two share one layout. */
        bool store = op->opcode == TT_OPC_STOREREG;
        uint32_t addr = BE_REGWIN_BASE + ((store ? TT_STOREREG_REGADDR(word) : TT_LOADREG_REGADDR(word)) << 2);
        unsigned gi = store ? TT_STOREREG_TDMADATAREGINDEX(word) : TT_LOADREG_TDMADATAREGINDEX(word);
        mem = true;
        if (addr < BE_REGWIN_MIN) {
            be_fail(be, "%s to 0x%08x (below 0xFFB11000) is undefined (thread %u)", op->mnemonic, addr, t);
            break;
        }
        if (store) {
            if (!be->env.mmio_store || !be->env.mmio_store(be->env.ctx, addr, g[gi]))
                be_fail(be, "STOREREG to unmapped 0x%08x (thread %u)", addr, t);
        } else {
            /* The GPR is written at once rather than when the read returns: a functional
             * choice; C0 still reports the request outstanding. */
            uint32_t v = 0;
            if (!be->env.mmio_load || !be->env.mmio_load(be->env.ctx, addr, &v))
                be_fail(be, "LOADREG from unmapped 0x%08x (thread %u)", addr, t);
            else
                g[gi] = v;
        }
        break;
    }
    case TT_OPC_DMANOP:
    case TT_OPC_RSTDMA: /* resets TDMA state this model does not keep */
    case TT_OPC_FLUSHDMA: /* only waits (be_thcon_lat) */ break;
    default:
        /* REG2FLOP, LOADIND, STOREIND, ATINCGET, ATINCGETPTR, ATSWAP, ATCAS: occupancy only. */
        mem = op->opcode != TT_OPC_REG2FLOP;
        be_fail(be, "%s is not implemented (thread %u, word 0x%08x)", op->mnemonic, t, word);
        break;
    }

    unsigned lat = be_thcon_lat(be, t, op, word);
    be->thcon_until = be->now + lat;
    be->thcon_thread = t;
    be->until[t][BE_TR_THCON] = be->thcon_until;
    if (mem) be->until[t][BE_TR_MEM] = be_max(be->until[t][BE_TR_MEM], be->now + lat + BE_MEM_EXTRA);
}

/* ---- Configuration Unit ------------------------------------------------------------------- */

static void be_exec_config(be_t *be, unsigned t, const tt_op_t *op, uint32_t word) {
    unsigned bank = be_state_id(be, t);
    uint32_t *g = be->gpr[t];

    switch (op->opcode) {
    case TT_OPC_WRCFG: { /* WRCFG.md: GPR(s) -> Config[StateID][CfgIndex], 32 or 128 bits */
        unsigned idx = TT_WRCFG_CFGREG(word), gi = TT_WRCFG_GPRADDRESS(word);
        if (idx >= CP_CFG_WORDS) {
            be_fail(be, "WRCFG CfgIndex %u out of range (thread %u)", idx, t);
            break;
        }
        if (TT_WRCFG_WR128B(word)) {
            for (unsigned k = 0; k < 4; k++)
                be_cfg_store(be, bank, (idx & ~3u) + k, g[(gi & ~3u) + k]);
        } else {
            be_cfg_store(be, bank, idx, g[gi]);
        }
        break;
    }
    case TT_OPC_RDCFG: { /* RDCFG.md: Config[StateID][CfgIndex] -> GPR */
        unsigned idx = TT_RDCFG_CFGREG(word), gi = TT_RDCFG_GPRADDRESS(word);
        if (idx >= CP_CFG_WORDS)
            be_fail(be, "RDCFG CfgIndex %u out of range (thread %u)", idx, t);
        else
            g[gi] = be->cfg[bank][idx];
        break;
    }
    case TT_OPC_SETC16: { /* SETC16.md: ThreadConfig[t][CfgIndex] = NewValue */
        unsigned idx = TT_SETC16_SETC16_REG(word);
        if (idx >= CP_THDCFG_WORDS)
            be_fail(be, "SETC16 CfgIndex %u out of range (thread %u)", idx, t);
        else
            be->thdcfg[t][idx] = (uint16_t)TT_SETC16_SETC16_VALUE(word);
        break;
    }
    case TT_OPC_RMWCIB0:
    case TT_OPC_RMWCIB1:
    case TT_OPC_RMWCIB2:
    case TT_OPC_RMWCIB3: { /* RMWCIB.md */
        /* Index1 is the digit in the name: RMWCIB0 modifies byte 0. The four share one layout. */
        unsigned byte = op->opcode - TT_OPC_RMWCIB0, idx = TT_RMWCIB0_CFGREGADDR(word);
        uint32_t data = TT_RMWCIB0_DATA(word), mask = TT_RMWCIB0_MASK(word), sh = 8 * byte;
        if (idx >= CP_CFG_WORDS) {
            be_fail(be, "RMWCIB CfgIndex %u out of range (thread %u)", idx, t);
            break;
        }
        uint32_t old = be->cfg[bank][idx];
        be_cfg_store(be, bank, idx, (old & ~(mask << sh)) | ((data & mask) << sh));
        break;
    }
    case TT_OPC_CFGSHIFTMASK: { /* CFGSHIFTMASK.md */
        unsigned idx = TT_CFGSHIFTMASK_CFGREG(word), sel = TT_CFGSHIFTMASK_SCRATCH_SEL(word);
        unsigned rot = TT_CFGSHIFTMASK_RIGHT_CSHIFT_AMT(word), width = TT_CFGSHIFTMASK_MASK_WIDTH(word);
        unsigned alu = TT_CFGSHIFTMASK_OPERATION(word), keep_old = TT_CFGSHIFTMASK_DISABLE_MASK_ON_OLD_VAL(word);
        if (idx >= CP_CFG_WORDS) {
            be_fail(be, "CFGSHIFTMASK CfgIndex %u out of range (thread %u)", idx, t);
            break;
        }
        uint32_t scratch = be->cfg[bank][BE_SCRATCH_SEC0_ADDR32 + (sel < 3 ? sel : t)];
        uint32_t mask = width == 31 ? 0xFFFFFFFFu : (2u << width) - 1u;
        uint32_t rmask = rot ? (mask >> rot) | (mask << (32 - rot)) : mask;
        uint32_t sv = scratch & mask;
        sv = rot ? (sv >> rot) | (sv << (32 - rot)) : sv;
        uint32_t v = be->cfg[bank][idx];
        if (!keep_old) v &= ~rmask;
        switch (alu) {
        case 0: v |= sv; break;
        case 1: v &= sv; break;
        case 2: v ^= sv; break;
        case 3: v += sv; break;
        case 4: v |= ~sv; break;
        case 5: v &= ~sv; break;
        case 6: v ^= ~sv; break;
        default: v -= sv; break;
        }
        be_cfg_store(be, bank, idx, v);
        break;
    }
    case TT_OPC_STREAMWRCFG: { /* STREAMWRCFG.md: Config[StateID][CfgIndex] = an overlay stream
                                * register: stream = ThreadConfig STREAM_ID_SYNC_SEC[StreamSelect]
                                * .BankSel, address = 0xFFB40000 + 0x1000 * stream + 4 * RegIndex. */
        unsigned idx = TT_STREAMWRCFG_CFGREG(word), reg = TT_STREAMWRCFG_STREAMREGADDR(word);
        unsigned sel = TT_STREAMWRCFG_STREAM_ID_SEL(word);
        unsigned stream = be->thdcfg[t][BE_THD_STREAM_ID_SYNC + sel] & 0x3Fu;
        uint32_t addr = BE_OVERLAY_BASE + 0x1000u * stream + 4u * reg, v = 0;
        if (idx >= CP_CFG_WORDS)
            be_fail(be, "STREAMWRCFG CfgIndex %u out of range (thread %u)", idx, t);
        else if (!be->env.mmio_load || !be->env.mmio_load(be->env.ctx, addr, &v))
            be_fail(be, "STREAMWRCFG from unmapped 0x%08x (thread %u)", addr, t);
        else
            be_cfg_store(be, bank, idx, v);
        break;
    }
    default: break;
    }

    be->until[t][BE_TR_CFG] = be_max(be->until[t][BE_TR_CFG], be->now + be_latency(op));
    if (op->opcode != TT_OPC_SETC16) be->cfg_entry_at = be->now + (op->opcode == TT_OPC_CFGSHIFTMASK ? 2 : 1);
}

/* ---- Matrix Unit, Miscellaneous Unit: SrcA/SrcB hand-over --------------------------------- */

/* FPU side gives its bank(s) back to the Unpackers and moves to the other bank (ELWADD.md
 * "Possibly flip source banks"; CLEARDVALID.md). ThreadConfig CLR_DVALID_Src*_Disable keeps
 * ownership but still flips the pointer (ELWADD.md). */
static void be_fpu_flip(be_t *be, unsigned t, unsigned flips, bool honour_disable, bool keep) {
    unsigned dis = honour_disable ? be->thdcfg[t][BE_THD_CLR_DVALID] & 3u : 0;
    if (flips & 1) {
        if (!(dis & 1)) be->srca_owner[be->fpu_bank_a] = BE_OWN_UNPACKERS;
        if (!keep) be->fpu_bank_a ^= 1;
    }
    if (flips & 2) {
        if (!(dis & 2)) be->srcb_owner[be->fpu_bank_b] = BE_OWN_UNPACKERS;
        if (!keep) be->fpu_bank_b ^= 1;
    }
}

/* The clear_dvalid flips ((FlipSrcB << 1) + FlipSrcA, ELWADD.md) of the Matrix Unit
 * instructions that have the field; 0 for the others. */
static unsigned be_clear_dvalid(uint32_t w) {
#define BE_CLEAR_DVALID(OP)                                                                                            \
    case TT_OPC_##OP: return TT_##OP##_CLEAR_DVALID(w)
    switch (TT_OPCODE(w)) {
        BE_CLEAR_DVALID(CONV3S1);
        BE_CLEAR_DVALID(CONV3S2);
        BE_CLEAR_DVALID(MPOOL3S1);
        BE_CLEAR_DVALID(APOOL3S1);
        BE_CLEAR_DVALID(MVMUL);
        BE_CLEAR_DVALID(ELWMUL);
        BE_CLEAR_DVALID(ELWADD);
        BE_CLEAR_DVALID(DOTPV);
        BE_CLEAR_DVALID(ELWSUB);
        BE_CLEAR_DVALID(MPOOL3S2);
        BE_CLEAR_DVALID(APOOL3S2);
        BE_CLEAR_DVALID(GMPOOL);
        BE_CLEAR_DVALID(GAPOOL);
        BE_CLEAR_DVALID(MFCONV3S1);
    default: return 0;
    }
#undef BE_CLEAR_DVALID
}

/* CLEARDVALID.md's reset argument: (KeepReadingSameSrc << 1) + Reset. */
enum { BE_CLEARDVALID_RESET = 1u << 0, BE_CLEARDVALID_KEEP_READING_SAME_SRC = 1u << 1 };

static void be_exec_math(be_t *be, unsigned t, const tt_op_t *op, uint32_t word) {
    switch (op->opcode) {
    case TT_OPC_CLEARDVALID: { /* CLEARDVALID.md: flips (cleardvalid), or a full reset */
        unsigned reset = TT_CLEARDVALID_RESET(word);
        if (reset & BE_CLEARDVALID_RESET) {
            be->fpu_bank_a = be->fpu_bank_b = 0;
            be->unp_bank[0] = be->unp_bank[1] = 0;
            be->srca_owner[0] = be->srca_owner[1] = BE_OWN_UNPACKERS;
            be->srcb_owner[0] = be->srcb_owner[1] = BE_OWN_UNPACKERS;
        } else {
            be_fpu_flip(be, t, TT_CLEARDVALID_CLEARDVALID(word), false,
                        (reset & BE_CLEARDVALID_KEEP_READING_SAME_SRC) != 0);
        }
        break;
    }
    case TT_OPC_SETRWC: /* SETRWC clear_ab_vld: the same hand-over [INF] */
        be_fpu_flip(be, t, TT_SETRWC_CLEAR_AB_VLD(word), true, false);
        break;
    default: be_fpu_flip(be, t, be_clear_dvalid(word), true, false); break;
    }
    be->until[t][BE_TR_MATH] = be_max(be->until[t][BE_TR_MATH], be->now + be_latency(op));
    be->fpu_start = be->now + 1;
}

/* SETDVALID.md: the Unpackers' current SrcA and/or SrcB bank goes to the Matrix Unit, and the
 * unpacker moves to the other bank. (On Blackhole the page calls it unsupported; modelled.) */
static void be_unp_handover(be_t *be, unsigned u) {
    *be_unp_owner(be, u) = BE_OWN_MATRIX;
    be->unp_bank[u] ^= 1;
}

/* ---- unpackers ---------------------------------------------------------------------------- */

/* Start the head of unpacker u's queue if it can go. */
static void be_unp_try_start(be_t *be, unsigned u) {
    be_unpacker_t *up = &be->unp[u];
    if (up->running || up->count == 0) return;
    uint32_t word = up->q[up->head].word;
    if (be_unp_needs_bank(word) && *be_unp_owner(be, u) != BE_OWN_UNPACKERS) return;
    const tt_op_t *op = tt_op((uint8_t)TT_OPCODE(word));
    up->running = true;
    up->done_at = be->now + (op ? be_latency(op) : 1);
}

static void be_unp_retire(be_t *be, unsigned u) {
    be_unpacker_t *up = &be->unp[u];
    if (!up->running || be->now < up->done_at) return;
    if (be_unp_sets_dvalid(up->q[up->head].word)) be_unp_handover(be, u);
    up->running = false;
    up->head = (up->head + 1) % BE_UNPACK_QDEPTH;
    up->count--;
}

static bool be_unp_has_thread(const be_t *be, unsigned u, unsigned t) {
    const be_unpacker_t *up = &be->unp[u];
    for (unsigned i = 0; i < up->count; i++)
        if (up->q[(up->head + i) % BE_UNPACK_QDEPTH].thread == t) return true;
    return false;
}

/* ---- dispatch and time -------------------------------------------------------------------- */

void be_dispatch(be_t *be, unsigned t, const tt_op_t *op, uint32_t word) {
    if (t >= CP_THREADS || !op) return;
    unsigned lat = be_latency(op);

    switch (op->unit) {
    case TT_UNIT_THCON:
        be->last_unit[t] = TT_UNIT_THCON;
        be_exec_thcon(be, t, op, word);
        break;
    case TT_UNIT_CONFIG:
        be->last_unit[t] = TT_UNIT_CONFIG;
        be_exec_config(be, t, op, word);
        break;
    case TT_UNIT_MATH:
        be->last_unit[t] = TT_UNIT_MATH;
        be_exec_math(be, t, op, word);
        break;
    case TT_UNIT_UNPACK: {
        be->last_unit[t] = TT_UNIT_UNPACK;
        unsigned u = be_unpacker_of(word);
        be_unpacker_t *up = &be->unp[u];
        if (up->count >= BE_UNPACK_QDEPTH) {
            be_fail(be, "%s dispatched to a full unpacker %u (thread %u)", op->mnemonic, u, t);
            break;
        }
        up->q[(up->head + up->count) % BE_UNPACK_QDEPTH] = (be_unp_entry_t){(uint8_t)t, word};
        up->count++;
        be_unp_try_start(be, u);
        break;
    }
    case TT_UNIT_PACK:
        be->last_unit[t] = TT_UNIT_PACK;
        /* Packers: serialised across threads; completion = written to L1 (C3). */
        be->pack_until = be_max(be->pack_until, be->now) + lat;
        be->until[t][BE_TR_PACK] = be->pack_until;
        break;
    case TT_UNIT_SFPU:
        be->last_unit[t] = TT_UNIT_SFPU;
        be->until[t][BE_TR_SFPU] = be_max(be->until[t][BE_TR_SFPU], be->now + lat);
        break;
    case TT_UNIT_MOVER:
        be->last_unit[t] = TT_UNIT_MOVER;
        /* XMOV: asynchronous, one mover shared by all threads (C9). */
        be->mover_until = be_max(be->mover_until, be->now) + lat;
        be->until[t][BE_TR_MOVER] = be->mover_until;
        break;
    case TT_UNIT_MISC:
        be->last_unit[t] = TT_UNIT_MISC;
        if (op->opcode == TT_OPC_SETDVALID) { /* SETDVALID.md: (FlipSrcB << 1) + FlipSrcA */
            unsigned flips = TT_SETDVALID_SETVALID(word);
            if (flips & 1u) be_unp_handover(be, 0);
            if (flips & 2u) be_unp_handover(be, 1);
        }
        /* NOP and the ADC family: occupancy only (ADCs are not modelled yet). */
        be->until[t][BE_TR_MISC] = be_max(be->until[t][BE_TR_MISC], be->now + lat);
        break;
    default:
        /* Sync Unit, MOP/replay expanders, Auto TTSync: handled before the backend. Only the
         * Sync Unit's instructions are dispatched at all (gate.c consumes the others). */
        if (op->unit == TT_UNIT_SYNC) be->last_unit[t] = TT_UNIT_SYNC;
        break;
    }
}

void be_advance_idle(be_t *be, uint64_t n) {
    /* With no instruction in any unit, be_cycle only moves the clock: every busy interval is a
     * timestamp compared with now. */
    be->now += n;
}

void be_cycle(be_t *be) {
    be->now++;
    for (unsigned u = 0; u < 2; u++) {
        be_unp_retire(be, u);
        be_unp_try_start(be, u);
    }
}

/* ---- conditions and status ---------------------------------------------------------------- */

bool be_cond_busy(const be_t *be, unsigned t, unsigned cond) {
    if (t >= CP_THREADS) return false;
    uint64_t now = be->now;
    switch (cond) {
    case 0: /* THCON: memory requests outstanding for this thread */ return now < be->until[t][BE_TR_MEM];
    case 1: /* UNPACK0 */ return be_unp_has_thread(be, 0, t);
    case 2: /* UNPACK1 */ return be_unp_has_thread(be, 1, t);
    case 3: /* PACK */ return now < be->until[t][BE_TR_PACK];
    case 4: /* MATH */ return now < be->until[t][BE_TR_MATH];
    case 5: /* SRCA_CLR: SrcA[Unpackers[0].SrcBank].AllowedClient != Unpackers */
        return be->srca_owner[be->unp_bank[0]] != BE_OWN_UNPACKERS;
    case 6: /* SRCB_CLR */ return be->srcb_owner[be->unp_bank[1]] != BE_OWN_UNPACKERS;
    case 7: /* SRCA_VLD: SrcA[MatrixUnit.SrcABank].AllowedClient != MatrixUnit */
        return be->srca_owner[be->fpu_bank_a] != BE_OWN_MATRIX;
    case 8: /* SRCB_VLD */ return be->srcb_owner[be->fpu_bank_b] != BE_OWN_MATRIX;
    case 9: /* XMOV: mover busy for any thread */ return now < be->mover_until;
    case 10: /* TRISC_CFG: this thread's RISC-V store to GPRs/config still in flight */
        return now < be->until[t][BE_TR_RISCV_CFG];
    case 11: /* SFPU */ return now < be->until[t][BE_TR_SFPU];
    case 12: /* CFGEXU: any thread in the Configuration Unit */
        for (unsigned x = 0; x < CP_THREADS; x++)
            if (now < be->until[x][BE_TR_CFG]) return true;
        return false;
    default: return false;
    }
}

bool be_thread_busy(const be_t *be, unsigned t) {
    if (t >= CP_THREADS) return false;
    for (unsigned k = 0; k < BE_TR_COUNT; k++)
        if (k != BE_TR_RISCV_CFG && be->now < be->until[t][k]) return true;
    return be_unp_has_thread(be, 0, t) || be_unp_has_thread(be, 1, t);
}

/* CSRs.md tt_cfg_bstatus class bits: 2 ThCon, 3 Mover, 4 Unpacker, 5 Packer, 6 Config, 7 Sync,
 * 8 Misc/Mover/ThCon/Packer/Unpacker, 9 SFPU, 10 FPU. (0 REPLAY, 1 MOP and 7 Sync are the
 * frontend's and the Sync Unit's to report.) */
uint32_t be_busy_classes(const be_t *be, unsigned t) {
    if (t >= CP_THREADS) return 0;
    const uint64_t *u = be->until[t];
    uint64_t now = be->now;
    uint32_t m = 0;
    if (now < u[BE_TR_THCON] || now < u[BE_TR_MEM]) m |= 1u << 2;
    if (now < u[BE_TR_MOVER]) m |= 1u << 3;
    if (be_unp_has_thread(be, 0, t) || be_unp_has_thread(be, 1, t)) m |= 1u << 4;
    if (now < u[BE_TR_PACK]) m |= 1u << 5;
    if (now < u[BE_TR_CFG]) m |= 1u << 6;
    if ((m & 0x3Cu) || now < u[BE_TR_MISC]) m |= 1u << 8;
    if (now < u[BE_TR_SFPU]) m |= 1u << 9;
    if (now < u[BE_TR_MATH]) m |= 1u << 10;
    return m;
}

int be_last_unit(const be_t *be, unsigned t) { return t < CP_THREADS ? be->last_unit[t] : -1; }

void be_note_riscv_cfg_write(be_t *be, unsigned t) {
    if (t < CP_THREADS)
        be->until[t][BE_TR_RISCV_CFG] = be_max(be->until[t][BE_TR_RISCV_CFG], be->now + BE_LAT_RISCV_CFG);
}

/* ---- RISC-V windows ----------------------------------------------------------------------- */

uint32_t be_gpr_read(const be_t *be, unsigned t, unsigned i) {
    return t < CP_THREADS && i < CP_NUM_GPRS ? be->gpr[t][i] : 0;
}

void be_gpr_write(be_t *be, unsigned t, unsigned i, uint32_t val) {
    if (t < CP_THREADS && i < CP_NUM_GPRS) be->gpr[t][i] = val;
}

/* BackendConfiguration.md: 0x000 Config[0], 0x380 Config[1], 0x700 ConfigDualWrite (reads bank
 * 0), 0xA80 ThreadConfig[3][68] as {u16 value, u16 pad}. */
bool be_cfg_read(const be_t *be, uint32_t byte_off, uint32_t *val) {
    if ((byte_off & 3u) || byte_off >= BE_CFG_END || !val) return false;
    if (byte_off >= BE_THDCFG_OFF) {
        uint32_t o = byte_off - BE_THDCFG_OFF;
        *val = be->thdcfg[o / BE_THDCFG_BYTES][(o % BE_THDCFG_BYTES) / 4];
        return true;
    }
    unsigned region = byte_off / BE_CFG_BANK_BYTES, idx = (byte_off % BE_CFG_BANK_BYTES) / 4;
    *val = be->cfg[region == 1 ? 1 : 0][idx];
    return true;
}

/* RISC-V may not write ThreadConfig (it must push SETC16): false. STATE_RESET_EN's side effect
 * (zeroing Config[i][0..179]) is not modelled. */
bool be_cfg_write(be_t *be, uint32_t byte_off, uint32_t val) {
    if ((byte_off & 3u) || byte_off >= BE_THDCFG_OFF) return false;
    unsigned region = byte_off / BE_CFG_BANK_BYTES, idx = (byte_off % BE_CFG_BANK_BYTES) / 4;
    if (region == 2 || idx >= BE_GLOBAL_CFG_BASE) {
        be->cfg[0][idx] = val;
        be->cfg[1][idx] = val;
    } else {
        be->cfg[region][idx] = val;
    }
    return true;
}
