/* cl_cache.h - compiled programs kept on disk between processes, keyed by all that could make a
 * binary wrong: the library version, hashes of the kernel source and build options, the device, its
 * OpenCL version, the driver and the platform. A missing, stale or corrupt entry is ignored (and
 * replaced); the cache never makes a call fail. Entries are written for GPUs and accelerators, not
 * CPU devices, which keep their own: PoCL compiles every kernel when asked for a binary, so the
 * first context of a process took 19.7-21.4 s instead of 1.9-2.6 s (docs/performance.md).
 *   CLSEL_KERNEL_CACHE=off | on   no cache ("0"), or entries for every device type, CPU ones too
 * ("1") CLSEL_KERNEL_CACHE_DIR=DIR    where (default $XDG_CACHE_HOME/clsel, else
 * $HOME/.cache/clsel) */
#ifndef CLSEL_HOST_CL_CACHE_H
#define CLSEL_HOST_CL_CACHE_H

#include "opencl/cl_context.h"

enum {
    CL_CACHE_KEY_MAX = 4096,
    CL_CACHE_PATH_MAX = 1200
};

/* Where one program lives in the cache and the key its entry must hold; computed once, for a load
 * and a later store. */
typedef struct cl_cache_entry {
    int usable;   /* 0: the cache is off, has no folder, or the device could not be asked */
    int writable; /* entries are written for this device (see above) */
    char key[CL_CACHE_KEY_MAX];
    char path[CL_CACHE_PATH_MAX];
} cl_cache_entry;

void clsel_priv_cl_cache_entry(const clsel_cl_context *ctx, const char *source, size_t source_size,
                               const char *options, cl_cache_entry *entry);
/* The entry's program, built for the device of `ctx` with these options; NULL when there is no
 * valid entry. */
cl_program clsel_priv_cl_cache_load(const clsel_cl_context *ctx, const cl_cache_entry *entry,
                                    const char *options);
/* Keeps the built `program` of `ctx` as the entry (best effort). */
void clsel_priv_cl_cache_store(const clsel_cl_context *ctx, const cl_cache_entry *entry,
                               cl_program program);

#endif
