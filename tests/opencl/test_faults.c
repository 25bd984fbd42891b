/* test_faults.c - fault injection into the shipped library: for every N, the N-th
 * OpenCL call, then the N-th host allocation, of a whole workflow fails. OpenCL calls
 * fail in tests/opencl/cl_fault_shim.c, an OpenCL library that forwards to the real one and
 * that ctest names in CLSEL_OPENCL_LIBRARY; allocations fail in this test's allocator,
 * installed with clsel_set_allocator. Each call must then return an error status with a
 * message, hand out no event, leave the output untouched, and AUTO must fall back to
 * the CPU path when opening the device fails; calls that succeed must still give exact
 * results, and a chunked runtime run must end right whatever fails, reported as rescued
 * exactly when a fault hit it.
 *
 *   test_faults [--max-faults N] [--stride N] [--cache-dir DIR] [CASE...]
 *   opencl_calls  the sweep over OpenCL calls (--stride > 1: every stride-th call only)
 *   allocations   the sweep over host allocations
 *   drain         a device that cannot finish its queue
 *   cache_calls   the OpenCL sweep with the kernel cache on, in a folder made under DIR
 * Each sweep stops at its first clean run, or fails after --max-faults faults (2000). */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "test_cl.h"
#include "test_util.h"

/* One kind of fault: a counter of calls and the one that fails. */
typedef struct fault_kind {
    const char *name;
    long (*arm)(long n); /* the n-th call from now fails (0: none); returns the calls so far */
    long (*calls)(void); /* calls since the last arm */
    const char *(*failed)(void); /* the function whose call failed since the last arm (or NULL) */
    long armed;
} fault_kind;

/* Allocations: this test's allocator fails the armed one. */
static long alloc_calls, alloc_fail_at;

static void *failing_allocate(void *user, size_t size)
{
    (void)user;
    return ++alloc_calls == alloc_fail_at ? NULL : malloc(size);
}

static void plain_release(void *user, void *memory)
{
    (void)user;
    free(memory);
}

static long alloc_arm(long n)
{
    long seen = alloc_calls;
    alloc_calls = 0;
    alloc_fail_at = n;
    return seen;
}

static long alloc_count(void)
{
    return alloc_calls;
}

static fault_kind opencl_faults = {"OpenCL call", NULL, NULL, NULL, 0};
static void (*fail_named)(const char *names, long count); /* the shim's */
static fault_kind alloc_faults = {"allocation", alloc_arm, alloc_count, NULL, 0};

/* The shim's controls, from the module clsel loaded (dlopen hands back the same one). */
static void find_shim(void)
{
    const char *path = getenv("CLSEL_OPENCL_LIBRARY");
    void *shim = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    void *arm = shim ? dlsym(shim, "clsel_fault_shim_arm") : NULL,
         *calls = shim ? dlsym(shim, "clsel_fault_shim_calls") : NULL,
         *failed = shim ? dlsym(shim, "clsel_fault_shim_failed") : NULL,
         *named = shim ? dlsym(shim, "clsel_fault_shim_fail_named") : NULL;
    if (!arm || !calls || !failed || !named) {
        fprintf(stderr,
                "test_faults: CLSEL_OPENCL_LIBRARY (%s) must name tests/opencl/cl_fault_shim's "
                "module\n",
                path ? path : "unset");
        exit(1);
    }
    memcpy(&opencl_faults.arm, &arm, sizeof arm);
    memcpy(&opencl_faults.calls, &calls, sizeof calls);
    memcpy(&opencl_faults.failed, &failed, sizeof failed);
    memcpy(&fail_named, &named, sizeof named);
}

/* Whether the armed fault of `k` happened between two readings of its counter. */
static int fault_between(const fault_kind *k, long calls_before)
{
    const long now = k->calls();
    return k->armed > calls_before && k->armed <= now;
}

static fault_kind *active; /* the kind being swept */

enum {
    N = 4096
};

static test_cl env;
static uint8_t cond[N];
static uint32_t then_data[N], else_data[N], want[N];
static int status_seen[CLSEL_ERROR_OPENCL + 1];

