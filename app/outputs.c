/* app/outputs.c — outputs that collide (app/outputs.h). */
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/outputs.h"

/* Where a path leads: the file's device and inode when it exists; for one not created yet, its
 * directory's device and inode and its name (two such outputs collide on both). */
typedef struct {
    bool exists, known;
    dev_t dev;
    ino_t ino;
    char name[256];
} file_id_t;

static file_id_t file_id(const char *path) {
    file_id_t id = {0};
    struct stat st;
    if (stat(path, &st) == 0) {
        id.exists = id.known = true;
        id.dev = st.st_dev;
        id.ino = st.st_ino;
        return id;
    }
    char *d = strdup(path), *b = strdup(path);
    if (d && b && stat(dirname(d), &st) == 0 &&
        snprintf(id.name, sizeof id.name, "%s", basename(b)) < (int)sizeof id.name) {
        id.known = true;
        id.dev = st.st_dev;
        id.ino = st.st_ino;
    }
    free(d);
    free(b);
    return id;
}

static bool same(const file_id_t *a, const file_id_t *b) {
    return a->known && b->known && a->exists == b->exists && a->dev == b->dev && a->ino == b->ino &&
           (a->exists || !strcmp(a->name, b->name));
}

int outputs_check(const outputs_file_t *outs, int nouts, const outputs_file_t *ins, int nins, char *err,
                  size_t errlen) {
    file_id_t *oid = calloc((size_t)nouts + 1, sizeof *oid);
    if (!oid) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < nouts && !rc; i++) {
        if (!outs[i].path) continue;
        oid[i] = file_id(outs[i].path);
        for (int j = 0; j < i && !rc; j++)
            if (outs[j].path && same(&oid[i], &oid[j])) {
                snprintf(err, errlen, "%s %s is the same file as %s %s: give each output its own file", outs[i].what,
                         outs[i].path, outs[j].what, outs[j].path);
                rc = -1;
            }
        for (int j = 0; j < nins && !rc; j++) {
            if (!ins[j].path) continue;
            file_id_t in = file_id(ins[j].path);
            if (in.exists && same(&oid[i], &in)) {
                snprintf(err, errlen, "%s %s would overwrite the input %s %s", outs[i].what, outs[i].path, ins[j].what,
                         ins[j].path);
                rc = -1;
            }
        }
    }
    free(oid);
    return rc;
}
