/* tuning_constants.h - every size and threshold the library tunes, in one place: the defaults that
 * the knobs of tuning.h override, and the thresholds no knob reaches. Each line says what the value
 * decides; docs/tuning.md keeps why and the measurement behind it, or says "not measured". Equal
 * values (the blocks and the gather buffer, the two 8 MiB thresholds) are separate choices with
 * separate names. */
#ifndef CLSEL_HOST_TUNING_CONSTANTS_H
#define CLSEL_HOST_TUNING_CONSTANTS_H

#include <stdint.h>

/* ---- CPU path: blocks and rows (host/cpu/cpu_walk.c, cpu_blocks.c) ---- */

/* Output bytes a block aims at (knob CLSEL_PRIV_KNOB_BLOCK_ELEMENTS): 1.12x on the sweep's slowest
 * patterns against 8 KiB, as the prefetcher follows longer stretches. */
#define CPU_BLOCK_BYTES 65536
/* The one stack buffer that a block's gathered inputs share. */
#define CPU_GATHER_BYTES 65536
/* What they may take instead where the cond is fixed over every block and an input gathered anew
 * for each streams from memory (its bytes at least 1 / CPU_STREAMED_INPUT_SHARE of the output's):
 * such a block is a gather and then a copy of what it gathered, both in L1. */
#define CPU_COPIED_GATHER_BYTES 16384
#define CPU_STREAMED_INPUT_SHARE 8
/* And where the cond is not fixed but every input gathered anew for each block is one element
 * repeated along the rows, one of them streamed so (the others periodic): a gather and a select
 * that reads it back, both in L1. */
#define CPU_REPEATED_GATHER_BYTES 16384
/* Rows this long are walked a row per piece, shorter ones gathered (knob
 * CLSEL_PRIV_KNOB_LONG_ROW). */
#define CPU_LONG_ROW_BYTES 1024
/* Rows from this long are walked a row per piece too where blocks of them would gather a then or
 * else input anew for every block, a row of it copied along a broadcast dim (cpu_walk.c,
 * `rows_beat_gathers`). */
#define CPU_COPIED_ROW_BYTES 256
/* An input that repeats through a block is gathered as a row of periods at least this long (a
 * whole number of cache lines), which each row of the block reads again; where every such input
 * starts at the same element in every block, the row is gathered once and the longer one serves:
 * docs/tuning.md. */
#define CPU_PERIOD_ROW_BYTES 4096
#define CPU_PERIOD_KEPT_ROW_BYTES 16384
/* Pieces of long rows (nothing gathered) may be this long, so that a long row is fewer calls. */
#define CPU_ROW_PIECE_BYTES ((int64_t)1 << 20)
/* Long rows are walked in chunks of this many output bytes when a row holds two. */
#define CPU_TILE_BYTES 8192
/* ...but only when an input's row would leave the last-level cache before a later row reads it
 * again. */
#define CPU_TILE_MIN_REUSE_BYTES ((uint64_t)8 << 20)
/* An input laid across the output's rows (transposed) is walked in tiles: chunks of dim 0 of this
 * many output bytes (or the largest divisor of the dim below it) by this many rows (a line of
 * one-byte cond elements). */
#define CPU_TRANSPOSE_CHUNK_BYTES 256
#define CPU_TRANSPOSE_TILE_ROWS 64
/* Reading a tile's rows (AVX2), the lines CPU_TRANSPOSE_PREFETCH_TILES tiles on along each row are
 * prefetched: the walk's tiles after next, which read the same input rows further on. */
#define CPU_TRANSPOSE_PREFETCH_TILES 2
/* The cache line: an input that steps this far along a row reads a line per element. */
#define CPU_CACHE_LINE_BYTES 64
/* Outputs this large are written past the caches (non-temporal stores): a third less traffic. A
 * fixed size, as virtual machines report the host's cache. */
#define CPU_STREAM_MIN_BYTES ((uint64_t)8 << 20)
/* A streamed row whose whole lines make CPU_STREAM_SPLIT_MIN_BYTES or more, where one or two of the
 * inputs the rows read stream from memory where they lie, is written as this many runs of lines
 * side by side, a line of each in turn (AVX2): one run of reads keeps too few of a core's misses
 * in flight for memcpy's bandwidth, which glibc's copy gets from four pages at once (measured:
 * docs/tuning.md). */
#define CPU_STREAM_PARTS 4
#define CPU_STREAM_SPLIT_MIN_BYTES 16384
/* A streamed blend of elements up to CPU_COND_PREFETCH_WIDEST bytes (the cond half the output's
 * bytes or more) whose cond is the one input read in place (a run from memory; then and else fixed
 * or gathered) prefetches the cond this many output bytes ahead, a line at a time (AVX2). */
#define CPU_COND_PREFETCH_BYTES 2048
#define CPU_COND_PREFETCH_WIDEST 2

/* ---- CPU path: gathers (host/cpu/cpu_gather.c, cpu_blocks.c) ---- */

/* An output dense only along rows shorter than this (padded or sliced short rows, a strided
 * innermost dim) is written through the gather buffer and scattered per block; longer rows are
 * blocks of their own, one row loop call each. */
#define CPU_SCATTER_BELOW_ROW_BYTES 64

/* Output bytes of one period that a shuffle table covers (32 pieces of 16 bytes): built per input
 * per walk. */
#define CPU_TABLE_BYTES 512
#define CPU_SHUFFLE_PIECES (CPU_TABLE_BYTES / 16)
/* Output bytes of one fused block's table (cpu_fused.c): the rows of its short inner dims that make
 * whole vectors (the least common multiple of a row's bytes and 32), per input per run. */
