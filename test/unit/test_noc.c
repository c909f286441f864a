/* test/unit/test_noc.c — the NIUs (mmio/noc.c) and DRAM (mmio/dram.c): every request form and the
 * counters each moves (BlackholeA0/NoC/Counters.md), at the cycles the latency model fixes
 * (docs/noc.md "Timing"); lengths and addresses tt-metal allows that are not multiples of 16,
 * transfers across DRAM pages and across 16 KiB packets, atomics, the DRAM ports' aliasing,
 * broadcasts to this tile, and the refusals: other tiles, bad alignment, unsafe forms. Requests are
 * written by the host (tile_host_write) or by a core's stores (an RV32 program in L1); a request
 * in flight must keep every run path (reference, fast, idle fast-forward) in step. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test/unit/rv_enc.h"
#include "tile/tile.h"

enum { ZERO = 0, T0 = 5, T1 = 6, T2 = 7 };

#define SELF      (2u << 6 | 1u)                  /* this tile: x 1, y 2 */
#define DRAM0     (12u << 6 | 17u)                /* bank 0, port 0 */
#define OTHER     (7u << 6 | 5u)                  /* a tile not modelled */
#define CTRL_RD   0x10u                           /* read, RESP_MARKED (reads always answer) */
#define CTRL_WR   0x12u                           /* write, non-posted */
#define CTRL_WRP  0x02u                           /* write, posted */
#define CTRL_INL  0x1Au                           /* inline write, non-posted */
#define CTRL_AT   0x11u                           /* atomic, non-posted */
#define CTRL_MC   (1u << 5 | 1u << 17 | 1u << 8)  /* broadcast, source included, path reserve */
#define INCR(w)   (1u << 12 | (uint32_t)(w) << 2) /* NOC_AT_INS_INCR_GET, IntWidth w, Ofs 0 */
#define CAS(c, s) (4u << 12 | (uint32_t)(s) << 6 | (uint32_t)(c) << 2)

/* Latencies of docs/noc.md: one way to this tile, and to DRAM. */
#define PATH_SELF (2 * NOC_LAT_NIU)
#define PATH_DRAM (2 * NOC_LAT_NIU + NOC_DRAM_HOPS * NOC_LAT_HOP)

static uint32_t niu(int noc, unsigned buf, uint32_t off) {
    return 0xFFB20000u + 0x10000u * (uint32_t)noc + 0x800u * buf + off;
}

static void reg(tile_t *t, int noc, unsigned buf, uint32_t off, uint32_t v) {
    assert_true(tile_host_write(t, niu(noc, buf, off), v));
}

static uint32_t rd(tile_t *t, uint32_t addr) {
    uint32_t v = 0;
    assert_true(tile_host_read(t, addr, &v));
    return v;
}

static uint32_t ctr(tile_t *t, int noc, unsigned c) { return rd(t, niu(noc, 0, 0x200 + 4 * c)); }

typedef struct {
    uint32_t targ_hi, ret_hi, ctrl, len, at_data, tag;
    uint64_t targ, ret;
} req_t;

/* Program initiator buf of NIU noc with q and write NOC_CMD_CTRL: true if the NIU took it. */
static bool issue(tile_t *t, int noc, unsigned buf, req_t q) {
    reg(t, noc, buf, NOC_TARG_ADDR_LO, (uint32_t)q.targ);
    reg(t, noc, buf, NOC_TARG_ADDR_MID, (uint32_t)(q.targ >> 32));
    reg(t, noc, buf, NOC_TARG_ADDR_HI, q.targ_hi);
    reg(t, noc, buf, NOC_RET_ADDR_LO, (uint32_t)q.ret);
    reg(t, noc, buf, NOC_RET_ADDR_MID, (uint32_t)(q.ret >> 32));
    reg(t, noc, buf, NOC_RET_ADDR_HI, q.ret_hi);
    reg(t, noc, buf, NOC_PACKET_TAG, q.tag);
    reg(t, noc, buf, NOC_CTRL, q.ctrl);
    reg(t, noc, buf, NOC_AT_LEN_BE, q.len);
    reg(t, noc, buf, NOC_AT_DATA, q.at_data);
    return tile_host_write(t, niu(noc, buf, NOC_CMD_CTRL), 1);
}

static void cycles(tile_t *t, uint64_t n) {
    for (uint64_t i = 0; i < n; i++)
        tile_cycle(t);
}

static void drain(tile_t *t) {
    for (int i = 0; i < 1000000 && !noc_idle(&t->noc); i++)
        tile_cycle(t);
    assert_true(noc_idle(&t->noc));
}

static tile_t *new_tile(void) {
    tile_t *t = tile_create(NULL);
    assert_non_null(t);
    return t;
}

static void fill_l1(tile_t *t, uint32_t addr, uint32_t n, uint8_t seed) {
    for (uint32_t i = 0; i < n; i++)
        t->l1[addr + i] = (uint8_t)(seed + 7 * i);
}

/* ---- reads ---------------------------------------------------------------------------------- */

/* A 2 KiB read of DRAM bank 0 into L1: the counters move at their stages, the data lands with
 * the response, exactly at the cycle the latency model says. */
static void read_dram_timing_and_counters(void **state) {
    (void)state;
    tile_t *t = new_tile();
    uint8_t page[2048];
    for (int i = 0; i < 2048; i++)
        page[i] = (uint8_t)(i * 3 + 1);
    assert_true(dram_write(t->dram, 0, 0x100000, page, sizeof page));
    cycles(t, 5);
    uint64_t t0 = t->cycle;
    assert_true(issue(
        t, 0, 1,
        (req_t){.targ = 0x100000, .targ_hi = DRAM0, .ret = 0x20000, .ret_hi = SELF, .ctrl = CTRL_RD, .len = 2048}));
    /* as software writes NOC_CMD_CTRL: outstanding +1; the initiator is busy until accepted */
    assert_int_equal(ctr(t, 0, NIU_MST_REQS_OUTSTANDING_ID0), 1);
    assert_int_equal(rd(t, niu(0, 1, NOC_CMD_CTRL)), 1);
    assert_int_equal(ctr(t, 0, NIU_MST_CMD_ACCEPTED), 0);
    cycles(t, 1);
    assert_int_equal(rd(t, niu(0, 1, NOC_CMD_CTRL)), 0);
    assert_int_equal(ctr(t, 0, NIU_MST_CMD_ACCEPTED), 1);
    assert_int_equal(ctr(t, 0, NIU_MST_RD_REQ_STARTED), 1);
    assert_int_equal(ctr(t, 0, NIU_MST_RD_REQ_SENT), 0);
    cycles(t, 1);
    assert_int_equal(ctr(t, 0, NIU_MST_RD_REQ_SENT), 1);
    uint64_t done = t0 + 2 + PATH_DRAM + NOC_DRAM_READ_LATENCY + PATH_DRAM + 2048 / 64;
    cycles(t, done - 1 - t->cycle);
    assert_int_equal(ctr(t, 0, NIU_MST_RD_RESP_RECEIVED), 0);
    assert_int_equal(t->l1[0x20000], 0); /* not before the response */
    assert_false(noc_idle(&t->noc));
    assert_int_equal(noc_pending_for(&t->noc, 0, NIU_MST_RD_RESP_RECEIVED), 1);
    cycles(t, 1);
    assert_int_equal(t->cycle, done);
    assert_int_equal(ctr(t, 0, NIU_MST_RD_RESP_RECEIVED), 1);
    assert_int_equal(ctr(t, 0, NIU_MST_RD_DATA_WORD_RECEIVED), 32);
    assert_int_equal(ctr(t, 0, NIU_MST_REQS_OUTSTANDING_ID0), 0);
    assert_memory_equal(t->l1 + 0x20000, page, sizeof page);
    assert_true(noc_idle(&t->noc));
    /* outstanding went from 1 to 0: its bit in NIU_TRANS_COUNT_RTZ_SOURCE, cleared by RTZ_CLR */
    assert_int_equal(rd(t, 0xFFB2037C), 1);
    assert_true(tile_host_write(t, 0xFFB2017C, 1));
    assert_int_equal(rd(t, 0xFFB2037C), 0);
    dram_stats_t st;
    dram_stats(t->dram, &st);
    assert_int_equal(st.bytes_read, 2048);
    assert_int_equal(st.unwritten_reads, 0);
    tile_destroy(t);
}

