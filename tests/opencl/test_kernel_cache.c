/* test_kernel_cache.c - compiled programs kept on disk (host/opencl/cl_cache.c), one
 * per kernel, built when a context first needs that kernel: the first context builds
 * from source and writes the entries of the kernels it ran, the next loads them; an
 * entry that is corrupt, truncated, from another key or not an entry at all is ignored
 * and replaced; one that cannot be written leaves no temporary file behind;
 * CLSEL_KERNEL_CACHE=off writes nothing; clsel_cl_context_prepare builds a
 * dtype's same-shape kernel and clsel_cl_context_prepare_plan a plan's, ahead of any run.
 * CLSEL_KERNEL_CACHE=on, so that a CPU device (PoCL) gets entries too. Every context, cached or
 * not, must give exact results. Where the device runs native kernels (clsel_cl_context_path)
 * nothing is built, so nothing may be cached either: that is what each case checks there.
 *
 *   test_kernel_cache --dir DIR [CASE...]   (a folder of its own under DIR is used) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "test_cl.h"
#include "test_util.h"

static test_cl env;
static char dir[1024], entry[1500];

enum {
    WIDTHS = 4
}; /* context_round runs one dtype of each element width: one kernel each */

/* How many entries the test's cache folder holds (the path of one of them in `entry`). */
static int find_entry(void)
{
    return test_files_in(dir, entry, sizeof entry);
}

/* A context on the test device running one dtype of each element width: how many of
 * its programs came from the cache; are its results exact? */
static int context_round(const char *what)
{
    clsel_cl_context *ctx = NULL;
    CHECK_OK(clsel_cl_context_create(env.context, env.device, &ctx));
    if (!ctx)
        return -1;
    clsel_cl_context *kept = env.ctx; /* test_cl_run enqueues through env.ctx */
    env.ctx = ctx;
    clsel_shape c = SHAPE(37, 1), t = SHAPE(37, 50), e = SHAPE(50);
    static const clsel_dtype dtypes[] = {CLSEL_U8, CLSEL_F16, CLSEL_F32, CLSEL_F64};
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; ++i) {
        clsel_plan *plan = NULL;
        CHECK_OK(clsel_plan_create(dtypes[i], &c, &t, &e, NULL, &plan));
        test_data td;
        test_data_make(&td, plan, 5 + i);
        CHECK_OK(clsel_plan_run_cpu(plan, td.cond, td.then_data, td.else_data, td.want));
        int guards_ok = 0;
        CHECK_OK(
            test_cl_run(&env, plan, td.cond, td.then_data, td.else_data, td.got, 3, &guards_ok));
        CHECK_MSG(guards_ok && memcmp(td.got, td.want, (size_t)td.out_count * td.w) == 0,
                  "%s: %s differs", what, clsel_dtype_name(dtypes[i]));
        test_data_free(&td);
        clsel_plan_destroy(plan);
    }
    env.ctx = kept;
    const int cached = clsel_cl_program_cached(ctx);
    clsel_cl_context_destroy(ctx);
    return cached;
}

static void remove_entries(void)
{
    test_remove_files_in(dir);
}

/* A cache folder other than `dir` that a round wrote: one entry per width; then removed. */
static void check_and_remove_folder(const char *folder)
{
    const int entries = test_files_in(folder, NULL, 0);
    CHECK_MSG(entries == WIDTHS, "%d entries in %s", entries, folder);
    test_remove_files_in(folder);
    rmdir(folder);
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    return size;
}

/* Rewrites the entry: flips the byte at `at` (from the end when negative), or cuts it
 * to `keep` bytes. */
static void damage(long at, long keep)
{
    long size = file_size(entry);
    FILE *f = fopen(entry, "rb");
    unsigned char *bytes = malloc((size_t)size);
    CHECK(f && bytes && fread(bytes, 1, (size_t)size, f) == (size_t)size);
    if (f)
        fclose(f);
    if (keep < 0)
        bytes[at < 0 ? size + at : at] ^= 0x5A;
    f = fopen(entry, "wb");
    CHECK(f && fwrite(bytes, 1, (size_t)(keep < 0 ? size : keep), f) ==
                   (size_t)(keep < 0 ? size : keep));
    if (f)
        fclose(f);
    free(bytes);
}

