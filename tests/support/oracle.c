/* oracle.c - see oracle.h. Deliberately simple and slow. */
#include "oracle.h"

#include <string.h>

int64_t oracle_count(const clsel_shape *s)
{
    int64_t n = 1;
    for (int i = 0; i < s->rank; ++i)
        n *= s->dims[i];
    return n;
}

/* Dim i of s when s is padded on the left with 1s to `rank`. */
static int64_t padded_dim(const clsel_shape *s, int rank, int i)
{
    int k = i - (rank - s->rank);
    return k >= 0 ? s->dims[k] : 1;
}

/* numpy rule over a set of shapes: per padded dim, all non-1 values must agree. */
static int numpy_merge(const clsel_shape *const *shapes, int n, clsel_shape *out)
{
    int rank = 0;
    for (int k = 0; k < n; ++k)
        if (shapes[k]->rank > rank)
            rank = shapes[k]->rank;
    out->rank = rank;
    for (int i = 0; i < rank; ++i) {
        int64_t value = 1;
        for (int k = 0; k < n; ++k) {
            int64_t d = padded_dim(shapes[k], rank, i);
            if (d == 1)
                continue;
            if (value != 1 && value != d)
                return 0;
            value = d;
        }
        out->dims[i] = value;
    }
    return 1;
}

static int pdpd_start(const oracle_case *c, const clsel_shape *x, int *start, int *kept)
{
    const clsel_shape *t = &c->shape[1];
    if (x->rank > t->rank)
        return 0;
    int64_t a = c->axis == -1 ? t->rank - x->rank : c->axis;
    int k = x->rank;
    while (k > 0 && x->dims[k - 1] == 1)
        --k;
    if (c->axis < -1 || a > (int64_t)t->rank - k)
        return 0; /* not a + k: axis may be near INT64_MAX */
    for (int i = 0; i < k; ++i)
        if (x->dims[i] != 1 && x->dims[i] != t->dims[a + i])
            return 0;
    *start = (int)a;
    *kept = k;
    return 1;
}

int oracle_shape(const oracle_case *c, clsel_shape *out)
{
    const clsel_shape *cond = &c->shape[0], *t = &c->shape[1], *e = &c->shape[2];
    for (int k = 0; k < 3; ++k) {
        if (c->shape[k].rank < 0 || c->shape[k].rank > CLSEL_MAX_RANK)
            return 0;
        for (int i = 0; i < c->shape[k].rank; ++i)
            if (c->shape[k].dims[i] < 0)
                return 0;
    }
    if (c->mode == CLSEL_BROADCAST_NONE) {
        for (int k = 0; k < 3; k += 2) {
            if (c->shape[k].rank != t->rank)
                return 0;
            for (int i = 0; i < t->rank; ++i)
                if (c->shape[k].dims[i] != t->dims[i])
                    return 0;
        }
        *out = *t;
        return 1;
    }
    if (c->mode == CLSEL_BROADCAST_PDPD) {
        int s, k;
        if (!pdpd_start(c, e, &s, &k) || !pdpd_start(c, cond, &s, &k))
            return 0;
        *out = *t;
        return 1;
    }
    if (c->cond_broadcast == CLSEL_COND_BIDIRECTIONAL) {
        const clsel_shape *all[3] = {cond, t, e};
        return numpy_merge(all, 3, out);
    }
    const clsel_shape *values[2] = {t, e};
    if (!numpy_merge(values, 2, out) || cond->rank > out->rank)
        return 0;
    for (int i = 0; i < out->rank; ++i) {
        int64_t d = padded_dim(cond, out->rank, i);
        if (d != 1 && d != out->dims[i])
            return 0;
    }
    return 1;
}

/* Flat index into input `which` for the output coordinate `coord`. */
static int64_t input_index(const oracle_case *c, int which, const clsel_shape *out,
                           const int64_t *coord)
{
    const clsel_shape *x = &c->shape[which];
    int64_t index = 0;
    int start = out->rank - x->rank, kept = x->rank;
    if (c->mode == CLSEL_BROADCAST_PDPD && which != 1)
        pdpd_start(c, x, &start, &kept);
    for (int i = 0; i < x->rank; ++i) {
        int64_t ci = (i < kept && x->dims[i] != 1) ? coord[start + i] : 0;
        index = index * x->dims[i] + ci;
    }
    return index;
}

const void *oracle_source(const oracle_case *c, const clsel_shape *out_shape, int64_t o,
                          const uint8_t *cond, const void *then_data, const void *else_data)
{
    int64_t coord[CLSEL_MAX_RANK];
    for (int i = out_shape->rank - 1; i >= 0; --i) {
        coord[i] = o % out_shape->dims[i];
        o /= out_shape->dims[i];
    }
    if (cond[input_index(c, 0, out_shape, coord)] != 0)
        return (const uint8_t *)then_data +
               (size_t)input_index(c, 1, out_shape, coord) * c->elem_size;
    return (const uint8_t *)else_data + (size_t)input_index(c, 2, out_shape, coord) * c->elem_size;
}

void oracle_select(const oracle_case *c, const clsel_shape *out_shape, const uint8_t *cond,
                   const void *then_data, const void *else_data, void *out)
{
    const int64_t n = oracle_count(out_shape);
    for (int64_t o = 0; o < n; ++o)
        memcpy((uint8_t *)out + (size_t)o * c->elem_size,
               oracle_source(c, out_shape, o, cond, then_data, else_data), c->elem_size);
}
