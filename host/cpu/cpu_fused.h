/* cpu_fused.h - the CPU path's fused blocks (cpu_fused.c): a walk whose inputs are short periodic
 * patterns of the blocks' whole dims (an element repeated over a short dim, a short row tiled,
 * interleaved), each read where it lies and built in registers by the blend itself. */
#ifndef CLSEL_HOST_CPU_FUSED_H
#define CLSEL_HOST_CPU_FUSED_H

#include "cpu/cpu_walk.h"

/* Whether walk's blocks are read fused, and how (walk->fused): where the loops have fused blends,
 * the output is a run in every block, the cond varies, two inputs or more are patterns and each
 * input is a run or a pattern whose every 16 output bytes come from 32 source bytes or fewer. */
void clsel_priv_cpu_fused_choose(cpu_walk *walk);
/* Walks the blocks of a fused walk. */
void clsel_priv_cpu_fused_run(const cpu_walk *walk, const cpu_tensors *t);

#endif
