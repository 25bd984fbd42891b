/* test_opencl_interop.c - the OpenCL interop contract of clsel_cl.h: offsets and sub-buffers,
 * wait lists, returned events (also for empty outputs and split launches), two queues
 * on one context, an out-of-order queue, in place, buffers the host may not map, every
 * buffer error with the output left untouched and no event handed out, a device or queue
 * of another device refused, and the kernels' access model (clsel_cl_plan_access). */
#include <string.h>
#include <time.h>

#include "check.h"
#include "oracle.h"
#include "test_cl.h"
#include "test_util.h"

static test_cl env;

static clsel_plan *make_plan(clsel_dtype dtype, clsel_shape c, clsel_shape t, clsel_shape e)
{
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(dtype, &c, &t, &e, NULL, &plan));
    return plan;
}

static void read_buffer(cl_command_queue q, cl_mem m, size_t offset, size_t bytes, void *dst)
{
    CHECK(clEnqueueReadBuffer(q, m, CL_TRUE, offset, bytes, dst, 0, NULL, NULL) == CL_SUCCESS);
}

static cl_int event_status(cl_event e)
{
    cl_int status = -1;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    return status;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Whether the device can be watched while a command waits on a user event: Oclgrind
 * 21.10 runs the queue inside clFlush and blocks there until the event completes, which
 * only this thread could do (OpenCL lets clFlush return), so on it the checks that look
 * at a waiting command are left out, and the wait list is checked by the result alone. */
static int can_watch_waiting_commands(void)
{
    static int known = -1;
    if (known < 0) {
        known = strstr(env.device_name, "Oclgrind") == NULL;
        if (!known)
            printf("%s: the checks of a command waiting on a user event are left out\n",
                   env.device_name);
    }
    return known;
}

/* Input buffers for a same-shape f32 plan of n elements, and the expected output. */
enum {
    N = 1000
};

typedef struct fixture {
    uint8_t cond[N];
    uint32_t then_data[N], else_data[N], want[N];
    cl_mem c, t, e;
} fixture;

static void fixture_open(fixture *f, uint64_t seed)
{
    rng r = {seed};
    fill_cond(f->cond, N, &r);
    fill_values(f->then_data, N, 4, &r);
    fill_values(f->else_data, N, 4, &r);
    for (int i = 0; i < N; ++i)
        f->want[i] = f->cond[i] ? f->then_data[i] : f->else_data[i];
    f->c = test_cl_buffer(&env, CL_MEM_READ_ONLY, N, f->cond);
    f->t = test_cl_buffer(&env, CL_MEM_READ_ONLY, N * 4, f->then_data);
    f->e = test_cl_buffer(&env, CL_MEM_READ_ONLY, N * 4, f->else_data);
}

static void fixture_close(fixture *f)
{
    clReleaseMemObject(f->c);
    clReleaseMemObject(f->t);
    clReleaseMemObject(f->e);
}

static void test_wait_list_and_events(void)
{
    fixture f;
    fixture_open(&f, 1);
    clsel_shape s = SHAPE(N);
    clsel_plan *plan = make_plan(CLSEL_F32, s, s, s);
    cl_mem out = test_cl_buffer(&env, CL_MEM_READ_WRITE, N * 4, NULL);
    cl_int err;
    cl_event gate = clCreateUserEvent(env.context, &err), done = NULL;
    CHECK_OK(clsel_cl_enqueue(env.ctx, plan, env.queue, f.c, 0, f.t, 0, f.e, 0, out, 0, 1, &gate,
                              &done));
    CHECK(done != NULL);
    if (can_watch_waiting_commands()) {
        clFlush(env.queue);
        sleep_ms(50);
        CHECK_MSG(event_status(done) > CL_COMPLETE, "the call ran before its wait list completed");
    }
    clSetUserEventStatus(gate, CL_COMPLETE);
    CHECK(clWaitForEvents(1, &done) == CL_SUCCESS && event_status(done) == CL_COMPLETE);
    uint32_t got[N];
    read_buffer(env.queue, out, 0, sizeof got, got);
    CHECK(memcmp(got, f.want, sizeof got) == 0);
    clReleaseEvent(done);
    clReleaseEvent(gate);

    /* No event asked for: still enqueued and correct. */
    cl_mem out2 = test_cl_buffer(&env, CL_MEM_READ_WRITE, N * 4, NULL);
    CHECK_OK(
        clsel_cl_enqueue(env.ctx, plan, env.queue, f.c, 0, f.t, 0, f.e, 0, out2, 0, 0, NULL, NULL));
    read_buffer(env.queue, out2, 0, sizeof got, got);
    CHECK(memcmp(got, f.want, sizeof got) == 0);
    clReleaseMemObject(out);
    clReleaseMemObject(out2);
    clsel_plan_destroy(plan);
    fixture_close(&f);
}

static void test_empty_output(void)
{
    clsel_shape empty = SHAPE(0, 3), s = SHAPE(3);
    clsel_plan *plan = make_plan(CLSEL_F64, empty, empty, s);
    cl_mem e = test_cl_buffer(&env, CL_MEM_READ_ONLY, 24, NULL);
    cl_int err;
    cl_event gate = clCreateUserEvent(env.context, &err), done = NULL;
    /* NULL buffers are fine for zero-element tensors; the marker honours the wait list. */
    CHECK_OK(clsel_cl_enqueue(env.ctx, plan, env.queue, NULL, 0, NULL, 0, e, 0, NULL, 0, 1, &gate,
                              &done));
    CHECK(done != NULL);
    if (can_watch_waiting_commands()) {
        clFlush(env.queue);
        sleep_ms(20);
        CHECK(event_status(done) > CL_COMPLETE);
    }
    clSetUserEventStatus(gate, CL_COMPLETE);
    CHECK(clWaitForEvents(1, &done) == CL_SUCCESS);
    clReleaseEvent(done);
    clReleaseEvent(gate);
    /* No wait list, no event: nothing to do. With an event only: a valid event. */
    CHECK_OK(
        clsel_cl_enqueue(env.ctx, plan, env.queue, NULL, 0, NULL, 0, e, 0, NULL, 0, 0, NULL, NULL));
    CHECK_OK(clsel_cl_enqueue(env.ctx, plan, env.queue, NULL, 0, NULL, 0, e, 0, NULL, 0, 0, NULL,
                              &done));
    CHECK(done != NULL && clWaitForEvents(1, &done) == CL_SUCCESS);
    clReleaseEvent(done);
    clReleaseMemObject(e);
    clsel_plan_destroy(plan);
}

/* Offsets into shared buffers and caller-made sub-buffers. */
static void test_offsets_and_sub_buffers(void)
{
    fixture f;
    fixture_open(&f, 2);
    clsel_shape s = SHAPE(N);
    clsel_plan *plan = make_plan(CLSEL_I32, s, s, s);
    /* One big buffer holding everything at odd places (cond at an odd byte offset), in the
     * operands' order and in the reverse one (the native path maps the range they span). */
    static const size_t places[2][4] = {{7, 4 * 1003, 4 * 2011, 4 * 3017},
                                        {4 * 3017 + 3, 4 * 2011, 4 * 1003, 0}};
    const size_t total = 4 * 3017 + N * 4 + 64;
    uint8_t *image = test_alloc(total), *after = test_alloc(total);
    for (int order = 0; order < 2; ++order) {
        const size_t oc = places[order][0], ot = places[order][1], oe = places[order][2],
                     oo = places[order][3];
        memset(image, 0xA5, total);
        memcpy(image + oc, f.cond, N);
        memcpy(image + ot, f.then_data, N * 4);
        memcpy(image + oe, f.else_data, N * 4);
        cl_mem big = test_cl_buffer(&env, CL_MEM_READ_WRITE, total, image);
        cl_event done = NULL;
        CHECK_OK(clsel_cl_enqueue(env.ctx, plan, env.queue, big, oc, big, ot, big, oe, big, oo, 0,
                                  NULL, &done));
        CHECK(done && clWaitForEvents(1, &done) == CL_SUCCESS);
        clReleaseEvent(done);
        read_buffer(env.queue, big, 0, total, after);
        CHECK_MSG(memcmp(after + oo, f.want, N * 4) == 0, "order %d", order);
        CHECK_MSG(memcmp(after, image, oo) == 0 &&
                      memcmp(after + oo + N * 4, image + oo + N * 4, total - oo - N * 4) == 0,
                  "order %d: bytes outside the output changed", order);
        clReleaseMemObject(big);
    }

    /* A sub-buffer of the output region, and an overlap through a sub-buffer. */
    cl_uint align_bits = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits,
                    NULL);
    size_t align = align_bits / 8 ? align_bits / 8 : 128;
    cl_buffer_region region = {align * 64, N * 4};
    cl_mem parent =
        test_cl_buffer(&env, CL_MEM_READ_WRITE, region.origin + region.size + align, NULL);
    cl_int err;
    cl_mem sub =
        clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK(err == CL_SUCCESS);
    CHECK_OK(
        clsel_cl_enqueue(env.ctx, plan, env.queue, f.c, 0, f.t, 0, f.e, 0, sub, 0, 0, NULL, NULL));
    uint32_t got[N];
    read_buffer(env.queue, parent, region.origin, sizeof got, got);
    CHECK(memcmp(got, f.want, sizeof got) == 0);
    /* then = parent at [origin - 8, ...) overlaps out = sub partially: rejected. */
    CHECK_STATUS(clsel_cl_enqueue(env.ctx, plan, env.queue, f.c, 0, parent, region.origin - 8, f.e,
                                  0, sub, 0, 0, NULL, NULL),
                 CLSEL_ERROR_BUFFER);
    CHECK(strstr(clsel_last_error(), "overlap then"));
    clReleaseMemObject(sub);
    clReleaseMemObject(parent);
    free(image);
    free(after);
    clsel_plan_destroy(plan);
    fixture_close(&f);
}

