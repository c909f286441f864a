/* fuzz/fuzz_npy.c — libFuzzer target: the .npy reader (loader/npy.c) on any bytes, and, for what it
 * accepts, the conversion of its values into every tensor format of its shape (loader/tensor.c:
 * Fortran order, range checks, the formats library). Besides the sanitizers' findings it checks
 * the reader's promises (loader/npy.h): a refusal gives a reason, an accepted array's data lies
 * inside the buffer and fills it to the end. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/npy.h"
#include "loader/tensor.h"

#define MAX_INPUT (1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > MAX_INPUT) return 0;
    /* A copy of exactly size bytes, so ASan sees any read past the end. */
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) return 0;
    memcpy(buf, data, size);
    npy_t a;
    char err[256] = "";
    if (npy_parse(buf, size, &a, err, sizeof err) != 0) {
        if (!err[0]) {
            fprintf(stderr, "refusal without a reason\n");
            abort();
        }
        free(buf);
        return 0;
    }
    if (a.data < buf || a.data + a.count * a.itemsize != buf + size) {
        fprintf(stderr, "accepted array's data is not the rest of the buffer\n");
        abort();
    }
    /* Its values into each format, as a tensor of its shape (rows; tiles when the shape allows). */
    if (a.ndim >= 1 && a.ndim <= TNS_MAX_DIMS && a.count) {
        uint32_t shape[TNS_MAX_DIMS];
        bool ok = true;
        for (int i = 0; i < a.ndim; i++) {
            ok = ok && a.shape[i] <= 0xFFFFFFFFu;
            shape[i] = (uint32_t)a.shape[i];
        }
        for (int f = 0; ok && f < TNS_NFORMATS; f++)
            for (int tiles = 0; tiles < 2; tiles++) {
                tns_desc_t d;
                if (tns_desc_init(&d, (tns_format_t)f, tiles, shape, a.ndim, 4u * MAX_INPUT, err, sizeof err)) continue;
                uint8_t *rm = malloc(d.bytes), *st = malloc(d.bytes), *back = malloc(d.bytes);
                if (rm && st && back && tns_from_npy(&d, &a, rm, err, sizeof err) == 0) {
                    tns_tilize(&d, rm, st);
                    tns_untilize(&d, st, back);
                    if (memcmp(rm, back, d.bytes) != 0) {
                        fprintf(stderr, "untilize(tilize(x)) != x\n");
                        abort();
                    }
                    tns_cmp_t c;
                    tns_compare(&d, rm, back, 0, 0, &c);
                    if (c.mismatches) {
                        fprintf(stderr, "a tensor differs from itself\n");
                        abort();
                    }
                }
                free(rm);
                free(st);
                free(back);
            }
    }
    free(buf);
    return 0;
}
