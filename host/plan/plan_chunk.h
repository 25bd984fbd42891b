/* plan_chunk.h - a plan's output in chunks of at most a given size, with the span of
 * each input that a chunk reads (plan_chunk.c). */
#ifndef CLSEL_HOST_PLAN_CHUNK_H
#define CLSEL_HOST_PLAN_CHUNK_H

#include "plan/plan.h"

/* Walks the chunks. A chunk is a box of the collapsed geometry: a range along dim d,
 * every dim below d whole, one index on each dim above d. */
typedef struct plan_chunks {
    const clsel_plan *plan;
    int32_t d;                      /* the dim the chunks split */
    int64_t slab;                   /* output elements per index along d */
    int64_t step;                   /* indices along d per chunk */
    int64_t at;                     /* next chunk's first index along d */
    int64_t coord[CLSEL_MAX_RANK];  /* next chunk's index on the dims above d */
    int done;
} plan_chunks;

/* Chunks of at most max_elements output elements (at least 1). */
void clsel_priv_plan_chunks_start(plan_chunks *it, const clsel_plan *plan, int64_t max_elements);

/* Output elements of the biggest chunk. */
int64_t clsel_priv_plan_chunks_max_elements(const plan_chunks *it);

/* The next chunk as a plan of its own over slices of the tensors: chunk->in_count[op]
 * is the span of input op it reads, starting at element base[op] of that input, and its
 * output starts at element base[PLAN_OUT] of the whole output (chunk outputs are
 * contiguous). 0 when there are no more chunks. */
int clsel_priv_plan_chunks_next(plan_chunks *it, clsel_plan *chunk, int64_t base[PLAN_OPERANDS]);

#endif
