/* bench_inputs.h - what a timed run needs before the clock starts: a case's plan at the
 * run's sizes with its host inputs (the named cases and the sweep's patterns), or a
 * plain same-shape f32 select on host memory (--thresholds, --first-call). */
#ifndef CLSEL_TOOLS_BENCH_INPUTS_H
#define CLSEL_TOOLS_BENCH_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "bench_harness.h"

/* A case's host inputs at its plan's sizes (each with a spare byte, so none is empty): the bytes
 * each tensor touches (a view's may lie around its element [0]: `zero` bytes in), and the output's
 * for the device path's buffer. */
typedef struct bench_inputs {
    uint8_t *cond;
    void *then_data, *else_data;
    size_t bytes[4]; /* cond, then, else, out */
    size_t zero[4];  /* where element [0] lies in those bytes */
} bench_inputs;

/* Starts r for case c, makes the case's plan at the run's sizes and its inputs
 * (bench_fill), and sets r->elements and r->bytes. NULL, with the reason in r->error
 * (the library's message, or out of memory), when there is nothing to time. Either way
 * bench_case_release(plan, in) frees what was made. */
clsel_plan *bench_case_prepare(const bench_options *o, const bench_case *c, bench_inputs *in,
                               bench_result *r);
void bench_case_release(clsel_plan *plan, bench_inputs *in);

/* A same-shape f32 select of n elements on host memory: its plan, a random cond,
 * constant inputs and an output (bench --thresholds and --first-call). Make returns
 * nonzero when out of memory; free it either way. */
typedef struct bench_host_case {
    clsel_plan *plan;
    uint8_t *cond;
    float *then_data, *else_data, *out;
} bench_host_case;
int bench_host_case_make(bench_host_case *h, int64_t n);
void bench_host_case_free(bench_host_case *h);

#endif
