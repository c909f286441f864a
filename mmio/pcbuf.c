/* mmio/pcbuf.c — the PC_BUF region of the TRISCs (PCBufs.md, ManualTTSync.md, SyncUnit.md):
 *   +0x00 PCBuf pop (not modelled, ttemu's gap: tt-metal firmware uses L1 mailboxes instead)
 *   +0x04 CoprocessorDoneCheck (tensix_sync): a load waits until the thread has nothing left
 *   +0x08 MOPExpanderDoneCheck: a load waits until the MOP expander is idle with nothing queued
 *   +0x20 + 4·i semaphore i: load → Value; store bit0=0 → post, bit0=1 → get
 * Stores to +0x04/+0x08 are discarded (they only order earlier stores before the load).
 * BRISC's view of this range is its PCBuf FIFOs to the threads, which ttemu does not model (its
 * gap: exit 6); NCRISC cannot reach the range (PCBufs.md). */
#include "mmio/devices.h"

enum { PCBUF_POP = 0x00, TTSYNC_COPROC = 0x04, TTSYNC_MOP = 0x08, SEM_BASE = 0x20, SEM_END = 0x40 };

static mem_res_t pcbuf_check(hart_t *h, uint32_t off, unsigned size) {
    /* PCBufs.md: BRISC pushes to (and waits on) the three PCBufs here; NCRISC cannot reach them. */
    if (h && h->id == CORE_BRISC)
        return mmio_fault(h, FAULT_UNIMPLEMENTED, "%s access to PC_BUF 0x%08x: ttemu does not model the PCBuf FIFOs",
                          h->name, 0xFFE80000u + off);
    if (h && tile_trisc_thread(h) < 0)
        return mmio_fault(h, FAULT_UNMAPPED,
                          "%s access to PC_BUF 0x%08x: only BRISC (the PCBufs) and the TRISCs (semaphores, "
                          "TTSync) reach it",
                          h->name, 0xFFE80000u + off);
    if (!h) return MEM_FAULT;
    if (off >= 0x10000) return mmio_fault(h, FAULT_UNMAPPED, "PC1_BUF/PC2_BUF are not mapped for the TRISCs");
    if (size != 4) return mmio_fault(h, FAULT_ACCESS, "%u-byte access to PC_BUF (32-bit only)", size);
    if (off == PCBUF_POP)
        return mmio_fault(h, FAULT_UNIMPLEMENTED,
                          "PCBuf FIFO at 0x%08x: ttemu does not model the PCBufs (tt-metal uses L1 mailboxes)",
                          0xFFE80000u + off);
    if (off != TTSYNC_COPROC && off != TTSYNC_MOP && !(off >= SEM_BASE && off < SEM_END && off % 4 == 0))
        return mmio_fault(h, FAULT_UNMAPPED, "PC_BUF offset 0x%x has no documented meaning", off);
    return MEM_OK;
}

mem_res_t pcbuf_read(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t *val) {
    mem_res_t r = pcbuf_check(h, off, size);
    if (r != MEM_OK) return r;
    unsigned th = (unsigned)tile_trisc_thread(h);
    switch (off) {
    case TTSYNC_COPROC:
        *val = 0;
        if (cp_thread_idle(t->cp, th)) return MEM_OK;
        tile_block(t, h, TILE_BLOCK_SYNC, th);
        return MEM_STALL;
    case TTSYNC_MOP:
        *val = 0;
        if (cp_mop_idle(t->cp, th)) return MEM_OK;
        tile_block(t, h, TILE_BLOCK_SYNC_MOP, th);
        return MEM_STALL;
    default: *val = cp_sem_read(t->cp, (off - SEM_BASE) / 4); return MEM_OK;
    }
}

/* A TRISC's load of a semaphore is its Value and nothing else. The word is read in place, also
 * while the tile owes the coprocessor cycles (tile_t.cp_owe_until: a parked hart's turns do not sync
 * it): owed cycles are idle or quiet ones (cp_advance_idle, cp_quiet_run), which move counters and
 * clocks but no semaphore, and a write that could move one ends the stretch first (PC_BUF reaches
 * the coprocessor: the tile syncs it before the access; cp_sem_write ends the stretch), so the
 * Value read is the one the synced coprocessor would give. */
const uint32_t *pcbuf_pure_word(tile_t *t, const hart_t *h, uint32_t off, bool *noted) {
    (void)noted;
    if (tile_trisc_thread(h) < 0 || off < SEM_BASE || off >= SEM_END || off % 4) return NULL;
    return cp_sem_word(t->cp, (off - SEM_BASE) / 4);
}

mem_res_t pcbuf_write(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t val) {
    mem_res_t r = pcbuf_check(h, off, size);
    if (r != MEM_OK) return r;
    if (off >= SEM_BASE) cp_sem_write(t->cp, (unsigned)tile_trisc_thread(h), (off - SEM_BASE) / 4, val);
    return MEM_OK;
}
