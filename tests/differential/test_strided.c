/* test_strided.c - strided tensors (clsel_plan_create_strided) against the oracle: random cases
 * (random_case.h) whose four tensors each get a random layout in memory (axes in any order, steps
 * of 1-3 elements, either direction, rows padded; inputs also repeated along an axis with stride
 * 0), inside a buffer with guard bytes around the view and a pattern in the gaps between its
 * elements. The inputs' logical values are read back from their views, the oracle computes the
 * dense result, and each path must write exactly the output's elements with it: guard bytes and
 * gaps unchanged, bit for bit.
 *
 *   test_strided [--path cpu|opencl|runtime] [--cases N] [--seed N] [--small-blocks] [any]
 * [transposed] [permuted]
 *
 * cpu: clsel_plan_run_cpu_options on 1-3 threads, in place (out == then's view) where then has the
 * output's shape. opencl: also clsel_cl_enqueue on buffers holding the whole allocations, element
 * [0] at its byte offset. runtime: also clsel_runtime_run on the OpenCL device in small chunks or
 * zero copy. */
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
static int64_t case_count = 1000;
static uint64_t seed = 20261126;
static int small_blocks;
static int portable_loops; /* the portable row loops, not the AVX2 ones (cpu_loops.c) */
static int streamed;       /* every output written with streaming stores, however small */
static test_cl cl_env;
static clsel_runtime *runtime;

enum {
    GUARD = 64
};

/* One tensor's view: an allocation of `bytes` (guards included) and element [0] at byte `zero` of
 * it. */
typedef struct view {
    clsel_shape shape;
    size_t w;
    int64_t strides[CLSEL_MAX_RANK];
    uint8_t *memory;
    size_t bytes, zero;
} view;

/* How an input's axes lie: in any order with steps, padding, reversal and repeats (below); FORTRAN,
 * in reverse order (a transposed view) with the same; PERMUTED, in any order, each contiguous
 * within the next (a permuted dense tensor, element [0] still at any alignment). */
enum {
    LAID_ANY,
    LAID_FORTRAN,
    LAID_PERMUTED
};

/* A random layout of `shape`: axes laid out in a random order, each axis `step` (1-3) elements
 * apart times what lies inside it, padded by 0-3 positions, reversed at random; an input's axis
 * repeats one element (stride 0) now and then. `dense`: row-major, at the allocation's first
 * element past the guard. Stride of a size-1 axis: any value (never used). */
static void view_make(view *v, const clsel_shape *shape, size_t w, int input, int dense, int laid,
                      rng *r)
{
    v->shape = *shape;
    v->w = w;
    const int fortran = laid == LAID_FORTRAN, plain = dense || laid == LAID_PERMUTED;
    int32_t order[CLSEL_MAX_RANK]; /* memory order, outermost first */
    for (int32_t a = 0; a < shape->rank; ++a)
        order[a] = fortran ? shape->rank - 1 - a : a;
    for (int32_t a = shape->rank - 1; a > 0 && !dense && !fortran; --a) {
        const int32_t b = (int32_t)rng_below(r, (uint64_t)a + 1), t = order[a];
        order[a] = order[b], order[b] = t;
    }
    int64_t inside = 1, elements = 1, below = 0, above = 0;
    for (int32_t i = shape->rank - 1; i >= 0; --i) {
        const int32_t a = order[i];
        int64_t step = plain ? 1 : 1 + (int64_t)rng_below(r, 3),
                pad = plain ? 0 : (int64_t)rng_below(r, 4);
        /* at most 8 positions of memory per element (and a few more), so that the simulators' runs
         * stay small */
        if ((shape->dims[a] * step + pad) * inside > 8 * shape->dims[a] * elements + 64)
            step = 1, pad = 0;
        int64_t stride = step * inside;
        if (!plain && rng_below(r, 4) == 0)
            stride = -stride;
        if (!plain && input && rng_below(r, 8) == 0)
            stride = 0;
        if (shape->dims[a] == 1 && !dense)
            stride = (int64_t)rng_below(r, 1000) - 500;
        v->strides[a] = stride;
        if (shape->dims[a] > 1)
            *(stride < 0 ? &below : &above) += stride * (shape->dims[a] - 1);
        inside *= shape->dims[a] * step + pad;
        elements *= shape->dims[a];
    }
    const int64_t shift = dense ? 0 : (int64_t)rng_below(r, 4); /* element [0]'s alignment varies */
    v->bytes = (size_t)(above - below + 1 + shift) * w + 2 * GUARD;
    v->zero = GUARD + (size_t)(shift - below) * w;
    v->memory = test_alloc(v->bytes);
}

