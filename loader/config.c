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
#include "loader/elf.h"

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

/* "parent.key" into buf (key paths are short; a longer one is cut, never overflowed). */
static const char *path_of(char *buf, size_t n, const char *parent, const char *key) {
    if (snprintf(buf, n, "%s%s%s", parent, *parent ? "." : "", key) < 0) buf[0] = 0;
    return buf;
}

/* "parent[i]" into buf. */
static const char *index_of(char *buf, size_t n, const char *parent, int i) {
    if (snprintf(buf, n, "%s[%d]", parent, i) < 0) buf[0] = 0;
    return buf;
}

static int check_keys(ctx_t *x, const cJSON *obj, const char *where, const char *const allowed[]) {
    char p[160];
    if (!cJSON_IsObject(obj)) return fail(x, *where ? where : "(top level)", "expected an object");
    for (const cJSON *it = obj->child; it; it = it->next) {
        bool ok = false;
        for (int i = 0; allowed[i]; i++)
            ok = ok || !strcmp(it->string, allowed[i]);
        if (!ok) {
            char list[256] = "";
            for (int i = 0; allowed[i]; i++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", allowed[i]);
            return fail(x, path_of(p, sizeof p, where, it->string), "unknown key (expected one of: %s)", list);
        }
    }
    return 0;
}

/* An unsigned integer: a JSON number, or a string "0x..." / decimal. */
static int get_u64(ctx_t *x, const cJSON *v, const char *key, uint64_t max, uint64_t *out) {
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (d < 0 || d != (double)(uint64_t)d || d > (double)max)
            return fail(x, key, "expected an integer from 0 to %llu, got %g", (unsigned long long)max, d);
        *out = (uint64_t)d;
        return 0;
    }
    if (cJSON_IsString(v) && run_parse_uint(v->valuestring, max, out)) return 0;
    return fail(x, key, "expected an integer from 0 to %llu (a number or a \"0x...\" string)", (unsigned long long)max);
}

static int get_u32(ctx_t *x, const cJSON *obj, const char *parent, const char *name, bool required, uint32_t *out) {
    char p[160];
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!v) return required ? fail(x, path_of(p, sizeof p, parent, name), "missing (expected an integer)") : 0;
    uint64_t u;
    if (get_u64(x, v, path_of(p, sizeof p, parent, name), 0xFFFFFFFFull, &u)) return -1;
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
            if (!cb->page_size || cb->size != cb->num_pages * cb->page_size)
                return fail(x, q, "size must equal num_pages * page_size (page_size > 0)");
            for (int j = 0; j < l->ncbs; j++)
                if (l->cbs[j].id == (int)id)
                    return fail(x, path_of(r, sizeof r, q, "id"), "circular buffer %u given twice", id);
            cb->id = (int)id;
            l->ncbs++;
        }
    }
    return 0;
}

static int parse_host(ctx_t *x, const cJSON *arr, cfg_t *c) {
    static const char *const keys[] = {"at", "launch", "write", "read", "dram_write", "dram_read", NULL};
    static const char *const wkeys[] = {"addr", "value", "size", NULL};
    static const char *const rkeys[] = {"addr", "words", "name", NULL};
    char p[160], q[200];
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > CFG_MAX_HOST_OPS)
        return fail(x, "host", "expected an array of at most %d host operations", CFG_MAX_HOST_OPS);
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        cfg_host_op_t *op = &c->host[c->nhost];
        snprintf(p, sizeof p, "host[%d]", c->nhost);
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
            if (check_keys(x, w, q, wkeys) || get_u32(x, w, q, "addr", true, &op->addr) ||
                get_u32(x, w, q, "value", true, &op->value) || get_u32(x, w, q, "size", false, &op->size))
                return -1;
            if (op->size != 1 && op->size != 2 && op->size != 4) return fail(x, q, "size must be 1, 2 or 4");
            if (op->addr % op->size) return fail(x, q, "addr must be aligned to size");
            if (op->size != 4 && op->addr >= TILE_L1_SIZE)
                return fail(x, q, "size must be 4 for a device register (sub-word writes reach L1 only)");
        } else {
            path_of(q, sizeof q, p, "read");
            op->words = 1;
            if (check_keys(x, r, q, rkeys) || get_u32(x, r, q, "addr", true, &op->addr) ||
                get_u32(x, r, q, "words", false, &op->words))
                return -1;
            if (op->addr % 4 || op->words == 0 || op->words > 4096)
                return fail(x, q, "expected an aligned addr and 1..4096 words");
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(r, "name");
            if (nm && (!cJSON_IsString(nm) || strlen(nm->valuestring) >= sizeof op->name))
                return fail(x, q, "name must be a string of at most %zu characters", sizeof op->name - 1);
            if (nm)
                snprintf(op->name, sizeof op->name, "%s", nm->valuestring);
            else
                snprintf(op->name, sizeof op->name, "%s@0x%08x", at_names[a], op->addr);
        }
        c->nhost++;
    }
    return 0;
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
    static const char *const keys[] = {"version", "firmware",   "cores", "launches", "host",
                                       "stop",    "max_cycles", "peek",  NULL};
    memset(c, 0, sizeof *c);
    c->path = strdup(path);
    ctx_t x = {c->path, err, errlen};
    size_t len;
    char *text = ldr_read_file(path, &len, err, errlen);
    if (!text) return -1;
    if (!len) {
        free(text);
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
            snprintf(w, sizeof w, "launches[%d]", c->nlaunches);
            if (parse_launch(&x, e, w, &c->launches[c->nlaunches])) goto out;
            c->nlaunches++;
        }
    }
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(root, "host");
    if (h && parse_host(&x, h, c)) goto out;
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
    const cJSON *pk = cJSON_GetObjectItemCaseSensitive(root, "peek");
    if (pk) {
        if (!cJSON_IsArray(pk) || cJSON_GetArraySize(pk) > RUN_MAX_PEEKS) {
            fail(&x, "peek", "expected an array of \"ADDR[:WORDS]\" strings");
            goto out;
        }
        const cJSON *e;
        cJSON_ArrayForEach(e, pk) {
            char w[32];
            snprintf(w, sizeof w, "peek[%d]", c->npeeks);
            if (parse_peek_str(&x, e, w, &c->peeks[c->npeeks])) goto out;
            c->npeeks++;
        }
    }
    rc = 0;
out:
    cJSON_Delete(root);
    free(text);
    return rc;
}

void cfg_free(cfg_t *c) {
    for (int i = 0; i < TILE_NCORES; i++) {
        free(c->firmware[i]);
        free(c->cores[i]);
        for (int l = 0; l < CFG_MAX_LAUNCHES; l++)
            free(c->launches[l].kernel[i]); /* a launch may fail half-parsed */
    }
    for (int i = 0; i < CFG_MAX_HOST_OPS; i++)
        cfg_dram_free(c->host[i].dram); /* an op may fail half-parsed */
    free(c->path);
    memset(c, 0, sizeof *c);
}
