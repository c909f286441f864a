/* debug/gdb_internal.h — what the stub's two halves share: debug/gdb.c (the connection, the
 * packets and run control) and debug/gdb_target.c (the tile as gdb sees it: registers, memory,
 * threads, the target description, watchpoint matching and the `monitor` commands). */
#ifndef TTEMU_DEBUG_GDB_INTERNAL_H
#define TTEMU_DEBUG_GDB_INTERNAL_H

#include <stdio.h>

#include "debug/gdb.h"
#include "debug/gdb_pkt.h"

#define GDB_MAX_BP     64   /* Z0/Z1 */
#define GDB_MAX_WP     16   /* Z2/Z3/Z4 */
#define GDB_WP_MAX_LEN 4096 /* bytes one watchpoint may cover */
/* The largest memory read answered at once (gdb asks again for the rest). */
#define GDB_MEM_CHUNK ((GDB_PKT_MAX - 16) / 2)

/* Where an address lands, the same for the cores' accesses and for watchpoints: L1, one core's
 * local RAM (directly at 0xFFB00000 or through its alias window at 0xFFB14000 + 0x2000 * core),
 * "each core's own local RAM" (a watchpoint on 0xFFB0xxxx: the address means a different word on
 * each core), or a device register (by address). */
enum { GDB_SPACE_L1 = -1, GDB_SPACE_LDM_ALL = -2, GDB_SPACE_DEV = -3 }; /* >= 0: that core's local RAM */

typedef struct {
    int space;
    uint32_t off; /* offset in the space (the address for GDB_SPACE_DEV) */
} gdb_place_t;

typedef enum { GDB_ACC_LOAD = 1, GDB_ACC_STORE = 2, GDB_ACC_RMW = 3 } gdb_acc_kind_t;

/* The data access of the instruction a core is about to run (decoded from its pc and registers). */
typedef struct {
    bool valid;
    uint8_t kind; /* gdb_acc_kind_t */
    uint8_t size;
    uint32_t addr;
} gdb_access_t;

typedef struct {
    uint32_t addr, len; /* as gdb gave them */
    uint8_t type;       /* the Z packet's: 2 write, 3 read, 4 access */
    gdb_place_t at;
    uint8_t *shadow; /* write watchpoints: the bytes last seen (TILE_NCORES copies for LDM_ALL) */
} gdb_wp_t;

/* A reason to stop found for one core (debug/gdb.c look). */
typedef struct {
    int prio; /* 0: none; the lowest wins among cores */
    int sig;
    char why[48];   /* the stop reply's reason: "swbreak:;", "watch:8000;" */
    char desc[160]; /* in words, for `monitor step-cycles` */
    char note[256]; /* for gdb's console, or "" */
} gdb_ev_t;

/* A stop found for a core that gdb cannot be told of yet (another core's stop was reported, or
 * gdb resumed only some cores): told when gdb next resumes that core. */
typedef struct {
    gdb_ev_t ev;
    uint32_t pc; /* the core then */
    uint64_t instret, cycle;
} gdb_pending_t;

typedef enum {
    GS_LISTEN,   /* no debugger yet */
    GS_STOPPED,  /* all-stop: serving packets, no cycle runs */
    GS_RUNNING,  /* resumed: the tile runs until a stop */
    GS_DETACHED, /* the debugger detached: the run goes on as without one */
    GS_GONE,     /* the run ended by the debugger (kill, disconnect) or the session closed */
} gdb_state_t;

struct gdb {
    run_t *r;
    tile_t *t;
    int lfd, cfd;
    uint16_t port;
    bool wait;
    gdb_state_t st;
    bool noack;
    bool run_over; /* run_loop has returned (end()) */

    uint8_t in[2 * GDB_PKT_MAX + 64];
    size_t inlen;
    char cmd[GDB_PKT_MAX + 1]; /* the packet being handled, NUL-terminated (binary data may hold NULs) */
    size_t cmdlen;
    char rb[2 * GDB_PKT_MAX + 64]; /* the reply being built */
    size_t rlen;
    bool rb_full;
    uint8_t wire[2 * GDB_PKT_MAX + 80]; /* the last packet sent, framed ('-' resends it) */
    size_t wirelen;

    int g_core, c_core; /* Hg and Hc: a core, or -1 (any / all) */
    int event_core;     /* the thread of the last stop */
    char stop[192];     /* the last stop reply, for '?' */

