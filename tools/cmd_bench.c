/* cmd_bench.c - clsel bench: how close clsel gets to the device's copy bandwidth on the
 * named cases. A progress line per case on stderr, a table on stdout, and with
 * --json the figures for scripts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cli.h"

static const char help[] =
    "usage: clsel bench [--device cpu|opencl|all] [--quick] [--case NAME]... [--repeat N]\n"
    "                   [--threads N] [--thresholds] [--json FILE]\n"
    "       clsel bench --sweep N [--seed S] [--draw mixed|broad|short] [--case sweep-K]...\n"
    "                   [--device cpu|opencl|all] [--quick]\n"
    "                   [--repeat N] [--threads N] [--json FILE]\n"
    "       clsel bench --first-call [--json FILE]\n\n"
    "Times Select on the benchmark's named cases (DRAM-sized; --quick: small, a few seconds) and\n"
    "reports, per case: elements, bytes moved (STREAM convention: each input read once at\n"
    "its own size, the output written once), median and min time over --repeat runs (default\n"
    "20) after warm-up, GB/s (of the median), % of the best copy on the same device\n"
    "(its median, timed between the case's own runs, as bandwidth on a shared machine\n"
    "drifts; cases that move under 32 MiB run back to back, cache-warm, the copy after them)\n"
    "(OpenCL: clEnqueueCopyBuffer, a copy kernel, CLBlast Xcopy when built with it; CPU:\n"
    "memcpy), and the first call's time. --device all (the default) runs the OpenCL device\n"
    "--device auto would pick and the CPU path. --threads N runs the CPU path, and memcpy,\n"
    "on N threads (default: 1, the library's default). --thresholds also times, by size,\n"
    "the CPU path on one thread and on N (at least 2), and clsel_runtime_run's OpenCL round\n"
    "trip: the measurements behind the library's size thresholds.\n\n"
    "--sweep N times N random broadcast patterns instead of the named cases (numpy with\n"
    "either cond rule, pdpd and none; ranks 1-8; dims 1-64 and longer; every element width;\n"
    "random and constant conds; outputs of 64-128 MiB, 2-4 MiB with --quick) on the OpenCL\n"
    "device, the CPU path on one thread and the CPU path on every core (--threads N: on N),\n"
    "and reports per path the distribution of % of the same-device copy (min, 10th\n"
    "percentile, median) and the worst patterns. --seed S (default 1) picks the patterns:\n"
    "pattern k of a seed is the same whatever N is; --case sweep-K runs only pattern K.\n"
    "--draw short draws only short inner dims (1-40) with inputs repeated or tiled over\n"
    "them, --draw broad only the patterns above, --draw mixed (the default) pattern k\n"
    "short when k % 3 == 2 and broad otherwise. --repeat defaults to 5 for a sweep.\n\n"
    "--first-call times the first select of this process on the OpenCL device, in parts: the\n"
    "platform's own start (clGetPlatformIDs), clsel_runtime_create, the first f32 run (which\n"
    "builds or loads the program it needs) and a second run. Run it in a fresh process, under\n"
    "the kernel-cache state to measure (bench/first_call.sh runs each).\n";

int bench_selected(const bench_options *o, const bench_case *c)
{
    if (!o->only_count) return 1;
    for (size_t i = 0; i < o->only_count; ++i)
        if (strcmp(o->only[i], c->name) == 0) return 1;
    return 0;
}

int bench_interleaved(uint64_t bytes) { return bytes >= ((uint64_t)32 << 20); }

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

void bench_finish(bench_result *r, double *samples, double *copy_samples, int count, uint64_t copy_bytes)
{
    r->median_ms = bench_median(samples, count);
    r->min_ms = samples[0];
    r->gbps = (double)r->bytes / (r->median_ms * 1e6);
    r->copy_gbps = 2.0 * (double)copy_bytes / (bench_median(copy_samples, count) * 1e6);
    r->pct_of_copy = r->copy_gbps > 0 ? 100.0 * r->gbps / r->copy_gbps : 0;
}

void bench_finish_events(bench_result *r, double *samples, double *copy_samples, int count, uint64_t copy_bytes)
{
    r->event_ms = bench_median(samples, count);
    const double copy_ms = bench_median(copy_samples, count);
    if (r->event_ms > 0 && copy_ms > 0)
        r->event_pct_of_copy = 100.0 * ((double)r->bytes / r->event_ms) / (2.0 * (double)copy_bytes / copy_ms);
}

void bench_ceiling(bench_result *r, double read_gbps, double write_gbps)
{
    r->model_gbps = r->ceiling_pct = 0;
    if (read_gbps <= 0 || write_gbps <= 0 || r->copy_gbps <= 0 || r->bytes == 0) return;
    const double written = (double)r->write_bytes, read = (double)r->bytes - written;
    double t = (double)r->bytes / r->copy_gbps; /* all of it at the copy's rate ... */
    if (read / read_gbps > t) t = read / read_gbps; /* ... or the reads alone ... */
    if (written / write_gbps > t) t = written / write_gbps; /* ... or the writes alone */
    r->model_gbps = (double)r->bytes / t;
    r->ceiling_pct = 100.0 * r->model_gbps / r->copy_gbps;
}

