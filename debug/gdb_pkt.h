/* debug/gdb_pkt.h — the GDB Remote Serial Protocol's packet layer: framing, checksums, binary
 * escapes and hex. Pure functions over buffers (no sockets, no tile), so the unit tests and a
 * fuzzer can drive them directly; debug/gdb.c is the stub that uses them.
 *
 * The wire format (gdb manual, "Remote Protocol" > "Overview"): a packet is `$payload#cc`, cc the
 * two hex digits of the payload's byte sum modulo 256; the receiver answers `+` (good) or `-`
 * (resend). Outside packets gdb sends `+`/`-` and the interrupt byte 0x03 (Ctrl-C). Binary data
 * (X packets, qXfer replies) escapes `}` `$` `#` `*` as `}` followed by the byte XOR 0x20.
 */
#ifndef TTEMU_DEBUG_GDB_PKT_H
#define TTEMU_DEBUG_GDB_PKT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest payload the stub takes (qSupported says PacketSize=4000, hex; gdb's X packets fill
 * it with escaped data, so a few bytes of slack for the header). */
#define GDB_PKT_MAX 0x4000

typedef enum {
    GDB_PKT_NEED_MORE,    /* the buffer ends inside a packet: read more (nothing consumed) */
    GDB_PKT_ACK,          /* '+' */
    GDB_PKT_NACK,         /* '-': resend the last packet */
    GDB_PKT_INTERRUPT,    /* 0x03 outside a packet: Ctrl-C */
    GDB_PKT_PACKET,       /* $payload#cc with the right checksum: data/len */
    GDB_PKT_BAD_CHECKSUM, /* a whole packet whose checksum is wrong or not hex: answer '-' */
    GDB_PKT_OVERSIZE,     /* '$' and more than GDB_PKT_MAX bytes without '#': dropped, answer '-' */
    GDB_PKT_JUNK,         /* bytes that are none of the above (skipped up to the next '$', '+', '-', 0x03) */
} gdb_pkt_kind_t;

typedef struct {
    gdb_pkt_kind_t kind;
    const uint8_t *data; /* GDB_PKT_PACKET: the payload as sent (escapes not undone), inside buf */
    size_t len;
    uint8_t sum, sent_sum; /* GDB_PKT_BAD_CHECKSUM: what the payload sums to, and what was sent */
} gdb_pkt_t;

/* Parse the first item of buf[0..len): returns the bytes it takes (0 only for GDB_PKT_NEED_MORE,
 * otherwise at least 1), with out describing it. Never reads past len. */
size_t gdb_pkt_parse(const uint8_t *buf, size_t len, gdb_pkt_t *out);

/* The checksum of a payload. */
uint8_t gdb_pkt_checksum(const uint8_t *data, size_t len);

/* Frame a payload as $payload#cc into out (cap bytes). Returns the framed length, or 0 if it does
 * not fit or the payload holds '$' or '#' (escape binary data first: gdb_escape). */
size_t gdb_pkt_frame(const uint8_t *payload, size_t len, uint8_t *out, size_t cap);

/* Escape binary data for a packet ('}' '$' '#' '*' become '}', c ^ 0x20). Returns the escaped
 * length, or 0 when it does not fit in cap (or len is 0). */
size_t gdb_escape(const uint8_t *in, size_t len, uint8_t *out, size_t cap);
/* Undo the escapes in place-safe fashion (out may equal in). Returns the length, or -1 when the
 * data ends in a lone '}'. */
long gdb_unescape(const uint8_t *in, size_t len, uint8_t *out);

/* Lower-case hex of n bytes into out (2n chars, no terminator added). */
void gdb_hex_encode(const uint8_t *in, size_t n, char *out);
/* n bytes from 2n hex digits; false on a non-hex digit. */
bool gdb_hex_decode(const char *in, size_t n, uint8_t *out);
/* A hex number of at most 8 digits (no prefix) starting at *s: advances *s past it. False when
 * there is no digit or more than 8. */
bool gdb_hex_u32(const char **s, uint32_t *out);

#endif
