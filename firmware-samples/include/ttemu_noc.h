/* ttemu_noc.h — driving the NIUs from RV32 samples the way tt-metal's noc_nonblocking_api.h does
 * on Blackhole: program a request initiator (NOC_CMD_BUF_OFFSET 0x800 apart), write NOC_CMD_CTRL,
 * poll the counters at NIU_BASE + 0x200 (docs/noc.md). */
#ifndef TTEMU_NOC_H
#define TTEMU_NOC_H

#include <stdint.h>

#define NIU_BASE(noc)          (0xFFB20000u + 0x10000u * (uint32_t)(noc))
#define NIU_REG(noc, buf, off) (*(volatile uint32_t *)(uintptr_t)(NIU_BASE(noc) + 0x800u * (uint32_t)(buf) + (off)))
#define NIU_COUNTER(noc, c)    (*(volatile uint32_t *)(uintptr_t)(NIU_BASE(noc) + 0x200u + 4u * (uint32_t)(c)))

/* Initiator registers (noc_parameters.h). */
#define NOC_TARG_ADDR_LO  0x00u
#define NOC_TARG_ADDR_MID 0x04u
#define NOC_TARG_ADDR_HI  0x08u
#define NOC_RET_ADDR_LO   0x0Cu
#define NOC_RET_ADDR_MID  0x10u
#define NOC_RET_ADDR_HI   0x14u
#define NOC_CTRL          0x1Cu
#define NOC_AT_LEN_BE     0x20u
#define NOC_AT_DATA       0x28u
#define NOC_CMD_CTRL      0x40u
/* NOC_CTRL values */
#define NOC_CMD_RD          0x00u
#define NOC_CMD_AT          0x01u
#define NOC_CMD_WR          0x02u
#define NOC_CMD_RESP_MARKED 0x10u
/* Counters */
#define NIU_MST_ATOMIC_RESP_RECEIVED 0u
#define NIU_MST_WR_ACK_RECEIVED      1u
#define NIU_MST_RD_RESP_RECEIVED     2u
/* Coordinates: this tile (translated x 1, y 2) and DRAM bank b's first port. */
#define NOC_XY(x, y)  (((uint32_t)(y) << 6) | (uint32_t)(x))
#define NOC_SELF      NOC_XY(1, 2)
#define NOC_DRAM(b)   NOC_XY(17 + (b) / 4, 12 + 3 * ((b) % 4))
#define NOC_AT_INCR32 ((1u << 12) | (31u << 2)) /* NOC_AT_INS_INCR_GET, full 32-bit width */

static inline void noc_wait_ready(unsigned noc, unsigned buf) {
    while (NIU_REG(noc, buf, NOC_CMD_CTRL) & 1u) {
    }
}

/* Read len bytes at (xy, src) into this tile's L1 at dst (initiator 1, as tt-metal's reads). */
static inline void noc_read(unsigned noc, uint32_t xy, uint32_t src, uint32_t dst, uint32_t len) {
    noc_wait_ready(noc, 1);
    NIU_REG(noc, 1, NOC_TARG_ADDR_LO) = src;
    NIU_REG(noc, 1, NOC_TARG_ADDR_MID) = 0;
    NIU_REG(noc, 1, NOC_TARG_ADDR_HI) = xy;
    NIU_REG(noc, 1, NOC_RET_ADDR_LO) = dst;
    NIU_REG(noc, 1, NOC_RET_ADDR_MID) = 0;
    NIU_REG(noc, 1, NOC_RET_ADDR_HI) = NOC_SELF;
    NIU_REG(noc, 1, NOC_CTRL) = NOC_CMD_RD | NOC_CMD_RESP_MARKED;
    NIU_REG(noc, 1, NOC_AT_LEN_BE) = len;
    NIU_REG(noc, 1, NOC_CMD_CTRL) = 1;
}

/* Write len bytes of this tile's L1 at src to (xy, dst), acknowledged (initiator 0). */
static inline void noc_write(unsigned noc, uint32_t src, uint32_t xy, uint32_t dst, uint32_t len) {
    noc_wait_ready(noc, 0);
    NIU_REG(noc, 0, NOC_TARG_ADDR_LO) = src;
    NIU_REG(noc, 0, NOC_TARG_ADDR_MID) = 0;
    NIU_REG(noc, 0, NOC_TARG_ADDR_HI) = NOC_SELF;
    NIU_REG(noc, 0, NOC_RET_ADDR_LO) = dst;
    NIU_REG(noc, 0, NOC_RET_ADDR_MID) = 0;
    NIU_REG(noc, 0, NOC_RET_ADDR_HI) = xy;
    NIU_REG(noc, 0, NOC_CTRL) = NOC_CMD_WR | NOC_CMD_RESP_MARKED;
    NIU_REG(noc, 0, NOC_AT_LEN_BE) = len;
    NIU_REG(noc, 0, NOC_CMD_CTRL) = 1;
}

/* Atomically add inc to the L1 word at (xy, addr); the old value goes to this tile's ret. */
static inline void noc_atomic_inc(unsigned noc, uint32_t xy, uint32_t addr, uint32_t inc, uint32_t ret) {
    noc_wait_ready(noc, 3);
    NIU_REG(noc, 3, NOC_TARG_ADDR_LO) = addr;
    NIU_REG(noc, 3, NOC_TARG_ADDR_MID) = 0;
    NIU_REG(noc, 3, NOC_TARG_ADDR_HI) = xy;
    NIU_REG(noc, 3, NOC_RET_ADDR_LO) = ret;
    NIU_REG(noc, 3, NOC_RET_ADDR_MID) = 0;
    NIU_REG(noc, 3, NOC_RET_ADDR_HI) = NOC_SELF;
    NIU_REG(noc, 3, NOC_CTRL) = NOC_CMD_AT | NOC_CMD_RESP_MARKED;
    NIU_REG(noc, 3, NOC_AT_LEN_BE) = NOC_AT_INCR32 | ((addr >> 2) & 3u);
    NIU_REG(noc, 3, NOC_AT_DATA) = inc;
    NIU_REG(noc, 3, NOC_CMD_CTRL) = 1;
}

/* Wait until counter c of NIU noc reaches target (tt-metal's barriers). */
static inline void noc_wait_counter(unsigned noc, unsigned c, uint32_t target) {
    while (NIU_COUNTER(noc, c) != target) {
    }
}

#endif
