/* cpu_fused_avx2.c - the AVX2 loops of a fused block (cpu_loops.h, cpu_fused_fn; the AVX2 tables
 * of cpu_loops_avx2.c point at them): each input read where it lies, a run loaded as it is or a
 * short periodic pattern built in registers by its shuffle table (cpu_fused.c), and blended into
 * the output with no gather buffer between. Gathered, each such input cost a store and a load of
 * every output byte besides its shuffles (docs/tuning.md, CPU_FUSED_TABLE_BYTES). The same loops
 * over wide tables, for processors with AVX-512 VBMI, build each vector with one 32-byte permute
 * (measured there too). */
#include "common/tuning_constants.h"
#include "cpu/cpu_loops.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include "cpu/cpu_avx2.h"

/* The lines an input's next table reads, CPU_FUSED_PREFETCH_BYTES of its source ahead, each line
 * once (at the table that reaches its start): one run of reads keeps too few misses in flight for
 * memory's bandwidth (as the streamed rows' splits, docs/tuning.md). */
AVX2 static inline void fused_prefetch(const uint8_t *src, int64_t advance)
{
    const uintptr_t ahead = (uintptr_t)src + CPU_FUSED_PREFETCH_BYTES;
    for (uintptr_t line = (ahead + 63) & ~(uintptr_t)63; line < ahead + (uintptr_t)advance;
         line += 64)
        _mm_prefetch((const char *)line, _MM_HINT_T0);
}

/* AVX-512 VBMI's 32-byte byte permutes, on 256-bit registers (with VL and BW). */
#define VBMI __attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512vbmi")))

/* The 32 bytes of wide record r (cpu_loops.h, cpu_wide_record) at s: one permute of its first
 * window, or of both where its table has second windows (`two`; a record that needs none names
 * its first again, which the permute's indices below 32 read alone). */
VBMI static inline __m256i wide_vector(const cpu_wide_record *r, int two, const uint8_t *s)
{
    const __m256i order = _mm256_load_si256((const __m256i *)r->order);
    const __m256i first = _mm256_loadu_si256((const __m256i *)(s + r->first));
    if (!two)
        return _mm256_permutexvar_epi8(order, first);
    const __m256i second = _mm256_loadu_si256((const __m256i *)(s + r->second));
    return _mm256_permutex2var_epi8(first, order, second);
}

/* A table input's vector p: of record p of its table at src (`VECTOR`: shuffle_pair for the
 * pieces' records, wide_vector for wide ones), or a run's vector p from src. */
#define FUSED_INPUT(TABLED, VECTOR, records, two, src, p) \
    (TABLED ? VECTOR((records) + (p), two, src)           \
            : _mm256_loadu_si256((const __m256i *)((src) + 32 * (p))))

/* CT, TT, ET: cond, then, else read through a table (1) or as a run (0). A table's cond is a byte
 * of its element's cond per output byte, so its mask is a byte compare; a run's is widened to the
 * element width. Each input moves on after each table (a last partial one too, past which nothing
 * is read). KIND is the table's field that holds its records: `pairs` (RECORD cpu_shuffle_pair,
 * read by shuffle_pair, AVX2) or `wide` (cpu_wide_record, wide_vector, AVX-512 VBMI). */
