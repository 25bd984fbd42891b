/* options.c - see options.h. */
#include "common/options.h"

#include <stdint.h>
#include <string.h>

#include "common/error.h"

clsel_status clsel_priv_options_read(const options_type *type, const void *given, void *out)
{
    if (!given)
        return CLSEL_SUCCESS;
    uint32_t size;
    memcpy(&size, given, sizeof size);
    if (size < type->first_size)
        return clsel_priv_fail(
            CLSEL_ERROR_INVALID_ARGUMENT,
            "%s.struct_size is %u, less than %zu, the size of its first version: start from %s()",
            type->name, (unsigned)size, type->first_size, type->defaults);
    const unsigned char *bytes = given;
    for (size_t i = type->known_size; i < size; ++i)
        if (bytes[i])
            return clsel_priv_fail(
                CLSEL_ERROR_INVALID_ARGUMENT,
                "%s.struct_size is %u and byte %zu is set: this library (%s) knows only its "
                "first %zu bytes",
                type->name, (unsigned)size, i, clsel_version(), type->known_size);
    memcpy(out, given, size < type->known_size ? size : type->known_size);
    const uint32_t known = (uint32_t)type->known_size; /* `out` is now a struct of this library's */
    memcpy(out, &known, sizeof known);
    return CLSEL_SUCCESS;
}
