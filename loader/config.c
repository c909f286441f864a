/* loader/config.c — reading run configs (docs/run-config.md) with typed getters over cJSON.
 * Every error names the file, the key (as a path: launches[0].kernels.trisc0) and what was
 * expected. Unknown keys are errors too: a typo must not silently change a run. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/config.h"
#include "loader/dram_ops.h"
#include "loader/file.h"

static const char *const core_keys[TILE_NCORES + 1] = {"brisc", "ncrisc", "trisc0", "trisc1", "trisc2", NULL};
static const char *const at_names[AT_COUNT] = {"before_boot", "after_boot", "kernels_done", "after_launch"};

const char *cfg_at_name(cfg_at_t at) { return at_names[at]; }

typedef struct {
    const char *file;
    char *err;
    size_t errlen;
} ctx_t;

static int fail(ctx_t *x, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(ctx_t *x, const char *key, const char *fmt, ...) {
    int n = snprintf(x->err, x->errlen, "%s: key '%s': ", x->file, key);
    if (n < 0 || (size_t)n >= x->errlen) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err + n, x->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* a, b, c and d one after the other into buf (n > 0): cut at n - 1 characters, never overflowed.
 * A path is made for every object a config holds (the parent of its keys' messages), so this is
 * a copy, not snprintf's format (~1,100 host instructions a call). */
static const char *join4(char *buf, size_t n, const char *a, const char *b, const char *c, const char *d) {
    const char *part[4] = {a, b, c, d};
    size_t k = 0;
    for (int i = 0; i < 4; i++)
        for (const char *s = part[i]; *s && k + 1 < n; s++)
            buf[k++] = *s;
    buf[k] = 0;
    return buf;
}

/* "parent.key" into buf (key paths are short; a longer one is cut, never overflowed). */
static const char *path_of(char *buf, size_t n, const char *parent, const char *key) {
    return join4(buf, n, parent, *parent ? "." : "", key, "");
}

/* "parent[i]" into buf (i an array's index: a count of the entries before it). */
static const char *index_of(char *buf, size_t n, const char *parent, unsigned i) {
    char num[12], *d = num + sizeof num;
    *--d = 0;
    do
        *--d = (char)('0' + i % 10);
    while (i /= 10);
    return join4(buf, n, parent, "[", d, "]");
}

/* Every key of obj is one of allowed, and none is given twice: cJSON keeps a duplicate as a
 * sibling and its getters return the first, so {"max_cycles": 1000, "max_cycles": 5} would
 * silently mean 1000. Every object a config holds passes through here (the rest are refused for
 * their type), so allowed (at most 32 keys) bounds the work. */
static int check_keys(ctx_t *x, const cJSON *obj, const char *where, const char *const allowed[]) {
    char p[160];
    if (!cJSON_IsObject(obj)) return fail(x, *where ? where : "(top level)", "expected an object");
    uint32_t seen = 0;
    for (const cJSON *it = obj->child; it; it = it->next) {
        bool ok = false;
        for (int i = 0; allowed[i] && !ok; i++)
            if (!strcmp(it->string, allowed[i])) {
                ok = true;
                if (seen & (1u << i))
                    return fail(x, path_of(p, sizeof p, where, it->string),
                                "given twice (each key may appear once in an object)");
                seen |= 1u << i;
            }
        if (!ok) {
            char list[256] = "";
            for (int i = 0; allowed[i]; i++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", allowed[i]);
            return fail(x, path_of(p, sizeof p, where, it->string), "unknown key (expected one of: %s)", list);
        }
    }
    return 0;
}

/* An unsigned integer: a JSON number, or a string "0x..." / decimal; false (nothing said) if v is
 * none of at most max. */
static bool u64_of(const cJSON *v, uint64_t max, uint64_t *out) {
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        /* Range first: converting a double outside uint64_t's range (1e60, NaN) is undefined
         * behaviour (C11 6.3.1.4), so the cast that tests for a fraction comes last. */
        if (!(d >= 0) || d > (double)max || d >= 18446744073709551616.0 || d != (double)(uint64_t)d) return false;
        *out = (uint64_t)d;
        return true;
    }
    return cJSON_IsString(v) && run_parse_uint(v->valuestring, max, out);
}

/* u64_of, or the message naming key. */
static int get_u64(ctx_t *x, const cJSON *v, const char *key, uint64_t max, uint64_t *out) {
    if (u64_of(v, max, out)) return 0;
    if (cJSON_IsNumber(v))
        return fail(x, key, "expected an integer from 0 to %llu, got %g", (unsigned long long)max, v->valuedouble);
    return fail(x, key, "expected an integer from 0 to %llu (a number or a \"0x...\" string)", (unsigned long long)max);
}

/* The key's path is made only for a message: a config has hundreds of these. */
static int get_u32(ctx_t *x, const cJSON *obj, const char *parent, const char *name, bool required, uint32_t *out) {
    char p[160];
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!v) return required ? fail(x, path_of(p, sizeof p, parent, name), "missing (expected an integer)") : 0;
    uint64_t u;
    if (!u64_of(v, 0xFFFFFFFFull, &u)) return get_u64(x, v, path_of(p, sizeof p, parent, name), 0xFFFFFFFFull, &u);
    *out = (uint32_t)u;
    return 0;
}

/* A file path; relative paths are relative to the config file's directory. */
static int get_path(ctx_t *x, const cJSON *v, const char *key, char **out) {
    if (!cJSON_IsString(v) || !v->valuestring[0]) return fail(x, key, "expected a file path (a non-empty string)");
    const char *s = v->valuestring;
    const char *slash = strrchr(x->file, '/');
    size_t dirlen = (s[0] == '/' || !slash) ? 0 : (size_t)(slash - x->file) + 1;
    char *p = malloc(dirlen + strlen(s) + 1);
    if (!p) return fail(x, key, "out of memory");
    memcpy(p, x->file, dirlen);
    strcpy(p + dirlen, s);
    free(*out);
    *out = p;
    return 0;
}