/* Buffers the host may not map (CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY, and a
 * sub-buffer of such a one): the native path maps the buffers it runs over, so there the
 * call takes the OpenCL kernels; exact on every path. */
static void test_host_access(void)
{
    fixture f;
    fixture_open(&f, 4);
    clsel_shape s = SHAPE(N);
    clsel_plan *plan = make_plan(CLSEL_I32, s, s, s);
    cl_int err;
    cl_mem hidden =
        clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS | CL_MEM_COPY_HOST_PTR,
                       N * 4, f.then_data, &err);
    CHECK(err == CL_SUCCESS);
    cl_mem out = clCreateBuffer(env.context, CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY, 2 * N * 4,
                                NULL, &err);
    CHECK(err == CL_SUCCESS);
    const cl_buffer_region region = {0, N * 4};
    cl_mem sub =
        clCreateSubBuffer(out, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK(err == CL_SUCCESS);
    uint32_t got[N];
    CHECK_OK(clsel_cl_enqueue(env.ctx, plan, env.queue, f.c, 0, hidden, 0, f.e, 0, out, N * 4, 0,
                              NULL, NULL));
    read_buffer(env.queue, out, N * 4, sizeof got, got);
    CHECK_MSG(memcmp(got, f.want, sizeof got) == 0, "then in a CL_MEM_HOST_NO_ACCESS buffer");
    CHECK_OK(
        clsel_cl_enqueue(env.ctx, plan, env.queue, f.c, 0, f.t, 0, f.e, 0, sub, 0, 0, NULL, NULL));
    read_buffer(env.queue, out, 0, sizeof got, got);
    CHECK_MSG(memcmp(got, f.want, sizeof got) == 0,
              "out in a sub-buffer of a CL_MEM_HOST_READ_ONLY buffer");
    clReleaseMemObject(sub);
    clReleaseMemObject(out);
    clReleaseMemObject(hidden);
    clsel_plan_destroy(plan);
    fixture_close(&f);
}

