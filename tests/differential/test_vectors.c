/* test_vectors.c - every case of select_vectors.json (OpenVINO's and oneDNN's own test
 * suites): shapes and shape errors through clsel_infer_shape, dtype errors through
 * clsel_check_dtypes, listed data through the CPU path (or OpenCL) against the listed
 * results, and every valid shape with random data against the oracle.
 *
 *   test_vectors --vectors path/to/select_vectors.json [--path cpu|opencl] [openvino] [onednn] */
#include <math.h>
#include <string.h>

#include "check.h"
#include "json.h"
#include "oracle.h"
#include "test_cl.h"
#include "test_util.h"

static test_cl *cl_env; /* NULL: run on the CPU path */

typedef struct tally {
    int shapes, shape_errors, dtype_errors, data, rule_data, random_data, enlarging;
} tally;

static clsel_shape shape_of(const json *v, const char *key)
{
    const json *a = json_get(v, key);
    clsel_shape s = SCALAR;
    for (size_t i = 0; a && i < a->count && i < CLSEL_MAX_RANK; ++i)
        s.dims[s.rank++] = (int64_t)a->items[i].number;
    return s;
}

static const char *string_of(const json *v, const char *key)
{
    const json *s = json_get(v, key);
    return s && s->kind == JSON_STRING ? s->string : NULL;
}

static clsel_attrs attrs_of(const json *v)
{
    clsel_attrs a = clsel_attrs_default();
    const char *mode = string_of(v, "mode");
    a.broadcast = strcmp(mode, "none") == 0   ? CLSEL_BROADCAST_NONE
                  : strcmp(mode, "pdpd") == 0 ? CLSEL_BROADCAST_PDPD
                                              : CLSEL_BROADCAST_NUMPY;
    const json *axis = json_get(v, "axis");
    if (axis)
        a.axis = (int64_t)axis->number;
    return a;
}

static int raw_bits_for(const json *v, const char *what)
{
    const char *raw = string_of(v, "raw_bits");
    return raw && (strcmp(raw, "all") == 0 || strcmp(raw, what) == 0);
}

/* One listed value as the element bits of `dtype` (f16 only as raw bit patterns). */
static int encode(double value, clsel_dtype dtype, int raw, void *dst)
{
    switch (clsel_dtype_size(dtype)) {
    case 1: {
        uint8_t b = dtype == CLSEL_BOOLEAN ? (value != 0) : (uint8_t)(int64_t)value;
        memcpy(dst, &b, 1);
        return 1;
    }
    case 2: {
        if (dtype == CLSEL_F16 || dtype == CLSEL_BF16) {
            if (!raw)
                return 0;
        }
        uint16_t h = (uint16_t)(int64_t)value;
        memcpy(dst, &h, 2);
        return 1;
    }
    case 4: {
        if (dtype == CLSEL_F32) {
            float f = (float)value;
            memcpy(dst, &f, 4);
        } else {
            uint32_t u = (uint32_t)(int64_t)value;
            memcpy(dst, &u, 4);
        }
        return 1;
    }
    default: {
        if (dtype == CLSEL_F64) {
            memcpy(dst, &value, 8);
        } else {
            uint64_t u = (uint64_t)(int64_t)value;
            memcpy(dst, &u, 8);
        }
        return 1;
    }
    }
}

/* clsel's cond is one byte. Masks of other types (the GPU plugin takes f32, f16, i8 and
 * u8 masks, nonzero = true) become 0/1 bytes here; u8, i8 and boolean masks keep their
 * byte, so bytes like 0x80 and 0xFF reach the library as they are. */
static uint8_t cond_byte(const json *v, double value)
{
    const char *t = string_of(v, "cond_dtype");
    if (!t || strcmp(t, "boolean") == 0 || strcmp(t, "u8") == 0 || strcmp(t, "i8") == 0)
        return (uint8_t)(int64_t)value;
    if (strcmp(t, "f16") == 0 && raw_bits_for(v, "cond"))
        return ((uint16_t)(int64_t)value & 0x7FFF) != 0;
    return value != 0.0; /* -0.0 is false */
}

/* Outputs above this many elements run on the CPU path only (test_vectors' third
 * argument; a simulated device such as Oclgrind takes minutes on the biggest). */
static int64_t device_max_elements = INT64_MAX;
static int device_skipped;

