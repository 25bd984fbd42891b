/* bench_model.h - clsel bench --model: what the OpenCL kernels execute per output byte, counted on
 * a simulated device rather than timed on a real one (docs/gpu_model.md). Each pattern runs once on
 * the OpenCL device, which must be Oclgrind with clsel's counting plugin
 * (tools/oclgrind/clsel_counts.cpp; bench/gpu_model.sh sets both up), its output is checked byte
 * for byte against the CPU path, and the plugin's counts of that run become, per output byte: the
 * instructions executed (LLVM IR), the global loads and stores, the bytes per access and the share
 * of bytes moved in 16-byte accesses. */
#ifndef CLSEL_TOOLS_BENCH_MODEL_H
#define CLSEL_TOOLS_BENCH_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "bench_harness.h"

/* One pattern's counts. */
typedef struct bench_model_result {
    char name[32];
    char what[200];
    const char *kind; /* the pattern class: "same", "broadcast", "short", "strided", "sweep" */
    clsel_dtype dtype;
    int64_t elements;
    uint64_t out_bytes;
    int launches;
    uint64_t work_items;
    uint64_t instructions;
    uint64_t loads, stores, load_bytes, store_bytes; /* global memory */
    uint64_t wide_bytes;                             /* of those bytes, moved by 16-byte accesses */
    uint64_t local_accesses;                         /* loads and stores of local memory */
    double ir_per_byte, bytes_per_access, wide_share;
    char error[256]; /* non-empty when the pattern did not run, or its output was wrong */
} bench_model_result;

typedef struct bench_model_report {
    char device[256];
    bench_model_result results[BENCH_MAX_RESULTS];
    size_t count;
} bench_model_report;

/* Whether `name` is a pattern of the fixed set (for --case). */
int bench_model_has_case(const char *name);

/* The pattern set's name: "named" (the fixed set of broadcast, strided and short-row patterns) or
 * the sweep's draw at 64-128 KiB (o->sweep patterns of o->seed and o->draw). */
int bench_model(const bench_options *o, bench_model_report *report);

/* The table and the summary (median, worst, same-shape, bytes per access) on stdout. */
void bench_model_print(const bench_model_report *report, const bench_options *o);

/* The figures as JSON (one object: the summary and every pattern); 0 when written. */
int bench_model_json(const char *path, const bench_model_report *report, const bench_options *o);

#endif
