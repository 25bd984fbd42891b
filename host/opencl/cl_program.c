/* cl_program.c - see cl_program.h. */
#include "opencl/cl_program.h"

#include <stdio.h>

#include "cl/select_contract.h"
#include "common/element_width.h"
#include "common/error.h"
#include "plan/plan_iter.h"

/* The variant numbering is defined on each side of the line between host and kernels: as CLSEL_VARIANT in the kernels'
 * contract (OpenCL C cannot include host headers), as clsel_priv_plan_variant (host/plan/plan_iter.h) for the CPU
 * path's loop tables and the launcher. Both are weighted sums of three bits, so equal weights make them equal for every
 * variant: a change to one side that the other does not follow stops the build. */
_Static_assert(CLSEL_VARIANT(1, 0, 0) == PLAN_VARIANT_COND && CLSEL_VARIANT(0, 1, 0) == PLAN_VARIANT_THEN &&
                   CLSEL_VARIANT(0, 0, 1) == PLAN_VARIANT_ELSE && CLSEL_VARIANT(0, 0, 0) == 0,
               "cl/select_contract.h's CLSEL_VARIANT and host/plan/plan_iter.h's variants disagree");
_Static_assert(CLSEL_VARIANTS == PLAN_VARIANTS && CLSEL_READ_ROWS == 1 && CLSEL_READ_FIXED == 0,
               "a kernel's read digits 0 and 1 are the variant's bits");
_Static_assert((int)KERNELS_MAX == CLSEL_KERNELS, "a slot per kernel");

/* Only defines: every OpenCL 1.2 driver accepts -D; no fast-math options (the kernels do no arithmetic on values). */
int clsel_priv_cl_program_options(size_t elem_size, program_form form, char *options, size_t size)
{
    const int n = snprintf(options, size, "-DCLSEL_WIDTH=%zu -DCLSEL_ALIGNED=%d", elem_size, (int)form);
    return n > 0 && (size_t)n < size;
}

void clsel_priv_cl_kernel_name(size_t elem_size, int k, char *name, size_t size)
{
    snprintf(name, size, CLSEL_KERNEL_NAME_FORMAT, (int)elem_size, k / (CLSEL_READS * CLSEL_READS),
             k / CLSEL_READS % CLSEL_READS, k % CLSEL_READS);
}

/* The aligned form has no kernel that reads an input dense (a digit of k). */
int clsel_priv_cl_form_has_kernel(program_form form, int k)
{
    for (int i = 0; i < 3 && form == PROGRAM_ALIGNED; ++i, k /= CLSEL_READS)
        if (k % CLSEL_READS == CLSEL_READ_DENSE) return 0;
    return 1;
}

clsel_status clsel_cl_program_text(size_t element_bytes, int aligned, const char **source, size_t *source_size,
                                   char *options, size_t options_size)
{
    if (clsel_priv_width_index(element_bytes) < 0)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "clsel_cl_program_text: no kernels for elements of %zu bytes (1, 2, 4 or 8)",
                               element_bytes);
    if (aligned < 0 || aligned >= PROGRAM_FORMS)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cl_program_text: no program form %d (0 or 1)",
                               aligned);
    if (!source || !source_size || !options)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cl_program_text: %s is NULL",
                               !source ? "source" : !source_size ? "source_size" : "options");
    if (!clsel_priv_cl_program_options(element_bytes, (program_form)aligned, options, options_size))
        return clsel_priv_fail(CLSEL_ERROR_OVERFLOW, "clsel_cl_program_text: the options need more than %zu bytes",
                               options_size);
    *source = (const char *)clsel_priv_cl_source;
    *source_size = clsel_priv_cl_source_size;
    return CLSEL_SUCCESS;
}
