/* cpu_loops_avx2.c - the CPU path's loop table in AVX2 (cpu_loops.h), for x86-64 processors that
 * have it (checked at run time); its expanded rows are in cpu_expand_avx2.c. A byte mask from
 * cond == 0, widened to the element width, blends then and else. Not left to the compiler: the
 * portable loops vectorize 16 bytes at a time with the baseline ISA and never stream, and writing
 * around the cache is what brings large outputs to memcpy's bandwidth (CPU_STREAM_MIN_BYTES,
 * docs/tuning.md). */
#include "common/tuning_constants.h"
#include "cpu/cpu_gather.h"
#include "cpu/cpu_loops.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include "cpu/cpu_avx2.h"

/* CV, TV, EV: cond, then, else advance (1) or stay on [0] (0). Cond advancing: a blend by the cond
 * mask; cond fixed: a copy (TV 1) or fill (TV 0) of the chosen operand, which alone is read (it
 * comes in as the then pointer). */
#define BLEND_VEC(W, T, TV, EV)                                                                   \
    AVX2 static inline __m256i blend_vec_##W##_##TV##EV(const uint8_t *c, const T *t, const T *e, \
                                                        int64_t i)                                \
    {                                                                                             \
        const __m256i when_false = zero_mask_##W(c + i);                                          \
        const __m256i a = LOAD(W, TV, t, i), b = LOAD(W, EV, e, i);                               \
        return _mm256_blendv_epi8(a, b, when_false);                                              \
    }
#define VEC(W, CV, TV, EV, i) (CV ? blend_vec_##W##_##TV##EV(c, t, e, i) : LOAD(W, TV, t, i))
#define ELEMENT(CV, TV, EV, i) (CV ? (c[i] ? t[TV ? i : 0] : e[EV ? i : 0]) : t[TV ? i : 0])
#define ADVANCE(CV, TV, EV, k) (c += CV ? (k) : 0, t += TV ? (k) : 0, e += EV ? (k) : 0)

/* Plain loops (_0): unaligned stores, the last vector overlapping the one before rather than a
 * scalar tail (recomputing an element gives the same bits, even in place). Streamed (_1): whole
 * 64-byte lines with 32-byte non-temporal stores, the partial lines at the ends computed into a
 * buffer and streamed from it: a line written partly streamed and partly cached costs the read
 * streaming avoids, and rows of 1 KiB in a 16-byte aligned buffer (malloc's) have one at each end;
 * plain stores on those 2 of 17 lines made them nearly twice as slow (65536 x 256 f32 under a
 * [65536,1] else, output from malloc: 12.7-14.4 ms, 7.1 ms with the ends streamed; CI box, best of
 * 10). The next row's first piece completes the line in the write-combining buffer. */
#define CACHED_LOOP(NAME, W, T, CV, TV, EV)                                                 \
    AVX2 static void NAME##_0(int64_t n, const uint8_t *c, const void *tv, const void *ev,  \
                              void *ov)                                                     \
    {                                                                                       \
        const T *t = tv, *e = ev;                                                           \
        T *o = ov;                                                                          \
        (void)c, (void)e;                                                                   \
        enum {                                                                              \
            LANES = 32 / W                                                                  \
        };                                                                                  \
        if (n < LANES) {                                                                    \
            for (int64_t i = 0; i < n; ++i)                                                 \
                o[i] = ELEMENT(CV, TV, EV, i);                                              \
            return;                                                                         \
        }                                                                                   \
        int64_t i = 0;                                                                      \
        for (; i + LANES <= n; i += LANES)                                                  \
            _mm256_storeu_si256((__m256i *)(o + i), VEC(W, CV, TV, EV, i));                 \
        if (i < n)                                                                          \
            _mm256_storeu_si256((__m256i *)(o + n - LANES), VEC(W, CV, TV, EV, n - LANES)); \
    }
/* One whole 64-byte line of a streamed row, elements [i, i + 64 / W): two streamed stores. */
#define STREAMED_LINE(NAME, W, T, CV, TV, EV, S)                                            \
    AVX2 static inline void NAME##_line_##S(const uint8_t *c, const T *t, const T *e, T *o, \
                                            int64_t i)                                      \
    {                                                                                       \
        (void)c, (void)t, (void)e;                                                          \
        _mm256_stream_si256((__m256i *)(o + i), VEC(W, CV, TV, EV, i));                     \
        _mm256_stream_si256((__m256i *)(o + i + 32 / W), VEC(W, CV, TV, EV, i + 32 / W));   \
    }
/* Streamed, as NAME##_S. With PREFETCH (S 2), a cond read in place is prefetched
 * CPU_COND_PREFETCH_BYTES of output ahead, once per line of it, at the first vector that reads
 * the line: where blocks gather between the rows, the cond's loads stalled on memory without it
 * (perf: 59 % of the short draw's sweep-030 loop on the cond's load; docs/tuning.md). With PARTS
 * above 1 (S 3), a row's whole lines, where they make CPU_STREAM_SPLIT_MIN_BYTES or more, are
 * PARTS runs of lines written side by side, a line of each in turn: the walk asks for that where
 * one or two inputs stream from memory where they lie (cpu_walk.c, splits_streams), as one run of
 * reads keeps too few of a core's misses in flight (docs/tuning.md, CPU_STREAM_PARTS). The lines
 * left after the runs, and every line of a row not split, go a vector at a time: a line at a time
 * in two stores, rows copied from the caches took 1.2-1.5x as long (sweep-008 and -058 of the
 * short draw, one thread). */
