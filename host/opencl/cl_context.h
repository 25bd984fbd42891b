/* cl_context.h - the clsel_cl_context: a retained context and device, how it runs (native kernels or OpenCL kernels)
 * and, per element width and program form, a program built on first use with one locked kernel object per variant. */
#ifndef CLSEL_HOST_CL_CONTEXT_H
#define CLSEL_HOST_CL_CONTEXT_H

#include <stdatomic.h>

#include "common/lock.h"
#include "opencl/cl_api.h"
#include "opencl/cl_program.h"

enum { ELEMENT_WIDTHS = 4 }; /* 1, 2, 4, 8 bytes */

typedef struct kernel_slot {
    cl_kernel kernel;
    clsel_mutex lock; /* held from the first clSetKernelArg to the enqueue */
} kernel_slot;

/* The program of one element width and form and its kernels, built when a run first needs them. */
typedef struct kernel_program {
    clsel_mutex build_lock; /* held while it builds, and to read the fields below (`built` is also read without it) */
    cl_program program;
    kernel_slot kernels[KERNELS_MAX];
    size_t work_group_size; /* the kernels' work-group size (<= CL_GROUP_ITEMS) */
    char *build_log;
    _Atomic int built; /* program and kernels are ready (set last, with release order) */
    int cached;        /* the program came from the disk cache (cl_cache.c) */
} kernel_program;

struct clsel_cl_context {
    const clsel_cl_api *cl;
    cl_context context;
    cl_device_id device;
    char device_name[256];
    cl_device_type device_type;
    cl_ulong max_alloc, global_mem;
    size_t max_work_group_size;
    cl_uint compute_units;
    cl_bool host_unified;  /* CL_DEVICE_HOST_UNIFIED_MEMORY: the device works in host memory */
    int host_memory_known; /* the device answered that query (else host_unified is false) */
    cl_uint base_align;    /* bytes every buffer's first byte is aligned to (CL_DEVICE_MEM_BASE_ADDR_ALIGN) */
    clsel_cl_path path;    /* native kernels (the CPU path) or the OpenCL kernels (cl_context.c) */
    int locks_ready;       /* how many of the programs' locks are initialized (cl_context.c, lock_at) */
    kernel_program programs[ELEMENT_WIDTHS][PROGRAM_FORMS];
};

/* The program and kernels for `elem_size`-byte elements in `form`, built (or loaded from the disk cache) on first use
 * in `ctx`; CLSEL_ERROR_BUILD with the log in clsel_cl_build_log(NULL) when the source does not build. Thread-safe. */
clsel_status clsel_priv_cl_context_program(clsel_cl_context *ctx, size_t elem_size, program_form form,
                                           const kernel_program **out);

#endif
