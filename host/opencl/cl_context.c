/* cl_context.c - see cl_context.h. A program is built (or loaded from the disk cache, cl_cache.c)
 * when a launch first needs its kernel, so that a context costs no compile until then and a process
 * compiles only the kernels it uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "common/tuning_constants.h" /* CL_GROUP_ITEMS */
#include "opencl/cl_cache.h"
#include "opencl/cl_context.h"

static _Thread_local char failed_build_log[16384];

static clsel_status check_device_in_context(const clsel_cl_api *cl, cl_context context,
                                            cl_device_id device)
{
    cl_device_id devices[64];
    size_t bytes = 0;
    cl_int err = cl->clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof devices, devices, &bytes);
    if (err == CL_INVALID_VALUE)
        return CLSEL_SUCCESS; /* more than 64 devices: trust the caller */
    if (err != CL_SUCCESS)
        return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err,
                                  "clGetContextInfo(CL_CONTEXT_DEVICES) failed");
    for (size_t i = 0; i < bytes / sizeof devices[0]; ++i)
        if (devices[i] == device)
            return CLSEL_SUCCESS;
    return clsel_priv_fail(CLSEL_ERROR_NO_DEVICE,
                           "clsel_cl_context_create: the device is not part of the context");
}

/* clGetDeviceInfo of the context's device, unless an earlier query failed (err). */
static cl_int device_info(const clsel_cl_context *ctx, cl_int err, cl_device_info what, size_t size,
                          void *value)
{
    return err == CL_SUCCESS ? ctx->cl->clGetDeviceInfo(ctx->device, what, size, value, NULL) : err;
}

static clsel_status query_device(clsel_cl_context *ctx)
{
    cl_device_exec_capabilities capabilities = 0;
    cl_int err =
        device_info(ctx, CL_SUCCESS, CL_DEVICE_NAME, sizeof ctx->device_name - 1, ctx->device_name);
    err = device_info(ctx, err, CL_DEVICE_TYPE, sizeof ctx->device_type, &ctx->device_type);
    err =
        device_info(ctx, err, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof ctx->max_alloc, &ctx->max_alloc);
    err =
        device_info(ctx, err, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof ctx->global_mem, &ctx->global_mem);
    err = device_info(ctx, err, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof ctx->max_work_group_size,
                      &ctx->max_work_group_size);
    err = device_info(ctx, err, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof ctx->compute_units,
                      &ctx->compute_units);
    err =
        device_info(ctx, err, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof capabilities, &capabilities);
    if (err != CL_SUCCESS)
        return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clGetDeviceInfo failed");
    /* Deprecated since OpenCL 2.0: a driver may refuse it. */
    ctx->host_memory_known =
        device_info(ctx, CL_SUCCESS, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof ctx->host_unified,
                    &ctx->host_unified) == CL_SUCCESS;
    if (!ctx->host_memory_known)
        ctx->host_unified = CL_FALSE;
    if (ctx->compute_units == 0)
        ctx->compute_units = 1;
    cl_uint bits = 0; /* unknown: no buffer counts as aligned */
    err = device_info(ctx, CL_SUCCESS, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits);
    ctx->base_align = err == CL_SUCCESS ? bits / 8 : 0;
    /* A CPU device that runs native kernels (PoCL) computes on the same cores as the CPU path,
     * which moves each byte once with the processor's widest loads and stores and needs no
     * compiler: there clsel_cl_enqueue runs the CPU path in the queue (cl_native.c). Only a device
     * that is a CPU and nothing else: Oclgrind, a simulator that checks every access of the
     * kernels, calls itself a CPU, a GPU and an accelerator at once and runs native kernels too,
     * and must run the kernels. Elsewhere, and where CLSEL_CL_NATIVE=0 (or off) says so, the OpenCL
     * kernels run. */
    const char *choice = getenv("CLSEL_CL_NATIVE");
    const int refused = choice && (strcmp(choice, "0") == 0 || strcmp(choice, "off") == 0);
    const int native =
        (ctx->device_type & ~(cl_device_type)CL_DEVICE_TYPE_DEFAULT) == CL_DEVICE_TYPE_CPU &&
        (capabilities & CL_EXEC_NATIVE_KERNEL) && !refused;
    ctx->path = native ? CLSEL_CL_PATH_NATIVE : CLSEL_CL_PATH_KERNELS;
    return CLSEL_SUCCESS;
}

/* The build log of `program` as a new string (NULL when empty or out of memory). */
static char *read_build_log(const clsel_cl_context *ctx, cl_program program)
{
    const clsel_cl_api *cl = ctx->cl;
    size_t n = 0;
    if (cl->clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) !=
            CL_SUCCESS ||
        n <= 1)
        return NULL;
    char *log = clsel_priv_malloc(n + 1);
    if (!log || cl->clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, n, log,
                                          NULL) != CL_SUCCESS) {
        clsel_priv_free(log);
        return NULL;
    }
    log[n] = '\0';
    return log;
}

