/* bench_harness.h - what every part of clsel bench shares: the run's options, one
 * case's result and one path's report, and the measurement itself (the one timing loop,
 * bench_time, through which every figure is taken; medians, a case's figures against
 * the copy timed beside it, the traffic model's ceiling, the progress line). The harness calls
 * nothing else of the benchmark: the paths (bench_cl.c, bench_cpu.c), the sweep, the thresholds and
 * the first call use it, and tools/cmd_bench.c drives them. */
#ifndef CLSEL_TOOLS_BENCH_HARNESS_H
#define CLSEL_TOOLS_BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "bench_cases.h"

typedef struct bench_options {
    int quick;
    int repeat;        /* timed runs per case (>= 20 by default) */
    int threads;       /* CPU path threads (1 = the library's default) */
    int thresholds;    /* also measure the size thresholds (--thresholds) */
    const char **only; /* case names to run (NULL: all) */
    size_t only_count;
    int sweep;     /* random broadcast patterns to draw and time (--sweep N) */
    uint64_t seed; /* the sweep's seed (--seed S) */
    int draw;      /* which distribution the sweep draws from (--draw, bench_sweep.h) */
    int views;     /* the view cases instead of the named ones (--views) */
} bench_options;

/* The case table a run of named cases goes through: bench_cases, or bench_view_cases with
 * --views. */
const bench_case *bench_case_table(const bench_options *options, size_t *count);

typedef struct bench_result {
    const bench_case *c;
    const clsel_shape *shapes; /* cond, then, else at the size that ran */
    int64_t elements;
    uint64_t bytes;
    double median_ms, min_ms, gbps, pct_of_copy, first_call_ms;
    /* OpenCL only (0 elsewhere): the same runs timed by the device's own clock (event
     * profiling: from the start of the first kernel to the end of the last), against
     * the copy timed the same way, so that launch and clFinish latency, a large share
     * of a run that takes tens of microseconds on a GPU, are left out. */
    double event_ms, event_pct_of_copy;
    /* OpenCL only: the share of the bytes the kernels move that go through single 16-byte
     * accesses (clsel_cl_plan_access's model, fresh buffers); -1 where not computed. */
    double wide_share;
    double copy_gbps;     /* the best copy method (its buffers), timed between this case's runs */
    uint64_t write_bytes; /* of `bytes`, those written (the output) */
    /* What the traffic model allows (bench_ceiling): the bandwidth a run that reads
     * bytes - write_bytes and writes write_bytes can reach, given what reading alone
     * and writing alone cost on this path, and that as a % of the copy. */
    double model_gbps, ceiling_pct;
    char error[256]; /* non-empty when the case could not run */
} bench_result;

/* Results one report holds: the named cases, or a sweep's patterns (--sweep N caps N). */
enum {
    BENCH_MAX_RESULTS = 1000
};

typedef struct bench_report {
    char device[256];
    const char *kind; /* "opencl" or "cpu" */
    int threads;      /* CPU path threads (cpu only) */
    int quick;
    double copy_gbps;             /* the best copy method's bandwidth at the start of the run */
    double read_gbps, write_gbps; /* reading alone and writing alone, at the start of the run */
    char copy_method[160];        /* which copy was best, and each copy's figure */
    double build_first_ms, build_again_ms; /* OpenCL program build, first and second */
    double enqueue_us;                     /* median host cost of one clsel_cl_enqueue */
    double plan_us;                        /* median cost of one clsel_plan_create (cpu reports) */
    bench_result results[BENCH_MAX_RESULTS];
    size_t count;
} bench_report;

/* Whether a case is selected (--case), wall-clock milliseconds, the median of samples
 * (sorts them), and the result line's figures from the case's samples and the copy
 * samples taken between them (medians of both: memory bandwidth on a shared machine
 * drifts, so the copy is measured alongside each case, not once). */
int bench_selected(const bench_options *options, const bench_case *c);
/* Whether a case's runs alternate with the copy's: only for cases that move at least
 * the last-level cache's size (32 MiB here), which leave nothing cached for the next
 * run anyway. Smaller cases run back to back, cache-warm as a framework would run them
 * (and as the peers are timed), and the copy after them. */
int bench_interleaved(uint64_t bytes);
double bench_now_ms(void);
double bench_median(double *samples, int count);

/* One run of what the benchmark times (a select, a copy, a pass, a call): 0 when it went
 * through, else its failure (a clsel_status or -1). Sets *device_ms to the device's own
 * time of the run where it has one, and leaves it alone elsewhere. */
typedef int (*bench_run_fn)(void *state, double *device_ms);

/* The benchmark's one timing loop: `warmups` runs of `run` (the first one's wall-clock time
 * in *first_ms when given), then `count` timed ones into wall[k] (their device times into
 * device[k] when given). With a `copy`, one copy run follows each (interleave) or all of
 * them come after, into copy_wall (and copy_device): the copy is timed beside the case,
 * as bandwidth drifts on a shared machine. Returns 0, or the first failure. */
typedef struct bench_loop {
    bench_run_fn run, copy;
    void *state, *copy_state;
    int warmups, count, interleave;
    double *first_ms, *wall, *device, *copy_wall, *copy_device;
} bench_loop;
int bench_time(const bench_loop *loop);
/* The median wall-clock time of `count` runs after two warm-ups; -1 if a run fails. */
double bench_median_ms(bench_run_fn run, void *state, int count);
void bench_finish(bench_result *r, double *samples, double *copy_samples, int count,
                  uint64_t copy_bytes);
/* The event-timed figures (event_ms, event_pct_of_copy) from per-run device times. */
void bench_finish_events(bench_result *r, double *samples, double *copy_samples, int count,
                         uint64_t copy_bytes);
/* The traffic model, a roofline of three ceilings: a run takes at least its bytes at
 * the copy's rate (measured beside it), its reads at the rate of reading alone, and
 * its writes at the rate of writing alone. r->model_gbps is the bandwidth that allows,
 * r->ceiling_pct that as a % of the copy. Where writing alone is slower than a copy (on
 * the CI box a streamed fill moves 21 GB/s against memcpy's 26, which reads and writes
 * at once), an output-heavy run cannot reach 100 % of the copy however it is written. */
void bench_ceiling(bench_result *r, double read_gbps, double write_gbps);
/* One line on stderr per case as it finishes. */
void bench_progress(const bench_report *report, const bench_result *r);

#endif
