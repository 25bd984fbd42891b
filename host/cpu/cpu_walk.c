/* cpu_walk.c - the CPU path's walk (cpu_walk.h): each input read where it lies, fixed, or gathered
 * into a buffer kept while the next blocks read the same elements; one row loop call per block, or
 * per line of blocks if none gathers. */
#include <stdlib.h>
#include <string.h>

#include "common/element_width.h"
#include "common/int_math.h"
#include "common/tuning.h"
/* CPU_BLOCK_BYTES, CPU_LONG_ROW_BYTES, CPU_GATHER_BYTES, ... */
#include "common/tuning_constants.h"
#include "cpu/cpu_fused.h"
#include "cpu/cpu_gather.h"
#include "cpu/cpu_walk.h"

static int64_t input_width(const cpu_walk *walk, int op)
{
    return (int64_t)clsel_priv_operand_width(op, walk->blocks.w);
}

/* Inputs that repeat through every block are gathered a row of periods at a time, and each row of
 * the block reads that one row: gathering the whole block wrote the gather buffer once per output
 * byte and read it back (i8 then [33,34,11,19] under else [316,1,34,1,1], 7,106-byte periods, ran
 * 14 % slower in 64 KiB blocks than in one-period blocks; bf16 then [1648,1,1,13], a 26-byte row
 * tiled 1,600 times a block, spent 43 % of its time tiling). The row is CPU_PERIOD_ROW_BYTES long
 * where some periodic input starts anew in the next block (its row is gathered again there), else
 * CPU_PERIOD_KEPT_ROW_BYTES (gathered once, for every block); a period of CPU_LONG_ROW_BYTES or
 * more is a row of its own, or, gathered once, as many as make whole lines. The longest period of
 * the periodic inputs serves them all: every period is the elements of the block's first dims, so a
 * shorter one divides it. */
static void choose_period(cpu_walk *walk)
{
    walk->period_elements = 0;
    walk->period_dims = 0;
    walk->period_repeats = 1;
    const cpu_blocks *b = &walk->blocks;
    int anew = 0;
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op) {
        int32_t dims = 0;
        const int64_t period = clsel_priv_cpu_block_period(b, op, &dims);
        walk->periodic[op] = period > 0;
        anew |= period > 0 && b->order.rank > 0 && b->order.strides[op][0] != 0;
        if (period > walk->period_elements) {
            walk->period_elements = period;
            walk->period_dims = dims;
        }
    }
    const int64_t period = walk->period_elements, bytes = period * (int64_t)b->w;
    if (period == 0)
        return;
    /* Rows of whole cache lines: each row's output starts on a line where the last one ended
     * (streaming stores write whole lines). */
    const int64_t row_bytes = anew ? CPU_PERIOD_ROW_BYTES : CPU_PERIOD_KEPT_ROW_BYTES,
                  per_line = CPU_CACHE_LINE_BYTES / clsel_priv_gcd(bytes, CPU_CACHE_LINE_BYTES),
                  wanted = (row_bytes + bytes - 1) / bytes,
                  most = b->elements / period; /* no more than a block holds */
    if (bytes >= CPU_LONG_ROW_BYTES) {
        /* A row already. Where it is gathered once for every block, as many periods as make whole
         * lines, so that no row of the output ends mid-line: a row that does ends in a rest
         * computed apart and a line streamed in two pieces (i16 cond [40,13,3] under then
         * [N,1,13,3], 3,120-byte periods: 0.83x the time in rows of four, one thread, 8 rounds
         * alternating; docs/tuning.md). Where those lines take more periods than a block holds,
         * the block's periods: one row a block, whose ends are its only partial lines (bool cond
         * [N,13,1,15] under then [1,13,1,15], 2,145-byte periods, ten a block: 0.75x the time).
         * Not where each block gathers it anew: replicated, it cost more than it saved (bf16 then
         * [93,31,1,40,13,1], 3,120-byte periods, 1.25x the time). */
        if (!anew && per_line <= most && bytes * per_line <= CPU_PERIOD_KEPT_ROW_BYTES)
            walk->period_repeats = per_line;
        else if (!anew && per_line > most)
            walk->period_repeats = most;
        return;
    }
    walk->period_repeats = (wanted + per_line - 1) / per_line * per_line;
    if (walk->period_repeats > most)
        walk->period_repeats = most;
}

/* Whether the blocks read input `op` as a pattern of their own (not one period gathered once for
 * them all): each block gathers it anew, unless its rows read it where it lies (in_place). */
static int patterned_per_block(const cpu_walk *walk, int op)
{
    return walk->blocks.access[op] == CPU_ACCESS_PATTERN && !walk->periodic[op];
}

/* Whether input `op` is gathered anew for each block: patterned per block, not read in place. */
static int gathered_anew(const cpu_walk *walk, int op)
{
    return patterned_per_block(walk, op) && !walk->in_place[op];
}

/* Whether then or else `op` is left to the blend to read expanded, where its runs allow
 * (cpu_expand_reader; cpu_gather.c decides): under a cond that is not fixed over the blocks, where
 * it is the one input a block would gather anew. Read so it saves its gather's stores, and the
 * block's rows stream out with no gather between them; beside another input gathered for each
 * block the expanded vectors cost more than the gather they saved (bf16 else [138,42,1] beside a
 * cond [...,138,1,4], 8-byte runs: 1.13x the time, best of 6 alternating runs on one thread; the
 * short draw's sweep-006, -020 and -022, nothing else gathered, 0.74-0.83x: docs/tuning.md). */
