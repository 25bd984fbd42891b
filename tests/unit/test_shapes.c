/* test_shapes.c - shape inference in the three modes (docs/semantics.md, Shapes), every shape
 * error with its message, and the plan's dimension collapsing. */
#include <string.h>

#include "check.h"
#include "test_util.h"

static clsel_attrs attrs_of(clsel_broadcast mode, int64_t axis, clsel_cond_broadcast cb)
{
    clsel_attrs a = clsel_attrs_default();
    a.broadcast = mode;
    a.axis = axis;
    a.cond_broadcast = cb;
    return a;
}

static const clsel_attrs *numpy_one_way(void)
{
    static clsel_attrs a;
    a = attrs_of(CLSEL_BROADCAST_NUMPY, -1, CLSEL_COND_ONE_WAY);
    return &a;
}

static const clsel_attrs *numpy_two_way(void)
{
    static clsel_attrs a;
    a = attrs_of(CLSEL_BROADCAST_NUMPY, -1, CLSEL_COND_BIDIRECTIONAL);
    return &a;
}

static const clsel_attrs *pdpd(int64_t axis)
{
    static clsel_attrs a;
    a = attrs_of(CLSEL_BROADCAST_PDPD, axis, CLSEL_COND_ONE_WAY);
    return &a;
}

static const clsel_attrs *none(void)
{
    static clsel_attrs a;
    a = attrs_of(CLSEL_BROADCAST_NONE, -1, CLSEL_COND_ONE_WAY);
    return &a;
}

#define EXPECT_SHAPE(attrs, c, t, e, ...)                                                   \
    do {                                                                                    \
        clsel_shape c_ = c, t_ = t, e_ = e, want_ = __VA_ARGS__, got_ = SHAPE(99);          \
        CHECK_OK(clsel_infer_shape(&c_, &t_, &e_, attrs, &got_));                           \
        CHECK_MSG(shape_equal(&got_, &want_), "rank %d dims %lld,%lld,...", (int)got_.rank, \
                  (long long)got_.dims[0], (long long)got_.dims[1]);                        \
    } while (0)

/* Expects a failure with `status` whose message contains `text` and leaves out alone. */
#define EXPECT_ERROR(attrs, c, t, e, status, text)                                         \
    do {                                                                                   \
        clsel_shape c_ = c, t_ = t, e_ = e, got_ = SHAPE(99), sentinel_ = SHAPE(99);       \
        CHECK_STATUS(clsel_infer_shape(&c_, &t_, &e_, attrs, &got_), status);              \
        CHECK(shape_equal(&got_, &sentinel_));                                             \
        CHECK_MSG(strstr(clsel_last_error(), text) != NULL, "message \"%s\" lacks \"%s\"", \
                  clsel_last_error(), text);                                               \
    } while (0)

