/* cpu_run.c - the CPU path's entry points (cpu_run.h), for the public calls, the runtime and OpenCL
 * native kernels. */
#include <pthread.h>
#include <unistd.h>

#include "common/error.h"
#include "common/options.h"
#include "common/tuning.h"
#include "common/tuning_constants.h" /* CPU_THREADS_MIN_BYTES, CPU_POOL_PIECE_ELEMENTS, ... */
#include "cpu/cpu_run.h"

clsel_status clsel_priv_cpu_check_buffers(const clsel_plan *plan, const void *cond,
                                          const void *then_data, const void *else_data,
                                          const void *out)
{
    const void *const in[3] = {cond, then_data, else_data};
    for (int op = 0; op < 3; ++op)
        if (!in[op] && plan->in_count[op] > 0)
            return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "%s is NULL but has %lld elements",
                                   clsel_priv_operand_name(op), (long long)plan->in_count[op]);
    if (!out && plan->out_count > 0)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "out is NULL but has %lld elements",
                               (long long)plan->out_count);
    /* One address space: every host span has the same root. */
    static const char host_memory = 0;
    const plan_span spans[PLAN_OPERANDS] = {{&host_memory, (uintptr_t)cond},
                                            {&host_memory, (uintptr_t)then_data},
                                            {&host_memory, (uintptr_t)else_data},
                                            {&host_memory, (uintptr_t)out}};
    return clsel_priv_plan_check_overlap(plan, spans, 1);
}

cpu_tensors clsel_priv_cpu_tensors(const clsel_plan *plan, const void *cond, const void *then_data,
                                   const void *else_data, void *out)
{
    cpu_tensors t = {{cond, then_data, else_data}, {NULL, NULL, NULL}, out};
    for (int op = 0; op < 3; ++op)
        t.end[op] = t.in[op] ? t.in[op] + (plan->first[op] + plan->reach[op]) *
                                              (int64_t)clsel_priv_plan_width(plan, op)
                             : NULL;
    return t;
}

/* One run's share-out: its boxes, and the ranges of them that make the pieces. */
typedef struct cpu_job {
    plan_split split;
    size_t w;
    int stream;
    const cpu_loops *loops;
    const cpu_tensors *t;
    int64_t pieces;
} cpu_job;

static void walk(const cpu_job *job, const plan_iter *it)
{
    cpu_walk walk;
    clsel_priv_cpu_walk_make(it, job->w, job->stream, job->loops, &walk);
    clsel_priv_cpu_walk_run(&walk, job->t);
}

/* Piece i: boxes [i count / pieces, (i + 1) count / pieces). */
static void run_piece(void *context, int64_t i)
{
    const cpu_job *job = context;
    const int64_t count = job->split.count;
    for (int64_t k = count * i / job->pieces; k < count * (i + 1) / job->pieces; ++k) {
        plan_iter box;
        clsel_priv_plan_split_box(&job->split, k, &box);
        walk(job, &box);
    }
}

typedef struct thread_piece {
    cpu_job *job;
    int64_t index;
} thread_piece;

static void *thread_main(void *arg)
{
    const thread_piece *piece = arg;
    run_piece(piece->job, piece->index);
    return NULL;
}