static int reads_expanded(const cpu_walk *walk, int op)
{
    if (op == PLAN_COND || walk->blocks.access[PLAN_COND] == CPU_ACCESS_FIXED ||
        !gathered_anew(walk, op))
        return 0;
    for (int other = PLAN_COND; other <= PLAN_ELSE; ++other)
        if (other != op && gathered_anew(walk, other))
            return 0;
    return 1;
}

/* Elements a periodic input's gathered row holds past its periods: a line of output elements, as
 * far as run_rows moves its rows' start (to the output's first line boundary in the block). */
static int64_t periodic_lead_room(const cpu_walk *walk)
{
    return CPU_CACHE_LINE_BYTES / (int64_t)walk->blocks.w;
}

/* Gather buffer bytes tensor `op` takes for a full block: its row of periods and the lead room
 * when periodic, the whole block when gathered (or scattered, for the output), else none. */
static int64_t gathered_input_bytes(const cpu_walk *walk, int op)
{
    const cpu_blocks *b = &walk->blocks;
    if (b->access[op] != CPU_ACCESS_PATTERN)
        return 0;
    return (op != PLAN_OUT && walk->periodic[op]
                ? walk->period_elements * walk->period_repeats + periodic_lead_room(walk)
                : b->elements) *
           input_width(walk, op);
}

/* The gather buffer's part for input `op`: its gathered bytes and CPU_GATHER_SLACK, in whole
 * cache lines (each part starts on a line). */
static size_t buffer_part(const cpu_walk *walk, int op)
{
    return ((size_t)gathered_input_bytes(walk, op) + CPU_GATHER_SLACK + 63) / 64 * 64;
}

/* Whether input `op` streams from memory: at least 1 / CPU_STREAMED_INPUT_SHARE of the output's
 * bytes (counted as the elements its strides reach). */
static int streams(const plan_iter *it, int op)
{
    int64_t reached = 1;
    for (int32_t d = 0; d < it->rank; ++d)
        if (it->strides[op][d] != 0)
            reached *= it->dims[d];
    return reached * CPU_STREAMED_INPUT_SHARE >= it->count;
}

/* Whether a streamed blend prefetches the cond ahead (CPU_COND_PREFETCH_BYTES, docs/tuning.md): it
 * is the one input read in place (then and else fixed or gathered), from memory, and half the
 * output's bytes or more (elements of up to CPU_COND_PREFETCH_WIDEST bytes). */
static int prefetches_cond(const cpu_walk *walk)
{
    const cpu_blocks *b = &walk->blocks;
    return b->access[PLAN_COND] == CPU_ACCESS_RUN && streams(b->it, PLAN_COND) &&
           b->access[PLAN_THEN] != CPU_ACCESS_RUN && b->access[PLAN_ELSE] != CPU_ACCESS_RUN &&
           b->w <= CPU_COND_PREFETCH_WIDEST;
}

/* Whether a streamed walk's rows write their lines in runs side by side (CPU_STORES_SPLIT,
 * CPU_STREAM_PARTS): one or two of the inputs they read stream from memory where they lie, one of
 * them as wide as the output's elements, the others fixed or gathered into the caches. Not where
 * three stream (their runs of reads already keep a core's misses in flight), where the one that
 * streams is a narrower cond (f32 under a 1-byte cond ran 1.08-1.10x slower in parts), nor where
 * a fixed cond may pick a gathered input (a copy from the caches, 1.2-1.3x slower; docs/tuning.md).
 * The prefetched rows are not split either (CPU_STORES_PREFETCHED is chosen first). */
static int splits_streams(const cpu_walk *walk)
{
    const cpu_blocks *b = &walk->blocks;
    int from_memory = 0, full_width = 0;
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op) {
        if (b->access[op] == CPU_ACCESS_FIXED)
            continue;
        const int in_place = b->access[op] == CPU_ACCESS_RUN ||
                             (walk->in_place[op] && walk->row_access[op] == CPU_ACCESS_RUN);
        if (in_place && streams(b->it, op)) {
            ++from_memory;
            full_width |= input_width(walk, op) == (int64_t)b->w;
        } else if (b->access[PLAN_COND] == CPU_ACCESS_FIXED) {
            return 0;
        }
    }
    return full_width && from_memory <= 2;
}

/* Whether every block's select is a copy of what a block gathered from a streamed input: the cond
 * is fixed over each block, and some input gathered anew for every block streams. */
static int copies_streamed_gather(const cpu_walk *walk)
{
    const cpu_blocks *b = &walk->blocks;
    if (b->access[PLAN_COND] != CPU_ACCESS_FIXED)
        return 0;
    for (int op = PLAN_THEN; op <= PLAN_ELSE; ++op)
        if (patterned_per_block(walk, op) && streams(b->it, op))
            return 1;
    return 0;
}

