/* cpu_loops.h - the CPU path's innermost loops as one table per instruction set: the
 * row loops the walk calls (cpu_walk.c) and the gather's run loops (cpu_gather.c). The
 * portable table is in cpu_loops.c, the AVX2 one in cpu_loops_avx2.c; callers reach
 * either only through clsel_priv_cpu_loops(), which picks once per run, so that no loop
 * file calls back into its callers. */
#ifndef CLSEL_HOST_CPU_LOOPS_H
#define CLSEL_HOST_CPU_LOOPS_H

#include <stdint.h>

#include "plan/plan_iter.h"

/* `count` rows of n output elements, the k-th `step` bytes (cond, then, else, out)
 * after the one before: consecutive blocks along one level, so that a walk of short
 * rows makes one call per line of blocks, not one per block. Along a row each input
 * advances one element per output element or stays on element [0], as the loop's
 * variant says (plan_iter.h). Where cond stays, a row reads only the input it picks. */
typedef struct cpu_rows {
    int64_t n, count;
    const uint8_t *cond;
    const uint8_t *then_data, *else_data;
    uint8_t *out;
    int64_t step[PLAN_OPERANDS];
} cpu_rows;
typedef void (*cpu_row_fn)(const cpu_rows *rows);

/* A gather's loop over n runs of g->run_bytes, the k-th read at src + k * step and
 * written one after another from dst; the source ends at src_end (cpu_gather.h). */
struct cpu_gather_walk;
typedef void (*cpu_run_loop)(const struct cpu_gather_walk *g, uint8_t *dst, const uint8_t *src, int64_t n,
                             int64_t step, const uint8_t *src_end);

typedef struct cpu_loops {
    cpu_row_fn rows[2][4][PLAN_VARIANTS]; /* [streamed stores][element width index][variant] */
    /* The set's loop for a gather's runs, filling what it needs in g; NULL (or a NULL
     * result) where the portable loops of cpu_gather.c serve. */
    cpu_run_loop (*run_loop)(struct cpu_gather_walk *g);
    cpu_run_loop shuffle; /* shuffled runs (cpu_gather.h); NULL: the set has none */
    void (*fence)(void);  /* orders streamed stores before a run returns */
} cpu_loops;

/* The loops of this processor: AVX2 where it has them, unless the knob
 * CLSEL_PRIV_KNOB_PORTABLE_CPU asks for the portable ones. */
const cpu_loops *clsel_priv_cpu_loops(void);

/* The AVX2 table (cpu_loops_avx2.c); NULL where the processor or the build lacks AVX2. */
const cpu_loops *clsel_priv_cpu_avx2_loops(void);

#endif
