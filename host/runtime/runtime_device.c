/* runtime_device.c - the runtime's device paths (runtime.h) for host memory, through the internal
 * launch (opencl/cl_launch.h) on buffers the runtime makes: shared, on a device that works in host
 * memory (CL_DEVICE_HOST_UNIFIED_MEMORY: PoCL, integrated GPUs), in the caller's memory through
 * CL_MEM_USE_HOST_PTR buffers, a map and unmap of the output making the device's writes visible to
 * the host; chunked, everywhere else and for tensors bigger than one allocation, the output in
 * boxes (plan_iter.h) of at most a chunk each, uploading only the span of each input a box reads
 * (and of a strided output, whose gaps go back as they came), alternating two queues and two sets
 * of buffers so that transfers overlap launches. Either drains its queues before returning, also
 * when the device fails part-way, so that nothing on the device still touches the caller's memory
 * when runtime_run.c finishes the run on the CPU path. */
#include "common/error.h"
#include "common/tuning_constants.h"
#include "opencl/cl_launch.h"
#include "runtime/runtime.h"

/* Returns once `queue` can no longer touch the caller's memory, also when the device is failing:
 * clFinish, or if that fails, `last` (the queue's last command that touches it; earlier ones are
 * done when it is, the queue being in order) waited for or polled until complete or terminated.
 * Returns clFinish's code. */
static cl_int drain(const clsel_runtime *rt, cl_command_queue queue, cl_event last)
{
    const clsel_cl_api *cl = rt->cl;
    const cl_int err = cl->clFinish(queue);
    if (err == CL_SUCCESS || !last || cl->clWaitForEvents(1, &last) == CL_SUCCESS)
        return err;
    for (int tries = 0; tries < 1000000; ++tries) {
        cl_int status = CL_COMPLETE;
        if (cl->clGetEventInfo(last, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                               NULL) == CL_SUCCESS &&
            status <= CL_COMPLETE)
            break; /* complete, or terminated with an error: it will not run any more */
        if (cl->clFinish(queue) == CL_SUCCESS)
            break;
    }
    return err;
}

static int align16(const void *p)
{
    return (int)((uintptr_t)p % 16);
}

int clsel_priv_runtime_can_share(const clsel_runtime *rt, const clsel_plan *plan,
                                 const void *const in[3], const void *out)
{
    if (rt->copy_only || !rt->ctx->host_unified)
        return 0;
    for (int op = 0; op < PLAN_OPERANDS; ++op)
        if (clsel_priv_plan_tensor_bytes(plan, op) > rt->ctx->max_alloc)
            return 0;
    /* A buffer over an output with gaps (a strided view) could be written back whole by a device
     * that caches it: the copying path writes those bytes back as it read them, in chunks it orders
     * itself. */
    if (clsel_priv_plan_out_has_gaps(plan))
        return 0;
    /* Buffers over overlapping host memory are undefined in OpenCL, so an in-place run
     * takes the copying path. clsel_runtime_run has already refused every other overlap
     * (clsel_priv_plan_check_overlap), so in place is out starting where then or else does. */
    return out != in[PLAN_THEN] && out != in[PLAN_ELSE];
}

