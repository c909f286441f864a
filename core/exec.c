/* core/exec.c — reset, fetch, the memory fast path, and the two dispatchers over
 * core/rv32_exec.inc (STYLE.md pattern 2: one set of bodies, two loops that run them).
 *
 * One hart_step() is one cycle: it fetches from L1, decodes (core/decode.c) and executes. An
 * instruction either retires (pc and instret advance), stalls on back-pressure from the tile
 * (MEM_STALL: nothing changes, it runs again next cycle), or stops the hart (fault, ebreak, hang).
 *
 * hart_step() is the reference path: a switch over a freshly decoded insn_t. pd_run() below is
 * the fast path: the same bodies as labels, entered through the decode cache (hart_pd_t, one
 * record per L1 word, decoded on first fetch, dropped when the word is written) by computed
 * goto, and able to run many cycles of one hart in one call (hart_run_alone).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/rv32.h"

/* INSTRN_BUF_BASE: where a .ttinsn stores its Tensix word (TENSIX.md §1.5). */
#define HART_TTINSN_ADDR 0xFFE40000u

typedef enum {
    EXEC_RETIRED, /* done: pc, instret advanced (or ebreak: halted, pc kept) */
    EXEC_STALLED, /* the tile said MEM_STALL: retry the same instruction next cycle */
    EXEC_STOPPED, /* fault or hang: h->state says which */
} exec_res_t;

static void park_unskip(void *group, uint64_t went_by);

/* ---- reset ---------------------------------------------------------------------------------- */

void hart_reset(hart_t *h) {
    if (h->park.skipped) park_unskip(h->park.group, 1); /* (its group's cycle, this hart's turn in it, went by) */
    /* Keep what the tile wired in (identity, memories, environment); clear the rest. */
    hart_t keep = *h;
    memset(h, 0, sizeof *h);
    h->id = keep.id;
    h->name = keep.name;
    h->l1 = keep.l1;
    h->l1_size = keep.l1_size;
    h->ldm = keep.ldm;
    h->ldm_size = keep.ldm_size;
    h->env = keep.env;
    h->pd = keep.pd;
    h->pd_pages = keep.pd_pages;
    h->peers = keep.peers;
    h->npeers = keep.npeers;
    h->l1_writes = keep.l1_writes;
    h->dev_writes = keep.dev_writes;
    h->parked_turns = keep.parked_turns; /* figures of the run, not of the core */
    h->park_probes = keep.park_probes;
    h->skipped_turns = keep.skipped_turns;

    h->state = HART_RESET;
    h->cfg0 = 0x00020000u; /* CSRs.md: all zero except StMergeTimer = 16 */
}

void hart_start(hart_t *h, uint32_t pc) {
    /* SoftReset.md: leaving reset, the GPRs are zeroed and the core starts at its reset pc. */
    hart_reset(h);
    h->pc = pc;
    h->state = HART_RUNNING;
}

/* ---- helpers for the bodies ---------------------------------------------------------------- */

static inline uint32_t sext8(uint32_t v) { return ((v & 0xffu) ^ 0x80u) - 0x80u; }
static inline uint32_t sext16(uint32_t v) { return ((v & 0xffffu) ^ 0x8000u) - 0x8000u; }
/* Arithmetic shift without relying on the implementation-defined >> of a negative int. */
static inline uint32_t sra32(uint32_t v, uint32_t sh) {
    uint32_t fill = (v & 0x80000000u) ? ~(0xffffffffu >> sh) : 0;
    return (v >> sh) | fill;
}
static inline uint32_t rotl32(uint32_t v, uint32_t sh) { return (v << sh) | (v >> ((32 - sh) & 31)); }
static inline uint32_t rotr32(uint32_t v, uint32_t sh) { return (v >> sh) | (v << ((32 - sh) & 31)); }
/* Bitmanip 0.94 generalised reverse: each set bit k of sh swaps adjacent 2^k-bit blocks. */
static inline uint32_t grev32(uint32_t v, uint32_t sh) {
    if (sh & 1) v = ((v & 0x55555555u) << 1) | ((v >> 1) & 0x55555555u);
    if (sh & 2) v = ((v & 0x33333333u) << 2) | ((v >> 2) & 0x33333333u);
    if (sh & 4) v = ((v & 0x0f0f0f0fu) << 4) | ((v >> 4) & 0x0f0f0f0fu);
    if (sh & 8) v = ((v & 0x00ff00ffu) << 8) | ((v >> 8) & 0x00ff00ffu);
    if (sh & 16) v = (v << 16) | (v >> 16);
    return v;
}
/* Zbb orc.b: every non-zero byte becomes 0xff. */
static inline uint32_t orc_b32(uint32_t v) {
    uint32_t r = 0;
    for (unsigned i = 0; i < 32; i += 8)
        if ((v >> i) & 0xffu) r |= 0xffu << i;
    return r;
}

/* L1 and local RAM are little-endian byte arrays; explicit bytes keep this host-independent,
 * and compilers turn them into single loads/stores. Always inlined: gcc would otherwise call an
 * outlined copy from the fast path's local-RAM branch, which it deems cold (the stack lives
 * there: ~5% of the compute benchmark's instructions). */
