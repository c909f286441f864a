/* mmio/noc.c — the NoC 0 / NoC 1 NIU register files (0xFFB20000, 0xFFB30000) as plain storage,
 * with NOC_NODE_ID (0x148) answering this tile's coordinates: x in bits [5:0], y in [11:6].
 * Status counters (0x200..) read 0 because nothing is ever sent. No transfers are modelled. */
#include "mmio/devices.h"

enum { NOC_NODE_ID = 0x148 };

static mem_res_t noc_read(tile_t *t, int n, hart_t *h, uint32_t off, unsigned size, uint32_t *val) {
    if (off == NOC_NODE_ID && size == 4) {
        *val = (uint32_t)(t->noc_x & 0x3F) | (uint32_t)(t->noc_y & 0x3F) << 6;
        return MEM_OK;
    }
    return mmio_storage_read(t->noc[n], h, n ? "NoC 1 registers" : "NoC 0 registers", off, size, val);
}

static mem_res_t noc_write(tile_t *t, int n, hart_t *h, uint32_t off, unsigned size, uint32_t val) {
    return mmio_storage_write(t->noc[n], h, n ? "NoC 1 registers" : "NoC 0 registers", off, size, val);
}

mem_res_t noc0_read(tile_t *t, hart_t *h, uint32_t o, unsigned s, uint32_t *v) { return noc_read(t, 0, h, o, s, v); }
mem_res_t noc1_read(tile_t *t, hart_t *h, uint32_t o, unsigned s, uint32_t *v) { return noc_read(t, 1, h, o, s, v); }
mem_res_t noc0_write(tile_t *t, hart_t *h, uint32_t o, unsigned s, uint32_t v) { return noc_write(t, 0, h, o, s, v); }
mem_res_t noc1_write(tile_t *t, hart_t *h, uint32_t o, unsigned s, uint32_t v) { return noc_write(t, 1, h, o, s, v); }
