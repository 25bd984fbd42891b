/* plan_iter.c - see plan_iter.h: the counter, the reshapes, spans and the split into boxes. A box
 * is an iteration space of its own, so every consumer of a sub-range (a launch whose index math
 * stays in 32 bits, a runtime chunk, a thread's share) walks it as it would the whole run, and no
 * one patches a copied plan. The split is along the highest dim whose one index fits the bounds, in
 * equal ranges, as PyTorch's TensorIterator splits for 32-bit indexing
 * (aten/src/ATen/TensorIterator.cpp, SplitUntil32Bit), but in ranges rather than halves so that
 * boxes come in order. */
#include "plan/plan_iter.h"

#include <string.h>

const char *clsel_priv_operand_name(int op)
{
    static const char *const names[PLAN_OPERANDS] = {
        [PLAN_COND] = "cond",
        [PLAN_THEN] = "then",
        [PLAN_ELSE] = "else",
        [PLAN_OUT] = "out",
    };
    return op >= 0 && op < PLAN_OPERANDS ? names[op] : "?";
}

void clsel_priv_plan_counter_at(const plan_iter *it, int64_t index, plan_counter *c)
{
    for (int t = 0; t < PLAN_OPERANDS; ++t)
        c->offset[t] = it->base[t];
    for (int32_t d = 0; d < it->rank; ++d) {
        c->at[d] = index % it->dims[d];
        index /= it->dims[d];
        for (int t = 0; t < PLAN_OPERANDS; ++t)
            c->offset[t] += c->at[d] * it->strides[t][d];
    }
}

void clsel_priv_plan_counter_next(const plan_iter *it, plan_counter *c)
{
    for (int32_t d = 0; d < it->rank; ++d) {
        if (++c->at[d] < it->dims[d]) {
            for (int t = 0; t < PLAN_OPERANDS; ++t)
                c->offset[t] += it->strides[t][d];
            return;
        }
        for (int t = 0; t < PLAN_OPERANDS; ++t)
            c->offset[t] -= (it->dims[d] - 1) * it->strides[t][d];
        c->at[d] = 0;
    }
}

void clsel_priv_plan_counter_skip(const plan_iter *it, plan_counter *c, int64_t k)
{
    if (it->rank == 0)
        return;
    c->at[0] += k - 1;
    for (int t = 0; t < PLAN_OPERANDS; ++t)
        c->offset[t] += (k - 1) * it->strides[t][0];
    clsel_priv_plan_counter_next(it, c);
}

void clsel_priv_plan_iter_swap_dims(plan_iter *it, int32_t a, int32_t b)
{
    const int64_t dim = it->dims[a];
    it->dims[a] = it->dims[b];
    it->dims[b] = dim;
    for (int t = 0; t < PLAN_OPERANDS; ++t) {
        const int64_t stride = it->strides[t][a];
        it->strides[t][a] = it->strides[t][b];
        it->strides[t][b] = stride;
    }
}

void clsel_priv_plan_iter_flip_dim(plan_iter *it, int32_t d)
{
    for (int t = 0; t < PLAN_OPERANDS; ++t) {
        it->base[t] += it->strides[t][d] * (it->dims[d] - 1);
        it->strides[t][d] = -it->strides[t][d];
    }
}

void clsel_priv_plan_iter_sort_by(plan_iter *it, int t)
{
    for (int32_t d = 1; d < it->rank; ++d)
        for (int32_t i = d; i > 0 && it->strides[t][i - 1] > it->strides[t][i]; --i)
            clsel_priv_plan_iter_swap_dims(it, i, i - 1);
}

/* Whether dim d + 1 goes on where dim d ends, for every tensor. */
static int continues(const plan_iter *it, int32_t d)
{
    for (int t = 0; t < PLAN_OPERANDS; ++t) {
        int64_t end;
        if (__builtin_mul_overflow(it->strides[t][d], it->dims[d], &end) ||
            it->strides[t][d + 1] != end)
            return 0;
    }
    return 1;
}

void clsel_priv_plan_iter_collapse(plan_iter *it)
{
    int32_t n = 0;
    for (int32_t d = 0; d < it->rank; ++d) {
        if (it->dims[d] == 1)
            continue;
        if (n > 0) { /* dim d next to kept dim n - 1: merged where it goes on from it */
            clsel_priv_plan_iter_swap_dims(it, n, d);
            if (continues(it, n - 1)) {
                it->dims[n - 1] *= it->dims[n];
                it->dims[n] = 1;
                continue;
            }
        } else {
            clsel_priv_plan_iter_swap_dims(it, 0, d);
        }
        ++n;
    }
    for (int32_t d = n; d < CLSEL_MAX_RANK;
         ++d) { /* unused dims: as a walker of any rank reads them */
        it->dims[d] = 1;
        for (int t = 0; t < PLAN_OPERANDS; ++t)
            it->strides[t][d] = 0;
    }
    it->rank = n;
}

void clsel_priv_plan_iter_move_dim(plan_iter *it, int32_t from, int32_t to)
{
    for (; from > to; --from)
        clsel_priv_plan_iter_swap_dims(it, from, from - 1);
    for (; from < to; ++from)
        clsel_priv_plan_iter_swap_dims(it, from, from + 1);
}

int clsel_priv_plan_iter_split_dim(plan_iter *it, int32_t d, int64_t inner)
{
    if (it->rank >= CLSEL_MAX_RANK || d >= it->rank || inner < 1 || it->dims[d] % inner)
        return 0;
    for (int32_t above = it->rank; above > d + 1; --above) {
        it->dims[above] = it->dims[above - 1];
        for (int t = 0; t < PLAN_OPERANDS; ++t)
            it->strides[t][above] = it->strides[t][above - 1];
    }
    it->dims[d + 1] = it->dims[d] / inner;
    it->dims[d] = inner;
    for (int t = 0; t < PLAN_OPERANDS; ++t)
        it->strides[t][d + 1] = it->strides[t][d] * inner;
    ++it->rank;
    return 1;
}

