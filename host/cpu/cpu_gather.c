/* cpu_gather.c - the CPU path's gather: one input's elements for one block, in block
 * order, into a small buffer that the select loop then reads as a contiguous run.
 *
 * The block's dims are walked from the outermost down. The innermost dims over which
 * the input is contiguous (or broadcast) make one run, moved with a few wide loads and
 * stores; a dim along which the input is broadcast is built once and then copied, so
 * that a broadcast input costs little more than the copies; any other dim repeats the
 * walk below it at the next source offset. Short rows make the runs short (a [N,1]
 * input against [N,24] is a run of 24 bytes per row), so the loops over runs are
 * specialised on the element width and on runs of at most 16 or 32 bytes: a run is
 * then one or two stores, not a loop. Where runs are shorter still, or copied along a
 * dim (an element repeated over a short dim, a short row tiled, or both), the inner
 * levels become one periodic shuffle: a table of 16-byte pieces, each a byte shuffle
 * of one or two source loads at fixed offsets (choose_shuffle). */
#include <string.h>

#include "common/element_width.h"
#include "common/tuning_constants.h" /* CPU_SHUFFLE_PIECES */
#include "cpu/cpu_gather.h"

/* Moves k bytes through registers (loads before stores, so the two may overlap). */
#define MOVE(dst, src, k)         \
    do {                          \
        uint8_t moved_[k];        \
        memcpy(moved_, (src), k); \
        memcpy((dst), moved_, k); \
    } while (0)

/* Exactly n bytes from src to dst, in overlapping wide moves (no byte past either end
 * is touched: the source may end right there). */
static inline void copy_run(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n >= 32) {
        size_t i = 0;
        for (; i + 32 <= n; i += 32) MOVE(dst + i, src + i, 32);
        if (i < n) MOVE(dst + n - 32, src + n - 32, 32);
    } else if (n >= 16) {
        MOVE(dst, src, 16);
        MOVE(dst + n - 16, src + n - 16, 16);
    } else if (n >= 8) {
        MOVE(dst, src, 8);
        MOVE(dst + n - 8, src + n - 8, 8);
    } else if (n >= 4) {
        MOVE(dst, src, 4);
        MOVE(dst + n - 4, src + n - 4, 4);
    } else if (n >= 2) {
        MOVE(dst, src, 2);
        MOVE(dst + n - 2, src + n - 2, 2);
    } else if (n) {
        *dst = *src;
    }
}

/* The loops over `n` runs of g->run_bytes each, the k-th read at src + k * step and
 * written right after the one before. Splats (one element repeated) write whole 16- or
 * 32-byte stores, up to 31 bytes past a run's end: the buffer has CPU_GATHER_SLACK bytes
 * of room, and what lands past a run is overwritten by the next one. */
typedef cpu_run_loop run_loop;

/* One splat loop per element width W and store reach: REACH bytes per run (16 or 32,
 * for runs at most that long: a fixed count of 8-byte stores the compiler unrolls), or
 * with REACH 0 the run's own length rounded up to 8 bytes. */
#define SPLAT_LOOP(NAME, W, T, REPEAT, REACH)                                                                 \
    static void NAME(const cpu_gather_walk *g, uint8_t *restrict dst, const uint8_t *restrict src, int64_t n, \
                     int64_t step, const uint8_t *src_end)                                                    \
    {                                                                                                         \
        (void)src_end;                                                                                        \
        const size_t bytes = g->run_bytes, reach = REACH ? REACH : bytes;                                     \
        for (int64_t k = 0; k < n; ++k, src += step, dst += bytes) {                                          \
            T v;                                                                                              \
            memcpy(&v, src, W);                                                                               \
            const uint64_t p = (uint64_t)v * REPEAT;                                                          \
            for (size_t i = 0; i < reach; i += 8) memcpy(dst + i, &p, 8);                                     \
        }                                                                                                     \
    }
