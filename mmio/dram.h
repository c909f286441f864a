/* mmio/dram.h — the Blackhole DRAM channels as NoC endpoints (docs/noc.md "DRAM").
 *
 * A p100a has 7 usable GDDR6 channels of 4 GiB (../shared/firmware/README.md "The whole add1
 * program"); tt-metal puts one DRAM bank on each, so bank b is channel b. Each channel is reached
 * through three NoC ports (DRAM tiles) that alias the same memory: translated coordinates
 * x = 17 + b / 4, y = 12 + 3 * (b % 4) + port (BlackholeA0/NoC/README.md: "the same 4 GiB of GDDR6
 * is common across groups of three DRAM tiles"). The same coordinates serve NOC0 and NOC1.
 *
 * Storage is sparse: 4 KiB pages allocated on first write, so a run pays only for what it touches
 * (their storage from 2 MiB slabs in first-write order, offered to the host as huge pages).
 * Bytes never written read as DRAM_FILL (zero); NoC reads that touch any never-written 64-byte
 * unit are counted (dram_stats_t) and reported. Not on the cores' address map: the NIUs
 * (mmio/noc.c) and the host (the loader's DRAM operations) reach it. */
#ifndef TTEMU_MMIO_DRAM_H
#define TTEMU_MMIO_DRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DRAM_CHANNELS     7            /* usable on a p100a; bank b = channel b */
#define DRAM_PORTS        3            /* NoC ports (DRAM tiles) per channel, aliasing one memory */
#define DRAM_CHANNEL_SIZE (4ull << 30) /* bytes per channel */
#define DRAM_PAGE         4096u        /* allocation unit */
#define DRAM_UNIT         64u          /* written-tracking unit: one NoC flit, BH's DRAM alignment */
#define DRAM_FILL         0x00u        /* what never-written bytes read as */
#define DRAM_X0           17u          /* translated x of channels 0..3; 18 for 4..7 */
#define DRAM_Y0           12u          /* translated y of channel 0's first port */

typedef struct dram dram_t;

typedef struct {
    uint64_t pages;           /* 4 KiB pages allocated (touched by a write) */
    uint64_t bytes_written;   /* by NoC writes and the host */
    uint64_t bytes_read;      /* by NoC reads */
    uint64_t unwritten_reads; /* NoC reads that touched never-written memory */
    uint64_t unwritten_bytes; /* bytes they read from never-written 64-byte units */
} dram_stats_t;

dram_t *dram_create(void);
void dram_destroy(dram_t *d);
/* The channel whose NoC port is at translated (x, y), or -1; *port gets 0..2. */
int dram_channel_at(unsigned x, unsigned y, unsigned *port);
/* Translated coordinates of a channel's port (the bank tables use port 0). */
void dram_port_xy(unsigned channel, unsigned port, unsigned *x, unsigned *y);
/* Does [addr, addr + n) lie in one channel? */
static inline bool dram_in_range(uint64_t addr, uint64_t n) {
    return addr <= DRAM_CHANNEL_SIZE && n <= DRAM_CHANNEL_SIZE - addr;
}
/* Write n bytes at addr of channel ch (in range); false when out of memory. */
bool dram_write(dram_t *d, unsigned ch, uint64_t addr, const void *src, size_t n);
/* Write the bytes of src whose bit is set in mask (bit i: byte i; n <= 64). */
bool dram_write_masked(dram_t *d, unsigned ch, uint64_t addr, const void *src, size_t n, uint64_t mask);
/* A NoC read: n bytes into dst, counted in the statistics (never-written units included). */
void dram_read(dram_t *d, unsigned ch, uint64_t addr, void *dst, size_t n);
/* The host's read: the same bytes, not counted. */
void dram_peek(const dram_t *d, unsigned ch, uint64_t addr, void *dst, size_t n);
void dram_stats(const dram_t *d, dram_stats_t *out);

#endif
