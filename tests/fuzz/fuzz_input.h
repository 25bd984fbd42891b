/* fuzz_input.h - reading a fuzzer's bytes as the values a harness needs. Past the end
 * every read gives 0, so every input, however short, is a complete test case. */
#ifndef CLSEL_TESTS_FUZZ_INPUT_H
#define CLSEL_TESTS_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "clsel.h"

typedef struct fuzz_input {
    const uint8_t *data;
    size_t size;
} fuzz_input;

static inline uint8_t fuzz_byte(fuzz_input *in)
{
    if (!in->size)
        return 0;
    in->size--;
    return *in->data++;
}

static inline uint64_t fuzz_u64(fuzz_input *in)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v |= (uint64_t)fuzz_byte(in) << (8 * i);
    return v;
}

/* A dim: mostly the sizes shapes have, sometimes the edges (0, negative, past 2^31,
 * near INT64_MAX) and sometimes any 64-bit value. */
static inline int64_t fuzz_dim(fuzz_input *in)
{
    static const int64_t table[] = {0,
                                    1,
                                    1,
                                    1,
                                    2,
                                    3,
                                    4,
                                    5,
                                    7,
                                    8,
                                    16,
                                    31,
                                    -1,
                                    -7,
                                    (int64_t)1 << 31,
                                    (int64_t)1 << 40,
                                    (int64_t)1 << 62,
                                    INT64_MAX,
                                    INT64_MIN};
    uint8_t b = fuzz_byte(in);
    if (b == 0xFF)
        return (int64_t)fuzz_u64(in);
    return table[b % (sizeof table / sizeof table[0])];
}

/* A harness's own check failing: report and stop, so that libFuzzer keeps the input. */
#define FUZZ_REQUIRE(cond, ...)                                                           \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: fuzz check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

#endif
