/* debug/gdb.h — a GDB remote stub for the tile (docs/gdb.md): `ttemu run --gdb PORT` serves the
 * GDB Remote Serial Protocol on 127.0.0.1:PORT. The five cores are gdb's threads; the stub is a
 * run observer (run/run.h), so the run's cycle loop, end conditions and report are the same with
 * and without it: while gdb is attached the stub lets the tile run in batches that end exactly at
 * the cycles it must look at (every cycle while a breakpoint, watchpoint or step is set), and
 * holds the run, all-stop, while gdb looks. */
#ifndef TTEMU_DEBUG_GDB_H
#define TTEMU_DEBUG_GDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/run.h"

typedef struct {
    uint16_t port; /* 0: any free port (the one taken is printed) */
    bool wait;     /* --gdb-wait: no cycle runs before a debugger has attached */
} gdb_opts_t;

typedef struct gdb gdb_t;

/* "PORT" or "HOST:PORT", HOST being 127.0.0.1 or localhost (loopback only: the stub lets anyone
 * who connects read and write the tile). False with a message in err otherwise. */
bool gdb_parse_addr(const char *s, uint16_t *port, char *err, size_t errlen);

/* Listen on 127.0.0.1 and add the stub to r's observers; prints "ttemu: gdb: listening on
 * 127.0.0.1:PORT" on stderr. NULL with a message in err on failure. */
gdb_t *gdb_start(run_t *r, const gdb_opts_t *o, char *err, size_t errlen);
void gdb_free(gdb_t *g);

#endif
