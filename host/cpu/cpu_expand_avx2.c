/* cpu_expand_avx2.c - the AVX2 blend rows whose then or else is one element repeated into short
 * runs along the row (cpu_loops.h, cpu_expanded_fn; the AVX2 table of cpu_loops_avx2.c points at
 * them). The blend reads such an input from the source (cpu_expand_reader), with no gather buffer
 * between: a gathered splat of up to 32 bytes cost a 32-byte store per run, more stores than the
 * select streamed out, and on one core the two queued behind each other (i16 then [553655,7,1]
 * against [553655,7,13], 26-byte runs: 0.74-0.77x the time on one thread; docs/tuning.md,
 * CPU_EXPAND_MOST_RUN_BYTES). A file of its own: its 96 streamed row functions are most of what
 * the static analyzer spends on the AVX2 loops, and apart it analyzes them beside the rest
 * (docs/testing.md). */
#include "common/tuning_constants.h"
#include "cpu/cpu_loops.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include "cpu/cpu_avx2.h"

/* How many of `count` vectors from block byte `at` on load only bytes before the input's end (each
 * loads the 16 bytes from the element its first byte copies); the rest load through
 * bounded_window. Vector j's first element, (at + 32 j) / run, must be below the first whose window
 * passes the end. */
static inline int64_t expanded_vectors_fitting(const cpu_expand_reader *x, int64_t at,
                                               int64_t count)
{
    const cpu_expand_table *table = x->table;
    const int64_t bytes = x->end - x->src;
    if (bytes < 16)
        return 0;
    const int64_t windows = (bytes - 16) / table->w + 1; /* elements whose window fits */
    const int64_t fitting = (windows * table->run - at + 31) / 32;
    return fitting < 0 ? 0 : fitting < count ? fitting : count;
}

/* The window of a vector whose 16 bytes would pass the input's end: the bytes before it, the rest
 * zero (no lane copies them). */
AVX2 static inline __m128i bounded_window(const uint8_t *from, const uint8_t *end)
{
    _Alignas(16) uint8_t bytes[16] = {0};
    memcpy(bytes, from, (size_t)(end - from));
    return _mm_load_si128((const __m128i *)bytes);
}

/* The element reader x gives for block byte `at`. */
static inline const uint8_t *expanded_element(const cpu_expand_reader *x, int64_t at)
{
    return x->src + at / x->table->run * x->table->w;
}

/* XV: else (1) or then (0) is expanded; OV: the other advances (1) or stays on [0] (0); p is the
 * other. `count` whole vectors from block byte `at` on, each entry of the table at a fixed offset
 * from its period's start: no load waits on the one before. BOUNDED: windows through
 * bounded_window. PREFETCH: the cond as the streamed blends prefetch it. */
