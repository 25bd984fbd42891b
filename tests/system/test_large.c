/* test_large.c - tensors at the sizes where 32-bit indexing and single allocations give
 * out (ctest label "large"; each needs several GiB of memory and says so when the
 * machine lacks it):
 *
 *   test_large cpu       CPU path: 2^31 + 97 one-byte elements (indices past 2^31), and
 *                        an f64 output of 4 GiB + 40 bytes (byte offsets past 4 GiB)
 *   test_large opencl    clsel_cl_enqueue on an output of 2^31 one-byte elements: the
 *                        64-bit-index kernels, on a buffer at the device's limit
 *   test_large runtime   clsel_runtime_run on an output bigger than the device's
 *                        allocation limit: the chunked path, none of it rescued by the
 *                        CPU path
 *
 * Inputs follow formulas of the index, so results are checked element by element
 * without a second copy of the output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "test_cl.h"
#include "test_util.h"

#define GIB (1ull << 30)

/* Bytes the kernel says are available (MemAvailable), 0 if unknown. */
static unsigned long long available_bytes(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kib = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
            break;
    fclose(f);
    return kib * 1024;
}

/* Exits "skipped" unless `bytes` (plus a margin) are free. */
static void need_memory(unsigned long long bytes, const char *what)
{
    unsigned long long have = available_bytes();
    if (have && have < bytes + GIB) {
        printf("skipped: %s needs %.1f GiB of free memory, this machine has %.1f GiB\n", what,
               (double)(bytes + GIB) / GIB, (double)have / GIB);
        exit(TEST_SKIP);
    }
}

static uint8_t cond_at(uint64_t i)
{
    return (uint8_t)((i * 2654435761u) >> 13) & 1;
}
static uint8_t else_u8_at(uint64_t i)
{
    return (uint8_t)(i ^ (i >> 17));
}

static void *alloc_or_skip(size_t bytes, const char *what)
{
    void *p = malloc(bytes);
    if (!p) {
        printf("skipped: cannot allocate %zu bytes for %s\n", bytes, what);
        exit(TEST_SKIP);
    }
    return p;
}

/* u8, n elements: cond[n], then scalar, else[n]; returns how many elements differ. */
static uint64_t check_u8(const uint8_t *out, uint64_t n, uint8_t then_value)
{
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; ++i)
        bad += out[i] != (cond_at(i) ? then_value : else_u8_at(i));
    return bad;
}

static void test_cpu(void)
{
    /* 1-byte elements past 2^31: cond, else and out of 2 GiB + 97 bytes each. */
    const uint64_t n = (1ull << 31) + 97;
    need_memory(3 * n, "2^31 + 97 one-byte elements");
    uint8_t *cond = alloc_or_skip(n, "cond"), *e = alloc_or_skip(n, "else"),
            *out = alloc_or_skip(n, "out");
    for (uint64_t i = 0; i < n; ++i) {
        cond[i] = cond_at(i);
        e[i] = else_u8_at(i);
    }
    const uint8_t t = 0xA7;
    clsel_shape big = SHAPE((int64_t)n), one = SHAPE(1);
    CHECK_OK(clsel_select_cpu(CLSEL_U8, &big, cond, &one, &t, &big, e, NULL, out));
    uint64_t bad = check_u8(out, n, t);
    CHECK_MSG(bad == 0, "%llu of %llu elements wrong", (unsigned long long)bad,
              (unsigned long long)n);
    if (bad == 0)
        printf("CPU path: %llu u8 elements (past 2^31), exact\n", (unsigned long long)n);
    free(cond);
    free(e);
    free(out);

    /* 8-byte elements whose byte offsets pass 4 GiB: an output of 2^29 + 5 doubles. */
    const uint64_t m = (1ull << 29) + 5;
    need_memory(9 * m, "an f64 output past 4 GiB");
    cond = alloc_or_skip(m, "cond");
    uint64_t *o = alloc_or_skip(m * 8, "out");
    for (uint64_t i = 0; i < m; ++i)
        cond[i] = cond_at(i);
    const uint64_t yes = 0x7FF8DEADBEEF0001ull,
                   no = 0x8000000000000000ull; /* a NaN payload, -0.0 */
    clsel_shape longer = SHAPE((int64_t)m), scalar = SCALAR;
    clsel_attrs two_way = clsel_attrs_default(); /* cond alone sets the output's shape */
    two_way.cond_broadcast = CLSEL_COND_BIDIRECTIONAL;
    CHECK_OK(clsel_select_cpu(CLSEL_F64, &longer, cond, &scalar, &yes, &scalar, &no, &two_way, o));
    bad = 0;
    for (uint64_t i = 0; i < m; ++i)
        bad += o[i] != (cond_at(i) ? yes : no);
    CHECK_MSG(bad == 0, "%llu of %llu f64 elements wrong", (unsigned long long)bad,
              (unsigned long long)m);
    if (bad == 0)
        printf("CPU path: %llu f64 elements (%.2f GiB output), exact\n", (unsigned long long)m,
               (double)(m * 8) / GIB);
    free(cond);
    free(o);
}

