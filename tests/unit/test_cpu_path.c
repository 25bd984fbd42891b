/* test_cpu_path.c - the CPU path against the oracle and against hand-written expectations:
 * every dtype, each operand broadcast alone and together, all modes, cond bytes,
 * special values, in place, aliasing errors, NULLs, empty tensors. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "common/tuning.h" /* the library's internal knobs (linked with libclsel.a) */
#include "oracle.h"
#include "test_util.h"

#define GUARD 0x5A
#define GUARD_BYTES 32

static clsel_attrs attrs_for(const oracle_case *c)
{
    clsel_attrs a = clsel_attrs_default();
    a.broadcast = c->mode;
    a.axis = c->axis;
    a.cond_broadcast = c->cond_broadcast;
    return a;
}

/* Random data through the CPU path and the oracle, the output `out_offset` elements into its
 * buffer; compares bit for bit and checks the guard bytes after the output. */
static void check_against_oracle_at(const oracle_case *c, clsel_dtype dtype, uint64_t seed,
                                    size_t out_offset)
{
    clsel_shape out_shape;
    if (!oracle_shape(c, &out_shape)) {
        CHECK_MSG(0, "test case (mode %d, ranks %d %d %d) is invalid for the oracle", (int)c->mode,
                  (int)c->shape[0].rank, (int)c->shape[1].rank, (int)c->shape[2].rank);
        return;
    }
    rng r = {seed};
    const size_t w = clsel_dtype_size(dtype);
    const int64_t nc = shape_count(&c->shape[0]), nt = shape_count(&c->shape[1]),
                  ne = shape_count(&c->shape[2]);
    const int64_t no = shape_count(&out_shape);
    uint8_t *cond = test_alloc((size_t)nc);
    uint8_t *t = test_alloc((size_t)nt * w), *e = test_alloc((size_t)ne * w);
    uint8_t *want = test_alloc((size_t)no * w);
    uint8_t *buffer = test_alloc((out_offset + (size_t)no) * w + GUARD_BYTES),
            *got = buffer + out_offset * w;
    fill_cond(cond, (size_t)nc, &r);
    fill_values(t, (size_t)nt, w, &r);
    fill_values(e, (size_t)ne, w, &r);
    memset(got, GUARD, (size_t)no * w + GUARD_BYTES);
    oracle_case oc = *c;
    oc.elem_size = w;
    oracle_select(&oc, &out_shape, cond, t, e, want);

    clsel_attrs a = attrs_for(c);
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(dtype, &c->shape[0], &c->shape[1], &c->shape[2], &a, &plan));
    if (plan) {
        CHECK(shape_equal(clsel_plan_output_shape(plan), &out_shape));
        CHECK_OK(clsel_plan_run_cpu(plan, cond, t, e, got));
        CHECK_MSG(memcmp(got, want, (size_t)no * w) == 0, "%s mode %d: CPU differs from the oracle",
                  clsel_dtype_name(dtype), (int)c->mode);
        int guard_ok = 1;
        for (size_t i = 0; i < GUARD_BYTES; ++i)
            guard_ok &= got[(size_t)no * w + i] == GUARD;
        CHECK(guard_ok);
    }
    clsel_plan_destroy(plan);
    free(cond);
    free(t);
    free(e);
    free(want);
    free(buffer);
}

static void check_against_oracle(const oracle_case *c, clsel_dtype dtype, uint64_t seed)
{
    check_against_oracle_at(c, dtype, seed, 0);
}

static oracle_case make_case(clsel_broadcast mode, int64_t axis, clsel_shape c, clsel_shape t,
                             clsel_shape e)
{
    oracle_case oc;
    memset(&oc, 0, sizeof oc);
    oc.mode = mode;
    oc.axis = axis;
    oc.cond_broadcast = CLSEL_COND_ONE_WAY;
    oc.shape[0] = c;
    oc.shape[1] = t;
    oc.shape[2] = e;
    return oc;
}

static oracle_case two_way(oracle_case c)
{
    c.cond_broadcast = CLSEL_COND_BIDIRECTIONAL;
    return c;
}

static void test_seed_example(void)
{
    const uint8_t cond[6] = {0, 0, 1, 0, 1, 1};
    const int32_t then_data[6] = {-1, 0, 1, 2, 3, 4}, else_data[6] = {11, 10, 9, 8, 7, 6};
    const int32_t expected[6] = {11, 10, 1, 8, 3, 4};
    int32_t out[6] = {0};
    clsel_shape s = SHAPE(3, 2);
    CHECK_OK(clsel_select_cpu(CLSEL_I32, &s, cond, &s, then_data, &s, else_data, NULL, out));
    CHECK(memcmp(out, expected, sizeof out) == 0);
}

