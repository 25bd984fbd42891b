/* cl_api.h - the OpenCL entry points clsel uses, loaded at run time so that the library has no
 * link-time dependency on OpenCL and the CPU path works where none is installed. Every OpenCL call
 * of the library goes through these. */
#ifndef CLSEL_HOST_CL_API_H
#define CLSEL_HOST_CL_API_H

#include "clsel_cl.h" /* the OpenCL headers, as the public interop header takes them */

/* X(return type, name, parameter list, argument list, how a failure is reported): CODE returns a
 * cl_int; BUILD (clBuildProgram) fails as a build failure; OBJECT returns a handle and reports
 * through errcode_ret; NEVER (retain, release, and completing the user event the native kernel
 * waits on: a failure there leaves no caller anything to do) is never failed by the tests'
 * fault-injection library (tests/opencl/cl_fault_shim.c), which wraps every entry point here.
 * Helpers spell common shapes: CLSEL_CL_INFO (clGet*Info of one handle), CLSEL_CL_OBJECT
 * (errcode_ret appended), CLSEL_CL_ENQUEUE (a queue command with a wait list). */
#define CLSEL_CL_INFO(X, name, H, I) \
    X(cl_int, name, (H h, I i, size_t n, void *v, size_t *r), (h, i, n, v, r), CODE)
#define CLSEL_CL_SPLICE(...) __VA_ARGS__
#define CLSEL_CL_OBJECT(X, ret, name, P, A)                                                   \
    X(ret, name, (CLSEL_CL_SPLICE P, cl_int * errcode_ret), (CLSEL_CL_SPLICE A, errcode_ret), \
      OBJECT)
#define CLSEL_CL_ENQUEUE(X, name, P, A)                                                    \
    X(cl_int, name,                                                                        \
      (cl_command_queue q, CLSEL_CL_SPLICE P, cl_uint nw, const cl_event *w, cl_event *e), \
      (q, CLSEL_CL_SPLICE A, nw, w, e), CODE)
