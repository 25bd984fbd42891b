/* runtime_calibrate.c - a leaf of the runtime's dispatcher (runtime_dispatch.c), which
 * asks it before taking a device path, and the one leaf that calls another: it times
 * the chunked path (runtime_chunked.c) against the CPU path (runtime_fallback.c).
 *
 * AUTO's rule for host memory on a device that does not work in it (a discrete GPU;
 * CL_DEVICE_HOST_UNIFIED_MEMORY false). A run there copies every
 * input byte across the bus to the device and the output back, and Select does no work
 * but moving those bytes: the device can only win where the bus moves bytes faster than
 * the host's cores move them through host memory, which a PCIe GPU in a server rarely
 * does (PCIe 5.0 x16: 64 GB/s each way at best, against hundreds of GB/s of DRAM). So
 * the first run that would go there is preceded, once per runtime, by a measurement of
 * both on the same bytes: a same-shape u8 run of RUNTIME_CALIBRATION_ELEMENTS elements (the
 * rates of bigger runs), each path timed RUNTIME_CALIBRATION_RUNS times, the fastest kept. Runs go to the
 * device from then on only if its path was faster. A runtime asked for OpenCL by name,
 * or a device that shares host memory (runs in place: runtime_shared.c), is not
 * measured: the former always runs there, the latter moves no bytes twice; nor is a
 * device that does not answer the question (the query is deprecated since OpenCL 2.0);
 * nor a runtime whose caller set the size threshold (clsel_runtime_set_min_device_bytes:
 * the caller then says where runs go). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/alloc.h"
#include "common/tuning.h"
#include "common/tuning_constants.h"
#include "plan/plan.h"
#include "runtime/runtime.h"
#include "runtime/runtime_device_paths.h"
#include "runtime/runtime_fallback.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The best of RUNTIME_CALIBRATION_RUNS timed runs on one path; a negative time when a run failed. */
static double best_of_two(clsel_runtime *rt, const clsel_plan *plan, const void *const in[3], void *out, int device)
{
    double best = -1;
    for (int k = 0; k < RUNTIME_CALIBRATION_RUNS; ++k) {
        int rescued = 0;
        const double t0 = now_ms();
        const clsel_status st = device ? clsel_priv_runtime_run_chunked(rt, plan, in, out, &rescued)
                                       : clsel_priv_runtime_run_cpu(rt, plan, in, out);
        const double ms = now_ms() - t0;
        if (st != CLSEL_SUCCESS || rescued) return -1;
        if (best < 0 || ms < best) best = ms;
    }
    return best;
}

/* Measures both paths (the caller holds rt->calibration_lock). */
static void calibrate(clsel_runtime *rt)
{
    rt->device_ms = rt->cpu_ms = -1;
    const clsel_shape s = {1, {RUNTIME_CALIBRATION_ELEMENTS}};
    clsel_plan *plan = NULL;
    const size_t n = (size_t)RUNTIME_CALIBRATION_ELEMENTS;
    uint8_t *bytes = clsel_priv_malloc(4 * n);
    if (bytes && clsel_plan_create(CLSEL_U8, &s, &s, &s, NULL, &plan) == CLSEL_SUCCESS) {
        for (size_t i = 0; i < 3 * n; ++i) bytes[i] = (uint8_t)(i * 2654435761u >> 24); /* cond bytes vary */
        const void *const in[3] = {bytes, bytes + n, bytes + 2 * n};
        rt->cpu_ms = best_of_two(rt, plan, in, bytes + 3 * n, 0);
        rt->device_ms = best_of_two(rt, plan, in, bytes + 3 * n, 1);
    }
    clsel_plan_destroy(plan);
    clsel_priv_free(bytes);
}

int clsel_priv_runtime_device_pays(clsel_runtime *rt)
{
    /* Only a device that says so: one that does not answer is run as before (copying). */
    const int discrete = (rt->ctx->host_memory_known && !rt->ctx->host_unified) ||
                         clsel_priv_knob_get(CLSEL_PRIV_KNOB_HOST_AS_DISCRETE) != 0;
    if (!rt->auto_chosen || rt->threshold_chosen || !discrete) return 1;
    int verdict = atomic_load_explicit(&rt->device_pays, memory_order_acquire);
    if (verdict >= 0) return verdict;
    clsel_mutex_lock(&rt->calibration_lock);
    verdict = atomic_load_explicit(&rt->device_pays, memory_order_relaxed);
    if (verdict < 0) {
        calibrate(rt);
        /* A path that failed to run counts as the slower one; both failing keeps the CPU. */
        verdict = rt->device_ms >= 0 && (rt->cpu_ms < 0 || rt->device_ms < rt->cpu_ms);
        atomic_store_explicit(&rt->device_pays, verdict, memory_order_release);
    }
    clsel_mutex_unlock(&rt->calibration_lock);
    return verdict;
}
