/* cl_kernel_args.h - the kernels' arguments as the host sets them, generated from the contract
 * (cl/select_contract.h): an index per argument (KERNEL_ARG_shape, ...), a pointer to each one's
 * host value typed with its host type (a pointer of any other type fails to compile: warnings are
 * errors), and a setter of them all in the contract's order. */
#ifndef CLSEL_HOST_CL_KERNEL_ARGS_H
#define CLSEL_HOST_CL_KERNEL_ARGS_H

#include "cl/select_contract.h"
#include "opencl/cl_api.h"

#define CLSEL_KERNEL_ARG_INDEX(name, cl_type, host_type) KERNEL_ARG_##name,
enum {
    CLSEL_KERNEL_ARGS(CLSEL_KERNEL_ARG_INDEX, CLSEL_KERNEL_ARG_INDEX, ~) KERNEL_ARGS
};

#define CLSEL_KERNEL_VALUE(name, cl_type, host_type) const host_type *name;
typedef struct kernel_arg_values {
    CLSEL_KERNEL_ARGS(CLSEL_KERNEL_VALUE, CLSEL_KERNEL_VALUE, ~)
} kernel_arg_values;

/* clSetKernelArg of every argument, until one fails. */
static inline cl_int clsel_priv_set_kernel_args(const clsel_cl_api *cl, cl_kernel kernel,
                                                const kernel_arg_values *v)
{
    cl_int err = CL_SUCCESS;
#define CLSEL_KERNEL_SET(name, cl_type, host_type) \
    if (err == CL_SUCCESS)                         \
        err = cl->clSetKernelArg(kernel, (cl_uint)KERNEL_ARG_##name, sizeof *v->name, v->name);
    CLSEL_KERNEL_ARGS(CLSEL_KERNEL_SET, CLSEL_KERNEL_SET, ~)
#undef CLSEL_KERNEL_SET
    return err;
}

#endif
