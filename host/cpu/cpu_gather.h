/* cpu_gather.h - the CPU path's gather (cpu_gather.c): an input that is a pattern in a walk's
 * blocks copied, block by block and in block order, into a small buffer that the row loops then
 * read as a contiguous run; and its inverse for an output that is a pattern (a strided output): the
 * row loops write the buffer, the scatter puts it in place. */
#ifndef CLSEL_HOST_CPU_GATHER_H
#define CLSEL_HOST_CPU_GATHER_H

#include "common/tuning_constants.h"
#include "cpu/cpu_blocks.h"
#include "cpu/cpu_loops.h"

/* Bytes past a gather buffer's elements that its loops may write (16- or 32-byte stores, up to 31
 * past a run's end). */
#define CPU_GATHER_SLACK 32

/* The windows of `bytes` source bytes (at; 16, a piece's, or 32, a wide record's), each `bytes`
 * long: the first from the lowest, the second from the lowest past it where `apart` (else the
 * window after the first). Returns how many the bytes take, 0 where some byte lies in neither. */
int clsel_priv_cpu_source_windows(const int64_t *at, int bytes, int apart, int64_t *first,
                                  int64_t *second);
/* The pieces of a shuffle table from each of their bytes' source byte (byte_at: 16 a piece, from
 * the table's source start, none negative), their windows placed as above: each piece's windows,
 * its byte order and the table's reach; its rows and advance are the caller's. Shared (one
 * window for every piece, which a gather's loop loads once a table) only where not `apart`: a
 * fused block's loop loads every pair's windows, and a shared window of 17-32 bytes would take
 * both for each. Its records go to `pairs`, room for (pieces + 1) / 2, which the table points at.
 * 0 where a piece's bytes do not fit its windows, or the table would have no pieces or more than
 * CPU_SHUFFLE_MOST_PIECES. */
int clsel_priv_cpu_shuffle_table_make(const int64_t *byte_at, int64_t pieces, int apart,
                                      cpu_shuffle_pair *pairs, cpu_shuffle_table *t);

/* One input's gather: its block dims of more than one index, innermost first, and the loop for its
 * runs. */
typedef struct cpu_gather_walk {
    int levels, split_level, run_levels, run_copies;
    int shuffled;   /* the run is a periodic shuffle of levels below run_levels: tables over several
                       runs, and of one */
    int transposed; /* single elements far apart along level 0, closer along level 1: read along
                       level 1 */
    cpu_shuffle_table group, row;
    cpu_shuffle_pair group_pairs[CPU_SHUFFLE_PIECES / 2], row_pairs[CPU_SHUFFLE_PIECES / 2];
    int64_t split_scale; /* the split level's extent is the block's split times this */
    int64_t extent[CLSEL_MAX_RANK + 2];
    int64_t step[CLSEL_MAX_RANK + 2]; /* source bytes from one index to the next */
    int64_t size[CLSEL_MAX_RANK + 2]; /* destination bytes of one index */
    size_t run_bytes, w;
    size_t element; /* bytes of the element a splat run repeats */
    /* a copied run tiled: tile_bytes read, written `tiles` times in a row (run_bytes in all) */
    size_t tile_bytes;
    int64_t tiles;
    /* or compact (cpu_tile_reader): of each row of `tiles` copies (tile_span bytes), tile_period
     * bytes of copies stored, then CPU_TILE_HEAD bytes of their start (run_bytes in all) */
    int compact;
    int64_t tile_period, tile_span;
    cpu_run_loop runs;
    cpu_transpose_loop transpose; /* where transposed */
    /* the expanding loop's table (cpu_gather.c's expand_table; 0 phases: none), per phase: a
     * piece's byte order, source advance, offset in its period */
    int phases;
    uint8_t shuffle[16][16], advance[16], from[16];
    int64_t period_advance, period_reach;
    /* read by the blend from the source (cpu_loops.h), not gathered: where the walk asked for it
     * and the input is runs of one element repeated, consecutive in the source, through the
     * block */
    int expanded;
    cpu_expand_table expand;
} cpu_gather_walk;

/* Prepares the gather of input `op` (elements of w bytes) for the blocks of a walk, with the run
 * loops of `loops`; with compact_tiles, a copied run tiled along the levels above it is gathered
 * compact where that pays (g->compact says whether it was); with expand, an input of runs of one
 * element repeated is left to the blend to read (g->expanded says whether it is). */
void clsel_priv_cpu_gather_prepare(const cpu_blocks *b, int op, size_t w, const cpu_loops *loops,
                                   int compact_tiles, int expand, cpu_gather_walk *g);
/* The elements of a block whose dim `inner` has `split` indices, from src (the input at the block's
 * offset; it ends at src_end) into dst, which has room for CPU_GATHER_SLACK bytes past them. */
void clsel_priv_cpu_gather(cpu_gather_walk *g, int64_t split, const uint8_t *src,
                           const uint8_t *src_end, uint8_t *dst);

/* The first `periods` periods (of `bytes` each) of an input that repeats through a block
 * (cpu_blocks.h, clsel_priv_cpu_block_period), and `after` bytes more of them, from src into dst
 * (with room for CPU_GATHER_SLACK bytes past them): one period gathered by g, prepared for the
 * period's blocks, then copied after itself. */
void clsel_priv_cpu_gather_periods(cpu_gather_walk *g, size_t bytes, int64_t periods, size_t after,
                                   const uint8_t *src, const uint8_t *src_end, uint8_t *dst);

/* The output's side: a block's elements, made dense in the gather buffer, scattered to where a
 * strided output has them (the block's dims of more than one index, innermost first, and the
 * output's byte steps along them). */
typedef struct cpu_scatter_walk {
    int levels, split_level;
    size_t w;
    int64_t extent[CLSEL_MAX_RANK + 1], step[CLSEL_MAX_RANK + 1], size[CLSEL_MAX_RANK + 1];
} cpu_scatter_walk;

void clsel_priv_cpu_scatter_prepare(const cpu_blocks *b, size_t w, cpu_scatter_walk *s);
/* The elements of a block whose dim `inner` has `split` indices, from src (dense) to dst (the
 * output at the block's offset). */
void clsel_priv_cpu_scatter(cpu_scatter_walk *s, int64_t split, const uint8_t *src, uint8_t *dst);

#endif