static void test_in_place(void)
{
    fixture f;
    fixture_open(&f, 3);
    clsel_shape s = SHAPE(N);
    clsel_plan *plan = make_plan(CLSEL_U32, s, s, s);
    cl_mem t = test_cl_buffer(&env, CL_MEM_READ_WRITE, N * 4 + 8, NULL);
    clEnqueueWriteBuffer(env.queue, t, CL_TRUE, 8, N * 4, f.then_data, 0, NULL, NULL);
    CHECK_OK(clsel_cl_enqueue(env.ctx, plan, env.queue, f.c, 0, t, 8, f.e, 0, t, 8, 0, NULL, NULL));
    uint32_t got[N];
    read_buffer(env.queue, t, 8, sizeof got, got);
    CHECK(memcmp(got, f.want, sizeof got) == 0);
    cl_mem e = test_cl_buffer(&env, CL_MEM_READ_WRITE, N * 4, f.else_data);
    CHECK_OK(clsel_cl_enqueue(env.ctx, plan, env.queue, f.c, 0, f.t, 0, e, 0, e, 0, 0, NULL, NULL));
    read_buffer(env.queue, e, 0, sizeof got, got);
    CHECK(memcmp(got, f.want, sizeof got) == 0);
    clReleaseMemObject(t);
    clReleaseMemObject(e);
    clsel_plan_destroy(plan);
    fixture_close(&f);
}

/* A strided then (reversed, element [0] at its buffer's end): the offset must leave room for every
 * byte below it, and the buffer for every byte above; the message names the tensor and the
 * reach. */
static void test_strided_extents(void)
{
    fixture f;
    fixture_open(&f, 3);
    clsel_shape s = SHAPE(N);
    clsel_strides st = clsel_strides_default();
    st.strided = CLSEL_STRIDED(CLSEL_OPERAND_THEN);
    st.strides[CLSEL_OPERAND_THEN][0] = -1;
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create_strided(CLSEL_U32, &s, &s, &s, NULL, &st, &plan));
    uint32_t reversed[N];
    for (int i = 0; i < N; ++i)
        reversed[i] = ((const uint32_t *)f.then_data)[N - 1 - i];
    cl_mem t = test_cl_buffer(&env, CL_MEM_READ_WRITE, N * 4, reversed);
    cl_mem out = test_cl_buffer(&env, CL_MEM_READ_WRITE, N * 4, NULL);
    cl_event event = NULL;
    CHECK_STATUS(
        clsel_cl_enqueue(env.ctx, plan, env.queue, f.c, 0, t, 0, f.e, 0, out, 0, 0, NULL, &event),
        CLSEL_ERROR_BUFFER);
    CHECK_MSG(strstr(clsel_last_error(), "then strides reach") != NULL && event == NULL, "%s",
              clsel_last_error());
    CHECK_STATUS(
        clsel_cl_enqueue(env.ctx, plan, env.queue, f.c, 0, t, N * 4, f.e, 0, out, 0, 0, NULL, NULL),
        CLSEL_ERROR_BUFFER); /* element [0] one past the end */
    CHECK_OK(clsel_cl_enqueue(env.ctx, plan, env.queue, f.c, 0, t, (N - 1) * 4, f.e, 0, out, 0, 0,
                              NULL, NULL));
    uint32_t got[N];
    read_buffer(env.queue, out, 0, sizeof got, got);
    CHECK(memcmp(got, f.want, sizeof got) == 0);
    clReleaseMemObject(t);
    clReleaseMemObject(out);
    clsel_plan_destroy(plan);
    fixture_close(&f);
}

