/* bench_first_call.h - clsel bench --first-call (bench_first_call.c): the first select
 * of a process on the OpenCL device, in parts (ms). */
#ifndef CLSEL_TOOLS_BENCH_FIRST_CALL_H
#define CLSEL_TOOLS_BENCH_FIRST_CALL_H

#include <stdint.h>

typedef struct bench_first_call_report {
    char device[256];
    int64_t elements;                   /* of the f32 runs */
    double platform_ms;                 /* clGetPlatformIDs: the OpenCL platform's own start */
    double create_ms;                   /* clsel_runtime_create(CLSEL_DEVICE_OPENCL) after it */
    double first_run_ms, second_run_ms; /* clsel_runtime_run: the first builds f32's program */
} bench_first_call_report;

/* 0 on success; on failure a message on stderr and nonzero. */
int bench_first_call(bench_first_call_report *report);

#endif
