/*
 * clsel.h - the Select-1 tensor operation: out = cond ? then : else
 *
 * clsel computes Select with none / numpy / pdpd (PaddlePaddle-style) broadcasting,
 * bit for bit: the chosen element is copied by its storage width, never through
 * floating-point registers, so NaN payloads, signalling NaNs, -0.0, infinities and
 * denormals come out unchanged. cond is one byte per element; any nonzero byte
 * (0x01, 0x02, 0x80, 0xFF, ...) selects `then`.
 *
 * This header is the core API and needs no OpenCL headers. The OpenCL interop API
 * (your own cl_context, queue and buffers) is in clsel_cl.h.
 *
 *   shapes + attrs --> clsel_plan --+--> clsel_plan_run_cpu      (host pointers)
 *                                   +--> clsel_cl_enqueue        (your cl_mem, clsel_cl.h)
 *                                   +--> clsel_runtime_run       (host pointers, picks a
 *                                                                 device, falls back to CPU)
 *
 * Conventions
 *  - Every function that can fail returns a clsel_status. On failure it sets a
 *    thread-local message, clsel_last_error(), that names the values involved, and
 *    leaves every output (including the caller's tensor data) untouched.
 *  - The library never prints, aborts or exits, and starts threads only when a call's
 *    options ask for them (clsel_cpu_options.threads) or a runtime's CPU path runs a
 *    large output (clsel_runtime_set_cpu_threads).
 *  - Tensors are dense, row-major (C order), with no padding between elements, unless
 *    the plan was made with strides (clsel_plan_create_strided): then any view.
 *  - Handles are opaque. `*_destroy(NULL)` is a no-op.
 *
 * Option structs that can grow
 *  - clsel_attrs and clsel_cpu_options begin with `struct_size`. Start from
 *    clsel_attrs_default() / clsel_cpu_options_default(), which set it, and change the
 *    fields you need. A program built against an older header passes a smaller size and
 *    gets the defaults of fields added since; one built against a newer header runs on
 *    an older library as long as the fields that library does not know are left at
 *    their defaults (a new field's zero is always its default). A struct_size below the
 *    first version's, or a newer field that is set, is CLSEL_ERROR_INVALID_ARGUMENT.
 *
 * Threading
 *  - A clsel_plan is immutable after clsel_plan_create: any number of threads may use
 *    one plan at the same time (run it, query it). Destroy it only when no thread uses it.
 *  - clsel_last_error() is per thread.
 *  - clsel_runtime: see clsel_runtime_run below. */
#ifndef CLSEL_H
#define CLSEL_H

#include <stddef.h>
#include <stdint.h>

/* ---- version (CMake reads these three lines) ------------------------------------ */
#define CLSEL_VERSION_MAJOR 0
#define CLSEL_VERSION_MINOR 1
#define CLSEL_VERSION_PATCH 0

#define CLSEL_VERSION_NUMBER \
    (CLSEL_VERSION_MAJOR * 10000 + CLSEL_VERSION_MINOR * 100 + CLSEL_VERSION_PATCH)

/* ---- symbol visibility ------------------------------------------------------------ */
#if defined(CLSEL_STATIC_DEFINE)
#define CLSEL_API
#elif defined(_WIN32)
#if defined(CLSEL_BUILDING)
#define CLSEL_API __declspec(dllexport)
#else
#define CLSEL_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define CLSEL_API __attribute__((visibility("default")))
#else
#define CLSEL_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The largest rank of any input or output. Rank 0 is a scalar (one element). */
#define CLSEL_MAX_RANK 8

/* ---- status ------------------------------------------------------------------------
 * The numbers are ABI: new codes are only ever added at the end. */
