/* mmio/bus.c — the tile's address map as the cores see it, and the environment functions the
 * harts call for every access that misses their L1 / local-RAM fast path.
 * Sources: BabyRISCV/README.md memory map; ../shared/docs/TENSIX.md §2.1 (and docs/memory-map.md). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mmio/devices.h"
#include "tile/tile.h"

/* Sorted by base. A device decides per core what it accepts (e.g. NCRISC has no Tensix push). */
static const mmio_dev_t mmio_map[] = {
    {"TDMA-RISC registers", 0xFFB11000u, 0x1000u, .read = tdma_read, .write = tdma_write, .reaches_cp = true},
    {"tile control registers", 0xFFB12000u, 0x1000u, .read = tilectl_read, .write = tilectl_write},
    {"PIC", 0xFFB13000u, 0x1000u, .read = pic_read, .write = pic_write},
    {"local RAM alias", 0xFFB14000u, 0xA000u, .read = ldm_alias_read, .write = ldm_alias_write},
    {"NoC 0 registers", 0xFFB20000u, 0x10000u, .read = noc0_read, .write = noc0_write, .pure_word = noc0_pure_word,
     .polled = noc0_polled, .counted = true},
    {"NoC 1 registers", 0xFFB30000u, 0x10000u, .read = noc1_read, .write = noc1_write, .pure_word = noc1_pure_word,
     .polled = noc1_polled, .counted = true},
    {"stream registers", 0xFFB40000u, 0x40000u, .read = stream_read, .write = stream_write,
     .pure_word = stream_pure_word, .counted = true},
    {"MOP config", 0xFFB80000u, 0x1000u, .read = mopcfg_read, .write = mopcfg_write, .reaches_cp = true},
    {"Tensix GPRs", 0xFFE00000u, 0x1000u, .read = gpr_read, .write = gpr_write, .reaches_cp = true},
    {"INSTRN_BUF", 0xFFE40000u, 0x30000u, .read = instrn_read, .write = instrn_write, .reaches_cp = true},
    {"PC_BUF", 0xFFE80000u, 0x30000u, .read = pcbuf_read, .write = pcbuf_write, .pure_word = pcbuf_pure_word,
     .reaches_cp = true, .counted = true},
    {"Tensix config", 0xFFEF0000u, 0x10000u, .read = cfgspace_read, .write = cfgspace_write, .reaches_cp = true},
};

/* Binary search for the last device based at or below addr (the map is sorted and its entries do
 * not overlap): Tensix pushes (INSTRN_BUF) reach here once per instruction. */
const mmio_dev_t *mmio_find(uint32_t addr) {
    size_t lo = 0, hi = sizeof mmio_map / sizeof mmio_map[0]; /* the answer is below hi */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (mmio_map[mid].base <= addr)
            lo = mid;
        else
            hi = mid;
    }
    return addr - mmio_map[lo].base < mmio_map[lo].size ? &mmio_map[lo] : NULL;
}

void mmio_pages_fill(uint8_t page[TILE_MMIO_PAGES]) {
    memset(page, 0, TILE_MMIO_PAGES);
    for (size_t i = 0; i < sizeof mmio_map / sizeof mmio_map[0]; i++)
        for (uint32_t a = mmio_map[i].base; a - mmio_map[i].base < mmio_map[i].size; a += 0x1000u) {
            uint32_t p = (a - TILE_MMIO_PAGE_BASE) >> 12;
            if (p < TILE_MMIO_PAGES) page[p] = (uint8_t)(i + 1);
        }
}

/* mmio_find through the tile's page table: an access that misses the harts' fast path costs one
 * load here, not a search (every Tensix push, every poll of a NoC or stream register). Pages
 * without a device fall back to the search, which says so. */
static inline const mmio_dev_t *tile_mmio_find(const tile_t *t, uint32_t addr) {
    uint32_t p = (addr - TILE_MMIO_PAGE_BASE) >> 12;
    if (p < TILE_MMIO_PAGES && t->mmio_page[p]) return &mmio_map[t->mmio_page[p] - 1];
    return mmio_find(addr);
}

const char *tile_region_name(uint32_t addr) {
    if (addr < TILE_L1_SIZE) return "L1";
    if (addr - HART_LDM_BASE < TILE_LDM_MAX) return "local RAM";
    const mmio_dev_t *d = mmio_find(addr);
    return d ? d->name : "unmapped";
}

mem_res_t mmio_fault(hart_t *h, fault_kind_t kind, const char *fmt, ...) {
    if (!h) return MEM_FAULT;
    h->fault.kind = kind;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->fault.msg, sizeof h->fault.msg, fmt, ap);
    va_end(ap);
    return MEM_FAULT;
}

mem_res_t mmio_hang(hart_t *h, const char *fmt, ...) {
    if (!h) return MEM_FAULT;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->hang_reason, sizeof h->hang_reason, fmt, ap);
    va_end(ap);
    return MEM_HANG;
}

mem_res_t mmio_storage_read(uint32_t *word, hart_t *h, const char *dev, unsigned size, uint32_t *val) {
    if (size != 4) return mmio_fault(h, FAULT_ACCESS, "%u-byte load from %s (32-bit only)", size, dev);
    *val = *word;
    return MEM_OK;
}

