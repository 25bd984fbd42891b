/* test_util.c - see test_util.h. */
#include "test_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const clsel_dtype all_dtypes[13] = {CLSEL_BOOLEAN, CLSEL_U8,   CLSEL_I8,  CLSEL_U16, CLSEL_I16,
                                    CLSEL_F16,     CLSEL_BF16, CLSEL_U32, CLSEL_I32, CLSEL_F32,
                                    CLSEL_U64,     CLSEL_I64,  CLSEL_F64};

clsel_shape shape_make(const int64_t *dims, int rank)
{
    clsel_shape s;
    memset(&s, 0, sizeof s);
    s.rank = rank;
    for (int i = 0; i < rank && i < CLSEL_MAX_RANK; ++i)
        s.dims[i] = dims[i];
    return s;
}

int shape_equal(const clsel_shape *a, const clsel_shape *b)
{
    if (a->rank != b->rank)
        return 0;
    for (int i = 0; i < a->rank; ++i)
        if (a->dims[i] != b->dims[i])
            return 0;
    return 1;
}

int64_t shape_count(const clsel_shape *s)
{
    int64_t n = 1;
    for (int i = 0; i < s->rank; ++i)
        n *= s->dims[i];
    return n;
}

uint64_t rng_next(rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t rng_below(rng *r, uint64_t n)
{
    return n ? rng_next(r) % n : 0;
}

static const uint16_t special16[] = {0x7E01, 0x7C01, 0xFC00, 0x7C00, 0x8000, 0x0001,
                                     0x03FF, 0x7FC1, 0xFF81, 0x7F80, 0x807F, 0x0000};
static const uint32_t special32[] = {0x7FC00001u, 0x7F800001u, 0xFFC12345u,
                                     0x80000000u, 0x00000001u, 0x007FFFFFu,
                                     0x7F800000u, 0xFF800000u, 0x00000000u};
static const uint64_t special64[] = {
    0x7FF8000000000001ull, 0x7FF0000000000001ull, 0xFFF8DEADBEEF0001ull,
    0x8000000000000000ull, 0x0000000000000001ull, 0x000FFFFFFFFFFFFFull,
    0x7FF0000000000000ull, 0xFFF0000000000000ull, 0x0ull};

void fill_values(void *data, size_t count, size_t w, rng *r)
{
    uint8_t *bytes = data;
    for (size_t i = 0; i < count; ++i) {
        uint64_t bits = rng_next(r);
        if (rng_below(r, 4) == 0) {
            if (w == 2)
                bits = special16[rng_below(r, sizeof special16 / sizeof special16[0])];
            if (w == 4)
                bits = special32[rng_below(r, sizeof special32 / sizeof special32[0])];
            if (w == 8)
                bits = special64[rng_below(r, sizeof special64 / sizeof special64[0])];
        }
        /* Little-endian copy of the low w bytes, the same on every host. */
        for (size_t b = 0; b < w; ++b)
            bytes[i * w + b] = (uint8_t)(bits >> (8 * b));
    }
}

void fill_cond(uint8_t *cond, size_t count, rng *r)
{
    static const uint8_t truthy[] = {0x01, 0x02, 0x80, 0xFF};
    for (size_t i = 0; i < count; ++i) {
        uint64_t pick = rng_below(r, 10);
        cond[i] = pick < 5 ? 0x00 : pick < 9 ? truthy[pick - 5] : (uint8_t)(1 + rng_below(r, 255));
    }
}

void *test_alloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p) {
        fprintf(stderr, "test_alloc(%zu) failed\n", size);
        exit(2);
    }
    return p;
}

void test_data_make(test_data *d, const clsel_plan *plan, uint64_t seed)
{
    rng r = {seed};
    d->w = clsel_dtype_size(clsel_plan_dtype(plan));
    for (int k = 0; k < 3; ++k)
        d->count[k] = clsel_plan_input_count(plan, (clsel_operand)k);
    d->out_count = clsel_plan_output_count(plan);
    d->cond = test_alloc((size_t)d->count[0]);
    d->then_data = test_alloc((size_t)d->count[1] * d->w);
    d->else_data = test_alloc((size_t)d->count[2] * d->w);
    d->want = test_alloc((size_t)d->out_count * d->w);
    d->got = test_alloc((size_t)d->out_count * d->w);
    fill_cond(d->cond, (size_t)d->count[0], &r);
    fill_values(d->then_data, (size_t)d->count[1], d->w, &r);
    fill_values(d->else_data, (size_t)d->count[2], d->w, &r);
    memset(d->want, 0xEE, (size_t)d->out_count * d->w);
    memset(d->got, 0xDD, (size_t)d->out_count * d->w);
}

void test_data_free(test_data *d)
{
    free(d->cond);
    free(d->then_data);
    free(d->else_data);
    free(d->want);
    free(d->got);
}

clsel_cpu_options test_cpu_options(int32_t threads, clsel_parallel_for parallel_for, void *pool)
{
    clsel_cpu_options o = clsel_cpu_options_default();
    o.threads = threads;
    o.parallel_for = parallel_for;
    o.pool = pool;
    return o;
}

int test_cpu_run_matches(const clsel_plan *plan, const test_data *d, uint8_t *got,
                         const clsel_cpu_options *opt)
{
    enum {
        GUARD = 0x5A
    };
    const size_t bytes = (size_t)d->out_count * d->w;
    memset(got, GUARD, bytes + TEST_GUARD_BYTES);
    if (clsel_plan_run_cpu_options(plan, d->cond, d->then_data, d->else_data, got, opt) !=
        CLSEL_SUCCESS)
        return 0;
    for (size_t i = 0; i < TEST_GUARD_BYTES; ++i)
        if (got[bytes + i] != GUARD)
            return 0;
    return memcmp(got, d->want, bytes) == 0;
}

int test_files_in(const char *folder, char *last, size_t size)
{
    int files = 0;
    DIR *d = opendir(folder);
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.') {
            if (last)
                snprintf(last, size, "%s/%s", folder, e->d_name);
            ++files;
        }
    closedir(d);
    return files;
}

void test_remove_files_in(const char *folder)
{
    char path[4096];
    while (test_files_in(folder, path, sizeof path) > 0 && remove(path) == 0)
        continue;
}
