/* testing.h - test-only hooks, compiled into the library only when CLSEL_TESTING is
 * defined (the clsel_testing target the tests link; never the installed library):
 *  - fault injection: the N-th host allocation or OpenCL call fails;
 *  - splitting every OpenCL launch into pieces of a few elements, so that the split
 *    that keeps index math in 32 bits (needed past 2^31 elements) runs on small tensors;
 *  - turning the AVX2 row loops off, so that the portable ones get tested too;
 *  - small blocks (a few elements), so that the walk over many blocks, the block order
 *    and the reuse of gathered inputs run on small tensors;
 *  - a small device allocation limit for the runtime, so that its chunked path runs on
 *    small tensors.
 * In every other build the hooks are constants and compile away. */
#ifndef CLSEL_HOST_TESTING_H
#define CLSEL_HOST_TESTING_H

typedef enum clsel_fault_kind { CLSEL_FAULT_ALLOC = 0, CLSEL_FAULT_OPENCL = 1 } clsel_fault_kind;

#ifdef CLSEL_TESTING
#include "clsel.h"
/* Counts an event of `kind`; nonzero when it is the armed one, which must then fail. */
int clsel_fault_hit(clsel_fault_kind kind);
/* Makes the n-th event of `kind` from now fail (n >= 1), or disarms it (n = 0).
 * Returns how many events of that kind happened since the last arming. */
CLSEL_API long clsel_testing_fault_arm(clsel_fault_kind kind, long n);
/* Nonzero: every clsel_cl_enqueue splits the output into pieces of at most this many
 * elements (0: the default, pieces whose offsets fit in 32 bits). */
CLSEL_API void clsel_testing_split_pieces(long elements);
long clsel_testing_piece_elements(void);
/* Nonzero: the CPU path and the OpenCL blocks family walk blocks of at most this many
 * elements, and treat rows of at least `long_row` elements as long (0: their own sizes). */
CLSEL_API void clsel_testing_blocks(long elements, long long_row);
long clsel_testing_block_elements(void);
long clsel_testing_long_row(void);
/* Nonzero: the CPU path uses its portable row loops even where AVX2 is available. */
CLSEL_API void clsel_testing_portable_cpu(int on);
int clsel_testing_portable(void);
/* Nonzero: the runtime treats this many bytes as the device's allocation limit. */
CLSEL_API void clsel_testing_max_alloc(unsigned long long bytes);
unsigned long long clsel_testing_alloc_limit(void);
/* Counts the chunked runs the runtime had to finish on the CPU path (a device failure
 * part-way), so that tests can tell a right answer from a rescued one. */
void clsel_testing_count_rescue(void);
CLSEL_API long clsel_testing_rescues(void);
#else
#define clsel_fault_hit(kind) 0
#define clsel_testing_piece_elements() 0L
#define clsel_testing_portable() 0
#define clsel_testing_block_elements() 0L
#define clsel_testing_long_row() 0L
#define clsel_testing_alloc_limit() 0ull
#define clsel_testing_count_rescue() ((void)0)
#endif

#endif
