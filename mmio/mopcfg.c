/* mmio/mopcfg.c — MOP expander configuration (0xFFB80000): TRISC t writes MopCfg[0..8] of its
 * own thread as nine 32-bit words (MOPExpander.md). Write-only: reads are undefined on silicon,
 * so ttemu reports them. BRISC and NCRISC have no such window. */
#include "mmio/devices.h"

static mem_res_t mopcfg_check(hart_t *h, uint32_t off, unsigned size, const char *what) {
    if (h && tile_trisc_thread(h) < 0) return mmio_fault(h, FAULT_UNMAPPED, "MOP config is mapped only for the TRISCs");
    if (off >= 9 * 4) return mmio_fault(h, FAULT_UNMAPPED, "MOP config has 9 words; offset 0x%x is past them", off);
    if (size != 4) return mmio_fault(h, FAULT_ACCESS, "%u-byte %s of MOP config (32-bit only)", size, what);
    return MEM_OK;
}

mem_res_t mopcfg_read(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t *val) {
    (void)t, (void)val;
    mem_res_t r = mopcfg_check(h, off, size, "load");
    if (r != MEM_OK) return r;
    return mmio_fault(h, FAULT_ACCESS, "MOP config is write-only (MOPExpander.md: reads are undefined)");
}

mem_res_t mopcfg_write(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t val) {
    mem_res_t r = mopcfg_check(h, off, size, "store");
    if (r != MEM_OK) return r;
    if (!h) return MEM_FAULT; /* the host has no thread to configure */
    cp_mopcfg_write(t->cp, (unsigned)tile_trisc_thread(h), off / 4, val);
    return MEM_OK;
}
