/* select.cl - clsel's kernels: out = cond ? then : else, bit for bit. Kernel clsel_wW_CTE (cl/select_contract.h)
 * reads cond, then and else as C, T, E (CLSEL_READ_*: 0 one element along the row, 1 advancing along it, 2 dense).
 * OpenCL C 1.2, no extensions: elements move as unsigned integers of their width (f16, bf16, f64 need no extension;
 * NaN payloads and -0.0 pass unchanged); cond is one byte, nonzero = true.
 *
 * The kernels get the host's iteration space (host/plan/plan_iter.h), never broadcasting. One work-item per 16 bytes
 * of output (V = 16 / W elements) finds its first element in every tensor by dividing its index by the dims (with
 * multipliers, no division instruction), then: in one row, moves V elements as one 16-byte value per tensor (an input
 * that stays along the row repeated), out = bitselect(else, then, mask of cond); across rows, reads the dense inputs
 * as 16 bytes all the same and the others element by element; the short last item element by element.
 *
 * Two forms, chosen per launch (host/opencl/cl_launch.c): CLSEL_ALIGNED=1 when every item lies in one row on 16-byte
 * boundaries, with 16-byte loads and stores that GPUs make single 128-bit accesses (NVIDIA accesses nothing wider
 * than an element at an address not known to be aligned); CLSEL_ALIGNED=0 for the rest, with the dense aligned
 * inputs chosen at compile time, since LLVM's InstCombine merges a run-time choice between an aligned and an
 * element-aligned load of one address into one load at the lower alignment. Index math is 32-bit: the host splits
 * runs into pieces whose offsets fit. */

/* cond is restrict (cl/select_contract.h), but not in the helper that takes the kernel's parameters: inlining a
 * restrict parameter leaves scope intrinsics that Oclgrind cannot run. */
#define CLSEL_RESTRICT restrict

/* Helpers inlined into each kernel, so that its constants specialise them and their arrays stay in registers. */
#define CLSEL_INLINE static inline __attribute__((always_inline))

/* Per width: the element, V, the vector of V elements, cond's V bytes as loaded (or gathered), an element repeated
 * over 16 bytes, and cond's mask (all ones for each element whose cond byte is nonzero). 16-byte values are uint4 from
 * load to store: uchar16 and the like reach NVPTX split into 4-byte accesses. */
