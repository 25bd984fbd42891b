/* select_blocks.cl - the blocks family, for CPU devices (PoCL): kernels
 * clsel_blocks_wW_CTE and clsel_blocks_wW_pick (cl/select_contract.h names them).
 *
 * One work-item per work-group walks a range of the plan's blocks. A CPU compiler turns
 * a work-item's loops into ordinary vector loops, so each block is one pass of a select
 * loop over contiguous runs: an input that is a contiguous run of the block is read where
 * it is (its variant bit 1); any other (a pattern, or one element for the whole block;
 * bit 0) is first gathered into the work-group's local memory and kept there while the
 * following blocks read the same elements. C, T, E are those bits for cond, then and
 * else; clsel_blocks_wW_pick serves plans whose cond is one element per block (a copy or
 * a fill of the chosen input, which alone is read).
 */

/* Periodic shuffles. A gathered input whose runs are short (an element repeated over a
 * short dim, a short row tiled, both interleaved) costs a loop trip per run. But its
 * element offsets over the block are periodic: with the block dims below L as one
 * period and dim L as the row, offset(i + E) = offset(i) + step[L] (E elements per
 * period), so a group of g periods (g the fewest whose bytes are whole 16-byte chunks)
 * starts `advance` source bytes after the previous group and needs the same bytes,
 * relative to its start, as every other group. When every 16-byte chunk of a group reads
 * from a window of at most 16 source bytes, one load and one byte shuffle per chunk
 * produce it: the table holds, per chunk, the window's first byte and the shuffle's
 * control. Each work-item builds the table of each gathered input once, from the block
 * walk it already has, over as many block dims as the plan allows (host/plan/plan_period.c
 * decides where a table pays, for this family and the CPU path alike; kinds.s5-s7 carry
 * it, 0 where no table is to be made, e.g. on devices that limit a work-item's loops,
 * cl_context.h) and its 16-byte windows reach. The CPU path's AVX2 gathers use the same
 * idea (host/cpu/cpu_gather.c). CLSEL_TABLE_CHUNKS (cl/select_contract.h) bounds a
 * table. */

typedef struct {
    uint levels;  /* L: block dims inside one period; 0: no table */
    uint chunks;  /* 16-byte chunks in one group */
    uint advance; /* source bytes from one group to the next */
    uint reach;   /* source bytes a group's windows span, from the group's first */
    uint start[CLSEL_TABLE_CHUNKS];   /* per chunk: its window's first byte, from the group's */
    uchar16 mask[CLSEL_TABLE_CHUNKS]; /* per chunk: each output byte's place in the window */
} clsel_table;

/* x86 CPU devices (PoCL) get the byte shuffle as one instruction; OpenCL's shuffle()
 * compiles to a byte-by-byte loop there. Elsewhere shuffle() is the portable form. */
#ifdef __SSSE3__
#define CLSEL_SHUFFLE16(v, m) as_uchar16(__builtin_ia32_pshufb128(as_char16(v), as_char16(m)))
#else
#define CLSEL_SHUFFLE16(v, m) shuffle(v, m)
#endif

/* Builds an input's table (elements of w bytes, block dims ext/step): the largest L the
 * plan allows (`dims`: the fewest in bits 0-3, the most in bits 4-7; 0: none) whose group
 * fits CLSEL_TABLE_CHUNKS chunks and whose every chunk reads a 16-byte window. Dim L is
 * the row, so L stays below the block's dims. */