typedef enum clsel_status {
    CLSEL_SUCCESS = 0,
    CLSEL_ERROR_INVALID_ARGUMENT, /* NULL pointer, unknown enum value, bad attribute     */
    CLSEL_ERROR_INVALID_SHAPE,    /* bad rank or dim, shapes that do not broadcast      */
    CLSEL_ERROR_INVALID_DTYPE,    /* unknown dtype, mismatched then/else/cond types     */
    CLSEL_ERROR_OVERFLOW,         /* element count, byte size or offset overflows        */
    CLSEL_ERROR_BUFFER,           /* buffer too small, misaligned offset, bad overlap,   */
                                  /* read-only output                                    */
    CLSEL_ERROR_OUT_OF_MEMORY,    /* a host or device allocation failed                  */
    CLSEL_ERROR_NO_DEVICE,        /* no OpenCL library, platform or usable device        */
    CLSEL_ERROR_BUILD,            /* the OpenCL program did not build (see the log)      */
    CLSEL_ERROR_OPENCL            /* an OpenCL call failed (its cl_int is in the message) */
} clsel_status;

/* ---- element types -----------------------------------------------------------------
 * Pinned numbers (ABI); 0 is invalid so that zeroed memory is never a valid type. */
typedef enum clsel_dtype {
    CLSEL_DTYPE_INVALID = 0,
    CLSEL_BOOLEAN, /* 1 byte */
    CLSEL_U8,
    CLSEL_I8,
    CLSEL_U16,
    CLSEL_I16,
    CLSEL_F16,  /* IEEE binary16, moved as its 2-byte pattern */
    CLSEL_BF16, /* bfloat16, moved as its 2-byte pattern      */
    CLSEL_U32,
    CLSEL_I32,
    CLSEL_F32,
    CLSEL_U64,
    CLSEL_I64,
    CLSEL_F64
} clsel_dtype;

/* ---- broadcast attributes ---------------------------------------------------------- */
typedef enum clsel_broadcast {
    CLSEL_BROADCAST_NUMPY = 0, /* numpy rules (the default)                         */
    CLSEL_BROADCAST_NONE,      /* all three shapes identical (OpenVINO "explicit") */
    CLSEL_BROADCAST_PDPD       /* PaddlePaddle style: out = then's shape, with axis */
} clsel_broadcast;

typedef enum clsel_cond_broadcast {
    /* numpy mode: cond is broadcast one way onto broadcast(then, else) and may never
     * enlarge it (the Select-1 text, oneDNN). The default. */
    CLSEL_COND_ONE_WAY = 0,
    /* numpy mode: cond takes part in a two-way broadcast like then and else
     * (OpenVINO's runtime, ONNX Where): out = broadcast(broadcast(then, else), cond). */
    CLSEL_COND_BIDIRECTIONAL
} clsel_cond_broadcast;

typedef struct clsel_shape {
    int32_t rank;                 /* 0 .. CLSEL_MAX_RANK                      */
    int64_t dims[CLSEL_MAX_RANK]; /* dims[0 .. rank-1], row-major, each >= 0 */
} clsel_shape;

typedef struct clsel_attrs {
    uint32_t struct_size;                /* sizeof(clsel_attrs): see "Option structs"     */
    clsel_broadcast broadcast;           /* default CLSEL_BROADCAST_NUMPY                 */
    int64_t axis;                        /* pdpd only: first output dim that else and    */
                                         /* cond are placed on; -1 (default) = per input */
                                         /* rank(then) - rank(input). Ignored otherwise. */
    clsel_cond_broadcast cond_broadcast; /* numpy only; default CLSEL_COND_ONE_WAY       */
} clsel_attrs;

/* numpy, axis -1, one-way cond, and struct_size. A NULL attrs pointer anywhere means
 * these. Inline, so that struct_size is the size the caller was compiled with. */
static inline clsel_attrs clsel_attrs_default(void)
{
    clsel_attrs a = {sizeof(clsel_attrs), CLSEL_BROADCAST_NUMPY, -1, CLSEL_COND_ONE_WAY};
    return a;
}

/* ---- names, messages, version ------------------------------------------------------ */

/* "success", "invalid argument", ...; never NULL (unknown codes give "unknown status"). */
CLSEL_API const char *clsel_status_string(clsel_status s);

/* The message of the last failure on this thread, naming what was wrong and the values
 * involved, e.g. "numpy broadcast: cond {3,5} cannot be broadcast to {2,3,4,5} (cond dim
 * 0: 3 vs 4)". Empty string when nothing failed yet. Valid until the next clsel call on
 * this thread; never NULL. Successful calls do not clear it. */
