/* cpu_parallel.c - splits a CPU run over threads, or over the caller's pool, when the
 * caller asks for it (the options of clsel_plan_run_cpu_options, or a runtime's CPU
 * threads). */
#include <pthread.h>
#include <unistd.h>

#include "cpu/select_cpu.h"
#include "plan/plan.h"

/* Threads the library starts for one call cost about 200-250 us to start and join on
 * the CI box (2 vCPUs), against ~30 % saved on a memory-bound run: 2 threads win from
 * about 2^22 f32 elements (54 MB moved) and lose below 2^21 (27 MB). Measured by
 * median of 41 runs, same-shape f32, threads 1 vs 2 (docs/performance.md, "CPU
 * threads"). So library threads start only when a run moves at least this much. */
#define THREADS_MIN_BYTES ((uint64_t)32 << 20)
/* A caller's pool has its threads running already: the split pays from smaller sizes,
 * but a piece below this many elements is not worth a task. */
#define PARALLEL_MIN_ELEMENTS (1 << 16)
/* Pieces for a caller's pool: enough to balance, each big enough to be worth a task. */
#define POOL_PIECE_ELEMENTS (1 << 16)
#define POOL_MAX_PIECES 256
#define MAX_THREADS 256

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
    if (!options || n < PARALLEL_MIN_ELEMENTS || (!options->parallel_for && options->threads <= 1) ||
        (!options->parallel_for && moved < THREADS_MIN_BYTES)) {
        run_piece(&job, 0);
        return;
    }
    if (options->parallel_for) {
        job.pieces = n / POOL_PIECE_ELEMENTS;
        if (job.pieces > POOL_MAX_PIECES) job.pieces = POOL_MAX_PIECES;
    } else {
        job.pieces = options->threads > MAX_THREADS ? MAX_THREADS : options->threads;
    }
    if (job.pieces > job.units) job.pieces = job.units;
    if (options->parallel_for) {
        options->parallel_for(options->pool, job.pieces, run_piece, &job);
        return;
    }
    pthread_t threads[MAX_THREADS];
    thread_piece pieces[MAX_THREADS];
    int started[MAX_THREADS] = {0};
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

/* sysconf reads /sys on Linux (tens of microseconds, more than a small run): asked
 * once per process. */
static int32_t cores;
static pthread_once_t cores_once = PTHREAD_ONCE_INIT;

static void count_cores(void)
{
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    cores = online < 1 ? 1 : online > MAX_THREADS ? MAX_THREADS : (int32_t)online;
}

int32_t clsel_priv_cpu_cores(void)
{
    pthread_once(&cores_once, count_cores);
    return cores;
}
