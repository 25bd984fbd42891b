/* test_runtime.c - clsel_runtime: device choice (AUTO, CPU, OPENCL, the CLSEL_DEVICE /
 * CLSEL_PLATFORM / CLSEL_DEVICE_INDEX environment; AUTO passes over CPU-type devices),
 * the CPU fallback, the CPU path's threads, and runs on host memory that match the CPU
 * path bit for bit, from several threads at once.
 *
 *   test_runtime [--no-opencl] [--quick] [CASE...]
 *   (no flag)    with whatever OpenCL this machine has
 *   --no-opencl  expects that no OpenCL device can be had (the test sets
 *                CLSEL_OPENCL_LIBRARY to a missing file or to a library without OpenCL, or
 *                OCL_ICD_VENDORS to an empty folder)
 *   --quick      for the slow implementations: without the AUTO measurement of a discrete
 *                device, whose runs of 8M elements take a simulated device (Oclgrind)
 *                minutes, and without runs from several threads at once (Oclgrind 21.10
 *                runs one kernel at a time and aborts when two threads launch together) */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/tuning.h" /* the library's internal knobs (linked with libclsel.a) */
#include "test_util.h"

static int opencl_expected;
static int no_opencl, quick; /* the flags */

/* Whether this machine has an available OpenCL GPU or accelerator (what AUTO takes). */
static int has_accelerator(void)
{
    clsel_device_info infos[16];
    int32_t count = 0;
    if (clsel_list_devices(infos, 16, &count) != CLSEL_SUCCESS)
        return 0;
    for (int32_t i = 0; i < count && i < 16; ++i)
        if (infos[i].available &&
            (strcmp(infos[i].type, "GPU") == 0 || strcmp(infos[i].type, "accelerator") == 0))
            return 1;
    return 0;
}

static clsel_runtime *create(clsel_device want, clsel_status expected)
{
    clsel_runtime *rt = NULL;
    CHECK_STATUS(clsel_runtime_create(want, &rt), expected);
    CHECK((rt != NULL) == (expected == CLSEL_SUCCESS));
    return rt;
}

/* A run big enough for the CPU path's threads (it moves more than 32 MiB), through a
 * runtime with 0 (every core), 1 and 3 threads: the same bytes each time. */
static void test_cpu_threads(void)
{
    clsel_runtime *rt = create(CLSEL_DEVICE_CPU, CLSEL_SUCCESS);
    CHECK_STATUS(clsel_runtime_set_cpu_threads(NULL, 2), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(clsel_runtime_set_cpu_threads(rt, -1), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "threads is -1"));
    clsel_shape c = SHAPE(3000, 1), t = SHAPE(3000, 1000), e = SHAPE(1000);
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(CLSEL_F32, &c, &t, &e, NULL, &plan));
    test_data td;
    test_data_make(&td, plan, 77);
    const size_t bytes = (size_t)td.out_count * td.w;
    CHECK_OK(clsel_plan_run_cpu(plan, td.cond, td.then_data, td.else_data, td.want));
    static const int32_t threads[] = {0, 1, 3};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; ++i) {
        CHECK_OK(clsel_runtime_set_cpu_threads(rt, threads[i]));
        memset(td.got, 0xEE, bytes);
        CHECK_OK(clsel_runtime_run(rt, plan, td.cond, td.then_data, td.else_data, td.got));
        CHECK_MSG(memcmp(td.got, td.want, bytes) == 0, "%d CPU threads differ", (int)threads[i]);
        CHECK(clsel_runtime_last_run_path() == CLSEL_RUN_CPU);
    }
    test_data_free(&td);
    clsel_plan_destroy(plan);
    clsel_runtime_destroy(rt);
}

/* Runs a set of plans through the runtime and the CPU path and compares. */
static void check_runs(clsel_runtime *rt, uint64_t seed)
{
    const clsel_shape cases[][3] = {
        {SHAPE(64, 100), SHAPE(64, 100), SHAPE(64, 100)},
        {SHAPE(1, 100), SHAPE(64, 1), SHAPE(100)},
        {SCALAR, SCALAR, SCALAR},
        {SHAPE(0, 5), SHAPE(0, 5), SHAPE(5)},
        {SHAPE(2, 1, 2, 1, 2), SHAPE(1, 3, 1, 3, 1), SHAPE(2, 3, 2, 3, 2)},
    };
    rng r = {seed};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        clsel_dtype dtype = all_dtypes[rng_below(&r, 13)];
        clsel_plan *plan = NULL;
        CHECK_OK(clsel_plan_create(dtype, &cases[k][0], &cases[k][1], &cases[k][2], NULL, &plan));
        if (!plan)
            continue;
        test_data td;
        test_data_make(&td, plan, rng_next(&r));
        const size_t out_bytes = (size_t)td.out_count * td.w;
        CHECK_OK(clsel_plan_run_cpu(plan, td.cond, td.then_data, td.else_data, td.want));
        CHECK_OK(clsel_runtime_run(rt, plan, td.cond, td.then_data, td.else_data, td.got));
        CHECK_MSG(memcmp(td.got, td.want, out_bytes) == 0, "case %zu on %s", k,
                  clsel_runtime_device_name(rt));
        if (td.count[1] == td.out_count) { /* in place on then */
            CHECK_OK(
                clsel_runtime_run(rt, plan, td.cond, td.then_data, td.else_data, td.then_data));
            CHECK(memcmp(td.then_data, td.want, out_bytes) == 0);
        }
        test_data_free(&td);
        clsel_plan_destroy(plan);
    }
}