#define EXPANDED_VECTORS(W, T, XV, OV, S, STORE, PREFETCH)                                         \
    __attribute__((always_inline)) AVX2 static inline void expanded_run_##W##_##XV##OV##_##S(      \
        int64_t count, const uint8_t *c, const T *p, const cpu_expand_reader *x, int64_t at,       \
        uint8_t *o, const int bounded)                                                             \
    {                                                                                              \
        enum {                                                                                     \
            LANES = 32 / W                                                                         \
        };                                                                                         \
        const cpu_expand_table *table = x->table;                                                  \
        const int64_t run = table->run, advance = table->period_advance;                           \
        const int period = table->period, entry_at = table->entry_at[at % run / W];                \
        const int first = entry_at - entry_at % period;                                            \
        int step = entry_at % period;                                                              \
        const uint8_t *cycle = x->src + at / run * W - table->from[entry_at];                      \
        for (int64_t j = 0; j < count; ++j) {                                                      \
            const int entry = first + step;                                                        \
            const uint8_t *from = cycle + table->from[entry];                                      \
            const __m256i window = _mm256_broadcastsi128_si256(                                    \
                bounded ? bounded_window(from, x->end) : _mm_loadu_si128((const __m128i *)from));  \
            const __m256i expanded = _mm256_shuffle_epi8(                                          \
                window, _mm256_load_si256((const __m256i *)table->order[entry]));                  \
            if (PREFETCH && ((uintptr_t)(c + j * LANES) & 63) < LANES)                             \
                _mm_prefetch((const char *)(c + j * LANES + CPU_COND_PREFETCH_BYTES / W),          \
                             _MM_HINT_T0);                                                         \
            const __m256i when_false = zero_mask_##W(c + j * LANES);                               \
            const __m256i other = LOAD(W, OV, p, j * LANES);                                       \
            STORE((__m256i *)(o + 32 * j), XV ? _mm256_blendv_epi8(other, expanded, when_false)    \
                                              : _mm256_blendv_epi8(expanded, other, when_false));  \
            if (++step == period) {                                                                \
                step = 0;                                                                          \
                cycle += advance;                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* The vectors whose windows stay within the input, then the few at its end. */                \
    AVX2 static inline void expanded_vectors_##W##_##XV##OV##_##S(                                 \
        int64_t count, const uint8_t *c, const T *p, const cpu_expand_reader *x, int64_t at,       \
        uint8_t *o)                                                                                \
    {                                                                                              \
        const int64_t fitting = expanded_vectors_fitting(x, at, count);                            \
        expanded_run_##W##_##XV##OV##_##S(fitting, c, p, x, at, o, 0);                             \
        expanded_run_##W##_##XV##OV##_##S(count - fitting, c + fitting * (32 / W),                 \
                                          p + (OV ? fitting * (32 / W) : 0), x, at + 32 * fitting, \
                                          o + 32 * fitting, 1);                                    \
    }

/* As LOOPS above, a blend of n elements, the reader moved on by them: whole vectors, the rest
 * element by element (no last vector overlapping the one before: the reader's phase would need its
 * own entry); streamed (S 1, 2) by stream_row. A vector at the input's end loads its window through
 * bounded_window: falling back to elements for the whole row there left every block that ends with
 * the input (one re-read for each outer index) to the element loop. */
typedef struct expanded_row {
    const uint8_t *c;
    const void *p;
    cpu_expand_reader *x;
} expanded_row;
#define EXPANDED_LOOPS(W, T, XV, OV)                                                               \
    EXPANDED_VECTORS(W, T, XV, OV, 0, _mm256_storeu_si256, 0)                                      \
    EXPANDED_VECTORS(W, T, XV, OV, 1, _mm256_stream_si256, 0)                                      \
    EXPANDED_VECTORS(W, T, XV, OV, 2, _mm256_stream_si256, 1)                                      \
    AVX2 static void expanded_##W##_##XV##OV##_0(int64_t n, const uint8_t *c, const T *p,          \
                                                 cpu_expand_reader *x, uint8_t *o)                 \
    {                                                                                              \
        const int64_t at = x->at;                                                                  \
        const int64_t whole = n / (32 / W);                                                        \
        expanded_vectors_##W##_##XV##OV##_0(whole, c, p, x, at, o);                                \
        int64_t i = whole * (32 / W);                                                              \
        const uint8_t *source = expanded_element(x, at + i * W);                                   \
        int64_t left = x->table->run - (at + i * W) % x->table->run; /* bytes of its run */        \
        for (; i < n; ++i) {                                                                       \
            T repeated, other;                                                                     \
            memcpy(&repeated, source, W);                                                          \
            other = p[OV ? i : 0];                                                                 \
            const T then_value = XV ? other : repeated, else_value = XV ? repeated : other;        \
            memcpy(o + i * W, c[i] ? &then_value : &else_value, W);                                \
            if ((left -= W) == 0) {                                                                \
                source += W;                                                                       \
                left = x->table->run;                                                              \
            }                                                                                      \
        }                                                                                          \
        x->at = at + n * W;                                                                        \
    }                                                                                              \
    AVX2 static void expanded_part_##W##_##XV##OV(void *row, int64_t first, int64_t count,         \
                                                  uint8_t *dst)                                    \
    {                                                                                              \
        const expanded_row *r = row;                                                               \
        expanded_##W##_##XV##OV##_0(count, r->c + first, (const T *)r->p + (OV ? first : 0), r->x, \
                                    dst);                                                          \
    }                                                                                              \
    EXPANDED_STREAMED(W, T, XV, OV, 1)                                                             \
    EXPANDED_STREAMED(W, T, XV, OV, 2)
