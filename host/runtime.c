/* runtime.c - clsel_runtime: picks an OpenCL device (or the CPU path) and runs plans on
 * host memory there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cl_context.h"
#include "error.h"
#include "runtime.h"

/* From cl_ext.h (cl_khr_icd): the ICD loader found no platform. */
#define CLSEL_PLATFORM_NOT_FOUND_KHR (-1001)

/* Reads a non-negative integer from the environment: -1 when unset, -2 when malformed. */
static long env_index(const char *name)
{
    const char *text = getenv(name);
    if (!text || !*text) return -1;
    char *end = NULL;
    long value = strtol(text, &end, 10);
    return (*end || value < 0) ? -2 : value;
}

static clsel_status resolve_request(clsel_device want, clsel_device *resolved)
{
    if ((unsigned)want > CLSEL_DEVICE_OPENCL)
        return clsel_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                          "unknown device %d (auto = 0, cpu = 1, opencl = 2)", (int)want);
    *resolved = want;
    const char *env = getenv("CLSEL_DEVICE");
    if (want != CLSEL_DEVICE_AUTO || !env || !*env) return CLSEL_SUCCESS;
    static const struct {
        const char *name;
        clsel_device device;
    } names[] = {{"auto", CLSEL_DEVICE_AUTO}, {"cpu", CLSEL_DEVICE_CPU}, {"opencl", CLSEL_DEVICE_OPENCL}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (strcmp(env, names[i].name) == 0) {
            *resolved = names[i].device;
            return CLSEL_SUCCESS;
        }
    return clsel_fail(CLSEL_ERROR_INVALID_ARGUMENT, "CLSEL_DEVICE=%s is not one of auto, cpu, opencl", env);
}

/* Makes a context, an in-order queue and a clsel_cl_context on one device. */
static clsel_status open_device(clsel_runtime *rt, cl_device_id device)
{
    const clsel_cl_api *cl = rt->cl;
    cl_int err = CL_SUCCESS;
    rt->context = cl->clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (!rt->context || err != CL_SUCCESS) {
        rt->context = NULL;
        return clsel_fail_cl(CLSEL_ERROR_OPENCL, err, "clCreateContext failed");
    }
    rt->queue = cl->clCreateCommandQueue(rt->context, device, 0, &err);
    if (!rt->queue || err != CL_SUCCESS) {
        rt->queue = NULL;
        return clsel_fail_cl(CLSEL_ERROR_OPENCL, err, "clCreateCommandQueue failed");
    }
    clsel_status st = clsel_cl_context_create(rt->context, device, &rt->ctx);
    if (st != CLSEL_SUCCESS) return st;
    rt->device = device;
    rt->kind = CLSEL_DEVICE_OPENCL;
    snprintf(rt->name, sizeof rt->name, "%s", clsel_cl_device_name(rt->ctx));
    return CLSEL_SUCCESS;
}

static void close_device(clsel_runtime *rt)
{
    clsel_cl_context_destroy(rt->ctx);
    if (rt->queue) rt->cl->clReleaseCommandQueue(rt->queue);
    if (rt->context) rt->cl->clReleaseContext(rt->context);
    rt->ctx = NULL;
    rt->queue = NULL;
    rt->context = NULL;
    rt->device = NULL;
}

/* Candidates in order of preference: the device CLSEL_PLATFORM / CLSEL_DEVICE_INDEX
 * name, or else every available GPU or accelerator, then every other device. */
typedef struct candidates {
    cl_device_id devices[64];
    int count;
} candidates;

