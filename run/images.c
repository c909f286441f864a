/* run/images.c — symbol lookup over the images a run loaded (run/images.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/images.h"

void img_set_free(img_set_t *set) {
    for (int c = 0; c < TILE_NCORES; c++) {
        img_t *img = &set->images[c];
        for (size_t i = 0; i < img->nsyms; i++)
            free(img->syms[i].name);
        free(img->syms);
        free(img->path);
    }
    memset(set, 0, sizeof *set);
}

const char *img_symbolize(const img_set_t *set, int core, uint32_t addr, uint32_t *off) {
    const img_t *img = &set->images[core];
    /* Only addresses inside the image: a size-0 symbol must not name a pc far past its end. */
    bool inside = false;
    for (int r = 0; r < set->nranges; r++)
        inside =
            inside || (set->ranges[r].core == core && addr - set->ranges[r].lo < set->ranges[r].hi - set->ranges[r].lo);
    if (!inside) return NULL;
    const img_sym_t *best = NULL;
    size_t lo = 0, hi = img->nsyms;
    while (lo < hi) { /* last symbol with addr <= target */
        size_t mid = (lo + hi) / 2;
        if (img->syms[mid].addr <= addr) {
            best = &img->syms[mid];
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (!best || (best->size && addr >= best->addr + best->size)) return NULL;
    if (off) *off = addr - best->addr;
    return best->name;
}

void img_symbol(const img_set_t *set, int core, uint32_t addr, char *buf, size_t len) {
    uint32_t off = 0;
    const char *s = img_symbolize(set, core, addr, &off);
    if (!s) {
        if (len) buf[0] = 0;
        return;
    }
    if (off)
        snprintf(buf, len, "%s+0x%x", s, off);
    else
        snprintf(buf, len, "%s", s);
}