/* Lengths and addresses tt-metal allows: any length, addresses congruent mod 16 (L1) or mod 64
 * (DRAM reads); a read that crosses DRAM's 4 KiB pages; never-written DRAM reads zero, counted. */
static void read_unaligned_and_page_crossing(void **state) {
    (void)state;
    tile_t *t = new_tile();
    fill_l1(t, 0x1004, 100, 9);
    assert_true(issue(
        t, 0, 1, (req_t){.targ = 0x1004, .targ_hi = SELF, .ret = 0x2004, .ret_hi = SELF, .ctrl = CTRL_RD, .len = 100}));
    drain(t);
    assert_memory_equal(t->l1 + 0x2004, t->l1 + 0x1004, 100);
    assert_int_equal(t->l1[0x2004 + 100], 0);
    assert_int_equal(ctr(t, 0, NIU_MST_RD_DATA_WORD_RECEIVED), 2); /* 100 bytes: two flits */
    /* loopback counts at this tile's NIU as the receiver too */
    assert_int_equal(ctr(t, 0, NIU_SLV_RD_REQ_RECEIVED), 1);

    uint8_t buf[300];
    for (int i = 0; i < 300; i++)
        buf[i] = (uint8_t)(255 - i);
    assert_true(dram_write(t->dram, 3, 0x1FC0 + 0x1000, buf, sizeof buf)); /* 0x2FC0..0x30EC: two pages */
    unsigned x, y;
    dram_port_xy(1, 0, &x, &y);
    assert_true(issue(t, 0, 1,
                      (req_t){.targ = 0x2FC0,
                              .targ_hi = y << 6 | x, /* bank 1 */
                              .ret = 0x4000,
                              .ret_hi = SELF,
                              .ctrl = CTRL_RD,
                              .len = 64}));
    drain(t);
    assert_int_equal(t->l1[0x4000], 0); /* bank 1 was never written: zeros */
    dram_stats_t st;
    dram_stats(t->dram, &st);
    assert_int_equal(st.unwritten_reads, 1);
    assert_int_equal(st.unwritten_bytes, 64);
    dram_port_xy(3, 1, &x, &y);
    assert_true(issue(
        t, 0, 1,
        (req_t){.targ = 0x2FC0, .targ_hi = y << 6 | x, .ret = 0x4040, .ret_hi = SELF, .ctrl = CTRL_RD, .len = 300}));
    drain(t);
    assert_memory_equal(t->l1 + 0x4040, buf, sizeof buf);
    dram_stats(t->dram, &st);
    assert_int_equal(st.unwritten_reads, 1); /* every byte of that one was written */
    tile_destroy(t);
}

/* Longer than 16 KiB: split into packets (Counters.md "Automatic request splitting"). */
static void read_split_into_packets(void **state) {
    (void)state;
    tile_t *t = new_tile();
    uint8_t *big = malloc(40000);
    assert_non_null(big);
    for (int i = 0; i < 40000; i++)
        big[i] = (uint8_t)(i ^ (i >> 8));
    assert_true(dram_write(t->dram, 2, 0x40, big, 40000));
    unsigned x, y;
    dram_port_xy(2, 2, &x, &y);
    assert_true(issue(t, 0, 1,
                      (req_t){.targ = 0x40,
                              .targ_hi = y << 6 | x,
                              .ret = 0x40000,
                              .ret_hi = SELF,
                              .ctrl = CTRL_RD,
                              .len = 40000,
                              .tag = 5u << 10}));
    assert_int_equal(ctr(t, 0, NIU_MST_REQS_OUTSTANDING_ID0 + 5), 3); /* all at once, by packets */
    cycles(t, 3);
    assert_int_equal(ctr(t, 0, NIU_MST_CMD_ACCEPTED), 3);
    drain(t);
    assert_int_equal(ctr(t, 0, NIU_MST_RD_RESP_RECEIVED), 3);
    assert_int_equal(ctr(t, 0, NIU_MST_REQS_OUTSTANDING_ID0 + 5), 0);
    assert_int_equal(rd(t, 0xFFB2037C), 1u << 5);
    assert_memory_equal(t->l1 + 0x40000, big, 40000);
    /* unaligned, it must not split */
    assert_false(issue(
        t, 0, 1,
        (req_t){.targ = 0x50, .targ_hi = y << 6 | x, .ret = 0x40010, .ret_hi = SELF, .ctrl = CTRL_RD, .len = 20000}));
    assert_non_null(strstr(t->noc.error, "64-byte aligned"));
    free(big);
    tile_destroy(t);
}

/* Payload buffers are kept from landed packets for the next ones (noc_t.spare): a small read,
 * then two split reads of three packets each, the second's three in flight at once on buffers the
 * first left (each must have its own), then writes on them; every byte lands as sent. */
