/* demo.c - clsel demo: Select-1's own example and two broadcast examples, run through
 * the public runtime API and printed with the device that ran them. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct example {
    const char *title;
    clsel_attrs attrs;
    clsel_shape shape[3]; /* cond, then, else */
    const uint8_t *cond;
    const int32_t *then_data, *else_data;
} example;

/* Prints a row-major tensor as nested brackets: [[a, b], [c, d]]. */
static void print_tensor(FILE *out, const clsel_shape *s, const void *data, int is_cond)
{
    int64_t count = 1, index[CLSEL_MAX_RANK] = {0};
    for (int d = 0; d < s->rank; ++d)
        count *= s->dims[d];
    for (int d = 0; d < s->rank; ++d)
        fputc('[', out);
    for (int64_t i = 0; i < count; ++i) {
        if (is_cond)
            fputs(((const uint8_t *)data)[i] ? "T" : "F", out);
        else
            fprintf(out, "%d", (int)((const int32_t *)data)[i]);
        int closed = 0;
        for (int d = s->rank - 1; d >= 0; --d) {
            if (++index[d] < s->dims[d])
                break;
            index[d] = 0;
            fputc(']', out);
            ++closed;
        }
        if (i + 1 < count) {
            fputs(", ", out);
            for (int k = 0; k < closed; ++k)
                fputc('[', out);
        }
    }
    if (count == 0)
        for (int d = 0; d < s->rank; ++d)
            fputc(']', out);
    fputc('\n', out);
}

static void print_labelled(FILE *out, const char *label, const clsel_shape *s, const void *data,
                           int is_cond)
{
    char dims[CLI_SHAPE_TEXT_MAX];
    fprintf(out, "  %-4s %-9s %-8s ", label, cli_shape_text(s, dims), is_cond ? "boolean" : "i32");
    print_tensor(out, s, data, is_cond);
}

static int run_example(clsel_runtime *rt, const example *ex, FILE *out)
{
    clsel_plan *plan = NULL;
    clsel_status st = clsel_plan_create(CLSEL_I32, &ex->shape[0], &ex->shape[1], &ex->shape[2],
                                        &ex->attrs, &plan);
    int32_t result[64];
    if (st == CLSEL_SUCCESS && clsel_plan_output_count(plan) > 64)
        st = CLSEL_ERROR_INVALID_SHAPE;
    if (st == CLSEL_SUCCESS)
        st = clsel_runtime_run(rt, plan, ex->cond, ex->then_data, ex->else_data, result);
    if (st != CLSEL_SUCCESS) {
        cli_fail("demo: %s: %s: %s", ex->title, clsel_status_string(st), clsel_last_error());
        clsel_plan_destroy(plan);
        return CLI_FAILED;
    }
    fprintf(out, "\n%s\n", ex->title);
    print_labelled(out, "cond", &ex->shape[0], ex->cond, 1);
    print_labelled(out, "then", &ex->shape[1], ex->then_data, 0);
    print_labelled(out, "else", &ex->shape[2], ex->else_data, 0);
    print_labelled(out, "out", clsel_plan_output_shape(plan), result, 0);
    clsel_plan_destroy(plan);
    return 0;
}

static int demo_run(clsel_device device, FILE *out)
{
    static const uint8_t spec_cond[6] = {0, 0, 1, 0, 1, 1};
    static const int32_t spec_then[6] = {-1, 0, 1, 2, 3, 4}, spec_else[6] = {11, 10, 9, 8, 7, 6};
    static const uint8_t mask_cond[8] = {1, 0, 0, 1, 1, 1, 0, 0};
    static const int32_t mask_then[8] = {1, 2, 3, 4, 5, 6, 7, 8}, mask_else[1] = {0};
    static const uint8_t rows_cond[2] = {1, 0};
    static const int32_t rows_then[6] = {1, 2, 3, 4, 5, 6}, rows_else[2] = {-1, -2};

    example examples[3];
    memset(examples, 0, sizeof examples);
    examples[0] = (example){"Select-1 example (numpy, same shapes)",
                            clsel_attrs_default(),
                            {{2, {3, 2}}, {2, {3, 2}}, {2, {3, 2}}},
                            spec_cond,
                            spec_then,
                            spec_else};
    examples[1] = (example){"numpy broadcast: scalar else (masked fill)",
                            clsel_attrs_default(),
                            {{2, {2, 4}}, {2, {2, 4}}, {0, {0}}},
                            mask_cond,
                            mask_then,
                            mask_else};
    clsel_attrs pdpd = clsel_attrs_default();
    pdpd.broadcast = CLSEL_BROADCAST_PDPD;
    pdpd.axis = 0;
    examples[2] =
        (example){"pdpd broadcast, axis 0: cond {2} and else {2} pick whole rows of then {2,3}",
                  pdpd,
                  {{1, {2}}, {2, {2, 3}}, {1, {2}}},
                  rows_cond,
                  rows_then,
                  rows_else};

    clsel_runtime *rt = NULL;
    clsel_status st = clsel_runtime_create(device, &rt);
    if (st != CLSEL_SUCCESS)
        return cli_fail("demo: %s: %s", clsel_status_string(st), clsel_last_error());
    fprintf(out, "clsel %s: out = cond ? then : else\n", clsel_version());
    fprintf(out, "device: %s (%s)\n", clsel_runtime_device_name(rt),
            clsel_runtime_device(rt) == CLSEL_DEVICE_OPENCL ? "OpenCL" : "CPU path");
    if (*clsel_runtime_fallback_reason(rt))
        fprintf(out, "  (no OpenCL: %s)\n", clsel_runtime_fallback_reason(rt));
    int failed = 0;
    for (int i = 0; i < 3; ++i)
        failed |= run_example(rt, &examples[i], out);
    clsel_runtime_destroy(rt);
    return failed ? CLI_FAILED : CLI_OK;
}

static const char help[] =
    "usage: clsel demo [--device auto|cpu|opencl]\n\n"
    "Runs Select-1's own example, a numpy broadcast with a scalar else (masked fill) and a\n"
    "pdpd broadcast with an axis, and prints inputs, outputs and the device that ran them.\n";

int cmd_demo(int argc, char **argv)
{
    clsel_device device = CLSEL_DEVICE_AUTO;
    for (int i = 1; i < argc; ++i) {
        const char *value = NULL;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            return CLI_OK;
        }
        if (!cli_option(argc, argv, &i, "--device", &value))
            return cli_usage("demo", "unknown argument '%s'", argv[i]);
        if (cli_parse_device(value, &device))
            return cli_usage("demo", "--device must be auto, cpu or opencl, not '%s'",
                             value ? value : "");
    }
    return demo_run(device, stdout);
}
