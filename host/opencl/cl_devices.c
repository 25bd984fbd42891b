/* cl_devices.c - device enumeration, AUTO's order of preference, clsel_list_devices. */
#include "opencl/cl_devices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

/* From cl_ext.h (cl_khr_icd): the ICD loader found no platform. */
#define CLSEL_PLATFORM_NOT_FOUND_KHR (-1001)

clsel_status clsel_priv_enumerate(const clsel_cl_api *cl, clsel_priv_device_list *list)
{
    memset(list, 0, sizeof *list);
    cl_int err = cl->clGetPlatformIDs(MAX_PLATFORMS, list->platforms, &list->num_platforms);
    if (err == CLSEL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && list->num_platforms == 0))
        return clsel_priv_fail(CLSEL_ERROR_NO_DEVICE, "no OpenCL platform is installed");
    if (err != CL_SUCCESS)
        return clsel_priv_fail_cl(CLSEL_ERROR_NO_DEVICE, err, "clGetPlatformIDs failed");
    if (list->num_platforms > MAX_PLATFORMS)
        list->num_platforms = MAX_PLATFORMS;
    for (cl_uint p = 0; p < list->num_platforms; ++p) {
        cl_uint n = 0;
        if (cl->clGetDeviceIDs(list->platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES_PER_PLATFORM,
                               list->devices[p], &n) != CL_SUCCESS)
            n = 0; /* CL_DEVICE_NOT_FOUND: a platform without devices */
        list->num_devices[p] = n > MAX_DEVICES_PER_PLATFORM ? MAX_DEVICES_PER_PLATFORM : n;
    }
    return CLSEL_SUCCESS;
}

/* Reads a non-negative integer from the environment: -1 when unset, -2 when malformed. */
static long env_index(const char *name)
{
    const char *text = getenv(name);
    if (!text || !*text)
        return -1;
    char *end = NULL;
    long value = strtol(text, &end, 10);
    return (*end || value < 0) ? -2 : value;
}

