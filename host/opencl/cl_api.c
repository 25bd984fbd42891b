/* cl_api.c - loads the OpenCL entry points once per process (see cl_api.h). */
#include "opencl/cl_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static clsel_cl_api loaded;
static char load_failure[512]; /* stays empty when every entry point loads */

static void *open_opencl(void)
{
    const char *chosen = getenv("CLSEL_OPENCL_LIBRARY");
    const int named = chosen && *chosen;
    void *lib = dlopen(named ? chosen : "libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib && !named)
        lib = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib && named)
        snprintf(load_failure, sizeof load_failure,
                 "cannot load the OpenCL library %s (named by CLSEL_OPENCL_LIBRARY)", chosen);
    else if (!lib)
        snprintf(load_failure, sizeof load_failure,
                 "no OpenCL library found (tried libOpenCL.so.1; set CLSEL_OPENCL_LIBRARY to "
                 "choose one)");
    return lib;
}

/* Each entry point's name and where its pointer goes in the table. */
typedef struct entry_point {
    const char *name;
    size_t field;
} entry_point;

#define CLSEL_CL_ENTRY(ret, name, params, args, failure) {#name, offsetof(clsel_cl_api, name)},
static const entry_point entry_points[] = {CLSEL_CL_FUNCTIONS(CLSEL_CL_ENTRY)};
#undef CLSEL_CL_ENTRY

static void load_entry_points(void)
{
    void *lib = open_opencl();
    if (!lib)
        return;
    for (size_t i = 0; i < sizeof entry_points / sizeof *entry_points; ++i) {
        void *symbol = dlsym(lib, entry_points[i].name);
        if (!symbol) {
            snprintf(load_failure, sizeof load_failure,
                     "the OpenCL library lacks %s (OpenCL 1.2 is required)", entry_points[i].name);
            return;
        }
        /* Object and function pointers share a representation under dlsym; a copy avoids the cast
         * pedantic C rejects. */
        memcpy((char *)&loaded + entry_points[i].field, &symbol, sizeof symbol);
    }
}

const clsel_cl_api *clsel_priv_cl(void)
{
    pthread_once(&load_once, load_entry_points);
    if (load_failure[0])
        clsel_priv_fail(CLSEL_ERROR_NO_DEVICE, "%s", load_failure);
    return load_failure[0] ? NULL : &loaded;
}
