/* loader/dram_ops.h — the host's access to DRAM: the run config's "dram_write" / "dram_read"
 * operations (docs/run-config.md), and the layout helpers behind them, for any loader that puts
 * data in DRAM or takes it out (tensors in DRAM).
 *
 * Layout: one channel (bank b is channel b), or tt-metal's interleaving over all DRAM_CHANNELS
 * banks (InterleavedAddrGen; ../shared/firmware/README.md): page i of a buffer at base lives in
 * bank i mod DRAM_CHANNELS at base + (i div DRAM_CHANNELS) * page_size (bank_to_dram_offset is 0,
 * loader/ttmetal.c ttm_write_bank_tables). */
#ifndef TTEMU_LOADER_DRAM_OPS_H
#define TTEMU_LOADER_DRAM_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/config.h"

#define LDR_DRAM_INTERLEAVED (-1) /* the channel argument for the interleaved layout */

/* Does a buffer of len bytes at addr fit (in its channel, or in every bank when interleaved)? */
bool ldr_dram_fits(int channel, uint32_t page_size, uint64_t addr, uint64_t len);
/* Write len bytes at addr of a channel, or of an interleaved buffer (page_size > 0); false when
 * out of memory. The caller checks ldr_dram_fits. */
bool ldr_dram_put(tile_t *t, int channel, uint32_t page_size, uint64_t addr, const void *src, size_t len);
/* Read them back (never-written bytes read as DRAM_FILL; not counted as NoC reads). */
void ldr_dram_get(const tile_t *t, int channel, uint32_t page_size, uint64_t addr, void *dst, size_t len);

/* Before the run: read the files of c's "dram_write" operations (errors name the file and the
 * key). 0, or -1 with err. */
int ldr_dram_prepare(const cfg_t *c, char *err, size_t errlen);
/* Carry out a DRAM host operation: a write, or a read into val (op->words words). */
void ldr_dram_op(tile_t *t, const cfg_host_op_t *op, uint32_t *val);

#endif
