/* cpu_gather.h - the CPU path's gather (cpu_gather.c): how one input that is a pattern
 * in the blocks of a walk is copied, block by block, into a buffer that the row loops
 * then read as a contiguous run. */
#ifndef CLSEL_HOST_CPU_GATHER_H
#define CLSEL_HOST_CPU_GATHER_H

#include <stddef.h>
#include <stdint.h>

#include "common/tuning_constants.h"
#include "cpu/cpu_blocks.h"
#include "cpu/cpu_loops.h"

/* Bytes after a gather buffer's elements that clsel_priv_cpu_gather may write: its
 * loops store 16 or 32 bytes at a time, up to 31 bytes past a run's end. The buffer
 * itself is CPU_GATHER_BYTES (common/tuning_constants.h). */
#define CPU_GATHER_SLACK 32


/* A periodic shuffle: the run's bytes as 16-byte pieces, each one or two 16-byte loads
 * of the source at a fixed offset from the run's start, reordered by a byte shuffle.
 * `rows` runs make one table (rows * run_bytes a whole number of pieces where the
 * windows allow it, else one run with its last piece spilling into the next run's
 * place); `advance` source bytes from one table's start to the next. Pieces go two at a
 * time (one 32-byte shuffle), so the tables have room for one piece more. */
typedef struct cpu_shuffle_table {
    int pieces;
    int shared; /* every piece reads the one window at from[0] */
    int64_t rows, advance;
    int64_t reach; /* source bytes past the table's start that its loads touch */
    int64_t from[CPU_SHUFFLE_PIECES + 1];
    uint8_t two[CPU_SHUFFLE_PIECES + 1]; /* the window is 17-32 bytes: a second load */
    /* the byte order of each piece over the low [0] and the high [1] 16 bytes of its
     * window (0x80 where the byte comes from the other half) */
    uint8_t order[2][CPU_SHUFFLE_PIECES + 1][16];
} cpu_shuffle_table;

/* How one input is gathered for the blocks of a walk: its block dims of more than one
 * index, innermost first, with the source step and destination size of one index of
 * each, and the loop that writes its runs (cpu_loops.h). */
typedef struct cpu_gather_walk {
    int levels, split_level, run_levels, run_copies;
    /* the run is a periodic shuffle of levels below run_levels: tables of whole pieces
     * over several runs, and of one run */
    int shuffled;
    cpu_shuffle_table group, row;
    int64_t split_scale; /* the split level's extent is the block's split times this */
    int64_t extent[CLSEL_MAX_RANK + 2];
    int64_t step[CLSEL_MAX_RANK + 2]; /* source bytes from one index to the next */
    int64_t size[CLSEL_MAX_RANK + 2]; /* destination bytes of one index */
    size_t run_bytes, w;
    size_t element; /* bytes of the element a splat run repeats */
    cpu_run_loop runs;
    /* The expanding loop's shuffles (cpu_loops_avx2.c): consecutive elements, each
     * repeated over a short run, 16 output bytes at a time; per phase of the runs, the
     * byte order of a 16-byte piece, the source bytes to the next piece and the
     * piece's source offset from its period's start. */
    int phases;
    uint8_t shuffle[16][16];
    uint8_t advance[16], from[16];
    int64_t period_advance, period_reach;
} cpu_gather_walk;

/* Prepares the gather of input `op` (elements of w bytes) for the blocks of a walk,
 * with the run loops of `loops`. */
void clsel_priv_cpu_gather_prepare(const cpu_blocks *b, int op, size_t w, const cpu_loops *loops, cpu_gather_walk *g);
/* The input's elements for a block whose dim `inner` has `split` indices, from src
 * (the input at the block's offset; the input ends at src_end) into dst, in block
 * order. dst has room for CPU_GATHER_SLACK bytes past them. */
void clsel_priv_cpu_gather(cpu_gather_walk *g, int64_t split, const uint8_t *src, const uint8_t *src_end, uint8_t *dst);

#endif
