/* runtime.h - the clsel_runtime object. Its files call only down this list: runtime.c (create,
 * destroy, getters and setters), runtime_run.c (clsel_runtime_run: the CPU path or a device path
 * per run, AUTO's measurement, the rescue of a run the device failed), runtime_device.c (the device
 * paths: in place, or copied in chunks). */
#ifndef CLSEL_HOST_RUNTIME_H
#define CLSEL_HOST_RUNTIME_H

#include <stdatomic.h>

#include "common/lock.h"
#include "opencl/cl_context.h"
#include "plan/plan.h"

struct clsel_runtime {
    clsel_device kind; /* CLSEL_DEVICE_CPU or CLSEL_DEVICE_OPENCL */
    char name[256];
    char fallback_reason[512]; /* why AUTO chose the CPU path ("" otherwise) */
    const clsel_cl_api *cl;    /* NULL on the CPU path */
    cl_context context;
    cl_command_queue queue, queue2; /* the second for chunked runs (runtime_device.c) */
    cl_device_id device;
    clsel_cl_context *ctx;
    uint64_t min_device_bytes; /* smaller runs take the CPU path */
    uint64_t chunk_bytes;      /* the caller's bound on a chunk (0: none) */
    int32_t cpu_threads;       /* threads of runs on the CPU path (0: every core) */
    int copy_only;             /* clsel_runtime_set_zero_copy(rt, 0): never in place */
    /* AUTO on a device that does not work in host memory (runtime_run.c): */
    int auto_chosen;          /* the device was AUTO's choice (not asked for by name) */
    int threshold_chosen;     /* the caller set min_device_bytes */
    _Atomic int device_pays;  /* -1 not measured yet; 1 runs go to the device; 0 to the CPU path */
    double device_ms, cpu_ms; /* the measurement (-1: that path failed) */
    clsel_mutex calibration_lock;
    int lock_ready;
};

/* The device paths (runtime_device.c), for host tensors already checked. Each returns once nothing
 * on the device still reads or writes the caller's memory; on failure (the message set) `out` may
 * hold part of the result, and the caller finishes the run on the CPU path. */

/* Whether a run can work in the caller's memory in place: the device shares memory with
 * the host, each tensor fits one buffer, and out overlaps no input. */
int clsel_priv_runtime_can_share(const clsel_runtime *rt, const clsel_plan *plan,
                                 const void *const in[3], const void *out);
clsel_status clsel_priv_runtime_run_shared(clsel_runtime *rt, const clsel_plan *plan,
                                           const void *const in[3], void *out);
/* Copied through the device in chunks (one for a run that fits). */
clsel_status clsel_priv_runtime_run_chunked(clsel_runtime *rt, const clsel_plan *plan,
                                            const void *const in[3], void *out);

#endif
