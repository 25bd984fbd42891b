/* cl_launch.c - the OpenCL kernels' launches (cl/select.cl): a run cut into pieces whose offsets
 * fit in 32 bits (plan_iter.h boxes), each with its form, layout flags, kernel and arguments
 * (cl/select_contract.h) set under the kernel's lock; clsel_priv_cl_launch takes the native path
 * where the context has it and every buffer is mappable. */
#include "opencl/cl_launch.h"

#include <stdio.h>
#include <string.h>

#include "common/tuning.h"
#include "common/tuning_constants.h" /* CL_PIECE_MAX_ELEMENTS */
#include "opencl/cl_kernel_args.h"
#include "plan/plan.h"

/* The multiplier and shift that divide by d (PyTorch's IntegerDivider): the smallest s with 2^s >=
 * d, and m = floor(2^32 (2^s - d) / d) + 1. */
static void divider(uint64_t d, cl_uint *m, cl_uint *s)
{
    uint64_t shift = 0;
    while (((uint64_t)1 << shift) < d)
        ++shift;
    *s = (cl_uint)shift;
    *m = (cl_uint)((((uint64_t)1 << 32) * (((uint64_t)1 << shift) - d)) / d + 1);
}

/* How one piece is launched: its kernel variant (a read kind per input and a write kind for the
 * output, cl/select_contract.h) and each tensor's origin, windows and element 0, as the contract
 * defines them. */
typedef struct piece_launch {
    kernel_variant variant;
    int kind[PLAN_OPERANDS]; /* each tensor as clsel_cl_access says it (clsel_cl_kind) */
    cl_uint
        layout; /* CLSEL_DENSE_BIT of each dense tensor, CLSEL_UNIFORM_BIT of each uniform input */
    cl_ulong origin[PLAN_OPERANDS]; /* elements (cond: bytes) from the buffer's first byte */
    cl_uint windows[PLAN_OPERANDS]; /* whole windows from the origin to the buffer's end */
    cl_uint tails[PLAN_OPERANDS];   /* and the bytes after them */
    cl_int first[PLAN_OPERANDS];    /* the piece's element 0 from the origin */
    int swap; /* the kernel's then and else are else and then (CLSEL_SWAP_BIT) */
} piece_launch;

/* Where tensor op's origin lies and whether its windows may be read: its lowest touched element,
 * moved down to a window boundary (16 bytes; V bytes for cond) when the buffer's alignment is
 * known, the move is a whole number of elements and the bytes it moves over are in the buffer. Sets
 * the launch's origin, windows and first; returns whether windows are usable and, in *shifted,
 * whether the origin was moved. */
static int place_origin(const plan_iter *piece, int op, size_t size, const cl_tensor *t,
                        piece_launch *launch, int *shifted)
{
    const int64_t window =
        16 / (int64_t)launch->variant.width * (int64_t)size; /* V elements: cond's V bytes */
    int64_t lo, hi;
    clsel_priv_plan_iter_span(piece, op, &lo, &hi);
    const int64_t element0 = (int64_t)(t->offset / size), lowest = (element0 + lo) * (int64_t)size;
    int64_t shift = 0;
    int windows = t->align16 >= 0;
    if (windows) {
        const int64_t start_align =
            ((t->align16 - (int64_t)(t->offset % 16)) % 16 + 16) % 16; /* mem's first byte */
        shift = (start_align + lowest) % window;
        windows = shift % (int64_t)size == 0 && shift <= lowest;
    }
    if (!windows)
        shift = 0;
    const int64_t origin = (lowest - shift) / (int64_t)size;
    launch->origin[op] = (cl_ulong)origin;
    launch->first[op] = (cl_int)(element0 + piece->base[op] - origin);
    const uint64_t available = windows ? (uint64_t)t->size - (uint64_t)(lowest - shift) : 0;
    const uint64_t whole = available / (uint64_t)window;
    launch->windows[op] = (cl_uint)(whole < UINT32_MAX ? whole : UINT32_MAX);
    launch->tails[op] = whole < UINT32_MAX ? (cl_uint)(available % (uint64_t)window) : 0;
    *shifted = shift != 0;
    return windows;
}

