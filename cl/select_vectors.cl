/* select_vectors.cl - the vectors family, for GPUs: kernels clsel_vectors_wW_CTE
 * (cl/select_contract.h names them; C, T, E: 1 when cond / then / else advance along the
 * innermost collapsed dim, 0 when they are fixed along it).
 *
 * One work-item per 16 bytes of output (V = 16 / W elements), work-groups of
 * consecutive items, so that a warp reads and writes whole consecutive segments. An item
 * finds its first element's place in every tensor by dividing its output index by the
 * collapsed dims below the highest one with precomputed multipliers (no division
 * instruction; none at all for a rank-1 run), then:
 *
 *  - when its V elements lie in one row, moves them as one 16-byte value per tensor:
 *    cond's V bytes become a mask, then and else are read as 16 bytes (or one element,
 *    repeated, for an input fixed along the row), and out = bitselect(else, then, mask);
 *  - else (an item that crosses rows) picks element by element, stepping to the next row
 *    by carrying the dim indices (no division), and stores the 16 bytes at once;
 *  - the last item, when it is short, element by element.
 *
 * Two forms of the program, chosen per launch by the host (host/opencl/cl_enqueue.c):
 * CLSEL_ALIGNED=1 when every item's 16 bytes lie in one row and on 16-byte boundaries in
 * every tensor that advances (a rank-1 run, or rows of a multiple of V elements with row
 * strides to match, and each tensor's first element on a boundary; V bytes for cond): its
 * loads and stores are of 16-byte types, which GPUs (NVIDIA's above all, where nothing
 * wider than an element may be accessed at an address not known to be aligned) turn into
 * single 128-bit accesses. CLSEL_ALIGNED=0 for everything else: inputs read at element
 * alignment (vloadN), the output stored as 16 bytes where out_aligned says its first
 * element lies on a boundary.
 */

/* Per width: V, the vector of V elements, cond's V bytes as they are loaded at V-byte
 * alignment, the 16 bytes of an element repeated, and cond's mask (0xFF.. for each
 * element whose cond byte is nonzero). The 16-byte values are uint4 from load to store:
 * vectors of small elements would reach NVPTX as uchar16 and the like, which it splits
 * into 4-byte accesses. */
#define CLSEL_NONZERO(w) ((((w) & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | (w)) /* bit 7 of each byte: byte != 0 */
#if CLSEL_WIDTH == 1
#define CLSEL_V 16
typedef uchar16 clsel_vec;
typedef uint4 clsel_cond_words;
#define CLSEL_VLOAD vload16
#define CLSEL_VSTORE vstore16
#define CLSEL_AS_VEC as_uchar16
#define CLSEL_AS_WORDS as_uint4
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

/* Where an item is: its index along each dim (at[0] along the row) and the element
 * offsets of cond, then and else. Private arrays indexed by constants only, so that they
 * live in registers. */
typedef struct clsel_place {
    uint at[8];
    uint ci, ti, ei;
} clsel_place;

/* The per-dim vectors as arrays, dim 0's strides known at compile time. */
typedef struct clsel_geometry {
    uint sh[8], cs[8], ts[8], es[8];
} clsel_geometry;

/* Locates output element x: divides by the dims below the highest (dims at and past the
 * rank are never touched), the highest's index being what is left. */
CLSEL_INLINE void clsel_locate(clsel_place *p, const clsel_geometry *g, uint x, uint rank, uint8 div_mul, uint8 div_shift)
{
    uint m[8], s[8];
    vstore8(div_mul, 0, m);
    vstore8(div_shift, 0, s);
    p->ci = p->ti = p->ei = 0;
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
        p->ci += r * g->cs[d], p->ti += r * g->ts[d], p->ei += r * g->es[d];
        if (d + 1 >= rank) break;
    }
}

/* One element on along the output: the next index of the row, or the first of the next
 * row (indices carried upwards as an odometer). */
CLSEL_INLINE void clsel_step(clsel_place *p, const clsel_geometry *g)
{
    p->ci += g->cs[0], p->ti += g->ts[0], p->ei += g->es[0];
    if (++p->at[0] < g->sh[0]) return;
#pragma unroll
    for (uint d = 0; d < 7; ++d) {
        p->ci -= g->sh[d] * g->cs[d], p->ti -= g->sh[d] * g->ts[d], p->ei -= g->sh[d] * g->es[d];
        p->at[d] = 0;
        p->ci += g->cs[d + 1], p->ti += g->ts[d + 1], p->ei += g->es[d + 1];
        if (++p->at[d + 1] < g->sh[d + 1]) return;
    }
}

/* 16 bytes of an input: its V elements at p when it advances (adv), else its one
 * element repeated. */
