/* tuning_constants.h - every size and threshold the library tunes, in one place: the
 * defaults that the knobs of tuning.h override, and the thresholds no knob reaches. Each
 * says what it decides, why this value, and where and how it was measured, or "not
 * measured" where no measurement is on record. Constants that happen to be equal (the
 * CPU blocks and the gather buffer, the two 8 MiB thresholds, the pool's two 2^16) are
 * separate choices and keep separate names: change one, not the other.
 *
 * "The CI box" is the 2-vCPU AMD EPYC machine (32 MiB L3) that the measurements name;
 * the sweep and the named cases are `clsel bench`'s (docs/performance.md).
 *
 * Not here: the kernels' own (the sources in cl/, part of the kernels' contract), and
 * the bytes a loop may write past its buffer (CPU_GATHER_SLACK in host/cpu/cpu_gather.h),
 * which the loops' store widths dictate. */
#ifndef CLSEL_HOST_TUNING_CONSTANTS_H
#define CLSEL_HOST_TUNING_CONSTANTS_H

#include <stdint.h>

/* ---- CPU path: blocks and rows (host/cpu/cpu_walk.c, cpu_blocks.c) ----------------- */

/* Blocks aim at this many bytes of output (knob CLSEL_PRIV_KNOB_BLOCK_ELEMENTS). Larger
 * blocks mean fewer block boundaries (a partial 64-byte line streamed in pieces at each)
 * and, when the walk's order jumps (cpu_blocks.c's order_levels), longer stretches that
 * the hardware prefetcher follows: a single-threaded non-temporal copy in 8 KiB pieces
 * visited out of order ran at 9-14 GB/s against 16-18 GB/s in 16-64 KiB pieces or in
 * order (CI box, 136 MiB). Against 8 KiB blocks, the sweep's slowest patterns on one
 * thread ran 1.12x faster (docs/performance_analysis.md, "Why 64 KiB CPU blocks"). A block
 * shrinks where its gathered inputs would not fit CPU_GATHER_BYTES. */
#define CPU_BLOCK_BYTES 65536

/* The one buffer that a block's gathered inputs share, on the stack of the thread that
 * walks them (cpu_walk.c sizes blocks to fit it). Came with 64 KiB blocks (it was 8 KiB
 * per input before, as the blocks were 8 KiB) and measured only together with them. */
#define CPU_GATHER_BYTES 65536

/* Rows of at least this many bytes are walked in pieces of one row each (every input a
 * run or fixed), a line of them per call; shorter ones are gathered several dims at a
 * time (knob CLSEL_PRIV_KNOB_LONG_ROW). Measured on the CI box (best of 10, f32, an
 * alternating A/B of two builds): [256,256,256] under then [256,1,256] and else
 * [1,256,1] 5.8-6.2 ms as rows of 1 KiB, 7.4-7.7 ms gathered in blocks; rows of 512
 * bytes gathered or not were within noise of each other. */
#define CPU_LONG_ROW_BYTES 1024

/* Blocks that are pieces of long rows (nothing gathered) can be longer than those with
 * a gathered input, so that a long row is fewer calls; pieces stay many enough to share
 * out over threads. Not measured. */
#define CPU_ROW_PIECE_BYTES ((int64_t)1 << 20)

/* Long rows are walked chunk by chunk (cpu_walk.c, tiles_rows) in chunks of this many
 * bytes of output, when a row holds at least two. The block size from before
 * CPU_BLOCK_BYTES grew to 64 KiB, kept for tiling; not measured on its own. */
#define CPU_TILE_BYTES 8192

/* Tiling pays only when an input's row would be gone from the last-level cache by the
 * time a later row reads it again: when the traffic between the two reads exceeds this
 * (a quarter of the CI box's 32 MiB L3, fixed for the reason CPU_STREAM_MIN_BYTES is).
 * Tiling rows that would have stayed cached costs: [4,16,1024,1024] f16 under a
 * [4,1,1024,1024] mask ran at 73-81 % of memcpy tiled, 91 % untiled (clsel bench). The
 * threshold itself was not swept. */
#define CPU_TILE_MIN_REUSE_BYTES ((uint64_t)8 << 20)

/* Outputs of at least this many bytes are written past the caches (non-temporal stores,
 * host/cpu/cpu_loops_avx2.c): they would mostly leave the caches anyway, and skipping
 * the read for ownership saves a third of the memory traffic (CI box, 2^26 f32: 18.6
 * GB/s with plain stores, 22.7-27.9 GB/s streamed; memcpy 26-27). Smaller outputs stay
 * cached for whatever reads them next. A fixed size rather than the cache size the
 * system reports: on virtual machines that report is often the host's, not the share
 * this process gets (the CI box says 256 MiB for a 32 MiB L3). The threshold is a
 * quarter of that L3, not swept. */
#define CPU_STREAM_MIN_BYTES ((uint64_t)8 << 20)

/* ---- CPU path: gathers (host/cpu/cpu_gather.c, cpu_blocks.c) ----------------------- */

/* A periodic shuffle table covers at most this many output bytes of one period (32
 * pieces of 16 bytes): one is built per gathered input per walk, so it must stay small
 * and cheap to build. Not measured at other values. */
