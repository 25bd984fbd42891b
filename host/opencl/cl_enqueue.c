/* cl_enqueue.c - clsel_cl_enqueue: splits the output into pieces whose offsets fit in
 * 32 bits, picks each piece's program (the vectors family's aligned form where the piece
 * allows it) and kernel, sets the arguments the contract lists (cl/select_contract.h)
 * under the kernel's lock, and launches them on the caller's queue. */
#include <string.h>

#include "common/error.h"
#include "common/tuning.h"
#include "common/tuning_constants.h" /* CL_PIECE_MAX_ELEMENTS, CL_BLOCK_BYTES, CL_LONG_ROW_BYTES, ... */
#include "opencl/cl_kernel_args.h"
#include "opencl/cl_validate.h"
#include "plan/plan.h"
#include "plan/plan_chunk.h"

/* Blocks family (CPU devices): bytes past a local buffer's elements that a gather may
 * write (it fills with 16-byte vector stores), kept a multiple of 128 so that the three
 * buffers (each CL_BLOCK_BYTES and this) stay aligned. */
#define CL_GATHER_SLACK 128

/* The blocks kernels read the plan's access values straight from their `kinds` argument,
 * under the contract's names. */
_Static_assert(PLAN_ACCESS_RUN == CLSEL_ACCESS_RUN && PLAN_ACCESS_FIXED == CLSEL_ACCESS_FIXED &&
                   PLAN_ACCESS_PATTERN == CLSEL_ACCESS_PATTERN,
               "host/plan/plan.h's plan_access and cl/select_contract.h's CLSEL_ACCESS_* disagree");
_Static_assert(CLSEL_TABLE_CHUNKS * 16 == PLAN_TABLE_BYTES,
               "the kernels' shuffle tables must hold what the plan lets a table take");

static uint64_t round_up(uint64_t n, uint64_t m) { return (n + m - 1) / m * m; }

static void to_uint8(cl_uint8 *a, const uint64_t v[8])
{
    for (int i = 0; i < 8; ++i) a->s[i] = (cl_uint)v[i];
}

/* Two 8-vectors as one uint16 argument (fewer clSetKernelArg calls per enqueue). */
static void to_uint16(cl_uint16 *a, const uint64_t lo[8], const uint64_t hi[8])
{
    for (int i = 0; i < 8; ++i) a->s[i] = (cl_uint)lo[i], a->s[8 + i] = (cl_uint)hi[i];
}

/* The tensors at a piece's start: buffers and element offsets. */
static cl_int set_tensors(const clsel_cl_api *cl, cl_kernel k, const clsel_priv_tensor tensors[PLAN_OPERANDS],
                          const int64_t base[PLAN_OPERANDS])
{
    cl_ulong off[PLAN_OPERANDS];
    for (int i = 0; i < PLAN_OPERANDS; ++i) off[i] = tensors[i].offset / tensors[i].elem_size + (cl_ulong)base[i];
    cl_int err = SET_ARG(cl, k, TENSOR, tensor, cond, &tensors[PLAN_COND].mem);
    if (err == CL_SUCCESS) err = SET_ARG(cl, k, TENSOR, tensor, cond_off, &off[PLAN_COND]);
    if (err == CL_SUCCESS) err = SET_ARG(cl, k, TENSOR, tensor, then_, &tensors[PLAN_THEN].mem);
    if (err == CL_SUCCESS) err = SET_ARG(cl, k, TENSOR, tensor, then_off, &off[PLAN_THEN]);
    if (err == CL_SUCCESS) err = SET_ARG(cl, k, TENSOR, tensor, else_, &tensors[PLAN_ELSE].mem);
    if (err == CL_SUCCESS) err = SET_ARG(cl, k, TENSOR, tensor, else_off, &off[PLAN_ELSE]);
    if (err == CL_SUCCESS) err = SET_ARG(cl, k, TENSOR, tensor, out, &tensors[PLAN_OUT].mem);
    if (err == CL_SUCCESS) err = SET_ARG(cl, k, TENSOR, tensor, out_off, &off[PLAN_OUT]);
    return err;
}

/* One launch of the blocks family over a piece: the walk of host/plan/plan_blocks.c as
 * arguments, one work-item per work-group, each a range of blocks. */
