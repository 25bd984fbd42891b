/* test_cl.c - see test_cl.h. */
#include "test_cl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define GUARD_BYTE 0xA5
#define GUARD_BYTES 64

_Noreturn void test_cl_no_device(const char *why)
{
    const char *require = getenv("CLSEL_REQUIRE_OPENCL");
    if (require && strcmp(require, "1") == 0) {
        fprintf(stderr, "no OpenCL device (%s) but CLSEL_REQUIRE_OPENCL=1\n", why);
        exit(1);
    }
    fprintf(stderr, "skipped: no OpenCL device (%s)\n", why);
    exit(TEST_SKIP);
}

static long env_long(const char *name, long fallback)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : fallback;
}

void test_cl_open(test_cl *env)
{
    memset(env, 0, sizeof *env);
    cl_platform_id platforms[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS || np == 0)
        test_cl_no_device("no platform");
    long want_p = env_long("CLSEL_PLATFORM", -1), want_d = env_long("CLSEL_DEVICE_INDEX", 0);
    for (cl_uint p = 0; p < np && !env->device; ++p) {
        if (want_p >= 0 && (long)p != want_p)
            continue;
        cl_device_id devices[16];
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &nd) != CL_SUCCESS)
            continue;
        if (want_d < (long)nd) {
            env->platform = platforms[p];
            env->device = devices[want_d];
        }
    }
    if (!env->device)
        test_cl_no_device("no device on the chosen platform");
    cl_int err = CL_SUCCESS;
    env->context = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        test_cl_no_device("clCreateContext failed");
    env->queue = clCreateCommandQueue(env->context, env->device, 0, &err);
    if (err != CL_SUCCESS)
        test_cl_no_device("clCreateCommandQueue failed");
    clGetDeviceInfo(env->device, CL_DEVICE_NAME, sizeof env->device_name - 1, env->device_name,
                    NULL);
    clsel_status st = clsel_cl_context_create(env->context, env->device, &env->ctx);
    if (st != CLSEL_SUCCESS) {
        fprintf(stderr, "clsel_cl_context_create failed: %s: %s\n%s\n", clsel_status_string(st),
                clsel_last_error(), clsel_cl_build_log(NULL));
        exit(1);
    }
    /* A run that must test the OpenCL kernels (CLSEL_TEST_PATH=kernels: the Oclgrind and
     * rusticl stages, the _kernels tests) fails rather than pass on the native path. */
    const clsel_cl_path path = clsel_cl_context_path(env->ctx);
    const char *want = getenv("CLSEL_TEST_PATH");
    if (want && strcmp(want, path == CLSEL_CL_PATH_NATIVE ? "native" : "kernels") != 0) {
        fprintf(stderr, "CLSEL_TEST_PATH=%s but %s runs %s\n", want, env->device_name,
                path == CLSEL_CL_PATH_NATIVE ? "native kernels" : "the OpenCL kernels");
        exit(1);
    }
    printf("OpenCL device: %s (%s)\n", env->device_name,
           path == CLSEL_CL_PATH_NATIVE ? "native kernels: the CPU path in the queue"
                                        : "the OpenCL kernels");
}

void test_cl_close(test_cl *env)
{
    clsel_cl_context_destroy(env->ctx);
    if (env->queue)
        clReleaseCommandQueue(env->queue);
    if (env->context)
        clReleaseContext(env->context);
    memset(env, 0, sizeof *env);
}

cl_mem test_cl_buffer(test_cl *env, cl_mem_flags flags, size_t bytes, const void *host)
{
    cl_int err = CL_SUCCESS;
    if (host)
        flags |= CL_MEM_COPY_HOST_PTR;
    cl_mem m =
        clCreateBuffer(env->context, flags, bytes ? bytes : 1, (void *)(uintptr_t)host, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clCreateBuffer(%zu) failed: %d\n", bytes, err);
        exit(2);
    }
    return m;
}

