/* core/hart.h — one Blackhole "baby" RISC-V hart (RV32IM + Zicsr + Zaamo + Zba + Zbb + pack/brev8).
 *
 * The hart knows nothing of Tensix or of the tile's devices. It owns its registers and CSRs, it
 * reaches L1 and its own local data RAM directly (the fast path), and everything else through the
 * environment functions declared at the bottom, which mmio/ implements.
 *
 * Decode is table-driven (core/rv32_ops.def): a code word is decoded into an insn_t record and
 * the record is executed. hart_step() decodes every time (the reference path); the fast path
 * (hart_step_fast, hart_run_alone, hart_run_lockstep) runs records of the L1 decode cache
 * (hart_pd_t), with the same instruction bodies (rv32_exec.inc).
 */
#ifndef TTEMU_CORE_HART_H
#define TTEMU_CORE_HART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Result of one memory access through the environment. */
typedef enum {
    MEM_OK = 0, /* done */
    MEM_STALL,  /* not done this cycle (full FIFO, tensix_sync): the instruction retries next cycle */
    MEM_FAULT,  /* guest fault: the environment filled hart->fault.msg */
    MEM_HANG,   /* the core hangs forever (as silicon does); the environment filled hart->hang_reason */
} mem_res_t;

typedef enum {
    HART_RESET = 0, /* held in soft reset (never started, or put back) */
    HART_RUNNING,
    HART_HALTED,  /* executed ebreak */
    HART_HUNG,    /* an access that hangs the core on silicon; see hang_reason */
    HART_FAULTED, /* stopped on a guest fault; see fault */
} hart_state_t;

/* Why the last step did not retire (for reports and stall diagnosis). */
typedef enum {
    HART_WAIT_NONE = 0,
    HART_WAIT_MEM, /* MEM_STALL from the environment: see wait_addr */
} hart_wait_t;

typedef enum {
    FAULT_NONE = 0,
    FAULT_ILLEGAL,    /* illegal or unimplemented instruction */
    FAULT_ECALL,      /* ecall */
    FAULT_FETCH,      /* instruction fetch outside L1 or misaligned pc */
    FAULT_UNMAPPED,   /* load/store to an address no device claims */
    FAULT_ACCESS,     /* a device refused the access (width, direction, core) */
    FAULT_MISALIGNED, /* misaligned load/store */
    FAULT_AMO,        /* AMO outside L1 and local RAM */
    FAULT_CSR,        /* unknown CSR, or write to a read-only CSR */
    /* Not the guest's fault: Blackhole has it (on this core), ttemu does not model it yet. The run
     * ends with exit 6 `unimplemented` rather than 3 (docs/cli.md). */
    FAULT_UNIMPLEMENTED,
} fault_kind_t;

typedef struct {
    fault_kind_t kind;
    uint32_t pc;
    uint32_t insn; /* raw instruction word */
    uint32_t addr; /* data address, when has_addr */
    bool has_addr;
    char msg[200]; /* one line, no core name or pc (the report adds them) */
} hart_fault_t;

/* Local data RAM sizes (TENSIX.md §1.1: BRISC/NCRISC 8 KiB, TRISCs 4 KiB). */
#define HART_LDM_BASE 0xFFB00000u

/* A parked hart (core/exec.c "Parked harts"): while the word its loop reads (watch, by value)
 * and every decoded record stay as they were, its state after k more turns is its state
 * at parking (pc and x, left in the hart) with the first k % period steps' register writes
 * (step_rd/step_val) applied, pc at step_pc[k % period - 1], and instret and mcycle + k (neither
 * moves while parked). */
