/* mmio/ldm_alias.c — the shared "slow path" views of every core's local data RAM
 * (BabyRISCV/README.md): BRISC 0xFFB14000, NCRISC 0xFFB16000 (8 KiB each), TRISC0/1/2 at
 * 0xFFB18000/0xFFB1A000/0xFFB1C000 (4 KiB, appearing twice in their 8 KiB window). */
#include <string.h>

#include "mmio/devices.h"

static uint8_t *alias_byte(tile_t *t, uint32_t off) {
    int c = (int)(off / 0x2000); /* the windows come in core order: B, NC, T0, T1, T2 */
    return t->ldm[c] + (off % 0x2000) % t->ldm_size[c];
}

mem_res_t ldm_alias_read(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t *val) {
    (void)h;
    uint32_t v = 0;
    memcpy(&v, alias_byte(t, off), size);
    *val = v;
    return MEM_OK;
}

mem_res_t ldm_alias_write(tile_t *t, hart_t *h, uint32_t off, unsigned size, uint32_t val) {
    (void)h;
    memcpy(alias_byte(t, off), &val, size);
    return MEM_OK;
}
