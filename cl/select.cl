/* select.cl - clsel's kernels: out = cond ? then : else, bit for bit, kernels
 * clsel_wW_CTE (cl/select_contract.h names them; C, T, E: 1 when cond / then / else
 * advance along the innermost dim, 0 when they stay on one element along it).
 *
 * OpenCL C 1.2, no extensions: every element moves as an unsigned integer of its
 * storage width, so f16, bf16 and f64 need neither cl_khr_fp16 nor cl_khr_fp64, and NaN
 * payloads and -0.0 pass unchanged. cond is one byte per element, nonzero = true.
 *
 * The kernels never re-derive broadcasting: they get the host's iteration space
 * (host/plan/plan_iter.h), the collapsed dims and every tensor's strides. One work-item
 * per 16 bytes of output (V = 16 / W elements), work-groups of consecutive items, so
 * that a warp reads and writes whole consecutive segments. An item finds its first
 * element's place in every tensor by dividing its index by the dims below the highest
 * with precomputed multipliers (no division instruction; none at all for rank 1), then:
 *
 *  - when its V elements lie in one row, moves them as one 16-byte value per tensor:
 *    cond's V bytes become a mask, then and else are read as 16 bytes (or one element,
 *    repeated, for an input that stays along the row), and out = bitselect(else, then,
 *    mask);
 *  - else (an item that crosses rows) reads each input that is dense (contiguous over
 *    the whole launch, as the layout flags say) as 16 bytes all the same, the others
 *    element by element, stepping to the next row by carrying the dim indices, and
 *    stores the 16 bytes at once;
 *  - the last item, when it is short, element by element.
 *
 * Two forms of the program, chosen per launch by the host (host/opencl/cl_launch.c):
 * CLSEL_ALIGNED=1 when every item lies in one row and on 16-byte boundaries in every
 * tensor that advances: its loads and stores are of 16-byte types, which GPUs (NVIDIA's
 * above all, where nothing wider than an element may be accessed at an address not known
 * to be aligned) turn into single 128-bit accesses. CLSEL_ALIGNED=0 for everything else:
 * a tensor whose layout flag says aligned is accessed the same way, the others at
 * element alignment (vloadN). All index arithmetic is 32-bit: the host splits a run
 * whose offsets would not fit into pieces that do, each with its own 64-bit offsets.
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

/* A kernel's cond parameter is restrict (cl/select_contract.h); the helper that takes
 * the kernel's parameters redefines this to nothing around its definition, since
 * inlining a restrict parameter leaves scope intrinsics that Oclgrind cannot run. */
#define CLSEL_RESTRICT restrict

/* Helpers are inlined into each kernel, so that its constants (which inputs advance)
 * specialise them and their private arrays stay in registers. */
#define CLSEL_INLINE static inline __attribute__((always_inline))

/* Per width: V, the vector of V elements, cond's V bytes as they are loaded at V-byte
 * alignment (and made from gathered bytes), the 16 bytes of an element repeated, and
 * cond's mask (0xFF.. for each element whose cond byte is nonzero). The 16-byte values
 * are uint4 from load to store: vectors of small elements would reach NVPTX as uchar16
 * and the like, which it splits into 4-byte accesses. */
#define CLSEL_NONZERO(w) ((((w) & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | (w)) /* bit 7 of each byte: byte != 0 */
#if CLSEL_WIDTH == 1
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
#endif

/* x / d for x < 2^31, as (mul_hi(x, m) + x) >> s with the host's m and s for d
 * (the method of PyTorch's IntegerDivider, aten/src/ATen/cuda/detail/IntegerDivider.cuh). */
#define CLSEL_DIV(x, m, s) ((mul_hi((x), (m)) + (x)) >> (s))

/* Where an item is: its index along each dim (at[0] along the row) and its element
 * offset in each tensor (cond, then, else, out). Private arrays indexed by constants
 * only, so that they live in registers. */
typedef struct clsel_place {
    uint at[8];
    int off[4];
} clsel_place;

/* The dims and every tensor's strides as arrays, dim 0's strides known at compile time. */
typedef struct clsel_geometry {
    uint sh[8];
    int st[4][8];
} clsel_geometry;

/* Locates element x (the offset calculator): divides by the dims below the highest
 * (dims at and past the rank are never touched), the highest's index being what is left. */
