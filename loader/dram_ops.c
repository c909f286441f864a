/* loader/dram_ops.c — DRAM host operations of run configs (loader/dram_ops.h, docs/run-config.md
 * "DRAM"): parsing "dram_write" / "dram_read" (loader/config.c hands them over), reading their
 * files, and putting bytes into DRAM or taking them out in a channel's or tt-metal's interleaved
 * layout. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/dram_ops.h"
#include "loader/file.h"

#define MAX_WRITE_BYTES (256u << 20) /* one operation's data, words or ramp */

/* ---- layout ------------------------------------------------------------------------------------ */

/* The piece of [o, o + n) of a buffer that lies in one place: its channel and address there, and
 * how many bytes (up to the end of the page when interleaved). */
static size_t place(int channel, uint32_t page_size, uint64_t addr, uint64_t o, size_t n, unsigned *ch, uint64_t *at) {
    if (channel >= 0) {
        *ch = (unsigned)channel;
        *at = addr + o;
        return n;
    }
    uint64_t page = o / page_size, in = o % page_size;
    *ch = (unsigned)(page % DRAM_CHANNELS);
    *at = addr + page / DRAM_CHANNELS * page_size + in;
    return page_size - in < n ? (size_t)(page_size - in) : n;
}

bool ldr_dram_fits(int channel, uint32_t page_size, uint64_t addr, uint64_t len) {
    if (channel >= 0 || !len) return dram_in_range(addr, len);
    uint64_t pages = (len + page_size - 1) / page_size, rows = (pages + DRAM_CHANNELS - 1) / DRAM_CHANNELS;
    return rows <= DRAM_CHANNEL_SIZE / page_size && dram_in_range(addr, rows * page_size);
}

/* Bytes [from, from + len) of the buffer at addr, from src. */
static bool put_part(tile_t *t, int channel, uint32_t page_size, uint64_t addr, uint64_t from, const uint8_t *src,
                     size_t len) {
    for (uint64_t o = 0; o < len;) {
        unsigned ch;
        uint64_t at;
        size_t k = place(channel, page_size, addr, from + o, len - o, &ch, &at);
        if (!dram_write(t->dram, ch, at, src + o, k)) return false;
        o += k;
    }
    return true;
}

bool ldr_dram_put(tile_t *t, int channel, uint32_t page_size, uint64_t addr, const void *src, size_t len) {
    return put_part(t, channel, page_size, addr, 0, src, len);
}

/* A ramp's words, made a piece at a time rather than held whole (the pieces' first touches of host
 * memory cost more than making the words). */
static bool put_ramp(tile_t *t, const cfg_dram_t *d) {
    uint32_t piece[4096], w = d->ramp_start; /* start + i * step, modulo 2^32 */
    for (size_t o = 0; o < d->len; o += sizeof piece) {
        size_t k = d->len - o < sizeof piece ? d->len - o : sizeof piece;
        for (size_t i = 0; i < k / 4; i++, w += d->ramp_step)
            piece[i] = w; /* a host word, as the tile's host writes take them */
        if (!put_part(t, d->channel, d->page_size, d->addr, o, (const uint8_t *)piece, k)) return false;
    }
    return true;
}

void ldr_dram_get(const tile_t *t, int channel, uint32_t page_size, uint64_t addr, void *dst, size_t len) {
    uint8_t *d = dst;
    for (uint64_t o = 0; o < len;) {
        unsigned ch;
        uint64_t at;
        size_t k = place(channel, page_size, addr, o, len - o, &ch, &at);
        dram_peek(t->dram, ch, at, d + o, k);
        o += k;
    }
}

/* ---- parsing ----------------------------------------------------------------------------------- */

static const char *key_of(char *buf, size_t n, const char *parent, const char *key) {
    snprintf(buf, n, "%s.%s", parent, key);
    return buf;
}

