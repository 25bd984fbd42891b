/* options.h - reading the public option structs (clsel_attrs, clsel_cpu_options), which begin with
 * the caller's struct_size so that fields can be added without breaking the ABI. */
#ifndef CLSEL_HOST_OPTIONS_H
#define CLSEL_HOST_OPTIONS_H

#include <stddef.h>

#include "clsel.h"

/* One option struct as this library knows it. */
typedef struct options_type {
    const char *name;     /* "clsel_attrs", for messages */
    const char *defaults; /* its clsel_*_default() function, for messages */
    size_t first_size;    /* the size of its first version: the least a caller may pass */
    size_t known_size;    /* the size this library was built with */
} options_type;

/* Copies the caller's struct `given` (whose first field is a uint32_t struct_size) over `out`,
 * which holds the library's defaults and is type->known_size bytes: fields the caller's (older)
 * struct lacks keep their defaults. A struct from a newer header is accepted when every byte past
 * the fields this library knows is zero (new fields' zero is always their default).
 * INVALID_ARGUMENT, naming the sizes, for a struct_size below the first version's (a struct not
 * started from the defaults function) or for unknown fields that are set. NULL `given` leaves the
 * defaults. */
clsel_status clsel_priv_options_read(const options_type *type, const void *given, void *out);

#endif
