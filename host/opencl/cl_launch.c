/* cl_launch.c - the OpenCL kernels' launches (cl/select.cl): a run cut into pieces whose offsets fit in 32 bits
 * (plan_iter.h boxes), each with its form, layout flags, kernel and arguments (cl/select_contract.h) set under the
 * kernel's lock; clsel_priv_cl_launch takes the native path where the context has it and every buffer is mappable. */
#include "opencl/cl_launch.h"

#include <stdio.h>

#include "common/tuning.h"
#include "common/tuning_constants.h" /* CL_PIECE_MAX_ELEMENTS */
#include "opencl/cl_kernel_args.h"
#include "plan/plan.h"

/* The multiplier and shift that divide by d (PyTorch's IntegerDivider): the smallest s with 2^s >= d, and
 * m = floor(2^32 (2^s - d) / d) + 1. */
static void divider(uint64_t d, cl_uint *m, cl_uint *s)
{
    uint64_t shift = 0;
    while (((uint64_t)1 << shift) < d) ++shift;
    *s = (cl_uint)shift;
    *m = (cl_uint)((((uint64_t)1 << 32) * (((uint64_t)1 << shift) - d)) / d + 1);
}

/* Whether tensor t's element `at` (of `size` bytes) lies on a multiple of `bytes`. */
static int on_boundary(const cl_tensor *t, int64_t at, int64_t size, int64_t bytes)
{
    return t->align16 >= 0 && (((int64_t)t->align16 + at * size) % bytes + bytes) % bytes == 0;
}

/* How a piece is launched: its form, its kernel (CLSEL_KERNEL_INDEX: how each input is read) and whether out's first
 * element lies on 16 bytes. An advancing tensor is aligned when its first element lies on V elements' bytes (16; V for
 * cond) and so do every item's: it is dense, or every item lies in one row (rank 1, or rows a multiple of V) and its
 * rows start V-element multiples apart. The aligned form takes a piece of one-row items and aligned tensors; elsewhere
 * a dense, aligned input gets a kernel that reads it as 16 bytes per item. */
typedef struct piece_launch {
    program_form form;
    int kernel;
    cl_uint out_aligned;
} piece_launch;

static piece_launch piece_layout(const plan_iter *piece, size_t w, const cl_tensor t[PLAN_OPERANDS])
{
    const int64_t v = 16 / (int64_t)w;
    const int one_row = piece->rank == 1 || (piece->rank > 1 && piece->dims[0] % v == 0);
    int all_aligned = one_row, read[3] = {CLSEL_READ_FIXED, CLSEL_READ_FIXED, CLSEL_READ_FIXED};
    piece_launch launch = {PROGRAM_ANY, 0, 0};
    for (int op = 0; op < PLAN_OPERANDS; ++op) {
        if (piece->rank == 0 || piece->strides[op][0] == 0) continue; /* one element a row: no wide access */
        const int64_t size = (int64_t)(op == PLAN_COND ? 1 : w);
        const int dense = clsel_priv_plan_iter_dense(piece, op);
        int rows = one_row;
        for (int32_t d = 1; d < piece->rank; ++d) rows = rows && piece->strides[op][d] % v == 0;
        const int aligned = on_boundary(&t[op], piece->base[op], size, v * size) && (dense || rows);
        if (op == PLAN_OUT) launch.out_aligned = (cl_uint)aligned;
        else read[op] = dense && aligned ? CLSEL_READ_DENSE : CLSEL_READ_ROWS;
        all_aligned = all_aligned && aligned;
    }
    launch.form = all_aligned ? PROGRAM_ALIGNED : PROGRAM_ANY;
    for (int op = 0; op < 3 && all_aligned; ++op) /* the aligned form reads every advancing input so */
        if (read[op] == CLSEL_READ_DENSE) read[op] = CLSEL_READ_ROWS;
    launch.kernel = CLSEL_KERNEL_INDEX(read[PLAN_COND], read[PLAN_THEN], read[PLAN_ELSE]);
    return launch;
}

/* The kernels step by one element along dim 0 in the output and in every input that advances (cl/select.cl). A space
 * where some tensor steps otherwise there (a strided view) gets a dim of one element below the rest: every element is
 * then found through the strides, items element by element. */
static int needs_unit_dim(const plan_iter *it)
{
    if (it->rank == 0) return 0;
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op)
        if (it->strides[op][0] != 0 && it->strides[op][0] != 1) return 1;
    return it->strides[PLAN_OUT][0] != 1;
}

static void add_unit_dim(plan_iter *it)
{
    for (int32_t d = it->rank; d > 0; --d) {
        it->dims[d] = it->dims[d - 1];
        for (int t = 0; t < PLAN_OPERANDS; ++t) it->strides[t][d] = it->strides[t][d - 1];
    }
    it->dims[0] = 1;
    for (int t = 0; t < PLAN_OPERANDS; ++t) it->strides[t][0] = 0;
    ++it->rank;
}

/* The pieces of a space as launched: at most `most` elements and span each, of rank below CLSEL_MAX_RANK when they
 * need a dim of one (one index of the highest dim each: a box has the dims below it). */
