/* tuning.c - storage for the knobs of tuning.h. Read once per run or per launch, never
 * per element, so an atomic load costs nothing measurable. */
#include "common/tuning.h"

#include <stdatomic.h>

static _Atomic int64_t knobs[CLSEL_PRIV_KNOBS];

void clsel_priv_knob_set(clsel_priv_knob knob, int64_t value)
{
    if ((unsigned)knob < CLSEL_PRIV_KNOBS)
        atomic_store_explicit(&knobs[knob], value, memory_order_relaxed);
}

int64_t clsel_priv_knob_get(clsel_priv_knob knob)
{
    return (unsigned)knob < CLSEL_PRIV_KNOBS
               ? atomic_load_explicit(&knobs[knob], memory_order_relaxed)
               : 0;
}
