/* loader/config.h — run configs: a whole run described in one versioned JSON file
 * (docs/run-config.md), read through cJSON with typed getters whose errors name the file, the
 * key and what was expected. */
#ifndef TTEMU_LOADER_CONFIG_H
#define TTEMU_LOADER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coproc/cp_views.h"
#include "loader/tensor.h"
#include "run/run.h"

#define CFG_VERSION      1
#define CFG_MAX_LAUNCHES 16
#define CFG_MAX_CBS      32
#define CFG_MAX_RTAS     64
#define CFG_NAME_MAX     48 /* tensor names and host read names, with the NUL */

/* Points of a run at which the host acts (host writes and reads). */
typedef enum {
    AT_BEFORE_BOOT = 0, /* after the images are staged, before any core runs */
    AT_AFTER_BOOT,      /* boot complete and settled (TRISC0 has cleared the CB stream registers) */
    AT_KERNELS_DONE,    /* a launch's kernels have all returned, before TRISC0 clears the streams */
    AT_AFTER_LAUNCH,    /* a launch complete: go signal back to DONE */
    AT_COUNT
} cfg_at_t;

typedef enum { STOP_HALTED = 0, STOP_BOOT, STOP_LAUNCHES, STOP_CYCLES, STOP_L1 } cfg_stop_kind_t;

/* A host operation on DRAM ("dram_write" / "dram_read" in "host": loader/dram_ops.c,
 * docs/run-config.md). Where: one channel (bank or a port's coordinates), or tt-metal's
 * interleaving over every bank (page i in bank i mod DRAM_CHANNELS at addr + (i div
 * DRAM_CHANNELS) * page_size). A write's bytes come from words, a ramp or a file. */
typedef struct {
    int channel;        /* -1: interleaved */
    uint32_t page_size; /* interleaved */
    uint64_t addr;
    uint8_t *data; /* write: the bytes (words; a file's are read when the run starts); NULL for a ramp */
    size_t len;
    char *file; /* write: raw little-endian bytes, or NULL */
    bool ramp;  /* write: word i = ramp_start + i * ramp_step, made as it is written */
    uint32_t ramp_start, ramp_step;
} cfg_dram_t;

typedef struct {
    cfg_at_t at;
    int launch; /* for kernels_done/after_launch: which launch (-1: every launch) */
    bool is_write;
    uint32_t addr;
    uint32_t value;   /* write */
    unsigned size;    /* write: 1, 2 or 4 */
    uint32_t words;   /* read */
    char name[48];    /* read: key in the report */
    cfg_dram_t *dram; /* a DRAM write or read (is_write), or NULL for an address of the tile */
    /* A write of a file's bytes (any length, L1 or a local-RAM alias), or a read saved to a file:
     * bytes (default 4 * words) from addr. data holds a write's bytes once loaded (hio_prepare). */
    char *file;
    uint32_t bytes;
    uint8_t *data;
} cfg_host_op_t;

/* A named tensor in L1 or in DRAM (docs/tensors.md). */
typedef struct {
    char name[CFG_NAME_MAX];
    uint32_t addr; /* in L1 */
    tns_desc_t desc;
    /* In DRAM ("dram": {base, page_size, interleaved, bank}): the buffer's pages, page i in bank
     * i mod 7 at base + (i div 7) * page_size when interleaved (tt-metal's layout), else in `bank`
     * from base (loader/dram_ops.h). */
    bool in_dram, interleaved;
    int bank;
    uint64_t dram_base;
    uint32_t page_size;
} cfg_tensor_t;

/* The largest tensor in DRAM ttemu takes (its bytes are held in the host's memory twice). */
#define CFG_MAX_DRAM_TENSOR (256u << 20)

typedef enum { TIO_INPUT = 0, TIO_OUTPUT, TIO_EXPECT } cfg_tio_kind_t;

/* A tensor moved at a point of the run: an input written, an output saved, an expectation
 * compared. The fields after `origin` are filled before and during the run (loader/hostio.c). */
typedef struct {
    cfg_tio_kind_t kind;
    int tensor;          /* index into cfg_t.tensors */
    char *file;          /* .npy or .bin */
    bool at_end;         /* outputs and expectations: when the run ends (the default) */
    cfg_at_t at;         /* otherwise at this point, as host ops */
    int launch;          /* -1: inputs at every launch, outputs at the first that reaches the point */
    double atol, rtol;   /* expectations: tolerances (0, 0: exact) */
    char origin[160];    /* where it was given, for messages: "inputs.x" or "--input x=..." */
    uint8_t *l1;         /* input: the bytes to write; output and expectation: the bytes read */
    bool taken;          /* output and expectation: read */
    bool failed;         /* input into DRAM: out of memory for its pages (hio_finish says so) */
    const uint8_t *want; /* expectation: the expected elements, row-major, in the tensor's format */
    uint8_t *want_mem;   /* expectation: the memory want points into (a .npy file's, or converted) */
    tns_cmp_t cmp;       /* expectation: the comparison, after the run */
} cfg_tio_t;