CLSEL_API const char *clsel_last_error(void);

/* Bytes per element: 1, 2, 4 or 8; 0 for an invalid dtype. */
CLSEL_API size_t clsel_dtype_size(clsel_dtype t);

/* "boolean", "u8", "i8", "u16", "i16", "f16", "bf16", "u32", "i32", "f32", "u64",
 * "i64", "f64"; "invalid" for anything else. Never NULL. */
CLSEL_API const char *clsel_dtype_name(clsel_dtype t);

/* The inverse of clsel_dtype_name; also accepts numpy-style names ("bool", "uint8",
 * "float16", "bfloat16", "float32", ...). CLSEL_DTYPE_INVALID for unknown or NULL. */
CLSEL_API clsel_dtype clsel_dtype_from_name(const char *name);

/* "MAJOR.MINOR.PATCH" of the library actually linked. */
CLSEL_API const char *clsel_version(void);

/* ---- host memory ----------------------------------------------------------------------
 * Every host allocation the library makes for its own objects (plans, runtimes, OpenCL
 * contexts, build logs) goes through one allocator, malloc/free unless the caller
 * installs its own: an inference runtime's arena, a tracking allocator, or one that
 * fails on purpose to test the caller's out-of-memory handling. Tensor data is always
 * the caller's; the library never allocates it on the host. */
typedef struct clsel_allocator {
    /* `size` bytes (size >= 1), aligned for any object type as malloc's are; NULL when
     * out of memory (the call that needed it then fails with CLSEL_ERROR_OUT_OF_MEMORY). */
    void *(*allocate)(void *user, size_t size);
    /* Gives back memory `allocate` returned (never NULL). */
    void (*release)(void *user, void *memory);
    void *user; /* passed to both, untouched */
} clsel_allocator;

/* Installs `allocator` (copied; NULL restores malloc/free). Memory is released through
 * the allocator installed at release time, so replace it only while no clsel object is
 * alive, or with one that can release the previous one's memory; and not while another
 * thread is inside the library. INVALID_ARGUMENT, changing nothing, if either function
 * is NULL. */
CLSEL_API clsel_status clsel_set_allocator(const clsel_allocator *allocator);

/* ---- shape inference ----------------------------------------------------------------
 * The output shape Select gives for these input shapes, or an error (INVALID_SHAPE for
 * shapes that do not broadcast, bad ranks or dims; INVALID_ARGUMENT for NULL pointers,
 * unknown attribute values or a pdpd axis < -1; OVERFLOW when the element count does
 * not fit in int64). Needs no device. *out is written only on success. */
CLSEL_API clsel_status clsel_infer_shape(const clsel_shape *cond, const clsel_shape *then_shape,
                                         const clsel_shape *else_shape,
                                         const clsel_attrs *attrs /* NULL = default */,
                                         clsel_shape *out);

/* Checks a dtype combination: cond must be CLSEL_BOOLEAN or CLSEL_U8 (one byte,
 * nonzero = true); then and else must be the same valid type (no promotion).
 * CLSEL_ERROR_INVALID_DTYPE with a message naming the types otherwise. */
CLSEL_API clsel_status clsel_check_dtypes(clsel_dtype cond, clsel_dtype then_dtype,
                                          clsel_dtype else_dtype);

/* ---- plans --------------------------------------------------------------------------
 * A plan holds everything about one (dtype, shapes, attrs) combination: the output
 * shape, the validation, and the collapsed iteration geometry the CPU loop and the
 * OpenCL kernels consume. Create it once, run it many times, share it between threads.
 * `dtype` is the type of then, else and the output; cond is always one byte. */
typedef struct clsel_plan clsel_plan;

CLSEL_API clsel_status clsel_plan_create(clsel_dtype dtype, const clsel_shape *cond,
                                         const clsel_shape *then_shape,
                                         const clsel_shape *else_shape,
                                         const clsel_attrs *attrs /* NULL = default */,
                                         clsel_plan **plan);
CLSEL_API void clsel_plan_destroy(clsel_plan *plan); /* NULL is fine */

