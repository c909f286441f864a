/* Parked harts (t_fastpath.sh; core/exec.c "Parked harts"): BRISC spins in turn on words that
 * NCRISC (park_ncrisc.c, later in core order) changes in every way a parked hart can be woken:
 * an L1 store, a stream register store (a device's plain storage), a NoC write into L1 and a
 * store into the spinning loop's own code. Then it releases NCRISC from its own spin (a store
 * earlier in core order) and, while NCRISC spins again, reads NCRISC's PC snapshot (a parked
 * hart's pc, settled mid-cycle). Results at 0x9600: one word per stage, the snapshots, mcycle
 * (0x96B0); NCRISC's mcycle at 0x9700. */
#include "ttemu_fw.h"

#define A      0x9400u                             /* L1, written by NCRISC's store */
#define B      0x9404u                             /* L1, written by NCRISC's NoC write */
#define C      0x9408u                             /* L1, stays 0: the code-patch loop's word */
#define PATCH  0x940Cu                             /* where BRISC publishes the code-patch loop's branch */
#define D      0x9410u                             /* NCRISC spins on it; BRISC writes it */
#define E      0x9414u                             /* NCRISC spins on it again; BRISC writes it last */
#define STREAM (*(volatile uint32_t *)0xFFB48028u) /* stream 8's tiles_received */
#define NC_PC  (*(volatile uint32_t *)0xFFB1313Cu) /* PIC: NCRISC's PC snapshot */
#define RES(i) L1_WORD(0x9600u + 4u * (i))

int main(void) {
    uint32_t v;
    while (!(v = L1_WORD(A))) {
    }
    RES(0) = v;
    while (!(v = STREAM)) {
    }
    RES(1) = v;
    while (!(v = L1_WORD(B))) {
    }
    RES(2) = v;
    /* A loop whose word never changes: only NCRISC's store over its branch (a nop) ends it. */
    uint32_t a = C, w;
    __asm__ volatile("la %1, 2f\n"
                     "sw %1, 0(%2)\n"
                     "1: lw %1, 0(%0)\n"
                     "2: beqz %1, 1b\n"
                     : "+r"(a), "=&r"(w)
                     : "r"(PATCH)
                     : "memory");
    RES(3) = 0xC0DE;
    L1_WORD(D) = 1;
    for (volatile int i = 0; i < 2000; i++) { /* long enough for NCRISC to park on E */
    }
    for (int i = 0; i < 40; i++) { /* NCRISC spins on E meanwhile; a stride of its every phase */
        RES(4 + i) = NC_PC;
        for (int j = 0; j < i % 3; j++)
            __asm__ volatile("nop");
    }
    L1_WORD(E) = 1;
    uint32_t c;
    __asm__ volatile("csrr %0, mcycle" : "=r"(c)); /* counted through its parked turns */
    RES(44) = c;
    return 0;
}
