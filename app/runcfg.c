/* app/runcfg.c — shared by `ttemu run` and `ttemu compare-policies` (app/runcfg.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "app/runcfg.h"
#include "loader/elf.h"

/* docs/cli.md "Environment": a variable set to anything but "" or "0". */
static bool env_on(const char *name) {
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

tile_opts_t runcfg_tile_opts(void) {
    const char *spin = getenv("TTEMU_SPIN");
    return (tile_opts_t){.reference = env_on("TTEMU_REFERENCE"), .no_spin = spin && !strcmp(spin, "0")};
}

void runcfg_print_stats(const tile_t *t, FILE *f) {
    if (!env_on("TTEMU_STATS")) return;
    fprintf(f, "ttemu: stats: cycles %" PRIu64 " parked", t->cycle);
    for (int c = 0; c < TILE_NCORES; c++)
        fprintf(f, " %s=%" PRIu64, tile_core_names[c], t->hart[c].parked_turns);
    uint64_t probes = 0, skipped = 0;
    for (int c = 0; c < TILE_NCORES; c++) {
        probes += t->hart[c].park_probes;
        skipped += t->hart[c].skipped_turns;
    }
    fprintf(f,
            " spin_skipped %" PRIu64 " cp_quiet %" PRIu64 " owed_idle %" PRIu64 " owed_quiet %" PRIu64
            " park_probes %" PRIu64 " park_skipped %" PRIu64 "\n",
            t->spin.skipped, cp_quiet_cycles(t->cp), t->cp_owed_idle, t->cp_owed_quiet, probes, skipped);
}

int runcfg_load_cores(run_t *r, const cfg_t *cfg, char *err, size_t errlen) {
    if (cfg->firmware[0]) return 0;
    for (int c = 0; c < TILE_NCORES; c++) {
        if (!cfg->cores[c]) continue;
        if (cfg->core_flat[c] ? ldr_bin_load(&r->images, r->tile, c, cfg->cores[c], cfg->core_addr[c], err, errlen)
                              : ldr_elf_load(&r->images, r->tile, c, cfg->cores[c], 0, err, errlen))
            return -1;
    }
    return 0;
}
