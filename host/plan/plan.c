/* plan.c - plan creation: validation, per-tensor strides, dimension collapsing into the
 * iteration space, and the plan queries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "plan/plan.h"

/* Element strides of every operand along every output dim (outer first), 0 where the
 * operand is broadcast; the output's own strides are dense. */
static void full_strides(const clsel_plan *plan, const plan_layout *layout,
                         int64_t strides[PLAN_OPERANDS][CLSEL_MAX_RANK])
{
    const clsel_shape *out = &layout->out;
    for (int op = 0; op < 3; ++op) {
        const clsel_shape *in = &plan->in_shape[op];
        int64_t dense[CLSEL_MAX_RANK];
        int64_t step = 1;
        for (int32_t a = in->rank - 1; a >= 0; --a) {
            dense[a] = step;
            step *= in->dims[a];
        }
        for (int32_t d = 0; d < out->rank; ++d) {
            int a = layout->axis_of[op][d];
            strides[op][d] = (a >= 0 && in->dims[a] != 1) ? dense[a] : 0;
        }
    }
    int64_t step = 1;
    for (int32_t d = out->rank - 1; d >= 0; --d) {
        strides[PLAN_OUT][d] = step;
        step *= out->dims[d];
    }
}

/* Drops size-1 dims and merges neighbours that are contiguous for every tensor, then
 * stores the result innermost first as the plan's iteration space. */
static void collapse(clsel_plan *plan, int64_t strides[PLAN_OPERANDS][CLSEL_MAX_RANK])
{
    int64_t dims[CLSEL_MAX_RANK], str[PLAN_OPERANDS][CLSEL_MAX_RANK];
    int32_t n = 0;
    for (int32_t d = 0; d < plan->out_shape.rank; ++d) {
        int64_t size = plan->out_shape.dims[d];
        if (size == 1) continue;
        int mergeable = n > 0;
        for (int op = 0; op < PLAN_OPERANDS && mergeable; ++op)
            mergeable = str[op][n - 1] == strides[op][d] * size;
        if (mergeable) dims[n - 1] *= size;
        else dims[n++] = size;
        for (int op = 0; op < PLAN_OPERANDS; ++op) str[op][n - 1] = strides[op][d];
    }
    plan_iter *it = &plan->iter;
    it->rank = n;
    it->count = plan->out_count;
    for (int32_t i = 0; i < CLSEL_MAX_RANK; ++i) {
        it->dims[i] = i < n ? dims[n - 1 - i] : 1;
        for (int op = 0; op < PLAN_OPERANDS; ++op) it->strides[op][i] = i < n ? str[op][n - 1 - i] : 0;
    }
}

clsel_status clsel_plan_create(clsel_dtype dtype, const clsel_shape *cond,
                               const clsel_shape *then_shape, const clsel_shape *else_shape,
                               const clsel_attrs *attrs, clsel_plan **plan)
{
    if (!plan) return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_plan_create: plan is NULL");
    size_t elem_size = clsel_dtype_size(dtype);
    if (elem_size == 0)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_DTYPE, "clsel_plan_create: unknown dtype %d",
                          (int)dtype);

    plan_layout layout;
    clsel_status st = clsel_priv_plan_layout_compute(cond, then_shape, else_shape, attrs, &layout);
    if (st != CLSEL_SUCCESS) return st;
    if ((uint64_t)layout.out_count > (uint64_t)(INT64_MAX / (int64_t)elem_size) ||
        (uint64_t)layout.out_count > SIZE_MAX / elem_size) {
        char o[CLSEL_SHAPE_TEXT_MAX];
        return clsel_priv_fail(CLSEL_ERROR_OVERFLOW, "output %s of %s: %lld elements x %zu bytes overflows",
                          clsel_priv_shape_text(&layout.out, o), clsel_dtype_name(dtype),
                          (long long)layout.out_count, elem_size);
    }

    clsel_plan *p = clsel_priv_calloc(1, sizeof *p);
    if (!p) return clsel_priv_fail(CLSEL_ERROR_OUT_OF_MEMORY, "clsel_plan_create: out of host memory");
    p->dtype = dtype;
    p->elem_size = elem_size;
    p->attrs = layout.attrs;
    p->in_shape[0] = *cond;
    p->in_shape[1] = *then_shape;
    p->in_shape[2] = *else_shape;
    for (int op = 0; op < 3; ++op) p->in_count[op] = clsel_priv_plan_shape_count(&p->in_shape[op]);
    p->out_shape = layout.out;
    p->out_count = layout.out_count;
    if (p->out_count > 0) { /* an empty output has nothing to walk, and its dims' products past the 0 may overflow */
        int64_t strides[PLAN_OPERANDS][CLSEL_MAX_RANK];
        full_strides(p, &layout, strides);
        collapse(p, strides);
    }
    *plan = p;
    return CLSEL_SUCCESS;
}