static cl_int launch_blocks(const clsel_cl_context *ctx, const kernel_program *kp, cl_command_queue queue,
                            const clsel_plan *piece, const clsel_priv_tensor tensors[PLAN_OPERANDS],
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
    int64_t target = forced_block > 0 ? forced_block : (int64_t)(buffer - CL_GATHER_SLACK) / w;
    if (ctx->max_item_loops && target > (int64_t)(ctx->max_item_loops / CL_LOOPS_PER_ELEMENT))
        target = (int64_t)(ctx->max_item_loops / CL_LOOPS_PER_ELEMENT);
    plan_blocks b;
    clsel_priv_plan_blocks_make(piece, target, forced_row > 0 ? forced_row : CL_LONG_ROW_BYTES / w, &b);

    uint64_t bdim[8], str[3][8], lext[8], lstep[PLAN_OPERANDS][8], geom[8], kinds[8];
    const int32_t dims = b.inner < piece->rank ? b.inner + 1 : b.inner;
    for (int d = 0; d < 8; ++d) {
        bdim[d] = d < b.inner ? (uint64_t)piece->dims[d] : d < dims ? (uint64_t)b.split : 1;
        for (int op = 0; op < 3; ++op) str[op][d] = d < dims ? (uint64_t)piece->strides[op][d] : 0;
        lext[d] = d < b.levels ? (uint64_t)b.extent[d] : 1;
        for (int t = 0; t < PLAN_OPERANDS; ++t) lstep[t][d] = d < b.levels ? (uint64_t)b.step[t][d] : 0;
    }
    const uint64_t items_wanted = (uint64_t)ctx->compute_units * CL_ITEMS_PER_UNIT;
    uint64_t per_item = ((uint64_t)b.count + items_wanted - 1) / items_wanted;
    if (ctx->max_item_loops) per_item = 1; /* one block per work-item keeps it within the device's loop limit */
    const uint64_t walk[8] = {(uint64_t)dims, (uint64_t)b.levels, b.chunk_level < 0 ? 8 : (uint64_t)b.chunk_level,
                              b.inner < piece->rank ? (uint64_t)b.inner : 8, (uint64_t)b.split,
                              (uint64_t)b.last_split, (uint64_t)b.count, per_item};
    /* the block dims each input's periodic shuffle table may take, as the plan allows,
     * unless the device limits a work-item's loops (building a table takes hundreds) */
    uint64_t table_dims[3] = {0, 0, 0};
    if (!ctx->max_item_loops && !clsel_priv_knob_get(CLSEL_PRIV_KNOB_CL_PLAIN_GATHERS))
        for (int op = PLAN_COND; op <= PLAN_ELSE; ++op) {
            plan_period p;
            clsel_priv_plan_period(piece, &b, op, op == PLAN_COND ? 1 : (size_t)w, 0, &p);
            table_dims[op] = (uint64_t)p.fewest | (uint64_t)p.most << 4;
        }
    const uint64_t how[8] = {b.access[0], b.access[1], b.access[2], (uint64_t)b.inner_elements, buffer,
                             table_dims[0], table_dims[1], table_dims[2]};
    memcpy(geom, walk, sizeof geom);
    memcpy(kinds, how, sizeof kinds);
    cl_uint16 blk, strides, lev, steps, geo;
    cl_uint8 kind_arg;
    to_uint16(&blk, bdim, str[0]);
    to_uint16(&strides, str[1], str[2]);
    to_uint16(&lev, lext, lstep[0]);
    to_uint16(&steps, lstep[1], lstep[2]);
    to_uint16(&geo, lstep[3], geom);
    to_uint8(&kind_arg, kinds);

    int k = KERNEL_PICK;
    if (b.access[PLAN_COND] != PLAN_ACCESS_FIXED)
        k = clsel_priv_plan_variant(b.access[PLAN_COND] == PLAN_ACCESS_RUN, b.access[PLAN_THEN] == PLAN_ACCESS_RUN,
                                    b.access[PLAN_ELSE] == PLAN_ACCESS_RUN);
    kernel_slot *slot = (kernel_slot *)&kp->kernels[k];
    const cl_kernel kernel = slot->kernel;
    size_t global = (size_t)((b.count + per_item - 1) / per_item), local = 1;
    clsel_mutex_lock(&slot->lock);
    cl_int err = set_tensors(cl, kernel, tensors, base);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, BLOCKS, blocks, blk, &blk);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, BLOCKS, blocks, strides, &strides);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, BLOCKS, blocks, lev, &lev);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, BLOCKS, blocks, steps, &steps);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, BLOCKS, blocks, geo, &geo);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, BLOCKS, blocks, kinds, &kind_arg);
    if (err == CL_SUCCESS) err = SET_LOCAL_ARG(cl, kernel, BLOCKS, blocks, scratch, (size_t)(3 * buffer));
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