int clsel_priv_plan_iter_blocks(const plan_iter *it, int32_t inner, int64_t split,
                                plan_iter *blocks)
{
    memset(blocks, 0, sizeof *blocks);
    for (int t = 0; t < PLAN_OPERANDS; ++t)
        blocks->base[t] = it->base[t];
    const int kept = inner < it->rank && it->dims[inner] > split;
    if (kept) {
        blocks->dims[0] = (it->dims[inner] + split - 1) / split;
        for (int t = 0; t < PLAN_OPERANDS; ++t)
            blocks->strides[t][0] = split * it->strides[t][inner];
        blocks->rank = 1;
    }
    for (int32_t d = inner + 1; d < it->rank; ++d, ++blocks->rank) {
        blocks->dims[blocks->rank] = it->dims[d];
        for (int t = 0; t < PLAN_OPERANDS; ++t)
            blocks->strides[t][blocks->rank] = it->strides[t][d];
    }
    blocks->count = it->count > 0;
    for (int32_t d = 0; d < blocks->rank; ++d)
        blocks->count *= blocks->dims[d];
    return kept;
}

/* How far tensor t reaches below and above its first element over dims [0, top) whole
 * and `last` indices of dim top (top < rank). */
static void reach(const plan_iter *it, int t, int32_t top, int64_t last, int64_t *below,
                  int64_t *above)
{
    *below = *above = 0;
    for (int32_t d = 0; d <= top && d < it->rank; ++d) {
        const int64_t e = it->strides[t][d] * ((d < top ? it->dims[d] : last) - 1);
        *(e < 0 ? below : above) += e;
    }
}

void clsel_priv_plan_iter_span(const plan_iter *it, int t, int64_t *lo, int64_t *hi)
{
    int64_t below, above;
    reach(it, t, it->rank > 0 ? it->rank - 1 : 0, it->rank > 0 ? it->dims[it->rank - 1] : 1, &below,
          &above);
    *lo = it->base[t] + below;
    *hi = it->base[t] + above;
}

int clsel_priv_plan_iter_dense(const plan_iter *it, int t)
{
    int64_t step = 1;
    for (int32_t d = 0; d < it->rank; step *= it->dims[d++])
        if (it->dims[d] > 1 && it->strides[t][d] != step)
            return 0;
    return 1;
}

/* Whether a box of dims [0, d) whole and `step` indices of dim d fits the bounds. */
static int fits(const plan_iter *it, int32_t d, int64_t slab, int64_t step, int64_t max_elements,
                int64_t max_span)
{
    if (slab * step > max_elements)
        return 0;
    for (int t = 0; t < PLAN_OPERANDS; ++t) {
        int64_t below, above;
        reach(it, t, d, step, &below, &above);
        if (above - below >= max_span)
            return 0;
    }
    return 1;
}

void clsel_priv_plan_split(plan_split *s, const plan_iter *it, int64_t max_elements,
                           int64_t max_span)
{
    memset(s, 0, sizeof *s);
    s->whole = *it;
    s->step = s->per_line = 1;
    s->count = it->count > 0;
    if (it->rank == 0 || it->count == 0)
        return;
    if (max_elements < 1)
        max_elements = 1;
    if (max_span < 1)
        max_span = 1;
    int64_t slab = 1;
    while (s->d + 1 < it->rank && fits(it, s->d, slab, it->dims[s->d], max_elements, max_span))
        slab *= it->dims[s->d++];
    /* The most indices of dim d that fit, by bisection (the bounds are monotonic in it). */
    int64_t lo = 1, hi = it->dims[s->d];
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo + 1) / 2;
        if (fits(it, s->d, slab, mid, max_elements, max_span))
            lo = mid;
        else
            hi = mid - 1;
    }
    s->step = lo;
    s->per_line = (it->dims[s->d] + lo - 1) / lo;
    s->count = s->per_line;
    for (int32_t d = s->d + 1; d < it->rank; ++d)
        s->count *= it->dims[d];
}

void clsel_priv_plan_split_box(const plan_split *s, int64_t k, plan_iter *box)
{
    const plan_iter *it = &s->whole;
    *box = *it;
    if (it->rank == 0)
        return;
    const int32_t d = s->d;
    plan_iter starts; /* one element per box, where it starts */
    const int chunked = clsel_priv_plan_iter_blocks(it, d, s->step, &starts);
    plan_counter at;
    clsel_priv_plan_counter_at(&starts, k, &at);
    for (int t = 0; t < PLAN_OPERANDS; ++t)
        box->base[t] = at.offset[t];
    const int64_t first = chunked ? at.at[0] * s->step : 0;
    const int64_t left = it->dims[d] - first;
    box->dims[d] = left < s->step ? left : s->step;
    box->rank = box->dims[d] > 1 ? d + 1 : d; /* no dim of 1, as in the plan's */
    box->count = 1;
    for (int32_t i = 0; i < box->rank; ++i)
        box->count *= box->dims[i];
    for (int32_t i = box->rank; i < CLSEL_MAX_RANK;
         ++i) { /* unused dims: as a walker of any rank reads them */
        box->dims[i] = 1;
        for (int t = 0; t < PLAN_OPERANDS; ++t)
            box->strides[t][i] = 0;
    }
}
