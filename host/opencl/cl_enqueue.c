/* cl_enqueue.c - clsel_cl_enqueue: everything it checks before it enqueues anything (the queue, the
 * wait list, every buffer's size, alignment, flags and overlap), then the internal launch
 * (cl_launch.h) over what the checks learned. */
#include "opencl/cl_launch.h"
#include "plan/plan.h"

static clsel_status check_queue(const clsel_cl_context *ctx, cl_command_queue queue)
{
    const clsel_cl_api *cl = ctx->cl;
    cl_context queue_context = NULL;
    cl_device_id queue_device = NULL;
    cl_int err = cl->clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof queue_context,
                                           &queue_context, NULL);
    if (err == CL_SUCCESS)
        err = cl->clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof queue_device, &queue_device,
                                        NULL);
    if (err != CL_SUCCESS)
        return clsel_priv_fail_cl(err == CL_INVALID_COMMAND_QUEUE ? CLSEL_ERROR_INVALID_ARGUMENT
                                                                  : CLSEL_ERROR_OPENCL,
                                  err, "clGetCommandQueueInfo on the command queue failed");
    if (queue_context != ctx->context)
        return clsel_priv_fail(
            CLSEL_ERROR_INVALID_ARGUMENT,
            "the command queue belongs to another cl_context than the clsel_cl_context");
    if (queue_device != ctx->device)
        return clsel_priv_fail(
            CLSEL_ERROR_INVALID_ARGUMENT,
            "the command queue is for another device than the clsel_cl_context (%s)",
            ctx->device_name);
    return CLSEL_SUCCESS;
}

/* Checks one tensor (its element [0] at t->offset; a run touches elements [first, first + reach)
 * from there, of `size` bytes) and learns where its bytes live: the root of any sub-buffer, the
 * byte offset there, its first byte's address modulo 16 where known (a CL_MEM_USE_HOST_PTR buffer's
 * host pointer says it; any other buffer starts on the device's base alignment), and whether the
 * host may map it. */
static clsel_status check_tensor(const clsel_cl_context *ctx, const char *name, int64_t count,
                                 int64_t first, int64_t reach, size_t size, int output,
                                 cl_tensor *t, plan_span *span)
{
    const clsel_cl_api *cl = ctx->cl;
    *span = (plan_span){NULL, 0};
    if (reach == 0)
        return CLSEL_SUCCESS;
    if (!t->mem)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "%s buffer is NULL but has %lld elements", name, (long long)count);
    if (t->offset % size != 0)
        return clsel_priv_fail(CLSEL_ERROR_BUFFER,
                               "%s offset %zu bytes is not a multiple of the element size %zu",
                               name, t->offset, size);
    const uint64_t below = (uint64_t)-first * size,
                   bytes = (uint64_t)(first + reach) * size; /* around element [0] */
    if (below > t->offset)
        return clsel_priv_fail(
            CLSEL_ERROR_BUFFER,
            "%s strides reach %llu bytes below its element [0], but its offset is %zu bytes", name,
            (unsigned long long)below, t->offset);
    if (t->offset > SIZE_MAX - bytes)
        return clsel_priv_fail(CLSEL_ERROR_OVERFLOW, "%s offset %zu + %llu bytes overflows", name,
                               t->offset, (unsigned long long)bytes);
    size_t buffer_size = 0, parent_offset = 0;
    cl_mem parent = NULL;
    cl_mem_flags flags = 0;
    void *host_ptr = NULL;
    cl_int err =
        cl->clGetMemObjectInfo(t->mem, CL_MEM_SIZE, sizeof buffer_size, &buffer_size, NULL);
    if (err == CL_SUCCESS)
        err = cl->clGetMemObjectInfo(t->mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent,
                                     NULL);
    if (err == CL_SUCCESS && parent)
        err = cl->clGetMemObjectInfo(t->mem, CL_MEM_OFFSET, sizeof parent_offset, &parent_offset,
                                     NULL);
    if (err == CL_SUCCESS)
        err = cl->clGetMemObjectInfo(t->mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL);
    cl_mem_flags root_flags = flags;
    if (err == CL_SUCCESS && parent)
        err = cl->clGetMemObjectInfo(parent, CL_MEM_FLAGS, sizeof root_flags, &root_flags, NULL);
    if (err == CL_SUCCESS && (flags & CL_MEM_USE_HOST_PTR))
        err = cl->clGetMemObjectInfo(t->mem, CL_MEM_HOST_PTR, sizeof host_ptr, &host_ptr, NULL);
    if (err != CL_SUCCESS)
        return clsel_priv_fail_cl(err == CL_INVALID_MEM_OBJECT ? CLSEL_ERROR_INVALID_ARGUMENT
                                                               : CLSEL_ERROR_OPENCL,
                                  err, "clGetMemObjectInfo on the %s buffer failed", name);
    if (buffer_size < t->offset + bytes)
        return clsel_priv_fail(
            CLSEL_ERROR_BUFFER,
            "%s buffer holds %zu bytes, but offset %zu + %llu bytes (to the end of the elements a "
            "run touches, %lld x %zu bytes) needs %zu",
            name, buffer_size, t->offset, (unsigned long long)bytes, (long long)(first + reach),
            size, t->offset + (size_t)bytes);
    if (output && (flags & CL_MEM_READ_ONLY))
        return clsel_priv_fail(CLSEL_ERROR_BUFFER, "out buffer was created CL_MEM_READ_ONLY");
    t->root = parent ? parent : t->mem;
    t->root_offset = parent_offset + t->offset;
    t->align16 = (flags & CL_MEM_USE_HOST_PTR)
                     ? (host_ptr ? (int)(((uintptr_t)host_ptr + t->offset) % 16) : -1)
                 : ctx->base_align >= 16 ? (int)(t->root_offset % 16)
                                         : -1;
    t->mappable =
        !(root_flags & (CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY));
    t->size = buffer_size;
    *span = (plan_span){t->root, t->root_offset};
    return CLSEL_SUCCESS;
}

