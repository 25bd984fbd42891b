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

void bench_cpu_time(bench_cpu_env *env, const bench_options *o, const clsel_plan *plan, const bench_inputs *in,
                    bench_result *r)
{
    void *out = malloc(clsel_plan_output_bytes(plan) + 1);
    double *samples = calloc((size_t)o->repeat, sizeof *samples);
    double *copy_samples = calloc((size_t)o->repeat, sizeof *copy_samples);
    if (!out || !samples || !copy_samples) {
        snprintf(r->error, sizeof r->error, "out of memory");
    } else {
        clsel_cpu_options cpu = clsel_cpu_options_default();
        cpu.threads = env->threads;
        double t0 = bench_now_ms();
        clsel_status st = clsel_plan_run_cpu_options(plan, in->cond, in->then_data, in->else_data, out, &cpu);
        r->first_call_ms = bench_now_ms() - t0;
        for (int k = 0; k < 2 && st == CLSEL_SUCCESS; ++k)
            st = clsel_plan_run_cpu_options(plan, in->cond, in->then_data, in->else_data, out, &cpu);
        const int interleave = bench_interleaved(r->bytes);
        for (int k = 0; k < o->repeat && st == CLSEL_SUCCESS; ++k) {
            double s = bench_now_ms();
            st = clsel_plan_run_cpu_options(plan, in->cond, in->then_data, in->else_data, out, &cpu);
            samples[k] = bench_now_ms() - s;
            if (interleave) copy_samples[k] = bench_cpu_copy_once_ms(&env->copy);
        }
        for (int k = 0; k < o->repeat && !interleave && st == CLSEL_SUCCESS; ++k)
            copy_samples[k] = bench_cpu_copy_once_ms(&env->copy);
        if (st != CLSEL_SUCCESS)
            snprintf(r->error, sizeof r->error, "%s", st == CLSEL_ERROR_OUT_OF_MEMORY ? "out of memory" : clsel_last_error());
        else
            bench_finish(r, samples, copy_samples, o->repeat, env->copy.bytes);
        bench_ceiling(r, env->read_gbps, env->write_gbps);
    }
    free(out);
    free(samples);
    free(copy_samples);
}

static void run_case(const bench_options *o, bench_cpu_env *env, const bench_case *c, bench_result *r)
{
    bench_inputs in;
    clsel_plan *plan = bench_case_prepare(o, c, &in, r);
    if (plan) bench_cpu_time(env, o, plan, &in, r);
    bench_case_release(plan, &in);
}

void bench_cpu_close(bench_cpu_env *env)
{
    if (!env) return;
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
    if (!env) return NULL;
    env->threads = threads;
    if (bench_cpu_copy_open(&env->copy, o->quick ? (size_t)16 << 20 : (size_t)256 << 20, threads) != 0) {
        fprintf(stderr, "clsel bench: out of memory for the memcpy baseline\n");
        bench_cpu_close(env);
        return NULL;
    }
    bench_cpu_copy_measure(&env->copy, o->repeat, &report->copy_gbps, &report->write_gbps, &report->read_gbps);
    snprintf(report->copy_method, sizeof report->copy_method, "memcpy %.1f GB/s (%d thread%s)", report->copy_gbps,
             threads, threads == 1 ? "" : "s");
    env->read_gbps = report->read_gbps;
    env->write_gbps = report->write_gbps;
    fprintf(stderr, "bench cpu: %s; writing alone %.1f GB/s, reading alone %.1f GB/s\n", report->copy_method,
            report->write_gbps, report->read_gbps);
    return env;
}

/* What one clsel_plan_create costs (and its destroy): the rank-8 pattern of the named
 * case rank8, which collapses nothing and so takes the longest. */
static double plan_cost_us(void)
{
    enum { CALLS = 2000 };
    static const clsel_shape shapes[3] = {{8, {10, 1, 10, 1, 10, 1, 10, 1}},
                                          {8, {1, 6, 1, 6, 1, 6, 1, 6}},
                                          {8, {10, 6, 10, 6, 10, 6, 10, 6}}};
    static double samples[CALLS];
    for (int i = 0; i < CALLS; ++i) {
        clsel_plan *plan = NULL;
        const double t0 = bench_now_ms();
        const clsel_status st = clsel_plan_create(CLSEL_F32, &shapes[0], &shapes[1], &shapes[2], NULL, &plan);
        clsel_plan_destroy(plan);
        samples[i] = (bench_now_ms() - t0) * 1e3;
        if (st != CLSEL_SUCCESS) return -1;
    }
    return bench_median(samples, CALLS);
}

int bench_run_cpu(const bench_options *o, bench_report *report)
{
    bench_cpu_env *env = bench_cpu_open(o, o->threads, report);
    if (!env) return -1;
    report->plan_us = plan_cost_us();
    fprintf(stderr, "bench cpu: clsel_plan_create host cost %.2f us (median, rank 8)\n", report->plan_us);
    for (size_t i = 0; i < bench_case_count && report->count < sizeof report->results / sizeof report->results[0]; ++i) {
        if (!bench_selected(o, &bench_cases[i])) continue;
        bench_result *r = &report->results[report->count++];
        run_case(o, env, &bench_cases[i], r);
        bench_progress(report, r);
    }
    bench_cpu_close(env);
    return 0;
}
