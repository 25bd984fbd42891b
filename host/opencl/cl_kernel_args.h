/* cl_kernel_args.h - the kernels' arguments as the host sets them, generated from the
 * contract (cl/select_contract.h): an index per argument (VECTORS_ARG_shape,
 * BLOCKS_ARG_geo, ...), a host type per argument, and SET_ARG, which passes a value only
 * of that type. */
#ifndef CLSEL_HOST_CL_KERNEL_ARGS_H
#define CLSEL_HOST_CL_KERNEL_ARGS_H

#include <stddef.h>

#include "cl/select_contract.h"
#include "opencl/cl_api.h"

/* A local-memory argument: its size in bytes (the value is NULL). */
typedef size_t clsel_local_bytes;

#define CLSEL_VECTORS_INDEX(name, cl_type, host_type) VECTORS_ARG_##name,
#define CLSEL_BLOCKS_INDEX(name, cl_type, host_type) BLOCKS_ARG_##name,
enum { CLSEL_VECTORS_ARGS(CLSEL_VECTORS_INDEX, CLSEL_VECTORS_INDEX, ~) VECTORS_ARGS };
enum { CLSEL_BLOCKS_ARGS(CLSEL_BLOCKS_INDEX, CLSEL_BLOCKS_INDEX, ~) BLOCKS_ARGS };

#define CLSEL_VECTORS_TYPE(name, cl_type, host_type) typedef host_type vectors_arg_##name##_t;
#define CLSEL_BLOCKS_TYPE(name, cl_type, host_type) typedef host_type blocks_arg_##name##_t;
CLSEL_VECTORS_ARGS(CLSEL_VECTORS_TYPE, CLSEL_VECTORS_TYPE, ~)
CLSEL_BLOCKS_ARGS(CLSEL_BLOCKS_TYPE, CLSEL_BLOCKS_TYPE, ~)

/* The tensors lead both families' lists (TENSOR_ARG_cond, ...). */
#define CLSEL_TENSOR_INDEX(name, cl_type, host_type) TENSOR_ARG_##name,
#define CLSEL_TENSOR_TYPE(name, cl_type, host_type) typedef host_type tensor_arg_##name##_t;
enum { CLSEL_TENSOR_ARGS(CLSEL_TENSOR_INDEX, ~) TENSOR_ARGS };
CLSEL_TENSOR_ARGS(CLSEL_TENSOR_TYPE, ~)

/* clSetKernelArg of argument `name` of FAMILY (VECTORS, BLOCKS or TENSOR; family its
 * lower-case spelling) from `value`, a pointer to the argument's host type: any other
 * pointer type fails to compile (warnings are errors). */
#define SET_ARG(cl, kernel, FAMILY, family, name, value)                                                   \
    (cl)->clSetKernelArg((kernel), (cl_uint)FAMILY##_ARG_##name, sizeof(family##_arg_##name##_t),            \
                         (const family##_arg_##name##_t *){(value)})

/* The same for a local-memory argument (host type clsel_local_bytes) of `bytes` bytes. */
#define SET_LOCAL_ARG(cl, kernel, FAMILY, family, name, bytes)                                            \
    ((void)(const family##_arg_##name##_t *){(const clsel_local_bytes *)NULL},                             \
     (cl)->clSetKernelArg((kernel), (cl_uint)FAMILY##_ARG_##name, (clsel_local_bytes){(bytes)}, NULL))

#endif