/* A buffer holding `bytes` of `host` at `offset`, guard bytes around. */
static cl_mem guarded_buffer(test_cl *env, const void *host, size_t bytes, size_t offset)
{
    size_t total = offset + bytes + GUARD_BYTES;
    uint8_t *image = test_alloc(total);
    memset(image, GUARD_BYTE, total);
    if (host && bytes)
        memcpy(image + offset, host, bytes);
    cl_mem m = test_cl_buffer(env, CL_MEM_READ_WRITE, total, image);
    free(image);
    return m;
}

clsel_status test_cl_run(test_cl *env, const clsel_plan *plan, const void *cond,
                         const void *then_data, const void *else_data, void *out, size_t layout,
                         int *guards_ok)
{
    const size_t w = clsel_dtype_size(clsel_plan_dtype(plan));
    const size_t sizes[4] = {(size_t)clsel_plan_input_count(plan, CLSEL_OPERAND_COND),
                             (size_t)clsel_plan_input_count(plan, CLSEL_OPERAND_THEN) * w,
                             (size_t)clsel_plan_input_count(plan, CLSEL_OPERAND_ELSE) * w,
                             clsel_plan_output_bytes(plan)};
    const void *hosts[4] = {cond, then_data, else_data, NULL};
    size_t offsets[4];
    cl_mem mems[4];
    /* the input whose buffer out shares (1 then, 2 else), or 0 */
    const int over = layout & TEST_CL_OUT_IN_THEN ? 1 : layout & TEST_CL_OUT_IN_ELSE ? 2 : 0;
    for (int i = 0; i < 4; ++i) {
        if (i == 3 && over) {
            offsets[3] = offsets[over];
            mems[3] = mems[over];
            break;
        }
        switch ((layout & ~(size_t)(TEST_CL_OUT_IN_THEN | TEST_CL_OUT_IN_ELSE)) % TEST_CL_LAYOUTS) {
        case TEST_CL_ALIGNED:
            offsets[i] = 0;
            break;
        case TEST_CL_SHIFTED:
            offsets[i] = i == 0 ? 3 : w;
            break;
        case TEST_CL_ALIGNED_FAR:
            offsets[i] = 16 * (size_t)(1 + i % 2);
            break;
        default:
            offsets[i] = i == 3 ? w : 0;
            break;
        }
        mems[i] = guarded_buffer(env, hosts[i], sizes[i], offsets[i]);
    }
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(env->context, &err);
    cl_event done = NULL;
    clsel_status st =
        clsel_cl_enqueue(env->ctx, plan, env->queue, mems[0], offsets[0], mems[1], offsets[1],
                         mems[2], offsets[2], mems[3], offsets[3], 1, &gate, &done);
    clSetUserEventStatus(gate, CL_COMPLETE);
    if (st == CLSEL_SUCCESS) {
        if (!done || clWaitForEvents(1, &done) != CL_SUCCESS) {
            fprintf(stderr, "test_cl_run: the returned event is missing or failed\n");
            st = CLSEL_ERROR_OPENCL;
        }
        size_t total = offsets[3] + sizes[3] + GUARD_BYTES;
        uint8_t *image = test_alloc(total);
        clEnqueueReadBuffer(env->queue, mems[3], CL_TRUE, 0, total, image, 0, NULL, NULL);
        int ok = 1;
        for (size_t i = 0; i < offsets[3]; ++i)
            ok &= image[i] == GUARD_BYTE;
        for (size_t i = offsets[3] + sizes[3]; i < total; ++i)
            ok &= image[i] == GUARD_BYTE;
        if (guards_ok)
            *guards_ok = ok;
        if (st == CLSEL_SUCCESS && sizes[3])
            memcpy(out, image + offsets[3], sizes[3]);
        free(image);
    } else if (done) {
        fprintf(stderr, "test_cl_run: a failed call returned an event\n");
    }
    if (done)
        clReleaseEvent(done);
    clReleaseEvent(gate);
    clFinish(env->queue);
    for (int i = 0; i < (over ? 3 : 4); ++i)
        clReleaseMemObject(mems[i]);
    return st;
}
