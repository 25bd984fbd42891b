/* test_util.h - shared test helpers: shapes, seeded random data with special values. */
#ifndef CLSEL_TESTS_TEST_UTIL_H
#define CLSEL_TESTS_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "clsel.h"

/* A shape from a dims list: SHAPE(2, 3, 4); SCALAR is rank 0. */
clsel_shape shape_make(const int64_t *dims, int rank);
#define SHAPE(...)                             \
    shape_make((const int64_t[]){__VA_ARGS__}, \
               (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define SCALAR shape_make(NULL, 0)

int shape_equal(const clsel_shape *a, const clsel_shape *b);
int64_t shape_count(const clsel_shape *s);

/* Every valid then/else dtype, in enum order. */
extern const clsel_dtype all_dtypes[13];

/* A small seeded generator (splitmix64), the same sequence on every platform. */
typedef struct rng {
    uint64_t state;
} rng;
uint64_t rng_next(rng *r);
uint64_t rng_below(rng *r, uint64_t n); /* uniform in [0, n) */

/* Random element bits of width w, with IEEE special patterns (NaN payloads, signalling
 * NaNs, -0.0, infinities, denormals for f16, bf16, f32 and f64) mixed in. */
void fill_values(void *data, size_t count, size_t w, rng *r);

/* cond bytes: 0x00 half the time, otherwise one of 0x01, 0x02, 0x80, 0xFF or random
 * nonzero. */
void fill_cond(uint8_t *cond, size_t count, rng *r);

/* Random inputs for a plan (cond bytes from fill_cond, values from fill_values) and two
 * output buffers: `want` for the reference, `got` for the path under test. */
typedef struct test_data {
    size_t w;          /* element size */
    int64_t count[3];  /* elements of cond, then, else */
    int64_t out_count; /* elements of the output */
    uint8_t *cond, *then_data, *else_data, *want, *got;
} test_data;

void test_data_make(test_data *d, const clsel_plan *plan, uint64_t seed);
void test_data_free(test_data *d);

/* Runs d's plan on the CPU path with `opt` (NULL: defaults) into `got`, which holds the
 * output and TEST_GUARD_BYTES more; 1 when the call succeeded, the output equals d->want
 * bit for bit, and the guard bytes after it are untouched. */
enum {
    TEST_GUARD_BYTES = 64
};
/* clsel_cpu_options_default() with these fields. */
clsel_cpu_options test_cpu_options(int32_t threads, clsel_parallel_for parallel_for, void *pool);
int test_cpu_run_matches(const clsel_plan *plan, const test_data *d, uint8_t *got,
                         const clsel_cpu_options *opt);

/* malloc that never returns NULL for size 0 and aborts the test on failure. */
void *test_alloc(size_t size);

/* The files in `folder` (names not starting with '.'; 0 when it cannot be read), the path of the
 * last one read in last[size] when `last` is not NULL. */
int test_files_in(const char *folder, char *last, size_t size);
/* Removes them, one at a time, until none is left or one cannot be removed (a folder). */
void test_remove_files_in(const char *folder);

#endif
