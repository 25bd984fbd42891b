/* cmd_kernels.c - clsel kernels: the exact OpenCL C source and build options of one of
 * the library's programs, for compiling it offline and for the code-generation check
 * (tests/system/gpu_codegen.py). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "clsel_cl.h"

static const char help[] =
    "usage: clsel kernels [--family blocks|vectors] [--width 1|2|4|8] [--aligned 0|1] [--options]\n\n"
    "Prints the OpenCL C source of one of clsel's programs exactly as the library builds\n"
    "it (default: the vectors family, the GPU one, element width 4, aligned form), or with\n"
    "--options only its clBuildProgram options. The vectors family has two forms: --aligned 1\n"
    "for runs whose every 16-byte item lies on 16-byte boundaries, 0 for the others; the\n"
    "blocks family (CPU devices) has only 0. For example, NVIDIA PTX of the f32 kernels:\n\n"
    "  clsel kernels --width 4 > select_w4.cl\n"
    "  clang -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -O3 $(clsel kernels --width 4 --options) \\\n"
    "        -Xclang -mlink-bitcode-file -Xclang /usr/lib/clc/nvptx64--nvidiacl.bc -S select_w4.cl\n";

static const struct family_name {
    const char *name;
    clsel_cl_family family;
} family_names[] = {{"blocks", CLSEL_CL_FAMILY_BLOCKS}, {"vectors", CLSEL_CL_FAMILY_VECTORS}};

int cmd_kernels(int argc, char **argv)
{
    clsel_cl_family family = CLSEL_CL_FAMILY_VECTORS;
    int64_t width = 4, aligned = -1;
    int options_only = 0;
    for (int i = 1; i < argc; ++i) {
        const char *value = NULL;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            return CLI_OK;
        } else if (strcmp(argv[i], "--options") == 0) {
            options_only = 1;
        } else if (cli_option(argc, argv, &i, "--family", &value)) {
            size_t k = 0;
            while (k < sizeof family_names / sizeof family_names[0] && (!value || strcmp(value, family_names[k].name)))
                ++k;
            if (k == sizeof family_names / sizeof family_names[0])
                return cli_usage("kernels", "--family must be blocks or vectors, not '%s'", value ? value : "");
            family = family_names[k].family;
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
    if (aligned < 0) aligned = family == CLSEL_CL_FAMILY_VECTORS;
    const char *source = NULL;
    size_t size = 0;
    char options[128];
    if (width < 1 || width > 8 || aligned > 1 ||
        clsel_cl_program_text(family, (size_t)width, (int)aligned, &source, &size, options, sizeof options) !=
            CLSEL_SUCCESS)
        return cli_usage("kernels", "%s", width < 1 || width > 8 || aligned > 1 ? "no such program" : clsel_last_error());
    if (options_only)
        printf("%s\n", options);
    else
        fwrite(source, 1, size, stdout);
    return CLI_OK;
}