static clsel_plan *case_plan(const bench_options *o, const bench_case *c, bench_result *r)
{
    const clsel_shape *shapes = o->quick ? c->quick : c->full;
    clsel_attrs attrs = bench_attrs(c);
    clsel_plan *plan = NULL;
    memset(r, 0, sizeof *r);
    r->c = c;
    r->shapes = shapes;
    if (clsel_plan_create(c->dtype, &shapes[0], &shapes[1], &shapes[2], &attrs, &plan) != CLSEL_SUCCESS)
        snprintf(r->error, sizeof r->error, "%s", clsel_last_error());
    return plan;
}

static void inputs_free(bench_inputs *in)
{
    free(in->cond);
    free(in->then_data);
    free(in->else_data);
    memset(in, 0, sizeof *in);
}

static int inputs_make(const bench_case *c, const clsel_plan *plan, bench_inputs *in, bench_result *r)
{
    const size_t w = clsel_dtype_size(c->dtype);
    in->bytes[0] = (size_t)clsel_plan_input_count(plan, CLSEL_OPERAND_COND);
    in->bytes[1] = (size_t)clsel_plan_input_count(plan, CLSEL_OPERAND_THEN) * w;
    in->bytes[2] = (size_t)clsel_plan_input_count(plan, CLSEL_OPERAND_ELSE) * w;
    in->cond = malloc(in->bytes[0] + 1);
    in->then_data = malloc(in->bytes[1] + 1);
    in->else_data = malloc(in->bytes[2] + 1);
    r->elements = clsel_plan_output_count(plan);
    if (!in->cond || !in->then_data || !in->else_data) {
        inputs_free(in);
        return -1;
    }
    bench_fill(c, plan, in->cond, in->then_data, in->else_data);
    r->bytes = bench_bytes(plan, in->cond);
    r->write_bytes = (uint64_t)clsel_plan_output_bytes(plan);
    return 0;
}

clsel_plan *bench_case_prepare(const bench_options *o, const bench_case *c, bench_inputs *in, bench_result *r)
{
    memset(in, 0, sizeof *in);
    clsel_plan *plan = case_plan(o, c, r);
    if (plan && inputs_make(c, plan, in, r) != 0) {
        snprintf(r->error, sizeof r->error, "out of memory");
        clsel_plan_destroy(plan);
        plan = NULL;
    }
    return plan;
}

int bench_host_case_make(bench_host_case *h, int64_t n)
{
    memset(h, 0, sizeof *h);
    clsel_shape s = {1, {n}};
    if (clsel_plan_create(CLSEL_F32, &s, &s, &s, NULL, &h->plan) != CLSEL_SUCCESS) return -1;
    h->cond = malloc((size_t)n);
    h->then_data = malloc((size_t)n * 4);
    h->else_data = malloc((size_t)n * 4);
    h->out = malloc((size_t)n * 4);
    if (!h->cond || !h->then_data || !h->else_data || !h->out) return -1;
    uint32_t state = 12345;
    for (int64_t i = 0; i < n; ++i) {
        state = state * 1103515245u + 12345u;
        h->cond[i] = (uint8_t)((state >> 16) & 1);
        h->then_data[i] = 1.0f;
        h->else_data[i] = 2.0f;
        h->out[i] = 0.0f;
    }
    return 0;
}

void bench_host_case_free(bench_host_case *h)
{
    clsel_plan_destroy(h->plan);
    free(h->cond);
    free(h->then_data);
    free(h->else_data);
    free(h->out);
}

