/* cl_context.c - clsel_cl_context: retains the caller's context and device; the program
 * of an element width is built (or loaded from the disk cache, cl_cache.c) with its
 * kernels when a run first needs that width, so that a context costs no compile until
 * then and a process compiles only the widths it uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/element_width.h"
#include "common/error.h"
#include "opencl/cl_cache.h"
#include "opencl/cl_context.h"

static _Thread_local char failed_build_log[16384];

static const char *const element_width_names[ELEMENT_WIDTHS] = {"w1", "w2", "w4", "w8"};

/* Kernel k of an element width (cl/select.cl): "clsel_blocks_w4_rlr", "clsel_blocks_w2_pick",
 * "clsel_vectors_w8_101", ... */
static void kernel_name(char *buf, size_t size, clsel_priv_family family, int element_width, int k)
{
    const char *w = element_width_names[element_width];
    if (family == CLSEL_PRIV_FAMILY_VECTORS)
        snprintf(buf, size, "clsel_vectors_%s_%d%d%d", w, (k >> 2) & 1, (k >> 1) & 1, k & 1);
    else if (k == KERNEL_PICK)
        snprintf(buf, size, "clsel_blocks_%s_pick", w);
    else
        snprintf(buf, size, "clsel_blocks_%s_%c%c%c", w, k & 4 ? 'l' : 'r', k & 2 ? 'l' : 'r', k & 1 ? 'l' : 'r');
}

static int kernels_in_family(clsel_priv_family family) { return family == CLSEL_PRIV_FAMILY_VECTORS ? 8 : KERNELS_PER_WIDTH; }

/* The family a device gets: blocks on CPU devices, whose compilers turn a work-item's
 * loops into vector loops; vectors elsewhere. CLSEL_CL_GEOMETRY=blocks|vectors
 * overrides (to measure one family on the other's device, or test both on one). */
static clsel_priv_family family_for(cl_device_type type)
{
    const char *forced = getenv("CLSEL_CL_GEOMETRY");
    if (forced && strcmp(forced, "blocks") == 0) return CLSEL_PRIV_FAMILY_BLOCKS;
    if (forced && strcmp(forced, "vectors") == 0) return CLSEL_PRIV_FAMILY_VECTORS;
    return (type & CL_DEVICE_TYPE_CPU) ? CLSEL_PRIV_FAMILY_BLOCKS : CLSEL_PRIV_FAMILY_VECTORS;
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
        return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clGetContextInfo(CL_CONTEXT_DEVICES) failed");
    for (size_t i = 0; i < bytes / sizeof devices[0]; ++i)
        if (devices[i] == device) return CLSEL_SUCCESS;
    return clsel_priv_fail(CLSEL_ERROR_NO_DEVICE, "clsel_cl_context_create: the device is not part of the context");
}

static clsel_status query_device(clsel_cl_context *ctx)
{
    const clsel_cl_api *cl = ctx->cl;
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
        err = cl->clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof ctx->max_work_group_size,
                                  &ctx->max_work_group_size, NULL);
    if (err == CL_SUCCESS)
        err = cl->clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof ctx->compute_units,
                                  &ctx->compute_units, NULL);
    if (err == CL_SUCCESS)
        err = cl->clGetDeviceInfo(ctx->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof ctx->local_mem, &ctx->local_mem,
                                  NULL);
    if (err == CL_SUCCESS &&
        cl->clGetDeviceInfo(ctx->device, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof ctx->host_unified, &ctx->host_unified,
                            NULL) != CL_SUCCESS)
        ctx->host_unified = CL_FALSE; /* deprecated since OpenCL 2.0: a driver may refuse it */
    if (err != CL_SUCCESS)
        return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clGetDeviceInfo failed");
    if (ctx->compute_units == 0) ctx->compute_units = 1;
    ctx->family = family_for(ctx->device_type);
    return CLSEL_SUCCESS;
}

/* The build log of `program`: into `dest` when given, else as a new string (NULL when
 * empty or out of memory). */
static char *read_build_log(const clsel_cl_context *ctx, cl_program program, char *dest, size_t dest_size)
{
    const clsel_cl_api *cl = ctx->cl;
    size_t size = 0;
    if (cl->clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS ||
        size <= 1)
        return NULL;
    char *log = clsel_priv_malloc(size + 1);
    if (!log) return NULL;
    if (cl->clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, size, log, NULL) != CL_SUCCESS) {
        clsel_priv_free(log);
        return NULL;
    }
    log[size] = '\0';
    if (!dest) return log;
    snprintf(dest, dest_size, "%s", log);
    clsel_priv_free(log);
    return NULL;
}

/* The program of one element width: from the disk cache, else built from source (and
 * then kept in the cache). */