void clsel_plan_destroy(clsel_plan *plan) { clsel_priv_free(plan); }

const clsel_shape *clsel_plan_output_shape(const clsel_plan *plan) { return plan ? &plan->out_shape : NULL; }

int64_t clsel_plan_output_count(const clsel_plan *plan) { return plan ? plan->out_count : 0; }

uint64_t clsel_priv_plan_tensor_bytes(const clsel_plan *plan, int op)
{
    const int64_t count = op == PLAN_OUT ? plan->out_count : plan->in_count[op];
    return (uint64_t)count * clsel_priv_plan_width(plan, op);
}

uint64_t clsel_priv_plan_bytes_moved(const clsel_plan *plan)
{
    uint64_t bytes = 0;
    for (int op = 0; op < PLAN_OPERANDS; ++op) bytes += clsel_priv_plan_tensor_bytes(plan, op);
    return bytes;
}

size_t clsel_plan_output_bytes(const clsel_plan *plan) { return plan ? (size_t)plan->out_count * plan->elem_size : 0; }

clsel_dtype clsel_plan_dtype(const clsel_plan *plan) { return plan ? plan->dtype : CLSEL_DTYPE_INVALID; }

int64_t clsel_plan_input_count(const clsel_plan *plan, clsel_operand which)
{
    if (!plan || (unsigned)which > CLSEL_OPERAND_ELSE) return -1;
    return plan->in_count[which];
}

/* Appends formatted text to a fixed buffer, truncating silently. */
typedef struct text_buf {
    char data[2048];
    size_t used;
} text_buf;

static void text_add(text_buf *t, const char *fmt, long long value)
{
    if (t->used >= sizeof t->data) return;
    int n = snprintf(t->data + t->used, sizeof t->data - t->used, fmt, value);
    if (n > 0) t->used += (size_t)n;
}

static void text_list(text_buf *t, const int64_t *values, int32_t n)
{
    text_add(t, "[", 0);
    for (int32_t i = 0; i < n; ++i) text_add(t, i ? ",%lld" : "%lld", (long long)values[i]);
    text_add(t, "]", 0);
}

size_t clsel_plan_describe(const clsel_plan *plan, char *buf, size_t size)
{
    static const char *const names[PLAN_OPERANDS] = {" cond:", " then:", " else:", " out:"};
    char shape[CLSEL_SHAPE_TEXT_MAX];
    text_buf t = {{0}, 0};
    if (plan) {
        int n = snprintf(t.data, sizeof t.data, "%s out %s (%lld elements) -> %d dims ",
                         clsel_dtype_name(plan->dtype), clsel_priv_shape_text(&plan->out_shape, shape),
                         (long long)plan->out_count, (int)plan->iter.rank);
        t.used = n > 0 ? (size_t)n : 0;
        text_list(&t, plan->iter.dims, plan->iter.rank);
        for (int op = 0; op < PLAN_OPERANDS; ++op) {
            text_add(&t, names[op], 0);
            text_list(&t, plan->iter.strides[op], plan->iter.rank);
        }
    }
    if (buf && size) snprintf(buf, size, "%s", t.data);
    return t.used;
}
