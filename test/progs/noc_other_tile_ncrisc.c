/* Broken on purpose: NCRISC reads from a tile the model does not have (x 5, y 7): the run stops
 * with a guest fault naming the core, pc, NOC, coordinates and address (exit 3). */
#include "ttemu_fw.h"
#include "ttemu_noc.h"

int main(void) {
    L1_WORD(0x9000) = 1;
    noc_read(0, NOC_XY(5, 7), 0x1000, 0x30000, 64);
    noc_wait_counter(0, NIU_MST_RD_RESP_RECEIVED, 1);
    L1_WORD(0x9000) = 2;
    return 0;
}