/* Whether, under a cond that is not fixed over the blocks, every input gathered anew for each
 * block is an element repeated along the rows (stride 0 along dim 0: an [N,1] input against
 * [N,7]) and one of them streams from memory (as above): the block gathers it and its select reads
 * it back, in L1 where the gathers take CPU_REPEATED_GATHER_BYTES. A copied row gathered anew
 * (stride along dim 0) moved patterns both ways in smaller blocks (docs/tuning.md). */
static int repeats_streamed_gather(const cpu_walk *walk)
{
    const cpu_blocks *b = &walk->blocks;
    const plan_iter *it = b->it;
    if (b->access[PLAN_COND] == CPU_ACCESS_FIXED)
        return 0;
    int streamed = 0;
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op) {
        if (!patterned_per_block(walk, op))
            continue;
        if (it->rank == 0 || it->strides[op][0] != 0)
            return 0;
        streamed |= streams(it, op);
    }
    return streamed;
}

/* The bytes a block's gathered inputs may take (above). */
static int64_t gather_room(const cpu_walk *walk)
{
    if (copies_streamed_gather(walk))
        return CPU_COPIED_GATHER_BYTES;
    if (repeats_streamed_gather(walk))
        return CPU_REPEATED_GATHER_BYTES;
    return CPU_GATHER_BYTES;
}

/* Whether rows of CPU_COPIED_ROW_BYTES to CPU_LONG_ROW_BYTES are walked as rows, not gathered into
 * blocks: where the blocks gather a then or else input anew for every block, rows of it copied
 * along a broadcast dim (f64 then [...,1,40] against [...,3,40]), and as rows every input is read
 * where it lies (a run or one element per row). The gather writes and reads back each copied row
 * and splat; a row walk pays a call and two partial cache lines per row instead, which the
 * gathers' cost exceeds only from about 256-byte rows (f64 rows of 320 bytes 1.35x faster as rows,
 * f32 rows of 240 bytes 0.55x: docs/tuning.md). Not where the cond is fixed over the blocks (only
 * the input it picks is read, perhaps not the copied one), and not for rows of a byte count that
 * is not a multiple of 4, whose streamed ends take masked stores. */
static int rows_beat_gathers(const cpu_walk *walk)
{
    const cpu_blocks *b = &walk->blocks;
    const plan_iter *it = b->it;
    const int64_t row_bytes = it->rank ? it->dims[0] * (int64_t)b->w : 0;
    if (row_bytes < CPU_COPIED_ROW_BYTES || row_bytes % 4 != 0 ||
        b->access[PLAN_COND] == CPU_ACCESS_FIXED || it->strides[PLAN_OUT][0] != 1)
        return 0;
    int copied = 0;
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op) {
        const int64_t along = it->strides[op][0];
        if (along != 0 && along != 1)
            return 0; /* a row of it would still be gathered */
        copied |= op != PLAN_COND && patterned_per_block(walk, op) && along != 0;
    }
    return copied;
}

/* Reads each block as rows of its first dims where every input it would gather anew (a pattern,
 * not periodic) is a run or one element along each row, and reads those inputs where they lie: a
 * splat or a copy of a row costs a gather a store and a load of every byte, a row read in place a
 * call. Rows of dims [0, D), D the dims below the block's one dim of rows (dim `inner` where a
 * block takes several indices of it, else its last whole dim), of long_row elements or more (as
 * rows of dim 0 are streamed by the row: docs/tuning.md, CPU_LONG_ROW_BYTES). Periodic inputs are
 * still gathered, as rows of at least a row's elements, where the gather buffer holds them. Sets
 * row_dims, row_elements, in_place and row_access where blocks are read so (row_dims and in_place
 * are zero on entry). */
static void choose_rows_in_place(cpu_walk *walk, int64_t long_row)
{
    const cpu_blocks *b = &walk->blocks;
    const int32_t dims = b->split > 1 ? b->inner : b->inner - 1;
    if (dims < 1 || b->access[PLAN_OUT] != CPU_ACCESS_RUN)
        return;
    cpu_blocks rows; /* the access of each input along a row */
    clsel_priv_cpu_period_blocks(b, dims, &rows);
    if (rows.elements < long_row)
        return;
    int in_place[3] = {0, 0, 0}, any = 0;
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op) {
        if (!patterned_per_block(walk, op))
            continue;
        if (rows.access[op] == CPU_ACCESS_PATTERN)
            return;
        in_place[op] = any = 1;
    }
    if (!any)
        return;
    /* Every periodic input's gathered row covers a whole row. */
    const int64_t repeats = walk->period_repeats;
    if (walk->period_elements > 0 && walk->period_elements * walk->period_repeats < rows.elements)
        walk->period_repeats = rows.elements / walk->period_elements;
    size_t bytes = 0;
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op)
        if (!in_place[op])
            bytes += buffer_part(walk, op);
    if (bytes > CPU_GATHER_BYTES) {
        walk->period_repeats = repeats;
        return;
    }
    walk->row_dims = dims;
    walk->row_elements = rows.elements;
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op) {
        walk->in_place[op] = in_place[op];
        walk->row_access[op] = rows.access[op];
    }
}

/* Whether long rows are walked chunk by chunk over several rows, so that an input they all read is
 * still cached for the next row: when some input's row comes round again only after more than
 * CPU_TILE_MIN_REUSE_BYTES of traffic (rows too long to stay cached otherwise), counting the rows
 * walked in between (the dims below its first broadcast dim). */
