/* loader/ttmetal.c — the tt-metal host model (boot). ../shared/firmware/README.md and TENSIX.md §7
 * describe the protocol: what tt-metal's host (MetalContext::initialize_and_launch_firmware) does. */
#include <stdio.h>
#include <string.h>

#include "loader/ttmetal.h"

const uint32_t ttm_init_scratch[TILE_NCORES] = {0x82B0, 0xA2B0, 0xC2B0, 0xD2B0, 0xE2B0};

uint32_t ttm_jal(uint32_t target) {
    /* J-type: imm[20|10:1|11|19:12] rd opcode; rd = x0, opcode JAL (0x6F). */
    return 0x6Fu | (target & 0xFF000u) | ((target >> 11) & 1u) << 20 | ((target >> 1) & 0x3FFu) << 21 |
           ((target >> 20) & 1u) << 31;
}

static void l1_byte(tile_t *t, uint32_t addr, uint8_t v) {
    t->l1[addr] = v;
    env_l1_written(t, addr, 1);
}

int ttm_boot_prepare(run_t *r, const char *const fw[TILE_NCORES], char *err, size_t errlen) {
    tile_t *t = r->tile;
    /* 1. Hold every core. */
    tile_soft_reset_write(t, TTM_SOFT_RESET_ALL);
    /* 2-3. Text at its address; local-memory data at the init scratch. */
    for (int c = 0; c < TILE_NCORES; c++) {
        if (!fw[c]) {
            snprintf(err, errlen, "tt-metal boot needs all five firmware images; %s is missing", tile_core_names[c]);
            return -1;
        }
        if (ldr_elf_load(&r->images, t, c, fw[c], ttm_init_scratch[c], err, errlen) != 0) return -1;
    }
    /* 4. BRISC always starts at pc 0: a jump to its entry. */
    uint32_t jal = ttm_jal(r->images.images[CORE_BRISC].entry);
    memcpy(t->l1, &jal, 4);
    env_l1_written(t, 0, 4);
    /* 5. Go signal INIT, logical coordinates. */
    l1_byte(t, MEM_GO_MESSAGE_SIGNAL, RUN_MSG_INIT);
    l1_byte(t, MEM_CORE_INFO_LOGICAL_X, t->noc_x);
    l1_byte(t, MEM_CORE_INFO_LOGICAL_Y, t->noc_y);
    /* 6. Release BRISC only. */
    tile_soft_reset_write(t, TTM_SOFT_RESET_BRISC_ONLY);
    return 0;
}

int ttm_go_signal(const run_t *r) { return r->tile->l1[MEM_GO_MESSAGE_SIGNAL]; }
