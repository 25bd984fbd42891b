/* cl_cache.c - see cl_cache.h. An entry is one file, written to a temporary name and renamed so
 * that no reader sees half of one: "CLSELKC1", key length (u64), key text, binary size (u64),
 * FNV-1a of the binary (u64), the binary. */
#include "opencl/cl_cache.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"

static const char magic[8] = {'C', 'L', 'S', 'E', 'L', 'K', 'C', '1'};
#define BINARY_MAX ((uint64_t)256 << 20)

static uint64_t fnv1a(const void *data, size_t size)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; ++i)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

typedef enum cache_mode {
    CACHE_OFF,
    CACHE_ACCELERATORS,
    CACHE_EVERY_DEVICE
} cache_mode;

static cache_mode mode(void)
{
    const char *chosen = getenv("CLSEL_KERNEL_CACHE");
    if (chosen && (strcmp(chosen, "off") == 0 || strcmp(chosen, "0") == 0))
        return CACHE_OFF;
    if (chosen && (strcmp(chosen, "on") == 0 || strcmp(chosen, "1") == 0))
        return CACHE_EVERY_DEVICE;
    return CACHE_ACCELERATORS;
}

/* The folder, or 0 when the cache is off or has nowhere to go. */
static int cache_dir(char *dir, size_t size)
{
    static const char *const places[][2] = {
        {"CLSEL_KERNEL_CACHE_DIR", ""}, {"XDG_CACHE_HOME", "/clsel"}, {"HOME", "/.cache/clsel"}};
    if (mode() == CACHE_OFF)
        return 0;
    for (int i = 0; i < 3; ++i) {
        const char *base = getenv(places[i][0]);
        if (!base || !*base)
            continue;
        const int n = snprintf(dir, size, "%s%s", base, places[i][1]);
        return n > 0 && (size_t)n < size;
    }
    return 0;
}

/* Every fact that decides whether a binary fits, as text. 0 if a query failed. */
static int make_key(const clsel_cl_context *ctx, const char *source, size_t source_size,
                    const char *options, char *key, size_t size)
{
    const clsel_cl_api *cl = ctx->cl;
    const cl_device_id d = ctx->device;
    char device_version[256] = "", driver[256] = "", platform[256] = "", version[256] = "";
    cl_platform_id p = NULL;
    if (cl->clGetDeviceInfo(d, CL_DEVICE_VERSION, sizeof device_version - 1, device_version,
                            NULL) != CL_SUCCESS ||
        cl->clGetDeviceInfo(d, CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL) != CL_SUCCESS ||
        cl->clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof p, &p, NULL) != CL_SUCCESS ||
        cl->clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof platform - 1, platform, NULL) !=
            CL_SUCCESS ||
        cl->clGetPlatformInfo(p, CL_PLATFORM_VERSION, sizeof version - 1, version, NULL) !=
            CL_SUCCESS)
        return 0;
    const int n =
        snprintf(key, size,
                 "clsel %s\nsource %016llx\noptions %s\ndevice %s\ndevice version %s\ndriver %s\n"
                 "platform %s\nplatform version %s\n",
                 clsel_version(), (unsigned long long)fnv1a(source, source_size), options,
                 ctx->device_name, device_version, driver, platform, version);
    return n > 0 && (size_t)n < size;
}

void clsel_priv_cl_cache_entry(const clsel_cl_context *ctx, const char *source, size_t source_size,
                               const char *options, cl_cache_entry *entry)
{
    char dir[1024];
    entry->usable = entry->writable = 0;
    if (!cache_dir(dir, sizeof dir) ||
        !make_key(ctx, source, source_size, options, entry->key, sizeof entry->key))
        return;
    const int n = snprintf(entry->path, sizeof entry->path, "%s/program-%016llx.bin", dir,
                           (unsigned long long)fnv1a(entry->key, strlen(entry->key)));
    entry->usable = n > 0 && (size_t)n < sizeof entry->path;
    entry->writable =
        entry->usable && (mode() == CACHE_EVERY_DEVICE || !(ctx->device_type & CL_DEVICE_TYPE_CPU));
}