#define CLSEL_NONZERO(w) ((((w) & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | (w)) /* bit 7 of each byte: byte != 0 */
#if CLSEL_WIDTH == 1
typedef uchar clsel_elem;
#define CLSEL_V 16
typedef uchar16 clsel_vec;
typedef uint4 clsel_cond_words;
#define CLSEL_VLOAD vload16
#define CLSEL_VSTORE vstore16
#define CLSEL_AS_VEC as_uchar16
#define CLSEL_AS_WORDS as_uint4
#define CLSEL_WORDS_OF(w) ((uint4)((w)[0], (w)[1], (w)[2], (w)[3]))
#define CLSEL_SPLAT(x) ((uint4)((uint)(x) * 0x01010101u))
CLSEL_INLINE uint4 clsel_mask(uint4 c) { return ((CLSEL_NONZERO(c) >> 7) & 0x01010101u) * 0xFFu; }
CLSEL_INLINE void clsel_put(uint *w, uint k, clsel_elem x) { w[k >> 2] |= (uint)x << ((k & 3) * 8); }
#elif CLSEL_WIDTH == 2
typedef ushort clsel_elem;
#define CLSEL_V 8
typedef ushort8 clsel_vec;
typedef uint2 clsel_cond_words;
#define CLSEL_VLOAD vload8
#define CLSEL_VSTORE vstore8
#define CLSEL_AS_VEC as_ushort8
#define CLSEL_AS_WORDS as_uint2
#define CLSEL_WORDS_OF(w) ((uint2)((w)[0], (w)[1]))
#define CLSEL_SPLAT(x) ((uint4)((uint)(x) * 0x00010001u))
CLSEL_INLINE uint4 clsel_mask(uint2 c)
{
    const uint2 f = (CLSEL_NONZERO(c) >> 7) & 0x01010101u; /* bit 8k: byte k != 0 */
    return (uint4)((f.x & 1u) | ((f.x << 8) & 0x10000u), ((f.x >> 16) & 1u) | ((f.x >> 8) & 0x10000u),
                   (f.y & 1u) | ((f.y << 8) & 0x10000u), ((f.y >> 16) & 1u) | ((f.y >> 8) & 0x10000u)) *
           0xFFFFu;
}
CLSEL_INLINE void clsel_put(uint *w, uint k, clsel_elem x) { w[k >> 1] |= (uint)x << ((k & 1) * 16); }
#elif CLSEL_WIDTH == 4
typedef uint clsel_elem;
#define CLSEL_V 4
typedef uint4 clsel_vec;
typedef uint clsel_cond_words;
#define CLSEL_VLOAD vload4
#define CLSEL_VSTORE vstore4
#define CLSEL_AS_VEC as_uint4
#define CLSEL_AS_WORDS as_uint
#define CLSEL_WORDS_OF(w) ((w)[0])
#define CLSEL_SPLAT(x) ((uint4)(x))
CLSEL_INLINE uint4 clsel_mask(uint c)
{
    const uint f = (CLSEL_NONZERO(c) >> 7) & 0x01010101u;
    return (uint4)(f & 1u, (f >> 8) & 1u, (f >> 16) & 1u, f >> 24) * 0xFFFFFFFFu;
}
CLSEL_INLINE void clsel_put(uint *w, uint k, clsel_elem x) { w[k] = x; }
#elif CLSEL_WIDTH == 8
typedef ulong clsel_elem;
#define CLSEL_V 2
typedef ulong2 clsel_vec;
typedef ushort clsel_cond_words;
#define CLSEL_VLOAD vload2
#define CLSEL_VSTORE vstore2
#define CLSEL_AS_VEC as_ulong2
#define CLSEL_AS_WORDS as_ushort
#define CLSEL_WORDS_OF(w) ((ushort)(w)[0])
#define CLSEL_SPLAT(x) as_uint4((ulong2)(x))
CLSEL_INLINE uint4 clsel_mask(ushort c)
{
    const uint lo = (c & 0xFFu) ? 0xFFFFFFFFu : 0u, hi = (c >> 8) ? 0xFFFFFFFFu : 0u;
    return (uint4)(lo, lo, hi, hi);
}
CLSEL_INLINE void clsel_put(uint *w, uint k, clsel_elem x) { w[2 * k] = (uint)x, w[2 * k + 1] = (uint)(x >> 32); }
#else
#error "CLSEL_WIDTH must be 1, 2, 4 or 8"
#endif

/* X(k) for each element k of an item, written out: its words are then private arrays
 * indexed by constants only, which every compiler keeps in registers. */
#define CLSEL_EACH_2(X, k) X(k) X(k + 1)
#define CLSEL_EACH_4(X, k) CLSEL_EACH_2(X, k) CLSEL_EACH_2(X, k + 2)
#define CLSEL_EACH_8(X, k) CLSEL_EACH_4(X, k) CLSEL_EACH_4(X, k + 4)
#define CLSEL_EACH_16(X, k) CLSEL_EACH_8(X, k) CLSEL_EACH_8(X, k + 8)
#define CLSEL_EACH_V(X, V) CLSEL_EACH_##V(X, 0)
#define CLSEL_EACH(X, V) CLSEL_EACH_V(X, V)
#define CLSEL_EACH_ELEMENT(X) CLSEL_EACH(X, CLSEL_V)

/* x / d for x < 2^31, as (mul_hi(x, m) + x) >> s with the host's m and s for d
 * (the method of PyTorch's IntegerDivider, aten/src/ATen/cuda/detail/IntegerDivider.cuh). */
#define CLSEL_DIV(x, m, s) ((mul_hi((x), (m)) + (x)) >> (s))

/* The geometry: the dims, each tensor's strides (cond, then, else, out) and the dividers, as the kernel's vector
 * arguments, and dim 0's strides as the kernel knows them (an advancing input and the output step by one). The place:
 * an item's index along each dim and its element offset in each tensor (off.x cond, .y then, .z else, .w out).
 * Vectors read by literal components, never arrays: NVIDIA's compiler kept such arrays in local memory, and the kernels
 * ran at 14-17 % of a copy on an H200, their time set by the number of work-items, not by the bytes. */