static const char *parent_dir;

static int open_device(void)
{
    if (!parent_dir) {
        fprintf(stderr, "test_kernel_cache: --dir DIR is required\n");
        return 2;
    }
    snprintf(dir, sizeof dir, "%s/kernel-cache-XXXXXX", parent_dir);
    if (!mkdtemp(dir)) {
        fprintf(stderr, "test_kernel_cache: cannot make a folder under %s\n", parent_dir);
        return 1;
    }
    setenv("CLSEL_KERNEL_CACHE_DIR", dir, 1);
    setenv("CLSEL_KERNEL_CACHE", "on", 1); /* entries for a CPU device too (PoCL in CI) */
    test_cl_open(&env);                    /* its own context: builds nothing until a run */
    return 0;
}

static void close_device(void)
{
    remove_entries();
    rmdir(dir);
    test_cl_close(&env);
}

/* Whether the device runs the kernels; on the native path, a round must build nothing
 * and leave the cache empty, and the case ends there. */
static int runs_kernels(void)
{
    if (clsel_cl_context_path(env.ctx) == CLSEL_CL_PATH_KERNELS)
        return 1;
    remove_entries();
    setenv("CLSEL_KERNEL_CACHE", "on", 1);
    CHECK_MSG(context_round("native path") == 0 && find_entry() == 0,
              "the native path cached %d programs", find_entry());
    printf("native path on %s: no program built or cached\n", env.device_name);
    return 0;
}

/* The first context writes, the second loads; damaged entries are ignored and replaced. */
static void test_load_and_damage(void)
{
    if (!runs_kernels())
        return;
    remove_entries();
    /* A device compiler may keep a cache of its own whose state changes the binary it
     * returns: PoCL's carries the kernels it has compiled for earlier launches, so an
     * entry written before any launch (a cold PoCL cache: 418 KB for one width here) is
     * smaller than the same program's entry written after one (637 KB), and the
     * rewritten entry's size below would depend on which tests ran first. One round with
     * clsel's cache off puts the device's compiler in the state every later build sees. */
    setenv("CLSEL_KERNEL_CACHE", "off", 1);
    context_round("warming the device compiler");
    setenv("CLSEL_KERNEL_CACHE", "on", 1);
    CHECK_MSG(find_entry() == 0, "%d files in the cache before any run", find_entry());
    CHECK_MSG(context_round("first context") == 0 && find_entry() == WIDTHS,
              "%d entries after the first context", find_entry());
    CHECK_MSG(context_round("second context") == WIDTHS,
              "the second context did not load the cached programs");
    CHECK(find_entry() == WIDTHS);

    /* Damaged entries: ignored (that width built from source), and replaced. */
    const long size = file_size(entry);
    const struct {
        const char *what;
        long at, keep;
    } damages[] = {{"a flipped byte in the binary", -100, -1},
                   {"a flipped byte in the key", 20, -1},
                   {"a flipped magic", 0, -1},
                   {"a truncated binary", 0, size - 1000},
                   {"an empty file", 0, 0}};
    for (size_t i = 0; i < sizeof damages / sizeof damages[0]; ++i) {
        damage(damages[i].at, damages[i].keep);
        CHECK_MSG(context_round(damages[i].what) == WIDTHS - 1, "%s was trusted", damages[i].what);
        CHECK_MSG(file_size(entry) == size && context_round("the rewritten entry") == WIDTHS,
                  "after %s the entry was not rewritten", damages[i].what);
    }
    printf("kernel cache in %s: %ld bytes for one width on %s; load, damage and rewrite checked\n",
           dir, size, env.device_name);
}

