/* mmio/noc.c — the NoC 0 / NoC 1 NIUs (0xFFB20000, 0xFFB30000): one implementation serving both
 * device entries of the address map. docs/noc.md is the model's description; mmio/noc.h lists the
 * sources.
 *
 * Registers: the four request initiators (NOC_CMD_BUF_OFFSET 0x800 apart), NOC_ID_LOGICAL, the
 * counters (0x200..0x2FF), the clear and return-to-zero registers; everything else is storage.
 * Writing NOC_CMD_CTRL bit 0 issues the initiator's request: it is checked whole (endpoints,
 * lengths, alignment) and refused with a guest fault naming the NOC, coordinates and address if
 * the model cannot do it; otherwise it becomes packets whose stages are fixed in time now and run
 * in noc_tick. Endpoints: this tile (its L1 and its registers, "loopback") and the DRAM channels
 * (mmio/dram.c); every other tile is refused. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <sanitizer/asan_interface.h> /* ASAN_(UN)POISON_MEMORY_REGION: nothing without ASan */

#include "mmio/devices.h"
#include "mmio/dram.h"
#include "mmio/noc.h"

/* NOC_CTRL fields (BlackholeA0/NoC/MemoryMap.md "NOC_CTRL"; noc_parameters.h NOC_CMD_*). */
#define CTRL_TYPE(c)        ((c)&3u) /* 0 read, 1 atomic, 2 write */
#define CTRL_WR_BE          (1u << 2)
#define CTRL_WR_INLINE      (1u << 3)
#define CTRL_RESP_MARKED    (1u << 4)
#define CTRL_BRCST_PACKET   (1u << 5)
#define CTRL_BRCST_SRC_INCL (1u << 17)
#define CTRL_L1_ACC_AT_EN   (1u << 31)
/* NOC_PACKET_TAG fields. */
#define TAG_DELIVER_OVERLAY (1u << 6)
#define TAG_HEADER_STORE    (1u << 9)
#define TAG_TXN_ID(t)       (((t) >> 10) & 0xFu)
/* NIU_TRANS_COUNT_RTZ_CFG */
#define RTZ_INT_ENABLE 0xFFFFu
#define RTZ_RC_DISABLE (1u << 28)
/* Atomic opcodes (NOC_AT_INS, bits 12..15 of NOC_AT_LEN_BE; WormholeB0/NoC/Atomics.md). */
enum { AT_INCR_GET = 1, AT_SWAP_MASK = 3, AT_CAS = 4, AT_SWAP_IDX6 = 6, AT_SWAP_IDX7 = 7 };

#define MMIO_LO 0xFF000000ull /* Alignment.md: in a Tensix tile, addresses from here up are MMIO */

static const char *const niu_dev_names[NOC_NIUS] = {"NoC 0 registers", "NoC 1 registers"};

/* Both NIUs' storage, 64 KiB each, in one anonymous mapping: zero pages until written, and a
 * run writes a few of the 32 (calloc from the heap cleared them all: ~30 page faults a run). */
#define NIU_REGS_BYTES 0x10000u

