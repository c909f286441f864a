/* app/regress.c — `ttemu regress` (docs/regression.md).
 *
 * Each case is a run config. It runs as a child process of this same binary
 * (`ttemu run --config CASE --report R --quiet`), up to --jobs at once: a child per case keeps
 * the cases apart (a guest that crashes the emulator fails one case, not the runner) and uses
 * every CPU without making the tile thread-safe. When all have ended, each report is cut down to
 * its golden subset and compared key by key with the case's golden (CONFIG.golden.json beside
 * it, or GOLDEN_DIR/NAME.json); the table, the closing `N passed, N failed` line and the JUnit
 * XML are written in the cases' input order, so the output does not depend on --jobs (wall times
 * aside). Directories are searched recursively, and a tt-metal config whose firmware is not
 * there is skipped, saying so. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/junit.h"
#include "app/plugin.h"
#include "app/regress.h"
#include "loader/file.h"
#include "run/run.h"
#include "run/utf8.h"

extern char **environ;

#define RG_GOLDEN_SUFFIX  ".golden.json" /* a config's golden beside it: NAME.golden.json */
#define RG_MAX_DIFF_LINES 40             /* printed per case; the JUnit failure carries them all */

typedef enum { RG_PASS, RG_FAIL, RG_UPDATED, RG_SKIP, RG_TIMEOUT, RG_STOPPED, RG_NOT_RUN } rg_result_t;

/* Why a case's run did not finish by itself. */
typedef enum {
    RG_RAN = 0,
    RG_KILLED_TIMEOUT, /* ran longer than --timeout: killed (SIGKILL) */
    RG_KILLED_SIGNAL,  /* ended by the signal forwarded from `ttemu regress` */
    RG_NEVER_STARTED,  /* the regression was interrupted before its turn */
} rg_stop_t;

typedef struct {
    char *config; /* the run config, as given or resolved from a list file */
    char *name;   /* its path below the directory searched (else its file name), without .json */
    char *golden; /* GOLDEN_DIR/NAME.json with --golden, else the config's NAME.golden.json */
    char *skip;   /* why it is not run (a tt-metal config without its firmware), or NULL */
    char *report, *log;
    pid_t pid;
    int status; /* the child's exit code, or 128 + signal */
    rg_stop_t stop;
    struct timespec t0;
    double wall_ms;
    rg_result_t result;
    char *detail; /* the differences, or why the case failed */
    /* Tensor goldens (GOLDEN/NAME.TENSOR.npy): one per tensor in the config's "outputs" */
    char **tensors;
    int ntensors;
    bool *tensor_missing; /* comparing: no golden file for it */
    int ndiff;
    int exit_code; /* exit.code of the report, -1 without one */
    const char *exit_reason;
    double cycles; /* -1 without a report */
    char reason_buf[32];
} rg_case_t;

typedef struct {
    rg_case_t *c;
    int n, cap;
    int jobs;
    bool update;
    const char *junit, *golden_dir, *reports_dir; /* golden_dir: NULL, goldens beside the configs */
    uint64_t timeout_s;                           /* --timeout: wall-clock seconds per case, 0 none */
    unsigned shard, shards;                       /* --shard K/N: 1-based K, N; shards 0: no sharding */
    const char *shard_timing;                     /* --shard-timing: a JUnit file with recorded times */
    int total;                                    /* cases before sharding */
    int signo;                                    /* SIGINT or SIGTERM received while the cases ran, 0 none */
    char tmpdir[256];
    char exe[4096];
} rg_t;

static int rg_bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int rg_bad(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ttemu regress: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return EXIT_BAD_INPUT;
}

static char *rg_strdupf(const char *fmt, const char *a, const char *b) {
    int n = snprintf(NULL, 0, fmt, a, b);
    char *s = malloc((size_t)n + 1);
    if (s) snprintf(s, (size_t)n + 1, fmt, a, b);
    return s;
}

static char *rg_read_file(const char *path, size_t *len) {
    char err[8];
    return ldr_read_file(path, len, err, sizeof err); /* callers say which file went wrong */
}

static cJSON *rg_read_json(const char *path) {
    size_t len;
    char *text = rg_read_file(path, &len);
    if (!text) return NULL;
    cJSON *j = cJSON_ParseWithLength(text, len);
    free(text);
    return j;
}

/* ---- the golden subset ------------------------------------------------------------------------
 * What defines correct behaviour: how the run ended, each core's final state, the instructions
 * each Tensix thread was given and executed, the Sync Unit's final semaphores and mutexes, the
 * peeked words and host reads, and for a stall its diagnosis (who waits on what). Left out:
 * cycles, instret, stall counts, pcs — they move with every retuned latency and with the cross
 * compiler's code, and would make every golden churn without a behaviour change (the table shows
 * cycles; docs/regression.md argues the choice). */

static void rg_copy(cJSON *to, const cJSON *from, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(from, key);
    if (v) cJSON_AddItemToObject(to, key, cJSON_Duplicate(v, true));
}

/* A new array of objects, each holding only `keys` of the matching element of `arr`. */
static cJSON *rg_pick_each(const cJSON *arr, const char *const keys[]) {
    cJSON *out = cJSON_CreateArray();
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        cJSON *o = cJSON_CreateObject();
        for (int i = 0; keys[i]; i++)
            rg_copy(o, e, keys[i]);
        cJSON_AddItemToArray(out, o);
    }
    return out;
}

cJSON *regress_golden_of(const cJSON *report) {
    static const char *const exit_keys[] = {"code", "reason", NULL};
    static const char *const core_keys[] = {"name", "state", NULL};
    static const char *const thread_keys[] = {"thread", "pushed", "issued", "consumed", NULL};
    static const char *const diag_core_keys[] = {"name", "state", NULL};
    cJSON *g = cJSON_CreateObject();
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(report, "exit");
    cJSON *gex = cJSON_AddObjectToObject(g, "exit");
    for (int i = 0; exit_keys[i]; i++)
        rg_copy(gex, ex, exit_keys[i]);
    cJSON_AddItemToObject(g, "cores", rg_pick_each(cJSON_GetObjectItemCaseSensitive(report, "cores"), core_keys));
    cJSON_AddItemToObject(g, "threads", rg_pick_each(cJSON_GetObjectItemCaseSensitive(report, "threads"), thread_keys));
    rg_copy(g, report, "semaphores");
    rg_copy(g, report, "mutexes");
    rg_copy(g, report, "peek");
    rg_copy(g, report, "host_reads");
    /* Named tensors: what they are; their values are compared with the tensor goldens. */
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(report, "tensors");
    if (cJSON_IsObject(ts)) {
        static const char *const tensor_keys[] = {"shape", "format", "layout", NULL};
        cJSON *gt = cJSON_AddObjectToObject(g, "tensors");
        for (const cJSON *t = ts->child; t; t = t->next) {
            cJSON *o = cJSON_AddObjectToObject(gt, t->string);
            for (int i = 0; tensor_keys[i]; i++)
                rg_copy(o, t, tensor_keys[i]);
        }
    }
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(report, "diagnosis");
    if (cJSON_IsObject(d)) {
        cJSON *gd = cJSON_AddObjectToObject(g, "diagnosis");
        rg_copy(gd, d, "kind");
        /* Per held thread: which, why, and what it holds — not since when. */
        cJSON *th = cJSON_AddArrayToObject(gd, "threads");
        const cJSON *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(d, "threads")) {
            cJSON *o = cJSON_CreateObject();
            rg_copy(o, t, "thread");
            rg_copy(o, t, "cause");
            const cJSON *held = cJSON_GetObjectItemCaseSensitive(t, "held");
            const cJSON *mn = cJSON_GetObjectItemCaseSensitive(held, "mnemonic");
            if (cJSON_IsString(mn)) cJSON_AddStringToObject(o, "held", mn->valuestring);
            cJSON_AddItemToArray(th, o);
        }
        cJSON_AddItemToObject(gd, "cores", rg_pick_each(cJSON_GetObjectItemCaseSensitive(d, "cores"), diag_core_keys));
        rg_copy(gd, d, "cycle_nodes");
    }
    return g;
}

