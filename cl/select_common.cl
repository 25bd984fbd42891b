/* select_common.cl - what both kernel families of clsel share: out = cond ? then : else,
 * bit for bit.
 *
 * OpenCL C 1.2, no extensions: every element moves as an unsigned integer of its
 * storage width (uchar, ushort, uint, ulong), so f16, bf16 and f64 need neither
 * cl_khr_fp16 nor cl_khr_fp64, and NaN payloads and -0.0 pass unchanged. cond is one
 * byte per element, nonzero = true; it is never read through bool.
 *
 * The host collapses the broadcast problem first (host/plan/plan.c) and the kernels
 * never re-derive broadcasting: they get the collapsed dims and each tensor's element
 * strides, or the plan's walk in blocks (host/plan/plan_blocks.c). All index arithmetic
 * is 32-bit: the host splits an output whose offsets would not fit into pieces that do,
 * and passes each piece's starting offsets as 64-bit buffer offsets.
 *
 * A program is one family for one element width: cl/select_contract.h, this file and
 * the family's file (select_blocks.cl for CPU devices, select_vectors.cl for GPUs), built
 * with -DCLSEL_WIDTH=1|2|4|8 (and the vectors family's -DCLSEL_ALIGNED=0|1) when a run
 * first needs it, so that a process that only ever selects f32 compiles the kernels of
 * width 4 and no others. `clsel kernels` prints any program's exact source and options.
 */

#if CLSEL_WIDTH == 1
typedef uchar clsel_elem;
#elif CLSEL_WIDTH == 2
typedef ushort clsel_elem;
#elif CLSEL_WIDTH == 4
typedef uint clsel_elem;
#elif CLSEL_WIDTH == 8
typedef ulong clsel_elem;
#else
#error "CLSEL_WIDTH must be 1, 2, 4 or 8"
#endif

/* A kernel's cond parameter is restrict (cl/select_contract.h); a helper that takes the
 * kernel's parameters redefines this to nothing around its definition, since inlining a
 * restrict parameter leaves scope intrinsics that Oclgrind cannot run. */
#define CLSEL_RESTRICT restrict

/* Helpers are inlined into each kernel, so that its constants (which inputs advance)
 * specialise them and their private structs stay in registers. */
#define CLSEL_INLINE static inline __attribute__((always_inline))

/* The tensors at the piece's first elements. */
#define CLSEL_AT_OFFSETS \
    cond += cond_off;    \
    then_ += then_off;   \
    else_ += else_off;   \
    out += out_off;
