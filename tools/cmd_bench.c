/* cmd_bench.c - clsel bench: how close clsel gets to the device's copy bandwidth on the
 * named cases. The command alone: its options (a table), the runs of the benchmark
 * (tools/bench/) they ask for, and the report: a progress line per case on stderr, a
 * table on stdout, and with --json the figures for scripts. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cl.h"
#include "bench_cpu.h"
#include "bench_first_call.h"
#include "bench_json.h"
#include "bench_model.h"
#include "bench_sweep.h"
#include "bench_text.h"
#include "bench_thresholds.h"
#include "cli.h"

static const char help[] =
    "usage: clsel bench [--device cpu|opencl|all] [--quick] [--views] [--case NAME]... [--repeat "
    "N]\n"
    "                   [--threads N] [--thresholds] [--json FILE]\n"
    "       clsel bench --sweep N [--seed S] [--draw mixed|broad|short|interleaved]\n"
    "                   [--case sweep-K]... [--device cpu|opencl|all] [--quick]\n"
    "                   [--repeat N] [--threads N] [--json FILE]\n"
    "       clsel bench --first-call [--json FILE]\n"
    "       clsel bench --model [--sweep N [--seed S] [--draw ...]] [--case NAME]... [--json "
    "FILE]\n\n"
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
    "trip: the measurements behind the library's size thresholds. --views runs strided views\n"
    "instead (every tensor 4096 x 4096 f32, 256 x 384 with --quick: dense, padded rows,\n"
    "transposed, transposed into a dense output, every other element, reversed, a row\n"
    "repeated by a zero stride), each over buffers of the bytes it touches.\n\n"
    "--sweep N times N random broadcast patterns instead of the named cases (numpy with\n"
    "either cond rule, pdpd and none; ranks 1-8; dims 1-64 and longer; every element width;\n"
    "random and constant conds; outputs of 64-128 MiB, 2-4 MiB with --quick) on the OpenCL\n"
    "device, the CPU path on one thread and the CPU path on every core (--threads N: on N),\n"
    "and reports per path the distribution of % of the same-device copy (min, 10th\n"
    "percentile, median) and the worst patterns. --seed S (default 1) picks the patterns:\n"
    "pattern k of a seed is the same whatever N is; --case sweep-K runs only pattern K.\n"
    "--draw short draws only short inner dims (1-40) with inputs repeated or tiled over\n"
    "them, --draw broad only the patterns above, --draw mixed (the default) pattern k\n"
    "short when k % 3 == 2 and broad otherwise; --draw interleaved draws rank 3-4 outputs\n"
    "of inner dims 2-16, each input kept or 1 on each (short runs repeated and tiled\n"
    "against each other). --repeat defaults to 5 for a sweep.\n\n"
    "--first-call times the first select of this process on the OpenCL device, in parts: the\n"
    "platform's own start (clGetPlatformIDs), clsel_runtime_create, the first f32 run (which\n"
    "builds or loads the program it needs) and a second run. Run it in a fresh process, under\n"
    "the kernel-cache state to measure (bench/first_call.sh runs each).\n\n"
    "--model counts instead of timing: it runs the OpenCL kernels once per pattern on\n"
    "Oclgrind, a simulated device, with clsel's counting plugin (run it through\n"
    "bench/gpu_model.sh, which sets both up), checks each output against the CPU path and\n"
    "reports the instructions executed (LLVM IR), the global loads and stores, the bytes per\n"
    "access and the share of bytes moved in 16-byte accesses per output byte: a repeatable\n"
    "measure of the kernels' cost without a GPU (docs/gpu_model.md). The patterns are a fixed\n"
    "set of broadcast, short-row and strided ones, or with --sweep N the sweep's patterns at\n"
    "64-128 KiB of output.\n";

/* Which paths --device runs. */
enum {
    DEVICE_CPU,
    DEVICE_OPENCL,
    DEVICE_ALL,
    DEVICES
};
static const char *const device_names[DEVICES] = {"cpu", "opencl", "all"};

/* What the options ask for: the benchmark's options and the command's own. */
typedef struct bench_command {
    bench_options o; /* o.repeat 0: not given (20, or 5 for a sweep) */
    int device;      /* DEVICE_* */
    int first_call;
    int model;        /* --model: count on a simulated device instead of timing */
    const char *json; /* --json FILE, or NULL */
} bench_command;

typedef enum option_kind {
    OPTION_HELP,   /* prints the help; the command ends there */
    OPTION_FLAG,   /* int: set to 1 */
    OPTION_INT,    /* int: a number from min to max */
    OPTION_UINT64, /* uint64_t: a number from min up */
    OPTION_CHOICE, /* int: the index of the value among choices */
    OPTION_CASE,   /* a named case or sweep-K, added to o.only */
    OPTION_FILE,   /* const char *: a file name, not empty */
} option_kind;

