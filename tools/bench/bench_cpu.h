/* bench_cpu.h - the CPU path of clsel bench (bench_cpu.c): clsel_plan_run_cpu_options
 * against memcpy on the same machine, on as many threads. */
#ifndef CLSEL_TOOLS_BENCH_CPU_H
#define CLSEL_TOOLS_BENCH_CPU_H

#include "bench_harness.h"
#include "bench_inputs.h"

/* A timing context, opened once per run, for the CPU path on `threads` threads:
 * opening fills the report's device and copy-baseline fields (NULL, with a message on
 * stderr, when out of memory). bench_cpu_time times a plan on prepared inputs into r
 * (r->c, shapes, elements and bytes already set), the copy re-timed between its runs. */
typedef struct bench_cpu_env bench_cpu_env;
bench_cpu_env *bench_cpu_open(const bench_options *o, int threads, bench_report *report);
void bench_cpu_time(bench_cpu_env *env, const bench_options *o, const clsel_plan *plan,
                    const bench_inputs *in, bench_result *r);
void bench_cpu_close(bench_cpu_env *env);

/* The named cases (--case) on the CPU path: 0 on success; on failure a message on
 * stderr and nonzero. */
int bench_run_cpu(const bench_options *options, bench_report *report);

#endif
