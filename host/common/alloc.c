/* alloc.c - host allocations (with the test-only failure hook). */
#include "common/alloc.h"

#include <stdlib.h>

#include "common/testing.h"

void *clsel_priv_malloc(size_t size)
{
    if (clsel_fault_hit(CLSEL_FAULT_ALLOC)) return NULL;
    return malloc(size ? size : 1);
}

void *clsel_priv_calloc(size_t count, size_t size)
{
    if (clsel_fault_hit(CLSEL_FAULT_ALLOC)) return NULL;
    return calloc(count ? count : 1, size ? size : 1);
}

void clsel_priv_free(void *p) { free(p); }