clsel_status clsel_priv_auto_candidates(const clsel_cl_api *cl, const clsel_priv_device_list *list,
                                        int accelerators_only, clsel_priv_candidates *out)
{
    out->count = 0;
    long want_platform = env_index("CLSEL_PLATFORM"), want_device = env_index("CLSEL_DEVICE_INDEX");
    if (want_platform == -2 || want_device == -2)
        return clsel_priv_fail(
            CLSEL_ERROR_INVALID_ARGUMENT,
            "CLSEL_PLATFORM and CLSEL_DEVICE_INDEX must be non-negative integers");
    if (want_platform >= (long)list->num_platforms)
        return clsel_priv_fail(CLSEL_ERROR_NO_DEVICE,
                               "CLSEL_PLATFORM=%ld, but there are %u platforms", want_platform,
                               (unsigned)list->num_platforms);
    if (want_device >= 0) {
        cl_uint p = want_platform >= 0 ? (cl_uint)want_platform : 0;
        if (want_device >= (long)list->num_devices[p])
            return clsel_priv_fail(CLSEL_ERROR_NO_DEVICE,
                                   "CLSEL_DEVICE_INDEX=%ld, but platform %u has %u devices",
                                   want_device, (unsigned)p, (unsigned)list->num_devices[p]);
        out->devices[out->count++] = list->devices[p][want_device];
        return CLSEL_SUCCESS;
    }
    if (want_platform >= 0)
        accelerators_only = 0; /* a platform the caller named: all its devices */
    cl_device_id passed_over = NULL;
    for (int pass = 0; pass < 2; ++pass) /* pass 0: GPUs and accelerators; 1: the rest */
        for (cl_uint p = 0; p < list->num_platforms; ++p) {
            if (want_platform >= 0 && (long)p != want_platform)
                continue;
            for (cl_uint d = 0; d < list->num_devices[p] && out->count < MAX_CANDIDATES; ++d) {
                const cl_device_id device = list->devices[p][d];
                cl_device_type type = 0;
                cl_bool available = CL_FALSE;
                cl->clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
                cl->clGetDeviceInfo(device, CL_DEVICE_AVAILABLE, sizeof available, &available,
                                    NULL);
                const int preferred =
                    (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) != 0;
                if (available != CL_TRUE || preferred != (pass == 0))
                    continue;
                if (pass == 1 && accelerators_only && !passed_over)
                    passed_over = device;
                if (pass == 0 || !accelerators_only)
                    out->devices[out->count++] = device;
            }
        }
    if (out->count == 0 && passed_over) {
        char name[128] = "";
        cl->clGetDeviceInfo(passed_over, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
        return clsel_priv_fail(
            CLSEL_ERROR_NO_DEVICE,
            "the OpenCL devices here are CPU devices (%s): the CPU path runs on the same cores and "
            "memory without copying to and from a device (ask for CLSEL_DEVICE_OPENCL, or name one "
            "with CLSEL_PLATFORM, to use them)",
            name);
    }
    return out->count ? CLSEL_SUCCESS
                      : clsel_priv_fail(CLSEL_ERROR_NO_DEVICE, "no available OpenCL device");
}

static void fill_info(const clsel_cl_api *cl, const clsel_priv_device_list *list, cl_uint p,
                      cl_uint d, cl_device_id auto_choice, clsel_device_info *info)
{
    const cl_platform_id platform = list->platforms[p];
    const cl_device_id device = list->devices[p][d];
    cl_device_type type = 0;
    cl_uint units = 0;
    cl_bool available = CL_FALSE;
    char extensions[8192] = "";
    memset(info, 0, sizeof *info);
    info->platform_index = (int32_t)p;
    info->device_index = (int32_t)d;
    cl->clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof info->platform_name - 1,
                          info->platform_name, NULL);
    cl->clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof info->platform_version - 1,
                          info->platform_version, NULL);
    cl->clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof info->name - 1, info->name, NULL);
    cl->clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof info->version - 1, info->version, NULL);
    cl->clGetDeviceInfo(device, CL_DRIVER_VERSION, sizeof info->driver_version - 1,
                        info->driver_version, NULL);
    cl->clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    cl->clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(cl_ulong),
                        &info->global_mem_bytes, NULL);
    cl->clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(cl_ulong),
                        &info->max_alloc_bytes, NULL);
    cl->clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    cl->clGetDeviceInfo(device, CL_DEVICE_AVAILABLE, sizeof available, &available, NULL);
    cl->clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof extensions - 1, extensions, NULL);
    snprintf(info->type, sizeof info->type, "%s",
             type & CL_DEVICE_TYPE_GPU           ? "GPU"
             : type & CL_DEVICE_TYPE_ACCELERATOR ? "accelerator"
             : type & CL_DEVICE_TYPE_CPU         ? "CPU"
                                                 : "other");
    info->compute_units = (int32_t)units;
    info->available = available == CL_TRUE;
    info->fp16 = strstr(extensions, "cl_khr_fp16") != NULL;
    info->fp64 = strstr(extensions, "cl_khr_fp64") != NULL;
    info->auto_choice = device == auto_choice;
}

clsel_status clsel_list_devices(clsel_device_info *devices, int32_t capacity, int32_t *count)
{
    if (!count || (capacity > 0 && !devices))
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_list_devices: %s is NULL",
                               count ? "devices" : "count");
    *count = 0;
    const clsel_cl_api *cl = clsel_priv_cl();
    if (!cl)
        return CLSEL_ERROR_NO_DEVICE;
    clsel_priv_device_list list;
    clsel_status st = clsel_priv_enumerate(cl, &list);
    if (st != CLSEL_SUCCESS)
        return st;
    clsel_priv_candidates order;
    const int found = clsel_priv_auto_candidates(cl, &list, 1, &order) == CLSEL_SUCCESS;
    cl_device_id first = found && order.count > 0 ? order.devices[0] : NULL;
    for (cl_uint p = 0; p < list.num_platforms; ++p)
        for (cl_uint d = 0; d < list.num_devices[p]; ++d, ++*count)
            if (*count < capacity)
                fill_info(cl, &list, p, d, first, &devices[*count]);
    return CLSEL_SUCCESS;
}