CLSEL_INLINE void clsel_locate(clsel_place *p, const clsel_geometry *g, uint x, uint rank, uint8 div_mul, uint8 div_shift)
{
    uint m[8], s[8];
    vstore8(div_mul, 0, m);
    vstore8(div_shift, 0, s);
#pragma unroll
    for (uint t = 0; t < 4; ++t) p->off[t] = 0;
#pragma unroll
    for (uint d = 0; d < 8; ++d) p->at[d] = 0;
#pragma unroll
    for (uint d = 0; d < 8; ++d) {
        uint r = x;
        if (d + 1 < rank) {
            const uint q = CLSEL_DIV(x, m[d], s[d]);
            r = x - q * g->sh[d];
            x = q;
        }
        p->at[d] = r;
#pragma unroll
        for (uint t = 0; t < 4; ++t) p->off[t] += (int)r * g->st[t][d];
        if (d + 1 >= rank) break;
    }
}

/* One element on: the next index of the row, or the first of the next row (indices
 * carried upwards as an odometer). */
CLSEL_INLINE void clsel_step(clsel_place *p, const clsel_geometry *g)
{
#pragma unroll
    for (uint t = 0; t < 4; ++t) p->off[t] += g->st[t][0];
    if (++p->at[0] < g->sh[0]) return;
#pragma unroll
    for (uint d = 0; d < 7; ++d) {
#pragma unroll
        for (uint t = 0; t < 4; ++t) p->off[t] += g->st[t][d + 1] - (int)g->sh[d] * g->st[t][d];
        p->at[d] = 0;
        if (++p->at[d + 1] < g->sh[d + 1]) return;
    }
}

/* 16 bytes of an input: its V elements at p when it advances (adv), else its one
 * element repeated; as one 16-byte access where they lie on a boundary. */
CLSEL_INLINE uint4 clsel_load(global const clsel_elem *p, uint adv, uint aligned)
{
    if (!adv) return CLSEL_SPLAT(*p);
    return CLSEL_ALIGNED || aligned ? *(global const uint4 *)p : as_uint4(CLSEL_VLOAD(0, p));
}

CLSEL_INLINE uint4 clsel_cond_mask(global const uchar *p, uint adv, uint aligned)
{
    if (!adv) return (uint4)(*p ? 0xFFFFFFFFu : 0u);
    return clsel_mask(CLSEL_ALIGNED || aligned ? *(global const clsel_cond_words *)p
                                               : CLSEL_AS_WORDS(CLSEL_VLOAD(0, p)));
}

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
#define CLSEL_IN_ONE_ROW(p, g) ((g).sh[0] - (p).at[0] >= CLSEL_V)
#endif

/* For the code-generation check only (tests/system/gpu_codegen.py builds with
 * -DCLSEL_CODEGEN_MAIN_PATH): the kernels as the items of a rank-1 run execute them,
 * without the paths those never take, so that their instruction counts are an item's. */
#ifdef CLSEL_CODEGEN_MAIN_PATH
#define CLSEL_RANK(rank) 1u
#else
#define CLSEL_RANK(rank) (rank)
#endif

#define CLSEL_IS(flags, t) (((flags) >> (t)) & 1u)