void clsel_priv_cpu_run(const plan_iter *it, size_t w, const cpu_tensors *t,
                        const clsel_cpu_options *options)
{
    if (it->count == 0)
        return;
    cpu_job job = {.w = w, .loops = clsel_priv_cpu_loops(), .t = t, .pieces = 1};
    const int64_t stream_bytes = clsel_priv_knob_get(CLSEL_PRIV_KNOB_STREAM_BYTES);
    job.stream = (uint64_t)it->count * w >=
                 (stream_bytes > 0 ? (uint64_t)stream_bytes : CPU_STREAM_MIN_BYTES);
    uint64_t moved = (uint64_t)it->count * w; /* the output, and the inputs at most at its size */
    for (int op = 0; op < 3; ++op)
        moved += t->in[op] ? (uint64_t)(t->end[op] - t->in[op]) : 0;
    const int pool = options && options->parallel_for;
    if (!options || it->count < CPU_PARALLEL_MIN_ELEMENTS || (!pool && options->threads <= 1) ||
        (!pool && moved < CPU_THREADS_MIN_BYTES)) {
        walk(&job, it);
        return;
    }
    /* A caller's pool takes pieces of about CPU_POOL_PIECE_ELEMENTS; threads take a few boxes each,
     * so that boxes of unequal size (the last along the split dim) even out. */
    job.pieces = pool ? it->count / CPU_POOL_PIECE_ELEMENTS : options->threads;
    const int64_t most = pool ? CPU_POOL_MAX_PIECES : CPU_MAX_THREADS;
    if (job.pieces > most)
        job.pieces = most;
    const int64_t boxes = pool ? job.pieces : job.pieces * CPU_THREAD_BOXES;
    clsel_priv_plan_split(&job.split, it, (it->count + boxes - 1) / boxes, INT64_MAX);
    if (job.pieces > job.split.count)
        job.pieces = job.split.count;
    if (pool) {
        options->parallel_for(options->pool, job.pieces, run_piece, &job);
        return;
    }
    pthread_t threads[CPU_MAX_THREADS];
    thread_piece pieces[CPU_MAX_THREADS];
    int started[CPU_MAX_THREADS] = {0};
    for (int64_t i = 1; i < job.pieces; ++i) {
        pieces[i] = (thread_piece){&job, i};
        started[i] = pthread_create(&threads[i], NULL, thread_main, &pieces[i]) == 0;
    }
    run_piece(&job, 0);
    for (int64_t i = 1; i < job.pieces; ++i)
        if (started[i])
            pthread_join(threads[i], NULL);
        else
            run_piece(&job, i); /* no thread to be had: do its piece here */
}

clsel_status clsel_plan_run_cpu_options(const clsel_plan *plan, const void *cond,
                                        const void *then_data, const void *else_data, void *out,
                                        const clsel_cpu_options *options)
{
    if (!plan)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_plan_run_cpu: plan is NULL");
    static const options_type options_struct = {"clsel_cpu_options", "clsel_cpu_options_default",
                                                sizeof(clsel_cpu_options),
                                                sizeof(clsel_cpu_options)};
    clsel_cpu_options given = clsel_cpu_options_default();
    clsel_status st = clsel_priv_options_read(&options_struct, options, &given);
    if (st == CLSEL_SUCCESS && given.threads < 0)
        st = clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                             "clsel_cpu_options.threads is %d (must be >= 0)", (int)given.threads);
    if (st == CLSEL_SUCCESS)
        st = clsel_priv_cpu_check_buffers(plan, cond, then_data, else_data, out);
    if (st != CLSEL_SUCCESS)
        return st;
    const cpu_tensors t = clsel_priv_cpu_tensors(plan, cond, then_data, else_data, out);
    clsel_priv_cpu_run(&plan->iter, plan->elem_size, &t, &given);
    return CLSEL_SUCCESS;
}

clsel_status clsel_plan_run_cpu(const clsel_plan *plan, const void *cond, const void *then_data,
                                const void *else_data, void *out)
{
    return clsel_plan_run_cpu_options(plan, cond, then_data, else_data, out, NULL);
}

clsel_status clsel_select_cpu(clsel_dtype dtype, const clsel_shape *cond_shape, const void *cond,
                              const clsel_shape *then_shape, const void *then_data,
                              const clsel_shape *else_shape, const void *else_data,
                              const clsel_attrs *attrs, void *out)
{
    clsel_plan *plan = NULL;
    clsel_status st = clsel_plan_create(dtype, cond_shape, then_shape, else_shape, attrs, &plan);
    if (st == CLSEL_SUCCESS)
        st = clsel_plan_run_cpu(plan, cond, then_data, else_data, out);
    clsel_plan_destroy(plan);
    return st;
}

/* sysconf reads /sys on Linux (tens of microseconds, more than a small run): asked once per
 * process. */
static int32_t cores;
static pthread_once_t cores_once = PTHREAD_ONCE_INIT;

static void count_cores(void)
{
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    cores = online < 1 ? 1 : online > CPU_MAX_THREADS ? CPU_MAX_THREADS : (int32_t)online;
}

int32_t clsel_priv_cpu_cores(void)
{
    pthread_once(&cores_once, count_cores);
    return cores;
}
