/* cpu_avx2.h - what the CPU path's AVX2 files share (cpu_loops_avx2.c, the loop table,
 * cpu_expand_avx2.c, its expanded rows, and cpu_fused_avx2.c, its fused blocks): the cond masks and
 * broadcasts per element width, the streamed stores, the row that streams its whole lines and two
 * 16-byte loads as one vector. Included only where they are compiled
 * (x86-64, GCC or Clang), inside their guard. */
#ifndef CLSEL_CPU_AVX2_H
#define CLSEL_CPU_AVX2_H

#include <immintrin.h>
#include <string.h>

#include "cpu/cpu_loops.h"

#define AVX2 __attribute__((target("avx2")))

AVX2 static inline int load_4(const uint8_t *p)
{
    int v;
    memcpy(&v, p, 4);
    return v;
}

/* Per element width: the mask of cond == 0 for the vector of elements at c, and a broadcast of one
 * element. */
#define ZERO_MASK(W, BITS, WIDE)                                     \
    AVX2 static inline __m256i zero_mask_##W(const uint8_t *c)       \
    {                                                                \
        return _mm256_cmpeq_epi##BITS(WIDE, _mm256_setzero_si256()); \
    }
ZERO_MASK(1, 8, _mm256_loadu_si256((const __m256i *)c))
ZERO_MASK(2, 16, _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)c)))
ZERO_MASK(4, 32, _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)c)))
ZERO_MASK(8, 64, _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(load_4(c))))
AVX2 static inline __m256i splat_1(const uint8_t *v)
{
    return _mm256_set1_epi8((char)*v);
}
AVX2 static inline __m256i splat_2(const uint16_t *v)
{
    return _mm256_set1_epi16((short)*v);
}
AVX2 static inline __m256i splat_4(const uint32_t *v)
{
    return _mm256_set1_epi32((int)*v);
}
AVX2 static inline __m256i splat_8(const uint64_t *v)
{
    return _mm256_set1_epi64x((long long)*v);
}

/* A loop macro M instantiated for each element width (with its unsigned type), and for each pair of
 * two flags. Not formatted: one instance a line. */
/* clang-format off */
#define EACH_WIDTH(M) \
    M(1, uint8_t)     \
    M(2, uint16_t)    \
    M(4, uint32_t)    \
    M(8, uint64_t)
#define EACH_PAIR(M, W, T) \
    M(W, T, 0, 0)          \
    M(W, T, 0, 1)          \
    M(W, T, 1, 0)          \
    M(W, T, 1, 1)
/* clang-format on */

/* An operand's vector from element i (V 1: it advances) or its element [0] broadcast (V 0). */
#define LOAD(W, V, p, i) (V ? _mm256_loadu_si256((const __m256i *)((p) + (i))) : splat_##W(p))

/* k < 16 bytes streamed by one byte-masked store (maskmovdqu) on the 16-byte chunk that holds dst,
 * which cannot cross a page (the masked-out bytes are never touched). For the 1-3 bytes of an
 * output not 4-byte aligned: plain byte stores pull the line into the cache while the rest is
 * streamed, and rows of 2597 bytes took twice as long as rows of 2596 (u8 [96,10,44,2597] under a
 * [96,10,44,1] else: 22.6-28.4 ms against 10.9-14.6 ms). */
AVX2 static inline void stream_few(uint8_t *dst, const uint8_t *src, size_t k)
{
    const size_t at = (uintptr_t)dst & 15;
    _Alignas(16) uint8_t bytes[16] = {0}, mask[16] = {0};
    for (size_t i = 0; i < k; ++i) {
        bytes[at + i] = src[i];
        mask[at + i] = 0x80;
    }
    _mm_maskmoveu_si128(_mm_load_si128((const __m128i *)bytes),
                        _mm_load_si128((const __m128i *)mask), (char *)(dst - at));
}

/* len bytes streamed to any dst: 16- and 4-byte stores where its alignment allows, masked ones
 * before and after. */
AVX2 static inline void stream_bytes(uint8_t *dst, const uint8_t *src, size_t len)
{
    size_t head = (4 - ((uintptr_t)dst & 3)) & 3;
    if (head > len)
        head = len;
    if (head) {
        stream_few(dst, src, head);
        dst += head;
        src += head;
        len -= head;
    }
    for (; len >= 4 && ((uintptr_t)dst & 15); len -= 4, dst += 4, src += 4)
        _mm_stream_si32((int *)dst, load_4(src));
    for (; len >= 16; len -= 16, dst += 16, src += 16)
        _mm_stream_si128((__m128i *)dst, _mm_loadu_si128((const __m128i *)src));
    for (; len >= 4; len -= 4, dst += 4, src += 4)
        _mm_stream_si32((int *)dst, load_4(src));
    if (len)
        stream_few(dst, src, len);
}