/* ---- comparison ------------------------------------------------------------------------------ */

static void rg_print_value(FILE *out, const cJSON *v) {
    if (!v) {
        fputs("(absent)", out);
        return;
    }
    char *s = cJSON_PrintUnformatted(v);
    if (!s) return;
    /* Long values (a whole array or object) are cut: the path already says where to look. */
    if (strlen(s) > 120) strcpy(s + 110, "...");
    fputs(s, out);
    free(s);
}

static int rg_diff_at(const cJSON *g, const cJSON *v, char *path, size_t plen, size_t cap, FILE *out) {
    if (cJSON_IsObject(g) && cJSON_IsObject(v)) {
        int n = 0;
        for (const cJSON *k = g->child; k; k = k->next) {
            int w = snprintf(path + plen, cap - plen, "%s%s", plen ? "." : "", k->string);
            size_t nl = w < 0 || (size_t)w >= cap - plen ? cap - 1 : plen + (size_t)w;
            n += rg_diff_at(k, cJSON_GetObjectItemCaseSensitive(v, k->string), path, nl, cap, out);
            path[plen] = 0;
        }
        return n;
    }
    if (cJSON_IsArray(g) && cJSON_IsArray(v)) {
        int gn = cJSON_GetArraySize(g), vn = cJSON_GetArraySize(v);
        if (gn != vn) {
            fprintf(out, "%s: golden %d entries, got %d\n", plen ? path : "(top level)", gn, vn);
            return 1;
        }
        int n = 0, i = 0;
        /* Both arrays walked once, side by side (cJSON's arrays are linked lists: item i by index
         * is i steps, a report's long peek quadratic). */
        for (const cJSON *gi = g->child, *vi = v->child; gi && vi; gi = gi->next, vi = vi->next, i++) {
            int w = snprintf(path + plen, cap - plen, "[%d]", i);
            size_t nl = w < 0 || (size_t)w >= cap - plen ? cap - 1 : plen + (size_t)w;
            n += rg_diff_at(gi, vi, path, nl, cap, out);
            path[plen] = 0;
        }
        return n;
    }
    if (v && cJSON_Compare(g, v, true)) return 0;
    fprintf(out, "%s: golden ", plen ? path : "(top level)");
    rg_print_value(out, g);
    fputs(", got ", out);
    rg_print_value(out, v);
    fputc('\n', out);
    return 1;
}

int regress_diff(const cJSON *golden, const cJSON *got, FILE *out) {
    char path[512] = "";
    return rg_diff_at(golden, got, path, 0, sizeof path, out);
}

/* ---- cases ----------------------------------------------------------------------------------- */