static void test_numpy(void)
{
    /* docs/semantics.md, numpy mode examples: cond one way onto broadcast(then, else). */
    EXPECT_SHAPE(NULL, SHAPE(4, 5), SHAPE(2, 3, 4, 5), SHAPE(2, 3, 4, 5), SHAPE(2, 3, 4, 5));
    EXPECT_SHAPE(NULL, SHAPE(3, 1, 5), SHAPE(2, 3, 4, 5), SHAPE(2, 3, 4, 5), SHAPE(2, 3, 4, 5));
    EXPECT_ERROR(
        NULL, SHAPE(3, 5), SHAPE(2, 3, 4, 5), SHAPE(2, 3, 4, 5), CLSEL_ERROR_INVALID_SHAPE,
        "numpy broadcast: cond {3,5} cannot be broadcast to {2,3,4,5} (cond dim 0: 3 vs 4");
    EXPECT_ERROR(NULL, SHAPE(2, 3), SHAPE(3), SHAPE(3), CLSEL_ERROR_INVALID_SHAPE,
                 "bidirectional would accept it");
    EXPECT_SHAPE(numpy_two_way(), SHAPE(2, 3), SHAPE(3), SHAPE(3), SHAPE(2, 3));
    EXPECT_SHAPE(NULL, SCALAR, SHAPE(2, 3, 4, 5), SHAPE(5), SHAPE(2, 3, 4, 5));
    EXPECT_ERROR(numpy_one_way(), SHAPE(1, 1, 3), SHAPE(1, 3, 1), SHAPE(3, 1, 1),
                 CLSEL_ERROR_INVALID_SHAPE, "cond {1,1,3} cannot be broadcast to {3,3,1}");
    EXPECT_SHAPE(numpy_two_way(), SHAPE(1, 1, 3), SHAPE(1, 3, 1), SHAPE(3, 1, 1), SHAPE(3, 3, 3));
    /* then and else broadcast two ways. */
    EXPECT_SHAPE(NULL, SCALAR, SHAPE(2, 1), SHAPE(1, 3), SHAPE(2, 3));
    EXPECT_SHAPE(NULL, SHAPE(3), SHAPE(4, 1), SHAPE(3), SHAPE(4, 3));
    EXPECT_ERROR(NULL, SCALAR, SHAPE(2, 3), SHAPE(2, 4), CLSEL_ERROR_INVALID_SHAPE,
                 "then {2,3} and else {2,4} do not broadcast (then dim 1: 3 vs else dim 1: 4)");
    EXPECT_ERROR(numpy_two_way(), SHAPE(3, 5), SHAPE(2, 4), SHAPE(2, 4), CLSEL_ERROR_INVALID_SHAPE,
                 "cond {3,5} and broadcast(then, else) {2,4} do not broadcast");
    /* Rank 0, [] vs [1]. */
    EXPECT_SHAPE(NULL, SCALAR, SCALAR, SCALAR, SCALAR);
    EXPECT_SHAPE(NULL, SCALAR, SHAPE(1), SCALAR, SHAPE(1));
    EXPECT_SHAPE(NULL, SHAPE(1), SHAPE(1), SHAPE(1, 1), SHAPE(1, 1));
    EXPECT_ERROR(NULL, SHAPE(1), SCALAR, SCALAR, CLSEL_ERROR_INVALID_SHAPE, "rank 1 > 0");
    EXPECT_SHAPE(numpy_two_way(), SHAPE(1), SCALAR, SCALAR, SHAPE(1));
    /* Zero-size dims: 0 with 1 -> 0, 0 with 0 -> 0, 0 with n > 1 -> error. */
    EXPECT_SHAPE(NULL, SHAPE(1), SHAPE(0, 3), SHAPE(1, 3), SHAPE(0, 3));
    EXPECT_SHAPE(NULL, SHAPE(0, 1), SHAPE(0, 3), SHAPE(0, 3), SHAPE(0, 3));
    EXPECT_ERROR(NULL, SCALAR, SHAPE(0, 3), SHAPE(2, 3), CLSEL_ERROR_INVALID_SHAPE,
                 "dim 0: 0 vs else dim 0: 2");
    EXPECT_ERROR(NULL, SHAPE(0), SHAPE(1), SHAPE(1), CLSEL_ERROR_INVALID_SHAPE,
                 "cond {0} cannot be broadcast to {1}");
    EXPECT_SHAPE(numpy_two_way(), SHAPE(0), SHAPE(1), SHAPE(1), SHAPE(0));
    /* Rank 8. */
    EXPECT_SHAPE(NULL, SHAPE(2, 1, 2, 1, 2, 1, 2, 1), SHAPE(1, 3, 1, 3, 1, 3, 1, 3),
                 SHAPE(2, 3, 2, 3, 2, 3, 2, 3), SHAPE(2, 3, 2, 3, 2, 3, 2, 3));
}

