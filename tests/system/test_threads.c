/* test_threads.c - many threads on shared library objects, every result compared with
 * the oracle bit for bit.
 *
 *   test_threads [--threads N] [--runs N] [--seed N] [cpu] [cl_context] [runtime]
 *   cpu         Plan creation and the CPU path from --threads threads (8) at once (CI runs
 *               it under ThreadSanitizer), each making --runs runs (1000): plans shared by
 *               all threads and plans each thread makes (valid and invalid, whose messages
 *               must stay the thread's own), run on the calling thread, on library threads
 *               and on a caller's pool of real threads.
 *   cl_context  One clsel_cl_context, and a set of plans with their input buffers, shared
 *               by the threads, each with its own in-order queue, each making --runs
 *               enqueues of random plans at random output offsets.
 *   runtime     The same threads and plans share one runtime (clsel_runtime_run), on its
 *               whole-tensor and chunked paths (--runs / 10 + 1 runs each, three times). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "check.h"
#include "oracle.h"
#include "random_case.h"
#include "test_util.h"
#if CLSEL_TEST_OPENCL
#include "test_cl.h"
#endif

/* Random shared plans, plus two of pool size and one of library-thread size. */
enum {
    SHARED_PLANS = 48,
    EXTRA_PLANS = 3,
    MAX_THREADS = 64
};

/* A plan every thread uses, with its inputs and the oracle's output. */
typedef struct shared_case {
    clsel_plan *plan;
    test_data data;
    char text[256];
#if CLSEL_TEST_OPENCL
    cl_mem in[3];
#endif
} shared_case;

typedef struct shared_state {
    shared_case cases[SHARED_PLANS + EXTRA_PLANS];
    int count;
    size_t max_out_bytes;
    int big; /* index of the case big enough for library threads, or -1 */
    int runs;
    uint64_t seed;
#if CLSEL_TEST_OPENCL
    test_cl cl;
    clsel_runtime *runtime;
#endif
} shared_state;

typedef struct worker {
    pthread_t thread;
    shared_state *shared;
    int index;
    long done; /* runs or enqueues compared with the oracle */
} worker;

/* Inputs and the oracle's output (of shape `out`) for the case whose plan sc->plan is. */
static void make_data(shared_case *sc, const oracle_case *c, const clsel_shape *out, uint64_t seed)
{
    test_data_make(&sc->data, sc->plan, seed);
    oracle_case oc = *c;
    oc.elem_size = sc->data.w;
    oracle_select(&oc, out, sc->data.cond, sc->data.then_data, sc->data.else_data, sc->data.want);
    clsel_plan_describe(sc->plan, sc->text, sizeof sc->text);
}

/* Plan, data and oracle output for a case; 0 when the case is not valid. */
static int prepare(shared_case *sc, const oracle_case *c, clsel_dtype dtype, uint64_t seed)
{
    clsel_attrs a = random_case_attrs(c);
    clsel_shape out;
    if (!oracle_shape(c, &out))
        return 0;
    if (clsel_plan_create(dtype, &c->shape[0], &c->shape[1], &c->shape[2], &a, &sc->plan) !=
        CLSEL_SUCCESS) {
        CHECK_MSG(0, "plan the oracle accepts was refused: %s", clsel_last_error());
        return 0;
    }
    make_data(sc, c, &out, seed);
    return 1;
}

/* An output of 2^16+ elements, the size from which a caller's pool gets pieces. */
static oracle_case pool_sized_case(int which)
{
    oracle_case c;
    memset(&c, 0, sizeof c);
    c.mode = CLSEL_BROADCAST_NUMPY;
    c.axis = -1;
    if (which == 0) { /* a row re-read by every output row */
        c.shape[0] = SHAPE(300, 257);
        c.shape[1] = SHAPE(300, 257);
        c.shape[2] = SHAPE(1, 257);
    } else { /* the memory-bound case */
        for (int k = 0; k < 3; ++k)
            c.shape[k] = SHAPE(3, 128, 200);
    }
    return c;
}

/* An output that moves over 32 MiB, so that the library starts threads when asked. */
static oracle_case thread_sized_case(void)
{
    oracle_case c;
    memset(&c, 0, sizeof c);
    c.mode = CLSEL_BROADCAST_NUMPY;
    c.axis = -1;
    c.shape[0] = SHAPE(1 << 21);
    c.shape[1] = SHAPE(1 << 21);
    c.shape[2] = SHAPE(1);
    return c;
}