/* The piece's kernel variant and each tensor's origin. Each tensor is, as clsel_cl_kind names it:
 * UNIFORM (one element for the whole piece), FIXED (one element along dim 0), DENSE (advancing by
 * one along it and contiguous over the piece from a window boundary), ROWS (advancing by one,
 * windows usable), TILED (a transposed input: one along dim 1 and anything else along dim 0,
 * windows usable, the piece with CL_TILE_MIN_ROWS rows or more, the output not STRIDED and no other
 * input STRIDED) or STRIDED (anything else). The kernel reads UNIFORM and FIXED inputs as FIXED,
 * DENSE and ROWS ones as ROWS with the dense bit (which a tiled launch leaves clear: its items are
 * not the item index's), and writes the output as ROWS (DENSE with its bit) or STRIDED. */
static const int read_of_kind[] = {
    [CLSEL_CL_UNIFORM] = CLSEL_READ_FIXED,   [CLSEL_CL_FIXED] = CLSEL_READ_FIXED,
    [CLSEL_CL_ROWS] = CLSEL_READ_ROWS,       [CLSEL_CL_DENSE] = CLSEL_READ_ROWS,
    [CLSEL_CL_STRIDED] = CLSEL_READ_STRIDED, [CLSEL_CL_TILED] = CLSEL_READ_TILED};

/* Whether input op is the output's own memory (a run in place): its windows may hold elements that
 * other work-items are writing, so it is read no wider than its elements unless it is dense (then
 * every window is one item's). */
static int in_place(const cl_tensor t[PLAN_OPERANDS], int op)
{
    return op != PLAN_OUT && t[op].root && t[op].root == t[PLAN_OUT].root &&
           t[op].root_offset == t[PLAN_OUT].root_offset;
}

/* The dim along which a STRIDED input is contiguous, with CL_TILE_MIN_ROWS elements or more, other
 * than dim 0: the dim its tiles would take as rows; 0 for none (or for an input read in place,
 * whose windows others may be writing). */
static int32_t tile_dim(const plan_iter *piece, const cl_tensor t[PLAN_OPERANDS], int op,
                        int windows)
{
    if (!windows || in_place(t, op))
        return 0;
    for (int32_t d = 1; d < piece->rank; ++d)
        if (piece->strides[op][d] == 1 && piece->dims[d] >= CL_TILE_MIN_ROWS)
            return d;
    return 0;
}

/* Where every STRIDED input is contiguous along one dim d (other than 0) and the output is not
 * STRIDED, the inputs go through tiles (TILED): d becomes dim 1, the tiles' rows (the dims' order
 * is free: each element is written once whatever the order they are walked in). */
static void use_tiles(plan_iter *piece, piece_launch *launch, const int32_t along[PLAN_OPERANDS])
{
    int32_t d = 0;
    for (int op = 0; op < PLAN_OUT; ++op) {
        if (launch->kind[op] != CLSEL_CL_STRIDED)
            continue;
        if (!along[op] || (d && along[op] != d))
            return;
        d = along[op];
    }
    if (!d || launch->kind[PLAN_OUT] == CLSEL_CL_STRIDED)
        return;
    for (int op = 0; op < PLAN_OUT; ++op)
        if (launch->kind[op] == CLSEL_CL_STRIDED)
            launch->kind[op] = CLSEL_CL_TILED;
    for (int op = 0; op < PLAN_OPERANDS; ++op)
        launch->layout &= ~CLSEL_DENSE_BIT(op);
    clsel_priv_plan_iter_swap_dims(piece, 1, d);
}

