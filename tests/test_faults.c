/* test_faults.c - fault injection (the test-only library, host/testing.h): for every N,
 * the N-th OpenCL call, then the N-th host allocation, of a whole workflow fails. Each
 * call must then return an error status with a message, hand out no event, leave the
 * output untouched, and AUTO must fall back to the CPU path when opening the device
 * fails; calls that succeed must still give exact results, and a chunked runtime run
 * (tensors over the device's allocation limit) must end right whatever fails.
 *
 *   test_faults [max_n]
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/testing.h"
#include "test_cl.h"
#include "test_util.h"

enum { N = 4096 };

static test_cl env;
static uint8_t cond[N];
static uint32_t then_data[N], else_data[N], want[N];
static int status_seen[CLSEL_ERROR_OPENCL + 1];

static void note(clsel_status st)
{
    if ((unsigned)st <= CLSEL_ERROR_OPENCL) status_seen[st]++;
    if (st != CLSEL_SUCCESS) CHECK_MSG(*clsel_last_error() != '\0', "%s without a message", clsel_status_string(st));
}

/* The interop path: context, plan, enqueue with an event, read back. */
static void interop_workflow(void)
{
    clsel_cl_context *ctx = NULL;
    clsel_status st = clsel_cl_context_create(env.context, env.device, &ctx);
    note(st);
    CHECK((st == CLSEL_SUCCESS) == (ctx != NULL));
    clsel_plan *plan = NULL;
    clsel_shape s = SHAPE(N);
    st = clsel_plan_create(CLSEL_F32, &s, &s, &s, NULL, &plan);
    note(st);
    if (ctx && plan) {
        uint32_t sentinel[N], got[N];
        memset(sentinel, 0xC3, sizeof sentinel);
        cl_mem c = test_cl_buffer(&env, CL_MEM_READ_ONLY, N, cond);
        cl_mem t = test_cl_buffer(&env, CL_MEM_READ_ONLY, sizeof then_data, then_data);
        cl_mem e = test_cl_buffer(&env, CL_MEM_READ_ONLY, sizeof else_data, else_data);
        cl_mem o = test_cl_buffer(&env, CL_MEM_READ_WRITE, sizeof sentinel, sentinel);
        cl_event done = (cl_event)&done;
        st = clsel_cl_enqueue(ctx, plan, env.queue, c, 0, t, 0, e, 0, o, 0, 0, NULL, &done);
        note(st);
        if (st == CLSEL_SUCCESS) {
            CHECK(done != NULL && clWaitForEvents(1, &done) == CL_SUCCESS);
            clReleaseEvent(done);
        } else {
            CHECK_MSG(done == NULL, "a failed enqueue handed out an event");
        }
        clEnqueueReadBuffer(env.queue, o, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
        CHECK(memcmp(got, st == CLSEL_SUCCESS ? want : sentinel, sizeof got) == 0);
        clReleaseMemObject(c);
        clReleaseMemObject(t);
        clReleaseMemObject(e);
        clReleaseMemObject(o);
    }
    clsel_plan_destroy(plan);
    clsel_cl_context_destroy(ctx);
}

/* Chunked runs the CPU path finished after a device fault (clsel_runtime_last_run_path). */
static long rescued_runs;

/* The caller learns whether the device finished a successful run or the CPU path did. */
static void check_path(int on_cpu, long rescues_before, const char *what)
{
    const clsel_run_path path = on_cpu                                       ? CLSEL_RUN_CPU
                                : clsel_testing_rescues() > rescues_before ? CLSEL_RUN_RESCUED
                                                                           : CLSEL_RUN_DEVICE;
    CHECK_MSG(clsel_runtime_last_run_path() == path, "%s: path %d, expected %d", what,
              (int)clsel_runtime_last_run_path(), (int)path);
    rescued_runs += path == CLSEL_RUN_RESCUED;
}

/* The runtime: AUTO falls back to the CPU path if the device cannot be opened. */
static void runtime_workflow(void)
{
    clsel_runtime *rt = NULL;
    clsel_status st = clsel_runtime_create(CLSEL_DEVICE_AUTO, &rt);
    note(st);
    if (rt) clsel_runtime_set_min_device_bytes(rt, 0); /* this small run on the device too */
    clsel_plan *plan = NULL;
    clsel_shape s = SHAPE(N);
    clsel_status pst = clsel_plan_create(CLSEL_U32, &s, &s, &s, NULL, &plan);
    note(pst);
    if (rt && plan) {
        if (clsel_runtime_device(rt) == CLSEL_DEVICE_CPU)
            CHECK_MSG(*clsel_runtime_fallback_reason(rt) != '\0', "fell back without a reason");
        uint32_t got[N];
        memset(got, 0xC3, sizeof got);
        const long rescues_before_run = clsel_testing_rescues();
        st = clsel_runtime_run(rt, plan, cond, then_data, else_data, got);
        note(st);
        const int on_cpu = clsel_runtime_device(rt) == CLSEL_DEVICE_CPU;
        if (st == CLSEL_SUCCESS) {
            CHECK(memcmp(got, want, sizeof got) == 0);
            check_path(on_cpu, rescues_before_run, "one-chunk run");
        } else {
            CHECK(clsel_runtime_last_run_path() == CLSEL_RUN_NONE);
            uint32_t sentinel[N];
            memset(sentinel, 0xC3, sizeof sentinel);
            CHECK(memcmp(got, sentinel, sizeof got) == 0);
        }
        /* Again in chunks (an allocation limit of a quarter of the output): a fault
         * part-way must still end in the right result, finished on the CPU path. */
        clsel_testing_max_alloc(sizeof got / 4);
        memset(got, 0xC3, sizeof got);
        const long rescues = clsel_testing_rescues();
        st = clsel_runtime_run(rt, plan, cond, then_data, else_data, got);
        clsel_testing_max_alloc(0);
        note(st);
        CHECK_MSG(st == CLSEL_SUCCESS && memcmp(got, want, sizeof got) == 0, "chunked run: %s",
                  clsel_status_string(st));
        check_path(on_cpu, rescues, "chunked run");
    }
    clsel_plan_destroy(plan);
    clsel_runtime_destroy(rt);
}

/* Fails the n-th event of `kind` for n = 1, 2, ... until a whole run passes without
 * reaching it; returns how many faults were injected. */
static long sweep(clsel_fault_kind kind, long max_n)
{
    long n = 1;
    for (; n <= max_n; ++n) {
        clsel_testing_fault_arm(kind, n);
        interop_workflow();
        runtime_workflow();
        long seen = clsel_testing_fault_arm(kind, 0);
        if (seen < n) break; /* the n-th event never came: every call ran clean */
    }
    CHECK_MSG(n <= max_n, "the sweep did not reach a clean run within %ld faults", max_n);
    return n - 1;
}

int main(int argc, char **argv)
{
    const long max_n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
    test_cl_open(&env);
    rng r = {42};
    fill_cond(cond, N, &r);
    fill_values(then_data, N, 4, &r);
    fill_values(else_data, N, 4, &r);
    for (int i = 0; i < N; ++i) want[i] = cond[i] ? then_data[i] : else_data[i];

    long cl_faults = sweep(CLSEL_FAULT_OPENCL, max_n);
    long alloc_faults = sweep(CLSEL_FAULT_ALLOC, max_n);
    printf("injected %ld OpenCL-call faults and %ld allocation faults; statuses:", cl_faults, alloc_faults);
    for (int s = 0; s <= CLSEL_ERROR_OPENCL; ++s)
        if (status_seen[s]) printf(" %s x%d,", clsel_status_string((clsel_status)s), status_seen[s]);
    printf("\n");
    /* The sweep must have reached the statuses only faults can produce. */
    CHECK(cl_faults > 10 && alloc_faults >= 2);
    CHECK(status_seen[CLSEL_ERROR_BUILD] > 0 && status_seen[CLSEL_ERROR_OPENCL] > 0);
    CHECK(status_seen[CLSEL_ERROR_OUT_OF_MEMORY] > 0);
    CHECK_MSG(rescued_runs > 0, "no chunked run was rescued by the CPU path");
    printf("%ld chunked runs finished on the CPU path after a device fault, each reported as rescued\n",
           rescued_runs);
    test_cl_close(&env);
    return check_report("test_faults");
}