#define STREAMED_LOOP(NAME, W, T, CV, TV, EV, S, PREFETCH, PARTS)                               \
    STREAMED_LINE(NAME, W, T, CV, TV, EV, S)                                                    \
    AVX2 static void NAME##_##S(int64_t n, const uint8_t *c, const void *tv, const void *ev,    \
                                void *ov)                                                       \
    {                                                                                           \
        const T *t = tv, *e = ev;                                                               \
        T *o = ov;                                                                              \
        enum {                                                                                  \
            LINE = 64 / W                                                                       \
        };                                                                                      \
        int64_t lo, hi;                                                                         \
        if (!whole_lines(o, n, W, &lo, &hi)) {                                                  \
            T short_row[STREAMED_SHORT_ROW_BYTES / W] = {0};                                    \
            if (n * W > STREAMED_SHORT_ROW_BYTES || (uintptr_t)o % W) {                         \
                NAME##_0(n, c, tv, ev, ov);                                                     \
                return;                                                                         \
            }                                                                                   \
            NAME##_0(n, c, tv, ev, short_row);                                                  \
            stream_bytes((uint8_t *)o, (const uint8_t *)short_row, (size_t)n *W);               \
            return;                                                                             \
        }                                                                                       \
        T part[LINE] = {0};                                                                     \
        if (lo) {                                                                               \
            NAME##_0(lo, c, tv, ev, part);                                                      \
            stream_bytes((uint8_t *)o, (const uint8_t *)part, (size_t)lo *W);                   \
        }                                                                                       \
        const int64_t parts = streamed_parts(PARTS, (hi - lo) * W);                             \
        const int64_t part_lines = parts > 1 ? (hi - lo) / LINE / parts : 0,                    \
                      after = lo + parts * part_lines * LINE;                                   \
        for (int64_t i = lo; i < lo + part_lines * LINE; i += LINE)                             \
            for (int64_t k = 0; k < parts; ++k)                                                 \
                NAME##_line_##S(c, t, e, o, i + k * part_lines * LINE);                         \
        for (int64_t i = after; i < hi; i += 32 / W) {                                          \
            if (CV && PREFETCH && ((uintptr_t)(c + i) & 63) < 32 / W)                           \
                _mm_prefetch((const char *)(c + i + CPU_COND_PREFETCH_BYTES / W), _MM_HINT_T0); \
            _mm256_stream_si256((__m256i *)(o + i), VEC(W, CV, TV, EV, i));                     \
        }                                                                                       \
        ADVANCE(CV, TV, EV, hi);                                                                \
        if (n > hi) {                                                                           \
            NAME##_0(n - hi, c, t, e, part);                                                    \
            stream_bytes((uint8_t *)(o + hi), (const uint8_t *)part, (size_t)(n - hi) * W);     \
        }                                                                                       \
    }
#define LOOPS(NAME, W, T, CV, TV, EV)   \
    CACHED_LOOP(NAME, W, T, CV, TV, EV) \
    STREAMED_LOOP(NAME, W, T, CV, TV, EV, 1, 0, 1)

