/* mmio/dram.c — sparse storage of the DRAM channels (mmio/dram.h, docs/noc.md "DRAM").
 *
 * Each channel is a two-level table: 1024 chunks of 4 MiB, each 1024 pages of 4 KiB; the tables
 * and pages are allocated on first write, so an untouched channel costs one pointer. A chunk keeps
 * one bit per 64-byte unit of each page that has been written, so that reads of never-written
 * memory can be counted. The pages' bytes come from slabs of 2 MiB, handed out in the order pages
 * are first written (so scattered pages still fill slabs), each slab mapped at a 2 MiB boundary
 * and advised as a huge page: the host kernel then backs it with one page fault instead of 512.
 * The tables come from mappings of their own (meta_get), fresh zeroes: a run touches only the
 * table pages it uses (calloc from a heap that had reused memory cleared all six pages of a
 * channel's first table and chunk, ~40 page faults on the whole add1 program). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mmio/dram.h"

#define PAGES_PER_CHUNK 1024u
#define CHUNKS          (DRAM_CHANNEL_SIZE / DRAM_PAGE / PAGES_PER_CHUNK)
#define SLAB_BYTES      (2u << 20) /* one huge page of the host: the pages' storage, in first-write order */
#define SLAB_PAGES      (SLAB_BYTES / DRAM_PAGE)

_Static_assert(DRAM_PAGE / DRAM_UNIT == 64, "one 64-bit mask of written units per page");
_Static_assert(DRAM_FILL == 0, "a fresh slab is the kernel's zeroed memory");

typedef struct {
    uint8_t *data;    /* NULL where never written */
    uint64_t written; /* bit u: unit u (64 bytes) of the page has been written */
} dram_slot_t;        /* side by side: a run of pages' slots share one host page */

typedef struct {
    dram_slot_t page[PAGES_PER_CHUNK];
} dram_chunk_t;

typedef struct {
    uint8_t *data;
    uint64_t *written;
} dram_page_t;

struct dram {
    dram_chunk_t **chunk[DRAM_CHANNELS]; /* CHUNKS per channel, NULL where never written */
    uint8_t **slab;                      /* every mapping (pages' slabs, tables'), for dram_destroy */
    size_t nslab, slab_cap;
    uint8_t *pages;     /* the pages' slab being filled */
    unsigned slab_free; /* pages left in it */
    uint8_t *meta;      /* the tables' mapping being filled (meta_get) */
    size_t meta_free;   /* bytes left in it */
    dram_stats_t st;
};

dram_t *dram_create(void) { return calloc(1, sizeof(dram_t)); }

void dram_destroy(dram_t *d) {
    if (!d) return;
    for (size_t i = 0; i < d->nslab; i++)
        munmap(d->slab[i], SLAB_BYTES);
    free(d->slab);
    free(d);
}

int dram_channel_at(unsigned x, unsigned y, unsigned *port) {
    if ((x != DRAM_X0 && x != DRAM_X0 + 1) || y < DRAM_Y0 || y >= DRAM_Y0 + 4 * DRAM_PORTS) return -1;
    unsigned ch = (x - DRAM_X0) * 4 + (y - DRAM_Y0) / DRAM_PORTS;
    if (ch >= DRAM_CHANNELS) return -1;
    if (port) *port = (y - DRAM_Y0) % DRAM_PORTS;
    return (int)ch;
}

void dram_port_xy(unsigned channel, unsigned port, unsigned *x, unsigned *y) {
    *x = DRAM_X0 + channel / 4;
    *y = DRAM_Y0 + DRAM_PORTS * (channel % 4) + port;
}

static dram_page_t page_of(const dram_t *d, unsigned ch, uint64_t addr) {
    uint64_t p = addr / DRAM_PAGE;
    dram_chunk_t *chunk = d->chunk[ch] ? d->chunk[ch][p / PAGES_PER_CHUNK] : NULL;
    if (!chunk || !chunk->page[p % PAGES_PER_CHUNK].data) return (dram_page_t){0};
    return (dram_page_t){chunk->page[p % PAGES_PER_CHUNK].data, &chunk->page[p % PAGES_PER_CHUNK].written};
}

/* A new slab, aligned to its size so that the host can back it with one huge page (a run that
 * writes DRAM page by page otherwise takes a host page fault for each of them). Mapped rather than
 * taken from malloc: a fresh mapping is the kernel's zeroed memory, which never-written DRAM must
 * read as, with no second clearing. */