static void make_shared(shared_state *s, int with_big)
{
    rng r = {s->seed};
    s->big = -1;
    while (s->count < SHARED_PLANS) {
        oracle_case c = random_case(&r);
        s->count += prepare(&s->cases[s->count], &c, all_dtypes[rng_below(&r, 13)], rng_next(&r));
    }
    for (int which = 0; which < 2 && with_big; ++which) {
        oracle_case c = pool_sized_case(which);
        CHECK(prepare(&s->cases[s->count], &c, which ? CLSEL_F32 : CLSEL_U8, rng_next(&r)));
        s->count++;
    }
    if (with_big) {
        oracle_case c = thread_sized_case();
        CHECK(prepare(&s->cases[s->count], &c, CLSEL_F64, rng_next(&r)));
        s->big = s->count++;
    }
    for (int i = 0; i < s->count; ++i) {
        size_t bytes = (size_t)s->cases[i].data.out_count * s->cases[i].data.w;
        if (bytes > s->max_out_bytes)
            s->max_out_bytes = bytes;
    }
}

static void free_shared(shared_state *s)
{
    for (int i = 0; i < s->count; ++i) {
        test_data_free(&s->cases[i].data);
        clsel_plan_destroy(s->cases[i].plan);
    }
}

/* ---- the CPU path ----------------------------------------------------------------- */

/* A caller's pool of real threads: each call starts helpers that take task indices
 * from a shared counter, as the calling thread does. */
typedef struct pool_call {
    atomic_llong next;
    int64_t count;
    clsel_parallel_task task;
    void *task_context;
} pool_call;

static void *pool_helper(void *arg)
{
    pool_call *call = arg;
    for (int64_t i; (i = atomic_fetch_add(&call->next, 1)) < call->count;)
        call->task(call->task_context, i);
    return NULL;
}

static void thread_pool_for(void *pool, int64_t count, clsel_parallel_task task, void *task_context)
{
    (void)pool;
    pool_call call = {0, count, task, task_context};
    pthread_t helpers[3];
    int started[3];
    for (int h = 0; h < 3; ++h)
        started[h] = pthread_create(&helpers[h], NULL, pool_helper, &call) == 0;
    pool_helper(&call);
    for (int h = 0; h < 3; ++h)
        if (started[h])
            pthread_join(helpers[h], NULL);
}

/* Runs a case with the given options and compares it with the oracle. */
static void run_cpu_case(const shared_case *sc, uint8_t *got, const clsel_cpu_options *opt,
                         const char *how)
{
    CHECK_MSG(test_cpu_run_matches(sc->plan, &sc->data, got, opt),
              "CPU path (%s) failed, differs from the oracle or wrote past the output: %s (%s)",
              how, sc->text, clsel_last_error());
}

/* A case of this thread's own: plan created here, while other threads do the same. A
 * refusal must carry this thread's message, unchanged by what the others do. */
static long own_case(rng *r, uint8_t *got)
{
    oracle_case c = random_case(r);
    clsel_dtype dtype = all_dtypes[rng_below(r, 13)];
    clsel_attrs a = random_case_attrs(&c);
    clsel_shape out;
    const int valid = oracle_shape(&c, &out);
    clsel_plan *plan = NULL;
    clsel_status st = clsel_plan_create(dtype, &c.shape[0], &c.shape[1], &c.shape[2], &a, &plan);
    CHECK_MSG((st == CLSEL_SUCCESS) == valid, "oracle says %s, plan creation %s (%s)",
              valid ? "valid" : "invalid", clsel_status_string(st), clsel_last_error());
    if (st != CLSEL_SUCCESS) {
        char message[1024];
        snprintf(message, sizeof message, "%s", clsel_last_error());
        CHECK_MSG(message[0] != '\0', "a refused plan left no message");
        sched_yield(); /* let the other threads fail and succeed in between */
        CHECK_MSG(strcmp(message, clsel_last_error()) == 0,
                  "message changed by another thread: '%s' -> '%s'", message, clsel_last_error());
        return 0;
    }
    shared_case sc;
    memset(&sc, 0, sizeof sc);
    sc.plan = plan;
    make_data(&sc, &c, &out, rng_next(r));
    run_cpu_case(&sc, got, NULL, "own plan");
    test_data_free(&sc.data);
    clsel_plan_destroy(plan);
    return 1;
}

static void *cpu_worker(void *arg)
{
    worker *w = arg;
    const shared_state *s = w->shared;
    rng r = {s->seed * 31 + (uint64_t)w->index + 1};
    uint8_t *got = test_alloc(s->max_out_bytes + TEST_GUARD_BYTES);
    for (int i = 0; i < s->runs; ++i) {
        if (rng_below(&r, 3) == 0) {
            w->done += own_case(&r, got);
            continue;
        }
        const shared_case *sc =
            &s->cases[rng_below(&r, (uint64_t)(s->big >= 0 ? s->big : s->count))];
        const clsel_cpu_options pool = test_cpu_options(0, thread_pool_for, NULL);
        const clsel_cpu_options two = test_cpu_options(2, NULL, NULL);
        const int how = (int)rng_below(&r, 3);
        run_cpu_case(sc, got,
                     how == 0   ? NULL
                     : how == 1 ? &pool
                                : &two,
                     how == 1 ? "pool" : "options");
        w->done++;
    }
    if (s->big >= 0) { /* once per thread: library threads started inside these threads */
        const clsel_cpu_options four = test_cpu_options(4, NULL, NULL);
        run_cpu_case(&s->cases[s->big], got, &four, "4 library threads");
        w->done++;
    }
    free(got);
    return NULL;
}

