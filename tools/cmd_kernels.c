/* cmd_kernels.c - clsel kernels: the exact OpenCL C source of the library's kernels, for
 * compiling them offline and for the code-generation check (tests/system/gpu_codegen.py);
 * with --plan, the kernels a plan launches (name and build options) and how they move its
 * tensors. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "clsel_cl.h"

static const char help[] =
    "usage: clsel kernels\n"
    "       clsel kernels --plan DTYPE COND THEN ELSE [--broadcast numpy|none|pdpd] [--axis N]\n"
    "                     [--cond-broadcast one-way|bidirectional]\n\n"
    "Prints the OpenCL C source of clsel's kernels exactly as the library builds it: one\n"
    "source, whose build options make one kernel (an element width, the dims it walks, how\n"
    "it reads each input and writes the output). --plan prints, for a plan over fresh\n"
    "buffers (shapes as 2,3,4 or {2,3,4}, {} for a scalar), how the kernels read and write\n"
    "each tensor, the share of the 16-byte items that cross a row and of each tensor's\n"
    "bytes that move in single 16-byte accesses, then one line per kernel it launches:\n"
    "'kernel NAME OPTIONS'. For example, NVIDIA PTX of what an f32 plan launches (clang 15\n"
    "and libclc, Debian's clang-15 and libclc-15):\n\n"
    "  clsel kernels > select.cl\n"
    "  clsel kernels --plan f32 1000,5 1000,5 1000,1\n"
    "  clang-15 -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -O3 OPTIONS \\\n"
    "        -Xclang -mlink-bitcode-file -Xclang /usr/lib/clc/nvptx64--nvidiacl.bc -S select.cl\n";

/* --plan: the plan of the arguments after it, and its access line. */
static int describe_plan(int argc, char **argv, int first)
{
    if (argc - first < 4)
        return cli_usage("kernels", "--plan needs a dtype and three shapes");
    const clsel_dtype dtype = clsel_dtype_from_name(argv[first]);
    if (dtype == CLSEL_DTYPE_INVALID)
        return cli_usage("kernels", "unknown dtype '%s'", argv[first]);
    clsel_shape shapes[3];
    for (int k = 0; k < 3; ++k)
        if (cli_parse_shape(argv[first + 1 + k], &shapes[k]) != 0)
            return cli_usage("kernels", "'%s' is not a shape (2,3,4 or {2,3,4}; {} for a scalar)",
                             argv[first + 1 + k]);
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
            if (cli_parse_int64(value, &axis) != 0)
                return cli_usage("kernels", "--axis needs a number");
            attrs.axis = axis;
        } else {
            return cli_usage("kernels", "unexpected argument '%s'", argv[i]);
        }
    }
    clsel_plan *plan = NULL;
    const clsel_status st =
        clsel_plan_create(dtype, &shapes[0], &shapes[1], &shapes[2], &attrs, &plan);
    if (st != CLSEL_SUCCESS)
        return cli_fail("%s: %s", clsel_status_string(st), clsel_last_error());
    char text[2048];
    if (clsel_cl_plan_access(plan, NULL, text, sizeof text) == 0)
        snprintf(text, sizeof text, "an empty output: no launch");
    printf("%s\n", text);
    clsel_cl_plan_kernels(plan, text, sizeof text);
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        const int length = end ? (int)(end - line) : (int)strlen(line);
        printf("kernel %.*s\n", length, line);
        line += length + (end != NULL);
    }
    clsel_plan_destroy(plan);
    return CLI_OK;
}

int cmd_kernels(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            return CLI_OK;
        }
        if (strcmp(argv[i], "--plan") == 0)
            return describe_plan(argc, argv, i + 1);
        return cli_usage("kernels", "unexpected argument '%s'", argv[i]);
    }
    const char *source = NULL;
    size_t size = 0;
    if (clsel_cl_kernel_source(&source, &size) != CLSEL_SUCCESS)
        return cli_fail("%s", clsel_last_error());
    fwrite(source, 1, size, stdout);
    return CLI_OK;
}