static int tiles_rows(const plan_iter *it, size_t w)
{
    if (it->rank < 2 || it->dims[0] < 2 * (CPU_TILE_BYTES / (int64_t)w))
        return 0;
    uint64_t row_bytes = (uint64_t)it->dims[0] * w; /* the output's, and each advancing input's */
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op)
        if (it->strides[op][0] != 0)
            row_bytes += (uint64_t)it->dims[0] * clsel_priv_operand_width(op, w);
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op) {
        uint64_t rows = 1;
        for (int32_t d = 1; d < it->rank && it->strides[op][0] != 0;
             rows *= (uint64_t)it->dims[d], ++d)
            if (it->strides[op][d] == 0) {
                if (rows * row_bytes > CPU_TILE_MIN_REUSE_BYTES)
                    return 1;
                break;
            }
    }
    return 0;
}

/* Whether some input lies across the output's rows (a transposed view): a cache line or more apart
 * along dim 0 and closer along dim 1. Walked row by row, each of its lines serves one element per
 * row and is gone before the next (rows a power of two apart meet in the same cache sets): an f32
 * transpose into a dense output ran at 2-3 % of the dense speed so. */
static int transposes_rows(const plan_iter *it, size_t w)
{
    if (it->rank < 2)
        return 0;
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op) {
        const int64_t width = (int64_t)clsel_priv_operand_width(op, w),
                      along = llabs(it->strides[op][0]) * width,
                      across = llabs(it->strides[op][1]) * width;
        if (along >= CPU_CACHE_LINE_BYTES && across > 0 && across < along &&
            across < CPU_CACHE_LINE_BYTES)
            return 1;
    }
    return 0;
}

/* The space walked in tiles: dim 0 cut into chunks of c elements (a divisor of it, at most
 * CPU_TRANSPOSE_CHUNK_BYTES of output), the chunks' dim moved above dim 1, so that a block (a chunk
 * of dim 0 by rows of dim 1) is a tile whose transposed input is read a cache line at a time
 * (cpu_gather.c) and whose output rows are scattered in runs. 0 when no divisor of at least a
 * line's elements exists or the rank has no room. */
static int64_t tile_space(const plan_iter *it, size_t w, plan_iter *tiled)
{
    int64_t c = CPU_TRANSPOSE_CHUNK_BYTES / (int64_t)w;
    while (c >= CPU_CACHE_LINE_BYTES / (int64_t)w && it->dims[0] % c)
        --c;
    if (c < CPU_CACHE_LINE_BYTES / (int64_t)w || c == it->dims[0])
        return 0;
    *tiled = *it;
    if (!clsel_priv_plan_iter_split_dim(tiled, 0, c))
        return 0;
    clsel_priv_plan_iter_swap_dims(tiled, 1, 2);
    return c;
}

