/* select.cl - clsel's kernel: out = cond ? then : else, bit for bit. OpenCL C 1.2, no extensions:
 * elements move as unsigned integers of their width (f16, bf16, f64 need no extension; NaN payloads
 * and -0.0 pass unchanged); cond is one byte, nonzero = true. The build options
 * (cl/select_contract.h) make one kernel: an element width, the number of dims it walks, how it
 * reads each input and how it writes the output.
 *
 * The kernel gets the host's iteration space (host/plan/plan_iter.h), never broadcasting: dims
 * innermost first and each tensor's element strides along them. Output elements go in items of 16
 * bytes (V = 16 / W elements); a work-item takes CLSEL_ITEMS of them, one work-group's width apart
 * (so that neighbouring work-items touch neighbouring bytes), finds the first by dividing its index
 * by the dims (multipliers, no division instruction) and the others by adding the same step to an
 * odometer. Where all its items are whole and each in one row, it does them in passes, so that the
 * loads of all are in flight together: cond of every item (one byte, or V as a mask), then only the
 * inputs the items take (one where cond is one byte, or all true or all false), then the selections
 * and the 16-byte stores. An input is read as aligned 16-byte windows (V bytes of cond) shifted
 * into place, a repeated element, or element by element where its stride along the row is neither 0
 * nor 1.
 *
 * An item whose elements span row ends is read element by element where they are 4 or 8 bytes (all
 * of its loads in flight at once), else row by row: each input's segment as a run placed by its
 * offset and kept under a mask of the segment's bytes. Strided inputs and the short last item go
 * element by element. Index math is 32-bit: the host splits runs into pieces whose offsets
 * fit. */

/* Helpers inlined into the kernel, so that its constants specialise them and their values stay in
 * registers. */
#define CLSEL_INLINE static inline __attribute__((always_inline))

/* Per width: the element, V and log2 V, cond's V bytes as words (the type of its windows), an
 * element repeated over 16 bytes and cond's mask (all ones for each element whose cond byte is
 * nonzero: a compare of V bytes, sign-extended to the element's width; for 16 bytes of u8 the same
 * by word arithmetic, which NVPTX does in 4 words rather than 16 bytes). 16-byte values are uint4
 * from load to store: uchar16 and the like reach NVPTX split into 4-byte accesses. */
#define CLSEL_NONZERO(w) \
    ((((w)&0x7F7F7F7Fu) + 0x7F7F7F7Fu) | (w)) /* bit 7 of each byte: byte != 0 */
#if CLSEL_WIDTH == 1
typedef uchar clsel_elem;
#define CLSEL_V 16
#define CLSEL_LOG2_V 4
typedef uint4 clsel_cond_words;
#define CLSEL_SPLAT(x) ((uint4)((uint)(x)*0x01010101u))
CLSEL_INLINE uint4 clsel_mask(uint4 c)
{
    return ((CLSEL_NONZERO(c) >> 7) & 0x01010101u) * 0xFFu;
}
#elif CLSEL_WIDTH == 2
typedef ushort clsel_elem;
#define CLSEL_V 8
#define CLSEL_LOG2_V 3
typedef uint2 clsel_cond_words;
#define CLSEL_SPLAT(x) ((uint4)((uint)(x)*0x00010001u))
CLSEL_INLINE uint4 clsel_mask(uint2 c)
{
    /* By 2-byte lanes: a compare of 8 bytes made NVPTX read cond's 8 bytes as two 4-byte loads (it
     * has no 8 x 1-byte load), 4 x 2 bytes it reads as one. */
    const ushort4 u = as_ushort4(c);
    const short4 low = (u & (ushort)0xFF) != (ushort4)0, high = (u >> (ushort)8) != (ushort4)0;
    return as_uint4((short8)(low.s0, high.s0, low.s1, high.s1, low.s2, high.s2, low.s3, high.s3));
}
#elif CLSEL_WIDTH == 4
typedef uint clsel_elem;
#define CLSEL_V 4
#define CLSEL_LOG2_V 2
typedef uint clsel_cond_words;
#define CLSEL_SPLAT(x) ((uint4)(x))
CLSEL_INLINE uint4 clsel_mask(uint c)
{
    return as_uint4(convert_int4(as_uchar4(c) != (uchar4)0));
}
#elif CLSEL_WIDTH == 8
typedef ulong clsel_elem;
#define CLSEL_V 2
#define CLSEL_LOG2_V 1
typedef ushort clsel_cond_words;
#define CLSEL_SPLAT(x) as_uint4((ulong2)(x))
CLSEL_INLINE uint4 clsel_mask(ushort c)
{
    return as_uint4(convert_long2(as_uchar2(c) != (uchar2)0));
}
#else
#error "CLSEL_WIDTH must be 1, 2, 4 or 8"
#endif

/* Element k of 16 bytes held as words. */
CLSEL_INLINE clsel_elem clsel_get(uint4 v, uint k)
{
#if CLSEL_WIDTH == 8
    const uint2 pair = k ? v.zw : v.xy;
    return as_ulong(pair);
#else
    const uint word = (k * CLSEL_WIDTH) >> 2 == 0   ? v.x
                      : (k * CLSEL_WIDTH) >> 2 == 1 ? v.y
                      : (k * CLSEL_WIDTH) >> 2 == 2 ? v.z
                                                    : v.w;
    return (clsel_elem)(word >> (((k * CLSEL_WIDTH) & 3) * 8));
#endif
}

/* 16 bytes held as words with their first element dropped and x put after their last: V of these in
 * a row leave the V elements in order, by moves of constant lanes only (a private array indexed in
 * a loop would live in memory; shifts of words by constants become funnel-shift intrinsics that
 * Oclgrind cannot run). */
CLSEL_INLINE uint4 clsel_shift_in(uint4 v, clsel_elem x)
{
#if CLSEL_WIDTH == 8
    return (uint4)(v.zw, as_uint2(x));
#elif CLSEL_WIDTH == 4
    return (uint4)(v.yzw, x);
#elif CLSEL_WIDTH == 2
    const ushort8 e = as_ushort8(v);
    return as_uint4((ushort8)(e.s1234, e.s567, x));
#else
    const uchar16 e = as_uchar16(v);
    return as_uint4((uchar16)(e.s1234, e.s5678, e.s9abc, e.sdef, x));
#endif
}

/* 16 bytes of the 32 that lo and hi hold, from byte `b` (0 <= b < 16) on: two aligned windows
 * shifted into place. Whole words move by selects, then each word takes its bits from two
 * neighbours (a funnel shift, one instruction on NVIDIA and AMD); b = 0 gives lo. */
CLSEL_INLINE uint4 clsel_funnel(uint4 lo, uint4 hi, uint b)
{
    const uint4 lo2 = (uint4)(lo.z, lo.w, hi.x, hi.y), hi2 = (uint4)(hi.z, hi.w, 0u, 0u);
    const uint4 x = (b & 8) ? lo2 : lo, y = (b & 8) ? hi2 : hi;
    const uint4 x1 = (uint4)(x.y, x.z, x.w, y.x);
    const uint4 w = (b & 4) ? x1 : x, next = (b & 4) ? (uint4)(x1.yzw, y.y) : x1;
    const uint r = (b & 3) * 8;
    return (w >> r) | ((next << 1) << (31 - r));
}