void bench_case_release(clsel_plan *plan, bench_inputs *in)
{
    inputs_free(in);
    clsel_plan_destroy(plan);
}

void bench_progress(const bench_report *report, const bench_result *r)
{
    if (*r->error)
        fprintf(stderr, "bench %s: %-22s failed: %s\n", report->kind, r->c->name, r->error);
    else
        fprintf(stderr, "bench %s: %-22s %10lld el %9.3f ms %7.2f GB/s %5.1f%% of copy\n", report->kind, r->c->name,
                (long long)r->elements, r->median_ms, r->gbps, r->pct_of_copy);
}

static void print_table(const bench_report *report)
{
    printf("\n%s (%s): best copy %.1f GB/s [%s]\n", report->device, report->kind, report->copy_gbps,
           report->copy_method);
    if (report->kind[0] == 'o')
        printf("context and f32's program %.0f ms (first in process), %.0f ms (again); clsel_cl_enqueue host cost "
               "%.2f us\n",
               report->build_first_ms, report->build_again_ms, report->enqueue_us);
    const int events = report->kind[0] == 'o';
    if (events)
        printf("%% copy: wall clock (enqueue to clFinish), both timed alike; events: the device's own clock "
               "(OpenCL event profiling), both timed alike\n");
    printf("%-22s %-5s %12s %13s %10s %10s %8s %8s %7s %10s %s %s\n", "case", "dtype", "elements", "bytes",
           "median ms", "min ms", "GB/s", "copy", "% copy", "first ms", events ? "  events ms  % copy " : "", "what");
    for (size_t i = 0; i < report->count; ++i) {
        const bench_result *r = &report->results[i];
        if (*r->error) {
            printf("%-22s %-5s failed: %s\n", r->c->name, clsel_dtype_name(r->c->dtype), r->error);
            continue;
        }
        char event_text[40] = "";
        if (events) snprintf(event_text, sizeof event_text, " %10.3f %6.1f%% ", r->event_ms, r->event_pct_of_copy);
        printf("%-22s %-5s %12lld %13llu %10.3f %10.3f %8.2f %8.2f %6.1f%% %10.2f %s %s\n", r->c->name,
               clsel_dtype_name(r->c->dtype), (long long)r->elements, (unsigned long long)r->bytes, r->median_ms,
               r->min_ms, r->gbps, r->copy_gbps, r->pct_of_copy, r->first_call_ms, event_text, r->c->what);
    }
}

static void print_thresholds(const bench_thresholds_report *t)
{
    printf("\nthresholds: same-shape f32, host memory, medians (ms); runtime = clsel_runtime_run on %s, every size "
           "on the device; AUTO = clsel_runtime_run as created with CLSEL_DEVICE_AUTO (runs on: %s)\n",
           *t->runtime_device ? t->runtime_device : "(no OpenCL device)", t->auto_device);
    printf("%12s %13s %12s %12s %12s %12s\n", "elements", "bytes", "CPU 1 thread", "CPU threads", "runtime", "AUTO");
    for (size_t i = 0; i < t->count; ++i)
        printf("%12lld %13llu %12.4f %12.4f %12.4f %12.4f\n", (long long)t->rows[i].elements,
               (unsigned long long)t->rows[i].bytes, t->rows[i].cpu_ms, t->rows[i].threads_ms, t->rows[i].runtime_ms,
               t->rows[i].auto_ms);
    if (t->chunked_elements)
        printf("past the allocation limit (%llu bytes): %lld u8 elements, runtime in chunks %.1f ms (%.2f GB/s), "
               "CPU path %.1f ms\n",
               (unsigned long long)t->max_alloc, (long long)t->chunked_elements, t->chunked_ms,
               (double)t->chunked_bytes / (t->chunked_ms * 1e6), t->chunked_cpu_ms);
    else if (*t->chunked_note)
        printf("past the allocation limit: %s\n", t->chunked_note);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
    }
    fputc('"', f);
}

static void json_shape(FILE *f, const clsel_shape *s)
{
    fputc('[', f);
    for (int32_t d = 0; d < s->rank; ++d) fprintf(f, "%s%lld", d ? ", " : "", (long long)s->dims[d]);
    fputc(']', f);
}

/* One case: the figures, then what a script needs to rebuild the same case (the peers'
 * benchmark does): shapes, attributes and cond pattern. */