#define SPLAT_RUNS(W, T, REPEAT)                  \
    SPLAT_LOOP(splat16_##W, W, T, REPEAT, 16)     \
    SPLAT_LOOP(splat32_##W, W, T, REPEAT, 32)     \
    SPLAT_LOOP(splat_##W, W, T, REPEAT, 0)

SPLAT_RUNS(1, uint8_t, 0x0101010101010101ull)
SPLAT_RUNS(2, uint16_t, 0x0001000100010001ull)
SPLAT_RUNS(4, uint32_t, 0x0000000100000001ull)
SPLAT_RUNS(8, uint64_t, 1ull)

/* Runs of up to 32 bytes: one 32-byte move while the source has 32 bytes left (the
 * bytes past the run are written into the buffer's room, then overwritten), else an
 * exact copy. */
static void copy32(const cpu_gather_walk *g, uint8_t *restrict dst, const uint8_t *restrict src, int64_t n,
                   int64_t step, const uint8_t *src_end)
{
    const size_t bytes = g->run_bytes;
    for (int64_t k = 0; k < n; ++k, src += step, dst += bytes) {
        if (src_end - src >= 32)
            MOVE(dst, src, 32);
        else
            copy_run(dst, src, bytes);
    }
}

static void copy_any(const cpu_gather_walk *g, uint8_t *restrict dst, const uint8_t *restrict src, int64_t n,
                     int64_t step, const uint8_t *src_end)
{
    (void)src_end;
    const size_t bytes = g->run_bytes;
    for (int64_t k = 0; k < n; ++k, src += step, dst += bytes) copy_run(dst, src, bytes);
}

static run_loop pick_run_loop(int copies, size_t w, size_t bytes)
{
    static const run_loop splats[3][4] = {{splat16_1, splat16_2, splat16_4, splat16_8},
                                          {splat32_1, splat32_2, splat32_4, splat32_8},
                                          {splat_1, splat_2, splat_4, splat_8}};
    const int wi = clsel_priv_width_index(w);
    if (copies) return bytes <= 32 ? copy32 : copy_any;
    return splats[bytes <= 16 ? 0 : bytes <= 32 ? 1 : 2][wi];
}

/* One element of w bytes (1, 2, 4 or 8) repeated over 8 bytes. */
static inline uint64_t repeated(const uint8_t *src, size_t w)
{
    static const uint64_t spread[9] = {0, 0x0101010101010101ull, 0x0001000100010001ull, 0, 0x0000000100000001ull,
                                       0, 0, 0, 1};
    uint64_t v = 0;
    memcpy(&v, src, w); /* little-endian: the low w bytes */
    return v * spread[w];
}

/* dst[0, size) copied n - 1 more times after itself; up to 31 bytes past the end may be
 * written (as by the splats). A pattern of 1, 2, 4 or 8 bytes is spread over a register
 * and stored 32 bytes at a time; other short ones are built up to 64 bytes byte by byte
 * (wide loads of something just stored in smaller pieces stall the store forwarding)
 * and written in 32-byte windows that start on pattern boundaries; longer ones are
 * copied with memcpy, doubling the copied part each time. */
static void replicate(uint8_t *dst, size_t size, int64_t n)
{
    const size_t total = size * (size_t)n;
    if (size <= 8 && (size & (size - 1)) == 0) {
        const uint64_t p = repeated(dst, size);
        for (size_t at = size; at < total; at += 32) {
            memcpy(dst + at, &p, 8);
            memcpy(dst + at + 8, &p, 8);
            memcpy(dst + at + 16, &p, 8);
            memcpy(dst + at + 24, &p, 8);
        }
    } else if (size <= 32) {
        /* the pattern doubled up to 64 bytes or more (a byte loop with a division per
         * byte cost 5 instructions per output byte) */
        uint8_t pattern[128];
        memcpy(pattern, dst, size);
        for (size_t have = size; have < 64; have *= 2) memcpy(pattern + have, pattern, have);
        const size_t advance = 32 / size * size;
        for (size_t at = size; at < total; at += advance) memcpy(dst + at, pattern, 32);
    } else {
        for (size_t have = size; have < total;) {
            size_t chunk = total - have < have ? total - have : have;
            memcpy(dst + have, dst, chunk);
            have += chunk;
        }
    }
}

/* ---- periodic shuffles -------------------------------------------------------------- */

/* The table of `rows` runs of `run` bytes (levels [0, levels)), each `step` source
 * bytes after the one before; bytes past the last run repeat its last byte's source.
 * 0 where a piece's source bytes span more than two loads' window of 32 bytes. Where
 * all the table's bytes lie in one such window, every piece reads that one (loaded
 * once per table). The source offsets are walked in order (an odometer over the
 * levels, no division per byte): a table is made for every walk, so it must
 * cost little. */
static int build_shuffle(const cpu_gather_walk *g, int levels, int64_t run, int64_t rows, int64_t step,
                         cpu_shuffle_table *t)
{
    const int64_t bytes = rows * run, pieces = (bytes + 15) / 16, w = (int64_t)g->w;
    if (pieces > CPU_SHUFFLE_PIECES) return 0;
    int64_t at[CPU_SHUFFLE_PIECES][16], lo[CPU_SHUFFLE_PIECES], hi[CPU_SHUFFLE_PIECES];
    int64_t index[CLSEL_MAX_RANK + 2] = {0};
    int64_t row = 0, in_run = 0, in_element = 0, element_at = 0, last = 0, all_lo = INT64_MAX, all_hi = INT64_MIN;
    for (int64_t c = 0; c < pieces; ++c) {
        lo[c] = INT64_MAX, hi[c] = INT64_MIN;
        for (int j = 0; j < 16; ++j) {
            if (16 * c + j < bytes) {
                last = row * step + element_at + in_element;
                if (++in_element == w) { /* the next element: the odometer's next index */
                    in_element = 0;
                    int level = 0;
                    while (level < levels && ++index[level] == g->extent[level]) {
                        element_at -= (g->extent[level] - 1) * g->step[level];
                        index[level++] = 0;
                    }
                    if (level < levels) element_at += g->step[level];
                }
                if (++in_run == run) in_run = 0, ++row;
            }
            at[c][j] = last;
            lo[c] = last < lo[c] ? last : lo[c];
            hi[c] = last > hi[c] ? last : hi[c];
        }
        if (hi[c] - lo[c] >= 32) return 0;
        all_lo = lo[c] < all_lo ? lo[c] : all_lo;
        all_hi = hi[c] > all_hi ? hi[c] : all_hi;
    }
    t->pieces = (int)pieces;
    t->shared = all_hi - all_lo < 32;
    t->rows = rows;
    t->advance = rows * step;
    t->reach = 0;
    for (int64_t c = 0; c <= pieces; ++c) { /* piece `pieces`: the pair's spare, a copy of the last */
        const int64_t k = c < pieces ? c : pieces - 1, base = t->shared ? all_lo : lo[k];
        t->from[c] = base;
        t->two[c] = (t->shared ? all_hi : hi[k]) - base >= 16;
        for (int j = 0; j < 16; ++j) {
            const int64_t d = at[k][j] - base;
            t->order[0][c][j] = (uint8_t)(d < 16 ? d : 0x80);
            t->order[1][c][j] = (uint8_t)(d >= 16 ? d - 16 : 0x80);
        }
        const int64_t reach = base + (t->two[c] ? 32 : 16);
        t->reach = reach > t->reach ? reach : t->reach;
    }
    return 1;
}

/* The shuffle table the input's period allows (cpu_period: an element repeated over a
 * short dim, a short row tiled, or both interleaved: 20,000 rows of [8,1] f32 against
 * [1,5] ran at 6 % of memcpy as runs of 20 bytes, each row's tile rebuilt): the most
 * levels whose every 16-byte piece comes from a 32-byte window of the source. The level
 * above them steps from one run to the next, and a table over several runs makes a
 * whole number of pieces where their windows allow. The block's levels below `inner`
 * are the space's dims one for one (it has no dim of 1). */
static int choose_shuffle(cpu_gather_walk *g, const cpu_period *p, const cpu_loops *loops)
{
    if (!p->most || !loops->shuffle) return 0;
    int64_t runs[CLSEL_MAX_RANK + 3];
    runs[0] = (int64_t)g->w;
    for (int level = 0; level < p->most; ++level) runs[level + 1] = runs[level] * g->extent[level];
    int best = p->most;
    while (best >= p->fewest && !build_shuffle(g, best, runs[best], 1, 0, &g->row)) --best;
    if (best < p->fewest) return 0;
    const int64_t run = runs[best];
    const int64_t step = best < g->levels ? g->step[best] : 0;
    int64_t rows = 1;
    while (rows * run % 16) ++rows; /* 16 / gcd(run, 16) */
    g->group.rows = 0; /* build_shuffle sets it only where the windows fit */
    if (rows > 1 && step) build_shuffle(g, best, run, rows, step, &g->group);
    g->row.advance = step;
    g->run_levels = best;
    g->run_bytes = (size_t)run;
    g->shuffled = 1;
    return 1;
}

void clsel_priv_cpu_gather_prepare(const cpu_blocks *b, int op, size_t w, const cpu_loops *loops, cpu_gather_walk *g)
{
    const plan_iter *it = b->it;
    g->levels = 0;
    g->w = w;
    g->split_level = -1;
    for (int32_t d = 0; d <= b->inner && d < it->rank; ++d) {
        const int64_t extent = d < b->inner ? it->dims[d] : b->split;
        if (extent == 1) continue;
        if (d == b->inner) g->split_level = g->levels;
        g->extent[g->levels] = extent;
        g->step[g->levels] = it->strides[op][d] * (int64_t)w;
        ++g->levels;
    }
    /* The run and the table, as cpu_period describes them (the levels below `inner` are
     * its dims; a level that splits the dim `inner` stays out of both, since its extent
     * changes from block to block). */
    cpu_period p;
    clsel_priv_cpu_period(b, op, w, &p);
    g->run_copies = g->levels > 0 && p.copies;
    g->run_levels = p.run_dims;
    g->run_bytes = (size_t)p.run_bytes;
    const size_t element = p.element;
    g->shuffled = 0;
    choose_shuffle(g, &p, loops);
    /* Levels above the run that continue one another (the next one's step is this one's
     * whole extent) are one level: one call of the run loop covers both. The split
     * dim's level keeps what multiplies its per-block extent. */
    int kept = g->run_levels, split_level = -1;
    g->split_scale = 1;
    for (int level = g->run_levels; level < g->levels; ++level) {
        if (kept > g->run_levels && g->step[level] == g->step[kept - 1] * g->extent[kept - 1]) {
            if (level == g->split_level) split_level = kept - 1, g->split_scale = g->extent[kept - 1];
            g->extent[kept - 1] *= g->extent[level];
            continue;
        }
        if (level == g->split_level) split_level = kept;
        g->extent[kept] = g->extent[level];
        g->step[kept] = g->step[level];
        ++kept;
    }
    g->levels = kept;
    if (g->split_level >= g->run_levels) g->split_level = split_level;
    g->size[g->run_levels] = (int64_t)g->run_bytes;
    for (int level = g->run_levels + 1; level <= g->levels; ++level)
        g->size[level] = g->size[level - 1] * g->extent[level - 1];
    g->element = element;
    const run_loop fast = g->shuffled ? loops->shuffle : loops->run_loop ? loops->run_loop(g) : NULL;
    g->runs = fast ? fast : pick_run_loop(g->run_copies, element, g->run_bytes);
}

static void gather_level(const cpu_gather_walk *g, int level, const uint8_t *src, uint8_t *dst,
                         const uint8_t *src_end)
{
    const int64_t n = g->extent[level], step = g->step[level], size = g->size[level];
    if (level == g->run_levels) {
        g->runs(g, dst, src, step ? n : 1, step, src_end);
        if (!step) replicate(dst, (size_t)size, n);
    } else if (step == 0) { /* broadcast along this dim: build one index, copy it */
        gather_level(g, level - 1, src, dst, src_end);
        replicate(dst, (size_t)size, n);
    } else {
        for (int64_t i = 0; i < n; ++i) gather_level(g, level - 1, src + i * step, dst + i * size, src_end);
    }
}

void clsel_priv_cpu_gather(cpu_gather_walk *g, int64_t split, const uint8_t *src, const uint8_t *src_end, uint8_t *dst)
{
    if (g->split_level >= 0) g->extent[g->split_level] = split * g->split_scale;
    if (g->run_levels == g->levels) { /* the whole block is one run */
        g->runs(g, dst, src, 1, 0, src_end);
        return;
    }
    gather_level(g, g->levels - 1, src, dst, src_end);
}
