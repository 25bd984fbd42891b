/* select.cl - clsel's Select kernels: out = cond ? then : else, bit for bit.
 *
 * OpenCL C 1.2, no extensions: every element moves as an unsigned integer of its
 * storage width (uchar, ushort, uint, ulong), so f16, bf16 and f64 need neither
 * cl_khr_fp16 nor cl_khr_fp64, and NaN payloads and -0.0 pass unchanged. cond is one
 * byte per element, nonzero = true; it is never read through bool or select().
 *
 * The host collapses the broadcast problem first (host/plan.c) and hands every kernel
 * the same arguments: each tensor as (buffer, element offset), the collapsed dims in
 * `shape` (s0 innermost, unused dims 1) and each operand's element strides per dim
 * (0 = broadcast, unused dims 0). The kernels never re-derive broadcasting.
 *
 * NDRange: dim 0 runs along the innermost dim (s0, the contiguous run), dim 1 along
 * the rows: all the outer dims flattened, row r unravelled into them once per work-item
 * (a work-group shares its row, so on CPU devices the division is hoisted out of the
 * work-item loop). Three kernel families per element width and index width:
 *
 *   clsel_r3_*_CTE  at most 3 collapsed dims (one division per row);
 *   clsel_rn_*_CTE  4 to 8 collapsed dims;
 *        C, T, E: 1 when cond / then / else advance along dim 0, 0 when they stay put,
 *        fixed at compile time so that accesses are provably contiguous.
 *        These two take no bounds check: the host launches them on whole work-groups
 *        only (x < floor(s0 / local) * local), because a per-item check keeps CPU
 *        compilers (PoCL) from vectorizing the work-item loop (PERF.md, measured:
 *        1.4 vs 30 GB/s for 1-byte data).
 *   clsel_loop_*    a plain loop per work-item over part of a row (x0 <= x < s0) for
 *        one or more rows: the rest of every row after the whole work-groups, and whole
 *        rows when the innermost dim is too short for work-groups (a rank-8 pattern
 *        that does not collapse, say).
 *
 * Selection: where cond advances along dim 0, cond, then and else are all loaded and
 * then one is picked (a ternary on memory is a conditional load, which vectorizers give
 * up on for 1- and 2-byte types). Where cond is constant along dim 0 it is loaded once
 * and only the chosen operand is read (the branch is uniform across the row, so a CPU
 * compiler unswitches it into two plain copies, and the other operand is never read).
 * Index width: i32 kernels are used only when every index fits in 31 bits, i64
 * kernels otherwise.
 */

#define CLSEL_RESTRICT_0
#define CLSEL_RESTRICT_1

#define CLSEL_ARGS(T, IDX, IDX8, TV, EV)                                                           \
    global const uchar *restrict cond, ulong cond_off, global const T *CLSEL_RESTRICT_##TV then_, \
        ulong then_off, global const T *CLSEL_RESTRICT_##EV else_, ulong else_off, global T *out,  \
        ulong out_off, IDX8 shape, IDX8 cs, IDX8 ts, IDX8 es, IDX8 os, IDX x0, IDX r0, IDX rows

#define CLSEL_OFFSETS  \
    cond += cond_off;  \
    then_ += then_off; \
    else_ += else_off; \
    out += out_off;

/* Element offsets of row r: one division for at most 3 dims ... */
#define CLSEL_ROW3(IDX)                      \
    const IDX y = r % shape.s1;              \
    const IDX z = r / shape.s1;              \
    IDX ci = y * cs.s1 + z * cs.s2;          \
    IDX ti = y * ts.s1 + z * ts.s2;          \
    IDX ei = y * es.s1 + z * es.s2;          \
    IDX oi = y * os.s1 + z * os.s2;

/* ... or one per outer dim (unused dims have size 1 and stride 0). */
#define CLSEL_DIM(IDX, k)                 \
    {                                     \
        const IDX d = q % shape.s##k;     \
        q /= shape.s##k;                  \
        ci += d * cs.s##k;                \
        ti += d * ts.s##k;                \
        ei += d * es.s##k;                \
        oi += d * os.s##k;                \
    }
#define CLSEL_ROWN(IDX)                                                                     \
    IDX ci = 0, ti = 0, ei = 0, oi = 0, q = r;                                              \
    CLSEL_DIM(IDX, 1) CLSEL_DIM(IDX, 2) CLSEL_DIM(IDX, 3) CLSEL_DIM(IDX, 4) CLSEL_DIM(IDX, 5) \
    CLSEL_DIM(IDX, 6) CLSEL_DIM(IDX, 7)

/* The pick at x of a row whose offsets are ci, ti, ei, oi. */
#define CLSEL_PICK_1(T, CV, TV, EV)                 \
    {                                               \
        const uchar c = cond[ci + x];               \
        const T a = then_[ti + (TV ? x : 0)];       \
        const T b = else_[ei + (EV ? x : 0)];       \
        out[oi + x] = c ? a : b;                    \
    }
#define CLSEL_PICK_0(T, CV, TV, EV)                                                     \
    {                                                                                   \
        const uchar c = cond[ci];                                                       \
        if (TV == EV) { /* one pointer, chosen once: the row is a plain copy or fill */ \
            global const T *src = c ? then_ + ti : else_ + ei;                          \
            out[oi + x] = src[TV ? x : 0];                                              \
        } else {                                                                        \
            out[oi + x] = c ? then_[ti + (TV ? x : 0)] : else_[ei + (EV ? x : 0)];       \
        }                                                                               \
    }

