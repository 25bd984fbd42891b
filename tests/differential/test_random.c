/* test_random.c - seeded random differential testing: random (shape, mode, dtype,
 * data) cases through the oracle, the CPU path and (with --path opencl) the OpenCL path
 * or (with --path runtime) the runtime's device paths, compared with memcmp. Shape
 * errors must agree with the oracle too.
 *
 *   test_random [--path cpu|opencl|runtime] [--cases N] [--seed N] [--small-pieces]
 *               [--max-pieces N] [--small-blocks] [any] [periodic]
 *
 * Case "any" draws from random_case; "periodic" from random_case_periodic (short inner
 * dims, each input repeated or tiled over some of them): the CPU path's shuffled gathers
 * at their edges. --small-pieces and --small-blocks set the library's internal knobs
 * (host/common/tuning.h; the test links libclsel.a) so that code that otherwise runs only
 * on huge tensors runs on these small ones. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "oracle.h"
#include "random_case.h"
#include "test_cl.h"
#include "test_util.h"
#include "common/tuning.h" /* the library's internal knobs (linked with libclsel.a) */

enum {
    PATH_CPU,
    PATH_OPENCL,
    PATH_RUNTIME
};
static int chosen_path = PATH_CPU;
static int64_t case_count = 2000;
static uint64_t seed = 20261122;
static int small_pieces, small_blocks;
/* With --small-pieces, at most this many pieces a launch (0: no bound). Each piece is a
 * launch, and a simulator pays for every launch: on Oclgrind one case of 14336 elements in
 * pieces of one took 95 s, most of the 317 s its test took in CI. */
static int64_t max_pieces;
static int portable_loops; /* the portable row loops, not the AVX2 ones (cpu_loops.c) */
static int no_avx512;      /* the AVX2 loops without the AVX-512 VBMI ones (cpu_loops.c) */
static int streamed;       /* every output written with streaming stores, however small */
static test_cl cl_env;
static const char *const in_place_names[3] = {"cond", "then", "else"}; /* by input index */

/* The runtime's device paths: copied in chunks, with a random small chunk bound that
 * makes every tensor over it run in many chunks, or in place where the device works in
 * host memory (zero copy, chosen at random); the result must still be the oracle's, in
 * place too, and come from the device (not rescued by the CPU path; an empty output has
 * nothing to run anywhere and takes the CPU path). */
static clsel_runtime *chunk_runtime;

static void check_chunked(const clsel_plan *plan, test_data *td, rng *r, const char *text)
{
    const clsel_run_path path = td->out_count ? CLSEL_RUN_DEVICE : CLSEL_RUN_CPU;
    static const unsigned long long limits[] = {1, 3, 8, 64, 100, 1000, 4096};
    const size_t bytes = (size_t)td->out_count * td->w;
    CHECK_OK(clsel_runtime_set_chunk_bytes(chunk_runtime,
                                           limits[rng_below(r, sizeof limits / sizeof limits[0])]));
    CHECK_OK(clsel_runtime_set_zero_copy(chunk_runtime, rng_below(r, 4) == 0));
    memset(td->got, 0xEE, bytes);
    CHECK_OK(
        clsel_runtime_run(chunk_runtime, plan, td->cond, td->then_data, td->else_data, td->got));
    CHECK_MSG(memcmp(td->got, td->want, bytes) == 0, "chunked runtime differs from the oracle: %s",
              text);
    CHECK_MSG(clsel_runtime_last_run_path() == path, "chunked run not on the device (path %d): %s",
              (int)clsel_runtime_last_run_path(), text);
    if (td->count[1] == td->out_count && rng_below(r, 2)) {
        CHECK_OK(clsel_runtime_run(chunk_runtime, plan, td->cond, td->then_data, td->else_data,
                                   td->then_data));
        CHECK_MSG(memcmp(td->then_data, td->want, bytes) == 0,
                  "chunked runtime in place differs: %s", text);
        CHECK_MSG(clsel_runtime_last_run_path() == path,
                  "in-place chunked run not on the device: %s", text);
    }
}