/* Cond fixed: the copy or fill of the operand cond picks. */
#define ROW_PICK(W, TV, EV, S)                                                              \
    AVX2 static void pick_##W##_##TV##EV##_##S(int64_t n, const uint8_t *c, const void *tv, \
                                               const void *ev, void *o)                     \
    {                                                                                       \
        const int take_then = c[0] != 0;                                                    \
        const void *src = take_then ? tv : ev;                                              \
        ((take_then ? TV : EV) ? copy_##W##_##S : fill_##W##_##S)(n, c, src, src, o);       \
    }                                                                                       \
    CPU_ROWS_FN(AVX2, pick_##W##_##TV##EV##_##S)
#define ROW_KIND(W, T, TV, EV)                                                   \
    ROW_PICK(W, TV, EV, 0)                                                       \
    ROW_PICK(W, TV, EV, 1)                                                       \
    ROW_PICK(W, TV, EV, 3)                                                       \
    LOOPS(blend_##W##_##TV##EV, W, T, 1, TV, EV)                                 \
    STREAMED_LOOP(blend_##W##_##TV##EV, W, T, 1, TV, EV, 2, 1, 1)                \
    STREAMED_LOOP(blend_##W##_##TV##EV, W, T, 1, TV, EV, 3, 0, CPU_STREAM_PARTS) \
    CPU_ROWS_FN(AVX2, blend_##W##_##TV##EV##_0)                                  \
    CPU_ROWS_FN(AVX2, blend_##W##_##TV##EV##_1)                                  \
    CPU_ROWS_FN(AVX2, blend_##W##_##TV##EV##_2)                                  \
    CPU_ROWS_FN(AVX2, blend_##W##_##TV##EV##_3)
/* Not formatted: one function a line (the formatter packs macro calls that end in no ';'). */
/* clang-format off */
#define ROWS(W, T)                                                  \
    EACH_PAIR(BLEND_VEC, W, T)                                      \
    LOOPS(copy_##W, W, T, 0, 1, 0)                                  \
    STREAMED_LOOP(copy_##W, W, T, 0, 1, 0, 3, 0, CPU_STREAM_PARTS)  \
    LOOPS(fill_##W, W, T, 0, 0, 0)                                  \
    STREAMED_LOOP(fill_##W, W, T, 0, 0, 0, 3, 0, 1)                 \
    EACH_PAIR(ROW_KIND, W, T)
/* clang-format on */
EACH_WIDTH(ROWS)

/* Entries in variant order (plan_iter.h; pick: cond fixed, blend: cond advances), the picks'
 * loops _P and the blends' _B (a pick has no cond to prefetch). */
#define ENTRIES(W, P, B)                                                                    \
    {                                                                                       \
        pick_##W##_00_##P##_rows, pick_##W##_01_##P##_rows, pick_##W##_10_##P##_rows,       \
            pick_##W##_11_##P##_rows, blend_##W##_00_##B##_rows, blend_##W##_01_##B##_rows, \
            blend_##W##_10_##B##_rows, blend_##W##_11_##B##_rows                            \
    }

/* ---- Rows whose then or else is read from compact tiles (cpu_tile_reader): a block's tiled input
 * stored a period of copies per row of copies, not every copy. A 78-byte i16 row tiled 40 times
 * (the short draw's sweep-018): 63 -> 78 % of memcpy, median of 26 alternating rounds on one
 * thread (docs/performance_analysis.md). */

/* Lanes [k, 32) set, for k = 32 - index: ramp + 32 - k. */
static const uint8_t ramp[64] = {
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

/* Moves a reader `bytes` on: an element, a vector, or the run of whole vectors linear_vectors
 * allowed (at most one wrap: the offset stays below the period plus 32), into the next row where
 * its row ends within them. */
static inline void tile_advance(cpu_tile_reader *r, int64_t bytes)
{
    r->at += bytes;
    if (r->at >= r->period)
        r->at -= r->period;
    r->left -= bytes;
    if (r->left <= 0) { /* into the next row, -left bytes */
        r->group += r->period + CPU_TILE_HEAD;
        r->at = -r->left;
        r->left += r->span;
    }
}

/* The reader's next 32 bytes: from the period and the head after it, but where the row ends
 * within them, where the bytes past it are the next row's start. */
AVX2 static inline __m256i tile_load(const cpu_tile_reader *r)
{
    const __m256i here = _mm256_loadu_si256((const __m256i *)(r->group + r->at));
    if (r->left >= 32)
        return here;
    const __m256i next =
        _mm256_loadu_si256((const __m256i *)(r->group + r->period + CPU_TILE_HEAD - r->left));
    return _mm256_blendv_epi8(here, next,
                              _mm256_loadu_si256((const __m256i *)(ramp + 32 - r->left)));
}

/* The reader's next `bytes` (fewer than 32) into dst, as tile_load gives them, and the reader moved
 * on: the bytes before its row's end, then the next row's first. */
static inline void tile_take(cpu_tile_reader *r, uint8_t *dst, int64_t bytes)
{
    const int64_t in_row = r->left < bytes ? r->left : bytes;
    memcpy(dst, r->group + r->at, (size_t)in_row);
    if (in_row < bytes)
        memcpy(dst + in_row, r->group + r->period + CPU_TILE_HEAD, (size_t)(bytes - in_row));
    tile_advance(r, bytes);
}

/* Whole vectors the reader gives from one pointer on: up to the first read at the period's end
 * (the head makes that one whole) and within its row. */
static inline int64_t linear_vectors(const cpu_tile_reader *r)
{
    const int64_t to_wrap = (r->period - r->at) / 32 + 1, in_row = r->left / 32;
    return to_wrap < in_row ? to_wrap : in_row;
}

/* `count` whole vectors at c and o: runs of them in the row loops' own form, each input from one
 * pointer (a per-vector wrap cost more than the tiling's stores it saves), and a vector where a
 * reader's row ends within it on its own. */
#define TILED_VECTORS(W, S, STORE)                                                           \
    AVX2 static inline void tiled_vectors_##W##_##S(                                         \
        int64_t count, const uint8_t *c, cpu_tile_reader *t, cpu_tile_reader *e, uint8_t *o) \
    {                                                                                        \
        enum {                                                                               \
            LANES = 32 / W                                                                   \
        };                                                                                   \
        while (count > 0) {                                                                  \
            int64_t k = count;                                                               \
            const int64_t then_k = linear_vectors(t), else_k = linear_vectors(e);            \
            k = then_k < k ? then_k : k;                                                     \
            k = else_k < k ? else_k : k;                                                     \
            if (k == 0) {                                                                    \
                const __m256i when_false = zero_mask_##W(c);                                 \
                const __m256i a = tile_load(t), b = tile_load(e);                            \
                tile_advance(t, 32);                                                         \
                tile_advance(e, 32);                                                         \
                STORE((__m256i *)o, _mm256_blendv_epi8(a, b, when_false));                   \
                c += LANES, o += 32, --count;                                                \
                continue;                                                                    \
            }                                                                                \
            const uint8_t *tp = t->group + t->at, *ep = e->group + e->at;                    \
            for (int64_t j = 0; j < k; ++j) {                                                \
                const __m256i when_false = zero_mask_##W(c + j * LANES);                     \
                const __m256i a = _mm256_loadu_si256((const __m256i *)(tp + 32 * j)),        \
                              b = _mm256_loadu_si256((const __m256i *)(ep + 32 * j));        \
                STORE((__m256i *)(o + 32 * j), _mm256_blendv_epi8(a, b, when_false));        \
            }                                                                                \
            tile_advance(t, 32 * k);                                                         \
            tile_advance(e, 32 * k);                                                         \
            c += k * LANES, o += 32 * k, count -= k;                                         \
        }                                                                                    \
    }

/* As LOOPS above, a blend of n elements: whole vectors, then the rest as one vector through copies
 * of its bytes (a reader moves only forwards, so no last vector overlapping the one before; the
 * rests of rows that end mid-line, element by element, took 9.9 % of the samples of bf16 then
 * [93,31,1,40,13,1], and 7.1 % so: docs/tuning.md, CPU_TILE_PERIOD_BYTES); streamed (_1) by
 * stream_row, the whole lines with the readers in locals, which no store to o can change. */
typedef struct tiled_row {
    const uint8_t *c;
    cpu_tile_reader *readers[2];
} tiled_row;
#define TILED_LOOPS(W)                                                                          \
    TILED_VECTORS(W, 0, _mm256_storeu_si256)                                                    \
    TILED_VECTORS(W, 1, _mm256_stream_si256)                                                    \
    AVX2 static void tiled_##W##_0(int64_t n, const uint8_t *c, cpu_tile_reader *then_reader,   \
                                   cpu_tile_reader *else_reader, uint8_t *o)                    \
    {                                                                                           \
        cpu_tile_reader t = *then_reader, e = *else_reader;                                     \
        const int64_t whole = n / (32 / W) * (32 / W), rest = n - whole;                        \
        tiled_vectors_##W##_0(whole / (32 / W), c, &t, &e, o);                                  \
        if (rest > 0) {                                                                         \
            _Alignas(32) uint8_t cond[32] = {0}, a[32] = {0}, b[32] = {0}, out[32];             \
            const int64_t rest_bytes = rest * W;                                                \
            memcpy(cond, c + whole, (size_t)rest);                                              \
            tile_take(&t, a, rest_bytes);                                                       \
            tile_take(&e, b, rest_bytes);                                                       \
            const __m256i picked =                                                              \
                _mm256_blendv_epi8(_mm256_load_si256((const __m256i *)a),                       \
                                   _mm256_load_si256((const __m256i *)b), zero_mask_##W(cond)); \
            _mm256_store_si256((__m256i *)out, picked);                                         \
            memcpy(o + whole * W, out, (size_t)rest_bytes);                                     \
        }                                                                                       \
        *then_reader = t;                                                                       \
        *else_reader = e;                                                                       \
    }                                                                                           \
    AVX2 static void tiled_part_##W(void *row, int64_t first, int64_t count, uint8_t *dst)      \
    {                                                                                           \
        const tiled_row *r = row;                                                               \
        tiled_##W##_0(count, r->c + first, r->readers[0], r->readers[1], dst);                  \
    }                                                                                           \
    AVX2 static void tiled_lines_##W(void *row, int64_t first, int64_t count, uint8_t *dst)     \
    {                                                                                           \
        const tiled_row *r = row;                                                               \
        cpu_tile_reader t = *r->readers[0], e = *r->readers[1];                                 \
        tiled_vectors_##W##_1(count / (32 / W), r->c + first, &t, &e, dst);                     \
        *r->readers[0] = t;                                                                     \
        *r->readers[1] = e;                                                                     \
    }                                                                                           \
    AVX2 static void tiled_##W##_1(int64_t n, const uint8_t *c, cpu_tile_reader *then_reader,   \
                                   cpu_tile_reader *else_reader, uint8_t *o)                    \
    {                                                                                           \
        tiled_row row = {c, {then_reader, else_reader}};                                        \
        stream_row(&row, n, W, o, tiled_part_##W, tiled_lines_##W);                             \
    }

/* The rows of a cpu_tiled_fn: a plain reader starts each row at the row's input. */
#define TILED_ROWS(W, S)                                                                   \
    AVX2 static void tiled_##W##_##S##_rows(const cpu_rows *r, cpu_tile_reader readers[2]) \
    {                                                                                      \
        const uint8_t *c = r->cond, *t = r->then_data, *e = r->else_data;                  \
        uint8_t *o = r->out;                                                               \
        for (int64_t k = 0; k < r->count; ++k) {                                           \
            if (!readers[0].span)                                                          \
                readers[0].group = t, readers[0].at = 0;                                   \
            if (!readers[1].span)                                                          \
                readers[1].group = e, readers[1].at = 0;                                   \
            tiled_##W##_##S(r->n, c, &readers[0], &readers[1], o);                         \
            c += r->step[0], t += r->step[1], e += r->step[2], o += r->step[3];            \
        }                                                                                  \
    }
/* Not formatted: one function a line. */
/* clang-format off */
#define TILED(W, T)     \
    TILED_LOOPS(W)      \
    TILED_ROWS(W, 0)    \
    TILED_ROWS(W, 1)
/* clang-format on */
EACH_WIDTH(TILED)

/* ---- The gather's run loops (cpu_gather.c). Splats: a broadcast, then 32-byte stores up to 31
 * bytes past the run (into the buffer's slack); REACH 32: runs of up to 32 bytes. */
#define SPLAT_AVX2(NAME, E, SET1, T, REACH)                                                      \
    AVX2 static void NAME(const cpu_gather_walk *g, uint8_t *dst, const uint8_t *src, int64_t n, \
                          int64_t step, const uint8_t *src_end)                                  \
    {                                                                                            \
        (void)src_end;                                                                           \
        const size_t size = g->run_bytes, reach = REACH ? REACH : size;                          \
        for (int64_t k = 0; k < n; ++k, src += step, dst += size) {                              \
            T v;                                                                                 \
            memcpy(&v, src, E);                                                                  \
            const __m256i splat = SET1(v);                                                       \
            for (size_t i = 0; i < reach; i += 32)                                               \
                _mm256_storeu_si256((__m256i *)(dst + i), splat);                                \
        }                                                                                        \
    }
#define SPLATS_AVX2(E, SET1, T)                  \
    SPLAT_AVX2(splat32_avx2_##E, E, SET1, T, 32) \
    SPLAT_AVX2(splat_avx2_##E, E, SET1, T, 0)
/* Not formatted: one function a line. */
/* clang-format off */
SPLATS_AVX2(1, _mm256_set1_epi8, char)
SPLATS_AVX2(2, _mm256_set1_epi16, short)
SPLATS_AVX2(4, _mm256_set1_epi32, int)
SPLATS_AVX2(8, _mm256_set1_epi64x, long long)
/* clang-format on */

/* Runs of one element (cpu_gather.c's elements_W), vectorised for the two steps strided views
 * make most: -w (a reversed view, a[::-1]) and 2w (every other element, a[::2]). Reversed: the 32
 * bytes that end at the run's current element, loaded and reversed in elements (every byte loaded
 * is an element the run reads). Every other: 64 bytes, their even elements packed into 32 (the
 * loads end within an element after the last one read, so they stop before src_end). Other steps,
 * and the last elements, one by one. Shuffles move bits: NaN payloads survive. */
AVX2 static inline __m256i reverse_1(__m256i v)
{
    const __m256i order = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15,
                                           14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    return _mm256_permute4x64_epi64(_mm256_shuffle_epi8(v, order), 0x4E);
}
AVX2 static inline __m256i reverse_2(__m256i v)
{
    const __m256i order = _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14,
                                           15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
    return _mm256_permute4x64_epi64(_mm256_shuffle_epi8(v, order), 0x4E);
}
AVX2 static inline __m256i reverse_4(__m256i v)
{
    return _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
}
AVX2 static inline __m256i reverse_8(__m256i v)
{
    return _mm256_permute4x64_epi64(v, 0x1B);
}
/* The even elements of a then b (packs work within 16-byte lanes: 0xD8 puts the lanes in order). */
AVX2 static inline __m256i evens_1(__m256i a, __m256i b)
{
    const __m256i low = _mm256_set1_epi16(0xFF);
    return _mm256_permute4x64_epi64(
        _mm256_packus_epi16(_mm256_and_si256(a, low), _mm256_and_si256(b, low)), 0xD8);
}
AVX2 static inline __m256i evens_2(__m256i a, __m256i b)
{
    const __m256i low = _mm256_set1_epi32(0xFFFF);
    return _mm256_permute4x64_epi64(
        _mm256_packus_epi32(_mm256_and_si256(a, low), _mm256_and_si256(b, low)), 0xD8);
}
AVX2 static inline __m256i evens_4(__m256i a, __m256i b)
{
    const __m256 packed = _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), 0x88);
    return _mm256_permute4x64_epi64(_mm256_castps_si256(packed), 0xD8);
}
AVX2 static inline __m256i evens_8(__m256i a, __m256i b)
{
    return _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(a, b), 0xD8);
}
#define ELEMENTS_AVX2(W)                                                                           \
    AVX2 static void elements_avx2_##W(const cpu_gather_walk *g, uint8_t *dst, const uint8_t *src, \
                                       int64_t n, int64_t step, const uint8_t *src_end)            \
    {                                                                                              \
        (void)g;                                                                                   \
        enum {                                                                                     \
            LANES = 32 / W                                                                         \
        };                                                                                         \
        int64_t k = 0;                                                                             \
        if (step == -(W)) {                                                                        \
            for (; k + LANES <= n; k += LANES) {                                                   \
                const uint8_t *lowest = src - (k + LANES - 1) * (W);                               \
                const __m256i v = _mm256_loadu_si256((const __m256i *)lowest);                     \
                _mm256_storeu_si256((__m256i *)(dst + k * (W)), reverse_##W(v));                   \
            }                                                                                      \
        } else if (step == 2 * (W)) {                                                              \
            for (; k + LANES <= n && 2 * (k + LANES) * (W) <= src_end - src; k += LANES) {         \
                const uint8_t *from = src + 2 * k * (W);                                           \
                const __m256i a = _mm256_loadu_si256((const __m256i *)from),                       \
                              b = _mm256_loadu_si256((const __m256i *)(from + 32));                \
                _mm256_storeu_si256((__m256i *)(dst + k * (W)), evens_##W(a, b));                  \
            }                                                                                      \
        }                                                                                          \
        for (; k < n; ++k)                                                                         \
            memcpy(dst + k * (W), src + k * step, W);                                              \
    }
ELEMENTS_AVX2(1)
ELEMENTS_AVX2(2)
ELEMENTS_AVX2(4)
ELEMENTS_AVX2(8)

/* Transposed tiles (cpu_gather.c's transpose_W, where level 1 is contiguous): squares of N x N
 * elements, N = 16 / w, each row a 16-byte load along level 1, transposed in registers and stored
 * as rows along level 0. log2 N rounds of unpacks of the element width, each pairing vector k with
 * k + N/2 into 2k and 2k + 1, make row m of the result element m of every row (the perfect
 * shuffle). The edges past whole squares, and tiles whose level 1 is not contiguous, element by
 * element. Each row's lines of the tile after next are prefetched: a tile reads 256 / w input
 * rows, 16 KiB apart in bench/strided.py's transpose, more streams than the hardware prefetcher
 * follows (one thread, two rounds: 37.2 / 44.8 ms without, 29.7 / 36.4 two tiles ahead, 32.8 /
 * 42.7 four ahead). */
#define TRANSPOSE_AVX2(W, BITS)                                                                 \
    AVX2 static void transpose_avx2_##W(const cpu_gather_walk *g, const uint8_t *src,           \
                                        uint8_t *dst)                                           \
    {                                                                                           \
        enum {                                                                                  \
            N = 16 / W                                                                          \
        };                                                                                      \
        const int64_t n0 = g->extent[0], n1 = g->extent[1], step0 = g->step[0],                 \
                      step1 = g->step[1];                                                       \
        const int64_t i_end = step1 == W ? n0 / N * N : 0, j_end = step1 == W ? n1 / N * N : 0; \
        const uintptr_t ahead = (uintptr_t)(CPU_TRANSPOSE_PREFETCH_TILES * n1 * W);             \
        for (int64_t i = 0; i < i_end; i += N)                                                  \
            for (int64_t j = 0; j < j_end; j += N) {                                            \
                __m128i x[N], y[N];                                                             \
                for (int k = 0; k < N; ++k) {                                                   \
                    const uint8_t *row = src + (i + k) * step0 + j * W;                         \
                    x[k] = _mm_loadu_si128((const __m128i *)row);                               \
                    if (((j * W) & 63) == 0) /* a line's first square */                        \
                        _mm_prefetch((const char *)((uintptr_t)row + ahead), _MM_HINT_T0);      \
                }                                                                               \
                for (int round = 1; round < N; round *= 2) {                                    \
                    for (int k = 0; k < N / 2; ++k) {                                           \
                        y[2 * k] = _mm_unpacklo_epi##BITS(x[k], x[k + N / 2]);                  \
                        y[2 * k + 1] = _mm_unpackhi_epi##BITS(x[k], x[k + N / 2]);              \
                    }                                                                           \
                    memcpy(x, y, sizeof x);                                                     \
                }                                                                               \
                for (int k = 0; k < N; ++k)                                                     \
                    _mm_storeu_si128((__m128i *)(dst + ((j + k) * n0 + i) * W), x[k]);          \
            }                                                                                   \
        for (int64_t i = 0; i < n0; ++i)                                                        \
            for (int64_t j = i < i_end ? j_end : 0; j < n1; ++j)                                \
                memcpy(dst + (j * n0 + i) * W, src + i * step0 + j * step1, W);                 \
    }
TRANSPOSE_AVX2(1, 8)
TRANSPOSE_AVX2(2, 16)
TRANSPOSE_AVX2(4, 32)
TRANSPOSE_AVX2(8, 64)

/* Runs of one element repeated, from consecutive source elements (an [N,1] input against [N,M],
 * M short): 16 output bytes at a time, a byte shuffle of their 16 source bytes, cycling with
 * the phase of the runs against the pieces. A period per step, each piece at a fixed offset
 * from its start, so that no piece waits for the address of the one before; the rest, or where
 * 16-byte loads would pass the end, run by run. */
AVX2 static void expand_avx2(const cpu_gather_walk *g, uint8_t *dst, const uint8_t *src, int64_t n,
                             int64_t step, const uint8_t *src_end)
{
    (void)step;
    const size_t run = g->run_bytes, e = g->element, total = run * (size_t)n;
    const int phases = g->phases;
    const size_t period = 16 * (size_t)phases, reach = (size_t)g->period_reach;
    size_t done = 0;
    const uint8_t *s = src;
    if (phases == 1) {
        /* two pieces a step, one 32-byte store (the stores bound this loop) */
        const __m128i order = _mm_loadu_si128((const __m128i *)g->shuffle[0]);
        const __m256i orders = _mm256_broadcastsi128_si256(order);
        const size_t advance = g->advance[0];
        for (; done + 16 < total && (size_t)(src_end - s) >= advance + 16;
             done += 32, s += 2 * advance) {
            const __m256i v = load_pair(s, s + advance);
            _mm256_storeu_si256((__m256i *)(dst + done), _mm256_shuffle_epi8(v, orders));
        }
        for (; done < total && (size_t)(src_end - s) >= 16; done += 16, s += advance)
            _mm_storeu_si128((__m128i *)(dst + done),
                             _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)s), order));
    } else {
        /* Whole periods only: one can be 240 bytes, past the buffer's slack. Pieces two at a time
         * (a 32-byte store), an odd last one alone; the table copied first into locals, which no
         * store to dst can change, so that the loop does not reload it after every store. */
        __m256i pair_order[8];
        size_t from[16];
        const int pairs = phases / 2;
        for (int q = 0; q < pairs; ++q)
            pair_order[q] = load_pair(g->shuffle[2 * q], g->shuffle[2 * q + 1]);
        for (int p = 0; p < 16; ++p)
            from[p] = g->from[p];
        const __m128i last_order = _mm_loadu_si128((const __m128i *)g->shuffle[phases - 1]);
        const size_t last_at = 16 * (size_t)(phases - 1),
                     period_advance = (size_t)g->period_advance;
        for (; done + period <= total && (size_t)(src_end - s) >= reach;
             done += period, s += period_advance) {
            for (int q = 0; q < pairs; ++q) {
                const __m256i v = load_pair(s + from[2 * q], s + from[2 * q + 1]);
                _mm256_storeu_si256((__m256i *)(dst + done + 32 * (size_t)q),
                                    _mm256_shuffle_epi8(v, pair_order[q]));
            }
            if (phases % 2)
                _mm_storeu_si128(
                    (__m128i *)(dst + done + last_at),
                    _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(s + from[phases - 1])),
                                     last_order));
        }
    }
    for (size_t k = done / run; k < (size_t)n; ++k) {
        uint8_t pattern[16] = {0}; /* 16 bytes stored, `run` of them the run's */
        for (size_t i = 0; i < run; ++i)
            pattern[i] = src[k * e + i % e];
        memcpy(dst + k * run, pattern, 16);
    }
}

/* `count` tables of `rows` runs, pieces two at a time (an odd count writes the spare piece past the
 * table: into the next table's place or the buffer's slack); a shared window loaded once per table,
 * into both lanes. */
AVX2 static void shuffle_tables(const cpu_shuffle_table *t, uint8_t *dst, const uint8_t *src,
                                int64_t count, int64_t dst_advance)
{
    /* The table's fields read once: a store through dst may alias them, and reloading them after
     * every store made the loop wait on its own stores. */
    const int pairs = (t->pieces + 1) / 2, two = t->two;
    const cpu_shuffle_pair *const record = t->pairs;
    const int64_t advance = t->advance, from = record[0].first[0];
    if (t->shared) {
        for (int64_t k = 0; k < count; ++k, dst += dst_advance, src += advance) {
            const __m256i low =
                _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(src + from)));
            const __m256i high = two ? _mm256_broadcastsi128_si256(
                                           _mm_loadu_si128((const __m128i *)(src + from + 16)))
                                     : low;
            for (int p = 0; p < pairs; ++p) {
                const cpu_shuffle_pair *r = &record[p];
                __m256i v =
                    _mm256_shuffle_epi8(low, _mm256_load_si256((const __m256i *)r->order[0]));
                if (two)
                    v = _mm256_or_si256(
                        v,
                        _mm256_shuffle_epi8(high, _mm256_load_si256((const __m256i *)r->order[1])));
                _mm256_storeu_si256((__m256i *)(dst + 32 * p), v);
            }
        }
        return;
    }
    for (int64_t k = 0; k < count; ++k, dst += dst_advance, src += advance)
        for (int p = 0; p < pairs; ++p)
            _mm256_storeu_si256((__m256i *)(dst + 32 * p), shuffle_pair(&record[p], two, src));
}

/* The rows [first, n) of a shuffled run, byte by byte from the run's table: no load past the bytes
 * the run needs. */
static void shuffle_rows(const cpu_gather_walk *g, uint8_t *dst, const uint8_t *src, int64_t first,
                         int64_t n, int64_t step)
{
    const cpu_shuffle_table *t = &g->row;
    const int64_t run = (int64_t)g->run_bytes;
    for (int64_t r = first; r < n; ++r) {
        const uint8_t *s = src + r * step;
        uint8_t *d = dst + r * run;
        for (int c = 0; c < t->pieces; ++c) {
            const cpu_shuffle_pair *pair = &t->pairs[c / 2];
            const int lane = c % 2;
            for (int j = 0; j < 16; ++j) {
                const uint8_t low = pair->order[0][16 * lane + j];
                d[16 * c + j] = low < 16 ? s[pair->first[lane] + low]
                                         : s[pair->second[lane] + pair->order[1][16 * lane + j]];
            }
        }
    }
}

/* Shuffled runs (cpu_gather.c's choose_shuffle): tables of several runs while n allows, then run by
 * run (the last piece spilling into the next run's place or the slack), byte by byte where whole
 * loads would read past the input's end. */
AVX2 static void shuffle_avx2(const cpu_gather_walk *g, uint8_t *dst, const uint8_t *src, int64_t n,
                              int64_t step, const uint8_t *src_end)
{
    const int64_t run = (int64_t)g->run_bytes;
    int64_t r = 0;
    for (int table = 0; table < 2; ++table) {
        const cpu_shuffle_table *t = table ? &g->row : &g->group;
        const int64_t rows = table ? 1 : t->rows;
        if (rows < 1)
            continue; /* no table over several runs */
        /* tables whose loads stay before src_end */
        const int64_t room = src_end - (src + r * step) - t->reach;
        int64_t count = (n - r) / rows;
        if (room < 0)
            count = 0;
        else if (step && room / (rows * step) + 1 < count)
            count = room / (rows * step) + 1;
        shuffle_tables(t, dst + r * run, src + r * step, count, rows * run);
        r += count * rows;
    }
    if (r < n)
        shuffle_rows(g, dst, src, r, n, step);
}

/* The loop for a gather's runs of one element (above), or of its splat runs: expanding where
 * cpu_gather.c made a table of phases for it, else a splat by the runs' length. NULL:
 * cpu_gather.c's own. */
static cpu_run_loop run_loop(const cpu_gather_walk *g)
{
    static const cpu_run_loop splats[2][9] = {
        {NULL, splat32_avx2_1, splat32_avx2_2, NULL, splat32_avx2_4, NULL, NULL, NULL,
         splat32_avx2_8},
        {NULL, splat_avx2_1, splat_avx2_2, NULL, splat_avx2_4, NULL, NULL, NULL, splat_avx2_8}};
    static const cpu_run_loop elements[9] = {
        NULL, elements_avx2_1, elements_avx2_2, NULL, elements_avx2_4, NULL, NULL,
        NULL, elements_avx2_8};
    if (g->run_copies && g->run_bytes == g->w && g->w <= 8)
        return elements[g->w];
    if (g->run_copies || g->element > 8)
        return NULL;
    if (g->phases > 0)
        return expand_avx2;
    return splats[g->run_bytes > 32][g->element];
}

AVX2 static void stream_fence(void)
{
    _mm_sfence();
}

/* The AVX2 table, with the fused loops over wide tables or without them. */
#define AVX2_LOOPS(FUSED_WIDE)                                                        \
    {                                                                                 \
        {{ENTRIES(1, 0, 0), ENTRIES(2, 0, 0), ENTRIES(4, 0, 0), ENTRIES(8, 0, 0)},    \
         {ENTRIES(1, 1, 1), ENTRIES(2, 1, 1), ENTRIES(4, 1, 1), ENTRIES(8, 1, 1)},    \
         {ENTRIES(1, 1, 2), ENTRIES(2, 1, 2), ENTRIES(4, 1, 2), ENTRIES(8, 1, 2)},    \
         {ENTRIES(1, 3, 3), ENTRIES(2, 3, 3), ENTRIES(4, 3, 3), ENTRIES(8, 3, 3)}},   \
            run_loop, shuffle_avx2, stream_fence,                                     \
            {transpose_avx2_1, transpose_avx2_2, transpose_avx2_4, transpose_avx2_8}, \
            {{tiled_1_0_rows, tiled_2_0_rows, tiled_4_0_rows, tiled_8_0_rows},        \
             {tiled_1_1_rows, tiled_2_1_rows, tiled_4_1_rows, tiled_8_1_rows}},       \
            clsel_priv_cpu_avx2_expanded, clsel_priv_cpu_avx2_fused, FUSED_WIDE       \
    }
static const cpu_loops avx2_loops = AVX2_LOOPS(NULL);
static const cpu_loops vbmi_loops = AVX2_LOOPS(clsel_priv_cpu_vbmi_fused);

/* What the processor has: 0 no AVX2, 1 AVX2, 2 AVX2 and AVX-512 VBMI (with VL and BW, on 256-bit
 * registers; __builtin_cpu_supports counts only what the OS saves). */
static int avx2_level(void)
{
    static int level = -1; /* -1 unknown; idempotent, so a race only repeats the check */
    int known = __atomic_load_n(&level, __ATOMIC_RELAXED);
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") != 0;
        if (known && __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vl") &&
            __builtin_cpu_supports("avx512bw"))
            known = 2;
        __atomic_store_n(&level, known, __ATOMIC_RELAXED);
    }
    return known;
}

const cpu_loops *clsel_priv_cpu_avx2_loops(int avx512)
{
    const int level = avx2_level();
    return level == 0 ? NULL : level == 2 && avx512 ? &vbmi_loops : &avx2_loops;
}
#else
const cpu_loops *clsel_priv_cpu_avx2_loops(int avx512)
{
    (void)avx512;
    return NULL;
}
#endif
