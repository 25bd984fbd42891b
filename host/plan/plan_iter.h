/* plan_iter.h - the one description of a run's iteration space that every back end walks: the operand slots, the
 * output's elements as an odometer over collapsed dims with each tensor's element strides along them, the offsets of
 * one element (the offset calculator), and the one way a run is cut into sub-ranges (boxes) for the kernels' 32-bit
 * pieces, the runtime's chunks and the CPU path's threads (plan_iter.c). Strides are data, signed and per tensor, the
 * output's included: a back end never assumes how a tensor is laid out beyond what the strides say. */
#ifndef CLSEL_HOST_PLAN_ITER_H
#define CLSEL_HOST_PLAN_ITER_H

#include <stdint.h>

#include "clsel.h"

/* The tensors of a run, as array slots: the numbers of the public clsel_operand. */
enum {
    PLAN_COND = CLSEL_OPERAND_COND,
    PLAN_THEN = CLSEL_OPERAND_THEN,
    PLAN_ELSE = CLSEL_OPERAND_ELSE,
    PLAN_OUT = CLSEL_OPERAND_OUT,
    PLAN_OPERANDS = 4
};

/* Variants. The CPU path's row loops and the kernels come in eight forms, one per combination of whether each input
 * advances along the innermost dim of what is walked (a stride of 1 there) or stays on one element (a stride of 0),
 * tabled by this index, cond the high bit: [cond * 4 + then * 2 + else]. cl/select_contract.h spells the same numbering
 * for the kernels (asserted in host/opencl/cl_program.c). */
enum { PLAN_VARIANT_COND = 4, PLAN_VARIANT_THEN = 2, PLAN_VARIANT_ELSE = 1, PLAN_VARIANTS = 8 };

static inline int clsel_priv_plan_variant(int cond, int then_advances, int else_advances)
{
    return cond * PLAN_VARIANT_COND + then_advances * PLAN_VARIANT_THEN + else_advances * PLAN_VARIANT_ELSE;
}

/* An iteration space: `count` output elements in odometer order over `rank` dims, innermost first (rank 0: one
 * element), and where each element lies in each tensor: base[t] + sum over d of index_d * strides[t][d], in elements.
 * The plan's has base 0 and no dim of 1; a box of it (below) has the same strides and its own base and dims. */
typedef struct plan_iter {
    int32_t rank;
    int64_t count;
    int64_t dims[CLSEL_MAX_RANK];
    int64_t strides[PLAN_OPERANDS][CLSEL_MAX_RANK];
    int64_t base[PLAN_OPERANDS];
} plan_iter;

/* The element offsets of element `index` (0 <= index < count) in every tensor. */
void clsel_priv_plan_iter_locate(const plan_iter *it, int64_t index, int64_t offsets[PLAN_OPERANDS]);

/* The lowest and highest element offset at which tensor `t` is touched (count > 0). */
void clsel_priv_plan_iter_span(const plan_iter *it, int t, int64_t *lo, int64_t *hi);

/* Which inputs advance along dims[0] (a nonzero stride), as a variant; 0 for rank 0. */
int clsel_priv_plan_iter_variant(const plan_iter *it);

/* Whether tensor `t` lies contiguously in the odometer's order: element i at base + i. */
int clsel_priv_plan_iter_dense(const plan_iter *it, int t);

/* Boxes: sub-ranges of an iteration space, each itself one (a range of `step` indices along dim d, every dim below d
 * whole, one index on each dim above), holding at most max_elements elements and touching at most max_span consecutive
 * elements of any tensor (at least one element each whatever the bounds). Consecutive boxes are consecutive ranges of
 * the output's elements. */
typedef struct plan_split {
    plan_iter whole;
    int32_t d;
    int64_t step, per_line, count; /* indices along d per box, boxes along d, boxes in all */
} plan_split;

void clsel_priv_plan_split(plan_split *s, const plan_iter *it, int64_t max_elements, int64_t max_span);

/* Box k of the split, 0 <= k < s->count. */
void clsel_priv_plan_split_box(const plan_split *s, int64_t k, plan_iter *box);

/* Elements of the biggest box. */
int64_t clsel_priv_plan_split_max_elements(const plan_split *s);

#endif
