/* runtime_fallback.h - the bottom leaf of host/runtime (runtime_fallback.c): the CPU path,
 * and the way back to it when a device path fails part-way. The dispatcher
 * (runtime_dispatch.c) sends small runs to the CPU path, calibration
 * (runtime_calibrate.c) times it, and both device paths (runtime_shared.c,
 * runtime_chunked.c) drain their queues and rescue through it. A header of its own
 * because this leaf calls nothing else in host/runtime: it and its .c include no
 * runtime header but runtime.h and this one (the ctest layers checks it,
 * cmake/check_layers.cmake), so no call goes back up. */
#ifndef CLSEL_HOST_RUNTIME_FALLBACK_H
#define CLSEL_HOST_RUNTIME_FALLBACK_H

#include "runtime/runtime.h"

/* Runs the plan on the CPU path with the runtime's threads. */
clsel_status clsel_priv_runtime_run_cpu(const clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                        void *out);

/* Returns once `queue` can no longer touch the caller's memory, also when the device is
 * failing: clFinish, or if that fails, `last` (the queue's last command that touches
 * it; earlier ones are done when it is, the queue being in order) waited for or polled
 * until complete or terminated. Returns clFinish's code. */
cl_int clsel_priv_runtime_drain(const clsel_runtime *rt, cl_command_queue queue, cl_event last);

/* After a device failure (clsel_last_error holds it): the whole run on the CPU path;
 * on success the device's message stays readable, marked as rescued. */
clsel_status clsel_priv_runtime_rescue(const clsel_runtime *rt, const clsel_plan *plan, const void *const in[3],
                                       void *out);

#endif