static int launch_tiled(const piece_launch *how)
{
    for (int op = 0; op < PLAN_OUT; ++op)
        if (how->kind[op] == CLSEL_CL_TILED)
            return 1;
    return 0;
}

/* The 16-byte items a work-item of the launch takes (tuning_constants.h; measured on an H100,
 * docs/tuning.md). Where items cross row ends a work-item takes its items one after another, each
 * with its own latency, and a warp with one such item waits on all of it: where rows are short
 * enough for a row end in nearly every warp, one item each. A cond fixed along rows (or uniform)
 * with both inputs read along rows ran faster the more items each work-item took (why is open). A
 * tiled launch takes a tile per work-group whatever the count. */
static unsigned launch_items(const plan_iter *piece, const piece_launch *launch)
{
    const kernel_variant *v = &launch->variant;
    if (launch_tiled(launch))
        return clsel_priv_cl_items(v->width);
    if (v->read[PLAN_COND] == CLSEL_READ_FIXED && v->read[PLAN_THEN] == CLSEL_READ_ROWS &&
        v->read[PLAN_ELSE] == CLSEL_READ_ROWS)
        return CL_ITEMS_FIXED_COND;
    const int64_t per_item = 16 / (int64_t)v->width, row = piece->dims[0];
    if (piece->rank > 1 && row % per_item != 0 && row * (int64_t)v->width < CL_SHORT_ROW_BYTES)
        return CL_ITEMS_SHORT_ROWS;
    return clsel_priv_cl_items(v->width);
}

/* The launch of a piece; the piece's dims may be put in another order for tiles. */
static void piece_layout(plan_iter *piece, size_t w, const cl_tensor t[PLAN_OPERANDS],
                         int tiles_allowed, piece_launch *launch)
{
    memset(launch, 0, sizeof *launch);
    launch->variant.width = w;
    launch->variant.rank = clsel_priv_cl_rank_class(piece->rank);
    int32_t along[PLAN_OPERANDS];
    for (int op = 0; op < PLAN_OPERANDS; ++op) {
        const size_t size = clsel_priv_operand_width(op, w);
        int shifted = 0, uniform = 1;
        const int windows = place_origin(piece, op, size, &t[op], launch, &shifted);
        for (int32_t d = 0; d < piece->rank; ++d)
            uniform = uniform && piece->strides[op][d] == 0;
        const int64_t step = piece->rank > 0 ? piece->strides[op][0] : 1;
        const int dense = windows && !shifted && clsel_priv_plan_iter_dense(piece, op);
        int kind = step != 1 || !windows ? CLSEL_CL_STRIDED
                   : dense               ? CLSEL_CL_DENSE
                                         : CLSEL_CL_ROWS;
        if (kind == CLSEL_CL_ROWS && in_place(t, op))
            kind = CLSEL_CL_STRIDED;
        if (op != PLAN_OUT && step == 0)
            kind = uniform ? CLSEL_CL_UNIFORM : CLSEL_CL_FIXED;
        launch->kind[op] = kind;
        along[op] = tile_dim(piece, t, op, windows);
        if (kind == CLSEL_CL_DENSE)
            launch->layout |= CLSEL_DENSE_BIT(op);
        if (kind == CLSEL_CL_UNIFORM)
            launch->layout |= CLSEL_UNIFORM_BIT(op);
    }
    if (tiles_allowed)
        use_tiles(piece, launch, along);
    for (int op = 0; op < PLAN_OUT;
         ++op) /* (ROWS or TILED: those read from windows past their items) */
        if ((launch->kind[op] == CLSEL_CL_ROWS || launch->kind[op] == CLSEL_CL_TILED) &&
            launch->windows[op] <= CLSEL_SHORT_WINDOWS && launch->tails[op] > 0)
            launch->layout |= CLSEL_SHORT_BIT(op);
    for (int op = 0; op < PLAN_OUT; ++op)
        launch->variant.read[op] = read_of_kind[launch->kind[op]];
    /* One kernel for a pattern and its mirror: the kernel's then reads as its else or lower. */
    launch->swap = launch->variant.read[PLAN_THEN] > launch->variant.read[PLAN_ELSE];
    if (launch->swap) {
        const int read = launch->variant.read[PLAN_THEN];
        launch->variant.read[PLAN_THEN] = launch->variant.read[PLAN_ELSE];
        launch->variant.read[PLAN_ELSE] = read;
    }
    launch->variant.write =
        launch->kind[PLAN_OUT] == CLSEL_CL_STRIDED ? CLSEL_WRITE_STRIDED : CLSEL_WRITE_ROWS;
    int all_dense = 1; /* every tensor the kernel reads or writes as ROWS is dense (never so in a
                          tiled launch) */
    for (int op = 0; op < PLAN_OPERANDS; ++op)
        all_dense =
            all_dense && launch->kind[op] != CLSEL_CL_ROWS && launch->kind[op] != CLSEL_CL_TILED;
    launch->variant.dense = all_dense;
    launch->variant.items = launch_items(piece, launch);
}

