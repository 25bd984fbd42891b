/* test_api.c - the small public functions: names, sizes, versions, statuses, dtype
 * rules, NULL handling of the plan queries, the caller's allocator, option structs of
 * other sizes (older and newer headers). */
#include <stdlib.h>
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
        {CLSEL_BOOLEAN, "boolean", "bool", 1}, {CLSEL_U8, "u8", "uint8", 1},
        {CLSEL_I8, "i8", "int8", 1},           {CLSEL_U16, "u16", "uint16", 2},
        {CLSEL_I16, "i16", "int16", 2},        {CLSEL_F16, "f16", "float16", 2},
        {CLSEL_BF16, "bf16", "bfloat16", 2},   {CLSEL_U32, "u32", "uint32", 4},
        {CLSEL_I32, "i32", "int32", 4},        {CLSEL_F32, "f32", "float32", 4},
        {CLSEL_U64, "u64", "uint64", 8},       {CLSEL_I64, "i64", "int64", 8},
        {CLSEL_F64, "f64", "float64", 8},
    };
    /* The enum numbers are ABI. */
    CHECK(CLSEL_DTYPE_INVALID == 0 && CLSEL_BOOLEAN == 1 && CLSEL_F16 == 6 && CLSEL_BF16 == 7 &&
          CLSEL_F64 == 13);
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
    /* NULL where an object belongs: INVALID_ARGUMENT, naming the argument. */
    CHECK(clsel_runtime_set_zero_copy(NULL, 1) == CLSEL_ERROR_INVALID_ARGUMENT &&
          strstr(clsel_last_error(), "rt is NULL"));
    CHECK(clsel_runtime_set_chunk_bytes(NULL, 1) == CLSEL_ERROR_INVALID_ARGUMENT &&
          strstr(clsel_last_error(), "rt is NULL"));
    clsel_device_info info;
    CHECK(clsel_list_devices(&info, 1, NULL) == CLSEL_ERROR_INVALID_ARGUMENT &&
          strstr(clsel_last_error(), "count is NULL"));
    int32_t count = -1;
    CHECK(clsel_list_devices(NULL, 1, &count) == CLSEL_ERROR_INVALID_ARGUMENT &&
          strstr(clsel_last_error(), "devices is NULL") && count == -1);
}

static void test_version(void)
{
    char expected[64];
    snprintf(expected, sizeof expected, "%d.%d.%d", CLSEL_VERSION_MAJOR, CLSEL_VERSION_MINOR,
             CLSEL_VERSION_PATCH);
    CHECK(strcmp(clsel_version(), expected) == 0);
    CHECK(CLSEL_MAX_RANK == 8);
    clsel_attrs a = clsel_attrs_default();
    CHECK(a.broadcast == CLSEL_BROADCAST_NUMPY && a.axis == -1 &&
          a.cond_broadcast == CLSEL_COND_ONE_WAY);
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
    CHECK_STATUS(clsel_check_dtypes(CLSEL_BOOLEAN, CLSEL_F32, CLSEL_I32),
                 CLSEL_ERROR_INVALID_DTYPE);
    CHECK(strstr(clsel_last_error(), "then is f32") && strstr(clsel_last_error(), "else is i32"));
    CHECK_STATUS(clsel_check_dtypes(CLSEL_BOOLEAN, CLSEL_DTYPE_INVALID, CLSEL_DTYPE_INVALID),
                 CLSEL_ERROR_INVALID_DTYPE);
    CHECK_STATUS(clsel_check_dtypes(CLSEL_BOOLEAN, (clsel_dtype)77, (clsel_dtype)77),
                 CLSEL_ERROR_INVALID_DTYPE);
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
    CHECK_STATUS(clsel_plan_create(CLSEL_DTYPE_INVALID, &c, &t, &e, NULL, &plan),
                 CLSEL_ERROR_INVALID_DTYPE);
    CHECK(plan == before);
    CHECK_STATUS(clsel_plan_create(CLSEL_F32, &c, &t, &e, NULL, NULL),
                 CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(clsel_plan_create(CLSEL_F32, NULL, &t, &e, NULL, &plan),
                 CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "cond"));
    CHECK(plan == before);
}

/* An allocator that counts what it hands out and takes back, and fails when told to. */
typedef struct counting_allocator {
    long allocated, released;
    int fail;
} counting_allocator;

static void *counting_allocate(void *user, size_t size)
{
    counting_allocator *a = user;
    if (a->fail || size == 0)
        return NULL;
    a->allocated++;
    return malloc(size);
}

static void counting_release(void *user, void *memory)
{
    counting_allocator *a = user;
    a->released++;
    free(memory);
}