static bool rg_ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* Creates the directories above path (a file's), as mkdir -p; false with errno. */
static bool rg_mkdirs(const char *path) {
    char *p = strdup(path);
    if (!p) return false;
    bool ok = true;
    for (char *s = strchr(p + 1, '/'); ok && s; s = strchr(s + 1, '/')) {
        *s = 0;
        if (mkdir(p, 0755) != 0 && errno != EEXIST) ok = false;
        *s = '/';
    }
    free(p);
    return ok;
}

/* path as a file beside `beside` names it: relative to beside's directory unless absolute. Returns
 * snprintf's count (>= n: truncated). */
static int rg_beside(char *out, size_t n, const char *beside, const char *path) {
    const char *slash = strrchr(beside, '/');
    if (path[0] == '/' || !slash) return snprintf(out, n, "%s", path);
    return snprintf(out, n, "%.*s/%s", (int)(slash - beside), beside, path);
}

/* A tt-metal run config ("firmware": a directory, or an object naming a file per core) boots
 * firmware that is not part of the repository (the corpus in ../shared/firmware). Without it the
 * case is skipped, with this reason, rather than failed: a checkout without the corpus still
 * gates everything else. NULL when the case can run (or when the config is not JSON: its run
 * will say what is wrong). */
static char *rg_skip_reason(const char *config) {
    cJSON *cfg = rg_read_json(config);
    const cJSON *fw = cJSON_GetObjectItemCaseSensitive(cfg, "firmware");
    char *why = NULL;
    for (const cJSON *f = cJSON_IsObject(fw) ? fw->child : fw; f && !why; f = cJSON_IsObject(fw) ? f->next : NULL) {
        if (!cJSON_IsString(f)) continue;
        char path[4200];
        rg_beside(path, sizeof path, config, f->valuestring);
        if (access(path, F_OK) != 0) why = rg_strdupf("needs the tt-metal firmware %s (%s)", path, "not found");
    }
    cJSON_Delete(cfg);
    return why;
}

/* A case: config is the file to run; rel names it (its path below the directory searched, or
 * NULL for its file name), without ".json". */
static int rg_add(rg_t *rg, const char *config, const char *rel) {
    const char *base = strrchr(config, '/');
    base = rel ? rel : base ? base + 1 : config;
    size_t len = strlen(base);
    if (rg_ends_with(base, ".json")) len -= 5;
    char name[1024];
    if (len == 0 || len >= sizeof name) return rg_bad("%s: cannot name a case after this file", config);
    memcpy(name, base, len);
    name[len] = 0;
    for (int i = 0; i < rg->n; i++)
        if (!strcmp(rg->c[i].name, name))
            return rg_bad("two cases are named '%s' (%s): goldens are found by name, rename one", name, config);
    if (rg->n == rg->cap) {
        int cap = rg->cap ? 2 * rg->cap : 32;
        rg_case_t *c = realloc(rg->c, sizeof *c * (size_t)cap);
        if (!c) return rg_bad("out of memory");
        rg->c = c;
        rg->cap = cap;
    }
    rg_case_t *c = &rg->c[rg->n++];
    memset(c, 0, sizeof *c);
    c->config = strdup(config);
    c->name = strdup(name);
    if (rg->golden_dir) {
        c->golden = rg_strdupf("%s/%s.json", rg->golden_dir, name);
    } else { /* dir/x.json -> dir/x.golden.json */
        size_t cl = strlen(config) - (rg_ends_with(config, ".json") ? 5 : 0);
        c->golden = malloc(cl + sizeof RG_GOLDEN_SUFFIX);
        if (c->golden) snprintf(c->golden, cl + sizeof RG_GOLDEN_SUFFIX, "%.*s%s", (int)cl, config, RG_GOLDEN_SUFFIX);
    }
    c->skip = rg_skip_reason(config);
    c->exit_code = -1;
    c->cycles = -1;
    if (!c->config || !c->name || !c->golden) return rg_bad("out of memory");
    /* The tensors the config outputs have goldens of their own. A config that cannot be read has
     * none here; its run says what is wrong with it. */
    cJSON *cfg = rg_read_json(config);
    const cJSON *outs = cJSON_GetObjectItemCaseSensitive(cfg, "outputs");
    int n = cJSON_IsObject(outs) ? cJSON_GetArraySize(outs) : 0;
    c->tensors = calloc((size_t)n + 1, sizeof *c->tensors);
    c->tensor_missing = calloc((size_t)n + 1, sizeof *c->tensor_missing);
    for (const cJSON *o = n ? outs->child : NULL; o && c->tensors && c->tensor_missing; o = o->next)
        if (!strchr(o->string, '/') && !strchr(o->string, '=')) c->tensors[c->ntensors++] = strdup(o->string);
    cJSON_Delete(cfg);
    return 0;
}

/* A tensor's golden: beside the config (dir/NAME.json -> dir/NAME.TENSOR.npy) or, with --golden,
 * GOLDEN/NAME.TENSOR.npy; fresh: TMP/NAME.TENSOR.npy, where the run writes it. */
static char *rg_tensor_file(const rg_t *rg, const rg_case_t *c, int i, bool fresh) {
    char stem[32];
    const char *base = rg->golden_dir, *name = c->name;
    if (fresh) { /* the temporary files are flat, as rg_spawn's */
        snprintf(stem, sizeof stem, "%d", (int)(c - rg->c));
        base = rg->tmpdir, name = stem;
    }
    size_t cl = strlen(c->config) - (rg_ends_with(c->config, ".json") ? 5 : 0);
    int n = base ? snprintf(NULL, 0, "%s/%s.%s.npy", base, name, c->tensors[i])
                 : snprintf(NULL, 0, "%.*s.%s.npy", (int)cl, c->config, c->tensors[i]);
    char *s = malloc((size_t)n + 1);
    if (s && base)
        snprintf(s, (size_t)n + 1, "%s/%s.%s.npy", base, name, c->tensors[i]);
    else if (s)
        snprintf(s, (size_t)n + 1, "%.*s.%s.npy", (int)cl, c->config, c->tensors[i]);
    return s;
}

static int rg_cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

typedef struct {
    char **rel; /* paths below the directory searched */
    int n;
    bool oom;
} rg_found_t;

/* Every *.json below root/rel (rel "" at the top), goldens (*.golden.json) and hidden entries
 * aside. Symbolic links to files count; links to directories are not followed (no cycles). */
static int rg_walk(const char *root, const char *rel, rg_found_t *found) {
    char *dir = *rel ? rg_strdupf("%s/%s", root, rel) : strdup(root);
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        int rc = rg_bad("%s: cannot read directory: %s", dir ? dir : root, strerror(errno));
        free(dir);
        return rc;
    }
    int rc = 0;
    struct dirent *e;
    while (!rc && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *sub = *rel ? rg_strdupf("%s/%s", rel, e->d_name) : strdup(e->d_name);
        char *path = rg_strdupf("%s/%s", dir, e->d_name);
        struct stat st, lst;
        if (!sub || !path) {
            found->oom = true;
        } else if (lstat(path, &lst) == 0 && S_ISDIR(lst.st_mode)) {
            rc = rg_walk(root, sub, found);
        } else if (rg_ends_with(e->d_name, ".json") && !rg_ends_with(e->d_name, RG_GOLDEN_SUFFIX) &&
                   stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            char **t = realloc(found->rel, sizeof *t * (size_t)(found->n + 1));
            if (t) {
                found->rel = t;
                found->rel[found->n++] = sub;
                sub = NULL;
            } else {
                found->oom = true;
            }
        }
        free(sub);
        free(path);
    }
    closedir(d);
    free(dir);
    return rc;
}

/* Every run config in dir and below, sorted by path so the order never depends on the file
 * system; each named by its path below dir. */
static int rg_add_dir(rg_t *rg, const char *dir) {
    rg_found_t found = {0};
    int rc = rg_walk(dir, "", &found);
    if (!rc && found.oom) rc = rg_bad("out of memory");
    if (!rc && found.n) qsort(found.rel, (size_t)found.n, sizeof *found.rel, rg_cmp_str);
    if (!rc && found.n == 0) rc = rg_bad("%s: no run configs (*.json) in this directory or below", dir);
    for (int i = 0; i < found.n; i++) {
        if (!rc) {
            char *config = rg_strdupf("%s/%s", dir, found.rel[i]);
            rc = config ? rg_add(rg, config, found.rel[i]) : rg_bad("out of memory");
            free(config);
        }
        free(found.rel[i]);
    }
    free(found.rel);
    return rc;
}

/* A list file: one config path per line, relative to the list's directory; blank lines and
 * `#` comments are skipped. Read whole, as a regular file of at most LDR_MAX_CONFIG bytes (a list
 * on /dev/zero would otherwise be read forever, as lines of NULs). */
static int rg_add_list(rg_t *rg, const char *list) {
    char err[512];
    size_t size;
    char *text = ldr_read_file_max(list, LDR_MAX_CONFIG, "a regress list", &size, err, sizeof err);
    if (!text) return rg_bad("%s", err);
    int lineno = 0, rc = 0, added = 0;
    for (char *line = text, *next; !rc && line < text + size; line = next) {
        char *nl = memchr(line, '\n', (size_t)(text + size - line));
        next = nl ? nl + 1 : text + size;
        if (nl) *nl = 0;
        lineno++;
        if (strlen(line) != (size_t)((nl ? nl : text + size) - line)) {
            fprintf(stderr, "ttemu regress: %s:%d: a NUL byte in the line (not a list of paths)\n", list, lineno);
            rc = EXIT_BAD_INPUT;
            break;
        }
        char *s = line, *hash = strchr(line, '#');
        if (hash) *hash = 0;
        while (*s == ' ' || *s == '\t')
            s++;
        size_t len = strlen(s);
        while (len && (s[len - 1] == '\r' || s[len - 1] == ' ' || s[len - 1] == '\t'))
            s[--len] = 0;
        if (!len) continue;
        char path[4200];
        int w = rg_beside(path, sizeof path, list, s);
        struct stat st;
        if (w < 0 || (size_t)w >= sizeof path || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
            fprintf(stderr, "ttemu regress: %s:%d: no such run config '%.200s'\n", list, lineno, path);
            rc = EXIT_BAD_INPUT;
            break;
        }
        rc = rg_add(rg, path, NULL);
        added++;
    }
    free(text);
    if (!rc && !added) rc = rg_bad("%s: the list names no run config", list);
    return rc;
}

static int rg_add_arg(rg_t *rg, const char *arg) {
    struct stat st;
    if (stat(arg, &st) != 0) return rg_bad("%s: %s", arg, strerror(errno));
    if (S_ISDIR(st.st_mode)) return rg_add_dir(rg, arg);
    if (rg_ends_with(arg, ".json")) return rg_add(rg, arg, NULL);
    return rg_add_list(rg, arg);
}

