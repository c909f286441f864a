/* mmio/tilectl.c — tile control / debug / status registers (0xFFB12000) and the PIC page
 * (0xFFB13000) with the PC snapshots. TileControlDebugStatus.md, SoftReset.md,
 * DebugTimestamper.md; TENSIX.md §2.7. Registers without modelled side effects are storage. */
#include "mmio/devices.h"

enum {
    SOFT_RESET_0 = 0x1B0,
    WALL_CLOCK_L = 0x1F0,  /* read: counter[31:0], and latches counter[63:32] */
    WALL_CLOCK_L4 = 0x1F4, /* live counter[63:32] */
    WALL_CLOCK_H = 0x1F8,  /* the latched high half */
};

mem_res_t tilectl_read(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t *val) {
    if (size != 4)
        return mmio_fault(h, FAULT_ACCESS, "%u-byte load from the tile control registers (32-bit only)", size);
    /* The wall clock increments once per core clock: it is the tile's cycle counter. */
    uint64_t now = t->cycle;
    switch (off) {
    case WALL_CLOCK_L:
        t->ctl.wall_clock_hi_latch = (uint32_t)(now >> 32);
        *val = (uint32_t)now;
        return MEM_OK;
    case WALL_CLOCK_L4: *val = (uint32_t)(now >> 32); return MEM_OK;
    case WALL_CLOCK_H: *val = t->ctl.wall_clock_hi_latch; return MEM_OK;
    default: return mmio_storage_read(&t->ctl.regs[off / 4], h, "tile control registers", size, val);
    }
}

mem_res_t tilectl_write(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t val) {
    if (size != 4)
        return mmio_fault(h, FAULT_ACCESS, "%u-byte store to the tile control registers (32-bit only)", size);
    switch (off) {
    case SOFT_RESET_0: tile_soft_reset_write(t, val); return MEM_OK;
    case WALL_CLOCK_L: t->ctl.wall_clock_hi_latch = (uint32_t)(t->cycle >> 32); return MEM_OK;
    case WALL_CLOCK_L4:
    case WALL_CLOCK_H: return MEM_OK; /* read-only halves: writes have no effect */
    default: return mmio_storage_write(&t->ctl.regs[off / 4], h, "tile control registers", size, val);
    }
}

/* PC snapshots (BabyRISCV/README.md): B@0x138, NC@0x13C, T0@0x140, T1@0x144, T2@0x148, read-only. */
enum { PC_SNAPSHOT = 0x138, PC_SNAPSHOT_END = 0x14C };

mem_res_t pic_read(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t *val) {
    if (off >= PC_SNAPSHOT && off < PC_SNAPSHOT_END && size == 4) {
        hart_t *o = &t->hart[(off - PC_SNAPSHOT) / 4];
        hart_park_settle(o); /* a parked hart's pc is brought up to date first */
        *val = o->pc;
        return MEM_OK;
    }
    return mmio_storage_read(&t->ctl.pic[off / 4], h, "PIC", size, val);
}

mem_res_t pic_write(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t val) {
    if (off >= PC_SNAPSHOT && off < PC_SNAPSHOT_END)
        return mmio_fault(h, FAULT_ACCESS, "store to a read-only PC snapshot register");
    return mmio_storage_write(&t->ctl.pic[off / 4], h, "PIC", size, val);
}
