/* select.cl - clsel's kernel: out = cond ? then : else, bit for bit. OpenCL C 1.2, no extensions: elements move as
 * unsigned integers of their width (f16, bf16, f64 need no extension; NaN payloads and -0.0 pass unchanged); cond is
 * one byte, nonzero = true. The build options (cl/select_contract.h) make one kernel: an element width, the number of
 * dims it walks, how it reads each input and how it writes the output.
 *
 * The kernel gets the host's iteration space (host/plan/plan_iter.h), never broadcasting: dims innermost first and
 * each tensor's element strides along them. Output elements go in items of 16 bytes (V = 16 / W elements); a
 * work-item takes CLSEL_ITEMS of them, one work-group's width apart (so that neighbouring work-items touch
 * neighbouring bytes), finds the first by dividing its index by the dims (multipliers, no division instruction) and
 * the others by adding the same step to an odometer. It does its items in three passes, so that the loads of all of
 * them are in flight together: cond of each item (or, where cond is one element for the launch or along the row, which
 * input each item takes), then the inputs each item needs (only the chosen one where cond is the same for the whole
 * item), then the selection and the 16-byte stores. An input is read as aligned 16-byte windows (V bytes of cond)
 * shifted into place, a repeated element, or element by element where its stride along the row says so.
 *
 * Items that cross a row, and the short last item, take other paths: across one row end (rows of V elements or more)
 * each input's two runs are read as windows and merged under a byte mask; shorter rows, strided inputs and the last
 * item go element by element. Index math is 32-bit: the host splits runs into pieces whose offsets fit. */

/* Helpers inlined into the kernel, so that its constants specialise them and their values stay in registers. */
#define CLSEL_INLINE static inline __attribute__((always_inline))

/* Per width: the element, V and log2 V, cond's V bytes as words (the type of its windows), an element repeated over
 * 16 bytes and cond's mask (all ones for each element whose cond byte is nonzero: a compare of V bytes, sign-extended
 * to the element's width; for 16 bytes of u8 the same by word arithmetic, which NVPTX does in 4 words rather than 16
 * bytes). 16-byte values are uint4 from load to store: uchar16 and the like reach NVPTX split into 4-byte accesses. */
#define CLSEL_NONZERO(w) ((((w) & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | (w)) /* bit 7 of each byte: byte != 0 */
#if CLSEL_WIDTH == 1
typedef uchar clsel_elem;
#define CLSEL_V 16
#define CLSEL_LOG2_V 4
typedef uint4 clsel_cond_words;
#define CLSEL_SPLAT(x) ((uint4)((uint)(x) * 0x01010101u))
CLSEL_INLINE uint4 clsel_mask(uint4 c) { return ((CLSEL_NONZERO(c) >> 7) & 0x01010101u) * 0xFFu; }
#elif CLSEL_WIDTH == 2
typedef ushort clsel_elem;
#define CLSEL_V 8
#define CLSEL_LOG2_V 3
typedef uint2 clsel_cond_words;
#define CLSEL_SPLAT(x) ((uint4)((uint)(x) * 0x00010001u))
CLSEL_INLINE uint4 clsel_mask(uint2 c) { return as_uint4(convert_short8(as_uchar8(c) != (uchar8)0)); }
#elif CLSEL_WIDTH == 4
typedef uint clsel_elem;
#define CLSEL_V 4
#define CLSEL_LOG2_V 2
typedef uint clsel_cond_words;
#define CLSEL_SPLAT(x) ((uint4)(x))
CLSEL_INLINE uint4 clsel_mask(uint c) { return as_uint4(convert_int4(as_uchar4(c) != (uchar4)0)); }
#elif CLSEL_WIDTH == 8
typedef ulong clsel_elem;
#define CLSEL_V 2
#define CLSEL_LOG2_V 1
typedef ushort clsel_cond_words;
#define CLSEL_SPLAT(x) as_uint4((ulong2)(x))
CLSEL_INLINE uint4 clsel_mask(ushort c) { return as_uint4(convert_long2(as_uchar2(c) != (uchar2)0)); }
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
    const uint word = (k * CLSEL_WIDTH) >> 2 == 0 ? v.x : (k * CLSEL_WIDTH) >> 2 == 1 ? v.y
                      : (k * CLSEL_WIDTH) >> 2 == 2 ? v.z : v.w;
    return (clsel_elem)(word >> (((k * CLSEL_WIDTH) & 3) * 8));