static clsel_status list_candidates(const clsel_cl_api *cl, candidates *out)
{
    cl_platform_id platforms[16];
    cl_uint num_platforms = 0;
    out->count = 0;
    cl_int err = cl->clGetPlatformIDs(16, platforms, &num_platforms);
    if (err == CLSEL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && num_platforms == 0))
        return clsel_fail(CLSEL_ERROR_NO_DEVICE, "no OpenCL platform is installed");
    if (err != CL_SUCCESS) return clsel_fail_cl(CLSEL_ERROR_NO_DEVICE, err, "clGetPlatformIDs failed");
    if (num_platforms > 16) num_platforms = 16;

    long want_platform = env_index("CLSEL_PLATFORM"), want_device = env_index("CLSEL_DEVICE_INDEX");
    if (want_platform == -2 || want_device == -2)
        return clsel_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                          "CLSEL_PLATFORM and CLSEL_DEVICE_INDEX must be non-negative integers");
    if (want_platform >= (long)num_platforms)
        return clsel_fail(CLSEL_ERROR_NO_DEVICE, "CLSEL_PLATFORM=%ld, but there are %u platforms",
                          want_platform, (unsigned)num_platforms);

    if (want_device >= 0 && want_platform < 0) want_platform = 0;

    for (int pass = 0; pass < 2; ++pass) { /* pass 0: GPUs and accelerators; 1: the rest */
        for (cl_uint p = 0; p < num_platforms; ++p) {
            if (want_platform >= 0 && (long)p != want_platform) continue;
            cl_device_id devices[32];
            cl_uint n = 0;
            if (cl->clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 32, devices, &n) != CL_SUCCESS) n = 0;
            if (n > 32) n = 32;
            if (want_device >= 0) {
                if (want_device >= (long)n)
                    return clsel_fail(CLSEL_ERROR_NO_DEVICE,
                                      "CLSEL_DEVICE_INDEX=%ld, but platform %u has %u devices",
                                      want_device, (unsigned)p, (unsigned)n);
                if (pass == 0) out->devices[out->count++] = devices[want_device];
                continue;
            }
            for (cl_uint d = 0; d < n && out->count < 64; ++d) {
                cl_device_type type = 0;
                cl_bool available = CL_FALSE;
                cl->clGetDeviceInfo(devices[d], CL_DEVICE_TYPE, sizeof type, &type, NULL);
                cl->clGetDeviceInfo(devices[d], CL_DEVICE_AVAILABLE, sizeof available, &available, NULL);
                int preferred = (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) != 0;
                if (available && preferred == (pass == 0)) out->devices[out->count++] = devices[d];
            }
        }
    }
    if (out->count == 0) return clsel_fail(CLSEL_ERROR_NO_DEVICE, "no available OpenCL device");
    return CLSEL_SUCCESS;
}

static clsel_status open_opencl(clsel_runtime *rt)
{
    rt->cl = clsel_cl();
    if (!rt->cl) return CLSEL_ERROR_NO_DEVICE;
    candidates found;
    clsel_status st = list_candidates(rt->cl, &found);
    for (int i = 0; i < found.count; ++i) {
        st = open_device(rt, found.devices[i]);
        if (st == CLSEL_SUCCESS) return st;
        close_device(rt);
    }
    return st;
}

clsel_status clsel_runtime_create(clsel_device want, clsel_runtime **out)
{
    if (!out) return clsel_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_runtime_create: rt is NULL");
    clsel_device resolved;
    clsel_status st = resolve_request(want, &resolved);
    if (st != CLSEL_SUCCESS) return st;
    clsel_runtime *rt = clsel_calloc(1, sizeof *rt);
    if (!rt) return clsel_fail(CLSEL_ERROR_OUT_OF_MEMORY, "clsel_runtime_create: out of host memory");
    rt->kind = CLSEL_DEVICE_CPU;
    snprintf(rt->name, sizeof rt->name, "cpu");
    if (resolved != CLSEL_DEVICE_CPU) {
        st = open_opencl(rt);
        if (st != CLSEL_SUCCESS) {
            if (resolved == CLSEL_DEVICE_OPENCL) {
                clsel_runtime_destroy(rt);
                return st;
            }
            snprintf(rt->fallback_reason, sizeof rt->fallback_reason, "%s", clsel_last_error());
            rt->kind = CLSEL_DEVICE_CPU;
        }
    }
    *out = rt;
    return CLSEL_SUCCESS;
}

void clsel_runtime_destroy(clsel_runtime *rt)
{
    if (!rt) return;
    if (rt->cl) close_device(rt);
    clsel_free(rt);
}

clsel_device clsel_runtime_device(const clsel_runtime *rt) { return rt ? rt->kind : CLSEL_DEVICE_CPU; }

const char *clsel_runtime_device_name(const clsel_runtime *rt) { return rt ? rt->name : "cpu"; }

const char *clsel_runtime_fallback_reason(const clsel_runtime *rt)
{
    return rt ? rt->fallback_reason : "";
}

cl_device_id clsel_runtime_cl_device(const clsel_runtime *rt) { return rt ? rt->device : NULL; }
