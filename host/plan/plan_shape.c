/* plan_shape.c - shape rules of the three broadcast modes (docs/semantics.md, Shapes): output
 * shape, validation with messages that name the shapes, and which input axis feeds each output
 * dim. */
#include <string.h>

#include "common/error.h"
#include "common/options.h"
#include "plan/plan.h"

int64_t clsel_priv_plan_shape_count(const clsel_shape *shape)
{
    int64_t count = 1;
    for (int32_t d = 0; d < shape->rank; ++d)
        if (shape->dims[d] == 0)
            return 0;
    for (int32_t d = 0; d < shape->rank; ++d) {
        if (count > INT64_MAX / shape->dims[d])
            return -1;
        count *= shape->dims[d];
    }
    return count;
}

static clsel_status check_shape(const clsel_shape *shape, const char *name)
{
    if (!shape)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "%s shape is NULL", name);
    if (shape->rank < 0 || shape->rank > CLSEL_MAX_RANK)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_SHAPE, "%s rank %d is outside 0..%d", name,
                               (int)shape->rank, CLSEL_MAX_RANK);
    char s[CLSEL_SHAPE_TEXT_MAX];
    for (int32_t d = 0; d < shape->rank; ++d)
        if (shape->dims[d] < 0)
            return clsel_priv_fail(CLSEL_ERROR_INVALID_SHAPE, "%s %s: dim %d is negative (%lld)",
                                   name, clsel_priv_shape_text(shape, s), (int)d,
                                   (long long)shape->dims[d]);
    if (clsel_priv_plan_shape_count(shape) < 0)
        return clsel_priv_fail(CLSEL_ERROR_OVERFLOW, "%s %s has more than 2^63-1 elements", name,
                               clsel_priv_shape_text(shape, s));
    return CLSEL_SUCCESS;
}

static clsel_status check_attrs(const clsel_attrs *attrs)
{
    if ((unsigned)attrs->broadcast > CLSEL_BROADCAST_PDPD)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "unknown broadcast mode %d (numpy = 0, none = 1, pdpd = 2)",
                               (int)attrs->broadcast);
    if ((unsigned)attrs->cond_broadcast > CLSEL_COND_BIDIRECTIONAL)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "unknown cond_broadcast %d (one-way = 0, bidirectional = 1)",
                               (int)attrs->cond_broadcast);
    if (attrs->broadcast == CLSEL_BROADCAST_PDPD && attrs->axis < -1)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "pdpd broadcast: axis %lld is invalid (must be -1 or >= 0)",
                               (long long)attrs->axis);
    return CLSEL_SUCCESS;
}

/* numpy two-way broadcast of a and b (right-aligned). Returns the index of the first incompatible
 * dim of the longer-or-equal result (as a result dim), or -1 when they broadcast; *out is the
 * broadcast shape. */
static int numpy_pair(const clsel_shape *a, const clsel_shape *b, clsel_shape *out)
{
    int32_t rank = a->rank > b->rank ? a->rank : b->rank;
    out->rank = rank;
    for (int32_t d = 0; d < rank; ++d) {
        int32_t da = d - (rank - a->rank), db = d - (rank - b->rank);
        int64_t x = da >= 0 ? a->dims[da] : 1, y = db >= 0 ? b->dims[db] : 1;
        if (x == y || y == 1)
            out->dims[d] = x;
        else if (x == 1)
            out->dims[d] = y;
        else
            return (int)d;
    }
    return -1;
}

/* Right-aligned axis mapping of an input of `in_rank` onto an output of `out_rank`;
 * size-1 input dims are marked broadcast by the stride computation, not here. */
static void align_right(int8_t axis_of[CLSEL_MAX_RANK], int32_t in_rank, int32_t out_rank)
{
    for (int32_t d = 0; d < out_rank; ++d) {
        int32_t a = d - (out_rank - in_rank);
        axis_of[d] = (int8_t)(a >= 0 ? a : -1);
    }
}

static clsel_status layout_none(const clsel_shape *in[3], plan_layout *layout)
{
    for (int op = 1; op < 3; ++op) {
        int same = in[op]->rank == in[0]->rank &&
                   memcmp(in[op]->dims, in[0]->dims, sizeof(int64_t) * (size_t)in[0]->rank) == 0;
        if (!same) {
            char c[CLSEL_SHAPE_TEXT_MAX], t[CLSEL_SHAPE_TEXT_MAX], e[CLSEL_SHAPE_TEXT_MAX];
            return clsel_priv_fail(
                CLSEL_ERROR_INVALID_SHAPE,
                "none broadcast: shapes must be identical: cond %s, then %s, else %s",
                clsel_priv_shape_text(in[0], c), clsel_priv_shape_text(in[1], t),
                clsel_priv_shape_text(in[2], e));
        }
    }
    layout->out = *in[1];
    for (int op = 0; op < 3; ++op)
        align_right(layout->axis_of[op], in[op]->rank, in[1]->rank);
    return CLSEL_SUCCESS;
}