static int parse_peek_str(ctx_t *x, const cJSON *v, const char *key, run_peek_t *pk) {
    if (!cJSON_IsString(v) || !run_parse_peek(v->valuestring, pk))
        return fail(x, key, "expected \"ADDR\" or \"ADDR:WORDS\" (4-byte aligned address, 1..4096 words)");
    return 0;
}

/* "firmware": a directory holding brisc.elf ... trisc2.elf, or an object naming each. */
static int parse_firmware(ctx_t *x, const cJSON *v, cfg_t *c) {
    char p[160];
    if (cJSON_IsString(v)) {
        char *dir = NULL;
        if (get_path(x, v, "firmware", &dir)) return -1;
        for (int i = 0; i < TILE_NCORES; i++) {
            size_t n = strlen(dir) + strlen(core_keys[i]) + 6;
            c->firmware[i] = malloc(n);
            if (c->firmware[i]) snprintf(c->firmware[i], n, "%s/%s.elf", dir, core_keys[i]);
        }
        free(dir);
        return 0;
    }
    if (check_keys(x, v, "firmware", core_keys)) return -1;
    for (int i = 0; i < TILE_NCORES; i++) {
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(v, core_keys[i]);
        if (!f)
            return fail(x, path_of(p, sizeof p, "firmware", core_keys[i]), "missing (tt-metal boot needs all five)");
        if (get_path(x, f, path_of(p, sizeof p, "firmware", core_keys[i]), &c->firmware[i])) return -1;
    }
    return 0;
}

/* "cores": core → "file.elf", or {"file": "x.bin", "addr": ...} for a flat binary. */
static int parse_cores(ctx_t *x, const cJSON *v, cfg_t *c) {
    static const char *const bin_keys[] = {"file", "addr", NULL};
    char p[160];
    if (check_keys(x, v, "cores", core_keys)) return -1;
    for (int i = 0; i < TILE_NCORES; i++) {
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(v, core_keys[i]);
        if (!f) continue;
        path_of(p, sizeof p, "cores", core_keys[i]);
        if (cJSON_IsObject(f)) {
            char q[200];
            if (check_keys(x, f, p, bin_keys) || get_u32(x, f, p, "addr", true, &c->core_addr[i])) return -1;
            const cJSON *file = cJSON_GetObjectItemCaseSensitive(f, "file");
            if (!file) return fail(x, path_of(q, sizeof q, p, "file"), "missing (expected a file path)");
            if (get_path(x, file, path_of(q, sizeof q, p, "file"), &c->cores[i])) return -1;
            if (c->core_addr[i] % 4 || c->core_addr[i] >= TILE_L1_SIZE)
                return fail(x, path_of(q, sizeof q, p, "addr"), "expected a 4-byte aligned L1 address");
            c->core_flat[i] = true;
        } else if (get_path(x, f, p, &c->cores[i])) {
            return fail(x, p, "expected an ELF path, or {\"file\": flat binary, \"addr\": load address}");
        }
    }
    return 0;
}

static int parse_launch(ctx_t *x, const cJSON *v, const char *where, cfg_launch_t *l) {
    static const char *const keys[] = {"kernel_config_base", "kernels", "runtime_args", "circular_buffers", NULL};
    static const char *const cb_keys[] = {"id", "addr", "size", "num_pages", "page_size", NULL};
    char p[160], q[160];
    if (check_keys(x, v, where, keys)) return -1;
    l->kernel_config_base = 0x82B0; /* MEM_MAP_END of the p100a firmware build (loader/ttmetal.h) */
    if (get_u32(x, v, where, "kernel_config_base", false, &l->kernel_config_base)) return -1;
    if (l->kernel_config_base % 16 || l->kernel_config_base >= TILE_L1_SIZE)
        return fail(x, path_of(p, sizeof p, where, "kernel_config_base"), "expected a 16-byte aligned L1 address");
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(v, "kernels");
    if (!k) return fail(x, path_of(p, sizeof p, where, "kernels"), "missing (expected an object of per-core kernels)");
    path_of(p, sizeof p, where, "kernels");
    if (check_keys(x, k, p, core_keys)) return -1;
    int n = 0;
    for (int i = 0; i < TILE_NCORES; i++) {
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(k, core_keys[i]);
        if (f && get_path(x, f, path_of(q, sizeof q, p, core_keys[i]), &l->kernel[i])) return -1;
        n += f != NULL;
    }
    if (!n) return fail(x, p, "expected at least one kernel");
    bool tr = l->kernel[CORE_TRISC0], t1 = l->kernel[CORE_TRISC1], t2 = l->kernel[CORE_TRISC2];
    if ((tr || t1 || t2) && !(tr && t1 && t2))
        return fail(x, p, "the three compute kernels (trisc0, trisc1, trisc2) launch together: give all three");
    const cJSON *ra = cJSON_GetObjectItemCaseSensitive(v, "runtime_args");
    if (ra) {
        path_of(p, sizeof p, where, "runtime_args");
        if (check_keys(x, ra, p, core_keys)) return -1;
        for (int i = 0; i < TILE_NCORES; i++) {
            const cJSON *arr = cJSON_GetObjectItemCaseSensitive(ra, core_keys[i]);
            if (!arr) continue;
            path_of(q, sizeof q, p, core_keys[i]);
            if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > CFG_MAX_RTAS)
                return fail(x, q, "expected an array of at most %d integers", CFG_MAX_RTAS);
            const cJSON *e;
            cJSON_ArrayForEach(e, arr) {
                uint64_t u;
                if (get_u64(x, e, q, 0xFFFFFFFFull, &u)) return -1;
                l->rta[i][l->nrta[i]++] = (uint32_t)u;
            }
        }
    }
    const cJSON *cbs = cJSON_GetObjectItemCaseSensitive(v, "circular_buffers");
    if (cbs) {
        path_of(p, sizeof p, where, "circular_buffers");
        if (!cJSON_IsArray(cbs) || cJSON_GetArraySize(cbs) > CFG_MAX_CBS)
            return fail(x, p, "expected an array of at most %d circular buffers", CFG_MAX_CBS);
        const cJSON *e;
        cJSON_ArrayForEach(e, cbs) {
            index_of(q, sizeof q, p, l->ncbs);
            cfg_cb_t *cb = &l->cbs[l->ncbs];
            uint32_t id;
            if (check_keys(x, e, q, cb_keys) || get_u32(x, e, q, "id", true, &id) ||
                get_u32(x, e, q, "addr", true, &cb->addr) || get_u32(x, e, q, "size", true, &cb->size) ||
                get_u32(x, e, q, "num_pages", true, &cb->num_pages) ||
                get_u32(x, e, q, "page_size", true, &cb->page_size))
                return -1;
            char r[200];
            if (id >= 32) return fail(x, path_of(r, sizeof r, q, "id"), "expected a circular buffer id from 0 to 31");
            if (cb->addr % 16 || cb->size % 16 || cb->page_size % 16)
                return fail(x, q,
                            "addr, size and page_size must be multiples of 16 bytes (the TRISCs see 16-byte units)");
            if ((uint64_t)cb->addr + cb->size > TILE_L1_SIZE) return fail(x, q, "the buffer must lie in L1");
            /* In 64 bits: num_pages 268435457 * page_size 16 wraps to 16 in 32. */
            if (!cb->page_size || cb->size != (uint64_t)cb->num_pages * cb->page_size)
                return fail(x, q, "size must equal num_pages * page_size (page_size > 0)");
            for (int j = 0; j < l->ncbs; j++) {
                const cfg_cb_t *o = &l->cbs[j];
                if (o->id == (int)id)
                    return fail(x, path_of(r, sizeof r, q, "id"), "circular buffer %u given twice", id);
                if (cb->addr < o->addr + o->size && o->addr < cb->addr + cb->size)
                    return fail(x, q, "0x%08x..0x%08x overlaps circular buffer %d (%s[%d], 0x%08x..0x%08x)", cb->addr,
                                cb->addr + cb->size, o->id, p, j, o->addr, o->addr + o->size);
            }
            cb->id = (int)id;
            l->ncbs++;
        }
    }
    return 0;
}