/* Each error: the right status, a message, no event, and the output untouched. */
static void test_errors(void)
{
    fixture f;
    fixture_open(&f, 4);
    clsel_shape s = SHAPE(N), one = SHAPE(1);
    clsel_plan *plan = make_plan(CLSEL_F32, s, s, s);
    clsel_plan *bplan = make_plan(CLSEL_F32, s, one, s);
    uint32_t sentinel[N];
    for (int i = 0; i < N; ++i)
        sentinel[i] = 0xDEADBEEFu;
    cl_mem out = test_cl_buffer(&env, CL_MEM_READ_WRITE, N * 4, sentinel);
    cl_mem small = test_cl_buffer(&env, CL_MEM_READ_WRITE, N * 4 - 4, NULL);
    cl_mem read_only = test_cl_buffer(&env, CL_MEM_READ_ONLY, N * 4, NULL);
    cl_mem shared = test_cl_buffer(&env, CL_MEM_READ_WRITE, N * 8, NULL);
    cl_int err;
    cl_context other_context = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
    cl_command_queue other_queue = clCreateCommandQueue(other_context, env.device, 0, &err);
    cl_event gate = clCreateUserEvent(env.context, &err);
    cl_event no_events[1] = {NULL};

    struct {
        const char *what;
        clsel_plan *plan;
        cl_command_queue queue;
        cl_mem c, t, e, o;
        size_t oc, ot, oe, oo;
        cl_uint nw;
        const cl_event *wl;
        clsel_status status;
        const char *message;
    } cases[] = {
        {"out too small", plan, env.queue, f.c, f.t, f.e, small, 0, 0, 0, 0, 0, NULL,
         CLSEL_ERROR_BUFFER, "out buffer holds 3996 bytes"},
        {"offset past the end", plan, env.queue, f.c, f.t, f.e, out, 0, 0, 0, 4, 0, NULL,
         CLSEL_ERROR_BUFFER, "out buffer holds"},
        {"then too small", plan, env.queue, f.c, small, f.e, out, 0, 0, 0, 0, 0, NULL,
         CLSEL_ERROR_BUFFER, "then buffer holds"},
        {"cond offset past the end", plan, env.queue, f.c, f.t, f.e, out, 1, 0, 0, 0, 0, NULL,
         CLSEL_ERROR_BUFFER, "cond buffer holds 1000 bytes"},
        {"misaligned offset", plan, env.queue, f.c, shared, f.e, out, 0, 2, 0, 0, 0, NULL,
         CLSEL_ERROR_BUFFER, "not a multiple of the element size 4"},
        {"offset overflow", plan, env.queue, f.c, f.t, f.e, out, 0, 0, SIZE_MAX - 3, 0, 0, NULL,
         CLSEL_ERROR_OVERFLOW, "overflows"},
        {"read-only out", plan, env.queue, f.c, f.t, f.e, read_only, 0, 0, 0, 0, 0, NULL,
         CLSEL_ERROR_BUFFER, "CL_MEM_READ_ONLY"},
        {"out overlaps then", plan, env.queue, f.c, shared, f.e, shared, 0, 0, 0, 8, 0, NULL,
         CLSEL_ERROR_BUFFER, "overlap then"},
        {"out overlaps else", plan, env.queue, f.c, f.t, shared, shared, 0, 0, 4, 0, 0, NULL,
         CLSEL_ERROR_BUFFER, "overlap else"},
        {"out overlaps cond", plan, env.queue, shared, f.t, f.e, shared, 0, 0, 0, 0, 0, NULL,
         CLSEL_ERROR_BUFFER, "overlap cond"},
        {"in place on a broadcast then", bplan, env.queue, f.c, shared, f.e, shared, 0, 0, 0, 0, 0,
         NULL, CLSEL_ERROR_BUFFER, "overlap then"},
        {"NULL cond", plan, env.queue, NULL, f.t, f.e, out, 0, 0, 0, 0, 0, NULL,
         CLSEL_ERROR_INVALID_ARGUMENT, "cond buffer is NULL but has 1000 elements"},
        {"NULL out", plan, env.queue, f.c, f.t, f.e, NULL, 0, 0, 0, 0, 0, NULL,
         CLSEL_ERROR_INVALID_ARGUMENT, "out buffer is NULL"},
        {"NULL plan", NULL, env.queue, f.c, f.t, f.e, out, 0, 0, 0, 0, 0, NULL,
         CLSEL_ERROR_INVALID_ARGUMENT, "plan is NULL"},
        {"NULL queue", plan, NULL, f.c, f.t, f.e, out, 0, 0, 0, 0, 0, NULL,
         CLSEL_ERROR_INVALID_ARGUMENT, "queue is NULL"},
        {"queue of another context", plan, other_queue, f.c, f.t, f.e, out, 0, 0, 0, 0, 0, NULL,
         CLSEL_ERROR_INVALID_ARGUMENT, "another cl_context"},
        {"wait count without a list", plan, env.queue, f.c, f.t, f.e, out, 0, 0, 0, 0, 1, NULL,
         CLSEL_ERROR_INVALID_ARGUMENT, "event_wait_list is NULL"},
        {"NULL event in the wait list", plan, env.queue, f.c, f.t, f.e, out, 0, 0, 0, 0, 1,
         no_events, CLSEL_ERROR_INVALID_ARGUMENT, "event_wait_list[0] is NULL"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        cl_event done = (cl_event)&done; /* must come back NULL */
        clsel_status st =
            clsel_cl_enqueue(env.ctx, cases[i].plan, cases[i].queue, cases[i].c, cases[i].oc,
                             cases[i].t, cases[i].ot, cases[i].e, cases[i].oe, cases[i].o,
                             cases[i].oo, cases[i].nw, cases[i].wl, &done);
        CHECK_MSG(st == cases[i].status, "%s: got %s (%s)", cases[i].what, clsel_status_string(st),
                  clsel_last_error());
        CHECK_MSG(strstr(clsel_last_error(), cases[i].message) != NULL,
                  "%s: message \"%s\" lacks \"%s\"", cases[i].what, clsel_last_error(),
                  cases[i].message);
        CHECK_MSG(done == NULL, "%s: an event came back from a failed call", cases[i].what);
    }
    CHECK_STATUS(
        clsel_cl_enqueue(NULL, plan, env.queue, f.c, 0, f.t, 0, f.e, 0, out, 0, 0, NULL, NULL),
        CLSEL_ERROR_INVALID_ARGUMENT);
    uint32_t got[N];
    read_buffer(env.queue, out, 0, sizeof got, got);
    CHECK(memcmp(got, sentinel, sizeof got) == 0);
    clSetUserEventStatus(gate, CL_COMPLETE);
    clReleaseEvent(gate);
    clReleaseCommandQueue(other_queue);
    clReleaseContext(other_context);
    clReleaseMemObject(out);
    clReleaseMemObject(small);
    clReleaseMemObject(read_only);
    clReleaseMemObject(shared);
    clsel_plan_destroy(plan);
    clsel_plan_destroy(bplan);
    fixture_close(&f);
}

/* Two queues on one context, and an out-of-order queue where the device has one. */
static void test_queues(void)
{
    fixture f;
    fixture_open(&f, 5);
    clsel_shape s = SHAPE(N);
    clsel_plan *plan = make_plan(CLSEL_F32, s, s, s);
    cl_int err;
    cl_command_queue second = clCreateCommandQueue(env.context, env.device, 0, &err);
    CHECK(err == CL_SUCCESS);
    cl_command_queue_properties props = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    cl_command_queue ooo = NULL;
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        ooo = clCreateCommandQueue(env.context, env.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                   &err);
    cl_command_queue queues[3] = {env.queue, second, ooo};
    cl_mem outs[3];
    cl_event events[3];
    int used = ooo ? 3 : 2;
    for (int q = 0; q < used; ++q) {
        outs[q] = test_cl_buffer(&env, CL_MEM_READ_WRITE, N * 4, NULL);
        CHECK_OK(clsel_cl_enqueue(env.ctx, plan, queues[q], f.c, 0, f.t, 0, f.e, 0, outs[q], 0, 0,
                                  NULL, &events[q]));
        clFlush(queues[q]);
    }
    CHECK(clWaitForEvents((cl_uint)used, events) == CL_SUCCESS);
    for (int q = 0; q < used; ++q) {
        uint32_t got[N];
        read_buffer(env.queue, outs[q], 0, sizeof got, got);
        CHECK_MSG(memcmp(got, f.want, sizeof got) == 0, "queue %d", q);
        clReleaseEvent(events[q]);
        clReleaseMemObject(outs[q]);
    }
    printf("queues: in-order x2%s\n", ooo ? ", out-of-order" : " (no out-of-order support)");
    if (ooo)
        clReleaseCommandQueue(ooo);
    clReleaseCommandQueue(second);
    clsel_plan_destroy(plan);
    fixture_close(&f);
}

/* More than 65535 work-groups along NDRange dim 2: several launches, one event. */
static void test_split_launch(void)
{
    clsel_shape c = SHAPE(70000, 1, 2), t = SHAPE(1, 2, 2), e = SHAPE(70000, 2, 2);
    clsel_plan *plan = make_plan(CLSEL_U16, c, t, e);
    char text[256];
    clsel_plan_describe(plan, text, sizeof text);
    CHECK_MSG(strstr(text, "3 dims [2,2,70000]") != NULL, "%s", text);
    const int64_t n = 70000 * 4;
    rng r = {6};
    uint8_t *cond = test_alloc(70000 * 2);
    uint16_t then_data[4], *else_data = test_alloc((size_t)n * 2),
                           *want = test_alloc((size_t)n * 2), *got = test_alloc((size_t)n * 2);
    fill_cond(cond, 70000 * 2, &r);
    fill_values(then_data, 4, 2, &r);
    fill_values(else_data, (size_t)n, 2, &r);
    CHECK_OK(clsel_plan_run_cpu(plan, cond, then_data, else_data, want));
    CHECK_OK(test_cl_run(&env, plan, cond, then_data, else_data, got, 0, NULL));
    CHECK(memcmp(got, want, (size_t)n * 2) == 0);
    free(cond);
    free(else_data);
    free(want);
    free(got);
    clsel_plan_destroy(plan);
}

/* Four u8 elements selected by `ctx` on queue `q`, every tensor a new buffer of `context` (the
 * output's holding four_untouched): the call's status, and the output read back into got. */
enum {
    FOUR = 4
};
static const uint8_t four_want[FOUR] = {1, 6, 3, 8}, four_untouched[FOUR] = {9, 9, 9, 9};

static clsel_status select_four(clsel_cl_context *ctx, cl_context context, cl_command_queue q,
                                uint8_t got[FOUR])
{
    static const uint8_t c[FOUR] = {1, 0, 1, 0}, t[FOUR] = {1, 2, 3, 4}, e[FOUR] = {5, 6, 7, 8};
    const uint8_t *const data[4] = {c, t, e, four_untouched};
    cl_mem m[4];
    for (int i = 0; i < 4; ++i)
        m[i] = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, FOUR, (void *)data[i], NULL);
    clsel_shape s = SHAPE(FOUR);
    clsel_plan *plan = make_plan(CLSEL_U8, s, s, s);
    const clsel_status st =
        clsel_cl_enqueue(ctx, plan, q, m[0], 0, m[1], 0, m[2], 0, m[3], 0, 0, NULL, NULL);
    read_buffer(q, m[3], 0, FOUR, got);
    for (int i = 0; i < 4; ++i)
        clReleaseMemObject(m[i]);
    clsel_plan_destroy(plan);
    return st;
}

