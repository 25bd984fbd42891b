/* plan.c - plan creation: validation, per-tensor strides (dense or the caller's), the walk's order
 * and dimension collapsing into the iteration space, and the plan queries. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "common/options.h"
#include "plan/plan.h"

/* Tensor `op`'s element strides along its own axes: the caller's where given, else dense
 * row-major. */
static void own_strides(const clsel_shape *shape, const clsel_strides *given, int op,
                        int64_t own[CLSEL_MAX_RANK])
{
    int64_t step = 1;
    for (int32_t a = shape->rank - 1; a >= 0; --a) {
        own[a] = (given->strided & CLSEL_STRIDED(op)) ? given->strides[op][a] : step;
        step *= shape->dims[a]; /* a non-empty output: no product of dims overflows */
    }
}

/* How far a tensor reaches from its element [0] below (<= 0) and above (>= 0), in elements; 0 when
 * either does not fit in int64 or the whole reach in bytes of `size` does not. */
static int tensor_reach(const clsel_shape *shape, const int64_t own[CLSEL_MAX_RANK], size_t size,
                        int64_t *below, int64_t *above)
{
    *below = *above = 0;
    for (int32_t a = 0; a < shape->rank; ++a) {
        int64_t e;
        if (__builtin_mul_overflow(own[a], shape->dims[a] - 1, &e))
            return 0;
        if (__builtin_add_overflow(*(e < 0 ? below : above), e, e < 0 ? below : above))
            return 0;
    }
    int64_t extent, bytes;
    return !__builtin_sub_overflow(*above, *below, &extent) &&
           !__builtin_add_overflow(extent, 1, &extent) &&
           !__builtin_mul_overflow(extent, (int64_t)size, &bytes);
}

/* Checks the caller's strides and records what each tensor touches (p->first, p->reach): known
 * bits, every tensor's reach in bytes within int64, and an output whose elements are apart: along
 * its axes ordered by |stride|, each (of more than one element) steps past the reach of those
 * inside it (sufficient for no two elements to meet, and true of every layout numpy or PyTorch
 * gives a writable tensor). A run touches every element of every tensor, or nothing. */
static clsel_status measure_strides(clsel_plan *p, const clsel_strides *given)
{
    char shape_text[CLSEL_SHAPE_TEXT_MAX];
    if (given->strided & ~0xFu)
        return clsel_priv_fail(
            CLSEL_ERROR_INVALID_ARGUMENT,
            "clsel_strides.strided is 0x%x: only bits 0-3 (CLSEL_STRIDED(cond..out)) exist",
            (unsigned)given->strided);
    if (p->out_count == 0)
        return CLSEL_SUCCESS; /* nothing is touched */
    for (int op = 0; op < PLAN_OPERANDS; ++op) {
        const clsel_shape *shape = op == PLAN_OUT ? &p->out_shape : &p->in_shape[op];
        int64_t own[CLSEL_MAX_RANK], below, above;
        own_strides(shape, given, op, own);
        if (!tensor_reach(shape, own, clsel_priv_plan_width(p, op), &below, &above))
            return clsel_priv_fail(CLSEL_ERROR_OVERFLOW, "%s %s: its strides reach past 2^63 bytes",
                                   clsel_priv_operand_name(op),
                                   clsel_priv_shape_text(shape, shape_text));
        p->first[op] = below;
        p->reach[op] = above - below + 1;
    }
    if (!(given->strided & CLSEL_STRIDED(PLAN_OUT)))
        return CLSEL_SUCCESS;
    const clsel_shape *out = &p->out_shape;
    int32_t order[CLSEL_MAX_RANK], n = 0;
    for (int32_t a = 0; a < out->rank; ++a) {
        if (out->dims[a] < 2)
            continue;
        int32_t i = n++;
        for (; i > 0 &&
               llabs(given->strides[PLAN_OUT][order[i - 1]]) > llabs(given->strides[PLAN_OUT][a]);
             --i)
            order[i] = order[i - 1];
        order[i] = a;
    }
    int64_t inside = 0; /* the reach of the axes before, all in int64 (checked above) */
    for (int32_t i = 0; i < n; ++i) {
        const int64_t stride = llabs(given->strides[PLAN_OUT][order[i]]);
        if (stride <= inside)
            return clsel_priv_fail(
                CLSEL_ERROR_INVALID_ARGUMENT,
                "out %s: stride %lld of axis %d does not step past the %lld elements the axes "
                "inside it reach, so elements of out may overlap (a stride of 0 writes one element "
                "many times)",
                clsel_priv_shape_text(out, shape_text),
                (long long)given->strides[PLAN_OUT][order[i]], (int)order[i], (long long)inside);
        inside += stride * (out->dims[order[i]] - 1);
    }
    return CLSEL_SUCCESS;
}

