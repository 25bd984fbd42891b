/* select_cpu.c - the CPU path: runs a plan's collapsed geometry on host memory.
 *
 * Elements move as unsigned integers of their storage width (never through float
 * registers, so NaN payloads and -0.0 survive). Each row is one call of a loop that
 * is specialised on whether cond, then and else advance along the innermost dim
 * (stride 1) or stay put (stride 0), and that loads all three values before picking
 * one: a ternary against memory is a conditional load that compilers do not vectorize
 * (PERF.md, rule 2). */
#include <stdint.h>

#include "error.h"
#include "plan.h"
#include "select_cpu.h"

typedef void (*row_fn)(int64_t n, const uint8_t *cond, const void *then_data, const void *else_data,
                       void *out);

/* CV, TV, EV: 1 when cond / then / else advance along the row, 0 when they stay put. */
#define CLSEL_ROW_FN(T, CV, TV, EV)                                                          \
    static void row_##T##_##CV##TV##EV(int64_t n, const uint8_t *cond, const void *then_data, \
                                       const void *else_data, void *out)                     \
    {                                                                                        \
        const T *t = (const T *)then_data;                                                   \
        const T *e = (const T *)else_data;                                                   \
        T *o = (T *)out;                                                                     \
        for (int64_t i = 0; i < n; ++i) {                                                    \
            uint8_t c = cond[CV ? i : 0];                                                    \
            T a = t[TV ? i : 0];                                                             \
            T b = e[EV ? i : 0];                                                             \
            o[i] = c ? a : b;                                                                \
        }                                                                                    \
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
static const row_fn row_table[4][8] = {CLSEL_ROW_ENTRIES(uint8_t), CLSEL_ROW_ENTRIES(uint16_t),
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
        if (!in_place)
            return clsel_fail(CLSEL_ERROR_BUFFER,
                              "out overlaps %s: only an exact in-place output (out == then or "
                              "out == else, with that input of the output's shape) is allowed",
                              names[op]);
    }
    return CLSEL_SUCCESS;
}

/* Walks every row of the collapsed geometry (all dims but the innermost) with an
 * odometer, keeping each operand's element offset up to date incrementally. */
static void run_rows(const clsel_plan *plan, const uint8_t *cond, const uint8_t *then_data,
                     const uint8_t *else_data, uint8_t *out)
{
    const size_t w = plan->elem_size;
    const int32_t rank = plan->rank;
    const int64_t n0 = rank ? plan->dims[0] : 1;
    int advances = 0;
    for (int op = 0; op < 3; ++op) advances = advances * 2 + (rank && plan->strides[op][0] != 0);
    const row_fn row = row_table[width_index(w)][advances];

    int64_t index[CLSEL_MAX_RANK] = {0};
    int64_t offset[PLAN_OPERANDS] = {0};
    for (;;) {
        row(n0, cond + offset[PLAN_COND], then_data + (size_t)offset[PLAN_THEN] * w,
            else_data + (size_t)offset[PLAN_ELSE] * w, out + (size_t)offset[PLAN_OUT] * w);
        int32_t d = 1;
        for (; d < rank; ++d) {
            for (int op = 0; op < PLAN_OPERANDS; ++op) offset[op] += plan->strides[op][d];
            if (++index[d] < plan->dims[d]) break;
            for (int op = 0; op < PLAN_OPERANDS; ++op) offset[op] -= plan->strides[op][d] * plan->dims[d];
            index[d] = 0;
        }
        if (d >= rank) return;
    }
}

clsel_status clsel_plan_run_cpu(const clsel_plan *plan, const void *cond, const void *then_data,
                                const void *else_data, void *out)
{
    if (!plan) return clsel_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_plan_run_cpu: plan is NULL");
    clsel_status st = cpu_check_buffers(plan, cond, then_data, else_data, out);
    if (st != CLSEL_SUCCESS || plan->out_count == 0) return st;
    run_rows(plan, cond, then_data, else_data, out);
    return CLSEL_SUCCESS;
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