static void buffers_reused(void **state) {
    (void)state;
    tile_t *t = new_tile();
    uint8_t *big = malloc(2 * 40000);
    assert_non_null(big);
    for (int i = 0; i < 2 * 40000; i++)
        big[i] = (uint8_t)(i * 13 ^ (i >> 7));
    assert_true(dram_write(t->dram, 2, 0x40, big, 2 * 40000));
    unsigned x, y;
    dram_port_xy(2, 0, &x, &y);
    const struct {
        uint64_t from, to;
        uint32_t len;
    } reads[] = {{0x40 + 64, 0x40000, 100}, {0x40, 0x40000, 40000}, {0x40 + 40000, 0x60000, 40000}};
    for (unsigned i = 0; i < 3; i++) {
        assert_true(issue(t, 0, 1,
                          (req_t){.targ = reads[i].from,
                                  .targ_hi = y << 6 | x,
                                  .ret = reads[i].to,
                                  .ret_hi = SELF,
                                  .ctrl = CTRL_RD,
                                  .len = reads[i].len}));
        drain(t);
        assert_memory_equal(t->l1 + reads[i].to, big + (reads[i].from - 0x40), reads[i].len);
    }
    assert_true(issue(
        t, 1, 0,
        (req_t){
            .targ = 0x60000, .targ_hi = SELF, .ret = 0x100000, .ret_hi = y << 6 | x, .ctrl = CTRL_WR, .len = 40000}));
    drain(t);
    uint8_t *back = malloc(40000);
    assert_non_null(back);
    dram_peek(t->dram, 2, 0x100000, back, 40000);
    assert_memory_equal(back, big + 40000, 40000);
    free(back);
    free(big);
    tile_destroy(t);
}

/* ---- writes ------------------------------------------------------------------------------------ */

/* Non-posted write L1 -> DRAM: outgoing until its data is read, sent counters, then the ack. */
static void write_nonposted_to_dram(void **state) {
    (void)state;
    tile_t *t = new_tile();
    fill_l1(t, 0x30000, 2048, 1);
    uint64_t t0 = t->cycle;
    assert_true(issue(
        t, 1, 0,
        (req_t){.targ = 0x30000, .targ_hi = SELF, .ret = 0x300000, .ret_hi = DRAM0, .ctrl = CTRL_WR, .len = 2048}));
    assert_int_equal(ctr(t, 1, NIU_MST_WRITE_REQS_OUTGOING_ID0), 1);
    assert_int_equal(ctr(t, 1, NIU_MST_REQS_OUTSTANDING_ID0), 1);
    cycles(t, 1);
    assert_int_equal(ctr(t, 1, NIU_MST_NONPOSTED_WR_REQ_STARTED), 1);
    assert_int_equal(ctr(t, 1, NIU_MST_NONPOSTED_WR_REQ_SENT), 0);
    cycles(t, 32); /* the 32 data flits leave behind the header */
    assert_int_equal(t->cycle, t0 + 1 + 32);
    assert_int_equal(ctr(t, 1, NIU_MST_NONPOSTED_WR_REQ_SENT), 1);
    assert_int_equal(ctr(t, 1, NIU_MST_NONPOSTED_WR_DATA_WORD_SENT), 32);
    assert_int_equal(ctr(t, 1, NIU_MST_WRITE_REQS_OUTGOING_ID0), 0);
    /* The source was read when the data left: changing it now changes nothing. */
    memset(t->l1 + 0x30000, 0xEE, 2048);
    cycles(t, PATH_DRAM + NOC_DRAM_WRITE_LATENCY + PATH_DRAM - 1);
    assert_int_equal(ctr(t, 1, NIU_MST_WR_ACK_RECEIVED), 0);
    cycles(t, 1);
    assert_int_equal(ctr(t, 1, NIU_MST_WR_ACK_RECEIVED), 1);
    assert_int_equal(ctr(t, 1, NIU_MST_REQS_OUTSTANDING_ID0), 0);
    assert_true(noc_idle(&t->noc));
    uint8_t got[2048], want[2048];
    for (int i = 0; i < 2048; i++)
        want[i] = (uint8_t)(1 + 7 * i);
    dram_peek(t->dram, 0, 0x300000, got, sizeof got);
    assert_memory_equal(got, want, sizeof got);
    tile_destroy(t);
}

/* Posted writes: no acknowledgement, nothing outstanding; a 13-byte L1 -> L1 write at addresses
 * congruent mod 16; the NIU injects one packet at a time. */
static void write_posted_and_port_serial(void **state) {
    (void)state;
    tile_t *t = new_tile();
    fill_l1(t, 0x3008, 13, 40);
    assert_true(issue(
        t, 0, 0, (req_t){.targ = 0x3008, .targ_hi = SELF, .ret = 0x4018, .ret_hi = SELF, .ctrl = CTRL_WRP, .len = 13}));
    /* a second request on another initiator waits for the port: header + 1 flit */
    assert_true(issue(
        t, 0, 2, (req_t){.targ = 0x3008, .targ_hi = SELF, .ret = 0x5008, .ret_hi = SELF, .ctrl = CTRL_WRP, .len = 13}));
    assert_int_equal(ctr(t, 0, NIU_MST_REQS_OUTSTANDING_ID0), 0);
    cycles(t, 1);
    assert_int_equal(rd(t, niu(0, 0, NOC_CMD_CTRL)), 0);
    assert_int_equal(rd(t, niu(0, 2, NOC_CMD_CTRL)), 1);
    cycles(t, 1);
    assert_int_equal(rd(t, niu(0, 2, NOC_CMD_CTRL)), 1);
    cycles(t, 1);
    assert_int_equal(rd(t, niu(0, 2, NOC_CMD_CTRL)), 0);
    drain(t);
    assert_memory_equal(t->l1 + 0x4018, t->l1 + 0x3008, 13);
    assert_memory_equal(t->l1 + 0x5008, t->l1 + 0x3008, 13);
    assert_int_equal(t->l1[0x4018 + 13], 0);
    assert_int_equal(ctr(t, 0, NIU_MST_POSTED_WR_REQ_SENT), 2);
    assert_int_equal(ctr(t, 0, NIU_MST_WR_ACK_RECEIVED), 0);
    assert_int_equal(ctr(t, 0, NIU_SLV_POSTED_WR_REQ_RECEIVED), 2);
    /* an initiator written again before it accepted its request: refused */
    assert_true(issue(
        t, 0, 0, (req_t){.targ = 0x3008, .targ_hi = SELF, .ret = 0x4018, .ret_hi = SELF, .ctrl = CTRL_WRP, .len = 13}));
    assert_false(tile_host_write(t, niu(0, 0, NOC_CMD_CTRL), 1));
    assert_non_null(strstr(t->noc.error, "not yet accepted"));
    drain(t);
    tile_destroy(t);
}

/* Inline writes reach registers (a stream register here); into L1 they are refused (unsafe on
 * Blackhole). Byte-enable writes write the enabled bytes of 64. */
