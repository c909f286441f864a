/* loader/tensor.c — tensor formats, layouts, the host's conversions and the comparison
 * (loader/tensor.h, docs/tensors.md). Values move as bit patterns; every conversion between number
 * formats is a call into the formats library (coproc/formats.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "coproc/formats.h"
#include "loader/tensor.h"
#include "loader/fail.h"

static const struct {
    const char *name;
    unsigned size;
    bool is_float, is_signed;
    npy_type_t out; /* an output .npy's type */
} formats[TNS_NFORMATS] = {
    [TNS_BF16] = {"bfloat16", 2, true, true, NPY_F4},   [TNS_FP16] = {"float16", 2, true, true, NPY_F4},
    [TNS_FP32] = {"float32", 4, true, true, NPY_F4},    [TNS_INT32] = {"int32", 4, false, true, NPY_I4},
    [TNS_UINT32] = {"uint32", 4, false, false, NPY_U4}, [TNS_INT16] = {"int16", 2, false, true, NPY_I2},
    [TNS_UINT16] = {"uint16", 2, false, false, NPY_U2}, [TNS_INT8] = {"int8", 1, false, true, NPY_I1},
    [TNS_UINT8] = {"uint8", 1, false, false, NPY_U1},   [TNS_BFP8] = {"bfloat8_b", 2, true, true, NPY_F4},
};

int tns_format_by_name(const char *name) {
    for (int f = 0; f < TNS_NFORMATS; f++)
        if (!strcmp(name, formats[f].name)) return f;
    return -1;
}
const char *tns_format_name(tns_format_t f) { return formats[f].name; }
unsigned tns_format_size(tns_format_t f) { return formats[f].size; }
bool tns_format_is_float(tns_format_t f) { return formats[f].is_float; }
npy_type_t tns_output_type(tns_format_t f) { return formats[f].out; }
const char *tns_format_names(void) {
    return "bfloat16, float16, float32, int32, uint32, int16, uint16, int8, uint8, bfloat8_b";
}

/* ---- shapes and layouts ------------------------------------------------------------------------ */

int tns_desc_init(tns_desc_t *d, tns_format_t f, bool tiles, const uint32_t *shape, int ndim, uint64_t max_bytes,
                  char *err, size_t errlen) {
    memset(d, 0, sizeof *d);
    d->format = f;
    d->tiles = tiles;
    if (ndim < 1 || ndim > TNS_MAX_DIMS) return loader_fail(err, errlen, "expected 1 to %d dimensions", TNS_MAX_DIMS);
    d->ndim = ndim;
    uint64_t count = 1;
    for (int i = 0; i < ndim; i++) {
        if (!shape[i]) return loader_fail(err, errlen, "dimension %d is 0 (every dimension must be at least 1)", i);
        d->shape[i] = shape[i];
        count *= shape[i];
        if (count * formats[f].size > max_bytes)
            return loader_fail(err, errlen,
                               "the tensor is larger than %llu bytes, the most its memory takes (L1: 1.5 MiB)",
                               (unsigned long long)max_bytes);
    }
    d->count = count;
    d->cols = shape[ndim - 1];
    d->rows = count / d->cols;
    d->bytes = d->elem_bytes = count * formats[f].size;
    if (f == TNS_BFP8) d->bytes = count + count / 16; /* a byte an element, an exponent per 16 */
    if (f == TNS_BFP8 && !tiles)
        return loader_fail(err, errlen, "bfloat8_b needs \"layout\": \"tiles\" (its exponents are per face row)");
    if (tiles) {
        char s[80];
        tns_shape_str(d, s, sizeof s);
        if (ndim < 2)
            return loader_fail(err, errlen, "shape %s: the tiles layout needs at least two dimensions (rows, columns)",
                               s);
        if (shape[ndim - 1] % TNS_TILE || shape[ndim - 2] % TNS_TILE)
            return loader_fail(err, errlen,
                               "shape %s: the tiles layout needs the last two dimensions to be multiples of 32 "
                               "(use \"layout\": \"rows\", or pad the tensor)",
                               s);
    }
    return 0;
}

void tns_shape_str(const tns_desc_t *d, char *buf, size_t n) {
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < d->ndim && k < n; i++) {
        int w = snprintf(buf + k, n - k, "%s%u", i ? ", " : "[", d->shape[i]);
        if (w < 0) return;
        k += (size_t)w;
    }
    if (k < n) snprintf(buf + k, n - k, "]");
}

/* The stored index of (row, col) in tiles, tiles_per_row tiles a row of them: the tile, its face,
 * the face's row and column (every division by a power of two). */