static void test_allocator(void)
{
    counting_allocator counts = {0, 0, 0};
    clsel_allocator mine = {counting_allocate, counting_release, &counts};
    clsel_allocator broken = mine;
    broken.release = NULL;
    CHECK_STATUS(clsel_set_allocator(&broken), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "release"));
    broken = mine;
    broken.allocate = NULL;
    CHECK_STATUS(clsel_set_allocator(&broken), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "allocate"));

    CHECK_OK(clsel_set_allocator(&mine));
    clsel_shape s = SHAPE(2, 3);
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(CLSEL_U8, &s, &s, &s, NULL, &plan));
    CHECK_MSG(counts.allocated == 1 && counts.released == 0, "plan: %ld allocated, %ld released",
              counts.allocated, counts.released);
    clsel_plan_destroy(plan);
    CHECK(counts.released == 1);
    counts.fail = 1; /* out of memory: a status and a message, nothing handed out */
    plan = (clsel_plan *)&plan;
    CHECK_STATUS(clsel_plan_create(CLSEL_U8, &s, &s, &s, NULL, &plan), CLSEL_ERROR_OUT_OF_MEMORY);
    CHECK(plan == (clsel_plan *)&plan && *clsel_last_error() != '\0');
    CHECK_OK(clsel_set_allocator(NULL)); /* back to malloc/free */
    plan = NULL;
    CHECK_OK(clsel_plan_create(CLSEL_U8, &s, &s, &s, NULL, &plan));
    clsel_plan_destroy(plan);
    CHECK(counts.allocated == 1 && counts.released == 1);
}

/* The option structs as a newer header would have them: one more field. */
typedef struct newer_attrs {
    clsel_attrs known;
    uint64_t added;
} newer_attrs;
typedef struct newer_cpu_options {
    clsel_cpu_options known;
    uint64_t added;
} newer_cpu_options;

static void test_option_sizes(void)
{
    clsel_shape s = SHAPE(2, 3);
    clsel_plan *plan = NULL;
    clsel_attrs a = clsel_attrs_default();
    CHECK(a.struct_size == sizeof(clsel_attrs));
    a.struct_size = 0; /* not started from clsel_attrs_default() */
    CHECK_STATUS(clsel_plan_create(CLSEL_U8, &s, &s, &s, &a, &plan), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "clsel_attrs.struct_size is 0") && plan == NULL);
    clsel_shape out;
    CHECK_STATUS(clsel_infer_shape(&s, &s, &s, &a, &out), CLSEL_ERROR_INVALID_ARGUMENT);

    newer_attrs newer;
    memset(&newer, 0, sizeof newer);
    newer.known = clsel_attrs_default();
    newer.known.struct_size = sizeof newer;
    newer.known.broadcast = CLSEL_BROADCAST_NONE; /* read: the known fields still count */
    clsel_shape other = SHAPE(3);
    CHECK_STATUS(clsel_infer_shape(&s, &other, &s, &newer.known, &out), CLSEL_ERROR_INVALID_SHAPE);
    CHECK_OK(
        clsel_infer_shape(&s, &s, &s, &newer.known, &out)); /* the added field at its default */
    newer.added = 7;
    CHECK_STATUS(clsel_plan_create(CLSEL_U8, &s, &s, &s, &newer.known, &plan),
                 CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "knows only its first") && plan == NULL);

    CHECK_OK(clsel_plan_create(CLSEL_U8, &s, &s, &s, NULL, &plan));
    uint8_t cond[6] = {1, 0, 1, 0, 1, 0}, t[6] = {1, 2, 3, 4, 5, 6}, e[6] = {9, 9, 9, 9, 9, 9},
            got[6] = {0};
    clsel_cpu_options o = clsel_cpu_options_default();
    CHECK(o.struct_size == sizeof(clsel_cpu_options) && o.threads == 1);
    o.struct_size = 4;
    CHECK_STATUS(clsel_plan_run_cpu_options(plan, cond, t, e, got, &o),
                 CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "clsel_cpu_options.struct_size is 4") && got[0] == 0);
    o = clsel_cpu_options_default();
    o.threads = -2;
    CHECK_STATUS(clsel_plan_run_cpu_options(plan, cond, t, e, got, &o),
                 CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "threads is -2") && got[0] == 0);
    newer_cpu_options newer_options;
    memset(&newer_options, 0, sizeof newer_options);
    newer_options.known = clsel_cpu_options_default();
    newer_options.known.struct_size = sizeof newer_options;
    CHECK_OK(clsel_plan_run_cpu_options(plan, cond, t, e, got, &newer_options.known));
    CHECK(got[0] == 1 && got[1] == 9 && got[5] == 9);
    clsel_plan_destroy(plan);
}

/* Strided plans: what they refuse (with the values named), the extent they report, and the overlap
 * rule on views. */