static int parse_host(ctx_t *x, const cJSON *arr, cfg_t *c) {
    static const char *const keys[] = {"at", "launch", "write", "read", "dram_write", "dram_read", NULL};
    static const char *const wkeys[] = {"addr", "value", "size", "file", NULL};
    static const char *const rkeys[] = {"addr", "words", "bytes", "name", "file", NULL};
    char p[160], q[200], f[240], nk[220];
    if (!cJSON_IsArray(arr)) return fail(x, "host", "expected an array of host operations");
    int n = cJSON_GetArraySize(arr);
    c->host = calloc(n ? (size_t)n : 1, sizeof *c->host);
    if (!c->host) return fail(x, "host", "out of memory");
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        /* Counted before it is parsed: cfg_free then frees what a failed one holds. */
        int index = c->nhost++;
        cfg_host_op_t *op = &c->host[index];
        index_of(p, sizeof p, "host", index);
        if (check_keys(x, e, p, keys)) return -1;
        const cJSON *at = cJSON_GetObjectItemCaseSensitive(e, "at");
        int a = -1;
        for (int i = 0; i < AT_COUNT; i++)
            if (cJSON_IsString(at) && !strcmp(at->valuestring, at_names[i])) a = i;
        if (a < 0)
            return fail(x, path_of(q, sizeof q, p, "at"),
                        "expected \"before_boot\", \"after_boot\", \"kernels_done\" or \"after_launch\"");
        op->at = (cfg_at_t)a;
        op->launch = -1;
        /* Refuse what would never run rather than accept it and do nothing: bare mode runs only
         * before_boot ops; a launch number means something only where launches happen. */
        if (!c->firmware[0] && op->at != AT_BEFORE_BOOT)
            return fail(x, path_of(q, sizeof q, p, "at"), "a bare-mode run (\"cores\") has only \"before_boot\"");
        const cJSON *ln = cJSON_GetObjectItemCaseSensitive(e, "launch");
        if (ln) {
            uint64_t u;
            path_of(q, sizeof q, p, "launch");
            if (get_u64(x, ln, q, CFG_MAX_LAUNCHES - 1, &u)) return -1;
            if (op->at != AT_KERNELS_DONE && op->at != AT_AFTER_LAUNCH)
                return fail(x, q, "only \"kernels_done\" and \"after_launch\" ops take a launch");
            if ((int)u >= c->nlaunches)
                return fail(x, q, "launch %d does not exist (%d configured)", (int)u, c->nlaunches);
            op->launch = (int)u;
        }
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(e, "write"), *r = cJSON_GetObjectItemCaseSensitive(e, "read");
        const cJSON *dw = cJSON_GetObjectItemCaseSensitive(e, "dram_write");
        const cJSON *dr = cJSON_GetObjectItemCaseSensitive(e, "dram_read");
        if ((w != NULL) + (r != NULL) + (dw != NULL) + (dr != NULL) != 1)
            return fail(x, p, "expected exactly one of \"write\", \"read\", \"dram_write\" or \"dram_read\"");
        if (dw || dr) { /* loader/dram_ops.c */
            if (cfg_dram_parse(c, x->err, x->errlen, dw ? dw : dr,
                               path_of(q, sizeof q, p, dw ? "dram_write" : "dram_read"), dw != NULL, op))
                return -1;
        } else if (w) {
            path_of(q, sizeof q, p, "write");
            op->is_write = true;
            op->size = 4;
            if (check_keys(x, w, q, wkeys) || get_u32(x, w, q, "addr", true, &op->addr)) return -1;
            const cJSON *file = cJSON_GetObjectItemCaseSensitive(w, "file");
            if (file) {
                /* A file's bytes: any length, checked against L1 or the alias when it is read. */
                if (cJSON_GetObjectItemCaseSensitive(w, "value") || cJSON_GetObjectItemCaseSensitive(w, "size"))
                    return fail(x, q, "give either \"value\" (and \"size\") or \"file\"");
                if (get_path(x, file, path_of(f, sizeof f, q, "file"), &op->file)) return -1;
            } else {
                if (get_u32(x, w, q, "value", true, &op->value) || get_u32(x, w, q, "size", false, &op->size))
                    return -1;
                if (op->size != 1 && op->size != 2 && op->size != 4) return fail(x, q, "size must be 1, 2 or 4");
                if (op->addr % op->size) return fail(x, q, "addr must be aligned to size");
                if (op->size != 4 && op->addr >= TILE_L1_SIZE)
                    return fail(x, q, "size must be 4 for a device register (sub-word writes reach L1 only)");
            }
        } else {
            path_of(q, sizeof q, p, "read");
            op->words = 1;
            if (check_keys(x, r, q, rkeys) || get_u32(x, r, q, "addr", true, &op->addr) ||
                get_u32(x, r, q, "words", false, &op->words) || get_u32(x, r, q, "bytes", false, &op->bytes))
                return -1;
            const cJSON *file = cJSON_GetObjectItemCaseSensitive(r, "file");
            if (file && get_path(x, file, path_of(f, sizeof f, q, "file"), &op->file)) return -1;
            bool has_words = cJSON_GetObjectItemCaseSensitive(r, "words") != NULL;
            if (cJSON_GetObjectItemCaseSensitive(r, "bytes")) {
                /* A byte count: read whole words, save the bytes asked for. */
                if (has_words) return fail(x, q, "give either \"words\" or \"bytes\"");
                if (!op->file) return fail(x, q, "\"bytes\" goes with \"file\" (the bytes are saved there)");
                if (op->bytes == 0 || op->bytes > TILE_L1_SIZE) return fail(x, q, "bytes must be 1..%u", TILE_L1_SIZE);
                op->words = (op->bytes + 3) / 4;
            } else {
                op->bytes = 4 * op->words;
            }
            uint32_t max_words = op->file ? TILE_L1_SIZE / 4 : 4096; /* reported words stay readable */
            if (op->addr % 4 || op->words == 0 || op->words > max_words)
                return fail(x, q, "expected an aligned addr and 1..%u words", max_words);
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(r, "name");
            if (nm && (!cJSON_IsString(nm) || strlen(nm->valuestring) >= sizeof op->name))
                return fail(x, q, "name must be a string of at most %zu characters", sizeof op->name - 1);
            if (nm)
                snprintf(op->name, sizeof op->name, "%s", nm->valuestring);
            else
                snprintf(op->name, sizeof op->name, "%s@0x%08x", at_names[a], op->addr);
            /* The name is the read's key under host_reads: two reads with one name would write
             * the key twice into the report. */
            for (int i = 0; i < index; i++)
                if (!c->host[i].is_write && !strcmp(c->host[i].name, op->name))
                    return fail(x, path_of(nk, sizeof nk, q, "name"),
                                "host[%d].read is already named '%s' (each read's name is its key under host_reads)", i,
                                op->name);
        }
    }
    return 0;
}

