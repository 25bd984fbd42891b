/* bench.h - clsel bench: the measurement loops (bench_cl.c for an OpenCL device,
 * bench_cpu.c for the CPU path) and what they report. */
#ifndef CLSEL_TOOLS_BENCH_H
#define CLSEL_TOOLS_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "bench_cases.h"

typedef struct bench_options {
    int quick;
    int repeat;             /* timed runs per case (>= 20 by default) */
    int threads;            /* CPU path threads (1 = the library's default) */
    int thresholds;         /* also measure the size thresholds (--thresholds) */
    const char **only;      /* case names to run (NULL: all) */
    size_t only_count;
    int sweep;              /* random broadcast patterns to draw and time (--sweep N) */
    uint64_t seed;          /* the sweep's seed (--seed S) */
    int draw;               /* which distribution the sweep draws from (--draw) */
} bench_options;

/* The sweep's distributions (--draw): "broad" as the sweep first drew (ranks 1-8, dims
 * of any length), "short" (short inner dims with inputs repeated or tiled over them),
 * and "mixed", the default: every third pattern short, the rest broad, so that pattern
 * k of a seed is the broad one it always was unless k % 3 == 2. */
enum { SWEEP_DRAW_MIXED, SWEEP_DRAW_BROAD, SWEEP_DRAW_SHORT, SWEEP_DRAWS };
extern const char *const bench_sweep_draw_names[SWEEP_DRAWS];

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
    double copy_gbps; /* the best copy method (its buffers), timed between this case's runs */
    uint64_t write_bytes; /* of `bytes`, those written (the output) */
    /* What the traffic model allows (bench_ceiling): the bandwidth a run that reads
     * bytes - write_bytes and writes write_bytes can reach, given what reading alone
     * and writing alone cost on this path, and that as a % of the copy. */
    double model_gbps, ceiling_pct;
    char error[256]; /* non-empty when the case could not run */
} bench_result;

/* Results one report holds: the named cases, or a sweep's patterns (--sweep N caps N). */
enum { BENCH_MAX_RESULTS = 1000 };

typedef struct bench_report {
    char device[256];
    const char *kind; /* "opencl" or "cpu" */
    int threads;      /* CPU path threads (cpu only) */
    int quick;
    double copy_gbps;      /* the best copy method's bandwidth at the start of the run */
    double read_gbps, write_gbps; /* reading alone and writing alone, at the start of the run */
    char copy_method[160]; /* which copy was best, and each copy's figure */
    double build_first_ms, build_again_ms; /* OpenCL program build, first and second */
    double enqueue_us;                     /* median host cost of one clsel_cl_enqueue */
    double plan_us;                        /* median cost of one clsel_plan_create (cpu reports) */
    bench_result results[BENCH_MAX_RESULTS];
    size_t count;
} bench_report;

/* clsel bench --thresholds (bench_thresholds.c): by size, the CPU path on one thread and
 * on `threads`, and the runtime's OpenCL round trip (ms, medians; runtime_ms < 0 when
 * there is no OpenCL device). */
enum { BENCH_THRESHOLD_SIZES = 16 };
typedef struct threshold_row {
    int64_t elements;
    uint64_t bytes;
    double cpu_ms, threads_ms, runtime_ms;
    double auto_ms; /* clsel_runtime_run with CLSEL_DEVICE_AUTO and every default */
} threshold_row;

typedef struct bench_thresholds_report {
    int threads;
    char runtime_device[256];
    char auto_device[256]; /* where AUTO runs: a device name, or "CPU path" */
    /* One run past the device's allocation limit (the runtime's chunked path), full
     * sizes only: elements (0 when not measured), the limit, and both paths' times. */
    int64_t chunked_elements;
    uint64_t chunked_bytes, max_alloc;
    double chunked_ms, chunked_cpu_ms;
    char chunked_note[160];
    threshold_row rows[BENCH_THRESHOLD_SIZES];
    size_t count;
} bench_thresholds_report;

/* clsel bench --first-call (bench_first_call.c): the first select of a process on the
 * OpenCL device, in parts (ms). */
typedef struct bench_first_call_report {
    char device[256];
    int64_t elements;   /* of the f32 runs */
    double platform_ms; /* clGetPlatformIDs: the OpenCL platform's own start */
    double create_ms;   /* clsel_runtime_create(CLSEL_DEVICE_OPENCL) after it */
    double first_run_ms, second_run_ms; /* clsel_runtime_run: the first builds f32's program */
} bench_first_call_report;

/* 0 on success; on failure a message on stderr and nonzero. */
int bench_run_opencl(const bench_options *options, bench_report *report);
int bench_run_cpu(const bench_options *options, bench_report *report);
int bench_thresholds(const bench_options *options, bench_thresholds_report *report);
int bench_first_call(bench_first_call_report *report);

/* Shared by both: whether a case is selected, wall-clock milliseconds, the median of
 * samples (sorts them), and the result line's figures from the case's samples and the
 * copy samples taken between them (medians of both: memory bandwidth on a shared
 * machine drifts, so the copy is measured alongside each case, not once). */
