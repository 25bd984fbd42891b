/* bench_model.c - see bench_model.h. */
#define CL_TARGET_OPENCL_VERSION 120
#include "bench_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_literals.h"
#include "bench_sweep.h"
#include "clsel_cl.h"

/* A pattern of the fixed set: shapes outermost first, and for a view the strides of each tensor
 * in elements (CLSEL_STRIDED bits in `strided`). Sizes are 16-256 KiB of output: enough work-groups
 * that a launch's partial last one weighs little, few enough instructions for a simulator. */
typedef struct model_case {
    const char *name, *kind, *what;
    clsel_dtype dtype;
    clsel_broadcast broadcast;
    int64_t axis;
    clsel_cond_broadcast cond_broadcast;
    clsel_shape shapes[3];
    uint32_t strided;
    int64_t strides[4][CLSEL_MAX_RANK];
} model_case;

#define ALL_STRIDED (CLSEL_STRIDED(0) | CLSEL_STRIDED(1) | CLSEL_STRIDED(2) | CLSEL_STRIDED(3))
#define INPUTS_STRIDED (CLSEL_STRIDED(0) | CLSEL_STRIDED(1) | CLSEL_STRIDED(2))
enum {
    R = 128,
    C = 256
}; /* the views: every tensor R x C */
#define VIEW S2(R, C), S2(R, C), S2(R, C)