#define HART_PARK_STEPS 16 /* the longest loop a hart parks on */
typedef struct {
    /* The one word its loop reads: L1, local RAM or device storage; or, once a decoded record was
     * dropped since parking (its loop's code may have changed), poison, which differs from
     * watch_val (hart_pd_dropped): either way its next turn compares one word. */
    const void *watch;
    uint32_t watch_val, poison;
    unsigned period;
    uint64_t turns;           /* turns counted since parking */
    uint64_t try_at, backoff; /* no probe before h->cycle reaches try_at */
    /* Learned from its last wake (core/exec.c park_try): woke_at, the cycle a turn found the
     * watched word changed, while `woke` (until the hart parks again); awake, a quarter of the
     * cycles from that wake to parking again: the next wake's first probe waits that long. */
    uint64_t woke_at, awake;
    bool woke;
    bool noted;         /* the loop's read leaves a note (env_pure_word) ... */
    uint8_t note_step;  /* ... in this step of it, */
    uint32_t note_addr; /* from this address; */
    uint64_t note_at;   /* the tile's cycle at parking */
    uint32_t step_pc[HART_PARK_STEPS];
    uint32_t step_val[HART_PARK_STEPS];
    uint8_t step_rd[HART_PARK_STEPS]; /* 0: the step wrote no register */
    /* The watched word changes only with a write the tile counts in dev_writes (a device's
     * storage: env_pure_word's *counted) or, an L1 word given a decoded record, with a write that
     * drops it (core/exec.c park_mark), or the loop reads no word: the hart may be skipped
     * (core/exec.c "skipped harts"). */
    bool counted;
    /* Skipped by the group call `group` from its cycle skip_from on: its turns are not visited,
     * they are counted from the group's cycles when it is visited again or settled. */
    bool skipped;
    uint64_t skip_from;
    void *group;
} hart_park_t;

typedef struct hart {
    uint32_t x[32];
    uint32_t x_sink; /* core/exec.c pd_run: where writes to x0 go, so that x0 stays 0 */
    uint32_t pc;
    hart_state_t state;
    int id;           /* index in the tile: 0 BRISC, 1 NCRISC, 2..4 TRISC0..2 */
    const char *name; /* "BRISC", ... */

    uint64_t instret; /* instructions retired */
    uint64_t cycle;   /* cycles this hart has been out of reset (mcycle) */

    /* CSRs the hart owns (CSRs.md). */
    uint32_t cfg0;           /* 0x7C0, reset 0x00020000 */
    uint32_t csr_scratch[6]; /* 0x7C1..0x7C6: pmacfg0/1, cfg1, hwa_mask, hwa_cfg, vgsrc */
    uint32_t mcountinhibit, mhpmevent[2];
    uint64_t mhpmcounter[2];
    uint32_t fcsr;          /* 0x003: storage only (frm[7:5], fflags[4:0]); F itself faults */
    uint32_t tt_sstatus[8]; /* 0xBC2..0xBC9 sstatus0-7: scratch (CSRs.md) */

    /* Memories reached without a call. */
    uint8_t *l1; /* shared L1, l1_size bytes at address 0 */
    uint32_t l1_size;
    uint8_t *ldm; /* this hart's local data RAM at HART_LDM_BASE */
    uint32_t ldm_size;

    void *env;          /* passed to env_* (the tile) */
    struct hart_pd *pd; /* decode cache of L1, one record per word and one more (zeroed: a pc
                         * that runs off L1's end finds it), shared by the tile's harts;
                         * NULL: no cache (hart_step, the reference path, needs none) */
    uint8_t *pd_pages;  /* one byte per 4 KiB page of L1, shared like pd: set once a record in the
                         * page is decoded, so a large write elsewhere need not look at its
                         * records (env_l1_written); NULL: not kept */

    hart_wait_t wait; /* why the last step did not retire */
    uint32_t wait_addr;
    uint64_t stall_cycles; /* cycles spent not retiring because of MEM_STALL */
    /* Set by the tile: the access that stalled (wait_addr) would stall again if retried now, and
     * only the tile's end of cycle can change that (it clears this then; so do block_holds and a
     * debugger's register write, for a changed instruction or pc). A lock-step group turn
     * (hart_run_lockstep) counts the stalled cycle without re-executing the access, unless the
     * stalled instruction's code word was written meanwhile: then it clears it and runs the new
     * one, as every other way of running the hart does (the retry gives the same result). */
    /* The two marks of a hart whose group turns only count, side by side so that a turn tests
     * both at once (asleep: non-zero when either is set). */
    union {
        struct {
            bool blocked;
            /* Parked (hart_run_lockstep): the hart provably spins on a loop of pure instructions,
             * so its group turns only count (hart_park_t); settled by hart_park_settle. */
            bool parked;
        };
        uint16_t asleep;
    };
    /* A group turn found the stalled instruction at pc, its record decoded, while blocked, and no
     * record was dropped since (hart_pd_dropped clears it): its code is unchanged (no lookup). */
    bool block_known;
    /* The stalled instruction's code word, its bytes as L1 holds them (copied and compared with
     * memcpy/memcmp, so on any host's byte order), noted with the mark (tile_block): a record at pc
     * says only that the word there was decoded, perhaps a new one that another hart ran
     * (block_holds). */
    uint32_t block_word;
    /* The harts sharing pd (this one among them), npeers of them, told of every dropped record
     * (hart_pd_dropped): set with pd; NULL only without pd. */
    struct hart *peers;
    unsigned npeers;
    /* Bumped by every store or AMO of the hart into L1 (the tile's count of L1 writes, which
     * env_l1_written bumps for every other writer; tile_watch_changed), except the fast
     * dispatcher's stores while it runs the hart alone (hart_run_alone: never while the tile
     * watches L1). Set by the tile; NULL without one. */
    uint64_t *l1_writes;
    /* Bumped by every write of the device storage whose words env_pure_word reports counted
     * (the NIUs' counters, the stream registers, the semaphores). Set by the tile; NULL without one. */
    uint64_t *dev_writes;
    /* Everything a hart's step reads or writes but its fault comes before park: a probe copies
     * the hart only up to it (core/exec.c park_try). */
    hart_park_t park;
    uint64_t parked_turns;  /* turns counted while parked, over the whole run (TTEMU_STATS) */
    uint64_t park_probes;   /* probes of its loop (park_try), over the whole run (TTEMU_STATS) */
    uint64_t skipped_turns; /* turns its group did not visit (core/exec.c "skipped harts"); of parked_turns
                             * but for those of a hart reset while skipped, which parked_turns never got */

    hart_fault_t fault;
    char hang_reason[160];
} hart_t;