static void test_context(void)
{
    clsel_cl_context *ctx = (clsel_cl_context *)&ctx;
    CHECK_STATUS(clsel_cl_context_create(NULL, env.device, &ctx), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(clsel_cl_context_create(env.context, NULL, &ctx), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(clsel_cl_context_create(env.context, env.device, NULL),
                 CLSEL_ERROR_INVALID_ARGUMENT);
    /* A sub-device is not part of the context made for its parent (where the device can
     * be partitioned equally at all: partitioning is optional). */
    cl_uint max_sub = 0;
    cl_device_partition_property kinds[8] = {0};
    size_t kinds_bytes = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES, sizeof max_sub, &max_sub,
                    NULL);
    clGetDeviceInfo(env.device, CL_DEVICE_PARTITION_PROPERTIES, sizeof kinds, kinds, &kinds_bytes);
    int equally = 0;
    for (size_t i = 0; i < kinds_bytes / sizeof kinds[0]; ++i)
        equally |= kinds[i] == CL_DEVICE_PARTITION_EQUALLY;
    if (max_sub > 1 && equally) {
        cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
        cl_device_id sub = NULL;
        cl_uint nsub = 0;
        if (clCreateSubDevices(env.device, props, 1, &sub, &nsub) == CL_SUCCESS && nsub >= 1) {
            CHECK_STATUS(clsel_cl_context_create(env.context, sub, &ctx), CLSEL_ERROR_NO_DEVICE);
            CHECK(strstr(clsel_last_error(), "not part of the context"));
            clReleaseDevice(sub);
        }
    } else {
        printf("test_context: %s cannot be partitioned; the sub-device case is left out\n",
               env.device_name);
    }
    size_t source_size = 0;
    CHECK_STATUS(clsel_cl_kernel_source(NULL, &source_size), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "source is NULL"));
    CHECK_STATUS(clsel_cl_context_prepare(NULL, CLSEL_F32), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(clsel_cl_context_prepare(env.ctx, (clsel_dtype)99), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "unknown dtype 99"));
    CHECK_STATUS(clsel_cl_context_prepare_plan(env.ctx, NULL), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "plan is NULL"));
    {
        /* A text too short for the kernels' list: cut, terminated, the length it needs told. */
        clsel_shape wide = SHAPE(64, 64);
        clsel_plan *listed = make_plan(CLSEL_F32, wide, wide, wide);
        char whole[4096], cut[8];
        const size_t needed = clsel_cl_plan_kernels(listed, whole, sizeof whole);
        CHECK(needed > sizeof cut && clsel_cl_plan_kernels(listed, cut, sizeof cut) == needed);
        CHECK(strlen(cut) == sizeof cut - 1 && strncmp(cut, whole, sizeof cut - 1) == 0);
        clsel_plan_destroy(listed);
    }
    {
        /* An empty plan prepares nothing, on either path. */
        clsel_shape none = SHAPE(0);
        clsel_plan *empty = make_plan(CLSEL_F32, none, none, none);
        CHECK_OK(clsel_cl_context_prepare_plan(env.ctx, empty));
        clsel_plan_destroy(empty);
    }
    CHECK(clsel_cl_build_log(env.ctx) != NULL && clsel_cl_build_log(NULL) != NULL);
    CHECK(clsel_cl_program_cached(NULL) == 0);
    CHECK(strcmp(clsel_cl_device_name(env.ctx), env.device_name) == 0);
    clsel_cl_context_destroy(NULL);
    /* The context keeps its own references: it outlives the caller's release. */
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
    clsel_cl_context *mine = NULL;
    CHECK_OK(clsel_cl_context_create(context, env.device, &mine));
    clReleaseContext(context);
    cl_command_queue q = clCreateCommandQueue(context, env.device, 0, &err);
    CHECK(err == CL_SUCCESS);
    uint8_t got[FOUR];
    CHECK_OK(select_four(mine, context, q, got));
    CHECK(memcmp(got, four_want, FOUR) == 0);
    clReleaseCommandQueue(q);
    clsel_cl_context_destroy(mine);
}

