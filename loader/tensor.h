/* loader/tensor.h — named tensors as the host sees them (docs/tensors.md): element formats, the two
 * layouts in L1 (rows, and tt-metal's tiles), the host's conversions of .npy arrays into a tensor's
 * format and back, and the comparison of a tensor with an expectation. Pure functions over byte
 * buffers, tested on their own (test/unit/test_tensor.c); the files and the points of a run at
 * which the host moves tensors are loader/hostio.c's business. Every conversion between number
 * formats is the formats library's (coproc/formats.h); this file only chooses which to call. */
#ifndef TTEMU_LOADER_TENSOR_H
#define TTEMU_LOADER_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/npy.h"

typedef enum {
    TNS_BF16,
    TNS_FP16,
    TNS_FP32,
    TNS_INT32,
    TNS_UINT32,
    TNS_INT16,
    TNS_UINT16,
    TNS_INT8,
    TNS_UINT8,
    TNS_BFP8, /* "bfloat8_b": tiles only; elements travel as bf16 patterns (below) */
    TNS_NFORMATS
} tns_format_t;

/* The config's name of a format ("bfloat16"), -1 for an unknown name. */
int tns_format_by_name(const char *name);
const char *tns_format_name(tns_format_t f);
unsigned tns_format_size(tns_format_t f);
bool tns_format_is_float(tns_format_t f);
/* The type an output .npy holds: float32 for the float formats (every value exact), else the
 * format's own integer type. */
npy_type_t tns_output_type(tns_format_t f);
/* The names of every format, ", "-separated, for error messages. */
const char *tns_format_names(void);

#define TNS_MAX_DIMS 4
#define TNS_TILE     32 /* tiles are TNS_TILE x TNS_TILE elements of four 16 x 16 faces */
#define TNS_FACE     16

typedef struct {
    tns_format_t format;
    bool tiles; /* tt-metal's tile layout; false: rows (row-major) */
    int ndim;
    uint32_t shape[TNS_MAX_DIMS];
    uint64_t rows, cols; /* cols: the last dimension; rows: the product of the others */
    uint64_t count;      /* elements */
    uint64_t bytes;      /* in L1 */
    uint64_t elem_bytes; /* the row-major elements the host converts (count x the format's size;
                            bytes but for bfloat8_b, whose elements are bf16 patterns) */
} tns_desc_t;

/* Describe a tensor; -1 with the reason in err when the shape is empty, has a zero, is too large
 * (more than max_bytes), or does not suit the tiles layout (at least two dimensions, the last two
 * multiples of 32). */
int tns_desc_init(tns_desc_t *d, tns_format_t f, bool tiles, const uint32_t *shape, int ndim, uint64_t max_bytes,
                  char *err, size_t errlen);
/* "[32, 64]" into buf. */
void tns_shape_str(const tns_desc_t *d, char *buf, size_t n);

/* Where element (row, col) of the logical [rows, cols] matrix is stored, as an element index:
 * row * cols + col for rows; for tiles, tt-metal's order: 32 x 32 tiles row-major, in each tile
 * four 16 x 16 faces (0, 1 across the top half, 2, 3 across the bottom), each face row-major. */
uint64_t tns_stored_index(const tns_desc_t *d, uint64_t row, uint64_t col);
/* Row-major elements (d->elem_bytes) -> the tensor's L1 bytes (d->bytes), and back. For rows both
 * are copies; tilize then untilize is the identity. bfloat8_b (tt-metal's Bfp8_b): per tile, the
 * exponent section (one byte per face row of 16 elements, 64 bytes) then one byte per element;
 * the host's bf16 elements become blocks with the packer's rounding (coproc/formats.c
 * fmt_bfp_pack) and come back exactly (fmt_bfp_unpack), so values that are exact in bfloat8_b
 * survive the round trip. */
void tns_tilize(const tns_desc_t *d, const uint8_t *rowmajor, uint8_t *stored);
void tns_untilize(const tns_desc_t *d, const uint8_t *stored, uint8_t *rowmajor);

/* An array's values into the tensor's format, row-major (d->bytes bytes in elems). The shapes must
 * agree once leading dimensions of 1 are dropped. A float32 array is rounded to the tensor's
 * format (to nearest, ties to even); float16 is exact in float32 and rounded once from there; a
 * uint16 array fills a bfloat16/float16 tensor with raw bits, a uint32 array a float32 tensor;
 * integer arrays fill integer tensors when every value fits. -1 with the reason in err otherwise
 * (naming the first element that does not fit). */
int tns_from_npy(const tns_desc_t *d, const npy_t *a, uint8_t *elems, char *err, size_t errlen);
/* The array's data when it already is the tensor's row-major elements byte for byte (the shapes
 * agree; C order; raw bits, float32 into float32 or float16 into float16: what tns_from_npy would
 * copy), so that a caller can use it in place; NULL otherwise. */
const uint8_t *tns_npy_elems(const tns_desc_t *d, const npy_t *a);
/* Row-major elements into an output array's data (tns_output_type; d->count of them). */
void tns_to_output(const tns_desc_t *d, const uint8_t *elems, uint8_t *out);

/* Element i's bit pattern (zero-extended) and value (NaN and ±Inf included; exact in a double). */
uint32_t tns_bits(tns_format_t f, const uint8_t *elems, uint64_t i);
double tns_value(tns_format_t f, uint32_t bits);
bool tns_is_nan(tns_format_t f, uint32_t bits);
/* The multi-dimensional index of row-major element i, as numbers and as "[1, 31]". */
void tns_unravel(const tns_desc_t *d, uint64_t i, uint64_t idx[TNS_MAX_DIMS]);
void tns_index_str(const tns_desc_t *d, uint64_t i, char *buf, size_t n);

/* Comparing a tensor with an expectation, element by element in the tensor's format
 * (docs/tensors.md, "Comparison"). Without tolerances (both 0) an element matches when its bit
 * pattern equals the expected one, or both are NaN; with them it also matches when both are finite
 * and |got - want| <= atol + rtol * |want|. The statistics cover every element, matching or not. */
typedef struct {
    double atol, rtol;
    uint64_t elements, mismatches;
    double max_abs_err; /* over elements both finite */
    double max_rel_err; /* |got - want| / |want| over elements both finite with want != 0 */
    uint64_t max_ulp;   /* float formats: steps between the two patterns on the format's number line
                           (-0 and +0 are one point), over elements neither NaN; integers: |got - want| */
    bool has_first;     /* first_*: the first mismatching element (row-major) */
    uint64_t first_index;
    uint32_t first_got, first_want;
} tns_cmp_t;
void tns_compare(const tns_desc_t *d, const uint8_t *got, const uint8_t *want, double atol, double rtol, tns_cmp_t *c);

#endif