/* ---- tensors (docs/tensors.md) ------------------------------------------------------------ */

/* Tensor names appear in flags (NAME=FILE) and in golden file names (CASE.NAME.npy). */
static bool name_ok(const char *s) {
    size_t n = strlen(s);
    if (!n || n >= CFG_NAME_MAX) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
              *s == '-'))
            return false;
    return true;
}

int cfg_tensor_find(const cfg_t *c, const char *name) {
    for (int i = 0; i < c->ntensors; i++)
        if (!strcmp(c->tensors[i].name, name)) return i;
    return -1;
}

/* "a, b, c" (the declared tensors) into buf, for errors about an unknown one. */
static const char *tensor_list(const cfg_t *c, char *buf, size_t n) {
    buf[0] = 0;
    for (int i = 0; i < c->ntensors && strlen(buf) + 1 < n; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? ", " : "", c->tensors[i].name);
    if (!c->ntensors) snprintf(buf, n, "none: a run config declares them under \"tensors\"");
    return buf;
}

/* "dram": {base, page_size, interleaved, bank} (docs/tensors.md). */
static int parse_tensor_dram(ctx_t *x, const cJSON *v, const char *where, cfg_tensor_t *t) {
    static const char *const keys[] = {"base", "page_size", "interleaved", "bank", NULL};
    char p[200], q[240];
    path_of(p, sizeof p, where, "dram");
    if (!cJSON_IsObject(v)) return fail(x, p, "expected {base, page_size, interleaved, bank}");
    if (check_keys(x, v, p, keys)) return -1;
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(v, "base"),
                *ps = cJSON_GetObjectItemCaseSensitive(v, "page_size");
    if (!b) return fail(x, p, "missing key 'base' (the buffer's address in its bank, or in every bank)");
    if (!ps) return fail(x, p, "missing key 'page_size' (tt-metal's page: a tile's bytes for a tiled buffer)");
    uint64_t u;
    if (get_u64(x, b, path_of(q, sizeof q, p, "base"), DRAM_CHANNEL_SIZE - 1, &t->dram_base) ||
        get_u64(x, ps, path_of(q, sizeof q, p, "page_size"), 1u << 30, &u))
        return -1;
    if (!u) return fail(x, q, "a page is at least 1 byte");
    t->page_size = (uint32_t)u;
    const cJSON *il = cJSON_GetObjectItemCaseSensitive(v, "interleaved"),
                *bk = cJSON_GetObjectItemCaseSensitive(v, "bank");
    if (il && !cJSON_IsBool(il)) return fail(x, path_of(q, sizeof q, p, "interleaved"), "expected true or false");
    t->interleaved = il ? cJSON_IsTrue(il) : !bk;
    if (t->interleaved && bk)
        return fail(x, p, "an interleaved buffer spans every bank: give \"bank\" only with \"interleaved\": false");
    if (!t->interleaved) {
        if (!bk) return fail(x, p, "a buffer that is not interleaved names its \"bank\" (0..%d)", DRAM_CHANNELS - 1);
        if (get_u64(x, bk, path_of(q, sizeof q, p, "bank"), DRAM_CHANNELS - 1, &u)) return -1;
        t->bank = (int)u;
    }
    t->in_dram = true;
    return 0;
}

