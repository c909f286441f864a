/* fuzz/fuzz_elf.c — libFuzzer target: the ELF loader (loader/elf.c, through libelf) on any bytes
 * up to the size an image may have, loaded as ttemu loads images: bare mode (local-RAM segments
 * into BRISC's local RAM), tt-metal firmware (into TRISC0's L1 scratch) and a tt-metal kernel (a
 * flat binary or an execute-in-place ELF). One tile serves every input: the loader only writes
 * memory, which nothing here reads. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/elf.h"
#include "loader/file.h"
#include "loader/ttmetal.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static tile_t *tile;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    tile = tile_create(NULL);
    if (!tile) abort();
    return 0;
}

static void load(const uint8_t *data, size_t size, int core, uint32_t scratch) {
    uint8_t *buf = malloc(size ? size : 1); /* libelf may write into its image */
    if (!buf) return;
    memcpy(buf, data, size);
    img_set_t set = {0};
    char err[512] = "";
    if (ldr_elf_load_mem(&set, tile, core, "fuzz.elf", buf, size, scratch, err, sizeof err) != 0 &&
        strncmp(err, "fuzz.elf: ", 10) != 0 && strncmp(err, "libelf: ", 8) != 0) {
        fprintf(stderr, "refusal that does not name the file: '%s'\n", err);
        abort();
    }
    img_set_free(&set);
    free(buf);
}

/* As a tt-metal kernel: a flat binary, or an execute-in-place ELF packed from its lowest segment. */
static void kernel(const uint8_t *data, size_t size) {
    uint8_t *buf = malloc(size ? size : 1), *img = NULL;
    if (!buf) return;
    memcpy(buf, data, size);
    size_t len = 0;
    char err[512] = "";
    if (ldr_kernel_image_mem("fuzz.elf", buf, size, &img, &len, err, sizeof err) == 0) {
        if (len > 0 && !img) abort();
    } else if (strncmp(err, "fuzz.elf: ", 10) != 0 && strncmp(err, "libelf: ", 8) != 0) {
        fprintf(stderr, "refusal that does not name the file: '%s'\n", err);
        abort();
    }
    free(img);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > LDR_MAX_ELF) return 0; /* ldr_elf_load refuses it before reading it */
    load(data, size, CORE_BRISC, 0);
    load(data, size, CORE_TRISC0, ttm_init_scratch[CORE_TRISC0]);
    kernel(data, size);
    return 0;
}
