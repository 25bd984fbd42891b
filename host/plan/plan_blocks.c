/* plan_blocks.c - the walk over the output that both back ends share: blocks of
 * consecutive output elements, what each input reads inside a block, and the order of
 * the blocks.
 *
 * Why blocks: after collapsing, the innermost dim is often short (an RGB-like 3, a
 * [N,1] operand against a [1,13] one, interleaved broadcast dims), and a loop built
 * around one row pays its fixed cost every few elements. A block takes several whole
 * inner dims at once, hundreds or thousands of elements, so that the fixed cost is paid
 * once per block; inside it an input is one contiguous run, one value, or a pattern
 * that the back end gathers into a small buffer and keeps while the next blocks read
 * the same elements.
 *
 * Why an order: a gathered input is reused only by consecutive blocks that start at
 * the same element of it, i.e. along a level where its stride is 0. Row-major order
 * puts the chunks of dim `inner` fastest, which helps nobody when every input moves
 * along that dim; the level along which the most gather work repeats goes fastest
 * instead (the idea of TensorIterator's reorder_dimensions in PyTorch,
 * aten/src/ATen/TensorIterator.cpp, applied to whole blocks). Blocks stay contiguous
 * runs of the output whatever the order. */
#include <string.h>

#include "common/tuning_constants.h" /* PLAN_GATHER_MOVE_BYTES, PLAN_ORDER_MARGIN */
#include "plan/plan.h"

/* The extent of block dim d: dims below `inner` whole, then `split` indices of it. */
static int64_t block_extent(const clsel_plan *plan, const plan_blocks *b, int32_t d)
{
    return d < b->inner ? plan->dims[d] : b->split;
}

static int block_dims(const clsel_plan *plan, const plan_blocks *b)
{
    return b->inner < plan->rank ? b->inner + 1 : b->inner;
}

/* Whether input `op` is dense over the block's dims: element j of the block is element
 * offset + j of the input. */
static int dense_over(const clsel_plan *plan, const plan_blocks *b, int op)
{
    int64_t step = 1;
    for (int32_t d = 0; d < block_dims(plan, b); ++d) {
        const int64_t extent = block_extent(plan, b, d);
        if (extent > 1 && plan->strides[op][d] != step) return 0;
        step *= extent;
    }
    return 1;
}

static int fixed_over(const clsel_plan *plan, const plan_blocks *b, int op)
{
    for (int32_t d = 0; d < block_dims(plan, b); ++d)
        if (block_extent(plan, b, d) > 1 && plan->strides[op][d] != 0) return 0;
    return 1;
}

/* What gathering input `op` for one block costs, in wide moves: one per run (the
 * innermost dims along which it is contiguous or broadcast), plus the bytes written. */
static double gather_cost(const clsel_plan *plan, const plan_blocks *b, int op)
{
    int64_t run = 1;
    int32_t d = 0;
    while (d < block_dims(plan, b) && block_extent(plan, b, d) == 1) ++d;
    const int copies = d < block_dims(plan, b) && plan->strides[op][d] != 0;
    for (; d < block_dims(plan, b); ++d) {
        const int64_t extent = block_extent(plan, b, d);
        if (extent == 1) continue;
        if (plan->strides[op][d] != (copies ? run : 0)) break;
        run *= extent;
    }
    const double w = op == PLAN_COND ? 1.0 : (double)plan->elem_size;
    return (double)b->elements / (double)run + (double)b->elements * w / PLAN_GATHER_MOVE_BYTES;
}

/* Moves the level along which the most gather work repeats to the front. */
static void order_levels(const clsel_plan *plan, plan_blocks *b)
{
    double cost[3] = {0, 0, 0};
    for (int op = 0; op < 3; ++op)
        if (b->access[op] == PLAN_ACCESS_PATTERN) cost[op] = gather_cost(plan, b, op);
    int32_t best = 0;
    double best_saved = 0;
    for (int32_t l = 0; l < b->levels; ++l) {
        double saved = 0;
        for (int op = 0; op < 3; ++op)
            if (cost[op] > 0 && b->step[op][l] == 0) saved += cost[op] * (1.0 - 1.0 / (double)b->extent[l]);
        if (saved > best_saved * PLAN_ORDER_MARGIN) best = l, best_saved = saved;
    }
    if (best == 0) return;
    const int64_t extent = b->extent[best];
    int64_t step[PLAN_OPERANDS];
    for (int t = 0; t < PLAN_OPERANDS; ++t) step[t] = b->step[t][best];
    for (int32_t l = best; l > 0; --l) {
        b->extent[l] = b->extent[l - 1];
        for (int t = 0; t < PLAN_OPERANDS; ++t) b->step[t][l] = b->step[t][l - 1];
    }
    b->extent[0] = extent;
    for (int t = 0; t < PLAN_OPERANDS; ++t) b->step[t][0] = step[t];
    if (b->chunk_level >= 0) b->chunk_level = b->chunk_level == best ? 0 : b->chunk_level + (b->chunk_level < best);
}

