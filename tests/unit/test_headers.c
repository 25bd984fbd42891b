/* test_headers.c - both public headers compile as pedantic C11 with warnings on. */
#include "clsel_cl.h"
#include "clsel.h" /* twice: include guards */

int main(void)
{
    clsel_cl_context *ctx = NULL;
    clsel_cl_context_destroy(ctx);
    return clsel_dtype_size(CLSEL_F32) == 4 ? 0 : 1;
}