/* Only the kernels asked for are built: prepare a dtype's same-shape kernel, then a plan's
 * kernels (as many as clsel_cl_plan_kernels lists), and only their entries appear. */
static void test_prepare(void)
{
    if (!runs_kernels())
        return;
    remove_entries();
    setenv("CLSEL_KERNEL_CACHE", "on", 1);
    clsel_shape c = SHAPE(37, 1), t = SHAPE(37, 50), e = SHAPE(50);
    clsel_plan *plan = NULL;
    CHECK_OK(clsel_plan_create(CLSEL_F16, &c, &t, &e, NULL, &plan));
    char text[1024];
    const size_t length = clsel_cl_plan_kernels(plan, text, sizeof text);
    int kernels = 0;
    for (size_t i = 0; i < length && i < sizeof text; ++i)
        kernels += text[i] == '\n';
    CHECK_MSG(kernels >= 1, "clsel_cl_plan_kernels listed no kernel: '%s'", text);
    for (int round = 0; round < 2; ++round) {
        clsel_cl_context *ctx = NULL;
        CHECK_OK(clsel_cl_context_create(env.context, env.device, &ctx));
        CHECK(find_entry() == round * (1 + kernels));
        CHECK_OK(clsel_cl_context_prepare(ctx, CLSEL_F32));
        CHECK_OK(clsel_cl_context_prepare(ctx, CLSEL_I32)); /* the same kernel: built already */
        CHECK_MSG(find_entry() == (round ? 1 + kernels : 1) &&
                      clsel_cl_program_cached(ctx) == round,
                  "prepare, round %d: %d entries, %d cached", round, find_entry(),
                  clsel_cl_program_cached(ctx));
        CHECK_OK(clsel_cl_context_prepare_plan(ctx, plan));
        CHECK_MSG(find_entry() == 1 + kernels &&
                      clsel_cl_program_cached(ctx) == round * (1 + kernels),
                  "prepare_plan, round %d: %d entries, %d cached (%d kernels)", round, find_entry(),
                  clsel_cl_program_cached(ctx), 1 + kernels);
        clsel_cl_context_destroy(ctx);
    }
    clsel_plan_destroy(plan);
    CHECK(clsel_cl_context_prepare(NULL, CLSEL_F32) == CLSEL_ERROR_INVALID_ARGUMENT);
    CHECK(clsel_cl_context_prepare_plan(NULL, NULL) == CLSEL_ERROR_INVALID_ARGUMENT);
}

/* Off: nothing read, nothing written. */
static void test_off(void)
{
    if (!runs_kernels())
        return;
    remove_entries();
    setenv("CLSEL_KERNEL_CACHE", "off", 1);
    CHECK(context_round("cache off") == 0 && find_entry() == 0);
    setenv("CLSEL_KERNEL_CACHE", "on", 1);
    CHECK(context_round("cache back on") == 0 && find_entry() == WIDTHS);
}

/* A cache folder whose parents do not exist yet (~/.cache/clsel on a fresh account): made,
 * parents and all, by the first write. */
static void test_new_folders(void)
{
    if (!runs_kernels())
        return;
    remove_entries();
    char top[1100], nested[1200];
    snprintf(top, sizeof top, "%s/new", dir);
    snprintf(nested, sizeof nested, "%s/cache/clsel", top);
    setenv("CLSEL_KERNEL_CACHE_DIR", nested, 1);
    context_round("a cache folder three levels new");
    check_and_remove_folder(nested);
    snprintf(nested, sizeof nested, "%s/cache", top);
    rmdir(nested);
    rmdir(top);
    setenv("CLSEL_KERNEL_CACHE_DIR", dir, 1);
}

/* An environment variable's value (NULL: unset), to put back with restore_env. */
static char *saved_env(const char *name)
{
    const char *value = getenv(name);
    return value ? strdup(value) : NULL;
}

static void restore_env(const char *name, char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
    free(value);
}

