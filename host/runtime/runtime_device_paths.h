/* runtime_device_paths.h - what the dispatcher (runtime_dispatch.c) asks of the leaves
 * above the CPU path: whether a big enough run should go to the device at all
 * (runtime_calibrate.c), and the two device paths, in place (runtime_shared.c) or by
 * copying (runtime_chunked.c). Apart from the dispatcher only calibration calls in
 * here, to time the chunked path; the leaves include it so that their definitions are
 * checked against it. Kept apart from runtime_fallback.h, the interface the leaves call
 * down to, so that which way a call goes shows in the includes. */
#ifndef CLSEL_HOST_RUNTIME_DEVICE_PATHS_H
#define CLSEL_HOST_RUNTIME_DEVICE_PATHS_H

#include "runtime/runtime.h"

/* Whether a run of host memory that is big enough for the device should go there: always,
 * unless the runtime is AUTO's on a device that does not work in host memory, where the
 * first call measures both paths once (runtime_calibrate.c). Thread-safe. */
int clsel_priv_runtime_device_pays(clsel_runtime *rt);

/* clsel_runtime_run on the device by copying: in chunks (runtime_chunked.c). *rescued
 * is set to 1 when the device failed part-way and the CPU path did the run. */
clsel_status clsel_priv_runtime_run_chunked(clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                            void *out, int *rescued);

/* Whether the run can work in the caller's memory in place (runtime_shared.c): the device
 * shares memory with the host, each tensor fits one buffer, and out overlaps no input. */
int clsel_priv_runtime_can_share(const clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                 const void *out);

/* clsel_runtime_run on such a device without copies; *rescued as for the chunked run. */
clsel_status clsel_priv_runtime_run_shared(clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                           void *out, int *rescued);

#endif
