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
    return clCreateBuffer(env->context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0),
                          bytes ? bytes : 1, (void *)(uintptr_t)host, &err);
}

/* One clsel_cl_enqueue to the end of the queue, as a timed run (its device time from a
 * marker before it to its last command). */
typedef struct cl_select {
    cl_env *env;
    const clsel_plan *plan;
    cl_mem mem[4];
    size_t offset[4]; /* of element [0] (a view's may have bytes below it) */
} cl_select;

static int run_select(void *state, double *device_ms)
{
    const cl_select *s = state;
    cl_event before = NULL, last = NULL;
    clEnqueueMarkerWithWaitList(s->env->queue, 0, NULL, &before);
    const clsel_status st = clsel_cl_enqueue(s->env->ctx, s->plan, s->env->queue, s->mem[0],
                                             s->offset[0], s->mem[1], s->offset[1], s->mem[2],
                                             s->offset[2], s->mem[3], s->offset[3], 0, NULL, &last);
    clFinish(s->env->queue);
    *device_ms = bench_cl_event_ms(before, last);
    return st;
}

void bench_cl_time(cl_env *env, const bench_options *o, const clsel_plan *plan,
                   const bench_inputs *in, bench_result *r)
{
    double *samples = calloc((size_t)o->repeat, sizeof *samples);
    double *copy_samples = calloc((size_t)o->repeat, sizeof *copy_samples);
    double *event_samples = calloc((size_t)o->repeat, sizeof *event_samples);
    double *event_copy_samples = calloc((size_t)o->repeat, sizeof *event_copy_samples);
    cl_select select = {env,
                        plan,
                        {upload(env, in->cond, in->bytes[0]),
                         upload(env, in->then_data, in->bytes[1]),
                         upload(env, in->else_data, in->bytes[2]), upload(env, NULL, in->bytes[3])},
                        {in->zero[0], in->zero[1], in->zero[2], in->zero[3]}};
    const int buffers = select.mem[0] && select.mem[1] && select.mem[2] && select.mem[3];
    int st = CLSEL_ERROR_OUT_OF_MEMORY;
    if (buffers && samples && copy_samples && event_samples && event_copy_samples) {
        const bench_loop loop = {.run = run_select,
                                 .state = &select,
                                 .copy = bench_cl_copy_run,
                                 .copy_state = &env->copy,
                                 .warmups = 3,
                                 .count = o->repeat,
                                 .interleave = bench_interleaved(r->bytes),
                                 .first_ms = &r->first_call_ms,
                                 .wall = samples,
                                 .device = event_samples,
                                 .copy_wall = copy_samples,
                                 .copy_device = event_copy_samples};
        st = bench_time(&loop);
    }
    if (st == CLSEL_ERROR_OUT_OF_MEMORY && !buffers)
        snprintf(r->error, sizeof r->error, "out of device memory");
    else if (st != CLSEL_SUCCESS)
        snprintf(r->error, sizeof r->error, "%s: %s", clsel_status_string((clsel_status)st),
                 clsel_last_error());
    else {
        bench_finish(r, samples, copy_samples, o->repeat, env->copy.bytes);
        bench_finish_events(r, event_samples, event_copy_samples, o->repeat, env->copy.bytes);
    }
    bench_ceiling(r, env->read_gbps, env->write_gbps);
    for (int i = 0; i < 4; ++i)
        if (select.mem[i])
            clReleaseMemObject(select.mem[i]);
    free(event_copy_samples);
    free(event_samples);
    free(copy_samples);
    free(samples);
}

static void run_case(const bench_options *o, cl_env *env, const bench_case *c, bench_result *r)
{
    bench_inputs in;
    clsel_plan *plan = bench_case_prepare(o, c, &in, r);
    if (plan)
        bench_cl_time(env, o, plan, &in, r);
    bench_case_release(plan, &in);
}

/* One clsel_cl_enqueue on an existing plan, the call alone (its host-side cost): the
 * queue is finished every 64 calls, to keep it short; the median leaves those calls out. */
typedef struct enqueue_call {
    cl_env *env;
    clsel_plan *plan;
    cl_mem mem[4];
    int calls;
} enqueue_call;

static int run_enqueue(void *state, double *device_ms)
{
    enqueue_call *c = state;
    (void)device_ms;
    if (++c->calls % 64 == 0)
        clFinish(c->env->queue);
    return clsel_cl_enqueue(c->env->ctx, c->plan, c->env->queue, c->mem[0], 0, c->mem[1], 0,
                            c->mem[2], 0, c->mem[3], 0, 0, NULL, NULL);
}

