/* run/images.h — the programs a run's cores were given: each core's image path, entry and function
 * symbols, and the L1 ranges the images claim. The loader (loader/elf.c) fills it; the run, the
 * diagnosis, the traces, the report and the panel read it to name pcs ("main+0x14"). */
#ifndef TTEMU_RUN_IMAGES_H
#define TTEMU_RUN_IMAGES_H

#include <stddef.h>
#include <stdint.h>

#include "tile/tile.h"

typedef struct {
    uint32_t addr, size;
    char *name;
} img_sym_t;

typedef struct {
    uint32_t lo, hi; /* [lo, hi) in L1 */
    int core;
    const char *path;
} img_range_t;

#define IMG_MAX_RANGES 64

typedef struct {
    char *path;
    int core;
    uint32_t entry;
    img_sym_t *syms; /* sorted by addr */
    size_t nsyms;
} img_t;

/* Every image loaded into one tile, for overlap checks and symbol lookup. */
typedef struct {
    img_t images[TILE_NCORES];
    img_range_t ranges[IMG_MAX_RANGES];
    int nranges;
} img_set_t;

void img_set_free(img_set_t *set);
/* The function containing addr in core's image: name, and the offset in *off. NULL if none. */
const char *img_symbolize(const img_set_t *set, int core, uint32_t addr, uint32_t *off);
/* "main+0x14", "main", or "" for an address no symbol of core's image covers. */
void img_symbol(const img_set_t *set, int core, uint32_t addr, char *buf, size_t len);

#endif