/* Where: exactly one of "bank", "noc_xy" (a port's coordinates) or "interleaved" (page size). */
static int parse_where(const cfg_t *c, char *err, size_t errlen, const cJSON *v, const char *key, cfg_dram_t *d) {
    const cJSON *bank = cJSON_GetObjectItemCaseSensitive(v, "bank");
    const cJSON *xy = cJSON_GetObjectItemCaseSensitive(v, "noc_xy");
    const cJSON *il = cJSON_GetObjectItemCaseSensitive(v, "interleaved");
    char k[200];
    uint64_t u;
    if ((bank != NULL) + (xy != NULL) + (il != NULL) != 1)
        return cfg_fail(c, err, errlen, key, "expected exactly one of \"bank\", \"noc_xy\" or \"interleaved\"");
    if (bank) {
        if (cfg_get_u64(c, err, errlen, bank, key_of(k, sizeof k, key, "bank"), DRAM_CHANNELS - 1, &u)) return -1;
        d->channel = (int)u;
    } else if (xy) {
        uint64_t x, y;
        key_of(k, sizeof k, key, "noc_xy");
        if (!cJSON_IsArray(xy) || cJSON_GetArraySize(xy) != 2)
            return cfg_fail(c, err, errlen, k, "expected [x, y], the translated coordinates of a DRAM port");
        if (cfg_get_u64(c, err, errlen, cJSON_GetArrayItem(xy, 0), k, 63, &x) ||
            cfg_get_u64(c, err, errlen, cJSON_GetArrayItem(xy, 1), k, 63, &y))
            return -1;
        d->channel = dram_channel_at((unsigned)x, (unsigned)y, NULL);
        if (d->channel < 0)
            return cfg_fail(c, err, errlen, k,
                            "(%u, %u) is no DRAM port: bank b's three ports are x = %u + b / 4, y = %u + 3 * (b %% 4) "
                            "+ 0..2, for b < %d",
                            (unsigned)x, (unsigned)y, DRAM_X0, DRAM_Y0, DRAM_CHANNELS);
    } else {
        if (cfg_get_u64(c, err, errlen, il, key_of(k, sizeof k, key, "interleaved"), 1u << 30, &u)) return -1;
        if (!u) return cfg_fail(c, err, errlen, k, "expected a page size in bytes (> 0)");
        d->channel = LDR_DRAM_INTERLEAVED;
        d->page_size = (uint32_t)u;
    }
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(v, "addr");
    if (!a) return cfg_fail(c, err, errlen, key_of(k, sizeof k, key, "addr"), "missing (expected a DRAM address)");
    return cfg_get_u64(c, err, errlen, a, key_of(k, sizeof k, key, "addr"), DRAM_CHANNEL_SIZE - 1, &d->addr);
}

/* A write's bytes: exactly one of "words" (an array of 32-bit values), "ramp" ({"words", "start",
 * "step"}: word i = start + i * step) or "file" (raw bytes, read when the run starts). */
static int parse_data(const cfg_t *c, char *err, size_t errlen, const cJSON *v, const char *key, cfg_dram_t *d) {
    static const char *const ramp_keys[] = {"words", "start", "step", NULL};
    const cJSON *words = cJSON_GetObjectItemCaseSensitive(v, "words");
    const cJSON *ramp = cJSON_GetObjectItemCaseSensitive(v, "ramp");
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(v, "file");
    char k[200], k2[240];
    if ((words != NULL) + (ramp != NULL) + (file != NULL) != 1)
        return cfg_fail(c, err, errlen, key, "expected exactly one of \"words\", \"ramp\" or \"file\"");
    if (file) return cfg_get_path(c, err, errlen, file, key_of(k, sizeof k, key, "file"), &d->file);
    uint64_t n = 0, start = 0, step = 1;
    if (words) {
        key_of(k, sizeof k, key, "words");
        if (!cJSON_IsArray(words) || cJSON_GetArraySize(words) < 1)
            return cfg_fail(c, err, errlen, k, "expected a non-empty array of 32-bit words");
        n = (uint64_t)cJSON_GetArraySize(words);
    } else {
        key_of(k, sizeof k, key, "ramp");
        if (cfg_check_keys(c, err, errlen, ramp, k, ramp_keys)) return -1;
        const cJSON *rn = cJSON_GetObjectItemCaseSensitive(ramp, "words");
        if (!rn) return cfg_fail(c, err, errlen, key_of(k2, sizeof k2, k, "words"), "missing (expected a word count)");
        if (cfg_get_u64(c, err, errlen, rn, key_of(k2, sizeof k2, k, "words"), MAX_WRITE_BYTES / 4, &n)) return -1;
        const cJSON *rs = cJSON_GetObjectItemCaseSensitive(ramp, "start"),
                    *rd = cJSON_GetObjectItemCaseSensitive(ramp, "step");
        if ((rs && cfg_get_u64(c, err, errlen, rs, key_of(k2, sizeof k2, k, "start"), 0xFFFFFFFFu, &start)) ||
            (rd && cfg_get_u64(c, err, errlen, rd, key_of(k2, sizeof k2, k, "step"), 0xFFFFFFFFu, &step)))
            return -1;
        if (!n) return cfg_fail(c, err, errlen, key_of(k2, sizeof k2, k, "words"), "expected at least one word");
    }
    if (n > MAX_WRITE_BYTES / 4) return cfg_fail(c, err, errlen, k, "at most %u words", MAX_WRITE_BYTES / 4);
    d->len = (size_t)n * 4;
    if (ramp) {
        d->ramp = true;
        d->ramp_start = (uint32_t)start;
        d->ramp_step = (uint32_t)step;
        return 0;
    }
    d->data = malloc(d->len);
    if (!d->data) return cfg_fail(c, err, errlen, k, "out of memory");
    /* The array walked once (cJSON's arrays are linked lists: item i by index is i steps). */
    uint64_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, words) {
        uint64_t w;
        if (cfg_get_u64(c, err, errlen, item, k, 0xFFFFFFFFu, &w)) return -1;
        uint32_t le = (uint32_t)w; /* a host word, as the tile's host writes take them */
        memcpy(d->data + 4 * i++, &le, 4);
    }
    return 0;
}

