/* cl_cache.h - compiled programs kept on disk between processes, keyed by everything
 * that could make a binary wrong for this build: the library version, a hash of the
 * kernel source and the build options, the device, its OpenCL version, the driver and
 * the platform. A missing, stale, truncated or corrupt entry is ignored (and replaced
 * by the next build); nothing about the cache ever makes a call fail.
 *
 * Entries are written for GPUs and accelerators. A CPU-type device is left to its own
 * cache: PoCL compiles every kernel when asked for the program's binary, which made the
 * first context of a process take 19.7-21.4 s instead of 1.9-2.6 s (its next ones then
 * took 16-27 ms instead of 85-95 ms; docs/performance.md, "First call").
 *
 *   CLSEL_KERNEL_CACHE=off        no cache (also "0")
 *   CLSEL_KERNEL_CACHE=on         entries for every device type, CPU ones too (also "1")
 *   CLSEL_KERNEL_CACHE_DIR=DIR    where (default $XDG_CACHE_HOME/clsel, else
 *                                 $HOME/.cache/clsel) */
#ifndef CLSEL_HOST_CL_CACHE_H
#define CLSEL_HOST_CL_CACHE_H

#include "opencl/cl_context.h"

/* The program of `ctx` for these build options from the cache, built for its device;
 * NULL when there is no valid entry (or the cache is off). */
cl_program clsel_priv_cl_cache_load(const clsel_cl_context *ctx, const char *options);

/* Keeps the built `program` of `ctx` in the cache (best effort). */
void clsel_priv_cl_cache_store(const clsel_cl_context *ctx, const char *options, cl_program program);

#endif
