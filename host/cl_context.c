/* cl_context.c - clsel_cl_context: retains the caller's context and device, builds the
 * embedded program once, and creates every kernel up front. */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "cl_context.h"
#include "error.h"

static _Thread_local char failed_build_log[16384];

static const char *const element_width_names[ELEMENT_WIDTHS] = {"w1", "w2", "w4", "w8"};
static const char *const index_width_names[INDEX_WIDTHS] = {"i32", "i64"};

/* "clsel_r3_w4_i32_101", "clsel_rn_w2_i64_000", "clsel_loop_w8_i32", ... (the names
 * cl/select.cl defines). */
static void kernel_name(char *buf, size_t size, int index_width, int element_width, int variant)
{
    const char *w = element_width_names[element_width], *i = index_width_names[index_width];
    if (variant == KERNEL_LOOP) {
        snprintf(buf, size, "clsel_loop_%s_%s", w, i);
        return;
    }
    int classes = variant % 8;
    snprintf(buf, size, "clsel_%s_%s_%s_%d%d%d", variant < KERNEL_RN ? "r3" : "rn", w, i, (classes >> 2) & 1,
             (classes >> 1) & 1, classes & 1);
}

static clsel_status check_device_in_context(const clsel_cl_api *cl, cl_context context,
                                            cl_device_id device)
{
    cl_device_id devices[64];
    size_t bytes = 0;
    cl_int err = cl->clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof devices, devices, &bytes);
    if (err == CL_INVALID_VALUE) { /* more than 64 devices: trust the caller */
        return CLSEL_SUCCESS;
    }
    if (err != CL_SUCCESS)
        return clsel_fail_cl(CLSEL_ERROR_OPENCL, err, "clGetContextInfo(CL_CONTEXT_DEVICES) failed");
    for (size_t i = 0; i < bytes / sizeof devices[0]; ++i)
        if (devices[i] == device) return CLSEL_SUCCESS;
    return clsel_fail(CLSEL_ERROR_NO_DEVICE, "clsel_cl_context_create: the device is not part of the context");
}

static clsel_status query_device(clsel_cl_context *ctx)
{
    const clsel_cl_api *cl = ctx->cl;
    size_t max_wg = 0;
    cl_int err = cl->clGetDeviceInfo(ctx->device, CL_DEVICE_NAME, sizeof ctx->device_name - 1,
                                     ctx->device_name, NULL);
    if (err == CL_SUCCESS)
        err = cl->clGetDeviceInfo(ctx->device, CL_DEVICE_TYPE, sizeof ctx->device_type,
                                  &ctx->device_type, NULL);
    if (err == CL_SUCCESS)
        err = cl->clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof ctx->max_alloc,
                                  &ctx->max_alloc, NULL);
    if (err == CL_SUCCESS)
        err = cl->clGetDeviceInfo(ctx->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof ctx->global_mem,
                                  &ctx->global_mem, NULL);
    if (err == CL_SUCCESS)
        err = cl->clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg,
                                  NULL);
    if (err == CL_SUCCESS)
        err = cl->clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof ctx->compute_units,
                                  &ctx->compute_units, NULL);
    if (err != CL_SUCCESS)
        return clsel_fail_cl(CLSEL_ERROR_OPENCL, err, "clGetDeviceInfo failed");
    /* Launches use work-groups of 256 items (PERF.md rule 5), or the largest power of
     * two the device allows. */
    ctx->work_group_size = 256;
    while (ctx->work_group_size > max_wg && ctx->work_group_size > 1) ctx->work_group_size /= 2;
    ctx->loop_local = (ctx->device_type & CL_DEVICE_TYPE_CPU) ? 1 : ctx->work_group_size / 4;
    if (ctx->compute_units == 0) ctx->compute_units = 1;
    return CLSEL_SUCCESS;
}

static void keep_build_log(clsel_cl_context *ctx, char *dest, size_t dest_size)
{
    const clsel_cl_api *cl = ctx->cl;
    size_t size = 0;
    if (cl->clGetProgramBuildInfo(ctx->program, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) !=
            CL_SUCCESS ||
        size == 0)
        return;
    char *log = clsel_malloc(size + 1);
    if (!log) return;
    if (cl->clGetProgramBuildInfo(ctx->program, ctx->device, CL_PROGRAM_BUILD_LOG, size, log, NULL) ==
        CL_SUCCESS) {
        log[size] = '\0';
        if (dest) {
            snprintf(dest, dest_size, "%s", log);
        } else {
            ctx->build_log = log;
            return;
        }
    }
    clsel_free(log);
}

static clsel_status build_program(clsel_cl_context *ctx)
{
    const clsel_cl_api *cl = ctx->cl;
    const char *source = (const char *)clsel_select_cl_source;
    size_t length = clsel_select_cl_source_size;
    cl_int err = CL_SUCCESS;
    ctx->program = cl->clCreateProgramWithSource(ctx->context, 1, &source, &length, &err);
    if (!ctx->program || err != CL_SUCCESS) {
        ctx->program = NULL;
        return clsel_fail_cl(CLSEL_ERROR_OPENCL, err, "clCreateProgramWithSource failed");
    }
    /* No options: every OpenCL 1.2 driver accepts an empty string, and fast-math
     * options stay off (the kernels do no arithmetic on values anyway). */
    err = cl->clBuildProgram(ctx->program, 1, &ctx->device, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        failed_build_log[0] = '\0';
        keep_build_log(ctx, failed_build_log, sizeof failed_build_log);
        const int excerpt = 200; /* the whole log stays in clsel_cl_build_log(NULL) */
        return clsel_fail_cl(err == CL_BUILD_PROGRAM_FAILURE ? CLSEL_ERROR_BUILD : CLSEL_ERROR_OPENCL,
                             err, "clBuildProgram failed on %s: %.*s%s", ctx->device_name, excerpt,
                             failed_build_log, strlen(failed_build_log) > (size_t)excerpt ? "..." : "");
    }
    keep_build_log(ctx, NULL, 0);
    return CLSEL_SUCCESS;
}

