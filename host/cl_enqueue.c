/* cl_enqueue.c - clsel_cl_enqueue: picks the kernel for a plan's collapsed geometry,
 * sets its arguments under the kernel's lock and launches it on the caller's queue. */
#include <string.h>

#include "cl_validate.h"
#include "error.h"
#include "plan.h"
#include "testing.h"

/* Most work-groups one launch puts on NDRange dim 1: some drivers map it to a grid dim
 * limited to 65535 blocks, so the host splits bigger launches. */
#define MAX_GROUPS_DIM1 65535u
/* Rows shorter than this run whole in the loop kernel, several rows per work-item:
 * work-groups along such rows would be a handful of items each. */
#define SHORT_ROW 32u
/* On CPU devices, outputs up to this size run whole in the loop kernel, one launch:
 * a launch costs PoCL 40-100 us, more than a work-item takes to loop over 16K
 * elements, so a second launch for a row's remainder would double the time (measured:
 * 4097 elements 0.17 ms in two launches against 0.09 ms for one). GPUs launch in a few
 * microseconds and loop slowly, so they keep the two launches. */
#define CPU_ONE_LAUNCH 16384u

/* The kernel arguments shared by every kernel (cl/select.cl, CLSEL_ARGS). */
enum {
    ARG_COND = 0, ARG_COND_OFF, ARG_THEN, ARG_THEN_OFF, ARG_ELSE, ARG_ELSE_OFF, ARG_OUT, ARG_OUT_OFF,
    ARG_SHAPE, ARG_COND_STRIDES, ARG_THEN_STRIDES, ARG_ELSE_STRIDES, ARG_OUT_STRIDES, ARG_X0, ARG_R0, ARG_ROWS,
    ARG_PER_ITEM /* the loop kernel only */
};

/* The geometry of one call: collapsed dims padded to 8, rows, and how each row is
 * split between whole work-groups (bulk) and the loop kernel. */
typedef struct geometry {
    int index_width; /* INDEX_I32 or INDEX_I64 */
    int variant;     /* KERNEL_R3 or KERNEL_RN plus what advances along dim 0 */
    uint64_t shape[8];
    uint64_t strides[PLAN_OPERANDS][8];
    uint64_t rows; /* product of shape[1..7] */
    size_t local;      /* work-group size along dim 0 */
    uint64_t bulk;     /* x < bulk runs in whole work-groups; the rest in the loop kernel */
    uint64_t per_item; /* rows per work-item of the loop kernel */
} geometry;

static int element_width_index(size_t elem_size)
{
    return elem_size == 1 ? 0 : elem_size == 2 ? 1 : elem_size == 4 ? 2 : 3;
}

static uint64_t round_up(uint64_t n, uint64_t m) { return (n + m - 1) / m * m; }

/* The work-group size along a row: the widest power of two (up to the context's size,
 * at least a quarter of it) that divides the row, so that no loop kernel is needed;
 * else the widest whose whole groups cover all but a sixteenth of the row, the loop
 * kernel doing the rest (a plain loop: fine for a few elements per row, slow for
 * many). Each size is one more compile on PoCL; there are at most nine. */
static size_t pick_local(const clsel_cl_context *ctx, uint64_t n0)
{
    for (size_t local = ctx->work_group_size; local >= ctx->work_group_size / 4 && local > 1; local /= 2)
        if (n0 % local == 0) return local;
    size_t local = ctx->work_group_size;
    while (local > 1 && (local > n0 || n0 % local > n0 / 16)) local /= 2;
    return local;
}

static void plan_geometry(const clsel_cl_context *ctx, const clsel_plan *plan, geometry *g)
{
    memset(g, 0, sizeof *g);
    int fits_i32 = !clsel_testing_index64() && plan->out_count <= INT32_MAX;
    for (int op = 0; op < 3; ++op) fits_i32 = fits_i32 && plan->in_count[op] <= INT32_MAX;
    g->index_width = fits_i32 ? INDEX_I32 : INDEX_I64;

    for (int d = 0; d < 8; ++d) {
        g->shape[d] = d < plan->rank ? (uint64_t)plan->dims[d] : 1;
        for (int op = 0; op < PLAN_OPERANDS; ++op)
            g->strides[op][d] = d < plan->rank ? (uint64_t)plan->strides[op][d] : 0;
    }
    int classes = 0;
    for (int op = 0; op < 3; ++op) classes = classes * 2 + (g->strides[op][0] != 0);
    g->variant = (plan->rank <= 3 ? KERNEL_R3 : KERNEL_RN) + classes;
    g->rows = 1;
    for (int d = 1; d < 8; ++d) g->rows *= g->shape[d];
    g->per_item = 1;
    const int one_launch = (ctx->device_type & CL_DEVICE_TYPE_CPU) && (uint64_t)plan->out_count <= CPU_ONE_LAUNCH;
    if ((g->shape[0] < SHORT_ROW && plan->rank >= 2) || one_launch) {
        /* Whole rows in the loop kernel (short rows, or a small output on a CPU
         * device): about 64 items per compute unit, each taking consecutive rows, so
         * that the per-row division is paid once per item. */
        g->local = 1;
        g->bulk = 0;
        g->per_item = g->rows / ((uint64_t)ctx->compute_units * 64);
        if (g->per_item < 1) g->per_item = 1;
        if (g->per_item > 4096) g->per_item = 4096;
        return;
    }
    g->local = pick_local(ctx, g->shape[0]);
    g->bulk = g->shape[0] / g->local * g->local;
}