static const model_case named[] = {
    {"same_u8",
     "same",
     "same shape, 1-byte",
     CLSEL_U8,
     NUMPY,
     {S1(65536), S1(65536), S1(65536)},
     0,
     {{0}}},
    {"same_f16",
     "same",
     "same shape, 2-byte",
     CLSEL_F16,
     NUMPY,
     {S1(32768), S1(32768), S1(32768)},
     0,
     {{0}}},
    {"same_f32",
     "same",
     "same shape, 4-byte",
     CLSEL_F32,
     NUMPY,
     {S1(32768), S1(32768), S1(32768)},
     0,
     {{0}}},
    {"same_f64",
     "same",
     "same shape, 8-byte",
     CLSEL_F64,
     NUMPY,
     {S1(16384), S1(16384), S1(16384)},
     0,
     {{0}}},
    {"same_mid",
     "same",
     "same shape [256,100], f32",
     CLSEL_F32,
     NUMPY,
     {S2(256, 100), S2(256, 100), S2(256, 100)},
     0,
     {{0}}},
    {"cond_scalar",
     "broadcast",
     "cond scalar: a copy of one input",
     CLSEL_F32,
     NUMPY,
     {S0, S1(32768), S1(32768)},
     0,
     {{0}}},
    {"else_scalar",
     "broadcast",
     "masked_fill: else scalar",
     CLSEL_F32,
     NUMPY,
     {S1(32768), S1(32768), S0},
     0,
     {{0}}},
    {"both_scalar",
     "broadcast",
     "then and else scalar",
     CLSEL_F32,
     NUMPY2,
     {S2(128, 256), S0, S0},
     0,
     {{0}}},
    {"attention_mask",
     "broadcast",
     "mask [B,1,S,S] on [B,H,S,S], else scalar",
     CLSEL_F16,
     NUMPY,
     {S4(2, 1, 64, 64), S4(2, 8, 64, 64), S0},
     0,
     {{0}}},
    {"column_cond",
     "broadcast",
     "cond [1,C] on [R,C]",
     CLSEL_F32,
     NUMPY,
     {S2(1, 256), S2(128, 256), S2(128, 256)},
     0,
     {{0}}},
    {"row_operand",
     "broadcast",
     "then [R,1] on [R,C]",
     CLSEL_F32,
     NUMPY,
     {S2(128, 256), S2(128, 1), S2(128, 256)},
     0,
     {{0}}},
    {"bias_u8",
     "broadcast",
     "then [C] on [R,C], else [R,1]",
     CLSEL_U8,
     NUMPY,
     {S2(256, 256), S1(256), S2(256, 1)},
     0,
     {{0}}},
    {"per_channel",
     "broadcast",
     "NCHW, else [1,C,1,1]",
     CLSEL_F32,
     NUMPY,
     {S4(2, 16, 28, 28), S4(2, 16, 28, 28), S4(1, 16, 1, 1)},
     0,
     {{0}}},
    {"big_cond_small_values",
     "broadcast",
     "cond [N,C,H,W], then/else [1,C,1,1]",
     CLSEL_F32,
     NUMPY2,
     {S4(2, 16, 28, 28), S4(1, 16, 1, 1), S4(1, 16, 1, 1)},
     0,
     {{0}}},
    {"mutual",
     "broadcast",
     "then [S,1,S], else [1,S,1]",
     CLSEL_F32,
     NUMPY,
     {S3(32, 32, 32), S3(32, 1, 32), S3(1, 32, 1)},
     0,
     {{0}}},
    {"pdpd_axis1",
     "broadcast",
     "pdpd axis 1: cond [C,H,W], else [C] in [N,C,H,W]",
     CLSEL_F32,
     CLSEL_BROADCAST_PDPD,
     1,
     CLSEL_COND_ONE_WAY,
     {S3(16, 28, 28), S4(2, 16, 28, 28), S1(16)},
     0,
     {{0}}},
    {"rank8",
     "broadcast",
     "rank 8, alternating broadcast (no collapsing)",
     CLSEL_F32,
     NUMPY,
     {S8(4, 1, 4, 1, 4, 1, 4, 1), S8(1, 4, 1, 4, 1, 4, 1, 4), S8(4, 4, 4, 4, 4, 4, 4, 4)},
     0,
     {{0}}},
    {"short_u8",
     "short",
     "rows of 5: then repeated, else tiled",
     CLSEL_U8,
     NUMPY,
     {S3(512, 8, 5), S3(512, 8, 1), S3(512, 1, 5)},
     0,
     {{0}}},
    {"short_f16",
     "short",
     "rows of 5: then repeated, else tiled, cond scalar",
     CLSEL_F16,
     NUMPY,
     {S0, S3(512, 8, 1), S3(512, 1, 5)},
     0,
     {{0}}},
    {"short_f32",
     "short",
     "rows of 5: then repeated, else tiled, cond scalar",
     CLSEL_F32,
     NUMPY,
     {S0, S3(512, 8, 1), S3(512, 1, 5)},
     0,
     {{0}}},
    {"short_f64",
     "short",
     "rows of 7 and 3, interleaved",
     CLSEL_F64,
     NUMPY,
     {S2(3, 1), S3(1000, 3, 1), S3(1000, 1, 7)},
     0,
     {{0}}},
    {"short_i16",
     "short",
     "rows of 3 in 4 in 2: each input on other dims",
     CLSEL_I16,
     NUMPY2,
     {S4(1000, 1, 4, 3), S3(2, 1, 3), S4(1000, 2, 4, 1)},
     0,
     {{0}}},
    {"short_u8_13",
     "short",
     "rows of 13, then tiled, else repeated",
     CLSEL_U8,
     NUMPY,
     {S2(4096, 13), S1(13), S2(4096, 1)},
     0,
     {{0}}},
    {"view_padded",
     "strided",
     "padded rows (every tensor, the output too)",
     CLSEL_F32,
     NUMPY,
     {VIEW},
     ALL_STRIDED,
     {{C + 64, 1}, {C + 64, 1}, {C + 64, 1}, {C + 64, 1}}},
    {"view_transposed",
     "strided",
     "every tensor transposed, the output too",
     CLSEL_F32,
     NUMPY,
     {VIEW},
     ALL_STRIDED,
     {{1, R}, {1, R}, {1, R}, {1, R}}},
    {"view_transposed_c",
     "strided",
     "every input transposed, the output dense",
     CLSEL_F32,
     NUMPY,
     {VIEW},
     INPUTS_STRIDED,
     {{1, R}, {1, R}, {1, R}}},
    {"view_transposed_u8",
     "strided",
     "every input transposed, the output dense, 1-byte",
     CLSEL_U8,
     NUMPY,
     {VIEW},
     INPUTS_STRIDED,
     {{1, R}, {1, R}, {1, R}}},
    {"view_every_other",
     "strided",
     "every input a[:, ::2]",
     CLSEL_F32,
     NUMPY,
     {VIEW},
     INPUTS_STRIDED,
     {{2 * C, 2}, {2 * C, 2}, {2 * C, 2}}},
    {"view_reversed",
     "strided",
     "every input reversed along both axes",
     CLSEL_F32,
     NUMPY,
     {VIEW},
     INPUTS_STRIDED,
     {{-C, -1}, {-C, -1}, {-C, -1}}},
    {"view_broadcast_to",
     "strided",
     "then a row repeated by a zero stride",
     CLSEL_F32,
     NUMPY,
     {VIEW},
     CLSEL_STRIDED(1),
     {{0}, {0, 1}}},
};
enum {
    NAMED = sizeof named / sizeof named[0]
};