/* Set registers/CSRs to their reset values; state becomes HART_RESET. l1/ldm/env/pd are kept. */
void hart_reset(hart_t *h);
/* Leave reset at pc. */
void hart_start(hart_t *h, uint32_t pc);
/* Execute (at most) one instruction. Returns true if it retired. Only for HART_RUNNING.
 * The reference path: fetch, rv_decode and execute, every time. */
bool hart_step(hart_t *h);
/* The same cycle as hart_step, through the decode cache h->pd (which must be set): each word is
 * decoded once into a hart_pd_t record and its body entered by computed goto. Observably the
 * same as hart_step (test/sh/t_fastpath.sh runs every workload both ways). */
bool hart_step_fast(hart_t *h);
/* Up to n cycles of this hart alone, as n calls of hart_step_fast would run them, for when no
 * other agent can observe or change what it touches (the tile's harts are stopped and the
 * coprocessor idle: tile/sched.c tile_run). It stops early, at a cycle boundary:
 *   - before an access that is not to L1 or its own local RAM, and before any CSR instruction
 *     (those reach the tile, whose state depends on the tile cycle): that instruction has not
 *     started and h->cycle does not count it; the caller runs it in lock-step;
 *   - after the cycle in which the hart left HART_RUNNING (ebreak, fault).
 * Returns the cycles run (each one retired an instruction, but the last when the hart stopped). */
