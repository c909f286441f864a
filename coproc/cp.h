/* coproc/cp.h — the Tensix coprocessor of one tile, the model's API: three thread frontends
 * (FIFO → MOP expander → replay expander → Wait Gate), the Sync Unit, the backend units' timing,
 * their architectural state and the datapath seam (docs/coprocessor.md,
 * docs/coprocessor-backend.md).
 *
 * It knows nothing of RISC-V. The tile feeds it instruction words (cp_push), steps it once per
 * cycle (cp_cycle), and forwards the RISC-V-visible windows (semaphores, GPRs, MOP config, config
 * space, TTSync) to the functions below. STOREREG/LOADREG reach the tile's MMIO through cp_env_t.
 * What explains a run reads it through coproc/cp_views.h only.
 */
#ifndef TTEMU_COPROC_CP_H
#define TTEMU_COPROC_CP_H

#include <stdbool.h>
#include <stdint.h>

#include "coproc/cp_views.h"

/* What the coprocessor needs from the tile. The MMIO functions return false on an address no
 * device accepts. l1/l1_size/l1_written are the datapath's direct view of L1 (coproc/datapath.h):
 * after writing L1 it reports the bytes with l1_written, so the tile drops the decoded code and
 * the idle fast-forward's proof over them. Any of them may be NULL (a unit test's coprocessor). */
typedef struct {
    void *ctx;
    bool (*mmio_load)(void *ctx, uint32_t addr, uint32_t *val);
    bool (*mmio_store)(void *ctx, uint32_t addr, uint32_t val);
    uint8_t *l1;
    uint32_t l1_size;
    void (*l1_written)(void *ctx, uint32_t addr, uint32_t len);
} cp_env_t;

cp_t *cp_create(const cp_env_t *env);
void cp_destroy(cp_t *cp);
/* Put back to power-on state (semaphores, mutexes, FIFOs, gates, GPRs, config). The gate policy
 * is the model's setting, not the hardware's state: a reset keeps it. */
void cp_reset(cp_t *cp);
/* How latched waits hold their thread from now on (cp_gate_policy_t, coproc/cp_views.h; default
 * CP_GATE_EXACT). A wait latched before keeps the mask it latched with. */
void cp_set_gate_policy(cp_t *cp, cp_gate_policy_t p);

/* The reference path (TTEMU_REFERENCE=1): no shortcuts, every cycle of every thread stepped and
 * counted on its own, the timing model's plain forms (tm_set_reference) and the datapath datum by
 * datum (dp_set_reference), to compare the shortcuts against (test/sh/t_fastpath.sh). A reset
 * keeps it. */
void cp_set_stepwise(cp_t *cp, bool on);
/* Every change of a semaphore (SEMINIT, SEMPOST, SEMGET, a RISC-V write, a reset) bumps *count
 * from now on (the tile's: a TRISC parked on a semaphore, hart_t.dev_writes); NULL: none. */
void cp_count_sem_moves(cp_t *cp, uint64_t *count);
/* The error the coprocessor records (cp_fault) bumps *count from now on (the tile's end of a cycle
 * asks cp_failed only after a bump: tile_t.l1_writes); NULL: none. */
void cp_count_errors(cp_t *cp, uint64_t *count);

/* Push one instruction word into thread t. after_mop: BRISC's path, which enters after the MOP
 * expander. Returns false when the FIFO is full: the pushing core retries next cycle. */
bool cp_push(cp_t *cp, unsigned t, uint32_t word, bool after_mop);
/* cp_push, naming the pushing core and the pc of its push (kept for stall statistics). */
bool cp_push_from(cp_t *cp, unsigned t, uint32_t word, bool after_mop, cp_origin_t origin);
/* cp_push_from(t, word, false, {pc, core}): a TRISC's push, the commonest, without the choice of
 * FIFO. The origin comes as its two fields: a caller's cp_origin_t is built in memory, padding
 * kept, before it is passed in a register (~6 host instructions a push in the fast dispatcher). */
bool cp_push_trisc(cp_t *cp, unsigned t, uint32_t word, uint32_t pc, int core);

/* A push found the FIFOs of bits (cp_cycle's CP_CYCLE_FREED, shifted down) full: their frees so
 * far are forgotten, so that a cycle's status names them only after a cycle that freed them
 * since. */
void cp_fifo_seen_full(cp_t *cp, uint32_t bits);

/* The threads of mask (bit t: thread t) that cp_thread_idle calls idle, in one call: for a caller
 * that waits for some of them after every cycle. */
unsigned cp_idle_threads(const cp_t *cp, unsigned mask);

/* Advance one cycle (frontends, gates, backend occupancy). Returns what cp_is_idle and
 * cp_error != NULL would say after it (CP_CYCLE_IDLE, CP_CYCLE_FAILED), for a caller that asks
 * every cycle; after a cycle that stepped the FIFOs, the FIFOs that had fewer words at the end of
 * a cycle than at its start (bit t: thread t's FIFO#1, bit 3 + t: its FIFO#2; all of them after a
 * reset; only those can have been full and not be any more) shifted by CP_CYCLE_FREED_SHIFT
 * (within CP_CYCLE_FREED; without any, the cycle freed no FIFO), each kept until a push finds its
 * FIFO full (cp_fifo_seen_full); and CP_CYCLE_QUIET when the cycles after it are a quiet
 * stretch's (cp_quiet_left). The FIFOs' bits are the status's lowest (a shift of 0: a full cycle's
 * status is cp_t.fifo_freed as it is, and the caller's shift down is none), the other marks above
 * the eight bits a caller may keep the FIFOs' bits in (tile_t.block_wake, a byte): a caller's
 * byte of FIFO bits ANDed with the status shifted down finds no mark. */
