/*
 * clsel_cl.h - run clsel plans on your own OpenCL context, queue and buffers.
 *
 * Include clsel.h first (this header includes it too) and link clsel. The library loads
 * the OpenCL entry points it uses from the process's OpenCL library (libOpenCL.so.1,
 * or the file named by CLSEL_OPENCL_LIBRARY), so a program that never calls into this
 * header runs without OpenCL installed.
 *
 * Contract
 *  - clsel_cl_context_create retains the cl_context and cl_device_id you pass and
 *    compiles nothing. Each kernel (one per element width, number of dims and way of
 *    reading each tensor) is built once, by the first clsel_cl_enqueue that needs it, or
 *    ahead of time by clsel_cl_context_prepare_plan (at model load, say): build failures
 *    surface in whichever call builds. Nothing else is created per call; clsel_cl_context_destroy
 * releases everything. The library never creates contexts, queues or sub-buffers of its own here.
 *  - clsel_cl_enqueue only enqueues: no clFinish, no clWaitForEvents, no blocking call.
 *    It works on in-order and out-of-order queues. Ordering against other queues is the
 *    caller's job, through the wait list.
 *  - Tensors are (cl_mem, byte offset) pairs. A buffer may be larger than needed and may
 *    be a sub-buffer; the offset must be a multiple of the element size (any offset for
 *    cond). A buffer may be NULL only when its tensor has zero elements. For a plan made
 *    with strides (clsel_plan_create_strided) the offset is that of element [0, ..., 0],
 *    and every byte the view touches (clsel_plan_tensor_extent: below the offset too,
 *    with negative strides) must lie in the buffer.
 *  - The returned event (when `event` is not NULL) completes after all the work of the
 *    call, also when the call launches nothing (zero-element output: a marker). The
 *    caller releases it. On failure *event is set to NULL and nothing is enqueued.
 *  - The output may be exactly `then` or `else` (same buffer, same offset, and that
 *    input has the output's shape and strides). Any other overlap between the output
 *    range and an input range, cond included, is CLSEL_ERROR_BUFFER. So are buffers
 *    smaller than the bytes a tensor touches (checked with CL_MEM_SIZE) and an output
 *    buffer created CL_MEM_READ_ONLY.
 *  - The queue must belong to the context and device the clsel_cl_context was made for.
 *
 * Threading
 *  - One clsel_cl_context may be used by any number of threads at once, each on its own
 *    queue or on a shared one; plans are immutable and shareable. Kernel arguments are
 *    set under a per-kernel lock, so concurrent calls never see each other's arguments.
 *  - Destroy the context only after every call on it has returned. Work already
 *    enqueued keeps running: OpenCL keeps the kernels alive until it completes. */
#ifndef CLSEL_CL_H
#define CLSEL_CL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifdef __APPLE__
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif

#include "clsel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct clsel_cl_context clsel_cl_context;

/* A clsel context for `device` in `context`, retaining both; no kernel is built yet
 * (see clsel_cl_context_prepare). Fails with CLSEL_ERROR_NO_DEVICE when the OpenCL
 * library cannot be loaded or the device is not part of the context,
 * CLSEL_ERROR_OPENCL for other OpenCL failures. */
CLSEL_API clsel_status clsel_cl_context_create(cl_context context, cl_device_id device,
                                               clsel_cl_context **ctx);
CLSEL_API void clsel_cl_context_destroy(clsel_cl_context *ctx); /* NULL is fine */

/* Builds now the kernel that same-shape runs of `dtype` use (every tensor dense), so that
 * the first such clsel_cl_enqueue compiles nothing; clsel_cl_context_prepare_plan builds
 * those of one plan (each kernel is built once per context, for the layouts that need it).
 * Both do nothing for kernels built already, or when the context runs native kernels
 * (clsel_cl_context_path). CLSEL_ERROR_BUILD when a program does not build (the log is then
 * in clsel_cl_build_log(NULL)), CLSEL_ERROR_OPENCL for other OpenCL failures. A failed
 * build is tried again by the next call that needs it. Safe from any thread. */
CLSEL_API clsel_status clsel_cl_context_prepare(clsel_cl_context *ctx, clsel_dtype dtype);

/* The kernels clsel_cl_enqueue launches for `plan` over fresh buffers (buffers whose
 * elements [0] lie elsewhere may need others, built when first launched). */
CLSEL_API clsel_status clsel_cl_context_prepare_plan(clsel_cl_context *ctx, const clsel_plan *plan);

/* The build log of the programs `ctx` has built (often empty). For NULL: the log of the
 * last failed build on this thread. Never NULL; valid until ctx is destroyed (or, for
 * NULL, until the next failed build on this thread). */
CLSEL_API const char *clsel_cl_build_log(const clsel_cl_context *ctx);

/* The device name of `ctx`, for logs ("" for NULL). */
CLSEL_API const char *clsel_cl_device_name(const clsel_cl_context *ctx);

/* How many of the programs `ctx` has built so far (one per kernel used) came from the
 * kernel cache on disk instead of a build from source (0 for NULL).
 * Compiled programs are kept between processes,
 * keyed by the library version, the kernel source, the device, its driver and the
 * platform; an entry that does not match or does not load is ignored and replaced.
 * Entries are written for GPUs and accelerators (a CPU device such as PoCL keeps its
 * own cache, and making it hand out a binary is slow).
 *   CLSEL_KERNEL_CACHE=off       no cache
 *   CLSEL_KERNEL_CACHE=on        entries for CPU devices too
 *   CLSEL_KERNEL_CACHE_DIR=DIR   where (default $XDG_CACHE_HOME/clsel, else
 *                                $HOME/.cache/clsel) */
