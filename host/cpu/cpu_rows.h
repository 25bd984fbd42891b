/* cpu_rows.h - the CPU path's row loops as the walk calls them (cpu_walk.c): one call
 * selects several rows. Per element width there are PLAN_VARIANTS loops, tabled by
 * clsel_priv_plan_variant of which inputs advance along a row (plan/plan_operands.h):
 * the portable ones in cpu_walk.c, the AVX2 ones in select_cpu_avx2.c. */
#ifndef CLSEL_HOST_CPU_ROWS_H
#define CLSEL_HOST_CPU_ROWS_H

#include <stdint.h>

#include "plan/plan_operands.h"

/* `count` rows of n output elements, the k-th `step` bytes (cond, then, else, out)
 * after the one before: consecutive blocks along one level, so that a walk of short
 * rows makes one call per line of blocks, not one per block. Along a row cond, then and
 * else each either advance one element per output element or stay fixed (read at
 * [0]), as the variant of the loop says. Where cond stays fixed, each row reads only the
 * input its cond element chooses. */
typedef struct cpu_rows {
    int64_t n, count;
    const uint8_t *cond;
    const uint8_t *then_data, *else_data;
    uint8_t *out;
    int64_t step[PLAN_OPERANDS];
} cpu_rows;
typedef void (*cpu_row_fn)(const cpu_rows *rows);

#endif