void clsel_priv_cpu_walk_make(const plan_iter *it, size_t w, int stream, const cpu_loops *loops,
                              cpu_walk *walk)
{
    walk->loops = loops;
    const int64_t forced_row = clsel_priv_knob_get(CLSEL_PRIV_KNOB_LONG_ROW),
                  forced_block = clsel_priv_knob_get(CLSEL_PRIV_KNOB_BLOCK_ELEMENTS);
    const int64_t tile_chunk = transposes_rows(it, w) ? tile_space(it, w, &walk->tiled) : 0;
    const int tiles = tile_chunk > 0;
    if (tiles)
        it = &walk->tiled;
    const int64_t long_row = forced_row > 0 ? forced_row : CPU_LONG_ROW_BYTES / (int64_t)w;
    const int chunks = !tiles && tiles_rows(it, w);
    const int row_pieces = it->rank && it->dims[0] >= long_row;
    const int64_t bytes_target = chunks       ? CPU_TILE_BYTES
                                 : row_pieces ? CPU_ROW_PIECE_BYTES
                                              : CPU_BLOCK_BYTES;
    int64_t target = tiles ? tile_chunk * CPU_TRANSPOSE_TILE_ROWS : bytes_target / (int64_t)w;
    if (forced_block > 0)
        target = forced_block;
    clsel_priv_cpu_blocks_make(it, w, target, long_row, tiles, &walk->blocks);
    choose_period(walk);
    if (!tiles && !row_pieces && forced_row <= 0 && forced_block <= 0 && rows_beat_gathers(walk)) {
        clsel_priv_cpu_blocks_make(it, w, CPU_ROW_PIECE_BYTES / (int64_t)w, it->dims[0], tiles,
                                   &walk->blocks);
        choose_period(walk);
    }
    /* The gather buffer a full block takes, and one element of every gathered input (the most a
     * block element takes). Smaller blocks gather no input that larger ones did not (a run or a
     * fixed input stays one): one remake fits. */
    int64_t bytes = 0, per_element = 0;
    for (int op = 0; op < PLAN_OPERANDS; ++op)
        if (walk->blocks.access[op] == CPU_ACCESS_PATTERN) {
            bytes += gathered_input_bytes(walk, op);
            per_element += input_width(walk, op);
        }
    const int64_t room = gather_room(walk);
    if (bytes > room) {
        const cpu_walk larger = *walk;
        clsel_priv_cpu_blocks_make(it, w, room / per_element, long_row, tiles, &walk->blocks);
        choose_period(walk);
        /* Smaller blocks only where every periodic input stays periodic: one whose period no
         * longer fits a block is gathered anew for each (bool cond periods of 31,000 elements in
         * blocks of 16,384 ran at 0.66x the speed). */
        if (room < CPU_GATHER_BYTES &&
            memcmp(walk->periodic, larger.periodic, sizeof walk->periodic) != 0) {
            *walk = larger;
            if (bytes > CPU_GATHER_BYTES) {
                clsel_priv_cpu_blocks_make(it, w, CPU_GATHER_BYTES / per_element, long_row, tiles,
                                           &walk->blocks);
                choose_period(walk);
            }
        }
    }
    /* Long rows only (inner 0, natural order): chunk by chunk over several rows. */
    walk->by_chunk = chunks && walk->blocks.inner == 0 && walk->blocks.chunk_level == 0;
    walk->scatters = walk->blocks.access[PLAN_OUT] == CPU_ACCESS_PATTERN;
    walk->stream =
        stream && !walk->scatters; /* a scattered block goes to the buffer first: a cached one */
    walk->gathers = 0;
    for (int op = 0; op < PLAN_OPERANDS; ++op)
        walk->gathers |= walk->blocks.access[op] == CPU_ACCESS_PATTERN;
    walk->row_dims = 0;
    memset(walk->in_place, 0, sizeof walk->in_place);
    if (!tiles && !walk->by_chunk)
        choose_rows_in_place(walk, long_row);
    const int remade = forced_block <= 0; /* the fused walk's blocks are made anew below */
    clsel_priv_cpu_fused_choose(walk, !remade);
    if (walk->fused.on && remade) {
        /* A fused walk gathers nothing: its blocks take CPU_BLOCK_BYTES whatever room the gathers
         * had, in whole tables, so that every block's vectors start at one phase of its tables
         * (made again where the phase changes). */
        const cpu_walk gathered = *walk;
        const int64_t span = walk->fused.span;
        clsel_priv_cpu_blocks_make(it, w, CPU_BLOCK_BYTES / span * span / (int64_t)w, long_row,
                                   tiles, &walk->blocks);
        clsel_priv_cpu_fused_choose(walk, 1);
        if (!walk->fused.on) {
            *walk = gathered;
            walk->fused.on = 0; /* its blocks were not whole tables */
        }
    }
}

/* A gathered input: which block elements the buffer holds (valid while offset and split match). */
typedef struct gathered {
    uint8_t *data;
    int64_t offset, split;
} gathered;

typedef struct block_job {
    const cpu_walk *walk;
    const cpu_row_fn *fns;    /* the PLAN_VARIANTS loops of the element width */
    cpu_tiled_fn tiled;       /* the tiled blend rows, where then or else is gathered compact */
    cpu_expanded_fn expanded; /* the blend rows, where then or else is read expanded */
    int expanded_op;
    const uint8_t *base[3], *end[3];
    uint8_t *out;
    size_t w[3];
    gathered buf[3];
    cpu_gather_walk gather[3];
    uint8_t *staged; /* the output's block, when scattered */
    cpu_scatter_walk scatter;
} block_job;

/* What a block's rows read besides their pointers: then's and else's tile readers, or the reader
 * of the input read expanded. */
typedef struct block_readers {
    cpu_tile_reader tiles[2];
    cpu_expand_reader expand;
} block_readers;

/* Where input `op` is read for the block (an input read expanded: where it lies), and whether it
 * advances. */
static const uint8_t *source(block_job *job, const cpu_block *at, int op, int *advances)
{
    const cpu_walk *walk = job->walk;
    const uint8_t *at_offset = job->base[op] + at->place.offset[op] * (int64_t)job->w[op];
    *advances = walk->blocks.access[op] != CPU_ACCESS_FIXED;
    if (walk->blocks.access[op] != CPU_ACCESS_PATTERN || job->gather[op].expanded)
        return at_offset;
    gathered *g = &job->buf[op];
    if (walk->periodic[op]) {
        if (g->offset != at->place.offset[op]) {
            clsel_priv_cpu_gather_periods(
                &job->gather[op], (size_t)walk->period_elements * job->w[op], walk->period_repeats,
                (size_t)periodic_lead_room(walk) * job->w[op], at_offset, job->end[op], g->data);
            g->offset = at->place.offset[op];
        }
        return g->data;
    }
    const int64_t split = at->split;
    if (g->offset != at->place.offset[op] || g->split < split) {
        clsel_priv_cpu_gather(&job->gather[op], split, at_offset, job->end[op], g->data);
        g->offset = at->place.offset[op];
        g->split = split;
    }
    return g->data;
}

/* One call of a block's rows: the tiled or expanded blend rows where the job has them, with the
 * block's readers, else fn. */
static void call_rows(const block_job *job, cpu_row_fn fn, const cpu_rows *rows,
                      block_readers *readers)
{
    if (job->tiled)
        job->tiled(rows, readers->tiles);
    else if (job->expanded)
        job->expanded(rows, &readers->expand);
    else
        fn(rows);
}

