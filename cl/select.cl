/* select.cl - clsel's Select kernels: out = cond ? then : else, bit for bit.
 *
 * OpenCL C 1.2, no extensions: every element moves as an unsigned integer of its
 * storage width (uchar, ushort, uint, ulong), so f16, bf16 and f64 need neither
 * cl_khr_fp16 nor cl_khr_fp64, and NaN payloads and -0.0 pass unchanged. cond is one
 * byte per element, nonzero = true; it is never read through bool or select().
 *
 * The host collapses the broadcast problem first (host/plan.c) and hands every kernel
 * the same arguments: each tensor as (buffer, element offset), the collapsed dims in
 * `shape` (s0 innermost) and each operand's element strides per dim (0 = broadcast).
 * The kernels never re-derive broadcasting.
 *
 * NDRange: dim 0 runs along the innermost (contiguous) dim, dim 1 along shape.s1, dim 2
 * along the remaining outer dims. The host rounds dims 0 and 1 up to the local size
 * (hence the guard) and may split dims 1 and 2 into several launches (y0, z0).
 *
 * Two kernel families per element width and index width:
 *   clsel_b3_*_CTE  at most 3 collapsed dims. C, T, E are 1 when cond / then / else
 *                   advance along dim 0 and 0 when they stay put, fixed at compile time
 *                   so that the work-item loop vectorizes (PERF.md rules 1, 2, 4).
 *   clsel_bn_*      4 to 8 collapsed dims: dim 2 is unravelled into shape.s2..s7 once
 *                   per work-item; the innermost strides are run-time values.
 * All three operands are loaded before one is picked: a ternary on memory would be a
 * conditional load, which vectorizers give up on for 1- and 2-byte types.
 * Index width: i32 kernels are used only when every index fits in 31 bits, i64
 * kernels otherwise.
 */

#define CLSEL_ARGS(T, IDX, IDX8)                                                          \
    global const uchar *cond, ulong cond_off, global const T *then_, ulong then_off,     \
        global const T *else_, ulong else_off, global T *out, ulong out_off, IDX8 shape, \
        IDX8 cs, IDX8 ts, IDX8 es, IDX8 os, IDX y0, IDX z0

#define CLSEL_PROLOGUE(IDX)                        \
    const IDX x = (IDX)get_global_id(0);           \
    const IDX y = (IDX)get_global_id(1) + y0;      \
    const IDX z = (IDX)get_global_id(2) + z0;      \
    if (x >= shape.s0 || y >= shape.s1) return;    \
    cond += cond_off;                              \
    then_ += then_off;                             \
    else_ += else_off;                             \
    out += out_off;

#define CLSEL_PICK(T, ci, ti, ei, oi) \
    {                                 \
        const uchar c = cond[ci];     \
        const T a = then_[ti];        \
        const T b = else_[ei];        \
        out[oi] = c ? a : b;          \
    }

/* At most 3 dims; CV, TV, EV: does cond / then / else advance along dim 0. */
#define CLSEL_B3(NAME, T, IDX, IDX8, CV, TV, EV)                                  \
    kernel void NAME(CLSEL_ARGS(T, IDX, IDX8))                                    \
    {                                                                             \
        CLSEL_PROLOGUE(IDX)                                                       \
        CLSEL_PICK(T, y * cs.s1 + z * cs.s2 + (CV ? x : 0),                       \
                   y * ts.s1 + z * ts.s2 + (TV ? x : 0),                          \
                   y * es.s1 + z * es.s2 + (EV ? x : 0), y * os.s1 + z * os.s2 + x) \
    }

/* One outer dim k (2..7) of the general kernel: peel its coordinate off q. Unused
 * outer dims have size 1 and stride 0. */
#define CLSEL_OUTER(IDX, k)              \
    {                                    \
        const IDX r = q % shape.s##k;    \
        q /= shape.s##k;                 \
        ci += r * cs.s##k;               \
        ti += r * ts.s##k;               \
        ei += r * es.s##k;               \
        oi += r * os.s##k;               \
    }

#define CLSEL_BN(NAME, T, IDX, IDX8)                                              \
    kernel void NAME(CLSEL_ARGS(T, IDX, IDX8))                                    \
    {                                                                             \
        CLSEL_PROLOGUE(IDX)                                                       \
        IDX q = z;                                                                \
        IDX ci = y * cs.s1 + x * cs.s0, ti = y * ts.s1 + x * ts.s0;               \
        IDX ei = y * es.s1 + x * es.s0, oi = y * os.s1 + x;                       \
        CLSEL_OUTER(IDX, 2) CLSEL_OUTER(IDX, 3) CLSEL_OUTER(IDX, 4)               \
        CLSEL_OUTER(IDX, 5) CLSEL_OUTER(IDX, 6) CLSEL_OUTER(IDX, 7)               \
        CLSEL_PICK(T, ci, ti, ei, oi)                                             \
    }

#define CLSEL_FAMILY(W, IW, T, IDX, IDX8)                                         \
    CLSEL_B3(clsel_b3_##W##_##IW##_000, T, IDX, IDX8, 0, 0, 0)                    \
    CLSEL_B3(clsel_b3_##W##_##IW##_001, T, IDX, IDX8, 0, 0, 1)                    \
    CLSEL_B3(clsel_b3_##W##_##IW##_010, T, IDX, IDX8, 0, 1, 0)                    \
    CLSEL_B3(clsel_b3_##W##_##IW##_011, T, IDX, IDX8, 0, 1, 1)                    \
    CLSEL_B3(clsel_b3_##W##_##IW##_100, T, IDX, IDX8, 1, 0, 0)                    \
    CLSEL_B3(clsel_b3_##W##_##IW##_101, T, IDX, IDX8, 1, 0, 1)                    \
    CLSEL_B3(clsel_b3_##W##_##IW##_110, T, IDX, IDX8, 1, 1, 0)                    \
    CLSEL_B3(clsel_b3_##W##_##IW##_111, T, IDX, IDX8, 1, 1, 1)                    \
    CLSEL_BN(clsel_bn_##W##_##IW, T, IDX, IDX8)

#define CLSEL_WIDTH(W, T)                  \
    CLSEL_FAMILY(W, i32, T, uint, uint8)   \
    CLSEL_FAMILY(W, i64, T, ulong, ulong8)

CLSEL_WIDTH(w1, uchar)
CLSEL_WIDTH(w2, ushort)
CLSEL_WIDTH(w4, uint)
CLSEL_WIDTH(w8, ulong)