clsel_status clsel_priv_runtime_run_shared(clsel_runtime *rt, const clsel_plan *plan,
                                           const void *const in[3], void *out)
{
    const clsel_cl_api *cl = rt->cl;
    static const cl_mem_flags flags[PLAN_OPERANDS] = {CL_MEM_READ_ONLY, CL_MEM_READ_ONLY,
                                                      CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
    void *const zero[PLAN_OPERANDS] = {(void *)(uintptr_t)in[0], (void *)(uintptr_t)in[1],
                                       (void *)(uintptr_t)in[2], out};
    plan_iter local =
        plan->iter; /* over buffers that start at each tensor's first touched element */
    uint8_t *host[PLAN_OPERANDS];
    for (int op = 0; op < PLAN_OPERANDS; ++op) {
        host[op] = (uint8_t *)zero[op] + plan->first[op] * (int64_t)clsel_priv_plan_width(plan, op);
        local.base[op] -= plan->first[op];
    }
    cl_mem mem[PLAN_OPERANDS] = {NULL};
    cl_tensor tensors[PLAN_OPERANDS];
    cl_event done = NULL;
    cl_int err = CL_SUCCESS;
    clsel_status st = CLSEL_SUCCESS;
    for (int op = 0; op < PLAN_OPERANDS && st == CLSEL_SUCCESS; ++op) {
        const uint64_t bytes = clsel_priv_plan_tensor_bytes(plan, op);
        mem[op] = cl->clCreateBuffer(rt->context, flags[op] | CL_MEM_USE_HOST_PTR, (size_t)bytes,
                                     host[op], &err);
        if (!mem[op] || err != CL_SUCCESS)
            st = clsel_priv_fail_cl(CLSEL_ERROR_OUT_OF_MEMORY, err ? err : CL_OUT_OF_RESOURCES,
                                    "clCreateBuffer(CL_MEM_USE_HOST_PTR) of %llu bytes failed",
                                    (unsigned long long)bytes);
        tensors[op] = clsel_priv_cl_own_tensor(mem[op], align16(host[op]), (size_t)bytes);
    }
    if (st == CLSEL_SUCCESS)
        st = clsel_priv_cl_launch(rt->ctx, rt->queue, &local, plan->elem_size, tensors, 0, NULL,
                                  &done);
    if (st == CLSEL_SUCCESS) {
        void *mapped = cl->clEnqueueMapBuffer(rt->queue, mem[PLAN_OUT], CL_TRUE, CL_MAP_READ, 0,
                                              (size_t)clsel_priv_plan_tensor_bytes(plan, PLAN_OUT),
                                              0, NULL, NULL, &err);
        if (!mapped || err != CL_SUCCESS) {
            st = clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err ? err : CL_OUT_OF_RESOURCES,
                                    "clEnqueueMapBuffer failed");
        } else {
            err = cl->clEnqueueUnmapMemObject(rt->queue, mem[PLAN_OUT], mapped, 0, NULL, NULL);
            if (err != CL_SUCCESS)
                st = clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clEnqueueUnmapMemObject failed");
        }
    }
    /* The launch writes the caller's memory itself: it must be over before we return. */
    err = drain(rt, rt->queue, done);
    if (err != CL_SUCCESS && st == CLSEL_SUCCESS)
        st = clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clFinish failed");
    if (done)
        cl->clReleaseEvent(done);
    for (int op = 0; op < PLAN_OPERANDS; ++op)
        if (mem[op])
            cl->clReleaseMemObject(mem[op]);
    return st;
}

/* The most bytes of one tensor the runtime puts in one device buffer: a chunk's size,
 * within the device's allocation limit and the caller's bound. */
static uint64_t chunk_bytes(const clsel_runtime *rt)
{
    uint64_t limit = RUNTIME_CHUNK_MAX_BYTES;
    const uint64_t bounds[3] = {(uint64_t)rt->ctx->max_alloc,
                                rt->ctx->global_mem / RUNTIME_CHUNK_MEMORY_SHARE, rt->chunk_bytes};
    for (int i = 0; i < 3; ++i)
        if (bounds[i] && bounds[i] < limit)
            limit = bounds[i];
    return limit;
}

typedef struct chunk_run {
    clsel_runtime *rt;
    const clsel_plan *plan;
    const uint8_t *host[PLAN_OPERANDS];
    cl_command_queue queue[RUNTIME_CHUNK_SETS];
    cl_mem mem[RUNTIME_CHUNK_SETS][PLAN_OPERANDS];
    size_t bytes[PLAN_OPERANDS]; /* each buffer's size */
    int out_gaps; /* the output has bytes between its elements: uploaded, written back */
    cl_event host_last[RUNTIME_CHUNK_SETS]; /* each set's last command that reads or writes the
                                               caller's memory */
} chunk_run;

/* Keeps `event` as the set's last transfer to or from the caller's memory. */
static void note_transfer(chunk_run *run, int set, cl_event event)
{
    if (run->host_last[set])
        run->rt->cl->clReleaseEvent(run->host_last[set]);
    run->host_last[set] = event;
}

/* Uploads a box's input spans (and a strided output's), runs it over them and downloads its output,
 * all on the set's queue (in order: the set's buffers are reused only after its previous
 * download). */
