/* test_cli.c - the clsel command-line tool, run as a program: round trips for every
 * dtype through .npy files this test writes itself (its own writer and reader, not the
 * tool's), every usage and failure path with its exit code and message, and no output
 * (or temporary file) left behind on failure.
 *
 *   test_cli --tool PATH/TO/clsel --dir SCRATCH_DIR [CASE...] */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "oracle.h"
#include "test_util.h"

static const char *tool, *dir;
static char out_text[65536], err_text[65536];

static char *path(const char *name)
{
    static char buf[8][1024];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    return p;
}

static void slurp(const char *file, char *dst, size_t size)
{
    FILE *f = fopen(file, "rb");
    size_t n = f ? fread(dst, 1, size - 1, f) : 0;
    dst[n] = '\0';
    if (f)
        fclose(f);
}

/* Runs "clsel ARGS" (a shell fragment) with `env` prepended; returns the exit status. */
static int run_tool(const char *env, const char *fmt, ...)
{
    char args[4096], cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s '%s' %s >'%s' 2>'%s'", env ? env : "", tool, args,
             path("stdout.txt"), path("stderr.txt"));
    int status = system(cmd);
    slurp(path("stdout.txt"), out_text, sizeof out_text);
    slurp(path("stderr.txt"), err_text, sizeof err_text);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* No "*.tmp.*" file in the scratch folder. */
static int no_temp_files(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int clean = 1;
    while (d && (e = readdir(d)) != NULL)
        clean &= strstr(e->d_name, ".tmp.") == NULL;
    if (d)
        closedir(d);
    return clean;
}

/* ---- the test's own .npy writer and reader ----------------------------------------- */

static const char *descr_of(clsel_dtype t)
{
    static const char *const names[] = {"",    "|b1", "|u1", "|i1", "<u2", "<i2", "<f2",
                                        "<V2", "<u4", "<i4", "<f4", "<u8", "<i8", "<f8"};
    return names[t];
}

/* Writes a .npy file of format `major`.0 with a header built from the given descr
 * text, fortran_order text and shape text ("2,3," for (2,3,)), and the data. */
static void write_npy_text(const char *file, int major, const char *descr, const char *fortran,
                           const char *dims, const void *data, size_t bytes)
{
    char dict[512];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }",
                     descr, fortran, dims);
    size_t lenbytes = major == 1 ? 2 : 4, total = 8 + lenbytes + (size_t)n + 1;
    size_t pad = (64 - total % 64) % 64, header = (size_t)n + pad + 1;
    FILE *f = fopen(file, "wb");
    fwrite("\x93NUMPY", 1, 6, f);
    fputc(major, f);
    fputc(0, f);
    for (size_t b = 0; b < lenbytes; ++b)
        fputc((int)((header >> (8 * b)) & 0xFF), f);
    fwrite(dict, 1, (size_t)n, f);
    for (size_t i = 0; i < pad; ++i)
        fputc(' ', f);
    fputc('\n', f);
    if (bytes)
        fwrite(data, 1, bytes, f);
    fclose(f);
}

static void write_npy_raw(const char *file, int major, const char *descr, const char *fortran,
                          const clsel_shape *s, const void *data, size_t bytes)
{
    char dims[256] = "";
    for (int d = 0; d < s->rank; ++d) {
        size_t used = strlen(dims);
        snprintf(dims + used, sizeof dims - used, "%lld,", (long long)s->dims[d]);
    }
    write_npy_text(file, major, descr, fortran, dims, data, bytes);
}

static void write_npy(const char *file, clsel_dtype t, const clsel_shape *s, const void *data)
{
    write_npy_raw(file, 1, descr_of(t), "False", s, data,
                  (size_t)shape_count(s) * clsel_dtype_size(t));
}

/* Writes exactly these bytes (a file no .npy writer would make). */
static void write_bytes(const char *file, const char *bytes, size_t count)
{
    FILE *f = fopen(file, "wb");
    fwrite(bytes, 1, count, f);
    fclose(f);
}

