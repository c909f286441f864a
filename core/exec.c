/* core/exec.c — reset, fetch, the memory fast path, and the dispatcher over core/rv32_exec.inc.
 *
 * One hart_step() is one cycle: it fetches from L1, decodes (core/decode.c) and executes. An
 * instruction either retires (pc and instret advance), stalls on back-pressure from the tile
 * (MEM_STALL: nothing changes, it runs again next cycle), or stops the hart (fault, ebreak, hang).
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

/* ---- reset ---------------------------------------------------------------------------------- */

void hart_reset(hart_t *h) {
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
 * and compilers turn them into single loads/stores. */
static inline uint32_t le_read(const uint8_t *p, unsigned size) {
    switch (size) {
    case 1: return p[0];
    case 2: return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    default: return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
}
static inline void le_write(uint8_t *p, unsigned size, uint32_t v) {
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
static exec_res_t stop_illegal(hart_t *h, const insn_t *in) {
    const rv_ext_info_t *ext = &rv_ext_info[rv_op_info[in->op].ext];
    if (in->op == RV_OP_ILLEGAL)
        set_fault(h, FAULT_ILLEGAL, "illegal instruction: unknown encoding 0x%08x", word_at_pc(h));
    else if (!ext->implemented)
        set_fault(h, FAULT_ILLEGAL, "illegal instruction: %s (%s) %s", ext->name, rv_op_info[in->op].mnemonic,
                  ext->why);
    else /* a table entry without a body in rv32_exec.inc: our bug, say so */
        set_fault(h, FAULT_ILLEGAL, "internal: no semantics for %s", rv_op_info[in->op].mnemonic);
    return stop_fault(h, false, 0);
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
        env_l1_written(h->env, addr, size); /* code may live there (pre-decode invalidation) */
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

/* ---- the dispatcher ---------------------------------------------------------------------------
 * The vocabulary rv32_exec.inc is written in (its header describes it). */
#define RD   h->x[in->rd]
#define RS1  h->x[in->rs1]
#define RS2  h->x[in->rs2]
#define IMM  ((uint32_t)in->imm)
#define SIMM (in->imm)
#define PC   pc

#define JUMP(target)                                                                                                   \
    do {                                                                                                               \
        uint32_t t_ = (target);                                                                                        \
        if (t_ & 3) {                                                                                                  \
            /* RISC-V: instruction-address-misaligned is raised by the jump or branch. */                              \
            set_fault(h, FAULT_FETCH, "jump target 0x%08x is not 4-byte aligned", t_);                                 \
            return stop_fault(h, true, t_);                                                                            \
        }                                                                                                              \
        npc = t_;                                                                                                      \
    } while (0)

#define LOAD(dst, address, size)                                                                                       \
    do {                                                                                                               \
        uint32_t a_ = (address);                                                                                       \
        mem_res_t r_ = mem_load(h, a_, (size), &(dst));                                                                \
        if (r_ != MEM_OK) return stop_mem(h, r_, a_);                                                                  \
    } while (0)

#define STORE(address, size, value)                                                                                    \
    do {                                                                                                               \
        uint32_t a_ = (address);                                                                                       \
        mem_res_t r_ = mem_store(h, a_, (size), (value));                                                              \
        if (r_ != MEM_OK) return stop_mem(h, r_, a_);                                                                  \
    } while (0)

#define AMO(expr)                                                                                                      \
    do {                                                                                                               \
        uint32_t a_ = RS1, src = RS2;                                                                                  \
        uint8_t *p_ = amo_target(h, a_, rv_op_info[in->op].mnemonic);                                                  \
        if (!p_) return stop_fault(h, true, a_);                                                                       \
        uint32_t old = le_read(p_, 4);                                                                                 \
        le_write(p_, 4, (expr));                                                                                       \
        if (a_ < h->l1_size) env_l1_written(h->env, a_, 4);                                                            \
        RD = old;                                                                                                      \
    } while (0)

#define CSR_READ(csr, dst)                                                                                             \
    do {                                                                                                               \
        if (!hart_csr_read(h, (csr), &(dst))) return stop_fault(h, false, 0);                                          \
    } while (0)
#define CSR_WRITE(csr, value)                                                                                          \
    do {                                                                                                               \
        if (!hart_csr_write(h, (csr), (value))) return stop_fault(h, false, 0);                                        \
    } while (0)

#define FAULT(kind, ...)                                                                                               \
    do {                                                                                                               \
        set_fault(h, (kind), __VA_ARGS__);                                                                             \
        return stop_fault(h, false, 0);                                                                                \
    } while (0)

#define HALT()                                                                                                         \
    do {                                                                                                               \
        h->instret++;                                                                                                  \
        h->wait = HART_WAIT_NONE;                                                                                      \
        h->state = HART_HALTED;                                                                                        \
        return EXEC_RETIRED;                                                                                           \
    } while (0)

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
    default: return stop_illegal(h, in);
    }

    h->x[0] = 0; /* RISC-V: x0 is hardwired to zero; bodies may have written it */
    h->pc = npc;
    h->instret++;
    h->wait = HART_WAIT_NONE;
    return EXEC_RETIRED;
}

bool hart_exec(hart_t *h, const insn_t *in) {
    if (h->state != HART_RUNNING) return false;
    h->cycle++;
    return exec_one(h, in) == EXEC_RETIRED;
}

bool hart_step(hart_t *h) {
    if (h->state != HART_RUNNING) return false;
    h->cycle++; /* every cycle out of reset counts, stalled or not (mcycle) */

    /* TENSIX.md §1.1: instructions are fetched only from L1, 4 bytes at a time (no C). */
    uint32_t pc = h->pc;
    if (pc >= h->l1_size || (pc & 3)) {
        if (pc & 3)
            set_fault(h, FAULT_FETCH, "instruction fetch from misaligned pc 0x%08x", pc);
        else
            set_fault(h, FAULT_FETCH, "instruction fetch from 0x%08x, outside L1 (0..0x%x)", pc, h->l1_size - 1);
        stop_fault(h, true, pc);
        return false;
    }

    insn_t in;
    rv_decode(le_read(h->l1 + pc, 4), &in);
    return exec_one(h, &in) == EXEC_RETIRED;
}
