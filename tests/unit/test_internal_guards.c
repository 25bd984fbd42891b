/* test_internal_guards.c - the guards of internal helpers against values that the public API
 * never hands them (it checks its arguments first), called directly: an allocation whose size
 * overflows, the text of a shape whose rank is out of range, OpenCL codes without a name, and
 * kernel variants that do not exist. Each guard is the last line of defence should a caller
 * inside the library get it wrong, so each must answer as its header says.
 *
 *   test_internal_guards [CASE...] */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "common/alloc.h"
#include "common/cl_codes.h"
#include "common/error.h"
#include "opencl/cl_context.h"
#include "opencl/cl_program.h"

/* count * size past SIZE_MAX: NULL rather than a short block; a zero count still allocates. */
static void test_calloc_overflow(void)
{
    CHECK(clsel_priv_calloc(SIZE_MAX / 8 + 1, 8) == NULL);
    CHECK(clsel_priv_calloc(2, SIZE_MAX) == NULL);
    unsigned char *none = clsel_priv_calloc(0, 8), *some = clsel_priv_calloc(3, 4);
    CHECK(none != NULL && some != NULL);
    for (int i = 0; some && i < 12; ++i)
        CHECK(some[i] == 0);
    clsel_priv_free(none);
    clsel_priv_free(some);
}

/* A rank below 0 prints as a scalar, one above CLSEL_MAX_RANK as its first CLSEL_MAX_RANK dims;
 * the widest dims still fit the buffer. */
static void test_shape_text(void)
{
    char buf[CLSEL_SHAPE_TEXT_MAX];
    clsel_shape s = {-3, {7}};
    CHECK(strcmp(clsel_priv_shape_text(&s, buf), "{}") == 0);
    s.rank = CLSEL_MAX_RANK + 5;
    for (int d = 0; d < CLSEL_MAX_RANK; ++d)
        s.dims[d] = d + 1;
    CHECK_MSG(strcmp(clsel_priv_shape_text(&s, buf), "{1,2,3,4,5,6,7,8}") == 0, "got %s", buf);
    s.rank = CLSEL_MAX_RANK;
    for (int d = 0; d < CLSEL_MAX_RANK; ++d)
        s.dims[d] = INT64_MIN;
    clsel_priv_shape_text(&s, buf);
    CHECK(strlen(buf) < sizeof buf && buf[0] == '{' && buf[strlen(buf) - 1] == '}');
}

/* Every code has a name; one that OpenCL does not define reads as unknown. */
static void test_cl_code_names(void)
{
    static const struct {
        int32_t code;
        const char *name;
    } codes[] = {
        {0, "CL_SUCCESS"},
        {-5, "CL_OUT_OF_RESOURCES"},
        {-72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED"},
        {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
        {-25, "unknown OpenCL error"}, /* a gap in the table: -20 to -29 are unassigned */
        {-73, "unknown OpenCL error"},
        {7, "unknown OpenCL error"},
        {INT32_MIN, "unknown OpenCL error"},
    };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; ++i)
        CHECK_MSG(strcmp(clsel_priv_cl_code_name(codes[i].code), codes[i].name) == 0,
                  "%d: %s, expected %s", (int)codes[i].code, clsel_priv_cl_code_name(codes[i].code),
                  codes[i].name);
}

/* A variant with a width, rank class, kind or item count that does not exist has no slot, and
 * asking a context for its kernel fails before the context is touched; every real one has a slot,
 * each item count its own. */
static void test_kernel_variants(void)
{
    const kernel_variant good = {
        4, 2, {CLSEL_READ_ROWS, CLSEL_READ_ROWS, CLSEL_READ_ROWS}, CLSEL_WRITE_ROWS, 1, 4};
    CHECK(clsel_priv_cl_variant_index(&good) >= 0 &&
          clsel_priv_cl_variant_index(&good) < KERNEL_VARIANTS);
    kernel_variant bad[10];
    for (int i = 0; i < 10; ++i)
        bad[i] = good;
    bad[0].width = 3;
    bad[1].rank = 7; /* not a rank class */
    bad[2].write = -1;
    bad[3].write = CLSEL_WRITES;
    bad[4].read[0] = -1;
    bad[5].read[2] = CLSEL_READS;
    bad[6].rank = -1;
    bad[7].items = 0;
    bad[8].items = 3;  /* not a power of two */
    bad[9].items = 16; /* more than a kernel takes */
    for (int i = 0; i < 10; ++i) {
        CHECK_MSG(clsel_priv_cl_variant_index(&bad[i]) == -1, "bad variant %d has a slot", i);
        kernel_program *kp = (kernel_program *)&kp;
        CHECK(clsel_priv_cl_context_kernel(NULL, &bad[i], &kp) == CLSEL_ERROR_INVALID_ARGUMENT);
        CHECK(strstr(clsel_last_error(), "no kernel for elements of") != NULL);
    }
    for (int32_t rank = 0; rank <= CLSEL_MAX_RANK; ++rank) {
        kernel_variant v = good;
        v.rank = clsel_priv_cl_rank_class(rank);
        CHECK_MSG(v.rank >= (rank ? rank : 1) && clsel_priv_cl_variant_index(&v) >= 0,
                  "rank %d: class %d", (int)rank, v.rank);
    }
    for (unsigned items = 1; items <= 8; items *= 2) {
        kernel_variant v = good;
        v.items = items;
        const int index = clsel_priv_cl_variant_index(&v);
        CHECK_MSG(index >= 0 && index < KERNEL_VARIANTS &&
                      (index == clsel_priv_cl_variant_index(&good)) == (items == 4),
                  "%u items: slot %d", items, index);
    }
    CHECK(clsel_priv_cl_items(3) == 1);
    char options[8];
    CHECK(clsel_priv_cl_program_options(&good, options, sizeof options) == 0);
}

static const test_case cases[] = {
    {"calloc_overflow", test_calloc_overflow},
    {"shape_text", test_shape_text},
    {"cl_code_names", test_cl_code_names},
    {"kernel_variants", test_kernel_variants},
};

int main(int argc, char **argv)
{
    const check_suite suite = {
        "test_internal_guards", cases, CHECK_COUNT(cases), NULL, 0, NULL, NULL};
    return check_main(argc, argv, &suite);
}