void clsel_table_build(clsel_table *t, const uint *ext, const uint *step, uint levels, uint w, uint dims)
{
    t->levels = 0;
    const uint fewest = dims & 15u, most = min(dims >> 4, levels - 1);
    if (fewest == 0) return;
    for (uint L = most; L >= fewest; --L) {
        uint bytes = w;
        for (uint l = 0; l < L && bytes <= CLSEL_TABLE_CHUNKS * 16; ++l) bytes *= ext[l];
        uint g = 1;
        while ((bytes * g) % 16) g *= 2;
        const uint chunks = bytes * g / 16;
        if (bytes > CLSEL_TABLE_CHUNKS * 16 || chunks > CLSEL_TABLE_CHUNKS) continue;
        uint at[8] = {0, 0, 0, 0, 0, 0, 0, 0}, off = 0, fits = 1;
        for (uint c = 0; c < chunks && fits; ++c) {
            uint from[16], lo = ~0u, hi = 0;
            for (uint b = 0; b < 16; b += w) {
                from[b] = off * w;
                lo = min(lo, off * w);
                hi = max(hi, off * w + w - 1);
                uint l = 0; /* the next element: inner dims as an odometer, then the row */
                for (; l < L; ++l) {
                    off += step[l];
                    if (++at[l] < ext[l]) break;
                    off -= step[l] * ext[l];
                    at[l] = 0;
                }
                if (l == L) off += step[L];
            }
            fits = hi - lo < 16;
            uchar m[16];
            for (uint b = 0; b < 16; ++b) m[b] = (uchar)(from[b - b % w] - lo + b % w);
            t->start[c] = lo;
            t->mask[c] = vload16(0, m);
        }
        if (fits) {
            t->reach = 0;
            for (uint c = 0; c < chunks; ++c) t->reach = max(t->reach, t->start[c] + 16);
            t->levels = L;
            t->chunks = chunks;
            t->advance = g * step[L] * w;
            return;
        }
    }
}

/* 16 bytes at any address: a vstore16 of uchar becomes 16 byte stores on PoCL, a store
 * through this type one unaligned vector store. */
typedef uchar16 clsel_bytes16 __attribute__((aligned(1)));

/* One row of a tabled gather: `bytes` bytes into d from s, of which `avail` source bytes
 * may be read. The groups whose windows all lie inside `avail` run unchecked (a table of
 * one chunk with its control in a register); a chunk near the input's last elements, and
 * without SPILL a last partial chunk, are copied byte by byte from the same table. */
#define CLSEL_TABLE_ROW(NAME, AS, SPILL)                                                              \
    void NAME(AS uchar *d, global const uchar *s, const clsel_table *t, uint bytes, ulong avail)        \
    {                                                                                                 \
        const uint whole = SPILL ? (bytes + 15) / 16 : bytes / 16, per = t->chunks;                   \
        const ulong safe = avail < t->reach ? 0 : t->advance ? (avail - t->reach) / t->advance + 1 : whole; \
        uint c = 0;                                                                                   \
        if (per == 1) {                                                                               \
            const uchar16 m = t->mask[0];                                                             \
            global const uchar *p = s + t->start[0];                                                  \
            for (const uint n = (uint)min(safe, (ulong)whole); c < n; ++c)                            \
                *(AS clsel_bytes16 *)(d + 16 * c) = CLSEL_SHUFFLE16(vload16(0, p + (ulong)c * t->advance), m); \
        } else {                                                                                      \
            for (ulong g = 0; g < safe && c < whole; ++g)                                             \
                for (uint j = 0; j < per && c < whole; ++j, ++c)                                      \
                    *(AS clsel_bytes16 *)(d + 16 * c) =                                               \
                        CLSEL_SHUFFLE16(vload16(0, s + g * t->advance + t->start[j]), t->mask[j]);    \
        }                                                                                             \
        for (; c < whole; ++c) { /* then chunk by chunk while the windows fit */                      \
            const ulong at = (ulong)(c / per) * t->advance + t->start[c % per];                       \
            if (at + 16 > avail) break;                                                               \
            *(AS clsel_bytes16 *)(d + 16 * c) = CLSEL_SHUFFLE16(vload16(0, s + at), t->mask[c % per]); \
        }                                                                                             \
        for (uint b = c * 16; b < bytes; ++b) {                                                       \
            const uint chunk = b / 16 % per;                                                          \
            const uchar *m = (const uchar *)&t->mask[chunk];                                          \
            d[b] = s[(ulong)(b / (per * 16)) * t->advance + t->start[chunk] + m[b % 16]];             \
        }                                                                                             \
    }