/* ---- running --------------------------------------------------------------------------------- */

static double rg_ms_since(const struct timespec *t0) {
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

static int rg_spawn(rg_t *rg, rg_case_t *c) {
    /* --reports keeps DIR/NAME.json (NAME may have directories); the temporary ones are flat. */
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%d", (int)(c - rg->c));
    c->report =
        rg_strdupf("%s/%s.json", rg->reports_dir ? rg->reports_dir : rg->tmpdir, rg->reports_dir ? c->name : tmp);
    c->log = rg_strdupf("%s/%s.log", rg->tmpdir, tmp);
    if (!c->report || !c->log || (rg->reports_dir && !rg_mkdirs(c->report))) return -1;
    unlink(c->report); /* a stale report must not pass for this run's */
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, c->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    /* Tensor goldens: compared exactly (--expect), or written afresh when updating (--output). */
    char **argv = calloc(8 + 2 * (size_t)c->ntensors, sizeof *argv);
    char **owned = calloc((size_t)c->ntensors + 1, sizeof *owned);
    int argc = 0;
    if (!argv || !owned) {
        free(argv);
        free(owned);
        posix_spawn_file_actions_destroy(&fa);
        return -1;
    }
    argv[argc++] = rg->exe;
    argv[argc++] = "run";
    argv[argc++] = "--config";
    argv[argc++] = c->config;
    argv[argc++] = "--report";
    argv[argc++] = c->report;
    argv[argc++] = "--quiet";
    for (int i = 0; i < c->ntensors; i++) {
        char *file = rg_tensor_file(rg, c, i, rg->update);
        if (!file) continue;
        if (rg->update) unlink(file);
        c->tensor_missing[i] = !rg->update && access(file, F_OK) != 0;
        if (!c->tensor_missing[i]) owned[i] = rg_strdupf("%s=%s", c->tensors[i], file);
        free(file);
        if (!owned[i]) continue;
        argv[argc++] = rg->update ? "--output" : "--expect";
        argv[argc++] = owned[i];
    }
    argv[argc] = NULL;
    /* The child starts with no signal blocked (rg_run_all blocks SIGCHLD, SIGINT and SIGTERM
     * here) and their default actions, so a forwarded SIGINT ends it even under nohup. */
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t none, deflt;
    sigemptyset(&none);
    sigemptyset(&deflt);
    sigaddset(&deflt, SIGINT);
    sigaddset(&deflt, SIGTERM);
    sigaddset(&deflt, SIGCHLD);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &deflt);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    clock_gettime(CLOCK_MONOTONIC, &c->t0);
    int e = posix_spawn(&c->pid, rg->exe, &fa, &at, argv, environ);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    for (int i = 0; i < c->ntensors; i++)
        free(owned[i]);
    free(owned);
    free(argv);
    if (e) {
        fprintf(stderr, "ttemu regress: cannot start %s: %s\n", rg->exe, strerror(e));
        return -1;
    }
    return 0;
}

static void rg_on_sigchld(int sig) { (void)sig; } /* only to be sure SIGCHLD is queued */

/* Reap every child that has ended. */
static void rg_reap(rg_t *rg, int *running) {
    int st;
    pid_t p;
    while ((p = waitpid(-1, &st, WNOHANG)) > 0) {
        for (int i = 0; i < rg->n; i++) {
            rg_case_t *c = &rg->c[i];
            if (c->pid != p) continue;
            c->wall_ms = rg_ms_since(&c->t0);
            c->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
            if (WIFSIGNALED(st) && rg->signo && c->stop == RG_RAN) c->stop = RG_KILLED_SIGNAL;
            c->pid = 0;
            (*running)--;
        }
    }
}

/* Run every case, at most rg->jobs at once. SIGCHLD, SIGINT and SIGTERM are blocked meanwhile
 * and taken with sigtimedwait, so none can slip in between a check and a wait: SIGINT or SIGTERM
 * is forwarded to every running child (a second one sends SIGKILL), no case starts after it, and
 * every child is reaped before this returns; a case past its --timeout is killed. A SIGINT that
 * this process ignores (nohup, a background job) stays ignored. */
static int rg_run_all(rg_t *rg) {
    sigset_t set, old;
    struct sigaction sa = {.sa_handler = rg_on_sigchld}, old_chld, cur_int;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCHLD, &sa, &old_chld);
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGTERM);
    if (sigaction(SIGINT, NULL, &cur_int) == 0 && cur_int.sa_handler != SIG_IGN) sigaddset(&set, SIGINT);
    sigprocmask(SIG_BLOCK, &set, &old);
    int next = 0, running = 0, forwarded = 0;
    while (next < rg->n || running) {
        while (!rg->signo && running < rg->jobs && next < rg->n) {
            if (rg->c[next].skip) {
                next++;
                continue;
            }
            if (rg_spawn(rg, &rg->c[next]) != 0) {
                rg->c[next].pid = 0;
                rg->c[next].status = -1;
            } else {
                running++;
            }
            next++;
        }
        if (rg->signo)
            for (; next < rg->n; next++)
                rg->c[next].stop = RG_NEVER_STARTED;
        if (!running) continue;
        /* Sleep until a child ends, a signal comes or the nearest deadline passes. */
        struct timespec ts = {0}, *tsp = NULL;
        if (rg->timeout_s) {
            double wait_ms = -1;
            for (int i = 0; i < rg->n; i++) {
                const rg_case_t *c = &rg->c[i];
                if (!c->pid || c->stop == RG_KILLED_TIMEOUT) continue;
                double left = (double)rg->timeout_s * 1e3 - rg_ms_since(&c->t0);
                if (wait_ms < 0 || left < wait_ms) wait_ms = left > 0 ? left : 0;
            }
            if (wait_ms >= 0) {
                ts.tv_sec = (time_t)(wait_ms / 1e3);
                ts.tv_nsec = (long)((wait_ms - (double)ts.tv_sec * 1e3) * 1e6) + 1000000; /* past it */
                if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
                tsp = &ts;
            }
        }
        int sig = tsp ? sigtimedwait(&set, NULL, tsp) : sigwaitinfo(&set, NULL);
        if (sig == SIGINT || sig == SIGTERM) {
            if (!rg->signo) rg->signo = sig;
            int fwd = forwarded++ ? SIGKILL : sig;
            for (int i = 0; i < rg->n; i++)
                if (rg->c[i].pid) kill(rg->c[i].pid, fwd);
        }
        for (int i = 0; rg->timeout_s && i < rg->n; i++) {
            rg_case_t *c = &rg->c[i];
            if (c->pid && c->stop == RG_RAN && rg_ms_since(&c->t0) >= (double)rg->timeout_s * 1e3) {
                c->stop = RG_KILLED_TIMEOUT;
                kill(c->pid, SIGKILL);
            }
        }
        rg_reap(rg, &running);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    sigaction(SIGCHLD, &old_chld, NULL);
    return 0;
}

/* ---- judging --------------------------------------------------------------------------------- */

