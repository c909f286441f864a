/* mmio/instrn.c — Tensix instruction push (PushTensixInstruction.md; TENSIX.md §2.1, §3.1).
 *   INSTRN_BUF  0xFFE40000: TRISC t → thread t before its MOP expander; BRISC → T0 after it.
 *   INSTRN1_BUF 0xFFE50000, INSTRN2_BUF 0xFFE60000: BRISC → T1 / T2 after the MOP expander;
 *   a TRISC store there hangs the core on silicon. NCRISC has no push path.
 * A full FIFO stalls the store (MEM_STALL): the core retries it next cycle. */
#include "mmio/devices.h"

mem_res_t instrn_read(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t *val) {
    (void)t, (void)size, (void)val;
    return mmio_fault(h, FAULT_ACCESS, "load from INSTRN_BUF at offset 0x%x (instruction push is write-only)", off);
}

/* TRISC h's push into thread th's FIFO#1: MEM_OK, or MEM_STALL with h blocked. */
static inline __attribute__((always_inline)) mem_res_t push_trisc(tile_t *t, hart_t *h, unsigned th, uint32_t val) {
    if (cp_push_trisc(t->cp, th, val, h->pc, h->id)) return MEM_OK;
    tile_block(t, h, TILE_BLOCK_PUSH, th);
    return MEM_STALL;
}

/* The device's write (instrn_write), inlined into env_ttinsn too, where off and size are
 * constants: a TRISC's way is asked first, so that a .ttinsn's push tests little else. */
static inline __attribute__((always_inline)) mem_res_t instrn_store(tile_t *t, hart_t *h, uint32_t off, unsigned size,
                                                                    uint32_t val) {
    unsigned buf = off / 0x10000; /* 0: INSTRN_BUF, 1: INSTRN1_BUF, 2: INSTRN2_BUF */
    int th = tile_trisc_thread(h);
    if (th < 0 && h && h->id == CORE_NCRISC)
        return mmio_fault(h, FAULT_UNMAPPED,
                          "NCRISC cannot push Tensix instructions (INSTRN_BUF is not mapped for it)");
    if (size != 4) return mmio_fault(h, FAULT_ACCESS, "%u-byte store to INSTRN_BUF (32-bit only)", size);
    if (th >= 0) {
        if (buf != 0)
            return mmio_hang(h, "%s stored to INSTRN%u_BUF (0x%08x): on silicon a TRISC store there hangs the core",
                             h->name, buf, 0xFFE40000u + off);
        return push_trisc(t, h, (unsigned)th, val);
    }
    /* BRISC (or the host): after the MOP expander of thread buf. */
    cp_origin_t origin = {.pc = h ? h->pc : 0, .core = (int8_t)(h ? h->id : -1)};
    if (cp_push_from(t->cp, buf, val, true, origin)) return MEM_OK;
    tile_block(t, h, TILE_BLOCK_PUSH_AFTER_MOP, buf);
    return MEM_STALL;
}

mem_res_t instrn_write(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t val) {
    return instrn_store(t, h, off, size, val);
}

/* A TRISC's .ttinsn push that found its FIFO full (push_trisc's other way), out of line: the
 * push's own way keeps only the tile and the hart across its call. */
static __attribute__((noinline)) mem_res_t ttinsn_stalled(tile_t *t, hart_t *h) {
    tile_block(t, h, TILE_BLOCK_PUSH, (unsigned)tile_trisc_thread(h));
    return MEM_STALL;
}

/* env_ttinsn's every case, out of line. */
static __attribute__((noinline)) mem_res_t ttinsn_store(tile_t *t, hart_t *h, uint32_t word) {
    return env_device_store(t, h, instrn_store, true, 0, 4, word);
}

/* A .ttinsn (core/exec.c): env_store(env, h, 0xFFE40000, 4, word) with the device known, without
 * the address's way through the device map. Its commonest case, a TRISC's push with nothing owed
 * to the coprocessor (tile_cp_sync would do nothing), is env_device_store's and instrn_store's
 * TRISC way written out. */
mem_res_t env_ttinsn(void *env, hart_t *h, uint32_t word) {
    tile_t *t = env;
    int th = tile_trisc_thread(h);
    if (th < 0 || t->cp_owe_until) return ttinsn_store(t, h, word);
    if (!cp_push_trisc(t->cp, (unsigned)th, word, h->pc, h->id)) return ttinsn_stalled(t, h);
    t->progress++;
    return MEM_OK;
}
