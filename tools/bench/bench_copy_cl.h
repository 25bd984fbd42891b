/* bench_copy_cl.h - the OpenCL path's baselines on the device under test: the copies a
 * case is judged against (clEnqueueCopyBuffer, a plain copy kernel, and CLBlast's Xcopy
 * when the tool was built with CLBlast; the fastest at the start is the one re-timed
 * beside each case), and a fill and a read kernel (writing alone and reading alone, the
 * traffic model's other two ceilings). Also the OpenCL timing the select's runs share:
 * wall clock to clFinish, and the device's own clock (event profiling). */
#ifndef CLSEL_TOOLS_BENCH_COPY_CL_H
#define CLSEL_TOOLS_BENCH_COPY_CL_H

#include <stddef.h>

#include "bench_harness.h"
#include "clsel_cl.h"

typedef struct bench_cl_copy bench_cl_copy;
/* A copy method: enqueues one copy of `bytes` from src to dst; *event (when not NULL)
 * receives the event of the command that does it. */
typedef int (*bench_cl_copy_fn)(bench_cl_copy *copy, void *state, cl_mem src, cl_mem dst,
                                size_t bytes, cl_event *event);

struct bench_cl_copy {
    cl_context context; /* the path's, not owned */
    cl_device_id device;
    cl_command_queue queue; /* with profiling enabled */
    cl_program program;     /* copy16, fill16, read16 */
    cl_kernel copy_kernel;
    bench_cl_copy_fn best; /* the fastest copy method at the start, timed again with each case */
    void *best_state;
    cl_mem src, dst; /* its buffers, initialized */
    size_t bytes;
};

/* Makes the buffers and the kernels on the path's queue, times each copy method, the
 * fill and the read (medians of `repeat` runs after two warm-ups), and fills the
 * report's copy_gbps, copy_method (each method's figure), write_gbps and read_gbps.
 * Close it either way. */
void bench_cl_copy_open(bench_cl_copy *copy, cl_context context, cl_device_id device,
                        cl_command_queue queue, size_t bytes, int repeat, bench_report *report);
/* One copy by the best method of `copy` (a bench_cl_copy), to the end of the queue, as a
 * bench_run_fn (its device time in *device_ms). */
int bench_cl_copy_run(void *copy, double *device_ms);
void bench_cl_copy_close(bench_cl_copy *copy);

/* The device time of the work between `before` (a marker enqueued just ahead of it) and
 * `last` (its final command), after clFinish; -1 when the device cannot tell. Releases
 * both events. */
double bench_cl_event_ms(cl_event before, cl_event last);

#endif
