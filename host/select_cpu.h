/* select_cpu.h - pieces of the CPU path that the runtime reuses. */
#ifndef CLSEL_HOST_SELECT_CPU_H
#define CLSEL_HOST_SELECT_CPU_H

#include "clsel.h"

/* The NULL-pointer and aliasing rules for host tensors (clsel_plan_run_cpu). */
clsel_status cpu_check_buffers(const clsel_plan *plan, const void *cond, const void *then_data,
                               const void *else_data, const void *out);

#endif
