/* alloc.h - every host allocation of the library goes through here, so that a test
 * build can make the N-th one fail (see testing.h). */
#ifndef CLSEL_HOST_ALLOC_H
#define CLSEL_HOST_ALLOC_H

#include <stddef.h>

void *clsel_priv_malloc(size_t size);
void *clsel_priv_calloc(size_t count, size_t size);
void clsel_priv_free(void *p);

#endif
