/* test/unit/test_tensor.c — named tensors' pure parts (loader/tensor.c, docs/tensors.md): shapes,
 * tt-metal's tile layout element by element, tilize/untilize for every format and both layouts,
 * the conversions of .npy arrays into a tensor's format, and each rule of the comparison. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "loader/tensor.h"

#define L1 0x180000u

static tns_desc_t desc(tns_format_t f, bool tiles, uint32_t r, uint32_t c) {
    tns_desc_t d;
    char err[256];
    uint32_t shape[2] = {r, c};
    if (tns_desc_init(&d, f, tiles, shape, 2, L1, err, sizeof err)) fail_msg("%s", err);
    return d;
}

static void test_shapes(void **state) {
    (void)state;
    tns_desc_t d;
    char err[256];
    uint32_t s4[4] = {2, 3, 64, 96};
    assert_int_equal(tns_desc_init(&d, TNS_BF16, true, s4, 4, L1, err, sizeof err), 0);
    assert_int_equal(d.rows, 2 * 3 * 64);
    assert_int_equal(d.cols, 96);
    assert_int_equal(d.count, 2 * 3 * 64 * 96);
    assert_int_equal(d.bytes, 2 * d.count);
    tns_shape_str(&d, err, sizeof err);
    assert_string_equal(err, "[2, 3, 64, 96]");
    uint32_t s[2] = {30, 64};
    assert_int_equal(tns_desc_init(&d, TNS_BF16, true, s, 2, L1, err, sizeof err), -1);
    assert_non_null(
        strstr(err, "shape [30, 64]: the tiles layout needs the last two dimensions to be multiples of 32"));
    assert_int_equal(tns_desc_init(&d, TNS_BF16, false, s, 2, L1, err, sizeof err), 0); /* rows: any shape */
    assert_int_equal(tns_desc_init(&d, TNS_BF16, true, s + 1, 1, L1, err, sizeof err), -1);
    assert_non_null(strstr(err, "at least two dimensions"));
    uint32_t z[2] = {32, 0};
    assert_int_equal(tns_desc_init(&d, TNS_UINT8, false, z, 2, L1, err, sizeof err), -1);
    assert_non_null(strstr(err, "dimension 1 is 0"));
    uint32_t big[2] = {1024, 1024}; /* 4 MiB of float32 */
    assert_int_equal(tns_desc_init(&d, TNS_FP32, false, big, 2, L1, err, sizeof err), -1);
    assert_non_null(strstr(err, "larger than"));
    uint32_t huge[4] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu}; /* no overflow on the way */
    assert_int_equal(tns_desc_init(&d, TNS_FP32, false, huge, 4, L1, err, sizeof err), -1);
    assert_int_equal(tns_desc_init(&d, TNS_FP32, false, s, 0, L1, err, sizeof err), -1);
}

/* tt-metal's tile layout, worked by hand: 32 x 32 tiles row-major, four 16 x 16 faces in each
 * (0 top left, 1 top right, 2 bottom left, 3 bottom right), each face row-major. */
