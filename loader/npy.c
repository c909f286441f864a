/* loader/npy.c — the .npy reader and header writer (loader/npy.h). Pure functions over byte
 * buffers: every read is bounds-checked against the buffer, every size product against overflow,
 * so any input gives either a parsed array or a reason (the fuzz target feeds it random bytes). */
#include <stdio.h>
#include <string.h>

#include "loader/npy.h"
#include "loader/fail.h"

static const struct {
    const char *descr, *name;
    unsigned size;
} types[NPY_NTYPES] = {
    [NPY_F2] = {"<f2", "float16", 2}, [NPY_F4] = {"<f4", "float32", 4}, [NPY_F8] = {"<f8", "float64", 8},
    [NPY_I1] = {"|i1", "int8", 1},    [NPY_U1] = {"|u1", "uint8", 1},   [NPY_I2] = {"<i2", "int16", 2},
    [NPY_U2] = {"<u2", "uint16", 2},  [NPY_I4] = {"<i4", "int32", 4},   [NPY_U4] = {"<u4", "uint32", 4},
    [NPY_I8] = {"<i8", "int64", 8},   [NPY_U8] = {"<u8", "uint64", 8},
};

const char *npy_descr(npy_type_t t) { return types[t].descr; }
const char *npy_type_name(npy_type_t t) { return types[t].name; }
unsigned npy_itemsize(npy_type_t t) { return types[t].size; }

/* ---- the header: a Python dict literal ---------------------------------------------------------
 * NumPy reads it with ast.literal_eval, so any literal spelling is valid; NumPy itself writes
 * {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }. Accepted here: either quote, any
 * whitespace, an optional trailing comma, the three keys once each and nothing else. */

typedef struct {
    const char *p, *end;
    char *err;
    size_t errlen;
} hdr_t;

static void skip_ws(hdr_t *h) {
    while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r'))
        h->p++;
}

static bool take(hdr_t *h, char c) {
    skip_ws(h);
    if (h->p < h->end && *h->p == c) {
        h->p++;
        return true;
    }
    return false;
}

/* A quoted string without escapes into buf. */
static int string_lit(hdr_t *h, char *buf, size_t n, const char *what) {
    skip_ws(h);
    if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
        return loader_fail(h->err, h->errlen, "malformed header: expected a quoted %s", what);
    char q = *h->p++;
    size_t i = 0;
    while (h->p < h->end && *h->p != q) {
        if (*h->p == '\\' || (unsigned char)*h->p < 0x20 || i + 1 >= n)
            return loader_fail(h->err, h->errlen, "malformed header: unexpected %s string", what);
        buf[i++] = *h->p++;
    }
    if (h->p >= h->end) return loader_fail(h->err, h->errlen, "malformed header: unterminated %s string", what);
    h->p++;
    buf[i] = 0;
    return 0;
}

static int parse_descr(hdr_t *h, npy_t *out) {
    char d[32];
    skip_ws(h);
    if (h->p < h->end && (*h->p == '[' || *h->p == '('))
        return loader_fail(h->err, h->errlen,
                           "a structured dtype (record array) is not supported: save a plain numeric array");
    if (string_lit(h, d, sizeof d, "descr")) return -1;
    if (d[0] == '>')
        return loader_fail(h->err, h->errlen, "dtype '%s' is big-endian: save a little-endian array (a.astype('<%s'))",
                           d, d + 1);
    if (d[0] != '<' && d[0] != '|')
        return loader_fail(h->err, h->errlen, "dtype '%s': expected a little-endian type such as '<f4' or '|u1'", d);
    for (int t = 0; t < NPY_NTYPES; t++)
        if (!strcmp(d + 1, types[t].descr + 1) && (d[0] == '<' || types[t].size == 1)) {
            out->type = (npy_type_t)t;
            out->itemsize = types[t].size;
            return 0;
        }
    return loader_fail(
        h->err, h->errlen,
        "dtype '%s' is not supported (float32, float16, and 8- to 64-bit signed or unsigned integers are)", d);
}

static int parse_bool(hdr_t *h, bool *v) {
    skip_ws(h);
    size_t left = (size_t)(h->end - h->p);
    if (left >= 4 && !memcmp(h->p, "True", 4)) {
        *v = true;
        h->p += 4;
        return 0;
    }
    if (left >= 5 && !memcmp(h->p, "False", 5)) {
        *v = false;
        h->p += 5;
        return 0;
    }
    return loader_fail(h->err, h->errlen, "malformed header: 'fortran_order' must be True or False");
}

/* (d0, d1, ...): a tuple of non-negative integers; () is a scalar. */
static int parse_shape(hdr_t *h, npy_t *out) {
    if (!take(h, '('))
        return loader_fail(h->err, h->errlen, "malformed header: 'shape' must be a tuple such as (32, 64)");
    out->ndim = 0;
    for (;;) {
        if (take(h, ')')) return 0;
        skip_ws(h);
        if (h->p >= h->end || *h->p < '0' || *h->p > '9')
            return loader_fail(h->err, h->errlen, "malformed header: 'shape' must hold non-negative integers");
        uint64_t v = 0;
        while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
            if (v > (UINT64_MAX - 9) / 10) return loader_fail(h->err, h->errlen, "shape dimension too large");
            v = v * 10 + (uint64_t)(*h->p++ - '0');
        }
        if (h->p < h->end && *h->p == 'L') h->p++; /* Python 2 long */
        if (out->ndim == NPY_MAX_DIMS)
            return loader_fail(h->err, h->errlen, "more than %d dimensions are not supported", NPY_MAX_DIMS);
        out->shape[out->ndim++] = v;
        if (take(h, ')')) return 0;
        if (!take(h, ',')) return loader_fail(h->err, h->errlen, "malformed header: expected ',' or ')' in 'shape'");
    }
}