/* Byte offset from element [0] of the view's element `index` (row-major over its shape). */
static int64_t view_offset(const view *v, int64_t index)
{
    int64_t at = 0;
    for (int32_t a = v->shape.rank - 1; a >= 0; --a) {
        at += index % v->shape.dims[a] * v->strides[a];
        index /= v->shape.dims[a];
    }
    return at * (int64_t)v->w;
}

/* The view's elements, densely, in row-major order. */
static void view_read(const view *v, uint8_t *dense)
{
    const int64_t n = shape_count(&v->shape);
    for (int64_t i = 0; i < n; ++i)
        memcpy(dense + i * (int64_t)v->w, v->memory + v->zero + view_offset(v, i), v->w);
}

/* What the output's allocation must hold after a run: `before` with the elements set to `want`. */
static void view_expect(const view *v, const uint8_t *before, const uint8_t *want,
                        uint8_t *expected)
{
    memcpy(expected, before, v->bytes);
    const int64_t n = shape_count(&v->shape);
    for (int64_t i = 0; i < n; ++i)
        memcpy(expected + v->zero + view_offset(v, i), want + i * (int64_t)v->w, v->w);
}

static void set_strides(clsel_strides *s, int op, const view *v)
{
    s->strided |= CLSEL_STRIDED(op);
    memcpy(s->strides[op], v->strides, sizeof v->strides);
}

/* The first differing byte's position, for messages; -1 when equal. */
static long long first_difference(const uint8_t *a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (a[i] != b[i])
            return (long long)i;
    return -1;
}

static void check_opencl(const clsel_plan *plan, view *v, const uint8_t *before,
                         const uint8_t *expected, const char *text)
{
    test_cl *cl = &cl_env;
    cl_mem mem[4];
    for (int op = 0; op < 4; ++op)
        mem[op] =
            test_cl_buffer(cl, CL_MEM_READ_WRITE, v[op].bytes, op == 3 ? before : v[op].memory);
    cl_event done = NULL;
    CHECK_OK(clsel_cl_enqueue(cl->ctx, plan, cl->queue, mem[0], v[0].zero, mem[1], v[1].zero,
                              mem[2], v[2].zero, mem[3], v[3].zero, 0, NULL, &done));
    uint8_t *got = test_alloc(v[3].bytes);
    if (done) {
        CHECK(clWaitForEvents(1, &done) == CL_SUCCESS);
        clReleaseEvent(done);
        CHECK(clEnqueueReadBuffer(cl->queue, mem[3], CL_TRUE, 0, v[3].bytes, got, 0, NULL, NULL) ==
              CL_SUCCESS);
        const long long at = first_difference(got, expected, v[3].bytes);
        CHECK_MSG(at < 0,
                  "OpenCL: out's allocation differs at byte %lld of %zu (element [0] at %zu): %s",
                  at, v[3].bytes, v[3].zero, text);
    }
    free(got);
    for (int op = 0; op < 4; ++op)
        clReleaseMemObject(mem[op]);
}

static void check_runtime(const clsel_plan *plan, view *v, const uint8_t *before,
                          const uint8_t *expected, rng *r, const char *text)
{
    static const unsigned long long limits[] = {1, 3, 8, 64, 100, 1000, 4096, 0};
    CHECK_OK(clsel_runtime_set_chunk_bytes(runtime,
                                           limits[rng_below(r, sizeof limits / sizeof limits[0])]));
    CHECK_OK(clsel_runtime_set_zero_copy(runtime, rng_below(r, 3) == 0));
    memcpy(v[3].memory, before, v[3].bytes);
    CHECK_OK(clsel_runtime_run(runtime, plan, v[0].memory + v[0].zero, v[1].memory + v[1].zero,
                               v[2].memory + v[2].zero, v[3].memory + v[3].zero));
    const long long at = first_difference(v[3].memory, expected, v[3].bytes);
    CHECK_MSG(at < 0,
              "runtime: out's allocation differs at byte %lld of %zu (element [0] at %zu): %s", at,
              v[3].bytes, v[3].zero, text);
    CHECK_MSG(clsel_runtime_last_run_path() == CLSEL_RUN_DEVICE,
              "runtime run not on the device (path %d): %s", (int)clsel_runtime_last_run_path(),
              text);
}

