/* cmd_kernels.c - clsel kernels: the exact OpenCL C source and build options of one of
 * the library's programs, for compiling it offline and for the code-generation check
 * (tests/system/gpu_codegen.py); or, with --plan, how the kernels move a plan's tensors. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "clsel_cl.h"

static const char help[] =
    "usage: clsel kernels [--width 1|2|4|8] [--aligned 0|1] [--options]\n"
    "       clsel kernels --plan DTYPE COND THEN ELSE [--broadcast numpy|none|pdpd] [--axis N]\n"
    "                     [--cond-broadcast one-way|bidirectional]\n\n"
    "Prints the OpenCL C source of one of clsel's programs exactly as the library builds\n"
    "it (default: element width 4, aligned form), or with --options only its\n"
    "clBuildProgram options. A program has two forms: --aligned 1 for launches whose every\n"
    "16-byte item lies in one row and on 16-byte boundaries, 0 for the others. For\n"
    "example, NVIDIA PTX of the f32 kernels:\n\n"
    "  clsel kernels --width 4 > select_w4.cl\n"
    "  clang -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -O3 $(clsel kernels --width 4 --options) \\\n"
    "        -Xclang -mlink-bitcode-file -Xclang /usr/lib/clc/nvptx64--nvidiacl.bc -S select_w4.cl\n\n"
    "--plan says how the kernels read and write each tensor of a plan (shapes as 2,3,4 or\n"
    "{2,3,4}, {} for a scalar) over fresh buffers: the program form, the share of the\n"
    "work-items that cross a row, and the share of each tensor's bytes that move in\n"
    "single 16-byte accesses, for example:\n\n"
    "  clsel kernels --plan f32 1000,5 1000,5 1000,1\n";

/* --plan: the plan of the arguments after it, and its access line. */
static int describe_plan(int argc, char **argv, int first)
{
    if (argc - first < 4) return cli_usage("kernels", "--plan needs a dtype and three shapes");
    const clsel_dtype dtype = clsel_dtype_from_name(argv[first]);
    if (dtype == CLSEL_DTYPE_INVALID) return cli_usage("kernels", "unknown dtype '%s'", argv[first]);
    clsel_shape shapes[3];
    for (int k = 0; k < 3; ++k)
        if (cli_parse_shape(argv[first + 1 + k], &shapes[k]) != 0)
            return cli_usage("kernels", "'%s' is not a shape (2,3,4 or {2,3,4}; {} for a scalar)", argv[first + 1 + k]);
    clsel_attrs attrs = clsel_attrs_default();
    for (int i = first + 4; i < argc; ++i) {
        const char *value = NULL;
        int64_t axis;
        if (cli_option(argc, argv, &i, "--broadcast", &value)) {
            if (cli_parse_broadcast(value, &attrs.broadcast) != 0)
                return cli_usage("kernels", "--broadcast must be numpy, none or pdpd");
        } else if (cli_option(argc, argv, &i, "--cond-broadcast", &value)) {
            if (cli_parse_cond_broadcast(value, &attrs.cond_broadcast) != 0)
                return cli_usage("kernels", "--cond-broadcast must be one-way or bidirectional");
        } else if (cli_option(argc, argv, &i, "--axis", &value)) {
            if (cli_parse_int64(value, &axis) != 0) return cli_usage("kernels", "--axis needs a number");
            attrs.axis = axis;
        } else {
            return cli_usage("kernels", "unexpected argument '%s'", argv[i]);
        }
    }
    clsel_plan *plan = NULL;
    const clsel_status st = clsel_plan_create(dtype, &shapes[0], &shapes[1], &shapes[2], &attrs, &plan);
    if (st != CLSEL_SUCCESS) return cli_fail("%s: %s", clsel_status_string(st), clsel_last_error());
    char text[1024];
    if (clsel_cl_plan_access(plan, NULL, text, sizeof text) == 0) snprintf(text, sizeof text, "an empty output: no launch");
    printf("%s\n", text);
    clsel_plan_destroy(plan);
    return CLI_OK;
}

int cmd_kernels(int argc, char **argv)
{
    int64_t width = 4, aligned = 1;
    int options_only = 0;
    for (int i = 1; i < argc; ++i) {
        const char *value = NULL;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            return CLI_OK;
        } else if (strcmp(argv[i], "--plan") == 0) {
            return describe_plan(argc, argv, i + 1);
        } else if (strcmp(argv[i], "--options") == 0) {
            options_only = 1;
        } else if (cli_option(argc, argv, &i, "--width", &value)) {
            if (!value || cli_parse_int64(value, &width) != 0)
                return cli_usage("kernels", "--width needs a number of bytes (1, 2, 4 or 8)");
        } else if (cli_option(argc, argv, &i, "--aligned", &value)) {
            if (!value || cli_parse_int64(value, &aligned) != 0)
                return cli_usage("kernels", "--aligned needs 0 or 1");
        } else {
            return cli_usage("kernels", "unexpected argument '%s'", argv[i]);
        }
    }
    const char *source = NULL;
    size_t size = 0;
    char options[128];
    if (width < 1 || width > 8 || aligned < 0 || aligned > 1 ||
        clsel_cl_program_text((size_t)width, (int)aligned, &source, &size, options, sizeof options) != CLSEL_SUCCESS)
        return cli_usage("kernels", "%s",
                         width < 1 || width > 8 || aligned < 0 || aligned > 1 ? "no such program" : clsel_last_error());
    if (options_only)
        printf("%s\n", options);
    else
        fwrite(source, 1, size, stdout);
    return CLI_OK;
}
