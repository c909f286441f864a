/* test/unit/test_gdb_pkt.c — the GDB remote protocol's packet layer (debug/gdb_pkt.c): framing
 * and checksums, what comes between packets (acks, Ctrl-C, junk), damaged and oversize packets,
 * binary escapes and hex. The stub itself is tested through sockets (test/sh/t_gdb.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "debug/gdb_pkt.h"

static size_t parse_str(const char *s, gdb_pkt_t *p) { return gdb_pkt_parse((const uint8_t *)s, strlen(s), p); }

static void test_good_packet(void **state) {
    (void)state;
    gdb_pkt_t p;
    /* 'g' is 0x67: the checksum of "g" is 67 */
    assert_int_equal(parse_str("$g#67", &p), 5);
    assert_int_equal(p.kind, GDB_PKT_PACKET);
    assert_int_equal(p.len, 1);
    assert_memory_equal(p.data, "g", 1);
    /* the manual's example: $m4015bc,2#5a (checksum computed, upper-case hex accepted) */
    const char *m = "m4015bc,2";
    char buf[32];
    snprintf(buf, sizeof buf, "$%s#%02X", m, gdb_pkt_checksum((const uint8_t *)m, strlen(m)));
    assert_int_equal(parse_str(buf, &p), strlen(buf));
    assert_int_equal(p.kind, GDB_PKT_PACKET);
    assert_int_equal(p.len, strlen(m));
    assert_memory_equal(p.data, m, strlen(m));
    /* an empty payload */
    assert_int_equal(parse_str("$#00", &p), 4);
    assert_int_equal(p.kind, GDB_PKT_PACKET);
    assert_int_equal(p.len, 0);
    /* only the first packet is taken */
    assert_int_equal(parse_str("$g#67$?#3f", &p), 5);
}

static void test_between_packets(void **state) {
    (void)state;
    gdb_pkt_t p;
    assert_int_equal(parse_str("+$g#67", &p), 1);
    assert_int_equal(p.kind, GDB_PKT_ACK);
    assert_int_equal(parse_str("-", &p), 1);
    assert_int_equal(p.kind, GDB_PKT_NACK);
    assert_int_equal(parse_str("\x03", &p), 1);
    assert_int_equal(p.kind, GDB_PKT_INTERRUPT);
    /* junk runs up to the next thing that starts an item */
    assert_int_equal(parse_str("hello$g#67", &p), 5);
    assert_int_equal(p.kind, GDB_PKT_JUNK);
    assert_int_equal(parse_str("ab\x03", &p), 2);
    assert_int_equal(p.kind, GDB_PKT_JUNK);
}

static void test_need_more(void **state) {
    (void)state;
    gdb_pkt_t p;
    const char *partial[] = {"", "$", "$g", "$g#", "$g#6"};
    for (size_t i = 0; i < sizeof partial / sizeof partial[0]; i++) {
        assert_int_equal(parse_str(partial[i], &p), 0);
        assert_int_equal(p.kind, GDB_PKT_NEED_MORE);
    }
}

static void test_damaged(void **state) {
    (void)state;
    gdb_pkt_t p;
    assert_int_equal(parse_str("$g#00", &p), 5);
    assert_int_equal(p.kind, GDB_PKT_BAD_CHECKSUM);
    assert_int_equal(p.sum, 0x67);
    assert_int_equal(p.sent_sum, 0);
    assert_int_equal(parse_str("$g#zz", &p), 5);
    assert_int_equal(p.kind, GDB_PKT_BAD_CHECKSUM);
    /* a '$' inside a packet: the first was cut short, a new one starts there */
    assert_int_equal(parse_str("$ab$g#67", &p), 3);
    assert_int_equal(p.kind, GDB_PKT_JUNK);
}

static void test_oversize(void **state) {
    (void)state;
    size_t n = GDB_PKT_MAX + 8;
    uint8_t *b = malloc(n);
    assert_non_null(b);
    b[0] = '$';
    memset(b + 1, 'a', n - 1);
    gdb_pkt_t p;
    size_t k = gdb_pkt_parse(b, n, &p);
    assert_int_equal(p.kind, GDB_PKT_OVERSIZE);
    assert_true(k >= 1 && k <= n);
    /* exactly GDB_PKT_MAX bytes of payload is still a packet */
    uint8_t *q = malloc(GDB_PKT_MAX + 4);
    assert_non_null(q);
    memset(q, 'a', GDB_PKT_MAX);
    uint8_t *f = malloc(GDB_PKT_MAX + 4);
    assert_non_null(f);
    assert_int_equal(gdb_pkt_frame(q, GDB_PKT_MAX, f, GDB_PKT_MAX + 4), GDB_PKT_MAX + 4);
    assert_int_equal(gdb_pkt_parse(f, GDB_PKT_MAX + 4, &p), GDB_PKT_MAX + 4);
    assert_int_equal(p.kind, GDB_PKT_PACKET);
    assert_int_equal(p.len, GDB_PKT_MAX);
    free(b);
    free(q);
    free(f);
}

