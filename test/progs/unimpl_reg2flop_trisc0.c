/* REG2FLOP is a Blackhole instruction ttemu does not model: pushed by TRISC0, it must end the run
 * with exit 6 `unimplemented` (not 3), naming the thread, TRISC0 and the pc of the push
 * (reg2flop_push), and the word (test/sh/t_unimplemented.sh). */
#include "ttemu_fw.h"

int main(void) {
    L1_WORD(0x9000) = 1; /* reached */
    __asm__ volatile(".globl reg2flop_push\nreg2flop_push: .word %0" ::"i"(TT_ROTL2(TT_OP_REG2FLOP(0, 0, 0, 0, 0, 5)))
                     : "memory");
    tensix_sync();
    L1_WORD(0x9004) = 1; /* not reached: the run ends when ThCon takes the REG2FLOP */
    return 0;
}
