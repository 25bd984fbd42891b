/* check.c - the tally behind check.h, and the case runner. */
#include "check.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

_Atomic int check_failures = 0;
_Atomic int check_count = 0;

int check_report(const char *test_name)
{
    printf("%s: %d checks, %d failed\n", test_name, (int)check_count, (int)check_failures);
    if (check_count == 0) {
        fprintf(stderr, "%s: no checks ran\n", test_name);
        return 1;
    }
    return check_failures ? 1 : 0;
}

static void print_usage(FILE *to, const check_suite *suite)
{
    fprintf(to,
            "usage: %s [FLAG...] [CASE...]   (no CASE: all of them; --list: their names)\ncases:",
            suite->name);
    for (size_t i = 0; i < suite->case_count; ++i)
        fprintf(to, " %s", suite->cases[i].name);
    fputc('\n', to);
    if (suite->flag_count)
        fprintf(to, "flags:\n");
    static const char *const value_names[] = {"", " N", " N", " TEXT", " "};
    for (size_t i = 0; i < suite->flag_count; ++i) {
        const check_flag *f = &suite->flags[i];
        fprintf(to, "  %s%s%s  %s\n", f->name, value_names[f->kind],
                f->kind == CHECK_FLAG_CHOICE ? f->choices : "", f->help);
    }
}

static const check_flag *find_flag(const check_suite *suite, const char *name, size_t length)
{
    for (size_t i = 0; i < suite->flag_count; ++i)
        if (strlen(suite->flags[i].name) == length &&
            strncmp(suite->flags[i].name, name, length) == 0)
            return &suite->flags[i];
    return NULL;
}

/* The index of `word` among the '|'-separated `choices`, or -1. */
static int choice_index(const char *choices, const char *word)
{
    const size_t length = strlen(word);
    int index = 0;
    for (const char *at = choices; *at; ++index) {
        const char *end = strchr(at, '|');
        const size_t n = end ? (size_t)(end - at) : strlen(at);
        if (n == length && strncmp(at, word, n) == 0)
            return index;
        at += n + (end != NULL);
    }
    return -1;
}

/* Stores `text` as the flag's value; 0 when it is not one. */
static int set_flag(const check_flag *f, const char *text)
{
    char *end = NULL;
    errno = 0;
    switch (f->kind) {
    case CHECK_FLAG_SWITCH:
        *(int *)f->value = 1;
        return 1;
    case CHECK_FLAG_I64:
        *(int64_t *)f->value = strtoll(text, &end, 10);
        break;
    case CHECK_FLAG_U64:
        *(uint64_t *)f->value = strtoull(text, &end, 10);
        break;
    case CHECK_FLAG_TEXT:
        *(const char **)f->value = text;
        return 1;
    case CHECK_FLAG_CHOICE:
        *(int *)f->value = choice_index(f->choices, text);
        return *(int *)f->value >= 0;
    }
    return errno == 0 && end != text && *end == '\0';
}

static const test_case *find_case(const check_suite *suite, const char *name)
{
    for (size_t i = 0; i < suite->case_count; ++i)
        if (strcmp(suite->cases[i].name, name) == 0)
            return &suite->cases[i];
    return NULL;
}

static int usage_error(const check_suite *suite)
{
    print_usage(stderr, suite);
    return 2;
}

int check_main(int argc, char **argv, const check_suite *suite)
{
    /* The named cases (at most argc), or every case. */
    const test_case **chosen = malloc(((size_t)argc + suite->case_count) * sizeof *chosen);
    if (!chosen)
        return 1;
    size_t chosen_count = 0;
    int status = 0;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (strcmp(arg, "--list") == 0) {
            for (size_t k = 0; k < suite->case_count; ++k)
                printf("%s\n", suite->cases[k].name);
            goto done;
        }
        if (strcmp(arg, "--help") == 0) {
            print_usage(stdout, suite);
            goto done;
        }
        if (strncmp(arg, "--", 2) == 0) {
            const char *equals = strchr(arg, '=');
            const check_flag *f =
                find_flag(suite, arg, equals ? (size_t)(equals - arg) : strlen(arg));
            const char *value = equals ? equals + 1 : NULL;
            if (f && f->kind != CHECK_FLAG_SWITCH && !value)
                value = i + 1 < argc ? argv[++i] : NULL;
            if (!f || (f->kind != CHECK_FLAG_SWITCH && !value) || !set_flag(f, value)) {
                fprintf(stderr, "%s: %s '%s'%s%s\n", suite->name,
                        f ? "bad value for" : "unknown flag", arg, value ? " " : "",
                        value ? value : "");
                status = usage_error(suite);
                goto done;
            }
            continue;
        }
        chosen[chosen_count] = find_case(suite, arg);
        if (!chosen[chosen_count]) {
            fprintf(stderr, "%s: no case '%s'\n", suite->name, arg);
            status = usage_error(suite);
            goto done;
        }
        ++chosen_count;
    }
    if (chosen_count == 0)
        for (; chosen_count < suite->case_count; ++chosen_count)
            chosen[chosen_count] = &suite->cases[chosen_count];

    status = suite->setup ? suite->setup() : 0;
    if (status != 0)
        goto done;
    for (size_t i = 0; i < chosen_count; ++i) {
        const int failures_before = check_failures;
        printf("-- %s\n", chosen[i]->name);
        fflush(stdout);
        chosen[i]->run();
        if (check_failures != failures_before)
            fprintf(stderr, "%s %s: %d checks failed\n", suite->name, chosen[i]->name,
                    check_failures - failures_before);
    }
    if (suite->teardown)
        suite->teardown();
    status = check_report(suite->name);
done:
    free(chosen);
    return status;
}
