/* cl_program.c - see cl_program.h. */
#include "opencl/cl_program.h"

#include <stdio.h>

#include "cl/select_contract.h"
#include "common/element_width.h"
#include "common/error.h"
#include "plan/plan_operands.h"

/* The variant numbering has one definition on each side of the line between host and
 * kernels: the kernels' contract spells it as CLSEL_VARIANT (cl/select_contract.h:
 * OpenCL C, which cannot include host headers), the host as clsel_priv_plan_variant
 * (host/plan/plan_operands.h), which the CPU path's loop tables and the launchers use.
 * Both are weighted sums of three bits, so equal weights make them equal for every
 * variant: a change to either side that the other does not follow stops the build. */
_Static_assert(CLSEL_VARIANT(1, 0, 0) == PLAN_VARIANT_COND && CLSEL_VARIANT(0, 1, 0) == PLAN_VARIANT_THEN &&
                   CLSEL_VARIANT(0, 0, 1) == PLAN_VARIANT_ELSE && CLSEL_VARIANT(0, 0, 0) == 0,
               "cl/select_contract.h's CLSEL_VARIANT and host/plan/plan_operands.h's variants disagree");
_Static_assert(CLSEL_VARIANTS == PLAN_VARIANTS && (int)KERNEL_PICK == (int)PLAN_VARIANTS,
               "one kernel per variant, then the blocks family's pick");

/* The embedded sources (generated at build time by cmake/embed_cl.cmake). */
extern const unsigned char clsel_priv_blocks_cl_source[];
extern const size_t clsel_priv_blocks_cl_source_size;
extern const unsigned char clsel_priv_vectors_cl_source[];
extern const size_t clsel_priv_vectors_cl_source_size;

static const struct family_info {
    const char *name; /* as in the kernel names */
    int forms, kernels;
    const unsigned char *source;
    const size_t *size;
} families[] = {
    [CLSEL_CL_FAMILY_BLOCKS] = {"blocks", 1, KERNEL_PICK + 1, clsel_priv_blocks_cl_source,
                                &clsel_priv_blocks_cl_source_size},
    [CLSEL_CL_FAMILY_VECTORS] = {"vectors", PROGRAM_FORMS, CLSEL_VARIANTS, clsel_priv_vectors_cl_source,
                                 &clsel_priv_vectors_cl_source_size},
};

int clsel_priv_cl_family_forms(clsel_cl_family family) { return families[family].forms; }
int clsel_priv_cl_family_kernels(clsel_cl_family family) { return families[family].kernels; }

void clsel_priv_cl_program_source(clsel_cl_family family, const char **source, size_t *size)
{
    *source = (const char *)families[family].source;
    *size = *families[family].size;
}

/* Only defines: every OpenCL 1.2 driver accepts -D, and fast-math options stay off (the
 * kernels do no arithmetic on values anyway). */
int clsel_priv_cl_program_options(clsel_cl_family family, size_t elem_size, program_form form, char *options,
                                  size_t size)
{
    const int n = family == CLSEL_CL_FAMILY_VECTORS
                      ? snprintf(options, size, "-DCLSEL_WIDTH=%zu -DCLSEL_ALIGNED=%d", elem_size, (int)form)
                      : snprintf(options, size, "-DCLSEL_WIDTH=%zu", elem_size);
    return n > 0 && (size_t)n < size;
}

void clsel_priv_cl_kernel_name(clsel_cl_family family, size_t elem_size, int k, char *name, size_t size)
{
    if (k == KERNEL_PICK)
        snprintf(name, size, CLSEL_PICK_NAME_FORMAT, (int)elem_size);
    else
        snprintf(name, size, CLSEL_KERNEL_NAME_FORMAT, families[family].name, (int)elem_size,
                 (k & PLAN_VARIANT_COND) != 0, (k & PLAN_VARIANT_THEN) != 0, (k & PLAN_VARIANT_ELSE) != 0);
}

clsel_status clsel_cl_program_text(clsel_cl_family family, size_t element_bytes, int aligned, const char **source,
                                   size_t *source_size, char *options, size_t options_size)
{
    if (family != CLSEL_CL_FAMILY_BLOCKS && family != CLSEL_CL_FAMILY_VECTORS)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cl_program_text: no kernel family %d", (int)family);
    if (clsel_priv_width_index(element_bytes) < 0)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT,
                               "clsel_cl_program_text: no kernels for elements of %zu bytes (1, 2, 4 or 8)",
                               element_bytes);
    if (aligned < 0 || aligned >= families[family].forms)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cl_program_text: the %s family has no form %d",
                               families[family].name, aligned);
    if (!source || !source_size || !options)
        return clsel_priv_fail(CLSEL_ERROR_INVALID_ARGUMENT, "clsel_cl_program_text: %s is NULL",
                               !source ? "source" : !source_size ? "source_size" : "options");
    if (!clsel_priv_cl_program_options(family, element_bytes, (program_form)aligned, options, options_size))
        return clsel_priv_fail(CLSEL_ERROR_OVERFLOW, "clsel_cl_program_text: the options need more than %zu bytes",
                               options_size);
    clsel_priv_cl_program_source(family, source, source_size);
    return CLSEL_SUCCESS;
}
