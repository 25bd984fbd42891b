/* json.c - see json.h. Recursive descent over the whole file in memory. */
#include "json.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *p, *end;
    int failed;
} parser;

static void skip_space(parser *ps)
{
    while (ps->p < ps->end && isspace((unsigned char)*ps->p))
        ++ps->p;
}

static int parse_value(parser *ps, json *out);

static char *parse_string_raw(parser *ps)
{
    if (ps->p >= ps->end || *ps->p != '"')
        return NULL;
    ++ps->p;
    size_t cap = 16, len = 0;
    char *s = malloc(cap);
    while (s && ps->p < ps->end && *ps->p != '"') {
        char c = *ps->p++;
        if (c == '\\' && ps->p < ps->end) {
            char e = *ps->p++;
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
            if (e == 'u') { /* keep \uXXXX as '?': the vectors do not need it */
                ps->p += 4;
                c = '?';
            }
        }
        if (len + 2 > cap) {
            char *bigger = realloc(s, cap *= 2);
            if (!bigger) {
                free(s);
                return NULL;
            }
            s = bigger;
        }
        s[len++] = c;
    }
    if (!s || ps->p >= ps->end) {
        free(s);
        return NULL;
    }
    ++ps->p;
    s[len] = '\0';
    return s;
}

static int parse_list(parser *ps, json *out, char close, int members)
{
    ++ps->p;
    size_t cap = 4;
    out->items = calloc(cap, sizeof(json));
    for (;;) {
        skip_space(ps);
        if (ps->p < ps->end && *ps->p == close && out->count == 0)
            break;
        if (out->count == cap) {
            json *bigger = realloc(out->items, (cap *= 2) * sizeof(json));
            if (!bigger)
                return 0;
            out->items = bigger;
        }
        json *item = &out->items[out->count];
        memset(item, 0, sizeof *item);
        char *key = NULL;
        if (members) {
            key = parse_string_raw(ps);
            skip_space(ps);
            if (!key || ps->p >= ps->end || *ps->p != ':') {
                free(key);
                return 0;
            }
            ++ps->p;
        }
        if (!parse_value(ps, item)) {
            free(key);
            return 0;
        }
        item->key = key;
        ++out->count;
        skip_space(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ++ps->p;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close)
            break;
        return 0;
    }
    ++ps->p;
    return 1;
}

static int parse_value(parser *ps, json *out)
{
    skip_space(ps);
    if (ps->p >= ps->end)
        return 0;
    char c = *ps->p;
    if (c == '{') {
        out->kind = JSON_OBJECT;
        return parse_list(ps, out, '}', 1);
    }
    if (c == '[') {
        out->kind = JSON_ARRAY;
        return parse_list(ps, out, ']', 0);
    }
    if (c == '"') {
        out->kind = JSON_STRING;
        out->string = parse_string_raw(ps);
        return out->string != NULL;
    }
    static const struct {
        const char *word;
        json_kind kind;
        double value;
    } words[] = {{"true", JSON_BOOL, 1}, {"false", JSON_BOOL, 0}, {"null", JSON_NULL, 0}};
    for (size_t i = 0; i < 3; ++i) {
        size_t n = strlen(words[i].word);
        if ((size_t)(ps->end - ps->p) >= n && strncmp(ps->p, words[i].word, n) == 0) {
            ps->p += n;
            out->kind = words[i].kind;
            out->number = words[i].value;
            return 1;
        }
    }
    char *end = NULL;
    out->kind = JSON_NUMBER;
    out->number = strtod(ps->p, &end);
    if (end == ps->p)
        return 0;
    ps->p = end;
    return 1;
}

static void free_children(json *v)
{
    for (size_t i = 0; i < v->count; ++i) {
        free_children(&v->items[i]);
        free(v->items[i].key);
    }
    free(v->items);
    free(v->string);
}

void json_free(json *value)
{
    if (!value)
        return;
    free_children(value);
    free(value);
}

json *json_load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    size_t got = text ? fread(text, 1, (size_t)size, f) : 0;
    fclose(f);
    json *root = calloc(1, sizeof *root);
    parser ps = {text, text + got, 0};
    if (!text || !root || !parse_value(&ps, root)) {
        fprintf(stderr, "%s: malformed JSON near byte %ld\n", path,
                text ? (long)(ps.p - text) : 0L);
        free(text);
        json_free(root);
        return NULL;
    }
    free(text);
    return root;
}

const json *json_get(const json *object, const char *key)
{
    if (!object || object->kind != JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < object->count; ++i)
        if (object->items[i].key && strcmp(object->items[i].key, key) == 0)
            return &object->items[i];
    return NULL;
}
