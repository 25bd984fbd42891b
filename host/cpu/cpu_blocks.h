/* cpu_blocks.h - the CPU path's walk over an iteration space in blocks of consecutive output
 * elements (cpu_blocks.c): what each input reads inside a block, the order of the blocks, where a
 * gathered input's shuffle table pays. */
#ifndef CLSEL_HOST_CPU_BLOCKS_H
#define CLSEL_HOST_CPU_BLOCKS_H

#include "plan/plan_iter.h"

/* A block: dims [0, inner) whole and `split` indices of dim `inner` (fewer at its end). In it an
 * input is one of: */
typedef enum cpu_access {
    CPU_ACCESS_RUN = 0,     /* a contiguous run: block element j is input element offset + j */
    CPU_ACCESS_FIXED = 1,   /* one element for the whole block */
    CPU_ACCESS_PATTERN = 2, /* anything else: gathered, dim by dim (cpu_gather.c) */
} cpu_access;

typedef struct cpu_blocks {
    const plan_iter *it;
    size_t w;                         /* bytes of then's, else's and out's elements */
    int32_t inner;                    /* dims [0, inner) lie whole in every block; inner <= rank */
    int64_t inner_elements;           /* their product */
    int64_t split;                    /* indices of dim `inner` per block (1 when inner == rank) */
    int64_t elements;                 /* elements in a full block: inner_elements * split */
    int64_t count;                    /* blocks in the whole space */
    cpu_access access[PLAN_OPERANDS]; /* cond, then, else, out (never fixed: a pattern is scattered,
                                         cpu_gather.h) */
    /* The blocks as a space of their own (plan_iter_blocks), walked by one counter: an element per
     * block, where it starts in every tensor, its dims the levels of the walk, fastest first. Each
     * level is one dim above `inner`, or (at chunk_level; -1 when inner == rank or one block takes
     * dim inner whole) dim inner's blocks, of `split` indices each but the last (last_split). */
    plan_iter order;
    int32_t chunk_level;
    int64_t last_split;
} cpu_blocks;

/* One block of the walk: where it starts (its place in `order`) and the indices of dim `inner` it
 * takes. */
typedef struct cpu_block {
    plan_counter place;
    int64_t split;
} cpu_block;

/* Blocks of at most `target` elements (one, when target < 1) of a non-empty space; when the
 * innermost dim has `long_row` elements or more, pieces of single rows (each input a run or fixed):
 * gathering pays only on short rows. Where the output is dense along its innermost dims only
 * (padded rows, a slice) over at least CPU_SCATTER_BELOW_ROW_BYTES, blocks stay within them, so
 * that it is a run in every block, unless `tiles` (a walk over tiles of a transposed input, whose
 * output is scattered in runs). */
void clsel_priv_cpu_blocks_make(const plan_iter *it, size_t w, int64_t target, int64_t long_row,
                                int tiles, cpu_blocks *b);
/* Block `index` of the walk (0 <= index < count), the one after it, and k blocks on (k >= 1, at
 * most to the first block of the next line of level 0). */
void clsel_priv_cpu_block_at(const cpu_blocks *b, int64_t index, cpu_block *at);
void clsel_priv_cpu_block_next(const cpu_blocks *b, cpu_block *at);
void clsel_priv_cpu_block_skip(const cpu_blocks *b, cpu_block *at, int64_t k);

/* Where gathered input `op` repeats through a whole block: the elements of dims [0, D) (D in
 * *dims), the input fixed along every block dim above them, the split dim's included where blocks
 * take more than one index of it. 0 where it does not repeat within a block. */
int64_t clsel_priv_cpu_block_period(const cpu_blocks *b, int op, int32_t *dims);
/* The blocks of such a period, for its gather (cpu_gather.h): dims [0, dims) whole, one block. */
void clsel_priv_cpu_period_blocks(const cpu_blocks *b, int32_t dims, cpu_blocks *period);

/* How a gathered input is read inside a block, and where a periodic shuffle table pays: its
 * elements over dims [0, L) (L <= inner) repeat with every index of dim L, so one table of them
 * makes every row of the block. */
typedef struct cpu_period {
    /* the run: dims [0, run_dims), run_bytes bytes, contiguous (copies) or one `element`-byte
     * element repeated */
    int32_t run_dims;
    int copies;
    size_t element;
    int64_t run_bytes;
    int32_t fewest,
        most; /* a table over dims [0, L) pays for fewest <= L <= most (both 0 when none does) */
} cpu_period;
/* Input `op`'s period in blocks `b`, for elements of w bytes. */
void clsel_priv_cpu_period(const cpu_blocks *b, int op, size_t w, cpu_period *p);

#endif