static int parse_tensor(ctx_t *x, const cJSON *v, const char *where, cfg_tensor_t *t) {
    static const char *const keys[] = {"addr", "dram", "format", "shape", "layout", NULL};
    char p[200], err[256];
    if (check_keys(x, v, where, keys)) return -1;
    const cJSON *dram = cJSON_GetObjectItemCaseSensitive(v, "dram");
    if (!dram == !cJSON_GetObjectItemCaseSensitive(v, "addr"))
        return fail(x, where, "expected exactly one of \"addr\" (in L1) or \"dram\" (a DRAM buffer)");
    if (dram ? parse_tensor_dram(x, dram, where, t) : get_u32(x, v, where, "addr", true, &t->addr)) return -1;
    const cJSON *fm = cJSON_GetObjectItemCaseSensitive(v, "format");
    int f = cJSON_IsString(fm) ? tns_format_by_name(fm->valuestring) : -1;
    if (f < 0) {
        path_of(p, sizeof p, where, "format");
        if (cJSON_IsString(fm) && !strncmp(fm->valuestring, "bfloat", 6) && strcmp(fm->valuestring, "bfloat16"))
            return fail(x, p, "block-float format \"%s\" is not supported (bfloat8_b is); expected one of: %s",
                        fm->valuestring, tns_format_names());
        return fail(x, p, "expected one of: %s", tns_format_names());
    }
    const cJSON *sh = cJSON_GetObjectItemCaseSensitive(v, "shape");
    path_of(p, sizeof p, where, "shape");
    if (!cJSON_IsArray(sh) || cJSON_GetArraySize(sh) < 1 || cJSON_GetArraySize(sh) > TNS_MAX_DIMS)
        return fail(x, p, "expected an array of 1 to %d dimensions, such as [32, 64]", TNS_MAX_DIMS);
    uint32_t shape[TNS_MAX_DIMS];
    int nd = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, sh) {
        uint64_t u;
        if (get_u64(x, e, p, 0xFFFFFFFFull, &u)) return -1;
        shape[nd++] = (uint32_t)u;
    }
    const cJSON *ly = cJSON_GetObjectItemCaseSensitive(v, "layout");
    bool tiles = cJSON_IsString(ly) && !strcmp(ly->valuestring, "tiles");
    if (!tiles && !(cJSON_IsString(ly) && !strcmp(ly->valuestring, "rows")))
        return fail(x, path_of(p, sizeof p, where, "layout"),
                    "expected \"tiles\" (tt-metal's 32x32 tiles of 16x16 faces) or \"rows\" (row-major)");
    if (tns_desc_init(&t->desc, (tns_format_t)f, tiles, shape, nd, t->in_dram ? CFG_MAX_DRAM_TENSOR : TILE_L1_SIZE, err,
                      sizeof err))
        return fail(x, path_of(p, sizeof p, where, "shape"), "%s", err);
    if (t->in_dram) {
        int ch = t->interleaved ? LDR_DRAM_INTERLEAVED : t->bank;
        if (!ldr_dram_fits(ch, t->page_size, t->dram_base, t->desc.bytes))
            return fail(x, path_of(p, sizeof p, where, "dram"), "%llu bytes from 0x%llx do not fit in %s",
                        (unsigned long long)t->desc.bytes, (unsigned long long)t->dram_base,
                        t->interleaved ? "the DRAM banks" : "the bank");
        return 0;
    }
    if ((uint64_t)t->addr + t->desc.bytes > TILE_L1_SIZE)
        return fail(x, where, "%llu bytes from 0x%08x do not fit in L1 (which ends at 0x%x)",
                    (unsigned long long)t->desc.bytes, t->addr, TILE_L1_SIZE);
    return 0;
}

static int parse_tensors(ctx_t *x, const cJSON *v, cfg_t *c) {
    if (!cJSON_IsObject(v))
        return fail(x, "tensors", "expected an object: tensor name -> {addr or dram, format, shape, layout}");
    int n = cJSON_GetArraySize(v);
    c->tensors = calloc(n ? (size_t)n : 1, sizeof *c->tensors);
    if (!c->tensors) return fail(x, "tensors", "out of memory");
    for (const cJSON *it = v->child; it; it = it->next) {
        char p[160];
        path_of(p, sizeof p, "tensors", it->string);
        if (!name_ok(it->string))
            return fail(x, p, "a tensor name is 1 to %d letters, digits, '_' or '-'", CFG_NAME_MAX - 1);
        if (cfg_tensor_find(c, it->string) >= 0) return fail(x, p, "tensor given twice");
        cfg_tensor_t *t = &c->tensors[c->ntensors];
        snprintf(t->name, sizeof t->name, "%s", it->string);
        if (parse_tensor(x, it, p, t)) return -1;
        c->ntensors++;
    }
    return 0;
}

static const char *const tio_keys[] = {"inputs", "outputs", "expect"};