/* Whether a tensor's element `first` (of `size` bytes) lies on a multiple of `bytes`. */
static int on_boundary(const clsel_priv_tensor *t, int64_t first, int64_t size, int64_t bytes)
{
    return t->align16 >= 0 && ((int64_t)t->align16 + first * size) % bytes == 0;
}

/* Whether the vectors family's aligned form serves the piece (cl/select_vectors.cl,
 * CLSEL_ALIGNED=1): each item of V = 16 / W output elements lies in one row, and in every
 * tensor that advances along the row its V elements lie on a boundary of their size
 * (16 bytes; V for cond): the row of a rank-1 run is the whole piece; rows of more than
 * one dim must be a multiple of V elements long and every row start of such a tensor
 * a multiple of V elements from its first. */
static int piece_aligned(const clsel_plan *piece, const clsel_priv_tensor tensors[PLAN_OPERANDS],
                         const int64_t base[PLAN_OPERANDS])
{
    const int64_t v = 16 / (int64_t)piece->elem_size;
    if (piece->rank < 1 || (piece->rank > 1 && piece->dims[0] % v != 0)) return 0;
    for (int op = 0; op < PLAN_OPERANDS; ++op) {
        if (piece->strides[op][0] == 0) continue; /* fixed along the row: one element is read */
        const int64_t size = op == PLAN_COND ? 1 : (int64_t)piece->elem_size;
        if (!on_boundary(&tensors[op], base[op], size, v * size)) return 0;
        for (int32_t d = 1; d < piece->rank; ++d)
            if (piece->dims[d] > 1 && piece->strides[op][d] % v != 0) return 0;
    }
    return 1;
}

/* One launch of the vectors family over a piece: 16 bytes of output per work-item. */
static cl_int launch_vectors(const clsel_cl_context *ctx, const kernel_program *kp, cl_command_queue queue,
                             const clsel_plan *piece, const clsel_priv_tensor tensors[PLAN_OPERANDS],
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
    cl_uint8 shape_arg, strides_arg[3], mul_arg, shift_arg;
    to_uint8(&shape_arg, shape);
    for (int op = 0; op < 3; ++op) to_uint8(&strides_arg[op], str[op]);
    to_uint8(&mul_arg, mul);
    to_uint8(&shift_arg, shift);
    const cl_uint n = (cl_uint)piece->out_count, per_item = 16 / (cl_uint)piece->elem_size;
    const cl_uint rank = piece->rank > 0 ? (cl_uint)piece->rank : 1;
    const cl_uint out_aligned = (cl_uint)on_boundary(&tensors[PLAN_OUT], base[PLAN_OUT], (int64_t)piece->elem_size, 16);
    const int k = clsel_priv_plan_inner_advances(piece); /* the kernel specialised on it: a variant */
    kernel_slot *slot = (kernel_slot *)&kp->kernels[k];
    const cl_kernel kernel = slot->kernel;
    size_t local = kp->work_group_size, global = (size_t)round_up((n + per_item - 1) / per_item, local);
    clsel_mutex_lock(&slot->lock);
    cl_int err = set_tensors(cl, kernel, tensors, base);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, VECTORS, vectors, shape, &shape_arg);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, VECTORS, vectors, cond_strides, &strides_arg[0]);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, VECTORS, vectors, then_strides, &strides_arg[1]);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, VECTORS, vectors, else_strides, &strides_arg[2]);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, VECTORS, vectors, div_mul, &mul_arg);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, VECTORS, vectors, div_shift, &shift_arg);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, VECTORS, vectors, n, &n);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, VECTORS, vectors, rank, &rank);
    if (err == CL_SUCCESS) err = SET_ARG(cl, kernel, VECTORS, vectors, out_aligned, &out_aligned);
    if (err == CL_SUCCESS)
        err = cl->clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, num_wait, wait_list, event);
    clsel_mutex_unlock(&slot->lock);
    return err;
}

typedef cl_int (*launch_fn)(const clsel_cl_context *ctx, const kernel_program *kp, cl_command_queue queue,
                            const clsel_plan *piece, const clsel_priv_tensor tensors[PLAN_OPERANDS],
                            const int64_t base[PLAN_OPERANDS], cl_uint num_wait, const cl_event *wait_list,
                            cl_event *event);

