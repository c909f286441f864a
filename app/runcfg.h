/* app/runcfg.h — the parts of `ttemu run` that other commands running a config in-process share
 * (`ttemu compare-policies`, app/policy.c): how the environment selects the interpreter path, and
 * loading a bare-mode config's images. */
#ifndef TTEMU_APP_RUNCFG_H
#define TTEMU_APP_RUNCFG_H

#include <stddef.h>

#include "loader/config.h"
#include "run/run.h"

/* docs/cli.md "Environment": TTEMU_REFERENCE=1 runs the reference path, TTEMU_SPIN=0 the fast
 * path without the idle fast-forward. */
tile_opts_t runcfg_tile_opts(void);

/* Bare mode: each core's image of cfg (an ELF, or a flat binary at its address) into r's tile and
 * r->images. 0, or -1 with err naming the file. A tt-metal config loads nothing here (the host
 * model boots its firmware). */
int runcfg_load_cores(run_t *r, const cfg_t *cfg, char *err, size_t errlen);

#endif