static int run_case(const oracle_case *c, clsel_dtype dtype, rng *r, test_cl *cl)
{
    clsel_attrs a = random_case_attrs(c);
    clsel_shape want_shape;
    int valid = oracle_shape(c, &want_shape);
    clsel_plan *plan = NULL;
    clsel_status st = clsel_plan_create(dtype, &c->shape[0], &c->shape[1], &c->shape[2], &a, &plan);
    CHECK_MSG((st == CLSEL_SUCCESS) == valid, "oracle says %s, library says %s (%s)",
              valid ? "valid" : "invalid", clsel_status_string(st), clsel_last_error());
    if (st != CLSEL_SUCCESS || !valid) {
        clsel_plan_destroy(plan);
        return valid;
    }
    CHECK(shape_equal(clsel_plan_output_shape(plan), &want_shape));

    test_data td;
    test_data_make(&td, plan, rng_next(r));
    const size_t bytes = (size_t)td.out_count * td.w;
    oracle_case oc = *c;
    oc.elem_size = td.w;
    oracle_select(&oc, &want_shape, td.cond, td.then_data, td.else_data, td.want);

    if (small_blocks) {
        /* Blocks of a few elements and random long-row thresholds: many blocks per case, so
         * that the block walk, its order, the chunks of a split dim and the reuse of
         * gathered inputs run on small tensors (the CPU path, also inside the OpenCL
         * queue on the native path). */
        static const long blocks[] = {1, 2, 3, 5, 8, 13, 30, 64, 100};
        static const long rows[] = {2, 4, 9, 32, 1 << 20};
        clsel_priv_knob_set(CLSEL_PRIV_KNOB_BLOCK_ELEMENTS,
                            blocks[rng_below(r, sizeof blocks / sizeof blocks[0])]);
        clsel_priv_knob_set(CLSEL_PRIV_KNOB_LONG_ROW,
                            rows[rng_below(r, sizeof rows / sizeof rows[0])]);
    }
    CHECK_OK(clsel_plan_run_cpu(plan, td.cond, td.then_data, td.else_data, td.got));
    char text[512];
    clsel_plan_describe(plan, text, sizeof text);
    CHECK_MSG(memcmp(td.got, td.want, bytes) == 0, "CPU differs from the oracle: %s", text);
    /* In place: the output over then, or over else, where that input has its shape. */
    int full[2], fulls = 0;
    for (int op = CLSEL_OPERAND_THEN; op <= CLSEL_OPERAND_ELSE && bytes; ++op)
        if (td.count[op] == td.out_count)
            full[fulls++] = op;
    for (int k = 0; k < fulls; ++k) {
        const int over_then = full[k] == CLSEL_OPERAND_THEN;
        memcpy(td.got, over_then ? td.then_data : td.else_data, bytes);
        CHECK_OK(clsel_plan_run_cpu(plan, td.cond, over_then ? td.got : td.then_data,
                                    over_then ? td.else_data : td.got, td.got));
        CHECK_MSG(memcmp(td.got, td.want, bytes) == 0,
                  "CPU in place (out == %s) differs from the oracle: %s", in_place_names[full[k]],
                  text);
    }
    if (cl) {
        int guards_ok = 0;
        if (small_pieces) {
            /* Launches split into pieces of a few elements: the split that keeps the
             * kernels' index math in 32 bits past 2^31 elements, on small tensors. */
            static const long pieces[] = {1, 2, 7, 64, 1000};
            int64_t piece = pieces[rng_below(r, sizeof pieces / sizeof pieces[0])];
            if (max_pieces > 0 && piece * max_pieces < td.out_count)
                piece = (td.out_count + max_pieces - 1) / max_pieces;
            clsel_priv_knob_set(CLSEL_PRIV_KNOB_PIECE_ELEMENTS, piece);
        }
        memset(td.got, 0xEE, bytes);
        CHECK_OK(test_cl_run(cl, plan, td.cond, td.then_data, td.else_data, td.got, rng_below(r, 4),
                             &guards_ok));
        CHECK_MSG(memcmp(td.got, td.want, bytes) == 0, "OpenCL differs from the oracle: %s", text);
        CHECK_MSG(guards_ok, "OpenCL wrote outside the output: %s", text);
        /* In place on half the cases: out in the buffer of then or else, one of those
         * that have the output's shape. */
        if (fulls && rng_below(r, 2)) {
            const int over = full[rng_below(r, (uint64_t)fulls)];
            const size_t flag =
                over == CLSEL_OPERAND_THEN ? TEST_CL_OUT_IN_THEN : TEST_CL_OUT_IN_ELSE;
            memset(td.got, 0xEE, bytes);
            CHECK_OK(test_cl_run(cl, plan, td.cond, td.then_data, td.else_data, td.got,
                                 rng_below(r, 4) | flag, &guards_ok));
            CHECK_MSG(memcmp(td.got, td.want, bytes) == 0,
                      "OpenCL in place (out == %s) differs: %s", in_place_names[over], text);
            CHECK_MSG(guards_ok, "OpenCL in place wrote outside %s's buffer: %s",
                      in_place_names[over], text);
        }
    }
    if (chunk_runtime)
        check_chunked(plan, &td, r, text);
    test_data_free(&td);
    clsel_plan_destroy(plan);
    return 1;
}

