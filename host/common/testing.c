/* testing.c - the test-only hooks of testing.h (built only with CLSEL_TESTING). */
#include "common/testing.h"

#include <stdatomic.h>

static atomic_long fault_count[2];
static atomic_long fault_at[2];
static atomic_long piece_elements;
static atomic_long block_elements, long_row;
static atomic_int force_portable;
static atomic_ullong max_alloc;
static atomic_long rescues;

int clsel_fault_hit(clsel_fault_kind kind)
{
    long n = atomic_fetch_add(&fault_count[kind], 1) + 1;
    return n == atomic_load(&fault_at[kind]);
}

long clsel_testing_fault_arm(clsel_fault_kind kind, long n)
{
    long seen = atomic_exchange(&fault_count[kind], 0);
    atomic_store(&fault_at[kind], n);
    return seen;
}

void clsel_testing_split_pieces(long elements) { atomic_store(&piece_elements, elements); }

long clsel_testing_piece_elements(void) { return atomic_load(&piece_elements); }

void clsel_testing_blocks(long elements, long row)
{
    atomic_store(&block_elements, elements);
    atomic_store(&long_row, row);
}

long clsel_testing_block_elements(void) { return atomic_load(&block_elements); }

long clsel_testing_long_row(void) { return atomic_load(&long_row); }

void clsel_testing_portable_cpu(int on) { atomic_store(&force_portable, on); }

int clsel_testing_portable(void) { return atomic_load(&force_portable); }

void clsel_testing_max_alloc(unsigned long long bytes) { atomic_store(&max_alloc, bytes); }

unsigned long long clsel_testing_alloc_limit(void) { return atomic_load(&max_alloc); }

void clsel_testing_count_rescue(void) { atomic_fetch_add(&rescues, 1); }

long clsel_testing_rescues(void) { return atomic_load(&rescues); }