uint64_t hart_run_alone(hart_t *h, uint64_t n);
/* One hart_step_fast cycle, but only if the instruction is pure: it reads at most L1 and the
 * hart's local RAM and writes only registers (no store, AMO, MMIO, CSR or Tensix push), so that
 * a hart looping on pure instructions over unchanging memory repeats itself exactly (the tile's
 * idle fast-forward, tile/spin.c). Otherwise nothing happens (the cycle is not counted) and it
 * returns false. It also returns true for a pure instruction that stopped the hart (a fault,
 * ebreak): the caller looks at the state. */
bool hart_step_pure(hart_t *h);
/* Up to n lock-step cycles of the harts hs[0..nh-1] (the tile's five, in core order), in one
 * call: each cycle gives every hart that is HART_RUNNING when its turn comes one hart_step_fast
 * cycle, in array order, then calls end_cycle(ctx) for the rest of the tile's cycle (the
 * coprocessor, the clock). Exactly n tile_cycle-like cycles, so any access may be made, MMIO and
 * CSRs included. Stops after a cycle in which a hart of the group left HART_RUNNING or after
 * which end_cycle returned true. Returns the cycles run. The harts share one L1 and decode cache.
 * asleep (may be NULL): after a cycle in which no hart ran (each was parked or blocked, its turn
 * only counted, or not running) and which did not stop the call, asleep(ctx, m) says how many of
 * the next cycles (at most m) would be the same again, their ends included, and has finished
 * them on its side (the clock); the group then counts those turns in one go. After a 0 it is
 * asked again only once 1, 2, 4 ... 64 more cycles of the call have passed, of any kind (after a
 * step, at the next such cycle). */
uint64_t hart_run_lockstep(hart_t *hs, unsigned nh, uint64_t n, bool (*end_cycle)(void *ctx),
                           uint64_t (*asleep)(void *ctx, uint64_t m), void *ctx);
/* A parked hart's state brought up to date (pc, x, instret as its counted turns left them) and
 * the hart unparked; nothing for a hart not parked. hart_run_lockstep settles its harts before
 * it returns; whatever reads a hart's state in the meantime (another hart's MMIO access) must
 * settle it first. */
void hart_park_settle(hart_t *h);

/* RV_OP_* op numbers, one per entry of core/rv32_ops.def, in table order. */
#include "core/rv32_ops.def"
#define RV_OP_ENUM_ENTRY(a, name, mnem, ext, match, mask, fmt) RV_OP_##name,
typedef enum { RV32_OPS(RV_OP_ENUM_ENTRY, _) RV_OP_COUNT, RV_OP_ILLEGAL = RV_OP_illegal } rv_op_t;
#undef RV_OP_ENUM_ENTRY

/* Decoded instruction record (core/decode.c). */
typedef struct {
    uint16_t op; /* index into the rv32 op table (RV_OP_*), RV_OP_ILLEGAL if none */
    uint8_t rd, rs1, rs2;
    int32_t imm; /* sign-extended immediate, shamt, csr number, or the Tensix word for .ttinsn */
} insn_t;

void rv_decode(uint32_t word, insn_t *out);

/* Pre-decoded record (STYLE.md pattern 4): an insn_t plus where its body is in the fast
 * dispatcher (core/exec.c hart_step_fast). One per L1 word, index addr >> 2; a zeroed record
 * (handler 0) is "not decoded yet", so the array is calloc'd and only the pages of code that
 * runs are ever touched. 16 bytes on a 64-bit host: 393,216 records cover the 1.5 MiB L1. */
typedef struct hart_pd {
    /* Where the op's body is: its label's offset from the dispatcher's `decode` label, so that
     * 0 (a zeroed record) is "decode the word on the next fetch" and dispatching needs no test. */
    int32_t handler;
    int32_t imm;
    uint8_t op, rd, rs1, rs2; /* op: RV_OP_* (fits: RV_OP_COUNT <= 256) */
    uint32_t pc_imm;          /* the word's pc + imm: a branch's, jal's or auipc's target */
} hart_pd_t;
_Static_assert(sizeof(hart_pd_t) == 16, "decode-cache records stay small (RSS); pd_run scales pc by 4");
_Static_assert(offsetof(hart_t, x_sink) == offsetof(hart_t, x) + 32 * sizeof(uint32_t), "pd_run: rd 32 is x_sink");
_Static_assert(RV_OP_COUNT <= 256, "hart_pd_t.op is a byte");

