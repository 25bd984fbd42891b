/* test_cl.h - an OpenCL device for the tests, and a host-memory round trip through
 * clsel_cl_enqueue with offsets and guard bytes. */
#ifndef CLSEL_TESTS_TEST_CL_H
#define CLSEL_TESTS_TEST_CL_H

#include "clsel_cl.h"

typedef struct test_cl {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    clsel_cl_context *ctx;
    char device_name[256];
} test_cl;

/* Exit status ctest reads as "skipped" (SKIP_RETURN_CODE). */
#define TEST_SKIP 77

/* Opens the device the runtime would pick with CLSEL_PLATFORM / CLSEL_DEVICE_INDEX
 * (default: the first device of the first platform that has one), with an in-order
 * queue and a clsel_cl_context. Without a device it exits TEST_SKIP, or 1 when
 * CLSEL_REQUIRE_OPENCL=1 (CI), printing why; it exits 1 when CLSEL_TEST_PATH (kernels or
 * native) names another path than the context's (clsel_cl_context_path). */
void test_cl_open(test_cl *env);
void test_cl_close(test_cl *env);

/* A test that found no OpenCL device by other means (a runtime, say) ends here as
 * test_cl_open does: exit TEST_SKIP, or 1 when CLSEL_REQUIRE_OPENCL=1, printing why. */
_Noreturn void test_cl_no_device(const char *why);

/* Where test_cl_run puts the tensors in their buffers (byte offsets), so that both
 * forms of the kernels run (cl/select.cl: the aligned one needs every tensor that
 * advances on 16 bytes) and the native path maps buffers at any offset: */
enum test_cl_layout {
    TEST_CL_ALIGNED = 0,     /* every tensor at offset 0 */
    TEST_CL_SHIFTED = 1,     /* cond at 3 bytes, then, else and out at one element */
    TEST_CL_ALIGNED_FAR = 2, /* every tensor at 16 or 32 bytes: aligned, not at the start */
    TEST_CL_OUT_SHIFTED = 3, /* the inputs at 0, out at one element */
    TEST_CL_LAYOUTS = 4,
    /* Or'ed into a layout: out is then's (or else's) buffer at its offset, in place (that
     * input must have the output's shape), so the guard bytes checked are that input's. */
    TEST_CL_OUT_IN_THEN = 1 << 8,
    TEST_CL_OUT_IN_ELSE = 1 << 9
};

/* Runs `plan` on host data through clsel_cl_enqueue: every tensor goes into its own
 * buffer at the layout's offset (any value: modulo TEST_CL_LAYOUTS), with guard bytes
 * before and after (or out in an input's buffer, with TEST_CL_OUT_IN_*); the call waits
 * on a user event and returns an event that is waited on. *guards_ok says whether the
 * output buffer's guard bytes survived. `out` receives the result only on success. */
clsel_status test_cl_run(test_cl *env, const clsel_plan *plan, const void *cond,
                         const void *then_data, const void *else_data, void *out, size_t layout,
                         int *guards_ok);

/* Creates a buffer of `bytes` (at least 1) holding `host` if not NULL. Exits on failure. */
cl_mem test_cl_buffer(test_cl *env, cl_mem_flags flags, size_t bytes, const void *host);

#endif
