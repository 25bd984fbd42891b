/* test_cpu_parallel.c - the CPU path on outputs big enough for what small tests never
 * reach: the split over threads and over a caller's pool, row tiling (an input re-read
 * by every row), non-temporal stores (outputs of 8 MiB and more), and both row-loop sets
 * (AVX2 and portable). Each run is compared with the oracle bit for bit, and the bytes
 * after the output must stay untouched. */
#include <string.h>

#include "check.h"
#include "common/tuning.h"           /* the library's internal knobs (linked with libclsel.a) */
#include "common/tuning_constants.h" /* CPU_REPEATED_GATHER_BYTES */
#include "cpu/cpu_walk.h"            /* the walk of a plan: whether it tiles rows */
#include "plan/plan.h"
#include "oracle.h"
#include "test_util.h"

/* A pool that runs the tasks on the calling thread, last index first, and records what
 * it was asked to do. */
typedef struct serial_pool {
    int calls;
    int64_t count;
    unsigned char seen[1024];
    int repeated;
} serial_pool;

static void serial_parallel_for(void *pool, int64_t count, clsel_parallel_task task,
                                void *task_context)
{
    serial_pool *p = pool;
    p->calls++;
    p->count = count;
    for (int64_t i = count - 1; i >= 0; --i) {
        if (i < (int64_t)sizeof p->seen) {
            p->repeated |= p->seen[i];
            p->seen[i] = 1;
        }
        task(task_context, i);
    }
}

typedef struct big_case {
    const char *name;
    clsel_dtype dtype;
    clsel_shape shape[3]; /* numpy broadcasting */
    int tiled;            /* whether the CPU path walks its rows tile by tile */
} big_case;

static void check_case(const big_case *c, uint64_t seed)
{
    oracle_case oc;
    memset(&oc, 0, sizeof oc);
    oc.mode = CLSEL_BROADCAST_NUMPY;
    oc.axis = -1;
    oc.elem_size = clsel_dtype_size(c->dtype);
    memcpy(oc.shape, c->shape, sizeof oc.shape);
    clsel_shape out_shape;
    CHECK_MSG(oracle_shape(&oc, &out_shape), "%s: invalid case", c->name);

    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(c->dtype, &c->shape[0], &c->shape[1], &c->shape[2], NULL, &plan));
    if (!plan)
        return;
    cpu_walk walk;
    clsel_priv_cpu_walk_make(&plan->iter, plan->elem_size, 0, clsel_priv_cpu_loops(), &walk);
    CHECK_MSG(walk.by_chunk == c->tiled, "%s: tiled %d, expected %d", c->name, walk.by_chunk,
              c->tiled);
    test_data d;
    test_data_make(&d, plan, seed);
    oracle_select(&oc, &out_shape, d.cond, d.then_data, d.else_data, d.want);
    uint8_t *got = test_alloc((size_t)d.out_count * d.w + TEST_GUARD_BYTES);

    for (int portable = 0; portable < 2; ++portable) {
        clsel_priv_knob_set(CLSEL_PRIV_KNOB_PORTABLE_CPU, portable);
        const char *loops = portable ? "portable" : "default";
        CHECK_MSG(test_cpu_run_matches(plan, &d, got, NULL), "%s (%s loops): no options", c->name,
                  loops);
        static const int32_t thread_counts[] = {0, 1, 2, 3, 7, 1000};
        for (size_t k = 0; k < sizeof thread_counts / sizeof thread_counts[0]; ++k) {
            clsel_cpu_options opt = test_cpu_options(thread_counts[k], NULL, NULL);
            CHECK_MSG(test_cpu_run_matches(plan, &d, got, &opt), "%s (%s loops): %d threads",
                      c->name, loops, (int)thread_counts[k]);
        }
        serial_pool pool;
        memset(&pool, 0, sizeof pool);
        clsel_cpu_options opt = test_cpu_options(4, serial_parallel_for, &pool);
        CHECK_MSG(test_cpu_run_matches(plan, &d, got, &opt), "%s (%s loops): caller's pool",
                  c->name, loops);
        CHECK_MSG(pool.calls <= 1 && !pool.repeated && pool.count <= 256,
                  "%s: pool asked %d times for %lld tasks", c->name, pool.calls,
                  (long long)pool.count);
    }
    clsel_priv_knob_set(CLSEL_PRIV_KNOB_PORTABLE_CPU, 0);
    free(got);
    test_data_free(&d);
    clsel_plan_destroy(plan);
}

/* Streamed outputs whose rows start anywhere on a 64-byte line: the partial lines at a
 * row's ends are streamed in pieces (cpu_loops_avx2.c); the bytes before the output
 * and after it must stay untouched. Every offset that keeps elements aligned. */
