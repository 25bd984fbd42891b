/* select_contract.h - the one contract between the host and the kernels: every kernel argument in
 * order with its OpenCL C type and the host type that sets it, the build options that make a
 * program, the read kinds and the kernel name. The host includes it as C
 * (host/opencl/cl_kernel_args.h makes argument indices and typed setters of the list;
 * host/opencl/cl_program.c the options); the build puts it at the head of the program source
 * (cmake/embed_cl.cmake), where the list becomes the kernel's parameters. A kernel and its launcher
 * cannot disagree on an argument's place or size, and a host value of another type does not
 * compile. */
#ifndef CLSEL_SELECT_CONTRACT_H
#define CLSEL_SELECT_CONTRACT_H

/* A program holds one kernel, made by its build options (-D...): the element width (CLSEL_WIDTH: 1,
 * 2, 4 or 8 bytes), the number of dims it walks (CLSEL_RANK: a rank class, CLSEL_RANK_CLASSES; a
 * launch of a lower rank has dims of one above its own), how it reads each input (CLSEL_COND,
 * CLSEL_THEN, CLSEL_ELSE: a CLSEL_READ_*), how it writes the output (CLSEL_OUT: a CLSEL_WRITE_*),
 * whether every ROWS tensor is dense (CLSEL_DENSE, below) and how many 16-byte items each work-item
 * takes (CLSEL_ITEMS). The host builds each program the first time a launch needs it. */
#define CLSEL_RANK_CLASSES \
    {                      \
        1, 2, 3, 4, 6, 8   \
    }

/* How a kernel reads an input, by its element stride along dim 0 (the innermost dim of the launch):
 *  FIXED    stride 0: one element per row, repeated (or one for the whole launch);
 *  ROWS     stride 1: V elements of a row read from aligned 16-byte windows (V bytes for cond),
 * shifted into place where they do not start on one; the tensor's origin (below) lies on a window
 * boundary. Where the launch says the tensor is dense (its bit of `dense`: contiguous over the
 * whole launch, element i at origin + i, from a window boundary) every whole item is one aligned
 * access, also one that crosses rows; STRIDED  any other stride (a stepped, reversed or transposed
 * view), or an origin of unknown alignment: element by element; TILED    stride 1 along dim 1 and
 * another along dim 0 (a transposed view), windows usable: the kernel walks tiles of
 * CLSEL_TILE_ROWS rows (dim 1) by CLSEL_TILE_BYTES bytes (dim 0), one per work-group, and reads
 * each TILED input's part of a tile as aligned windows along dim 1 into local memory, shifted into
 * place, from which each item gathers its V elements (as GPU transposes do); the other inputs are
 * read as in any kernel, none STRIDED, and the output is ROWS. A kind per input is compiled in;
 * whether a tensor is dense is an argument, so that one kernel serves both, except that
 * CLSEL_DENSE=1 builds a kernel for launches where every tensor read or written as ROWS is dense
 * (same-shape runs and their kin), which then never looks at the argument. */
#define CLSEL_READ_FIXED 0
#define CLSEL_READ_ROWS 1
#define CLSEL_READ_STRIDED 2
#define CLSEL_READ_TILED 3
#define CLSEL_READS 4

/* A tile of a kernel with TILED inputs: CLSEL_TILE_ROWS rows along dim 1, CLSEL_TILE_BYTES bytes (4
 * items) along dim 0; a work-group of CLSEL_TILE_GROUP work-items, an item each, takes one (the
 * kernel requires that size). */
#define CLSEL_TILE_ROWS 64
#define CLSEL_TILE_BYTES 64
#define CLSEL_TILE_GROUP (CLSEL_TILE_ROWS * CLSEL_TILE_BYTES / 16)

/* How a kernel writes the output: ROWS, stride 1 along dim 0 (16-byte stores where an item lies in
 * a row on a boundary, which every item of a dense output does); STRIDED, element by element. */
#define CLSEL_WRITE_ROWS 0
#define CLSEL_WRITE_STRIDED 1
#define CLSEL_WRITES 2

/* The bits of the `layout` argument: which tensors are dense (cond, then, else, out:
 * CLSEL_DENSE_BIT(0..3)), which inputs are one element for the whole launch (cond, then, else:
 * CLSEL_UNIFORM_BIT(0..2), read once per work-item) and whether the kernel's then and else are the
 * plan's else and then (CLSEL_SWAP_BIT: the kernel takes its `then_` where cond is zero). The host
 * swaps them where then's read kind is the higher, so that one kernel serves a pattern and its
 * mirror: a kernel's then reads as CLSEL_THEN <= CLSEL_ELSE. */