CLSEL_TABLE_ROW(clsel_table_row_local, local, 1)
CLSEL_TABLE_ROW(clsel_table_row_global, global, 0)

/* Where a block element of input X comes from: 1 a run at p (pointer advanced to the
 * block), 0 the local buffer b. */
#define CLSEL_SRC_1(p, b, i) p[i]
#define CLSEL_SRC_0(p, b, i) b[i]

/* Gathers one input (element type T, N of them to 16 bytes) for a block into
 * dst (in address space AS): the block dims of more than one index, innermost first
 * (ext, step), are split into the run (the innermost ones along which the input is
 * contiguous, or all fixed), the level above it, walked as a plain loop of runs, and
 * the levels above that, walked as an odometer; each run is a copy or a fill. SPILL: a
 * fill may end with a whole vector past the run (a local buffer has room, and the next
 * run overwrites it); without, runs are written exactly (dst may be the output). Along a dim where
 * the input is fixed, the first index is built and then copied (doubling the copied
 * part each time) rather than gathered again. */
#define CLSEL_WIDE_FILL_0
#define CLSEL_WIDE_FILL_1                                                                             \
    if (wide == 2) {                                                                                  \
        const ushort x = as_ushort(vload2(0, (global const uchar *)s));                               \
        for (uint i = 0; i < reps; ++i) ((local ushort *)d)[i] = x;                                   \
    } else if (wide == 4) {                                                                           \
        const uint x = as_uint(vload4(0, (global const uchar *)s));                                   \
        for (uint i = 0; i < reps; ++i) ((local uint *)d)[i] = x;                                     \
    } else {                                                                                          \
        const ulong x = as_ulong(vload8(0, (global const uchar *)s));                                 \
        for (uint i = 0; i < reps; ++i) ((local ulong *)d)[i] = x;                                    \
    }

#define CLSEL_TABLE_ROW_1(d, s, tab, bytes, avail) clsel_table_row_local((local uchar *)(d), s, tab, bytes, avail)
#define CLSEL_TABLE_ROW_0(d, s, tab, bytes, avail) clsel_table_row_global((global uchar *)(d), s, tab, bytes, avail)