static cl_int set_vector_arg(const clsel_cl_api *cl, cl_kernel k, cl_uint index, int index_width,
                             const uint64_t v[8])
{
    if (index_width == INDEX_I64) {
        cl_ulong8 a;
        for (int i = 0; i < 8; ++i) a.s[i] = v[i];
        return cl->clSetKernelArg(k, index, sizeof a, &a);
    }
    cl_uint8 a;
    for (int i = 0; i < 8; ++i) a.s[i] = (cl_uint)v[i];
    return cl->clSetKernelArg(k, index, sizeof a, &a);
}

static cl_int set_index_arg(const clsel_cl_api *cl, cl_kernel k, cl_uint index, int index_width,
                            uint64_t v)
{
    if (index_width == INDEX_I64) {
        cl_ulong a = v;
        return cl->clSetKernelArg(k, index, sizeof a, &a);
    }
    cl_uint a = (cl_uint)v;
    return cl->clSetKernelArg(k, index, sizeof a, &a);
}

/* Every argument but r0, which changes between the pieces of one launch. */
static cl_int set_args(const clsel_cl_api *cl, cl_kernel k, const geometry *g, const cl_tensor tensors[TENSORS],
                       uint64_t x0)
{
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < TENSORS && err == CL_SUCCESS; ++i) {
        cl_ulong offset = tensors[i].offset / tensors[i].elem_size;
        err = cl->clSetKernelArg(k, (cl_uint)(ARG_COND + 2 * i), sizeof(cl_mem), &tensors[i].mem);
        if (err == CL_SUCCESS)
            err = cl->clSetKernelArg(k, (cl_uint)(ARG_COND_OFF + 2 * i), sizeof offset, &offset);
    }
    if (err == CL_SUCCESS) err = set_vector_arg(cl, k, ARG_SHAPE, g->index_width, g->shape);
    for (int op = 0; op < PLAN_OPERANDS && err == CL_SUCCESS; ++op)
        err = set_vector_arg(cl, k, (cl_uint)(ARG_COND_STRIDES + op), g->index_width, g->strides[op]);
    if (err == CL_SUCCESS) err = set_index_arg(cl, k, ARG_X0, g->index_width, x0);
    if (err == CL_SUCCESS) err = set_index_arg(cl, k, ARG_ROWS, g->index_width, g->rows);
    return err;
}

/* One kernel over all rows, in pieces of at most MAX_GROUPS_DIM1 work-groups along the
 * rows: the bulk kernel as a 2-D NDRange (x, row), the loop kernel as a 1-D NDRange
 * over groups of per_item rows. `last` receives the event of the last piece when asked
 * for. */
static cl_int launch_kernel(const clsel_cl_context *ctx, cl_command_queue queue, const geometry *g,
                            const cl_tensor tensors[TENSORS], int variant, cl_uint num_wait,
                            const cl_event *wait_list, cl_event *last, int *pieces)
{
    const clsel_cl_api *cl = ctx->cl;
    kernel_slot *slot = (kernel_slot *)&ctx->kernels[g->index_width]
                                                   [element_width_index(tensors[TENSOR_OUT].elem_size)][variant];
    const int loop = variant == KERNEL_LOOP;
    const uint64_t items = loop ? (g->rows + g->per_item - 1) / g->per_item : g->rows;
    const uint64_t items_per_piece = (uint64_t)MAX_GROUPS_DIM1 * (loop ? ctx->loop_local : 1);
    clsel_mutex_lock(&slot->lock);
    cl_int err = set_args(cl, slot->kernel, g, tensors, loop ? g->bulk : 0);
    if (err == CL_SUCCESS && loop) err = set_index_arg(cl, slot->kernel, ARG_PER_ITEM, g->index_width, g->per_item);
    for (uint64_t r0 = 0; r0 < items && err == CL_SUCCESS; r0 += items_per_piece) {
        uint64_t count = items - r0 < items_per_piece ? items - r0 : items_per_piece;
        err = set_index_arg(cl, slot->kernel, ARG_R0, g->index_width, r0);
        if (err != CL_SUCCESS) break;
        if (last && *last) { /* only the final piece's event is kept */
            cl->clReleaseEvent(*last);
            *last = NULL;
        }
        if (loop) {
            size_t global = (size_t)round_up(count, ctx->loop_local), local = ctx->loop_local;
            err = cl->clEnqueueNDRangeKernel(queue, slot->kernel, 1, NULL, &global, &local, num_wait, wait_list, last);
        } else {
            size_t global[2] = {(size_t)g->bulk, (size_t)count}, local[2] = {g->local, 1};
            err = cl->clEnqueueNDRangeKernel(queue, slot->kernel, 2, NULL, global, local, num_wait, wait_list, last);
        }
        ++*pieces;
    }
    clsel_mutex_unlock(&slot->lock);
    return err;
}

