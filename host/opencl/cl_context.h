/* cl_context.h - the clsel_cl_context: a retained context and device, how it runs (native kernels
 * or OpenCL kernels) and the kernels built so far, one program per kernel variant (cl_program.h),
 * each built when a launch first needs it and kept with a lock for its arguments. */
#ifndef CLSEL_HOST_CL_CONTEXT_H
#define CLSEL_HOST_CL_CONTEXT_H

#include <stdatomic.h>

#include "common/lock.h"
#include "opencl/cl_api.h"
#include "opencl/cl_program.h"

/* One variant's program and kernel, built. */
typedef struct kernel_program {
    kernel_variant variant;
    cl_program program;
    cl_kernel kernel;
    clsel_mutex lock;       /* held from the first clSetKernelArg to the enqueue */
    size_t work_group_size; /* <= CL_GROUP_ITEMS */
    char *build_log;
    int cached; /* the program came from the disk cache (cl_cache.c) */
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
    cl_uint base_align;    /* bytes every buffer's first byte is aligned to
                              (CL_DEVICE_MEM_BASE_ADDR_ALIGN) */
    clsel_cl_path path;    /* native kernels (the CPU path) or the OpenCL kernels (cl_context.c) */
    clsel_mutex
        build_lock; /* held while a kernel builds, and to read the built ones' logs and flags */
    int build_lock_ready;
    /* By clsel_priv_cl_variant_index: NULL until built, then set once (release order) and never
     * changed. */
    _Atomic(kernel_program *) kernels[KERNEL_VARIANTS];
};

/* The kernel of `variant`, built (or loaded from the disk cache) on first use in `ctx`;
 * CLSEL_ERROR_BUILD with the log in clsel_cl_build_log(NULL) when the source does not build.
 * Thread-safe. */
clsel_status clsel_priv_cl_context_kernel(clsel_cl_context *ctx, const kernel_variant *variant,
                                          kernel_program **out);

#endif