static void write_inline_and_byte_enable(void **state) {
    (void)state;
    tile_t *t = new_tile();
    assert_true(issue(t, 0, 2, (req_t){.targ = 0xFFB48028, .targ_hi = SELF, .ctrl = CTRL_INL, .at_data = 77}));
    drain(t);
    assert_int_equal(rd(t, 0xFFB48028), 77);
    assert_int_equal(ctr(t, 0, NIU_MST_WR_ACK_RECEIVED), 1);
    assert_int_equal(ctr(t, 0, NIU_MST_NONPOSTED_WR_REQ_SENT), 1);
    assert_false(issue(t, 0, 2, (req_t){.targ = 0x1000, .targ_hi = SELF, .ctrl = CTRL_INL, .at_data = 1}));
    assert_non_null(strstr(t->noc.error, "unsafe on Blackhole"));
    /* byte enables: bytes 0 and 1 of the 64 at 0x6000 (addresses rounded down to 16) */
    fill_l1(t, 0x3000, 64, 100);
    assert_true(issue(
        t, 0, 0,
        (req_t){
            .targ = 0x3004, .targ_hi = SELF, .ret = 0x6008, .ret_hi = SELF, .ctrl = CTRL_WR | 1u << 2, .len = 0x3}));
    drain(t);
    assert_int_equal(t->l1[0x6000], t->l1[0x3000]);
    assert_int_equal(t->l1[0x6001], t->l1[0x3001]);
    assert_int_equal(t->l1[0x6002], 0);
    tile_destroy(t);
}

/* ---- atomics ---------------------------------------------------------------------------------- */

static void atomics(void **state) {
    (void)state;
    tile_t *t = new_tile();
    uint32_t v = 41;
    memcpy(t->l1 + 0x7000, &v, 4);
    assert_true(issue(t, 0, 3,
                      (req_t){.targ = 0x7000,
                              .targ_hi = SELF,
                              .ret = 4,
                              .ret_hi = SELF,
                              .ctrl = CTRL_AT,
                              .len = INCR(31),
                              .at_data = 1}));
    assert_int_equal(ctr(t, 0, NIU_MST_REQS_OUTSTANDING_ID0), 1);
    drain(t);
    assert_int_equal(rd(t, 0x7000), 42);
    assert_int_equal(rd(t, 4), 41); /* the old value, at the return address */
    assert_int_equal(ctr(t, 0, NIU_MST_ATOMIC_RESP_RECEIVED), 1);
    assert_int_equal(ctr(t, 0, NIU_MST_NONPOSTED_ATOMIC_SENT), 1);
    assert_int_equal(ctr(t, 0, NIU_MST_REQS_OUTSTANDING_ID0), 0);
    /* IntWidth 7: the increment wraps within the low 8 bits */
    v = 0x123456FF;
    memcpy(t->l1 + 0x7004, &v, 4);
    assert_true(issue(t, 0, 3,
                      (req_t){.targ = 0x7004,
                              .targ_hi = SELF,
                              .ctrl = 0x01, /* posted */
                              .len = INCR(7) | 1u,
                              .at_data = 2}));
    drain(t);
    assert_int_equal(rd(t, 0x7004), 0x12345601);
    assert_int_equal(ctr(t, 0, NIU_MST_POSTED_ATOMIC_SENT), 1);
    assert_int_equal(ctr(t, 0, NIU_MST_ATOMIC_RESP_RECEIVED), 1);
    /* compare and swap: 42 != 3, no change; then 3 == 3 */
    assert_true(
        issue(t, 0, 3,
              (req_t){.targ = 0x7000, .targ_hi = SELF, .ret = 8, .ret_hi = SELF, .ctrl = CTRL_AT, .len = CAS(3, 9)}));
    drain(t);
    assert_int_equal(rd(t, 0x7000), 42);
    v = 3;
    memcpy(t->l1 + 0x7000, &v, 4);
    assert_true(
        issue(t, 0, 3,
              (req_t){.targ = 0x7000, .targ_hi = SELF, .ret = 8, .ret_hi = SELF, .ctrl = CTRL_AT, .len = CAS(3, 9)}));
    drain(t);
    assert_int_equal(rd(t, 0x7000), 9);
    assert_int_equal(rd(t, 8), 3);
    /* atomics act on L1 only */
    assert_false(issue(t, 0, 3,
                       (req_t){.targ = 0x100,
                               .targ_hi = DRAM0,
                               .ret = 8,
                               .ret_hi = SELF,
                               .ctrl = CTRL_AT,
                               .len = INCR(31),
                               .at_data = 1}));
    assert_non_null(strstr(t->noc.error, "L1 words only"));
    tile_destroy(t);
}