static void test_none(void)
{
    EXPECT_SHAPE(none(), SHAPE(2, 4), SHAPE(2, 4), SHAPE(2, 4), SHAPE(2, 4));
    EXPECT_SHAPE(none(), SCALAR, SCALAR, SCALAR, SCALAR);
    EXPECT_SHAPE(none(), SHAPE(0, 4), SHAPE(0, 4), SHAPE(0, 4), SHAPE(0, 4));
    EXPECT_ERROR(none(), SHAPE(1, 4), SHAPE(2, 4), SHAPE(2, 4), CLSEL_ERROR_INVALID_SHAPE,
                 "none broadcast: shapes must be identical: cond {1,4}, then {2,4}, else {2,4}");
    EXPECT_ERROR(none(), SHAPE(1), SCALAR, SCALAR, CLSEL_ERROR_INVALID_SHAPE,
                 "cond {1}, then {}, else {}");
    EXPECT_ERROR(none(), SHAPE(2, 4), SHAPE(2, 4), SHAPE(4), CLSEL_ERROR_INVALID_SHAPE, "else {4}");
}

static void test_pdpd(void)
{
    /* docs/semantics.md, pdpd mode, then {2,3,4,5}. */
    const clsel_shape big = SHAPE(2, 3, 4, 5);
    EXPECT_SHAPE(pdpd(1), SCALAR, big, SHAPE(3, 4), big);
    EXPECT_SHAPE(pdpd(1), SCALAR, big, SHAPE(3, 1), big);
    EXPECT_SHAPE(pdpd(-1), SCALAR, big, SHAPE(4, 5), big);
    EXPECT_SHAPE(pdpd(2), SCALAR, big, SHAPE(4, 5), big);
    EXPECT_SHAPE(pdpd(0), SCALAR, big, SHAPE(1, 3), big);
    EXPECT_SHAPE(pdpd(-1), SCALAR, big, SCALAR, big);
    EXPECT_SHAPE(pdpd(-1), SHAPE(5), big, SHAPE(5), big);
    EXPECT_SHAPE(pdpd(3), SHAPE(5), big, SHAPE(5), big);
    EXPECT_ERROR(pdpd(1), SCALAR, SHAPE(8, 1, 6, 1), SHAPE(7, 1, 5), CLSEL_ERROR_INVALID_SHAPE,
                 "pdpd broadcast (axis 1): else {7,1,5} cannot be placed in then {8,1,6,1}: else "
                 "dim 0 = 7 vs then dim 1 = 1");
    /* Trailing 1s of the placed input are ignored. */
    EXPECT_SHAPE(pdpd(1), SCALAR, SHAPE(2, 3), SHAPE(3, 1), SHAPE(2, 3));
    EXPECT_SHAPE(pdpd(1), SHAPE(3, 1), SHAPE(2, 3), SCALAR, SHAPE(2, 3));
    /* The default axis is computed per input (pitfalls 2b). */
    EXPECT_SHAPE(pdpd(-1), SHAPE(4), SHAPE(2, 3, 4), SHAPE(2, 3, 4), SHAPE(2, 3, 4));
    EXPECT_SHAPE(pdpd(-1), SHAPE(3, 4), SHAPE(2, 3, 4), SHAPE(4), SHAPE(2, 3, 4));
    /* then is never broadcast; inputs never enlarge it. */
    EXPECT_ERROR(pdpd(-1), SCALAR, SHAPE(1, 4), SHAPE(3, 4), CLSEL_ERROR_INVALID_SHAPE,
                 "else dim 0 = 3 vs then dim 0 = 1");
    EXPECT_ERROR(pdpd(-1), SHAPE(2, 2, 4), SHAPE(2, 4), SCALAR, CLSEL_ERROR_INVALID_SHAPE,
                 "cond {2,2,4} has rank 3 > rank 2 of then {2,4}");
    EXPECT_ERROR(pdpd(3), SCALAR, big, SHAPE(4, 5), CLSEL_ERROR_INVALID_SHAPE,
                 "runs past then {2,3,4,5}");
    EXPECT_ERROR(pdpd(5), SCALAR, big, SCALAR, CLSEL_ERROR_INVALID_SHAPE, "placed at dim 5");
    EXPECT_ERROR(pdpd(-2), SCALAR, big, SCALAR, CLSEL_ERROR_INVALID_ARGUMENT, "axis -2 is invalid");
    EXPECT_ERROR(pdpd(INT64_MAX), SCALAR, big, SHAPE(5), CLSEL_ERROR_INVALID_SHAPE, "runs past");
    /* numpy and pdpd disagree on then {3,3}, else {3}, cond {3}: both valid. */
    EXPECT_SHAPE(pdpd(0), SHAPE(3), SHAPE(3, 3), SHAPE(3), SHAPE(3, 3));
    EXPECT_SHAPE(NULL, SHAPE(3), SHAPE(3, 3), SHAPE(3), SHAPE(3, 3));
    /* The cond_broadcast attribute does not apply outside numpy. */
    clsel_attrs a = attrs_of(CLSEL_BROADCAST_PDPD, 1, CLSEL_COND_BIDIRECTIONAL);
    EXPECT_SHAPE(&a, SHAPE(4), SHAPE(2, 4), SHAPE(4), SHAPE(2, 4));
    EXPECT_SHAPE(pdpd(0), SHAPE(4), SHAPE(4, 2, 3, 8), SHAPE(4, 2, 3, 1), SHAPE(4, 2, 3, 8));
}