/* Each operand broadcast alone and together, across modes and every dtype. */
static void test_broadcast_patterns(void)
{
    const clsel_shape full = SHAPE(3, 4, 5);
    const oracle_case cases[] = {
        make_case(CLSEL_BROADCAST_NONE, -1, full, full, full),
        make_case(CLSEL_BROADCAST_NUMPY, -1, full, full, full),
        make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(4, 1), full, full),       /* cond alone */
        make_case(CLSEL_BROADCAST_NUMPY, -1, full, SHAPE(1, 4, 1), full),    /* then alone */
        make_case(CLSEL_BROADCAST_NUMPY, -1, full, full, SHAPE(5)),          /* else alone */
        make_case(CLSEL_BROADCAST_NUMPY, -1, SCALAR, full, full),            /* scalar cond */
        two_way(make_case(CLSEL_BROADCAST_NUMPY, -1, full, SCALAR, SCALAR)), /* scalar values */
        make_case(CLSEL_BROADCAST_NUMPY, -1, full, SCALAR, full),            /* scalar then */
        make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(3, 1, 1), SHAPE(3, 4, 1),
                  SHAPE(1, 5)), /* all three */
        make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(1, 1, 5), SHAPE(3, 1, 5), SHAPE(1, 4, 1)),
        make_case(CLSEL_BROADCAST_NUMPY, -1, SCALAR, SCALAR, SCALAR),
        make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(2, 1, 2, 1, 2, 1, 2, 1),
                  SHAPE(1, 3, 1, 3, 1, 3, 1, 3),
                  SHAPE(2, 3, 2, 3, 2, 3, 2, 3)), /* rank 8, nothing collapses */
        make_case(CLSEL_BROADCAST_PDPD, 1, SHAPE(4), full, SHAPE(4, 1)),
        make_case(CLSEL_BROADCAST_PDPD, -1, SHAPE(5), full, SHAPE(4, 5)),
        make_case(CLSEL_BROADCAST_PDPD, 0, SHAPE(3, 4), full, SCALAR),
        make_case(CLSEL_BROADCAST_PDPD, -1, full, full, full),
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
        for (int d = 0; d < 13; ++d)
            check_against_oracle(&cases[k], all_dtypes[d], 1000 * k + (uint64_t)d);
    const oracle_case mutual = two_way(
        make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(1, 1, 3), SHAPE(1, 3, 1), SHAPE(3, 1, 1)));
    for (int d = 0; d < 13; ++d)
        check_against_oracle(&mutual, all_dtypes[d], 77 + (uint64_t)d);
}

/* A cond fixed over every block with an input gathered anew for each: such blocks are smaller
 * where the gathered input streams (an eighth of the output's bytes or more: each element
 * repeated over 2, 3 or 8; a short row copied twice) than where it does not (repeated over 13),
 * and each output must be the same. Outputs of 80 KiB and more, so that blocks shrink; a few
 * seeds, so that the scalar cond takes both inputs. */
static void test_fixed_cond_gathers(void)
{
    const struct {
        clsel_dtype dtype;
        oracle_case c;
    } cases[] = {
        {CLSEL_I8, make_case(CLSEL_BROADCAST_NUMPY, -1, SCALAR, SHAPE(2), SHAPE(40000, 1))},
        {CLSEL_I64, make_case(CLSEL_BROADCAST_NUMPY, -1, SCALAR, SHAPE(3), SHAPE(6000, 1))},
        {CLSEL_F32, make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(1, 1, 1), SHAPE(1, 1, 2, 1, 1),
                              SHAPE(3000, 13, 1, 4, 1))},
        {CLSEL_U16,
         make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(1, 1), SHAPE(8, 1), SHAPE(3001, 1, 37))},
        {CLSEL_U32, make_case(CLSEL_BROADCAST_NUMPY, -1, SCALAR, SHAPE(13), SHAPE(5000, 1))},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
        for (uint64_t seed = 0; seed < 4; ++seed)
            check_against_oracle(&cases[k].c, cases[k].dtype, 500 * k + seed);
}

