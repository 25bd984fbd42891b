/* check.h - the tests' assertions: count failures, print where they happened, go on. */
#ifndef CLSEL_TESTS_CHECK_H
#define CLSEL_TESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include "clsel.h"

/* Atomic: the thread tests check from many threads at once. */
extern _Atomic int check_failures;
extern _Atomic int check_count;

#define CHECK(expr)                                                                  \
    do {                                                                             \
        ++check_count;                                                               \
        if (!(expr)) {                                                               \
            ++check_failures;                                                        \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #expr); \
        }                                                                            \
    } while (0)

#define CHECK_MSG(expr, ...)                                                         \
    do {                                                                             \
        ++check_count;                                                               \
        if (!(expr)) {                                                               \
            ++check_failures;                                                        \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #expr); \
            fprintf(stderr, __VA_ARGS__);                                            \
            fputc('\n', stderr);                                                     \
        }                                                                            \
    } while (0)

/* Checks a clsel_status, printing both names and the library's message on mismatch. */
#define CHECK_STATUS(expr, expected)                                                            \
    do {                                                                                        \
        clsel_status check_got_ = (expr);                                                       \
        ++check_count;                                                                          \
        if (check_got_ != (expected)) {                                                         \
            ++check_failures;                                                                   \
            fprintf(stderr, "%s:%d: %s gave %s, expected %s (%s)\n", __FILE__, __LINE__, #expr, \
                    clsel_status_string(check_got_), clsel_status_string(expected),             \
                    clsel_last_error());                                                        \
        }                                                                                       \
    } while (0)

#define CHECK_OK(expr) CHECK_STATUS(expr, CLSEL_SUCCESS)

/* Prints the tally; the exit status for main. */
int check_report(const char *test_name);

/* ---- A test program is a table of named cases (check_main runs them) -------------------
 *
 *   test_x [FLAG...] [CASE...]   the named cases in that order (none named: every case)
 *   test_x --list                the case names, one a line
 *   test_x --help                the cases and flags
 *
 * Flags start with "--" and case names never do, so the two cannot collide. An unknown
 * case or flag is a usage error: exit 2, naming what there is. */
typedef struct test_case {
    const char *name;
    void (*run)(void);
} test_case;

typedef enum check_flag_kind {
    CHECK_FLAG_SWITCH, /* --name: an int set to 1 */
    CHECK_FLAG_I64,    /* --name N: an int64_t */
    CHECK_FLAG_U64,    /* --name N: a uint64_t */
    CHECK_FLAG_TEXT,   /* --name TEXT: a const char * into argv */
    CHECK_FLAG_CHOICE  /* --name WORD: the int index of WORD in `choices` ("cpu|opencl") */
} check_flag_kind;

typedef struct check_flag {
    const char *name; /* with its dashes: "--cases" */
    check_flag_kind kind;
    void *value; /* where the value goes; it holds the default until then */
    const char *choices;
    const char *help;
} check_flag;

typedef struct check_suite {
    const char *name; /* the program's name, for messages and the tally */
    const test_case *cases;
    size_t case_count;
    const check_flag *flags;
    size_t flag_count;
    int (*setup)(
        void); /* after the flags, before the first case (may be NULL): 0 or an exit status */
    void (*teardown)(void); /* after the last case (may be NULL) */
} check_suite;

#define CHECK_COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* Parses argv, runs setup, the chosen cases and teardown; the exit status for main. */
int check_main(int argc, char **argv, const check_suite *suite);

#endif