/* Queries; each returns 0 / NULL / CLSEL_DTYPE_INVALID for a NULL plan. */
CLSEL_API const clsel_shape *clsel_plan_output_shape(const clsel_plan *plan);
CLSEL_API int64_t clsel_plan_output_count(const clsel_plan *plan);
CLSEL_API size_t clsel_plan_output_bytes(const clsel_plan *plan);
CLSEL_API clsel_dtype clsel_plan_dtype(const clsel_plan *plan);

/* Which tensor, for clsel_plan_input_count (the three inputs), clsel_strides and
 * clsel_plan_tensor_extent (all four). */
typedef enum clsel_operand {
    CLSEL_OPERAND_COND = 0,
    CLSEL_OPERAND_THEN,
    CLSEL_OPERAND_ELSE,
    CLSEL_OPERAND_OUT
} clsel_operand;

/* Elements of that input as given to clsel_plan_create (before broadcasting); -1 for a
 * NULL plan or an unknown operand. */
CLSEL_API int64_t clsel_plan_input_count(const clsel_plan *plan, clsel_operand which);

/* ---- strided tensors -------------------------------------------------------------------
 * A plan made with strides runs on views: transposed, sliced with steps, reversed,
 * padded rows, broadcast (stride 0) or Fortran-order tensors, read and written where they
 * lie, without copies. For each of cond, then, else and the output whose bit is set in
 * `strided`, strides[op][a] is the distance in ELEMENTS (not bytes) from one index of axis
 * a of that tensor's own shape (as given to the plan; the output's is the plan's output
 * shape, clsel_infer_shape) to the next: any value, 0 (an element repeated along the
 * axis) and negative (a reversed axis) included. The other tensors are dense row-major.
 * A tensor's pointer, or its buffer offset in clsel_cl_enqueue, is then that of its
 * element [0, 0, ..., 0], as numpy's data pointer and PyTorch's data_ptr() are; with
 * negative strides that is not its lowest byte (clsel_plan_tensor_extent says which
 * bytes a run touches). Strides of a size-1 axis are never used.
 * The output may not overlap itself: an axis of more than one element needs a stride
 * larger than the reach of the axes inside it (every layout numpy or PyTorch makes of a
 * writable tensor), else CLSEL_ERROR_INVALID_ARGUMENT. Between the output's elements
 * nothing is written (clsel_runtime_run's copying device path reads those bytes and
 * writes them back unchanged: do not change them during the run). The output may be
 * exactly then or else (the same element [0] and the same strides over the output);
 * any other overlap of its bytes with an input's is CLSEL_ERROR_BUFFER. */
#define CLSEL_STRIDED(op) (1u << (op)) /* the bit of clsel_operand op in clsel_strides.strided */

typedef struct clsel_strides {
    uint32_t struct_size; /* sizeof(clsel_strides): see "Option structs" */
    uint32_t strided;     /* CLSEL_STRIDED(op) bits; 0 (the default): every tensor dense */
    int64_t strides[4][CLSEL_MAX_RANK]; /* [clsel_operand][axis], in elements */
} clsel_strides;

/* Every tensor dense, and struct_size (inline, like clsel_attrs_default). */
static inline clsel_strides clsel_strides_default(void)
{
    clsel_strides s = {sizeof(clsel_strides), 0, {{0}}};
    return s;
}

/* clsel_plan_create with strides (NULL: every tensor dense, as clsel_plan_create).
 * INVALID_ARGUMENT for unknown bits or an output that overlaps itself; OVERFLOW when a
 * tensor's reach in bytes does not fit in int64. */
CLSEL_API clsel_status clsel_plan_create_strided(clsel_dtype dtype, const clsel_shape *cond,
                                                 const clsel_shape *then_shape,
                                                 const clsel_shape *else_shape,
                                                 const clsel_attrs *attrs /* NULL = default */,
                                                 const clsel_strides *strides /* NULL = dense */,
                                                 clsel_plan **plan);

/* The bytes of tensor `which` that a run touches, relative to its element [0, ..., 0]:
 * [*first_byte, *first_byte + *bytes), first_byte <= 0 (below it where a stride is
 * negative). A dense tensor: 0 and its size. An empty output touches nothing: 0 and 0.
 * INVALID_ARGUMENT for a NULL plan or pointer or an unknown operand. */