/* Then or else one element repeated into short runs ([N,1] against [N,r]), which the AVX2 blend
 * reads from the source itself (cpu_expand_reader): each element width and runs of 2 to 32 bytes,
 * under an advancing cond and a periodic one, the other input advancing, periodic or a scalar, the
 * output 0 to 3 elements into its buffer, so that rows start at every phase of the runs and blocks
 * at every place in a line; outputs of about 200 KB (several blocks) and seven past
 * CPU_STREAM_MIN_BYTES, for the streamed loops. Each input ends where its buffer does: the
 * sanitizers' build catches a load past it. */
static void test_expanded_repeats(void)
{
    static const clsel_dtype dtypes[] = {CLSEL_U8, CLSEL_F16, CLSEL_F32, CLSEL_F64};
    static const int64_t copies[] = {2, 3, 5, 8, 13, 16, 31};
    uint64_t seed = 0;
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d)
        for (size_t k = 0; k < sizeof copies / sizeof copies[0]; ++k) {
            const int64_t r = copies[k], n = 200000 / (r * (int64_t)clsel_dtype_size(dtypes[d]));
            const clsel_shape repeated = SHAPE(n, 1), full = SHAPE(n, r), row = SHAPE(r);
            const clsel_shape others[3][2] = {{full, full}, {row, SCALAR}, {row, row}};
            for (int kind = 0; kind < 3; ++kind)
                for (int expanded = 0; expanded < 2; ++expanded) {
                    const clsel_shape cond = others[kind][0], other = others[kind][1];
                    const oracle_case c = two_way(make_case(CLSEL_BROADCAST_NUMPY, -1, cond,
                                                            expanded ? other : repeated,
                                                            expanded ? repeated : other));
                    check_against_oracle_at(&c, dtypes[d], seed, seed % 4);
                    ++seed;
                }
        }
    const oracle_case streamed[2] = {
        make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(3000001, 3), SHAPE(3000001, 3),
                  SHAPE(3000001, 1)),
        two_way(make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(3), SHAPE(400001, 1), SCALAR))};
    check_against_oracle_at(&streamed[0], CLSEL_U8, 1, 1);
    check_against_oracle_at(&streamed[1], CLSEL_F64, 2, 3);
    /* Runs of two copies, streamed (outputs past CPU_STREAM_MIN_BYTES, 8 MiB) from an output one
     * element into its buffer: the rows' vectors start mid-run, where a 32-byte vector copies 17
     * elements (more than a 16-byte window holds). */
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d) {
        const int64_t n = ((int64_t)8 << 20) / (2 * (int64_t)clsel_dtype_size(dtypes[d])) + 1;
        const oracle_case two =
            make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(n, 2), SHAPE(n, 2), SHAPE(n, 1));
        check_against_oracle_at(&two, dtypes[d], 3 + d, 1);
    }
    /* An input re-read for each outer index, too long to be periodic in a block: the blocks that
     * end with it read their last vectors' windows through a bounded copy. */
    const oracle_case reread[2] = {
        two_way(make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(3, 40001, 5), SHAPE(40001, 1), SCALAR)),
        two_way(
            make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(5, 200001, 3), SHAPE(3), SHAPE(200001, 1)))};
    check_against_oracle_at(&reread[0], CLSEL_U8, 7, 2);
    check_against_oracle_at(&reread[1], CLSEL_F32, 8, 1);
}

/* One fused_blocks pattern (below) in dtype: cond, then and else with -1 for the outer dim, `row`
 * elements after it; unstreamed at offsets 0-3, streamed at 1 and 3. */
static void fused_pattern(const clsel_shape shape[3], int64_t row, clsel_dtype dtype,
                          uint64_t *seed)
{
    const int64_t w = (int64_t)clsel_dtype_size(dtype);
    for (int streamed = 0; streamed < 2; ++streamed) {
        const int64_t bytes = streamed ? ((int64_t)8 << 20) + 4096 : 300000;
        oracle_case c = two_way(make_case(CLSEL_BROADCAST_NUMPY, -1, shape[0], shape[1], shape[2]));
        for (int k = 0; k < 3; ++k)
            for (int32_t i = 0; i < c.shape[k].rank; ++i)
                if (c.shape[k].dims[i] == -1)
                    c.shape[k].dims[i] = bytes / (row * w) + 1;
        for (int offset = streamed; offset < 4; offset += streamed ? 2 : 1)
            check_against_oracle_at(&c, dtype, (*seed)++, offset);
    }
}