static clsel_status create_kernels(clsel_cl_context *ctx)
{
    const clsel_cl_api *cl = ctx->cl;
    kernel_slot *slots = &ctx->kernels[0][0][0];
    for (int iw = 0; iw < INDEX_WIDTHS; ++iw)
        for (int ew = 0; ew < ELEMENT_WIDTHS; ++ew)
            for (int v = 0; v < KERNEL_VARIANTS; ++v) {
                kernel_slot *slot = &ctx->kernels[iw][ew][v];
                char name[64];
                cl_int err = CL_SUCCESS;
                kernel_name(name, sizeof name, iw, ew, v);
                if (clsel_mutex_init(&slot->lock) != 0)
                    return clsel_fail(CLSEL_ERROR_OUT_OF_MEMORY, "cannot create a lock for %s", name);
                ctx->locks_ready = (int)(slot - slots) + 1;
                slot->kernel = cl->clCreateKernel(ctx->program, name, &err);
                if (!slot->kernel || err != CL_SUCCESS) {
                    slot->kernel = NULL;
                    return clsel_fail_cl(CLSEL_ERROR_OPENCL, err, "clCreateKernel(%s) failed", name);
                }
                size_t kernel_wg = 0;
                err = cl->clGetKernelWorkGroupInfo(slot->kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                                                   sizeof kernel_wg, &kernel_wg, NULL);
                if (err != CL_SUCCESS)
                    return clsel_fail_cl(CLSEL_ERROR_OPENCL, err,
                                         "clGetKernelWorkGroupInfo(%s) failed", name);
                while (ctx->work_group_size > kernel_wg && ctx->work_group_size > 1)
                    ctx->work_group_size /= 2;
            }
    return CLSEL_SUCCESS;
}

clsel_status clsel_cl_context_create(cl_context context, cl_device_id device, clsel_cl_context **out)
{
    if (!out) return clsel_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cl_context_create: ctx is NULL");
    if (!context || !device)
        return clsel_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                          "clsel_cl_context_create: %s is NULL", context ? "device" : "context");
    const clsel_cl_api *cl = clsel_cl();
    if (!cl) return CLSEL_ERROR_NO_DEVICE;
    clsel_status st = check_device_in_context(cl, context, device);
    if (st != CLSEL_SUCCESS) return st;

    clsel_cl_context *ctx = clsel_calloc(1, sizeof *ctx);
    if (!ctx) return clsel_fail(CLSEL_ERROR_OUT_OF_MEMORY, "clsel_cl_context_create: out of host memory");
    ctx->cl = cl;
    cl_int err = cl->clRetainContext(context);
    if (err != CL_SUCCESS) {
        clsel_free(ctx);
        return clsel_fail_cl(CLSEL_ERROR_OPENCL, err, "clRetainContext failed");
    }
    ctx->context = context;
    err = cl->clRetainDevice(device);
    if (err != CL_SUCCESS) {
        clsel_cl_context_destroy(ctx);
        return clsel_fail_cl(CLSEL_ERROR_OPENCL, err, "clRetainDevice failed");
    }
    ctx->device = device;
    st = query_device(ctx);
    if (st == CLSEL_SUCCESS) st = build_program(ctx);
    if (st == CLSEL_SUCCESS) st = create_kernels(ctx);
    if (st != CLSEL_SUCCESS) {
        clsel_cl_context_destroy(ctx);
        return st;
    }
    *out = ctx;
    return CLSEL_SUCCESS;
}

void clsel_cl_context_destroy(clsel_cl_context *ctx)
{
    if (!ctx) return;
    const clsel_cl_api *cl = ctx->cl;
    kernel_slot *slots = &ctx->kernels[0][0][0];
    for (int i = 0; i < INDEX_WIDTHS * ELEMENT_WIDTHS * KERNEL_VARIANTS; ++i) {
        if (slots[i].kernel) cl->clReleaseKernel(slots[i].kernel);
        if (i < ctx->locks_ready) clsel_mutex_destroy(&slots[i].lock);
    }
    if (ctx->program) cl->clReleaseProgram(ctx->program);
    if (ctx->device) cl->clReleaseDevice(ctx->device);
    if (ctx->context) cl->clReleaseContext(ctx->context);
    clsel_free(ctx->build_log);
    clsel_free(ctx);
}

const char *clsel_cl_build_log(const clsel_cl_context *ctx)
{
    if (!ctx) return failed_build_log;
    return ctx->build_log ? ctx->build_log : "";
}

const char *clsel_cl_device_name(const clsel_cl_context *ctx) { return ctx ? ctx->device_name : ""; }

cl_int clsel_cl_last_cl_error(void) { return (cl_int)clsel_last_cl_code(); }