static void check_offsets(const big_case *c, uint64_t seed)
{
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(c->dtype, &c->shape[0], &c->shape[1], &c->shape[2], NULL, &plan));
    if (!plan)
        return;
    test_data d;
    test_data_make(&d, plan, seed);
    oracle_case oc;
    memset(&oc, 0, sizeof oc);
    oc.mode = CLSEL_BROADCAST_NUMPY;
    oc.axis = -1;
    oc.elem_size = d.w;
    memcpy(oc.shape, c->shape, sizeof oc.shape);
    clsel_shape out_shape;
    CHECK_MSG(oracle_shape(&oc, &out_shape), "%s: invalid case", c->name);
    oracle_select(&oc, &out_shape, d.cond, d.then_data, d.else_data, d.want);
    const size_t bytes = (size_t)d.out_count * d.w;
    uint8_t *buffer = test_alloc(bytes + 64 + TEST_GUARD_BYTES);
    for (size_t offset = 0; offset < 64; offset += d.w) {
        memset(buffer, 0x5A, offset);
        CHECK_MSG(test_cpu_run_matches(plan, &d, buffer + offset, NULL),
                  "%s: output at byte %zu of a line", c->name, offset);
        for (size_t i = 0; i < offset; ++i)
            if (buffer[i] != 0x5A) {
                CHECK_MSG(0, "%s: output at byte %zu: byte %zu before it written", c->name, offset,
                          i);
                break;
            }
    }
    free(buffer);
    test_data_free(&d);
    clsel_plan_destroy(plan);
}

