/* cmd_bench.c - clsel bench: how close clsel gets to the device's copy bandwidth on the
 * named cases. The command alone: its options, the runs of the benchmark (tools/bench/)
 * they ask for, and the report: a progress line per case on stderr, a table on stdout,
 * and with --json the figures for scripts. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cl.h"
#include "bench_cpu.h"
#include "bench_first_call.h"
#include "bench_json.h"
#include "bench_sweep.h"
#include "bench_text.h"
#include "bench_thresholds.h"
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

/* "clsel: FILE: cannot write" or "write error" when --json failed. */
static int json_written(bench_json_status status, const char *path)
{
    static const char *const problems[] = {"", "cannot write", "write error"};
    return status == BENCH_JSON_OK ? CLI_OK : cli_fail("%s: %s", path, problems[status]);
}

static int run_first_call(const char *json)
{
    bench_first_call_report r;
    if (bench_first_call(&r) != 0) return CLI_FAILED;
    bench_print_first_call(&r);
    return json ? json_written(bench_json_write_first_call(json, &r), json) : CLI_OK;
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
            int w = json_written(bench_json_write(json, reports, count, 1, NULL, &o), json);
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
    for (size_t i = 0; i < count; ++i) bench_print_table(&reports[i]);
    static bench_thresholds_report thresholds;
    if (o.thresholds && count) {
        bench_thresholds(&o, &thresholds);
        bench_print_thresholds(&thresholds);
    }
    int rc = failed || count == 0 ? CLI_FAILED : CLI_OK;
    if (json && count) {
        int w = json_written(bench_json_write(json, reports, count, strcmp(device, "all") == 0,
                                              o.thresholds ? &thresholds : NULL, &o),
                             json);
        if (w != CLI_OK) rc = w;
    }
    free(names);
    return rc;
}