/* The same for cond's windows of V bytes. */
CLSEL_INLINE clsel_cond_words clsel_cond_funnel(clsel_cond_words lo, clsel_cond_words hi, uint b)
{
#if CLSEL_WIDTH == 1
    return clsel_funnel(lo, hi, b);
#elif CLSEL_WIDTH == 2
    return clsel_funnel((uint4)(lo, hi), (uint4)(hi, 0u, 0u), b).xy;
#elif CLSEL_WIDTH == 4
    return (uint)(as_ulong((uint2)(lo, hi)) >> (b * 8));
#else
    return (ushort)((((uint)hi << 16) | lo) >> (b * 8));
#endif
}

/* x / d for x < 2^31, as (mul_hi(x, m) + x) >> s with the host's m and s for d (the method of
 * PyTorch's IntegerDivider, aten/src/ATen/cuda/detail/IntegerDivider.cuh). */
#define CLSEL_DIV(x, m, s) ((mul_hi((x), (m)) + (x)) >> (s))

/* The geometry: the dims and their dividers; per dim the four tensors' strides (cond, then, else,
 * out: st<d>) and what a carry out of it adds to the offsets (cr<d>: the next dim's strides less
 * this dim's times its size), both formed once per work-item. A place in it: an element's index
 * along each dim and its offset from each tensor's origin
 * (.x cond, .y then, .z else, .w out). Vectors read by literal components, never arrays: NVIDIA's
 * compiler kept arrays in local memory, and the first kernels ran at 14-17 % of a copy on an
 * H200. */
typedef struct clsel_geometry {
    uint8 sh, m, s;
    int4 st0, st1, st2, st3, st4, st5, st6, st7;
    int4 cr0, cr1, cr2, cr3, cr4, cr5, cr6;
} clsel_geometry;

typedef struct clsel_place {
    uint at0, at1, at2, at3, at4, at5, at6,
        at7; /* scalars: a vector's lanes cost an insert or extract each */
    int4 off;
} clsel_place;

/* X(d, d + 1) for each dim d the kernel walks but the highest (dims 0 .. CLSEL_RANK - 2), and the
 * highest. */
#if CLSEL_RANK == 1
#define CLSEL_BELOW_TOP(X)
#define CLSEL_TOP 0
#elif CLSEL_RANK == 2
#define CLSEL_BELOW_TOP(X) X(0, 1)
#define CLSEL_TOP 1
#elif CLSEL_RANK == 3
#define CLSEL_BELOW_TOP(X) X(0, 1) X(1, 2)
#define CLSEL_TOP 2
#elif CLSEL_RANK == 4
#define CLSEL_BELOW_TOP(X) X(0, 1) X(1, 2) X(2, 3)
#define CLSEL_TOP 3
#elif CLSEL_RANK == 6
#define CLSEL_BELOW_TOP(X) X(0, 1) X(1, 2) X(2, 3) X(3, 4) X(4, 5)
#define CLSEL_TOP 5
#elif CLSEL_RANK == 8
#define CLSEL_BELOW_TOP(X) X(0, 1) X(1, 2) X(2, 3) X(3, 4) X(4, 5) X(5, 6) X(6, 7)
#define CLSEL_TOP 7
#else
#error "CLSEL_RANK must be a rank class of cl/select_contract.h"
#endif
/* Components and fields of a dim given as a macro (CLSEL_TOP). */
#define CLSEL_AT(p, d) CLSEL_AT_OF(p, d)
#define CLSEL_AT_OF(p, d) ((p)->at##d)
#define CLSEL_ST(g, d) CLSEL_ST_OF(g, d)
#define CLSEL_ST_OF(g, d) ((g)->st##d)

/* The geometry of the kernel's arguments: per dim four components of a 16-vector
 * (cl/select_contract.h). */
CLSEL_INLINE void clsel_geometry_set(clsel_geometry *g, uint8 sh, uint8 m, uint8 s,
                                     int16 strides_lo, int16 strides_hi, int16 carries_lo,
                                     int16 carries_hi)
{
    (void)strides_hi, (void)carries_lo, (void)carries_hi; /* unused by kernels of fewer dims */
    g->sh = sh, g->m = m, g->s = s;
    g->st0 = strides_lo.s0123;
#if CLSEL_RANK > 1
    g->cr0 = carries_lo.s0123;
    g->st1 = strides_lo.s4567;
#endif
#if CLSEL_RANK > 2
    g->cr1 = carries_lo.s4567;
    g->st2 = strides_lo.s89ab;
#endif
#if CLSEL_RANK > 3
    g->cr2 = carries_lo.s89ab;
    g->st3 = strides_lo.scdef;
#endif
#if CLSEL_RANK > 4
    g->cr3 = carries_lo.scdef;
    g->st4 = strides_hi.s0123, g->cr4 = carries_hi.s0123;
    g->st5 = strides_hi.s4567, g->cr5 = carries_hi.s4567;
    g->st6 = strides_hi.s89ab, g->cr6 = carries_hi.s89ab;
    g->st7 = strides_hi.scdef;
#endif
}

/* The place of element x (the offset calculator): the index along each dim below the highest is
 * what division by the dim leaves; the highest's is what is left. */
