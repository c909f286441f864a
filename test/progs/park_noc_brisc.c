/* Parked on a NIU counter (t_fastpath.sh): BRISC reads 16 x 256 KiB of DRAM over NOC1 and waits
 * for the responses (thousands of cycles), beside
 * firmware-samples/broken/noc_read_never_issued_ncrisc.c waiting on NOC0 for a read never
 * issued, so two harts run and the group's turns park both on their counters. A trace that
 * starts while BRISC's reads are in flight classifies it as waiting on the NoC only if its last
 * poll is recent: a parked hart's reads replay their note (the poll record) when it settles. */
#include "ttemu_fw.h"
#include "ttemu_noc.h"

int main(void) {
    for (int i = 0; i < 16; i++)
        noc_read(1, NOC_DRAM(1), 0x10000, 0x40000, 0x40000);
    noc_wait_counter(1, NIU_MST_RD_RESP_RECEIVED, 16);
    L1_WORD(0x9100) = 1;
    return 0;
}