static void test_big_outputs(void)
{
    const big_case cases[] = {
        /* Same shape, odd size: pieces end off the 64-element grid. */
        {"same shape f32", CLSEL_F32, {SHAPE(200003), SHAPE(200003), SHAPE(200003)}, 0},
        {"same shape u8", CLSEL_U8, {SHAPE(3, 70001), SHAPE(3, 70001), SHAPE(3, 70001)}, 0},
        /* Scalars: the pick loops. */
        {"scalar then", CLSEL_U16, {SHAPE(131101), SCALAR, SHAPE(131101)}, 0},
        {"scalar cond", CLSEL_F64, {SCALAR, SHAPE(99991), SHAPE(99991)}, 0},
        /* cond re-read by every row: rows too long to stay cached until the next one
         * are walked tile by tile; shorter ones are not. */
        {"tiled mask f64", CLSEL_F64, {SHAPE(1, 600001), SHAPE(3, 600001), SCALAR}, 1},
        {"tiled mask u8",
         CLSEL_U8,
         {SHAPE(1, 1, 3000017), SHAPE(1, 3, 3000017), SHAPE(2, 1, 3000017)},
         1},
        {"cached mask u8",
         CLSEL_U8,
         {SHAPE(2, 1, 17000), SHAPE(2, 3, 17000), SHAPE(1, 3, 17000)},
         0},
        /* Short rows: pieces fall inside rows. */
        {"mutual", CLSEL_BF16, {SHAPE(1, 1), SHAPE(301, 1), SHAPE(1, 433)}, 0},
        {"per channel",
         CLSEL_F32,
         {SHAPE(2, 16, 56, 57), SHAPE(1, 16, 1, 1), SHAPE(2, 16, 56, 57)},
         0},
        /* 8 MiB and more of output: written with non-temporal stores. */
        {"streamed f64", CLSEL_F64, {SHAPE(1048583), SHAPE(1048583), SHAPE(1)}, 0},
        {"streamed u8", CLSEL_U8, {SHAPE(9, 1), SHAPE(9, 1000003), SHAPE(1000003)}, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        check_case(&cases[i], 1000 + i);
}

/* The CPU path's walk of case c's plan with `loops` (0 where the plan fails). The plan is gone when
 * it returns: only the walk's own fields hold, not the space its blocks point to. */
static int walk_with(const big_case *c, const cpu_loops *loops, cpu_walk *walk)
{
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(c->dtype, &c->shape[0], &c->shape[1], &c->shape[2], NULL, &plan));
    if (!plan)
        return 0;
    clsel_priv_cpu_walk_make(&plan->iter, plan->elem_size, 0, loops, walk);
    clsel_plan_destroy(plan);
    return 1;
}

static int walk_of(const big_case *c, cpu_walk *walk)
{
    return walk_with(c, clsel_priv_cpu_loops(), walk);
}

/* Rows of 256 bytes to 1 KiB that blocks would gather a then or else input anew for, a row of it
 * copied along a broadcast dim, are walked as rows (nothing gathered); shorter rows, a cond fixed
 * over the blocks and rows of a byte count not a multiple of 4 keep the gathers. */
static void test_copied_rows(void)
{
    const struct {
        big_case c;
        int gathers;
    } cases[] = {
        {{"copied then f64",
          CLSEL_F64,
          {SHAPE(1, 8, 3, 40), SHAPE(30, 8, 1, 40), SHAPE(30, 8, 3, 1)},
          0},
         0},
        {{"copied else u64", CLSEL_U64, {SHAPE(200, 4, 64), SHAPE(4, 64), SHAPE(200, 1, 64)}, 0},
         0},
        {{"copied i16", CLSEL_I16, {SHAPE(90, 8, 5, 156), SHAPE(90, 8, 1, 156), SHAPE(5, 1)}, 0},
         0},
        {{"short copied rows f32",
          CLSEL_F32,
          {SHAPE(13, 20, 24, 60), SHAPE(13, 20, 1, 60), SHAPE(13, 20, 24, 1)},
          0},
         1},
        {{"copied then, fixed cond",
          CLSEL_F64,
          {SCALAR, SHAPE(30, 8, 1, 40), SHAPE(30, 8, 3, 40)},
          0},
         1},
        {{"odd-length u8 rows", CLSEL_U8, {SHAPE(40, 3, 301), SHAPE(40, 1, 301), SHAPE(3, 301)}, 0},
         1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const big_case *c = &cases[i].c;
        cpu_walk walk;
        if (!walk_of(c, &walk))
            continue;
        CHECK_MSG(walk.gathers == cases[i].gathers, "%s: gathers %d, expected %d", c->name,
                  walk.gathers, cases[i].gathers);
        check_case(c, 3000 + i);
    }
}

/* Under a cond that is not fixed, blocks whose only fresh gathers are elements repeated along the
 * rows, one of them streamed, take CPU_REPEATED_GATHER_BYTES of output or less; not where a
 * periodic input's period would no longer fit them (the bool case below: periods of 31,000). The
 * walks are made with the loops' fused blends left out (the portable loops have none), as the AVX2
 * loops fuse the first two: then nothing is gathered. */
static void test_repeated_gathers(void)
{
    const struct {
        big_case c;
        int small;
    } cases[] = {
        {{"repeated cond bool", CLSEL_BOOLEAN, {SHAPE(20000, 1), SHAPE(7), SHAPE(20000, 7)}, 0}, 1},
        {{"repeated else f32", CLSEL_F32, {SHAPE(3), SHAPE(3), SHAPE(60000, 1)}, 0}, 1},
        {{"long periods bool",
          CLSEL_BOOLEAN,
          {SHAPE(1, 31, 5, 1, 5, 1), SHAPE(20, 31, 5, 8, 5, 1), SHAPE(20, 31, 5, 8, 5, 5)},
          0},
         0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const big_case *c = &cases[i].c;
        cpu_loops gathering = *clsel_priv_cpu_loops();
        gathering.fused = NULL;
        cpu_walk walk;
        if (!walk_with(c, &gathering, &walk))
            continue;
        const int64_t bytes = walk.blocks.elements * (int64_t)walk.blocks.w;
        CHECK_MSG((bytes <= CPU_REPEATED_GATHER_BYTES) == cases[i].small,
                  "%s: blocks of %lld bytes, expected %s %d", c->name, (long long)bytes,
                  cases[i].small ? "at most" : "over", CPU_REPEATED_GATHER_BYTES);
        check_case(c, 4000 + i);
    }
}

static void test_row_offsets(void)
{
    /* Rows of about 1 KiB (walked one row per block) and rows of a few elements
     * (blocks of several rows), each width, outputs of 8 MiB and more. */
    const big_case misaligned[] = {
        {"rows of 256 f32", CLSEL_F32, {SHAPE(8200, 256), SHAPE(8200, 256), SHAPE(8200, 1)}, 0},
        {"rows of 257 f32", CLSEL_F32, {SHAPE(8200, 257), SHAPE(1, 257), SHAPE(8200, 1)}, 0},
        {"rows of 1000 u8", CLSEL_U8, {SHAPE(8400, 1000), SHAPE(8400, 1), SHAPE(1, 1000)}, 0},
        {"rows of 515 f16", CLSEL_F16, {SHAPE(8200, 515), SHAPE(8200, 515), SHAPE(1, 1)}, 0},
        {"rows of 131 f64", CLSEL_F64, {SHAPE(1, 131), SHAPE(8200, 131), SHAPE(8200, 1)}, 0},
        {"rows of 7 f32", CLSEL_F32, {SHAPE(300000, 7), SHAPE(300000, 1), SHAPE(1, 7)}, 0},
    };
    for (size_t i = 0; i < sizeof misaligned / sizeof misaligned[0]; ++i)
        check_offsets(&misaligned[i], 2000 + i);
}

static const test_case cases[] = {
    {"big_outputs", test_big_outputs},
    {"copied_rows", test_copied_rows},
    {"repeated_gathers", test_repeated_gathers},
    {"row_offsets", test_row_offsets},
};

int main(int argc, char **argv)
{
    const check_suite suite = {"test_cpu_parallel", cases, CHECK_COUNT(cases), NULL, 0, NULL, NULL};
    return check_main(argc, argv, &suite);
}
