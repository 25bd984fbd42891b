/* bench_json.h - clsel bench --json: the figures for scripts (bench/report.py,
 * bench/peers.py, bench/gpu_bench.py, tests/system/bench_check.py read them). */
#ifndef CLSEL_TOOLS_BENCH_JSON_H
#define CLSEL_TOOLS_BENCH_JSON_H

#include <stddef.h>

#include "bench_first_call.h"
#include "bench_harness.h"
#include "bench_thresholds.h"

/* What writing a file came to: the file could not be opened, or not be written out. */
typedef enum bench_json_status {
    BENCH_JSON_OK,
    BENCH_JSON_CANNOT_OPEN,
    BENCH_JSON_WRITE_ERROR
} bench_json_status;

/* The reports, as one object or (as_list) a list of them; the thresholds, when given,
 * go into the CPU report (they are about runs on host memory). */
bench_json_status bench_json_write(const char *path, const bench_report *reports, size_t count,
                                   int as_list, const bench_thresholds_report *thresholds,
                                   const bench_options *o);
bench_json_status bench_json_write_first_call(const char *path, const bench_first_call_report *r);

#endif
