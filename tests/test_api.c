/* test_api.c - the small public functions: names, sizes, versions, statuses, dtype
 * rules, NULL handling of the plan queries. */
#include <string.h>

#include "check.h"
#include "test_util.h"

static void test_dtypes(void)
{
    static const struct {
        clsel_dtype t;
        const char *name, *alias;
        size_t size;
    } table[] = {
        {CLSEL_BOOLEAN, "boolean", "bool", 1}, {CLSEL_U8, "u8", "uint8", 1},     {CLSEL_I8, "i8", "int8", 1},
        {CLSEL_U16, "u16", "uint16", 2},       {CLSEL_I16, "i16", "int16", 2},   {CLSEL_F16, "f16", "float16", 2},
        {CLSEL_BF16, "bf16", "bfloat16", 2},   {CLSEL_U32, "u32", "uint32", 4},  {CLSEL_I32, "i32", "int32", 4},
        {CLSEL_F32, "f32", "float32", 4},      {CLSEL_U64, "u64", "uint64", 8},  {CLSEL_I64, "i64", "int64", 8},
        {CLSEL_F64, "f64", "float64", 8},
    };
    /* The enum numbers are ABI. */
    CHECK(CLSEL_DTYPE_INVALID == 0 && CLSEL_BOOLEAN == 1 && CLSEL_F16 == 6 && CLSEL_BF16 == 7 && CLSEL_F64 == 13);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
        CHECK(clsel_dtype_size(table[i].t) == table[i].size);
        CHECK(strcmp(clsel_dtype_name(table[i].t), table[i].name) == 0);
        CHECK(clsel_dtype_from_name(table[i].name) == table[i].t);
        CHECK(clsel_dtype_from_name(table[i].alias) == table[i].t);
    }
    CHECK(clsel_dtype_size(CLSEL_DTYPE_INVALID) == 0);
    CHECK(clsel_dtype_size((clsel_dtype)14) == 0);
    CHECK(clsel_dtype_size((clsel_dtype)-1) == 0);
    CHECK(strcmp(clsel_dtype_name((clsel_dtype)99), "invalid") == 0);
    CHECK(clsel_dtype_from_name(NULL) == CLSEL_DTYPE_INVALID);
    CHECK(clsel_dtype_from_name("float128") == CLSEL_DTYPE_INVALID);
    CHECK(clsel_dtype_from_name("") == CLSEL_DTYPE_INVALID);
}

static void test_statuses(void)
{
    CHECK(CLSEL_SUCCESS == 0 && CLSEL_ERROR_INVALID_ARGUMENT == 1 && CLSEL_ERROR_OPENCL == 9);
    for (int s = 0; s <= CLSEL_ERROR_OPENCL; ++s) {
        const char *text = clsel_status_string((clsel_status)s);
        CHECK(text && *text && strcmp(text, "unknown status") != 0);
    }
    CHECK(strcmp(clsel_status_string((clsel_status)1234), "unknown status") == 0);
    CHECK(clsel_last_error() != NULL);
}

static void test_version(void)
{
    char expected[64];
    snprintf(expected, sizeof expected, "%d.%d.%d", CLSEL_VERSION_MAJOR, CLSEL_VERSION_MINOR, CLSEL_VERSION_PATCH);
    CHECK(strcmp(clsel_version(), expected) == 0);
    CHECK(CLSEL_MAX_RANK == 8);
    clsel_attrs a = clsel_attrs_default();
    CHECK(a.broadcast == CLSEL_BROADCAST_NUMPY && a.axis == -1 && a.cond_broadcast == CLSEL_COND_ONE_WAY);
}