CLSEL_API int clsel_cl_program_cached(const clsel_cl_context *ctx);

/* How clsel_cl_enqueue computes on a context's device. On a CPU device that can run
 * native kernels (CL_EXEC_NATIVE_KERNEL, as PoCL's can) it enqueues clsel's CPU path as
 * a native kernel over your buffers, with one thread per compute unit of the device:
 * the same event and ordering semantics as a kernel launch, but the processor's widest
 * loads and stores and no OpenCL C compiler at all (it maps your buffers around that
 * command, so buffers created with a CL_MEM_HOST_* restriction take the kernels). On
 * every other device, and where the environment says CLSEL_CL_NATIVE=0, it launches
 * clsel's OpenCL kernels (docs/architecture.md). */
typedef enum clsel_cl_path {
    CLSEL_CL_PATH_KERNELS = 0,
    CLSEL_CL_PATH_NATIVE = 1
} clsel_cl_path;

/* The path `ctx` takes (CLSEL_CL_PATH_KERNELS for NULL). */
CLSEL_API clsel_cl_path clsel_cl_context_path(const clsel_cl_context *ctx);

/* The exact OpenCL C source of clsel's kernels: one source, whose build options make one kernel of
 * it (an element width, the dims it walks and how it reads and writes each tensor;
 * clsel_cl_plan_kernels says which a plan uses). *source points into the library (valid while it is
 * loaded; *source_size bytes, no terminating NUL needed). For compiling the kernels offline and
 * inspecting their code generation (`clsel kernels`). CLSEL_ERROR_INVALID_ARGUMENT for a NULL
 * pointer. */
CLSEL_API clsel_status clsel_cl_kernel_source(const char **source, size_t *source_size);

/* The kernels that clsel_cl_enqueue launches for `plan` over fresh buffers (each tensor's element
 * [0] at offset 0 of a buffer of its own), one line per kernel: its name, a space and its
 * clBuildProgram options. Written into text[text_size] (when not NULL; truncated, NUL-terminated);
 * returns the length the text needed (like snprintf). 0 and nothing written for a NULL plan or an
 * empty output. */
CLSEL_API size_t clsel_cl_plan_kernels(const clsel_plan *plan, char *text, size_t text_size);

/* How clsel's OpenCL kernels read and write a tensor (clsel_cl_access.kind): UNIFORM, one element
 * for the whole run, read once per work-item; FIXED, one element per row (its stride along the
 * innermost dim is 0); ROWS, advancing along rows, read from aligned 16-byte windows (V bytes of
 * cond) shifted into place; DENSE, contiguous over the run from a 16-byte boundary, one 16-byte
 * access per 16 bytes; STRIDED, element by element (a stepped or reversed view, a transposed one
 * with few rows, or a buffer whose alignment is not known); TILED, a transposed input (contiguous
 * along the second innermost dim), read through tiles in local memory as 16-byte windows. The
 * output is DENSE, ROWS or STRIDED. */
typedef enum clsel_cl_kind {
    CLSEL_CL_UNIFORM = 0,
    CLSEL_CL_FIXED = 1,
    CLSEL_CL_ROWS = 2,
    CLSEL_CL_DENSE = 3,
    CLSEL_CL_STRIDED = 4,
    CLSEL_CL_TILED = 5
} clsel_cl_kind;

/* How clsel's OpenCL kernels move a plan's tensors (the kernels' path of clsel_cl_enqueue) over
 * fresh buffers: GPUs move memory best in single 16-byte accesses per work-item, which the kernels
 * make of every tensor whose 16 bytes (V = 16 / element size elements; V bytes of cond) lie in one
 * row, or across rows in a dense tensor. For logs, `clsel kernels --plan` and the benchmark; the
 * kernels' choices may change with any release. */
typedef struct clsel_cl_access {
    int32_t rank;        /* the dims the kernel walks (its rank class: 1, 2, 3, 4 or 8) */
    int32_t kind[4];     /* cond, then, else, out: a clsel_cl_kind */
    double rows_crossed; /* share of the 16-byte items whose V elements cross a row */
    double bytes[4]; /* bytes the kernels' loads and stores move per output element, per tensor (a
                        model) */
    double wide[4];  /* of those, the share moved by single 16-byte (cond: V-byte) accesses */
} clsel_cl_access;

/* Fills *access (when not NULL) for `plan` and writes a one-line account of it into
 * text[text_size] (when not NULL; truncated, NUL-terminated); returns the length the
 * text needed (like snprintf). 0 and nothing written for a NULL plan or an empty output. */
CLSEL_API size_t clsel_cl_plan_access(const clsel_plan *plan, clsel_cl_access *access, char *text,
                                      size_t text_size);

/* The raw cl_int of the last failed OpenCL call on this thread (CL_SUCCESS when the
 * last failure was not an OpenCL call). */
CLSEL_API cl_int clsel_cl_last_cl_error(void);

/* The OpenCL device a runtime runs on, or NULL when it runs on the CPU path. */
CLSEL_API cl_device_id clsel_runtime_cl_device(const clsel_runtime *rt);

/* Enqueues Select for `plan` on `queue`. Offsets are in bytes. See the contract above.
 * The call itself does not block; `event` may be NULL. */
CLSEL_API clsel_status clsel_cl_enqueue(clsel_cl_context *ctx, const clsel_plan *plan,
                                        cl_command_queue queue, cl_mem cond, size_t cond_offset,
                                        cl_mem then_mem, size_t then_offset, cl_mem else_mem,
                                        size_t else_offset, cl_mem out, size_t out_offset,
                                        cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list,
                                        cl_event *event /* may be NULL */);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CLSEL_CL_H */