#define EXPANDED_STREAMED(W, T, XV, OV, S)                                                        \
    AVX2 static void expanded_lines_##W##_##XV##OV##_##S(void *row, int64_t first, int64_t count, \
                                                         uint8_t *dst)                            \
    {                                                                                             \
        const expanded_row *r = row;                                                              \
        expanded_vectors_##W##_##XV##OV##_##S(count / (32 / W), r->c + first,                     \
                                              (const T *)r->p + (OV ? first : 0), r->x, r->x->at, \
                                              dst);                                               \
        r->x->at += count * W;                                                                    \
    }                                                                                             \
    AVX2 static void expanded_##W##_##XV##OV##_##S(int64_t n, const uint8_t *c, const T *p,       \
                                                   cpu_expand_reader *x, uint8_t *o)              \
    {                                                                                             \
        expanded_row row = {c, p, x};                                                             \
        stream_row(&row, n, W, o, expanded_part_##W##_##XV##OV,                                   \
                   expanded_lines_##W##_##XV##OV##_##S);                                          \
    }

/* The rows of a cpu_expanded_fn: the reader carries on from one row to the next. */
#define EXPANDED_ROWS(W, T, XV, OV, S)                                                             \
    AVX2 static void expanded_##W##_##XV##OV##_##S##_rows(const cpu_rows *r, cpu_expand_reader *x) \
    {                                                                                              \
        const uint8_t *c = r->cond, *p = XV ? r->then_data : r->else_data;                         \
        uint8_t *o = r->out;                                                                       \
        const int64_t p_step = r->step[XV ? PLAN_THEN : PLAN_ELSE];                                \
        for (int64_t k = 0; k < r->count; ++k) {                                                   \
            expanded_##W##_##XV##OV##_##S(r->n, c, (const T *)p, x, o);                            \
            c += r->step[PLAN_COND], p += p_step, o += r->step[PLAN_OUT];                          \
        }                                                                                          \
    }
/* Not formatted: one function a line. */
/* clang-format off */
#define EXPANDED_KIND(W, T, XV, OV) \
    EXPANDED_LOOPS(W, T, XV, OV)    \
    EXPANDED_ROWS(W, T, XV, OV, 0)  \
    EXPANDED_ROWS(W, T, XV, OV, 1)  \
    EXPANDED_ROWS(W, T, XV, OV, 2)
#define EXPANDED(W, T) EACH_PAIR(EXPANDED_KIND, W, T)
/* clang-format on */
EACH_WIDTH(EXPANDED)

/* [then 0, else 1 expanded][the other advances] */
#define EXPANDED_ENTRIES(W, S)                                         \
    {                                                                  \
        {expanded_##W##_00_##S##_rows, expanded_##W##_01_##S##_rows},  \
        {                                                              \
            expanded_##W##_10_##S##_rows, expanded_##W##_11_##S##_rows \
        }                                                              \
    }

const cpu_expanded_fn clsel_priv_cpu_avx2_expanded[CPU_STORE_KINDS][4][2][2] = {
    {EXPANDED_ENTRIES(1, 0), EXPANDED_ENTRIES(2, 0), EXPANDED_ENTRIES(4, 0),
     EXPANDED_ENTRIES(8, 0)},
    {EXPANDED_ENTRIES(1, 1), EXPANDED_ENTRIES(2, 1), EXPANDED_ENTRIES(4, 1),
     EXPANDED_ENTRIES(8, 1)},
    {EXPANDED_ENTRIES(1, 2), EXPANDED_ENTRIES(2, 2), EXPANDED_ENTRIES(4, 2),
     EXPANDED_ENTRIES(8, 2)},
    /* split: the expanded rows are not split (the reader moves on in order), the streamed ones */
    {EXPANDED_ENTRIES(1, 1), EXPANDED_ENTRIES(2, 1), EXPANDED_ENTRIES(4, 1),
     EXPANDED_ENTRIES(8, 1)}};
#endif