typedef struct thread_job {
    clsel_runtime *rt;
    uint64_t seed;
} thread_job;

static void *thread_runs(void *arg)
{
    const thread_job *job = arg;
    for (uint64_t i = 0; i < 20; ++i)
        check_runs(job->rt, job->seed * 1000 + i);
    return NULL;
}

static void test_threads(clsel_runtime *rt)
{
    pthread_t threads[4];
    thread_job jobs[4];
    for (int i = 0; i < 4; ++i) {
        jobs[i] = (thread_job){rt, (uint64_t)i + 10};
        pthread_create(&threads[i], NULL, thread_runs, &jobs[i]);
    }
    for (int i = 0; i < 4; ++i)
        pthread_join(threads[i], NULL);
}

static void test_errors(clsel_runtime *rt)
{
    clsel_shape s = SHAPE(4);
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(CLSEL_I32, &s, &s, &s, NULL, &plan));
    const uint8_t c[4] = {1, 0, 1, 0};
    int32_t t[4] = {1, 2, 3, 4}, e[4] = {5, 6, 7, 8}, out[4] = {0, 0, 0, 0};
    CHECK_STATUS(clsel_runtime_run(NULL, plan, c, t, e, out), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(clsel_runtime_run(rt, NULL, c, t, e, out), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(clsel_runtime_run(rt, plan, NULL, t, e, out), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(clsel_runtime_run(rt, plan, c, t, e, t + 1), CLSEL_ERROR_BUFFER);
    CHECK(out[0] == 0 && t[1] == 2);
    clsel_plan_destroy(plan);
    clsel_runtime *none = (clsel_runtime *)&none;
    CHECK_STATUS(clsel_runtime_create((clsel_device)7, &none), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(none == (clsel_runtime *)&none);
    CHECK_STATUS(clsel_runtime_create(CLSEL_DEVICE_AUTO, NULL), CLSEL_ERROR_INVALID_ARGUMENT);
    clsel_runtime_destroy(NULL);
    CHECK(clsel_runtime_device(NULL) == CLSEL_DEVICE_CPU &&
          strcmp(clsel_runtime_device_name(NULL), "cpu") == 0);
}

static void test_environment(void)
{
    setenv("CLSEL_DEVICE", "cpu", 1);
    clsel_runtime *rt = create(CLSEL_DEVICE_AUTO, CLSEL_SUCCESS);
    CHECK(clsel_runtime_device(rt) == CLSEL_DEVICE_CPU &&
          *clsel_runtime_fallback_reason(rt) == '\0');
    clsel_runtime_destroy(rt);
    /* The variable only steers AUTO. */
    rt = create(opencl_expected ? CLSEL_DEVICE_OPENCL : CLSEL_DEVICE_CPU, CLSEL_SUCCESS);
    CHECK(clsel_runtime_device(rt) == (opencl_expected ? CLSEL_DEVICE_OPENCL : CLSEL_DEVICE_CPU));
    clsel_runtime_destroy(rt);

    setenv("CLSEL_DEVICE", "gpu-please", 1);
    create(CLSEL_DEVICE_AUTO, CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "CLSEL_DEVICE=gpu-please is not one of auto, cpu, opencl"));

    setenv("CLSEL_DEVICE", "opencl", 1);
    rt = create(CLSEL_DEVICE_AUTO, opencl_expected ? CLSEL_SUCCESS : CLSEL_ERROR_NO_DEVICE);
    clsel_runtime_destroy(rt);
    unsetenv("CLSEL_DEVICE");

    if (opencl_expected) {
        setenv("CLSEL_PLATFORM", "99", 1);
        rt = create(CLSEL_DEVICE_AUTO, CLSEL_SUCCESS);
        CHECK(clsel_runtime_device(rt) == CLSEL_DEVICE_CPU);
        CHECK(strstr(clsel_runtime_fallback_reason(rt), "CLSEL_PLATFORM=99"));
        clsel_runtime_destroy(rt);
        create(CLSEL_DEVICE_OPENCL, CLSEL_ERROR_NO_DEVICE);
        setenv("CLSEL_PLATFORM", "0",
               1); /* a platform named: AUTO takes its devices, CPU ones too */
        rt = create(CLSEL_DEVICE_AUTO, CLSEL_SUCCESS);
        CHECK_MSG(clsel_runtime_device(rt) == CLSEL_DEVICE_OPENCL,
                  "CLSEL_PLATFORM=0: AUTO gave %s (%s)", clsel_runtime_device_name(rt),
                  clsel_runtime_fallback_reason(rt));
        clsel_runtime_destroy(rt);
        setenv("CLSEL_DEVICE_INDEX", "0", 1);
        rt = create(CLSEL_DEVICE_OPENCL, CLSEL_SUCCESS);
        clsel_runtime_destroy(rt);
        setenv("CLSEL_DEVICE_INDEX", "999", 1);
        create(CLSEL_DEVICE_OPENCL, CLSEL_ERROR_NO_DEVICE);
        CHECK(strstr(clsel_last_error(), "CLSEL_DEVICE_INDEX=999, but platform 0 has"));
        setenv("CLSEL_DEVICE_INDEX", "x", 1);
        create(CLSEL_DEVICE_OPENCL, CLSEL_ERROR_INVALID_ARGUMENT);
        unsetenv("CLSEL_PLATFORM");
        unsetenv("CLSEL_DEVICE_INDEX");
    }
}

/* AUTO's rule for a device that does not work in host memory (runtime_run.c), on
 * the device CLSEL_PLATFORM=0 names, made to count as such: the first big run measures
 * both paths once, and every run after goes where that said, with the right result; a
 * device asked for by name takes every run. */
static void test_auto_on_discrete(void)
{
    clsel_priv_knob_set(CLSEL_PRIV_KNOB_HOST_AS_DISCRETE, 1);
    setenv("CLSEL_PLATFORM", "0", 1);
    clsel_runtime *rt = create(CLSEL_DEVICE_AUTO, CLSEL_SUCCESS);
    CHECK(clsel_runtime_device(rt) == CLSEL_DEVICE_OPENCL);
    enum {
        BIG = 1 << 21
    };
    const clsel_shape s = {1, {BIG}};
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(CLSEL_F32, &s, &s, &s, NULL, &plan));
    test_data td;
    test_data_make(&td, plan, 99);
    CHECK_OK(clsel_plan_run_cpu(plan, td.cond, td.then_data, td.else_data, td.want));
    clsel_run_path first = CLSEL_RUN_NONE;
    for (int k = 0; k < 2; ++k) {
        memset(td.got, 0xEE, (size_t)td.out_count * td.w);
        CHECK_OK(clsel_runtime_run(rt, plan, td.cond, td.then_data, td.else_data, td.got));
        CHECK(memcmp(td.got, td.want, (size_t)td.out_count * td.w) == 0);
        const clsel_run_path path = clsel_runtime_last_run_path();
        if (k == 0)
            first = path;
        CHECK_MSG(path == first && (path == CLSEL_RUN_CPU || path == CLSEL_RUN_DEVICE),
                  "run %d went to path %d, the first to %d", k, (int)path, (int)first);
    }
    printf("AUTO on %s counted as discrete: host runs go to the %s\n",
           clsel_runtime_device_name(rt),
           first == CLSEL_RUN_DEVICE ? "device (it measured faster)"
                                     : "CPU path (it measured faster)");
    clsel_runtime_destroy(rt);
    rt = create(CLSEL_DEVICE_OPENCL, CLSEL_SUCCESS);
    CHECK_OK(clsel_runtime_run(rt, plan, td.cond, td.then_data, td.else_data, td.got));
    CHECK(clsel_runtime_last_run_path() == CLSEL_RUN_DEVICE &&
          memcmp(td.got, td.want, (size_t)td.out_count * td.w) == 0);
    clsel_runtime_destroy(rt);
    test_data_free(&td);
    clsel_plan_destroy(plan);
    unsetenv("CLSEL_PLATFORM");
    clsel_priv_knob_set(CLSEL_PRIV_KNOB_HOST_AS_DISCRETE, 0);
}

static int expect_devices(void)
{
    const char *require = getenv("CLSEL_REQUIRE_OPENCL");
    opencl_expected = !no_opencl && require && strcmp(require, "1") == 0;
    int32_t devices = 0;
    if (!no_opencl && clsel_list_devices(NULL, 0, &devices) == CLSEL_SUCCESS && devices > 0)
        opencl_expected = 1;
    return 0;
}

/* AUTO's choice, then runs on the device it took, small and big. */
static void test_auto(void)
{
    clsel_runtime *rt = create(CLSEL_DEVICE_AUTO, CLSEL_SUCCESS);
    if (!rt)
        return;
    printf("AUTO picked: %s%s%s\n", clsel_runtime_device_name(rt),
           *clsel_runtime_fallback_reason(rt) ? " - fallback: " : "",
           clsel_runtime_fallback_reason(rt));
    if (clsel_runtime_device(rt) == CLSEL_DEVICE_OPENCL)
        opencl_expected = 1;
    if (no_opencl) {
        CHECK(clsel_runtime_device(rt) == CLSEL_DEVICE_CPU);
        /* "cannot load the OpenCL library ...", "the OpenCL library lacks ...", or "no OpenCL
         * platform is installed" */
        const char *reason = clsel_runtime_fallback_reason(rt);
        CHECK_MSG(strstr(reason, "the OpenCL library") || strstr(reason, "no OpenCL platform"),
                  "fallback reason: %s", reason);
        create(CLSEL_DEVICE_OPENCL, CLSEL_ERROR_NO_DEVICE);
        CHECK_MSG(strcmp(clsel_last_error(), reason) == 0, "%s, where AUTO said %s",
                  clsel_last_error(), reason);
        int32_t devices = -1;
        CHECK(clsel_list_devices(NULL, 0, &devices) == CLSEL_ERROR_NO_DEVICE && devices == 0);
        CHECK_MSG(strcmp(clsel_last_error(), reason) == 0, "clsel_list_devices: %s",
                  clsel_last_error());
    } else if (opencl_expected && !has_accelerator() && !getenv("CLSEL_PLATFORM")) {
        /* only CPU devices (PoCL in CI), none named: AUTO passes over them */
        CHECK_MSG(clsel_runtime_device(rt) == CLSEL_DEVICE_CPU, "AUTO took the CPU device %s",
                  clsel_runtime_device_name(rt));
        CHECK(strstr(clsel_runtime_fallback_reason(rt), "are CPU devices"));
    } else {
        CHECK_MSG(clsel_runtime_device(rt) ==
                      (opencl_expected ? CLSEL_DEVICE_OPENCL : CLSEL_DEVICE_CPU),
                  "AUTO gave %s", clsel_runtime_device_name(rt));
    }
    check_runs(rt, 1); /* small runs: the CPU path, whatever the device */
    CHECK_STATUS(clsel_runtime_set_min_device_bytes(NULL, 0), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_OK(clsel_runtime_set_min_device_bytes(rt, 0)); /* from here every run on the device */
    check_runs(rt, 4);
    if (!quick)
        test_threads(rt);
    test_errors(rt);
    clsel_runtime_destroy(rt);
}

static void test_cpu(void)
{
    clsel_runtime *rt = create(CLSEL_DEVICE_CPU, CLSEL_SUCCESS);
    CHECK(clsel_runtime_device(rt) == CLSEL_DEVICE_CPU &&
          strcmp(clsel_runtime_device_name(rt), "cpu") == 0);
    check_runs(rt, 2);
    clsel_runtime_destroy(rt);
    test_cpu_threads();
}

static void test_opencl(void)
{
    clsel_runtime *rt =
        create(CLSEL_DEVICE_OPENCL, opencl_expected ? CLSEL_SUCCESS : CLSEL_ERROR_NO_DEVICE);
    if (rt)
        CHECK_OK(clsel_runtime_set_min_device_bytes(rt, 0));
    if (rt)
        check_runs(rt, 3);
    clsel_runtime_destroy(rt);
}

static void test_environment_unless_no_opencl(void)
{
    if (!no_opencl)
        test_environment();
}

static void test_auto_on_discrete_unless_quick(void)
{
    if (opencl_expected && !quick)
        test_auto_on_discrete();
}

static const test_case cases[] = {
    {"auto", test_auto},
    {"cpu", test_cpu},
    {"opencl", test_opencl},
    {"environment", test_environment_unless_no_opencl},
    {"auto_on_discrete", test_auto_on_discrete_unless_quick},
};

static const check_flag flags[] = {
    {"--no-opencl", CHECK_FLAG_SWITCH, &no_opencl, NULL,
     "no OpenCL library can be loaded (CLSEL_OPENCL_LIBRARY)"},
    {"--quick", CHECK_FLAG_SWITCH, &quick, NULL,
     "no runs from several threads, no AUTO measurement (Oclgrind)"},
};

int main(int argc, char **argv)
{
    const check_suite suite = {"test_runtime", cases, CHECK_COUNT(cases), flags, CHECK_COUNT(flags),
                               expect_devices, NULL};
    return check_main(argc, argv, &suite);
}
