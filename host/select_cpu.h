/* select_cpu.h - pieces of the CPU path that the runtime reuses. */
#ifndef CLSEL_HOST_SELECT_CPU_H
#define CLSEL_HOST_SELECT_CPU_H

#include <stdint.h>

#include "clsel.h"

/* The NULL-pointer and aliasing rules for host tensors (clsel_plan_run_cpu). */
clsel_status cpu_check_buffers(const clsel_plan *plan, const void *cond, const void *then_data,
                               const void *else_data, const void *out);

/* `count` rows of n elements each, the k-th starting `step` bytes (cond, then, else, out)
 * after the (k-1)-th: consecutive rows along one dim, so that the walk over the outer
 * dims happens once per sweep, not once per row (short rows would spend more time there
 * than on their elements). */
typedef struct cpu_rows {
    int64_t n, count;
    const uint8_t *cond, *then_data, *else_data;
    uint8_t *out;
    int64_t step[4];
} cpu_rows;

/* Runs cpu_rows in which cond, then and else each advance along a row or stay put, as
 * the table entry says (select_cpu.c). */
typedef void (*cpu_row_fn)(const cpu_rows *rows);

/* Row tiles of this many elements, when an input is re-read by several rows. */
#define CPU_TILE 8192

/* Whether cpu_run_range walks whole rows tile by tile for this plan (then ranges that
 * start and end on row boundaries go faster). */
int cpu_tiles_rows(const clsel_plan *plan);

/* The output elements [begin, end) (flat, row-major) of the plan, on this thread;
 * `stream`: write the output with non-temporal stores where the processor has them. */
void cpu_run_range(const clsel_plan *plan, const uint8_t *cond, const uint8_t *then_data,
                   const uint8_t *else_data, uint8_t *out, int64_t begin, int64_t end, int stream);

/* The AVX2 row loops [element width index][cond*4 + then*2 + else advancing], plain or
 * streaming stores; NULL when the processor (or the build) has no AVX2
 * (select_cpu_avx2.c). cpu_stream_fence orders streamed stores before returning. */
const cpu_row_fn (*cpu_avx2_rows(int stream))[8];
void cpu_stream_fence(void);

/* The whole output, split over the threads or the pool the options name
 * (cpu_parallel.c). */
void cpu_run_parallel(const clsel_plan *plan, const void *cond, const void *then_data,
                      const void *else_data, void *out, const clsel_cpu_options *options);

#endif
