/* test_plan_iter.c - the iteration space's own operations (host/plan/plan_iter.h) against a
 * brute-force enumeration: on random spaces (ranks 0 to CLSEL_MAX_RANK, dims of 1 to 5, signed
 * strides, bases), the counter (at, next, skip), spans, density, every reshape (swap, move, flip,
 * sort, collapse, split a dim, the space of blocks) and the split into boxes, element by element.
 *
 *   test_plan_iter [--cases N] [--seed S] [CASE...] */
#include <string.h>

#include "check.h"
#include "plan/plan_iter.h"
#include "test_util.h"

static int64_t case_count = 2000;
static uint64_t seed = 1;

/* The mixed-radix digits of `index`: its coordinates along each dim, innermost first. */
static void coords_of(const plan_iter *it, int64_t index, int64_t at[CLSEL_MAX_RANK])
{
    for (int32_t d = 0; d < it->rank; ++d) {
        at[d] = index % it->dims[d];
        index /= it->dims[d];
    }
}

/* The offsets of the element at coordinates `at`: base + sum of at_d * stride_d. */
static void offsets_at(const plan_iter *it, const int64_t at[CLSEL_MAX_RANK],
                       int64_t offsets[PLAN_OPERANDS])
{
    for (int t = 0; t < PLAN_OPERANDS; ++t) {
        offsets[t] = it->base[t];
        for (int32_t d = 0; d < it->rank; ++d)
            offsets[t] += at[d] * it->strides[t][d];
    }
}

/* Element `index`'s offsets, by the definition: at its coordinates. */
static void reference_offsets(const plan_iter *it, int64_t index, int64_t offsets[PLAN_OPERANDS])
{
    int64_t at[CLSEL_MAX_RANK];
    coords_of(it, index, at);
    offsets_at(it, at, offsets);
}

static int same_offsets(const int64_t a[PLAN_OPERANDS], const int64_t b[PLAN_OPERANDS])
{
    return memcmp(a, b, sizeof(int64_t) * PLAN_OPERANDS) == 0;
}

/* A random space: dims of 1 to 5 (some of 1, as boxes and blocks may have), each tensor dense or
 * its strides in [-6, 6], bases in [0, 50). */
static plan_iter random_space(rng *r)
{
    plan_iter it;
    memset(&it, 0, sizeof it);
    it.rank = (int32_t)rng_below(r, CLSEL_MAX_RANK + 1);
    it.count = 1;
    for (int32_t d = 0; d < CLSEL_MAX_RANK; ++d)
        it.dims[d] = 1;
    for (int32_t d = 0; d < it.rank; ++d) {
        it.dims[d] = 1 + (int64_t)rng_below(r, it.rank > 5 ? 3 : 5);
        it.count *= it.dims[d];
    }
    for (int t = 0; t < PLAN_OPERANDS; ++t) {
        it.base[t] = (int64_t)rng_below(r, 50);
        const int dense = rng_below(r, 3) == 0; /* contiguous across every dim, as most tensors */
        for (int32_t d = 0, step = 1; d < it.rank; step *= (int)it.dims[d++])
            it.strides[t][d] = dense ? step : (int64_t)rng_below(r, 13) - 6;
    }
    return it;
}

static void test_counter(void)
{
    rng r = {seed};
    for (int64_t k = 0; k < case_count; ++k) {
        const plan_iter it = random_space(&r);
        plan_counter walked;
        clsel_priv_plan_counter_at(&it, 0, &walked);
        for (int64_t i = 0; i < it.count; ++i) {
            int64_t want[PLAN_OPERANDS], coords[CLSEL_MAX_RANK];
            reference_offsets(&it, i, want);
            coords_of(&it, i, coords);
            plan_counter at;
            clsel_priv_plan_counter_at(&it, i, &at);
            CHECK_MSG(same_offsets(at.offset, want), "counter_at(%lld), rank %d", (long long)i,
                      (int)it.rank);
            CHECK_MSG(it.rank == 0 || memcmp(at.at, coords, sizeof(int64_t) * (size_t)it.rank) == 0,
                      "counter_at(%lld)'s indices", (long long)i);
            CHECK_MSG(same_offsets(walked.offset, want), "counter_next to %lld, rank %d",
                      (long long)i, (int)it.rank);
            /* k on along dim 0, up to the next line's first element */
            if (it.rank > 0) {
                const int64_t room = it.dims[0] - at.at[0],
                              step = 1 + (int64_t)rng_below(&r, (uint64_t)room);
                plan_counter skipped = at;
                clsel_priv_plan_counter_skip(&it, &skipped, step);
                int64_t after[PLAN_OPERANDS];
                reference_offsets(&it, (i + step) % it.count, after);
                CHECK_MSG(same_offsets(skipped.offset, after), "counter_skip(%lld) from %lld",
                          (long long)step, (long long)i);
            } else {
                plan_counter skipped = at; /* one element, no dim to step along */
                clsel_priv_plan_counter_skip(&it, &skipped, 1);
                CHECK_MSG(same_offsets(skipped.offset, want), "counter_skip on rank 0 moved");
            }
            clsel_priv_plan_counter_next(&it, &walked);
        }
        plan_counter first;
        clsel_priv_plan_counter_at(&it, 0, &first);
        CHECK_MSG(same_offsets(walked.offset, first.offset),
                  "counter_next past the last element: back to the first");
    }
}

