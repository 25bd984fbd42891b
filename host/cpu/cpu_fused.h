/* cpu_fused.h - the CPU path's fused blocks (cpu_fused.c): a walk whose inputs are short periodic
 * patterns of the blocks' whole dims (an element repeated over a short dim, a short row tiled,
 * interleaved), each read where it lies and built in registers by the blend itself. */
#ifndef CLSEL_HOST_CPU_FUSED_H
#define CLSEL_HOST_CPU_FUSED_H

#include "cpu/cpu_walk.h"

/* Whether walk's blocks are read fused, and how (walk->fused): where the loops have fused blends,
 * the output is a run in every block, the cond varies, some input is a pattern that moves from row
 * to row, and each pattern's every 16 output bytes come from two 16-byte source windows.
 * `final_blocks`: the blocks are those the walk will read, so their phases count (a table is made
 * again at each new one); else they are remade for the fused walk, which takes them in whole
 * tables. */
void clsel_priv_cpu_fused_choose(cpu_walk *walk, int final_blocks);
/* Walks the blocks of a fused walk. */
void clsel_priv_cpu_fused_run(const cpu_walk *walk, const cpu_tensors *t);

#endif