static void note(clsel_status st)
{
    if ((unsigned)st <= CLSEL_ERROR_OPENCL)
        status_seen[st]++;
    if (st != CLSEL_SUCCESS)
        CHECK_MSG(*clsel_last_error() != '\0', "%s without a message", clsel_status_string(st));
    /* A failed build leaves the compiler's log (the shim's failed build is a real one). */
    if (st == CLSEL_ERROR_BUILD)
        CHECK_MSG(*clsel_cl_build_log(NULL) != '\0', "a failed build without its log: %s",
                  clsel_last_error());
    /* A failed OpenCL call leaves its own code for the caller (clsel_cl_last_cl_error). */
    if (st == CLSEL_ERROR_OPENCL)
        CHECK_MSG(clsel_cl_last_cl_error() != CL_SUCCESS,
                  "CLSEL_ERROR_OPENCL without the call's code: %s", clsel_last_error());
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
        /* An empty output with an event: a marker, which may fail like any call. */
        clsel_plan *empty = NULL;
        clsel_shape none = SHAPE(0);
        st = clsel_plan_create(CLSEL_F32, &none, &none, &none, NULL, &empty);
        note(st);
        if (empty) {
            done = (cl_event)&done;
            st = clsel_cl_enqueue(ctx, empty, env.queue, c, 0, t, 0, e, 0, o, 0, 0, NULL, &done);
            note(st);
            CHECK_MSG((st == CLSEL_SUCCESS) == (done != NULL), "empty output: %s, event %p",
                      clsel_status_string(st), (void *)done);
            if (done)
                CHECK(clWaitForEvents(1, &done) == CL_SUCCESS &&
                      clReleaseEvent(done) == CL_SUCCESS);
            clsel_plan_destroy(empty);
        }
        clReleaseMemObject(c);
        clReleaseMemObject(t);
        clReleaseMemObject(e);
        clReleaseMemObject(o);
    }
    clsel_plan_destroy(plan);
    clsel_cl_context_destroy(ctx);
}

/* Runs the CPU path finished after a device fault (clsel_runtime_last_run_path). */
static long rescued_runs;

/* Whether the armed fault hit a call the library rides over on the device: reading the
 * build log of a program that built (a run's first use of its element width builds). */
static int fault_tolerated(const fault_kind *k)
{
    const char *name = k->failed ? k->failed() : NULL;
    return name && strcmp(name, "clGetProgramBuildInfo") == 0;
}

/* The caller learns whether the device finished a successful run or the CPU path did:
 * rescued exactly when the armed fault hit the run (and was not one it rides over). */
static void check_path(int on_cpu, long calls_before, const char *what)
{
    const int rescue = fault_between(active, calls_before) && !fault_tolerated(active);
    const clsel_run_path path = on_cpu   ? CLSEL_RUN_CPU
                                : rescue ? CLSEL_RUN_RESCUED
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
    if (rt)
        clsel_runtime_set_min_device_bytes(rt, 0); /* this small run on the device too */
    clsel_plan *plan = NULL;
    clsel_shape s = SHAPE(N);
    clsel_status pst = clsel_plan_create(CLSEL_U32, &s, &s, &s, NULL, &plan);
    note(pst);
    if (rt && plan) {
        if (clsel_runtime_device(rt) == CLSEL_DEVICE_CPU)
            CHECK_MSG(*clsel_runtime_fallback_reason(rt) != '\0', "fell back without a reason");
        uint32_t got[N];
        memset(got, 0xC3, sizeof got);
        const long calls_before_run =
            active->calls(); /* zero copy where the device works in host memory */
        st = clsel_runtime_run(rt, plan, cond, then_data, else_data, got);
        note(st);
        const int on_cpu = clsel_runtime_device(rt) == CLSEL_DEVICE_CPU;
        if (st == CLSEL_SUCCESS) {
            CHECK(memcmp(got, want, sizeof got) == 0);
            check_path(on_cpu, calls_before_run, "zero-copy run");
        } else {
            CHECK(clsel_runtime_last_run_path() == CLSEL_RUN_NONE);
            uint32_t sentinel[N];
            memset(sentinel, 0xC3, sizeof sentinel);
            CHECK(memcmp(got, sentinel, sizeof got) == 0);
        }
        /* Again in chunks (a quarter of the output each): a fault part-way must still
         * end in the right result, finished on the CPU path. */
        if (!on_cpu)
            CHECK_OK(clsel_runtime_set_zero_copy(rt, 0)); /* copied, not in place */
        if (!on_cpu)
            CHECK_OK(clsel_runtime_set_chunk_bytes(rt, sizeof got / 4));
        memset(got, 0xC3, sizeof got);
        const long calls_before = active->calls();
        st = clsel_runtime_run(rt, plan, cond, then_data, else_data, got);
        note(st);
        CHECK_MSG(st == CLSEL_SUCCESS && memcmp(got, want, sizeof got) == 0, "chunked run: %s",
                  clsel_status_string(st));
        check_path(on_cpu, calls_before, "chunked run");
    }
    clsel_plan_destroy(plan);
    clsel_runtime_destroy(rt);
}