/* Runs a plan on the chosen path; 1 when it succeeded. */
static int run_plan(const clsel_plan *plan, const void *cond, const void *t, const void *e,
                    void *out)
{
    if (cl_env && clsel_plan_output_count(plan) > device_max_elements) {
        ++device_skipped;
        clsel_status st = clsel_plan_run_cpu(plan, cond, t, e, out);
        CHECK_OK(st);
        return st == CLSEL_SUCCESS;
    }
    if (!cl_env) {
        clsel_status st = clsel_plan_run_cpu(plan, cond, t, e, out);
        CHECK_OK(st);
        return st == CLSEL_SUCCESS;
    }
    int guards_ok = 0;
    static size_t runs = 0; /* each layout in turn: both forms of the GPU kernels run */
    clsel_status st =
        test_cl_run(cl_env, plan, cond, t, e, out, runs++ % TEST_CL_LAYOUTS, &guards_ok);
    CHECK_OK(st);
    CHECK(guards_ok);
    return st == CLSEL_SUCCESS;
}

/* Outputs above this many elements are checked against the oracle at sampled indices
 * (and, on OpenCL, against the CPU path in full): the oracle is deliberately slow. */
enum {
    ORACLE_FULL_LIMIT = 1 << 20,
    ORACLE_SAMPLES = 1 << 16
};

static void check_random_data(const clsel_shape in[3], const clsel_attrs *a, clsel_dtype dtype,
                              uint64_t seed)
{
    oracle_case oc;
    memset(&oc, 0, sizeof oc);
    oc.mode = a->broadcast;
    oc.axis = a->axis;
    oc.cond_broadcast = a->cond_broadcast;
    oc.elem_size = clsel_dtype_size(dtype);
    for (int k = 0; k < 3; ++k)
        oc.shape[k] = in[k];
    clsel_shape out_shape;
    CHECK(oracle_shape(&oc, &out_shape));
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(dtype, &in[0], &in[1], &in[2], a, &plan));
    if (!plan)
        return;
    test_data td;
    test_data_make(&td, plan, seed);
    rng r = {seed};
    const size_t w = td.w;
    const int64_t no = td.out_count;
    if (run_plan(plan, td.cond, td.then_data, td.else_data, td.got)) {
        int same = 1;
        for (int64_t k = 0; k < (no <= ORACLE_FULL_LIMIT ? no : ORACLE_SAMPLES) && same; ++k) {
            int64_t o = no <= ORACLE_FULL_LIMIT ? k : (int64_t)rng_below(&r, (uint64_t)no);
            same = memcmp(td.got + (size_t)o * w,
                          oracle_source(&oc, &out_shape, o, td.cond, td.then_data, td.else_data),
                          w) == 0;
        }
        if (cl_env && no > ORACLE_FULL_LIMIT) { /* the whole output against the CPU path */
            CHECK_OK(clsel_plan_run_cpu(plan, td.cond, td.then_data, td.else_data, td.want));
            same = same && memcmp(td.want, td.got, (size_t)no * w) == 0;
        }
        CHECK(same);
    }
    test_data_free(&td);
    clsel_plan_destroy(plan);
}

