/* cli.c - see cli.h. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_usage(const char *command, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "clsel %s: ", command);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'clsel %s --help'.\n", command);
    return CLI_USAGE;
}

int cli_fail(const char *fmt, ...)
{
    va_list ap;
    fputs("clsel: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_FAILED;
}

int cli_option(int argc, char **argv, int *i, const char *name, const char **value)
{
    size_t n = strlen(name);
    const char *arg = argv[*i];
    if (strncmp(arg, name, n) != 0)
        return 0;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0')
        return 0;
    *value = *i + 1 < argc ? argv[++*i] : NULL;
    return 1;
}

typedef struct cli_name {
    const char *name;
    int value;
} cli_name;

/* The value of `text` in a table of names; -1 (and *out untouched) for a name it lacks. */
static int lookup(const cli_name *table, size_t n, const char *text, int *out)
{
    for (size_t i = 0; text && i < n; ++i)
        if (strcmp(text, table[i].name) == 0) {
            *out = table[i].value;
            return 0;
        }
    return -1;
}

int cli_parse_device(const char *text, clsel_device *out)
{
    static const cli_name names[] = {
        {"auto", CLSEL_DEVICE_AUTO}, {"cpu", CLSEL_DEVICE_CPU}, {"opencl", CLSEL_DEVICE_OPENCL}};
    int value = 0;
    if (lookup(names, sizeof names / sizeof names[0], text, &value) != 0)
        return -1;
    *out = (clsel_device)value;
    return 0;
}

int cli_parse_broadcast(const char *text, clsel_broadcast *out)
{
    static const cli_name names[] = {{"numpy", CLSEL_BROADCAST_NUMPY},
                                     {"none", CLSEL_BROADCAST_NONE},
                                     {"explicit", CLSEL_BROADCAST_NONE},
                                     {"pdpd", CLSEL_BROADCAST_PDPD}};
    int value = 0;
    if (lookup(names, sizeof names / sizeof names[0], text, &value) != 0)
        return -1;
    *out = (clsel_broadcast)value;
    return 0;
}

int cli_parse_cond_broadcast(const char *text, clsel_cond_broadcast *out)
{
    static const cli_name names[] = {{"one-way", CLSEL_COND_ONE_WAY},
                                     {"bidirectional", CLSEL_COND_BIDIRECTIONAL}};
    int value = 0;
    if (lookup(names, sizeof names / sizeof names[0], text, &value) != 0)
        return -1;
    *out = (clsel_cond_broadcast)value;
    return 0;
}

int cli_parse_int64(const char *text, int64_t *out)
{
    if (!text || !*text)
        return -1;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*end || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

const char *cli_shape_text(const clsel_shape *shape, char buf[CLI_SHAPE_TEXT_MAX])
{
    size_t used = 1;
    buf[0] = '{';
    buf[1] = '\0';
    for (int d = 0; d < shape->rank && d < CLSEL_MAX_RANK; ++d) {
        int n = snprintf(buf + used, CLI_SHAPE_TEXT_MAX - used, d ? ",%lld" : "%lld",
                         (long long)shape->dims[d]);
        if (n > 0)
            used += (size_t)n;
    }
    snprintf(buf + used, CLI_SHAPE_TEXT_MAX - used, "}");
    return buf;
}

int cli_parse_shape(const char *text, clsel_shape *out)
{
    if (!text)
        return -1;
    const size_t length = strlen(text);
    const int braced = length >= 2 && text[0] == '{' && text[length - 1] == '}';
    char inner[CLI_SHAPE_TEXT_MAX];
    if (length >= sizeof inner)
        return -1;
    snprintf(inner, sizeof inner, "%.*s", (int)(braced ? length - 2 : length), text + braced);
    out->rank = 0;
    for (char *dim = inner, *next; *inner; dim = next + 1) {
        next = strchr(dim, ',');
        if (next)
            *next = '\0';
        int64_t value;
        if (out->rank == CLSEL_MAX_RANK || cli_parse_int64(dim, &value) != 0 || value < 0)
            return -1;
        out->dims[out->rank++] = value;
        if (!next)
            break;
    }
    return 0;
}