/* The bulk and, where rows do not divide into whole work-groups, the loop kernel. The
 * returned event completes after all of it: the single launch's own event, or a marker
 * after several (a marker with no wait list waits for everything enqueued before it). */
static clsel_status launch(const clsel_cl_context *ctx, cl_command_queue queue, const geometry *g,
                           const cl_tensor tensors[TENSORS], cl_uint num_wait, const cl_event *wait_list,
                           cl_event *event)
{
    const clsel_cl_api *cl = ctx->cl;
    int pieces = 0;
    cl_event last = NULL;
    cl_int err = CL_SUCCESS;
    if (g->bulk > 0)
        err = launch_kernel(ctx, queue, g, tensors, g->variant, num_wait, wait_list, event ? &last : NULL, &pieces);
    if (err == CL_SUCCESS && g->bulk < g->shape[0])
        err = launch_kernel(ctx, queue, g, tensors, KERNEL_LOOP, num_wait, wait_list, event ? &last : NULL, &pieces);
    const char *what = "clEnqueueNDRangeKernel";
    if (err == CL_SUCCESS && event) {
        if (pieces == 1) {
            *event = last;
            last = NULL;
        } else {
            what = "clEnqueueMarkerWithWaitList";
            err = cl->clEnqueueMarkerWithWaitList(queue, 0, NULL, event);
        }
    }
    if (last) cl->clReleaseEvent(last);
    if (err != CL_SUCCESS) {
        if (event) *event = NULL;
        return clsel_fail_cl(err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE
                                 ? CLSEL_ERROR_OUT_OF_MEMORY
                                 : CLSEL_ERROR_OPENCL,
                             err, "%s failed", what);
    }
    return CLSEL_SUCCESS;
}

clsel_status clsel_cl_enqueue(clsel_cl_context *ctx, const clsel_plan *plan, cl_command_queue queue,
                              cl_mem cond, size_t cond_offset, cl_mem then_mem, size_t then_offset,
                              cl_mem else_mem, size_t else_offset, cl_mem out, size_t out_offset,
                              cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                              cl_event *event)
{
    if (event) *event = NULL;
    if (!ctx || !plan || !queue)
        return clsel_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cl_enqueue: %s is NULL",
                          !ctx ? "ctx" : !plan ? "plan" : "queue");
    const cl_tensor tensors[TENSORS] = {
        {"cond", cond, cond_offset, 1, plan->in_count[0]},
        {"then", then_mem, then_offset, plan->elem_size, plan->in_count[1]},
        {"else", else_mem, else_offset, plan->elem_size, plan->in_count[2]},
        {"out", out, out_offset, plan->elem_size, plan->out_count},
    };
    clsel_status st = cl_validate_call(ctx, queue, tensors, num_events_in_wait_list, event_wait_list);
    if (st != CLSEL_SUCCESS) return st;

    if (plan->out_count == 0) {
        /* Nothing to compute, but the wait list and the returned event still hold: a
         * marker (a zero-size NDRange is an error before OpenCL 2.1). */
        if (!event && num_events_in_wait_list == 0) return CLSEL_SUCCESS;
        cl_int err = ctx->cl->clEnqueueMarkerWithWaitList(queue, num_events_in_wait_list,
                                                          event_wait_list, event);
        if (err != CL_SUCCESS) {
            if (event) *event = NULL;
            return clsel_fail_cl(CLSEL_ERROR_OPENCL, err, "clEnqueueMarkerWithWaitList failed");
        }
        return CLSEL_SUCCESS;
    }

    geometry g;
    plan_geometry(ctx, plan, &g);
    return launch(ctx, queue, &g, tensors, num_events_in_wait_list, event_wait_list, event);
}
