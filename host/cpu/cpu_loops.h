/* cpu_loops.h - the CPU path's row and gather run loops, one table per instruction set
 * (cpu_loops.c, cpu_loops_avx2.c), reached only through clsel_priv_cpu_loops() (once per run), so
 * that no loop file calls back into its callers. */
#ifndef CLSEL_HOST_CPU_LOOPS_H
#define CLSEL_HOST_CPU_LOOPS_H

#include "common/tuning_constants.h"
#include "plan/plan_iter.h"

/* `count` rows of n output elements, `step` bytes (cond, then, else, out) apart: consecutive blocks
 * along one level, so a walk of short rows makes one call per line of blocks. Along a row each
 * input advances or stays on element [0], as the loop's variant says (plan_iter.h); where cond
 * stays, a row reads only the input it picks. */
typedef struct cpu_rows {
    int64_t n, count;
    const uint8_t *cond, *then_data, *else_data;
    uint8_t *out;
    int64_t step[PLAN_OPERANDS];
} cpu_rows;
typedef void (*cpu_row_fn)(const cpu_rows *rows);

/* The cpu_row_fn NAME##_rows (with attributes ATTR) around NAME, a loop over one row (n, cond,
 * then, else, out). */
#define CPU_ROWS_FN(ATTR, NAME)                                                 \
    ATTR static void NAME##_rows(const cpu_rows *r)                             \
    {                                                                           \
        const uint8_t *c = r->cond, *t = r->then_data, *e = r->else_data;       \
        uint8_t *o = r->out;                                                    \
        for (int64_t k = 0; k < r->count; ++k) {                                \
            NAME(r->n, c, t, e, o);                                             \
            c += r->step[0], t += r->step[1], e += r->step[2], o += r->step[3]; \
        }                                                                       \
    }

/* Bytes stored after each period of a compact tiled gather: the period's first ones again, so that
 * a 32-byte load from anywhere in the period needs no wrap. */
#define CPU_TILE_HEAD 32

/* Then or else read as a row of tiles (a short row of it repeated along a broadcast dim), from
 * cpu_gather.c's compact tiles: of each row of `span` bytes of copies only `period` bytes (a whole
 * number of copies, CPU_TILE_HEAD or more) are stored, followed by CPU_TILE_HEAD bytes of their
 * start, and read again until the row's span is read; then the next row. A block's tiled input
 * so costs a period in stores, not each copy. span 0: a plain run from `group`, which the rows
 * function sets for each row (period and left then never end). */
typedef struct cpu_tile_reader {
    const uint8_t *group; /* the row being read: its period, then the head */
    int64_t at;           /* the offset in the period */
    int64_t left;         /* bytes to the end of the row's span */
    int64_t period, span;
} cpu_tile_reader;
/* Blend rows (cond, then and else advancing) whose then and else are readers [0] and [1]; a tiled
 * reader carries on from one row (and call) to the next. */
typedef void (*cpu_tiled_fn)(const cpu_rows *rows, cpu_tile_reader readers[2]);

/* Most copies of an element a blend expands in registers (cpu_expand_table: 38 bytes per copy):
 * runs of single bytes. */
#define CPU_EXPAND_MOST_COPIES CPU_EXPAND_MOST_RUN_BYTES

/* Then or else read as runs of one element repeated `run / w` times (an [N,1] input against [N,M],
 * M short), its elements consecutive in the source, by the blend itself: each 32-byte vector is a
 * byte shuffle of the 16 source bytes from the element its first byte copies (a broadcast to both
 * lanes; a vector spans 16 source bytes at most for 2 copies or more), with no gather buffer
 * between. A vector's entry depends on where in a run it starts (its phase); the vectors of a row
 * start at phases 32 bytes apart, which repeat every `period` vectors (the runs' and vectors'
 * common multiple), the source `period_advance` bytes on. Entries go by class (the phase mod
 * gcd(32, run)), then in the order of the vectors of that class. */
typedef struct cpu_expand_table {
    int64_t run, w, period_advance;
    int period;
    uint16_t entry_at[CPU_EXPAND_MOST_COPIES]; /* by a vector's phase in elements */
    int32_t from[CPU_EXPAND_MOST_COPIES];      /* source bytes from its period's start */
    _Alignas(32) uint8_t order[CPU_EXPAND_MOST_COPIES][32];
} cpu_expand_table;

/* Where an expanded input is read: the block's first source element, the input's end (no load
 * passes it), and the block byte the next element read is for (rows carry it on). */
typedef struct cpu_expand_reader {
    const cpu_expand_table *table;
    const uint8_t *src, *end;
    int64_t at;
} cpu_expand_reader;
/* Blend rows (cond advancing) whose then or else is read by the reader: the row pointer of the
 * other one is read as the row loops read it, and of the expanded one is not read. */
typedef void (*cpu_expanded_fn)(const cpu_rows *rows, cpu_expand_reader *reader);

/* A periodic shuffle: 16-byte pieces, each a byte shuffle of one or two 16-byte source loads at
 * fixed offsets (the second 16 bytes after the first in a gather's tables, anywhere after it in a
 * fused block's). A gather's table (cpu_gather.h) is `rows` runs (a whole number of pieces where
 * the windows allow, else one run, its last piece spilling into the next run's place), `advance`
 * source bytes apart, of at most CPU_SHUFFLE_PIECES pieces; a fused block's (cpu_fused.c) is the
 * output vectors of `rows` rows of the block, of up to CPU_SHUFFLE_MOST_PIECES. Pieces go two at a
 * time, one 32-byte shuffle, so the table is a record per pair, read in order: each lane's window
 * offsets and the pair's byte orders side by side, a vector costing its loads and shuffles, not a
 * lookup of each piece's fields (docs/tuning.md, CPU_FUSED_TABLE_BYTES). An odd count's last pair
 * repeats its piece in its second lane. */