static inline uint64_t tiled_index(uint64_t tiles_per_row, uint64_t row, uint64_t col) {
    uint64_t tile = (row / TNS_TILE) * tiles_per_row + col / TNS_TILE;
    unsigned tr = (unsigned)(row % TNS_TILE), tc = (unsigned)(col % TNS_TILE);
    unsigned face = (tr / TNS_FACE) * 2 + tc / TNS_FACE;
    return tile * TNS_TILE * TNS_TILE + face * TNS_FACE * TNS_FACE + (tr % TNS_FACE) * TNS_FACE + tc % TNS_FACE;
}

uint64_t tns_stored_index(const tns_desc_t *d, uint64_t row, uint64_t col) {
    if (!d->tiles) return row * d->cols + col;
    return tiled_index(d->cols / TNS_TILE, row, col);
}

/* bfloat8_b's stored form of one face row (one block of 16): per tile, the exponent section (a
 * byte a face row, 64 bytes) then a byte an element. The host's elements are bf16 patterns,
 * rounded into blocks by the packer's rule (fmt_bfp_pack) and decoded exactly (fmt_bfp_unpack).
 * st is the block's first stored index. */
static size_t bfp8_tile(uint64_t st) { return (size_t)(st / (TNS_TILE * TNS_TILE)) * (TNS_TILE * TNS_TILE + 64); }
static unsigned bfp8_row(uint64_t st) { return (unsigned)(st % (TNS_TILE * TNS_TILE)) / TNS_FACE; }

static void bfp8_store(uint8_t *l1, uint64_t st, const uint8_t *rm) {
    uint8_t *tile = l1 + bfp8_tile(st);
    unsigned b = bfp8_row(st);
    uint16_t v[FMT_BFP_BLOCK];
    fmt_bfp_block_t blk;
    for (unsigned k = 0; k < FMT_BFP_BLOCK; k++)
        v[k] = (uint16_t)(rm[2 * k] | rm[2 * k + 1] << 8);
    fmt_bfp_pack(FMT_BFP8, v, &blk);
    tile[b] = blk.exp;
    memcpy(tile + 64 + FMT_BFP_BLOCK * b, blk.datum, FMT_BFP_BLOCK);
}

static void bfp8_load(const uint8_t *l1, uint64_t st, uint8_t *rm) {
    const uint8_t *tile = l1 + bfp8_tile(st);
    unsigned b = bfp8_row(st);
    for (unsigned k = 0; k < FMT_BFP_BLOCK; k++) {
        uint16_t x = fmt_bfp_unpack(FMT_BFP8, tile[64 + FMT_BFP_BLOCK * b + k], tile[b]);
        rm[2 * k] = (uint8_t)x, rm[2 * k + 1] = (uint8_t)(x >> 8);
    }
}

/* A row of the matrix crosses each tile of its tile row as two face rows of 16 elements (face 0
 * then 1, or 2 then 3: 256 elements apart), each contiguous in both layouts; a tile is 1024
 * elements further than the last. relayout passes size 2 and 4 as constants, so each face row is
 * then a fixed copy, not a call. */
static inline __attribute__((always_inline)) void relayout_rows(const tns_desc_t *d, const uint8_t *from, uint8_t *to,
                                                                bool to_stored, size_t size) {
    const uint64_t tiles = d->cols / TNS_TILE;
    const size_t run = (size_t)TNS_FACE * size, face = (size_t)TNS_FACE * TNS_FACE * size;
    const size_t tile = (size_t)TNS_TILE * TNS_TILE * size;
    for (uint64_t r = 0; r < d->rows; r++) {
        size_t rm = (size_t)(r * d->cols) * size, st = (size_t)tiled_index(tiles, r, 0) * size;
        for (uint64_t t = 0; t < tiles; t++, rm += 2 * run, st += tile)
            if (to_stored) {
                memcpy(to + st, from + rm, run);
                memcpy(to + st + face, from + rm + run, run);
            } else {
                memcpy(to + rm, from + st, run);
                memcpy(to + rm + run, from + st + face, run);
            }
    }
}

static void relayout(const tns_desc_t *d, const uint8_t *from, uint8_t *to, bool to_stored) {
    if (!d->tiles) {
        memcpy(to, from, d->bytes);
        return;
    }
    size_t size = formats[d->format].size;
    if (d->format == TNS_BFP8) {
        const uint64_t tiles = d->cols / TNS_TILE;
        for (uint64_t r = 0; r < d->rows; r++)
            for (uint64_t c = 0; c < d->cols; c += TNS_FACE) {
                size_t rm = (size_t)(r * d->cols + c) * size;
                uint64_t si = tiled_index(tiles, r, c); /* tns_stored_index's, the tiles a row hoisted */
                if (to_stored)
                    bfp8_store(to, si, from + rm);
                else
                    bfp8_load(from, si, to + rm);
            }
    } else if (size == 2) {
        relayout_rows(d, from, to, to_stored, 2);
    } else if (size == 4) {
        relayout_rows(d, from, to, to_stored, 4);
    } else {
        relayout_rows(d, from, to, to_stored, size);
    }
}