/* A new entry (zeroed, point defaulted) for tensor ti; NULL when out of memory. */
static cfg_tio_t *tio_add(cfg_t *c, cfg_tio_kind_t kind, int ti) {
    cfg_tio_t *n = realloc(c->tio, sizeof *n * (size_t)(c->ntio + 1));
    if (!n) return NULL;
    c->tio = n;
    cfg_tio_t *t = &c->tio[c->ntio++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->tensor = ti;
    t->launch = -1;
    /* Inputs go in once boot has settled (before the first launch), or before a bare-mode run's
     * cores start; outputs and expectations are read when the run ends. */
    t->at_end = kind != TIO_INPUT;
    t->at = c->firmware[0] ? AT_AFTER_BOOT : AT_BEFORE_BOOT;
    return t;
}

/* "at" and "launch" of an input, output or expectation given as an object. */
static int parse_tio_point(ctx_t *x, const cJSON *v, const char *where, const cfg_t *c, cfg_tio_t *t) {
    char p[200];
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(v, "at");
    if (at) {
        path_of(p, sizeof p, where, "at");
        int a = -1;
        for (int i = 0; i < AT_COUNT; i++)
            if (cJSON_IsString(at) && !strcmp(at->valuestring, at_names[i])) a = i;
        bool end = t->kind != TIO_INPUT && cJSON_IsString(at) && !strcmp(at->valuestring, "end");
        if (a < 0 && !end)
            return fail(x, p, "expected \"before_boot\", \"after_boot\", \"kernels_done\", \"after_launch\"%s",
                        t->kind != TIO_INPUT ? " or \"end\" (the default)" : "");
        t->at_end = end;
        if (!end) t->at = (cfg_at_t)a;
        if (!end && !c->firmware[0] && t->at != AT_BEFORE_BOOT)
            return fail(x, p, "a bare-mode run (\"cores\") has only \"before_boot\"%s",
                        t->kind != TIO_INPUT ? " and \"end\"" : "");
    }
    const cJSON *ln = cJSON_GetObjectItemCaseSensitive(v, "launch");
    if (ln) {
        uint64_t u;
        path_of(p, sizeof p, where, "launch");
        if (get_u64(x, ln, p, CFG_MAX_LAUNCHES - 1, &u)) return -1;
        if (t->at_end || (t->at != AT_KERNELS_DONE && t->at != AT_AFTER_LAUNCH))
            return fail(x, p, "only \"kernels_done\" and \"after_launch\" take a launch");
        if ((int)u >= c->nlaunches) return fail(x, p, "launch %d does not exist (%d configured)", (int)u, c->nlaunches);
        t->launch = (int)u;
    }
    return 0;
}

/* A tolerance: a finite number >= 0. */
static int get_tol(ctx_t *x, const cJSON *v, const char *key, double *out) {
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || v->valuedouble > 1e300)
        return fail(x, key, "expected a finite number >= 0");
    *out = v->valuedouble;
    return 0;
}

/* "inputs" / "outputs" / "expect": tensor name -> "FILE", or {"file", "at", "launch"} (and for
 * expectations "atol", "rtol"). */
static int parse_tio(ctx_t *x, const cJSON *v, cfg_t *c, cfg_tio_kind_t kind) {
    static const char *const io_keys[] = {"file", "at", "launch", NULL};
    static const char *const ex_keys[] = {"file", "at", "launch", "atol", "rtol", NULL};
    const char *key = tio_keys[kind];
    char p[160], q[200], list[256];
    if (!cJSON_IsObject(v)) return fail(x, key, "expected an object: tensor name -> file (or {\"file\": ...})");
    for (const cJSON *it = v->child; it; it = it->next) {
        path_of(p, sizeof p, key, it->string);
        int ti = cfg_tensor_find(c, it->string);
        if (ti < 0) return fail(x, p, "unknown tensor (declared: %s)", tensor_list(c, list, sizeof list));
        for (int i = 0; i < c->ntio; i++)
            if (c->tio[i].kind == kind && c->tio[i].tensor == ti) return fail(x, p, "tensor given twice");
        cfg_tio_t *t = tio_add(c, kind, ti);
        if (!t) return fail(x, p, "out of memory");
        snprintf(t->origin, sizeof t->origin, "%s", p);
        if (cJSON_IsString(it)) {
            if (get_path(x, it, p, &t->file)) return -1;
            continue;
        }
        if (!cJSON_IsObject(it)) return fail(x, p, "expected a file path or {\"file\": ...}");
        if (check_keys(x, it, p, kind == TIO_EXPECT ? ex_keys : io_keys)) return -1;
        const cJSON *file = cJSON_GetObjectItemCaseSensitive(it, "file");
        if (!file) return fail(x, path_of(q, sizeof q, p, "file"), "missing (expected a .npy or .bin file)");
        if (get_path(x, file, path_of(q, sizeof q, p, "file"), &t->file) || parse_tio_point(x, it, p, c, t)) return -1;
        const cJSON *at = cJSON_GetObjectItemCaseSensitive(it, "atol"),
                    *rt = cJSON_GetObjectItemCaseSensitive(it, "rtol");
        if (at && get_tol(x, at, path_of(q, sizeof q, p, "atol"), &t->atol)) return -1;
        if (rt && get_tol(x, rt, path_of(q, sizeof q, p, "rtol"), &t->rtol)) return -1;
    }
    return 0;
}

/* A tolerance suffix's number: finite, >= 0, the whole string. */
static bool parse_tol(const char *s, double *out) {
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (!*s || *end || errno || !(d >= 0) || d > 1e300) return false;
    *out = d;
    return true;
}