static void json_case(FILE *f, const bench_result *r)
{
    const bench_case *c = r->c;
    fprintf(f, "{\"name\": \"%s\", \"dtype\": \"%s\", \"elements\": %lld, \"bytes\": %llu, "
               "\"median_ms\": %.6f, \"min_ms\": %.6f, \"gbps\": %.4f, \"pct_of_copy\": %.2f, "
               "\"first_call_ms\": %.4f, \"copy_gbps\": %.4f, \"write_bytes\": %llu, \"model_gbps\": %.4f, "
               "\"ceiling_pct\": %.2f, \"event_median_ms\": %.6f, \"event_pct_of_copy\": %.2f, "
               "\"what\": ",
            c->name, clsel_dtype_name(c->dtype), (long long)r->elements, (unsigned long long)r->bytes, r->median_ms,
            r->min_ms, r->gbps, r->pct_of_copy, r->first_call_ms, r->copy_gbps, (unsigned long long)r->write_bytes,
            r->model_gbps, r->ceiling_pct, r->event_ms, r->event_pct_of_copy);
    json_string(f, c->what);
    fputs(", \"shapes\": [", f);
    for (int k = 0; k < 3; ++k) {
        if (k) fputs(", ", f);
        json_shape(f, &r->shapes[k]);
    }
    fprintf(f, "], \"broadcast\": \"%s\", \"axis\": %lld, \"cond_broadcast\": \"%s\", \"pattern\": \"%s\"}",
            bench_broadcast_name(c->broadcast), (long long)c->axis, bench_cond_broadcast_name(c->cond_broadcast),
            bench_pattern_name(c->pattern));
}

static void json_thresholds(FILE *f, const bench_thresholds_report *t);

static void json_report(FILE *f, const bench_report *report, const bench_thresholds_report *thresholds,
                        const bench_options *o)
{
    fprintf(f, "{\"device\": ");
    json_string(f, report->device);
    fprintf(f, ", \"device_kind\": \"%s\", \"quick\": %s, \"copy_gbps\": %.4f, \"read_gbps\": %.4f, "
               "\"write_gbps\": %.4f, \"copy_method\": ",
            report->kind, report->quick ? "true" : "false", report->copy_gbps, report->read_gbps, report->write_gbps);
    json_string(f, report->copy_method);
    if (report->kind[0] == 'o')
        fprintf(f, ", \"build_first_ms\": %.3f, \"build_again_ms\": %.3f, \"enqueue_us\": %.3f",
                report->build_first_ms, report->build_again_ms, report->enqueue_us);
    else
        fprintf(f, ", \"threads\": %d, \"plan_us\": %.3f", report->threads, report->plan_us);
    if (o->sweep) {
        bench_sweep_stats st;
        bench_sweep_summarize(report, &st);
        fprintf(f, ", \"sweep\": {\"seed\": %llu, \"draw\": \"%s\", \"patterns\": %d, \"ran\": %zu, \"min\": %.2f, \"p10\": %.2f, "
                   "\"median\": %.2f, \"below_85\": %zu, \"below_70\": %zu, \"ceiling_min\": %.2f, "
                   "\"ceiling_p10\": %.2f, \"ceiling_median\": %.2f, \"event_min\": %.2f, \"event_p10\": %.2f, "
                   "\"event_median\": %.2f}",
                (unsigned long long)o->seed, bench_sweep_draw_names[o->draw], o->sweep, st.count, st.min, st.p10, st.median, st.below_85, st.below_70,
                st.ceiling_min, st.ceiling_p10, st.ceiling_median, st.event_min, st.event_p10, st.event_median);
    }
    fprintf(f, ", \"cases\": [");
    for (size_t i = 0, n = 0; i < report->count; ++i) {
        const bench_result *r = &report->results[i];
        if (*r->error) continue;
        fputs(n++ ? ",\n  " : "\n  ", f);
        json_case(f, r);
    }
    fprintf(f, "\n]");
    if (thresholds) {
        fputs(", \"thresholds\": ", f);
        json_thresholds(f, thresholds);
    }
    fputs("}", f);
}

