/* loader/elf.h — RV32 ELF images through libelf: PT_LOAD segments into L1 or a core's local RAM,
 * function symbols kept for reports. */
#ifndef TTEMU_LOADER_ELF_H
#define TTEMU_LOADER_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "run/images.h"
#include "tile/tile.h"

/* Load path as core's program. Returns 0, or -1 with a message naming the file (and the segment)
 * in err. Local-RAM segments (0xFFB00000..) go to that core's local RAM, or, when ldm_scratch is
 * not 0, to L1 at ldm_scratch + (addr - 0xFFB00000) — tt-metal's way: the firmware copies its
 * initialised data into local RAM itself, and segments without file data (.bss) are skipped. */
int ldr_elf_load(img_set_t *set, tile_t *t, int core, const char *path, uint32_t ldm_scratch, char *err, size_t errlen);
/* Load a flat binary as core's program at addr (4-byte aligned, in L1); its entry is addr. */
int ldr_bin_load(img_set_t *set, tile_t *t, int core, const char *path, uint32_t addr, char *err, size_t errlen);
/* Read a kernel image: a flat binary as is, or an execute-in-place RV32 ELF (tt-metal's
 * `.xip.elf`) with its PT_LOAD segments packed contiguously from the lowest address. The caller
 * frees *buf. 0, or -1 with err. */
int ldr_kernel_image(const char *path, uint8_t **buf, size_t *len, char *err, size_t errlen);
/* ldr_kernel_image from an image already in memory (in, inlen; not kept): the fuzz target's entry. */
int ldr_kernel_image_mem(const char *path, uint8_t *in, size_t inlen, uint8_t **buf, size_t *len, char *err,
                         size_t errlen);
/* ldr_elf_load from an image already in memory (buf, len; path names it in messages): the fuzz
 * target's entry (fuzz/). buf is not kept. */
int ldr_elf_load_mem(img_set_t *set, tile_t *t, int core, const char *path, uint8_t *buf, size_t len,
                     uint32_t ldm_scratch, char *err, size_t errlen);

#endif
