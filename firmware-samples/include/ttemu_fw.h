/* ttemu_fw.h — small helpers for ttemu's RV32 firmware samples. */
#ifndef TTEMU_FW_H
#define TTEMU_FW_H

#include <stdint.h>

/* A word in L1 at a fixed address, for results the host reads with --peek. */
#define L1_WORD(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* Push a constant Tensix instruction as `.ttinsn`: the word rotated left by 2 in the RISC-V
 * stream (PushTensixInstruction.md). */
#define TT_ROTL2(w) ((((uint32_t)(w)) << 2) | (((uint32_t)(w)) >> 30))
#define TTI(w) __asm__ volatile(".word %0" ::"i"(TT_ROTL2(w)) : "memory")

/* Tensix instructions used by the samples (opcode << 24 | arguments; TENSIX.md §4.2, §5). */
#define TT_NOP 0x02000000u
#define TT_SEMINIT(max, val, mask) (0xA3000000u | ((uint32_t)(max) << 20) | ((uint32_t)(val) << 16) | ((uint32_t)(mask) << 2))
#define TT_SEMPOST(mask) (0xA4000000u | ((uint32_t)(mask) << 2))
#define TT_SEMGET(mask) (0xA5000000u | ((uint32_t)(mask) << 2))

/* PC_BUF window of a TRISC (ManualTTSync.md, SyncUnit.md). */
#define PCBUF_BASE 0xFFE80000u
#define SEMAPHORE(i) L1_WORD(PCBUF_BASE + 0x20u + 4u * (i))

/* tensix_sync(): a load from CoprocessorDoneCheck returns once this thread's Tensix work is done. */
static inline void tensix_sync(void) {
    volatile uint32_t *p = (volatile uint32_t *)(uintptr_t)(PCBUF_BASE + 4u);
    *p = 0;
    (void)*p;
}

#endif
