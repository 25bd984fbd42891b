/* plan_iter.h - the one description of a run's iteration space that every back end walks: the
 * operand slots, the output's elements as an odometer over collapsed dims with each tensor's
 * element strides along them, the one counter that walks it on the host, the reshapes made of it
 * (dims swapped, moved, flipped, sorted, collapsed or split; the space of blocks), and the one way
 * a run is cut into sub-ranges (boxes) for the kernels' 32-bit pieces, the runtime's chunks and
 * the CPU path's threads (plan_iter.c). Strides are data, signed and per tensor, the output's
 * included: a back end never assumes how a tensor is laid out beyond what the strides say. */
#ifndef CLSEL_HOST_PLAN_ITER_H
#define CLSEL_HOST_PLAN_ITER_H

#include <stddef.h>
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

/* A tensor's name in messages and reports: "cond", "then", "else", "out". */
const char *clsel_priv_operand_name(int op);

/* Bytes of one element of tensor `op` in a run of `elem_size`-byte values: cond's are single
 * bytes. */
static inline size_t clsel_priv_operand_width(int op, size_t elem_size)
{
    return op == PLAN_COND ? 1 : elem_size;
}

/* Variants. The CPU path's row loops and the kernels come in eight forms, one per combination of
 * whether each input advances along the innermost dim of what is walked (a stride of 1 there) or
 * stays on one element (a stride of 0), tabled by this index, cond the high bit: [cond * 4 + then *
 * 2 + else]. cl/select_contract.h spells the same numbering for the kernels (asserted in
 * host/opencl/cl_program.c). */
enum {
    PLAN_VARIANT_COND = 4,
    PLAN_VARIANT_THEN = 2,
    PLAN_VARIANT_ELSE = 1,
    PLAN_VARIANTS = 8
};

static inline int clsel_priv_plan_variant(int cond, int then_advances, int else_advances)
{
    return cond * PLAN_VARIANT_COND + then_advances * PLAN_VARIANT_THEN +
           else_advances * PLAN_VARIANT_ELSE;
}

/* An iteration space: `count` output elements in odometer order over `rank` dims, innermost first
 * (rank 0: one element), and where each element lies in each tensor: base[t] + sum over d of
 * index_d * strides[t][d], in elements. The plan's has base 0 and no dim of 1; a box of it (below)
 * has the same strides and its own base and dims. */
typedef struct plan_iter {
    int32_t rank;
    int64_t count;
    int64_t dims[CLSEL_MAX_RANK];
    int64_t strides[PLAN_OPERANDS][CLSEL_MAX_RANK];
    int64_t base[PLAN_OPERANDS];
} plan_iter;

/* The lowest and highest element offset at which tensor `t` is touched (count > 0). */
void clsel_priv_plan_iter_span(const plan_iter *it, int t, int64_t *lo, int64_t *hi);

/* Whether tensor `t` lies contiguously in the odometer's order: element i at base + i. */
int clsel_priv_plan_iter_dense(const plan_iter *it, int t);

/* The host's odometer over a space: a place in it, its index along each dim and its element
 * offset in every tensor (base included). The CPU walk steps its blocks with it and a split
 * locates its boxes with it; only the gather's and scatter's loops inside a block still walk their
 * own levels (their per-run cost decides the CPU path's speed on short rows). */
typedef struct plan_counter {
    int64_t at[CLSEL_MAX_RANK];
    int64_t offset[PLAN_OPERANDS];
} plan_counter;

/* The place of element `index` (0 <= index < count): one division per dim, for a walk's start. */
void clsel_priv_plan_counter_at(const plan_iter *it, int64_t index, plan_counter *c);
/* One element on, in odometer order (from the last element: back to the first). */
void clsel_priv_plan_counter_next(const plan_iter *it, plan_counter *c);
/* k elements on along dim 0 (k >= 1; at most to the first element of the next line of dim 0). */
void clsel_priv_plan_counter_skip(const plan_iter *it, plan_counter *c, int64_t k);

/* Reshapes. Each leaves every element where it lies in every tensor: only the order of the walk
 * changes (swap, move, flip, sort) or the dims that describe it (collapse, split, blocks). */
void clsel_priv_plan_iter_swap_dims(plan_iter *it, int32_t a, int32_t b);
/* Dim d walked backwards: every tensor's base moves to the dim's far end, its stride negated. */
void clsel_priv_plan_iter_flip_dim(plan_iter *it, int32_t d);
/* The dims in order of tensor t's strides, smallest innermost (a stable sort: equal strides keep
 * their order). */
void clsel_priv_plan_iter_sort_by(plan_iter *it, int t);
/* Dims of one index dropped, and each dim merged into the one below it where every tensor goes on
 * across them (its stride there is its stride below times the dim below's size): the same
 * elements in the same order, over fewer dims. */
void clsel_priv_plan_iter_collapse(plan_iter *it);
/* Dim `from` becomes dim `to`; the dims between keep their order. */
void clsel_priv_plan_iter_move_dim(plan_iter *it, int32_t from, int32_t to);
/* Dim d of n indices becomes two: d of `inner` (a divisor of n) and d + 1 of n / inner above it. 0,
 * and nothing done, when the rank has no room or inner does not divide n. */
int clsel_priv_plan_iter_split_dim(plan_iter *it, int32_t d, int64_t inner);
/* The space of blocks of `it` that take dims [0, inner) whole and `split` indices of dim `inner`
 * (the last block along it may have fewer): one element per block, where the block starts. Its dim
 * 0 is dim inner's blocks, the dims above inner follow; dim inner is dropped where one block takes
 * it whole (or inner == rank: one block). Returns whether it was kept. */
int clsel_priv_plan_iter_blocks(const plan_iter *it, int32_t inner, int64_t split,
                                plan_iter *blocks);

/* Boxes: sub-ranges of an iteration space, each itself one (a range of `step` indices along dim d,
 * every dim below d whole, one index on each dim above), holding at most max_elements elements and
 * touching at most max_span consecutive elements of any tensor (at least one element each whatever
 * the bounds). Consecutive boxes are consecutive ranges of the output's elements. */
typedef struct plan_split {
    plan_iter whole;
    int32_t d;
    int64_t step, per_line, count; /* indices along d per box, boxes along d, boxes in all */
} plan_split;

void clsel_priv_plan_split(plan_split *s, const plan_iter *it, int64_t max_elements,
                           int64_t max_span);

/* Box k of the split, 0 <= k < s->count. */
void clsel_priv_plan_split_box(const plan_split *s, int64_t k, plan_iter *box);

#endif