/* Whether cond fits one way onto r: rank(cond) <= rank(r) and every right-aligned cond dim is 1 or
 * equal. Returns -1 if it fits, else the offending cond dim (or rank(cond) when the rank is too
 * large). */
static int one_way_misfit(const clsel_shape *cond, const clsel_shape *r)
{
    if (cond->rank > r->rank)
        return (int)cond->rank;
    for (int32_t i = 0; i < cond->rank; ++i) {
        int64_t c = cond->dims[i], o = r->dims[i + (r->rank - cond->rank)];
        if (c != 1 && c != o)
            return (int)i;
    }
    return -1;
}

static clsel_status layout_numpy(const clsel_shape *in[3], const clsel_attrs *attrs,
                                 plan_layout *layout)
{
    char c[CLSEL_SHAPE_TEXT_MAX], t[CLSEL_SHAPE_TEXT_MAX], e[CLSEL_SHAPE_TEXT_MAX],
        r[CLSEL_SHAPE_TEXT_MAX];
    const clsel_shape *cond = in[0], *then_shape = in[1], *else_shape = in[2];
    clsel_shape values;
    int bad = numpy_pair(then_shape, else_shape, &values);
    if (bad >= 0) {
        int32_t dt = bad - (values.rank - then_shape->rank);
        int32_t de = bad - (values.rank - else_shape->rank);
        return clsel_priv_fail(
            CLSEL_ERROR_INVALID_SHAPE,
            "numpy broadcast: then %s and else %s do not broadcast (then dim %d: "
            "%lld vs else dim %d: %lld); cond is %s",
            clsel_priv_shape_text(then_shape, t), clsel_priv_shape_text(else_shape, e), (int)dt,
            (long long)then_shape->dims[dt], (int)de, (long long)else_shape->dims[de],
            clsel_priv_shape_text(cond, c));
    }

    clsel_shape out;
    int two_way_bad = numpy_pair(&values, cond, &out);
    if (attrs->cond_broadcast == CLSEL_COND_ONE_WAY) {
        int misfit = one_way_misfit(cond, &values);
        if (misfit >= 0) {
            const char *hint =
                two_way_bad < 0 ? "; cond_broadcast = bidirectional would accept it" : "";
            if (misfit == cond->rank)
                return clsel_priv_fail(
                    CLSEL_ERROR_INVALID_SHAPE,
                    "numpy broadcast: cond %s cannot be broadcast to %s (rank %d > %d; "
                    "then %s, else %s)%s",
                    clsel_priv_shape_text(cond, c), clsel_priv_shape_text(&values, r),
                    (int)cond->rank, (int)values.rank, clsel_priv_shape_text(then_shape, t),
                    clsel_priv_shape_text(else_shape, e), hint);
            return clsel_priv_fail(
                CLSEL_ERROR_INVALID_SHAPE,
                "numpy broadcast: cond %s cannot be broadcast to %s (cond dim %d: "
                "%lld vs %lld; then %s, else %s)%s",
                clsel_priv_shape_text(cond, c), clsel_priv_shape_text(&values, r), misfit,
                (long long)cond->dims[misfit],
                (long long)values.dims[misfit + (values.rank - cond->rank)],
                clsel_priv_shape_text(then_shape, t), clsel_priv_shape_text(else_shape, e), hint);
        }
        out = values;
    } else if (two_way_bad >= 0) {
        int32_t dc = two_way_bad - (out.rank - cond->rank);
        int32_t dr = two_way_bad - (out.rank - values.rank);
        return clsel_priv_fail(
            CLSEL_ERROR_INVALID_SHAPE,
            "numpy broadcast (bidirectional cond): cond %s and broadcast(then, else) "
            "%s do not broadcast (cond dim %d: %lld vs %lld; then %s, else %s)",
            clsel_priv_shape_text(cond, c), clsel_priv_shape_text(&values, r), (int)dc,
            (long long)cond->dims[dc], (long long)values.dims[dr],
            clsel_priv_shape_text(then_shape, t), clsel_priv_shape_text(else_shape, e));
    }
    layout->out = out;
    for (int op = 0; op < 3; ++op)
        align_right(layout->axis_of[op], in[op]->rank, out.rank);
    return CLSEL_SUCCESS;
}

