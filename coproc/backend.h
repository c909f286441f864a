/* coproc/backend.h — the backend units (Unpackers 0/1, Matrix unit, Packers, SFPU, ThCon, Config
 * unit, Mover, Miscellaneous) as the frontends and Wait Gates see them: admission, dispatch,
 * per-thread occupancy, and the sources of STALLWAIT conditions C0..C12.
 *
 * The Sync Unit (semaphores, mutexes, latched waits) is not here: it lives with the gates
 * (coproc/sync.c). Functional model: an instruction occupies its unit for a latency taken from
 * the ISA docs (docs/coprocessor-backend.md lists them), per issuing thread; no numerics yet.
 */
#ifndef TTEMU_COPROC_BACKEND_H
#define TTEMU_COPROC_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "coproc/cp.h"
#include "coproc/tt_ops.h"

typedef struct be be_t;

be_t *be_create(const cp_env_t *env);
void be_destroy(be_t *be);
void be_reset(be_t *be);

/* Unit-specific admission at the gate (beyond block masks and mutexes): may thread t's
 * instruction enter its unit this cycle? E.g. false while a ThCon instruction of thread t is
 * executing (nothing of t passes then), while the Config unit pipeline refuses entry, while the
 * SrcA/SrcB bank an FPU op or unpack needs is not owned by that side. */
bool be_can_accept(const be_t *be, unsigned t, const tt_op_t *op, uint32_t word);
/* The instruction leaves thread t's gate and starts executing. */
void be_dispatch(be_t *be, unsigned t, const tt_op_t *op, uint32_t word);
/* Advance one cycle. */
void be_cycle(be_t *be);
/* Advance n cycles with nothing executing in any unit (only the clock moves). */
void be_advance_idle(be_t *be, uint64_t n);

/* STALLWAIT condition Cn (0..12, STALLWAIT.md) for thread t: true = "keep waiting". */
bool be_cond_busy(const be_t *be, unsigned t, unsigned cond);
/* Anything of thread t still executing in any unit. */
bool be_thread_busy(const be_t *be, unsigned t);
/* tt_cfg_bstatus class bits (CSRs.md) of what thread t has executing in the backend. */
uint32_t be_busy_classes(const be_t *be, unsigned t);
/* The unit (tt_unit_t) whose dispatch path took thread t's last instruction, -1 if none since
 * reset: TT_UNIT_SYNC for Sync Unit instructions. For tests and diagnosis. */
int be_last_unit(const be_t *be, unsigned t);

/* A RISC-V store to GPRs / config / TDMA-RISC from TRISC t is in flight (condition C10). */
void be_note_riscv_cfg_write(be_t *be, unsigned t);

/* State RISC-V reaches through MMIO. */
uint32_t be_gpr_read(const be_t *be, unsigned t, unsigned i);
void be_gpr_write(be_t *be, unsigned t, unsigned i, uint32_t val);
bool be_cfg_read(const be_t *be, uint32_t byte_off, uint32_t *val);
bool be_cfg_write(be_t *be, uint32_t byte_off, uint32_t val);

/* The first error since reset (undefined behaviour, an address the tile refuses, an
 * unimplemented instruction), or NULL. */
const char *be_error(const be_t *be);

#endif
