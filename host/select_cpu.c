/* select_cpu.c - the CPU path: runs a plan's collapsed geometry on host memory.
 *
 * Elements move as unsigned integers of their storage width (never through float
 * registers, so NaN payloads and -0.0 survive). Each row is one call of a loop that
 * is specialised on whether cond, then and else advance along the innermost dim
 * (stride 1) or stay put (stride 0). These portable loops load all three values and
 * pick by a bit mask: a ternary against memory is a conditional load that compilers
 * do not vectorize (PERF.md, rule 2), and the mask form also vectorizes 8-byte
 * elements with the baseline x86-64 ISA, which the ternary does not (5 vs 19 GB/s).
 * Where the processor has AVX2, select_cpu_avx2.c's loops run instead. */
#include <stdint.h>
#include <string.h>

#include "error.h"
#include "plan.h"
#include "select_cpu.h"
#include "testing.h"

/* CV, TV, EV: 1 when cond / then / else advance along the row, 0 when they stay put. */
#define CLSEL_ROW_FN(T, CV, TV, EV)                                                                \
    static inline void one_row_##T##_##CV##TV##EV(int64_t n, const uint8_t *cond, const T *t, const T *e, \
                                                  T *o)                                            \
    {                                                                                              \
        for (int64_t i = 0; i < n; ++i) {                                                          \
            const T take_then = (T)0 - (T)(cond[CV ? i : 0] != 0);                                 \
            o[i] = (t[TV ? i : 0] & take_then) | (e[EV ? i : 0] & (T)~take_then);                  \
        }                                                                                          \
    }                                                                                              \
    static void row_##T##_##CV##TV##EV(const cpu_rows *r)                                          \
    {                                                                                              \
        const uint8_t *c = r->cond, *t = r->then_data, *e = r->else_data;                          \
        uint8_t *o = r->out;                                                                       \
        for (int64_t k = 0; k < r->count; ++k) {                                                   \
            one_row_##T##_##CV##TV##EV(r->n, c, (const T *)t, (const T *)e, (T *)o);               \
            c += r->step[0], t += r->step[1], e += r->step[2], o += r->step[3];                    \
        }                                                                                          \
    }

#define CLSEL_ROW_FNS(T)          \
    CLSEL_ROW_FN(T, 0, 0, 0)      \
    CLSEL_ROW_FN(T, 0, 0, 1)      \
    CLSEL_ROW_FN(T, 0, 1, 0)      \
    CLSEL_ROW_FN(T, 0, 1, 1)      \
    CLSEL_ROW_FN(T, 1, 0, 0)      \
    CLSEL_ROW_FN(T, 1, 0, 1)      \
    CLSEL_ROW_FN(T, 1, 1, 0)      \
    CLSEL_ROW_FN(T, 1, 1, 1)

CLSEL_ROW_FNS(uint8_t)
CLSEL_ROW_FNS(uint16_t)
CLSEL_ROW_FNS(uint32_t)
CLSEL_ROW_FNS(uint64_t)