CLSEL_API clsel_status clsel_plan_tensor_extent(const clsel_plan *plan, clsel_operand which,
                                                int64_t *first_byte, uint64_t *bytes);

/* A one-line description of the collapsed geometry the plan runs, e.g.
 * "f32 out {2,3,4,5} -> 2 dims [20,6] cond:[0,1] then:[1,20] else:[0,0]" (dims and
 * element strides innermost first). Writes at most `size` bytes including the NUL;
 * returns the length it needed (like snprintf). For logs and tests only: the format
 * may change. */
CLSEL_API size_t clsel_plan_describe(const clsel_plan *plan, char *buf, size_t size);

/* ---- CPU path ------------------------------------------------------------------------
 * Runs the plan on host memory, on the calling thread. Each pointer is the first
 * element of a dense row-major tensor of the shape given to the plan (cond: 1 byte per
 * element), or element [0, ..., 0] of a view the plan's strides describe. A pointer may
 * be NULL only when that tensor has zero elements.
 * `out` may be exactly `then_data` or `else_data` (in place) when that input has the
 * output's shape and layout; any other overlap of `out` with an input is
 * CLSEL_ERROR_BUFFER.
 * Besides the threads it may start, it allocates nothing: the inputs it gathers take
 * up to 66 KiB of the stack of the thread that runs them (the caller's, a pool's or
 * the library's own). */
CLSEL_API clsel_status clsel_plan_run_cpu(const clsel_plan *plan, const void *cond,
                                          const void *then_data, const void *else_data, void *out);

/* Parallelism for the CPU path, only when the caller asks for it. A caller with a
 * thread pool of its own passes parallel_for: the library splits the output into
 * `count` independent pieces and calls parallel_for(pool, count, task, task_context)
 * once; the pool must run task(task_context, i) for every i in [0, count), in any order
 * and on any threads, and return when all have finished. Otherwise `threads` > 1 makes
 * the library start that many threads for the call (the calling thread is one of
 * them) and join them before returning. */
typedef void (*clsel_parallel_task)(void *task_context, int64_t index);
typedef void (*clsel_parallel_for)(void *pool, int64_t count, clsel_parallel_task task,
                                   void *task_context);

typedef struct clsel_cpu_options {
    uint32_t struct_size;            /* sizeof(clsel_cpu_options): see "Option structs" */
    int32_t threads;                 /* 0 or 1: the calling thread only (the default) */
    clsel_parallel_for parallel_for; /* NULL: use `threads`                           */
    void *pool;                      /* passed to parallel_for                        */
} clsel_cpu_options;

/* One thread, no pool, and struct_size (inline, like clsel_attrs_default). */
static inline clsel_cpu_options clsel_cpu_options_default(void)
{
    clsel_cpu_options o = {sizeof(clsel_cpu_options), 1, NULL, NULL};
    return o;
}

/* clsel_plan_run_cpu with options (NULL = the defaults: one thread). Small outputs run
 * on the calling thread whatever the options say. INVALID_ARGUMENT for a bad
 * struct_size or threads < 0. */
CLSEL_API clsel_status clsel_plan_run_cpu_options(const clsel_plan *plan, const void *cond,
                                                  const void *then_data, const void *else_data,
                                                  void *out, const clsel_cpu_options *options);

/* One call: plan, run on the CPU, free. Same rules as clsel_plan_run_cpu. */
CLSEL_API clsel_status clsel_select_cpu(clsel_dtype dtype, const clsel_shape *cond_shape,
                                        const void *cond, const clsel_shape *then_shape,
                                        const void *then_data, const clsel_shape *else_shape,
                                        const void *else_data, const clsel_attrs *attrs, void *out);

