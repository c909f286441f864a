/* app/panel_api.h — what the command and the panel plugin (ui/) agree on: the --ui options and
 * the plugin's entry points. The command includes only this, never ui/: the panel sits above the
 * command (it is a plugin of it), so dependencies keep running one way.
 *
 * It needs no SDL, so app/main.c parses the --ui flags in every build. */
#ifndef TTEMU_APP_PANEL_API_H
#define TTEMU_APP_PANEL_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/run.h"

typedef struct {
    bool live;             /* --ui: a window, updated while the run goes on */
    const char *shot;      /* --ui-screenshot FILE.bmp|FILE.png: one frame, headless */
    const char *snap_json; /* --ui-snapshot FILE: the snapshot drawn (default: shot + ".json") */
    bool at_given;         /* --ui-at CYCLE: stop there (screenshot) or pause there (--ui) */
    uint64_t at;
} ui_opts_t;

typedef struct ui ui_t;

/* The plugin's entry points, by these names (ui/panel.h declares them):
 *   ui_attach: open the panel and register it as an observer of r (before the run); NULL with a
 *              message in err when it cannot (no display, no font, bad file name): exit 4.
 *   ui_ok:     after the run: false when the screenshot or its snapshot could not be written.
 *   ui_free:   close it. */
typedef struct {
    ui_t *(*attach)(run_t *r, const ui_opts_t *o, char *err, size_t errlen);
    bool (*ok)(const ui_t *u);
    void (*free)(ui_t *u);
} panel_plugin_t;

#endif
