/* cl_enqueue.c - clsel_cl_enqueue: splits the output into pieces whose offsets fit in
 * 32 bits, sets the arguments of the context's kernel family for each piece under the
 * kernel's lock, and launches them on the caller's queue. */
#include <string.h>

#include "common/error.h"
#include "common/tuning.h"
#include "opencl/cl_validate.h"
#include "plan/plan.h"
#include "plan/plan_chunk.h"

/* Output elements per launch at most: every element offset inside a piece (and every
 * input span it reads, never longer than its output) then fits the kernels' 32-bit
 * index math, the vectors family's division included (it needs x < 2^31). */
#define PIECE_MAX_ELEMENTS ((int64_t)INT32_MAX - 16)

/* Blocks family (CPU devices): the local memory of one gathered input, per work-group,
 * and so the size of a block; rows of at least CL_LONG_ROW_BYTES are walked in pieces of
 * one row, reading everything in place. Bytes past a buffer's elements that a gather
 * may write (it fills with 16-byte vector stores), kept a multiple of 128 so that the
 * three buffers stay aligned. */
#define CL_BLOCK_BYTES 16384
#define CL_LONG_ROW_BYTES 4096
#define CL_GATHER_SLACK 128
/* Work-items per compute unit (each a range of blocks): enough to balance. */
#define CL_ITEMS_PER_UNIT 8

/* The kernel arguments every kernel shares (cl/select.cl, CLSEL_TENSORS); the family's
 * own follow from ARG_FAMILY. */
enum { ARG_COND = 0, ARG_FAMILY = 8 };

static uint64_t round_up(uint64_t n, uint64_t m) { return (n + m - 1) / m * m; }

static cl_int set_uint8(const clsel_cl_api *cl, cl_kernel k, cl_uint index, const uint64_t v[8])
{
    cl_uint8 a;
    for (int i = 0; i < 8; ++i) a.s[i] = (cl_uint)v[i];
    return cl->clSetKernelArg(k, index, sizeof a, &a);
}

/* Two 8-vectors as one uint16 argument (fewer clSetKernelArg calls per enqueue). */
static cl_int set_uint16(const clsel_cl_api *cl, cl_kernel k, cl_uint index, const uint64_t lo[8],
                         const uint64_t hi[8])
{
    cl_uint16 a;
    for (int i = 0; i < 8; ++i) a.s[i] = (cl_uint)lo[i], a.s[8 + i] = (cl_uint)hi[i];
    return cl->clSetKernelArg(k, index, sizeof a, &a);
}

/* The tensors at a piece's start: buffers and element offsets. */
static cl_int set_tensors(const clsel_cl_api *cl, cl_kernel k, const clsel_priv_tensor tensors[TENSORS],
                          const int64_t base[PLAN_OPERANDS])
{
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < TENSORS && err == CL_SUCCESS; ++i) {
        cl_ulong offset = tensors[i].offset / tensors[i].elem_size + (cl_ulong)base[i];
        err = cl->clSetKernelArg(k, (cl_uint)(ARG_COND + 2 * i), sizeof(cl_mem), &tensors[i].mem);
        if (err == CL_SUCCESS) err = cl->clSetKernelArg(k, (cl_uint)(ARG_COND + 2 * i + 1), sizeof offset, &offset);
    }
    return err;
}

/* One launch of the blocks family over a piece: the walk of host/plan_blocks.c as
 * arguments, one work-item per work-group, each a range of blocks. */
