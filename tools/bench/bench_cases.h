/* bench_cases.h - the benchmark's named cases: shapes at DRAM size (>= 4x the
 * last-level cache) and at a quick size, dtype, attributes and cond pattern. */
#ifndef CLSEL_TOOLS_BENCH_CASES_H
#define CLSEL_TOOLS_BENCH_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "clsel.h"

typedef enum cond_pattern { COND_RANDOM50 = 0, COND_RANDOM10, COND_ALL_TRUE, COND_ALL_FALSE } cond_pattern;

typedef struct bench_case {
    const char *name;
    const char *what; /* one line for the table */
    clsel_dtype dtype;
    clsel_broadcast broadcast;
    int64_t axis;
    clsel_cond_broadcast cond_broadcast;
    cond_pattern pattern;
    clsel_shape full[3];  /* cond, then, else */
    clsel_shape quick[3];
} bench_case;

extern const bench_case bench_cases[];
extern const size_t bench_case_count;

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

/* Fills host inputs for a plan: cond by the case's pattern, then/else with a
 * deterministic pattern. */
void bench_fill(const bench_case *c, const clsel_plan *plan, uint8_t *cond, void *then_data, void *else_data);

#endif
