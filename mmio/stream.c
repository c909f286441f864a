/* mmio/stream.c — the 64 overlay stream register blocks (0xFFB40000 + 0x1000·s) as plain
 * storage. tt-metal uses streams 8..39 as circular-buffer counters: tiles_acked at +0x20 and
 * tiles_received at +0x28 of stream cb+8 (TENSIX.md §2.8).
 * Stored register-major (stream_word): the 64 streams' copies of one register are neighbours, so the
 * few registers a run writes, in every stream it uses, share a page or two rather than touching one
 * page a stream (~32 page faults a run). */
#include "mmio/devices.h"

/* Word index in t->streams of the register at byte offset off: 64 streams to a register's row. */
static inline uint32_t stream_word(uint32_t off) { return (off & 0xFFC) / 4 * 64 + off / 0x1000; }

mem_res_t stream_read(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t *val) {
    return mmio_storage_read(&t->streams[stream_word(off)], h, "stream registers", size, val);
}

/* Loads are plain storage (mmio_storage_read). */
const uint32_t *stream_pure_word(tile_t *t, const hart_t *h, uint32_t off, bool *noted) {
    (void)h, (void)noted;
    return &t->streams[stream_word(off)];
}

mem_res_t stream_write(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t val) {
    t->dev_writes++; /* hart_t.dev_writes (a fault writes nothing: one more count is harmless) */
    return mmio_storage_write(&t->streams[stream_word(off)], h, "stream registers", size, val);
}