static clsel_status build_program(const clsel_cl_context *ctx, size_t elem_size, width_program *wp)
{
    const clsel_cl_api *cl = ctx->cl;
    /* Only the family's and the width's defines: every OpenCL 1.2 driver accepts -D, and
     * fast-math options stay off (the kernels do no arithmetic on values anyway). */
    char options[64];
    snprintf(options, sizeof options, "%s -DCLSEL_WIDTH=%zu",
             ctx->family == CLSEL_PRIV_FAMILY_VECTORS ? "-DCLSEL_VECTORS" : "-DCLSEL_BLOCKS", elem_size);
    /* A binary from an earlier process (docs/performance.md, "First call"). */
    cl_cache_entry entry;
    clsel_priv_cl_cache_entry(ctx, options, &entry);
    wp->program = clsel_priv_cl_cache_load(ctx, &entry, options);
    if (wp->program) {
        wp->cached = 1;
        wp->build_log = read_build_log(ctx, wp->program, NULL, 0);
        return CLSEL_SUCCESS;
    }
    const char *source = (const char *)clsel_priv_select_cl_source;
    size_t length = clsel_priv_select_cl_source_size;
    cl_int err = CL_SUCCESS;
    wp->program = cl->clCreateProgramWithSource(ctx->context, 1, &source, &length, &err);
    if (!wp->program || err != CL_SUCCESS) {
        wp->program = NULL;
        return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clCreateProgramWithSource failed");
    }
    err = cl->clBuildProgram(wp->program, 1, &ctx->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        failed_build_log[0] = '\0';
        read_build_log(ctx, wp->program, failed_build_log, sizeof failed_build_log);
        const int excerpt = 200; /* the whole log stays in clsel_cl_build_log(NULL) */
        return clsel_priv_fail_cl(err == CL_BUILD_PROGRAM_FAILURE ? CLSEL_ERROR_BUILD : CLSEL_ERROR_OPENCL, err,
                                  "clBuildProgram(%s) failed on %s: %.*s%s", options, ctx->device_name, excerpt,
                                  failed_build_log, strlen(failed_build_log) > (size_t)excerpt ? "..." : "");
    }
    wp->build_log = read_build_log(ctx, wp->program, NULL, 0);
    clsel_priv_cl_cache_store(ctx, &entry, wp->program);
    return CLSEL_SUCCESS;
}

static clsel_status create_kernels(const clsel_cl_context *ctx, int element_width, width_program *wp)
{
    const clsel_cl_api *cl = ctx->cl;
    /* The vectors family runs work-groups of 256 items, or the largest power of two the
     * device and every kernel allow; the blocks family runs one item per group. */
    wp->work_group_size = 256;
    while (wp->work_group_size > ctx->max_work_group_size && wp->work_group_size > 1) wp->work_group_size /= 2;
    for (int k = 0; k < kernels_in_family(ctx->family); ++k) {
        kernel_slot *slot = &wp->kernels[k];
        char name[64];
        cl_int err = CL_SUCCESS;
        kernel_name(name, sizeof name, ctx->family, element_width, k);
        slot->kernel = cl->clCreateKernel(wp->program, name, &err);
        if (!slot->kernel || err != CL_SUCCESS) {
            slot->kernel = NULL;
            return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clCreateKernel(%s) failed", name);
        }
        size_t kernel_wg = 0;
        err = cl->clGetKernelWorkGroupInfo(slot->kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_wg,
                                           &kernel_wg, NULL);
        if (err != CL_SUCCESS)
            return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clGetKernelWorkGroupInfo(%s) failed", name);
        while (wp->work_group_size > kernel_wg && wp->work_group_size > 1) wp->work_group_size /= 2;
    }
    return CLSEL_SUCCESS;
}

/* Releases what a build of `wp` made (after a failure, or with the context); the slots'
 * locks stay. */
static void release_width(const clsel_cl_context *ctx, width_program *wp)
{
    for (int k = 0; k < KERNELS_PER_WIDTH; ++k)
        if (wp->kernels[k].kernel) {
            ctx->cl->clReleaseKernel(wp->kernels[k].kernel);
            wp->kernels[k].kernel = NULL;
        }
    if (wp->program) ctx->cl->clReleaseProgram(wp->program);
    wp->program = NULL;
    clsel_priv_free(wp->build_log);
    wp->build_log = NULL;
    wp->cached = 0;
    atomic_store_explicit(&wp->built, 0, memory_order_relaxed);
}

clsel_status clsel_priv_cl_context_width(clsel_cl_context *ctx, size_t elem_size, const width_program **out)
{
    const int w = clsel_priv_width_index(elem_size);
    if (w < 0) return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "no kernels for elements of %zu bytes", elem_size);
    width_program *wp = &ctx->widths[w];
    *out = wp;
    /* Every enqueue asks: once built, an acquire load answers without the lock (the
     * program and kernels, written before the release store below, never change). */
    if (atomic_load_explicit(&wp->built, memory_order_acquire)) return CLSEL_SUCCESS;
    clsel_status st = CLSEL_SUCCESS;
    clsel_mutex_lock(&wp->build_lock); /* other widths' runs go on meanwhile */
    if (!atomic_load_explicit(&wp->built, memory_order_relaxed)) { /* a failed build is tried again next time */
        st = build_program(ctx, elem_size, wp);
        if (st == CLSEL_SUCCESS) st = create_kernels(ctx, w, wp);
        if (st == CLSEL_SUCCESS)
            atomic_store_explicit(&wp->built, 1, memory_order_release);
        else
            release_width(ctx, wp);
    }
    clsel_mutex_unlock(&wp->build_lock);
    return st;
}

