/* Thread 2 asks for mutex 2, which thread 1 keeps (report_keys_trisc1.c): its ATGETM is held at
 * the gate with cause "mutex" for the rest of the run. */
#include "ttemu_fw.h"

int main(void) {
    spin_cycles(20);
    TTI(TT_OP_ATGETM(2));
    spin_cycles(80);
    return 0;
}
