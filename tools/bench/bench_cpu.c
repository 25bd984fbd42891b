/* bench_cpu.c - the CPU path's figures, against memcpy on the same machine
 * (bench_copy_cpu.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_copy_cpu.h"
#include "bench_cpu.h"

struct bench_cpu_env {
    bench_cpu_copy copy;
    int threads;
    double read_gbps, write_gbps;
};

/* One select on the CPU path, as a timed run. */
typedef struct cpu_select {
    const clsel_plan *plan;
    const bench_inputs *in;
    void *out;
    clsel_cpu_options options;
} cpu_select;

static int run_select(void *state, double *device_ms)
{
    const cpu_select *s = state;
    (void)device_ms;
    const bench_inputs *in = s->in;
    return clsel_plan_run_cpu_options(
        s->plan, in->cond + in->zero[0], (const char *)in->then_data + in->zero[1],
        (const char *)in->else_data + in->zero[2], (char *)s->out + in->zero[3], &s->options);
}

void bench_cpu_time(bench_cpu_env *env, const bench_options *o, const clsel_plan *plan,
                    const bench_inputs *in, bench_result *r)
{
    cpu_select select = {plan, in, malloc(in->bytes[3] + 1), clsel_cpu_options_default()};
    select.options.threads = env->threads;
    double *samples = calloc((size_t)o->repeat, sizeof *samples);
    double *copy_samples = calloc((size_t)o->repeat, sizeof *copy_samples);
    if (!select.out || !samples || !copy_samples) {
        snprintf(r->error, sizeof r->error, "out of memory");
    } else {
        const bench_loop loop = {.run = run_select,
                                 .state = &select,
                                 .copy = bench_cpu_copy_run,
                                 .copy_state = &env->copy,
                                 .warmups = 3,
                                 .count = o->repeat,
                                 .interleave = bench_interleaved(r->bytes),
                                 .first_ms = &r->first_call_ms,
                                 .wall = samples,
                                 .copy_wall = copy_samples};
        const int st = bench_time(&loop);
        if (st != CLSEL_SUCCESS)
            snprintf(r->error, sizeof r->error, "%s",
                     st == CLSEL_ERROR_OUT_OF_MEMORY ? "out of memory" : clsel_last_error());
        else
            bench_finish(r, samples, copy_samples, o->repeat, env->copy.bytes);
        bench_ceiling(r, env->read_gbps, env->write_gbps);
    }
    free(select.out);
    free(samples);
    free(copy_samples);
}

static void run_case(const bench_options *o, bench_cpu_env *env, const bench_case *c,
                     bench_result *r)
{
    bench_inputs in;
    clsel_plan *plan = bench_case_prepare(o, c, &in, r);
    if (plan)
        bench_cpu_time(env, o, plan, &in, r);
    bench_case_release(plan, &in);
}

void bench_cpu_close(bench_cpu_env *env)
{
    if (!env)
        return;
    bench_cpu_copy_close(&env->copy);
    free(env);
}

bench_cpu_env *bench_cpu_open(const bench_options *o, int threads, bench_report *report)
{
    memset(report, 0, sizeof *report);
    report->kind = "cpu";
    report->quick = o->quick;
    report->threads = threads;
    snprintf(report->device, sizeof report->device, "cpu (clsel C path, %d thread%s)", threads,
             threads == 1 ? "" : "s");
    bench_cpu_env *env = calloc(1, sizeof *env);
    if (!env)
        return NULL;
    env->threads = threads;
    if (bench_cpu_copy_open(&env->copy, o->quick ? (size_t)16 << 20 : (size_t)256 << 20, threads) !=
        0) {
        fprintf(stderr, "clsel bench: out of memory for the memcpy baseline\n");
        bench_cpu_close(env);
        return NULL;
    }
    bench_cpu_copy_measure(&env->copy, o->repeat, &report->copy_gbps, &report->write_gbps,
                           &report->read_gbps);
    snprintf(report->copy_method, sizeof report->copy_method, "memcpy %.1f GB/s (%d thread%s)",
             report->copy_gbps, threads, threads == 1 ? "" : "s");
    env->read_gbps = report->read_gbps;
    env->write_gbps = report->write_gbps;
    fprintf(stderr, "bench cpu: %s; writing alone %.1f GB/s, reading alone %.1f GB/s\n",
            report->copy_method, report->write_gbps, report->read_gbps);
    return env;
}

/* One clsel_plan_create and its destroy: the rank-8 pattern of the named case rank8, which
 * collapses nothing and so takes the longest. */
static int run_plan_create(void *state, double *device_ms)
{
    static const clsel_shape shapes[3] = {{8, {10, 1, 10, 1, 10, 1, 10, 1}},
                                          {8, {1, 6, 1, 6, 1, 6, 1, 6}},
                                          {8, {10, 6, 10, 6, 10, 6, 10, 6}}};
    clsel_plan *plan = NULL;
    (void)state, (void)device_ms;
    const clsel_status st =
        clsel_plan_create(CLSEL_F32, &shapes[0], &shapes[1], &shapes[2], NULL, &plan);
    clsel_plan_destroy(plan);
    return st;
}

int bench_run_cpu(const bench_options *o, bench_report *report)
{
    bench_cpu_env *env = bench_cpu_open(o, o->threads, report);
    if (!env)
        return -1;
    const double plan_ms = bench_median_ms(run_plan_create, NULL, 2000);
    report->plan_us = plan_ms < 0 ? -1 : plan_ms * 1e3;
    fprintf(stderr, "bench cpu: clsel_plan_create host cost %.2f us (median, rank 8)\n",
            report->plan_us);
    size_t count;
    const bench_case *cases = bench_case_table(o, &count);
    for (size_t i = 0;
         i < count && report->count < sizeof report->results / sizeof report->results[0]; ++i) {
        if (!bench_selected(o, &cases[i]))
            continue;
        bench_result *r = &report->results[report->count++];
        run_case(o, env, &cases[i], r);
        bench_progress(report, r);
    }
    bench_cpu_close(env);
    return 0;
}