static void test_tile_order(void **state) {
    (void)state;
    tns_desc_t d = desc(TNS_BF16, true, 64, 96); /* 2 x 3 tiles */
    static const struct {
        uint64_t r, c, at;
    } cases[] = {
        {0, 0, 0},
        {0, 1, 1},
        {0, 15, 15},
        {1, 0, 16},
        {15, 15, 255},
        {0, 16, 256},
        {0, 31, 271},
        {1, 16, 272},
        {16, 0, 512},
        {16, 16, 768},
        {31, 31, 1023},
        {0, 32, 1024},
        {0, 64, 2048},
        {32, 0, 3072},
        {33, 17, 3072 + 256 + 16 + 1},
        {63, 95, 6143},
        {47, 40, 4096 + 15 * 16 + 8},
        {48, 40, 4096 + 512 + 8},
        {48, 56, 4096 + 768 + 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (tns_stored_index(&d, cases[i].r, cases[i].c) != cases[i].at)
            fail_msg("(%llu, %llu): %llu, expected %llu", (unsigned long long)cases[i].r,
                     (unsigned long long)cases[i].c, (unsigned long long)tns_stored_index(&d, cases[i].r, cases[i].c),
                     (unsigned long long)cases[i].at);
    tns_desc_t rows = desc(TNS_BF16, false, 64, 96);
    assert_int_equal(tns_stored_index(&rows, 33, 17), 33 * 96 + 17);
    /* A permutation: every stored place is used once. */
    uint8_t *seen = calloc(d.count, 1);
    assert_non_null(seen);
    for (uint64_t r = 0; r < d.rows; r++)
        for (uint64_t c = 0; c < d.cols; c++)
            seen[tns_stored_index(&d, r, c)]++;
    for (uint64_t i = 0; i < d.count; i++)
        assert_int_equal(seen[i], 1);
    free(seen);
}

/* Tilize then untilize is the identity, for every format and both layouts; tilize puts element
 * (r, c) where tns_stored_index says: sampled on [2, 64, 32], every element of [96, 128] (three
 * tile rows of four tiles: a row's faces and tiles, found by steps rather than per element). */
static void test_tilize_roundtrip(void **state) {
    (void)state;
    for (int f = 0; f < TNS_NFORMATS; f++)
        for (int tiles = 0; tiles < 4; tiles++) {
            if (f == TNS_BFP8) continue; /* lossy: test_bfp8 */
            bool wide = tiles >= 2;
            uint32_t s[3] = {2, 64, 32}, w[2] = {96, 128};
            tns_desc_t d;
            char err[128];
            assert_int_equal(
                tns_desc_init(&d, (tns_format_t)f, tiles & 1, wide ? w : s, wide ? 2 : 3, L1, err, sizeof err), 0);
            uint8_t *a = malloc(d.bytes), *st = malloc(d.bytes), *b = malloc(d.bytes);
            assert_non_null(a);
            assert_non_null(st);
            assert_non_null(b);
            for (uint64_t i = 0; i < d.bytes; i++)
                a[i] = (uint8_t)(i * 7 + i / 251);
            tns_tilize(&d, a, st);
            tns_untilize(&d, st, b);
            assert_memory_equal(a, b, d.bytes);
            unsigned sz = tns_format_size((tns_format_t)f);
            for (uint64_t r = 0; r < d.rows; r += wide ? 1 : 5)
                for (uint64_t c = 0; c < d.cols; c += wide ? 1 : 3)
                    assert_memory_equal(st + tns_stored_index(&d, r, c) * sz, a + (r * d.cols + c) * sz, sz);
            if (!d.tiles) assert_memory_equal(a, st, d.bytes);
            free(a);
            free(st);
            free(b);
        }
}

/* bfloat8_b: a tile is 64 exponent bytes (one a face row, in stored order) then a byte an
 * element (sign | 7-bit magnitude, FloatBitPatterns.md BFP8: value = mag / 64 * 2^(exp - 127)).
 * Expected bytes written by hand. */
static void test_bfp8(void **state) {
    (void)state;
    uint32_t s[2] = {32, 64};
    tns_desc_t d;
    char err[128];
    assert_int_equal(tns_desc_init(&d, TNS_BFP8, true, s, 2, L1, err, sizeof err), 0);
    assert_int_equal(d.bytes, 2 * (64 + 1024));
    assert_int_equal(d.elem_bytes, 2 * 32 * 64);
    assert_int_not_equal(tns_desc_init(&d, TNS_BFP8, false, s, 2, L1, err, sizeof err), 0);
    assert_non_null(strstr(err, "tiles"));
    assert_int_equal(tns_desc_init(&d, TNS_BFP8, true, s, 2, L1, err, sizeof err), 0);
    uint16_t *a = calloc(32 * 64, 2), *b = calloc(32 * 64, 2);
    uint8_t *st = calloc(d.bytes, 1);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(st);
    a[0] = 0x3F80;            /* (0, 0) = 1.0: its block's largest, exponent 127, 1.0 = 64/64 */
    a[1] = 0xBF00;            /* (0, 1) = -0.5 = -32/64 */
    a[2] = 0x3E80;            /* (0, 2) = 0.25 = 16/64 */
    a[3] = 0x3C00;            /* (0, 3) = 2^-7 = 0.5/64: rounds away from zero to 1/64 */
    a[17 * 64 + 40] = 0x4140; /* (17, 40) = 12 = 1.5 * 2^3: tile 1, face 2, row 1, column 8 */
    tns_tilize(&d, (uint8_t *)a, st);
    assert_int_equal(st[0], 127);
    assert_int_equal(st[64 + 0], 0x40);
    assert_int_equal(st[64 + 1], 0x80 | 0x20);
    assert_int_equal(st[64 + 2], 0x10);
    assert_int_equal(st[64 + 3], 0x01);
    assert_int_equal(st[1], 0); /* an all-zero block: exponent 0 */
    uint8_t *t1 = st + 64 + 1024;
    assert_int_equal(t1[(2 * 256 + 16) / 16], 130);
    assert_int_equal(t1[64 + 2 * 256 + 16 + 8], 0x60);
    tns_untilize(&d, st, (uint8_t *)b);
    assert_int_equal(b[0], 0x3F80);
    assert_int_equal(b[1], 0xBF00);
    assert_int_equal(b[3], 0x3C80); /* 1/64 */
    assert_int_equal(b[17 * 64 + 40], 0x4140);
    assert_int_equal(b[5], 0);
    free(a);
    free(b);
    free(st);
}

/* An npy_t over data (no file needed). */
static npy_t arr(npy_type_t t, const void *data, int ndim, uint64_t d0, uint64_t d1) {
    npy_t a = {.type = t, .itemsize = npy_itemsize(t), .ndim = ndim, .data = data};
    a.shape[0] = d0;
    a.shape[1] = d1;
    a.count = ndim == 1 ? d0 : d0 * d1;
    return a;
}

static void test_from_npy_floats(void **state) {
    (void)state;
    char err[256];
    tns_desc_t bf = desc(TNS_BF16, false, 1, 8), fp32 = desc(TNS_FP32, false, 1, 8), fp16 = desc(TNS_FP16, false, 1, 8);
    /* float32 -> bfloat16, to nearest, ties to even; NaN stays NaN (quiet) */
    uint32_t f[8] = {0x3F800000, 0x3F808000, 0x3F818000, 0x3F808001, 0x7F7FFFFF, 0xFF800000, 0x7F800001, 0x80000000};
    uint16_t want[8] = {0x3F80, 0x3F80, 0x3F82, 0x3F81, 0x7F80, 0xFF80, 0x7FC0, 0x8000};
    uint16_t got[8];
    npy_t a = arr(NPY_F4, f, 2, 1, 8);
    assert_int_equal(tns_from_npy(&bf, &a, (uint8_t *)got, err, sizeof err), 0);
    assert_memory_equal(got, want, sizeof want);
    /* float32 -> float32 is exact, bits and all */
    uint32_t g32[8];
    assert_int_equal(tns_from_npy(&fp32, &a, (uint8_t *)g32, err, sizeof err), 0);
    assert_memory_equal(g32, f, sizeof f);
    /* float32 -> float16: 1 + 2^-11 is a tie (even: down), 65520 rounds to Inf, 2^-25 to 0 */
    uint32_t h[8] = {0x3F800000, 0x3F801000, 0x3F803000, 0x477FF000, 0x33000000, 0x33000001, 0xC0000000, 0x387FC000};
    uint16_t hw[8] = {0x3C00, 0x3C00, 0x3C02, 0x7C00, 0x0000, 0x0001, 0xC000, 0x03FF};
    a = arr(NPY_F4, h, 1, 8, 0);
    assert_int_equal(tns_from_npy(&fp16, &a, (uint8_t *)got, err, sizeof err), 0);
    assert_memory_equal(got, hw, sizeof hw);
    /* float16 arrays: as is into float16, exactly widened into float32, rounded once into bfloat16 */
    uint16_t hs[8] = {0x3C00, 0x3C01, 0x0001, 0x7C00, 0xFC00, 0x7E00, 0x8000, 0x3555};
    a = arr(NPY_F2, hs, 1, 8, 0);
    assert_int_equal(tns_from_npy(&fp16, &a, (uint8_t *)got, err, sizeof err), 0);
    assert_memory_equal(got, hs, sizeof hs);
    uint32_t w32[8] = {0x3F800000, 0x3F802000, 0x33800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000, 0x3EAAA000};
    assert_int_equal(tns_from_npy(&fp32, &a, (uint8_t *)g32, err, sizeof err), 0);
    assert_memory_equal(g32, w32, sizeof w32);
    uint16_t wbf[8] = {0x3F80, 0x3F80, 0x3380, 0x7F80, 0xFF80, 0x7FC0, 0x8000, 0x3EAB};
    assert_int_equal(tns_from_npy(&bf, &a, (uint8_t *)got, err, sizeof err), 0);
    assert_memory_equal(got, wbf, sizeof wbf);
    /* Raw bits: uint16 into bfloat16 and float16, uint32 into float32 (signalling NaNs kept) */
    uint16_t raw[8] = {0x7F81, 0xFFFF, 0x0001, 0x8001, 0x1234, 0, 0x8000, 0x7F80};
    a = arr(NPY_U2, raw, 1, 8, 0);
    assert_int_equal(tns_from_npy(&bf, &a, (uint8_t *)got, err, sizeof err), 0);
    assert_memory_equal(got, raw, sizeof raw);
    assert_int_equal(tns_from_npy(&fp16, &a, (uint8_t *)got, err, sizeof err), 0);
    assert_memory_equal(got, raw, sizeof raw);
    uint32_t raw32[8] = {0x7F800001, 1, 2, 3, 4, 5, 6, 0xFFFFFFFF};
    a = arr(NPY_U4, raw32, 1, 8, 0);
    assert_int_equal(tns_from_npy(&fp32, &a, (uint8_t *)g32, err, sizeof err), 0);
    assert_memory_equal(g32, raw32, sizeof raw32);
    /* Refused: float64, integers into floats, uint32 raw into bfloat16 */
    double dd[8] = {0};
    a = arr(NPY_F8, dd, 1, 8, 0);
    assert_int_equal(tns_from_npy(&bf, &a, (uint8_t *)got, err, sizeof err), -1);
    assert_non_null(strstr(err, "float64 array is not accepted: save it as float32"));
    int32_t ii[8] = {0};
    a = arr(NPY_I4, ii, 1, 8, 0);
    assert_int_equal(tns_from_npy(&fp32, &a, (uint8_t *)g32, err, sizeof err), -1);
    assert_non_null(
        strstr(err, "float32 needs float32 or float16 values (or raw bits as uint32); the array holds int32"));
    a = arr(NPY_U4, raw32, 1, 8, 0);
    assert_int_equal(tns_from_npy(&bf, &a, (uint8_t *)got, err, sizeof err), -1);
}

/* The arrays a caller may use in place: exactly those whose bytes tns_from_npy gives back as they
 * are (checked against it here), and only with the tensor's shape. */
static void test_npy_elems_in_place(void **state) {
    (void)state;
    char err[256];
    uint32_t w[8] = {0x3F808000, 0x7F800001, 1, 2, 3, 4, 5, 0xFFFFFFFF}, got[8];
    const tns_desc_t bf = desc(TNS_BF16, false, 2, 4), fp16 = desc(TNS_FP16, false, 2, 4),
                     fp32 = desc(TNS_FP32, false, 2, 4), bfp8 = desc(TNS_BFP8, true, 32, 32);
    const struct {
        npy_type_t t;
        const tns_desc_t *d;
        bool fortran, in_place;
    } cases[] = {
        {NPY_U2, &bf, false, true},    {NPY_U2, &fp16, false, true}, {NPY_U4, &fp32, false, true},
        {NPY_F4, &fp32, false, true},  {NPY_F2, &fp16, false, true}, {NPY_F4, &bf, false, false},
        {NPY_F2, &fp32, false, false}, {NPY_F2, &bf, false, false},  {NPY_F4, &fp16, false, false},
        {NPY_U2, &bf, true, false},    {NPY_F4, &fp32, true, false},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        npy_t a = arr(cases[i].t, w, 2, 2, 4);
        a.fortran_order = cases[i].fortran;
        const uint8_t *p = tns_npy_elems(cases[i].d, &a);
        if (!cases[i].in_place) {
            if (p) fail_msg("case %u: used in place", i);
            continue;
        }
        if (p != (const uint8_t *)w) fail_msg("case %u: not the array's own data", i);
        memset(got, 0xA5, sizeof got);
        assert_int_equal(tns_from_npy(cases[i].d, &a, (uint8_t *)got, err, sizeof err), 0);
        assert_memory_equal(got, w, a.count * a.itemsize); /* what the copy gives is the data itself */
    }
    /* Another shape of the same count: never in place. bfloat8_b's elements are bfloat16 (its
     * blocks are made by the tilize): raw uint16 bits are, float32 values are not. */
    npy_t a = arr(NPY_U2, w, 2, 4, 2);
    assert_null(tns_npy_elems(&bf, &a));
    a = arr(NPY_U2, w, 2, 32, 32);
    assert_ptr_equal(tns_npy_elems(&bfp8, &a), w);
    a = arr(NPY_F4, w, 2, 32, 32);
    assert_null(tns_npy_elems(&bfp8, &a));
}

static void test_from_npy_ints(void **state) {
    (void)state;
    char err[256];
    tns_desc_t u8 = desc(TNS_UINT8, false, 2, 2), i8 = desc(TNS_INT8, false, 2, 2), i32 = desc(TNS_INT32, false, 2, 2);
    tns_desc_t u32 = desc(TNS_UINT32, false, 2, 2), i16 = desc(TNS_INT16, false, 2, 2),
               u16 = desc(TNS_UINT16, false, 2, 2);
    uint8_t out[16];
    int64_t v64[4] = {0, 255, 1, 200};
    npy_t a = arr(NPY_I8, v64, 2, 2, 2);
    assert_int_equal(tns_from_npy(&u8, &a, out, err, sizeof err), 0);
    assert_memory_equal(out, ((uint8_t[]){0, 255, 1, 200}), 4);
    v64[2] = 256;
    assert_int_equal(tns_from_npy(&u8, &a, out, err, sizeof err), -1);
    assert_string_equal(err, "element [1, 0] = 256 does not fit uint8");
    int8_t s8[4] = {-128, 127, -1, 0};
    a = arr(NPY_I1, s8, 2, 2, 2);
    assert_int_equal(tns_from_npy(&i8, &a, out, err, sizeof err), 0);
    assert_memory_equal(out, s8, 4);
    assert_int_equal(tns_from_npy(&u8, &a, out, err, sizeof err), -1); /* -128 into uint8 */
    assert_string_equal(err, "element [0, 0] = -128 does not fit uint8");
    assert_int_equal(tns_from_npy(&i32, &a, out, err, sizeof err), 0); /* widened, sign kept */
    assert_memory_equal(out, ((int32_t[]){-128, 127, -1, 0}), 16);
    uint32_t big[4] = {0x80000000u, 0, 0, 0xFFFFFFFFu};
    a = arr(NPY_U4, big, 2, 2, 2);
    assert_int_equal(tns_from_npy(&u32, &a, out, err, sizeof err), 0);
    assert_memory_equal(out, big, 16);
    assert_int_equal(tns_from_npy(&i32, &a, out, err, sizeof err), -1);
    assert_string_equal(err, "element [0, 0] = 2147483648 does not fit int32");
    uint64_t u64[4] = {65535, 0, 0, 0xFFFFFFFFFFFFFFFFull};
    a = arr(NPY_U8, u64, 2, 2, 2);
    assert_int_equal(tns_from_npy(&u16, &a, out, err, sizeof err), -1);
    assert_string_equal(err, "element [1, 1] = 18446744073709551615 does not fit uint16");
    int16_t s16[4] = {-32768, 32767, 5, -5};
    a = arr(NPY_I2, s16, 2, 2, 2);
    assert_int_equal(tns_from_npy(&i16, &a, out, err, sizeof err), 0);
    assert_memory_equal(out, s16, 8);
    float fl[4] = {0};
    a = arr(NPY_F4, fl, 2, 2, 2);
    assert_int_equal(tns_from_npy(&i32, &a, out, err, sizeof err), -1);
    assert_string_equal(err, "the tensor's format int32 needs integer values; the array holds float32");
}

static void test_from_npy_shapes(void **state) {
    (void)state;
    char err[256];
    uint8_t data[64], out[64];
    for (int i = 0; i < 64; i++)
        data[i] = (uint8_t)i;
    tns_desc_t d = desc(TNS_UINT8, false, 4, 16);
    npy_t a = arr(NPY_U1, data, 2, 4, 16);
    a.ndim = 4; /* (1, 1, 4, 16): leading 1s do not count */
    a.shape[0] = a.shape[1] = 1;
    a.shape[2] = 4;
    a.shape[3] = 16;
    assert_int_equal(tns_from_npy(&d, &a, out, err, sizeof err), 0);
    assert_memory_equal(out, data, 64);
    a = arr(NPY_U1, data, 2, 16, 4);
    assert_int_equal(tns_from_npy(&d, &a, out, err, sizeof err), -1);
    assert_string_equal(err, "array shape (16, 4) does not match the tensor's shape [4, 16]");
    a = arr(NPY_U1, data, 1, 64, 0);
    assert_int_equal(tns_from_npy(&d, &a, out, err, sizeof err), -1);
    assert_string_equal(err, "array shape (64,) does not match the tensor's shape [4, 16]");
    tns_desc_t row = desc(TNS_UINT8, false, 1, 64); /* [1, 64] takes (64,) */
    assert_int_equal(tns_from_npy(&row, &a, out, err, sizeof err), 0);
    /* Fortran order: the data is column-major, the tensor gets the logical (row-major) order. */
    a = arr(NPY_U1, data, 2, 4, 16);
    a.fortran_order = true;
    assert_int_equal(tns_from_npy(&d, &a, out, err, sizeof err), 0);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 16; c++)
            assert_int_equal(out[r * 16 + c], data[c * 4 + r]);
}

static void test_to_output(void **state) {
    (void)state;
    tns_desc_t bf = desc(TNS_BF16, false, 1, 4), fp16 = desc(TNS_FP16, false, 1, 4), i8 = desc(TNS_INT8, false, 1, 4);
    uint16_t b[4] = {0x3F80, 0xFF80, 0x0001, 0x8000};
    uint32_t f[4];
    tns_to_output(&bf, (uint8_t *)b, (uint8_t *)f);
    assert_memory_equal(f, ((uint32_t[]){0x3F800000, 0xFF800000, 0x00010000, 0x80000000}), 16);
    /* every bfloat16 pattern of a longer row: the top half of its float32, the bottom half 0 */
    tns_desc_t bl = desc(TNS_BF16, false, 1, 37);
    uint16_t bb[37];
    uint32_t ff[37];
    for (unsigned i = 0; i < 37; i++)
        bb[i] = (uint16_t)(i * 1777u + 3u);
    tns_to_output(&bl, (uint8_t *)bb, (uint8_t *)ff);
    for (unsigned i = 0; i < 37; i++)
        assert_int_equal(ff[i], (uint32_t)bb[i] << 16);
    uint16_t h[4] = {0x3C00, 0x0001, 0xFC00, 0x8000};
    tns_to_output(&fp16, (uint8_t *)h, (uint8_t *)f);
    assert_memory_equal(f, ((uint32_t[]){0x3F800000, 0x33800000, 0xFF800000, 0x80000000}), 16);
    int8_t s[4] = {-1, 2, -3, 4}, o[4];
    tns_to_output(&i8, (uint8_t *)s, (uint8_t *)o);
    assert_memory_equal(o, s, 4);
    assert_int_equal(tns_output_type(TNS_BF16), NPY_F4);
    assert_int_equal(tns_output_type(TNS_UINT16), NPY_U2);
    assert_int_equal(tns_output_type(TNS_INT8), NPY_I1);
}

/* Compare one pair of bf16 patterns. */
static tns_cmp_t cmp_bf16(uint16_t g, uint16_t w, double atol, double rtol) {
    tns_desc_t d = desc(TNS_BF16, false, 1, 1);
    tns_cmp_t c;
    tns_compare(&d, (uint8_t *)&g, (uint8_t *)&w, atol, rtol, &c);
    return c;
}

static void test_compare_rules(void **state) {
    (void)state;
    /* Exact (no tolerances): bit patterns equal, or both NaN */
    assert_int_equal(cmp_bf16(0x3F80, 0x3F80, 0, 0).mismatches, 0);
    assert_int_equal(cmp_bf16(0x3F81, 0x3F80, 0, 0).mismatches, 1);
    assert_int_equal(cmp_bf16(0x7FC0, 0xFF81, 0, 0).mismatches, 0);       /* NaN equals NaN, any sign and payload */
    assert_int_equal(cmp_bf16(0x7FC0, 0x7F80, 0, 0).mismatches, 1);       /* NaN is not Inf */
    assert_int_equal(cmp_bf16(0x7FC0, 0x3F80, 1e30, 1e30).mismatches, 1); /* nor any number, whatever the tolerance */
    assert_int_equal(cmp_bf16(0x8000, 0x0000, 0, 0).mismatches, 1);       /* -0 is not +0 when exact ... */
    assert_int_equal(cmp_bf16(0x8000, 0x0000, 1e-30, 0).mismatches, 0);   /* ... but is within any tolerance */
    /* Infinities: equal only to themselves, never within a tolerance of a finite value */
    assert_int_equal(cmp_bf16(0x7F80, 0x7F80, 0, 0).mismatches, 0);
    assert_int_equal(cmp_bf16(0x7F80, 0xFF80, 1e38, 1e38).mismatches, 1);
    assert_int_equal(cmp_bf16(0x7F80, 0x7F7F, 1e38, 1e38).mismatches, 1);
    /* Tolerances: |got - want| <= atol + rtol * |want|, boundary included */
    assert_int_equal(cmp_bf16(0x4000, 0x3F80, 1.0, 0).mismatches, 0); /* 2 vs 1, atol 1 */
    assert_int_equal(cmp_bf16(0x4000, 0x3F80, 0.999, 0).mismatches, 1);
    assert_int_equal(cmp_bf16(0x4000, 0x3F80, 0, 1.0).mismatches, 0);   /* rtol 1 of want 1 */
    assert_int_equal(cmp_bf16(0x3F80, 0x4000, 0, 0.5).mismatches, 0);   /* rtol is relative to want (2) */
    assert_int_equal(cmp_bf16(0x4000, 0x3F80, 0, 0.5).mismatches, 1);   /* ... not to got */
    assert_int_equal(cmp_bf16(0x4000, 0x3F80, 0.5, 0.5).mismatches, 0); /* atol + rtol * |want| */
    /* Statistics */
    tns_cmp_t c = cmp_bf16(0x4040, 0x3F80, 0, 0); /* 3 vs 1 */
    assert_true(c.max_abs_err == 2.0);
    assert_true(c.max_rel_err == 2.0);
    assert_int_equal(c.max_ulp, 0x4040 - 0x3F80);
    assert_int_equal(cmp_bf16(0x8000, 0x0000, 0, 0).max_ulp, 0);  /* -0 and +0 are one point */
    assert_int_equal(cmp_bf16(0x8001, 0x0001, 0, 0).max_ulp, 2);  /* across zero */
    assert_int_equal(cmp_bf16(0x7F80, 0x7F7F, 0, 0).max_ulp, 1);  /* Inf is one step past the largest */
    assert_int_equal(cmp_bf16(0x7FC0, 0x3F80, 0, 0).max_ulp, 0);  /* NaN pairs are not counted */
    assert_true(cmp_bf16(0x7F80, 0x3F80, 0, 0).max_abs_err == 0); /* nor infinite ones in the errors */
    assert_true(cmp_bf16(0x3F80, 0x0000, 0, 0).max_rel_err == 0); /* want 0: no relative error */
    assert_true(cmp_bf16(0x3F80, 0x0000, 0, 0).max_abs_err == 1.0);
}

static void test_compare_tensor(void **state) {
    (void)state;
    tns_desc_t d = desc(TNS_INT32, false, 3, 4);
    int32_t got[12], want[12];
    for (int i = 0; i < 12; i++)
        got[i] = want[i] = i * 1000 - 5000;
    tns_cmp_t c;
    tns_compare(&d, (uint8_t *)got, (uint8_t *)want, 0, 0, &c);
    assert_int_equal(c.elements, 12);
    assert_int_equal(c.mismatches, 0);
    assert_false(c.has_first);
    got[6] = want[6] + 3;
    got[9] = want[9] - 7;
    tns_compare(&d, (uint8_t *)got, (uint8_t *)want, 0, 0, &c);
    assert_int_equal(c.mismatches, 2);
    assert_true(c.has_first);
    assert_int_equal(c.first_index, 6);
    assert_int_equal((int32_t)c.first_got, want[6] + 3);
    assert_int_equal((int32_t)c.first_want, want[6]);
    assert_int_equal(c.max_ulp, 7);
    assert_true(c.max_abs_err == 7.0);
    char idx[32];
    tns_index_str(&d, c.first_index, idx, sizeof idx);
    assert_string_equal(idx, "[1, 2]");
    tns_compare(&d, (uint8_t *)got, (uint8_t *)want, 5, 0, &c); /* atol 5: only the 7 remains */
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.first_index, 9);
    /* Signed formats compare as signed numbers: int8 -1 vs 1 is 2 apart, not 254 */
    tns_desc_t d8 = desc(TNS_INT8, false, 1, 1);
    int8_t g8 = -1, w8 = 1;
    tns_compare(&d8, (uint8_t *)&g8, (uint8_t *)&w8, 0, 0, &c);
    assert_int_equal(c.max_ulp, 2);
    tns_desc_t u8 = desc(TNS_UINT8, false, 1, 1);
    tns_compare(&u8, (uint8_t *)&g8, (uint8_t *)&w8, 0, 0, &c);
    assert_int_equal(c.max_ulp, 254);
    /* float32 and float16 patterns */
    tns_desc_t f32 = desc(TNS_FP32, false, 1, 2), f16 = desc(TNS_FP16, false, 1, 2);
    uint32_t a32[2] = {0x7FC00000, 0x3F800001}, b32[2] = {0xFFC00001, 0x3F800000};
    tns_compare(&f32, (uint8_t *)a32, (uint8_t *)b32, 0, 0, &c);
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.first_index, 1);
    assert_int_equal(c.max_ulp, 1);
    uint16_t a16[2] = {0x7C00, 0x7E00}, b16[2] = {0x7C00, 0x7C01}; /* Inf = Inf; two NaNs */
    tns_compare(&f16, (uint8_t *)a16, (uint8_t *)b16, 0, 0, &c);
    assert_int_equal(c.mismatches, 0);
}

