/* plan.h - the plan: everything the back ends need to know about one (dtype, shapes,
 * attrs) combination. The plan is the only code that knows broadcasting; its consumers
 * see its iteration space (plan_iter.h): collapsed dims with each tensor's strides. */
#ifndef CLSEL_HOST_PLAN_H
#define CLSEL_HOST_PLAN_H

#include "clsel.h"
#include "plan/plan_iter.h"

struct clsel_plan {
    clsel_dtype dtype;
    size_t elem_size;
    clsel_attrs attrs;
    clsel_shape in_shape[3]; /* cond, then, else as given */
    int64_t in_count[3];
    clsel_shape out_shape;
    int64_t out_count;
    /* Size-1 output dims dropped, dims reversed where the output's stride is negative and
     * ordered by the output's strides, neighbours that are contiguous for every tensor
     * merged, innermost first; strides 0 where an input is broadcast; base[t] the offset of
     * the first element walked from tensor t's element [0, ..., 0]. */
    plan_iter iter;
    /* The elements of each tensor (cond, then, else, out) a run touches, from its element
     * [0, ..., 0]: [first, first + reach); reach 0 for an empty output. */
    int64_t first[PLAN_OPERANDS], reach[PLAN_OPERANDS];
};

/* How each output dim is fed: axis_of[op][d] is the axis of input `op` (cond, then,
 * else) read along output dim d, or -1 where that input is broadcast. */
typedef struct plan_layout {
    clsel_attrs attrs; /* the caller's, read at this library's struct size */
    clsel_shape out;
    int64_t out_count;
    int8_t axis_of[3][CLSEL_MAX_RANK];
} plan_layout;

/* Validates the shapes and attrs and computes the output shape and the axis mapping
 * (plan_shape.c). On failure sets the message and returns its status. */
clsel_status clsel_priv_plan_layout_compute(const clsel_shape *cond, const clsel_shape *then_shape,
                                            const clsel_shape *else_shape, const clsel_attrs *attrs,
                                            plan_layout *layout);

/* Bytes of tensor `op` of a run (cond, then, else or out: PLAN_*) from the first it touches to the
 * last: its size when dense. */
uint64_t clsel_priv_plan_tensor_bytes(const clsel_plan *plan, int op);

/* Whether the output has bytes between its elements (a strided view with gaps): its touched extent
 * exceeds its count. */
static inline int clsel_priv_plan_out_has_gaps(const clsel_plan *plan)
{
    return plan->reach[PLAN_OUT] != plan->out_count;
}

/* Bytes a run moves: every input's and the output's touched bytes
 * (clsel_priv_plan_tensor_bytes). */
uint64_t clsel_priv_plan_bytes_moved(const clsel_plan *plan);

/* Bytes of one element of tensor `op`: 1 for cond, the plan's element size otherwise. */
static inline size_t clsel_priv_plan_width(const clsel_plan *plan, int op)
{
    return clsel_priv_operand_width(op, plan->elem_size);
}

/* Element count of a valid shape; -1 when it does not fit in int64. */
int64_t clsel_priv_plan_shape_count(const clsel_shape *shape);

/* Where one tensor of a run lies: `root` names the memory (a cl_mem's root buffer, or
 * any fixed non-NULL value for host memory) and `begin` the byte offset of its element
 * [0, ..., 0] in it (a host pointer's address). A NULL root never overlaps anything. */
typedef struct plan_span {
    const void *root;
    uint64_t begin;
} plan_span;

/* The in-place and overlap rule, for every back end (plan_overlap.c): the output may be exactly
 * then or else (the same element [0] and the same strides along every output dim); any other
 * overlap of the bytes the output touches with an input's is CLSEL_ERROR_BUFFER, with the byte
 * ranges in the message (relative to the lower of the two starts when `relative`, as for host
 * addresses). spans: cond, then, else, out. */
clsel_status clsel_priv_plan_check_overlap(const clsel_plan *plan,
                                           const plan_span spans[PLAN_OPERANDS], int relative);

#endif