/* The first line of the child's output, for a run that left no report. */
static void rg_first_log_line(const rg_case_t *c, char *buf, size_t n) {
    char *text = c->log ? rg_read_file(c->log, NULL) : NULL;
    snprintf(buf, n, "%s", text && *text ? text : "(no output)");
    free(text);
    char *nl = strchr(buf, '\n');
    if (nl) *nl = 0;
}

static bool rg_write_golden(const char *path, const cJSON *g) {
    char *s = cJSON_Print(g);
    FILE *f = s ? fopen(path, "w") : NULL;
    bool ok = f && fputs(s, f) >= 0 && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0) ok = false;
    free(s);
    return ok;
}

/* Updating: each tensor the run wrote replaces its golden when it differs. The number written, or
 * -1 when one could not be (reasons to out). */
static int rg_update_tensors(rg_t *rg, rg_case_t *c, FILE *out) {
    int written = 0;
    for (int i = 0; i < c->ntensors; i++) {
        char *fresh = rg_tensor_file(rg, c, i, true), *gold = rg_tensor_file(rg, c, i, false);
        size_t nf = 0, ng = 0;
        char *f = fresh ? rg_read_file(fresh, &nf) : NULL, *g = gold ? rg_read_file(gold, &ng) : NULL;
        if (!f) {
            fprintf(out, "the run wrote no tensor %s (%s)\n", c->tensors[i], fresh ? fresh : "?");
            written = -1;
        } else if (!g || nf != ng || memcmp(f, g, nf) != 0) {
            FILE *w = fopen(gold, "wb");
            bool ok = w && fwrite(f, 1, nf, w) == nf;
            if (w && fclose(w) != 0) ok = false;
            if (ok) {
                fprintf(out, "wrote %s\n", gold);
                if (written >= 0) written++;
            } else {
                fprintf(out, "cannot write %s: %s\n", gold, strerror(errno));
                written = -1;
            }
        }
        if (fresh) unlink(fresh);
        free(f);
        free(g);
        free(fresh);
        free(gold);
    }
    return written;
}

/* Comparing: a tensor golden that is missing, or one the run's tensor differs from (the run
 * compared them: the report's tensors.NAME.compare), is a difference. */
static int rg_tensor_diffs(const rg_t *rg, const rg_case_t *c, const cJSON *report, FILE *out) {
    int n = 0;
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(report, "tensors");
    for (int i = 0; i < c->ntensors; i++) {
        char *gold = rg_tensor_file(rg, c, i, false);
        if (c->tensor_missing[i]) {
            fprintf(out, "no golden %s (run `ttemu regress --update` to create it)\n", gold ? gold : "?");
            n++;
            free(gold);
            continue;
        }
        free(gold);
        const cJSON *cmp =
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ts, c->tensors[i]), "compare");
        const cJSON *mis = cJSON_GetObjectItemCaseSensitive(cmp, "mismatches");
        if (cJSON_IsNumber(mis) && mis->valuedouble == 0) continue;
        fprintf(out, "tensors.%s: ", c->tensors[i]);
        if (!cJSON_IsNumber(mis)) {
            fputs("not compared (the run did not read it)\n", out);
        } else {
            const cJSON *fm = cJSON_GetObjectItemCaseSensitive(cmp, "first_mismatch");
            fprintf(out, "%.0f of %.0f elements differ from the golden; first at ", mis->valuedouble,
                    cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(cmp, "elements")));
            rg_print_value(out, cJSON_GetObjectItemCaseSensitive(fm, "index"));
            fputs(": golden ", out);
            rg_print_value(out, cJSON_GetObjectItemCaseSensitive(fm, "want"));
            fputs(", got ", out);
            rg_print_value(out, cJSON_GetObjectItemCaseSensitive(fm, "got"));
            fputc('\n', out);
        }
        n++;
    }
    return n;
}

static void rg_judge(rg_t *rg, rg_case_t *c) {
    char *buf = NULL;
    size_t blen = 0;
    c->result = RG_FAIL;
    if (c->skip) {
        c->result = RG_SKIP;
        c->detail = strdup(c->skip);
        return;
    }
    FILE *out = open_memstream(&buf, &blen);
    if (!out) return;
    if (c->stop != RG_RAN) { /* no report to judge: say why */
        c->result = c->stop == RG_KILLED_TIMEOUT ? RG_TIMEOUT : c->stop == RG_KILLED_SIGNAL ? RG_STOPPED : RG_NOT_RUN;
        if (c->stop == RG_KILLED_TIMEOUT)
            fprintf(out, "ran longer than --timeout %llu s: killed\n", (unsigned long long)rg->timeout_s);
        else
            fprintf(out, "%s: the regression was interrupted by %s\n",
                    c->stop == RG_KILLED_SIGNAL ? "stopped before it finished" : "never started",
                    rg->signo == SIGINT ? "SIGINT" : "SIGTERM");
        fclose(out);
        c->detail = buf;
        return;
    }
    cJSON *report = c->status >= 0 ? rg_read_json(c->report) : NULL;
    cJSON *got = NULL, *golden = NULL;
    const char *gpath = c->golden;
    if (!report) {
        char line[512];
        rg_first_log_line(c, line, sizeof line);
        if (c->status < 0)
            fprintf(out, "could not start ttemu run\n");
        else
            fprintf(out, "ttemu run --config %s left no report (exit %d): %s\n", c->config, c->status, line);
        goto done;
    }
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(report, "exit");
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(ex, "code");
    const cJSON *reason = cJSON_GetObjectItemCaseSensitive(ex, "reason");
    const cJSON *cyc = cJSON_GetObjectItemCaseSensitive(report, "cycles");
    if (cJSON_IsNumber(code)) c->exit_code = code->valueint;
    if (cJSON_IsString(reason)) snprintf(c->reason_buf, sizeof c->reason_buf, "%s", reason->valuestring);
    c->exit_reason = c->reason_buf;
    if (cJSON_IsNumber(cyc)) c->cycles = cyc->valuedouble;
    got = regress_golden_of(report);
    if (rg->update) {
        golden = rg_read_json(gpath);
        if (golden && cJSON_Compare(golden, got, true)) {
            c->result = RG_PASS;
        } else if (rg_mkdirs(gpath) && rg_write_golden(gpath, got)) {
            c->result = RG_UPDATED;
            fprintf(out, "wrote %s\n", gpath);
        } else {
            fprintf(out, "cannot write %s: %s\n", gpath, strerror(errno));
            goto done;
        }
        int t = rg_update_tensors(rg, c, out);
        if (t < 0) c->result = RG_FAIL;
        if (t > 0) c->result = RG_UPDATED;
        goto done;
    }
    if (access(gpath, F_OK) != 0) {
        fprintf(out, "no golden %s (run `ttemu regress --update` to create it)\n", gpath);
        goto done;
    }
    golden = rg_read_json(gpath);
    if (!cJSON_IsObject(golden)) {
        fprintf(out, "%s: not a JSON object (unreadable or invalid JSON)\n", gpath);
        goto done;
    }
    c->ndiff = regress_diff(golden, got, out);
    c->ndiff += rg_tensor_diffs(rg, c, report, out);
    if (!c->ndiff) c->result = RG_PASS;
done:
    fclose(out);
    c->detail = buf;
    cJSON_Delete(report);
    cJSON_Delete(got);
    cJSON_Delete(golden);
}