static uint8_t *slab_map(void) {
    uint8_t *m = mmap(NULL, 2 * SLAB_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    uint8_t *a = (uint8_t *)(((uintptr_t)m + SLAB_BYTES - 1) & ~(uintptr_t)(SLAB_BYTES - 1));
    if (a > m) munmap(m, (size_t)(a - m));
    munmap(a + SLAB_BYTES, (size_t)(m + SLAB_BYTES - a));
#ifdef MADV_HUGEPAGE
    madvise(a, SLAB_BYTES, MADV_HUGEPAGE); /* advice only: without it the slab is ordinary pages */
#endif
    return a;
}

/* Keeps m (a mapping of SLAB_BYTES) for dram_destroy; false, unmapping it, if it cannot. */
static bool slab_keep(dram_t *d, uint8_t *m) {
    if (d->nslab == d->slab_cap) {
        size_t cap = d->slab_cap ? 2 * d->slab_cap : 8;
        uint8_t **s = realloc(d->slab, cap * sizeof *s);
        if (!s) {
            munmap(m, SLAB_BYTES);
            return false;
        }
        d->slab = s, d->slab_cap = cap;
    }
    d->slab[d->nslab++] = m;
    return true;
}

static uint8_t *page_storage(dram_t *d) {
    if (!d->slab_free) {
        uint8_t *m = slab_map();
        if (!m || !slab_keep(d, m)) return NULL;
        d->pages = m;
        d->slab_free = SLAB_PAGES;
    }
    return d->pages + (size_t)(SLAB_PAGES - d->slab_free--) * DRAM_PAGE;
}

/* n bytes of zeroes for a table (n a multiple of DRAM_PAGE, at most SLAB_BYTES), from a plain
 * mapping of SLAB_BYTES (no huge page: its pages are touched a few at a time). */
static void *meta_get(dram_t *d, size_t n) {
    if (d->meta_free < n) {
        uint8_t *m = mmap(NULL, SLAB_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED || !slab_keep(d, m)) return NULL;
        d->meta = m;
        d->meta_free = SLAB_BYTES;
    }
    void *r = d->meta + (SLAB_BYTES - d->meta_free);
    d->meta_free -= n;
    return r;
}
_Static_assert(CHUNKS * sizeof(dram_chunk_t *) % DRAM_PAGE == 0 && sizeof(dram_chunk_t) % DRAM_PAGE == 0,
               "tables of whole pages");

static dram_page_t page_make(dram_t *d, unsigned ch, uint64_t addr) {
    uint64_t p = addr / DRAM_PAGE;
    /* A table just made is known zero: not read first (a load of a never-touched page maps the
     * kernel's zero page, and the store after it takes a second fault to copy it). */
    bool fresh = !d->chunk[ch];
    if (fresh && !(d->chunk[ch] = meta_get(d, CHUNKS * sizeof *d->chunk[ch]))) return (dram_page_t){0};
    dram_chunk_t **chunk = &d->chunk[ch][p / PAGES_PER_CHUNK];
    fresh = fresh || !*chunk;
    if (fresh && !(*chunk = meta_get(d, sizeof **chunk))) return (dram_page_t){0};
    dram_slot_t *slot = &(*chunk)->page[p % PAGES_PER_CHUNK];
    if (fresh || !slot->data) {
        if (!(slot->data = page_storage(d))) return (dram_page_t){0};
        d->st.pages++;
    }
    return (dram_page_t){slot->data, &slot->written};
}

/* Bits of the units that [off, off + n) overlaps within one page. */
static uint64_t unit_mask(uint32_t off, uint32_t n) {
    unsigned first = off / DRAM_UNIT, last = (off + n - 1) / DRAM_UNIT;
    uint64_t hi = last == 63 ? ~0ull : (2ull << last) - 1;
    return hi & ~((1ull << first) - 1);
}

bool dram_write_masked(dram_t *d, unsigned ch, uint64_t addr, const void *src, size_t n, uint64_t mask) {
    const uint8_t *s = src;
    for (size_t i = 0; i < n; i++) {
        if (!((mask >> i) & 1)) continue;
        dram_page_t pg = page_make(d, ch, addr + i);
        if (!pg.data) return false;
        uint32_t off = (uint32_t)((addr + i) % DRAM_PAGE);
        pg.data[off] = s[i];
        *pg.written |= 1ull << (off / DRAM_UNIT);
        d->st.bytes_written++;
    }
    return true;
}

bool dram_write(dram_t *d, unsigned ch, uint64_t addr, const void *src, size_t n) {
    const uint8_t *s = src;
    while (n) {
        uint32_t off = (uint32_t)(addr % DRAM_PAGE), k = DRAM_PAGE - off;
        if (k > n) k = (uint32_t)n;
        dram_page_t pg = page_make(d, ch, addr);
        if (!pg.data) return false;
        memcpy(pg.data + off, s, k);
        *pg.written |= unit_mask(off, k);
        d->st.bytes_written += k;
        addr += k, s += k, n -= k;
    }
    return true;
}

/* Copies, and returns how many of the bytes lie in never-written units. */
static uint64_t copy_out(const dram_t *d, unsigned ch, uint64_t addr, void *dst, size_t n) {
    uint8_t *o = dst;
    uint64_t unwritten = 0;
    while (n) {
        uint32_t off = (uint32_t)(addr % DRAM_PAGE), k = DRAM_PAGE - off;
        if (k > n) k = (uint32_t)n;
        dram_page_t pg = page_of(d, ch, addr);
        if (pg.data) {
            memcpy(o, pg.data + off, k);
            /* Only the units of the range never written (none, as a rule: one test). */
            for (uint64_t m = unit_mask(off, k) & ~*pg.written; m; m &= m - 1) {
                uint32_t u = (uint32_t)__builtin_ctzll(m);
                uint32_t lo = u * DRAM_UNIT > off ? u * DRAM_UNIT : off, hi = (u + 1) * DRAM_UNIT;
                unwritten += (hi < off + k ? hi : off + k) - lo;
            }
        } else {
            memset(o, DRAM_FILL, k);
            unwritten += k;
        }
        addr += k, o += k, n -= k;
    }
    return unwritten;
}

void dram_read(dram_t *d, unsigned ch, uint64_t addr, void *dst, size_t n) {
    uint64_t u = copy_out(d, ch, addr, dst, n);
    d->st.bytes_read += n;
    if (u) {
        d->st.unwritten_reads++;
        d->st.unwritten_bytes += u;
    }
}

void dram_peek(const dram_t *d, unsigned ch, uint64_t addr, void *dst, size_t n) { copy_out(d, ch, addr, dst, n); }

void dram_stats(const dram_t *d, dram_stats_t *out) { *out = d->st; }
