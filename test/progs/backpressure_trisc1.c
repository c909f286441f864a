/* FIFO back-pressure, the releasing side: after 400 cycles, flag L1 0x9100 and post semaphore 0
 * through the PCBuf semaphore window (SyncUnit.md: a store with bit 0 clear posts). */
#include "ttemu_fw.h"

int main(void) {
    spin_cycles(400);
    L1_WORD(0x9100) = 1;
    SEMAPHORE(0) = 0;
    return 0;
}
