/* bench_cases.c - the benchmark's case table (the named cases of docs/performance.md). Full sizes
 * move at least 128 MiB (4x this CI box's 32 MiB L3) unless the case is about a small or a specific
 * shape; quick sizes finish in a few milliseconds. */
#include "bench_cases.h"

#include <string.h>

#include "bench_literals.h"

#define M64 (1 << 26)
#define M32 (1 << 25)
#define Q (1 << 20)

const bench_case bench_cases[] = {
    /* Same shape, every element width. */
    {"same_f32",
     "same shape, 4-byte",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM50,
     {S1(M64), S1(M64), S1(M64)},
     {S1(Q), S1(Q), S1(Q)},
     VIEW_NONE},
    {"same_u8",
     "same shape, 1-byte",
     CLSEL_U8,
     NUMPY,
     COND_RANDOM50,
     {S1(M64), S1(M64), S1(M64)},
     {S1(Q), S1(Q), S1(Q)},
     VIEW_NONE},
    {"same_f16",
     "same shape, 2-byte",
     CLSEL_F16,
     NUMPY,
     COND_RANDOM50,
     {S1(M64), S1(M64), S1(M64)},
     {S1(Q), S1(Q), S1(Q)},
     VIEW_NONE},
    {"same_f64",
     "same shape, 8-byte",
     CLSEL_F64,
     NUMPY,
     COND_RANDOM50,
     {S1(M32), S1(M32), S1(M32)},
     {S1(Q), S1(Q), S1(Q)},
     VIEW_NONE},
    {"same_mid",
     "same shape 1024x4096",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM50,
     {S2(1024, 4096), S2(1024, 4096), S2(1024, 4096)},
     {S2(256, 1024), S2(256, 1024), S2(256, 1024)},
     VIEW_NONE},
    /* Cond patterns (a branchy loop would look good on all-true and all-false). */
    {"cond_10pct",
     "same shape, cond 10% true",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM10,
     {S1(M64), S1(M64), S1(M64)},
     {S1(Q), S1(Q), S1(Q)},
     VIEW_NONE},
    {"cond_all_true",
     "same shape, cond all true",
     CLSEL_F32,
     NUMPY,
     COND_ALL_TRUE,
     {S1(M64), S1(M64), S1(M64)},
     {S1(Q), S1(Q), S1(Q)},
     VIEW_NONE},
    {"cond_all_false",
     "same shape, cond all false",
     CLSEL_F32,
     NUMPY,
     COND_ALL_FALSE,
     {S1(M64), S1(M64), S1(M64)},
     {S1(Q), S1(Q), S1(Q)},
     VIEW_NONE},
    /* Scalar operands. */
    {"else_scalar",
     "masked_fill: else scalar",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM50,
     {S1(M64), S1(M64), S0},
     {S1(Q), S1(Q), S0},
     VIEW_NONE},
    {"both_scalar",
     "then and else scalar",
     CLSEL_F32,
     NUMPY2,
     COND_RANDOM50,
     {S2(8192, 8192), S0, S0},
     {S2(1024, 1024), S0, S0},
     VIEW_NONE},
    {"cond_scalar",
     "cond scalar (a copy)",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM50,
     {S0, S1(M64), S1(M64)},
     {S0, S1(Q), S1(Q)},
     VIEW_NONE},
    /* Broadcast patterns. */
    {"attention_mask",
     "mask [B,1,S,S] on [B,H,S,S], else scalar",
     CLSEL_F16,
     NUMPY,
     COND_RANDOM50,
     {S4(4, 1, 1024, 1024), S4(4, 16, 1024, 1024), S0},
     {S4(2, 1, 256, 256), S4(2, 8, 256, 256), S0},
     VIEW_NONE},
    {"column_cond",
     "cond [1,C] on [R,C]",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM50,
     {S2(1, 8192), S2(8192, 8192), S2(8192, 8192)},
     {S2(1, 1024), S2(1024, 1024), S2(1024, 1024)},
     VIEW_NONE},
    {"row_operand",
     "then [R,1] on [R,C]",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM50,
     {S2(8192, 8192), S2(8192, 1), S2(8192, 8192)},
     {S2(1024, 1024), S2(1024, 1), S2(1024, 1024)},
     VIEW_NONE},
    {"per_channel",
     "NCHW, else [1,C,1,1]",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM50,
     {S4(32, 256, 56, 56), S4(32, 256, 56, 56), S4(1, 256, 1, 1)},
     {S4(2, 64, 28, 28), S4(2, 64, 28, 28), S4(1, 64, 1, 1)},
     VIEW_NONE},
    {"big_cond_small_values",
     "cond [N,64,56,56], then/else [1,64,1,1]",
     CLSEL_F32,
     NUMPY2,
     COND_RANDOM50,
     {S4(64, 64, 56, 56), S4(1, 64, 1, 1), S4(1, 64, 1, 1)},
     {S4(2, 64, 56, 56), S4(1, 64, 1, 1), S4(1, 64, 1, 1)},
     VIEW_NONE},
    {"ort_regression",
     "cond [2,64,56,56], then/else [1,64,1,1] (ORT #27116)",
     CLSEL_F32,
     NUMPY2,
     COND_RANDOM50,
     {S4(2, 64, 56, 56), S4(1, 64, 1, 1), S4(1, 64, 1, 1)},
     {S4(2, 64, 56, 56), S4(1, 64, 1, 1), S4(1, 64, 1, 1)},
     VIEW_NONE},
    {"mutual",
     "then [S,1,S], else [1,S,1]",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM50,
     {S3(256, 256, 256), S3(256, 1, 256), S3(1, 256, 1)},
     {S3(64, 64, 64), S3(64, 1, 64), S3(1, 64, 1)},
     VIEW_NONE},
    {"pdpd_axis1",
     "pdpd axis 1: cond [C,H,W], else [C] in [N,C,H,W]",
     CLSEL_F32,
     CLSEL_BROADCAST_PDPD,
     1,
     CLSEL_COND_ONE_WAY,
     COND_RANDOM50,
     {S3(256, 56, 56), S4(32, 256, 56, 56), S1(256)},
     {S3(64, 28, 28), S4(2, 64, 28, 28), S1(64)},
     VIEW_NONE},
    {"rank8",
     "rank 8, alternating broadcast (no collapsing)",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM50,
     {S8(10, 1, 10, 1, 10, 1, 10, 1), S8(1, 6, 1, 6, 1, 6, 1, 6), S8(10, 6, 10, 6, 10, 6, 10, 6)},
     {S8(4, 1, 4, 1, 4, 1, 4, 1), S8(1, 4, 1, 4, 1, 4, 1, 4), S8(4, 4, 4, 4, 4, 4, 4, 4)},
     VIEW_NONE},
    /* Small and odd sizes: launch overhead and tails. */
    {"n1",
     "1 element",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM50,
     {S1(1), S1(1), S1(1)},
     {S1(1), S1(1), S1(1)},
     VIEW_NONE},
    {"n7",
     "7 elements",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM50,
     {S1(7), S1(7), S1(7)},
     {S1(7), S1(7), S1(7)},
     VIEW_NONE},
    {"n4097",
     "4097 elements",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM50,
     {S1(4097), S1(4097), S1(4097)},
     {S1(4097), S1(4097), S1(4097)},
     VIEW_NONE},
    {"n65537",
     "65537 elements",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM50,
     {S1(65537), S1(65537), S1(65537)},
     {S1(65537), S1(65537), S1(65537)},
     VIEW_NONE},
    {"prime",
     "16777259 elements (prime)",
     CLSEL_F32,
     NUMPY,
     COND_RANDOM50,
     {S1(16777259), S1(16777259), S1(16777259)},
     {S1(65521), S1(65521), S1(65521)},
     VIEW_NONE},
};