static int inputs_laid = LAID_ANY; /* how the inputs' axes lie (the output's: any way) */

static int run_case(const oracle_case *c, clsel_dtype dtype, rng *r)
{
    clsel_shape out_shape;
    if (!oracle_shape(c, &out_shape) || shape_count(&out_shape) == 0)
        return 0;
    const size_t w = clsel_dtype_size(dtype), widths[4] = {1, w, w, w};
    view v[4];
    clsel_strides strides = clsel_strides_default();
    for (int op = 0; op < 4; ++op) {
        /* A fifth of the tensors dense, left to the library's default; of the strided ones, a
         * quarter row-major. */
        /* (beside permuted inputs, half the outputs dense: the OpenCL kernels' tiles want an output
         * that is not) */
        const int laid = op < 3 ? inputs_laid : LAID_ANY,
                  given =
                      laid != LAID_ANY || rng_below(r, inputs_laid == LAID_PERMUTED ? 2 : 5) != 0,
                  dense = !given || rng_below(r, 4) == 0;
        view_make(&v[op], op == 3 ? &out_shape : &c->shape[op], widths[op], op < 3, dense, laid, r);
        if (op == 0)
            fill_cond(v[op].memory, v[op].bytes, r);
        else
            fill_values(v[op].memory, v[op].bytes / w, w, r);
        if (given)
            set_strides(&strides, op, &v[op]);
    }
    clsel_attrs attrs = random_case_attrs(c);
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create_strided(dtype, &c->shape[0], &c->shape[1], &c->shape[2], &attrs,
                                       &strides, &plan));
    if (!plan)
        return 0;
    char text[1024];
    size_t used = clsel_plan_describe(plan, text, sizeof text);
    for (int op = 0; op < 4 && used < sizeof text; ++op) {
        used += (size_t)snprintf(text + used, sizeof text - used, op ? "," : "; given strides ");
        for (int32_t a = 0; a < v[op].shape.rank && used < sizeof text; ++a)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%lld", a ? " " : "[",
                                     (long long)v[op].strides[a]);
        if (used < sizeof text)
            used += (size_t)snprintf(text + used, sizeof text - used, "]");
    }

    /* The reference: the inputs' logical values, the oracle's dense result, the output's allocation
     * to expect. */
    const int64_t out_count = shape_count(&out_shape);
    uint8_t *dense[3], *want = test_alloc((size_t)out_count * w);
    for (int op = 0; op < 3; ++op) {
        dense[op] = test_alloc((size_t)shape_count(&c->shape[op]) * widths[op]);
        view_read(&v[op], dense[op]);
    }
    oracle_case oc = *c;
    oc.elem_size = w;
    oracle_select(&oc, &out_shape, dense[0], dense[1], dense[2], want);
    uint8_t *before = test_alloc(v[3].bytes), *expected = test_alloc(v[3].bytes);
    for (size_t i = 0; i < v[3].bytes; ++i)
        before[i] = (uint8_t)(0xA5 ^ i * 7);
    view_expect(&v[3], before, want, expected);

    if (small_blocks) {
        static const long blocks[] = {1, 2, 3, 5, 8, 13, 30, 64, 100};
        static const long rows[] = {2, 4, 9, 32, 1 << 20};
        clsel_priv_knob_set(CLSEL_PRIV_KNOB_BLOCK_ELEMENTS,
                            blocks[rng_below(r, sizeof blocks / sizeof blocks[0])]);
        clsel_priv_knob_set(CLSEL_PRIV_KNOB_LONG_ROW,
                            rows[rng_below(r, sizeof rows / sizeof rows[0])]);
    }
    memcpy(v[3].memory, before, v[3].bytes);
    clsel_cpu_options options = clsel_cpu_options_default();
    options.threads = 1 + (int32_t)rng_below(r, 3);
    CHECK_OK(clsel_plan_run_cpu_options(plan, v[0].memory + v[0].zero, v[1].memory + v[1].zero,
                                        v[2].memory + v[2].zero, v[3].memory + v[3].zero,
                                        &options));
    long long at = first_difference(v[3].memory, expected, v[3].bytes);
    CHECK_MSG(at < 0, "CPU: out's allocation differs at byte %lld of %zu (element [0] at %zu): %s",
              at, v[3].bytes, v[3].zero, text);

    /* In place: the output is then's own view, where then has the output's shape. */
    if (shape_equal(&c->shape[1], &out_shape) && rng_below(r, 3) == 0) {
        int zero_stride = 0; /* a view that repeats an element cannot be written */
        for (int32_t a = 0; a < out_shape.rank; ++a)
            zero_stride |= out_shape.dims[a] > 1 && v[1].strides[a] == 0;
        if (!zero_stride) {
            clsel_strides in_place = strides;
            set_strides(&in_place, 3, &v[1]);
            clsel_plan *p2 = NULL;
            CHECK_OK(clsel_plan_create_strided(dtype, &c->shape[0], &c->shape[1], &c->shape[2],
                                               &attrs, &in_place, &p2));
            uint8_t *then_before = test_alloc(v[1].bytes), *then_expected = test_alloc(v[1].bytes);
            memcpy(then_before, v[1].memory, v[1].bytes);
            view_expect(&v[1], then_before, want, then_expected);
            CHECK_OK(clsel_plan_run_cpu(p2, v[0].memory + v[0].zero, v[1].memory + v[1].zero,
                                        v[2].memory + v[2].zero, v[1].memory + v[1].zero));
            at = first_difference(v[1].memory, then_expected, v[1].bytes);
            CHECK_MSG(at < 0, "CPU in place over then's view differs at byte %lld: %s", at, text);
            memcpy(v[1].memory, then_before, v[1].bytes);
            free(then_before);
            free(then_expected);
            clsel_plan_destroy(p2);
        }
    }
    if (chosen_path == PATH_OPENCL)
        check_opencl(plan, v, before, expected, text);
    if (chosen_path == PATH_RUNTIME)
        check_runtime(plan, v, before, expected, r, text);

    for (int op = 0; op < 3; ++op)
        free(dense[op]);
    for (int op = 0; op < 4; ++op)
        free(v[op].memory);
    free(want);
    free(before);
    free(expected);
    clsel_plan_destroy(plan);
    return 1;
}