/* Element strides of every tensor along every output dim (outer first), 0 where an input is
 * broadcast or a dim has one element. */
static void full_strides(const clsel_plan *plan, const plan_layout *layout,
                         const clsel_strides *given, int64_t strides[PLAN_OPERANDS][CLSEL_MAX_RANK])
{
    const clsel_shape *out = &layout->out;
    for (int op = 0; op < PLAN_OPERANDS; ++op) {
        const clsel_shape *shape = op == PLAN_OUT ? out : &plan->in_shape[op];
        int64_t own[CLSEL_MAX_RANK];
        own_strides(shape, given, op, own);
        for (int32_t d = 0; d < out->rank; ++d) {
            const int a = op == PLAN_OUT ? d : layout->axis_of[op][d];
            strides[op][d] = (a >= 0 && shape->dims[a] != 1) ? own[a] : 0;
        }
    }
}

/* The plan's iteration space: the output's dims innermost first, every tensor's strides along
 * them. The output's layout decides the order of the walk (as TensorIterator's
 * reorder_dimensions): its reversed dims are walked forwards (every tensor's first element moves to
 * that dim's far end: base) and its dims go innermost first by increasing stride, so that a
 * transposed or reversed output (with inputs laid out alike) is walked as a dense one; then dims of
 * one index go and neighbours that every tensor crosses contiguously merge. */
static void make_iter(clsel_plan *plan, int64_t strides[PLAN_OPERANDS][CLSEL_MAX_RANK])
{
    const clsel_shape *out = &plan->out_shape;
    plan_iter *it = &plan->iter;
    memset(it, 0, sizeof *it);
    it->rank = out->rank;
    it->count = plan->out_count;
    for (int32_t d = 0; d < out->rank; ++d) {
        const int32_t axis = out->rank - 1 - d;
        it->dims[d] = out->dims[axis];
        for (int op = 0; op < PLAN_OPERANDS; ++op)
            it->strides[op][d] = strides[op][axis];
    }
    for (int32_t d = 0; d < it->rank; ++d)
        if (it->strides[PLAN_OUT][d] < 0)
            clsel_priv_plan_iter_flip_dim(it, d);
    clsel_priv_plan_iter_sort_by(it, PLAN_OUT);
    clsel_priv_plan_iter_collapse(it);
}

clsel_status clsel_plan_create_strided(clsel_dtype dtype, const clsel_shape *cond,
                                       const clsel_shape *then_shape, const clsel_shape *else_shape,
                                       const clsel_attrs *attrs, const clsel_strides *strides,
                                       clsel_plan **plan)
{
    if (!plan)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_plan_create: plan is NULL");
    size_t elem_size = clsel_dtype_size(dtype);
    if (elem_size == 0)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_DTYPE, "clsel_plan_create: unknown dtype %d",
                               (int)dtype);

    static const options_type strides_type = {"clsel_strides", "clsel_strides_default",
                                              sizeof(clsel_strides), sizeof(clsel_strides)};
    clsel_strides given = clsel_strides_default();
    plan_layout layout;
    clsel_status st = clsel_priv_options_read(&strides_type, strides, &given);
    if (st == CLSEL_SUCCESS)
        st = clsel_priv_plan_layout_compute(cond, then_shape, else_shape, attrs, &layout);
    if (st != CLSEL_SUCCESS)
        return st;
    if ((uint64_t)layout.out_count > (uint64_t)(INT64_MAX / (int64_t)elem_size) ||
        (uint64_t)layout.out_count > SIZE_MAX / elem_size) {
        char o[CLSEL_SHAPE_TEXT_MAX];
        return clsel_priv_fail(CLSEL_ERROR_OVERFLOW,
                               "output %s of %s: %lld elements x %zu bytes overflows",
                               clsel_priv_shape_text(&layout.out, o), clsel_dtype_name(dtype),
                               (long long)layout.out_count, elem_size);
    }

    clsel_plan *p = clsel_priv_calloc(1, sizeof *p);
    if (!p)
        return clsel_priv_fail(CLSEL_ERROR_OUT_OF_MEMORY, "clsel_plan_create: out of host memory");
    p->dtype = dtype;
    p->elem_size = elem_size;
    p->attrs = layout.attrs;
    p->in_shape[0] = *cond;
    p->in_shape[1] = *then_shape;
    p->in_shape[2] = *else_shape;
    for (int op = 0; op < 3; ++op)
        p->in_count[op] = clsel_priv_plan_shape_count(&p->in_shape[op]);
    p->out_shape = layout.out;
    p->out_count = layout.out_count;
    st = measure_strides(p, &given);
    if (st != CLSEL_SUCCESS) {
        clsel_priv_free(p);
        return st;
    }
    if (p->out_count > 0) { /* an empty output has nothing to walk, and its dims' products past the
                               0 may overflow */
        int64_t full[PLAN_OPERANDS][CLSEL_MAX_RANK];
        full_strides(p, &layout, &given, full);
        make_iter(p, full);
    }
    *plan = p;
    return CLSEL_SUCCESS;
}

