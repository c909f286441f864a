/* park_brisc.c's other half: wake BRISC's spins one kind of write at a time, at fixed delays
 * (long enough for BRISC to be parked on each), then spin on words BRISC writes. */
#include "ttemu_fw.h"
#include "ttemu_noc.h"

#define A      0x9400u
#define B      0x9404u
#define PATCH  0x940Cu
#define D      0x9410u
#define E      0x9414u
#define SRC    0x9504u /* congruent with B mod 16 (Alignment.md) */
#define STREAM (*(volatile uint32_t *)0xFFB48028u)

static void delay(void) {
    for (volatile int i = 0; i < 300; i++) {
    }
}

int main(void) {
    delay();
    L1_WORD(A) = 0x11;
    delay();
    STREAM = 0x22;
    delay();
    L1_WORD(SRC) = 0x33;
    noc_write(0, SRC, NOC_SELF, B, 4);
    delay();
    while (!L1_WORD(PATCH)) {
    }
    delay();
    L1_WORD(L1_WORD(PATCH)) = 0x00000013u; /* nop over the loop's branch */
    while (!L1_WORD(D)) {
    }
    while (!L1_WORD(E)) {
    }
    uint32_t c;
    __asm__ volatile("csrr %0, mcycle" : "=r"(c));
    L1_WORD(0x9700) = c;
    return 0;
}