/* ---- OpenCL ------------------------------------------------------------------------ */
#if CLSEL_TEST_OPENCL

static void upload_shared(shared_state *s)
{
    for (int i = 0; i < s->count; ++i) {
        shared_case *sc = &s->cases[i];
        const size_t sizes[3] = {(size_t)sc->data.count[0], (size_t)sc->data.count[1] * sc->data.w,
                                 (size_t)sc->data.count[2] * sc->data.w};
        const void *host[3] = {sc->data.cond, sc->data.then_data, sc->data.else_data};
        for (int k = 0; k < 3; ++k)
            sc->in[k] = test_cl_buffer(&s->cl, CL_MEM_READ_ONLY, sizes[k], host[k]);
    }
}

static void release_shared(shared_state *s)
{
    for (int i = 0; i < s->count; ++i)
        for (int k = 0; k < 3; ++k)
            clReleaseMemObject(s->cases[i].in[k]);
}

/* Own queue, own output buffer; every enqueue read back and compared. */
static void *cl_worker(void *arg)
{
    worker *w = arg;
    shared_state *s = w->shared;
    rng r = {s->seed * 37 + (uint64_t)w->index + 1};
    cl_int err = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueue(s->cl.context, s->cl.device, 0, &err);
    CHECK_MSG(err == CL_SUCCESS, "clCreateCommandQueue failed: %d", err);
    if (err != CL_SUCCESS)
        return NULL;
    const size_t max_offset = 4 * 8;
    cl_mem out = test_cl_buffer(&s->cl, CL_MEM_READ_WRITE, s->max_out_bytes + max_offset, NULL);
    uint8_t *got = test_alloc(s->max_out_bytes);
    for (int i = 0; i < s->runs; ++i) {
        const shared_case *sc = &s->cases[rng_below(&r, (uint64_t)s->count)];
        const size_t bytes = (size_t)sc->data.out_count * sc->data.w;
        const size_t offset = rng_below(&r, 5) * sc->data.w;
        cl_event done = NULL;
        clsel_status st = clsel_cl_enqueue(s->cl.ctx, sc->plan, queue, sc->in[0], 0, sc->in[1], 0,
                                           sc->in[2], 0, out, offset, 0, NULL, &done);
        CHECK_MSG(st == CLSEL_SUCCESS, "clsel_cl_enqueue: %s (%s): %s", clsel_status_string(st),
                  clsel_last_error(), sc->text);
        if (st != CLSEL_SUCCESS)
            continue;
        memset(got, 0xEE, bytes);
        err = bytes ? clEnqueueReadBuffer(queue, out, CL_TRUE, offset, bytes, got, 1, &done, NULL)
                    : clWaitForEvents(1, &done);
        CHECK_MSG(err == CL_SUCCESS, "reading the output back failed: %d", err);
        CHECK_MSG(memcmp(got, sc->data.want, bytes) == 0,
                  "thread %d enqueue %d differs from the oracle: %s", w->index, i, sc->text);
        clReleaseEvent(done);
        w->done++;
    }
    free(got);
    clReleaseMemObject(out);
    clReleaseCommandQueue(queue);
    return NULL;
}

/* Host memory through the shared runtime. */
static void *runtime_worker(void *arg)
{
    worker *w = arg;
    const shared_state *s = w->shared;
    rng r = {s->seed * 41 + (uint64_t)w->index + 1};
    uint8_t *got = test_alloc(s->max_out_bytes);
    for (int i = 0; i < s->runs; ++i) {
        const shared_case *sc = &s->cases[rng_below(&r, (uint64_t)s->count)];
        const size_t bytes = (size_t)sc->data.out_count * sc->data.w;
        memset(got, 0xEE, bytes);
        CHECK_OK(clsel_runtime_run(s->runtime, sc->plan, sc->data.cond, sc->data.then_data,
                                   sc->data.else_data, got));
        CHECK_MSG(memcmp(got, sc->data.want, bytes) == 0,
                  "runtime (thread %d) differs from the oracle: %s", w->index, sc->text);
        /* On the device, never rescued (an empty output has nothing to run: CPU path). */
        const clsel_run_path path = sc->data.out_count ? CLSEL_RUN_DEVICE : CLSEL_RUN_CPU;
        CHECK_MSG(clsel_runtime_last_run_path() == path,
                  "runtime (thread %d) run not on the device (path %d): %s", w->index,
                  (int)clsel_runtime_last_run_path(), sc->text);
        w->done++;
    }
    free(got);
    return NULL;
}
#endif

