/* cpu_walk.h - the CPU path's walk over a plan (cpu_walk.c): its blocks, the tensors,
 * and how a range of work units maps to blocks, so that cpu_parallel.c can share the
 * units out over threads. */
#ifndef CLSEL_HOST_CPU_WALK_H
#define CLSEL_HOST_CPU_WALK_H

#include <stdint.h>

#include "plan/plan.h"

typedef struct cpu_walk {
    const clsel_plan *plan;
    plan_blocks blocks;
    int by_chunk; /* units are lines along dim 0, walked chunk by chunk (clsel_priv_cpu_tiles_rows) */
    int stream;   /* non-temporal stores for the output */
    int gathers;  /* some input is a pattern: gathered block by block */
    /* Per input: a periodic pattern (plan_blocks) whose period is a long row: one period
     * is gathered and each block runs as `split` rows that all read it. */
    int period_rows[3];
    const uint8_t *cond, *then_data, *else_data;
    uint8_t *out;
} cpu_walk;

/* Whether the walk goes chunk by chunk over several long rows, so that an input they
 * all read is still in the cache for the next row (rows too long to stay cached). */
int clsel_priv_cpu_tiles_rows(const clsel_plan *plan);
void clsel_priv_cpu_walk_make(const clsel_plan *plan, const void *cond, const void *then_data, const void *else_data,
                              void *out, cpu_walk *walk);
/* Work units of the walk (blocks, or rows when by_chunk); pieces of a split over
 * threads are ranges of them. */
int64_t clsel_priv_cpu_walk_units(const cpu_walk *walk);
/* Units [first, last) on this thread. */
void clsel_priv_cpu_walk_run(const cpu_walk *walk, int64_t first, int64_t last);

#endif
