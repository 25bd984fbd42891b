/* runtime_run.c - clsel_runtime_run: host memory in, host memory out, on the runtime's
 * device. */
#include "common/error.h"
#include "cpu/select_cpu.h"
#include "plan/plan.h"
#include "runtime/runtime.h"

/* A device buffer holding a copy of `bytes` of host data (or, for NULL, uninitialized). */
static clsel_status make_buffer(const clsel_runtime *rt, const void *host, size_t bytes, cl_mem *mem,
                                const char *name)
{
    cl_int err = CL_SUCCESS;
    cl_mem_flags flags = host ? CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR : CL_MEM_WRITE_ONLY;
    *mem = rt->cl->clCreateBuffer(rt->context, flags, bytes, (void *)(uintptr_t)host, &err);
    if (*mem && err == CL_SUCCESS) return CLSEL_SUCCESS;
    *mem = NULL;
    return clsel_priv_fail_cl(err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_HOST_MEMORY ||
                                 err == CL_INVALID_BUFFER_SIZE
                             ? CLSEL_ERROR_OUT_OF_MEMORY
                             : CLSEL_ERROR_OPENCL,
                         err, "clCreateBuffer(%s, %zu bytes) on %s failed", name, bytes, rt->name);
}

/* Whether every tensor fits in one chunk's buffer. */
static int fits_one_chunk(const clsel_runtime *rt, const clsel_plan *plan)
{
    const cl_ulong limit = clsel_priv_runtime_chunk_bytes(rt);
    if ((cl_ulong)plan->out_count * plan->elem_size > limit) return 0;
    for (int op = 0; op < 3; ++op)
        if ((cl_ulong)plan->in_count[op] * (op ? plan->elem_size : 1) > limit) return 0;
    return 1;
}

static clsel_status run_opencl(clsel_runtime *rt, const clsel_plan *plan, const void *const in[3], void *out)
{
    static const char *const names[3] = {"cond", "then", "else"};
    cl_mem mems[4] = {NULL, NULL, NULL, NULL};
    const size_t out_bytes = (size_t)plan->out_count * plan->elem_size;
    clsel_status st = CLSEL_SUCCESS;
    for (int op = 0; op < 3 && st == CLSEL_SUCCESS; ++op)
        st = make_buffer(rt, in[op], (size_t)plan->in_count[op] * (op ? plan->elem_size : 1), &mems[op],
                         names[op]);
    if (st == CLSEL_SUCCESS) st = make_buffer(rt, NULL, out_bytes, &mems[3], "out");
    if (st == CLSEL_SUCCESS)
        st = clsel_cl_enqueue(rt->ctx, plan, rt->queue, mems[0], 0, mems[1], 0, mems[2], 0, mems[3], 0, 0,
                              NULL, NULL);
    if (st == CLSEL_SUCCESS) {
        /* Blocking: on an in-order queue the read follows the kernel. */
        cl_int err = rt->cl->clEnqueueReadBuffer(rt->queue, mems[3], CL_TRUE, 0, out_bytes, out, 0, NULL, NULL);
        if (err != CL_SUCCESS) st = clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clEnqueueReadBuffer(out) failed");
    }
    for (int i = 0; i < 4; ++i)
        if (mems[i]) rt->cl->clReleaseMemObject(mems[i]);
    return st;
}

/* Where this thread's last clsel_runtime_run ran (clsel_runtime_last_run_path). */
static _Thread_local clsel_run_path last_path = CLSEL_RUN_NONE;

/* Bytes a run moves: each input at its own size, and the output. */
static uint64_t bytes_moved(const clsel_plan *plan)
{
    uint64_t bytes = (uint64_t)plan->in_count[PLAN_COND] + (uint64_t)plan->out_count * plan->elem_size;
    for (int op = PLAN_THEN; op <= PLAN_ELSE; ++op) bytes += (uint64_t)plan->in_count[op] * plan->elem_size;
    return bytes;
}

clsel_status clsel_runtime_set_min_device_bytes(clsel_runtime *rt, uint64_t bytes)
{
    if (!rt) return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_runtime_set_min_device_bytes: rt is NULL");
    rt->min_device_bytes = bytes;
    return CLSEL_SUCCESS;
}

clsel_status clsel_runtime_run(clsel_runtime *rt, const clsel_plan *plan, const void *cond,
                               const void *then_data, const void *else_data, void *out)
{
    if (!rt || !plan)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_runtime_run: %s is NULL", rt ? "plan" : "rt");
    last_path = CLSEL_RUN_NONE;
    clsel_status st = clsel_priv_cpu_check_buffers(plan, cond, then_data, else_data, out);
    if (st != CLSEL_SUCCESS) return st;
    if (plan->out_count == 0 || rt->kind == CLSEL_DEVICE_CPU || bytes_moved(plan) < rt->min_device_bytes) {
        st = clsel_plan_run_cpu(plan, cond, then_data, else_data, out);
        if (st == CLSEL_SUCCESS) last_path = CLSEL_RUN_CPU;
        return st;
    }
    const void *const in[3] = {cond, then_data, else_data};
    int rescued = 0;
    st = fits_one_chunk(rt, plan) ? run_opencl(rt, plan, in, out)
                                  : clsel_priv_runtime_run_chunked(rt, plan, in, out, &rescued);
    if (st == CLSEL_SUCCESS) last_path = rescued ? CLSEL_RUN_RESCUED : CLSEL_RUN_DEVICE;
    return st;
}

clsel_run_path clsel_runtime_last_run_path(void) { return last_path; }
