/* cl_launch.h - a run enqueued over buffers already checked (by clsel_cl_enqueue, cl_enqueue.c) or
 * made by the runtime: the CPU path as a native kernel (cl_native.c) or the OpenCL kernels
 * (cl_launch.c), as the context says. */
#ifndef CLSEL_HOST_CL_LAUNCH_H
#define CLSEL_HOST_CL_LAUNCH_H

#include "common/error.h"
#include "opencl/cl_context.h"
#include "plan/plan_iter.h"

/* One tensor of a run: a buffer and the byte offset of the space's element 0 in it, and where its
 * bytes live. */
typedef struct cl_tensor {
    cl_mem mem;
    size_t offset;      /* bytes, a multiple of the element size */
    cl_mem root;        /* mem, or the buffer a sub-buffer mem belongs to */
    size_t root_offset; /* bytes of element 0 in root */
    int align16;        /* the address of element 0 modulo 16; -1 when not known */
    int mappable;       /* root has no CL_MEM_HOST_* restriction: the host may map it */
    size_t size;        /* mem's bytes */
} cl_tensor;

/* A tensor the library made itself: a whole buffer of `size` bytes, its first byte at `align16`. */
static inline cl_tensor clsel_priv_cl_own_tensor(cl_mem m, int align16, size_t size)
{
    return (cl_tensor){m, 0, m, 0, align16, 1, size};
}

/* Enqueues space `it` (count > 0; elements of w bytes, cond's of one) over `tensors` (cond, then,
 * else, out) on `queue`, after the wait list; *event (when not NULL) completes after all of it. On
 * failure *event is NULL. */
clsel_status clsel_priv_cl_launch(clsel_cl_context *ctx, cl_command_queue queue,
                                  const plan_iter *it, size_t w,
                                  const cl_tensor tensors[PLAN_OPERANDS], cl_uint num_wait,
                                  const cl_event *wait_list, cl_event *event);

/* A failed enqueue of `what`: out of memory where OpenCL says so, else an OpenCL failure. */
static inline clsel_status clsel_priv_cl_enqueue_failed(cl_int err, const char *what)
{
    const int oom = err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE;
    return clsel_priv_fail_cl(oom ? CLSEL_ERROR_OUT_OF_MEMORY : CLSEL_ERROR_OPENCL, err,
                              "%s failed", what);
}

/* The native path, which clsel_priv_cl_launch takes where it can (cl_native.c). */
clsel_status clsel_priv_cl_launch_native(clsel_cl_context *ctx, cl_command_queue queue,
                                         const plan_iter *it, size_t w,
                                         const cl_tensor tensors[PLAN_OPERANDS], cl_uint num_wait,
                                         const cl_event *wait_list, cl_event *event);

#endif
