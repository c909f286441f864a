/* test/unit/test_npy.c — the .npy reader and header writer (loader/npy.c): what NumPy writes is
 * read, every malformed file is refused with a reason, and no prefix of a file is read past its
 * end (ASan checks the last under `make test-asan`). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "loader/file.h"
#include "loader/npy.h"

/* A version-1.0 (or 2.0) file with the given header text and data bytes, in a buffer of exactly
 * its size (so ASan sees any read past the end). */
static uint8_t *make(int major, const char *header, const void *data, size_t dlen, size_t *len) {
    size_t hlen = strlen(header), pre = major == 1 ? 10 : 12;
    *len = pre + hlen + dlen;
    uint8_t *b = malloc(*len);
    assert_non_null(b);
    memcpy(b, "\x93NUMPY", 6);
    b[6] = (uint8_t)major;
    b[7] = 0;
    b[8] = (uint8_t)hlen;
    b[9] = (uint8_t)(hlen >> 8);
    if (major != 1) b[10] = b[11] = 0;
    memcpy(b + pre, header, hlen);
    if (dlen) memcpy(b + pre + hlen, data, dlen);
    return b;
}

/* Parse; returns the reason on failure ("" on success). */
static const char *parse(const uint8_t *b, size_t len, npy_t *a) {
    static char err[256];
    err[0] = 0;
    int rc = npy_parse(b, len, a, err, sizeof err);
    assert_int_equal(rc, err[0] ? -1 : 0);
    return err;
}

static void test_numpy_header(void **state) {
    (void)state;
    /* Exactly what numpy.save writes for np.zeros((2, 3), np.float32) (numpy 1.24). */
    const char *h = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
                    "                                                                \n";
    float data[6] = {1, 2, 3, 4, 5, 6};
    size_t len;
    uint8_t *b = make(1, h, data, sizeof data, &len);
    npy_t a;
    assert_string_equal(parse(b, len, &a), "");
    assert_int_equal(a.type, NPY_F4);
    assert_int_equal(a.itemsize, 4);
    assert_int_equal(a.ndim, 2);
    assert_int_equal(a.shape[0], 2);
    assert_int_equal(a.shape[1], 3);
    assert_int_equal(a.count, 6);
    assert_false(a.fortran_order);
    assert_ptr_equal(a.data, b + len - sizeof data);
    free(b);
}

static void test_spellings(void **state) {
    (void)state;
    static const struct {
        const char *header;
        npy_type_t type;
        int ndim;
        uint64_t d0;
        bool fortran;
    } ok[] = {
        {"{\"descr\":\"<u2\",\"shape\":(4,),\"fortran_order\":False}", NPY_U2, 1, 4, false}, /* any order, quotes */
        {"  { 'shape' : ( 4 , ) , 'descr' : '|u1' , 'fortran_order' : True }  \n", NPY_U1, 1, 4, true},
        {"{'descr': '|i1', 'fortran_order': False, 'shape': (), }", NPY_I1, 0, 0, false}, /* a scalar */
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (4), }", NPY_I4, 1, 4, false},
        {"{'descr': '<f2', 'fortran_order': False, 'shape': (4L,), }", NPY_F2, 1, 4, false}, /* Python 2 */
        {"{'descr': '<u1', 'fortran_order': False, 'shape': (4,), }", NPY_U1, 1, 4, false},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", NPY_F8, 1, 4, false},
        {"{'descr': '<i8', 'fortran_order': False, 'shape': (4,), }", NPY_I8, 1, 4, false},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        uint8_t data[64] = {0};
        unsigned isz = npy_itemsize(ok[i].type);
        size_t dlen = (ok[i].ndim ? ok[i].d0 : 1) * isz, len;
        for (int major = 1; major <= 3; major++) {
            uint8_t *b = make(major, ok[i].header, data, dlen, &len);
            npy_t a;
            const char *why = parse(b, len, &a);
            if (*why) fail_msg("%s (version %d): %s", ok[i].header, major, why);
            assert_int_equal(a.type, ok[i].type);
            assert_int_equal(a.ndim, ok[i].ndim);
            assert_int_equal(a.count, ok[i].ndim ? ok[i].d0 : 1);
            assert_int_equal(a.fortran_order, ok[i].fortran);
            free(b);
        }
    }
}