int bench_model_has_case(const char *name)
{
    for (size_t i = 0; i < NAMED; ++i)
        if (strcmp(named[i].name, name) == 0)
            return 1;
    return 0;
}

/* The OpenCL device the run counts on: the first device of the first platform (bench/gpu_model.sh
 * makes Oclgrind the only one). */
typedef struct model_env {
    cl_context context;
    cl_command_queue queue;
    clsel_cl_context *ctx;
    const char *counts; /* the plugin's file (CLSEL_OCLGRIND_COUNTS) */
} model_env;

static int env_open(model_env *env, char *device, size_t device_size)
{
    cl_platform_id platform;
    cl_device_id dev;
    cl_int err;
    memset(env, 0, sizeof *env);
    env->counts = getenv("CLSEL_OCLGRIND_COUNTS");
    if (!env->counts || !*env->counts) {
        fprintf(stderr, "clsel bench --model: CLSEL_OCLGRIND_COUNTS is not set: run it through "
                        "bench/gpu_model.sh, "
                        "which runs it on Oclgrind with clsel's counting plugin\n");
        return -1;
    }
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
        fprintf(stderr, "clsel bench --model: no OpenCL device\n");
        return -1;
    }
    clGetDeviceInfo(dev, CL_DEVICE_NAME, device_size, device, NULL);
    env->context = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (env->context)
        env->queue = clCreateCommandQueue(env->context, dev, 0, &err);
    if (!env->queue || clsel_cl_context_create(env->context, dev, &env->ctx) != CLSEL_SUCCESS) {
        fprintf(stderr, "clsel bench --model: cannot use %s: %s\n", device, clsel_last_error());
        return -1;
    }
    if (clsel_cl_context_path(env->ctx) != CLSEL_CL_PATH_KERNELS) {
        fprintf(stderr, "clsel bench --model: %s runs native kernels, not clsel's OpenCL kernels\n",
                device);
        return -1;
    }
    return 0;
}

static void env_close(model_env *env)
{
    clsel_cl_context_destroy(env->ctx);
    if (env->queue)
        clReleaseCommandQueue(env->queue);
    if (env->context)
        clReleaseContext(env->context);
}

/* xorshift64: the inputs' bytes. */
static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* One tensor of a run: the bytes it touches (host copy, device buffer) and where element [0] is. */
typedef struct model_tensor {
    uint8_t *host;
    size_t bytes, zero; /* zero: the offset of element [0] in the touched bytes */
    cl_mem mem;
} model_tensor;

static int tensor_make(model_env *env, const clsel_plan *plan, int op, uint64_t *seed,
                       model_tensor *t)
{
    int64_t first;
    uint64_t bytes;
    cl_int err;
    clsel_plan_tensor_extent(plan, (clsel_operand)op, &first, &bytes);
    t->bytes = (size_t)bytes;
    t->zero = (size_t)-first;
    t->host = malloc(t->bytes + 1);
    if (!t->host)
        return -1;
    for (size_t i = 0; i < t->bytes; ++i) /* cond: half true; values: any bytes; out: a sentinel */
        t->host[i] = op == CLSEL_OPERAND_COND  ? (uint8_t)(next(seed) & 1)
                     : op == CLSEL_OPERAND_OUT ? 0xA5
                                               : (uint8_t)next(seed);
    t->mem = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            t->bytes ? t->bytes : 1, t->host, &err);
    return t->mem ? 0 : -1;
}

