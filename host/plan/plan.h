/* plan.h - the plan: everything the CPU loop and the OpenCL launcher need to know about
 * one (dtype, shapes, attrs) combination. The plan is the only code that knows
 * broadcasting; its consumers see a collapsed geometry of at most CLSEL_MAX_RANK dims
 * with an element stride per operand (0 on broadcast dims). */
#ifndef CLSEL_HOST_PLAN_H
#define CLSEL_HOST_PLAN_H

#include "clsel.h"
#include "plan/plan_operands.h" /* PLAN_COND ... PLAN_OUT: the operand slots of the arrays below */

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

/* The walk over the output that the CPU path and the OpenCL kernels share
 * (plan_blocks.c): the output in blocks of consecutive elements, each block dims
 * [0, inner) whole and `split` consecutive indices of dim `inner` (fewer at the end of
 * that dim). Inside a block, each input is read as one of: */
typedef enum plan_access {
    PLAN_ACCESS_RUN = 0,     /* a contiguous run: block element j is input element offset + j */
    PLAN_ACCESS_FIXED = 1,   /* one element for the whole block */
    PLAN_ACCESS_PATTERN = 2, /* anything else: gathered by the back end, dim by dim */
} plan_access;

typedef struct plan_blocks {
    int32_t inner;          /* dims [0, inner) lie whole in every block; inner <= rank */
    int64_t inner_elements; /* their product */
    int64_t split;          /* indices of dim `inner` per block (1 when inner == rank) */
    int64_t elements;       /* elements in a full block: inner_elements * split */
    int64_t count;          /* blocks in the whole output */
    plan_access access[3];  /* cond, then, else */
    /* Per input: 1 for a pattern that stays put along dim `inner` (stride 0), so that a
     * block's elements are its first inner_elements repeated `split` times: a back end
     * may gather that one period and read it again for each index of the split. */
    int8_t periodic[3];
    /* The order of the blocks: an odometer over `levels` levels, fastest first. Each is
     * one dim above `inner`, or (at chunk_level; -1 when inner == rank) the blocks
     * along dim `inner`, of which there are extent[chunk_level] with `split` indices
     * each but the last (last_split). step[t][l]: tensor t's element offset from one
     * index of level l to the next. The level that goes fastest is the one along which
     * the gathered inputs stay the same most (plan_blocks.c). */
    int32_t levels, chunk_level;
    int64_t last_split;
    int64_t extent[CLSEL_MAX_RANK];
    int64_t step[PLAN_OPERANDS][CLSEL_MAX_RANK];
} plan_blocks;

/* One block of the walk: where it starts in every tensor. */
typedef struct plan_block {
    int64_t split;                 /* indices of dim `inner` in this block */
    int64_t offset[PLAN_OPERANDS]; /* element offset of its first element, per tensor */
    int64_t coord[CLSEL_MAX_RANK]; /* its index along each level */
} plan_block;

/* Blocks of at most `target` elements (one, when target < 1); when the innermost dim
 * has `long_row` elements or more, blocks are pieces of single rows (every input then
 * a run or fixed), since gathering pays only for short rows. Only for a plan with a
 * non-empty output. */
void clsel_priv_plan_blocks_make(const clsel_plan *plan, int64_t target, int64_t long_row, plan_blocks *blocks);
/* Block `index` of the walk (0 <= index < count), and the one after it. */
void clsel_priv_plan_block_at(const plan_blocks *blocks, int64_t index, plan_block *at);
void clsel_priv_plan_block_next(const plan_blocks *blocks, plan_block *at);
/* k blocks on (k >= 1, at most to the first block of the next line of level 0). */
void clsel_priv_plan_block_skip(const plan_blocks *blocks, plan_block *at, int64_t k);

/* How a gathered input (PLAN_ACCESS_PATTERN) is read inside a block, and where a
 * periodic shuffle table pays for it (plan_period.c): the one description from which
 * both back ends build their tables. Its elements over dims [0, L) of a block (L <=
 * inner) repeat with every index of dim L, so one table of L dims' worth of bytes, each
 * 16-byte piece a shuffle of one small source window, makes every row of the block. */
typedef struct plan_period {
    /* The run: dims [0, run_dims) that one loop trip moves, run_bytes bytes: contiguous
     * (copies) or one element repeated (element bytes wide; with whole runs, a short
     * contiguous run repeated along the next dims counts as one wider element). */
    int32_t run_dims;
    int copies;
    size_t element;
    int64_t run_bytes;
    /* A table over dims [0, L) pays for fewest <= L <= most (both 0 when none does):
     * it must take a run shorter than 16 bytes (and a dim above it, where the back end
     * moves whole runs), or a repeated dim above a longer run, and fit in
     * PLAN_TABLE_BYTES (host/common/tuning_constants.h). A back end takes the largest L
     * whose pieces its shuffles can make. */
    int32_t fewest, most;
} plan_period;

/* Input `op`'s period in blocks `b`, for elements of w bytes; whole_runs: whether the
 * back end moves a short run with one store (the CPU path: a copy, or a splat, which
 * also takes a short contiguous run repeated as one wider element) rather than element
 * by element (the OpenCL kernels). */
void clsel_priv_plan_period(const clsel_plan *plan, const plan_blocks *b, int op, size_t w, int whole_runs,
                            plan_period *p);

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

/* Bytes of tensor `op` of a run (cond, then, else or out: PLAN_*), at its own size. */
uint64_t clsel_priv_plan_tensor_bytes(const clsel_plan *plan, int op);

/* Bytes a run moves: every input at its own size, and the output. */
uint64_t clsel_priv_plan_bytes_moved(const clsel_plan *plan);

/* Element count of a valid shape; -1 when it does not fit in int64. */
int64_t clsel_priv_plan_shape_count(const clsel_shape *shape);

/* Which inputs advance along the collapsed innermost dim, as a variant
 * (clsel_priv_plan_variant; 0 for a rank-0 plan): the vectors kernel that serves the
 * plan (plan_blocks.c, like the two below). */
int clsel_priv_plan_inner_advances(const clsel_plan *plan);

/* Bytes one row of the innermost dim moves: the output's and every input's that
 * advances along it (0 for a rank-0 plan). */
uint64_t clsel_priv_plan_row_bytes(const clsel_plan *plan);

/* For an input that advances along the innermost dim: how many rows the natural order
 * walks before that input's same row comes round again (the product of the dims below
 * its first broadcast outer dim); 0 when it never reads a row twice or does not
 * advance along the innermost dim. */
uint64_t clsel_priv_plan_row_reuse(const clsel_plan *plan, int op);

/* Where one tensor of a run lies: `root` names the memory (a cl_mem's root buffer, or
 * any fixed non-NULL value for host memory) and `begin` the byte offset of its first
 * element in it (a host pointer's address). A NULL root never overlaps anything. */
typedef struct plan_span {
    const void *root;
    uint64_t begin;
} plan_span;

/* The in-place and overlap rule, for both back ends (plan_overlap.c): the output may
 * start exactly where then or else starts when that input has the output's shape; any
 * other overlap of the output with an input is CLSEL_ERROR_BUFFER, with the byte
 * ranges in the message (relative to the lower of the two starts when `relative`, as
 * for host addresses). spans: cond, then, else, out. */
clsel_status clsel_priv_plan_check_overlap(const clsel_plan *plan, const plan_span spans[PLAN_OPERANDS], int relative);

#endif
