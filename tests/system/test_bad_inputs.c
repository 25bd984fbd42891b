/* test_bad_inputs.c - every row of tests/system/bad_inputs.json that applies to the C API,
 * through each function its `calls` names: the status, the message parts, and that
 * nothing the caller passed (shapes, plan and runtime out-pointers, tensor data, device
 * buffers) was written. Prints each row's message, so that the log shows what users see.
 *
 *   test_bad_inputs --table bad_inputs.json [cpu] [opencl]
 *   cpu      the calls that need no OpenCL
 *   opencl   clsel_cl_enqueue, and runtime_run on a device */
#include <string.h>

#include "check.h"
#include "json.h"
#include "test_util.h"
#if CLSEL_TEST_OPENCL
#include "test_cl.h"
#endif

static const char *const status_names[] = {
    "CLSEL_SUCCESS",
    "CLSEL_ERROR_INVALID_ARGUMENT",
    "CLSEL_ERROR_INVALID_SHAPE",
    "CLSEL_ERROR_INVALID_DTYPE",
    "CLSEL_ERROR_OVERFLOW",
    "CLSEL_ERROR_BUFFER",
    "CLSEL_ERROR_OUT_OF_MEMORY",
    "CLSEL_ERROR_NO_DEVICE",
    "CLSEL_ERROR_BUILD",
    "CLSEL_ERROR_OPENCL",
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

typedef struct env {
    int opencl;        /* which mode runs */
    clsel_runtime *rt; /* for runtime_run: the CPU path, or a device */
#if CLSEL_TEST_OPENCL
    test_cl cl;
#endif
} env;

/* ---- reading a row: the "c" override first, then the row -------------------------- */

static const json *field(const json *row, const char *key)
{
    const json *over = json_get(row, "c");
    const json *v = over ? json_get(over, key) : NULL;
    return v ? v : json_get(row, key);
}

static const char *text(const json *row, const char *key)
{
    const json *v = field(row, key);
    return v && v->kind == JSON_STRING ? v->string : "";
}

static int64_t integer(const json *row, const char *key, int64_t fallback)
{
    const json *v = field(row, key);
    return v && v->kind == JSON_NUMBER ? (int64_t)v->number : fallback;
}

/* A dims list, or {rank, dims} for ranks no list can say. */
static clsel_shape shape(const json *row, const char *key)
{
    const json *v = field(row, key);
    clsel_shape s = SCALAR;
    if (!v)
        return s;
    const json *dims = v->kind == JSON_OBJECT ? json_get(v, "dims") : v;
    for (size_t i = 0; dims && i < dims->count && i < CLSEL_MAX_RANK; ++i)
        s.dims[i] = (int64_t)dims->items[i].number;
    s.rank =
        v->kind == JSON_OBJECT ? (int32_t)integer(v, "rank", 0) : (int32_t)(dims ? dims->count : 0);
    return s;
}

/* An enum field: a name from `names` (index = value), or a number for unknown values. */
static int enum_value(const json *row, const char *key, const char *const *names, size_t count,
                      int fallback)
{
    const json *v = field(row, key);
    if (!v)
        return fallback;
    if (v->kind == JSON_NUMBER)
        return (int)v->number;
    for (size_t i = 0; i < count; ++i)
        if (names[i] && strcmp(names[i], v->string) == 0)
            return (int)i;
    fprintf(stderr, "bad_inputs.json: unknown %s '%s'\n", key, v->string);
    exit(2);
}

static clsel_dtype dtype(const json *row, const char *key, clsel_dtype fallback)
{
    const json *v = field(row, key);
    if (!v)
        return fallback;
    return v->kind == JSON_NUMBER ? (clsel_dtype)(int)v->number : clsel_dtype_from_name(v->string);
}

static clsel_attrs attrs(const json *row)
{
    static const char *const modes[] = {"numpy", "none", "pdpd"};
    static const char *const cond_modes[] = {"one-way", "bidirectional"};
    clsel_attrs a = clsel_attrs_default();
    a.broadcast =
        (clsel_broadcast)enum_value(row, "broadcast", modes, COUNT(modes), CLSEL_BROADCAST_NUMPY);
    a.axis = integer(row, "axis", -1);
    a.cond_broadcast =
        (clsel_cond_broadcast)enum_value(row, "cond_broadcast", cond_modes, COUNT(cond_modes), 0);
    return a;
}

static int is_null(const json *row, const char *what)
{
    return strcmp(text(row, "null"), what) == 0;
}

/* The status and the message parts the row expects, against what `call` gave. */
static void expect(const json *row, const char *call, clsel_status got)
{
    const char *name = text(row, "name");
    const int want = enum_value(row, "status", status_names, COUNT(status_names), 0);
    const char *message = clsel_last_error();
    CHECK_MSG((int)got == want, "%s via %s: %s, expected %s (%s)", name, call,
              (int)got < (int)COUNT(status_names) ? status_names[got] : "?", status_names[want],
              message);
    const json *parts = field(row, "message");
    for (size_t i = 0; parts && i < parts->count; ++i)
        CHECK_MSG(strstr(message, parts->items[i].string) != NULL,
                  "%s via %s: message \"%s\" lacks \"%s\"", name, call, message,
                  parts->items[i].string);
    printf("  %-13s %-28s %s\n", call, status_names[want], message);
}

/* ---- the calls ------------------------------------------------------------------------ */

static void call_infer_shape(const json *row, env *e)
{
    (void)e;
    clsel_shape in[3] = {shape(row, "cond"), shape(row, "then"), shape(row, "else")}, out, before;
    clsel_attrs a = attrs(row);
    memset(&out, 0xAB, sizeof out);
    before = out;
    clsel_status st = clsel_infer_shape(
        is_null(row, "cond_shape") ? NULL : &in[0], is_null(row, "then_shape") ? NULL : &in[1],
        is_null(row, "else_shape") ? NULL : &in[2], &a, is_null(row, "out_shape") ? NULL : &out);
    expect(row, "infer_shape", st);
    CHECK_MSG(memcmp(&out, &before, sizeof out) == 0, "%s: infer_shape wrote its output",
              text(row, "name"));
}

static void call_plan_create(const json *row, env *e)
{
    (void)e;
    clsel_shape in[3] = {shape(row, "cond"), shape(row, "then"), shape(row, "else")};
    clsel_attrs a = attrs(row);
    clsel_plan *sentinel = (clsel_plan *)(uintptr_t)0x5E1EC7, *plan = sentinel;
    clsel_status st = clsel_plan_create(
        dtype(row, "dtype", CLSEL_F32), is_null(row, "cond_shape") ? NULL : &in[0],
        is_null(row, "then_shape") ? NULL : &in[1], is_null(row, "else_shape") ? NULL : &in[2], &a,
        is_null(row, "plan_out") ? NULL : &plan);
    expect(row, "plan_create", st);
    CHECK_MSG(plan == sentinel, "%s: plan_create wrote *plan", text(row, "name"));
    if (st == CLSEL_SUCCESS && plan != sentinel)
        clsel_plan_destroy(plan);
}

static void call_check_dtypes(const json *row, env *e)
{
    (void)e;
    const clsel_dtype then_dtype = dtype(row, "dtype", CLSEL_F32);
    expect(row, "check_dtypes",
           clsel_check_dtypes(dtype(row, "cond_dtype", CLSEL_BOOLEAN), then_dtype,
                              dtype(row, "else_dtype", then_dtype)));
}

static void call_runtime_create(const json *row, env *e)
{
    static const char *const devices[] = {"auto", "cpu", "opencl"};
    (void)e;
    clsel_runtime *sentinel = (clsel_runtime *)(uintptr_t)0x5E1EC7, *rt = sentinel;
    clsel_status st =
        clsel_runtime_create((clsel_device)enum_value(row, "device", devices, COUNT(devices), 0),
                             is_null(row, "runtime_out") ? NULL : &rt);
    expect(row, "runtime_create", st);
    CHECK_MSG(rt == sentinel, "%s: runtime_create wrote *rt", text(row, "name"));
    if (st == CLSEL_SUCCESS && rt != sentinel)
        clsel_runtime_destroy(rt);
}

/* Host tensors for a valid plan: random bytes in every buffer, the output optionally
 * placed `offset` elements into an input's storage (`overlap`), and a snapshot of it
 * all to compare with after the failed call. */
typedef struct host_tensors {
    clsel_plan *plan;
    uint8_t *buf[4], *copy[4];
    size_t bytes[4];
    uint8_t *out;
} host_tensors;

static int host_make(host_tensors *h, const json *row)
{
    static const char *const inputs[] = {"cond", "then", "else"};
    memset(h, 0, sizeof *h);
    clsel_shape in[3] = {shape(row, "cond"), shape(row, "then"), shape(row, "else")};
    clsel_attrs a = attrs(row);
    if (clsel_plan_create(dtype(row, "dtype", CLSEL_F32), &in[0], &in[1], &in[2], &a, &h->plan) !=
        CLSEL_SUCCESS) {
        CHECK_MSG(0, "%s: the row's plan must be valid: %s", text(row, "name"), clsel_last_error());
        return 0;
    }
    const size_t w = clsel_dtype_size(dtype(row, "dtype", CLSEL_F32));
    const size_t out_bytes = clsel_plan_output_bytes(h->plan);
    const json *overlap = field(row, "overlap");
    const int host_input = overlap ? enum_value(overlap, "input", inputs, COUNT(inputs), 0) : -1;
    rng r = {42};
    for (int k = 0; k < 4; ++k) {
        h->bytes[k] = k == 3 ? out_bytes : (size_t)shape_count(&in[k]) * (k ? w : 1);
        if (k == host_input)
            h->bytes[k] += out_bytes + w * (size_t)integer(overlap, "offset", 0);
        h->buf[k] = test_alloc(h->bytes[k]);
        for (size_t i = 0; i < h->bytes[k]; ++i)
            h->buf[k][i] = (uint8_t)rng_next(&r);
        h->copy[k] = test_alloc(h->bytes[k]);
        memcpy(h->copy[k], h->buf[k], h->bytes[k]);
    }
    h->out = host_input >= 0 ? h->buf[host_input] + w * (size_t)integer(overlap, "offset", 0)
                             : h->buf[3];
    return 1;
}

static void host_check_untouched(const host_tensors *h, const json *row, const char *call)
{
    for (int k = 0; k < 4; ++k)
        CHECK_MSG(memcmp(h->buf[k], h->copy[k], h->bytes[k]) == 0,
                  "%s via %s: tensor %d was written", text(row, "name"), call, k);
}

static void host_free(host_tensors *h)
{
    for (int k = 0; k < 4; ++k) {
        free(h->buf[k]);
        free(h->copy[k]);
    }
    clsel_plan_destroy(h->plan);
}

static void call_run_cpu(const json *row, env *e)
{
    (void)e;
    host_tensors h;
    if (!host_make(&h, row))
        return;
    clsel_status st = clsel_plan_run_cpu(
        is_null(row, "plan") ? NULL : h.plan, is_null(row, "cond") ? NULL : h.buf[0],
        is_null(row, "then") ? NULL : h.buf[1], is_null(row, "else") ? NULL : h.buf[2],
        is_null(row, "out") ? NULL : h.out);
    expect(row, "run_cpu", st);
    host_check_untouched(&h, row, "run_cpu");
    host_free(&h);
}

static void call_runtime_run(const json *row, env *e)
{
    host_tensors h;
    if (!host_make(&h, row))
        return;
    clsel_status st = clsel_runtime_run(
        is_null(row, "runtime") ? NULL : e->rt, is_null(row, "plan") ? NULL : h.plan,
        is_null(row, "cond") ? NULL : h.buf[0], is_null(row, "then") ? NULL : h.buf[1],
        is_null(row, "else") ? NULL : h.buf[2], is_null(row, "out") ? NULL : h.out);
    expect(row, e->opencl ? "runtime_run(cl)" : "runtime_run", st);
    host_check_untouched(&h, row, "runtime_run");
    host_free(&h);
}

#if CLSEL_TEST_OPENCL
/* Device buffers as the row's `cl` says: sizes cut `short` bytes or grown `extra`,
 * byte offsets, the output in an input's buffer (`same_buffer`), a read-only output.
 * Every buffer starts with a known pattern, which must still be there after. */
static void call_cl_enqueue(const json *row, env *e)
{
    static const char *const names[] = {"cond", "then", "else", "out"};
    host_tensors h;
    if (!host_make(&h, row))
        return;
    const json *cl = field(row, "cl");
    const json *shorts = cl ? json_get(cl, "short") : NULL,
               *offsets = cl ? json_get(cl, "offset") : NULL;
    const int64_t extra = cl ? integer(cl, "extra", 0) : 0;
    const char *same = cl && json_get(cl, "same_buffer") ? json_get(cl, "same_buffer")->string : "";
    const int read_only_out = cl && json_get(cl, "read_only_out");
    cl_mem mem[4] = {NULL, NULL, NULL, NULL};
    size_t offset[4] = {0, 0, 0, 0}, size[4];
    for (int k = 0; k < 4; ++k) {
        offset[k] = offsets ? (size_t)integer(offsets, names[k], 0) : 0;
        size[k] = h.bytes[k] + (size_t)extra - (size_t)(shorts ? integer(shorts, names[k], 0) : 0);
        if (k == 3 && strcmp(same, "") != 0)
            break; /* the output lives in an input's buffer */
        const int holds_out = k == 3 || strcmp(same, names[k]) == 0;
        const cl_mem_flags flags =
            !holds_out || read_only_out ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE;
        mem[k] = test_cl_buffer(&e->cl, flags, size[k], NULL);
        CHECK(clEnqueueWriteBuffer(e->cl.queue, mem[k], CL_TRUE, 0,
                                   size[k] < h.bytes[k] ? size[k] : h.bytes[k], h.buf[k], 0, NULL,
                                   NULL) == CL_SUCCESS);
    }
    for (int k = 0; k < 3; ++k)
        if (strcmp(same, names[k]) == 0)
            mem[3] = mem[k];
    cl_event wait_dummy = NULL, done = (cl_event)(uintptr_t)0x5E1EC7;
    clsel_status st = clsel_cl_enqueue(
        is_null(row, "context") ? NULL : e->cl.ctx, is_null(row, "plan") ? NULL : h.plan,
        is_null(row, "queue") ? NULL : e->cl.queue, is_null(row, "cond") ? NULL : mem[0], offset[0],
        is_null(row, "then") ? NULL : mem[1], offset[1], is_null(row, "else") ? NULL : mem[2],
        offset[2], is_null(row, "out") ? NULL : mem[3], offset[3],
        is_null(row, "wait_list") ? 1 : 0, is_null(row, "wait_list") ? NULL : &wait_dummy, &done);
    expect(row, "cl_enqueue", st);
    CHECK_MSG(done == NULL, "%s: a failed clsel_cl_enqueue must set *event to NULL",
              text(row, "name"));
    if (st == CLSEL_SUCCESS && done)
        clReleaseEvent(done);
    clFinish(e->cl.queue);
    for (int k = 0; k < 4; ++k) {
        if (k == 3 && strcmp(same, "") != 0)
            break;
        const size_t n = size[k] < h.bytes[k] ? size[k] : h.bytes[k];
        uint8_t *back = test_alloc(n);
        CHECK(clEnqueueReadBuffer(e->cl.queue, mem[k], CL_TRUE, 0, n, back, 0, NULL, NULL) ==
              CL_SUCCESS);
        CHECK_MSG(memcmp(back, h.buf[k], n) == 0, "%s: the %s buffer was written",
                  text(row, "name"), names[k]);
        free(back);
        clReleaseMemObject(mem[k]);
    }
    host_free(&h);
}
#endif

typedef struct call {
    const char *name;
    void (*run)(const json *row, env *e);
    int cpu, opencl; /* the modes it runs in */
} call;

static const call calls[] = {
    {"infer_shape", call_infer_shape, 1, 0},   {"plan_create", call_plan_create, 1, 0},
    {"check_dtypes", call_check_dtypes, 1, 0}, {"runtime_create", call_runtime_create, 1, 0},
    {"run_cpu", call_run_cpu, 1, 0},           {"runtime_run", call_runtime_run, 1, 1},
#if CLSEL_TEST_OPENCL
    {"cl_enqueue", call_cl_enqueue, 0, 1},
#else
    {"cl_enqueue", NULL, 0, 1},
#endif
};

static int applies_to_c(const json *row)
{
    const json *entries = json_get(row, "entries");
    for (size_t i = 0; entries && i < entries->count; ++i)
        if (strcmp(entries->items[i].string, "c") == 0)
            return 1;
    return 0;
}

static const char *table_file;
static json *table;

static int load_table(void)
{
    if (!table_file) {
        fprintf(stderr, "test_bad_inputs: --table path/to/bad_inputs.json is required\n");
        return 2;
    }
    table = json_load(table_file);
    return table ? 0 : 2;
}

static void free_table(void)
{
    json_free(table);
}

/* Every row for the C API, through each of its calls that runs in e's mode. */
static void run_rows(env *e)
{
    const json *rows = json_get(table, "cases");
    int rows_run = 0, calls_run = 0;
    for (size_t i = 0; rows && i < rows->count; ++i) {
        const json *row = &rows->items[i];
        if (!applies_to_c(row))
            continue;
        const json *names = json_get(row, "calls");
        int ran = 0;
        for (size_t n = 0; names && n < names->count; ++n) {
            const call *c = NULL;
            for (size_t k = 0; k < COUNT(calls); ++k)
                if (strcmp(calls[k].name, names->items[n].string) == 0)
                    c = &calls[k];
            CHECK_MSG(c != NULL, "%s: unknown call '%s'", text(row, "name"),
                      names->items[n].string);
            if (!c || !(e->opencl ? c->opencl : c->cpu))
                continue;
            if (!ran)
                printf("%s (%s)\n", text(row, "name"), text(row, "spec"));
            c->run(row, e);
            ran = 1;
            calls_run++;
        }
        rows_run += ran;
    }
    printf("%d rows, %d calls (%s mode)\n", rows_run, calls_run, e->opencl ? "opencl" : "cpu");
    CHECK_MSG(rows_run > 0, "no row of the table applied");
}

static void test_cpu(void)
{
    env e;
    memset(&e, 0, sizeof e);
    CHECK_OK(clsel_runtime_create(CLSEL_DEVICE_CPU, &e.rt));
    run_rows(&e);
    clsel_runtime_destroy(e.rt);
}

#if CLSEL_TEST_OPENCL
static void test_opencl(void)
{
    env e;
    memset(&e, 0, sizeof e);
    e.opencl = 1;
    test_cl_open(&e.cl);
    CHECK_OK(clsel_runtime_create(CLSEL_DEVICE_OPENCL, &e.rt));
    if (e.rt)
        CHECK_OK(clsel_runtime_set_min_device_bytes(e.rt, 0)); /* small rows on the device too */
    run_rows(&e);
    clsel_runtime_destroy(e.rt);
    test_cl_close(&e.cl);
}
#endif

static const test_case cases[] = {
    {"cpu", test_cpu},
#if CLSEL_TEST_OPENCL
    {"opencl", test_opencl},
#endif
};

static const check_flag flags[] = {
    {"--table", CHECK_FLAG_TEXT, &table_file, NULL, "tests/system/bad_inputs.json"},
};

int main(int argc, char **argv)
{
    const check_suite suite = {"test_bad_inputs",  cases,      CHECK_COUNT(cases), flags,
                               CHECK_COUNT(flags), load_table, free_table};
    return check_main(argc, argv, &suite);
}