/* The kernel's layout argument: the launch's bits, then's and else's trading places where the
 * kernel swaps them. */
static cl_uint kernel_layout(const piece_launch *how, const int from[PLAN_OPERANDS])
{
    cl_uint layout = how->swap ? CLSEL_SWAP_BIT : 0;
    for (int op = 0; op < PLAN_OPERANDS; ++op) {
        if (how->layout & CLSEL_DENSE_BIT(from[op]))
            layout |= CLSEL_DENSE_BIT(op);
        if (op < PLAN_OUT && (how->layout & CLSEL_UNIFORM_BIT(from[op])))
            layout |= CLSEL_UNIFORM_BIT(op);
        if (op < PLAN_OUT && (how->layout & CLSEL_SHORT_BIT(from[op])))
            layout |= CLSEL_SHORT_BIT(op);
    }
    return layout;
}

/* One launch over a piece: CLSEL_ITEMS 16-byte items of output per work-item, or a tile per
 * work-group. The kernel's tensor op is the plan's from[op] (then and else trade places where the
 * launch swaps them). */
static cl_int launch_piece(const clsel_cl_context *ctx, kernel_program *kp, cl_command_queue queue,
                           const plan_iter *piece, const cl_tensor t[PLAN_OPERANDS],
                           const piece_launch *how, cl_uint num_wait, const cl_event *wait_list,
                           cl_event *event)
{
    const clsel_cl_api *cl = ctx->cl;
    const int from[PLAN_OPERANDS] = {PLAN_COND, how->swap ? PLAN_ELSE : PLAN_THEN,
                                     how->swap ? PLAN_THEN : PLAN_ELSE, PLAN_OUT};
    cl_uint8 shape, mul, shift;
    cl_int strides[8][PLAN_OPERANDS], carries[8][PLAN_OPERANDS] = {{0}}; /* per dim, per tensor */
    for (int d = 0; d < 8; ++d) {
        const uint64_t extent = d < piece->rank ? (uint64_t)piece->dims[d] : 1;
        shape.s[d] = (cl_uint)extent;
        divider(extent, &mul.s[d], &shift.s[d]);
        for (int op = 0; op < PLAN_OPERANDS; ++op)
            strides[d][op] = d < piece->rank ? (cl_int)piece->strides[from[op]][d] : 0;
    }
    for (int d = 0; d + 1 < 8; ++d)
        for (int op = 0; op < PLAN_OPERANDS; ++op)
            carries[d][op] =
                (cl_int)((int64_t)strides[d + 1][op] - (int64_t)shape.s[d] * strides[d][op]);
    cl_int16 strides_lo, strides_hi, carries_lo, carries_hi;
    memcpy(strides_lo.s, strides[0], sizeof strides_lo.s);
    memcpy(strides_hi.s, strides[4], sizeof strides_hi.s);
    memcpy(carries_lo.s, carries[0], sizeof carries_lo.s);
    memcpy(carries_hi.s, carries[4], sizeof carries_hi.s);
    const cl_int4 first = {
        {how->first[from[0]], how->first[from[1]], how->first[from[2]], how->first[from[3]]}};
    const cl_uint n = (cl_uint)piece->count, per_item = 16 / (cl_uint)how->variant.width;
    const size_t items = (n + per_item - 1) / per_item;
    size_t local = kp->work_group_size;
    /* The step between a work-item's items, a work-group of items: its index along each dim the
     * kernel walks (the highest takes what is left) and the offsets it adds. */
    cl_uint8 step_at = {{0}};
    cl_int4 step_off = {{0}};
    uint64_t rest = (uint64_t)local * per_item;
    for (int d = 0; d < how->variant.rank; ++d) {
        const uint64_t digit = d + 1 < how->variant.rank ? rest % shape.s[d] : rest;
        rest = d + 1 < how->variant.rank ? rest / shape.s[d] : 0;
        step_at.s[d] = (cl_uint)(digit < UINT32_MAX ? digit : UINT32_MAX);
        for (int op = 0; op < PLAN_OPERANDS; ++op)
            step_off.s[op] += (cl_int)((int64_t)digit * strides[d][op]);
    }
    const size_t per_group = local * how->variant.items;
    size_t global = (items + per_group - 1) / per_group * local;
    cl_uint8 tiles = {{0}}; /* a tiled launch: a work-group per tile */
    if (launch_tiled(how)) {
        const uint64_t cols = CLSEL_TILE_BYTES / how->variant.width,
                       along0 = (shape.s[0] + cols - 1) / cols,
                       along1 = (shape.s[1] + CLSEL_TILE_ROWS - 1) / CLSEL_TILE_ROWS;
        tiles.s[0] = (cl_uint)along0;
        tiles.s[3] = (cl_uint)along1;
        divider(along0, &tiles.s[1], &tiles.s[2]);
        divider(along1, &tiles.s[4], &tiles.s[5]);
        local = CLSEL_TILE_GROUP;
        global =
            (size_t)(along0 * along1 * ((uint64_t)n / ((uint64_t)shape.s[0] * shape.s[1]))) * local;
    }
    const cl_uint4 windows = {
        {how->windows[from[0]], how->windows[from[1]], how->windows[from[2]], 0}};
    const cl_uint4 tails = {{how->tails[from[0]], how->tails[from[1]], how->tails[from[2]], 0}};
    const cl_uint layout = kernel_layout(how, from);
    const kernel_arg_values values = {.cond = &t[PLAN_COND].mem,
                                      .cond_origin = &how->origin[PLAN_COND],
                                      .then_ = &t[from[1]].mem,
                                      .then_origin = &how->origin[from[1]],
                                      .else_ = &t[from[2]].mem,
                                      .else_origin = &how->origin[from[2]],
                                      .out = &t[PLAN_OUT].mem,
                                      .out_origin = &how->origin[PLAN_OUT],
                                      .windows = &windows,
                                      .tails = &tails,
                                      .layout = &layout,
                                      .shape = &shape,
                                      .strides_lo = &strides_lo,
                                      .strides_hi = &strides_hi,
                                      .carries_lo = &carries_lo,
                                      .carries_hi = &carries_hi,
                                      .first = &first,
                                      .step_at = &step_at,
                                      .step_off = &step_off,
                                      .div_mul = &mul,
                                      .div_shift = &shift,
                                      .tiles = &tiles,
                                      .n = &n};
    clsel_mutex_lock(&kp->lock);
    cl_int err = clsel_priv_set_kernel_args(cl, kp->kernel, &values);
    if (err == CL_SUCCESS)
        err = cl->clEnqueueNDRangeKernel(queue, kp->kernel, 1, NULL, &global, &local, num_wait,
                                         wait_list, event);
    clsel_mutex_unlock(&kp->lock);
    return err;
}

