/* cl_cache.c - see cl_cache.h. An entry is one file:
 *   "CLSELKC1", key length (u64), key text, binary size (u64), FNV-1a of the binary
 *   (u64), the binary
 * written to a temporary name and renamed, so that a reader never sees half of one. */
#include "opencl/cl_cache.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"

static const char magic[8] = {'C', 'L', 'S', 'E', 'L', 'K', 'C', '1'};
#define BINARY_MAX ((uint64_t)256 << 20)

static uint64_t fnv1a(uint64_t h, const void *data, size_t size)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}
#define FNV_START 0xcbf29ce484222325ull

typedef enum cache_mode { CACHE_OFF, CACHE_ACCELERATORS, CACHE_EVERY_DEVICE } cache_mode;

static cache_mode mode(void)
{
    static const struct {
        const char *name;
        cache_mode mode;
    } names[] = {{"off", CACHE_OFF}, {"0", CACHE_OFF}, {"on", CACHE_EVERY_DEVICE}, {"1", CACHE_EVERY_DEVICE}};
    const char *chosen = getenv("CLSEL_KERNEL_CACHE");
    for (size_t i = 0; chosen && i < sizeof names / sizeof names[0]; ++i)
        if (strcmp(chosen, names[i].name) == 0) return names[i].mode;
    return CACHE_ACCELERATORS;
}

