/* alloc.c - host allocations through the caller's allocator (clsel_set_allocator). */
#include "common/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

static void *system_allocate(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void system_release(void *user, void *memory)
{
    (void)user;
    free(memory);
}

static const clsel_allocator system_allocator = {system_allocate, system_release, NULL};
static clsel_allocator current = {system_allocate, system_release, NULL};

clsel_status clsel_set_allocator(const clsel_allocator *allocator)
{
    if (allocator && (!allocator->allocate || !allocator->release))
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_set_allocator: %s is NULL",
                               allocator->allocate ? "release" : "allocate");
    current = allocator ? *allocator : system_allocator;
    return CLSEL_SUCCESS;
}

void *clsel_priv_malloc(size_t size)
{
    return current.allocate(current.user, size ? size : 1);
}

void *clsel_priv_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    const size_t bytes = count * size;
    void *p = clsel_priv_malloc(bytes);
    if (p)
        memset(p, 0, bytes);
    return p;
}

void clsel_priv_free(void *p)
{
    if (p)
        current.release(current.user, p);
}
