/* Demo, NCRISC: fib(30) (832040) into L1 0x8004. */
#include "ttemu_fw.h"

int main(void) {
    uint32_t a = 0, b = 1;
    for (int i = 0; i < 30; i++) {
        uint32_t t = a + b;
        a = b;
        b = t;
    }
    L1_WORD(0x8004) = a;
    return 0;
}
