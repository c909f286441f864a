/* The NIUs driven from a core as tt-metal kernels drive them (firmware-samples/include/ttemu_noc.h):
 * 1000 bytes of L1 written to DRAM bank 2 over NOC1 and read back over NOC0 through another port of
 * the same channel; a 200-byte loopback read at addresses congruent mod 16; three atomic
 * increments of an L1 word; a read of never-written DRAM (zeros, counted in the report). Results
 * at 0x9000 (test/sh/t_noc.sh): mismatches, loopback mismatches, the atomic's word and the last
 * value it returned, the first word read from unwritten DRAM. */
#include "ttemu_fw.h"
#include "ttemu_noc.h"

#define SRC  0x20000u
#define BACK 0x24000u
#define LOOP 0x26010u
#define LEN  1000u

int main(void) {
    for (uint32_t i = 0; i < LEN; i++)
        *(volatile uint8_t *)(uintptr_t)(SRC + i) = (uint8_t)(i * 13 + 5);
    noc_write(1, SRC, NOC_DRAM(2), 0x5000, LEN);
    noc_wait_counter(1, NIU_MST_WR_ACK_RECEIVED, 1);
    noc_read(0, NOC_XY(17, 12 + 3 * 2 + 2), 0x5000, BACK, LEN); /* bank 2, port 2 */
    noc_wait_counter(0, NIU_MST_RD_RESP_RECEIVED, 1);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < LEN; i++)
        bad += *(volatile uint8_t *)(uintptr_t)(BACK + i) != (uint8_t)(i * 13 + 5);
    L1_WORD(0x9000) = bad;

    noc_read(0, NOC_SELF, SRC + 0x10, LOOP, 200);
    noc_wait_counter(0, NIU_MST_RD_RESP_RECEIVED, 2);
    bad = 0;
    for (uint32_t i = 0; i < 200; i++)
        bad += *(volatile uint8_t *)(uintptr_t)(LOOP + i) != *(volatile uint8_t *)(uintptr_t)(SRC + 0x10 + i);
    L1_WORD(0x9004) = bad;

    L1_WORD(0x9100) = 10;
    for (int k = 0; k < 3; k++)
        noc_atomic_inc(0, NOC_SELF, 0x9100, 5, 0x9104);
    noc_wait_counter(0, NIU_MST_ATOMIC_RESP_RECEIVED, 3);
    L1_WORD(0x9008) = L1_WORD(0x9100);
    L1_WORD(0x900C) = L1_WORD(0x9104);

    L1_WORD(0x9200) = 0xFFFFFFFFu;
    noc_read(0, NOC_DRAM(6), 0x40000, 0x9200, 64);
    noc_wait_counter(0, NIU_MST_RD_RESP_RECEIVED, 3);
    L1_WORD(0x9010) = L1_WORD(0x9200);
    return 0;
}
