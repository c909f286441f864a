/* mmio/gpr.c — the Tensix GPRs (REGFILE_BASE 0xFFE00000; ScalarUnit.md): GPRs[3][64] u32.
 * TRISC t sees its own thread's 64 registers at 0x000..0x0FF; BRISC (and the host) see all three
 * threads at 0x100·t (stride inferred from the [3][64] layout, TENSIX.md §2.1). NCRISC: unmapped. */
#include "mmio/devices.h"

static mem_res_t gpr_locate(hart_t *h, uint32_t off, unsigned size, unsigned *thread, unsigned *idx) {
    if (h && h->id == CORE_NCRISC) return mmio_fault(h, FAULT_UNMAPPED, "Tensix GPRs are not mapped for NCRISC");
    if (size != 4) return mmio_fault(h, FAULT_ACCESS, "%u-byte access to a Tensix GPR (32-bit only)", size);
    int t = tile_trisc_thread(h);
    if (t >= 0) {
        if (off >= 0x100) return mmio_fault(h, FAULT_UNMAPPED, "a TRISC sees only its own 64 GPRs (offset 0x%x)", off);
        *thread = (unsigned)t;
    } else {
        if (off >= 0x300) return mmio_fault(h, FAULT_UNMAPPED, "Tensix GPRs end at offset 0x2FF (offset 0x%x)", off);
        *thread = off / 0x100;
    }
    *idx = (off % 0x100) / 4;
    return MEM_OK;
}

mem_res_t gpr_read(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t *val) {
    unsigned th = 0, i = 0; /* set by gpr_locate when it says MEM_OK (-O3 cannot tell) */
    mem_res_t r = gpr_locate(h, off, size, &th, &i);
    if (r == MEM_OK) *val = cp_gpr_read(t->cp, th, i);
    return r;
}

mem_res_t gpr_write(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t val) {
    unsigned th = 0, i = 0; /* set by gpr_locate when it says MEM_OK (-O3 cannot tell) */
    mem_res_t r = gpr_locate(h, off, size, &th, &i);
    if (r == MEM_OK) {
        cp_gpr_write(t->cp, th, i, val);
        if (tile_trisc_thread(h) >= 0) cp_note_riscv_write(t->cp, th); /* C10: TRISC_CFG */
    }
    return r;
}
