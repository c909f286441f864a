/* app/plugin.c — loading optional parts on demand (app/plugin.h). */
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app/plugin.h"

void *plugin_symbol(const char *plugin, const char *sym, char *err, size_t errlen) {
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) {
        snprintf(err, errlen, "cannot find the ttemu executable's directory (/proc/self/exe)");
        return NULL;
    }
    path[n] = 0;
    char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path + 1) : 0;
    if (dir + strlen(plugin) + 1 > sizeof path) {
        snprintf(err, errlen, "executable path too long");
        return NULL;
    }
    strcpy(path + dir, plugin);
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        snprintf(err, errlen, "cannot load the plugin %s: %s (make builds it; UI=0 builds have no panel)", path,
                 dlerror());
        return NULL;
    }
    void *p = dlsym(dl, sym);
    if (!p) snprintf(err, errlen, "%s has no %s (a stale build? run make)", path, sym);
    return p;
}

bool panel_plugin_load(panel_plugin_t *p, char *err, size_t errlen) {
    void *a = plugin_symbol(PANEL_PLUGIN, "ui_attach", err, errlen);
    void *o = a ? plugin_symbol(PANEL_PLUGIN, "ui_ok", err, errlen) : NULL;
    void *f = o ? plugin_symbol(PANEL_PLUGIN, "ui_free", err, errlen) : NULL;
    if (!f) return false;
    /* POSIX lets dlsym's object pointers stand for functions. */
    p->attach = (ui_t * (*)(run_t *, const ui_opts_t *, char *, size_t))(uintptr_t)a;
    p->ok = (bool (*)(const ui_t *))(uintptr_t)o;
    p->free = (void (*)(ui_t *))(uintptr_t)f;
    return true;
}
