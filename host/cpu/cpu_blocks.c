/* cpu_blocks.c - the blocks of the CPU path's walk, their order, and where shuffle tables pay
 * (cpu_blocks.h). Why blocks: after collapsing, the innermost dim is often short (an RGB-like 3, a
 * [N,1] operand against a [1,13] one, interleaved broadcast dims), and a loop around one row pays
 * its fixed cost every few elements; a block of several whole inner dims pays it once per hundreds
 * or thousands. Why an order: a gathered input is reused only by consecutive blocks that start at
 * the same element of it (along a level where its stride is 0). Row-major order puts the chunks of
 * dim `inner` fastest, which helps nobody when every input moves along that dim; the level along
 * which the most gather work repeats goes fastest instead (PyTorch's TensorIterator
 * reorder_dimensions, aten/src/ATen/TensorIterator.cpp, for whole blocks). Blocks stay contiguous
 * runs of the output in any order. */
#include <string.h>

/* CPU_GATHER_MOVE_BYTES, CPU_ORDER_MARGIN, CPU_SCATTER_*, CPU_TABLE_* */
#include "common/tuning_constants.h"
#include "cpu/cpu_blocks.h"

/* The extent of block dim d: dims below `inner` whole, then `split` indices of it. */
static int64_t block_extent(const cpu_blocks *b, int32_t d)
{
    return d < b->inner ? b->it->dims[d] : b->split;
}
static int block_dims(const cpu_blocks *b)
{
    return b->inner < b->it->rank ? b->inner + 1 : b->inner;
}

/* How input `op` is read inside a block: fixed (stride 0 along every block dim), a run (dense:
 * block element j is input element offset + j), or a pattern. */
static cpu_access block_access(const cpu_blocks *b, int op)
{
    int fixed = 1, dense = 1;
    int64_t step = 1;
    for (int32_t d = 0; d < block_dims(b); ++d) {
        const int64_t extent = block_extent(b, d);
        fixed &= extent <= 1 || b->it->strides[op][d] == 0;
        dense &= extent <= 1 || b->it->strides[op][d] == step;
        step *= extent;
    }
    return fixed ? CPU_ACCESS_FIXED : dense ? CPU_ACCESS_RUN : CPU_ACCESS_PATTERN;
}

/* Gathering input `op` for one block, in wide moves: one per run (the innermost dims it is
 * contiguous or broadcast along), plus the bytes written. */
static double gather_cost(const cpu_blocks *b, int op)
{
    int64_t run = 1;
    int32_t d = 0;
    while (d < block_dims(b) && block_extent(b, d) == 1)
        ++d;
    const int copies = d < block_dims(b) && b->it->strides[op][d] != 0;
    for (; d < block_dims(b); ++d) {
        const int64_t extent = block_extent(b, d);
        if (extent == 1)
            continue;
        if (b->it->strides[op][d] != (copies ? run : 0))
            break;
        run *= extent;
    }
    const double w = (double)clsel_priv_operand_width(op, b->w);
    return (double)b->elements / (double)run + (double)b->elements * w / CPU_GATHER_MOVE_BYTES;
}

/* Moves the level along which the most gather work repeats to the front. */
static void order_levels(cpu_blocks *b)
{
    double cost[3] = {0, 0, 0};
    for (int op = 0; op < 3; ++op)
        if (b->access[op] == CPU_ACCESS_PATTERN)
            cost[op] = gather_cost(b, op);
    int32_t best = 0;
    double best_saved = 0;
    for (int32_t l = 0; l < b->order.rank; ++l) {
        double saved = 0;
        for (int op = 0; op < 3; ++op)
            if (cost[op] > 0 && b->order.strides[op][l] == 0)
                saved += cost[op] * (1.0 - 1.0 / (double)b->order.dims[l]);
        if (saved > best_saved * CPU_ORDER_MARGIN) {
            best = l;
            best_saved = saved;
        }
    }
    if (best == 0)
        return;
    clsel_priv_plan_iter_move_dim(&b->order, best, 0);
    if (b->chunk_level >= 0)
        b->chunk_level = b->chunk_level == best ? 0 : b->chunk_level + (b->chunk_level < best);
}

void clsel_priv_cpu_blocks_make(const plan_iter *it, size_t w, int64_t target, int64_t long_row,
                                int tiles, cpu_blocks *b)
{
    memset(b, 0, sizeof *b);
    b->it = it;
    b->w = w;
    if (target < 1)
        target = 1;
    /* The dims along which the output is dense; blocks take no more when those make rows long
     * enough. */
    int32_t out_dense = 0, most_inner = it->rank;
    int64_t dense_elements = 1;
    while (out_dense < it->rank && it->strides[PLAN_OUT][out_dense] == dense_elements)
        dense_elements *= it->dims[out_dense++];
    if (!tiles && out_dense < it->rank &&
        dense_elements * (int64_t)w >= CPU_SCATTER_BELOW_ROW_BYTES)
        most_inner = out_dense;
    b->inner_elements = 1;
    if (b->it->rank > 0 && b->it->dims[0] < long_row)
        while (b->inner < most_inner && b->inner_elements * b->it->dims[b->inner] <= target)
            b->inner_elements *= b->it->dims[b->inner++];
    b->chunk_level = -1;
    b->split = b->last_split = 1;
    if (b->inner < b->it->rank) {
        const int64_t extent = b->it->dims[b->inner];
        b->split = b->inner == most_inner
                       ? 1
                       : target / b->inner_elements; /* the output is not dense across */
        if (b->split < 1)
            b->split = 1;
        if (b->split > extent)
            b->split = extent;
        b->last_split = extent - (extent - 1) / b->split * b->split;
    }
    /* a dim split into one block is no level of the walk */
    if (clsel_priv_plan_iter_blocks(b->it, b->inner, b->split, &b->order))
        b->chunk_level = 0;
    b->elements = b->inner_elements * b->split;
    b->count = b->order.count;
    for (int t = 0; t < PLAN_OPERANDS; ++t)
        b->access[t] = block_access(b, t);
    if (b->access[PLAN_OUT] == CPU_ACCESS_FIXED)
        b->access[PLAN_OUT] = CPU_ACCESS_RUN; /* a block of one element */
    order_levels(b);
}