/* ---- runtime: host pointers on the best device, CPU fallback ----------------------------
 * clsel_runtime_create(CLSEL_DEVICE_AUTO) picks an OpenCL GPU or accelerator and falls
 * back to the CPU path (threaded: clsel_runtime_set_cpu_threads) when there is no
 * OpenCL library, no platform, no such device, or the program does not build (a
 * runtime on a device builds f32's kernels when created, the other element widths'
 * when first run). AUTO
 * passes over CPU-type OpenCL devices (PoCL, a CPU driver): they compute on the same
 * cores as the CPU path and would only add a copy to and from the device. The
 * environment can steer it:
 *   CLSEL_DEVICE=auto|cpu|opencl   overrides CLSEL_DEVICE_AUTO (only AUTO)
 *   CLSEL_PLATFORM=N               platform index; AUTO then takes any device of it,
 *                                  a CPU device too (default: the first GPU or
 *                                  accelerator of any platform)
 *   CLSEL_DEVICE_INDEX=N           device index within that platform
 * Asking for CLSEL_DEVICE_OPENCL explicitly takes a CPU device where there is no other
 * and never falls back: it fails with CLSEL_ERROR_NO_DEVICE and a message.
 * CLSEL_DEVICE_CPU never touches OpenCL. */
typedef enum clsel_device {
    CLSEL_DEVICE_AUTO = 0,
    CLSEL_DEVICE_CPU,
    CLSEL_DEVICE_OPENCL
} clsel_device;
typedef struct clsel_runtime clsel_runtime;

CLSEL_API clsel_status clsel_runtime_create(clsel_device want, clsel_runtime **rt);
CLSEL_API void clsel_runtime_destroy(clsel_runtime *rt); /* NULL is fine */

/* CLSEL_DEVICE_CPU or CLSEL_DEVICE_OPENCL: what this runtime actually runs on
 * (never AUTO). CLSEL_DEVICE_CPU for NULL. */
CLSEL_API clsel_device clsel_runtime_device(const clsel_runtime *rt);

/* The OpenCL device name, or "cpu" for the CPU path. Never NULL. */
CLSEL_API const char *clsel_runtime_device_name(const clsel_runtime *rt);

/* Why an AUTO runtime runs on the CPU path (the message of the OpenCL failure), or ""
 * when it did not fall back. Never NULL. */
CLSEL_API const char *clsel_runtime_fallback_reason(const clsel_runtime *rt);

/* Runs the plan on host memory, like clsel_plan_run_cpu (same pointer and in-place
 * rules), on the runtime's device: uploads the inputs, runs, downloads the result into
 * `out`, and returns when `out` holds it (blocking). The result is identical bit for
 * bit to the CPU path's. Small runs (clsel_runtime_set_min_device_bytes below) run on
 * the CPU path. The others, including tensors that would not fit one device allocation
 * (CL_DEVICE_MAX_MEM_ALLOC_SIZE), stream through the device in chunks of the output of
 * at most 4 MiB (one chunk for a run that fits), each uploading only the slices of the
 * inputs it reads, on two queues so that transfers and kernels can overlap (or, on a
 * device that works in host memory, in place: clsel_runtime_set_zero_copy); if the
 * device fails during a run, the run is completed on the CPU path. A runtime that AUTO
 * gave a device that does not work in host memory (a discrete GPU, where host data
 * crosses the bus both ways) measures both paths once, at its first run big enough for
 * the device, and sends runs there only if the device was faster (unless the caller set
 * clsel_runtime_set_min_device_bytes). Safe to call from several threads at once on one
 * runtime. */
CLSEL_API clsel_status clsel_runtime_run(clsel_runtime *rt, const clsel_plan *plan,
                                         const void *cond, const void *then_data,
                                         const void *else_data, void *out);

/* Where the calling thread's last clsel_runtime_run ran (thread-local, like
 * clsel_last_error). CLSEL_RUN_RESCUED: the device failed during the run and the CPU
 * path computed the whole result instead; the result is exact and the
 * status CLSEL_SUCCESS, but the device is suspect (clsel_last_error keeps the device's
 * failure message). */
typedef enum clsel_run_path {
    CLSEL_RUN_NONE = 0,    /* no run on this thread yet, or the last one failed */
    CLSEL_RUN_CPU = 1,     /* on the CPU path (a CPU runtime, or a run below the threshold) */
    CLSEL_RUN_DEVICE = 2,  /* on the OpenCL device */
    CLSEL_RUN_RESCUED = 3, /* begun on the device, finished on the CPU path */
} clsel_run_path;
CLSEL_API clsel_run_path clsel_runtime_last_run_path(void);

