/* mmio/devices.h — the read/write entry points of every device on the tile's address map.
 * One device per file; mmio/bus.c lists them in the address map table. */
#ifndef TTEMU_MMIO_DEVICES_H
#define TTEMU_MMIO_DEVICES_H

#include "tile/tile.h"

#define DEV_DECL(name)                                                                                                 \
    mem_res_t name##_read(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t *val);                           \
    mem_res_t name##_write(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t val);

DEV_DECL(tdma)      /* 0xFFB11000 TDMA-RISC registers */
DEV_DECL(tilectl)   /* 0xFFB12000 tile control / debug / status (SOFT_RESET_0, wall clock) */
DEV_DECL(pic)       /* 0xFFB13000 PIC and PC snapshots */
DEV_DECL(ldm_alias) /* 0xFFB14000 local RAM aliases of all five cores */
DEV_DECL(noc0)      /* 0xFFB20000 NoC 0 NIU registers */
DEV_DECL(noc1)      /* 0xFFB30000 NoC 1 NIU registers */
DEV_DECL(stream)    /* 0xFFB40000 overlay stream registers, 64 blocks */
DEV_DECL(mopcfg)    /* 0xFFB80000 MOP expander config, per TRISC */
DEV_DECL(gpr)       /* 0xFFE00000 Tensix GPRs */
DEV_DECL(instrn)    /* 0xFFE40000..0xFFE6FFFF instruction push */
DEV_DECL(pcbuf)     /* 0xFFE80000 PCBuf / TTSync / semaphores */
DEV_DECL(cfgspace)  /* 0xFFEF0000 backend configuration */

#undef DEV_DECL

/* A hart's store that reaches a device, around the device's write: the coprocessor brought up to
 * the tile's cycle first if the device reaches it (mmio_dev_t.reaches_cp: it may push into it or
 * read it, tile_cp_sync), and a store that took counted as the tile's progress (run/run.c's
 * deadlock check). Both ways a store reaches a device go through it: env_store's, through the
 * address map, and env_ttinsn's, a .ttinsn's push with its device known (inlined there: write is
 * then a known function). */
static inline __attribute__((always_inline)) mem_res_t
env_device_store(tile_t *t, hart_t *h, mem_res_t (*write)(tile_t *, hart_t *, uint32_t, unsigned, uint32_t),
                 bool reaches_cp, uint32_t off, unsigned size, uint32_t val) {
    if (reaches_cp) tile_cp_sync(t);
    mem_res_t r = write(t, h, off, size, val);
    if (r == MEM_OK) t->progress++;
    return r;
}

/* The devices' words a hart may park on (mmio_dev_t.pure_word, .polled): the stream registers,
 * the NIUs' counters (whose loads note the poll), the TRISCs' semaphores. */
const uint32_t *stream_pure_word(tile_t *t, const hart_t *h, uint32_t off, bool *noted);
const uint32_t *noc0_pure_word(tile_t *t, const hart_t *h, uint32_t off, bool *noted);
const uint32_t *noc1_pure_word(tile_t *t, const hart_t *h, uint32_t off, bool *noted);
void noc0_polled(tile_t *t, const hart_t *h, uint32_t off, uint64_t cycle);
void noc1_polled(tile_t *t, const hart_t *h, uint32_t off, uint64_t cycle);
const uint32_t *pcbuf_pure_word(tile_t *t, const hart_t *h, uint32_t off, bool *noted);

#endif
