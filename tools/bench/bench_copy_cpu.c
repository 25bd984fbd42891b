/* bench_copy_cpu.c - see bench_copy_cpu.h. */
#include "bench_copy_cpu.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* One thread's part of a timed memory pass: a copy (memcpy), a fill (what writing
 * alone costs) or a read (what reading alone costs). */
typedef enum pass_kind {
    PASS_COPY,
    PASS_FILL,
    PASS_READ
} pass_kind;

typedef struct copy_part {
    uint8_t *dst;
    const uint8_t *src;
    size_t bytes;
    pass_kind kind;
    uint64_t sink;
} copy_part;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
/* The fill and the read as the CPU path writes and reads: 32 bytes at a time, the
 * fill with non-temporal stores. */
__attribute__((target("avx2"))) static void fill_avx2(uint8_t *dst, size_t bytes)
{
    const __m256i v = _mm256_set1_epi8(7);
    size_t i = 0;
    for (; i + 32 <= bytes && ((uintptr_t)(dst + i) & 31); ++i)
        dst[i] = 7;
    for (; i + 32 <= bytes; i += 32)
        _mm256_stream_si256((__m256i *)(dst + i), v);
    for (; i < bytes; ++i)
        dst[i] = 7;
    _mm_sfence();
}
/* Three streams at once, as Select reads cond, then and else: one stream alone reads
 * slower on the CI box (16 GB/s against 20-23 for three), and would understate what
 * reading costs a select. */
__attribute__((target("avx2"))) static uint64_t read_avx2(const uint8_t *src, size_t bytes)
{
    const size_t third = bytes / 3 / 32 * 32;
    const uint8_t *p = src, *q = src + third, *r = src + 2 * third;
    __m256i a = _mm256_setzero_si256(), b = a, c = a;
    for (size_t i = 0; i < third; i += 32) {
        a = _mm256_xor_si256(a, _mm256_loadu_si256((const __m256i *)(p + i)));
        b = _mm256_xor_si256(b, _mm256_loadu_si256((const __m256i *)(q + i)));
        c = _mm256_xor_si256(c, _mm256_loadu_si256((const __m256i *)(r + i)));
    }
    a = _mm256_xor_si256(_mm256_xor_si256(a, b), c);
    uint64_t lanes[4];
    _mm256_storeu_si256((__m256i *)lanes, a);
    uint64_t x = lanes[0] ^ lanes[1] ^ lanes[2] ^ lanes[3];
    for (size_t i = 3 * third; i < bytes; ++i)
        x ^= src[i];
    return x;
}
static int has_avx2(void)
{
    return __builtin_cpu_supports("avx2");
}
#else
static void fill_avx2(uint8_t *dst, size_t bytes)
{
    memset(dst, 7, bytes);
}
static uint64_t read_avx2(const uint8_t *src, size_t bytes)
{
    uint64_t x = 0;
    for (size_t i = 0; i < bytes; ++i)
        x ^= src[i];
    return x;
}
static int has_avx2(void)
{
    return 0;
}
#endif

static void *copy_part_main(void *arg)
{
    copy_part *p = arg;
    if (p->kind == PASS_COPY)
        memcpy(p->dst, p->src, p->bytes);
    else if (p->kind == PASS_FILL)
        has_avx2() ? fill_avx2(p->dst, p->bytes) : (void)memset(p->dst, 7, p->bytes);
    else
        p->sink = read_avx2(p->src, p->bytes);
    return NULL;
}

/* A memory pass split over `threads` threads, the calling one among them. */
static void parallel_pass(uint8_t *dst, const uint8_t *src, size_t bytes, int threads,
                          pass_kind kind)
{
    enum {
        MOST_PARTS = 256
    };
    pthread_t ids[MOST_PARTS];
    copy_part parts[MOST_PARTS];
    threads = threads < 1 ? 1 : threads > MOST_PARTS ? MOST_PARTS : threads;
    const size_t chunk = bytes / (size_t)threads / 64 * 64;
    /* the calling thread's part first, then one thread per other part */
    parts[0] = (copy_part){dst, src, threads == 1 ? bytes : chunk, kind, 0};
    for (int i = 1; i < threads; ++i) {
        const size_t begin = chunk * (size_t)i, end = i + 1 == threads ? bytes : begin + chunk;
        parts[i] = (copy_part){dst + begin, src + begin, end - begin, kind, 0};
        if (pthread_create(&ids[i], NULL, copy_part_main, &parts[i]) != 0) {
            copy_part_main(&parts[i]);
            ids[i] = 0;
        }
    }
    copy_part_main(&parts[0]);
    for (int i = 1; i < threads; ++i)
        if (ids[i])
            pthread_join(ids[i], NULL);
}

static void parallel_memcpy(uint8_t *dst, const uint8_t *src, size_t bytes, int threads)
{
    if (threads <= 1)
        memcpy(dst, src, bytes);
    else
        parallel_pass(dst, src, bytes, threads, PASS_COPY);
}

/* One pass of `kind` over the copy's buffers, as a timed run. */
typedef struct pass_run {
    const bench_cpu_copy *copy;
    pass_kind kind;
} pass_run;

static int run_pass(void *state, double *device_ms)
{
    const pass_run *p = state;
    (void)device_ms;
    if (p->kind == PASS_COPY)
        parallel_memcpy(p->copy->dst, p->copy->src, p->copy->bytes, p->copy->threads);
    else
        parallel_pass(p->copy->dst, p->copy->src, p->copy->bytes, p->copy->threads, p->kind);
    return 0;
}

/* Bytes per second of a pass (median of the runs): written or read for a fill or a read,
 * read and written (STREAM convention) for the copy, split over threads the same way. */
static double pass_gbps(const bench_cpu_copy *copy, pass_kind kind, int repeat)
{
    pass_run pass = {copy, kind};
    const double ms = bench_median_ms(run_pass, &pass, repeat);
    return ms > 0 ? (kind == PASS_COPY ? 2.0 : 1.0) * (double)copy->bytes / (ms * 1e6) : 0;
}

int bench_cpu_copy_open(bench_cpu_copy *copy, size_t bytes, int threads)
{
    copy->bytes = bytes;
    copy->threads = threads;
    copy->src = malloc(bytes);
    copy->dst = malloc(bytes);
    if (!copy->src || !copy->dst)
        return -1;
    memset(copy->src, 1, bytes);
    memset(copy->dst, 2, bytes);
    return 0;
}

void bench_cpu_copy_close(bench_cpu_copy *copy)
{
    free(copy->src);
    free(copy->dst);
    copy->src = copy->dst = NULL;
}

void bench_cpu_copy_measure(const bench_cpu_copy *copy, int repeat, double *copy_gbps,
                            double *write_gbps, double *read_gbps)
{
    *copy_gbps = pass_gbps(copy, PASS_COPY, repeat);
    *write_gbps = pass_gbps(copy, PASS_FILL, repeat);
    *read_gbps = pass_gbps(copy, PASS_READ, repeat);
}

int bench_cpu_copy_run(void *copy, double *device_ms)
{
    pass_run pass = {copy, PASS_COPY};
    return run_pass(&pass, device_ms);
}
