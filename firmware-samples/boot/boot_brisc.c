/* BRISC boot: the way tt-metal's BRISC firmware brings up a Tensix tile, in small.
 *
 * Only BRISC leaves reset from the run config. Before any TRISC runs, BRISC initialises the Sync
 * Unit's semaphores by pushing SEMINITs into T0's instruction FIFO through INSTRN_BUF (BRISC's
 * pushes enter after the MOP expander: Tensix instructions cannot be issued from L1 any other
 * way), then points each TRISC's reset PC at its entry below and releases TRISC0..2 through
 * SOFT_RESET_0. The TRISC programs are part of this image (bare mode loads one ELF per started
 * core), each with its own stack in its own local data RAM.
 *
 * TRISC0 learns that the SEMINITs have executed by draining its thread (tensix_sync: T0's FIFO
 * holds BRISC's words), records what it sees through the PCBuf window and raises the boot flag;
 * TRISC1 and TRISC2 wait for the flag, then act as math and pack would at their first tile:
 * math posts MATH_PACK twice (both Dst halves full), pack takes one back.
 *
 * Results (L1, --peek 0x9000:8):
 *   0x9000 boot flag (0xB007)         0x9004 MATH_PACK after boot (0)
 *   0x9008 UNPACK_TO_DEST after boot  0x900C PACK_DONE after boot (PACK_DONE_START)
 *   0x9010..0x9018 TRISC0..2 "done" mailboxes (0xD0 + i)
 *   0x901C BRISC: all TRISCs reported (1)
 * Final semaphores: MATH_PACK {Value 1, Max 2}, UNPACK_TO_DEST {0, 1}, PACK_DONE {2, 15}. */
#include "ttemu_fw.h"

/* Semaphore initial state, as tt-llk's setup wants it: two Dst halves, one tile unpacked to Dst
 * at a time; PACK_DONE counts pack iterations from PACK_DONE_START. */
#define MATH_PACK_MAX      2
#define UNPACK_TO_DEST_MAX 1
#define PACK_DONE_START    2

#define BOOT_FLAG     L1_WORD(0x9000u)
#define BOOT_SEEN(i)  L1_WORD(0x9004u + 4u * (i))
#define TRISC_DONE(i) L1_WORD(0x9010u + 4u * (i))
#define ALL_DONE      L1_WORD(0x901Cu)
#define BOOT_MAGIC    0xB007u

/* Each TRISC entry sets its stack (top of its own local RAM) and runs its main. */
#define TRISC_ENTRY(n)                                                                                                 \
    int trisc##n##_main(void);                                                                                         \
    void trisc##n##_entry(void);                                                                                       \
    __asm__(".globl trisc" #n "_entry\n"                                                                               \
            "trisc" #n "_entry:\n"                                                                                     \
            "  la sp, __stack_top\n"                                                                                   \
            "  call trisc" #n "_main\n"                                                                                \
            "  ebreak\n")
TRISC_ENTRY(0);
TRISC_ENTRY(1);
TRISC_ENTRY(2);

/* TRISC0 (unpack): wait for T0 to have run BRISC's SEMINITs, then report and open the gate. */
int trisc0_main(void) {
    tensix_sync();
    BOOT_SEEN(0) = semaphore_read(SEM_MATH_PACK);
    BOOT_SEEN(1) = semaphore_read(SEM_UNPACK_TO_DEST);
    BOOT_SEEN(2) = semaphore_read(SEM_PACK_DONE);
    BOOT_FLAG = BOOT_MAGIC;
    TRISC_DONE(0) = 0xD0;
    return 0;
}

/* TRISC1 (math): after boot, fill both Dst halves: two posts on MATH_PACK from its thread. */
int trisc1_main(void) {
    while (BOOT_FLAG != BOOT_MAGIC) {
    }
    TTI(TT_OP_SEMPOST(T6_SEM(SEM_MATH_PACK)));
    TTI(TT_OP_SEMPOST(T6_SEM(SEM_MATH_PACK)));
    tensix_sync();
    TRISC_DONE(1) = 0xD1;
    return 0;
}

/* TRISC2 (pack): after boot, wait for a full half, pack it, give it back; count the pack. */
int trisc2_main(void) {
    tt_dp_configure_bf16();
    while (BOOT_FLAG != BOOT_MAGIC) {
    }
    TTI(TT_OP_SEMWAIT(STALL_TDMA, T6_SEM(SEM_MATH_PACK), STALL_ON_ZERO));
    TTI(TT_OP_PACR(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1));
    TTI(TT_OP_STALLWAIT(STALL_SYNC, P_PACK));
    TTI(TT_OP_SEMGET(T6_SEM(SEM_MATH_PACK)));
    tensix_sync();
    TRISC_DONE(2) = 0xD2;
    return 0;
}

int main(void) {
    /* Device setup: SEMINIT through T0's FIFO (BRISC cannot use .ttinsn). */
    volatile uint32_t *t0 = INSTRN_BUF(0);
    *t0 = TT_OP_SEMINIT(MATH_PACK_MAX, 0, T6_SEM(SEM_MATH_PACK));
    *t0 = TT_OP_SEMINIT(UNPACK_TO_DEST_MAX, 0, T6_SEM(SEM_UNPACK_TO_DEST));
    *t0 = TT_OP_SEMINIT(15, PACK_DONE_START, T6_SEM(SEM_PACK_DONE));

    /* Release the TRISCs at their entries. */
    TRISC_RESET_PC(0) = (uint32_t)(uintptr_t)trisc0_entry;
    TRISC_RESET_PC(1) = (uint32_t)(uintptr_t)trisc1_entry;
    TRISC_RESET_PC(2) = (uint32_t)(uintptr_t)trisc2_entry;
    TRISC_RESET_PC_OVERRIDE = 0x7;
    SOFT_RESET_0 = SOFT_RESET_0 & ~(SOFT_RESET_TRISC(0) | SOFT_RESET_TRISC(1) | SOFT_RESET_TRISC(2));

    /* Wait for every TRISC's done mailbox, as the firmware waits for RUN_MSG_DONE. */
    for (uint32_t i = 0; i < 3; i++)
        while (TRISC_DONE(i) != 0xD0 + i) {
        }
    ALL_DONE = 1;
    return 0;
}