static int split_pieces(plan_split *pieces, const plan_iter *it, int64_t most)
{
    const int unit = needs_unit_dim(it);
    int64_t elements = most;
    if (unit && it->rank == CLSEL_MAX_RANK && it->count / it->dims[CLSEL_MAX_RANK - 1] < elements)
        elements = it->count / it->dims[CLSEL_MAX_RANK - 1];
    clsel_priv_plan_split(pieces, it, elements, most);
    return unit;
}

static void piece_at(const plan_split *pieces, int64_t k, int unit, plan_iter *piece)
{
    clsel_priv_plan_split_box(pieces, k, piece);
    if (unit) add_unit_dim(piece);
}

/* One launch over a piece: 16 bytes of output per work-item. */
static cl_int launch_piece(const clsel_cl_context *ctx, const kernel_program *kp, cl_command_queue queue,
                           const plan_iter *piece, size_t w, const cl_tensor t[PLAN_OPERANDS], piece_launch how,
                           cl_uint num_wait, const cl_event *wait_list, cl_event *event)
{
    const clsel_cl_api *cl = ctx->cl;
    cl_uint8 shape, mul, shift;
    cl_int8 strides[PLAN_OPERANDS];
    cl_ulong off[PLAN_OPERANDS];
    for (int d = 0; d < 8; ++d) {
        const uint64_t extent = d < piece->rank ? (uint64_t)piece->dims[d] : 1;
        shape.s[d] = (cl_uint)extent;
        divider(extent, &mul.s[d], &shift.s[d]);
        for (int op = 0; op < PLAN_OPERANDS; ++op)
            strides[op].s[d] = d < piece->rank ? (cl_int)piece->strides[op][d] : 0;
    }
    for (int op = 0; op < PLAN_OPERANDS; ++op)
        off[op] = t[op].offset / (op == PLAN_COND ? 1 : w) + (cl_ulong)piece->base[op];
    const cl_uint n = (cl_uint)piece->count, per_item = 16 / (cl_uint)w;
    const cl_uint rank = piece->rank > 0 ? (cl_uint)piece->rank : 1,
                  out_dense = (cl_uint)clsel_priv_plan_iter_dense(piece, PLAN_OUT);
    kernel_slot *slot = (kernel_slot *)&kp->kernels[how.kernel];
    const cl_kernel k = slot->kernel;
    const size_t items = (n + per_item - 1) / per_item, local = kp->work_group_size;
    const size_t global = (items + local - 1) / local * local; /* whole work-groups */
    const kernel_arg_values values = {
        .cond = &t[PLAN_COND].mem, .cond_off = &off[PLAN_COND], .then_ = &t[PLAN_THEN].mem, .then_off = &off[PLAN_THEN],
        .else_ = &t[PLAN_ELSE].mem, .else_off = &off[PLAN_ELSE], .out = &t[PLAN_OUT].mem, .out_off = &off[PLAN_OUT],
        .shape = &shape, .cond_strides = &strides[PLAN_COND], .then_strides = &strides[PLAN_THEN],
        .else_strides = &strides[PLAN_ELSE], .out_strides = &strides[PLAN_OUT], .div_mul = &mul, .div_shift = &shift,
        .n = &n, .rank = &rank, .out_dense = &out_dense, .out_aligned = &how.out_aligned};
    clsel_mutex_lock(&slot->lock);
    cl_int err = clsel_priv_set_kernel_args(cl, k, &values);
    if (err == CL_SUCCESS)
        err = cl->clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, num_wait, wait_list, event);
    clsel_mutex_unlock(&slot->lock);
    return err;
}

/* Every piece, each after the caller's wait list, once the programs they need are built (a failed build enqueues
 * nothing). The event: the single launch's own, or a marker after several (which waits for all enqueued before it). */
static clsel_status launch_kernels(clsel_cl_context *ctx, cl_command_queue queue, const plan_iter *it, size_t w,
                                   const cl_tensor tensors[PLAN_OPERANDS], cl_uint num_wait, const cl_event *wait_list,
                                   cl_event *event)
{
    const clsel_cl_api *cl = ctx->cl;
    const int64_t forced = clsel_priv_knob_get(CLSEL_PRIV_KNOB_PIECE_ELEMENTS);
    const int64_t most = forced > 0 ? forced : CL_PIECE_MAX_ELEMENTS;
    plan_split pieces;
    const int unit = split_pieces(&pieces, it, most);
    const kernel_program *programs[PROGRAM_FORMS] = {NULL, NULL};
    plan_iter piece;
    for (int64_t k = 0; k < pieces.count; ++k) {
        piece_at(&pieces, k, unit, &piece);
        const program_form form = piece_layout(&piece, w, tensors).form;
        if (programs[form]) continue;
        const clsel_status st = clsel_priv_cl_context_program(ctx, w, form, &programs[form]);
        if (st != CLSEL_SUCCESS) return st;
    }
    cl_event last = NULL;
    cl_int err = CL_SUCCESS;
    for (int64_t k = 0; err == CL_SUCCESS && k < pieces.count; ++k) {
        if (last) cl->clReleaseEvent(last); /* only the final piece's event is kept */
        last = NULL;
        piece_at(&pieces, k, unit, &piece);
        const piece_launch how = piece_layout(&piece, w, tensors);
        err = launch_piece(ctx, programs[how.form], queue, &piece, w, tensors, how, num_wait, wait_list,
                           event ? &last : NULL);
    }
    const int marker = err == CL_SUCCESS && event && pieces.count > 1;
    if (marker) err = cl->clEnqueueMarkerWithWaitList(queue, 0, NULL, event);
    if (err == CL_SUCCESS && event && pieces.count == 1) *event = last;
    else if (last) cl->clReleaseEvent(last);
    if (err == CL_SUCCESS) return CLSEL_SUCCESS;
    if (event) *event = NULL;
    return clsel_priv_cl_enqueue_failed(err, marker ? "clEnqueueMarkerWithWaitList" : "clEnqueueNDRangeKernel");
}