static void test_frame(void **state) {
    (void)state;
    uint8_t out[64];
    assert_int_equal(gdb_pkt_frame((const uint8_t *)"OK", 2, out, sizeof out), 6);
    assert_memory_equal(out, "$OK#9a", 6);
    /* raw '$' or '#' cannot be framed: binary data must be escaped first */
    assert_int_equal(gdb_pkt_frame((const uint8_t *)"a#b", 3, out, sizeof out), 0);
    assert_int_equal(gdb_pkt_frame((const uint8_t *)"a$b", 3, out, sizeof out), 0);
    /* does not fit */
    assert_int_equal(gdb_pkt_frame((const uint8_t *)"OK", 2, out, 5), 0);
    /* round trip */
    gdb_pkt_t p;
    const char *s = "T05thread:1;swbreak:;";
    size_t n = gdb_pkt_frame((const uint8_t *)s, strlen(s), out, sizeof out);
    assert_int_equal(gdb_pkt_parse(out, n, &p), n);
    assert_int_equal(p.kind, GDB_PKT_PACKET);
    assert_memory_equal(p.data, s, strlen(s));
}

static void test_escape(void **state) {
    (void)state;
    uint8_t all[256], esc[512], back[512];
    for (int i = 0; i < 256; i++)
        all[i] = (uint8_t)i;
    size_t n = gdb_escape(all, 256, esc, sizeof esc);
    assert_int_equal(n, 256 + 4); /* '#' '$' '*' '}' take two bytes */
    for (size_t i = 0; i < n; i++)
        assert_true(esc[i] != '$' && esc[i] != '#' && esc[i] != '*');
    assert_int_equal(gdb_unescape(esc, n, back), 256);
    assert_memory_equal(back, all, 256);
    /* in place */
    assert_int_equal(gdb_unescape(esc, n, esc), 256);
    assert_memory_equal(esc, all, 256);
    /* an escape cut short, and no room */
    assert_int_equal(gdb_unescape((const uint8_t *)"ab}", 3, back), -1);
    assert_int_equal(gdb_escape((const uint8_t *)"}", 1, esc, 1), 0);
    /* escaped binary data frames and parses */
    uint8_t f[600];
    size_t fl = gdb_pkt_frame(esc, gdb_escape(all, 256, esc, sizeof esc), f, sizeof f);
    assert_true(fl > 0);
    gdb_pkt_t p;
    assert_int_equal(gdb_pkt_parse(f, fl, &p), fl);
    assert_int_equal(p.kind, GDB_PKT_PACKET);
    assert_int_equal(gdb_unescape(p.data, p.len, back), 256);
    assert_memory_equal(back, all, 256);
}

static void test_hex(void **state) {
    (void)state;
    uint8_t b[4] = {0x00, 0x1f, 0xa0, 0xff}, d[4];
    char h[9] = {0};
    gdb_hex_encode(b, 4, h);
    assert_string_equal(h, "001fa0ff");
    assert_true(gdb_hex_decode("001FA0ff", 4, d));
    assert_memory_equal(d, b, 4);
    assert_false(gdb_hex_decode("00g1", 2, d));
    assert_false(gdb_hex_decode("0", 1, d)); /* stops at the NUL, not past it */

    const char *s = "6078,4";
    uint32_t v;
    assert_true(gdb_hex_u32(&s, &v));
    assert_int_equal(v, 0x6078);
    assert_string_equal(s, ",4");
    s = "ffffffff";
    assert_true(gdb_hex_u32(&s, &v));
    assert_int_equal(v, 0xffffffffu);
    s = "123456789"; /* 9 digits: more than 32 bits */
    assert_false(gdb_hex_u32(&s, &v));
    s = ",1";
    assert_false(gdb_hex_u32(&s, &v));
    assert_string_equal(s, ",1");
}

/* Any bytes: every call takes at least one byte unless it needs more, and never more than it was
 * given (ASan checks the reads in the sanitizer pass). */
static void test_any_bytes(void **state) {
    (void)state;
    uint32_t x = 12345;
    uint8_t buf[300];
    static const uint8_t alphabet[] = {'$', '#', '+', '-', 3, '}', 'g', '0', '6', '7', 'a', 'z'};
    for (int round = 0; round < 2000; round++) {
        size_t n = (size_t)(round % 300);
        for (size_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            buf[i] = (round & 1) ? alphabet[(x >> 16) % sizeof alphabet] : (uint8_t)(x >> 16);
        }
        size_t off = 0;
        while (off < n) {
            gdb_pkt_t p;
            size_t k = gdb_pkt_parse(buf + off, n - off, &p);
            if (k == 0) {
                assert_int_equal(p.kind, GDB_PKT_NEED_MORE);
                break;
            }
            assert_true(k <= n - off);
            if (p.kind == GDB_PKT_PACKET) {
                assert_true(p.data == buf + off + 1 && p.len + 4 == k);
                assert_int_equal(p.sum, gdb_pkt_checksum(p.data, p.len));
            }
            off += k;
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_packet), cmocka_unit_test(test_between_packets),
        cmocka_unit_test(test_need_more),   cmocka_unit_test(test_damaged),
        cmocka_unit_test(test_oversize),    cmocka_unit_test(test_frame),
        cmocka_unit_test(test_escape),      cmocka_unit_test(test_hex),
        cmocka_unit_test(test_any_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