int bench_selected(const bench_options *options, const bench_case *c);
/* Whether a case's runs alternate with the copy's: only for cases that move at least
 * the last-level cache's size (32 MiB here), which leave nothing cached for the next
 * run anyway. Smaller cases run back to back, cache-warm as a framework would run them
 * (and as the peers are timed), and the copy after them. */
int bench_interleaved(uint64_t bytes);
double bench_now_ms(void);
double bench_median(double *samples, int count);
void bench_finish(bench_result *r, double *samples, double *copy_samples, int count, uint64_t copy_bytes);
/* The event-timed figures (event_ms, event_pct_of_copy) from per-run device times. */
void bench_finish_events(bench_result *r, double *samples, double *copy_samples, int count, uint64_t copy_bytes);
void bench_progress(const bench_report *report, const bench_result *r);
/* The traffic model, a roofline of three ceilings: a run takes at least its bytes at
 * the copy's rate (measured beside it), its reads at the rate of reading alone, and
 * its writes at the rate of writing alone. r->model_gbps is the bandwidth that allows,
 * r->ceiling_pct that as a % of the copy. Where writing alone is slower than a copy (on
 * the CI box a streamed fill moves 21 GB/s against memcpy's 26, which reads and writes
 * at once), an output-heavy run cannot reach 100 % of the copy however it is written. */
void bench_ceiling(bench_result *r, double read_gbps, double write_gbps);

/* A case's host inputs at its plan's sizes (each with a spare byte, so none is empty). */
typedef struct bench_inputs {
    uint8_t *cond;
    void *then_data, *else_data;
    size_t bytes[3]; /* cond, then, else */
} bench_inputs;

/* Starts r for case c, makes the case's plan at the run's sizes and its inputs
 * (bench_fill), and sets r->elements and r->bytes. NULL, with the reason in r->error
 * (the library's message, or out of memory), when there is nothing to time. Either way
 * bench_case_release(plan, in) frees what was made. */
clsel_plan *bench_case_prepare(const bench_options *o, const bench_case *c, bench_inputs *in, bench_result *r);
void bench_case_release(clsel_plan *plan, bench_inputs *in);

/* A same-shape f32 select of n elements on host memory: its plan, a random cond,
 * constant inputs and an output (bench --thresholds and --first-call). Make returns
 * nonzero when out of memory; free it either way. */
typedef struct bench_host_case {
    clsel_plan *plan;
    uint8_t *cond;
    float *then_data, *else_data, *out;
} bench_host_case;
int bench_host_case_make(bench_host_case *h, int64_t n);
void bench_host_case_free(bench_host_case *h);

/* One timing context per path, opened once per run: the OpenCL device --device auto
 * would pick (bench_cl.c) or the CPU path on `threads` threads (bench_cpu.c). Opening
 * fills the report's device and copy-baseline fields (NULL, with a message on stderr,
 * when the path is not there). bench_*_time times a plan on prepared inputs into r
 * (r->c, shapes, elements and bytes already set), the copy re-timed between its runs. */
typedef struct bench_cl_env bench_cl_env;
bench_cl_env *bench_cl_open(const bench_options *o, bench_report *report);
void bench_cl_time(bench_cl_env *env, const bench_options *o, const clsel_plan *plan, const bench_inputs *in,
                   bench_result *r);
void bench_cl_close(bench_cl_env *env);

typedef struct bench_cpu_env bench_cpu_env;
bench_cpu_env *bench_cpu_open(const bench_options *o, int threads, bench_report *report);
void bench_cpu_time(bench_cpu_env *env, const bench_options *o, const clsel_plan *plan, const bench_inputs *in,
                    bench_result *r);
void bench_cpu_close(bench_cpu_env *env);

/* clsel bench --sweep N (bench_sweep.c). bench_sweep_case draws pattern `index` of the
 * sweep with this seed (the same pattern for the same pair, whatever N is). bench_sweep
 * times N patterns on the OpenCL device, the CPU path on one thread and on every core
 * (as asked), one report per path into reports[0..*count). */
const bench_case *bench_sweep_case(uint64_t seed, int index, int quick, int draw);
int bench_sweep(const bench_options *o, int with_opencl, int with_cpu, bench_report *reports, size_t *count);

/* A path's distribution over the sweep, in % of copy and in % of the traffic model's
 * ceiling, both capped at 100. */
typedef struct bench_sweep_stats {
    size_t count; /* patterns that ran */
    double min, p10, median;
    double ceiling_min, ceiling_p10, ceiling_median;
    /* OpenCL: the same distribution with both sides timed by events (0 elsewhere) */
    double event_min, event_p10, event_median;
    size_t below_85, below_70;
} bench_sweep_stats;
void bench_sweep_summarize(const bench_report *report, bench_sweep_stats *stats);
void bench_sweep_print(const bench_report *reports, size_t count);

#endif