clsel_status clsel_cl_enqueue(clsel_cl_context *ctx, const clsel_plan *plan, cl_command_queue queue,
                              cl_mem cond, size_t cond_offset, cl_mem then_mem, size_t then_offset,
                              cl_mem else_mem, size_t else_offset, cl_mem out, size_t out_offset,
                              cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                              cl_event *event)
{
    if (event)
        *event = NULL;
    if (!ctx || !plan || !queue)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cl_enqueue: %s is NULL",
                               !ctx    ? "ctx"
                               : !plan ? "plan"
                                       : "queue");
    cl_tensor t[PLAN_OPERANDS] = {{cond, cond_offset, NULL, 0, -1, 0, 0},
                                  {then_mem, then_offset, NULL, 0, -1, 0, 0},
                                  {else_mem, else_offset, NULL, 0, -1, 0, 0},
                                  {out, out_offset, NULL, 0, -1, 0, 0}};
    plan_span spans[PLAN_OPERANDS];
    clsel_status st = check_queue(ctx, queue);
    if (st != CLSEL_SUCCESS)
        return st;
    if (num_events_in_wait_list > 0 && !event_wait_list)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "num_events_in_wait_list is %u but event_wait_list is NULL",
                               (unsigned)num_events_in_wait_list);
    for (cl_uint i = 0; i < num_events_in_wait_list; ++i)
        if (!event_wait_list[i])
            return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "event_wait_list[%u] is NULL",
                                   (unsigned)i);
    for (int op = 0; op < PLAN_OPERANDS && st == CLSEL_SUCCESS; ++op)
        st = check_tensor(ctx, clsel_priv_operand_name(op),
                          op == PLAN_OUT ? plan->out_count : plan->in_count[op], plan->first[op],
                          plan->reach[op], clsel_priv_plan_width(plan, op), op == PLAN_OUT, &t[op],
                          &spans[op]);
    if (st == CLSEL_SUCCESS)
        st = clsel_priv_plan_check_overlap(plan, spans, 0);
    if (st != CLSEL_SUCCESS)
        return st;
    if (plan->out_count > 0)
        return clsel_priv_cl_launch(ctx, queue, &plan->iter, plan->elem_size, t,
                                    num_events_in_wait_list, event_wait_list, event);
    /* Nothing to compute, but the wait list and the returned event still hold: a marker (a
     * zero-size NDRange is an error before OpenCL 2.1). */
    if (!event && num_events_in_wait_list == 0)
        return CLSEL_SUCCESS;
    const cl_int err = ctx->cl->clEnqueueMarkerWithWaitList(queue, num_events_in_wait_list,
                                                            event_wait_list, event);
    if (err == CL_SUCCESS)
        return CLSEL_SUCCESS;
    if (event)
        *event = NULL;
    return clsel_priv_fail_cl(CLSEL_ERROR_OPENCL, err, "clEnqueueMarkerWithWaitList failed");
}