/* Every piece, each after the caller's wait list, once the kernels they need are built (a failed
 * build enqueues nothing). The event: the single launch's own, or a marker after several (which
 * waits for all enqueued before it). */
static clsel_status launch_kernels(clsel_cl_context *ctx, cl_command_queue queue,
                                   const plan_iter *it, size_t w,
                                   const cl_tensor tensors[PLAN_OPERANDS], cl_uint num_wait,
                                   const cl_event *wait_list, cl_event *event)
{
    const clsel_cl_api *cl = ctx->cl;
    const int64_t forced = clsel_priv_knob_get(CLSEL_PRIV_KNOB_PIECE_ELEMENTS);
    const int64_t most = forced > 0 ? forced : CL_PIECE_MAX_ELEMENTS;
    plan_split pieces;
    clsel_priv_plan_split(&pieces, it, most, most);
    const int tiles =
        ctx->max_work_group_size >= CLSEL_TILE_GROUP; /* a tile kernel needs that many work-items */
    plan_iter piece;
    piece_launch how;
    kernel_program *kp = NULL;
    for (int64_t k = 0; k < pieces.count; ++k) {
        clsel_priv_plan_split_box(&pieces, k, &piece);
        piece_layout(&piece, w, tensors, tiles, &how);
        const clsel_status st = clsel_priv_cl_context_kernel(ctx, &how.variant, &kp);
        if (st != CLSEL_SUCCESS)
            return st;
    }
    cl_event last = NULL;
    cl_int err = CL_SUCCESS;
    for (int64_t k = 0; err == CL_SUCCESS && k < pieces.count; ++k) {
        if (last)
            cl->clReleaseEvent(last); /* only the final piece's event is kept */
        last = NULL;
        clsel_priv_plan_split_box(&pieces, k, &piece);
        piece_layout(&piece, w, tensors, tiles, &how);
        clsel_priv_cl_context_kernel(ctx, &how.variant, &kp); /* built above */
        err = launch_piece(ctx, kp, queue, &piece, tensors, &how, num_wait, wait_list,
                           event ? &last : NULL);
    }
    const int marker = err == CL_SUCCESS && event && pieces.count > 1;
    if (marker)
        err = cl->clEnqueueMarkerWithWaitList(queue, 0, NULL, event);
    if (err == CL_SUCCESS && event && pieces.count == 1)
        *event = last;
    else if (last)
        cl->clReleaseEvent(last);
    if (err == CL_SUCCESS)
        return CLSEL_SUCCESS;
    if (event)
        *event = NULL;
    return clsel_priv_cl_enqueue_failed(err, marker ? "clEnqueueMarkerWithWaitList"
                                                    : "clEnqueueNDRangeKernel");
}

