/* tuning.h - the library's internal size and path knobs, each 0 ("the library's own choice") unless
 * set. They exist so that code which otherwise runs only on huge tensors or on one kind of
 * processor runs on small tensors everywhere: the tests and the benchmark's experiments include
 * this header and link the static library (libclsel.a, the installed one). Not part of the public
 * API: names, meanings and defaults may change with any release. Settings are process-wide; set
 * them while no other thread is inside the library. */
#ifndef CLSEL_HOST_TUNING_H
#define CLSEL_HOST_TUNING_H

#include <stdint.h>

typedef enum clsel_priv_knob {
    /* Every clsel_cl_enqueue splits the output into launches of at most this many elements
     * (default: CL_PIECE_MAX_ELEMENTS of tuning_constants.h, launches whose offsets fit in 32 bits,
     * the split that lets the kernels keep 32-bit index math past 2^31 elements). */
    CLSEL_PRIV_KNOB_PIECE_ELEMENTS,
    /* The CPU path walks blocks of at most this many elements (default: CPU_BLOCK_BYTES
     * of tuning_constants.h, in elements). */
    CLSEL_PRIV_KNOB_BLOCK_ELEMENTS,
    /* Rows of at least this many elements count as long rows (streamed by the row, not gathered
     * into blocks); default: CPU_LONG_ROW_BYTES of tuning_constants.h, in elements. */
    CLSEL_PRIV_KNOB_LONG_ROW,
    /* Nonzero: the CPU path uses its portable loops even where AVX2 is available. */
    CLSEL_PRIV_KNOB_PORTABLE_CPU,
    /* Nonzero: the CPU path leaves out its AVX-512 VBMI loops (the fused blocks' wide tables)
     * where the processor has them. */
    CLSEL_PRIV_KNOB_NO_AVX512,
    /* Nonzero: a runtime made by AUTO treats its device as one that does not work in host memory (a
     * discrete GPU) and measures whether runs pay there (runtime_run.c), also on a CPU device. */
    CLSEL_PRIV_KNOB_HOST_AS_DISCRETE,
    /* The CPU path writes outputs of at least this many bytes with streaming stores (default:
     * CPU_STREAM_MIN_BYTES of tuning_constants.h). */
    CLSEL_PRIV_KNOB_STREAM_BYTES,
    CLSEL_PRIV_KNOBS
} clsel_priv_knob;

void clsel_priv_knob_set(clsel_priv_knob knob, int64_t value);
int64_t clsel_priv_knob_get(clsel_priv_knob knob); /* 0 for an unknown knob */

#endif