#endif
}

/* 16 bytes held as words with their first element dropped and x put after their last: V of these in a row leave
 * the V elements in order, by moves of constant lanes only (a private array indexed in a loop would live in memory;
 * shifts of words by constants become funnel-shift intrinsics that Oclgrind cannot run). */
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

/* 16 bytes of the 32 that lo and hi hold, from byte `b` (0 <= b < 16) on: two aligned windows shifted into place.
 * Whole words move by selects, then each word takes its bits from two neighbours (a funnel shift, one instruction on
 * NVIDIA and AMD); b = 0 gives lo. */
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

/* x / d for x < 2^31, as (mul_hi(x, m) + x) >> s with the host's m and s for d (the method of PyTorch's
 * IntegerDivider, aten/src/ATen/cuda/detail/IntegerDivider.cuh). */
#define CLSEL_DIV(x, m, s) ((mul_hi((x), (m)) + (x)) >> (s))

/* The geometry: the dims and their dividers; per dim the four tensors' strides (cond, then, else, out: st<d>) and
 * what a carry out of it adds to the offsets (cr<d>: the next dim's strides less this dim's times its size), both
 * formed once per work-item. A place in it: an element's index along each dim and its offset from each tensor's origin
 * (.x cond, .y then, .z else, .w out). Vectors read by literal components, never arrays: NVIDIA's compiler kept arrays
 * in local memory, and the first kernels ran at 14-17 % of a copy on an H200. */
typedef struct clsel_geometry {
    uint8 sh, m, s;
    int4 st0, st1, st2, st3, st4, st5, st6, st7;
    int4 cr0, cr1, cr2, cr3, cr4, cr5, cr6;
} clsel_geometry;

typedef struct clsel_place {
    uint8 at;
    int4 off;
} clsel_place;

/* X(d, d + 1) for each dim d the kernel walks but the highest (dims 0 .. CLSEL_RANK - 2), and the highest. */
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
#elif CLSEL_RANK == 8
#define CLSEL_BELOW_TOP(X) X(0, 1) X(1, 2) X(2, 3) X(3, 4) X(4, 5) X(5, 6) X(6, 7)
#define CLSEL_TOP 7
#else
#error "CLSEL_RANK must be a rank class of cl/select_contract.h"
#endif
/* Components and fields of a dim given as a macro (CLSEL_TOP). */
#define CLSEL_AT(p, d) CLSEL_AT_OF(p, d)
#define CLSEL_AT_OF(p, d) ((p)->at.s##d)
#define CLSEL_ST(g, d) CLSEL_ST_OF(g, d)
#define CLSEL_ST_OF(g, d) ((g)->st##d)

