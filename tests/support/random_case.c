/* random_case.c - random Select cases (random_case.h). */
#include <string.h>

#include "random_case.h"

static int64_t pick_dim(rng *r)
{
    static const int64_t dims[] = {1, 1, 2, 2, 3, 4, 5, 7, 8, 13, 16, 31, 64, 100, 257};
    if (rng_below(r, 40) == 0)
        return 0;
    return dims[rng_below(r, sizeof dims / sizeof dims[0])];
}

/* An output shape of at most RANDOM_CASE_MAX_ELEMENTS elements. */
static clsel_shape random_out_shape(rng *r)
{
    static const int ranks[] = {0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6, 7, 8};
    clsel_shape s = SCALAR;
    s.rank = ranks[rng_below(r, sizeof ranks / sizeof ranks[0])];
    for (;;) { /* inputs may hold 1 where the output has 0: bound the nonzero dims */
        int64_t nonzero = 1;
        for (int i = 0; i < s.rank; ++i) {
            s.dims[i] = pick_dim(r);
            nonzero *= s.dims[i] ? s.dims[i] : 1;
        }
        if (nonzero <= RANDOM_CASE_MAX_ELEMENTS)
            return s;
    }
}

/* numpy: a right-aligned suffix of `out`, each dim kept or replaced by 1. */
static clsel_shape numpy_input(rng *r, const clsel_shape *out)
{
    clsel_shape s = SCALAR;
    s.rank = (int)rng_below(r, (uint64_t)out->rank + 1);
    if (rng_below(r, 2))
        s.rank = out->rank;
    for (int i = 0; i < s.rank; ++i) {
        int64_t d = out->dims[out->rank - s.rank + i];
        s.dims[i] = rng_below(r, 3) == 0 ? 1 : d;
    }
    return s;
}

/* pdpd: dims of `then` from `start`, some replaced by 1, plus optional trailing 1s. */
static clsel_shape pdpd_input(rng *r, const clsel_shape *then_shape, int start, int length)
{
    clsel_shape s = SCALAR;
    for (int i = 0; i < length; ++i)
        s.dims[s.rank++] = rng_below(r, 3) == 0 ? 1 : then_shape->dims[start + i];
    while (s.rank < CLSEL_MAX_RANK && rng_below(r, 4) == 0)
        s.dims[s.rank++] = 1;
    return s;
}

oracle_case random_case(rng *r)
{
    oracle_case c;
    memset(&c, 0, sizeof c);
    clsel_shape out = random_out_shape(r);
    uint64_t mode = rng_below(r, 10);
    c.axis = -1;
    if (mode < 6) {
        c.mode = CLSEL_BROADCAST_NUMPY;
        c.cond_broadcast = rng_below(r, 3) == 0 ? CLSEL_COND_BIDIRECTIONAL : CLSEL_COND_ONE_WAY;
        for (int k = 0; k < 3; ++k)
            c.shape[k] = numpy_input(r, &out);
    } else if (mode < 7) {
        c.mode = CLSEL_BROADCAST_NONE;
        for (int k = 0; k < 3; ++k)
            c.shape[k] = out;
    } else {
        c.mode = CLSEL_BROADCAST_PDPD;
        c.shape[1] = out;
        int explicit_axis = rng_below(r, 2) == 0;
        int start = (int)rng_below(r, (uint64_t)out.rank + 1);
        if (explicit_axis)
            c.axis = start;
        for (int k = 0; k < 3; k += 2) {
            int length = (int)rng_below(r, (uint64_t)(out.rank - start) + 1);
            if (!explicit_axis) { /* -1: aligned to the end of then, per input */
                length = (int)rng_below(r, (uint64_t)out.rank + 1);
                c.shape[k] = pdpd_input(r, &out, out.rank - length, length);
                c.shape[k].rank = length; /* no trailing 1s: they would change the start */
            } else {
                c.shape[k] = pdpd_input(r, &out, start, length);
            }
        }
    }
    /* Now and then break a dim, so that errors get compared too. */
    if (rng_below(r, 10) == 0) {
        clsel_shape *s = &c.shape[rng_below(r, 3)];
        if (s->rank > 0)
            s->dims[rng_below(r, (uint64_t)s->rank)] = 1 + (int64_t)rng_below(r, 4);
    }
    return c;
}

oracle_case random_case_periodic(rng *r)
{
    static const int64_t short_dims[] = {1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 40};
    oracle_case c;
    memset(&c, 0, sizeof c);
    c.mode = CLSEL_BROADCAST_NUMPY;
    c.axis = -1;
    c.cond_broadcast = rng_below(r, 3) == 0 ? CLSEL_COND_BIDIRECTIONAL : CLSEL_COND_ONE_WAY;
    clsel_shape out = SCALAR;
    out.rank = 2 + (int)rng_below(r, 5);
    int64_t inner = 1;
    for (int i = 1; i < out.rank; ++i) {
        out.dims[i] = short_dims[rng_below(r, sizeof short_dims / sizeof short_dims[0])];
        if (inner * out.dims[i] > RANDOM_CASE_MAX_ELEMENTS / 2)
            out.dims[i] = 1;
        inner *= out.dims[i];
    }
    const int64_t most = RANDOM_CASE_MAX_ELEMENTS / inner;
    out.dims[0] = 1 + (int64_t)rng_below(r, (uint64_t)(most < 300 ? most : 300));
    for (int k = 0; k < 3; ++k) {
        c.shape[k] = out;
        for (int i = 0; i < out.rank; ++i)
            if (rng_below(r, 2))
                c.shape[k].dims[i] = 1;
        if (rng_below(r, 4) == 0) { /* leading dims dropped: numpy aligns the rest right */
            const int drop = (int)rng_below(r, (uint64_t)out.rank);
            memmove(c.shape[k].dims, c.shape[k].dims + drop,
                    sizeof(int64_t) * (size_t)(out.rank - drop));
            c.shape[k].rank = out.rank - drop;
        }
    }
    return c;
}

clsel_attrs random_case_attrs(const oracle_case *c)
{
    clsel_attrs a = clsel_attrs_default();
    a.broadcast = c->mode;
    a.axis = c->axis;
    a.cond_broadcast = c->cond_broadcast;
    return a;
}