static int open_path(void)
{
    clsel_priv_knob_set(CLSEL_PRIV_KNOB_PORTABLE_CPU, portable_loops);
    clsel_priv_knob_set(CLSEL_PRIV_KNOB_STREAM_BYTES, streamed);
    if (chosen_path == PATH_OPENCL)
        test_cl_open(&cl_env);
    if (chosen_path == PATH_RUNTIME) {
        if (clsel_runtime_create(CLSEL_DEVICE_OPENCL, &runtime) != CLSEL_SUCCESS)
            test_cl_no_device(clsel_last_error());
        clsel_runtime_set_min_device_bytes(runtime, 0);
    }
    return 0;
}

static void close_path(void)
{
    if (chosen_path == PATH_OPENCL)
        test_cl_close(&cl_env);
    clsel_runtime_destroy(runtime);
}

static void test_any(void)
{
    static const char *const compared[] = {"oracle vs CPU", "oracle vs CPU vs OpenCL",
                                           "oracle vs CPU vs the runtime"};
    rng r = {seed};
    long run = 0, failures_before = check_failures;
    for (int64_t i = 0; i < case_count; ++i) {
        const oracle_case c = random_case(&r);
        const clsel_dtype dtype = all_dtypes[rng_below(&r, 13)];
        run += run_case(&c, dtype, &r);
        if (check_failures != failures_before) {
            fprintf(stderr, "  case %lld (seed %llu): mode %d dtype %s\n", (long long)i,
                    (unsigned long long)seed, (int)c.mode, clsel_dtype_name(dtype));
            failures_before = check_failures;
        }
    }
    printf("%lld random strided cases (%ld valid and non-empty), seed %llu, %s\n",
           (long long)case_count, run, (unsigned long long)seed, compared[chosen_path]);
}

/* A shape of `rank` dims, each drawn from `sizes` and halved while the element count would pass
 * `most`. */
static clsel_shape draw_dims(rng *r, int rank, const int64_t *sizes, size_t n, int64_t most)
{
    clsel_shape s = {rank, {0}};
    int64_t count = 1;
    for (int a = 0; a < rank; ++a) {
        s.dims[a] = sizes[rng_below(r, n)];
        while (count * s.dims[a] > most)
            s.dims[a] /= 2;
        count *= s.dims[a];
    }
    return s;
}

/* `cases` cases drawn by `draw` (from seed + offset), each in a random dtype, with the inputs
 * laid as `laid` says. */
