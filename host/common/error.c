/* error.c - status strings and the thread-local message of the last failure. */
#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>

#include "common/cl_codes.h"

static _Thread_local char last_message[1024];
static _Thread_local int32_t last_cl_code;

static const char *const status_strings[] = {
    [CLSEL_SUCCESS] = "success",
    [CLSEL_ERROR_INVALID_ARGUMENT] = "invalid argument",
    [CLSEL_ERROR_INVALID_SHAPE] = "invalid shape",
    [CLSEL_ERROR_INVALID_DTYPE] = "invalid dtype",
    [CLSEL_ERROR_OVERFLOW] = "size overflow",
    [CLSEL_ERROR_BUFFER] = "bad buffer",
    [CLSEL_ERROR_OUT_OF_MEMORY] = "out of memory",
    [CLSEL_ERROR_NO_DEVICE] = "no OpenCL device",
    [CLSEL_ERROR_BUILD] = "OpenCL program build failed",
    [CLSEL_ERROR_OPENCL] = "OpenCL error",
};

const char *clsel_status_string(clsel_status s)
{
    const size_t n = sizeof status_strings / sizeof *status_strings;
    if ((size_t)s >= n || !status_strings[s])
        return "unknown status";
    return status_strings[s];
}

const char *clsel_last_error(void)
{
    return last_message;
}

int32_t clsel_priv_last_cl_code(void)
{
    return last_cl_code;
}

clsel_status clsel_priv_fail(clsel_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    last_cl_code = 0;
    return status;
}

clsel_status clsel_priv_fail_cl(clsel_status status, int32_t cl_code, const char *fmt, ...)
{
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(last_message, sizeof last_message, "%s: %s (%d)", what,
             clsel_priv_cl_code_name(cl_code), (int)cl_code);
    last_cl_code = cl_code;
    return status;
}

const char *clsel_priv_shape_text(const clsel_shape *shape, char buf[CLSEL_SHAPE_TEXT_MAX])
{
    size_t used = 0;
    buf[used++] = '{';
    int32_t rank = shape->rank;
    if (rank < 0)
        rank = 0;
    if (rank > CLSEL_MAX_RANK)
        rank = CLSEL_MAX_RANK;
    for (int32_t d = 0; d < rank; ++d) {
        int n = snprintf(buf + used, CLSEL_SHAPE_TEXT_MAX - used, d ? ",%lld" : "%lld",
                         (long long)shape->dims[d]);
        if (n > 0)
            used += (size_t)n;
    }
    buf[used++] = '}';
    buf[used] = '\0';
    return buf;
}
