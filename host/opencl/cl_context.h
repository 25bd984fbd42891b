/* cl_context.h - the clsel_cl_context: a retained context and device, the built
 * program, and one locked kernel object per kernel variant. */
#ifndef CLSEL_HOST_CL_CONTEXT_H
#define CLSEL_HOST_CL_CONTEXT_H

#include "clsel_cl.h"
#include "common/lock.h"
#include "opencl/cl_api.h"

/* The two kernel families of cl/select.cl; a context builds the one its device wants
 * (CPU devices: blocks; any other: vectors), or the one CLSEL_CL_GEOMETRY names. */
typedef enum clsel_priv_family { CLSEL_PRIV_FAMILY_BLOCKS = 0, CLSEL_PRIV_FAMILY_VECTORS = 1 } clsel_priv_family;

/* Kernels per element width: blocks has eight (cond, then, else each read in place or
 * from local memory, as a 3-bit number, 1 = local) and the pick; vectors has eight
 * (cond, then, else each advancing along dim 0 or not, as a 3-bit number). */
enum { KERNEL_PICK = 8, KERNELS_PER_WIDTH = 9 };
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
    cl_ulong local_mem;
    size_t work_group_size; /* the vectors family's work-group size (<= 256) */
    cl_uint compute_units;
    cl_bool host_unified; /* CL_DEVICE_HOST_UNIFIED_MEMORY: the device works in host memory */
    clsel_priv_family family;
    int program_cached;     /* the program came from the disk cache (cl_cache.c) */
    int locks_ready;        /* how many kernel slots have an initialized lock */
    kernel_slot kernels[ELEMENT_WIDTHS][KERNELS_PER_WIDTH];
};

/* The embedded cl/select.cl (generated at build time from the .cl file). */
extern const unsigned char clsel_priv_select_cl_source[];
extern const size_t clsel_priv_select_cl_source_size;

#endif