/* One work-item's 16 bytes of output, for cond, then, else advancing (1) or staying (0). */
#undef CLSEL_RESTRICT
#define CLSEL_RESTRICT
CLSEL_INLINE void clsel_item(CLSEL_PARAMS(clsel_elem), uint C, uint TT, uint E)
{
    const uint o = (uint)get_global_id(0) * CLSEL_V;
    if (o >= n) return;
    cond += cond_off, then_ += then_off, else_ += else_off, out += out_off;
    clsel_geometry g;
    vstore8(shape, 0, g.sh);
    vstore8(cond_strides, 0, g.st[0]);
    vstore8(then_strides, 0, g.st[1]);
    vstore8(else_strides, 0, g.st[2]);
    vstore8(out_strides, 0, g.st[3]);
    /* known here: no multiply along dim 0 (an advancing input and the output step by one) */
    g.st[0][0] = C, g.st[1][0] = TT, g.st[2][0] = E, g.st[3][0] = 1;
    clsel_place p;
    clsel_locate(&p, &g, o, CLSEL_RANK(rank), div_mul, div_shift);
    const uint dense = layout & 15u, aligned = layout >> 4;
    const uint full = n - o >= CLSEL_V;
    if (full && CLSEL_IN_ONE_ROW(p, g)) { /* one row */
        const uint4 m = clsel_cond_mask(cond + p.off[0], C, CLSEL_IS(aligned, 0));
        const uint4 a = clsel_load(then_ + p.off[1], TT, CLSEL_IS(aligned, 1)),
                    b = clsel_load(else_ + p.off[2], E, CLSEL_IS(aligned, 2));
        clsel_store(out + p.off[3], bitselect(b, a, m), CLSEL_IS(aligned, 3));
    }
#ifndef CLSEL_CODEGEN_MAIN_PATH
    else if (full) { /* across rows: the dense inputs as 16 bytes, the others element by element */
        const clsel_place first = p;
        uint c[4] = {0, 0, 0, 0}, t[4] = {0, 0, 0, 0}, e[4] = {0, 0, 0, 0}; /* the 16 bytes as words (a
                                     private array of elements read back as a vector would live in memory) */
#pragma unroll
        for (uint k = 0; k < CLSEL_V; ++k) {
            if (!CLSEL_IS(dense, 0)) c[k >> 2] |= (uint)cond[p.off[0]] << ((k & 3) * 8);
            if (!CLSEL_IS(dense, 1)) clsel_put(t, k, then_[p.off[1]]);
            if (!CLSEL_IS(dense, 2)) clsel_put(e, k, else_[p.off[2]]);
            if (k + 1 < CLSEL_V) clsel_step(&p, &g);
        }
        const uint4 m = CLSEL_IS(dense, 0) ? clsel_cond_mask(cond + first.off[0], 1, CLSEL_IS(aligned, 0))
                                          : clsel_mask(CLSEL_WORDS_OF(c));
        const uint4 a = CLSEL_IS(dense, 1) ? clsel_load(then_ + first.off[1], 1, CLSEL_IS(aligned, 1))
                                          : (uint4)(t[0], t[1], t[2], t[3]);
        const uint4 b = CLSEL_IS(dense, 2) ? clsel_load(else_ + first.off[2], 1, CLSEL_IS(aligned, 2))
                                          : (uint4)(e[0], e[1], e[2], e[3]);
        clsel_store(out + first.off[3], bitselect(b, a, m), CLSEL_IS(aligned, 3));
    } else { /* the short last item */
        for (uint k = 0; o + k < n; ++k) {
            out[p.off[3]] = cond[p.off[0]] ? then_[p.off[1]] : else_[p.off[2]];
            clsel_step(&p, &g);
        }
    }
#endif
}

#undef CLSEL_RESTRICT
#define CLSEL_RESTRICT restrict

#define CLSEL_ARG_NAME(name, cl_type, host_type) name,
#define CLSEL_KERNEL(W, C, TT, E)                                                           \
    kernel void CLSEL_KERNEL_NAME(W, C, TT, E)(CLSEL_PARAMS(clsel_elem))                    \
    {                                                                                      \
        clsel_item(CLSEL_KERNEL_ARGS(CLSEL_ARG_NAME, CLSEL_ARG_NAME, ~) C, TT, E);          \
    }

/* The variants of one width, in CLSEL_VARIANT order. */
#define CLSEL_WIDTH_KERNELS(W) \
    CLSEL_KERNEL(W, 0, 0, 0)   \
    CLSEL_KERNEL(W, 0, 0, 1)   \
    CLSEL_KERNEL(W, 0, 1, 0)   \
    CLSEL_KERNEL(W, 0, 1, 1)   \
    CLSEL_KERNEL(W, 1, 0, 0)   \
    CLSEL_KERNEL(W, 1, 0, 1)   \
    CLSEL_KERNEL(W, 1, 1, 0)   \
    CLSEL_KERNEL(W, 1, 1, 1)

#if CLSEL_WIDTH == 1
CLSEL_WIDTH_KERNELS(1)
#elif CLSEL_WIDTH == 2
CLSEL_WIDTH_KERNELS(2)
#elif CLSEL_WIDTH == 4
CLSEL_WIDTH_KERNELS(4)
#elif CLSEL_WIDTH == 8
CLSEL_WIDTH_KERNELS(8)
#endif