/* pdpd: place input `op` (cond or else) inside then, starting at output dim a. */
static clsel_status place_pdpd(const clsel_shape *x, int op, const clsel_shape *then_shape,
                               int64_t axis, int8_t axis_of[CLSEL_MAX_RANK])
{
    char xs[CLSEL_SHAPE_TEXT_MAX], ts[CLSEL_SHAPE_TEXT_MAX];
    const char *name = clsel_priv_operand_name(op);
    if (x->rank > then_shape->rank)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_SHAPE,
                               "pdpd broadcast (axis %lld): %s %s has rank %d > rank %d of then %s",
                               (long long)axis, name, clsel_priv_shape_text(x, xs), (int)x->rank,
                               (int)then_shape->rank, clsel_priv_shape_text(then_shape, ts));
    /* -1 is computed per input from its full rank; trailing 1s are then ignored. */
    int64_t start = axis == -1 ? (int64_t)(then_shape->rank - x->rank) : axis;
    int32_t trimmed = x->rank;
    while (trimmed > 0 && x->dims[trimmed - 1] == 1)
        --trimmed;
    if (start > (int64_t)then_shape->rank - trimmed)
        return clsel_priv_fail(
            CLSEL_ERROR_INVALID_SHAPE,
            "pdpd broadcast (axis %lld): %s %s (rank %d without trailing 1s) placed "
            "at dim %lld runs past then %s (rank %d)",
            (long long)axis, name, clsel_priv_shape_text(x, xs), (int)trimmed, (long long)start,
            clsel_priv_shape_text(then_shape, ts), (int)then_shape->rank);
    for (int32_t d = 0; d < then_shape->rank; ++d)
        axis_of[d] = -1;
    for (int32_t i = 0; i < trimmed; ++i) {
        int64_t xd = x->dims[i], td = then_shape->dims[start + i];
        if (xd != 1 && xd != td)
            return clsel_priv_fail(
                CLSEL_ERROR_INVALID_SHAPE,
                "pdpd broadcast (axis %lld): %s %s cannot be placed in then %s: %s dim "
                "%d = %lld vs then dim %lld = %lld",
                (long long)axis, name, clsel_priv_shape_text(x, xs),
                clsel_priv_shape_text(then_shape, ts), name, (int)i, (long long)xd,
                (long long)(start + i), (long long)td);
        axis_of[start + i] = (int8_t)i;
    }
    return CLSEL_SUCCESS;
}

static clsel_status layout_pdpd(const clsel_shape *in[3], const clsel_attrs *attrs,
                                plan_layout *layout)
{
    const clsel_shape *then_shape = in[1];
    clsel_status st = place_pdpd(in[2], 2, then_shape, attrs->axis, layout->axis_of[2]);
    if (st == CLSEL_SUCCESS)
        st = place_pdpd(in[0], 0, then_shape, attrs->axis, layout->axis_of[0]);
    if (st != CLSEL_SUCCESS)
        return st;
    layout->out = *then_shape;
    align_right(layout->axis_of[1], then_shape->rank, then_shape->rank);
    return CLSEL_SUCCESS;
}

clsel_status clsel_priv_plan_layout_compute(const clsel_shape *cond, const clsel_shape *then_shape,
                                            const clsel_shape *else_shape, const clsel_attrs *attrs,
                                            plan_layout *layout)
{
    const clsel_shape *in[3] = {cond, then_shape, else_shape};
    static const options_type attrs_type = {"clsel_attrs", "clsel_attrs_default",
                                            sizeof(clsel_attrs), sizeof(clsel_attrs)};
    clsel_attrs given = clsel_attrs_default();
    clsel_status st = clsel_priv_options_read(&attrs_type, attrs, &given);
    if (st == CLSEL_SUCCESS)
        st = check_attrs(&given);
    for (int op = 0; op < 3 && st == CLSEL_SUCCESS; ++op)
        st = check_shape(in[op], clsel_priv_operand_name(op));
    if (st != CLSEL_SUCCESS)
        return st;

    memset(layout, 0, sizeof *layout);
    layout->attrs = given;
    attrs = &layout->attrs;
    switch (attrs->broadcast) {
    case CLSEL_BROADCAST_NONE:
        st = layout_none(in, layout);
        break;
    case CLSEL_BROADCAST_PDPD:
        st = layout_pdpd(in, attrs, layout);
        break;
    case CLSEL_BROADCAST_NUMPY:
        st = layout_numpy(in, attrs, layout);
        break;
    }
    if (st != CLSEL_SUCCESS)
        return st;

    layout->out_count = clsel_priv_plan_shape_count(&layout->out);
    if (layout->out_count < 0) {
        char o[CLSEL_SHAPE_TEXT_MAX];
        return clsel_priv_fail(CLSEL_ERROR_OVERFLOW, "output %s has more than 2^63-1 elements",
                               clsel_priv_shape_text(&layout->out, o));
    }
    return CLSEL_SUCCESS;
}

clsel_status clsel_infer_shape(const clsel_shape *cond, const clsel_shape *then_shape,
                               const clsel_shape *else_shape, const clsel_attrs *attrs,
                               clsel_shape *out)
{
    if (!out)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_infer_shape: out is NULL");
    plan_layout layout;
    clsel_status st = clsel_priv_plan_layout_compute(cond, then_shape, else_shape, attrs, &layout);
    if (st == CLSEL_SUCCESS)
        *out = layout.out;
    return st;
}