#define CPU_FUSED_TABLE_BYTES 4096
#define CPU_SHUFFLE_MOST_PIECES (CPU_FUSED_TABLE_BYTES / 16)
/* ...and at least this many, in whole such sets of rows, where they fit. */
#define CPU_FUSED_LEAST_TABLE_BYTES 1024
/* Source bytes a fused table's loads may span: where an input ends within them, a table's window
 * is copied to a buffer of this size first. */
#define CPU_FUSED_REACH_BYTES 4096
/* Where blocks start at varying phases of the output's 32-byte vectors, their tables are made again
 * at each new phase: fused only where a phase lasts this many output bytes per byte of the tables
 * made for it. */
#define CPU_FUSED_OUTPUT_PER_TABLE_BYTE 256
/* A fused block's inputs that move on are prefetched this many source bytes ahead, a table's lines
 * at a time (AVX2). */
#define CPU_FUSED_PREFETCH_BYTES 4096
/* Runs this long stay runs, never shuffled. */
#define CPU_TABLE_BELOW_RUN_BYTES 64
/* Copied runs up to this long, tiled along a broadcast dim, are read once into registers and
 * stored tile by tile in one loop (cpu_gather.c's copy_tiled_M): four 32-byte moves at most;
 * longer ones are copied once and doubled (replicate). */
#define CPU_TILE_RUN_MOST 128
/* A run tiled along broadcast dims, under a cond that varies, is gathered compact where it has at
 * least twice the copies that make this many bytes: those copies stored once per row of copies and
 * read again by the AVX2 blend (cpu_tile_reader), whose pointer moves once per period. */
#define CPU_TILE_PERIOD_BYTES 256
/* An element repeated into runs of at most this many bytes, its elements consecutive in the
 * source, under a cond that varies, is read by the AVX2 blend itself (cpu_expand_reader), not
 * gathered: a gathered run of up to 32 bytes costs a 32-byte store, more than a vector's worth per
 * run; longer runs cost about one store a vector, which the blend's shuffle did not beat (f32 runs
 * of 124 bytes 1.11-1.17x the time; docs/tuning.md). */
#define CPU_EXPAND_MOST_RUN_BYTES 32
/* The walk's cost model: a gather costs a wide move per run and per this many bytes; a level goes
 * first only when it saves this many times what the best so far saves. */
#define CPU_GATHER_MOVE_BYTES 32.0
#define CPU_ORDER_MARGIN 1.01

/* ---- CPU path: threads (host/cpu/cpu_run.c) ---- */

/* Library threads start only for runs that move this much (they cost 200-250 us to start and
 * join). */
#define CPU_THREADS_MIN_BYTES ((uint64_t)32 << 20)
/* A caller's pool splits runs of at least this many output elements... */
#define CPU_PARALLEL_MIN_ELEMENTS (1 << 16)
/* ...into pieces of at least this many, at most CPU_POOL_MAX_PIECES of them. */
#define CPU_POOL_PIECE_ELEMENTS (1 << 16)
#define CPU_POOL_MAX_PIECES 256
/* Boxes (plan_iter.h) per library thread, so that short boxes at the ends of the split dim even
 * out. */
#define CPU_THREAD_BOXES 4
/* The most threads one run starts: a bound on stack arrays. */
#define CPU_MAX_THREADS 256

/* ---- OpenCL (host/opencl/cl_launch.c, cl_context.c) ---- */

/* Output elements per launch at most (knob CLSEL_PRIV_KNOB_PIECE_ELEMENTS), and the most
 * consecutive elements a launch touches of any tensor, so that the kernels' 32-bit index math
 * holds; a multiple of 64 elements, so that consecutive pieces keep the first one's alignment. */
#define CL_PIECE_MAX_ELEMENTS (((int64_t)INT32_MAX / 64 - 1) * 64)
/* Work-group size, or the largest power of two below it that the device and every kernel allow. */
#define CL_GROUP_ITEMS 256
/* 16-byte items per work-item (a power of two up to 8: each is a kernel variant), measured on an
 * H100 (docs/tuning.md): by element width (1, 2, 4, 8 bytes) in general; one where items cross the
 * ends of rows shorter than CL_SHORT_ROW_BYTES (a work-item runs its items one after another
 * there, and such a row end falls in nearly every warp); eight where cond is one element per row
 * or for the whole launch and both inputs are read along rows. */
#define CL_ITEMS_BY_WIDTH \
    {                     \
        4, 4, 4, 4        \
    }
#define CL_ITEMS_SHORT_ROWS 1
#define CL_SHORT_ROW_BYTES 512
#define CL_ITEMS_FIXED_COND 8
/* Transposed inputs go through tiles in local memory (CLSEL_READ_TILED) where the launch has at
 * least this many rows (its dim 1): fewer would leave most of a tile's CLSEL_TILE_ROWS rows idle.
 * docs/tuning.md. */
#define CL_TILE_MIN_ROWS 16

/* ---- the runtime (host/runtime/; CLSEL_RUNTIME_MIN_DEVICE_BYTES is public, include/clsel.h)
 * ---- */

/* Device runs copy host data through output chunks of at most this many bytes (PoCL faults fresh
 * buffers in)... */
#define RUNTIME_CHUNK_MAX_BYTES ((uint64_t)4 << 20)
/* ...in two sets of four tensors, each at most a sixteenth of the device's memory. */
#define RUNTIME_CHUNK_SETS 2
#define RUNTIME_CHUNK_MEMORY_SHARE 16
/* AUTO on a discrete device times both paths on this many u8 elements, keeping the best of this
 * many runs. */
#define RUNTIME_CALIBRATION_ELEMENTS ((int64_t)8 << 20)
#define RUNTIME_CALIBRATION_RUNS 2

#endif