/* Both workflows, the interop one and the runtime's. */
static void every_workflow(void)
{
    interop_workflow();
    runtime_workflow();
}

/* Fails the n-th event of `kind` for n = 1, 1 + stride, 1 + 2 stride, ... until a whole
 * run of `workflow` passes without reaching it (`before_each` runs ahead of each, unarmed);
 * returns how many faults were injected. A stride above 1 samples the calls, for
 * implementations too slow to fail each one (Oclgrind). */
static long sweep(fault_kind *kind, long max_n, long stride, void (*workflow)(void),
                  void (*before_each)(void))
{
    active = kind;
    long n = 1, injected = 0;
    for (; n <= max_n; n += stride, ++injected) {
        if (before_each)
            before_each();
        kind->arm(kind->armed = n);
        workflow();
        long seen = kind->arm(kind->armed = 0);
        if (seen < n)
            break; /* the n-th call never came: every call ran clean */
    }
    CHECK_MSG(n <= max_n, "the %s sweep did not reach a clean run within %ld faults", kind->name,
              max_n);
    return injected;
}

static int64_t max_faults = 2000, stride = 1;

static int open_device(void)
{
    if (stride < 1)
        stride = 1;
    find_shim();
    const clsel_allocator counting = {failing_allocate, plain_release, NULL};
    CHECK_OK(clsel_set_allocator(&counting));
    test_cl_open(&env);
    rng r = {42};
    fill_cond(cond, N, &r);
    fill_values(then_data, N, 4, &r);
    fill_values(else_data, N, 4, &r);
    for (int i = 0; i < N; ++i)
        want[i] = cond[i] ? then_data[i] : else_data[i];
    return 0;
}

static void close_device(void)
{
    test_cl_close(&env);
    CHECK_OK(clsel_set_allocator(NULL));
}

/* One sweep with its own tally of statuses and rescued runs; how many faults it injected. */
static long sweep_and_report(fault_kind *kind, long sweep_stride)
{
    memset(status_seen, 0, sizeof status_seen);
    rescued_runs = 0;
    const long faults = sweep(kind, (long)max_faults, sweep_stride, every_workflow, NULL);
    printf("injected %ld %s faults; statuses:", faults, kind->name);
    for (int s = 0; s <= CLSEL_ERROR_OPENCL; ++s)
        if (status_seen[s])
            printf(" %s x%d,", clsel_status_string((clsel_status)s), status_seen[s]);
    printf("\n%ld device runs (zero copy or chunked) finished on the CPU path after a device "
           "fault, each "
           "reported as rescued\n",
           rescued_runs);
    return faults;
}

/* Each sweep must have reached the statuses only its faults can produce. */
static void test_opencl_calls(void)
{
    const long faults = sweep_and_report(&opencl_faults, (long)stride);
    CHECK(faults > 10 / stride);
    CHECK(status_seen[CLSEL_ERROR_OPENCL] > 0);
    /* One call gives a build failure (a sample may miss it); the native path builds nothing. */
    CHECK(stride > 1 || clsel_cl_context_path(env.ctx) == CLSEL_CL_PATH_NATIVE ||
          status_seen[CLSEL_ERROR_BUILD] > 0);
    CHECK_MSG(rescued_runs > 0, "no device run was rescued by the CPU path");
}

static void test_allocations(void)
{
    const long faults = sweep_and_report(&alloc_faults, 1);
    CHECK(faults >= 2);
    CHECK(status_seen[CLSEL_ERROR_OUT_OF_MEMORY] > 0);
}

/* A device that cannot finish its queue: clFinish fails, then the wait for the run's last
 * command, then (with three failures) the query of its status too. The runtime returns only
 * once the queue can no longer touch the caller's memory (a later clFinish, or the last command
 * complete), and finishes the run on the CPU path; in place and copied, in chunks. */
