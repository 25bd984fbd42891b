/* bench_cases.h - the benchmark's named cases: shapes at DRAM size (>= 4x the
 * last-level cache) and at a quick size, dtype, attributes and cond pattern. */
#ifndef CLSEL_TOOLS_BENCH_CASES_H
#define CLSEL_TOOLS_BENCH_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "clsel.h"

typedef enum cond_pattern {
    COND_RANDOM50 = 0,
    COND_RANDOM10,
    COND_ALL_TRUE,
    COND_ALL_FALSE
} cond_pattern;

/* How a case's tensors lie (bench_view_strides): dense row-major (NONE), or one of the views of
 * --views, every tensor R x C: DENSE (the reference of the others), PADDED (every tensor, the
 * output too, rows 64 elements apart), TRANSPOSED (every tensor transposed, the output alike),
 * TRANSPOSED_C (every input transposed, the output dense), EVERY_OTHER (each input a[:, ::2] of a
 * 2C-wide array), REVERSED (each input reversed along both axes), BROADCAST_TO (then a row repeated
 * by a zero stride). */
typedef enum bench_view {
    VIEW_NONE = 0,
    VIEW_DENSE,
    VIEW_PADDED,
    VIEW_TRANSPOSED,
    VIEW_TRANSPOSED_C,
    VIEW_EVERY_OTHER,
    VIEW_REVERSED,
    VIEW_BROADCAST_TO,
    VIEWS
} bench_view;

typedef struct bench_case {
    const char *name;
    const char *what; /* one line for the table */
    clsel_dtype dtype;
    clsel_broadcast broadcast;
    int64_t axis;
    clsel_cond_broadcast cond_broadcast;
    cond_pattern pattern;
    clsel_shape full[3]; /* cond, then, else */
    clsel_shape quick[3];
    bench_view view; /* VIEW_NONE but for the view cases */
} bench_case;

/* The named cases, and the views of --views (R x C f32: 4096 x 4096, 256 x 384 with --quick). */
extern const bench_case bench_cases[];
extern const size_t bench_case_count;
extern const bench_case bench_view_cases[];
extern const size_t bench_view_case_count;

/* The strides of a view over R x C tensors (dims outermost first), as clsel_plan_create_strided
 * takes them; the name
 * ("padded rows", ...) for the report. */
void bench_view_strides(bench_view view, int64_t rows, int64_t cols, clsel_strides *strides);
const char *bench_view_name(bench_view view);

/* Names for the JSON report: "random50", "random10", "all_true", "all_false"; "numpy",
 * "none", "pdpd"; "one_way", "bidirectional". */
const char *bench_pattern_name(cond_pattern p);
const char *bench_broadcast_name(clsel_broadcast b);
const char *bench_cond_broadcast_name(clsel_cond_broadcast b);

/* The plan's attributes for a case. */
clsel_attrs bench_attrs(const bench_case *c);

/* Bytes a run moves, STREAM convention: every input read once at its own size, the
 * output written once; with a scalar cond, only the input it chooses is read. */
uint64_t bench_bytes(const clsel_plan *plan, const uint8_t *cond);

/* Fills host inputs of these many bytes (cond, then, else; a view's extents): cond by the case's
 * pattern, then/else with a deterministic pattern. */
void bench_fill(const bench_case *c, const size_t bytes[3], uint8_t *cond, void *then_data,
                void *else_data);

#endif