/* Elements of w bytes from out to its next cache line: the rows of a streamed block of rows of
 * whole lines, `row` elements each, start there, so that each is streamed in whole lines; its ends
 * computed apart and streamed in pieces cost each 3,968-byte row about 500 instructions (f64 then
 * [2,31,40,13,1,16] tiled under else [31,1] and cond [16], output 16 bytes past a line: 20 % of the
 * walk's instructions, callgrind). 0 where out is on a line, is not on an element boundary of one,
 * the rows are not whole lines or the block holds no whole row after them. */
static int64_t lead_to_line(const uint8_t *out, size_t w, int64_t row, int64_t elements)
{
    const int64_t misaligned = (int64_t)((uintptr_t)out & (CPU_CACHE_LINE_BYTES - 1));
    if (misaligned == 0 || misaligned % (int64_t)w || row * (int64_t)w % CPU_CACHE_LINE_BYTES)
        return 0;
    const int64_t lead = (CPU_CACHE_LINE_BYTES - misaligned) / (int64_t)w;
    return lead + row <= elements ? lead : 0;
}

/* A block's `elements` from the rows' pointers: one call over a row of them all, or, where inputs
 * are periodic, over rows of period_repeats periods (each periodic input and a fixed one reading
 * its one row again, the others and the output moving on), the rest in a shorter row; streamed,
 * those rows after the elements up to the output's first line (lead_to_line). Operand k
 * reads input read_as[k] (then and else both read the chosen one under a fixed cond), which
 * advances where advances[k]. A compact tiled input, or one read expanded, is read by its reader,
 * row after row (its row pointer stays). */
static void run_rows(const block_job *job, cpu_row_fn fn, int64_t elements, cpu_rows *rows,
                     const int advances[3], const int read_as[3], block_readers *readers)
{
    const cpu_walk *walk = job->walk;
    int periodic = 0; /* some input read is periodic (not so where a fixed cond picks another) */
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op)
        periodic |= advances[op] && walk->periodic[read_as[op]];
    const int64_t row = periodic ? walk->period_elements * walk->period_repeats : elements;
    const int64_t lead =
        periodic && walk->stream ? lead_to_line(rows->out, job->w[PLAN_THEN], row, elements) : 0;
    if (lead > 0) {
        /* The elements before the output's first line boundary, as a row of their own; every row
         * after them starts on a line, its periodic inputs read from the phase they left. */
        cpu_rows first = *rows;
        first.n = lead;
        first.count = 1;
        call_rows(job, fn, &first, readers);
        rows->cond += advances[PLAN_COND] ? lead * (int64_t)job->w[PLAN_COND] : 0;
        rows->then_data += advances[PLAN_THEN] ? lead * (int64_t)job->w[PLAN_THEN] : 0;
        rows->else_data += advances[PLAN_ELSE] ? lead * (int64_t)job->w[PLAN_ELSE] : 0;
        rows->out += lead * (int64_t)job->w[PLAN_THEN];
        elements -= lead;
    }
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op)
        rows->step[op] =
            advances[op] && !walk->periodic[read_as[op]] ? row * (int64_t)job->w[op] : 0;
    if (job->expanded)
        rows->step[job->expanded_op] = 0;
    rows->step[PLAN_OUT] = row * (int64_t)job->w[PLAN_THEN];
    rows->n = row;
    rows->count = elements / row;
    if (rows->count > 0)
        call_rows(job, fn, rows, readers);
    const int64_t rest = elements - rows->count * row;
    if (rest == 0)
        return;
    rows->cond += rows->count * rows->step[PLAN_COND];
    rows->then_data += rows->count * rows->step[PLAN_THEN];
    rows->else_data += rows->count * rows->step[PLAN_ELSE];
    rows->out += rows->count * rows->step[PLAN_OUT];
    rows->n = rest;
    rows->count = 1;
    call_rows(job, fn, rows, readers);
}

/* Then's and else's readers for the tiled rows: compact tiles from the start of their gathered
 * block, or plain runs. */
static void tile_readers(const block_job *job, const uint8_t *then_data, const uint8_t *else_data,
                         cpu_tile_reader readers[2])
{
    const uint8_t *data[2] = {then_data, else_data};
    for (int k = 0; k < 2; ++k) {
        const int op = PLAN_THEN + k;
        const cpu_gather_walk *g = &job->gather[op];
        if (job->walk->blocks.access[op] == CPU_ACCESS_PATTERN && g->compact)
            readers[k] = (cpu_tile_reader){data[k], 0, g->tile_span, g->tile_period, g->tile_span};
        else
            readers[k] = (cpu_tile_reader){data[k], 0, INT64_MAX, INT64_MAX, 0};
    }
}

/* The input a cond fixed over the block picks (the only one the block reads). */
static int picked_input(const block_job *job, const cpu_block *at)
{
    return job->base[PLAN_COND][at->place.offset[PLAN_COND]] ? PLAN_THEN : PLAN_ELSE;
}

/* A block read as rows of dims [0, row_dims) (cpu_walk.h): an input in place read where it lies,
 * stepping along the rows' dim; the others as the blocks read them, a row on where they advance
 * (periodic ones reading their row again). Under a cond fixed over the block only the input it
 * picks is read. */