bool noc_init(noc_t *n) {
    memset(n, 0, sizeof *n);
    n->next_at = UINT64_MAX;
    void *p = mmap(NULL, NOC_NIUS * NIU_REGS_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    for (int i = 0; i < NOC_NIUS; i++) {
        n->regs[i] = (uint32_t *)((uint8_t *)p + i * NIU_REGS_BYTES);
        for (int c = 0; c < NOC_CORES; c++)
            n->niu[i].poll[c].counter = -1;
    }
    return true;
}

void noc_free(noc_t *n) {
    for (size_t i = 0; i < n->npkt; i++) {
        ASAN_UNPOISON_MEMORY_REGION(n->pkt[i].data, NOC_MAX_PACKET);
        free(n->pkt[i].data);
    }
    for (size_t i = 0; i < n->nspare; i++)
        free(n->spare[i]);
    free(n->spare);
    free(n->pkt);
    if (n->regs[0]) munmap(n->regs[0], NOC_NIUS * NIU_REGS_BYTES);
    memset(n, 0, sizeof *n);
}

/* ---- names and views ------------------------------------------------------------------------- */

const char *noc_counter_name(unsigned c) {
    static const char *const names[] = {
        "NIU_MST_ATOMIC_RESP_RECEIVED",     "NIU_MST_WR_ACK_RECEIVED",       "NIU_MST_RD_RESP_RECEIVED",
        "NIU_MST_RD_DATA_WORD_RECEIVED",    "NIU_MST_CMD_ACCEPTED",          "NIU_MST_RD_REQ_SENT",
        "NIU_MST_NONPOSTED_ATOMIC_SENT",    "NIU_MST_POSTED_ATOMIC_SENT",    "NIU_MST_NONPOSTED_WR_DATA_WORD_SENT",
        "NIU_MST_POSTED_WR_DATA_WORD_SENT", "NIU_MST_NONPOSTED_WR_REQ_SENT", "NIU_MST_POSTED_WR_REQ_SENT",
        "NIU_MST_NONPOSTED_WR_REQ_STARTED", "NIU_MST_POSTED_WR_REQ_STARTED", "NIU_MST_RD_REQ_STARTED",
        "NIU_MST_NONPOSTED_ATOMIC_STARTED",
    };
    static const char *const slv[] = {
        "NIU_SLV_ATOMIC_RESP_SENT",
        "NIU_SLV_WR_ACK_SENT",
        "NIU_SLV_RD_RESP_SENT",
        "NIU_SLV_RD_DATA_WORD_SENT",
        "NIU_SLV_REQ_ACCEPTED",
        "NIU_SLV_RD_REQ_RECEIVED",
        "NIU_SLV_NONPOSTED_ATOMIC_RECEIVED",
        "NIU_SLV_POSTED_ATOMIC_RECEIVED",
        "NIU_SLV_NONPOSTED_WR_DATA_WORD_RECEIVED",
        "NIU_SLV_POSTED_WR_DATA_WORD_RECEIVED",
        "NIU_SLV_NONPOSTED_WR_REQ_RECEIVED",
        "NIU_SLV_POSTED_WR_REQ_RECEIVED",
        "NIU_SLV_NONPOSTED_WR_REQ_STARTED",
        "NIU_SLV_POSTED_WR_REQ_STARTED",
    };
    static const char *const per_id[16] = {
        "NIU_MST_REQS_OUTSTANDING_ID(0)",  "NIU_MST_REQS_OUTSTANDING_ID(1)",  "NIU_MST_REQS_OUTSTANDING_ID(2)",
        "NIU_MST_REQS_OUTSTANDING_ID(3)",  "NIU_MST_REQS_OUTSTANDING_ID(4)",  "NIU_MST_REQS_OUTSTANDING_ID(5)",
        "NIU_MST_REQS_OUTSTANDING_ID(6)",  "NIU_MST_REQS_OUTSTANDING_ID(7)",  "NIU_MST_REQS_OUTSTANDING_ID(8)",
        "NIU_MST_REQS_OUTSTANDING_ID(9)",  "NIU_MST_REQS_OUTSTANDING_ID(10)", "NIU_MST_REQS_OUTSTANDING_ID(11)",
        "NIU_MST_REQS_OUTSTANDING_ID(12)", "NIU_MST_REQS_OUTSTANDING_ID(13)", "NIU_MST_REQS_OUTSTANDING_ID(14)",
        "NIU_MST_REQS_OUTSTANDING_ID(15)",
    };
    static const char *const outgoing[16] = {
        "NIU_MST_WRITE_REQS_OUTGOING_ID(0)",  "NIU_MST_WRITE_REQS_OUTGOING_ID(1)",
        "NIU_MST_WRITE_REQS_OUTGOING_ID(2)",  "NIU_MST_WRITE_REQS_OUTGOING_ID(3)",
        "NIU_MST_WRITE_REQS_OUTGOING_ID(4)",  "NIU_MST_WRITE_REQS_OUTGOING_ID(5)",
        "NIU_MST_WRITE_REQS_OUTGOING_ID(6)",  "NIU_MST_WRITE_REQS_OUTGOING_ID(7)",
        "NIU_MST_WRITE_REQS_OUTGOING_ID(8)",  "NIU_MST_WRITE_REQS_OUTGOING_ID(9)",
        "NIU_MST_WRITE_REQS_OUTGOING_ID(10)", "NIU_MST_WRITE_REQS_OUTGOING_ID(11)",
        "NIU_MST_WRITE_REQS_OUTGOING_ID(12)", "NIU_MST_WRITE_REQS_OUTGOING_ID(13)",
        "NIU_MST_WRITE_REQS_OUTGOING_ID(14)", "NIU_MST_WRITE_REQS_OUTGOING_ID(15)",
    };
    if (c < 16) return names[c];
    if (c < 0x20) return per_id[c - 0x10];
    if (c < 0x30) return outgoing[c - 0x20];
    if (c < 0x30 + sizeof slv / sizeof slv[0]) return slv[c - 0x30];
    return NULL;
}

int noc_counter_at(uint32_t addr, int *niu) {
    for (int n = 0; n < NOC_NIUS; n++) {
        uint32_t off = addr - (0xFFB20000u + 0x10000u * (uint32_t)n);
        if (off - NOC_STATUS_BASE < 4 * NOC_COUNTERS && !(off & 3) && noc_counter_name((off - NOC_STATUS_BASE) / 4)) {
            *niu = n;
            return (int)((off - NOC_STATUS_BASE) / 4);
        }
    }
    return -1;
}

const char *noc_kind_name(unsigned kind) {
    static const char *const names[NOC_KINDS] = {"read", "write", "inline write", "atomic"};
    return kind < NOC_KINDS ? names[kind] : "request";
}

unsigned noc_counter_kind(unsigned c) {
    switch (c) {
    case NIU_MST_RD_RESP_RECEIVED:
    case NIU_MST_RD_DATA_WORD_RECEIVED:
    case NIU_MST_RD_REQ_SENT:
    case NIU_MST_RD_REQ_STARTED: return NOC_READ;
    case NIU_MST_ATOMIC_RESP_RECEIVED:
    case NIU_MST_NONPOSTED_ATOMIC_SENT:
    case NIU_MST_POSTED_ATOMIC_SENT:
    case NIU_MST_NONPOSTED_ATOMIC_STARTED: return NOC_ATOMIC;
    case NIU_MST_NONPOSTED_WR_DATA_WORD_SENT:
    case NIU_MST_POSTED_WR_DATA_WORD_SENT: return NOC_WRITE;
    default: return NOC_KINDS; /* acks and request counts: writes of both kinds; per-ID: all */
    }
}

/* Will the rest of packet p (from its next stage on) move counter c? */
static bool advances(const noc_pkt_t *p, unsigned c) {
    bool sent_ahead = p->stage <= NOC_ST_SENT, accept_ahead = p->stage <= NOC_ST_ACCEPT;
    bool done_ahead = p->at[NOC_ST_DONE] != 0; /* the answer is still to come */
    bool write = p->kind == NOC_WRITE || p->kind == NOC_WRITE_INLINE;
    switch (c) {
    case NIU_MST_ATOMIC_RESP_RECEIVED: return p->kind == NOC_ATOMIC && done_ahead;
    case NIU_MST_WR_ACK_RECEIVED: return write && done_ahead;
    case NIU_MST_RD_RESP_RECEIVED:
    case NIU_MST_RD_DATA_WORD_RECEIVED: return p->kind == NOC_READ;
    case NIU_MST_CMD_ACCEPTED: return accept_ahead;
    case NIU_MST_RD_REQ_SENT: return p->kind == NOC_READ && sent_ahead;
    case NIU_MST_RD_REQ_STARTED: return p->kind == NOC_READ && accept_ahead;
    case NIU_MST_NONPOSTED_ATOMIC_SENT: return p->kind == NOC_ATOMIC && p->resp && sent_ahead;
    case NIU_MST_POSTED_ATOMIC_SENT: return p->kind == NOC_ATOMIC && !p->resp && sent_ahead;
    case NIU_MST_NONPOSTED_ATOMIC_STARTED: return p->kind == NOC_ATOMIC && p->resp && accept_ahead;
    case NIU_MST_NONPOSTED_WR_DATA_WORD_SENT:
    case NIU_MST_NONPOSTED_WR_REQ_SENT: return write && p->resp && (p->kind == NOC_WRITE ? sent_ahead : accept_ahead);
    case NIU_MST_POSTED_WR_DATA_WORD_SENT:
    case NIU_MST_POSTED_WR_REQ_SENT: return write && !p->resp && (p->kind == NOC_WRITE ? sent_ahead : accept_ahead);
    case NIU_MST_NONPOSTED_WR_REQ_STARTED: return write && p->resp && accept_ahead;
    case NIU_MST_POSTED_WR_REQ_STARTED: return write && !p->resp && accept_ahead;
    default:
        if (c >= NIU_MST_REQS_OUTSTANDING_ID0 && c < NIU_MST_REQS_OUTSTANDING_ID0 + 16)
            return p->txn == c - NIU_MST_REQS_OUTSTANDING_ID0 && done_ahead;
        if (c >= NIU_MST_WRITE_REQS_OUTGOING_ID0 && c < NIU_MST_WRITE_REQS_OUTGOING_ID0 + 16)
            return p->kind == NOC_WRITE && p->txn == c - NIU_MST_WRITE_REQS_OUTGOING_ID0 && sent_ahead;
        return false;
    }
}

unsigned noc_pending_for(const noc_t *n, int niu, unsigned counter) {
    unsigned k = 0;
    for (size_t i = 0; i < n->npkt; i++)
        k += n->pkt[i].niu == niu && advances(&n->pkt[i], counter);
    return k;
}

unsigned noc_in_flight(const noc_t *n, int niu, unsigned kind) {
    unsigned k = 0;
    for (size_t i = 0; i < n->npkt; i++)
        k += n->pkt[i].niu == niu && (kind >= NOC_KINDS || n->pkt[i].kind == kind);
    return k;
}

/* ---- counters ---------------------------------------------------------------------------------- */

static void count(noc_niu_t *u, unsigned c, uint32_t k) {
    if (u->writes) ++*u->writes;
    u->counter[c] += k;
    if (c >= NIU_MST_REQS_OUTSTANDING_ID0 && c < NIU_SLV_ATOMIC_RESP_SENT) u->counter[c] &= 0xFFu; /* 8 bits */
}

/* An 8-bit per-ID counter down by one; a positive-to-zero move of REQS_OUTSTANDING latches its
 * bit in NIU_TRANS_COUNT_RTZ_SOURCE (MemoryMap.md). */
static void count_down(noc_niu_t *u, unsigned c) {
    if (u->writes) ++*u->writes;
    uint32_t old = u->counter[c];
    u->counter[c] = (old - 1) & 0xFFu;
    if (c < NIU_MST_WRITE_REQS_OUTGOING_ID0 && old == 1) u->rtz_source |= 1u << (c - NIU_MST_REQS_OUTSTANDING_ID0);
}

/* ---- refusing a request -------------------------------------------------------------------------
 * The request is not issued: a guest fault on the issuing core (exit 3; the report adds core and
 * pc), and the words kept in noc.error for a host-issued one. */
static mem_res_t refuse(tile_t *t, hart_t *h, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static mem_res_t refuse(tile_t *t, hart_t *h, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->noc.error, sizeof t->noc.error, fmt, ap);
    va_end(ap);
    return mmio_fault(h, FAULT_ACCESS, "%s", t->noc.error);
}

/* ---- endpoints ------------------------------------------------------------------------------------ */

typedef struct {
    tile_t *t;
    hart_t *h;
    int n;
    unsigned buf;
    const char *what; /* "read", "write", ... for messages */
} req_ctx_t;

#define REFUSE(q, ...) refuse((q)->t, (q)->h, __VA_ARGS__)

static bool is_self(const tile_t *t, unsigned x, unsigned y) { return x == t->noc_x && y == t->noc_y; }

/* Resolve coordinates and a 64-bit address to an endpoint for n bytes. On failure, a message
 * ("... from x=5 y=7 addr 0x...: another tile ...") is in noc.error and false returned. */
static bool resolve(req_ctx_t *q, const char *dir, uint32_t coord, uint64_t addr, uint64_t n, noc_ep_t *ep) {
    tile_t *t = q->t;
    unsigned x = coord & 63u, y = (coord >> 6) & 63u, port;
    *ep = (noc_ep_t){.x = (uint8_t)x, .y = (uint8_t)y, .addr = addr};
    if (is_self(t, x, y)) {
        if (addr < TILE_L1_SIZE) {
            if (n > TILE_L1_SIZE - addr) {
                REFUSE(q, "NOC%d %s %s x=%u y=%u addr 0x%llx: %llu bytes run past the end of L1 (0x%x)", q->n, q->what,
                       dir, x, y, (unsigned long long)addr, (unsigned long long)n, TILE_L1_SIZE);
                return false;
            }
            ep->kind = NOC_EP_L1;
            return true;
        }
        if (addr >= MMIO_LO && addr <= 0xFFFFFFFCull && mmio_find((uint32_t)addr)) {
            /* Not the NIUs themselves: a request that issues requests is not modelled. */
            if (addr - 0xFFB20000ull < 0x20000ull) {
                REFUSE(q, "NOC%d %s %s x=%u y=%u addr 0x%llx: this tile's NIU registers are not a NoC endpoint here",
                       q->n, q->what, dir, x, y, (unsigned long long)addr);
                return false;
            }
            ep->kind = NOC_EP_MMIO;
            return true;
        }
        REFUSE(q, "NOC%d %s %s x=%u y=%u addr 0x%llx: neither L1 nor a register of this tile", q->n, q->what, dir, x, y,
               (unsigned long long)addr);
        return false;
    }
    int ch = dram_channel_at(x, y, &port);
    if (ch >= 0) {
        if (!dram_in_range(addr, n)) {
            REFUSE(q, "NOC%d %s %s x=%u y=%u (DRAM channel %d) addr 0x%llx: beyond the channel's 4 GiB", q->n, q->what,
                   dir, x, y, ch, (unsigned long long)addr);
            return false;
        }
        ep->kind = NOC_EP_DRAM;
        ep->channel = (uint8_t)ch;
        return true;
    }
    REFUSE(q, "NOC%d %s %s x=%u y=%u addr 0x%llx: another tile (only this tile, x=%u y=%u, and DRAM are modelled)",
           q->n, q->what, dir, x, y, (unsigned long long)addr, t->noc_x, t->noc_y);
    return false;
}

/* A broadcast's rectangle (MemoryMap.md: EndX, EndY, StartX, StartY, 6 bits each) must be this
 * tile alone: the only destination set the model has. */
static bool resolve_mcast(req_ctx_t *q, uint32_t coord, uint64_t addr, uint64_t n, noc_ep_t *ep) {
    unsigned ex = coord & 63u, ey = (coord >> 6) & 63u, sx = (coord >> 12) & 63u, sy = (coord >> 18) & 63u;
    if (!(sx == ex && sy == ey && is_self(q->t, ex, ey))) {
        REFUSE(q, "NOC%d multicast %s to x=%u..%u y=%u..%u addr 0x%llx: other tiles in the rectangle (only x=%u y=%u)",
               q->n, q->what, sx, ex, sy, ey, (unsigned long long)addr, q->t->noc_x, q->t->noc_y);
        return false;
    }
    return resolve(q, "to", ex | ey << 6, addr, n, ep);
}

/* Path latency one way between this tile and an endpoint (docs/noc.md "Timing"). */
static uint64_t path(const noc_ep_t *ep) {
    return 2 * NOC_LAT_NIU + (ep->kind == NOC_EP_DRAM ? NOC_DRAM_HOPS * NOC_LAT_HOP : 0);
}

/* ---- moving data ------------------------------------------------------------------------------- */

static void ep_read(tile_t *t, const noc_ep_t *ep, uint8_t *dst, uint32_t n) {
    switch (ep->kind) {
    case NOC_EP_L1: memcpy(dst, t->l1 + ep->addr, n); break;
    case NOC_EP_MMIO: {
        uint32_t v = 0;
        tile_host_read(t, (uint32_t)ep->addr, &v); /* the device was found at issue */
        memcpy(dst, &v, 4);
        break;
    }
    case NOC_EP_DRAM: dram_read(t->dram, ep->channel, ep->addr, dst, n); break;
    default: break;
    }
}

static void ep_write(tile_t *t, const noc_ep_t *ep, const uint8_t *src, uint32_t n, bool masked, uint64_t mask) {
    switch (ep->kind) {
    case NOC_EP_L1:
        if (!masked)
            memcpy(t->l1 + ep->addr, src, n);
        else
            for (uint32_t i = 0; i < n; i++)
                if ((mask >> i) & 1) t->l1[ep->addr + i] = src[i];
        env_l1_written(t, (uint32_t)ep->addr, n);
        break;
    case NOC_EP_MMIO: {
        uint32_t v;
        memcpy(&v, src, 4);
        tile_host_write(t, (uint32_t)ep->addr, v);
        break;
    }
    case NOC_EP_DRAM: {
        bool ok = masked ? dram_write_masked(t->dram, ep->channel, ep->addr, src, n, mask)
                         : dram_write(t->dram, ep->channel, ep->addr, src, n);
        if (!ok) snprintf(t->noc.error, sizeof t->noc.error, "out of memory for DRAM pages");
        break;
    }
    default: break;
    }
}

/* The atomic at the target (WormholeB0/NoC/Atomics.md): acts on the aligned 16 bytes holding the
 * addressed word; returns the addressed word as it was. */
static uint32_t atomic_apply(tile_t *t, noc_pkt_t *p) {
    uint32_t a = (uint32_t)p->dst.addr, base = a & ~15u, op = (p->at_len_be >> 12) & 0xFu, r;
    uint8_t *l1 = t->l1;
    memcpy(&r, l1 + a, 4);
    uint32_t ofs = p->at_len_be & 3u, w;
    switch (op) {
    case AT_INCR_GET: {
        unsigned width = (p->at_len_be >> 2) & 31u;
        uint32_t mask = width == 31 ? 0xFFFFFFFFu : (2u << width) - 1u;
        memcpy(&w, l1 + base + 4 * ofs, 4);
        w = ((w + p->at_data) & mask) | (w & ~mask);
        memcpy(l1 + base + 4 * ofs, &w, 4);
        break;
    }
    case AT_CAS: {
        uint32_t cmp = (p->at_len_be >> 2) & 15u, set = (p->at_len_be >> 6) & 15u;
        memcpy(&w, l1 + base + 4 * ofs, 4);
        if (w == cmp) memcpy(l1 + base + 4 * ofs, &set, 4);
        break;
    }
    case AT_SWAP_MASK: {
        uint32_t m = (p->at_len_be >> 2) & 0xFFu;
        for (unsigned i = 0; i < 8; i++)
            if ((m >> i) & 1) {
                uint16_t half = (uint16_t)(i & 1 ? p->at_data >> 16 : p->at_data);
                memcpy(l1 + base + 2 * i, &half, 2);
            }
        break;
    }
    default: /* the index variants: Ofs in bits 0..1 (opcode 6) or 2..3 (opcode 7) */
        if (op == AT_SWAP_IDX7) ofs = (p->at_len_be >> 2) & 3u;
        memcpy(l1 + base + 4 * ofs, &p->at_data, 4);
        break;
    }
    env_l1_written(t, base, 16);
    return r;
}

/* ---- a packet's stages (Counters.md: which counters move when) ---------------------------------- */

static void stage(tile_t *t, noc_pkt_t *p, unsigned s) {
    noc_niu_t *u = &t->noc.niu[p->niu];
    bool r = p->resp;
    bool self = p->kind == NOC_READ ? p->src.kind != NOC_EP_DRAM : p->dst.kind != NOC_EP_DRAM;
    switch (s) {
    case NOC_ST_ACCEPT:
        count(u, NIU_MST_CMD_ACCEPTED, 1);
        switch (p->kind) {
        case NOC_READ: count(u, NIU_MST_RD_REQ_STARTED, 1); break;
        case NOC_WRITE: count(u, r ? NIU_MST_NONPOSTED_WR_REQ_STARTED : NIU_MST_POSTED_WR_REQ_STARTED, 1); break;
        case NOC_WRITE_INLINE:
            count(u, r ? NIU_MST_NONPOSTED_WR_REQ_STARTED : NIU_MST_POSTED_WR_REQ_STARTED, 1);
            count(u, r ? NIU_MST_NONPOSTED_WR_REQ_SENT : NIU_MST_POSTED_WR_REQ_SENT, 1);
            break;
        default:
            if (r) count(u, NIU_MST_NONPOSTED_ATOMIC_STARTED, 1);
            break;
        }
        break;
    case NOC_ST_SENT:
        if (p->kind == NOC_READ) {
            count(u, NIU_MST_RD_REQ_SENT, 1);
        } else if (p->kind == NOC_ATOMIC) {
            count(u, r ? NIU_MST_NONPOSTED_ATOMIC_SENT : NIU_MST_POSTED_ATOMIC_SENT, 1);
        } else { /* a write's data leaves: the source is read now */
            count(u, r ? NIU_MST_NONPOSTED_WR_REQ_SENT : NIU_MST_POSTED_WR_REQ_SENT, 1);
            count(u, r ? NIU_MST_NONPOSTED_WR_DATA_WORD_SENT : NIU_MST_POSTED_WR_DATA_WORD_SENT, p->flits);
            ep_read(t, &p->src, p->data, p->len);
            count_down(u, NIU_MST_WRITE_REQS_OUTGOING_ID0 + p->txn);
        }
        break;
    case NOC_ST_TARGET:
        if (p->kind == NOC_READ) {
            ep_read(t, &p->src, p->data, p->len);
            if (self) {
                count(u, NIU_SLV_REQ_ACCEPTED, 1);
                count(u, NIU_SLV_RD_REQ_RECEIVED, 1);
                count(u, NIU_SLV_RD_RESP_SENT, 1);
                count(u, NIU_SLV_RD_DATA_WORD_SENT, p->flits);
            }
        } else if (p->reach) {
            if (p->kind == NOC_ATOMIC) {
                p->result = atomic_apply(t, p);
                count(u, NIU_SLV_REQ_ACCEPTED, 1);
                count(u, r ? NIU_SLV_NONPOSTED_ATOMIC_RECEIVED : NIU_SLV_POSTED_ATOMIC_RECEIVED, 1);
                if (r) count(u, NIU_SLV_ATOMIC_RESP_SENT, 1);
            } else {
                ep_write(t, &p->dst, p->data, p->len, p->be, p->mask);
                if (self) {
                    count(u, r ? NIU_SLV_NONPOSTED_WR_REQ_STARTED : NIU_SLV_POSTED_WR_REQ_STARTED, 1);
                    count(u, r ? NIU_SLV_NONPOSTED_WR_REQ_RECEIVED : NIU_SLV_POSTED_WR_REQ_RECEIVED, 1);
                    count(u, r ? NIU_SLV_NONPOSTED_WR_DATA_WORD_RECEIVED : NIU_SLV_POSTED_WR_DATA_WORD_RECEIVED,
                          p->flits);
                    if (r) count(u, NIU_SLV_WR_ACK_SENT, 1);
                }
            }
        }
        break;
    default: /* NOC_ST_DONE: the answer arrives */
        switch (p->kind) {
        case NOC_READ:
            ep_write(t, &p->dst, p->data, p->len, false, 0);
            count(u, NIU_MST_RD_RESP_RECEIVED, 1);
            count(u, NIU_MST_RD_DATA_WORD_RECEIVED, p->flits);
            break;
        case NOC_ATOMIC:
            ep_write(t, &p->src, (const uint8_t *)&p->result, 4, false, 0);
            count(u, NIU_MST_ATOMIC_RESP_RECEIVED, 1);
            break;
        default: count(u, NIU_MST_WR_ACK_RECEIVED, 1); break;
        }
        count_down(u, NIU_MST_REQS_OUTSTANDING_ID0 + p->txn);
        break;
    }
}

/* A payload buffer: a landed packet's, or a new one (NOC_MAX_PACKET bytes, whatever the packet's
 * length: every buffer serves any packet). Its bytes are the packet's own only from the stage
 * that reads its source on (a buffer is never read before that). Under ASan the bytes past the
 * packet's length are poisoned while it is in flight (as a buffer of its own length would end
 * there), so an access past them is still an error: spare_fit, spare_put. */
static uint8_t *spare_get(noc_t *n) { return n->nspare ? n->spare[--n->nspare] : malloc(NOC_MAX_PACKET); }

static void spare_fit(uint8_t *data, uint32_t len) {
    (void)data, (void)len;
    ASAN_POISON_MEMORY_REGION(data + len, NOC_MAX_PACKET - len);
}

static void spare_put(noc_t *n, uint8_t *data) {
    ASAN_UNPOISON_MEMORY_REGION(data, NOC_MAX_PACKET);
    if (n->nspare == n->spare_cap) {
        size_t c = n->spare_cap ? 2 * n->spare_cap : 16;
        uint8_t **s = realloc(n->spare, c * sizeof *s);
        if (!s) {
            free(data);
            return;
        }
        n->spare = s;
        n->spare_cap = c;
    }
    n->spare[n->nspare++] = data;
}

void noc_tick(tile_t *t) {
    noc_t *n = &t->noc;
    uint64_t now = t->cycle, next = UINT64_MAX;
    size_t keep = 0;
    bool ran = false;
    for (size_t i = 0; i < n->npkt; i++) {
        noc_pkt_t *p = &n->pkt[i];
        while (p->stage < NOC_STAGES && p->at[p->stage] <= now) {
            if (p->at[p->stage]) {
                stage(t, p, p->stage);
                ran = true;
            }
            p->stage++;
        }
        if (p->stage < NOC_STAGES) {
            if (p->at[p->stage] < next) next = p->at[p->stage];
            if (keep != i) n->pkt[keep] = *p; /* down past a landed one */
            keep++;
        } else {
            spare_put(n, p->data);
        }
    }
    n->npkt = keep;
    n->next_at = next;
    if (ran) { /* counters and memory changed: progress, and no spin proof survives it */
        t->progress++;
        tile_spin_forget(t);
    }
}

/* ---- issuing a request ------------------------------------------------------------------------- */

static bool congruent(uint64_t a, uint64_t b, uint64_t m) { return (a & (m - 1)) == (b & (m - 1)); }

/* Alignment.md "When NOC_AT_LEN_BE contains a length", with Blackhole's DRAM reads congruent mod 64
 * (tt-metal's NOC_DRAM_READ_ALIGNMENT_BYTES; writes to DRAM mod 16 as from L1). */
static bool aligned_ok(req_ctx_t *q, const noc_ep_t *s, const noc_ep_t *d, uint64_t len) {
    if (s->kind == NOC_EP_MMIO || d->kind == NOC_EP_MMIO) {
        if (len == 4 && !(s->addr & 3) && !(d->addr & 3)) return true;
        REFUSE(q, "NOC%d %s of %llu bytes 0x%llx -> 0x%llx: a register takes exactly 4 aligned bytes", q->n, q->what,
               (unsigned long long)len, (unsigned long long)s->addr, (unsigned long long)d->addr);
        return false;
    }
    uint64_t m = s->kind == NOC_EP_DRAM ? 64 : 16;
    if (congruent(s->addr, d->addr, m)) return true;
    REFUSE(q, "NOC%d %s 0x%llx (x=%u y=%u) -> 0x%llx (x=%u y=%u): addresses not congruent mod %llu (Alignment.md)",
           q->n, q->what, (unsigned long long)s->addr, s->x, s->y, (unsigned long long)d->addr, d->x, d->y,
           (unsigned long long)m);
    return false;
}

static noc_pkt_t *new_packet(noc_t *n) {
    if (n->npkt == n->cap) {
        size_t c = n->cap ? 2 * n->cap : 16;
        noc_pkt_t *p = realloc(n->pkt, c * sizeof *p);
        if (!p) return NULL;
        n->pkt = p;
        n->cap = c;
    }
    return &n->pkt[n->npkt++]; /* (the caller writes it whole) */
}

static uint64_t addr64(const uint32_t *r, unsigned lo) { return r[lo / 4] | (uint64_t)r[lo / 4 + 1] << 32; }

/* NOC_CMD_CTRL bit 0 written: check the initiator's request whole, then put its packets in flight. */
static __attribute__((noinline)) mem_res_t issue(tile_t *t, int n, hart_t *h, unsigned b) {
    noc_t *nc = &t->noc;
    noc_niu_t *u = &nc->niu[n];
    const uint32_t *r = nc->regs[n] + b * NOC_CMD_BUF_SZ / 4;
    uint32_t ctrl = r[NOC_CTRL / 4], tag = r[NOC_PACKET_TAG / 4], len_be = r[NOC_AT_LEN_BE / 4];
    uint32_t len_hi = r[NOC_AT_LEN_BE_1 / 4], targ_hi = r[NOC_TARG_ADDR_HI / 4], ret_hi = r[NOC_RET_ADDR_HI / 4];
    uint64_t targ = addr64(r, NOC_TARG_ADDR_LO), ret = addr64(r, NOC_RET_ADDR_LO);
    bool resp = ctrl & CTRL_RESP_MARKED, brcst = ctrl & CTRL_BRCST_PACKET;
    unsigned kind = CTRL_TYPE(ctrl) == 0      ? NOC_READ
                    : CTRL_TYPE(ctrl) == 1    ? NOC_ATOMIC
                    : (ctrl & CTRL_WR_INLINE) ? NOC_WRITE_INLINE
                                              : NOC_WRITE;
    req_ctx_t q = {t, h, n, b, noc_kind_name(kind)};
    if (t->cycle < u->ready_at[b])
        return REFUSE(&q, "NOC%d initiator %u: NOC_CMD_CTRL written while its previous request is not yet accepted", n,
                      b);
    if (CTRL_TYPE(ctrl) == 3) return REFUSE(&q, "NOC%d initiator %u: NOC_CTRL request type 3 is reserved", n, b);
    if (ctrl & CTRL_L1_ACC_AT_EN)
        return REFUSE(&q, "NOC%d %s: NOC_CMD_L1_ACC_AT_EN (a hardware bug makes it unsafe) is not modelled", n, q.what);
    if (tag & (TAG_DELIVER_OVERLAY | TAG_HEADER_STORE))
        return REFUSE(&q, "NOC%d %s: NOC_PACKET_TAG overlay delivery / header store is not modelled", n, q.what);

    noc_ep_t src = {0}, dst = {0};
    uint64_t len = 4, mask = 0;
    bool reach = true, be = false;
    switch (kind) {
    case NOC_READ:
        if (brcst)
            return REFUSE(&q, "NOC%d read from x=%u y=%u: a read cannot be broadcast", n, targ_hi & 63u,
                          (targ_hi >> 6) & 63u);
        len = len_be | (uint64_t)len_hi << 32;
        if (!len) return REFUSE(&q, "NOC%d read from addr 0x%llx: length 0", n, (unsigned long long)targ);
        if (!resolve(&q, "from", targ_hi, targ, len, &src) || !resolve(&q, "to", ret_hi, ret, len, &dst))
            return MEM_FAULT;
        if (dst.kind == NOC_EP_DRAM)
            return REFUSE(&q, "NOC%d read to x=%u y=%u addr 0x%llx: a read's data must come back to this tile", n,
                          dst.x, dst.y, (unsigned long long)ret);
        if (!aligned_ok(&q, &src, &dst, len)) return MEM_FAULT;
        break;
    case NOC_WRITE:
        if ((targ_hi & 0xFFFu) != (t->noc_x | (unsigned)t->noc_y << 6))
            return REFUSE(&q, "NOC%d write: its source (NOC_TARG_ADDR_HI x=%u y=%u) must be this tile, x=%u y=%u", n,
                          targ_hi & 63u, (targ_hi >> 6) & 63u, t->noc_x, t->noc_y);
        if (ctrl & CTRL_WR_BE) { /* MemoryMap.md: 64 bytes at most, both addresses rounded down to 16 */
            be = true;
            mask = len_be | (uint64_t)len_hi << 32;
            targ &= ~15ull;
            ret &= ~15ull;
            len = 64;
        } else {
            len = len_be | (uint64_t)len_hi << 32;
            if (!len) return REFUSE(&q, "NOC%d write to addr 0x%llx: length 0", n, (unsigned long long)ret);
        }
        if (!resolve(&q, "from", targ_hi, targ, len, &src)) return MEM_FAULT;
        if (brcst ? !resolve_mcast(&q, ret_hi, ret, len, &dst) : !resolve(&q, "to", ret_hi, ret, len, &dst))
            return MEM_FAULT;
        if (be && (src.kind == NOC_EP_MMIO || dst.kind == NOC_EP_MMIO))
            return REFUSE(&q, "NOC%d byte-enable write 0x%llx -> 0x%llx: registers take plain 4-byte writes here", n,
                          (unsigned long long)targ, (unsigned long long)ret);
        if (!be && !aligned_ok(&q, &src, &dst, len)) return MEM_FAULT;
        break;
    case NOC_WRITE_INLINE:
        if (brcst ? !resolve_mcast(&q, targ_hi, targ, 4, &dst) : !resolve(&q, "to", targ_hi, targ, 4, &dst))
            return MEM_FAULT;
        if (dst.kind != NOC_EP_MMIO)
            return REFUSE(&q, "NOC%d inline write to x=%u y=%u addr 0x%llx: %s", n, dst.x, dst.y,
                          (unsigned long long)targ,
                          dst.kind == NOC_EP_L1 ? "inline writes to L1 are unsafe on Blackhole (a hardware bug)"
                                                : "inline writes reach only Tensix and Ethernet tiles");
        if (targ & 3)
            return REFUSE(&q, "NOC%d inline write to addr 0x%llx: not 4-byte aligned", n, (unsigned long long)targ);
        break;
    default: { /* NOC_ATOMIC: acts at NOC_TARG_ADDR; the result goes to NOC_RET_ADDR */
        unsigned op = (len_be >> 12) & 0xFu;
        if (op != AT_INCR_GET && op != AT_CAS && op != AT_SWAP_MASK && op != AT_SWAP_IDX6 && op != AT_SWAP_IDX7)
            return REFUSE(&q, "NOC%d atomic: opcode %u (NOC_AT_LEN_BE 0x%08x) is not modelled", n, op, len_be);
        if (brcst ? !resolve_mcast(&q, targ_hi, targ, 4, &dst) : !resolve(&q, "at", targ_hi, targ, 4, &dst))
            return MEM_FAULT;
        if (dst.kind != NOC_EP_L1 || (targ & 3))
            return REFUSE(&q, "NOC%d atomic at x=%u y=%u addr 0x%llx: atomics act on aligned L1 words only", n, dst.x,
                          dst.y, (unsigned long long)targ);
        if (resp) {
            if (!resolve(&q, "returning to", ret_hi, ret, 4, &src)) return MEM_FAULT;
            if (src.kind != NOC_EP_L1 || (ret & 3))
                return REFUSE(&q, "NOC%d atomic returning to x=%u y=%u addr 0x%llx: must be an aligned L1 word", n,
                              src.x, src.y, (unsigned long long)ret);
        }
        break;
    }
    }
    if (brcst) reach = ctrl & CTRL_BRCST_SRC_INCL; /* the rectangle is this tile alone */

    /* Packets: reads and plain writes longer than 16 KiB split (Counters.md "Automatic request
     * splitting"), both addresses 64-byte aligned. */
    uint64_t npk = 1;
    if ((kind == NOC_READ || (kind == NOC_WRITE && !be)) && len > NOC_MAX_PACKET) {
        npk = (len + NOC_MAX_PACKET - 1) / NOC_MAX_PACKET;
        if (npk > NOC_MAX_PACKETS || (src.addr & 63) || (dst.addr & 63) || brcst)
            return REFUSE(&q,
                          "NOC%d %s of %llu bytes 0x%llx -> 0x%llx: longer than 16 KiB needs 64-byte aligned "
                          "unicast addresses and at most %u packets",
                          n, q.what, (unsigned long long)len, (unsigned long long)src.addr,
                          (unsigned long long)dst.addr, NOC_MAX_PACKETS);
    }

    /* Issued: counters moved as software writes NOC_CMD_CTRL, then each packet's stages. */
    unsigned txn = TAG_TXN_ID(tag);
    if (kind == NOC_READ || resp) count(u, NIU_MST_REQS_OUTSTANDING_ID0 + txn, (uint32_t)npk);
    if (kind == NOC_WRITE) count(u, NIU_MST_WRITE_REQS_OUTGOING_ID0 + txn, (uint32_t)npk);
    u->requests[kind]++;
    u->bytes[kind] += kind == NOC_WRITE_INLINE || kind == NOC_ATOMIC ? 4 : len;
    nc->used = true;
    uint64_t inject = t->cycle + 1 > u->port_free ? t->cycle + 1 : u->port_free;
    for (uint64_t i = 0; i < npk; i++) {
        noc_pkt_t *p = new_packet(nc);
        uint8_t *data = spare_get(nc);
        if (!p || !data) {
            free(data);
            if (p) nc->npkt--;
            return REFUSE(&q, "NOC%d %s: out of memory", n, q.what);
        }
        uint32_t plen =
            (uint32_t)(len - i * NOC_MAX_PACKET > NOC_MAX_PACKET ? NOC_MAX_PACKET : len - i * NOC_MAX_PACKET);
        *p = (noc_pkt_t){.seq = nc->seq++,
                         .niu = (uint8_t)n,
                         .kind = (uint8_t)kind,
                         .buf = (uint8_t)b,
                         .txn = (uint8_t)txn,
                         .core = (int8_t)(h ? h->id : -1),
                         .resp = kind == NOC_READ || resp,
                         .reach = reach,
                         .be = be,
                         .len = kind == NOC_WRITE_INLINE || kind == NOC_ATOMIC ? 4 : plen,
                         .at_len_be = len_be,
                         .at_data = r[NOC_AT_DATA / 4],
                         .mask = mask,
                         .src = src,
                         .dst = dst,
                         .data = data};
        p->flits = (p->len + NOC_FLIT - 1) / NOC_FLIT;
        spare_fit(p->data, p->len);
        if (kind == NOC_WRITE_INLINE) memcpy(p->data, &p->at_data, 4);
        p->src.addr += i * NOC_MAX_PACKET;
        p->dst.addr += i * NOC_MAX_PACKET;
        /* Timing (docs/noc.md): the NIU injects one packet at a time, a write's data flits behind its
         * header; the other kinds are one flit. */
        uint64_t *at = p->at;
        at[NOC_ST_ACCEPT] = inject;
        switch (kind) {
        case NOC_READ:
            at[NOC_ST_SENT] = inject + 1;
            at[NOC_ST_TARGET] = at[NOC_ST_SENT] + path(&src) + (src.kind == NOC_EP_DRAM ? NOC_DRAM_READ_LATENCY : 0);
            at[NOC_ST_DONE] = at[NOC_ST_TARGET] + path(&src) + p->flits;
            inject += 1;
            break;
        case NOC_WRITE:
            at[NOC_ST_SENT] = inject + p->flits;
            at[NOC_ST_TARGET] = at[NOC_ST_SENT] + path(&dst) + (dst.kind == NOC_EP_DRAM ? NOC_DRAM_WRITE_LATENCY : 0);
            inject += 1 + p->flits;
            break;
        case NOC_WRITE_INLINE:
            at[NOC_ST_TARGET] = inject + 1 + path(&dst);
            inject += 1;
            break;
        default:
            at[NOC_ST_SENT] = inject + 1;
            at[NOC_ST_TARGET] = at[NOC_ST_SENT] + path(&dst);
            inject += 1;
            break;
        }
        if (kind != NOC_READ && resp && reach) at[NOC_ST_DONE] = at[NOC_ST_TARGET] + path(&dst);
        if (at[NOC_ST_ACCEPT] < nc->next_at) nc->next_at = at[NOC_ST_ACCEPT];
        u->ready_at[b] = at[NOC_ST_ACCEPT]; /* NOC_CMD_CTRL reads 0 from the last packet's acceptance */
    }
    u->port_free = inject;
    return MEM_OK;
}

/* ---- the registers -------------------------------------------------------------------------------- */

/* A load by a core whose polls are noted (not the host's, nor a debugger's). */
static bool poll_noted(const hart_t *h) { return h && h->id >= 0 && h->id < NOC_CORES; }

/* A core's load of a counter returns the counter and notes the poll (noc_read): the counter a
 * load by h at off notes, or -1 (not a counter, or not a core's load). */

static int polled_counter(const hart_t *h, uint32_t off) {
    if (off - NOC_STATUS_BASE >= 4 * NOC_COUNTERS || !poll_noted(h)) return -1;
    return (int)((off - NOC_STATUS_BASE) / 4);
}

static void note_poll(noc_niu_t *u, const hart_t *h, int counter, uint64_t cycle) {
    u->poll[h->id].cycle = cycle;
    u->poll[h->id].counter = counter;
}

/* A parked hart's loads are counted, not made (core/exec.c): the word, and its note replayed. */
static const uint32_t *noc_counter_word(tile_t *t, int n, const hart_t *h, uint32_t off, bool *noted) {
    int c = polled_counter(h, off);
    if (c < 0) return NULL;
    *noted = true;
    return &t->noc.niu[n].counter[c];
}

static void noc_counter_polled(tile_t *t, int n, const hart_t *h, uint32_t off, uint64_t cycle) {
    int c = polled_counter(h, off);
    if (c >= 0) note_poll(&t->noc.niu[n], h, c, cycle);
}

static mem_res_t noc_read(tile_t *t, int n, hart_t *h, uint32_t off, unsigned size, uint32_t *val) {
    noc_t *nc = &t->noc;
    noc_niu_t *u = &nc->niu[n];
    if (size != 4) return mmio_fault(h, FAULT_ACCESS, "%u-byte load from %s (32-bit only)", size, niu_dev_names[n]);
    if (off - NOC_STATUS_BASE < 4 * NOC_COUNTERS) { /* the polls first (no register of initiator 0's window is there) */
        int c = (int)((off - NOC_STATUS_BASE) / 4);
        *val = u->counter[c];
        if (poll_noted(h)) note_poll(u, h, c, t->cycle);
        return MEM_OK;
    }
    if (off < NOC_CMD_BUFS * NOC_CMD_BUF_SZ) {
        unsigned b = off / NOC_CMD_BUF_SZ;
        switch (off % NOC_CMD_BUF_SZ) {
        case NOC_CMD_CTRL: *val = t->cycle < u->ready_at[b]; return MEM_OK;
        case NOC_NODE_ID: { /* NoC coordinates (NOC1 runs the other way round), 17 x 12, routing order */
            unsigned x = n ? 16u - t->noc_x : t->noc_x, y = n ? 11u - t->noc_y : t->noc_y;
            *val = x | y << 6 | 17u << 12 | 12u << 19 | (uint32_t)(n == 0) << 28;
            return MEM_OK;
        }
        case NOC_ENDPOINT_ID:                        /* a Tensix tile */
            *val = 0x0100u << 8 | (uint32_t)n << 24; /* an NIU register (check_fields: not a field) */
            return MEM_OK;
        case NOC_CLEAR_OUTSTANDING_REQ_CNT:
            if (b == 0) {
                *val = 0; /* write-only */
                return MEM_OK;
            }
            break;
        default: break;
        }
    }
    if (off == NOC_ID_LOGICAL) {
        *val = (uint32_t)(t->noc_x & 0x3F) | (uint32_t)(t->noc_y & 0x3F) << 6;
        return MEM_OK;
    }
    if (off == NIU_TRANS_COUNT_RTZ_SOURCE) {
        *val = u->rtz_source;
        return MEM_OK;
    }
    if (off == NIU_TRANS_COUNT_RTZ_CLR) {
        *val = 0;
        return MEM_OK;
    }
    if (off == NIU_TRANS_COUNT_RTZ_NUM) {
        uint32_t cfg = nc->regs[n][NIU_TRANS_COUNT_RTZ_CFG / 4], pend = u->rtz_source & cfg & RTZ_INT_ENABLE;
        *val = pend ? (uint32_t)__builtin_ctz(pend) : 0;
        if (pend && !(cfg & RTZ_RC_DISABLE)) u->rtz_source &= ~(1u << *val);
        return MEM_OK;
    }
    return mmio_storage_read(&nc->regs[n][off / 4], h, niu_dev_names[n], size, val);
}

static mem_res_t noc_write(tile_t *t, int n, hart_t *h, uint32_t off, unsigned size, uint32_t val) {
    noc_t *nc = &t->noc;
    noc_niu_t *u = &nc->niu[n];
    if (size != 4) return mmio_fault(h, FAULT_ACCESS, "%u-byte store to %s (32-bit only)", size, niu_dev_names[n]);
    if (off < NOC_CMD_BUFS * NOC_CMD_BUF_SZ) {
        if (off % NOC_CMD_BUF_SZ < NOC_CMD_CTRL) { /* an initiator's request registers: storage, first */
            nc->regs[n][off / 4] = val;
            return MEM_OK;
        }
        unsigned b = off / NOC_CMD_BUF_SZ;
        switch (off % NOC_CMD_BUF_SZ) {
        case NOC_CMD_CTRL: return (val & 1) ? issue(t, n, h, b) : MEM_OK;
        case NOC_NODE_ID:
        case NOC_ENDPOINT_ID: return MEM_OK; /* read-only */
        case NOC_CLEAR_OUTSTANDING_REQ_CNT:
            if (b != 0) break;
            for (unsigned i = 0; i < 16; i++)
                if ((val >> i) & 1) u->counter[NIU_MST_REQS_OUTSTANDING_ID0 + i] = 0;
            if (u->writes) ++*u->writes;
            return MEM_OK;
        default: break;
        }
    }
    if (off - NOC_STATUS_BASE < 4 * NOC_COUNTERS || off == NIU_TRANS_COUNT_RTZ_SOURCE || off == NIU_TRANS_COUNT_RTZ_NUM)
        return MEM_OK; /* read-only */
    if (off == NIU_TRANS_COUNT_RTZ_CLR) {
        u->rtz_source &= ~val;
        return MEM_OK;
    }
    return mmio_storage_write(&nc->regs[n][off / 4], h, niu_dev_names[n], size, val);
}

mem_res_t noc0_read(tile_t *t, hart_t *h, uint32_t o, unsigned s, uint32_t *v) { return noc_read(t, 0, h, o, s, v); }
mem_res_t noc1_read(tile_t *t, hart_t *h, uint32_t o, unsigned s, uint32_t *v) { return noc_read(t, 1, h, o, s, v); }
mem_res_t noc0_write(tile_t *t, hart_t *h, uint32_t o, unsigned s, uint32_t v) { return noc_write(t, 0, h, o, s, v); }
mem_res_t noc1_write(tile_t *t, hart_t *h, uint32_t o, unsigned s, uint32_t v) { return noc_write(t, 1, h, o, s, v); }
const uint32_t *noc0_pure_word(tile_t *t, const hart_t *h, uint32_t o, bool *nt) {
    return noc_counter_word(t, 0, h, o, nt);
}
const uint32_t *noc1_pure_word(tile_t *t, const hart_t *h, uint32_t o, bool *nt) {
    return noc_counter_word(t, 1, h, o, nt);
}
void noc0_polled(tile_t *t, const hart_t *h, uint32_t o, uint64_t c) { noc_counter_polled(t, 0, h, o, c); }
void noc1_polled(tile_t *t, const hart_t *h, uint32_t o, uint64_t c) { noc_counter_polled(t, 1, h, o, c); }