#define CLSEL_DENSE_BIT(op) (1u << (op))
#define CLSEL_UNIFORM_BIT(op) (1u << (4 + (op)))
#define CLSEL_SWAP_BIT (1u << 8)
/* And which inputs read from windows are short: CLSEL_SHORT_WINDOWS whole windows or fewer from
 * their origin, and a partial one after them (a tiny row repeated over the launch, say), which most
 * items read: the kernel reads that one once per work-item (CLSEL_SHORT_BIT(0..2);
 * CLSEL_SHORT_BITS, any of them). */
#define CLSEL_SHORT_WINDOWS 4
#define CLSEL_SHORT_BIT(op) (1u << (12 + (op)))
#define CLSEL_SHORT_BITS (7u << 12)

/* Kernel names: clsel_w<element bytes>_r<rank class>_<cond><then><else>_<out><dense>, each kind a
 * digit. */
#define CLSEL_KERNEL_NAME_FORMAT "clsel_w%d_r%d_%d%d%d_%d%d"

/* The argument list: ARG(name, OpenCL C type, host type) for every argument but the last, LAST(...)
 * for the last; T is the element type (uchar, ushort, uint, ulong). Per tensor a buffer and the
 * element offset in it of the tensor's origin: its lowest element the launch touches, moved down to
 * a window boundary where its read kind uses windows (16 bytes; V bytes for cond). Per input (.x
 * cond, .y then, .z else) the whole windows from its origin to its buffer's end and the bytes of
 * the partial window after them (a window that would pass the buffer's end is read in smaller
 * pieces, or not at all); which tensors are dense or uniform (`layout`, below). Then the dims,
 * innermost first (dims at and past the launch's rank are 1); per dim the four tensors' signed
 * element strides (cond, then, else, out: components 4d to 4d + 3 of strides_lo for dims 0-3, of
 * strides_hi for dims 4-7) and what a carry out of the dim adds to the offsets (the next dim's
 * strides less this dim's times its size; carries_lo, carries_hi alike); each tensor's element
 * offset of the launch's element 0 from its origin (so that every offset a kernel forms is >= 0),
 * the step from one of a work-item's items to its next (the work-group's size times V elements) as
 * an index along each dim and the offsets it adds, the multiplier and shift that divide by each
 * dim, the tiles along dims 0 and 1 with the multiplier and shift that divide by each (s0-s2 and
 * s3-s5 of `tiles`, for kernels with TILED inputs) and the element count. then_, else_ and out
 * carry no `restrict`: the output may be then or else (in place). cond is never written, so it is
 * `restrict`. */
#define CLSEL_KERNEL_ARGS(ARG, LAST, T)             \
    ARG(cond, global const uchar *restrict, cl_mem) \
    ARG(cond_origin, ulong, cl_ulong)               \
    ARG(then_, global const T *, cl_mem)            \
    ARG(then_origin, ulong, cl_ulong)               \
    ARG(else_, global const T *, cl_mem)            \
    ARG(else_origin, ulong, cl_ulong)               \
    ARG(out, global T *, cl_mem)                    \
    ARG(out_origin, ulong, cl_ulong)                \
    ARG(windows, uint4, cl_uint4)                   \
    ARG(tails, uint4, cl_uint4)                     \
    ARG(layout, uint, cl_uint)                      \
    ARG(shape, uint8, cl_uint8)                     \
    ARG(strides_lo, int16, cl_int16)                \
    ARG(strides_hi, int16, cl_int16)                \
    ARG(carries_lo, int16, cl_int16)                \
    ARG(carries_hi, int16, cl_int16)                \
    ARG(first, int4, cl_int4)                       \
    ARG(step_at, uint8, cl_uint8)                   \
    ARG(step_off, int4, cl_int4)                    \
    ARG(div_mul, uint8, cl_uint8)                   \
    ARG(div_shift, uint8, cl_uint8)                 \
    ARG(tiles, uint8, cl_uint8)                     \
    LAST(n, uint, cl_uint)

#ifdef __OPENCL_C_VERSION__
#define CLSEL_PARAM(name, cl_type, host_type) cl_type name,
#define CLSEL_PARAM_LAST(name, cl_type, host_type) cl_type name
#define CLSEL_PARAMS(T) CLSEL_KERNEL_ARGS(CLSEL_PARAM, CLSEL_PARAM_LAST, T)
/* The kernel's name, as CLSEL_KERNEL_NAME_FORMAT spells it, from its build options. */
#define CLSEL_NAME_OF(w, r, c, t, e, o, d) clsel_w##w##_r##r##_##c##t##e##_##o##d
#define CLSEL_KERNEL_NAME_OF(w, r, c, t, e, o, d) CLSEL_NAME_OF(w, r, c, t, e, o, d)
#define CLSEL_KERNEL_NAME                                                                        \
    CLSEL_KERNEL_NAME_OF(CLSEL_WIDTH, CLSEL_RANK, CLSEL_COND, CLSEL_THEN, CLSEL_ELSE, CLSEL_OUT, \
                         CLSEL_DENSE)
#endif

#endif