int cfg_add_tensor_arg(cfg_t *c, cfg_tio_kind_t kind, const char *arg, char *err, size_t errlen) {
    static const char *const flags[] = {"--input", "--output", "--expect"};
    const char *flag = flags[kind];
    char list[256];
    const char *eq = strchr(arg, '=');
    size_t nlen = eq ? (size_t)(eq - arg) : 0;
    if (!eq || !nlen || nlen >= CFG_NAME_MAX || !eq[1]) {
        snprintf(err, errlen, "%s needs NAME=FILE%s, got '%s'", flag, kind == TIO_EXPECT ? "[:atol=A][:rtol=R]" : "",
                 arg);
        return -1;
    }
    char name[CFG_NAME_MAX];
    memcpy(name, arg, nlen);
    name[nlen] = 0;
    int ti = cfg_tensor_find(c, name);
    if (ti < 0) {
        snprintf(err, errlen, "%s %s: unknown tensor '%s' (declared: %s)", flag, arg, name,
                 tensor_list(c, list, sizeof list));
        return -1;
    }
    char *file = strdup(eq + 1);
    if (!file) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    double tol[2] = {0, 0};
    bool given[2] = {false, false};
    /* Expectations: ":atol=A" and ":rtol=R" from the end (a file name may hold ':' itself). */
    for (char *colon; kind == TIO_EXPECT && (colon = strrchr(file, ':'));) {
        int k = !strncmp(colon + 1, "atol=", 5) ? 0 : !strncmp(colon + 1, "rtol=", 5) ? 1 : -1;
        if (k < 0) break;
        if (given[k] || !parse_tol(colon + 6, &tol[k])) {
            snprintf(err, errlen, "%s %s: '%s' needs a finite number >= 0, once", flag, arg, colon + 1);
            free(file);
            return -1;
        }
        given[k] = true;
        *colon = 0;
    }
    if (!*file) {
        snprintf(err, errlen, "%s %s: no file", flag, arg);
        free(file);
        return -1;
    }
    cfg_tio_t *t = NULL;
    for (int i = 0; i < c->ntio; i++)
        if (c->tio[i].kind == kind && c->tio[i].tensor == ti) t = &c->tio[i]; /* flags override the file */
    if (!t) {
        if (!(t = tio_add(c, kind, ti))) {
            snprintf(err, errlen, "out of memory");
            free(file);
            return -1;
        }
        /* A new output or expectation of a tensor the config reads at some point is read there
         * too (ttemu regress compares a config's outputs with their goldens so). */
        for (int i = 0; i + 1 < c->ntio && kind != TIO_INPUT; i++)
            if (c->tio[i].tensor == ti && c->tio[i].kind != TIO_INPUT) {
                t->at_end = c->tio[i].at_end;
                t->at = c->tio[i].at;
                t->launch = c->tio[i].launch;
                break;
            }
    }
    free(t->file);
    t->file = file;
    t->atol = tol[0];
    t->rtol = tol[1];
    snprintf(t->origin, sizeof t->origin, "%s %s", flag, name);
    if (kind == TIO_INPUT) c->inputs_from_flags = true;
    return 0;
}

void cfg_drop_stale_expectations(cfg_t *c, char *note, size_t n) {
    note[0] = 0;
    if (!c->inputs_from_flags) return;
    int k = 0;
    for (int i = 0; i < c->ntio; i++) {
        cfg_tio_t *t = &c->tio[i];
        if (t->kind == TIO_EXPECT && strncmp(t->origin, "--expect", 8) != 0) { /* the config's own */
            size_t len = strlen(note);
            snprintf(note + len, n - len, "%s%s", len ? ", " : "", c->tensors[t->tensor].name);
            free(t->file);
            continue;
        }
        c->tio[k++] = *t;
    }
    c->ntio = k;
}

static int parse_stop(ctx_t *x, const cJSON *v, cfg_t *c) {
    static const char *const keys[] = {"at", "cycles", "addr", "equals", "mask", NULL};
    static const char *const kinds[] = {"halted", "boot", "launches", "cycles", "l1", NULL};
    if (check_keys(x, v, "stop", keys)) return -1;
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(v, "at");
    int k = -1;
    for (int i = 0; kinds[i]; i++)
        if (cJSON_IsString(at) && !strcmp(at->valuestring, kinds[i])) k = i;
    if (k < 0) return fail(x, "stop.at", "expected \"halted\", \"boot\", \"launches\", \"cycles\" or \"l1\"");
    c->stop.kind = (cfg_stop_kind_t)k;
    const cJSON *cy = cJSON_GetObjectItemCaseSensitive(v, "cycles");
    if (cy && get_u64(x, cy, "stop.cycles", UINT64_MAX >> 12, &c->stop.cycles)) return -1;
    if (c->stop.kind == STOP_CYCLES && !cy) return fail(x, "stop.cycles", "missing (stop at \"cycles\" needs it)");
    if (c->stop.kind == STOP_L1) {
        c->stop.mask = 0xFFFFFFFFu;
        if (get_u32(x, v, "stop", "addr", true, &c->stop.addr) ||
            get_u32(x, v, "stop", "equals", true, &c->stop.value) ||
            get_u32(x, v, "stop", "mask", false, &c->stop.mask))
            return -1;
        if (c->stop.addr % 4 || c->stop.addr >= TILE_L1_SIZE)
            return fail(x, "stop.addr", "expected an aligned L1 address");
    }
    return 0;
}

/* ---- the typed getters for loader's other config readers (loader/config.h) ---- */

