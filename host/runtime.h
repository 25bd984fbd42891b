/* runtime.h - the clsel_runtime object, shared by its device choice (runtime.c) and its
 * host-memory runs (runtime_run.c). */
#ifndef CLSEL_HOST_RUNTIME_H
#define CLSEL_HOST_RUNTIME_H

#include "cl_context.h"

struct clsel_runtime {
    clsel_device kind; /* CLSEL_DEVICE_CPU or CLSEL_DEVICE_OPENCL */
    char name[256];
    char fallback_reason[512]; /* why AUTO chose the CPU path ("" otherwise) */
    const clsel_cl_api *cl;    /* NULL on the CPU path */
    cl_context context;
    cl_command_queue queue;
    cl_device_id device;
    clsel_cl_context *ctx;
    uint64_t min_device_bytes; /* smaller runs take the CPU path */
};

#endif