/* Starts `threads` workers on `fn` and waits for them; the runs they compared. */
static long run_workers(shared_state *s, int threads, void *(*fn)(void *))
{
    worker workers[MAX_THREADS];
    long done = 0;
    for (int t = 0; t < threads; ++t) {
        workers[t] = (worker){0, s, t, 0};
        if (pthread_create(&workers[t].thread, NULL, fn, &workers[t]) != 0) {
            fprintf(stderr, "pthread_create failed for thread %d\n", t);
            exit(2);
        }
    }
    for (int t = 0; t < threads; ++t) {
        pthread_join(workers[t].thread, NULL);
        done += workers[t].done;
    }
    return done;
}

static shared_state s; /* big: kept off the stack */
static int64_t thread_count = 8, run_count = 1000;

static int check_counts(void)
{
    if (thread_count < 1 || thread_count > MAX_THREADS || run_count < 1 || run_count > INT32_MAX) {
        fprintf(stderr, "test_threads: --threads takes 1-%d, --runs 1 or more\n", MAX_THREADS);
        return 2;
    }
    s.runs = (int)run_count;
    return 0;
}

static void test_cpu(void)
{
    const int threads = (int)thread_count;
    make_shared(&s, 1);
    long done = run_workers(&s, threads, cpu_worker);
    printf("%d threads: %ld CPU runs compared (%d shared plans, the rest made by the threads)%s\n",
           threads, done, s.count,
           s.big >= 0 ? ", one of them big enough for library threads" : "");
    free_shared(&s);
    s.count = 0;
    s.max_out_bytes = 0;
}

#if CLSEL_TEST_OPENCL
static int opencl_open; /* the device, and the shared plans with their buffers on it */

static void open_opencl(void)
{
    if (opencl_open)
        return;
    test_cl_open(&s.cl);
    make_shared(&s, 0);
    upload_shared(&s);
    opencl_open = 1;
}

static void test_cl_context(void)
{
    const int threads = (int)thread_count;
    open_opencl();
    long done = run_workers(&s, threads, cl_worker);
    printf(
        "%d threads, one clsel_cl_context, own queues: %ld enqueues compared (%d shared plans)\n",
        threads, done, s.count);
}

static void test_runtime(void)
{
    const int threads = (int)thread_count;
    open_opencl();
    CHECK_OK(clsel_runtime_create(CLSEL_DEVICE_OPENCL, &s.runtime));
    if (!s.runtime)
        return;
    CHECK_OK(clsel_runtime_set_min_device_bytes(s.runtime, 0));
    s.runs = s.runs / 10 + 1;
    long done = run_workers(&s, threads, runtime_worker); /* in place where the device allows */
    CHECK_OK(clsel_runtime_set_zero_copy(s.runtime, 0));
    done += run_workers(&s, threads, runtime_worker);
    CHECK_OK(clsel_runtime_set_chunk_bytes(s.runtime, 1000)); /* most tensors now run in chunks */
    done += run_workers(&s, threads, runtime_worker);
    printf("%d threads, one runtime: %ld runs compared (zero copy, copied, in small chunks), none "
           "rescued\n",
           threads, done);
    clsel_runtime_destroy(s.runtime);
    s.runtime = NULL;
    s.runs = (int)run_count;
}
#endif

static void close_opencl(void)
{
#if CLSEL_TEST_OPENCL
    if (!opencl_open)
        return;
    release_shared(&s);
    free_shared(&s);
    test_cl_close(&s.cl);
#endif
}

static const test_case cases[] = {
    {"cpu", test_cpu},
#if CLSEL_TEST_OPENCL
    {"cl_context", test_cl_context},
    {"runtime", test_runtime},
#endif
};

static const check_flag flags[] = {
    {"--threads", CHECK_FLAG_I64, &thread_count, NULL, "threads at once (default 8)"},
    {"--runs", CHECK_FLAG_I64, &run_count, NULL, "runs or enqueues per thread (default 1000)"},
    {"--seed", CHECK_FLAG_U64, &s.seed, NULL, "the shared plans' seed (default 20261122)"},
};

int main(int argc, char **argv)
{
    s.seed = 20261122;
    const check_suite suite = {"test_threads",     cases,        CHECK_COUNT(cases), flags,
                               CHECK_COUNT(flags), check_counts, close_opencl};
    return check_main(argc, argv, &suite);
}