const size_t bench_case_count = sizeof bench_cases / sizeof bench_cases[0];

/* The views (bench/strided.py times the same layouts on the CPU path against numpy.where). */
#define VIEW_CASE(name, what, view)                           \
    {                                                         \
        name, what, CLSEL_F32, NUMPY, COND_RANDOM50,          \
            {S2(4096, 4096), S2(4096, 4096), S2(4096, 4096)}, \
            {S2(256, 384), S2(256, 384), S2(256, 384)}, view  \
    }
const bench_case bench_view_cases[] = {
    VIEW_CASE("view_dense", "R x C f32, every tensor dense (the reference)", VIEW_DENSE),
    VIEW_CASE("view_padded", "every tensor, the output too, rows 64 elements apart", VIEW_PADDED),
    VIEW_CASE("view_transposed", "every tensor transposed, the output alike", VIEW_TRANSPOSED),
    VIEW_CASE("view_transposed_c", "every input transposed, the output dense (a true transpose)",
              VIEW_TRANSPOSED_C),
    VIEW_CASE("view_every_other", "every input a[:, ::2] of a 2C-wide array", VIEW_EVERY_OTHER),
    VIEW_CASE("view_reversed", "every input reversed along both axes", VIEW_REVERSED),
    VIEW_CASE("view_broadcast_to", "then a row repeated by a zero stride", VIEW_BROADCAST_TO),
};

const size_t bench_view_case_count = sizeof bench_view_cases / sizeof bench_view_cases[0];

