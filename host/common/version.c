/* version.c - the version of the library actually linked. */
#include "clsel.h"

#define CLSEL_STR2(x) #x
#define CLSEL_STR(x) CLSEL_STR2(x)

const char *clsel_version(void)
{
    return CLSEL_STR(CLSEL_VERSION_MAJOR) "." CLSEL_STR(CLSEL_VERSION_MINOR) "." CLSEL_STR(
        CLSEL_VERSION_PATCH);
}