static void test_strides(void)
{
    const clsel_shape s = SHAPE(3, 4);
    clsel_plan *plan = NULL;
    clsel_strides st = clsel_strides_default();
    st.strided = 1u << 4;
    CHECK_STATUS(clsel_plan_create_strided(CLSEL_F32, &s, &s, &s, NULL, &st, &plan),
                 CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "0x10") != NULL && plan == NULL);
    st = clsel_strides_default();
    st.struct_size = 4;
    CHECK_STATUS(clsel_plan_create_strided(CLSEL_F32, &s, &s, &s, NULL, &st, &plan),
                 CLSEL_ERROR_INVALID_ARGUMENT);

    /* An output that writes one element twice: a stride of 0, or axes that interleave. */
    st = clsel_strides_default();
    st.strided = CLSEL_STRIDED(CLSEL_OPERAND_OUT);
    st.strides[CLSEL_OPERAND_OUT][0] = 0, st.strides[CLSEL_OPERAND_OUT][1] = 1;
    CHECK_STATUS(clsel_plan_create_strided(CLSEL_F32, &s, &s, &s, NULL, &st, &plan),
                 CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(clsel_last_error(), "stride 0 of axis 0") != NULL, "%s", clsel_last_error());
    st.strides[CLSEL_OPERAND_OUT][0] = 2;
    CHECK_STATUS(clsel_plan_create_strided(CLSEL_F32, &s, &s, &s, NULL, &st, &plan),
                 CLSEL_ERROR_INVALID_ARGUMENT);
    /* A reach past 2^63 bytes. */
    st = clsel_strides_default();
    st.strided = CLSEL_STRIDED(CLSEL_OPERAND_THEN);
    st.strides[CLSEL_OPERAND_THEN][0] = INT64_MAX / 2, st.strides[CLSEL_OPERAND_THEN][1] = 1;
    CHECK_STATUS(clsel_plan_create_strided(CLSEL_F32, &s, &s, &s, NULL, &st, &plan),
                 CLSEL_ERROR_OVERFLOW);
    CHECK_MSG(strstr(clsel_last_error(), "then {3,4}") != NULL, "%s", clsel_last_error());

    /* then reversed along both axes and padded (rows 6 apart), out transposed: extents around
     * element [0]. */
    st = clsel_strides_default();
    st.strided = CLSEL_STRIDED(CLSEL_OPERAND_THEN) | CLSEL_STRIDED(CLSEL_OPERAND_OUT);
    st.strides[CLSEL_OPERAND_THEN][0] = -6, st.strides[CLSEL_OPERAND_THEN][1] = -1;
    st.strides[CLSEL_OPERAND_OUT][0] = 1, st.strides[CLSEL_OPERAND_OUT][1] = 3;
    CHECK_OK(clsel_plan_create_strided(CLSEL_F32, &s, &s, &s, NULL, &st, &plan));
    int64_t first = 1;
    uint64_t bytes = 0;
    CHECK_OK(clsel_plan_tensor_extent(plan, CLSEL_OPERAND_THEN, &first, &bytes));
    CHECK(first == -15 * 4 && bytes == 16 * 4);
    CHECK_OK(clsel_plan_tensor_extent(plan, CLSEL_OPERAND_OUT, &first, &bytes));
    CHECK(first == 0 && bytes == 12 * 4);
    CHECK_STATUS(clsel_plan_tensor_extent(plan, (clsel_operand)4, &first, &bytes),
                 CLSEL_ERROR_INVALID_ARGUMENT);
    float then_data[16], cond_else[12] = {0}, out[12];
    uint8_t cond[12];
    for (int i = 0; i < 16; ++i)
        then_data[i] = (float)i;
    memset(cond, 1, sizeof cond);
    CHECK_OK(clsel_plan_run_cpu(plan, cond, then_data + 15, cond_else, out));
    for (int i = 0; i < 3; ++i) /* out[i][j] at i + 3 j = then[i][j] at 15 - 6 i - j */
        for (int j = 0; j < 4; ++j)
            CHECK(out[i + 3 * j] == (float)(15 - 6 * i - j));
    /* out over then's bytes, not exactly then: refused, nothing written. */
    memcpy(out, then_data, sizeof out);
    CHECK_STATUS(clsel_plan_run_cpu(plan, cond, then_data + 15, cond_else, then_data),
                 CLSEL_ERROR_BUFFER);
    CHECK(memcmp(out, then_data, sizeof out) == 0);
    clsel_plan_destroy(plan);

    /* In place over a strided then: the same element [0] and strides. */
    st.strides[CLSEL_OPERAND_OUT][0] = -6, st.strides[CLSEL_OPERAND_OUT][1] = -1;
    CHECK_OK(clsel_plan_create_strided(CLSEL_F32, &s, &s, &s, NULL, &st, &plan));
    memset(cond, 0, sizeof cond);
    CHECK_OK(clsel_plan_run_cpu(plan, cond, then_data + 15, cond_else, then_data + 15));
    for (int k = 0; k < 16;
         ++k) { /* the view's elements else's (0), the padding between its rows untouched */
        const int d = 15 - k, element = d / 6 < 3 && d % 6 < 4;
        CHECK_MSG(then_data[k] == (element ? 0.0f : (float)k), "then[%d] = %g", k,
                  (double)then_data[k]);
    }
    clsel_plan_destroy(plan);
}

static const test_case cases[] = {
    {"strides", test_strides},         {"dtypes", test_dtypes},
    {"statuses", test_statuses},       {"version", test_version},
    {"dtype_rules", test_dtype_rules}, {"plan_queries", test_plan_queries},
    {"allocator", test_allocator},     {"option_sizes", test_option_sizes},
};

int main(int argc, char **argv)
{
    const check_suite suite = {"test_api", cases, CHECK_COUNT(cases), NULL, 0, NULL, NULL};
    return check_main(argc, argv, &suite);
}