static double enqueue_cost_us(cl_env *env)
{
    enum {
        N = 4096
    };
    clsel_shape s = {1, {N}};
    enqueue_call call = {env,
                         NULL,
                         {upload(env, NULL, N), upload(env, NULL, N * 4), upload(env, NULL, N * 4),
                          upload(env, NULL, N * 4)},
                         0};
    const double ms = clsel_plan_create(CLSEL_F32, &s, &s, &s, NULL, &call.plan) == CLSEL_SUCCESS
                          ? bench_median_ms(run_enqueue, &call, 2000)
                          : -1;
    clFinish(env->queue);
    for (int i = 0; i < 4; ++i)
        if (call.mem[i])
            clReleaseMemObject(call.mem[i]);
    clsel_plan_destroy(call.plan);
    return ms < 0 ? -1 : ms * 1e3;
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
    if (st == CLSEL_SUCCESS)
        st = clsel_cl_context_prepare(first, CLSEL_F32);
    report->build_first_ms = bench_now_ms() - t0;
    clsel_cl_context_destroy(first);
    t0 = bench_now_ms();
    if (st == CLSEL_SUCCESS)
        st = clsel_cl_context_create(env->context, env->device, &env->ctx);
    if (st == CLSEL_SUCCESS)
        st = clsel_cl_context_prepare(env->ctx, CLSEL_F32);
    report->build_again_ms = bench_now_ms() - t0;
    /* Every width built before any case, so that no case's first call pays a build. */
    static const clsel_dtype widths[] = {CLSEL_U8, CLSEL_F16, CLSEL_F64};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0] && st == CLSEL_SUCCESS; ++i)
        st = clsel_cl_context_prepare(env->ctx, widths[i]);
    if (st != CLSEL_SUCCESS)
        fprintf(stderr, "clsel bench: %s\n", clsel_last_error());
    return st == CLSEL_SUCCESS ? 0 : -1;
}

void bench_cl_close(cl_env *env)
{
    if (!env)
        return;
    clsel_cl_context_destroy(env->ctx);
    bench_cl_copy_close(&env->copy);
    if (env->queue)
        clReleaseCommandQueue(env->queue);
    if (env->context)
        clReleaseContext(env->context);
    if (env->device)
        clReleaseDevice(env->device);
    free(env);
}

cl_env *bench_cl_open(const bench_options *o, bench_report *report)
{
    memset(report, 0, sizeof *report);
    report->kind = "opencl";
    report->quick = o->quick;
    cl_env *env = calloc(1, sizeof *env);
    if (!env)
        return NULL;
    if (open_env(env, report) != 0) {
        bench_cl_close(env);
        return NULL;
    }
    const size_t copy_bytes = o->quick ? (size_t)16 << 20 : (size_t)256 << 20;
    bench_cl_copy_open(&env->copy, env->context, env->device, env->queue, copy_bytes, o->repeat,
                       report);
    env->read_gbps = report->read_gbps;
    env->write_gbps = report->write_gbps;
    fprintf(stderr,
            "bench opencl: %s; best copy %.1f GB/s (%s); writing alone %.1f GB/s, reading alone "
            "%.1f GB/s; "
            "context and f32's program %.0f ms first, %.0f ms again\n",
            report->device, report->copy_gbps, report->copy_method, report->write_gbps,
            report->read_gbps, report->build_first_ms, report->build_again_ms);
    report->enqueue_us = enqueue_cost_us(env);
    fprintf(stderr, "bench opencl: clsel_cl_enqueue host cost %.2f us (median)\n",
            report->enqueue_us);
    return env;
}

int bench_run_opencl(const bench_options *o, bench_report *report)
{
    cl_env *env = bench_cl_open(o, report);
    if (!env)
        return -1;
    size_t count;
    const bench_case *cases = bench_case_table(o, &count);
    for (size_t i = 0;
         i < count && report->count < sizeof report->results / sizeof report->results[0]; ++i) {
        if (!bench_selected(o, &cases[i]))
            continue;
        bench_result *r = &report->results[report->count++];
        run_case(o, env, &cases[i], r);
        bench_progress(report, r);
    }
    bench_cl_close(env);
    return 0;
}