static void test_opencl(void)
{
    test_cl env;
    test_cl_open(&env);
    cl_ulong max_alloc = 0, global = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    clGetDeviceInfo(env.device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL);
    /* out [2^16, 2^15] u8 = 2^31 elements from cond of the same shape, then [1, 2^15] and
     * else [2^16, 1]: the output index passes INT32_MAX. */
    const uint64_t rows = 1ull << 16, cols = 1ull << 15, n = rows * cols;
    if (max_alloc < n || global < 2 * n + (1ull << 20)) {
        printf("skipped: %s allows %llu-byte buffers and %llu bytes in all; the test needs two of "
               "%llu\n",
               env.device_name, (unsigned long long)max_alloc, (unsigned long long)global,
               (unsigned long long)n);
        test_cl_close(&env);
        exit(TEST_SKIP);
    }
    need_memory(4 * n, "a 2^31-element OpenCL output");
    uint8_t *cond = alloc_or_skip(n, "cond"), *out = alloc_or_skip(n, "out");
    uint8_t *t = alloc_or_skip(cols, "then"), *e = alloc_or_skip(rows, "else");
    for (uint64_t i = 0; i < n; ++i)
        cond[i] = cond_at(i);
    for (uint64_t c = 0; c < cols; ++c)
        t[c] = (uint8_t)(c * 7 + 1);
    for (uint64_t r = 0; r < rows; ++r)
        e[r] = (uint8_t)(r * 13 + 5);
    clsel_shape cs = SHAPE((int64_t)rows, (int64_t)cols), ts = SHAPE(1, (int64_t)cols),
                es = SHAPE((int64_t)rows, 1);
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(CLSEL_U8, &cs, &ts, &es, NULL, &plan));
    cl_mem mc = test_cl_buffer(&env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n, cond);
    cl_mem mt = test_cl_buffer(&env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, cols, t);
    cl_mem me = test_cl_buffer(&env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, rows, e);
    cl_mem mo = test_cl_buffer(&env, CL_MEM_WRITE_ONLY, n, NULL);
    CHECK_OK(clsel_cl_enqueue(env.ctx, plan, env.queue, mc, 0, mt, 0, me, 0, mo, 0, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(env.queue, mo, CL_TRUE, 0, n, out, 0, NULL, NULL) == CL_SUCCESS);
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; ++i)
        bad += out[i] != (cond[i] ? t[i % cols] : e[i / cols]);
    CHECK_MSG(bad == 0, "%llu of %llu elements wrong", (unsigned long long)bad,
              (unsigned long long)n);
    if (bad == 0)
        printf("OpenCL (%s): %llu u8 elements through the 64-bit-index kernels, exact\n",
               env.device_name, (unsigned long long)n);
    clReleaseMemObject(mc);
    clReleaseMemObject(mt);
    clReleaseMemObject(me);
    clReleaseMemObject(mo);
    clsel_plan_destroy(plan);
    free(cond);
    free(out);
    free(t);
    free(e);
    test_cl_close(&env);
}

static void test_runtime(void)
{
    clsel_runtime *rt = NULL;
    if (clsel_runtime_create(CLSEL_DEVICE_OPENCL, &rt) != CLSEL_SUCCESS)
        test_cl_no_device(clsel_last_error());
    cl_device_id device = clsel_runtime_cl_device(rt);
    cl_ulong max_alloc = 0;
    clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    /* An output one MiB past the device's allocation limit. */
    const uint64_t n = max_alloc + (1ull << 20);
    need_memory(3 * n + 2 * GIB, "an output past the device's allocation limit");
    uint8_t *cond = alloc_or_skip(n, "cond"), *e = alloc_or_skip(n, "else"),
            *out = alloc_or_skip(n, "out");
    for (uint64_t i = 0; i < n; ++i) {
        cond[i] = cond_at(i);
        e[i] = else_u8_at(i);
    }
    const uint8_t t = 0x3C;
    clsel_shape big = SHAPE((int64_t)n), scalar = SCALAR;
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(CLSEL_U8, &big, &scalar, &big, NULL, &plan));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_OK(clsel_runtime_run(rt, plan, cond, &t, e, out));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    const double seconds =
        (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    CHECK_MSG(clsel_runtime_last_run_path() == CLSEL_RUN_DEVICE,
              "the chunked run was finished on the CPU path: %s", clsel_last_error());
    uint64_t bad = check_u8(out, n, t);
    CHECK_MSG(bad == 0, "%llu of %llu elements wrong", (unsigned long long)bad,
              (unsigned long long)n);
    if (bad == 0)
        printf("runtime (%s, allocation limit %llu bytes): %llu u8 elements in chunks, exact, %.2f "
               "s (%.2f GB/s)\n",
               clsel_runtime_device_name(rt), (unsigned long long)max_alloc, (unsigned long long)n,
               seconds, 3.0 * (double)n / seconds / 1e9);
    clsel_plan_destroy(plan);
    clsel_runtime_destroy(rt);
    free(cond);
    free(e);
    free(out);
}

static const test_case cases[] = {
    {"cpu", test_cpu},
    {"opencl", test_opencl},
    {"runtime", test_runtime},
};

int main(int argc, char **argv)
{
    const check_suite suite = {"test_large", cases, CHECK_COUNT(cases), NULL, 0, NULL, NULL};
    return check_main(argc, argv, &suite);
}