/* Fused blocks (cpu_fused.c): one input or more a pattern of short inner dims that moves from row
 * to row (a shuffle table), beside runs and inputs the same in every row (repeated). Each in every
 * element width, over a few blocks from an output 0 to 3 elements into its buffer (the tables made
 * for each phase, the elements before the first 32-byte boundary and after the last whole vector
 * one by one), and streamed (past CPU_STREAM_MIN_BYTES, 8 MiB) one and three elements in; the
 * inputs end where their buffers do, so a table read past an input's end is the sanitizers'. */
static void test_fused_blocks(void)
{
    static const clsel_dtype dtypes[] = {CLSEL_U8, CLSEL_F16, CLSEL_F32, CLSEL_F64};
    enum {
        N = -1 /* the outer dim, as long as the output's size asks */
    };
    const struct {
        clsel_shape shape[3]; /* cond, then, else */
        int64_t row;          /* the elements after N */
    } patterns[] = {
        /* a tiled row's end and start in one vector: two windows a piece */
        {{SHAPE(N, 1, 12), SHAPE(N, 1, 12), SHAPE(N, 12, 1)}, 144},
        /* a repeat, a constant block and a tile */
        {{SHAPE(N, 14, 1), SHAPE(14, 6), SHAPE(N, 1, 6)}, 84},
        /* a block tiled twice, each element of then repeated 80 times, a row tiled ten times */
        {{SHAPE(N, 1, 10, 8), SHAPE(N, 2, 1, 1), SHAPE(N, 2, 1, 8)}, 160},
        /* a run beside a repeat and a tile, and a cond that is the run */
        {{SHAPE(N, 3, 1), SHAPE(N, 1, 13), SHAPE(N, 3, 13)}, 39},
        {{SHAPE(N, 3, 13), SHAPE(N, 1, 13), SHAPE(N, 3, 1)}, 39},
        /* rows of one vector or less, tables of many rows */
        {{SHAPE(N, 1, 4), SHAPE(N, 1, 4), SHAPE(4, 1)}, 16},
        /* one input a table, the others the same in every row (a scalar among them): their bytes
         * made from one row's, copied on for the rest of the table */
        {{SHAPE(3, 1), SHAPE(N, 1, 5), SHAPE(1)}, 15},
        {{SHAPE(40, 13), SHAPE(N, 40, 1), SHAPE(1)}, 520},
        /* rows of 420 elements: tables of 3,360 bytes in every width */
        {{SHAPE(1, 15, 1, 2), SHAPE(N, 15, 14, 1), SHAPE(N, 1, 1, 2)}, 420},
        /* blocks that start at varying phases of the output's vectors (the output
         * [2,N,3,37,3,25,1,8], 133,200 elements an index of N, in rows of 66,600 of them): tables
         * made again, or the blocks gathered */
        {{SHAPE(1, 1, 3, 37, 3, 1, 1, 1), SHAPE(1, 8), SHAPE(2, N, 3, 37, 3, 25, 1, 1)}, 133200},
    };
    uint64_t seed = 40;
    /* with the wide tables of the AVX-512 VBMI loops where the processor has them, and without */
    for (int no_avx512 = 0; no_avx512 < 2; ++no_avx512) {
        clsel_priv_knob_set(CLSEL_PRIV_KNOB_NO_AVX512, no_avx512);
        for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; ++p)
            for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d)
                fused_pattern(patterns[p].shape, patterns[p].row, dtypes[d], &seed);
    }
    clsel_priv_knob_set(CLSEL_PRIV_KNOB_NO_AVX512, 0);
}

/* Periods of 1 KiB or more that every block reads again, whose bytes are not whole cache lines
 * (cpu_walk.c, choose_period): rows of as many periods as make whole lines, a then row tiled within
 * each period crossing from one row of its tiles to the next inside them. i16 cond [40,13,3] under
 * then [N,1,13,3] (3,120-byte periods, rows of four), u8 [24,43] (1,032 bytes, rows of eight) and
 * f64 [7,19] (1,064 bytes, rows of eight); where those lines take more periods than a block holds,
 * a row of the block's periods: cond [13,1,15] under then [N,1,11,1] in u8 (2,145-byte periods)
 * and f32 (8,580 bytes). Outputs past CPU_STREAM_MIN_BYTES (8 MiB) and of a few blocks, 0 to 3
 * elements into their buffers. */