clsel_status clsel_priv_cl_launch(clsel_cl_context *ctx, cl_command_queue queue, const plan_iter *it, size_t w,
                                  const cl_tensor tensors[PLAN_OPERANDS], cl_uint num_wait, const cl_event *wait_list,
                                  cl_event *event)
{
    int native = ctx->path == CLSEL_CL_PATH_NATIVE;
    for (int op = 0; op < PLAN_OPERANDS; ++op) native = native && tensors[op].mappable;
    return (native ? clsel_priv_cl_launch_native : launch_kernels)(ctx, queue, it, w, tensors, num_wait, wait_list,
                                                                   event);
}

/* The share of the V-element items of a space that cross a row: with rows of L elements and items starting at
 * multiples of V, over one period of lcm(L, V) elements; where L >= V, each row end inside an item makes one. */
static double rows_crossed(const plan_iter *it, int64_t v)
{
    const int64_t row = it->dims[0];
    if (it->rank < 2 || row % v == 0) return 0;
    int64_t common = v;
    while (row % common || v % common) --common; /* gcd */
    const int64_t period = row / common * v, items = period / v;
    if (row >= v) return (double)(period / row - 1) / (double)items;
    int64_t crossing = 0;
    for (int64_t k = 0; k < items; ++k) crossing += (k * v) / row != (k * v + v - 1) / row;
    return (double)crossing / (double)items;
}

size_t clsel_cl_plan_access(const clsel_plan *plan, clsel_cl_access *access, char *text, size_t text_size)
{
    if (!plan || plan->out_count == 0) return 0;
    static const char *const names[PLAN_OPERANDS] = {"cond", "then", "else", "out"};
    const size_t w = plan->elem_size;
    const int64_t v = 16 / (int64_t)w;
    plan_split pieces;
    const int unit = split_pieces(&pieces, &plan->iter, CL_PIECE_MAX_ELEMENTS);
    plan_iter piece; /* the first launch: every other one is read the same way */
    piece_at(&pieces, 0, unit, &piece);
    const cl_tensor fresh = {NULL, 0, NULL, 0, 0, 1}, tensors[PLAN_OPERANDS] = {fresh, fresh, fresh, fresh};
    const piece_launch how = piece_layout(&piece, w, tensors);
    clsel_cl_access a = {.aligned_form = how.form == PROGRAM_ALIGNED};
    a.rows_crossed = a.aligned_form ? 0 : rows_crossed(&piece, v);
    char buf[512];
    int used = snprintf(buf, sizeof buf, "%s: %s form, %lld launch%s, %.1f %% of the items across rows",
                        clsel_dtype_name(plan->dtype), a.aligned_form ? "aligned" : "general", (long long)pieces.count,
                        pieces.count == 1 ? "" : "es", 100 * a.rows_crossed);
    double moved = 0, wide_bytes = 0;
    const int read[PLAN_OPERANDS] = {how.kernel / 9, how.kernel / 3 % 3, how.kernel % 3, CLSEL_READ_DENSE};
    for (int op = 0; op < PLAN_OPERANDS; ++op) {
        const double size = (double)(op == PLAN_COND ? 1 : w), x = a.rows_crossed;
        const int advances = read[op] != CLSEL_READ_FIXED, dense = read[op] == CLSEL_READ_DENSE;
        const int wide = op == PLAN_OUT ? (int)how.out_aligned : a.aligned_form ? advances : dense;
        /* per item: V elements in one access, or one repeated in a row; V one by one across rows unless dense */
        a.bytes[op] = advances ? size : size / (double)v * (1 - x) + size * x;
        a.wide[op] = wide ? 1 : 0;
        moved += a.bytes[op];
        wide_bytes += a.bytes[op] * a.wide[op];
        used += snprintf(buf + used, sizeof buf - (size_t)used, "; %s %s, %.0f %% in 16-byte accesses", names[op],
                         !advances ? "repeated along rows" : dense ? "dense" : "along rows", 100 * a.wide[op]);
    }
    used += snprintf(buf + used, sizeof buf - (size_t)used, "; all: %.1f %%", 100 * wide_bytes / moved);
    if (access) *access = a;
    if (text && text_size) snprintf(text, text_size, "%s", buf);
    return (size_t)used;
}