#define CLSEL_ROW_ENTRIES(T)                                                                 \
    {row_##T##_000, row_##T##_001, row_##T##_010, row_##T##_011, row_##T##_100, row_##T##_101, \
     row_##T##_110, row_##T##_111}

/* [log2(element size)][cond advances * 4 + then advances * 2 + else advances] */
static const cpu_row_fn row_table[4][8] = {CLSEL_ROW_ENTRIES(uint8_t), CLSEL_ROW_ENTRIES(uint16_t),
                                       CLSEL_ROW_ENTRIES(uint32_t), CLSEL_ROW_ENTRIES(uint64_t)};

static int width_index(size_t elem_size)
{
    return elem_size == 1 ? 0 : elem_size == 2 ? 1 : elem_size == 4 ? 2 : 3;
}

static int ranges_overlap(const void *a, size_t a_bytes, const void *b, size_t b_bytes)
{
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return a_bytes && b_bytes && pa < pb + b_bytes && pb < pa + a_bytes;
}

clsel_status cpu_check_buffers(const clsel_plan *plan, const void *cond, const void *then_data,
                               const void *else_data, const void *out)
{
    static const char *const names[3] = {"cond", "then", "else"};
    const void *const in[3] = {cond, then_data, else_data};
    size_t out_bytes = (size_t)plan->out_count * plan->elem_size;
    for (int op = 0; op < 3; ++op)
        if (!in[op] && plan->in_count[op] > 0)
            return clsel_fail(CLSEL_ERROR_INVALID_ARGUMENT, "%s is NULL but has %lld elements",
                              names[op], (long long)plan->in_count[op]);
    if (!out && plan->out_count > 0)
        return clsel_fail(CLSEL_ERROR_INVALID_ARGUMENT, "out is NULL but has %lld elements",
                          (long long)plan->out_count);
    for (int op = 0; op < 3; ++op) {
        size_t bytes = (size_t)plan->in_count[op] * (op == 0 ? 1 : plan->elem_size);
        if (!ranges_overlap(out, out_bytes, in[op], bytes)) continue;
        int in_place = op != 0 && out == in[op] && plan->in_count[op] == plan->out_count;
        if (in_place) continue;
        /* Where the two ranges meet, in bytes: what a caller needs to find the mistake. */
        const uintptr_t o = (uintptr_t)out, i = (uintptr_t)in[op];
        return clsel_fail(CLSEL_ERROR_BUFFER,
                          "out (%zu bytes) overlaps %s (%zu bytes), starting %zu bytes %s it; only an exact "
                          "in-place output (out == then or out == else, with that input of the output's shape) "
                          "is allowed",
                          out_bytes, names[op], bytes, (size_t)(o < i ? i - o : o - i), o < i ? "before" : "into");
    }
    return CLSEL_SUCCESS;
}

/* An odometer over the rows (dims 1 .. rank-1) keeping each operand's element offset
 * of the row's first element. */
typedef struct row_walker {
    int64_t index[CLSEL_MAX_RANK];
    int64_t offset[PLAN_OPERANDS];
} row_walker;

static void walker_start(row_walker *wk, const clsel_plan *plan, int64_t row)
{
    memset(wk, 0, sizeof *wk);
    for (int32_t d = 1; d < plan->rank; ++d) { /* one division per dim, once per walk */
        wk->index[d] = row % plan->dims[d];
        row /= plan->dims[d];
        for (int op = 0; op < PLAN_OPERANDS; ++op) wk->offset[op] += wk->index[d] * plan->strides[op][d];
    }
}

/* Rows left in the current sweep along dim 1, this one included. */
static int64_t walker_sweep_left(const row_walker *wk, const clsel_plan *plan)
{
    return plan->rank < 2 ? 1 : plan->dims[1] - wk->index[1];
}

/* Moves k rows on, k <= walker_sweep_left. */
static void walker_advance(row_walker *wk, const clsel_plan *plan, int64_t k)
{
    for (int32_t d = 1; d < plan->rank; ++d, k = 1) {
        for (int op = 0; op < PLAN_OPERANDS; ++op) wk->offset[op] += plan->strides[op][d] * k;
        if ((wk->index[d] += k) < plan->dims[d]) return;
        for (int op = 0; op < PLAN_OPERANDS; ++op) wk->offset[op] -= plan->strides[op][d] * plan->dims[d];
        wk->index[d] = 0;
    }
}

typedef struct row_job {
    const clsel_plan *plan;
    cpu_row_fn row;
    const uint8_t *cond, *then_data, *else_data;
    uint8_t *out;
} row_job;

/* Elements [x, x + n) of `count` rows from the walker's current one along dim 1
 * (count <= walker_sweep_left). */
static void run_rows(const row_job *job, const row_walker *wk, int64_t x, int64_t n, int64_t count)
{
    const clsel_plan *plan = job->plan;
    const int64_t w = (int64_t)plan->elem_size;
    int64_t at[PLAN_OPERANDS];
    for (int op = 0; op < PLAN_OPERANDS; ++op) at[op] = wk->offset[op] + (plan->rank ? plan->strides[op][0] : 0) * x;
    cpu_rows rows = {n, count, job->cond + at[PLAN_COND], job->then_data + at[PLAN_THEN] * w,
                     job->else_data + at[PLAN_ELSE] * w, job->out + at[PLAN_OUT] * w, {0, 0, 0, 0}};
    if (plan->rank >= 2) {
        rows.step[0] = plan->strides[PLAN_COND][1];
        rows.step[1] = plan->strides[PLAN_THEN][1] * w;
        rows.step[2] = plan->strides[PLAN_ELSE][1] * w;
        rows.step[3] = plan->strides[PLAN_OUT][1] * w;
    }
    job->row(&rows);
}

/* Tiling pays only when an input's row would be gone from the last-level cache by the
 * time a later row reads it again: when the traffic between the two reads exceeds this
 * (a quarter of the CI box's 32 MiB L3, fixed for the reason STREAM_MIN_BYTES is).
 * Tiling rows that would have stayed cached costs: [4,16,1024,1024] f16 under a
 * [4,1,1024,1024] mask ran at 73-81 % of memcpy tiled, 91 % untiled (clsel bench). */
#define TILE_MIN_REUSE_BYTES ((uint64_t)8 << 20)

int cpu_tiles_rows(const clsel_plan *plan)
{
    if (plan->rank < 2 || plan->dims[0] < 2 * CPU_TILE) return 0;
    uint64_t row_bytes = (uint64_t)plan->dims[0] * plan->elem_size; /* the output's */
    for (int op = 0; op < 3; ++op)
        if (plan->strides[op][0] != 0) row_bytes += (uint64_t)plan->dims[0] * (op ? plan->elem_size : 1);
    for (int op = 0; op < 3; ++op) {
        if (plan->strides[op][0] == 0) continue;
        uint64_t rows_between = 1; /* rows walked before this input's row comes round again */
        for (int32_t d = 1; d < plan->rank; rows_between *= (uint64_t)plan->dims[d], ++d)
            if (plan->strides[op][d] == 0) {
                if (rows_between * row_bytes > TILE_MIN_REUSE_BYTES) return 1;
                break;
            }
    }
    return 0;
}

void cpu_run_range(const clsel_plan *plan, const uint8_t *cond, const uint8_t *then_data,
                   const uint8_t *else_data, uint8_t *out, int64_t begin, int64_t end, int stream)
{
    const int64_t n0 = plan->rank ? plan->dims[0] : 1;
    int advances = 0;
    for (int op = 0; op < 3; ++op) advances = advances * 2 + (plan->rank && plan->strides[op][0] != 0);
    const cpu_row_fn(*avx2)[8] = clsel_testing_portable() ? NULL : cpu_avx2_rows(stream);
    const int wi = width_index(plan->elem_size);
    const row_job job = {plan, avx2 ? avx2[wi][advances] : row_table[wi][advances], cond, then_data, else_data, out};
    row_walker wk;

    if (cpu_tiles_rows(plan) && begin % n0 == 0 && end % n0 == 0) {
        /* An input re-read by several rows (an attention mask, a per-row vector): walk
         * the rows tile by tile, so that its tile is still in the cache for the next row. */
        for (int64_t x = 0; x < n0; x += CPU_TILE) {
            int64_t n = n0 - x < CPU_TILE ? n0 - x : CPU_TILE;
            walker_start(&wk, plan, begin / n0);
            for (int64_t r = begin / n0, last = end / n0; r < last;) {
                int64_t count = walker_sweep_left(&wk, plan);
                if (count > last - r) count = last - r;
                run_rows(&job, &wk, x, n, count);
                walker_advance(&wk, plan, count);
                r += count;
            }
        }
    } else {
        int64_t x = begin % n0;
        walker_start(&wk, plan, begin / n0);
        for (int64_t done = begin; done < end; x = 0) {
            int64_t count = 1, n = n0 - x < end - done ? n0 - x : end - done;
            if (x == 0 && n == n0) { /* whole rows: as many as this sweep and the range hold */
                count = walker_sweep_left(&wk, plan);
                if (count > (end - done) / n0) count = (end - done) / n0;
            }
            run_rows(&job, &wk, x, n, count);
            walker_advance(&wk, plan, count);
            done += n * count;
        }
    }
    if (stream && avx2) cpu_stream_fence();
}

clsel_status clsel_plan_run_cpu_options(const clsel_plan *plan, const void *cond, const void *then_data,
                                        const void *else_data, void *out, const clsel_cpu_options *options)
{
    if (!plan) return clsel_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_plan_run_cpu: plan is NULL");
    clsel_status st = cpu_check_buffers(plan, cond, then_data, else_data, out);
    if (st != CLSEL_SUCCESS || plan->out_count == 0) return st;
    cpu_run_parallel(plan, cond, then_data, else_data, out, options);
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
    if (st == CLSEL_SUCCESS) st = clsel_plan_run_cpu(plan, cond, then_data, else_data, out);
    clsel_plan_destroy(plan);
    return st;
}
