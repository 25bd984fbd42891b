/* select_contract.h - the one contract between the host and the kernels: every kernel argument in order with its
 * OpenCL C type and the host type that sets it, the variant numbering, the read kinds and the kernel names. The host
 * includes it as C (host/opencl/cl_kernel_args.h makes argument indices and typed setters of the list); the build puts
 * it at the head of the program source (cmake/embed_cl.cmake), where the list becomes the kernels' parameters. A
 * kernel and its launcher cannot disagree on an argument's place or size, and a host value of another type does not
 * compile. */
#ifndef CLSEL_SELECT_CONTRACT_H
#define CLSEL_SELECT_CONTRACT_H

/* Variants: whether each input advances along the innermost dim (1) or not (0), cond 4, then 2, else 1: the numbering
 * of clsel_priv_plan_variant (host/plan/plan_iter.h), asserted equal in host/opencl/cl_program.c. */
#define CLSEL_VARIANT(c, t, e) (((c) << 2) | ((t) << 1) | (e))
#define CLSEL_VARIANTS 8

/* How a kernel reads an input, one digit per input in its name: FIXED, one element along the innermost dim (variant bit
 * 0); ROWS, advancing along it (variant bit 1), V elements at a time where they lie in one row; DENSE, advancing and
 * contiguous over the whole launch (element i of the launch at offset i from its first) with its first element on a
 * 16-byte boundary (V bytes for cond): 16 bytes read at once in every item, also one that crosses rows. The aligned
 * form has no DENSE kernels (every item of it lies in one row, on boundaries). The output steps by one element along
 * the innermost dim (the host gives a space where a tensor steps otherwise a dim of one element below the rest). */
#define CLSEL_READ_FIXED 0
#define CLSEL_READ_ROWS 1
#define CLSEL_READ_DENSE 2
#define CLSEL_READS 3
/* A kernel's index among a program's (27 slots; the aligned form fills those of 0s and 1s). */
#define CLSEL_KERNEL_INDEX(c, t, e) ((c) * CLSEL_READS * CLSEL_READS + (t) * CLSEL_READS + (e))
#define CLSEL_KERNELS (CLSEL_READS * CLSEL_READS * CLSEL_READS)

/* Kernel names: clsel_w<element bytes>_<cond digit><then digit><else digit>. */
#define CLSEL_KERNEL_NAME_FORMAT "clsel_w%d_%d%d%d"

/* The argument list: ARG(name, OpenCL C type, host type) for every argument but the last, LAST(...) for the last; T is
 * the element type (uchar, ushort, uint, ulong). Per tensor a buffer and the element offset of the launch's first
 * element in it; the collapsed dims innermost first (unused ones 1) and each tensor's signed element strides along
 * them; per dim the multiplier and shift that divide by it; the element count; the rank (dims at and past it are never
 * divided by); whether the output is contiguous over the launch (else an item across rows is written element by
 * element); whether the output's first element lies on 16 bytes. then_, else_ and out carry no `restrict`: the
 * output may be then or else (in place). cond is never written, so it is `restrict` (CLSEL_RESTRICT, cl/select.cl). */
#define CLSEL_KERNEL_ARGS(ARG, LAST, T)                   \
    ARG(cond, global const uchar *CLSEL_RESTRICT, cl_mem) \
    ARG(cond_off, ulong, cl_ulong)                        \
    ARG(then_, global const T *, cl_mem)                  \
    ARG(then_off, ulong, cl_ulong)                        \
    ARG(else_, global const T *, cl_mem)                  \
    ARG(else_off, ulong, cl_ulong)                        \
    ARG(out, global T *, cl_mem)                          \
    ARG(out_off, ulong, cl_ulong)                         \
    ARG(shape, uint8, cl_uint8)                           \
    ARG(cond_strides, int8, cl_int8)                      \
    ARG(then_strides, int8, cl_int8)                      \
    ARG(else_strides, int8, cl_int8)                      \
    ARG(out_strides, int8, cl_int8)                       \
    ARG(div_mul, uint8, cl_uint8)                         \
    ARG(div_shift, uint8, cl_uint8)                       \
    ARG(n, uint, cl_uint)                                 \
    ARG(rank, uint, cl_uint)                              \
    ARG(out_dense, uint, cl_uint)                         \
    LAST(out_aligned, uint, cl_uint)

#ifdef __OPENCL_C_VERSION__
#define CLSEL_PARAM(name, cl_type, host_type) cl_type name,
#define CLSEL_PARAM_LAST(name, cl_type, host_type) cl_type name
#define CLSEL_PARAMS(T) CLSEL_KERNEL_ARGS(CLSEL_PARAM, CLSEL_PARAM_LAST, T)
/* The kernel name of a variant, as CLSEL_KERNEL_NAME_FORMAT spells it. */
#define CLSEL_KERNEL_NAME(W, c, t, e) clsel_w##W##_##c##t##e
#endif

#endif