/* A streamed row without whole lines spans two lines at most, where o is on an element boundary of
 * them: up to this many bytes, computed into a buffer and streamed from it, not stored in place,
 * where plain stores would pull into the cache the lines it shares with the rows streamed around
 * it. Such rows are the elements up to a block's first line (cpu_walk.c, lead_to_line): stored in
 * place they made f64 then [2,31,40,13,1,16] under else [31,1] slower than the rows' ends they
 * replaced (docs/performance_analysis.md). */
#define STREAMED_SHORT_ROW_BYTES 128

/* The runs of lines a streamed row's whole lines of `bytes` are written in: `parts` where they make
 * CPU_STREAM_SPLIT_MIN_BYTES or more, else one. */
static inline int64_t streamed_parts(int64_t parts, int64_t bytes)
{
    return bytes >= CPU_STREAM_SPLIT_MIN_BYTES ? parts : 1;
}

/* A streamed row of n elements of w bytes at o: its whole 64-byte lines are elements [lo, hi).
 * Returns 0 where it has none, or o is not on an element boundary of them. */
static inline int whole_lines(const void *o, int64_t n, size_t w, int64_t *lo, int64_t *hi)
{
    const uintptr_t misaligned = (uintptr_t)o & 63;
    const int64_t line = 64 / (int64_t)w;
    *lo = (int64_t)((64 - misaligned) & 63) / (int64_t)w;
    if (misaligned % w || n < *lo + line)
        return 0;
    *hi = *lo + (n - *lo) / line * line;
    return 1;
}

/* A streamed row of n elements of w bytes at o for the blends that read through readers (tiled,
 * expanded), which move on element by element, so that the row is done in order and once: `part`
 * computes row elements [first, first + count) into dst with plain stores, `lines` streams whole
 * 64-byte lines of them to dst. The partial lines at the row's ends are computed into a buffer and
 * streamed from it (as by the streamed loops below); a row without whole lines is one part in
 * place. Inlined, with the functions constant: direct calls. */
typedef void (*row_part_fn)(void *row, int64_t first, int64_t count, uint8_t *dst);
__attribute__((always_inline)) AVX2 static inline void
stream_row(void *row, int64_t n, size_t w, uint8_t *o, row_part_fn part, row_part_fn lines)
{
    int64_t lo, hi;
    if (!whole_lines(o, n, w, &lo, &hi)) {
        uint8_t short_row[STREAMED_SHORT_ROW_BYTES] = {0};
        const size_t bytes = (size_t)n * w;
        if (bytes > sizeof short_row || (uintptr_t)o % w) {
            part(row, 0, n, o);
            return;
        }
        part(row, 0, n, short_row);
        stream_bytes(o, short_row, bytes);
        return;
    }
    uint8_t buffer[64] = {0};
    if (lo) {
        part(row, 0, lo, buffer);
        stream_bytes(o, buffer, (size_t)lo * w);
    }
    lines(row, lo, hi - lo, o + lo * (int64_t)w);
    if (n > hi) {
        part(row, hi, n - hi, buffer);
        stream_bytes(o + hi * (int64_t)w, buffer, (size_t)(n - hi) * w);
    }
}

/* Two 16-byte loads, from `low` and `high`, as the low and high lanes of one 32-byte vector. */
AVX2 static inline __m256i load_pair(const uint8_t *low, const uint8_t *high)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)low)),
                                   _mm_loadu_si128((const __m128i *)high), 1);
}

/* The 32 bytes of pair record r of a shuffle table (cpu_loops.h) at s: both lanes' first windows
 * shuffled, and their second windows so where the record has one (tested only where the table has
 * any: `two`). The gather's shuffled runs (cpu_loops_avx2.c) and the fused blocks
 * (cpu_fused_avx2.c) read their tables through it. */
AVX2 static inline __m256i shuffle_pair(const cpu_shuffle_pair *r, int two, const uint8_t *s)
{
    const __m256i first = load_pair(s + r->first[0], s + r->first[1]);
    const __m256i v = _mm256_shuffle_epi8(first, _mm256_load_si256((const __m256i *)r->order[0]));
    if (!two || !r->two)
        return v;
    const __m256i second = load_pair(s + r->second[0], s + r->second[1]);
    return _mm256_or_si256(
        v, _mm256_shuffle_epi8(second, _mm256_load_si256((const __m256i *)r->order[1])));
}

/* The expanded rows' table (cpu_expand_avx2.c), the AVX2 table's `expanded`, and the fused blocks'
 * loops (cpu_fused_avx2.c), its `fused`. */
extern const cpu_expanded_fn clsel_priv_cpu_avx2_expanded[CPU_STORE_KINDS][4][2][2];
extern const cpu_fused_fn clsel_priv_cpu_avx2_fused[2][4][8];
extern const cpu_fused_fn clsel_priv_cpu_vbmi_fused[2][4][8];

#endif