static void test_span_and_dense(void)
{
    rng r = {seed + 1};
    for (int64_t k = 0; k < case_count; ++k) {
        plan_iter it = random_space(&r);
        if (rng_below(&r, 3) == 0) { /* a dense tensor: out laid row-major */
            int64_t step = 1;
            for (int32_t d = 0; d < it.rank; step *= it.dims[d++])
                it.strides[PLAN_OUT][d] = step;
        }
        for (int t = 0; t < PLAN_OPERANDS; ++t) {
            int64_t lo = INT64_MAX, hi = INT64_MIN;
            int dense = 1;
            for (int64_t i = 0; i < it.count; ++i) {
                int64_t o[PLAN_OPERANDS];
                reference_offsets(&it, i, o);
                lo = o[t] < lo ? o[t] : lo;
                hi = o[t] > hi ? o[t] : hi;
                dense = dense && o[t] == it.base[t] + i;
            }
            int64_t got_lo, got_hi;
            clsel_priv_plan_iter_span(&it, t, &got_lo, &got_hi);
            CHECK_MSG(got_lo == lo && got_hi == hi, "span of %s: [%lld, %lld], want [%lld, %lld]",
                      clsel_priv_operand_name(t), (long long)got_lo, (long long)got_hi,
                      (long long)lo, (long long)hi);
            CHECK_MSG(clsel_priv_plan_iter_dense(&it, t) == dense, "dense(%s) %d, want %d",
                      clsel_priv_operand_name(t), clsel_priv_plan_iter_dense(&it, t), dense);
        }
    }
}

/* Every element of `it` lies where `reshaped` puts it: coordinates moved by `order` (new dim j is
 * old dim order[j]). */
static void check_permuted(const plan_iter *it, const plan_iter *reshaped,
                           const int32_t order[CLSEL_MAX_RANK], const char *what)
{
    CHECK_MSG(reshaped->rank == it->rank && reshaped->count == it->count,
              "%s: rank or count changed", what);
    for (int64_t i = 0; i < it->count; ++i) {
        int64_t old_at[CLSEL_MAX_RANK], new_at[CLSEL_MAX_RANK], want[PLAN_OPERANDS],
            got[PLAN_OPERANDS];
        coords_of(it, i, old_at);
        for (int32_t j = 0; j < it->rank; ++j)
            new_at[j] = old_at[order[j]];
        offsets_at(it, old_at, want);
        offsets_at(reshaped, new_at, got);
        CHECK_MSG(same_offsets(got, want), "%s: element %lld moved", what, (long long)i);
    }
}

