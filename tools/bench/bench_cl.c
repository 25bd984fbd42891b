/* bench_cl.c - the OpenCL figures: clsel_cl_enqueue on the device --device auto would
 * pick, against the best copy on that device in the same run (bench_copy_cl.c). */
#define CL_TARGET_OPENCL_VERSION 120
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cl.h"
#include "bench_copy_cl.h"
#include "clsel_cl.h"

typedef struct bench_cl_env cl_env;

struct bench_cl_env {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    clsel_cl_context *ctx;
    bench_cl_copy copy; /* the copy baselines on this device */
    double read_gbps, write_gbps;
};

static cl_mem upload(cl_env *env, const void *host, size_t bytes)
{
    cl_int err;
    return clCreateBuffer(env->context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes ? bytes : 1,
                          (void *)(uintptr_t)host, &err);
}

/* One clsel_cl_enqueue: its wall-clock time, and its device time in *device_ms. */
static clsel_status timed_select(cl_env *env, const clsel_plan *plan, cl_mem mem[4], double *wall_ms,
                                 double *device_ms)
{
    cl_event before = NULL, last = NULL;
    clEnqueueMarkerWithWaitList(env->queue, 0, NULL, &before);
    double t0 = bench_now_ms();
    clsel_status st =
        clsel_cl_enqueue(env->ctx, plan, env->queue, mem[0], 0, mem[1], 0, mem[2], 0, mem[3], 0, 0, NULL, &last);
    *wall_ms = bench_cl_finish_ms(env->queue, t0);
    *device_ms = bench_cl_event_ms(before, last);
    return st;
}

void bench_cl_time(cl_env *env, const bench_options *o, const clsel_plan *plan, const bench_inputs *in,
                   bench_result *r)
{
    double *samples = calloc((size_t)o->repeat, sizeof *samples);
    double *copy_samples = calloc((size_t)o->repeat, sizeof *copy_samples);
    double *event_samples = calloc((size_t)o->repeat, sizeof *event_samples);
    double *event_copy_samples = calloc((size_t)o->repeat, sizeof *event_copy_samples);
    cl_mem mem[4] = {upload(env, in->cond, in->bytes[0]), upload(env, in->then_data, in->bytes[1]),
                     upload(env, in->else_data, in->bytes[2]), upload(env, NULL, clsel_plan_output_bytes(plan))};
    clsel_status st = mem[0] && mem[1] && mem[2] && mem[3] && samples && copy_samples && event_samples &&
                              event_copy_samples
                          ? CLSEL_SUCCESS
                          : CLSEL_ERROR_OUT_OF_MEMORY;
    double t0 = bench_now_ms();
    for (int k = 0; k < 3 && st == CLSEL_SUCCESS; ++k) { /* the first call, then warm-ups */
        st = clsel_cl_enqueue(env->ctx, plan, env->queue, mem[0], 0, mem[1], 0, mem[2], 0, mem[3], 0, 0, NULL, NULL);
        double ms = bench_cl_finish_ms(env->queue, t0);
        if (k == 0) r->first_call_ms = ms;
        t0 = bench_now_ms();
    }
    const int interleave = bench_interleaved(r->bytes);
    for (int k = 0; k < o->repeat && st == CLSEL_SUCCESS; ++k) {
        st = timed_select(env, plan, mem, &samples[k], &event_samples[k]);
        if (interleave) copy_samples[k] = bench_cl_copy_once_ms(&env->copy, &event_copy_samples[k]);
    }
    for (int k = 0; k < o->repeat && !interleave && st == CLSEL_SUCCESS; ++k)
        copy_samples[k] = bench_cl_copy_once_ms(&env->copy, &event_copy_samples[k]);
    if (st == CLSEL_ERROR_OUT_OF_MEMORY && !(mem[0] && mem[1] && mem[2] && mem[3]))
        snprintf(r->error, sizeof r->error, "out of device memory");
    else if (st != CLSEL_SUCCESS)
        snprintf(r->error, sizeof r->error, "%s: %s", clsel_status_string(st), clsel_last_error());
    else {
        bench_finish(r, samples, copy_samples, o->repeat, env->copy.bytes);
        bench_finish_events(r, event_samples, event_copy_samples, o->repeat, env->copy.bytes);
    }
    bench_ceiling(r, env->read_gbps, env->write_gbps);
    for (int i = 0; i < 4; ++i)
        if (mem[i]) clReleaseMemObject(mem[i]);
    free(event_copy_samples);
    free(event_samples);
    free(copy_samples);
    free(samples);
}

static void run_case(const bench_options *o, cl_env *env, const bench_case *c, bench_result *r)
{
    bench_inputs in;
    clsel_plan *plan = bench_case_prepare(o, c, &in, r);
    if (plan) bench_cl_time(env, o, plan, &in, r);
    bench_case_release(plan, &in);
}