static clsel_status run_box(chunk_run *run, int set, const plan_iter *box)
{
    const clsel_cl_api *cl = run->rt->cl;
    const size_t w = run->plan->elem_size;
    cl_command_queue q = run->queue[set];
    plan_iter local = *box; /* the box over the buffers, which start at each span's first element */
    cl_tensor tensors[PLAN_OPERANDS];
    int64_t first[PLAN_OPERANDS];
    size_t bytes[PLAN_OPERANDS];
    for (int op = 0; op < PLAN_OPERANDS; ++op) {
        const size_t size = clsel_priv_plan_width(run->plan, op);
        int64_t lo, hi;
        clsel_priv_plan_iter_span(box, op, &lo, &hi);
        local.base[op] -= lo;
        first[op] = lo * (int64_t)size; /* from element [0]: below it where a stride is negative */
        bytes[op] = (size_t)(hi - lo + 1) * size;
        tensors[op] = clsel_priv_cl_own_tensor(
            run->mem[set][op], run->rt->ctx->base_align >= 16 ? 0 : -1, run->bytes[op]);
        if (op == PLAN_OUT && !run->out_gaps)
            continue;
        cl_event sent = NULL;
        const cl_int err = cl->clEnqueueWriteBuffer(q, run->mem[set][op], CL_FALSE, 0, bytes[op],
                                                    run->host[op] + first[op], 0, NULL, &sent);
        if (err != CL_SUCCESS)
            return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clEnqueueWriteBuffer failed");
        note_transfer(run, set, sent);
    }
    clsel_status st = clsel_priv_cl_launch(run->rt->ctx, q, &local, w, tensors, 0, NULL, NULL);
    if (st != CLSEL_SUCCESS)
        return st;
    cl_event received = NULL;
    const cl_int err = cl->clEnqueueReadBuffer(
        q, run->mem[set][PLAN_OUT], CL_FALSE, 0, bytes[PLAN_OUT],
        (uint8_t *)run->host[PLAN_OUT] + first[PLAN_OUT], 0, NULL, &received);
    if (err != CL_SUCCESS)
        return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clEnqueueReadBuffer failed");
    note_transfer(run, set, received);
    return CLSEL_SUCCESS;
}

clsel_status clsel_priv_runtime_run_chunked(clsel_runtime *rt, const clsel_plan *plan,
                                            const void *const in[3], void *out)
{
    const clsel_cl_api *cl = rt->cl;
    int64_t most = (int64_t)(chunk_bytes(rt) / plan->elem_size);
    if (most < 1)
        most = 1; /* a chunk holds at least one element whatever the bound */
    plan_split split;
    clsel_priv_plan_split(&split, &plan->iter, most, most);
    chunk_run run = {rt,       plan, {in[0], in[1], in[2], out},         {rt->queue, rt->queue2},
                     {{NULL}}, {0},  clsel_priv_plan_out_has_gaps(plan), {NULL}};
    for (int op = 0; op < PLAN_OPERANDS;
         ++op) { /* a box's span of a tensor: at most `most`, at most the whole */
        int64_t lo, hi;
        clsel_priv_plan_iter_span(&plan->iter, op, &lo, &hi);
        run.bytes[op] =
            (size_t)(hi - lo + 1 < most ? hi - lo + 1 : most) * clsel_priv_plan_width(plan, op);
    }
    clsel_status st = CLSEL_SUCCESS;
    for (int64_t k = 0; st == CLSEL_SUCCESS && k < split.count; ++k) {
        const int set = (int)(k % RUNTIME_CHUNK_SETS);
        for (int op = 0; op < PLAN_OPERANDS && k < RUNTIME_CHUNK_SETS && st == CLSEL_SUCCESS;
             ++op) {
            cl_int err = CL_SUCCESS;
            const cl_mem_flags flags = op != PLAN_OUT ? CL_MEM_READ_ONLY
                                       : run.out_gaps ? CL_MEM_READ_WRITE
                                                      : CL_MEM_WRITE_ONLY;
            run.mem[set][op] = cl->clCreateBuffer(rt->context, flags, run.bytes[op], NULL, &err);
            if (!run.mem[set][op] || err != CL_SUCCESS)
                st = clsel_priv_fail_cl(CLSEL_ERROR_OUT_OF_MEMORY, err ? err : CL_OUT_OF_RESOURCES,
                                        "clCreateBuffer for a chunk of %zu bytes failed",
                                        run.bytes[op]);
        }
        plan_iter box;
        clsel_priv_plan_split_box(&split, k, &box);
        if (st == CLSEL_SUCCESS)
            st = run_box(&run, set, &box);
    }
    for (int set = 0; set < RUNTIME_CHUNK_SETS; ++set) {
        /* The downloads land, and no upload still reads the caller's memory, before we
         * return or the CPU path rewrites `out`. */
        const cl_int err = drain(rt, run.queue[set], run.host_last[set]);
        if (err != CL_SUCCESS && st == CLSEL_SUCCESS)
            st = clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clFinish failed");
        note_transfer(&run, set, NULL);
        for (int op = 0; op < PLAN_OPERANDS; ++op)
            if (run.mem[set][op])
                cl->clReleaseMemObject(run.mem[set][op]);
    }
    return st;
}