/* Where the folder comes from: CLSEL_KERNEL_CACHE_DIR, else $XDG_CACHE_HOME/clsel (an empty
 * variable counts as unset), else $HOME/.cache/clsel; with none of them set, or a path too long
 * for the library, the cache is off. */
static void test_folder_choice(void)
{
    if (!runs_kernels())
        return;
    remove_entries();
    char xdg_folder[1100];
    snprintf(xdg_folder, sizeof xdg_folder, "%s/clsel", dir);
    char *kept_xdg = saved_env("XDG_CACHE_HOME");
    setenv("CLSEL_KERNEL_CACHE_DIR", "", 1);
    setenv("XDG_CACHE_HOME", dir, 1);
    context_round("XDG_CACHE_HOME");
    check_and_remove_folder(xdg_folder);
    static char too_long[5000];
    memset(too_long, 'x', sizeof too_long - 1);
    too_long[0] = '/';
    setenv("CLSEL_KERNEL_CACHE_DIR", too_long, 1);
    CHECK(context_round("a folder name too long") == 0 && find_entry() == 0);
    /* No folder variable at all (a service account without HOME): nothing written anywhere,
     * so no round reads an entry back. */
    char *kept_home = saved_env("HOME");
    unsetenv("CLSEL_KERNEL_CACHE_DIR");
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    CHECK(context_round("no cache folder") == 0 && context_round("no cache folder again") == 0);
    restore_env("HOME", kept_home);
    restore_env("XDG_CACHE_HOME", kept_xdg);
    setenv("CLSEL_KERNEL_CACHE_DIR", dir, 1);
}

/* An entry that cannot be written (here a folder stands where its file would go, so the
 * rename onto it fails): the program is built and runs as without a cache, and the temporary
 * file the write went to is removed, not left to pile up in the folder. */
static void test_failed_write(void)
{
    if (!runs_kernels())
        return;
    remove_entries();
    CHECK(context_round("filling the cache") == 0 && find_entry() == WIDTHS);
    char blocked[sizeof entry];
    snprintf(blocked, sizeof blocked, "%s", entry);
    CHECK(remove(blocked) == 0 && mkdir(blocked, 0700) == 0);
    char inside[sizeof entry + 16];
    snprintf(inside, sizeof inside, "%s/file", blocked);
    FILE *f = fopen(inside, "wb");
    CHECK(f != NULL);
    if (f)
        fclose(f);
    CHECK_MSG(context_round("an entry that cannot be written") == WIDTHS - 1,
              "the blocked entry was read as a program");
    CHECK_MSG(find_entry() == WIDTHS, "%d files in the cache: a temporary file was left behind",
              find_entry());
    remove(inside);
    rmdir(blocked);
}

/* The default: entries only for GPUs and accelerators (read for any device). */
static void test_default_mode(void)
{
    if (!runs_kernels())
        return;
    remove_entries();
    unsetenv("CLSEL_KERNEL_CACHE");
    cl_device_type type = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    context_round("the default mode");
    CHECK_MSG(find_entry() == ((type & CL_DEVICE_TYPE_CPU) ? 0 : WIDTHS),
              "default mode on a %s device: %d entries",
              (type & CL_DEVICE_TYPE_CPU) ? "CPU" : "non-CPU", find_entry());
}

static const test_case cases[] = {
    {"load_and_damage", test_load_and_damage},
    {"prepare", test_prepare},
    {"off", test_off},
    {"new_folders", test_new_folders},
    {"folder_choice", test_folder_choice},
    {"failed_write", test_failed_write},
    {"default_mode", test_default_mode},
};

static const check_flag flags[] = {
    {"--dir", CHECK_FLAG_TEXT, &parent_dir, NULL, "where the test makes its cache folder"},
};

int main(int argc, char **argv)
{
    const check_suite suite = {"test_kernel_cache", cases,       CHECK_COUNT(cases), flags,
                               CHECK_COUNT(flags),  open_device, close_device};
    return check_main(argc, argv, &suite);
}
