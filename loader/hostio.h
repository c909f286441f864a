/* loader/hostio.h — the host's data in and out of a run (docs/tensors.md, docs/run-config.md):
 * files written into the tile by host writes, host reads saved to files, and named tensors —
 * inputs written, outputs saved and expectations compared — at the points of the run a config
 * names. Everything that can be checked before the run is (files read, converted and sized, output
 * paths writable), so bad input stops a run before it starts. */
#ifndef TTEMU_LOADER_HOSTIO_H
#define TTEMU_LOADER_HOSTIO_H

#include <stddef.h>
#include <stdint.h>

#include "loader/config.h"
#include "run/run.h"

/* The local-RAM alias windows of mmio/ldm_alias.c (BRISC 0xFFB14000 ... TRISC2 0xFFB1C000): with
 * L1, where a host write may put a file's bytes. */
#define HIO_LDM_ALIAS_BASE 0xFFB14000u
#define HIO_LDM_ALIAS_END  0xFFB1E000u

/* Before the run: host write files read and placed, input and expectation files read and converted
 * into the tensor's format (and layout), output and saved-read paths checked for writing. 0, or -1
 * with err naming the file, the key (or flag) and the problem. */
int hio_prepare(cfg_t *c, char *err, size_t errlen);
/* At a point of the run (launch: the launch at kernels_done/after_launch, else -1): the inputs due
 * there are written into L1, the outputs and expectations due there read. */
void hio_at(run_t *r, const cfg_t *c, cfg_at_t at, int launch);
/* When the run is over: the outputs and expectations read at the end. */
void hio_end(run_t *r, const cfg_t *c);
/* After the run: outputs written to their files, saved host reads to theirs, expectations compared
 * (their results in c->tio[i].cmp; *failed counts those with mismatches). 0, or -1 with err for
 * the first file that could not be written or point that was never reached (the others are still
 * done). */
int hio_finish(run_t *r, const cfg_t *c, int *failed, char *err, size_t errlen);

/* Put len bytes at addr: in L1, or in a local-RAM alias window (checked by the caller). */
void hio_write_bytes(tile_t *t, uint32_t addr, const uint8_t *data, uint32_t len);

#endif