typedef struct cpu_shuffle_pair {
    /* each lane's byte order over its first [0] and second [1] window (0x80: from the other) */
    _Alignas(32) uint8_t order[2][32];
    int32_t first[2], second[2]; /* lane 0's and lane 1's windows, from the table's source */
    int32_t two;                 /* a lane reads its second window */
} cpu_shuffle_pair;
/* A fused block's table for processors with 32-byte byte permutes (AVX-512 VBMI) is wide: a
 * record per output vector, its 32 bytes one permute of one or two 32-byte source windows
 * (`second` is `first` where one serves), `order` each byte's index into the windows' 64 bytes.
 * An input's vector is one load and permute, or two loads and a two-source permute, where a pair
 * of pieces takes two to four loads, a lane insert and one or two shuffles and an or. */
typedef struct cpu_wide_record {
    _Alignas(32) uint8_t order[32];
    int32_t first, second;
} cpu_wide_record;
typedef struct cpu_shuffle_table {
    int pieces;
    int shared; /* every piece reads the one window at pairs[0].first[0] */
    int two;    /* some pair reads a second window */
    int64_t rows, advance;
    int64_t reach; /* source bytes past the table's start that its loads touch */
    /* (pieces + 1) / 2 records, held beside the table by its owner: a gather's up to
     * CPU_SHUFFLE_PIECES pieces, a fused block's up to CPU_SHUFFLE_MOST_PIECES */
    const cpu_shuffle_pair *pairs;
    const cpu_wide_record *wide; /* a wide table's records instead (pieces / 2 of them) */
} cpu_shuffle_table;

/* A fused block's inputs (cpu_fused.c): each read where it lies, as a run (its vectors at src; a
 * cond's a byte an element) or through a table of `pairs` output vectors from src, src moving on
 * `advance` bytes after each table (a run's: its table's bytes; 0 for a run read again for every
 * table). A table's cond gives a byte of the element's cond for every output byte. */
typedef struct cpu_fused_inputs {
    const cpu_shuffle_table *table[3]; /* NULL: a run */
    const uint8_t *src[3];
    int64_t advance[3];
    int64_t pairs;
} cpu_fused_inputs;
/* `vectors` 32-byte output vectors at out (32-byte aligned where streamed), the first the first of
 * a table, the inputs moved on past the whole tables among them. */
typedef void (*cpu_fused_fn)(cpu_fused_inputs *in, int64_t vectors, uint8_t *out);

/* A gather's loop over n runs of g->run_bytes, read `step` bytes apart and written one after
 * another (cpu_gather.h). */
struct cpu_gather_walk;
typedef void (*cpu_run_loop)(const struct cpu_gather_walk *g, uint8_t *dst, const uint8_t *src,
                             int64_t n, int64_t step, const uint8_t *src_end);

/* A gather's transposed tile (cpu_gather.h, g->transposed): levels 1 and 0, level 1 innermost. */
typedef void (*cpu_transpose_loop)(const struct cpu_gather_walk *g, const uint8_t *src,
                                   uint8_t *dst);

/* How the row loops store: into the caches, streamed past them, streamed with the cond (a run
 * read in place from memory) prefetched ahead, or streamed in CPU_STREAM_PARTS runs of lines side
 * by side. The portable set stores all four the same way. */
enum cpu_stores {
    CPU_STORES_CACHED,
    CPU_STORES_STREAMED,
    CPU_STORES_PREFETCHED,
    CPU_STORES_SPLIT,
    CPU_STORE_KINDS
};

typedef struct cpu_loops {
    /* [enum cpu_stores][element width index][variant] */
    cpu_row_fn rows[CPU_STORE_KINDS][4][PLAN_VARIANTS];
    /* a gather's run loop, from what g says (it writes nothing in g); NULL: cpu_gather.c's */
    cpu_run_loop (*run_loop)(const struct cpu_gather_walk *g);
    cpu_run_loop shuffle; /* shuffled runs (cpu_gather.h); NULL: the set has none */
    void (*fence)(void);  /* orders streamed stores before a run returns */
    /* [element width index]; NULL: cpu_gather.c's */
    cpu_transpose_loop transpose[4];
    /* [streamed stores][element width index]; NULL: the set has none, tiles are gathered whole */
    cpu_tiled_fn tiled[2][4];
    /* [enum cpu_stores][element width index][then 0, else 1 expanded][the other advances]; NULL:
     * the set has none, repeated elements are gathered */
    const cpu_expanded_fn (*expanded)[4][2][2];
    /* [streamed stores][element width index][cond, then, else read through a table: bits 0, 1, 2];
     * NULL: the set has none, blocks are gathered */
    const cpu_fused_fn (*fused)[4][8];
    /* the same over wide tables (cpu_wide_record); NULL: the set has none */
    const cpu_fused_fn (*fused_wide)[4][8];
} cpu_loops;

/* The loops of this processor: AVX2 where it has them, with the AVX-512 VBMI fused loops where it
 * has those, unless knob CLSEL_PRIV_KNOB_PORTABLE_CPU asks for portable loops or
 * CLSEL_PRIV_KNOB_NO_AVX512 for AVX2 alone. */
const cpu_loops *clsel_priv_cpu_loops(void);
/* The AVX2 table (cpu_loops_avx2.c), with the wide fused loops where `avx512` and the processor
 * allow; NULL where the processor or the build lacks AVX2. */
const cpu_loops *clsel_priv_cpu_avx2_loops(int avx512);

#endif