static void test_long_periods(void)
{
    const struct {
        clsel_dtype dtype;
        clsel_shape cond, then_row, else_row;
        int64_t streamed_rows;
    } periods[] = {
        {CLSEL_I16, SHAPE(40, 13, 3), SHAPE(1, 13, 3), SHAPE(3), 2700},
        {CLSEL_U8, SHAPE(24, 43), SHAPE(1, 43), SHAPE(43), 8200},
        {CLSEL_F64, SHAPE(7, 19), SHAPE(1, 19), SHAPE(1), 8000},
        {CLSEL_U8, SHAPE(13, 1, 15), SHAPE(1, 11, 1), SHAPE(15), 4000},
        {CLSEL_F32, SHAPE(13, 1, 15), SHAPE(1, 11, 1), SHAPE(15), 1000},
    };
    uint64_t seed = 0;
    for (size_t k = 0; k < sizeof periods / sizeof periods[0]; ++k) {
        const int64_t outer[2] = {61, periods[k].streamed_rows};
        for (int size = 0; size < 2; ++size) {
            clsel_shape then_shape = periods[k].then_row;
            memmove(then_shape.dims + 1, then_shape.dims,
                    (size_t)then_shape.rank * sizeof(int64_t));
            then_shape.dims[0] = outer[size];
            ++then_shape.rank;
            const oracle_case c = two_way(make_case(CLSEL_BROADCAST_NUMPY, -1, periods[k].cond,
                                                    then_shape, periods[k].else_row));
            check_against_oracle_at(&c, periods[k].dtype, 900 + seed, seed % 4);
            ++seed;
        }
    }
}

/* Blocks read as rows of 1 KiB or more, the inputs they would gather anew read where they lie
 * (cpu_walk.c, choose_rows_in_place): then one element a row and else one row re-read for 13 rows
 * of 3,224 bytes, under a cond periodic over them; then one element a row under a cond fixed over
 * each block, beside a periodic else (rows of 1,280 bytes, 51 a block), a few seeds so that the
 * cond takes both inputs. */
static void test_rows_in_place(void)
{
    const struct {
        clsel_dtype dtype;
        oracle_case c;
    } cases[] = {
        {CLSEL_U8, make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(1, 7, 1, 1, 8, 13),
                             SHAPE(3, 7, 13, 1, 1, 1), SHAPE(1, 7, 1, 31, 8, 13))},
        {CLSEL_F32,
         make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(4, 1, 1, 1), SHAPE(4, 60, 1, 1), SHAPE(20, 1))},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
        for (uint64_t seed = 0; seed < 4; ++seed)
            check_against_oracle(&cases[k].c, cases[k].dtype, 700 * k + seed);
}

/* The same under a cond fixed over each block, which only a view reaches: then [4,60,20,16] with
 * its rows of 60 two rows apart (a pattern over blocks of 16 x 20 x 51, a run along each row of
 * 320), cond [4,1,1,1], else [16] (periodic, so that the rows' two dims stay apart). Each cond
 * element picks a whole block, so some seed takes both inputs. */
static void test_rows_in_place_fixed_cond(void)
{
    enum {
        A = 4,
        B = 60,
        C = 20,
        D = 16,
        ROW = 2 * C * D /* then's step along B: every other row of C * D */
    };
    const clsel_shape cs = SHAPE(A, 1, 1, 1), ts = SHAPE(A, B, C, D), es = SHAPE(D);
    clsel_strides strides = clsel_strides_default();
    strides.strided = CLSEL_STRIDED(CLSEL_OPERAND_THEN);
    const int64_t then_strides[4] = {B * ROW, ROW, D, 1};
    memcpy(strides.strides[CLSEL_OPERAND_THEN], then_strides, sizeof then_strides);
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create_strided(CLSEL_F32, &cs, &ts, &es, NULL, &strides, &plan));
    float *then_data = test_alloc(sizeof(float) * A * B * ROW),
          *else_data = test_alloc(sizeof(float) * D);
    float *got = test_alloc(sizeof(float) * A * B * C * D),
          *want = test_alloc(sizeof(float) * A * B * C * D);
    for (uint64_t seed = 0; seed < 4 && plan; ++seed) {
        rng r = {900 + seed};
        uint8_t cond[A];
        fill_cond(cond, A, &r);
        fill_values(then_data, (size_t)A * B * ROW, sizeof(float), &r);
        fill_values(else_data, D, sizeof(float), &r);
        for (int64_t i = 0; i < (int64_t)A * B * C * D; ++i) {
            const int64_t a = i / (B * C * D), b = i / (C * D) % B, cd = i % (C * D);
            want[i] = cond[a] ? then_data[a * B * ROW + b * ROW + cd] : else_data[i % D];
        }
        CHECK_OK(clsel_plan_run_cpu(plan, cond, then_data, else_data, got));
        CHECK(memcmp(got, want, sizeof(float) * A * B * C * D) == 0);
    }
    clsel_plan_destroy(plan);
    free(then_data);
    free(else_data);
    free(got);
    free(want);
}

