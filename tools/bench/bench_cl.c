/* bench_cl.c - the OpenCL figures: clsel_cl_enqueue on the device --device auto would
 * pick, against the best copy on that device in the same run (clEnqueueCopyBuffer, a
 * plain copy kernel, and CLBlast's Xcopy when the tool was built with CLBlast). */
#define CL_TARGET_OPENCL_VERSION 120
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cl.h"
#include "clsel_cl.h"
#ifdef CLSEL_BENCH_CLBLAST
#include <clblast_c.h>
#endif

typedef struct bench_cl_env cl_env;
/* A copy method: enqueues one copy of `bytes` from src to dst; *event (when not NULL)
 * receives the event of the command that does it. */
typedef int (*copy_fn)(cl_env *env, void *state, cl_mem src, cl_mem dst, size_t bytes, cl_event *event);

struct bench_cl_env {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    clsel_cl_context *ctx;
    cl_program copy_program;
    cl_kernel copy_kernel;
    copy_fn best_copy; /* the fastest copy method at the start, timed again with each case */
    double read_gbps, write_gbps;
    void *best_copy_state;
    cl_mem copy_src, copy_dst; /* its buffers, initialized */
    size_t copy_bytes;
};

/* 16 bytes per work-item, unit stride: the plainest copy a device can run; and a fill
 * and a read alike, for what writing alone and reading alone cost (the read stores
 * only when a value it cannot meet turns up, so that it is not optimised away). */
static const char copy_source[] =
    "kernel void copy16(global const uint4 *src, global uint4 *dst) {\n"
    "    size_t i = get_global_id(0);\n"
    "    dst[i] = src[i];\n"
    "}\n"
    "kernel void fill16(global uint4 *dst, uint per_item) {\n"
    "    for (size_t i = get_global_id(0) * per_item, e = i + per_item; i < e; ++i) dst[i] = (uint4)(7u);\n"
    "}\n"
    "kernel void read16(global const uint4 *src, global uint *sink, uint per_item) {\n"
    "    uint4 v = (uint4)(0u);\n"
    "    for (size_t i = get_global_id(0) * per_item, e = i + per_item; i < e; ++i) v ^= src[i];\n"
    "    if ((v.x ^ v.y ^ v.z ^ v.w) == 0x9E3779B9u) sink[0] = 1u;\n"
    "}\n";

static double finish_ms(cl_command_queue queue, double t0)
{
    clFinish(queue);
    return bench_now_ms() - t0;
}

static double profile_ns(cl_event e, cl_profiling_info what)
{
    cl_ulong t = 0;
    return clGetEventProfilingInfo(e, what, sizeof t, &t, NULL) == CL_SUCCESS ? (double)t : -1;
}

/* The device time of the work between `before` (a marker enqueued just ahead of it) and
 * `last` (its final command), after clFinish: a kernel's own start to end, or, where the
 * last command is a marker after several launches, the end of `before` to the end of
 * `last`. -1 when the device cannot tell. Releases both events. */
static double event_ms(cl_event before, cl_event last)
{
    double ms = -1;
    cl_command_type type = 0;
    if (last && clGetEventInfo(last, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL) == CL_SUCCESS) {
        const double start = type == CL_COMMAND_MARKER ? profile_ns(before, CL_PROFILING_COMMAND_END)
                                                       : profile_ns(last, CL_PROFILING_COMMAND_START);
        const double end = profile_ns(last, CL_PROFILING_COMMAND_END);
        if (start >= 0 && end >= start) ms = (end - start) * 1e-6;
    }
    if (before) clReleaseEvent(before);
    if (last) clReleaseEvent(last);
    return ms;
}

/* Median time of `repeat` runs of one copy method after two warm-ups (the same
 * statistic the cases report); -1 if it fails. */
