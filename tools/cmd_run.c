/* cmd_run.c - clsel run: Select on three .npy files, the result written as .npy. The
 * output goes to a temporary file in the output's folder and is renamed into place only
 * on success, so a failure never leaves an output behind. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "npy.h"

static const char help[] =
    "usage: clsel run COND.npy THEN.npy ELSE.npy -o OUT.npy [options]\n\n"
    "Writes OUT.npy = COND ? THEN : ELSE, with THEN's dtype and the broadcast shape.\n"
    "COND must be bool (|b1) or uint8 (|u1), nonzero = true; THEN and ELSE must have\n"
    "the same dtype (bool, u/int 8-64, float16/32/64, bfloat16 as |V2).\n\n"
    "options:\n"
    "  -o, --output OUT.npy                     where to write the result (required)\n"
    "  --broadcast numpy|none|pdpd              broadcast mode (default numpy;\n"
    "                                           'explicit' means none)\n"
    "  --axis N                                 pdpd only: first dim of THEN that ELSE and\n"
    "                                           COND are placed on (default -1: per input)\n"
    "  --cond-broadcast one-way|bidirectional   numpy only: may COND enlarge the output\n"
    "                                           (default one-way, as Select-1 says)\n"
    "  --device auto|cpu|opencl                 where to run (default auto: a GPU or\n"
    "                                           accelerator, else the CPU path; tensors\n"
    "                                           under 1 MiB always on the CPU path)\n"
    "  --threads N                              CPU path threads (default 0: one per core;\n"
    "                                           runs moving under 32 MiB use one anyway)\n"
    "  -v, --verbose                            print device, shapes and time to stderr\n\n"
    "exit status: 0 success, 1 the operation failed, 2 usage error\n";

typedef struct run_options {
    const char *inputs[3], *output;
    clsel_attrs attrs;
    int axis_given;
    clsel_device device;
    int64_t threads;
    int verbose;
} run_options;

/* Parses the command line; CLI_OK, or the exit status to return (help or usage). */
static int parse_options(int argc, char **argv, run_options *o, int *done)
{
    int positional = 0;
    memset(o, 0, sizeof *o);
    o->attrs = clsel_attrs_default();
    o->device = CLSEL_DEVICE_AUTO;
    *done = 0;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i], *value = NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(help, stdout);
            *done = 1;
            return CLI_OK;
        }
        if (strcmp(arg, "-v") == 0 || strcmp(arg, "--verbose") == 0) {
            o->verbose = 1;
        } else if (cli_option(argc, argv, &i, "-o", &value) ||
                   cli_option(argc, argv, &i, "--output", &value)) {
            if (!value || !*value)
                return cli_usage("run", "%s needs a file name", arg);
            o->output = value;
        } else if (cli_option(argc, argv, &i, "--broadcast", &value)) {
            if (cli_parse_broadcast(value, &o->attrs.broadcast))
                return cli_usage("run",
                                 "--broadcast must be numpy, none (or explicit) or pdpd, not '%s'",
                                 value ? value : "");
        } else if (cli_option(argc, argv, &i, "--axis", &value)) {
            if (cli_parse_int64(value, &o->attrs.axis))
                return cli_usage("run", "--axis needs an integer, not '%s'", value ? value : "");
            o->axis_given = 1;
        } else if (cli_option(argc, argv, &i, "--cond-broadcast", &value)) {
            if (cli_parse_cond_broadcast(value, &o->attrs.cond_broadcast))
                return cli_usage("run",
                                 "--cond-broadcast must be one-way or bidirectional, not '%s'",
                                 value ? value : "");
        } else if (cli_option(argc, argv, &i, "--device", &value)) {
            if (cli_parse_device(value, &o->device))
                return cli_usage("run", "--device must be auto, cpu or opencl, not '%s'",
                                 value ? value : "");
        } else if (cli_option(argc, argv, &i, "--threads", &value)) {
            if (cli_parse_int64(value, &o->threads) || o->threads < 0 || o->threads > 4096)
                return cli_usage("run", "--threads needs an integer from 0 to 4096, not '%s'",
                                 value ? value : "");
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return cli_usage("run", "unknown option '%s'", arg);
        } else if (positional < 3) {
            o->inputs[positional++] = arg;
        } else {
            return cli_usage("run", "too many files: '%s' (COND THEN ELSE and -o OUT)", arg);
        }
    }
    if (positional < 3)
        return cli_usage("run", "needs three input files: COND.npy THEN.npy ELSE.npy");
    if (!o->output)
        return cli_usage("run", "missing -o OUT.npy");
    if (o->axis_given && o->attrs.broadcast != CLSEL_BROADCAST_PDPD)
        return cli_usage("run", "--axis applies to --broadcast pdpd only");
    return CLI_OK;
}

static const char *mode_name(const clsel_attrs *a)
{
    static const char *const names[] = {"numpy", "none", "pdpd"};
    return names[a->broadcast];
}

/* Writes `result` to a temporary file beside `path` and renames it into place. */
/* Where the run went (clsel_runtime_last_run_path) and what its time covers. */
static const struct {
    const char *where, *timed;
} run_paths[] = {
    [CLSEL_RUN_NONE] = {"nowhere", "nothing"},
    [CLSEL_RUN_CPU] = {"the CPU path", "select"},
    [CLSEL_RUN_DEVICE] = {"the OpenCL device", "upload, select, download"},
    [CLSEL_RUN_RESCUED] = {"the CPU path after the device failed",
                           "the device's try and the CPU path"},
};

