/* ui/panel.h — the live SDL2 panel (docs/ui.md): its options and how a run attaches it.
 *
 * This header needs no SDL, so loader/main.c parses the --ui flags in every build; the functions
 * exist only when the panel is built (TTEMU_UI, Makefile UI=1 or auto). */
#ifndef TTEMU_UI_PANEL_H
#define TTEMU_UI_PANEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/run.h"

typedef struct {
    bool live;             /* --ui: a window, updated while the run goes on */
    const char *shot;      /* --ui-screenshot FILE.bmp|FILE.png: one frame, headless */
    const char *snap_json; /* --ui-snapshot FILE: the snapshot drawn (default: shot + ".json") */
    bool at_given;         /* --ui-at CYCLE: stop there (screenshot) or pause there (--ui) */
    uint64_t at;
} ui_opts_t;

typedef struct ui ui_t;

/* Open the panel and register it as an observer of r (before the run). NULL with a message in
 * err when it cannot (no display, no font, bad file name): the caller exits 4. */
ui_t *ui_attach(run_t *r, const ui_opts_t *o, char *err, size_t errlen);
/* After the run: false when the screenshot or its snapshot could not be written. */
bool ui_ok(const ui_t *u);
void ui_free(ui_t *u);

#endif