typedef struct clsel_geometry {
    uint8 sh, m, s;
    int8 cs, ts, es, os;
    int4 s0;
} clsel_geometry;

typedef struct clsel_place {
    uint8 at;
    int4 off;
} clsel_place;

#define CLSEL_STRIDES(g, d) ((int4)((g)->cs.s##d, (g)->ts.s##d, (g)->es.s##d, (g)->os.s##d))

/* Locates element x (the offset calculator): divides by the dims below the highest
 * (dims at and past the rank are never touched), the highest's index being what is left. */
#define CLSEL_LOCATE(d, stride)                                                     \
    if (rank > (d)) {                                                               \
        uint r = x;                                                                 \
        if (rank > (d) + 1) {                                                       \
            const uint q = CLSEL_DIV(x, g->m.s##d, g->s.s##d);                      \
            r = x - q * g->sh.s##d;                                                 \
            x = q;                                                                  \
        }                                                                           \
        p->at.s##d = r;                                                             \
        p->off += (int)r * (stride);                                                \
    }
CLSEL_INLINE void clsel_locate(clsel_place *p, const clsel_geometry *g, uint x, uint rank)
{
    p->at = (uint8)0;
    p->off = (int4)0;
    CLSEL_LOCATE(0, g->s0)
    CLSEL_LOCATE(1, CLSEL_STRIDES(g, 1))
    CLSEL_LOCATE(2, CLSEL_STRIDES(g, 2))
    CLSEL_LOCATE(3, CLSEL_STRIDES(g, 3))
    CLSEL_LOCATE(4, CLSEL_STRIDES(g, 4))
    CLSEL_LOCATE(5, CLSEL_STRIDES(g, 5))
    CLSEL_LOCATE(6, CLSEL_STRIDES(g, 6))
    CLSEL_LOCATE(7, CLSEL_STRIDES(g, 7))
}

/* One element on: the next index of the row, or the first of the next row (indices carried upwards as an odometer). */
#define CLSEL_CARRY(d, next, stride)                                   \
    p->off += CLSEL_STRIDES(g, next) - (int)g->sh.s##d * (stride);     \
    p->at.s##d = 0;                                                    \
    p->at.s##next += 1;                                                \
    if (p->at.s##next < g->sh.s##next) return;
CLSEL_INLINE void clsel_step(clsel_place *p, const clsel_geometry *g)
{
    p->off += g->s0;
    p->at.s0 += 1;
    if (p->at.s0 < g->sh.s0) return;
    CLSEL_CARRY(0, 1, g->s0)
    CLSEL_CARRY(1, 2, CLSEL_STRIDES(g, 1))
    CLSEL_CARRY(2, 3, CLSEL_STRIDES(g, 2))
    CLSEL_CARRY(3, 4, CLSEL_STRIDES(g, 3))
    CLSEL_CARRY(4, 5, CLSEL_STRIDES(g, 4))
    CLSEL_CARRY(5, 6, CLSEL_STRIDES(g, 5))
    CLSEL_CARRY(6, 7, CLSEL_STRIDES(g, 6))
}

/* 16 bytes of an input read as CLSEL_READ_n (clsel_load_n, clsel_cond_n): 0, its one element repeated; 1, its V
 * elements, as one 16-byte access in the aligned form, else at element alignment; 2, as one 16-byte access. One
 * function per way, named by the kernel through token pasting: one function branching on the way would be simplified
 * before inlining, and InstCombine would merge its two loads at the lower alignment (clang 15 did, for NVPTX). */
CLSEL_INLINE uint4 clsel_load_0(global const clsel_elem *p) { return CLSEL_SPLAT(*p); }
CLSEL_INLINE uint4 clsel_load_1(global const clsel_elem *p)
{
    return CLSEL_ALIGNED ? *(global const uint4 *)p : as_uint4(CLSEL_VLOAD(0, p));
}
CLSEL_INLINE uint4 clsel_load_2(global const clsel_elem *p) { return *(global const uint4 *)p; }

CLSEL_INLINE uint4 clsel_cond_0(global const uchar *p) { return (uint4)(*p ? 0xFFFFFFFFu : 0u); }
CLSEL_INLINE uint4 clsel_cond_1(global const uchar *p)
{
    return clsel_mask(CLSEL_ALIGNED ? *(global const clsel_cond_words *)p : CLSEL_AS_WORDS(CLSEL_VLOAD(0, p)));
}
CLSEL_INLINE uint4 clsel_cond_2(global const uchar *p) { return clsel_mask(*(global const clsel_cond_words *)p); }

/* The output's 16 bytes: as one 16-byte access where they lie on a boundary (the aligned form, or where the host says
 * so: a run-time choice that compilers keep apart, stores not being merged across branches as loads are). */
CLSEL_INLINE void clsel_store(global clsel_elem *p, uint4 v, uint aligned)
{
    if (CLSEL_ALIGNED || aligned)
        *(global uint4 *)p = v;
    else
        CLSEL_VSTORE(CLSEL_AS_VEC(v), 0, p);
}

/* Whether the item at p lies in one row: always, in the aligned form. */
#if CLSEL_ALIGNED
#define CLSEL_IN_ONE_ROW(p, g) 1
#else
#define CLSEL_IN_ONE_ROW(p, g) ((g).sh.s0 - (p).at.s0 >= CLSEL_V)
#endif

/* For the code-generation check only (tests/system/gpu_codegen.py builds with
 * -DCLSEL_CODEGEN_MAIN_PATH): the kernels as the items of a rank-1 run execute them,
 * without the paths those never take, so that their instruction counts are an item's. */
#ifdef CLSEL_CODEGEN_MAIN_PATH
#define CLSEL_RANK(rank) 1u
#else
#define CLSEL_RANK(rank) (rank)
#endif

/* Where a work-item starts: the geometry and its place; 0 when it has no output. */
#undef CLSEL_RESTRICT
#define CLSEL_RESTRICT
CLSEL_INLINE uint clsel_start(CLSEL_PARAMS(clsel_elem), uint C, uint TT, uint E, clsel_geometry *g, clsel_place *p)
{
    const uint o = (uint)get_global_id(0) * CLSEL_V;
    if (o >= n) return 0;
    g->sh = shape, g->m = div_mul, g->s = div_shift;
    g->cs = cond_strides, g->ts = then_strides, g->es = else_strides, g->os = out_strides;
    g->s0 = (int4)(C != CLSEL_READ_FIXED, TT != CLSEL_READ_FIXED, E != CLSEL_READ_FIXED, 1);
    clsel_locate(p, g, o, CLSEL_RANK(rank));
    return 1;
}

/* An item that crosses rows: the dense inputs (C, TT, E: 1) as 16 bytes all the same, the others element by element,
 * stepping to the next row by carrying the dim indices; the 16 bytes stored at once (the output contiguous). */
CLSEL_INLINE void clsel_across_rows(CLSEL_PARAMS(clsel_elem), uint C, uint TT, uint E, const clsel_geometry *g,
                                    clsel_place p)
{
    const clsel_place first = p;
    uint c[4] = {0, 0, 0, 0}, t[4] = {0, 0, 0, 0}, e[4] = {0, 0, 0, 0}; /* the 16 bytes as words (a private
                                          array of elements read back as a vector would live in memory) */
#define CLSEL_ELEMENT(k)                                                   \
    if (!C) c[(k) >> 2] |= (uint)cond[p.off.x] << (((k) & 3) * 8);        \
    if (!TT) clsel_put(t, k, then_[p.off.y]);                              \
    if (!E) clsel_put(e, k, else_[p.off.z]);                               \
    if ((k) + 1 < CLSEL_V) clsel_step(&p, g);
    CLSEL_EACH_ELEMENT(CLSEL_ELEMENT)
    const uint4 m = C ? clsel_cond_2(cond + first.off.x) : clsel_mask(CLSEL_WORDS_OF(c));
    const uint4 a = TT ? clsel_load_2(then_ + first.off.y) : (uint4)(t[0], t[1], t[2], t[3]);
    const uint4 b = E ? clsel_load_2(else_ + first.off.z) : (uint4)(e[0], e[1], e[2], e[3]);
    clsel_store(out + first.off.w, bitselect(b, a, m), out_aligned);
}

/* The short last item, or an item across rows of an output that is not contiguous there, element by element. */
CLSEL_INLINE void clsel_last_item(CLSEL_PARAMS(clsel_elem), const clsel_geometry *g, clsel_place p)
{
    for (uint k = 0; k < CLSEL_V && (uint)get_global_id(0) * CLSEL_V + k < n; ++k) {
        const clsel_elem a = then_[p.off.y], b = else_[p.off.z]; /* both read: a pick between the two
                               offsets became a stack slot indexed at run time, in clang's NVPTX code */
        out[p.off.w] = cond[p.off.x] ? a : b;
        clsel_step(&p, g);
    }
}
#undef CLSEL_RESTRICT
#define CLSEL_RESTRICT restrict

/* A kernel: one work-item's 16 bytes of output, with cond, then and else read as C, TT,
 * E (CLSEL_READ_*, literal digits). In one row: cond's mask, then, else, bitselect. */
#define CLSEL_ARG_NAME(name, cl_type, host_type) name,
#define CLSEL_ARGS CLSEL_KERNEL_ARGS(CLSEL_ARG_NAME, CLSEL_ARG_NAME, ~)
#ifdef CLSEL_CODEGEN_MAIN_PATH
#define CLSEL_OTHER_ITEMS(C, TT, E)
#else
#define CLSEL_OTHER_ITEMS(C, TT, E)                                                                         \
    else if (out_dense && n - (uint)get_global_id(0) * CLSEL_V >= CLSEL_V)                                 \
        clsel_across_rows(CLSEL_ARGS C == CLSEL_READ_DENSE, TT == CLSEL_READ_DENSE, E == CLSEL_READ_DENSE, &g, p); \
    else                                                                                                   \
        clsel_last_item(CLSEL_ARGS &g, p);
#endif
#define CLSEL_KERNEL(W, C, TT, E)                                                                  \
    kernel void CLSEL_KERNEL_NAME(W, C, TT, E)(CLSEL_PARAMS(clsel_elem))                           \
    {                                                                                             \
        clsel_geometry g;                                                                         \
        clsel_place p;                                                                            \
        cond += cond_off, then_ += then_off, else_ += else_off, out += out_off;                   \
        if (!clsel_start(CLSEL_ARGS C, TT, E, &g, &p)) return;                                    \
        if (n - (uint)get_global_id(0) * CLSEL_V >= CLSEL_V && CLSEL_IN_ONE_ROW(p, g)) {          \
            const uint4 m = clsel_cond_##C(cond + p.off.x);                                       \
            const uint4 a = clsel_load_##TT(then_ + p.off.y), b = clsel_load_##E(else_ + p.off.z); \
            clsel_store(out + p.off.w, bitselect(b, a, m), out_aligned);                         \
        }                                                                                         \
        CLSEL_OTHER_ITEMS(C, TT, E)                                                               \
    }

/* The kernels of one width: every input fixed or along rows (0, 1) in both forms, and in
 * the general form every input dense (2) as well. */
#define CLSEL_KERNELS_E(W, C, TT) CLSEL_KERNEL(W, C, TT, 0) CLSEL_KERNEL(W, C, TT, 1) CLSEL_DENSE_KERNEL(W, C, TT, 2)
#define CLSEL_KERNELS_T(W, C) CLSEL_KERNELS_E(W, C, 0) CLSEL_KERNELS_E(W, C, 1) CLSEL_DENSE_KERNELS_E(W, C, 2)
#define CLSEL_WIDTH_KERNELS(W) CLSEL_KERNELS_T(W, 0) CLSEL_KERNELS_T(W, 1) CLSEL_DENSE_KERNELS_T(W, 2)
#if CLSEL_ALIGNED
#define CLSEL_DENSE_KERNEL(W, C, TT, E)
#define CLSEL_DENSE_KERNELS_E(W, C, TT)
#define CLSEL_DENSE_KERNELS_T(W, C)
#else
#define CLSEL_DENSE_KERNEL CLSEL_KERNEL
#define CLSEL_DENSE_KERNELS_E CLSEL_KERNELS_E
#define CLSEL_DENSE_KERNELS_T CLSEL_KERNELS_T
#endif

CLSEL_WIDTH_KERNELS(CLSEL_WIDTH)