typedef struct option {
    const char *name;
    option_kind kind;
    size_t target;     /* where the value goes: offsetof(bench_command, ...) */
    const char *value; /* what the value is, in the messages: "--repeat needs a count ..." */
    int64_t min, max;  /* OPTION_INT, OPTION_UINT64 */
    const char *const *choices; /* OPTION_CHOICE */
    int choice_count;
} option;

/* The options. A flag is matched whole, an option with a value as "--name VALUE" or
 * "--name=VALUE"; each stores into its field of bench_command. */
static const option options[] = {
    {.name = "--help", .kind = OPTION_HELP},
    {.name = "-h", .kind = OPTION_HELP},
    {"--quick", OPTION_FLAG, .target = offsetof(bench_command, o.quick)},
    {"--first-call", OPTION_FLAG, .target = offsetof(bench_command, first_call)},
    {"--model", OPTION_FLAG, .target = offsetof(bench_command, model)},
    {"--views", OPTION_FLAG, .target = offsetof(bench_command, o.views)},
    {"--thresholds", OPTION_FLAG, .target = offsetof(bench_command, o.thresholds)},
    {"--device", OPTION_CHOICE, .target = offsetof(bench_command, device), .choices = device_names,
     .choice_count = DEVICES},
    {.name = "--case", .kind = OPTION_CASE},
    {"--repeat", OPTION_INT, .target = offsetof(bench_command, o.repeat), .value = "a count",
     .min = 1, .max = 100000},
    {"--sweep", OPTION_INT, .target = offsetof(bench_command, o.sweep), .value = "a pattern count",
     .min = 1, .max = BENCH_MAX_RESULTS},
    {"--seed", OPTION_UINT64, .target = offsetof(bench_command, o.seed), .value = "a number",
     .min = 0},
    {"--draw", OPTION_CHOICE, .target = offsetof(bench_command, o.draw),
     .choices = bench_sweep_draw_names, .choice_count = SWEEP_DRAWS},
    {"--threads", OPTION_INT, .target = offsetof(bench_command, o.threads), .value = "a count",
     .min = 1, .max = 256},
    {"--json", OPTION_FILE, .target = offsetof(bench_command, json), .value = "a file name"},
};

/* parse_options' answer when the command goes on to run (else it is the exit status). */
enum {
    PARSED = -1
};

static int is_case_name(const char *value)
{
    for (size_t k = 0; k < bench_case_count; ++k)
        if (strcmp(bench_cases[k].name, value) == 0)
            return 1;
    for (size_t k = 0; k < bench_view_case_count; ++k)
        if (strcmp(bench_view_cases[k].name, value) == 0)
            return 1;
    return strncmp(value, "sweep-", 6) == 0 || bench_model_has_case(value);
}

/* "--device must be cpu, opencl or all, not 'gpu'": the choices as a list. */
static int bad_choice(const option *opt, const char *value)
{
    char list[128] = "";
    size_t used = 0;
    for (int k = 0; k < opt->choice_count && used < sizeof list; ++k) {
        const char *before = k == 0 ? "" : k + 1 < opt->choice_count ? ", " : " or ";
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", before, opt->choices[k]);
    }
    return cli_usage("bench", "%s must be %s, not '%s'", opt->name, list, value ? value : "");
}

/* Stores one option's value in cmd: PARSED, or the exit status (after the help, or a
 * message on a bad value). */
static int apply_option(const option *opt, const char *value, bench_command *cmd)
{
    void *target = (char *)cmd + opt->target;
    const char *shown = value ? value : "";
    int64_t n = 0;
    switch (opt->kind) {
    case OPTION_HELP:
        fputs(help, stdout);
        return CLI_OK;
    case OPTION_FLAG:
        *(int *)target = 1;
        return PARSED;
    case OPTION_INT:
        if (cli_parse_int64(value, &n) || n < opt->min || n > opt->max)
            return cli_usage("bench", "%s needs %s from %lld to %lld, not '%s'", opt->name,
                             opt->value, (long long)opt->min, (long long)opt->max, shown);
        *(int *)target = (int)n;
        return PARSED;
    case OPTION_UINT64:
        if (cli_parse_int64(value, &n) || n < opt->min)
            return cli_usage("bench", "%s needs %s from %lld up, not '%s'", opt->name, opt->value,
                             (long long)opt->min, shown);
        *(uint64_t *)target = (uint64_t)n;
        return PARSED;
    case OPTION_CHOICE:
        for (int k = 0; value && k < opt->choice_count; ++k)
            if (strcmp(value, opt->choices[k]) == 0) {
                *(int *)target = k;
                return PARSED;
            }
        return bad_choice(opt, value);
    case OPTION_CASE:
        if (!value || !is_case_name(value))
            return cli_usage("bench",
                             "unknown case '%s' (clsel bench --help; cases: same_f32, ...)", shown);
        cmd->o.only[cmd->o.only_count++] = value;
        return PARSED;
    case OPTION_FILE:
        if (!value || !*value)
            return cli_usage("bench", "%s needs %s", opt->name, opt->value);
        *(const char **)target = value;
        return PARSED;
    }
    return PARSED; /* every kind is handled above */
}