static void test_drain(void)
{
    clsel_runtime *rt = NULL;
    CHECK_OK(clsel_runtime_create(CLSEL_DEVICE_OPENCL, &rt));
    clsel_plan *plan = NULL;
    clsel_shape s = SHAPE(N);
    CHECK_OK(clsel_plan_create(CLSEL_U32, &s, &s, &s, NULL, &plan));
    if (!rt || !plan)
        return;
    CHECK_OK(clsel_runtime_set_min_device_bytes(rt, 0));
    for (long failures = 2; failures <= 3; ++failures) {
        for (int zero_copy = 1; zero_copy >= 0; --zero_copy) {
            CHECK_OK(clsel_runtime_set_zero_copy(rt, zero_copy));
            CHECK_OK(clsel_runtime_set_chunk_bytes(rt, zero_copy ? 0 : sizeof want / 4));
            uint32_t got[N];
            memset(got, 0xC3, sizeof got);
            fail_named("clFinish,clWaitForEvents,clGetEventInfo", failures);
            CHECK_OK(clsel_runtime_run(rt, plan, cond, then_data, else_data, got));
            fail_named(NULL, 0);
            CHECK_MSG(memcmp(got, want, sizeof got) == 0 &&
                          clsel_runtime_last_run_path() == CLSEL_RUN_RESCUED,
                      "%ld failures, zero copy %d: path %d", failures, zero_copy,
                      (int)clsel_runtime_last_run_path());
        }
    }
    clsel_plan_destroy(plan);
    clsel_runtime_destroy(rt);
}

/* The kernel cache under faults: its folder (--cache-dir), and the entries in it. */
static const char *cache_parent;
static char cache_dir[1024];

static void remove_cache_entries(void)
{
    test_remove_files_in(cache_dir);
}

/* The interop workflow's sweep with the kernel cache on: each call of the cache's own (the
 * device facts of an entry's key, a load, the build of a loaded binary, the read of a built
 * binary to store it) may fail like any other, and must cost only the cache, never the run:
 * every failure status the workflow returns is then one it returns without a cache too.
 * Once with the folder emptied before each run (every run builds and stores), once with
 * the entries of a clean run in it (every run loads them). */
static void test_cache_calls(void)
{
    if (!cache_parent) {
        CHECK_MSG(0, "the cache_calls case needs --cache-dir DIR");
        return;
    }
    if (clsel_cl_context_path(env.ctx) == CLSEL_CL_PATH_NATIVE) {
        printf("cache_calls: the native path builds nothing; no cache to fail\n");
        return;
    }
    snprintf(cache_dir, sizeof cache_dir, "%s/fault-cache-XXXXXX", cache_parent);
    CHECK(mkdtemp(cache_dir) != NULL);
    setenv("CLSEL_KERNEL_CACHE_DIR", cache_dir, 1);
    setenv("CLSEL_KERNEL_CACHE", "on", 1);
    memset(status_seen, 0, sizeof status_seen);
    const long storing = sweep(&opencl_faults, (long)max_faults, (long)stride, interop_workflow,
                               remove_cache_entries);
    remove_cache_entries();
    interop_workflow(); /* unarmed: builds and stores the entry */
    const int entries = test_files_in(cache_dir, NULL, 0);
    CHECK_MSG(entries == 1, "%d entries after a clean run", entries);
    const long loading =
        sweep(&opencl_faults, (long)max_faults, (long)stride, interop_workflow, NULL);
    printf("injected %ld OpenCL call faults storing cache entries and %ld loading them\n", storing,
           loading);
    CHECK(storing > 10 / stride && loading > 10 / stride);
    remove_cache_entries();
    rmdir(cache_dir);
    setenv("CLSEL_KERNEL_CACHE", "off", 1);
}

static const test_case cases[] = {
    {"opencl_calls", test_opencl_calls},
    {"allocations", test_allocations},
    {"drain", test_drain},
    {"cache_calls", test_cache_calls},
};

static const check_flag flags[] = {
    {"--cache-dir", CHECK_FLAG_TEXT, &cache_parent, NULL,
     "where the cache_calls case makes its kernel cache folder"},
    {"--max-faults", CHECK_FLAG_I64, &max_faults, NULL,
     "the most faults a sweep injects (default 2000)"},
    {"--stride", CHECK_FLAG_I64, &stride, NULL,
     "fail every N-th OpenCL call only (default 1: each)"},
};

int main(int argc, char **argv)
{
    const check_suite suite = {"test_faults",      cases,       CHECK_COUNT(cases), flags,
                               CHECK_COUNT(flags), open_device, close_device};
    return check_main(argc, argv, &suite);
}
