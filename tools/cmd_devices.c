/* cmd_devices.c - clsel devices: every OpenCL platform and device, and AUTO's choice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char help[] =
    "usage: clsel devices\n\n"
    "Lists every OpenCL platform and device (name, version, memory, largest allocation,\n"
    "fp16/fp64 support) and marks with '*' the device that --device auto tries first.\n"
    "clsel needs neither fp16 nor fp64: every dtype runs on every device.\n";

static double gib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0 * 1024.0);
}

int cmd_devices(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            return CLI_OK;
        }
        return cli_usage("devices", "unexpected argument '%s'", argv[i]);
    }
    int32_t count = 0;
    clsel_status st = clsel_list_devices(NULL, 0, &count);
    clsel_device_info *devices = NULL;
    if (st == CLSEL_SUCCESS && count > 0) {
        devices = calloc((size_t)count, sizeof *devices);
        if (!devices)
            return cli_fail("out of memory");
        st = clsel_list_devices(devices, count, &count);
    }
    if (st != CLSEL_SUCCESS || count == 0) {
        printf("No OpenCL device: %s.\nclsel will use its CPU path (--device auto and cpu work; "
               "--device opencl "
               "fails).\n",
               st != CLSEL_SUCCESS ? clsel_last_error() : "the platforms list no devices");
        free(devices);
        return CLI_OK;
    }
    int32_t last_platform = -1, chosen = 0;
    for (int32_t i = 0; i < count; ++i) {
        const clsel_device_info *d = &devices[i];
        if (d->platform_index != last_platform) {
            printf("platform %d: %s (%s)\n", (int)d->platform_index, d->platform_name,
                   d->platform_version);
            last_platform = d->platform_index;
        }
        chosen |= d->auto_choice;
        printf("%s device %d: %s [%s]%s\n", d->auto_choice ? "*" : " ", (int)d->device_index,
               d->name, d->type, d->available ? "" : " (not available)");
        printf("      %s, driver %s, %d compute units\n", d->version, d->driver_version,
               (int)d->compute_units);
        printf("      memory %.2f GiB, max allocation %.2f GiB, fp16 %s, fp64 %s\n",
               gib(d->global_mem_bytes), gib(d->max_alloc_bytes), d->fp16 ? "yes" : "no",
               d->fp64 ? "yes" : "no");
    }
    if (chosen)
        printf("* = the device --device auto tries first (CLSEL_PLATFORM / CLSEL_DEVICE_INDEX "
               "choose another)\n");
    else
        printf("--device auto uses the CPU path here: %s\n", clsel_last_error());
    free(devices);
    return CLI_OK;
}
