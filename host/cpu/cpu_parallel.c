/* cpu_parallel.c - splits a CPU run over threads, or over the caller's pool, when the
 * caller asks for it (the options of clsel_plan_run_cpu_options, or a runtime's CPU
 * threads). */
#include <pthread.h>

#include "common/tuning_constants.h" /* CPU_THREADS_MIN_BYTES, CPU_POOL_PIECE_ELEMENTS, ... */
#include "cpu/cpu_parallel.h"
#include "plan/plan.h"

typedef struct cpu_job {
    const cpu_walk *walk;
    int64_t units, pieces;
} cpu_job;

/* Piece i of `pieces` about equal ranges of the walk's units (blocks, or rows walked
 * chunk by chunk). */
static void run_piece(void *context, int64_t i)
{
    const cpu_job *job = context;
    const int64_t begin = job->units * i / job->pieces, end = job->units * (i + 1) / job->pieces;
    if (begin < end) clsel_priv_cpu_walk_run(job->walk, begin, end);
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

void clsel_priv_cpu_run_parallel(const cpu_walk *walk, const clsel_cpu_options *options)
{
    const clsel_plan *plan = walk->plan;
    const int64_t n = plan->out_count;
    cpu_job job = {walk, clsel_priv_cpu_walk_units(walk), 1};
    const uint64_t moved = clsel_priv_plan_bytes_moved(plan);
    if (!options || n < CPU_PARALLEL_MIN_ELEMENTS || (!options->parallel_for && options->threads <= 1) ||
        (!options->parallel_for && moved < CPU_THREADS_MIN_BYTES)) {
        run_piece(&job, 0);
        return;
    }
    if (options->parallel_for) {
        job.pieces = n / CPU_POOL_PIECE_ELEMENTS;
        if (job.pieces > CPU_POOL_MAX_PIECES) job.pieces = CPU_POOL_MAX_PIECES;
    } else {
        job.pieces = options->threads > CPU_MAX_THREADS ? CPU_MAX_THREADS : options->threads;
    }
    if (job.pieces > job.units) job.pieces = job.units;
    if (options->parallel_for) {
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
    for (int64_t i = 1; i < job.pieces; ++i) {
        if (started[i])
            pthread_join(threads[i], NULL);
        else
            run_piece(&job, i); /* no thread to be had: do its piece here */
    }
}
