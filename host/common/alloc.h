/* alloc.h - every host allocation of the library goes through here, and from here through the
 * allocator the caller installed with clsel_set_allocator (malloc/free by default). */
#ifndef CLSEL_HOST_ALLOC_H
#define CLSEL_HOST_ALLOC_H

#include <stddef.h>

#include "clsel.h"

void *clsel_priv_malloc(size_t size);
void *clsel_priv_calloc(size_t count, size_t size); /* zeroed; NULL if count * size overflows */
void clsel_priv_free(void *p);                      /* NULL is fine */

#endif
