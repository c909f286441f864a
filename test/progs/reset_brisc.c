/* BRISC releases TRISC1 through SOFT_RESET_0 with its reset-PC override, then waits for it to
 * write L1 0x9100, and puts it back in reset. TRISC1 runs trisc1_entry below, which is part of
 * this image: only BRISC is started from the command line. */
#include "ttemu_fw.h"

void trisc1_entry(void);
__asm__(".globl trisc1_entry\n"
        "trisc1_entry:\n"
        "  li t0, 0x7A11\n"
        "  li t1, 0x9100\n"
        "  sw t0, 0(t1)\n"
        "1: j 1b\n");

#define SOFT_RESET_0            L1_WORD(0xFFB121B0u)
#define TRISC1_RESET_PC         L1_WORD(0xFFB1222Cu)
#define TRISC_RESET_PC_OVERRIDE L1_WORD(0xFFB12234u)

int main(void) {
    L1_WORD(0x9100) = 0;
    L1_WORD(0x9104) = SOFT_RESET_0; /* 0x47000: BRISC itself already released */
    TRISC1_RESET_PC = (uint32_t)(uintptr_t)trisc1_entry;
    TRISC_RESET_PC_OVERRIDE = 1u << 1;
    SOFT_RESET_0 = SOFT_RESET_0 & ~(1u << 13); /* release TRISC1 */
    while (L1_WORD(0x9100) != 0x7A11) {
    }
    SOFT_RESET_0 = SOFT_RESET_0 | (1u << 13); /* and hold it again */
    L1_WORD(0x9108) = SOFT_RESET_0;
    /* The wall clock advances with the cycle count. */
    uint32_t a = L1_WORD(0xFFB121F0u), b = L1_WORD(0xFFB121F0u);
    L1_WORD(0x910C) = b - a;
    return 0;
}