/* A tensor long enough for tns_compare's blocks of equal elements (256 at a time): differences
 * just past a block's start, inside a block, in the last partial block, at a whole block's last
 * element alone, and pairs that are equal as numbers but not as patterns (-0 and +0; two NaNs). */
static void test_compare_blocks(void **state) {
    (void)state;
    enum { N = 1000 };
    tns_desc_t d = desc(TNS_BF16, false, 1, N);
    uint16_t got[N], want[N];
    for (int i = 0; i < N; i++)
        got[i] = want[i] = (uint16_t)(0x3F80 + i); /* 1.0, then one ulp more each */
    tns_cmp_t c;
    tns_compare(&d, (uint8_t *)got, (uint8_t *)want, 0, 0, &c);
    assert_int_equal(c.elements, N);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.max_ulp, 0);
    assert_true(c.max_abs_err == 0 && c.max_rel_err == 0);
    got[256] = (uint16_t)(want[256] + 1);  /* the first of the second block */
    got[511] = (uint16_t)(want[511] - 3);  /* the last of the second block */
    want[512] = 0x0000, got[512] = 0x8000; /* -0 against +0: a mismatch when exact, 0 ulp */
    want[600] = 0x7FC0, got[600] = 0xFF81; /* NaN against NaN: a match */
    got[999] = (uint16_t)(want[999] + 2);  /* the last element, in the partial block */
    tns_compare(&d, (uint8_t *)got, (uint8_t *)want, 0, 0, &c);
    assert_int_equal(c.mismatches, 4);
    assert_true(c.has_first);
    assert_int_equal(c.first_index, 256);
    assert_int_equal(c.first_got, 0x3F80 + 256 + 1);
    assert_int_equal(c.first_want, 0x3F80 + 256);
    assert_int_equal(c.max_ulp, 3);
    /* 999: want 0x4367 (231), got 0x4369 (233): the largest error, 2; 511: want 0x417F (15.9375),
     * got 0x417C (15.75): the largest relative error, 0.1875 / 15.9375 (999's is 2 / 231, 256's
     * 0.03125 / 4) */
    assert_true(c.max_abs_err == 2.0);
    assert_true(c.max_rel_err == 0.1875 / 15.9375);
    tns_compare(&d, (uint8_t *)got, (uint8_t *)want, 1e-30, 0, &c); /* -0 within any tolerance */
    assert_int_equal(c.mismatches, 3);
    got[256] = want[256];
    got[511] = want[511];
    got[999] = want[999];
    tns_compare(&d, (uint8_t *)got, (uint8_t *)want, 0, 0, &c);
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.first_index, 512);
    /* a difference only at a whole block's last element (767, of 512..767): the block's every
     * byte compared, not only its first part */
    got[512] = want[512], got[600] = want[600];
    got[767] = (uint16_t)(want[767] + 1);
    tns_compare(&d, (uint8_t *)got, (uint8_t *)want, 0, 0, &c);
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.first_index, 767);
    assert_int_equal(c.max_ulp, 1);
}