void clsel_priv_plan_blocks_make(const clsel_plan *plan, int64_t target, int64_t long_row, plan_blocks *b)
{
    memset(b, 0, sizeof *b);
    if (target < 1) target = 1;
    b->inner = 0;
    b->inner_elements = 1;
    if (plan->rank > 0 && plan->dims[0] < long_row)
        while (b->inner < plan->rank && b->inner_elements * plan->dims[b->inner] <= target)
            b->inner_elements *= plan->dims[b->inner++];
    b->levels = 0;
    b->chunk_level = -1;
    b->split = b->last_split = 1;
    if (b->inner < plan->rank) {
        const int64_t extent = plan->dims[b->inner];
        b->split = target / b->inner_elements;
        if (b->split < 1) b->split = 1;
        if (b->split > extent) b->split = extent;
        const int64_t chunks = (extent + b->split - 1) / b->split;
        b->last_split = extent - (chunks - 1) * b->split;
        if (chunks > 1) { /* a dim split into one block is no level of the walk */
            b->chunk_level = 0;
            b->extent[0] = chunks;
            for (int t = 0; t < PLAN_OPERANDS; ++t) b->step[t][0] = b->split * plan->strides[t][b->inner];
            b->levels = 1;
        }
        for (int32_t d = b->inner + 1; d < plan->rank; ++d, ++b->levels) {
            b->extent[b->levels] = plan->dims[d];
            for (int t = 0; t < PLAN_OPERANDS; ++t) b->step[t][b->levels] = plan->strides[t][d];
        }
    }
    b->elements = b->inner_elements * b->split;
    b->count = plan->out_count > 0;
    for (int32_t l = 0; l < b->levels; ++l) b->count *= b->extent[l];
    for (int op = 0; op < 3; ++op)
        b->access[op] = fixed_over(plan, b, op)   ? PLAN_ACCESS_FIXED
                        : dense_over(plan, b, op) ? PLAN_ACCESS_RUN
                                                  : PLAN_ACCESS_PATTERN;
    for (int op = 0; op < 3; ++op)
        b->periodic[op] = b->access[op] == PLAN_ACCESS_PATTERN && b->inner < plan->rank && b->split > 1 &&
                          plan->strides[op][b->inner] == 0;
    order_levels(plan, b);
}

void clsel_priv_plan_block_at(const plan_blocks *b, int64_t index, plan_block *at)
{
    for (int t = 0; t < PLAN_OPERANDS; ++t) at->offset[t] = 0;
    at->split = b->split;
    for (int32_t l = 0; l < b->levels; ++l) {
        at->coord[l] = index % b->extent[l];
        index /= b->extent[l];
        for (int t = 0; t < PLAN_OPERANDS; ++t) at->offset[t] += at->coord[l] * b->step[t][l];
        if (l == b->chunk_level && at->coord[l] == b->extent[l] - 1) at->split = b->last_split;
    }
}

void clsel_priv_plan_block_next(const plan_blocks *b, plan_block *at)
{
    for (int32_t l = 0; l < b->levels; ++l) {
        if (++at->coord[l] < b->extent[l]) {
            for (int t = 0; t < PLAN_OPERANDS; ++t) at->offset[t] += b->step[t][l];
            if (l == b->chunk_level && at->coord[l] == b->extent[l] - 1) at->split = b->last_split;
            return;
        }
        for (int t = 0; t < PLAN_OPERANDS; ++t) at->offset[t] -= (b->extent[l] - 1) * b->step[t][l];
        at->coord[l] = 0;
        if (l == b->chunk_level) at->split = b->split;
    }
}

void clsel_priv_plan_block_skip(const plan_blocks *b, plan_block *at, int64_t k)
{
    if (b->levels == 0) return;
    at->coord[0] += k - 1;
    for (int t = 0; t < PLAN_OPERANDS; ++t) at->offset[t] += (k - 1) * b->step[t][0];
    clsel_priv_plan_block_next(b, at);
}

int clsel_priv_plan_inner_advances(const clsel_plan *plan)
{
    const int rows = plan->rank > 0;
    return clsel_priv_plan_variant(rows && plan->strides[PLAN_COND][0] != 0, rows && plan->strides[PLAN_THEN][0] != 0,
                                   rows && plan->strides[PLAN_ELSE][0] != 0);
}

uint64_t clsel_priv_plan_row_bytes(const clsel_plan *plan)
{
    if (plan->rank == 0) return 0;
    uint64_t bytes = (uint64_t)plan->dims[0] * plan->elem_size; /* the output's */
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op)
        if (plan->strides[op][0] != 0) bytes += (uint64_t)plan->dims[0] * (op == PLAN_COND ? 1 : plan->elem_size);
    return bytes;
}

uint64_t clsel_priv_plan_row_reuse(const clsel_plan *plan, int op)
{
    if (plan->rank == 0 || plan->strides[op][0] == 0) return 0;
    uint64_t rows = 1;
    for (int32_t d = 1; d < plan->rank; rows *= (uint64_t)plan->dims[d], ++d)
        if (plan->strides[op][d] == 0) return rows;
    return 0;
}