static int read_u64(FILE *f, uint64_t *v)
{
    return fread(v, sizeof *v, 1, f) == 1;
}

/* The entry's binary (allocated) when its header, key and checksum hold; NULL otherwise. */
static unsigned char *read_entry(const char *path, const char *key, size_t *binary_size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *binary = NULL;
    char head[sizeof magic], stored_key[CL_CACHE_KEY_MAX];
    uint64_t key_size = 0, size = 0, sum = 0;
    const size_t want_key = strlen(key);
    if (fread(head, sizeof head, 1, f) == 1 && memcmp(head, magic, sizeof magic) == 0 &&
        read_u64(f, &key_size) && key_size == want_key &&
        fread(stored_key, 1, want_key, f) == want_key && memcmp(stored_key, key, want_key) == 0 &&
        read_u64(f, &size) && read_u64(f, &sum) && size > 0 && size <= BINARY_MAX &&
        (binary = clsel_priv_malloc((size_t)size)) != NULL) {
        if (fread(binary, 1, (size_t)size, f) != size || fgetc(f) != EOF ||
            fnv1a(binary, size) != sum) {
            clsel_priv_free(binary);
            binary = NULL;
        }
    }
    fclose(f);
    *binary_size = (size_t)size;
    return binary;
}

cl_program clsel_priv_cl_cache_load(const clsel_cl_context *ctx, const cl_cache_entry *entry,
                                    const char *options)
{
    if (!entry->usable)
        return NULL;
    size_t size = 0;
    unsigned char *binary = read_entry(entry->path, entry->key, &size);
    if (!binary)
        return NULL;
    const clsel_cl_api *cl = ctx->cl;
    const unsigned char *binaries[1] = {binary};
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program program = cl->clCreateProgramWithBinary(ctx->context, 1, &ctx->device, &size,
                                                       binaries, &status, &err);
    clsel_priv_free(binary);
    if (program &&
        (err != CL_SUCCESS || status != CL_SUCCESS ||
         cl->clBuildProgram(program, 1, &ctx->device, options, NULL, NULL) != CL_SUCCESS)) {
        cl->clReleaseProgram(program);
        program = NULL;
    }
    return program;
}

/* mkdir -p for the cache folder (the last two levels: ~/.cache may not exist yet). */
static void make_dirs(char *path)
{
    char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return;
    *slash = '\0';
    if (mkdir(path, 0700) != 0 && errno == ENOENT) {
        make_dirs(path);
        (void)mkdir(path, 0700);
    }
    *slash = '/';
}

void clsel_priv_cl_cache_store(const clsel_cl_context *ctx, const cl_cache_entry *entry,
                               cl_program program)
{
    if (!entry->writable)
        return;
    const clsel_cl_api *cl = ctx->cl;
    size_t size = 0;
    if (cl->clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) !=
            CL_SUCCESS ||
        size == 0 || size > BINARY_MAX)
        return;
    unsigned char *binary = clsel_priv_malloc(size);
    if (binary && cl->clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary,
                                       NULL) == CL_SUCCESS) {
        static atomic_uint counter; /* with the pid: a temporary name no other writer uses */
        char temp[CL_CACHE_PATH_MAX + 64];
        snprintf(temp, sizeof temp, "%s.%ld.%u.tmp", entry->path, (long)getpid(),
                 atomic_fetch_add(&counter, 1));
        make_dirs(temp);
        FILE *f = fopen(temp, "wb");
        if (f) {
            const uint64_t key_size = strlen(entry->key), binary_size = size,
                           sum = fnv1a(binary, size);
            const int ok = fwrite(magic, sizeof magic, 1, f) == 1 &&
                           fwrite(&key_size, 8, 1, f) == 1 &&
                           fwrite(entry->key, 1, key_size, f) == key_size &&
                           fwrite(&binary_size, 8, 1, f) == 1 && fwrite(&sum, 8, 1, f) == 1 &&
                           fwrite(binary, 1, size, f) == size;
            if (fclose(f) != 0 || !ok || rename(temp, entry->path) != 0)
                remove(temp);
        }
    }
    clsel_priv_free(binary);
}
