/* cl_devices.h - this machine's OpenCL platforms and devices, and the order CLSEL_DEVICE_AUTO tries
 * them in. */
#ifndef CLSEL_HOST_CL_DEVICES_H
#define CLSEL_HOST_CL_DEVICES_H

#include "opencl/cl_api.h"

enum {
    MAX_PLATFORMS = 16,
    MAX_DEVICES_PER_PLATFORM = 32,
    MAX_CANDIDATES = 64
};

typedef struct clsel_priv_device_list {
    cl_uint num_platforms;
    cl_platform_id platforms[MAX_PLATFORMS];
    cl_uint num_devices[MAX_PLATFORMS];
    cl_device_id devices[MAX_PLATFORMS][MAX_DEVICES_PER_PLATFORM];
} clsel_priv_device_list;

/* Every platform and device. CLSEL_ERROR_NO_DEVICE when there is no platform. */
clsel_status clsel_priv_enumerate(const clsel_cl_api *cl, clsel_priv_device_list *list);

/* Devices in the order tried: the one CLSEL_PLATFORM / CLSEL_DEVICE_INDEX name, else every
 * available GPU or accelerator, then (unless `accelerators_only`) every other available one.
 * CLSEL_ERROR_NO_DEVICE when there is none, naming with `accelerators_only` the CPU-type devices
 * passed over. */
typedef struct clsel_priv_candidates {
    cl_device_id devices[MAX_CANDIDATES];
    int count;
} clsel_priv_candidates;
clsel_status clsel_priv_auto_candidates(const clsel_cl_api *cl, const clsel_priv_device_list *list,
                                        int accelerators_only, clsel_priv_candidates *out);

#endif