/* The conversions' common cases over a whole array: float32 into bfloat16 (each element rounded
 * to nearest, ties to even, as test_from_npy_floats' values), float32 into float32 and raw bits
 * as they are; and the same array in Fortran order, which takes the element-by-element way. */
static void test_from_npy_long(void **state) {
    (void)state;
    enum { R = 40, C = 32 };
    char err[256];
    static const uint32_t f[8] = {0x3F800000, 0x3F808000, 0x3F818000, 0x3F808001,
                                  0x7F7FFFFF, 0xFF800000, 0x7F800001, 0x80000000};
    static const uint16_t bf[8] = {0x3F80, 0x3F80, 0x3F82, 0x3F81, 0x7F80, 0xFF80, 0x7FC0, 0x8000};
    uint32_t in[R * C], fort[R * C], g32[R * C];
    uint16_t want[R * C], got[R * C], raw[R * C];
    for (int i = 0; i < R * C; i++) {
        /* the first four moved up by 2k bfloat16 steps: the parity that decides a tie is kept */
        in[i] = f[i % 8] + (uint32_t)(i / 8) * 0x20000u * (i % 8 < 4);
        want[i] = (uint16_t)(bf[i % 8] + (uint32_t)(i / 8) * 2u * (i % 8 < 4));
        raw[i] = (uint16_t)(i * 37);
    }
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            fort[c * R + r] = in[r * C + c]; /* column-major */
    tns_desc_t dbf = desc(TNS_BF16, false, R, C), d32 = desc(TNS_FP32, false, R, C);
    npy_t a = arr(NPY_F4, in, 2, R, C);
    assert_int_equal(tns_from_npy(&dbf, &a, (uint8_t *)got, err, sizeof err), 0);
    assert_memory_equal(got, want, sizeof want);
    assert_int_equal(tns_from_npy(&d32, &a, (uint8_t *)g32, err, sizeof err), 0);
    assert_memory_equal(g32, in, sizeof in);
    a = arr(NPY_F4, fort, 2, R, C);
    a.fortran_order = true;
    memset(got, 0, sizeof got);
    assert_int_equal(tns_from_npy(&dbf, &a, (uint8_t *)got, err, sizeof err), 0);
    assert_memory_equal(got, want, sizeof want);
    a = arr(NPY_U2, raw, 2, R, C);
    assert_int_equal(tns_from_npy(&dbf, &a, (uint8_t *)got, err, sizeof err), 0);
    assert_memory_equal(got, raw, sizeof raw);
}