static const launch_fn launchers[] = {[CLSEL_CL_FAMILY_BLOCKS] = launch_blocks, [CLSEL_CL_FAMILY_VECTORS] = launch_vectors};

/* The program form a piece runs in. */
static program_form piece_form(const clsel_cl_context *ctx, const clsel_plan *piece,
                               const clsel_priv_tensor tensors[PLAN_OPERANDS], const int64_t base[PLAN_OPERANDS])
{
    return ctx->family == CLSEL_CL_FAMILY_VECTORS && piece_aligned(piece, tensors, base) ? PROGRAM_ALIGNED
                                                                                        : PROGRAM_ANY;
}

/* Whether the whole plan is one piece. */
static int fits_one_piece(const clsel_plan *plan, int64_t max)
{
    if (plan->out_count > max) return 0;
    for (int op = 0; op < 3; ++op)
        if (plan->in_count[op] > max) return 0;
    return 1;
}

/* The pieces of a plan, one at a time: the whole plan when it fits, else its chunks. */
typedef struct piece_walk {
    const clsel_plan *plan;
    int whole, started;
    plan_chunks chunks;
    clsel_plan piece;
    int64_t base[PLAN_OPERANDS];
} piece_walk;

static void pieces_start(piece_walk *pw, const clsel_plan *plan)
{
    const int64_t forced = clsel_priv_knob_get(CLSEL_PRIV_KNOB_PIECE_ELEMENTS);
    const int64_t max = forced > 0 ? forced : CL_PIECE_MAX_ELEMENTS;
    memset(pw, 0, sizeof *pw);
    pw->plan = plan;
    pw->whole = fits_one_piece(plan, max);
    if (!pw->whole) clsel_priv_plan_chunks_start(&pw->chunks, plan, max);
}

static int pieces_next(piece_walk *pw)
{
    if (!pw->whole) return clsel_priv_plan_chunks_next(&pw->chunks, &pw->piece, pw->base);
    if (pw->started) return 0;
    pw->started = 1;
    pw->piece = *pw->plan;
    return 1;
}

/* Every piece, each waiting for the caller's wait list. The programs they need are built
 * first, so that a failed build enqueues nothing. The returned event completes after all
 * of it: the single launch's own event, or a marker after several (a marker with no wait
 * list waits for everything enqueued before it). */
static clsel_status launch(clsel_cl_context *ctx, cl_command_queue queue, const clsel_plan *plan,
                           const clsel_priv_tensor tensors[PLAN_OPERANDS], cl_uint num_wait, const cl_event *wait_list,
                           cl_event *event)
{
    const clsel_cl_api *cl = ctx->cl;
    const launch_fn run = launchers[ctx->family];
    const kernel_program *programs[PROGRAM_FORMS] = {NULL, NULL};
    piece_walk pw;
    for (pieces_start(&pw, plan); pieces_next(&pw);) {
        const program_form form = piece_form(ctx, &pw.piece, tensors, pw.base);
        if (programs[form]) continue;
        clsel_status st = clsel_priv_cl_context_program(ctx, plan->elem_size, form, &programs[form]);
        if (st != CLSEL_SUCCESS) return st;
    }
    cl_event last = NULL;
    cl_int err = CL_SUCCESS;
    int pieces = 0;
    for (pieces_start(&pw, plan); err == CL_SUCCESS && pieces_next(&pw); ++pieces) {
        if (last) { /* only the final piece's event is kept */
            cl->clReleaseEvent(last);
            last = NULL;
        }
        const kernel_program *kp = programs[piece_form(ctx, &pw.piece, tensors, pw.base)];
        err = run(ctx, kp, queue, &pw.piece, tensors, pw.base, num_wait, wait_list, event ? &last : NULL);
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
    clsel_priv_tensor tensors[PLAN_OPERANDS] = {
        {"cond", cond, cond_offset, 1, plan->in_count[0], -1, 0},
        {"then", then_mem, then_offset, plan->elem_size, plan->in_count[1], -1, 0},
        {"else", else_mem, else_offset, plan->elem_size, plan->in_count[2], -1, 0},
        {"out", out, out_offset, plan->elem_size, plan->out_count, -1, 0},
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
    return launch(ctx, queue, plan, tensors, num_events_in_wait_list, event_wait_list, event);
}