/* clsel_cl_plan_access, the kernels' access model, on one pattern of each kind: what it says of
 * each tensor, that bytes and shares stay in their ranges, and the text's length and cut. */
static void test_plan_access(void)
{
    clsel_shape square = SHAPE(64, 64), one = SHAPE(1), row = SHAPE(1, 64), column = SHAPE(64, 1),
                short_rows = SHAPE(4096, 3), three = SHAPE(3), none = SHAPE(0);
    clsel_strides transposed = clsel_strides_default(), padded = clsel_strides_default();
    transposed.strided = CLSEL_STRIDED(CLSEL_OPERAND_THEN);
    transposed.strides[CLSEL_OPERAND_THEN][0] = 1;
    transposed.strides[CLSEL_OPERAND_THEN][1] = 64;
    padded.strided = CLSEL_STRIDED(CLSEL_OPERAND_OUT);
    padded.strides[CLSEL_OPERAND_OUT][0] = 128;
    padded.strides[CLSEL_OPERAND_OUT][1] = 1;
    enum {
        U = CLSEL_CL_UNIFORM,
        F = CLSEL_CL_FIXED,
        R = CLSEL_CL_ROWS,
        D = CLSEL_CL_DENSE
    };
    const struct {
        const char *what;
        clsel_dtype dtype;
        clsel_shape c, t, e;
        const clsel_strides *strides;
        int32_t rank, kind[4];
        double then_bytes;
    } cases[] = {
        {"same shape", CLSEL_F32, square, square, square, NULL, 1, {D, D, D, D}, 4},
        {"scalar then", CLSEL_F32, square, one, square, NULL, 1, {D, U, D, D}, 1},
        {"cond along rows", CLSEL_F32, row, square, square, NULL, 2, {R, D, D, D}, 4},
        {"else fixed along rows", CLSEL_F32, square, square, column, NULL, 2, {D, D, F, D}, 4},
        {"rows of 3 bytes", CLSEL_U8, short_rows, short_rows, three, NULL, 2, {D, D, R, D}, 1},
        {"transposed then",
         CLSEL_F32,
         square,
         square,
         square,
         &transposed,
         2,
         {D, CLSEL_CL_TILED, D, D},
         8}, /* two 16-byte windows read per one kept */
        {"padded out", CLSEL_F32, square, square, square, &padded, 2, {D, D, D, R}, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        clsel_plan *plan = NULL;
        CHECK_OK(clsel_plan_create_strided(cases[i].dtype, &cases[i].c, &cases[i].t, &cases[i].e,
                                           NULL, cases[i].strides, &plan));
        clsel_cl_access a;
        char text[512];
        const size_t length = clsel_cl_plan_access(plan, &a, text, sizeof text);
        CHECK_MSG(length == strlen(text) && a.rank == cases[i].rank &&
                      memcmp(a.kind, cases[i].kind, sizeof a.kind) == 0 &&
                      a.bytes[CLSEL_OPERAND_THEN] == cases[i].then_bytes,
                  "%s: rank %d, kinds %d %d %d %d, then %g bytes: %s", cases[i].what, a.rank,
                  a.kind[0], a.kind[1], a.kind[2], a.kind[3], a.bytes[CLSEL_OPERAND_THEN], text);
        for (int op = 0; op < 4; ++op)
            CHECK(a.wide[op] >= 0 && a.wide[op] <= 1 && a.bytes[op] > 0);
        CHECK(a.rows_crossed >= 0 && a.rows_crossed <= 1);
        char cut[16];
        CHECK(clsel_cl_plan_access(plan, NULL, cut, sizeof cut) == length &&
              strncmp(cut, text, sizeof cut - 1) == 0 && strlen(cut) == sizeof cut - 1);
        clsel_plan_destroy(plan);
    }
    clsel_plan *empty = make_plan(CLSEL_F32, none, none, none);
    CHECK(clsel_cl_plan_access(empty, NULL, NULL, 0) == 0 &&
          clsel_cl_plan_access(NULL, NULL, NULL, 0) == 0);
    clsel_plan_destroy(empty);
}

/* Two devices of one platform (PoCL with POCL_DEVICES="pthread pthread": ctest
 * opencl_interop_two_devices): a device that is not part of the caller's context, and a queue
 * of the context's other device, are refused with messages that say so; a context of both
 * devices runs on the device it was made for. With one device there is nothing to
 * check: run alone, the test is skipped (an H100 machine has one). */
static void test_two_devices(void)
{
    cl_device_id devices[2] = {NULL, NULL};
    cl_uint count = 0;
    clGetDeviceIDs(env.platform, CL_DEVICE_TYPE_ALL, 2, devices, &count);
    if (count < 2) {
        printf("two_devices: %s has one device; nothing to check\n", env.device_name);
        if (check_count == 0) /* run alone (ctest opencl_interop_two_devices): a skip, not a pass */
            exit(TEST_SKIP);
        return;
    }
    const cl_device_id other = devices[0] == env.device ? devices[1] : devices[0];
    clsel_cl_context *ctx = (clsel_cl_context *)&ctx; /* a failed call leaves it as it was */
    CHECK_STATUS(clsel_cl_context_create(env.context, other, &ctx), CLSEL_ERROR_NO_DEVICE);
    CHECK(ctx == (clsel_cl_context *)&ctx && strstr(clsel_last_error(), "not part of the context"));

    cl_int err;
    cl_context both = clCreateContext(NULL, 2, devices, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS);
    CHECK_OK(clsel_cl_context_create(both, env.device, &ctx));
    cl_command_queue mine = clCreateCommandQueue(both, env.device, 0, &err),
                     theirs = clCreateCommandQueue(both, other, 0, &err);
    uint8_t got[FOUR];
    CHECK_STATUS(select_four(ctx, both, theirs, got), CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(clsel_last_error(), "another device"));
    CHECK(memcmp(got, four_untouched, FOUR) == 0);
    CHECK_OK(select_four(ctx, both, mine, got));
    CHECK(memcmp(got, four_want, FOUR) == 0);
    printf("two_devices: the other device and its queue refused, the context's device ran\n");
    clReleaseCommandQueue(mine);
    clReleaseCommandQueue(theirs);
    clsel_cl_context_destroy(ctx);
    clReleaseContext(both);
}

/* Both forms of the kernels (cl/select.cl) at their edges: runs whose items
 * lie on 16 bytes (rank 1 with a short last item, rows of a multiple of 16 bytes) and
 * runs that miss by an element in one tensor, through every layout; and host memory
 * (CL_MEM_USE_HOST_PTR) one byte off 16, where only the host pointer tells that the
 * aligned form must not run (a CPU device faults on an aligned access there). */
static void test_alignment_forms(void)
{
    const clsel_shape shapes[][3] = {
        {SHAPE(1000), SHAPE(1000), SHAPE(1000)},
        {SHAPE(37), SHAPE(37), SCALAR},
        {SHAPE(3, 32), SHAPE(3, 32), SHAPE(3, 32)},
        {SHAPE(3, 1), SHAPE(3, 32), SHAPE(32)},
        {SHAPE(5, 16), SHAPE(1, 16), SHAPE(5, 1)},
        {SHAPE(4, 33), SHAPE(4, 33), SHAPE(4, 33)},
        {SHAPE(2, 3, 64), SHAPE(2, 1, 64), SHAPE(3, 64)},
        {SHAPE(6, 5), SHAPE(6, 5), SHAPE(6, 5)},
    };
    static const clsel_dtype dtypes[] = {CLSEL_U8, CLSEL_F16, CLSEL_F32, CLSEL_F64};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k)
        for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d)
            for (size_t layout = 0; layout < TEST_CL_LAYOUTS; ++layout) {
                clsel_plan *plan = make_plan(dtypes[d], shapes[k][0], shapes[k][1], shapes[k][2]);
                test_data td;
                test_data_make(&td, plan, k * 1000 + d * 10 + layout);
                CHECK_OK(clsel_plan_run_cpu(plan, td.cond, td.then_data, td.else_data, td.want));
                int guards = 0;
                CHECK_OK(test_cl_run(&env, plan, td.cond, td.then_data, td.else_data, td.got,
                                     layout, &guards));
                CHECK_MSG(memcmp(td.got, td.want, (size_t)td.out_count * td.w) == 0 && guards,
                          "shapes %zu %s layout %zu", k, clsel_dtype_name(dtypes[d]), layout);
                test_data_free(&td);
                clsel_plan_destroy(plan);
            }

    /* Host memory through CL_MEM_USE_HOST_PTR, each tensor 4 bytes past 16 or on it. */
    enum {
        HOST_N = 4096
    };
    uint8_t *block = test_alloc(4 * (HOST_N * 4 + 64));
    for (int off = 0; off <= 4; off += 4) {
        uint8_t *base = block + (16 - ((uintptr_t)block % 16)) % 16; /* on 16 */
        uint8_t *c = base + off, *t = c + HOST_N + 32, *e = t + 4 * HOST_N + 32,
                *o = e + 4 * HOST_N + 32;
        rng r = {77 + (uint64_t)off};
        fill_cond(c, HOST_N, &r);
        fill_values(t, HOST_N, 4, &r);
        fill_values(e, HOST_N, 4, &r);
        cl_int err;
        cl_mem mc = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, HOST_N, c, &err);
        cl_mem mt = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 4 * HOST_N, t, &err);
        cl_mem me = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 4 * HOST_N, e, &err);
        cl_mem mo = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 4 * HOST_N, o, &err);
        clsel_shape s = SHAPE(HOST_N);
        clsel_plan *plan = make_plan(CLSEL_U32, s, s, s);
        CHECK_OK(
            clsel_cl_enqueue(env.ctx, plan, env.queue, mc, 0, mt, 0, me, 0, mo, 0, 0, NULL, NULL));
        uint32_t *got = test_alloc(4 * HOST_N);
        read_buffer(env.queue, mo, 0, 4 * HOST_N, got);
        int ok = 1;
        for (int i = 0; i < HOST_N; ++i) {
            uint32_t tv, ev;
            memcpy(&tv, t + 4 * i, 4);
            memcpy(&ev, e + 4 * i, 4);
            ok &= got[i] == (c[i] ? tv : ev);
        }
        CHECK_MSG(ok, "host memory %d bytes off 16", off);
        free(got);
        clsel_plan_destroy(plan);
        clReleaseMemObject(mc);
        clReleaseMemObject(mt);
        clReleaseMemObject(me);
        clReleaseMemObject(mo);
    }
    free(block);
}

