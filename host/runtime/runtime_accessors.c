/* runtime_accessors.c - the public getters and setters of a clsel_runtime, beside the
 * dispatcher (runtime_dispatch.c) and its leaves rather than in them: the setters only
 * store what a later run reads (rt->min_device_bytes and rt->threshold_chosen in
 * runtime_dispatch.c and runtime_calibrate.c, rt->chunk_bytes in runtime_chunked.c,
 * rt->copy_only in runtime_shared.c, rt->cpu_threads in runtime_fallback.c), and the
 * getters read what clsel_runtime_create chose (runtime.c). The one accessor not here,
 * clsel_runtime_last_run_path, reads the dispatcher's thread-local record of the last
 * run and stays beside it. */
#include "common/error.h"
#include "runtime/runtime.h"

clsel_device clsel_runtime_device(const clsel_runtime *rt) { return rt ? rt->kind : CLSEL_DEVICE_CPU; }

const char *clsel_runtime_device_name(const clsel_runtime *rt) { return rt ? rt->name : "cpu"; }

const char *clsel_runtime_fallback_reason(const clsel_runtime *rt)
{
    return rt ? rt->fallback_reason : "";
}

cl_device_id clsel_runtime_cl_device(const clsel_runtime *rt) { return rt ? rt->device : NULL; }

clsel_status clsel_runtime_set_min_device_bytes(clsel_runtime *rt, uint64_t bytes)
{
    if (!rt) return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_runtime_set_min_device_bytes: rt is NULL");
    rt->min_device_bytes = bytes;
    rt->threshold_chosen = 1; /* the caller decides where runs go: no measurement (runtime_calibrate.c) */
    return CLSEL_SUCCESS;
}

clsel_status clsel_runtime_set_cpu_threads(clsel_runtime *rt, int32_t threads)
{
    if (!rt) return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_runtime_set_cpu_threads: rt is NULL");
    if (threads < 0)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_runtime_set_cpu_threads: threads is %d (must be >= 0)",
                               (int)threads);
    rt->cpu_threads = threads;
    return CLSEL_SUCCESS;
}

clsel_status clsel_runtime_set_zero_copy(clsel_runtime *rt, int enabled)
{
    if (!rt) return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_runtime_set_zero_copy: rt is NULL");
    rt->copy_only = !enabled;
    return CLSEL_SUCCESS;
}

clsel_status clsel_runtime_set_chunk_bytes(clsel_runtime *rt, uint64_t bytes)
{
    if (!rt) return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_runtime_set_chunk_bytes: rt is NULL");
    rt->chunk_bytes = bytes;
    return CLSEL_SUCCESS;
}