static void run_laid(const char *what, int laid, uint64_t offset, int64_t cases,
                     oracle_case (*draw)(rng *))
{
    rng r = {seed + offset};
    inputs_laid = laid;
    long run = 0;
    for (int64_t i = 0; i < cases; ++i) {
        const oracle_case c = draw(&r);
        run += run_case(&c, all_dtypes[rng_below(&r, 13)], &r);
    }
    inputs_laid = LAID_ANY;
    printf("%ld %s cases, seed %llu\n", run, what, (unsigned long long)(seed + offset));
}

/* Inputs transposed (Fortran order) against outputs of any layout, at sizes where the CPU path
 * walks tiles (dims of 64-1000: chunks of dim 0 by rows, inputs read a line at a time) and the
 * kernels read element by element. */
static oracle_case transposed_case(rng *r)
{
    oracle_case c;
    memset(&c, 0, sizeof c);
    c.mode = CLSEL_BROADCAST_NUMPY;
    c.cond_broadcast = CLSEL_COND_BIDIRECTIONAL;
    const int rank = 2 + (int)rng_below(r, 2);
    static const int64_t sizes[] = {64, 96, 128, 130, 200, 256, 3, 7, 1000};
    const clsel_shape s = draw_dims(r, rank, sizes, sizeof sizes / sizeof sizes[0], 400000);
    for (int op = 0; op < 3; ++op)
        c.shape[op] = s;
    if (rng_below(r, 3) == 0)
        c.shape[2].dims[rng_below(r, (uint64_t)rank)] = 1; /* else broadcast along one dim */
    return c;
}

static void test_transposed(void)
{
    run_laid("transposed", LAID_FORTRAN, 1, case_count / 40 + 1, transposed_case);
}

/* Permuted dense inputs (an NHWC tensor read as NCHW, a transpose) beside broadcast ones, rank 2-4,
 * dims around the kernels' tiles (64 rows of 64 bytes: clsel_cl_kind TILED) and the launch's
 * minimum rows for them, the output laid any way: where an input is contiguous along a dim other
 * than the innermost, the OpenCL kernels read it through tiles in local memory. */
static oracle_case permuted_case(rng *r)
{
    oracle_case c;
    memset(&c, 0, sizeof c);
    c.mode = CLSEL_BROADCAST_NUMPY;
    c.cond_broadcast = CLSEL_COND_BIDIRECTIONAL;
    const int rank = 2 + (int)rng_below(r, 3);
    static const int64_t sizes[] = {1, 2, 5, 15, 16, 17, 31, 63, 64, 65, 100, 130};
    const clsel_shape s = draw_dims(r, rank, sizes, sizeof sizes / sizeof sizes[0], 60000);
    for (int op = 0; op < 3; ++op) {
        c.shape[op] = s;
        for (int a = 0; a < rank; ++a)
            if (rng_below(r, 6) == 0)
                c.shape[op].dims[a] = 1; /* broadcast along it */
    }
    return c;
}

static void test_permuted(void)
{
    run_laid("permuted", LAID_PERMUTED, 2, case_count / 8 + 1, permuted_case);
}

static const test_case cases[] = {
    {"any", test_any}, {"transposed", test_transposed}, {"permuted", test_permuted}};

static const check_flag flags[] = {
    {"--path", CHECK_FLAG_CHOICE, &chosen_path, "cpu|opencl|runtime",
     "the CPU path (default), also clsel_cl_enqueue, or also the runtime on the OpenCL device"},
    {"--cases", CHECK_FLAG_I64, &case_count, NULL, "random cases (default 1000)"},
    {"--seed", CHECK_FLAG_U64, &seed, NULL, "the first case's seed (default 20261126)"},
    {"--small-blocks", CHECK_FLAG_SWITCH, &small_blocks, NULL,
     "blocks of a few elements, random long-row bounds"},
    {"--portable-loops", CHECK_FLAG_SWITCH, &portable_loops, NULL,
     "the CPU path's portable row loops, as on a processor without AVX2"},
    {"--streamed", CHECK_FLAG_SWITCH, &streamed, NULL,
     "the CPU path's streaming stores on every output (as from 8 MiB)"},
};

int main(int argc, char **argv)
{
    const check_suite suite = {"test_strided",     cases,     CHECK_COUNT(cases), flags,
                               CHECK_COUNT(flags), open_path, close_path};
    return check_main(argc, argv, &suite);
}
