/* select_cpu.h - the CPU path's pieces: the select loops, the gather, the walk over a
 * plan's blocks, and the split over threads. */
#ifndef CLSEL_HOST_SELECT_CPU_H
#define CLSEL_HOST_SELECT_CPU_H

#include <stdint.h>

#include "clsel.h"
#include "plan/plan.h"

/* The NULL-pointer and aliasing rules for host tensors (clsel_plan_run_cpu). */
clsel_status clsel_priv_cpu_check_buffers(const clsel_plan *plan, const void *cond, const void *then_data,
                               const void *else_data, const void *out);

/* `count` rows of n output elements, the k-th `step` bytes (cond, then, else, out)
 * after the one before: consecutive blocks along one level, so that a walk of short
 * rows makes one call per line of blocks, not one per block. Along a row cond, then and
 * else each either advance one element per output element or stay fixed (read at
 * [0]), as the table entry the loop was taken from says: [cond advances * 4 + then
 * advances * 2 + else advances]. Where cond stays fixed, each row reads only the
 * input its cond element chooses. */
typedef struct cpu_rows {
    int64_t n, count;
    const uint8_t *cond;
    const uint8_t *then_data, *else_data;
    uint8_t *out;
    int64_t step[4];
} cpu_rows;
typedef void (*cpu_row_fn)(const cpu_rows *rows);

/* The AVX2 loops [element width index][cond, then, else advancing as bits], plain or
 * streaming stores; NULL when the processor (or the build) has no AVX2
 * (select_cpu_avx2.c). clsel_priv_cpu_stream_fence orders streamed stores before returning. */
const cpu_row_fn (*clsel_priv_cpu_avx2_rows(int stream))[8];
void clsel_priv_cpu_stream_fence(void);

/* The gathered inputs of one block share one buffer of this many bytes, on the stack
 * of the thread that walks them (cpu_walk.c sizes blocks to fit it). */
#define CPU_GATHER_BYTES 65536
/* Bytes after a gather buffer's elements that clsel_priv_cpu_gather may write. */
#define CPU_GATHER_SLACK 32

/* How one input is gathered for the blocks of a walk (cpu_gather.c): its block dims of
 * more than one index, innermost first, with the source step and destination size of
 * one index of each, and the loop that writes its runs. */
struct cpu_gather_walk;
/* n runs of g->run_bytes, the k-th read at src + k * step, written one after another
 * from dst; the source ends at src_end. */
typedef void (*cpu_run_loop)(const struct cpu_gather_walk *g, uint8_t *dst, const uint8_t *src, int64_t n,
                             int64_t step, const uint8_t *src_end);

/* A periodic shuffle (cpu_gather.c): the run's bytes as 16-byte pieces, each one or two
 * 16-byte loads of the source at a fixed offset from the run's start, reordered by a
 * byte shuffle. `rows` runs make one table (rows * run_bytes a whole number of pieces
 * where the windows allow it, else one run with its last piece spilling into the next
 * run's place); `advance` source bytes from one table's start to the next. Pieces go
 * two at a time (one 32-byte shuffle), so the tables have room for one piece more. */
#define CPU_SHUFFLE_PIECES 32
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
    /* The expanding loop's shuffles (select_cpu_avx2.c): consecutive elements, each
     * repeated over a short run, 16 output bytes at a time; per phase of the runs, the
     * byte order of a 16-byte piece, the source bytes to the next piece and the
     * piece's source offset from its period's start. */
    int phases;
    uint8_t shuffle[16][16];
    uint8_t advance[16], from[16];
    int64_t period_advance, period_reach;
} cpu_gather_walk;

/* The AVX2 loop for a gather's runs (select_cpu_avx2.c), filling the shuffles it needs;
 * NULL where the processor has no AVX2 or the runs gain nothing from it. */
cpu_run_loop clsel_priv_cpu_avx2_run_loop(cpu_gather_walk *g);
/* The AVX2 loop for a shuffled run (g->shuffled); NULL without AVX2. */
cpu_run_loop clsel_priv_cpu_avx2_shuffle_loop(void);
/* The rows [first, n) of a shuffled run, byte by byte from the tables (no load past the
 * bytes the run needs): the tail that whole-piece loads would read past src_end. */
void clsel_priv_cpu_shuffle_rows(const cpu_gather_walk *g, uint8_t *dst, const uint8_t *src, int64_t first, int64_t n,
                                 int64_t step);

void clsel_priv_cpu_gather_prepare(const clsel_plan *plan, const plan_blocks *blocks, int op, size_t w, cpu_gather_walk *g);
/* The input's elements for a block whose dim `inner` has `split` indices, from src
 * (the input at the block's offset; the input ends at src_end) into dst, in block
 * order. dst has room for CPU_GATHER_SLACK bytes past them. */
void clsel_priv_cpu_gather(cpu_gather_walk *g, int64_t split, const uint8_t *src, const uint8_t *src_end, uint8_t *dst);

/* The CPU path's walk over a plan: its blocks, the tensors, and how a range of work
 * units maps to blocks (select_cpu.c). */
typedef struct cpu_walk {
    const clsel_plan *plan;
    plan_blocks blocks;
    int by_chunk; /* units are lines along dim 0, walked chunk by chunk (clsel_priv_cpu_tiles_rows) */
    int stream;   /* non-temporal stores for the output */
    int gathers;  /* some input is a pattern: gathered block by block */
    /* Per input: a periodic pattern (plan_blocks) whose period is a long row: one period
     * is gathered and each block runs as `split` rows that all read it. */
    int period_rows[3];
    const uint8_t *cond, *then_data, *else_data;
    uint8_t *out;
} cpu_walk;

/* Whether the walk goes chunk by chunk over several long rows, so that an input they
 * all read is still in the cache for the next row (rows too long to stay cached). */
int clsel_priv_cpu_tiles_rows(const clsel_plan *plan);
void clsel_priv_cpu_walk_make(const clsel_plan *plan, const void *cond, const void *then_data, const void *else_data,
                   void *out, cpu_walk *walk);
/* Work units of the walk (blocks, or rows when by_chunk); pieces of a split over
 * threads are ranges of them. */
int64_t clsel_priv_cpu_walk_units(const cpu_walk *walk);
/* Units [first, last) on this thread. */
void clsel_priv_cpu_walk_run(const cpu_walk *walk, int64_t first, int64_t last);

/* The whole output, split over the threads or the pool the options name
 * (cpu_parallel.c). */
void clsel_priv_cpu_run_parallel(const cpu_walk *walk, const clsel_cpu_options *options);

/* The processors online (at least 1, at most the threads one run may start). */
int32_t clsel_priv_cpu_cores(void);

#endif