static void test_reshapes(void)
{
    rng r = {seed + 2};
    for (int64_t k = 0; k < case_count; ++k) {
        const plan_iter it = random_space(&r);
        if (it.rank < 1)
            continue;
        int32_t order[CLSEL_MAX_RANK];
        const int32_t a = (int32_t)rng_below(&r, (uint64_t)it.rank),
                      b = (int32_t)rng_below(&r, (uint64_t)it.rank);

        plan_iter swapped = it;
        clsel_priv_plan_iter_swap_dims(&swapped, a, b);
        for (int32_t j = 0; j < it.rank; ++j)
            order[j] = j == a ? b : j == b ? a : j;
        check_permuted(&it, &swapped, order, "swap_dims");

        plan_iter moved = it;
        clsel_priv_plan_iter_move_dim(&moved, a, b);
        for (int32_t j = 0, from = 0; j < it.rank; ++j) { /* the others in their order, `a` at b */
            if (j == b) {
                order[j] = a;
                continue;
            }
            if (from == a)
                ++from;
            order[j] = from++;
        }
        check_permuted(&it, &moved, order, "move_dim");

        /* flip: dim a walked backwards */
        plan_iter flipped = it;
        clsel_priv_plan_iter_flip_dim(&flipped, a);
        for (int64_t i = 0; i < it.count; ++i) {
            int64_t at[CLSEL_MAX_RANK], want[PLAN_OPERANDS], got[PLAN_OPERANDS];
            coords_of(&it, i, at);
            offsets_at(&it, at, want);
            at[a] = it.dims[a] - 1 - at[a];
            offsets_at(&flipped, at, got);
            CHECK_MSG(same_offsets(got, want), "flip_dim(%d): element %lld", (int)a, (long long)i);
        }

        /* sort by a tensor's strides: a stable sort of the dims, checked as a permutation */
        const int by = (int)rng_below(&r, PLAN_OPERANDS);
        plan_iter sorted = it;
        clsel_priv_plan_iter_sort_by(&sorted, by);
        for (int32_t j = 0; j < it.rank; ++j)
            order[j] = j;
        for (int32_t j = 1; j < it.rank; ++j) /* the reference: smallest stride first, ties kept */
            for (int32_t i = j; i > 0 && it.strides[by][order[i - 1]] > it.strides[by][order[i]];
                 --i) {
                const int32_t o = order[i];
                order[i] = order[i - 1];
                order[i - 1] = o;
            }
        check_permuted(&it, &sorted, order, "sort_by");
        for (int32_t j = 1; j < it.rank; ++j)
            CHECK_MSG(sorted.strides[by][j - 1] <= sorted.strides[by][j], "sort_by(%s): unsorted",
                      clsel_priv_operand_name(by));

        /* collapse: the same elements in the same order, no dim of 1, no two dims left that
         * every tensor crosses contiguously */
        plan_iter collapsed = it;
        clsel_priv_plan_iter_collapse(&collapsed);
        CHECK(collapsed.rank <= it.rank);
        for (int64_t i = 0; i < it.count; ++i) {
            int64_t want[PLAN_OPERANDS], got[PLAN_OPERANDS];
            reference_offsets(&it, i, want);
            reference_offsets(&collapsed, i, got);
            CHECK_MSG(same_offsets(got, want), "collapse: element %lld", (long long)i);
        }
        for (int32_t d = 0; d < collapsed.rank; ++d) {
            CHECK_MSG(collapsed.dims[d] > 1, "collapse left dim %d of 1", (int)d);
            int goes_on = d + 1 < collapsed.rank;
            for (int t = 0; t < PLAN_OPERANDS && goes_on; ++t)
                goes_on =
                    collapsed.strides[t][d + 1] == collapsed.strides[t][d] * collapsed.dims[d];
            CHECK_MSG(!goes_on, "collapse left dims %d and %d mergeable", (int)d, (int)d + 1);
        }
        for (int32_t d = collapsed.rank; d < CLSEL_MAX_RANK; ++d)
            CHECK(collapsed.dims[d] == 1 && collapsed.strides[PLAN_OUT][d] == 0);

        /* split: the same elements in the same order */
        const int64_t inner = 1 + (int64_t)rng_below(&r, (uint64_t)it.dims[a]);
        plan_iter split = it;
        const int done = clsel_priv_plan_iter_split_dim(&split, a, inner);
        CHECK(done == (it.rank < CLSEL_MAX_RANK && it.dims[a] % inner == 0));
        if (!done)
            CHECK(memcmp(&split, &it, sizeof it) == 0);
        for (int64_t i = 0; done && i < it.count; ++i) {
            int64_t want[PLAN_OPERANDS], got[PLAN_OPERANDS];
            reference_offsets(&it, i, want);
            reference_offsets(&split, i, got);
            CHECK_MSG(same_offsets(got, want), "split_dim(%d, %lld): element %lld", (int)a,
                      (long long)inner, (long long)i);
        }
    }
}

