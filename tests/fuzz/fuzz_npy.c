/* fuzz_npy.c - the command-line tool's .npy reader on malformed files: whatever the
 * bytes, npy_parse returns 0 with a consistent array or nonzero with a message, never
 * reads past the buffer, and what it accepts survives a write and a second read
 * unchanged. */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <string.h>

#include "fuzz_input.h"
#include "npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    npy_array a;
    char err[512];
    err[0] = '\0';
    if (npy_parse(data, size, "fuzz.npy", &a, err, sizeof err) != 0) {
        FUZZ_REQUIRE(err[0] != '\0' && strncmp(err, "fuzz.npy", 8) == 0,
                     "a rejection without a message: '%s'", err);
        FUZZ_REQUIRE(a.data == NULL, "a rejection left data behind");
        return 0;
    }
    /* A zero dim makes the count 0 whatever the others are (they may be huge). */
    int64_t count = 1;
    for (int i = 0; i < a.shape.rank; ++i)
        if (a.shape.dims[i] == 0)
            count = 0;
    for (int i = 0; i < a.shape.rank && count; ++i)
        FUZZ_REQUIRE(!__builtin_mul_overflow(count, a.shape.dims[i], &count),
                     "accepted an element count past int64");
    FUZZ_REQUIRE(a.shape.rank >= 0 && a.shape.rank <= CLSEL_MAX_RANK, "rank %d", a.shape.rank);
    FUZZ_REQUIRE(a.bytes == (size_t)count * clsel_dtype_size(a.dtype),
                 "%zu bytes for %lld elements", a.bytes, (long long)count);

    char *copy = NULL;
    size_t copy_size = 0;
    FILE *f = open_memstream(&copy, &copy_size);
    FUZZ_REQUIRE(f != NULL, "open_memstream");
    FUZZ_REQUIRE(npy_write_file(f, &a, err, sizeof err) == 0, "write: %s", err);
    fclose(f);
    npy_array b;
    FUZZ_REQUIRE(
        npy_parse((const unsigned char *)copy, copy_size, "copy.npy", &b, err, sizeof err) == 0,
        "re-read: %s", err);
    FUZZ_REQUIRE(b.dtype == a.dtype && b.shape.rank == a.shape.rank && b.bytes == a.bytes,
                 "re-read differs");
    FUZZ_REQUIRE(memcmp(b.shape.dims, a.shape.dims, sizeof(int64_t) * (size_t)a.shape.rank) == 0,
                 "dims differ");
    FUZZ_REQUIRE(a.bytes == 0 || memcmp(a.data, b.data, a.bytes) == 0, "data differs");
    npy_free(&b);
    npy_free(&a);
    free(copy);
    return 0;
}
