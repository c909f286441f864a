/* mmio/dram.c — sparse storage of the DRAM channels (mmio/dram.h, docs/noc.md "DRAM").
 *
 * Each channel is a two-level table: 1024 chunks of 4 MiB, each 1024 pages of 4 KiB; the tables
 * and pages are allocated on first write, so an untouched channel costs one pointer. A page keeps one bit per 64-byte
 * unit that has been written, so that reads of never-written memory can be counted. */
#include <stdlib.h>
#include <string.h>

#include "mmio/dram.h"

#define PAGES_PER_CHUNK 1024u
#define CHUNKS          (DRAM_CHANNEL_SIZE / DRAM_PAGE / PAGES_PER_CHUNK)

_Static_assert(DRAM_PAGE / DRAM_UNIT == 64, "one 64-bit mask of written units per page");

typedef struct {
    uint8_t data[DRAM_PAGE];
    uint64_t written; /* bit u: unit u (64 bytes) has been written */
} dram_page_t;

typedef dram_page_t **dram_chunk_t; /* PAGES_PER_CHUNK pages, NULL where never written */

struct dram {
    dram_chunk_t *chunk[DRAM_CHANNELS]; /* CHUNKS per channel, NULL where never written */
    dram_stats_t st;
};

dram_t *dram_create(void) { return calloc(1, sizeof(dram_t)); }

void dram_destroy(dram_t *d) {
    if (!d) return;
    for (unsigned c = 0; c < DRAM_CHANNELS; c++) {
        if (!d->chunk[c]) continue;
        for (unsigned k = 0; k < CHUNKS; k++) {
            if (!d->chunk[c][k]) continue;
            for (unsigned p = 0; p < PAGES_PER_CHUNK; p++)
                free(d->chunk[c][k][p]);
            free(d->chunk[c][k]);
        }
        free(d->chunk[c]);
    }
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

static dram_page_t *page_of(const dram_t *d, unsigned ch, uint64_t addr) {
    uint64_t p = addr / DRAM_PAGE;
    if (!d->chunk[ch]) return NULL;
    dram_page_t **chunk = d->chunk[ch][p / PAGES_PER_CHUNK];
    return chunk ? chunk[p % PAGES_PER_CHUNK] : NULL;
}

static dram_page_t *page_make(dram_t *d, unsigned ch, uint64_t addr) {
    uint64_t p = addr / DRAM_PAGE;
    if (!d->chunk[ch] && !(d->chunk[ch] = calloc(CHUNKS, sizeof *d->chunk[ch]))) return NULL;
    dram_page_t ***chunk = &d->chunk[ch][p / PAGES_PER_CHUNK];
    if (!*chunk && !(*chunk = calloc(PAGES_PER_CHUNK, sizeof **chunk))) return NULL;
    dram_page_t **pg = &(*chunk)[p % PAGES_PER_CHUNK];
    if (!*pg) {
        if (!(*pg = malloc(sizeof **pg))) return NULL;
        memset((*pg)->data, DRAM_FILL, DRAM_PAGE);
        (*pg)->written = 0;
        d->st.pages++;
    }
    return *pg;
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
        dram_page_t *pg = page_make(d, ch, addr + i);
        if (!pg) return false;
        uint32_t off = (uint32_t)((addr + i) % DRAM_PAGE);
        pg->data[off] = s[i];
        pg->written |= 1ull << (off / DRAM_UNIT);
        d->st.bytes_written++;
    }
    return true;
}

bool dram_write(dram_t *d, unsigned ch, uint64_t addr, const void *src, size_t n) {
    const uint8_t *s = src;
    while (n) {
        uint32_t off = (uint32_t)(addr % DRAM_PAGE), k = DRAM_PAGE - off;
        if (k > n) k = (uint32_t)n;
        dram_page_t *pg = page_make(d, ch, addr);
        if (!pg) return false;
        memcpy(pg->data + off, s, k);
        pg->written |= unit_mask(off, k);
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
        const dram_page_t *pg = page_of(d, ch, addr);
        if (pg) {
            memcpy(o, pg->data + off, k);
            for (uint32_t u = off / DRAM_UNIT; u <= (off + k - 1) / DRAM_UNIT; u++) {
                if ((pg->written >> u) & 1) continue;
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
