/* cl_validate.c - everything clsel_cl_enqueue checks before it enqueues anything. */
#include "opencl/cl_validate.h"

#include <stdint.h>

#include "common/error.h"

/* A failed info query means a bad handle when OpenCL says so, else an OpenCL failure. */
static clsel_status query_status(cl_int err, cl_int invalid_handle)
{
    return err == invalid_handle ? CLSEL_ERROR_INVALID_ARGUMENT : CLSEL_ERROR_OPENCL;
}

static clsel_status check_queue(const clsel_cl_context *ctx, cl_command_queue queue)
{
    const clsel_cl_api *cl = ctx->cl;
    cl_context queue_context = NULL;
    cl_device_id queue_device = NULL;
    cl_int err = cl->clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof queue_context,
                                           &queue_context, NULL);
    if (err == CL_SUCCESS)
        err = cl->clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof queue_device, &queue_device, NULL);
    if (err != CL_SUCCESS)
        return clsel_priv_fail_cl(query_status(err, CL_INVALID_COMMAND_QUEUE), err,
                             "clGetCommandQueueInfo on the command queue failed");
    if (queue_context != ctx->context)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                          "the command queue belongs to another cl_context than the clsel_cl_context");
    if (queue_device != ctx->device)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                          "the command queue is for another device than the clsel_cl_context (%s)",
                          ctx->device_name);
    return CLSEL_SUCCESS;
}

static clsel_status check_wait_list(cl_uint num_wait, const cl_event *wait_list)
{
    if (num_wait > 0 && !wait_list)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                          "num_events_in_wait_list is %u but event_wait_list is NULL", (unsigned)num_wait);
    for (cl_uint i = 0; i < num_wait; ++i)
        if (!wait_list[i])
            return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "event_wait_list[%u] is NULL", (unsigned)i);
    return CLSEL_SUCCESS;
}

/* Checks one tensor and finds where its bytes live: the buffer at the root of any
 * sub-buffer, the byte offset there, and its first byte's address modulo 16 where that
 * is known (t->align16): the host pointer of a CL_MEM_USE_HOST_PTR buffer says it, any
 * other buffer starts on the device's base alignment. */
static clsel_status check_tensor(const clsel_cl_context *ctx, clsel_priv_tensor *t, plan_span *range)
{
    const clsel_cl_api *cl = ctx->cl;
    range->root = NULL;
    range->begin = 0;
    t->align16 = -1;
    if (t->count == 0) return CLSEL_SUCCESS;
    if (!t->mem)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "%s buffer is NULL but has %lld elements",
                          t->name, (long long)t->count);
    if (t->offset % t->elem_size != 0)
        return clsel_priv_fail(CLSEL_ERROR_BUFFER,
                          "%s offset %zu bytes is not a multiple of the element size %zu", t->name,
                          t->offset, t->elem_size);
    size_t bytes = (size_t)t->count * t->elem_size;
    if (t->offset > SIZE_MAX - bytes)
        return clsel_priv_fail(CLSEL_ERROR_OVERFLOW, "%s offset %zu + %zu bytes overflows", t->name,
                          t->offset, bytes);
    size_t size = 0;
    cl_mem parent = NULL;
    size_t parent_offset = 0;
    cl_mem_flags flags = 0;
    void *host_ptr = NULL;
    cl_int err = cl->clGetMemObjectInfo(t->mem, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (err == CL_SUCCESS)
        err = cl->clGetMemObjectInfo(t->mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL);
    if (err == CL_SUCCESS && parent)
        err = cl->clGetMemObjectInfo(t->mem, CL_MEM_OFFSET, sizeof parent_offset, &parent_offset, NULL);
    if (err == CL_SUCCESS) err = cl->clGetMemObjectInfo(t->mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL);
    if (err == CL_SUCCESS && (flags & CL_MEM_USE_HOST_PTR))
        err = cl->clGetMemObjectInfo(t->mem, CL_MEM_HOST_PTR, sizeof host_ptr, &host_ptr, NULL);
    if (err != CL_SUCCESS)
        return clsel_priv_fail_cl(query_status(err, CL_INVALID_MEM_OBJECT), err,
                             "clGetMemObjectInfo on the %s buffer failed", t->name);
    if (size < t->offset + bytes)
        return clsel_priv_fail(CLSEL_ERROR_BUFFER,
                          "%s buffer holds %zu bytes, but offset %zu + %lld elements x %zu bytes needs %zu",
                          t->name, size, t->offset, (long long)t->count, t->elem_size, t->offset + bytes);
    range->root = parent ? parent : t->mem;
    range->begin = parent_offset + t->offset;
    if (flags & CL_MEM_USE_HOST_PTR)
        t->align16 = host_ptr ? (int)(((uintptr_t)host_ptr + t->offset) % 16) : -1;
    else if (ctx->base_align >= 16)
        t->align16 = (int)((parent_offset + t->offset) % 16);
    t->read_only = (flags & CL_MEM_READ_ONLY) != 0;
    return CLSEL_SUCCESS;
}

static clsel_status check_output_writable(const clsel_priv_tensor *out)
{
    if (out->count > 0 && out->read_only)
        return clsel_priv_fail(CLSEL_ERROR_BUFFER, "out buffer was created CL_MEM_READ_ONLY");
    return CLSEL_SUCCESS;
}

clsel_status clsel_priv_validate_call(const clsel_cl_context *ctx, const clsel_plan *plan, cl_command_queue queue,
                              clsel_priv_tensor tensors[PLAN_OPERANDS], cl_uint num_wait,
                              const cl_event *wait_list)
{
    clsel_status st = check_queue(ctx, queue);
    if (st == CLSEL_SUCCESS) st = check_wait_list(num_wait, wait_list);
    plan_span spans[PLAN_OPERANDS];
    for (int i = 0; i < PLAN_OPERANDS && st == CLSEL_SUCCESS; ++i) st = check_tensor(ctx, &tensors[i], &spans[i]);
    if (st == CLSEL_SUCCESS) st = check_output_writable(&tensors[PLAN_OUT]);
    if (st != CLSEL_SUCCESS) return st;

    return clsel_priv_plan_check_overlap(plan, spans, 0);
}
