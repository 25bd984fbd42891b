/* cl_kernel_args.h - the kernels' arguments as the host sets them, generated from the
 * contract (cl/select_contract.h): an index per argument (KERNEL_ARG_shape, ...), a host
 * type per argument, and SET_ARG, which passes a value only of that type. */
#ifndef CLSEL_HOST_CL_KERNEL_ARGS_H
#define CLSEL_HOST_CL_KERNEL_ARGS_H

#include "cl/select_contract.h"
#include "opencl/cl_api.h"

#define CLSEL_KERNEL_ARG_INDEX(name, cl_type, host_type) KERNEL_ARG_##name,
enum { CLSEL_KERNEL_ARGS(CLSEL_KERNEL_ARG_INDEX, CLSEL_KERNEL_ARG_INDEX, ~) KERNEL_ARGS };

#define CLSEL_KERNEL_TYPE(name, cl_type, host_type) typedef host_type kernel_arg_##name##_t;
CLSEL_KERNEL_ARGS(CLSEL_KERNEL_TYPE, CLSEL_KERNEL_TYPE, ~)

/* clSetKernelArg of argument `name` from `value`, a pointer to the argument's host
 * type: any other pointer type fails to compile (warnings are errors). */
#define SET_ARG(cl, kernel, name, value)                                                   \
    (cl)->clSetKernelArg((kernel), (cl_uint)KERNEL_ARG_##name, sizeof(kernel_arg_##name##_t), \
                         (const kernel_arg_##name##_t *){(value)})

#endif