clsel_status clsel_plan_create(clsel_dtype dtype, const clsel_shape *cond,
                               const clsel_shape *then_shape, const clsel_shape *else_shape,
                               const clsel_attrs *attrs, clsel_plan **plan)
{
    return clsel_plan_create_strided(dtype, cond, then_shape, else_shape, attrs, NULL, plan);
}

clsel_status clsel_plan_tensor_extent(const clsel_plan *plan, clsel_operand which,
                                      int64_t *first_byte, uint64_t *bytes)
{
    if (!plan || !first_byte || !bytes || (unsigned)which > CLSEL_OPERAND_OUT)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_plan_tensor_extent: %s",
                               !plan                   ? "plan is NULL"
                               : !first_byte || !bytes ? "a result pointer is NULL"
                                                       : "unknown operand");
    *first_byte = plan->first[which] * (int64_t)clsel_priv_plan_width(plan, which);
    *bytes = clsel_priv_plan_tensor_bytes(plan, which);
    return CLSEL_SUCCESS;
}

void clsel_plan_destroy(clsel_plan *plan)
{
    clsel_priv_free(plan);
}

const clsel_shape *clsel_plan_output_shape(const clsel_plan *plan)
{
    return plan ? &plan->out_shape : NULL;
}

int64_t clsel_plan_output_count(const clsel_plan *plan)
{
    return plan ? plan->out_count : 0;
}

uint64_t clsel_priv_plan_tensor_bytes(const clsel_plan *plan, int op)
{
    return (uint64_t)plan->reach[op] * clsel_priv_plan_width(plan, op);
}

uint64_t clsel_priv_plan_bytes_moved(const clsel_plan *plan)
{
    uint64_t bytes = 0;
    for (int op = 0; op < PLAN_OPERANDS; ++op)
        bytes += clsel_priv_plan_tensor_bytes(plan, op);
    return bytes;
}

size_t clsel_plan_output_bytes(const clsel_plan *plan)
{
    return plan ? (size_t)plan->out_count * plan->elem_size : 0;
}

clsel_dtype clsel_plan_dtype(const clsel_plan *plan)
{
    return plan ? plan->dtype : CLSEL_DTYPE_INVALID;
}

int64_t clsel_plan_input_count(const clsel_plan *plan, clsel_operand which)
{
    if (!plan || (unsigned)which > CLSEL_OPERAND_ELSE)
        return -1;
    return plan->in_count[which];
}

/* Appends formatted text to a fixed buffer, truncating silently. */
typedef struct text_buf {
    char data[2048];
    size_t used;
} text_buf;

static void text_add(text_buf *t, const char *fmt, ...)
{
    if (t->used >= sizeof t->data)
        return;
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(t->data + t->used, sizeof t->data - t->used, fmt, args);
    va_end(args);
    if (n > 0)
        t->used += (size_t)n;
}

static void text_list(text_buf *t, const int64_t *values, int32_t n)
{
    text_add(t, "[");
    for (int32_t i = 0; i < n; ++i)
        text_add(t, i ? ",%lld" : "%lld", (long long)values[i]);
    text_add(t, "]");
}

size_t clsel_plan_describe(const clsel_plan *plan, char *buf, size_t size)
{
    char shape[CLSEL_SHAPE_TEXT_MAX];
    text_buf t = {{0}, 0};
    if (plan) {
        int n =
            snprintf(t.data, sizeof t.data, "%s out %s (%lld elements) -> %d dims ",
                     clsel_dtype_name(plan->dtype), clsel_priv_shape_text(&plan->out_shape, shape),
                     (long long)plan->out_count, (int)plan->iter.rank);
        t.used = n > 0 ? (size_t)n : 0;
        text_list(&t, plan->iter.dims, plan->iter.rank);
        for (int op = 0; op < PLAN_OPERANDS; ++op) {
            text_add(&t, " %s:", clsel_priv_operand_name(op));
            text_list(&t, plan->iter.strides[op], plan->iter.rank);
        }
    }
    if (buf && size)
        snprintf(buf, size, "%s", t.data);
    return t.used;
}
