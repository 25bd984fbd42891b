/* plan.h - the plan: everything the CPU loop and the OpenCL launcher need to know about
 * one (dtype, shapes, attrs) combination. The plan is the only code that knows
 * broadcasting; its consumers see a collapsed geometry of at most CLSEL_MAX_RANK dims
 * with an element stride per operand (0 on broadcast dims). */
#ifndef CLSEL_HOST_PLAN_H
#define CLSEL_HOST_PLAN_H

#include "clsel.h"

/* Operand slots of the collapsed geometry; the output is the fourth operand. */
enum { PLAN_COND = 0, PLAN_THEN = 1, PLAN_ELSE = 2, PLAN_OUT = 3, PLAN_OPERANDS = 4 };

struct clsel_plan {
    clsel_dtype dtype;
    size_t elem_size;
    clsel_attrs attrs;
    clsel_shape in_shape[3]; /* cond, then, else as given */
    int64_t in_count[3];
    clsel_shape out_shape;
    int64_t out_count;

    /* Collapsed geometry, innermost dim first: size-1 output dims dropped, neighbours
     * that are contiguous for every operand merged. The innermost stride of cond, then
     * and else is 0 or 1; the output's strides are dense. rank 0 means one element
     * (or none, when out_count is 0). */
    int32_t rank;
    int64_t dims[CLSEL_MAX_RANK];
    int64_t strides[PLAN_OPERANDS][CLSEL_MAX_RANK];
};

/* How each output dim is fed: axis_of[op][d] is the axis of input `op` (cond, then,
 * else) read along output dim d, or -1 where that input is broadcast. */
typedef struct plan_layout {
    clsel_shape out;
    int64_t out_count;
    int8_t axis_of[3][CLSEL_MAX_RANK];
} plan_layout;

/* Validates the shapes and attrs and computes the output shape and the axis mapping
 * (plan_shape.c). On failure sets the message and returns its status. */
clsel_status plan_layout_compute(const clsel_shape *cond, const clsel_shape *then_shape,
                                 const clsel_shape *else_shape, const clsel_attrs *attrs,
                                 plan_layout *layout);

/* Element count of a valid shape; -1 when it does not fit in int64. */
int64_t plan_shape_count(const clsel_shape *shape);

#endif
