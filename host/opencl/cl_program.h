/* cl_program.h - the programs clsel builds and the kernels in them: per family its OpenCL
 * C source (cl/select_contract.h, cl/select_common.cl and the family's file, embedded at
 * build time), the build options of an element width and form, and the kernel names,
 * all from the contract's conventions. */
#ifndef CLSEL_HOST_CL_PROGRAM_H
#define CLSEL_HOST_CL_PROGRAM_H

#include <stddef.h>

#include "clsel_cl.h"

/* The forms of a program (cl/select_vectors.cl): element-aligned, or for runs whose every
 * 16-byte item lies on 16-byte boundaries. The blocks family has only the first. */
typedef enum program_form { PROGRAM_ANY = 0, PROGRAM_ALIGNED = 1, PROGRAM_FORMS = 2 } program_form;

/* Kernels per program: one per variant (CLSEL_VARIANT), and the blocks family's pick. */
enum { KERNEL_PICK = 8, KERNELS_MAX = 9 };

int clsel_priv_cl_family_forms(clsel_cl_family family);
int clsel_priv_cl_family_kernels(clsel_cl_family family);

/* The family's program source (not NUL-terminated). */
void clsel_priv_cl_program_source(clsel_cl_family family, const char **source, size_t *size);

/* The build options of a program; 0 when they do not fit in `size` bytes. */
int clsel_priv_cl_program_options(clsel_cl_family family, size_t elem_size, program_form form, char *options,
                                  size_t size);

/* Kernel k (a variant, or KERNEL_PICK) of a program for elements of elem_size bytes. */
void clsel_priv_cl_kernel_name(clsel_cl_family family, size_t elem_size, int k, char *name, size_t size);

#endif
