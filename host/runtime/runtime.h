/* runtime.h - the clsel_runtime object, shared by its device choice (runtime.c) and its
 * host-memory runs (runtime_run.c). */
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

/* Whether a run of host memory that is big enough for the device should go there: always,
 * unless the runtime is AUTO's on a device that does not work in host memory, where the
 * first call measures both paths once (runtime_calibrate.c). Thread-safe. */
int clsel_priv_runtime_device_pays(clsel_runtime *rt);

/* The most bytes of one tensor the runtime puts in one device buffer: a chunk's size,
 * within the device's allocation limit and the caller's bound. */
uint64_t clsel_priv_runtime_chunk_bytes(const clsel_runtime *rt);

/* clsel_runtime_run on the device by copying: in chunks (runtime_chunked.c). *rescued
 * is set to 1 when the device failed part-way and the CPU path did the run. */
clsel_status clsel_priv_runtime_run_chunked(clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                            void *out, int *rescued);

/* Whether the run can work in the caller's memory in place (runtime_shared.c): the device
 * shares memory with the host, each tensor fits one buffer, and out overlaps no input. */
int clsel_priv_runtime_can_share(const clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                 const void *out);

/* clsel_runtime_run on such a device without copies; *rescued as for the chunked run. */
clsel_status clsel_priv_runtime_run_shared(clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                           void *out, int *rescued);

#endif
