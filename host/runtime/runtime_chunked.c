/* runtime_chunked.c - a leaf of the runtime's dispatcher (runtime_dispatch.c): the
 * device path that copies, for every size, the output in chunks (plan_chunk.c; one
 * chunk for a run that fits, and as many as it takes for tensors that do not fit one
 * device allocation), each with only the spans of the inputs it reads uploaded,
 * alternating between two queues and two sets of buffers so that one chunk's transfers
 * can overlap the other's kernel on devices that copy and compute at once. If the
 * device fails part-way, the queues are drained and the run is finished on the CPU path
 * (runtime_fallback.c): the caller gets the right result rather than half of one. */
#include "common/error.h"
#include "common/tuning_constants.h"
#include "plan/plan_chunk.h"
#include "runtime/runtime.h"
#include "runtime/runtime_device_paths.h"
#include "runtime/runtime_fallback.h"

/* The most bytes of one tensor the runtime puts in one device buffer: a chunk's size,
 * within the device's allocation limit and the caller's bound. */
static uint64_t chunk_bytes(const clsel_runtime *rt)
{
    uint64_t limit = RUNTIME_CHUNK_MAX_BYTES;
    const uint64_t bounds[3] = {(uint64_t)rt->ctx->max_alloc, rt->ctx->global_mem / RUNTIME_CHUNK_MEMORY_SHARE, rt->chunk_bytes};
    for (int i = 0; i < 3; ++i)
        if (bounds[i] && bounds[i] < limit) limit = bounds[i];
    return limit;
}

typedef struct chunk_run {
    clsel_runtime *rt;
    const clsel_plan *plan;
    const uint8_t *in[3];
    uint8_t *out;
    cl_command_queue queue[RUNTIME_CHUNK_SETS];
    cl_mem mem[RUNTIME_CHUNK_SETS][4]; /* cond, then, else, out of each set */
    size_t bytes[4];     /* each buffer's size */
    cl_event host_last[RUNTIME_CHUNK_SETS]; /* each set's last command that reads or writes the caller's memory */
} chunk_run;

/* Keeps `event` as the set's last transfer to or from the caller's memory. */
static void note_transfer(chunk_run *run, int set, cl_event event)
{
    if (run->host_last[set]) run->rt->cl->clReleaseEvent(run->host_last[set]);
    run->host_last[set] = event;
}

static cl_int make_set(chunk_run *run, int set)
{
    cl_int err = CL_SUCCESS;
    static const cl_mem_flags flags[4] = {CL_MEM_READ_ONLY, CL_MEM_READ_ONLY, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
    for (int t = 0; t < 4 && err == CL_SUCCESS; ++t) {
        run->mem[set][t] = run->rt->cl->clCreateBuffer(run->rt->context, flags[t], run->bytes[t], NULL, &err);
        if (!run->mem[set][t] && err == CL_SUCCESS) err = CL_OUT_OF_RESOURCES;
    }
    return err;
}

/* Uploads a chunk's input spans, runs it and downloads its output, all on the set's
 * queue (in order: the set's buffers are reused only after its previous download). */
static clsel_status run_chunk(chunk_run *run, int set, const clsel_plan *chunk, const int64_t base[PLAN_OPERANDS])
{
    const clsel_cl_api *cl = run->rt->cl;
    const size_t w = run->plan->elem_size;
    cl_command_queue q = run->queue[set];
    for (int op = 0; op < 3; ++op) {
        const size_t size = op ? w : 1;
        cl_event sent = NULL;
        cl_int err = cl->clEnqueueWriteBuffer(q, run->mem[set][op], CL_FALSE, 0, (size_t)chunk->in_count[op] * size,
                                              run->in[op] + (size_t)base[op] * size, 0, NULL, &sent);
        if (err != CL_SUCCESS) return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clEnqueueWriteBuffer failed");
        note_transfer(run, set, sent);
    }
    clsel_status st = clsel_cl_enqueue(run->rt->ctx, chunk, q, run->mem[set][0], 0, run->mem[set][1], 0,
                                       run->mem[set][2], 0, run->mem[set][3], 0, 0, NULL, NULL);
    if (st != CLSEL_SUCCESS) return st;
    cl_event received = NULL;
    cl_int err = cl->clEnqueueReadBuffer(q, run->mem[set][3], CL_FALSE, 0, (size_t)chunk->out_count * w,
                                         run->out + (size_t)base[PLAN_OUT] * w, 0, NULL, &received);
    if (err != CL_SUCCESS) return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clEnqueueReadBuffer failed");
    note_transfer(run, set, received);
    return CLSEL_SUCCESS;
}

clsel_status clsel_priv_runtime_run_chunked(clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                            void *out, int *rescued)
{
    *rescued = 0;
    const clsel_cl_api *cl = rt->cl;
    plan_chunks it;
    clsel_priv_plan_chunks_start(&it, plan, (int64_t)(chunk_bytes(rt) / plan->elem_size));
    const size_t most = (size_t)clsel_priv_plan_chunks_max_elements(&it);

    chunk_run run = {rt, plan, {in[0], in[1], in[2]}, out, {rt->queue, rt->queue2}, {{NULL}}, {0}, {NULL}};
    run.bytes[0] = most;
    run.bytes[1] = run.bytes[2] = run.bytes[3] = most * plan->elem_size;
    clsel_status st = CLSEL_SUCCESS;
    clsel_plan chunk;
    int64_t base[PLAN_OPERANDS];
    for (int index = 0; st == CLSEL_SUCCESS && clsel_priv_plan_chunks_next(&it, &chunk, base); ++index) {
        const int set = index % RUNTIME_CHUNK_SETS;
        if (index < RUNTIME_CHUNK_SETS) {
            cl_int err = make_set(&run, set);
            if (err != CL_SUCCESS) {
                st = clsel_priv_fail_cl(CLSEL_ERROR_OUT_OF_MEMORY, err, "clCreateBuffer for a chunk of %zu elements failed",
                                   most);
                break;
            }
        }
        st = run_chunk(&run, set, &chunk, base);
    }
    for (int set = 0; set < RUNTIME_CHUNK_SETS; ++set) {
        /* The downloads land, and no upload still reads the caller's memory, before we
         * return or the CPU path rewrites `out`. */
        cl_int err = clsel_priv_runtime_drain(rt, run.queue[set], run.host_last[set]);
        if (err != CL_SUCCESS && st == CLSEL_SUCCESS) st = clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clFinish failed");
        note_transfer(&run, set, NULL);
        for (int t = 0; t < 4; ++t)
            if (run.mem[set][t]) cl->clReleaseMemObject(run.mem[set][t]);
    }
    if (st != CLSEL_SUCCESS) { /* the device failed part-way: the whole run on the CPU path */
        *rescued = 1;
        st = clsel_priv_runtime_rescue(rt, plan, in, out);
    }
    return st;
}