typedef struct {
    uint32_t addr, size, num_pages, page_size;
    int id;
} cfg_cb_t;

typedef struct {
    uint32_t kernel_config_base; /* where the host writes this launch's config buffer and kernels */
    char *kernel[TILE_NCORES];   /* flat binary per core, or NULL */
    uint32_t rta[TILE_NCORES][CFG_MAX_RTAS];
    int nrta[TILE_NCORES];
    cfg_cb_t cbs[CFG_MAX_CBS];
    int ncbs;
} cfg_launch_t;

typedef struct cfg {
    char *path;                  /* the config file */
    char *firmware[TILE_NCORES]; /* tt-metal mode: the five firmware ELFs */
    char *cores[TILE_NCORES];    /* bare mode: ELF (or flat binary, see core_addr) per core */
    bool core_flat[TILE_NCORES]; /* cores[c] is a flat binary loaded at core_addr[c] */
    uint32_t core_addr[TILE_NCORES];
    cfg_launch_t launches[CFG_MAX_LAUNCHES];
    int nlaunches;
    cfg_host_op_t *host; /* as many as the config gives */
    int nhost;
    cfg_tensor_t *tensors;
    int ntensors;
    cfg_tio_t *tio;
    int ntio;
    bool inputs_from_flags; /* an --input replaced or added an input (cfg_drop_stale_expectations) */
    struct {
        cfg_stop_kind_t kind;
        uint64_t cycles;            /* STOP_CYCLES: run this many cycles; others: extra cycles after */
        uint32_t addr, value, mask; /* STOP_L1: the 32-bit L1 word at addr, masked, equals value */
    } stop;
    uint64_t max_cycles;
    bool max_cycles_set;
    cp_gate_policy_t gate_policy; /* "gate_policy" (docs/gate-policies.md); CP_GATE_EXACT when absent */
    run_peek_t peeks[RUN_MAX_PEEKS];
    int npeeks;
} cfg_t;

/* The typed getters, for loader's other config readers (loader/dram_ops.c): each error is
 * "FILE: key 'KEY': ..." in err and returns -1. */
struct cJSON;
int cfg_fail(const cfg_t *c, char *err, size_t errlen, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int cfg_check_keys(const cfg_t *c, char *err, size_t errlen, const struct cJSON *obj, const char *where,
                   const char *const allowed[]);
int cfg_get_u64(const cfg_t *c, char *err, size_t errlen, const struct cJSON *v, const char *key, uint64_t max,
                uint64_t *out);
int cfg_get_path(const cfg_t *c, char *err, size_t errlen, const struct cJSON *v, const char *key, char **out);
/* A "dram_write" / "dram_read" object (key: its path) into op (loader/dram_ops.c). */
int cfg_dram_parse(const cfg_t *c, char *err, size_t errlen, const struct cJSON *v, const char *key, bool write,
                   cfg_host_op_t *op);
void cfg_dram_free(cfg_dram_t *d);

/* Parse path into c. 0, or -1 with "FILE: key 'k': expected ..." in err. */
int cfg_load(const char *path, cfg_t *c, char *err, size_t errlen);
/* cfg_load from text already in memory (len bytes, not necessarily NUL-terminated; path names
 * the file in messages and anchors relative paths): the fuzz target's entry (fuzz/). */
int cfg_load_text(const char *path, const char *text, size_t len, cfg_t *c, char *err, size_t errlen);
void cfg_free(cfg_t *c);
/* A command-line --input/--output/--expect: "NAME=FILE", and for expect ":atol=A" and ":rtol=R"
 * suffixes. It replaces the config's entry of that kind for that tensor (keeping its point) or adds
 * one (an output or expectation at the point of the tensor's other one, if the config has it, else
 * at the default). 0, or -1 with err naming the flag and the problem. */
int cfg_add_tensor_arg(cfg_t *c, cfg_tio_kind_t kind, const char *arg, char *err, size_t errlen);
/* After the flags: a config's own expectations were computed for its own inputs, so once an
 * --input has replaced an input they no longer apply; they are dropped (an --expect stays) and
 * named in note ("out, out2"; empty when none was dropped). */
void cfg_drop_stale_expectations(cfg_t *c, char *note, size_t n);
/* The index of the tensor named name, or -1. */
int cfg_tensor_find(const cfg_t *c, const char *name);
const char *cfg_at_name(cfg_at_t at);

#endif
