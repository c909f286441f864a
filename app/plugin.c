/* app/plugin.c — loading optional parts on demand (app/plugin.h). */
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app/plugin.h"

/* Where a plugin lives, relative to the executable's real path (/proc/self/exe: symbolic links
 * resolved, so a link to ttemu on PATH finds them too): beside it, as make leaves them in the
 * build directory (build/ttemu, build/ttemu-panel.so), or in ../lib/ttemu/, as `make install`
 * lays them out (PREFIX/bin/ttemu, PREFIX/lib/ttemu/ttemu-panel.so), which works for any PREFIX
 * and for a staged DESTDIR copy alike. */
void *plugin_symbol(const char *plugin, const char *sym, char *err, size_t errlen) {
    char dir[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    char *slash = n > 0 ? memchr(dir, '/', (size_t)n) : NULL;
    if (!slash) {
        snprintf(err, errlen, "cannot find the ttemu executable's directory (/proc/self/exe)");
        return NULL;
    }
    dir[n] = 0;
    *strrchr(dir, '/') = 0; /* the executable's directory ("" for /) */
    const char *up = strrchr(dir, '/');
    char beside[PATH_MAX + 64], installed[PATH_MAX + 64];
    snprintf(beside, sizeof beside, "%s/%s", dir, plugin);
    snprintf(installed, sizeof installed, "%.*s/lib/ttemu/%s", up ? (int)(up - dir) : 0, dir, plugin);
    const char *path = access(beside, F_OK) == 0 ? beside : access(installed, F_OK) == 0 ? installed : NULL;
    if (!path) {
        snprintf(err, errlen,
                 "cannot load the plugin %s: no such file, nor %s (make builds it, make install installs it; "
                 "UI=0 builds have no panel)",
                 beside, installed);
        return NULL;
    }
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
