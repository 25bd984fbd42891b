/* npy.c - see npy.h. The format: the magic "\x93NUMPY", a major and a minor version
 * byte, the header length (2 bytes little-endian in 1.0, 4 bytes in 2.0 and 3.0), then
 * a Python dict literal with 'descr', 'fortran_order' and 'shape', padded with spaces
 * and ended by '\n', then the raw data. */
#include "npy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_SIZE 6
#define NPY_MAX_HEADER (1u << 20) /* sanity limit; numpy itself refuses more than 10000 */

/* (kind, size) -> dtype; the descr clsel writes for each dtype. */
static const struct {
    char kind;
    size_t size;
    clsel_dtype dtype;
    const char *write_as;
} descr_table[] = {
    {'b', 1, CLSEL_BOOLEAN, "|b1"}, {'u', 1, CLSEL_U8, "|u1"},  {'i', 1, CLSEL_I8, "|i1"},
    {'u', 2, CLSEL_U16, "<u2"},     {'i', 2, CLSEL_I16, "<i2"}, {'f', 2, CLSEL_F16, "<f2"},
    {'V', 2, CLSEL_BF16, "|V2"},    {'u', 4, CLSEL_U32, "<u4"}, {'i', 4, CLSEL_I32, "<i4"},
    {'f', 4, CLSEL_F32, "<f4"},     {'u', 8, CLSEL_U64, "<u8"}, {'i', 8, CLSEL_I64, "<i8"},
    {'f', 8, CLSEL_F64, "<f8"},
};

static int fail(char *err, size_t size, const char *name, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(err, size, "%s: %s", name, what);
    return -1;
}

const char *npy_descr(clsel_dtype dtype)
{
    for (size_t i = 0; i < sizeof descr_table / sizeof descr_table[0]; ++i)
        if (descr_table[i].dtype == dtype)
            return descr_table[i].write_as;
    return NULL;
}

/* ---- the header dict -------------------------------------------------------------- */

typedef struct cursor {
    const char *p, *end;
} cursor;

static void skip_space(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        ++c->p;
}

static int accept(cursor *c, char ch)
{
    skip_space(c);
    if (c->p < c->end && *c->p == ch) {
        ++c->p;
        return 1;
    }
    return 0;
}

static int accept_word(cursor *c, const char *word)
{
    size_t n = strlen(word);
    skip_space(c);
    if ((size_t)(c->end - c->p) >= n && memcmp(c->p, word, n) == 0) {
        c->p += n;
        return 1;
    }
    return 0;
}

/* A Python string literal in single or double quotes (no escapes in .npy headers). */
static int parse_string(cursor *c, char *out, size_t size)
{
    skip_space(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return 0;
    char quote = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != quote) {
        if (n + 1 >= size)
            return 0;
        out[n++] = *c->p++;
    }
    if (c->p >= c->end)
        return 0;
    ++c->p;
    out[n] = '\0';
    return 1;
}

static int parse_shape(cursor *c, clsel_shape *shape, const char *name, char *err, size_t err_size)
{
    memset(shape, 0, sizeof *shape);
    if (!accept(c, '('))
        return fail(err, err_size, name, "malformed header: 'shape' is not a tuple");
    while (!accept(c, ')')) {
        skip_space(c);
        /* What stands where the dimension should be, for the messages: up to the next
         * ',' or ')' (at most 24 characters; the header is not NUL-terminated). */
        int shown = 0;
        while (shown < 24 && c->p + shown < c->end && c->p[shown] != ',' && c->p[shown] != ')')
            ++shown;
        if (c->p >= c->end || *c->p < '0' || *c->p > '9')
            return fail(err, err_size, name,
                        "malformed header: '%.*s' in 'shape' is not a dimension (0 or more)", shown,
                        c->p);
        /* Digits by hand: strtoll could read on past the header (found by
         * tests/fuzz/fuzz_npy.c). */
        int64_t dim = 0;
        for (const char *start = c->p; c->p < c->end && *c->p >= '0' && *c->p <= '9'; ++c->p) {
            if (dim > (INT64_MAX - (*c->p - '0')) / 10)
                return fail(err, err_size, name,
                            "malformed header: dimension '%.*s' in 'shape' is past 2^63-1", shown,
                            start);
            dim = dim * 10 + (*c->p - '0');
        }
        if (c->p < c->end && (*c->p == 'L' || *c->p == 'l'))
            ++c->p; /* Python 2 longs */
        if (shape->rank == CLSEL_MAX_RANK)
            return fail(err, err_size, name, "more than %d dims (clsel's limit)", CLSEL_MAX_RANK);
        shape->dims[shape->rank++] = dim;
        if (!accept(c, ',') && !(skip_space(c), c->p < c->end && *c->p == ')'))
            return fail(err, err_size, name, "malformed header: 'shape' tuple");
    }
    return 0;
}

