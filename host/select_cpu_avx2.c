/* select_cpu_avx2.c - the CPU path's row loops in AVX2, for x86-64 processors that have
 * it (checked at run time; the rest of the library assumes only the baseline ISA).
 *
 * Why not leave it to the compiler: the portable loops in select_cpu.c vectorize, but
 * with the baseline ISA only 16 bytes at a time and never with non-temporal stores.
 * For outputs larger than the last-level cache, writing the output around the cache
 * (no read-for-ownership) is what brings Select to memcpy's bandwidth (measured on the
 * CI box, 2^26 f32: 18.6 GB/s with plain stores, 22.7-27.9 GB/s streamed; memcpy 26-27).
 *
 * Every element still moves as the bits of its storage width: a byte mask from
 * cond == 0, widened to the element width, blends then and else. */
#include "select_cpu.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#include <string.h>

#define AVX2 __attribute__((target("avx2")))

/* Per element width: elements per 256-bit vector, the mask of cond bytes == 0 for the
 * vector of elements at c, and a broadcast of one element. */
AVX2 static inline __m256i zero_mask_1(const uint8_t *c)
{
    return _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)c), _mm256_setzero_si256());
}
AVX2 static inline __m256i zero_mask_2(const uint8_t *c)
{
    return _mm256_cmpeq_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)c)), _mm256_setzero_si256());
}
AVX2 static inline __m256i zero_mask_4(const uint8_t *c)
{
    return _mm256_cmpeq_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)c)), _mm256_setzero_si256());
}
AVX2 static inline __m256i zero_mask_8(const uint8_t *c)
{
    int32_t four;
    memcpy(&four, c, 4);
    return _mm256_cmpeq_epi64(_mm256_cvtepu8_epi64(_mm_cvtsi32_si128(four)), _mm256_setzero_si256());
}
AVX2 static inline __m256i splat_1(const uint8_t *v) { return _mm256_set1_epi8((char)*v); }
AVX2 static inline __m256i splat_2(const uint16_t *v) { return _mm256_set1_epi16((short)*v); }
AVX2 static inline __m256i splat_4(const uint32_t *v) { return _mm256_set1_epi32((int)*v); }
AVX2 static inline __m256i splat_8(const uint64_t *v) { return _mm256_set1_epi64x((long long)*v); }

/* Stores a vector, streamed past the caches or not. */
#define STORE_1(p, v) _mm256_stream_si256((__m256i *)(p), v)
#define STORE_0(p, v) _mm256_storeu_si256((__m256i *)(p), v)

/* cond advances along the row: blend then and else by the cond mask. TV, EV: whether
 * then / else advance; STREAM: non-temporal stores (the output pointer is first
 * brought to a 32-byte boundary element by element). */
#define ROW_BLEND(W, T, TV, EV, STREAM)                                                         \
    AVX2 static inline void blend_##W##_##TV##EV##_##STREAM(int64_t n, const uint8_t *c, const void *tv, \
                                                            const void *ev, void *ov)               \
    {                                                                                           \
        const T *t = tv, *e = ev;                                                               \
        T *o = ov;                                                                              \
        enum { LANES = 32 / W };                                                                \
        int64_t i = 0;                                                                          \
        if (STREAM)                                                                             \
            for (; i < n && ((uintptr_t)(o + i) & 31); ++i) o[i] = c[i] ? t[TV ? i : 0] : e[EV ? i : 0]; \
        const __m256i t_splat = splat_##W(t), e_splat = splat_##W(e);                           \
        for (; i + LANES <= n; i += LANES) {                                                    \
            const __m256i when_false = zero_mask_##W(c + i);                                    \
            const __m256i a = TV ? _mm256_loadu_si256((const __m256i *)(t + i)) : t_splat;      \
            const __m256i b = EV ? _mm256_loadu_si256((const __m256i *)(e + i)) : e_splat;      \
            STORE_##STREAM(o + i, _mm256_blendv_epi8(a, b, when_false));                        \
        }                                                                                       \
        for (; i < n; ++i) o[i] = c[i] ? t[TV ? i : 0] : e[EV ? i : 0];                         \
    }

