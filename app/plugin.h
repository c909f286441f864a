/* app/plugin.h — optional parts built as shared objects next to the ttemu executable (installed:
 * in ../lib/ttemu/ relative to it) and loaded with dlopen only when used, so `ttemu run` never
 * loads their libraries:
 *   ttemu-panel.so  the SDL2 panel (ui/; SDL and its ~65 libraries), for --ui
 *   ttemu-junit.so  JUnit XML through libxml2 (app/junit.c), for `ttemu regress --junit`
 * Loading them at every start would cost about 7 ms per run (measured: 9.3 ms vs 1.6 ms for
 * `ttemu --version`), which a regression of many short runs pays again and again. */
#ifndef TTEMU_APP_PLUGIN_H
#define TTEMU_APP_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>

#include "app/panel_api.h"

#define PANEL_PLUGIN "ttemu-panel.so"
#define JUNIT_PLUGIN "ttemu-junit.so"

/* Symbol sym of plugin (a file name, beside the executable or in ../lib/ttemu/), loading it;
 * NULL with a message naming the file in err. Plugins stay loaded until the process ends. */
void *plugin_symbol(const char *plugin, const char *sym, char *err, size_t errlen);

/* The panel's entry points (ui/panel.h); false with err when the plugin cannot be loaded. */
bool panel_plugin_load(panel_plugin_t *p, char *err, size_t errlen);

#endif