/* One request of every form to this tile, then every counter of both sides (Counters.md). */
static void every_counter(void **state) {
    (void)state;
    tile_t *t = new_tile();
    fill_l1(t, 0x3000, 256, 1);
    req_t rq[] = {
        {.targ = 0x3000, .targ_hi = SELF, .ret = 0x4000, .ret_hi = SELF, .ctrl = CTRL_RD, .len = 100},
        {.targ = 0x3000, .targ_hi = SELF, .ret = 0x5000, .ret_hi = SELF, .ctrl = CTRL_WR, .len = 64},
        {.targ = 0x3000, .targ_hi = SELF, .ret = 0x6000, .ret_hi = SELF, .ctrl = CTRL_WRP, .len = 130},
        {.targ = 0xFFB48020, .targ_hi = SELF, .ctrl = CTRL_INL, .at_data = 3},
        {.targ = 0xFFB48024, .targ_hi = SELF, .ctrl = CTRL_INL & ~0x10u, .at_data = 4},
        {.targ = 0x7000,
         .targ_hi = SELF,
         .ret = 0x7010,
         .ret_hi = SELF,
         .ctrl = CTRL_AT,
         .len = INCR(31),
         .at_data = 1},
        {.targ = 0x7000, .targ_hi = SELF, .ctrl = 0x01, .len = INCR(31), .at_data = 1},
    };
    for (size_t i = 0; i < sizeof rq / sizeof rq[0]; i++) {
        assert_true(issue(t, 0, (unsigned)i % 4, rq[i]));
        drain(t);
    }
    static const uint32_t mst[16] = {
        [NIU_MST_ATOMIC_RESP_RECEIVED] = 1,
        [NIU_MST_WR_ACK_RECEIVED] = 2,
        [NIU_MST_RD_RESP_RECEIVED] = 1,
        [NIU_MST_RD_DATA_WORD_RECEIVED] = 2,
        [NIU_MST_CMD_ACCEPTED] = 7,
        [NIU_MST_RD_REQ_SENT] = 1,
        [NIU_MST_NONPOSTED_ATOMIC_SENT] = 1,
        [NIU_MST_POSTED_ATOMIC_SENT] = 1,
        [NIU_MST_NONPOSTED_WR_DATA_WORD_SENT] = 1,
        [NIU_MST_POSTED_WR_DATA_WORD_SENT] = 3,
        [NIU_MST_NONPOSTED_WR_REQ_SENT] = 2,
        [NIU_MST_POSTED_WR_REQ_SENT] = 2,
        [NIU_MST_NONPOSTED_WR_REQ_STARTED] = 2,
        [NIU_MST_POSTED_WR_REQ_STARTED] = 2,
        [NIU_MST_RD_REQ_STARTED] = 1,
        [NIU_MST_NONPOSTED_ATOMIC_STARTED] = 1,
    };
    for (unsigned c = 0; c < 16; c++) {
        if (ctr(t, 0, c) != mst[c]) fail_msg("%s = %u, expected %u", noc_counter_name(c), ctr(t, 0, c), mst[c]);
        assert_int_equal(ctr(t, 1, c), 0); /* NOC1 saw none of it */
    }
    for (unsigned c = NIU_MST_REQS_OUTSTANDING_ID0; c < NIU_SLV_ATOMIC_RESP_SENT; c++)
        assert_int_equal(ctr(t, 0, c), 0);
    static const uint32_t slv[14] = {1, 2, 1, 2, 3, 1, 1, 1, 2, 4, 2, 2, 2, 2}; /* from NIU_SLV_ATOMIC_RESP_SENT */
    for (unsigned c = 0; c < 14; c++)
        if (ctr(t, 0, NIU_SLV_ATOMIC_RESP_SENT + c) != slv[c])
            fail_msg("%s = %u, expected %u", noc_counter_name(NIU_SLV_ATOMIC_RESP_SENT + c),
                     ctr(t, 0, NIU_SLV_ATOMIC_RESP_SENT + c), slv[c]);
    assert_int_equal(rd(t, 0xFFB48020), 3);
    assert_int_equal(rd(t, 0xFFB48024), 4);
    assert_int_equal(rd(t, 0x7000), 2);
    /* NIU_TRANS_COUNT_RTZ_NUM: the index of an enabled source bit, cleared by the read unless
     * RC_DISABLE; zero with none enabled */
    assert_int_equal(rd(t, 0xFFB2037C), 1);
    assert_int_equal(rd(t, 0xFFB20378), 0);
    assert_int_equal(rd(t, 0xFFB2037C), 1); /* not enabled: not cleared */
    assert_true(tile_host_write(t, 0xFFB20178, 1u << 28 | 1));
    assert_int_equal(rd(t, 0xFFB20378), 0);
    assert_int_equal(rd(t, 0xFFB2037C), 1); /* RC_DISABLE: kept */
    assert_true(tile_host_write(t, 0xFFB20178, 1));
    assert_int_equal(rd(t, 0xFFB20378), 0);
    assert_int_equal(rd(t, 0xFFB2037C), 0);
    tile_destroy(t);
}

/* ---- DRAM ports, broadcasts, clearing, refusals ---------------------------------------------- */

static void dram_ports_alias(void **state) {
    (void)state;
    for (unsigned b = 0; b < DRAM_CHANNELS; b++)
        for (unsigned p = 0; p < DRAM_PORTS; p++) {
            unsigned x, y, port;
            dram_port_xy(b, p, &x, &y);
            assert_int_equal(dram_channel_at(x, y, &port), (int)b);
            assert_int_equal(port, p);
        }
    assert_int_equal(dram_channel_at(17, 12, NULL), 0); /* the README's coordinates */
    assert_int_equal(dram_channel_at(17, 21, NULL), 3);
    assert_int_equal(dram_channel_at(18, 18, NULL), 6);
    assert_int_equal(dram_channel_at(18, 21, NULL), -1); /* the eighth channel: not on a p100a */
    assert_int_equal(dram_channel_at(1, 2, NULL), -1);
    tile_t *t = new_tile();
    fill_l1(t, 0x8000, 256, 3);
    /* written through port 0 of bank 5, read through ports 1 and 2 */
    unsigned x, y;
    dram_port_xy(5, 0, &x, &y);
    assert_true(issue(
        t, 1, 0,
        (req_t){.targ = 0x8000, .targ_hi = SELF, .ret = 0x7000, .ret_hi = y << 6 | x, .ctrl = CTRL_WR, .len = 256}));
    drain(t);
    for (unsigned p = 1; p < 3; p++) {
        dram_port_xy(5, p, &x, &y);
        assert_true(issue(t, 0, 1,
                          (req_t){.targ = 0x7000,
                                  .targ_hi = y << 6 | x,
                                  .ret = 0x9000 + 0x100 * p,
                                  .ret_hi = SELF,
                                  .ctrl = CTRL_RD,
                                  .len = 256}));
        drain(t);
        assert_memory_equal(t->l1 + 0x9000 + 0x100 * p, t->l1 + 0x8000, 256);
    }
    tile_destroy(t);
}

/* Pages written in no order, far apart and in several channels, more than two slabs' worth of the
 * storage (mmio/dram.c hands out pages in the order they are first written): each keeps its own
 * bytes, its neighbours read as never written, and the counts say so. */
static void dram_pages_far_apart(void **state) {
    (void)state;
    enum { PAGES = 1100 };
    dram_t *d = dram_create();
    assert_non_null(d);
    uint8_t page[DRAM_PAGE], back[DRAM_PAGE];
    for (unsigned i = 0; i < PAGES; i++) {
        unsigned k = (i * 389u) % PAGES; /* 389 is prime to 1100: every k once, out of order */
        memset(page, (int)(k * 7u + 1u), sizeof page);
        memcpy(page, &k, sizeof k);
        uint64_t at = (uint64_t)(k / DRAM_CHANNELS) * 3 * DRAM_PAGE * PAGES + 2 * DRAM_PAGE;
        assert_true(dram_write(d, k % DRAM_CHANNELS, at, page, sizeof page));
    }
    dram_stats_t st;
    dram_stats(d, &st);
    assert_int_equal(st.pages, PAGES);
    for (unsigned k = 0; k < PAGES; k++) {
        uint64_t at = (uint64_t)(k / DRAM_CHANNELS) * 3 * DRAM_PAGE * PAGES + 2 * DRAM_PAGE;
        memset(page, (int)(k * 7u + 1u), sizeof page);
        memcpy(page, &k, sizeof k);
        dram_read(d, k % DRAM_CHANNELS, at, back, sizeof back);
        assert_memory_equal(back, page, sizeof page);
        dram_read(d, k % DRAM_CHANNELS, at - DRAM_PAGE, back, sizeof back); /* the page before: never written */
        for (unsigned b = 0; b < sizeof back; b++)
            assert_int_equal(back[b], DRAM_FILL);
    }
    dram_stats(d, &st);
    assert_int_equal(st.unwritten_reads, PAGES);
    assert_int_equal(st.unwritten_bytes, (uint64_t)PAGES * DRAM_PAGE);
    assert_int_equal(st.pages, PAGES); /* reads allocate nothing */
    dram_destroy(d);
}