#define CLSEL_GATHER(NAME, AS, T, N, SPILL, TABLED)                                                 \
    void NAME(AS T *dst, global const T *src, const uint *ext, const uint *step, uint levels,         \
              const clsel_table *tab, uint avail)                                                    \
    {                                                                                                 \
        uint run = 1, first = 0;                                                                      \
        int copies = levels > 0 && step[0] != 0;                                                      \
        while (first < levels && step[first] == (copies ? run : 0)) run *= ext[first++];              \
        /* A contiguous run of 2, 4 or 8 bytes repeated along the next levels is one wider      \
         * element repeated: filled as such (local buffers only, which keep runs aligned). */    \
        uint wide = 0, reps = 1;                                                                      \
        if (SPILL && copies && first < levels && step[first] == 0 &&                                  \
            (run * sizeof(T) == 2 || run * sizeof(T) == 4 || run * sizeof(T) == 8)) {                 \
            wide = run * sizeof(T);                                                                   \
            while (first < levels && step[first] == 0) reps *= ext[first++];                          \
            copies = 0;                                                                               \
        }                                                                                             \
        run *= reps;                                                                                  \
        /* With a table, a run is a row: the dims of a period and the row dim (tab->levels). */     \
        const int tabled = TABLED;                                                                    \
        if (tabled) {                                                                                 \
            for (run = 1, first = 0; first <= tab->levels; ++first) run *= ext[first];                \
            copies = 0;                                                                               \
        }                                                                                             \
        const uint across = first < levels ? ext[first] : 1;                                          \
        const uint st = first < levels && !tabled ? step[first] : 0;                                  \
        const uint runs = st ? across : 1;                                                            \
        uint at[8] = {0, 0, 0, 0, 0, 0, 0, 0};                                                        \
        uint from = 0;                                                                                \
        for (AS T *d = dst;;) {                                                                       \
            global const T *s = src + from;                                                           \
            for (uint r = 0; r < runs; ++r, s += st, d += run) {                                      \
                if (tabled) {                                                                         \
                    CLSEL_TABLE_ROW_##SPILL(d, (global const uchar *)s, tab, run * (uint)sizeof(T),   \
                                            (ulong)(avail - from) * sizeof(T));                       \
                } else if (copies) {                                                                  \
                    for (uint i = 0; i < run; ++i) d[i] = s[i];                                       \
                } else if (wide) {                                                                    \
                    CLSEL_WIDE_FILL_##SPILL                                                           \
                } else {                                                                              \
                    /* 16 bytes at a time as N element stores (a compiler merges them; a       \
                     * vstore of a char vector stays 16 byte stores on PoCL) */                      \
                    const T x = s[0];                                                                 \
                    uint i = 0;                                                                       \
                    for (; i + N <= run; i += N)                                                      \
                        for (uint j = 0; j < N; ++j) d[i + j] = x;                                    \
                    if (SPILL && i < run)                                                             \
                        for (uint j = 0; j < N; ++j) d[i + j] = x;                                    \
                    else                                                                              \
                        for (; i < run; ++i) d[i] = x;                                                \
                }                                                                                     \
            }                                                                                         \
            /* size: elements of one index of level k, the first level not walked yet */           \
            uint k = st ? first + 1 : first, size = run * runs;                                       \
            for (; k < levels; size *= ext[k++]) {                                                    \
                if (step[k] == 0) { /* index 0 of level k is complete: copy it */                     \
                    AS T *start = d - size;                                                           \
                    const uint total = size * ext[k];                                                 \
                    for (uint have = size; have < total;) {                                           \
                        const uint part = total - have < have ? total - have : have;                  \
                        for (uint i = 0; i < part; ++i) start[have + i] = start[i];                   \
                        have += part;                                                                 \
                    }                                                                                 \
                    d = start + total;                                                                \
                    continue;                                                                         \
                }                                                                                     \
                from += step[k];                                                                      \
                if (++at[k] < ext[k]) break;                                                          \
                from -= step[k] * ext[k];                                                             \
                at[k] = 0;                                                                            \
            }                                                                                         \
            if (k >= levels) return;                                                                  \
        }                                                                                             \
    }

/* Each gather twice: plain, and through the input's table (its own function, so that
 * the plain one compiles as it would without tables). */