clsel_status clsel_priv_cl_launch(clsel_cl_context *ctx, cl_command_queue queue,
                                  const plan_iter *it, size_t w,
                                  const cl_tensor tensors[PLAN_OPERANDS], cl_uint num_wait,
                                  const cl_event *wait_list, cl_event *event)
{
    int native = ctx->path == CLSEL_CL_PATH_NATIVE;
    for (int op = 0; op < PLAN_OPERANDS; ++op)
        native = native && tensors[op].mappable;
    return (native ? clsel_priv_cl_launch_native : launch_kernels)(ctx, queue, it, w, tensors,
                                                                   num_wait, wait_list, event);
}

/* The share of the V-element items of a space that cross a row: with rows of L elements and items
 * starting at multiples of V, over one period of lcm(L, V) elements; where L >= V, each row end
 * inside an item makes one. */
static double rows_crossed(const plan_iter *it, int64_t v)
{
    const int64_t row = it->dims[0];
    if (it->rank < 2 || row % v == 0)
        return 0;
    int64_t common = v;
    while (row % common || v % common)
        --common; /* gcd */
    const int64_t period = row / common * v, items = period / v;
    if (row >= v)
        return (double)(period / row - 1) / (double)items;
    int64_t crossing = 0;
    for (int64_t k = 0; k < items; ++k)
        crossing += (k * v) / row != (k * v + v - 1) / row;
    return (double)crossing / (double)items;
}