static int open_path(void)
{
    clsel_priv_knob_set(CLSEL_PRIV_KNOB_PORTABLE_CPU, portable_loops);
    clsel_priv_knob_set(CLSEL_PRIV_KNOB_NO_AVX512, no_avx512);
    clsel_priv_knob_set(CLSEL_PRIV_KNOB_STREAM_BYTES, streamed);
    if (chosen_path == PATH_OPENCL)
        test_cl_open(&cl_env);
    if (chosen_path == PATH_RUNTIME) {
        if (clsel_runtime_create(CLSEL_DEVICE_OPENCL, &chunk_runtime) != CLSEL_SUCCESS)
            test_cl_no_device(clsel_last_error());
        clsel_runtime_set_min_device_bytes(chunk_runtime, 0);
    }
    return 0;
}

static void close_path(void)
{
    if (chosen_path == PATH_OPENCL)
        test_cl_close(&cl_env);
    clsel_runtime_destroy(chunk_runtime);
}

/* --cases random cases from `draw`, seeded with --seed. */
static void run_cases(oracle_case (*draw)(rng *))
{
    static const char *const compared[] = {"oracle vs CPU", "oracle vs CPU vs OpenCL",
                                           "oracle vs CPU vs the runtime in chunks"};
    rng r = {seed};
    long valid = 0, failures_before = check_failures;
    for (int64_t i = 0; i < case_count; ++i) {
        oracle_case c = draw(&r);
        clsel_dtype dtype = all_dtypes[rng_below(&r, 13)];
        valid += run_case(&c, dtype, &r, chosen_path == PATH_OPENCL ? &cl_env : NULL);
        if (check_failures != failures_before) {
            fprintf(stderr,
                    "  case %lld (seed %llu): mode %d axis %lld cond_broadcast %d dtype %s\n",
                    (long long)i, (unsigned long long)seed, (int)c.mode, (long long)c.axis,
                    (int)c.cond_broadcast, clsel_dtype_name(dtype));
            failures_before = check_failures;
        }
    }
    printf("%lld random cases (%ld valid, %lld rejected by both), seed %llu, %s\n",
           (long long)case_count, valid, (long long)(case_count - valid), (unsigned long long)seed,
           compared[chosen_path]);
}

static void test_any(void)
{
    run_cases(random_case);
}

static void test_periodic(void)
{
    run_cases(random_case_periodic);
}

static const test_case cases[] = {
    {"any", test_any},
    {"periodic", test_periodic},
};

static const check_flag flags[] = {
    {"--path", CHECK_FLAG_CHOICE, &chosen_path, "cpu|opencl|runtime",
     "the CPU path (default), also clsel_cl_enqueue, or also the runtime on the OpenCL device in "
     "small chunks"},
    {"--cases", CHECK_FLAG_I64, &case_count, NULL, "random cases per test case (default 2000)"},
    {"--seed", CHECK_FLAG_U64, &seed, NULL, "the first case's seed (default 20261122)"},
    {"--small-pieces", CHECK_FLAG_SWITCH, &small_pieces, NULL,
     "OpenCL launches split into pieces of a few elements"},
    {"--max-pieces", CHECK_FLAG_I64, &max_pieces, NULL,
     "with --small-pieces, larger pieces where a launch would take more than N (default: no "
     "bound)"},
    {"--small-blocks", CHECK_FLAG_SWITCH, &small_blocks, NULL,
     "blocks of a few elements, random long-row bounds"},
    {"--portable-loops", CHECK_FLAG_SWITCH, &portable_loops, NULL,
     "the CPU path's portable row loops, as on a processor without AVX2"},
    {"--no-avx512", CHECK_FLAG_SWITCH, &no_avx512, NULL,
     "the CPU path's AVX2 loops without the AVX-512 ones, as on a processor without AVX-512 VBMI"},
    {"--streamed", CHECK_FLAG_SWITCH, &streamed, NULL,
     "the CPU path's streaming stores on every output (as from 8 MiB)"},
};

int main(int argc, char **argv)
{
    const check_suite suite = {"test_random",      cases,     CHECK_COUNT(cases), flags,
                               CHECK_COUNT(flags), open_path, close_path};
    return check_main(argc, argv, &suite);
}