#define CLSEL_GATHERS(W, T, N)                                           \
    CLSEL_GATHER(clsel_gather_w##W, local, T, N, 1, 0)                   \
    CLSEL_GATHER(clsel_gather_w##W##_tab, local, T, N, 1, 1)             \
    CLSEL_GATHER(clsel_gather_out_w##W, global, T, N, 0, 0)              \
    CLSEL_GATHER(clsel_gather_out_w##W##_tab, global, T, N, 0, 1)
CLSEL_GATHERS(1, uchar, 16)
CLSEL_GATHERS(2, ushort, 8)
CLSEL_GATHERS(4, uint, 4)
CLSEL_GATHERS(8, ulong, 2)

/* The walk (host/plan/plan_blocks.c), as kernel arguments (uint16 each, two uint8 halves):
 *   blk      lo: extents of the block dims, innermost first (dims below `inner`, then
 *            the split dim with `split` indices; unused 1); hi: cond's element stride
 *            along them
 *   strides  lo: then's, hi: else's
 *   lev      lo: extents of the levels of the block order, fastest first (unused 1);
 *            hi: cond's element step along them
 *   steps    lo: then's, hi: else's
 *   geo      lo: out's step along the levels; hi: s0 block dims, s1 levels, s2 the
 *            level of the split dim's blocks (8: none), s3 the split dim's position
 *            among the block dims (8: none), s4 split, s5 last split, s6 blocks, s7
 *            blocks per work-item
 *   kinds    s0-s2: how cond, then, else are read (CLSEL_ACCESS_*), s3 the
 *            block elements of one index of the split dim, s4 bytes of local memory
 *            per buffer (scratch holds three), s5-s7 the block dims cond's, then's
 *            and else's periodic shuffle table may take (host/plan/plan_period.c: the
 *            fewest in bits 0-3, the most in bits 4-7; 0: no table) */
/* A work-item's walk: blocks [first, last) in the block order; per block, its tensors'
 * element offsets and its split-dim extent; per gathered input, what its local buffer
 * holds (offset, split). */
#define CLSEL_WALK_START                                                                          \
    CLSEL_AT_OFFSETS                                                                             \
    uint ext[8], stc[8], stt[8], ste[8], sto[8], bd[8], bsc[8], bst[8], bse[8];                  \
    const uint8 geom = geo.hi;                                                                   \
    vstore8(lev.lo, 0, ext);                                                                     \
    vstore8(lev.hi, 0, stc);                                                                     \
    vstore8(steps.lo, 0, stt);                                                                   \
    vstore8(steps.hi, 0, ste);                                                                   \
    vstore8(geo.lo, 0, sto);                                                                     \
    vstore8(blk.lo, 0, bd);                                                                      \
    vstore8(blk.hi, 0, bsc);                                                                     \
    vstore8(strides.lo, 0, bst);                                                                 \
    vstore8(strides.hi, 0, bse);                                                                 \
    const uint nbd = geom.s0, levels = geom.s1, chunk = geom.s2, split_dim = geom.s3;            \
    const uint first = (uint)get_global_id(0) * geom.s7;                                         \
    if (first >= geom.s6) return;                                                                \
    const uint last = geom.s6 - first < geom.s7 ? geom.s6 : first + geom.s7;                     \
    uint at[8] = {0, 0, 0, 0, 0, 0, 0, 0};                                                       \
    uint oc = 0, ot = 0, oe = 0, oo = 0;                                                         \
    for (uint l = 0, rest = first; l < levels; ++l) {                                            \
        at[l] = rest % ext[l];                                                                   \
        rest /= ext[l];                                                                          \
        oc += at[l] * stc[l];                                                                    \
        ot += at[l] * stt[l];                                                                    \
        oe += at[l] * ste[l];                                                                    \
        oo += at[l] * sto[l];                                                                    \
    }                                                                                            \
    /* each input's last element the piece reads, and its periodic shuffle table */             \
    uint mc = 0, mt = 0, me = 0;                                                                 \
    for (uint l = 0; l < levels; ++l)                                                            \
        mc += (ext[l] - 1) * stc[l], mt += (ext[l] - 1) * stt[l], me += (ext[l] - 1) * ste[l];   \
    for (uint d = 0; d < nbd; ++d) {                                                             \
        const uint e = (d == split_dim ? geom.s5 : bd[d]) - 1;                                   \
        mc += e * bsc[d], mt += e * bst[d], me += e * bse[d];                                    \
    }                                                                                            \
    clsel_table tc, tt, te;                                                                      \
    tc.levels = tt.levels = te.levels = 0;                                                       \
    if (kinds.s0 == CLSEL_ACCESS_PATTERN) clsel_table_build(&tc, bd, bsc, nbd, 1, kinds.s5);                      \
    if (kinds.s1 == CLSEL_ACCESS_PATTERN) clsel_table_build(&tt, bd, bst, nbd, sizeof(clsel_elem), kinds.s6);     \
    if (kinds.s2 == CLSEL_ACCESS_PATTERN) clsel_table_build(&te, bd, bse, nbd, sizeof(clsel_elem), kinds.s7);     \
    local uchar *bc = scratch;                                                                   \
    uint have_c = ~0u, have_t = ~0u, have_e = ~0u, split_c = 0, split_t = 0, split_e = 0;          \
    (void)have_c, (void)have_t, (void)have_e, (void)split_c, (void)split_t, (void)split_e, (void)bc; \
    (void)mc, (void)mt, (void)me;

#define CLSEL_WALK_BLOCK                                                                          \
    const uint split = chunk < 8 && at[chunk] == ext[chunk] - 1 ? geom.s5 : geom.s4;             \
    const uint n = kinds.s3 * split;                                                             \
    if (split_dim < 8) bd[split_dim] = split;

#define CLSEL_WALK_NEXT                                                                           \
    for (uint l = 0; l < levels; ++l) {                                                          \
        if (++at[l] < ext[l]) {                                                                  \
            oc += stc[l], ot += stt[l], oe += ste[l], oo += sto[l];                              \
            break;                                                                               \
        }                                                                                        \
        oc -= (ext[l] - 1) * stc[l], ot -= (ext[l] - 1) * stt[l];                                \
        oe -= (ext[l] - 1) * ste[l], oo -= (ext[l] - 1) * sto[l];                                \
        at[l] = 0;                                                                               \
    }

/* Makes an input's local buffer hold the block's elements: a gather for a pattern, a
 * fill for one element (CLSEL_ACCESS_FIXED), nothing when it already does. */
#define CLSEL_FILL_LOCAL(GATHER, T, buf, src, off, kind, strides, have, have_split, tab, last)    \
    if (have != off || have_split < split) {                                                     \
        if (kind == CLSEL_ACCESS_FIXED) {                                                        \
            const T v = src[off];                                                                \
            for (uint i = 0; i < n; ++i) buf[i] = v;                                             \
        } else {                                                                                 \
            if (tab.levels)                                                                      \
                GATHER##_tab(buf, src + off, bd, strides, nbd, &tab, last - off + 1);            \
            else                                                                                 \
                GATHER(buf, src + off, bd, strides, nbd, &tab, last - off + 1);                  \
        }                                                                                        \
        have = off;                                                                              \
        have_split = split;                                                                      \
    }

/* The block kernel for cond, then, else read as C, T, E (1 in place, 0 from local memory). */
#define CLSEL_BLOCKS_KERNEL(W, T, C, TT, E)                                                       \
    kernel void CLSEL_KERNEL_NAME(blocks, W, C, TT, E)(CLSEL_BLOCKS_PARAMS(T))                    \
    {                                                                                            \
        CLSEL_WALK_START                                                                         \
        local T *bt = (local T *)(scratch + kinds.s4), *be = (local T *)(scratch + 2 * kinds.s4); \
        (void)bt, (void)be;                                                                      \
        for (uint b = first; b < last; ++b) {                                                    \
            CLSEL_WALK_BLOCK                                                                     \
            CLSEL_LOCAL_##C(clsel_gather_w1, uchar, bc, cond, oc, kinds.s0, bsc, have_c, split_c, tc, mc) \
            CLSEL_LOCAL_##TT(clsel_gather_w##W, T, bt, then_, ot, kinds.s1, bst, have_t, split_t, tt, mt) \
            CLSEL_LOCAL_##E(clsel_gather_w##W, T, be, else_, oe, kinds.s2, bse, have_e, split_e, te, me)  \
            global const uchar *pc = cond + oc;                                                  \
            global const T *pt = then_ + ot, *pe = else_ + oe;                                   \
            global T *po = out + oo;                                                             \
            (void)pc, (void)pt, (void)pe;                                                        \
            for (uint i = 0; i < n; ++i) {                                                       \
                const uchar c = CLSEL_SRC_##C(pc, bc, i);                                        \
                const T a = CLSEL_SRC_##TT(pt, bt, i);                                           \
                const T x = CLSEL_SRC_##E(pe, be, i);                                            \
                po[i] = c ? a : x;                                                               \
            }                                                                                    \
            CLSEL_WALK_NEXT                                                                      \
        }                                                                                        \
    }
#define CLSEL_LOCAL_1(GATHER, T, buf, src, off, kind, strides, have, have_split, tab, last)
#define CLSEL_LOCAL_0 CLSEL_FILL_LOCAL

/* cond one element per block: a copy (or fill) of the chosen input. */
#define CLSEL_PICK_KERNEL(W, T)                                                                   \
    kernel void clsel_blocks_w##W##_pick(CLSEL_BLOCKS_PARAMS(T))                                 \
    {                                                                                            \
        CLSEL_WALK_START                                                                         \
        local T *bt = (local T *)(scratch + kinds.s4), *be = (local T *)(scratch + 2 * kinds.s4); \
        for (uint b = first; b < last; ++b) {                                                    \
            CLSEL_WALK_BLOCK                                                                     \
            global T *po = out + oo;                                                             \
            const int take_then = cond[oc] != 0;                                                 \
            const uint kind = take_then ? kinds.s1 : kinds.s2;                                   \
            if (kind == CLSEL_ACCESS_RUN) {                                                      \
                global const T *s = take_then ? then_ + ot : else_ + oe;                         \
                for (uint i = 0; i < n; ++i) po[i] = s[i];                                       \
            } else if (kind == CLSEL_ACCESS_FIXED) {                                             \
                const T v = take_then ? then_[ot] : else_[oe];                                   \
                for (uint i = 0; i < n; ++i) po[i] = v;                                          \
            } else if ((take_then ? stt[0] : ste[0]) != 0) {                                    \
                /* the pattern moves with the next block: straight into the output */            \
                global const T *s = take_then ? then_ + ot : else_ + oe;                         \
                const uint *str = take_then ? bst : bse, left = take_then ? mt - ot + 1 : me - oe + 1; \
                const clsel_table *tab = take_then ? &tt : &te;                                  \
                if (tab->levels)                                                                 \
                    clsel_gather_out_w##W##_tab(po, s, bd, str, nbd, tab, left);                 \
                else                                                                             \
                    clsel_gather_out_w##W(po, s, bd, str, nbd, tab, left);                       \
            } else if (take_then) { /* the next blocks read it again: keep it */                 \
                CLSEL_FILL_LOCAL(clsel_gather_w##W, T, bt, then_, ot, 2, bst, have_t, split_t, tt, mt) \
                for (uint i = 0; i < n; ++i) po[i] = bt[i];                                      \
            } else {                                                                             \
                CLSEL_FILL_LOCAL(clsel_gather_w##W, T, be, else_, oe, 2, bse, have_e, split_e, te, me) \
                for (uint i = 0; i < n; ++i) po[i] = be[i];                                      \
            }                                                                                    \
            CLSEL_WALK_NEXT                                                                      \
        }                                                                                        \
    }

/* The variants of one width, in CLSEL_VARIANT order. */
#define CLSEL_BLOCKS_WIDTH(W, T)                                                                  \
    CLSEL_BLOCKS_KERNEL(W, T, 0, 0, 0)                                                            \
    CLSEL_BLOCKS_KERNEL(W, T, 0, 0, 1)                                                            \
    CLSEL_BLOCKS_KERNEL(W, T, 0, 1, 0)                                                            \
    CLSEL_BLOCKS_KERNEL(W, T, 0, 1, 1)                                                            \
    CLSEL_BLOCKS_KERNEL(W, T, 1, 0, 0)                                                            \
    CLSEL_BLOCKS_KERNEL(W, T, 1, 0, 1)                                                            \
    CLSEL_BLOCKS_KERNEL(W, T, 1, 1, 0)                                                            \
    CLSEL_BLOCKS_KERNEL(W, T, 1, 1, 1)                                                            \
    CLSEL_PICK_KERNEL(W, T)

#if CLSEL_WIDTH == 1
CLSEL_BLOCKS_WIDTH(1, uchar)
#elif CLSEL_WIDTH == 2
CLSEL_BLOCKS_WIDTH(2, ushort)
#elif CLSEL_WIDTH == 4
CLSEL_BLOCKS_WIDTH(4, uint)
#elif CLSEL_WIDTH == 8
CLSEL_BLOCKS_WIDTH(8, ulong)
#endif
