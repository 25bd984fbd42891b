/* bench_harness.c - see bench_harness.h. */
#include "bench_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int bench_selected(const bench_options *o, const bench_case *c)
{
    if (!o->only_count)
        return 1;
    for (size_t i = 0; i < o->only_count; ++i)
        if (strcmp(o->only[i], c->name) == 0)
            return 1;
    return 0;
}

const bench_case *bench_case_table(const bench_options *o, size_t *count)
{
    *count = o->views ? bench_view_case_count : bench_case_count;
    return o->views ? bench_view_cases : bench_cases;
}

int bench_interleaved(uint64_t bytes)
{
    return bytes >= ((uint64_t)32 << 20);
}

double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_median(double *samples, int count)
{
    qsort(samples, (size_t)count, sizeof *samples, compare_double);
    return count % 2 ? samples[count / 2] : 0.5 * (samples[count / 2 - 1] + samples[count / 2]);
}

/* One run, its wall-clock time in *wall when given. */
static int timed_run(bench_run_fn run, void *state, double *wall, double *device)
{
    double unused = -1;
    const double t0 = bench_now_ms();
    const int failed = run(state, device ? device : &unused);
    if (wall)
        *wall = bench_now_ms() - t0;
    return failed;
}

int bench_time(const bench_loop *l)
{
    int failed = 0;
    for (int k = 0; k < l->warmups && !failed; ++k)
        failed = timed_run(l->run, l->state, k ? NULL : l->first_ms, NULL);
    for (int k = 0; k < l->count && !failed; ++k) {
        failed = timed_run(l->run, l->state, &l->wall[k], l->device ? &l->device[k] : NULL);
        if (!failed && l->copy && l->interleave)
            failed = timed_run(l->copy, l->copy_state, &l->copy_wall[k],
                               l->copy_device ? &l->copy_device[k] : NULL);
    }
    for (int k = 0; k < l->count && !failed && l->copy && !l->interleave; ++k)
        failed = timed_run(l->copy, l->copy_state, &l->copy_wall[k],
                           l->copy_device ? &l->copy_device[k] : NULL);
    return failed;
}

double bench_median_ms(bench_run_fn run, void *state, int count)
{
    double *samples = malloc((size_t)(count > 0 ? count : 1) * sizeof *samples);
    const bench_loop loop = {
        .run = run, .state = state, .warmups = 2, .count = count, .wall = samples};
    const double ms =
        samples && count > 0 && bench_time(&loop) == 0 ? bench_median(samples, count) : -1;
    free(samples);
    return ms;
}

void bench_finish(bench_result *r, double *samples, double *copy_samples, int count,
                  uint64_t copy_bytes)
{
    r->median_ms = bench_median(samples, count);
    r->min_ms = samples[0];
    r->gbps = (double)r->bytes / (r->median_ms * 1e6);
    r->copy_gbps = 2.0 * (double)copy_bytes / (bench_median(copy_samples, count) * 1e6);
    r->pct_of_copy = r->copy_gbps > 0 ? 100.0 * r->gbps / r->copy_gbps : 0;
}

void bench_finish_events(bench_result *r, double *samples, double *copy_samples, int count,
                         uint64_t copy_bytes)
{
    r->event_ms = bench_median(samples, count);
    const double copy_ms = bench_median(copy_samples, count);
    if (r->event_ms > 0 && copy_ms > 0)
        r->event_pct_of_copy =
            100.0 * ((double)r->bytes / r->event_ms) / (2.0 * (double)copy_bytes / copy_ms);
}

void bench_ceiling(bench_result *r, double read_gbps, double write_gbps)
{
    r->model_gbps = r->ceiling_pct = 0;
    if (read_gbps <= 0 || write_gbps <= 0 || r->copy_gbps <= 0 || r->bytes == 0)
        return;
    const double written = (double)r->write_bytes, read = (double)r->bytes - written;
    double t = (double)r->bytes / r->copy_gbps; /* all of it at the copy's rate ... */
    if (read / read_gbps > t)
        t = read / read_gbps; /* ... or the reads alone ... */
    if (written / write_gbps > t)
        t = written / write_gbps; /* ... or the writes alone */
    r->model_gbps = (double)r->bytes / t;
    r->ceiling_pct = 100.0 * r->model_gbps / r->copy_gbps;
}

void bench_progress(const bench_report *report, const bench_result *r)
{
    if (*r->error)
        fprintf(stderr, "bench %s: %-22s failed: %s\n", report->kind, r->c->name, r->error);
    else
        fprintf(stderr, "bench %s: %-22s %10lld el %9.3f ms %7.2f GB/s %5.1f%% of copy\n",
                report->kind, r->c->name, (long long)r->elements, r->median_ms, r->gbps,
                r->pct_of_copy);
}