/* Reads the data of a .npy file and checks its header names `descr` and `shape_text`. */
static int read_npy(const char *file, const char *descr, const char *shape_text, void *data,
                    size_t bytes)
{
    static unsigned char buf[1 << 22];
    FILE *f = fopen(file, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    if (n < 10 || memcmp(buf, "\x93NUMPY\x01\x00", 8) != 0)
        return 0;
    size_t header = buf[8] | (size_t)buf[9] << 8;
    char text[1024];
    snprintf(text, sizeof text, "%.*s", (int)header, (const char *)buf + 10);
    char want_descr[64], want_shape[300];
    snprintf(want_descr, sizeof want_descr, "'descr': '%s'", descr);
    snprintf(want_shape, sizeof want_shape, "'shape': %s", shape_text);
    int ok = (10 + header) % 64 == 0 && strstr(text, want_descr) && strstr(text, want_shape) &&
             strstr(text, "'fortran_order': False") && text[header - 1] == '\n' &&
             n == 10 + header + bytes;
    if (ok)
        memcpy(data, buf + 10 + header, bytes);
    return ok;
}

/* ---- round trips ---------------------------------------------------------------------- */

static void round_trip(clsel_dtype dtype, clsel_dtype cond_dtype, int major, uint64_t seed)
{
    const clsel_shape cs = SHAPE(4, 1), ts = SHAPE(3), es = SHAPE(4, 3);
    const size_t w = clsel_dtype_size(dtype);
    rng r = {seed};
    uint8_t cond[4], t[3 * 8], e[12 * 8], want[12 * 8], got[12 * 8];
    fill_cond(cond, 4, &r);
    fill_values(t, 3, w, &r);
    fill_values(e, 12, w, &r);
    oracle_case oc = {CLSEL_BROADCAST_NUMPY, -1, CLSEL_COND_ONE_WAY, w, {cs, ts, es}};
    clsel_shape out_shape;
    oracle_shape(&oc, &out_shape);
    oracle_select(&oc, &out_shape, cond, t, e, want);
    write_npy_raw(path("c.npy"), major, descr_of(cond_dtype), "False", &cs, cond, 4);
    write_npy_raw(path("t.npy"), major, descr_of(dtype), "False", &ts, t, 3 * w);
    write_npy_raw(path("e.npy"), major, descr_of(dtype), "False", &es, e, 12 * w);
    remove(path("o.npy"));
    int rc = run_tool(NULL, "run '%s' '%s' '%s' -o '%s'", path("c.npy"), path("t.npy"),
                      path("e.npy"), path("o.npy"));
    CHECK_MSG(rc == 0, "%s: exit %d: %s", clsel_dtype_name(dtype), rc, err_text);
    const char *out_descr = dtype == CLSEL_BF16 ? "|V2" : descr_of(dtype);
    CHECK_MSG(read_npy(path("o.npy"), out_descr, "(4, 3)", got, 12 * w), "%s: output header",
              clsel_dtype_name(dtype));
    CHECK_MSG(memcmp(got, want, 12 * w) == 0, "%s: output data", clsel_dtype_name(dtype));
}

static void test_round_trips(void)
{
    for (int d = 0; d < 13; ++d)
        round_trip(all_dtypes[d], CLSEL_BOOLEAN, 1 + d % 3, (uint64_t)d);
    round_trip(CLSEL_F32, CLSEL_U8, 2, 99);
    /* Scalars, 1-d and empty outputs keep numpy's shape spelling. */
    const uint8_t yes = 1;
    const int16_t a = -5, b = 7;
    clsel_shape s = SCALAR;
    write_npy(path("c.npy"), CLSEL_BOOLEAN, &s, &yes);
    write_npy(path("t.npy"), CLSEL_I16, &s, &a);
    write_npy(path("e.npy"), CLSEL_I16, &s, &b);
    CHECK(run_tool(NULL, "run '%s' '%s' '%s' -o '%s' --device cpu", path("c.npy"), path("t.npy"),
                   path("e.npy"), path("o.npy")) == 0);
    int16_t got = 0;
    CHECK(read_npy(path("o.npy"), "<i2", "()", &got, 2) && got == -5);
    got = 0;
    CHECK(run_tool(NULL, "run '%s' '%s' '%s' -o '%s' --threads 3", path("c.npy"), path("t.npy"),
                   path("e.npy"), path("o.npy")) == 0);
    CHECK(read_npy(path("o.npy"), "<i2", "()", &got, 2) && got == -5);
    clsel_shape empty = SHAPE(0, 3);
    write_npy(path("c.npy"), CLSEL_BOOLEAN, &empty, NULL);
    write_npy(path("t.npy"), CLSEL_I16, &empty, NULL);
    CHECK(run_tool(NULL, "run '%s' '%s' '%s' -o '%s'", path("c.npy"), path("t.npy"), path("e.npy"),
                   path("o.npy")) == 0);
    CHECK(read_npy(path("o.npy"), "<i2", "(0, 3)", &got, 0));
}

/* pdpd with an axis, explicit (= none), two-way cond, -v, and the output written over
 * one of its own inputs. */
static void test_options(void)
{
    const uint8_t cond[2] = {1, 0};
    const int32_t t[6] = {1, 2, 3, 4, 5, 6}, e[2] = {-1, -2}, want[6] = {1, 2, 3, -2, -2, -2};
    clsel_shape c2 = SHAPE(2), t23 = SHAPE(2, 3);
    int32_t got[6];
    write_npy(path("c.npy"), CLSEL_BOOLEAN, &c2, cond);
    write_npy(path("t.npy"), CLSEL_I32, &t23, t);
    write_npy(path("e.npy"), CLSEL_I32, &c2, e);
    CHECK(run_tool(NULL, "run '%s' '%s' '%s' --broadcast pdpd --axis 0 -o '%s' -v", path("c.npy"),
                   path("t.npy"), path("e.npy"), path("o.npy")) == 0);
    CHECK(read_npy(path("o.npy"), "<i4", "(2, 3)", got, sizeof got) &&
          memcmp(got, want, sizeof got) == 0);
    /* 24 bytes: under the runtime's device threshold, so the CPU path ran it */
    CHECK_MSG(strstr(err_text, "clsel run: runtime device ") &&
                  strstr(err_text, "out {2,3} i32, pdpd broadcast, ran on the CPU path, ") &&
                  strstr(err_text, " ms (select)"),
              "-v printed: %s", err_text);
    /* numpy on the same files fails: else {2} does not broadcast against {2,3} ... */
    CHECK(run_tool(NULL, "run '%s' '%s' '%s' -o '%s'", path("c.npy"), path("t.npy"), path("e.npy"),
                   path("o.npy")) == 1);
    /* explicit = none, and --output= spelling; the output replaces its own input. */
    write_npy(path("e6.npy"), CLSEL_I32, &t23, t);
    write_npy(path("c6.npy"), CLSEL_BOOLEAN, &t23, "\x01\x00\x01\x00\x01\x00");
    CHECK(run_tool("CLSEL_DEVICE=cpu", "run '%s' '%s' '%s' --broadcast=explicit --output='%s'",
                   path("c6.npy"), path("t.npy"), path("e6.npy"), path("t.npy")) == 0);
    CHECK(read_npy(path("t.npy"), "<i4", "(2, 3)", got, sizeof got) &&
          memcmp(got, t, sizeof got) == 0);
    /* Two-way cond: cond {2,1} enlarges then/else {3}. */
    const clsel_shape c21 = SHAPE(2, 1), s3 = SHAPE(3);
    const float tf[3] = {1, 2, 3}, ef[3] = {-1, -2, -3}, wantf[6] = {1, 2, 3, -1, -2, -3};
    float gotf[6];
    write_npy(path("c.npy"), CLSEL_BOOLEAN, &c21, cond);
    write_npy(path("t.npy"), CLSEL_F32, &s3, tf);
    write_npy(path("e.npy"), CLSEL_F32, &s3, ef);
    CHECK(run_tool(NULL, "run '%s' '%s' '%s' -o '%s'", path("c.npy"), path("t.npy"), path("e.npy"),
                   path("o.npy")) == 1);
    CHECK(strstr(err_text, "cond_broadcast = bidirectional would accept it"));
    CHECK(run_tool(NULL, "run '%s' '%s' '%s' -o '%s' --cond-broadcast bidirectional", path("c.npy"),
                   path("t.npy"), path("e.npy"), path("o.npy")) == 0);
    CHECK(read_npy(path("o.npy"), "<f4", "(2, 3)", gotf, sizeof gotf) &&
          memcmp(gotf, wantf, sizeof gotf) == 0);
    /* A Fortran-order then, read where it lies: [[1,2,3],[4,5,6]] stored column by column. */
    const int32_t fortran[6] = {1, 4, 2, 5, 3, 6}, nines[6] = {-9, -9, -9, -9, -9, -9},
                  want_f[6] = {1, -9, 3, -9, 5, -9};
    write_npy_raw(path("t.npy"), 1, "<i4", "True", &t23, fortran, sizeof fortran);
    write_npy(path("e.npy"), CLSEL_I32, &t23, nines);
    CHECK(run_tool(NULL, "run '%s' '%s' '%s' -o '%s'", path("c6.npy"), path("t.npy"), path("e.npy"),
                   path("o.npy")) == 0);
    CHECK(read_npy(path("o.npy"), "<i4", "(2, 3)", got, sizeof got) &&
          memcmp(got, want_f, sizeof got) == 0);
}

/* ---- usage errors (exit 2) ------------------------------------------------------------ */

static void test_usage(void)
{
    static const struct {
        const char *args, *message;
    } cases[] = {
        {"", "missing command"},
        {"frobnicate", "unknown command 'frobnicate'"},
        {"run a.npy b.npy", "needs three input files"},
        {"run a.npy b.npy c.npy", "missing -o OUT.npy"},
        {"run a.npy b.npy c.npy d.npy -o o.npy", "too many files"},
        {"run a b c -o", "-o needs a file name"},
        {"run a b c -o o --broadcast nump",
         "--broadcast must be numpy, none (or explicit) or pdpd, not 'nump'"},
        {"run a b c -o o --broadcast pdpd --axis one", "--axis needs an integer, not 'one'"},
        {"run a b c -o o --axis 1", "--axis applies to --broadcast pdpd only"},
        {"run a b c -o o --cond-broadcast twoway",
         "--cond-broadcast must be one-way or bidirectional"},
        {"run a b c -o o --device gpu", "--device must be auto, cpu or opencl, not 'gpu'"},
        {"run a b c -o o --fast", "unknown option '--fast'"},
        {"run a b c -o o --threads -1", "--threads needs an integer from 0 to 4096, not '-1'"},
        {"run a b c -o o --threads many", "--threads needs an integer from 0 to 4096, not 'many'"},
        {"demo --device tpu", "--device must be auto, cpu or opencl"},
        {"demo extra", "unknown argument 'extra'"},
        {"devices extra", "unexpected argument 'extra'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        int rc = run_tool(NULL, "%s", cases[i].args);
        CHECK_MSG(rc == 2, "'%s' exited %d", cases[i].args, rc);
        CHECK_MSG(strstr(err_text, cases[i].message) && strstr(err_text, "Try 'clsel"),
                  "'%s' printed: %s", cases[i].args, err_text);
        int lines = 0;
        for (const char *p = err_text; *p; ++p)
            lines += *p == '\n';
        CHECK_MSG(lines == 2, "'%s': message and one hint line, got: %s", cases[i].args, err_text);
    }
    CHECK(run_tool(NULL, "--version") == 0 && strstr(out_text, "clsel 0."));
    CHECK(run_tool(NULL, "--help") == 0 && strstr(out_text, "usage: clsel COMMAND"));
    CHECK(run_tool(NULL, "run --help") == 0 && strstr(out_text, "usage: clsel run"));
    CHECK(run_tool(NULL, "demo --help") == 0 && strstr(out_text, "usage: clsel demo"));
    CHECK(run_tool(NULL, "devices --help") == 0 && strstr(out_text, "usage: clsel devices"));
}

/* ---- failures (exit 1): message names the file and problem, nothing left behind ---- */

static void expect_failure(const char *what, const char *env, const char *inputs,
                           const char *message)
{
    remove(path("o.npy"));
    int rc = run_tool(env, "run %s -o '%s'", inputs, path("o.npy"));
    CHECK_MSG(rc == 1, "%s: exit %d (%s)", what, rc, err_text);
    CHECK_MSG(strstr(err_text, message) != NULL, "%s: \"%s\" lacks \"%s\"", what, err_text,
              message);
    CHECK_MSG(strncmp(err_text, "clsel: ", 7) == 0, "%s: %s", what, err_text);
    CHECK_MSG(!file_exists(path("o.npy")), "%s: an output was left behind", what);
    CHECK_MSG(no_temp_files(), "%s: a temporary file was left behind", what);
}

static void test_failures(void)
{
    const clsel_shape s = SHAPE(2, 2);
    const float v[4] = {1, 2, 3, 4};
    const uint8_t c[4] = {1, 0, 1, 0};
    write_npy(path("c.npy"), CLSEL_BOOLEAN, &s, c);
    write_npy(path("t.npy"), CLSEL_F32, &s, v);
    write_npy(path("e.npy"), CLSEL_F32, &s, v);
    char ok3[3200];
    snprintf(ok3, sizeof ok3, "'%s' '%s' '%s'", path("c.npy"), path("t.npy"), path("e.npy"));

#define BAD_THEN(label, message_text)                                                            \
    do {                                                                                         \
        char inputs_[3200];                                                                      \
        snprintf(inputs_, sizeof inputs_, "'%s' '%s' '%s'", path("c.npy"), path("bad.npy"),      \
                 path("e.npy"));                                                                 \
        expect_failure(label, NULL, inputs_, message_text);                                      \
        CHECK_MSG(strstr(err_text, "bad.npy"), "%s: the message does not name the file", label); \
    } while (0)

    remove(path("bad.npy"));
    BAD_THEN("missing file", "cannot open");
    write_bytes(path("bad.npy"), "\x93NUMPY", 6);
    BAD_THEN("truncated magic", "truncated file");
    write_bytes(path("bad.npy"), "PK\x03\x04 not numpy at all, just some zip-like bytes", 44);
    BAD_THEN("bad magic", "bad magic");
    write_bytes(path("bad.npy"), "\x93NUMPY\x01\x00\x40\x00{'descr': '<f4'", 25);
    BAD_THEN("truncated header", "truncated file (header of 64 bytes");
    write_npy_raw(path("bad.npy"), 1, "<f4", "False, 'shape': [2, 2]", &s, v, 16);
    BAD_THEN("malformed header", "malformed header");
    write_bytes(path("bad.npy"), "\x93NUMPY\x04\x00\x10\x00\x00\x00", 12);
    BAD_THEN("unknown version", "unsupported .npy version 4.0");
    write_npy_raw(path("bad.npy"), 1, ">f4", "False", &s, v, 16);
    BAD_THEN("big-endian", "big-endian data ('>f4') is not supported");
    write_npy_raw(path("bad.npy"), 1, "|O", "False", &s, v, 16);
    BAD_THEN("object array", "unsupported dtype '|O'");
    write_npy_raw(path("bad.npy"), 2, "|O8", "False", &s, v, 16);
    BAD_THEN("object array", "object arrays ('|O8') are not supported");
    write_npy_raw(path("bad.npy"), 1, "<c8", "False", &s, v, 16);
    BAD_THEN("complex", "unsupported dtype '<c8'");
    write_npy_text(path("bad.npy"), 1, "<f4", "False", "1,1,1,1,1,1,1,1,1", v, 4);
    BAD_THEN("9 dims", "more than 8 dims");
    write_npy_raw(path("bad.npy"), 1, "<f4", "False", &s, v, 12);
    BAD_THEN("short data",
             "data size does not match the header: <f4 {2,2} needs 16 bytes, the file holds 12");
    write_npy_raw(path("bad.npy"), 3, "<f4", "False", &s, v, 16);
    FILE *f = fopen(path("bad.npy"), "ab");
    fputc(0, f);
    fclose(f);
    BAD_THEN("long data", "the file holds 17");
    write_npy(path("bad.npy"), CLSEL_I32, &s, v);
    BAD_THEN("then/else dtypes",
             "then and else must have the same dtype: then is i32, else is f32");

    char inputs[3300];
    snprintf(inputs, sizeof inputs, "'%s' '%s' '%s'", path("t.npy"), path("t.npy"), path("e.npy"));
    expect_failure("float cond", NULL, inputs,
                   "cond must be boolean or u8 (one byte, nonzero = true), not f32");
    /* The issue's own example: cond {3,5} against {2,3,4,5}. */
    const clsel_shape c35 = SHAPE(3, 5), big = SHAPE(2, 3, 4, 5);
    uint8_t zeros[120] = {0};
    write_npy(path("c35.npy"), CLSEL_BOOLEAN, &c35, zeros);
    write_npy(path("big.npy"), CLSEL_U8, &big, zeros);
    snprintf(inputs, sizeof inputs, "'%s' '%s' '%s'", path("c35.npy"), path("big.npy"),
             path("big.npy"));
    expect_failure(
        "shape mismatch", NULL, inputs,
        "clsel: invalid shape: numpy broadcast: cond {3,5} cannot be broadcast to {2,3,4,5}");
    CHECK(strstr(err_text, "c35.npy") && strstr(err_text, "big.npy"));
    /* Without OpenCL, --device opencl fails and auto falls back to the CPU path. */
    snprintf(inputs, sizeof inputs, "%s --device opencl", ok3);
    expect_failure("no OpenCL", "CLSEL_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1", inputs,
                   "clsel: --device opencl: no OpenCL device: cannot load the OpenCL library");
    CHECK(run_tool("CLSEL_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1", "run %s -o '%s'", ok3,
                   path("o.npy")) == 0);
    remove(path("o.npy"));

    /* An existing output survives a failed run byte for byte. */
    write_npy(path("o.npy"), CLSEL_F32, &s, v);
    char before[4096], after[4096];
    slurp(path("o.npy"), before, sizeof before);
    snprintf(inputs, sizeof inputs, "'%s' '%s' '%s'", path("c35.npy"), path("big.npy"),
             path("big.npy"));
    CHECK(run_tool(NULL, "run %s -o '%s'", inputs, path("o.npy")) == 1);
    slurp(path("o.npy"), after, sizeof after);
    CHECK(memcmp(before, after, 64 + 16) == 0 && no_temp_files());
    /* Output in a folder that does not exist. */
    CHECK(run_tool(NULL, "run %s -o '%s'", ok3, path("no/such/dir/o.npy")) == 1);
    CHECK(strstr(err_text, "cannot create a file there"));
}

/* clsel kernels: the kernels' exact source (the contract, then the kernels), and the kernels
 * a plan launches and how they move its tensors, without needing OpenCL at all; bad values
 * rejected with a usage message. */
static void test_kernels(void)
{
    CHECK(run_tool("CLSEL_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1", "kernels") == 0 &&
          strstr(out_text, "select_contract.h") && strstr(out_text, "clsel_locate"));
    CHECK(run_tool(NULL, "kernels --width 2") == 2 &&
          strstr(err_text, "unexpected argument '--width'"));
    CHECK(run_tool(NULL, "kernels --help") == 0 && strstr(out_text, "usage: clsel kernels"));
    /* A row of 5 f32 beside a [N,1] input: items cross rows, the dense tensors still move
     * in 16-byte accesses, the repeated one does not; one kernel, of 2 dims. */
    CHECK(run_tool("CLSEL_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1",
                   "kernels --plan f32 1000,5 1000,5 1000,1") == 0 &&
          strstr(out_text, "kernel 2 dims") &&
          strstr(out_text, "60.0 % of the items across rows") &&
          strstr(out_text, "then dense, 100 %") && strstr(out_text, "else fixed along rows, 0 %") &&
          strstr(out_text, "\nkernel clsel_w4_r2_") &&
          strstr(out_text, " -DCLSEL_WIDTH=4 -DCLSEL_RANK=2 "));
    CHECK(run_tool(NULL, "kernels --plan u8 {} {4,32} 32") == 0 &&
          strstr(out_text, "kernel 2 dims") && strstr(out_text, "cond uniform"));
    CHECK(run_tool(NULL, "kernels --plan f32 {} 0,3 3") == 0 && strstr(out_text, "no launch"));
    CHECK(run_tool(NULL, "kernels --plan f32 2 3 4") == 1 && strstr(err_text, "do not broadcast"));
    CHECK(run_tool(NULL, "kernels --plan f33 2 2 2") == 2 &&
          strstr(err_text, "unknown dtype 'f33'"));
    CHECK(run_tool(NULL, "kernels --plan f32 2,x 2 2") == 2 &&
          strstr(err_text, "'2,x' is not a shape"));
    CHECK(run_tool(NULL, "kernels --plan f32 2 2") == 2 &&
          strstr(err_text, "--plan needs a dtype and three shapes"));
}

static void test_devices_and_demo(void)
{
    CHECK(run_tool(NULL, "demo") == 0 && strstr(out_text, "[[11, 10], [1, 8], [3, 4]]") &&
          strstr(out_text, "device: "));
    CHECK(run_tool(NULL, "demo --device cpu") == 0 && strstr(out_text, "device: cpu (CPU path)"));
    CHECK(run_tool("CLSEL_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1", "demo") == 0 &&
          strstr(out_text, "device: cpu (CPU path)") && strstr(out_text, "no OpenCL: cannot load"));
    CHECK(run_tool("CLSEL_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1", "demo --device opencl") ==
              1 &&
          strstr(err_text, "clsel: demo: no OpenCL device"));
    CHECK(run_tool(NULL, "devices") == 0);
    const char *require = getenv("CLSEL_REQUIRE_OPENCL");
    if (require && strcmp(require, "1") == 0)
        CHECK_MSG(strstr(out_text, "platform 0: ") &&
                      (strstr(out_text, "* device") ||
                       strstr(out_text, "--device auto uses the CPU path here: ")),
                  "devices printed: %s", out_text);
    CHECK(run_tool("CLSEL_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1", "devices") == 0 &&
          strstr(out_text, "No OpenCL device: cannot load the OpenCL library") &&
          strstr(out_text, "clsel will use its CPU path"));
}

static int make_scratch_dir(void)
{
    if (!tool || !dir) {
        fprintf(stderr, "test_cli: --tool PATH/TO/clsel and --dir SCRATCH_DIR are required\n");
        return 2;
    }
    mkdir(dir, 0777);
    return 0;
}

static const test_case cases[] = {
    {"round_trips", test_round_trips},
    {"options", test_options},
    {"usage", test_usage},
    {"failures", test_failures},
    {"devices_and_demo", test_devices_and_demo},
    {"kernels", test_kernels},
};

static const check_flag flags[] = {
    {"--tool", CHECK_FLAG_TEXT, &tool, NULL, "the clsel program under test"},
    {"--dir", CHECK_FLAG_TEXT, &dir, NULL, "a scratch folder for its files"},
};

int main(int argc, char **argv)
{
    const check_suite suite = {
        "test_cli", cases, CHECK_COUNT(cases), flags, CHECK_COUNT(flags), make_scratch_dir, NULL};
    return check_main(argc, argv, &suite);
}