static void test_cond_bytes(void)
{
    const uint8_t cond[8] = {0x00, 0x01, 0x02, 0x80, 0xFF, 0x7F, 0x00, 0x10};
    const uint16_t t[8] = {1, 2, 3, 4, 5, 6, 7, 8}, e[8] = {10, 20, 30, 40, 50, 60, 70, 80};
    const uint16_t expected[8] = {10, 2, 3, 4, 5, 6, 70, 8};
    uint16_t out[8];
    clsel_shape s = SHAPE(8);
    CHECK_OK(clsel_select_cpu(CLSEL_U16, &s, cond, &s, t, &s, e, NULL, out));
    CHECK(memcmp(out, expected, sizeof out) == 0);
    /* A u8 cond is taken byte for byte too. */
    CHECK_OK(clsel_select_cpu(CLSEL_BF16, &s, cond, &s, t, &s, e, NULL, out));
    CHECK(memcmp(out, expected, sizeof out) == 0);
}

/* NaN payloads, sNaN, -0.0, +-Inf and denormals pass unchanged from either branch. */
static void test_special_values(void)
{
    const uint32_t specials32[6] = {0x7FC00001u, 0x7F800001u, 0x80000000u,
                                    0x7F800000u, 0xFF800000u, 0x00000001u};
    const uint64_t specials64[6] = {0x7FF8000000000001ull, 0x7FF0000000000001ull,
                                    0x8000000000000000ull, 0x7FF0000000000000ull,
                                    0xFFF0000000000000ull, 0x0000000000000001ull};
    const uint16_t specials16[6] = {0x7E01, 0x7C01, 0x8000, 0x7C00, 0xFC00, 0x0001};
    const uint32_t zeros32[6] = {0};
    const uint64_t zeros64[6] = {0};
    const uint16_t zeros16[6] = {0};
    const uint8_t pick[6] = {1, 0, 1, 0, 1, 1}; /* where the special value must come out */
    clsel_shape s = SHAPE(6);
    for (int in_else = 0; in_else < 2; ++in_else) {
        uint8_t cond[6];
        for (int i = 0; i < 6; ++i)
            cond[i] = (uint8_t)(in_else ? !pick[i] : pick[i]);
        uint32_t o32[6];
        uint64_t o64[6];
        uint16_t o16[6];
        CHECK_OK(clsel_select_cpu(CLSEL_F32, &s, cond, &s, in_else ? zeros32 : specials32, &s,
                                  in_else ? specials32 : zeros32, NULL, o32));
        CHECK_OK(clsel_select_cpu(CLSEL_F64, &s, cond, &s, in_else ? zeros64 : specials64, &s,
                                  in_else ? specials64 : zeros64, NULL, o64));
        CHECK_OK(clsel_select_cpu(CLSEL_F16, &s, cond, &s, in_else ? zeros16 : specials16, &s,
                                  in_else ? specials16 : zeros16, NULL, o16));
        for (int i = 0; i < 6; ++i) {
            CHECK(o32[i] == (pick[i] ? specials32[i] : 0));
            CHECK(o64[i] == (pick[i] ? specials64[i] : 0));
            CHECK(o16[i] == (pick[i] ? specials16[i] : 0));
        }
    }
    /* The unselected branch holding NaN or Inf does not leak into the result. */
    const float nan_inf[2] = {NAN, INFINITY}, ones[2] = {1.0f, -0.0f};
    float out[2];
    const uint8_t take_ones[2] = {0, 0};
    clsel_shape two = SHAPE(2);
    CHECK_OK(clsel_select_cpu(CLSEL_F32, &two, take_ones, &two, nan_inf, &two, ones, NULL, out));
    CHECK(out[0] == 1.0f && out[1] == 0.0f && signbit(out[1]));
}

