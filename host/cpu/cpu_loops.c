/* cpu_loops.c - the portable row loops, and the choice of loop table (cpu_loops.h).
 *
 * Elements move as unsigned integers of their storage width (never through float
 * registers, so NaN payloads and -0.0 survive). The loops load all three values and
 * pick by a bit mask: a ternary against memory is a conditional load that compilers do
 * not vectorize, and the mask form also vectorizes 8-byte elements with the baseline
 * x86-64 ISA, which the ternary does not (5 vs 19 GB/s). */
#include "cpu/cpu_loops.h"

#include "common/tuning.h"

/* CV, TV, EV: 1 when cond / then / else advance, 0 when they stay put. */
#define CLSEL_ROW_FN(T, CV, TV, EV)                                                                 \
    static inline void one_row_##T##_##CV##TV##EV(int64_t n, const uint8_t *cond, const T *t, const T *e, T *o) \
    {                                                                                               \
        for (int64_t i = 0; i < n; ++i) {                                                           \
            const T take_then = (T)0 - (T)(cond[CV ? i : 0] != 0);                                  \
            o[i] = (t[TV ? i : 0] & take_then) | (e[EV ? i : 0] & (T)~take_then);                   \
        }                                                                                           \
    }                                                                                               \
    static void row_##T##_##CV##TV##EV(const cpu_rows *r)                                           \
    {                                                                                               \
        const uint8_t *c = r->cond, *t = r->then_data, *e = r->else_data;                           \
        uint8_t *o = r->out;                                                                        \
        for (int64_t k = 0; k < r->count; ++k) {                                                    \
            one_row_##T##_##CV##TV##EV(r->n, c, (const T *)t, (const T *)e, (T *)o);               \
            c += r->step[0], t += r->step[1], e += r->step[2], o += r->step[3];                     \
        }                                                                                           \
    }

#define CLSEL_ROW_FNS(T)                                                                        \
    CLSEL_ROW_FN(T, 0, 0, 0) CLSEL_ROW_FN(T, 0, 0, 1) CLSEL_ROW_FN(T, 0, 1, 0) CLSEL_ROW_FN(T, 0, 1, 1) \
    CLSEL_ROW_FN(T, 1, 0, 0) CLSEL_ROW_FN(T, 1, 0, 1) CLSEL_ROW_FN(T, 1, 1, 0) CLSEL_ROW_FN(T, 1, 1, 1)

CLSEL_ROW_FNS(uint8_t)
CLSEL_ROW_FNS(uint16_t)
CLSEL_ROW_FNS(uint32_t)
CLSEL_ROW_FNS(uint64_t)

/* In variant order (plan_iter.h). */
#define CLSEL_ROW_ENTRIES(T)                                                                 \
    {row_##T##_000, row_##T##_001, row_##T##_010, row_##T##_011, row_##T##_100, row_##T##_101, \
     row_##T##_110, row_##T##_111}
#define CLSEL_ROW_WIDTHS \
    {CLSEL_ROW_ENTRIES(uint8_t), CLSEL_ROW_ENTRIES(uint16_t), CLSEL_ROW_ENTRIES(uint32_t), CLSEL_ROW_ENTRIES(uint64_t)}

static void no_fence(void) {}

/* The portable loops store the same way whether the output is streamed or not. */
static const cpu_loops portable = {{CLSEL_ROW_WIDTHS, CLSEL_ROW_WIDTHS}, NULL, NULL, no_fence};

const cpu_loops *clsel_priv_cpu_loops(void)
{
    const cpu_loops *avx2 = clsel_priv_knob_get(CLSEL_PRIV_KNOB_PORTABLE_CPU) ? NULL : clsel_priv_cpu_avx2_loops();
    return avx2 ? avx2 : &portable;
}
