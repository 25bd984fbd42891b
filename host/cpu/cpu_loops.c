/* cpu_loops.c - the portable row loops, and the choice of loop table (cpu_loops.h). Elements move
 * as unsigned integers of their storage width (never through float registers, so NaN payloads and
 * -0.0 survive). The loops load all three values and pick by a bit mask: compilers do not vectorize
 * a ternary against memory (a conditional load), and the mask form also vectorizes 8-byte elements
 * with the baseline x86-64 ISA, which the ternary does not (5 vs 19 GB/s). */
#include "cpu/cpu_loops.h"

#include "common/tuning.h"

/* CV, TV, EV: 1 when cond / then / else advance, 0 when they stay put. */
#define CLSEL_ROW_FN(T, CV, TV, EV)                                                        \
    static inline void row_##T##_##CV##TV##EV(int64_t n, const uint8_t *c, const void *tv, \
                                              const void *ev, void *ov)                    \
    {                                                                                      \
        const T *t = tv, *e = ev;                                                          \
        T *o = ov;                                                                         \
        for (int64_t i = 0; i < n; ++i) {                                                  \
            const T take_then = (T)0 - (T)(c[CV ? i : 0] != 0);                            \
            o[i] = (t[TV ? i : 0] & take_then) | (e[EV ? i : 0] & (T)~take_then);          \
        }                                                                                  \
    }                                                                                      \
    CPU_ROWS_FN(, row_##T##_##CV##TV##EV)
/* Not formatted: one function a line (the formatter packs macro calls that end in no ';'). */
/* clang-format off */
#define CLSEL_ROW_FNS(T)     \
    CLSEL_ROW_FN(T, 0, 0, 0) \
    CLSEL_ROW_FN(T, 0, 0, 1) \
    CLSEL_ROW_FN(T, 0, 1, 0) \
    CLSEL_ROW_FN(T, 0, 1, 1) \
    CLSEL_ROW_FN(T, 1, 0, 0) \
    CLSEL_ROW_FN(T, 1, 0, 1) \
    CLSEL_ROW_FN(T, 1, 1, 0) \
    CLSEL_ROW_FN(T, 1, 1, 1)
/* clang-format on */
CLSEL_ROW_FNS(uint8_t)
CLSEL_ROW_FNS(uint16_t)
CLSEL_ROW_FNS(uint32_t)
CLSEL_ROW_FNS(uint64_t)

/* In variant order (plan_iter.h). */
#define CLSEL_ROW_ENTRIES(T)                                                               \
    {                                                                                      \
        row_##T##_000_rows, row_##T##_001_rows, row_##T##_010_rows, row_##T##_011_rows,    \
            row_##T##_100_rows, row_##T##_101_rows, row_##T##_110_rows, row_##T##_111_rows \
    }
#define CLSEL_ROW_WIDTHS                                                                      \
    {                                                                                         \
        CLSEL_ROW_ENTRIES(uint8_t), CLSEL_ROW_ENTRIES(uint16_t), CLSEL_ROW_ENTRIES(uint32_t), \
            CLSEL_ROW_ENTRIES(uint64_t)                                                       \
    }

/* The portable loops store the same way whether the output is streamed or not. */
static void no_fence(void)
{
}
/* No tiled, expanded or fused rows: a tiled input, a repeated element and a pattern are gathered
 * whole. */
static const cpu_loops portable = {
    {CLSEL_ROW_WIDTHS, CLSEL_ROW_WIDTHS, CLSEL_ROW_WIDTHS, CLSEL_ROW_WIDTHS},
    NULL,
    NULL,
    no_fence,
    {NULL, NULL, NULL, NULL},
    {{NULL, NULL, NULL, NULL}, {NULL, NULL, NULL, NULL}},
    NULL,
    NULL,
    NULL};

const cpu_loops *clsel_priv_cpu_loops(void)
{
    const int avx512 = !clsel_priv_knob_get(CLSEL_PRIV_KNOB_NO_AVX512);
    const cpu_loops *avx2 = clsel_priv_knob_get(CLSEL_PRIV_KNOB_PORTABLE_CPU)
                                ? NULL
                                : clsel_priv_cpu_avx2_loops(avx512);
    return avx2 ? avx2 : &portable;
}
