/* TRISC0 stores to INSTRN1_BUF (0xFFE50000): on silicon a TRISC store there hangs the core. */
#include "ttemu_fw.h"

int main(void) {
    L1_WORD(0xFFE50000u) = TT_OP_NOP;
    return 0;
}