/* Runs that move fewer bytes than this (inputs at their own sizes plus the output) take
 * the CPU path whatever the runtime's device: below it the OpenCL round trip's fixed
 * cost (four buffers, a launch, a blocking read) exceeds the whole CPU run, which
 * moves 1 MiB in under 20 us: measured with `clsel bench --thresholds`
 * (docs/performance.md), the round trip costs 0.1-0.4 ms on PoCL even for one element. */
#define CLSEL_RUNTIME_MIN_DEVICE_BYTES ((uint64_t)1 << 20)

/* Sets that size for this runtime (0: every run on the device); from then on every run at
 * least that big goes to the device, AUTO's measurement of a discrete device included.
 * Set it before sharing the runtime between threads. */
CLSEL_API clsel_status clsel_runtime_set_min_device_bytes(clsel_runtime *rt, uint64_t bytes);

/* Device runs stream the output through the device in chunks of at most 4 MiB (and
 * within the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE and 1/16 of its memory). This lowers
 * that bound for this runtime, for a caller that must keep the runtime's device memory
 * small (each chunk holds two sets of up to four buffers of about this size); 0 restores
 * the default. A chunk holds at least one element whatever the bound. Set it before
 * sharing the runtime between threads. */
CLSEL_API clsel_status clsel_runtime_set_chunk_bytes(clsel_runtime *rt, uint64_t bytes);

/* On a device that works in host memory (CL_DEVICE_HOST_UNIFIED_MEMORY: CPU devices,
 * integrated GPUs) device runs read the inputs and write the output in place, through
 * CL_MEM_USE_HOST_PTR buffers, with no copies and no chunks, unless `out` overlaps an
 * input (in place) or a tensor exceeds one device allocation. enabled = 0 makes this
 * runtime copy through the device in chunks instead, as on a discrete GPU. Set it
 * before sharing the runtime between threads. */
CLSEL_API clsel_status clsel_runtime_set_zero_copy(clsel_runtime *rt, int enabled);

/* Runs a runtime sends to the CPU path (a CPU runtime, small runs, rescues) use this
 * many threads: 0 (the default) is one per processor online, 1 the calling thread
 * alone. Either way a run that moves less than 32 MiB stays on the calling thread,
 * where starting threads would cost more than they save (docs/performance.md, "CPU
 * threads"). INVALID_ARGUMENT for threads < 0. Set it before sharing the runtime
 * between threads. */
CLSEL_API clsel_status clsel_runtime_set_cpu_threads(clsel_runtime *rt, int32_t threads);

/* ---- devices ------------------------------------------------------------------------
 * What OpenCL offers on this machine, for listings and logs. */
typedef struct clsel_device_info {
    int32_t platform_index, device_index; /* as CLSEL_PLATFORM / CLSEL_DEVICE_INDEX count */
    char platform_name[128], platform_version[128];
    char name[128], version[128], driver_version[64];
    char type[16]; /* "GPU", "CPU", "accelerator" or "other"      */
    uint64_t global_mem_bytes, max_alloc_bytes;
    int32_t compute_units;
    int32_t available;   /* CL_DEVICE_AVAILABLE                          */
    int32_t fp16, fp64;  /* cl_khr_fp16 / cl_khr_fp64 (clsel needs neither) */
    int32_t auto_choice; /* the device CLSEL_DEVICE_AUTO tries first (never
                          * a CPU device unless CLSEL_PLATFORM names it) */
} clsel_device_info;

/* Writes up to `capacity` entries and sets *count to the number of devices there are
 * (which may be larger: call again with more room). CLSEL_ERROR_NO_DEVICE, with the
 * reason in clsel_last_error(), when there is no OpenCL library or no platform; a
 * platform without devices gives CLSEL_SUCCESS and *count = 0. */
CLSEL_API clsel_status clsel_list_devices(clsel_device_info *devices, int32_t capacity,
                                          int32_t *count);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CLSEL_H */