    /* Breakpoints: where gdb put them, and the aligned pc that hits them. gdb steps by putting
     * temporary breakpoints at the next pc it predicts, and it takes a `.ttinsn` word (low bits not
     * 0b11) for a 2-byte compressed instruction: its "next pc" is then pc + 2, where no core ever
     * fetches, so a breakpoint at 2 mod 4 stands for the next aligned word (docs/gdb.md). */
    uint32_t bp[GDB_MAX_BP], bp_pc[GDB_MAX_BP];
    bool bp_hw[GDB_MAX_BP];
    int nbp;
    gdb_wp_t wp[GDB_MAX_WP];
    int nwp;

    /* The resume in progress. */
    int step_core; /* -1: continue */
    uint64_t step_instret;
    bool step_running;                 /* the stepped core was running when resumed */
    uint32_t res_pc[TILE_NCORES];      /* pc and instret when resumed: a core still there */
    uint64_t res_instret[TILE_NCORES]; /* has not moved, so a breakpoint on its pc is the */
    bool res_running[TILE_NCORES];     /* one gdb steps over, not a new hit */
    uint32_t resumed;                  /* the cores gdb resumed (it believes the others stopped) */
    gdb_pending_t pend[TILE_NCORES];   /* stops not told yet */
    gdb_access_t acc[TILE_NCORES];     /* the accesses of the coming cycle (watchpoints) */
    uint64_t acc_instret[TILE_NCORES]; /* instret then: did it retire? */
    uint64_t acc_cycle;                /* the cycle acc was taken at */
    hart_state_t seen[TILE_NCORES];    /* the states at the last look */
    bool rcmd;                         /* `monitor step-cycles` is running: qRcmd awaits its reply */
    uint64_t rcmd_from, rcmd_until;
    uint64_t poll_at; /* the cycle at which the socket is next polled for Ctrl-C while running */
    bool interrupt;   /* Ctrl-C came */

    char *end_note;    /* the run is over: what gdb's console is told (malloc'd) */
    bool end_reported; /* ... and whether its stop (or exit) was sent */
    char *xml;         /* the target description */
    size_t xmllen;
    char *threads; /* qXfer:threads:read, built at offset 0 */
    size_t threadslen;
};

/* ---- debug/gdb_target.c ---- */

/* Memory as core `core` sees it (its local RAM at 0xFFB00000): L1 and local RAM directly, devices
 * through the host accessors (whole words). Reads fill out[0..*got) and stop at the first byte
 * that cannot be read (false when that is the first). Writes are all or nothing. */
bool gt_mem_read(gdb_t *g, int core, uint32_t addr, uint32_t len, uint8_t *out, uint32_t *got);
bool gt_mem_write(gdb_t *g, int core, uint32_t addr, uint32_t len, const uint8_t *in);
/* Register regno of gdb's numbering in the target description: 0..31 x0..x31, 32 pc, 65 + n CSR n. */
bool gt_reg_read(gdb_t *g, int core, unsigned regno, uint32_t *val);
bool gt_reg_write(gdb_t *g, int core, unsigned regno, uint32_t val);
/* The target description (qXfer:features:read:target.xml); built once, kept in g. */
const char *gt_target_xml(gdb_t *g, size_t *len);
/* qXfer:threads:read, and one thread's state for qThreadExtraInfo ("running", "halted (ebreak)",
 * "blocked in tensix_sync (waits for T1)", "in reset", "hung: ..."). */
void gt_thread_state(const gdb_t *g, int core, char *buf, size_t len);
char *gt_threads_xml(const gdb_t *g, size_t *len); /* malloc'd */

/* Watchpoints: where an address lands (as core `core` sees it; -1 for a watchpoint), the data
 * access of the instruction core c is about to run, and whether an access hits a watchpoint. */
gdb_place_t gt_place(const tile_t *t, int core, uint32_t addr);
gdb_access_t gt_next_access(const tile_t *t, int c);
bool gt_access_hits(const tile_t *t, int c, const gdb_access_t *a, const gdb_wp_t *w);
/* Copy a write watchpoint's bytes into its shadow; true when they differ from it (then *core is
 * the core whose local RAM changed, or -1). */
bool gt_wp_changed(const tile_t *t, gdb_wp_t *w, int *core);
size_t gt_wp_shadow_size(const gdb_wp_t *w);

/* `monitor` commands (qRcmd) other than step-cycles: writes the answer to f; false for an
 * unknown command (f then says so). */
bool gt_monitor(gdb_t *g, const char *line, FILE *f);

#endif
