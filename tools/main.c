/* main.c - the clsel command-line tool: dispatches to its commands. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"run", cmd_run, "run Select on three .npy files and write the result as .npy"},
    {"demo", cmd_demo, "run Select-1's example and two broadcast examples, and show them"},
    {"devices", cmd_devices, "list the OpenCL platforms and devices, and the one clsel would use"},
    {"bench", cmd_bench, "time Select against the device's copy bandwidth on the named cases"},
    {"kernels", cmd_kernels,
     "print the OpenCL C source (or build options) of one of clsel's programs"},
};

static void print_help(void)
{
    printf("usage: clsel COMMAND [options]\n"
           "       clsel --version | --help | COMMAND --help\n\n"
           "Select-1: out = cond ? then : else, with numpy, none or pdpd broadcasting,\n"
           "bit-exact, on an OpenCL device or the CPU.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        printf("  %-8s %s\n", commands[i].name, commands[i].summary);
    printf("\nenvironment: CLSEL_DEVICE=auto|cpu|opencl, CLSEL_PLATFORM=N, CLSEL_DEVICE_INDEX=N\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "clsel: missing command\nTry 'clsel --help'.\n");
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("clsel %s\n", clsel_version());
        return CLI_OK;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_help();
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "clsel: unknown command '%s'\nTry 'clsel --help'.\n", argv[1]);
    return CLI_USAGE;
}
