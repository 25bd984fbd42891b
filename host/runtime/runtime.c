/* runtime.c - clsel_runtime_create and clsel_runtime_destroy, which pick an OpenCL device (or the
 * CPU path) and open it, or close it; and the getters and setters, which read what creation chose
 * or store what a later run reads (runtime_run.c and runtime_device.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "opencl/cl_context.h"
#include "opencl/cl_devices.h"
#include "runtime/runtime.h"

static clsel_status resolve_request(clsel_device want, clsel_device *resolved)
{
    *resolved = want;
    if ((unsigned)want > CLSEL_DEVICE_OPENCL)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "unknown device %d (auto = 0, cpu = 1, opencl = 2)", (int)want);
    const char *env = getenv("CLSEL_DEVICE");
    if (want != CLSEL_DEVICE_AUTO || !env || !*env)
        return CLSEL_SUCCESS;
    static const struct {
        const char *name;
        clsel_device device;
    } names[] = {
        {"auto", CLSEL_DEVICE_AUTO}, {"cpu", CLSEL_DEVICE_CPU}, {"opencl", CLSEL_DEVICE_OPENCL}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (strcmp(env, names[i].name) == 0) {
            *resolved = names[i].device;
            return CLSEL_SUCCESS;
        }
    return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                           "CLSEL_DEVICE=%s is not one of auto, cpu, opencl", env);
}

/* Makes a context, an in-order queue and a clsel_cl_context on one device. */
static clsel_status open_device(clsel_runtime *rt, cl_device_id device)
{
    const clsel_cl_api *cl = rt->cl;
    cl_int err = CL_SUCCESS;
    rt->context = cl->clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (!rt->context || err != CL_SUCCESS) {
        rt->context = NULL;
        return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clCreateContext failed");
    }
    cl_command_queue *queues[2] = {&rt->queue, &rt->queue2};
    for (int i = 0; i < 2; ++i) {
        *queues[i] = cl->clCreateCommandQueue(rt->context, device, 0, &err);
        if (!*queues[i] || err != CL_SUCCESS) {
            *queues[i] = NULL;
            return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clCreateCommandQueue failed");
        }
    }
    clsel_status st = clsel_cl_context_create(rt->context, device, &rt->ctx);
    /* One width built now (f32's, the commonest), so that a device whose compiler cannot build the
     * kernels is found here, where AUTO can still pass over it, and not by every run; the other
     * widths build when first run. */
    if (st == CLSEL_SUCCESS)
        st = clsel_cl_context_prepare(rt->ctx, CLSEL_F32);
    if (st != CLSEL_SUCCESS)
        return st;
    rt->device = device;
    rt->kind = CLSEL_DEVICE_OPENCL;
    snprintf(rt->name, sizeof rt->name, "%s", clsel_cl_device_name(rt->ctx));
    return CLSEL_SUCCESS;
}

static void close_device(clsel_runtime *rt)
{
    clsel_cl_context_destroy(rt->ctx);
    if (rt->queue)
        rt->cl->clReleaseCommandQueue(rt->queue);
    if (rt->queue2)
        rt->cl->clReleaseCommandQueue(rt->queue2);
    if (rt->context)
        rt->cl->clReleaseContext(rt->context);
    rt->ctx = NULL;
    rt->queue = NULL;
    rt->queue2 = NULL;
    rt->context = NULL;
    rt->device = NULL;
}

/* AUTO takes GPUs and accelerators: a CPU-type OpenCL device runs on the same cores as the CPU path
 * and adds only its own costs (a launch, and on PoCL copies unless in place; docs/performance.md,
 * "Runtime"). */
static clsel_status open_opencl(clsel_runtime *rt, int accelerators_only)
{
    rt->cl = clsel_priv_cl();
    if (!rt->cl)
        return CLSEL_ERROR_NO_DEVICE;
    clsel_priv_device_list list;
    clsel_priv_candidates found = {{NULL}, 0};
    clsel_status st = clsel_priv_enumerate(rt->cl, &list);
    if (st == CLSEL_SUCCESS)
        st = clsel_priv_auto_candidates(rt->cl, &list, accelerators_only, &found);
    for (int i = 0; i < found.count; ++i) {
        st = open_device(rt, found.devices[i]);
        if (st == CLSEL_SUCCESS)
            return st;
        close_device(rt);
    }
    return st;
}

