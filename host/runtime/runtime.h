/* runtime.h - the clsel_runtime object, which every file of host/runtime reads. The
 * runtime is a dispatcher over leaves, every call going down the list, none back up:
 *
 *   runtime.c            clsel_runtime_create and _destroy: the device (or the CPU path)
 *   runtime_accessors.c  the public getters and setters of a runtime
 *   runtime_dispatch.c   clsel_runtime_run: the CPU path, or a device path, for each run
 *   runtime_calibrate.c    whether the device pays, under AUTO on a discrete device
 *   runtime_shared.c       the device path in the caller's memory, in place
 *   runtime_chunked.c      the device path that copies in chunks
 *   runtime_fallback.c       the CPU path; a failing device path's drain and rescue
 *
 * The dispatcher reaches the three middle leaves through runtime_device_paths.h, and
 * it and they reach the bottom leaf through runtime_fallback.h. */
#ifndef CLSEL_HOST_RUNTIME_H
#define CLSEL_HOST_RUNTIME_H

#include <stdatomic.h>

#include "common/lock.h"
#include "opencl/cl_context.h"

struct clsel_runtime {
    clsel_device kind; /* CLSEL_DEVICE_CPU or CLSEL_DEVICE_OPENCL */
    char name[256];
    char fallback_reason[512]; /* why AUTO chose the CPU path ("" otherwise) */
    const clsel_cl_api *cl;    /* NULL on the CPU path */
    cl_context context;
    cl_command_queue queue, queue2; /* the second for chunked runs (runtime_chunked.c) */
    cl_device_id device;
    clsel_cl_context *ctx;
    uint64_t min_device_bytes; /* smaller runs take the CPU path */
    uint64_t chunk_bytes;      /* the caller's bound on a chunk (0: none) */
    int32_t cpu_threads;       /* threads of runs on the CPU path (0: every core) */
    int copy_only;             /* clsel_runtime_set_zero_copy(rt, 0): never in place */
    /* AUTO on a device that does not work in host memory (runtime_calibrate.c): */
    int auto_chosen;          /* the device was AUTO's choice (not asked for by name) */
    int threshold_chosen;     /* the caller set min_device_bytes */
    _Atomic int device_pays;  /* -1 not measured yet; 1 runs go to the device; 0 to the CPU path */
    double device_ms, cpu_ms; /* the measurement (-1: that path failed) */
    clsel_mutex calibration_lock;
    int lock_ready;
};

#endif
