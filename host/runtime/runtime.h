/* runtime.h - the clsel_runtime object, shared by its device choice (runtime.c) and its
 * host-memory runs (runtime_run.c). */
#ifndef CLSEL_HOST_RUNTIME_H
#define CLSEL_HOST_RUNTIME_H

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
};

/* Runs the plan on the CPU path with the runtime's threads. */
clsel_status clsel_priv_runtime_run_cpu(const clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                        void *out);

/* The most bytes of one tensor the runtime puts in one device buffer: a chunk's size,
 * within the device's allocation limit and the caller's bound. */
uint64_t clsel_priv_runtime_chunk_bytes(const clsel_runtime *rt);

/* clsel_runtime_run for tensors over that size: in chunks (runtime_chunked.c). */
/* *rescued is set to 1 when the device failed part-way and the CPU path did the run. */
clsel_status clsel_priv_runtime_run_chunked(clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                            void *out, int *rescued);

#endif