/* Where numpy and pdpd both accept a case and disagree: then {3,3}, else {3}, cond {3}. */
static void test_numpy_vs_pdpd(void)
{
    const uint8_t cond[3] = {1, 0, 1};
    const int32_t t[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, e[3] = {-1, -2, -3};
    const int32_t numpy_expected[9] = {1, -2, 3, 4, -2, 6, 7, -2, 9}; /* cond, else along columns */
    const int32_t pdpd_expected[9] = {1, 2, 3, -2, -2, -2, 7, 8, 9};  /* cond, else along rows */
    int32_t out[9];
    clsel_shape c = SHAPE(3), ts = SHAPE(3, 3), es = SHAPE(3);
    clsel_attrs pdpd = clsel_attrs_default();
    pdpd.broadcast = CLSEL_BROADCAST_PDPD;
    pdpd.axis = 0;
    CHECK_OK(clsel_select_cpu(CLSEL_I32, &c, cond, &ts, t, &es, e, NULL, out));
    CHECK(memcmp(out, numpy_expected, sizeof out) == 0);
    CHECK_OK(clsel_select_cpu(CLSEL_I32, &c, cond, &ts, t, &es, e, &pdpd, out));
    CHECK(memcmp(out, pdpd_expected, sizeof out) == 0);
}

static void test_in_place(void)
{
    const uint8_t cond[6] = {1, 0, 1, 0, 0, 1};
    int64_t buf[6] = {1, 2, 3, 4, 5, 6};
    const int64_t other[6] = {-1, -2, -3, -4, -5, -6};
    clsel_shape s = SHAPE(2, 3);
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(CLSEL_I64, &s, &s, &s, NULL, &plan));
    CHECK_OK(clsel_plan_run_cpu(plan, cond, buf, other, buf)); /* out == then */
    const int64_t expected_then[6] = {1, -2, 3, -4, -5, 6};
    CHECK(memcmp(buf, expected_then, sizeof buf) == 0);
    int64_t buf2[6] = {1, 2, 3, 4, 5, 6};
    CHECK_OK(clsel_plan_run_cpu(plan, cond, other, buf2, buf2)); /* out == else */
    const int64_t expected_else[6] = {-1, 2, -3, 4, 5, -6};
    CHECK(memcmp(buf2, expected_else, sizeof buf2) == 0);
    clsel_plan_destroy(plan);

    /* A larger in-place case through every width, against the oracle. */
    for (int d = 0; d < 13; ++d) {
        const size_t w = clsel_dtype_size(all_dtypes[d]);
        enum {
            N = 1000
        };
        rng r = {(uint64_t)d};
        uint8_t c[N], t[N * 8], e[N * 8], want[N * 8];
        fill_cond(c, N, &r);
        fill_values(t, N, w, &r);
        fill_values(e, N, w, &r);
        oracle_case oc = make_case(CLSEL_BROADCAST_NUMPY, -1, SHAPE(N), SHAPE(N), SHAPE(N));
        oc.elem_size = w;
        oracle_select(&oc, &oc.shape[0], c, t, e, want);
        clsel_shape n = SHAPE(N);
        CHECK_OK(clsel_select_cpu(all_dtypes[d], &n, c, &n, t, &n, e, NULL, t));
        CHECK(memcmp(t, want, N * w) == 0);
    }
}

static void test_aliasing_errors(void)
{
    uint8_t cond[8] = {1, 0, 1, 0, 1, 0, 1, 0};
    uint32_t data[16] = {0};
    for (int i = 0; i < 16; ++i)
        data[i] = (uint32_t)i;
    uint32_t snapshot[16];
    memcpy(snapshot, data, sizeof data);
    clsel_shape s = SHAPE(8), one = SHAPE(1);
    clsel_plan *plan = NULL, *bplan = NULL;
    CHECK_OK(clsel_plan_create(CLSEL_U32, &s, &s, &s, NULL, &plan));
    /* Partial overlap with then, with else. */
    CHECK_STATUS(clsel_plan_run_cpu(plan, cond, data, data + 8, data + 1), CLSEL_ERROR_BUFFER);
    CHECK(strstr(clsel_last_error(), "overlap then"));
    uint32_t other[8] = {0};
    CHECK_STATUS(clsel_plan_run_cpu(plan, cond, other, data, data + 4), CLSEL_ERROR_BUFFER);
    CHECK(strstr(clsel_last_error(), "overlap else"));
    /* Overlap with cond (a 1-byte tensor inside the output). */
    CHECK_STATUS(clsel_plan_run_cpu(plan, (const uint8_t *)data + 4, data, data + 8, data),
                 CLSEL_ERROR_BUFFER);
    CHECK(memcmp(data, snapshot, sizeof data) == 0);
    /* out == then is only allowed when then has the output's shape. */
    CHECK_OK(clsel_plan_create(CLSEL_U32, &s, &one, &s, NULL, &bplan));
    CHECK_STATUS(clsel_plan_run_cpu(bplan, cond, data, data + 8, data), CLSEL_ERROR_BUFFER);
    CHECK(memcmp(data, snapshot, sizeof data) == 0);
    /* then and else may alias each other. */
    uint32_t out[8];
    CHECK_OK(clsel_plan_run_cpu(plan, cond, data, data, out));
    CHECK(memcmp(out, data, sizeof out) == 0);
    clsel_plan_destroy(plan);
    clsel_plan_destroy(bplan);
}