/* The indices of dim `inner` the block at `place` takes: split, but last_split for the last block
 * along it. */
static int64_t block_split(const cpu_blocks *b, const plan_counter *place)
{
    const int32_t l = b->chunk_level;
    return l >= 0 && place->at[l] == b->order.dims[l] - 1 ? b->last_split : b->split;
}

void clsel_priv_cpu_block_at(const cpu_blocks *b, int64_t index, cpu_block *at)
{
    clsel_priv_plan_counter_at(&b->order, index, &at->place);
    at->split = block_split(b, &at->place);
}

void clsel_priv_cpu_block_next(const cpu_blocks *b, cpu_block *at)
{
    clsel_priv_plan_counter_next(&b->order, &at->place);
    at->split = block_split(b, &at->place);
}

void clsel_priv_cpu_block_skip(const cpu_blocks *b, cpu_block *at, int64_t k)
{
    clsel_priv_plan_counter_skip(&b->order, &at->place, k);
    at->split = block_split(b, &at->place);
}

int64_t clsel_priv_cpu_block_period(const cpu_blocks *b, int op, int32_t *dims)
{
    const plan_iter *it = b->it;
    if (b->access[op] != CPU_ACCESS_PATTERN ||
        (b->inner < it->rank && b->split > 1 && it->strides[op][b->inner] != 0))
        return 0;
    int32_t d = b->inner;
    while (d > 0 && (it->dims[d - 1] == 1 || it->strides[op][d - 1] == 0))
        --d;
    int64_t elements = 1;
    for (int32_t i = 0; i < d; ++i)
        elements *= it->dims[i];
    if (elements < 2 || elements >= b->elements)
        return 0;
    *dims = d;
    return elements;
}

void clsel_priv_cpu_period_blocks(const cpu_blocks *b, int32_t dims, cpu_blocks *period)
{
    memset(period, 0, sizeof *period);
    period->it = b->it;
    period->w = b->w;
    period->inner = dims;
    period->inner_elements = 1;
    for (int32_t d = 0; d < dims; ++d)
        period->inner_elements *= b->it->dims[d];
    period->split = period->last_split = 1;
    period->elements = period->inner_elements;
    period->count = 1;
    period->chunk_level = -1;
    for (int t = 0; t < PLAN_OPERANDS; ++t)
        period->access[t] = block_access(period, t);
}

void clsel_priv_cpu_period(const cpu_blocks *b, int op, size_t w, cpu_period *p)
{
    const plan_iter *it = b->it;
    const int64_t *stride = it->strides[op];
    const int32_t top = b->inner; /* the dims whole in every block; the split dim's extent varies */
    p->copies = it->rank > 0 && stride[0] != 0;
    p->element = w;
    p->run_dims = 0;
    int64_t run = 1;
    while (p->run_dims < top && stride[p->run_dims] == (p->copies ? run : 0))
        run *= it->dims[p->run_dims++];
    p->run_bytes = run * (int64_t)w;
    /* A short run repeated along the next dims is a splat of one wider element (3 bytes repeated is
     * no such thing). */
    if (p->copies && p->run_dims < top && stride[p->run_dims] == 0 && p->run_bytes <= 8 &&
        (p->run_bytes & (p->run_bytes - 1)) == 0) {
        p->copies = 0;
        p->element = (size_t)p->run_bytes;
        while (p->run_dims < top && stride[p->run_dims] == 0)
            p->run_bytes *= it->dims[p->run_dims++];
    }
    p->fewest = p->most = 0;
    if (b->access[op] != CPU_ACCESS_PATTERN || p->run_bytes >= CPU_TABLE_BELOW_RUN_BYTES)
        return;
    int32_t most = 0;
    for (int64_t bytes = (int64_t)w; most < top && bytes * it->dims[most] <= CPU_TABLE_BYTES;)
        bytes *= it->dims[most++];
    /* Worth it where the loop it replaces does more than one store per 16 bytes: runs shorter than
     * a piece, or a dim the table takes along which the run is copied again (a tile rebuilt per
     * index). Runs of 16-63 bytes stepping along every dim above are one splat or copy each,
     * cheaper (i16 then [553655,7,1] against [7,13] ran at 2.5x the time shuffled), and tables of a
     * run alone made three patterns with runs of 4-12 bytes 1.8-2.1x slower. */
    int32_t repeated = p->run_dims;
    while (repeated < most && stride[repeated] != 0)
        ++repeated;
    const int32_t fewest = p->run_bytes < 16 ? p->run_dims + 1 : repeated + 1;
    if (fewest > most)
        return;
    p->fewest = fewest;
    p->most = most;
}