static void test_bad_input(void)
{
    clsel_shape bad_rank = SCALAR, ok = SHAPE(2), out = SHAPE(99);
    bad_rank.rank = 9;
    CHECK_STATUS(clsel_infer_shape(&bad_rank, &ok, &ok, NULL, &out), CLSEL_ERROR_INVALID_SHAPE);
    CHECK(strstr(clsel_last_error(), "cond rank 9 is outside 0..8"));
    bad_rank.rank = -1;
    CHECK_STATUS(clsel_infer_shape(&ok, &bad_rank, &ok, NULL, &out), CLSEL_ERROR_INVALID_SHAPE);
    CHECK(strstr(clsel_last_error(), "then rank -1"));
    EXPECT_ERROR(NULL, SCALAR, SHAPE(2, -3), SHAPE(2, 3), CLSEL_ERROR_INVALID_SHAPE,
                 "then {2,-3}: dim 1 is negative (-3)");
    EXPECT_ERROR(NULL, SCALAR, SHAPE(INT64_MAX / 2, 4), SCALAR, CLSEL_ERROR_OVERFLOW,
                 "then {4611686018427387903,4}");
    EXPECT_ERROR(NULL, SCALAR, SHAPE(1ll << 40, 1), SHAPE(1, 1ll << 40), CLSEL_ERROR_OVERFLOW,
                 "output {1099511627776,1099511627776} has more than 2^63-1 elements");
    /* A zero dim makes the count 0 even next to huge dims. */
    EXPECT_SHAPE(NULL, SCALAR, SHAPE(0, INT64_MAX, INT64_MAX), SCALAR,
                 SHAPE(0, INT64_MAX, INT64_MAX));

    clsel_attrs a = clsel_attrs_default();
    a.broadcast = (clsel_broadcast)3;
    EXPECT_ERROR(&a, SCALAR, SCALAR, SCALAR, CLSEL_ERROR_INVALID_ARGUMENT,
                 "unknown broadcast mode 3");
    a = clsel_attrs_default();
    a.cond_broadcast = (clsel_cond_broadcast)2;
    EXPECT_ERROR(&a, SCALAR, SCALAR, SCALAR, CLSEL_ERROR_INVALID_ARGUMENT,
                 "unknown cond_broadcast 2");

    CHECK_STATUS(clsel_infer_shape(NULL, &ok, &ok, NULL, &out), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(clsel_infer_shape(&ok, &ok, NULL, NULL, &out), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "else shape is NULL"));
    CHECK_STATUS(clsel_infer_shape(&ok, &ok, &ok, NULL, NULL), CLSEL_ERROR_INVALID_ARGUMENT);

    /* The element count fits, the byte size does not: the plan rejects it. */
    clsel_shape huge = SHAPE(1ll << 61), s = SCALAR;
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_infer_shape(&s, &huge, &s, NULL, &out));
    CHECK_STATUS(clsel_plan_create(CLSEL_F64, &s, &huge, &s, NULL, &plan), CLSEL_ERROR_OVERFLOW);
    CHECK(plan == NULL && strstr(clsel_last_error(), "2305843009213693952 elements x 8 bytes"));
    CHECK_OK(clsel_plan_create(CLSEL_U8, &s, &huge, &s, NULL, &plan));
    CHECK(clsel_plan_output_count(plan) == (1ll << 61));
    clsel_plan_destroy(plan);
}