/* The counts the plugin wrote since the file was emptied: every launch of the run, summed. */
static int read_counts(const char *path, bench_model_result *r)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        unsigned long long items = 0, group = 0, instructions = 0;
        if (sscanf(line, "{\"work_items\": %llu, \"work_group\": %llu, \"instructions\": %llu",
                   &items, &group, &instructions) != 3)
            continue;
        ++r->launches;
        r->work_items += items;
        r->instructions += instructions;
        static const char *const keys[4] = {"\"global_load\": [", "\"global_store\": [",
                                            "\"local_load\": [", "\"local_store\": ["};
        for (int k = 0; k < 4; ++k) {
            const char *p = strstr(line, keys[k]);
            unsigned long long width, count;
            int used;
            for (p = p ? p + strlen(keys[k]) : NULL;
                 p && sscanf(p, " [%llu, %llu]%n", &width, &count, &used) == 2;
                 p += used, p += *p == ',') {
                if (k >= 2) {
                    r->local_accesses += count;
                    continue;
                }
                *(k ? &r->stores : &r->loads) += count;
                *(k ? &r->store_bytes : &r->load_bytes) += width * count;
                if (width == 16)
                    r->wide_bytes += width * count;
            }
        }
    }
    fclose(f);
    return r->launches ? 0 : -1;
}

/* Runs one plan on the device and on the CPU path, compares every byte the output touches (its gaps
 * too, which neither may write), and reads the run's counts. */
static void run_pattern(model_env *env, const clsel_plan *plan, bench_model_result *r)
{
    model_tensor t[4] = {{0}};
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    uint8_t *expected = NULL;
    for (int op = 0; op < 4; ++op)
        if (tensor_make(env, plan, op, &seed, &t[op]) != 0) {
            snprintf(r->error, sizeof r->error, "out of memory");
            goto done;
        }
    expected = malloc(t[3].bytes + 1);
    if (!expected) {
        snprintf(r->error, sizeof r->error, "out of memory");
        goto done;
    }
    memcpy(expected, t[3].host, t[3].bytes);
    if (clsel_plan_run_cpu(plan, t[0].host + t[0].zero, t[1].host + t[1].zero,
                           t[2].host + t[2].zero, expected + t[3].zero) != CLSEL_SUCCESS) {
        snprintf(r->error, sizeof r->error, "CPU path: %s", clsel_last_error());
        goto done;
    }
    FILE *f = fopen(env->counts, "w"); /* this run's counts only */
    if (f)
        fclose(f);
    if (clsel_cl_enqueue(env->ctx, plan, env->queue, t[0].mem, t[0].zero, t[1].mem, t[1].zero,
                         t[2].mem, t[2].zero, t[3].mem, t[3].zero, 0, NULL,
                         NULL) != CLSEL_SUCCESS) {
        snprintf(r->error, sizeof r->error, "clsel_cl_enqueue: %s", clsel_last_error());
        goto done;
    }
    if (clEnqueueReadBuffer(env->queue, t[3].mem, CL_TRUE, 0, t[3].bytes, t[3].host, 0, NULL,
                            NULL) != CL_SUCCESS) {
        snprintf(r->error, sizeof r->error, "clEnqueueReadBuffer failed");
        goto done;
    }
    for (size_t i = 0; i < t[3].bytes; ++i)
        if (t[3].host[i] != expected[i]) {
            snprintf(r->error, sizeof r->error,
                     "output byte %zu (element [0] at byte %zu) is 0x%02x, the CPU path's 0x%02x",
                     i, t[3].zero, t[3].host[i], expected[i]);
            goto done;
        }
    if (read_counts(env->counts, r) != 0)
        snprintf(r->error, sizeof r->error,
                 "no counts in %s: is the device Oclgrind with clsel's plugin?", env->counts);
done:
    free(expected);
    for (int op = 0; op < 4; ++op) {
        free(t[op].host);
        if (t[op].mem)
            clReleaseMemObject(t[op].mem);
    }
}

static void finish(bench_model_result *r)
{
    const uint64_t accesses = r->loads + r->stores, bytes = r->load_bytes + r->store_bytes;
    r->ir_per_byte = r->out_bytes ? (double)r->instructions / (double)r->out_bytes : 0;
    r->bytes_per_access = accesses ? (double)bytes / (double)accesses : 0;
    r->wide_share = bytes ? (double)r->wide_bytes / (double)bytes : 0;
}