/* A decoded record of h's cache was dropped: every hart sharing it that is parked or blocked
 * looks at its code again at its next turn (the parked one's watch becomes park.poison, the
 * blocked one's block_known is cleared). Out of line: code is rarely written. */
void hart_pd_dropped(struct hart *h);
/* Drop the records of the words that [addr, addr+size) overlaps (addr + size <= L1 size) in the
 * cache h shares (h: any of its harts). Every write into L1 must come here: a hart's own stores
 * and AMOs do it directly, everything else (host, loader, coprocessor) through env_l1_written. A
 * record is only written when it holds something, so stores to data never touch (or allocate)
 * the cache's pages. */
static inline void hart_pd_invalidate(struct hart *h, uint32_t addr, uint32_t size) {
    hart_pd_t *pd = h->pd;
    if (!pd || !size) return;
    bool dropped = false;
    for (uint32_t w = addr >> 2, end = (addr + size - 1) >> 2; w <= end; w++)
        if (pd[w].handler) {
            pd[w].handler = 0;
            dropped = true;
        }
    if (dropped) hart_pd_dropped(h); /* a parked or blocked hart's code may have changed */
}
const char *rv_mnemonic(unsigned op);
/* Disassemble one word into buf (for reports and traces). */
void rv_disasm(uint32_t word, uint32_t pc, char *buf, size_t len);

/* ---- environment: implemented by the tile (mmio/bus.c) ---------------------------------------
 * Accesses that miss the L1 and local-RAM fast paths. size is 1, 2 or 4; addr is aligned.
 * On MEM_FAULT the environment fills h->fault.kind and h->fault.msg; the hart fills pc/insn. */
mem_res_t env_load(void *env, hart_t *h, uint32_t addr, unsigned size, uint32_t *val);
mem_res_t env_store(void *env, hart_t *h, uint32_t addr, unsigned size, uint32_t val);
/* Exactly env_store(env, h, 0xFFE40000, 4, word): a .ttinsn's push (the fast dispatcher's way). */
mem_res_t env_ttinsn(void *env, hart_t *h, uint32_t word);
/* A write into L1 by anything but a hart's own store or AMO (host, loader, coprocessor
 * STOREREG): the tile drops the decoded records it overlaps (hart_pd_invalidate). The harts
 * invalidate their own stores directly, without a call. */
void env_l1_written(void *env, uint32_t addr, unsigned size);
/* CSRs the tile provides (tt_cfg_qstatus 0xBC0, tt_cfg_bstatus 0xBC1, 0xBC2..0xBC9).
 * Returns false if the tile does not provide this CSR. */
bool env_csr_read(void *env, hart_t *h, unsigned csr, uint32_t *val);
/* Where the value of an aligned 4-byte load by h from addr (beyond L1 and the local RAM) is kept,
 * if that load returns exactly that word (a device's storage, a semaphore's Value) and changes
 * nothing but, maybe, a note of the read; NULL otherwise. A hart may park on such a word (a parked
 * hart compares it every turn, so it may change in any way). If the read leaves a note,
 * *noted_at is set to the tile's cycle now, and the hart must report its last such read
 * (env_park_read) when it settles. *counted says whether every write of the word's storage bumps
 * the tile's count (hart_t.dev_writes), so that a parked hart on it may be skipped. */
const uint32_t *env_pure_word(void *env, hart_t *h, uint32_t addr, uint64_t *noted_at, bool *counted);
/* A parked hart's last load from addr (env_pure_word: one that leaves a note) was at tile cycle
 * `cycle`: the note it would have left. */
void env_park_read(void *env, hart_t *h, uint32_t addr, uint64_t cycle);

#endif