/* The collapsed geometry, read from clsel_plan_describe ("-> N dims [...]"). */
static void expect_collapse(clsel_shape c, clsel_shape t, clsel_shape e, const clsel_attrs *attrs,
                            const char *expected)
{
    clsel_plan *plan = NULL;
    char text[512];
    CHECK_OK(clsel_plan_create(CLSEL_F32, &c, &t, &e, attrs, &plan));
    clsel_plan_describe(plan, text, sizeof text);
    CHECK_MSG(strstr(text, expected) != NULL, "\"%s\" lacks \"%s\"", text, expected);
    clsel_plan_destroy(plan);
}

static void test_collapse(void)
{
    expect_collapse(SHAPE(2, 3, 4, 5), SHAPE(2, 3, 4, 5), SHAPE(2, 3, 4, 5), NULL,
                    "-> 1 dims [120] cond:[1] then:[1] else:[1] out:[1]");
    /* masked_fill: else scalar. */
    expect_collapse(SHAPE(6, 7), SHAPE(6, 7), SCALAR, NULL,
                    "-> 1 dims [42] cond:[1] then:[1] else:[0]");
    /* Attention mask [B,1,S,S] against [B,H,S,S]: 3 dims. */
    expect_collapse(SHAPE(2, 1, 8, 8), SHAPE(2, 4, 8, 8), SCALAR, NULL,
                    "-> 3 dims [64,4,2] cond:[1,0,64] then:[1,64,256] else:[0,0,0] out:[1,64,256]");
    /* Row broadcast [R,1] and column broadcast [1,C]. */
    expect_collapse(SHAPE(1, 5), SHAPE(6, 1), SHAPE(6, 5), NULL,
                    "-> 2 dims [5,6] cond:[1,0] then:[0,1] else:[1,5]");
    /* Size-1 dims vanish; rank 0 and all-ones give 0 dims. */
    expect_collapse(SHAPE(1, 3, 1), SHAPE(1, 3, 1), SHAPE(3, 1), NULL, "-> 1 dims [3]");
    expect_collapse(SCALAR, SCALAR, SCALAR, NULL, "-> 0 dims [] cond:[] then:[]");
    expect_collapse(SHAPE(1), SHAPE(1, 1), SCALAR, NULL, "-> 0 dims []");
    /* Alternating broadcast does not collapse. */
    expect_collapse(SHAPE(2, 1, 2, 1, 2), SHAPE(1, 3, 1, 3, 1), SHAPE(2, 3, 2, 3, 2), NULL,
                    "-> 5 dims [2,3,2,3,2]");
    /* pdpd: else placed on dims 1..2 of then {2,3,4,5}. */
    expect_collapse(SCALAR, SHAPE(2, 3, 4, 5), SHAPE(3, 4), pdpd(1),
                    "-> 3 dims [5,12,2] cond:[0,0,0] then:[1,5,60] else:[0,1,0]");
}

static const test_case cases[] = {
    {"numpy", test_numpy},         {"none", test_none},         {"pdpd", test_pdpd},
    {"bad_input", test_bad_input}, {"collapse", test_collapse},
};

int main(int argc, char **argv)
{
    const check_suite suite = {"test_shapes", cases, CHECK_COUNT(cases), NULL, 0, NULL, NULL};
    return check_main(argc, argv, &suite);
}