static inline __attribute__((always_inline)) uint32_t le_read(const uint8_t *p, unsigned size) {
    switch (size) {
    case 1: return p[0];
    case 2: return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    default: return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
}
static inline __attribute__((always_inline)) void le_write(uint8_t *p, unsigned size, uint32_t v) {
    p[0] = (uint8_t)v;
    if (size >= 2) p[1] = (uint8_t)(v >> 8);
    if (size == 4) {
        p[2] = (uint8_t)(v >> 16);
        p[3] = (uint8_t)(v >> 24);
    }
}

/* ---- stopping the hart ---------------------------------------------------------------------- */

/* The raw word at h->pc, for the fault report (0 if the pc is not fetchable). */
static uint32_t word_at_pc(const hart_t *h) {
    if (h->pc < h->l1_size && h->l1_size - h->pc >= 4 && !(h->pc & 3)) return le_read(h->l1 + h->pc, 4);
    return 0;
}

/* Complete a fault whose kind and msg are already filled (by us, a CSR access, or the tile). */
static exec_res_t stop_fault(hart_t *h, bool has_addr, uint32_t addr) {
    if (h->fault.kind == FAULT_NONE) h->fault.kind = FAULT_ACCESS; /* the tile forgot to say why; still a fault */
    h->fault.pc = h->pc;
    h->fault.insn = word_at_pc(h);
    h->fault.addr = has_addr ? addr : 0;
    h->fault.has_addr = has_addr;
    /* docs/cli.md: a data access's message names its address. Devices say what they refused
     * ("1-byte store to INSTRN_BUF (32-bit only)") by offset or not at all; add it once here. */
    char a[16];
    snprintf(a, sizeof a, "0x%08x", addr);
    size_t n = strlen(h->fault.msg);
    if (has_addr && !strstr(h->fault.msg, a) && n < sizeof h->fault.msg)
        snprintf(h->fault.msg + n, sizeof h->fault.msg - n, " (address %s)", a);
    h->state = HART_FAULTED;
    h->wait = HART_WAIT_NONE;
    return EXEC_STOPPED;
}

static void set_fault(hart_t *h, fault_kind_t kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_fault(hart_t *h, fault_kind_t kind, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    h->fault.kind = kind;
    vsnprintf(h->fault.msg, sizeof h->fault.msg, fmt, ap);
    va_end(ap);
}

/* A load/store/push that did not complete: stall (retry), fault or hang. */
static exec_res_t stop_mem(hart_t *h, mem_res_t r, uint32_t addr) {
    switch (r) {
    case MEM_STALL:
        h->wait = HART_WAIT_MEM;
        h->wait_addr = addr;
        h->stall_cycles++;
        return EXEC_STALLED;
    case MEM_HANG:
        /* As on silicon the core never gets an answer; the tile filled hang_reason. */
        h->state = HART_HUNG;
        h->wait = HART_WAIT_NONE;
        return EXEC_STOPPED;
    case MEM_FAULT:
    default: return stop_fault(h, true, addr);
    }
}

/* Executing an op that Blackhole (or ttemu) does not implement, or no op at all. */
static exec_res_t stop_illegal(hart_t *h, unsigned op) {
    const rv_ext_info_t *ext = &rv_ext_info[rv_op_info[op].ext];
    if (op == RV_OP_ILLEGAL)
        set_fault(h, FAULT_ILLEGAL, "illegal instruction: unknown encoding 0x%08x", word_at_pc(h));
    else if (rv_is_gap(op, word_at_pc(h), (unsigned)h->id))
        set_fault(h, FAULT_UNIMPLEMENTED, "%s (%s) is on Blackhole's %s, but ttemu does not model it yet", ext->name,
                  rv_op_info[op].mnemonic, h->name);
    else if (!ext->implemented)
        set_fault(h, FAULT_ILLEGAL, "illegal instruction: %s (%s) %s", ext->name, rv_op_info[op].mnemonic, ext->why);
    else /* a table entry without a body in rv32_exec.inc: our bug, say so */
        set_fault(h, FAULT_ILLEGAL, "internal: no semantics for %s", rv_op_info[op].mnemonic);
    return stop_fault(h, false, 0);
}

/* TENSIX.md §1.1: instructions are fetched only from L1, 4 bytes at a time (no C). */
static void stop_fetch(hart_t *h, uint32_t pc) {
    if (pc & 3)
        set_fault(h, FAULT_FETCH, "instruction fetch from misaligned pc 0x%08x", pc);
    else
        set_fault(h, FAULT_FETCH, "instruction fetch from 0x%08x, outside L1 (0..0x%x)", pc, h->l1_size - 1);
    stop_fault(h, true, pc);
}

/* ---- memory: the fast path (STYLE.md pattern 3) ------------------------------------------------
 * Two unsigned compares: L1 at 0, then this hart's local RAM at HART_LDM_BASE; only then the tile.
 * Both sizes are multiples of 4 (1.5 MiB, 8/4 KiB), so an aligned access that starts inside a
 * memory ends inside it. Misalignment is checked first: Blackhole leaves it undocumented
 * (TENSIX.md §2.9), so it is a guest fault rather than a guess. */

static mem_res_t misaligned(hart_t *h, const char *what, uint32_t addr, unsigned size) {
    set_fault(h, FAULT_MISALIGNED, "misaligned %s of %u bytes at 0x%08x", what, size, addr);
    return MEM_FAULT;
}

static inline mem_res_t mem_load(hart_t *h, uint32_t addr, unsigned size, uint32_t *val) {
    if (addr & (size - 1)) return misaligned(h, "load", addr, size);
    if (addr < h->l1_size) {
        *val = le_read(h->l1 + addr, size);
        return MEM_OK;
    }
    uint32_t off = addr - HART_LDM_BASE; /* wraps to a huge value below the base */
    if (off < h->ldm_size) {
        *val = le_read(h->ldm + off, size);
        return MEM_OK;
    }
    return env_load(h->env, h, addr, size, val);
}

static inline mem_res_t mem_store(hart_t *h, uint32_t addr, unsigned size, uint32_t val) {
    if (addr & (size - 1)) return misaligned(h, "store", addr, size);
    if (addr < h->l1_size) {
        le_write(h->l1 + addr, size, val);
        hart_pd_invalidate(h, addr, size); /* code may live there: firmware writes kernels */
        if (h->l1_writes) ++*h->l1_writes;
        return MEM_OK;
    }
    uint32_t off = addr - HART_LDM_BASE;
    if (off < h->ldm_size) {
        le_write(h->ldm + off, size, val);
        return MEM_OK;
    }
    return env_store(h->env, h, addr, size, val);
}

/* The word an AMO works on, or NULL (fault filled). TENSIX.md §1.2: Zaamo works only on the
 * tile's own L1 (never MMIO); ttemu also lets it work on the hart's local RAM. */
static uint8_t *amo_target(hart_t *h, uint32_t addr, const char *mnemonic) {
    if (addr & 3) {
        misaligned(h, mnemonic, addr, 4);
        return NULL;
    }
    if (addr < h->l1_size) return h->l1 + addr;
    uint32_t off = addr - HART_LDM_BASE;
    if (off < h->ldm_size) return h->ldm + off;
    set_fault(h, FAULT_AMO, "%s at 0x%08x: AMOs work only on L1 and local data RAM", mnemonic, addr);
    return NULL;
}

/* ---- the vocabulary rv32_exec.inc is written in (its header describes it) ----------------------
 * Shared by both dispatchers. How a body leaves early differs between them, so every early exit
 * goes through LEAVE(stop): `stop` is one of the stop_* calls above, which record the fault, hang
 * or stall in the hart; the reference dispatcher returns its exec_res_t, the fast one ends the
 * cycle. SHARED_LOAD/STORE(addr) and SHARED_CSR() mark the points where a body is about to reach
 * the tile; only the fast dispatcher, when running a hart alone, acts on them (it yields). */
#define RD   h->x[in->rd]
#define RS1  h->x[in->rs1]
#define RS2  h->x[in->rs2]
#define IMM  ((uint32_t)in->imm)
#define SIMM (in->imm)
#define PC   pc
/* pc + imm (the fast path decodes it into its records) */
#define PC_IMM (PC + IMM)
/* rd's number (the fast path's records hold 32 for x0) */
#define RD_NUM in->rd

#define JUMP_CHECK(target)                                                                                             \
    do {                                                                                                               \
        uint32_t t_ = (target);                                                                                        \
        if (t_ & 3) {                                                                                                  \
            /* RISC-V: instruction-address-misaligned is raised by the jump or branch. */                              \
            set_fault(h, FAULT_FETCH, "jump target 0x%08x is not 4-byte aligned", t_);                                 \
            LEAVE(stop_fault(h, true, t_));                                                                            \
        }                                                                                                              \
    } while (0)
#define JUMP(target)                                                                                                   \
    do {                                                                                                               \
        uint32_t tj_ = (target);                                                                                       \
        JUMP_CHECK(tj_);                                                                                               \
        npc = tj_;                                                                                                     \
    } while (0)

#define LOAD(dst, address, size)                                                                                       \
    do {                                                                                                               \
        uint32_t a_ = (address);                                                                                       \
        SHARED_ACCESS(a_, size);                                                                                       \
        mem_res_t r_ = mem_load(h, a_, (size), &(dst));                                                                \
        if (r_ != MEM_OK) LEAVE(stop_mem(h, r_, a_));                                                                  \
    } while (0)

#define STORE(address, size, value)                                                                                    \
    do {                                                                                                               \
        uint32_t a_ = (address);                                                                                       \
        SHARED_ACCESS(a_, size);                                                                                       \
        mem_res_t r_ = mem_store(h, a_, (size), (value));                                                              \
        if (r_ != MEM_OK) LEAVE(stop_mem(h, r_, a_));                                                                  \
    } while (0)

#define TTINSN(w) STORE(HART_TTINSN_ADDR, 4, (w))

/* Zaamo never reaches the tile (amo_target), so it needs no SHARED_ACCESS. */
#define AMO(expr) AMO_RMW(expr)
#define AMO_RMW(expr)                                                                                                  \
    do {                                                                                                               \
        uint32_t a_ = RS1, src = RS2;                                                                                  \
        uint8_t *p_ = amo_target(h, a_, rv_op_info[in->op].mnemonic);                                                  \
        if (!p_) LEAVE(stop_fault(h, true, a_));                                                                       \
        uint32_t old = le_read(p_, 4);                                                                                 \
        le_write(p_, 4, (expr));                                                                                       \
        if (a_ < h->l1_size) {                                                                                         \
            hart_pd_invalidate(h, a_, 4);                                                                              \
            if (h->l1_writes) ++*h->l1_writes;                                                                         \
        }                                                                                                              \
        RD = old;                                                                                                      \
    } while (0)

#define CSR_READ(csr, dst)                                                                                             \
    do {                                                                                                               \
        SHARED_CSR();                                                                                                  \
        if (!hart_csr_read(h, (csr), &(dst))) LEAVE(stop_fault(h, false, 0));                                          \
    } while (0)
#define CSR_WRITE(csr, value)                                                                                          \
    do {                                                                                                               \
        SHARED_CSR();                                                                                                  \
        if (!hart_csr_write(h, (csr), (value))) LEAVE(stop_fault(h, false, 0));                                        \
    } while (0)

#define FAULT(kind, ...)                                                                                               \
    do {                                                                                                               \
        set_fault(h, (kind), __VA_ARGS__);                                                                             \
        LEAVE(stop_fault(h, false, 0));                                                                                \
    } while (0)

/* ebreak retires (instret counts it) but stops the hart with the pc on it. */
#define HALT()                                                                                                         \
    do {                                                                                                               \
        h->instret++;                                                                                                  \
        h->wait = HART_WAIT_NONE;                                                                                      \
        h->state = HART_HALTED;                                                                                        \
        LEAVE(EXEC_RETIRED);                                                                                           \
    } while (0)

/* ---- the reference dispatcher: a switch over one decoded record ------------------------------ */
#define LEAVE(stop)         return (stop)
#define SHARED_ACCESS(a, n) ((void)0)
#define SHARED_CSR()        ((void)0)

/* Execute the record for the instruction at h->pc. The cycle is counted by the caller. */
static inline exec_res_t exec_one(hart_t *h, const insn_t *in) {
    uint32_t pc = h->pc;
    uint32_t npc = pc + 4;

    switch (in->op) {
#define OP(name, ...)                                                                                                  \
    case RV_OP_##name: {                                                                                               \
        __VA_ARGS__                                                                                                    \
    } break;
#include "core/rv32_exec.inc"
#undef OP
    default: return stop_illegal(h, in->op);
    }

    h->x[0] = 0; /* RISC-V: x0 is hardwired to zero; bodies may have written it */
    h->pc = npc;
    h->instret++;
    h->wait = HART_WAIT_NONE;
    return EXEC_RETIRED;
}
#undef LEAVE
#undef SHARED_ACCESS
#undef SHARED_CSR

bool hart_step(hart_t *h) {
    if (h->state != HART_RUNNING) return false;
    h->cycle++; /* every cycle out of reset counts, stalled or not (mcycle) */

    uint32_t pc = h->pc;
    if (pc >= h->l1_size || (pc & 3)) {
        stop_fetch(h, pc);
        return false;
    }

    insn_t in;
    rv_decode(le_read(h->l1 + pc, 4), &in);
    return exec_one(h, &in) == EXEC_RETIRED;
}

/* ---- the fast dispatcher: threaded code over the decode cache ---------------------------------
 * Each body is a label; a record holds where its label is (an offset from `decode`), so one
 * indirect jump enters it and each body ends with its own jump to the next record (rv32emu and
 * libriscv do the same with tail calls; gcc's labels-as-values are the portable-enough C11
 * extension for it).
 *
 * pd_run() runs one hart or a group of them in one of the modes of pd_mode_t below. In PD_ALONE
 * the caller guarantees that nothing else touches the tile meanwhile, so L1 and the local RAM
 * behave as private memory; any access beyond them, and any CSR instruction, depends on the
 * tile's cycle and state, so the hart yields before it (SHARED_*) and the caller runs it in
 * lock-step. PD_PURE yields before those and before any store or AMO too. PD_STEP and PD_GROUP
 * are plain lock-step: everything runs where it is.
 *
 * What a retirement costs is what makes an interpreter fast (~16 host instructions per guest
 * instruction under callgrind, bodies included; a plain ALU op retires in 6: move to the next
 * record, count the cycle, load its offset, add, jump), so the loop keeps its position (the
 * record `in`) and the cycles left in locals, re-zeroes no x0 (x_sink), and settles the hart's
 * counters once, when it leaves:
 *   - h->cycle is charged for all n cycles on entry (so a CSR read in a lock-step cycle sees this
 *     cycle counted, as in hart_step) and refunded for the cycles not run on the way out;
 *   - h->instret, h->pc and h->wait are written on the way out (SYNC), and before anything that
 *     reads them: the stop_* functions (fault pc) and the tile (env_*, lock-step only, where the
 *     pc is the entry pc anyway).
 * pc stays 4-byte aligned inside the loop (it starts aligned, advances by 4, and JUMP faults on a
 * misaligned target), and inside L1 but for the cases JUMP describes.
 *
 * Must stay one out-of-line function: the records of the shared cache hold label offsets of
 * this very function, and gcc gives a label a different address in each inlined copy or clone. */
#undef RD
#undef RS1
#undef RS2
#undef LOAD
#undef STORE
/* A record's rd is 32 for x0 (decode): the write lands in x_sink, just past x[], and x0 stays 0
 * without re-zeroing it after every instruction. Addressed from the hart (not past the end of
 * x[], which C does not allow). */
#undef RD_NUM
#define RD     (*(uint32_t *)((char *)h + offsetof(hart_t, x) + (uintptr_t)in->rd * sizeof(uint32_t)))
#define RD_NUM (in->rd & 31u)
#define RS1    h->x[in->rs1]
#define RS2    h->x[in->rs2]
/* Inside the bodies the pc is where `in` points: the record of pc is pd[pc >> 2], 16 bytes, so
 * pc = (in - pd) * 4 in bytes. Moving on is one add to `in` at retirement (no pc to keep in
 * step); only the bodies that read the pc (auipc, jumps, branches) compute it. */
#undef PC
#define PC      ((uint32_t)(((uintptr_t)in - (uintptr_t)PD) / (sizeof *in / 4)))
#define AT_PC() (pc = PC) /* the pc variable, for the cold paths, from `in` */
/* Decoded with the record (hart_pd_t.pc_imm): a branch or jal need not compute its pc. */
#undef PC_IMM
#define PC_IMM ((uint32_t)in->pc_imm)
/* JUMP is a body's last statement (rv32_exec.inc), so it retires the body itself: on to the
 * target's record and its own dispatch (a taken branch is predicted apart from a fall-through).
 * A jump out of L1 leaves the body for far_jump: then every record a retirement reaches is inside
 * L1 or the one just past its end, which is never decoded and sends the fetch to `decode`, which
 * checks. No bound check per instruction. */
#undef JUMP
#define JUMP(target)                                                                                                   \
    do {                                                                                                               \
        uint32_t tj_ = (target);                                                                                       \
        JUMP_CHECK(tj_);                                                                                               \
        if (__builtin_expect(tj_ >= L1_SIZE, 0)) {                                                                     \
            far_pc = tj_;                                                                                              \
            goto far_jump;                                                                                             \
        }                                                                                                              \
        in = (const hart_pd_t *)((const char *)PD + (uintptr_t)tj_ * (sizeof *in / 4));                                \
        if (__builtin_expect(!--left, 0)) goto retired;                                                                \
        goto *(&&decode + in->handler);                                                                                \
    } while (0)

/* Write the loop's locals back into the hart: `ran` of its `steps` cycles finished (all retired). */
#define SYNC(ran)                                                                                                      \
    do {                                                                                                               \
        h->pc = pc;                                                                                                    \
        h->instret += (ran);                                                                                           \
        h->cycle -= steps - (ran);                                                                                     \
        if (ran) h->wait = HART_WAIT_NONE;                                                                             \
    } while (0)
/* The instruction at `in` does not retire: it ends the hart's turn, its cycle counted. */
#define LEAVE(stop)                                                                                                    \
    do {                                                                                                               \
        AT_PC();                                                                                                       \
        LEAVE_AT(stop);                                                                                                \
    } while (0)
/* The same for the instruction at pc (a fetch that fails: `in` may not point at it). */
#define LEAVE_AT(stop)                                                                                                 \
    do {                                                                                                               \
        if (mode == PD_GROUP) { /* one instruction per turn: h->pc is pc, its cycle is counted */                      \
            (void)(stop);                                                                                              \
            g->changed |= h->state != HART_RUNNING;                                                                    \
            goto next_hart;                                                                                            \
        }                                                                                                              \
        SYNC(steps - left);                                                                                            \
        h->cycle++;                                                                                                    \
        (void)(stop);                                                                                                  \
        return steps - left + 1;                                                                                       \
    } while (0)
/* An aligned access beyond L1 and the local RAM (the misaligned ones fault in mem_load/store). */
#define SHARED_ACCESS(a, n_)                                                                                           \
    do {                                                                                                               \
        if ((mode == PD_ALONE || mode == PD_PURE) && !((a) & ((n_)-1))) goto yield;                                    \
    } while (0)
#define SHARED_CSR()                                                                                                   \
    do {                                                                                                               \
        if (mode == PD_ALONE || mode == PD_PURE) goto yield;                                                           \
    } while (0)
/* PD_PURE: a write to memory is not pure */
#undef AMO
#define AMO(expr)                                                                                                      \
    do {                                                                                                               \
        if (mode == PD_PURE) goto yield;                                                                               \
        AMO_RMW(expr);                                                                                                 \
    } while (0)

/* STYLE.md pattern 3 inline: L1, then the local RAM, then (SHARED_ACCESS) the tile through
 * mem_load/mem_store, which also raise the misaligned faults. */
#define LOAD(dst, address, size)                                                                                       \
    do {                                                                                                               \
        uint32_t a_ = (address);                                                                                       \
        if (__builtin_expect(!(a_ & ((size)-1)) && a_ < L1_SIZE, 1)) {                                                 \
            (dst) = le_read(L1 + a_, (size));                                                                          \
        } else if (!(a_ & ((size)-1)) && a_ - HART_LDM_BASE < h->ldm_size) {                                           \
            (dst) = le_read(h->ldm + (a_ - HART_LDM_BASE), (size));                                                    \
        } else {                                                                                                       \
            SHARED_ACCESS(a_, size);                                                                                   \
            mem_res_t r_ = mem_load(h, a_, (size), &(dst));                                                            \
            if (r_ != MEM_OK) LEAVE(stop_mem(h, r_, a_));                                                              \
        }                                                                                                              \
    } while (0)

#define STORE(address, size, value)                                                                                    \
    do {                                                                                                               \
        /* A lone hart's stores are not counted (hart_t.l1_writes), and read the value only after                      \
         * the test: so laid out, its store runs as fast as without the count (measured). */                           \
        uint32_t a_ = (address);                                                                                       \
        if (__builtin_expect(mode != PD_ALONE, 0)) {                                                                   \
            if (mode == PD_PURE) goto yield;                                                                           \
            /* counted before it is known to reach L1 (a misaligned one faults): a count only ever moves on */         \
            *h->l1_writes += a_ < L1_SIZE;                                                                             \
        }                                                                                                              \
        uint32_t v_ = (value);                                                                                         \
        if (__builtin_expect(!(a_ & ((size)-1)) && a_ < L1_SIZE, 1)) {                                                 \
            le_write(L1 + a_, (size), v_);                                                                             \
            /* aligned and at most 4 bytes: one word, whose record (if any) is now stale */                            \
            if (PD[a_ >> 2].handler) {                                                                                 \
                PD[a_ >> 2].handler = 0;                                                                               \
                hart_pd_dropped(h);                                                                                    \
            }                                                                                                          \
        } else if (!(a_ & ((size)-1)) && a_ - HART_LDM_BASE < h->ldm_size) {                                           \
            le_write(h->ldm + (a_ - HART_LDM_BASE), (size), v_);                                                       \
        } else {                                                                                                       \
            SHARED_ACCESS(a_, size);                                                                                   \
            /* a `sw` of a Tensix instruction: a .ttinsn's push (env_ttinsn), without the device map */                \
            mem_res_t r_ =                                                                                             \
                (size) == 4 && a_ == HART_TTINSN_ADDR ? env_ttinsn(h->env, h, v_) : mem_store(h, a_, (size), v_);      \
            if (r_ != MEM_OK) LEAVE(stop_mem(h, r_, a_));                                                              \
        }                                                                                                              \
    } while (0)

/* A .ttinsn goes straight to the tile's push (env_ttinsn: what env_store does with a store to
 * INSTRN_BUF, without the address's way through mem_store and the device map). */
#undef TTINSN
#define TTINSN(w)                                                                                                      \
    do {                                                                                                               \
        if (mode == PD_ALONE || mode == PD_PURE) goto yield;                                                           \
        mem_res_t r_ = env_ttinsn(h->env, h, (w));                                                                     \
        if (r_ != MEM_OK) LEAVE(stop_mem(h, r_, HART_TTINSN_ADDR));                                                    \
    } while (0)

enum { PD_STOPPED = 1, PD_SKIP = 2, PD_RETRY = 4 }; /* pd_group_t.changed */
typedef enum {
    /* (0: STORE's test for it is one instruction) */
    PD_ALONE,  /* up to n cycles of one hart that nothing else observes (hart_run_alone) */
    PD_STEP,   /* one lock-step cycle of one hart (hart_step_fast) */
    PD_GROUP,  /* up to n lock-step cycles of a group of harts (hart_run_lockstep) */
    PD_PURE,   /* one lock-step cycle of one hart, if its instruction is pure (hart_step_pure) */
    PD_DECODE, /* no cycle: the record of the word at L1 address n made (park_mark) */
} pd_mode_t;

/* PD_GROUP's state, kept in memory on purpose: every value live across the bodies that gcc must
 * keep in a callee-saved register pushes a hot one (pc, the cycles left) onto the stack. */
typedef struct {
    hart_t *hs, *hend; /* the group */
    /* Cycles asked for, and those not finished yet (the call's cycles so far are n - left): a
     * cycle's end counts down, with no load of n. */
    uint64_t n, left;
    uint8_t changed;     /* PD_STOPPED: a hart of the group stopped in this cycle; PD_SKIP, PD_RETRY: park_skip */
    hart_t *first;       /* the first hart visited in a cycle (those before it skipped) */
    const uint64_t *gen; /* hs->dev_writes (or gen_none) */
    uint64_t gen_seen, gen_none;
    bool park; /* its harts may park (a call long enough to pay for the probes) */
    bool ran;  /* a hart ran in this cycle (its turn not only counted) */
    /* asleep asked again once left is at most ask_left (0: not in this call), and the next wait */
    uint64_t ask_left, ask_wait;
    bool (*end_cycle)(void *ctx);
    uint64_t (*asleep)(void *ctx, uint64_t m);
    void *ctx;
} pd_group_t;
static void park_skip(pd_group_t *g);

/* Runs hart h (PD_STEP, PD_ALONE: n cycles) or the group g (PD_GROUP). In a group each hart's
 * turn is one cycle run like PD_STEP; after the last hart, g->end_cycle(ctx) finishes the tile's
 * cycle. */
/* gcc's cross-jumping would merge the bodies' identical dispatch tails back into one shared
 * indirect jump (measured: 2 left of 90), which is what threaded code avoids.
 * Every place reached only by a jump (each body, entered by its dispatch; the cold paths) starts
 * a 64-byte line: padding that never runs (it follows a jump). Without it a body sat wherever the
 * code before it ended, so any change to pd_run (group-only lines included) or to the register
 * gcc picked for `in` moved every later body across the host's lines and fetch blocks; the
 * compute workload's time moved by 1-5% with its instructions unchanged (bench/README.md "The
 * compute workload's drift"). Aligned, each body's bytes keep their place within its line
 * whatever comes before it. */
#if defined(__GNUC__) && !defined(__clang__)
#define PD_LAYOUT __attribute__((optimize("no-crossjumping", "align-jumps=64")))
#else
#define PD_LAYOUT
#endif
#define PARK_MIN_CALL    16   /* lock-step calls shorter than this do not park */
#define PARK_BACKOFF_MIN 32   /* cycles */
#define PARK_BACKOFF_MAX 4096 /* cycles */
static bool park_try(hart_t *h);
static inline bool park_holds(const hart_t *h);

/* A blocked hart is running and its stalled instruction is still at pc (the word there is the one
 * that stalled, block_word) with its record, so its retry would stall again; noted in
 * block_known for the next turns. The record is not enough by itself: once the word was written
 * (the record dropped), another hart may have decoded the new word before this turn (a later core
 * in the cycle of the write, an earlier one in the next). And the word is not enough by itself:
 * with no record there, a later write would drop none and tell no hart. Only when block_known is
 * clear: it is cleared by every dropped record (hart_pd_dropped), so while it is set no record was
 * dropped since it was set, and the record at pc was decoded then or when the instruction ran and
 * stalled (later: pc moves only by running, within a group call; hart_run_lockstep clears
 * block_known on its way out, for whatever moves it between calls; a debugger's register write
 * drops the mark itself, debug/gdb_target.c gt_reg_write). The hart is still running too: it
 * stops only in a turn that runs it (a reset clears blocked and block_known), and the group call
 * ends with that cycle. A blocked hart that stopped keeps its mark until the tile's next look at
 * it (tile_blocks_check). */
/* Out of line and cold: it runs once after a record was dropped, and inlined, its store made gcc
 * load the state into a register on every running hart's turn (one more instruction a turn). */
static __attribute__((noinline, cold)) bool block_holds(hart_t *h) {
    if (h->state != HART_RUNNING || !h->pd[h->pc >> 2].handler || memcmp(h->l1 + h->pc, &h->block_word, 4)) {
        /* The mark was for the stalled instruction, which is gone (or its record is: then the
         * turn decodes it again): the hart runs what is there, and the instructions after it, as
         * every other way of running it does (a stall marks it again; the tile drops its bit of
         * blocked_mask when it next looks). */
        h->blocked = false;
        return false;
    }
    h->block_known = true;
    return true;
}

static __attribute__((noinline, noclone)) PD_LAYOUT uint64_t pd_run(hart_t *h, const uint64_t n, const pd_mode_t mode,
                                                                    pd_group_t *const g) {
    /* Body of each op, as its label's offset from `decode` (hart_pd_t.handler); ops without a body
     * (extensions Blackhole lacks) stay 0 and get op_unimplemented when decoded. Constant: the
     * only table here, built by the compiler. */
    static const int32_t bodies[RV_OP_COUNT] = {
#define OP(name, ...) [RV_OP_##name] = &&op_##name - &&decode,
#include "core/rv32_exec.inc"
#undef OP
    };
    /* The same for every hart of a group (one tile), but read through h (one memory operand
     * each) rather than kept in locals, for the same reason as pd_group_t. */
#define PD      h->pd
#define L1      h->l1
#define L1_SIZE h->l1_size
    uintptr_t pc;
    uint32_t far_pc;                         /* a jump's target outside L1 */
    hart_t *const hend = g ? g->hend : NULL; /* PD_GROUP: past the last hart */
    uint64_t steps = 0, left = 0;            /* this hart's cycles in this call, and those not yet finished */
    const hart_pd_t *in;

    if (mode == PD_GROUP) {
        h = g->hs;
        goto turn;
    }
    if (mode == PD_DECODE) {
        pc = (uint32_t)n;
        goto decode_pc;
    }
    steps = left = n;
    pc = h->pc;
    h->blocked = false; /* only a group turn acts on it; here the access is retried */
    h->cycle += steps;  /* every cycle out of reset counts, stalled or not (mcycle); refunded by SYNC */
    if (__builtin_expect(pc & 3, 0)) goto fetch_fault;

fetch: /* pc may be anywhere */
    if (__builtin_expect(pc >= L1_SIZE, 0)) goto fetch_fault;
fetch_l1: /* pc is in L1, or just past its end (see JUMP) */
    /* &PD[pc >> 2] in one scaled add: pc is aligned (see above) and a record is 16 bytes */
    in = (const hart_pd_t *)((const char *)PD + (uintptr_t)pc * (sizeof *in / 4));
dispatch:
    goto *(&&decode + in->handler); /* 0: not decoded yet */

/* Every body that retires dispatches the next record itself: its own indirect jump, which the
 * host predicts per body (threaded code) rather than from one shared jump. Only PD_ALONE has
 * more than one step (a group's turn is one, left = 1); only LEAVE stops it early. */
#define OP(name, ...)                                                                                                  \
    op_##name : {__VA_ARGS__} in++;                                                                                    \
    if (__builtin_expect(!--left, 0)) goto retired;                                                                    \
    goto *(&&decode + in->handler);
#include "core/rv32_exec.inc"
#undef OP

retired: /* the last step retired */
    AT_PC();
    if (mode == PD_GROUP) { /* SYNC(1) */
        h->pc = (uint32_t)pc;
        h->instret++;
        h->wait = HART_WAIT_NONE;
        goto next_hart;
    }
    SYNC(steps);
    return steps;

far_jump: /* a jump out of L1 retired; the next fetch (through `fetch`, which checks) faults */
    pc = far_pc;
    if (mode == PD_GROUP) {
        h->pc = far_pc;
        h->instret++;
        h->wait = HART_WAIT_NONE;
        goto next_hart;
    }
    if (--left) goto fetch;
    SYNC(steps);
    return steps;

decode : {
    AT_PC();
decode_pc:
    if (pc >= L1_SIZE) goto fetch_fault; /* the record past L1's end (see JUMP) */
    insn_t d;
    rv_decode(le_read(L1 + pc, 4), &d);
    hart_pd_t *rec = &PD[pc >> 2];
    rec->op = (uint8_t)d.op, rec->rd = d.rd ? d.rd : 32, rec->rs1 = d.rs1, rec->rs2 = d.rs2, rec->imm = d.imm;
    rec->pc_imm = (uint32_t)pc + (uint32_t)d.imm;
    rec->handler = bodies[d.op] ? bodies[d.op] : (int32_t)(&&op_unimplemented - &&decode);
    if (h->pd_pages) h->pd_pages[pc >> 12] = 1;
    if (mode == PD_DECODE) return 0;
    goto dispatch;
}

op_unimplemented:
    LEAVE(stop_illegal(h, in->op));

fetch_fault:
    LEAVE_AT(stop_fetch(h, pc));

yield: /* the instruction reaches the tile: not started, its cycle not counted */
    AT_PC();
    SYNC(steps - left);
    return steps - left;

next_hart: /* PD_GROUP: the next running hart's turn, or the end of the cycle */
    h++;
turn:
    /* The state is looked at when the turn comes, as tile_cycle does: a hart started by an
     * earlier hart's store in this cycle runs in it. */
    for (; h != hend; h++) {
        if (h->asleep) {     /* parked or blocked (one test for both, hart_t.asleep) */
            if (h->parked) { /* running (only a reset stops it, and that unparks it): its loop's step,
                              * counted (park_holds: mcycle too), or settled and run */
                if (__builtin_expect(park_holds(h), 1)) { /* (laid out to fall through: measured) */
                    h->park.turns++;
                    continue;
                }
                hart_park_settle(h);
                h->park.woke = true; /* woken by its word: park_try learns how long it stays awake */
                h->park.woke_at = h->cycle;
                /* Its first probe a quarter of its last awake span on (at once, as settling left
                 * it, while none is learned): a hart woken by its word has almost always left its
                 * loop (a probe at the wake failed 3,995 times in 4,005 on the whole add1 program). */
                if (h->park.awake) {
                    h->park.try_at = h->cycle + h->park.awake;
                    h->park.backoff = PARK_BACKOFF_MIN / 2; /* (a failure then waits PARK_BACKOFF_MIN) */
                }
            } else if (h->block_known || block_holds(h)) {
                /* The stalled access would stall again: its retry, without running it (unless its
                 * code word was written meanwhile, which dropped its record: then it runs). */
                h->cycle++;
                h->stall_cycles++;
                continue;
            }
        }
        if (h->state != HART_RUNNING) continue;
        h->cycle++;
        g->ran = true;
        if (__builtin_expect(h->cycle >= h->park.try_at, 0) && g->park && park_try(h)) {
            if (h->park.counted) g->changed |= PD_RETRY; /* it may be skipped from the next cycle on */
            goto next_hart;                              /* parked: this turn is its loop's first step */
        }
        pc = h->pc;
        left = 1; /* one step per turn (steps is not used in a group) */
        if (__builtin_expect((pc & 3) || pc >= L1_SIZE, 0)) goto fetch_fault;
        goto fetch_l1;
    }
    /* Counted first: a call that stops early (end_cycle said so, or a hart stopped) ran this cycle. */
    bool stop = g->end_cycle(g->ctx);
    if (__builtin_expect(g->changed, 0)) {
        if (g->changed & PD_STOPPED)
            stop = true;
        else if ((g->changed & PD_RETRY) || *g->gen != g->gen_seen)
            park_skip(g);
    }
    if (!--g->left || stop) return g->n - g->left;
    if (__builtin_expect(!g->ran, 0) && g->left <= g->ask_left) {
        /* Every hart's turn only counted, so the next cycles' turns would count again (nothing
         * they look at changes while no hart runs and the tile's ends change nothing but its
         * clock, which asleep has proven for k of them and run): counted here, all at once. */
        uint64_t k = g->asleep(g->ctx, g->left);
        if (k) {
            for (h = g->first; h != hend; h++) { /* (the skipped harts' turns come from the cycles) */
                if (h->parked) {
                    h->park.turns += k;
                } else if (h->blocked) {
                    h->cycle += k;
                    h->stall_cycles += k;
                }
            }
            if (!(g->left -= k)) return g->n;
            g->ask_wait = 1;
        } else { /* not now: asked again 1, 2, 4 ... 64 cycles on, of any kind */
            g->ask_left = g->left > g->ask_wait ? g->left - g->ask_wait : 0;
            if (g->ask_wait < 64) g->ask_wait *= 2;
        }
    }
    g->ran = false;
    h = g->first;
    goto turn;
}
#undef PD
#undef L1
#undef L1_SIZE
#undef PC
#undef PC_IMM
#undef JUMP
#undef JUMP_CHECK
#undef LEAVE
#undef LEAVE_AT
#undef AT_PC
#undef SYNC
#undef SHARED_ACCESS
#undef SHARED_CSR
#undef AMO
#undef AMO_RMW
#undef TTINSN

bool hart_step_fast(hart_t *h) {
    if (h->state != HART_RUNNING) return false;
    uint64_t before = h->instret;
    pd_run(h, 1, PD_STEP, NULL);
    return h->instret != before;
}

uint64_t hart_run_alone(hart_t *h, uint64_t n) {
    if (h->state != HART_RUNNING || n == 0) return 0;
    return pd_run(h, n, PD_ALONE, NULL);
}

bool hart_step_pure(hart_t *h) {
    if (h->state != HART_RUNNING) return false;
    return pd_run(h, 1, PD_PURE, NULL) == 1;
}

uint64_t hart_run_lockstep(hart_t *hs, unsigned nh, uint64_t n, bool (*end_cycle)(void *ctx),
                           uint64_t (*asleep)(void *ctx, uint64_t m), void *ctx) {
    if (n == 0 || nh == 0) return 0;
    pd_group_t g = {.hs = hs,
                    .hend = hs + nh,
                    .first = hs,
                    .n = n,
                    .left = n,
                    .ask_left = asleep ? n : 0,
                    .end_cycle = end_cycle,
                    .asleep = asleep,
                    .ctx = ctx,
                    .park = n >= PARK_MIN_CALL,
                    .ask_wait = 1};
    g.gen = hs->dev_writes ? hs->dev_writes : &g.gen_none;
    uint64_t ran = pd_run(hs, n, PD_GROUP, &g);
    park_unskip(&g, 0); /* the call's last cycle went by */
    for (unsigned i = 0; i < nh; i++) {
        hart_park_settle(&hs[i]);  /* nothing outside the call sees a parked hart */
        hs[i].block_known = false; /* block_holds: its pc may be set before the next call */
    }
    return ran;
}

/* ---- parked harts ---------------------------------------------------------------------------
 * While kernels run, BRISC and NCRISC (and a TRISC waiting for its tiles or on a semaphore) poll a
 * mailbox, a stream register or a semaphore in every cycle, so no cycle has every hart blocked.
 * Such a hart runs a loop of pure instructions (hart_step_pure: registers and pc only) over words
 * nobody writes meanwhile: its state after k more cycles is a function of its state now and k, as
 * long as the words it reads keep their values (the idle fast-forward's proof, tile/spin.c, for one hart while the
 * others run). A group turn therefore probes a hart (park_try: up to HART_PARK_STEPS steps on a
 * copy, now, with memory as the hart would see it in this turn) and, when the copy comes back to
 * the hart's state (pc, x1..x31) after `period` steps, parks it: the turn is counted as the
 * loop's first step and every later turn checks only that the word read (L1, the local RAM, a
 * device's storage, a semaphore's Value: env_pure_word) holds the same value, and counts the
 * step. A dropped decoded record (its code may have changed) points the watch of every parked
 * hart sharing the cache at a word that differs (park.poison, hart_pd_dropped), so the same one
 * compare also fails once a record was dropped since parking. A device read
 * that leaves a note (a NoC counter's poll record, for the stall diagnosis) is replayed when
 * settling, with the cycle of the last turn that read it (env_park_read; a turn is one tile
 * cycle, and turns are consecutive). The check sees every writer (a hart earlier in the cycle,
 * the coprocessor, the NoC, the host) at exactly the turn the hart would have read the new value;
 * it then settles (hart_park_settle) and runs that turn. Settling is exact: each probe step's
 * register write and pc are kept (hart_park_t), so k turns are the first k % period of them
 * applied to the parked state, and instret and mcycle + k (every turn retired one instruction in
 * one cycle). hart_run_lockstep settles its harts before returning. A failed probe postpones the
 * next (park.backoff doubles, at most PARK_BACKOFF_MAX cycles); after a wake the first probe waits
 * until a quarter of the hart's last awake span has passed (park.awake; at once before one is
 * learned). */

static inline bool park_holds(const hart_t *h) {
    const hart_park_t *pk = &h->park;
    uint32_t v;
    memcpy(&v, pk->watch, 4);
    return v == pk->watch_val; /* (a dropped record made watch point at poison) */
}

void hart_pd_dropped(hart_t *h) {
    for (hart_t *p = h->peers, *end = p + h->npeers; p != end; p++) {
        if (p->parked) {
            p->park.poison = ~p->park.watch_val;
            p->park.watch = &p->park.poison;
            if (p->park.skipped) ((pd_group_t *)p->park.group)->changed |= PD_RETRY; /* visited again */
        }
        p->block_known = false;
    }
}

void hart_park_settle(hart_t *h) {
    if (!h->parked) return;
    if (h->park.skipped)
        park_unskip(h->park.group, 1); /* (from a later hart's turn or the cycle's end: this one's went by) */
    hart_park_t *pk = &h->park;
    h->parked = false;
    pk->try_at = h->cycle + pk->turns; /* it may park again at once */
    if (!pk->turns) return;
    unsigned r = (unsigned)(pk->turns % pk->period);
    for (unsigned i = 0; i < r; i++)
        if (pk->step_rd[i]) h->x[pk->step_rd[i]] = pk->step_val[i];
    if (r) h->pc = pk->step_pc[r - 1];
    if (pk->noted && pk->turns > pk->note_step) { /* the last turn that read the word, at its cycle */
        uint64_t last = pk->note_step + (pk->turns - 1 - pk->note_step) / pk->period * pk->period;
        env_park_read(h->env, h, pk->note_addr, pk->note_at + last);
    }
    h->instret += pk->turns;
    h->cycle += pk->turns;
    h->parked_turns += pk->turns;
    h->wait = HART_WAIT_NONE;
    pk->turns = 0;
}

/* A load's width, by op; 0 for every other op. */
static const uint8_t load_bytes[RV_OP_COUNT] = {
    [RV_OP_lb] = 1, [RV_OP_lbu] = 1, [RV_OP_lh] = 2, [RV_OP_lhu] = 2, [RV_OP_lw] = 4};

/* The copy c holds h's registers after n probe steps, whose register writes were to rd[0..n-1]
 * (0: none): a step of a pure instruction writes no register but its rd (x0's write goes to
 * x_sink), so c.x can differ from h->x only there. */
static inline bool same_regs(const hart_t *c, const hart_t *h, const uint8_t *rd, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        if (c->x[rd[i]] != h->x[rd[i]]) return false;
    return true;
}

/* A hart parked on an L1 word may be skipped too (pk->counted): its word gets a decoded record
 * (made here, PD_DECODE, unless it has one), so that a write to it drops the record (every write
 * into L1 drops those of the words it writes: hart_pd_invalidate, pd_run's STORE) and tells the
 * parked harts (hart_pd_dropped: each watch poisoned, a skipping group's next cycle end told,
 * PD_RETRY), as a counted device write is told by dev_writes. Every hart's L1 word is marked so
 * (the group skips only those at the front of its order, BRISC's and NCRISC's mailbox polls while
 * the TRISCs compute); a write to a marked word wakes every parked hart of the tile (each settles
 * exactly and may park again at once), as a dropped record of code does. */
static void park_mark(hart_t *h, uint32_t a) {
    if (!h->pd[a >> 2].handler) pd_run(h, a, PD_DECODE, NULL);
    h->park.counted = true;
}

/* Probe h's loop on a copy (see above); on success h is parked, this turn counted. */
static bool park_try(hart_t *h) {
    hart_park_t *pk = &h->park;
    if (!h->peers) return false; /* (a dropped record would not reach it) */
    h->park_probes++;
    /* The copy needs what a pure step reads and writes, all of it before park (hart.h keeps it so);
     * not park's step arrays, the fault text or the hang reason (~620 of the ~960 bytes). A fault
     * on the copy fills its fault (stop_fault reads only fault.kind first). */
    hart_t c;
    _Static_assert(offsetof(hart_t, peers) < offsetof(hart_t, park) && offsetof(hart_t, env) < offsetof(hart_t, park) &&
                       offsetof(hart_t, pd_pages) < offsetof(hart_t, park) &&
                       offsetof(hart_t, stall_cycles) < offsetof(hart_t, park),
                   "a pure step's state (registers, counters, memories, decode cache) lies before park");
    memcpy(&c, h, offsetof(hart_t, park));
    c.fault.kind = FAULT_NONE;
    unsigned nw = 0;
    uint32_t l1_at = UINT32_MAX; /* the watched word's L1 address, if it is in L1 */
    bool noted = false;
    uint64_t noted_at = UINT64_MAX;
    for (unsigned i = 0; i < HART_PARK_STEPS; i++) {
        uint32_t pc = c.pc;
        if ((pc & 3) || pc >= c.l1_size) break;
        /* From its decoded record: a store over a word with a record drops it and tells the
         * parked harts (hart_pd_dropped), which unparks this one; a word without one would not,
         * so a loop with such a word is not parked (after a turn of pd_run the loop's words all
         * have records). */
        const hart_pd_t *rec = &c.pd[pc >> 2];
        if (!rec->handler) break;
        insn_t d = {.op = rec->op, .rd = rec->rd & 31u, .rs1 = rec->rs1, .rs2 = rec->rs2, .imm = rec->imm};
        const void *w = NULL;
        bool device = false, counted = false;
        unsigned size = load_bytes[d.op];
        if (size) {
            uint32_t a = c.x[d.rs1] + (uint32_t)d.imm;
            if (a & (size - 1)) break;
            if (a < c.l1_size)
                w = c.l1 + (l1_at = a & ~3u);
            else if (a - HART_LDM_BASE < c.ldm_size)
                w = c.ldm + ((a - HART_LDM_BASE) & ~3u);
            else if (d.op == RV_OP_lw && (w = env_pure_word(c.env, h, a, &noted_at, &counted)))
                device = true;
            else
                break;
            if (nw && pk->watch != w) break; /* one word at most: the check stays one compare */
            pk->watch = w;
            pk->counted = counted;
            nw = 1;
            if (noted_at != UINT64_MAX) { /* the read leaves a note: replayed when settled */
                if (noted) break;         /* read twice per loop: not kept */
                noted = true;
                pk->note_addr = a;
                pk->note_at = noted_at;
                pk->note_step = (uint8_t)i;
            }
        }
        uint64_t before = c.instret;
        if (device) { /* the word's value is what the load returns: lw's body without the access */
            uint32_t v;
            memcpy(&v, w, 4);
            c.x[d.rd] = v;
            c.x[0] = 0;
            c.pc += 4;
            c.instret++;
        } else if (!hart_step_pure(&c)) {
            break;
        }
        if (c.state != HART_RUNNING || c.instret != before + 1) break;
        pk->step_pc[i] = c.pc;
        pk->step_rd[i] = d.rd;
        pk->step_val[i] = c.x[d.rd];
        if (c.pc == h->pc && same_regs(&c, h, pk->step_rd, i + 1)) { /* back where it started */
            if (!nw)
                pk->watch = &pk->watch_val, pk->counted = true; /* reads nothing: a word that stays */
            else if (l1_at != UINT32_MAX)
                park_mark(h, l1_at);
            memcpy(&pk->watch_val, pk->watch, 4);
            pk->period = i + 1;
            pk->noted = noted;
            pk->turns = 1;
            h->cycle--; /* this turn's cycle, counted with the turns (hart_park_settle) */
            pk->backoff = 0;
            if (pk->woke) pk->awake = (h->cycle - pk->woke_at) / 4;
            pk->woke = false;
            h->parked = true;
            return true;
        }
    }
    /* Each failure doubles the wait (the first after a wake came a quarter of the hart's last awake
     * span after it: pd_run's turn). */
    pk->backoff = pk->backoff ? pk->backoff * 2 : PARK_BACKOFF_MIN;
    if (pk->backoff > PARK_BACKOFF_MAX) pk->backoff = PARK_BACKOFF_MAX;
    pk->try_at = h->cycle + pk->backoff;
    return false;
}

/* ---- skipped harts ---------------------------------------------------------------------------
 * A parked hart whose watched word changes only with a write the tile counts (hart_t.dev_writes:
 * the NIUs' counters, the stream registers, the semaphores a TRISC polls), or only with a write that drops a decoded
 * record (an L1 word, park_mark), or whose loop reads no word, need not be visited while that count stays and no record
 * is dropped: its turns only count. The group skips a run of such harts at the front of its order (hs .. first - 1):
 * every hart that runs in a cycle comes after them, so whatever it writes reaches a skipped hart's turn of the next
 * cycle at the earliest, as does whatever the tile's end of the cycle writes. So at each cycle's end
 * (pd_group_t.changed: PD_SKIP while any is skipped) the group compares the count with the one seen when it skipped
 * them; once it moved (or a hart may join: PD_RETRY, a hart parked on such a word, a record dropped) park_skip counts
 * the skipped harts' turns (park_unskip) and skips again those at the front whose word holds now, as their turns in the
 * next cycle would find it (nothing runs before them). A skipped hart's turns are the cycles from skip_from on;
 * whatever settles it (its group's end, a PC snapshot read, a reset: both from a later hart's turn or from the cycle's
 * end, a NoC read of this tile's PIC or a host write made in end_cycle) counts them first, for every skipped hart. */

/* The skipped harts' turns counted: those of the cycles before the group's next one (and, with
 * went_by 1, of the group's cycle under way); none skipped after it. */
static void park_unskip(void *group, uint64_t went_by) {
    pd_group_t *g = group;
    uint64_t now = g->n - g->left + went_by;
    for (hart_t *h = g->hs; h != g->first; h++) {
        h->park.turns += now - h->park.skip_from;
        h->skipped_turns += now - h->park.skip_from;
        h->park.skipped = false;
    }
    g->first = g->hs;
    g->changed &= (uint8_t) ~(PD_SKIP | PD_RETRY);
}

/* At a cycle's end (not yet counted in g->left): the skipped harts counted, and those at the front
 * whose word holds skipped from the next cycle on. */
static __attribute__((noinline, cold)) void park_skip(pd_group_t *g) {
    if (!(g->changed & PD_RETRY)) {
        /* Only the count moved (a NoC counter, a stream register, a semaphore: often another
         * word than the skipped harts'): if every skipped hart's word holds, the same harts are
         * skipped on, counted from the same cycles, as the way below would find them. No other
         * hart can join: the one at first is not parked on a counted word that holds (else it
         * would have joined at the last look, or it parked since, which sets PD_RETRY: a hart
         * whose word moved settles in its next turn, the first of its cycle). */
        hart_t *h = g->hs;
        while (h != g->first && park_holds(h))
            h++;
        if (h == g->first) {
            g->gen_seen = *g->gen;
            return;
        }
    }
    park_unskip(g, 1);
    uint64_t next = g->n - g->left + 1;
    hart_t *h = g->hs;
    for (; h != g->hend && h->parked && h->park.counted && park_holds(h); h++) {
        h->park.skipped = true;
        h->park.skip_from = next;
        h->park.group = g;
    }
    g->first = h;
    g->gen_seen = *g->gen;
    if (h != g->hs) g->changed |= PD_SKIP;
}
