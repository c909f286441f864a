/* fuzz/fuzz_regress_list.c — libFuzzer target: `ttemu regress`'s list-file reader (app/regress.c
 * rg_add_list: lines, comments, paths relative to the list, case names) on any bytes up to the
 * size a list may have. The reader is static, so the target includes the file; the list lives in a
 * temporary directory that holds a few run configs for its lines to name. */
#include "app/regress.c"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256], list[300];

static void touch(const char *name) {
    char p[400];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (f) fclose(f);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%.200s/ttemu-fuzz-list-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) abort();
    char sub[300];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    mkdir(sub, 0755);
    touch("a.json");
    touch("b.json");
    touch("sub/a.json");
    touch("sub/c");
    snprintf(list, sizeof list, "%s/cases.list", dir);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > LDR_MAX_CONFIG) return 0; /* refused before reading */
    FILE *f = fopen(list, "wb");
    if (!f) abort();
    fwrite(data, 1, size, f);
    fclose(f);
    rg_t rg = {0}; /* goldens beside the configs */
    rg_add_list(&rg, list);
    rg_cleanup(&rg);
    return 0;
}
