/* mmio/tdma.c — TDMA-RISC registers (0xFFB11000): plain storage, enough for firmware set-up
 * (BRISC writes CLK_GATE_EN 0x3F at 0x24). Not mapped for NCRISC (BabyRISCV/README.md). */
#include "mmio/devices.h"

static mem_res_t tdma_check(hart_t *h) {
    if (h && h->id == CORE_NCRISC)
        return mmio_fault(h, FAULT_UNMAPPED, "TDMA-RISC registers are not mapped for NCRISC");
    return MEM_OK;
}

mem_res_t tdma_read(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t *val) {
    mem_res_t r = tdma_check(h);
    return r != MEM_OK ? r : mmio_storage_read(&t->tdma[off / 4], h, "TDMA-RISC registers", size, val);
}

mem_res_t tdma_write(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t val) {
    mem_res_t r = tdma_check(h);
    if (r == MEM_OK) r = mmio_storage_write(&t->tdma[off / 4], h, "TDMA-RISC registers", size, val);
    if (r == MEM_OK && tile_trisc_thread(h) >= 0) cp_note_riscv_write(t->cp, (unsigned)tile_trisc_thread(h)); /* C10 */
    return r;
}