/* The kinds' names (clsel_cl_kind). */
static const char *const kind_names[] = {
    [CLSEL_CL_UNIFORM] = "uniform", [CLSEL_CL_FIXED] = "fixed along rows",
    [CLSEL_CL_ROWS] = "along rows", [CLSEL_CL_DENSE] = "dense",
    [CLSEL_CL_STRIDED] = "strided", [CLSEL_CL_TILED] = "transposed, in tiles"};

/* Bytes per output element tensor op's accesses move, and the share in whole 16-byte (cond: V-byte)
 * accesses, as the kernel's paths read it: x of the items cross a row (two runs each), rows shorter
 * than V go element by element. */
static void access_model(const plan_iter *piece, int op, int kind, size_t w, double x,
                         double *bytes, double *wide)
{
    const double size = (double)clsel_priv_operand_width(op, w), v = 16.0 / (double)w;
    const int short_rows = piece->rank > 1 && piece->dims[0] < (int64_t)v;
    int aligned = piece->rank < 2 || piece->dims[0] % (int64_t)v == 0;
    for (int32_t d = 1; d < piece->rank; ++d)
        aligned = aligned && piece->strides[op][d] % (int64_t)v == 0;
    *bytes = size, *wide = 0;
    if (kind == CLSEL_CL_UNIFORM || kind == CLSEL_CL_FIXED)
        *bytes = short_rows ? size : size * (1 + x) / v;
    else if (kind == CLSEL_CL_DENSE)
        *wide = 1;
    else if (kind == CLSEL_CL_ROWS && !short_rows)
        *bytes = size * (aligned ? 1 : 2) * (1 + x), *wide = 1;
    else if (kind == CLSEL_CL_TILED)
        *bytes = size * 2, *wide = 1; /* two windows per window it keeps */
    if (op == PLAN_OUT && kind == CLSEL_CL_ROWS)
        *wide = short_rows ? 0 : aligned ? 1 - x : 0;
}

size_t clsel_cl_plan_access(const clsel_plan *plan, clsel_cl_access *access, char *text,
                            size_t text_size)
{
    if (!plan || plan->out_count == 0)
        return 0;
    const size_t w = plan->elem_size;
    plan_split pieces;
    clsel_priv_plan_split(&pieces, &plan->iter, CL_PIECE_MAX_ELEMENTS, CL_PIECE_MAX_ELEMENTS);
    plan_iter piece; /* the first launch: every other one is read the same way */
    clsel_priv_plan_split_box(&pieces, 0, &piece);
    cl_tensor tensors[PLAN_OPERANDS]; /* fresh buffers: element [0] at offset 0, each as large as it
                                         needs */
    for (int op = 0; op < PLAN_OPERANDS; ++op)
        tensors[op] =
            clsel_priv_cl_own_tensor(NULL, 0, (size_t)clsel_priv_plan_tensor_bytes(plan, op));
    piece_launch how;
    piece_layout(&piece, w, tensors, 1, &how);
    clsel_cl_access a = {.rank = how.variant.rank,
                         .rows_crossed = rows_crossed(&piece, 16 / (int64_t)w)};
    char buf[512];
    int used = snprintf(buf, sizeof buf,
                        "%s: kernel %d dims, %lld launch%s, %.1f %% of the items across rows",
                        clsel_dtype_name(plan->dtype), a.rank, (long long)pieces.count,
                        pieces.count == 1 ? "" : "es", 100 * a.rows_crossed);
    double moved = 0, wide_bytes = 0;
    for (int op = 0; op < PLAN_OPERANDS; ++op) {
        a.kind[op] = how.kind[op];
        access_model(&piece, op, a.kind[op], w, a.rows_crossed, &a.bytes[op], &a.wide[op]);
        moved += a.bytes[op];
        wide_bytes += a.bytes[op] * a.wide[op];
        used +=
            snprintf(buf + used, sizeof buf - (size_t)used, "; %s %s, %.0f %% in 16-byte accesses",
                     clsel_priv_operand_name(op), kind_names[a.kind[op]], 100 * a.wide[op]);
    }
    used += snprintf(buf + used, sizeof buf - (size_t)used, "; all: %.1f %%",
                     moved > 0 ? 100 * wide_bytes / moved : 0);
    if (access)
        *access = a;
    if (text && text_size)
        snprintf(text, text_size, "%s", buf);
    return (size_t)used;
}

