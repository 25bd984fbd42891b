/* error.h - status strings, the thread-local failure message, shape text for messages. */
#ifndef CLSEL_HOST_ERROR_H
#define CLSEL_HOST_ERROR_H

#include "clsel.h"

#if defined(__GNUC__) || defined(__clang__)
#define CLSEL_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define CLSEL_PRINTF(fmt_index, first_arg)
#endif

/* Records `status` with a formatted message as this thread's last failure and returns
 * `status`, so that failures read `return clsel_priv_fail(CLSEL_ERROR_..., "...", ...);`. */
clsel_status clsel_priv_fail(clsel_status status, const char *fmt, ...) CLSEL_PRINTF(2, 3);

/* Like clsel_priv_fail for a failed OpenCL call: keeps `cl_code` (see clsel_cl_last_cl_error)
 * and appends its symbolic name to the message. */
clsel_status clsel_priv_fail_cl(clsel_status status, int32_t cl_code, const char *fmt, ...)
    CLSEL_PRINTF(3, 4);

/* The raw OpenCL code recorded by the last clsel_priv_fail_cl on this thread (0 otherwise). */
int32_t clsel_priv_last_cl_code(void);

/* Big enough for "{" + 8 dims of up to 20 characters and commas + "}". */
#define CLSEL_SHAPE_TEXT_MAX 200

/* "{2,3,4}", "{}" for rank 0. Returns buf. */
const char *clsel_priv_shape_text(const clsel_shape *shape, char buf[CLSEL_SHAPE_TEXT_MAX]);

#endif
