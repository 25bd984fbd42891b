/* bench_copy_cpu.c - see bench_copy_cpu.h. */
#include "bench_copy_cpu.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* One thread's part of a timed memory pass: a copy (memcpy), a fill (what writing
 * alone costs) or a read (what reading alone costs). */
typedef enum pass_kind { PASS_COPY, PASS_FILL, PASS_READ } pass_kind;

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
    for (; i + 32 <= bytes && ((uintptr_t)(dst + i) & 31); ++i) dst[i] = 7;
    for (; i + 32 <= bytes; i += 32) _mm256_stream_si256((__m256i *)(dst + i), v);
    for (; i < bytes; ++i) dst[i] = 7;
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
    for (size_t i = 3 * third; i < bytes; ++i) x ^= src[i];
    return x;
}
static int has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#else
static void fill_avx2(uint8_t *dst, size_t bytes) { memset(dst, 7, bytes); }
static uint64_t read_avx2(const uint8_t *src, size_t bytes)
{
    uint64_t x = 0;
    for (size_t i = 0; i < bytes; ++i) x ^= src[i];
    return x;
}
static int has_avx2(void) { return 0; }
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
static void parallel_pass(uint8_t *dst, const uint8_t *src, size_t bytes, int threads, pass_kind kind)
{
    pthread_t ids[256];
    copy_part parts[256];
    if (threads < 1) threads = 1;
    size_t chunk = bytes / (size_t)threads / 64 * 64;
    for (int i = 0; i < threads; ++i) {
        size_t begin = chunk * (size_t)i, end = i + 1 == threads ? bytes : begin + chunk;
        parts[i] = (copy_part){dst + begin, src + begin, end - begin, kind, 0};
        if (i && pthread_create(&ids[i], NULL, copy_part_main, &parts[i]) != 0) copy_part_main(&parts[i]), ids[i] = 0;
    }
    copy_part_main(&parts[0]);
    for (int i = 1; i < threads; ++i)
        if (ids[i]) pthread_join(ids[i], NULL);
}

static void parallel_memcpy(uint8_t *dst, const uint8_t *src, size_t bytes, int threads)
{
    if (threads <= 1)
        memcpy(dst, src, bytes);
    else
        parallel_pass(dst, src, bytes, threads, PASS_COPY);
}

/* Bandwidth of a fill or a read of the buffers (median of the runs), bytes written or
 * read per second. */
static double pass_gbps(uint8_t *dst, const uint8_t *src, size_t bytes, int threads, pass_kind kind, int repeat)
{
    double samples[256];
    if (repeat > 256) repeat = 256;
    for (int r = 0; r < repeat + 2; ++r) {
        double t0 = bench_now_ms();
        parallel_pass(dst, src, bytes, threads, kind);
        double t = bench_now_ms() - t0;
        if (r >= 2) samples[r - 2] = t;
    }
    return (double)bytes / (bench_median(samples, repeat) * 1e6);
}

/* memcpy bandwidth (median of the runs), STREAM convention (bytes read + bytes
 * written). With threads > 1 the copy is split the same way. */
static double memcpy_gbps(const bench_cpu_copy *copy, int repeat)
{
    uint8_t *src = copy->src, *dst = copy->dst;
    const size_t bytes = copy->bytes;
    double samples[256];
    if (repeat > 256) repeat = 256;
    for (int r = 0; r < repeat + 2; ++r) {
        double t0 = bench_now_ms();
        if (copy->threads > 1)
            parallel_memcpy(dst, src, bytes, copy->threads);
        else
            memcpy(dst, src, bytes);
        double t = bench_now_ms() - t0;
        if (r >= 2) samples[r - 2] = t;
    }
    return 2.0 * (double)bytes / (bench_median(samples, repeat) * 1e6);
}

int bench_cpu_copy_open(bench_cpu_copy *copy, size_t bytes, int threads)
{
    copy->bytes = bytes;
    copy->threads = threads;
    copy->src = malloc(bytes);
    copy->dst = malloc(bytes);
    if (!copy->src || !copy->dst) return -1;
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

void bench_cpu_copy_measure(const bench_cpu_copy *copy, int repeat, double *copy_gbps, double *write_gbps,
                            double *read_gbps)
{
    *copy_gbps = memcpy_gbps(copy, repeat);
    *write_gbps = pass_gbps(copy->dst, copy->src, copy->bytes, copy->threads, PASS_FILL, repeat);
    *read_gbps = pass_gbps(copy->dst, copy->src, copy->bytes, copy->threads, PASS_READ, repeat);
}

double bench_cpu_copy_once_ms(const bench_cpu_copy *copy)
{
    double s = bench_now_ms();
    parallel_memcpy(copy->dst, copy->src, copy->bytes, copy->threads);
    return bench_now_ms() - s;
}
