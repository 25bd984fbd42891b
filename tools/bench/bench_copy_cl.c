/* bench_copy_cl.c - see bench_copy_cl.h. */
#define CL_TARGET_OPENCL_VERSION 120
#include "bench_copy_cl.h"

#include <stdio.h>
#include <string.h>

#ifdef CLSEL_BENCH_CLBLAST
#include <clblast_c.h>
#endif

/* 16 bytes per work-item, unit stride: the plainest copy a device can run; and a fill
 * and a read alike, for what writing alone and reading alone cost (the read stores
 * only when a value it cannot meet turns up, so that it is not optimised away). */
static const char copy_source[] =
    "kernel void copy16(global const uint4 *src, global uint4 *dst) {\n"
    "    size_t i = get_global_id(0);\n"
    "    dst[i] = src[i];\n"
    "}\n"
    "kernel void fill16(global uint4 *dst, uint per_item) {\n"
    "    for (size_t i = get_global_id(0) * per_item, e = i + per_item; i < e; ++i) dst[i] = "
    "(uint4)(7u);\n"
    "}\n"
    "kernel void read16(global const uint4 *src, global uint *sink, uint per_item) {\n"
    "    uint4 v = (uint4)(0u);\n"
    "    for (size_t i = get_global_id(0) * per_item, e = i + per_item; i < e; ++i) v ^= src[i];\n"
    "    if ((v.x ^ v.y ^ v.z ^ v.w) == 0x9E3779B9u) sink[0] = 1u;\n"
    "}\n";

static double profile_ns(cl_event e, cl_profiling_info what)
{
    cl_ulong t = 0;
    return clGetEventProfilingInfo(e, what, sizeof t, &t, NULL) == CL_SUCCESS ? (double)t : -1;
}

/* The device time of the work between `before` (a marker enqueued just ahead of it) and
 * `last` (its final command), after clFinish: a kernel's own start to end, or, where the
 * last command is not the one kernel (a marker after several launches, the unmap that
 * ends a native run), the end of `before` to the end of `last`. -1 when the device
 * cannot tell. Releases both events. */
double bench_cl_event_ms(cl_event before, cl_event last)
{
    double ms = -1;
    cl_command_type type = 0;
    if (last &&
        clGetEventInfo(last, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL) == CL_SUCCESS) {
        const double start = type != CL_COMMAND_NDRANGE_KERNEL
                                 ? profile_ns(before, CL_PROFILING_COMMAND_END)
                                 : profile_ns(last, CL_PROFILING_COMMAND_START);
        const double end = profile_ns(last, CL_PROFILING_COMMAND_END);
        if (start >= 0 && end >= start)
            ms = (end - start) * 1e-6;
    }
    if (before)
        clReleaseEvent(before);
    if (last)
        clReleaseEvent(last);
    return ms;
}

/* One copy by one method, to the end of the queue, as a timed run (its device time from a
 * marker before it to its end). */
typedef struct copy_run {
    bench_cl_copy *copy;
    bench_cl_copy_fn fn;
    void *state;
} copy_run;

static int run_copy(void *state, double *device_ms)
{
    const copy_run *c = state;
    cl_event before = NULL, last = NULL;
    clEnqueueMarkerWithWaitList(c->copy->queue, 0, NULL, &before);
    const int failed = c->fn(c->copy, c->state, c->copy->src, c->copy->dst, c->copy->bytes, &last);
    clFinish(c->copy->queue);
    *device_ms = bench_cl_event_ms(before, last);
    return failed;
}

static int copy_buffer(bench_cl_copy *copy, void *state, cl_mem src, cl_mem dst, size_t bytes,
                       cl_event *event)
{
    (void)state;
    return clEnqueueCopyBuffer(copy->queue, src, dst, 0, 0, bytes, 0, NULL, event) == CL_SUCCESS
               ? 0
               : -1;
}

static int copy_kernel(bench_cl_copy *copy, void *state, cl_mem src, cl_mem dst, size_t bytes,
                       cl_event *event)
{
    cl_kernel k = state;
    size_t global = bytes / 16, local = 256;
    clSetKernelArg(k, 0, sizeof src, &src);
    clSetKernelArg(k, 1, sizeof dst, &dst);
    return clEnqueueNDRangeKernel(copy->queue, k, 1, NULL, &global, &local, 0, NULL, event) ==
                   CL_SUCCESS
               ? 0
               : -1;
}

#ifdef CLSEL_BENCH_CLBLAST
static int copy_clblast(bench_cl_copy *copy, void *state, cl_mem src, cl_mem dst, size_t bytes,
                        cl_event *event)
{
    (void)state;
    return CLBlastScopy(bytes / 4, src, 0, 1, dst, 0, 1, &copy->queue, event) == CLBlastSuccess
               ? 0
               : -1;
}
#endif

