/* select_cpu.h - what the layers above the CPU path (the runtime) call besides the
 * public entry points, all in select_cpu.c. The path's own pieces have headers of their
 * own: the walk (cpu_walk.h), the gather (cpu_gather.h), the row loops (cpu_rows.h,
 * select_cpu_avx2.h) and the split over threads (cpu_parallel.h). */
#ifndef CLSEL_HOST_SELECT_CPU_H
#define CLSEL_HOST_SELECT_CPU_H

#include <stdint.h>

#include "clsel.h"

/* The NULL-pointer and aliasing rules for host tensors (clsel_plan_run_cpu). */
clsel_status clsel_priv_cpu_check_buffers(const clsel_plan *plan, const void *cond, const void *then_data,
                                          const void *else_data, const void *out);

/* The processors online (at least 1, at most CPU_MAX_THREADS, the threads one run may
 * start). */
int32_t clsel_priv_cpu_cores(void);

#endif
