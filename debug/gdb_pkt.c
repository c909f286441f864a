/* debug/gdb_pkt.c — the RSP packet layer (debug/gdb_pkt.h): pure functions, no I/O. */
#include <string.h>

#include "debug/gdb_pkt.h"

static int hex_val(uint8_t c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

uint8_t gdb_pkt_checksum(const uint8_t *data, size_t len) {
    uint8_t s = 0;
    for (size_t i = 0; i < len; i++)
        s = (uint8_t)(s + data[i]);
    return s;
}

/* The bytes that start something outside a packet. */
static bool starts_item(uint8_t c) { return c == '$' || c == '+' || c == '-' || c == 0x03; }

size_t gdb_pkt_parse(const uint8_t *buf, size_t len, gdb_pkt_t *out) {
    memset(out, 0, sizeof *out);
    out->kind = GDB_PKT_NEED_MORE;
    if (len == 0) return 0;
    switch (buf[0]) {
    case '+': out->kind = GDB_PKT_ACK; return 1;
    case '-': out->kind = GDB_PKT_NACK; return 1;
    case 0x03: out->kind = GDB_PKT_INTERRUPT; return 1;
    case '$': break;
    default: {
        size_t i = 1;
        while (i < len && !starts_item(buf[i]))
            i++;
        out->kind = GDB_PKT_JUNK;
        return i;
    }
    }
    /* A payload never holds a raw '$' or '#' (binary data escapes them): a '$' before the '#'
     * means the packet was cut short and a new one starts there, as gdb's own reader assumes. */
    size_t i = 1;
    while (i < len && buf[i] != '#' && buf[i] != '$' && i - 1 <= GDB_PKT_MAX)
        i++;
    if (i - 1 > GDB_PKT_MAX) {
        out->kind = GDB_PKT_OVERSIZE;
        return i;
    }
    if (i == len) return 0;
    if (buf[i] == '$') {
        out->kind = GDB_PKT_JUNK;
        return i;
    }
    if (len - i < 3) return 0; /* '#' and two checksum digits */
    out->data = buf + 1;
    out->len = i - 1;
    out->sum = gdb_pkt_checksum(out->data, out->len);
    int hi = hex_val(buf[i + 1]), lo = hex_val(buf[i + 2]);
    if (hi < 0 || lo < 0) {
        out->kind = GDB_PKT_BAD_CHECKSUM;
        out->sent_sum = 0;
        return i + 3;
    }
    out->sent_sum = (uint8_t)(hi << 4 | lo);
    out->kind = out->sent_sum == out->sum ? GDB_PKT_PACKET : GDB_PKT_BAD_CHECKSUM;
    return i + 3;
}

size_t gdb_pkt_frame(const uint8_t *payload, size_t len, uint8_t *out, size_t cap) {
    if (cap < 4 || len > cap - 4) return 0;
    for (size_t i = 0; i < len; i++)
        if (payload[i] == '$' || payload[i] == '#') return 0;
    static const char digits[] = "0123456789abcdef";
    uint8_t s = gdb_pkt_checksum(payload, len);
    out[0] = '$';
    memcpy(out + 1, payload, len);
    out[len + 1] = '#';
    out[len + 2] = (uint8_t)digits[s >> 4];
    out[len + 3] = (uint8_t)digits[s & 15];
    return len + 4;
}

size_t gdb_escape(const uint8_t *in, size_t len, uint8_t *out, size_t cap) {
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        uint8_t c = in[i];
        bool esc = c == '}' || c == '$' || c == '#' || c == '*';
        if (o + (esc ? 2 : 1) > cap) return 0;
        if (esc) {
            out[o++] = '}';
            c ^= 0x20;
        }
        out[o++] = c;
    }
    return o;
}

long gdb_unescape(const uint8_t *in, size_t len, uint8_t *out) {
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        uint8_t c = in[i];
        if (c == '}') {
            if (++i == len) return -1;
            c = in[i] ^ 0x20;
        }
        out[o++] = c; /* o <= i: writing in place never overtakes reading */
    }
    return (long)o;
}

void gdb_hex_encode(const uint8_t *in, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
}

bool gdb_hex_decode(const char *in, size_t n, uint8_t *out) {
    for (size_t i = 0; i < n; i++) {
        int hi = hex_val((uint8_t)in[2 * i]);
        if (hi < 0) return false; /* a NUL ends a short string here, before the next byte is read */
        int lo = hex_val((uint8_t)in[2 * i + 1]);
        if (lo < 0) return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

bool gdb_hex_u32(const char **s, uint32_t *out) {
    const char *p = *s;
    uint32_t v = 0;
    int n = 0;
    for (int d; (d = hex_val((uint8_t)*p)) >= 0; p++, n++) {
        if (n == 8) return false;
        v = v << 4 | (uint32_t)d;
    }
    if (n == 0) return false;
    *out = v;
    *s = p;
    return true;
}