CLSEL_INLINE uint4 clsel_load(global const clsel_elem *p, uint adv)
{
    if (!adv) return CLSEL_SPLAT(*p);
    return CLSEL_ALIGNED ? *(global const uint4 *)p : as_uint4(CLSEL_VLOAD(0, p));
}

CLSEL_INLINE uint4 clsel_cond_mask(global const uchar *p, uint adv)
{
    if (!adv) return (uint4)(*p ? 0xFFFFFFFFu : 0u);
    return clsel_mask(CLSEL_ALIGNED ? *(global const clsel_cond_words *)p : CLSEL_AS_WORDS(CLSEL_VLOAD(0, p)));
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

/* One work-item's 16 bytes of output, for cond, then, else advancing (1) or fixed (0). */
#undef CLSEL_RESTRICT
#define CLSEL_RESTRICT
CLSEL_INLINE void clsel_vectors_item(CLSEL_VECTORS_PARAMS(clsel_elem), uint C, uint TT, uint E)
{
    const uint o = (uint)get_global_id(0) * CLSEL_V;
    if (o >= n) return;
    CLSEL_AT_OFFSETS
    clsel_geometry g;
    vstore8(shape, 0, g.sh);
    vstore8(cond_strides, 0, g.cs);
    vstore8(then_strides, 0, g.ts);
    vstore8(else_strides, 0, g.es);
    g.cs[0] = C, g.ts[0] = TT, g.es[0] = E; /* known here: no multiply along dim 0 */
    clsel_place p;
    clsel_locate(&p, &g, o, CLSEL_RANK(rank), div_mul, div_shift);
    const uint full = n - o >= CLSEL_V;
    if (full && CLSEL_IN_ONE_ROW(p, g)) { /* one row */
        const uint4 m = clsel_cond_mask(cond + p.ci, C);
        const uint4 a = clsel_load(then_ + p.ti, TT), b = clsel_load(else_ + p.ei, E);
        clsel_store(out + o, bitselect(b, a, m), out_aligned);
    }
#ifndef CLSEL_CODEGEN_MAIN_PATH
    else if (full) { /* across rows: element by element, stored at once */
        uint w[4] = {0, 0, 0, 0}; /* the 16 bytes as words (a private array of elements read
                                     back as a vector would live in memory, not registers) */
#pragma unroll
        for (uint k = 0; k < CLSEL_V; ++k) {
            clsel_put(w, k, cond[p.ci] ? then_[p.ti] : else_[p.ei]);
            if (k + 1 < CLSEL_V) clsel_step(&p, &g);
        }
        clsel_store(out + o, (uint4)(w[0], w[1], w[2], w[3]), out_aligned);
    } else { /* the short last item */
        for (uint k = 0; o + k < n; ++k) {
            out[o + k] = cond[p.ci] ? then_[p.ti] : else_[p.ei];
            clsel_step(&p, &g);
        }
    }
#endif
}

#undef CLSEL_RESTRICT
#define CLSEL_RESTRICT restrict

#define CLSEL_ARG_NAME(name, cl_type, host_type) name,
#define CLSEL_ARG_NAME_LAST(name, cl_type, host_type) name
#define CLSEL_VECTORS_KERNEL(W, C, TT, E)                                                    \
    kernel void CLSEL_KERNEL_NAME(vectors, W, C, TT, E)(CLSEL_VECTORS_PARAMS(clsel_elem))    \
    {                                                                                       \
        clsel_vectors_item(CLSEL_VECTORS_ARGS(CLSEL_ARG_NAME, CLSEL_ARG_NAME, ~) C, TT, E); \
    }

/* The variants of one width, in CLSEL_VARIANT order. */
#define CLSEL_VECTORS_WIDTH(W)       \
    CLSEL_VECTORS_KERNEL(W, 0, 0, 0) \
    CLSEL_VECTORS_KERNEL(W, 0, 0, 1) \
    CLSEL_VECTORS_KERNEL(W, 0, 1, 0) \
    CLSEL_VECTORS_KERNEL(W, 0, 1, 1) \
    CLSEL_VECTORS_KERNEL(W, 1, 0, 0) \
    CLSEL_VECTORS_KERNEL(W, 1, 0, 1) \
    CLSEL_VECTORS_KERNEL(W, 1, 1, 0) \
    CLSEL_VECTORS_KERNEL(W, 1, 1, 1)

#if CLSEL_WIDTH == 1
CLSEL_VECTORS_WIDTH(1)
#elif CLSEL_WIDTH == 2
CLSEL_VECTORS_WIDTH(2)
#elif CLSEL_WIDTH == 4
CLSEL_VECTORS_WIDTH(4)
#elif CLSEL_WIDTH == 8
CLSEL_VECTORS_WIDTH(8)
#endif