static int parse_descr(const char *descr, clsel_dtype *dtype, const char *name, char *err,
                       size_t err_size)
{
    size_t len = strlen(descr);
    if (len < 3)
        return fail(err, err_size, name, "unsupported dtype '%s'", descr);
    char order = descr[0], kind = descr[1];
    char *stop = NULL;
    long size = strtol(descr + 2, &stop, 10);
    if (*stop || strchr("<>|=", order) == NULL || size <= 0)
        return fail(err, err_size, name, "unsupported dtype '%s'", descr);
    if (kind == 'O')
        return fail(err, err_size, name, "object arrays ('%s') are not supported", descr);
    if (size > 1 && order == '>')
        return fail(err, err_size, name, "big-endian data ('%s') is not supported", descr);
    if (size > 1 && order == '|' && kind != 'V') /* void (bf16) has no byte order */
        return fail(err, err_size, name, "unsupported dtype '%s' (no byte order)", descr);
    for (size_t i = 0; i < sizeof descr_table / sizeof descr_table[0]; ++i)
        if (descr_table[i].kind == kind && descr_table[i].size == (size_t)size) {
            *dtype = descr_table[i].dtype;
            return 0;
        }
    return fail(err, err_size, name, "unsupported dtype '%s'", descr);
}

/* Parses the header dict into dtype and shape. */
static int parse_header(const char *text, size_t size, npy_array *out, const char *name, char *err,
                        size_t err_size)
{
    cursor c = {text, text + size};
    int have_descr = 0, have_order = 0, have_shape = 0;
    if (!accept(&c, '{'))
        return fail(err, err_size, name, "malformed header: not a dict");
    while (!accept(&c, '}')) {
        char key[32] = "", value[64] = "";
        if (!parse_string(&c, key, sizeof key) || !accept(&c, ':'))
            return fail(err, err_size, name, "malformed header: expected 'key': value");
        if (strcmp(key, "descr") == 0) {
            skip_space(&c);
            if (c.p < c.end && *c.p == '[')
                return fail(err, err_size, name, "structured arrays are not supported");
            if (!parse_string(&c, value, sizeof value))
                return fail(err, err_size, name, "malformed header: 'descr' is not a string");
            if (parse_descr(value, &out->dtype, name, err, err_size))
                return -1;
            have_descr = 1;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (accept_word(&c, "True"))
                out->fortran_order = 1;
            else if (!accept_word(&c, "False"))
                return fail(err, err_size, name,
                            "malformed header: 'fortran_order' is not True or False");
            have_order = 1;
        } else if (strcmp(key, "shape") == 0) {
            if (parse_shape(&c, &out->shape, name, err, err_size))
                return -1;
            have_shape = 1;
        } else {
            return fail(err, err_size, name, "malformed header: unexpected key '%s'", key);
        }
        if (!accept(&c, ',') && !(skip_space(&c), c.p < c.end && *c.p == '}'))
            return fail(err, err_size, name, "malformed header: expected ',' or '}'");
    }
    if (!have_descr || !have_order || !have_shape)
        return fail(err, err_size, name, "malformed header: missing '%s'",
                    !have_descr   ? "descr"
                    : !have_order ? "fortran_order"
                                  : "shape");
    return 0;
}

