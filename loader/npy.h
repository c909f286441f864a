/* loader/npy.h — NumPy's .npy file format (versions 1.0 and 2.0; numpy/lib/format.py describes it),
 * read and written as pure functions over byte buffers: no file I/O here, so the reader can be
 * fuzzed and unit-tested on bytes alone (test/unit/test_npy.c). docs/tensors.md lists what is
 * accepted.
 *
 * A file is the magic "\x93NUMPY", a version (major, minor), the header length (2 bytes little
 * endian in 1.0, 4 in 2.0), the header — a Python dict literal such as
 * {'descr': '<f4', 'fortran_order': False, 'shape': (32, 64), } padded with spaces and ended by a
 * newline — and then the array's bytes.
 */
#ifndef TTEMU_LOADER_NPY_H
#define TTEMU_LOADER_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NPY_MAX_DIMS 8

/* The element types ttemu reads and writes: little-endian (or single-byte) numbers. */
typedef enum {
    NPY_F2, /* '<f2' float16 */
    NPY_F4, /* '<f4' float32 */
    NPY_F8, /* '<f8' float64: recognised only to refuse it with a clear message */
    NPY_I1, /* '|i1' */
    NPY_U1, /* '|u1' */
    NPY_I2, /* '<i2' */
    NPY_U2, /* '<u2' */
    NPY_I4, /* '<i4' */
    NPY_U4, /* '<u4' */
    NPY_I8, /* '<i8' */
    NPY_U8, /* '<u8' */
    NPY_NTYPES
} npy_type_t;

typedef struct {
    npy_type_t type;
    unsigned itemsize; /* bytes per element */
    int ndim;          /* 0 (a scalar) .. NPY_MAX_DIMS */
    uint64_t shape[NPY_MAX_DIMS];
    uint64_t count;      /* elements: the product of shape (1 for a scalar) */
    bool fortran_order;  /* column-major: the data's first index varies fastest */
    const uint8_t *data; /* into the parsed buffer: count * itemsize bytes */
} npy_t;

/* The descr string of a type ('<f4', '|u1', ...) and its name in NumPy ("float32", ...). */
const char *npy_descr(npy_type_t t);
const char *npy_type_name(npy_type_t t);
unsigned npy_itemsize(npy_type_t t);

/* Parse a whole .npy file held in buf[0..len). 0 with *out filled (out->data points into buf), or
 * -1 with a one-line reason in err (the caller adds the file name): not a .npy file, a version
 * other than 1.0/2.0, a malformed header, a big-endian or unsupported dtype, a shape whose size
 * overflows, or data shorter or longer than the shape says. Never reads outside buf. */
int npy_parse(const uint8_t *buf, size_t len, npy_t *out, char *err, size_t errlen);

/* Write the preamble and header of a version 1.0 file for a C-order array of type t and the given
 * shape into hdr (at least NPY_HEADER_MAX bytes). Returns its length (a multiple of 64, as NumPy
 * writes it); the array's bytes follow it in the file. */
#define NPY_HEADER_MAX 256
size_t npy_header(npy_type_t t, const uint64_t *shape, int ndim, uint8_t *hdr);

#endif
