/* npy.h - a small reader and writer of NumPy .npy files (format versions 1.0, 2.0 and
 * 3.0), C order, little-endian, for the dtypes clsel has:
 *   |b1 boolean, |u1 u8, |i1 i8, <u2 u16, <i2 i16, <f2 f16, <u4 u32, <i4 i32, <f4 f32,
 *   <u8 u64, <i8 i64, <f8 f64, and the 2-byte void |V2 / <V2 as bf16.
 * Fortran-order files are read as they are, their data untouched (fortran_order says
 * so: the strides are then the reverse of C order's). Everything else (big-endian
 * data, object and structured arrays, more
 * than CLSEL_MAX_RANK dims, truncated or malformed files, data that does not match the
 * header) is rejected with a message naming the file and the problem. */
#ifndef CLSEL_TOOLS_NPY_H
#define CLSEL_TOOLS_NPY_H

#include <stddef.h>

#include "clsel.h"

typedef struct npy_array {
    clsel_dtype dtype;
    clsel_shape shape;
    void *data; /* malloc'd, dense: C order, or Fortran order where fortran_order is set */
    int fortran_order;
    size_t bytes;
} npy_array;

/* 0 on success. On failure *out is empty and `err` holds "NAME: problem". */
int npy_read(const char *path, npy_array *out, char *err, size_t err_size);

/* The same from memory; `name` is used in messages. */
int npy_parse(const unsigned char *file, size_t size, const char *name, npy_array *out, char *err,
              size_t err_size);

/* Writes `a` as version 1.0 (2.0 if the header needs it) to the open file `f`;
 * 0 on success, else a message in `err`. */
int npy_write_file(void *f /* FILE* */, const npy_array *a, char *err, size_t err_size);

/* The .npy type string clsel writes for a dtype ("<f4", "|b1", "|V2" for bf16). */
const char *npy_descr(clsel_dtype dtype);

void npy_free(npy_array *a);

#endif
