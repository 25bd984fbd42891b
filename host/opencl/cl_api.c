/* cl_api.c - loads the OpenCL entry points once per process (see cl_api.h). */
#include "opencl/cl_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

#ifdef _WIN32
#include <windows.h>
static void *open_library(const char *name) { return (void *)LoadLibraryA(name); }
static void *find_symbol(void *lib, const char *name)
{
    return (void *)GetProcAddress((HMODULE)lib, name);
}
static const char *const default_libraries[] = {"OpenCL.dll", NULL};
typedef INIT_ONCE once_flag_t;
#define ONCE_INIT INIT_ONCE_STATIC_INIT
static BOOL CALLBACK once_thunk(PINIT_ONCE o, PVOID f, PVOID *c)
{
    (void)o;
    (void)c;
    ((void (*)(void))f)();
    return TRUE;
}
static void run_once(once_flag_t *flag, void (*fn)(void)) { InitOnceExecuteOnce(flag, once_thunk, (PVOID)fn, NULL); }
#else
#include <dlfcn.h>
#include <pthread.h>
static void *open_library(const char *name) { return dlopen(name, RTLD_NOW | RTLD_LOCAL); }
static void *find_symbol(void *lib, const char *name) { return dlsym(lib, name); }
#ifdef __APPLE__
static const char *const default_libraries[] = {"/System/Library/Frameworks/OpenCL.framework/OpenCL", NULL};
#else
static const char *const default_libraries[] = {"libOpenCL.so.1", "libOpenCL.so", NULL};
#endif
typedef pthread_once_t once_flag_t;
#define ONCE_INIT PTHREAD_ONCE_INIT
static void run_once(once_flag_t *flag, void (*fn)(void)) { pthread_once(flag, fn); }
#endif

static once_flag_t load_once = ONCE_INIT;
static clsel_cl_api loaded;
static int loaded_ok;
static char load_failure[512];

static void *open_opencl(void)
{
    const char *chosen = getenv("CLSEL_OPENCL_LIBRARY");
    if (chosen && *chosen) {
        void *lib = open_library(chosen);
        if (!lib)
            snprintf(load_failure, sizeof load_failure,
                     "cannot load the OpenCL library %s (named by CLSEL_OPENCL_LIBRARY)", chosen);
        return lib;
    }
    for (const char *const *name = default_libraries; *name; ++name) {
        void *lib = open_library(*name);
        if (lib) return lib;
    }
    snprintf(load_failure, sizeof load_failure,
             "no OpenCL library found (tried %s; set CLSEL_OPENCL_LIBRARY to choose one)",
             default_libraries[0]);
    return NULL;
}

static void load_entry_points(void)
{
    void *lib = open_opencl();
    if (!lib) return;
    /* Object and function pointers have the same representation on every platform
     * that has dlsym/GetProcAddress; the copy avoids a cast that pedantic C rejects. */
#define CLSEL_CL_LOAD(ret, name, params, args, failure)                                        \
    {                                                                                         \
        void *symbol = find_symbol(lib, #name);                                               \
        if (!symbol) {                                                                        \
            snprintf(load_failure, sizeof load_failure,                                       \
                     "the OpenCL library lacks %s (OpenCL 1.2 is required)", #name);          \
            return;                                                                           \
        }                                                                                     \
        memcpy(&loaded.name, &symbol, sizeof symbol);                                         \
    }
    CLSEL_CL_FUNCTIONS(CLSEL_CL_LOAD)
#undef CLSEL_CL_LOAD
    loaded_ok = 1;
}


const clsel_cl_api *clsel_priv_cl(void)
{
    run_once(&load_once, load_entry_points);
    if (!loaded_ok) {
        clsel_priv_fail(CLSEL_ERROR_NO_DEVICE, "%s", load_failure);
        return NULL;
    }
    return &loaded;
}