static int parse_options(int argc, char **argv, bench_command *cmd)
{
    for (int i = 1; i < argc; ++i) {
        const option *opt = NULL;
        const char *value = NULL;
        for (size_t k = 0; k < sizeof options / sizeof options[0] && !opt; ++k) {
            const option *candidate = &options[k];
            const int takes_value =
                candidate->kind != OPTION_HELP && candidate->kind != OPTION_FLAG;
            if (takes_value ? cli_option(argc, argv, &i, candidate->name, &value)
                            : strcmp(argv[i], candidate->name) == 0)
                opt = candidate;
        }
        if (!opt)
            return cli_usage("bench", "unknown argument '%s'", argv[i]);
        const int rc = apply_option(opt, value, cmd);
        if (rc != PARSED)
            return rc;
    }
    return PARSED;
}

/* "clsel: FILE: cannot write" or "write error" when --json failed. */
static int json_written(bench_json_status status, const char *path)
{
    static const char *const problems[] = {"", "cannot write", "write error"};
    return status == BENCH_JSON_OK ? CLI_OK : cli_fail("%s: %s", path, problems[status]);
}

static int run_first_call(const char *json)
{
    bench_first_call_report r;
    if (bench_first_call(&r) != 0)
        return CLI_FAILED;
    bench_print_first_call(&r);
    return json ? json_written(bench_json_write_first_call(json, &r), json) : CLI_OK;
}

/* One report per path (OpenCL, CPU, CPU on every core): static, each holds up to
 * BENCH_MAX_RESULTS results. */
static bench_report reports[3];

static int run_sweep(bench_command *cmd)
{
    if (cmd->o.thresholds)
        return cli_usage("bench", "--sweep takes no --thresholds");
    size_t count = 0;
    int rc = bench_sweep(&cmd->o, cmd->device != DEVICE_CPU, cmd->device != DEVICE_OPENCL, reports,
                         &count) == 0
                 ? CLI_OK
                 : CLI_FAILED;
    if (cmd->device == DEVICE_OPENCL && (count == 0 || reports[0].kind[0] != 'o'))
        rc = CLI_FAILED;
    bench_sweep_print(reports, count);
    if (cmd->json && count) {
        const int w =
            json_written(bench_json_write(cmd->json, reports, count, 1, NULL, &cmd->o), cmd->json);
        if (w != CLI_OK)
            rc = w;
    }
    return rc;
}

static int run_named_cases(const bench_command *cmd)
{
    const bench_options *o = &cmd->o;
    size_t count = 0;
    int failed = 0;
    if (cmd->device != DEVICE_CPU) {
        if (bench_run_opencl(o, &reports[count]) == 0)
            ++count;
        else
            failed = cmd->device == DEVICE_OPENCL;
    }
    if (cmd->device != DEVICE_OPENCL && bench_run_cpu(o, &reports[count]) == 0)
        ++count;
    for (size_t i = 0; i < count; ++i)
        bench_print_table(&reports[i]);
    static bench_thresholds_report thresholds;
    if (o->thresholds && count) {
        bench_thresholds(o, &thresholds);
        bench_print_thresholds(&thresholds);
    }
    int rc = failed || count == 0 ? CLI_FAILED : CLI_OK;
    if (cmd->json && count) {
        const int w =
            json_written(bench_json_write(cmd->json, reports, count, cmd->device == DEVICE_ALL,
                                          o->thresholds ? &thresholds : NULL, o),
                         cmd->json);
        if (w != CLI_OK)
            rc = w;
    }
    return rc;
}

static int run_model(const bench_command *cmd)
{
    static bench_model_report report;
    if (bench_model(&cmd->o, &report) != 0)
        return CLI_FAILED;
    bench_model_print(&report, &cmd->o);
    if (cmd->json && bench_model_json(cmd->json, &report, &cmd->o) != 0)
        return cli_fail("%s: cannot write", cmd->json);
    for (size_t i = 0; i < report.count; ++i)
        if (*report.results[i].error)
            return CLI_FAILED;
    return report.count ? CLI_OK : CLI_FAILED;
}

static int run(bench_command *cmd)
{
    if (cmd->first_call)
        return run_first_call(cmd->json);
    if (cmd->model)
        return run_model(cmd);
    if (!cmd->o.repeat)
        cmd->o.repeat = cmd->o.sweep ? 5 : 20;
    return cmd->o.sweep ? run_sweep(cmd) : run_named_cases(cmd);
}

int cmd_bench(int argc, char **argv)
{
    bench_command cmd = {.o = {.threads = 1, .seed = 1, .draw = SWEEP_DRAW_MIXED},
                         .device = DEVICE_ALL};
    cmd.o.only = calloc((size_t)argc, sizeof *cmd.o.only);
    if (!cmd.o.only)
        return cli_fail("out of memory");
    int rc = parse_options(argc, argv, &cmd);
    if (rc == PARSED)
        rc = run(&cmd);
    free(cmd.o.only);
    return rc;
}
