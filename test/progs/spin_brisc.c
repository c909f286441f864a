/* Spins forever: for --max-cycles tests. */
#include "ttemu_fw.h"

int main(void) {
    for (;;)
        L1_WORD(0x9000) += 1;
}