/* Each page keeps its own mask of written units (mmio/dram.c dram_chunk_t.written), pages of one
 * chunk beside each other: page 10's first unit written, page 11's second only; page 11's first
 * unit still reads as never written (64 bytes of DRAM_FILL, counted), page 10's second too. */
static void dram_page_masks_apart(void **state) {
    (void)state;
    dram_t *d = dram_create();
    assert_non_null(d);
    uint8_t unit[DRAM_UNIT], back[DRAM_UNIT];
    memset(unit, 0x5A, sizeof unit);
    assert_true(dram_write(d, 0, 10 * DRAM_PAGE, unit, sizeof unit));
    assert_true(dram_write(d, 0, 11 * DRAM_PAGE + DRAM_UNIT, unit, sizeof unit));
    dram_stats_t st;
    dram_read(d, 0, 10 * DRAM_PAGE, back, sizeof back); /* written */
    assert_memory_equal(back, unit, sizeof unit);
    dram_stats(d, &st);
    assert_int_equal(st.unwritten_reads, 0);
    const uint64_t never[] = {11 * DRAM_PAGE, 10 * DRAM_PAGE + DRAM_UNIT};
    for (unsigned i = 0; i < 2; i++) {
        dram_read(d, 0, never[i], back, sizeof back);
        for (unsigned b = 0; b < sizeof back; b++)
            assert_int_equal(back[b], DRAM_FILL);
        dram_stats(d, &st);
        assert_int_equal(st.unwritten_reads, i + 1);
        assert_int_equal(st.unwritten_bytes, (i + 1) * DRAM_UNIT);
    }
    dram_destroy(d);
}

/* The bytes a read takes from never-written units, counted exactly: page 20 has units 1, 3 and 63
 * written (64 bytes each), page 21 none (never allocated), page 22 unit 0. Reads starting and
 * ending inside units, across pages, against a count byte by byte. */
static void dram_unwritten_bytes_partial(void **state) {
    (void)state;
    dram_t *d = dram_create();
    assert_non_null(d);
    uint8_t unit[DRAM_UNIT], back[3 * DRAM_PAGE];
    memset(unit, 0xA5, sizeof unit);
    const uint64_t base = 20 * DRAM_PAGE;
    const unsigned units[] = {1, 3, 63, 128}; /* 128: page 22's unit 0 */
    for (unsigned i = 0; i < 4; i++)
        assert_true(dram_write(d, 2, base + units[i] * DRAM_UNIT, unit, sizeof unit));
    const struct {
        uint32_t off, n;
    } reads[] = {{0, 64},     {64, 64},     {70, 10},    {100, 200}, {10, 4086},
                 {4000, 200}, {4090, 4200}, {129, 8000}, {8190, 80}, {3 * 64 + 5, 64},
                 {63, 2},     {100, 157},   {191, 2},    {255, 1},   {0, 3 * DRAM_PAGE}};
    uint64_t want_reads = 0, want_bytes = 0;
    for (unsigned i = 0; i < sizeof reads / sizeof reads[0]; i++) {
        uint64_t k = 0;
        for (uint32_t b = reads[i].off; b < reads[i].off + reads[i].n; b++) {
            unsigned u = b / DRAM_UNIT;
            k += !(u == 1 || u == 3 || u == 63 || u == 128);
        }
        want_reads += k != 0;
        want_bytes += k;
        dram_read(d, 2, base + reads[i].off, back, reads[i].n);
        dram_stats_t st;
        dram_stats(d, &st);
        assert_int_equal(st.unwritten_reads, want_reads);
        assert_int_equal(st.unwritten_bytes, want_bytes);
    }
    dram_destroy(d);
}

static void multicast_to_self(void **state) {
    (void)state;
    tile_t *t = new_tile();
    uint32_t rect = SELF << 12 | SELF; /* start and end this tile */
    fill_l1(t, 0x3000, 64, 5);
    assert_true(issue(
        t, 0, 0,
        (req_t){.targ = 0x3000, .targ_hi = SELF, .ret = 0x5000, .ret_hi = rect, .ctrl = CTRL_WR | CTRL_MC, .len = 64}));
    drain(t);
    assert_memory_equal(t->l1 + 0x5000, t->l1 + 0x3000, 64);
    assert_int_equal(ctr(t, 0, NIU_MST_WR_ACK_RECEIVED), 1);
    /* without BRCST_SRC_INCLUDE the rectangle has no recipient: nothing written, no ack */
    assert_true(issue(t, 0, 0,
                      (req_t){.targ = 0x3000,
                              .targ_hi = SELF,
                              .ret = 0x6000,
                              .ret_hi = rect,
                              .ctrl = CTRL_WR | (CTRL_MC & ~(1u << 17)),
                              .len = 64}));
    drain(t);
    assert_int_equal(t->l1[0x6000], 0);
    assert_int_equal(ctr(t, 0, NIU_MST_WR_ACK_RECEIVED), 1);
    assert_int_equal(ctr(t, 0, NIU_MST_REQS_OUTSTANDING_ID0), 1); /* as on silicon: cleared by software */
    assert_true(tile_host_write(t, niu(0, 0, NOC_CLEAR_OUTSTANDING_REQ_CNT), 1));
    assert_int_equal(ctr(t, 0, NIU_MST_REQS_OUTSTANDING_ID0), 0);
    /* a rectangle with other tiles in it */
    assert_false(issue(t, 0, 0,
                       (req_t){.targ = 0x3000,
                               .targ_hi = SELF,
                               .ret = 0x5000,
                               .ret_hi = SELF << 12 | OTHER,
                               .ctrl = CTRL_WR | CTRL_MC,
                               .len = 64}));
    assert_non_null(strstr(t->noc.error, "other tiles in the rectangle"));
    tile_destroy(t);
}

