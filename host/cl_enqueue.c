/* cl_enqueue.c - clsel_cl_enqueue: picks the kernel for a plan's collapsed geometry,
 * sets its arguments under the kernel's lock and launches it on the caller's queue. */
#include <string.h>

#include "cl_validate.h"
#include "error.h"
#include "plan.h"
#include "testing.h"

/* Most work-groups one launch puts on NDRange dims 1 and 2: some drivers map them to
 * grid dims limited to 65535 blocks, so the host splits bigger launches. */
#define MAX_GROUPS_Y_Z 65535u

/* The kernel arguments shared by every kernel variant (cl/select.cl, CLSEL_ARGS). */
enum {
    ARG_COND = 0, ARG_COND_OFF, ARG_THEN, ARG_THEN_OFF, ARG_ELSE, ARG_ELSE_OFF, ARG_OUT, ARG_OUT_OFF,
    ARG_SHAPE, ARG_COND_STRIDES, ARG_THEN_STRIDES, ARG_ELSE_STRIDES, ARG_OUT_STRIDES, ARG_Y0, ARG_Z0
};

/* The geometry of one call: collapsed dims padded to 8, launch extents and sizes. */
typedef struct geometry {
    int index_width; /* INDEX_I32 or INDEX_I64 */
    int variant;     /* 0..7: clsel_b3 by what advances along dim 0; KERNEL_BN */
    uint64_t shape[8];
    uint64_t strides[PLAN_OPERANDS][8];
    uint64_t rows;   /* extent of NDRange dim 1 (shape[1]) */
    uint64_t layers; /* extent of NDRange dim 2 (product of shape[2..7]) */
    size_t local[3];
    size_t global0;
} geometry;

static int element_width_index(size_t elem_size)
{
    return elem_size == 1 ? 0 : elem_size == 2 ? 1 : elem_size == 4 ? 2 : 3;
}

static uint64_t round_up(uint64_t n, uint64_t m) { return (n + m - 1) / m * m; }

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
    if (plan->rank <= 3) {
        g->variant = 0;
        for (int op = 0; op < 3; ++op) g->variant = g->variant * 2 + (g->strides[op][0] != 0);
    } else {
        g->variant = KERNEL_BN;
    }
    g->rows = g->shape[1];
    g->layers = 1;
    for (int d = 2; d < 8; ++d) g->layers *= g->shape[d];

    /* Work-groups of ctx->work_group_size items, as wide along dim 0 as the innermost
     * dim needs (a small fixed set of local sizes: each new one costs a compile on
     * PoCL, PERF.md rule 5). */
    size_t wg = ctx->work_group_size, lx = wg;
    while (lx >= 4 && (uint64_t)(lx / 4) >= g->shape[0]) lx /= 4;
    g->local[0] = lx;
    g->local[1] = wg / lx;
    g->local[2] = 1;
    g->global0 = (size_t)round_up(g->shape[0], lx);
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

static cl_int set_fixed_args(const clsel_cl_api *cl, cl_kernel k, const geometry *g,
                             const cl_tensor tensors[TENSORS])
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
    return err;
}

/* Launches the geometry in as many pieces as the dim 1 / dim 2 limits need. With
 * several pieces, the returned event is a marker after all of them. */
static clsel_status launch(const clsel_cl_context *ctx, cl_command_queue queue, const geometry *g,
                           const cl_tensor tensors[TENSORS], cl_uint num_wait,
                           const cl_event *wait_list, cl_event *event)
{
    const clsel_cl_api *cl = ctx->cl;
    kernel_slot *slot = (kernel_slot *)&ctx->kernels[g->index_width]
                                                   [element_width_index(tensors[TENSOR_OUT].elem_size)]
                                                   [g->variant];
    const uint64_t rows_per_launch = (uint64_t)MAX_GROUPS_Y_Z * g->local[1];
    const uint64_t layers_per_launch = MAX_GROUPS_Y_Z;
    const int pieces = g->rows > rows_per_launch || g->layers > layers_per_launch;

    clsel_mutex_lock(&slot->lock);
    cl_int err = set_fixed_args(cl, slot->kernel, g, tensors);
    const char *what = "clSetKernelArg";
    for (uint64_t z0 = 0; z0 < g->layers && err == CL_SUCCESS; z0 += layers_per_launch) {
        for (uint64_t y0 = 0; y0 < g->rows && err == CL_SUCCESS; y0 += rows_per_launch) {
            uint64_t rows = g->rows - y0 < rows_per_launch ? g->rows - y0 : rows_per_launch;
            uint64_t layers = g->layers - z0 < layers_per_launch ? g->layers - z0 : layers_per_launch;
            size_t global[3] = {g->global0, (size_t)round_up(rows, g->local[1]), (size_t)layers};
            err = set_index_arg(cl, slot->kernel, ARG_Y0, g->index_width, y0);
            if (err == CL_SUCCESS) err = set_index_arg(cl, slot->kernel, ARG_Z0, g->index_width, z0);
            if (err != CL_SUCCESS) break;
            what = "clEnqueueNDRangeKernel";
            err = cl->clEnqueueNDRangeKernel(queue, slot->kernel, 3, NULL, global, g->local, num_wait,
                                             wait_list, pieces ? NULL : event);
        }
    }
    clsel_mutex_unlock(&slot->lock);
    if (err == CL_SUCCESS && pieces && event) {
        what = "clEnqueueMarkerWithWaitList";
        err = cl->clEnqueueMarkerWithWaitList(queue, 0, NULL, event);
    }
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