static cl_int launch_blocks(const clsel_cl_context *ctx, const width_program *wp, cl_command_queue queue,
                            const clsel_plan *piece, const clsel_priv_tensor tensors[TENSORS],
                            const int64_t base[PLAN_OPERANDS], cl_uint num_wait, const cl_event *wait_list,
                            cl_event *event)
{
    const clsel_cl_api *cl = ctx->cl;
    const int64_t w = (int64_t)piece->elem_size;
    /* Three gather buffers in local memory, each as big as a block of the widest data. */
    uint64_t buffer = CL_BLOCK_BYTES + CL_GATHER_SLACK;
    if (ctx->local_mem && ctx->local_mem / 3 < buffer) buffer = ctx->local_mem / 3 / 128 * 128;
    const int64_t forced_block = clsel_priv_knob_get(CLSEL_PRIV_KNOB_BLOCK_ELEMENTS),
                  forced_row = clsel_priv_knob_get(CLSEL_PRIV_KNOB_LONG_ROW);
    plan_blocks b;
    clsel_priv_plan_blocks_make(piece, forced_block > 0 ? forced_block : (int64_t)(buffer - CL_GATHER_SLACK) / w,
                     forced_row > 0 ? forced_row : CL_LONG_ROW_BYTES / w, &b);

    uint64_t bdim[8], str[3][8], lext[8], lstep[PLAN_OPERANDS][8], geom[8], kinds[8];
    const int32_t dims = b.inner < piece->rank ? b.inner + 1 : b.inner;
    for (int d = 0; d < 8; ++d) {
        bdim[d] = d < b.inner ? (uint64_t)piece->dims[d] : d < dims ? (uint64_t)b.split : 1;
        for (int op = 0; op < 3; ++op) str[op][d] = d < dims ? (uint64_t)piece->strides[op][d] : 0;
        lext[d] = d < b.levels ? (uint64_t)b.extent[d] : 1;
        for (int t = 0; t < PLAN_OPERANDS; ++t) lstep[t][d] = d < b.levels ? (uint64_t)b.step[t][d] : 0;
    }
    const uint64_t items_wanted = (uint64_t)ctx->compute_units * CL_ITEMS_PER_UNIT;
    const uint64_t per_item = ((uint64_t)b.count + items_wanted - 1) / items_wanted;
    const uint64_t walk[8] = {(uint64_t)dims, (uint64_t)b.levels, b.chunk_level < 0 ? 8 : (uint64_t)b.chunk_level,
                              b.inner < piece->rank ? (uint64_t)b.inner : 8, (uint64_t)b.split,
                              (uint64_t)b.last_split, (uint64_t)b.count, per_item};
    const uint64_t how[8] = {b.access[0], b.access[1], b.access[2], (uint64_t)b.inner_elements, buffer, 0, 0, 0};
    memcpy(geom, walk, sizeof geom);
    memcpy(kinds, how, sizeof kinds);

    int k = KERNEL_PICK;
    if (b.access[PLAN_COND] != PLAN_ACCESS_FIXED)
        k = (b.access[PLAN_COND] != PLAN_ACCESS_RUN) * 4 + (b.access[PLAN_THEN] != PLAN_ACCESS_RUN) * 2 +
            (b.access[PLAN_ELSE] != PLAN_ACCESS_RUN);
    kernel_slot *slot = (kernel_slot *)&wp->kernels[k];
    const cl_kernel kernel = slot->kernel;
    const uint64_t *halves[5][2] = {{bdim, str[0]}, {str[1], str[2]}, {lext, lstep[0]}, {lstep[1], lstep[2]},
                                    {lstep[3], geom}};
    size_t global = (size_t)((b.count + per_item - 1) / per_item), local = 1;
    clsel_mutex_lock(&slot->lock);
    cl_int err = set_tensors(cl, kernel, tensors, base);
    for (cl_uint i = 0; i < 5 && err == CL_SUCCESS; ++i)
        err = set_uint16(cl, kernel, ARG_FAMILY + i, halves[i][0], halves[i][1]);
    if (err == CL_SUCCESS) err = set_uint8(cl, kernel, ARG_FAMILY + 5, kinds);
    if (err == CL_SUCCESS) err = cl->clSetKernelArg(kernel, ARG_FAMILY + 6, (size_t)(3 * buffer), NULL);
    if (err == CL_SUCCESS)
        err = cl->clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, num_wait, wait_list, event);
    clsel_mutex_unlock(&slot->lock);
    return err;
}

/* The multiplier and shift that divide by d (PyTorch's IntegerDivider): the smallest s
 * with 2^s >= d, and m = floor(2^32 (2^s - d) / d) + 1. */
static void divider(uint64_t d, uint64_t *m, uint64_t *s)
{
    uint64_t shift = 0;
    while (((uint64_t)1 << shift) < d) ++shift;
    *s = shift;
    *m = (((uint64_t)1 << 32) * (((uint64_t)1 << shift) - d)) / d + 1;
}

/* One launch of the vectors family over a piece: 16 bytes of output per work-item. */
static cl_int launch_vectors(const clsel_cl_context *ctx, const width_program *wp, cl_command_queue queue,
                             const clsel_plan *piece, const clsel_priv_tensor tensors[TENSORS],
                             const int64_t base[PLAN_OPERANDS], cl_uint num_wait, const cl_event *wait_list,
                             cl_event *event)
{
    const clsel_cl_api *cl = ctx->cl;
    uint64_t shape[8], str[3][8], mul[8], shift[8];
    for (int d = 0; d < 8; ++d) {
        shape[d] = d < piece->rank ? (uint64_t)piece->dims[d] : 1;
        for (int op = 0; op < 3; ++op) str[op][d] = d < piece->rank ? (uint64_t)piece->strides[op][d] : 0;
        divider(shape[d], &mul[d], &shift[d]);
    }
    const int k = clsel_priv_plan_inner_advances(piece); /* the kernel specialised on it */
    kernel_slot *slot = (kernel_slot *)&wp->kernels[k];
    const cl_kernel kernel = slot->kernel;
    const uint64_t *vectors[] = {shape, str[0], str[1], str[2], mul, shift};
    const cl_uint n = (cl_uint)piece->out_count, per_item = 16 / (cl_uint)piece->elem_size;
    size_t local = wp->work_group_size, global = (size_t)round_up((n + per_item - 1) / per_item, local);
    clsel_mutex_lock(&slot->lock);
    cl_int err = set_tensors(cl, kernel, tensors, base);
    for (cl_uint i = 0; i < sizeof vectors / sizeof vectors[0] && err == CL_SUCCESS; ++i)
        err = set_uint8(cl, kernel, ARG_FAMILY + i, vectors[i]);
    if (err == CL_SUCCESS) err = cl->clSetKernelArg(kernel, ARG_FAMILY + 6, sizeof n, &n);
    if (err == CL_SUCCESS)
        err = cl->clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, num_wait, wait_list, event);
    clsel_mutex_unlock(&slot->lock);
    return err;
}