static int parse_dict(hdr_t *h, npy_t *out) {
    bool seen[3] = {false, false, false};
    static const char *const keys[3] = {"descr", "fortran_order", "shape"};
    if (!take(h, '{')) return loader_fail(h->err, h->errlen, "malformed header: expected a dict '{...}'");
    for (;;) {
        if (take(h, '}')) break;
        char key[32];
        if (string_lit(h, key, sizeof key, "key")) return -1;
        int k = -1;
        for (int i = 0; i < 3; i++)
            if (!strcmp(key, keys[i])) k = i;
        if (k < 0)
            return loader_fail(h->err, h->errlen,
                               "malformed header: unknown key '%s' (expected 'descr', 'fortran_order', 'shape')", key);
        if (seen[k]) return loader_fail(h->err, h->errlen, "malformed header: key '%s' given twice", key);
        seen[k] = true;
        if (!take(h, ':')) return loader_fail(h->err, h->errlen, "malformed header: expected ':' after '%s'", key);
        int rc = k == 0 ? parse_descr(h, out) : k == 1 ? parse_bool(h, &out->fortran_order) : parse_shape(h, out);
        if (rc) return -1;
        if (take(h, '}')) break;
        if (!take(h, ','))
            return loader_fail(h->err, h->errlen, "malformed header: expected ',' or '}' after '%s'", key);
    }
    for (int i = 0; i < 3; i++)
        if (!seen[i]) return loader_fail(h->err, h->errlen, "malformed header: key '%s' missing", keys[i]);
    skip_ws(h);
    if (h->p != h->end) return loader_fail(h->err, h->errlen, "malformed header: text after the dict");
    return 0;
}

int npy_parse(const uint8_t *buf, size_t len, npy_t *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (len < 10 || memcmp(buf, "\x93NUMPY", 6) != 0)
        return loader_fail(err, errlen, "not a .npy file (no \\x93NUMPY magic at the start)");
    unsigned major = buf[6], minor = buf[7];
    size_t hlen, off;
    if (major == 1) {
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
        off = 10;
    } else if (major == 2 || major == 3) { /* 3.0 differs from 2.0 only in allowing UTF-8 headers */
        if (len < 12) return loader_fail(err, errlen, "truncated .npy preamble");
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        off = 12;
    } else {
        return loader_fail(err, errlen, ".npy format version %u.%u is not supported (1.0, 2.0 and 3.0 are)", major,
                           minor);
    }
    if (minor != 0)
        return loader_fail(err, errlen, ".npy format version %u.%u is not supported (1.0, 2.0 and 3.0 are)", major,
                           minor);
    if (hlen > len - off) return loader_fail(err, errlen, "truncated .npy header (%zu bytes announced)", hlen);
    hdr_t h = {(const char *)buf + off, (const char *)buf + off + hlen, err, errlen};
    if (parse_dict(&h, out)) return -1;
    off += hlen;
    uint64_t count = 1;
    for (int i = 0; i < out->ndim; i++) {
        if (out->shape[i] && count > UINT64_MAX / out->shape[i])
            return loader_fail(err, errlen, "shape too large (its element count overflows)");
        count *= out->shape[i];
    }
    if (count > (uint64_t)(SIZE_MAX / 8))
        return loader_fail(err, errlen, "shape too large (its element count overflows)");
    out->count = count;
    size_t need = (size_t)count * out->itemsize, have = len - off;
    if (have < need)
        return loader_fail(err, errlen, "truncated data: the shape needs %zu bytes, the file has %zu after its header",
                           need, have);
    if (have > need)
        return loader_fail(err, errlen,
                           "%zu bytes after the array's data (the shape needs %zu): not a single .npy array",
                           have - need, need);
    out->data = buf + off;
    return 0;
}

size_t npy_header(npy_type_t t, const uint64_t *shape, int ndim, uint8_t *hdr) {
    char dict[NPY_HEADER_MAX];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", types[t].descr);
    for (int i = 0; i < ndim && n > 0 && (size_t)n < sizeof dict; i++)
        n += snprintf(dict + n, sizeof dict - (size_t)n, "%s%llu", i ? ", " : "", (unsigned long long)shape[i]);
    if (n > 0 && (size_t)n < sizeof dict)
        n += snprintf(dict + n, sizeof dict - (size_t)n, "%s), }", ndim == 1 ? "," : "");
    if (n <= 0 || (size_t)n + 11 > NPY_HEADER_MAX - 63) return 0; /* cannot happen for NPY_MAX_DIMS dimensions */
    /* The magic, version 1.0, the header length, the dict padded with spaces and a newline so that
     * the data starts at a multiple of 64 bytes (numpy/lib/format.py's alignment). */
    size_t total = ((size_t)10 + (size_t)n + 1 + 63) / 64 * 64;
    size_t hlen = total - 10;
    memcpy(hdr, "\x93NUMPY\x01\x00", 8);
    hdr[8] = (uint8_t)(hlen & 0xFF);
    hdr[9] = (uint8_t)(hlen >> 8);
    memcpy(hdr + 10, dict, (size_t)n);
    memset(hdr + 10 + n, ' ', hlen - (size_t)n - 1);
    hdr[total - 1] = '\n';
    return total;
}
