/* fuzz/fuzz_config.c — libFuzzer target: the run-config loader (loader/config.c) on any bytes up to
 * the size a config may have. Besides the sanitizers' findings it checks the loader's promise
 * (docs/run-config.md): every refusal names the file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/config.h"
#include "loader/file.h"

#define PATH "fuzz/run.json"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > LDR_MAX_CONFIG) return 0; /* cfg_load refuses it before parsing */
    cfg_t c;
    char err[512] = "";
    if (cfg_load_text(PATH, (const char *)data, size, &c, err, sizeof err) != 0 &&
        strncmp(err, PATH ": ", strlen(PATH ": ")) != 0) {
        fprintf(stderr, "refusal that does not name the file: '%s'\n", err);
        abort();
    }
    cfg_free(&c);
    return 0;
}
