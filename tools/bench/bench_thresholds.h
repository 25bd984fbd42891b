/* bench_thresholds.h - clsel bench --thresholds (bench_thresholds.c): by size, the CPU
 * path on one thread and on `threads`, and the runtime's OpenCL round trip (ms, medians;
 * runtime_ms < 0 when there is no OpenCL device). */
#ifndef CLSEL_TOOLS_BENCH_THRESHOLDS_H
#define CLSEL_TOOLS_BENCH_THRESHOLDS_H

#include <stddef.h>
#include <stdint.h>

#include "bench_harness.h"

enum {
    BENCH_THRESHOLD_SIZES = 16
};
typedef struct threshold_row {
    int64_t elements;
    uint64_t bytes;
    double cpu_ms, threads_ms, runtime_ms;
    double auto_ms; /* clsel_runtime_run with CLSEL_DEVICE_AUTO and every default */
} threshold_row;

typedef struct bench_thresholds_report {
    int threads;
    char runtime_device[256];
    char auto_device[256]; /* where AUTO runs: a device name, or "CPU path" */
    /* One run past the device's allocation limit (the runtime's chunked path), full
     * sizes only: elements (0 when not measured), the limit, and both paths' times. */
    int64_t chunked_elements;
    uint64_t chunked_bytes, max_alloc;
    double chunked_ms, chunked_cpu_ms;
    char chunked_note[160];
    threshold_row rows[BENCH_THRESHOLD_SIZES];
    size_t count;
} bench_thresholds_report;

/* 0 on success; on failure a message on stderr and nonzero. */
int bench_thresholds(const bench_options *options, bench_thresholds_report *report);

#endif
