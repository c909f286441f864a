/* fuzz/fuzz_gdb_pkt.c — libFuzzer target: the GDB Remote Serial Protocol's packet layer
 * (debug/gdb_pkt.c) on any bytes, as a client could send them. Besides the sanitizers' findings it
 * checks the parser's promises (debug/gdb_pkt.h): every item but NEED_MORE takes at least one
 * byte and never more than it was given; a packet's payload lies inside the buffer and its
 * checksum is right; a packet framed again parses to the same payload; unescaping what was escaped
 * gives the bytes back; hex round-trips. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/gdb_pkt.h"

#define MAX_INPUT (1u << 16)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what) {
    if (ok) return;
    fprintf(stderr, "gdb_pkt: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > MAX_INPUT) return 0;
    uint8_t *buf = malloc(size ? size : 1); /* exactly size bytes: ASan sees a read past the end */
    if (!buf) return 0;
    memcpy(buf, data, size);
    static uint8_t framed[2 * GDB_PKT_MAX + 8], esc[2 * GDB_PKT_MAX], back[2 * GDB_PKT_MAX];
    for (size_t at = 0; at < size;) {
        gdb_pkt_t p;
        size_t n = gdb_pkt_parse(buf + at, size - at, &p);
        if (n == 0) {
            check(p.kind == GDB_PKT_NEED_MORE, "nothing taken but not NEED_MORE");
            break;
        }
        check(n <= size - at, "took more bytes than it was given");
        if (p.kind == GDB_PKT_PACKET) {
            check(p.data >= buf + at && p.data + p.len <= buf + at + n, "payload outside the packet");
            size_t f = gdb_pkt_frame(p.data, p.len, framed, sizeof framed);
            if (f) { /* a payload without '$' or '#' frames again and parses to itself */
                gdb_pkt_t q;
                check(gdb_pkt_parse(framed, f, &q) == f && q.kind == GDB_PKT_PACKET && q.len == p.len &&
                          !memcmp(q.data, p.data, p.len),
                      "a framed payload does not parse back");
            }
            size_t e = gdb_escape(p.data, p.len, esc, sizeof esc);
            if (e) {
                long u = gdb_unescape(esc, e, back);
                check(u == (long)p.len && !memcmp(back, p.data, p.len), "unescape(escape(x)) != x");
            }
        }
        at += n;
    }
    /* Hex both ways on a prefix. */
    size_t h = size < 256 ? size : 256;
    char hex[512];
    uint8_t raw[256];
    gdb_hex_encode(buf, h, hex);
    check(gdb_hex_decode(hex, h, raw) && !memcmp(raw, buf, h), "hex does not round-trip");
    free(buf);
    return 0;
}