#define CPU_TABLE_BYTES 512
#define CPU_SHUFFLE_PIECES (CPU_TABLE_BYTES / 16)

/* Runs of at least this many bytes stay runs, never shuffled: moved 16-32 bytes per
 * store, they gain nothing from a table and their loops cost little per call. Not
 * measured at this value (runs of 16-63 bytes are tabled only with a repeated dim among
 * the table's, a rule that was measured: docs/performance_analysis.md, "The low tail:
 * periodic shuffles on the CPU path"). */
#define CPU_TABLE_BELOW_RUN_BYTES 64

/* The cost model that picks the fastest level of the walk (cpu_blocks.c): a gather costs
 * one wide move per run plus one per this many bytes written (wide moves of 32 bytes),
 * and a level goes first only if it saves more than CPU_ORDER_MARGIN times what the
 * best level so far saves (near-ties keep the natural order). Not measured. */
#define CPU_GATHER_MOVE_BYTES 32.0
#define CPU_ORDER_MARGIN 1.01

/* ---- CPU path: threads (host/cpu/cpu_run.c) ---------------------------------------- */

/* Threads the library starts for one call cost about 200-250 us to start and join on the
 * CI box (2 vCPUs), against ~30 % saved on a memory-bound run: 2 threads win from about
 * 2^22 f32 elements (54 MB moved) and lose below 2^21 (27 MB). Measured by median of 41
 * runs, same-shape f32, threads 1 vs 2 (docs/performance.md, "Thresholds";
 * tools/bench/bench_thresholds.c). So library threads start only when a run moves at least
 * this much. */
#define CPU_THREADS_MIN_BYTES ((uint64_t)32 << 20)

/* A caller's pool has its threads running already: the split pays from smaller sizes,
 * but a run below this many output elements is not worth a task. Not measured. */
#define CPU_PARALLEL_MIN_ELEMENTS (1 << 16)

/* Pieces for a caller's pool: enough to balance, each big enough to be worth a task (at
 * least this many output elements, at most CPU_POOL_MAX_PIECES of them). Not measured. */
#define CPU_POOL_PIECE_ELEMENTS (1 << 16)
#define CPU_POOL_MAX_PIECES 256

/* Library threads take this many boxes each (plan_iter.h), contiguous ranges of them, so
 * that the shorter box at the end of each range along the split dim evens out. Not
 * measured. */
#define CPU_THREAD_BOXES 4

/* The most threads one run starts, and the most cores clsel_priv_cpu_cores reports: a
 * bound on the threads' stack arrays, not a measurement. */
#define CPU_MAX_THREADS 256

/* ---- OpenCL (host/opencl/cl_launch.c, cl_context.c) -------------------------------- */

/* Output elements per launch at most (knob CLSEL_PRIV_KNOB_PIECE_ELEMENTS), and the most
 * consecutive elements a launch may touch of any tensor: every element offset inside a
 * piece then fits the kernels' 32-bit index math, the division included (it needs
 * x < 2^31). A multiple of 64 elements, so that a piece that starts where the previous
 * one ended keeps the alignment of the first (a 16-byte item is at most 16 elements). A
 * limit the kernels set, not a measurement. */
#define CL_PIECE_MAX_ELEMENTS (((int64_t)INT32_MAX / 64 - 1) * 64)

/* Work-groups of this many items, or the largest power of two below it that the device
 * and every kernel allow. A common choice for memory-bound kernels; not compared with
 * others on a GPU yet (docs/performance_analysis.md). */
#define CL_GROUP_ITEMS 256

/* ---- the runtime (host/runtime/) ------------------------------------------------------
 * Its threshold for sending a run to a device at all is public, with its measurement:
 * CLSEL_RUNTIME_MIN_DEVICE_BYTES in include/clsel.h. */

/* Device runs copy host data through output chunks of at most this many bytes (and at
 * most 1/RUNTIME_CHUNK_MEMORY_SHARE of the device's memory). Small chunks win on PoCL,
 * where every run's fresh buffers are page-faulted in: a 1 GiB u8 select took
 * 960-1220 ms in 256 MiB chunks, 570 ms in 64 MiB, 360-400 ms in 16 MiB, 320-390 ms in
 * 8 MiB and 220-290 ms in 1-4 MiB chunks (second and third runs; runtime_device.c). On
 * a GPU a 4 MiB transfer is still long against a launch (~200 us at 20 GB/s); not
 * measured on one. */
#define RUNTIME_CHUNK_MAX_BYTES ((uint64_t)4 << 20)

/* Two sets of a chunk's four tensors (one transferring while the other computes) beside
 * whatever else lives in the device's memory: a sixteenth of it each. Not measured. */
#define RUNTIME_CHUNK_SETS 2
#define RUNTIME_CHUNK_MEMORY_SHARE 16

/* AUTO on a discrete device times both paths once on this many u8 elements (32 MiB moved
 * per run, past every cache, a few milliseconds per run) and keeps the better of
 * RUNTIME_CALIBRATION_RUNS runs per path (runtime_run.c). Not measured: chosen to
 * be past the caches and short against a model load. */
#define RUNTIME_CALIBRATION_ELEMENTS ((int64_t)8 << 20)
#define RUNTIME_CALIBRATION_RUNS 2

#endif
