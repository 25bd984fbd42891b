/* cpu_walk.h - the CPU path's walk over one iteration space on the calling thread (cpu_walk.c): its
 * blocks, gathered inputs and row loops. cpu_run.c splits a run into boxes (plan_iter.h) and walks
 * each. */
#ifndef CLSEL_HOST_CPU_WALK_H
#define CLSEL_HOST_CPU_WALK_H

#include "cpu/cpu_blocks.h"
#include "cpu/cpu_loops.h"

/* A run's tensors: element 0 of each (offsets count from there), and each input's end (whole loads
 * stop before it). */
typedef struct cpu_tensors {
    const uint8_t *in[3], *end[3];
    uint8_t *out;
} cpu_tensors;

/* Blocks fused (cpu_fused.c): every input read by the blend where it lies, as a run, or through a
 * shuffle table of `rows` rows of the block's whole dims (`span` output bytes, whole vectors), or,
 * the same for every row, from its bytes for one table computed once; no gather buffer. */
typedef enum cpu_fused_kind {
    CPU_FUSED_RUN,    /* a contiguous run through the block */
    CPU_FUSED_TABLE,  /* a pattern that moves on from row to row: a shuffle table */
    CPU_FUSED_REPEAT, /* a pattern the same in every row: a table's bytes, read again */
} cpu_fused_kind;
typedef struct cpu_fused {
    int on;
    int wide;               /* the tables are wide ones (cpu_loops.h, cpu_wide_record) */
    cpu_fused_kind kind[3]; /* cond, then, else */
    int64_t rows, span;
} cpu_fused;

typedef struct cpu_walk {
    const cpu_loops *loops;
    cpu_blocks blocks;
    plan_iter tiled; /* the space with dim 0 cut into chunks, for tiles of a transposed input
                        (blocks.it points here) */
    int by_chunk; /* long rows walked chunk by chunk over several rows (cpu_walk.c, tiles_rows) */
    int stream;   /* non-temporal stores for the output */
    int gathers;  /* some input is a pattern: gathered block by block (or the output, scattered) */
    int scatters; /* the output is a pattern: written to the gather buffer, then scattered block by
                     block */
    /* Inputs that repeat through every block with a period shorter than it
     * (clsel_priv_cpu_block_period): a row of a few periods gathered once, read again for each of
     * the block's rows of that many periods. */
    int periodic[3];
    int32_t period_dims;     /* the period: dims [0, period_dims) */
    int64_t period_elements; /* its elements; 0: no input is periodic */
    int64_t period_repeats;  /* periods per row */
    /* Rows read in place (cpu_walk.c, `choose_rows_in_place`): each block read as rows of dims
     * [0, row_dims) along the one block dim above them, where every input the blocks would gather
     * anew is a run or one element along each row: those (in_place) are read where they lie, the
     * others as the blocks read them. row_dims 0: blocks read as one row, or rows of periods. */
    int32_t row_dims;
    int64_t row_elements;
    int in_place[3];
    cpu_access row_access[3]; /* along a row: a run or fixed, for the inputs in place */
    cpu_fused fused;
} cpu_walk;

/* The walk of space `it` (elements of w bytes; count > 0). */
void clsel_priv_cpu_walk_make(const plan_iter *it, size_t w, int stream, const cpu_loops *loops,
                              cpu_walk *walk);
void clsel_priv_cpu_walk_run(const cpu_walk *walk, const cpu_tensors *t);

#endif
