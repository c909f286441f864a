/* loader/ttmetal.h — the tt-metal host model: how a tt-metal host boots Blackhole firmware on one
 * Tensix tile and launches kernels through the firmware's own mailboxes.
 *
 * The L1 layout constants below match the firmware build in ../shared/firmware/blackhole-p100a
 * (blackhole-py riscv-firmware/p100a @5d08c23, built from tt-metal, "fw-2601" in TENSIX.md §7).
 * tt-metal's layout drifts between versions (dev_mem_map.h, dev_msgs.h): a different build needs
 * its own values, taken from its DWARF. Names are tt-metal's.
 */
#ifndef TTEMU_LOADER_TTMETAL_H
#define TTEMU_LOADER_TTMETAL_H

#include <stdint.h>

#include "run/run.h"

/* dev_msgs.h message values. */
enum {
    RUN_MSG_INIT = 0x40,
    RUN_MSG_GO = 0x80,
    RUN_MSG_RESET_READ_PTR = 0xC0,
    RUN_MSG_RESET_READ_PTR_FROM_HOST = 0xE0,
    RUN_MSG_DONE = 0x00,
    RUN_SYNC_MSG_INIT = 0x40,
    RUN_SYNC_MSG_GO = 0x80,
    RUN_SYNC_MSG_LOAD = 0x01,
    RUN_SYNC_MSG_INIT_SYNC_REGISTERS = 0x03,
    RUN_SYNC_MSG_DONE = 0x00,
    DISPATCH_MODE_HOST = 1,
};

/* L1 layout of this firmware build (fw-2601). */
enum {
    MEM_MAILBOX_BASE = 0x60,     /* mailboxes_t */
    MEM_SUBORDINATE_SYNC = 0x68, /* subordinate_sync: dm1, trisc0, trisc1, trisc2 bytes */
    MEM_LAUNCH_MSG_RD_PTR = 0x6C,
    MEM_LAUNCH = 0x70, /* launch[8], 96 bytes each */
    MEM_LAUNCH_SIZE = 96,
    MEM_GO_MESSAGE_SIGNAL = 0x373, /* go_messages[0].signal (byte 3 of the entry at 0x370) */
    MEM_GO_MESSAGE_INDEX = 0x3A0,
    MEM_CORE_INFO_LOGICAL_X = 0x9A0, /* core_info.absolute_logical_x / _y */
    MEM_CORE_INFO_LOGICAL_Y = 0x9A1,
    MEM_MAP_END = 0x82B0, /* kernel config buffer; BRISC's local-data init scratch */
    /* MEM_BANK_TO_NOC_SCRATCH: the bank tables BRISC and NCRISC copy to local memory at start-up
     * (dram_bank_to_noc_xy[2][7] u16, l1_bank_to_noc_xy[2][110] u16, bank_to_dram_offset[7] i32,
     * bank_to_l1_offset[110] i32), and MEM_LOGICAL_TO_VIRTUAL_SCRATCH (worker columns u8[20],
     * rows u8[12]). */
    MEM_BANK_TO_NOC_SCRATCH = 0x112B0,
    MEM_LOGICAL_TO_VIRTUAL_SCRATCH = 0x11AB0,
};

/* The p100a's banks as this firmware build sizes its tables. */
enum { TTM_DRAM_BANKS = 7, TTM_L1_BANKS = 110 };

/* Where the host stages each core's local-memory initial data (MEM_*_INIT_LOCAL_L1_BASE_SCRATCH),
 * in tile core order BRISC, NCRISC, TRISC0, TRISC1, TRISC2. */
extern const uint32_t ttm_init_scratch[TILE_NCORES];

/* SOFT_RESET_0 values a tt-metal host writes (tt-umd TensixSoftResetOptions). */
#define TTM_SOFT_RESET_ALL        0x47800u /* hold BRISC, NCRISC, TRISC0..2 */
#define TTM_SOFT_RESET_BRISC_ONLY 0x47000u /* release BRISC; the firmware releases the rest */

/* Stage the five firmware ELFs (paths in tile core order) the tt-metal way: every core held in
 * reset, text at its address, local-memory data at the core's init scratch, `jal` to BRISC's entry
 * at L1 0, the go signal RUN_MSG_INIT, the logical coordinates. 0, or -1 with err. */
int ttm_boot_stage(run_t *r, char *const fw[TILE_NCORES], char *err, size_t errlen);
/* The bank tables a tt-metal host writes before boot (../shared/firmware/README.md "The whole add1
 * program"): DRAM bank b on channel b at its port 0 coordinates, the same on NOC0 and NOC1,
 * offset 0; L1 bank b at the worker x = 1 + b / 10, y = 2 + b % 10 (bank 0 is this tile), offset 0;
 * worker logical column c at virtual x c + 1, row r at y r + 2. */
void ttm_write_bank_tables(tile_t *t);
/* Release BRISC only; the firmware releases the other cores. */
void ttm_boot_release(run_t *r);
/* The go signal byte (go_messages[0].signal). */
int ttm_go_signal(const run_t *r);

/* Run a whole config in tt-metal mode: stage, host writes/reads at their points, boot, launches,
 * stop condition. Fills r->exit. Returns 0, or -1 with err for bad input found while running
 * (a kernel file that cannot be read or does not fit). */
struct cfg;
int ttm_run(run_t *r, const struct cfg *c, uint64_t max_cycles, char *err, size_t errlen);
/* Bare mode from a config: host writes/reads before the run (the only point it has), stop condition. */
int ttm_run_bare(run_t *r, const struct cfg *c, uint64_t max_cycles, char *err, size_t errlen);

/* The `jal x0, target` word the host writes at L1 0 (RISC-V J-type encoding). */
uint32_t ttm_jal(uint32_t target);

#endif