/* The program of one variant: from the disk cache, else built from source (then kept in the
 * cache). */
static clsel_status build_program(const clsel_cl_context *ctx, kernel_program *kp)
{
    const clsel_cl_api *cl = ctx->cl;
    char options[256];
    clsel_priv_cl_program_options(&kp->variant, options, sizeof options);
    const char *source = (const char *)clsel_priv_cl_source;
    size_t length = clsel_priv_cl_source_size;
    /* A binary from an earlier process (docs/performance.md, "First call"). */
    cl_cache_entry entry;
    clsel_priv_cl_cache_entry(ctx, source, length, options, &entry);
    kp->program = clsel_priv_cl_cache_load(ctx, &entry, options);
    if (kp->program) {
        kp->cached = 1;
        kp->build_log = read_build_log(ctx, kp->program);
        return CLSEL_SUCCESS;
    }
    cl_int err = CL_SUCCESS;
    kp->program = cl->clCreateProgramWithSource(ctx->context, 1, &source, &length, &err);
    if (!kp->program || err != CL_SUCCESS) {
        kp->program = NULL;
        return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clCreateProgramWithSource failed");
    }
    err = cl->clBuildProgram(kp->program, 1, &ctx->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char *log = read_build_log(ctx, kp->program);
        snprintf(failed_build_log, sizeof failed_build_log, "%s", log ? log : "");
        clsel_priv_free(log);
        const int excerpt = 200; /* the whole log stays in clsel_cl_build_log(NULL) */
        return clsel_priv_fail_cl(
            err == CL_BUILD_PROGRAM_FAILURE ? CLSEL_ERROR_BUILD : CLSEL_ERROR_OPENCL, err,
            "clBuildProgram(%s) failed on %s: %.*s%s", options, ctx->device_name, excerpt,
            failed_build_log, strlen(failed_build_log) > (size_t)excerpt ? "..." : "");
    }
    kp->build_log = read_build_log(ctx, kp->program);
    clsel_priv_cl_cache_store(ctx, &entry, kp->program);
    return CLSEL_SUCCESS;
}

/* The kernel object, and a work-group of CL_GROUP_ITEMS work-items or the largest power of two
 * below it that the device and the kernel allow. */
static clsel_status create_kernel(const clsel_cl_context *ctx, kernel_program *kp)
{
    const clsel_cl_api *cl = ctx->cl;
    char name[64];
    cl_int err = CL_SUCCESS;
    clsel_priv_cl_kernel_name(&kp->variant, name, sizeof name);
    kp->kernel = cl->clCreateKernel(kp->program, name, &err);
    if (!kp->kernel || err != CL_SUCCESS) {
        kp->kernel = NULL;
        return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clCreateKernel(%s) failed", name);
    }
    size_t kernel_wg = 0;
    err = cl->clGetKernelWorkGroupInfo(kp->kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                                       sizeof kernel_wg, &kernel_wg, NULL);
    if (err != CL_SUCCESS)
        return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clGetKernelWorkGroupInfo(%s) failed",
                                  name);
    kp->work_group_size = CL_GROUP_ITEMS;
    while ((kp->work_group_size > ctx->max_work_group_size || kp->work_group_size > kernel_wg) &&
           kp->work_group_size > 1)
        kp->work_group_size /= 2;
    return CLSEL_SUCCESS;
}

static void release_program(const clsel_cl_context *ctx, kernel_program *kp)
{
    if (!kp)
        return;
    if (kp->kernel)
        ctx->cl->clReleaseKernel(kp->kernel);
    if (kp->program)
        ctx->cl->clReleaseProgram(kp->program);
    clsel_mutex_destroy(&kp->lock);
    clsel_priv_free(kp->build_log);
    clsel_priv_free(kp);
}

clsel_status clsel_priv_cl_context_kernel(clsel_cl_context *ctx, const kernel_variant *variant,
                                          kernel_program **out)
{
    const int index = clsel_priv_cl_variant_index(variant);
    if (index < 0)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "no kernel for elements of %zu bytes, rank class %d and %u items",
                               variant->width, variant->rank, variant->items);
    /* Every launch asks: once built, an acquire load answers without the lock (the program and
     * kernel, written before the release store below, never change). */
    *out = atomic_load_explicit(&ctx->kernels[index], memory_order_acquire);
    if (*out)
        return CLSEL_SUCCESS;
    clsel_status st = CLSEL_SUCCESS;
    clsel_mutex_lock(&ctx->build_lock); /* runs of kernels built already go on meanwhile */
    *out = atomic_load_explicit(&ctx->kernels[index], memory_order_relaxed);
    if (!*out) { /* a failed build is tried again next time */
        kernel_program *kp = clsel_priv_calloc(1, sizeof *kp);
        if (!kp || clsel_mutex_init(&kp->lock) != 0) {
            clsel_priv_free(kp);
            st = clsel_priv_fail(CLSEL_ERROR_OUT_OF_MEMORY, "out of host memory for a kernel");
        } else {
            kp->variant = *variant;
            st = build_program(ctx, kp);
            if (st == CLSEL_SUCCESS)
                st = create_kernel(ctx, kp);
            if (st == CLSEL_SUCCESS) {
                atomic_store_explicit(&ctx->kernels[index], kp, memory_order_release);
                *out = kp;
            } else {
                release_program(ctx, kp);
            }
        }
    }
    clsel_mutex_unlock(&ctx->build_lock);
    return st;
}

