/* cl_validate.h - argument and buffer checks of clsel_cl_enqueue (docs/semantics.md, Statuses),
 * done before anything is enqueued. */
#ifndef CLSEL_HOST_CL_VALIDATE_H
#define CLSEL_HOST_CL_VALIDATE_H

#include "opencl/cl_context.h"
#include "plan/plan.h"

/* One tensor argument of an enqueue: cond, then, else or out, in the plan's operand
 * slots (PLAN_COND ... PLAN_OUT). */
typedef struct clsel_priv_tensor {
    const char *name;
    cl_mem mem;
    size_t offset;    /* bytes */
    size_t elem_size; /* bytes */
    int64_t count;    /* elements */
    /* Set by clsel_priv_validate_call: */
    int align16;   /* the address of the tensor's first byte modulo 16; -1 when not known */
    int read_only; /* the buffer was made CL_MEM_READ_ONLY */
} clsel_priv_tensor;

/* Checks the queue against ctx, the wait list, and every tensor: NULL buffers,
 * offset alignment and overflow, CL_MEM_SIZE, a read-only output, and overlap between
 * the output and the inputs (the plan's rule: plan_overlap.c); records each tensor's
 * alignment (align16) for the choice of program form. */
clsel_status clsel_priv_validate_call(const clsel_cl_context *ctx, const clsel_plan *plan, cl_command_queue queue,
                              clsel_priv_tensor tensors[PLAN_OPERANDS], cl_uint num_wait,
                              const cl_event *wait_list);

#endif
