/* A coprocessor guest fault: LOADREG from 0xFFB90B88, an address no device on the tile claims.
 * The run must end with exit 3 `guest_fault`, category `unmapped`, naming thread T1, TRISC1, the
 * pc of the push (loadreg_push) and the word (test/sh/t_unimplemented.sh). */
#include "ttemu_fw.h"

int main(void) {
    L1_WORD(0x9000) = 1; /* reached */
    __asm__ volatile(
        ".globl loadreg_push\nloadreg_push: .word %0" ::"i"(TT_ROTL2(TT_OP_LOADREG(7, TT_REGADDR(0xFFB90B88u))))
        : "memory");
    tensix_sync();
    L1_WORD(0x9004) = 1; /* not reached */
    return 0;
}