int cfg_fail(const cfg_t *c, char *err, size_t errlen, const char *key, const char *fmt, ...) {
    int n = snprintf(err, errlen, "%s: key '%s': ", c->path, key);
    if (n < 0 || (size_t)n >= errlen) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

int cfg_check_keys(const cfg_t *c, char *err, size_t errlen, const cJSON *obj, const char *where,
                   const char *const allowed[]) {
    ctx_t x = {c->path, err, errlen};
    return check_keys(&x, obj, where, allowed);
}

int cfg_get_u64(const cfg_t *c, char *err, size_t errlen, const cJSON *v, const char *key, uint64_t max,
                uint64_t *out) {
    ctx_t x = {c->path, err, errlen};
    return get_u64(&x, v, key, max, out);
}

int cfg_get_path(const cfg_t *c, char *err, size_t errlen, const cJSON *v, const char *key, char **out) {
    ctx_t x = {c->path, err, errlen};
    return get_path(&x, v, key, out);
}

int cfg_load(const char *path, cfg_t *c, char *err, size_t errlen) {
    size_t len;
    char *text = ldr_read_file_max(path, LDR_MAX_CONFIG, "a run config", &len, err, errlen);
    if (!text) {
        memset(c, 0, sizeof *c);
        return -1;
    }
    int rc = cfg_load_text(path, text, len, c, err, errlen);
    free(text);
    return rc;
}

int cfg_load_text(const char *path, const char *text, size_t len, cfg_t *c, char *err, size_t errlen) {
    static const char *const keys[] = {"version", "firmware",   "cores",       "launches", "host",
                                       "stop",    "max_cycles", "peek",        "tensors",  "inputs",
                                       "outputs", "expect",     "gate_policy", NULL};
    memset(c, 0, sizeof *c);
    c->path = strdup(path);
    ctx_t x = {c->path ? c->path : path, err, errlen};
    if (!len) {
        snprintf(err, errlen, "%s: empty file", path);
        return -1;
    }
    cJSON *root = cJSON_ParseWithLength(text, len);
    int rc = -1;
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        int line = 1;
        for (const char *p = text; at && p < at; p++)
            line += *p == '\n';
        snprintf(err, errlen, "%s: line %d: not valid JSON", path, line);
        goto out;
    }
    if (check_keys(&x, root, "", keys)) goto out;
    uint32_t version = 0;
    if (get_u32(&x, root, "", "version", true, &version)) goto out;
    if (version != CFG_VERSION) {
        fail(&x, "version", "expected %d, got %u", CFG_VERSION, version);
        goto out;
    }
    const cJSON *fw = cJSON_GetObjectItemCaseSensitive(root, "firmware");
    const cJSON *cores = cJSON_GetObjectItemCaseSensitive(root, "cores");
    if (!fw == !cores) {
        fail(&x, "firmware", "give exactly one of \"firmware\" (tt-metal boot) or \"cores\" (bare mode)");
        goto out;
    }
    if (fw ? parse_firmware(&x, fw, c) : parse_cores(&x, cores, c)) goto out;
    const cJSON *ls = cJSON_GetObjectItemCaseSensitive(root, "launches");
    if (ls) {
        if (!fw) {
            fail(&x, "launches", "launches need \"firmware\" (the tt-metal host launches through it)");
            goto out;
        }
        if (!cJSON_IsArray(ls) || cJSON_GetArraySize(ls) > CFG_MAX_LAUNCHES) {
            fail(&x, "launches", "expected an array of at most %d launches", CFG_MAX_LAUNCHES);
            goto out;
        }
        const cJSON *e;
        cJSON_ArrayForEach(e, ls) {
            char w[32];
            index_of(w, sizeof w, "launches", c->nlaunches);
            if (parse_launch(&x, e, w, &c->launches[c->nlaunches])) goto out;
            c->nlaunches++;
        }
    }
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(root, "host");
    if (h && parse_host(&x, h, c)) goto out;
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(root, "tensors");
    if (ts && parse_tensors(&x, ts, c)) goto out;
    for (int k = TIO_INPUT; k <= TIO_EXPECT; k++) {
        const cJSON *io = cJSON_GetObjectItemCaseSensitive(root, tio_keys[k]);
        if (io && parse_tio(&x, io, c, (cfg_tio_kind_t)k)) goto out;
    }
    c->stop.kind = fw ? (c->nlaunches ? STOP_LAUNCHES : STOP_BOOT) : STOP_HALTED;
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(root, "stop");
    if (st && parse_stop(&x, st, c)) goto out;
    if (!fw && (c->stop.kind == STOP_BOOT || c->stop.kind == STOP_LAUNCHES)) {
        fail(&x, "stop.at", "\"boot\" and \"launches\" need \"firmware\"");
        goto out;
    }
    if (c->stop.kind == STOP_LAUNCHES && !c->nlaunches) {
        fail(&x, "stop.at", "\"launches\" needs at least one launch");
        goto out;
    }
    const cJSON *mc = cJSON_GetObjectItemCaseSensitive(root, "max_cycles");
    if (mc) {
        if (get_u64(&x, mc, "max_cycles", UINT64_MAX >> 12, &c->max_cycles)) goto out;
        if (!c->max_cycles) {
            fail(&x, "max_cycles", "expected a positive number");
            goto out;
        }
        c->max_cycles_set = true;
    }
    const cJSON *gp = cJSON_GetObjectItemCaseSensitive(root, "gate_policy");
    if (gp) {
        int p = cJSON_IsString(gp) ? cp_gate_policy_parse(gp->valuestring) : -1;
        if (p < 0) {
            fail(&x, "gate_policy", "expected \"exact\" or \"whole-thread\"");
            goto out;
        }
        c->gate_policy = (cp_gate_policy_t)p;
    }
    const cJSON *pk = cJSON_GetObjectItemCaseSensitive(root, "peek");
    if (pk) {
        if (!cJSON_IsArray(pk) || cJSON_GetArraySize(pk) > RUN_MAX_PEEKS) {
            fail(&x, "peek", "expected an array of at most %d \"ADDR[:WORDS]\" strings", RUN_MAX_PEEKS);
            goto out;
        }
        const cJSON *e;
        cJSON_ArrayForEach(e, pk) {
            char w[32];
            index_of(w, sizeof w, "peek", c->npeeks);
            if (parse_peek_str(&x, e, w, &c->peeks[c->npeeks])) goto out;
            c->npeeks++;
        }
    }
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}

void cfg_free(cfg_t *c) {
    for (int i = 0; i < TILE_NCORES; i++) {
        free(c->firmware[i]);
        free(c->cores[i]);
        for (int l = 0; l < CFG_MAX_LAUNCHES; l++)
            free(c->launches[l].kernel[i]); /* a launch may fail half-parsed */
    }
    for (int i = 0; i < c->nhost; i++) { /* an op may fail half-parsed: nhost counts it */
        free(c->host[i].file);
        free(c->host[i].data);
        cfg_dram_free(c->host[i].dram);
    }
    free(c->host);
    for (int i = 0; i < c->ntio; i++) {
        free(c->tio[i].file);
        free(c->tio[i].l1);
        free(c->tio[i].want_mem);
    }
    free(c->tio);
    free(c->tensors);
    free(c->path);
    memset(c, 0, sizeof *c);
}