/* One launch of a fill or read kernel, to the end of the queue, as a timed run. */
typedef struct pass_run {
    cl_command_queue queue;
    cl_kernel kernel;
    size_t global, local;
} pass_run;

static int run_pass(void *state, double *device_ms)
{
    const pass_run *p = state;
    (void)device_ms;
    const cl_int err =
        clEnqueueNDRangeKernel(p->queue, p->kernel, 1, NULL, &p->global, &p->local, 0, NULL, NULL);
    clFinish(p->queue);
    return err == CL_SUCCESS ? 0 : -1;
}

/* Bytes per second that the fill or the read kernel moves over the copy buffers: the
 * better of one 16-byte element per work-item (what GPUs like) and a loop over a range
 * per work-item, one item per group (what CPU devices like). */
static double pass_gbps(bench_cl_copy *copy, const char *name, size_t bytes, int repeat)
{
    cl_int err;
    cl_kernel k = clCreateKernel(copy->program, name, &err);
    if (err != CL_SUCCESS)
        return 0;
    cl_mem sink = clCreateBuffer(copy->context, CL_MEM_READ_WRITE, 4, NULL, &err);
    clSetKernelArg(k, 0, sizeof(cl_mem), name[0] == 'f' ? &copy->dst : &copy->src);
    if (name[0] == 'r')
        clSetKernelArg(k, 1, sizeof sink, &sink);
    cl_uint units = 1;
    clGetDeviceInfo(copy->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    double best = 0;
    for (int method = 0; method < 2; ++method) {
        const size_t vectors = bytes / 16, items = method ? (size_t)units * 16 : vectors;
        cl_uint per_item = (cl_uint)(vectors / items);
        pass_run pass = {copy->queue, k, items, method ? 1 : 256};
        clSetKernelArg(k, name[0] == 'r' ? 2 : 1, sizeof per_item, &per_item);
        const double ms = bench_median_ms(run_pass, &pass, repeat);
        const double gbps = ms > 0 ? (double)(pass.global * per_item * 16) / (ms * 1e6) : 0;
        if (gbps > best)
            best = gbps;
    }
    clReleaseMemObject(sink);
    clReleaseKernel(k);
    return best;
}

void bench_cl_copy_open(bench_cl_copy *copy, cl_context context, cl_device_id device,
                        cl_command_queue queue, size_t bytes, int repeat, bench_report *report)
{
    memset(copy, 0, sizeof *copy);
    copy->context = context;
    copy->device = device;
    copy->queue = queue;
    cl_int err;
    cl_mem src = copy->src = clCreateBuffer(copy->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem dst = copy->dst = clCreateBuffer(copy->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    copy->bytes = bytes;
    const unsigned char fill = 1;
    clEnqueueFillBuffer(copy->queue, src, &fill, 1, 0, bytes, 0, NULL, NULL);
    clEnqueueFillBuffer(copy->queue, dst, &fill, 1, 0, bytes, 0, NULL, NULL);
    clFinish(copy->queue);
    const char *source = copy_source;
    copy->program = clCreateProgramWithSource(copy->context, 1, &source, NULL, &err);
    clBuildProgram(copy->program, 1, &copy->device, "", NULL, NULL);
    cl_kernel kernel = copy->copy_kernel = clCreateKernel(copy->program, "copy16", &err);

    struct {
        const char *name;
        bench_cl_copy_fn fn;
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
        copy_run run = {copy, methods[i].fn, methods[i].state};
        double ms = bench_median_ms(run_copy, &run, repeat);
        double gbps = ms > 0 ? 2.0 * (double)bytes / (ms * 1e6) : 0;
        used += (size_t)snprintf(report->copy_method + used, sizeof report->copy_method - used,
                                 "%s%s %.1f", i ? ", " : "", methods[i].name, gbps);
        if (gbps > report->copy_gbps) {
            report->copy_gbps = gbps;
            copy->best = methods[i].fn;
            copy->best_state = methods[i].state;
        }
        if (used >= sizeof report->copy_method)
            break;
    }
    report->write_gbps = pass_gbps(copy, "fill16", bytes, repeat);
    report->read_gbps = pass_gbps(copy, "read16", bytes, repeat);
}

int bench_cl_copy_run(void *copy, double *device_ms)
{
    bench_cl_copy *c = copy;
    copy_run run = {c, c->best, c->best_state};
    return run_copy(&run, device_ms);
}

void bench_cl_copy_close(bench_cl_copy *copy)
{
    if (copy->copy_kernel)
        clReleaseKernel(copy->copy_kernel);
    if (copy->program)
        clReleaseProgram(copy->program);
    if (copy->src)
        clReleaseMemObject(copy->src);
    if (copy->dst)
        clReleaseMemObject(copy->dst);
    memset(copy, 0, sizeof *copy);
}