/* The listed data: cond, then, else (or else_fill), and expect (or a rule). */
static void check_listed_data(const json *v, const clsel_shape in[3], const clsel_attrs *a,
                              clsel_dtype dtype, tally *count)
{
    const char *test = string_of(v, "test");
    const json *jc = json_get(v, "cond"), *jt = json_get(v, "then"), *je = json_get(v, "else");
    const json *fill = json_get(v, "else_fill"), *jx = json_get(v, "expect");
    const size_t w = clsel_dtype_size(dtype);
    const int64_t n[3] = {shape_count(&in[0]), shape_count(&in[1]), shape_count(&in[2])};
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(dtype, &in[0], &in[1], &in[2], a, &plan));
    if (!plan)
        return;
    const int64_t no = clsel_plan_output_count(plan);
    uint8_t *c = test_alloc((size_t)n[0]), *t = test_alloc((size_t)n[1] * w),
            *e = test_alloc((size_t)n[2] * w);
    uint8_t *want = test_alloc((size_t)no * w), *got = test_alloc((size_t)no * w);
    int ok = (!jc || (int64_t)jc->count == n[0]) && (int64_t)jt->count == n[1];
    const int raw = raw_bits_for(v, "data");
    for (int64_t i = 0; ok && i < n[0]; ++i) {
        /* MatmulSelect gives cond as a rule: cond[0,0,i,j] = (j > 1). */
        c[i] =
            jc ? cond_byte(v, jc->items[i].number) : (uint8_t)(i % in[0].dims[in[0].rank - 1] > 1);
    }
    for (int64_t i = 0; ok && i < n[1]; ++i)
        ok = encode(jt->items[i].number, dtype, raw, t + i * w);
    for (int64_t i = 0; ok && i < n[2]; ++i)
        ok = encode(je ? je->items[i].number : fill->number, dtype, raw, e + i * w);
    if (jx) {
        ok = ok && (int64_t)jx->count == no;
        for (int64_t i = 0; ok && i < no; ++i)
            ok = encode(jx->items[i].number, dtype, raw, want + i * w);
        count->data++;
    } else if (strstr(test, "TestSelect")) { /* out[n,c,h,w] = -1 if w >= 64 else 1 */
        for (int64_t i = 0; i < no; ++i)
            encode(i % 128 >= 64 ? -1.0 : 1.0, dtype, raw, want + i * w);
        count->rule_data++;
    } else if (strstr(test, "MatmulSelect")) { /* out[0,0,i,j] = -1 if j > 1 else 11.2 */
        for (int64_t i = 0; i < no; ++i)
            encode(i % 32 > 1 ? -1.0 : 11.2, dtype, raw, want + i * w);
        count->rule_data++;
    } else {
        ok = 0;
    }
    CHECK_MSG(ok, "vector \"%s\": cannot read its data", test);
    if (ok && run_plan(plan, c, t, e, got))
        CHECK_MSG(memcmp(got, want, (size_t)no * w) == 0, "vector \"%s\": result differs", test);
    free(c);
    free(t);
    free(e);
    free(want);
    free(got);
    clsel_plan_destroy(plan);
}

static void check_vector(const json *v, tally *count)
{
    const char *test = string_of(v, "test");
    clsel_shape in[3] = {shape_of(v, "cond_shape"), shape_of(v, "then_shape"),
                         shape_of(v, "else_shape")};
    clsel_attrs a = attrs_of(v);
    clsel_attrs two_way = a;
    two_way.cond_broadcast = CLSEL_COND_BIDIRECTIONAL;
    const char *dtype_name = string_of(v, "dtype");
    clsel_dtype dtype = dtype_name ? clsel_dtype_from_name(dtype_name) : CLSEL_F32;
    clsel_shape out = SCALAR;

    if (json_get(v, "expect_error")) {
        const char *error = string_of(v, "error");
        const char *cond_t = string_of(v, "cond_dtype"), *then_t = string_of(v, "then_dtype"),
                   *else_t = string_of(v, "else_dtype");
        if (then_t || else_t || (cond_t && strstr(error, "element type"))) {
            clsel_dtype c = cond_t ? clsel_dtype_from_name(cond_t) : CLSEL_BOOLEAN;
            clsel_dtype t = then_t ? clsel_dtype_from_name(then_t) : dtype;
            clsel_dtype e = else_t ? clsel_dtype_from_name(else_t) : dtype;
            CHECK_STATUS(clsel_check_dtypes(c, t, e), CLSEL_ERROR_INVALID_DTYPE);
            count->dtype_errors++;
        } else {
            CHECK_STATUS(clsel_infer_shape(&in[0], &in[1], &in[2], &a, &out),
                         CLSEL_ERROR_INVALID_SHAPE);
            CHECK_STATUS(clsel_infer_shape(&in[0], &in[1], &in[2], &two_way, &out),
                         CLSEL_ERROR_INVALID_SHAPE);
            count->shape_errors++;
        }
        return;
    }

    clsel_shape want = shape_of(v, "expect_shape");
    if (json_get(v, "cond_enlarges_output")) {
        /* OpenVINO-runtime behaviour: rejected one way, accepted two ways. */
        CHECK_STATUS(clsel_infer_shape(&in[0], &in[1], &in[2], &a, &out),
                     CLSEL_ERROR_INVALID_SHAPE);
        a = two_way;
        count->enlarging++;
    }
    CHECK_OK(clsel_infer_shape(&in[0], &in[1], &in[2], &a, &out));
    CHECK_MSG(shape_equal(&out, &want), "vector \"%s\": wrong output shape", test);
    count->shapes++;

    if (json_get(v, "then"))
        check_listed_data(v, in, &a, dtype, count);

    /* Random data for every dtype the source tested (or the vector's own). */
    const char *tested = string_of(v, "dtypes_tested");
    char list[128];
    snprintf(list, sizeof list, "%s", tested ? tested : clsel_dtype_name(dtype));
    /* Huge shapes once, with the first dtype: every width shares its code. */
    const int every_dtype = shape_count(&out) <= ORACLE_FULL_LIMIT;
    for (char *name = strtok(list, ","); name; name = every_dtype ? strtok(NULL, ",") : NULL) {
        clsel_dtype d = clsel_dtype_from_name(name);
        CHECK_MSG(d != CLSEL_DTYPE_INVALID, "unknown dtype %s", name);
        if (d != CLSEL_DTYPE_INVALID)
            check_random_data(in, &a, d, (uint64_t)json_get(v, "id")->number);
        count->random_data++;
    }
}

