/* Broken on purpose: BRISC waits for a software semaphore (an L1 flag at 0x9000) that no core
 * ever sets. It makes no store, push or semaphore change: after the deadlock window the run ends
 * as a deadlock naming the loop and the polled word. */
#include "ttemu_fw.h"

#define FLAG 0x9000u

int main(void) {
    L1_WORD(0x9004) = 1; /* "started" */
    while (L1_WORD(FLAG) == 0) {
    }
    L1_WORD(0x9008) = 2;
    return 0;
}