/* The geometry of the kernel's arguments: per dim four components of a 16-vector (cl/select_contract.h). */
CLSEL_INLINE void clsel_geometry_set(clsel_geometry *g, uint8 sh, uint8 m, uint8 s, int16 strides_lo,
                                     int16 strides_hi, int16 carries_lo, int16 carries_hi)
{
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

/* The place of element x (the offset calculator): the index along each dim below the highest is what division by the
 * dim leaves; the highest's is what is left. */
#define CLSEL_LOCATE(d, up)                                  \
    {                                                        \
        const uint q = CLSEL_DIV(x, g->m.s##d, g->s.s##d);   \
        const uint r = x - q * g->sh.s##d;                   \
        p->at.s##d = r;                                      \
        p->off += (int)r * g->st##d;                         \
        x = q;                                               \
    }
CLSEL_INLINE void clsel_locate(clsel_place *p, const clsel_geometry *g, uint x, int4 from)
{
    p->at = (uint8)0;
    p->off = from;
    CLSEL_BELOW_TOP(CLSEL_LOCATE)
    CLSEL_AT(p, CLSEL_TOP) = x;
    p->off += (int)x * CLSEL_ST(g, CLSEL_TOP);
}

/* Adds a step (a place located from 0: its index along each dim and its offsets) to a place, carrying upwards as an
 * odometer: an index and a step below a dim's size sum to less than twice it, so one carry per dim is enough. */
#define CLSEL_ADD_DIM(d, up)                                          \
    {                                                                 \
        const uint sum = p->at.s##d + step->at.s##d + carry;          \
        carry = sum >= g->sh.s##d;                                    \
        p->at.s##d = carry ? sum - g->sh.s##d : sum;                  \
        p->off += carry ? g->cr##d : (int4)0;                         \
    }
CLSEL_INLINE void clsel_advance(clsel_place *p, const clsel_geometry *g, const clsel_place *step)
{
    uint carry = 0;
    p->off += step->off;
    CLSEL_BELOW_TOP(CLSEL_ADD_DIM)
    CLSEL_AT(p, CLSEL_TOP) += CLSEL_AT(step, CLSEL_TOP) + carry;
}

/* The first element of the next row: index 0 along dim 0, one more along dim 1, carried upwards. Past the last row
 * the place is beyond the launch and is not read. */
#define CLSEL_CARRY(d, up)                                    \
    if (d > 0 && p.at.s##d == g->sh.s##d) {                   \
        p.off += g->cr##d;                                    \
        p.at.s##d = 0;                                        \
        p.at.s##up += 1;                                      \
    }
CLSEL_INLINE clsel_place clsel_next_row(clsel_place p, const clsel_geometry *g)
{
#if CLSEL_RANK > 1
    p.off += g->st1 - (int)p.at.s0 * g->st0;
    p.at.s0 = 0;
    p.at.s1 += 1;
    CLSEL_BELOW_TOP(CLSEL_CARRY)
#endif
    return p;
}

/* One element on. */
CLSEL_INLINE clsel_place clsel_next_element(clsel_place p, const clsel_geometry *g)
{
    p.off += g->st0;
    p.at.s0 += 1;
    if (CLSEL_RANK > 1 && p.at.s0 == g->sh.s0) p = clsel_next_row(p, g);
    return p;
}

/* Whether the V elements from p lie in one row. */
CLSEL_INLINE int clsel_in_row(const clsel_place *p, const clsel_geometry *g)
{
    return CLSEL_RANK == 1 || g->sh.s0 - p->at.s0 >= CLSEL_V;
}

/* ---- reading ------------------------------------------------------------------------------------------------------
 * An input's V elements from offset o of an item in one row, without branches: a FIXED input's one element repeated;
 * a ROWS input's two aligned windows shifted into place (the first alone where the tensor is dense, or where the
 * elements start on a window: then the second index is the first's, so that no window past the buffer's whole ones is
 * read); a STRIDED input's elements one by one. */
CLSEL_INLINE uint4 clsel_window(global const clsel_elem *base, int w) { return ((global const uint4 *)base)[w]; }

CLSEL_INLINE clsel_cond_words clsel_cond_window(global const uchar *base, int w)
{
    return ((global const clsel_cond_words *)base)[w];
}

/* V elements from o, one by one `stride` apart (a strided input). */
CLSEL_INLINE uint4 clsel_elements(global const clsel_elem *x, int o, int stride)
{
    uint4 v = (uint4)0;
#pragma unroll
    for (uint k = 0; k < CLSEL_V; ++k) v = clsel_shift_in(v, x[o + (int)k * stride]);
    return v;
}

CLSEL_INLINE clsel_cond_words clsel_cond_elements(global const uchar *c, int o, int stride)
{
    uint4 v = (uint4)0;
#pragma unroll
    for (uint k = 0; k < CLSEL_V; ++k) {
        const uchar16 e = as_uchar16(v);
        v = as_uint4((uchar16)(e.s1234, e.s5678, e.s9abc, e.sdef, c[o + (int)k * stride]));
    }
#if CLSEL_WIDTH == 1 /* the V bytes are the last V of the 16 */
    return v;
#elif CLSEL_WIDTH == 2
    return v.zw;
#elif CLSEL_WIDTH == 4
    return v.w;
#else
    return (ushort)(v.w >> 16);
#endif
}

/* Where the tensor is dense (the kernel knows every ROWS tensor dense: CLSEL_DENSE, or its bit says so), element i
 * lies at i from its origin and item `item` is the item-th 16 bytes; elsewhere the elements start on a window (a dense tensor's always do) or are shifted into
 * place from two, or, where the second would pass the buffer's whole windows, read one by one (they all lie in the
 * buffer: an item in one row touches its V elements). */
CLSEL_INLINE uint4 clsel_read(global const clsel_elem *x, int kind, uint dense, int o, uint item, int stride,
                              uint windows)
{
    if (kind == CLSEL_READ_FIXED) return CLSEL_SPLAT(x[o]);
    if (kind == CLSEL_READ_STRIDED) return clsel_elements(x, o, stride);
    if (CLSEL_DENSE || dense) return clsel_window(x, (int)item);
    const int w = o >> CLSEL_LOG2_V, shift = o & (CLSEL_V - 1);
    uint4 v = clsel_window(x, w);
    if (shift) v = (uint)w + 1 < windows ? clsel_funnel(v, clsel_window(x, w + 1), (uint)shift * CLSEL_WIDTH)
                                         : clsel_elements(x, o, 1); /* the second window passes the buffer's end */
    return v;
}

/* cond's mask of an item in one row, read as ROWS or STRIDED. */
CLSEL_INLINE uint4 clsel_cond_mask(global const uchar *c, int kind, uint dense, int o, uint item, int stride,
                                   uint windows)
{
    if (kind == CLSEL_READ_STRIDED) return clsel_mask(clsel_cond_elements(c, o, stride));
    if (CLSEL_DENSE || dense) return clsel_mask(clsel_cond_window(c, (int)item));
    const int w = o >> CLSEL_LOG2_V, shift = o & (CLSEL_V - 1);
    clsel_cond_words words = clsel_cond_window(c, w);
    if (shift) words = (uint)w + 1 < windows ? clsel_cond_funnel(words, clsel_cond_window(c, w + 1), (uint)shift)
                                             : clsel_cond_elements(c, o, 1);
    return clsel_mask(words);
}

/* ---- writing ----------------------------------------------------------------------------------------------------- */
/* An item's 16 bytes from offset o of the output: one store where they lie on a boundary (always, in a dense output,
 * where it is the item-th 16 bytes), else one element at a time `stride` apart. */
CLSEL_INLINE void clsel_store(global clsel_elem *out, int o, uint item, int stride, uint4 v)
{
    if (CLSEL_OUT == CLSEL_WRITE_ROWS && CLSEL_DENSE) {
        ((global uint4 *)out)[item] = v;
    } else if (CLSEL_OUT == CLSEL_WRITE_ROWS && (o & (CLSEL_V - 1)) == 0) {
        *(global uint4 *)(out + o) = v;
    } else {
#pragma unroll
        for (uint k = 0; k < CLSEL_V; ++k) out[o + (int)k * stride] = clsel_get(v, k);
    }
}

/* The tensors of the launch, each at its origin, and what every item shares. */
typedef struct clsel_tensors {
    global const uchar *cond;
    global const clsel_elem *then_, *else_;
    global clsel_elem *out;
    uint cond_windows, then_windows, else_windows;
    uint cond_dense, then_dense, else_dense, out_dense; /* the dense bits, one each */
} clsel_tensors;

/* ---- the items that cross a row, the short rows and the last item, element by element ------------------------------
 * `count` elements from p (count <= V): each input's element read where the place says, picked, and written where the
 * place says (a full item of a dense output as one 16-byte store at o_first). */
CLSEL_INLINE void clsel_item_elements(const clsel_tensors *t, const clsel_geometry *g, clsel_place p, uint count,
                                      int whole_store, int o_first)
{
    uint4 v = (uint4)0;
    for (uint k = 0; k < CLSEL_V; ++k) {
        if (k >= count) break;
        const uint c = t->cond[p.off.x] != 0;
        const clsel_elem x = c ? t->then_[p.off.y] : t->else_[p.off.z];
        if (whole_store) v = clsel_shift_in(v, x);
        else t->out[p.off.w] = x;
        if (k + 1 < count) p = clsel_next_element(p, g);
    }
    if (whole_store) *(global uint4 *)(t->out + o_first) = v;
}

/* ---- an item across row ends ---------------------------------------------------------------------------------------
 * An item's V elements lie in segments of consecutive rows: the rest of p's row, then whole rows, then the start of
 * one (two segments where rows have V elements or more). Each input's segment is read as a run of V elements from
 * as many elements before the row's as the segment lies into the item (so that its elements land in place) and kept
 * under a mask of the segment's bytes; a dense input is one run for the whole item (it goes on across rows). Returns 0,
 * having done nothing, where a run's windows would pass the buffer's whole ones or start before an origin (the caller
 * then goes element by element). */

/* All ones in the bytes of the first `split` elements: one compare of element indices (Oclgrind 21.10 ran a form
 * with a clamp and per-word shifts wrong). */
CLSEL_INLINE uint4 clsel_head_mask(uint split)
{
#if CLSEL_WIDTH == 1
    return as_uint4((uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) < (uchar16)(uchar)split);
#elif CLSEL_WIDTH == 2
    return as_uint4((ushort8)(0, 1, 2, 3, 4, 5, 6, 7) < (ushort8)(ushort)split);
#elif CLSEL_WIDTH == 4
    return as_uint4((uint4)(0, 1, 2, 3) < (uint4)split);
#else
    return as_uint4((uint4)(0, 0, 1, 1) < (uint4)split);
#endif
}

/* Whether the windows of a segment's run from o (the row's first element at o + into) lie in the buffer. */
CLSEL_INLINE int clsel_run_fits(int kind, uint dense, int o, int into, uint windows)
{
    if (kind != CLSEL_READ_ROWS || dense) return 1;
    const int from = o >= 0 ? o : o + into;
    return from >= 0 && (uint)(from >> CLSEL_LOG2_V) + 1 < windows;
}

/* V elements from o; where o lies before the origin (a row at the origin, `into` elements into the item), those from
 * the row's first element moved up by `into` elements. */
CLSEL_INLINE uint4 clsel_run(global const clsel_elem *x, int kind, int o, int into)
{
    if (kind == CLSEL_READ_FIXED) return CLSEL_SPLAT(x[o]);
    const int from = o >= 0 ? o : o + into, w = from >> CLSEL_LOG2_V, shift = from & (CLSEL_V - 1);
    uint4 v = clsel_window(x, w);
    if (shift) v = clsel_funnel(v, clsel_window(x, w + 1), (uint)shift * CLSEL_WIDTH);
    if (o < 0) v = clsel_funnel(v, v, (uint)(CLSEL_V - into) * CLSEL_WIDTH);
    return v;
}

CLSEL_INLINE uint4 clsel_cond_run(global const uchar *c, int kind, int o, int into)
{
    if (kind == CLSEL_READ_FIXED) return (uint4)(c[o] ? 0xFFFFFFFFu : 0u);
    const int from = o >= 0 ? o : o + into, w = from >> CLSEL_LOG2_V, shift = from & (CLSEL_V - 1);
    clsel_cond_words words = clsel_cond_window(c, w);
    if (shift) words = clsel_cond_funnel(words, clsel_cond_window(c, w + 1), (uint)shift);
    if (o < 0) words = clsel_cond_funnel(words, words, (uint)(CLSEL_V - into));
    return clsel_mask(words);
}

CLSEL_INLINE int clsel_item_rows(const clsel_tensors *t, const clsel_geometry *g, clsel_place p, int whole_store)
{
    const uint cd = CLSEL_COND == CLSEL_READ_ROWS && t->cond_dense, td = CLSEL_THEN == CLSEL_READ_ROWS && t->then_dense,
               ed = CLSEL_ELSE == CLSEL_READ_ROWS && t->else_dense;
    uint4 m = cd ? clsel_cond_run(t->cond, CLSEL_COND, p.off.x, 0) : (uint4)0;
    uint4 x = td ? clsel_run(t->then_, CLSEL_THEN, p.off.y, 0) : (uint4)0;
    uint4 y = ed ? clsel_run(t->else_, CLSEL_ELSE, p.off.z, 0) : (uint4)0;
    uint4 before = (uint4)0;
    uint done = 0;
    clsel_place q = p;
    for (;;) {
        const uint end = min((uint)CLSEL_V, done + g->sh.s0 - q.at.s0);
        const uint4 upto = clsel_head_mask(end), segment = upto & ~before;
        const int4 r = q.off - (int)done * g->st0; /* the runs' starts: element `done` lands in place */
        if (!clsel_run_fits(CLSEL_COND, cd, r.x, (int)done, t->cond_windows) ||
            !clsel_run_fits(CLSEL_THEN, td, r.y, (int)done, t->then_windows) ||
            !clsel_run_fits(CLSEL_ELSE, ed, r.z, (int)done, t->else_windows))
            return 0;
        if (!cd) m |= segment & clsel_cond_run(t->cond, CLSEL_COND, r.x, (int)done);
        if (!td) x |= segment & clsel_run(t->then_, CLSEL_THEN, r.y, (int)done);
        if (!ed) y |= segment & clsel_run(t->else_, CLSEL_ELSE, r.z, (int)done);
        if (end == CLSEL_V) break;
        before = upto;
        done = end;
        q = clsel_next_row(q, g);
    }
    const uint4 v = bitselect(y, x, m);
    if (whole_store) {
        *(global uint4 *)(t->out + p.off.w) = v;
        return 1;
    }
    /* An output that is not dense: each segment's elements where its row lies. */
    q = p;
    for (uint k = 0; k < CLSEL_V; ++k) {
        t->out[q.off.w] = clsel_get(v, k);
        q = clsel_next_element(q, g);
    }
    return 1;
}

/* An item that is not in one row, or not whole: across row ends as runs where no tensor is strided, else element by
 * element. A whole item of a dense output is one 16-byte store either way. */
#if CLSEL_COND == CLSEL_READ_STRIDED || CLSEL_THEN == CLSEL_READ_STRIDED || CLSEL_ELSE == CLSEL_READ_STRIDED || \
    CLSEL_OUT == CLSEL_WRITE_STRIDED
#define CLSEL_ANY_STRIDED 1
#else
#define CLSEL_ANY_STRIDED 0
#endif
CLSEL_INLINE void clsel_item_other(const clsel_tensors *t, const clsel_geometry *g, clsel_place p, uint count,
                                   uint out_dense)
{
    const int whole_store = out_dense && count == CLSEL_V;
#if CLSEL_RANK > 1 && !CLSEL_ANY_STRIDED
    if (count == CLSEL_V && clsel_item_rows(t, g, p, whole_store)) return;
#endif
    clsel_item_elements(t, g, p, count, whole_store, p.off.w);
}

/* ---- an item in one row, and a work-item's items all in rows -------------------------------------------------------
 * An item's V elements from the offsets o: cond's byte picks the input to read (from one address where both inputs
 * are read alike), or cond's mask selects between both. */
CLSEL_INLINE void clsel_item_in_row(const clsel_tensors *t, const clsel_geometry *g, int4 o, uint item)
{
    uint4 v;
    if (CLSEL_COND == CLSEL_READ_FIXED) {
        const int c = t->cond[o.x] != 0;
        if (CLSEL_THEN == CLSEL_ELSE)
            v = clsel_read(c ? t->then_ : t->else_, CLSEL_THEN, c ? t->then_dense : t->else_dense, c ? o.y : o.z, item,
                           c ? g->st0.y : g->st0.z, c ? t->then_windows : t->else_windows);
        else
            v = c ? clsel_read(t->then_, CLSEL_THEN, t->then_dense, o.y, item, g->st0.y, t->then_windows)
                  : clsel_read(t->else_, CLSEL_ELSE, t->else_dense, o.z, item, g->st0.z, t->else_windows);
    } else {
        const uint4 m = clsel_cond_mask(t->cond, CLSEL_COND, t->cond_dense, o.x, item, g->st0.x, t->cond_windows);
        v = bitselect(clsel_read(t->else_, CLSEL_ELSE, t->else_dense, o.z, item, g->st0.z, t->else_windows),
                      clsel_read(t->then_, CLSEL_THEN, t->then_dense, o.y, item, g->st0.y, t->then_windows), m);
    }
    clsel_store(t->out, o.w, item, g->st0.w, v);
}

/* Every item of the work-item whole and in one row (item k is item0 + k * lanes): cond of all of them first, then the
 * inputs, then the stores, so that the loads of all are in flight together. Where cond is a mask and every item's is
 * all true (or all false), only then (or else) is read. */
#define CLSEL_K CLSEL_ITEMS
CLSEL_INLINE void clsel_items_in_rows(const clsel_tensors *t, const clsel_geometry *g, const int4 off[CLSEL_K],
                                      uint item0, uint lanes)
{
    uint4 x[CLSEL_K], y[CLSEL_K];
    if (CLSEL_COND == CLSEL_READ_FIXED) {
        int c[CLSEL_K];
#pragma unroll
        for (uint k = 0; k < CLSEL_K; ++k) c[k] = t->cond[off[k].x] != 0;
#pragma unroll
        for (uint k = 0; k < CLSEL_K; ++k) {
            const uint item = item0 + k * lanes;
            if (CLSEL_THEN == CLSEL_ELSE)
                x[k] = clsel_read(c[k] ? t->then_ : t->else_, CLSEL_THEN, c[k] ? t->then_dense : t->else_dense,
                                  c[k] ? off[k].y : off[k].z, item,
                                  c[k] ? g->st0.y : g->st0.z, c[k] ? t->then_windows : t->else_windows);
            else
                x[k] = c[k] ? clsel_read(t->then_, CLSEL_THEN, t->then_dense, off[k].y, item, g->st0.y, t->then_windows)
                            : clsel_read(t->else_, CLSEL_ELSE, t->else_dense, off[k].z, item, g->st0.z, t->else_windows);
        }
#pragma unroll
        for (uint k = 0; k < CLSEL_K; ++k)
            clsel_store(t->out, off[k].w, item0 + k * lanes, g->st0.w, x[k]);
        return;
    }
    uint4 m[CLSEL_K], all = (uint4)0xFFFFFFFFu, any = (uint4)0;
#pragma unroll
    for (uint k = 0; k < CLSEL_K; ++k) {
        m[k] = clsel_cond_mask(t->cond, CLSEL_COND, t->cond_dense, off[k].x, item0 + k * lanes, g->st0.x, t->cond_windows);
        all &= m[k];
        any |= m[k];
    }
    const uint2 both = all.xy & all.zw, either = any.xy | any.zw;
    const int then_only = (both.x & both.y) == 0xFFFFFFFFu, else_only = (either.x | either.y) == 0;
#pragma unroll
    for (uint k = 0; k < CLSEL_K; ++k) x[k] = y[k] = (uint4)0;
    if (!else_only) {
#pragma unroll
        for (uint k = 0; k < CLSEL_K; ++k)
            x[k] = clsel_read(t->then_, CLSEL_THEN, t->then_dense, off[k].y, item0 + k * lanes, g->st0.y, t->then_windows);
    }
    if (!then_only) {
#pragma unroll
        for (uint k = 0; k < CLSEL_K; ++k)
            y[k] = clsel_read(t->else_, CLSEL_ELSE, t->else_dense, off[k].z, item0 + k * lanes, g->st0.z, t->else_windows);
    }
#pragma unroll
    for (uint k = 0; k < CLSEL_K; ++k)
        clsel_store(t->out, off[k].w, item0 + k * lanes, g->st0.w, bitselect(y[k], x[k], m[k]));
}

/* ---- the kernel -------------------------------------------------------------------------------------------------- */
kernel void CLSEL_KERNEL_NAME(CLSEL_PARAMS(clsel_elem))
{
    const uint lanes = (uint)get_local_size(0), items = (n + CLSEL_V - 1) >> CLSEL_LOG2_V, whole = n >> CLSEL_LOG2_V;
    const uint item0 = (uint)get_group_id(0) * lanes * CLSEL_K + (uint)get_local_id(0);
    if (item0 >= items) return;
    clsel_geometry geometry;
    clsel_geometry_set(&geometry, shape, div_mul, div_shift, strides_lo, strides_hi, carries_lo, carries_hi);
    const clsel_geometry *g = &geometry;
    const clsel_tensors t = {cond + cond_origin, then_ + then_origin, else_ + else_origin, out + out_origin,
                             cond_windows, then_windows, else_windows, CLSEL_DENSE | (dense & CLSEL_DENSE_BIT(0)),
                             CLSEL_DENSE | (dense & CLSEL_DENSE_BIT(1)), CLSEL_DENSE | (dense & CLSEL_DENSE_BIT(2)),
                             CLSEL_OUT == CLSEL_WRITE_ROWS && (CLSEL_DENSE | (dense & CLSEL_DENSE_BIT(3)))};
    clsel_place first_place;
    const clsel_place step = {step_at, step_off};
    clsel_locate(&first_place, g, item0 << CLSEL_LOG2_V, first);

    /* Where each item lies and whether it is in one row; whether all are whole (the last is). */
    clsel_place p = first_place;
    int4 off[CLSEL_K];
    uint in_row = 0;
#pragma unroll
    for (uint k = 0; k < CLSEL_K; ++k) {
        if (k > 0) clsel_advance(&p, g, &step);
        off[k] = p.off;
        in_row |= (uint)clsel_in_row(&p, g) << k;
    }
    if (item0 + (CLSEL_K - 1) * lanes < whole && in_row == (1u << CLSEL_K) - 1) {
        clsel_items_in_rows(&t, g, off, item0, lanes);
        return;
    }
    /* Otherwise one item at a time (a loop that is not unrolled keeps the other paths in the kernel once). */
    p = first_place;
#pragma unroll 1
    for (uint k = 0; k < CLSEL_K; ++k) {
        const uint item = item0 + k * lanes;
        if (item >= items) break;
        if (item < whole && (in_row & (1u << k))) clsel_item_in_row(&t, g, p.off, item);
        else clsel_item_other(&t, g, p, min((uint)CLSEL_V, n - (item << CLSEL_LOG2_V)), t.out_dense);
        clsel_advance(&p, g, &step);
    }
}