mem_res_t mmio_storage_write(uint32_t *word, hart_t *h, const char *dev, unsigned size, uint32_t val) {
    if (size != 4) return mmio_fault(h, FAULT_ACCESS, "%u-byte store to %s (32-bit only)", size, dev);
    *word = val;
    return MEM_OK;
}

/* ---- the harts' environment (core/hart.h) ------------------------------------------------- */

/* A MEM_FAULT's address goes into h->fault where the hart completes the fault (core/exec.c). */
mem_res_t env_load(void *env, hart_t *h, uint32_t addr, unsigned size, uint32_t *val) {
    const mmio_dev_t *d = tile_mmio_find(env, addr);
    if (!d) return mmio_fault(h, FAULT_UNMAPPED, "load from unmapped address 0x%08x (%u bytes)", addr, size);
    if (d->reaches_cp) tile_cp_sync(env);
    return d->read(env, h, addr - d->base, size, val);
}

/* (An unmapped address reaches no device: nothing of the coprocessor is asked before the fault.) */
mem_res_t env_store(void *env, hart_t *h, uint32_t addr, unsigned size, uint32_t val) {
    const mmio_dev_t *d = tile_mmio_find(env, addr);
    if (!d) return mmio_fault(h, FAULT_UNMAPPED, "store to unmapped address 0x%08x (%u bytes)", addr, size);
    return env_device_store(env, h, d->write, d->reaches_cp, addr - d->base, size, val);
}

/* Writes into L1 from outside a hart (host, loader, STOREREG) drop the decoded records they
 * overlap; a hart's own stores do it in core/exec.c. */
void env_l1_written(void *env, uint32_t addr, unsigned size) {
    tile_t *t = env;
    tile_spin_forget(t);
    t->progress++;
    t->l1_writes++; /* tile_watch_changed */
    if (addr >= TILE_L1_SIZE || !size) return;
    /* One page, the common case (a PACR's 128 bytes, a NoC packet's, a host word): the loop's
     * first turn without its clipping. */
    if (size <= 0x1000u - (addr & 0xFFFu)) {
        if (t->pd_pages[addr >> 12]) hart_pd_invalidate(&t->hart[0], addr, size);
        return;
    }
    if (size > TILE_L1_SIZE - addr) size = TILE_L1_SIZE - addr;
    /* Only the pages that ever held decoded code can hold records (a packer's or the NoC's
     * kilobytes of data are never code). */
    for (uint32_t a = addr, end = addr + size; a < end;) {
        uint32_t next = (a | 0xFFFu) + 1, n = (next < end ? next : end) - a;
        if (t->pd_pages[a >> 12]) hart_pd_invalidate(&t->hart[0], a, n); /* (the tile's cache) */
        a += n;
    }
}

bool env_csr_read(void *env, hart_t *h, unsigned csr, uint32_t *val) {
    tile_t *t = env;
    tile_cp_sync(t);
    switch (csr) {
    case 0xBC0: *val = cp_qstatus(t->cp, tile_trisc_thread(h)); return true;
    case 0xBC1: *val = cp_bstatus(t->cp, tile_trisc_thread(h)); return true;
    default: return false;
    }
}

const uint32_t *env_pure_word(void *env, hart_t *h, uint32_t addr, uint64_t *noted_at, bool *counted) {
    tile_t *t = env;
    const mmio_dev_t *d = tile_mmio_find(t, addr);
    if (!d || (addr & 3) || !d->pure_word) return NULL;
    bool noted = false;
    const uint32_t *w = d->pure_word(t, h, addr - d->base, &noted);
    if (w && noted) *noted_at = t->cycle;
    *counted = d->counted;
    return w;
}

void env_park_read(void *env, hart_t *h, uint32_t addr, uint64_t cycle) {
    tile_t *t = env;
    const mmio_dev_t *d = tile_mmio_find(t, addr);
    if (d && d->polled) d->polled(t, h, addr - d->base, cycle);
}

/* ---- host access -------------------------------------------------------------------------- */

bool tile_host_read(tile_t *t, uint32_t addr, uint32_t *val) {
    if (addr & 3) return false;
    tile_cp_sync(t);
    tile_spin_forget(t); /* a device read may have side effects */
    if (addr < TILE_L1_SIZE) {
        memcpy(val, t->l1 + addr, 4);
        return true;
    }
    const mmio_dev_t *d = tile_mmio_find(t, addr);
    return d && d->read(t, NULL, addr - d->base, 4, val) == MEM_OK;
}

bool tile_host_write(tile_t *t, uint32_t addr, uint32_t val) {
    if (addr & 3) return false;
    tile_cp_sync(t);
    tile_spin_forget(t);
    if (addr < TILE_L1_SIZE) {
        memcpy(t->l1 + addr, &val, 4);
        env_l1_written(t, addr, 4);
        return true;
    }
    const mmio_dev_t *d = tile_mmio_find(t, addr);
    return d && d->write(t, NULL, addr - d->base, 4, val) == MEM_OK;
}
