/* app/runcfg.h — the parts of `ttemu run` that other commands running a config in-process share
 * (`ttemu compare-policies`, app/policy.c): how the environment selects the interpreter path, and
 * loading a bare-mode config's images. */
#ifndef TTEMU_APP_RUNCFG_H
#define TTEMU_APP_RUNCFG_H

#include <stddef.h>
#include <stdio.h>

#include "loader/config.h"
#include "run/run.h"

/* docs/cli.md "Environment": TTEMU_REFERENCE=1 runs the reference path, TTEMU_SPIN=0 the fast
 * path without the idle fast-forward. */
tile_opts_t runcfg_tile_opts(void);

/* docs/cli.md "Environment": with TTEMU_STATS=1, one line on f saying how much of the run each
 * shortcut of the fast path took (parked harts' turns, the idle fast-forward's skipped cycles, the
 * coprocessor's quiet-stretch cycles); nothing without it. For tests that a shortcut is taken and
 * for measuring, not part of the report. */
void runcfg_print_stats(const tile_t *t, FILE *f);

/* Bare mode: each core's image of cfg (an ELF, or a flat binary at its address) into r's tile and
 * r->images. 0, or -1 with err naming the file. A tt-metal config loads nothing here (the host
 * model boots its firmware). */
int runcfg_load_cores(run_t *r, const cfg_t *cfg, char *err, size_t errlen);

#endif