static void run_one(model_env *env, const char *name, const char *kind, const char *what,
                    clsel_dtype dtype, const clsel_shape shapes[3], const clsel_attrs *attrs,
                    const clsel_strides *strides, bench_model_result *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->what, sizeof r->what, "%s", what);
    r->kind = kind;
    r->dtype = dtype;
    clsel_plan *plan = NULL;
    if (clsel_plan_create_strided(dtype, &shapes[0], &shapes[1], &shapes[2], attrs, strides,
                                  &plan) != CLSEL_SUCCESS) {
        snprintf(r->error, sizeof r->error, "plan: %s", clsel_last_error());
        return;
    }
    r->elements = clsel_plan_output_count(plan);
    r->out_bytes = (uint64_t)clsel_plan_output_bytes(plan);
    run_pattern(env, plan, r);
    clsel_plan_destroy(plan);
    finish(r);
}

int bench_model(const bench_options *o, bench_model_report *report)
{
    model_env env;
    memset(report, 0, sizeof *report);
    if (env_open(&env, report->device, sizeof report->device) != 0) {
        env_close(&env);
        return -1;
    }
    const int count = o->sweep ? o->sweep : NAMED;
    for (int i = 0; i < count && report->count < BENCH_MAX_RESULTS; ++i) {
        bench_model_result *r = &report->results[report->count];
        if (o->sweep) {
            const bench_case *c = bench_sweep_case(o->seed, i, SWEEP_SIZE_MODEL, o->draw);
            if (!bench_selected(o, c))
                continue;
            const clsel_attrs attrs = bench_attrs(c);
            run_one(&env, c->name, "sweep", c->what, c->dtype, c->full, &attrs, NULL, r);
        } else {
            const model_case *m = &named[i];
            const bench_case selector = {.name = m->name};
            if (!bench_selected(o, &selector))
                continue;
            clsel_attrs attrs = clsel_attrs_default();
            attrs.broadcast = m->broadcast;
            attrs.axis = m->axis;
            attrs.cond_broadcast = m->cond_broadcast;
            clsel_strides strides = clsel_strides_default();
            strides.strided = m->strided;
            memcpy(strides.strides, m->strides, sizeof strides.strides);
            run_one(&env, m->name, m->kind, m->what, m->dtype, m->shapes, &attrs, &strides, r);
        }
        fprintf(stderr, "model %-20s %-4s %8.2f IR/B %6.2f B/access %5.1f%% wide%s%s\n", r->name,
                clsel_dtype_name(r->dtype), r->ir_per_byte, r->bytes_per_access,
                100 * r->wide_share, *r->error ? "  FAILED: " : "", r->error);
        ++report->count;
    }
    env_close(&env);
    return 0;
}

/* The summary over the patterns that ran: median and worst IR per output byte, fewest bytes per
 * access, the same-shape patterns' worst, the mean 16-byte share. */
typedef struct model_summary {
    size_t ran, failed;
    double median, worst, fewest_bytes, same_worst, wide_mean;
    const char *worst_name, *fewest_name;
} model_summary;

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void summarize(const bench_model_report *report, model_summary *s)
{
    memset(s, 0, sizeof *s);
    double *ir = malloc((report->count + 1) * sizeof *ir);
    if (!ir)
        return;
    s->fewest_bytes = 1e300;
    for (size_t i = 0; i < report->count; ++i) {
        const bench_model_result *r = &report->results[i];
        if (*r->error) {
            ++s->failed;
            continue;
        }
        ir[s->ran++] = r->ir_per_byte;
        s->wide_mean += r->wide_share;
        if (r->ir_per_byte > s->worst)
            s->worst = r->ir_per_byte, s->worst_name = r->name;
        if (r->bytes_per_access < s->fewest_bytes)
            s->fewest_bytes = r->bytes_per_access, s->fewest_name = r->name;
        if (strcmp(r->kind, "same") == 0 && r->ir_per_byte > s->same_worst)
            s->same_worst = r->ir_per_byte;
    }
    if (s->ran) {
        qsort(ir, s->ran, sizeof *ir, by_value);
        s->median = s->ran % 2 ? ir[s->ran / 2] : (ir[s->ran / 2 - 1] + ir[s->ran / 2]) / 2;
        s->wide_mean /= (double)s->ran;
    } else {
        s->fewest_bytes = 0;
    }
    free(ir);
}