#define CLSEL_ROWS(NAME, T, IDX, IDX8, CV, TV, EV, ROW)   \
    kernel void NAME(CLSEL_ARGS(T, IDX, IDX8, TV, EV))    \
    {                                                     \
        const IDX x = (IDX)get_global_id(0) + x0;         \
        const IDX r = (IDX)get_global_id(1) + r0;         \
        CLSEL_OFFSETS                                     \
        ROW(IDX)                                          \
        CLSEL_PICK_##CV(T, CV, TV, EV)                    \
    }

/* One step of the row odometer along outer dim k: advance, and carry into the next
 * dim when dim k wraps (the carry lands in dim k + 1 on the next step). */
#define CLSEL_STEP(IDX, k)                                                     \
    if (carry) {                                                               \
        ci += cs.s##k;                                                         \
        ti += ts.s##k;                                                         \
        ei += es.s##k;                                                         \
        oi += os.s##k;                                                         \
        carry = ++at##k == shape.s##k;                                         \
        if (carry) {                                                           \
            ci -= cs.s##k * shape.s##k;                                        \
            ti -= ts.s##k * shape.s##k;                                        \
            ei -= es.s##k * shape.s##k;                                        \
            oi -= os.s##k * shape.s##k;                                        \
            at##k = 0;                                                         \
        }                                                                      \
    }
#define CLSEL_COORD(IDX, k)     \
    IDX at##k = q % shape.s##k; \
    q /= shape.s##k;

/* Elements x0 <= x < s0 of `per_item` consecutive rows per work-item, strides from the
 * arguments (s0 of each is 0 or 1): the remainder of rows that do not divide into
 * whole work-groups (one row per item), and whole rows when they are too short for
 * work-groups at all (many rows per item; the row offsets then advance like an
 * odometer instead of being divided out again for every row). */
#define CLSEL_LOOP(NAME, T, IDX, IDX8)                                                   \
    kernel void NAME(CLSEL_ARGS(T, IDX, IDX8, 1, 1), IDX per_item)                       \
    {                                                                                    \
        const IDX first = ((IDX)get_global_id(0) + r0) * per_item;                       \
        if (first >= rows) return;                                                       \
        const IDX last = rows - first < per_item ? rows : first + per_item;              \
        CLSEL_OFFSETS                                                                    \
        const IDX r = first;                                                             \
        CLSEL_ROWN(IDX)                                                                  \
        q = first;                                                                       \
        CLSEL_COORD(IDX, 1) CLSEL_COORD(IDX, 2) CLSEL_COORD(IDX, 3) CLSEL_COORD(IDX, 4)  \
        CLSEL_COORD(IDX, 5) CLSEL_COORD(IDX, 6) CLSEL_COORD(IDX, 7)                      \
        for (IDX row = first; row < last; ++row) {                                       \
            for (IDX x = x0; x < shape.s0; ++x) {                                        \
                const uchar c = cond[ci + x * cs.s0];                                    \
                const T a = then_[ti + x * ts.s0];                                       \
                const T b = else_[ei + x * es.s0];                                       \
                out[oi + x] = c ? a : b;                                                 \
            }                                                                            \
            int carry = 1;                                                               \
            CLSEL_STEP(IDX, 1) CLSEL_STEP(IDX, 2) CLSEL_STEP(IDX, 3) CLSEL_STEP(IDX, 4)  \
            CLSEL_STEP(IDX, 5) CLSEL_STEP(IDX, 6) CLSEL_STEP(IDX, 7)                     \
        }                                                                                \
    }

#define CLSEL_VARIANTS(FAMILY, ROW, W, IW, T, IDX, IDX8)                       \
    CLSEL_ROWS(clsel_##FAMILY##_##W##_##IW##_000, T, IDX, IDX8, 0, 0, 0, ROW)  \
    CLSEL_ROWS(clsel_##FAMILY##_##W##_##IW##_001, T, IDX, IDX8, 0, 0, 1, ROW)  \
    CLSEL_ROWS(clsel_##FAMILY##_##W##_##IW##_010, T, IDX, IDX8, 0, 1, 0, ROW)  \
    CLSEL_ROWS(clsel_##FAMILY##_##W##_##IW##_011, T, IDX, IDX8, 0, 1, 1, ROW)  \
    CLSEL_ROWS(clsel_##FAMILY##_##W##_##IW##_100, T, IDX, IDX8, 1, 0, 0, ROW)  \
    CLSEL_ROWS(clsel_##FAMILY##_##W##_##IW##_101, T, IDX, IDX8, 1, 0, 1, ROW)  \
    CLSEL_ROWS(clsel_##FAMILY##_##W##_##IW##_110, T, IDX, IDX8, 1, 1, 0, ROW)  \
    CLSEL_ROWS(clsel_##FAMILY##_##W##_##IW##_111, T, IDX, IDX8, 1, 1, 1, ROW)

#define CLSEL_FAMILY(W, IW, T, IDX, IDX8)                  \
    CLSEL_VARIANTS(r3, CLSEL_ROW3, W, IW, T, IDX, IDX8)    \
    CLSEL_VARIANTS(rn, CLSEL_ROWN, W, IW, T, IDX, IDX8)    \
    CLSEL_LOOP(clsel_loop_##W##_##IW, T, IDX, IDX8)

#define CLSEL_WIDTH(W, T)                  \
    CLSEL_FAMILY(W, i32, T, uint, uint8)   \
    CLSEL_FAMILY(W, i64, T, ulong, ulong8)

CLSEL_WIDTH(w1, uchar)
CLSEL_WIDTH(w2, ushort)
CLSEL_WIDTH(w4, uint)
CLSEL_WIDTH(w8, ulong)