int cfg_dram_parse(const cfg_t *c, char *err, size_t errlen, const cJSON *v, const char *key, bool write,
                   cfg_host_op_t *op) {
    static const char *const wkeys[] = {"bank", "noc_xy", "interleaved", "addr", "words", "ramp", "file", NULL};
    static const char *const rkeys[] = {"bank", "noc_xy", "interleaved", "addr", "words", "name", NULL};
    if (cfg_check_keys(c, err, errlen, v, key, write ? wkeys : rkeys)) return -1;
    cfg_dram_t *d = calloc(1, sizeof *d);
    if (!d) return cfg_fail(c, err, errlen, key, "out of memory");
    op->dram = d;
    op->is_write = write;
    if (parse_where(c, err, errlen, v, key, d)) return -1;
    if (write) {
        if (parse_data(c, err, errlen, v, key, d)) return -1;
        if (!d->file && !ldr_dram_fits(d->channel, d->page_size, d->addr, d->len))
            return cfg_fail(c, err, errlen, key, "%zu bytes at 0x%llx run past a channel's 4 GiB", d->len,
                            (unsigned long long)d->addr);
        return 0;
    }
    char k[200];
    uint64_t words = 1;
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(v, "words");
    if (w && cfg_get_u64(c, err, errlen, w, key_of(k, sizeof k, key, "words"), 4096, &words)) return -1;
    if (!words) return cfg_fail(c, err, errlen, k, "expected 1..4096 words");
    op->words = (uint32_t)words;
    if (!ldr_dram_fits(d->channel, d->page_size, d->addr, 4 * words))
        return cfg_fail(c, err, errlen, key, "%llu words at 0x%llx run past a channel's 4 GiB",
                        (unsigned long long)words, (unsigned long long)d->addr);
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(v, "name");
    if (nm && (!cJSON_IsString(nm) || strlen(nm->valuestring) >= sizeof op->name))
        return cfg_fail(c, err, errlen, key_of(k, sizeof k, key, "name"), "expected a string of at most %zu characters",
                        sizeof op->name - 1);
    if (nm)
        snprintf(op->name, sizeof op->name, "%s", nm->valuestring);
    else if (d->channel >= 0)
        snprintf(op->name, sizeof op->name, "%s@dram%d:0x%llx", cfg_at_name(op->at), d->channel,
                 (unsigned long long)d->addr);
    else
        snprintf(op->name, sizeof op->name, "%s@dram:0x%llx", cfg_at_name(op->at), (unsigned long long)d->addr);
    return 0;
}

void cfg_dram_free(cfg_dram_t *d) {
    if (!d) return;
    free(d->data);
    free(d->file);
    free(d);
}

/* ---- running --------------------------------------------------------------------------------- */

int ldr_dram_prepare(const cfg_t *c, char *err, size_t errlen) {
    for (int i = 0; i < c->nhost; i++) {
        cfg_dram_t *d = c->host[i].dram;
        if (!d || !d->file || d->data) continue;
        size_t len;
        char *bytes = ldr_read_file(d->file, &len, err, errlen);
        if (!bytes) return -1;
        if (!len || !ldr_dram_fits(d->channel, d->page_size, d->addr, len)) {
            char k[64];
            snprintf(k, sizeof k, "host[%d].dram_write.file", i);
            free(bytes);
            return cfg_fail(c, err, errlen, k, "%s: %zu bytes %s", d->file, len,
                            len ? "run past a channel's 4 GiB" : "(an empty file)");
        }
        d->data = (uint8_t *)bytes;
        d->len = len;
    }
    return 0;
}

void ldr_dram_op(tile_t *t, const cfg_host_op_t *op, uint32_t *val) {
    const cfg_dram_t *d = op->dram;
    if (op->is_write) {
        if (!(d->ramp ? put_ramp(t, d) : ldr_dram_put(t, d->channel, d->page_size, d->addr, d->data, d->len)))
            fprintf(stderr, "ttemu: out of memory for DRAM pages\n");
        return;
    }
    ldr_dram_get(t, d->channel, d->page_size, d->addr, val, 4 * (size_t)op->words);
}
