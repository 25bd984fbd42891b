/* cpu_loops.h - the CPU path's row and gather run loops, one table per instruction set
 * (cpu_loops.c, cpu_loops_avx2.c), reached only through clsel_priv_cpu_loops() (once per run), so
 * that no loop file calls back into its callers. */
#ifndef CLSEL_HOST_CPU_LOOPS_H
#define CLSEL_HOST_CPU_LOOPS_H

#include "plan/plan_iter.h"

/* `count` rows of n output elements, `step` bytes (cond, then, else, out) apart: consecutive blocks
 * along one level, so a walk of short rows makes one call per line of blocks. Along a row each
 * input advances or stays on element [0], as the loop's variant says (plan_iter.h); where cond
 * stays, a row reads only the input it picks. */
typedef struct cpu_rows {
    int64_t n, count;
    const uint8_t *cond, *then_data, *else_data;
    uint8_t *out;
    int64_t step[PLAN_OPERANDS];
} cpu_rows;
typedef void (*cpu_row_fn)(const cpu_rows *rows);

/* The cpu_row_fn NAME##_rows (with attributes ATTR) around NAME, a loop over one row (n, cond,
 * then, else, out). */
#define CPU_ROWS_FN(ATTR, NAME)                                                 \
    ATTR static void NAME##_rows(const cpu_rows *r)                             \
    {                                                                           \
        const uint8_t *c = r->cond, *t = r->then_data, *e = r->else_data;       \
        uint8_t *o = r->out;                                                    \
        for (int64_t k = 0; k < r->count; ++k) {                                \
            NAME(r->n, c, t, e, o);                                             \
            c += r->step[0], t += r->step[1], e += r->step[2], o += r->step[3]; \
        }                                                                       \
    }

/* A gather's loop over n runs of g->run_bytes, read `step` bytes apart and written one after
 * another (cpu_gather.h). */
struct cpu_gather_walk;
typedef void (*cpu_run_loop)(const struct cpu_gather_walk *g, uint8_t *dst, const uint8_t *src,
                             int64_t n, int64_t step, const uint8_t *src_end);

typedef struct cpu_loops {
    cpu_row_fn rows[2][4][PLAN_VARIANTS]; /* [streamed stores][element width index][variant] */
    /* a gather's run loop, from what g says (it writes nothing in g); NULL: cpu_gather.c's */
    cpu_run_loop (*run_loop)(const struct cpu_gather_walk *g);
    cpu_run_loop shuffle; /* shuffled runs (cpu_gather.h); NULL: the set has none */
    void (*fence)(void);  /* orders streamed stores before a run returns */
} cpu_loops;

/* The loops of this processor: AVX2 where it has them, unless knob CLSEL_PRIV_KNOB_PORTABLE_CPU
 * asks for portable. */
const cpu_loops *clsel_priv_cpu_loops(void);
/* The AVX2 table (cpu_loops_avx2.c); NULL where the processor or the build lacks AVX2. */
const cpu_loops *clsel_priv_cpu_avx2_loops(void);

#endif