static void test_null_and_empty(void)
{
    uint8_t cond[4] = {1, 1, 0, 0};
    float t[4] = {1, 2, 3, 4}, e[4] = {5, 6, 7, 8}, out[4] = {9, 9, 9, 9};
    const float untouched[4] = {9, 9, 9, 9};
    clsel_shape s = SHAPE(4), empty = SHAPE(0, 4);
    clsel_plan *plan = NULL, *eplan = NULL;
    CHECK_OK(clsel_plan_create(CLSEL_F32, &s, &s, &s, NULL, &plan));
    CHECK_STATUS(clsel_plan_run_cpu(NULL, cond, t, e, out), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(clsel_plan_run_cpu(plan, NULL, t, e, out), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "cond is NULL but has 4 elements"));
    CHECK_STATUS(clsel_plan_run_cpu(plan, cond, NULL, e, out), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(clsel_plan_run_cpu(plan, cond, t, NULL, out), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(clsel_plan_run_cpu(plan, cond, t, e, NULL), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(memcmp(out, untouched, sizeof out) == 0);

    /* Empty output: NULL pointers are fine, nothing is written. */
    CHECK_OK(clsel_plan_create(CLSEL_F32, &empty, &empty, &s, NULL, &eplan));
    CHECK(clsel_plan_output_count(eplan) == 0);
    CHECK_OK(clsel_plan_run_cpu(eplan, NULL, NULL, e, NULL));
    CHECK_OK(clsel_plan_run_cpu(eplan, cond, t, e, out));
    CHECK(memcmp(out, untouched, sizeof out) == 0);
    clsel_plan_destroy(plan);
    clsel_plan_destroy(eplan);

    /* Bad shapes through the one-shot call leave out untouched too. */
    clsel_shape bad = SHAPE(3);
    CHECK_STATUS(clsel_select_cpu(CLSEL_F32, &s, cond, &bad, t, &s, e, NULL, out),
                 CLSEL_ERROR_INVALID_SHAPE);
    CHECK(memcmp(out, untouched, sizeof out) == 0);
}

static void test_rank0(void)
{
    const uint8_t yes = 0x80, no = 0;
    const double a = -0.0, b = 3.5;
    double out = 1.0;
    clsel_shape s = SCALAR;
    CHECK_OK(clsel_select_cpu(CLSEL_F64, &s, &yes, &s, &a, &s, &b, NULL, &out));
    CHECK(out == 0.0 && signbit(out));
    CHECK_OK(clsel_select_cpu(CLSEL_F64, &s, &no, &s, &a, &s, &b, NULL, &out));
    CHECK(out == 3.5);
}

static const test_case cases[] = {
    {"seed_example", test_seed_example},
    {"broadcast_patterns", test_broadcast_patterns},
    {"fixed_cond_gathers", test_fixed_cond_gathers},
    {"expanded_repeats", test_expanded_repeats},
    {"fused_blocks", test_fused_blocks},
    {"long_periods", test_long_periods},
    {"rows_in_place", test_rows_in_place},
    {"rows_in_place_fixed_cond", test_rows_in_place_fixed_cond},
    {"cond_bytes", test_cond_bytes},
    {"special_values", test_special_values},
    {"numpy_vs_pdpd", test_numpy_vs_pdpd},
    {"in_place", test_in_place},
    {"aliasing_errors", test_aliasing_errors},
    {"null_and_empty", test_null_and_empty},
    {"rank0", test_rank0},
};

int main(int argc, char **argv)
{
    const check_suite suite = {"test_cpu_path", cases, CHECK_COUNT(cases), NULL, 0, NULL, NULL};
    return check_main(argc, argv, &suite);
}