static void test_values(void **state) {
    (void)state;
    assert_true(tns_value(TNS_BF16, 0x3F80) == 1.0);
    assert_true(tns_value(TNS_FP16, 0x3C00) == 1.0);
    assert_true(tns_value(TNS_FP16, 0x0001) == 0x1p-24);
    assert_true(tns_value(TNS_FP32, 0xC0490FDB) == -3.1415927410125732);
    assert_true(tns_value(TNS_INT16, 0xFFFF) == -1.0);
    assert_true(tns_value(TNS_UINT16, 0xFFFF) == 65535.0);
    assert_true(tns_is_nan(TNS_BF16, 0xFFC1));
    assert_false(tns_is_nan(TNS_BF16, 0xFF80));
    assert_false(tns_is_nan(TNS_INT32, 0xFFFFFFFF));
    assert_int_equal(tns_format_by_name("bfloat16"), TNS_BF16);
    assert_int_equal(tns_format_by_name("bfloat8_b"), TNS_BFP8);
    assert_int_equal(tns_format_by_name("bfloat4_b"), -1);
    assert_true(tns_value(TNS_BFP8, 0xBF00) == -0.5);
    for (int f = 0; f < TNS_NFORMATS; f++)
        assert_non_null(strstr(tns_format_names(), tns_format_name((tns_format_t)f)));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_tile_order),
        cmocka_unit_test(test_tilize_roundtrip),
        cmocka_unit_test(test_from_npy_floats),
        cmocka_unit_test(test_npy_elems_in_place),
        cmocka_unit_test(test_from_npy_ints),
        cmocka_unit_test(test_from_npy_shapes),
        cmocka_unit_test(test_to_output),
        cmocka_unit_test(test_compare_rules),
        cmocka_unit_test(test_compare_tensor),
        cmocka_unit_test(test_compare_blocks),
        cmocka_unit_test(test_from_npy_long),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_bfp8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