typedef cl_int (*launch_fn)(const clsel_cl_context *ctx, const width_program *wp, cl_command_queue queue,
                            const clsel_plan *piece, const clsel_priv_tensor tensors[TENSORS],
                            const int64_t base[PLAN_OPERANDS], cl_uint num_wait, const cl_event *wait_list,
                            cl_event *event);

static const launch_fn launchers[] = {[CLSEL_PRIV_FAMILY_BLOCKS] = launch_blocks, [CLSEL_PRIV_FAMILY_VECTORS] = launch_vectors};

/* Whether the whole plan is one piece. */
static int fits_one_piece(const clsel_plan *plan, int64_t max)
{
    if (plan->out_count > max) return 0;
    for (int op = 0; op < 3; ++op)
        if (plan->in_count[op] > max) return 0;
    return 1;
}

/* Every piece, each waiting for the caller's wait list. The returned event completes
 * after all of it: the single launch's own event, or a marker after several (a marker
 * with no wait list waits for everything enqueued before it). */
static clsel_status launch(const clsel_cl_context *ctx, const width_program *wp, cl_command_queue queue,
                           const clsel_plan *plan, const clsel_priv_tensor tensors[TENSORS], cl_uint num_wait,
                           const cl_event *wait_list, cl_event *event)
{
    const clsel_cl_api *cl = ctx->cl;
    const launch_fn run = launchers[ctx->family];
    const int64_t forced = clsel_priv_knob_get(CLSEL_PRIV_KNOB_PIECE_ELEMENTS);
    const int64_t max = forced > 0 ? forced : PIECE_MAX_ELEMENTS;
    cl_event last = NULL;
    cl_int err = CL_SUCCESS;
    int pieces = 0;
    if (fits_one_piece(plan, max)) {
        static const int64_t origin[PLAN_OPERANDS] = {0, 0, 0, 0};
        err = run(ctx, wp, queue, plan, tensors, origin, num_wait, wait_list, event ? &last : NULL);
        pieces = 1;
    } else {
        plan_chunks it;
        clsel_plan piece;
        int64_t base[PLAN_OPERANDS];
        clsel_priv_plan_chunks_start(&it, plan, max);
        while (err == CL_SUCCESS && clsel_priv_plan_chunks_next(&it, &piece, base)) {
            if (last) { /* only the final piece's event is kept */
                cl->clReleaseEvent(last);
                last = NULL;
            }
            err = run(ctx, wp, queue, &piece, tensors, base, num_wait, wait_list, event ? &last : NULL);
            ++pieces;
        }
    }
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
        return clsel_priv_fail_cl(err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE
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
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cl_enqueue: %s is NULL",
                          !ctx ? "ctx" : !plan ? "plan" : "queue");
    const clsel_priv_tensor tensors[TENSORS] = {
        {"cond", cond, cond_offset, 1, plan->in_count[0]},
        {"then", then_mem, then_offset, plan->elem_size, plan->in_count[1]},
        {"else", else_mem, else_offset, plan->elem_size, plan->in_count[2]},
        {"out", out, out_offset, plan->elem_size, plan->out_count},
    };
    clsel_status st = clsel_priv_validate_call(ctx, plan, queue, tensors, num_events_in_wait_list, event_wait_list);
    if (st != CLSEL_SUCCESS) return st;

    if (plan->out_count == 0) {
        /* Nothing to compute, but the wait list and the returned event still hold: a
         * marker (a zero-size NDRange is an error before OpenCL 2.1). */
        if (!event && num_events_in_wait_list == 0) return CLSEL_SUCCESS;
        cl_int err = ctx->cl->clEnqueueMarkerWithWaitList(queue, num_events_in_wait_list,
                                                          event_wait_list, event);
        if (err != CL_SUCCESS) {
            if (event) *event = NULL;
            return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clEnqueueMarkerWithWaitList failed");
        }
        return CLSEL_SUCCESS;
    }
    const width_program *wp = NULL; /* built here when this is the width's first run */
    st = clsel_priv_cl_context_width(ctx, plan->elem_size, &wp);
    if (st != CLSEL_SUCCESS) return st;
    return launch(ctx, wp, queue, plan, tensors, num_events_in_wait_list, event_wait_list, event);
}