enum {
    CP_CYCLE_FREED_SHIFT = 0,
    CP_CYCLE_FREED = ((1u << 2 * CP_THREADS) - 1) << CP_CYCLE_FREED_SHIFT,
    CP_CYCLE_IDLE = 1u << 8,
    CP_CYCLE_FAILED = 1u << 9,
    CP_CYCLE_QUIET = 1u << 11
};
_Static_assert(((CP_CYCLE_IDLE | CP_CYCLE_FAILED | CP_CYCLE_QUIET) & 0xFFu) == 0 && (CP_CYCLE_FREED & ~0xFFu) == 0,
               "the marks above a byte of FIFO bits");
unsigned cp_cycle(cp_t *cp);
/* cp_cycle for a caller whose coprocessor is never on the reference path (cp_set_stepwise): the
 * tile's fast path. It does not ask. */
unsigned cp_cycle_fast(cp_t *cp);
/* cp_cycle_fast for a caller whose coprocessor is seldom idle or quiet (the tile's end of a cycle
 * it does not owe): the full cycle's body within the function, for the caller to take in whole
 * (one frame for both). Its status may leave CP_CYCLE_FAILED out: the caller asks cp_failed. */
unsigned cp_cycle_busy(cp_t *cp);
/* cp_error != NULL: the coprocessor failed (an error since the reset), without the message. */
bool cp_failed(const cp_t *cp);
/* n cycles at once, whatever they are (idle, quiet or full); exactly what n cp_cycle calls would
 * do. Cheap when idle, and over the cycles of a quiet stretch. */
void cp_advance_idle(cp_t *cp, uint64_t n);
/* cp_advance_idle up to the coprocessor's cycle `cycle` (>= cp_cycles): for a caller whose clock
 * counts the same cycles and that owes the difference. Returns the cycles run. */
uint64_t cp_advance_to(cp_t *cp, uint64_t cycle);
/* How many of the next cycles are a quiet stretch's (0 outside one; never on the reference path):
 * each only counts the held instructions' cycles, reads nothing outside the coprocessor and
 * changes nothing anyone else reads (no FIFO frees, no thread goes idle, no semaphore moves), as
 * long as nothing reaches the coprocessor meanwhile (a push, a store, a register write by the
 * NoC). A caller may then run them later, at once, before the next such access (cp_advance_idle),
 * as it may an idle coprocessor's cycles. */
uint64_t cp_quiet_left(const cp_t *cp);
/* The cycles cp_cycle ran as a quiet stretch's (counted, not stepped) so far: a figure of the
 * fast path for TTEMU_STATS, not of the tile (0 on the reference path). */
uint64_t cp_quiet_cycles(const cp_t *cp);

/* Semaphore window (SyncUnit.md; cp_sem_read in coproc/cp_views.h): a write with bit0 set gets
 * (floor 0), with bit0 clear posts (saturates at 15, never at Max). t is the writing TRISC's
 * thread. */
void cp_sem_write(cp_t *cp, unsigned t, unsigned i, uint32_t val);
/* The word holding semaphore i's Value (i < CP_NUM_SEMS), always what cp_sem_read(i) says: a hart
 * whose loop polls the semaphore parks on it (core/exec.c "Parked harts"). */
const uint32_t *cp_sem_word(const cp_t *cp, unsigned i);

/* Per-thread Tensix GPRs (ScalarUnit.md), the same registers the TRISC sees at 0xFFE00000. */
uint32_t cp_gpr_read(const cp_t *cp, unsigned t, unsigned i);
void cp_gpr_write(cp_t *cp, unsigned t, unsigned i, uint32_t val);

/* TRISC t stored to GPRs or TDMA-RISC registers: a RISC-V request in flight (condition C10,
 * STALLWAIT.md TRISC_CFG). cp_cfg_write notes config stores itself. */
void cp_note_riscv_write(cp_t *cp, unsigned t);

/* MOP config words (MOPExpander.md), written by TRISC t at 0xFFB80000 + 4*idx, idx 0..8. */
void cp_mopcfg_write(cp_t *cp, unsigned t, unsigned idx, uint32_t val);

/* Backend configuration space as RISC-V sees it at 0xFFEF0000 (BackendConfiguration.md).
 * byte_off is the offset from 0xFFEF0000, 4-byte aligned. from_thread is the writing TRISC's
 * thread (0..2), or -1 for BRISC; it feeds condition C10 (TRISC_CFG). Returns false for an
 * offset that RISC-V may not access that way (ThreadConfig writes, beyond the space). */
bool cp_cfg_read(const cp_t *cp, uint32_t byte_off, uint32_t *val);
bool cp_cfg_write(cp_t *cp, int from_thread, uint32_t byte_off, uint32_t val);

/* tt_cfg_qstatus / tt_cfg_bstatus CSRs (CSRs.md) as TRISC t (or BRISC/NCRISC: t = -1) reads them. */
uint32_t cp_qstatus(const cp_t *cp, int t);
uint32_t cp_bstatus(const cp_t *cp, int t);

/* Forget the issue log (cp_issue_log): a test's fresh start. */
void cp_issue_log_clear(cp_t *cp);

#endif