/* Where the cases run (--path), and the vectors they read (--vectors). */
enum {
    PATH_CPU,
    PATH_OPENCL
};
static int path = PATH_CPU;
static const char *vectors_file;
static test_cl cl;
static json *root;

static int load_vectors(void)
{
    if (!vectors_file) {
        fprintf(stderr, "test_vectors: --vectors path/to/select_vectors.json is required\n");
        return 2;
    }
    if (path == PATH_OPENCL) {
        test_cl_open(&cl);
        cl_env = &cl;
    }
    root = json_load(vectors_file);
    if (!root || root->kind != JSON_ARRAY || root->count == 0) {
        fprintf(stderr, "no vectors in %s\n", vectors_file);
        return 1;
    }
    return 0;
}

static void close_vectors(void)
{
    if (device_skipped)
        printf("%d runs with more than %lld output elements ran on the CPU path only\n",
               device_skipped, (long long)device_max_elements);
    json_free(root);
    if (cl_env)
        test_cl_close(&cl);
}

/* The vectors of one suite (by their source's owner; oneDNN's moved from oneapi-src to
 * uxlfoundation): every one of them, with its tally. */
static void check_suite_vectors(int openvino)
{
    tally count = {0, 0, 0, 0, 0, 0, 0};
    size_t vectors = 0;
    for (size_t i = 0; i < root->count; ++i) {
        const char *source = string_of(&root->items[i], "source");
        if ((source && strncmp(source, "openvinotoolkit/", 16) == 0) != openvino)
            continue;
        check_vector(&root->items[i], &count);
        ++vectors;
    }
    printf("%zu %s vectors from %s on %s: %d shapes (%d only two-way), %d shape errors, %d dtype "
           "errors, "
           "%d listed data cases, %d rule data cases, %d random-data runs\n",
           vectors, openvino ? "OpenVINO" : "oneDNN", vectors_file,
           cl_env ? cl_env->device_name : "the CPU path", count.shapes, count.enlarging,
           count.shape_errors, count.dtype_errors, count.data, count.rule_data, count.random_data);
    CHECK(vectors > 0);
    CHECK((size_t)(count.shapes + count.shape_errors + count.dtype_errors) == vectors);
}

static void test_openvino(void)
{
    check_suite_vectors(1);
}

static void test_onednn(void)
{
    check_suite_vectors(0);
}

static const test_case cases[] = {
    {"openvino", test_openvino},
    {"onednn", test_onednn},
};

static const check_flag flags[] = {
    {"--path", CHECK_FLAG_CHOICE, &path, "cpu|opencl",
     "the CPU path (default) or clsel_cl_enqueue as well"},
    {"--vectors", CHECK_FLAG_TEXT, &vectors_file, NULL,
     "tests/differential/data/select_vectors.json"},
    {"--device-max-elements", CHECK_FLAG_I64, &device_max_elements, NULL,
     "bigger outputs run on the CPU path only (for slow OpenCL implementations)"},
};

int main(int argc, char **argv)
{
    const check_suite suite = {"test_vectors",     cases,        CHECK_COUNT(cases), flags,
                               CHECK_COUNT(flags), load_vectors, close_vectors};
    return check_main(argc, argv, &suite);
}
