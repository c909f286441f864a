/* Demo, TRISC0: the number of primes below 1000 (168) into L1 0x8008, by trial division (M ext). */
#include "ttemu_fw.h"

int main(void) {
    uint32_t n = 0;
    for (uint32_t p = 2; p < 1000; p++) {
        uint32_t d = 2;
        while (d * d <= p && p % d)
            d++;
        n += d * d > p;
    }
    L1_WORD(0x8008) = n;
    return 0;
}