#define CLSEL_CL_FUNCTIONS(X)                                                                      \
    X(cl_int, clGetPlatformIDs, (cl_uint n, cl_platform_id * p, cl_uint * np), (n, p, np), CODE)   \
    CLSEL_CL_INFO(X, clGetPlatformInfo, cl_platform_id, cl_platform_info)                          \
    X(cl_int, clGetDeviceIDs,                                                                      \
      (cl_platform_id p, cl_device_type t, cl_uint n, cl_device_id * d, cl_uint * nd),             \
      (p, t, n, d, nd), CODE)                                                                      \
    CLSEL_CL_INFO(X, clGetDeviceInfo, cl_device_id, cl_device_info)                                \
    X(cl_int, clRetainDevice, (cl_device_id d), (d), NEVER)                                        \
    X(cl_int, clReleaseDevice, (cl_device_id d), (d), NEVER)                                       \
    CLSEL_CL_OBJECT(X, cl_context, clCreateContext,                                                \
                    (const cl_context_properties *p, cl_uint n, const cl_device_id *d,             \
                     void(CL_CALLBACK * f)(const char *, const void *, size_t, void *), void *u),  \
                    (p, n, d, f, u))                                                               \
    X(cl_int, clRetainContext, (cl_context c), (c), NEVER)                                         \
    X(cl_int, clReleaseContext, (cl_context c), (c), NEVER)                                        \
    CLSEL_CL_INFO(X, clGetContextInfo, cl_context, cl_context_info)                                \
    CLSEL_CL_OBJECT(X, cl_command_queue, clCreateCommandQueue,                                     \
                    (cl_context c, cl_device_id d, cl_command_queue_properties p), (c, d, p))      \
    X(cl_int, clReleaseCommandQueue, (cl_command_queue q), (q), NEVER)                             \
    CLSEL_CL_INFO(X, clGetCommandQueueInfo, cl_command_queue, cl_command_queue_info)               \
    CLSEL_CL_OBJECT(X, cl_mem, clCreateBuffer, (cl_context c, cl_mem_flags f, size_t n, void *h),  \
                    (c, f, n, h))                                                                  \
    X(cl_int, clReleaseMemObject, (cl_mem m), (m), NEVER)                                          \
    CLSEL_CL_INFO(X, clGetMemObjectInfo, cl_mem, cl_mem_info)                                      \
    CLSEL_CL_OBJECT(X, cl_program, clCreateProgramWithSource,                                      \
                    (cl_context c, cl_uint n, const char **s, const size_t *l), (c, n, s, l))      \
    X(cl_int, clBuildProgram,                                                                      \
      (cl_program p, cl_uint n, const cl_device_id *d, const char *o,                              \
       void(CL_CALLBACK * f)(cl_program, void *), void *u),                                        \
      (p, n, d, o, f, u), BUILD)                                                                   \
    CLSEL_CL_OBJECT(X, cl_program, clCreateProgramWithBinary,                                      \
                    (cl_context c, cl_uint n, const cl_device_id *d, const size_t *l,              \
                     const unsigned char **b, cl_int *s),                                          \
                    (c, n, d, l, b, s))                                                            \
    CLSEL_CL_INFO(X, clGetProgramInfo, cl_program, cl_program_info)                                \
    X(cl_int, clGetProgramBuildInfo,                                                               \
      (cl_program p, cl_device_id d, cl_program_build_info i, size_t n, void *v, size_t *r),       \
      (p, d, i, n, v, r), CODE)                                                                    \
    X(cl_int, clReleaseProgram, (cl_program p), (p), NEVER)                                        \
    CLSEL_CL_OBJECT(X, cl_kernel, clCreateKernel, (cl_program p, const char *s), (p, s))           \
    X(cl_int, clReleaseKernel, (cl_kernel k), (k), NEVER)                                          \
    X(cl_int, clGetKernelWorkGroupInfo,                                                            \
      (cl_kernel k, cl_device_id d, cl_kernel_work_group_info i, size_t n, void *v, size_t *r),    \
      (k, d, i, n, v, r), CODE)                                                                    \
    X(cl_int, clSetKernelArg, (cl_kernel k, cl_uint i, size_t n, const void *v), (k, i, n, v),     \
      CODE)                                                                                        \
    CLSEL_CL_ENQUEUE(                                                                              \
        X, clEnqueueNDRangeKernel,                                                                 \
        (cl_kernel k, cl_uint dim, const size_t *off, const size_t *gws, const size_t *lws),       \
        (k, dim, off, gws, lws))                                                                   \
    CLSEL_CL_ENQUEUE(X, clEnqueueNativeKernel,                                                     \
                     (void(CL_CALLBACK * f)(void *), void *a, size_t n, cl_uint nm,                \
                      const cl_mem *m, const void **l),                                            \
                     (f, a, n, nm, m, l))                                                          \
    CLSEL_CL_OBJECT(X, cl_event, clCreateUserEvent, (cl_context c), (c))                           \
    X(cl_int, clSetUserEventStatus, (cl_event e, cl_int s), (e, s), NEVER)                         \
    X(cl_int, clEnqueueMarkerWithWaitList,                                                         \
      (cl_command_queue q, cl_uint nw, const cl_event *w, cl_event *e), (q, nw, w, e), CODE)       \
    CLSEL_CL_OBJECT(X, void *, clEnqueueMapBuffer,                                                 \
                    (cl_command_queue q, cl_mem m, cl_bool b, cl_map_flags f, size_t off,          \
                     size_t n, cl_uint nw, const cl_event *w, cl_event *e),                        \
                    (q, m, b, f, off, n, nw, w, e))                                                \
    CLSEL_CL_ENQUEUE(X, clEnqueueUnmapMemObject, (cl_mem m, void *p), (m, p))                      \
    CLSEL_CL_ENQUEUE(X, clEnqueueWriteBuffer,                                                      \
                     (cl_mem m, cl_bool b, size_t off, size_t n, const void *h),                   \
                     (m, b, off, n, h))                                                            \
    CLSEL_CL_ENQUEUE(X, clEnqueueReadBuffer, (cl_mem m, cl_bool b, size_t off, size_t n, void *h), \
                     (m, b, off, n, h))                                                            \
    X(cl_int, clFlush, (cl_command_queue q), (q), CODE)                                            \
    X(cl_int, clFinish, (cl_command_queue q), (q), CODE)                                           \
    X(cl_int, clWaitForEvents, (cl_uint n, const cl_event *e), (n, e), CODE)                       \
    CLSEL_CL_INFO(X, clGetEventInfo, cl_event, cl_event_info)                                      \
    X(cl_int, clReleaseEvent, (cl_event e), (e), NEVER)

typedef struct clsel_cl_api {
#define CLSEL_CL_FIELD(ret, name, params, args, failure) ret(CL_API_CALL *name) params;
    CLSEL_CL_FUNCTIONS(CLSEL_CL_FIELD)
#undef CLSEL_CL_FIELD
} clsel_cl_api;

/* The entry points, loaded once per process (thread-safe); NULL (CLSEL_ERROR_NO_DEVICE) without a
 * usable library. */
const clsel_cl_api *clsel_priv_cl(void);

#endif