static void refusals(void **state) {
    (void)state;
    tile_t *t = new_tile();
    assert_false(issue(
        t, 0, 1, (req_t){.targ = 0x1000, .targ_hi = OTHER, .ret = 0x2000, .ret_hi = SELF, .ctrl = CTRL_RD, .len = 64}));
    assert_non_null(strstr(t->noc.error, "NOC0 read from x=5 y=7 addr 0x1000: another tile"));
    assert_false(issue(
        t, 1, 0, (req_t){.targ = 0x1000, .targ_hi = SELF, .ret = 0x2000, .ret_hi = OTHER, .ctrl = CTRL_WR, .len = 64}));
    assert_non_null(strstr(t->noc.error, "NOC1 write to x=5 y=7 addr 0x2000: another tile"));
    /* L1 -> L1 not congruent mod 16; DRAM -> L1 congruent mod 16 but not 64 */
    assert_false(issue(
        t, 0, 1, (req_t){.targ = 0x1004, .targ_hi = SELF, .ret = 0x2008, .ret_hi = SELF, .ctrl = CTRL_RD, .len = 64}));
    assert_non_null(strstr(t->noc.error, "not congruent mod 16"));
    assert_false(issue(
        t, 0, 1, (req_t){.targ = 0x1010, .targ_hi = DRAM0, .ret = 0x2020, .ret_hi = SELF, .ctrl = CTRL_RD, .len = 64}));
    assert_non_null(strstr(t->noc.error, "not congruent mod 64"));
    /* past L1's end; a DRAM channel's 4 GiB; length 0; a register read of 8 bytes */
    assert_false(
        issue(t, 0, 1,
              (req_t){.targ = 0x17FFC0, .targ_hi = SELF, .ret = 0x1000, .ret_hi = SELF, .ctrl = CTRL_RD, .len = 128}));
    assert_non_null(strstr(t->noc.error, "past the end of L1"));
    assert_false(issue(
        t, 0, 1,
        (req_t){.targ = 0xFFFFFFC0ull, .targ_hi = DRAM0, .ret = 0x1000, .ret_hi = SELF, .ctrl = CTRL_RD, .len = 128}));
    assert_non_null(strstr(t->noc.error, "beyond the channel's 4 GiB"));
    assert_false(issue(
        t, 0, 1, (req_t){.targ = 0x1000, .targ_hi = SELF, .ret = 0x2000, .ret_hi = SELF, .ctrl = CTRL_RD, .len = 0}));
    assert_non_null(strstr(t->noc.error, "length 0"));
    assert_false(
        issue(t, 0, 1,
              (req_t){.targ = 0xFFB12000, .targ_hi = SELF, .ret = 0x2000, .ret_hi = SELF, .ctrl = CTRL_RD, .len = 8}));
    assert_non_null(strstr(t->noc.error, "exactly 4 aligned bytes"));
    /* a write whose source is not this tile */
    assert_false(issue(
        t, 0, 0, (req_t){.targ = 0x1000, .targ_hi = DRAM0, .ret = 0x2000, .ret_hi = SELF, .ctrl = CTRL_WR, .len = 64}));
    assert_non_null(strstr(t->noc.error, "must be this tile"));
    assert_true(noc_idle(&t->noc));
    assert_false(t->noc.used);
    /* a register read of 4 bytes is fine: SOFT_RESET_0 into L1 */
    assert_true(
        issue(t, 0, 1,
              (req_t){.targ = 0xFFB121B0, .targ_hi = SELF, .ret = 0x2000, .ret_hi = SELF, .ctrl = CTRL_RD, .len = 4}));
    drain(t);
    assert_int_equal(rd(t, 0x2000), SOFT_RESET_0_RESET_VALUE);
    tile_destroy(t);
}

/* NOC_NODE_ID and NOC_ID_LOGICAL; counters are read-only. */
static void identification_registers(void **state) {
    (void)state;
    tile_t *t = new_tile();
    assert_int_equal(rd(t, 0xFFB20148), SELF);
    assert_int_equal(rd(t, 0xFFB30148), SELF);
    assert_int_equal(rd(t, niu(0, 2, NOC_NODE_ID)) & 0xFFF, SELF);
    assert_int_equal(rd(t, niu(1, 0, NOC_NODE_ID)) & 0xFFF, (11u - 2) << 6 | (16u - 1));
    assert_int_equal((rd(t, niu(0, 0, NOC_NODE_ID)) >> 12) & 0x7F, 17);
    assert_true(tile_host_write(t, niu(0, 0, 0x200 + 4 * NIU_MST_RD_RESP_RECEIVED), 5));
    assert_int_equal(ctr(t, 0, NIU_MST_RD_RESP_RECEIVED), 0);
    int n = -1;
    assert_int_equal(noc_counter_at(0xFFB30208, &n), NIU_MST_RD_RESP_RECEIVED);
    assert_int_equal(n, 1);
    assert_int_equal(noc_counter_at(0xFFB30148, &n), -1);
    assert_string_equal(noc_counter_name(NIU_MST_WR_ACK_RECEIVED), "NIU_MST_WR_ACK_RECEIVED");
    tile_destroy(t);
}

/* Each NIU has its own register storage, zero until written, its first and last words too
 * (noc_init: both in one mapping). */
static void storage_per_niu(void **state) {
    (void)state;
    tile_t *t = new_tile();
    const uint32_t last = 0xFFFCu; /* past the command buffers: plain storage */
    for (int noc = 0; noc < 2; noc++) {
        assert_int_equal(rd(t, niu(noc, 1, 0)), 0);
        assert_int_equal(rd(t, niu(noc, 0, last)), 0);
    }
    reg(t, 0, 1, 0, 0x1111u);
    reg(t, 0, 0, last, 0x2222u);
    reg(t, 1, 1, 0, 0x3333u);
    reg(t, 1, 0, last, 0x4444u);
    assert_int_equal(rd(t, niu(0, 1, 0)), 0x1111u);
    assert_int_equal(rd(t, niu(0, 0, last)), 0x2222u);
    assert_int_equal(rd(t, niu(1, 1, 0)), 0x3333u);
    assert_int_equal(rd(t, niu(1, 0, last)), 0x4444u);
    tile_destroy(t);
}

/* The 64 stream register blocks (mmio/stream.c, stored register-major): every word its own, zero
 * until written, the same through a load and through the word a parked hart reads (env_pure_word). */
static void stream_storage_every_word(void **state) {
    (void)state;
    tile_t *t = new_tile();
    const uint32_t base = 0xFFB40000u, n = 0x40000u / 4;
    assert_int_equal(rd(t, base), 0);
    assert_int_equal(rd(t, base + 4 * (n - 1)), 0);
    for (uint32_t i = 0; i < n; i++)
        assert_true(tile_host_write(t, base + 4 * i, ~i));
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(rd(t, base + 4 * i), ~i);
        uint64_t noted_at = 0;
        bool counted = false;
        const uint32_t *w = env_pure_word(t, &t->hart[0], base + 4 * i, &noted_at, &counted);
        assert_non_null(w);
        assert_true(counted);
        assert_int_equal(*w, ~i);
    }
    tile_destroy(t);
}

/* ---- from a core ------------------------------------------------------------------------------- */

/* A core's load of an NIU counter notes the poll (the stall diagnosis' "polls ..."), with its
 * cycle, for the core that made it (not parked: noc_read's own note, not the parked hart's
 * replayed one); the host's load notes nothing. */
