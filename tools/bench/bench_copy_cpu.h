/* bench_copy_cpu.h - the CPU path's baselines: memcpy (what a case is judged against),
 * and writing alone and reading alone (the traffic model's other two ceilings), over
 * two buffers far larger than the caches, split over as many threads as the path runs. */
#ifndef CLSEL_TOOLS_BENCH_COPY_CPU_H
#define CLSEL_TOOLS_BENCH_COPY_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "bench_harness.h"

typedef struct bench_cpu_copy {
    uint8_t *src, *dst; /* initialized */
    size_t bytes;
    int threads;
} bench_cpu_copy;

/* Makes and fills the buffers: 0, or -1 when out of memory; close it either way. */
int bench_cpu_copy_open(bench_cpu_copy *copy, size_t bytes, int threads);
void bench_cpu_copy_close(bench_cpu_copy *copy);

/* The baselines at the start of a run, each the median of `repeat` runs after two
 * warm-ups: memcpy (bytes read + bytes written per second, STREAM convention), a
 * non-temporal fill, and a read of three streams at once, as Select reads. */
void bench_cpu_copy_measure(const bench_cpu_copy *copy, int repeat, double *copy_gbps,
                            double *write_gbps, double *read_gbps);

/* One memcpy of the buffers of `copy` (a bench_cpu_copy), as a bench_run_fn: the copy
 * re-timed beside a case's runs. */
int bench_cpu_copy_run(void *copy, double *device_ms);

#endif
