/* json.h - a minimal JSON reader for the test vectors (objects, arrays, numbers,
 * strings, true/false/null). Not for untrusted input beyond tests. */
#ifndef CLSEL_TESTS_JSON_H
#define CLSEL_TESTS_JSON_H

#include <stddef.h>

typedef enum json_kind {
    JSON_NULL,
    JSON_BOOL,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT
} json_kind;

typedef struct json {
    json_kind kind;
    double number;      /* JSON_NUMBER, JSON_BOOL (0/1) */
    char *string;       /* JSON_STRING; the key's name for object members */
    char *key;          /* set on members of an object */
    struct json *items; /* JSON_ARRAY / JSON_OBJECT children */
    size_t count;
} json;

/* Parses a whole file; NULL (with a message on stderr) on error. */
json *json_load(const char *path);
void json_free(json *value);

/* Member of an object by key, or NULL. */
const json *json_get(const json *object, const char *key);

#endif
