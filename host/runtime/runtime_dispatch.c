/* runtime_dispatch.c - clsel_runtime_run, the dispatcher over the runtime's leaves:
 * host memory in, host memory out, on the CPU path (runtime_fallback.c) for small runs
 * (and, under AUTO, on a device that does not share host memory and was measured slower
 * than the CPU path: runtime_calibrate.c), otherwise on the runtime's device, in place
 * (runtime_shared.c) or copied in chunks (runtime_chunked.c). It only chooses: each
 * leaf finishes the run, a device path rescuing itself on the CPU path if the device
 * fails part-way, and no leaf calls back here. */
#include "common/error.h"
#include "cpu/select_cpu.h"
#include "plan/plan.h"
#include "runtime/runtime.h"
#include "runtime/runtime_device_paths.h"
#include "runtime/runtime_fallback.h"

/* Where this thread's last clsel_runtime_run ran (clsel_runtime_last_run_path). */
static _Thread_local clsel_run_path last_path = CLSEL_RUN_NONE;

clsel_status clsel_runtime_run(clsel_runtime *rt, const clsel_plan *plan, const void *cond,
                               const void *then_data, const void *else_data, void *out)
{
    last_path = CLSEL_RUN_NONE;
    if (!rt || !plan)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_runtime_run: %s is NULL", rt ? "plan" : "rt");
    clsel_status st = clsel_priv_cpu_check_buffers(plan, cond, then_data, else_data, out);
    if (st != CLSEL_SUCCESS) return st;
    const void *const in[3] = {cond, then_data, else_data};
    if (plan->out_count == 0 || rt->kind == CLSEL_DEVICE_CPU || clsel_priv_plan_bytes_moved(plan) < rt->min_device_bytes ||
        !clsel_priv_runtime_device_pays(rt)) {
        st = clsel_priv_runtime_run_cpu(rt, plan, in, out);
        if (st == CLSEL_SUCCESS) last_path = CLSEL_RUN_CPU;
        return st;
    }
    /* In place on a device that works in host memory; else copied through it in chunks
     * (one chunk for a run that fits). */
    int rescued = 0;
    st = clsel_priv_runtime_can_share(rt, plan, in, out) ? clsel_priv_runtime_run_shared(rt, plan, in, out, &rescued)
                                                          : clsel_priv_runtime_run_chunked(rt, plan, in, out, &rescued);
    if (st == CLSEL_SUCCESS) last_path = rescued ? CLSEL_RUN_RESCUED : CLSEL_RUN_DEVICE;
    return st;
}

clsel_run_path clsel_runtime_last_run_path(void) { return last_path; }
