/* select_contract.h - the one contract between the host and the kernels: every kernel's
 * arguments in order, each with its OpenCL C type and the host type that sets it, the
 * variant numbering and the kernel names. The host includes this file as C
 * (host/opencl/cl_kernel_args.h turns the lists into argument indices and typed
 * setters); the build puts it at the head of each family's program source
 * (cmake/embed_cl.cmake), where the same lists become the kernels' parameter lists. A
 * kernel and its launcher cannot disagree on an argument's place or size: both are
 * generated from one line here, and a host value of another type does not compile. */
#ifndef CLSEL_SELECT_CONTRACT_H
#define CLSEL_SELECT_CONTRACT_H

/* Variants: a kernel is specialised on how each input is read along the output's
 * innermost (collapsed) dim, one bit per input: cond 4, then 2, else 1. A bit is 1 when
 * the input is read as a contiguous run there (vectors: it advances along dim 0; blocks:
 * it is read in place), 0 when it is not (vectors: fixed along dim 0; blocks: gathered
 * into local memory first). The host spells the same numbering as
 * clsel_priv_plan_variant (host/plan/plan_operands.h); host/opencl/cl_program.c asserts
 * at compile time that the two agree. */
#define CLSEL_VARIANT(c, t, e) (((c) << 2) | ((t) << 1) | (e))
#define CLSEL_VARIANTS 8

/* The blocks family: how an input is read within a block, one value per input in lanes
 * s0-s2 of its `kinds` argument (cl/select_blocks.cl describes the other lanes). They
 * are the plan's plan_access values (host/plan/plan.h), which host/opencl/cl_enqueue.c
 * copies into that argument and asserts at compile time to be these. */
#define CLSEL_ACCESS_RUN 0     /* a contiguous run, read in place */
#define CLSEL_ACCESS_FIXED 1   /* one element for the whole block */
#define CLSEL_ACCESS_PATTERN 2 /* anything else: gathered into local memory */

/* The blocks family's periodic shuffle tables (cl/select_blocks.cl) hold at most this
 * many 16-byte chunks: the plan's PLAN_TABLE_BYTES (host/common/tuning_constants.h),
 * which host/opencl/cl_enqueue.c asserts at compile time. */
#define CLSEL_TABLE_CHUNKS 32

/* Kernel names: clsel_<family>_w<element bytes>_<cond bit><then bit><else bit>, and the
 * blocks family's clsel_blocks_w<element bytes>_pick. */
#define CLSEL_KERNEL_NAME_FORMAT "clsel_%s_w%d_%d%d%d"
#define CLSEL_PICK_NAME_FORMAT "clsel_blocks_w%d_pick"

/* The argument lists: ARG(name, OpenCL C type, host type) for every argument but the
 * last, LAST(...) for the last; T is the element type (uchar, ushort, uint, ulong). The
 * tensors come first in both families: a buffer and the element offset into it. */
#define CLSEL_TENSOR_ARGS(ARG, T)                 \
    ARG(cond, global const uchar *CLSEL_RESTRICT, cl_mem) \
    ARG(cond_off, ulong, cl_ulong)                \
    ARG(then_, global const T *, cl_mem)          \
    ARG(then_off, ulong, cl_ulong)                \
    ARG(else_, global const T *, cl_mem)          \
    ARG(else_off, ulong, cl_ulong)                \
    ARG(out, global T *, cl_mem)                  \
    ARG(out_off, ulong, cl_ulong)

/* then_, else_ and out carry no `restrict`: the contract lets out be then or else (in
 * place). cond is never written, so a kernel's cond is `restrict` (CLSEL_RESTRICT, which
 * cl/select_common.cl defines). */

/* The vectors family (GPUs), per launch: the collapsed dims innermost first (unused 1)
 * and each input's element strides along them; per dim, the multiplier and shift that
 * divide by it; the output's element count; the collapsed rank (dims at and past it are
 * never divided by); and whether out's first element lies on 16 bytes. */
#define CLSEL_VECTORS_ARGS(ARG, LAST, T) \
    CLSEL_TENSOR_ARGS(ARG, T)            \
    ARG(shape, uint8, cl_uint8)          \
    ARG(cond_strides, uint8, cl_uint8)   \
    ARG(then_strides, uint8, cl_uint8)   \
    ARG(else_strides, uint8, cl_uint8)   \
    ARG(div_mul, uint8, cl_uint8)        \
    ARG(div_shift, uint8, cl_uint8)      \
    ARG(n, uint, cl_uint)                \
    ARG(rank, uint, cl_uint)             \
    LAST(out_aligned, uint, cl_uint)

/* The blocks family (CPU devices): the walk of host/plan/plan_blocks.c (cl/select_blocks.cl
 * describes each vector's halves) and the work-group's local memory. */
#define CLSEL_BLOCKS_ARGS(ARG, LAST, T) \
    CLSEL_TENSOR_ARGS(ARG, T)           \
    ARG(blk, uint16, cl_uint16)         \
    ARG(strides, uint16, cl_uint16)     \
    ARG(lev, uint16, cl_uint16)         \
    ARG(steps, uint16, cl_uint16)       \
    ARG(geo, uint16, cl_uint16)         \
    ARG(kinds, uint8, cl_uint8)         \
    LAST(scratch, local uchar *, clsel_local_bytes)

#ifdef __OPENCL_C_VERSION__
/* Parameter lists from the argument lists. */
#define CLSEL_PARAM(name, cl_type, host_type) cl_type name,
#define CLSEL_PARAM_LAST(name, cl_type, host_type) cl_type name
#define CLSEL_VECTORS_PARAMS(T) CLSEL_VECTORS_ARGS(CLSEL_PARAM, CLSEL_PARAM_LAST, T)
#define CLSEL_BLOCKS_PARAMS(T) CLSEL_BLOCKS_ARGS(CLSEL_PARAM, CLSEL_PARAM_LAST, T)
/* The kernel name of a variant, as CLSEL_KERNEL_NAME_FORMAT spells it. */
#define CLSEL_KERNEL_NAME(family, W, c, t, e) clsel_##family##_w##W##_##c##t##e
#endif

#endif
