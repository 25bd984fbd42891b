/* runtime_run.c - clsel_runtime_run: host memory in, host memory out, on the CPU path for small
 * runs (and, under AUTO, on a device that does not share host memory and was measured slower than
 * the CPU path), otherwise on the runtime's device, in place or copied in chunks
 * (runtime_device.c). If the device fails part-way, the whole run is done again on the CPU path:
 * the caller gets the right result rather than half of one, told so by
 * clsel_runtime_last_run_path. */
#include <stdio.h>
#include <time.h>

#include "common/alloc.h"
#include "common/error.h"
#include "common/tuning.h"
#include "common/tuning_constants.h"
#include "cpu/cpu_run.h"
#include "runtime/runtime.h"

/* Where this thread's last clsel_runtime_run ran (clsel_runtime_last_run_path). */
static _Thread_local clsel_run_path last_path = CLSEL_RUN_NONE;

/* The CPU path with the runtime's threads, over host tensors already checked. */
static void run_cpu(const clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                    void *out)
{
    clsel_cpu_options options = clsel_cpu_options_default();
    options.threads = rt->cpu_threads ? rt->cpu_threads : clsel_priv_cpu_cores();
    const cpu_tensors t = clsel_priv_cpu_tensors(plan, in[0], in[1], in[2], out);
    clsel_priv_cpu_run(&plan->iter, plan->elem_size, &t, &options);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The best of RUNTIME_CALIBRATION_RUNS timed runs on one path; -1 when a run failed. */
static double best_run(clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                       void *out, int device)
{
    double best = -1;
    for (int k = 0; k < RUNTIME_CALIBRATION_RUNS; ++k) {
        const double t0 = now_ms();
        if (!device)
            run_cpu(rt, plan, in, out);
        else if (clsel_priv_runtime_run_chunked(rt, plan, in, out) != CLSEL_SUCCESS)
            return -1;
        const double ms = now_ms() - t0;
        if (best < 0 || ms < best)
            best = ms;
    }
    return best;
}

/* AUTO's rule for host memory on a device that does not work in it (a discrete GPU): a run there
 * copies every input across the bus and the output back, and Select does nothing but move bytes, so
 * the device wins only where the bus outruns the host's memory (PCIe 5.0 x16: 64 GB/s each way at
 * best, against hundreds of GB/s of DRAM). The first run that would go there is preceded, once per
 * runtime, by both paths timed on the same same-shape u8 run (RUNTIME_CALIBRATION_*); runs go to
 * the device only if it was faster. A runtime asked for OpenCL by name, a device that shares host
 * memory or does not say, and a runtime whose caller set the size threshold are not measured: runs
 * go to the device. Thread-safe. */
static int device_pays(clsel_runtime *rt)
{
    const int discrete = (rt->ctx->host_memory_known && !rt->ctx->host_unified) ||
                         clsel_priv_knob_get(CLSEL_PRIV_KNOB_HOST_AS_DISCRETE) != 0;
    if (!rt->auto_chosen || rt->threshold_chosen || !discrete)
        return 1;
    int verdict = atomic_load_explicit(&rt->device_pays, memory_order_acquire);
    if (verdict >= 0)
        return verdict;
    clsel_mutex_lock(&rt->calibration_lock);
    verdict = atomic_load_explicit(&rt->device_pays, memory_order_relaxed);
    if (verdict < 0) {
        rt->device_ms = rt->cpu_ms = -1;
        const clsel_shape s = {1, {RUNTIME_CALIBRATION_ELEMENTS}};
        clsel_plan *plan = NULL;
        const size_t n = (size_t)RUNTIME_CALIBRATION_ELEMENTS;
        uint8_t *bytes = clsel_priv_malloc(4 * n);
        if (bytes && clsel_plan_create(CLSEL_U8, &s, &s, &s, NULL, &plan) == CLSEL_SUCCESS) {
            for (size_t i = 0; i < 3 * n; ++i)
                bytes[i] = (uint8_t)(i * 2654435761u >> 24); /* cond bytes vary */
            const void *const in[3] = {bytes, bytes + n, bytes + 2 * n};
            rt->cpu_ms = best_run(rt, plan, in, bytes + 3 * n, 0);
            rt->device_ms = best_run(rt, plan, in, bytes + 3 * n, 1);
        }
        clsel_plan_destroy(plan);
        clsel_priv_free(bytes);
        /* A device that failed to run counts as the slower one. */
        verdict = rt->device_ms >= 0 && (rt->cpu_ms < 0 || rt->device_ms < rt->cpu_ms);
        atomic_store_explicit(&rt->device_pays, verdict, memory_order_release);
    }
    clsel_mutex_unlock(&rt->calibration_lock);
    return verdict;
}

clsel_status clsel_runtime_run(clsel_runtime *rt, const clsel_plan *plan, const void *cond,
                               const void *then_data, const void *else_data, void *out)
{
    last_path = CLSEL_RUN_NONE;
    if (!rt || !plan)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_runtime_run: %s is NULL",
                               rt ? "plan" : "rt");
    const clsel_status checked =
        clsel_priv_cpu_check_buffers(plan, cond, then_data, else_data, out);
    if (checked != CLSEL_SUCCESS)
        return checked;
    const void *const in[3] = {cond, then_data, else_data};
    if (plan->out_count == 0 || rt->kind == CLSEL_DEVICE_CPU ||
        clsel_priv_plan_bytes_moved(plan) < rt->min_device_bytes || !device_pays(rt)) {
        run_cpu(rt, plan, in, out);
        last_path = CLSEL_RUN_CPU;
        return CLSEL_SUCCESS;
    }
    const clsel_status st = clsel_priv_runtime_can_share(rt, plan, in, out)
                                ? clsel_priv_runtime_run_shared(rt, plan, in, out)
                                : clsel_priv_runtime_run_chunked(rt, plan, in, out);
    if (st == CLSEL_SUCCESS) {
        last_path = CLSEL_RUN_DEVICE;
        return st;
    }
    /* The device failed part-way: the whole run on the CPU path, the device's message kept for the
     * caller to read. */
    char device_failure[1024];
    snprintf(device_failure, sizeof device_failure, "%s", clsel_last_error());
    run_cpu(rt, plan, in, out);
    clsel_priv_fail(CLSEL_ERROR_OPENCL, "%s (the run was finished on the CPU path)",
                    device_failure);
    last_path = CLSEL_RUN_RESCUED;
    return CLSEL_SUCCESS;
}

clsel_run_path clsel_runtime_last_run_path(void)
{
    return last_path;
}
