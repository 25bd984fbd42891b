/* cl_context.h - the clsel_cl_context: a retained context and device and, per element
 * width, a program built on first use with one locked kernel object per variant. */
#ifndef CLSEL_HOST_CL_CONTEXT_H
#define CLSEL_HOST_CL_CONTEXT_H

#include <stdatomic.h>

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

/* The program of one element width and its kernels, built when a run first needs them
 * (clsel_priv_cl_context_width). */
typedef struct width_program {
    clsel_mutex build_lock; /* held while this width builds, and to read the fields below
                               (`built` is also read without it: see cl_context.c) */
    cl_program program;
    kernel_slot kernels[KERNELS_PER_WIDTH];
    size_t work_group_size; /* the vectors family's work-group size (<= 256) */
    char *build_log;
    _Atomic int built; /* program and kernels are ready (set last, with release order) */
    int cached; /* the program came from the disk cache (cl_cache.c) */
} width_program;

struct clsel_cl_context {
    const clsel_cl_api *cl;
    cl_context context;
    cl_device_id device;
    char device_name[256];
    cl_device_type device_type;
    cl_ulong max_alloc;
    cl_ulong global_mem;
    cl_ulong local_mem;
    size_t max_work_group_size; /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    cl_uint compute_units;
    cl_bool host_unified; /* CL_DEVICE_HOST_UNIFIED_MEMORY: the device works in host memory */
    clsel_priv_family family;
    int locks_ready; /* how many of the widths' locks are initialized (cl_context.c, lock_at) */
    width_program widths[ELEMENT_WIDTHS];
};

/* The program and kernels for elements of `elem_size` bytes, built (or loaded from the
 * disk cache) if this is their first use in `ctx`: CLSEL_ERROR_BUILD with the log in
 * clsel_cl_build_log(NULL) when the source does not build. Safe from any thread. */
clsel_status clsel_priv_cl_context_width(clsel_cl_context *ctx, size_t elem_size, const width_program **out);

/* The embedded cl/select.cl (generated at build time from the .cl file). */
extern const unsigned char clsel_priv_select_cl_source[];
extern const size_t clsel_priv_select_cl_source_size;

#endif