/* The folder, or 0 when the cache is off or has nowhere to go. */
static int cache_dir(char *dir, size_t size)
{
    if (mode() == CACHE_OFF) return 0;
    const char *chosen = getenv("CLSEL_KERNEL_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (chosen && *chosen)
        n = snprintf(dir, size, "%s", chosen);
    else if (xdg && *xdg)
        n = snprintf(dir, size, "%s/clsel", xdg);
    else if (home && *home)
        n = snprintf(dir, size, "%s/.cache/clsel", home);
    else
        return 0;
    return n > 0 && (size_t)n < size;
}

/* Every fact that decides whether a binary fits, as text. 0 if a query failed. */
static int make_key(const clsel_cl_context *ctx, const char *source_text, size_t source_size, const char *options,
                    char *key, size_t size)
{
    const clsel_cl_api *cl = ctx->cl;
    char device_version[256] = "", driver[256] = "", platform[256] = "", platform_version[256] = "";
    cl_platform_id platform_id = NULL;
    if (cl->clGetDeviceInfo(ctx->device, CL_DEVICE_VERSION, sizeof device_version - 1, device_version, NULL) !=
            CL_SUCCESS ||
        cl->clGetDeviceInfo(ctx->device, CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL) != CL_SUCCESS ||
        cl->clGetDeviceInfo(ctx->device, CL_DEVICE_PLATFORM, sizeof platform_id, &platform_id, NULL) != CL_SUCCESS ||
        cl->clGetPlatformInfo(platform_id, CL_PLATFORM_NAME, sizeof platform - 1, platform, NULL) != CL_SUCCESS ||
        cl->clGetPlatformInfo(platform_id, CL_PLATFORM_VERSION, sizeof platform_version - 1, platform_version, NULL) !=
            CL_SUCCESS)
        return 0;
    const uint64_t source = fnv1a(FNV_START, source_text, source_size);
    const int n = snprintf(key, size,
                           "clsel %s\nsource %016llx\noptions %s\ndevice %s\ndevice version %s\ndriver %s\n"
                           "platform %s\nplatform version %s\n",
                           clsel_version(), (unsigned long long)source, options, ctx->device_name, device_version,
                           driver, platform, platform_version);
    return n > 0 && (size_t)n < size;
}

void clsel_priv_cl_cache_entry(const clsel_cl_context *ctx, const char *source, size_t source_size, const char *options,
                               cl_cache_entry *entry)
{
    char dir[1024];
    entry->usable = entry->writable = 0;
    if (!cache_dir(dir, sizeof dir) || !make_key(ctx, source, source_size, options, entry->key, sizeof entry->key))
        return;
    const int n = snprintf(entry->path, sizeof entry->path, "%s/program-%016llx.bin", dir,
                           (unsigned long long)fnv1a(FNV_START, entry->key, strlen(entry->key)));
    entry->usable = n > 0 && (size_t)n < sizeof entry->path;
    entry->writable = entry->usable && (mode() == CACHE_EVERY_DEVICE || !(ctx->device_type & CL_DEVICE_TYPE_CPU));
}

static int read_u64(FILE *f, uint64_t *v) { return fread(v, sizeof *v, 1, f) == 1; }

/* The entry's binary (allocated) when its header, key and checksum hold; NULL otherwise. */
static unsigned char *read_entry(const char *path, const char *key, size_t *binary_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *binary = NULL;
    char head[sizeof magic], stored_key[CL_CACHE_KEY_MAX];
    uint64_t key_size = 0, size = 0, sum = 0;
    const size_t want_key = strlen(key);
    if (fread(head, sizeof head, 1, f) == 1 && memcmp(head, magic, sizeof magic) == 0 && read_u64(f, &key_size) &&
        key_size == want_key && fread(stored_key, 1, want_key, f) == want_key &&
        memcmp(stored_key, key, want_key) == 0 && read_u64(f, &size) && read_u64(f, &sum) && size > 0 &&
        size <= BINARY_MAX && (binary = clsel_priv_malloc((size_t)size)) != NULL) {
        if (fread(binary, 1, (size_t)size, f) != size || fgetc(f) != EOF || fnv1a(FNV_START, binary, size) != sum) {
            clsel_priv_free(binary);
            binary = NULL;
        }
    }
    fclose(f);
    *binary_size = (size_t)size;
    return binary;
}

cl_program clsel_priv_cl_cache_load(const clsel_cl_context *ctx, const cl_cache_entry *entry, const char *options)
{
    if (!entry->usable) return NULL;
    size_t size = 0;
    unsigned char *binary = read_entry(entry->path, entry->key, &size);
    if (!binary) return NULL;
    const clsel_cl_api *cl = ctx->cl;
    const unsigned char *binaries[1] = {binary};
    cl_int binary_status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program program =
        cl->clCreateProgramWithBinary(ctx->context, 1, &ctx->device, &size, binaries, &binary_status, &err);
    clsel_priv_free(binary);
    if (program && (err != CL_SUCCESS || binary_status != CL_SUCCESS ||
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
    if (!slash || slash == path) return;
    *slash = '\0';
    if (mkdir(path, 0700) != 0 && errno == ENOENT) {
        make_dirs(path);
        (void)mkdir(path, 0700);
    }
    *slash = '/';
}

void clsel_priv_cl_cache_store(const clsel_cl_context *ctx, const cl_cache_entry *entry, cl_program program)
{
    char temp[CL_CACHE_PATH_MAX + 64];
    if (!entry->writable) return;
    const clsel_cl_api *cl = ctx->cl;
    size_t size = 0;
    if (cl->clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || size == 0 ||
        size > BINARY_MAX)
        return;
    unsigned char *binary = clsel_priv_malloc(size);
    if (!binary) return;
    if (cl->clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL) == CL_SUCCESS) {
        static atomic_uint counter; /* with the pid: a temporary name no other writer uses */
        snprintf(temp, sizeof temp, "%s.%ld.%u.tmp", entry->path, (long)getpid(), atomic_fetch_add(&counter, 1));
        make_dirs(temp);
        FILE *f = fopen(temp, "wb");
        if (f) {
            const uint64_t key_size = strlen(entry->key), binary_size = size, sum = fnv1a(FNV_START, binary, size);
            const int ok = fwrite(magic, sizeof magic, 1, f) == 1 && fwrite(&key_size, 8, 1, f) == 1 &&
                           fwrite(entry->key, 1, key_size, f) == key_size && fwrite(&binary_size, 8, 1, f) == 1 &&
                           fwrite(&sum, 8, 1, f) == 1 && fwrite(binary, 1, size, f) == size;
            if (fclose(f) == 0 && ok && rename(temp, entry->path) == 0) {
                clsel_priv_free(binary);
                return;
            }
            remove(temp);
        }
    }
    clsel_priv_free(binary);
}