static int write_output(const char *path, const npy_array *result)
{
    char err[512], tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path) >= (int)sizeof tmp)
        return cli_fail("%s: name too long", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return cli_fail("%s: cannot create a file there: %s", path, strerror(errno));
    mode_t mask = umask(0); /* mkstemp makes 0600; give the result the usual 0666 & ~umask */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    FILE *f = fdopen(fd, "wb");
    int rc = f ? npy_write_file(f, result, err, sizeof err) : -1;
    if (!f) {
        snprintf(err, sizeof err, "output: %s", strerror(errno));
        close(fd);
    } else if (fclose(f) != 0 && rc == 0) {
        snprintf(err, sizeof err, "output: %s", strerror(errno));
        rc = -1;
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        snprintf(err, sizeof err, "output: cannot rename into place: %s", strerror(errno));
        rc = -1;
    }
    if (rc != 0) {
        remove(tmp);
        return cli_fail("%s: %s", path, err);
    }
    return CLI_OK;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int run_select(const run_options *o, npy_array in[3])
{
    static const char *const names[3] = {"cond", "then", "else"};
    char shapes[3][CLI_SHAPE_TEXT_MAX], out_text[CLI_SHAPE_TEXT_MAX];
    for (int k = 0; k < 3; ++k)
        cli_shape_text(&in[k].shape, shapes[k]);
    clsel_status st = clsel_check_dtypes(in[0].dtype, in[1].dtype, in[2].dtype);
    if (st != CLSEL_SUCCESS)
        return cli_fail("%s: %s (cond %s, then %s, else %s)", clsel_status_string(st),
                        clsel_last_error(), o->inputs[0], o->inputs[1], o->inputs[2]);
    /* Fortran-order inputs are read where they lie: their strides, first axis fastest. */
    clsel_strides strides = clsel_strides_default();
    for (int k = 0; k < 3; ++k) {
        if (!in[k].fortran_order || in[k].bytes == 0)
            continue; /* an empty array: no strides to give */
        strides.strided |= CLSEL_STRIDED(k);
        int64_t step = 1;
        for (int32_t a = 0; a < in[k].shape.rank; step *= in[k].shape.dims[a], ++a)
            strides.strides[k][a] = step;
    }
    clsel_plan *plan = NULL;
    st = clsel_plan_create_strided(in[1].dtype, &in[0].shape, &in[1].shape, &in[2].shape, &o->attrs,
                                   &strides, &plan);
    if (st != CLSEL_SUCCESS)
        return cli_fail("%s: %s [cond %s, then %s, else %s]", clsel_status_string(st),
                        clsel_last_error(), o->inputs[0], o->inputs[1], o->inputs[2]);
    clsel_runtime *rt = NULL;
    st = clsel_runtime_create(o->device, &rt);
    if (st != CLSEL_SUCCESS) {
        clsel_plan_destroy(plan);
        return cli_fail("--device %s: %s: %s", o->device == CLSEL_DEVICE_OPENCL ? "opencl" : "auto",
                        clsel_status_string(st), clsel_last_error());
    }
    if (o->device == CLSEL_DEVICE_OPENCL)
        clsel_runtime_set_min_device_bytes(rt, 0); /* asked for by name */
    clsel_runtime_set_cpu_threads(rt, (int32_t)o->threads);
    npy_array result;
    memset(&result, 0, sizeof result);
    result.dtype = in[1].dtype;
    result.shape = *clsel_plan_output_shape(plan);
    result.bytes = clsel_plan_output_bytes(plan);
    result.data = malloc(result.bytes ? result.bytes : 1);
    int rc = CLI_OK;
    double start = seconds_now();
    st = result.data ? clsel_runtime_run(rt, plan, in[0].data, in[1].data, in[2].data, result.data)
                     : CLSEL_ERROR_OUT_OF_MEMORY;
    double elapsed = seconds_now() - start;
    clsel_run_path path = clsel_runtime_last_run_path();
    if ((size_t)path >= sizeof run_paths / sizeof run_paths[0])
        path = CLSEL_RUN_NONE;
    if (st != CLSEL_SUCCESS) {
        rc = cli_fail("%s: %s", clsel_status_string(st),
                      result.data ? clsel_last_error() : "no memory for the output");
    } else {
        if (o->verbose) {
            fprintf(stderr, "clsel run: runtime device %s (%s)%s%s\n",
                    clsel_runtime_device_name(rt),
                    clsel_runtime_device(rt) == CLSEL_DEVICE_OPENCL ? "OpenCL" : "CPU path",
                    *clsel_runtime_fallback_reason(rt) ? "; no OpenCL: " : "",
                    clsel_runtime_fallback_reason(rt));
            for (int k = 0; k < 3; ++k)
                fprintf(stderr, "clsel run: %s %s %s (%s)\n", names[k], shapes[k],
                        clsel_dtype_name(in[k].dtype), o->inputs[k]);
            fprintf(stderr, "clsel run: out %s %s, %s broadcast, ran on %s, %.3f ms (%s)\n",
                    cli_shape_text(&result.shape, out_text), clsel_dtype_name(result.dtype),
                    mode_name(&o->attrs), run_paths[path].where, elapsed * 1e3,
                    run_paths[path].timed);
        }
        rc = write_output(o->output, &result);
    }
    npy_free(&result);
    clsel_runtime_destroy(rt);
    clsel_plan_destroy(plan);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    run_options o;
    int done = 0;
    int rc = parse_options(argc, argv, &o, &done);
    if (rc != CLI_OK || done)
        return rc;
    npy_array in[3];
    memset(in, 0, sizeof in);
    char err[512];
    for (int k = 0; k < 3 && rc == CLI_OK; ++k)
        if (npy_read(o.inputs[k], &in[k], err, sizeof err) != 0)
            rc = cli_fail("%s", err);
    if (rc == CLI_OK)
        rc = run_select(&o, in);
    for (int k = 0; k < 3; ++k)
        npy_free(&in[k]);
    return rc;
}