static void select_rows(block_job *job, const cpu_block *at, uint8_t *out)
{
    const cpu_walk *walk = job->walk;
    const cpu_blocks *b = &walk->blocks;
    const int64_t row = walk->row_elements, count = b->inner_elements * at->split / row;
    cpu_rows rows = {
        row, count, NULL, NULL, NULL, out, {0, 0, 0, row * (int64_t)job->w[PLAN_THEN]}};
    const uint8_t *data[3] = {NULL, NULL, NULL};
    int adv[3] = {0, 0, 0}, read_as[3] = {PLAN_COND, PLAN_THEN, PLAN_ELSE};
    if (b->access[PLAN_COND] == CPU_ACCESS_FIXED) {
        read_as[PLAN_THEN] = read_as[PLAN_ELSE] = picked_input(job, at);
    }
    for (int k = PLAN_COND; k <= PLAN_ELSE; ++k) {
        const int op = read_as[k];
        if (data[op] == NULL) {
            if (walk->in_place[op]) {
                data[op] = job->base[op] + at->place.offset[op] * (int64_t)job->w[op];
                adv[op] = walk->row_access[op] == CPU_ACCESS_RUN;
                rows.step[op] = b->it->strides[op][walk->row_dims] * (int64_t)job->w[op];
            } else {
                data[op] = source(job, at, op, &adv[op]);
                rows.step[op] = adv[op] && !walk->periodic[op] ? row * (int64_t)job->w[op] : 0;
            }
        }
        rows.step[k] = rows.step[op];
    }
    rows.cond = data[PLAN_COND];
    rows.then_data = data[read_as[PLAN_THEN]];
    rows.else_data = data[read_as[PLAN_ELSE]];
    job->fns[clsel_priv_plan_variant(adv[PLAN_COND], adv[read_as[PLAN_THEN]],
                                     adv[read_as[PLAN_ELSE]])](&rows);
}

static void select_block(block_job *job, const cpu_block *at, uint8_t *out)
{
    const cpu_walk *walk = job->walk;
    if (walk->row_dims > 0) {
        select_rows(job, at, out);
        return;
    }
    const int64_t elements = walk->blocks.inner_elements * at->split;
    cpu_rows rows = {elements,    1,    job->base[PLAN_COND] + at->place.offset[PLAN_COND],
                     NULL,        NULL, out,
                     {0, 0, 0, 0}};
    int adv[3] = {0, 0, 0};
    if (walk->blocks.access[PLAN_COND] == CPU_ACCESS_FIXED) {
        /* One choice for the whole block: only the chosen input is read (and gathered). */
        const int op = picked_input(job, at);
        rows.then_data = rows.else_data = source(job, at, op, &adv[op]);
        const int advances[3] = {0, adv[op], adv[op]}, read_as[3] = {PLAN_COND, op, op};
        run_rows(job, job->fns[clsel_priv_plan_variant(0, adv[op], adv[op])], elements, &rows,
                 advances, read_as, NULL);
        return;
    }
    rows.cond = source(job, at, PLAN_COND, &adv[0]);
    rows.then_data = source(job, at, PLAN_THEN, &adv[1]);
    rows.else_data = source(job, at, PLAN_ELSE, &adv[2]);
    static const int read_as[3] = {PLAN_COND, PLAN_THEN, PLAN_ELSE};
    block_readers readers;
    if (job->tiled)
        tile_readers(job, rows.then_data, rows.else_data, readers.tiles);
    if (job->expanded) {
        const int op = job->expanded_op;
        readers.expand =
            (cpu_expand_reader){&job->gather[op].expand,
                                op == PLAN_THEN ? rows.then_data : rows.else_data, job->end[op], 0};
    }
    run_rows(job, job->fns[clsel_priv_plan_variant(adv[0], adv[1], adv[2])], elements, &rows, adv,
             read_as, &readers);
}

static void run_block(block_job *job, const cpu_block *at)
{
    uint8_t *out = job->out + at->place.offset[PLAN_OUT] * (int64_t)job->w[PLAN_THEN];
    if (!job->walk->scatters) {
        select_block(job, at, out);
        return;
    }
    select_block(job, at, job->staged);
    clsel_priv_cpu_scatter(&job->scatter, at->split, job->staged, out);
}

/* Blocks [first, last) of a walk that gathers nothing: those of one size along a line of the
 * fastest level per call. */
static void run_lines(block_job *job, int64_t first, int64_t last)
{
    const cpu_blocks *b = &job->walk->blocks;
    int adv[3];
    for (int op = 0; op < 3; ++op)
        adv[op] = b->access[op] != CPU_ACCESS_FIXED;
    const cpu_row_fn fn = job->fns[clsel_priv_plan_variant(adv[0], adv[1], adv[2])];
    cpu_block at;
    clsel_priv_cpu_block_at(b, first, &at);
    for (int64_t i = first; i < last;) {
        int64_t count = b->order.rank ? b->order.dims[0] - at.place.at[0] : 1;
        if (count > last - i)
            count = last - i;
        if (b->chunk_level == 0 && count > 1 && at.place.at[0] + count == b->order.dims[0] &&
            b->last_split != b->split)
            --count; /* the line's last chunk is shorter: a call of its own */
        cpu_rows rows = {
            b->inner_elements * at.split,
            count,
            job->base[PLAN_COND] + at.place.offset[PLAN_COND],
            job->base[PLAN_THEN] + at.place.offset[PLAN_THEN] * (int64_t)job->w[PLAN_THEN],
            job->base[PLAN_ELSE] + at.place.offset[PLAN_ELSE] * (int64_t)job->w[PLAN_ELSE],
            job->out + at.place.offset[PLAN_OUT] * (int64_t)job->w[PLAN_THEN],
            {0, 0, 0, 0}};
        for (int t = 0; t < PLAN_OPERANDS; ++t)
            rows.step[t] =
                b->order.strides[t][0] * (int64_t)clsel_priv_operand_width(t, job->w[PLAN_THEN]);
        fn(&rows);
        if ((i += count) < last)
            clsel_priv_cpu_block_skip(b, &at, count);
    }
}

