/* runtime_fallback.c - the bottom leaf of the runtime's dispatcher (runtime_dispatch.c):
 * the CPU path with the runtime's threads, and what a device path (runtime_shared.c,
 * runtime_chunked.c) does when the device fails part-way: drain its queue, so that
 * nothing on the device still reads or writes the caller's memory, then run the whole
 * plan on the CPU path, so that the caller gets the right result rather than half of
 * one. It calls nothing else in host/runtime (runtime_fallback.h). */
#include <stdio.h>

#include "common/error.h"
#include "cpu/select_cpu.h"
#include "runtime/runtime_fallback.h"

clsel_status clsel_priv_runtime_run_cpu(const clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                        void *out)
{
    clsel_cpu_options options = clsel_cpu_options_default();
    options.threads = rt->cpu_threads ? rt->cpu_threads : clsel_priv_cpu_cores();
    return clsel_plan_run_cpu_options(plan, in[0], in[1], in[2], out, &options);
}

cl_int clsel_priv_runtime_drain(const clsel_runtime *rt, cl_command_queue queue, cl_event last)
{
    const clsel_cl_api *cl = rt->cl;
    const cl_int err = cl->clFinish(queue);
    if (err == CL_SUCCESS || !last || cl->clWaitForEvents(1, &last) == CL_SUCCESS) return err;
    for (int tries = 0; tries < 1000000; ++tries) {
        cl_int status = CL_COMPLETE;
        if (cl->clGetEventInfo(last, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) == CL_SUCCESS &&
            status <= CL_COMPLETE)
            break; /* complete, or terminated with an error: it will not run any more */
        if (cl->clFinish(queue) == CL_SUCCESS) break;
    }
    return err;
}

clsel_status clsel_priv_runtime_rescue(const clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                       void *out)
{
    char device_failure[1024];
    snprintf(device_failure, sizeof device_failure, "%s", clsel_last_error());
    clsel_status st = clsel_priv_runtime_run_cpu(rt, plan, in, out);
    if (st == CLSEL_SUCCESS) /* the caller can still read what went wrong on the device */
        clsel_priv_fail(CLSEL_ERROR_OPENCL, "%s (the run was finished on the CPU path)", device_failure);
    return st;
}
