/* cpu_gather.c - the CPU path's gather (cpu_gather.h), walking the block's dims from the outermost
 * down. The innermost dims over which the input is contiguous (or broadcast) make one run, moved
 * with a few wide loads and stores; a dim it is broadcast along is built once and copied, so a
 * broadcast input costs little more than the copies. Short rows make short runs (a [N,1] input
 * against [N,24]: 24 bytes per row), so the run loops are specialised on the element width and on
 * runs of at most 16 or 32 bytes: one or two stores, not a loop. Runs shorter still, or copied
 * along a dim (an element repeated over a short dim, a short row tiled, or both), become one
 * periodic shuffle (choose_shuffle). */
#include <stdlib.h>
#include <string.h>

#include "common/element_width.h"
#include "cpu/cpu_gather.h"

/* Moves k bytes through registers (loads before stores, so the two may overlap). */
#define MOVE(dst, src, k)         \
    do {                          \
        uint8_t moved_[k];        \
        memcpy(moved_, (src), k); \
        memcpy((dst), moved_, k); \
    } while (0)

/* Exactly n bytes in overlapping wide moves (no byte past either end is touched: the source may end
 * right there). */
static inline void copy_run(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n >= 32) {
        size_t i = 0;
        for (; i + 32 <= n; i += 32)
            MOVE(dst + i, src + i, 32);
        if (i < n)
            MOVE(dst + n - 32, src + n - 32, 32);
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

/* Splats write up to 31 bytes past a run (CPU_GATHER_SLACK; the next run overwrites them). REACH 16
 * or 32 (runs at most that long): a fixed count of 8-byte stores the compiler unrolls; REACH 0: the
 * run's length rounded up to 8 bytes. */
#define SPLAT_LOOP(NAME, W, T, REPEAT, REACH)                                                      \
    static void NAME(const cpu_gather_walk *g, uint8_t *restrict dst, const uint8_t *restrict src, \
                     int64_t n, int64_t step, const uint8_t *src_end)                              \
    {                                                                                              \
        (void)src_end;                                                                             \
        const size_t bytes = g->run_bytes, reach = REACH ? REACH : bytes;                          \
        for (int64_t k = 0; k < n; ++k, src += step, dst += bytes) {                               \
            T v;                                                                                   \
            memcpy(&v, src, W);                                                                    \
            const uint64_t p = (uint64_t)v * REPEAT;                                               \
            for (size_t i = 0; i < reach; i += 8)                                                  \
                memcpy(dst + i, &p, 8);                                                            \
        }                                                                                          \
    }
#define SPLAT_RUNS(W, T, REPEAT)              \
    SPLAT_LOOP(splat16_##W, W, T, REPEAT, 16) \
    SPLAT_LOOP(splat32_##W, W, T, REPEAT, 32) \
    SPLAT_LOOP(splat_##W, W, T, REPEAT, 0)
SPLAT_RUNS(1, uint8_t, 0x0101010101010101ull)
SPLAT_RUNS(2, uint16_t, 0x0001000100010001ull)
SPLAT_RUNS(4, uint32_t, 0x0000000100000001ull)
SPLAT_RUNS(8, uint64_t, 1ull)

/* Runs of up to 32 bytes: one 32-byte move (past the run into the buffer's room) while the
   source has 32 bytes left. */
static void copy32(const cpu_gather_walk *g, uint8_t *restrict dst, const uint8_t *restrict src,
                   int64_t n, int64_t step, const uint8_t *src_end)
{
    const size_t bytes = g->run_bytes;
    for (int64_t k = 0; k < n; ++k, src += step, dst += bytes) {
        if (src_end - src >= 32)
            MOVE(dst, src, 32);
        else
            copy_run(dst, src, bytes);
    }
}

static void copy_any(const cpu_gather_walk *g, uint8_t *restrict dst, const uint8_t *restrict src,
                     int64_t n, int64_t step, const uint8_t *src_end)
{
    (void)src_end;
    const size_t bytes = g->run_bytes;
    for (int64_t k = 0; k < n; ++k, src += step, dst += bytes)
        copy_run(dst, src, bytes);
}

/* Runs of one element (a strided view: every other, reversed, transposed): one load and one store
 * of its width. The AVX2 set reads the two steps views make most, -w and 2w, 32 bytes at a time
 * (cpu_loops_avx2.c). */
#define ELEMENT_LOOP(W)                                                            \
    static void elements_##W(const cpu_gather_walk *g, uint8_t *restrict dst,      \
                             const uint8_t *restrict src, int64_t n, int64_t step, \
                             const uint8_t *src_end)                               \
    {                                                                              \
        (void)g, (void)src_end;                                                    \
        for (int64_t k = 0; k < n; ++k)                                            \
            memcpy(dst + k * (W), src + k * step, W);                              \
    }
ELEMENT_LOOP(1)
ELEMENT_LOOP(2)
ELEMENT_LOOP(4)
ELEMENT_LOOP(8)

/* Runs of a short row tiled along a broadcast dim (f64 [N,1,7] against [N,3,7]): each run of
 * tile_bytes (32 to CPU_TILE_RUN_MOST) read once into registers, as M pieces of 32 bytes (M =
 * tile_bytes / 32 rounded up; the last one ends at the tile's end), and stored `tiles` times, in
 * one call for all of them (a run copy and a replicate per row cost three calls per row: 41 % fewer
 * instructions on that pattern, callgrind). Every load lies within the tile; a copy of it in
 * memory, read back at an offset, waited on store forwarding every row (the f64 pattern's stores
 * ran at 1.8x the time). */
#define COPY_TILED(M)                                                                \
    static void copy_tiled_##M(const cpu_gather_walk *g, uint8_t *restrict dst,      \
                               const uint8_t *restrict src, int64_t n, int64_t step, \
                               const uint8_t *src_end)                               \
    {                                                                                \
        (void)src_end;                                                               \
        const size_t tile = g->tile_bytes, bytes = g->run_bytes;                     \
        const int64_t tiles = g->tiles;                                              \
        size_t at[M];                                                                \
        for (int i = 0; i < M; ++i)                                                  \
            at[i] = 32 * (size_t)i < tile - 32 ? 32 * (size_t)i : tile - 32;         \
        for (int64_t k = 0; k < n; ++k, src += step, dst += bytes) {                 \
            uint8_t piece[M][32];                                                    \
            for (int i = 0; i < M; ++i)                                              \
                memcpy(piece[i], src + at[i], 32);                                   \
            for (int64_t j = 0; j < tiles; ++j)                                      \
                for (int i = 0; i < M; ++i)                                          \
                    memcpy(dst + (size_t)j * tile + at[i], piece[i], 32);            \
        }                                                                            \
    }
COPY_TILED(1)
COPY_TILED(2)
COPY_TILED(3)
COPY_TILED(4)

static cpu_run_loop pick_run_loop(int copies, size_t w, size_t bytes)
{
    static const cpu_run_loop splats[3][4] = {{splat16_1, splat16_2, splat16_4, splat16_8},
                                              {splat32_1, splat32_2, splat32_4, splat32_8},
                                              {splat_1, splat_2, splat_4, splat_8}};
    static const cpu_run_loop elements[4] = {elements_1, elements_2, elements_4, elements_8};
    if (copies && bytes == w)
        return elements[clsel_priv_width_slot(w)];
    if (copies)
        return bytes <= 32 ? copy32 : copy_any;
    return splats[bytes <= 16 ? 0 : bytes <= 32 ? 1 : 2][clsel_priv_width_slot(w)];
}

/* dst[0, size) copied n - 1 more times after itself, up to 31 bytes past the end (as by the
 * splats): 1, 2, 4 or 8 bytes spread over a register, other patterns of up to 32 bytes laid in a
 * window that stays in registers (wide loads of something just stored in smaller pieces stall the
 * store forwarding), longer ones doubled with memcpy. */
static void replicate(uint8_t *dst, size_t size, int64_t n)
{
    const size_t total = size * (size_t)n;
    if (size <= 8 && (size & (size - 1)) == 0) {
        static const uint64_t spread[9] = {
            0, 0x0101010101010101ull, 0x0001000100010001ull, 0, 0x0000000100000001ull, 0, 0, 0, 1};
        uint64_t p = 0;
        memcpy(&p, dst, size); /* little-endian: the low `size` bytes, spread over 8 */
        p *= spread[size];
        for (size_t at = size; at < total; at += 32)
            for (size_t i = 0; i < 32; i += 8)
                memcpy(dst + at + i, &p, 8);
    } else if (size <= 32) {
        /* Tiles laid side by side in a window of 128 or 32 bytes, each from one 32-byte load of
         * the first (its bytes past the tile overwritten by the next); the window then stays in
         * registers, stored as whole tiles while they fit, then 32 bytes at a time. Doubling
         * with memcpy (rep movs, and `pattern` reloaded after every store to dst) cost more than
         * the stores: u8 tiles of 20 bytes, 31 a row. The gather buffer's slack makes the load
         * safe. The window with fewer stores in all, its own (one a tile, one more for a part)
         * and the copies': build + 4 total / wide_fit against build + total / fit, the divisions
         * by total multiplied out (four more divisions a call cost 20-byte tiles 5 %). 3-byte
         * tiles take 43 stores to lay 128 bytes, 11 to lay 32: u8 tiles of 3 bytes, 520 a row,
         * 71 -> 59 ns per KB (docs/tuning.md). */
        uint8_t tile[32], pattern[128 + 32];
        memcpy(tile, dst, sizeof tile);
        const size_t tiles = 32 / size, wide_tiles = 128 / size;
        const size_t fit = tiles * size, wide_fit = wide_tiles * size;
        const int64_t build = (int64_t)(tiles + (fit < 32)),
                      wide_build = (int64_t)(wide_tiles + (wide_fit < 128));
        const int wide = (wide_build - build) * (int64_t)(fit * wide_fit) <
                         (int64_t)total * ((int64_t)wide_fit - 4 * (int64_t)fit);
        const size_t span = wide ? 128 : 32;
        for (size_t at = 0; at < span; at += size)
            memcpy(pattern + at, tile, sizeof tile);
        size_t at = size;
        if (wide) {
            uint8_t window[128];
            memcpy(window, pattern, sizeof window);
            for (; at + 128 <= total; at += wide_fit)
                memcpy(dst + at, window, 128);
            for (; at < total; at += fit)
                memcpy(dst + at, window, 32);
        } else {
            uint8_t window[32];
            memcpy(window, pattern, sizeof window);
            for (; at < total; at += fit)
                memcpy(dst + at, window, 32);
        }
    } else {
        for (size_t have = size; have < total;) {
            size_t chunk = total - have < have ? total - have : have;
            memcpy(dst + have, dst, chunk);
            have += chunk;
        }
    }
}

/* Compact tiles (cpu_tile_reader): a period of copies of each tile, laid by replicate (up to 31
 * bytes past the period, where the head goes), then its first CPU_TILE_HEAD bytes again. */
static void copy_tile_head(const cpu_gather_walk *g, uint8_t *restrict dst,
                           const uint8_t *restrict src, int64_t n, int64_t step,
                           const uint8_t *src_end)
{
    (void)src_end;
    const size_t tile = g->tile_bytes, period = (size_t)g->tile_period, bytes = g->run_bytes;
    for (int64_t k = 0; k < n; ++k, src += step, dst += bytes) {
        copy_run(dst, src, tile);
        replicate(dst, tile, (int64_t)(period / tile));
        memcpy(dst + period, dst, CPU_TILE_HEAD);
    }
}

/* The elements of a table of `rows` runs (levels [0, levels)), `step` source bytes apart, as a
 * space of one tensor whose offsets are the source's, in elements: the levels, then the rows. 0
 * where the rank has no room. */
static int table_space(const cpu_gather_walk *g, int levels, int64_t rows, int64_t step,
                       plan_iter *space)
{
    if (levels + (rows > 1) > CLSEL_MAX_RANK)
        return 0;
    const int64_t w = (int64_t)g->w;
    memset(space, 0, sizeof *space);
    space->count = rows;
    for (int level = 0; level < levels; ++level) {
        space->dims[space->rank] = g->extent[level];
        space->strides[0][space->rank++] = g->step[level] / w;
        space->count *= g->extent[level];
    }
    if (rows > 1) {
        space->dims[space->rank] = rows;
        space->strides[0][space->rank++] = step / w;
    }
    return 1;
}

int clsel_priv_cpu_source_windows(const int64_t *at, int bytes, int apart, int64_t *first,
                                  int64_t *second)
{
    int64_t lo = at[0];
    for (int j = 1; j < bytes; ++j)
        lo = at[j] < lo ? at[j] : lo;
    int64_t past = INT64_MAX, hi = lo; /* the lowest byte past the first window, and the highest */
    for (int j = 0; j < bytes; ++j) {
        past = at[j] >= lo + bytes && at[j] < past ? at[j] : past;
        hi = at[j] > hi ? at[j] : hi;
    }
    *first = lo;
    *second = apart && past != INT64_MAX ? past : lo + bytes;
    if (hi >= *second + bytes)
        return 0;
    return past == INT64_MAX ? 1 : 2;
}

/* The lowest and highest of n source bytes. */
static void byte_range(const int64_t *at, int n, int64_t *lo, int64_t *hi)
{
    *lo = *hi = at[0];
    for (int j = 1; j < n; ++j) {
        *lo = at[j] < *lo ? at[j] : *lo;
        *hi = at[j] > *hi ? at[j] : *hi;
    }
}

/* Piece c's windows (first, second, two) of a table of `pieces`: the table's one window where
 * `shared`, or the pair's one 16 bytes where the lanes of a fused pair share them. Returns 0 where
 * its bytes do not fit. */
static int piece_windows(const int64_t *byte_at, int64_t c, int64_t pieces, int apart, int shared,
                         const int64_t all[2], int64_t window[2], int *two)
{
    const int windows =
        clsel_priv_cpu_source_windows(byte_at + 16 * c, 16, apart, &window[0], &window[1]);
    *two = windows == 2;
    if (shared) {
        window[0] = all[0];
        window[1] = all[0] + 16;
        *two = all[1] - all[0] >= 16;
    }
    if (apart && (c | 1) < pieces) {
        /* A fused block's pair whose 32 bytes come from one 16-byte window loads it into both
         * lanes, the same 16 bytes twice: the table's reach counts the pair's lowest window. */
        int64_t lo, hi;
        byte_range(byte_at + 16 * (c & ~(int64_t)1), 32, &lo, &hi);
        if (hi - lo < 16) {
            window[0] = lo;
            window[1] = lo + 16;
            *two = 0;
        }
    }
    return windows > 0;
}

int clsel_priv_cpu_shuffle_table_make(const int64_t *byte_at, int64_t pieces, int apart,
                                      cpu_shuffle_pair *pairs, cpu_shuffle_table *t)
{
    if (pieces < 1 || pieces > CPU_SHUFFLE_MOST_PIECES)
        return 0;
    int64_t all[2];
    byte_range(byte_at, (int)(16 * pieces), &all[0], &all[1]);
    if (all[1] + 16 > INT32_MAX)
        return 0; /* the records' offsets are 32-bit */
    t->pieces = (int)pieces;
    t->shared = !apart && all[1] - all[0] < 32;
    t->two = 0;
    t->reach = 0;
    /* pieces two at a time, an odd count's last again in the spare lane */
    for (int64_t c = 0; c < pieces + pieces % 2; ++c) {
        const int64_t piece = c < pieces ? c : pieces - 1;
        const int64_t *from = byte_at + 16 * piece;
        int64_t window[2];
        int two;
        if (!piece_windows(byte_at, piece, pieces, apart, t->shared, all, window, &two))
            return 0;
        cpu_shuffle_pair *r = &pairs[c / 2];
        const int lane = (int)(c % 2);
        r->first[lane] = (int32_t)window[0];
        r->second[lane] = (int32_t)window[1];
        r->two = lane ? r->two | two : two;
        for (int j = 0; j < 16; ++j) {
            const int in_first = from[j] < window[0] + 16;
            r->order[0][16 * lane + j] = (uint8_t)(in_first ? from[j] - window[0] : 0x80);
            r->order[1][16 * lane + j] = (uint8_t)(in_first ? 0x80 : from[j] - window[1]);
        }
    }
    /* Where either lane of a pair has a second window both read one (cpu_avx2.h, shuffle_pair):
     * counted per piece, a pair's one-window piece beside a two-window one read 16 bytes past the
     * reach, and past the input's end (fuzz_cpu, regressions/cpu/shuffle_table_past_input_end). */
    t->pairs = pairs;
    t->wide = NULL;
    for (int64_t p = 0; p < (pieces + 1) / 2; ++p) {
        const cpu_shuffle_pair *r = &pairs[p];
        int64_t reach = (r->first[0] > r->first[1] ? r->first[0] : r->first[1]) + 16;
        if (r->two) {
            const int64_t second = r->second[0] > r->second[1] ? r->second[0] : r->second[1];
            reach = second + 16 > reach ? second + 16 : reach;
        }
        t->reach = reach > t->reach ? reach : t->reach;
        t->two |= r->two;
    }
    return 1;
}

/* The table of `rows` runs of `run` bytes (levels [0, levels)), `step` source bytes apart, bytes
 * past the last run repeating its last byte's source; 0 where a piece's source spans over 32 bytes
 * (every piece reads one window where the whole table's does not). The counter walks the table's
 * elements, no division per byte: made per walk, it must be cheap. */
static int build_shuffle(const cpu_gather_walk *g, int levels, int64_t run, int64_t rows,
                         int64_t step, cpu_shuffle_pair *pairs, cpu_shuffle_table *t)
{
    const int64_t bytes = rows * run, pieces = (bytes + 15) / 16, w = (int64_t)g->w;
    plan_iter space;
    if (bytes <= 0 || pieces > CPU_SHUFFLE_PIECES || !table_space(g, levels, rows, step, &space))
        return 0;
    /* each byte's source offset, piece by piece */
    int64_t at[CPU_SHUFFLE_PIECES][16];
    int64_t *const byte_at = &at[0][0];
#ifdef __clang_analyzer__
    /* Suppression: the analyzer does not follow the walk below through every byte of the pieces
     * (`bytes` of them from the space, the rest copies of the last), and calls the reads of `at`
     * garbage; zeroed for its build only, as 4 KiB zeroed per table would cost small calls. */
    memset(at, 0, sizeof at);
#endif
    plan_counter element;
    clsel_priv_plan_counter_at(&space, 0, &element);
    /* a line of dim 0 per counter step (a call per element cost a tenth of a 250 KB run); the
     * space holds `bytes` bytes exactly */
    const int64_t line = space.rank ? space.dims[0] : 1, along = space.strides[0][0];
    int64_t filled = 0;
    while (filled < bytes) {
        for (int64_t i = 0; i < line && filled < bytes; ++i)
            for (int64_t b = 0; b < w && filled < bytes; ++b)
                byte_at[filled++] = (element.offset[0] + i * along) * w + b;
        clsel_priv_plan_counter_skip(&space, &element, line);
    }
    for (; filled < 16 * pieces; ++filled)
        byte_at[filled] = byte_at[bytes - 1];
    if (!clsel_priv_cpu_shuffle_table_make(byte_at, pieces, 0, pairs, t))
        return 0;
    t->rows = rows;
    t->advance = rows * step;
    return 1;
}

/* The shuffle table the input's period allows (cpu_period: an element repeated over a short dim, a
 * short row tiled, or both: 20,000 rows of [8,1] f32 against [1,5] ran at 6 % of memcpy as runs of
 * 20 bytes, each row's tile rebuilt): the most levels whose every 16-byte piece comes from a
 * 32-byte source window; a table over several runs makes a whole number of pieces where their
 * windows allow. Levels below `inner` are the space's dims one for one (it has no 1s). */
static int choose_shuffle(cpu_gather_walk *g, const cpu_period *p, const cpu_loops *loops)
{
    if (p->most <= 0 || !loops->shuffle)
        return 0;
    for (int level = 0; level < g->levels; ++level)
        if (g->step[level] < 0)
            return 0; /* the tables' loops bound their loads for sources walked forwards */
    int64_t runs[CLSEL_MAX_RANK + 3] = {0}; /* bytes of levels [0, L) */
    runs[0] = (int64_t)g->w;
    for (int level = 0; level < p->most; ++level)
        runs[level + 1] = runs[level] * g->extent[level];
    int best = p->most;
    while (best >= p->fewest && !build_shuffle(g, best, runs[best], 1, 0, g->row_pairs, &g->row))
        --best;
    if (best < p->fewest)
        return 0;
    const int64_t run = runs[best];
    const int64_t step = best < g->levels ? g->step[best] : 0;
    int64_t rows = 1;
    while (rows * run % 16)
        ++rows;        /* 16 / gcd(run, 16) */
    g->group.rows = 0; /* build_shuffle sets it only where the windows fit */
    if (rows > 1 && step)
        build_shuffle(g, best, run, rows, step, g->group_pairs, &g->group);
    g->row.advance = step;
    g->run_levels = best;
    g->run_bytes = (size_t)run;
    g->shuffled = 1;
    return 1;
}

/* Tensor t's levels in a block: the block's dims of more than one index, innermost first, their
 * extents and t's byte steps along them (elements of w bytes), and which is the split dim's (-1: it
 * has one index). Returns how many. */
static int block_levels(const cpu_blocks *b, int t, size_t w, int64_t *extent, int64_t *step,
                        int *split_level)
{
    const plan_iter *it = b->it;
    int levels = 0;
    *split_level = -1;
    for (int32_t d = 0; d <= b->inner && d < it->rank; ++d) {
        const int64_t n = d < b->inner ? it->dims[d] : b->split;
        if (n == 1)
            continue;
        if (d == b->inner)
            *split_level = levels;
        extent[levels] = n;
        step[levels++] = it->strides[t][d] * (int64_t)w;
    }
    return levels;
}

/* Splat runs of consecutive elements (an [N,1] input against [N,M], M short) of 16 bytes or less:
 * the table of phases by which 16-byte output pieces are byte shuffles of 16 source bytes (an
 * instruction set's expanding loop uses it: cpu_loops_avx2.c's expand_avx2). g->phases stays 0
 * where runs do not allow it. */
static void expand_table(cpu_gather_walk *g)
{
    g->phases = 0;
    const size_t run = g->run_bytes, e = g->element;
    if (g->run_copies || e > 8 || run > 16 || run % e != 0)
        return;
    if (g->run_levels >= g->levels || g->step[g->run_levels] != (int64_t)e)
        return; /* the runs' elements are not consecutive in the source */
    size_t common = 16;
    while (run % common)
        common /= 2; /* gcd(run, 16): runs and pieces realign every run / common pieces */
    g->phases = (int)(run / common);
    for (int p = 0; p < g->phases; ++p) {
        const size_t first = 16 * (size_t)p / run;
        for (size_t j = 0; j < 16; ++j)
            g->shuffle[p][j] = (uint8_t)(((16 * (size_t)p + j) / run - first) * e + j % e);
        g->advance[p] = (uint8_t)((16 * ((size_t)p + 1) / run - first) * e);
        g->from[p] = (uint8_t)(first * e); /* source offset of piece p from the period's start */
    }
    g->period_advance = (int64_t)(16 * (size_t)g->phases / run * e);
    g->period_reach = g->from[g->phases - 1] + 16; /* source bytes a period's loads touch */
}

/* Whether the blend reads the input itself (cpu_loops.h, cpu_expand_table): runs of one element of
 * the input's width copied twice or more, up to CPU_EXPAND_MOST_RUN_BYTES, the levels above
 * stepping through consecutive elements (each level's step the one below's whole extent), so that
 * block byte k copies source element k / run, and every vector's bytes within the 16 from the
 * element its first byte copies (not so for two copies: a vector from mid-run, as where a streamed
 * row's first whole line starts, copies parts of 17 elements); and if so its table. Made per walk:
 * a counter, no division per byte. */
static int expand_in_blend(const cpu_gather_walk *g, const cpu_period *p, cpu_expand_table *x)
{
    const int64_t w = (int64_t)g->w, run = p->run_bytes;
    if (p->copies || p->element != g->w || run % w != 0 || run / w < 2 ||
        run > CPU_EXPAND_MOST_RUN_BYTES)
        return 0;
    int64_t step = w;
    for (int level = p->run_dims; level < g->levels; step *= g->extent[level], ++level)
        if (g->step[level] != step)
            return 0;
    int64_t common = 32;
    while (run % common)
        common /= 2; /* gcd(32, run): a vector's phase keeps its class mod this */
    x->run = run;
    x->w = w;
    x->period = (int)(run / common);
    x->period_advance = 32 * x->period / run * w;
    int entry = 0;
    for (int64_t phase_class = 0; phase_class < common; phase_class += w)
        for (int k = 0; k < x->period; ++k, ++entry) {
            const int64_t start = phase_class + 32 * k; /* from the period's start */
            x->entry_at[start % run / w] = (uint16_t)entry;
            x->from[entry] = (int32_t)(start / run * w);
            int64_t copied = 0, left = run - start % run; /* run bytes left at byte j */
            for (int j = 0; j < 32; ++j) {
                if (copied * w + j % w >= 16)
                    return 0; /* past the 16-byte window */
                x->order[entry][j] = (uint8_t)(copied * w + j % w);
                if (--left == 0)
                    ++copied, left = run;
            }
        }
    return 1;
}

/* The level above the run's levels of step 0 (the split level, whose extent varies, apart), and
 * into *tiles the copies of the run they make. */
static int tile_levels(const cpu_gather_walk *g, int64_t *tiles)
{
    int level = g->run_levels;
    *tiles = 1;
    for (; level < g->levels && g->step[level] == 0 && level != g->split_level; ++level)
        *tiles *= g->extent[level];
    return level;
}

/* A copied run of 32 to CPU_TILE_RUN_MOST bytes along levels of step 0 above it (other than the
 * split level, whose extent varies) becomes one run of them all, tiled (copy_tiled_M). Shorter runs
 * stay with replicate, which stores 32-byte windows of several tiles at once (7-byte u8 tiles ran
 * 1.3x slower stored one by one). Returns whether it did. */
static int fold_tiles(cpu_gather_walk *g)
{
    if (g->shuffled || !g->run_copies || g->run_bytes < 32 || g->run_bytes > CPU_TILE_RUN_MOST)
        return 0;
    int64_t tiles;
    const int level = tile_levels(g, &tiles);
    if (tiles == 1)
        return 0;
    g->tile_bytes = g->run_bytes;
    g->tiles = tiles;
    g->run_levels = level;
    g->run_bytes = g->tile_bytes * (size_t)tiles;
    return 1;
}

/* A copied run along levels of step 0 above it (the split level apart) becomes compact tiles
 * (cpu_tile_reader) where the copies that make CPU_TILE_PERIOD_BYTES are at most half of them: a
 * period of them stored per row of copies, then its first CPU_TILE_HEAD bytes. Returns whether it
 * did. */
static int fold_compact(cpu_gather_walk *g)
{
    if (g->shuffled || !g->run_copies)
        return 0;
    int64_t tiles;
    const int level = tile_levels(g, &tiles);
    const int64_t tile = (int64_t)g->run_bytes, copies = (CPU_TILE_PERIOD_BYTES + tile - 1) / tile;
    if (tiles < 2 * copies)
        return 0;
    g->tile_bytes = g->run_bytes;
    g->tiles = tiles;
    g->tile_period = copies * tile;
    g->tile_span = tiles * tile;
    g->run_levels = level;
    g->run_bytes = (size_t)g->tile_period + CPU_TILE_HEAD;
    return 1;
}

/* Levels 1 and 0 of a transposed input, level 1 innermost: dst[j n0 + i] = src[i step0 + j
 * step1]. */
#define TRANSPOSE_LOOP(W)                                                                 \
    static void transpose_##W(const cpu_gather_walk *g, const uint8_t *src, uint8_t *dst) \
    {                                                                                     \
        const int64_t n0 = g->extent[0], n1 = g->extent[1], step0 = g->step[0],           \
                      step1 = g->step[1];                                                 \
        for (int64_t i = 0; i < n0; ++i)                                                  \
            for (int64_t j = 0; j < n1; ++j)                                              \
                memcpy(dst + (j * n0 + i) * (W), src + i * step0 + j * step1, W);         \
    }
TRANSPOSE_LOOP(1)
TRANSPOSE_LOOP(2)
TRANSPOSE_LOOP(4)
TRANSPOSE_LOOP(8)

void clsel_priv_cpu_gather_prepare(const cpu_blocks *b, int op, size_t w, const cpu_loops *loops,
                                   int compact_tiles, int expand, cpu_gather_walk *g)
{
    g->w = w;
    g->levels = block_levels(b, op, w, g->extent, g->step, &g->split_level);
    /* The run and table as cpu_period has them; a level splitting dim `inner` stays out: its extent
     * varies by block. */
    cpu_period p;
    clsel_priv_cpu_period(b, op, w, &p);
    g->expanded = expand && expand_in_blend(g, &p, &g->expand);
    g->compact = 0;
    if (g->expanded)
        return; /* never gathered: no run loop or shuffle table to make */
    g->run_copies = g->levels > 0 && p.copies;
    g->run_levels = p.run_dims;
    g->run_bytes = (size_t)p.run_bytes;
    g->element = p.element;
    g->shuffled = 0;
    choose_shuffle(g, &p, loops);
    /* Levels above the run that continue one another (the next one's step is this one's whole
     * extent) become one, for one call of the run loop; the split dim's level keeps what multiplies
     * its per-block extent. */
    int kept = g->run_levels, split_level = -1;
    g->split_scale = 1;
    for (int level = g->run_levels; level < g->levels; ++level) {
        if (kept > g->run_levels && g->step[level] == g->step[kept - 1] * g->extent[kept - 1]) {
            if (level == g->split_level)
                split_level = kept - 1, g->split_scale = g->extent[kept - 1];
            g->extent[kept - 1] *= g->extent[level];
            continue;
        }
        if (level == g->split_level)
            split_level = kept;
        g->extent[kept] = g->extent[level];
        g->step[kept] = g->step[level];
        ++kept;
    }
    g->levels = kept;
    if (g->split_level >= g->run_levels)
        g->split_level = split_level;
    g->compact = compact_tiles && fold_compact(g);
    const int tiled = !g->compact && fold_tiles(g);
    expand_table(g);
    g->size[g->run_levels] = (int64_t)g->run_bytes;
    for (int level = g->run_levels + 1; level <= g->levels; ++level)
        g->size[level] = g->size[level - 1] * g->extent[level - 1];
    /* A transposed input (a tile's chunk of dim 0 a line or more apart, its rows closer): read
     * along the rows, a line at a time, each element to its place in the block. */
    g->transposed = g->run_levels == 0 && g->run_copies && g->run_bytes == w && g->levels >= 2 &&
                    !g->shuffled && llabs(g->step[0]) >= CPU_CACHE_LINE_BYTES && g->step[1] != 0 &&
                    llabs(g->step[1]) < llabs(g->step[0]);
    /* [M]: tiles of 32 M bytes at most */
    _Static_assert(CPU_TILE_RUN_MOST <= 128, "copy_tiled_M has loops for M = 1-4 only");
    static const cpu_run_loop tiled_loops[CPU_TILE_RUN_MOST / 32 + 1] = {
        NULL, copy_tiled_1, copy_tiled_2, copy_tiled_3, copy_tiled_4};
    const cpu_run_loop fast = g->shuffled       ? loops->shuffle
                              : loops->run_loop ? loops->run_loop(g)
                                                : NULL;
    static const cpu_transpose_loop transposes[4] = {transpose_1, transpose_2, transpose_4,
                                                     transpose_8};
    const int slot = clsel_priv_width_slot(w);
    g->transpose = loops->transpose[slot] ? loops->transpose[slot] : transposes[slot];
    g->runs = g->compact ? copy_tile_head
              : tiled    ? tiled_loops[(g->tile_bytes + 31) / 32]
              : fast     ? fast
                         : pick_run_loop(g->run_copies, g->element, g->run_bytes);
}

static void gather_level(const cpu_gather_walk *g, int level, const uint8_t *src, uint8_t *dst,
                         const uint8_t *src_end)
{
    const int64_t n = g->extent[level], step = g->step[level], size = g->size[level];
    if (level == 1 && g->transposed) {
        g->transpose(g, src, dst);
    } else if (level == g->run_levels) {
        g->runs(g, dst, src, step ? n : 1, step, src_end);
        if (!step)
            replicate(dst, (size_t)size, n);
    } else if (step == 0) { /* broadcast along this dim: build one index, copy it */
        gather_level(g, level - 1, src, dst, src_end);
        replicate(dst, (size_t)size, n);
    } else {
        for (int64_t i = 0; i < n; ++i)
            gather_level(g, level - 1, src + i * step, dst + i * size, src_end);
    }
}

void clsel_priv_cpu_gather(cpu_gather_walk *g, int64_t split, const uint8_t *src,
                           const uint8_t *src_end, uint8_t *dst)
{
    if (g->split_level >= 0)
        g->extent[g->split_level] = split * g->split_scale;
    if (g->run_levels == g->levels) { /* the whole block is one run */
        g->runs(g, dst, src, 1, 0, src_end);
        return;
    }
    gather_level(g, g->levels - 1, src, dst, src_end);
}

void clsel_priv_cpu_gather_periods(cpu_gather_walk *g, size_t bytes, int64_t periods, size_t after,
                                   const uint8_t *src, const uint8_t *src_end, uint8_t *dst)
{
    clsel_priv_cpu_gather(g, 1, src, src_end, dst);
    if (periods > 1)
        replicate(dst, bytes, periods);
    /* the bytes after: the periods' first again, in pieces of at most the periods (no overlap) */
    const size_t total = bytes * (size_t)periods;
    for (size_t done = 0; done < after; done += total)
        memcpy(dst + total + done, dst + done, after - done < total ? after - done : total);
}

void clsel_priv_cpu_scatter_prepare(const cpu_blocks *b, size_t w, cpu_scatter_walk *s)
{
    s->w = w;
    s->levels = block_levels(b, PLAN_OUT, w, s->extent, s->step, &s->split_level);
    s->size[0] = (int64_t)w;
    for (int level = 1; level < s->levels; ++level)
        s->size[level] = s->size[level - 1] * s->extent[level - 1];
}

/* n single elements of `width` bytes (a constant where inlined: one store each), packed at src,
 * `step` bytes apart at dst. */
static inline void scatter_elements(uint8_t *dst, const uint8_t *src, int64_t n, int64_t step,
                                    size_t width)
{
    for (int64_t i = 0; i < n; ++i)
        memcpy(dst + i * step, src + i * (int64_t)width, width);
}

/* One level's indices: a contiguous run copied at once, single elements stored by their width. */
static void scatter_level(const cpu_scatter_walk *s, int level, const uint8_t *src, uint8_t *dst)
{
    const int64_t n = s->extent[level], step = s->step[level], size = s->size[level];
    if (level > 0) {
        for (int64_t i = 0; i < n; ++i)
            scatter_level(s, level - 1, src + i * size, dst + i * step);
        return;
    }
    if (step == size) {
        memcpy(dst, src, (size_t)(n * size));
        return;
    }
    switch (s->w) {
    case 1:
        scatter_elements(dst, src, n, step, 1);
        break;
    case 2:
        scatter_elements(dst, src, n, step, 2);
        break;
    case 4:
        scatter_elements(dst, src, n, step, 4);
        break;
    default:
        scatter_elements(dst, src, n, step, 8);
        break;
    }
}

void clsel_priv_cpu_scatter(cpu_scatter_walk *s, int64_t split, const uint8_t *src, uint8_t *dst)
{
    if (s->levels == 0) { /* one element */
        memcpy(dst, src, s->w);
        return;
    }
    if (s->split_level >= 0)
        s->extent[s->split_level] = split;
    scatter_level(s, s->levels - 1, src, dst);
}
