/* app/outputs.h — the files a run writes must be distinct from each other and from every file it
 * reads (issue 20): `--report X --trace X` would lose the trace, `--trace X --trace-vcd X` write a
 * corrupt file, `--report prog.elf` overwrite the program. Files are compared by identity (device
 * and inode), so `x.json`, `./x.json` and a hard link or symlink to it are one file. */
#ifndef TTEMU_APP_OUTPUTS_H
#define TTEMU_APP_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>

/* One file on the command line: what names it ("--report", "--brisc", "the config's
 * cores.brisc") and its path (NULL: not given, skipped). */
typedef struct {
    const char *what, *path;
} outputs_file_t;

/* 0 when the outputs are pairwise distinct and none is one of the inputs; otherwise -1 with err
 * naming both ("--trace x.json is the same file as --report x.json"). */
int outputs_check(const outputs_file_t *outs, int nouts, const outputs_file_t *ins, int nins, char *err, size_t errlen);

#endif