static void counter_load_noted(void **state) {
    (void)state;
    tile_t *t = new_tile();
    cycles(t, 5);
    uint32_t v = 1;
    assert_int_equal(ctr(t, 0, NIU_MST_RD_RESP_RECEIVED), 0); /* the host's */
    assert_int_equal(t->noc.niu[0].poll[1].counter, -1);
    assert_int_equal(env_load(t, &t->hart[1], niu(0, 0, 0x200 + 4 * NIU_MST_RD_RESP_RECEIVED), 4, &v), MEM_OK);
    assert_int_equal(v, 0);
    assert_int_equal(t->noc.niu[0].poll[1].counter, NIU_MST_RD_RESP_RECEIVED);
    assert_int_equal(t->noc.niu[0].poll[1].cycle, t->cycle);
    assert_int_equal(t->noc.niu[0].poll[0].counter, -1);
    assert_int_equal(t->noc.niu[1].poll[1].counter, -1);
    tile_destroy(t);
}

/* A core's store that issues a request to another tile faults, naming NOC, coordinates, address. */
static void core_fault_names_everything(void **state) {
    (void)state;
    tile_t *t = new_tile();
    uint32_t p[] = {lui(T0, 0xFFB20), lui(T1, 1),           sw(T1, T0, 0),    addi(T1, ZERO, (int32_t)OTHER),
                    sw(T1, T0, 8),    lui(T1, 2),           sw(T1, T0, 0xC),  addi(T1, ZERO, (int32_t)SELF),
                    sw(T1, T0, 0x14), addi(T1, ZERO, 0x10), sw(T1, T0, 0x1C), addi(T1, ZERO, 64),
                    sw(T1, T0, 0x20), addi(T1, ZERO, 1),    sw(T1, T0, 0x40), EBREAK};
    for (size_t i = 0; i < sizeof p / 4; i++)
        assert_true(tile_host_write(t, 0x1000 + 4 * (uint32_t)i, p[i]));
    tile_start_core(t, CORE_NCRISC, 0x1000);
    cycles(t, 40);
    const hart_t *h = &t->hart[CORE_NCRISC];
    assert_int_equal(h->state, HART_FAULTED);
    assert_int_equal(h->fault.pc, 0x1000 + 4 * 14);
    assert_int_equal(h->fault.addr, 0xFFB20040);
    assert_non_null(strstr(h->fault.msg, "NOC0 read from x=5 y=7 addr 0x1000: another tile"));
    tile_destroy(t);
}

/* A request in flight keeps the tile busy: NCRISC issues a DRAM read into L1 0x200 and halts;
 * BRISC spins alone on that word (a pure loop, which the run-ahead and the idle fast-forward
 * would otherwise take). All three run paths must agree, cycle for cycle. */
static void in_flight_once(unsigned delay) {
    tile_t *t[3];
    uint64_t brisc_done[3];
    for (int way = 0; way < 3; way++) {
        t[way] = tile_create(&(tile_opts_t){.reference = way == 0, .no_spin = way == 1});
        assert_non_null(t[way]);
        uint32_t v = 0xCAFE;
        assert_true(dram_write(t[way]->dram, 0, 0x40, &v, 4));
        uint32_t b[] = {lw(T0, ZERO, 0x200), beq(T0, ZERO, -4), sw(T0, ZERO, 0x300), EBREAK};
        uint32_t nc[] = {
            lui(T0, 0xFFB21),         addi(T1, ZERO, 0x40),  sw(T1, T0, -2048 + 0x00), addi(T1, ZERO, (int32_t)DRAM0),
            sw(T1, T0, -2048 + 0x08), addi(T1, ZERO, 0x200), sw(T1, T0, -2048 + 0x0C), addi(T1, ZERO, (int32_t)SELF),
            sw(T1, T0, -2048 + 0x14), addi(T1, ZERO, 0x10),  sw(T1, T0, -2048 + 0x1C), addi(T1, ZERO, 4),
            sw(T1, T0, -2048 + 0x20), addi(T1, ZERO, 1),     sw(T1, T0, -2048 + 0x40), EBREAK};
        for (size_t i = 0; i < sizeof b / 4; i++)
            assert_true(tile_host_write(t[way], 0x1000 + 4 * (uint32_t)i, b[i]));
        for (unsigned i = 0; i < delay; i++) /* nops: the request leaves at another cycle */
            assert_true(tile_host_write(t[way], 0x2000 + 4 * i, addi(ZERO, ZERO, 0)));
        for (size_t i = 0; i < sizeof nc / 4; i++)
            assert_true(tile_host_write(t[way], 0x2000 + 4 * (delay + (uint32_t)i), nc[i]));
        tile_start_core(t[way], CORE_BRISC, 0x1000);
        tile_start_core(t[way], CORE_NCRISC, 0x2000);
        brisc_done[way] = 0;
        while (t[way]->cycle < 5000) {
            tile_run(t[way], 1009);
            if (!brisc_done[way] && t[way]->hart[CORE_BRISC].state == HART_HALTED) brisc_done[way] = t[way]->cycle;
        }
    }
    for (int way = 1; way < 3; way++) {
        assert_int_equal(brisc_done[way], brisc_done[0]);
        assert_int_equal(t[way]->hart[CORE_BRISC].instret, t[0]->hart[CORE_BRISC].instret);
        assert_memory_equal(t[way]->l1, t[0]->l1, TILE_L1_SIZE);
    }
    assert_int_equal(rd(t[0], 0x300), 0xCAFE);
    assert_true(brisc_done[0] > 2 * PATH_DRAM + NOC_DRAM_READ_LATENCY);
    for (int way = 0; way < 3; way++)
        tile_destroy(t[way]);
}

/* BRISC's loop takes two cycles: four start offsets show a stage run a cycle late on any path. */
static void in_flight_keeps_paths_in_step(void **state) {
    (void)state;
    for (unsigned delay = 0; delay < 4; delay++)
        in_flight_once(delay);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(read_dram_timing_and_counters),
        cmocka_unit_test(read_unaligned_and_page_crossing),
        cmocka_unit_test(read_split_into_packets),
        cmocka_unit_test(buffers_reused),
        cmocka_unit_test(write_nonposted_to_dram),
        cmocka_unit_test(write_posted_and_port_serial),
        cmocka_unit_test(write_inline_and_byte_enable),
        cmocka_unit_test(atomics),
        cmocka_unit_test(every_counter),
        cmocka_unit_test(dram_ports_alias),
        cmocka_unit_test(dram_pages_far_apart),
        cmocka_unit_test(dram_page_masks_apart),
        cmocka_unit_test(dram_unwritten_bytes_partial),
        cmocka_unit_test(multicast_to_self),
        cmocka_unit_test(refusals),
        cmocka_unit_test(identification_registers),
        cmocka_unit_test(storage_per_niu),
        cmocka_unit_test(stream_storage_every_word),
        cmocka_unit_test(counter_load_noted),
        cmocka_unit_test(core_fault_names_everything),
        cmocka_unit_test(in_flight_keeps_paths_in_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