/* ---- output ---------------------------------------------------------------------------------- */

static const char *rg_result_name(rg_result_t r) {
    static const char *const names[] = {
        [RG_PASS] = "pass",       [RG_FAIL] = "FAIL",       [RG_UPDATED] = "updated", [RG_SKIP] = "skip",
        [RG_TIMEOUT] = "TIMEOUT", [RG_STOPPED] = "STOPPED", [RG_NOT_RUN] = "NOT RUN"};
    return names[r];
}

static bool rg_failed(rg_result_t r) { return r != RG_PASS && r != RG_UPDATED && r != RG_SKIP; }

static void rg_print_table(const rg_t *rg, FILE *f) {
    int w = 4;
    for (int i = 0; i < rg->n; i++)
        if ((int)strlen(rg->c[i].name) > w) w = (int)strlen(rg->c[i].name);
    fprintf(f, "%-*s  %-7s  %-14s  %10s  %8s\n", w, "case", "result", "exit", "cycles", "wall ms");
    for (int i = 0; i < rg->n; i++) {
        const rg_case_t *c = &rg->c[i];
        char ex[32] = "-", cy[24] = "-";
        if (c->exit_code >= 0) snprintf(ex, sizeof ex, "%d %s", c->exit_code, c->exit_reason);
        if (c->cycles >= 0) snprintf(cy, sizeof cy, "%.0f", c->cycles);
        fprintf(f, "%-*s  %-7s  %-14s  %10s  %8.0f\n", w, c->name, rg_result_name(c->result), ex, cy, c->wall_ms);
        if (((rg_failed(c->result) && c->result != RG_NOT_RUN) || c->result == RG_SKIP) && c->detail) {
            int lines = 0;
            for (const char *p = c->detail; *p;) {
                const char *nl = strchr(p, '\n');
                int len = nl ? (int)(nl - p) : (int)strlen(p);
                if (++lines > RG_MAX_DIFF_LINES) {
                    fprintf(f, "    ... %d more differences\n", c->ndiff - RG_MAX_DIFF_LINES);
                    break;
                }
                fprintf(f, "    %.*s\n", len, p);
                p += len + (nl != NULL);
            }
        }
    }
}

/* JUnit XML: the cases as app/junit.h describes them, written by the JUnit plugin. A failing
 * case's message is the first line of its diff (with the count), its text the whole diff, and
 * its run's output (up to 8 KiB) goes to <system-err>. */
static bool rg_write_junit(const rg_t *rg, const char *path, double total_ms) {
    char err[512];
    void *fn = plugin_symbol(JUNIT_PLUGIN, JUNIT_WRITE_SYMBOL, err, sizeof err);
    if (!fn) {
        fprintf(stderr, "ttemu regress: --junit: %s\n", err);
        return false;
    }
    junit_write_fn write = (junit_write_fn)(uintptr_t)fn;
    junit_case_t *jc = calloc((size_t)rg->n + 1, sizeof *jc);
    char **msgs = calloc((size_t)rg->n + 1, sizeof *msgs), **logs = calloc((size_t)rg->n + 1, sizeof *logs);
    bool ok = jc && msgs && logs;
    for (int i = 0; ok && i < rg->n; i++) {
        const rg_case_t *c = &rg->c[i];
        jc[i] = (junit_case_t){
            .name = c->name, .classname = "ttemu.regress", .file = c->config, .seconds = c->wall_ms / 1e3};
        if (c->result == RG_SKIP) jc[i].skipped_message = c->skip;
        if (!rg_failed(c->result)) continue;
        const char *d = c->detail ? c->detail : "";
        const char *nl = strchr(d, '\n');
        int first = nl ? (int)(nl - d) : (int)strlen(d);
        msgs[i] = malloc(256);
        if (!msgs[i]) {
            ok = false;
            break;
        }
        if (c->ndiff)
            snprintf(msgs[i], 256, "%d key%s differ%s from the golden: %.*s", c->ndiff, c->ndiff == 1 ? "" : "s",
                     c->ndiff == 1 ? "s" : "", first, d);
        else
            snprintf(msgs[i], 256, "%.*s", first, d);
        logs[i] = c->log ? rg_read_file(c->log, NULL) : NULL;
        if (logs[i] && strlen(logs[i]) > 8192) strcpy(logs[i] + 8180, "\n...\n");
        jc[i].failure_message = msgs[i];
        static const char *const types[] = {
            [RG_FAIL] = "run_error", [RG_TIMEOUT] = "timeout", [RG_STOPPED] = "interrupted", [RG_NOT_RUN] = "not_run"};
        jc[i].failure_type = c->ndiff ? "golden_mismatch" : types[c->result];
        jc[i].failure_text = d;
        jc[i].system_err = logs[i];
    }
    /* XML takes only well-formed UTF-8 without C0 controls: file names are bytes, and a run's
     * output may hold anything. U+FFFD stands in (run/utf8.h). */
    char **clean = calloc(5 * (size_t)rg->n + 1, sizeof *clean);
    ok = ok && clean;
    for (int i = 0; ok && i < rg->n; i++) {
        const char **field[5] = {&jc[i].name, &jc[i].file, &jc[i].failure_message, &jc[i].failure_text,
                                 &jc[i].system_err};
        for (int k = 0; k < 5; k++) {
            if (!*field[k] || utf8_valid(*field[k], true)) continue;
            if (!(clean[5 * i + k] = utf8_clean(*field[k], true))) ok = false;
            *field[k] = clean[5 * i + k];
        }
    }
    char suite_name[64] = "ttemu regress";
    if (rg->shards) snprintf(suite_name, sizeof suite_name, "ttemu regress (shard %u/%u)", rg->shard, rg->shards);
    junit_suite_t suite = {.name = suite_name, .seconds = total_ms / 1e3, .ncases = rg->n, .cases = jc};
    ok = ok && write(&suite, path);
    for (int i = 0; clean && i < 5 * rg->n; i++)
        free(clean[i]);
    free(clean);
    for (int i = 0; msgs && logs && i < rg->n; i++) {
        free(msgs[i]);
        free(logs[i]);
    }
    free(msgs);
    free(logs);
    free(jc);
    return ok;
}

/* ---- the command ----------------------------------------------------------------------------- */

static const char usage[] =
    "usage: ttemu regress DIR|LIST|CONFIG.json... [--jobs N] [--update] [--junit FILE]\n"
    "                     [--golden DIR] [--reports DIR] [--timeout SECONDS]\n"
    "                     [--shard K/N [--shard-timing JUNIT.xml]]\n"
    "       ttemu regress --merge-junit OUT.xml IN.xml...\n"
    "Runs every run config (each *.json in a directory and below, or a list file of config paths)\n"
    "in parallel child processes and compares each report with its golden: NAME.golden.json beside\n"
    "the config, or GOLDEN/NAME.json with --golden. tt-metal configs whose firmware is absent are\n"
    "skipped. Exit: 0 all match, 1 any differs, fails to run or times out, 4 bad input;\n"
    "interrupted (SIGINT, SIGTERM): 128 + the signal. --shard K/N runs only shard K of N (by the\n"
    "case name's hash, or balanced by the times of a JUnit file); --merge-junit merges the shards'\n"
    "JUnit files. See docs/regression.md and docs/ci.md.\n";