/* The distinct variants of a plan's pieces over fresh buffers, in launch order: their count (at
 * most `most`). */
static int plan_variants(const clsel_plan *plan, kernel_variant *variants, int most)
{
    plan_split pieces;
    clsel_priv_plan_split(&pieces, &plan->iter, CL_PIECE_MAX_ELEMENTS, CL_PIECE_MAX_ELEMENTS);
    cl_tensor tensors[PLAN_OPERANDS];
    for (int op = 0; op < PLAN_OPERANDS; ++op)
        tensors[op] =
            clsel_priv_cl_own_tensor(NULL, 0, (size_t)clsel_priv_plan_tensor_bytes(plan, op));
    int count = 0;
    plan_iter piece;
    piece_launch how;
    for (int64_t k = 0; k < pieces.count && count < most; ++k) {
        clsel_priv_plan_split_box(&pieces, k, &piece);
        piece_layout(&piece, plan->elem_size, tensors, 1, &how);
        int seen = 0;
        for (int i = 0; i < count; ++i)
            seen = seen || memcmp(&variants[i], &how.variant, sizeof how.variant) == 0;
        if (!seen)
            variants[count++] = how.variant;
    }
    return count;
}

enum {
    PLAN_VARIANTS_LISTED = 16
};

size_t clsel_cl_plan_kernels(const clsel_plan *plan, char *text, size_t text_size)
{
    if (!plan || plan->out_count == 0)
        return 0;
    kernel_variant variants[PLAN_VARIANTS_LISTED];
    const int count = plan_variants(plan, variants, PLAN_VARIANTS_LISTED);
    size_t used = 0;
    for (int i = 0; i < count; ++i) {
        char name[64], options[256];
        clsel_priv_cl_kernel_name(&variants[i], name, sizeof name);
        clsel_priv_cl_program_options(&variants[i], options, sizeof options);
        char *at = text && used < text_size ? text + used : NULL;
        const int n = snprintf(at, at ? text_size - used : 0, "%s %s\n", name, options);
        used += n > 0 ? (size_t)n : 0;
    }
    if (text && text_size && used >= text_size)
        text[text_size - 1] = '\0';
    return used;
}

clsel_status clsel_cl_context_prepare_plan(clsel_cl_context *ctx, const clsel_plan *plan)
{
    if (!ctx || !plan)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "clsel_cl_context_prepare_plan: %s is NULL", !ctx ? "ctx" : "plan");
    if (ctx->path != CLSEL_CL_PATH_KERNELS || plan->out_count == 0)
        return CLSEL_SUCCESS;
    kernel_variant variants[PLAN_VARIANTS_LISTED];
    const int count = plan_variants(plan, variants, PLAN_VARIANTS_LISTED);
    clsel_status st = CLSEL_SUCCESS;
    for (int i = 0; i < count && st == CLSEL_SUCCESS; ++i) {
        kernel_program *kp = NULL;
        st = clsel_priv_cl_context_kernel(ctx, &variants[i], &kp);
    }
    return st;
}