/* cond constant along the row: a copy (or fill) of the chosen operand, which alone is read. */
#define ROW_PICK(W, T, TV, EV, STREAM)                                                          \
    AVX2 static inline void pick_##W##_##TV##EV##_##STREAM(int64_t n, const uint8_t *c, const void *tv, \
                                                           const void *ev, void *ov)                \
    {                                                                                           \
        const int take_then = c[0] != 0;                                                        \
        const T *s = take_then ? (const T *)tv : (const T *)ev;                                 \
        const int advances = take_then ? TV : EV;                                               \
        T *o = ov;                                                                              \
        enum { LANES = 32 / W };                                                                \
        int64_t i = 0;                                                                          \
        if (STREAM)                                                                             \
            for (; i < n && ((uintptr_t)(o + i) & 31); ++i) o[i] = s[advances ? i : 0];         \
        const __m256i splat = splat_##W(s);                                                     \
        if (advances)                                                                           \
            for (; i + LANES <= n; i += LANES)                                                  \
                STORE_##STREAM(o + i, _mm256_loadu_si256((const __m256i *)(s + i)));            \
        else                                                                                    \
            for (; i + LANES <= n; i += LANES) STORE_##STREAM(o + i, splat);                    \
        for (; i < n; ++i) o[i] = s[advances ? i : 0];                                          \
    }

/* The cpu_row_fn around one row function: the rows of a sweep, one after another. */
#define SWEEP(KIND, W, TV, EV, STREAM)                                                         \
    AVX2 static void KIND##_rows_##W##_##TV##EV##_##STREAM(const cpu_rows *r)                    \
    {                                                                                          \
        const uint8_t *c = r->cond, *t = r->then_data, *e = r->else_data;                      \
        uint8_t *o = r->out;                                                                   \
        for (int64_t k = 0; k < r->count; ++k) {                                               \
            KIND##_##W##_##TV##EV##_##STREAM(r->n, c, t, e, o);                                \
            c += r->step[0], t += r->step[1], e += r->step[2], o += r->step[3];                \
        }                                                                                      \
    }

#define ROW_KIND(W, T, TV, EV, STREAM)                                                         \
    ROW_PICK(W, T, TV, EV, STREAM) SWEEP(pick, W, TV, EV, STREAM)                              \
    ROW_BLEND(W, T, TV, EV, STREAM) SWEEP(blend, W, TV, EV, STREAM)

#define ROWS(W, T, STREAM)                                                                     \
    ROW_KIND(W, T, 0, 0, STREAM) ROW_KIND(W, T, 0, 1, STREAM) ROW_KIND(W, T, 1, 0, STREAM)     \
    ROW_KIND(W, T, 1, 1, STREAM)

ROWS(1, uint8_t, 0) ROWS(2, uint16_t, 0) ROWS(4, uint32_t, 0) ROWS(8, uint64_t, 0)
ROWS(1, uint8_t, 1) ROWS(2, uint16_t, 1) ROWS(4, uint32_t, 1) ROWS(8, uint64_t, 1)

/* Entries in the order of select_cpu.c's tables: cond, then, else advancing, as bits. */
#define ENTRIES(W, S)                                                                        \
    {pick_rows_##W##_00_##S, pick_rows_##W##_01_##S, pick_rows_##W##_10_##S, pick_rows_##W##_11_##S, \
     blend_rows_##W##_00_##S, blend_rows_##W##_01_##S, blend_rows_##W##_10_##S, blend_rows_##W##_11_##S}

static const cpu_row_fn avx2_rows[2][4][8] = {
    {ENTRIES(1, 0), ENTRIES(2, 0), ENTRIES(4, 0), ENTRIES(8, 0)},
    {ENTRIES(1, 1), ENTRIES(2, 1), ENTRIES(4, 1), ENTRIES(8, 1)},
};

const cpu_row_fn (*cpu_avx2_rows(int stream))[8]
{
    static int supported = -1; /* -1 unknown, 0 or 1; idempotent, so a race only repeats the check */
    int known = __atomic_load_n(&supported, __ATOMIC_RELAXED);
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") != 0;
        __atomic_store_n(&supported, known, __ATOMIC_RELAXED);
    }
    return known ? avx2_rows[stream ? 1 : 0] : NULL;
}

void cpu_stream_fence(void) { _mm_sfence(); }

#else

const cpu_row_fn (*cpu_avx2_rows(int stream))[8]
{
    (void)stream;
    return NULL;
}

void cpu_stream_fence(void) {}

#endif
