/* bench_sweep.h - clsel bench --sweep N (bench_sweep.c): Select timed on random
 * broadcast patterns instead of the named cases. */
#ifndef CLSEL_TOOLS_BENCH_SWEEP_H
#define CLSEL_TOOLS_BENCH_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "bench_harness.h"

/* The sweep's distributions (--draw, bench_options.draw): "broad" as the sweep first
 * drew (ranks 1-8, dims of any length), "short" (short inner dims with inputs repeated
 * or tiled over them), and "mixed", the default: every third pattern short, the rest
 * broad, so that pattern k of a seed is the broad one it always was unless k % 3 == 2. */
enum {
    SWEEP_DRAW_MIXED,
    SWEEP_DRAW_BROAD,
    SWEEP_DRAW_SHORT,
    SWEEP_DRAW_INTERLEAVED,
    SWEEP_DRAWS
};
extern const char *const bench_sweep_draw_names[SWEEP_DRAWS];

/* Output sizes a pattern is drawn at: 64-128 MiB, 2-4 MiB (--quick), 64-128 KiB (--model,
 * which runs on a simulator). */
enum {
    SWEEP_SIZE_FULL,
    SWEEP_SIZE_QUICK,
    SWEEP_SIZE_MODEL,
    SWEEP_SIZES
};

/* bench_sweep_case draws pattern `index` of the sweep with this seed at a size class
 * (SWEEP_SIZE_*): the same pattern for the same pair, whatever N is, and at each size the
 * same but for the dim that grows to the size. bench_sweep times N patterns on the OpenCL device,
 * the CPU path on one thread and on every core (as asked), one report per path into
 * reports[0..*count); 0 when at least one path ran. */
const bench_case *bench_sweep_case(uint64_t seed, int index, int size, int draw);
int bench_sweep(const bench_options *o, int with_opencl, int with_cpu, bench_report *reports,
                size_t *count);

/* A path's distribution over the sweep, in % of copy and in % of the traffic model's
 * ceiling, both capped at 100. */
typedef struct bench_sweep_stats {
    size_t count; /* patterns that ran */
    double min, p10, median;
    double ceiling_min, ceiling_p10, ceiling_median;
    /* OpenCL: the same distribution with both sides timed by events (0 elsewhere) */
    double event_min, event_p10, event_median;
    size_t below_85, below_70;
} bench_sweep_stats;
void bench_sweep_summarize(const bench_report *report, bench_sweep_stats *stats);
/* Each path's distribution and worst patterns on stdout. */
void bench_sweep_print(const bench_report *reports, size_t count);

#endif