#define FUSED_LOOP(KIND, ATTR, RECORD, VECTOR, W, CT, TT, ET, S, STORE)                       \
    ATTR static void fused_##KIND##_##W##_##CT##TT##ET##_##S(cpu_fused_inputs *in,            \
                                                             int64_t vectors, uint8_t *out)   \
    {                                                                                         \
        const RECORD *ct = CT ? in->table[0]->KIND : NULL;                                    \
        const RECORD *tt = TT ? in->table[1]->KIND : NULL;                                    \
        const RECORD *et = ET ? in->table[2]->KIND : NULL;                                    \
        const int c2 = CT && in->table[0]->two, t2 = TT && in->table[1]->two;                 \
        const int e2 = ET && in->table[2]->two;                                               \
        const uint8_t *c = in->src[0], *t = in->src[1], *e = in->src[2];                      \
        const int64_t pairs = in->pairs;                                                      \
        const int64_t c_advance = in->advance[0], t_advance = in->advance[1],                 \
                      e_advance = in->advance[2];                                             \
        (void)ct, (void)tt, (void)et, (void)c2, (void)t2, (void)e2;                           \
        for (int64_t v = 0; v < vectors;) {                                                   \
            const int64_t n = vectors - v < pairs ? vectors - v : pairs;                      \
            for (int64_t p = 0; p < n; ++p) {                                                 \
                const __m256i when_false =                                                    \
                    CT ? _mm256_cmpeq_epi8(VECTOR(ct + p, c2, c), _mm256_setzero_si256())     \
                       : zero_mask_##W(c + p * (32 / W));                                     \
                const __m256i a = FUSED_INPUT(TT, VECTOR, tt, t2, t, p);                      \
                const __m256i b = FUSED_INPUT(ET, VECTOR, et, e2, e, p);                      \
                STORE((__m256i *)(out + 32 * (v + p)), _mm256_blendv_epi8(a, b, when_false)); \
            }                                                                                 \
            fused_prefetch(c, c_advance);                                                     \
            fused_prefetch(t, t_advance);                                                     \
            fused_prefetch(e, e_advance);                                                     \
            c += c_advance;                                                                   \
            t += t_advance;                                                                   \
            e += e_advance;                                                                   \
            v += n;                                                                           \
        }                                                                                     \
        in->src[0] = c;                                                                       \
        in->src[1] = t;                                                                       \
        in->src[2] = e;                                                                       \
    }
#define FUSED_STORES(W, CT, TT, ET)                                                                \
    FUSED_LOOP(pairs, AVX2, cpu_shuffle_pair, shuffle_pair, W, CT, TT, ET, 0, _mm256_storeu_si256) \
    FUSED_LOOP(pairs, AVX2, cpu_shuffle_pair, shuffle_pair, W, CT, TT, ET, 1, _mm256_stream_si256) \
    FUSED_LOOP(wide, VBMI, cpu_wide_record, wide_vector, W, CT, TT, ET, 0, _mm256_storeu_si256)    \
    FUSED_LOOP(wide, VBMI, cpu_wide_record, wide_vector, W, CT, TT, ET, 1, _mm256_stream_si256)
/* Not formatted: one instance a line. */
/* clang-format off */
#define FUSED_VARIANTS(W, T) \
    FUSED_STORES(W, 0, 0, 0) \
    FUSED_STORES(W, 1, 0, 0) \
    FUSED_STORES(W, 0, 1, 0) \
    FUSED_STORES(W, 1, 1, 0) \
    FUSED_STORES(W, 0, 0, 1) \
    FUSED_STORES(W, 1, 0, 1) \
    FUSED_STORES(W, 0, 1, 1) \
    FUSED_STORES(W, 1, 1, 1)
/* clang-format on */
EACH_WIDTH(FUSED_VARIANTS)

/* [cond, then, else through a table: bits 0, 1, 2] */
#define FUSED_ENTRIES(KIND, W, S)                                                                 \
    {                                                                                             \
        fused_##KIND##_##W##_000_##S, fused_##KIND##_##W##_100_##S, fused_##KIND##_##W##_010_##S, \
            fused_##KIND##_##W##_110_##S, fused_##KIND##_##W##_001_##S,                           \
            fused_##KIND##_##W##_101_##S, fused_##KIND##_##W##_011_##S,                           \
            fused_##KIND##_##W##_111_##S                                                          \
    }
#define FUSED_TABLE(KIND)                                                                    \
    {                                                                                        \
        {FUSED_ENTRIES(KIND, 1, 0), FUSED_ENTRIES(KIND, 2, 0), FUSED_ENTRIES(KIND, 4, 0),    \
         FUSED_ENTRIES(KIND, 8, 0)},                                                         \
        {                                                                                    \
            FUSED_ENTRIES(KIND, 1, 1), FUSED_ENTRIES(KIND, 2, 1), FUSED_ENTRIES(KIND, 4, 1), \
                FUSED_ENTRIES(KIND, 8, 1)                                                    \
        }                                                                                    \
    }

const cpu_fused_fn clsel_priv_cpu_avx2_fused[2][4][8] = FUSED_TABLE(pairs);
const cpu_fused_fn clsel_priv_cpu_vbmi_fused[2][4][8] = FUSED_TABLE(wide);
#endif
