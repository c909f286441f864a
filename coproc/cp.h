/* coproc/cp.h — the Tensix coprocessor of one tile: three thread frontends (FIFO → MOP expander →
 * replay expander → Wait Gate), the Sync Unit, and the backend units' occupancy model.
 *
 * It knows nothing of RISC-V. The tile feeds it instruction words (cp_push), steps it once per
 * cycle (cp_cycle), and forwards the RISC-V-visible windows (semaphores, GPRs, MOP config, config
 * space, TTSync) to the functions below. STOREREG/LOADREG reach the tile's MMIO through cp_env_t.
 */
#ifndef TTEMU_COPROC_CP_H
#define TTEMU_COPROC_CP_H

#include <stdbool.h>
#include <stdint.h>

#define CP_THREADS 3
#define CP_NUM_SEMS 8
#define CP_NUM_GPRS 64
#define CP_FIFO_DEPTH 32
#define CP_CFG_WORDS 224       /* Config[2][224] (BackendConfiguration.md) */
#define CP_THDCFG_WORDS 68     /* ThreadConfig[3][68] */

typedef struct cp cp_t;

/* What the coprocessor needs from the tile. Both return false on an address no device accepts. */
typedef struct {
    void *ctx;
    bool (*mmio_load)(void *ctx, uint32_t addr, uint32_t *val);
    bool (*mmio_store)(void *ctx, uint32_t addr, uint32_t val);
} cp_env_t;

cp_t *cp_create(const cp_env_t *env);
void cp_destroy(cp_t *cp);
/* Put back to power-on state (semaphores, mutexes, FIFOs, gates, GPRs, config). */
void cp_reset(cp_t *cp);

/* Push one instruction word into thread t. after_mop: BRISC's path, which enters after the MOP
 * expander. Returns false when the FIFO is full: the pushing core retries next cycle. */
bool cp_push(cp_t *cp, unsigned t, uint32_t word, bool after_mop);

/* Advance one cycle (frontends, gates, backend occupancy). */
void cp_cycle(cp_t *cp);

/* TTSync (ManualTTSync.md): CoprocessorDoneCheck — nothing of thread t left anywhere;
 * MOPExpanderDoneCheck — nothing queued before thread t's MOP expander and the expander idle. */
bool cp_thread_idle(const cp_t *cp, unsigned t);
bool cp_mop_idle(const cp_t *cp, unsigned t);

/* Semaphore window (SyncUnit.md): read returns Value; a write with bit0 set gets (floor 0),
 * with bit0 clear posts (saturates at 15, never at Max). t is the writing TRISC's thread. */
uint32_t cp_sem_read(const cp_t *cp, unsigned i);
void cp_sem_write(cp_t *cp, unsigned t, unsigned i, uint32_t val);

/* Per-thread Tensix GPRs (ScalarUnit.md), the same registers the TRISC sees at 0xFFE00000. */
uint32_t cp_gpr_read(const cp_t *cp, unsigned t, unsigned i);
void cp_gpr_write(cp_t *cp, unsigned t, unsigned i, uint32_t val);

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

#endif