void tns_tilize(const tns_desc_t *d, const uint8_t *rowmajor, uint8_t *stored) { relayout(d, rowmajor, stored, true); }
void tns_untilize(const tns_desc_t *d, const uint8_t *stored, uint8_t *rowmajor) {
    relayout(d, stored, rowmajor, false);
}

void tns_unravel(const tns_desc_t *d, uint64_t i, uint64_t idx[TNS_MAX_DIMS]) {
    for (int k = d->ndim - 1; k >= 0; k--) {
        idx[k] = i % d->shape[k];
        i /= d->shape[k];
    }
}

void tns_index_str(const tns_desc_t *d, uint64_t i, char *buf, size_t n) {
    uint64_t idx[TNS_MAX_DIMS];
    tns_unravel(d, i, idx);
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; k < d->ndim && len < n; k++) {
        int w = snprintf(buf + len, n - len, "%s%llu", k ? ", " : "[", (unsigned long long)idx[k]);
        if (w < 0) return;
        len += (size_t)w;
    }
    if (len < n) snprintf(buf + len, n - len, "]");
}

/* ---- element access ------------------------------------------------------------------------- */

static inline uint64_t le(const uint8_t *p, unsigned size) {
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static inline void put_le(uint8_t *p, unsigned size, uint64_t v) {
    for (unsigned i = 0; i < size; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

uint32_t tns_bits(tns_format_t f, const uint8_t *elems, uint64_t i) {
    return (uint32_t)le(elems + i * formats[f].size, formats[f].size);
}

/* The sign bit and the exponent mask of a float format's pattern. */
static void float_masks(tns_format_t f, uint32_t *sign, uint32_t *exp) {
    *sign = f == TNS_FP32 ? 0x80000000u : 0x8000u;
    *exp = f == TNS_FP32 ? 0x7F800000u : (f == TNS_BF16 || f == TNS_BFP8) ? 0x7F80u : 0x7C00u;
}

bool tns_is_nan(tns_format_t f, uint32_t bits) {
    if (!formats[f].is_float) return false;
    uint32_t sign, exp;
    float_masks(f, &sign, &exp);
    return (bits & ~sign) > exp;
}

static bool is_finite(tns_format_t f, uint32_t bits) {
    if (!formats[f].is_float) return true;
    uint32_t sign, exp;
    float_masks(f, &sign, &exp);
    return (bits & exp) != exp;
}

/* A signed integer format's value: sign-extend from its width. */
static int64_t int_value(tns_format_t f, uint32_t bits) {
    unsigned w = 8 * formats[f].size;
    if (!formats[f].is_signed) return bits;
    uint64_t m = 1ull << (w - 1);
    return (int64_t)(((uint64_t)bits ^ m) - m);
}

double tns_value(tns_format_t f, uint32_t bits) {
    if (!formats[f].is_float) return (double)int_value(f, bits);
    uint32_t f32 = f == TNS_FP32                      ? bits
                   : (f == TNS_BF16 || f == TNS_BFP8) ? fmt_bf16_to_fp32((uint16_t)bits)
                                                      : fmt_fp16_to_fp32((uint16_t)bits);
    float v;
    memcpy(&v, &f32, 4); /* the host's float is IEEE binary32; widening to double is exact */
    return v;
}

/* ---- .npy arrays in and out ------------------------------------------------------------------ */

/* The C-order element k of a, as a position in its data (a Fortran-order array is stored
 * column-major: its first index varies fastest). */
static uint64_t npy_pos(const npy_t *a, uint64_t k) {
    if (!a->fortran_order || a->ndim < 2) return k;
    uint64_t pos = 0, stride = 1;
    uint64_t idx[NPY_MAX_DIMS];
    for (int i = a->ndim - 1; i >= 0; i--) {
        idx[i] = k % a->shape[i];
        k /= a->shape[i];
    }
    for (int i = 0; i < a->ndim; i++) {
        pos += idx[i] * stride;
        stride *= a->shape[i];
    }
    return pos;
}

static void npy_shape_str(const npy_t *a, char *buf, size_t n) {
    size_t k = (size_t)snprintf(buf, n, "(");
    for (int i = 0; i < a->ndim && k < n; i++) {
        int w = snprintf(buf + k, n - k, "%s%llu", i ? ", " : "", (unsigned long long)a->shape[i]);
        if (w < 0) return;
        k += (size_t)w;
    }
    if (k < n) snprintf(buf + k, n - k, "%s)", a->ndim == 1 ? "," : "");
}

/* Do the shapes agree once leading 1s are dropped? */
static bool same_shape(const tns_desc_t *d, const npy_t *a) {
    int i = 0, j = 0;
    while (i < d->ndim - 1 && d->shape[i] == 1)
        i++;
    while (j < a->ndim - 1 && a->shape[j] == 1)
        j++;
    if (d->ndim - i != a->ndim - j) return false;
    for (; i < d->ndim; i++, j++)
        if (d->shape[i] != a->shape[j]) return false;
    return true;
}

/* Are the array's bytes the tensor's row-major elements as they are (C order; raw bits, float32
 * into float32 or float16 into float16: the same little-endian bytes)? */
static bool elems_as_is(const tns_desc_t *d, const npy_t *a) {
    const tns_format_t f = d->format;
    const npy_type_t t = a->type;
    const bool c_order = !a->fortran_order || a->ndim < 2;
    return c_order && formats[f].is_float &&
           ((t == NPY_U2 && formats[f].size == 2) || ((t == NPY_U4 || t == NPY_F4) && f == TNS_FP32) ||
            (t == NPY_F2 && f == TNS_FP16));
}

const uint8_t *tns_npy_elems(const tns_desc_t *d, const npy_t *a) {
    return same_shape(d, a) && elems_as_is(d, a) ? a->data : NULL;
}

int tns_from_npy(const tns_desc_t *d, const npy_t *a, uint8_t *elems, char *err, size_t errlen) {
    const tns_format_t f = d->format;
    const unsigned size = formats[f].size;
    char ds[80], as[200];
    tns_shape_str(d, ds, sizeof ds);
    npy_shape_str(a, as, sizeof as);
    if (!same_shape(d, a))
        return loader_fail(err, errlen, "array shape %s does not match the tensor's shape %s", as, ds);
    const npy_type_t t = a->type;
    const bool t_float = t == NPY_F2 || t == NPY_F4 || t == NPY_F8;
    if (t == NPY_F8)
        return loader_fail(err, errlen, "a float64 array is not accepted: save it as float32 (a.astype(np.float32))");
    if (formats[f].is_float) {
        bool raw = (t == NPY_U2 && size == 2) || (t == NPY_U4 && f == TNS_FP32);
        if (!t_float && !raw)
            return loader_fail(err, errlen,
                               "the tensor's format %s needs float32 or float16 values (or raw bits as %s); the array "
                               "holds %s",
                               formats[f].name, size == 2 ? "uint16" : "uint32", npy_type_name(t));
        if (elems_as_is(d, a)) {
            memcpy(elems, a->data, d->count * size);
            return 0;
        }
        const bool c_order = !a->fortran_order || a->ndim < 2;
        if (c_order && t == NPY_F4 &&
            (f == TNS_BF16 || f == TNS_BFP8)) { /* the common case, without the loop's choices */
            for (uint64_t k = 0; k < d->count; k++)
                put_le(elems + 2 * k, 2, fmt_fp32_to_bf16((uint32_t)le(a->data + 4 * k, 4), FMT_RNE));
            return 0;
        }
        for (uint64_t k = 0; k < d->count; k++) {
            uint32_t v = (uint32_t)le(a->data + npy_pos(a, k) * a->itemsize, a->itemsize);
            if (!raw) {
                uint32_t f32 = t == NPY_F4 ? v : fmt_fp16_to_fp32((uint16_t)v); /* float16 is exact in fp32 */
                v = f == TNS_FP32                      ? f32
                    : (f == TNS_BF16 || f == TNS_BFP8) ? fmt_fp32_to_bf16(f32, FMT_RNE)
                    : t == NPY_F2                      ? v /* float16 into float16: as is */
                                                       : fmt_fp32_to_fp16(f32, FMT_RNE);
            }
            put_le(elems + k * size, size, v);
        }
        return 0;
    }
    if (t_float)
        return loader_fail(err, errlen, "the tensor's format %s needs integer values; the array holds %s",
                           formats[f].name, npy_type_name(t));
    /* Integers: every value must fit the tensor's type. */
    const int64_t lo = formats[f].is_signed ? -(int64_t)(1ull << (8 * size - 1)) : 0;
    const int64_t hi =
        formats[f].is_signed ? (int64_t)((1ull << (8 * size - 1)) - 1) : (int64_t)((1ull << 8 * size) - 1);
    const bool a_signed = t == NPY_I1 || t == NPY_I2 || t == NPY_I4 || t == NPY_I8;
    for (uint64_t k = 0; k < d->count; k++) {
        uint64_t raw = le(a->data + npy_pos(a, k) * a->itemsize, a->itemsize);
        int64_t v;
        bool fits;
        if (a_signed) {
            uint64_t m = 1ull << (8 * a->itemsize - 1);
            v = a->itemsize == 8 ? (int64_t)raw : (int64_t)((raw ^ m) - m);
            fits = v >= lo && v <= hi;
        } else {
            v = (int64_t)raw;
            fits = raw <= (uint64_t)hi;
        }
        if (!fits) {
            char idx[80];
            tns_index_str(d, k, idx, sizeof idx);
            if (a_signed)
                return loader_fail(err, errlen, "element %s = %lld does not fit %s", idx, (long long)v,
                                   formats[f].name);
            return loader_fail(err, errlen, "element %s = %llu does not fit %s", idx, (unsigned long long)raw,
                               formats[f].name);
        }
        put_le(elems + k * size, size, (uint64_t)v);
    }
    return 0;
}

void tns_to_output(const tns_desc_t *d, const uint8_t *elems, uint8_t *out) {
    const tns_format_t f = d->format;
    if (!formats[f].is_float || f == TNS_FP32) {
        memcpy(out, elems, d->bytes); /* the output type is the format's own */
        return;
    }
    /* 16-bit patterns (float16; bfloat16, each the top half of its float32), sizes as constants */
    for (uint64_t k = 0; k < d->count; k++) {
        uint16_t b = (uint16_t)le(elems + 2 * k, 2);
        put_le(out + 4 * k, 4, f == TNS_FP16 ? fmt_fp16_to_fp32(b) : fmt_bf16_to_fp32(b));
    }
}

/* ---- comparison ------------------------------------------------------------------------------ */

#define CMP_BLOCK 256 /* elements compared at once while they are equal */

/* A float pattern's place on its format's number line: sign-magnitude to a signed integer, so
 * adjacent values are one step apart, -0 and +0 are both 0 and ±Inf sit one step past the largest
 * finite values. */
static int64_t ordinal(tns_format_t f, uint32_t bits) {
    if (!formats[f].is_float) return int_value(f, bits);
    uint32_t sign, exp;
    float_masks(f, &sign, &exp);
    int64_t mag = bits & ~sign;
    return bits & sign ? -mag : mag;
}

void tns_compare(const tns_desc_t *d, const uint8_t *got, const uint8_t *want, double atol, double rtol, tns_cmp_t *c) {
    const tns_format_t f = d->format;
    const bool exact = atol == 0 && rtol == 0;
    memset(c, 0, sizeof *c);
    c->atol = atol;
    c->rtol = rtol;
    c->elements = d->count;
    const size_t size = formats[f].size;
    for (uint64_t i = 0; i < d->count; i++) {
        /* An element equal bit for bit adds nothing below (0 ulp apart, no error, a match): most
         * are, so whole blocks of them are passed over with one memcmp. */
        if (!(i % CMP_BLOCK) && d->count - i >= CMP_BLOCK &&
            !memcmp(got + i * size, want + i * size, CMP_BLOCK * size)) {
            i += CMP_BLOCK - 1;
            continue;
        }
        uint32_t g = tns_bits(f, got, i), w = tns_bits(f, want, i);
        if (g == w) continue;
        bool gn = tns_is_nan(f, g), wn = tns_is_nan(f, w);
        bool fin = is_finite(f, g) && is_finite(f, w);
        double gv = tns_value(f, g), wv = tns_value(f, w), diff = fabs(gv - wv);
        if (!gn && !wn) {
            int64_t od = ordinal(f, g) - ordinal(f, w);
            uint64_t ulp = od < 0 ? (uint64_t)-od : (uint64_t)od;
            if (ulp > c->max_ulp) c->max_ulp = ulp;
        }
        if (fin) {
            if (diff > c->max_abs_err) c->max_abs_err = diff;
            if (wv != 0 && diff / fabs(wv) > c->max_rel_err) c->max_rel_err = diff / fabs(wv);
        }
        bool match = (gn && wn) || (!exact && fin && diff <= atol + rtol * fabs(wv)); /* (g == w: above) */
        if (match) continue;
        if (!c->mismatches) {
            c->has_first = true;
            c->first_index = i;
            c->first_got = g;
            c->first_want = w;
        }
        c->mismatches++;
    }
}
