/* runtime_shared.c - a leaf of the runtime's dispatcher (runtime_dispatch.c): the device
 * path on a device that works in host memory (CL_DEVICE_HOST_UNIFIED_MEMORY: CPU
 * devices such as PoCL, integrated GPUs). The kernels read the caller's inputs and write
 * its output in place, through CL_MEM_USE_HOST_PTR buffers, instead of every byte being
 * copied to the device and back (a discrete GPU keeps the chunked, copying path,
 * runtime_chunked.c). A map and unmap of the output makes the device's writes visible
 * to the host, as OpenCL requires. If the device fails, the queue is drained and the
 * run is finished on the CPU path (runtime_fallback.c). */
#include <stdint.h>

#include "common/error.h"
#include "plan/plan.h"
#include "runtime/runtime.h"
#include "runtime/runtime_device_paths.h"
#include "runtime/runtime_fallback.h"

int clsel_priv_runtime_can_share(const clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                 const void *out)
{
    if (rt->copy_only || !rt->ctx->host_unified) return 0;
    for (int op = 0; op < PLAN_OPERANDS; ++op)
        if (clsel_priv_plan_tensor_bytes(plan, op) > rt->ctx->max_alloc) return 0;
    /* Buffers over overlapping host memory are undefined in OpenCL, so an in-place run
     * takes the copying path. clsel_runtime_run has already refused every other overlap
     * (clsel_priv_plan_check_overlap), so in place is out starting where then or else does. */
    return out != in[PLAN_THEN] && out != in[PLAN_ELSE];
}

clsel_status clsel_priv_runtime_run_shared(clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                           void *out, int *rescued)
{
    *rescued = 0;
    const clsel_cl_api *cl = rt->cl;
    static const cl_mem_flags flags[PLAN_OPERANDS] = {CL_MEM_READ_ONLY, CL_MEM_READ_ONLY, CL_MEM_READ_ONLY,
                                                      CL_MEM_WRITE_ONLY};
    void *const host[PLAN_OPERANDS] = {(void *)(uintptr_t)in[0], (void *)(uintptr_t)in[1], (void *)(uintptr_t)in[2],
                                       out};
    cl_mem mem[PLAN_OPERANDS] = {NULL};
    cl_event done = NULL;
    cl_int err = CL_SUCCESS;
    clsel_status st = CLSEL_SUCCESS;
    for (int op = 0; op < PLAN_OPERANDS && st == CLSEL_SUCCESS; ++op) {
        const uint64_t bytes = clsel_priv_plan_tensor_bytes(plan, op);
        if (bytes == 0) continue; /* an empty input (a zero-element tensor has no buffer) */
        mem[op] = cl->clCreateBuffer(rt->context, flags[op] | CL_MEM_USE_HOST_PTR, (size_t)bytes, host[op], &err);
        if (!mem[op] || err != CL_SUCCESS)
            st = clsel_priv_fail_cl(CLSEL_ERROR_OUT_OF_MEMORY, err ? err : CL_OUT_OF_RESOURCES,
                                    "clCreateBuffer(CL_MEM_USE_HOST_PTR) of %llu bytes failed",
                                    (unsigned long long)bytes);
    }
    if (st == CLSEL_SUCCESS)
        st = clsel_cl_enqueue(rt->ctx, plan, rt->queue, mem[0], 0, mem[1], 0, mem[2], 0, mem[3], 0, 0, NULL, &done);
    if (st == CLSEL_SUCCESS) {
        void *mapped = cl->clEnqueueMapBuffer(rt->queue, mem[PLAN_OUT], CL_TRUE, CL_MAP_READ, 0,
                                              (size_t)clsel_priv_plan_tensor_bytes(plan, PLAN_OUT), 0, NULL, NULL, &err);
        if (!mapped || err != CL_SUCCESS) {
            st = clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err ? err : CL_OUT_OF_RESOURCES, "clEnqueueMapBuffer failed");
        } else {
            err = cl->clEnqueueUnmapMemObject(rt->queue, mem[PLAN_OUT], mapped, 0, NULL, NULL);
            if (err != CL_SUCCESS) st = clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clEnqueueUnmapMemObject failed");
        }
    }
    /* The kernel writes the caller's memory itself: it must be over before we return or
     * the CPU path rewrites `out`. */
    err = clsel_priv_runtime_drain(rt, rt->queue, done);
    if (err != CL_SUCCESS && st == CLSEL_SUCCESS) st = clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clFinish failed");
    if (done) cl->clReleaseEvent(done);
    for (int op = 0; op < PLAN_OPERANDS; ++op)
        if (mem[op]) cl->clReleaseMemObject(mem[op]);
    if (st != CLSEL_SUCCESS) {
        *rescued = 1;
        st = clsel_priv_runtime_rescue(rt, plan, in, out);
    }
    return st;
}