static void test_refusals(void **state) {
    (void)state;
    static const struct {
        const char *header, *why;
        size_t dlen;
    } bad[] = {
        {"{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", "big-endian", 8},
        {"{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }", "big-endian", 4},
        {"{'descr': '=f4', 'fortran_order': False, 'shape': (2,), }", "expected a little-endian", 8},
        {"{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", "not supported", 16},
        {"{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", "not supported", 2},
        {"{'descr': '|f4', 'fortran_order': False, 'shape': (2,), }", "not supported", 8},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", "structured", 8},
        {"{'descr': '<f4', 'shape': (2,), }", "'fortran_order' missing", 8},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", "given twice", 8},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", "unknown key 'x'", 8},
        {"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }", "True or False", 8},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1), }", "non-negative integers", 8},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': [2], }", "must be a tuple", 8},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2 3), }", "expected ',' or ')'", 8},
        {"{'descr' '<f4', 'fortran_order': False, 'shape': (2,), }", "expected ':'", 8},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x", "text after the dict", 8},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,) 'a'}", "expected ',' or '}'", 8},
        {"['descr', '<f4']", "expected a dict", 8},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", "truncated data", 7},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", "bytes after the array", 9},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }", "overflows", 0},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,), }", "too large", 0},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1), }", "more than 8", 4},
        {"{'de\\scr': '<f4'}", "unexpected key string", 0},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), ", "expected a quoted key", 8},
        {"{'descr", "unterminated key", 0},
    };
    uint8_t data[16] = {0};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t len;
        uint8_t *b = make(1, bad[i].header, data, bad[i].dlen, &len);
        npy_t a;
        const char *why = parse(b, len, &a);
        if (!strstr(why, bad[i].why)) fail_msg("%s: got '%s', expected '%s'", bad[i].header, why, bad[i].why);
        free(b);
    }
}

static void test_preamble(void **state) {
    (void)state;
    const char *h = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }";
    uint8_t data[4] = {0};
    size_t len;
    uint8_t *b = make(1, h, data, 4, &len);
    npy_t a;
    b[0] = 'X';
    assert_non_null(strstr(parse(b, len, &a), "not a .npy file"));
    b[0] = 0x93;
    b[6] = 4;
    assert_non_null(strstr(parse(b, len, &a), "version 4.0 is not supported"));
    b[6] = 1;
    b[7] = 1;
    assert_non_null(strstr(parse(b, len, &a), "version 1.1"));
    b[7] = 0;
    b[8] = 0xFF; /* header longer than the file */
    assert_non_null(strstr(parse(b, len, &a), "truncated .npy header"));
    free(b);
    /* Every strict prefix of a valid file is refused, and none is read past its end. */
    b = make(2, h, data, 4, &len);
    for (size_t n = 0; n < len; n++) {
        uint8_t *p = malloc(n ? n : 1);
        assert_non_null(p);
        memcpy(p, b, n);
        assert_int_equal(npy_parse(p, n, &a, (char[64]){0}, 64), -1);
        free(p);
    }
    assert_string_equal(parse(b, len, &a), "");
    free(b);
}

/* Random bytes after a valid preamble and random corruptions of a valid file: a result or a
 * reason, never a crash (a small deterministic fuzz; the libFuzzer target goes further). */