clsel_status clsel_cl_context_prepare(clsel_cl_context *ctx, clsel_dtype dtype)
{
    if (!ctx) return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cl_context_prepare: ctx is NULL");
    const size_t size = clsel_dtype_size(dtype);
    if (size == 0)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cl_context_prepare: unknown dtype %d", (int)dtype);
    const width_program *wp = NULL;
    return clsel_priv_cl_context_width(ctx, size, &wp);
}

/* The context's locks, numbered: per width, its build lock, then one per kernel slot. */
enum { LOCKS_PER_WIDTH = 1 + KERNELS_PER_WIDTH, LOCKS = ELEMENT_WIDTHS * LOCKS_PER_WIDTH };

static clsel_mutex *lock_at(clsel_cl_context *ctx, int i)
{
    width_program *wp = &ctx->widths[i / LOCKS_PER_WIDTH];
    const int k = i % LOCKS_PER_WIDTH;
    return k == 0 ? &wp->build_lock : &wp->kernels[k - 1].lock;
}

static clsel_status init_locks(clsel_cl_context *ctx)
{
    for (; ctx->locks_ready < LOCKS; ++ctx->locks_ready)
        if (clsel_mutex_init(lock_at(ctx, ctx->locks_ready)) != 0)
            return clsel_priv_fail(CLSEL_ERROR_OUT_OF_MEMORY, "cannot create the context's locks");
    return CLSEL_SUCCESS;
}

clsel_status clsel_cl_context_create(cl_context context, cl_device_id device, clsel_cl_context **out)
{
    if (!out) return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cl_context_create: ctx is NULL");
    if (!context || !device)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                          "clsel_cl_context_create: %s is NULL", context ? "device" : "context");
    const clsel_cl_api *cl = clsel_priv_cl();
    if (!cl) return CLSEL_ERROR_NO_DEVICE;
    clsel_status st = check_device_in_context(cl, context, device);
    if (st != CLSEL_SUCCESS) return st;

    clsel_cl_context *ctx = clsel_priv_calloc(1, sizeof *ctx);
    if (!ctx) return clsel_priv_fail(CLSEL_ERROR_OUT_OF_MEMORY, "clsel_cl_context_create: out of host memory");
    ctx->cl = cl;
    cl_int err = cl->clRetainContext(context);
    if (err != CL_SUCCESS) {
        clsel_priv_free(ctx);
        return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clRetainContext failed");
    }
    ctx->context = context;
    err = cl->clRetainDevice(device);
    if (err != CL_SUCCESS) {
        clsel_cl_context_destroy(ctx);
        return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clRetainDevice failed");
    }
    ctx->device = device;
    st = query_device(ctx);
    if (st == CLSEL_SUCCESS) st = init_locks(ctx);
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
    for (int w = 0; w < ELEMENT_WIDTHS; ++w) release_width(ctx, &ctx->widths[w]);
    for (int i = 0; i < ctx->locks_ready; ++i) clsel_mutex_destroy(lock_at(ctx, i));
    if (ctx->device) cl->clReleaseDevice(ctx->device);
    if (ctx->context) cl->clReleaseContext(ctx->context);
    clsel_priv_free(ctx);
}

const char *clsel_cl_build_log(const clsel_cl_context *ctx)
{
    if (!ctx) return failed_build_log;
    /* The first non-empty log of the programs built so far (they differ only in width). */
    clsel_cl_context *locked = (clsel_cl_context *)ctx;
    const char *log = "";
    for (int w = 0; w < ELEMENT_WIDTHS && !*log; ++w) {
        clsel_mutex_lock(&locked->widths[w].build_lock);
        if (ctx->widths[w].build_log) log = ctx->widths[w].build_log;
        clsel_mutex_unlock(&locked->widths[w].build_lock);
    }
    return log;
}

const char *clsel_cl_device_name(const clsel_cl_context *ctx) { return ctx ? ctx->device_name : ""; }

int clsel_cl_program_cached(const clsel_cl_context *ctx)
{
    if (!ctx) return 0;
    clsel_cl_context *locked = (clsel_cl_context *)ctx;
    int cached = 0;
    for (int w = 0; w < ELEMENT_WIDTHS; ++w) {
        clsel_mutex_lock(&locked->widths[w].build_lock);
        cached += ctx->widths[w].cached;
        clsel_mutex_unlock(&locked->widths[w].build_lock);
    }
    return cached;
}

cl_int clsel_cl_last_cl_error(void) { return (cl_int)clsel_priv_last_cl_code(); }