static void rg_case_free(const rg_t *rg, rg_case_t *c) {
    if (c->log) unlink(c->log);
    if (c->report && !rg->reports_dir) unlink(c->report);
    free(c->config);
    free(c->name);
    free(c->golden);
    free(c->skip);
    free(c->report);
    free(c->log);
    free(c->detail);
    for (int t = 0; t < c->ntensors; t++)
        free(c->tensors[t]);
    free(c->tensors);
    free(c->tensor_missing);
}

static void rg_cleanup(rg_t *rg) {
    for (int i = 0; i < rg->n; i++)
        rg_case_free(rg, &rg->c[i]);
    free(rg->c);
    if (rg->tmpdir[0]) rmdir(rg->tmpdir);
}

/* ---- sharding -------------------------------------------------------------------------------- */

uint32_t regress_name_hash(const char *name) {
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h;
}

typedef struct {
    const char *name;
    double s;
    int i;
} rg_timed_t;

static int rg_cmp_timed(const void *a, const void *b) {
    const rg_timed_t *x = a, *y = b;
    if (x->s != y->s) return x->s > y->s ? -1 : 1;
    return strcmp(x->name, y->name);
}

void regress_partition(const char *const *names, const double *seconds, int n, unsigned shards, unsigned *out) {
    if (!seconds) {
        for (int i = 0; i < n; i++)
            out[i] = regress_name_hash(names[i]) % shards;
        return;
    }
    double sum = 0;
    int known = 0;
    for (int i = 0; i < n; i++)
        if (seconds[i] >= 0) sum += seconds[i], known++;
    double mean = known ? sum / known : 1.0;
    rg_timed_t *t = calloc((size_t)n + 1, sizeof *t);
    double *load = calloc(shards, sizeof *load);
    if (!t || !load) { /* out of memory: the stable partition is still a partition */
        free(t);
        free(load);
        regress_partition(names, NULL, n, shards, out);
        return;
    }
    for (int i = 0; i < n; i++)
        t[i] = (rg_timed_t){names[i], seconds[i] >= 0 ? seconds[i] : mean, i};
    qsort(t, (size_t)n, sizeof *t, rg_cmp_timed);
    for (int k = 0; k < n; k++) {
        unsigned best = 0;
        for (unsigned s = 1; s < shards; s++)
            if (load[s] < load[best]) best = s;
        load[best] += t[k].s;
        out[t[k].i] = best;
    }
    free(t);
    free(load);
}

/* Recorded times of the cases from --shard-timing (a JUnit file: a testcase's time by its name), -1
 * for a case it does not name. 0, or bad input. */
static int rg_shard_times(const rg_t *rg, double *seconds) {
    char err[600];
    size_t len;
    char *text = ldr_read_file_max(rg->shard_timing, LDR_MAX_FILE, "a JUnit file", &len, err, sizeof err);
    if (!text) return rg_bad("--shard-timing: %s", err);
    void *fn = plugin_symbol(JUNIT_PLUGIN, JUNIT_TIMES_SYMBOL, err, sizeof err);
    junit_time_t *t = NULL;
    junit_input_t in = {rg->shard_timing, text, len};
    int nt = fn ? ((junit_times_fn)(uintptr_t)fn)(&in, &t, err, sizeof err) : -1;
    free(text);
    if (nt < 0) return rg_bad("--shard-timing: %s", err);
    for (int i = 0; i < rg->n; i++) {
        seconds[i] = -1;
        for (int k = 0; k < nt; k++)
            if (!strcmp(t[k].name, rg->c[i].name)) seconds[i] = t[k].seconds;
    }
    for (int k = 0; k < nt; k++)
        free(t[k].name);
    free(t);
    return 0;
}

/* Keep only the cases of shard rg->shard (in their order); the others are freed. */
static int rg_keep_shard(rg_t *rg) {
    const char **names = calloc((size_t)rg->n + 1, sizeof *names);
    double *seconds = rg->shard_timing ? calloc((size_t)rg->n + 1, sizeof *seconds) : NULL;
    unsigned *of = calloc((size_t)rg->n + 1, sizeof *of);
    int rc = 0;
    if (!names || !of || (rg->shard_timing && !seconds)) rc = rg_bad("out of memory");
    if (!rc && rg->shard_timing) rc = rg_shard_times(rg, seconds);
    if (!rc) {
        for (int i = 0; i < rg->n; i++)
            names[i] = rg->c[i].name;
        regress_partition(names, seconds, rg->n, rg->shards, of);
        int k = 0;
        for (int i = 0; i < rg->n; i++) {
            if (of[i] == rg->shard - 1)
                rg->c[k++] = rg->c[i];
            else
                rg_case_free(rg, &rg->c[i]);
        }
        rg->n = k;
    }
    free(names);
    free(seconds);
    free(of);
    return rc;
}

/* ---- merging shards' JUnit ------------------------------------------------------------------- */

/* `ttemu regress --merge-junit OUT IN...`: one JUnit file of every shard's cases, with totals. */
static int rg_merge_junit(const char *out, const char *const *in, int n) {
    if (!n) return rg_bad("--merge-junit %s: give the JUnit files to merge", out);
    junit_input_t *files = calloc((size_t)n, sizeof *files);
    char err[700];
    int rc = files ? 0 : rg_bad("out of memory");
    for (int i = 0; !rc && i < n; i++) {
        files[i].path = in[i];
        files[i].data = ldr_read_file_max(in[i], LDR_MAX_FILE, "a JUnit file", &files[i].len, err, sizeof err);
        if (!files[i].data) rc = rg_bad("--merge-junit: %s", err);
    }
    void *fn = rc ? NULL : plugin_symbol(JUNIT_PLUGIN, JUNIT_MERGE_SYMBOL, err, sizeof err);
    if (!rc && !fn) rc = rg_bad("--merge-junit: %s", err);
    junit_totals_t tot;
    if (!rc && !((junit_merge_fn)(uintptr_t)fn)(files, n, "ttemu regress", out, &tot, err, sizeof err))
        rc = rg_bad("--merge-junit: %s", err);
    if (!rc) {
        int failed = tot.failures + tot.errors;
        printf("merged %d file%s into %s: %d case%s\n", n, n == 1 ? "" : "s", out, tot.tests,
               tot.tests == 1 ? "" : "s");
        printf("%d passed, %d failed", tot.tests - failed - tot.skipped, failed);
        if (tot.skipped) printf(", %d skipped", tot.skipped);
        printf("\n");
        rc = failed ? 1 : 0;
    }
    for (int i = 0; files && i < n; i++)
        free((char *)files[i].data);
    free(files);
    return rc;
}

