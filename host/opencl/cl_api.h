/* cl_api.h - the OpenCL entry points clsel uses, loaded at run time from the process's
 * OpenCL library, so that the library itself has no link-time dependency on OpenCL and
 * the CPU path works where none is installed. All OpenCL calls in the library go
 * through clsel_priv_cl(). */
#ifndef CLSEL_HOST_CL_API_H
#define CLSEL_HOST_CL_API_H

#include "clsel_cl.h" /* the OpenCL headers, as the public interop header takes them */

/* X(return type, name, parameter list, argument list, how a failure is reported):
 * CODE returns a cl_int; BUILD is clBuildProgram (fails as a build failure); OBJECT
 * returns a handle and reports through errcode_ret; NEVER (retain and release, and the
 * completion of a user event the library holds its own native kernel on: a failure
 * there leaves nothing for any caller to do) is never made to fail by the tests'
 * fault-injection library (tests/opencl/cl_fault_shim.c), which wraps every entry point
 * of this table. */
#define CLSEL_CL_FUNCTIONS(X)                                                                   \
    X(cl_int, clGetPlatformIDs, (cl_uint n, cl_platform_id * p, cl_uint * np), (n, p, np), CODE) \
    X(cl_int, clGetPlatformInfo, (cl_platform_id p, cl_platform_info i, size_t n, void *v, size_t *r), \
      (p, i, n, v, r), CODE)                                                                    \
    X(cl_int, clGetDeviceIDs,                                                                  \
      (cl_platform_id p, cl_device_type t, cl_uint n, cl_device_id * d, cl_uint * nd), (p, t, n, d, nd), CODE) \
    X(cl_int, clGetDeviceInfo, (cl_device_id d, cl_device_info i, size_t n, void *v, size_t *r), \
      (d, i, n, v, r), CODE)                                                                    \
    X(cl_int, clRetainDevice, (cl_device_id d), (d), NEVER)                                    \
    X(cl_int, clReleaseDevice, (cl_device_id d), (d), NEVER)                                   \
    X(cl_context, clCreateContext,                                                             \
      (const cl_context_properties *p, cl_uint n, const cl_device_id *d,                       \
       void(CL_CALLBACK * f)(const char *, const void *, size_t, void *), void *u, cl_int *errcode_ret), \
      (p, n, d, f, u, errcode_ret), OBJECT)                                                     \
    X(cl_int, clRetainContext, (cl_context c), (c), NEVER)                                     \
    X(cl_int, clReleaseContext, (cl_context c), (c), NEVER)                                    \
    X(cl_int, clGetContextInfo, (cl_context c, cl_context_info i, size_t n, void *v, size_t *r), \
      (c, i, n, v, r), CODE)                                                                    \
    X(cl_command_queue, clCreateCommandQueue,                                                  \
      (cl_context c, cl_device_id d, cl_command_queue_properties p, cl_int * errcode_ret),      \
      (c, d, p, errcode_ret), OBJECT)                                                           \
    X(cl_int, clReleaseCommandQueue, (cl_command_queue q), (q), NEVER)                         \
    X(cl_int, clGetCommandQueueInfo,                                                           \
      (cl_command_queue q, cl_command_queue_info i, size_t n, void *v, size_t *r), (q, i, n, v, r), CODE) \
    X(cl_mem, clCreateBuffer, (cl_context c, cl_mem_flags f, size_t n, void *h, cl_int *errcode_ret), \
      (c, f, n, h, errcode_ret), OBJECT)                                                        \
    X(cl_int, clReleaseMemObject, (cl_mem m), (m), NEVER)                                      \
    X(cl_int, clGetMemObjectInfo, (cl_mem m, cl_mem_info i, size_t n, void *v, size_t *r),     \
      (m, i, n, v, r), CODE)                                                                    \
    X(cl_program, clCreateProgramWithSource,                                                   \
      (cl_context c, cl_uint n, const char **s, const size_t *l, cl_int *errcode_ret),         \
      (c, n, s, l, errcode_ret), OBJECT)                                                        \
    X(cl_int, clBuildProgram,                                                                  \
      (cl_program p, cl_uint n, const cl_device_id *d, const char *o,                          \
       void(CL_CALLBACK * f)(cl_program, void *), void *u),                                     \
      (p, n, d, o, f, u), BUILD)                                                                \
    X(cl_program, clCreateProgramWithBinary,                                                   \
      (cl_context c, cl_uint n, const cl_device_id *d, const size_t *l, const unsigned char **b, cl_int *s,  \
       cl_int *errcode_ret),                                                                    \
      (c, n, d, l, b, s, errcode_ret), OBJECT)                                                  \
    X(cl_int, clGetProgramInfo, (cl_program p, cl_program_info i, size_t n, void *v, size_t *r), \
      (p, i, n, v, r), CODE)                                                                    \
    X(cl_int, clGetProgramBuildInfo,                                                           \
      (cl_program p, cl_device_id d, cl_program_build_info i, size_t n, void *v, size_t *r),   \
      (p, d, i, n, v, r), CODE)                                                                 \
    X(cl_int, clReleaseProgram, (cl_program p), (p), NEVER)                                    \
    X(cl_kernel, clCreateKernel, (cl_program p, const char *name, cl_int *errcode_ret),        \
      (p, name, errcode_ret), OBJECT)                                                           \
    X(cl_int, clReleaseKernel, (cl_kernel k), (k), NEVER)                                      \
    X(cl_int, clGetKernelWorkGroupInfo,                                                        \
      (cl_kernel k, cl_device_id d, cl_kernel_work_group_info i, size_t n, void *v, size_t *r), \
      (k, d, i, n, v, r), CODE)                                                                 \
    X(cl_int, clSetKernelArg, (cl_kernel k, cl_uint i, size_t n, const void *v), (k, i, n, v), CODE) \
    X(cl_int, clEnqueueNDRangeKernel,                                                          \
      (cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *off, const size_t *gws,     \
       const size_t *lws, cl_uint nw, const cl_event *w, cl_event *e),                         \
      (q, k, dim, off, gws, lws, nw, w, e), CODE)                                               \
    X(cl_int, clEnqueueNativeKernel,                                                           \
      (cl_command_queue q, void(CL_CALLBACK * f)(void *), void *a, size_t n, cl_uint nm, const cl_mem *m,   \
       const void **l, cl_uint nw, const cl_event *w, cl_event *e),                             \
      (q, f, a, n, nm, m, l, nw, w, e), CODE)                                                    \
    X(cl_event, clCreateUserEvent, (cl_context c, cl_int * errcode_ret), (c, errcode_ret), OBJECT) \
    X(cl_int, clSetUserEventStatus, (cl_event e, cl_int s), (e, s), NEVER)                     \
    X(cl_int, clEnqueueMarkerWithWaitList,                                                     \
      (cl_command_queue q, cl_uint nw, const cl_event *w, cl_event *e), (q, nw, w, e), CODE)   \
    X(void *, clEnqueueMapBuffer,                                                              \
      (cl_command_queue q, cl_mem m, cl_bool b, cl_map_flags f, size_t off, size_t n, cl_uint nw, \
       const cl_event *w, cl_event *e, cl_int *errcode_ret),                                    \
      (q, m, b, f, off, n, nw, w, e, errcode_ret), OBJECT)                                      \
    X(cl_int, clEnqueueUnmapMemObject,                                                         \
      (cl_command_queue q, cl_mem m, void *p, cl_uint nw, const cl_event *w, cl_event *e), (q, m, p, nw, w, e), \
      CODE)                                                                                     \
    X(cl_int, clEnqueueWriteBuffer,                                                            \
      (cl_command_queue q, cl_mem m, cl_bool b, size_t off, size_t n, const void *h, cl_uint nw, \
       const cl_event *w, cl_event *e),                                                         \
      (q, m, b, off, n, h, nw, w, e), CODE)                                                     \
    X(cl_int, clEnqueueReadBuffer,                                                             \
      (cl_command_queue q, cl_mem m, cl_bool b, size_t off, size_t n, void *h, cl_uint nw,     \
       const cl_event *w, cl_event *e),                                                         \
      (q, m, b, off, n, h, nw, w, e), CODE)                                                     \
    X(cl_int, clFlush, (cl_command_queue q), (q), CODE)                                        \
    X(cl_int, clFinish, (cl_command_queue q), (q), CODE)                                       \
    X(cl_int, clWaitForEvents, (cl_uint n, const cl_event *e), (n, e), CODE)                   \
    X(cl_int, clGetEventInfo, (cl_event e, cl_event_info i, size_t n, void *v, size_t *r),     \
      (e, i, n, v, r), CODE)                                                                    \
    X(cl_int, clReleaseEvent, (cl_event e), (e), NEVER)

typedef struct clsel_cl_api {
#define CLSEL_CL_FIELD(ret, name, params, args, failure) ret(CL_API_CALL *name) params;
    CLSEL_CL_FUNCTIONS(CLSEL_CL_FIELD)
#undef CLSEL_CL_FIELD
} clsel_cl_api;

/* The loaded entry points, or NULL (with clsel_last_error() set, status
 * CLSEL_ERROR_NO_DEVICE) when no OpenCL library could be loaded or it lacks one of
 * them. Loads once per process; thread-safe. */
const clsel_cl_api *clsel_priv_cl(void);

#endif
