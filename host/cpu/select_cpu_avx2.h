/* select_cpu_avx2.h - the CPU path's AVX2 loops (select_cpu_avx2.c): the row loops the
 * walk calls and the gather's run loops, each NULL where the processor (or the build)
 * has no AVX2, so that the callers keep their portable loops. */
#ifndef CLSEL_HOST_SELECT_CPU_AVX2_H
#define CLSEL_HOST_SELECT_CPU_AVX2_H

#include "cpu/cpu_gather.h"
#include "cpu/cpu_rows.h"

/* The AVX2 row loops [element width index][variant], plain or streaming stores.
 * clsel_priv_cpu_stream_fence orders streamed stores before returning. */
const cpu_row_fn (*clsel_priv_cpu_avx2_rows(int stream))[PLAN_VARIANTS];
void clsel_priv_cpu_stream_fence(void);

/* The AVX2 loop for a gather's runs, filling the shuffles it needs; NULL also where the
 * runs gain nothing from it. */
cpu_run_loop clsel_priv_cpu_avx2_run_loop(cpu_gather_walk *g);
/* The AVX2 loop for a shuffled run (g->shuffled). */
cpu_run_loop clsel_priv_cpu_avx2_shuffle_loop(void);

#endif
