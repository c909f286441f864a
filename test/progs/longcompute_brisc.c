/* A long computation in registers only: ~1.5 M cycles with no store, push or semaphore change.
 * It is progress, not a deadlock: the run must end with exit 0 and the right result. */
#include "ttemu_fw.h"

int main(void) {
    uint32_t x = 1, y = 0;
    for (uint32_t i = 0; i < 300000; i++) {
        x = x * 1664525u + 1013904223u;
        y ^= x >> 7;
    }
    L1_WORD(0x9200) = y;
    return 0;
}