static void json_thresholds(FILE *f, const bench_thresholds_report *t)
{
    fprintf(f, "{\"threads\": %d, \"runtime_device\": ", t->threads);
    json_string(f, t->runtime_device);
    fputs(", \"auto_device\": ", f);
    json_string(f, t->auto_device);
    fputs(", \"rows\": [", f);
    for (size_t i = 0; i < t->count; ++i)
        fprintf(f, "%s\n  {\"elements\": %lld, \"bytes\": %llu, \"cpu_ms\": %.6f, \"threads_ms\": %.6f, "
                   "\"runtime_ms\": %.6f, \"auto_ms\": %.6f}",
                i ? "," : "", (long long)t->rows[i].elements, (unsigned long long)t->rows[i].bytes, t->rows[i].cpu_ms,
                t->rows[i].threads_ms, t->rows[i].runtime_ms, t->rows[i].auto_ms);
    fputs("\n]", f);
    if (t->chunked_elements)
        fprintf(f, ", \"chunked\": {\"elements\": %lld, \"bytes\": %llu, \"max_alloc\": %llu, \"runtime_ms\": %.3f, "
                   "\"cpu_ms\": %.3f}",
                (long long)t->chunked_elements, (unsigned long long)t->chunked_bytes, (unsigned long long)t->max_alloc,
                t->chunked_ms, t->chunked_cpu_ms);
    fputs("}", f);
}

/* The thresholds go into the CPU report (they are about runs on host memory). */
static int write_json(const char *path, const bench_report *reports, size_t count, int as_list,
                      const bench_thresholds_report *thresholds, const bench_options *o)
{
    FILE *f = fopen(path, "w");
    if (!f) return cli_fail("%s: cannot write", path);
    if (as_list) fputs("[", f);
    for (size_t i = 0; i < count; ++i) {
        if (i) fputs(",\n", f);
        json_report(f, &reports[i], reports[i].kind[0] == 'c' ? thresholds : NULL, o);
    }
    if (as_list) fputs("]", f);
    fputs("\n", f);
    return fclose(f) == 0 ? CLI_OK : cli_fail("%s: write error", path);
}

static int run_first_call(const char *json)
{
    bench_first_call_report r;
    if (bench_first_call(&r) != 0) return CLI_FAILED;
    printf("first call on %s: OpenCL platform start %.1f ms, clsel_runtime_create %.1f ms, first run %.1f ms "
           "(f32, %lld elements), second run %.3f ms; first select after process start %.1f ms, %.1f ms of it "
           "in clsel\n",
           r.device, r.platform_ms, r.create_ms, r.first_run_ms, (long long)r.elements, r.second_run_ms,
           r.platform_ms + r.create_ms + r.first_run_ms, r.create_ms + r.first_run_ms);
    if (!json) return CLI_OK;
    FILE *f = fopen(json, "w");
    if (!f) return cli_fail("%s: cannot write", json);
    fputs("{\"device\": ", f);
    json_string(f, r.device);
    fprintf(f, ", \"elements\": %lld, \"platform_ms\": %.3f, \"create_ms\": %.3f, \"first_run_ms\": %.3f, "
               "\"second_run_ms\": %.4f}\n",
            (long long)r.elements, r.platform_ms, r.create_ms, r.first_run_ms, r.second_run_ms);
    return fclose(f) == 0 ? CLI_OK : cli_fail("%s: write error", json);
}

