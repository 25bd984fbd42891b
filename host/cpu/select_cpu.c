/* select_cpu.c - the CPU path's entry points: checks the caller's buffers, makes the
 * walk (cpu_walk.c) and runs it on the calling thread or shares it out (cpu_parallel.c);
 * and the processor count that the runtime's CPU threads default to. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/options.h"
#include "common/tuning_constants.h"
#include "cpu/cpu_parallel.h"
#include "cpu/cpu_walk.h"
#include "cpu/select_cpu.h"
#include "plan/plan.h"

clsel_status clsel_priv_cpu_check_buffers(const clsel_plan *plan, const void *cond, const void *then_data,
                               const void *else_data, const void *out)
{
    static const char *const names[3] = {"cond", "then", "else"};
    const void *const in[3] = {cond, then_data, else_data};
    for (int op = 0; op < 3; ++op)
        if (!in[op] && plan->in_count[op] > 0)
            return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "%s is NULL but has %lld elements",
                              names[op], (long long)plan->in_count[op]);
    if (!out && plan->out_count > 0)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "out is NULL but has %lld elements",
                          (long long)plan->out_count);
    /* One address space: every host span has the same root. */
    static const char host_memory = 0;
    const plan_span spans[PLAN_OPERANDS] = {{&host_memory, (uintptr_t)cond}, {&host_memory, (uintptr_t)then_data},
                                            {&host_memory, (uintptr_t)else_data}, {&host_memory, (uintptr_t)out}};
    return clsel_priv_plan_check_overlap(plan, spans, 1);
}

clsel_status clsel_plan_run_cpu_options(const clsel_plan *plan, const void *cond, const void *then_data,
                                        const void *else_data, void *out, const clsel_cpu_options *options)
{
    if (!plan) return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_plan_run_cpu: plan is NULL");
    static const options_type options_struct = {"clsel_cpu_options", "clsel_cpu_options_default",
                                                sizeof(clsel_cpu_options), sizeof(clsel_cpu_options)};
    clsel_cpu_options given = clsel_cpu_options_default();
    clsel_status st = clsel_priv_options_read(&options_struct, options, &given);
    if (st == CLSEL_SUCCESS && given.threads < 0)
        st = clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cpu_options.threads is %d (must be >= 0)",
                             (int)given.threads);
    if (st == CLSEL_SUCCESS) st = clsel_priv_cpu_check_buffers(plan, cond, then_data, else_data, out);
    if (st != CLSEL_SUCCESS || plan->out_count == 0) return st;
    cpu_walk walk;
    clsel_priv_cpu_walk_make(plan, cond, then_data, else_data, out, &walk);
    clsel_priv_cpu_run_parallel(&walk, &given);
    return CLSEL_SUCCESS;
}

clsel_status clsel_plan_run_cpu(const clsel_plan *plan, const void *cond, const void *then_data,
                                const void *else_data, void *out)
{
    return clsel_plan_run_cpu_options(plan, cond, then_data, else_data, out, NULL);
}

clsel_status clsel_select_cpu(clsel_dtype dtype, const clsel_shape *cond_shape, const void *cond,
                              const clsel_shape *then_shape, const void *then_data,
                              const clsel_shape *else_shape, const void *else_data,
                              const clsel_attrs *attrs, void *out)
{
    clsel_plan *plan = NULL;
    clsel_status st = clsel_plan_create(dtype, cond_shape, then_shape, else_shape, attrs, &plan);
    if (st == CLSEL_SUCCESS) st = clsel_plan_run_cpu(plan, cond, then_data, else_data, out);
    clsel_plan_destroy(plan);
    return st;
}

/* sysconf reads /sys on Linux (tens of microseconds, more than a small run): asked
 * once per process. */
static int32_t cores;
static pthread_once_t cores_once = PTHREAD_ONCE_INIT;

static void count_cores(void)
{
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    cores = online < 1 ? 1 : online > CPU_MAX_THREADS ? CPU_MAX_THREADS : (int32_t)online;
}

int32_t clsel_priv_cpu_cores(void)
{
    pthread_once(&cores_once, count_cores);
    return cores;
}