int npy_parse(const unsigned char *file, size_t size, const char *name, npy_array *out, char *err,
              size_t err_size)
{
    memset(out, 0, sizeof *out);
    if (size < NPY_MAGIC_SIZE + 2 || memcmp(file, NPY_MAGIC, NPY_MAGIC_SIZE) != 0)
        return fail(err, err_size, name,
                    size < NPY_MAGIC_SIZE + 2 ? "truncated file (no .npy header)"
                                              : "not a .npy file (bad magic)");
    unsigned major = file[6], minor = file[7];
    if (major < 1 || major > 3 || minor != 0)
        return fail(err, err_size, name, "unsupported .npy version %u.%u", major, minor);
    size_t len_size = major == 1 ? 2 : 4, header_start = NPY_MAGIC_SIZE + 2 + len_size;
    if (size < header_start)
        return fail(err, err_size, name, "truncated file (header length)");
    size_t header_len = file[8] | (size_t)file[9] << 8;
    if (len_size == 4)
        header_len |= (size_t)file[10] << 16 | (size_t)file[11] << 24;
    if (header_len > NPY_MAX_HEADER)
        return fail(err, err_size, name, "malformed header: %zu bytes long", header_len);
    if (size - header_start < header_len)
        return fail(err, err_size, name, "truncated file (header of %zu bytes, %zu present)",
                    header_len, size - header_start);
    if (parse_header((const char *)file + header_start, header_len, out, name, err, err_size)) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    size_t w = clsel_dtype_size(out->dtype);
    /* A 0 dim anywhere makes the array empty, whatever the other dims multiply to, so
     * look for one before multiplying. */
    uint64_t count = 1;
    int overflow = 0;
    for (int d = 0; d < out->shape.rank; ++d)
        if (out->shape.dims[d] == 0)
            count = 0;
    for (int d = 0; d < out->shape.rank && count; ++d) {
        uint64_t dim = (uint64_t)out->shape.dims[d];
        if (dim > UINT64_MAX / count)
            overflow = 1;
        count *= dim;
    }
    if (overflow || count > (uint64_t)INT64_MAX || count > SIZE_MAX / w) {
        char shape[CLI_SHAPE_TEXT_MAX];
        cli_shape_text(&out->shape, shape);
        const char *descr = npy_descr(out->dtype);
        memset(out, 0, sizeof *out);
        return fail(err, err_size, name,
                    "the shape %s %s in the header is too large: its %s overflows", descr, shape,
                    overflow || count > (uint64_t)INT64_MAX ? "element count" : "byte size");
    }
    size_t data_size = size - header_start - header_len, want = (size_t)count * w;
    if (data_size != want) {
        char shape[CLI_SHAPE_TEXT_MAX];
        cli_shape_text(&out->shape, shape);
        const char *descr = npy_descr(out->dtype);
        memset(out, 0, sizeof *out);
        return fail(
            err, err_size, name,
            "data size does not match the header: %s %s needs %zu bytes, the file holds %zu", descr,
            shape, want, data_size);
    }
    out->bytes = want;
    out->data = malloc(want ? want : 1);
    if (!out->data) {
        memset(out, 0, sizeof *out);
        return fail(err, err_size, name, "out of memory for %zu bytes", want);
    }
    memcpy(out->data, file + header_start + header_len, want);
    return 0;
}

int npy_read(const char *path, npy_array *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(err, err_size, path, "cannot open: %s", strerror(errno));
    unsigned char *file = NULL;
    size_t size = 0, capacity = 0;
    for (;;) {
        if (size == capacity) {
            capacity = capacity ? capacity * 2 : 1 << 16;
            unsigned char *bigger = realloc(file, capacity);
            if (!bigger) {
                free(file);
                fclose(f);
                return fail(err, err_size, path, "out of memory reading the file");
            }
            file = bigger;
        }
        size_t got = fread(file + size, 1, capacity - size, f);
        size += got;
        if (got == 0)
            break;
    }
    int read_error = ferror(f);
    fclose(f);
    int rc = read_error ? fail(err, err_size, path, "read error")
                        : npy_parse(file, size, path, out, err, err_size);
    free(file);
    return rc;
}

int npy_write_file(void *stream, const npy_array *a, char *err, size_t err_size)
{
    FILE *f = stream;
    const char *descr = npy_descr(a->dtype);
    if (!descr)
        return fail(err, err_size, "output", "no .npy type for dtype %s",
                    clsel_dtype_name(a->dtype));
    char dict[512];
    int n =
        snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (int d = 0; d < a->shape.rank; ++d)
        n += snprintf(dict + n, sizeof dict - (size_t)n, "%lld,%s", (long long)a->shape.dims[d],
                      d + 1 < a->shape.rank ? " " : "");
    if (a->shape.rank > 1)
        --n; /* numpy writes (2, 3) but (3,) */
    n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
    /* Pad with spaces so that the data starts at a multiple of 64 bytes, '\n' last. At
     * most 8 dims keep the dict under 300 bytes, so version 1.0's 2-byte length always
     * suffices and 2.0 is never needed. */
    size_t header_len = (size_t)n + 1, prefix = NPY_MAGIC_SIZE + 2 + 2;
    header_len += (64 - (prefix + header_len) % 64) % 64;
    unsigned char lead[12];
    memcpy(lead, NPY_MAGIC, NPY_MAGIC_SIZE);
    lead[6] = 1;
    lead[7] = 0;
    lead[8] = (unsigned char)(header_len & 0xFF);
    lead[9] = (unsigned char)(header_len >> 8);
    int ok = fwrite(lead, 1, prefix, f) == prefix && fwrite(dict, 1, (size_t)n, f) == (size_t)n;
    for (size_t i = (size_t)n; ok && i + 1 < header_len; ++i)
        ok = fputc(' ', f) != EOF;
    ok = ok && fputc('\n', f) != EOF;
    ok = ok && (a->bytes == 0 || fwrite(a->data, 1, a->bytes, f) == a->bytes);
    if (!ok)
        return fail(err, err_size, "output", "write error: %s", strerror(errno));
    return 0;
}

void npy_free(npy_array *a)
{
    free(a->data);
    memset(a, 0, sizeof *a);
}
