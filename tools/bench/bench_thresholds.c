/* bench_thresholds.c - clsel bench --thresholds: the measurements behind the library's
 * two size thresholds, so that they can be checked on any machine:
 *  - the runtime (clsel_runtime_run on host memory) against the CPU path, by size: where
 *    the OpenCL round trip (buffers, upload, launch, download) starts to pay, and how
 *    much its fixed cost is (CLSEL_RUNTIME_MIN_DEVICE_BYTES in include/clsel.h);
 *  - the CPU path on one thread against N library threads, by size
 *    (CPU_THREADS_MIN_BYTES in host/common/tuning_constants.h);
 *  - at full size, one run past the device's allocation limit: the runtime's chunked
 *    path against the CPU path;
 *  - beside them, the runtime as a user gets it (CLSEL_DEVICE_AUTO, every default), which
 *    must never be slower than the better of the others.
 * Host memory in and out throughout.
 * Same-shape f32, random cond, median of 21 runs after two warm-ups. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_thresholds.h"

#include "bench_inputs.h"
#include "clsel_cl.h"

enum {
    THRESHOLD_RUNS = 21
};

/* One run of the runtime (rt non-NULL) or of the CPU path with `options`, as a timed run. */
typedef struct host_run {
    const bench_host_case *h;
    clsel_runtime *rt;
    clsel_cpu_options options;
} host_run;

static int run_host(void *state, double *device_ms)
{
    const host_run *r = state;
    const bench_host_case *h = r->h;
    (void)device_ms;
    return r->rt ? clsel_runtime_run(r->rt, h->plan, h->cond, h->then_data, h->else_data, h->out)
                 : clsel_plan_run_cpu_options(h->plan, h->cond, h->then_data, h->else_data, h->out,
                                              &r->options);
}

/* Median ms of THRESHOLD_RUNS runs of the runtime (rt non-NULL) or the CPU path with
 * `threads` threads; < 0 on failure. */
static double time_host(const bench_host_case *h, clsel_runtime *rt, int threads)
{
    host_run run = {h, rt, clsel_cpu_options_default()};
    run.options.threads = threads;
    return bench_median_ms(run_host, &run, THRESHOLD_RUNS);
}

/* One u8 select one MiB past the device's allocation limit, cond [n] and scalar then
 * and else: the runtime runs it in chunks; the CPU path runs it for comparison. One
 * run each (a few GiB move per run). */
static void measure_chunked(clsel_runtime *rt, bench_thresholds_report *report)
{
    cl_ulong max_alloc = 0;
    clGetDeviceInfo(clsel_runtime_cl_device(rt), CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                    &max_alloc, NULL);
    const uint64_t n = (uint64_t)max_alloc + (1u << 20);
    report->max_alloc = max_alloc;
    clsel_shape big = {1, {(int64_t)n}}, scalar = {0, {0}};
    clsel_attrs attrs = clsel_attrs_default();
    attrs.cond_broadcast = CLSEL_COND_BIDIRECTIONAL;
    clsel_plan *plan = NULL;
    uint8_t *cond = malloc(n), *out = malloc(n);
    if (!cond || !out ||
        clsel_plan_create(CLSEL_U8, &big, &scalar, &scalar, &attrs, &plan) != CLSEL_SUCCESS) {
        snprintf(report->chunked_note, sizeof report->chunked_note,
                 "not measured: no memory for 2 x %llu bytes", (unsigned long long)n);
        free(cond);
        free(out);
        return;
    }
    for (uint64_t i = 0; i < n; ++i)
        cond[i] = (uint8_t)((i * 2654435761u) >> 13) & 1;
    const uint8_t t = 1, e = 2;
    double t0 = bench_now_ms();
    clsel_status st = clsel_runtime_run(rt, plan, cond, &t, &e, out);
    report->chunked_ms = bench_now_ms() - t0;
    t0 = bench_now_ms();
    if (st == CLSEL_SUCCESS)
        st = clsel_plan_run_cpu(plan, cond, &t, &e, out);
    report->chunked_cpu_ms = bench_now_ms() - t0;
    if (st == CLSEL_SUCCESS) {
        report->chunked_elements = (int64_t)n;
        report->chunked_bytes = 2 * n + 2;
        fprintf(stderr,
                "bench thresholds: %llu elements past the %llu-byte allocation limit: runtime %.1f "
                "ms, CPU path %.1f ms\n",
                (unsigned long long)n, (unsigned long long)max_alloc, report->chunked_ms,
                report->chunked_cpu_ms);
    } else {
        snprintf(report->chunked_note, sizeof report->chunked_note, "failed: %s",
                 clsel_last_error());
    }
    clsel_plan_destroy(plan);
    free(cond);
    free(out);
}

int bench_thresholds(const bench_options *o, bench_thresholds_report *report)
{
    memset(report, 0, sizeof *report);
    clsel_runtime *rt = NULL;
    if (clsel_runtime_create(CLSEL_DEVICE_OPENCL, &rt) != CLSEL_SUCCESS) {
        fprintf(stderr,
                "clsel bench: thresholds: no OpenCL runtime (%s); the runtime rows are left out\n",
                clsel_last_error());
        rt = NULL;
    }
    if (rt)
        clsel_runtime_set_min_device_bytes(rt, 0); /* the round trip itself, at every size */
    clsel_runtime *auto_rt = NULL;
    if (clsel_runtime_create(CLSEL_DEVICE_AUTO, &auto_rt) != CLSEL_SUCCESS) {
        fprintf(stderr, "clsel bench: thresholds: CLSEL_DEVICE_AUTO failed: %s\n",
                clsel_last_error());
        clsel_runtime_destroy(rt);
        return -1;
    }
    snprintf(report->auto_device, sizeof report->auto_device, "%s",
             clsel_runtime_device(auto_rt) == CLSEL_DEVICE_CPU
                 ? "CPU path"
                 : clsel_runtime_device_name(auto_rt));
    report->threads = o->threads > 1 ? o->threads : 2;
    const int max_log2 = o->quick ? 18 : 24;
    for (int k = 0; k <= max_log2 && report->count < BENCH_THRESHOLD_SIZES; k += 2) {
        threshold_row *row = &report->rows[report->count];
        bench_host_case h;
        if (bench_host_case_make(&h, (int64_t)1 << k) != 0) {
            bench_host_case_free(&h);
            fprintf(stderr, "clsel bench: thresholds: out of memory at 2^%d elements\n", k);
            break;
        }
        row->elements = (int64_t)1 << k;
        row->bytes = (uint64_t)row->elements * 13;
        row->cpu_ms = time_host(&h, NULL, 1);
        row->threads_ms = time_host(&h, NULL, report->threads);
        row->runtime_ms = rt ? time_host(&h, rt, 1) : -1;
        row->auto_ms = time_host(&h, auto_rt, 1);
        bench_host_case_free(&h);
        fprintf(stderr,
                "bench thresholds: 2^%-2d elements: CPU path %.4f ms, %d threads %.4f ms, runtime "
                "%s %.4f ms, "
                "AUTO (%s) %.4f ms\n",
                k, row->cpu_ms, report->threads, row->threads_ms,
                rt ? clsel_runtime_device_name(rt) : "-", row->runtime_ms, report->auto_device,
                row->auto_ms);
        report->count++;
    }
    if (rt)
        snprintf(report->runtime_device, sizeof report->runtime_device, "%s",
                 clsel_runtime_device_name(rt));
    if (rt && !o->quick)
        measure_chunked(rt, report);
    clsel_runtime_destroy(rt);
    clsel_runtime_destroy(auto_rt);
    return 0;
}
