/* ui/panel.h — the live SDL2 panel (docs/ui.md): its options and how a run attaches it.
 *
 * The functions exist only when the panel is built (TTEMU_UI, Makefile UI=1 or auto); the
 * command reaches them through app/panel_api.h and dlopen. */
#ifndef TTEMU_UI_PANEL_H
#define TTEMU_UI_PANEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app/panel_api.h"

/* Open the panel and register it as an observer of r (before the run). NULL with a message in
 * err when it cannot (no display, no font, bad file name): the caller exits 4. */
ui_t *ui_attach(run_t *r, const ui_opts_t *o, char *err, size_t errlen);
/* After the run: false when the screenshot or its snapshot could not be written. */
bool ui_ok(const ui_t *u);
void ui_free(ui_t *u);

#endif