void bench_model_print(const bench_model_report *report, const bench_options *o)
{
    printf("clsel's OpenCL kernels on %s, counted per output byte (clsel bench --model",
           report->device);
    if (o->sweep)
        printf(" --sweep %d --seed %llu --draw %s", o->sweep, (unsigned long long)o->seed,
               bench_sweep_draw_names[o->draw]);
    printf(")\n\n%-22s %-5s %-9s %9s %8s %8s %9s %8s %8s  %s\n", "pattern", "dtype", "class",
           "out bytes", "IR/B", "B/access", "16-byte", "loads/B", "launches", "what");
    for (size_t i = 0; i < report->count; ++i) {
        const bench_model_result *r = &report->results[i];
        if (*r->error) {
            printf("%-22s %-5s %-9s FAILED: %s (%s)\n", r->name, clsel_dtype_name(r->dtype),
                   r->kind, r->error, r->what);
            continue;
        }
        printf("%-22s %-5s %-9s %9llu %8.2f %8.2f %8.1f%% %8.3f %8d  %s\n", r->name,
               clsel_dtype_name(r->dtype), r->kind, (unsigned long long)r->out_bytes,
               r->ir_per_byte, r->bytes_per_access, 100 * r->wide_share,
               r->out_bytes ? (double)r->loads / (double)r->out_bytes : 0, r->launches, r->what);
    }
    model_summary s;
    summarize(report, &s);
    printf("\n%zu patterns ran, %zu failed. IR per output byte: median %.2f, worst %.2f (%s)",
           s.ran, s.failed, s.median, s.worst, s.worst_name ? s.worst_name : "-");
    if (s.same_worst > 0)
        printf(", same-shape worst %.2f", s.same_worst);
    printf("; fewest bytes per global access %.2f (%s); mean share of bytes in 16-byte accesses "
           "%.1f%%\n",
           s.fewest_bytes, s.fewest_name ? s.fewest_name : "-", 100 * s.wide_mean);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
    }
    fputc('"', f);
}

int bench_model_json(const char *path, const bench_model_report *report, const bench_options *o)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    model_summary s;
    summarize(report, &s);
    fputs("{\"device\": ", f);
    json_string(f, report->device);
    fprintf(
        f,
        ", \"set\": \"%s\", \"seed\": %llu, \"draw\": \"%s\", \"ran\": %zu, \"failed\": %zu, "
        "\"ir_per_byte_median\": %.4f, \"ir_per_byte_worst\": %.4f, \"same_shape_worst\": %.4f, "
        "\"fewest_bytes_per_access\": %.4f, \"wide_share_mean\": %.4f, \"patterns\": [",
        o->sweep ? "sweep" : "named", (unsigned long long)o->seed, bench_sweep_draw_names[o->draw],
        s.ran, s.failed, s.median, s.worst, s.same_worst, s.fewest_bytes, s.wide_mean);
    for (size_t i = 0; i < report->count; ++i) {
        const bench_model_result *r = &report->results[i];
        fprintf(f, "%s\n  {\"name\": ", i ? "," : "");
        json_string(f, r->name);
        fprintf(f, ", \"class\": \"%s\", \"dtype\": \"%s\", \"what\": ", r->kind,
                clsel_dtype_name(r->dtype));
        json_string(f, r->what);
        fprintf(f, ", \"error\": ");
        json_string(f, r->error);
        fprintf(f,
                ", \"out_bytes\": %llu, \"launches\": %d, \"work_items\": %llu, \"instructions\": "
                "%llu, "
                "\"loads\": %llu, \"stores\": %llu, \"load_bytes\": %llu, \"store_bytes\": %llu, "
                "\"wide_bytes\": %llu, \"local_accesses\": %llu, \"ir_per_byte\": %.4f, "
                "\"bytes_per_access\": %.4f, \"wide_share\": %.4f}",
                (unsigned long long)r->out_bytes, r->launches, (unsigned long long)r->work_items,
                (unsigned long long)r->instructions, (unsigned long long)r->loads,
                (unsigned long long)r->stores, (unsigned long long)r->load_bytes,
                (unsigned long long)r->store_bytes, (unsigned long long)r->wide_bytes,
                (unsigned long long)r->local_accesses, r->ir_per_byte, r->bytes_per_access,
                r->wide_share);
    }
    fputs("\n]}\n", f);
    return fclose(f) == 0 ? 0 : -1;
}
