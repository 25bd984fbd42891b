/* cl_native.c - the native path (clsel_cl_path): on a CPU device, clsel_cl_enqueue runs the CPU
 * path as a native kernel in the caller's queue, one thread per compute unit: a launch's events and
 * ordering at the CPU path's speed. Each buffer holding a tensor is mapped over the bytes the run
 * touches (a CPU device hands out its own memory), the kernel runs through the mapped pointers, and
 * the buffers are unmapped, each command waiting for the one before; the last unmap is the run's
 * event. Maps rather than clEnqueueNativeKernel's mem_list, which PoCL 3.1 fills in an order of its
 * own; one native run enqueued at a time, as PoCL 3.1 crashes when two threads map one buffer at
 * once (docs/architecture.md, "What it depends on"). The kernel waits on a user event (the gate),
 * released once every command is enqueued with the verdict in memory the kernel frees: if an unmap
 * cannot be enqueued, the kernel runs but touches nothing and the call fails with the output
 * untouched, as every failed enqueue leaves it. */
#include "common/alloc.h"
#include "cpu/cpu_run.h"
#include "opencl/cl_launch.h"

/* What the native kernel gets (OpenCL copies it at enqueue). */
typedef struct native_args {
    plan_iter it;
    size_t w;
    int32_t threads;
    cpu_tensors tensors; /* in the mapped buffers */
    int *verdict; /* allocated per run; the kernel reads it once the gate opens, then frees it */
} native_args;

static void CL_CALLBACK native_run(void *data)
{
    const native_args *a = data;
    const int go = *a->verdict;
    clsel_priv_free(a->verdict);
    if (!go)
        return;
    clsel_cpu_options options = clsel_cpu_options_default();
    options.threads = a->threads;
    clsel_priv_cpu_run(&a->it, a->w, &a->tensors, &options);
}

typedef struct mapping {
    cl_mem root;
    size_t begin, end; /* the bytes of root that the run touches */
    cl_map_flags flags;
    uint8_t *at;
    cl_event done;
} mapping;

static uint8_t *mapped_at(const mapping *m, size_t byte)
{
    return m->at + (byte - m->begin);
}
static cl_int cl_err(cl_int err, cl_int fallback)
{
    return err != CL_SUCCESS ? err : fallback;
}

static clsel_mutex enqueue_lock = CLSEL_MUTEX_INITIALIZER;

clsel_status clsel_priv_cl_launch_native(clsel_cl_context *ctx, cl_command_queue queue,
                                         const plan_iter *it, size_t w,
                                         const cl_tensor tensors[PLAN_OPERANDS], cl_uint num_wait,
                                         const cl_event *wait_list, cl_event *event)
{
    const clsel_cl_api *cl = ctx->cl;
    if (event)
        *event = NULL;
    /* The byte range of each tensor in its root, and one mapping per root. */
    mapping maps[PLAN_OPERANDS] = {{NULL, 0, 0, 0, NULL, NULL}}; /* [0, count) in use */
    int count = 0, map_of[PLAN_OPERANDS];
    size_t ends[PLAN_OPERANDS];
    for (int op = 0; op < PLAN_OPERANDS; ++op) {
        const size_t size = clsel_priv_operand_width(op, w), root_offset = tensors[op].root_offset;
        int64_t lo, hi;
        clsel_priv_plan_iter_span(it, op, &lo, &hi);
        const size_t begin = root_offset + (size_t)lo * size,
                     end = root_offset + (size_t)(hi + 1) * size;
        ends[op] = end;
        int m = 0;
        while (m < count && maps[m].root != tensors[op].root)
            ++m;
        if (m == count)
            maps[count++] = (mapping){tensors[op].root, begin, end, 0, NULL, NULL};
        if (begin < maps[m].begin)
            maps[m].begin = begin;
        if (end > maps[m].end)
            maps[m].end = end;
        maps[m].flags |= op == PLAN_OUT ? CL_MAP_READ | CL_MAP_WRITE : CL_MAP_READ;
        map_of[op] = m;
    }
    native_args args = {*it,
                        w,
                        (int32_t)ctx->compute_units,
                        {{NULL}, {NULL}, NULL},
                        clsel_priv_calloc(1, sizeof(int))};
    if (!args.verdict)
        return clsel_priv_fail(CLSEL_ERROR_OUT_OF_MEMORY, "clsel_cl_enqueue: out of host memory");
    cl_int err = CL_SUCCESS;
    const char *what = "clCreateUserEvent";
    clsel_mutex_lock(&enqueue_lock);
    cl_event gate = cl->clCreateUserEvent(ctx->context, &err), ran = NULL, last = NULL;
    if (!gate)
        err = cl_err(err, CL_OUT_OF_RESOURCES);
    int mapped = 0;
    for (; err == CL_SUCCESS && mapped < count; ++mapped) {
        mapping *m = &maps[mapped];
        what = "clEnqueueMapBuffer";
        m->at = cl->clEnqueueMapBuffer(queue, m->root, CL_FALSE, m->flags, m->begin,
                                       m->end - m->begin, num_wait, wait_list, &m->done, &err);
        if (!m->at)
            err = cl_err(err, CL_OUT_OF_RESOURCES);
        if (err != CL_SUCCESS)
            break;
    }
    cl_event before[PLAN_OPERANDS + 1];
    if (err == CL_SUCCESS) {
        for (int op = 0; op < PLAN_OUT; ++op) {
            args.tensors.in[op] = mapped_at(&maps[map_of[op]], tensors[op].root_offset);
            args.tensors.end[op] = mapped_at(&maps[map_of[op]], ends[op]);
        }
        args.tensors.out = mapped_at(&maps[map_of[PLAN_OUT]], tensors[PLAN_OUT].root_offset);
        for (int m = 0; m < count; ++m)
            before[m] = maps[m].done;
        before[count] = gate;
        what = "clEnqueueNativeKernel";
        err = cl->clEnqueueNativeKernel(queue, native_run, &args, sizeof args, 0, NULL, NULL,
                                        (cl_uint)count + 1, before, &ran);
    }
    /* The unmaps, after the kernel (else after the maps), chained so that the last one completes
     * after everything. */
    for (int m = 0; m < mapped; ++m) {
        cl_event after[2] = {ran ? ran : maps[m].done, last}, unmapped = NULL;
        const cl_int unmap = cl->clEnqueueUnmapMemObject(queue, maps[m].root, maps[m].at,
                                                         last ? 2 : 1, after, &unmapped);
        if (unmap != CL_SUCCESS && err == CL_SUCCESS) {
            err = unmap;
            what = "clEnqueueUnmapMemObject";
        }
        if (unmapped && last)
            cl->clReleaseEvent(last);
        if (unmapped)
            last = unmapped;
    }
    clsel_mutex_unlock(&enqueue_lock);
    *args.verdict = err == CL_SUCCESS;
    if (gate)
        cl->clSetUserEventStatus(gate, CL_COMPLETE);
    if (!ran)
        clsel_priv_free(args.verdict); /* no kernel will read it */
    for (int m = 0; m < mapped; ++m)
        cl->clReleaseEvent(maps[m].done);
    if (gate)
        cl->clReleaseEvent(gate);
    if (ran)
        cl->clReleaseEvent(ran);
    if (err == CL_SUCCESS && event)
        *event = last;
    else if (last)
        cl->clReleaseEvent(last);
    return err == CL_SUCCESS ? CLSEL_SUCCESS : clsel_priv_cl_enqueue_failed(err, what);
}