int cmd_bench(int argc, char **argv)
{
    bench_options o = {0, 20, 1, 0, NULL, 0, 0, 1, SWEEP_DRAW_MIXED};
    int repeat_given = 0, first_call = 0;
    const char *device = "all", *json = NULL;
    const char **names = calloc((size_t)argc, sizeof *names);
    if (!names) return cli_fail("out of memory");
    o.only = names;
    for (int i = 1; i < argc; ++i) {
        const char *value = NULL;
        int64_t n = 0;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            free(names);
            return CLI_OK;
        } else if (strcmp(argv[i], "--quick") == 0) {
            o.quick = 1;
        } else if (strcmp(argv[i], "--first-call") == 0) {
            first_call = 1;
        } else if (strcmp(argv[i], "--thresholds") == 0) {
            o.thresholds = 1;
        } else if (cli_option(argc, argv, &i, "--device", &value)) {
            if (!value || (strcmp(value, "cpu") && strcmp(value, "opencl") && strcmp(value, "all"))) {
                free(names);
                return cli_usage("bench", "--device must be cpu, opencl or all, not '%s'", value ? value : "");
            }
            device = value;
        } else if (cli_option(argc, argv, &i, "--case", &value)) {
            size_t k = 0;
            while (k < bench_case_count && (!value || strcmp(bench_cases[k].name, value))) ++k;
            if (k == bench_case_count && (!value || strncmp(value, "sweep-", 6) != 0)) {
                free(names);
                return cli_usage("bench", "unknown case '%s' (clsel bench --help; cases: same_f32, ...)",
                                 value ? value : "");
            }
            names[o.only_count++] = value;
        } else if (cli_option(argc, argv, &i, "--repeat", &value)) {
            if (cli_parse_int64(value, &n) || n < 1 || n > 100000) {
                free(names);
                return cli_usage("bench", "--repeat needs a count from 1 to 100000, not '%s'", value ? value : "");
            }
            o.repeat = (int)n;
            repeat_given = 1;
        } else if (cli_option(argc, argv, &i, "--sweep", &value)) {
            if (cli_parse_int64(value, &n) || n < 1 || n > BENCH_MAX_RESULTS) {
                free(names);
                return cli_usage("bench", "--sweep needs a pattern count from 1 to %d, not '%s'", BENCH_MAX_RESULTS,
                                 value ? value : "");
            }
            o.sweep = (int)n;
        } else if (cli_option(argc, argv, &i, "--seed", &value)) {
            if (cli_parse_int64(value, &n) || n < 0) {
                free(names);
                return cli_usage("bench", "--seed needs a number from 0 up, not '%s'", value ? value : "");
            }
            o.seed = (uint64_t)n;
        } else if (cli_option(argc, argv, &i, "--draw", &value)) {
            int d = 0;
            while (d < SWEEP_DRAWS && (!value || strcmp(value, bench_sweep_draw_names[d]))) ++d;
            if (d == SWEEP_DRAWS) {
                free(names);
                return cli_usage("bench", "--draw must be mixed, broad or short, not '%s'", value ? value : "");
            }
            o.draw = d;
        } else if (cli_option(argc, argv, &i, "--threads", &value)) {
            if (cli_parse_int64(value, &n) || n < 1 || n > 256) {
                free(names);
                return cli_usage("bench", "--threads needs a count from 1 to 256, not '%s'", value ? value : "");
            }
            o.threads = (int)n;
        } else if (cli_option(argc, argv, &i, "--json", &value)) {
            if (!value || !*value) {
                free(names);
                return cli_usage("bench", "--json needs a file name");
            }
            json = value;
        } else {
            free(names);
            return cli_usage("bench", "unknown argument '%s'", argv[i]);
        }
    }
    if (first_call) {
        free(names);
        return run_first_call(json);
    }
    static bench_report reports[3];
    size_t count = 0;
    int failed = 0;
    if (o.sweep) {
        if (o.thresholds) {
            free(names);
            return cli_usage("bench", "--sweep takes no --thresholds");
        }
        if (!repeat_given) o.repeat = 5;
        int rc = bench_sweep(&o, strcmp(device, "cpu") != 0, strcmp(device, "opencl") != 0, reports, &count) == 0
                     ? CLI_OK
                     : CLI_FAILED;
        if (strcmp(device, "opencl") == 0 && (count == 0 || reports[0].kind[0] != 'o')) rc = CLI_FAILED;
        bench_sweep_print(reports, count);
        if (json && count) {
            int w = write_json(json, reports, count, 1, NULL, &o);
            if (w != CLI_OK) rc = w;
        }
        free(names);
        return rc;
    }
    if (strcmp(device, "cpu") != 0) {
        if (bench_run_opencl(&o, &reports[count]) == 0)
            ++count;
        else
            failed = strcmp(device, "opencl") == 0;
    }
    if (strcmp(device, "opencl") != 0 && bench_run_cpu(&o, &reports[count]) == 0) ++count;
    for (size_t i = 0; i < count; ++i) print_table(&reports[i]);
    static bench_thresholds_report thresholds;
    if (o.thresholds && count) {
        bench_thresholds(&o, &thresholds);
        print_thresholds(&thresholds);
    }
    int rc = failed || count == 0 ? CLI_FAILED : CLI_OK;
    if (json && count) {
        int w = write_json(json, reports, count, strcmp(device, "all") == 0, o.thresholds ? &thresholds : NULL, &o);
        if (w != CLI_OK) rc = w;
    }
    free(names);
    return rc;
}