static double median_copy_ms(cl_env *env, copy_fn fn, void *state, cl_mem src, cl_mem dst, size_t bytes, int repeat)
{
    double samples[256];
    if (repeat > 256) repeat = 256;
    for (int r = 0; r < repeat + 2; ++r) {
        double t0 = bench_now_ms();
        if (fn(env, state, src, dst, bytes, NULL) != 0) return -1;
        double t = finish_ms(env->queue, t0);
        if (r >= 2) samples[r - 2] = t;
    }
    return bench_median(samples, repeat);
}

static int copy_buffer(cl_env *env, void *state, cl_mem src, cl_mem dst, size_t bytes, cl_event *event)
{
    (void)state;
    return clEnqueueCopyBuffer(env->queue, src, dst, 0, 0, bytes, 0, NULL, event) == CL_SUCCESS ? 0 : -1;
}

static int copy_kernel(cl_env *env, void *state, cl_mem src, cl_mem dst, size_t bytes, cl_event *event)
{
    cl_kernel k = state;
    size_t global = bytes / 16, local = 256;
    clSetKernelArg(k, 0, sizeof src, &src);
    clSetKernelArg(k, 1, sizeof dst, &dst);
    return clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, &local, 0, NULL, event) == CL_SUCCESS ? 0 : -1;
}

#ifdef CLSEL_BENCH_CLBLAST
static int copy_clblast(cl_env *env, void *state, cl_mem src, cl_mem dst, size_t bytes, cl_event *event)
{
    (void)state;
    return CLBlastScopy(bytes / 4, src, 0, 1, dst, 0, 1, &env->queue, event) == CLBlastSuccess ? 0 : -1;
}
#endif

/* Bytes per second that the fill or the read kernel moves over the copy buffers: the
 * better of one 16-byte element per work-item (what GPUs like) and a loop over a
 * range per work-item, one item per group (what CPU devices like, as clsel's blocks
 * family does). */
static double pass_gbps(cl_env *env, const char *name, size_t bytes, int repeat)
{
    cl_int err;
    cl_kernel k = clCreateKernel(env->copy_program, name, &err);
    if (err != CL_SUCCESS) return 0;
    cl_mem sink = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 4, NULL, &err);
    clSetKernelArg(k, 0, sizeof(cl_mem), name[0] == 'f' ? &env->copy_dst : &env->copy_src);
    if (name[0] == 'r') clSetKernelArg(k, 1, sizeof sink, &sink);
    cl_uint units = 1;
    clGetDeviceInfo(env->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    double best = 0, samples[256];
    if (repeat > 256) repeat = 256;
    for (int method = 0; method < 2; ++method) {
        const size_t vectors = bytes / 16, items = method ? (size_t)units * 16 : vectors;
        cl_uint per_item = (cl_uint)(vectors / items);
        size_t global = items, local = method ? 1 : 256;
        clSetKernelArg(k, name[0] == 'r' ? 2 : 1, sizeof per_item, &per_item);
        for (int r = 0; r < repeat + 2; ++r) {
            double t0 = bench_now_ms();
            clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
            double t = finish_ms(env->queue, t0);
            if (r >= 2) samples[r - 2] = t;
        }
        const double gbps = (double)(global * per_item * 16) / (bench_median(samples, repeat) * 1e6);
        if (gbps > best) best = gbps;
    }
    clReleaseMemObject(sink);
    clReleaseKernel(k);
    return best;
}

