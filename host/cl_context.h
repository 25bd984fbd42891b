/* cl_context.h - the clsel_cl_context: a retained context and device, the built
 * program, and one locked kernel object per kernel variant. */
#ifndef CLSEL_HOST_CL_CONTEXT_H
#define CLSEL_HOST_CL_CONTEXT_H

#include "cl_api.h"
#include "clsel_cl.h"
#include "lock.h"

/* Kernel variants per (index width, element width) (cl/select.cl): the eight
 * clsel_r3 kernels, indexed by cond/then/else advancing along dim 0 as a 3-bit number,
 * the eight clsel_rn kernels likewise, then clsel_loop. */
enum { KERNEL_R3 = 0, KERNEL_RN = 8, KERNEL_LOOP = 16, KERNEL_VARIANTS = 17 };
enum { INDEX_I32 = 0, INDEX_I64 = 1, INDEX_WIDTHS = 2 };
enum { ELEMENT_WIDTHS = 4 }; /* 1, 2, 4, 8 bytes */

typedef struct kernel_slot {
    cl_kernel kernel;
    clsel_mutex lock; /* held from the first clSetKernelArg to the enqueue */
} kernel_slot;

struct clsel_cl_context {
    const clsel_cl_api *cl;
    cl_context context;
    cl_device_id device;
    cl_program program;
    char *build_log;
    char device_name[256];
    cl_device_type device_type;
    cl_ulong max_alloc;
    cl_ulong global_mem;
    size_t work_group_size; /* the work-group size launches use (<= 256) */
    cl_uint compute_units;
    size_t loop_local;      /* work-group size of the loop kernel: 1 on CPU devices, whose
                               compilers would otherwise vectorize across the items' loops
                               (each lane a different row: gathers; measured 10x slower) */
    int locks_ready;        /* how many kernel slots have an initialized lock */
    kernel_slot kernels[INDEX_WIDTHS][ELEMENT_WIDTHS][KERNEL_VARIANTS];
};

/* The embedded cl/select.cl (generated at build time from the .cl file). */
extern const unsigned char clsel_select_cl_source[];
extern const size_t clsel_select_cl_source_size;

#endif
