/* mmio/noc.h — the tile's two NoC interface units (NIUs): NOC0 at 0xFFB20000, NOC1 at
 * 0xFFB30000, one implementation (mmio/noc.c). docs/noc.md describes the model: what a request
 * does, when (the latency model), and what is refused.
 *
 * Sources: tt-isa-documentation BlackholeA0/NoC/MemoryMap.md (request initiators, NOC_CTRL,
 * NOC_CMD_CTRL), Counters.md (when each counter moves), README.md (latencies), the WormholeB0 NoC
 * pages they defer to (Atomics.md, Alignment.md, Ordering.md); tt-metal's Blackhole
 * noc_parameters.h for the register offsets and flag bits.
 *
 * A request written to an initiator's NOC_CMD_CTRL becomes one or more packets in flight; each
 * packet goes through its stages (accepted, sent, performed at the target, answered) at cycles
 * fixed when it is issued, at the tile's end of cycle (noc_tick), so every run path sees the same
 * thing at the same cycle. While any packet is in flight the tile is not idle (tile/sched.c). */
#ifndef TTEMU_MMIO_NOC_H
#define TTEMU_MMIO_NOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NOC_NIUS       2
#define NOC_CMD_BUFS   4      /* request initiators per NIU */
#define NOC_CMD_BUF_SZ 0x800u /* NOC_CMD_BUF_OFFSET on Blackhole */
#define NOC_COUNTERS   64     /* NIU counters at NIU_BASE + 0x200 (Counters.md) */
#define NOC_CORES      5      /* TILE_NCORES: who polled what, per core */

/* Register offsets within a request initiator (noc_parameters.h). */
enum {
    NOC_TARG_ADDR_LO = 0x00,
    NOC_TARG_ADDR_MID = 0x04,
    NOC_TARG_ADDR_HI = 0x08,
    NOC_RET_ADDR_LO = 0x0C,
    NOC_RET_ADDR_MID = 0x10,
    NOC_RET_ADDR_HI = 0x14,
    NOC_PACKET_TAG = 0x18,
    NOC_CTRL = 0x1C,
    NOC_AT_LEN_BE = 0x20,
    NOC_AT_LEN_BE_1 = 0x24,
    NOC_AT_DATA = 0x28,
    NOC_CMD_CTRL = 0x40,
    NOC_NODE_ID = 0x44,
    NOC_ENDPOINT_ID = 0x48,
};
/* Offsets in the NIU (not per initiator). */
enum {
    NOC_CLEAR_OUTSTANDING_REQ_CNT = 0x60,
    NOC_CFG_BASE = 0x100,
    NOC_ID_LOGICAL = 0x148, /* NOC_CFG(0x12): this tile's translated coordinates */
    NIU_TRANS_COUNT_RTZ_CFG = 0x178,
    NIU_TRANS_COUNT_RTZ_CLR = 0x17C,
    NOC_STATUS_BASE = 0x200, /* the counters */
    NIU_TRANS_COUNT_RTZ_NUM = 0x378,
    NIU_TRANS_COUNT_RTZ_SOURCE = 0x37C,
};

/* Counter indexes (Counters.md; names as tt-metal spells them). */
enum {
    NIU_MST_ATOMIC_RESP_RECEIVED = 0,
    NIU_MST_WR_ACK_RECEIVED,
    NIU_MST_RD_RESP_RECEIVED,
    NIU_MST_RD_DATA_WORD_RECEIVED,
    NIU_MST_CMD_ACCEPTED,
    NIU_MST_RD_REQ_SENT,
    NIU_MST_NONPOSTED_ATOMIC_SENT,
    NIU_MST_POSTED_ATOMIC_SENT,
    NIU_MST_NONPOSTED_WR_DATA_WORD_SENT,
    NIU_MST_POSTED_WR_DATA_WORD_SENT,
    NIU_MST_NONPOSTED_WR_REQ_SENT,
    NIU_MST_POSTED_WR_REQ_SENT,
    NIU_MST_NONPOSTED_WR_REQ_STARTED,
    NIU_MST_POSTED_WR_REQ_STARTED,
    NIU_MST_RD_REQ_STARTED,
    NIU_MST_NONPOSTED_ATOMIC_STARTED,
    NIU_MST_REQS_OUTSTANDING_ID0 = 0x10, /* + transaction ID, 8 bits each */
    NIU_MST_WRITE_REQS_OUTGOING_ID0 = 0x20,
    NIU_SLV_ATOMIC_RESP_SENT = 0x30,
    NIU_SLV_WR_ACK_SENT,
    NIU_SLV_RD_RESP_SENT,
    NIU_SLV_RD_DATA_WORD_SENT,
    NIU_SLV_REQ_ACCEPTED,
    NIU_SLV_RD_REQ_RECEIVED,
    NIU_SLV_NONPOSTED_ATOMIC_RECEIVED,
    NIU_SLV_POSTED_ATOMIC_RECEIVED,
    NIU_SLV_NONPOSTED_WR_DATA_WORD_RECEIVED,
    NIU_SLV_POSTED_WR_DATA_WORD_RECEIVED,
    NIU_SLV_NONPOSTED_WR_REQ_RECEIVED,
    NIU_SLV_POSTED_WR_REQ_RECEIVED,
    NIU_SLV_NONPOSTED_WR_REQ_STARTED,
    NIU_SLV_POSTED_WR_REQ_STARTED,
};

/* The latency model (docs/noc.md "Timing"), in tile cycles. BlackholeA0/NoC/README.md gives ~5
 * cycles between an NIU and its router and 9 per router hop; the rest is ttemu's choice. */
