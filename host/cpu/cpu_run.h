/* cpu_run.h - the CPU path as the layers above call it (cpu_run.c): the public entry points'
 * checks, and a run of an iteration space over tensors already checked, on the calling thread or in
 * boxes over threads or the caller's pool. */
#ifndef CLSEL_HOST_CPU_RUN_H
#define CLSEL_HOST_CPU_RUN_H

#include "cpu/cpu_walk.h"
#include "plan/plan.h"

/* The NULL-pointer and aliasing rules for host tensors (clsel_plan_run_cpu). */
clsel_status clsel_priv_cpu_check_buffers(const clsel_plan *plan, const void *cond,
                                          const void *then_data, const void *else_data,
                                          const void *out);
/* A plan's tensors at these host addresses (each input readable to its end). */
cpu_tensors clsel_priv_cpu_tensors(const clsel_plan *plan, const void *cond, const void *then_data,
                                   const void *else_data, void *out);
/* Runs space `it` (w-byte elements) over `t`, unchecked, on the threads or pool of `options` (NULL:
 * this thread). */
void clsel_priv_cpu_run(const plan_iter *it, size_t w, const cpu_tensors *t,
                        const clsel_cpu_options *options);
/* The processors online (at least 1, at most CPU_MAX_THREADS, the threads one run may start). */
int32_t clsel_priv_cpu_cores(void);

#endif
