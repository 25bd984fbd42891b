/* cl_launch.h - a run enqueued on a queue over buffers already checked: the internal
 * launch under clsel_cl_enqueue (cl_enqueue.c, which checks the caller's arguments
 * once) and the runtime's device runs (which make their own buffers). It runs the CPU
 * path as a native kernel or the OpenCL kernels, as the context's path says
 * (cl_native.c, cl_launch.c). */
#ifndef CLSEL_HOST_CL_LAUNCH_H
#define CLSEL_HOST_CL_LAUNCH_H

#include "opencl/cl_context.h"
#include "plan/plan_iter.h"

/* One tensor of a run: a buffer and the byte offset of the space's element 0 in it,
 * and where its bytes live. */
typedef struct cl_tensor {
    cl_mem mem;
    size_t offset;      /* bytes, a multiple of the element size */
    cl_mem root;        /* mem, or the buffer a sub-buffer mem belongs to */
    size_t root_offset; /* bytes of element 0 in root */
    int align16;        /* the address of element 0 modulo 16; -1 when not known */
    int mappable;       /* root has no CL_MEM_HOST_* restriction: the host may map it */
} cl_tensor;

/* A tensor the library made itself: a whole buffer, its first byte at `align16`. */
static inline cl_tensor clsel_priv_cl_own_tensor(cl_mem mem, int align16)
{
    const cl_tensor t = {mem, 0, mem, 0, align16, 1};
    return t;
}

/* Enqueues space `it` (count > 0; elements of w bytes, cond's of one) over `tensors`
 * (cond, then, else, out) on `queue`, after the wait list; *event (when not NULL)
 * completes after all of it. On failure *event is NULL. */
clsel_status clsel_priv_cl_launch(clsel_cl_context *ctx, cl_command_queue queue, const plan_iter *it, size_t w,
                                  const cl_tensor tensors[PLAN_OPERANDS], cl_uint num_wait, const cl_event *wait_list,
                                  cl_event *event);

/* The two ways, which clsel_priv_cl_launch picks between. */
clsel_status clsel_priv_cl_launch_kernels(clsel_cl_context *ctx, cl_command_queue queue, const plan_iter *it,
                                          size_t w, const cl_tensor tensors[PLAN_OPERANDS], cl_uint num_wait,
                                          const cl_event *wait_list, cl_event *event);
clsel_status clsel_priv_cl_launch_native(clsel_cl_context *ctx, cl_command_queue queue, const plan_iter *it,
                                         size_t w, const cl_tensor tensors[PLAN_OPERANDS], cl_uint num_wait,
                                         const cl_event *wait_list, cl_event *event);

#endif