enum {
    NOC_LAT_NIU = 5,             /* NIU to router, and router to NIU */
    NOC_LAT_HOP = 9,             /* router to router */
    NOC_DRAM_HOPS = 4,           /* router hops between this tile and any DRAM tile */
    NOC_DRAM_READ_LATENCY = 300, /* a DRAM tile's read, request in to data out */
    NOC_DRAM_WRITE_LATENCY = 100 /* a DRAM tile's write, data in to committed (acknowledged) */
};

#define NOC_MAX_PACKET  16384u /* 256 data flits of 64 bytes */
#define NOC_FLIT        64u
#define NOC_MAX_PACKETS 127u /* an automatically split request (8-bit outstanding counters) */

/* What a request does (NOC_CTRL bits 0..3). */
typedef enum { NOC_READ = 0, NOC_WRITE, NOC_WRITE_INLINE, NOC_ATOMIC, NOC_KINDS } noc_kind_t;

/* Where data comes from or goes to. */
typedef enum { NOC_EP_NONE = 0, NOC_EP_L1, NOC_EP_MMIO, NOC_EP_DRAM } noc_ep_kind_t;
typedef struct {
    uint8_t kind;    /* noc_ep_kind_t */
    uint8_t channel; /* DRAM channel */
    uint8_t x, y;    /* the coordinates the request named */
    uint64_t addr;
} noc_ep_t;

/* A packet in flight. Stages run in order at the cycles fixed at issue; at[s] is the cycle of
 * stage s (0 for a stage this packet has not). */
typedef enum { NOC_ST_ACCEPT = 0, NOC_ST_SENT, NOC_ST_TARGET, NOC_ST_DONE, NOC_STAGES } noc_stage_t;
typedef struct {
    uint64_t seq;                /* issue order, for a deterministic order within a cycle */
    uint64_t at[NOC_STAGES];     /* cycle of each stage; 0: none */
    uint8_t stage;               /* the next stage to run */
    uint8_t niu, kind, buf, txn; /* txn: NOC_PACKET_TRANSACTION_ID */
    int8_t core;                 /* issuing core, -1 the host */
    bool resp;                   /* a response or acknowledgement comes back */
    bool reach;                  /* a recipient exists (a multicast may exclude its only one) */
    bool be;                     /* byte-enable write: mask below */
    uint32_t len, flits;         /* payload bytes, data flits */
    uint32_t at_len_be, at_data; /* atomics: opcode and operands, immediate */
    uint64_t mask;               /* byte-enable mask (64 bytes) */
    uint32_t result;             /* an atomic's returned value */
    noc_ep_t src, dst;           /* atomic: dst is the L1 word acted on, src the return address */
    uint8_t *data;               /* payload in flight: len bytes of a NOC_MAX_PACKET buffer (noc_t.spare) */
} noc_pkt_t;

typedef struct {
    uint32_t counter[NOC_COUNTERS];
    uint64_t *writes;    /* bumped by every change of counter (tile_t.dev_writes); may be NULL */
    uint32_t rtz_source; /* NIU_TRANS_COUNT_RTZ_SOURCE */
    uint64_t port_free;  /* first cycle the NIU can inject another packet */
    uint64_t ready_at[NOC_CMD_BUFS];
    /* run totals (the report): requests by kind, payload bytes */
    uint64_t requests[NOC_KINDS], bytes[NOC_KINDS];
    /* The last NIU counter each core read, and when (diagnosis, trace, panel). */
    struct {
        uint64_t cycle;
        int counter; /* counter index, -1 never */
    } poll[NOC_CORES];
} noc_niu_t;

typedef struct {
    uint32_t *regs[NOC_NIUS]; /* 64 KiB each (one mapping, noc_init): the registers without behaviour, as storage */
    noc_niu_t niu[NOC_NIUS];
    noc_pkt_t *pkt; /* in flight, in issue order */
    size_t npkt, cap;
    /* Payload buffers of landed packets (NOC_MAX_PACKET bytes each), for the next ones: a run
     * keeps as many as it ever had in flight rather than allocating one a packet (the pool never
     * shrinks: 16 KiB a packet at the most in flight at once, also for a 4-byte one). */
    uint8_t **spare;
    size_t nspare, spare_cap;
    uint64_t next_at; /* earliest stage of any packet in flight; UINT64_MAX: none */
    uint64_t seq;
    bool used; /* a request was ever issued (the report's "noc" section) */
    /* The last refused request, in words (a hart's fault carries it too; the host has no hart). */
    char error[200];
} noc_t;

bool noc_init(noc_t *n);
void noc_free(noc_t *n);

static inline bool noc_idle(const noc_t *n) { return n->npkt == 0; }

typedef struct tile tile_t;
/* Run every stage due at or before the tile's cycle (called at the end of each cycle, after the
 * cycle counter moved on: tile_noc_tick). */
void noc_tick(tile_t *t);

/* ---- read-only views: the diagnosis, the trace, the panel, the report ---- */

/* "NIU_MST_RD_RESP_RECEIVED", ..., or NULL for an index without a counter. */
const char *noc_counter_name(unsigned counter);
/* The NIU counter at a tile address: its index, *niu set; -1 if addr is no counter. */
int noc_counter_at(uint32_t addr, int *niu);
/* Packets of NIU niu in flight that will still advance the given counter. */
unsigned noc_pending_for(const noc_t *n, int niu, unsigned counter);
/* Packets of NIU niu in flight, of one kind (NOC_KINDS: all kinds). */
unsigned noc_in_flight(const noc_t *n, int niu, unsigned kind);
/* "read", "write", "inline write", "atomic" */
const char *noc_kind_name(unsigned kind);
/* The kind of request a counter counts the answers (or sending) of, NOC_KINDS for several. */
unsigned noc_counter_kind(unsigned counter);

#endif