#define CLSEL_LOCATE(d, up)                                \
    {                                                      \
        const uint q = CLSEL_DIV(x, g->m.s##d, g->s.s##d); \
        const uint r = x - q * g->sh.s##d;                 \
        p->at##d = r;                                      \
        p->off += (int)r * g->st##d;                       \
        x = q;                                             \
    }
CLSEL_INLINE void clsel_locate(clsel_place *p, const clsel_geometry *g, uint x, int4 from)
{
    *p = (clsel_place){0, 0, 0, 0, 0, 0, 0, 0, from};
    CLSEL_BELOW_TOP(CLSEL_LOCATE)
    CLSEL_AT(p, CLSEL_TOP) = x;
    p->off += (int)x * CLSEL_ST(g, CLSEL_TOP);
}

/* Adds a step (a place located from 0: its index along each dim and its offsets) to a place,
 * carrying upwards as an odometer: an index and a step below a dim's size sum to less than twice
 * it, so one carry per dim is enough. */
#define CLSEL_ADD_DIM(d, up)                             \
    {                                                    \
        const uint sum = p->at##d + step->at##d + carry; \
        carry = sum >= g->sh.s##d;                       \
        p->at##d = carry ? sum - g->sh.s##d : sum;       \
        p->off += carry ? g->cr##d : (int4)0;            \
    }
CLSEL_INLINE void clsel_advance(clsel_place *p, const clsel_geometry *g, const clsel_place *step)
{
    (void)g; /* a kernel of one dim has no carries */
    uint carry = 0;
    p->off += step->off;
    CLSEL_BELOW_TOP(CLSEL_ADD_DIM)
    CLSEL_AT(p, CLSEL_TOP) += CLSEL_AT(step, CLSEL_TOP) + carry;
}

/* The first element of the next row: index 0 along dim 0, one more along dim 1, carried upwards.
 * Past the last row the place is beyond the launch and is not read. */
#define CLSEL_CARRY(d, up)                \
    if (d > 0 && p.at##d == g->sh.s##d) { \
        p.off += g->cr##d;                \
        p.at##d = 0;                      \
        p.at##up += 1;                    \
    }
CLSEL_INLINE clsel_place clsel_next_row(clsel_place p, const clsel_geometry *g)
{
    (void)g;
#if CLSEL_RANK > 1
    p.off += g->st1 - (int)p.at0 * g->st0;
    p.at0 = 0;
    p.at1 += 1;
    CLSEL_BELOW_TOP(CLSEL_CARRY)
#endif
    return p;
}

/* One element on. */
CLSEL_INLINE clsel_place clsel_next_element(clsel_place p, const clsel_geometry *g)
{
    p.off += g->st0;
    p.at0 += 1;
    if (CLSEL_RANK > 1 && p.at0 == g->sh.s0)
        p = clsel_next_row(p, g);
    return p;
}

/* Whether the V elements from p lie in one row. */
CLSEL_INLINE int clsel_in_row(const clsel_place *p, const clsel_geometry *g)
{
    return CLSEL_RANK == 1 || g->sh.s0 - p->at0 >= CLSEL_V;
}

/* ---- inputs -------------------------------------------------------------------------------------
 * An input as the kernel reads it: its elements from its origin; the whole windows from there to
 * its buffer's end and the bytes of the partial one after them (a window that would pass the
 * buffer's end is read in pieces, and one past that not at all); its stride along dim 0 (STRIDED);
 * whether it is dense (read by item index) or one element for the whole launch (read once per
 * work-item). A short input (CLSEL_SHORT_BIT), whose partial window most items read, has it read
 * once per work-item (`end`). */
typedef struct clsel_input {
    global const clsel_elem *x;
    uint windows, tail, dense, uniform;
    int stride;
    uint4 end;
} clsel_input;

typedef struct clsel_cond_input {
    global const uchar *c;
    uint windows, tail, dense, uniform;
    int stride;
    uint4 end;
    uint flip; /* all ones where the kernel's then and else are the plan's else and then
                  (CLSEL_SWAP_BIT), else 0 */
} clsel_cond_input;

/* Whether cond byte b takes the kernel's then_, and cond's mask from its words: flipped where then
 * and else swapped. */
CLSEL_INLINE int clsel_takes_then(const clsel_cond_input *in, uchar b)
{
    return (b != 0) != (in->flip != 0);
}

CLSEL_INLINE uint4 clsel_cond_mask_of(const clsel_cond_input *in, clsel_cond_words words)
{
    return clsel_mask(words) ^ (uint4)in->flip;
}

CLSEL_INLINE uint4 clsel_cond_splat(const clsel_cond_input *in, uchar b)
{
    return (uint4)(clsel_takes_then(in, b) ? 0xFFFFFFFFu : 0u);
}

/* The first `bytes` bytes (< size, the window's) of the window at p, in pieces that lie on their
 * own size. */
CLSEL_INLINE uint4 clsel_partial_window(global const uchar *p, uint bytes, uint size)
{
    uint4 v = (uint4)0;
    uint at = 0;
    if (size > 8 && (bytes & 8)) {
        v.xy = *(global const uint2 *)p;
        at = 8;
    }
    if (size > 4 && (bytes & 4)) {
        v |= as_uint4((uint4)(at >> 2) == (uint4)(0, 1, 2, 3)) &
             (uint4)(*(global const uint *)(p + at));
        at += 4;
    }
    if (size > 2 && (bytes & 2)) {
        const uint two = *(global const ushort *)(p + at);
        v |= as_uint4((uint4)(at >> 2) == (uint4)(0, 1, 2, 3)) & (uint4)(two << ((at & 3) * 8));
        at += 2;
    }
    if (bytes & 1)
        v |= as_uint4((uint4)(at >> 2) == (uint4)(0, 1, 2, 3)) &
             (uint4)((uint)p[at] << ((at & 3) * 8));
    return v;
}

/* The same one byte at a time: a short loop for the window at a buffer's end, read by few items (a
 * tensor with no whole window has its partial one read once per work-item, in pieces). */
CLSEL_INLINE uint4 clsel_end_window(global const uchar *p, uint bytes)
{
    uint4 v = (uint4)0;
#pragma unroll 1
    for (uint i = 0; i < bytes; ++i)
        v |=
            as_uint4((uint4)(i >> 2) == (uint4)(0, 1, 2, 3)) & (uint4)((uint)p[i] << ((i & 3) * 8));
    return v;
}

/* Window w of an input: whole, partial (the one that holds the buffer's end), or zeros past it. */
CLSEL_INLINE uint4 clsel_window(const clsel_input *in, int w)
{
#ifdef CLSEL_CODEGEN_MAIN_PATH /* the code-generation check counts the items whose windows are \
                                  whole: all but a few */
    return ((global const uint4 *)in->x)[w];
#endif
    if ((uint)w < in->windows)
        return ((global const uint4 *)in->x)[w];
    if ((uint)w != in->windows)
        return (uint4)0;
    if (in->windows <= CLSEL_SHORT_WINDOWS)
        return in->end;
    return clsel_end_window((global const uchar *)(in->x + ((size_t)w << CLSEL_LOG2_V)), in->tail);
}

CLSEL_INLINE clsel_cond_words clsel_cond_words_of(uint4 v)
{
#if CLSEL_WIDTH == 1
    return v;
#elif CLSEL_WIDTH == 2
    return v.xy;
#elif CLSEL_WIDTH == 4
    return v.x;
#else
    return (ushort)v.x;
#endif
}

CLSEL_INLINE clsel_cond_words clsel_cond_window(const clsel_cond_input *in, int w)
{
#ifdef CLSEL_CODEGEN_MAIN_PATH
    return ((global const clsel_cond_words *)in->c)[w];
#endif
    if ((uint)w < in->windows)
        return ((global const clsel_cond_words *)in->c)[w];
    if ((uint)w != in->windows)
        return (clsel_cond_words)0;
    if (in->windows <= CLSEL_SHORT_WINDOWS)
        return clsel_cond_words_of(in->end);
    return clsel_cond_words_of(clsel_end_window(in->c + ((size_t)w << CLSEL_LOG2_V), in->tail));
}

/* V elements from o, one by one `stride` apart (a strided input). */
CLSEL_INLINE uint4 clsel_elements(const clsel_input *in, int o)
{
    uint4 v = (uint4)0;
#pragma unroll
    for (uint k = 0; k < CLSEL_V; ++k)
        v = clsel_shift_in(v, in->x[o + (int)k * in->stride]);
    return v;
}

/* cond's V bytes as words, from bytes taken in order by clsel_byte_in into 16: the last V of
 * them. */
CLSEL_INLINE uint4 clsel_byte_in(uint4 v, uchar b)
{
    const uchar16 e = as_uchar16(v);
    return as_uint4((uchar16)(e.s1234, e.s5678, e.s9abc, e.sdef, b));
}

CLSEL_INLINE clsel_cond_words clsel_cond_last(uint4 v)
{
#if CLSEL_WIDTH == 1
    return v;
#elif CLSEL_WIDTH == 2
    return v.zw;
#elif CLSEL_WIDTH == 4
    return v.w;
#else
    return (ushort)(v.w >> 16);
#endif
}

CLSEL_INLINE clsel_cond_words clsel_cond_elements(const clsel_cond_input *in, int o)
{
    uint4 v = (uint4)0;
#pragma unroll
    for (uint k = 0; k < CLSEL_V; ++k)
        v = clsel_byte_in(v, in->c[o + (int)k * in->stride]);
    return clsel_cond_last(v);
}

/* V elements from o, as an input read as `kind` in an item that lies in one row (the V elements are
 * all in the buffer): one element repeated, a dense input's item-th 16 bytes, the window that holds
 * them where they start on one, else two windows shifted into place, or one by one. */
CLSEL_INLINE uint4 clsel_read(const clsel_input *in, int kind, int o, uint item)
{
    if (kind == CLSEL_READ_FIXED)
        return CLSEL_SPLAT(in->x[o]);
    if (kind == CLSEL_READ_STRIDED)
        return clsel_elements(in, o);
    if (in->dense)
        return ((global const uint4 *)in->x)[item];
    const int w = o >> CLSEL_LOG2_V, shift = o & (CLSEL_V - 1);
    uint4 v = ((global const uint4 *)
                   in->x)[w]; /* whole: it holds element o and the 15 bytes after it are touched */
    if (shift)
        v = clsel_funnel(v, clsel_window(in, w + 1), (uint)shift * CLSEL_WIDTH);
    return v;
}

/* cond's mask of an item in one row, read as ROWS or STRIDED. */
CLSEL_INLINE uint4 clsel_cond_mask(const clsel_cond_input *in, int kind, int o, uint item)
{
    if (kind == CLSEL_READ_STRIDED)
        return clsel_cond_mask_of(in, clsel_cond_elements(in, o));
    if (in->dense)
        return clsel_cond_mask_of(in, ((global const clsel_cond_words *)in->c)[item]);
    const int w = o >> CLSEL_LOG2_V, shift = o & (CLSEL_V - 1);
    clsel_cond_words words = ((global const clsel_cond_words *)in->c)[w];
    if (shift)
        words = clsel_cond_funnel(words, clsel_cond_window(in, w + 1), (uint)shift);
    return clsel_cond_mask_of(in, words);
}

/* Items that span row ends go by rows only in kernels of more than one dim where no tensor is
 * strided. */
#if CLSEL_COND == CLSEL_READ_STRIDED || CLSEL_THEN == CLSEL_READ_STRIDED || \
    CLSEL_ELSE == CLSEL_READ_STRIDED || CLSEL_OUT == CLSEL_WRITE_STRIDED
#define CLSEL_ANY_STRIDED 1
#else
#define CLSEL_ANY_STRIDED 0
#endif
#define CLSEL_BY_ROWS (CLSEL_RANK > 1 && !CLSEL_ANY_STRIDED)

#if CLSEL_BY_ROWS
/* A run of V elements for a segment of an item across rows: from o, or, where o lies before the
 * origin (the row at the origin, `into` elements into the item), those from the row's first element
 * moved up by `into` elements. Only the segment's bytes are kept, so the rest may be any bytes; a
 * window past the buffer's end reads as zeros. */
CLSEL_INLINE uint4 clsel_run(const clsel_input *in, int kind, int o, int into)
{
    if (kind == CLSEL_READ_FIXED)
        return CLSEL_SPLAT(in->x[o]);
    const int from = o >= 0 ? o : o + into, w = from >> CLSEL_LOG2_V, shift = from & (CLSEL_V - 1);
    uint4 v = clsel_window(in, w);
    if (shift)
        v = clsel_funnel(v, clsel_window(in, w + 1), (uint)shift * CLSEL_WIDTH);
    if (o < 0)
        v = clsel_funnel(v, v, (uint)(CLSEL_V - into) * CLSEL_WIDTH);
    return v;
}

CLSEL_INLINE uint4 clsel_cond_run(const clsel_cond_input *in, int kind, int o, int into)
{
    if (kind == CLSEL_READ_FIXED)
        return clsel_cond_splat(in, in->c[o]);
    const int from = o >= 0 ? o : o + into, w = from >> CLSEL_LOG2_V, shift = from & (CLSEL_V - 1);
    clsel_cond_words words = clsel_cond_window(in, w);
    if (shift)
        words = clsel_cond_funnel(words, clsel_cond_window(in, w + 1), (uint)shift);
    if (o < 0)
        words = clsel_cond_funnel(words, words, (uint)(CLSEL_V - into));
    return clsel_cond_mask_of(in, words);
}
#endif

/* Whether a tensor read (or written) as `kind` is dense: the kernel knows every ROWS tensor dense
 * (CLSEL_DENSE), or its bit says so. */
CLSEL_INLINE uint clsel_dense(int kind, uint bit)
{
    if (kind != CLSEL_READ_ROWS)
        return 0;
    return CLSEL_DENSE ? 1 : bit != 0;
}

/* ---- the output ---------------------------------------------------------------------------------
 * An item's 16 bytes from offset o of the output: the item-th 16 bytes of a dense output, one store
 * where they lie on a boundary, else one element at a time `stride` apart. */
typedef struct clsel_output {
    global clsel_elem *x;
    uint dense;
    int stride;
} clsel_output;

CLSEL_INLINE void clsel_store(const clsel_output *out, int o, uint item, uint4 v)
{
    if (out->dense) {
        ((global uint4 *)out->x)[item] = v;
    } else if (CLSEL_OUT == CLSEL_WRITE_ROWS && (o & (CLSEL_V - 1)) == 0) {
        *(global uint4 *)(out->x + o) = v;
#ifdef CLSEL_CODEGEN_MAIN_PATH /* the code-generation check counts outputs whose items lie on 16 \
                                  bytes */
    } else if (CLSEL_OUT == CLSEL_WRITE_ROWS) {
        *(global uint4 *)(out->x + o) = v;
#endif
    } else { /* a loop, not unrolled: a rare path, kept small */
#pragma unroll 1
        for (uint k = 0; k < CLSEL_V; ++k)
            out->x[o + (int)k * out->stride] = clsel_get(v, k);
    }
}

/* The launch's tensors. */
typedef struct clsel_tensors {
    clsel_cond_input cond;
    clsel_input then_, else_;
    clsel_output out;
} clsel_tensors;

/* ---- items that span row ends -------------------------------------------------------------------
 * All ones in the bytes of the first `split` elements: one compare of element indices
 * (Oclgrind 21.10 ran a form with a clamp and per-word shifts wrong). */
#if CLSEL_BY_ROWS
CLSEL_INLINE uint4 clsel_head_mask(uint split)
{
#if CLSEL_WIDTH == 1
    return as_uint4((uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) <
                    (uchar16)(uchar)split);
#elif CLSEL_WIDTH == 2
    return as_uint4((ushort8)(0, 1, 2, 3, 4, 5, 6, 7) < (ushort8)(ushort)split);
#elif CLSEL_WIDTH == 4
    return as_uint4((uint4)(0, 1, 2, 3) < (uint4)split);
#else
    return as_uint4((uint4)(0, 0, 1, 1) < (uint4)split);
#endif
}
#endif

/* `count` elements from p (count <= V), one by one: each input's element where the place says,
 * picked, and written where it says (a whole item of a dense output as one 16-byte store). */
CLSEL_INLINE void clsel_item_elements(const clsel_tensors *t, const clsel_geometry *g,
                                      clsel_place p, uint count, int whole_store)
{
    const int o = p.off.w;
    uint4 v = (uint4)0;
    for (uint k = 0; k < CLSEL_V; ++k) {
        if (k >= count)
            break;
        const int c = clsel_takes_then(&t->cond, t->cond.c[p.off.x]);
        const clsel_elem x = c ? t->then_.x[p.off.y] : t->else_.x[p.off.z];
        if (whole_store)
            v = clsel_shift_in(v, x);
        else
            t->out.x[p.off.w] = x;
        if (k + 1 < count)
            p = clsel_next_element(p, g);
    }
    if (whole_store)
        *(global uint4 *)(t->out.x + o) = v;
}

#if CLSEL_BY_ROWS
/* A whole item whose elements lie in segments of consecutive rows: the rest of p's row, then whole
 * rows, then the start of one (two segments where rows have V elements or more). Each input's
 * segment is read as a run from as many elements before the row's first as the segment lies into
 * the item, so that its elements land in place, and kept under a mask of the segment's bytes, into
 * m (cond), x (then) and y (else) for the inputs asked for (read_*: constants or the dense bits at
 * each call, so that each call compiles to a loop of its own). */
CLSEL_INLINE void clsel_segments(const clsel_tensors *t, const clsel_geometry *g, clsel_place q,
                                 uint read_cond, uint read_then, uint read_else, uint4 *m, uint4 *x,
                                 uint4 *y)
{
    uint4 before = (uint4)0;
    uint done = 0;
    for (;;) {
        const uint end = min((uint)CLSEL_V, done + g->sh.s0 - q.at0);
        const uint4 upto = clsel_head_mask(end), segment = upto & ~before;
        const int4 r =
            q.off - (int)done * g->st0; /* the runs' starts: element `done` lands in place */
        if (read_cond)
            *m |= segment & clsel_cond_run(&t->cond, CLSEL_COND, r.x, (int)done);
        if (read_then)
            *x |= segment & clsel_run(&t->then_, CLSEL_THEN, r.y, (int)done);
        if (read_else)
            *y |= segment & clsel_run(&t->else_, CLSEL_ELSE, r.z, (int)done);
        if (end == CLSEL_V)
            break;
        before = upto;
        done = end;
        q = clsel_next_row(q, g);
    }
}

/* Whether an input read as `kind` is one run for a whole item across rows: dense (it goes on across
 * rows), or one element for the whole launch. */
CLSEL_INLINE uint clsel_one_run(const clsel_input *in, int kind)
{
    return in->dense || (kind == CLSEL_READ_FIXED && in->uniform);
}

/* Items across rows of elements this wide or wider are read element by element
 * (clsel_item_gather), narrower ones by segments. On an H100 (2026-11-28, docs/tuning.md) the
 * elements ran the sweep's patterns with such items of 4- and 8-byte elements up to twice as fast
 * as the segments and slowed none; of 1- and 2-byte elements (16 and 8 an item) up to 1.9x slower,
 * one bf16 pattern apart. */
#define CLSEL_GATHER_WIDTH 4

/* An item across rows, element by element: each element's place from the one before (arithmetic
 * only), cond's byte and both inputs' elements at each, then one select. No load waits on another,
 * so all of the item's are in flight at once, where a segment's reads wait on the place of the row
 * before and the rows are taken one after another. */
CLSEL_INLINE uint4 clsel_item_gather(const clsel_tensors *t, const clsel_geometry *g, clsel_place p)
{
    const clsel_elem ones = (clsel_elem) ~(ulong)0;
    uint4 m = (uint4)0, x = (uint4)0, y = (uint4)0;
#pragma unroll
    for (uint k = 0; k < CLSEL_V; ++k) {
        const int c = clsel_takes_then(&t->cond, t->cond.c[p.off.x]);
        m = clsel_shift_in(m, c ? ones : (clsel_elem)0);
        x = clsel_shift_in(x, t->then_.x[p.off.y]);
        y = clsel_shift_in(y, t->else_.x[p.off.z]);
        if (k + 1 < CLSEL_V)
            p = clsel_next_element(p, g);
    }
    return bitselect(y, x, m);
}

/* An item across rows under a uniform cond: only the input it takes, by no segment where that one
 * is one run (a scalar cond over a dense input is a copy). */
CLSEL_INLINE uint4 clsel_item_uniform_cond(const clsel_tensors *t, const clsel_geometry *g,
                                           clsel_place p)
{
    uint4 x = (uint4)0, y = (uint4)0;
    const int takes_then = clsel_takes_then(&t->cond, t->cond.c[p.off.x]);
    uint4 m = (uint4)(takes_then ? 0xFFFFFFFFu : 0u);
    if (takes_then && clsel_one_run(&t->then_, CLSEL_THEN))
        x = clsel_run(&t->then_, CLSEL_THEN, p.off.y, 0);
    else if (takes_then)
        clsel_segments(t, g, p, 0, 1, 0, &m, &x, &y);
    else if (clsel_one_run(&t->else_, CLSEL_ELSE))
        y = clsel_run(&t->else_, CLSEL_ELSE, p.off.z, 0);
    else
        clsel_segments(t, g, p, 0, 0, 1, &m, &x, &y);
    return bitselect(y, x, m);
}

/* An item across rows by segments: a dense input is one run for the whole item, the others a run
 * per row. */
CLSEL_INLINE uint4 clsel_item_segments(const clsel_tensors *t, const clsel_geometry *g,
                                       clsel_place p)
{
    const uint cd = t->cond.dense, td = t->then_.dense, ed = t->else_.dense;
    uint4 m = cd ? clsel_cond_run(&t->cond, CLSEL_COND, p.off.x, 0) : (uint4)0;
    uint4 x = td ? clsel_run(&t->then_, CLSEL_THEN, p.off.y, 0) : (uint4)0;
    uint4 y = ed ? clsel_run(&t->else_, CLSEL_ELSE, p.off.z, 0) : (uint4)0;
    clsel_segments(t, g, p, !cd, !td, !ed, &m, &x, &y);
    return bitselect(y, x, m);
}

/* An item across rows: under a uniform cond the input it takes; else by elements or by segments,
 * as the element width says. */
CLSEL_INLINE void clsel_item_rows(const clsel_tensors *t, const clsel_geometry *g, clsel_place p,
                                  int whole_store)
{
    uint4 v;
    if (CLSEL_COND == CLSEL_READ_FIXED && t->cond.uniform)
        v = clsel_item_uniform_cond(t, g, p);
    else if (CLSEL_WIDTH >= CLSEL_GATHER_WIDTH)
        v = clsel_item_gather(t, g, p);
    else
        v = clsel_item_segments(t, g, p);
    if (whole_store) {
        *(global uint4 *)(t->out.x + p.off.w) = v;
        return;
    }
    clsel_place q = p; /* an output that is not dense: each element where its row lies */
    for (uint k = 0; k < CLSEL_V; ++k) {
        t->out.x[q.off.w] = clsel_get(v, k);
        q = clsel_next_element(q, g);
    }
}
#endif

/* An item that is not in one row, or not whole: by rows where no tensor is strided, else element by
 * element. */
CLSEL_INLINE void clsel_item_other(const clsel_tensors *t, const clsel_geometry *g, clsel_place p,
                                   uint count)
{
    const int whole_store = t->out.dense && count == CLSEL_V; /* (never for a STRIDED output) */
#if CLSEL_BY_ROWS
    if (count == CLSEL_V) {
        clsel_item_rows(t, g, p, whole_store);
        return;
    }
#endif
    clsel_item_elements(t, g, p, count, whole_store);
}

/* ---- items in one row ---------------------------------------------------------------------------
 * One item from the offsets o: cond's byte picks the input to read (from one address where both are
 * read alike), or cond's mask selects between both. */
CLSEL_INLINE void clsel_item_in_row(const clsel_tensors *t, int4 o, uint item)
{
    uint4 v;
    if (CLSEL_COND == CLSEL_READ_FIXED) {
        const int c = clsel_takes_then(&t->cond, t->cond.c[o.x]);
        if (CLSEL_THEN == CLSEL_ELSE)
            v = clsel_read(c ? &t->then_ : &t->else_, CLSEL_THEN, c ? o.y : o.z, item);
        else
            v = c ? clsel_read(&t->then_, CLSEL_THEN, o.y, item)
                  : clsel_read(&t->else_, CLSEL_ELSE, o.z, item);
    } else {
        const uint4 m = clsel_cond_mask(&t->cond, CLSEL_COND, o.x, item);
        v = bitselect(clsel_read(&t->else_, CLSEL_ELSE, o.z, item),
                      clsel_read(&t->then_, CLSEL_THEN, o.y, item), m);
    }
    clsel_store(&t->out, o.w, item, v);
}

/* K items (item k is item0 + k * lanes, at off[k]) whole and each in one row, in passes: cond of
 * all of them, then the inputs, then the stores, so that the loads of all are in flight together.
 * Where cond is one byte per item each reads only the input it takes; where all the items take one
 * input (a uniform cond, or masks all true or all false), only that input is read. A uniform input
 * is read once. */
#define CLSEL_K CLSEL_ITEMS
CLSEL_INLINE uint4 clsel_read_item(const clsel_input *in, int kind, int o, uint item, uint4 once)
{
    return kind == CLSEL_READ_FIXED && in->uniform ? once : clsel_read(in, kind, o, item);
}

CLSEL_INLINE void clsel_items_in_rows(const clsel_tensors *t, const int4 off[CLSEL_K], uint item0,
                                      uint lanes)
{
    const uint4 then_once = CLSEL_THEN == CLSEL_READ_FIXED && t->then_.uniform
                                ? CLSEL_SPLAT(t->then_.x[off[0].y])
                                : (uint4)0;
    const uint4 else_once = CLSEL_ELSE == CLSEL_READ_FIXED && t->else_.uniform
                                ? CLSEL_SPLAT(t->else_.x[off[0].z])
                                : (uint4)0;
    uint4 x[CLSEL_K], y[CLSEL_K], m[CLSEL_K];
    if (CLSEL_COND == CLSEL_READ_FIXED && !t->cond.uniform) {
        int c[CLSEL_K];
#pragma unroll
        for (uint k = 0; k < CLSEL_K; ++k)
            c[k] = clsel_takes_then(&t->cond, t->cond.c[off[k].x]);
#pragma unroll
        for (uint k = 0; k < CLSEL_K; ++k) {
            const uint item = item0 + k * lanes;
            if (CLSEL_THEN == CLSEL_ELSE && !t->then_.uniform && !t->else_.uniform)
                x[k] = clsel_read(c[k] ? &t->then_ : &t->else_, CLSEL_THEN,
                                  c[k] ? off[k].y : off[k].z, item);
            else
                x[k] = c[k] ? clsel_read_item(&t->then_, CLSEL_THEN, off[k].y, item, then_once)
                            : clsel_read_item(&t->else_, CLSEL_ELSE, off[k].z, item, else_once);
        }
#pragma unroll
        for (uint k = 0; k < CLSEL_K; ++k)
            clsel_store(&t->out, off[k].w, item0 + k * lanes, x[k]);
        return;
    }
    uint4 all = (uint4)0xFFFFFFFFu, any = (uint4)0;
    if (CLSEL_COND == CLSEL_READ_FIXED) { /* uniform */
        all = any = clsel_cond_splat(&t->cond, t->cond.c[off[0].x]);
#pragma unroll
        for (uint k = 0; k < CLSEL_K; ++k)
            m[k] = all;
    } else {
#pragma unroll
        for (uint k = 0; k < CLSEL_K; ++k) {
            m[k] = clsel_cond_mask(&t->cond, CLSEL_COND, off[k].x, item0 + k * lanes);
            all &= m[k];
            any |= m[k];
        }
    }
    const uint2 both = all.xy & all.zw, either = any.xy | any.zw;
    const int then_only = (both.x & both.y) == 0xFFFFFFFFu, else_only = (either.x | either.y) == 0;
#pragma unroll
    for (uint k = 0; k < CLSEL_K; ++k)
        x[k] = y[k] = (uint4)0;
    if (!else_only) {
#pragma unroll
        for (uint k = 0; k < CLSEL_K; ++k)
            x[k] = clsel_read_item(&t->then_, CLSEL_THEN, off[k].y, item0 + k * lanes, then_once);
    }
    if (!then_only) {
#pragma unroll
        for (uint k = 0; k < CLSEL_K; ++k)
            y[k] = clsel_read_item(&t->else_, CLSEL_ELSE, off[k].z, item0 + k * lanes, else_once);
    }
#pragma unroll
    for (uint k = 0; k < CLSEL_K; ++k)
        clsel_store(&t->out, off[k].w, item0 + k * lanes, bitselect(y[k], x[k], m[k]));
}

/* ---- tiles: kernels with TILED inputs -----------------------------------------------------------
 * A work-group takes a tile of CLSEL_TILE_ROWS rows (dim 1) by CLSEL_TILE_COLS elements (dim 0). A
 * TILED input's part of it lies in columns that are contiguous along dim 1: the work-items first
 * copy each such column into local memory, CLSEL_TILE_ROWS elements as aligned windows of the input
 * shifted into place (one per work-item and input), then each takes an item of the tile, gathers
 * its V elements from V columns there and reads the other inputs as any kernel does. Both the
 * global reads and the output's stores are 16 bytes, as in a GPU transpose. */
#if CLSEL_COND == CLSEL_READ_TILED || CLSEL_THEN == CLSEL_READ_TILED || \
    CLSEL_ELSE == CLSEL_READ_TILED
#define CLSEL_TILES 1
#else
#define CLSEL_TILES 0
#endif
#if CLSEL_TILES
#define CLSEL_TILE_ITEMS (CLSEL_TILE_BYTES / 16)     /* items along a tile's row */
#define CLSEL_TILE_COLS (CLSEL_TILE_ITEMS * CLSEL_V) /* elements along dim 0 */
#define CLSEL_COL_WINDOWS \
    (CLSEL_TILE_ROWS * CLSEL_WIDTH / 16) /* windows (cond: of V bytes) in a column */

/* A column in local memory, with one window more than it needs so that neighbouring columns start
 * on other banks. */
typedef struct clsel_tile_column {
    uint4 w[CLSEL_COL_WINDOWS + 1];
} clsel_tile_column;

typedef struct clsel_cond_column {
    clsel_cond_words w[CLSEL_COL_WINDOWS + 1];
} clsel_cond_column;

/* Window j of column c of an input's part of the tile (the tile's first element at o; columns
 * `stride` apart): each work-item copies one, those of columns past the launch's none. */
CLSEL_INLINE void clsel_tile_load(const clsel_input *in, local clsel_tile_column *tile, int o,
                                  uint cols, uint lid)
{
    const uint c = lid / CLSEL_COL_WINDOWS, j = lid % CLSEL_COL_WINDOWS;
    if (c >= cols)
        return;
    const int from = o + (int)c * in->stride, w = (from >> CLSEL_LOG2_V) + (int)j,
              shift = from & (CLSEL_V - 1);
    uint4 v = clsel_window(in, w);
    if (shift)
        v = clsel_funnel(v, clsel_window(in, w + 1), (uint)shift * CLSEL_WIDTH);
    tile[c].w[j] = v;
}

CLSEL_INLINE void clsel_cond_tile_load(const clsel_cond_input *in, local clsel_cond_column *tile,
                                       int o, uint cols, uint lid)
{
    const uint c = lid / CLSEL_COL_WINDOWS, j = lid % CLSEL_COL_WINDOWS;
    if (c >= cols)
        return;
    const int from = o + (int)c * in->stride, w = (from >> CLSEL_LOG2_V) + (int)j,
              shift = from & (CLSEL_V - 1);
    clsel_cond_words v = clsel_cond_window(in, w);
    if (shift)
        v = clsel_cond_funnel(v, clsel_cond_window(in, w + 1), (uint)shift);
    tile[c].w[j] = v;
}

/* Element r of column c. */
CLSEL_INLINE clsel_elem clsel_tile_at(local const clsel_tile_column *tile, uint c, uint r)
{
    return ((local const clsel_elem *)tile[c].w)[r];
}

CLSEL_INLINE uchar clsel_cond_tile_at(local const clsel_cond_column *tile, uint c, uint r)
{
    return ((local const uchar *)tile[c].w)[r];
}

/* The tile's TILED inputs in local memory (those a kernel does not read TILED are not there). */
typedef struct clsel_tile_locals {
    local clsel_cond_column *cond;
    local clsel_tile_column *then_, *else_;
} clsel_tile_locals;

/* An input's element k of the item at o (its column c, row r of the tile). */
CLSEL_INLINE clsel_elem clsel_tile_element(const clsel_input *in, int kind,
                                           local const clsel_tile_column *tile, int o, uint c,
                                           uint r, uint k)
{
    if (kind == CLSEL_READ_TILED)
        return clsel_tile_at(tile, c + k, r);
    return in->x[o + (int)k * in->stride];
}

/* The V elements (or cond's V bytes) of one row across V columns of a tile, from `at` (the first
 * column's) on, columns `step` bytes apart: 16 bytes (V bytes of cond) built word by word with
 * shifts and ors, written out per width (a byte shifted into a vector would be a shuffle of all 16,
 * and a loop left rolled would keep its words in memory). */
#define CLSEL_AT_COL(T, k) (*(local const T *)(at + (k)*step))
#define CLSEL_BYTES4(k)                                                     \
    ((uint)CLSEL_AT_COL(uchar, k) | (uint)CLSEL_AT_COL(uchar, k + 1) << 8 | \
     (uint)CLSEL_AT_COL(uchar, k + 2) << 16 | (uint)CLSEL_AT_COL(uchar, k + 3) << 24)
#define CLSEL_HALVES2(k) ((uint)CLSEL_AT_COL(ushort, k) | (uint)CLSEL_AT_COL(ushort, k + 1) << 16)
CLSEL_INLINE uint4 clsel_gather(local const uchar *at, uint step)
{
#if CLSEL_WIDTH == 1
    return (uint4)(CLSEL_BYTES4(0), CLSEL_BYTES4(4), CLSEL_BYTES4(8), CLSEL_BYTES4(12));
#elif CLSEL_WIDTH == 2
    return (uint4)(CLSEL_HALVES2(0), CLSEL_HALVES2(2), CLSEL_HALVES2(4), CLSEL_HALVES2(6));
#elif CLSEL_WIDTH == 4
    return (uint4)(CLSEL_AT_COL(uint, 0), CLSEL_AT_COL(uint, 1), CLSEL_AT_COL(uint, 2),
                   CLSEL_AT_COL(uint, 3));
#else
    return (uint4)(CLSEL_AT_COL(uint2, 0), CLSEL_AT_COL(uint2, 1));
#endif
}

CLSEL_INLINE clsel_cond_words clsel_cond_gather(local const uchar *at, uint step)
{
#if CLSEL_WIDTH == 1
    return (uint4)(CLSEL_BYTES4(0), CLSEL_BYTES4(4), CLSEL_BYTES4(8), CLSEL_BYTES4(12));
#elif CLSEL_WIDTH == 2
    return (uint2)(CLSEL_BYTES4(0), CLSEL_BYTES4(4));
#elif CLSEL_WIDTH == 4
    return CLSEL_BYTES4(0);
#else
    return (ushort)((uint)CLSEL_AT_COL(uchar, 0) | (uint)CLSEL_AT_COL(uchar, 1) << 8);
#endif
}

/* An input's V elements of the item at o: gathered from the tile's columns, or as an item in one
 * row. */
CLSEL_INLINE uint4 clsel_tile_read(const clsel_input *in, int kind,
                                   local const clsel_tile_column *tile, int o, uint c, uint r)
{
    if (kind != CLSEL_READ_TILED)
        return clsel_read(in, kind, o, 0);
    return clsel_gather((local const uchar *)&tile[c].w[0] + r * CLSEL_WIDTH,
                        (uint)sizeof(clsel_tile_column));
}

CLSEL_INLINE uint4 clsel_tile_cond_mask(const clsel_cond_input *in,
                                        local const clsel_cond_column *tile, int o, uint c, uint r)
{
    if (CLSEL_COND == CLSEL_READ_FIXED)
        return clsel_cond_splat(in, in->c[o]);
    if (CLSEL_COND != CLSEL_READ_TILED)
        return clsel_cond_mask(in, CLSEL_COND, o, 0);
    return clsel_cond_mask_of(in, clsel_cond_gather((local const uchar *)&tile[c].w[0] + r,
                                                    (uint)sizeof(clsel_cond_column)));
}

/* The item at offsets o, column c and row r of the tile, its first `count` elements in the
 * launch. */
CLSEL_INLINE void clsel_tile_item(const clsel_tensors *t, const clsel_tile_locals *l, int4 o,
                                  uint c, uint r, uint count)
{
    if (count == CLSEL_V) {
        const uint4 m = clsel_tile_cond_mask(&t->cond, l->cond, o.x, c, r);
        const uint4 x = clsel_tile_read(&t->then_, CLSEL_THEN, l->then_, o.y, c, r);
        const uint4 y = clsel_tile_read(&t->else_, CLSEL_ELSE, l->else_, o.z, c, r);
        clsel_store(&t->out, o.w, 0, bitselect(y, x, m));
        return;
    }
#pragma unroll 1
    for (uint k = 0; k < count; ++k) { /* the end of a row */
        const uchar b = CLSEL_COND == CLSEL_READ_TILED ? clsel_cond_tile_at(l->cond, c + k, r)
                                                       : t->cond.c[o.x + (int)k * t->cond.stride];
        t->out.x[o.w + (int)k * t->out.stride] =
            clsel_takes_then(&t->cond, b)
                ? clsel_tile_element(&t->then_, CLSEL_THEN, l->then_, o.y, c, r, k)
                : clsel_tile_element(&t->else_, CLSEL_ELSE, l->else_, o.z, c, r, k);
    }
}

/* The work-group's tile (its CLSEL_TILE_GROUP work-items: the kernel requires that work-group
 * size): tile index t0 along dim 0 and t1 along dim 1 of the group's, the rest its index over the
 * dims above (tiles: the tiles along dims 0 and 1 with their dividers). Work-item lid copies window
 * lid of each TILED input, then takes item lid. */
CLSEL_INLINE void clsel_tiles(const clsel_tensors *t, const clsel_geometry *g,
                              const clsel_tile_locals *l, int4 first, uint8 tiles)
{
    const uint group = (uint)get_group_id(0), lid = (uint)get_local_id(0);
    const uint above = CLSEL_DIV(group, tiles.s1, tiles.s2), t0 = group - above * tiles.s0;
    const uint b = CLSEL_DIV(above, tiles.s4, tiles.s5), t1 = above - b * tiles.s3;
    const uint c0 = t0 * CLSEL_TILE_COLS, r0 = t1 * CLSEL_TILE_ROWS;
    const uint cols = min((uint)CLSEL_TILE_COLS, g->sh.s0 - c0),
               rows = min((uint)CLSEL_TILE_ROWS, g->sh.s1 - r0);
    clsel_place p;
    clsel_locate(&p, g, (b * g->sh.s1 + r0) * g->sh.s0 + c0, first);
    if (CLSEL_COND == CLSEL_READ_TILED)
        clsel_cond_tile_load(&t->cond, l->cond, p.off.x, cols, lid);
    if (CLSEL_THEN == CLSEL_READ_TILED)
        clsel_tile_load(&t->then_, l->then_, p.off.y, cols, lid);
    if (CLSEL_ELSE == CLSEL_READ_TILED)
        clsel_tile_load(&t->else_, l->else_, p.off.z, cols, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint r = lid / CLSEL_TILE_ITEMS, c = lid % CLSEL_TILE_ITEMS * CLSEL_V;
    if (r < rows && c < cols)
        clsel_tile_item(t, l, p.off + (int)c * g->st0 + (int)r * g->st1, c, r,
                        min((uint)CLSEL_V, cols - c));
}
#define CLSEL_KERNEL_ATTRIBUTES __attribute__((reqd_work_group_size(CLSEL_TILE_GROUP, 1, 1)))
#else
#define CLSEL_KERNEL_ATTRIBUTES
#endif

/* ---- the kernel ------------------------------------------------------------------------------ */

CLSEL_KERNEL_ATTRIBUTES kernel void CLSEL_KERNEL_NAME(CLSEL_PARAMS(clsel_elem))
{
#if CLSEL_TILES /* local memory is declared at a kernel's scope */
#if CLSEL_COND == CLSEL_READ_TILED
    local clsel_cond_column cond_tile[CLSEL_TILE_COLS];
#else
    local clsel_cond_column *const cond_tile = 0;
#endif
#if CLSEL_THEN == CLSEL_READ_TILED
    local clsel_tile_column then_tile[CLSEL_TILE_COLS];
#else
    local clsel_tile_column *const then_tile = 0;
#endif
#if CLSEL_ELSE == CLSEL_READ_TILED
    local clsel_tile_column else_tile[CLSEL_TILE_COLS];
#else
    local clsel_tile_column *const else_tile = 0;
#endif
    (void)step_at, (void)step_off, (void)n;
#else
    (void)tiles;
    const uint lanes = (uint)get_local_size(0), items = (n + CLSEL_V - 1) >> CLSEL_LOG2_V,
               whole = n >> CLSEL_LOG2_V;
    const uint item0 = (uint)get_group_id(0) * lanes * CLSEL_K + (uint)get_local_id(0);
    if (item0 >= items)
        return;
#endif
    clsel_geometry geometry;
    clsel_geometry_set(&geometry, shape, div_mul, div_shift, strides_lo, strides_hi, carries_lo,
                       carries_hi);
    const clsel_geometry *g = &geometry;
#ifdef CLSEL_CODEGEN_LAYOUT /* the code-generation check: the layout of the plan it compiles, as \
                               the host passes it */
    const uint tensor_layout = CLSEL_CODEGEN_LAYOUT;
    (void)layout;
#else
    const uint tensor_layout = layout;
#endif
    clsel_tensors t = {
        {cond + cond_origin, windows.x, tails.x,
         clsel_dense(CLSEL_COND, tensor_layout & CLSEL_DENSE_BIT(0)),
         tensor_layout & CLSEL_UNIFORM_BIT(0), g->st0.x, (uint4)0,
         tensor_layout & CLSEL_SWAP_BIT ? 0xFFFFFFFFu : 0u},
        {then_ + then_origin, windows.y, tails.y,
         clsel_dense(CLSEL_THEN, tensor_layout & CLSEL_DENSE_BIT(1)),
         tensor_layout & CLSEL_UNIFORM_BIT(1), g->st0.y, (uint4)0},
        {else_ + else_origin, windows.z, tails.z,
         clsel_dense(CLSEL_ELSE, tensor_layout & CLSEL_DENSE_BIT(2)),
         tensor_layout & CLSEL_UNIFORM_BIT(2), g->st0.z, (uint4)0},
        {out + out_origin,
         clsel_dense(CLSEL_OUT == CLSEL_WRITE_ROWS ? CLSEL_READ_ROWS : CLSEL_READ_STRIDED,
                     tensor_layout & CLSEL_DENSE_BIT(3)),
         g->st0.w}};
    /* A dense kernel reads its tensors by item index and its last items element by element, never a
     * partial window. */
    if (!CLSEL_DENSE && (tensor_layout & CLSEL_SHORT_BITS)) {
        if (tensor_layout & CLSEL_SHORT_BIT(0))
            t.cond.end = clsel_partial_window(t.cond.c + ((size_t)t.cond.windows << CLSEL_LOG2_V),
                                              t.cond.tail, CLSEL_V);
        if (tensor_layout & CLSEL_SHORT_BIT(1))
            t.then_.end = clsel_partial_window(
                (global const uchar *)(t.then_.x + ((size_t)t.then_.windows << CLSEL_LOG2_V)),
                t.then_.tail, 16);
        if (tensor_layout & CLSEL_SHORT_BIT(2))
            t.else_.end = clsel_partial_window(
                (global const uchar *)(t.else_.x + ((size_t)t.else_.windows << CLSEL_LOG2_V)),
                t.else_.tail, 16);
    }
#if CLSEL_TILES
    const clsel_tile_locals locals = {cond_tile, then_tile, else_tile};
    clsel_tiles(&t, g, &locals, first, tiles);
#else
    clsel_place first_place;
    const clsel_place step = {step_at.s0, step_at.s1, step_at.s2, step_at.s3, step_at.s4,
                              step_at.s5, step_at.s6, step_at.s7, step_off};
    clsel_locate(&first_place, g, item0 << CLSEL_LOG2_V, first);

    /* Where each item lies and whether it is in one row; whether all are whole (the last is). */
    clsel_place p = first_place;
    int4 off[CLSEL_K];
    uint in_row = 0;
#pragma unroll
    for (uint k = 0; k < CLSEL_K; ++k) {
        if (k > 0)
            clsel_advance(&p, g, &step);
        off[k] = p.off;
        in_row |= (uint)clsel_in_row(&p, g) << k;
    }
#ifdef CLSEL_CODEGEN_MAIN_PATH
    /* For the code-generation check only (tests/system/gpu_codegen.py): every work-item takes the
     * path of items all whole and in one row, so that the kernel's instructions are that path's. */
    (void)whole, (void)in_row;
    clsel_items_in_rows(&t, off, item0, lanes);
    return;
#endif
    if (item0 + (CLSEL_K - 1) * lanes < whole && in_row == (1u << CLSEL_K) - 1) {
        clsel_items_in_rows(&t, off, item0, lanes);
        return;
    }
    /* Otherwise one item at a time (a loop that is not unrolled keeps the other paths in the kernel
     * once). */
    p = first_place;
#pragma unroll 1
    for (uint k = 0; k < CLSEL_K; ++k) {
        const uint item = item0 + k * lanes;
        if (item >= items)
            break;
        if (item < whole && (in_row & (1u << k)))
            clsel_item_in_row(&t, p.off, item);
        else
            clsel_item_other(&t, g, p, min((uint)CLSEL_V, n - (item << CLSEL_LOG2_V)));
        clsel_advance(&p, g, &step);
    }
#endif
}
