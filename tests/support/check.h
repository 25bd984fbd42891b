/* check.h - the tests' assertions: count failures, print where they happened, go on. */
#ifndef CLSEL_TESTS_CHECK_H
#define CLSEL_TESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include "clsel.h"

/* Atomic: the thread tests check from many threads at once. */
extern _Atomic int check_failures;
extern _Atomic int check_count;

#define CHECK(expr)                                                                   \
    do {                                                                              \
        ++check_count;                                                                \
        if (!(expr)) {                                                                \
            ++check_failures;                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #expr); \
        }                                                                             \
    } while (0)

#define CHECK_MSG(expr, ...)                                                     \
    do {                                                                         \
        ++check_count;                                                           \
        if (!(expr)) {                                                           \
            ++check_failures;                                                    \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #expr); \
            fprintf(stderr, __VA_ARGS__);                                        \
            fputc('\n', stderr);                                                 \
        }                                                                        \
    } while (0)

/* Checks a clsel_status, printing both names and the library's message on mismatch. */
#define CHECK_STATUS(expr, expected)                                                        \
    do {                                                                                    \
        clsel_status check_got_ = (expr);                                                   \
        ++check_count;                                                                      \
        if (check_got_ != (expected)) {                                                     \
            ++check_failures;                                                               \
            fprintf(stderr, "%s:%d: %s gave %s, expected %s (%s)\n", __FILE__, __LINE__,   \
                    #expr, clsel_status_string(check_got_), clsel_status_string(expected), \
                    clsel_last_error());                                                   \
        }                                                                                   \
    } while (0)

#define CHECK_OK(expr) CHECK_STATUS(expr, CLSEL_SUCCESS)

/* Prints the tally; the exit status for main. */
int check_report(const char *test_name);

#endif