/* The blocks of a walk that is not fused: gathered, read in place or scattered. Not inlined: its
 * gather buffer stays off the stack of a fused walk. */
__attribute__((noinline)) static void walk_blocks(const cpu_walk *walk, const cpu_tensors *t)
{
    const cpu_blocks *b = &walk->blocks;
    /* Each gathered input's part, and a scattered output's, starts on a cache line and has
     * CPU_GATHER_SLACK bytes of room. */
    _Alignas(64) uint8_t buffers[CPU_GATHER_BYTES + PLAN_OPERANDS * (CPU_GATHER_SLACK + 64)];
    size_t used = 0;
    block_job job;
    job.walk = walk;
    const enum cpu_stores stores = !walk->stream           ? CPU_STORES_CACHED
                                   : prefetches_cond(walk) ? CPU_STORES_PREFETCHED
                                   : splits_streams(walk)  ? CPU_STORES_SPLIT
                                                           : CPU_STORES_STREAMED;
    const cpu_loops *loops = walk->loops;
    const int slot = clsel_priv_width_slot(b->w);
    job.fns = loops->rows[stores][slot];
    job.tiled = NULL;
    job.expanded = NULL;
    job.expanded_op = -1;
    job.out = t->out;
    /* Tiles gathered compact where every block blends (cond, then and else all advance) and the
     * loops read tiles; or the one input a block gathers anew read expanded by the blend
     * (reads_expanded), so never beside a compact tile, which is gathered anew too. */
    const cpu_tiled_fn tiled = loops->tiled[walk->stream][slot];
    const int blends = b->access[PLAN_COND] != CPU_ACCESS_FIXED &&
                       b->access[PLAN_THEN] != CPU_ACCESS_FIXED &&
                       b->access[PLAN_ELSE] != CPU_ACCESS_FIXED;
    for (int op = 0; op < 3; ++op) {
        job.base[op] = t->in[op];
        job.end[op] = t->end[op];
        job.w[op] = (size_t)input_width(walk, op);
        job.buf[op] = (gathered){buffers + used, -1, 0};
        job.gather[op].expanded = 0;
        if (b->access[op] == CPU_ACCESS_PATTERN && !walk->in_place[op]) {
            used += buffer_part(walk, op);
            cpu_blocks period; /* a periodic input's gather makes one period */
            if (walk->periodic[op])
                clsel_priv_cpu_period_blocks(b, walk->period_dims, &period);
            const int compact = tiled && blends && op != PLAN_COND && gathered_anew(walk, op);
            const int expand = loops->expanded && reads_expanded(walk, op);
            clsel_priv_cpu_gather_prepare(walk->periodic[op] ? &period : b, op, job.w[op], loops,
                                          compact, expand, &job.gather[op]);
            if (job.gather[op].compact)
                job.tiled = tiled;
            if (job.gather[op].expanded) {
                const int other = op == PLAN_THEN ? PLAN_ELSE : PLAN_THEN;
                job.expanded = loops->expanded[stores][slot][op == PLAN_ELSE]
                                              [b->access[other] != CPU_ACCESS_FIXED];
                job.expanded_op = op;
            }
        }
    }
    job.staged = buffers + used;
    if (walk->scatters)
        clsel_priv_cpu_scatter_prepare(b, b->w, &job.scatter);
    cpu_block at;
    if (walk->by_chunk) {
        /* Chunk x of every row, then chunk x + 1: a re-read input's chunk is still cached for the
         * next row. */
        for (int64_t x = 0; x < b->order.dims[0]; ++x)
            for (int64_t line = 0; line < b->count / b->order.dims[0]; ++line) {
                clsel_priv_cpu_block_at(b, line * b->order.dims[0] + x, &at);
                run_block(&job, &at);
            }
    } else if (!walk->gathers) {
        run_lines(&job, 0, b->count);
    } else {
        clsel_priv_cpu_block_at(b, 0, &at);
        for (int64_t i = 0;;) {
            run_block(&job, &at);
            if (++i == b->count)
                break;
            clsel_priv_cpu_block_next(b, &at);
        }
    }
    if (walk->stream)
        walk->loops->fence();
}

void clsel_priv_cpu_walk_run(const cpu_walk *walk, const cpu_tensors *t)
{
    if (walk->fused.on)
        clsel_priv_cpu_fused_run(walk, t);
    else
        walk_blocks(walk, t);
}