const char *bench_view_name(bench_view view)
{
    static const char *const names[VIEWS] = {[VIEW_NONE] = "",
                                             [VIEW_DENSE] = "dense",
                                             [VIEW_PADDED] = "padded rows",
                                             [VIEW_TRANSPOSED] = "transposed",
                                             [VIEW_TRANSPOSED_C] = "transposed->C",
                                             [VIEW_EVERY_OTHER] = "every other",
                                             [VIEW_REVERSED] = "reversed",
                                             [VIEW_BROADCAST_TO] = "broadcast_to"};
    return view >= 0 && view < VIEWS ? names[view] : "";
}

/* How each tensor of a view lies (cond, then, else, out), and the strides (dims 0 and 1) of each
 * way over R x C. */
enum {
    LAID_DENSE = 0,
    LAID_PADDED,
    LAID_TRANSPOSED,
    LAID_EVERY_OTHER,
    LAID_REVERSED,
    LAID_REPEATED,
    LAYOUTS
};
static const int view_layouts[VIEWS][4] = {
    [VIEW_PADDED] = {LAID_PADDED, LAID_PADDED, LAID_PADDED, LAID_PADDED},
    [VIEW_TRANSPOSED] = {LAID_TRANSPOSED, LAID_TRANSPOSED, LAID_TRANSPOSED, LAID_TRANSPOSED},
    [VIEW_TRANSPOSED_C] = {LAID_TRANSPOSED, LAID_TRANSPOSED, LAID_TRANSPOSED, LAID_DENSE},
    [VIEW_EVERY_OTHER] = {LAID_EVERY_OTHER, LAID_EVERY_OTHER, LAID_EVERY_OTHER, LAID_DENSE},
    [VIEW_REVERSED] = {LAID_REVERSED, LAID_REVERSED, LAID_REVERSED, LAID_DENSE},
    [VIEW_BROADCAST_TO] = {LAID_DENSE, LAID_REPEATED, LAID_DENSE, LAID_DENSE},
};

void bench_view_strides(bench_view view, int64_t rows, int64_t cols, clsel_strides *strides)
{
    const int64_t laid[LAYOUTS][2] = {
        [LAID_DENSE] = {cols, 1},      [LAID_PADDED] = {cols + 64, 1},
        [LAID_TRANSPOSED] = {1, rows}, [LAID_EVERY_OTHER] = {2 * cols, 2},
        [LAID_REVERSED] = {-cols, -1}, [LAID_REPEATED] = {0, 1}};
    *strides = clsel_strides_default();
    for (int op = 0; op < 4 && view > VIEW_NONE && view < VIEWS; ++op) {
        const int how = view_layouts[view][op];
        if (how == LAID_DENSE)
            continue;
        strides->strided |= CLSEL_STRIDED(op);
        strides->strides[op][0] = laid[how][0];
        strides->strides[op][1] = laid[how][1];
    }
}
const char *bench_pattern_name(cond_pattern p)
{
    static const char *const names[] = {"random50", "random10", "all_true", "all_false"};
    return names[p];
}

const char *bench_broadcast_name(clsel_broadcast b)
{
    static const char *const names[] = {"numpy", "none", "pdpd"};
    return names[b];
}

const char *bench_cond_broadcast_name(clsel_cond_broadcast b)
{
    static const char *const names[] = {"one_way", "bidirectional"};
    return names[b];
}

clsel_attrs bench_attrs(const bench_case *c)
{
    clsel_attrs a = clsel_attrs_default();
    a.broadcast = c->broadcast;
    a.axis = c->axis;
    a.cond_broadcast = c->cond_broadcast;
    return a;
}

uint64_t bench_bytes(const clsel_plan *plan, const uint8_t *cond)
{
    const uint64_t w = clsel_dtype_size(clsel_plan_dtype(plan));
    const uint64_t nc = (uint64_t)clsel_plan_input_count(plan, CLSEL_OPERAND_COND);
    const uint64_t nt = (uint64_t)clsel_plan_input_count(plan, CLSEL_OPERAND_THEN);
    const uint64_t ne = (uint64_t)clsel_plan_input_count(plan, CLSEL_OPERAND_ELSE);
    const uint64_t no = (uint64_t)clsel_plan_output_count(plan);
    if (nc == 1 && no > 1) /* a scalar cond: a copy of the chosen input */
        return 1 + w * ((cond[0] ? nt : ne) + no);
    return nc + w * (nt + ne + no);
}

/* A fast deterministic generator (xorshift64). */
static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

void bench_fill(const bench_case *c, const size_t bytes[3], uint8_t *cond, void *then_data,
                void *else_data)
{
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < bytes[0]; ++i) {
        uint64_t r = next(&state) % 100;
        cond[i] = c->pattern == COND_ALL_TRUE    ? 1
                  : c->pattern == COND_ALL_FALSE ? 0
                  : c->pattern == COND_RANDOM10  ? (uint8_t)(r < 10)
                                                 : (uint8_t)(r < 50);
    }
    memset(then_data, 0x3C, bytes[1]);
    memset(else_data, 0xC3, bytes[2]);
}
