/* example_embed.c - docs/api.md's embedding example, built and run as a test: clsel on
 * an OpenCL context, queue and buffers that the application already owns. */
#define CL_TARGET_OPENCL_VERSION 120
#include <math.h>
#include <stdio.h>

#include "clsel_cl.h"

int main(void)
{
    /* The application's own OpenCL objects (here: the first device there is). */
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS)
        return 77; /* no OpenCL device: skipped */
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);

    /* masked_fill: out[b,h,i,j] = mask[b,0,i,j] ? scores[b,h,i,j] : -inf */
    enum {
        B = 2,
        H = 4,
        S = 8
    };
    static unsigned char mask[B * S * S];
    static float scores[B * H * S * S], out[B * H * S * S];
    const float minus_inf = -INFINITY;
    for (int i = 0; i < B * S * S; ++i)
        mask[i] = (i % S) <= (i / S) % S; /* causal */
    for (int i = 0; i < B * H * S * S; ++i)
        scores[i] = (float)i;
    cl_mem mask_mem =
        clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof mask, mask, &err);
    cl_mem scores_mem = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                       sizeof scores, scores, &err);
    cl_mem fill_mem = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                     sizeof minus_inf, (void *)&minus_inf, &err);
    cl_mem out_mem = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);

    /* Once: a clsel context for this device with f32's kernels built now (else the
     * first enqueue builds them), and a plan for these shapes. */
    clsel_cl_context *ctx = NULL;
    clsel_plan *plan = NULL;
    const clsel_shape cond_shape = {4, {B, 1, S, S}}, then_shape = {4, {B, H, S, S}},
                      else_shape = {0, {0}};
    if (clsel_cl_context_create(context, device, &ctx) != CLSEL_SUCCESS ||
        clsel_cl_context_prepare(ctx, CLSEL_F32) != CLSEL_SUCCESS ||
        clsel_plan_create(CLSEL_F32, &cond_shape, &then_shape, &else_shape, NULL, &plan) !=
            CLSEL_SUCCESS) {
        fprintf(stderr, "clsel: %s\n", clsel_last_error());
        return 1;
    }

    /* Per inference: enqueue on the application's queue; nothing blocks. */
    cl_event done;
    clsel_status st = clsel_cl_enqueue(ctx, plan, queue, mask_mem, 0, scores_mem, 0, fill_mem, 0,
                                       out_mem, 0, 0, NULL, &done);
    if (st != CLSEL_SUCCESS) {
        fprintf(stderr, "clsel_cl_enqueue: %s: %s\n", clsel_status_string(st), clsel_last_error());
        return 1;
    }
    clEnqueueReadBuffer(queue, out_mem, CL_TRUE, 0, sizeof out, out, 1, &done, NULL);
    clReleaseEvent(done);
    printf("out[0][0][1][0..2] = %g %g %g\n", out[S + 0], out[S + 1], out[S + 2]); /* 8 9 -inf */

    clsel_plan_destroy(plan);
    clsel_cl_context_destroy(ctx);
    clReleaseMemObject(mask_mem);
    clReleaseMemObject(scores_mem);
    clReleaseMemObject(fill_mem);
    clReleaseMemObject(out_mem);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return out[S + 0] == 8.0f && out[S + 1] == 9.0f && out[S + 2] == minus_inf ? 0 : 1;
}