/* The kernel of same-shape runs: every tensor dense (read as ROWS, with the dense bits). */
clsel_status clsel_cl_context_prepare(clsel_cl_context *ctx, clsel_dtype dtype)
{
    if (!ctx)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "clsel_cl_context_prepare: ctx is NULL");
    const size_t size = clsel_dtype_size(dtype);
    if (size == 0)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "clsel_cl_context_prepare: unknown dtype %d", (int)dtype);
    if (ctx->path != CLSEL_CL_PATH_KERNELS)
        return CLSEL_SUCCESS;
    const kernel_variant same = {size,
                                 1,
                                 {CLSEL_READ_ROWS, CLSEL_READ_ROWS, CLSEL_READ_ROWS},
                                 CLSEL_WRITE_ROWS,
                                 1,
                                 clsel_priv_cl_items(size)};
    kernel_program *kp = NULL;
    return clsel_priv_cl_context_kernel(ctx, &same, &kp);
}

clsel_status clsel_cl_context_create(cl_context context, cl_device_id device,
                                     clsel_cl_context **out)
{
    if (!out)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "clsel_cl_context_create: ctx is NULL");
    if (!context || !device)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cl_context_create: %s is NULL",
                               context ? "device" : "context");
    const clsel_cl_api *cl = clsel_priv_cl();
    if (!cl)
        return CLSEL_ERROR_NO_DEVICE;
    clsel_status st = check_device_in_context(cl, context, device);
    if (st != CLSEL_SUCCESS)
        return st;
    clsel_cl_context *ctx = clsel_priv_calloc(1, sizeof *ctx);
    if (!ctx)
        return clsel_priv_fail(CLSEL_ERROR_OUT_OF_MEMORY,
                               "clsel_cl_context_create: out of host memory");
    ctx->cl = cl;
    const char *what = "clRetainContext";
    cl_int err = cl->clRetainContext(context);
    if (err == CL_SUCCESS) {
        ctx->context = context;
        what = "clRetainDevice";
        err = cl->clRetainDevice(device);
    }
    if (err == CL_SUCCESS)
        ctx->device = device;
    st = err != CL_SUCCESS ? clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "%s failed", what)
                           : query_device(ctx);
    if (st == CLSEL_SUCCESS) {
        if (clsel_mutex_init(&ctx->build_lock) == 0)
            ctx->build_lock_ready = 1;
        else
            st = clsel_priv_fail(CLSEL_ERROR_OUT_OF_MEMORY, "cannot create the context's lock");
    }
    if (st == CLSEL_SUCCESS)
        *out = ctx;
    else
        clsel_cl_context_destroy(ctx);
    return st;
}

void clsel_cl_context_destroy(clsel_cl_context *ctx)
{
    if (!ctx)
        return;
    const clsel_cl_api *cl = ctx->cl;
    for (int i = 0; i < KERNEL_VARIANTS; ++i)
        release_program(ctx, atomic_load(&ctx->kernels[i]));
    if (ctx->build_lock_ready)
        clsel_mutex_destroy(&ctx->build_lock);
    if (ctx->device)
        cl->clReleaseDevice(ctx->device);
    if (ctx->context)
        cl->clReleaseContext(ctx->context);
    clsel_priv_free(ctx);
}

const char *clsel_cl_build_log(const clsel_cl_context *ctx)
{
    if (!ctx)
        return failed_build_log;
    /* The first non-empty log of the programs built so far (they differ only in their build
     * options). */
    const char *log = "";
    for (int i = 0; i < KERNEL_VARIANTS && !*log; ++i) {
        const kernel_program *kp = atomic_load_explicit(&ctx->kernels[i], memory_order_acquire);
        if (kp && kp->build_log)
            log = kp->build_log;
    }
    return log;
}

const char *clsel_cl_device_name(const clsel_cl_context *ctx)
{
    return ctx ? ctx->device_name : "";
}
clsel_cl_path clsel_cl_context_path(const clsel_cl_context *ctx)
{
    return ctx ? ctx->path : CLSEL_CL_PATH_KERNELS;
}
cl_int clsel_cl_last_cl_error(void)
{
    return (cl_int)clsel_priv_last_cl_code();
}

int clsel_cl_program_cached(const clsel_cl_context *ctx)
{
    if (!ctx)
        return 0;
    int cached = 0;
    for (int i = 0; i < KERNEL_VARIANTS; ++i) {
        const kernel_program *kp = atomic_load_explicit(&ctx->kernels[i], memory_order_acquire);
        cached += kp && kp->cached;
    }
    return cached;
}