/* The host-side cost of one clsel_cl_enqueue on an existing plan: the call alone. */
static double enqueue_cost_us(cl_env *env)
{
    enum { N = 4096, CALLS = 2000 };
    clsel_shape s = {1, {N}};
    clsel_plan *plan = NULL;
    if (clsel_plan_create(CLSEL_F32, &s, &s, &s, NULL, &plan) != CLSEL_SUCCESS) return -1;
    cl_mem c = upload(env, NULL, N), t = upload(env, NULL, N * 4), e = upload(env, NULL, N * 4), o = upload(env, NULL, N * 4);
    static double samples[CALLS];
    int ok = 1;
    for (int i = 0; i < CALLS && ok; ++i) {
        double t0 = bench_now_ms();
        ok = clsel_cl_enqueue(env->ctx, plan, env->queue, c, 0, t, 0, e, 0, o, 0, 0, NULL, NULL) == CLSEL_SUCCESS;
        samples[i] = (bench_now_ms() - t0) * 1e3;
        if (i % 64 == 63) clFinish(env->queue); /* keep the queue short, outside the timing */
    }
    clFinish(env->queue);
    clReleaseMemObject(c);
    clReleaseMemObject(t);
    clReleaseMemObject(e);
    clReleaseMemObject(o);
    clsel_plan_destroy(plan);
    return ok ? bench_median(samples, CALLS) : -1;
}

static int open_env(cl_env *env, bench_report *report)
{
    clsel_runtime *rt = NULL;
    if (clsel_runtime_create(CLSEL_DEVICE_OPENCL, &rt) != CLSEL_SUCCESS) {
        fprintf(stderr, "clsel bench: no OpenCL device: %s\n", clsel_last_error());
        return -1;
    }
    env->device = clsel_runtime_cl_device(rt);
    snprintf(report->device, sizeof report->device, "%s", clsel_runtime_device_name(rt));
    clRetainDevice(env->device);
    clsel_runtime_destroy(rt);
    cl_int err;
    env->context = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
    /* Profiling on: every run is also timed by the device's clock (bench_result.event_ms). */
    env->queue = clCreateCommandQueue(env->context, env->device, CL_QUEUE_PROFILING_ENABLE, &err);
    /* A context and the program of one element width (f32's), the first time in this
     * process and again (from PoCL's or clsel's cache, as the environment allows). */
    double t0 = bench_now_ms();
    clsel_cl_context *first = NULL;
    clsel_status st = clsel_cl_context_create(env->context, env->device, &first);
    if (st == CLSEL_SUCCESS) st = clsel_cl_context_prepare(first, CLSEL_F32);
    report->build_first_ms = bench_now_ms() - t0;
    clsel_cl_context_destroy(first);
    t0 = bench_now_ms();
    if (st == CLSEL_SUCCESS) st = clsel_cl_context_create(env->context, env->device, &env->ctx);
    if (st == CLSEL_SUCCESS) st = clsel_cl_context_prepare(env->ctx, CLSEL_F32);
    report->build_again_ms = bench_now_ms() - t0;
    /* Every width built before any case, so that no case's first call pays a build. */
    static const clsel_dtype widths[] = {CLSEL_U8, CLSEL_F16, CLSEL_F64};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0] && st == CLSEL_SUCCESS; ++i)
        st = clsel_cl_context_prepare(env->ctx, widths[i]);
    if (st != CLSEL_SUCCESS) fprintf(stderr, "clsel bench: %s\n", clsel_last_error());
    return st == CLSEL_SUCCESS ? 0 : -1;
}

void bench_cl_close(cl_env *env)
{
    if (!env) return;
    clsel_cl_context_destroy(env->ctx);
    bench_cl_copy_close(&env->copy);
    if (env->queue) clReleaseCommandQueue(env->queue);
    if (env->context) clReleaseContext(env->context);
    if (env->device) clReleaseDevice(env->device);
    free(env);
}

cl_env *bench_cl_open(const bench_options *o, bench_report *report)
{
    memset(report, 0, sizeof *report);
    report->kind = "opencl";
    report->quick = o->quick;
    cl_env *env = calloc(1, sizeof *env);
    if (!env) return NULL;
    if (open_env(env, report) != 0) {
        bench_cl_close(env);
        return NULL;
    }
    const size_t copy_bytes = o->quick ? (size_t)16 << 20 : (size_t)256 << 20;
    bench_cl_copy_open(&env->copy, env->context, env->device, env->queue, copy_bytes, o->repeat, report);
    env->read_gbps = report->read_gbps;
    env->write_gbps = report->write_gbps;
    fprintf(stderr, "bench opencl: %s; best copy %.1f GB/s (%s); writing alone %.1f GB/s, reading alone %.1f GB/s; "
                    "context and f32's program %.0f ms first, %.0f ms again\n",
            report->device, report->copy_gbps, report->copy_method, report->write_gbps, report->read_gbps,
            report->build_first_ms, report->build_again_ms);
    report->enqueue_us = enqueue_cost_us(env);
    fprintf(stderr, "bench opencl: clsel_cl_enqueue host cost %.2f us (median)\n", report->enqueue_us);
    return env;
}

int bench_run_opencl(const bench_options *o, bench_report *report)
{
    cl_env *env = bench_cl_open(o, report);
    if (!env) return -1;
    for (size_t i = 0; i < bench_case_count && report->count < sizeof report->results / sizeof report->results[0]; ++i) {
        if (!bench_selected(o, &bench_cases[i])) continue;
        bench_result *r = &report->results[report->count++];
        run_case(o, env, &bench_cases[i], r);
        bench_progress(report, r);
    }
    bench_cl_close(env);
    return 0;
}
