/* plan_chunk.c - splitting a plan's output into chunks that each fit a size limit, for
 * the runtime, which must run tensors bigger than one device allocation.
 *
 * Chunks follow the collapsed geometry: the highest dim d whose one index (a "slab":
 * the product of the dims below it) fits the limit is split into ranges, the dims
 * above d are walked one index at a time. Every input is dense in its own layout with
 * strides 0 where it is broadcast, so what a chunk reads of an input is one contiguous
 * span from its first to its last element, never longer than the chunk's output. */
#include "plan/plan_chunk.h"

#include <string.h>

void clsel_priv_plan_chunks_start(plan_chunks *it, const clsel_plan *plan, int64_t max_elements)
{
    memset(it, 0, sizeof *it);
    it->plan = plan;
    it->slab = 1;
    it->done = plan->out_count == 0;
    if (max_elements < 1) max_elements = 1;
    if (plan->rank == 0) {
        it->step = 1;
        return;
    }
    while (it->d + 1 < plan->rank && it->slab * plan->dims[it->d] <= max_elements) it->slab *= plan->dims[it->d++];
    it->step = max_elements / it->slab;
    if (it->step > plan->dims[it->d]) it->step = plan->dims[it->d];
    if (it->step < 1) it->step = 1;
}

int64_t clsel_priv_plan_chunks_max_elements(const plan_chunks *it) { return it->step * it->slab; }

int clsel_priv_plan_chunks_next(plan_chunks *it, clsel_plan *chunk, int64_t base[PLAN_OPERANDS])
{
    if (it->done) return 0;
    const clsel_plan *plan = it->plan;
    const int32_t d = it->d;
    const int64_t extent = plan->rank ? plan->dims[d] : 1;
    const int64_t count = extent - it->at < it->step ? extent - it->at : it->step;

    *chunk = *plan;
    chunk->rank = plan->rank ? d + 1 : 0;
    if (plan->rank) chunk->dims[d] = count;
    chunk->out_count = count * it->slab;
    for (int op = 0; op < PLAN_OPERANDS; ++op) {
        int64_t first = 0, last = 0; /* element offsets of the chunk's first and last reads */
        for (int32_t k = d + 1; k < plan->rank; ++k) first += it->coord[k] * plan->strides[op][k];
        if (plan->rank) {
            first += it->at * plan->strides[op][d];
            last = (count - 1) * plan->strides[op][d];
            for (int32_t k = 0; k < d; ++k) last += (plan->dims[k] - 1) * plan->strides[op][k];
        }
        base[op] = first;
        if (op < 3) chunk->in_count[op] = last + 1;
    }
    /* Shapes as the chunk's own buffers hold them (for messages). */
    chunk->out_shape.rank = 1;
    chunk->out_shape.dims[0] = chunk->out_count;
    for (int op = 0; op < 3; ++op) {
        chunk->in_shape[op].rank = 1;
        chunk->in_shape[op].dims[0] = chunk->in_count[op];
    }

    /* On to the next range along d, then the next index above d. */
    it->at += count;
    if (it->at == extent) {
        it->at = 0;
        int32_t k = d + 1;
        for (; k < plan->rank; ++k) {
            if (++it->coord[k] < plan->dims[k]) break;
            it->coord[k] = 0;
        }
        it->done = k >= plan->rank;
    }
    return 1;
}