int regress_main(int argc, char **argv) {
    rg_t rg = {0};
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    rg.jobs = cpus > 0 ? (int)cpus : 1;
    int rc = 0;
    const char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
    const char *merge_out = NULL; /* --merge-junit OUT: the inputs are JUnit files */
    int ninputs = 0, nopts = 0;
    if (!inputs) return EXIT_BAD_INPUT;
    for (int i = 0; i < argc && !rc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--jobs") || !strcmp(a, "-j")) {
            uint64_t n = 0;
            if (!run_parse_uint(v, 1024, &n) || n < 1)
                rc = rg_bad("--jobs needs a number 1..1024, got '%s'", v ? v : "");
            rg.jobs = (int)n;
            i++;
        } else if (!strcmp(a, "--timeout")) {
            if (!run_parse_uint(v, 7 * 24 * 3600, &rg.timeout_s) || rg.timeout_s < 1)
                rc = rg_bad("--timeout needs a number of seconds 1..604800, got '%s'", v ? v : "");
            i++;
        } else if (!strcmp(a, "--shard")) {
            uint64_t k = 0, n = 0;
            const char *slash = v ? strchr(v, '/') : NULL;
            char kb[24] = "";
            if (slash && (size_t)(slash - v) < sizeof kb) snprintf(kb, sizeof kb, "%.*s", (int)(slash - v), v);
            if (!slash || !run_parse_uint(kb, 4096, &k) || !run_parse_uint(slash + 1, 4096, &n) || k < 1 || k > n)
                rc = rg_bad("--shard needs K/N with 1 <= K <= N <= 4096, got '%s'", v ? v : "");
            rg.shard = (unsigned)k;
            rg.shards = (unsigned)n;
            i++;
        } else if (!strcmp(a, "--shard-timing") || !strcmp(a, "--merge-junit")) {
            if (!v) {
                rc = rg_bad("%s needs a file", a);
                break;
            }
            *(a[2] == 's' ? &rg.shard_timing : &merge_out) = v;
            i++;
        } else if (!strcmp(a, "--update")) {
            rg.update = true;
        } else if (!strcmp(a, "--junit") || !strcmp(a, "--golden") || !strcmp(a, "--reports")) {
            if (!v) {
                rc = rg_bad("%s needs a %s", a, a[2] == 'j' ? "file" : "directory");
                break;
            }
            *(a[2] == 'j' ? &rg.junit : a[2] == 'g' ? &rg.golden_dir : &rg.reports_dir) = v;
            i++;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            free(inputs);
            return 0;
        } else if (a[0] == '-') {
            rc = rg_bad("unknown option '%s'", a);
        } else {
            inputs[ninputs++] = a;
            continue;
        }
        if (strcmp(a, "--merge-junit")) nopts++;
    }
    if (!rc && merge_out) {
        /* Merging is a command of its own: it runs nothing. */
        rc = nopts ? rg_bad("--merge-junit OUT.xml IN.xml... takes no other option")
                   : rg_merge_junit(merge_out, inputs, ninputs);
        free(inputs);
        return rc;
    }
    if (!rc && rg.shard_timing && !rg.shards) rc = rg_bad("--shard-timing goes with --shard K/N");
    if (!rc && !ninputs) rc = rg_bad("give a directory of run configs, a list file or configs");
    for (int i = 0; i < ninputs && !rc; i++)
        rc = rg_add_arg(&rg, inputs[i]);
    free(inputs);
    rg.total = rg.n;
    if (!rc && rg.shards) rc = rg_keep_shard(&rg);
    struct stat st;
    if (!rc && rg.golden_dir && stat(rg.golden_dir, &st) != 0) {
        if (!rg.update)
            rc = rg_bad("golden directory %s: %s (create it with --update)", rg.golden_dir, strerror(errno));
        else if (mkdir(rg.golden_dir, 0755) != 0)
            rc = rg_bad("cannot create golden directory %s: %s", rg.golden_dir, strerror(errno));
    } else if (!rc && rg.golden_dir && !S_ISDIR(st.st_mode)) {
        rc = rg_bad("--golden %s: not a directory", rg.golden_dir);
    }
    if (!rc && rg.reports_dir && mkdir(rg.reports_dir, 0755) != 0 && errno != EEXIST)
        rc = rg_bad("cannot create reports directory %s: %s", rg.reports_dir, strerror(errno));
    if (!rc) {
        /* The children run this very binary (not whatever `ttemu` is on PATH). */
        ssize_t n = readlink("/proc/self/exe", rg.exe, sizeof rg.exe - 1);
        if (n <= 0 || (size_t)n >= sizeof rg.exe - 1)
            rc = rg_bad("cannot find this program (/proc/self/exe)");
        else
            rg.exe[n] = 0;
    }
    if (!rc) {
        const char *tmp = getenv("TMPDIR");
        snprintf(rg.tmpdir, sizeof rg.tmpdir, "%.200s/ttemu-regress-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(rg.tmpdir)) {
            rg.tmpdir[0] = 0;
            rc = rg_bad("cannot create a temporary directory: %s", strerror(errno));
        }
    }
    if (rc) {
        rg_cleanup(&rg);
        return rc;
    }

    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (rg_run_all(&rg) != 0) {
        fprintf(stderr, "ttemu regress: waiting for the runs failed: %s\n", strerror(errno));
        rg_cleanup(&rg);
        return EXIT_BAD_INPUT;
    }
    double total_ms = rg_ms_since(&t0);
    if (rg.shards)
        printf("shard %u/%u: %d of %d case%s (%s)\n", rg.shard, rg.shards, rg.n, rg.total, rg.total == 1 ? "" : "s",
               rg.shard_timing ? "balanced by the times in --shard-timing" : "by the hash of the case name");
    int passed = 0, failed = 0, written = 0, skipped = 0, unfinished = 0;
    for (int i = 0; i < rg.n; i++) {
        rg_judge(&rg, &rg.c[i]);
        if (rg_failed(rg.c[i].result))
            failed++;
        else if (rg.c[i].result == RG_SKIP)
            skipped++;
        else
            passed++;
        written += rg.c[i].result == RG_UPDATED;
        unfinished += rg.c[i].result == RG_STOPPED || rg.c[i].result == RG_NOT_RUN;
    }
    rg_print_table(&rg, stdout);
    /* The closing line: "N passed, N failed", then what was skipped and written when anything was. */
    printf("%d passed, %d failed", passed, failed);
    if (skipped) printf(", %d skipped", skipped);
    if (rg.update)
        printf(" (%d golden%s written %s%s)", written, written == 1 ? "" : "s",
               rg.golden_dir ? "to " : "beside the configs", rg.golden_dir ? rg.golden_dir : "");
    printf("\n");
    fflush(stdout);
    rc = failed ? 1 : 0;
    if (rg.junit && !rg_write_junit(&rg, rg.junit, total_ms)) {
        fprintf(stderr, "ttemu regress: cannot write JUnit XML to %s\n", rg.junit);
        rc = EXIT_BAD_INPUT;
    }
    rg_cleanup(&rg);
    if (rg.signo) {
        /* docs/regression.md: interrupted, the command ends by the same signal once its children
         * are reaped and its files removed (exit status 128 + signal: 130, 143). */
        fprintf(stderr, "ttemu regress: interrupted by %s: %d case%s did not finish\n",
                rg.signo == SIGINT ? "SIGINT" : "SIGTERM", unfinished, unfinished == 1 ? "" : "s");
        fflush(stderr);
        signal(rg.signo, SIG_DFL);
        raise(rg.signo);
        return 128 + rg.signo; /* if the signal is blocked by our caller */
    }
    return rc;
}
