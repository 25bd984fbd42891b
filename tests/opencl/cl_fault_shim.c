/* cl_fault_shim.c - an OpenCL library for fault injection: it forwards every entry point
 * clsel uses (the table of host/opencl/cl_api.h) to the real OpenCL library and can make
 * the N-th call fail. Tests load it into clsel through the public seam,
 * CLSEL_OPENCL_LIBRARY=<this module>, so the library under test is the shipped one.
 *
 *   CLSEL_FAULT_SHIM_TARGET  the real library (default libOpenCL.so.1)
 *   clsel_fault_shim_arm(n)  the n-th counted call from now fails (0: none); returns
 *                            how many counted calls were made since the last arming.
 *   clsel_fault_shim_calls() counted calls since the last arming.
 *   clsel_fault_shim_failed() the name of the function whose call was failed since the
 *                            last arming, or NULL.
 *   clsel_fault_shim_fail_named(names, k)  the next k calls of the functions in `names`
 *                            (comma-separated) fail, whatever else is armed; NULL, 0: none.
 *
 * Retains and releases (NEVER in the table) pass through uncounted: a failed release
 * would leak, and no caller can act on one. The test finds clsel_fault_shim_arm by
 * opening this module itself (the same handle clsel's dlopen got). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl/cl_api.h"

#if defined(__GNUC__)
#define SHIM_EXPORT __attribute__((visibility("default")))
#else
#define SHIM_EXPORT
#endif

SHIM_EXPORT long clsel_fault_shim_calls(void);
SHIM_EXPORT long clsel_fault_shim_arm(long n);
SHIM_EXPORT const char *clsel_fault_shim_failed(void);
SHIM_EXPORT void clsel_fault_shim_fail_named(const char *names, long count);

static clsel_cl_api real;
static atomic_long calls, fail_at;
static _Atomic(const char *) failed_name;
/* clsel_fault_shim_fail_named's list (",name,name,") and how many of its calls are left to fail. */
static char named[512];
static atomic_long named_left;

static void load_real(void)
{
    const char *name = getenv("CLSEL_FAULT_SHIM_TARGET");
    void *lib = dlopen(name && *name ? name : "libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return; /* every forwarded call then fails as if no platform existed */
#define SHIM_LOAD(ret, name, params, args, failure) \
    {                                               \
        void *symbol = dlsym(lib, #name);           \
        memcpy(&real.name, &symbol, sizeof symbol); \
    }
    CLSEL_CL_FUNCTIONS(SHIM_LOAD)
#undef SHIM_LOAD
}

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

/* Nonzero when this call (of function `name`) is the armed one and must fail. */
static int fails(const char *name)
{
    pthread_once(&loaded, load_real);
    if (atomic_load(&named_left) > 0) {
        char token[128];
        snprintf(token, sizeof token, ",%s,", name);
        if (strstr(named, token) && atomic_fetch_sub(&named_left, 1) > 0) {
            atomic_store(&failed_name, name);
            return 1;
        }
    }
    if (atomic_fetch_add(&calls, 1) + 1 != atomic_load(&fail_at))
        return 0;
    atomic_store(&failed_name, name);
    return 1;
}

SHIM_EXPORT long clsel_fault_shim_calls(void)
{
    return atomic_load(&calls);
}

SHIM_EXPORT const char *clsel_fault_shim_failed(void)
{
    return atomic_load(&failed_name);
}

SHIM_EXPORT void clsel_fault_shim_fail_named(const char *names, long count)
{
    atomic_store(&named_left, 0);
    snprintf(named, sizeof named, ",%s,", names ? names : "");
    atomic_store(&failed_name, NULL);
    atomic_store(&named_left, names ? count : 0);
}

SHIM_EXPORT long clsel_fault_shim_arm(long n)
{
    long seen = atomic_exchange(&calls, 0);
    atomic_store(&failed_name, NULL);
    atomic_store(&fail_at, n);
    return seen;
}

#define SHIM_FAIL_CODE(name)        \
    if (fails(#name) || !real.name) \
        return CL_OUT_OF_RESOURCES;
/* A failed build as a driver's: the real compiler, handed an option it rejects, so that the
 * program has a build log to read (and the failure is reported as a build failure). */
#define SHIM_FAIL_BUILD(name)                                             \
    if (!real.name)                                                       \
        return CL_BUILD_PROGRAM_FAILURE;                                  \
    if (fails(#name)) {                                                   \
        (void)real.name(p, n, d, "-clsel-fault-shim-rejects-this", f, u); \
        return CL_BUILD_PROGRAM_FAILURE;                                  \
    }
#define SHIM_FAIL_OBJECT(name)                  \
    if (fails(#name) || !real.name) {           \
        if (errcode_ret)                        \
            *errcode_ret = CL_OUT_OF_RESOURCES; \
        return NULL;                            \
    }
#define SHIM_FAIL_NEVER(name)         \
    pthread_once(&loaded, load_real); \
    if (!real.name)                   \
        return CL_INVALID_VALUE;
#define SHIM_FORWARD(ret, name, params, args, failure)   \
    SHIM_EXPORT ret CL_API_CALL name params              \
    {                                                    \
        SHIM_FAIL_##failure(name) return real.name args; \
    }
CLSEL_CL_FUNCTIONS(SHIM_FORWARD)