static void test_corruptions(void **state) {
    (void)state;
    const char *h = "{'descr': '<u2', 'fortran_order': False, 'shape': (3, 2), }\n";
    uint8_t data[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    size_t len;
    uint8_t *good = make(1, h, data, sizeof data, &len);
    uint32_t x = 12345;
    int parsed = 0;
    for (int round = 0; round < 20000; round++) {
        uint8_t *b = malloc(len);
        assert_non_null(b);
        memcpy(b, good, len);
        for (int k = 0; k < 1 + round % 4; k++) {
            x = x * 1664525u + 1013904223u;
            b[10 + (x >> 8) % (len - 10)] = (uint8_t)(x >> 24);
        }
        npy_t a;
        char err[128];
        if (npy_parse(b, len, &a, err, sizeof err) == 0) {
            parsed++;
            assert_true(a.data >= b && a.data + a.count * a.itemsize == b + len);
        } else {
            assert_true(err[0] != 0);
        }
        free(b);
    }
    assert_true(parsed > 0); /* some corruptions only touch padding */
    free(good);
}

static void test_writer(void **state) {
    (void)state;
    uint8_t hdr[NPY_HEADER_MAX];
    uint64_t shape[3] = {256, 32, 7};
    size_t n = npy_header(NPY_F4, shape, 2, hdr);
    /* numpy.save's exact bytes for a (256, 32) float32 array: the dict padded to 128 bytes. */
    const char *want = "{'descr': '<f4', 'fortran_order': False, 'shape': (256, 32), }";
    assert_int_equal(n, 128);
    assert_memory_equal(hdr, "\x93NUMPY\x01\x00\x76\x00", 10);
    assert_memory_equal(hdr + 10, want, strlen(want));
    for (size_t i = 10 + strlen(want); i < n - 1; i++)
        assert_int_equal(hdr[i], ' ');
    assert_int_equal(hdr[n - 1], '\n');
    /* One dimension writes "(5,)", and what is written reads back. */
    for (int nd = 1; nd <= 3; nd++) {
        n = npy_header(NPY_U1, shape, nd, hdr);
        assert_int_equal(n % 64, 0);
        size_t count = 1;
        for (int i = 0; i < nd; i++)
            count *= shape[i];
        uint8_t *b = calloc(1, n + count);
        assert_non_null(b);
        memcpy(b, hdr, n);
        npy_t a;
        assert_string_equal(parse(b, n + count, &a), "");
        assert_int_equal(a.type, NPY_U1);
        assert_int_equal(a.ndim, nd);
        assert_int_equal(a.count, count);
        free(b);
    }
    n = npy_header(NPY_I2, shape, 1, hdr);
    assert_non_null(strstr((char *)hdr + 10, "'shape': (256,), }"));
}

/* A file larger than a huge page read whole (ldr_read_file_max puts it in ldr_alloc_large's
 * buffer, on a 2 MiB boundary), parsed, every element where it was written, NUL-terminated; and
 * ldr_alloc_large's small and large buffers usable to their last byte (ASan checks the bounds
 * under `make test-asan`). */
/* ldr_alloc_large rounds a large size up to whole 2 MiB: a size whose rounding would wrap is refused
 * (NULL), not given a smaller buffer. */
static void test_alloc_large_refuses_wrap(void **state) {
    (void)state;
    assert_null(ldr_alloc_large(SIZE_MAX));
    assert_null(ldr_alloc_large(SIZE_MAX - (1u << 20)));
}

static void test_large_file(void **state) {
    (void)state;
    uint64_t shape[2] = {1536, 1024}; /* 1.5 Mi float32: 6 MiB of data */
    uint8_t hdr[NPY_HEADER_MAX];
    size_t hl = npy_header(NPY_U4, shape, 2, hdr), count = (size_t)(shape[0] * shape[1]);
    char path[] = "/tmp/ttemu-test-npy-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(hdr, 1, hl, f), hl);
    for (uint32_t i = 0; i < count; i++) {
        uint8_t le[4] = {(uint8_t)(i * 2654435761u), (uint8_t)(i * 2654435761u >> 8), (uint8_t)(i * 2654435761u >> 16),
                         (uint8_t)(i * 2654435761u >> 24)};
        assert_int_equal(fwrite(le, 1, 4, f), 4);
    }
    assert_int_equal(fclose(f), 0);
    size_t len;
    char err[256];
    char *buf = ldr_read_file_max(path, LDR_MAX_NPY, "a .npy file", &len, err, sizeof err);
    unlink(path);
    assert_non_null(buf);
    assert_int_equal(len, hl + 4 * count);
    assert_int_equal(buf[len], 0);
    assert_int_equal((uintptr_t)buf % (2u << 20), 0);
    npy_t a;
    assert_string_equal(parse((const uint8_t *)buf, len, &a), "");
    assert_int_equal(a.count, count);
    for (uint32_t i = 0; i < count; i += 4099) {
        uint32_t v;
        memcpy(&v, a.data + 4 * (size_t)i, 4);
        assert_int_equal(v, i * 2654435761u);
    }
    free(buf);
    for (size_t n = 1; n <= (5u << 20); n = n * 3 + 1) {
        uint8_t *p = ldr_alloc_large(n);
        assert_non_null(p);
        p[0] = 1, p[n - 1] = 2;
        if (n >= (1u << 20)) assert_int_equal((uintptr_t)p % (2u << 20), 0);
        free(p);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numpy_header), cmocka_unit_test(test_spellings),
        cmocka_unit_test(test_refusals),     cmocka_unit_test(test_preamble),
        cmocka_unit_test(test_corruptions),  cmocka_unit_test(test_writer),
        cmocka_unit_test(test_large_file),   cmocka_unit_test(test_alloc_large_refuses_wrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
