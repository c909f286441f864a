/* mmio/cfgspace.c — backend configuration as RISC-V sees it at TENSIX_CFG_BASE 0xFFEF0000
 * (BackendConfiguration.md): Config[2][224], ConfigDualWrite, ThreadConfig[3][68]. The storage
 * and its rules live in the coprocessor; this device checks who may access it and how.
 * RISC-V may only `sw` into Config (no sub-word stores) and cannot write ThreadConfig. */
#include "mmio/devices.h"

mem_res_t cfgspace_read(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t *val) {
    if (h && h->id == CORE_NCRISC) return mmio_fault(h, FAULT_UNMAPPED, "Tensix config is not mapped for NCRISC");
    if (size != 4) return mmio_fault(h, FAULT_ACCESS, "%u-byte load from Tensix config (32-bit only)", size);
    if (!cp_cfg_read(t->cp, off, val))
        return mmio_fault(h, FAULT_UNMAPPED, "Tensix config offset 0x%x is past the config space", off);
    return MEM_OK;
}

mem_res_t cfgspace_write(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t val) {
    if (h && h->id == CORE_NCRISC) return mmio_fault(h, FAULT_UNMAPPED, "Tensix config is not mapped for NCRISC");
    if (size != 4)
        return mmio_fault(h, FAULT_ACCESS, "%u-byte store to Tensix config (BackendConfiguration.md: sw only)", size);
    if (!cp_cfg_write(t->cp, tile_trisc_thread(h), off, val))
        return mmio_fault(h, FAULT_ACCESS,
                          "store to Tensix config offset 0x%x: ThreadConfig and offsets past the "
                          "space are not writable by RISC-V (use SETC16)",
                          off);
    return MEM_OK;
}
