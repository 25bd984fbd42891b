/* bench_cl.h - the OpenCL path of clsel bench (bench_cl.c): clsel_cl_enqueue on the
 * device --device auto would pick, against the best copy on that device. */
#ifndef CLSEL_TOOLS_BENCH_CL_H
#define CLSEL_TOOLS_BENCH_CL_H

#include "bench_harness.h"
#include "bench_inputs.h"

/* A timing context, opened once per run: opening fills the report's device and
 * copy-baseline fields (NULL, with a message on stderr, when there is no OpenCL
 * device). bench_cl_time times a plan on prepared inputs into r (r->c, shapes, elements
 * and bytes already set), the copy re-timed between its runs. */
typedef struct bench_cl_env bench_cl_env;
bench_cl_env *bench_cl_open(const bench_options *o, bench_report *report);
void bench_cl_time(bench_cl_env *env, const bench_options *o, const clsel_plan *plan,
                   const bench_inputs *in, bench_result *r);
void bench_cl_close(bench_cl_env *env);

/* The named cases (--case) on the device: 0 on success; on failure a message on stderr
 * and nonzero. */
int bench_run_opencl(const bench_options *options, bench_report *report);

#endif