static void measure_copies(cl_env *env, size_t bytes, int repeat, bench_report *report)
{
    cl_int err;
    cl_mem src = env->copy_src = clCreateBuffer(env->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem dst = env->copy_dst = clCreateBuffer(env->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    env->copy_bytes = bytes;
    const unsigned char fill = 1;
    clEnqueueFillBuffer(env->queue, src, &fill, 1, 0, bytes, 0, NULL, NULL);
    clEnqueueFillBuffer(env->queue, dst, &fill, 1, 0, bytes, 0, NULL, NULL);
    clFinish(env->queue);
    const char *source = copy_source;
    env->copy_program = clCreateProgramWithSource(env->context, 1, &source, NULL, &err);
    clBuildProgram(env->copy_program, 1, &env->device, "", NULL, NULL);
    cl_kernel kernel = env->copy_kernel = clCreateKernel(env->copy_program, "copy16", &err);

    struct {
        const char *name;
        copy_fn fn;
        void *state;
    } methods[] = {
        {"clEnqueueCopyBuffer", copy_buffer, NULL},
        {"copy kernel", copy_kernel, kernel},
#ifdef CLSEL_BENCH_CLBLAST
        {"CLBlast Xcopy", copy_clblast, NULL},
#endif
    };
    size_t used = 0;
    report->copy_gbps = 0;
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; ++i) {
        double ms = median_copy_ms(env, methods[i].fn, methods[i].state, src, dst, bytes, repeat);
        double gbps = ms > 0 ? 2.0 * (double)bytes / (ms * 1e6) : 0;
        used += (size_t)snprintf(report->copy_method + used, sizeof report->copy_method - used, "%s%s %.1f",
                                 i ? ", " : "", methods[i].name, gbps);
        if (gbps > report->copy_gbps) {
            report->copy_gbps = gbps;
            env->best_copy = methods[i].fn;
            env->best_copy_state = methods[i].state;
        }
        if (used >= sizeof report->copy_method) break;
    }
    report->write_gbps = env->write_gbps = pass_gbps(env, "fill16", bytes, repeat);
    report->read_gbps = env->read_gbps = pass_gbps(env, "read16", bytes, repeat);
}

static cl_mem upload(cl_env *env, const void *host, size_t bytes)
{
    cl_int err;
    return clCreateBuffer(env->context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes ? bytes : 1,
                          (void *)(uintptr_t)host, &err);
}

/* One copy by the best method: its wall-clock time, and its device time in *device_ms. */
static double timed_copy(cl_env *env, double *device_ms)
{
    cl_event before = NULL, last = NULL;
    clEnqueueMarkerWithWaitList(env->queue, 0, NULL, &before);
    double t0 = bench_now_ms();
    env->best_copy(env, env->best_copy_state, env->copy_src, env->copy_dst, env->copy_bytes, &last);
    const double ms = finish_ms(env->queue, t0);
    *device_ms = event_ms(before, last);
    return ms;
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
    *wall_ms = finish_ms(env->queue, t0);
    *device_ms = event_ms(before, last);
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
        double ms = finish_ms(env->queue, t0);
        if (k == 0) r->first_call_ms = ms;
        t0 = bench_now_ms();
    }
    const int interleave = bench_interleaved(r->bytes);
    for (int k = 0; k < o->repeat && st == CLSEL_SUCCESS; ++k) {
        st = timed_select(env, plan, mem, &samples[k], &event_samples[k]);
        if (interleave) copy_samples[k] = timed_copy(env, &event_copy_samples[k]);
    }
    for (int k = 0; k < o->repeat && !interleave && st == CLSEL_SUCCESS; ++k)
        copy_samples[k] = timed_copy(env, &event_copy_samples[k]);
    if (st == CLSEL_ERROR_OUT_OF_MEMORY && !(mem[0] && mem[1] && mem[2] && mem[3]))
        snprintf(r->error, sizeof r->error, "out of device memory");
    else if (st != CLSEL_SUCCESS)
        snprintf(r->error, sizeof r->error, "%s: %s", clsel_status_string(st), clsel_last_error());
    else {
        bench_finish(r, samples, copy_samples, o->repeat, env->copy_bytes);
        bench_finish_events(r, event_samples, event_copy_samples, o->repeat, env->copy_bytes);
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
    if (env->copy_kernel) clReleaseKernel(env->copy_kernel);
    if (env->copy_program) clReleaseProgram(env->copy_program);
    if (env->copy_src) clReleaseMemObject(env->copy_src);
    if (env->copy_dst) clReleaseMemObject(env->copy_dst);
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
    measure_copies(env, o->quick ? (size_t)16 << 20 : (size_t)256 << 20, o->repeat, report);
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