static void test_dtype_rules(void)
{
    for (int i = 0; i < 13; ++i) {
        CHECK_OK(clsel_check_dtypes(CLSEL_BOOLEAN, all_dtypes[i], all_dtypes[i]));
        CHECK_OK(clsel_check_dtypes(CLSEL_U8, all_dtypes[i], all_dtypes[i]));
    }
    CHECK_STATUS(clsel_check_dtypes(CLSEL_F32, CLSEL_F32, CLSEL_F32), CLSEL_ERROR_INVALID_DTYPE);
    CHECK(strstr(clsel_last_error(), "cond") && strstr(clsel_last_error(), "f32"));
    CHECK_STATUS(clsel_check_dtypes(CLSEL_I8, CLSEL_F32, CLSEL_F32), CLSEL_ERROR_INVALID_DTYPE);
    CHECK_STATUS(clsel_check_dtypes(CLSEL_BOOLEAN, CLSEL_F32, CLSEL_I32), CLSEL_ERROR_INVALID_DTYPE);
    CHECK(strstr(clsel_last_error(), "then is f32") && strstr(clsel_last_error(), "else is i32"));
    CHECK_STATUS(clsel_check_dtypes(CLSEL_BOOLEAN, CLSEL_DTYPE_INVALID, CLSEL_DTYPE_INVALID),
                 CLSEL_ERROR_INVALID_DTYPE);
    CHECK_STATUS(clsel_check_dtypes(CLSEL_BOOLEAN, (clsel_dtype)77, (clsel_dtype)77), CLSEL_ERROR_INVALID_DTYPE);
}

static void test_plan_queries(void)
{
    CHECK(clsel_plan_output_shape(NULL) == NULL);
    CHECK(clsel_plan_output_count(NULL) == 0);
    CHECK(clsel_plan_output_bytes(NULL) == 0);
    CHECK(clsel_plan_dtype(NULL) == CLSEL_DTYPE_INVALID);
    CHECK(clsel_plan_input_count(NULL, CLSEL_OPERAND_COND) == -1);
    clsel_plan_destroy(NULL);

    clsel_shape c = SHAPE(4, 1), t = SHAPE(3), e = SHAPE(4, 3);
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(CLSEL_F64, &c, &t, &e, NULL, &plan));
    CHECK(plan != NULL);
    clsel_shape want = SHAPE(4, 3);
    CHECK(shape_equal(clsel_plan_output_shape(plan), &want));
    CHECK(clsel_plan_output_count(plan) == 12);
    CHECK(clsel_plan_output_bytes(plan) == 96);
    CHECK(clsel_plan_dtype(plan) == CLSEL_F64);
    CHECK(clsel_plan_input_count(plan, CLSEL_OPERAND_COND) == 4);
    CHECK(clsel_plan_input_count(plan, CLSEL_OPERAND_THEN) == 3);
    CHECK(clsel_plan_input_count(plan, CLSEL_OPERAND_ELSE) == 12);
    CHECK(clsel_plan_input_count(plan, (clsel_operand)3) == -1);
    char text[256];
    size_t need = clsel_plan_describe(plan, text, sizeof text);
    CHECK(need == strlen(text) && strstr(text, "f64") && strstr(text, "{4,3}"));
    char small[8];
    CHECK(clsel_plan_describe(plan, small, sizeof small) == need && strlen(small) == 7);
    CHECK(clsel_plan_describe(NULL, small, sizeof small) == 0 && small[0] == '\0');
    clsel_plan_destroy(plan);

    plan = (clsel_plan *)&plan; /* must stay untouched on failure */
    clsel_plan *before = plan;
    CHECK_STATUS(clsel_plan_create(CLSEL_DTYPE_INVALID, &c, &t, &e, NULL, &plan), CLSEL_ERROR_INVALID_DTYPE);
    CHECK(plan == before);
    CHECK_STATUS(clsel_plan_create(CLSEL_F32, &c, &t, &e, NULL, NULL), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(clsel_plan_create(CLSEL_F32, NULL, &t, &e, NULL, &plan), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "cond"));
    CHECK(plan == before);
}

int main(void)
{
    test_dtypes();
    test_statuses();
    test_version();
    test_dtype_rules();
    test_plan_queries();
    return check_report("test_api");
}
