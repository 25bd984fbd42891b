/* bench_cpu.c - the CPU path's figures, against memcpy on the same machine. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cpu.h"

/* The memcpy buffers, far larger than the caches and initialized. */
typedef struct copy_buffers {
    uint8_t *src, *dst;
    size_t bytes;
} copy_buffers;

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
static double memcpy_gbps(const copy_buffers *copy, int threads, int repeat)
{
    uint8_t *src = copy->src, *dst = copy->dst;
    const size_t bytes = copy->bytes;
    double samples[256];
    if (repeat > 256) repeat = 256;
    for (int r = 0; r < repeat + 2; ++r) {
        double t0 = bench_now_ms();
        if (threads > 1)
            parallel_memcpy(dst, src, bytes, threads);
        else
            memcpy(dst, src, bytes);
        double t = bench_now_ms() - t0;
        if (r >= 2) samples[r - 2] = t;
    }
    return 2.0 * (double)bytes / (bench_median(samples, repeat) * 1e6);
}

static double timed_memcpy(const copy_buffers *copy, int threads)
{
    double s = bench_now_ms();
    parallel_memcpy(copy->dst, copy->src, copy->bytes, threads);
    return bench_now_ms() - s;
}

struct bench_cpu_env {
    copy_buffers copy;
    int threads;
    double read_gbps, write_gbps;
};

void bench_cpu_time(bench_cpu_env *env, const bench_options *o, const clsel_plan *plan, const bench_inputs *in,
                    bench_result *r)
{
    void *out = malloc(clsel_plan_output_bytes(plan) + 1);
    double *samples = calloc((size_t)o->repeat, sizeof *samples);
    double *copy_samples = calloc((size_t)o->repeat, sizeof *copy_samples);
    if (!out || !samples || !copy_samples) {
        snprintf(r->error, sizeof r->error, "out of memory");
    } else {
        clsel_cpu_options cpu = clsel_cpu_options_default();
        cpu.threads = env->threads;
        double t0 = bench_now_ms();
        clsel_status st = clsel_plan_run_cpu_options(plan, in->cond, in->then_data, in->else_data, out, &cpu);
        r->first_call_ms = bench_now_ms() - t0;
        for (int k = 0; k < 2 && st == CLSEL_SUCCESS; ++k)
            st = clsel_plan_run_cpu_options(plan, in->cond, in->then_data, in->else_data, out, &cpu);
        const int interleave = bench_interleaved(r->bytes);
        for (int k = 0; k < o->repeat && st == CLSEL_SUCCESS; ++k) {
            double s = bench_now_ms();
            st = clsel_plan_run_cpu_options(plan, in->cond, in->then_data, in->else_data, out, &cpu);
            samples[k] = bench_now_ms() - s;
            if (interleave) copy_samples[k] = timed_memcpy(&env->copy, env->threads);
        }
        for (int k = 0; k < o->repeat && !interleave && st == CLSEL_SUCCESS; ++k)
            copy_samples[k] = timed_memcpy(&env->copy, env->threads);
        if (st != CLSEL_SUCCESS)
            snprintf(r->error, sizeof r->error, "%s", st == CLSEL_ERROR_OUT_OF_MEMORY ? "out of memory" : clsel_last_error());
        else
            bench_finish(r, samples, copy_samples, o->repeat, env->copy.bytes);
        bench_ceiling(r, env->read_gbps, env->write_gbps);
    }
    free(out);
    free(samples);
    free(copy_samples);
}

static void run_case(const bench_options *o, bench_cpu_env *env, const bench_case *c, bench_result *r)
{
    bench_inputs in;
    clsel_plan *plan = bench_case_prepare(o, c, &in, r);
    if (plan) bench_cpu_time(env, o, plan, &in, r);
    bench_case_release(plan, &in);
}

void bench_cpu_close(bench_cpu_env *env)
{
    if (!env) return;
    free(env->copy.src);
    free(env->copy.dst);
    free(env);
}

bench_cpu_env *bench_cpu_open(const bench_options *o, int threads, bench_report *report)
{
    memset(report, 0, sizeof *report);
    report->kind = "cpu";
    report->quick = o->quick;
    report->threads = threads;
    snprintf(report->device, sizeof report->device, "cpu (clsel C path, %d thread%s)", threads,
             threads == 1 ? "" : "s");
    bench_cpu_env *env = calloc(1, sizeof *env);
    if (!env) return NULL;
    env->threads = threads;
    env->copy.bytes = o->quick ? (size_t)16 << 20 : (size_t)256 << 20;
    env->copy.src = malloc(env->copy.bytes);
    env->copy.dst = malloc(env->copy.bytes);
    if (!env->copy.src || !env->copy.dst) {
        fprintf(stderr, "clsel bench: out of memory for the memcpy baseline\n");
        bench_cpu_close(env);
        return NULL;
    }
    memset(env->copy.src, 1, env->copy.bytes);
    memset(env->copy.dst, 2, env->copy.bytes);
    report->copy_gbps = memcpy_gbps(&env->copy, threads, o->repeat);
    report->write_gbps = pass_gbps(env->copy.dst, env->copy.src, env->copy.bytes, threads, PASS_FILL, o->repeat);
    report->read_gbps = pass_gbps(env->copy.dst, env->copy.src, env->copy.bytes, threads, PASS_READ, o->repeat);
    snprintf(report->copy_method, sizeof report->copy_method, "memcpy %.1f GB/s (%d thread%s)", report->copy_gbps,
             threads, threads == 1 ? "" : "s");
    env->read_gbps = report->read_gbps;
    env->write_gbps = report->write_gbps;
    fprintf(stderr, "bench cpu: %s; writing alone %.1f GB/s, reading alone %.1f GB/s\n", report->copy_method,
            report->write_gbps, report->read_gbps);
    return env;
}

/* What one clsel_plan_create costs (and its destroy): the rank-8 pattern of the named
 * case rank8, which collapses nothing and so takes the longest. */
static double plan_cost_us(void)
{
    enum { CALLS = 2000 };
    static const clsel_shape shapes[3] = {{8, {10, 1, 10, 1, 10, 1, 10, 1}},
                                          {8, {1, 6, 1, 6, 1, 6, 1, 6}},
                                          {8, {10, 6, 10, 6, 10, 6, 10, 6}}};
    static double samples[CALLS];
    for (int i = 0; i < CALLS; ++i) {
        clsel_plan *plan = NULL;
        const double t0 = bench_now_ms();
        const clsel_status st = clsel_plan_create(CLSEL_F32, &shapes[0], &shapes[1], &shapes[2], NULL, &plan);
        clsel_plan_destroy(plan);
        samples[i] = (bench_now_ms() - t0) * 1e3;
        if (st != CLSEL_SUCCESS) return -1;
    }
    return bench_median(samples, CALLS);
}

int bench_run_cpu(const bench_options *o, bench_report *report)
{
    bench_cpu_env *env = bench_cpu_open(o, o->threads, report);
    if (!env) return -1;
    report->plan_us = plan_cost_us();
    fprintf(stderr, "bench cpu: clsel_plan_create host cost %.2f us (median, rank 8)\n", report->plan_us);
    for (size_t i = 0; i < bench_case_count && report->count < sizeof report->results / sizeof report->results[0]; ++i) {
        if (!bench_selected(o, &bench_cases[i])) continue;
        bench_result *r = &report->results[report->count++];
        run_case(o, env, &bench_cases[i], r);
        bench_progress(report, r);
    }
    bench_cpu_close(env);
    return 0;
}