clsel_status clsel_runtime_create(clsel_device want, clsel_runtime **out)
{
    if (!out)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_runtime_create: rt is NULL");
    clsel_device resolved;
    clsel_status st = resolve_request(want, &resolved);
    if (st != CLSEL_SUCCESS)
        return st;
    clsel_runtime *rt = clsel_priv_calloc(1, sizeof *rt);
    if (!rt)
        return clsel_priv_fail(CLSEL_ERROR_OUT_OF_MEMORY,
                               "clsel_runtime_create: out of host memory");
    rt->min_device_bytes = CLSEL_RUNTIME_MIN_DEVICE_BYTES;
    rt->kind = CLSEL_DEVICE_CPU;
    snprintf(rt->name, sizeof rt->name, "cpu");
    atomic_init(&rt->device_pays, -1);
    rt->auto_chosen = resolved == CLSEL_DEVICE_AUTO;
    if (clsel_mutex_init(&rt->calibration_lock) != 0) {
        clsel_priv_free(rt);
        return clsel_priv_fail(CLSEL_ERROR_OUT_OF_MEMORY,
                               "clsel_runtime_create: cannot create a lock");
    }
    rt->lock_ready = 1;
    if (resolved != CLSEL_DEVICE_CPU) {
        st = open_opencl(rt, resolved == CLSEL_DEVICE_AUTO);
        if (st != CLSEL_SUCCESS) {
            if (resolved == CLSEL_DEVICE_OPENCL) {
                clsel_runtime_destroy(rt);
                return st;
            }
            snprintf(rt->fallback_reason, sizeof rt->fallback_reason, "%s", clsel_last_error());
            rt->kind = CLSEL_DEVICE_CPU;
        }
    }
    *out = rt;
    return CLSEL_SUCCESS;
}

void clsel_runtime_destroy(clsel_runtime *rt)
{
    if (!rt)
        return;
    if (rt->cl)
        close_device(rt);
    if (rt->lock_ready)
        clsel_mutex_destroy(&rt->calibration_lock);
    clsel_priv_free(rt);
}

clsel_device clsel_runtime_device(const clsel_runtime *rt)
{
    return rt ? rt->kind : CLSEL_DEVICE_CPU;
}

const char *clsel_runtime_device_name(const clsel_runtime *rt)
{
    return rt ? rt->name : "cpu";
}

const char *clsel_runtime_fallback_reason(const clsel_runtime *rt)
{
    return rt ? rt->fallback_reason : "";
}

cl_device_id clsel_runtime_cl_device(const clsel_runtime *rt)
{
    return rt ? rt->device : NULL;
}

clsel_status clsel_runtime_set_min_device_bytes(clsel_runtime *rt, uint64_t bytes)
{
    if (!rt)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "clsel_runtime_set_min_device_bytes: rt is NULL");
    rt->min_device_bytes = bytes;
    rt->threshold_chosen = 1; /* the caller decides where runs go: no measurement (runtime_run.c) */
    return CLSEL_SUCCESS;
}

clsel_status clsel_runtime_set_cpu_threads(clsel_runtime *rt, int32_t threads)
{
    if (!rt)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "clsel_runtime_set_cpu_threads: rt is NULL");
    if (threads < 0)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "clsel_runtime_set_cpu_threads: threads is %d (must be >= 0)",
                               (int)threads);
    rt->cpu_threads = threads;
    return CLSEL_SUCCESS;
}

clsel_status clsel_runtime_set_zero_copy(clsel_runtime *rt, int enabled)
{
    if (!rt)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "clsel_runtime_set_zero_copy: rt is NULL");
    rt->copy_only = !enabled;
    return CLSEL_SUCCESS;
}

clsel_status clsel_runtime_set_chunk_bytes(clsel_runtime *rt, uint64_t bytes)
{
    if (!rt)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "clsel_runtime_set_chunk_bytes: rt is NULL");
    rt->chunk_bytes = bytes;
    return CLSEL_SUCCESS;
}