/* Every kernel variant and element width, against the CPU path. */
static void test_every_kernel(void)
{
    const clsel_shape full = SHAPE(5, 6, 7);
    const clsel_shape shapes[][3] = {
        {full, full, full},
        {SHAPE(7), full, full},
        {full, SHAPE(7), full},
        {full, full, SHAPE(7)},
        {full, full, SCALAR},
        {full, SCALAR, full},
        {SHAPE(6, 1), full, full},
        {SHAPE(5, 6, 1), SHAPE(5, 1, 7), SHAPE(6, 1)},
        {SCALAR, full, SHAPE(5, 6, 1)},
        {SHAPE(2, 1, 2, 1, 2), SHAPE(1, 3, 1, 3, 1), SHAPE(2, 3, 2, 3, 2)},
    };
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k)
        for (int d = 0; d < 13; ++d) {
            clsel_plan *plan = make_plan(all_dtypes[d], shapes[k][0], shapes[k][1], shapes[k][2]);
            if (!plan)
                continue;
            test_data td;
            test_data_make(&td, plan, k * 100 + (uint64_t)d);
            CHECK_OK(clsel_plan_run_cpu(plan, td.cond, td.then_data, td.else_data, td.want));
            int guards = 0;
            CHECK_OK(test_cl_run(&env, plan, td.cond, td.then_data, td.else_data, td.got,
                                 (size_t)d % 3, &guards));
            CHECK_MSG(memcmp(td.got, td.want, (size_t)td.out_count * td.w) == 0 && guards,
                      "case %zu %s", k, clsel_dtype_name(all_dtypes[d]));
            test_data_free(&td);
            clsel_plan_destroy(plan);
        }
}

static int open_device(void)
{
    test_cl_open(&env);
    return 0;
}

static void close_device(void)
{
    test_cl_close(&env);
}

static const test_case cases[] = {
    {"wait_list_and_events", test_wait_list_and_events},
    {"empty_output", test_empty_output},
    {"offsets_and_sub_buffers", test_offsets_and_sub_buffers},
    {"in_place", test_in_place},
    {"strided_extents", test_strided_extents},
    {"host_access", test_host_access},
    {"errors", test_errors},
    {"queues", test_queues},
    {"split_launch", test_split_launch},
    {"context", test_context},
    {"two_devices", test_two_devices},
    {"plan_access", test_plan_access},
    {"alignment_forms", test_alignment_forms},
    {"every_kernel", test_every_kernel},
};

int main(int argc, char **argv)
{
    const check_suite suite = {"test_opencl_interop", cases,       CHECK_COUNT(cases), NULL, 0,
                               open_device,           close_device};
    return check_main(argc, argv, &suite);
}
