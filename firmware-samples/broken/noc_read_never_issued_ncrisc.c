/* Broken on purpose: NCRISC, a reader kernel in miniature, programs a NOC0 read of a DRAM page
 * and counts it as issued, but never writes NOC_CMD_CTRL: the read is never sent. It then waits,
 * as tt-metal's noc_async_read_barrier does, for NIU_MST_RD_RESP_RECEIVED to reach the number of
 * reads it issued. Nothing is in flight, so the counter never moves: after the deadlock window the
 * diagnosis names the NIU counter, the value awaited and the request that was never issued. */
#include "ttemu_fw.h"
#include "ttemu_noc.h"

int main(void) {
    uint32_t issued = 0;
    noc_wait_ready(0, 1);
    NIU_REG(0, 1, NOC_TARG_ADDR_LO) = 0x100000;
    NIU_REG(0, 1, NOC_TARG_ADDR_MID) = 0;
    NIU_REG(0, 1, NOC_TARG_ADDR_HI) = NOC_DRAM(0);
    NIU_REG(0, 1, NOC_RET_ADDR_LO) = 0x60000;
    NIU_REG(0, 1, NOC_RET_ADDR_HI) = NOC_SELF;
    NIU_REG(0, 1, NOC_CTRL) = NOC_CMD_RD | NOC_CMD_RESP_MARKED;
    NIU_REG(0, 1, NOC_AT_LEN_BE) = 2048;
    /* missing: NIU_REG(0, 1, NOC_CMD_CTRL) = 1; */
    issued++;
    L1_WORD(0x9000) = issued;
    noc_wait_counter(0, NIU_MST_RD_RESP_RECEIVED, issued);
    L1_WORD(0x9004) = 1; /* never reached */
    return 0;
}
