/* Demo, BRISC: the sum 1..100 (5050) into L1 0x8000. */
#include "ttemu_fw.h"

int main(void) {
    uint32_t s = 0;
    for (uint32_t i = 1; i <= 100; i++)
        s += i;
    L1_WORD(0x8000) = s;
    return 0;
}