static void test_blocks(void)
{
    rng r = {seed + 3};
    for (int64_t k = 0; k < case_count; ++k) {
        const plan_iter it = random_space(&r);
        const int32_t inner = (int32_t)rng_below(&r, (uint64_t)it.rank + 1);
        const int64_t extent = inner < it.rank ? it.dims[inner] : 1,
                      split = 1 + (int64_t)rng_below(&r, (uint64_t)extent + 1);
        plan_iter blocks;
        const int kept = clsel_priv_plan_iter_blocks(&it, inner, split, &blocks);
        const int64_t chunks = (extent + split - 1) / split;
        CHECK_MSG(kept == (chunks > 1), "blocks(%d, %lld): dim kept %d with %lld blocks along it",
                  (int)inner, (long long)split, kept, (long long)chunks);
        int64_t want_count = chunks;
        for (int32_t d = inner + 1; d < it.rank; ++d)
            want_count *= it.dims[d];
        CHECK_MSG(blocks.count == want_count, "blocks: %lld, want %lld", (long long)blocks.count,
                  (long long)want_count);
        /* block j starts at: index 0 below inner, its chunk times split along inner, its indices
         * above */
        for (int64_t j = 0; j < blocks.count; ++j) {
            int64_t block_at[CLSEL_MAX_RANK], at[CLSEL_MAX_RANK] = {0}, want[PLAN_OPERANDS],
                                              got[PLAN_OPERANDS];
            coords_of(&blocks, j, block_at);
            int32_t l = 0;
            if (kept)
                at[inner] = block_at[l++] * split;
            for (int32_t d = inner + 1; d < it.rank; ++d)
                at[d] = block_at[l++];
            offsets_at(&it, at, want);
            plan_counter c;
            clsel_priv_plan_counter_at(&blocks, j, &c);
            memcpy(got, c.offset, sizeof got);
            CHECK_MSG(same_offsets(got, want), "blocks(%d, %lld): block %lld starts elsewhere",
                      (int)inner, (long long)split, (long long)j);
        }
    }
}

/* The boxes of a split, walked one after another, are the whole space's elements in order, each
 * within the bounds. */
static void test_split(void)
{
    rng r = {seed + 4};
    for (int64_t k = 0; k < case_count; ++k) {
        const plan_iter it = random_space(&r);
        /* 0 included: a bound below one element means one element */
        const int64_t max_elements = (int64_t)rng_below(&r, 41),
                      max_span = (int64_t)rng_below(&r, 81);
        plan_split s;
        clsel_priv_plan_split(&s, &it, max_elements, max_span);
        int64_t next = 0;
        for (int64_t b = 0; b < s.count; ++b) {
            plan_iter box;
            clsel_priv_plan_split_box(&s, b, &box);
            CHECK_MSG(box.count <= max_elements || box.count == 1,
                      "box %lld: %lld elements, at most %lld", (long long)b, (long long)box.count,
                      (long long)max_elements);
            for (int t = 0; t < PLAN_OPERANDS; ++t) {
                int64_t lo, hi;
                clsel_priv_plan_iter_span(&box, t, &lo, &hi);
                CHECK_MSG(hi - lo < max_span || box.count == 1,
                          "box %lld: %s spans %lld elements, at most %lld", (long long)b,
                          clsel_priv_operand_name(t), (long long)(hi - lo + 1),
                          (long long)max_span);
            }
            for (int64_t i = 0; i < box.count; ++i, ++next) {
                int64_t want[PLAN_OPERANDS], got[PLAN_OPERANDS];
                reference_offsets(&it, next, want);
                reference_offsets(&box, i, got);
                CHECK_MSG(same_offsets(got, want),
                          "box %lld, element %lld: not element %lld of the space", (long long)b,
                          (long long)i, (long long)next);
            }
        }
        CHECK_MSG(next == it.count, "boxes cover %lld of %lld elements", (long long)next,
                  (long long)it.count);
    }
}

static void test_operands(void)
{
    static const char *const names[PLAN_OPERANDS] = {"cond", "then", "else", "out"};
    for (int op = 0; op < PLAN_OPERANDS; ++op) {
        CHECK(strcmp(clsel_priv_operand_name(op), names[op]) == 0);
        CHECK(clsel_priv_operand_width(op, 8) == (op == PLAN_COND ? 1u : 8u));
    }
    CHECK(strcmp(clsel_priv_operand_name(PLAN_OPERANDS), "?") == 0);
}

static const test_case cases[] = {
    {"counter", test_counter},   {"span_and_dense", test_span_and_dense},
    {"reshapes", test_reshapes}, {"blocks", test_blocks},
    {"split", test_split},       {"operands", test_operands},
};

int main(int argc, char **argv)
{
    const check_flag flags[] = {
        {"--cases", CHECK_FLAG_I64, &case_count, NULL, "random spaces per case (default 2000)"},
        {"--seed", CHECK_FLAG_U64, &seed, NULL, "the first random seed (default 1)"},
    };
    const check_suite suite = {
        "test_plan_iter", cases, CHECK_COUNT(cases), flags, CHECK_COUNT(flags), NULL, NULL};
    return check_main(argc, argv, &suite);
}
